//! The explicit-heap engine: explores the CFA with a waitlist of explicit-heap states, covers
//! states that repeat at loop heads, decides symbolic branches with Z3, and turns the first
//! confirmed violation into a FALSE verdict.
//!
//! Consumes a [`Program`], the checked properties and [`Limits`]; produces an [`Outcome`]:
//! a replayed counterexample, a complete exploration (TRUE), or the reasons it is incomplete.
//! States wait in order of the number of nondeterministic choices on their path, so every run
//! with k choices is explored before any with k + 1: short counterexamples come first.

use crate::explicit::exec::{Exec, Outcome as Step, State, Violation};
use crate::explicit::memory::Memory;
use crate::explicit::replay::{Replay, replay};
use crate::explicit::term::TermRef;
use crate::program::ir::Program;
use crate::program::property::PropertySet;
use crate::smt::{self, Answer};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use petgraph::visit::EdgeRef;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::time::{Duration, Instant};

/// Bounds of one exploration.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Edges taken in total.
    pub max_steps: u64,
    /// Edges on one path.
    pub max_path: u32,
    /// Live heap blocks in one state. Generous: a program whose loops are bounded (ten lists
    /// of up to five cells each, built by counted loops) completes its state space with a
    /// hundred blocks and more; an unbounded one runs into the step or time limit either way.
    pub max_heap: usize,
    /// Wall-clock time.
    pub timeout: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 3_000_000,
            max_path: 50_000,
            max_heap: 256,
            timeout: None,
        }
    }
}

/// Counters of one exploration.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Edges taken.
    pub steps: u64,
    /// States taken from the waitlist.
    pub states: u64,
    /// States found again at a loop head and not explored further.
    pub covered: u64,
    /// Runs that reached their end (return from main, exit, abort).
    pub ended: u64,
    /// Satisfiability checks.
    pub solver_calls: u64,
    /// Candidate violations whose path was infeasible or did not replay.
    pub spurious: u64,
    /// The largest number of nondeterministic choices on an explored path.
    pub max_choices: u32,
}

/// A confirmed violation with its concrete trace.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The violation as the replay reached it.
    pub violation: Violation,
    /// The replayed run.
    pub trace: Replay,
}

/// The result of an exploration.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A violation that replays concretely.
    Violation(Box<Counterexample>),
    /// Every path was explored to its end or to a covered state: no violation exists.
    Complete,
    /// No violation found, but the exploration is incomplete for these reasons.
    Incomplete(Vec<String>),
}

/// A state waiting to be followed, with the key that orders the waitlist (greatest first).
struct Waiting(State, Reverse<(usize, u32, u64)>);

impl PartialEq for Waiting {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
    }
}
impl Eq for Waiting {}
impl PartialOrd for Waiting {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Waiting {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.key().cmp(&o.key())
    }
}
impl Waiting {
    fn key(&self) -> Reverse<(usize, u32, u64)> {
        self.1
    }
}

/// The order in which an exploration follows its waiting states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// Fewest nondeterministic choices first (breadth-first over choices: the shortest
    /// counterexamples first).
    #[default]
    FewestChoices,
    /// Most live heap blocks first, up to the given number, then fewest choices: for
    /// collecting heaps of a least size, which breadth-first reaches only after exponentially
    /// many short runs.
    LargestHeap(usize),
}

/// Watches the states an exploration reaches, e.g. to collect heap samples
/// (`crate::explicit::sample`). The explorer calls it on every state before taking edges from it.
pub trait Observer {
    /// Looks at a state; returning true stops the exploration (the outcome is then
    /// incomplete, with [`OBSERVER_STOP`] among the reasons).
    fn observe(&mut self, st: &State) -> bool;
}

/// The reason an exploration is incomplete when its observer stopped it.
pub const OBSERVER_STOP: &str = "stopped by the observer";

/// What identifies a state for coverage: stack, memory and the relevant path condition.
#[derive(PartialEq, Eq, Hash)]
struct CoverKey(Vec<crate::explicit::exec::Frame>, Memory, Vec<TermRef>);

/// The explorer.
pub struct Explorer<'p> {
    exec: Exec<'p>,
    limits: Limits,
    queue: BinaryHeap<Waiting>,
    seen: HashSet<CoverKey>,
    sat_cache: HashMap<Vec<TermRef>, bool>,
    seq: u64,
    last_clock: u64,
    start: Instant,
    incomplete: BTreeSet<String>,
    observer: Option<&'p mut dyn Observer>,
    order: Order,
    /// Counters.
    pub stats: Stats,
}

impl<'p> Explorer<'p> {
    /// An explorer of `prog` for `checks`.
    pub fn new(prog: &'p Program, checks: &'p PropertySet, limits: Limits) -> Self {
        Explorer {
            exec: Exec {
                prog,
                checks,
                inputs: None,
                caveats: Default::default(),
                split: Default::default(),
            },
            limits,
            queue: BinaryHeap::new(),
            seen: HashSet::new(),
            sat_cache: HashMap::new(),
            seq: 0,
            last_clock: 0,
            start: Instant::now(),
            incomplete: BTreeSet::new(),
            observer: None,
            order: Order::default(),
            stats: Stats::default(),
        }
    }

    /// The same explorer, showing every state it reaches to `o` (see [`Observer`]).
    pub fn with_observer(mut self, o: &'p mut dyn Observer) -> Self {
        self.observer = Some(o);
        self
    }

    /// The same explorer, following its waiting states in `order`.
    pub fn with_order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }

    /// Explores until a confirmed violation, completion, or a limit.
    pub fn run(&mut self) -> Outcome {
        let init = self.exec.initial();
        self.push(init);
        while let Some(Waiting(st, _)) = self.queue.pop() {
            self.stats.states += 1;
            if let Some(limit) = self.out_of_budget() {
                self.incomplete.insert(limit);
                break;
            }
            if let Some(cex) = self.follow(st) {
                return Outcome::Violation(Box::new(cex));
            }
            if self.incomplete.contains(OBSERVER_STOP) {
                break;
            }
        }
        // A complete exploration through a caveat proves nothing beyond it.
        self.incomplete
            .extend(self.exec.caveats.borrow().iter().cloned());
        if self.incomplete.is_empty() {
            Outcome::Complete
        } else {
            Outcome::Incomplete(self.incomplete.iter().cloned().collect())
        }
    }

    fn push(&mut self, st: State) {
        self.seq += 1;
        self.stats.max_choices = self.stats.max_choices.max(st.forks);
        // Fewer choices and earlier states first; a larger heap before either when asked.
        let missing = match self.order {
            Order::FewestChoices => 0,
            Order::LargestHeap(cap) => cap.saturating_sub(st.mem.live_heap()),
        };
        let key = Reverse((missing, st.forks, self.seq));
        self.queue.push(Waiting(st, key));
    }

    fn out_of_budget(&self) -> Option<String> {
        if self.stats.steps >= self.limits.max_steps {
            return Some(format!(
                "bound reached: {} steps explored",
                self.limits.max_steps
            ));
        }
        if let Err(e) = crate::engine::budget::check() {
            return Some(format!("bound reached: {e}"));
        }
        match self.limits.timeout {
            Some(t) if self.start.elapsed() >= t => Some(format!(
                "bound reached: time limit of {:.1} s",
                t.as_secs_f64()
            )),
            _ => None,
        }
    }

    /// Follows one path until it branches, ends, or is covered; returns a confirmed violation.
    fn follow(&mut self, mut st: State) -> Option<Counterexample> {
        loop {
            if let Some(why) = self.path_bound(&st) {
                self.incomplete.insert(why);
                return None;
            }
            let (func, loc) = st.frames.last().map(|f| (f.func, f.loc))?;
            let cfa = &self.exec.prog.func(func).cfa;
            if cfa[loc].loop_head && !self.seen.insert(cover_key(&st)) {
                self.stats.covered += 1;
                return None;
            }
            if let Some(o) = self.observer.as_deref_mut()
                && o.observe(&st)
            {
                self.incomplete.insert(OBSERVER_STOP.into());
                return None;
            }
            let edges: Vec<_> = cfa.edges(loc).map(|e| e.id()).collect();
            let binary = edges.len() == 2;
            let mut succs = vec![];
            let mut pending = Some(st);
            for (i, e) in edges.iter().enumerate() {
                self.stats.steps += 1;
                let from = if i + 1 == edges.len() {
                    pending.take()
                } else {
                    pending.clone()
                };
                let Some(from) = from else { break };
                for o in self.exec.step(from, *e) {
                    match o {
                        Step::Next(s, None) => succs.push(s),
                        Step::Next(s, Some(c)) => {
                            let first_failed = binary && i == 1 && succs.is_empty();
                            if first_failed || self.feasible(&s, &c) {
                                succs.push(s);
                            }
                        }
                        Step::Violation(s, v) => {
                            if let Some(cex) = self.confirm(&s, v) {
                                return Some(cex);
                            }
                        }
                        Step::End(_) => self.stats.ended += 1,
                        Step::Stop(why) => {
                            self.incomplete.insert(why);
                        }
                        Step::Infeasible => {}
                    }
                }
            }
            if succs.len() != 1 {
                let alloc = edges.len() == 1;
                for mut s in succs {
                    if !alloc {
                        s.forks += 1;
                    }
                    self.push(s);
                }
                return None;
            }
            st = succs.pop()?;
        }
    }

    fn path_bound(&mut self, st: &State) -> Option<String> {
        if self.stats.steps >= self.last_clock + 1024 {
            self.last_clock = self.stats.steps;
            if let Some(limit) = self.out_of_budget() {
                return Some(limit);
            }
        }
        if st.steps > self.limits.max_path {
            return Some(format!(
                "bound reached: a path longer than {} steps",
                self.limits.max_path
            ));
        }
        if st.mem.live_heap() > self.limits.max_heap {
            return Some(format!(
                "bound reached: more than {} live heap blocks",
                self.limits.max_heap
            ));
        }
        if self.stats.steps >= self.limits.max_steps {
            return Some(format!(
                "bound reached: {} steps explored",
                self.limits.max_steps
            ));
        }
        None
    }

    /// Whether the path condition stays satisfiable with the new conjunct `c`.
    fn feasible(&mut self, st: &State, c: &TermRef) -> bool {
        let slice = slice(&st.pc, c);
        if let Some(r) = self.sat_cache.get(&slice) {
            return *r;
        }
        self.stats.solver_calls += 1;
        let r = !matches!(smt::check(&slice), Answer::Unsat);
        self.sat_cache.insert(slice, r);
        r
    }

    /// Checks a candidate violation: a model of its path condition, then concrete replay.
    fn confirm(&mut self, st: &State, v: Violation) -> Option<Counterexample> {
        self.stats.solver_calls += 1;
        match confirm(&self.exec, st, v) {
            Ok(cex) => Some(cex),
            Err(Unconfirmed::Unsat) => {
                self.stats.spurious += 1;
                None
            }
            Err(Unconfirmed::Unknown(why)) => {
                self.incomplete.insert(why);
                None
            }
            Err(Unconfirmed::NoReplay(why)) => {
                self.stats.spurious += 1;
                self.incomplete.insert(why);
                None
            }
        }
    }
}

/// Why a candidate violation is not confirmed.
#[derive(Clone, Debug)]
pub(crate) enum Unconfirmed {
    /// Its path condition is unsatisfiable: the violation is spurious.
    Unsat,
    /// The solver could not decide its path condition (the reason).
    Unknown(String),
    /// A model exists, but the concrete replay does not reach the violation (the reason).
    NoReplay(String),
}

/// Checks a candidate violation reached in `st`: a model of its path condition, then
/// concrete replay of the program on the model's inputs.
pub(crate) fn confirm(
    exec: &Exec<'_>,
    st: &State,
    v: Violation,
) -> Result<Counterexample, Unconfirmed> {
    let model = match smt::check(&st.pc) {
        Answer::Sat(m) => m,
        Answer::Unsat => return Err(Unconfirmed::Unsat),
        Answer::Unknown(why) => {
            return Err(Unconfirmed::Unknown(format!(
                "the solver could not decide a path to line {} ({why})",
                v.line
            )));
        }
    };
    let inputs: Vec<i64> = (0..st.next_sym)
        .map(|k| model.get(&k).copied().unwrap_or(0))
        .collect();
    let max = st.steps as usize + 16;
    let (reached, trace) = replay(exec.prog, exec.checks, &inputs, max);
    match reached {
        Some(r) if r.property == v.property => Ok(Counterexample {
            violation: r,
            trace,
        }),
        _ => Err(Unconfirmed::NoReplay(format!(
            "a candidate {} violation at line {} did not replay concretely",
            v.property, v.line
        ))),
    }
}

/// The conjuncts of `pc` that share symbols, transitively, with `c` (the others are
/// satisfiable on their own and independent of it).
pub(crate) fn slice(pc: &[TermRef], c: &TermRef) -> Vec<TermRef> {
    let mut syms = BTreeSet::new();
    let mut buf = vec![];
    c.symbols(&mut buf);
    syms.extend(buf.drain(..));
    relevant(pc, syms)
}

fn relevant(pc: &[TermRef], mut syms: BTreeSet<u32>) -> Vec<TermRef> {
    let mut taken = vec![false; pc.len()];
    let mut buf = vec![];
    loop {
        let mut grew = false;
        for (i, t) in pc.iter().enumerate() {
            if taken[i] {
                continue;
            }
            buf.clear();
            t.symbols(&mut buf);
            if buf.iter().any(|s| syms.contains(s)) {
                taken[i] = true;
                syms.extend(buf.iter().copied());
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    pc.iter()
        .zip(taken)
        .filter(|(_, k)| *k)
        .map(|(t, _)| t.clone())
        .collect()
}

fn cover_key(st: &State) -> CoverKey {
    let mut buf = vec![];
    st.mem.symbols(&mut buf);
    let pc = relevant(&st.pc, buf.into_iter().collect());
    CoverKey(st.frames.clone(), st.mem.clone(), pc)
}

#[cfg(test)]
mod tests {
    use super::{Counterexample, Explorer, Outcome};
    use crate::program::frontend::{Source, lower_source};
    use crate::program::property::PropertySet;

    /// The verdict of the explicit engine, as the tests read it.
    #[derive(Debug)]
    enum Verdict {
        True,
        False(Box<Counterexample>),
        Unknown(Vec<String>),
    }

    fn run(text: &str, checks: &str) -> Verdict {
        let p = lower_source(&Source::from_text(text.into(), "t.c"), "t.c").unwrap();
        let checks = PropertySet::parse_list(checks).unwrap();
        let limits = super::Limits {
            max_steps: 20_000,
            ..super::Limits::default()
        };
        match Explorer::new(&p, &checks, limits).run() {
            Outcome::Violation(c) => Verdict::False(c),
            Outcome::Complete => Verdict::True,
            Outcome::Incomplete(r) => Verdict::Unknown(r),
        }
    }

    const DECLS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nextern void *malloc(unsigned);\nextern void free(void *);\n";

    #[test]
    fn infeasible_error_path_is_pruned() {
        let prog = format!(
            "{DECLS}int main(void) {{ int x = __VERIFIER_nondet_int(); if (x > 5 && x < 3) reach_error(); return 0; }}\n"
        );
        assert!(matches!(run(&prog, "unreach-call"), Verdict::True));
    }

    #[test]
    fn error_needing_a_specific_input_is_found_and_replayed() {
        let prog = format!(
            "{DECLS}int main(void) {{ int x = __VERIFIER_nondet_int(); if (x * 3 == 126) reach_error(); return 0; }}\n"
        );
        match run(&prog, "unreach-call") {
            Verdict::False(c) => assert_eq!(c.trace.inputs[0].wrapping_mul(3) as i32, 126),
            other => panic!("expected FALSE, got {other:?}"),
        }
    }

    #[test]
    fn repeated_state_in_an_infinite_loop_is_covered() {
        let prog = format!(
            "{DECLS}void myexit(void) {{ E: goto E; }}\nint main(void) {{ int *p = malloc(4); if (!p) myexit(); free(p); return 0; }}\n"
        );
        assert!(matches!(
            run(&prog, "valid-memsafety,valid-memcleanup"),
            Verdict::True
        ));
    }

    #[test]
    fn unbounded_loop_hits_a_bound_and_stays_unknown() {
        let prog = format!(
            "{DECLS}int main(void) {{ int n = 0; while (__VERIFIER_nondet_int()) n++; if (n < 0) reach_error(); return 0; }}\n"
        );
        match run(&prog, "unreach-call") {
            Verdict::Unknown(r) => assert!(r.iter().any(|x| x.contains("bound")), "{r:?}"),
            other => panic!("expected UNKNOWN, got {other:?}"),
        }
    }

    #[test]
    fn leak_at_main_return_is_memtrack() {
        let prog = format!(
            "{DECLS}int main(void) {{ int *p = malloc(4); if (!p) return 0; *p = 1; return 0; }}\n"
        );
        match run(&prog, "valid-memsafety") {
            Verdict::False(c) => assert_eq!(c.violation.property.name(), "valid-memtrack"),
            other => panic!("expected FALSE, got {other:?}"),
        }
    }
}

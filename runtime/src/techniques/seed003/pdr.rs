//! PDR over full predicate abstraction (Algorithms 1 and 2 of seed 003), with one frame per
//! cut point.
//!
//! Consumes a [`System`] and the predicates of each cut point; produces an [`Outcome`]: an
//! inductive invariant (per cut point, a CNF over predicate literals), an abstract trace of
//! complete cubes from an initial state to a fault (Theorem 1: no Boolean combination of the
//! predicates is a safe inductive invariant; a bounded check then tells whether a concrete
//! run follows it), or the reason the search stopped. Frames are clause sets, monotone by
//! construction (a learned clause goes to every frame up to its level), so convergence is a
//! syntactic comparison; after each new frame, clauses are pushed forward (the paper's
//! default generalisation). A cube is blocked by relative induction (a transition from the
//! cut point itself may start outside the cube, as in IC3), and the learned clause is the
//! unsat cores' literals, shortened by literal dropping (inductive generalisation, §2.5 of
//! the digest: the paper found it too costly with its encoding; with ours it halves the
//! clauses and ends four of Table 6's runs that timed out without it).

use super::epr::Voc;
use super::families::Pred;
use super::logic::Formula;
use super::program::{Bad, System};
use crate::engine::Budget;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// A literal: a predicate of the cut point, and its polarity.
pub type Lit = (usize, bool);
/// A conjunction of literals (sorted).
pub type Cube = Vec<Lit>;
/// A disjunction of literals (sorted).
pub type Clause = Vec<Lit>;

/// How a run ended.
pub enum Outcome {
    /// The frames converged: an inductive invariant per cut point.
    Invariant(Vec<BTreeSet<Clause>>),
    /// An abstract trace from an initial state to a fault: (cut point, cube) per step, and the
    /// fault it ends in.
    Trace(Vec<(usize, Cube)>, Bad),
    /// The search stopped (solver, budget).
    Stopped(String),
}

/// Counters for reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    /// Solver calls.
    pub calls: usize,
    /// The highest frame index.
    pub frames: usize,
}

enum Answer {
    Sat(Cube),
    Unsat(Vec<Lit>),
}

/// Whether a cube is blocked at a level.
enum Blocked {
    /// Blocked: the cube's literals in the unsat cores.
    Yes(BTreeSet<Lit>),
    /// The cube meets an initial state.
    Initial,
    /// A predecessor at a cut point, as a complete cube.
    Predecessor(usize, Cube),
}

/// The most literals inductive generalisation tries to drop from one learned clause.
const MAX_DROPS: usize = 16;

enum Stop {
    Trace(Vec<(usize, Cube)>),
    Other(String),
}

/// The state of one PDR run.
pub struct Pdr<'a> {
    sys: &'a System,
    preds: &'a [Vec<Pred>],
    v0: Voc,
    init: Bool,
    bads: Vec<Vec<Bad>>,
    /// Per cut point: its predecessors, each with the disjunction of the paths from it.
    incoming: Vec<Vec<(usize, Bool)>>,
    /// Per cut point: the disjunction of its bad items.
    any_bad: Vec<Bool>,
    frames: Vec<Vec<BTreeSet<Clause>>>,
    /// The axioms of the unprimed and the primed copy.
    axioms: [Vec<Bool>; 2],
    /// The encoding of each predicate of each cut point, unprimed and primed.
    encoded: Vec<Vec<[Bool; 2]>>,
    /// The encoding of each learned clause (unprimed).
    clauses: BTreeMap<(usize, Clause), Bool>,
    budget: Budget,
    /// Counters.
    pub counters: Counters,
}

impl<'a> Pdr<'a> {
    /// Prepares the run: the paths of every cut point over the unprimed copy, their
    /// transitions to the primed copy.
    pub fn new(sys: &'a System, preds: &'a [Vec<Pred>], budget: Budget) -> Result<Pdr<'a>, String> {
        let null = super::epr::constant("null");
        let v0 = sys.voc("", &null);
        let v1 = sys.voc("'", &null);
        let mut leaves = vec![];
        let mut bads = vec![];
        for c in 0..sys.cuts.len() {
            let (l, b) = sys.explore(c, &v0)?;
            leaves.push(l);
            bads.push(b);
        }
        let mut paths: BTreeMap<(usize, usize), Vec<Bool>> = BTreeMap::new();
        for (c, ls) in leaves.iter().enumerate() {
            for l in ls {
                paths.entry((l.to, c)).or_default().push(l.transition(&v1));
            }
        }
        let mut incoming = vec![vec![]; sys.cuts.len()];
        for ((to, from), ts) in paths {
            incoming[to].push((from, Bool::or(&ts)));
        }
        let any_bad = (bads.iter())
            .map(|b| Bool::or(&b.iter().map(|b| b.cond.clone()).collect::<Vec<_>>()))
            .collect();
        let init = sys.initial(&v0);
        let encoded = (preds.iter())
            .map(|ps| {
                ps.iter()
                    .map(|p| [v0.encode(&p.formula), v1.encode(&p.formula)])
                    .collect()
            })
            .collect();
        Ok(Pdr {
            axioms: [v0.axioms(), v1.axioms()],
            encoded,
            clauses: BTreeMap::new(),
            sys,
            preds,
            v0,
            init,
            bads,
            incoming,
            any_bad,
            frames: vec![vec![BTreeSet::new(); sys.cuts.len()]],
            budget,
            counters: Counters::default(),
        })
    }

    /// Runs Algorithm 1.
    pub fn run(&mut self) -> Outcome {
        let cuts = self.sys.cuts.len();
        loop {
            let n = self.frames.len() - 1;
            self.counters.frames = n;
            if let Some(i) = (0..n).find(|&i| self.frames[i] == self.frames[i + 1]) {
                return Outcome::Invariant(self.frames[i].clone());
            }
            for c in 0..cuts {
                match self.excludes_bad(n, c) {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(why) => return Outcome::Stopped(why),
                }
                for b in 0..self.bads[c].len() {
                    if let Err(stop) = self.block_bad(n, c, b) {
                        return match stop {
                            Stop::Trace(t) => Outcome::Trace(t, self.bads[c][b].clone()),
                            Stop::Other(why) => Outcome::Stopped(why),
                        };
                    }
                }
            }
            self.frames.push(vec![BTreeSet::new(); cuts]);
            if let Err(why) = self.push_clauses() {
                return Outcome::Stopped(why);
            }
        }
    }

    /// Whether frame `n` at `c` excludes every bad item at once.
    fn excludes_bad(&mut self, n: usize, c: usize) -> Result<bool, String> {
        let parts = [self.frame(n, c), self.any_bad[c].clone()];
        match self.check(&parts, &[], c, false, c) {
            Ok(Answer::Unsat(_)) => Ok(true),
            Ok(Answer::Sat(_)) => Ok(false),
            Err(Stop::Other(why)) => Err(why),
            Err(Stop::Trace(_)) => Ok(false),
        }
    }

    /// Blocks every state of frame `n` at `c` that meets bad item `b`.
    fn block_bad(&mut self, n: usize, c: usize, b: usize) -> Result<(), Stop> {
        loop {
            let frame = self.frame(n, c);
            let cond = self.bads[c][b].cond.clone();
            match self.check(&[frame, cond], &[], c, false, c)? {
                Answer::Unsat(_) => return Ok(()),
                Answer::Sat(cube) => self.reduce(n, c, cube, &mut vec![])?,
            }
        }
    }

    /// Algorithm 2: blocks `cube` at `c` in frames `0..=j`, or returns the abstract trace.
    fn reduce(
        &mut self,
        j: usize,
        c: usize,
        cube: Cube,
        trail: &mut Vec<(usize, Cube)>,
    ) -> Result<(), Stop> {
        trail.push((c, cube.clone()));
        let core = loop {
            match self.blocks(j, c, &cube)? {
                Blocked::Yes(core) => break core,
                Blocked::Initial => {
                    return Err(Stop::Trace(trail.iter().rev().cloned().collect()));
                }
                Blocked::Predecessor(src, pre) => self.reduce(j - 1, src, pre, trail)?,
            }
        };
        let core = self.generalise(j, c, core)?;
        let clause: Clause = negation(&core);
        if debugging() {
            eprintln!(
                "pdr: level {j} at {c}: learned {}",
                show_clause(&self.preds[c], &clause)
            );
        }
        for i in 0..=j {
            self.frames[i][c].insert(clause.clone());
        }
        trail.pop();
        Ok(())
    }

    /// Whether `cube` at `c` is blocked at level `j`: it meets no initial state (at the entry
    /// cut point) and no transition from frame `j - 1` reaches it, where a transition from
    /// `c` itself may assume its source outside the cube (relative induction, as in IC3:
    /// the clause learned is added to frame `j - 1` too). Yes gives the cube's literals in
    /// the unsat cores; otherwise an initial state or a predecessor's complete cube.
    fn blocks(&mut self, j: usize, c: usize, cube: &[Lit]) -> Result<Blocked, Stop> {
        let mut core: BTreeSet<Lit> = BTreeSet::new();
        if c == 0 {
            let init = [self.init.clone()];
            match self.check(&init, cube, c, false, c)? {
                Answer::Sat(_) => return Ok(Blocked::Initial),
                Answer::Unsat(k) => core.extend(k),
            }
        }
        if j == 0 {
            return Ok(Blocked::Yes(core));
        }
        for k in 0..self.incoming[c].len() {
            let (src, t) = self.incoming[c][k].clone();
            let mut parts = vec![self.frame(j - 1, src), t];
            if src == c {
                parts.push(self.outside(c, cube));
            }
            match self.check(&parts, cube, c, true, src)? {
                Answer::Sat(pre) => return Ok(Blocked::Predecessor(src, pre)),
                Answer::Unsat(k) => core.extend(k),
            }
        }
        Ok(Blocked::Yes(core))
    }

    /// Inductive generalisation by literal dropping: tries each literal of the blocked
    /// `core` in turn and drops it when the cube without it is still blocked at level `j`
    /// (shrunk further to that check's cores). A shorter cube is a stronger clause, so fewer
    /// cubes are blocked one by one and the invariant has fewer clauses. At most
    /// `MAX_DROPS` checks per clause.
    fn generalise(
        &mut self,
        j: usize,
        c: usize,
        core: BTreeSet<Lit>,
    ) -> Result<BTreeSet<Lit>, Stop> {
        let mut cube = core;
        let mut tried = 0;
        let literals: Vec<Lit> = cube.iter().copied().collect();
        for lit in literals {
            if cube.len() <= 1 || tried >= MAX_DROPS {
                break;
            }
            if !cube.contains(&lit) {
                continue;
            }
            tried += 1;
            let candidate: Cube = cube.iter().copied().filter(|l| *l != lit).collect();
            if let Blocked::Yes(smaller) = self.blocks(j, c, &candidate)? {
                cube = smaller;
            }
        }
        Ok(cube)
    }

    /// The states at `c` outside `cube` (its negation as a clause, unprimed).
    fn outside(&self, c: usize, cube: &[Lit]) -> Bool {
        let negated: Clause = negation(cube);
        unprimed_clause(&self.encoded[c], &negated)
    }

    /// Pushes every clause of frame i that is inductive relative to frame i into frame i+1.
    fn push_clauses(&mut self) -> Result<(), String> {
        let n = self.frames.len() - 1;
        for i in 1..n {
            for c in 0..self.sys.cuts.len() {
                let todo: Vec<Clause> = self.frames[i][c]
                    .difference(&self.frames[i + 1][c])
                    .cloned()
                    .collect();
                for clause in todo {
                    if self.holds_after(i, c, &clause)? {
                        self.frames[i + 1][c].insert(clause);
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether every transition from frame `i` into `c` establishes `clause`.
    fn holds_after(&mut self, i: usize, c: usize, clause: &Clause) -> Result<bool, String> {
        let negated: Cube = negation(clause);
        for k in 0..self.incoming[c].len() {
            let (src, t) = self.incoming[c][k].clone();
            let parts = [self.frame(i, src), t];
            match self.check(&parts, &negated, c, true, src) {
                Ok(Answer::Unsat(_)) => {}
                Ok(Answer::Sat(_)) => return Ok(false),
                Err(Stop::Other(why)) => return Err(why),
                Err(Stop::Trace(_)) => return Ok(false),
            }
        }
        Ok(true)
    }

    /// Frame `i` at `c` over `voc`.
    fn frame(&mut self, i: usize, c: usize) -> Bool {
        let mut out = vec![];
        for cl in &self.frames[i][c] {
            let enc = &self.encoded[c];
            let b = (self.clauses.entry((c, cl.clone())))
                .or_insert_with(|| unprimed_clause(enc, cl))
                .clone();
            out.push(b);
        }
        Bool::and(&out)
    }

    /// `Check_A`: is `parts ∧ cube` satisfiable (the cube over the predicates of `at`, on the
    /// primed copy when `primed`)? Sat gives the complete cube of the unprimed state at
    /// `model_at`; unsat gives the cube's literals in the unsat core.
    fn check(
        &mut self,
        parts: &[Bool],
        cube: &[Lit],
        at: usize,
        primed: bool,
        model_at: usize,
    ) -> Result<Answer, Stop> {
        if self.budget.check().is_err() || crate::engine::budget::check().is_err() {
            return Err(Stop::Other("the time or memory limit was reached".into()));
        }
        self.counters.calls += 1;
        let solver = new_solver(&self.budget);
        for a in &self.axioms[0] {
            solver.assert(a);
        }
        if primed {
            for a in &self.axioms[1] {
                solver.assert(a);
            }
        }
        for p in parts {
            solver.assert(p);
        }
        let mut tracked = vec![];
        for &(p, pol) in cube {
            let t = Bool::fresh_const("lit");
            debug_assert!(self.preds[at][p].formula.is_alternation_free());
            let lit = self.encoded[at][p][usize::from(primed)].clone();
            solver.assert(t.implies(if pol { lit } else { lit.not() }));
            tracked.push(t);
        }
        let t0 = Instant::now();
        let r = solver.check_assumptions(&tracked);
        if debugging() && t0.elapsed().as_secs_f64() > 0.5 {
            eprintln!(
                "pdr: slow query ({:.2} s, {} parts, cube of {} at {at}, primed {primed}): {r:?}",
                t0.elapsed().as_secs_f64(),
                parts.len(),
                cube.len()
            );
        }
        match r {
            SatResult::Unsat => {
                let core = solver.get_unsat_core();
                Ok(Answer::Unsat(
                    (cube.iter().zip(&tracked))
                        .filter(|(_, t)| core.contains(t))
                        .map(|(l, _)| *l)
                        .collect(),
                ))
            }
            SatResult::Sat => {
                let model = solver
                    .get_model()
                    .ok_or_else(|| Stop::Other("no model".into()))?;
                let heap = (self.v0.read(&model))
                    .ok_or_else(|| Stop::Other("a model without a node universe".into()))?;
                Ok(Answer::Sat(
                    (self.preds[model_at].iter().enumerate())
                        .map(|(i, p)| (i, heap.eval(&p.formula)))
                        .collect(),
                ))
            }
            SatResult::Unknown => Err(Stop::Other(format!(
                "the solver gave up: {}",
                solver.get_reason_unknown().unwrap_or_default()
            ))),
        }
    }
}

/// The literals of `lits` with their polarities flipped: a cube's negation as a clause, and
/// back.
fn negation<'l>(lits: impl IntoIterator<Item = &'l Lit>) -> Vec<Lit> {
    lits.into_iter().map(|&(p, pol)| (p, !pol)).collect()
}

/// A clause over the unprimed encodings `enc` of a cut point's predicates.
fn unprimed_clause(enc: &[[Bool; 2]], clause: &[Lit]) -> Bool {
    let lits: Vec<Bool> = (clause.iter())
        .map(|&(p, pol)| {
            if pol {
                enc[p][0].clone()
            } else {
                enc[p][0].not()
            }
        })
        .collect();
    Bool::or(&lits)
}

/// A solver for one query, under the run's time limit.
pub fn new_solver(budget: &Budget) -> Solver {
    let solver = Solver::new();
    let mut params = z3::Params::new();
    let left = budget
        .remaining()
        .map_or(60_000, |r| r.as_millis().min(60_000) as u32);
    params.set_u32(
        "timeout",
        crate::engine::budget::solver_timeout_ms(left.max(1)),
    );
    // The definitions of the relations a path updates (`forall a, b. R'(a, b) <-> ...`) are
    // macros: expanding them leaves the solver only the quantifiers of the predicates.
    params.set_bool("smt.macro_finder", true);
    solver.set_params(&params);
    solver
}

/// A clause over `voc`.
pub fn clause_formula(preds: &[Pred], clause: &Clause, voc: &Voc) -> Bool {
    let lits: Vec<Bool> = (clause.iter())
        .map(|&(p, pol)| {
            let f = voc.encode(&preds[p].formula);
            if pol { f } else { f.not() }
        })
        .collect();
    Bool::or(&lits)
}

/// A clause as a formula of the logic.
pub fn clause_logic(preds: &[Pred], clause: &Clause) -> Formula {
    Formula::Or(
        (clause.iter())
            .map(|&(p, pol)| {
                let f = preds[p].formula.clone();
                if pol { f } else { f.negate() }
            })
            .collect(),
    )
}

/// A clause, readable.
pub fn show_clause(preds: &[Pred], clause: &Clause) -> String {
    if clause.is_empty() {
        return "false".into();
    }
    (clause.iter())
        .map(|&(p, pol)| {
            let name = &preds[p].name;
            if pol {
                name.clone()
            } else {
                format!("!({name})")
            }
        })
        .collect::<Vec<_>>()
        .join(" || ")
}

/// A cube, readable (positive literals only, with the count of negative ones).
pub fn show_cube(preds: &[Pred], cube: &Cube) -> String {
    let pos: Vec<&str> = (cube.iter())
        .filter(|(_, pol)| *pol)
        .map(|&(p, _)| preds[p].name.as_str())
        .collect();
    format!(
        "{} (and {} negated)",
        pos.join(" && "),
        cube.len() - pos.len()
    )
}

/// Whether `SHAPECHECK_DEBUG` asks for the search's details.
pub fn debugging() -> bool {
    std::env::var_os("SHAPECHECK_DEBUG").is_some()
}

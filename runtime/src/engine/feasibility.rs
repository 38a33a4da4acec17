//! Path feasibility for abstraction refinement: is an abstract error path real, and if not,
//! which program atoms explain why (seed 000's Algorithm 3, "ExtractInterpolants", with Z3
//! unsat cores in place of interpolants).
//!
//! Consumes a [`Program`], the checked properties, a program path ([`PathStep`]s: CFA edges
//! from the entry of the globals' initialiser, through calls and returns, as a shape analysis
//! reports it) and the way the path claims to end ([`PathEnd`]); produces a [`PathResult`]:
//! `Feasible` with a counterexample that was replayed concretely, `Infeasible` with a [`Core`]
//! (the steps of an unsat core of the path's SSA formula, and the pointer variables and struct
//! fields occurring in them), or `Unknown` with the reason. Feasibility is decided by the
//! explicit engine (`crate::explicit::exec`, symbolic inputs, path conditions decided by `crate::smt`),
//! which follows exactly the path's edges, keeping every state that stays on it (a `malloc`
//! gives two); a violation of a checked property anywhere on the path is confirmed by replay,
//! as the explorer confirms its candidates. The SSA formula only explains an infeasibility the
//! engine found: it has one tracked constraint per step up to the step where no state follows
//! the path any more; when states follow it to its end without the claimed violation, it has
//! the steps before the last and, tracked under the last step's index, the claim at the last
//! edge's pre-state (for [`PathEnd::InvalidDeref`]: one of the pointers is NULL). When the
//! formula cannot explain the infeasibility (it is satisfiable, because the encoding below is
//! coarser than the engine, or the solver gives up), the core is a syntactic one: the step
//! where the path was lost and its backward data dependencies along the path (memory by struct
//! for fields and as one for other cells, since the encoding is what kept them apart).

//!
//! The SSA formula and what it abstracts from are described in [`crate::smt::ssa`].

use crate::explicit::exec::{Exec, Outcome, State};
use crate::explicit::explore::{self, Counterexample, Unconfirmed};
use crate::program::ir::*;
use crate::program::path::ptr_callee;
pub use crate::program::path::{PathEnd, PathStep};
use crate::program::property::PropertySet;
use crate::smt::ssa::{Enc, Loc, MemKey, StepRec};
use crate::smt::{self, Answer};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

/// The verdict on one path.
#[derive(Clone, Debug)]
pub enum PathResult {
    /// Feasible: the explicit engine follows the path and reaches a violation, which replays.
    Feasible(Box<Counterexample>),
    /// Infeasible, with the refinement atoms.
    Infeasible(Core),
    /// Neither (e.g. an unsupported construct on the path, a bound): the reason.
    Unknown(String),
}

/// The refinement atoms of an infeasible path.
#[derive(Clone, Debug, Default)]
pub struct Core {
    /// Indices (into the path) of the steps whose constraints are in the unsat core.
    pub steps: Vec<usize>,
    /// Pointer-typed and struct-typed program variables occurring in the core's
    /// constraints.
    pub pointers: BTreeSet<VarId>,
    /// Struct fields (struct id, field name) dereferenced in the core's constraints.
    pub fields: BTreeSet<(StructId, String)>,
}

/// More explicit states than this on one path position make the answer `Unknown`.
const MAX_STATES: usize = 256;
/// Solver time limit for the SSA formula, in milliseconds.
const SOLVER_TIMEOUT_MS: u32 = 10_000;
/// Checks spent on shrinking an unsat core, at most.
const MAX_SHRINK_CHECKS: usize = 64;
/// Time spent on shrinking an unsat core, at most: a safety net that the check budget reaches
/// first. The core decides the refinement, so a time limit that a loaded machine reaches
/// first makes the analysis depend on the load (with 5 s, CI's compiled and interpreted runs
/// of one program learned their field assertions in different orders).
const SHRINK_TIME: Duration = Duration::from_secs(30);

/// Decides whether `path`, ending as `end` claims, is feasible (see the module documentation).
pub fn check_path(
    prog: &Program,
    checks: &PropertySet,
    path: &[PathStep],
    end: &PathEnd,
) -> PathResult {
    if path.is_empty() {
        return PathResult::Unknown("the path is empty".into());
    }
    if let Err(why) = well_formed(prog, path) {
        return PathResult::Unknown(format!("not a path of the program: {why}"));
    }
    match follow(prog, checks, path, end) {
        Followed::Feasible(cex) => PathResult::Feasible(cex),
        Followed::Unknown(why) => PathResult::Unknown(why),
        Followed::LostAt(k) => PathResult::Infeasible(explain(prog, path, end, k)),
    }
}

// ---- the path's shape ----

/// Checks that consecutive steps follow each other in the CFAs, with calls and returns.
fn well_formed(prog: &Program, path: &[PathStep]) -> Result<(), String> {
    let init = prog.func(prog.init);
    let mut stack: Vec<(FuncId, NodeIndex)> = vec![(prog.init, init.entry)];
    for (i, s) in path.iter().enumerate() {
        let Some(&(f, loc)) = stack.last() else {
            return Err(format!("step {i} comes after the end of the program"));
        };
        if s.func != f {
            return Err(format!(
                "step {i} is in function #{}, but the path is in `{}` there",
                s.func.0,
                prog.func(f).name
            ));
        }
        let func = prog.func(f);
        let Some((src, dst)) = func.cfa.edge_endpoints(s.edge) else {
            return Err(format!(
                "step {i}: `{}` has no edge #{}",
                func.name,
                s.edge.index()
            ));
        };
        if src != loc {
            return Err(format!(
                "step {i} leaves location {} of `{}`, but the path is at location {}",
                src.index(),
                func.name,
                loc.index()
            ));
        }
        if let Some(top) = stack.last_mut() {
            top.1 = dst;
        }
        match &func.cfa[s.edge].op {
            Op::Call {
                callee: Callee::Func(g),
                ..
            } if prog.func(*g).defined => stack.push((*g, prog.func(*g).entry)),
            Op::CallPtr { .. } => {
                if let Some(g) = ptr_callee(prog, f, dst, path.get(i + 1)) {
                    stack.push((g, prog.func(g).entry));
                }
            }
            Op::Return(_) => {
                stack.pop();
            }
            _ => {}
        }
    }
    Ok(())
}

// ---- feasibility with the explicit engine ----

enum Followed {
    Feasible(Box<Counterexample>),
    /// No state follows the path beyond this step (or, at the last step: the claimed error
    /// does not happen).
    LostAt(usize),
    Unknown(String),
}

/// Whether the innermost frame of `st` is where step `s` leaves from.
fn at(prog: &Program, st: &State, s: &PathStep) -> bool {
    st.frames.last().is_some_and(|f| {
        f.func == s.func
            && prog
                .func(f.func)
                .cfa
                .edge_endpoints(s.edge)
                .is_some_and(|(src, _)| src == f.loc)
    })
}

/// Runs the explicit engine along the path, keeping every state that stays on it.
fn follow(prog: &Program, checks: &PropertySet, path: &[PathStep], end: &PathEnd) -> Followed {
    let exec = Exec {
        prog,
        checks,
        inputs: None,
        caveats: Default::default(),
        split: Default::default(),
    };
    let last = path.len() - 1;
    let mut states = vec![exec.initial()];
    let mut doubts: Vec<String> = vec![];
    let mut doubt = |why: String| {
        if !doubts.contains(&why) {
            doubts.push(why);
        }
    };
    for (i, step) in path.iter().enumerate() {
        let next = path.get(i + 1);
        let line = prog.func(step.func).cfa[step.edge].line;
        let mut succs = vec![];
        for st in std::mem::take(&mut states) {
            for o in exec.step(st, step.edge) {
                match o {
                    Outcome::Next(s, cond) => {
                        // Past the last step, the states are kept for a continuation.
                        if next.is_some_and(|n| !at(prog, &s, n)) {
                            continue;
                        }
                        if let Some(c) = cond {
                            match smt::check(&explore::slice(&s.pc, &c)) {
                                Answer::Unsat => continue,
                                Answer::Unknown(why) => doubt(format!(
                                    "the solver could not decide the branch at line {line} ({why})"
                                )),
                                Answer::Sat(_) => {}
                            }
                        }
                        succs.push(s);
                    }
                    Outcome::Violation(s, v) => match explore::confirm(&exec, &s, v) {
                        Ok(cex) => return Followed::Feasible(Box::new(cex)),
                        Err(Unconfirmed::Unsat) => {}
                        Err(Unconfirmed::Unknown(why) | Unconfirmed::NoReplay(why)) => doubt(why),
                    },
                    Outcome::End(e) if i < last => doubt(format!(
                        "the run ends ({e:?}) at line {line}, before the path does"
                    )),
                    Outcome::End(_) | Outcome::Infeasible => {}
                    Outcome::Stop(why) => doubt(why),
                }
            }
        }
        if succs.len() > MAX_STATES {
            return Followed::Unknown(format!(
                "bound reached: more than {MAX_STATES} explicit states on the path at line {line}"
            ));
        }
        if succs.is_empty() && i < last {
            return lost(i, doubts);
        }
        states = succs;
    }
    if matches!(end, PathEnd::MemoryLost)
        && let Some(cex) = lose_later(&exec, states)
    {
        return Followed::Feasible(Box::new(cex));
    }
    lost(last, doubts)
}

/// Edges a continuation past the path may take, at most.
const CONTINUATION_STEPS: u32 = 64;
/// Edges all continuations past a path take together, at most.
const CONTINUATION_BUDGET: usize = 500;

/// A run past the end of a path that claims memory is lost (the shape analysis counts a cell
/// that only dead variables reach as lost): the cell is lost concretely only where those
/// variables are overwritten or go out of scope, a few steps later. Explores the
/// continuations of `states` (depth first, within a bounded number of edges in all) until
/// the function the path ended in has returned, and returns the first violation that
/// replays.
fn lose_later(exec: &Exec, states: Vec<State>) -> Option<Counterexample> {
    let prog = exec.prog;
    let mut work: Vec<(State, u32, usize)> = states
        .into_iter()
        .map(|st| {
            let depth = st.frames.len();
            (st, 0, depth)
        })
        .collect();
    let mut budget = CONTINUATION_BUDGET;
    while let Some((st, taken, depth)) = work.pop() {
        if taken >= CONTINUATION_STEPS || work.len() > MAX_STATES || st.frames.len() < depth {
            continue;
        }
        if budget == 0 {
            return None;
        }
        budget -= 1;
        let Some(f) = st.frames.last() else { continue };
        let edges: Vec<_> = prog.func(f.func).cfa.edges(f.loc).map(|e| e.id()).collect();
        for e in edges {
            for o in exec.step(st.clone(), e) {
                match o {
                    Outcome::Next(s, cond) => {
                        let open = cond.is_none_or(|c| {
                            matches!(smt::check(&explore::slice(&s.pc, &c)), Answer::Sat(_))
                        });
                        if open {
                            work.push((s, taken + 1, depth));
                        }
                    }
                    Outcome::Violation(s, v) => {
                        if let Ok(cex) = explore::confirm(exec, &s, v) {
                            return Some(cex);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    None
}

fn lost(k: usize, doubts: Vec<String>) -> Followed {
    if doubts.is_empty() {
        Followed::LostAt(k)
    } else {
        Followed::Unknown(doubts.join("; "))
    }
}

// ---- the core ----

/// The refinement atoms of a path that the engine lost at step `k`.
fn explain(prog: &Program, path: &[PathStep], end: &PathEnd, k: usize) -> Core {
    let last = path.len() - 1;
    let mut enc = Enc::new(prog);
    let mut recs = vec![];
    // Up to the step where the path is lost; at the last step, the claim about its pre-state.
    let upto = if k == last { last } else { k + 1 };
    for i in 0..upto {
        enc.step(i, path);
        recs.push(enc.take());
    }
    let mut seed_extra = StepRec::default();
    if k == last {
        enc.claim(end);
        recs.push(enc.take());
        // The last edge's own reads seed the syntactic slice, but are not asserted.
        enc.step(last, path);
        seed_extra = enc.take();
    }
    let steps = match solve(&recs, &enc.background) {
        Some(core) if !core.is_empty() => core,
        _ => slice(&recs, k, &seed_extra),
    };
    let mut core = Core::default();
    for &i in &steps {
        core.pointers.extend(recs[i].pointers.iter().copied());
        core.fields.extend(recs[i].fields.iter().cloned());
        if i == k {
            core.pointers.extend(seed_extra.pointers.iter().copied());
            core.fields.extend(seed_extra.fields.iter().cloned());
        }
    }
    core.steps = steps;
    core
}

/// An unsat core (step indices, shrunk) of the tracked step constraints, or `None` when they
/// are satisfiable or the solver gives up.
fn solve(recs: &[StepRec], background: &[Bool]) -> Option<Vec<usize>> {
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32(
        "timeout",
        crate::engine::budget::solver_timeout_ms(SOLVER_TIMEOUT_MS),
    );
    solver.set_params(&params);
    for b in background {
        solver.assert(b);
    }
    let mut tracked: Vec<(usize, Bool)> = vec![];
    for (i, r) in recs.iter().enumerate() {
        if r.cons.is_empty() {
            continue;
        }
        let ind = Bool::new_const(format!("pathcheck!step{i}"));
        solver.assert(ind.implies(Bool::and(&r.cons)));
        tracked.push((i, ind));
    }
    let inds: Vec<Bool> = tracked.iter().map(|(_, b)| b.clone()).collect();
    if solver.check_assumptions(&inds) != SatResult::Unsat {
        return None;
    }
    let raw = solver.get_unsat_core();
    let mut core: Vec<usize> = tracked
        .iter()
        .filter(|(_, b)| raw.iter().any(|c| c == b))
        .map(|(i, _)| *i)
        .collect();
    // Deletion-based shrinking: drop each step whose constraint the contradiction does not need.
    let ind_of = |i: usize| {
        tracked
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, b)| b.clone())
    };
    let mut j = 0;
    let mut budget = MAX_SHRINK_CHECKS;
    let deadline = crate::engine::budget::earlier(Some(Instant::now() + SHRINK_TIME))
        .unwrap_or_else(Instant::now);
    while j < core.len() && budget > 0 && Instant::now() < deadline {
        budget -= 1;
        let trial: Vec<usize> = core
            .iter()
            .enumerate()
            .filter(|(x, _)| *x != j)
            .map(|(_, i)| *i)
            .collect();
        let assumptions: Vec<Bool> = trial.iter().filter_map(|i| ind_of(*i)).collect();
        if solver.check_assumptions(&assumptions) == SatResult::Unsat {
            core = trial;
        } else {
            j += 1;
        }
    }
    Some(core)
}

/// The syntactic core: step `k` and the earlier steps it depends on through data. The
/// formula is satisfiable mostly where the encoding keeps apart memory that may overlap, so
/// the slice does not: a field depends on every store to a field of the same struct (union
/// members), a scalar cell on every store of any scalar kind.
fn slice(recs: &[StepRec], k: usize, extra: &StepRec) -> Vec<usize> {
    let group = |l: &Loc| match l {
        Loc::Mem(MemKey::Field(s, _)) => Loc::Mem(MemKey::Field(*s, String::new())),
        Loc::Mem(_) => Loc::Mem(MemKey::Ptr),
        v => v.clone(),
    };
    let mut wanted: BTreeSet<Loc> = recs[k].uses.iter().chain(&extra.uses).map(group).collect();
    let mut out = vec![k];
    for j in (0..k).rev() {
        let r = &recs[j];
        if !r.defs.iter().any(|d| wanted.contains(&group(d))) {
            continue;
        }
        out.push(j);
        for d in &r.defs {
            // A variable version is defined once; a memory array keeps older cells.
            if matches!(d, Loc::Var(..)) {
                wanted.remove(d);
            }
        }
        wanted.extend(r.uses.iter().map(group));
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::frontend::{Source, lower_source};
    use petgraph::graph::EdgeIndex;
    use petgraph::visit::EdgeRef;

    const DECLS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nextern void abort(void);\nextern void *malloc(unsigned);\nextern void free(void *);\nstruct node { struct node *next; int data; };\n";

    fn program(body: &str) -> Program {
        let text = format!("{DECLS}{body}");
        lower_source(&Source::from_text(text, "t.c"), "t.c").unwrap()
    }

    fn checks(list: &str) -> PropertySet {
        PropertySet::parse_list(list).unwrap()
    }

    /// The path from the initialiser's entry that, where a location has several edges, takes
    /// the one whose text (as `shapecheck cfa` prints it) is in `take`, and ends with the first
    /// edge whose text satisfies `stop`. Calls to defined functions are entered.
    fn walk(prog: &Program, take: &[&str], stop: impl Fn(&str) -> bool) -> Vec<PathStep> {
        let mut stack = vec![(prog.init, prog.func(prog.init).entry)];
        let mut path = vec![];
        while let Some(&(f, loc)) = stack.last() {
            assert!(path.len() < 1000, "no stopping edge on the walk");
            let cfa = &prog.func(f).cfa;
            let text = |e: EdgeIndex| crate::program::cfa::op(prog, &cfa[e].op);
            let edges: Vec<EdgeIndex> = cfa.edges(loc).map(|e| e.id()).collect();
            let e = match edges.as_slice() {
                [e] => *e,
                _ => *edges
                    .iter()
                    .find(|e| take.contains(&text(**e).as_str()))
                    .unwrap_or_else(|| {
                        let all: Vec<String> = edges.iter().map(|e| text(*e)).collect();
                        panic!("no edge to take among {all:?}")
                    }),
            };
            path.push(PathStep { func: f, edge: e });
            if stop(&text(e)) {
                return path;
            }
            let target = cfa.edge_endpoints(e).unwrap().1;
            stack.last_mut().unwrap().1 = target;
            match &cfa[e].op {
                Op::Call {
                    callee: Callee::Func(g),
                    ..
                } if prog.func(*g).defined => stack.push((*g, prog.func(*g).entry)),
                Op::Return(_) => {
                    stack.pop();
                }
                _ => {}
            }
        }
        panic!("the program ended before a stopping edge")
    }

    fn is_error(op: &str) -> bool {
        op.starts_with("error(")
    }

    fn var(prog: &Program, name: &str) -> VarId {
        let i = prog.vars.iter().position(|v| v.name == name).unwrap();
        VarId(i as u32)
    }

    fn node(prog: &Program) -> StructId {
        let i = prog
            .structs
            .iter()
            .position(|s| s.name.contains("node"))
            .unwrap();
        StructId(i as u32)
    }

    /// The step of `path` whose edge text is `text`.
    fn step_of(prog: &Program, path: &[PathStep], text: &str) -> usize {
        path.iter()
            .position(|s| crate::program::cfa::op(prog, &prog.func(s.func).cfa[s.edge].op) == text)
            .unwrap_or_else(|| panic!("no step `{text}`"))
    }

    fn infeasible(r: PathResult) -> Core {
        match r {
            PathResult::Infeasible(c) => c,
            PathResult::Feasible(c) => panic!("expected infeasible, got feasible: {c:?}"),
            PathResult::Unknown(why) => panic!("expected infeasible, got unknown: {why}"),
        }
    }

    #[test]
    fn feasible_error_path_has_a_replayed_counterexample() {
        let prog = program(
            "int main(void) { int x = __VERIFIER_nondet_int(); if (x * 3 == 126) reach_error(); return 0; }\n",
        );
        let path = walk(&prog, &["[(x * 3) == 126]"], is_error);
        match check_path(&prog, &checks("unreach-call"), &path, &PathEnd::ErrorCall) {
            PathResult::Feasible(cex) => {
                assert_eq!(cex.violation.property.name(), "unreach-call");
                assert_eq!((cex.trace.inputs[0] as i32).wrapping_mul(3), 126);
            }
            other => panic!("expected feasible, got {other:?}"),
        }
    }

    #[test]
    fn aliasing_contradiction_core_has_both_pointers() {
        let prog = program(
            "int main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  if (!p) abort();\n  struct node *q = p;\n  if (q != p) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[p]", "[q != p]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        let (p, q) = (var(&prog, "p"), var(&prog, "q"));
        assert!(
            core.pointers.contains(&p) && core.pointers.contains(&q),
            "{core:?}"
        );
        assert_eq!(
            core.steps,
            vec![
                step_of(&prog, &path, "q = p"),
                step_of(&prog, &path, "[q != p]")
            ]
        );
        assert!(core.fields.is_empty(), "{core:?}");
    }

    #[test]
    fn stored_field_value_puts_the_field_in_the_core() {
        let prog = program(
            "int main(void) {\n  struct node *a = malloc(sizeof(struct node));\n  if (!a) abort();\n  struct node *b = malloc(sizeof(struct node));\n  if (!b) abort();\n  a->next = b;\n  b->next = 0;\n  struct node *x = a->next;\n  if (x->next != 0) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[a]", "[b]", "[x->next != NULL]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        assert!(
            core.fields.contains(&(node(&prog), "next".to_string())),
            "{core:?}"
        );
        for s in [
            "a->next = b",
            "b->next = NULL",
            "x = a->next",
            "[x->next != NULL]",
        ] {
            assert!(
                core.steps.contains(&step_of(&prog, &path, s)),
                "{s} not in {core:?}"
            );
        }
        for v in ["a", "b", "x"] {
            assert!(
                core.pointers.contains(&var(&prog, v)),
                "{v} not in {core:?}"
            );
        }
    }

    /// The pointer dereferenced by `p->f = ...` on the last step.
    fn dereferenced(prog: &Program, s: &PathStep) -> Expr {
        let Op::Assign { lhs, .. } = &prog.func(s.func).cfa[s.edge].op else {
            panic!("not an assignment")
        };
        let ExprKind::Field(b, ..) = &lhs.kind else {
            panic!("not a field")
        };
        let ExprKind::Deref(p) = &b.kind else {
            panic!("not through a pointer")
        };
        (**p).clone()
    }

    #[test]
    fn checked_malloc_result_makes_the_deref_error_infeasible() {
        let prog = program(
            "int main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  if (!p) abort();\n  p->next = 0;\n  free(p);\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[p]"], |op| op == "p->next = NULL");
        let end = PathEnd::InvalidDeref(vec![dereferenced(&prog, path.last().unwrap())]);
        let core = infeasible(check_path(&prog, &checks("valid-memsafety"), &path, &end));
        assert!(
            core.steps.contains(&step_of(&prog, &path, "[p]")),
            "{core:?}"
        );
        assert!(core.steps.contains(&(path.len() - 1)), "{core:?}");
        assert!(core.pointers.contains(&var(&prog, "p")), "{core:?}");
    }

    #[test]
    fn unchecked_malloc_result_makes_the_deref_error_feasible() {
        let prog = program(
            "int main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  p->next = 0;\n  free(p);\n  return 0;\n}\n",
        );
        let path = walk(&prog, &[], |op| op == "p->next = NULL");
        let end = PathEnd::InvalidDeref(vec![dereferenced(&prog, path.last().unwrap())]);
        match check_path(&prog, &checks("valid-memsafety"), &path, &end) {
            PathResult::Feasible(cex) => assert_eq!(cex.violation.property.name(), "valid-deref"),
            other => panic!("expected feasible, got {other:?}"),
        }
    }

    #[test]
    fn write_through_an_address_taken_variable_is_encoded() {
        let prog = program(
            "int main(void) {\n  int x = 1;\n  int *px = &x;\n  *px = 2;\n  if (x != 2) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[x != 2]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        assert!(core.pointers.contains(&var(&prog, "px")), "{core:?}");
        assert!(
            core.steps.contains(&step_of(&prog, &path, "*px = 2")),
            "{core:?}"
        );
    }

    #[test]
    fn parameters_and_results_connect_call_instances() {
        let prog = program(
            "struct node *id(struct node *n) { return n; }\nint main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  if (!p) abort();\n  struct node *q = id(p);\n  if (q != p) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[p]", "[q != p]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        for v in ["p", "q", "n"] {
            assert!(
                core.pointers.contains(&var(&prog, v)),
                "{v} not in {core:?}"
            );
        }
    }

    #[test]
    fn union_members_fall_back_to_the_syntactic_slice() {
        // The encoding keeps union members apart, so the formula is satisfiable; the engine
        // knows better, and the core is the failing branch with its data dependencies.
        let prog = program(
            "union u { int a; unsigned b; };\nint main(void) {\n  union u v;\n  int k = 5;\n  v.a = k;\n  if (v.b != 5) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[v.b != 5]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        assert_eq!(
            core.steps.last(),
            Some(&step_of(&prog, &path, "[v.b != 5]")),
            "{core:?}"
        );
    }

    #[test]
    fn undefined_callee_and_malformed_paths_are_unknown() {
        let prog = program(
            "extern int f(void);\nint main(void) { int x = f(); if (x) reach_error(); return 0; }\n",
        );
        let path = walk(&prog, &["[x]"], is_error);
        match check_path(&prog, &checks("unreach-call"), &path, &PathEnd::ErrorCall) {
            PathResult::Unknown(why) => assert!(why.contains("no body"), "{why}"),
            other => panic!("expected unknown, got {other:?}"),
        }
        let mut skipped = path.clone();
        skipped.remove(1);
        match check_path(
            &prog,
            &checks("unreach-call"),
            &skipped,
            &PathEnd::ErrorCall,
        ) {
            PathResult::Unknown(why) => assert!(why.contains("not a path"), "{why}"),
            other => panic!("expected unknown, got {other:?}"),
        }
    }
}

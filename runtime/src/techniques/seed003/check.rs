//! Independent re-checks of what PDR found: the invariant before TRUE, and the bounded check
//! that tells a concrete counterexample from an abstraction failure.
//!
//! Consumes a [`System`], the predicates, and an invariant (a CNF per cut point) or an
//! abstract trace; produces `Ok(())` when the invariant holds initially, is preserved by every
//! path between cut points and excludes every fault (each a fresh solver on fresh copies of
//! the vocabulary and freshly executed paths, nothing shared with the search), or the first
//! obligation that failed; and for a trace, whether some concrete run follows its cut points
//! to its fault (BMC over fresh copies, one per step).

use super::epr::Voc;
use super::families::Pred;
use super::logic::FiniteHeap;
use super::pdr::{Clause, clause_formula, new_solver};
use super::program::{Fault, System};
use crate::engine::Budget;
use std::collections::BTreeSet;
use z3::SatResult;
use z3::ast::Bool;

/// Re-checks `inv` (per cut point) with fresh solvers.
pub fn invariant(
    sys: &System,
    preds: &[Vec<Pred>],
    inv: &[BTreeSet<Clause>],
    budget: &Budget,
) -> Result<(), String> {
    let formula = |c: usize, v: &Voc| {
        Bool::and(
            &(inv[c].iter())
                .map(|cl| clause_formula(&preds[c], cl, v))
                .collect::<Vec<_>>(),
        )
    };
    inductive(sys, &|c, v| vec![formula(c, v)], budget)
}

/// Re-checks an invariant given per cut point as a disjunction of cases over a copy of the
/// vocabulary, with fresh solvers: it holds initially, every path between cut points
/// preserves it from each case, and each case excludes every fault. (One query per case
/// keeps the solver from splitting a large disjunction itself.)
pub fn inductive(
    sys: &System,
    cases: &dyn Fn(usize, &Voc) -> Vec<Bool>,
    budget: &Budget,
) -> Result<(), String> {
    let formula = |c: usize, v: &Voc| Bool::or(&cases(c, v));
    let null = super::epr::constant("null");
    let w0 = sys.voc("@0", &null);
    let w1 = sys.voc("@1", &null);
    unsat(
        budget,
        &w0,
        None,
        &[sys.initial(&w0), formula(0, &w0).not()],
    )
    .map_err(|e| format!("the invariant does not hold initially ({e})"))?;
    // The negated invariant after a path, per target: built once, not per case and path.
    let broken: Vec<Bool> = (0..sys.cuts.len()).map(|c| formula(c, &w1).not()).collect();
    for c in 0..sys.cuts.len() {
        let (leaves, bads) = sys.explore(c, &w0)?;
        for case in cases(c, &w0) {
            for l in &leaves {
                let parts = [case.clone(), l.transition(&w1), broken[l.to].clone()];
                unsat(budget, &w0, Some(&w1), &parts).map_err(|e| {
                    format!(
                        "the invariant is not preserved from line {} to line {} ({e})",
                        sys.line_of(sys.cuts[c]),
                        sys.line_of(sys.cuts[l.to])
                    )
                })?;
            }
            for b in &bads {
                unsat(budget, &w0, None, &[case.clone(), b.cond.clone()]).map_err(|e| {
                    format!(
                        "the invariant does not exclude {} at line {} ({e})",
                        b.describe(),
                        b.line
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// Whether the system has an initial state at all (a contract's precondition may have none).
pub fn satisfiable(sys: &System, budget: &Budget) -> Result<bool, String> {
    let null = super::epr::constant("null");
    let w0 = sys.voc("@0", &null);
    match unsat(budget, &w0, None, &[sys.initial(&w0)]) {
        Ok(()) => Ok(false),
        Err(e) if e.starts_with("a counterexample") => Ok(true),
        Err(e) => Err(e),
    }
}

/// `Ok(())` when the conjunction of `parts` is unsatisfiable with the axioms of the copies
/// `v0` (and `v1`), else the reason (a counterexample exists, or the solver gave up).
pub fn unsat(budget: &Budget, v0: &Voc, v1: Option<&Voc>, parts: &[Bool]) -> Result<(), String> {
    let s = new_solver(budget);
    for a in v0
        .axioms()
        .into_iter()
        .chain(v1.into_iter().flat_map(|v| v.axioms()))
    {
        s.assert(&a);
    }
    for p in parts {
        s.assert(p);
    }
    match s.check() {
        SatResult::Unsat => Ok(()),
        SatResult::Sat => Err("a counterexample to the obligation exists".into()),
        SatResult::Unknown => Err(format!(
            "the solver gave up: {}",
            s.get_reason_unknown().unwrap_or_default()
        )),
    }
}

/// The most nodes of a bounded check's heap with tree backbones (null and the fresh nodes
/// of the run included). The twins need four or five; with 12 the query for a run through
/// a loop head took four times as long and gave up under load.
const BOUNDED_NODES: usize = 8;

/// Whether a concrete run visits the cut points `cuts` in order (one path between each
/// consecutive pair) and then meets `fault` from the last one: `Ok(Some(heap))` with the
/// run's initial heap when sat, `Ok(None)` when unsat.
///
/// With tree backbones the first query asks for an initial heap whose backbone relations
/// are the paths of its edges, over at most [`BOUNDED_NODES`] nodes
/// ([`Voc::backbone_paths`]: a heap the replay can rebuild);
/// when the solver finds none, the query without them decides whether the trace is
/// spurious.
pub fn bounded(
    sys: &System,
    cuts: &[usize],
    fault: Fault,
    budget: &Budget,
) -> Result<Option<FiniteHeap>, String> {
    if sys.backbones.is_empty() {
        return bounded_run(sys, cuts, fault, budget, false);
    }
    match bounded_run(sys, cuts, fault, budget, true) {
        Ok(Some(heap)) => Ok(Some(heap)),
        _ => bounded_run(sys, cuts, fault, budget, false),
    }
}

/// [`bounded`], with the backbones' paths made paths of edges when `exact`.
fn bounded_run(
    sys: &System,
    cuts: &[usize],
    fault: Fault,
    budget: &Budget,
    exact: bool,
) -> Result<Option<FiniteHeap>, String> {
    let null = super::epr::constant("null");
    let vocs: Vec<Voc> = (0..cuts.len())
        .map(|i| sys.voc(&format!("@{i}"), &null))
        .collect();
    let s = new_solver(budget);
    for v in &vocs {
        for a in v.axioms() {
            s.assert(&a);
        }
    }
    if exact {
        // At most BOUNDED_NODES nodes, so that the backbone's path axiom is a disjunction.
        let universe: Vec<_> = (0..BOUNDED_NODES)
            .map(|_| super::epr::constant("u"))
            .collect();
        let x = super::epr::constant("x");
        let every: Vec<Bool> = universe.iter().map(|u| x.eq(u)).collect();
        s.assert(super::epr::forall(&[&x], &Bool::or(&every)));
        for a in vocs[0].backbone_paths(&universe) {
            s.assert(&a);
        }
    }
    s.assert(sys.initial(&vocs[0]));
    for i in 0..cuts.len() {
        let (leaves, bads) = sys.explore(cuts[i], &vocs[i])?;
        let step: Vec<Bool> = match vocs.get(i + 1) {
            Some(next) => (leaves.iter())
                .filter(|l| l.to == cuts[i + 1])
                .map(|l| l.transition(next))
                .collect(),
            None => (bads.iter())
                .filter(|b| b.fault == fault)
                .map(|b| b.cond.clone())
                .collect(),
        };
        s.assert(Bool::or(&step));
    }
    match s.check() {
        SatResult::Sat => {
            let model = s.get_model().ok_or("the bounded check gave no model")?;
            let heap = vocs[0]
                .read(&model)
                .ok_or("a model without a node universe")?;
            Ok(Some(heap))
        }
        SatResult::Unsat => Ok(None),
        SatResult::Unknown => Err(format!(
            "the bounded check gave up: {}",
            s.get_reason_unknown().unwrap_or_default()
        )),
    }
}

//! Propagation of precondition conjuncts (§2.9 of the digest): the conjuncts of a contract's
//! precondition that every path between cut points preserves, found as a greatest fixpoint.
//!
//! Consumes the transition system (with its precondition) and a budget; produces, per cut
//! point, the conjuncts that hold there on every run: all of them at the entry, and at
//! another cut point those that every path into it carries from its source, where they hold
//! too (Houdini's scheme without guessing: only the precondition's own conjuncts are
//! candidates). The analysis assumes them, so the Boolean heaps need not track what the loops
//! leave alone; the final re-check of the invariant checks them again.

use crate::engine::Budget;
use crate::techniques::seed003::check::unsat;
use crate::techniques::seed003::epr;
use crate::techniques::seed003::logic::Formula;
use crate::techniques::seed003::program::System;
use z3::ast::Bool;

/// The conjuncts of `f` worth propagating (nested conjunctions flattened).
fn conjuncts(f: &Formula) -> Vec<Formula> {
    (f.conjuncts().into_iter())
        .filter(|c| **c != Formula::Const(true))
        .cloned()
        .collect()
}

/// The precondition's conjuncts kept at each cut point, and the solver calls spent.
pub fn propagate(sys: &System, budget: &Budget) -> Result<(Vec<Formula>, usize), String> {
    let cands = sys.pre.as_ref().map(conjuncts).unwrap_or_default();
    let cuts = sys.cuts.len();
    let mut keep: Vec<Vec<bool>> = vec![vec![true; cands.len()]; cuts];
    let null = epr::constant("null");
    let (w0, w1) = (sys.voc("@0", &null), sys.voc("@1", &null));
    let pre: Vec<Bool> = cands.iter().map(|f| w0.encode(f)).collect();
    let post: Vec<Bool> = cands.iter().map(|f| w1.encode(f)).collect();
    let mut paths = vec![];
    for c in 0..cuts {
        let (leaves, _) = sys.explore(c, &w0)?;
        paths.push(leaves);
    }
    let mut calls = 0;
    let mut changed = !cands.is_empty();
    while changed {
        changed = false;
        for c in 0..cuts {
            for l in &paths[c] {
                let held: Vec<Bool> = (0..cands.len())
                    .filter(|&j| keep[c][j])
                    .map(|j| pre[j].clone())
                    .collect();
                for j in 0..cands.len() {
                    if !keep[l.to][j] {
                        continue;
                    }
                    calls += 1;
                    let kept = keep[c][j]
                        && unsat(
                            budget,
                            &w0,
                            Some(&w1),
                            &[Bool::and(&held), l.transition(&w1), post[j].not()],
                        )
                        .is_ok();
                    if !kept {
                        keep[l.to][j] = false;
                        changed = true;
                    }
                }
            }
        }
    }
    let kept = keep
        .iter()
        .map(|k| {
            Formula::And(
                (cands.iter().zip(k))
                    .filter(|(_, b)| **b)
                    .map(|(f, _)| f.clone())
                    .collect(),
            )
        })
        .collect();
    Ok((kept, calls))
}

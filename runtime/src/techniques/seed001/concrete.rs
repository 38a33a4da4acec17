//! A concrete run for an abstract counterexample the refinement cannot refute: the engine's
//! FALSE, only ever after replay.
//!
//! Consumes the task, the inlined program and the abstract counterexample (its edges, root
//! first); produces a counterexample the explicit engine replayed on the original program
//! (`crate::explicit::replay`), or nothing. The path fixes the inputs that steer it: a
//! nondeterministic value the path next tests for truth takes the branch the path takes (a
//! loop entered or left), and an allocation succeeds unless the path next finds it NULL. The
//! other inputs (data) are drawn from small values and the program's constants, all
//! combinations when there are few, a fixed-seed sample otherwise. A run that reaches a
//! violation of a checked property is a counterexample whatever path it took; a run that
//! does not proves nothing, and the engine answers UNKNOWN as before.

use super::boxes;
use crate::engine::Task;
use crate::explicit::explore::Counterexample;
use crate::explicit::replay::replay;
use crate::program::ir::{AllocKind, Builtin, Callee, Expr, ExprKind, Op, VarId};
use crate::techniques::seed002::flat::Flat;
use std::collections::BTreeSet;

/// The most replays one counterexample gets.
const MAX_RUNS: usize = 512;
/// The most steps of one replay.
const MAX_STEPS: usize = 20_000;
/// The most data values tried per input.
const MAX_VALUES: usize = 10;

/// One input the path consumes.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// A value the path fixes.
    Fixed(i64),
    /// A data value: any of the candidates.
    Data,
}

/// A replayed counterexample for the path `edges` of `flat`, if some inputs give one.
pub fn find(task: &Task, flat: &Flat, edges: &[usize]) -> Option<Box<Counterexample>> {
    let slots = slots(task, flat, edges);
    let values = candidates(flat);
    let data: Vec<usize> = (0..slots.len())
        .filter(|i| slots[*i] == Slot::Data)
        .collect();
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    let all = (values.len() as u64)
        .checked_pow(data.len() as u32)
        .filter(|n| *n <= MAX_RUNS as u64);
    let runs = all.map_or(MAX_RUNS, |n| n as usize);
    for run in 0..runs {
        if task.budget.check().is_err() {
            return None;
        }
        let mut inputs: Vec<i64> = (slots.iter())
            .map(|s| match s {
                Slot::Fixed(v) => *v,
                Slot::Data => 0,
            })
            .collect();
        let mut n = run;
        for &i in &data {
            inputs[i] = match all {
                Some(_) => {
                    let v = values[n % values.len()];
                    n /= values.len();
                    v
                }
                None => values[next(&mut rng) as usize % values.len()],
            };
        }
        let (violation, trace) = replay(task.program, task.properties, &inputs, MAX_STEPS);
        if let Some(violation) = violation {
            return Some(Box::new(Counterexample { violation, trace }));
        }
    }
    None
}

/// The inputs the path consumes, in order: nondeterministic values and the outcome of each
/// allocation that may fail (the cells the engine adds for variables are not the program's).
fn slots(task: &Task, flat: &Flat, edges: &[usize]) -> Vec<Slot> {
    let mut out = vec![];
    for (k, e) in edges.iter().enumerate() {
        let Op::Call {
            lhs,
            callee: Callee::Builtin(b),
            ..
        } = &flat.edges[*e].op
        else {
            continue;
        };
        let var = lhs.as_ref().and_then(|l| match l.kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        });
        let test = || var.and_then(|v| next_test(flat, &edges[k + 1..], v));
        match b {
            Builtin::Nondet => out.push(test().map_or(Slot::Data, |t| Slot::Fixed(i64::from(t)))),
            Builtin::Alloc(AllocKind::Alloca) => {}
            Builtin::Alloc(_) if var.is_some_and(|v| boxes::is_variable_cell(&flat.prog, v)) => {}
            Builtin::Alloc(_) if task.program.alloc_may_fail => {
                out.push(Slot::Fixed(i64::from(test() == Some(false))));
            }
            _ => {}
        }
    }
    out
}

/// Whether the path's next truth test of `v` (before `v` is written again) is positive.
fn next_test(flat: &Flat, rest: &[usize], v: VarId) -> Option<bool> {
    for e in rest.iter().take(8) {
        match &flat.edges[*e].op {
            Op::Assume { cond, positive } if is_var(cond, v) => return Some(*positive),
            Op::Assign { lhs, .. } if is_var(lhs, v) => return None,
            Op::Call { lhs: Some(l), .. } if is_var(l, v) => return None,
            _ => {}
        }
    }
    None
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(e.kind, ExprKind::Var(x) if x == v)
}

/// Small values, and the program's integer constants with their neighbours.
fn candidates(flat: &Flat) -> Vec<i64> {
    let mut consts: BTreeSet<i64> = BTreeSet::new();
    for e in &flat.edges {
        for x in e.op.exprs() {
            x.visit(&mut |y| {
                if let ExprKind::Const(c) = y.kind {
                    consts.insert(c);
                }
            });
        }
    }
    let mut out = vec![0, 1, 2, -1];
    for c in consts {
        for v in [c, c - 1, c + 1] {
            if out.len() < MAX_VALUES && !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// xorshift64.
fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

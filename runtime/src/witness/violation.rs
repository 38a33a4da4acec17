//! Violation witnesses: the replayed run of a FALSE as a `violation_sequence`.
//!
//! Consumes the program and a [`Counterexample`] (its replayed trace, which records the
//! CFA edge of every step and the inputs each step consumed); produces the witness: one
//! segment per nondeterministic value, a `function_return` waypoint `\result == v` at the
//! closing parenthesis of the `__VERIFIER_nondet_*` call (or of an allocation that
//! failed, `\result == 0`), and a last segment whose `target` is the statement at which the
//! replay met the violation. Every value the run drew from a nondeterministic call is
//! pinned this way, so no branching waypoints are needed. For valid-memtrack and
//! valid-memcleanup, where the format has no dedicated rule, the target is the statement at
//! which the interpreter found the memory lost (the assignment or return that dropped the
//! last pointer, or `main`'s return).

use super::Meta;
use super::format::{Constraint, Entry, Location, Metadata, Segment, Waypoint, WaypointItem};
use crate::explicit::explore::Counterexample;
use crate::explicit::replay::TraceStep;
use crate::program::ir::{AllocKind, Builtin, Callee, Edge, IntTy, Op, Program};

/// The violation witness of `cx`, as YAML.
pub fn witness(prog: &Program, cx: &Counterexample, meta: &Meta) -> String {
    let segments = segments(prog, cx, meta);
    let content = format!("{segments:?}");
    super::format::write(&Entry {
        entry_type: "violation_sequence".into(),
        metadata: Metadata::new(meta, &content),
        content: segments,
    })
}

/// The segments: one per pinned value, then the target.
pub fn segments(prog: &Program, cx: &Counterexample, meta: &Meta) -> Vec<Segment> {
    let mut out = vec![];
    let steps = &cx.trace.steps;
    for s in steps {
        if let Some(w) = pin(prog, s, &cx.trace.inputs, meta) {
            out.push(Segment {
                segment: vec![WaypointItem { waypoint: w }],
            });
        }
    }
    let target = steps.iter().rev().find_map(|s| {
        let (edge, function) = program_edge(prog, s)?;
        Some(Location {
            file_name: meta.file_name.clone(),
            line: edge.line.max(1),
            column: (edge.column > 0).then_some(edge.column),
            function: Some(function),
        })
    });
    let location = target.unwrap_or_else(|| Location {
        file_name: meta.file_name.clone(),
        line: cx.violation.line.max(1),
        column: None,
        function: None,
    });
    out.push(Segment {
        segment: vec![WaypointItem {
            waypoint: Waypoint {
                kind: "target".into(),
                action: "follow".into(),
                constraint: None,
                location,
            },
        }],
    });
    out
}

/// How many nonzero values the run drew where no waypoint can pin them (main's arguments,
/// a library model, an uninitialised variable): a validator that takes 0 for them may not
/// reach the violation.
pub fn unpinned(prog: &Program, cx: &Counterexample, meta: &Meta) -> usize {
    let inputs = &cx.trace.inputs;
    let mut n = 0;
    for s in &cx.trace.steps {
        let pinned = pin(prog, s, inputs, meta).is_some();
        for (k, i) in s.consumed.clone().enumerate() {
            let v = inputs.get(i as usize).copied().unwrap_or(0);
            if v != 0 && !(pinned && k == 0) {
                n += 1;
            }
        }
    }
    n
}

/// The step's edge and function name when it is the user's code (not shapecheck's C
/// library, whose lines are not in the user's file).
fn program_edge<'p>(prog: &'p Program, s: &TraceStep) -> Option<(&'p Edge, String)> {
    let (f, e) = s.edge?;
    let func = prog.func(f);
    (!func.library && func.defined && f != prog.init).then(|| (&func.cfa[e], func.name.clone()))
}

/// The `function_return` waypoint that pins the value a step drew, if it is a
/// nondeterministic call or a failed allocation of the user's code.
fn pin(prog: &Program, s: &TraceStep, inputs: &[i64], meta: &Meta) -> Option<Waypoint> {
    let (edge, function) = program_edge(prog, s)?;
    let first = s.consumed.clone().next()?;
    let drawn = inputs.get(first as usize).copied().unwrap_or(0);
    let Op::Call {
        callee: Callee::Builtin(b),
        lhs,
        ..
    } = &edge.op
    else {
        return None;
    };
    let value = match b {
        Builtin::Nondet => {
            let ty = lhs
                .as_ref()
                .and_then(|l| l.ty.as_int())
                .unwrap_or(IntTy::INT);
            c_value(drawn, ty).to_string()
        }
        Builtin::Alloc(AllocKind::Malloc | AllocKind::Calloc) if drawn != 0 => "0".into(),
        _ => return None,
    };
    let (line, column) = edge.close?;
    Some(Waypoint {
        kind: "function_return".into(),
        action: "follow".into(),
        constraint: Some(Constraint {
            value: format!("\\result == {value}"),
            format: Some("acsl_expression".into()),
        }),
        location: Location {
            file_name: meta.file_name.clone(),
            line,
            column: Some(column),
            function: Some(function),
        },
    })
}

/// The value of type `ty` that the input `v` becomes (wrapped to its width and signedness;
/// a `_Bool` is 0 or 1).
pub fn c_value(v: i64, ty: IntTy) -> i128 {
    if ty.boolean {
        return i128::from(v != 0);
    }
    let bits = u32::from(ty.bits);
    let mask: u128 = if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let raw = (v as i128 as u128) & mask;
    if ty.signed && bits < 128 && raw >> (bits - 1) & 1 == 1 {
        raw as i128 - (1i128 << bits)
    } else {
        raw as i128
    }
}

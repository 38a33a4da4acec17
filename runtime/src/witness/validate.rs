//! Validation of a violation witness by concrete replay, driven by its waypoints alone.
//!
//! Consumes the program, the properties and the witness text; produces the violation the
//! replay reached, or why the witness does not lead to one. The interpreter runs the program
//! with every nondeterministic value taken from the witness: at a `__VERIFIER_nondet_*` call
//! (or an allocation that may fail) whose closing parenthesis is the location of the next
//! `function_return` waypoint, the waypoint's `\result == c` gives the value; any other draw
//! is 0 (an allocation succeeds). `branching` and `function_enter` waypoints are passed when
//! the run takes that branch or call at their location. The witness is valid when every
//! waypoint is passed in order and the run violates a property at the target's location.
//! `avoid` and `assumption` waypoints are not interpreted: such a witness is refused with
//! the reason.

use super::format::{Location, Waypoint, read_violation};
use crate::explicit::replay::{TraceStep, replay};
use crate::program::ir::{AllocKind, Builtin, Callee, Edge, Op, Program};
use crate::program::property::{Property, PropertySet};

/// A witness that replayed to its target.
#[derive(Clone, Debug)]
pub struct Validated {
    /// The property violated.
    pub property: Property,
    /// The line of the violation.
    pub line: u32,
    /// The number of waypoints passed (the target included).
    pub waypoints: usize,
    /// The inputs the replay used.
    pub inputs: Vec<i64>,
}

/// Replays `witness` on `prog` (at most `max_steps` edges per run).
pub fn validate(
    prog: &Program,
    checks: &PropertySet,
    witness: &str,
    max_steps: usize,
) -> Result<Validated, String> {
    let entries = read_violation(witness)?;
    let mut waypoints = vec![];
    for s in entries.into_iter().flat_map(|e| e.content) {
        for w in s.segment {
            match (w.waypoint.action.as_str(), w.waypoint.kind.as_str()) {
                ("avoid", _) => return Err("`avoid` waypoints are not interpreted".into()),
                (_, "assumption") => {
                    return Err("`assumption` waypoints are not interpreted".into());
                }
                _ => waypoints.push(w.waypoint),
            }
        }
    }
    let mut inputs: Vec<i64> = vec![];
    // Each run fixes at least one more input: at most one run per input, plus the last.
    for _ in 0..=max_steps {
        if crate::engine::budget::check().is_err() {
            return Err("the time limit came before the replay settled".into());
        }
        let (violation, trace) = replay(prog, checks, &inputs, max_steps);
        let walk = walk(prog, &trace.steps, &waypoints)?;
        let mut used = inputs.clone();
        used.resize(used.len().max(walk.inputs.len()), 0);
        if walk.inputs[..] != used[..walk.inputs.len()] {
            inputs = walk.inputs;
            continue;
        }
        let Some(v) = violation else {
            return Err(format!(
                "the replay ends without violation: {}",
                trace.ended
            ));
        };
        let target = waypoints.last().expect("a target");
        if walk.passed + 1 != waypoints.len() {
            let w = &waypoints[walk.passed];
            return Err(format!(
                "the run violates {} at line {} without passing the {} waypoint at line {}",
                v.property.name(),
                v.line,
                w.kind,
                w.location.line
            ));
        }
        let at = last_location(prog, &trace.steps);
        if !at.is_some_and(|(line, col)| matches(&target.location, line, col)) {
            return Err(format!(
                "the run violates {} at line {}, not at the target (line {})",
                v.property.name(),
                v.line,
                target.location.line
            ));
        }
        return Ok(Validated {
            property: v.property,
            line: v.line,
            waypoints: waypoints.len(),
            inputs,
        });
    }
    Err("the replay did not settle on the witness's values".into())
}

/// What a run did with the waypoints: how many it passed (in order) and the inputs the
/// waypoints give to the draws it made.
struct Walk {
    passed: usize,
    inputs: Vec<i64>,
}

fn walk(prog: &Program, steps: &[TraceStep], waypoints: &[Waypoint]) -> Result<Walk, String> {
    let mut out = Walk {
        passed: 0,
        inputs: vec![],
    };
    let last = waypoints.len() - 1;
    for s in steps {
        let next = waypoints[..last].get(out.passed);
        let edge = user_edge(prog, s);
        let mut drawn = None;
        if let (Some(w), Some(e)) = (next, edge) {
            match passes(w, e, s)? {
                Pass::No => {}
                Pass::Yes => out.passed += 1,
                Pass::Draw(v) => {
                    out.passed += 1;
                    drawn = Some(v);
                }
            }
        }
        for i in s.consumed.clone() {
            out.inputs.resize(i as usize, 0);
            let first = i == s.consumed.start;
            out.inputs.push(if first { drawn.unwrap_or(0) } else { 0 });
        }
    }
    Ok(out)
}

enum Pass {
    No,
    Yes,
    /// Passed, and the step's first draw takes this input.
    Draw(i64),
}

/// Whether step `s` (over edge `e`) passes waypoint `w`.
fn passes(w: &Waypoint, e: &Edge, s: &TraceStep) -> Result<Pass, String> {
    let call_at = |l: &Location| e.close.is_some_and(|(line, col)| matches(l, line, col));
    match (w.kind.as_str(), &e.op) {
        ("function_return", Op::Call { callee, .. }) if call_at(&w.location) => {
            let value = w.constraint.as_ref().map_or("", |c| c.value.as_str());
            let c = result_equals(value)?;
            match callee {
                Callee::Builtin(Builtin::Nondet) if !s.consumed.is_empty() => Ok(Pass::Draw(c)),
                Callee::Builtin(Builtin::Alloc(AllocKind::Malloc | AllocKind::Calloc))
                    if !s.consumed.is_empty() =>
                {
                    Ok(Pass::Draw(i64::from(c == 0)))
                }
                _ => Err(format!(
                    "a `function_return` waypoint at line {} on a call whose value the \
                     validator does not choose",
                    w.location.line
                )),
            }
        }
        ("function_enter", Op::Call { .. } | Op::CallPtr { .. }) if call_at(&w.location) => {
            Ok(Pass::Yes)
        }
        ("branching", Op::Assume { positive, .. }) if matches(&w.location, e.line, e.column) => {
            let value = w.constraint.as_ref().map_or("", |c| c.value.as_str());
            Ok(match (value, positive) {
                ("true", true) | ("false", false) => Pass::Yes,
                _ => Pass::No,
            })
        }
        _ => Ok(Pass::No),
    }
}

/// The constant of `\result == c`.
fn result_equals(value: &str) -> Result<i64, String> {
    let c = value
        .strip_prefix("\\result")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix("=="))
        .map(str::trim)
        .ok_or_else(|| format!("`{value}`: only `\\result == c` is interpreted"))?;
    let c = c.trim_start_matches('(').trim_end_matches(')');
    let c = c.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Ok(v) = c.parse::<i64>() {
        return Ok(v);
    }
    // An unsigned 64-bit value: its bits.
    c.parse::<u64>()
        .map(|v| v as i64)
        .map_err(|_| format!("`{value}`: not an integer constant"))
}

fn user_edge<'p>(prog: &'p Program, s: &TraceStep) -> Option<&'p Edge> {
    let (f, e) = s.edge?;
    let func = prog.func(f);
    (!func.library && func.defined && f != prog.init).then(|| &func.cfa[e])
}

/// The line and column of the last step in the user's code.
fn last_location(prog: &Program, steps: &[TraceStep]) -> Option<(u32, u32)> {
    steps
        .iter()
        .rev()
        .find_map(|s| user_edge(prog, s).map(|e| (e.line, e.column)))
}

/// Whether `l` is at `line` (and `column`, when both know it).
fn matches(l: &Location, line: u32, column: u32) -> bool {
    l.line == line && (l.column.is_none() || column == 0 || l.column == Some(column))
}

//! Concrete replay of a candidate counterexample: runs the program on the concrete inputs a
//! Z3 model gave, one edge at a time, and records a readable trace (source line, operation,
//! the variables and heap cells that changed). A FALSE verdict is reported only when this run
//! reaches a violation of the same property.

use crate::explicit::exec::{Exec, Outcome, State, Violation};
use crate::explicit::memory::{Memory, Ptr, Val};
use crate::program::cfa;
use crate::program::ir::Program;
use crate::program::property::PropertySet;
use serde::Serialize;

/// One step of a concrete trace.
#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    /// The function executing.
    pub function: String,
    /// Source line.
    pub line: u32,
    /// The operation, as C-like text.
    pub op: String,
    /// What changed: `name = value` per written cell or new block.
    pub changes: Vec<String>,
    /// The CFA edge taken, for analyses that follow the run (not part of the printed trace).
    #[serde(skip)]
    pub edge: Option<(crate::program::ir::FuncId, petgraph::graph::EdgeIndex)>,
    /// The indices of the inputs the step consumed (into [`Replay::inputs`]).
    #[serde(skip)]
    pub consumed: std::ops::Range<u32>,
}

/// The result of a replay.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    /// The violation reached, if any.
    pub violation: Option<(String, u32, String)>,
    /// The steps taken.
    pub steps: Vec<TraceStep>,
    /// The concrete inputs, in order of use.
    pub inputs: Vec<i64>,
    /// Why the run ended without a violation.
    pub ended: String,
    /// The state the violation left (what a picture of the counterexample heap draws).
    #[serde(skip)]
    pub last: Option<Box<State>>,
}

/// Runs `prog` concretely on `inputs`, at most `max_steps` edges.
pub fn replay(
    prog: &Program,
    checks: &PropertySet,
    inputs: &[i64],
    max_steps: usize,
) -> (Option<Violation>, Replay) {
    replay_observed(prog, checks, inputs, max_steps, &mut |_| {})
}

/// [`replay`], showing `observe` every state the run passes through before it takes an edge
/// from it (what a dynamic check of claimed invariants looks at).
pub fn replay_observed(
    prog: &Program,
    checks: &PropertySet,
    inputs: &[i64],
    max_steps: usize,
    observe: &mut dyn FnMut(&State),
) -> (Option<Violation>, Replay) {
    let exec = Exec {
        prog,
        checks,
        inputs: Some(inputs),
        caveats: Default::default(),
        split: Default::default(),
    };
    let st = exec.initial();
    replay_from(&exec, st, max_steps, &mut |s| {
        observe(s);
        false
    })
}

/// Runs `exec` (concrete: its inputs are given) from the state `st`, at most `max_steps`
/// edges. `stop` sees every state before an edge is taken from it; when it says so, the run
/// ends there without a violation and the state is kept in [`Replay::last`] (a harness that
/// starts a function from a built state stops it at its return).
pub fn replay_from(
    exec: &Exec,
    mut st: State,
    max_steps: usize,
    stop: &mut dyn FnMut(&State) -> bool,
) -> (Option<Violation>, Replay) {
    let prog = exec.prog;
    let mut out = Replay {
        violation: None,
        steps: vec![],
        inputs: exec.inputs.unwrap_or_default().to_vec(),
        ended: String::new(),
        last: None,
    };
    for _ in 0..max_steps {
        if stop(&st) {
            out.ended = "stopped".into();
            out.last = Some(Box::new(st));
            return (None, out);
        }
        let Some(top) = st.frames.last() else { break };
        let f = prog.func(top.func);
        let edges: Vec<_> = f
            .cfa
            .edges(top.loc)
            .map(|e| petgraph::visit::EdgeRef::id(&e))
            .collect();
        let fname = f.name.clone();
        let func = top.func;
        let mut next = None;
        for e in edges.into_iter().rev() {
            let text = cfa::op(prog, &f.cfa[e].op);
            let line = f.cfa[e].line;
            for o in exec.step(st.clone(), e) {
                match o {
                    Outcome::Infeasible => {}
                    Outcome::Next(s, _) => {
                        out.steps
                            .push(step(&fname, (func, e), line, text.clone(), &st, &s));
                        next = Some(s);
                    }
                    Outcome::Violation(s, v) => {
                        out.steps
                            .push(step(&fname, (func, e), line, text.clone(), &st, &s));
                        out.violation = Some((v.property.to_string(), v.line, v.message.clone()));
                        out.last = Some(Box::new(s));
                        return (Some(v), out);
                    }
                    Outcome::End(end) => {
                        out.steps
                            .push(step(&fname, (func, e), line, text.clone(), &st, &st));
                        out.ended = format!("the run ended ({end:?})");
                        return (None, out);
                    }
                    Outcome::Stop(why) => {
                        out.ended = why;
                        return (None, out);
                    }
                }
            }
            if next.is_some() {
                break;
            }
        }
        match next {
            Some(s) => st = s,
            None => {
                out.ended = "no enabled edge".into();
                return (None, out);
            }
        }
    }
    out.ended = format!("step limit {max_steps} reached");
    (None, out)
}

fn step(
    function: &str,
    edge: (crate::program::ir::FuncId, petgraph::graph::EdgeIndex),
    line: u32,
    op: String,
    before: &State,
    after: &State,
) -> TraceStep {
    TraceStep {
        function: function.to_string(),
        edge: Some(edge),
        line,
        op,
        changes: diff(&before.mem, &after.mem),
        consumed: before.next_sym..after.next_sym.max(before.next_sym),
    }
}

/// The cells and blocks that differ between two memories.
pub fn diff(old: &Memory, new: &Memory) -> Vec<String> {
    let mut out = vec![];
    for (id, b) in new.changed_since(old) {
        match old.block(id) {
            None if b.kind == crate::explicit::memory::BlockKind::Heap => {
                out.push(format!("new block {} ({} bytes)", b.name, b.size));
            }
            Some(ob)
                if ob.alive && !b.alive && b.kind == crate::explicit::memory::BlockKind::Heap =>
            {
                out.push(format!("{} freed", b.name));
            }
            _ => {}
        }
        for (off, (v, _)) in &b.cells {
            let before = old.block(id).and_then(|ob| ob.cells.get(off)).map(|c| &c.0);
            if before != Some(v) {
                let place = if *off == 0 {
                    b.name.to_string()
                } else {
                    format!("{}[+{off}]", b.name)
                };
                out.push(format!("{place} = {}", show(new, v)));
            }
        }
    }
    out
}

/// A value with block names instead of ids.
pub fn show(mem: &Memory, v: &Val) -> String {
    match v {
        Val::Ptr(Ptr::Addr(b, o)) => {
            let name = mem
                .block(*b)
                .map_or_else(|| format!("blk{b}"), |x| x.name.to_string());
            if *o == 0 {
                format!("&{name}")
            } else {
                format!("&{name}+{o}")
            }
        }
        other => other.to_string(),
    }
}

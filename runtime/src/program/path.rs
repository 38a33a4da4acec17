//! Abstract paths: a path through the program's CFAs as an engine reports it (one edge per
//! step, calls and returns included), and the violation it claims to end in. The feasibility
//! check (`crate::engine::feasibility`) decides whether such a path is real.

use crate::program::ir::{Expr, FuncId, Program};
use petgraph::graph::{EdgeIndex, NodeIndex};

/// One step of a program path: the function whose CFA holds the edge, and the edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathStep {
    /// The function whose CFA holds `edge`.
    pub func: FuncId,
    /// The edge taken.
    pub edge: EdgeIndex,
}

/// How the abstract error path claims to end.
#[derive(Clone, Debug)]
pub enum PathEnd {
    /// The last edge calls an error function (reach_error etc.).
    ErrorCall,
    /// The last edge may dereference an invalid pointer: the pointer-valued expressions
    /// (as IR expressions of the last edge) that the abstraction could not prove valid.
    InvalidDeref(Vec<Expr>),
    /// After the last edge some heap memory may be unreachable (valid-memtrack); the claim
    /// has no formula: only the explicit engine's replay decides it.
    MemoryLost,
    /// The last edge frees a cell the heap may still point to, which the shape analysis
    /// cannot represent; no claim either: only a replay could show a violation.
    FreedWhilePointedTo,
    /// The program may end after the last edge with heap memory not freed
    /// (valid-memcleanup); no formula either: only a replay decides it.
    MemoryNotFreed,
}

/// The callee of a call through a pointer at the end of a step: the function the next step
/// enters, if it enters one.
pub(crate) fn ptr_callee(
    prog: &Program,
    caller: FuncId,
    resume: NodeIndex,
    next: Option<&PathStep>,
) -> Option<FuncId> {
    let n = next?;
    let g = prog.functions.get(n.func.0 as usize)?;
    let (src, _) = g.cfa.edge_endpoints(n.edge)?;
    let enters = g.defined && src == g.entry && !(n.func == caller && src == resume);
    enters.then_some(n.func)
}

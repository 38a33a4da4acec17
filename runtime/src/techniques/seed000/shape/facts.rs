//! What a re-checked set of shape graphs says in C: consumes the ART of a proof, produces the
//! nullness and aliasing facts of the pointer variables at each loop head, as
//! [`LocatedInvariant`]s for a correctness witness.
//!
//! A fact is kept at a loop head when it holds in every shape graph of every calling context
//! there (a graph stands for all the heaps it embeds, so a definite value is a fact of each):
//! `x == 0` when `x` points to no node, `x != 0` when it definitely points to one, `x == y`
//! when both definitely point to the same node, `x != y` when to different nodes (distinct
//! nodes stand for disjoint sets of cells). Only variables live at the head are stated (the
//! analysis forgets dead ones, so its graphs say nothing of their values), and only those C
//! can name there: locals of the loop's function and globals, not shadowed, not holding an
//! invalid value in any graph.

use super::analysis::Art;
use super::graph::{F, Graph, T};
use super::vocab::{PredKind, Vocab};
use crate::program::ir::{FuncId, Program, VarKind};
use crate::witness::correctness::{LocatedInvariant, c_name};
use petgraph::graph::NodeIndex;
use std::collections::{BTreeMap, BTreeSet};

/// One fact about pointer variables (indices into [`Vocab::vars`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fact {
    /// `x == 0`.
    Null(usize),
    /// `x != 0`.
    NonNull(usize),
    /// `x == y`, both not null.
    Same(usize, usize),
    /// `x != y`, both not null.
    Apart(usize, usize),
}

impl Art<'_> {
    /// The facts at every loop head of the program's own functions, in C.
    pub fn c_invariants(&self) -> Vec<LocatedInvariant> {
        let (prog, v) = (self.t.prog, self.t.v);
        let mut at: BTreeMap<(FuncId, NodeIndex), Option<BTreeSet<Fact>>> = BTreeMap::new();
        for (k, key) in self.keys.iter().enumerate() {
            if !prog.func(key.func).cfa[key.loc].loop_head {
                continue;
            }
            let slot = at.entry((key.func, key.loc)).or_default();
            for id in &self.at[k] {
                let here = facts(&self.nodes[*id].graph, v);
                *slot = Some(match slot.take() {
                    None => here,
                    Some(s) => s.intersection(&here).copied().collect(),
                });
            }
        }
        at.into_iter()
            .filter_map(|((f, loc), facts)| self.located(prog, v, f, loc, &facts?))
            .collect()
    }

    fn located(
        &self,
        prog: &Program,
        v: &Vocab,
        f: FuncId,
        loc: NodeIndex,
        facts: &BTreeSet<Fact>,
    ) -> Option<LocatedInvariant> {
        let func = prog.func(f);
        if func.library || func.name.starts_with("__shapecheck") {
            return None;
        }
        let e = func
            .cfa
            .edges(loc)
            .map(|e| e.weight())
            .find(|e| e.column > 0)?;
        let name = |i: usize| {
            let x = v.vars[i].var;
            let global = prog.var(x).kind == VarKind::Global;
            (global || self.live.is_live(f, loc, x))
                .then(|| c_name(prog, x, f))
                .flatten()
        };
        let parts: Vec<String> = facts
            .iter()
            .filter_map(|fact| match *fact {
                Fact::Null(i) => Some(format!("{} == 0", name(i)?)),
                Fact::NonNull(i) => Some(format!("{} != 0", name(i)?)),
                Fact::Same(i, j) => Some(format!("{} == {}", name(i)?, name(j)?)),
                Fact::Apart(i, j) => Some(format!("{} != {}", name(i)?, name(j)?)),
            })
            .collect();
        (!parts.is_empty()).then(|| LocatedInvariant {
            line: e.line,
            column: e.column,
            function: func.name.clone(),
            value: parts.join(" && "),
        })
    }
}

/// The facts one graph states about the tracked pointers.
pub fn facts(g: &Graph, v: &Vocab) -> BTreeSet<Fact> {
    let mut points: Vec<Option<Option<usize>>> = vec![None; v.vars.len()];
    for p in &v.preds {
        if let PredKind::PointsTo(i) = p.kind {
            let maybe = (0..g.n)
                .filter(|&u| g.un[p.slot][u] != F)
                .collect::<Vec<_>>();
            let sure = (0..g.n).find(|&u| g.un[p.slot][u] == T);
            points[i] = match (maybe.is_empty(), sure) {
                _ if g.invalid[i] != F => None,
                // A slot's node is the cell whose field it addresses, not its value.
                _ if v.slots.base(v.vars[i].var).is_some() => None,
                (true, _) => Some(None),
                (false, Some(u)) => Some(Some(u)),
                (false, None) => None,
            };
        }
    }
    let mut out = BTreeSet::new();
    for (i, p) in points.iter().enumerate() {
        match p {
            Some(None) => {
                out.insert(Fact::Null(i));
            }
            Some(Some(u)) => {
                out.insert(Fact::NonNull(i));
                for (j, q) in points.iter().enumerate().skip(i + 1) {
                    match q {
                        Some(Some(w)) if w == u => out.insert(Fact::Same(i, j)),
                        Some(Some(_)) => out.insert(Fact::Apart(i, j)),
                        _ => false,
                    };
                }
            }
            None => {}
        }
    }
    out
}

//! The `Reach` fixpoint of seed 004 (Fig. 5 of the paper): an abstract reachability tree
//! whose nodes are a cut point and a Boolean heap.
//!
//! Consumes an [`Oracle`] (the abstract post and fault checks) and the context operator;
//! produces the states per cut point at the fixpoint, whose meanings are the loop
//! invariants, or the first abstract trace (the cut points from the root) to a fault, or the
//! reason the search stopped. A node's heap is split on every singleton predicate of its cut
//! point, and each part cleaned by the path's guard, before its post (Fig. 7's
//! `AbstractPost`); a post covered by a state already at the target adds no node.

use super::heap::Heap;
use super::post::{Context, Oracle};
use crate::engine::Budget;
use crate::techniques::seed003::program::Bad;
use std::collections::VecDeque;

/// The most nodes of the tree.
pub const MAX_NODES: usize = 4_000;

/// The most kinds of objects the initial states may have.
pub const MAX_INITIAL_CUBES: usize = 4_096;

/// A node of the abstract reachability tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// The cut point.
    pub cut: usize,
    /// The Boolean heap.
    pub heap: Heap,
    /// The parent node.
    pub parent: Option<usize>,
}

/// How the fixpoint ended.
pub enum Outcome {
    /// The states per cut point.
    Fixpoint(Vec<Vec<Heap>>),
    /// A node whose states may meet a fault: the cut points from the root, the fault and
    /// its line.
    Fault(Vec<usize>, Bad),
    /// The search stopped.
    Stopped(String),
}

/// Runs `Reach` from the initial states.
pub fn reach(oracle: &mut Oracle, mode: Context, budget: &Budget) -> Outcome {
    let cuts = oracle.preds.len();
    let root = match oracle.initial(MAX_INITIAL_CUBES) {
        Ok(h) => h,
        Err(why) => return Outcome::Stopped(why),
    };
    let mut nodes = vec![Node {
        cut: 0,
        heap: root,
        parent: None,
    }];
    let mut states: Vec<Vec<Heap>> = vec![vec![]; cuts];
    states[0].push(nodes[0].heap.clone());
    oracle.counters.nodes = 1;
    if let Some(out) = fault(oracle, &nodes, 0) {
        return out;
    }
    let mut work: VecDeque<usize> = VecDeque::from([0]);
    while let Some(n) = work.pop_front() {
        if let Err(e) = budget.check() {
            return Outcome::Stopped(format!("the {e} was reached"));
        }
        let c = nodes[n].cut;
        if debugging() {
            eprintln!(
                "bohne: node {n} (parent {:?}) at cut {c}: {} cubes, {} solver calls\n  {}",
                nodes[n].parent,
                nodes[n].heap.cubes.len(),
                oracle.counters.calls,
                super::show(&oracle.preds[c], &nodes[n].heap)
            );
        }
        let ctx = oracle.context(c, mode, &Heap::join(&states[c]));
        let parts = split(oracle, c, &nodes[n].heap);
        let paths: Vec<(usize, usize)> = oracle.paths(c).collect();
        for (i, to) in paths {
            for h in &parts {
                if !oracle.feasible(c, i, h) {
                    continue;
                }
                let Some(post) = post(oracle, c, i, &ctx, h) else {
                    continue;
                };
                if states[to].iter().any(|o| post.below(o)) {
                    continue;
                }
                if nodes.len() >= MAX_NODES {
                    return Outcome::Stopped(format!(
                        "the abstract reachability tree has more than {MAX_NODES} nodes"
                    ));
                }
                states[to].push(post.clone());
                oracle.counters.nodes += 1;
                nodes.push(Node {
                    cut: to,
                    heap: post,
                    parent: Some(n),
                });
                if let Some(out) = fault(oracle, &nodes, nodes.len() - 1) {
                    return out;
                }
                work.push_back(nodes.len() - 1);
            }
        }
    }
    Outcome::Fixpoint(states)
}

/// The heap split on every singleton predicate of cut point `c`.
fn split(oracle: &Oracle, c: usize, h: &Heap) -> Vec<Heap> {
    let mut parts = vec![h.clone()];
    for (p, _) in oracle.preds[c].singletons() {
        parts = parts.iter().flat_map(|h| h.split(p)).collect();
    }
    parts
}

/// The post of `h` along path `i` from `c`: each cube's post (Cartesian), `None` when no
/// object can take the path.
fn post(oracle: &mut Oracle, c: usize, i: usize, ctx: &super::post::Ctx, h: &Heap) -> Option<Heap> {
    let nullary = oracle.post_nullary(c, i, ctx, h.nullary)?;
    let mut cubes = std::collections::BTreeSet::new();
    for k in &h.cubes {
        cubes.extend(oracle.post_cubes(c, i, ctx, h.nullary, *k));
    }
    (!cubes.is_empty()).then(|| Heap { nullary, cubes }.reduced())
}

/// The first fault node `n`'s states may meet, as an outcome with its trace.
fn fault(oracle: &mut Oracle, nodes: &[Node], n: usize) -> Option<Outcome> {
    let bad = oracle
        .faults(nodes[n].cut, &nodes[n].heap)
        .into_iter()
        .next()?;
    if debugging() {
        eprintln!(
            "bohne: node {n} at cut {} may meet {} at line {}:\n  {}",
            nodes[n].cut,
            bad.describe(),
            bad.line,
            super::show(&oracle.preds[nodes[n].cut], &nodes[n].heap)
        );
    }
    let mut trace = vec![];
    let mut at = Some(n);
    while let Some(m) = at {
        trace.push(nodes[m].cut);
        at = nodes[m].parent;
    }
    trace.reverse();
    Some(Outcome::Fault(trace, bad))
}

/// Whether `SHAPECHECK_DEBUG_BOHNE` asks for a trace of the fixpoint on stderr.
pub fn debugging() -> bool {
    std::env::var_os("SHAPECHECK_DEBUG_BOHNE").is_some()
}

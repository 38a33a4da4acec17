//! Algorithm 1 of seed 001 (ForwardRefine's forward part): the breadth-first abstract
//! reachability tree over the inlined program, with the abstraction `abs_T` at loop heads and
//! coverage by entailment into the heaps already at a location; and the re-check of a
//! finished tree as a certificate.
//!
//! Consumes the inlined program ([`Flat`]), the symbolic executor, the domain's list shapes
//! and the refinement parameter `T` ([`Precision`]); produces an [`Art`] whose every node was
//! expanded (an inductive invariant: per location, the disjunction of its nodes' heaps), or
//! the first abstract counterexample found in breadth-first order (the path of nodes and
//! the edge whose post is `⊤`), or the construct the engine does not support. Before a heap is
//! stored, the variables dead at its location lose their names (their values become
//! existentials), which keeps the abstraction from being pinned by stale values; the
//! symbols of `T` keep theirs, since the abstraction must keep their values apart.

use super::abstraction::Abstraction;
use super::domain::Params;
use super::entail::entails;
use super::exec::{Exec, Post};
use super::heap::{Bag, ListShape, SymHeap, Term};
use crate::engine::Budget;
use crate::program::ir::VarId;
use crate::techniques::seed002::flat::Flat;
use std::collections::BTreeSet;

/// The most nodes a tree may have before the engine gives up.
const MAX_NODES: usize = 60_000;

/// The most cells a heap at a loop head may keep: more means the abstraction does not
/// summarise them (a struct without a list shape, or a `T` that pins them).
const MAX_CELLS: usize = 24;

/// The refinement parameter: the data symbols the multisets keep (SH^mls) and the addresses
/// kept out of segments (SH^rls).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Precision {
    /// `T` of SH^mls.
    pub keep: Bag,
    /// `T` of SH^rls.
    pub protect: Vec<Term>,
}

impl Precision {
    /// Whether `x` is a symbol of `T`.
    pub fn names(&self, x: Term) -> bool {
        self.keep.count(x) > 0 || self.protect.contains(&x)
    }

    /// `|T|`: the number of symbols, with multiplicity.
    pub fn size(&self) -> usize {
        self.keep.size() as usize + self.protect.len()
    }
}

/// A node of the tree: a location and a heap.
#[derive(Clone, Debug)]
pub struct Node {
    /// The node of the inlined graph.
    pub loc: usize,
    /// Its abstract heap.
    pub heap: SymHeap,
    /// The parent node and the edge from it.
    pub parent: Option<(usize, usize)>,
}

/// An abstract counterexample: nodes from the root, and the edge whose post is `⊤`.
#[derive(Clone, Debug)]
pub struct Cex {
    /// Node ids, root first.
    pub nodes: Vec<usize>,
    /// The edge leaving the last node.
    pub edge: usize,
    /// Why its post is `⊤`.
    pub why: String,
}

/// How a forward run ends.
pub enum Forward {
    /// Every node expanded without `⊤`.
    Done,
    /// An abstract counterexample.
    Cex(Cex),
    /// Outside the engine's fragment, or out of budget.
    Stop(String),
}

/// The tree and what it needs to grow.
pub struct Art<'a> {
    /// The inlined program.
    pub flat: &'a Flat,
    /// The executor.
    pub exec: Exec<'a>,
    /// The list shapes.
    pub shapes: &'a [ListShape],
    /// The variables live at each location.
    pub live: &'a [BTreeSet<VarId>],
    /// The nodes.
    pub nodes: Vec<Node>,
    /// Per location, the nodes there.
    pub at: Vec<Vec<usize>>,
    /// Entailment queries asked.
    pub queries: usize,
    /// The domain's switches (also in each list shape, for programs without lists).
    pub params: Params,
}

impl<'a> Art<'a> {
    /// An empty tree.
    pub fn new(
        flat: &'a Flat,
        exec: Exec<'a>,
        shapes: &'a [ListShape],
        live: &'a [BTreeSet<VarId>],
    ) -> Art<'a> {
        Art {
            flat,
            exec,
            shapes,
            live,
            nodes: vec![],
            at: vec![vec![]; flat.nodes],
            queries: 0,
            params: Params::mls(),
        }
    }

    /// Builds the tree from `(entry, emp)` breadth first with precision `t`.
    pub fn forward(&mut self, t: &Precision, budget: &Budget) -> Forward {
        self.nodes.clear();
        self.at.iter_mut().for_each(Vec::clear);
        let root = SymHeap::emp();
        self.push(self.flat.entry, root, None);
        let mut level = vec![0];
        while !level.is_empty() {
            let mut next = vec![];
            for id in level {
                if let Err(e) = budget.check() {
                    return Forward::Stop(format!("bound reached: {e}"));
                }
                if self.nodes.len() == 3000 && std::env::var_os("SHAPECHECK_SL_DEBUG").is_some() {
                    self.dump();
                }
                if self.nodes.len() > MAX_NODES {
                    return Forward::Stop(format!(
                        "the abstract reachability tree passed {MAX_NODES} nodes"
                    ));
                }
                match self.expand(id, t) {
                    Ok(new) => next.extend(new),
                    Err(stop) => return stop,
                }
            }
            level = next;
        }
        if std::env::var_os("SHAPECHECK_SL_DEBUG").is_some() {
            self.dump();
        }
        Forward::Done
    }

    /// Expands one node: the new nodes, or how the run stops.
    fn expand(&mut self, id: usize, t: &Precision) -> Result<Vec<usize>, Forward> {
        let mut new = vec![];
        let loc = self.nodes[id].loc;
        for &e in &self.flat.out[loc] {
            let edge = &self.flat.edges[e];
            let heaps = match self.exec.post(&self.nodes[id].heap, &edge.op) {
                Post::Heaps(hs) => hs,
                Post::Error(why) => {
                    return Err(Forward::Cex(Cex {
                        nodes: self.path_to(id),
                        edge: e,
                        why,
                    }));
                }
                Post::Unsupported(what) => {
                    return Err(Forward::Stop(format!(
                        "{what} at line {} is outside the separation-logic fragment",
                        edge.line
                    )));
                }
            };
            let prepared: Vec<SymHeap> = (heaps.iter())
                .flat_map(|h| self.prepare(edge.to, h, t))
                .collect();
            for h in prepared {
                if h.cells.len() > MAX_CELLS && self.flat.loops.contains_key(&edge.to) {
                    return Err(Forward::Stop(self.unbounded(&h, edge.line)));
                }
                if !self.covered(edge.to, &h) {
                    new.push(self.push(edge.to, h, Some((id, e))));
                }
            }
        }
        Ok(new)
    }

    /// The heap as stored at `loc`: dead variables forgotten, `abs_T` at loop heads (garbage
    /// collection and existential elimination elsewhere), in its cases; none if inconsistent.
    pub fn prepare(&self, loc: usize, h: &SymHeap, t: &Precision) -> Vec<SymHeap> {
        let mut h = h.clone();
        let dead: BTreeSet<VarId> = h
            .terms()
            .into_iter()
            .filter_map(|x| match x {
                Term::Var(v) if !self.live[loc].contains(&v) && !t.names(x) => Some(v),
                _ => None,
            })
            .collect();
        for v in dead {
            h = h.subst(Term::Var(v), h.fresh());
        }
        let head = self.flat.loops.contains_key(&loc);
        let shapes: &[ListShape] = if head { self.shapes } else { &[] };
        Abstraction {
            shapes,
            keep: &t.keep,
            protect: &t.protect,
            params: self.params,
        }
        .apply(&h)
    }

    /// Whether `h` entails a heap already at `loc`.
    fn covered(&mut self, loc: usize, h: &SymHeap) -> bool {
        self.queries += 1;
        self.entailed_at(loc, h)
    }

    /// Whether `h` entails one of the heaps stored at `loc` (is one of them, or entails it:
    /// the entailment check is incomplete, and a heap whose bounds name an existential known
    /// only from the pure part would not be found to entail itself).
    fn entailed_at(&self, loc: usize, h: &SymHeap) -> bool {
        (self.at[loc].iter()).any(|i| {
            let stored = &self.nodes[*i].heap;
            stored == h || entails(self.shapes, h, stored)
        })
    }

    fn push(&mut self, loc: usize, heap: SymHeap, parent: Option<(usize, usize)>) -> usize {
        self.nodes.push(Node { loc, heap, parent });
        let id = self.nodes.len() - 1;
        self.at[loc].push(id);
        id
    }

    /// Why the heaps at a loop head grow without bound.
    fn unbounded(&self, h: &SymHeap, line: u32) -> String {
        let prog = &self.flat.prog;
        let mut unsummarised: Vec<&str> = h
            .cells
            .iter()
            .filter(|c| !self.shapes.iter().any(|s| s.ty == c.ty))
            .map(|c| prog.strukt(c.ty).name.as_str())
            .collect();
        unsummarised.dedup();
        match unsummarised.first() {
            Some(name) => format!(
                "the heaps at the loop of line {line} grow without bound: the list domain has \
                 no predicate for {name} (it needs exactly one pointer field to its own type)"
            ),
            None => format!(
                "the heaps at the loop of line {line} grow without bound: the abstraction \
                 keeps more than {MAX_CELLS} cells apart"
            ),
        }
    }

    /// Prints the heaps at each loop head (debugging).
    fn dump(&self) {
        for (loc, ids) in self.at.iter().enumerate() {
            if self.flat.loops.contains_key(&loc) {
                eprintln!("loop head {loc}: {} heaps", ids.len());
                for i in ids.iter().take(12) {
                    eprintln!("  {}", self.nodes[*i].heap);
                }
            }
        }
    }

    /// The node ids from the root to `id`.
    pub fn path_to(&self, mut id: usize) -> Vec<usize> {
        let mut out = vec![id];
        while let Some((p, _)) = self.nodes[id].parent {
            out.push(p);
            id = p;
        }
        out.reverse();
        out
    }

    /// The certificate check of a finished tree, afresh: the root is `emp` at the entry, and
    /// every post of every node, prepared for its location, entails a heap stored there.
    pub fn recheck(&self, t: &Precision) -> Result<usize, String> {
        let root = self.nodes.first().ok_or("the tree is empty")?;
        if root.loc != self.flat.entry || root.heap != SymHeap::emp() {
            return Err("the root is not emp at the entry".into());
        }
        let mut queries = 0;
        for (id, n) in self.nodes.iter().enumerate() {
            for &e in &self.flat.out[n.loc] {
                let edge = &self.flat.edges[e];
                let Post::Heaps(hs) = self.exec.post(&n.heap, &edge.op) else {
                    return Err(format!("node {id}: the post along line {} is ⊤", edge.line));
                };
                for h in hs.iter().flat_map(|h| self.prepare(edge.to, h, t)) {
                    queries += 1;
                    if !self.entailed_at(edge.to, &h) {
                        return Err(format!(
                            "node {id}: a post along line {} is not entailed at its location: {h}",
                            edge.line
                        ));
                    }
                }
            }
        }
        Ok(queries)
    }
}

//! Algorithm 1 of seed 001 (ForwardRefine's forward part): the breadth-first abstract
//! reachability tree over the inlined program, with the abstraction `abs_T` at loop heads and
//! coverage by entailment into the heaps already at a location; and the re-check of a
//! finished tree as a certificate.
//!
//! The tree uses large blocks: its nodes sit only at the cut points of the graph (the entry
//! and the target of every back edge, so every loop head), and the edge between two nodes is
//! the loop-free path of the graph's edges from one to the other. The heaps along a block are
//! computed as on single edges (post, then dead variables forgotten and garbage collected) but
//! are neither stored for coverage nor counted as nodes; each node keeps them for Algorithm 2,
//! which walks the counterexample edge by edge. Every cycle of the graph holds a back edge, so
//! every block is finite.
//!
//! Consumes the inlined program ([`Flat`]), the symbolic executor, the domain's list shapes
//! and the refinement parameter `T` ([`Precision`]); produces an [`Art`] whose every node was
//! expanded (an inductive invariant: per location, the disjunction of its nodes' heaps), or
//! the first abstract counterexample found in breadth-first order (the path of nodes and
//! the edge whose post is `⊤`), or the construct the engine does not support. Before a heap is
//! stored, the variables dead at its location lose their names (their values become
//! existentials), which keeps the abstraction from being pinned by stale values; the
//! symbols of `T` keep theirs once written, since the abstraction must keep their values
//! apart.

use super::abstraction::Abstraction;
use super::domain::Params;
use super::entail::entails;
use super::exec::{Exec, Post};
use super::heap::{Bag, ListShape, SymHeap, Term};
use crate::engine::Budget;
use crate::program::ir::VarId;
use crate::techniques::seed002::flat::Flat;
use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

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

/// A node of the tree: a cut point of the graph and a heap.
#[derive(Clone, Debug)]
pub struct Node {
    /// The node of the inlined graph.
    pub loc: usize,
    /// Its abstract heap.
    pub heap: SymHeap,
    /// The parent node and the block from it.
    pub parent: Option<(usize, Block)>,
}

/// A path of the graph between two cut points, with the heap after each of its edges but the
/// last (the last one's is the node's own).
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// The edges, in order.
    pub edges: Vec<usize>,
    /// The heap at the target of each edge but the last.
    pub inner: Vec<SymHeap>,
}

/// An abstract counterexample, edge by edge from the root: the heap before each edge, the
/// last edge's post being `⊤`.
#[derive(Clone, Debug)]
pub struct Cex {
    /// `heaps[i]` is the heap at the source of `edges[i]`; `heaps[0]` is the root's.
    pub heaps: Vec<SymHeap>,
    /// The edges; the last one's post is `⊤`.
    pub edges: Vec<usize>,
    /// Why the last post is `⊤`.
    pub why: String,
}

impl Cex {
    /// The graph node of position `i`.
    pub fn loc(&self, flat: &Flat, i: usize) -> usize {
        match i {
            0 => flat.entry,
            _ => flat.edges[self.edges[i - 1]].to,
        }
    }
}

/// The steps of a block walk so far, last first: each edge with the heap at its target.
struct Trail {
    edge: usize,
    heap: SymHeap,
    prev: Option<Rc<Trail>>,
}

impl Trail {
    /// The block of the steps of `trail` and then `last`.
    fn block(trail: &Option<Rc<Trail>>, last: usize) -> Block {
        let mut block = Block::default();
        let mut at = trail.as_deref();
        while let Some(step) = at {
            block.edges.push(step.edge);
            block.inner.push(step.heap.clone());
            at = step.prev.as_deref();
        }
        block.edges.reverse();
        block.inner.reverse();
        block.edges.push(last);
        block
    }
}

/// Where one path of a block walk ends.
enum Arrival {
    /// At a cut point, with the heap there (prepared).
    Cut(usize, SymHeap, Block),
    /// The path up to an edge whose post is `⊤` (its last), and why.
    Error(Block, String),
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
    /// The variables some path to each location writes ([`Flat::written`]).
    pub written: Vec<BTreeSet<VarId>>,
    /// The nodes.
    pub nodes: Vec<Node>,
    /// Per location, the nodes there.
    pub at: Vec<Vec<usize>>,
    /// Whether a location is a cut point (the tree's nodes are only there).
    pub cut: Vec<bool>,
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
            written: flat.written(),
            nodes: vec![],
            at: vec![vec![]; flat.nodes],
            cut: cut_points(flat),
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
                match self.expand(id, t, budget) {
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

    /// Expands one node: the nodes its blocks reach, or how the run stops.
    fn expand(&mut self, id: usize, t: &Precision, budget: &Budget) -> Result<Vec<usize>, Forward> {
        let mut new = vec![];
        for arrival in self.walk(id, t, budget)? {
            let (loc, h, block) = match arrival {
                Arrival::Cut(loc, h, block) => (loc, h, block),
                Arrival::Error(block, why) => return Err(Forward::Cex(self.trace(id, block, why))),
            };
            if h.cells.len() > MAX_CELLS && self.flat.loops.contains_key(&loc) {
                let last = *block.edges.last().expect("a block has an edge");
                return Err(Forward::Stop(
                    self.unbounded(&h, self.flat.edges[last].line),
                ));
            }
            if !self.covered(loc, &h) {
                new.push(self.push(loc, h, Some((id, block))));
            }
        }
        Ok(new)
    }

    /// Every path of the graph from node `id` to the next cut points, breadth first, each
    /// edge's post prepared for its target; the walk ends at the first edge whose post is `⊤`.
    fn walk(&self, id: usize, t: &Precision, budget: &Budget) -> Result<Vec<Arrival>, Forward> {
        let mut out = vec![];
        let node = &self.nodes[id];
        let mut queue = VecDeque::from([(node.loc, node.heap.clone(), None)]);
        let mut steps = 0;
        while let Some((loc, heap, trail)) = queue.pop_front() {
            for &e in &self.flat.out[loc] {
                steps += 1;
                if steps > MAX_NODES {
                    return Err(Forward::Stop(format!(
                        "a block of the abstract reachability tree passed {MAX_NODES} steps"
                    )));
                }
                if let Err(e) = budget.check() {
                    return Err(Forward::Stop(format!("bound reached: {e}")));
                }
                let edge = &self.flat.edges[e];
                let heaps = match self.exec.post(&heap, &edge.op) {
                    Post::Heaps(hs) => hs,
                    Post::Error(why) => {
                        out.push(Arrival::Error(Trail::block(&trail, e), why));
                        return Ok(out);
                    }
                    Post::Unsupported(what) => {
                        return Err(Forward::Stop(format!(
                            "{what} at line {} is outside the separation-logic fragment",
                            edge.line
                        )));
                    }
                };
                for h in heaps.iter().flat_map(|h| self.prepare(edge.to, h, t)) {
                    if self.cut[edge.to] {
                        out.push(Arrival::Cut(edge.to, h, Trail::block(&trail, e)));
                    } else {
                        let prev = trail.clone();
                        let step = Some(Rc::new(Trail {
                            edge: e,
                            heap: h.clone(),
                            prev,
                        }));
                        queue.push_back((edge.to, h, step));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The counterexample through node `id` and then `last` (whose last edge's post is `⊤`),
    /// edge by edge.
    fn trace(&self, id: usize, last: Block, why: String) -> Cex {
        let chain = self.path_to(id);
        let mut cex = Cex {
            heaps: vec![self.nodes[chain[0]].heap.clone()],
            edges: vec![],
            why,
        };
        let add = |cex: &mut Cex, b: &Block| {
            cex.edges.extend(&b.edges);
            cex.heaps.extend(b.inner.iter().cloned());
        };
        for &n in &chain[1..] {
            let (_, b) = self.nodes[n]
                .parent
                .as_ref()
                .expect("a non-root node has a parent");
            add(&mut cex, b);
            cex.heaps.push(self.nodes[n].heap.clone());
        }
        add(&mut cex, &last);
        cex
    }

    /// The heap as stored at `loc`: dead variables forgotten, `abs_T` at loop heads (garbage
    /// collection and existential elimination elsewhere), in its cases; none if inconsistent.
    pub fn prepare(&self, loc: usize, h: &SymHeap, t: &Precision) -> Vec<SymHeap> {
        let t = &self.meant(loc, t);
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

    /// The symbols of `t` that mean a value of the run at `loc`: constants, and variables
    /// live or written there. Before its first write a variable holds nothing the run reads:
    /// nothing to keep apart, and no name to keep while it is dead (once written, a dead
    /// symbol keeps its name, so copies of its value stay equal to it).
    fn meant(&self, loc: usize, t: &Precision) -> Precision {
        let meant = |x: &Term| match x {
            Term::Var(v) => self.live[loc].contains(v) || self.written[loc].contains(v),
            _ => true,
        };
        Precision {
            keep: Bag::from_counts(t.keep.iter().filter(|(x, _)| meant(x))),
            protect: t.protect.iter().copied().filter(meant).collect(),
        }
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

    fn push(&mut self, loc: usize, heap: SymHeap, parent: Option<(usize, Block)>) -> usize {
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
        while let Some((p, _)) = &self.nodes[id].parent {
            out.push(*p);
            id = *p;
        }
        out.reverse();
        out
    }

    /// The certificate check of a finished tree, afresh: the root is `emp` at the entry, and
    /// every block of every node, walked again with every post prepared for its location,
    /// reaches only heaps that entail a heap stored at their cut point.
    pub fn recheck(&self, t: &Precision) -> Result<usize, String> {
        let root = self.nodes.first().ok_or("the tree is empty")?;
        if root.loc != self.flat.entry || root.heap != SymHeap::emp() {
            return Err("the root is not emp at the entry".into());
        }
        let budget = Budget::run();
        let mut queries = 0;
        for id in 0..self.nodes.len() {
            let arrivals = match self.walk(id, t, &budget) {
                Ok(a) => a,
                Err(Forward::Stop(why)) => return Err(format!("node {id}: {why}")),
                Err(_) => return Err(format!("node {id}: the walk of its blocks failed")),
            };
            for a in arrivals {
                match a {
                    Arrival::Error(b, _) => {
                        let line = self.flat.edges[*b.edges.last().expect("an edge")].line;
                        return Err(format!("node {id}: the post along line {line} is ⊤"));
                    }
                    Arrival::Cut(loc, h, b) => {
                        queries += 1;
                        if !self.entailed_at(loc, &h) {
                            let line = self.flat.edges[*b.edges.last().expect("an edge")].line;
                            return Err(format!(
                                "node {id}: a post along line {line} is not entailed at its \
                                 location: {h}"
                            ));
                        }
                    }
                }
            }
        }
        Ok(queries)
    }
}

/// The cut points of the graph: the entry and the target of every back edge (every loop
/// head among them). Every cycle of the graph passes one.
fn cut_points(flat: &Flat) -> Vec<bool> {
    let mut cut = vec![false; flat.nodes];
    cut[flat.entry] = true;
    for (e, back) in flat.back.iter().enumerate() {
        if *back {
            cut[flat.edges[e].to] = true;
        }
    }
    for head in flat.loops.keys() {
        cut[*head] = true;
    }
    cut
}

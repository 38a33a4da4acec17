//! Shape analysis over the program's CFAs: the abstract reachability tree of seed 000's
//! BuildART in its shape component, the path simulation FineTune needs, and the certificate
//! check.
//!
//! Consumes a [`Program`], a [`Vocab`] and its [`Constraints`]; produces an [`Art`]: for
//! every abstract location (the call stack of return points and the current CFA location;
//! programs are analysed by inlining calls, so recursion is unsupported) the set of blurred
//! shape graphs reached, each ART node with its parent and edge. The exploration ends with
//! an abstract error and its path from the root, with the ART complete (every leaf covered:
//! its graph embeds into a graph already at its location), or with the reasons it is
//! incomplete (an unsupported construct, a bound). [`Art::recheck`] re-computes every
//! transition's abstract post independently of the exploration and checks that it is covered:
//! the certificate behind a TRUE verdict.

use super::alias::RefParams;
use super::coerce::Constraints;
use super::graph::{F, Graph, H, T};
use super::live::Liveness;
use super::transfer::{AbsError, PVal, Transfer, tree_reach};
use super::vocab::Vocab;
use crate::engine::feasibility::{PathEnd, PathStep};
use crate::program::ir::*;
use crate::program::property::{Property, PropertySet};
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// A graph at a `return`, with the value returned: a pointer, and the integer if known.
type Returned = (Graph, PVal, Option<i64>);

/// A call-stack entry: the caller, where it resumes, and its call edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Return {
    /// The caller.
    pub func: FuncId,
    /// Where it resumes.
    pub resume: NodeIndex,
    /// The call edge (its left-hand side receives the result).
    pub edge: EdgeIndex,
}

/// An abstract location: call stack and CFA location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// Callers, outermost first.
    pub stack: Vec<Return>,
    /// The current function.
    pub func: FuncId,
    /// The current location.
    pub loc: NodeIndex,
}

/// What taking an edge from an abstract state gives.
#[derive(Debug)]
pub enum Succ {
    /// A successor (blurred).
    Next(Key, Graph),
    /// An abstract error.
    Error(AbsError),
    /// The run ends (exit, abort, return from the initialiser).
    End,
    /// The analysis cannot follow this edge.
    Stop(String),
}

/// Bounds of one exploration.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Most ART nodes.
    pub max_nodes: usize,
    /// Deadline.
    pub deadline: Option<Instant>,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_nodes: 200_000,
            deadline: None,
        }
    }
}

/// An ART node.
#[derive(Clone, Debug)]
pub struct ArtNode {
    /// Its abstract location (an index into [`Art::keys`]).
    pub key: usize,
    /// Its shape graph.
    pub graph: Graph,
    /// Parent node and the edge from it.
    pub parent: Option<(usize, PathStep)>,
    /// Whether a later graph at its location covers it: it is then no part of the
    /// certificate and its successors need not be explored.
    pub dropped: bool,
}

/// How an exploration ended.
#[derive(Debug)]
pub enum Ending {
    /// Every leaf is covered and no error was reached.
    Complete,
    /// An abstract error, with the path from the root.
    Error(Vec<PathStep>, AbsError),
    /// Incomplete, with reasons.
    Incomplete(Vec<String>),
}

/// The abstract reachability tree of a shape analysis.
pub struct Art<'a> {
    pub(super) t: Transfer<'a>,
    checks: &'a PropertySet,
    pub(super) live: Liveness,
    /// Parameters that stand for a caller's variable: `*pp` is read as that variable.
    refs: RefParams,
    /// Abstract locations.
    pub keys: Vec<Key>,
    key_index: HashMap<Key, usize>,
    /// Nodes.
    pub nodes: Vec<ArtNode>,
    /// Nodes per key.
    pub at: Vec<Vec<usize>>,
    /// Successors found covered.
    pub covered: usize,
    /// The unary slots of field predicates.
    data_slots: Vec<usize>,
}

impl<'a> Art<'a> {
    /// A new ART for a vocabulary.
    pub fn new(
        prog: &'a Program,
        v: &'a Vocab<'a>,
        cons: &'a Constraints,
        checks: &'a PropertySet,
    ) -> Self {
        let refs = RefParams::new(prog);
        Art {
            t: Transfer {
                prog,
                v,
                cons,
                memtrack: checks.has(Property::ValidMemtrack)
                    || checks.has(Property::ValidMemcleanup),
                escaped: prog.address_taken(),
                tree_reach: tree_reach(v),
            },
            checks,
            live: Liveness::new(prog, &refs),
            refs,
            keys: vec![],
            key_index: HashMap::new(),
            nodes: vec![],
            at: vec![],
            covered: 0,
            data_slots: v.data.iter().map(|d| v.preds[d.id].slot).collect(),
        }
    }

    /// The root: the initialiser's entry, every tracked pointer NULL (globals are zeroed).
    pub fn root(&self) -> (Key, Graph) {
        let prog = self.t.prog;
        let key = Key {
            stack: vec![],
            func: prog.init,
            loc: prog.func(prog.init).entry,
        };
        let g = Graph::empty(self.t.v);
        (key, self.t.enter_cells(g, &prog.globals, true))
    }

    fn key_id(&mut self, k: Key) -> usize {
        if let Some(i) = self.key_index.get(&k) {
            return *i;
        }
        self.keys.push(k.clone());
        self.at.push(vec![]);
        self.key_index.insert(k, self.keys.len() - 1);
        self.keys.len() - 1
    }

    /// Whether `g` is covered by a graph at key `k`.
    fn is_covered(&self, k: usize, g: &Graph) -> bool {
        self.at[k]
            .iter()
            .any(|i| g.embeds_into(&self.nodes[*i].graph))
    }

    fn add(&mut self, key: Key, graph: Graph, parent: Option<(usize, PathStep)>) -> Option<usize> {
        let k = self.key_id(key);
        if self.is_covered(k, &graph) {
            self.covered += 1;
            return None;
        }
        let graph = self.join_data(k, graph);
        // The graphs the new one covers leave the location (and the certificate): whatever
        // was covered by them is covered by the new one.
        let nodes = &mut self.nodes;
        self.at[k].retain(|i| {
            let keep = !nodes[*i].graph.embeds_into(&graph);
            nodes[*i].dropped |= !keep;
            keep
        });
        self.nodes.push(ArtNode {
            key: k,
            graph,
            parent,
            dropped: false,
        });
        let id = self.nodes.len() - 1;
        self.at[k].push(id);
        Some(id)
    }

    /// The join of `g` with the graphs at key `k` that differ from it only in field
    /// predicates that are 0 on one side and 1/2 on the other (the values that do not name
    /// nodes): cells shown to differ from a constant on some paths and unknown on others do
    /// not multiply the graphs at a location. Whether a predicate surely holds is never joined.
    fn join_data(&self, k: usize, mut g: Graph) -> Graph {
        if self.data_slots.is_empty() {
            return g;
        }
        loop {
            let joined = self.at[k]
                .iter()
                .find_map(|i| g.join_data(&self.nodes[*i].graph, &self.data_slots));
            match joined {
                Some(j) => g = j,
                None => return g,
            }
        }
    }

    /// Builds the ART (breadth first, so abstract error paths are short).
    pub fn build(&mut self, bounds: Bounds) -> Ending {
        let (k, g) = self.root();
        let g = self.t.blur(g);
        let mut work: VecDeque<usize> = self.add(k, g, None).into_iter().collect();
        let mut stops = vec![];
        while let Some(id) = work.pop_front() {
            if self.nodes[id].dropped {
                continue;
            }
            if self.nodes.len() >= bounds.max_nodes {
                return Ending::Incomplete(vec![format!(
                    "bound reached: {} shape graphs",
                    bounds.max_nodes
                )]);
            }
            if bounds.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ending::Incomplete(vec!["bound reached: time limit".into()]);
            }
            if let Err(e) = crate::engine::budget::check() {
                return Ending::Incomplete(vec![format!("bound reached: {e}")]);
            }
            let key = self.keys[self.nodes[id].key].clone();
            let cfa = &self.t.prog.func(key.func).cfa;
            let edges: Vec<EdgeIndex> = cfa.edges(key.loc).map(|e| e.id()).collect();
            for e in edges {
                let step = PathStep {
                    func: key.func,
                    edge: e,
                };
                for s in self.successors(&key, &self.nodes[id].graph, e) {
                    match s {
                        Succ::Next(k2, g2) => {
                            if let Some(n) = self.add(k2, g2, Some((id, step))) {
                                work.push_back(n);
                            }
                        }
                        Succ::Error(err) => {
                            if std::env::var_os("SHAPECHECK_DEBUG").is_some() {
                                self.debug_path(id, &key, &err);
                            }
                            let mut path = self.path_to(id);
                            path.push(step);
                            return Ending::Error(path, err);
                        }
                        Succ::End => {}
                        Succ::Stop(why) => {
                            if !stops.contains(&why) {
                                stops.push(why);
                            }
                        }
                    }
                }
            }
        }
        if stops.is_empty() {
            Ending::Complete
        } else {
            Ending::Incomplete(stops)
        }
    }

    /// Prints the graphs along the path to an abstract error (with `SHAPECHECK_DEBUG`).
    fn debug_path(&self, id: usize, key: &Key, err: &AbsError) {
        let mut ids = vec![id];
        while let Some((p, _)) = self.nodes[*ids.last().unwrap_or(&id)].parent {
            ids.push(p);
        }
        ids.reverse();
        for i in ids {
            let n = &self.nodes[i];
            let line = n
                .parent
                .map(|(_, s)| self.t.prog.func(s.func).cfa[s.edge].line)
                .unwrap_or(0);
            eprintln!(
                "-- after line {line}, at {}",
                self.describe(&self.keys[n.key])
            );
            eprint!("{}", n.graph.text(self.t.v));
        }
        eprintln!("abstract error at {}: {}", self.describe(key), err.message);
    }

    /// Prints where a path simulation lost the path (with `SHAPECHECK_DEBUG`).
    fn debug_lost(&self, i: usize, step: &PathStep, cur: &[(Key, Graph)]) {
        let line = self.t.prog.func(step.func).cfa[step.edge].line;
        let op =
            crate::program::cfa::op(self.t.prog, &self.t.prog.func(step.func).cfa[step.edge].op);
        eprintln!(
            "-- path lost at step {i}: line {line}: {op}, from {} graphs",
            cur.len()
        );
        for (k, g) in cur {
            eprintln!("at {}", self.describe(k));
            eprint!("{}", g.text(self.t.v));
        }
    }

    /// The path from the root to node `id`.
    pub fn path_to(&self, mut id: usize) -> Vec<PathStep> {
        let mut path = vec![];
        while let Some((p, step)) = self.nodes[id].parent {
            path.push(step);
            id = p;
        }
        path.reverse();
        path
    }

    /// The abstract successors of `(key, g)` along edge `e` of `key.func`, each in the
    /// precision of its location.
    pub fn successors(&self, key: &Key, g: &Graph, e: EdgeIndex) -> Vec<Succ> {
        let mut out = self.post(key, g, e);
        for s in &mut out {
            if let Succ::Next(k, g) = s {
                self.restrict(k, g);
            }
        }
        out
    }

    /// Forgets the field predicates outside the precision at `k` (1/2 on every node), and
    /// merges at a loop head the nodes they alone kept apart.
    fn restrict(&self, k: &Key, g: &mut Graph) {
        let mut changed = false;
        for slot in self.t.v.masked_at(k.func, k.loc) {
            for x in g.un[slot].iter_mut().filter(|x| **x != H) {
                *x = H;
                changed = true;
            }
        }
        if changed && self.t.prog.func(k.func).cfa[k.loc].loop_head {
            *g = self.t.blur(g.clone());
        }
    }

    /// The abstract successors of `(key, g)` along edge `e` of `key.func`.
    fn post(&self, key: &Key, g: &Graph, e: EdgeIndex) -> Vec<Succ> {
        let prog = self.t.prog;
        let func = prog.func(key.func);
        let Some((_, target)) = func.cfa.edge_endpoints(e) else {
            return vec![];
        };
        let edge = &func.cfa[e];
        let line = edge.line;
        let op = self.t.normalise(self.refs.rewrite(&edge.op));
        let op = match self.t.v.slots.resolve(prog, g, op) {
            Ok(op) => op,
            Err(why) => {
                return vec![Succ::Stop(format!(
                    "line {line}: unsupported by the shape analysis: {why}"
                ))];
            }
        };
        // Canonical abstraction at loop heads only: elsewhere a node materialised by a
        // condition (`p->succ != NULL`) stays a single cell for the operations that follow,
        // also in a function called next; termination needs blur only at loops (there is no
        // recursion).
        let at_loop = func.cfa[target].loop_head;
        let here = |g: Graph| -> Succ {
            let next = Key {
                stack: key.stack.clone(),
                func: key.func,
                loc: target,
            };
            match self.settle(&next, g, line) {
                Ok(g) => Succ::Next(next, if at_loop { self.t.blur(g) } else { g }),
                Err(err) => Succ::Error(err),
            }
        };
        let g = self.t.expose_all(g.clone());
        let results: Vec<Result<Graph, AbsError>> = match &*op {
            Op::Skip => vec![Ok(g)],
            Op::Assign { lhs, rhs } => self.t.assign(g, lhs, rhs, line),
            Op::Assume { cond, positive } => self.t.assume(g, cond, *positive, line),
            Op::Havoc(x) if self.t.v.cell_var(*x).is_some() => self
                .t
                .uninitialise_cell(g, *x)
                .into_iter()
                .map(Ok)
                .collect(),
            Op::Havoc(x) => {
                let lhs = Expr {
                    kind: ExprKind::Var(*x),
                    ty: prog.var(*x).ty.clone(),
                };
                if lhs.ty.pointee().is_some() {
                    self.t.store(g, &lhs, PVal::Unknown, line)
                } else {
                    let mut g = g;
                    self.t.set_int_var(&mut g, *x, None);
                    vec![Ok(g)]
                }
            }
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => match self.builtin(g, *b, lhs.as_ref(), args, line) {
                Ok(rs) => rs,
                Err(s) => return vec![s],
            },
            Op::Call {
                lhs: _,
                callee: Callee::Func(f),
                args,
            } => return self.call(key, g, *f, args, e, target, line),
            Op::CallPtr { .. } => {
                return vec![Succ::Stop(format!(
                    "line {line}: unsupported: call through a function pointer"
                ))];
            }
            Op::Return(v) => return self.ret(key, g, v.as_ref(), line),
            Op::Unsupported(msg) => {
                return vec![Succ::Stop(format!("line {line}: unsupported: {msg}"))];
            }
        };
        results
            .into_iter()
            .map(|r| match r {
                Ok(g) => here(g),
                Err(err) if err.unsupported => Succ::Stop(err.message),
                Err(err) => Succ::Error(err),
            })
            .collect()
    }

    #[allow(clippy::result_large_err)]
    fn builtin(
        &self,
        g: Graph,
        b: Builtin,
        lhs: Option<&Expr>,
        args: &[Expr],
        line: u32,
    ) -> Result<Vec<Result<Graph, AbsError>>, Succ> {
        let t = &self.t;
        Ok(match b {
            Builtin::Nondet => match lhs {
                Some(l) if l.ty.pointee().is_some() => t.store(g, l, PVal::Unknown, line),
                Some(l) => t.havoc(g, l, line),
                None => vec![Ok(g)],
            },
            Builtin::Assume => match args.first() {
                Some(c) => t.assume(g, c, true, line),
                None => vec![Ok(g)],
            },
            Builtin::Error(_) if self.checks.has(Property::UnreachCall) => vec![Err(AbsError {
                end: PathEnd::ErrorCall,
                message: format!("line {line}: the error function may be called"),
                unsupported: false,
            })],
            Builtin::Error(_) | Builtin::Abort | Builtin::Exit => return Err(self.end(&g, line)),
            Builtin::Alloc(AllocKind::Alloca) => match lhs {
                Some(l) => t.store(g, l, PVal::Unknown, line),
                None => vec![Ok(g)],
            },
            Builtin::Alloc(k) => {
                let size = alloc_size(&g, k, args);
                t.alloc(g, lhs, k == AllocKind::Calloc, size, line)
            }
            Builtin::Free => match args.first() {
                Some(a) => t.free(g, a, line),
                None => vec![Ok(g)],
            },
            Builtin::Memset | Builtin::Memcpy => {
                let zeroed = || match b {
                    Builtin::Memset => t.zero_struct(g.clone(), lhs, args, line),
                    _ => None,
                };
                if let Some(rs) = t.fill_block(g.clone(), lhs, args, b == Builtin::Memcpy, line) {
                    rs
                } else if let Some(rs) = zeroed() {
                    rs
                } else {
                    return Err(Succ::Stop(format!(
                        "line {line}: unsupported by the shape analysis: memset/memcpy \
                         other than on a raw block with a constant length or a zeroing of a \
                         whole cell"
                    )));
                }
            }
            Builtin::External => match lhs {
                Some(l) if l.ty.pointee().is_some() => t.store(g, l, PVal::Unknown, line),
                Some(l) => t.havoc(g, l, line),
                None => vec![Ok(g)],
            },
            // A block-scope local dies: a cell variable's node goes (pointers to it dangle)
            // and a new one stands for the block's next entry. No other local can be
            // pointed to in a shape graph (its address is an unknown value, as is an
            // `alloca` block's), and a slot never outlives the variable it addresses (see
            // `slots`).
            Builtin::ScopeEnd => match args.first().map(|a| &a.kind) {
                Some(ExprKind::AddrOf(x)) if let ExprKind::Var(v) = x.kind => {
                    match t.drop_cells(g, &[v], line) {
                        Ok(g) => vec![Ok(t.enter_cells(g, &[v], false))],
                        Err(e) => vec![Err(e)],
                    }
                }
                _ => vec![Ok(g)],
            },
            Builtin::BlockSize | Builtin::Unsupported => {
                return Err(Succ::Stop(format!(
                    "line {line}: unsupported by the shape analysis: {b:?}"
                )));
            }
            Builtin::Caveat => {
                let why = args.first().and_then(Expr::literal_text);
                return Err(Succ::Stop(
                    why.unwrap_or_else(|| format!("a caveat at line {line}")),
                ));
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        key: &Key,
        g: Graph,
        f: FuncId,
        args: &[Expr],
        e: EdgeIndex,
        resume: NodeIndex,
        line: u32,
    ) -> Vec<Succ> {
        let prog = self.t.prog;
        let callee = prog.func(f);
        if !callee.defined {
            return vec![Succ::Stop(format!(
                "line {line}: unsupported: call to `{}`, which has no body",
                callee.name
            ))];
        }
        if key.func == f || key.stack.iter().any(|r| r.func == f) {
            return vec![Succ::Stop(format!(
                "line {line}: unsupported by the shape analysis: recursive call to `{}`",
                callee.name
            ))];
        }
        let locals: Vec<VarId> = callee.locals.clone();
        let g = self.t.reset_vars(g, &locals, true);
        let mut cur: Vec<Result<Graph, AbsError>> = vec![Ok(self.t.enter_cells(g, &locals, false))];
        // A reference parameter is never read: its function reads the variable instead.
        let bound = callee.params.iter().zip(args);
        for (p, a) in bound.filter(|(p, _)| self.refs.target(**p).is_none()) {
            let pty = prog.var(*p).ty.clone();
            let lhs = self.t.normalise_expr(&Expr {
                kind: ExprKind::Var(*p),
                ty: pty,
            });
            cur = cur
                .into_iter()
                .flat_map(|r| match r {
                    Ok(g) => self.t.assign(g, &lhs, a, line),
                    Err(e) => vec![Err(e)],
                })
                .collect();
        }
        let mut stack = key.stack.clone();
        stack.push(Return {
            func: key.func,
            resume,
            edge: e,
        });
        cur.into_iter()
            .map(|r| match r {
                Ok(g) => {
                    let next = Key {
                        stack: stack.clone(),
                        func: f,
                        loc: callee.entry,
                    };
                    match self.settle(&next, g, line) {
                        Ok(g) => Succ::Next(next, g),
                        Err(err) => Succ::Error(err),
                    }
                }
                Err(err) => Succ::Error(err),
            })
            .collect()
    }

    /// How the program ends in `g`: with valid-memcleanup, an abstract error unless every
    /// node has been freed (the graph is empty: each heap cell is a node, since with
    /// valid-memcleanup an allocation the graph cannot represent is itself an error).
    fn end(&self, g: &Graph, line: u32) -> Succ {
        if self.checks.has(Property::ValidMemcleanup) && (0..g.n).any(|u| !self.t.is_cell(g, u)) {
            return Succ::Error(AbsError {
                end: PathEnd::MemoryNotFreed,
                message: format!(
                    "line {line}: cannot prove that all memory is freed when the program ends \
                     (valid-memcleanup)"
                ),
                unsupported: false,
            });
        }
        Succ::End
    }

    /// The graph after a step to `next`: dead variables forgotten, then (valid-memtrack, and
    /// valid-memcleanup, since a cell no pointer reaches is never freed and garbage
    /// collection would hide it from the check at the end) every node checked to be still
    /// reachable, then garbage collected. A node that only a dead variable reaches counts as
    /// lost: nothing reads the variable again, so the memory is lost when it is overwritten
    /// or goes out of scope (or the run ends first; the check is conservative there).
    #[allow(clippy::result_large_err)]
    fn settle(&self, next: &Key, g: Graph, line: u32) -> Result<Graph, AbsError> {
        let g = self.forget_dead(next, g);
        let tracking =
            self.checks.has(Property::ValidMemtrack) || self.checks.has(Property::ValidMemcleanup);
        if tracking && self.possibly_lost(&g) {
            if std::env::var_os("SHAPECHECK_DEBUG").is_some() {
                eprintln!("possibly lost at line {line}:\n{}", g.text(self.t.v));
            }
            return Err(AbsError {
                end: PathEnd::MemoryLost,
                message: format!(
                    "line {line}: cannot prove that no memory becomes unreachable ({})",
                    if self.checks.has(Property::ValidMemtrack) {
                        "valid-memtrack"
                    } else {
                        "valid-memcleanup: such memory is never freed"
                    }
                ),
                unsupported: false,
            });
        }
        Ok(self.t.collect_garbage(g))
    }

    /// Whether some individual of some node may be unreachable from every pointer variable.
    /// Definitely reachable: a single cell a variable definitely points to; every individual
    /// of a node on which a reachability-from-a-pointer predicate is 1; a single cell that a
    /// field of a definitely reachable node definitely points to.
    fn possibly_lost(&self, g: &Graph) -> bool {
        let v = self.t.v;
        let mut reached: Vec<bool> = (0..g.n)
            .map(|u| {
                let pointed =
                    g.sm[u] == F && (0..v.vars.len()).any(|x| g.get(v, v.pt(x), &[u]) == T);
                let reach = v.instr.iter().enumerate().any(|(i, inst)| {
                    v.reaching[i] && v.carries(g.ty[u], inst.strukt) && g.get(v, inst.id, &[u]) == T
                });
                pointed || reach
            })
            .collect();
        loop {
            let more: Vec<usize> = (0..g.n)
                .filter(|w| !reached[*w])
                .filter(|w| {
                    let single = g.sm[*w] == F
                        && (0..g.n).any(|a| {
                            reached[a]
                                && (0..v.fields.len())
                                    .any(|f| g.get(v, v.field_pred(f), &[a, *w]) == T)
                        });
                    single
                        || self.owned_by_reached(g, *w, &reached)
                        || self.hangs_off_reached(g, *w, &reached)
                })
                .collect();
            if more.is_empty() {
                break;
            }
            for w in more {
                reached[w] = true;
            }
        }
        reached.iter().any(|r| !r)
    }

    /// Whether every individual of node `w` is the target of a field of a reached cell: a
    /// "has a predecessor along f" instance is 1 on `w` and every node that may point to `w`
    /// along `f` is reached in all its individuals.
    fn owned_by_reached(&self, g: &Graph, w: usize, reached: &[bool]) -> bool {
        let v = self.t.v;
        v.edges.iter().any(|e| {
            e.predecessor
                && v.carries(g.ty[w], e.strukt)
                && g.get(v, e.id, &[w]) == T
                && (0..g.n).all(|a| reached[a] || g.get(v, v.field_pred(e.field), &[a, w]) == F)
        })
    }

    /// Whether every individual of node `w` is reachable from the target of a link field
    /// (a root instance is 1 on `w`) and every node whose link field may be set is reached:
    /// the sub-lists of a list of lists once the list is, a tree below a stack of its nodes.
    fn hangs_off_reached(&self, g: &Graph, w: usize, reached: &[bool]) -> bool {
        let v = self.t.v;
        v.instr.iter().enumerate().any(|(i, inst)| {
            let Some(c) = inst.root.filter(|_| v.rooting[i]) else {
                return false;
            };
            v.carries(g.ty[w], inst.strukt)
                && g.get(v, inst.id, &[w]) == T
                && (0..g.n).all(|a| {
                    reached[a] || (0..g.n).all(|b| g.get(v, v.field_pred(c), &[a, b]) == F)
                })
        })
    }

    /// Forgets the variables dead at `key`: their pointers point nowhere and are invalid,
    /// their constants, equalities and the field relations to them are dropped. An integer
    /// variable that bounds a field ordered along a link is kept until it is written (a link
    /// store after its last read may need its relations: [`Transfer::orders_through`]).
    fn forget_dead(&self, key: &Key, g: Graph) -> Graph {
        let v = self.t.v;
        let dead: Vec<VarId> = self
            .live
            .dead(self.t.prog, &self.refs, key)
            .into_iter()
            .filter(|x| v.cell_var(*x).is_none() && !self.t.orders_through(*x))
            // A slot may read or write a variable it addresses where no statement names it.
            .filter(|x| !v.slots.is_target(*x))
            .filter(|x| {
                g.constant(*x).is_some()
                    || g.equal.iter().any(|e| e.0 == *x || e.1 == *x)
                    || self.t.relates(&g, *x)
                    || v.var(*x).is_some_and(|i| {
                        g.invalid[i] != T
                            || (0..g.n).any(|u| g.get(v, v.pt(i), &[u]) != F)
                            || self.t.indexed_somewhere(&g, i)
                    })
            })
            .collect();
        if dead.is_empty() {
            g
        } else {
            self.t.reset_vars(g, &dead, true)
        }
    }

    fn ret(&self, key: &Key, g: Graph, v: Option<&Expr>, line: u32) -> Vec<Succ> {
        let prog = self.t.prog;
        let callee = prog.func(key.func);
        let Some(caller) = key.stack.last() else {
            return vec![self.end(&g, line)];
        };
        let evaluated: Vec<Result<Returned, AbsError>> = match v {
            Some(e) if e.ty.pointee().is_some() => self
                .t
                .eval_ptr(g, e, line)
                .into_iter()
                .map(|r| r.map(|(g, val)| (g, val, None)))
                .collect(),
            Some(e) => self.int_result(g, e, line),
            None => vec![Ok((g, PVal::Unknown, None))],
        };
        let lhs = match &*self.t.normalise(
            self.refs
                .rewrite(&prog.func(caller.func).cfa[caller.edge].op),
        ) {
            Op::Call { lhs, .. } => lhs.clone(),
            _ => None,
        };
        let mut stack = key.stack.clone();
        stack.pop();
        let next = Key {
            stack,
            func: caller.func,
            loc: caller.resume,
        };
        let mut out = vec![];
        for r in evaluated {
            let (g, val, result) = match r {
                Ok(x) => x,
                Err(err) => {
                    out.push(Succ::Error(err));
                    continue;
                }
            };
            // The result is stored while the callee's locals still hold their values, so that
            // the caller's pointer inherits what the returned one knew (its reachability over
            // a summarised list); only then do the locals die.
            let stored = match &lhs {
                Some(l) if l.ty.pointee().is_some() => self.t.store(g, l, val, line),
                Some(l) => {
                    let stored = self.t.havoc_value(g, l, line);
                    match (&l.kind, result) {
                        (ExprKind::Var(x), Some(c))
                            if !self.t.escaped.contains(x)
                                && l.ty.as_int().is_some_and(|t| super::data::fits(c, t)) =>
                        {
                            let known = |mut g: Graph| {
                                self.t.set_int_var(&mut g, *x, Some(c));
                                g
                            };
                            stored.into_iter().map(|r| r.map(known)).collect()
                        }
                        _ => stored,
                    }
                }
                None => vec![Ok(g)],
            };
            let cells = &callee.locals;
            let stored = stored.into_iter().map(|r| {
                r.and_then(|g| {
                    let g = self.t.reset_vars(g, cells, false);
                    self.t.drop_cells(g, cells, line)
                })
            });
            for s in stored {
                out.push(match s {
                    Ok(g) => match self.settle(&next, g, line) {
                        Ok(g) => Succ::Next(next.clone(), g),
                        Err(err) => Succ::Error(err),
                    },
                    Err(err) => Succ::Error(err),
                });
            }
        }
        out
    }

    /// The integer a function returns, where the graph decides it: a constant (or a variable
    /// holding one), or a comparison, which splits the graph into the states where it holds
    /// (1) and where it does not (0), so that a caller's `if (list_empty(h))` is as precise as
    /// the comparison inside.
    fn int_result(&self, g: Graph, e: &Expr, line: u32) -> Vec<Result<Returned, AbsError>> {
        if let ExprKind::Cmp(..) = e.kind {
            let outcome = |positive: bool| {
                self.t
                    .assume(g.clone(), e, positive, line)
                    .into_iter()
                    .map(move |r| r.map(|g| (g, PVal::Unknown, Some(i64::from(positive)))))
            };
            return outcome(true).chain(outcome(false)).collect();
        }
        self.t
            .check(g, e, line)
            .into_iter()
            .map(|r| {
                r.map(|(g, ())| {
                    let c = self.t.data_const(&g, e);
                    (g, PVal::Unknown, c)
                })
            })
            .collect()
    }

    /// Simulates the analysis along `path` only (FineTune's probe): whether the abstract
    /// error at its end is still reached.
    pub fn reaches_error_along(&self, path: &[PathStep]) -> bool {
        self.simulate(path, false)
    }

    /// Whether the analysis keeps a concrete run `path` that ends in a violation: it follows
    /// the run to an abstract error at its end, or reports an abstract error or stops earlier
    /// on it. A sound analysis keeps every such run; a lost one is a soundness bug (the test
    /// of the abstraction against concrete runs).
    pub fn keeps_run(&self, path: &[PathStep]) -> bool {
        self.simulate(path, true)
    }

    fn simulate(&self, path: &[PathStep], any_error: bool) -> bool {
        let (k, g) = self.root();
        let mut cur: Vec<(Key, Graph)> = vec![(k, self.t.blur(g))];
        for (i, step) in path.iter().enumerate() {
            let last = i + 1 == path.len();
            let mut next: Vec<(Key, Graph)> = vec![];
            for (k, g) in &cur {
                if k.func != step.func {
                    continue;
                }
                let from = self
                    .t
                    .prog
                    .func(k.func)
                    .cfa
                    .edge_endpoints(step.edge)
                    .map(|x| x.0);
                if from != Some(k.loc) {
                    continue;
                }
                for s in self.successors(k, g, step.edge) {
                    match s {
                        Succ::Next(k2, g2)
                            if !next.iter().any(|(k3, g3)| *k3 == k2 && g2.embeds_into(g3)) =>
                        {
                            next.push((k2, g2));
                        }
                        Succ::Error(_) if last || any_error => return true,
                        // The analysis cannot go on here: the path is not ruled out.
                        Succ::Stop(_) => return true,
                        _ => {}
                    }
                }
            }
            if next.is_empty() {
                if std::env::var_os("SHAPECHECK_DEBUG").is_some() {
                    self.debug_lost(i, step, &cur);
                }
                return false;
            }
            cur = next;
        }
        false
    }

    /// Re-checks the ART as a certificate: the root is covered, and every node's abstract
    /// post along every edge is error-free and covered by the graphs at its location.
    pub fn recheck(&self) -> Result<CertificateStats, String> {
        let (k, g) = self.root();
        let g = self.t.blur(g);
        let root_key = self
            .key_index
            .get(&k)
            .ok_or("the root location has no graph")?;
        if !self.is_covered(*root_key, &g) {
            return Err("the initial state is not covered".into());
        }
        // The transitions are independent: half the nodes each on two threads.
        let half = self.nodes.len().div_ceil(2);
        let (a, b) = std::thread::scope(|sc| {
            let h = sc.spawn(|| self.recheck_nodes(half..self.nodes.len()));
            let a = self.recheck_nodes(0..half);
            (a, h.join())
        });
        let b = b.map_err(|_| "the certificate check failed internally".to_string())?;
        let transitions = a? + b?;
        Ok(CertificateStats {
            locations: self.keys.len(),
            graphs: self.nodes.iter().filter(|n| !n.dropped).count(),
            transitions,
        })
    }

    /// Re-checks the transitions out of the nodes in `range`; returns how many there are.
    fn recheck_nodes(&self, range: std::ops::Range<usize>) -> Result<usize, String> {
        let mut transitions = 0;
        for node in self.nodes[range].iter().filter(|n| !n.dropped) {
            crate::engine::budget::check()
                .map_err(|e| format!("{e} reached during the re-check"))?;
            let key = &self.keys[node.key];
            let cfa = &self.t.prog.func(key.func).cfa;
            for e in cfa.edges(key.loc).map(|e| e.id()) {
                for s in self.successors(key, &node.graph, e) {
                    transitions += 1;
                    match s {
                        Succ::Next(k2, g2) => {
                            let ok = self
                                .key_index
                                .get(&k2)
                                .is_some_and(|i| self.is_covered(*i, &g2));
                            if !ok {
                                return Err(format!(
                                    "a successor at line {} is not covered",
                                    cfa[e].line
                                ));
                            }
                        }
                        Succ::Error(err) => {
                            return Err(format!("an abstract error: {}", err.message));
                        }
                        Succ::Stop(why) => return Err(why),
                        Succ::End => {}
                    }
                }
            }
        }
        Ok(transitions)
    }

    /// The shape graphs per location, as text.
    pub fn dump_text(&self) -> String {
        let mut s = String::new();
        for (k, key) in self.keys.iter().enumerate() {
            let _ = writeln!(s, "location {}:", self.describe(key));
            for (i, id) in self.at[k].iter().enumerate() {
                let _ = writeln!(s, " graph {i}:");
                s.push_str(&self.nodes[*id].graph.text(self.t.v));
            }
        }
        s
    }

    /// The shape graphs per location, as one DOT digraph with a cluster per graph.
    pub fn dump_dot(&self) -> String {
        let mut s = String::from("digraph shapes {\n  compound=true;\n");
        for (k, key) in self.keys.iter().enumerate() {
            for (i, id) in self.at[k].iter().enumerate() {
                let name = format!("{} #{i}", self.describe(key)).replace('"', "'");
                s.push_str(&self.nodes[*id].graph.dot(self.t.v, &name));
            }
        }
        s.push_str("}\n");
        s
    }

    /// The shape graphs at the loop heads (at every location when there is no loop), as one
    /// SVG document with a panel per graph, at most [`MAX_PANELS`].
    pub fn dump_svg(&self) -> String {
        let prog = self.t.prog;
        let head = |k: &Key| prog.func(k.func).cfa[k.loc].loop_head;
        let any_head = self.keys.iter().any(head);
        let mut panels = vec![];
        let mut left = 0;
        for (k, key) in self.keys.iter().enumerate() {
            if any_head && !head(key) {
                continue;
            }
            for (i, id) in self.at[k].iter().enumerate() {
                if panels.len() == MAX_PANELS {
                    left += 1;
                    continue;
                }
                let caption = format!("{} #{i}", self.describe_line(key));
                panels.push(self.nodes[*id].graph.picture(self.t.v, prog, &caption));
            }
        }
        if left > 0 {
            let more = format!("({left} more graphs not drawn; --dump-shapes lists them all)");
            panels.push(crate::picture::Picture::new(more));
        }
        crate::picture::svg::document(&panels)
    }

    /// `loop head at line 12 in alloc_list (from main)` style.
    fn describe_line(&self, key: &Key) -> String {
        let f = self.t.prog.func(key.func);
        let line = f
            .cfa
            .edges(key.loc)
            .map(|e| e.weight().line)
            .min()
            .unwrap_or(0);
        let what = if f.cfa[key.loc].loop_head {
            "loop head"
        } else {
            "location"
        };
        let mut s = format!("{what} at line {line} in {}", f.name);
        let callers: Vec<&str> = (key.stack.iter().rev())
            .map(|r| self.t.prog.func(r.func).name.as_str())
            .filter(|n| !n.starts_with("__shapecheck"))
            .collect();
        if !callers.is_empty() {
            s.push_str(&format!(" (from {})", callers.join(" < ")));
        }
        s
    }

    /// `main > alloc_list @ 11` style.
    pub fn describe(&self, key: &Key) -> String {
        let prog = self.t.prog;
        let mut parts: Vec<String> = key
            .stack
            .iter()
            .map(|r| prog.func(r.func).name.clone())
            .collect();
        parts.push(prog.func(key.func).name.clone());
        format!("{} @ {}", parts.join(" > "), key.loc.index())
    }
}

/// The most shape graphs drawn in one picture.
pub const MAX_PANELS: usize = 200;

/// The constant byte size of an allocation, if it is one.
fn alloc_size(g: &Graph, k: AllocKind, args: &[Expr]) -> Option<u32> {
    let c = |e: &Expr| super::transfer::const_value(g, e).and_then(|n| u32::try_from(n).ok());
    match k {
        AllocKind::Calloc => c(args.first()?)?.checked_mul(c(args.get(1)?)?),
        _ => c(args.first()?),
    }
}

/// Sizes of a re-checked certificate.
#[derive(Clone, Copy, Debug, Default)]
pub struct CertificateStats {
    /// Abstract locations.
    pub locations: usize,
    /// Shape graphs.
    pub graphs: usize,
    /// Transitions re-checked.
    pub transitions: usize,
}

/// A duration in seconds, for reports.
pub fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// Whether the program takes the address of a tracked pointer variable or of a tracked field:
/// the shape analysis would miss writes through such pointers, so it refuses the program.
pub fn address_taken(prog: &Program, refs: &RefParams, v: &Vocab) -> Option<String> {
    // A tracked pointer, a tracked field or a data field with field predicates written
    // through another pointer would change without the graph seeing it. A variable passed
    // to a reference parameter is read and written as itself.
    for f in &prog.functions {
        for e in f.cfa.edge_references() {
            let edge = e.weight();
            let mut found = None;
            let mut check = |x: &Expr| {
                if let ExprKind::AddrOf(a) = &x.kind {
                    match &a.kind {
                        ExprKind::Var(y) if v.var(*y).is_some() && v.cell_var(*y).is_none() => {
                            found = Some(prog.var(*y).name.clone())
                        }
                        ExprKind::Field(base, _, name) => {
                            // Through a pointer, a struct variable or an embedded member;
                            // a carrier's other embedded member is a node of its own.
                            if let Type::Struct(s) = &base.ty
                                && v.member_field(&base.ty, name).is_none()
                                && (v.field(*s, name).is_some()
                                    || v.field_preds(*s, name).next().is_some())
                            {
                                found = Some(format!("->{name}"));
                            }
                        }
                        _ => {}
                    }
                }
            };
            // A slot's new value `&v` or `&e->f` is read and written through the slot.
            let op = refs.rewrite(&edge.op);
            for x in v.slots.checked(prog, refs, &op) {
                x.visit(&mut check);
            }
            if let Some(what) = found {
                return Some(format!(
                    "line {}: unsupported by the shape analysis: the address of `{what}` is taken",
                    edge.line
                ));
            }
        }
    }
    None
}

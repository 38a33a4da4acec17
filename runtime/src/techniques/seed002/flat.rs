//! The whole program as one control-flow graph: every call inlined (2LS analyses
//! non-recursive programs with all calls inlined), the loops found and cut.
//!
//! Consumes a [`Program`]; produces a [`Flat`] graph whose edges carry the program's
//! operations over fresh copies of each inlined function's locals, with its loop heads, its back
//! edges, the natural loop of each head and a topological order of the graph without its back
//! edges. Recursion, calls through function pointers, irreducible control flow and graphs
//! beyond a size bound are refused with the reason.

use crate::program::ir::{Callee, Expr, ExprKind, FuncId, Op, Program, VarId, VarInfo, VarKind};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeMap, BTreeSet};

/// The most edges an inlined program may have.
const MAX_EDGES: usize = 200_000;

/// An edge of the flat graph.
#[derive(Clone, Debug)]
pub struct FEdge {
    /// Source node.
    pub from: usize,
    /// Target node.
    pub to: usize,
    /// The operation, over the variables of [`Flat::prog`].
    pub op: Op,
    /// Source line.
    pub line: u32,
}

/// The inlined program.
pub struct Flat {
    /// The program with a copy of each local per inlined call (its `vars` grow).
    pub prog: Program,
    /// The edges.
    pub edges: Vec<FEdge>,
    /// The number of nodes.
    pub nodes: usize,
    /// The entry node.
    pub entry: usize,
    /// Outgoing edge indices per node.
    pub out: Vec<Vec<usize>>,
    /// Incoming edge indices per node.
    pub inc: Vec<Vec<usize>>,
    /// Whether an edge closes a loop.
    pub back: Vec<bool>,
    /// Reachable nodes in topological order of the graph without back edges.
    pub order: Vec<usize>,
    /// The natural loop (node set) of each loop head.
    pub loops: BTreeMap<usize, BTreeSet<usize>>,
    /// The function and CFA location each node copies (none for the nodes inlining adds).
    pub origin: Vec<Option<(FuncId, NodeIndex)>>,
    /// How many times each function was inlined.
    pub copies: BTreeMap<FuncId, usize>,
    /// The activations of inlined calls: the nodes of each body (its entry and exit
    /// excluded) and the copies of the callee's locals, which exist only there.
    pub scopes: Vec<Scope>,
    /// The exit node.
    pub exit: usize,
    /// The variable holding the return value of the function the graph starts in, if any
    /// ([`Flat::function`]; `None` from the initialiser).
    pub result: Option<VarId>,
    /// Variables read at the exit (a contract's postcondition): live wherever they are not
    /// written. Empty unless the caller sets them.
    pub exit_uses: BTreeSet<VarId>,
    /// Variables a contract names beyond those the operations mention (a parameter only
    /// its precondition reads, a ghost constant). Empty unless the caller sets them.
    pub extra_vars: BTreeSet<VarId>,
}

/// One inlined call: where its locals are in scope.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The nodes of the inlined body, its entry and exit excluded.
    pub nodes: std::ops::Range<usize>,
    /// The copies of the callee's locals (parameters included).
    pub vars: Vec<VarId>,
}

impl Flat {
    /// Inlines `prog` from its initialisation function (which calls `main`).
    pub fn new(prog: &Program) -> Result<Flat, String> {
        Flat::build(prog, prog.init, &[], &BTreeSet::new()).map(|(flat, _)| flat)
    }

    /// Inlines the function `f` alone, as the whole program: its parameters, the globals and
    /// the heap are arbitrary at the entry (nothing initialises them). The entry is followed
    /// by one edge per variable of `snapshot`, copying it into a fresh variable named
    /// `<name>#pre` (its value at entry); returns the graph and those copies, in order.
    pub fn function(
        prog: &Program,
        f: FuncId,
        snapshot: &[VarId],
    ) -> Result<(Flat, Vec<VarId>), String> {
        Flat::build(prog, f, snapshot, &BTreeSet::new())
    }

    /// [`Flat::function`], with the calls of the functions in `keep` left as call edges
    /// (not inlined), for an engine that uses their contracts instead.
    pub fn function_keeping(
        prog: &Program,
        f: FuncId,
        snapshot: &[VarId],
        keep: &BTreeSet<FuncId>,
    ) -> Result<(Flat, Vec<VarId>), String> {
        Flat::build(prog, f, snapshot, keep)
    }

    fn build(
        prog: &Program,
        f: FuncId,
        snapshot: &[VarId],
        keep: &BTreeSet<FuncId>,
    ) -> Result<(Flat, Vec<VarId>), String> {
        let mut b = Builder {
            keep: keep.clone(),
            prog: prog.clone(),
            edges: vec![],
            nodes: 0,
            stack: vec![],
            used: BTreeMap::new(),
            origin: BTreeMap::new(),
            scopes: vec![],
        };
        let entry = b.node();
        let exit = b.node();
        let renames = b.prepare(f)?;
        let mut at = entry;
        let mut copies = vec![];
        for &v in snapshot {
            let mut info = b.prog.var(v).clone();
            info.name = format!("{}#pre", info.name);
            let copy = VarId(b.prog.vars.len() as u32);
            b.prog.vars.push(info);
            let next = b.node();
            let line = b.prog.func(f).line;
            let (lhs, rhs) = (var_expr(&b.prog, copy), var_expr(&b.prog, v));
            b.edge(at, next, Op::Assign { lhs, rhs }, line)?;
            copies.push(copy);
            at = next;
        }
        let result = b.inline(f, &renames, at, exit)?;
        let mut flat = Flat {
            prog: b.prog,
            nodes: b.nodes,
            entry,
            out: vec![vec![]; b.nodes],
            inc: vec![vec![]; b.nodes],
            back: vec![false; b.edges.len()],
            edges: b.edges,
            order: vec![],
            loops: BTreeMap::new(),
            origin: (0..b.nodes).map(|n| b.origin.get(&n).copied()).collect(),
            copies: b.used,
            scopes: b.scopes,
            exit,
            result,
            exit_uses: BTreeSet::new(),
            extra_vars: BTreeSet::new(),
        };
        for (i, e) in flat.edges.iter().enumerate() {
            flat.out[e.from].push(i);
            flat.inc[e.to].push(i);
        }
        flat.find_loops()?;
        Ok((flat, copies))
    }

    /// Marks back edges by depth-first search, checks that every loop head dominates its
    /// back edges (reducibility), and orders the nodes.
    fn find_loops(&mut self) -> Result<(), String> {
        let mut state = vec![0u8; self.nodes]; // 0 new, 1 on the stack, 2 done
        let mut post = vec![];
        let mut stack = vec![(self.entry, 0usize)];
        state[self.entry] = 1;
        while let Some((n, i)) = stack.pop() {
            if let Some(&e) = self.out[n].get(i) {
                stack.push((n, i + 1));
                let to = self.edges[e].to;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    1 => self.back[e] = true,
                    _ => {}
                }
            } else {
                state[n] = 2;
                post.push(n);
            }
        }
        post.reverse();
        self.order = post;
        let mut g = DiGraph::<(), ()>::new();
        let ids: Vec<NodeIndex> = (0..self.nodes).map(|_| g.add_node(())).collect();
        for e in &self.edges {
            g.add_edge(ids[e.from], ids[e.to], ());
        }
        let dom = petgraph::algo::dominators::simple_fast(&g, ids[self.entry]);
        for (i, e) in self.edges.iter().enumerate() {
            if !self.back[i] || state[e.from] != 2 {
                continue;
            }
            let dominated = dom
                .dominators(ids[e.from])
                .is_some_and(|mut d| d.any(|x| x == ids[e.to]));
            if !dominated {
                return Err(format!(
                    "irreducible control flow (a jump into the loop at line {})",
                    e.line
                ));
            }
            let body = self.natural_loop(e.to, e.from);
            self.loops.entry(e.to).or_default().extend(body);
        }
        Ok(())
    }

    /// The nodes from which `tail` is reached without passing through `head`, and `head`.
    fn natural_loop(&self, head: usize, tail: usize) -> BTreeSet<usize> {
        let mut body = BTreeSet::from([head]);
        let mut work = vec![tail];
        while let Some(n) = work.pop() {
            if body.insert(n) {
                work.extend(self.inc[n].iter().map(|&e| self.edges[e].from));
            }
        }
        body
    }

    /// The innermost-first list of loop heads whose loop contains `node`.
    pub fn heads_of(&self, node: usize) -> Vec<usize> {
        let mut heads: Vec<usize> = (self.loops.iter())
            .filter(|(_, body)| body.contains(&node))
            .map(|(h, _)| *h)
            .collect();
        heads.sort_by_key(|h| self.loops[h].len());
        heads
    }

    /// Whether variable `v` exists at `node`: a global, a local of the initialiser, or a
    /// local of an inlined call whose body holds `node` (argument and result temporaries
    /// exist nowhere: they only carry a value across a call's entry or exit).
    pub fn in_scope(&self, v: VarId, node: usize) -> bool {
        match self.prog.var(v).kind {
            VarKind::Global => true,
            VarKind::Local(f) if f == self.prog.init => true,
            VarKind::Local(_) => {
                (self.scopes.iter()).any(|s| s.nodes.contains(&node) && s.vars.contains(&v))
            }
        }
    }

    /// The program's global variables.
    fn globals(&self) -> impl Iterator<Item = VarId> + '_ {
        (0..self.prog.vars.len())
            .map(|i| VarId(i as u32))
            .filter(|&v| self.prog.var(v).kind == VarKind::Global)
    }

    /// The variables live at each node: read on some path from it before being written.
    pub fn liveness(&self) -> Vec<BTreeSet<VarId>> {
        let mut live = vec![BTreeSet::new(); self.nodes];
        live[self.exit] = self.exit_uses.clone();
        let mut changed = true;
        while changed {
            changed = false;
            for e in self.edges.iter().rev() {
                let (def, mut uses) = def_use(&e.op);
                if let Op::Call {
                    callee: Callee::Func(_),
                    ..
                } = &e.op
                {
                    // A call left in the graph (its contract stands for it) may read any
                    // global.
                    uses.extend(self.globals());
                }
                let mut l = live[e.to].clone();
                if let Some(d) = def {
                    l.remove(&d);
                }
                l.extend(uses);
                if !l.is_subset(&live[e.from]) {
                    live[e.from].extend(l);
                    changed = true;
                }
            }
        }
        live
    }

    /// The variables some path from the entry to each node writes as a whole with a value
    /// (not a `Havoc`; the globals, initialised before the entry, at every node): where a
    /// variable is outside its set, it holds an indeterminate value (or one written through
    /// a pointer).
    pub fn written(&self) -> Vec<BTreeSet<VarId>> {
        let mut out = vec![BTreeSet::new(); self.nodes];
        out[self.entry] = self.globals().collect();
        let mut changed = true;
        while changed {
            changed = false;
            for e in &self.edges {
                let mut w = out[e.from].clone();
                if !matches!(e.op, Op::Havoc(_)) {
                    w.extend(def(&e.op));
                }
                if !w.is_subset(&out[e.to]) {
                    out[e.to].extend(w);
                    changed = true;
                }
            }
        }
        out
    }
}

/// The variable an operation of the graph overwrites as a whole, if any (calls through
/// pointers are not in the graph).
pub fn def(op: &Op) -> Option<VarId> {
    let whole = |lhs: &Expr| match lhs.kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    match op {
        Op::Assign { lhs, .. } => whole(lhs),
        Op::Call { lhs: Some(lhs), .. } => whole(lhs),
        Op::Havoc(v) => Some(*v),
        _ => None,
    }
}

/// The variable an operation overwrites as a whole, if any, and the variables it reads.
fn def_use(op: &Op) -> (Option<VarId>, BTreeSet<VarId>) {
    let whole = |lhs: &Expr| match lhs.kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    let def = def(op);
    let mut uses = BTreeSet::new();
    for e in op.exprs() {
        if def.is_some() && whole(e) == def {
            continue;
        }
        e.visit(&mut |x| {
            if let ExprKind::Var(v) = x.kind {
                uses.insert(v);
            }
        });
    }
    (def, uses)
}

struct Builder {
    prog: Program,
    edges: Vec<FEdge>,
    nodes: usize,
    stack: Vec<FuncId>,
    /// How many times each function has been inlined.
    used: BTreeMap<FuncId, usize>,
    /// The function and location each node copies.
    origin: BTreeMap<usize, (FuncId, NodeIndex)>,
    /// The inlined calls' scopes.
    scopes: Vec<Scope>,
    /// The functions whose calls stay call edges.
    keep: BTreeSet<FuncId>,
}

impl Builder {
    fn node(&mut self) -> usize {
        self.nodes += 1;
        self.nodes - 1
    }

    fn edge(&mut self, from: usize, to: usize, op: Op, line: u32) -> Result<(), String> {
        if self.edges.len() >= MAX_EDGES {
            return Err(format!(
                "the inlined program has more than {MAX_EDGES} edges"
            ));
        }
        self.edges.push(FEdge { from, to, op, line });
        Ok(())
    }

    /// Checks that `f` can be inlined once more and makes its copy of the locals.
    fn prepare(&mut self, f: FuncId) -> Result<BTreeMap<VarId, VarId>, String> {
        if self.stack.contains(&f) {
            return Err(format!(
                "recursion through `{}`: this engine inlines every call",
                self.prog.func(f).name
            ));
        }
        let func = self.prog.func(f);
        if !func.defined {
            return Err(format!("a call of `{}`, which has no body", func.name));
        }
        let locals = func.locals.clone();
        let count = self.used.entry(f).or_insert(0);
        *count += 1;
        let count = *count;
        Ok(self.copy_locals(&locals, count))
    }

    /// Inlines function `f` (its locals renamed by `renames`) between `entry` and `exit`;
    /// returns the variable holding its result, if any.
    fn inline(
        &mut self,
        f: FuncId,
        renames: &BTreeMap<VarId, VarId>,
        entry: usize,
        exit: usize,
    ) -> Result<Option<VarId>, String> {
        let func = self.prog.func(f).clone();
        let ret = (!matches!(func.ret, crate::program::ir::Type::Void)).then(|| {
            let v = VarId(self.prog.vars.len() as u32);
            self.prog.vars.push(VarInfo {
                name: format!("{}#result", func.name),
                ty: func.ret.clone(),
                kind: VarKind::Local(f),
                line: func.line,
            });
            v
        });
        self.stack.push(f);
        let mut map: BTreeMap<NodeIndex, usize> = BTreeMap::new();
        map.insert(func.entry, entry);
        map.insert(func.exit, exit);
        for e in func.cfa.edge_indices() {
            let (a, z) = func.cfa.edge_endpoints(e).expect("edge");
            let edge = &func.cfa[e];
            let from = *map.entry(a).or_insert_with(|| {
                self.nodes += 1;
                self.nodes - 1
            });
            let to = *map.entry(z).or_insert_with(|| {
                self.nodes += 1;
                self.nodes - 1
            });
            self.origin.entry(from).or_insert((f, a));
            self.origin.entry(to).or_insert((f, z));
            let op = rename_op(&edge.op, renames);
            self.lower(op, from, to, exit, ret, edge.line)?;
        }
        self.stack.pop();
        Ok(ret)
    }

    /// Fresh copies of a function's locals for its `count`-th inlining (the first uses the
    /// originals).
    fn copy_locals(&mut self, locals: &[VarId], count: usize) -> BTreeMap<VarId, VarId> {
        if count == 1 {
            return BTreeMap::new();
        }
        let mut map = BTreeMap::new();
        for &v in locals {
            let mut info = self.prog.var(v).clone();
            info.name = format!("{}#{count}", info.name);
            let copy = VarId(self.prog.vars.len() as u32);
            self.prog.vars.push(info);
            map.insert(v, copy);
        }
        map
    }

    /// Adds one operation of an inlined function: returns assign the result and leave, calls
    /// of defined functions are inlined.
    fn lower(
        &mut self,
        op: Op,
        from: usize,
        to: usize,
        exit: usize,
        ret: Option<VarId>,
        line: u32,
    ) -> Result<(), String> {
        match op {
            Op::Return(value) => match (value, ret) {
                (Some(e), Some(r)) => {
                    let lhs = var_expr(&self.prog, r);
                    self.edge(from, exit, Op::Assign { lhs, rhs: e }, line)
                }
                _ => self.edge(from, exit, Op::Skip, line),
            },
            Op::Call {
                lhs,
                callee: Callee::Func(g),
                args,
            } if !self.keep.contains(&g) => self.call(g, lhs, args, from, to, line),
            Op::CallPtr { .. } => Err(format!("a call through a function pointer at line {line}")),
            op => self.edge(from, to, op, line),
        }
    }

    fn call(
        &mut self,
        g: FuncId,
        lhs: Option<Expr>,
        args: Vec<Expr>,
        from: usize,
        to: usize,
        line: u32,
    ) -> Result<(), String> {
        let callee = self.prog.func(g).clone();
        if callee.va_area.is_some() && args.len() > callee.params.len() {
            return Err(format!("a call of the variadic `{}`", callee.name));
        }
        let renames = self.prepare(g)?;
        // Arguments are evaluated into temporaries first, then bound to the parameters of
        // the fresh copy.
        let mut at = from;
        let mut temps = vec![];
        for a in &args {
            let t = VarId(self.prog.vars.len() as u32);
            self.prog.vars.push(VarInfo {
                name: format!("{}#arg{}", callee.name, temps.len()),
                ty: a.ty.clone(),
                kind: VarKind::Local(g),
                line,
            });
            let next = self.node();
            let lhs = var_expr(&self.prog, t);
            self.edge(
                at,
                next,
                Op::Assign {
                    lhs,
                    rhs: a.clone(),
                },
                line,
            )?;
            temps.push(t);
            at = next;
        }
        for (p, t) in callee.params.iter().zip(&temps) {
            let next = self.node();
            let lhs = var_expr(&self.prog, *renames.get(p).unwrap_or(p));
            let rhs = var_expr(&self.prog, *t);
            self.edge(at, next, Op::Assign { lhs, rhs }, line)?;
            at = next;
        }
        let body_exit = self.node();
        let first = self.nodes;
        let ret = self.inline(g, &renames, at, body_exit)?;
        let vars = (callee.locals.iter())
            .map(|v| *renames.get(v).unwrap_or(v))
            .collect();
        self.scopes.push(Scope {
            nodes: first..self.nodes,
            vars,
        });
        match (lhs, ret) {
            (Some(lhs), Some(r)) => {
                let rhs = var_expr(&self.prog, r);
                self.edge(body_exit, to, Op::Assign { lhs, rhs }, line)
            }
            _ => self.edge(body_exit, to, Op::Skip, line),
        }
    }
}

fn var_expr(prog: &Program, v: VarId) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        ty: prog.var(v).ty.clone(),
    }
}

/// `op` with variables renamed.
fn rename_op(op: &Op, map: &BTreeMap<VarId, VarId>) -> Op {
    if map.is_empty() {
        return op.clone();
    }
    match op {
        Op::Havoc(v) => Op::Havoc(*map.get(v).unwrap_or(v)),
        _ => op.map_exprs(&mut |e| rename(e, map)),
    }
}

fn rename(e: &Expr, map: &BTreeMap<VarId, VarId>) -> Expr {
    match &e.kind {
        ExprKind::Var(v) => Expr {
            kind: ExprKind::Var(*map.get(v).unwrap_or(v)),
            ty: e.ty.clone(),
        },
        _ => e.map_children(&mut |x| rename(x, map)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::frontend::load_source;

    /// The variable named `name`.
    fn var(flat: &Flat, name: &str) -> VarId {
        (0..flat.prog.vars.len())
            .map(|i| VarId(i as u32))
            .find(|v| flat.prog.var(*v).name == name)
            .expect("a variable of that name")
    }

    #[test]
    fn a_variable_is_written_only_after_its_first_assignment_and_globals_always() {
        let prog = load_source(
            "int g;
             extern int __VERIFIER_nondet_int(void);
             int main(void) {
               int s = 0;
               while (__VERIFIER_nondet_int()) s++;
               int k;
               k = __VERIFIER_nondet_int();
               return s + k; }",
        );
        let flat = Flat::new(&prog).expect("flat");
        let written = flat.written();
        let (g, s, k) = (var(&flat, "g"), var(&flat, "s"), var(&flat, "k"));
        let head = *flat.loops.keys().next().expect("one loop");
        assert!(written[flat.entry].contains(&g) && !written[flat.entry].contains(&s));
        // In the loop `s` is written, and `k` only declared (a `Havoc` is no write).
        assert!(written[head].contains(&s) && !written[head].contains(&k));
        assert!(written[flat.exit].contains(&k));
    }
}

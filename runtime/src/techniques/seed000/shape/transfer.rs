//! The abstract semantics of IR operations on shape graphs: focus, update, differencing of
//! instrumentation predicates, coerce.
//!
//! Consumes a [`Graph`] and an operation (an assignment, an assumption, an allocation, a
//! `free`, parameter passing, a return); produces the successor graphs (before blur) or an
//! abstract error: a dereference, `free` or comparison the abstraction cannot prove valid.
//! Evaluating an expression focuses the graph: a pointer whose target is not definite is split
//! into one structure per possible target (NULL, a single node, a cell materialised out of a
//! summary node), each then coerced. Integers are tracked only as copied constants of
//! variables and as the field predicates of field assertions ([`super::data`]); other
//! integer values are unknown and conditions on them take both branches. Pointers of
//! untracked variables or fields, and invalid pointers, evaluate to [`PVal::Unknown`], whose
//! dereference is an abstract error. A struct copy `*p = *q` is a copy of every member.
//!
//! Updates change core predicates on definite tuples; an instrumentation predicate is then
//! re-evaluated from its defining formula exactly on the tuples whose evaluation reads a
//! changed tuple, and keeps its stored value elsewhere (finite differencing in its simplest,
//! generic form: sound for every formula, precise for local ones such as cancellation).

use super::coerce::{Constraints, single_field_reach};
use super::data;
use super::delta::{ClosureDelta, beyond_gone, relink, reroot, retarget};
use super::formula::{Changes, Eval, tuples};
use super::graph::{F, Graph, H, T, join};
use super::slots::NewValue;
use super::vocab::{PredKind, Vocab};
use crate::engine::feasibility::PathEnd;
use crate::program::ir::*;
use shapecheck_dsl::eval::Kleene;

/// The value of a pointer expression in one focused structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PVal {
    /// NULL.
    Null,
    /// A single-cell node.
    Node(usize),
    /// Anything: untracked, uninitialised, dangling.
    Unknown,
    /// The address of the member at this byte offset of a single-cell node (see `inner`).
    Member(usize, u64),
}

impl PVal {
    /// The value as far as variables and edges can hold it: a member address is unknown.
    pub fn unless_member(self) -> PVal {
        match self {
            PVal::Member(..) => PVal::Unknown,
            v => v,
        }
    }
}

/// An abstract error: an operation the abstraction cannot prove safe.
#[derive(Clone, Debug)]
pub struct AbsError {
    /// How the path ends, for the feasibility check.
    pub end: PathEnd,
    /// What the abstraction could not prove.
    pub message: String,
    /// Not an error but an operation the analysis does not support (the exploration is
    /// incomplete, no path to check).
    pub unsupported: bool,
}

/// A result of evaluation: a focused graph with a value, or an abstract error.
pub type Res<X> = Result<(Graph, X), AbsError>;

/// The transfer functions of one vocabulary.
pub struct Transfer<'a> {
    /// The program.
    pub prog: &'a Program,
    /// The vocabulary.
    pub v: &'a Vocab<'a>,
    /// Its constraints.
    pub cons: &'a Constraints,
    /// Whether valid-memtrack is checked: an allocation the graph cannot represent is then
    /// an abstract error (its memory could be lost unseen).
    pub memtrack: bool,
    /// Variables whose address is taken (no copied constants for them).
    pub escaped: std::collections::BTreeSet<VarId>,
    /// Per tracked pointer, its reachability instances along several fields or from the link
    /// of its cell (see [`Transfer::focus_reach`]).
    pub tree_reach: Vec<Vec<usize>>,
}

/// Per tracked pointer of `v`, the ids of its reachability-from-a-pointer instances whose
/// relation is not a single field (`dreach<x>` of a tree), and of its reachability along one
/// field from the link of its cell (`<x->items>` of a list of lists: the sub-list of the cell
/// `x` names, summarised with the other cells' sub-lists until `x` names it). A tree held by
/// a link is left to `dreach<x>`: splitting on it too multiplied a stack walk's graphs.
pub fn tree_reach(v: &Vocab) -> Vec<Vec<usize>> {
    (0..v.vars.len())
        .map(|x| {
            v.instr
                .iter()
                .enumerate()
                .filter(|(i, inst)| {
                    let tree = v.reaching[*i] && single_field_reach(v, inst).is_none();
                    let sub = inst.root.is_some()
                        && v.reaches_from_pointer(*i)
                        && single_field_reach(v, inst).is_some();
                    inst.pointer == Some(x) && (tree || sub)
                })
                .map(|(_, inst)| inst.id)
                .collect()
        })
        .collect()
}

impl<'a> Transfer<'a> {
    fn analysed_ptr(&self, ty: &Type) -> Option<StructId> {
        match ty.pointee()? {
            Type::Struct(s) if self.v.node_type(*s) => Some(*s),
            _ => None,
        }
    }

    pub(super) fn deref_error(&self, e: &Expr, line: u32, what: &str) -> AbsError {
        AbsError {
            end: PathEnd::InvalidDeref(vec![e.clone()]),
            message: format!("line {line}: cannot prove that {what} is a valid pointer"),
            unsupported: false,
        }
    }

    // ----- focus -----

    /// The possible targets of tracked pointer `x`.
    pub(super) fn focus_var(&self, g: Graph, x: usize) -> Vec<(Graph, PVal)> {
        let mut out = vec![];
        if g.invalid[x] != F {
            out.push((g.clone(), PVal::Unknown));
            if g.invalid[x] == T {
                return out;
            }
        }
        let mut g = g;
        g.invalid[x] = F;
        let p = self.v.pt(x);
        out.extend(self.focus_unary(g, p));
        out
    }

    /// Splits on which single node (or none) satisfies the unique unary predicate `p`.
    fn focus_unary(&self, g: Graph, p: usize) -> Vec<(Graph, PVal)> {
        let cands: Vec<usize> = (0..g.n).filter(|u| g.get(self.v, p, &[*u]) != F).collect();
        if let [u] = cands[..]
            && g.get(self.v, p, &[u]) == T
            && g.sm[u] == F
        {
            return vec![(g, PVal::Node(u))];
        }
        let mut out = vec![];
        if cands.iter().all(|u| g.get(self.v, p, &[*u]) != T) {
            let mut g0 = g.clone();
            for &u in &cands {
                g0.set(self.v, p, &[u], F);
            }
            out.extend(self.coerce(g0).map(|g| (g, PVal::Null)));
        }
        for &u in &cands {
            for (mut g1, c) in self.materialize(&g, u) {
                for w in 0..g1.n {
                    g1.set(self.v, p, &[w], Kleene::from_bool(w == c));
                }
                if let Some(g1) = self.coerce(g1) {
                    out.push((g1, PVal::Node(c)));
                }
            }
        }
        out
    }

    /// Focus on reachability from tracked pointer `x` along a relation of several fields
    /// (`dreach<x>` of a tree): a node where it is 1/2 is split into the cells `x` reaches
    /// and those it does not (or is wholly one of them). After `x = y->next` in a tree whose
    /// children's subtrees share one summary node, the subtree of `x` and the rest become
    /// nodes of their own, which the abstraction then keeps apart: freeing a cell whose
    /// other child `x` names keeps what it reaches reachable. (Along a single field, the
    /// entry laws of coerce already make the value definite.) The same for reachability
    /// from the link of `x`'s cell (`<x->items>`): after `x = x->next` in a list of lists,
    /// the sub-list of `x`'s cell leaves the summary of the sub-lists. Only valid-memtrack and
    /// valid-memcleanup need reachability to be definite; without them the split would
    /// only multiply the graphs.
    fn focus_reach(&self, g: Graph, x: usize) -> Vec<Graph> {
        let preds = &self.tree_reach[x];
        if preds.is_empty() || !self.memtrack {
            return vec![g];
        }
        let mut done = vec![];
        let mut work = vec![g];
        while let Some(g) = work.pop() {
            let open = preds.iter().find_map(|&p| {
                (0..g.n)
                    .find(|&u| g.get(self.v, p, &[u]) == H)
                    .map(|u| (p, u))
            });
            let Some((p, u)) = open else {
                done.push(g);
                continue;
            };
            let mut variants = vec![];
            for k in [T, F] {
                let mut g1 = g.clone();
                g1.set(self.v, p, &[u], k);
                variants.push(g1);
            }
            if g.sm[u] != F {
                let mut g2 = g.clone();
                let c = g2.duplicate(u);
                g2.set(self.v, p, &[u], T);
                g2.set(self.v, p, &[c], F);
                variants.push(g2);
            }
            work.extend(variants.into_iter().filter_map(|g| self.coerce(g)));
        }
        done
    }

    /// The ways node `u` can provide a single cell: `u` itself if it is one (or a summary node
    /// of exactly one cell), or a new cell split off a summary node.
    /// The cell's owned blocks are exposed (see `own`).
    fn materialize(&self, g: &Graph, u: usize) -> Vec<(Graph, usize)> {
        let mut g1 = g.clone();
        g1.sm[u] = F;
        if g.sm[u] == F {
            return vec![(self.expose(g1, u), u)];
        }
        let mut g2 = g.clone();
        let c = g2.duplicate(u);
        g2.sm[c] = F;
        vec![(self.expose(g1, u), u), (self.expose(g2, c), c)]
    }

    /// The possible targets of field `f` of single-cell node `a`.
    pub(super) fn focus_field(&self, g: Graph, a: usize, f: usize) -> Vec<(Graph, PVal)> {
        let (mut out, rest) = self.read_inner(g, a, f);
        let Some(g) = rest else { return out };
        let und = g.get(self.v, self.v.undef(f), &[a]);
        if und != F {
            out.push((g.clone(), PVal::Unknown));
            if und == T {
                return out;
            }
        }
        let mut g = g;
        g.set(self.v, self.v.undef(f), &[a], F);
        let Some(g) = self.coerce(g) else { return out };
        let p = self.v.field_pred(f);
        let cands: Vec<usize> = (0..g.n)
            .filter(|w| g.get(self.v, p, &[a, *w]) != F)
            .collect();
        if let [w] = cands[..]
            && g.get(self.v, p, &[a, w]) == T
            && g.sm[w] == F
        {
            out.push((g, PVal::Node(w)));
            return out;
        }
        if cands.iter().all(|w| g.get(self.v, p, &[a, *w]) != T) {
            let mut g0 = g.clone();
            for &w in &cands {
                g0.set(self.v, p, &[a, w], F);
            }
            out.extend(self.coerce(g0).map(|g| (g, PVal::Null)));
        }
        for &w in &cands {
            for (mut g1, c) in self.materialize(&g, w) {
                for t in 0..g1.n {
                    g1.set(self.v, p, &[a, t], Kleene::from_bool(t == c));
                }
                if let Some(g1) = self.coerce(g1) {
                    out.push((g1, PVal::Node(c)));
                }
            }
        }
        out
    }

    /// Coerce.
    pub fn coerce(&self, g: Graph) -> Option<Graph> {
        self.cons.apply(self.v, g)
    }

    // ----- expressions -----

    /// Evaluates a pointer-typed expression.
    pub fn eval_ptr(&self, g: Graph, e: &Expr, line: u32) -> Vec<Res<PVal>> {
        match &e.kind {
            ExprKind::Const(0) => vec![Ok((g, PVal::Null))],
            ExprKind::Cast(inner) if inner.ty.is_scalar() => {
                if inner.ty.as_int().is_some() {
                    return self
                        .check(g, inner, line)
                        .into_iter()
                        .map(|r| {
                            r.map(|(g, ())| {
                                (
                                    g,
                                    if is_zero(inner) {
                                        PVal::Null
                                    } else {
                                        PVal::Unknown
                                    },
                                )
                            })
                        })
                        .collect();
                }
                self.eval_cast(g, e, inner, line)
            }
            ExprKind::AddrOf(a) => self.eval_addr(g, e, a, line),
            ExprKind::Var(x) => match self.v.var(*x) {
                Some(i) => self.focus_var(g, i).into_iter().map(Ok).collect(),
                None => vec![Ok((g, PVal::Unknown))],
            },
            ExprKind::Field(base, _, name) => {
                let ExprKind::Deref(p) = &base.kind else {
                    return self.unknown_after_check(g, e, line);
                };
                let fi = self.analysed_ptr(&p.ty).and_then(|s| self.v.field(s, name));
                let mut out = vec![];
                for r in self.eval_ptr(g, p, line) {
                    match r {
                        Err(err) => out.push(Err(err)),
                        Ok((g, PVal::Node(a))) => match fi {
                            Some(f) if self.v.carries(g.ty[a], self.v.fields[f].strukt) => {
                                out.extend(self.focus_field(g, a, f).into_iter().map(Ok))
                            }
                            Some(_) => out.push(Err(self.deref_error(
                                p,
                                line,
                                "a pointer cast to another struct",
                            ))),
                            None => out.push(Ok((g, PVal::Unknown))),
                        },
                        Ok(_) => {
                            out.push(Err(self.deref_error(p, line, "the dereferenced pointer")))
                        }
                    }
                }
                out
            }
            _ => self.unknown_after_check(g, e, line),
        }
    }

    pub(super) fn unknown_after_check(&self, g: Graph, e: &Expr, line: u32) -> Vec<Res<PVal>> {
        self.check(g, e, line)
            .into_iter()
            .map(|r| r.map(|(g, ())| (g, PVal::Unknown)))
            .collect()
    }

    /// Evaluates the dereferences inside an expression whose value is not tracked, so that
    /// invalid ones are found.
    pub fn check(&self, g: Graph, e: &Expr, line: u32) -> Vec<Res<()>> {
        if e.ty.as_int().is_some() && super::embed::offset_const(e).is_some() {
            // A constant, or `offsetof` written as a member address off a null pointer.
            return vec![Ok((g, ()))];
        }
        let subs: Vec<&Expr> = match &e.kind {
            ExprKind::Field(base, off, _) => match &base.kind {
                ExprKind::Deref(p) => {
                    return self.access_ok(g, p, off + self.prog.size_of(&e.ty), line);
                }
                _ => vec![base],
            },
            ExprKind::Deref(p) => return self.access_ok(g, p, self.prog.size_of(&e.ty), line),
            ExprKind::AddrOf(a) => match &a.kind {
                ExprKind::Field(base, _, _) => match &base.kind {
                    ExprKind::Deref(p) => return self.deref_ok(g, p, 0, line),
                    _ => vec![],
                },
                _ => vec![],
            },
            ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::BitField(a, _) => vec![a],
            ExprKind::Binary(_, a, b)
            | ExprKind::Cmp(_, a, b)
            | ExprKind::PtrAdd(a, b, _)
            | ExprKind::PtrDiff(a, b, _) => vec![a, b],
            _ => vec![],
        };
        let mut cur: Vec<Res<()>> = vec![Ok((g, ()))];
        for s in subs {
            cur = cur
                .into_iter()
                .flat_map(|r| match r {
                    Ok((g, ())) => self.check(g, s, line),
                    Err(e) => vec![Err(e)],
                })
                .collect();
        }
        cur
    }

    /// An access of the `end` bytes from `p`: through the cell of an array member's element
    /// when `p` is one (see [`Self::array_element`]), else through `p`.
    fn access_ok(&self, g: Graph, p: &Expr, end: u64, line: u32) -> Vec<Res<()>> {
        match self.array_element(p, end) {
            Some((q, end)) => self.deref_ok(g, q, end, line),
            None => self.deref_ok(g, p, end, line),
        }
    }

    /// `p` as an element of an array member at a constant index (`q->name[3]`, `q->buf`
    /// decayed): `q` and the end of the `size` bytes read from there, relative to `q`'s cell;
    /// `None` unless the bytes lie inside the array.
    fn array_element<'e>(&self, p: &'e Expr, size: u64) -> Option<(&'e Expr, u64)> {
        let (base, at) = match &p.kind {
            ExprKind::PtrAdd(base, idx, elem) => {
                let i = u64::try_from(super::embed::offset_const(idx)?).ok()?;
                (base.as_ref(), i.checked_mul(*elem)?)
            }
            _ => (p, 0),
        };
        let base = match &base.kind {
            ExprKind::Cast(a) => a.as_ref(),
            _ => base,
        };
        let ExprKind::AddrOf(a) = &base.kind else {
            return None;
        };
        let ExprKind::Field(cell, off, _) = &a.kind else {
            return None;
        };
        let (ExprKind::Deref(q), Type::Array(..)) = (&cell.kind, &a.ty) else {
            return None;
        };
        let end = at.checked_add(size)?;
        (end <= self.prog.size_of(&a.ty)).then_some((q.as_ref(), off + end))
    }

    /// The dereference of `p` is valid: `p` evaluates to a single node of the analysed heap.
    /// Anything else (NULL, an untracked or invalid pointer, a pointer outside the analysed
    /// types) is an abstract error: the shape analysis never vouches for it.
    /// A raw block must also hold the `end` bytes the access reaches from its start.
    fn deref_ok(&self, g: Graph, p: &Expr, end: u64, line: u32) -> Vec<Res<()>> {
        self.eval_ptr(g, p, line)
            .into_iter()
            .map(|r| match r {
                Ok((g, PVal::Node(u))) if !self.fits(&g, u, &p.ty, end) => Err(self.deref_error(
                    p,
                    line,
                    "a pointer read as plain data or past its block's end",
                )),
                Ok((g, PVal::Node(_))) => Ok((g, ())),
                Ok((g, PVal::Member(u, off))) if self.member_fits(&g, u, off, &p.ty, end) => {
                    Ok((g, ()))
                }
                Ok(_) => Err(self.deref_error(p, line, "the dereferenced pointer")),
                Err(e) => Err(e),
            })
            .collect()
    }

    /// Whether an access through pointer type `ptr` reaching `end` bytes may read node `u`: a
    /// raw block must hold them; a node of a struct is never read as plain data (an `int *`
    /// into a retyped block would change its fields unseen).
    fn fits(&self, g: &Graph, u: usize, ptr: &Type, end: u64) -> bool {
        match raw_info(g.ty[u]) {
            Some((n, _)) => end <= u64::from(n),
            None => !ptr
                .pointee()
                .is_some_and(|t| *t != Type::Void && super::vocab::plain(self.prog, t, 0)),
        }
    }

    /// Evaluates a condition to a Kleene value per focused structure.
    pub fn eval_cond(&self, g: Graph, e: &Expr, line: u32) -> Vec<Res<Kleene>> {
        match &e.kind {
            ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b)
                if a.ty.pointee().is_some() || b.ty.pointee().is_some() =>
            {
                let mut out = vec![];
                for ra in self.eval_ptr(g, a, line) {
                    let (g, va) = match ra {
                        Ok(x) => x,
                        Err(e) => {
                            out.push(Err(e));
                            continue;
                        }
                    };
                    for rb in self.eval_ptr(g, b, line) {
                        out.push(rb.map(|(g, vb)| {
                            let eq = match (va, vb) {
                                // The same block seen at two offsets (an element and its
                                // embedded member) is two addresses.
                                (PVal::Node(u), PVal::Node(w))
                                    if self.view_offset(&a.ty, g.ty[u])
                                        != self.view_offset(&b.ty, g.ty[w]) =>
                                {
                                    F
                                }
                                _ => ptr_eq(va, vb),
                            };
                            (g, if *op == CmpOp::Eq { eq } else { eq.not() })
                        }));
                    }
                }
                out
            }
            _ if e.ty.pointee().is_some() => self
                .eval_ptr(g, e, line)
                .into_iter()
                .map(|r| r.map(|(g, v)| (g, ptr_eq(v, PVal::Null).not())))
                .collect(),
            _ => match self.data_cond(&g, e, line) {
                Some(out) => out,
                None => self
                    .check(g, e, line)
                    .into_iter()
                    .map(|r| {
                        r.map(|(g, ())| {
                            let k = self.known_truth(&g, e);
                            (g, k)
                        })
                    })
                    .collect(),
            },
        }
    }

    // ----- updates -----

    /// Re-evaluates the instrumentation predicates of `new` (whose core predicates differ
    /// from `old`'s on the same nodes) where their formulas read a changed tuple.
    pub fn difference(&self, old: &Graph, new: Graph) -> Graph {
        self.difference_by(old, new, None)
    }

    /// [`Transfer::difference`]; with `gone` given, the update only took edges away, each
    /// touching one of the nodes `gone` (a freed or removed cell; a field left pointing to
    /// freed memory is unknown), and every other edge, also of a node whose field is unknown,
    /// is as it was: a closure tuple that no gone node leads to keeps its old value.
    fn difference_by(&self, old: &Graph, mut new: Graph, gone: Option<&[usize]>) -> Graph {
        let n = new.n;
        let blur = gone.is_none();
        let mut ch = Changes::none(self.v, n);
        for (id, p) in self.v.preds.iter().enumerate() {
            if matches!(p.kind, PredKind::Instr(_)) {
                continue;
            }
            for t in tuples(&(0..n).collect::<Vec<_>>(), p.arity) {
                if old.get(self.v, id, &t) != new.get(self.v, id, &t) {
                    ch.mark(self.v, n, id, &t);
                }
            }
        }
        for (i, inst) in self.v.instr.iter().enumerate() {
            // An instance that reads no changed predicate keeps its values.
            if let Some(reads) = &self.v.reads[i]
                && !reads.iter().any(|p| ch.any(self.v, *p))
            {
                continue;
            }
            let decl = self.v.decl(inst.pred);
            let mut updates = vec![];
            {
                let delta = ClosureDelta::new(self.v, inst, (old, &new), blur);
                if delta.as_ref().is_some_and(|d| d.unchanged()) {
                    continue;
                }
                let known =
                    retarget(self.v, inst, old, &new).or_else(|| reroot(self.v, inst, old, &new));
                let ev = Eval::new(self.v, &new, inst, Some(&ch));
                // Computed once, and only if some re-evaluated value is 1/2.
                let beyond = std::cell::OnceCell::new();
                let beyond_at = |w: usize| {
                    let b =
                        beyond.get_or_init(|| gone.and_then(|u| beyond_gone(self.v, inst, old, u)));
                    b.as_ref().is_some_and(|b: &Vec<bool>| b[w])
                };
                for t in tuples(&ev.nodes, decl.arity) {
                    ev.read_changed.set(false);
                    let mut val = ev.instance(&t);
                    if ev.read_changed.get() {
                        if let Some(d) = &delta {
                            val = d.sharpen(self.v, inst, (old, &new), &t, val);
                        }
                        if val == H
                            && let Some(k) = known.as_ref().and_then(|k| k[t[0]])
                        {
                            val = k;
                        }
                        if val == H && gone.is_some() && t.last().is_some_and(|w| beyond_at(*w)) {
                            val = old.get(self.v, inst.id, &t);
                        }
                        updates.push((t, val));
                    }
                }
            }
            for (t, val) in updates {
                if new.get(self.v, inst.id, &t) != val {
                    new.set(self.v, inst.id, &t, val);
                    ch.mark(self.v, n, inst.id, &t);
                }
            }
        }
        self.relink_all(new)
    }

    /// Sharpens the instances rooted at a pointer's link (`<x->c>`) with what their sibling
    /// instances know ([`relink`]), after every instance has its new value.
    fn relink_all(&self, mut g: Graph) -> Graph {
        for inst in self.v.instr.iter().filter(|i| i.pointer_link().is_some()) {
            let Some(known) = relink(self.v, inst, &g) else {
                continue;
            };
            for (u, k) in known.into_iter().enumerate() {
                if let Some(k) = k
                    && g.get(self.v, inst.id, &[u]) == H
                {
                    g.set(self.v, inst.id, &[u], k);
                }
            }
        }
        g
    }

    /// `x = cond` for a comparison the graph decides in some of its refinements (a field
    /// predicate, a pointer equality): one graph per outcome, in which `x` holds 1 or 0, so
    /// that a later test of `x` (the argument of `__VERIFIER_assert`) is as precise as the
    /// comparison itself. `None` when the comparison teaches the graph nothing.
    fn split_condition(
        &self,
        g: &Graph,
        x: VarId,
        cond: &Expr,
        line: u32,
    ) -> Option<Vec<Result<Graph, AbsError>>> {
        let mut out = vec![];
        let mut learned = false;
        for positive in [true, false] {
            let outcomes = self.assume(g.clone(), cond, positive, line);
            learned |= outcomes.len() != 1;
            for r in outcomes {
                out.push(r.map(|mut h| {
                    learned |= h != *g;
                    self.set_int_var(&mut h, x, Some(i64::from(positive)));
                    h
                }));
            }
        }
        learned.then_some(out)
    }

    /// Assigns a pointer value to tracked variable `x`.
    fn set_var(&self, g: &mut Graph, x: usize, val: PVal) {
        let val = val.unless_member();
        let p = self.v.pt(x);
        for u in 0..g.n {
            let k = match val {
                PVal::Node(w) => Kleene::from_bool(u == w),
                PVal::Null => F,
                PVal::Unknown | PVal::Member(..) => {
                    if self.v.carries(g.ty[u], self.v.vars[x].strukt) {
                        H
                    } else {
                        F
                    }
                }
            };
            g.set(self.v, p, &[u], k);
        }
        g.invalid[x] = if val == PVal::Unknown { H } else { F };
    }

    /// Stores a pointer value into field `f` of node `a`.
    fn set_field(&self, g: &mut Graph, a: usize, f: usize, val: PVal) {
        let val = val.unless_member();
        let p = self.v.field_pred(f);
        for u in 0..g.n {
            let k = match val {
                PVal::Node(w) => Kleene::from_bool(u == w),
                PVal::Null => F,
                PVal::Unknown | PVal::Member(..) => {
                    if self.v.may_target(f, g.ty[u]) {
                        H
                    } else {
                        F
                    }
                }
            };
            g.set(self.v, p, &[a, u], k);
        }
        let und = if val == PVal::Unknown { H } else { F };
        g.set(self.v, self.v.undef(f), &[a], und);
    }

    /// Finishes an update: differencing, then coerce.
    pub(super) fn commit(&self, old: &Graph, new: Graph) -> Option<Graph> {
        let g = self.difference(old, new);
        self.coerce(g)
    }

    /// `lhs = rhs`.
    pub fn assign(
        &self,
        g: Graph,
        lhs: &Expr,
        rhs: &Expr,
        line: u32,
    ) -> Vec<Result<Graph, AbsError>> {
        if let Type::Struct(s) = &lhs.ty
            && self.v.node_type(*s)
        {
            return self.assign_fields(g, lhs, rhs, *s, line);
        }
        // The vocabulary keeps only the slots it tracks.
        if let ExprKind::Var(x) = &lhs.kind
            && self.v.slots.base(*x).is_some()
        {
            return self.assign_slot(g, *x, rhs, line);
        }
        if lhs.ty.pointee().is_none() {
            if let ExprKind::Var(x) = &lhs.kind
                && matches!(rhs.kind, ExprKind::Cmp(..))
                && !self.escaped.contains(x)
                && let Some(split) = self.split_condition(&g, *x, rhs, line)
            {
                return split;
            }
            // An integer (or aggregate) store: its dereferences, copied constants and field
            // predicates.
            let mut out = vec![];
            let checked = self.check(g, rhs, line).into_iter().flat_map(|r| match r {
                Ok((g, ())) if matches!(lhs.kind, ExprKind::Var(_)) => self
                    .focus_read(g, rhs)
                    .into_iter()
                    .map(|g| Ok((g, ())))
                    .collect(),
                r => vec![r],
            });
            for r in checked {
                match r {
                    Ok((mut g, ())) => {
                        if let ExprKind::Var(x) = &lhs.kind {
                            let c = self
                                .data_const(&g, rhs)
                                .filter(|_| !self.escaped.contains(x));
                            let fit = |c: &i64| lhs.ty.as_int().is_some_and(|t| data::fits(*c, t));
                            self.set_int_var(&mut g, *x, c.filter(fit));
                            if lhs.ty == rhs.ty {
                                self.read_into(&mut g, *x, rhs);
                                self.copy_relations(&mut g, *x, rhs);
                            }
                        }
                        if let Some(rs) = self.store_data(&g, lhs, rhs, line) {
                            out.extend(rs);
                            continue;
                        }
                        out.extend(
                            self.check(g, lhs, line)
                                .into_iter()
                                .map(|r| r.map(|(g, ())| g)),
                        )
                    }
                    Err(e) => out.push(Err(e)),
                }
            }
            return out;
        }
        let mut out = vec![];
        for r in self.eval_ptr(g, rhs, line) {
            match r {
                Ok((g, val)) => out.extend(self.store(g, lhs, val, line)),
                Err(e) => out.push(Err(e)),
            }
        }
        out
    }

    /// `pp = rhs` for a slot `pp` (see [`super::slots`]): the slot points to the cell whose
    /// field `rhs` addresses (to no cell for a variable's address), and its constant says
    /// which field or variable; a copy of another slot copies both.
    fn assign_slot(
        &self,
        g: Graph,
        x: VarId,
        rhs: &Expr,
        line: u32,
    ) -> Vec<Result<Graph, AbsError>> {
        let slots = &self.v.slots;
        let lhs = slots.as_pointer(x).expect("a slot");
        let (target, base, values) = match slots.value(self.prog, rhs) {
            Some(NewValue::Addr(t, None)) => (Some(t), rhs.clone(), vec![Ok((g, PVal::Null))]),
            Some(NewValue::Addr(t, Some(p))) => {
                let values = self.eval_ptr(g, &p, line);
                (Some(t), p, values)
            }
            Some(NewValue::Copy(q)) => {
                let t = g.constant(q).map(super::slots::decode);
                let p = slots.as_pointer(q).expect("a slot");
                let values = self.eval_ptr(g, &p, line);
                (t, p, values)
            }
            None => (None, rhs.clone(), vec![Ok((g, PVal::Unknown))]),
        };
        let mut out = vec![];
        for r in values {
            match r {
                Ok((_, PVal::Null | PVal::Unknown | PVal::Member(..)))
                    if matches!(target, Some(super::slots::Target::Field(_))) =>
                {
                    let what = "the pointer to the cell whose field a slot addresses";
                    out.push(Err(self.deref_error(&base, line, what)));
                }
                Ok((g, val)) => out.extend(self.store(g, &lhs, val, line).into_iter().map(|r| {
                    r.map(|mut g| {
                        g.set_constant(x, target.map(super::slots::encode));
                        g
                    })
                })),
                Err(e) => out.push(Err(e)),
            }
        }
        out
    }

    /// `*p = *q` for an analysed struct: one assignment per member, in order (the cells are
    /// the same or disjoint, so the order does not matter). Members that are structs or
    /// arrays are copied as wholes, which only checks their dereferences.
    fn assign_fields(
        &self,
        g: Graph,
        lhs: &Expr,
        rhs: &Expr,
        s: StructId,
        line: u32,
    ) -> Vec<Result<Graph, AbsError>> {
        let member = |base: &Expr, f: &Field| Expr {
            kind: ExprKind::Field(Box::new(base.clone()), f.offset, f.name.clone()),
            ty: f.ty.clone(),
        };
        let mut cur: Vec<Result<Graph, AbsError>> = vec![Ok(g)];
        // Bit-fields carry no predicates; the other members' copies check the dereferences.
        for f in self
            .prog
            .strukt(s)
            .fields
            .iter()
            .filter(|f| f.bits.is_none())
        {
            let (l, r) = (member(lhs, f), member(rhs, f));
            cur = cur
                .into_iter()
                .flat_map(|res| match res {
                    Ok(g) => self.assign(g, &l, &r, line),
                    Err(e) => vec![Err(e)],
                })
                .collect();
        }
        cur
    }

    /// `memset(p, 0, sizeof *p)` on an analysed struct: `p` must point to a cell, whose
    /// members are then set to zero in turn (`p->f = 0`, NULL for a pointer, the members of
    /// an embedded struct likewise; an array member's contents are not tracked and a bit-field
    /// carries no predicates); the call's result, if kept, is `p`. `None` unless the byte is
    /// 0, the length is the struct's size and every member is one of these kinds.
    pub fn zero_struct(
        &self,
        g: Graph,
        lhs: Option<&Expr>,
        args: &[Expr],
        line: u32,
    ) -> Option<Vec<Result<Graph, AbsError>>> {
        let [dst, byte, len] = args else { return None };
        let p = match &dst.kind {
            ExprKind::Cast(a) => a.as_ref(),
            _ => dst,
        };
        let Some(Type::Struct(s)) = p.ty.pointee() else {
            return None;
        };
        let size = self.prog.size_of(&Type::Struct(*s));
        if !self.v.node_type(*s)
            || const_value(&g, byte)? != 0
            || u64::try_from(const_value(&g, len)?).ok()? != size
        {
            return None;
        }
        let cell = Expr {
            kind: ExprKind::Deref(Box::new(p.clone())),
            ty: Type::Struct(*s),
        };
        let mut stores = vec![];
        self.zero_members(&cell, *s, &mut stores)?;
        let mut cur: Vec<Result<Graph, AbsError>> = (self.deref_ok(g, p, size, line).into_iter())
            .map(|r| r.map(|(g, ())| g))
            .collect();
        let result = lhs.map(|l| (l.clone(), dst.clone()));
        for (l, zero) in stores.iter().chain(&result) {
            cur = cur
                .into_iter()
                .flat_map(|res| match res {
                    Ok(g) => self.assign(g, l, zero, line),
                    Err(e) => vec![Err(e)],
                })
                .collect();
        }
        Some(cur)
    }

    /// The members of `cell` (of struct `s`) a zeroing sets, each with its zero; `None` if
    /// one is of a kind [`Self::zero_struct`] does not set.
    fn zero_members(&self, cell: &Expr, s: StructId, out: &mut Vec<(Expr, Expr)>) -> Option<()> {
        let def = self.prog.strukt(s);
        if def.is_union {
            return None;
        }
        for f in def.fields.iter().filter(|f| f.bits.is_none()) {
            let member = Expr {
                kind: ExprKind::Field(Box::new(cell.clone()), f.offset, f.name.clone()),
                ty: f.ty.clone(),
            };
            match &f.ty {
                Type::Int(_) | Type::Ptr(_) => {
                    let zero = Expr {
                        kind: ExprKind::Const(0),
                        ty: f.ty.clone(),
                    };
                    out.push((member, zero));
                }
                Type::Struct(inner) => self.zero_members(&member, *inner, out)?,
                Type::Array(..) => {}
                Type::Void | Type::Func => return None,
            }
        }
        Some(())
    }

    /// Stores a pointer value into an lvalue.
    pub fn store(
        &self,
        mut g: Graph,
        lhs: &Expr,
        val: PVal,
        line: u32,
    ) -> Vec<Result<Graph, AbsError>> {
        if !self.retype(&mut g, val, &lhs.ty) {
            return vec![Err(self.deref_error(
                lhs,
                line,
                "a block smaller than its struct",
            ))];
        }
        if let ExprKind::Var(x) = &lhs.kind
            && self.v.slots.base(*x).is_some()
        {
            // A slot's target is set by its assignment, after the store.
            g.set_constant(*x, None);
        }
        match &lhs.kind {
            ExprKind::Var(x) => match self.v.var(*x) {
                Some(i) => {
                    // A pointer to plain data other than `void *` denotes raw blocks only:
                    // through it, a node's fields would change unseen.
                    let data = self.v.vars[i].strukt == RAW
                        && lhs.ty.pointee().is_some_and(|t| *t != Type::Void);
                    let val = only(&g, val, |ty| !data || raw_info(ty).is_some());
                    let mut g2 = g.clone();
                    self.set_var(&mut g2, i, val);
                    self.order_after_pointer(&g, &mut g2, *x, val);
                    self.commit(&g, g2)
                        .into_iter()
                        .flat_map(|g| self.focus_reach(g, i))
                        .map(Ok)
                        .collect()
                }
                None => vec![Ok(g)],
            },
            ExprKind::Field(base, _, name) => {
                let ExprKind::Deref(p) = &base.kind else {
                    return self
                        .check(g, lhs, line)
                        .into_iter()
                        .map(|r| r.map(|(g, ())| g))
                        .collect();
                };
                let fi = self.analysed_ptr(&p.ty).and_then(|s| self.v.field(s, name));
                let mut out = vec![];
                for r in self.eval_ptr(g, p, line) {
                    match r {
                        Ok((g, PVal::Node(a))) => match fi {
                            Some(f) if !self.v.carries(g.ty[a], self.v.fields[f].strukt) => out
                                .push(Err(self.deref_error(
                                    p,
                                    line,
                                    "a pointer cast to another struct",
                                ))),
                            Some(f) => {
                                if let Some(e) = self.owned_lost(&g, a, Some(f), line) {
                                    out.push(Err(e));
                                    continue;
                                }
                                // A raw field holds raw blocks only.
                                let val = only(&g, val, |ty| self.v.may_target(f, ty));
                                let mut g2 = g.clone();
                                let val = self.store_inner(&mut g2, a, f, val);
                                self.set_field(&mut g2, a, f, val);
                                self.order_after_link(&g, &mut g2, a, f, val);
                                out.extend(self.commit(&g, g2).map(Ok));
                            }
                            None => out.push(Ok(g)),
                        },
                        Ok(_) => {
                            out.push(Err(self.deref_error(p, line, "the dereferenced pointer")))
                        }
                        Err(e) => out.push(Err(e)),
                    }
                }
                out
            }
            _ => self
                .check(g, lhs, line)
                .into_iter()
                .map(|r| r.map(|(g, ())| g))
                .collect(),
        }
    }

    /// `assume(cond)` or its negation.
    pub fn assume(
        &self,
        g: Graph,
        cond: &Expr,
        positive: bool,
        line: u32,
    ) -> Vec<Result<Graph, AbsError>> {
        let want = Kleene::from_bool(positive);
        self.eval_cond(g, cond, line)
            .into_iter()
            .filter_map(|r| match r {
                Ok((mut g, k)) if k == want || k == H => {
                    self.learn(&mut g, cond, positive);
                    Some(Ok(g))
                }
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            })
            .collect()
    }

    /// `lhs = malloc(...)` / `calloc`: NULL, or a new node of the pointee type. Through a
    /// `void *` the node is raw (its type encodes its size and whether it is zeroed) until it
    /// is stored into a pointer to an analysed struct. A block smaller than the struct (or of
    /// unknown size) is not a node: the value is unknown.
    pub fn alloc(
        &self,
        g: Graph,
        lhs: Option<&Expr>,
        zeroed: bool,
        size: Option<u32>,
        line: u32,
    ) -> Vec<Result<Graph, AbsError>> {
        let untracked = |what: &str| {
            vec![Err(AbsError {
                end: PathEnd::MemoryLost,
                message: format!(
                    "line {line}: cannot prove that no memory becomes unreachable (valid-memtrack): {what}"
                ),
                unsupported: false,
            })]
        };
        let Some(lhs) = lhs else {
            return if self.memtrack {
                untracked("the allocated block is not stored")
            } else {
                vec![Ok(g)]
            };
        };
        let s = match (self.analysed_ptr(&lhs.ty), lhs.ty.pointee(), size) {
            (Some(s), _, Some(n)) if u64::from(n) >= self.prog.size_of(&Type::Struct(s)) => s,
            // A block for a pointer to plain data (`void *`, `int *`, a raw field); of
            // unknown size, it can only be freed.
            (None, Some(t), n)
                if super::vocab::plain(self.prog, t, 0)
                    && (self.raw_field(lhs) || self.v.vars.iter().any(|x| x.strukt == RAW)) =>
            {
                match n {
                    Some(n) if n < RAW_SIZE_LIMIT => raw(n, zeroed),
                    _ => UNKNOWN_BLOCK,
                }
            }
            _ if self.memtrack => {
                return untracked("the allocated block is not a node of the graph");
            }
            _ => return self.store(g, lhs, PVal::Unknown, line),
        };
        let mut out = if self.prog.alloc_may_fail {
            self.store(g.clone(), lhs, PVal::Null, line)
        } else {
            vec![]
        };
        let mut g1 = g;
        let u = g1.add_node(s);
        self.init_fields(&mut g1, u, s, zeroed);
        out.extend(self.store(g1, lhs, PVal::Node(u), line));
        out
    }

    /// Whether `lhs` is a raw field of a node (`p->data`).
    fn raw_field(&self, lhs: &Expr) -> bool {
        let ExprKind::Field(base, _, name) = &lhs.kind else {
            return false;
        };
        let ExprKind::Deref(p) = &base.kind else {
            return false;
        };
        self.analysed_ptr(&p.ty)
            .and_then(|s| self.v.field(s, name))
            .is_some_and(|f| self.v.fields[f].raw)
    }

    /// The fields of a new node of type `s`: uninitialised, or NULL when zeroed.
    /// A carrier's other embedded members get nodes of their own (see
    /// [`super::vocab::Member`]), initialised the same way.
    pub(super) fn init_fields(&self, g: &mut Graph, u: usize, s: StructId, zeroed: bool) {
        let mut fresh = vec![u];
        for f in self.v.member_fields(s) {
            let p = self.v.field_pred(f);
            let t = self.v.fields[f].target;
            let c = match (0..g.n).find(|w| g.get(self.v, p, &[u, *w]) == T) {
                Some(c) => c,
                None => g.add_node(t),
            };
            for w in 0..g.n {
                g.set(self.v, p, &[u, w], Kleene::from_bool(w == c));
            }
            g.set(self.v, self.v.undef(f), &[u], F);
            self.init_own_fields(g, c, t, zeroed);
            fresh.push(c);
        }
        self.init_own_fields(g, u, s, zeroed);
        *g = self.fresh_instr(g.clone(), &fresh);
    }

    /// The fields and data of node `u` of type `s` but its member fields: uninitialised, or
    /// NULL when zeroed.
    fn init_own_fields(&self, g: &mut Graph, u: usize, s: StructId, zeroed: bool) {
        for f in 0..self.v.fields.len() {
            if self.v.carries(s, self.v.fields[f].strukt) && !self.v.fields[f].member {
                let p = self.v.field_pred(f);
                for w in 0..g.n {
                    g.set(self.v, p, &[u, w], F);
                }
                g.set(self.v, self.v.undef(f), &[u], Kleene::from_bool(!zeroed));
            }
        }
        self.init_data(g, u, s, zeroed);
    }

    /// A raw node stored into a pointer to struct `s` becomes a node of type `s` (if it is
    /// large enough; otherwise the store is an abstract error).
    fn retype(&self, g: &mut Graph, val: PVal, ty: &Type) -> bool {
        let (PVal::Node(u), Some(s)) = (val, self.analysed_ptr(ty)) else {
            return true;
        };
        let Some((size, zeroed)) = raw_info(g.ty[u]) else {
            return true;
        };
        if u64::from(size) < self.prog.size_of(&Type::Struct(s)) {
            return false;
        }
        g.ty[u] = s;
        self.init_fields(g, u, s, zeroed);
        true
    }

    /// Instrumentation values of the tuples of new nodes isolated from the rest, from their
    /// formulas; the other tuples keep their values (the spec's formulas do not depend on
    /// isolated nodes).
    fn fresh_instr(&self, mut g: Graph, us: &[usize]) -> Graph {
        for inst in &self.v.instr {
            let decl = self.v.decl(inst.pred);
            let vals: Vec<(Vec<usize>, Kleene)> = {
                let ev = Eval::new(self.v, &g, inst, None);
                tuples(&ev.nodes, decl.arity)
                    .into_iter()
                    .filter(|t| t.iter().any(|w| us.contains(w)))
                    .map(|t| {
                        let k = ev.instance(&t);
                        (t, k)
                    })
                    .collect()
            };
            for (t, k) in vals {
                g.set(self.v, inst.id, &t, k);
            }
        }
        g
    }

    /// `free(p)`: the node goes away; pointers to it become invalid.
    pub fn free(&self, g: Graph, arg: &Expr, line: u32) -> Vec<Result<Graph, AbsError>> {
        let mut out = vec![];
        for r in self.eval_ptr(g, arg, line) {
            match r {
                Ok((g, PVal::Null)) => out.push(Ok(g)),
                Ok((g, PVal::Node(u)))
                    if self.is_cell(&g, u)
                        || self.view_offset(&arg.ty, g.ty[u]) != 0
                        || self.is_member(&g, u) =>
                {
                    out.push(Err(self.free_cell(line)))
                }
                Ok((g, PVal::Node(u))) => {
                    for (g, members) in self.focus_members(g, u) {
                        let mut gone = vec![u];
                        match members {
                            Some(ms) => gone.extend(ms),
                            None if !self.memtrack => {}
                            None => {
                                out.push(Err(self.member_unknown(line)));
                                continue;
                            }
                        }
                        out.push(self.release_nodes(g, &gone, line));
                    }
                }
                Ok((_, PVal::Unknown | PVal::Member(..))) => out.push(Err(AbsError {
                    end: PathEnd::InvalidDeref(vec![arg.clone()]),
                    message: format!("line {line}: cannot prove that the freed pointer is valid"),
                    unsupported: false,
                })),
                Err(e) => out.push(Err(e)),
            }
        }
        out
    }

    /// Frees single-cell nodes `gone` (one, or a carrier with the nodes of its other embedded
    /// members). The fields of other cells that may point to them dangle afterwards (a
    /// doubly-linked list freed from its head leaves the next cell's `prev` pointing to freed
    /// memory, which is no error until it is dereferenced): their edges go and `undef` takes
    /// their place (1 where an edge was 1, at least 1/2 where it was 1/2), so that a later
    /// load gives an unknown pointer, whose dereference the checks do not let pass. Variables
    /// pointing to them become invalid.
    pub(super) fn release_nodes(
        &self,
        g: Graph,
        gone: &[usize],
        line: u32,
    ) -> Result<Graph, AbsError> {
        if let Some(e) = gone
            .iter()
            .find_map(|u| self.owned_lost(&g, *u, None, line))
        {
            return Err(e);
        }
        let mut new = g.clone();
        for f in 0..self.v.fields.len() {
            let p = self.v.field_pred(f);
            for a in (0..g.n).filter(|a| !gone.contains(a)) {
                for &u in gone {
                    let k = g.get(self.v, p, &[a, u]);
                    if k == F {
                        continue;
                    }
                    let und = new.get(self.v, self.v.undef(f), &[a]);
                    new.set(self.v, p, &[a, u], F);
                    let dangling = if k == T { T } else { join(und, H) };
                    new.set(self.v, self.v.undef(f), &[a], dangling);
                }
            }
        }
        let Some(mut g) = self.coerce(self.difference_by(&g, new, Some(gone))) else {
            return Err(AbsError {
                end: PathEnd::FreedWhilePointedTo,
                message: format!(
                    "line {line}: the shape graph is inconsistent once the cells pointing to the \
                     freed one dangle"
                ),
                unsupported: false,
            });
        };
        for x in 0..self.v.vars.len() {
            if gone.iter().any(|u| g.get(self.v, self.v.pt(x), &[*u]) != F) {
                g.invalid[x] = T;
            }
        }
        let keep: Vec<bool> = (0..g.n).map(|w| !gone.contains(&w)).collect();
        Ok(self.remove_nodes(g, &keep))
    }

    /// Whether node `u` may be the node of a carrier's other embedded member.
    pub(super) fn is_member(&self, g: &Graph, u: usize) -> bool {
        (0..self.v.fields.len())
            .filter(|f| self.v.fields[*f].member)
            .any(|f| (0..g.n).any(|a| g.get(self.v, self.v.field_pred(f), &[a, u]) != F))
    }

    /// The nodes of the other embedded members of single-cell carrier node `u`, each
    /// focused; `None` where one is not a node.
    pub(super) fn focus_members(&self, g: Graph, u: usize) -> Vec<(Graph, Option<Vec<usize>>)> {
        let mut cur = vec![(g, Some(vec![]))];
        let ty = cur[0].0.ty[u];
        for f in self.v.member_fields(ty) {
            cur = cur
                .into_iter()
                .flat_map(|(g, ms)| match ms {
                    None => vec![(g, None)],
                    Some(ms) => self
                        .focus_field(g, u, f)
                        .into_iter()
                        .map(|(g, val)| match val {
                            PVal::Node(c) => (g, Some([ms.clone(), vec![c]].concat())),
                            _ => (g, None),
                        })
                        .collect(),
                })
                .collect();
        }
        cur
    }

    /// A member's node that the graph has lost track of.
    pub(super) fn member_unknown(&self, line: u32) -> AbsError {
        AbsError {
            end: PathEnd::MemoryLost,
            message: format!(
                "line {line}: cannot prove that no memory becomes unreachable (valid-memtrack): \
                 the node of a freed struct's embedded list head is not known"
            ),
            unsupported: false,
        }
    }

    /// Makes variables dead or uninitialised: NULL and invalid (`invalid` = T) or just NULL.
    pub fn reset_vars(&self, mut g: Graph, vars: &[VarId], invalid: bool) -> Graph {
        let pointers: Vec<VarId> = vars
            .iter()
            .copied()
            .filter(|x| self.v.cell_var(*x).is_none())
            .collect();
        let vars = &pointers[..];
        for x in vars {
            self.set_int_var(&mut g, *x, None);
        }
        let mut g2 = g.clone();
        for x in vars {
            if let Some(i) = self.v.var(*x) {
                self.set_var(&mut g2, i, PVal::Null);
                g2.invalid[i] = Kleene::from_bool(invalid);
            }
        }
        let mut g2 = self.difference(&g, g2);
        // The predicates indexed by a pointer that now points nowhere are re-evaluated on
        // every tuple (e.g. a reachability from it becomes false everywhere), also where an
        // earlier join left them at 1/2: differencing re-evaluates only tuples whose inputs
        // changed.
        for inst in self.v.instr.iter().filter(|i| {
            i.pointer
                .is_some_and(|x| vars.iter().any(|y| self.v.var(*y) == Some(x)))
        }) {
            let arity = self.v.decl(inst.pred).arity;
            let vals: Vec<(Vec<usize>, Kleene)> = {
                let ev = Eval::new(self.v, &g2, inst, None);
                tuples(&ev.nodes, arity)
                    .into_iter()
                    .map(|t| {
                        let k = ev.instance(&t);
                        (t, k)
                    })
                    .collect()
            };
            for (t, k) in vals {
                g2.set(self.v, inst.id, &t, k);
            }
        }
        g2
    }

    /// Whether a predicate indexed by tracked pointer `x` still holds (or may) somewhere.
    pub fn indexed_somewhere(&self, g: &Graph, x: usize) -> bool {
        self.v
            .instr
            .iter()
            .filter(|i| i.pointer == Some(x))
            .any(|inst| {
                let arity = self.v.decl(inst.pred).arity;
                tuples(&(0..g.n).collect::<Vec<_>>(), arity)
                    .iter()
                    .any(|t| g.get(self.v, inst.id, t) != F)
            })
    }

    /// Removes the nodes not in `keep`: first disconnects them (so that instrumentation
    /// predicates are re-evaluated where their formulas saw them), then drops them.
    pub fn remove_nodes(&self, g: Graph, keep: &[bool]) -> Graph {
        if keep.iter().all(|k| *k) {
            return g;
        }
        let mut cut = g.clone();
        for u in (0..g.n).filter(|u| !keep[*u]) {
            cut = cut.disconnected(self.v, u);
        }
        // Only edges to and from the removed nodes change.
        let gone: Vec<usize> = (0..g.n).filter(|u| !keep[*u]).collect();
        let mut g = self.difference_by(&g, cut, Some(&gone));
        g.retain(keep);
        g
    }

    /// Garbage collection: drops the nodes no tracked pointer can reach.
    pub fn collect_garbage(&self, g: Graph) -> Graph {
        let live = g.live_nodes(self.v);
        self.remove_nodes(g, &live)
    }

    /// Blur: garbage collection and canonical abstraction.
    pub fn blur(&self, g: Graph) -> Graph {
        self.absorb(self.collect_garbage(g)).blur(self.v)
    }
}

/// The value of an integer expression that is a constant or a copy of a known one (a
/// conversion that would change the value gives `None`).
pub fn const_value(g: &Graph, e: &Expr) -> Option<i64> {
    let v = match &e.kind {
        ExprKind::Const(n) => Some(*n),
        ExprKind::Var(x) => g.constant(*x),
        ExprKind::Cast(inner) if inner.ty.as_int().is_some() => const_value(g, inner),
        ExprKind::Unary(UnOp::Neg, inner) => const_value(g, inner)?.checked_neg(),
        _ => None,
    }?;
    match e.ty.as_int() {
        Some(t) if super::data::fits(v, t) => Some(v),
        _ => None,
    }
}

/// The type of raw nodes (allocated through `void *`): every id from here up.
pub const RAW: StructId = StructId(0x8000_0000);
const RAW_SIZE_LIMIT: u32 = 0x1000_0000;

/// The raw type of a block whose size is not known (a block absorbed into its owner whose
/// size the vocabulary has no predicate for): it can be freed but not read.
pub const UNKNOWN_BLOCK: StructId = RAW;

/// The raw type of a block of `size` bytes, zeroed or not.
pub fn raw(size: u32, zeroed: bool) -> StructId {
    StructId(RAW.0 | (size << 1) | u32::from(zeroed))
}

/// Size and zeroedness of a raw node type.
pub fn raw_info(s: StructId) -> Option<(u32, bool)> {
    (s.0 & RAW.0 != 0).then_some(((s.0 & !RAW.0) >> 1, s.0 & 1 == 1))
}

fn is_zero(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Const(0))
}

/// `val`, or an unknown pointer if it is a node whose type `ok` rejects.
fn only(g: &Graph, val: PVal, ok: impl Fn(StructId) -> bool) -> PVal {
    match val {
        PVal::Node(u) if !ok(g.ty[u]) => PVal::Unknown,
        val => val,
    }
}

/// Pointer equality of two evaluated values.
fn ptr_eq(a: PVal, b: PVal) -> Kleene {
    if let Some(k) = super::inner::member_eq(a, b) {
        return k;
    }
    match (a, b) {
        (PVal::Unknown, _) | (_, PVal::Unknown) => H,
        (PVal::Null, PVal::Null) => T,
        (PVal::Node(x), PVal::Node(y)) => Kleene::from_bool(x == y),
        _ => F,
    }
}

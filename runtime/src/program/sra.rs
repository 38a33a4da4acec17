//! Scalar replacement of struct variables: a local or global variable of struct type whose
//! address is never taken (`struct list l; l.head = n;`) becomes one scalar variable per
//! field (`l.head`, `l.tail`), so that the engines see the pointers a program keeps in a
//! holder struct on the stack as the pointer variables they are. A parameter through which
//! a function reads and writes such a struct (`void add_last(list *l, node *n)` called as
//! `add_last(&l, n)`) becomes one pointer parameter per field (`l->first`, `l->last`, bound
//! to `&l.first`, `&l.last`), so that `l->last` is `*(l->last)` of a pointer to a variable.
//!
//! Consumes a lowered [`Program`]; produces the same program with every such variable and
//! parameter replaced. A struct qualifies when it (and every struct nested in it) is a
//! complete non-union struct of scalar fields without bit-fields. A variable of such a
//! struct qualifies when it is not a parameter and occurs only as the base of a chain of
//! field selections ending at a scalar field, as the variable of a `Havoc`, as one side of
//! a whole-struct assignment, or as `&v` passed to a qualifying parameter. A parameter
//! pointing to such a struct qualifies when its function is defined, called only directly
//! and not the entry, it is never assigned, it occurs only as `p->f...` ending at a scalar
//! field or passed on to a qualifying parameter, and every call passes `&v` of a
//! qualifying variable or a qualifying parameter. The rewrite is exact: no pointer other
//! than those parameters can reach the variable's block, so its fields are independent
//! cells; a `Havoc` of the struct havocs each field, a struct assignment copies each field,
//! and a parameter bound to `&v` reads and writes `v`'s fields through their addresses. It
//! runs once in the front end, so every engine, path formula and replay sees the same
//! program.

use super::ir::{
    Callee, Edge, Expr, ExprKind, FuncId, Function, Loc, Op, Program, Type, VarId, VarInfo, VarKind,
};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{BTreeMap, BTreeSet};

/// Structs with more scalar leaves than this stay whole (their copies would be long chains).
const MAX_LEAVES: usize = 24;

/// A scalar leaf of a struct: the fields selected from the outermost struct down (offset,
/// name and type of each); the last one's type is scalar.
#[derive(Clone, Debug)]
pub(super) struct Leaf {
    pub(super) path: Vec<(u64, String, Type)>,
}

impl Leaf {
    pub(super) fn ty(&self) -> &Type {
        &self.path.last().expect("a leaf lies inside its struct").2
    }

    pub(super) fn offsets(&self) -> impl Iterator<Item = u64> + '_ {
        self.path.iter().map(|(o, _, _)| *o)
    }

    pub(super) fn names(&self) -> String {
        let names: Vec<&str> = self.path.iter().map(|(_, n, _)| n.as_str()).collect();
        names.join(".")
    }
}

/// The variables and parameters to replace, each with its struct's leaves.
#[derive(Default)]
struct Candidates {
    vars: BTreeMap<VarId, Vec<Leaf>>,
    params: BTreeMap<VarId, Vec<Leaf>>,
}

impl Candidates {
    fn contains(&self, v: VarId) -> bool {
        self.vars.contains_key(&v) || self.params.contains_key(&v)
    }

    fn is_empty(&self) -> bool {
        self.vars.is_empty() && self.params.is_empty()
    }
}

/// Replaces every qualifying struct variable and parameter of `prog` by its scalar fields.
pub fn scalarize(prog: &mut Program) {
    let cands = candidates(prog);
    if cands.is_empty() {
        return;
    }
    let params: Vec<Vec<VarId>> = prog.functions.iter().map(|f| f.params.clone()).collect();
    let replaced = replacements(prog, &cands);
    for f in &mut prog.functions {
        f.locals.retain(|v| !replaced.contains_key(v));
    }
    prog.globals.retain(|v| !replaced.contains_key(v));
    for f in 0..prog.functions.len() {
        let cfa = expand_cfa(&prog.functions[f], |op| {
            ((), vec![], rewrite_op(prog, op, &params, &replaced))
        });
        prog.functions[f].cfa = cfa;
        prog.functions[f].rename_in_scope(|x| match replaced.get(&x) {
            Some(fresh) => fresh.iter().map(|(_, v)| *v).collect(),
            None => vec![x],
        });
    }
}

/// The scalar leaves of a struct type, or None when it has unions, bit-fields, arrays or
/// incomplete structs, or too many leaves.
pub(super) fn leaves(prog: &Program, ty: &Type) -> Option<Vec<Leaf>> {
    if !matches!(ty, Type::Struct(_)) {
        return None;
    }
    let mut out = vec![];
    collect_leaves(prog, ty, &mut vec![], &mut out)?;
    (!out.is_empty() && out.len() <= MAX_LEAVES).then_some(out)
}

fn collect_leaves(
    prog: &Program,
    ty: &Type,
    path: &mut Vec<(u64, String, Type)>,
    out: &mut Vec<Leaf>,
) -> Option<()> {
    match ty {
        t if t.is_scalar() => {
            out.push(Leaf { path: path.clone() });
            Some(())
        }
        Type::Struct(s) => {
            let def = prog.strukt(*s);
            if def.is_union || !def.complete || def.fields.is_empty() {
                return None;
            }
            for f in &def.fields {
                if f.bits.is_some() {
                    return None;
                }
                path.push((f.offset, f.name.clone(), f.ty.clone()));
                collect_leaves(prog, &f.ty, path, out)?;
                path.pop();
            }
            Some(())
        }
        _ => None,
    }
}

/// The struct variables and parameters that qualify: the candidates by type, less those
/// used otherwise, until no more are dropped (dropping a parameter drops what is passed
/// to it).
fn candidates(prog: &Program) -> Candidates {
    let mut cands = typed_candidates(prog);
    loop {
        let banned = uses(prog, &cands);
        if banned.is_empty() {
            return cands;
        }
        cands.vars.retain(|v, _| !banned.contains(v));
        cands.params.retain(|v, _| !banned.contains(v));
    }
}

/// Non-parameter variables of a qualifying struct type, and never-assigned parameters
/// pointing to one of functions called only directly.
fn typed_candidates(prog: &Program) -> Candidates {
    let mut params: BTreeSet<VarId> = BTreeSet::new();
    let mut eligible: BTreeSet<VarId> = BTreeSet::new();
    let facts = CallFacts::of(prog);
    for f in &prog.functions {
        params.extend(f.params.iter().chain(f.va_area.iter()).copied());
    }
    eligible.extend(facts.by_reference_params(prog));
    let mut out = Candidates::default();
    for (i, v) in prog.vars.iter().enumerate() {
        let id = VarId(i as u32);
        if !params.contains(&id) {
            if let Some(ls) = leaves(prog, &v.ty) {
                out.vars.insert(id, ls);
            }
        } else if eligible.contains(&id)
            && let Some(ls) = v.ty.pointee().and_then(|t| leaves(prog, t))
        {
            out.params.insert(id, ls);
        }
    }
    out
}

/// Which functions are called directly or have their address taken, and which variables
/// some operation assigns.
pub(super) struct CallFacts {
    pub(super) by_pointer: BTreeSet<FuncId>,
    called: BTreeSet<FuncId>,
    assigned: BTreeSet<VarId>,
}

impl CallFacts {
    pub(super) fn of(prog: &Program) -> CallFacts {
        let mut facts = CallFacts {
            by_pointer: BTreeSet::new(),
            called: BTreeSet::new(),
            assigned: BTreeSet::new(),
        };
        for f in &prog.functions {
            for e in f.cfa.edge_weights() {
                match &e.op {
                    Op::Havoc(x) => {
                        facts.assigned.insert(*x);
                    }
                    op => {
                        if let Some(ExprKind::Var(x)) = assigned_var(op) {
                            facts.assigned.insert(*x);
                        }
                    }
                }
                if let Op::Call {
                    callee: Callee::Func(g),
                    ..
                } = &e.op
                {
                    facts.called.insert(*g);
                }
                for x in e.op.exprs() {
                    x.visit(&mut |y| {
                        if let ExprKind::FuncAddr(g) = y.kind {
                            facts.by_pointer.insert(g);
                        }
                    });
                }
            }
        }
        facts
    }

    /// The never-assigned parameters of the functions that could take a struct by
    /// reference: defined, not from the library, not the entry or the initialiser, called
    /// directly and never through a pointer, not variadic.
    pub(super) fn by_reference_params(&self, prog: &Program) -> Vec<VarId> {
        let mut out = vec![];
        for (i, f) in prog.functions.iter().enumerate() {
            let id = FuncId(i as u32);
            let callable = f.defined && !f.library && id != prog.main && id != prog.init;
            if callable
                && self.called.contains(&id)
                && !self.by_pointer.contains(&id)
                && f.va_area.is_none()
            {
                out.extend(f.params.iter().filter(|p| !self.assigned.contains(p)));
            }
        }
        out
    }
}

fn assigned_var(op: &Op) -> Option<&ExprKind> {
    match op {
        Op::Assign { lhs, .. } => Some(&lhs.kind),
        Op::Call { lhs: Some(l), .. } | Op::CallPtr { lhs: Some(l), .. } => Some(&l.kind),
        _ => None,
    }
}

/// The candidates used other than as the module describes.
fn uses(prog: &Program, cands: &Candidates) -> BTreeSet<VarId> {
    let mut banned = BTreeSet::new();
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            match &e.op {
                Op::Havoc(v) if cands.params.contains_key(v) => {
                    banned.insert(*v);
                }
                Op::Call {
                    lhs,
                    callee: Callee::Func(g),
                    args,
                } => {
                    let params = &prog.func(*g).params;
                    for (i, a) in args.iter().enumerate() {
                        match params.get(i).filter(|p| cands.params.contains_key(p)) {
                            Some(p) if binds(prog, cands, *p, a) => {}
                            Some(p) => {
                                banned.insert(*p);
                                escaping(a, cands, &mut banned);
                            }
                            None => escaping(a, cands, &mut banned),
                        }
                    }
                    if let Some(l) = lhs {
                        escaping(l, cands, &mut banned);
                    }
                }
                op => {
                    for x in op_operands(op) {
                        escaping(x, cands, &mut banned);
                    }
                }
            }
        }
    }
    banned.retain(|v| cands.contains(*v));
    banned
}

/// Whether `a`, passed to the candidate parameter `p`, is `&v` of a candidate variable or
/// a candidate parameter, of `p`'s type.
fn binds(prog: &Program, cands: &Candidates, p: VarId, a: &Expr) -> bool {
    let ty = &prog.var(p).ty;
    match &a.kind {
        ExprKind::AddrOf(x) => match x.kind {
            ExprKind::Var(v) => {
                cands.vars.contains_key(&v) && &prog.var(v).ty.clone().ptr_to() == ty
            }
            _ => false,
        },
        ExprKind::Var(q) => cands.params.contains_key(q) && &prog.var(*q).ty == ty,
        _ => false,
    }
}

/// The expressions of `op` in which a candidate must occur only through leaf fields: all
/// of them, except the whole-struct sides of a struct assignment (whose variables are
/// copied field by field).
fn op_operands(op: &Op) -> Vec<&Expr> {
    match op {
        Op::Assign { lhs, rhs } if matches!(lhs.ty, Type::Struct(_)) => [lhs, rhs]
            .into_iter()
            .filter(|e| !matches!(e.kind, ExprKind::Var(_)))
            .collect(),
        _ => op.exprs(),
    }
}

/// Adds to `banned` every variable that occurs in `e` other than as the base of a field
/// chain ending at a scalar (`v.f` of a candidate variable, `p->f` of a candidate
/// parameter).
fn escaping(e: &Expr, cands: &Candidates, banned: &mut BTreeSet<VarId>) {
    if let ExprKind::AddrOf(a) = &e.kind
        && let Some((Base::Var(v) | Base::Param(v), _)) = leaf_access(a)
    {
        // `&v.f`: the field's address, which pointer arithmetic could lead to its
        // neighbours (`container_of`), escapes.
        banned.insert(v);
    }
    if let Some(base) = leaf_access(e) {
        let ok = match base.0 {
            Base::Var(v) => cands.vars.contains_key(&v),
            Base::Param(p) => cands.params.contains_key(&p),
        };
        if ok {
            return;
        }
    }
    match &e.kind {
        ExprKind::Var(v) => {
            banned.insert(*v);
        }
        _ => {
            e.map_children(&mut |c| {
                escaping(c, cands, banned);
                c.clone()
            });
        }
    }
}

/// What a leaf access selects fields of.
#[derive(Clone, Copy)]
pub(super) enum Base {
    /// `v.f...`
    Var(VarId),
    /// `p->f...`
    Param(VarId),
}

/// `v.f1...fn` or `p->f1...fn` of scalar type: the base and the field offsets from the
/// outside in.
pub(super) fn leaf_access(e: &Expr) -> Option<(Base, Vec<u64>)> {
    if !e.ty.is_scalar() {
        return None;
    }
    let mut offsets = vec![];
    let mut cur = e;
    loop {
        match &cur.kind {
            ExprKind::Field(base, off, _) => {
                offsets.push(*off);
                cur = base;
            }
            ExprKind::Var(v) if !offsets.is_empty() => {
                offsets.reverse();
                return Some((Base::Var(*v), offsets));
            }
            ExprKind::Deref(a) if !offsets.is_empty() => {
                let ExprKind::Var(p) = a.kind else {
                    return None;
                };
                offsets.reverse();
                return Some((Base::Param(p), offsets));
            }
            _ => return None,
        }
    }
}

/// The replaced variables and parameters, each with its leaves and the fresh variable of
/// each leaf (a scalar for a variable, a pointer to the leaf's type for a parameter).
type Replaced = BTreeMap<VarId, Vec<(Leaf, VarId)>>;

fn replacements(prog: &mut Program, cands: &Candidates) -> Replaced {
    let mut out = Replaced::new();
    for (v, ls) in &cands.vars {
        let fresh = ls
            .iter()
            .map(|l| (l.clone(), fresh_var(prog, *v, l, ".", l.ty().clone())))
            .collect();
        out.insert(*v, fresh);
    }
    for (p, ls) in &cands.params {
        let fresh: Vec<(Leaf, VarId)> = ls
            .iter()
            .map(|l| {
                (
                    l.clone(),
                    fresh_var(prog, *p, l, "->", l.ty().clone().ptr_to()),
                )
            })
            .collect();
        let VarKind::Local(f) = prog.var(*p).kind else {
            unreachable!("a parameter is a local")
        };
        let params = &mut prog.functions[f.0 as usize].params;
        let at = params
            .iter()
            .position(|x| x == p)
            .expect("p is a parameter");
        params.splice(at..=at, fresh.iter().map(|(_, x)| *x));
        out.insert(*p, fresh);
    }
    out
}

/// A fresh variable like `of`, named `of` `sep` the leaf's fields, added to the globals or
/// to the locals of `of`'s function.
fn fresh_var(prog: &mut Program, of: VarId, l: &Leaf, sep: &str, ty: Type) -> VarId {
    let info = prog.var(of).clone();
    let id = prog.add_var(VarInfo {
        name: format!("{}{sep}{}", info.name, l.names()),
        ty,
        kind: info.kind.clone(),
        line: info.line,
    });
    match info.kind {
        VarKind::Global => prog.globals.push(id),
        VarKind::Local(f) => prog.functions[f.0 as usize].locals.push(id),
    }
    id
}

/// The function's automaton with each operation replaced by the chain `rewrite` gives for
/// it, through fresh locations: a prefix (checks keyed by `K`) and a body of operations
/// (one or more). The edges leaving one location whose prefixes are non-empty and have the
/// same key share one copy of it, so that the branches of a condition stay a branch after
/// it (rather than a choice made before the condition is read).
pub(super) fn expand_cfa<K: PartialEq>(
    f: &Function,
    mut rewrite: impl FnMut(&Op) -> (K, Vec<Op>, Vec<Op>),
) -> DiGraph<Loc, Edge> {
    let mut g: DiGraph<Loc, Edge> = DiGraph::new();
    for n in f.cfa.node_weights() {
        g.add_node(n.clone());
    }
    let expansions: Vec<(K, Vec<Op>, Vec<Op>)> =
        f.cfa.edge_weights().map(|e| rewrite(&e.op)).collect();
    let mut shared: BTreeMap<NodeIndex, NodeIndex> = BTreeMap::new();
    for e in f.cfa.edge_indices() {
        let (from, to) = f.cfa.edge_endpoints(e).expect("edge of the graph");
        let edge = &f.cfa[e];
        let (key, prefix, body) = &expansions[e.index()];
        let siblings: Vec<usize> = f.cfa.edges(from).map(|x| x.id().index()).collect();
        let share = !prefix.is_empty()
            && siblings.len() > 1
            && siblings.iter().all(|i| {
                let (k, p, _) = &expansions[*i];
                !p.is_empty() && k == key
            });
        let chain = |g: &mut DiGraph<Loc, Edge>, at: NodeIndex, ops: &[Op], end: NodeIndex| {
            let mut at = at;
            for (i, op) in ops.iter().enumerate() {
                let next = if i + 1 == ops.len() {
                    end
                } else {
                    g.add_node(Loc::default())
                };
                g.add_edge(
                    at,
                    next,
                    Edge {
                        op: op.clone(),
                        ..edge.clone()
                    },
                );
                at = next;
            }
        };
        if share {
            let start = match shared.get(&from) {
                Some(m) => *m,
                None => {
                    let m = g.add_node(Loc::default());
                    chain(&mut g, from, prefix, m);
                    shared.insert(from, m);
                    m
                }
            };
            chain(&mut g, start, body, to);
        } else {
            let all: Vec<Op> = prefix.iter().chain(body).cloned().collect();
            chain(&mut g, from, &all, to);
        }
    }
    g
}

fn rewrite_op(prog: &Program, op: &Op, params: &[Vec<VarId>], replaced: &Replaced) -> Vec<Op> {
    if !touches(op, replaced) {
        return vec![op.clone()];
    }
    match op {
        Op::Havoc(v) if replaced.contains_key(v) => {
            replaced[v].iter().map(|(_, x)| Op::Havoc(*x)).collect()
        }
        Op::Assign { lhs, rhs } if matches!(lhs.ty, Type::Struct(_)) => {
            let ls = leaves(prog, &lhs.ty).expect("a replaced variable's struct has leaves");
            ls.iter()
                .map(|l| Op::Assign {
                    lhs: rewrite_expr(&select(lhs, l), replaced),
                    rhs: rewrite_expr(&select(rhs, l), replaced),
                })
                .collect()
        }
        Op::Call {
            lhs,
            callee: Callee::Func(g),
            args,
        } => vec![Op::Call {
            lhs: lhs.as_ref().map(|l| rewrite_expr(l, replaced)),
            callee: Callee::Func(*g),
            args: rewrite_args(&params[g.0 as usize], args, replaced),
        }],
        _ => vec![op.map_exprs(&mut |e| rewrite_expr(e, replaced))],
    }
}

/// The arguments of a call whose callee had the parameters `params`, each one bound to a
/// replaced parameter turned into the addresses of the leaves it reaches (`&v` into `&v.f`,
/// a replaced parameter `q` into `q->f`).
fn rewrite_args(params: &[VarId], args: &[Expr], replaced: &Replaced) -> Vec<Expr> {
    let mut out = vec![];
    for (i, a) in args.iter().enumerate() {
        let Some(fresh) = params.get(i).and_then(|p| replaced.get(p)) else {
            out.push(rewrite_expr(a, replaced));
            continue;
        };
        let (base, by_address) = match &a.kind {
            ExprKind::AddrOf(x) => match x.kind {
                ExprKind::Var(v) => (v, true),
                _ => unreachable!("a replaced parameter is bound to &v"),
            },
            ExprKind::Var(q) => (*q, false),
            _ => unreachable!("a replaced parameter is bound to &v or a parameter"),
        };
        for ((leaf, _), (_, x)) in fresh.iter().zip(&replaced[&base]) {
            let var = |ty: Type| Expr {
                kind: ExprKind::Var(*x),
                ty,
            };
            let ptr = leaf.ty().clone().ptr_to();
            out.push(if by_address {
                Expr {
                    kind: ExprKind::AddrOf(Box::new(var(leaf.ty().clone()))),
                    ty: ptr,
                }
            } else {
                var(ptr)
            });
        }
    }
    out
}

fn touches(op: &Op, replaced: &Replaced) -> bool {
    let mut hit = false;
    for e in op.exprs() {
        e.visit(&mut |x| hit |= matches!(x.kind, ExprKind::Var(v) if replaced.contains_key(&v)));
    }
    hit || matches!(op, Op::Havoc(v) if replaced.contains_key(v))
}

/// The leaf `l` of the struct lvalue `e`.
fn select(e: &Expr, l: &Leaf) -> Expr {
    let mut cur = e.clone();
    for (off, name, ty) in &l.path {
        cur = Expr {
            kind: ExprKind::Field(Box::new(cur), *off, name.clone()),
            ty: ty.clone(),
        };
    }
    cur
}

/// `e` with every leaf access to a replaced variable turned into its scalar variable, and
/// every leaf access through a replaced parameter into a dereference of its leaf pointer.
fn rewrite_expr(e: &Expr, replaced: &Replaced) -> Expr {
    if let Some((base, offsets)) = leaf_access(e) {
        let (Base::Var(v) | Base::Param(v)) = base;
        if let Some(fresh) = replaced.get(&v) {
            let (_, x) = fresh
                .iter()
                .find(|(l, _)| l.offsets().eq(offsets.iter().copied()))
                .expect("a leaf access names one of the struct's leaves");
            let var = |ty: Type| Expr {
                kind: ExprKind::Var(*x),
                ty,
            };
            return match base {
                Base::Var(_) => var(e.ty.clone()),
                Base::Param(_) => Expr {
                    kind: ExprKind::Deref(Box::new(var(e.ty.clone().ptr_to()))),
                    ty: e.ty.clone(),
                },
            };
        }
    }
    e.map_children(&mut |c| rewrite_expr(c, replaced))
}

#[cfg(test)]
mod tests {
    use crate::program::cfa;
    use crate::program::frontend::load_source;
    use crate::program::ir::Program;

    fn main_ops(p: &Program) -> Vec<String> {
        let f = p.func(p.func_by_name("main").unwrap());
        f.cfa.edge_weights().map(|e| cfa::op(p, &e.op)).collect()
    }

    fn has_var(p: &Program, name: &str) -> bool {
        p.vars.iter().any(|v| v.name == name)
    }

    #[test]
    fn a_holder_struct_whose_address_is_never_taken_becomes_its_fields() {
        let p = load_source(
            "struct n { struct n *next; }; struct l { struct n *head; struct { int a, b; } in; };
             int main(void) { struct l x; struct l y = {0}; x = y; x.in.b = 2; return x.in.a; }",
        );
        for v in ["x.head", "x.in.a", "x.in.b", "y.head"] {
            assert!(has_var(&p, v), "{v} is a variable");
        }
        let ops = main_ops(&p);
        let havocs = ops.iter().filter(|o| o.contains("<uninitialised>")).count();
        assert_eq!(havocs, 3, "the declaration of x havocs each field: {ops:?}");
        assert!(ops.contains(&"x.in.a = y.in.a".to_string()), "{ops:?}");
        let main = p.func(p.func_by_name("main").unwrap());
        assert!(main.locals.iter().all(|v| p.var(*v).name != "x"));
    }

    #[test]
    fn a_struct_whose_address_is_taken_or_that_is_passed_whole_stays_whole() {
        let p = load_source(
            "struct l { int *head; int n; }; int use(struct l v) { return v.n; }
             int main(void) { struct l a = {0}; struct l b = {0}; struct l *pa = &a;
                              pa->n = 1; return use(b) + a.n; }",
        );
        assert!(!has_var(&p, "a.n") && !has_var(&p, "b.n"));
        assert!(has_var(&p, "a") && has_var(&p, "b"));
    }

    #[test]
    fn a_parameter_bound_to_a_holders_address_becomes_one_pointer_per_field() {
        let p = load_source(
            "struct n { struct n *next; }; struct l { struct n *first, *last; };
             static void put(struct l *h, struct n *x) { if (!h->last) h->first = x; h->last = x; }
             static void put2(struct l *h, struct n *x) { put(h, x); }
             int main(void) { struct l a = {0}; struct n c; put2(&a, &c); return a.first != &c; }",
        );
        let put = p.func(p.func_by_name("put").unwrap());
        let names: Vec<&str> = put.params.iter().map(|v| p.var(*v).name.as_str()).collect();
        assert_eq!(names, ["h->first", "h->last", "x"]);
        let ops = main_ops(&p);
        assert!(
            ops.iter()
                .any(|o| o.contains("put2(&a.first, &a.last, &c)")),
            "{ops:?}"
        );
        let body: Vec<String> = put.cfa.edge_weights().map(|e| cfa::op(&p, &e.op)).collect();
        assert!(body.iter().any(|o| o == "*h->last = x"), "{body:?}");
    }

    #[test]
    fn a_parameter_that_is_compared_or_bound_to_another_address_keeps_its_struct() {
        let p = load_source(
            "struct l { int *first; }; struct l g;
             static int empty(struct l *h) { return h == 0 || h->first == 0; }
             static int get(struct l *h) { return h->first != 0; }
             int main(void) { struct l a = {0}; struct l *q = &g; return empty(&a) + get(&a) + get(q); }",
        );
        for f in ["empty", "get"] {
            let func = p.func(p.func_by_name(f).unwrap());
            assert_eq!(func.params.len(), 1, "{f} keeps its parameter");
        }
        assert!(
            !p.vars.iter().any(|v| v.name == "a.first"),
            "&a is passed to kept parameters"
        );
    }
}

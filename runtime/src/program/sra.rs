//! Scalar replacement of struct variables: a local or global variable of struct type whose
//! address is never taken (`struct list l; l.head = n;`) becomes one scalar variable per
//! field (`l.head`, `l.tail`), so that the engines see the pointers a program keeps in a
//! holder struct on the stack as the pointer variables they are.
//!
//! Consumes a lowered [`Program`]; produces the same program with every such variable
//! replaced. A variable qualifies when it is not a parameter, its struct (and every struct
//! nested in it) is a complete non-union struct of scalar fields without bit-fields, and it
//! occurs only as the base of a chain of field selections ending at a scalar field, as the
//! variable of a `Havoc`, or as one side of a whole-struct assignment. The rewrite is exact:
//! since no pointer can reach the variable's block, its fields are independent cells, a
//! `Havoc` of the struct havocs each field and a struct assignment copies each field. It
//! runs once in the front end, so every engine, path formula and replay sees the same
//! program.

use super::ir::{Edge, Expr, ExprKind, Function, Loc, Op, Program, Type, VarId, VarInfo, VarKind};
use petgraph::graph::DiGraph;
use std::collections::{BTreeMap, BTreeSet};

/// Structs with more scalar leaves than this stay whole (their copies would be long chains).
const MAX_LEAVES: usize = 24;

/// A scalar leaf of a struct: the fields selected from the outermost struct down (offset,
/// name and type of each); the last one's type is scalar.
#[derive(Clone, Debug)]
struct Leaf {
    path: Vec<(u64, String, Type)>,
}

impl Leaf {
    fn ty(&self) -> &Type {
        &self.path.last().expect("a leaf lies inside its struct").2
    }
}

/// Replaces every qualifying struct variable of `prog` by its scalar fields.
pub fn scalarize(prog: &mut Program) {
    let cands = candidates(prog);
    if cands.is_empty() {
        return;
    }
    let replaced = replacements(prog, &cands);
    for f in &mut prog.functions {
        f.locals.retain(|v| !replaced.contains_key(v));
    }
    prog.globals.retain(|v| !replaced.contains_key(v));
    for f in 0..prog.functions.len() {
        let cfa = rewrite_cfa(prog, &prog.functions[f], &replaced);
        prog.functions[f].cfa = cfa;
    }
}

/// The scalar leaves of a struct type, or None when it has unions, bit-fields, arrays or
/// incomplete structs, or too many leaves.
fn leaves(prog: &Program, ty: &Type) -> Option<Vec<Leaf>> {
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

/// The struct variables that qualify, with their leaves.
fn candidates(prog: &Program) -> BTreeMap<VarId, Vec<Leaf>> {
    let params: BTreeSet<VarId> = prog
        .functions
        .iter()
        .flat_map(|f| f.params.iter().chain(f.va_area.iter()).copied())
        .collect();
    let mut cands: BTreeMap<VarId, Vec<Leaf>> = BTreeMap::new();
    for (i, v) in prog.vars.iter().enumerate() {
        let id = VarId(i as u32);
        if matches!(v.ty, Type::Struct(_)) && !params.contains(&id) {
            if let Some(ls) = leaves(prog, &v.ty) {
                cands.insert(id, ls);
            }
        }
    }
    let mut banned = BTreeSet::new();
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            for x in op_operands(&e.op) {
                escaping(x, &mut banned);
            }
        }
    }
    cands.retain(|v, _| !banned.contains(v));
    cands
}

/// The expressions of `op` in which a struct variable must occur only through leaf fields:
/// all of them, except the whole-struct sides of a struct assignment (whose variables are
/// copied field by field) and a `Havoc`'s variable.
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
/// chain ending at a scalar.
fn escaping(e: &Expr, banned: &mut BTreeSet<VarId>) {
    if leaf_access(e).is_some() {
        return;
    }
    match &e.kind {
        ExprKind::Var(v) => {
            banned.insert(*v);
        }
        _ => {
            e.map_children(&mut |c| {
                escaping(c, banned);
                c.clone()
            });
        }
    }
}

/// `v.f1.f2...fn` of scalar type: the variable and the field offsets from the outside in.
fn leaf_access(e: &Expr) -> Option<(VarId, Vec<u64>)> {
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
                return Some((*v, offsets));
            }
            _ => return None,
        }
    }
}

/// The replaced variables, each with its leaves and the fresh variable of each leaf.
type Replaced = BTreeMap<VarId, Vec<(Leaf, VarId)>>;

fn replacements(prog: &mut Program, cands: &BTreeMap<VarId, Vec<Leaf>>) -> Replaced {
    let mut out = Replaced::new();
    for (v, ls) in cands {
        let info = prog.var(*v).clone();
        let mut fresh = vec![];
        for l in ls {
            let id = VarId(prog.vars.len() as u32);
            let names: Vec<&str> = l.path.iter().map(|(_, n, _)| n.as_str()).collect();
            prog.vars.push(VarInfo {
                name: format!("{}.{}", info.name, names.join(".")),
                ty: l.ty().clone(),
                kind: info.kind.clone(),
                line: info.line,
            });
            match info.kind {
                VarKind::Global => prog.globals.push(id),
                VarKind::Local(f) => prog.functions[f.0 as usize].locals.push(id),
            }
            fresh.push((l.clone(), id));
        }
        out.insert(*v, fresh);
    }
    out
}

/// The function's automaton with each operation rewritten; operations on whole structs
/// become chains of operations on their fields, through fresh locations.
fn rewrite_cfa(prog: &Program, f: &Function, replaced: &Replaced) -> DiGraph<Loc, Edge> {
    let mut g: DiGraph<Loc, Edge> = DiGraph::new();
    for n in f.cfa.node_weights() {
        g.add_node(n.clone());
    }
    for e in f.cfa.edge_indices() {
        let (from, to) = f.cfa.edge_endpoints(e).expect("edge of the graph");
        let edge = &f.cfa[e];
        let ops = rewrite_op(prog, &edge.op, replaced);
        let mut at = from;
        for (i, op) in ops.iter().enumerate() {
            let next = if i + 1 == ops.len() {
                to
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
    }
    g
}

fn rewrite_op(prog: &Program, op: &Op, replaced: &Replaced) -> Vec<Op> {
    match op {
        Op::Havoc(v) if replaced.contains_key(v) => {
            replaced[v].iter().map(|(_, x)| Op::Havoc(*x)).collect()
        }
        Op::Assign { lhs, rhs } if matches!(lhs.ty, Type::Struct(_)) && touches(op, replaced) => {
            let ls = leaves(prog, &lhs.ty).expect("a replaced variable's struct has leaves");
            ls.iter()
                .map(|l| Op::Assign {
                    lhs: rewrite_expr(&select(lhs, l), replaced),
                    rhs: rewrite_expr(&select(rhs, l), replaced),
                })
                .collect()
        }
        _ if touches(op, replaced) => vec![op.map_exprs(&mut |e| rewrite_expr(e, replaced))],
        _ => vec![op.clone()],
    }
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

/// `e` with every leaf access to a replaced variable turned into its scalar variable.
fn rewrite_expr(e: &Expr, replaced: &Replaced) -> Expr {
    if let Some((v, offsets)) = leaf_access(e) {
        if let Some(fresh) = replaced.get(&v) {
            let (_, x) = fresh
                .iter()
                .find(|(l, _)| {
                    l.path
                        .iter()
                        .map(|(o, _, _)| *o)
                        .eq(offsets.iter().copied())
                })
                .expect("a leaf access names one of the struct's leaves");
            return Expr {
                kind: ExprKind::Var(*x),
                ty: e.ty.clone(),
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
}

//! Single-use temporaries: a byte pointer (`void *`, `char *`) local that a macro sets and
//! reads once on the very next step, such as `__mptr` in the kernel's `container_of(ptr, type, member)`, which is `({
//! void *__mptr = (void *)(ptr); ((type *)(__mptr - offsetof(type, member))); })`. The
//! shape analysis knows what `(type *)((char *)ptr - offset)` denotes, but not what a
//! `void *` variable holding `ptr` does, since a pointer into a cell cast to `void *` is
//! no longer the cell's node.
//!
//! Consumes a lowered [`Program`]; produces the same program with the read of each such
//! temporary replaced by the value it was just given. A temporary qualifies when it is a
//! local of byte-pointer type whose address is never taken, assigned on exactly one edge `m = x`
//! and read only on the one edge that follows it, through a location with no other edge in
//! or out, and not in the place a call's result goes (evaluated after the callee ran).
//! Nothing happens between the two edges, so `x` has the same value at the read, and every
//! run of the program is unchanged; the assignment stays (it is dead). A temporary set from
//! another is forwarded after it, so that its value is evaluated where it was set.

use super::ir::*;
use petgraph::Direction;
use petgraph::graph::EdgeIndex;
use petgraph::visit::EdgeRef;
use std::collections::BTreeSet;

/// Forwards every qualifying temporary of `prog` to its one read.
pub fn forward(prog: &mut Program) {
    let taken = prog.address_taken();
    for f in &mut prog.functions {
        let locals: BTreeSet<VarId> = f.locals.iter().copied().collect();
        let mut todo = candidates(f, &locals, &taken, &prog.vars);
        // A temporary set from another one (`it = (T *)(__mptr - 8)` read next) is forwarded
        // after it, so that its value is the one the other one's forwarding gave.
        while !todo.is_empty() {
            let ready = (0..todo.len())
                .find(|i| !todo.iter().any(|(_, read, _)| *read == todo[*i].0))
                .unwrap_or(0);
            let (def, read, m) = todo.remove(ready);
            let Op::Assign { rhs, .. } = &f.cfa[def].op else {
                continue;
            };
            let ty = &prog.vars[m.0 as usize].ty;
            let value = if rhs.ty == *ty {
                rhs.clone()
            } else {
                Expr {
                    ty: ty.clone(),
                    kind: ExprKind::Cast(Box::new(rhs.clone())),
                }
            };
            let op = f.cfa[read].op.map_exprs(&mut |e| substitute(e, m, &value));
            f.cfa[read].op = op;
        }
    }
}

/// Each qualifying temporary of `f`: its defining edge, its reading edge and the variable.
fn candidates(
    f: &Function,
    locals: &BTreeSet<VarId>,
    taken: &BTreeSet<VarId>,
    vars: &[VarInfo],
) -> Vec<(EdgeIndex, EdgeIndex, VarId)> {
    let mut out = vec![];
    for e in f.cfa.edge_references() {
        let Op::Assign { lhs, rhs } = &e.weight().op else {
            continue;
        };
        let ExprKind::Var(m) = lhs.kind else { continue };
        if !locals.contains(&m)
            || taken.contains(&m)
            || !byte_pointer(&vars[m.0 as usize].ty)
            || rhs.mentions(m)
        {
            continue;
        }
        let mid = e.target();
        let ins = f.cfa.edges_directed(mid, Direction::Incoming).count();
        let outs: Vec<_> = f.cfa.edges_directed(mid, Direction::Outgoing).collect();
        let [next] = outs.as_slice() else { continue };
        if ins != 1 || next.id() == e.id() {
            continue;
        }
        let elsewhere = f.cfa.edge_references().any(|o| {
            o.id() != next.id()
                && o.id() != e.id()
                && o.weight().op.exprs().iter().any(|x| x.mentions(m))
        });
        if !elsewhere && !writes(&next.weight().op, m) && !after_call(&next.weight().op, m) {
            out.push((e.id(), next.id(), m));
        }
    }
    out
}

/// Whether `ty` is `void *` or a pointer to a byte type: the type through which a pointer
/// is moved by bytes (`container_of`), not one a program walks or writes through.
fn byte_pointer(ty: &Type) -> bool {
    match ty.pointee() {
        Some(Type::Void) => true,
        Some(Type::Int(t)) => t.bits == 8,
        _ => false,
    }
}

/// Whether `op` is a call that reads `m` for its result's place, which is evaluated after
/// the callee has run (and may have changed what `m`'s value was computed from).
fn after_call(op: &Op, m: VarId) -> bool {
    match op {
        Op::Call { lhs, .. } | Op::CallPtr { lhs, .. } => {
            lhs.as_ref().is_some_and(|l| l.mentions(m))
        }
        _ => false,
    }
}

/// Whether `op` assigns variable `m`.
fn writes(op: &Op, m: VarId) -> bool {
    let lhs = match op {
        Op::Assign { lhs, .. } => Some(lhs),
        Op::Call { lhs, .. } | Op::CallPtr { lhs, .. } => lhs.as_ref(),
        _ => None,
    };
    lhs.is_some_and(|l| matches!(l.kind, ExprKind::Var(v) if v == m))
}

/// `e` with every read of `m` replaced by `value`.
fn substitute(e: &Expr, m: VarId, value: &Expr) -> Expr {
    match e.kind {
        ExprKind::Var(v) if v == m => value.clone(),
        _ => e.map_children(&mut |c| substitute(c, m, value)),
    }
}

#[cfg(test)]
mod tests {
    use crate::program::cfa;
    use crate::program::frontend::load_source;

    #[test]
    fn a_temporary_read_once_on_the_next_step_is_forwarded_and_others_stay() {
        let p = load_source(
            "struct s { int a; int b; };
             char g(void);
             int main(void) {
               struct s x; int *q = &x.b;
               void *m1 = (void *)q; char *m2 = (char *)m1; struct s *z = (struct s *)(m2 - 4);
               z->b = 2;
               void *k = (void *)q; x.a = 1; struct s *t = (struct s *)k;
               void *w = (void *)q; struct s *u = (struct s *)w; struct s *v = (struct s *)w;
               char *c = (char *)q; c[0] = g();
               struct s *y = &x; y->a = 3;
               return t->a + u->a + v->a; }",
        );
        let f = p.func(p.main);
        let ops: Vec<String> = f.cfa.edge_weights().map(|e| cfa::op(&p, &e.op)).collect();
        // `m1` is read on the step after it is set, and so is `m2`, set from `m1`: both are
        // forwarded, `m2` with the value forwarded into its definition.
        let z = ops.iter().find(|o| o.starts_with("z = ")).expect("z = ...");
        assert!(!z.contains('m') && z.contains('q'), "{ops:?}");
        // `k` is read later, `w` twice, `c` where a call's result goes, and `y` is no byte
        // pointer: all stay.
        assert!(
            ops.iter().any(|o| o.starts_with("t = ") && o.contains('k')),
            "{ops:?}"
        );
        assert!(
            ops.iter().any(|o| o.starts_with("u = ") && o.contains('w')),
            "{ops:?}"
        );
        assert!(
            ops.iter().any(|o| o.contains("= g()") && o.contains('c')),
            "{ops:?}"
        );
        assert!(ops.contains(&"y->a = 3".to_string()), "{ops:?}");
    }
}

//! Struct variables that embed structs, split into one variable per field (scalar replacement
//! of aggregates), so that an embedded sentinel node becomes a struct variable of its own.
//!
//! Consumes the inlined program ([`Flat`]); produces it rewritten so that each variable of a
//! struct type with an embedded struct field (FreeRTOS's `List_t` embeds its end marker
//! `xListEnd`), used only through its fields (`L.count`, `L.end.next`, `&L.end`), is replaced
//! by one variable per field, named `L.f`: `L.f` becomes that variable, `&L.f` its address.
//! The embedded node is then a struct variable like any other, which [`super::boxes`] turns
//! into a cell of its own struct, so that the list can link to it. A variable used as a whole
//! (copied, passed, havocked) or whose struct has bit-fields is left alone (the executor then
//! names it as outside the fragment). Splitting repeats until no variable qualifies, so
//! structs embedded in embedded structs split too.

use crate::program::ir::{Expr, ExprKind, Type, VarId, VarInfo};
use crate::techniques::seed002::flat::Flat;

/// Rewrites `flat`; the number of variables split.
pub fn split_embedding(flat: &mut Flat) -> usize {
    let mut n = 0;
    while let Some(v) = candidate(flat) {
        split(flat, v);
        n += 1;
    }
    n
}

/// A struct variable with an embedded struct field, no bit-field, used only through fields.
fn candidate(flat: &Flat) -> Option<VarId> {
    let prog = &flat.prog;
    (0..prog.vars.len() as u32).map(VarId).find(|v| {
        let Type::Struct(s) = prog.var(*v).ty else {
            return false;
        };
        let st = prog.strukt(s);
        st.complete
            && !st.is_union
            && st.fields.iter().any(|f| matches!(f.ty, Type::Struct(_)))
            && st.fields.iter().all(|f| f.bits.is_none())
            && used_only_through_fields(flat, *v)
    })
}

/// Whether every occurrence of `v` is the struct of a field access, and there is one.
fn used_only_through_fields(flat: &Flat, v: VarId) -> bool {
    let (mut whole, mut through_field) = (0, 0);
    for e in &flat.edges {
        if matches!(e.op, crate::program::ir::Op::Havoc(x) if x == v) {
            return false;
        }
        for x in e.op.exprs() {
            x.visit(&mut |y| match &y.kind {
                ExprKind::Var(x) if *x == v => whole += 1,
                ExprKind::Field(inner, ..) if matches!(inner.kind, ExprKind::Var(x) if x == v) => {
                    through_field += 1
                }
                _ => {}
            });
        }
    }
    through_field > 0 && whole == through_field
}

/// Replaces `v` by one variable per field.
fn split(flat: &mut Flat, v: VarId) {
    let info = flat.prog.var(v).clone();
    let Type::Struct(s) = info.ty else { return };
    let fields = flat.prog.strukt(s).fields.clone();
    let parts: Vec<VarId> = (fields.iter())
        .map(|f| {
            flat.prog.add_var(VarInfo {
                name: format!("{}.{}", info.name, f.name),
                ty: f.ty.clone(),
                kind: info.kind.clone(),
                line: info.line,
            })
        })
        .collect();
    let part = |off: u64, name: &str| {
        let i = fields
            .iter()
            .position(|f| f.offset == off && f.name == name);
        i.map(|i| parts[i])
    };
    for e in &mut flat.edges {
        e.op = e.op.map_exprs(&mut |x| replace(x, v, &part));
    }
}

fn replace(e: &Expr, v: VarId, part: &impl Fn(u64, &str) -> Option<VarId>) -> Expr {
    if let ExprKind::Field(inner, off, name) = &e.kind
        && matches!(inner.kind, ExprKind::Var(x) if x == v)
        && let Some(p) = part(*off, name)
    {
        return Expr {
            kind: ExprKind::Var(p),
            ty: e.ty.clone(),
        };
    }
    e.map_children(&mut |c| replace(c, v, part))
}

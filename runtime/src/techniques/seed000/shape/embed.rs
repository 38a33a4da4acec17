//! Cells that are not heap blocks of an analysed struct: struct variables (a Linux list's head
//! `LIST_HEAD(list)`, a sentinel on the stack) and members embedding an analysed struct in
//! another one (`struct item { int value; struct list_head link; }`, a [`Carrier`]).
//!
//! Consumes the vocabulary's cell variables and carriers and an IR operation; produces (1) the
//! operation rewritten so that every access to a cell variable or an embedded member is a
//! dereference of its address (`head.next` is `(&head)->next`, `e->link.next` is
//! `(&e->link)->next`), which the transfer functions evaluate like any dereference; (2) the
//! pointer values of those addresses and of `container_of` (a pointer to the member minus the
//! member's offset, cast to the carrier): the carrier's node; (3) a cell variable's node,
//! created when its scope begins and removed when it ends, with the heap's pointers to it
//! left dangling. A pointer to an embedded member at a non-zero offset denotes the carrier's
//! node only while it has the member's type: a cast to any type that would view the node at
//! another offset (`void *`, `char *`, the carrier) is an unknown pointer, so that a `free`,
//! a comparison or a dereference through it is never taken for one at the block's start.

use super::graph::{F, Graph, T};
use super::transfer::{AbsError, PVal, Res, Transfer};
use super::vocab::Carrier;
use crate::program::ir::*;
use crate::program::path::PathEnd;
use std::borrow::Cow;

impl Transfer<'_> {
    /// The operation with every cell variable and embedded member accessed through its
    /// address.
    pub fn normalise<'o>(&self, op: Cow<'o, Op>) -> Cow<'o, Op> {
        if !self.v.vars.iter().any(|x| x.cell) && self.v.carriers.is_empty() {
            return op;
        }
        Cow::Owned(op.map_exprs(&mut |e| self.normalise_expr(e)))
    }

    /// [`Self::normalise`] on one expression.
    pub fn normalise_expr(&self, e: &Expr) -> Expr {
        let e = e.map_children(&mut |x| self.normalise_expr(x));
        let through_address = |e: Expr| {
            let ty = e.ty.clone();
            Expr {
                kind: ExprKind::Deref(Box::new(Expr {
                    kind: ExprKind::AddrOf(Box::new(e)),
                    ty: ty.clone().ptr_to(),
                })),
                ty,
            }
        };
        match &e.kind {
            ExprKind::Var(x) if self.v.cell_var(*x).is_some() => through_address(e),
            ExprKind::Field(base, _, m)
                if self.embedded(&base.ty, m).is_some()
                    || self.v.member_field(&base.ty, m).is_some() =>
            {
                through_address(e)
            }
            ExprKind::AddrOf(a) => match &a.kind {
                ExprKind::Deref(p) => Expr {
                    kind: p.kind.clone(),
                    ty: e.ty.clone(),
                },
                _ => e,
            },
            _ => e,
        }
    }

    /// The carrier `ty` is, if `m` is its embedded member.
    fn embedded(&self, ty: &Type, m: &str) -> Option<&Carrier> {
        let Type::Struct(s) = ty else { return None };
        let c = self.v.carriers.get(s)?;
        (c.member == m).then_some(c)
    }

    /// The node of cell variable `i` (index into the vocabulary's variables), if in scope.
    fn cell_node(&self, g: &Graph, i: usize) -> Option<usize> {
        (0..g.n).find(|u| g.get(self.v, self.v.pt(i), &[*u]) == T)
    }

    /// The offset from the start of a node of type `node` of the address a pointer of type
    /// `ty` denoting that node holds: the member's offset for a pointer to the struct a
    /// carrier embeds; minus it for a pointer to a carrier that denotes a node of the embedded
    /// struct itself (`list_entry(&head, ...)` in a `list_for_each_entry` loop: no element
    /// is there, but `&pos->member` is the head again); 0 otherwise.
    pub(super) fn view_offset(&self, ty: &Type, node: StructId) -> i64 {
        let Some(Type::Struct(s)) = ty.pointee() else {
            return 0;
        };
        let offset = |c: &Carrier| i64::try_from(c.offset).unwrap_or(i64::MAX);
        match (self.v.carriers.get(&node), self.v.carriers.get(s)) {
            (Some(c), _) if c.strukt == *s => offset(c),
            (_, Some(c)) if c.strukt == node => -offset(c),
            _ => 0,
        }
    }

    /// A value of pointer type `from` moved by `bytes` and seen as pointer type `to`: the
    /// same node when the address lands where `to` views the node, otherwise unknown.
    fn moved(&self, g: &Graph, val: PVal, from: &Type, bytes: i64, to: &Type) -> PVal {
        match val {
            PVal::Node(u)
                if self.view_offset(from, g.ty[u]).checked_add(bytes)
                    == Some(self.view_offset(to, g.ty[u])) =>
            {
                val
            }
            PVal::Null if bytes == 0 => val,
            _ => PVal::Unknown,
        }
    }

    /// `&a`: a cell variable's node, an embedded member's carrier node, or `p` for `&*p`.
    pub(super) fn eval_addr(&self, g: Graph, e: &Expr, a: &Expr, line: u32) -> Vec<Res<PVal>> {
        match &a.kind {
            ExprKind::Var(x) => match self.v.cell_var(*x) {
                Some(i) => self.focus_var(g, i).into_iter().map(Ok).collect(),
                None => self.unknown_after_check(g, e, line),
            },
            ExprKind::Deref(p) => self.eval_ptr(g, p, line),
            ExprKind::Field(base, _, m) => {
                if let ExprKind::Deref(p) = &base.kind
                    && let Some(f) = self.v.member_field(&base.ty, m)
                {
                    return self.member_node(g, p, f, line);
                }
                if let ExprKind::Deref(p) = &base.kind
                    && self.embedded(&base.ty, m).is_none()
                    && let Some(offset) = self.inner_member(p, m)
                {
                    return self.member_address(g, p, offset, line);
                }
                let (ExprKind::Deref(p), Some(c)) = (&base.kind, self.embedded(&base.ty, m)) else {
                    return self.unknown_after_check(g, e, line);
                };
                let bytes = i64::try_from(c.offset).unwrap_or(i64::MAX);
                self.eval_ptr(g, p, line)
                    .into_iter()
                    .map(|r| match r {
                        Ok((g, v @ PVal::Node(_))) => {
                            let moved = self.moved(&g, v, &p.ty, bytes, &e.ty);
                            Ok((g, moved))
                        }
                        Ok(_) => Err(self.deref_error(p, line, "the dereferenced pointer")),
                        Err(err) => Err(err),
                    })
                    .collect()
            }
            _ => self.unknown_after_check(g, e, line),
        }
    }

    /// `&p->m` for a carrier's other embedded member `m` (member field `f`): its node.
    fn member_node(&self, g: Graph, p: &Expr, f: usize, line: u32) -> Vec<Res<PVal>> {
        let mut out = vec![];
        for r in self.eval_ptr(g, p, line) {
            match r {
                Ok((g, PVal::Node(a))) if g.ty[a] == self.v.fields[f].strukt => {
                    out.extend(self.focus_field(g, a, f).into_iter().map(Ok))
                }
                Ok(_) => out.push(Err(self.deref_error(p, line, "the dereferenced pointer"))),
                Err(err) => out.push(Err(err)),
            }
        }
        out
    }

    /// A cast between pointer types, of a pointer or of a byte pointer moved by a constant
    /// (`container_of`: a pointer to a member minus the member's offset): the same node when
    /// the new view lands on the address (see [`Self::view_offset`]), otherwise unknown.
    pub(super) fn eval_cast(&self, g: Graph, e: &Expr, inner: &Expr, line: u32) -> Vec<Res<PVal>> {
        let (ptr, bytes) = byte_move(inner).unwrap_or((inner, 0));
        self.eval_ptr(g, ptr, line)
            .into_iter()
            .map(|r| {
                r.map(|(g, val)| {
                    let moved = self.moved(&g, val, &ptr.ty, bytes, &e.ty);
                    (g, moved)
                })
            })
            .collect()
    }

    /// Whether node `u` is the storage of a cell variable.
    pub fn is_cell(&self, g: &Graph, u: usize) -> bool {
        (0..self.v.vars.len())
            .any(|x| self.v.vars[x].cell && g.get(self.v, self.v.pt(x), &[u]) == T)
    }

    /// The nodes of the cell variables among `vars` as their scope begins: fields
    /// uninitialised, or NULL for globals (`zeroed`).
    pub fn enter_cells(&self, mut g: Graph, vars: &[VarId], zeroed: bool) -> Graph {
        for x in vars {
            let Some(i) = self.v.cell_var(*x) else {
                continue;
            };
            let s = self.v.vars[i].strukt;
            let u = g.add_node(s);
            g.set(self.v, self.v.pt(i), &[u], T);
            g.invalid[i] = F;
            self.init_fields(&mut g, u, s, zeroed);
        }
        g
    }

    /// The cell variables among `vars` go out of scope: their nodes go, the fields pointing
    /// to them dangle.
    pub fn drop_cells(&self, g: Graph, vars: &[VarId], line: u32) -> Result<Graph, AbsError> {
        let mut g = g;
        for x in vars {
            let Some(i) = self.v.cell_var(*x) else {
                continue;
            };
            let Some(u) = self.cell_node(&g, i) else {
                continue;
            };
            let mut gone = vec![u];
            for f in self.v.member_fields(g.ty[u]) {
                let p = self.v.field_pred(f);
                match (0..g.n).find(|c| g.get(self.v, p, &[u, *c]) == T) {
                    Some(c) => gone.push(c),
                    None if self.memtrack => return Err(self.member_unknown(line)),
                    None => {}
                }
            }
            g = self.release_nodes(g, &gone, line)?;
            g.invalid[i] = F;
        }
        Ok(g)
    }

    /// `lhs = v` for a value `v` the analysis does not know (a struct returned by value): a
    /// struct that is a node gets every member unknown, anything else is havoc.
    pub fn havoc_value(&self, g: Graph, lhs: &Expr, line: u32) -> Vec<Result<Graph, AbsError>> {
        let Type::Struct(s) = &lhs.ty else {
            return self.havoc(g, lhs, line);
        };
        if !self.v.node_type(*s) {
            return self.havoc(g, lhs, line);
        }
        let mut cur: Vec<Result<Graph, AbsError>> = vec![Ok(g)];
        for f in self.prog.strukt(*s).fields.iter() {
            let m = self.normalise_expr(&Expr {
                kind: ExprKind::Field(Box::new(lhs.clone()), f.offset, f.name.clone()),
                ty: f.ty.clone(),
            });
            cur = cur
                .into_iter()
                .flat_map(|r| match r {
                    Ok(g) if m.ty.pointee().is_some() => self.store(g, &m, PVal::Unknown, line),
                    Ok(g) => self.havoc_value(g, &m, line),
                    Err(e) => vec![Err(e)],
                })
                .collect();
        }
        cur
    }

    /// A cell variable declared without an initialiser: its fields are uninitialised again.
    pub fn uninitialise_cell(&self, g: Graph, x: VarId) -> Option<Graph> {
        let i = self.v.cell_var(x)?;
        let u = self.cell_node(&g, i)?;
        let s = self.v.vars[i].strukt;
        let mut g2 = g.clone();
        self.init_fields(&mut g2, u, s, false);
        self.commit(&g, g2)
    }

    /// `free` of a cell variable's storage: never valid.
    pub(super) fn free_cell(&self, line: u32) -> AbsError {
        AbsError {
            end: PathEnd::FreedWhilePointedTo,
            message: format!(
                "line {line}: the freed pointer may point to a variable or inside a block"
            ),
            unsupported: false,
        }
    }
}

/// `(char *)p + d` for a pointer `p` and a constant `d`: `p` and `d`.
pub(super) fn byte_move(e: &Expr) -> Option<(&Expr, i64)> {
    let ExprKind::PtrAdd(bytes, idx, 1) = &e.kind else {
        return None;
    };
    let p = match &bytes.kind {
        ExprKind::Cast(p) if p.ty.pointee().is_some() => p,
        _ => bytes,
    };
    Some((p, offset_const(idx)?))
}

/// The value of an integer expression built from constants, negation, conversions and
/// `offsetof` written as `&((T *)0)->m`.
pub fn offset_const(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Const(c) => Some(*c),
        ExprKind::Cast(a) if e.ty.as_int().is_some() => offset_const(a),
        ExprKind::Unary(UnOp::Neg, a) => offset_const(a)?.checked_neg(),
        ExprKind::AddrOf(a) => null_member_offset(a),
        _ => None,
    }
}

/// The offset of member access `a` from a null pointer: `((T *)0)->m.n`.
fn null_member_offset(a: &Expr) -> Option<i64> {
    let ExprKind::Field(base, off, _) = &a.kind else {
        return None;
    };
    let off = i64::try_from(*off).ok()?;
    match &base.kind {
        ExprKind::Deref(p) if p.is_null_constant() => Some(off),
        ExprKind::Field(..) => null_member_offset(base)?.checked_add(off),
        _ => None,
    }
}

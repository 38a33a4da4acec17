//! Raw fields pointing into their own cell: `n->pData = &n->data`, a node whose payload
//! pointer refers either to storage inside the node or to a block of its own.
//!
//! Consumes the program (the stores `p->f = &p->m` that put the address of a member of a
//! cell into a raw field of the same struct, which make the vocabulary's `inner[f: m]`
//! predicates, see [`Inner`]) and graphs over such a vocabulary; produces the value of
//! `&p->m` ([`PVal::Member`]: that member of `p`'s single cell), the value read from a field
//! whose predicate holds (the member again, the graph split where the predicate is 1/2), and
//! the predicates after a store into the field. A member address is a valid non-null
//! pointer that equals only itself: it differs from NULL, from a member of another cell and
//! from any other node's address. Everywhere else (a variable holding it, a `free` or a
//! dereference through it) it is an unknown pointer, which is sound.

use super::graph::{F, Graph, H, T};
use super::transfer::{PVal, Res, Transfer};
use super::vocab::{Inner, Vocab};
use crate::program::ir::*;
use std::collections::BTreeSet;

/// The (raw field, member, offset) triples of the stores `p->f = &q->m` in the program where
/// `p` and `q` point to the same struct, `f` is a tracked raw field and `m` is no embedded
/// analysed struct.
pub fn self_members(prog: &Program, v: &Vocab) -> Vec<(usize, String, u64)> {
    let mut out = BTreeSet::new();
    for func in &prog.functions {
        for e in func.cfa.edge_references() {
            let Op::Assign { lhs, rhs } = &e.weight().op else {
                continue;
            };
            let (Some((s, fname)), Some((t, off, m))) = (field_of(lhs), member_addr(rhs)) else {
                continue;
            };
            let embedded = v.carriers.get(&s).is_some_and(|c| c.member == m)
                || v.member_field(&Type::Struct(s), m).is_some();
            match v.field(s, fname) {
                Some(f) if s == t && v.fields[f].raw && !embedded => {
                    out.insert((f, m.to_string(), off));
                }
                _ => {}
            }
        }
    }
    out.into_iter().collect()
}

/// `p->f` for a pointer `p` to a struct: the struct and the field's name.
fn field_of(e: &Expr) -> Option<(StructId, &str)> {
    let ExprKind::Field(base, _, name) = &e.kind else {
        return None;
    };
    let ExprKind::Deref(p) = &base.kind else {
        return None;
    };
    match p.ty.pointee()? {
        Type::Struct(s) => Some((*s, name)),
        _ => None,
    }
}

/// `&p->m` (through casts): the struct, the member's offset and its name.
fn member_addr(e: &Expr) -> Option<(StructId, u64, &str)> {
    match &e.kind {
        ExprKind::Cast(inner) => member_addr(inner),
        ExprKind::AddrOf(a) => {
            let ExprKind::Field(_, off, m) = &a.kind else {
                return None;
            };
            field_of(a).map(|(s, _)| (s, *off, m.as_str()))
        }
        _ => None,
    }
}

impl Transfer<'_> {
    /// The predicates of raw field `f`.
    fn inner_preds(&self, f: usize) -> impl Iterator<Item = &Inner> {
        self.v.inner.iter().filter(move |i| i.field == f)
    }

    /// The offset of member `m` of the struct `p` points to, if some raw field may point to
    /// that member.
    pub(super) fn inner_member(&self, p: &Expr, m: &str) -> Option<u64> {
        let Some(Type::Struct(s)) = p.ty.pointee() else {
            return None;
        };
        (self.v.inner.iter())
            .find(|i| self.v.fields[i.field].strukt == *s && i.member == m)
            .map(|i| i.offset)
    }

    /// `&p->m` for a member at `offset` that some raw field may point to (see
    /// [`Self::inner_member`]): the member of `p`'s cell.
    pub(super) fn member_address(
        &self,
        g: Graph,
        p: &Expr,
        offset: u64,
        line: u32,
    ) -> Vec<Res<PVal>> {
        let s = p.ty.pointee();
        let out = self.eval_ptr(g, p, line).into_iter().map(|r| match r {
            Ok((g, PVal::Node(u))) if s == Some(&Type::Struct(g.ty[u])) => {
                Ok((g, PVal::Member(u, offset)))
            }
            Ok((g, PVal::Node(_))) => Ok((g, PVal::Unknown)),
            Ok(_) => Err(self.deref_error(p, line, "the dereferenced pointer")),
            Err(err) => Err(err),
        });
        out.collect()
    }

    /// Stores `val` into field `f` of single cell `a` as far as the inner predicates go: the
    /// predicate of the member `val` addresses in `a` itself becomes 1 and the others 0. The
    /// value for the field's edges is returned: none (NULL) for such a member, unknown for a
    /// member of another cell.
    pub(super) fn store_inner(&self, g: &mut Graph, a: usize, f: usize, val: PVal) -> PVal {
        let mut hit = false;
        for i in self.inner_preds(f) {
            let here = val == PVal::Member(a, i.offset);
            hit |= here;
            g.set(self.v, i.id, &[a], if here { T } else { F });
        }
        match val {
            PVal::Member(..) if hit => PVal::Null,
            PVal::Member(..) => PVal::Unknown,
            val => val,
        }
    }

    /// Reading field `f` of single cell `a`: the parts of `g` where the field points to one of
    /// the cell's members, with that member's address, and the rest of `g` (where it points
    /// to none), if any.
    pub(super) fn read_inner(&self, mut g: Graph, a: usize, f: usize) -> InnerRead {
        let mut parts = vec![];
        let preds: Vec<(usize, u64)> = self.inner_preds(f).map(|i| (i.id, i.offset)).collect();
        for (id, offset) in preds {
            match g.get(self.v, id, &[a]) {
                F => {}
                T => {
                    parts.push((g, PVal::Member(a, offset)));
                    return (parts, None);
                }
                _ => {
                    let mut g1 = g.clone();
                    g1.set(self.v, id, &[a], T);
                    for u in 0..g1.n {
                        g1.set(self.v, self.v.field_pred(f), &[a, u], F);
                    }
                    g1.set(self.v, self.v.undef(f), &[a], F);
                    parts.extend(self.coerce(g1).map(|g1| (g1, PVal::Member(a, offset))));
                    g.set(self.v, id, &[a], F);
                }
            }
        }
        (parts, Some(g))
    }

    /// Whether an access of `end` bytes through pointer type `ptr` holding member address
    /// `(u, offset)` stays inside `u`'s cell, reads plain data (no pointer the graph tracks)
    /// and touches no data field a field predicate is about (a write there would change
    /// the predicate unseen).
    pub(super) fn member_fits(
        &self,
        g: &Graph,
        u: usize,
        offset: u64,
        ptr: &Type,
        end: u64,
    ) -> bool {
        let s = g.ty[u];
        let plain = ptr
            .pointee()
            .is_some_and(|t| super::vocab::plain(self.prog, t, 0));
        let size = self.prog.size_of(&Type::Struct(s));
        let range = offset..offset.saturating_add(end);
        let def = self.prog.strukt(s);
        let watched = self
            .v
            .data
            .iter()
            .filter(|d| d.assertion.strukt == s)
            .filter_map(|d| def.fields.iter().find(|m| m.name == d.assertion.field))
            .any(|m| {
                let (lo, hi) = (m.offset, m.offset + self.prog.size_of(&m.ty));
                lo < range.end && range.start < hi
            });
        plain && range.end <= size && !watched
    }
}

/// What reading a raw field gives: the member addresses with their graphs, and the graph
/// where the field points to no member of its cell.
pub(super) type InnerRead = (Vec<(Graph, PVal)>, Option<Graph>);

/// Pointer equality where one side is a member address (`None` otherwise).
pub(super) fn member_eq(a: PVal, b: PVal) -> Option<shapecheck_dsl::eval::Kleene> {
    Some(match (a, b) {
        (PVal::Member(u, o), PVal::Member(w, p)) => {
            if u == w && o == p {
                T
            } else {
                F
            }
        }
        (PVal::Member(..), PVal::Unknown) | (PVal::Unknown, PVal::Member(..)) => H,
        (PVal::Member(u, _), PVal::Node(w)) | (PVal::Node(w), PVal::Member(u, _)) => {
            // Another cell's address never lies inside this one; the cell's own start may
            // be the member's address when the member comes first.
            if u == w { H } else { F }
        }
        (PVal::Member(..), PVal::Null) | (PVal::Null, PVal::Member(..)) => F,
        _ => return None,
    })
}

//! Orderings of a data field along a pointer field: the field assertion `f <= link->f` (a
//! cell's value is at most its successor's, or it has none), whose universal reading over a
//! list is sortedness (TVLA's `inOrder[dle, n]`, Lev-Ami et al. 2000, as a unary predicate).
//!
//! Consumes a [`Graph`] whose vocabulary carries such predicates and the IR operations that
//! change them or read them; produces the updated graphs. A store `p->link = q` decides the
//! predicate on `p`'s cell from what the other field assertions say of the two values (`f <= x`
//! on `p`'s cell and `!(f < x)` on `q`'s: sorted insertion), or by transitivity when `q` was
//! the successor of `p`'s successor (unlinking from a sorted list). A store `p->f = e` decides
//! it the same way on `p`'s cell and on the cells whose link leads to it. A comparison
//! `p->f <= q->f` (any of `<`, `<=`, `>`, `>=`, either side) where `q` is `p`'s successor reads
//! the predicate, splitting the structure where it is 1/2; elsewhere it is decided by the
//! bounds, or left 1/2. A new cell's predicate is unknown (true when the block is zeroed: its
//! link is null).

use super::graph::{F, Graph, H, T};
use super::transfer::{AbsError, PVal, Transfer};
use super::vocab::{Bound, DataPred};
use crate::program::ir::*;
use shapecheck_dsl::eval::Kleene;

/// What a cell's link is in a graph.
enum Succ {
    /// Null on every cell of the node.
    Null,
    /// This node on every cell.
    Node(usize),
    /// Anything else.
    Unknown,
}

/// A bound the field assertions give a node's value: a constant or an integer variable.
#[derive(PartialEq)]
enum Limit {
    Const(i64),
    /// An integer variable, or the field of the cell a pointer variable points to.
    Var(VarId),
}

impl Transfer<'_> {
    /// Whether integer variable `x` bounds a data field that is ordered along a link: its
    /// relations to cells then outlive it (until it is written), since a later link store
    /// may need them (`n->data = x` and `!(p->next->data < x)` before `n->next = p->next`,
    /// where `x` is read last by the comparison).
    pub fn orders_through(&self, x: VarId) -> bool {
        (self.v.data.iter())
            .filter(|d| matches!(&d.assertion.bound, Bound::Var { var, .. } | Bound::VarEq { var, .. } if *var == x))
            .any(|d| !self.sorted_links(d.assertion.strukt, &d.assertion.field).is_empty())
    }

    /// The links data field `field` of struct `s` is ordered along, with the predicates.
    fn sorted_links(&self, s: StructId, field: &str) -> Vec<(String, usize)> {
        (self.v.field_preds(s, field))
            .filter_map(|d| match &d.assertion.bound {
                Bound::Sorted { link } => Some((link.clone(), d.id)),
                _ => None,
            })
            .collect()
    }

    /// The ordering predicates `f <= link->f` of struct `s` along link field `link`.
    fn orderings<'a>(&'a self, s: StructId, link: &'a str) -> impl Iterator<Item = &'a DataPred> {
        self.v.data.iter().filter(move |d| {
            d.assertion.strukt == s
                && matches!(&d.assertion.bound, Bound::Sorted { link: l } if l == link)
        })
    }

    /// The ordering predicate `f <= link->f` for data field `field` of struct `s`.
    fn ordering_pred(&self, s: StructId, field: &str, link: &str) -> Option<usize> {
        self.orderings(s, link)
            .find(|d| d.assertion.field == field)
            .map(|d| d.id)
    }

    /// Where pointer field `f` of node `a` leads.
    fn succ(&self, g: &Graph, a: usize, f: usize) -> Succ {
        if g.get(self.v, self.v.undef(f), &[a]) != F {
            return Succ::Unknown;
        }
        let p = self.v.field_pred(f);
        let targets: Vec<usize> = (0..g.n)
            .filter(|u| g.get(self.v, p, &[a, *u]) != F)
            .collect();
        match targets[..] {
            [] => Succ::Null,
            [u] if g.get(self.v, p, &[a, u]) == T => Succ::Node(u),
            _ => Succ::Unknown,
        }
    }

    /// The bounds the field assertions on node `a` give field `field` of its cells: from
    /// above (`upper`) or from below, each with whether it is strict (`f < x` holding, or
    /// `f <= x` failing: `f > x`).
    fn limits(&self, g: &Graph, a: usize, field: &str, upper: bool) -> Vec<(Limit, bool)> {
        let mut out = vec![];
        for d in self.v.field_preds(g.ty[a], field) {
            let k = g.get(self.v, d.id, &[a]);
            let limit = match (&d.assertion.bound, k, upper) {
                (Bound::Eq(c), T, _) => (Limit::Const(*c), false),
                (Bound::Below(c), T, true) => match c.checked_sub(1) {
                    Some(c) => (Limit::Const(c), false),
                    None => continue,
                },
                (Bound::Below(c), F, false) => (Limit::Const(*c), false),
                (Bound::Var { strict, var, .. }, T, true) => (Limit::Var(*var), *strict),
                (Bound::Var { strict, var, .. }, F, false) => (Limit::Var(*var), !strict),
                (Bound::VarEq { var, .. }, T, _) => (Limit::Var(*var), false),
                (Bound::Cell { strict, ptr, .. }, T, true) => (Limit::Var(*ptr), *strict),
                (Bound::Cell { strict, ptr, .. }, F, false) => (Limit::Var(*ptr), !strict),
                _ => continue,
            };
            out.push(limit);
        }
        // The cell a pointer variable points to is bounded by its own value both ways.
        if g.sm[a] == F {
            for x in &self.v.vars {
                let pointed = self.v.var(x.var).map(|i| g.get(self.v, self.v.pt(i), &[a]));
                if !x.cell && pointed == Some(T) {
                    out.push((Limit::Var(x.var), false));
                }
            }
        }
        out
    }

    /// After pointer variable `x` takes `val` (`old`: the graph before): the relations of
    /// fields to the cell it pointed to are forgotten, except that a cursor advancing along a
    /// link it is ordered on (`x = x->next` from a cell whose value is at most its
    /// successor's) keeps every `f < x->f` and `f <= x->f` that held; the cell it now points
    /// to (a single cell) is equal to itself.
    pub fn order_after_pointer(&self, old: &Graph, g: &mut Graph, x: VarId, val: PVal) {
        let preds: Vec<(bool, usize)> = (self.v.data.iter())
            .filter_map(|d| match &d.assertion.bound {
                Bound::Cell { strict, ptr, .. } if *ptr == x => Some((*strict, d.id)),
                _ => None,
            })
            .collect();
        for &(strict, id) in &preds {
            let advanced = self.advanced(old, x, val, id);
            for u in 0..g.n {
                let k = match val {
                    PVal::Node(w) if w == u && g.sm[u] == F => Kleene::from_bool(!strict),
                    _ if advanced && old.get(self.v, id, &[u]) == T => T,
                    _ => H,
                };
                g.set(self.v, id, &[u], k);
            }
        }
    }

    /// Whether `val` is, in `old`, the successor along some link of the single cell `x`
    /// pointed to, and that cell's value is at most its successor's in the field of `id`.
    fn advanced(&self, old: &Graph, x: VarId, val: PVal, id: usize) -> bool {
        let (PVal::Node(w), Some(i)) = (val, self.v.var(x)) else {
            return false;
        };
        let Some(c) = (0..old.n).find(|u| old.get(self.v, self.v.pt(i), &[*u]) == T) else {
            return false;
        };
        let d = self.v.data.iter().find(|d| d.id == id).expect("predicate");
        let links = self.sorted_links(d.assertion.strukt, &d.assertion.field);
        links.iter().any(|(link, e)| {
            old.sm[c] == F
                && old.get(self.v, *e, &[c]) == T
                && (self.v.field(old.ty[c], link))
                    .is_some_and(|f| matches!(self.succ(old, c, f), Succ::Node(u) if u == w))
        })
    }

    /// After a store into field `field` of cell `a`: the relations to the cells of pointer
    /// variables that may point to `a` are forgotten on every node (they compare with the
    /// old value); on `a` itself, where such a variable surely points, they hold as equal.
    fn forget_cell_relations(&self, g: &mut Graph, a: usize, field: &str) {
        let s = g.ty[a];
        let preds: Vec<(bool, VarId, usize)> = (self.v.field_preds(s, field))
            .filter_map(|d| match &d.assertion.bound {
                Bound::Cell { strict, ptr, .. } => Some((*strict, *ptr, d.id)),
                _ => None,
            })
            .collect();
        for (strict, ptr, id) in preds {
            let Some(i) = self.v.var(ptr) else {
                continue;
            };
            let pointed = g.get(self.v, self.v.pt(i), &[a]);
            if pointed == F {
                continue;
            }
            for u in 0..g.n {
                let k = match u == a && pointed == T && g.sm[a] == F {
                    true => Kleene::from_bool(!strict),
                    false => H,
                };
                g.set(self.v, id, &[u], k);
            }
        }
    }

    /// Whether the field assertions show `a.f <= b.f` for every cell of `a` and of `b`.
    fn bounded(&self, g: &Graph, a: usize, b: usize, field: &str) -> bool {
        (a == b && g.sm[a] == F) || self.separated(g, a, b, field, false)
    }

    /// Whether the bounds on the two nodes show `a.f < b.f` (`strict`) or `a.f <= b.f` for
    /// every cell of each.
    fn separated(&self, g: &Graph, a: usize, b: usize, field: &str, strict: bool) -> bool {
        let below = self.limits(g, b, field, false);
        self.limits(g, a, field, true).iter().any(|(u, su)| {
            below.iter().any(|(l, sl)| match (u, l) {
                (Limit::Const(c), Limit::Const(d)) => c < d || (!strict && c == d),
                (Limit::Var(x), Limit::Var(y)) => g.same(*x, *y) && (!strict || *su || *sl),
                _ => false,
            })
        })
    }

    /// After `a->link = val` (link field `f`; `old` is the graph before the store): each
    /// ordering along the link on `a`'s cell, decided where the values show it, else 1/2.
    pub fn order_after_link(&self, old: &Graph, g: &mut Graph, a: usize, f: usize, val: PVal) {
        let link = self.v.fields[f].name.clone();
        let preds: Vec<(String, usize)> = (self.orderings(g.ty[a], &link))
            .map(|d| (d.assertion.field.clone(), d.id))
            .collect();
        for (field, id) in preds {
            let holds = match val {
                PVal::Null => true,
                PVal::Node(b) => {
                    self.bounded(g, a, b, &field) || self.through_successor(old, a, b, f, id)
                }
                PVal::Unknown | PVal::Member(..) => false,
            };
            g.set(self.v, id, &[a], if holds { T } else { H });
        }
    }

    /// Whether, in `old`, `a`'s link led to a cell `c` whose link leads to `b`, and the
    /// ordering `id` held on both (`a.f <= c.f <= b.f`: unlinking `c`).
    fn through_successor(&self, old: &Graph, a: usize, b: usize, f: usize, id: usize) -> bool {
        let Succ::Node(c) = self.succ(old, a, f) else {
            return false;
        };
        matches!(self.succ(old, c, f), Succ::Node(d) if d == b)
            && old.get(self.v, id, &[a]) == T
            && old.get(self.v, id, &[c]) == T
    }

    /// After `a->field = value` (the other field assertions on `a` already updated): the
    /// orderings of the field on `a`'s cell and on the nodes whose link may lead to it.
    pub fn order_after_data(&self, g: &mut Graph, a: usize, field: &str) {
        self.forget_cell_relations(g, a, field);
        let s = g.ty[a];
        for (link, id) in self.sorted_links(s, field) {
            let Some(f) = self.v.field(s, &link) else {
                continue;
            };
            let own = match self.succ(g, a, f) {
                Succ::Null => T,
                Succ::Node(b) if self.bounded(g, a, b, field) => T,
                _ => H,
            };
            g.set(self.v, id, &[a], own);
            let p = self.v.field_pred(f);
            let others: Vec<usize> = (0..g.n).filter(|u| *u != a && g.ty[*u] == s).collect();
            for u in others {
                let to = g.get(self.v, p, &[u, a]);
                if to == F {
                    continue;
                }
                let was = g.get(self.v, id, &[u]);
                let sure = to == T && g.sm[u] == F;
                let k = match self.bounded(g, u, a, field) {
                    true if sure || was == T => T,
                    _ => H,
                };
                g.set(self.v, id, &[u], k);
            }
        }
    }

    /// A comparison `p->f op q->f` of one data field on two cells, where the vocabulary has an
    /// ordering of the field: `None` otherwise.
    pub fn order_cond(
        &self,
        g: &Graph,
        e: &Expr,
        line: u32,
    ) -> Option<Vec<Result<(Graph, Kleene), AbsError>>> {
        let ExprKind::Cmp(op @ (CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge), l, r) = &e.kind
        else {
            return None;
        };
        let (fa, fb) = (
            super::data::data_field(super::data::strip_widening(l))?,
            super::data::data_field(super::data::strip_widening(r))?,
        );
        if fa.strukt != fb.strukt || fa.field != fb.field || l.ty != r.ty {
            return None;
        }
        let links: Vec<String> = (self.sorted_links(fa.strukt, fa.field).into_iter())
            .map(|(link, _)| link)
            .collect();
        if links.is_empty() {
            return None;
        }
        let var = |p: &Expr| match p.kind {
            ExprKind::Var(q) => Some(q),
            _ => None,
        };
        let vars = (var(fa.ptr), var(fb.ptr));
        let mut out = vec![];
        for r in self.eval_ptr(g.clone(), fb.ptr, line) {
            let (g, b) = match r {
                Ok((g, PVal::Node(b))) if g.ty[b] == fb.strukt => (g, b),
                Ok(_) => {
                    out.push(Err(self.deref_error(
                        fb.ptr,
                        line,
                        "the dereferenced pointer",
                    )));
                    continue;
                }
                Err(e) => {
                    out.push(Err(e));
                    continue;
                }
            };
            for r in self.eval_ptr(g, fa.ptr, line) {
                match r {
                    Ok((g, PVal::Node(a))) if g.ty[a] == fa.strukt => out.extend(
                        self.compare(g, (a, b), vars, (fa.field, &links), *op)
                            .into_iter()
                            .map(Ok),
                    ),
                    Ok(_) => out.push(Err(self.deref_error(
                        fa.ptr,
                        line,
                        "the dereferenced pointer",
                    ))),
                    Err(e) => out.push(Err(e)),
                }
            }
        }
        Some(out)
    }

    /// The value of `a.f op b.f` in `g`, split where an ordering that decides it is 1/2.
    fn compare(
        &self,
        g: Graph,
        (a, b): (usize, usize),
        (va, vb): (Option<VarId>, Option<VarId>),
        (field, links): (&str, &[String]),
        op: CmpOp,
    ) -> Vec<(Graph, Kleene)> {
        // Written as `x.f <= y.f`, possibly negated; `qx`, `qy`: the pointer variables read.
        let (x, y, qx, qy, positive) = match op {
            CmpOp::Le => (a, b, va, vb, true),
            CmpOp::Gt => (a, b, va, vb, false),
            CmpOp::Ge => (b, a, vb, va, true),
            CmpOp::Lt => (b, a, vb, va, false),
            CmpOp::Eq | CmpOp::Ne => return vec![(g, H)],
        };
        let sign = |k: Kleene| if positive { k } else { k.not() };
        if self.bounded(&g, x, y, field) {
            return vec![(g, sign(T))];
        }
        if self.separated(&g, y, x, field, true) {
            return vec![(g, sign(F))];
        }
        // `x.f <= y.f` where y follows x; or its negation `y.f < x.f` where x follows y
        // (which a failed ordering on y shows).
        for link in links {
            let Some(f) = self.v.field(g.ty[x], link) else {
                continue;
            };
            let Some(id) = self.ordering_pred(g.ty[x], field, link) else {
                continue;
            };
            if matches!(self.succ(&g, x, f), Succ::Node(u) if u == y) {
                return self.split(g, x, id, sign);
            }
            if matches!(self.succ(&g, y, f), Succ::Node(u) if u == x) && g.sm[y] == F {
                // `y.f <= x.f` holding leaves `x.f <= y.f` open; failing, decides it true.
                return self.split(g, y, id, |k| if k == F { sign(T) } else { H });
            }
        }
        // `x.f <= q->f` where `q` points to y; `!(y.f < q->f)` where `q` points to x: one
        // decided, the other takes its value (either pointer may move on first).
        let on_x = qy.and_then(|q| self.cell_pred(g.ty[x], field, q, false));
        let on_y = qx.and_then(|q| self.cell_pred(g.ty[y], field, q, true));
        match (on_x, on_y) {
            (Some(i), other) => {
                let mut parts = self.split(g, x, i, |k| k);
                if let Some(j) = other {
                    for (part, k) in &mut parts {
                        if *k != H && part.sm[y] == F && part.get(self.v, j, &[y]) == H {
                            part.set(self.v, j, &[y], k.not());
                            self.imply_cell(part, y, j);
                        }
                    }
                }
                return parts.into_iter().map(|(g, k)| (g, sign(k))).collect();
            }
            (None, Some(j)) => return self.split(g, y, j, |k| sign(k.not())),
            (None, None) => {}
        }
        vec![(g, H)]
    }

    /// The predicate `f < q->f` (`strict`) or `f <= q->f` on struct `s`.
    fn cell_pred(&self, s: StructId, field: &str, q: VarId, strict: bool) -> Option<usize> {
        self.v
            .field_preds(s, field)
            .find_map(|d| match &d.assertion.bound {
                Bound::Cell { strict: t, ptr, .. } if *ptr == q && *t == strict => Some(d.id),
                _ => None,
            })
    }

    /// On node `a`, after predicate `id` was decided: `f < q->f` holding makes `f <= q->f`
    /// hold, `f <= q->f` failing makes `f < q->f` fail.
    fn imply_cell(&self, g: &mut Graph, a: usize, id: usize) {
        let Some(d) = self.v.data.iter().find(|d| d.id == id) else {
            return;
        };
        let Bound::Cell { strict, ptr, .. } = &d.assertion.bound else {
            return;
        };
        let k = g.get(self.v, id, &[a]);
        let other = self.cell_pred(g.ty[a], &d.assertion.field, *ptr, !strict);
        match (other, strict, k) {
            (Some(o), true, T) => g.set(self.v, o, &[a], T),
            (Some(o), false, F) => g.set(self.v, o, &[a], F),
            _ => {}
        }
    }

    /// Predicate `id` on node `a`, split into the parts where it holds and fails when 1/2
    /// (only on a single cell: a summary's cells may differ), each with `value` of it.
    fn split(
        &self,
        g: Graph,
        a: usize,
        id: usize,
        value: impl Fn(Kleene) -> Kleene,
    ) -> Vec<(Graph, Kleene)> {
        let k = g.get(self.v, id, &[a]);
        if k != H || g.sm[a] != F {
            return vec![(g, value(k))];
        }
        [T, F]
            .into_iter()
            .map(|k| {
                let mut part = g.clone();
                part.set(self.v, id, &[a], k);
                self.imply_cell(&mut part, a, id);
                (part, value(k))
            })
            .collect()
    }
}

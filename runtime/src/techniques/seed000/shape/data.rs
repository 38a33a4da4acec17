//! Field predicates on shape graphs: the abstract semantics of data fields under the field
//! assertions of a tracking definition (seed 000 §2.3, `fd_ϕ`).
//!
//! Consumes a [`Graph`] whose vocabulary carries field predicates `fd[f == c]` and an IR
//! operation that touches a data field of an analysed struct; produces the successor graphs.
//! A store `p->f = e` sets the predicates of `p`'s cell to the constant `e` is known to hold
//! (a literal, a variable holding a copied constant, or a field whose predicate says so), or
//! to 1/2 when it is unknown; a new cell's data is unknown (zero for `calloc`). A condition
//! `p->f == c` (or `!=`, or `p->f` as a truth value) evaluates from the cell's predicates:
//! a predicate at 1/2 is split into the structure where it holds and the one where it does
//! not (focus on a unary predicate), and predicates on other constants of the same field are
//! set to 0 where one holds (the only coerce constraint among field predicates). Everything
//! else (other comparisons, arithmetic, casts that may change a value) is left unknown, which
//! is sound: conditions on it take both branches. Field assertions may also order a field
//! against a constant (`f < c`) or an integer variable (`f < x`, `f <= x`), with the same
//! update, split and implication rules; they are forgotten when the variable is written. A
//! condition on an integer variable records its constant (`x == c`) or a constant it differs
//! from (`if (x)`, `x != c`), until the variable is written. [`atoms`] reads the candidate field
//! assertions off the operations of an infeasible path, for refinement.

use super::graph::{F, Graph, H, T};
use super::transfer::{AbsError, PVal, Transfer};
use super::vocab::{Assertion, Bound};
use crate::program::ir::*;
use shapecheck_dsl::eval::Kleene;

/// A data-field access `p->f`: the pointer, the struct and the field name.
pub struct DataField<'e> {
    /// The pointer dereferenced.
    pub ptr: &'e Expr,
    /// The struct it points to.
    pub strukt: StructId,
    /// The field.
    pub field: &'e str,
}

/// `p->f` for an integer field `f` of the struct `p` points to.
pub fn data_field(e: &Expr) -> Option<DataField<'_>> {
    let ExprKind::Field(base, _, name) = &e.kind else {
        return None;
    };
    let ExprKind::Deref(p) = &base.kind else {
        return None;
    };
    let Some(Type::Struct(s)) = p.ty.pointee() else {
        return None;
    };
    e.ty.as_int()?;
    Some(DataField {
        ptr: p,
        strukt: *s,
        field: name,
    })
}

/// Whether `v` is a value of type `t`.
pub fn fits(v: i64, t: IntTy) -> bool {
    if t.boolean {
        return v == 0 || v == 1;
    }
    if t.bits >= 64 {
        return t.signed || v >= 0;
    }
    let b = u32::from(t.bits);
    if t.signed {
        let half = 1i64 << (b - 1);
        (-half..half).contains(&v)
    } else {
        (0..(1i64 << b)).contains(&v)
    }
}

/// Strips integer conversions that keep every value of the inner type.
pub(super) fn strip_widening(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) => match (inner.ty.as_int(), e.ty.as_int()) {
            (Some(i), Some(o))
                if !o.boolean
                    && ((i.bits < o.bits && (o.signed || !i.signed))
                        || (i.bits == o.bits && i.signed == o.signed)) =>
            {
                strip_widening(inner)
            }
            _ => e,
        },
        _ => e,
    }
}

impl Transfer<'_> {
    /// The field predicates of a new cell `u` of struct `s`: unknown, or `f == 0` when the
    /// block is zeroed.
    pub fn init_data(&self, g: &mut Graph, u: usize, s: StructId, zeroed: bool) {
        for d in self.v.data.iter().filter(|d| d.assertion.strukt == s) {
            let k = match d.assertion.bound {
                Bound::Eq(c) if zeroed => Kleene::from_bool(c == 0),
                Bound::Below(c) if zeroed => Kleene::from_bool(0 < c),
                // A zeroed cell's link is null.
                Bound::Sorted { .. } if zeroed => T,
                _ => H,
            };
            g.set(self.v, d.id, &[u], k);
        }
    }

    /// The constant an integer expression holds in `g` (whose dereferences are already
    /// focused): a literal, a copied constant, or a data field whose predicate holds.
    pub fn data_const(&self, g: &Graph, e: &Expr) -> Option<i64> {
        if let Some(c) = super::transfer::const_value(g, e) {
            return Some(c);
        }
        let inner = strip_widening(e);
        let df = data_field(inner)?;
        let [Ok((_, PVal::Node(a)))] = self.eval_ptr(g.clone(), df.ptr, 0)[..] else {
            return None;
        };
        self.v
            .data_preds(df.strukt, df.field)
            .into_iter()
            .find(|(_, id)| g.get(self.v, *id, &[a]) == T)
            .map(|(c, _)| c)
    }

    /// The truth of an integer condition whose operands `g` (focused) knows: a comparison
    /// of two known constants (copied constants, data fields whose predicate holds), or a
    /// known value; 1/2 otherwise.
    pub fn known_truth(&self, g: &Graph, e: &Expr) -> Kleene {
        let known = match &e.kind {
            ExprKind::Cmp(op, a, b) if a.ty.as_int().is_some() && b.ty.as_int().is_some() => {
                let same = self.same_cell_field(g, a, b);
                let differ = differs(g, a, b) || differs(g, b, a);
                match (self.data_const(g, a), self.data_const(g, b)) {
                    _ if same => Some(matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge)),
                    _ if differ && matches!(op, CmpOp::Eq | CmpOp::Ne) => Some(*op == CmpOp::Ne),
                    (Some(x), Some(y)) => Some(match op {
                        CmpOp::Eq => x == y,
                        CmpOp::Ne => x != y,
                        CmpOp::Lt => x < y,
                        CmpOp::Le => x <= y,
                        CmpOp::Gt => x > y,
                        CmpOp::Ge => x >= y,
                    }),
                    _ => None,
                }
            }
            _ if differs_from(g, e, 0) => Some(true),
            _ if e.ty.as_int().is_some() => self.data_const(g, e).map(|c| c != 0),
            _ => None,
        };
        known.map_or(H, Kleene::from_bool)
    }

    /// Before `x = p->f` copies a data field into a variable: `g` split on the field's
    /// equality predicates that are 1/2 on `p`'s cell, so that the copy is a known constant
    /// in every part but the one where none holds (`t = x->data; if (t == 2) ...` keeps the
    /// link between the variable and the cell).
    pub fn focus_read(&self, g: Graph, rhs: &Expr) -> Vec<Graph> {
        let Some(df) = data_field(strip_widening(rhs)) else {
            return vec![g];
        };
        let preds = self.v.data_preds(df.strukt, df.field);
        let a = match self.eval_ptr(g.clone(), df.ptr, 0)[..] {
            [Ok((_, PVal::Node(a)))] if g.sm[a] == F && g.ty[a] == df.strukt => a,
            _ => return vec![g],
        };
        let mut parts = vec![g];
        for &(_, id) in &preds {
            parts = parts
                .into_iter()
                .flat_map(|g| self.split_pred(g, &df, a, id).into_iter().map(|(g, _)| g))
                .collect();
        }
        parts
    }

    /// Records what condition `cond`, having held (`positive`) or failed, shows of an
    /// integer variable whose address is never taken: `x` (or `x != 0`) nonzero, `x == c`
    /// the constant `c` (either side, through conversions that keep the values).
    pub fn learn(&self, g: &mut Graph, cond: &Expr, positive: bool) {
        let (x, c, eq) = match &cond.kind {
            ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) => {
                let (a, b) = (strip_widening(a), strip_widening(b));
                match (&a.kind, &b.kind, literal(a), literal(b)) {
                    (ExprKind::Var(x), _, _, Some(c)) | (_, ExprKind::Var(x), Some(c), _) => {
                        (*x, c, *op == CmpOp::Eq)
                    }
                    _ => return,
                }
            }
            _ => match &strip_widening(cond).kind {
                ExprKind::Var(x) => (*x, 0, false),
                _ => return,
            },
        };
        let Some(ty) = self.prog.var(x).ty.as_int() else {
            return;
        };
        if self.escaped.contains(&x) || !fits(c, ty) {
            return;
        }
        if eq == positive {
            g.set_constant(x, Some(c));
        } else if g.constant(x).is_none() {
            g.exclude(x, c);
        }
    }

    /// Whether `a` and `b` read the same field of the same cell (through pointers `g`, already
    /// focused, resolves to one single-cell node), so that they are equal.
    fn same_cell_field(&self, g: &Graph, a: &Expr, b: &Expr) -> bool {
        let (a, b) = (strip_widening(a), strip_widening(b));
        let (Some(fa), Some(fb)) = (data_field(a), data_field(b)) else {
            return false;
        };
        if fa.strukt != fb.strukt || fa.field != fb.field || a.ty != b.ty {
            return false;
        }
        let node = |p: &Expr| match self.eval_ptr(g.clone(), p, 0)[..] {
            [Ok((_, PVal::Node(u)))] => Some(u),
            _ => None,
        };
        matches!((node(fa.ptr), node(fb.ptr)), (Some(u), Some(w)) if u == w && g.sm[u] == F)
    }

    /// `p->f = rhs` for a data field with field predicates: `None` when `lhs` is not one.
    pub fn store_data(
        &self,
        g: &Graph,
        lhs: &Expr,
        rhs: &Expr,
        line: u32,
    ) -> Option<Vec<Result<Graph, AbsError>>> {
        let copied = match &strip_widening(rhs).kind {
            ExprKind::Var(x) if rhs.ty == lhs.ty => Some(*x),
            _ => None,
        };
        self.store_data_value(g, lhs, self.data_const(g, rhs), copied, line)
    }

    /// Integer variable `x` takes the constant `c` (`None`: an unknown value): its copied
    /// constant is replaced and the field predicates comparing a field with it become 1/2.
    pub fn set_int_var(&self, g: &mut Graph, x: VarId, c: Option<i64>) {
        g.set_constant(x, c);
        for d in self.v.data.iter().filter(|d| d.assertion.var() == Some(x)) {
            for u in 0..g.n {
                g.set(self.v, d.id, &[u], H);
            }
        }
    }

    /// Whether some field relation to integer variable `x` is known on some node.
    pub fn relates(&self, g: &Graph, x: VarId) -> bool {
        self.v
            .data
            .iter()
            .filter(|d| d.assertion.var() == Some(x))
            .any(|d| (0..g.n).any(|u| g.get(self.v, d.id, &[u]) != H))
    }

    /// `x = y` for integer variables of one type, after [`Self::set_int_var`]: `x` is equal
    /// to `y` (and to what `y` is known equal to), and every field's relation to `x` takes
    /// the values of its relation to `y` where the vocabulary has both (TVLA's update for a
    /// copy).
    pub fn copy_relations(&self, g: &mut Graph, x: VarId, rhs: &Expr) {
        let ExprKind::Var(y) = &rhs.kind else {
            return;
        };
        if *y == x || self.escaped.contains(&x) || self.escaped.contains(y) {
            return;
        }
        for d in self.v.data.iter().filter(|d| d.assertion.var() == Some(x)) {
            let from = self
                .v
                .field_preds(d.assertion.strukt, &d.assertion.field)
                .find(|e| {
                    e.assertion.var() == Some(*y)
                        && same_kind(&d.assertion.bound, &e.assertion.bound)
                });
            if let Some(from) = from {
                for u in 0..g.n {
                    let k = g.get(self.v, from.id, &[u]);
                    g.set(self.v, d.id, &[u], k);
                }
            }
        }
        g.equate(x, *y);
    }

    /// `x = p->f` (through conversions that keep the value), after [`Self::set_int_var`]:
    /// on `p`'s cell, `f < x` is false and `f <= x` true; `x` differs from every constant
    /// `c` whose predicate `f == c` is 0 there.
    pub fn read_into(&self, g: &mut Graph, x: VarId, rhs: &Expr) {
        let Some(df) = data_field(strip_widening(rhs)) else {
            return;
        };
        let [Ok((_, PVal::Node(a)))] = self.eval_ptr(g.clone(), df.ptr, 0)[..] else {
            return;
        };
        if g.sm[a] != F || g.ty[a] != df.strukt {
            return;
        }
        for (strict, id) in self.v.relation_preds(df.strukt, df.field, x) {
            g.set(self.v, id, &[a], Kleene::from_bool(!strict));
        }
        for d in self.v.field_preds(df.strukt, df.field) {
            if matches!(&d.assertion.bound, Bound::VarEq { var, .. } if *var == x) {
                g.set(self.v, d.id, &[a], T);
            }
        }
        if g.constant(x).is_none() && !self.escaped.contains(&x) {
            for (c, id) in self.v.data_preds(df.strukt, df.field) {
                if g.get(self.v, id, &[a]) == F {
                    g.exclude(x, c);
                }
            }
        }
    }

    /// A store of an unknown value (an input, a call's result) into `lhs`: its copied
    /// constant is forgotten if it is a variable, its field predicates become 1/2 if it is a
    /// data field with some; its dereferences are checked.
    pub fn havoc(&self, mut g: Graph, lhs: &Expr, line: u32) -> Vec<Result<Graph, AbsError>> {
        if let ExprKind::Var(x) = &lhs.kind {
            self.set_int_var(&mut g, *x, None);
        }
        match self.store_data_value(&g, lhs, None, None, line) {
            Some(out) => out,
            None => self
                .check(g, lhs, line)
                .into_iter()
                .map(|r| r.map(|(g, ())| g))
                .collect(),
        }
    }

    /// `p->f = value` (`None`: unknown; `copied`: the value of that variable) for a data
    /// field with field predicates: `None` when `lhs` is not one.
    fn store_data_value(
        &self,
        g: &Graph,
        lhs: &Expr,
        value: Option<i64>,
        copied: Option<VarId>,
        line: u32,
    ) -> Option<Vec<Result<Graph, AbsError>>> {
        let df = data_field(lhs)?;
        let preds: Vec<_> = self.v.field_preds(df.strukt, df.field).collect();
        if preds.is_empty() {
            return None;
        }
        let ty = lhs.ty.as_int()?;
        let value = value.filter(|c| fits(*c, ty));
        Some(self.per_cell(g, &df, line, |mut g, a| {
            for d in &preds {
                let k = match &d.assertion.bound {
                    // A copied variable known to differ from `c` (`if (x) p->f = x;`).
                    Bound::Eq(c) if value.is_none() && copied.is_some_and(|x| g.differs(x, *c)) => {
                        F
                    }
                    Bound::Eq(c) => value.map_or(H, |v| Kleene::from_bool(v == *c)),
                    Bound::Below(c) => value.map_or(H, |v| Kleene::from_bool(v < *c)),
                    Bound::Var { strict, var, .. } if copied.is_some_and(|x| g.same(x, *var)) => {
                        Kleene::from_bool(!strict)
                    }
                    Bound::VarEq { var, .. } if copied.is_some_and(|x| g.same(x, *var)) => T,
                    Bound::Var { .. } | Bound::VarEq { .. } => H,
                    Bound::Sorted { .. } => continue,
                    Bound::Cell { .. } => H,
                };
                g.set(self.v, d.id, &[a], k);
            }
            self.order_after_data(&mut g, a, df.field);
            vec![g]
        }))
    }

    /// An ordering `p->f < e`, `p->f <= e`, `p->f > e`, `p->f >= e` (either side) of a data
    /// field with an integer variable or a constant, through conversions that keep the
    /// values, where the vocabulary has the predicate it reads: `None` otherwise.
    fn relation_cond(
        &self,
        g: &Graph,
        e: &Expr,
        line: u32,
    ) -> Option<Vec<Result<(Graph, Kleene), AbsError>>> {
        let ExprKind::Cmp(op, a, b) = &e.kind else {
            return None;
        };
        let (df, other, op) = field_first(*op, a, b)?;
        let (bound, positive) = self.ordering(g, &df, other, op)?;
        let id = self
            .v
            .field_preds(df.strukt, df.field)
            .find(|d| d.assertion.bound == bound)?
            .id;
        Some(self.per_cell(g, &df, line, |g, a| {
            self.split_pred(g, &df, a, id)
                .into_iter()
                .map(|(g, k)| (g, if positive { k } else { k.not() }))
                .collect()
        }))
    }

    /// `p->f == x` or `p->f != x` (either side) for an integer variable `x` the vocabulary
    /// relates `f` to: by the predicate `f == x`, else as `f <= x` and not `f < x`, each
    /// split where 1/2.
    fn var_equality_cond(
        &self,
        g: &Graph,
        e: &Expr,
        line: u32,
    ) -> Option<Vec<Result<(Graph, Kleene), AbsError>>> {
        let ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) = &e.kind else {
            return None;
        };
        let (df, other, _) = field_first(*op, a, b)?;
        let ExprKind::Var(x) = &other.kind else {
            return None;
        };
        let pred = |strict: bool| {
            self.v
                .field_preds(df.strukt, df.field)
                .find(|d| matches!(&d.assertion.bound, Bound::Var { strict: s, var, .. } if *s == strict && var == x))
                .map(|d| d.id)
        };
        let eq = *op == CmpOp::Eq;
        if let Some(id) = self
            .v
            .field_preds(df.strukt, df.field)
            .find(|d| matches!(&d.assertion.bound, Bound::VarEq { var, .. } if var == x))
            .map(|d| d.id)
        {
            return Some(self.per_cell(g, &df, line, |g, a| {
                self.split_pred(g, &df, a, id)
                    .into_iter()
                    .map(|(g, k)| (g, if eq { k } else { k.not() }))
                    .collect()
            }));
        }
        let (le, lt) = (pred(false)?, pred(true)?);
        Some(self.per_cell(g, &df, line, |g, a| {
            let mut out = vec![];
            for (g, k) in self.split_pred(g, &df, a, le) {
                if k == F {
                    out.push((g, Kleene::from_bool(!eq)));
                    continue;
                }
                for (g, k) in self.split_pred(g, &df, a, lt) {
                    out.push((g, Kleene::from_bool((k == F) == eq)));
                }
            }
            out
        }))
    }

    /// `f op other` as a field assertion and whether it is that assertion (true) or its
    /// negation: with a variable the vocabulary relates `f` to, else with a constant.
    fn ordering(
        &self,
        g: &Graph,
        df: &DataField,
        other: &Expr,
        op: CmpOp,
    ) -> Option<(Bound, bool)> {
        let (strict, positive) = match op {
            CmpOp::Lt => (true, true),
            CmpOp::Ge => (true, false),
            CmpOp::Le => (false, true),
            CmpOp::Gt => (false, false),
            CmpOp::Eq | CmpOp::Ne => return None,
        };
        if let ExprKind::Var(x) = &other.kind
            && let Some(d) = self
                .v
                .field_preds(df.strukt, df.field)
                .find(|d| matches!(&d.assertion.bound, Bound::Var { strict: s, var, .. } if *s == strict && var == x))
        {
            return Some((d.assertion.bound.clone(), positive));
        }
        let c = super::transfer::const_value(g, other)?;
        Some((Bound::Below(strict_limit(op, c)?), positive))
    }

    /// The value of field predicate `id` on cell `a`, splitting the structure where it is
    /// 1/2; in each part the other predicates of the field that it decides are set.
    fn split_pred(&self, g: Graph, df: &DataField, a: usize, id: usize) -> Vec<(Graph, Kleene)> {
        let k = g.get(self.v, id, &[a]);
        if k != H {
            return vec![(g, k)];
        }
        [T, F]
            .into_iter()
            .map(|k| {
                let mut part = g.clone();
                part.set(self.v, id, &[a], k);
                self.imply(&mut part, df, a, id);
                (part, k)
            })
            .collect()
    }

    /// Sets, on cell `a`, the field predicates of `df`'s field that the value of predicate
    /// `id` decides and that are still 1/2 (`f < 5` holding makes `f < 10` hold and
    /// `f == 7` fail; `f < x` holding makes `f <= x` hold).
    fn imply(&self, g: &mut Graph, df: &DataField, a: usize, id: usize) {
        let Some(known) = self.v.data.iter().find(|d| d.id == id) else {
            return;
        };
        let holds = g.get(self.v, id, &[a]) == T;
        for d in self.v.field_preds(df.strukt, df.field) {
            if d.id == id || g.get(self.v, d.id, &[a]) != H {
                continue;
            }
            let same_var = match (known.assertion.var(), d.assertion.var()) {
                (Some(x), Some(y)) => {
                    same_kind(&known.assertion.bound, &d.assertion.bound) && g.same(x, y)
                }
                _ => false,
            };
            let k = if same_var {
                Some(holds)
            } else {
                implied(&known.assertion.bound, holds, &d.assertion.bound)
            };
            if let Some(k) = k {
                g.set(self.v, d.id, &[a], Kleene::from_bool(k));
            }
        }
    }

    /// A condition on a data field with field predicates: `p->f == c`, `p->f != c` (either
    /// side), or `p->f` as a truth value; `None` when `e` is not one.
    pub fn data_cond(
        &self,
        g: &Graph,
        e: &Expr,
        line: u32,
    ) -> Option<Vec<Result<(Graph, Kleene), AbsError>>> {
        if let Some(out) = self
            .order_cond(g, e, line)
            .or_else(|| self.relation_cond(g, e, line))
            .or_else(|| self.var_equality_cond(g, e, line))
        {
            return Some(out);
        }
        let (field, c, eq) = match &e.kind {
            ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) => {
                let (a, b) = (strip_widening(a), strip_widening(b));
                let (f, k) = match (data_field(a), data_field(b)) {
                    (Some(_), _) => (a, super::transfer::const_value(g, b)?),
                    (None, Some(_)) => (b, super::transfer::const_value(g, a)?),
                    _ => return None,
                };
                (f, k, *op == CmpOp::Eq)
            }
            _ if data_field(strip_widening(e)).is_some() => (strip_widening(e), 0, false),
            _ => return None,
        };
        let df = data_field(field)?;
        let preds = self.v.data_preds(df.strukt, df.field);
        if preds.is_empty() {
            return None;
        }
        Some(self.per_cell(g, &df, line, |g, a| {
            self.split_data(g, &df, a, &preds, c)
                .into_iter()
                .map(|(g, k)| (g, if eq { k } else { k.not() }))
                .collect()
        }))
    }

    /// `each` on every focused structure in which the pointer of `df` is a single cell of the
    /// field's struct; anything else it may be is an invalid dereference.
    fn per_cell<X>(
        &self,
        g: &Graph,
        df: &DataField,
        line: u32,
        each: impl Fn(Graph, usize) -> Vec<X>,
    ) -> Vec<Result<X, AbsError>> {
        let mut out = vec![];
        for r in self.eval_ptr(g.clone(), df.ptr, line) {
            match r {
                Ok((g, PVal::Node(a))) if g.ty[a] == df.strukt => {
                    out.extend(each(g, a).into_iter().map(Ok))
                }
                Ok(_) => out.push(Err(self.deref_error(
                    df.ptr,
                    line,
                    "the dereferenced pointer",
                ))),
                Err(e) => out.push(Err(e)),
            }
        }
        out
    }

    /// The value of `f == c` on cell `a`, splitting the structure where its predicate is 1/2.
    fn split_data(
        &self,
        g: Graph,
        df: &DataField,
        a: usize,
        preds: &[(i64, usize)],
        c: i64,
    ) -> Vec<(Graph, Kleene)> {
        let other = preds
            .iter()
            .any(|(v, id)| *v != c && g.get(self.v, *id, &[a]) == T);
        if other {
            return vec![(g, F)];
        }
        let Some(&(_, id)) = preds.iter().find(|(v, _)| *v == c) else {
            return vec![(g, H)];
        };
        self.split_pred(g, df, a, id)
    }
}

/// Whether `e` is an integer variable (through conversions that keep its value) known to
/// differ from the constant `k` holds.
fn differs(g: &Graph, e: &Expr, k: &Expr) -> bool {
    super::transfer::const_value(g, k).is_some_and(|c| differs_from(g, e, c))
}

/// Whether `e` is an integer variable (through conversions that keep its value) known to
/// differ from `c`.
fn differs_from(g: &Graph, e: &Expr, c: i64) -> bool {
    matches!(&strip_widening(e).kind, ExprKind::Var(x) if g.differs(*x, c))
}

/// A comparison of one data field with something else (through conversions that keep the
/// values), written with the field first: the field, the other operand, the operator.
fn field_first<'e>(
    op: CmpOp,
    a: &'e Expr,
    b: &'e Expr,
) -> Option<(DataField<'e>, &'e Expr, CmpOp)> {
    let (a, b) = (strip_widening(a), strip_widening(b));
    match (data_field(a), data_field(b)) {
        (Some(df), None) => Some((df, b, op)),
        (None, Some(df)) => Some((df, a, flip(op))),
        _ => None,
    }
}

/// The `c'` of the strict `f < c'` that the ordering `f op c` states (`<`, `<=`) or denies
/// (`>=`, `>`); `None` for an equality or when `c + 1` overflows.
fn strict_limit(op: CmpOp, c: i64) -> Option<i64> {
    match op {
        CmpOp::Lt | CmpOp::Ge => Some(c),
        CmpOp::Le | CmpOp::Gt => c.checked_add(1),
        CmpOp::Eq | CmpOp::Ne => None,
    }
}

/// `x op y` as `y op' x`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Le,
        o => o,
    }
}

/// The value of assertion `other` on a cell where assertion `known` has value `holds`, if
/// that decides it.
fn implied(known: &Bound, holds: bool, other: &Bound) -> Option<bool> {
    match (known, other) {
        (Bound::Eq(_), Bound::Eq(_)) if holds => Some(false),
        (Bound::Eq(c), Bound::Below(d)) if holds => Some(c < d),
        (Bound::Below(c), Bound::Below(d)) if holds && d >= c => Some(true),
        (Bound::Below(c), Bound::Below(d)) if !holds && d <= c => Some(false),
        (Bound::Below(c), Bound::Eq(e)) if (holds && e >= c) || (!holds && e < c) => Some(false),
        (
            Bound::Var {
                strict: true, var, ..
            },
            Bound::Var {
                strict: false,
                var: w,
                ..
            },
        ) if holds && var == w => Some(true),
        (
            Bound::Var {
                strict: false, var, ..
            },
            Bound::Var {
                strict: true,
                var: w,
                ..
            },
        ) if !holds && var == w => Some(false),
        (Bound::VarEq { var, .. }, Bound::Var { strict, var: w, .. }) if holds && var == w => {
            Some(!strict)
        }
        (Bound::Var { strict, var, .. }, Bound::VarEq { var: w, .. })
            if var == w && holds == *strict =>
        {
            Some(false)
        }
        _ => None,
    }
}

/// Whether two relational bounds compare with a variable the same way (so that their values
/// agree when the variables are equal).
fn same_kind(a: &Bound, b: &Bound) -> bool {
    match (a, b) {
        (Bound::Var { strict, .. }, Bound::Var { strict: s, .. }) => strict == s,
        (Bound::VarEq { .. }, Bound::VarEq { .. }) => true,
        _ => false,
    }
}

/// The field assertions an IR operation's atoms state: `p->f == c` and `p->f != c` in
/// conditions (and `p->f` as a truth value: `f == 0`), and stores `p->f = c`, for integer
/// fields and integer literals (seed 000, Algorithm 3: "if p is dereferenced in φ, add the
/// field assertion corresponding to φ"). A store `p->f = v` of a variable that the program
/// only ever assigns literals (at most [`MAX_VALUES`] of them: a state or colour variable)
/// states `f == c` for each of them, which is what the path's interpolants say of `v`.
/// Bit-fields are left out.
pub fn atoms(prog: &Program, op: &Op) -> Vec<Assertion> {
    let mut out = vec![];
    match op {
        Op::Assume { cond, .. } => {
            cond.visit(&mut |e| match &e.kind {
                ExprKind::Cmp(CmpOp::Eq | CmpOp::Ne, a, b) => {
                    let (a, b) = (strip_widening(a), strip_widening(b));
                    out.extend(literal(b).and_then(|c| assertion(a, c)));
                    out.extend(literal(a).and_then(|c| assertion(b, c)));
                    if literal(a).is_none() && literal(b).is_none() {
                        out.extend(equalities(prog, a, b));
                    }
                }
                ExprKind::Cmp(op @ (CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge), a, b) => {
                    out.extend(relations(prog, *op, a, b));
                    out.extend(orderings(prog, a, b));
                }
                _ => {}
            });
            out.extend(assertion(strip_widening(cond), 0));
        }
        Op::Assign { lhs, rhs } => match (literal(rhs), &strip_widening(rhs).kind) {
            (Some(c), _) => out.extend(assertion(lhs, c)),
            (None, ExprKind::Var(v)) => {
                for c in literal_values(prog, *v).unwrap_or_default() {
                    out.extend(assertion(lhs, c));
                }
                out.extend(equalities(prog, lhs, rhs));
            }
            _ => {}
        },
        _ => {}
    }
    out
}

/// At most this many values of a variable become field assertions.
pub const MAX_VALUES: usize = 8;

/// The literals variable `v` is assigned, if it is assigned nothing else (and its address
/// is never taken) and there are at most [`MAX_VALUES`].
fn literal_values(prog: &Program, v: VarId) -> Option<Vec<i64>> {
    if prog.address_taken().contains(&v) {
        return None;
    }
    let mut out = vec![];
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            match &e.op {
                Op::Assign { lhs, rhs } if matches!(lhs.kind, ExprKind::Var(x) if x == v) => {
                    out.push(literal(rhs)?)
                }
                Op::Call { lhs: Some(l), .. } | Op::CallPtr { lhs: Some(l), .. } if matches!(l.kind, ExprKind::Var(x) if x == v) =>
                {
                    return None;
                }
                _ => {}
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    (out.len() <= MAX_VALUES).then_some(out)
}

/// An integer literal, through conversions that keep its value.
fn literal(e: &Expr) -> Option<i64> {
    let v = match &e.kind {
        ExprKind::Const(c) => *c,
        ExprKind::Cast(inner) => literal(inner)?,
        ExprKind::Unary(UnOp::Neg, inner) => literal(inner)?.checked_neg()?,
        _ => return None,
    };
    e.ty.as_int().filter(|t| fits(v, *t)).map(|_| v)
}

/// `f == c` when `f` is a data field that can hold `c`.
fn assertion(f: &Expr, c: i64) -> Option<Assertion> {
    let df = data_field(f)?;
    f.ty.as_int().filter(|t| fits(c, *t))?;
    Some(Assertion {
        strukt: df.strukt,
        field: df.field.to_string(),
        bound: Bound::Eq(c),
    })
}

/// At most this many variables share the relations of one through copies.
pub const MAX_COPIES: usize = 6;

/// Integer variable `x` and the variables its value is copied from or into (assignments
/// `y = x`, arguments bound to parameters), transitively, of its type and with addresses
/// never taken: the relation of a field to `x` is carried through them (a key passed to
/// the function that stores it and to the one that looks it up). `x` first; at most
/// [`MAX_COPIES`].
fn copies(prog: &Program, x: VarId) -> Vec<VarId> {
    let escaped = prog.address_taken();
    let ty = &prog.var(x).ty;
    let mut edges: Vec<(VarId, VarId)> = vec![];
    let mut copy = |a: &Expr, b: &Expr| {
        if let (ExprKind::Var(p), ExprKind::Var(q)) = (&a.kind, &strip_widening(b).kind)
            && prog.var(*p).ty == *ty
            && prog.var(*q).ty == *ty
            && !escaped.contains(p)
            && !escaped.contains(q)
        {
            edges.push((*p, *q));
        }
    };
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            match &e.op {
                Op::Assign { lhs, rhs } => copy(lhs, rhs),
                Op::Call {
                    callee: Callee::Func(c),
                    args,
                    ..
                } => {
                    for (p, a) in prog.func(*c).params.iter().zip(args) {
                        let param = Expr {
                            kind: ExprKind::Var(*p),
                            ty: prog.var(*p).ty.clone(),
                        };
                        copy(&param, a);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = vec![x];
    let mut i = 0;
    while i < out.len() && out.len() < MAX_COPIES {
        let v = out[i];
        for &(p, q) in &edges {
            let next = if p == v {
                q
            } else if q == v {
                p
            } else {
                continue;
            };
            if !out.contains(&next) && out.len() < MAX_COPIES {
                out.push(next);
            }
        }
        i += 1;
    }
    out
}

/// `f == x` for an equality of data field `f` with integer variable `x` (either side,
/// through conversions that keep the values) whose address is never taken, or a store of
/// `x` into `f`, and the same for every variable `x` is copied from or into.
fn equalities(prog: &Program, a: &Expr, b: &Expr) -> Vec<Assertion> {
    let Some((field, other, _)) = field_first(CmpOp::Eq, a, b) else {
        return vec![];
    };
    let ExprKind::Var(x) = &other.kind else {
        return vec![];
    };
    if prog.var(*x).ty.as_int().is_none() || prog.address_taken().contains(x) {
        return vec![];
    }
    copies(prog, *x)
        .into_iter()
        .map(|v| Assertion {
            strukt: field.strukt,
            field: field.field.to_string(),
            bound: Bound::VarEq {
                var: v,
                name: super::vocab::qualified_name(prog, v),
            },
        })
        .collect()
}

/// `f <= link->f` for every pointer field `link` of the struct to the struct itself, for an
/// ordering of data field `f` on two cells (through conversions that keep the values): the
/// interpolant of a path that compares a cell with its successor orders them along the link.
/// And `f < q->f`, `f <= q->f` for each side read through a pointer variable `q` whose address
/// is never taken (a cell compared with the one being inserted).
fn orderings(prog: &Program, a: &Expr, b: &Expr) -> Vec<Assertion> {
    let (a, b) = (strip_widening(a), strip_widening(b));
    let (Some(fa), Some(fb)) = (data_field(a), data_field(b)) else {
        return vec![];
    };
    if fa.strukt != fb.strukt || fa.field != fb.field || a.ty != b.ty {
        return vec![];
    }
    let own = Type::Struct(fa.strukt);
    let assertion = |bound| Assertion {
        strukt: fa.strukt,
        field: fa.field.to_string(),
        bound,
    };
    let escaped = prog.address_taken();
    let pointers = [fa.ptr, fb.ptr].into_iter().filter_map(|p| match &p.kind {
        ExprKind::Var(q) if !escaped.contains(q) => Some(*q),
        _ => None,
    });
    let cells = pointers.flat_map(|q| {
        [true, false].map(|strict| {
            assertion(Bound::Cell {
                strict,
                ptr: q,
                name: super::vocab::qualified_name(prog, q),
            })
        })
    });
    (prog.strukt(fa.strukt).fields.iter())
        .filter(|f| f.ty.pointee() == Some(&own))
        .map(|f| {
            assertion(Bound::Sorted {
                link: f.name.clone(),
            })
        })
        .chain(cells)
        .collect()
}

/// `f < x` and `f <= x` for a comparison of data field `f` with integer variable `x`
/// (either side, through conversions that keep the values) when `x`'s address is never
/// taken: the interpolant of a path that compares a field with a variable relates them.
fn relations(prog: &Program, op: CmpOp, a: &Expr, b: &Expr) -> Vec<Assertion> {
    let Some((field, other, op)) = field_first(op, a, b) else {
        return vec![];
    };
    let bounds = match (&other.kind, literal(other)) {
        (_, Some(c)) => strict_limit(op, c).map(Bound::Below).into_iter().collect(),
        (ExprKind::Var(x), None)
            if prog.var(*x).ty.as_int().is_some() && !prog.address_taken().contains(x) =>
        {
            copies(prog, *x)
                .into_iter()
                .flat_map(|v| {
                    [true, false].map(|strict| Bound::Var {
                        strict,
                        var: v,
                        name: super::vocab::qualified_name(prog, v),
                    })
                })
                .collect()
        }
        _ => vec![],
    };
    bounds
        .into_iter()
        .map(|bound| Assertion {
            strukt: field.strukt,
            field: field.field.to_string(),
            bound,
        })
        .collect()
}

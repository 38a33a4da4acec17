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
//! is sound: conditions on it take both branches. [`atoms`] reads the candidate field
//! assertions off the operations of an infeasible path, for refinement.

use super::graph::{F, Graph, H, T};
use super::transfer::{AbsError, PVal, Transfer};
use super::vocab::Assertion;
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
fn strip_widening(e: &Expr) -> &Expr {
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
            let k = if zeroed {
                Kleene::from_bool(d.assertion.value == 0)
            } else {
                H
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
                match (self.data_const(g, a), self.data_const(g, b)) {
                    _ if same => Some(matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge)),
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
            _ if e.ty.as_int().is_some() => self.data_const(g, e).map(|c| c != 0),
            _ => None,
        };
        known.map_or(H, Kleene::from_bool)
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
        self.store_data_value(g, lhs, self.data_const(g, rhs), line)
    }

    /// A store of an unknown value (an input, a call's result) into `lhs`: its copied
    /// constant is forgotten if it is a variable, its field predicates become 1/2 if it is a
    /// data field with some; its dereferences are checked.
    pub fn havoc(&self, mut g: Graph, lhs: &Expr, line: u32) -> Vec<Result<Graph, AbsError>> {
        if let ExprKind::Var(x) = &lhs.kind {
            g.set_constant(*x, None);
        }
        match self.store_data_value(&g, lhs, None, line) {
            Some(out) => out,
            None => self
                .check(g, lhs, line)
                .into_iter()
                .map(|r| r.map(|(g, ())| g))
                .collect(),
        }
    }

    /// `p->f = value` (`None`: unknown) for a data field with field predicates: `None` when
    /// `lhs` is not one.
    fn store_data_value(
        &self,
        g: &Graph,
        lhs: &Expr,
        value: Option<i64>,
        line: u32,
    ) -> Option<Vec<Result<Graph, AbsError>>> {
        let df = data_field(lhs)?;
        let preds = self.v.data_preds(df.strukt, df.field);
        if preds.is_empty() {
            return None;
        }
        let ty = lhs.ty.as_int()?;
        let value = value.filter(|c| fits(*c, ty));
        Some(self.per_cell(g, &df, line, |mut g, a| {
            for &(c, id) in &preds {
                g.set(
                    self.v,
                    id,
                    &[a],
                    value.map_or(H, |v| Kleene::from_bool(v == c)),
                );
            }
            vec![g]
        }))
    }

    /// A condition on a data field with field predicates: `p->f == c`, `p->f != c` (either
    /// side), or `p->f` as a truth value; `None` when `e` is not one.
    pub fn data_cond(
        &self,
        g: &Graph,
        e: &Expr,
        line: u32,
    ) -> Option<Vec<Result<(Graph, Kleene), AbsError>>> {
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
            self.split_data(g, a, &preds, c)
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
        match g.get(self.v, id, &[a]) {
            H => {
                let mut yes = g.clone();
                for &(_, other) in preds {
                    yes.set(self.v, other, &[a], Kleene::from_bool(other == id));
                }
                let mut no = g;
                no.set(self.v, id, &[a], F);
                vec![(yes, T), (no, F)]
            }
            k => vec![(g, k)],
        }
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
                }
                ExprKind::Unary(UnOp::Not, a) => out.extend(assertion(strip_widening(a), 0)),
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
    if super::analysis::escaped_vars(prog).contains(&v) {
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
        value: c,
    })
}

//! Symbolic execution of the program IR over symbolic heaps (seed 001, section 2: the forward
//! transfer `⟦c⟧(Δ)` by rearrangement and the small axioms of the commands).
//!
//! Consumes a heap and one operation of the inlined program ([`Flat`](crate::techniques::seed002::flat::Flat));
//! produces the heaps after it ([`Post::Heaps`], inconsistent ones dropped), the error `⊤`
//! ([`Post::Error`]: an error call, or an access or `free` the heap does not prove safe), or
//! [`Post::Unsupported`] with the construct. Rearrangement exposes the cell a field access
//! needs: a cell at a provably equal address, or the first cell of a segment starting there,
//! unfolded by the recursive definition of Fig. 3 into every case (one per element of the
//! segment's multiset, as the definition requires to be exhaustive). Values are terms: a
//! variable's current value, a constant, or an existential; an assignment renames the old
//! value of the variable to a fresh existential. Arithmetic the terms cannot express yields a
//! fresh existential (a sound havoc), and a condition they cannot express constrains nothing.

use super::heap::{Atom, Bag, Caps, Cell, Classes, ListShape, Seg, SymHeap, Term};
use crate::program::ir::{
    AllocKind, Builtin, Callee, CmpOp, ErrorCall, Expr, ExprKind, Op, Program, StructId, Type,
    VarId,
};

/// What an operation does to one heap.
#[derive(Clone, Debug)]
pub enum Post {
    /// The heaps after it (none: the operation blocks, as a false assumption or `abort`).
    Heaps(Vec<SymHeap>),
    /// `⊤`: the heap does not prove the operation safe, or it reaches an error call.
    Error(String),
    /// A construct outside the engine's fragment.
    Unsupported(String),
}

/// A failed evaluation.
enum Stop {
    Error(String),
    Unsupported(String),
}

type Res<T> = Result<T, Stop>;

/// The symbolic executor of one program.
#[derive(Clone, Copy)]
pub struct Exec<'a> {
    /// The (inlined) program whose operations run.
    pub prog: &'a Program,
    /// The domain's list shapes (how a segment unfolds).
    pub shapes: &'a [ListShape],
    /// Whether an error call is `⊤` (unreach-call is checked); otherwise it is a no-op.
    pub error_calls: bool,
}

impl Exec<'_> {
    /// `⟦op⟧(h)`.
    pub fn post(&self, h: &SymHeap, op: &Op) -> Post {
        FLOOR.with(|f| f.set(0));
        let out = match op {
            Op::Skip => Ok(vec![h.clone()]),
            Op::Havoc(v) => Ok(vec![havoc(h, *v)]),
            Op::Assign { lhs, rhs } => self.assign(h, lhs, rhs),
            Op::Assume { cond, positive } => self.assume(h, cond, *positive),
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => self.builtin(h, lhs.as_ref(), *b, args),
            Op::Call { .. } => Err(Stop::Unsupported("a call that was not inlined".into())),
            Op::CallPtr { .. } => Err(Stop::Unsupported(
                "a call through a function pointer".into(),
            )),
            Op::Return(_) => Ok(vec![h.clone()]),
            Op::Unsupported(what) => Err(Stop::Unsupported(what.clone())),
        };
        match out {
            Ok(hs) => Post::Heaps(hs.into_iter().filter(|h| !h.inconsistent()).collect()),
            Err(Stop::Error(why)) => Post::Error(why),
            Err(Stop::Unsupported(why)) => Post::Unsupported(why),
        }
    }

    /// `lhs = rhs`.
    fn assign(&self, h: &SymHeap, lhs: &Expr, rhs: &Expr) -> Res<Vec<SymHeap>> {
        let mut out = vec![];
        for (h, v) in self.value(h, rhs)? {
            out.extend(self.store(&h, lhs, v)?);
        }
        Ok(out)
    }

    /// Writes the term `v` into the lvalue `lhs`.
    fn store(&self, h: &SymHeap, lhs: &Expr, v: Term) -> Res<Vec<SymHeap>> {
        if !lhs.ty.is_scalar() {
            return Err(Stop::Unsupported("an assignment of a whole struct".into()));
        }
        match &lhs.kind {
            ExprKind::Var(x) => Ok(vec![set_var(h, *x, v)]),
            ExprKind::Field(base, off, _) => {
                let ExprKind::Deref(p) = &base.kind else {
                    return Err(Stop::Unsupported("a field of a struct variable".into()));
                };
                let ty = struct_of(&base.ty)?;
                let f = self.field_index(ty, *off)?;
                let mut out = vec![];
                for (h, a) in self.value(h, p)? {
                    for (mut h, i) in self.expose(&h, a, ty)? {
                        h.cells[i].fields[f] = v;
                        h.sort();
                        out.push(h);
                    }
                }
                Ok(out)
            }
            ExprKind::Deref(p) => {
                let mut out = vec![];
                for (h, a) in self.value(h, p)? {
                    let (mut h, i) = self.scalar_cell(&h, a, &lhs.ty)?;
                    h.cells[i].fields[0] = v;
                    h.sort();
                    out.push(h);
                }
                Ok(out)
            }
            _ => Err(Stop::Unsupported("a write to this lvalue".into())),
        }
    }

    /// The value of a scalar expression, one per case of the rearrangement its reads need.
    fn value(&self, h: &SymHeap, e: &Expr) -> Res<Vec<(SymHeap, Term)>> {
        match &e.kind {
            ExprKind::Const(k) => match (&e.ty, k) {
                (Type::Ptr(_), 0) => Ok(vec![(h.clone(), Term::Nil)]),
                (Type::Ptr(_), _) => Err(Stop::Unsupported("an absolute address".into())),
                // An unsigned 64-bit constant above i64's range: its bits are negative.
                (Type::Int(t), k) if !t.signed && *k < 0 => self.havoc_value(h, &[]),
                _ => Ok(vec![(h.clone(), Term::Int(*k))]),
            },
            ExprKind::Var(x) if e.ty.is_scalar() => Ok(vec![(h.clone(), Term::Var(*x))]),
            ExprKind::Field(base, off, _) if e.ty.is_scalar() => {
                let ExprKind::Deref(p) = &base.kind else {
                    return Err(Stop::Unsupported("a field of a struct variable".into()));
                };
                let ty = struct_of(&base.ty)?;
                let f = self.field_index(ty, *off)?;
                let mut out = vec![];
                for (h, a) in self.value(h, p)? {
                    for (h, i) in self.expose(&h, a, ty)? {
                        let t = h.cells[i].fields[f];
                        out.push((h, t));
                    }
                }
                Ok(out)
            }
            ExprKind::Deref(p) if e.ty.is_scalar() => {
                let mut out = vec![];
                for (h, a) in self.value(h, p)? {
                    let (h, i) = self.scalar_cell(&h, a, &e.ty)?;
                    let t = h.cells[i].fields[0];
                    out.push((h, t));
                }
                Ok(out)
            }
            ExprKind::Cast(a) if same_value(&a.ty, &e.ty) => self.value(h, a),
            ExprKind::Cast(a) if matches!(e.ty, Type::Int(t) if t.boolean) => {
                self.truth(h, CmpOp::Ne, a, None)
            }
            ExprKind::Cmp(op, a, b) if comparable(&a.ty, &b.ty) => self.truth(h, *op, a, Some(b)),
            ExprKind::Cast(a) | ExprKind::Unary(_, a) => self.havoc_value(h, &[a]),
            ExprKind::Binary(_, a, b) | ExprKind::Cmp(_, a, b) => self.havoc_value(h, &[a, b]),
            _ => Err(Stop::Unsupported(format!(
                "the expression form {}",
                expr_form(e)
            ))),
        }
    }

    /// The value (1 or 0) of `a op b`, `b` being NULL or 0 when absent (a value tested for
    /// truth): one case per outcome.
    fn truth(
        &self,
        h: &SymHeap,
        op: CmpOp,
        a: &Expr,
        b: Option<&Expr>,
    ) -> Res<Vec<(SymHeap, Term)>> {
        let mut out = vec![];
        for (h, x) in self.value(h, a)? {
            let ys = match b {
                Some(b) => self.value(&h, b)?,
                None => vec![(h, zero_of(&a.ty))],
            };
            for (h, y) in ys {
                out.extend(
                    constrain(&h, op, x, y)
                        .into_iter()
                        .map(|g| (g, Term::Int(1))),
                );
                let no = constrain(&h, op.negate(), x, y);
                out.extend(no.into_iter().map(|g| (g, Term::Int(0))));
            }
        }
        Ok(out.into_iter().filter(|(g, _)| !g.inconsistent()).collect())
    }

    /// A fresh value for an expression the terms cannot express, after the reads of its
    /// operands (which must be safe).
    fn havoc_value(&self, h: &SymHeap, parts: &[&Expr]) -> Res<Vec<(SymHeap, Term)>> {
        let mut hs = vec![h.clone()];
        for p in parts {
            let mut next = vec![];
            for h in &hs {
                next.extend(self.value(h, p)?.into_iter().map(|(h, _)| h));
            }
            hs = next;
        }
        Ok(hs
            .into_iter()
            .map(|h| {
                let t = Term::Ex(fresh_run(&h, 1));
                (h, t)
            })
            .collect())
    }

    /// `assume(cond)` (or its negation): one heap per case of the reads and of `≤`.
    fn assume(&self, h: &SymHeap, cond: &Expr, positive: bool) -> Res<Vec<SymHeap>> {
        let (op, a, b) = match &cond.kind {
            ExprKind::Cmp(op, a, b) => (*op, a.as_ref().clone(), b.as_ref().clone()),
            _ => {
                let zero = zero_of(&cond.ty);
                let mut out = vec![];
                for (h, v) in self.value(h, cond)? {
                    let op = if positive { CmpOp::Ne } else { CmpOp::Eq };
                    out.extend(constrain(&h, op, v, zero));
                }
                return Ok(out);
            }
        };
        let op = if positive { op } else { op.negate() };
        let exact = comparable(&a.ty, &b.ty);
        let mut out = vec![];
        for (h, x) in self.value(h, &a)? {
            for (h, y) in self.value(&h, &b)? {
                if exact {
                    out.extend(constrain(&h, op, x, y));
                } else {
                    out.push(h);
                }
            }
        }
        Ok(out)
    }

    /// A call of a library function.
    fn builtin(
        &self,
        h: &SymHeap,
        lhs: Option<&Expr>,
        b: Builtin,
        args: &[Expr],
    ) -> Res<Vec<SymHeap>> {
        match b {
            Builtin::Nondet => match lhs {
                Some(l) => {
                    let t = Term::Ex(fresh_run(h, 1));
                    self.store(h, l, t)
                }
                None => Ok(vec![h.clone()]),
            },
            Builtin::Assume => match args.first() {
                Some(c) => self.assume(h, c, true),
                None => Ok(vec![h.clone()]),
            },
            Builtin::Error(e) if self.error_calls => Err(Stop::Error(match e {
                ErrorCall::AssertFail => "a failing assertion".into(),
                _ => "the error function is called".into(),
            })),
            Builtin::Error(_) => Ok(vec![h.clone()]),
            Builtin::Abort | Builtin::Exit => Ok(vec![]),
            Builtin::Alloc(kind) => self.alloc(h, lhs, kind, args),
            Builtin::Free => self.free(h, args),
            other => Err(Stop::Unsupported(format!("the library call {other:?}"))),
        }
    }

    /// `lhs = malloc/calloc(size)`: a fresh cell of the struct the size or the target names,
    /// and NULL too when allocation may fail.
    fn alloc(
        &self,
        h: &SymHeap,
        lhs: Option<&Expr>,
        kind: AllocKind,
        args: &[Expr],
    ) -> Res<Vec<SymHeap>> {
        let Some(lhs) = lhs else {
            return Err(Stop::Unsupported(
                "an allocation whose result is dropped".into(),
            ));
        };
        if kind == AllocKind::Alloca {
            return Err(Stop::Unsupported("alloca".into()));
        }
        let ty = self.allocated_struct(h, lhs, kind, args)?;
        let mut g = h.clone();
        let n = self.prog.strukt(ty).fields.len();
        let first = fresh_run(&g, n as u32 + 1);
        let addr = Term::Ex(first);
        let mut fields = vec![];
        for (i, f) in self.prog.strukt(ty).fields.iter().enumerate() {
            fields.push(match (kind, &f.ty) {
                (AllocKind::Calloc, Type::Ptr(_)) => Term::Nil,
                (AllocKind::Calloc, _) => Term::Int(0),
                _ => Term::Ex(first + 1 + i as u32),
            });
        }
        debug_assert_eq!(fields.len(), n);
        g.cells.push(Cell { addr, ty, fields });
        g.sort();
        let mut out = self.store(&g, lhs, addr)?;
        if self.prog.alloc_may_fail {
            out.extend(self.store(h, lhs, Term::Nil)?);
        }
        Ok(out)
    }

    /// The struct an allocation makes: the target's pointee (a block of bytes for `char *`),
    /// or the one struct of that size.
    fn allocated_struct(
        &self,
        h: &SymHeap,
        lhs: &Expr,
        kind: AllocKind,
        args: &[Expr],
    ) -> Res<StructId> {
        match lhs.ty.pointee() {
            Some(Type::Struct(s)) => return Ok(*s),
            Some(Type::Int(t)) if t.bits == 8 => {
                if let Some(s) = super::boxes::byte_block(self.prog) {
                    return Ok(s);
                }
            }
            _ => {}
        }
        let known = |e: &Expr| const_of(e).or_else(|| self.known_int(h, e));
        let size = match (kind, args) {
            (AllocKind::Calloc, [n, s]) => known(n).zip(known(s)).map(|(n, s)| n * s),
            (_, [s, ..]) => known(s),
            _ => None,
        };
        let Some(size) = size else {
            return Err(Stop::Unsupported(
                "an allocation of a size that is not constant".into(),
            ));
        };
        let by_shape = self
            .shapes
            .iter()
            .map(|s| s.ty)
            .filter(|t| self.prog.strukt(*t).size as i64 == size)
            .collect::<Vec<_>>();
        let all: Vec<StructId> = (0..self.prog.structs.len() as u32)
            .map(StructId)
            .filter(|t| {
                let s = self.prog.strukt(*t);
                s.complete && !s.is_union && s.size as i64 == size
            })
            .collect();
        match (by_shape.as_slice(), all.as_slice()) {
            ([t], _) | ([], [t]) => Ok(*t),
            _ => Err(Stop::Unsupported(format!(
                "an allocation of {size} bytes that no single struct matches"
            ))),
        }
    }

    /// `free(p)`: NULL is a no-op; otherwise the cell at `p` must be exposed, and goes.
    fn free(&self, h: &SymHeap, args: &[Expr]) -> Res<Vec<SymHeap>> {
        let Some(p) = args.first() else {
            return Err(Stop::Unsupported("free without argument".into()));
        };
        let mut out = vec![];
        for (h, a) in self.value(h, p)? {
            let c = Classes::new(&h.pure);
            if c.equal(a, Term::Nil) {
                out.push(h);
                continue;
            }
            let Some(ty) = self.type_at(&h, &c, a) else {
                return Err(Stop::Error(
                    "free of a pointer the heap does not own".into(),
                ));
            };
            let variable = super::boxes::is_box(self.prog, ty)
                || (0..self.prog.vars.len() as u32).map(VarId).any(|v| {
                    super::boxes::is_variable_cell(self.prog, v) && c.equal(Term::Var(v), a)
                });
            if variable {
                return Err(Stop::Error("free of the address of a variable".into()));
            }
            // `a` may still be NULL: that case is a no-op, the other frees.
            let mut owned = h.clone();
            if !c.differ(&h.pure, a, Term::Nil) {
                let mut null = h.clone();
                null.assume(Atom::eq(a, Term::Nil));
                out.push(null);
                owned.assume(Atom::ne(a, Term::Nil));
            }
            out.extend(self.expose(&owned, a, ty)?.into_iter().map(|(mut g, i)| {
                g.cells.remove(i);
                g
            }));
        }
        Ok(out)
    }

    /// The integer a variable provably holds in `h` (an allocation's size passed through a
    /// parameter).
    fn known_int(&self, h: &SymHeap, e: &Expr) -> Option<i64> {
        let ExprKind::Var(x) = e.kind else {
            return None;
        };
        match Classes::new(&h.pure).rep(Term::Var(x)) {
            Term::Int(k) => Some(k),
            _ => None,
        }
    }

    /// The cell at `a` read or written as a scalar of type `ty` through a pointer: a cell
    /// whose first field is a scalar of that size at offset 0 (a variable's cell, see
    /// [`super::boxes`]).
    fn scalar_cell(&self, h: &SymHeap, a: Term, ty: &Type) -> Res<(SymHeap, usize)> {
        let c = Classes::new(&h.pure);
        let Some(i) = h.cells.iter().position(|x| c.equal(x.addr, a)) else {
            if h.segs.iter().any(|s| c.equal(s.from, a)) {
                return Err(Stop::Unsupported("*p of a scalar at a list cell".into()));
            }
            return Err(Stop::Error(if c.equal(a, Term::Nil) {
                "a dereference of NULL".into()
            } else {
                "a dereference of a pointer the heap does not prove allocated".into()
            }));
        };
        let first = self.prog.strukt(h.cells[i].ty).fields.first();
        let fits = first.is_some_and(|f| {
            f.offset == 0
                && f.bits.is_none()
                && f.ty.is_scalar()
                && self.prog.size_of(&f.ty) == self.prog.size_of(ty)
        });
        if !fits {
            return Err(Stop::Unsupported("*p of a scalar inside a struct".into()));
        }
        Ok((h.clone(), i))
    }

    /// The struct of the cell or segment at `a`, if the heap allocates it.
    fn type_at(&self, h: &SymHeap, c: &Classes, a: Term) -> Option<StructId> {
        h.cells
            .iter()
            .find(|x| c.equal(x.addr, a))
            .map(|x| x.ty)
            .or_else(|| {
                h.segs
                    .iter()
                    .find(|s| c.equal(s.from, a))
                    .map(|s| self.shapes[s.shape].ty)
            })
    }

    /// Rearrangement: the cases of `h` in which a cell of struct `ty` at address `a` is
    /// exposed, with its index; `⊤` when `h` does not prove `a` allocated.
    fn expose(&self, h: &SymHeap, a: Term, ty: StructId) -> Res<Vec<(SymHeap, usize)>> {
        let c = Classes::new(&h.pure);
        if let Some(i) = h.cells.iter().position(|x| c.equal(x.addr, a)) {
            if h.cells[i].ty != ty {
                return Err(Stop::Unsupported(
                    "a cell accessed at another struct type".into(),
                ));
            }
            return Ok(vec![(h.clone(), i)]);
        }
        let Some(j) = h.segs.iter().position(|s| c.equal(s.from, a)) else {
            let why = if c.equal(a, Term::Nil) {
                "a dereference of NULL"
            } else {
                "a dereference of a pointer the heap does not prove allocated"
            };
            return Err(Stop::Error(why.into()));
        };
        if self.shapes[h.segs[j].shape].ty != ty {
            return Err(Stop::Unsupported(
                "a list accessed at another struct type".into(),
            ));
        }
        Ok(self
            .unfold(h, j)
            .into_iter()
            .filter(|g| !g.inconsistent())
            .map(|g| {
                let c = Classes::new(&g.pure);
                let i = g.cells.iter().position(|x| c.equal(x.addr, a));
                (g, i.expect("unfolding exposes the segment's first cell"))
            })
            .collect())
    }

    /// The cases of `list(e, f, S)` (Fig. 3): its first cell, then the rest of the segment.
    /// Upper bounds split the cases further: a cell whose value may be a bounded symbol
    /// either is it (the rest may hold one fewer) or is not. A sorted segment's first cell
    /// holds its least value, and the rest is sorted from a value no smaller (Fig. 6). A
    /// segment of at least `n > 1` cells is a cell and a rest of at least `n - 1`.
    pub fn unfold(&self, h: &SymHeap, j: usize) -> Vec<SymHeap> {
        let seg = h.segs[j].clone();
        let mut base = h.clone();
        base.segs.remove(j);
        let mut out = vec![];
        let elems: Vec<(Term, u32)> = seg.bag.iter().collect();
        let size: u32 = elems.iter().map(|(_, n)| n).sum();
        // One cell: only if the multiset has at most one element and the length allows it.
        if size <= 1 && seg.len <= 1 {
            let d = elems.first().map(|(t, _)| *t);
            out.extend(self.with_cell(&base, &seg, d, None));
        }
        // A cell holding one element of S, then the rest.
        for (d, _) in &elems {
            let mut rest = seg.bag.clone();
            rest.remove_one(*d);
            out.extend(self.with_cell(&base, &seg, Some(*d), Some(rest)));
        }
        // A cell holding anything, then a segment with all of S.
        out.extend(self.with_cell(&base, &seg, None, Some(seg.bag.clone())));
        out
    }

    /// `base ∗ node(e, x', d) ∗ list(x', f, rest)` (or `node(e, f, d)` without `rest`) for
    /// `seg = list(e, f, _)`, in the cases of its upper bounds.
    fn with_cell(
        &self,
        base: &SymHeap,
        seg: &Seg,
        d: Option<Term>,
        rest: Option<Bag>,
    ) -> Vec<SymHeap> {
        let shape = self.shapes[seg.shape];
        let mut h = base.clone();
        let n = self.prog.strukt(shape.ty).fields.len();
        let first = fresh_run(&h, n as u32 + 2);
        let mut fields: Vec<Term> = (0..n as u32).map(|i| Term::Ex(first + i)).collect();
        if let (Some(k), Some(d)) = (shape.data, d) {
            fields[k] = d;
        }
        let next = Term::Ex(first + n as u32);
        match rest {
            None => fields[shape.link] = seg.to,
            Some(bag) => {
                fields[shape.link] = next;
                h.segs.push(Seg {
                    shape: seg.shape,
                    from: next,
                    to: seg.to,
                    bag,
                    caps: seg.caps.clone(),
                    order: None,
                    len: seg.len.saturating_sub(1),
                });
            }
        }
        // A sorted segment: its least value `lo` is its first cell's; the rest's least value
        // is a new term between it and `hi`.
        if let (Some((lo, hi)), Some(k)) = (seg.order, shape.data) {
            h.pure.push(Atom::eq(fields[k], lo));
            h.pure.push(Atom::Le(lo, hi));
            let r = Term::Ex(first + n as u32 + 1);
            if let Some(rest) = h.segs.iter_mut().find(|s| s.from == next) {
                rest.order = Some((r, hi));
                h.pure.extend([Atom::Le(lo, r), Atom::Le(r, hi)]);
            }
        }
        let data = shape.data.map(|k| fields[k]);
        h.cells.push(Cell {
            addr: seg.from,
            ty: shape.ty,
            fields,
        });
        h.sort();
        match data {
            Some(d) => bounded_cases(h, d, next, &seg.caps),
            None => vec![h],
        }
    }

    /// The index of the field at byte offset `off` of struct `ty`.
    fn field_index(&self, ty: StructId, off: u64) -> Res<usize> {
        let s = self.prog.strukt(ty);
        if s.is_union {
            return Err(Stop::Unsupported(format!("the union {}", s.name)));
        }
        let i = s
            .fields
            .iter()
            .position(|f| f.offset == off && f.bits.is_none());
        let Some(i) = i else {
            return Err(Stop::Unsupported(format!(
                "a field at offset {off} of {} that is not a scalar",
                s.name
            )));
        };
        if !s.fields[i].ty.is_scalar() {
            return Err(Stop::Unsupported(format!(
                "the aggregate field {} of {}",
                s.fields[i].name, s.name
            )));
        }
        Ok(i)
    }
}

/// The cases of an unfolded cell holding `d` under its segment's upper bounds: `d` differs
/// from a symbol bounded by zero; for a symbol bounded by more, either `d` is it and the rest
/// of the segment (the one starting at `next`, if any) holds one fewer, or `d` is not.
fn bounded_cases(h: SymHeap, d: Term, next: Term, caps: &Caps) -> Vec<SymHeap> {
    let mut out = vec![h];
    for (t, n) in caps.iter() {
        let mut cases = vec![];
        for h in out {
            let c = Classes::new(&h.pure);
            let known = c.count_of(&h.pure, d, t);
            let mut differ = h.clone();
            differ.assume(Atom::ne(d, t));
            let mut same = h;
            same.assume(Atom::eq(d, t));
            if let Some(rest) = same.segs.iter_mut().find(|s| s.from == next) {
                rest.caps.take_one(t, &c);
            }
            match (n, known) {
                (0, _) | (_, Some(0)) => cases.push(differ),
                (_, Some(_)) => cases.push(same),
                (_, None) => cases.extend([differ, same]),
            }
        }
        out = cases;
    }
    out
}

/// `h` with variable `x` holding `v` (its old value renamed to a fresh existential).
pub fn set_var(h: &SymHeap, x: VarId, v: Term) -> SymHeap {
    // `v` may be a fresh existential not yet in `h`: the old value's name must differ.
    let old = match (h.fresh(), v) {
        (Term::Ex(a), Term::Ex(b)) => Term::Ex(a.max(b + 1).max(fresh_run(h, 1))),
        _ => Term::Ex(fresh_run(h, 1)),
    };
    let mut g = h.subst(Term::Var(x), old);
    let v = if v == Term::Var(x) { old } else { v };
    g.assume(Atom::eq(Term::Var(x), v));
    g
}

/// `h` with variable `x` holding an unknown value.
pub fn havoc(h: &SymHeap, x: VarId) -> SymHeap {
    h.subst(Term::Var(x), Term::Ex(fresh_run(h, 1)))
}

thread_local! {
    /// The existentials handed out during the current operation start at or above this:
    /// a fresh value (of `nondet()`, of arithmetic) is not in its heap until it is stored,
    /// and must not be handed out again by a rearrangement in between.
    static FLOOR: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The first of `n` existentials fresh for `h` and for the current operation.
fn fresh_run(h: &SymHeap, n: u32) -> u32 {
    let Term::Ex(mut first) = h.fresh() else {
        unreachable!("fresh terms are existentials")
    };
    FLOOR.with(|f| {
        first = first.max(f.get());
        f.set(first + n);
    });
    first
}

/// The cases of `h ∧ x op y`.
pub fn constrain(h: &SymHeap, op: CmpOp, x: Term, y: Term) -> Vec<SymHeap> {
    let cases = match op {
        CmpOp::Eq => vec![Atom::eq(x, y)],
        CmpOp::Ne => vec![Atom::ne(x, y)],
        CmpOp::Lt => vec![Atom::Lt(x, y)],
        CmpOp::Gt => vec![Atom::Lt(y, x)],
        CmpOp::Le => vec![Atom::Lt(x, y), Atom::eq(x, y)],
        CmpOp::Ge => vec![Atom::Lt(y, x), Atom::eq(x, y)],
    };
    cases
        .into_iter()
        .map(|a| {
            let mut g = h.clone();
            g.assume(a);
            g
        })
        .collect()
}

/// The term a value of this type is compared with for truth: NULL or 0.
fn zero_of(ty: &Type) -> Term {
    if matches!(ty, Type::Ptr(_)) {
        Term::Nil
    } else {
        Term::Int(0)
    }
}

/// The struct a pointer-to-struct or struct type names.
fn struct_of(ty: &Type) -> Res<StructId> {
    match ty {
        Type::Struct(s) => Ok(*s),
        _ => Err(Stop::Unsupported("a field access on a non-struct".into())),
    }
}

/// Whether a conversion from `from` to `to` keeps every value as it is.
fn same_value(from: &Type, to: &Type) -> bool {
    match (from, to) {
        (Type::Ptr(_), Type::Ptr(_)) => true,
        (Type::Int(a), Type::Int(b)) => {
            !b.boolean && (a.signed == b.signed && a.bits <= b.bits || !a.signed && a.bits < b.bits)
        }
        _ => false,
    }
}

/// Whether a comparison of two values of these types is the mathematical comparison of the
/// terms: both pointers, or both integers of one signedness.
fn comparable(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Ptr(_), Type::Ptr(_)) => true,
        (Type::Int(x), Type::Int(y)) => x.signed == y.signed,
        _ => false,
    }
}

/// An integer constant, through casts.
fn const_of(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Const(k) => Some(*k),
        ExprKind::Cast(a) => const_of(a),
        _ => None,
    }
}

/// A short name of an expression's form, for messages.
fn expr_form(e: &Expr) -> &'static str {
    match &e.kind {
        ExprKind::AddrOf(_) => "&e (address of a variable or field)",
        ExprKind::FuncAddr(_) => "a function address",
        ExprKind::Str(_) => "a string literal",
        ExprKind::PtrAdd(..) | ExprKind::PtrDiff(..) => "pointer arithmetic",
        ExprKind::BitField(..) => "a bit-field",
        ExprKind::Deref(_) => "*p of a scalar",
        _ => "an aggregate value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::frontend::{Source, lower_source};
    use crate::techniques::seed001::shapes::list_shapes;

    /// A program with the list struct and `f`, whose edges the tests execute.
    fn program() -> Program {
        let text = "struct node { struct node *next; int data; };\n\
                    extern void free(void *);\n\
                    void f(struct node *r) { struct node *t = r->next; free(r); }\n\
                    int main(void) { return 0; }\n";
        lower_source(&Source::from_text(text.into(), "t.c"), "t.c").expect("lowers")
    }

    /// The operations of `f`'s edges, in order of their text.
    fn ops_of_f(prog: &Program) -> Vec<Op> {
        let f = prog.func(prog.func_by_name("f").expect("f"));
        f.cfa.edge_weights().map(|e| e.op.clone()).collect()
    }

    fn var_named(prog: &Program, name: &str) -> Term {
        let i = prog
            .vars
            .iter()
            .position(|v| v.name == name)
            .expect("variable");
        Term::Var(VarId(i as u32))
    }

    /// The executor of `prog` with these list shapes, error calls checked.
    fn executor<'a>(prog: &'a Program, shapes: &'a [ListShape]) -> Exec<'a> {
        Exec {
            prog,
            shapes,
            error_calls: true,
        }
    }

    fn segment(bag: Bag, from: Term) -> SymHeap {
        SymHeap {
            segs: vec![Seg {
                shape: 0,
                from,
                to: Term::Nil,
                bag,
                caps: Caps::new(),
                order: None,
                len: 0,
            }],
            ..SymHeap::emp()
        }
    }

    #[test]
    fn a_segment_of_at_least_n_cells_unfolds_into_a_cell_and_at_least_n_minus_1() {
        let prog = program();
        let shapes = list_shapes(&prog);
        let exec = executor(&prog, &shapes);
        let r = var_named(&prog, "r");
        let mut h = segment(Bag::new(), r);
        h.segs[0].len = 3;
        let cases = exec.unfold(&h, 0);
        assert_eq!(cases.len(), 1, "no one-cell case: {cases:?}");
        assert_eq!((cases[0].cells.len(), cases[0].segs[0].len), (1, 2));
        h.segs[0].len = 1;
        assert_eq!(exec.unfold(&h, 0).len(), 2);
    }

    #[test]
    fn a_segment_unfolds_into_every_case_of_its_definition() {
        let prog = program();
        let shapes = list_shapes(&prog);
        let exec = executor(&prog, &shapes);
        let (r, x) = (var_named(&prog, "r"), Term::Int(7));
        // S = ∅: one cell, or a cell and a segment.
        assert_eq!(exec.unfold(&segment(Bag::new(), r), 0).len(), 2);
        // S = {x}: node(r, nil, x), node(r, y, x) ∗ list(y, nil, ∅), node(r, y, _) ∗ list(y, nil, {x}).
        let cases = exec.unfold(&segment(Bag::single(x), r), 0);
        assert_eq!(cases.len(), 3);
        let holds_x = |h: &SymHeap| h.cells[0].fields[1] == x;
        assert_eq!(cases.iter().filter(|h| holds_x(h)).count(), 2);
        assert!(
            cases
                .iter()
                .any(|h| h.segs.len() == 1 && h.segs[0].bag.count(x) == 1)
        );
        // S = {x, x}: no single cell can hold both copies.
        let two = Bag::from_counts([(x, 2)]);
        let cases = exec.unfold(&segment(two, r), 0);
        assert_eq!(cases.len(), 2);
        assert!(cases.iter().all(|h| h.segs.len() == 1));
    }

    #[test]
    fn a_load_from_a_segment_exposes_its_first_cell_and_a_load_from_nothing_is_top() {
        let prog = program();
        let shapes = list_shapes(&prog);
        let exec = executor(&prog, &shapes);
        let r = var_named(&prog, "r");
        let load = ops_of_f(&prog)
            .into_iter()
            .find(|op| matches!(op, Op::Assign { rhs, .. } if matches!(rhs.kind, ExprKind::Field(..))))
            .expect("the load t = r->next");
        let Post::Heaps(hs) = exec.post(&segment(Bag::new(), r), &load) else {
            panic!("the load is safe on a segment from r");
        };
        assert_eq!(hs.len(), 2, "{hs:?}");
        assert!(
            hs.iter()
                .all(|h| h.cells.len() == 1 && h.cells[0].addr == r)
        );
        assert!(matches!(exec.post(&SymHeap::emp(), &load), Post::Error(_)));
        let mut null = SymHeap::emp();
        null.assume(Atom::eq(r, Term::Nil));
        let Post::Error(why) = exec.post(&null, &load) else {
            panic!("a load through NULL is ⊤");
        };
        assert!(why.contains("NULL"), "{why}");
    }

    #[test]
    fn free_removes_the_cell_and_a_second_free_is_top() {
        let prog = program();
        let shapes = list_shapes(&prog);
        let exec = executor(&prog, &shapes);
        let r = var_named(&prog, "r");
        let free = ops_of_f(&prog)
            .into_iter()
            .find(|op| {
                matches!(
                    op,
                    Op::Call {
                        callee: Callee::Builtin(Builtin::Free),
                        ..
                    }
                )
            })
            .expect("free(r)");
        let h = SymHeap {
            cells: vec![Cell {
                addr: r,
                ty: shapes[0].ty,
                fields: vec![Term::Nil, Term::Int(1)],
            }],
            ..SymHeap::emp()
        };
        let Post::Heaps(hs) = exec.post(&h, &free) else {
            panic!("free of an owned cell is safe");
        };
        assert!(hs.iter().all(|g| g.cells.is_empty()), "{hs:?}");
        let freed = hs.into_iter().find(|g| !g.inconsistent()).expect("a heap");
        let mut non_null = freed.clone();
        non_null.assume(Atom::ne(r, Term::Nil));
        assert!(matches!(exec.post(&non_null, &free), Post::Error(_)));
    }

    #[test]
    fn an_upper_bound_constrains_the_unfolded_cells() {
        let prog = program();
        let shapes = list_shapes(&prog);
        let exec = executor(&prog, &shapes);
        let (r, x) = (var_named(&prog, "r"), Term::Int(7));
        let bounded = |n: u32| {
            let mut h = segment(Bag::new(), r);
            h.segs[0].caps.limit(x, n);
            h
        };
        let data = |h: &SymHeap| h.cells[0].fields[1];
        // At most zero: every case's cell differs from x.
        for h in exec.unfold(&bounded(0), 0) {
            let c = Classes::new(&h.pure);
            assert!(c.differ(&h.pure, data(&h), x), "{h}");
        }
        // At most one: a cell that is x leaves none for the rest; one that is not leaves one.
        let cases = exec.unfold(&bounded(1), 0);
        let rest = |h: &SymHeap| h.segs.first().map(|s| s.caps.bound(x, &Classes::default()));
        let c = |h: &SymHeap| Classes::new(&h.pure);
        assert!(
            cases
                .iter()
                .any(|h| c(h).equal(data(h), x) && rest(h) == Some(Some(0)))
        );
        assert!(
            cases
                .iter()
                .any(|h| c(h).differ(&h.pure, data(h), x) && rest(h) == Some(Some(1)))
        );
        assert!(
            !cases
                .iter()
                .any(|h| c(h).equal(data(h), x) && rest(h) == Some(Some(1)))
        );
    }
}

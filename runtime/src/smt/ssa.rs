//! The SSA formula of a program path: one set of Z3 constraints per step, with the variables,
//! memory cells, pointer variables and struct fields each step reads and writes.
//!
//! Consumes a [`Program`] and a path of [`PathStep`]s (CFA edges through calls and returns);
//! produces, step by step ([`Enc::step`], then [`Enc::take`]), a [`StepRec`], and for the way a
//! path claims to end ([`PathEnd`]) the claim at the last edge's pre-state ([`Enc::claim`]).
//! Path feasibility (`crate::engine::feasibility`) asserts the records under indicator
//! literals to find the steps an infeasibility needs.
//!
//! Integers are bit-vectors of their C width (two's complement, as in `crate::smt`); pointers
//! are unbounded `Int` addresses (0 is NULL, the `k`-th allocation is at the positive constant
//! `k * 2^20`, fields at the block's address plus their offset). Each assignment to a scalar
//! variable whose address is never taken makes a new version of it, per call instance
//! (parameters are equalities with the arguments, results with the returned value; globals
//! start at 0, locals unconstrained). Memory is one array `Int -> value` per (struct, scalar
//! field), indexed by the address of the struct object, plus one per scalar kind (integers by
//! width, pointers) for `*p`, array elements and address-taken or aggregate variables; every
//! store makes a new version of one array. `malloc`/`calloc` return 0 or their block's address;
//! `calloc` zeroes the fields of every struct that fits at that address; nondeterministic
//! values are fresh constants. Limits: the arrays do not alias each other (union members, a
//! field written through a cast pointer), `memset`/`memcpy` and calls the path does not enter
//! forget all memory, pointer/integer conversions are `bv2int`/`int2bv`, `PtrDiff` assumes a
//! whole number of elements, and any other construct the encoding cannot express evaluates to
//! a fresh unconstrained value.

use super::{binary, compare as bv_compare, resize_bits as resize};
use crate::program::ir::*;
use crate::program::path::{PathEnd, PathStep, ptr_callee};
use petgraph::graph::EdgeIndex;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use z3::Sort;
use z3::ast::{Array, BV, Bool, Int};

/// Scalar leaves of one aggregate copied or zeroed at most (beyond: memory is forgotten).
const MAX_LEAVES: usize = 4096;

/// A memory array: one per (struct, scalar field), one per integer width, one for pointers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum MemKey {
    Field(StructId, String),
    Int(u8),
    Ptr,
}

/// What a step reads or writes, for the syntactic slice.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Loc {
    /// A variable of a call instance (0: globals).
    Var(u32, VarId),
    Mem(MemKey),
}

/// The sort of a scalar value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bv(u32),
    Ptr,
}

/// An encoded scalar value: a bit-vector (with its signedness) or an address.
#[derive(Clone)]
enum V {
    Bv(BV, bool),
    Ptr(Int),
}

/// An encoded right-hand side: a scalar, or the address of an aggregate.
enum Rv {
    Scalar(V),
    Agg(Int),
}

/// The constraints and atoms of one step.
#[derive(Default)]
pub(crate) struct StepRec {
    /// The step's constraints.
    pub(crate) cons: Vec<Bool>,
    /// What it writes.
    pub(crate) defs: Vec<Loc>,
    /// What it reads.
    pub(crate) uses: Vec<Loc>,
    /// The pointer variables it mentions.
    pub(crate) pointers: BTreeSet<VarId>,
    /// The struct fields it accesses through pointers.
    pub(crate) fields: BTreeSet<(StructId, String)>,
}

struct EncFrame {
    func: FuncId,
    inst: u32,
    /// The caller's call edge.
    call_edge: Option<EdgeIndex>,
}

const ALLOC_STRIDE: i64 = 1 << 20;
const VAR_BASE: i64 = 1 << 40;
const STR_BASE: i64 = 1 << 46;
const FUNC_BASE: i64 = 1 << 52;

/// The SSA encoder: walks the path with its own call stack of instances.
pub(crate) struct Enc<'p> {
    prog: &'p Program,
    address_taken: HashSet<VarId>,
    frames: Vec<EncFrame>,
    insts: u32,
    vars: HashMap<(u32, VarId), V>,
    addrs: HashMap<(u32, VarId), i64>,
    mem: BTreeMap<MemKey, Array>,
    allocs: i64,
    strings: i64,
    /// Constraints that hold on every path (distinct addresses).
    pub(crate) background: Vec<Bool>,
    rec: StepRec,
}

impl<'p> Enc<'p> {
    pub(crate) fn new(prog: &'p Program) -> Self {
        let mut enc = Enc {
            prog,
            address_taken: prog.address_taken().into_iter().collect(),
            frames: vec![EncFrame {
                func: prog.init,
                inst: 1,
                call_edge: None,
            }],
            insts: 1,
            vars: HashMap::new(),
            addrs: HashMap::new(),
            mem: BTreeMap::new(),
            allocs: 0,
            strings: 0,
            background: vec![],
            rec: StepRec::default(),
        };
        let mut keys = vec![
            MemKey::Int(8),
            MemKey::Int(16),
            MemKey::Int(32),
            MemKey::Int(64),
            MemKey::Ptr,
        ];
        for (i, s) in prog.structs.iter().enumerate() {
            for f in s.fields.iter().filter(|f| f.ty.is_scalar()) {
                keys.push(MemKey::Field(StructId(i as u32), f.name.clone()));
            }
        }
        for k in keys {
            enc.array(&k);
        }
        // Globals are zero-initialised: those kept in memory start as zero cells.
        for &g in &prog.globals {
            if enc.in_memory(g) {
                let a = Int::from_i64(enc.var_addr(g));
                let ty = prog.var(g).ty.clone();
                let zeros = enc.zero_cells(&ty, &a);
                enc.background.extend(zeros);
            }
        }
        enc
    }

    pub(crate) fn take(&mut self) -> StepRec {
        std::mem::take(&mut self.rec)
    }

    fn in_memory(&self, v: VarId) -> bool {
        !self.prog.var(v).ty.is_scalar() || self.address_taken.contains(&v)
    }

    fn inst_of(&self, v: VarId) -> u32 {
        match self.prog.var(v).kind {
            VarKind::Global => 0,
            VarKind::Local(_) => self.frames.last().map_or(0, |f| f.inst),
        }
    }

    fn var_addr(&mut self, v: VarId) -> i64 {
        let key = (self.inst_of(v), v);
        let n = self.addrs.len() as i64;
        *self.addrs.entry(key).or_insert(VAR_BASE + n * ALLOC_STRIDE)
    }

    fn array(&mut self, key: &MemKey) -> Array {
        if let Some(a) = self.mem.get(key) {
            return a.clone();
        }
        let a = Array::fresh_const("mem", &Sort::int(), &sort(self.key_kind(key)));
        self.mem.insert(key.clone(), a.clone());
        a
    }

    fn key_kind(&self, key: &MemKey) -> Kind {
        match key {
            MemKey::Int(b) => Kind::Bv(u32::from(*b)),
            MemKey::Ptr => Kind::Ptr,
            MemKey::Field(s, name) => self
                .prog
                .strukt(*s)
                .fields
                .iter()
                .find(|f| &f.name == name)
                .map_or(Kind::Ptr, |f| kind_of(&f.ty)),
        }
    }

    // ---- steps ----

    /// Encodes step `i` of `path` into the current record.
    pub(crate) fn step(&mut self, i: usize, path: &[PathStep]) {
        let prog = self.prog;
        let s = path[i];
        let func = prog.func(s.func);
        let Some((_, dst)) = func.cfa.edge_endpoints(s.edge) else {
            return;
        };
        match &func.cfa[s.edge].op {
            Op::Skip | Op::Unsupported(_) => {}
            Op::Assign { lhs, rhs } => {
                self.note(lhs);
                self.note(rhs);
                let rv = self.rvalue(rhs);
                self.assign(lhs, rv);
            }
            Op::Assume { cond, positive } => {
                self.note(cond);
                let c = self.cond(cond);
                self.rec.cons.push(if *positive { c } else { c.not() });
            }
            Op::Havoc(v) => {
                let x = var_expr(prog, *v);
                self.note(&x);
                self.havoc(&x);
            }
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => {
                lhs.iter().chain(args).for_each(|e| self.note(e));
                self.builtin(*b, lhs.as_ref(), args);
            }
            Op::Call {
                lhs,
                callee: Callee::Func(g),
                args,
            } => {
                lhs.iter().chain(args).for_each(|e| self.note(e));
                if prog.func(*g).defined {
                    self.call(*g, args, s.edge);
                } else {
                    self.unknown_call(lhs.as_ref());
                }
            }
            Op::CallPtr { lhs, target, args } => {
                lhs.iter().chain(args).for_each(|e| self.note(e));
                self.note(target);
                match ptr_callee(prog, s.func, dst, path.get(i + 1)) {
                    Some(g) => {
                        let t = self.eval(target).to_int();
                        self.rec
                            .cons
                            .push(t.eq(Int::from_i64(FUNC_BASE + i64::from(g.0))));
                        self.call(g, args, s.edge);
                    }
                    None => self.unknown_call(lhs.as_ref()),
                }
            }
            Op::Return(v) => self.ret(v.as_ref()),
        }
    }

    /// The claim of the path's end, at the last step's pre-state.
    pub(crate) fn claim(&mut self, end: &PathEnd) {
        let PathEnd::InvalidDeref(exprs) = end else {
            return;
        };
        if exprs.is_empty() {
            return;
        }
        let mut nulls = vec![];
        for e in exprs {
            self.note(e);
            let v = self.eval(e).to_int();
            nulls.push(v.eq(Int::from_i64(0)));
        }
        self.rec.cons.push(Bool::or(&nulls));
    }

    fn call(&mut self, g: FuncId, args: &[Expr], e: EdgeIndex) {
        let vals: Vec<Rv> = args.iter().map(|a| self.rvalue(a)).collect();
        self.insts += 1;
        self.frames.push(EncFrame {
            func: g,
            inst: self.insts,
            call_edge: Some(e),
        });
        let params = self.prog.func(g).params.clone();
        for (p, v) in params.into_iter().zip(vals) {
            let x = var_expr(self.prog, p);
            self.note(&x);
            self.assign(&x, v);
        }
    }

    /// A call the path does not enter: its result and memory are unknown.
    fn unknown_call(&mut self, lhs: Option<&Expr>) {
        self.forget_memory();
        if let Some(l) = lhs {
            self.havoc(l);
        }
    }

    fn ret(&mut self, v: Option<&Expr>) {
        if let Some(e) = v {
            self.note(e);
        }
        let rv = v.map(|e| self.rvalue(e));
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let (Some(caller), Some(e)) = (self.frames.last(), frame.call_edge) else {
            return;
        };
        let lhs = match &self.prog.func(caller.func).cfa[e].op {
            Op::Call { lhs, .. } | Op::CallPtr { lhs, .. } => lhs.clone(),
            _ => None,
        };
        if let (Some(l), Some(rv)) = (lhs, rv) {
            self.note(&l);
            self.assign(&l, rv);
        }
    }

    fn builtin(&mut self, b: Builtin, lhs: Option<&Expr>, args: &[Expr]) {
        match b {
            Builtin::Nondet => {
                if let Some(l) = lhs {
                    let v = fresh(&l.ty, "nondet");
                    if let (V::Bv(x, _), Type::Int(it)) = (&v, &l.ty)
                        && it.boolean
                    {
                        let one = BV::from_u64(1, x.get_size());
                        self.rec.cons.push(x.bvule(&one));
                    }
                    self.write(l, v);
                }
            }
            Builtin::Assume => {
                if let Some(c) = args.first() {
                    let c = self.cond(c);
                    self.rec.cons.push(c);
                }
            }
            Builtin::Error(_) | Builtin::Abort | Builtin::Exit | Builtin::Free => {}
            Builtin::Caveat | Builtin::Unsupported | Builtin::ScopeEnd => {}
            Builtin::BlockSize | Builtin::External => {
                if let Some(l) = lhs {
                    let v = fresh(&l.ty, "library");
                    self.write(l, v);
                }
            }
            Builtin::Alloc(kind) => {
                self.allocs += 1;
                let a = Int::from_i64(self.allocs * ALLOC_STRIDE);
                let r = if kind == AllocKind::Alloca || !self.prog.alloc_may_fail {
                    a.clone()
                } else {
                    let r = Int::fresh_const("alloc");
                    let ok = r.eq(&a);
                    self.rec.cons.push(Bool::or(&[r.eq(Int::from_i64(0)), ok]));
                    r
                };
                if kind == AllocKind::Calloc {
                    let size = args
                        .iter()
                        .map(const_value)
                        .try_fold(1i64, |acc, x| x.map(|x| acc.saturating_mul(x)))
                        .unwrap_or(i64::MAX);
                    let zeros = self.calloc_zeros(&a, size);
                    self.rec.cons.extend(zeros);
                }
                if let Some(l) = lhs {
                    self.write(l, V::Ptr(r));
                }
            }
            Builtin::Memset | Builtin::Memcpy => {
                self.forget_memory();
                if let (Some(l), Some(d)) = (lhs, args.first()) {
                    let v = self.eval(d);
                    self.write(l, v);
                }
            }
        }
    }

    // ---- writes ----

    fn assign(&mut self, lhs: &Expr, rv: Rv) {
        match rv {
            Rv::Scalar(v) => self.write(lhs, v),
            Rv::Agg(src) => {
                let dst = self.addr(lhs);
                self.copy(&lhs.ty, &dst, &src);
            }
        }
    }

    /// Stores a scalar into an lvalue.
    fn write(&mut self, lhs: &Expr, v: V) {
        if !lhs.ty.is_scalar() {
            self.forget_memory();
            return;
        }
        if let ExprKind::Var(x) = &lhs.kind
            && !self.in_memory(*x)
        {
            let inst = self.inst_of(*x);
            let name = self.version_name(*x, inst);
            let nv = fresh(&lhs.ty, &name);
            self.rec.cons.push(eq(&nv, &conv(v, &lhs.ty)));
            self.vars.insert((inst, *x), nv);
            self.rec.defs.push(Loc::Var(inst, *x));
            return;
        }
        match self.place(lhs) {
            Some((key, at)) => {
                let v = conv(v, &lhs.ty);
                self.store(&key, &at, v);
            }
            None => self.forget_memory(),
        }
    }

    /// Gives an lvalue an unconstrained value.
    fn havoc(&mut self, lhs: &Expr) {
        if let ExprKind::Var(x) = &lhs.kind
            && !self.in_memory(*x)
        {
            let inst = self.inst_of(*x);
            let name = self.version_name(*x, inst);
            self.vars.insert((inst, *x), fresh(&lhs.ty, &name));
            self.rec.defs.push(Loc::Var(inst, *x));
            return;
        }
        if !lhs.is_lvalue() {
            return;
        }
        let at = self.addr(lhs);
        let mut cells = vec![];
        if !leaves(self.prog, &lhs.ty, 0, &mut cells) {
            self.forget_memory();
            return;
        }
        for (key, off) in cells {
            let kind = self.key_kind(&key);
            let v = fresh_kind(kind, "havoc");
            self.store(&key, &plus(&at, off), v);
        }
    }

    fn store(&mut self, key: &MemKey, at: &Int, v: V) {
        let kind = self.key_kind(key);
        let arr = self.array(key);
        let next = Array::fresh_const("mem", &Sort::int(), &sort(kind));
        let stored = match conv_kind(v, kind) {
            V::Bv(b, _) => arr.store(at, &b),
            V::Ptr(p) => arr.store(at, &p),
        };
        self.rec.cons.push(next.eq(&stored));
        self.mem.insert(key.clone(), next);
        self.rec.defs.push(Loc::Mem(key.clone()));
    }

    /// Copies an aggregate cell by cell.
    fn copy(&mut self, ty: &Type, dst: &Int, src: &Int) {
        let mut cells = vec![];
        if !leaves(self.prog, ty, 0, &mut cells) {
            self.forget_memory();
            return;
        }
        for (key, off) in cells {
            let v = self.load_key(&key, &plus(src, off));
            self.store(&key, &plus(dst, off), v);
        }
    }

    /// Every array gets a new, unconstrained version.
    fn forget_memory(&mut self) {
        let keys: Vec<MemKey> = self.mem.keys().cloned().collect();
        for k in keys {
            let a = Array::fresh_const("mem", &Sort::int(), &sort(self.key_kind(&k)));
            self.mem.insert(k.clone(), a);
            self.rec.defs.push(Loc::Mem(k));
        }
    }

    /// `cell == 0` for every scalar cell of an object of type `ty` at `at` (nothing for
    /// objects with too many cells).
    fn zero_cells(&mut self, ty: &Type, at: &Int) -> Vec<Bool> {
        let mut cells = vec![];
        if !leaves(self.prog, ty, 0, &mut cells) {
            return vec![];
        }
        let mut out = vec![];
        for (key, off) in cells {
            let kind = self.key_kind(&key);
            let cell = self.cell(&key, &plus(at, off));
            if let Some(c) = cell {
                out.push(eq(&c, &zero_kind(kind)));
            }
        }
        out
    }

    /// A `calloc`'d block of `size` bytes at `at` reads 0 through every struct that fits and
    /// through every scalar kind at its start.
    fn calloc_zeros(&mut self, at: &Int, size: i64) -> Vec<Bool> {
        let mut out = vec![];
        for i in 0..self.prog.structs.len() {
            let s = self.prog.strukt(StructId(i as u32));
            if s.complete && i128::from(s.size) <= i128::from(size) {
                out.extend(self.zero_cells(&Type::Struct(StructId(i as u32)), at));
            }
        }
        for key in [
            MemKey::Int(8),
            MemKey::Int(16),
            MemKey::Int(32),
            MemKey::Int(64),
            MemKey::Ptr,
        ] {
            let kind = self.key_kind(&key);
            if let Some(c) = self.cell(&key, at) {
                out.push(eq(&c, &zero_kind(kind)));
            }
        }
        out
    }

    // ---- reads ----

    /// The current contents of an array at an address (not recorded as a use).
    fn cell(&mut self, key: &MemKey, at: &Int) -> Option<V> {
        let arr = self.array(key);
        let d = arr.select(at);
        match self.key_kind(key) {
            Kind::Ptr => d.as_int().map(V::Ptr),
            Kind::Bv(_) => d.as_bv().map(|b| V::Bv(b, false)),
        }
    }

    fn load_key(&mut self, key: &MemKey, at: &Int) -> V {
        self.rec.uses.push(Loc::Mem(key.clone()));
        let kind = self.key_kind(key);
        self.cell(key, at)
            .unwrap_or_else(|| fresh_kind(kind, "cell"))
    }

    /// The array and address of a scalar lvalue kept in memory.
    fn place(&mut self, e: &Expr) -> Option<(MemKey, Int)> {
        match &e.kind {
            ExprKind::Var(v) => {
                let key = scalar_key(&e.ty)?;
                Some((key, Int::from_i64(self.var_addr(*v))))
            }
            ExprKind::Deref(p) => {
                let key = scalar_key(&e.ty)?;
                Some((key, self.eval(p).to_int()))
            }
            ExprKind::Field(b, _, name) => {
                let Type::Struct(s) = b.ty else { return None };
                let f = self
                    .prog
                    .strukt(s)
                    .fields
                    .iter()
                    .find(|f| &f.name == name)?;
                if !f.ty.is_scalar() {
                    return None;
                }
                Some((MemKey::Field(s, name.clone()), self.addr(b)))
            }
            _ => None,
        }
    }

    /// The address an lvalue denotes.
    fn addr(&mut self, e: &Expr) -> Int {
        match &e.kind {
            ExprKind::Var(v) if self.in_memory(*v) => Int::from_i64(self.var_addr(*v)),
            ExprKind::Deref(p) => self.eval(p).to_int(),
            ExprKind::Field(b, off, _) => {
                let base = self.addr(b);
                plus(&base, i64::try_from(*off).unwrap_or(i64::MAX))
            }
            _ => Int::fresh_const("addr"),
        }
    }

    fn rvalue(&mut self, e: &Expr) -> Rv {
        if e.ty.is_scalar() {
            Rv::Scalar(self.eval(e))
        } else if e.is_lvalue() {
            Rv::Agg(self.addr(e))
        } else {
            Rv::Agg(Int::fresh_const("agg"))
        }
    }

    fn cond(&mut self, e: &Expr) -> Bool {
        match self.eval(e) {
            V::Bv(b, _) => b.eq(BV::from_u64(0, b.get_size())).not(),
            V::Ptr(p) => p.eq(Int::from_i64(0)).not(),
        }
    }

    fn read_var(&mut self, v: VarId, ty: &Type) -> V {
        let inst = self.inst_of(v);
        self.rec.uses.push(Loc::Var(inst, v));
        if let Some(x) = self.vars.get(&(inst, v)) {
            return x.clone();
        }
        // Globals start as zero; locals are uninitialised (any value).
        let x = if inst == 0 {
            zero(ty)
        } else {
            let name = self.version_name(v, inst);
            fresh(ty, &name)
        };
        self.vars.insert((inst, v), x.clone());
        x
    }

    fn version_name(&self, v: VarId, inst: u32) -> String {
        format!("{}@{inst}", self.prog.var(v).name)
    }

    /// Encodes a scalar expression.
    fn eval(&mut self, e: &Expr) -> V {
        match &e.kind {
            ExprKind::Const(c) => match &e.ty {
                Type::Int(it) => V::Bv(BV::from_i64(*c, u32::from(it.bits)), it.signed),
                Type::Ptr(_) => V::Ptr(Int::from_i64(*c)),
                _ => V::Bv(BV::from_i64(*c, 32), true),
            },
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) => {
                if !e.ty.is_scalar() {
                    return fresh(&e.ty, "agg");
                }
                if let ExprKind::Var(v) = &e.kind
                    && !self.in_memory(*v)
                {
                    return self.read_var(*v, &e.ty);
                }
                match self.place(e) {
                    Some((key, at)) => {
                        let v = self.load_key(&key, &at);
                        conv(v, &e.ty)
                    }
                    None => fresh(&e.ty, "unsupported"),
                }
            }
            ExprKind::BitField(..) => fresh(&e.ty, "bitfield"),
            ExprKind::AddrOf(x) => V::Ptr(self.addr(x)),
            ExprKind::FuncAddr(f) => V::Ptr(Int::from_i64(FUNC_BASE + i64::from(f.0))),
            ExprKind::Str(_) => {
                self.strings += 1;
                V::Ptr(Int::from_i64(STR_BASE + self.strings * ALLOC_STRIDE))
            }
            ExprKind::Unary(op, a) => {
                let it = int_ty(&e.ty);
                let x = self.bv(a, it);
                let r = match op {
                    UnOp::Neg => x.bvneg(),
                    UnOp::Not => x.bvnot(),
                };
                V::Bv(r, it.signed)
            }
            ExprKind::Binary(op, a, b) => {
                let it = int_ty(&e.ty);
                let (x, y) = (self.bv(a, it), self.bv(b, it));
                V::Bv(binary(*op, &x, &y, it.signed), it.signed)
            }
            ExprKind::Cmp(op, a, b) => {
                let c = self.compare(*op, a, b);
                V::Bv(c.ite(&BV::from_u64(1, 32), &BV::from_u64(0, 32)), true)
            }
            ExprKind::Cast(a) => {
                let v = self.eval(a);
                conv(v, &e.ty)
            }
            ExprKind::PtrAdd(p, i, size) => {
                let base = self.eval(p).to_int();
                let idx = self.eval(i).to_int();
                let delta = Int::mul(&[idx, Int::from_u64(*size)]);
                V::Ptr(Int::add(&[base, delta]))
            }
            ExprKind::PtrDiff(a, b, size) => {
                let (x, y) = (self.eval(a).to_int(), self.eval(b).to_int());
                let d = Int::sub(&[x, y]).div(Int::from_u64((*size).max(1)));
                let it = int_ty(&e.ty);
                V::Bv(d.to_ast(u32::from(it.bits)), it.signed)
            }
        }
    }

    /// An operand as a bit-vector of type `it`.
    fn bv(&mut self, e: &Expr, it: IntTy) -> BV {
        match conv(self.eval(e), &Type::Int(it)) {
            V::Bv(b, _) => b,
            V::Ptr(p) => p.to_ast(u32::from(it.bits)),
        }
    }

    fn compare(&mut self, op: CmpOp, a: &Expr, b: &Expr) -> Bool {
        let (x, y) = (self.eval(a), self.eval(b));
        match (x, y) {
            (V::Bv(x, signed), y) => {
                let y = conv_kind(y, Kind::Bv(x.get_size()));
                let V::Bv(y, _) = y else {
                    return Bool::fresh_const("cmp");
                };
                bv_compare(op, &x, &y, signed)
            }
            (x, y) => {
                let (x, y) = (x.to_int(), y.to_int());
                match op {
                    CmpOp::Eq => x.eq(&y),
                    CmpOp::Ne => x.eq(&y).not(),
                    CmpOp::Lt => x.lt(&y),
                    CmpOp::Le => x.le(&y),
                    CmpOp::Gt => x.gt(&y),
                    CmpOp::Ge => x.ge(&y),
                }
            }
        }
    }

    /// Records the pointer and struct variables and the fields accessed through pointers
    /// or of struct variables in `e`.
    fn note(&mut self, e: &Expr) {
        let (prog, rec) = (self.prog, &mut self.rec);
        e.visit(&mut |x| match &x.kind {
            ExprKind::Var(v) if matches!(prog.var(*v).ty, Type::Ptr(_) | Type::Struct(_)) => {
                rec.pointers.insert(*v);
            }
            ExprKind::Field(b, _, name) => {
                if let Type::Struct(s) = b.ty
                    && (through_pointer(b) || matches!(b.kind, ExprKind::Var(_)))
                {
                    rec.fields.insert((s, name.clone()));
                }
            }
            _ => {}
        });
    }
}

impl V {
    fn to_int(&self) -> Int {
        match self {
            V::Ptr(p) => p.clone(),
            V::Bv(b, signed) => Int::from_bv(b, *signed),
        }
    }
}

// ---- helpers ----

/// Whether an lvalue is reached through a pointer dereference (`p->f`, `p->a.b`, `(*p).f`).
fn through_pointer(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Deref(_) => true,
        ExprKind::Field(b, ..) => through_pointer(b),
        _ => false,
    }
}

fn var_expr(prog: &Program, v: VarId) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        ty: prog.var(v).ty.clone(),
    }
}

/// The scalar cells of an object of type `ty` at offset `base`: the array holding each and
/// the offset of the address indexing it (a struct field is indexed by its struct's address).
/// False when there are too many.
fn leaves(prog: &Program, ty: &Type, base: i64, out: &mut Vec<(MemKey, i64)>) -> bool {
    if out.len() > MAX_LEAVES {
        return false;
    }
    match ty {
        Type::Struct(s) => {
            for f in &prog.strukt(*s).fields {
                if f.ty.is_scalar() {
                    out.push((MemKey::Field(*s, f.name.clone()), base));
                } else if !leaves(prog, &f.ty, base.saturating_add_unsigned(f.offset), out) {
                    return false;
                }
            }
        }
        Type::Array(t, n) => {
            let size = prog.size_of(t);
            for i in 0..*n {
                let at = base.saturating_add_unsigned(i.saturating_mul(size));
                if !leaves(prog, t, at, out) {
                    return false;
                }
            }
        }
        t => {
            if let Some(k) = scalar_key(t) {
                out.push((k, base));
            }
        }
    }
    out.len() <= MAX_LEAVES
}

fn scalar_key(ty: &Type) -> Option<MemKey> {
    match ty {
        Type::Int(it) => Some(MemKey::Int(it.bits)),
        Type::Ptr(_) => Some(MemKey::Ptr),
        _ => None,
    }
}

fn kind_of(ty: &Type) -> Kind {
    match ty {
        Type::Int(it) => Kind::Bv(u32::from(it.bits)),
        _ => Kind::Ptr,
    }
}

fn sort(k: Kind) -> Sort {
    match k {
        Kind::Bv(w) => Sort::bitvector(w),
        Kind::Ptr => Sort::int(),
    }
}

fn int_ty(ty: &Type) -> IntTy {
    ty.as_int().unwrap_or(IntTy::INT)
}

fn fresh(ty: &Type, name: &str) -> V {
    match ty {
        Type::Int(it) => V::Bv(BV::fresh_const(name, u32::from(it.bits)), it.signed),
        _ => V::Ptr(Int::fresh_const(name)),
    }
}

fn fresh_kind(k: Kind, name: &str) -> V {
    match k {
        Kind::Bv(w) => V::Bv(BV::fresh_const(name, w), false),
        Kind::Ptr => V::Ptr(Int::fresh_const(name)),
    }
}

fn zero(ty: &Type) -> V {
    match ty {
        Type::Int(it) => V::Bv(BV::from_u64(0, u32::from(it.bits)), it.signed),
        _ => V::Ptr(Int::from_i64(0)),
    }
}

fn zero_kind(k: Kind) -> V {
    match k {
        Kind::Bv(w) => V::Bv(BV::from_u64(0, w), false),
        Kind::Ptr => V::Ptr(Int::from_i64(0)),
    }
}

fn plus(a: &Int, off: i64) -> Int {
    if off == 0 {
        a.clone()
    } else {
        Int::add(&[a.clone(), Int::from_i64(off)])
    }
}

/// `a == b`, converting `b` to the sort of `a`.
fn eq(a: &V, b: &V) -> Bool {
    match a {
        V::Bv(x, _) => match conv_kind(b.clone(), Kind::Bv(x.get_size())) {
            V::Bv(y, _) => x.eq(&y),
            V::Ptr(_) => Bool::fresh_const("eq"),
        },
        V::Ptr(x) => x.eq(b.to_int()),
    }
}

/// Conversion to a C type (assignment and cast semantics, as the engine's `coerce`).
fn conv(v: V, ty: &Type) -> V {
    match (v, ty) {
        (V::Bv(b, s), Type::Int(it)) => V::Bv(resize(b, s, u32::from(it.bits)), it.signed),
        (V::Ptr(p), Type::Int(it)) => V::Bv(p.to_ast(u32::from(it.bits)), it.signed),
        (V::Bv(b, s), _) => V::Ptr(Int::from_bv(&b, s)),
        (p, _) => p,
    }
}

fn conv_kind(v: V, k: Kind) -> V {
    match (v, k) {
        (V::Bv(b, s), Kind::Bv(w)) => V::Bv(resize(b, s, w), s),
        (V::Ptr(p), Kind::Bv(w)) => V::Bv(p.to_ast(w), false),
        (V::Bv(b, s), Kind::Ptr) => V::Ptr(Int::from_bv(&b, s)),
        (p, Kind::Ptr) => p,
    }
}

/// The value of a constant size expression.
fn const_value(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Const(c) => Some(*c),
        ExprKind::Cast(a) => const_value(a),
        ExprKind::Binary(BinOp::Mul, a, b) => Some(const_value(a)?.saturating_mul(const_value(b)?)),
        ExprKind::Binary(BinOp::Add, a, b) => Some(const_value(a)?.saturating_add(const_value(b)?)),
        _ => None,
    }
}

//! The semantics of one CFA edge on an explicit-heap state, with the SV-COMP property checks.
//!
//! Consumes a [`State`] and an edge; produces [`Outcome`]s: successor states (with the symbolic
//! branch condition the explorer must check for feasibility), a property violation, the end
//! of the run, or a stop (an unsupported construct or undefined behaviour outside the checked
//! properties). The same code runs symbolically (nondeterministic inputs become fresh symbols)
//! during exploration and concretely (inputs taken from a list) during replay.

use crate::explicit::memory::{BlockId, BlockKind, Fault, Memory, Ptr, Val};
use crate::explicit::term::{self, Term, TermRef};
use crate::program::ir::*;
use crate::program::property::{Property, PropertySet};
use crate::smt;
use petgraph::graph::{EdgeIndex, NodeIndex};
use std::collections::BTreeMap;
use std::rc::Rc;

/// A stack frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The function.
    pub func: FuncId,
    /// The current location (for callers: where to resume).
    pub loc: NodeIndex,
    /// The block of every local.
    pub vars: Rc<BTreeMap<VarId, BlockId>>,
    /// Blocks from `alloca`.
    pub allocas: Vec<BlockId>,
    /// The caller's call edge, whose left-hand side receives the return value.
    pub call_edge: Option<EdgeIndex>,
}

/// An explicit-heap state: call stack, memory, and the path condition over input symbols.
#[derive(Clone, Debug)]
pub struct State {
    /// Call stack, innermost last.
    pub frames: Vec<Frame>,
    /// Blocks of globals.
    pub globals: Rc<BTreeMap<VarId, BlockId>>,
    /// Memory.
    pub mem: Memory,
    /// Conjuncts over input symbols that the path satisfies.
    pub pc: Vec<TermRef>,
    /// Number of input symbols created so far.
    pub next_sym: u32,
    /// Number of branch points with more than one feasible successor on the path.
    pub forks: u32,
    /// Number of edges taken.
    pub steps: u32,
}

/// A property violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The violated property.
    pub property: Property,
    /// Source line of the violating operation.
    pub line: u32,
    /// What happened.
    pub message: String,
}

/// How a run ends without violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// `main` returned or `exit` was called (memcleanup already checked).
    Exit,
    /// `abort`, an error call of an unchecked property, or an infinite loop of `myexit` style.
    Abort,
}

/// The result of taking an edge.
#[derive(Debug)]
pub enum Outcome {
    /// A successor; `Some(cond)` when a symbolic conjunct was added to the path condition.
    Next(State, Option<TermRef>),
    /// A violation of a checked property in the given state.
    Violation(State, Violation),
    /// The run ended.
    End(End),
    /// The path cannot continue for a reason that makes the exploration incomplete.
    Stop(String),
    /// The edge is not enabled (a constant false assumption).
    Infeasible,
}

/// Why evaluation stopped.
pub(crate) enum Halt {
    Violation(Violation),
    Stop(String),
}

type Ev<T> = Result<T, Halt>;

/// Executes edges of a program.
pub struct Exec<'p> {
    /// The program.
    pub prog: &'p Program,
    /// The checked properties.
    pub checks: &'p PropertySet,
    /// Concrete inputs for replay; `None` during symbolic exploration.
    pub inputs: Option<&'p [i64]>,
    /// The caveats (`__shapecheck_caveat`) the runs so far went through.
    pub caveats: std::cell::RefCell<std::collections::BTreeSet<String>>,
    /// A nondeterministic value the last step needed as a number (an offset, a size) and one
    /// value it may have: [`Exec::step`] splits the state on it and takes the edge again.
    pub(crate) split: std::cell::RefCell<Option<(TermRef, u64)>>,
}

impl<'p> Exec<'p> {
    /// The initial state: globals allocated (zeroed), the initialiser function entered.
    pub fn initial(&self) -> State {
        let mut mem = Memory::default();
        let mut globals = BTreeMap::new();
        for &g in &self.prog.globals {
            let v = self.prog.var(g);
            let b = mem.alloc(
                BlockKind::Global,
                self.prog.size_of(&v.ty),
                true,
                v.line,
                &v.name,
            );
            globals.insert(g, b);
        }
        let init = self.prog.func(self.prog.init);
        State {
            frames: vec![Frame {
                func: self.prog.init,
                loc: init.entry,
                vars: Rc::new(BTreeMap::new()),
                allocas: vec![],
                call_edge: None,
            }],
            globals: Rc::new(globals),
            mem,
            pc: vec![],
            next_sym: 0,
            forks: 0,
            steps: 0,
        }
    }

    /// Takes edge `e` (leaving the current location of the innermost frame) from `st`. When
    /// the edge needs a nondeterministic value as a number (an index, a size) that the path
    /// does not determine, the state is split on one possible value (`v` and not `v`, at most
    /// [`MAX_SPLITS`] times) and the edge taken from each part.
    pub fn step(&self, st: State, e: EdgeIndex) -> Vec<Outcome> {
        self.step_split(st, e, 0)
    }

    fn step_split(&self, st: State, e: EdgeIndex, depth: usize) -> Vec<Outcome> {
        let backup = (depth < MAX_SPLITS && self.inputs.is_none() && self.may_split(&st, e))
            .then(|| st.clone());
        let out = self.step_once(st, e);
        let split = self.split.borrow_mut().take();
        let (Some((t, v)), Some(backup)) = (split, backup) else {
            return out;
        };
        let value = Term::constant(v as i64, t.ty());
        let mut out = vec![];
        for (i, op) in [CmpOp::Eq, CmpOp::Ne].into_iter().enumerate() {
            let mut s = backup.clone();
            s.pc.push(term::compare(op, t.clone(), value.clone()));
            s.forks += i as u32;
            out.extend(self.step_split(s, e, depth + 1));
        }
        out
    }

    /// Whether taking `e` may need a nondeterministic value as a number: it indexes with a
    /// non-constant or calls `memset`/`memcpy`, and the path has nondeterministic inputs.
    fn may_split(&self, st: &State, e: EdgeIndex) -> bool {
        if st.pc.is_empty() && st.next_sym == 0 {
            return false;
        }
        let Some(top) = st.frames.last() else {
            return false;
        };
        let op = &self.prog.func(top.func).cfa[e].op;
        if let Op::Call {
            callee: Callee::Builtin(Builtin::Memset | Builtin::Memcpy),
            ..
        } = op
        {
            return true;
        }
        op.exprs().iter().any(|x| {
            let mut found = false;
            x.visit(&mut |y| {
                found |= matches!(&y.kind, ExprKind::PtrAdd(_, i, _) if !matches!(i.kind, ExprKind::Const(_)))
            });
            found
        })
    }

    /// The number a nondeterministic value `t` stands for on this path: its only possible
    /// value, or else (recorded for [`Exec::step`] to split on) a stop. The value to split on
    /// satisfies `prefer` when the path allows it (an index out of its block's bounds, so that
    /// invalid accesses are found first).
    fn number(
        &self,
        st: &State,
        t: &TermRef,
        prefer: Option<TermRef>,
        what: &str,
        line: u32,
    ) -> Ev<u64> {
        if let Term::Const(bits, _) = &**t {
            return Ok(*bits as u64);
        }
        let preferred = prefer.and_then(|c| {
            let mut pc = st.pc.clone();
            pc.push(c);
            match smt::check(&pc) {
                smt::Answer::Sat(m) => Some(m),
                _ => None,
            }
        });
        let model = match preferred
            .map(smt::Answer::Sat)
            .unwrap_or_else(|| smt::check(&st.pc))
        {
            smt::Answer::Sat(m) => m,
            _ => {
                return Err(stop(
                    line,
                    &format!("unsupported: a nondeterministic {what}"),
                ));
            }
        };
        let Some(v) = term::evaluate(t, &model) else {
            return Err(stop(line, "undefined behaviour: division by zero"));
        };
        let mut pc = st.pc.clone();
        pc.push(term::compare(
            CmpOp::Ne,
            t.clone(),
            Term::constant(v as i64, t.ty()),
        ));
        if smt::check(&pc) == smt::Answer::Unsat {
            return Ok(v);
        }
        *self.split.borrow_mut() = Some((t.clone(), v));
        Err(stop(
            line,
            &format!(
                "unsupported: a nondeterministic {what} with more than {MAX_SPLITS} possible values"
            ),
        ))
    }

    fn step_once(&self, mut st: State, e: EdgeIndex) -> Vec<Outcome> {
        st.steps += 1;
        let Some(top) = st.frames.last() else {
            return vec![Outcome::End(End::Exit)];
        };
        let f = self.prog.func(top.func);
        let edge = &f.cfa[e];
        let Some((_, target)) = f.cfa.edge_endpoints(e) else {
            return vec![];
        };
        let line = self.report_line(&st, edge.line);
        if let Some(t) = st.frames.last_mut() {
            t.loc = target;
        }
        let r = match &edge.op {
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => {
                return self.builtin(st, *b, lhs.as_ref(), args, line);
            }
            Op::Assume { cond, positive } => return self.assume(st, cond, *positive, line),
            op => self.simple(&mut st, op, e, line),
        };
        match r {
            Ok(Some(end)) => vec![end],
            Ok(None) => vec![self.after(st, line)],
            Err(h) => vec![halt(st, h)],
        }
    }

    /// The line that messages about an edge name: its own, or inside the C library the line
    /// of the program's call into it.
    fn report_line(&self, st: &State, line: u32) -> u32 {
        let mut call = None;
        for fr in st.frames.iter().rev() {
            let f = self.prog.func(fr.func);
            if !f.library {
                return call.map_or(line, |e: EdgeIndex| f.cfa[e].line);
            }
            call = fr.call_edge;
        }
        line
    }

    /// Operations with exactly one outcome.
    fn simple(&self, st: &mut State, op: &Op, e: EdgeIndex, line: u32) -> Ev<Option<Outcome>> {
        match op {
            Op::Skip | Op::Assume { .. } => {}
            Op::Assign { lhs, rhs } => self.assign(st, lhs, rhs, line)?,
            Op::Havoc(v) => {
                let b = self.var_block(st, *v);
                st.mem.havoc(b);
            }
            Op::Call {
                lhs: _,
                callee: Callee::Func(f),
                args,
            } => self.call(st, *f, args, e, line)?,
            Op::Call { .. } => {}
            Op::CallPtr { target, args, .. } => match self.eval(st, target, line)? {
                Val::Ptr(Ptr::Func(f)) => self.call(st, f, args, e, line)?,
                _ => return Err(stop(line, "call through a pointer that is not a function")),
            },
            Op::Return(v) => return self.ret(st, v.as_ref(), line),
            Op::Unsupported(msg) => return Err(stop(line, &format!("unsupported: {msg}"))),
        }
        Ok(None)
    }

    /// The memtrack check after an operation, then the successor.
    fn after(&self, st: State, line: u32) -> Outcome {
        if self.checks.has(Property::ValidMemtrack)
            && let Some(v) = self.leak(&st, line)
        {
            return Outcome::Violation(st, v);
        }
        Outcome::Next(st, None)
    }

    fn leak(&self, st: &State, line: u32) -> Option<Violation> {
        let lost = st.mem.unreachable_heap();
        let first = *lost.first()?;
        let b = st.mem.block(first)?;
        Some(Violation {
            property: Property::ValidMemtrack,
            line,
            message: format!(
                "the last pointer to {} (allocated at line {}) is lost",
                b.name, b.line
            ),
        })
    }

    fn assume(&self, mut st: State, cond: &Expr, positive: bool, line: u32) -> Vec<Outcome> {
        let c = match self.eval_cond(&mut st, cond, line) {
            Ok(c) => c,
            Err(h) => return vec![halt(st, h)],
        };
        vec![branch(st, c, positive)]
    }

    /// Evaluates a scalar condition to an `int` 0/1 term.
    fn eval_cond(&self, st: &mut State, cond: &Expr, line: u32) -> Ev<TermRef> {
        match self.eval(st, cond, line)? {
            Val::Int(t) => Ok(term::truth(t)),
            Val::Ptr(Ptr::Undef) => Ok(self.choice(st)),
            Val::Ptr(p) => Ok(Term::constant(i64::from(p != Ptr::Null), IntTy::INT)),
            Val::Undef => Err(stop(line, "condition on an uninitialised value")),
            Val::Opaque => Err(stop(line, "unsupported: access to part of a stored value")),
        }
    }

    fn assign(&self, st: &mut State, lhs: &Expr, rhs: &Expr, line: u32) -> Ev<()> {
        if let ExprKind::BitField(unit, spec) = &lhs.kind {
            let v = self.int(st, rhs, line)?;
            let old = self.int(st, unit, line)?;
            let new = insert_bits(old, *spec, v);
            let p = self.lvalue(st, unit, line)?;
            return self.store(st, &p, &unit.ty, Val::Int(new), line);
        }
        if lhs.ty.is_scalar() {
            let v = self.eval(st, rhs, line)?;
            let v = self.coerce(v, &lhs.ty, line)?;
            let p = self.lvalue(st, lhs, line)?;
            return self.store(st, &p, &lhs.ty, v, line);
        }
        let src = self.lvalue(st, rhs, line)?;
        let dst = self.lvalue(st, lhs, line)?;
        self.copy(st, &dst, &src, &lhs.ty, line)
    }

    /// Copies an aggregate leaf by leaf.
    fn copy(&self, st: &mut State, dst: &Ptr, src: &Ptr, ty: &Type, line: u32) -> Ev<()> {
        let value = self.read_leaves(st, src, ty, line)?;
        self.store_passed(st, dst, ty, value, line)
    }

    /// The scalar leaves of the aggregate of type `ty` at `src`, with their offsets.
    fn read_leaves(&self, st: &State, src: &Ptr, ty: &Type, line: u32) -> Ev<Passed> {
        self.checked(st, src, self.prog.size_of(ty), line)?;
        let Some(leaves) = leaves(self.prog, ty) else {
            return Err(stop(
                line,
                "unsupported: copy of an aggregate with more than 65536 scalars",
            ));
        };
        let mut out = Vec::with_capacity(leaves.len());
        for (off, leaf) in leaves {
            let v = self.load_raw(st, &self.offset_by(src, i128::from(off)), &leaf, line)?;
            out.push((off, leaf, v));
        }
        Ok(Passed::Leaves(out))
    }

    /// The value of `e` as passed to a callee or returned to a caller: an aggregate is read
    /// leaf by leaf where it lies, so the callee's copy does not alias it.
    fn passed(&self, st: &mut State, e: &Expr, line: u32) -> Ev<Passed> {
        if e.ty.is_scalar() {
            return self.eval(st, e, line).map(Passed::Scalar);
        }
        let src = self.lvalue(st, e, line)?;
        self.read_leaves(st, &src, &e.ty, line)
    }

    /// Stores a passed value into an object of type `ty` at `dst`.
    fn store_passed(&self, st: &mut State, dst: &Ptr, ty: &Type, v: Passed, line: u32) -> Ev<()> {
        match v {
            Passed::Scalar(v) => {
                let v = self.coerce(v, ty, line)?;
                self.store(st, dst, ty, v, line)
            }
            Passed::Leaves(leaves) => {
                self.checked(st, dst, self.prog.size_of(ty), line)?;
                for (off, leaf, v) in leaves {
                    self.store(st, &self.offset_by(dst, i128::from(off)), &leaf, v, line)?;
                }
                Ok(())
            }
        }
    }

    fn call(&self, st: &mut State, f: FuncId, args: &[Expr], e: EdgeIndex, line: u32) -> Ev<()> {
        let func = self.prog.func(f);
        if !func.defined {
            return Err(stop(
                line,
                &format!("unsupported: call to `{}`, which has no body", func.name),
            ));
        }
        let mut vals = vec![];
        for a in args {
            vals.push(self.passed(st, a, line)?);
        }
        let mut vars = BTreeMap::new();
        for &v in &func.locals {
            let info = self.prog.var(v);
            let b = st.mem.alloc(
                BlockKind::Stack,
                self.prog.size_of(&info.ty),
                false,
                info.line,
                &info.name,
            );
            vars.insert(v, b);
        }
        let extra: Vec<(Passed, Type)> = args
            .iter()
            .zip(&vals)
            .skip(func.params.len())
            .map(|(a, v)| (v.clone(), a.ty.clone()))
            .collect();
        for (&p, v) in func.params.iter().zip(vals) {
            let ty = &self.prog.var(p).ty;
            self.store_passed(st, &Ptr::Addr(vars[&p], 0), ty, v, line)?;
        }
        let mut allocas = vec![];
        if let Some(area) = func.va_area {
            let block = self.va_block(st, &extra, line)?;
            allocas.push(block);
            let ty = &self.prog.var(area).ty;
            self.store(
                st,
                &Ptr::Addr(vars[&area], 0),
                ty,
                Val::Ptr(Ptr::Addr(block, 0)),
                line,
            )?;
        }
        st.frames.push(Frame {
            func: f,
            loc: func.entry,
            vars: Rc::new(vars),
            allocas,
            call_edge: Some(e),
        });
        Ok(())
    }

    /// The block of a variadic call's extra arguments, one slot each (see
    /// [`layout::va_slot`]), released when the callee returns.
    fn va_block(&self, st: &mut State, extra: &[(Passed, Type)], line: u32) -> Ev<BlockId> {
        let model = self.prog.model;
        let slots: Vec<u64> = extra
            .iter()
            .map(|(_, t)| layout::va_slot(model, self.prog.size_of(t)))
            .collect();
        let size = slots.iter().sum::<u64>();
        let b = st
            .mem
            .alloc(BlockKind::Stack, size, false, line, "variadic arguments");
        let mut off = 0;
        for ((v, t), slot) in extra.iter().zip(slots) {
            let Passed::Scalar(v) = v else {
                return Err(stop(
                    line,
                    "unsupported: an aggregate passed as a variadic argument",
                ));
            };
            let v = self.coerce(v.clone(), t, line)?;
            self.store(st, &Ptr::Addr(b, off as i64), t, v, line)?;
            off += slot;
        }
        Ok(b)
    }

    /// Returns from the innermost frame: pops it, stores the result, checks memtrack; from the
    /// outermost frame, ends the run with the memcleanup check.
    fn ret(&self, st: &mut State, v: Option<&Expr>, line: u32) -> Ev<Option<Outcome>> {
        let value = match v {
            Some(e) => Some(self.passed(st, e, line)?),
            None => None,
        };
        let Some(frame) = st.frames.pop() else {
            return Ok(Some(Outcome::End(End::Exit)));
        };
        for b in frame.vars.values().chain(&frame.allocas) {
            st.mem.release(*b);
        }
        let Some(caller) = st.frames.last() else {
            return self.terminate(st, line);
        };
        if st.frames.len() == 1 {
            // `main` returned: its locals are gone (memtrack), and the program ends here.
            if let Some(v) = self
                .checks
                .has(Property::ValidMemtrack)
                .then(|| self.leak(st, line))
                .flatten()
            {
                return Err(Halt::Violation(v));
            }
            self.terminate(st, line)?;
        }
        let cf = self.prog.func(caller.func);
        let lhs = frame.call_edge.and_then(|e| match &cf.cfa[e].op {
            Op::Call { lhs, .. } | Op::CallPtr { lhs, .. } => lhs.clone(),
            _ => None,
        });
        if let (Some(l), Some(v)) = (lhs, value) {
            let p = self.lvalue(st, &l, line)?;
            self.store_passed(st, &p, &l.ty, v, line)?;
        }
        Ok(None)
    }

    /// The end of the run (return from the initialiser, or `exit`).
    fn terminate(&self, st: &State, line: u32) -> Ev<Option<Outcome>> {
        if self.checks.has(Property::ValidMemcleanup)
            && let Some(&b) = st.mem.live_heap_blocks().first()
        {
            let blk = st.mem.block(b);
            let at = blk.map_or(0, |x| x.line);
            let name = blk.map_or_else(String::new, |x| x.name.to_string());
            return Err(Halt::Violation(Violation {
                property: Property::ValidMemcleanup,
                line,
                message: format!(
                    "{name} (allocated at line {at}) is not freed when the program ends"
                ),
            }));
        }
        Ok(Some(Outcome::End(End::Exit)))
    }

    fn builtin(
        &self,
        mut st: State,
        b: Builtin,
        lhs: Option<&Expr>,
        args: &[Expr],
        line: u32,
    ) -> Vec<Outcome> {
        let r = match b {
            Builtin::Nondet => self.nondet(&mut st, lhs, line).map(|_| None),
            Builtin::Assume => match self.eval_cond(&mut st, &args[0], line) {
                Ok(c) => return vec![branch(st, c, true)],
                Err(h) => Err(h),
            },
            Builtin::Error(_) if self.checks.has(Property::UnreachCall) => {
                Err(Halt::Violation(Violation {
                    property: Property::UnreachCall,
                    line,
                    message: "the error function is reachable".into(),
                }))
            }
            // abort() ends the program: memory still allocated then violates memcleanup.
            Builtin::Error(_) | Builtin::Abort | Builtin::Exit => self.terminate(&st, line),
            Builtin::Alloc(kind) => return self.alloc(st, kind, lhs, args, line),
            Builtin::Free => self.free(&mut st, &args[0], line).map(|_| None),
            Builtin::Memset => self.memset(&mut st, lhs, args, line).map(|_| None),
            Builtin::Memcpy => self.memcpy(&mut st, lhs, args, line).map(|_| None),
            Builtin::BlockSize => self.block_size(&mut st, lhs, args, line).map(|_| None),
            Builtin::Unsupported => {
                let what = args
                    .first()
                    .and_then(Expr::literal_text)
                    .unwrap_or_default();
                Err(stop(line, &format!("unsupported: {what}")))
            }
            Builtin::External => {
                let name = args
                    .first()
                    .and_then(Expr::literal_text)
                    .unwrap_or_default();
                let b = st.mem.alloc(BlockKind::External, 0, false, line, &name);
                self.set_result(&mut st, lhs, Val::Ptr(Ptr::Addr(b, 0)), line)
                    .map(|_| None)
            }
            Builtin::Caveat => {
                let why = args.first().and_then(Expr::literal_text);
                let why = why.unwrap_or_else(|| format!("a caveat at line {line}"));
                self.caveats.borrow_mut().insert(why);
                Ok(None)
            }
            Builtin::ScopeEnd => self.scope_end(&mut st, args, line).map(|_| None),
        };
        match r {
            Ok(Some(o)) => vec![o],
            Ok(None) => vec![self.after(st, line)],
            Err(h) => vec![halt(st, h)],
        }
    }

    /// The end of a block-scope object's lifetime. For a local (`&v`) its block is released
    /// (pointers to it now dangle) and the variable gets a fresh block for the block's next
    /// entry; for a variable-length array (its pointer) the array's block is released.
    fn scope_end(&self, st: &mut State, args: &[Expr], line: u32) -> Ev<()> {
        let Some(arg) = args.first() else {
            return Err(stop(line, "a scope end without an object"));
        };
        if let ExprKind::AddrOf(x) = &arg.kind
            && let ExprKind::Var(v) = x.kind
        {
            let info = self.prog.var(v);
            let size = self.prog.size_of(&info.ty);
            let fresh = st
                .mem
                .alloc(BlockKind::Stack, size, false, info.line, &info.name);
            if let Some(top) = st.frames.last_mut()
                && let Some(old) = Rc::make_mut(&mut top.vars).insert(v, fresh)
            {
                st.mem.release(old);
            }
            return Ok(());
        }
        if let Val::Ptr(Ptr::Addr(b, _)) = self.eval(st, arg, line)?
            && let Some(top) = st.frames.last_mut()
            && let Some(i) = top.allocas.iter().position(|a| *a == b)
        {
            top.allocas.remove(i);
            st.mem.release(b);
        }
        Ok(())
    }

    /// A fresh input: a new symbol, or the next concrete input during replay.
    fn fresh(&self, st: &mut State, ty: IntTy) -> TermRef {
        let n = st.next_sym;
        st.next_sym += 1;
        match self.inputs {
            Some(inputs) => Term::constant(inputs.get(n as usize).copied().unwrap_or(0), ty),
            None => Rc::new(Term::Sym(n, ty)),
        }
    }

    /// A nondeterministic truth value (an `int` 0/1 term) decided by a fresh input.
    fn choice(&self, st: &mut State) -> TermRef {
        let s = self.fresh(st, IntTy::INT);
        term::truth(s)
    }

    fn nondet(&self, st: &mut State, lhs: Option<&Expr>, line: u32) -> Ev<()> {
        let Some(l) = lhs else {
            self.fresh(st, IntTy::INT);
            return Ok(());
        };
        let Some(ty) = l.ty.as_int() else {
            return Err(stop(line, "unsupported: nondeterministic pointer values"));
        };
        let mut v = self.fresh(st, ty);
        if ty == IntTy::BOOL {
            // A `_Bool` input is 0 or 1.
            let c = term::compare(CmpOp::Le, v.clone(), Term::constant(1, ty));
            if !c.is_const() {
                st.pc.push(c);
            } else if c.as_const() == Some(0) {
                v = Term::constant(1, ty);
            }
        }
        let p = self.lvalue(st, l, line)?;
        self.store(st, &p, &l.ty, Val::Int(v), line)
    }

    fn alloc(
        &self,
        mut st: State,
        kind: AllocKind,
        lhs: Option<&Expr>,
        args: &[Expr],
        line: u32,
    ) -> Vec<Outcome> {
        let sizes = match self.alloc_sizes(&mut st, args, line) {
            Ok(s) => s,
            Err(h) => return vec![halt(st, h)],
        };
        let mut out = vec![];
        for (i, (mut st, size)) in sizes.into_iter().enumerate() {
            st.forks += u32::from(i > 0);
            out.extend(self.alloc_of(st, kind, lhs, size, line));
        }
        out
    }

    /// The block sizes an allocation may have, each with its state: one when the size is a
    /// constant; for a nondeterministic size, every value the path allows (at most
    /// [`MAX_SIZES`]), each state constrained to its value.
    fn alloc_sizes(&self, st: &mut State, args: &[Expr], line: u32) -> Ev<Vec<(State, u64)>> {
        let mut terms = vec![];
        for a in args {
            match self.eval(st, a, line)? {
                Val::Int(t) => terms.push(t),
                _ => return Err(stop(line, "allocation size is not an integer")),
            }
        }
        if terms.iter().all(|t| t.is_const()) {
            return Ok(vec![(st.clone(), self.alloc_size_of(&terms))]);
        }
        let size_t = self.prog.model.size_t();
        let product = terms
            .into_iter()
            .map(|t| term::cast(t, size_t))
            .try_fold(Term::constant(1, size_t), |acc, t| {
                term::binary(BinOp::Mul, acc, t)
            })
            .ok_or_else(|| stop(line, "internal: allocation size"))?;
        let mut out = vec![];
        let mut pc = st.pc.clone();
        loop {
            let model = match smt::check(&pc) {
                smt::Answer::Sat(m) => m,
                smt::Answer::Unsat => return Ok(out),
                smt::Answer::Unknown(why) => {
                    return Err(stop(
                        line,
                        &format!("the solver could not bound an allocation size ({why})"),
                    ));
                }
            };
            let Some(v) = term::evaluate(&product, &model) else {
                return Err(stop(line, "undefined behaviour: division by zero"));
            };
            if out.len() == MAX_SIZES {
                return Err(stop(
                    line,
                    &format!(
                        "unsupported: allocation of a nondeterministic size with more than {MAX_SIZES} possible values"
                    ),
                ));
            }
            let value = Term::constant(v as i64, size_t);
            let mut s = st.clone();
            s.pc.push(term::compare(CmpOp::Eq, product.clone(), value.clone()));
            out.push((s, v));
            pc.push(term::compare(CmpOp::Ne, product.clone(), value));
        }
    }

    /// The product of constant size arguments (saturating: a product beyond the address space
    /// is a size no allocation can have).
    fn alloc_size_of(&self, terms: &[TermRef]) -> u64 {
        terms.iter().fold(1u64, |size, t| {
            let v = exact_value(t).unwrap_or(0);
            size.saturating_mul(u64::try_from(v).unwrap_or(u64::MAX))
        })
    }

    /// An allocation of `size` bytes.
    fn alloc_of(
        &self,
        mut st: State,
        kind: AllocKind,
        lhs: Option<&Expr>,
        size: u64,
        line: u32,
    ) -> Vec<Outcome> {
        let zeroed = kind == AllocKind::Calloc;
        if kind == AllocKind::Alloca {
            let b = st.mem.alloc(BlockKind::Stack, size, false, line, "");
            if let Some(top) = st.frames.last_mut() {
                top.allocas.push(b);
            }
            return vec![self.finish_alloc(st, lhs, Ptr::Addr(b, 0), line)];
        }
        if !self.prog.alloc_may_fail {
            let b = st.mem.alloc(BlockKind::Heap, size, zeroed, line, "");
            return vec![self.finish_alloc(st, lhs, Ptr::Addr(b, 0), line)];
        }
        // The allocation may fail: a fresh input decides (0: success).
        let fail = self.fresh(&mut st, IntTy::BOOL);
        let mut out = vec![];
        let ok_cond = term::compare(CmpOp::Eq, fail.clone(), Term::constant(0, IntTy::BOOL));
        let mut ok = st.clone();
        if constrain(&mut ok, ok_cond).is_some() {
            let b = ok.mem.alloc(BlockKind::Heap, size, zeroed, line, "");
            out.push(self.finish_alloc(ok, lhs, Ptr::Addr(b, 0), line));
        }
        let fail_cond = term::compare(CmpOp::Ne, fail, Term::constant(0, IntTy::BOOL));
        if constrain(&mut st, fail_cond).is_some() {
            // Failure is a choice of its own; success continues the path like a plain step.
            st.forks += 1;
            out.push(self.finish_alloc(st, lhs, Ptr::Null, line));
        }
        out
    }

    /// The product of size arguments (saturating: a product beyond the address space is a
    /// size no allocation can have).
    fn alloc_size(&self, st: &mut State, args: &[Expr], line: u32) -> Ev<u64> {
        let mut size: u64 = 1;
        for a in args {
            match self.eval(st, a, line)? {
                Val::Int(t) => {
                    let v = match exact_value(&t) {
                        Some(v) => u64::try_from(v).unwrap_or(u64::MAX),
                        None => self.number(st, &t, None, "size", line)?,
                    };
                    size = size.saturating_mul(v);
                }
                _ => return Err(stop(line, "allocation size is not an integer")),
            }
        }
        Ok(size)
    }

    fn finish_alloc(&self, mut st: State, lhs: Option<&Expr>, p: Ptr, line: u32) -> Outcome {
        if let Some(l) = lhs {
            let r = self
                .coerce(Val::Ptr(p), &l.ty, line)
                .and_then(|v| self.lvalue(&mut st, l, line).map(|a| (a, v)))
                .and_then(|(a, v)| self.store(&mut st, &a, &l.ty, v, line));
            if let Err(h) = r {
                return halt(st, h);
            }
        }
        self.after(st, line)
    }

    fn free(&self, st: &mut State, arg: &Expr, line: u32) -> Ev<()> {
        if let Some(b) = self.heap_block(st, arg, "free", line)? {
            st.mem.kill(b);
        }
        Ok(())
    }

    /// `__shapecheck_block_size(p)`: the size of the heap block `p` is the start of.
    fn block_size(&self, st: &mut State, lhs: Option<&Expr>, args: &[Expr], line: u32) -> Ev<()> {
        let size = match self.heap_block(st, &args[0], "realloc", line)? {
            Some(b) => st.mem.block(b).map_or(0, |b| b.size),
            None => 0,
        };
        let v = Term::constant(size as i64, self.prog.model.size_t());
        self.set_result(st, lhs, Val::Int(v), line)
    }

    /// The live heap block whose start `arg` points to, as `free` and `realloc` require (a
    /// valid-free violation otherwise); `None` for NULL.
    fn heap_block(&self, st: &mut State, arg: &Expr, what: &str, line: u32) -> Ev<Option<BlockId>> {
        let p = match self.eval(st, arg, line)? {
            Val::Ptr(p) => p,
            Val::Int(t) if t.as_const() == Some(0) => Ptr::Null,
            _ => return Err(stop(line, &format!("{what} of a non-pointer value"))),
        };
        let bad = |msg: String| {
            Halt::Violation(Violation {
                property: Property::ValidFree,
                line,
                message: msg,
            })
        };
        let (b, off) = match p {
            Ptr::Null => return Ok(None),
            Ptr::Addr(b, off) => (b, off),
            Ptr::Undef => {
                return Err(self.gate(bad(format!("{what} of an uninitialised pointer")), line));
            }
            other => {
                return Err(self.gate(
                    bad(format!("{what} of {other}, which is not a heap block")),
                    line,
                ));
            }
        };
        let blk = st.mem.block(b).cloned();
        let Some(blk) = blk else {
            return Err(stop(line, &format!("{what} of an unknown block")));
        };
        let err = if blk.kind != BlockKind::Heap {
            Some(format!(
                "{what} of `{}`, which is not on the heap",
                blk.name
            ))
        } else if !blk.alive {
            Some(format!(
                "double free of {} (allocated at line {})",
                blk.name, blk.line
            ))
        } else if off != 0 {
            Some(format!("{what} of a pointer {off} bytes into {}", blk.name))
        } else {
            None
        };
        if let Some(msg) = err {
            return Err(self.gate(bad(msg), line));
        }
        Ok(Some(b))
    }

    fn memset(&self, st: &mut State, lhs: Option<&Expr>, args: &[Expr], line: u32) -> Ev<()> {
        let p = self.pointer(st, &args[0], line)?;
        let c = self.eval(st, &args[1], line)?;
        let n = self.alloc_size(st, &args[2..], line)?;
        let (b, off) = self.checked(st, &p, n, line)?;
        if st
            .mem
            .block(b)
            .is_some_and(|x| x.kind == BlockKind::Literal)
        {
            return Err(self.fault(Fault::ReadOnly, line));
        }
        let byte = match c {
            Val::Int(t) => t.as_const().map(|c| c as u8),
            _ => None,
        };
        let Some(byte) = byte else {
            return Err(stop(
                line,
                "unsupported: memset with a nondeterministic value",
            ));
        };
        st.mem
            .fill(b, off, n, byte)
            .map_err(|why| stop(line, &format!("unsupported: {why}")))?;
        self.set_result(st, lhs, Val::Ptr(p), line)
    }

    fn memcpy(&self, st: &mut State, lhs: Option<&Expr>, args: &[Expr], line: u32) -> Ev<()> {
        let d = self.pointer(st, &args[0], line)?;
        let s = self.pointer(st, &args[1], line)?;
        let n = self.alloc_size(st, &args[2..], line)?;
        let (sb, so) = self.checked(st, &s, n, line)?;
        let (db, dof) = self.checked(st, &d, n, line)?;
        if st
            .mem
            .block(db)
            .is_some_and(|b| b.kind == BlockKind::Literal)
        {
            return Err(self.fault(Fault::ReadOnly, line));
        }
        st.mem
            .copy(sb, so, db, dof, n)
            .map_err(|why| stop(line, &format!("unsupported: memcpy: {why}")))?;
        self.set_result(st, lhs, Val::Ptr(d), line)
    }

    fn set_result(&self, st: &mut State, lhs: Option<&Expr>, v: Val, line: u32) -> Ev<()> {
        let Some(l) = lhs else { return Ok(()) };
        let v = self.coerce(v, &l.ty, line)?;
        let p = self.lvalue(st, l, line)?;
        self.store(st, &p, &l.ty, v, line)
    }

    fn pointer(&self, st: &mut State, e: &Expr, line: u32) -> Ev<Ptr> {
        match self.eval(st, e, line)? {
            Val::Ptr(p) => Ok(p),
            Val::Int(t) if t.as_const() == Some(0) => Ok(Ptr::Null),
            _ => Err(stop(line, "expected a pointer value")),
        }
    }

    // ---- expressions ----

    /// The block of a variable in the current frame or the globals.
    fn var_block(&self, st: &State, v: VarId) -> BlockId {
        st.frames
            .last()
            .and_then(|f| f.vars.get(&v))
            .or_else(|| st.globals.get(&v))
            .copied()
            .unwrap_or(0)
    }

    /// The address an lvalue denotes.
    fn lvalue(&self, st: &mut State, e: &Expr, line: u32) -> Ev<Ptr> {
        match &e.kind {
            ExprKind::Var(v) => Ok(Ptr::Addr(self.var_block(st, *v), 0)),
            ExprKind::Deref(p) => self.pointer(st, p, line),
            ExprKind::Field(b, off, _) => {
                let base = self.lvalue(st, b, line)?;
                Ok(self.offset_by(&base, i128::from(*off)))
            }
            _ => Err(stop(line, "internal: not an lvalue")),
        }
    }

    /// Evaluates an expression to a value.
    pub(crate) fn eval(&self, st: &mut State, e: &Expr, line: u32) -> Ev<Val> {
        match &e.kind {
            ExprKind::Const(c) => Ok(match &e.ty {
                Type::Ptr(_) if *c == 0 => Val::Ptr(Ptr::Null),
                Type::Ptr(_) => Val::Ptr(Ptr::Abs(*c)),
                Type::Int(t) => Val::Int(Term::constant(*c, *t)),
                _ => Val::Int(Term::constant(*c, IntTy::INT)),
            }),
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) => {
                if !e.ty.is_scalar() {
                    return Err(stop(line, "unsupported: aggregate used as a value"));
                }
                let p = self.lvalue(st, e, line)?;
                self.load(st, &p, &e.ty, line)
            }
            ExprKind::BitField(unit, spec) => {
                let u = self.int(st, unit, line)?;
                let Some(ty) = e.ty.as_int() else {
                    return Err(stop(line, "internal: a bit-field of a non-integer type"));
                };
                Ok(Val::Int(extract_bits(u, *spec, ty)))
            }
            ExprKind::AddrOf(x) => self.lvalue(st, x, line).map(Val::Ptr),
            ExprKind::FuncAddr(f) => Ok(Val::Ptr(Ptr::Func(*f))),
            ExprKind::Str(s) => {
                let b = st.mem.literal(s, line);
                Ok(Val::Ptr(Ptr::Addr(b, 0)))
            }
            ExprKind::Unary(op, a) => Ok(Val::Int(term::unary(*op, self.int(st, a, line)?))),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(st, a, line)?, self.eval(st, b, line)?);
                if let Some(v) = self.address_arith(*op, &x, &y, &e.ty, line)? {
                    return Ok(v);
                }
                let (x, y) = (self.as_int(x, line)?, self.as_int(y, line)?);
                term::binary(*op, x, y)
                    .map(Val::Int)
                    .ok_or_else(|| stop(line, "undefined behaviour: division by zero"))
            }
            ExprKind::Cmp(op, a, b) => self.compare(st, *op, a, b, line),
            ExprKind::Cast(a) => {
                let v = self.eval(st, a, line)?;
                self.coerce(v, &e.ty, line)
            }
            ExprKind::PtrAdd(p, i, size) => self.ptr_add(st, p, i, *size, line),
            ExprKind::PtrDiff(a, b, size) => self.ptr_diff(st, a, b, *size, line),
        }
    }

    fn int(&self, st: &mut State, e: &Expr, line: u32) -> Ev<TermRef> {
        let v = self.eval(st, e, line)?;
        self.as_int(v, line)
    }

    /// Integer arithmetic on an integer that holds an address (a pointer converted to
    /// `uintptr_t` or `long`): adding or subtracting a constant moves the address, the
    /// difference of two addresses into one block is a number; `None` when neither operand
    /// holds an address.
    fn address_arith(&self, op: BinOp, x: &Val, y: &Val, ty: &Type, line: u32) -> Ev<Option<Val>> {
        let addr = |v: &Val| matches!(v, Val::Ptr(Ptr::Addr(..) | Ptr::Func(_)));
        if !addr(x) && !addr(y) {
            return Ok(None);
        }
        let int_ty = ty.as_int().unwrap_or(self.prog.model.size_t());
        let konst = |v: &Val| match v {
            Val::Int(t) => exact_value(t),
            _ => None,
        };
        let moved = match (op, x, y) {
            (BinOp::Add, Val::Ptr(p), k) | (BinOp::Add, k, Val::Ptr(p)) => {
                konst(k).map(|k| Val::Ptr(self.offset_by(p, k)))
            }
            (BinOp::Sub, Val::Ptr(Ptr::Addr(a, o1)), Val::Ptr(Ptr::Addr(b, o2))) if a == b => {
                Some(Val::Int(Term::constant(o1.wrapping_sub(*o2), int_ty)))
            }
            (BinOp::Sub, Val::Ptr(p), k) => konst(k).map(|k| Val::Ptr(self.offset_by(p, -k))),
            _ => None,
        };
        moved.map(Some).ok_or_else(|| {
            stop(
                line,
                "unsupported: arithmetic other than adding a constant on an integer that holds an address",
            )
        })
    }

    fn as_int(&self, v: Val, line: u32) -> Ev<TermRef> {
        match v {
            Val::Int(t) => Ok(t),
            Val::Ptr(Ptr::Null) => Ok(Term::constant(0, self.prog.model.size_t())),
            Val::Ptr(Ptr::Abs(a)) => Ok(Term::constant(a, self.prog.model.size_t())),
            Val::Ptr(_) => Err(stop(
                line,
                "unsupported: arithmetic on a pointer converted to an integer",
            )),
            Val::Undef => Err(stop(line, "use of an uninitialised value")),
            Val::Opaque => Err(stop(line, "unsupported: access to part of a stored value")),
        }
    }

    fn compare(&self, st: &mut State, op: CmpOp, a: &Expr, b: &Expr, line: u32) -> Ev<Val> {
        let (x, y) = (self.eval(st, a, line)?, self.eval(st, b, line)?);
        if matches!(x, Val::Ptr(Ptr::Undef)) || matches!(y, Val::Ptr(Ptr::Undef)) {
            // An uninitialised pointer holds an arbitrary address: either outcome is possible.
            return Ok(Val::Int(self.choice(st)));
        }
        let r = match (x, y) {
            (Val::Int(x), Val::Int(y)) => return Ok(Val::Int(term::compare(op, x, y))),
            (Val::Ptr(p), Val::Ptr(q)) => ptr_compare(op, &p, &q),
            (Val::Ptr(p), Val::Int(t)) | (Val::Int(t), Val::Ptr(p)) if t.as_const() == Some(0) => {
                ptr_compare(op, &p, &Ptr::Null)
            }
            _ => None,
        };
        match r {
            Some(r) => Ok(Val::Int(Term::constant(i64::from(r), IntTy::INT))),
            None => Err(stop(
                line,
                "unsupported: comparison of unrelated or uninitialised pointers",
            )),
        }
    }

    /// `p + i` elements of `size` bytes: the index is read with its own signedness (an
    /// unsigned index is never negative) and the byte offset is exact, never wrapped at the
    /// address width, so that a far access stays far out of bounds.
    fn ptr_add(&self, st: &mut State, p: &Expr, i: &Expr, size: u64, line: u32) -> Ev<Val> {
        let base = self.pointer(st, p, line)?;
        let idx = self.int(st, i, line)?;
        let k = match exact_value(&idx) {
            Some(k) => k,
            None => {
                let prefer = self.outside(st, &base, &idx, size);
                let bits = self.number(st, &idx, prefer, "offset", line)?;
                let ty = idx.ty();
                exact_value(&Term::constant(bits as i64, ty)).unwrap_or(0)
            }
        };
        let delta = k.saturating_mul(i128::from(size));
        match base {
            Ptr::Func(_) => Err(stop(line, "unsupported: arithmetic on a function pointer")),
            p => Ok(Val::Ptr(self.offset_by(&p, delta))),
        }
    }

    /// `idx` puts `base + idx * size` outside the block `base` points into (a condition term),
    /// when the block and the bounds are known.
    fn outside(&self, st: &State, base: &Ptr, idx: &TermRef, size: u64) -> Option<TermRef> {
        let Ptr::Addr(b, o) = base else { return None };
        let blk = st.mem.block(*b)?;
        let size = i128::from(size.max(1));
        let lo = (-i128::from(*o)).div_euclid(size)
            + i128::from((-i128::from(*o)).rem_euclid(size) != 0);
        let hi = (i128::from(blk.size) - i128::from(*o)).div_euclid(size) - 1;
        let ty = idx.ty();
        let (min, max) = if ty.signed {
            (-(1i128 << (ty.bits - 1)), (1i128 << (ty.bits - 1)) - 1)
        } else {
            (0, (1i128 << ty.bits) - 1)
        };
        let below = (lo > min && lo <= max)
            .then(|| term::compare(CmpOp::Lt, idx.clone(), Term::constant(lo as i64, ty)));
        let above = (hi >= min && hi < max)
            .then(|| term::compare(CmpOp::Gt, idx.clone(), Term::constant(hi as i64, ty)));
        match (below, above) {
            (Some(a), Some(b)) => term::binary(BinOp::Or, a, b),
            (a, b) => a.or(b),
        }
    }

    fn ptr_diff(&self, st: &mut State, a: &Expr, b: &Expr, size: u64, line: u32) -> Ev<Val> {
        let absolute = |p: &Ptr| match p {
            Ptr::Null => Some(0),
            Ptr::Abs(a) => Some(*a),
            _ => None,
        };
        let (p, q) = (self.pointer(st, a, line)?, self.pointer(st, b, line)?);
        let bytes = match (&p, &q) {
            (Ptr::Addr(x, o1), Ptr::Addr(y, o2)) if x == y => Some((*o1, *o2)),
            _ => absolute(&p).zip(absolute(&q)),
        };
        match bytes {
            Some((o1, o2)) => {
                let d = (i128::from(o1) - i128::from(o2)) / i128::from(size.max(1));
                Ok(Val::Int(Term::constant(
                    d as i64,
                    self.prog.model.ptrdiff_t(),
                )))
            }
            _ => Err(stop(
                line,
                "undefined behaviour: difference of pointers into different blocks",
            )),
        }
    }

    /// `p + by` bytes. Offsets into blocks are exact (saturating far beyond any block);
    /// absolute addresses (integers converted to pointers, `&((T *)0)->f`) wrap at the
    /// address width like the integers they are.
    fn offset_by(&self, p: &Ptr, by: i128) -> Ptr {
        let bits = self.prog.model.ptr_bits();
        let abs = |a: i128| {
            let v = crate::explicit::term::mask(a as u64, bits);
            if v == 0 {
                Ptr::Null
            } else {
                Ptr::Abs(v as i64)
            }
        };
        match p {
            _ if by == 0 => p.clone(),
            Ptr::Addr(b, o) => Ptr::Addr(*b, saturate(i128::from(*o) + by)),
            Ptr::Null => abs(by),
            Ptr::Abs(a) => abs(i128::from(*a) + by),
            Ptr::Func(_) | Ptr::Undef => p.clone(),
        }
    }

    /// Converts a value to a type (assignment and cast semantics).
    fn coerce(&self, v: Val, ty: &Type, line: u32) -> Ev<Val> {
        match (v, ty) {
            (Val::Int(t), Type::Int(it)) => Ok(Val::Int(term::cast(t, *it))),
            (Val::Ptr(p), Type::Ptr(_)) => Ok(Val::Ptr(p)),
            (Val::Int(t), Type::Ptr(_)) => match t.as_const() {
                Some(0) => Ok(Val::Ptr(Ptr::Null)),
                Some(c) => Ok(Val::Ptr(Ptr::Abs(c))),
                None => Err(stop(
                    line,
                    "unsupported: nondeterministic integer converted to a pointer",
                )),
            },
            (Val::Ptr(Ptr::Null), Type::Int(it)) => Ok(Val::zero(*it)),
            (Val::Ptr(Ptr::Abs(a)), Type::Int(it)) => Ok(Val::Int(Term::constant(a, *it))),
            (Val::Ptr(Ptr::Undef), Type::Int(_)) => Err(stop(
                line,
                "unsupported: an uninitialised pointer converted to an integer",
            )),
            (Val::Ptr(_), Type::Int(it)) if it.boolean => Ok(Val::Int(Term::constant(1, *it))),
            // An integer wide enough for an address holds it: converted back, it is the
            // same pointer.
            (Val::Ptr(p), Type::Int(it)) if it.bits >= self.prog.model.ptr_bits() => {
                Ok(Val::Ptr(p))
            }
            (Val::Ptr(_), Type::Int(_)) => Err(stop(
                line,
                "unsupported: a pointer converted to an integer narrower than a pointer",
            )),
            (v, _) => Ok(v),
        }
    }

    /// Checks an access of `size` bytes at `p`, reporting a valid-deref violation.
    fn checked(&self, st: &State, p: &Ptr, size: u64, line: u32) -> Ev<(BlockId, u64)> {
        st.mem.check(p, size).map_err(|f| self.fault(f, line))
    }

    /// A fault as a valid-deref violation, or a stop when valid-deref is not checked.
    fn fault(&self, f: Fault, line: u32) -> Halt {
        let msg = match f {
            Fault::Null => "dereference of NULL".to_string(),
            Fault::Freed(b) => format!("access to blk{b} after it was freed"),
            Fault::Dead(b) => {
                format!("access to blk{b}, a local whose block or function has ended")
            }
            Fault::OutOfBounds(b, o, s) => {
                format!("access of {s} bytes at offset {o} is outside blk{b}")
            }
            Fault::NotMemory => "dereference of a pointer that is not into memory".to_string(),
            Fault::ReadOnly => "write to a string literal".to_string(),
            Fault::Uninit => "dereference of an uninitialised pointer".to_string(),
            Fault::External(b) => {
                return stop(
                    line,
                    &format!(
                        "unsupported: access to blk{b}, an object defined outside the program"
                    ),
                );
            }
        };
        self.gate(
            Halt::Violation(Violation {
                property: Property::ValidDeref,
                line,
                message: msg,
            }),
            line,
        )
    }

    /// Keeps a violation of a checked property; otherwise it is undefined behaviour that stops
    /// the path.
    fn gate(&self, h: Halt, line: u32) -> Halt {
        match h {
            Halt::Violation(v) if !self.checks.has(v.property) => Halt::Stop(format!(
                "undefined behaviour at line {line} ({}: {}), and {} is not checked",
                v.property, v.message, v.property
            )),
            h => h,
        }
    }

    /// Reads a scalar, creating an input symbol for uninitialised integers.
    fn load(&self, st: &mut State, p: &Ptr, ty: &Type, line: u32) -> Ev<Val> {
        let v = self.load_raw(st, p, ty, line)?;
        match (v, ty) {
            (Val::Undef, Type::Int(it)) => {
                let t = self.fresh(st, *it);
                self.store(st, p, ty, Val::Int(t.clone()), line)?;
                Ok(Val::Int(t))
            }
            (Val::Undef, Type::Ptr(_)) => Ok(Val::Ptr(Ptr::Undef)),
            (Val::Undef, _) => Err(stop(line, "unsupported: use of an uninitialised aggregate")),
            (Val::Opaque, _) => Err(stop(line, "unsupported: access to part of a stored value")),
            (v, _) => self.coerce(v, ty, line),
        }
    }

    fn load_raw(&self, st: &State, p: &Ptr, ty: &Type, line: u32) -> Ev<Val> {
        let size = self.prog.size_of(ty);
        let (b, off) = self.checked(st, p, size, line)?;
        st.mem
            .read(b, off, size)
            .ok_or_else(|| stop(line, "unsupported: access to part of a stored value"))
    }

    fn store(&self, st: &mut State, p: &Ptr, ty: &Type, v: Val, line: u32) -> Ev<()> {
        let size = self.prog.size_of(ty);
        let (b, off) = self.checked(st, p, size, line)?;
        st.mem
            .write(b, off, size, v)
            .map_err(|f| self.fault(f, line))
    }
}

/// A value passed to a callee or returned to a caller.
#[derive(Clone)]
enum Passed {
    /// A scalar.
    Scalar(Val),
    /// An aggregate: its scalar leaves with their offsets and types.
    Leaves(Vec<(u64, Type, Val)>),
}

/// The scalar leaves of a type with their offsets; `None` when there are more than
/// [`MAX_LEAVES`] (an aggregate this engine does not copy cell by cell).
fn leaves(p: &Program, ty: &Type) -> Option<Vec<(u64, Type)>> {
    let mut out = vec![];
    collect_leaves(p, ty, 0, &mut out).then_some(out)
}

/// Most scalar leaves of one aggregate assignment.
const MAX_LEAVES: usize = 1 << 16;

fn collect_leaves(p: &Program, ty: &Type, base: u64, out: &mut Vec<(u64, Type)>) -> bool {
    match ty {
        Type::Struct(s) => p.strukt(*s).fields.iter().all(|f| {
            let at = base.saturating_add(f.offset);
            match f.bits {
                // The bit-fields of one unit are one leaf: the unit.
                Some(_) if out.last().is_some_and(|l| l.0 == at) => true,
                Some(spec) => collect_leaves(p, &Type::Int(spec.unit), at, out),
                None => collect_leaves(p, &f.ty, at, out),
            }
        }),
        Type::Array(t, n) => {
            let sz = p.size_of(t);
            (0..*n).all(|i| collect_leaves(p, t, base.saturating_add(i.saturating_mul(sz)), out))
        }
        t => {
            out.push((base, t.clone()));
            out.len() <= MAX_LEAVES
        }
    }
}

/// The value of the bits `spec` of the unit value `u`, as an integer of type `ty`
/// (sign-extended from the field's top bit when `ty` is signed).
fn extract_bits(u: TermRef, spec: BitSpec, ty: IntTy) -> TermRef {
    let bits = spec.unit.bits;
    let k = |n: u8, t: IntTy| Term::constant(i64::from(n), t);
    let up = bits - spec.shift - spec.width;
    let shl = |t: TermRef| term::binary(BinOp::Shl, t, k(up, spec.unit));
    let shifted = shl(u).unwrap_or_else(|| Term::constant(0, spec.unit));
    let wide = if ty.signed && !ty.boolean {
        IntTy::new(bits, true)
    } else {
        spec.unit
    };
    let down = term::binary(
        BinOp::Shr,
        term::cast(shifted, wide),
        k(bits - spec.width, wide),
    );
    term::cast(down.unwrap_or_else(|| Term::constant(0, wide)), ty)
}

/// The unit value `old` with its bits `spec` replaced by the low bits of `v`.
fn insert_bits(old: TermRef, spec: BitSpec, v: TermRef) -> TermRef {
    let unit = spec.unit;
    let ones = crate::explicit::term::mask(u64::MAX, spec.width);
    let field = (ones << spec.shift) as i64;
    let c = |x: i64| Term::constant(x, unit);
    let keep = term::binary(BinOp::And, old, c(!field));
    let low = term::binary(BinOp::And, term::cast(v, unit), c(ones as i64));
    let placed = low.and_then(|l| term::binary(BinOp::Shl, l, c(i64::from(spec.shift))));
    keep.zip(placed)
        .and_then(|(a, b)| term::binary(BinOp::Or, a, b))
        .unwrap_or_else(|| Term::constant(0, unit))
}

/// Most values a nondeterministic allocation size may take on one path.
const MAX_SIZES: usize = 16;

/// Most splits of one step on the values of nondeterministic offsets and sizes.
const MAX_SPLITS: usize = 16;

/// An integer term's constant value as a mathematical integer (unsigned types are never
/// negative).
fn exact_value(t: &TermRef) -> Option<i128> {
    match &**t {
        Term::Const(..) => t.as_i128(),
        _ => None,
    }
}

/// An offset clamped to the range of `i64` (far beyond every block either way).
fn saturate(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

fn ptr_compare(op: CmpOp, p: &Ptr, q: &Ptr) -> Option<bool> {
    if matches!(
        (p, q),
        (Ptr::Abs(_), Ptr::Addr(..)) | (Ptr::Addr(..), Ptr::Abs(_))
    ) {
        // Where a block lies relative to an absolute address is unknown.
        return None;
    }
    match op {
        CmpOp::Eq => Some(p == q),
        CmpOp::Ne => Some(p != q),
        _ => match (p, q) {
            (Ptr::Addr(a, x), Ptr::Addr(b, y)) if a == b => Some(match op {
                CmpOp::Lt => x < y,
                CmpOp::Le => x <= y,
                CmpOp::Gt => x > y,
                _ => x >= y,
            }),
            _ => None,
        },
    }
}

/// Adds `c != 0` to the path condition: `None` if it is constant false.
fn constrain(st: &mut State, c: TermRef) -> Option<Option<TermRef>> {
    match c.as_const() {
        Some(0) => None,
        Some(_) => Some(None),
        None => {
            st.pc.push(c.clone());
            Some(Some(c))
        }
    }
}

/// The successor along one side of a branch on `c`.
fn branch(mut st: State, c: TermRef, positive: bool) -> Outcome {
    let c = if positive {
        c
    } else {
        term::compare(CmpOp::Eq, c, Term::constant(0, IntTy::INT))
    };
    match constrain(&mut st, c) {
        None => Outcome::Infeasible,
        Some(cond) => Outcome::Next(st, cond),
    }
}

fn stop(line: u32, msg: &str) -> Halt {
    Halt::Stop(format!("{msg} (line {line})"))
}

fn halt(st: State, h: Halt) -> Outcome {
    match h {
        Halt::Violation(v) => Outcome::Violation(st, v),
        Halt::Stop(s) => Outcome::Stop(s),
    }
}

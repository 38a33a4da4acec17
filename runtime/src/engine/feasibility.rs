//! Path feasibility for abstraction refinement: is an abstract error path real, and if not,
//! which program atoms explain why (seed 000's Algorithm 3, "ExtractInterpolants", with Z3
//! unsat cores in place of interpolants).
//!
//! Consumes a [`Program`], the checked properties, a program path ([`PathStep`]s: CFA edges
//! from the entry of the globals' initialiser, through calls and returns, as a shape analysis
//! reports it) and the way the path claims to end ([`PathEnd`]); produces a [`PathResult`]:
//! `Feasible` with a counterexample that was replayed concretely, `Infeasible` with a [`Core`]
//! (the steps of an unsat core of the path's SSA formula, and the pointer variables and struct
//! fields occurring in them), or `Unknown` with the reason. Feasibility is decided by the
//! explicit engine (`crate::explicit::exec`, symbolic inputs, path conditions decided by `crate::smt`),
//! which follows exactly the path's edges, keeping every state that stays on it (a `malloc`
//! gives two); a violation of a checked property anywhere on the path is confirmed by replay,
//! as the explorer confirms its candidates. The SSA formula only explains an infeasibility the
//! engine found: it has one tracked constraint per step up to the step where no state follows
//! the path any more; when states follow it to its end without the claimed violation, it has
//! the steps before the last and, tracked under the last step's index, the claim at the last
//! edge's pre-state (for [`PathEnd::InvalidDeref`]: one of the pointers is NULL). When the
//! formula cannot explain the infeasibility (it is satisfiable, because the encoding below is
//! coarser than the engine, or the solver gives up), the core is a syntactic one: the step
//! where the path was lost and its backward data dependencies along the path (memory by struct
//! for fields and as one for other cells, since the encoding is what kept them apart).
//!
//! The SSA encoding: integers are bit-vectors of their C width (two's complement, as in
//! `crate::smt`); pointers are unbounded `Int` addresses (0 is NULL, the `k`-th allocation is at
//! the positive constant `k * 2^20`, fields at the block's address plus their offset). Each
//! assignment to a scalar variable whose address is never taken makes a new version of it,
//! per call instance (parameters are equalities with the arguments, results with the returned
//! value; globals start at 0, locals unconstrained). Memory is one array `Int -> value` per
//! (struct, scalar field), indexed by the address of the struct object, plus one per scalar
//! kind (integers by width, pointers) for `*p`, array elements and address-taken or aggregate
//! variables; every store makes a new version of one array. `malloc`/`calloc` return 0 or
//! their block's address; `calloc` zeroes the fields of every struct that fits at that
//! address; nondeterministic values are fresh constants. Limits: the arrays do not alias each
//! other (union members, a field written through a cast pointer), `memset`/`memcpy` and calls
//! the path does not enter forget all memory, pointer/integer conversions are
//! `bv2int`/`int2bv`, `PtrDiff` assumes a whole number of elements, and any other construct the
//! encoding cannot express evaluates to a fresh unconstrained value.

use crate::explicit::exec::{Exec, Outcome, State};
use crate::explicit::explore::{self, Counterexample, Unconfirmed};
use crate::program::ir::*;
pub use crate::program::path::{PathEnd, PathStep};
use crate::program::property::PropertySet;
use crate::smt::{self, Answer};
use petgraph::graph::{EdgeIndex, NodeIndex};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};
use z3::ast::{Array, BV, Bool, Int};
use z3::{Params, SatResult, Solver, Sort};

/// The verdict on one path.
#[derive(Clone, Debug)]
pub enum PathResult {
    /// Feasible: the explicit engine follows the path and reaches a violation, which replays.
    Feasible(Box<Counterexample>),
    /// Infeasible, with the refinement atoms.
    Infeasible(Core),
    /// Neither (e.g. an unsupported construct on the path, a bound): the reason.
    Unknown(String),
}

/// The refinement atoms of an infeasible path.
#[derive(Clone, Debug, Default)]
pub struct Core {
    /// Indices (into the path) of the steps whose constraints are in the unsat core.
    pub steps: Vec<usize>,
    /// Pointer-typed program variables occurring in the core's constraints.
    pub pointers: BTreeSet<VarId>,
    /// Struct fields (struct id, field name) dereferenced in the core's constraints.
    pub fields: BTreeSet<(StructId, String)>,
}

/// More explicit states than this on one path position make the answer `Unknown`.
const MAX_STATES: usize = 256;
/// Solver time limit for the SSA formula, in milliseconds.
const SOLVER_TIMEOUT_MS: u32 = 10_000;
/// Checks spent on shrinking an unsat core, at most.
const MAX_SHRINK_CHECKS: usize = 64;
/// Time spent on shrinking an unsat core, at most.
const SHRINK_TIME: Duration = Duration::from_secs(5);
/// Scalar leaves of one aggregate copied or zeroed at most (beyond: memory is forgotten).
const MAX_LEAVES: usize = 4096;

/// Decides whether `path`, ending as `end` claims, is feasible (see the module documentation).
pub fn check_path(
    prog: &Program,
    checks: &PropertySet,
    path: &[PathStep],
    end: &PathEnd,
) -> PathResult {
    if path.is_empty() {
        return PathResult::Unknown("the path is empty".into());
    }
    if let Err(why) = well_formed(prog, path) {
        return PathResult::Unknown(format!("not a path of the program: {why}"));
    }
    match follow(prog, checks, path) {
        Followed::Feasible(cex) => PathResult::Feasible(cex),
        Followed::Unknown(why) => PathResult::Unknown(why),
        Followed::LostAt(k) => PathResult::Infeasible(explain(prog, path, end, k)),
    }
}

// ---- the path's shape ----

/// The callee of a call through a pointer at the end of a step: the function the next step
/// enters, if it enters one.
fn ptr_callee(
    prog: &Program,
    caller: FuncId,
    resume: NodeIndex,
    next: Option<&PathStep>,
) -> Option<FuncId> {
    let n = next?;
    let g = prog.functions.get(n.func.0 as usize)?;
    let (src, _) = g.cfa.edge_endpoints(n.edge)?;
    let enters = g.defined && src == g.entry && !(n.func == caller && src == resume);
    enters.then_some(n.func)
}

/// Checks that consecutive steps follow each other in the CFAs, with calls and returns.
fn well_formed(prog: &Program, path: &[PathStep]) -> Result<(), String> {
    let init = prog.func(prog.init);
    let mut stack: Vec<(FuncId, NodeIndex)> = vec![(prog.init, init.entry)];
    for (i, s) in path.iter().enumerate() {
        let Some(&(f, loc)) = stack.last() else {
            return Err(format!("step {i} comes after the end of the program"));
        };
        if s.func != f {
            return Err(format!(
                "step {i} is in function #{}, but the path is in `{}` there",
                s.func.0,
                prog.func(f).name
            ));
        }
        let func = prog.func(f);
        let Some((src, dst)) = func.cfa.edge_endpoints(s.edge) else {
            return Err(format!(
                "step {i}: `{}` has no edge #{}",
                func.name,
                s.edge.index()
            ));
        };
        if src != loc {
            return Err(format!(
                "step {i} leaves location {} of `{}`, but the path is at location {}",
                src.index(),
                func.name,
                loc.index()
            ));
        }
        if let Some(top) = stack.last_mut() {
            top.1 = dst;
        }
        match &func.cfa[s.edge].op {
            Op::Call {
                callee: Callee::Func(g),
                ..
            } if prog.func(*g).defined => stack.push((*g, prog.func(*g).entry)),
            Op::CallPtr { .. } => {
                if let Some(g) = ptr_callee(prog, f, dst, path.get(i + 1)) {
                    stack.push((g, prog.func(g).entry));
                }
            }
            Op::Return(_) => {
                stack.pop();
            }
            _ => {}
        }
    }
    Ok(())
}

// ---- feasibility with the explicit engine ----

enum Followed {
    Feasible(Box<Counterexample>),
    /// No state follows the path beyond this step (or, at the last step: the claimed error
    /// does not happen).
    LostAt(usize),
    Unknown(String),
}

/// Whether the innermost frame of `st` is where step `s` leaves from.
fn at(prog: &Program, st: &State, s: &PathStep) -> bool {
    st.frames.last().is_some_and(|f| {
        f.func == s.func
            && prog
                .func(f.func)
                .cfa
                .edge_endpoints(s.edge)
                .is_some_and(|(src, _)| src == f.loc)
    })
}

/// Runs the explicit engine along the path, keeping every state that stays on it.
fn follow(prog: &Program, checks: &PropertySet, path: &[PathStep]) -> Followed {
    let exec = Exec {
        prog,
        checks,
        inputs: None,
        caveats: Default::default(),
        split: Default::default(),
    };
    let last = path.len() - 1;
    let mut states = vec![exec.initial()];
    let mut doubts: Vec<String> = vec![];
    let mut doubt = |why: String| {
        if !doubts.contains(&why) {
            doubts.push(why);
        }
    };
    for (i, step) in path.iter().enumerate() {
        let next = path.get(i + 1);
        let line = prog.func(step.func).cfa[step.edge].line;
        let mut succs = vec![];
        for st in std::mem::take(&mut states) {
            for o in exec.step(st, step.edge) {
                match o {
                    Outcome::Next(s, cond) => {
                        let Some(n) = next else { continue };
                        if !at(prog, &s, n) {
                            continue;
                        }
                        if let Some(c) = cond {
                            match smt::check(&explore::slice(&s.pc, &c)) {
                                Answer::Unsat => continue,
                                Answer::Unknown(why) => doubt(format!(
                                    "the solver could not decide the branch at line {line} ({why})"
                                )),
                                Answer::Sat(_) => {}
                            }
                        }
                        succs.push(s);
                    }
                    Outcome::Violation(s, v) => match explore::confirm(&exec, &s, v) {
                        Ok(cex) => return Followed::Feasible(Box::new(cex)),
                        Err(Unconfirmed::Unsat) => {}
                        Err(Unconfirmed::Unknown(why) | Unconfirmed::NoReplay(why)) => doubt(why),
                    },
                    Outcome::End(e) if i < last => doubt(format!(
                        "the run ends ({e:?}) at line {line}, before the path does"
                    )),
                    Outcome::End(_) | Outcome::Infeasible => {}
                    Outcome::Stop(why) => doubt(why),
                }
            }
        }
        if succs.len() > MAX_STATES {
            return Followed::Unknown(format!(
                "bound reached: more than {MAX_STATES} explicit states on the path at line {line}"
            ));
        }
        if succs.is_empty() && i < last {
            return lost(i, doubts);
        }
        states = succs;
    }
    lost(last, doubts)
}

fn lost(k: usize, doubts: Vec<String>) -> Followed {
    if doubts.is_empty() {
        Followed::LostAt(k)
    } else {
        Followed::Unknown(doubts.join("; "))
    }
}

// ---- the core ----

/// The refinement atoms of a path that the engine lost at step `k`.
fn explain(prog: &Program, path: &[PathStep], end: &PathEnd, k: usize) -> Core {
    let last = path.len() - 1;
    let mut enc = Enc::new(prog);
    let mut recs = vec![];
    // Up to the step where the path is lost; at the last step, the claim about its pre-state.
    let upto = if k == last { last } else { k + 1 };
    for i in 0..upto {
        enc.step(i, path);
        recs.push(enc.take());
    }
    let mut seed_extra = StepRec::default();
    if k == last {
        enc.claim(end);
        recs.push(enc.take());
        // The last edge's own reads seed the syntactic slice, but are not asserted.
        enc.step(last, path);
        seed_extra = enc.take();
    }
    let steps = match solve(&recs, &enc.background) {
        Some(core) if !core.is_empty() => core,
        _ => slice(&recs, k, &seed_extra),
    };
    let mut core = Core::default();
    for &i in &steps {
        core.pointers.extend(recs[i].pointers.iter().copied());
        core.fields.extend(recs[i].fields.iter().cloned());
        if i == k {
            core.pointers.extend(seed_extra.pointers.iter().copied());
            core.fields.extend(seed_extra.fields.iter().cloned());
        }
    }
    core.steps = steps;
    core
}

/// An unsat core (step indices, shrunk) of the tracked step constraints, or `None` when they
/// are satisfiable or the solver gives up.
fn solve(recs: &[StepRec], background: &[Bool]) -> Option<Vec<usize>> {
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32(
        "timeout",
        crate::engine::budget::solver_timeout_ms(SOLVER_TIMEOUT_MS),
    );
    solver.set_params(&params);
    for b in background {
        solver.assert(b);
    }
    let mut tracked: Vec<(usize, Bool)> = vec![];
    for (i, r) in recs.iter().enumerate() {
        if r.cons.is_empty() {
            continue;
        }
        let ind = Bool::new_const(format!("pathcheck!step{i}"));
        solver.assert(ind.implies(Bool::and(&r.cons)));
        tracked.push((i, ind));
    }
    let inds: Vec<Bool> = tracked.iter().map(|(_, b)| b.clone()).collect();
    if solver.check_assumptions(&inds) != SatResult::Unsat {
        return None;
    }
    let raw = solver.get_unsat_core();
    let mut core: Vec<usize> = tracked
        .iter()
        .filter(|(_, b)| raw.iter().any(|c| c == b))
        .map(|(i, _)| *i)
        .collect();
    // Deletion-based shrinking: drop each step whose constraint the contradiction does not need.
    let ind_of = |i: usize| {
        tracked
            .iter()
            .find(|(j, _)| *j == i)
            .map(|(_, b)| b.clone())
    };
    let mut j = 0;
    let mut budget = MAX_SHRINK_CHECKS;
    let deadline = crate::engine::budget::earlier(Some(Instant::now() + SHRINK_TIME))
        .unwrap_or_else(Instant::now);
    while j < core.len() && budget > 0 && Instant::now() < deadline {
        budget -= 1;
        let trial: Vec<usize> = core
            .iter()
            .enumerate()
            .filter(|(x, _)| *x != j)
            .map(|(_, i)| *i)
            .collect();
        let assumptions: Vec<Bool> = trial.iter().filter_map(|i| ind_of(*i)).collect();
        if solver.check_assumptions(&assumptions) == SatResult::Unsat {
            core = trial;
        } else {
            j += 1;
        }
    }
    Some(core)
}

/// The syntactic core: step `k` and the earlier steps it depends on through data. The
/// formula is satisfiable mostly where the encoding keeps apart memory that may overlap, so
/// the slice does not: a field depends on every store to a field of the same struct (union
/// members), a scalar cell on every store of any scalar kind.
fn slice(recs: &[StepRec], k: usize, extra: &StepRec) -> Vec<usize> {
    let group = |l: &Loc| match l {
        Loc::Mem(MemKey::Field(s, _)) => Loc::Mem(MemKey::Field(*s, String::new())),
        Loc::Mem(_) => Loc::Mem(MemKey::Ptr),
        v => v.clone(),
    };
    let mut wanted: BTreeSet<Loc> = recs[k].uses.iter().chain(&extra.uses).map(group).collect();
    let mut out = vec![k];
    for j in (0..k).rev() {
        let r = &recs[j];
        if !r.defs.iter().any(|d| wanted.contains(&group(d))) {
            continue;
        }
        out.push(j);
        for d in &r.defs {
            // A variable version is defined once; a memory array keeps older cells.
            if matches!(d, Loc::Var(..)) {
                wanted.remove(d);
            }
        }
        wanted.extend(r.uses.iter().map(group));
    }
    out.reverse();
    out
}

// ---- the SSA encoding ----

/// A memory array: one per (struct, scalar field), one per integer width, one for pointers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum MemKey {
    Field(StructId, String),
    Int(u8),
    Ptr,
}

/// What a step reads or writes, for the syntactic slice.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Loc {
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
struct StepRec {
    cons: Vec<Bool>,
    defs: Vec<Loc>,
    uses: Vec<Loc>,
    pointers: BTreeSet<VarId>,
    fields: BTreeSet<(StructId, String)>,
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
struct Enc<'p> {
    prog: &'p Program,
    address_taken: HashSet<VarId>,
    frames: Vec<EncFrame>,
    insts: u32,
    vars: HashMap<(u32, VarId), V>,
    addrs: HashMap<(u32, VarId), i64>,
    mem: BTreeMap<MemKey, Array>,
    allocs: i64,
    strings: i64,
    background: Vec<Bool>,
    rec: StepRec,
}

impl<'p> Enc<'p> {
    fn new(prog: &'p Program) -> Self {
        let mut enc = Enc {
            prog,
            address_taken: address_taken(prog),
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

    fn take(&mut self) -> StepRec {
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
    fn step(&mut self, i: usize, path: &[PathStep]) {
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
    fn claim(&mut self, end: &PathEnd) {
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
            Builtin::Caveat | Builtin::Unsupported => {}
            Builtin::BlockSize | Builtin::External => {
                if let Some(l) = lhs {
                    let v = fresh(&l.ty, "library");
                    self.write(l, v);
                }
            }
            Builtin::Alloc(kind) => {
                self.allocs += 1;
                let a = Int::from_i64(self.allocs * ALLOC_STRIDE);
                let r = if kind == AllocKind::Alloca {
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

    /// Records the pointer variables and the fields accessed through pointers in `e`.
    fn note(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(v) => {
                if matches!(self.prog.var(*v).ty, Type::Ptr(_)) {
                    self.rec.pointers.insert(*v);
                }
            }
            ExprKind::Field(b, _, name) => {
                if let Type::Struct(s) = b.ty
                    && through_pointer(b)
                {
                    self.rec.fields.insert((s, name.clone()));
                }
                self.note(b);
            }
            ExprKind::Deref(a)
            | ExprKind::AddrOf(a)
            | ExprKind::BitField(a, _)
            | ExprKind::Unary(_, a)
            | ExprKind::Cast(a) => self.note(a),
            ExprKind::Binary(_, a, b)
            | ExprKind::Cmp(_, a, b)
            | ExprKind::PtrAdd(a, b, _)
            | ExprKind::PtrDiff(a, b, _) => {
                self.note(a);
                self.note(b);
            }
            ExprKind::Const(_) | ExprKind::FuncAddr(_) | ExprKind::Str(_) => {}
        }
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

/// Scalar variables whose address is taken somewhere in the program (kept in memory).
fn address_taken(prog: &Program) -> HashSet<VarId> {
    fn walk(e: &Expr, out: &mut HashSet<VarId>) {
        match &e.kind {
            ExprKind::AddrOf(x) => {
                if let ExprKind::Var(v) = &x.kind {
                    out.insert(*v);
                }
                walk(x, out);
            }
            ExprKind::Deref(a) | ExprKind::Unary(_, a) | ExprKind::Cast(a) => walk(a, out),
            ExprKind::Field(a, ..) | ExprKind::BitField(a, _) => walk(a, out),
            ExprKind::Binary(_, a, b)
            | ExprKind::Cmp(_, a, b)
            | ExprKind::PtrAdd(a, b, _)
            | ExprKind::PtrDiff(a, b, _) => {
                walk(a, out);
                walk(b, out);
            }
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::FuncAddr(_) | ExprKind::Str(_) => {}
        }
    }
    let mut out = HashSet::new();
    for f in &prog.functions {
        for edge in f.cfa.edge_weights() {
            let exprs: Vec<&Expr> = match &edge.op {
                Op::Assign { lhs, rhs } => vec![lhs, rhs],
                Op::Assume { cond, .. } => vec![cond],
                Op::Call { lhs, args, .. } => lhs.iter().chain(args).collect(),
                Op::CallPtr { lhs, target, args } => {
                    lhs.iter().chain(args).chain([target]).collect()
                }
                Op::Return(v) => v.iter().collect(),
                Op::Skip | Op::Havoc(_) | Op::Unsupported(_) => vec![],
            };
            for e in exprs {
                walk(e, &mut out);
            }
        }
    }
    out
}

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

fn resize(b: BV, signed: bool, to: u32) -> BV {
    let from = b.get_size();
    if to < from {
        b.extract(to - 1, 0)
    } else if to == from {
        b
    } else if signed {
        b.sign_ext(to - from)
    } else {
        b.zero_ext(to - from)
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

fn binary(op: BinOp, a: &BV, b: &BV, signed: bool) -> BV {
    match op {
        BinOp::Add => a.bvadd(b),
        BinOp::Sub => a.bvsub(b),
        BinOp::Mul => a.bvmul(b),
        BinOp::Div if signed => a.bvsdiv(b),
        BinOp::Div => a.bvudiv(b),
        BinOp::Rem if signed => a.bvsrem(b),
        BinOp::Rem => a.bvurem(b),
        BinOp::And => a.bvand(b),
        BinOp::Or => a.bvor(b),
        BinOp::Xor => a.bvxor(b),
        BinOp::Shl => a.bvshl(b),
        BinOp::Shr if signed => a.bvashr(b),
        BinOp::Shr => a.bvlshr(b),
    }
}

fn bv_compare(op: CmpOp, a: &BV, b: &BV, signed: bool) -> Bool {
    match (op, signed) {
        (CmpOp::Eq, _) => a.eq(b),
        (CmpOp::Ne, _) => a.eq(b).not(),
        (CmpOp::Lt, true) => a.bvslt(b),
        (CmpOp::Le, true) => a.bvsle(b),
        (CmpOp::Gt, true) => a.bvsgt(b),
        (CmpOp::Ge, true) => a.bvsge(b),
        (CmpOp::Lt, false) => a.bvult(b),
        (CmpOp::Le, false) => a.bvule(b),
        (CmpOp::Gt, false) => a.bvugt(b),
        (CmpOp::Ge, false) => a.bvuge(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::frontend::{Source, lower_source};
    use petgraph::visit::EdgeRef;

    const DECLS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nextern void abort(void);\nextern void *malloc(unsigned);\nextern void free(void *);\nstruct node { struct node *next; int data; };\n";

    fn program(body: &str) -> Program {
        let text = format!("{DECLS}{body}");
        lower_source(&Source::from_text(text, "t.c"), "t.c").unwrap()
    }

    fn checks(list: &str) -> PropertySet {
        PropertySet::parse_list(list).unwrap()
    }

    /// The path from the initialiser's entry that, where a location has several edges, takes
    /// the one whose text (as `shapecheck cfa` prints it) is in `take`, and ends with the first
    /// edge whose text satisfies `stop`. Calls to defined functions are entered.
    fn walk(prog: &Program, take: &[&str], stop: impl Fn(&str) -> bool) -> Vec<PathStep> {
        let mut stack = vec![(prog.init, prog.func(prog.init).entry)];
        let mut path = vec![];
        while let Some(&(f, loc)) = stack.last() {
            assert!(path.len() < 1000, "no stopping edge on the walk");
            let cfa = &prog.func(f).cfa;
            let text = |e: EdgeIndex| crate::program::cfa::op(prog, &cfa[e].op);
            let edges: Vec<EdgeIndex> = cfa.edges(loc).map(|e| e.id()).collect();
            let e = match edges.as_slice() {
                [e] => *e,
                _ => *edges
                    .iter()
                    .find(|e| take.contains(&text(**e).as_str()))
                    .unwrap_or_else(|| {
                        let all: Vec<String> = edges.iter().map(|e| text(*e)).collect();
                        panic!("no edge to take among {all:?}")
                    }),
            };
            path.push(PathStep { func: f, edge: e });
            if stop(&text(e)) {
                return path;
            }
            let target = cfa.edge_endpoints(e).unwrap().1;
            stack.last_mut().unwrap().1 = target;
            match &cfa[e].op {
                Op::Call {
                    callee: Callee::Func(g),
                    ..
                } if prog.func(*g).defined => stack.push((*g, prog.func(*g).entry)),
                Op::Return(_) => {
                    stack.pop();
                }
                _ => {}
            }
        }
        panic!("the program ended before a stopping edge")
    }

    fn is_error(op: &str) -> bool {
        op.starts_with("error(")
    }

    fn var(prog: &Program, name: &str) -> VarId {
        let i = prog.vars.iter().position(|v| v.name == name).unwrap();
        VarId(i as u32)
    }

    fn node(prog: &Program) -> StructId {
        let i = prog
            .structs
            .iter()
            .position(|s| s.name.contains("node"))
            .unwrap();
        StructId(i as u32)
    }

    /// The step of `path` whose edge text is `text`.
    fn step_of(prog: &Program, path: &[PathStep], text: &str) -> usize {
        path.iter()
            .position(|s| crate::program::cfa::op(prog, &prog.func(s.func).cfa[s.edge].op) == text)
            .unwrap_or_else(|| panic!("no step `{text}`"))
    }

    fn infeasible(r: PathResult) -> Core {
        match r {
            PathResult::Infeasible(c) => c,
            PathResult::Feasible(c) => panic!("expected infeasible, got feasible: {c:?}"),
            PathResult::Unknown(why) => panic!("expected infeasible, got unknown: {why}"),
        }
    }

    #[test]
    fn feasible_error_path_has_a_replayed_counterexample() {
        let prog = program(
            "int main(void) { int x = __VERIFIER_nondet_int(); if (x * 3 == 126) reach_error(); return 0; }\n",
        );
        let path = walk(&prog, &["[(x * 3) == 126]"], is_error);
        match check_path(&prog, &checks("unreach-call"), &path, &PathEnd::ErrorCall) {
            PathResult::Feasible(cex) => {
                assert_eq!(cex.violation.property.name(), "unreach-call");
                assert_eq!((cex.trace.inputs[0] as i32).wrapping_mul(3), 126);
            }
            other => panic!("expected feasible, got {other:?}"),
        }
    }

    #[test]
    fn aliasing_contradiction_core_has_both_pointers() {
        let prog = program(
            "int main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  if (!p) abort();\n  struct node *q = p;\n  if (q != p) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[p]", "[q != p]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        let (p, q) = (var(&prog, "p"), var(&prog, "q"));
        assert!(
            core.pointers.contains(&p) && core.pointers.contains(&q),
            "{core:?}"
        );
        assert_eq!(
            core.steps,
            vec![
                step_of(&prog, &path, "q = p"),
                step_of(&prog, &path, "[q != p]")
            ]
        );
        assert!(core.fields.is_empty(), "{core:?}");
    }

    #[test]
    fn stored_field_value_puts_the_field_in_the_core() {
        let prog = program(
            "int main(void) {\n  struct node *a = malloc(sizeof(struct node));\n  if (!a) abort();\n  struct node *b = malloc(sizeof(struct node));\n  if (!b) abort();\n  a->next = b;\n  b->next = 0;\n  struct node *x = a->next;\n  if (x->next != 0) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[a]", "[b]", "[x->next != NULL]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        assert!(
            core.fields.contains(&(node(&prog), "next".to_string())),
            "{core:?}"
        );
        for s in [
            "a->next = b",
            "b->next = NULL",
            "x = a->next",
            "[x->next != NULL]",
        ] {
            assert!(
                core.steps.contains(&step_of(&prog, &path, s)),
                "{s} not in {core:?}"
            );
        }
        for v in ["a", "b", "x"] {
            assert!(
                core.pointers.contains(&var(&prog, v)),
                "{v} not in {core:?}"
            );
        }
    }

    /// The pointer dereferenced by `p->f = ...` on the last step.
    fn dereferenced(prog: &Program, s: &PathStep) -> Expr {
        let Op::Assign { lhs, .. } = &prog.func(s.func).cfa[s.edge].op else {
            panic!("not an assignment")
        };
        let ExprKind::Field(b, ..) = &lhs.kind else {
            panic!("not a field")
        };
        let ExprKind::Deref(p) = &b.kind else {
            panic!("not through a pointer")
        };
        (**p).clone()
    }

    #[test]
    fn checked_malloc_result_makes_the_deref_error_infeasible() {
        let prog = program(
            "int main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  if (!p) abort();\n  p->next = 0;\n  free(p);\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[p]"], |op| op == "p->next = NULL");
        let end = PathEnd::InvalidDeref(vec![dereferenced(&prog, path.last().unwrap())]);
        let core = infeasible(check_path(&prog, &checks("valid-memsafety"), &path, &end));
        assert!(
            core.steps.contains(&step_of(&prog, &path, "[p]")),
            "{core:?}"
        );
        assert!(core.steps.contains(&(path.len() - 1)), "{core:?}");
        assert!(core.pointers.contains(&var(&prog, "p")), "{core:?}");
    }

    #[test]
    fn unchecked_malloc_result_makes_the_deref_error_feasible() {
        let prog = program(
            "int main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  p->next = 0;\n  free(p);\n  return 0;\n}\n",
        );
        let path = walk(&prog, &[], |op| op == "p->next = NULL");
        let end = PathEnd::InvalidDeref(vec![dereferenced(&prog, path.last().unwrap())]);
        match check_path(&prog, &checks("valid-memsafety"), &path, &end) {
            PathResult::Feasible(cex) => assert_eq!(cex.violation.property.name(), "valid-deref"),
            other => panic!("expected feasible, got {other:?}"),
        }
    }

    #[test]
    fn write_through_an_address_taken_variable_is_encoded() {
        let prog = program(
            "int main(void) {\n  int x = 1;\n  int *px = &x;\n  *px = 2;\n  if (x != 2) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[x != 2]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        assert!(core.pointers.contains(&var(&prog, "px")), "{core:?}");
        assert!(
            core.steps.contains(&step_of(&prog, &path, "*px = 2")),
            "{core:?}"
        );
    }

    #[test]
    fn parameters_and_results_connect_call_instances() {
        let prog = program(
            "struct node *id(struct node *n) { return n; }\nint main(void) {\n  struct node *p = malloc(sizeof(struct node));\n  if (!p) abort();\n  struct node *q = id(p);\n  if (q != p) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[p]", "[q != p]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        for v in ["p", "q", "n"] {
            assert!(
                core.pointers.contains(&var(&prog, v)),
                "{v} not in {core:?}"
            );
        }
    }

    #[test]
    fn union_members_fall_back_to_the_syntactic_slice() {
        // The encoding keeps union members apart, so the formula is satisfiable; the engine
        // knows better, and the core is the failing branch with its data dependencies.
        let prog = program(
            "union u { int a; unsigned b; };\nint main(void) {\n  union u v;\n  int k = 5;\n  v.a = k;\n  if (v.b != 5) reach_error();\n  return 0;\n}\n",
        );
        let path = walk(&prog, &["[v.b != 5]"], is_error);
        let core = infeasible(check_path(
            &prog,
            &checks("unreach-call"),
            &path,
            &PathEnd::ErrorCall,
        ));
        assert_eq!(
            core.steps.last(),
            Some(&step_of(&prog, &path, "[v.b != 5]")),
            "{core:?}"
        );
    }

    #[test]
    fn undefined_callee_and_malformed_paths_are_unknown() {
        let prog = program(
            "extern int f(void);\nint main(void) { int x = f(); if (x) reach_error(); return 0; }\n",
        );
        let path = walk(&prog, &["[x]"], is_error);
        match check_path(&prog, &checks("unreach-call"), &path, &PathEnd::ErrorCall) {
            PathResult::Unknown(why) => assert!(why.contains("no body"), "{why}"),
            other => panic!("expected unknown, got {other:?}"),
        }
        let mut skipped = path.clone();
        skipped.remove(1);
        match check_path(
            &prog,
            &checks("unreach-call"),
            &skipped,
            &PathEnd::ErrorCall,
        ) {
            PathResult::Unknown(why) => assert!(why.contains("not a path"), "{why}"),
            other => panic!("expected unknown, got {other:?}"),
        }
    }
}

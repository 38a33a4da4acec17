//! The SSA encoding of the whole inlined program over bit-vectors and Booleans, with its loops
//! cut at their heads (2LS, Section II-C, and the heap encoding of Section III).
//!
//! Consumes a [`Flat`] program, its [`Memory`] model and a [`Templates`] store; produces an
//! [`Encoding`]: the background formula (the program's transition relation, each loop head's
//! phi `x = g_ls ? x_lb : x_entry` with the template row assumed for the loop-back value
//! `x_lb`), the obligations that make the invariant inductive (the value at the end of each
//! iteration satisfies its row), and the guards of the error calls. Nodes are encoded in
//! topological order with one symbolic state each (path guard, register values, cells of the
//! exact objects, the value sets of the summary objects). A read of a summary object yields a
//! fresh value constrained to the summary's set: the row assumed at the loop head joined with
//! the values written since (the weak update); reads through an unchanged pointer register
//! reuse the value (the paper's `drf` reuse). An allocation in a loop folds the most recent
//! object into the summary and renames every pointer to it: into the summary (a pointer
//! register keeps reading that member) while it lives, to a dangling address once freed.
//! An address built of constants accesses only the objects it denotes.

use super::flat::Flat;
use super::memory::{ALIVE, Memory, ObjKind, PTR_BITS, Scalar};
use super::rows::{Changed, Config, PlanKind, Relevance, Term, plan};
use super::template::{Kind, Templates};
use crate::engine::Budget;
use crate::program::ir::{BinOp, Builtin, Callee, CmpOp, Expr, ExprKind, Op, Type, UnOp, VarId};
use crate::smt::{binary, compare, resize_bits};
use std::collections::{BTreeMap, BTreeSet};
use z3::DeclKind;
use z3::ast::{Ast, BV, Bool};

/// What must hold for the invariant to be inductive: `guard -> holds`, `holds` being
/// `T_row(value)` in the state at the end of an iteration.
pub struct Obligation {
    /// When it applies.
    pub guard: Bool,
    /// The row.
    pub row: usize,
    /// The value at the end of an iteration.
    pub value: BV,
    /// The row's formula on the value.
    pub holds: Bool,
    /// Where the value comes from (for debugging).
    pub note: String,
    /// The outermost loop around the row's loop, as its position among the program's loop
    /// nests: a nest's obligations depend only on the rows of its own and earlier nests.
    pub nest: usize,
}

/// The encoded program.
pub struct Encoding {
    /// Always true (transition relation and row assumptions).
    pub background: Vec<Bool>,
    /// Inductiveness obligations.
    pub obligations: Vec<Obligation>,
    /// Guards under which an error call is reached, with its line.
    pub errors: Vec<(Bool, u32)>,
    /// Guards under which the program has undefined behaviour (an invalid dereference or
    /// free), with its line and kind: a TRUE needs them unreachable too, as a run with
    /// undefined behaviour may do anything.
    pub undefined: Vec<(Bool, u32, &'static str)>,
    /// The rows over registers only, as they hold at every visit of their loop head (the
    /// first included): what a correctness witness can state.
    pub at_heads: Vec<HeadRow>,
}

/// A row over registers at its loop head: `guard -> holds` is what the row says of every
/// visit of the head, once the entry values are shown to satisfy it too.
pub struct HeadRow {
    /// The flat loop head.
    pub head: usize,
    /// The row.
    pub row: usize,
    /// Its terms.
    pub terms: Vec<(i64, Term)>,
    /// The path guard at the head.
    pub guard: Bool,
    /// The row on the values at the head.
    pub holds: Bool,
}

#[derive(Clone)]
struct Val {
    bv: BV,
    token: u32,
}

/// An element of a summary object's value set: one object's cells.
#[derive(Clone)]
enum Elem {
    /// The cells of one object, as values.
    Tuple(BTreeMap<u64, BV>),
    /// Any object the summary's rows admitted at a loop head.
    Head(std::rc::Rc<HeadElem>),
}

/// The rows of a summary at a loop head, with the values of their other terms there, the
/// objects alive there, and the (recent, summary) foldings since.
struct HeadElem {
    rows: Vec<RowTerms>,
    regs: BTreeMap<VarId, BV>,
    cells: BTreeMap<(usize, u64), BV>,
    live: Vec<Option<Bool>>,
    renames: Vec<Fold>,
}

type Tuple = BTreeMap<u64, BV>;

/// A row and its weighted terms.
type RowTerms = (usize, Vec<(i64, Term)>);

#[derive(Clone)]
struct State {
    guard: Bool,
    regs: BTreeMap<VarId, Val>,
    cells: BTreeMap<(usize, u64), BV>,
    /// Summary value sets: per summary object, element id -> (guard, element).
    sums: BTreeMap<usize, BTreeMap<u32, (Bool, Elem)>>,
    /// The object a pointer register's value (token) points to in a summary, once read.
    cache: BTreeMap<(u32, usize), Tuple>,
    /// The element a pointer value (token) last wrote into a summary: its object's state
    /// until the pointer writes again, which replaces it; with a condition when the element
    /// is the pointer's object only where it holds (the recent object a fold added, for a
    /// pointer that may have pointed to it).
    written: BTreeMap<(u32, usize), (u32, Option<Bool>)>,
}

/// Where an lvalue lives.
enum Place {
    Reg(VarId),
    Mem { addr: BV, token: Option<u32> },
}

/// The encoder.
pub struct Encoder<'a> {
    flat: &'a Flat,
    mem: &'a Memory,
    tpl: &'a mut Templates,
    out: Encoding,
    next: u32,
    /// Per loop head: its rows and their terms.
    heads: BTreeMap<usize, Vec<RowTerms>>,
    cfg: &'a Config,
    /// The program variables relevant to each field (partners in relational rows).
    relevance: Relevance,
    /// The variables live at each node.
    live: Vec<BTreeSet<VarId>>,
    budget: Budget,
    /// The line of the edge being encoded.
    line: u32,
    /// Whether every run is known to be memory safe (proved by another engine): then no
    /// access or free is undefined and freed summary objects are never touched again.
    safe: bool,
    /// The loop nest of the obligations being made.
    nest: usize,
}

type R<T> = Result<T, String>;

impl<'a> Encoder<'a> {
    /// An encoder adding its rows to `tpl`.
    pub fn new(
        flat: &'a Flat,
        mem: &'a Memory,
        tpl: &'a mut Templates,
        cfg: &'a Config,
        budget: Budget,
    ) -> Self {
        Encoder {
            flat,
            mem,
            tpl,
            out: Encoding {
                background: vec![],
                obligations: vec![],
                errors: vec![],
                undefined: vec![],
                at_heads: vec![],
            },
            next: 0,
            heads: BTreeMap::new(),
            cfg,
            relevance: Relevance::new(flat.edges.iter().map(|e| &e.op)),
            live: flat.liveness(),
            budget,
            line: 0,
            safe: false,
            nest: 0,
        }
    }

    /// Every run is memory safe (valid-deref and valid-free proved by another engine): the
    /// encoding then records no undefined behaviour.
    pub fn assume_memory_safe(mut self) -> Self {
        self.safe = true;
        self
    }

    /// Encodes the program.
    pub fn run(mut self) -> R<Encoding> {
        let mut pending: BTreeMap<usize, Vec<State>> = BTreeMap::new();
        let mut ends: BTreeMap<usize, Vec<State>> = BTreeMap::new();
        pending.insert(self.flat.entry, vec![self.initial()]);
        for &node in &self.flat.order {
            self.budget.check().map_err(|e| e.to_string())?;
            let Some(states) = pending.remove(&node) else {
                continue;
            };
            let mut st = self.merge(states);
            if self.flat.loops.contains_key(&node) {
                st = self.enter_loop(node, st)?;
            }
            let flat = self.flat;
            for &e in &flat.out[node] {
                let Some(next) = self.step(e, st.clone())? else {
                    continue;
                };
                let to = flat.edges[e].to;
                if flat.back[e] {
                    ends.entry(to).or_default().push(next);
                } else {
                    pending.entry(to).or_default().push(next);
                }
            }
        }
        for (head, states) in ends {
            let end = self.merge(states);
            self.close_loop(head, &end);
        }
        Ok(self.out)
    }

    fn fresh(&mut self, name: &str, bits: u32) -> BV {
        self.next += 1;
        BV::fresh_const(name, bits)
    }

    fn token(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    fn initial(&mut self) -> State {
        let mut st = State {
            guard: Bool::from_bool(true),
            regs: BTreeMap::new(),
            cells: BTreeMap::new(),
            sums: BTreeMap::new(),
            cache: BTreeMap::new(),
            written: BTreeMap::new(),
        };
        let prog = &self.flat.prog;
        for (i, v) in prog.vars.iter().enumerate() {
            if !self.mem.register[i] {
                continue;
            }
            let bits = Scalar::of(&v.ty).expect("registers are scalars").bits();
            let global = v.kind == crate::program::ir::VarKind::Global;
            let bv = if global {
                BV::from_u64(0, bits)
            } else {
                self.fresh(&v.name, bits)
            };
            let token = self.token();
            st.regs.insert(VarId(i as u32), Val { bv, token });
        }
        for (o, obj) in self.mem.objects.iter().enumerate() {
            let zero = match obj.kind {
                ObjKind::Var(v) => prog.var(v).kind == crate::program::ir::VarKind::Global,
                _ => false,
            };
            for c in &obj.cells {
                let bv = if zero || c.off == ALIVE {
                    BV::from_u64(0, c.ty.bits())
                } else {
                    self.fresh(&format!("{}{}", obj.name, c.name), c.ty.bits())
                };
                if matches!(obj.kind, ObjKind::Summary(_)) {
                    st.sums.entry(o).or_default();
                } else {
                    st.cells.insert((o, c.off), bv);
                }
            }
        }
        st
    }

    // ---- merging and loops ----

    fn merge(&mut self, mut states: Vec<State>) -> State {
        if states.len() == 1 {
            return states.pop().expect("one state");
        }
        let guards: Vec<Bool> = states.iter().map(|s| s.guard.clone()).collect();
        let mut out = states[0].clone();
        out.guard = Bool::or(&guards);
        let regs: Vec<VarId> = out.regs.keys().copied().collect();
        for v in regs {
            let vals: Vec<Val> = states.iter().map(|s| s.regs[&v].clone()).collect();
            let bv = choose(&guards, vals.iter().map(|x| x.bv.clone()).collect());
            let token = if vals.iter().all(|x| x.token == vals[0].token) {
                vals[0].token
            } else {
                self.token()
            };
            out.regs.insert(v, Val { bv, token });
        }
        let cells: Vec<(usize, u64)> = out.cells.keys().copied().collect();
        for k in cells {
            let vals = states.iter().map(|s| s.cells[&k].clone()).collect();
            out.cells.insert(k, choose(&guards, vals));
        }
        for (k, set) in out.sums.iter_mut() {
            let mut all: BTreeMap<u32, (Bool, Elem)> = BTreeMap::new();
            for st in &states {
                for (id, (g, e)) in &st.sums[k] {
                    let g = Bool::and(&[g.clone(), st.guard.clone()]);
                    match all.get_mut(id) {
                        Some((h, _)) => *h = Bool::or(&[h.clone(), g]),
                        None => {
                            all.insert(*id, (g, e.clone()));
                        }
                    }
                }
            }
            *set = all;
        }
        out.cache
            .retain(|k, v| states[1..].iter().all(|s| s.cache.get(k) == Some(v)));
        out.written
            .retain(|k, v| states[1..].iter().all(|s| s.written.get(k) == Some(v)));
        out
    }

    /// The state at loop head `head` from the state entering it: every value the loop may
    /// change becomes `g_ls ? x_lb : x_entry`, the rows are assumed of the values at the head
    /// when `g_ls` (the loop was taken), and each summary the loop changes holds, when
    /// `g_ls`, any object its rows admit.
    fn enter_loop(&mut self, head: usize, mut st: State) -> R<State> {
        let line = self.line_of(head);
        let ls = Bool::fresh_const(&format!("ls{head}"));
        let ch = self.changed_in_loop(head);
        for &v in &ch.regs {
            let bits = Scalar::of(&self.flat.prog.var(v).ty)
                .expect("scalar")
                .bits();
            let lb = self.fresh(&format!("lb_{}", self.flat.prog.var(v).name), bits);
            let old = st.regs[&v].bv.clone();
            let token = self.token();
            st.regs.insert(
                v,
                Val {
                    bv: ls.ite(&lb, &old),
                    token,
                },
            );
        }
        for &(o, off) in &ch.cells {
            let name = format!(
                "lb_{}{}",
                self.mem.objects[o].name,
                self.mem.cell(o, off).name
            );
            let lb = self.fresh(&name, self.mem.cell(o, off).ty.bits());
            let old = st.cells[&(o, off)].clone();
            st.cells.insert((o, off), ls.ite(&lb, &old));
        }
        let live = self.live(&st);
        let mut rows = vec![];
        let mut per_summary: BTreeMap<usize, Vec<RowTerms>> = BTreeMap::new();
        for p in plan(self.cfg, &self.flat.prog, self.mem, &self.relevance, &ch) {
            let r = self.add_row(&p.kind, &p.terms, line);
            match summary_of(&p.terms) {
                Some(o) => per_summary.entry(o).or_default().push((r, p.terms.clone())),
                None => {
                    let holds = self.tpl.holds(r, &self.value(&st, &p.terms, None), &live);
                    if p.terms.iter().all(|(_, t)| matches!(t, Term::Reg(_))) {
                        self.out.at_heads.push(HeadRow {
                            head,
                            row: r,
                            terms: p.terms.clone(),
                            guard: st.guard.clone(),
                            holds: holds.clone(),
                        });
                    }
                    let assumed = match self.alive_all(&st, &p.terms) {
                        Some(alive) => alive.implies(&holds),
                        None => holds,
                    };
                    self.out.background.push(ls.implies(&assumed));
                }
            }
            rows.push((r, p.terms));
        }
        let summaries: BTreeSet<usize> = ch.sums.iter().map(|(o, _)| *o).collect();
        for o in summaries {
            let elem = HeadElem {
                rows: per_summary.remove(&o).unwrap_or_default(),
                regs: st.regs.iter().map(|(v, x)| (*v, x.bv.clone())).collect(),
                cells: st.cells.clone(),
                live: live.clone(),
                renames: vec![],
            };
            let id = self.token();
            let set = st.sums.get_mut(&o).expect("summary object");
            for (g, _) in set.values_mut() {
                *g = Bool::and(&[g.clone(), ls.not()]);
            }
            set.insert(id, (ls.clone(), Elem::Head(std::rc::Rc::new(elem))));
        }
        st.cache.clear();
        st.written.clear();
        self.heads.insert(head, rows);
        Ok(st)
    }

    /// The obligations of loop `head` on the merged state at the ends of its iterations.
    fn close_loop(&mut self, head: usize, end: &State) {
        let rows = self.heads.get(&head).cloned().unwrap_or_default();
        let live = self.live(end);
        self.nest = self.nest_of(head);
        for (r, terms) in rows {
            match summary_of(&terms) {
                None => {
                    let mut guard = vec![end.guard.clone()];
                    guard.extend(self.alive_all(end, &terms));
                    let value = self.value(end, &terms, None);
                    self.oblige(Bool::and(&guard), r, value, &live);
                }
                Some(o) => {
                    let elems: Vec<(Bool, Elem)> = end.sums[&o].values().cloned().collect();
                    for (id, (g, e)) in elems.into_iter().enumerate() {
                        let (cond, tuple) = self.element(o, &e);
                        let value = self.value(end, &terms, Some(&tuple));
                        let guard = Bool::and(&[end.guard.clone(), g, cond]);
                        self.oblige(guard, r, value, &live);
                        let kind = match e {
                            Elem::Tuple(_) => "tuple",
                            Elem::Head(_) => "head",
                        };
                        if let Some(last) = self.out.obligations.last_mut() {
                            last.note = format!("element {id} ({kind})");
                        }
                    }
                }
            }
        }
    }

    /// Whether every allocated object of an exact cell among `terms` lives in `st`.
    fn alive_all(&self, st: &State, terms: &[(i64, Term)]) -> Option<Bool> {
        let conds: Vec<Bool> = (terms.iter())
            .filter_map(|(_, t)| match t {
                Term::Cell(o, off) => self.alive(st, *o, *off),
                _ => None,
            })
            .collect();
        (!conds.is_empty()).then(|| Bool::and(&conds))
    }

    /// Whether allocated object `o` lives, for its cells other than the flag itself.
    fn alive(&self, st: &State, o: usize, off: u64) -> Option<Bool> {
        let obj = &self.mem.objects[o];
        if off == ALIVE || matches!(obj.kind, ObjKind::Var(_) | ObjKind::Summary(_)) {
            return None;
        }
        Some(st.cells[&(o, ALIVE)].eq(BV::from_u64(1, 8)))
    }

    /// The position, in program order, of the outermost loop containing loop `head`.
    fn nest_of(&self, head: usize) -> usize {
        let loops = &self.flat.loops;
        let outer = (loops.iter())
            .filter(|(_, body)| body.contains(&head))
            .map(|(h, _)| *h)
            .max_by_key(|h| loops[h].len())
            .unwrap_or(head);
        let place = |h: usize| self.flat.order.iter().position(|n| *n == h);
        (loops.keys())
            .filter(|h| !loops.iter().any(|(o, body)| o != *h && body.contains(h)))
            .filter(|h| place(**h) < place(outer))
            .count()
    }

    fn oblige(&mut self, guard: Bool, row: usize, value: BV, live: &[Option<Bool>]) {
        let holds = self.tpl.holds(row, &value, live);
        self.out.obligations.push(Obligation {
            guard,
            row,
            value,
            holds,
            note: String::new(),
            nest: self.nest,
        });
    }

    /// For each address of the universe, the condition under which its object exists in
    /// `st` (`None`: always, for variables and summaries).
    fn live(&self, st: &State) -> Vec<Option<Bool>> {
        (self.tpl.universe.iter())
            .map(|(addr, _)| {
                let o = Memory::object_of(*addr).filter(|o| *o < self.mem.objects.len())?;
                self.alive(st, o, 0)
            })
            .collect()
    }

    /// The value a row constrains: its one term, or the 64-bit sum of its weighted terms;
    /// summary cells are taken from `tuple`.
    fn value(&self, st: &State, terms: &[(i64, Term)], tuple: Option<&Tuple>) -> BV {
        let get = |t: &Term| match t {
            Term::Reg(v) => st.regs[v].bv.clone(),
            Term::Cell(o, off) => st.cells[&(*o, *off)].clone(),
            Term::Sum(_, off) => tuple.expect("a summary tuple")[off].clone(),
        };
        self.combine(terms, get)
    }

    fn combine(&self, terms: &[(i64, Term)], get: impl Fn(&Term) -> BV) -> BV {
        if let [(1, t)] = terms {
            return get(t);
        }
        let mut sum = BV::from_u64(0, 64);
        for (c, t) in terms {
            let signed = match self.term_scalar(t) {
                Scalar::Int(i) => i.signed,
                Scalar::Ptr => false,
            };
            let x = resize_bits(get(t), signed, 64);
            sum = sum.bvadd(x.bvmul(BV::from_u64(*c as u64, 64)));
        }
        sum
    }

    fn term_scalar(&self, t: &Term) -> Scalar {
        match t {
            Term::Reg(v) => Scalar::of(&self.flat.prog.var(*v).ty).expect("scalar"),
            Term::Cell(o, off) | Term::Sum(o, off) => self.mem.cell(*o, *off).ty,
        }
    }

    fn add_row(&mut self, kind: &PlanKind, terms: &[(i64, Term)], line: u32) -> usize {
        let kind = match (kind, self.term_scalar(&terms[0].1)) {
            (PlanKind::PointsTo, _) => Kind::PointsTo,
            (PlanKind::Interval, Scalar::Int(i)) => Kind::Interval {
                signed: i.signed,
                bits: u32::from(i.bits),
            },
            _ => Kind::Upper,
        };
        let what = format!("{} at line {line}", self.describe(terms));
        self.tpl.add(kind, what)
    }

    fn describe(&self, terms: &[(i64, Term)]) -> String {
        let name = |t: &Term| match t {
            Term::Reg(v) => self.flat.prog.var(*v).name.clone(),
            Term::Cell(o, off) | Term::Sum(o, off) => {
                format!(
                    "{}{}",
                    self.mem.objects[*o].name,
                    self.mem.cell(*o, *off).name
                )
            }
        };
        let mut out = String::new();
        for (i, (c, t)) in terms.iter().enumerate() {
            let sign = if *c < 0 {
                "-"
            } else if i > 0 {
                "+"
            } else {
                ""
            };
            let sep = if i > 0 { " " } else { "" };
            let k = c.unsigned_abs();
            let coeff = if k == 1 {
                String::new()
            } else {
                format!("{k}*")
            };
            let space = if i > 0 { " " } else { "" };
            out.push_str(&format!("{sep}{sign}{space}{coeff}{}", name(t)));
        }
        out
    }

    /// One object of a summary's value set: (the condition it meets, its cells).
    fn element(&mut self, o: usize, e: &Elem) -> (Bool, Tuple) {
        match e {
            Elem::Tuple(t) => (Bool::from_bool(true), t.clone()),
            Elem::Head(h) => {
                let mut u = Tuple::new();
                for c in &self.mem.objects[o].cells {
                    u.insert(c.off, self.fresh("u", c.ty.bits()));
                }
                let mut conds = vec![];
                for (r, terms) in &h.rows {
                    let get = |t: &Term| match t {
                        Term::Reg(v) => h.regs[v].clone(),
                        Term::Cell(p, off) => h.cells[&(*p, *off)].clone(),
                        Term::Sum(_, off) => u[off].clone(),
                    };
                    let value = self.combine(terms, get);
                    conds.push(self.tpl.holds(*r, &value, &h.live));
                }
                for fold in &h.renames {
                    for (off, v) in u.iter_mut() {
                        if self.mem.cell(o, *off).ty == Scalar::Ptr {
                            *v = fold.rename(v);
                        }
                    }
                }
                (Bool::and(&conds), u)
            }
        }
    }

    fn line_of(&self, node: usize) -> u32 {
        (self.flat.out[node].first())
            .map(|&e| self.flat.edges[e].line)
            .unwrap_or(0)
    }

    /// Whether variable `v` is dead at loop `head`: written as a whole before any read on
    /// every path from there, and never accessed through a pointer (a struct temporary of an
    /// inlined call); its cells get no rows.
    fn dead_at(&self, v: VarId, head: usize) -> bool {
        !self.mem.taken.contains(&v) && !self.live[head].contains(&v)
    }

    /// The registers, exact cells and summary cells loop `head` may change.
    fn changed_in_loop(&self, head: usize) -> Changed {
        let body = &self.flat.loops[&head];
        let mut regs = BTreeSet::new();
        let mut writes: Vec<(u64, Scalar)> = vec![];
        let mut direct: BTreeSet<(usize, u64)> = BTreeSet::new();
        let mut allocs = false;
        for e in self
            .flat
            .edges
            .iter()
            .filter(|e| body.contains(&e.from) && body.contains(&e.to))
        {
            let lhs = match &e.op {
                Op::Assign { lhs, .. } => Some(lhs),
                Op::Call { lhs, callee, .. } => {
                    if matches!(callee, Callee::Builtin(Builtin::Alloc(_))) {
                        allocs = true;
                    }
                    lhs.as_ref()
                }
                Op::Havoc(v) => {
                    if self.mem.register[v.0 as usize] {
                        regs.insert(*v);
                    } else if let Some(o) = self.mem.var_object[v.0 as usize] {
                        direct.extend(self.mem.objects[o].cells.iter().map(|c| (o, c.off)));
                    }
                    None
                }
                _ => None,
            };
            let Some(lhs) = lhs else { continue };
            match (&lhs.kind, super::memory::root_var(lhs)) {
                (ExprKind::Var(v), _) if self.mem.register[v.0 as usize] => {
                    regs.insert(*v);
                }
                (_, Some(v)) => {
                    if let Some(o) = self.mem.var_object[v.0 as usize] {
                        direct.extend(self.mem.objects[o].cells.iter().map(|c| (o, c.off)));
                    }
                }
                _ => {
                    for (off, s) in access_leaves(&self.flat.prog, lhs) {
                        writes.push((off, s));
                    }
                }
            }
        }
        if allocs {
            // Folding renames pointers everywhere.
            for (i, v) in self.flat.prog.vars.iter().enumerate() {
                if self.mem.register[i] && matches!(v.ty, Type::Ptr(_)) {
                    regs.insert(VarId(i as u32));
                }
            }
        }
        let mut cells = vec![];
        let mut sums = vec![];
        for (o, obj) in self.mem.objects.iter().enumerate() {
            let site_allocated_here = match obj.kind {
                ObjKind::Recent(s) | ObjKind::Once(s) | ObjKind::Summary(s) => {
                    body.contains(&self.flat.edges[self.mem.sites[s].edge].from)
                }
                ObjKind::Var(v) if self.dead_at(v, head) => continue,
                ObjKind::Var(_) => false,
            };
            for c in &obj.cells {
                let written = direct.contains(&(o, c.off))
                    // A pointer may point into the middle of an object: any cell of the
                    // written type may change.
                    || writes.iter().any(|(_, s)| c.ty.fits(*s))
                    || site_allocated_here
                    || (allocs && c.ty == Scalar::Ptr);
                if !written {
                    continue;
                }
                if matches!(obj.kind, ObjKind::Summary(_)) {
                    sums.push((o, c.off));
                } else {
                    cells.push((o, c.off));
                }
            }
        }
        // A summary touched by the loop is replaced at the head by the objects its rows admit:
        // every cell needs a row, changed or not.
        let touched: BTreeSet<usize> = sums.iter().map(|(o, _)| *o).collect();
        let sums = (touched.into_iter())
            .flat_map(|o| self.mem.objects[o].cells.iter().map(move |c| (o, c.off)))
            .collect();
        Changed {
            regs: regs.into_iter().collect(),
            cells,
            sums,
            live: self.live[head].clone(),
        }
    }

    // ---- operations ----

    /// The state after edge `e`, or `None` when the run ends there.
    fn step(&mut self, index: usize, mut st: State) -> R<Option<State>> {
        let flat = self.flat;
        let e = &flat.edges[index];
        self.line = e.line;
        match &e.op {
            Op::Skip => {}
            Op::Assign { lhs, rhs } => self.assign(&mut st, lhs, rhs)?,
            Op::Assume { cond, positive } => {
                let c = self.truth(&mut st, cond)?;
                let c = if *positive { c } else { c.not() };
                st.guard = Bool::and(&[st.guard.clone(), c]);
            }
            Op::Havoc(v) => self.havoc(&mut st, *v)?,
            Op::Call {
                lhs,
                callee: Callee::Builtin(b),
                args,
            } => return self.builtin(index, st, *b, lhs.as_ref(), args),
            Op::Call { .. } | Op::CallPtr { .. } | Op::Return(_) => {
                return Err(format!("an un-inlined call at line {}", e.line));
            }
            Op::Unsupported(what) => return Err(format!("{what} at line {}", e.line)),
        }
        Ok(Some(st))
    }

    fn havoc(&mut self, st: &mut State, v: VarId) -> R<()> {
        if self.mem.register[v.0 as usize] {
            let bits = Scalar::of(&self.flat.prog.var(v).ty)
                .expect("scalar")
                .bits();
            let bv = self.fresh("havoc", bits);
            let token = self.token();
            st.regs.insert(v, Val { bv, token });
            return Ok(());
        }
        let o = self.var_obj(v)?;
        for c in self.mem.objects[o].cells.clone() {
            let bv = self.fresh("havoc", c.ty.bits());
            st.cells.insert((o, c.off), bv);
        }
        Ok(())
    }

    fn builtin(
        &mut self,
        index: usize,
        mut st: State,
        b: Builtin,
        lhs: Option<&Expr>,
        args: &[Expr],
    ) -> R<Option<State>> {
        let e = &self.flat.edges[index];
        match b {
            Builtin::Nondet => {
                if let Some(lhs) = lhs {
                    let s = scalar(&lhs.ty, e.line)?;
                    let v = self.fresh("nondet", s.bits());
                    let token = self.token();
                    self.store(&mut st, lhs, v, token)?;
                }
            }
            Builtin::Assume => {
                let c = self.truth(&mut st, &args[0])?;
                st.guard = Bool::and(&[st.guard.clone(), c]);
            }
            Builtin::Error(_) => {
                self.out.errors.push((st.guard.clone(), e.line));
                return Ok(None);
            }
            Builtin::Abort | Builtin::Exit => return Ok(None),
            Builtin::Free => self.free(&mut st, &args[0])?,
            Builtin::Alloc(_) => {
                let site = (self.mem.site_of_edge(index))
                    .ok_or_else(|| format!("an allocation at line {}", e.line))?;
                self.allocate(&mut st, site, lhs)?;
            }
            Builtin::Memset
            | Builtin::Memcpy
            | Builtin::BlockSize
            | Builtin::Unsupported
            | Builtin::External
            | Builtin::Caveat
            | Builtin::ScopeEnd => {
                return Err(format!(
                    "a call the template engine does not model at line {}",
                    e.line
                ));
            }
        }
        Ok(Some(st))
    }

    /// The identity of a pointer register's value (through pointer conversions), if `e` is
    /// one.
    fn token_of(&self, st: &State, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Var(x) if self.mem.register[x.0 as usize] => Some(st.regs[x].token),
            ExprKind::Cast(a) if matches!((&a.ty, &e.ty), (Type::Ptr(_), Type::Ptr(_))) => {
                self.token_of(st, a)
            }
            _ => None,
        }
    }

    /// `free(p)`: an exact object `p` points to no longer lives; in a summary, the state the
    /// same pointer value last wrote is no longer any object's. An invalid free, and any free
    /// into a summary (which of its objects were freed is not tracked), is undefined
    /// behaviour unless memory safety is known.
    fn free(&mut self, st: &mut State, arg: &Expr) -> R<()> {
        let token = self.token_of(st, arg);
        let p = self.rvalue(st, arg)?;
        let mut valid = vec![p.eq(BV::from_u64(0, PTR_BITS))];
        for (o, obj) in self.mem.objects.iter().enumerate() {
            match obj.kind {
                ObjKind::Once(_) | ObjKind::Recent(_) => {
                    let at = p.eq(BV::from_u64(Memory::addr(o, 0), PTR_BITS));
                    let old = st.cells[&(o, ALIVE)].clone();
                    valid.push(Bool::and(&[at.clone(), old.eq(BV::from_u64(1, 8))]));
                    st.cells
                        .insert((o, ALIVE), at.ite(&BV::from_u64(0, 8), &old));
                }
                ObjKind::Summary(_) => {
                    // Which objects of a summary were freed is not tracked: a free there may
                    // be a double free, and later accesses may use freed memory.
                    let into = Bool::and(&[st.guard.clone(), points_into(&p, o)]);
                    self.undefined(into, "a free of a summarised object");
                    if let Some(t) = token
                        && let Some(prev) = st.written.remove(&(t, o))
                    {
                        retire(st.sums.get_mut(&o).expect("summary"), prev);
                    }
                    st.cache.retain(|(_, co), _| *co != o);
                }
                ObjKind::Var(_) => {}
            }
        }
        let into_summaries: Vec<Bool> = (self.mem.objects.iter().enumerate())
            .filter(|(_, x)| matches!(x.kind, ObjKind::Summary(_)))
            .map(|(o, _)| points_into(&p, o))
            .collect();
        valid.extend(into_summaries);
        let bad = Bool::and(&[st.guard.clone(), Bool::or(&valid).not()]);
        self.undefined(bad, "an invalid free");
        Ok(())
    }

    /// An allocation at `site`: folds the recent object into the summary (loops only), makes
    /// the object anew and stores its address or NULL (when the allocation may fail).
    fn allocate(&mut self, st: &mut State, site: usize, lhs: Option<&Expr>) -> R<()> {
        let s = self.mem.sites[site].clone();
        let (obj, summary) = s.objects;
        if let Some(sum) = summary {
            self.fold(st, obj, sum);
        }
        let fail = if self.flat.prog.alloc_may_fail {
            Bool::fresh_const("alloc_fails")
        } else {
            Bool::from_bool(false)
        };
        for c in self.mem.objects[obj].cells.clone() {
            let bv = if c.off == ALIVE {
                fail.ite(&BV::from_u64(0, 8), &BV::from_u64(1, 8))
            } else if s.zeroed {
                BV::from_u64(0, c.ty.bits())
            } else {
                self.fresh("garbage", c.ty.bits())
            };
            st.cells.insert((obj, c.off), bv);
        }
        if let Some(lhs) = lhs {
            let addr = BV::from_u64(Memory::addr(obj, 0), PTR_BITS);
            let v = fail.ite(&BV::from_u64(0, PTR_BITS), &addr);
            let token = self.token();
            self.store(st, lhs, v, token)?;
        }
        Ok(())
    }

    /// Adds the recent object (while it is alive) to the summary and renames every pointer
    /// to the recent object into a pointer to the summary. A pointer that pointed to the
    /// recent object keeps reading its values (the member just added), and one that was
    /// focused on a member of the summary keeps that member: the fold only adds a member.
    fn fold(&mut self, st: &mut State, recent: usize, sum: usize) {
        let alive = st.cells[&(recent, ALIVE)].eq(BV::from_u64(1, 8));
        let fold = Fold {
            recent,
            sum,
            alive: alive.clone(),
            dangling: self.mem.objects.len(),
        };
        let prog = &self.flat.prog;
        // The pointer values (by token) that may point to the recent object, renamed.
        let holders: BTreeMap<u32, (Bool, BV)> = (st.regs.iter())
            .filter(|(r, _)| matches!(prog.var(**r).ty, Type::Ptr(_)))
            .map(|(_, v)| (v, points_into(&v.bv, recent)))
            .filter(|(_, was)| was.simplify().as_bool() != Some(false))
            .map(|(v, was)| (v.token, (was, fold.rename(&v.bv))))
            .collect();
        for (r, v) in st.regs.iter_mut() {
            if matches!(prog.var(*r).ty, Type::Ptr(_)) {
                v.bv = fold.rename(&v.bv);
            }
        }
        let ptr_cells: Vec<(usize, u64)> = (st.cells.keys())
            .filter(|(o, off)| self.mem.cell(*o, *off).ty == Scalar::Ptr)
            .copied()
            .collect();
        for k in ptr_cells {
            let v = fold.rename(&st.cells[&k]);
            st.cells.insert(k, v);
        }
        let sums: Vec<usize> = st.sums.keys().copied().collect();
        for o in sums {
            let old = std::mem::take(st.sums.get_mut(&o).expect("summary"));
            let mut set = BTreeMap::new();
            for (_, (g, e)) in old {
                let e = match e {
                    Elem::Tuple(t) => Elem::Tuple(self.rename_tuple(o, &t, &fold)),
                    Elem::Head(h) => {
                        let mut renames = h.renames.clone();
                        renames.push(fold.clone());
                        Elem::Head(std::rc::Rc::new(HeadElem {
                            rows: h.rows.clone(),
                            regs: h.regs.clone(),
                            cells: h.cells.clone(),
                            live: h.live.clone(),
                            renames,
                        }))
                    }
                };
                set.insert(self.token(), (g, e));
            }
            st.sums.insert(o, set);
        }
        let keys: Vec<(u32, usize)> = st.cache.keys().copied().collect();
        for k in keys {
            let t = self.rename_tuple(k.1, &st.cache[&k], &fold);
            st.cache.insert(k, t);
        }
        let tuple: Tuple = (self.mem.objects[recent].cells.iter())
            .map(|c| (c.off, st.cells[&(recent, c.off)].clone()))
            .collect();
        let mut recent_holders = vec![];
        for (token, (was_recent, now)) in holders {
            // A pointer to the recent object after it was freed dangles (see `Fold`).
            let was_recent = Bool::and(&[was_recent, alive.clone()]);
            recent_holders.push((token, was_recent.clone()));
            let old = match st.cache.get(&(token, sum)) {
                Some(t) => t.clone(),
                None => {
                    let at = Bool::and(&[points_into(&now, sum), was_recent.not()]);
                    self.focus(st, &at, sum, None)
                }
            };
            let merged = (tuple.iter())
                .map(|(off, v)| (*off, was_recent.ite(v, &old[off])))
                .collect();
            st.cache.insert((token, sum), merged);
        }
        let g = Bool::and(&[st.guard.clone(), alive]);
        let id = self.token();
        (st.sums.get_mut(&sum).expect("summary")).insert(id, (g, Elem::Tuple(tuple)));
        for (token, was_recent) in recent_holders {
            // The member just added is this pointer's object where it pointed to the recent
            // one: its next write there replaces that state.
            st.written.insert((token, sum), (id, Some(was_recent)));
        }
    }

    fn rename_tuple(&self, o: usize, t: &Tuple, fold: &Fold) -> Tuple {
        (t.iter())
            .map(|(off, v)| {
                let v = if self.mem.cell(o, *off).ty == Scalar::Ptr {
                    fold.rename(v)
                } else {
                    v.clone()
                };
                (*off, v)
            })
            .collect()
    }

    fn assign(&mut self, st: &mut State, lhs: &Expr, rhs: &Expr) -> R<()> {
        if let Type::Struct(_) | Type::Array(..) = lhs.ty {
            return self.copy_aggregate(st, lhs, rhs);
        }
        let same = self.token_of(st, rhs);
        let v = self.rvalue(st, rhs)?;
        let token = match same {
            Some(t) => t,
            None => self.token(),
        };
        self.store(st, lhs, v, token)
    }

    fn copy_aggregate(&mut self, st: &mut State, lhs: &Expr, rhs: &Expr) -> R<()> {
        let dst = self.place(st, lhs)?;
        let src = self.place(st, rhs)?;
        let (Place::Mem { addr: d, .. }, Place::Mem { addr: s, .. }) = (dst, src) else {
            return Err("an aggregate in a register".into());
        };
        let mut cells = vec![];
        for (off, sc) in leaves_of(&self.flat.prog, &lhs.ty)? {
            let at = s.bvadd(BV::from_u64(off, PTR_BITS));
            let v = self.read(st, &at, None, sc);
            cells.push((off, sc, v));
        }
        for (off, sc, v) in cells {
            let at = d.bvadd(BV::from_u64(off, PTR_BITS));
            self.write(st, &at, None, sc, v);
        }
        Ok(())
    }

    /// Stores `v` (with its pointer identity `token`) into lvalue `lhs`.
    fn store(&mut self, st: &mut State, lhs: &Expr, v: BV, token: u32) -> R<()> {
        let s = scalar(&lhs.ty, 0)?;
        match self.place(st, lhs)? {
            Place::Reg(r) => {
                st.regs.insert(r, Val { bv: v, token });
            }
            Place::Mem { addr, token: t } => self.write(st, &addr, t, s, v),
        }
        Ok(())
    }

    // ---- memory ----

    fn var_obj(&self, v: VarId) -> R<usize> {
        self.mem.var_object[v.0 as usize].ok_or_else(|| {
            format!(
                "the variable `{}`, which the template engine cannot lay out",
                self.flat.prog.var(v).name
            )
        })
    }

    fn place(&mut self, st: &mut State, e: &Expr) -> R<Place> {
        match &e.kind {
            ExprKind::Var(v) if self.mem.register[v.0 as usize] => Ok(Place::Reg(*v)),
            ExprKind::Var(v) => {
                let o = self.var_obj(*v)?;
                Ok(Place::Mem {
                    addr: BV::from_u64(Memory::addr(o, 0), PTR_BITS),
                    token: None,
                })
            }
            ExprKind::Deref(p) => {
                let token = self.token_of(st, p);
                let addr = self.rvalue(st, p)?;
                Ok(Place::Mem { addr, token })
            }
            ExprKind::Field(b, off, _) => match self.place(st, b)? {
                Place::Mem { addr, token } => Ok(Place::Mem {
                    addr: addr.bvadd(BV::from_u64(*off, PTR_BITS)),
                    token,
                }),
                Place::Reg(_) => Err("a field of a register".into()),
            },
            _ => Err(format!(
                "an lvalue the template engine does not model ({:?})",
                kind_name(e)
            )),
        }
    }

    /// The candidate cells an access of type `s` at `addr` may hit: (object, offset).
    fn candidates(&self, addr: &BV, s: Scalar) -> Vec<(usize, u64)> {
        let hit = |o: usize, off: Option<u64>| {
            (self.mem.objects.get(o).into_iter())
                .flat_map(|obj| obj.cells.iter())
                .filter(move |c| off.is_none_or(|off| c.off == off))
                .filter(|c| c.off != ALIVE && c.ty.fits(s))
                .map(move |c| (o, c.off))
        };
        match constant_values(addr) {
            Some(values) => (values.into_iter())
                .filter_map(|a| Some((Memory::object_of(a)?, a & 0xFFFF)))
                .flat_map(|(o, off)| hit(o, Some(off)))
                .collect(),
            None => (0..self.mem.objects.len())
                .flat_map(|o| hit(o, None))
                .collect(),
        }
    }

    /// An access at `addr` must hit one of its candidate cells `cands`, in a live object:
    /// records the undefined behaviour where it does not. When every run is known to be
    /// memory safe, it assumes that the access hits a live object (the runs where it does not
    /// are spurious: the abstraction let a pointer reach a freed or absent object that no
    /// concrete run dereferences), but not that the object's layout has a cell of the access's
    /// type there: the shape analysis knows blocks, not the types this encoding gives them, so
    /// an access the layout misses stays an obligation.
    fn check_access(&mut self, st: &mut State, addr: &BV, cands: &[(usize, u64)]) {
        let mut valid = vec![];
        for &(o, off) in cands {
            let at = addr.eq(BV::from_u64(Memory::addr(o, off), PTR_BITS));
            match self.alive(st, o, off) {
                Some(alive) => valid.push(Bool::and(&[at, alive])),
                None => valid.push(at),
            }
        }
        let valid = Bool::or(&valid);
        if self.safe {
            st.guard = Bool::and(&[st.guard.clone(), self.in_live_object(st, addr)]);
            let missed = Bool::and(&[st.guard.clone(), valid.not()]);
            let what = "an access that the encoding's object layout does not model";
            self.out.undefined.push((missed, self.line, what));
        } else {
            let bad = Bool::and(&[st.guard.clone(), valid.not()]);
            self.undefined(bad, "an invalid dereference");
        }
    }

    /// Whether `addr` points into an object that lives (variables always do; a summary does
    /// while any of its objects may).
    fn in_live_object(&self, st: &State, addr: &BV) -> Bool {
        let live: Vec<Bool> = (0..self.mem.objects.len())
            .map(|o| {
                let inside = points_into(addr, o);
                match self.alive(st, o, 0) {
                    Some(alive) => Bool::and(&[inside, alive]),
                    None => inside,
                }
            })
            .collect();
        Bool::or(&live)
    }

    /// Records undefined behaviour of kind `what` under `bad` at the current line (unless
    /// memory safety is known).
    fn undefined(&mut self, bad: Bool, what: &'static str) {
        if !self.safe {
            self.out.undefined.push((bad, self.line, what));
        }
    }

    fn read(&mut self, st: &mut State, addr: &BV, token: Option<u32>, s: Scalar) -> BV {
        let cands = self.candidates(addr, s);
        self.check_access(st, addr, &cands);
        let mut value = self.fresh("invalid_read", s.bits());
        for (o, off) in cands.into_iter().rev() {
            let at = addr.eq(BV::from_u64(Memory::addr(o, off), PTR_BITS));
            let v = match self.mem.objects[o].kind {
                ObjKind::Summary(_) => {
                    let inside = points_into(addr, o);
                    self.read_summary(st, &inside, o, off, token)
                }
                _ => st.cells[&(o, off)].clone(),
            };
            let v = resize_bits(v, false, s.bits());
            value = at.ite(&v, &value);
        }
        value
    }

    /// A value of summary cell `(o, off)` read where `at` (the pointer points into the
    /// summary) holds.
    fn read_summary(
        &mut self,
        st: &mut State,
        at: &Bool,
        o: usize,
        off: u64,
        token: Option<u32>,
    ) -> BV {
        self.focus(st, at, o, token)[&off].clone()
    }

    /// The object of summary `o` a pointer (with `token`) points to where `at` holds: the one
    /// read before through the same pointer value, or a fresh one from the summary's value
    /// set.
    fn focus(&mut self, st: &mut State, at: &Bool, o: usize, token: Option<u32>) -> Tuple {
        if let Some(t) = token
            && let Some(v) = st.cache.get(&(t, o))
        {
            return v.clone();
        }
        let mut v = Tuple::new();
        for c in &self.mem.objects[o].cells {
            v.insert(c.off, self.fresh("focus", c.ty.bits()));
        }
        let elems: Vec<(Bool, Elem)> = st.sums[&o].values().cloned().collect();
        let mut alts = vec![];
        for (g, e) in elems {
            let (cond, w) = self.element(o, &e);
            let mut conj = vec![g, cond];
            conj.extend(v.iter().map(|(off, x)| x.eq(&w[off])));
            alts.push(Bool::and(&conj));
        }
        let member = Bool::or(&alts);
        let when = Bool::and(&[st.guard.clone(), at.clone()]);
        self.out.background.push(when.implies(&member));
        if let Some(t) = token {
            st.cache.insert((t, o), v.clone());
        }
        v
    }

    fn write(&mut self, st: &mut State, addr: &BV, token: Option<u32>, s: Scalar, v: BV) {
        let cands = self.candidates(addr, s);
        self.check_access(st, addr, &cands);
        let mut summaries: BTreeMap<usize, Vec<(u64, Bool, BV)>> = BTreeMap::new();
        for (o, off) in cands {
            let at = addr.eq(BV::from_u64(Memory::addr(o, off), PTR_BITS));
            let cell_bits = self.mem.cell(o, off).ty.bits();
            let v = resize_bits(v.clone(), false, cell_bits);
            match self.mem.objects[o].kind {
                ObjKind::Summary(_) => summaries.entry(o).or_default().push((off, at, v)),
                _ => {
                    let old = st.cells[&(o, off)].clone();
                    st.cells.insert((o, off), at.ite(&v, &old));
                }
            }
        }
        for (o, cells) in summaries {
            self.write_summary(st, addr, token, o, &cells);
        }
    }

    /// A weak update of summary `o` at one of `cells` (offset, whether `addr` is that cell,
    /// value): the object written joins the set with its new state, one element for the
    /// whole write (the cells are alternatives of one store).
    fn write_summary(
        &mut self,
        st: &mut State,
        addr: &BV,
        token: Option<u32>,
        o: usize,
        cells: &[(u64, Bool, BV)],
    ) {
        let inside = points_into(addr, o);
        let focus = self.focus(st, &inside, o, token);
        let mut t = focus.clone();
        for (off, at, v) in cells {
            t.insert(*off, at.ite(v, &focus[off]));
        }
        let hits: Vec<Bool> = cells.iter().map(|(_, at, _)| at.clone()).collect();
        let g = Bool::and(&[st.guard.clone(), Bool::or(&hits)]);
        let id = self.token();
        let set = st.sums.get_mut(&o).expect("summary");
        if let Some(tok) = token
            && let Some(prev) = st.written.insert((tok, o), (id, None))
        {
            // The object's state after this pointer's previous write is gone: the same
            // pointer value wrote it again.
            retire(set, prev);
        }
        set.insert(id, (g, Elem::Tuple(t.clone())));
        // Other pointers into the summary may reach the object written.
        st.cache.retain(|(_, co), _| *co != o);
        if let Some(tok) = token {
            // The pointer's own object changed only in the cell the write hit.
            st.cache.insert((tok, o), t);
        }
    }

    // ---- expressions ----

    fn truth(&mut self, st: &mut State, e: &Expr) -> R<Bool> {
        let v = self.rvalue(st, e)?;
        Ok(v.eq(BV::from_u64(0, v.get_size())).not())
    }

    fn rvalue(&mut self, st: &mut State, e: &Expr) -> R<BV> {
        let bits = |ty: &Type| scalar(ty, 0).map(Scalar::bits);
        match &e.kind {
            ExprKind::Const(c) => match &e.ty {
                Type::Ptr(_) if *c == 0 => Ok(BV::from_u64(0, PTR_BITS)),
                Type::Ptr(_) => Err("an absolute address".into()),
                ty => Ok(BV::from_u64(*c as u64, bits(ty)?)),
            },
            ExprKind::Var(v) if self.mem.register[v.0 as usize] => Ok(st.regs[v].bv.clone()),
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) => {
                let s = scalar(&e.ty, 0)?;
                match self.place(st, e)? {
                    Place::Reg(r) => Ok(st.regs[&r].bv.clone()),
                    Place::Mem { addr, token } => Ok(self.read(st, &addr, token, s)),
                }
            }
            ExprKind::AddrOf(a) => match self.place(st, a)? {
                Place::Mem { addr, .. } => Ok(addr),
                Place::Reg(_) => Err("the address of a register".into()),
            },
            ExprKind::Unary(op, a) => {
                let a = self.rvalue(st, a)?;
                Ok(match op {
                    UnOp::Neg => a.bvneg(),
                    UnOp::Not => a.bvnot(),
                })
            }
            ExprKind::Binary(op, a, b) => {
                let signed = matches!(&e.ty, Type::Int(i) if i.signed);
                let (x, y) = (self.rvalue(st, a)?, self.rvalue(st, b)?);
                if matches!(op, BinOp::Shl | BinOp::Shr) && x.get_size() != y.get_size() {
                    let y = resize_bits(y, false, x.get_size());
                    return Ok(binary(*op, &x, &y, signed));
                }
                Ok(binary(*op, &x, &y, signed))
            }
            ExprKind::Cmp(op, a, b) => {
                let pointers = matches!(a.ty, Type::Ptr(_));
                if pointers && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                    return Err("an ordered pointer comparison".into());
                }
                let signed = matches!(&a.ty, Type::Int(i) if i.signed);
                let (x, y) = (self.rvalue(st, a)?, self.rvalue(st, b)?);
                let c = compare(*op, &x, &y, signed);
                let w = bits(&e.ty)?;
                Ok(c.ite(&BV::from_u64(1, w), &BV::from_u64(0, w)))
            }
            ExprKind::Cast(a) => self.cast(st, a, &e.ty),
            _ => Err(format!(
                "an expression the template engine does not model ({})",
                kind_name(e)
            )),
        }
    }

    fn cast(&mut self, st: &mut State, a: &Expr, to: &Type) -> R<BV> {
        match (&a.ty, to) {
            (Type::Ptr(_), Type::Ptr(_)) => self.rvalue(st, a),
            (Type::Int(_), Type::Ptr(_)) => match a.kind {
                ExprKind::Const(0) => Ok(BV::from_u64(0, PTR_BITS)),
                _ => Err("an integer converted to a pointer".into()),
            },
            (Type::Int(from), Type::Int(t)) => {
                let v = self.rvalue(st, a)?;
                if t.boolean {
                    let nz = v.eq(BV::from_u64(0, v.get_size())).not();
                    return Ok(nz.ite(&BV::from_u64(1, 8), &BV::from_u64(0, 8)));
                }
                Ok(resize_bits(v, from.signed, u32::from(t.bits)))
            }
            (Type::Ptr(_), Type::Int(t)) if t.boolean => {
                let v = self.rvalue(st, a)?;
                let nz = v.eq(BV::from_u64(0, PTR_BITS)).not();
                Ok(nz.ite(&BV::from_u64(1, 8), &BV::from_u64(0, 8)))
            }
            _ => Err("a conversion the template engine does not model".into()),
        }
    }
}

/// Takes a pointer's previous state of its object out of a summary's value set: the element
/// leaves the set, or, when it was the pointer's object only under a condition, stays a
/// member only where the condition fails.
fn retire(set: &mut BTreeMap<u32, (Bool, Elem)>, (id, when): (u32, Option<Bool>)) {
    match when {
        None => {
            set.remove(&id);
        }
        Some(c) => {
            if let Some((g, _)) = set.get_mut(&id) {
                *g = Bool::and(&[g.clone(), c.not()]);
            }
        }
    }
}

/// The values an address term can take, when it is built from constants by if-then-else and
/// additions (a pointer that is NULL or one object's address, renamed by folds): `None` when
/// it depends on anything else or is too large to enumerate.
fn constant_values(addr: &BV) -> Option<BTreeSet<u64>> {
    let mut budget = 256;
    values_of(addr, &mut budget)
}

fn values_of(x: &BV, budget: &mut u32) -> Option<BTreeSet<u64>> {
    if let Some(c) = x.as_u64() {
        return Some(BTreeSet::from([c]));
    }
    *budget = budget.checked_sub(1)?;
    let decl = x.safe_decl().ok()?;
    let kids = x.children();
    let bv = |i: usize| kids.get(i).and_then(|k| k.as_bv());
    let out: BTreeSet<u64> = match decl.kind() {
        DeclKind::Ite => {
            let mut s = values_of(&bv(1)?, budget)?;
            s.extend(values_of(&bv(2)?, budget)?);
            s
        }
        DeclKind::Badd => {
            let mask = u64::MAX >> (64 - x.get_size());
            let mut sums = BTreeSet::from([0u64]);
            for i in 0..kids.len() {
                let v = values_of(&bv(i)?, budget)?;
                sums = (sums.iter())
                    .flat_map(|u| v.iter().map(move |w| u.wrapping_add(*w) & mask))
                    .collect();
                if sums.len() > 64 {
                    return None;
                }
            }
            sums
        }
        _ => return None,
    };
    (out.len() <= 64).then_some(out)
}

/// Whether address `addr` points into object `o`.
fn points_into(addr: &BV, o: usize) -> Bool {
    let obj = addr.bvlshr(BV::from_u64(16, PTR_BITS));
    obj.eq(BV::from_u64(o as u64 + 1, PTR_BITS))
}

/// The summary object a row is about, if it has a summary cell among its terms.
fn summary_of(terms: &[(i64, Term)]) -> Option<usize> {
    terms.iter().find_map(|(_, t)| match t {
        Term::Sum(o, _) => Some(*o),
        _ => None,
    })
}

/// One fold of a recent object into its summary, as a renaming of pointers.
#[derive(Clone)]
struct Fold {
    recent: usize,
    sum: usize,
    /// Whether the recent object lived when it was folded.
    alive: Bool,
    /// The pseudo-object (no object's number) that pointers to a freed recent object are
    /// moved to: they dangle, and every access through them is invalid.
    dangling: usize,
}

impl Fold {
    /// `x` with addresses into the recent object moved into the summary, or, where the recent
    /// object was already freed, into the dangling pseudo-object (not into the summary, whose
    /// objects live: a use after free through such a pointer would pass unnoticed).
    fn rename(&self, x: &BV) -> BV {
        let obj = x.bvlshr(BV::from_u64(16, PTR_BITS));
        let is_from = obj.eq(BV::from_u64(self.recent as u64 + 1, PTR_BITS));
        let base = Memory::addr(self.recent, 0);
        let to = |o: usize| {
            x.bvadd(BV::from_u64(
                Memory::addr(o, 0).wrapping_sub(base),
                PTR_BITS,
            ))
        };
        is_from.ite(&self.alive.ite(&to(self.sum), &to(self.dangling)), x)
    }
}

/// The value of one of several states: `g1 ? v1 : g2 ? v2 : ... : vk`.
fn choose(guards: &[Bool], vals: Vec<BV>) -> BV {
    if vals.iter().all(|v| *v == vals[0]) {
        return vals[0].clone();
    }
    let mut out = vals[vals.len() - 1].clone();
    for (g, v) in guards.iter().zip(&vals).rev().skip(1) {
        out = g.ite(v, &out);
    }
    out
}

fn scalar(ty: &Type, line: u32) -> R<Scalar> {
    Scalar::of(ty).ok_or_else(|| format!("a value of aggregate type at line {line}"))
}

/// The scalar cells (offset, type) of a value of type `ty`, laid out as memory objects are.
fn leaves_of(prog: &crate::program::ir::Program, ty: &Type) -> R<Vec<(u64, Scalar)>> {
    let mut out = vec![];
    super::memory::leaves(prog, ty, 0, "", &mut out)?;
    Ok(out.into_iter().map(|c| (c.off, c.ty)).collect())
}

/// The cells (offset from the start of the pointed-to object, type) an lvalue reached
/// through a pointer writes.
fn access_leaves(prog: &crate::program::ir::Program, e: &Expr) -> Vec<(u64, Scalar)> {
    let mut off = 0;
    let mut x = e;
    while let ExprKind::Field(b, o, _) = &x.kind {
        off += o;
        x = b;
    }
    let mut out = vec![];
    let _ = super::memory::leaves(prog, &e.ty, off, "", &mut out);
    out.into_iter().map(|c| (c.off, c.ty)).collect()
}

fn kind_name(e: &Expr) -> &'static str {
    match e.kind {
        ExprKind::Const(_) => "constant",
        ExprKind::Var(_) => "variable",
        ExprKind::Deref(_) => "dereference",
        ExprKind::Field(..) => "field",
        ExprKind::BitField(..) => "bit-field",
        ExprKind::AddrOf(_) => "address",
        ExprKind::FuncAddr(_) => "function address",
        ExprKind::Str(_) => "string literal",
        ExprKind::Unary(..) => "unary operation",
        ExprKind::Binary(..) => "binary operation",
        ExprKind::Cmp(..) => "comparison",
        ExprKind::Cast(_) => "conversion",
        ExprKind::PtrAdd(..) => "pointer arithmetic",
        ExprKind::PtrDiff(..) => "pointer difference",
    }
}

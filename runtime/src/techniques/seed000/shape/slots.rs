//! Slots: a local of type `struct s **` that walks the links of a structure, the idiom of
//! insertion through a pointer to the link to change (`struct node **pp = &head; while (*pp)
//! pp = &(*pp)->next; *pp = n;`, a binary search tree's `slot = &(*slot)->left`, a merge's
//! `*dst = &node->next`).
//!
//! Consumes a [`Program`] (after the reference parameters of [`super::alias`] are read as
//! their variables); produces [`Slots`]: the variables that qualify, each with the struct
//! whose field it may point to. A variable qualifies when it has type pointer to pointer to
//! struct, its address is never taken, every value it gets is `&v` (a variable of the
//! pointed-to pointer type), `&e->f` (field `f` of one struct `R`, the same for every such
//! value) or another slot's value (with the same `R`), and every other use of it is `*pp`.
//!
//! In a shape graph a slot is a tracked pointer to the cell whose field it addresses (no
//! cell when it addresses a variable), and its copied constant (`Graph::constant`) says
//! which variable or field: [`encode`]. [`Slots::resolve`] rewrites an operation for one
//! graph so that `*pp` is that variable, or that field of the slot's cell, and the transfer
//! functions need nothing else; a slot whose target the graph does not know makes the step
//! unsupported. The explicit engine, the path formulas and replay read the program as
//! written.

use super::alias::RefParams;
use super::graph::Graph;
use crate::program::ir::{
    Callee, Edge, Expr, ExprKind, FuncId, Op, Program, StructId, Type, VarId, VarKind,
};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// What a slot addresses: a variable, or the field at this index of its cell's struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `&v`.
    Var(VarId),
    /// `&e->f`, `f` the field at this index of the slot's struct.
    Field(usize),
}

/// The copied constant that records `t` on a slot.
pub fn encode(t: Target) -> i64 {
    match t {
        Target::Var(v) => -1 - i64::from(v.0),
        Target::Field(i) => i as i64,
    }
}

/// The target a slot's constant records.
pub fn decode(c: i64) -> Target {
    if c < 0 {
        Target::Var(VarId((-1 - c) as u32))
    } else {
        Target::Field(c as usize)
    }
}

/// A slot's new value: an address (with the pointer to the cell whose field it is), or a
/// copy of another slot.
pub enum NewValue {
    /// `&v` or `&e->f`.
    Addr(Target, Option<Expr>),
    /// `qq`.
    Copy(VarId),
}

/// The slots of a program and the struct of the cells each may point into.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    base: BTreeMap<VarId, StructId>,
    targets: BTreeSet<VarId>,
}

/// A value a slot may get.
enum Value<'e> {
    Var(VarId),
    Field(&'e Expr, StructId),
    Slot(VarId),
}

impl Slots {
    /// The slots of `prog`, with its reference parameters `refs`.
    pub fn new(prog: &Program, refs: &RefParams) -> Slots {
        let mut cands: BTreeSet<VarId> = (0..prog.vars.len())
            .map(|i| VarId(i as u32))
            .filter(|x| slot_type(&prog.var(*x).ty).is_some())
            .collect();
        loop {
            let (keep, base) = qualify(prog, refs, &cands);
            if keep == cands {
                let targets = targets(prog, refs, &keep);
                let base = keep
                    .iter()
                    .map(|x| {
                        let pointee = slot_type(&prog.var(*x).ty).expect("a slot type");
                        (*x, base.get(x).copied().unwrap_or(pointee))
                    })
                    .collect();
                return Slots { base, targets };
            }
            cands = keep;
        }
    }

    /// Keeps the slots `keep` accepts (those whose cells are nodes of the analysis); the
    /// others are left to the rest of the analysis, which reads `*pp` as an unknown pointer.
    pub fn retain(&mut self, keep: impl Fn(VarId) -> bool) {
        self.base.retain(|x, _| keep(*x));
    }

    /// The slots and the struct of each one's cells.
    pub fn bases(&self) -> impl Iterator<Item = (VarId, StructId)> + '_ {
        self.base.iter().map(|(x, s)| (*x, *s))
    }

    /// The struct of the cells slot `x` may point into, if `x` is a slot.
    pub fn base(&self, x: VarId) -> Option<StructId> {
        self.base.get(&x).copied()
    }

    /// Whether some slot may address variable `x` (so `*pp` reads it where no statement
    /// names it).
    pub fn is_target(&self, x: VarId) -> bool {
        self.targets.contains(&x)
    }

    /// What `rhs`, a slot's new value, gives it; `None` if it is not one.
    pub fn value(&self, prog: &Program, rhs: &Expr) -> Option<NewValue> {
        match value(rhs)? {
            Value::Var(v) => Some(NewValue::Addr(Target::Var(v), None)),
            Value::Field(e, s) => {
                let ExprKind::AddrOf(a) = &strip(rhs).kind else {
                    return None;
                };
                let ExprKind::Field(_, _, name) = &a.kind else {
                    return None;
                };
                let i = prog.strukt(s).fields.iter().position(|f| &f.name == name)?;
                Some(NewValue::Addr(Target::Field(i), Some(e.clone())))
            }
            Value::Slot(q) => self.base(q).map(|_| NewValue::Copy(q)),
        }
    }

    /// Slot `x` read as a pointer to its cell.
    pub fn as_pointer(&self, x: VarId) -> Option<Expr> {
        Some(Expr {
            kind: ExprKind::Var(x),
            ty: Type::Ptr(Box::new(Type::Struct(self.base(x)?))),
        })
    }

    /// The expressions of `op` whose addresses matter to the shape analysis: a slot's new
    /// value `&v` drops out and `&e->f` is `e` (the slot's constant says which variable or
    /// field; nothing else can write through it).
    pub fn checked<'o>(&self, prog: &Program, refs: &RefParams, op: &'o Op) -> Vec<Cow<'o, Expr>> {
        let mut out: Vec<Cow<'o, Expr>> = vec![];
        let mut add =
            |slot: Option<VarId>, e: &'o Expr| match slot.filter(|x| self.base.contains_key(x)) {
                Some(_) => {
                    if let Some(Value::Field(p, _)) = value(e) {
                        out.push(Cow::Borrowed(p));
                    }
                }
                None => out.push(Cow::Borrowed(e)),
            };
        match op {
            Op::Assign { lhs, rhs } => {
                add(None, lhs);
                add(var_of(lhs), rhs);
            }
            Op::Call {
                callee: Callee::Func(g),
                lhs,
                args,
            } => {
                let params = &prog.func(*g).params;
                let kept: BTreeSet<*const Expr> = refs
                    .exprs(prog, op)
                    .into_iter()
                    .map(|e| e as *const Expr)
                    .collect();
                if let Some(l) = lhs {
                    add(None, l);
                }
                for (i, a) in args.iter().enumerate() {
                    if kept.contains(&(a as *const Expr)) {
                        add(params.get(i).copied(), a);
                    }
                }
            }
            _ => {
                for e in refs.exprs(prog, op) {
                    add(None, e);
                }
            }
        }
        out
    }

    /// `op` for graph `g`: every `*pp` of a slot replaced by the variable or the field of
    /// the slot's cell that `g` records; `Err` names a slot whose target `g` does not know.
    pub fn resolve<'o>(
        &self,
        prog: &Program,
        g: &Graph,
        op: Cow<'o, Op>,
    ) -> Result<Cow<'o, Op>, String> {
        if self.base.is_empty() || !op.exprs().iter().any(|e| self.read(e)) {
            return Ok(op);
        }
        let mut missing = None;
        let out = op.map_exprs(&mut |e| self.expr(prog, g, e, &mut missing));
        match missing {
            Some(x) => Err(format!(
                "what `{}` points to is not known here",
                prog.var(x).name
            )),
            None => Ok(Cow::Owned(out)),
        }
    }

    /// Whether `e` dereferences a slot.
    fn read(&self, e: &Expr) -> bool {
        let mut found = false;
        e.visit(&mut |x| {
            if let ExprKind::Deref(a) = &x.kind
                && let ExprKind::Var(p) = &a.kind
            {
                found |= self.base.contains_key(p);
            }
        });
        found
    }

    fn expr(&self, prog: &Program, g: &Graph, e: &Expr, missing: &mut Option<VarId>) -> Expr {
        if let ExprKind::Deref(a) = &e.kind
            && let ExprKind::Var(p) = &a.kind
            && let Some(s) = self.base(*p)
        {
            let Some(t) = g.constant(*p).map(decode) else {
                *missing = Some(*p);
                return e.clone();
            };
            return match t {
                Target::Var(v) => Expr {
                    kind: ExprKind::Var(v),
                    ty: e.ty.clone(),
                },
                Target::Field(i) => {
                    let f = &prog.strukt(s).fields[i];
                    let cell = Expr {
                        kind: ExprKind::Deref(Box::new(self.as_pointer(*p).expect("a slot"))),
                        ty: Type::Struct(s),
                    };
                    Expr {
                        kind: ExprKind::Field(Box::new(cell), f.offset, f.name.clone()),
                        ty: f.ty.clone(),
                    }
                }
            };
        }
        e.map_children(&mut |x| self.expr(prog, g, x, missing))
    }
}

/// The struct `s` of a type `struct s **`.
fn slot_type(ty: &Type) -> Option<StructId> {
    match ty.pointee()?.pointee()? {
        Type::Struct(s) => Some(*s),
        _ => None,
    }
}

/// `e` without casts between pointer types.
fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(a) if a.ty.pointee().is_some() && a.ty == e.ty => strip(a),
        _ => e,
    }
}

fn var_of(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(x) => Some(*x),
        _ => None,
    }
}

/// What `rhs` gives a slot: `&v`, `&e->f` (with `e` and the struct of `f`), or a variable
/// that must be a slot too.
fn value(rhs: &Expr) -> Option<Value<'_>> {
    match &strip(rhs).kind {
        ExprKind::AddrOf(a) => match &a.kind {
            ExprKind::Var(v) => Some(Value::Var(*v)),
            ExprKind::Field(base, _, _) => match (&base.kind, &base.ty) {
                (ExprKind::Deref(p), Type::Struct(s)) => Some(Value::Field(p, *s)),
                _ => None,
            },
            _ => None,
        },
        ExprKind::Var(q) => Some(Value::Slot(*q)),
        _ => None,
    }
}

/// An assignment to a candidate: `pp = rhs`, or an argument bound to a candidate parameter.
struct Assignment<'p> {
    /// The candidate.
    slot: VarId,
    /// The value; `None` for a call's result or a nondeterministic value.
    rhs: Option<Expr>,
    /// The function of the edge.
    func: FuncId,
    /// The edge.
    edge: &'p Edge,
    /// Whether the value is an argument bound to a parameter of the callee.
    bound: bool,
}

/// Every assignment to a candidate.
fn assignments<'p>(
    prog: &'p Program,
    refs: &RefParams,
    cands: &BTreeSet<VarId>,
) -> Vec<Assignment<'p>> {
    let mut out = vec![];
    for (i, f) in prog.functions.iter().enumerate() {
        let func = FuncId(i as u32);
        for edge in f.cfa.edge_weights() {
            let op = refs.rewrite(&edge.op);
            let mut push = |slot: VarId, rhs: Option<Expr>, bound: bool| {
                out.push(Assignment {
                    slot,
                    rhs,
                    func,
                    edge,
                    bound,
                })
            };
            match &*op {
                Op::Assign { lhs, rhs } => {
                    if let Some(x) = var_of(lhs).filter(|x| cands.contains(x)) {
                        push(x, Some(rhs.clone()), false);
                    }
                }
                Op::Call { lhs, callee, args } => {
                    if let Some(x) = lhs.as_ref().and_then(var_of).filter(|x| cands.contains(x)) {
                        push(x, None, false);
                    }
                    if let Callee::Func(g) = callee {
                        for (p, a) in prog.func(*g).params.iter().zip(args) {
                            if cands.contains(p) && refs.target(*p).is_none() {
                                push(*p, Some(a.clone()), true);
                            }
                        }
                    }
                }
                Op::CallPtr { lhs, .. } => {
                    if let Some(x) = lhs.as_ref().and_then(var_of).filter(|x| cands.contains(x)) {
                        push(x, None, false);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The slots that may address a variable after its lifetime ended: a write through them
/// would go unseen. Each slot's variables (its own `&v` and, through copies, the other
/// slots') must be globals, or, for a value bound to a parameter, in scope at the call, or
/// otherwise in scope wherever the slot is in the function that assigns it (a local of
/// another function never is).
fn outlived(prog: &Program, all: &[Assignment], keep: &BTreeSet<VarId>) -> BTreeSet<VarId> {
    let mut vars: BTreeMap<VarId, BTreeSet<VarId>> = BTreeMap::new();
    for _ in 0..=all.len() {
        let mut changed = false;
        for a in all.iter().filter(|a| keep.contains(&a.slot)) {
            let add = addressed(a, &vars);
            let entry = vars.entry(a.slot).or_default();
            let before = entry.len();
            entry.extend(add);
            changed |= entry.len() != before;
        }
        if !changed {
            break;
        }
    }
    let global = |v: VarId| prog.var(v).kind == VarKind::Global;
    let mut out = BTreeSet::new();
    for a in all.iter().filter(|a| keep.contains(&a.slot)) {
        let targets = addressed(a, &vars);
        let ok = |v: VarId| {
            if global(v) {
                return true;
            }
            if a.bound {
                return a.edge.in_scope.contains(&v);
            }
            prog.var(a.slot).kind == VarKind::Local(a.func)
                && prog
                    .func(a.func)
                    .cfa
                    .edge_weights()
                    .all(|e| !e.in_scope.contains(&a.slot) || e.in_scope.contains(&v))
        };
        if !targets.into_iter().all(ok) {
            out.insert(a.slot);
        }
    }
    out
}

/// The variables assignment `a` may make its slot address, given those each slot may
/// address (`vars`).
fn addressed(a: &Assignment, vars: &BTreeMap<VarId, BTreeSet<VarId>>) -> BTreeSet<VarId> {
    match a.rhs.as_ref().and_then(value) {
        Some(Value::Var(v)) => [v].into(),
        Some(Value::Slot(q)) => vars.get(&q).cloned().unwrap_or_default(),
        _ => BTreeSet::new(),
    }
}

/// The candidates whose every value and every use qualify, and the struct of each one's
/// cells (`None`-free for those with a field value); one step of the fixpoint.
fn qualify(
    prog: &Program,
    refs: &RefParams,
    cands: &BTreeSet<VarId>,
) -> (BTreeSet<VarId>, BTreeMap<VarId, StructId>) {
    let mut keep = cands.clone();
    let mut base: BTreeMap<VarId, StructId> = BTreeMap::new();
    let mut links: Vec<(VarId, VarId)> = vec![];
    let all = assignments(prog, refs, cands);
    for a in &all {
        let x = a.slot;
        let Some(rhs) = &a.rhs else {
            keep.remove(&x);
            continue;
        };
        if strip(rhs).ty != prog.var(x).ty {
            keep.remove(&x);
            continue;
        }
        match value(rhs) {
            Some(Value::Var(_)) => {}
            Some(Value::Field(_, s)) => {
                if *base.entry(x).or_insert(s) != s {
                    keep.remove(&x);
                }
            }
            Some(Value::Slot(q)) if cands.contains(&q) => {
                links.push((x, q));
            }
            _ => {
                keep.remove(&x);
            }
        }
    }
    // Slots copied into each other share their struct.
    for _ in 0..=links.len() {
        for &(x, q) in &links {
            match (base.get(&x).copied(), base.get(&q).copied()) {
                (Some(a), Some(b)) if a != b => {
                    keep.remove(&x);
                    keep.remove(&q);
                }
                (Some(a), None) => {
                    base.insert(q, a);
                }
                (None, Some(b)) => {
                    base.insert(x, b);
                }
                _ => {}
            }
        }
    }
    for &(x, q) in &links {
        if !keep.contains(&q) {
            keep.remove(&x);
        }
        if !keep.contains(&x) {
            keep.remove(&q);
        }
    }
    for x in misused(prog, refs, cands) {
        keep.remove(&x);
    }
    for x in outlived(prog, &all, &keep) {
        keep.remove(&x);
    }
    (keep, base)
}

/// The candidates used other than as `*pp`, as a slot's new value, or as the argument of a
/// reference parameter.
fn misused(prog: &Program, refs: &RefParams, cands: &BTreeSet<VarId>) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    // A candidate is misused where it occurs other than as `*pp`, or as `&pp`.
    let scan = |e: &Expr, out: &mut BTreeSet<VarId>| {
        let mut seen: BTreeMap<VarId, (usize, usize)> = BTreeMap::new();
        e.visit(&mut |x| match &x.kind {
            ExprKind::Var(v) if cands.contains(v) => seen.entry(*v).or_default().0 += 1,
            ExprKind::Deref(a) => {
                if let ExprKind::Var(v) = &a.kind
                    && cands.contains(v)
                {
                    seen.entry(*v).or_default().1 += 1;
                }
            }
            _ => {}
        });
        out.extend(
            (seen.into_iter())
                .filter(|(_, (all, read))| all > read)
                .map(|(v, _)| v),
        );
    };
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            let op = refs.rewrite(&e.op);
            match &*op {
                Op::Assign { lhs, rhs } if var_of(lhs).is_some_and(|x| cands.contains(&x)) => {
                    if let ExprKind::Var(_) = &strip(rhs).kind {
                    } else {
                        scan(rhs, &mut out);
                    }
                }
                Op::Call {
                    callee: Callee::Func(g),
                    lhs,
                    args,
                } => {
                    if let Some(l) = lhs
                        && var_of(l).is_none_or(|x| !cands.contains(&x))
                    {
                        scan(l, &mut out);
                    }
                    let kept: BTreeSet<*const Expr> = refs
                        .exprs(prog, &op)
                        .into_iter()
                        .map(|e| e as *const Expr)
                        .collect();
                    for (i, a) in args.iter().enumerate() {
                        if !kept.contains(&(a as *const Expr)) {
                            continue;
                        }
                        let to_slot = prog
                            .func(*g)
                            .params
                            .get(i)
                            .is_some_and(|p| cands.contains(p));
                        if !(to_slot && matches!(strip(a).kind, ExprKind::Var(_))) {
                            scan(a, &mut out);
                        }
                    }
                }
                op => {
                    for x in op.exprs() {
                        scan(x, &mut out);
                    }
                }
            }
        }
    }
    out
}

/// The variables some slot's value `&v` addresses.
fn targets(prog: &Program, refs: &RefParams, slots: &BTreeSet<VarId>) -> BTreeSet<VarId> {
    assignments(prog, refs, slots)
        .into_iter()
        .filter_map(|a| match value(a.rhs.as_ref()?) {
            Some(Value::Var(v)) => Some(v),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::alias::tests::var;
    use super::*;
    use crate::program::frontend::load_source as load;

    fn slots(body: &str) -> (Program, Slots) {
        let prog = load(&format!(
            "struct n {{ struct n *next; struct n *left; int v; }};\n\
             struct m {{ struct n *first; }};\n\
             extern int __VERIFIER_nondet_int(void);\n{body}"
        ));
        let slots = Slots::new(&prog, &RefParams::new(&prog));
        (prog, slots)
    }

    fn base_name(prog: &Program, slots: &Slots, func: &str, name: &str) -> Option<String> {
        let s = slots.base(var(prog, func, name))?;
        Some(prog.strukt(s).name.clone())
    }

    #[test]
    fn a_cursor_over_links_is_a_slot_with_the_struct_of_its_cells() {
        let (prog, slots) = slots(
            "int main(void) { struct n *h = 0; struct n **pp = &h;\n\
               while (*pp) pp = __VERIFIER_nondet_int() ? &(*pp)->next : &(*pp)->left;\n\
               struct n **qq = pp; *qq = 0; return 0; }\n",
        );
        assert_eq!(
            base_name(&prog, &slots, "main", "pp").as_deref(),
            Some("struct n")
        );
        assert_eq!(
            base_name(&prog, &slots, "main", "qq").as_deref(),
            Some("struct n")
        );
        assert!(slots.is_target(var(&prog, "main", "h")));
        // `&h` drops out of the expressions whose addresses matter, `&(*pp)->next` is `*pp`.
        let main = prog.functions.iter().find(|f| f.name == "main").unwrap();
        let refs = RefParams::new(&prog);
        for e in main.cfa.edge_weights() {
            for x in slots.checked(&prog, &refs, &e.op) {
                x.visit(&mut |y| assert!(!matches!(y.kind, ExprKind::AddrOf(_)), "{y:?}"));
            }
        }
    }

    #[test]
    fn fields_of_two_structs_a_compared_slot_or_a_taken_address_disqualify() {
        let (prog, slots) = slots(
            "int main(void) { struct m *o = 0; struct n *h = 0;\n\
               struct n **a = &o->first; a = &h->next;\n\
               struct n **b = &h; if (b) *b = 0;\n\
               struct n **c = &h; struct n ***cc = &c; **cc = 0;\n\
               struct n **d = &h; d++; return 0; }\n",
        );
        for name in ["a", "b", "c", "d"] {
            assert_eq!(base_name(&prog, &slots, "main", name), None, "{name}");
        }
    }

    #[test]
    fn a_slot_that_may_outlive_the_variable_it_addresses_is_not_one() {
        let (prog, slots) = slots(
            "int main(void) { struct n **pp; struct n *h = 0; struct n **ok = &h;\n\
               { struct n *tmp = 0; pp = &tmp; } *pp = 0; *ok = 0; return 0; }\n",
        );
        assert_eq!(base_name(&prog, &slots, "main", "pp"), None);
        assert_eq!(
            base_name(&prog, &slots, "main", "ok").as_deref(),
            Some("struct n")
        );
    }

    #[test]
    fn resolving_reads_the_target_the_graph_records() {
        let (prog, slots) =
            slots("int main(void) { struct n *h = 0; struct n **pp = &h; *pp = 0; return 0; }\n");
        let pp = var(&prog, "main", "pp");
        let h = var(&prog, "main", "h");
        let main = prog.functions.iter().find(|f| f.name == "main").unwrap();
        let store = main
            .cfa
            .edge_weights()
            .find(|e| matches!(&e.op, Op::Assign { lhs, .. } if matches!(lhs.kind, ExprKind::Deref(_))))
            .expect("*pp = 0");
        let mut g = Graph {
            n: 0,
            ty: vec![],
            sm: vec![],
            un: vec![],
            bin: vec![],
            invalid: vec![],
            consts: vec![],
            excluded: vec![],
            equal: vec![],
        };
        let err = slots
            .resolve(&prog, &g, Cow::Borrowed(&store.op))
            .unwrap_err();
        assert!(err.contains("pp"), "{err}");
        g.set_constant(pp, Some(encode(Target::Var(h))));
        let op = slots.resolve(&prog, &g, Cow::Borrowed(&store.op)).unwrap();
        assert!(
            matches!(&*op, Op::Assign { lhs, .. } if matches!(lhs.kind, ExprKind::Var(x) if x == h))
        );
        g.set_constant(pp, Some(encode(Target::Field(1))));
        let op = slots.resolve(&prog, &g, Cow::Borrowed(&store.op)).unwrap();
        let Op::Assign { lhs, .. } = &*op else {
            panic!()
        };
        assert!(
            matches!(&lhs.kind, ExprKind::Field(_, _, f) if f == "left"),
            "{lhs:?}"
        );
        assert_eq!(decode(encode(Target::Var(h))), Target::Var(h));
    }
}

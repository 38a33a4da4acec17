//! Calls through function pointers whose targets are known: a callback stored once
//! (`void (*destroy)(struct node *) = free_node;`), a strategy chosen between two functions,
//! a function pointer passed as an argument (`walk(list, print_node)`). The engines that
//! follow a program's calls (the shape analysis, the inlining engines) refuse a call through
//! a pointer, so such programs ended UNKNOWN however simple their heap.
//!
//! Consumes a lowered [`Program`]; produces the same program with each call `(*fp)(args)`
//! whose pointer surely holds one of a known set of defined functions `g1..gk` replaced by a
//! direct call when k = 1, or by a dispatch `if (fp == &g1) g1(args) else if ... else
//! gk(args)` otherwise. The set is known when `fp` (after casts) is a function-pointer
//! variable whose address is never taken and every value it can get is the address of a
//! defined function or of such a variable, computed as a least fixpoint over the whole
//! program: assignments, and for a parameter the arguments of every direct call of a
//! function whose own address is never taken. `fp` must also surely hold a value at the
//! call: a parameter always does, a global only if its initialiser sets it, a local only if
//! it is assigned on every path from its function's entry (and from its declaration's
//! `<uninitialised>`) to the call. Any other value (NULL, the result of a call, a field, an
//! external function) leaves the call as it is. No run changes: the call made is the one
//! the pointer's value names.

use super::ir::*;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{BTreeMap, BTreeSet};

/// The functions a pointer may name: a known set, or `None` when it may hold anything else.
type Targets = Option<BTreeSet<FuncId>>;

/// Replaces every call through a function pointer whose targets are known (see the module
/// docs).
pub fn resolve(prog: &mut Program) {
    let values = Values::of(prog);
    for fi in 0..prog.functions.len() {
        let calls: Vec<(EdgeIndex, Vec<FuncId>)> = {
            let f = &prog.functions[fi];
            let mut defined = Defined::new(f);
            f.cfa
                .edge_references()
                .filter_map(|e| {
                    let Op::CallPtr { target, .. } = &e.weight().op else {
                        return None;
                    };
                    let set = values.sure(prog, target, &mut defined, e.source())?;
                    Some((e.id(), set.into_iter().collect()))
                })
                .collect()
        };
        // Highest index first: removing an edge moves the last one into its place.
        let mut calls = calls;
        calls.sort_by_key(|(e, _)| std::cmp::Reverse(*e));
        for (e, targets) in calls {
            dispatch(&mut prog.functions[fi], e, &targets);
        }
    }
}

/// Every function-pointer variable's [`Targets`], flow-insensitively.
struct Values {
    of: BTreeMap<VarId, Targets>,
}

impl Values {
    fn of(prog: &Program) -> Values {
        let taken = prog.address_taken();
        let called_through_pointers = functions_whose_address_is_taken(prog);
        let mut of: BTreeMap<VarId, Targets> = BTreeMap::new();
        for (i, v) in prog.vars.iter().enumerate() {
            let x = VarId(i as u32);
            if is_fn_ptr(&v.ty) {
                let open = taken.contains(&x)
                    || matches!(v.kind, VarKind::Global) && !initialised(prog, x);
                of.insert(x, if open { None } else { Some(BTreeSet::new()) });
            }
        }
        // Parameters of `main` and of functions called through pointers get values this
        // pass does not follow.
        for (fi, f) in prog.functions.iter().enumerate() {
            if FuncId(fi as u32) == prog.main
                || called_through_pointers.contains(&FuncId(fi as u32))
            {
                for p in &f.params {
                    of.entry(*p).and_modify(|t| *t = None);
                }
            }
        }
        // A value copied from a local that may not hold one yet is no known function.
        for x in unset_copies(prog) {
            of.entry(x).and_modify(|t| *t = None);
        }
        let mut values = Values { of };
        while values.step(prog) {}
        values
    }

    /// One pass over every edge; whether a set grew.
    fn step(&mut self, prog: &Program) -> bool {
        let mut changed = false;
        for f in &prog.functions {
            for e in f.cfa.edge_weights() {
                match &e.op {
                    Op::Assign { lhs, rhs } => {
                        if let ExprKind::Var(v) = lhs.kind {
                            let t = self.eval(prog, rhs);
                            changed |= self.join(v, t);
                        }
                    }
                    Op::Call { lhs, callee, args } => {
                        if let Some(Expr {
                            kind: ExprKind::Var(v),
                            ..
                        }) = lhs
                        {
                            changed |= self.join(*v, None);
                        }
                        if let Callee::Func(g) = callee {
                            let params = &prog.func(*g).params;
                            for (p, a) in params.iter().zip(args) {
                                let t = self.eval(prog, a);
                                changed |= self.join(*p, t);
                            }
                        }
                    }
                    Op::CallPtr {
                        lhs:
                            Some(Expr {
                                kind: ExprKind::Var(v),
                                ..
                            }),
                        ..
                    } => changed |= self.join(*v, None),
                    _ => {}
                }
            }
        }
        changed
    }

    /// Adds `t` to `v`'s set (if `v` is a function-pointer variable); whether it grew.
    fn join(&mut self, v: VarId, t: Targets) -> bool {
        let Some(cur) = self.of.get_mut(&v) else {
            return false;
        };
        match (cur.as_mut(), t) {
            (None, _) => false,
            (Some(_), None) => {
                *cur = None;
                true
            }
            (Some(s), Some(t)) => {
                let before = s.len();
                s.extend(t);
                s.len() != before
            }
        }
    }

    /// The functions `e` may name.
    fn eval(&self, prog: &Program, e: &Expr) -> Targets {
        match &e.kind {
            ExprKind::FuncAddr(g) if prog.func(*g).defined => Some(BTreeSet::from([*g])),
            ExprKind::Cast(x) => self.eval(prog, x),
            ExprKind::Var(v) => self.of.get(v).cloned().flatten(),
            _ => None,
        }
    }

    /// The functions `target` surely names at location `at` of the function `defined` is of,
    /// if they are known and it surely holds a value there.
    fn sure(
        &self,
        prog: &Program,
        target: &Expr,
        defined: &mut Defined,
        at: NodeIndex,
    ) -> Option<BTreeSet<FuncId>> {
        let mut t = target;
        while let ExprKind::Cast(x) = &t.kind {
            t = x;
        }
        let ExprKind::Var(v) = t.kind else {
            return None;
        };
        let set = self.eval(prog, t).filter(|s| !s.is_empty())?;
        let holds = match prog.var(v).kind {
            VarKind::Global => true,
            _ => defined.at(v, at),
        };
        holds.then_some(set)
    }
}

/// The variables given the value of a function-pointer local where that local may not hold a
/// value yet: assigned it, or the parameter it is passed to.
fn unset_copies(prog: &Program) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    for f in &prog.functions {
        let mut defined = Defined::new(f);
        for e in f.cfa.edge_references() {
            let unset = |x: &Expr, defined: &mut Defined| {
                let mut x = x;
                while let ExprKind::Cast(a) = &x.kind {
                    x = a;
                }
                match x.kind {
                    ExprKind::Var(w) => {
                        is_fn_ptr(&prog.var(w).ty)
                            && !matches!(prog.var(w).kind, VarKind::Global)
                            && !defined.at(w, e.source())
                    }
                    _ => false,
                }
            };
            match &e.weight().op {
                Op::Assign { lhs, rhs } => {
                    if let ExprKind::Var(v) = lhs.kind
                        && unset(rhs, &mut defined)
                    {
                        out.insert(v);
                    }
                }
                Op::Call {
                    callee: Callee::Func(g),
                    args,
                    ..
                } => {
                    for (p, a) in prog.func(*g).params.iter().zip(args) {
                        if unset(a, &mut defined) {
                            out.insert(*p);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether `ty` is a pointer to a function.
fn is_fn_ptr(ty: &Type) -> bool {
    matches!(ty.pointee(), Some(Type::Func))
}

/// The functions whose address the program takes.
fn functions_whose_address_is_taken(prog: &Program) -> BTreeSet<FuncId> {
    let mut out = BTreeSet::new();
    prog.visit_exprs(&mut |_, e| {
        if let ExprKind::FuncAddr(g) = e.kind {
            out.insert(g);
        }
    });
    out
}

/// Whether the initialiser of globals assigns `v` (else it starts as NULL).
fn initialised(prog: &Program, v: VarId) -> bool {
    (prog.func(prog.init).cfa.edge_weights()).any(|e| {
        matches!(&e.op, Op::Assign { lhs, .. } if matches!(lhs.kind, ExprKind::Var(x) if x == v))
    })
}

/// Definite assignment of the locals of one function, computed per variable on demand.
struct Defined<'f> {
    f: &'f Function,
    cache: BTreeMap<VarId, Vec<bool>>,
}

impl<'f> Defined<'f> {
    fn new(f: &'f Function) -> Defined<'f> {
        Defined {
            f,
            cache: BTreeMap::new(),
        }
    }

    /// Whether `v` holds a value at `at` on every path from the entry: a parameter always;
    /// a local once assigned, and no longer after its declaration's `<uninitialised>`.
    fn at(&mut self, v: VarId, at: NodeIndex) -> bool {
        let f = self.f;
        let table = self
            .cache
            .entry(v)
            .or_insert_with(|| definitely_assigned(f, v));
        table.get(at.index()).copied().unwrap_or(false)
    }
}

/// Per location of `f`, whether `v` surely holds a value there (a forward must analysis).
fn definitely_assigned(f: &Function, v: VarId) -> Vec<bool> {
    let n = f.cfa.node_count();
    let mut state: Vec<Option<bool>> = vec![None; n];
    state[f.entry.index()] = Some(f.params.contains(&v));
    let mut work = vec![f.entry];
    while let Some(l) = work.pop() {
        let Some(here) = state[l.index()] else {
            continue;
        };
        for e in f.cfa.edges(l) {
            let out = match &e.weight().op {
                Op::Havoc(x) if *x == v => false,
                Op::Assign { lhs, .. } if matches!(lhs.kind, ExprKind::Var(x) if x == v) => true,
                Op::Call { lhs: Some(l), .. } | Op::CallPtr { lhs: Some(l), .. } if matches!(l.kind, ExprKind::Var(x) if x == v) => {
                    true
                }
                _ => here,
            };
            let t = e.target().index();
            let met = match state[t] {
                None => Some(out),
                Some(old) => Some(old && out),
            };
            if met != state[t] {
                state[t] = met;
                work.push(e.target());
            }
        }
    }
    state.into_iter().map(|s| s.unwrap_or(false)).collect()
}

/// Replaces call edge `e` of `f` by direct calls of `targets`, tested in order but the last.
fn dispatch(f: &mut Function, e: EdgeIndex, targets: &[FuncId]) {
    let (from, to) = f.cfa.edge_endpoints(e).expect("an edge of the function");
    let edge = f.cfa.remove_edge(e).expect("an edge of the function");
    let Op::CallPtr { lhs, target, args } = edge.op.clone() else {
        unreachable!("only calls through pointers are dispatched")
    };
    let with = |op: Op| Edge { op, ..edge.clone() };
    let call = |g: FuncId| Op::Call {
        lhs: lhs.clone(),
        callee: Callee::Func(g),
        args: args.clone(),
    };
    let mut cur = from;
    let (last, tested) = targets.split_last().expect("at least one target");
    for g in tested {
        let is_g = Expr {
            kind: ExprKind::Cmp(
                CmpOp::Eq,
                Box::new(target.clone()),
                Box::new(Expr {
                    kind: ExprKind::FuncAddr(*g),
                    ty: target.ty.clone(),
                }),
            ),
            ty: Type::Int(IntTy::INT),
        };
        let yes = f.cfa.add_node(Loc::default());
        let no = f.cfa.add_node(Loc::default());
        let test = |positive| Op::Assume {
            cond: is_g.clone(),
            positive,
        };
        f.cfa.add_edge(cur, yes, with(test(true)));
        f.cfa.add_edge(yes, to, with(call(*g)));
        f.cfa.add_edge(cur, no, with(test(false)));
        cur = no;
    }
    f.cfa.add_edge(cur, to, with(call(*last)));
}

#[cfg(test)]
mod tests {
    use crate::program::cfa;
    use crate::program::frontend::load_source;

    /// The operations of `name`'s CFA, printed.
    fn ops(src: &str, name: &str) -> Vec<String> {
        let p = load_source(src);
        let f = p.func(p.func_by_name(name).expect("the function"));
        f.cfa.edge_weights().map(|e| cfa::op(&p, &e.op)).collect()
    }

    /// Whether some operation is the call `call`, its result kept or not.
    fn has_call(ops: &[String], call: &str) -> bool {
        ops.iter()
            .any(|o| o == call || o.ends_with(&format!(" = {call}")))
    }

    #[test]
    fn a_pointer_that_surely_names_known_functions_is_called_directly() {
        let src = "void a(void) {} void b(void) {}
             void run(void (*cb)(void)) { cb(); }
             int nd(void);
             int main(void) {
               void (*one)(void) = a; one();
               void (*two)(void); if (nd()) two = a; else two = b; two();
               run(b);
               return 0; }";
        let main = ops(src, "main");
        assert!(has_call(&main, "a()"), "{main:?}");
        assert!(!main.iter().any(|o| o.contains("(*")), "{main:?}");
        // Two targets: a test of the first, each called directly, no test of the last.
        assert!(main.iter().any(|o| o == "[two == a]"), "{main:?}");
        assert!(main.iter().any(|o| o == "[!(two == a)]"), "{main:?}");
        assert!(has_call(&main, "b()"), "{main:?}");
        assert!(!main.iter().any(|o| o.contains("== b")), "{main:?}");
        let run = ops(src, "run");
        assert!(has_call(&run, "b()"), "{run:?}");
    }

    #[test]
    fn a_pointer_that_may_hold_anything_else_is_left_alone() {
        let src = "void a(void) {} void ext(void); int nd(void);
             void run(void (*cb)(void)) { cb(); }
             void (*g)(void);
             void (*h)(void) = a;
             void (*get(void))(void) { return a; }
             struct ops { void (*f)(void); };
             int main(void) {
               void (*maybe)(void); if (nd()) maybe = a; maybe();
               void (*null)(void) = 0; if (nd()) null = a; null();
               void (*out)(void) = ext; out();
               void (*ret)(void) = get(); ret();
               void (*taken)(void) = a; void (**pt)(void) = &taken; taken();
               struct ops o; o.f = a; o.f();
               g = a; g();
               h();
               void (*late)(void); if (nd()) late = a; run(late);
               return 0; }";
        let main = ops(src, "main");
        for kept in [
            "(*maybe)()",
            "(*null)()",
            "(*out)()",
            "(*ret)()",
            "(*taken)()",
            "(*g)()",
        ] {
            assert!(has_call(&main, kept), "{kept}: {main:?}");
        }
        let run = ops(src, "run");
        assert!(has_call(&run, "(*cb)()"), "{run:?}");
        // A global its initialiser sets to one function.
        assert!(
            !has_call(&main, "(*h)()") && has_call(&main, "a()"),
            "{main:?}"
        );
    }
}

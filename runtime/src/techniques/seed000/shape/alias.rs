//! Reference parameters: a parameter `pp` through which a function reads and writes one
//! variable of a caller (`chain_node(&list)`, `sll_append(&head, ...)`), so that the shape
//! analysis can treat `*pp` as that variable instead of refusing the program because the
//! address of a tracked pointer is taken.
//!
//! Consumes a [`Program`]; produces [`RefParams`]: the parameters proved to hold the address
//! of one fixed variable `v` whenever their function runs, with the operations rewritten so
//! that `*pp` reads and writes `v`. A parameter qualifies when its function is only called
//! directly (its address is never taken) and not from the entry, every call passes `&v` for
//! the same `v` (or another such parameter bound to `v`), the parameter is never assigned
//! and its address never taken, and the function uses it only as `*pp` or as such an
//! argument. Then `pp == &v` holds throughout the function's body; since the shape analysis
//! inlines calls and refuses recursion, `v` names the one live instance of the caller's
//! variable, so the rewrite changes no run. Everything else (the explicit engine, path
//! formulas, replay) runs on the program as written.

use crate::program::ir::{Callee, Expr, ExprKind, FuncId, Op, Program, Type, VarId};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// The reference parameters of a program and the variables they denote.
#[derive(Clone, Debug, Default)]
pub struct RefParams {
    target: BTreeMap<VarId, VarId>,
}

impl RefParams {
    /// The reference parameters of `prog`.
    pub fn new(prog: &Program) -> RefParams {
        let mut cands: BTreeSet<VarId> = candidates(prog);
        loop {
            let target = bind(prog, &cands);
            let keep: BTreeSet<VarId> = cands
                .iter()
                .copied()
                .filter(|p| target.contains_key(p) && only_dereferenced(prog, *p, &cands))
                .collect();
            if keep == cands {
                return RefParams { target };
            }
            cands = keep;
        }
    }

    /// Whether the program has none.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The variable `p` stands for, if it is a reference parameter.
    pub fn target(&self, p: VarId) -> Option<VarId> {
        self.target.get(&p).copied()
    }

    /// The variables a call passes by reference (`&v` bound to a reference parameter, or a
    /// reference parameter passed on): they stay live while the callee runs.
    pub fn passed(&self, prog: &Program, op: &Op) -> Vec<VarId> {
        let Op::Call {
            callee: Callee::Func(g),
            ..
        } = op
        else {
            return vec![];
        };
        prog.func(*g)
            .params
            .iter()
            .filter_map(|p| self.target(*p))
            .collect()
    }

    /// The expressions of `op` except the arguments bound to reference parameters (whose
    /// `&v` is no escape: the callee's `*pp` is read as `v`).
    pub fn exprs<'o>(&self, prog: &Program, op: &'o Op) -> Vec<&'o Expr> {
        match op {
            Op::Call {
                lhs,
                callee: Callee::Func(g),
                args,
            } => {
                let params = &prog.func(*g).params;
                let by_value = args
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| params.get(*i).is_none_or(|p| !self.target.contains_key(p)));
                lhs.iter().chain(by_value.map(|(_, a)| a)).collect()
            }
            _ => op.exprs(),
        }
    }

    /// `op` with every `*pp` replaced by the variable `pp` stands for.
    pub fn rewrite<'o>(&self, op: &'o Op) -> Cow<'o, Op> {
        if self.is_empty() || !op.exprs().iter().any(|e| self.mentions(e)) {
            return Cow::Borrowed(op);
        }
        Cow::Owned(op.map_exprs(&mut |e| self.expr(e)))
    }

    fn mentions(&self, e: &Expr) -> bool {
        let mut found = false;
        e.visit(&mut |x| {
            if let ExprKind::Var(v) = &x.kind {
                found |= self.target.contains_key(v);
            }
        });
        found
    }

    fn expr(&self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Deref(a) => match &a.kind {
                ExprKind::Var(p) if self.target.contains_key(p) => Expr {
                    kind: ExprKind::Var(self.target[p]),
                    ty: e.ty.clone(),
                },
                _ => e.map_children(&mut |x| self.expr(x)),
            },
            _ => e.map_children(&mut |x| self.expr(x)),
        }
    }
}

/// Parameters of scalar-pointer type of functions that are defined, not the entry, called
/// directly at least once and never through a pointer, and never assigned or address-taken.
fn candidates(prog: &Program) -> BTreeSet<VarId> {
    let mut called: BTreeSet<FuncId> = BTreeSet::new();
    let mut banned: BTreeSet<VarId> = BTreeSet::new();
    let mut by_pointer: BTreeSet<FuncId> = BTreeSet::new();
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            if let Op::Call {
                callee: Callee::Func(g),
                ..
            } = &e.op
            {
                called.insert(*g);
            }
            match &e.op {
                Op::Assign { lhs, .. } | Op::Call { lhs: Some(lhs), .. } => {
                    if let ExprKind::Var(x) = &lhs.kind {
                        banned.insert(*x);
                    }
                }
                Op::CallPtr { lhs: Some(lhs), .. } => {
                    if let ExprKind::Var(x) = &lhs.kind {
                        banned.insert(*x);
                    }
                }
                Op::Havoc(x) => {
                    banned.insert(*x);
                }
                _ => {}
            }
            for x in e.op.exprs() {
                x.visit(&mut |y| match &y.kind {
                    ExprKind::AddrOf(a) => {
                        if let ExprKind::Var(v) = &a.kind {
                            banned.insert(*v);
                        }
                    }
                    ExprKind::FuncAddr(g) => {
                        by_pointer.insert(*g);
                    }
                    _ => {}
                });
            }
        }
    }
    let mut out = BTreeSet::new();
    for (i, f) in prog.functions.iter().enumerate() {
        let id = FuncId(i as u32);
        if !f.defined || id == prog.main || id == prog.init || by_pointer.contains(&id) {
            continue;
        }
        if !called.contains(&id) {
            continue;
        }
        for p in &f.params {
            let scalar = matches!(prog.var(*p).ty.pointee(), Some(Type::Ptr(_) | Type::Int(_)));
            if scalar && !banned.contains(p) {
                out.insert(*p);
            }
        }
    }
    out
}

/// The variable every call binds each candidate to, for the candidates with exactly one.
fn bind(prog: &Program, cands: &BTreeSet<VarId>) -> BTreeMap<VarId, VarId> {
    // Arguments per candidate: `&v`, another candidate, or anything else (None).
    let mut args: BTreeMap<VarId, Vec<Option<Arg>>> = BTreeMap::new();
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            let Op::Call {
                callee: Callee::Func(g),
                args: actual,
                ..
            } = &e.op
            else {
                continue;
            };
            for (p, a) in prog.func(*g).params.iter().zip(actual) {
                if cands.contains(p) {
                    args.entry(*p).or_default().push(arg(prog, a, *p));
                }
            }
        }
    }
    let mut target: BTreeMap<VarId, VarId> = BTreeMap::new();
    let mut failed: BTreeSet<VarId> = BTreeSet::new();
    loop {
        let mut changed = false;
        for (p, list) in &args {
            if failed.contains(p) || target.contains_key(p) {
                continue;
            }
            let mut seen: Option<VarId> = None;
            let mut ready = true;
            let mut ok = true;
            for a in list {
                let v = match a {
                    Some(Arg::Var(v)) => *v,
                    Some(Arg::Param(q)) if failed.contains(q) || !cands.contains(q) => {
                        ok = false;
                        break;
                    }
                    Some(Arg::Param(q)) => match target.get(q) {
                        Some(v) => *v,
                        None => {
                            ready = false;
                            continue;
                        }
                    },
                    None => {
                        ok = false;
                        break;
                    }
                };
                if seen.is_some_and(|s| s != v) {
                    ok = false;
                    break;
                }
                seen = Some(v);
            }
            match (ok, ready, seen) {
                (false, _, _) => {
                    failed.insert(*p);
                    changed = true;
                }
                (true, true, Some(v)) => {
                    target.insert(*p, v);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            // Candidates still waiting are bound only to each other (a cycle of calls, which
            // the shape analysis refuses anyway): they are not reference parameters.
            return target;
        }
    }
}

/// An argument bound to a candidate parameter.
enum Arg {
    /// `&v`, with `*p` of `v`'s type.
    Var(VarId),
    /// Another candidate parameter, passed on.
    Param(VarId),
}

fn arg(prog: &Program, a: &Expr, p: VarId) -> Option<Arg> {
    match &a.kind {
        ExprKind::AddrOf(x) => match &x.kind {
            ExprKind::Var(v) if prog.var(p).ty.pointee() == Some(&prog.var(*v).ty) => {
                Some(Arg::Var(*v))
            }
            _ => None,
        },
        ExprKind::Var(q) if prog.var(*q).ty == prog.var(p).ty => Some(Arg::Param(*q)),
        _ => None,
    }
}

/// Whether every occurrence of `p` is `*p` or a whole argument bound to a candidate.
fn only_dereferenced(prog: &Program, p: VarId, cands: &BTreeSet<VarId>) -> bool {
    for f in &prog.functions {
        for e in f.cfa.edge_weights() {
            let mut passed = 0;
            if let Op::Call {
                callee: Callee::Func(g),
                args,
                ..
            } = &e.op
            {
                for (q, a) in prog.func(*g).params.iter().zip(args) {
                    if matches!(a.kind, ExprKind::Var(x) if x == p) {
                        if !cands.contains(q) {
                            return false;
                        }
                        passed += 1;
                    }
                }
            }
            let (mut all, mut derefs) = (0, 0);
            for x in e.op.exprs() {
                x.visit(&mut |y| match &y.kind {
                    ExprKind::Var(v) if *v == p => all += 1,
                    ExprKind::Deref(a) if matches!(a.kind, ExprKind::Var(v) if v == p) => {
                        derefs += 1
                    }
                    _ => {}
                });
            }
            if all != derefs + passed {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::program::frontend::load_source as load;

    /// The local or parameter `name` of function `func`.
    pub(in crate::techniques::seed000::shape) fn var(
        prog: &Program,
        func: &str,
        name: &str,
    ) -> VarId {
        let f = prog
            .functions
            .iter()
            .find(|f| f.name == func)
            .expect("function");
        f.locals
            .iter()
            .chain(&f.params)
            .copied()
            .find(|x| prog.var(*x).name == name)
            .expect("variable")
    }

    const PUSH: &str = "struct n { struct n *next; };\n\
         extern int __VERIFIER_nondet_int(void);\n\
         void push(struct n **pp, struct n *c) { c->next = *pp; *pp = c; }\n";

    fn refs(body: &str) -> (Program, RefParams) {
        let prog = load(&format!("{PUSH}{body}"));
        let refs = RefParams::new(&prog);
        (prog, refs)
    }

    #[test]
    fn a_parameter_always_given_one_variables_address_stands_for_it() {
        let (prog, refs) = refs(
            "void two(struct n **q, struct n *c) { push(q, c); push(q, c); }\n\
             int main(void) { struct n *l = 0; struct n c;\n\
               push(&l, &c); two(&l, &c); return 0; }\n",
        );
        let l = var(&prog, "main", "l");
        assert_eq!(refs.target(var(&prog, "push", "pp")), Some(l));
        assert_eq!(refs.target(var(&prog, "two", "q")), Some(l));
        // `*pp = c` becomes `l = c`, and `&l` no longer counts as an escape.
        let push = prog.functions.iter().find(|f| f.name == "push").unwrap();
        let rewritten: Vec<String> = push
            .cfa
            .edge_weights()
            .map(|e| crate::program::cfa::op(&prog, &refs.rewrite(&e.op)))
            .collect();
        assert!(rewritten.iter().any(|s| s == "l = c"), "{rewritten:?}");
        let main = prog.functions.iter().find(|f| f.name == "main").unwrap();
        for e in main.cfa.edge_weights() {
            for x in refs.exprs(&prog, &e.op) {
                x.visit(&mut |y| {
                    if let ExprKind::AddrOf(a) = &y.kind {
                        assert!(!matches!(a.kind, ExprKind::Var(v) if v == l), "{y:?}");
                    }
                });
            }
        }
    }

    #[test]
    fn parameters_that_may_point_elsewhere_are_left_alone() {
        let cases = [
            // Two variables.
            "int main(void) { struct n *a = 0, *b = 0; struct n c;\n\
               push(&a, &c); push(&b, &c); return 0; }\n",
            // A pointer that is not an address of a variable.
            "int main(void) { struct n *a = 0; struct n **h = &a; struct n c;\n\
               push(h, &c); return 0; }\n",
        ];
        for body in cases {
            let (prog, refs) = refs(body);
            assert_eq!(refs.target(var(&prog, "push", "pp")), None, "{body}");
        }
        let other = [
            // Assigned in the body.
            "void f(struct n **pp, struct n **o) { pp = o; *pp = 0; }\n\
             int main(void) { struct n *a = 0, *b = 0; f(&a, &b); return 0; }\n",
            // Read as a value.
            "void f(struct n **pp, struct n **o) { if (pp) *pp = 0; }\n\
             int main(void) { struct n *a = 0, *b = 0; f(&a, &b); return 0; }\n",
            // Called through a pointer too.
            "void f(struct n **pp, struct n **o) { *pp = 0; }\n\
             void (*fp)(struct n **, struct n **) = f;\n\
             int main(void) { struct n *a = 0, *b = 0; f(&a, &b); fp(&b, &a); return 0; }\n",
        ];
        for body in other {
            let (prog, refs) = refs(body);
            assert_eq!(refs.target(var(&prog, "f", "pp")), None, "{body}");
        }
    }
}

//! Live variables: which locals and parameters of a function may still be read before they
//! are written, per CFA location (the classic backward may-analysis over each CFA).
//!
//! Consumes a [`Program`]; produces [`Liveness`], which the shape analysis asks for the dead
//! variables of an abstract location (the current function's and, at each caller's resume
//! location, the callers'). Forgetting a dead pointer changes no run, and it lets shape graphs
//! that differ only in where dead pointers point merge, so that a pointer whose job is done
//! (an allocation loop's cursor, a caller's temporaries during a check) no longer multiplies
//! the graphs at every location after it.

use super::alias::RefParams;
use super::analysis::Key;
use crate::program::ir::{Expr, ExprKind, FuncId, Op, Program, VarId, VarKind};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use std::collections::BTreeSet;

/// Live locals and parameters per function and location.
#[derive(Clone, Debug)]
pub struct Liveness {
    live: Vec<Vec<BTreeSet<VarId>>>,
}

impl Liveness {
    /// The liveness of every function of `prog`.
    pub fn new(prog: &Program) -> Liveness {
        let live = prog
            .functions
            .iter()
            .map(|f| {
                let n = f.cfa.node_count();
                let mut live: Vec<BTreeSet<VarId>> = vec![BTreeSet::new(); n];
                let edges: Vec<(usize, usize, BTreeSet<VarId>, Option<VarId>)> = f
                    .cfa
                    .edge_references()
                    .map(|e| {
                        let (u, d) = uses_defs(&e.weight().op);
                        (e.source().index(), e.target().index(), u, d)
                    })
                    .collect();
                let mut changed = true;
                while changed {
                    changed = false;
                    for (a, b, uses, def) in &edges {
                        let mut add: BTreeSet<VarId> = live[*b].clone();
                        if let Some(d) = def {
                            add.remove(d);
                        }
                        add.extend(uses.iter().copied());
                        let before = live[*a].len();
                        live[*a].extend(add);
                        changed |= live[*a].len() != before;
                    }
                }
                live
            })
            .collect();
        Liveness { live }
    }

    /// Whether local `x` of `func` may be read at `loc` before it is written.
    pub fn is_live(&self, func: FuncId, loc: NodeIndex, x: VarId) -> bool {
        self.live[func.0 as usize]
            .get(loc.index())
            .is_none_or(|s| s.contains(&x))
    }

    /// The locals and parameters of every frame of `key` that are dead there.
    pub fn dead(&self, prog: &Program, refs: &RefParams, key: &Key) -> Vec<VarId> {
        // A caller still reads the variables of its call's target (`p->left = f(p)`) when
        // the callee returns, and the callee reads and writes the variables passed to its
        // reference parameters.
        let frames = key
            .stack
            .iter()
            .map(|r| {
                let op = &prog.func(r.func).cfa[r.edge].op;
                let mut pending: BTreeSet<VarId> = refs.passed(prog, op).into_iter().collect();
                if let Op::Call { lhs: Some(l), .. } = op {
                    vars(l, &mut pending);
                }
                (r.func, r.resume, pending)
            })
            .chain([(key.func, key.loc, BTreeSet::new())]);
        let mut out = vec![];
        for (func, loc, pending) in frames {
            let f = prog.func(func);
            out.extend(
                f.params
                    .iter()
                    .chain(&f.locals)
                    .copied()
                    .filter(|x| prog.var(*x).kind != VarKind::Global)
                    .filter(|x| !pending.contains(x) && !self.is_live(func, loc, *x)),
            );
        }
        out
    }
}

/// The variables an operation reads, and the variable it writes (when its target is one).
fn uses_defs(op: &Op) -> (BTreeSet<VarId>, Option<VarId>) {
    let mut uses = BTreeSet::new();
    let mut def = None;
    let mut target = |lhs: &Expr, uses: &mut BTreeSet<VarId>| match &lhs.kind {
        ExprKind::Var(x) => def = Some(*x),
        _ => vars(lhs, uses),
    };
    match op {
        Op::Assign { lhs, rhs } => {
            target(lhs, &mut uses);
            vars(rhs, &mut uses);
        }
        Op::Assume { cond, .. } => vars(cond, &mut uses),
        Op::Havoc(x) => def = Some(*x),
        Op::Call { lhs, args, .. } => {
            if let Some(l) = lhs {
                target(l, &mut uses);
            }
            args.iter().for_each(|a| vars(a, &mut uses));
        }
        Op::CallPtr {
            lhs,
            target: t,
            args,
        } => {
            if let Some(l) = lhs {
                vars(l, &mut uses);
            }
            vars(t, &mut uses);
            args.iter().for_each(|a| vars(a, &mut uses));
        }
        Op::Return(Some(e)) => vars(e, &mut uses),
        Op::Return(None) | Op::Skip | Op::Unsupported(_) => {}
    }
    (uses, def)
}

/// Every variable occurring in `e`.
fn vars(e: &Expr, out: &mut BTreeSet<VarId>) {
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            out.insert(v);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::frontend::load_source as load;

    #[test]
    fn a_cursor_is_dead_after_its_loop_and_a_result_live_until_returned() {
        let prog = load(
            "struct n { struct n *next; };\n\
             extern int __VERIFIER_nondet_int(void);\n\
             struct n *f(struct n *h) {\n\
               struct n *p = h;\n\
               while (p && __VERIFIER_nondet_int()) p = p->next;\n\
               return h;\n\
             }\n\
             int main(void) { f(0); return 0; }\n",
        );
        let fid = prog
            .functions
            .iter()
            .position(|f| f.name == "f")
            .map(|i| FuncId(i as u32))
            .expect("f");
        let func = prog.func(fid);
        let var = |name: &str| {
            func.params
                .iter()
                .chain(&func.locals)
                .copied()
                .find(|x| prog.var(*x).name == name)
                .expect("variable")
        };
        let (p, h) = (var("p"), var("h"));
        let lv = Liveness::new(&prog);
        // At the return edge's source p is dead and h live; at the entry h is live.
        let ret = func
            .cfa
            .edge_references()
            .find(|e| matches!(e.weight().op, Op::Return(Some(_))))
            .expect("return edge");
        assert!(!lv.is_live(fid, ret.source(), p));
        assert!(lv.is_live(fid, ret.source(), h));
        assert!(lv.is_live(fid, func.entry, h));
        assert!(!lv.is_live(fid, func.entry, p));
    }

    #[test]
    fn a_caller_keeps_the_pointer_its_call_result_is_stored_through() {
        let prog = load(
            "struct n { struct n *next; };\n\
             struct n *mk(void) { return 0; }\n\
             int main(void) { struct n x; struct n *p = &x; p->next = mk(); return 0; }\n",
        );
        let find = |name: &str| {
            prog.functions
                .iter()
                .position(|f| f.name == name)
                .map(|i| FuncId(i as u32))
                .expect("function")
        };
        let (main, mk) = (find("main"), find("mk"));
        let call = prog
            .func(main)
            .cfa
            .edge_references()
            .find(|e| matches!(&e.weight().op, Op::Call { lhs: Some(_), .. }))
            .expect("the call");
        let p = prog
            .func(main)
            .locals
            .iter()
            .copied()
            .find(|x| prog.var(*x).name == "p")
            .expect("p");
        let lv = Liveness::new(&prog);
        // After the call p is never read again, but the store of the result reads it.
        assert!(!lv.is_live(main, call.target(), p));
        let key = Key {
            stack: vec![super::super::analysis::Return {
                func: main,
                resume: call.target(),
                edge: call.id(),
            }],
            func: mk,
            loc: prog.func(mk).entry,
        };
        assert!(!lv.dead(&prog, &RefParams::new(&prog), &key).contains(&p));
    }
}

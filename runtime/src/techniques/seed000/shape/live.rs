//! Live variables: which locals and parameters of a function may still be read before they
//! are written, per CFA location (the classic backward may-analysis over each CFA).
//!
//! Consumes a [`Program`]; produces [`Liveness`], which the shape analysis asks for the dead
//! variables of an abstract location (the current function's and, at each caller's resume
//! location, the callers'). Forgetting a dead pointer changes no run, and it lets shape graphs
//! that differ only in where dead pointers point merge, so that a pointer whose job is done
//! (an allocation loop's cursor, a caller's temporaries during a check) no longer multiplies
//! the graphs at every location after it.
//!
//! A dead pointer is forgotten only where some run may still destroy it (overwrite it, leave
//! its block or return from its function). Where every run ends first (the branch to an
//! `abort()`, an error function or an endless loop), the blocks it points to stay reachable
//! to the end, which valid-memtrack allows, so forgetting it there would report a leak that
//! no run has. Keeping such a pointer is sound: the graph still loses it when it is
//! overwritten or its function returns, and the check runs then. A block's locals after
//! their block count as destroyed, so a block local dropped before an `abort()` still leaks.

use super::alias::RefParams;
use super::analysis::Key;
use crate::program::ir::{
    Builtin, Callee, Edge, Expr, ExprKind, FuncId, Function, Op, Program, VarId, VarKind,
};
use petgraph::graph::{EdgeReference, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::BTreeSet;

/// Live locals and parameters per function and location.
#[derive(Clone, Debug)]
pub struct Liveness {
    live: Vec<Vec<BTreeSet<VarId>>>,
    /// Per function and location, the locals some run from there destroys.
    doomed: Vec<Vec<BTreeSet<VarId>>>,
    /// Per function and location, whether some run from there returns from the function.
    returns: Vec<Vec<bool>>,
}

impl Liveness {
    /// The liveness of every function of `prog`; `refs` names the variables a call passes by
    /// reference (which the callee may overwrite).
    pub fn new(prog: &Program, refs: &RefParams) -> Liveness {
        let ends = non_returning(prog);
        let live = prog
            .functions
            .iter()
            .map(|f| {
                backward(f, |e, live| {
                    let (uses, def) = uses_defs(&e.weight().op);
                    // A call that ends the run has no successor to read anything.
                    let mut add = if ends_run(&e.weight().op, &ends) {
                        BTreeSet::new()
                    } else {
                        live[e.target().index()].clone()
                    };
                    if let Some(d) = def {
                        add.remove(&d);
                    }
                    add.extend(uses);
                    add
                })
            })
            .collect();
        let returns = (0..prog.functions.len())
            .map(|i| may_return(prog, FuncId(i as u32), &ends))
            .collect();
        let doomed = (0..prog.functions.len())
            .map(|i| doomed(prog, refs, FuncId(i as u32), &ends))
            .collect();
        Liveness {
            live,
            doomed,
            returns,
        }
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
            .chain([(key.func, key.loc, BTreeSet::new())])
            .collect::<Vec<_>>();
        // A caller's variables are destroyed only if every frame above it may return.
        let mut returning = vec![true; frames.len()];
        for i in (0..frames.len().saturating_sub(1)).rev() {
            let (func, loc, _) = &frames[i + 1];
            returning[i] = returning[i + 1] && self.may_return(*func, *loc);
        }
        let mut out = vec![];
        for ((func, loc, pending), returning) in frames.into_iter().zip(returning) {
            if !returning {
                continue;
            }
            let f = prog.func(func);
            out.extend(
                f.params
                    .iter()
                    .chain(&f.locals)
                    .copied()
                    .filter(|x| prog.var(*x).kind != VarKind::Global)
                    .filter(|x| !pending.contains(x) && !self.is_live(func, loc, *x))
                    .filter(|x| self.is_doomed(func, loc, *x)),
            );
        }
        out
    }

    /// Whether some run from `loc` destroys local `x` of `func` (overwrites it, leaves its
    /// block or returns).
    pub fn is_doomed(&self, func: FuncId, loc: NodeIndex, x: VarId) -> bool {
        self.doomed[func.0 as usize]
            .get(loc.index())
            .is_none_or(|s| s.contains(&x))
    }

    /// Whether some run from `loc` returns from `func`.
    fn may_return(&self, func: FuncId, loc: NodeIndex) -> bool {
        self.returns[func.0 as usize]
            .get(loc.index())
            .copied()
            .unwrap_or(true)
    }
}

/// The defined functions no run returns from: every path from their entry ends in `abort`,
/// `exit`, an error call, a call of such a function, or loops forever.
fn non_returning(prog: &Program) -> BTreeSet<FuncId> {
    let ids = || (0..prog.functions.len()).map(|i| FuncId(i as u32));
    let mut returning: BTreeSet<FuncId> = ids().filter(|g| !prog.func(*g).defined).collect();
    loop {
        let ends: BTreeSet<FuncId> = ids().filter(|g| !returning.contains(g)).collect();
        let more: Vec<FuncId> = ends
            .iter()
            .copied()
            .filter(|g| may_return(prog, *g, &ends)[prog.func(*g).entry.index()])
            .collect();
        if more.is_empty() {
            return ends;
        }
        returning.extend(more);
    }
}

/// Whether the call `op` never returns.
fn ends_run(op: &Op, ends: &BTreeSet<FuncId>) -> bool {
    match op {
        Op::Call {
            callee: Callee::Builtin(Builtin::Abort | Builtin::Exit | Builtin::Error(_)),
            ..
        } => true,
        Op::Call {
            callee: Callee::Func(g),
            ..
        } => ends.contains(g),
        _ => false,
    }
}

/// Per location of `func`: whether a path from there reaches a return, never passing a call
/// in `ends` or another that ends the run.
fn may_return(prog: &Program, func: FuncId, ends: &BTreeSet<FuncId>) -> Vec<bool> {
    let f = prog.func(func);
    let mut out = vec![false; f.cfa.node_count()];
    let mut changed = true;
    while changed {
        changed = false;
        // Against the order of emission: facts flow backward, so straight-line code settles
        // in one pass (in emission order each pass moved them one edge).
        for e in f.cfa.edge_references().rev() {
            let op = &e.weight().op;
            let here =
                matches!(op, Op::Return(_)) || (!ends_run(op, ends) && out[e.target().index()]);
            if here && !out[e.source().index()] {
                out[e.source().index()] = true;
                changed = true;
            }
        }
    }
    out
}

/// Per location of `func`: the locals and parameters some path from there destroys (assigns,
/// passes by reference, passes an edge made outside their block, or returns with), never
/// passing a call that ends the run.
fn doomed(
    prog: &Program,
    refs: &RefParams,
    func: FuncId,
    ends: &BTreeSet<FuncId>,
) -> Vec<BTreeSet<VarId>> {
    let f = prog.func(func);
    let all: BTreeSet<VarId> = f.params.iter().chain(&f.locals).copied().collect();
    backward(f, |e, out| {
        let w = e.weight();
        let left = all.iter().filter(|x| w.in_scope.binary_search(x).is_err());
        if matches!(w.op, Op::Return(_)) {
            return all.clone();
        }
        if ends_run(&w.op, ends) {
            return left.copied().collect();
        }
        let mut add = out[e.target().index()].clone();
        add.extend(left);
        add.extend(uses_defs(&w.op).1);
        add.extend(refs.passed(prog, &w.op));
        add
    })
}

/// A backward may-analysis over the CFA of `f`: per location, the union over its outgoing
/// edges of `step(edge, current sets)`, to a fixpoint.
fn backward(
    f: &Function,
    mut step: impl FnMut(EdgeReference<'_, Edge>, &[BTreeSet<VarId>]) -> BTreeSet<VarId>,
) -> Vec<BTreeSet<VarId>> {
    let mut out: Vec<BTreeSet<VarId>> = vec![BTreeSet::new(); f.cfa.node_count()];
    let mut changed = true;
    while changed {
        changed = false;
        // Against the order of emission, as in `may_return`.
        for e in f.cfa.edge_references().rev() {
            let add = step(e, &out);
            let at = &mut out[e.source().index()];
            let before = at.len();
            at.extend(add);
            changed |= at.len() != before;
        }
    }
    out
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

    fn func_id(prog: &Program, name: &str) -> FuncId {
        prog.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
            .expect("function")
    }

    /// The dead variables at `loc` of `main` with no caller frame.
    fn dead_in_main(prog: &Program, lv: &Liveness, main: FuncId, loc: NodeIndex) -> Vec<VarId> {
        let key = Key {
            stack: vec![],
            func: main,
            loc,
        };
        lv.dead(prog, &RefParams::new(prog), &key)
    }

    fn local(prog: &Program, f: FuncId, name: &str) -> VarId {
        let func = prog.func(f);
        func.params
            .iter()
            .chain(&func.locals)
            .copied()
            .find(|x| prog.var(*x).name == name)
            .expect("variable")
    }

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
        let fid = func_id(&prog, "f");
        let func = prog.func(fid);
        let (p, h) = (local(&prog, fid, "p"), local(&prog, fid, "h"));
        let lv = Liveness::new(&prog, &RefParams::new(&prog));
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
        let (main, mk) = (func_id(&prog, "main"), func_id(&prog, "mk"));
        let call = prog
            .func(main)
            .cfa
            .edge_references()
            .find(|e| matches!(&e.weight().op, Op::Call { lhs: Some(_), .. }))
            .expect("the call");
        let p = local(&prog, main, "p");
        let lv = Liveness::new(&prog, &RefParams::new(&prog));
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

    #[test]
    fn a_pointer_is_kept_where_every_run_ends_without_destroying_it() {
        let prog = load(
            "#include <stdlib.h>\n\
             struct n { struct n *next; };\n\
             extern int __VERIFIER_nondet_int(void);\n\
             int main(void) {\n\
               struct n *h = malloc(sizeof *h);\n\
               if (__VERIFIER_nondet_int()) {\n\
                 { struct n *b = malloc(sizeof *b); }\n\
                 abort();\n\
               }\n\
               free(h);\n\
               return 0;\n\
             }\n",
        );
        let main = func_id(&prog, "main");
        let func = prog.func(main);
        let (h, b) = (local(&prog, main, "h"), local(&prog, main, "b"));
        let abort = func
            .cfa
            .edge_references()
            .find(|e| {
                matches!(
                    e.weight().op,
                    Op::Call {
                        callee: Callee::Builtin(Builtin::Abort),
                        ..
                    }
                )
            })
            .expect("the abort call");
        let lv = Liveness::new(&prog, &RefParams::new(&prog));
        let dead = dead_in_main(&prog, &lv, main, abort.source());
        // Both are dead before abort(); h is still held when the run ends, b's block is over.
        assert!(!lv.is_live(main, abort.source(), h));
        assert!(!dead.contains(&h));
        assert!(dead.contains(&b));
        // On the path that frees h, h is dead after the free and is destroyed by the return.
        let ret = func
            .cfa
            .edge_references()
            .find(|e| matches!(e.weight().op, Op::Return(_)))
            .expect("the return");
        assert!(dead_in_main(&prog, &lv, main, ret.source()).contains(&h));
    }

    #[test]
    fn a_block_local_is_destroyed_when_its_block_ends_even_before_an_endless_loop() {
        let prog = load(
            "#include <stdlib.h>\n\
             int main(void) {\n\
               int *h = malloc(sizeof *h);\n\
               { int *b = malloc(sizeof *b); *b = 1; }\n\
               for (;;) { *h = 2; }\n\
             }\n",
        );
        let main = func_id(&prog, "main");
        let (h, b) = (local(&prog, main, "h"), local(&prog, main, "b"));
        let store = prog
            .func(main)
            .cfa
            .edge_references()
            .find(|e| e.weight().line == 5 && matches!(e.weight().op, Op::Assign { .. }))
            .expect("the store in the loop");
        let lv = Liveness::new(&prog, &RefParams::new(&prog));
        let dead = dead_in_main(&prog, &lv, main, store.source());
        // The loop never ends: h stays held; b's block ended before it.
        assert!(!dead.contains(&h));
        assert!(dead.contains(&b));
    }
}

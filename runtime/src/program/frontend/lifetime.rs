//! Block-scope lifetimes. A local declared in an inner block lives only while the block
//! runs (C11 6.2.4): a pointer to it that outlives the block dangles. This module consumes
//! the scope stack of the lowering and the edges emitted so far, and produces
//! [`Builtin::ScopeEnd`] calls for every local of the closing block whose address may leave
//! it, and for its variable-length arrays: on the block's fall-through end, and on every `break`, `continue` and `goto` that leaves
//! the block. Such a jump goes first to a pad node; each block it leaves appends its scope
//! ends to the pad's chain when the block closes, and the chain reaches the jump's target
//! when the function ends. Locals of the function's outermost block die with the frame.

use super::Lowerer;
use crate::program::ir::*;
use petgraph::graph::NodeIndex;

/// The scopes of a function at which its outermost block sits: file scope, parameters, body.
const BODY_DEPTH: usize = 3;

/// Which enclosing scopes a jump stays inside.
#[derive(Clone, Debug)]
pub(super) enum Stays {
    /// The scopes below this depth (a `break` or `continue`: those around the loop).
    Depth(usize),
    /// The scopes around the label's definition (a `goto`).
    Label(String),
}

/// A jump whose pad collects the scope ends of the blocks it leaves.
#[derive(Clone, Debug)]
pub(super) struct Exit {
    pad: NodeIndex,
    to: NodeIndex,
    line: u32,
    /// The ids of the scopes open at the jump, outermost first.
    path: Vec<u32>,
    stays: Stays,
}

impl Lowerer<'_> {
    /// A `break`, `continue` or `goto` to `to`: continues at a fresh (unreachable) location.
    pub(super) fn jump_out(&mut self, to: NodeIndex, line: u32, stays: Stays) {
        let from = self.cur();
        let pad = self.new_node();
        self.add_edge(from, pad, Op::Skip, line);
        let path = self.scope_ids.clone();
        self.b().exits.push(Exit {
            pad,
            to,
            line,
            path,
            stays,
        });
        let fresh = self.new_node();
        self.set_cur(fresh);
    }

    /// Records where label `name` is defined: the scopes a `goto` to it stays inside.
    pub(super) fn define_label_scope(&mut self, name: &str) {
        let path = self.scope_ids.clone();
        self.b().label_scopes.insert(name.to_string(), path);
    }

    /// Ends the lifetimes of the innermost scope's locals whose address may leave it, on the
    /// fall-through path (at `line`) and on the pending jumps that leave the scope.
    pub(super) fn end_lifetimes(&mut self, line: u32) {
        if self.fb.is_none() || self.scopes.len() <= BODY_DEPTH {
            return;
        }
        let dying = self.dying_objects();
        if dying.is_empty() {
            return;
        }
        for x in &dying {
            self.emit(scope_end(x.clone()), line);
        }
        let depth = self.scopes.len() - 1;
        let id = self.scope_ids[depth];
        for i in 0..self.b().exits.len() {
            let exit = self.b().exits[i].clone();
            if exit.path.get(depth) != Some(&id) || self.stays_inside(&exit.stays, depth, id) {
                continue;
            }
            let mut pad = exit.pad;
            for x in &dying {
                let next = self.new_node();
                self.add_edge(pad, next, scope_end(x.clone()), exit.line);
                pad = next;
            }
            self.b().exits[i].pad = pad;
        }
    }

    /// Connects every pending jump to its target (at the end of the function).
    pub(super) fn finish_exits(&mut self) {
        for exit in std::mem::take(&mut self.b().exits) {
            self.add_edge(exit.pad, exit.to, Op::Skip, exit.line);
        }
    }

    /// Whether a jump that is inside scope `id` (at `depth`) stays inside it. A label not
    /// defined yet is defined after the scope closes, so outside it.
    fn stays_inside(&mut self, stays: &Stays, depth: usize, id: u32) -> bool {
        match stays {
            Stays::Depth(d) => depth < *d,
            Stays::Label(name) => self
                .b()
                .label_scopes
                .get(name)
                .is_some_and(|p| p.get(depth) == Some(&id)),
        }
    }

    /// What dies as the innermost scope closes, as the argument of its scope end: `&v` for
    /// each local whose address is used other than to access it at once (stored, passed,
    /// compared or offset without a dereference), and the pointer of each variable-length
    /// array.
    fn dying_objects(&mut self) -> Vec<Expr> {
        let Some(scope) = self.scopes.last() else {
            return vec![];
        };
        let mut locals = vec![];
        let mut arrays = vec![];
        for sym in scope.values() {
            match sym {
                super::Symbol::Var(x)
                    if matches!(self.vars[x.0 as usize].kind, VarKind::Local(_)) =>
                {
                    locals.push(*x)
                }
                super::Symbol::Vla { ptr, .. } => arrays.push(*ptr),
                _ => {}
            }
        }
        if !locals.is_empty() {
            // Only the edges emitted since the scope began can name its locals (edges are
            // never removed while lowering, so their indices follow emission order): each
            // closing block scans its own edges, not the whole function.
            let start = self.scope_edges.last().copied().unwrap_or(0);
            let mut escaping = vec![];
            for e in self.b().cfa.edge_weights().skip(start) {
                for x in e.op.exprs() {
                    address_uses(x, false, &mut escaping);
                }
            }
            let escaping: std::collections::HashSet<VarId> = escaping.into_iter().collect();
            locals.retain(|v| escaping.contains(v));
        }
        locals.sort();
        arrays.sort();
        let var = |v: VarId| Expr {
            kind: ExprKind::Var(v),
            ty: self.vars[v.0 as usize].ty.clone(),
        };
        let address = |x: Expr| Expr {
            ty: x.ty.clone().ptr_to(),
            kind: ExprKind::AddrOf(Box::new(x)),
        };
        let mut out: Vec<Expr> = locals.into_iter().map(|v| address(var(v))).collect();
        out.extend(arrays.into_iter().map(var));
        out
    }
}

/// `__shapecheck_scope_end(x)`.
fn scope_end(x: Expr) -> Op {
    Op::Call {
        lhs: None,
        callee: Callee::Builtin(Builtin::ScopeEnd),
        args: vec![x],
    }
}

/// Adds to `out` the variables whose address `e` takes other than directly under a
/// dereference (`*&v`, `(&v)->f`, `a[i]`); `accessed` says that `e` is dereferenced at once.
fn address_uses(e: &Expr, accessed: bool, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::AddrOf(inner) => {
            if !accessed && let Some(v) = base_var(inner) {
                out.push(v);
            }
            address_uses(inner, false, out);
        }
        ExprKind::Deref(p) => address_uses(p, true, out),
        ExprKind::PtrAdd(p, i, _) => {
            address_uses(p, accessed, out);
            address_uses(i, false, out);
        }
        ExprKind::Field(x, ..) | ExprKind::BitField(x, _) => address_uses(x, accessed, out),
        ExprKind::Cast(x) => address_uses(x, accessed && e.ty.pointee().is_some(), out),
        ExprKind::Unary(_, x) => address_uses(x, false, out),
        ExprKind::Binary(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::PtrDiff(a, b, _) => {
            address_uses(a, false, out);
            address_uses(b, false, out);
        }
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::FuncAddr(_) | ExprKind::Str(_) => {}
    }
}

/// The variable an lvalue is a part of (`v`, `v.f`, `a[i]`, `(&v)->f`).
fn base_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Field(x, ..) | ExprKind::BitField(x, _) => base_var(x),
        ExprKind::Deref(p) => pointer_base(p),
        _ => None,
    }
}

/// The variable a pointer points into when it is computed from the variable's address.
fn pointer_base(p: &Expr) -> Option<VarId> {
    match &p.kind {
        ExprKind::AddrOf(x) => base_var(x),
        ExprKind::PtrAdd(q, ..) | ExprKind::Cast(q) => pointer_base(q),
        _ => None,
    }
}

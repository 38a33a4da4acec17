//! Link addresses: a pointer that holds the address of a list's link field rather than of a
//! cell. Linux's `hlist` is the common case: `struct hlist_node { struct hlist_node *next,
//! **pprev; }`, where `pprev` points to the previous node's `next` or to the head's `first`
//! (`struct hlist_head { struct hlist_node *first; }`), so that deleting a node is
//! `*n->pprev = n->next` whatever precedes it. A shape analysis over cells cannot follow such
//! a pointer: it points into a field.
//!
//! When the link field `next` is at offset 0 of its struct `S`, and each head struct `H` is
//! one field `first` of type `S *` (a prefix of `S`), the address of a link is the address
//! of the cell that holds it, bit for bit: `&x->next == (char *)x` and `&h->first ==
//! (char *)h`. This pass consumes a lowered [`Program`] and produces the same program with
//! the types changed to say so: `S **` becomes `S *` (`pprev` points to the previous cell),
//! `H *` becomes `S *` (a head is a cell whose `next` is `first`), `&x->next` is `x`,
//! `&h->first` is `h`, `*pp` is `pp->next` and `h->first` is `h->next`. The result is a
//! doubly linked list with a head cell, which the shape analysis reads like any other. No
//! value changes; every load and store reads and writes the same bytes.
//!
//! The pass applies only when the program uses these types in no other way: `S **` and
//! `H *` values are only copied, compared, passed, returned, tested, dereferenced at
//! offset 0 (`*pp`, `h->first`) or, for `H *`, freed; no struct field or array has type
//! `H`, a variable of type `H` (`HLIST_HEAD(name)`) is only accessed as `h.first`, copied
//! whole or has its address taken, and no pointer to an `S **` or `H *` is formed. So a
//! block of `H` is accessed only through its first 8 (or 4) bytes; an allocation of exactly
//! `sizeof(H)` stored into an `H *` (by `malloc`, `calloc` or an allocating wrapper such as
//! `safe_malloc`) is made `sizeof(S)` long, and so is a variable of type `H`, so that the
//! head is a whole cell for the shape analysis, which no access of the program can tell
//! apart.

use super::ir::*;
use super::sra::CallFacts;
use std::collections::BTreeMap;

/// The struct of a list whose link field is first, and the head structs of its lists.
struct Links {
    /// `S`.
    cell: StructId,
    /// The name of `S`'s link field (at offset 0).
    link: String,
    /// `S *`.
    cell_ptr: Type,
    /// `S **`.
    link_addr: Type,
    /// Each `H` with the name of its one field.
    heads: Vec<(StructId, String)>,
}

/// Retypes the link addresses of every list struct that qualifies (see the module docs).
pub fn retype(prog: &mut Program) {
    for s in 0..prog.structs.len() {
        let Some(links) = Links::of(prog, StructId(s as u32)) else {
            continue;
        };
        if links.used(prog) && links.allowed(prog) {
            links.rewrite(prog);
        }
    }
}

impl Links {
    /// `S` with its heads, when `S`'s first field is a pointer to `S` at offset 0.
    fn of(prog: &Program, s: StructId) -> Option<Links> {
        let def = &prog.structs[s.0 as usize];
        let first = def.fields.first()?;
        let cell_ptr = Type::Struct(s).ptr_to();
        if def.is_union || !def.complete || first.offset != 0 || first.ty != cell_ptr {
            return None;
        }
        let heads = (0..prog.structs.len())
            .filter(|h| *h != s.0 as usize)
            .filter_map(|h| {
                let d = &prog.structs[h];
                match d.fields.as_slice() {
                    [f] if !d.is_union && f.offset == 0 && f.ty == cell_ptr && f.bits.is_none() => {
                        Some((StructId(h as u32), f.name.clone()))
                    }
                    _ => None,
                }
            })
            .collect();
        Some(Links {
            cell: s,
            link: first.name.clone(),
            link_addr: cell_ptr.clone().ptr_to(),
            cell_ptr,
            heads,
        })
    }

    /// Whether some variable or field holds a link address.
    fn used(&self, prog: &Program) -> bool {
        prog.vars.iter().any(|v| v.ty == self.link_addr)
            || (prog.structs.iter()).any(|d| d.fields.iter().any(|f| f.ty == self.link_addr))
    }

    fn head(&self, ty: &Type) -> Option<&str> {
        let Type::Struct(h) = ty else { return None };
        (self.heads.iter()).find_map(|(x, f)| (x == h).then_some(f.as_str()))
    }

    fn is_head_ptr(&self, ty: &Type) -> bool {
        ty.pointee().is_some_and(|t| self.head(t).is_some())
    }

    /// Whether `ty` mentions a head struct or a link address only where the pass can change
    /// it: the type itself an `S **` or an `H *`.
    fn retypable(&self, ty: &Type) -> bool {
        *ty == self.link_addr || self.is_head_ptr(ty) || !self.mentions(ty)
    }

    fn mentions(&self, ty: &Type) -> bool {
        *ty == self.link_addr
            || self.head(ty).is_some()
            || match ty {
                Type::Ptr(t) | Type::Array(t, _) => self.mentions(t),
                _ => false,
            }
    }

    /// The type after the pass.
    fn new_type(&self, ty: &Type) -> Type {
        if *ty == self.link_addr || self.is_head_ptr(ty) {
            self.cell_ptr.clone()
        } else if self.head(ty).is_some() {
            Type::Struct(self.cell)
        } else {
            ty.clone()
        }
    }

    /// Whether every type and expression of the program fits the pass.
    fn allowed(&self, prog: &Program) -> bool {
        let types_ok = (prog.vars.iter())
            .all(|v| self.retypable(&v.ty) || self.head(&v.ty).is_some())
            && prog.functions.iter().all(|f| self.retypable(&f.ret))
            && (prog.structs.iter().enumerate())
                .filter(|(i, _)| self.head(&Type::Struct(StructId(*i as u32))).is_none())
                .all(|(_, d)| d.fields.iter().all(|f| self.retypable(&f.ty)));
        types_ok
            && prog
                .functions
                .iter()
                .all(|f| f.cfa.edge_weights().all(|e| self.op(&e.op).is_some()))
    }

    /// Applies the pass (after [`Self::allowed`]).
    fn rewrite(&self, prog: &mut Program) {
        let wrappers = super::holder::allocators(prog, &CallFacts::of(prog));
        let sizes = (
            prog.size_of(&self.cell_ptr),
            prog.size_of(&Type::Struct(self.cell)),
        );
        for f in &mut prog.functions {
            for e in f.cfa.edge_weights_mut() {
                self.enlarge(&mut e.op, &wrappers, sizes);
                e.op = self.op(&e.op).expect("checked by `allowed`");
            }
            f.ret = self.new_type(&f.ret);
        }
        for v in &mut prog.vars {
            v.ty = self.new_type(&v.ty);
        }
        for d in &mut prog.structs {
            for f in &mut d.fields {
                f.ty = self.new_type(&f.ty);
            }
        }
    }

    /// An allocation of exactly a head's size (`sizes.0`) stored into a head pointer, by
    /// `malloc`, `calloc(1, n)` or an allocating wrapper (`wrappers`: the index of its size
    /// parameter), gets a cell's size (`sizes.1`).
    fn enlarge(&self, op: &mut Op, wrappers: &BTreeMap<FuncId, usize>, sizes: (u64, u64)) {
        let Op::Call {
            lhs: Some(l),
            callee,
            args,
        } = op
        else {
            return;
        };
        if !self.is_head_ptr(&l.ty) {
            return;
        }
        let at = match callee {
            Callee::Builtin(Builtin::Alloc(AllocKind::Malloc)) => 0,
            Callee::Builtin(Builtin::Alloc(AllocKind::Calloc))
                if args.first().and_then(const_of) == Some(1) =>
            {
                1
            }
            Callee::Func(g) if let Some(i) = wrappers.get(g) => *i,
            _ => return,
        };
        if let Some(a) = args.get_mut(at)
            && const_of(a) == Some(sizes.0)
        {
            *a = Expr::int(sizes.1 as i64, a.ty.as_int().unwrap_or(IntTy::INT));
        }
    }

    /// The operation rewritten, or `None` if it uses the types in a way the pass does not
    /// allow.
    fn op(&self, op: &Op) -> Option<Op> {
        let e = |x: &Expr| self.expr(x);
        Some(match op {
            Op::Skip | Op::Havoc(_) | Op::Unsupported(_) => op.clone(),
            Op::Assign { lhs, rhs } => Op::Assign {
                lhs: e(lhs)?,
                rhs: e(rhs)?,
            },
            Op::Assume { cond, positive } => Op::Assume {
                cond: e(cond)?,
                positive: *positive,
            },
            Op::Return(r) => Op::Return(self.maybe(r)?),
            Op::Call { lhs, callee, args } => {
                let free = matches!(callee, Callee::Builtin(Builtin::Free));
                let arg = |a: &Expr| match &a.kind {
                    // `free(h)`: the one way a head pointer may become a `void *`.
                    ExprKind::Cast(x) if free && self.is_head_ptr(&x.ty) => Some(Expr {
                        kind: ExprKind::Cast(Box::new(e(x)?)),
                        ty: a.ty.clone(),
                    }),
                    _ => e(a),
                };
                Op::Call {
                    lhs: self.maybe(lhs)?,
                    callee: callee.clone(),
                    args: args.iter().map(arg).collect::<Option<_>>()?,
                }
            }
            Op::CallPtr { lhs, target, args } => Op::CallPtr {
                lhs: self.maybe(lhs)?,
                target: e(target)?,
                args: args.iter().map(e).collect::<Option<_>>()?,
            },
        })
    }

    /// The expression rewritten, or `None` if it uses the types in a way the pass does not
    /// allow.
    fn expr(&self, x: &Expr) -> Option<Expr> {
        let ty = self.new_type(&x.ty);
        let kind = match &x.kind {
            // `&p->next` and `&h->first`: the cell `p`, the head `h`.
            ExprKind::AddrOf(a) if x.ty == self.link_addr => match &a.kind {
                ExprKind::Field(base, 0, name) if self.link_of(&base.ty) == Some(name) => {
                    match &base.kind {
                        ExprKind::Deref(p) => return self.expr(p),
                        _ => ExprKind::AddrOf(Box::new(self.expr(base)?)),
                    }
                }
                _ => return None,
            },
            // `*pp`: `pp->next`.
            ExprKind::Deref(p) if p.ty == self.link_addr => {
                return Some(self.link_field(self.expr(p)?));
            }
            // `h->first`: `h->next`; `h.first` of a head variable: `h.next`.
            ExprKind::Field(base, 0, name) if self.head(&base.ty) == Some(name.as_str()) => {
                return match &base.kind {
                    ExprKind::Deref(p) => Some(self.link_field(self.expr(p)?)),
                    _ => Some(Expr {
                        kind: ExprKind::Field(Box::new(self.expr(base)?), 0, self.link.clone()),
                        ty,
                    }),
                };
            }
            // A head variable: a cell variable (its block grows to a cell's size, but only its
            // first field is ever accessed).
            ExprKind::Var(v) if self.head(&x.ty).is_some() => ExprKind::Var(*v),
            // Between link addresses and head pointers: the same bits, the same new type.
            ExprKind::Cast(a) if self.mentions(&a.ty) => {
                let same = self.new_type(&a.ty) == ty;
                if same && self.retypable(&a.ty) && self.retypable(&x.ty) {
                    return self.expr(a);
                }
                return None;
            }
            // Into one (from NULL, a `void *`, a cell pointer): the same bits.
            ExprKind::Cast(a) if self.mentions(&x.ty) => {
                if !self.retypable(&x.ty) {
                    return None;
                }
                ExprKind::Cast(Box::new(self.expr(a)?))
            }
            ExprKind::Deref(p) if self.head(&x.ty).is_some() || self.is_head_ptr(&p.ty) => {
                return None;
            }
            ExprKind::PtrAdd(p, ..) | ExprKind::PtrDiff(p, ..) if self.mentions(&p.ty) => {
                return None;
            }
            ExprKind::AddrOf(_) if !self.retypable(&x.ty) => return None,
            _ => {
                if !self.retypable(&x.ty) || self.head(&x.ty).is_some() {
                    return None;
                }
                let mut ok = true;
                let mapped = x.map_children(&mut |c| {
                    self.expr(c).unwrap_or_else(|| {
                        ok = false;
                        c.clone()
                    })
                });
                if !ok {
                    return None;
                }
                mapped.kind
            }
        };
        Some(Expr { kind, ty })
    }

    /// [`Self::expr`] of an optional expression.
    fn maybe(&self, x: &Option<Expr>) -> Option<Option<Expr>> {
        match x {
            Some(x) => self.expr(x).map(Some),
            None => Some(None),
        }
    }

    /// The link field's name when `ty` is `S` or a head struct.
    fn link_of(&self, ty: &Type) -> Option<&String> {
        match ty {
            Type::Struct(s) if *s == self.cell => Some(&self.link),
            Type::Struct(h) => self.heads.iter().find(|(x, _)| x == h).map(|(_, f)| f),
            _ => None,
        }
    }

    /// `p->next` for a (rewritten) cell pointer `p`.
    fn link_field(&self, p: Expr) -> Expr {
        let cell = Expr {
            kind: ExprKind::Deref(Box::new(p)),
            ty: Type::Struct(self.cell),
        };
        Expr {
            kind: ExprKind::Field(Box::new(cell), 0, self.link.clone()),
            ty: self.cell_ptr.clone(),
        }
    }
}

fn const_of(e: &Expr) -> Option<u64> {
    match &e.kind {
        ExprKind::Const(n) => u64::try_from(*n).ok(),
        ExprKind::Cast(a) => const_of(a),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::program::cfa;
    use crate::program::frontend::load_source;
    use crate::program::ir::{Program, Type};

    fn ops(p: &Program, name: &str) -> Vec<String> {
        let f = p.func(p.func_by_name(name).expect("function"));
        f.cfa.edge_weights().map(|e| cfa::op(p, &e.op)).collect()
    }

    const HLIST: &str = "#include <stdlib.h>
        struct hlist_head { struct hlist_node *first; };
        struct hlist_node { struct hlist_node *next, **pprev; };
        static void add(struct hlist_node *n, struct hlist_head *h) {
          struct hlist_node *first = h->first; n->next = first;
          if (first) first->pprev = &n->next;
          h->first = n; n->pprev = &h->first; }
        static void del(struct hlist_node *n) {
          struct hlist_node *next = n->next; struct hlist_node **pprev = n->pprev;
          *pprev = next; if (next) next->pprev = pprev; }
        int main(void) {
          struct hlist_head *h = malloc(sizeof(struct hlist_head));
          struct hlist_node *n = malloc(sizeof *n);
          if (!h || !n) return 1;
          h->first = 0; add(n, h); del(n); free(n); free(h); return 0; }";

    #[test]
    fn link_addresses_become_pointers_to_the_cells_that_hold_the_links() {
        let p = load_source(HLIST);
        let add = ops(&p, "add");
        for op in [
            "first = h->next",
            "first->pprev = n",
            "h->next = n",
            "n->pprev = h",
        ] {
            assert!(add.contains(&op.to_string()), "{op}: {add:?}");
        }
        let del = ops(&p, "del");
        assert!(del.contains(&"pprev->next = next".to_string()), "{del:?}");
        let node = p
            .structs
            .iter()
            .find(|s| s.name.contains("hlist_node"))
            .unwrap();
        assert_eq!(
            node.fields[1].ty, node.fields[0].ty,
            "pprev is a node pointer"
        );
        // The head's block (4 bytes on ILP32) is a whole node (8), so that the head is a
        // cell of the list.
        let main = ops(&p, "main");
        assert!(
            main.contains(&"h = alloc(malloc)(8)".to_string()),
            "{main:?}"
        );
    }

    #[test]
    fn any_other_use_of_a_link_address_leaves_the_program_alone() {
        for (what, extra) in [
            (
                "a variable's address",
                "struct hlist_node *v = 0; struct hlist_node **pp = &v; *pp = n;",
            ),
            (
                "arithmetic",
                "struct hlist_node **pp = n->pprev; pp = pp + 1;",
            ),
            ("a head seen as bytes", "char *c = (char *)h; c[0] = 0;"),
            ("a head value", "struct hlist_head copy = *h; (void)copy;"),
        ] {
            let text = HLIST.replace("h->first = 0;", &format!("h->first = 0; {extra}"));
            let p = load_source(&text);
            let node = p
                .structs
                .iter()
                .find(|s| s.name.contains("hlist_node"))
                .unwrap();
            assert!(
                matches!(&node.fields[1].ty, Type::Ptr(t) if t.pointee().is_some()),
                "{what}: pprev was retyped"
            );
            assert!(
                ops(&p, "add").contains(&"n->pprev = &h->first".to_string()),
                "{what}"
            );
        }
    }
}

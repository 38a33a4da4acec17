//! Blocks owned through raw fields: a list cell's data buffer (`n->data = malloc(...)`), a
//! message's payload, a name string.
//!
//! Consumes a graph and the vocabulary's raw fields and ownership predicates (see
//! [`super::vocab::Owned`]); produces the graph with such blocks absorbed into their owners or
//! exposed as nodes again. A raw node that no variable may point to, whose only incoming edge
//! is a definite edge of a raw field of a single cell, is absorbed when the graph is
//! abstracted: the node goes and `own[f: t]` becomes 1 on its owner. The owner may then be
//! summarised with other cells that own a block each, which a raw summary node could not say
//! (its edges from the list would all be 1/2). Before a cell is used (at the start of every
//! step, and when focus materialises a cell from a summary) its blocks are exposed: a fresh
//! node of the block's type, the field's edge to it 1. Absorbing forgets nothing the
//! concretisation had: the block is private to its owner, so a fresh node per owner is
//! exactly the set of blocks it stood for.

use super::graph::{F, Graph, H, T};
use super::transfer::{AbsError, PVal, Transfer, const_value, raw, raw_info};
use crate::program::ir::Expr;
use crate::program::path::PathEnd;

impl Transfer<'_> {
    /// The graph with every block owned by single cell `u` exposed as a node.
    pub fn expose(&self, mut g: Graph, u: usize) -> Graph {
        for o in &self.v.owned {
            if g.get(self.v, o.id, &[u]) != T {
                continue;
            }
            let w = g.add_node(o.ty);
            g.set(self.v, o.id, &[u], F);
            g.set(self.v, self.v.field_pred(o.field), &[u, w], T);
            g.set(self.v, self.v.undef(o.field), &[u], F);
        }
        g
    }

    /// The graph with the blocks of every single cell exposed.
    pub fn expose_all(&self, g: Graph) -> Graph {
        if self.v.owned.is_empty() {
            return g;
        }
        let single: Vec<usize> = (0..g.n).filter(|u| g.sm[*u] == F).collect();
        single.into_iter().fold(g, |g, u| self.expose(g, u))
    }

    /// The graph with every privately owned raw node absorbed into its owner.
    pub fn absorb(&self, mut g: Graph) -> Graph {
        if self.v.owned.is_empty() {
            return g;
        }
        // Each candidate's test reads only the edges into it, so all are found first.
        let absorbed: Vec<(usize, usize, usize, usize)> = (0..g.n)
            .filter_map(|w| {
                let (f, a) = self.sole_owner(&g, w)?;
                Some((w, f, a, self.v.owned_pred(f, g.ty[w])?.id))
            })
            .collect();
        for &(w, f, a, o) in &absorbed {
            g.set(self.v, self.v.field_pred(f), &[a, w], F);
            g.set(self.v, o, &[a], T);
        }
        let keep: Vec<bool> = (0..g.n)
            .map(|u| !absorbed.iter().any(|(w, ..)| *w == u))
            .collect();
        g.retain(&keep);
        g
    }

    /// The raw field and single cell whose definite edge is the only reference to single raw
    /// node `w`, if there is one.
    fn sole_owner(&self, g: &Graph, w: usize) -> Option<(usize, usize)> {
        let v = self.v;
        if raw_info(g.ty[w]).is_none() || g.sm[w] != F {
            return None;
        }
        if (0..v.vars.len()).any(|x| g.get(v, v.pt(x), &[w]) != F) {
            return None;
        }
        let mut refs = (0..v.fields.len()).flat_map(|f| {
            (0..g.n)
                .map(move |a| (f, a, g.get(v, v.field_pred(f), &[a, w])))
                .filter(|r| r.2 != F)
        });
        let (f, a, k) = refs.next()?;
        let sole = refs.next().is_none() && k == T && a != w && g.sm[a] == F && v.fields[f].raw;
        sole.then_some((f, a))
    }

    /// The error of a step that overwrites or frees cell `u`'s field `f` (every raw field
    /// for `None`) while it may still own a block that is not exposed: with valid-memtrack
    /// checked, the block could be lost unseen.
    pub(super) fn owned_lost(
        &self,
        g: &Graph,
        u: usize,
        f: Option<usize>,
        line: u32,
    ) -> Option<AbsError> {
        let owns = self
            .v
            .owned
            .iter()
            .filter(|o| f.is_none_or(|f| o.field == f))
            .any(|o| matches!(g.get(self.v, o.id, &[u]), T | H));
        (self.memtrack && owns).then(|| AbsError {
            end: PathEnd::MemoryLost,
            message: format!(
                "line {line}: cannot prove that no memory becomes unreachable (valid-memtrack): \
                 a block owned through a field may be lost"
            ),
            unsupported: false,
        })
    }

    /// `memset(p, c, n)` or `memcpy(p, q, n)` (`copy`) on raw blocks, whose bytes the graph
    /// does not track: `p` (and `q`) must point to a block of at least `n` bytes; `p`'s block
    /// stays zeroed only if zero bytes are written. `None` where the destination is not a
    /// raw block or `n` is not a known constant: the shape analysis does not model the call.
    pub fn fill_block(
        &self,
        g: Graph,
        lhs: Option<&Expr>,
        args: &[Expr],
        copy: bool,
        line: u32,
    ) -> Option<Vec<Result<Graph, AbsError>>> {
        let [dst, src, len] = args else { return None };
        let n = u32::try_from(const_value(&g, len)?).ok()?;
        let zero = !copy && const_value(&g, src) == Some(0);
        let mut out = vec![];
        for r in self.eval_ptr(g, dst, line) {
            let (mut g, u) = match r {
                Ok((g, PVal::Node(u))) => (g, u),
                Ok(_) => {
                    out.push(Err(self.deref_error(dst, line, "the destination")));
                    continue;
                }
                Err(e) => {
                    out.push(Err(e));
                    continue;
                }
            };
            let (size, zeroed) = raw_info(g.ty[u])?;
            if size < n {
                out.push(Err(self.deref_error(dst, line, "the destination")));
                continue;
            }
            g.ty[u] = raw(size, zero && (zeroed || n == size));
            let sources = if copy {
                self.source_fits(g, src, n, line)
            } else {
                vec![Ok(g)]
            };
            for r in sources {
                match (r, lhs) {
                    (Ok(g), Some(l)) => out.extend(self.store(g, l, PVal::Node(u), line)),
                    (r, _) => out.push(r),
                }
            }
        }
        Some(out)
    }

    /// `q` points to a raw block of at least `n` bytes.
    fn source_fits(&self, g: Graph, q: &Expr, n: u32, line: u32) -> Vec<Result<Graph, AbsError>> {
        self.eval_ptr(g, q, line)
            .into_iter()
            .map(|r| match r {
                Ok((g, PVal::Node(w))) if raw_info(g.ty[w]).is_some_and(|(m, _)| m >= n) => Ok(g),
                Ok(_) => Err(self.deref_error(q, line, "the source")),
                Err(e) => Err(e),
            })
            .collect()
    }
}

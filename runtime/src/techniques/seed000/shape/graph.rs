//! Shape graphs: TVLA's three-valued logical structures (seed 000 §2.3).
//!
//! Consumes a [`Vocab`]; a [`Graph`] is a set of individuals (heap nodes, each of one struct
//! type, possibly summary nodes) with a Kleene value for every unary and binary predicate of
//! the vocabulary, plus a per-pointer flag saying whether the pointer holds an invalid value
//! (uninitialised, dangling, or untracked garbage). Provides canonical abstraction ([`blur`]:
//! nodes that agree on all unary abstraction predicates are merged, values joined), removal of
//! nodes no tracked pointer can reach, the embedding order used for coverage, and text/DOT
//! renderings for certificates.

use super::transfer::raw_info;
use super::vocab::{PredKind, Vocab};
use crate::program::ir::StructId;
use shapecheck_dsl::eval::Kleene;
use std::fmt::Write;

pub use Kleene::{False as F, Half as H, True as T};

/// A node's canonical name: its type, its abstraction predicates' values, and for a raw block
/// its sure referrers (field, referrer's type and values).
type Name = (StructId, Vec<Kleene>, Vec<(usize, (StructId, Vec<Kleene>))>);

/// Join in the information order: equal values stay, different ones become 1/2.
pub fn join(a: Kleene, b: Kleene) -> Kleene {
    if a == b { a } else { H }
}

/// `a ⊑ b` in the information order.
pub fn below(a: Kleene, b: Kleene) -> bool {
    a == b || b == H
}

/// A three-valued structure.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    /// Number of nodes.
    pub n: usize,
    /// Struct type of each node.
    pub ty: Vec<StructId>,
    /// `sm`: False for a single cell, Half for a summary node.
    pub sm: Vec<Kleene>,
    /// Unary predicate values, `[slot][node]`.
    pub un: Vec<Vec<Kleene>>,
    /// Binary predicate values, `[slot][from * n + to]`.
    pub bin: Vec<Vec<Kleene>>,
    /// Per tracked pointer: whether it holds an invalid value.
    pub invalid: Vec<Kleene>,
    /// Integer variables known to hold a constant (copied constants only, no arithmetic:
    /// enough for allocation sizes passed to wrappers), sorted.
    pub consts: Vec<(crate::program::ir::VarId, i64)>,
    /// Integer variables known to differ from a constant since they were last written (a
    /// condition `if (flag)` or `x != 2`, or a copy of a field whose predicate `f == 2` is
    /// 0), sorted.
    pub excluded: Vec<(crate::program::ir::VarId, i64)>,
    /// Pairs of integer variables known to be equal since one was copied into the other
    /// (a parameter bound to an argument, `k = key`), smaller first, sorted.
    pub equal: Vec<(crate::program::ir::VarId, crate::program::ir::VarId)>,
}

impl Graph {
    /// The empty structure: no nodes, every tracked pointer NULL.
    pub fn empty(v: &Vocab) -> Graph {
        Graph {
            n: 0,
            ty: vec![],
            sm: vec![],
            un: vec![vec![]; v.unary],
            bin: vec![vec![]; v.binary],
            invalid: vec![F; v.vars.len()],
            consts: vec![],
            excluded: vec![],
            equal: vec![],
        }
    }

    /// The constant integer variable `x` holds, if known.
    pub fn constant(&self, x: crate::program::ir::VarId) -> Option<i64> {
        self.consts
            .binary_search_by_key(&x, |c| c.0)
            .ok()
            .map(|i| self.consts[i].1)
    }

    /// Whether integer variable `x` is known to differ from `c`.
    pub fn differs(&self, x: crate::program::ir::VarId, c: i64) -> bool {
        self.excluded.binary_search(&(x, c)).is_ok() || self.constant(x).is_some_and(|k| k != c)
    }

    /// Records that integer variable `x` (whose constant is unknown) differs from `c`.
    pub fn exclude(&mut self, x: crate::program::ir::VarId, c: i64) {
        if let Err(i) = self.excluded.binary_search(&(x, c)) {
            self.excluded.insert(i, (x, c));
        }
    }

    /// Whether integer variables `x` and `y` are known to be equal (a variable is equal to
    /// itself).
    pub fn same(&self, x: crate::program::ir::VarId, y: crate::program::ir::VarId) -> bool {
        x == y || self.equal.binary_search(&(x.min(y), x.max(y))).is_ok()
    }

    /// Records that integer variable `x`, just written with a copy of `y`, equals `y` and
    /// every variable known equal to `y`.
    pub fn equate(&mut self, x: crate::program::ir::VarId, y: crate::program::ir::VarId) {
        let mut class: Vec<_> = self
            .equal
            .iter()
            .filter_map(|&(a, b)| {
                if a == y {
                    Some(b)
                } else if b == y {
                    Some(a)
                } else {
                    None
                }
            })
            .collect();
        class.push(y);
        for z in class.into_iter().filter(|z| *z != x) {
            let pair = (x.min(z), x.max(z));
            if let Err(i) = self.equal.binary_search(&pair) {
                self.equal.insert(i, pair);
            }
        }
    }

    /// Records (or forgets, with `None`) the constant of integer variable `x`; the
    /// constants it was known to differ from and the variables it was known equal to are
    /// forgotten.
    pub fn set_constant(&mut self, x: crate::program::ir::VarId, c: Option<i64>) {
        self.excluded.retain(|e| e.0 != x);
        self.equal.retain(|e| e.0 != x && e.1 != x);
        match (self.consts.binary_search_by_key(&x, |c| c.0), c) {
            (Ok(i), Some(c)) => self.consts[i].1 = c,
            (Ok(i), None) => {
                self.consts.remove(i);
            }
            (Err(i), Some(c)) => self.consts.insert(i, (x, c)),
            (Err(_), None) => {}
        }
    }

    /// The value of predicate `p` (a vocabulary id) on `args`.
    pub fn get(&self, v: &Vocab, p: usize, args: &[usize]) -> Kleene {
        let info = &v.preds[p];
        if info.arity == 1 {
            self.un[info.slot][args[0]]
        } else {
            self.bin[info.slot][args[0] * self.n + args[1]]
        }
    }

    /// Sets predicate `p` on `args`.
    pub fn set(&mut self, v: &Vocab, p: usize, args: &[usize], k: Kleene) {
        let info = &v.preds[p];
        if info.arity == 1 {
            self.un[info.slot][args[0]] = k;
        } else {
            let n = self.n;
            self.bin[info.slot][args[0] * n + args[1]] = k;
        }
    }

    /// Adds a node of type `s` with every predicate false; returns it.
    pub fn add_node(&mut self, s: StructId) -> usize {
        let (old, n) = (self.n, self.n + 1);
        for t in &mut self.bin {
            let mut nt = vec![F; n * n];
            for a in 0..old {
                for b in 0..old {
                    nt[a * n + b] = t[a * old + b];
                }
            }
            *t = nt;
        }
        for u in &mut self.un {
            u.push(F);
        }
        self.ty.push(s);
        self.sm.push(F);
        self.n = n;
        old
    }

    /// Adds a copy of node `u` (same values towards every other node and itself); returns it.
    pub fn duplicate(&mut self, u: usize) -> usize {
        let c = self.add_node(self.ty[u]);
        let n = self.n;
        for t in &mut self.bin {
            for w in 0..n {
                let w0 = if w == c { u } else { w };
                t[c * n + w] = t[u * n + w0];
                t[w * n + c] = t[w0 * n + u];
            }
        }
        for t in &mut self.un {
            t[c] = t[u];
        }
        self.sm[c] = self.sm[u];
        c
    }

    /// Keeps only the nodes for which `keep` holds (renumbered in order).
    pub fn retain(&mut self, keep: &[bool]) {
        let idx: Vec<usize> = (0..self.n).filter(|i| keep[*i]).collect();
        let (old, n) = (self.n, idx.len());
        for t in &mut self.bin {
            let mut nt = vec![F; n * n];
            for (i, &a) in idx.iter().enumerate() {
                for (j, &b) in idx.iter().enumerate() {
                    nt[i * n + j] = t[a * old + b];
                }
            }
            *t = nt;
        }
        for t in &mut self.un {
            *t = idx.iter().map(|i| t[*i]).collect();
        }
        self.ty = idx.iter().map(|i| self.ty[*i]).collect();
        self.sm = idx.iter().map(|i| self.sm[*i]).collect();
        self.n = n;
    }

    /// The nodes some tracked pointer can reach through tracked fields (possibly): no
    /// operation can access the others again.
    pub fn live_nodes(&self, v: &Vocab) -> Vec<bool> {
        let mut seen = vec![false; self.n];
        let mut stack: Vec<usize> = (0..self.n)
            .filter(|u| (0..v.vars.len()).any(|x| self.get(v, v.pt(x), &[*u]) != F))
            .collect();
        while let Some(u) = stack.pop() {
            if std::mem::replace(&mut seen[u], true) {
                continue;
            }
            for f in 0..v.fields.len() {
                let p = v.field_pred(f);
                stack.extend((0..self.n).filter(|w| !seen[*w] && self.get(v, p, &[u, *w]) != F));
            }
        }
        seen
    }

    /// A copy in which node `u` has no core predicate: no pointer or field points to it and
    /// its fields point nowhere (what the rest of the heap sees once `u` is gone).
    pub fn disconnected(&self, v: &Vocab, u: usize) -> Graph {
        let mut g = self.clone();
        for (id, p) in v.preds.iter().enumerate() {
            if matches!(p.kind, PredKind::Instr(_)) {
                continue;
            }
            if p.arity == 1 {
                g.set(v, id, &[u], F);
            } else {
                for w in 0..self.n {
                    g.set(v, id, &[u, w], F);
                    g.set(v, id, &[w, u], F);
                }
            }
        }
        g
    }

    /// The canonical name of a node: its type and its abstraction predicates' values. A
    /// field predicate names a node only by whether it surely holds: cells where it is 0 and
    /// cells where it is 1/2 are merged (into 1/2), so that a field shown to differ from a
    /// constant in some cells and unknown in others does not double the cell kinds.
    fn canonical_name(&self, v: &Vocab, u: usize) -> (StructId, Vec<Kleene>) {
        let abs = v
            .preds
            .iter()
            .filter(|p| p.abstraction)
            .map(|p| match (&p.kind, self.un[p.slot][u]) {
                (PredKind::Data(_), F) => H,
                (_, k) => k,
            })
            .collect();
        (self.ty[u], abs)
    }

    /// Every node's canonical name, a raw block's extended by its sure referrers: each field
    /// with an edge surely into it, with the name of the node the edge leaves. A raw block
    /// has no predicates of its own, and it has no edges out, so its referrers' names are
    /// final: blocks every cell of a list shares (`n->data1 = d1; n->data2 = d2`), or the one
    /// block all cells of each of two lists share, stay apart instead of merging into one
    /// summary block that each cell only may point to.
    fn canonical_names(&self, v: &Vocab) -> Vec<Name> {
        let base: Vec<_> = (0..self.n).map(|u| self.canonical_name(v, u)).collect();
        (0..self.n)
            .map(|u| {
                let mut refs = vec![];
                if raw_info(self.ty[u]).is_some() {
                    for f in 0..v.fields.len() {
                        let p = v.field_pred(f);
                        let sure = (0..self.n).filter(|a| *a != u && self.get(v, p, &[*a, u]) == T);
                        refs.extend(sure.map(|a| (f, base[a].clone())));
                    }
                    refs.sort();
                    refs.dedup();
                }
                (base[u].0, base[u].1.clone(), refs)
            })
            .collect()
    }

    /// Canonical abstraction: merges nodes with equal canonical names (joining values, the
    /// merged node a summary node) and orders nodes by name, so that equal abstract states
    /// are equal structures.
    pub fn blur(&self, v: &Vocab) -> Graph {
        let names = self.canonical_names(v);
        let mut distinct = names.clone();
        distinct.sort();
        distinct.dedup();
        let class: Vec<usize> = names
            .iter()
            .map(|nm| distinct.binary_search(nm).unwrap_or(0))
            .collect();
        let m = distinct.len();
        let mut g = Graph {
            n: m,
            ty: distinct.iter().map(|d| d.0).collect(),
            sm: vec![F; m],
            un: vec![vec![F; m]; self.un.len()],
            bin: vec![vec![F; m * m]; self.bin.len()],
            invalid: self.invalid.clone(),
            consts: self.consts.clone(),
            excluded: self.excluded.clone(),
            equal: self.equal.clone(),
        };
        let mut first = vec![true; m];
        let mut count = vec![0usize; m];
        for u in 0..self.n {
            let c = class[u];
            count[c] += 1;
            g.sm[c] = if count[c] > 1 { H } else { self.sm[u] };
            for (s, t) in self.un.iter().enumerate() {
                g.un[s][c] = if first[c] {
                    t[u]
                } else {
                    join(g.un[s][c], t[u])
                };
            }
            first[c] = false;
        }
        let mut seen = vec![false; m * m];
        for a in 0..self.n {
            for b in 0..self.n {
                let (ca, cb) = (class[a], class[b]);
                let k = ca * m + cb;
                for (s, t) in self.bin.iter().enumerate() {
                    let val = t[a * self.n + b];
                    g.bin[s][k] = if seen[k] { join(g.bin[s][k], val) } else { val };
                }
                seen[k] = true;
            }
        }
        g
    }

    /// `self ⊔ other` if the two differ only in the unary predicates at `slots`, where one is
    /// 0 and the other 1/2 (the joined graph has 1/2); `None` if they differ elsewhere, or if
    /// `other` is below `self`.
    pub fn join_data(&self, other: &Graph, slots: &[usize]) -> Option<Graph> {
        let same = self.n == other.n
            && self.ty == other.ty
            && self.sm == other.sm
            && self.invalid == other.invalid
            && self.consts == other.consts
            && self.excluded == other.excluded
            && self.equal == other.equal
            && self.bin == other.bin
            && (0..self.un.len()).all(|s| slots.contains(&s) || self.un[s] == other.un[s]);
        if !same {
            return None;
        }
        let mut out = self.clone();
        let mut changed = false;
        for &s in slots {
            for (a, b) in out.un[s].iter_mut().zip(&other.un[s]) {
                match (*a, *b) {
                    (x, y) if x == y => {}
                    (F, H) | (H, F) => {
                        changed |= *a == F;
                        *a = H;
                    }
                    _ => return None,
                }
            }
        }
        changed.then_some(out)
    }

    /// `self ⊑ other`: the identity on canonical names embeds `self` into `other` (both
    /// blurred; same nodes, every value of `self` below the one of `other`).
    pub fn embeds_into(&self, other: &Graph) -> bool {
        self.n == other.n
            && self.ty == other.ty
            && below_all(&self.invalid, &other.invalid)
            && other.consts.iter().all(|c| self.consts.contains(c))
            && other.excluded.iter().all(|&(x, c)| self.differs(x, c))
            && other.equal.iter().all(|e| self.equal.contains(e))
            && below_all(&self.sm, &other.sm)
            && self.un.iter().zip(&other.un).all(|(a, b)| below_all(a, b))
            && self
                .bin
                .iter()
                .zip(&other.bin)
                .all(|(a, b)| below_all(a, b))
    }

    /// A text rendering: one line per node with its unary predicates, one per edge.
    pub fn text(&self, v: &Vocab) -> String {
        let mut s = String::new();
        for (x, tv) in v.vars.iter().enumerate() {
            if self.invalid[x] != F {
                let _ = writeln!(s, "  {} {} invalid", tv.name, kleene(self.invalid[x]));
            }
        }
        for u in 0..self.n {
            let sm = if self.sm[u] == F { "" } else { " (summary)" };
            let preds: Vec<String> = v
                .preds
                .iter()
                .filter(|p| p.arity == 1 && self.un[p.slot][u] != F)
                .map(|p| format!("{}={}", p.name, kleene(self.un[p.slot][u])))
                .collect();
            let _ = writeln!(s, "  n{u}{sm}: {}", preds.join(" "));
        }
        for p in v.preds.iter().filter(|p| p.arity == 2) {
            for a in 0..self.n {
                for b in 0..self.n {
                    let k = self.bin[p.slot][a * self.n + b];
                    if k != F {
                        let _ = writeln!(s, "  n{a} -{}-> n{b} {}", p.name, kleene(k));
                    }
                }
            }
        }
        s
    }

    /// A DOT rendering (summary nodes double circles, 1/2 edges dashed).
    pub fn dot(&self, v: &Vocab, name: &str) -> String {
        let mut s = format!("subgraph \"cluster_{name}\" {{\n  label=\"{name}\";\n");
        for u in 0..self.n {
            let shape = if self.sm[u] == F {
                "circle"
            } else {
                "doublecircle"
            };
            let preds: Vec<String> = v
                .preds
                .iter()
                .filter(|p| p.arity == 1 && self.un[p.slot][u] != F)
                .map(|p| {
                    format!(
                        "{}{}",
                        p.name,
                        if self.un[p.slot][u] == H { "?" } else { "" }
                    )
                })
                .collect();
            let _ = writeln!(
                s,
                "  \"{name}_n{u}\" [shape={shape}, label=\"n{u}\\n{}\"];",
                preds.join("\\n").replace('"', "'")
            );
        }
        for p in v
            .preds
            .iter()
            .filter(|p| matches!(p.kind, PredKind::Field(_)))
        {
            for a in 0..self.n {
                for b in 0..self.n {
                    let k = self.bin[p.slot][a * self.n + b];
                    if k != F {
                        let style = if k == H { "dashed" } else { "solid" };
                        let _ = writeln!(
                            s,
                            "  \"{name}_n{a}\" -> \"{name}_n{b}\" [label=\"{}\", style={style}];",
                            p.name
                        );
                    }
                }
            }
        }
        s.push_str("}\n");
        s
    }
}

fn below_all(a: &[Kleene], b: &[Kleene]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| below(*x, *y))
}

/// `0`, `1/2`, `1`.
pub fn kleene(k: Kleene) -> &'static str {
    match k {
        F => "0",
        H => "1/2",
        T => "1",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One cell with two unary predicates: slot 0 a pointer's, slot 1 a field predicate's.
    fn cell(pt: Kleene, fd: Kleene) -> Graph {
        Graph {
            n: 1,
            ty: vec![StructId(0)],
            sm: vec![F],
            un: vec![vec![pt], vec![fd]],
            bin: vec![],
            invalid: vec![],
            consts: vec![],
            excluded: vec![],
            equal: vec![],
        }
    }

    #[test]
    fn field_predicates_join_between_0_and_one_half_only() {
        let joined = cell(T, F).join_data(&cell(T, H), &[1]);
        assert_eq!(joined.map(|g| g.un[1][0]), Some(H));
        // Below the other graph: nothing to join (it covers).
        assert!(cell(T, H).join_data(&cell(T, F), &[1]).is_none());
        // Whether the predicate surely holds is kept apart.
        assert!(cell(T, F).join_data(&cell(T, T), &[1]).is_none());
        assert!(cell(T, H).join_data(&cell(T, T), &[1]).is_none());
        // A difference outside the field predicates.
        assert!(cell(T, F).join_data(&cell(H, H), &[1]).is_none());
        assert!(cell(T, F).join_data(&cell(T, H), &[]).is_none());
    }
}

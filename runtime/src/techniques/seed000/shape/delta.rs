//! Finite differencing of closure predicates: bounds on the new value of a predicate defined
//! as a transitive closure, from its old value and the tuples of the closed relation that an
//! update added or removed (TVLA's update formulas for reachability, after Reps, Sagiv and
//! Loginov).
//!
//! Consumes the old and new graph of one update and a closure instance (`R*(v, w)`,
//! `R+(v, w)`, `R+(v, v)`, or reachability from a tracked pointer `exists u. x(u) && R*(u,
//! v)` when the update left `x` alone); produces, per tuple, an upper bound (a new path must use an
//! added edge: `old(v, w) || exists (a, b) added. R'*(v, a) && R'*(b, w)`) and a lower bound
//! (an old path survives if no removed edge lies on any: `old(v, w) && !exists (a, b)
//! removed. R*(v, a) && R*(b, w)`), also sharpened by the old reachability from another
//! pointer that definitely points to the target of a definite added edge (`x->f = y`). When the
//! update moved the pointer itself onto one cell, [`retarget`] reads the new values off another
//! pointer's reachability (`x = y`, `x = y->f`). Re-evaluating the definition alone loses what
//! the old value knew about the individuals a summary node stands for (a summary with a
//! possible self-edge always looks possibly cyclic); the bounds keep it.

use super::formula::Eval;
use super::graph::{F, Graph, H, T};
use super::vocab::{Instr, PredKind, Vocab, bind_roles};
use shapecheck_dsl::eval::Kleene;
use shapecheck_dsl::ir::{Formula, Rel};

/// The closure shapes the bounds apply to.
pub struct ClosureDelta {
    rel: Rel,
    /// The field indices the relation's roles are bound to.
    roles: Vec<usize>,
    shape: Shape,
    added: Vec<(usize, usize)>,
    removed: Vec<(usize, usize)>,
    /// For reachability from a pointer: the cells other tracked pointers (left alone by the
    /// update) definitely point to, with their reachability instance over the same relation.
    anchors: Vec<(usize, usize)>,
    /// Cells one definite edge past an anchor's cell (the only edge out of it): the cell, the
    /// sibling's predicate id, and the anchor's cell, the one cell the old reachability
    /// holds on without a path from the successor.
    successors: Vec<(usize, usize, usize)>,
    /// For cyclicity: the reachability instances (of pointers to the target of an added edge
    /// that closed a cycle) on whose cells the closed cycle lies; see [`ClosureDelta::closers`].
    closers: Vec<usize>,
}

/// Which closure an instance is.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// Binary `R*(v, w)` or `R+(v, w)`.
    Binary,
    /// Unary `R+(v, v)` (cyclicity).
    Diagonal,
    /// Unary `exists u. x(u) && R*(u, v)` (reachability from tracked pointer `x`, whose
    /// targets did not change).
    FromPointer(usize),
    /// Unary `exists u. x(u) && R*(u, v)` with `x(u)` read as "some cell's link field `c`
    /// points to `u`" (a root instance), whose link edges did not change.
    FromRoot(usize),
    /// Unary `exists u. x(u) && R*(u, v)` with `x(u)` read as "the link `c` of the cell
    /// tracked pointer `x` points to points to `u`", neither of which changed.
    FromPointerLink(usize, usize),
}

fn rank(k: Kleene) -> u8 {
    match k {
        F => 0,
        H => 1,
        T => 2,
    }
}

/// If `body` is `x(u) && R*(u, 0)` (either order; `R*` a closure or a predicate defined as
/// one), the relation and the field indices its roles are bound to.
fn reach_body(v: &Vocab, u: usize, body: &Formula, roles: &[usize]) -> Option<(Rel, Vec<usize>)> {
    let Formula::And(a, b) = body else {
        return None;
    };
    let star = |x: &Formula, r: &Formula| -> Option<(Rel, Vec<usize>)> {
        if !matches!(x, Formula::Pointer(w) if *w == u) {
            return None;
        }
        match r {
            Formula::Closure {
                rel,
                reflexive: true,
                from,
                to: 0,
            } if *from == u => Some((rel.clone(), roles.to_vec())),
            Formula::Pred(p, rs, args) if args[..] == [u, 0] => {
                let bound = bind_roles(roles, rs);
                match &v.decl(*p).body {
                    Formula::Closure {
                        rel,
                        reflexive: true,
                        from: 0,
                        to: 1,
                    } => Some((rel.clone(), bound)),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    star(a, b).or_else(|| star(b, a))
}

impl ClosureDelta {
    /// The delta of instance `inst` between `old` and `new` (same nodes), if its body is a
    /// closure of one of the supported shapes.
    pub fn new(
        v: &Vocab,
        inst: &Instr,
        (old, new): (&Graph, &Graph),
        blur: bool,
    ) -> Option<ClosureDelta> {
        if old.n != new.n {
            return None;
        }
        let decl = v.decl(inst.pred);
        let (rel, roles, shape) = match (&decl.body, inst.only_pointer()) {
            (
                Formula::Closure {
                    rel,
                    from: 0,
                    to: 1,
                    ..
                },
                None,
            ) if decl.arity == 2 => (rel.clone(), inst.roles.clone(), Shape::Binary),
            (
                Formula::Closure {
                    rel,
                    reflexive: false,
                    from: 0,
                    to: 0,
                },
                None,
            ) if decl.arity == 1 => (rel.clone(), inst.roles.clone(), Shape::Diagonal),
            (Formula::Exists(u, body), Some(x)) if decl.arity == 1 => {
                if moved(v, x, old, new) {
                    return None;
                }
                let (rel, roles) = reach_body(v, *u, body, &inst.roles)?;
                (rel, roles, Shape::FromPointer(x))
            }
            (Formula::Exists(u, body), None)
                if decl.arity == 1 && inst.pointer_link().is_some() =>
            {
                let (x, c) = inst.pointer_link()?;
                if moved(v, x, old, new) || rerooted(v, c, old, new) {
                    return None;
                }
                let (rel, roles) = reach_body(v, *u, body, &inst.roles)?;
                (rel, roles, Shape::FromPointerLink(x, c))
            }
            (Formula::Exists(u, body), None) if decl.arity == 1 => {
                let c = inst.only_root()?;
                if rerooted(v, c, old, new) {
                    return None;
                }
                let (rel, roles) = reach_body(v, *u, body, &inst.roles)?;
                (rel, roles, Shape::FromRoot(c))
            }
            _ => return None,
        };
        let relf = edge(&rel);
        let (eo, en) = (Eval::new(v, old, inst, None), Eval::new(v, new, inst, None));
        let mut d = ClosureDelta {
            rel,
            roles,
            shape,
            added: vec![],
            removed: vec![],
            anchors: vec![],
            successors: vec![],
            closers: vec![],
        };
        if let Shape::FromPointer(x) = shape {
            d.anchors = anchors(v, inst, x, old, new);
            d.successors = successor_anchors(v, inst, (&relf, &d.roles), &d.anchors, (old, new));
        }
        for &a in &en.nodes {
            // A store of an unknown value leaves `1/2` tuples whose cells may have changed
            // (not so when the cell a field pointed to was freed: `blur` false).
            let blurred = blur && (touched_unknown(v, old, a) || touched_unknown(v, new, a));
            for &b in &en.nodes {
                let was = eo.formula(&relf, &d.roles, vec![a, b]);
                let now = en.formula(&relf, &d.roles, vec![a, b]);
                if rank(now) > rank(was) || (blurred && now == H) {
                    d.added.push((a, b));
                }
                if rank(now) < rank(was) || (blurred && now == H) {
                    d.removed.push((a, b));
                }
            }
        }
        if shape == Shape::Diagonal {
            d.closers = d.closers(v, old, new);
        }
        Some(d)
    }

    /// Whether the update left the relation as it was.
    pub fn unchanged(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }

    /// Sharpens `val`, the re-evaluated value of the instance on `t`, with the bounds.
    pub fn sharpen(
        &self,
        v: &Vocab,
        inst: &Instr,
        (old, new): (&Graph, &Graph),
        t: &[usize],
        val: Kleene,
    ) -> Kleene {
        if val != H {
            return val;
        }
        let was = old.get(v, inst.id, t);
        let star = Formula::Closure {
            rel: self.rel.clone(),
            reflexive: true,
            from: 0,
            to: 1,
        };
        // The sources of the paths: the tuple's first node, or the pointer's targets.
        let sources = |g: &Graph| -> Vec<(usize, Kleene)> {
            match self.shape {
                Shape::FromPointer(x) => (0..g.n)
                    .map(|u| (u, g.get(v, v.pt(x), &[u])))
                    .filter(|(_, k)| *k != F)
                    .collect(),
                Shape::FromRoot(c) => (0..g.n)
                    .map(|u| (u, root_at(v, g, c, u)))
                    .filter(|(_, k)| *k != F)
                    .collect(),
                Shape::FromPointerLink(x, c) => (0..g.n)
                    .map(|u| (u, link_of_pointer_at(v, g, (x, c), u)))
                    .filter(|(_, k)| *k != F)
                    .collect(),
                _ => vec![(t[0], T)],
            }
        };
        let b0 = if self.shape == Shape::Binary {
            t[1]
        } else {
            t[0]
        };
        let via = |g: &Graph, edges: &[(usize, usize)]| -> Kleene {
            let ev = Eval::new(v, g, inst, None);
            let mut acc = F;
            for (a0, k) in sources(g) {
                for &(a, b) in edges {
                    if self.off_simple_paths(v, g, (a0, b0), (a, b)) {
                        continue;
                    }
                    let x = ev.formula(&star, &self.roles, vec![a0, a]);
                    let y = ev.formula(&star, &self.roles, vec![b, b0]);
                    acc = acc.or(k.and(x).and(y));
                    if acc == T {
                        return acc;
                    }
                }
            }
            acc
        };
        if was != T && via(new, &self.added) == F {
            return was;
        }
        if was == T && via(old, &self.removed) == F {
            return T;
        }
        if was == T && self.rejoined(v, inst, new, t) {
            return T;
        }

        if self.reached_over_added(v, inst, (old, new), b0) {
            return T;
        }
        if self
            .closers
            .iter()
            .any(|&sib| old.get(v, sib, &[t[0]]) == T)
        {
            return T;
        }
        val
    }

    /// Whether every old path survives in another form: the target `b` of each removed edge
    /// is still wholly reached in the new graph (from the tuple's first node, or the
    /// sources). An old path through removed edges has a suffix after the last of them,
    /// from some `b` and intact; the new path to `b` followed by it reaches the same cell.
    /// After a cell is put behind the head of a ring (`head->next = t` after `t->next =
    /// head->next`), the rest of the ring stays reachable from the head through `t`.
    fn rejoined(&self, v: &Vocab, inst: &Instr, new: &Graph, t: &[usize]) -> bool {
        if self.shape == Shape::Diagonal || self.removed.is_empty() {
            return false;
        }
        let ev = Eval::new(v, new, inst, None);
        self.removed.iter().all(|&(_, b)| {
            let at = if self.shape == Shape::Binary {
                vec![t[0], b]
            } else {
                vec![b]
            };
            ev.instance(&at) == T
        })
    }

    /// Whether edge `a -> b` lies on no simple path from `a0` to `b0`, so a path between
    /// them never needs it: it enters `a0` or leaves `b0` (each a single cell; for
    /// reachability from a pointer `a0` is its definite cell). Cyclicity (`R+(v, v)`) is a
    /// path that returns to its start, so it keeps every edge. Without this, closing a
    /// cyclic list (`x->next = head`) and reopening it lost `head`'s reachability.
    fn off_simple_paths(
        &self,
        v: &Vocab,
        g: &Graph,
        (a0, b0): (usize, usize),
        (a, b): (usize, usize),
    ) -> bool {
        if self.shape == Shape::Diagonal || a0 == b0 {
            return false;
        }
        (b == a0 && g.sm[a0] == F) || (a == b0 && g.sm[b0] == F) || self.returns(v, g, b, (a0, b0))
    }

    /// Whether every path from `b` runs into `a0` before `b0`, along a field (a function):
    /// the chain of single cells from `b`, each with its one definite edge, meets `a0` first.
    /// In a cyclic list, the head's cell whose edge leads to `x`'s cell is on no simple path
    /// from `x` (freeing the head after `x = head->next` keeps every other cell reachable).
    fn returns(&self, v: &Vocab, g: &Graph, b: usize, (a0, b0): (usize, usize)) -> bool {
        let Rel::Field(r) = self.rel else {
            return false;
        };
        let f = v.field_pred(self.roles[r]);
        if g.sm[a0] != F {
            return false;
        }
        let mut c = b;
        for _ in 0..g.n {
            if c == a0 {
                return true;
            }
            if c == b0 || g.sm[c] != F {
                return false;
            }
            match (0..g.n).find(|&w| g.get(v, f, &[c, w]) == T) {
                Some(w) => c = w,
                None => return false,
            }
        }
        false
    }

    /// The cycles the update closed along a field: it added the definite edge `a -> b`
    /// between single cells, `a` had no successor before, and a tracked pointer `y` points to
    /// `b` and reached `a`. The path from `y` was then a chain ending at `a`, so every cell
    /// `y` reached lies on `t0 ->* a -> b ->* t0` (`x->next = head` closing a cyclic list
    /// after an append). The answer is the reachability instances of such pointers `y`.
    fn closers(&self, v: &Vocab, old: &Graph, new: &Graph) -> Vec<usize> {
        let Rel::Field(r) = self.rel else {
            return vec![];
        };
        let f = v.field_pred(self.roles[r]);
        let closing = |a: usize, b: usize| {
            new.get(v, f, &[a, b]) == T
                && old.sm[a] == F
                && old.sm[b] == F
                && (0..old.n).all(|w| old.get(v, f, &[a, w]) == F)
                && self.removed.iter().all(|&(c, _)| c == a)
        };
        let edges: Vec<(usize, usize)> = (self.added.iter().copied())
            .filter(|&(a, b)| closing(a, b))
            .collect();
        (v.instr.iter())
            .filter(|sib| self.reaches_over(v, sib))
            .filter(|sib| {
                let Some(y) = sib.only_pointer() else {
                    return false;
                };
                edges.iter().any(|&(a, b)| {
                    new.get(v, v.pt(y), &[b]) == T
                        && old.get(v, v.pt(y), &[b]) == T
                        && old.get(v, sib.id, &[a]) == T
                })
            })
            .map(|sib| sib.id)
            .collect()
    }

    /// Whether instance `sib` is reachability from its pointer over this delta's relation.
    fn reaches_over(&self, v: &Vocab, sib: &Instr) -> bool {
        let decl = v.decl(sib.pred);
        match &decl.body {
            Formula::Exists(u, body) if decl.arity == 1 => reach_body(v, *u, body, &sib.roles)
                .is_some_and(|(rel, roles)| rel == self.rel && roles == self.roles),
            _ => false,
        }
    }

    /// Whether every individual of `b0` is reached from the pointer over a definite added
    /// edge `a -> b` (the pointer definitely reaches `a`) followed by an old path from `b`
    /// that no removed edge lies on: `b` is the cell of an anchor pointer (or one definite
    /// edge past it, and `b0` is not the anchor's cell) whose old reachability holds on `b0`
    /// and on no source of a removed edge (TVLA's update for `x->f = y`:
    /// `reach[z](v) = reach[z](v) || reach[z](x) && reach[y](v)`).
    fn reached_over_added(
        &self,
        v: &Vocab,
        inst: &Instr,
        (old, new): (&Graph, &Graph),
        b0: usize,
    ) -> bool {
        let Shape::FromPointer(x) = self.shape else {
            return false;
        };
        let ev = Eval::new(v, new, inst, None);
        let sources: Vec<usize> = (0..new.n)
            .filter(|u| new.get(v, v.pt(x), &[*u]) == T)
            .collect();
        // The anchors at `b`: a pointer's cell (every cell it reaches), or the cell one edge
        // past it (every cell it reaches but its own).
        let at = |b: usize| {
            let direct = self.anchors.iter().filter(move |(w, _)| *w == b);
            let next = self.successors.iter().filter(move |(w, _, _)| *w == b);
            direct
                .map(|&(_, sib)| (sib, None))
                .chain(next.map(|&(_, sib, w0)| (sib, Some(w0))))
        };
        self.added.iter().any(|&(a, b)| {
            at(b).any(|(sib, except)| {
                except != Some(b0) && self.reached_via(v, (old, &ev), (a, b, b0), sib, &sources)
            })
        })
    }

    /// Whether the definite added edge `a -> b` is reached from a source and every old path
    /// from the sibling's pointer to `b0` survives (no removed edge leaves a cell it reached).
    fn reached_via(
        &self,
        v: &Vocab,
        (old, ev): (&Graph, &Eval),
        (a, b, b0): (usize, usize, usize),
        sib: usize,
        sources: &[usize],
    ) -> bool {
        let star = Formula::Closure {
            rel: self.rel.clone(),
            reflexive: true,
            from: 0,
            to: 1,
        };
        let relf = edge(&self.rel);
        ev.formula(&relf, &self.roles, vec![a, b]) == T
            && old.get(v, sib, &[b0]) == T
            && self
                .removed
                .iter()
                .all(|(c, _)| old.get(v, sib, &[*c]) == F)
            && sources
                .iter()
                .any(|&a0| ev.formula(&star, &self.roles, vec![a0, a]) == T)
    }
}

/// The relation's edge `R(0, 1)` as a formula.
fn edge(rel: &Rel) -> Formula {
    match rel {
        Rel::Field(r) => Formula::Field(*r, 0, 1),
        Rel::Pred(p, rs) => Formula::Pred(*p, rs.clone(), vec![0, 1]),
    }
}

/// The anchors of reachability instance `inst` from pointer `x`: per sibling instance (same
/// predicate and roles) of another tracked pointer `y` that the update left alone and that
/// definitely points to one cell, that cell and the sibling's predicate id.
fn anchors(v: &Vocab, inst: &Instr, x: usize, old: &Graph, new: &Graph) -> Vec<(usize, usize)> {
    v.instr
        .iter()
        .filter(|sib| sib.pred == inst.pred && sib.roles == inst.roles)
        .filter_map(|sib| {
            let y = sib
                .only_pointer()
                .filter(|y| *y != x && !moved(v, *y, old, new))?;
            Some((single_target(v, old, y)?, sib.id))
        })
        .collect()
}

/// The successor anchors: for an anchor whose cell `w0` has, before and after the update,
/// exactly one outgoing edge of the relation, the definite `w0 -> b` to another concrete cell
/// `b`, the triple `(b, sibling, w0)`: every path from `y` to a cell other than `w0` starts
/// with that edge, so the old `reach[y]` holds on a cell other than `w0` only if it was
/// reached from `b` (TVLA's `reach[y->f](v) = reach[y](v) && v != y`, for an acyclic or
/// cyclic list alike).
fn successor_anchors(
    v: &Vocab,
    inst: &Instr,
    rel: (&Formula, &[usize]),
    anchors: &[(usize, usize)],
    (old, new): (&Graph, &Graph),
) -> Vec<(usize, usize, usize)> {
    let (eo, en) = (Eval::new(v, old, inst, None), Eval::new(v, new, inst, None));
    let (f, roles) = rel;
    anchors
        .iter()
        .filter_map(|&(w0, sib)| {
            if old.sm[w0] != F {
                return None;
            }
            let mut succ = None;
            for &b in &eo.nodes {
                let (was, now) = (
                    eo.formula(f, roles, vec![w0, b]),
                    en.formula(f, roles, vec![w0, b]),
                );
                match (was, now) {
                    (F, F) => {}
                    (T, T) if succ.is_none() && b != w0 && old.sm[b] == F => succ = Some(b),
                    _ => return None,
                }
            }
            Some((succ?, sib, w0))
        })
        .collect()
}

/// Whether some tracked field of node `a` may hold an unknown value, whose 1/2 edges can hide
/// a change. An uninitialised field (`undef` 1) has no edges (coerce), so a node whose fields
/// are only that keeps its old paths: the cells of a list built with `inner` uninitialised
/// stay reachable when the list is hung under another cell.
fn touched_unknown(v: &Vocab, g: &Graph, a: usize) -> bool {
    v.preds.iter().enumerate().any(|(id, p)| {
        matches!(p.kind, PredKind::Undef(f) if v.carries(g.ty[a], v.fields[f].strukt))
            && g.get(v, id, &[a]) == H
    })
}

/// The new values of reachability from tracked pointer `x` (instance `inst`) after an update
/// that moved `x` onto one cell `w`, read off a sibling instance for a pointer `y` that the
/// update left alone, over the same relation, when the relation itself did not change (TVLA's
/// update formulas for `x = y` and `x = y->f`):
/// - `y` points to `w`: `reach[x] = reach[y]`;
/// - `y` points to a single cell whose only outgoing edge is the definite `w' -> w`: every
///   path from `w'` to another cell starts with that edge, so `reach[x](v) = reach[y](v)`
///   for every node `v` other than `w'` (and `reach[x](w')` is left to the definition);
/// - the same with `y` the old `x` itself (`x = x->f`).
///
/// Re-evaluating the definition instead loses what `reach[y]` knew about summary nodes: a
/// summary with a possible self-edge and a possible edge from `w` looks only possibly
/// reachable from `w`. Returns per node the known value, `None` where nothing is known.
pub fn retarget(v: &Vocab, inst: &Instr, old: &Graph, new: &Graph) -> Option<Vec<Option<Kleene>>> {
    let x = inst.only_pointer()?;
    if old.n != new.n || v.decl(inst.pred).arity != 1 || !moved(v, x, old, new) {
        return None;
    }
    let w = single_target(v, new, x)?;
    let Formula::Exists(u, body) = &v.decl(inst.pred).body else {
        return None;
    };
    let (rel, roles) = reach_body(v, *u, body, &inst.roles)?;
    let f = edge(&rel);
    let (eo, en) = (Eval::new(v, old, inst, None), Eval::new(v, new, inst, None));
    let relf = |a: usize, b: usize| eo.formula(&f, &roles, vec![a, b]);
    let nodes = &en.nodes;
    if !same_relation((&eo, &en), &f, &roles) {
        return None;
    }
    // The pointer's own old cell is an anchor too (`x = x->f`): its old reachability holds
    // on every cell past the one edge it moved along.
    let own = single_target(v, old, x).map(|w0| (w0, inst.id));
    let copied = anchors(v, inst, x, old, new)
        .into_iter()
        .chain(own)
        .chain(root_anchors(v, inst, old, new))
        .find_map(|(w0, sib)| {
            let copy = |skip: Option<usize>| {
                (0..new.n)
                    .map(|u| (Some(u) != skip).then(|| old.get(v, sib, &[u])))
                    .collect()
            };
            if w0 == w {
                return Some(copy(None));
            }
            let only_edge = old.sm[w0] == F
                && nodes
                    .iter()
                    .all(|&b| relf(w0, b) == if b == w { T } else { F });
            only_edge.then(|| {
                let mut known: Vec<Option<Kleene>> = copy(Some(w0));
                known[w0] = cyclic_at(v, old, (&rel, &roles), w0);
                known
            })
        });
    let star = Formula::Closure {
        rel,
        reflexive: true,
        from: 0,
        to: 1,
    };
    let reaches = |a: usize, b: usize| en.formula(&star, &roles, vec![a, b]) != F;
    let rooted = root_reach(v, inst, (old, new), w, &reaches);
    match (copied, rooted) {
        (None, r) => r,
        (Some(c), None) => Some(c),
        (Some(c), Some(r)) => Some(
            c.into_iter()
                .zip(r)
                .map(|(c, r)| if r == Some(T) { r } else { c })
                .collect(),
        ),
    }
}

/// Whether the relation's edge `e` has the same value on every pair of nodes before and
/// after the update.
fn same_relation((eo, en): (&Eval, &Eval), e: &Formula, roles: &[usize]) -> bool {
    let nodes = &en.nodes;
    nodes.iter().all(|&a| {
        nodes
            .iter()
            .all(|&b| eo.formula(e, roles, vec![a, b]) == en.formula(e, roles, vec![a, b]))
    })
}

/// Reachability from a pointer moved onto single cell `w`, read off root instances (same
/// predicate and roles) whose links and relation the update left alone: a node on which the
/// root instance is 1 and that no root but `w` may reach (`reaches`, over the new graph) is
/// reached from `w` in all its cells (`item = bcki->list` with the other buckets' lists
/// apart from this one's).
fn root_reach(
    v: &Vocab,
    inst: &Instr,
    (old, new): (&Graph, &Graph),
    w: usize,
    reaches: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<Option<Kleene>>> {
    let mut known = vec![None; new.n];
    let mut any = false;
    if new.sm[w] != F {
        return None;
    }
    for sib in root_siblings(v, inst) {
        let Some(c) = sib.only_root().filter(|c| !rerooted(v, *c, old, new)) else {
            continue;
        };
        let roots: Vec<usize> = (0..new.n).filter(|&r| root_at(v, new, c, r) != F).collect();
        for (u, k) in known.iter_mut().enumerate() {
            if old.get(v, sib.id, &[u]) == T && roots.iter().all(|&r| r == w || !reaches(r, u)) {
                *k = Some(T);
                any = true;
            }
        }
    }
    any.then_some(known)
}

/// The root instances of the same predicate, roles and struct as instance `inst`.
fn root_siblings<'v>(v: &'v Vocab, inst: &'v Instr) -> impl Iterator<Item = &'v Instr> {
    v.instr.iter().filter(|sib| {
        sib.only_root().is_some()
            && sib.pred == inst.pred
            && sib.roles == inst.roles
            && sib.strukt == inst.strukt
    })
}

/// The anchors of reachability instance `inst` read off root instances (same predicate and
/// roles) whose link edges the update left alone and whose only root is one single cell: what
/// the root instance reaches is what that cell reaches (`n = st->node` with `st` the one
/// stack item).
fn root_anchors(v: &Vocab, inst: &Instr, old: &Graph, new: &Graph) -> Vec<(usize, usize)> {
    root_siblings(v, inst)
        .filter_map(|sib| {
            let c = sib.only_root()?;
            if rerooted(v, c, old, new) {
                return None;
            }
            let mut roots = (0..old.n).filter(|&u| root_at(v, old, c, u) != F);
            let w = roots.next()?;
            let only = roots.next().is_none() && old.sm[w] == F && root_at(v, old, c, w) == T;
            only.then_some((w, sib.id))
        })
        .collect()
}

/// Whether cell `w0` lies on a cycle of the relation, read off a cyclicity instance
/// (`R+(v, v)`) of the same relation: when `w0`'s only edge leads to the pointer's new cell,
/// that is whether the pointer reaches `w0` (`reach[y->f](y) = cyclic(y)`).
fn cyclic_at(v: &Vocab, old: &Graph, (rel, roles): (&Rel, &[usize]), w0: usize) -> Option<Kleene> {
    cyclic_instances(v, rel, roles)
        .filter(|c| v.carries(old.ty[w0], c.strukt))
        .find_map(|c| Some(old.get(v, c.id, &[w0])).filter(|k| *k != H))
}

/// The cyclicity instances (`R+(v, v)`, no pointer or root) of relation `rel` with its roles
/// bound to `roles`.
pub fn cyclic_instances<'v>(
    v: &'v Vocab,
    rel: &Rel,
    roles: &[usize],
) -> impl Iterator<Item = &'v Instr> {
    let key = bound(rel, roles);
    v.instr.iter().filter(move |c| {
        let Formula::Closure {
            rel: r,
            reflexive: false,
            from: 0,
            to: 0,
        } = &v.decl(c.pred).body
        else {
            return false;
        };
        c.pointer.is_none() && c.root.is_none() && bound(r, &c.roles) == key
    })
}

/// A relation with its roles bound: the field, or the predicate with its fields.
fn bound(rel: &Rel, roles: &[usize]) -> (Option<shapecheck_dsl::ir::PredId>, Vec<usize>) {
    match rel {
        Rel::Field(r) => (None, bind_roles(roles, &[*r])),
        Rel::Pred(p, rs) => (Some(*p), bind_roles(roles, rs)),
    }
}

/// The new values of a root instance `inst` (reachability from the targets of link field
/// `c`) after an update that changed link edges but not the relation (`o->items = i`,
/// `o->items = i->next`, `s->node = n->left`): where the old value was 1 it stays 1 if every
/// node that may have lost a root (the old targets of a cell whose link changed) is itself
/// definitely reached from the new roots (by the definition re-evaluated), or every node
/// holding a successor of it is (then the lost root's own node is left to the definition).
/// Each old path then continues from a new root, along edges the update left alone. A
/// link that may hold an unknown value (whose 1/2 edges can hide a change) gives `None`, as
/// does a changed relation. Returns per node the known value, `None` where nothing is known.
pub fn reroot(v: &Vocab, inst: &Instr, old: &Graph, new: &Graph) -> Option<Vec<Option<Kleene>>> {
    let c = inst.only_root()?;
    if old.n != new.n
        || v.decl(inst.pred).arity != 1
        || link_unknown(v, c, old)
        || link_unknown(v, c, new)
    {
        return None;
    }
    let changed = relinked(v, c, old, new);
    if changed.is_empty() {
        return None;
    }
    let f = v.field_pred(c);
    let Formula::Exists(u, body) = &v.decl(inst.pred).body else {
        return None;
    };
    let (rel, roles) = reach_body(v, *u, body, &inst.roles)?;
    let e = edge(&rel);
    let (eo, en) = (Eval::new(v, old, inst, None), Eval::new(v, new, inst, None));
    let nodes = &en.nodes;
    let blurred = nodes
        .iter()
        .any(|&a| touched_unknown(v, old, a) || touched_unknown(v, new, a));
    if blurred || !same_relation((&eo, &en), &e, &roles) {
        return None;
    }
    let lost: Vec<usize> = (nodes.iter().copied())
        .filter(|&u| changed.iter().any(|&s| old.get(v, f, &[s, u]) != F))
        .collect();
    // A lost root is covered when it is itself reached from the new roots, or when every
    // node holding one of its successors is (the root moved along its edges: only the lost
    // root's own cells may then be unreached).
    let reached = |u: usize| en.instance(&[u]) == T;
    let mut past = vec![];
    for &u in &lost {
        if reached(u) {
            continue;
        }
        let succ = nodes
            .iter()
            .filter(|&&z| en.formula(&e, &roles, vec![u, z]) != F);
        if !succ.clone().all(|&z| z != u && reached(z)) {
            return None;
        }
        past.push(u);
    }
    Some(
        (0..new.n)
            .map(|w| (old.get(v, inst.id, &[w]) == T && !past.contains(&w)).then_some(T))
            .collect(),
    )
}

/// Whether the update may have changed an edge of link field `c` (the roots of a root
/// instance): an edge's value changed, or some cell's link may hold an unknown value (whose
/// 1/2 edges can hide a change).
fn rerooted(v: &Vocab, c: usize, old: &Graph, new: &Graph) -> bool {
    link_unknown(v, c, old) || link_unknown(v, c, new) || !relinked(v, c, old, new).is_empty()
}

/// Whether some cell's link field `c` may hold an unknown value in `g`.
fn link_unknown(v: &Vocab, c: usize, g: &Graph) -> bool {
    (0..g.n).any(|s| g.get(v, v.undef(c), &[s]) == H)
}

/// The nodes whose link field `c` has an edge the update changed.
fn relinked(v: &Vocab, c: usize, old: &Graph, new: &Graph) -> Vec<usize> {
    let f = v.field_pred(c);
    (0..new.n)
        .filter(|&s| (0..new.n).any(|u| old.get(v, f, &[s, u]) != new.get(v, f, &[s, u])))
        .collect()
}

/// Whether some cell's link field `c` points to node `u`: `exists s. c(s, u)`.
fn root_at(v: &Vocab, g: &Graph, c: usize, u: usize) -> Kleene {
    let f = v.field_pred(c);
    (0..g.n).fold(F, |acc, s| acc.or(g.get(v, f, &[s, u])))
}

/// Whether the link `c` of the cell tracked pointer `x` points to points to node `u`:
/// `exists s. x(s) && c(s, u)`.
pub fn link_of_pointer_at(v: &Vocab, g: &Graph, (x, c): (usize, usize), u: usize) -> Kleene {
    let f = v.field_pred(c);
    (0..g.n).fold(F, |acc, s| {
        acc.or(g.get(v, v.pt(x), &[s]).and(g.get(v, f, &[s, u])))
    })
}

/// Whether the update changed where tracked pointer `x` points.
fn moved(v: &Vocab, x: usize, old: &Graph, new: &Graph) -> bool {
    let pt = v.pt(x);
    (0..new.n).any(|u| old.get(v, pt, &[u]) != new.get(v, pt, &[u]))
}

/// The one cell tracked pointer `x` definitely points to in `g`, if it points to exactly one.
fn single_target(v: &Vocab, g: &Graph, x: usize) -> Option<usize> {
    let pt = v.pt(x);
    let mut hit = None;
    for u in 0..g.n {
        match g.get(v, pt, &[u]) {
            F => {}
            T if hit.is_none() && g.sm[u] == F => hit = Some(u),
            _ => return None,
        }
    }
    hit
}

/// The relation of closure instance `inst` with the fields its roles are bound to: `R` of
/// `R*(v, w)`, `R+(v, w)`, `R+(v, v)`, or of reachability from a pointer or a link's
/// targets.
fn closure_relation(v: &Vocab, inst: &Instr) -> Option<(Rel, Vec<usize>)> {
    match &v.decl(inst.pred).body {
        Formula::Closure { rel, .. } => Some((rel.clone(), inst.roles.clone())),
        Formula::Exists(u, body) if inst.pointer.is_some() || inst.root.is_some() => {
            reach_body(v, *u, body, &inst.roles)
        }
        _ => None,
    }
}

/// Per node `w` of `old`, whether closure instance `inst` keeps its old value on every tuple
/// ending in `w` when the update only took away edges that touch the nodes `gone` (freed or
/// removed cells): no path of the relation leads from a gone node to `w`. A path to `w` that
/// used a removed edge passed through a gone node, and a pointer or link that lost a target
/// lost a gone node; every other path and source is still there. `None` when `inst` is no
/// closure. Without this, freeing the head of one sub-list of a list of lists re-evaluated
/// the reachability from the links on the summary of the other sub-lists, which is 1/2 on a
/// summary reached through a 1/2 link edge.
pub fn beyond_gone(v: &Vocab, inst: &Instr, old: &Graph, gone: &[usize]) -> Option<Vec<bool>> {
    let (rel, roles) = closure_relation(v, inst)?;
    let star = Formula::Closure {
        rel,
        reflexive: true,
        from: 0,
        to: 1,
    };
    let ev = Eval::new(v, old, inst, None);
    Some(
        (0..old.n)
            .map(|w| {
                gone.iter()
                    .all(|&u| ev.formula(&star, &roles, vec![u, w]) == F)
            })
            .collect(),
    )
}

/// Known values of an instance `<x->c>` (reachability from the cell the link `c` of `x`'s
/// cell points to) read off a sibling instance (same predicate, roles and struct) with the
/// same source in `g`: a pointer that definitely points to that one cell, or `<y->c>` for a
/// pointer `y` that definitely points to `x`'s cell. A link that is definitely NULL (no edge,
/// not unknown) makes the instance 0 everywhere. After `o->items = t` the sub-list of `o` is
/// what `t` reaches, and after `o = next` it is what `<next->items>` was; re-evaluating
/// the definition across a summary's 1/2 edges loses both. Returns per node the known
/// value, `None` where nothing is known.
pub fn relink(v: &Vocab, inst: &Instr, g: &Graph) -> Option<Vec<Option<Kleene>>> {
    let (x, c) = inst.pointer_link()?;
    if v.decl(inst.pred).arity != 1 {
        return None;
    }
    let s = single_target(v, g, x)?;
    let siblings = || {
        v.instr.iter().filter(|j| {
            j.id != inst.id && (j.pred, &j.roles, j.strukt) == (inst.pred, &inst.roles, inst.strukt)
        })
    };
    let same_cell = |j: &&Instr| {
        j.root == Some(c) && j.pointer.is_some_and(|y| single_target(v, g, y) == Some(s))
    };
    let sib = match siblings().find(same_cell) {
        Some(sib) => sib,
        None => {
            let f = v.field_pred(c);
            let mut targets = (0..g.n).filter(|&w| g.get(v, f, &[s, w]) != F);
            let Some(w) = targets.next() else {
                return (g.get(v, v.undef(c), &[s]) == F).then(|| vec![Some(F); g.n]);
            };
            if targets.next().is_some() || g.sm[w] != F || g.get(v, f, &[s, w]) != T {
                return None;
            }
            siblings().find(|j| {
                j.only_pointer()
                    .is_some_and(|y| single_target(v, g, y) == Some(w))
            })?
        }
    };
    Some(
        (0..g.n)
            .map(|u| Some(g.get(v, sib.id, &[u])).filter(|k| *k != H))
            .collect(),
    )
}

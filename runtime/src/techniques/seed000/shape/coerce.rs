//! Coerce: sharpening a shape graph with the constraints its predicates imply, and discarding
//! structures that violate them (TVLA's `coerce`).
//!
//! Consumes a [`Vocab`]; produces [`Constraints`]: clauses over node variables, derived from
//! (1) the meaning of the core predicates (a field and a pointer point to at most one cell),
//! (2) every stored instrumentation predicate's defining formula `p(v) <=> phi(v)` (universal
//! bodies give `p -> clause`, existential ones `clause -> p`, after NNF and CNF), and (3) the
//! closure laws of predicates defined by a transitive closure (`t(a,b) && R(b,c) -> t(a,c)`,
//! `p(v) && R(v,w) -> p(w)` for reachability from a pointer). [`Constraints::apply`] runs unit
//! propagation over all instances of the clauses on a graph: a clause whose literals are all
//! false but one forces that one (when it is a stored atom or the equality that makes a node a
//! single cell); a clause whose literals are all false makes the structure infeasible.

use super::formula::Eval;
use super::graph::{F, Graph, H, T};
use super::vocab::{Instr, PredKind, Vocab};
use crate::program::ir::StructId;
use shapecheck_dsl::eval::Kleene;
use shapecheck_dsl::ir::{Formula, Rel};
use std::cell::OnceCell;

/// Whether every node of `targets` lies in the closure of the nodes `pt` may point to under
/// the `f` edges that are not 0; with `change = Some((u, w, only))`, the edge from single
/// cell `u` to `w` is taken away (`only` false) or is `u`'s only edge (`only` true).
fn entered(
    v: &Vocab,
    g: &Graph,
    (pt, link): (usize, Option<usize>),
    f: usize,
    targets: &[usize],
    change: Option<(usize, usize, bool)>,
) -> bool {
    let edge = |a: usize, b: usize| match change {
        Some((u, w, only)) if a == u => (b == w) == only && (only || g.get(v, f, &[a, b]) != F),
        _ => g.get(v, f, &[a, b]) != F,
    };
    let start = (0..g.n)
        .map(|u| match link {
            None => g.get(v, pt, &[u]) != F,
            Some(c) => (0..g.n).any(|s| g.get(v, pt, &[s]) != F && g.get(v, c, &[s, u]) != F),
        })
        .collect();
    let may = closure_of(start, edge);
    targets.iter().all(|&t| may[t])
}

/// The nodes `start` marks and those reached from them along `edge`.
fn closure_of(mut may: Vec<bool>, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut work: Vec<usize> = (0..may.len()).filter(|&u| may[u]).collect();
    while let Some(a) = work.pop() {
        for (b, reached) in may.iter_mut().enumerate() {
            if !*reached && edge(a, b) {
                *reached = true;
                work.push(b);
            }
        }
    }
    may
}

/// The entry law of a reachability instance `r` along single field `f` from a source: a
/// pointer's targets (`pt`), or the targets of link `c` of the pointer's cells (`(pt, Some(c))`).
#[derive(Clone, Copy, Debug)]
struct Entry {
    r: usize,
    pt: (usize, Option<usize>),
    f: usize,
    /// The cyclicity instance `f+(v, v)` of the same field, if the vocabulary has one.
    cyclic: Option<usize>,
}

impl Entry {
    fn new(v: &Vocab, inst: &Instr, pt: (usize, Option<usize>), f: usize) -> Entry {
        let cyclic = super::delta::cyclic_instances(v, &Rel::Field(0), &[f])
            .find(|j| j.strukt == inst.strukt)
            .map(|j| j.id);
        Entry {
            r: inst.id,
            pt,
            f: v.field_pred(f),
            cyclic,
        }
    }

    /// The one single cell the source definitely is, if it is one.
    fn single_source(&self, v: &Vocab, g: &Graph) -> Option<usize> {
        let one = |vals: Vec<(usize, Kleene)>| -> Option<usize> {
            let mut hits = vals.into_iter().filter(|(_, k)| *k != F);
            let (u, k) = hits.next()?;
            (hits.next().is_none() && k == T && g.sm[u] == F).then_some(u)
        };
        let s = one((0..g.n).map(|u| (u, g.get(v, self.pt.0, &[u]))).collect())?;
        match self.pt.1 {
            None => Some(s),
            Some(c) => one((0..g.n).map(|u| (u, g.get(v, c, &[s, u]))).collect()),
        }
    }

    /// No way back to an acyclic source: when the source is one cell `w` on no `f` cycle,
    /// every cell `w` reaches (where `r` is 1) has no `f` edge to `w`, which would close a
    /// cycle through it. Sets such 1/2 edges to 0; `None` if one is 1; true if one was set.
    /// Without it, a sub-list's head focused out of the summary of its cells kept 1/2 edges
    /// back from them, and the cells after the head's successor looked possibly unreached.
    fn no_way_back(&self, v: &Vocab, g: &mut Graph) -> Option<bool> {
        let Some(cyc) = self.cyclic else {
            return Some(false);
        };
        let Some(w) = self.single_source(v, g) else {
            return Some(false);
        };
        if g.get(v, cyc, &[w]) != F {
            return Some(false);
        }
        let mut changed = false;
        let reached: Vec<usize> = (0..g.n).filter(|&u| g.get(v, self.r, &[u]) == T).collect();
        for u in reached {
            match g.get(v, self.f, &[u, w]) {
                T => return None,
                H => {
                    g.set(v, self.f, &[u, w], F);
                    changed = true;
                }
                _ => {}
            }
        }
        Some(changed)
    }
}

/// An atom of a clause, over the clause's variables.
#[derive(Clone, Debug)]
enum Atom {
    /// A stored predicate (vocabulary id) on variables.
    Stored(usize, Vec<usize>),
    /// Equality of two variables.
    Eq(usize, usize),
    /// Any other formula, evaluated in the context of an instrumentation instance.
    Formula(usize, Formula),
}

/// A disjunction of literals over `vars` node variables, all of struct type `strukt` (of any
/// type when `None`: the clauses of an instance over a link between structures).
#[derive(Clone, Debug)]
struct Clause {
    strukt: Option<StructId>,
    vars: usize,
    lits: Vec<(bool, Atom)>,
}

/// The constraints of a vocabulary.
#[derive(Clone, Debug, Default)]
pub struct Constraints {
    clauses: Vec<Clause>,
    /// Entry laws of reachability from a pointer (or from the link of its cell) along one
    /// field.
    entries: Vec<Entry>,
    /// First-step laws of reflexive closures `S = R*`: (struct, `S`'s id, `R(0, 1)`).
    steps: Vec<(StructId, usize, Atom)>,
    /// Exit laws: (an instance `p` reaching from a source, its source, another instance `q`
    /// of the same relation, the relation's step `R(0, 1)`).
    exits: Vec<(usize, Source, usize, Atom)>,
    /// Entry laws of root instances: (the instance's id, its link field's id, the relation's
    /// step `R(0, 1)`).
    root_entries: Vec<(usize, usize, Atom)>,
}

/// Where a reachability instance starts: a pointer's target (its `pt` id) or the targets of
/// a link field (its id).
#[derive(Clone, Copy, Debug)]
enum Source {
    Pointer(usize),
    Link(usize),
}

impl Source {
    fn of(v: &Vocab, inst: &Instr) -> Option<Source> {
        match (inst.pointer, inst.root) {
            (Some(x), None) => Some(Source::Pointer(v.pt(x))),
            (None, Some(c)) => Some(Source::Link(v.field_pred(c))),
            _ => None,
        }
    }

    /// The one single cell this source can be, if there is one: the cell the pointer
    /// definitely points to, or the only node a link may enter.
    fn single(self, v: &Vocab, g: &Graph) -> Option<usize> {
        let a = match self {
            Source::Pointer(pt) => (0..g.n).find(|&a| g.get(v, pt, &[a]) == T)?,
            Source::Link(c) => {
                let entered = |u: usize| (0..g.n).any(|s| g.get(v, c, &[s, u]) != F);
                let mut targets = (0..g.n).filter(|&u| entered(u));
                let a = targets.next()?;
                if targets.next().is_some() {
                    return None;
                }
                a
            }
        };
        (g.sm[a] == F).then_some(a)
    }
}

/// A formula in negation normal form.
#[derive(Clone, Debug)]
enum Nnf {
    Lit(bool, Formula),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
    All(Box<Nnf>),
    Ex,
}

fn nnf(f: &Formula, pos: bool) -> Nnf {
    use Formula as Fm;
    match f {
        Fm::True => {
            if pos {
                Nnf::And(vec![])
            } else {
                Nnf::Or(vec![])
            }
        }
        Fm::False => {
            if pos {
                Nnf::Or(vec![])
            } else {
                Nnf::And(vec![])
            }
        }
        Fm::Not(a) => nnf(a, !pos),
        Fm::And(a, b) if pos => Nnf::And(vec![nnf(a, true), nnf(b, true)]),
        Fm::And(a, b) => Nnf::Or(vec![nnf(a, false), nnf(b, false)]),
        Fm::Or(a, b) if pos => Nnf::Or(vec![nnf(a, true), nnf(b, true)]),
        Fm::Or(a, b) => Nnf::And(vec![nnf(a, false), nnf(b, false)]),
        Fm::Implies(a, b) if pos => Nnf::Or(vec![nnf(a, false), nnf(b, true)]),
        Fm::Implies(a, b) => Nnf::And(vec![nnf(a, true), nnf(b, false)]),
        Fm::Iff(a, b) => {
            let ab = Fm::Implies(a.clone(), b.clone());
            let ba = Fm::Implies(b.clone(), a.clone());
            nnf(&Fm::And(Box::new(ab), Box::new(ba)), pos)
        }
        Fm::Exists(..) if pos => Nnf::Ex,
        Fm::Exists(_, a) => Nnf::All(Box::new(nnf(a, false))),
        Fm::Forall(_, a) if pos => Nnf::All(Box::new(nnf(a, true))),
        Fm::Forall(..) => Nnf::Ex,
        atom => Nnf::Lit(pos, atom.clone()),
    }
}

/// CNF of a quantifier-free NNF formula; `None` if it has quantifiers or is too large.
fn cnf(f: &Nnf) -> Option<Vec<Vec<(bool, Formula)>>> {
    match f {
        Nnf::Lit(p, a) => Some(vec![vec![(*p, a.clone())]]),
        Nnf::And(xs) => {
            let mut out = vec![];
            for x in xs {
                out.extend(cnf(x)?);
            }
            Some(out)
        }
        Nnf::Or(xs) => {
            let mut out: Vec<Vec<(bool, Formula)>> = vec![vec![]];
            for x in xs {
                let c = cnf(x)?;
                let mut next = vec![];
                for a in &out {
                    for b in &c {
                        next.push(a.iter().chain(b).cloned().collect());
                    }
                }
                if next.len() > 64 {
                    return None;
                }
                out = next;
            }
            Some(out)
        }
        Nnf::All(..) | Nnf::Ex => None,
    }
}

/// Strips leading universal quantifiers.
fn strip_forall(f: Nnf) -> Nnf {
    match f {
        Nnf::All(b) => strip_forall(*b),
        other => other,
    }
}

impl Constraints {
    /// The constraints of vocabulary `v`.
    pub fn new(v: &Vocab) -> Constraints {
        let mut c = Constraints::default();
        for f in 0..v.fields.len() {
            let s = v.fields[f].strukt;
            let p = v.field_pred(f);
            // A field points to at most one cell.
            c.push(
                s,
                3,
                vec![
                    (false, Atom::Stored(p, vec![0, 1])),
                    (false, Atom::Stored(p, vec![0, 2])),
                    (true, Atom::Eq(1, 2)),
                ],
            );
            // An uninitialised field points nowhere we track.
            c.push(
                s,
                2,
                vec![
                    (false, Atom::Stored(v.undef(f), vec![0])),
                    (false, Atom::Stored(p, vec![0, 1])),
                ],
            );
        }
        for x in 0..v.vars.len() {
            let p = v.pt(x);
            c.push(
                v.vars[x].strukt,
                2,
                vec![
                    (false, Atom::Stored(p, vec![0])),
                    (false, Atom::Stored(p, vec![1])),
                    (true, Atom::Eq(0, 1)),
                ],
            );
        }
        for (i, inst) in v.instr.iter().enumerate() {
            c.definition(v, i, inst);
            c.closure_laws(v, i, inst);
            if v.reaching[i]
                && let (Some(f), Some(x)) = (single_field_reach(v, inst), inst.only_pointer())
            {
                c.entries.push(Entry::new(v, inst, (v.pt(x), None), f));
            }
            // Reachability from the link of a pointer's cell (`<x->c>`) enters the same way,
            // from the nodes that link may point to.
            if let (Some(f), Some((x, link))) = (single_field_reach(v, inst), inst.pointer_link())
                && v.reaches_from_pointer(i)
            {
                c.entries
                    .push(Entry::new(v, inst, (v.pt(x), Some(v.field_pred(link))), f));
            }
        }
        for (i, inst) in v.instr.iter().enumerate() {
            if let Some(link) = inst.only_root().filter(|_| v.rooting[i])
                && let Some(step) = c.step_of(v, i, inst)
            {
                c.root_entries.push((inst.id, v.field_pred(link), step));
            }
        }
        c
    }

    /// The entry law of `r<x>(v) = exists u. x(u) && f*(u, v)`: every cell of a node where
    /// `r<x>` is 1 is reached from `x`'s target along `f` edges, each of which some edge of
    /// the graph that is not 0 stands for; so the node lies in the closure of the nodes `x`
    /// may point to under those edges. Existential, so it is no clause: checked on its own,
    /// it makes a structure without such a path infeasible (`None`; e.g. the focus that lets
    /// a list's cell point nowhere while the cells after it stay reachable). It also
    /// sharpens the `f` edges of single cells (whose field points to one cell): a 1/2 edge
    /// to a single cell that every such path crosses exists, and one that, as the cell's only successor,
    /// leaves a node unreached does not (after `x = x->next` in a cyclic list, `x`'s cell
    /// cannot point back to the head's: the cells the head still reaches lie beyond it);
    /// true if an edge was set.
    fn entries(&self, v: &Vocab, g: &mut Graph) -> Option<bool> {
        let mut changed = false;
        for e in &self.entries {
            if !e.no_way_back(v, g)? {
                continue;
            }
            changed = true;
        }
        for &Entry { r, pt, f, .. } in &self.entries {
            let targets: Vec<usize> = (0..g.n).filter(|&t| g.get(v, r, &[t]) == T).collect();
            if targets.is_empty() {
                continue;
            }
            if !entered(v, g, pt, f, &targets, None) {
                return None;
            }
            let single: Vec<usize> = (0..g.n).filter(|&u| g.sm[u] == F).collect();
            for u in single {
                for w in 0..g.n {
                    if g.get(v, f, &[u, w]) != H {
                        continue;
                    }
                    if g.sm[w] == F && !entered(v, g, pt, f, &targets, Some((u, w, false))) {
                        g.set(v, f, &[u, w], T);
                        changed = true;
                    } else if !entered(v, g, pt, f, &targets, Some((u, w, true))) {
                        g.set(v, f, &[u, w], F);
                        changed = true;
                    }
                }
            }
        }
        Some(changed)
    }

    /// Adds, for each two reachability-from-a-pointer instances of one relation (pointers
    /// `x` and `y`), transitivity through `y`'s target: `r<x>(w) && y(w) && r<y>(v) ->
    /// r<x>(v)` (what `y` reaches is reachable from `x` once `y`'s target is). Differencing
    /// alone loses it when an edge into a list is added: the re-evaluated `r<x>` crosses the
    /// summary's 1/2 edges. Needed for valid-memtrack, where reachability must stay 1. The
    /// same holds from a root instance's targets to `y`'s: `h(w) && y(w) && r<y>(v) -> h(v)`.
    pub fn with_reach_transitivity(mut self, v: &Vocab) -> Constraints {
        let reaching: Vec<(usize, &Instr)> = v
            .instr
            .iter()
            .enumerate()
            .filter(|(i, inst)| {
                v.reaching[*i]
                    || v.rooting[*i]
                    || (inst.pointer_link().is_some() && v.reaches_from_pointer(*i))
            })
            .collect();
        for &(_, a) in &reaching {
            for &(j, b) in &reaching {
                if a.id != b.id
                    && (a.pred, &a.roles, a.strukt) == (b.pred, &b.roles, b.strukt)
                    && let (Some(src), Some(step)) = (Source::of(v, a), self.step_of(v, j, b))
                {
                    self.exits.push((a.id, src, b.id, step));
                }
                // What the link `c` of `x`'s cell reaches (`b = r<x->c>`) is reached by `a`
                // once the link's target is: `a(w) && x(s) && c(s, w) && b(v) -> a(v)`.
                if let Some((x, c)) = b.pointer_link()
                    && a.id != b.id
                    && (a.pred, &a.roles, a.strukt) == (b.pred, &b.roles, b.strukt)
                {
                    self.push(
                        None,
                        3,
                        vec![
                            (false, Atom::Stored(a.id, vec![0])),
                            (false, Atom::Stored(v.pt(x), vec![2])),
                            (false, Atom::Stored(v.field_pred(c), vec![2, 0])),
                            (false, Atom::Stored(b.id, vec![1])),
                            (true, Atom::Stored(a.id, vec![1])),
                        ],
                    );
                }
                // `a` is a pointer's or a root instance (reachability from the targets of a
                // link field); `b` is another pointer's.
                let Some(y) = b.only_pointer() else { continue };
                if a.pointer == Some(y)
                    || a.pred != b.pred
                    || a.roles != b.roles
                    || a.strukt != b.strukt
                {
                    continue;
                }
                self.push(
                    a.strukt,
                    2,
                    vec![
                        (false, Atom::Stored(a.id, vec![0])),
                        (false, Atom::Stored(v.pt(y), vec![0])),
                        (false, Atom::Stored(b.id, vec![1])),
                        (true, Atom::Stored(a.id, vec![1])),
                    ],
                );
                // The same from the target of link `c` of `x`'s cell (one cell too):
                // `r<x->c>(v) && x(s) && c(s, a) && a != v && f(a, b) && y(b) -> r<y>(v)`.
                if let (Some((x, c)), Some(f)) = (a.pointer_link(), single_field_reach(v, a)) {
                    // Over the nodes of every type: the holder `s` is of another struct.
                    self.push(
                        None,
                        4,
                        vec![
                            (false, Atom::Stored(a.id, vec![2])),
                            (false, Atom::Stored(v.pt(x), vec![3])),
                            (false, Atom::Stored(v.field_pred(c), vec![3, 0])),
                            (true, Atom::Eq(0, 2)),
                            (false, Atom::Stored(v.field_pred(f), vec![0, 1])),
                            (false, Atom::Stored(v.pt(y), vec![1])),
                            (true, Atom::Stored(b.id, vec![2])),
                        ],
                    );
                }
                let Some(x) = a.only_pointer() else { continue };
                // Along a single field f, a path from x's target to another node leaves
                // through its one successor: `r<x>(v) && x(a) && a != v && f(a, b) && y(b)
                // -> r<y>(v)` (after `y = x->f`).
                if let Some(f) = single_field_reach(v, a) {
                    self.push(
                        a.strukt,
                        3,
                        vec![
                            (false, Atom::Stored(a.id, vec![2])),
                            (false, Atom::Stored(v.pt(x), vec![0])),
                            (true, Atom::Eq(0, 2)),
                            (false, Atom::Stored(v.field_pred(f), vec![0, 1])),
                            (false, Atom::Stored(v.pt(y), vec![1])),
                            (true, Atom::Stored(b.id, vec![2])),
                        ],
                    );
                }
            }
        }
        self
    }

    /// The step `R(0, 1)` of the relation instance `inst` (`i`) reaches along, for
    /// `exists u. x(u) && R*(u, v)` or `exists u. x(u) && S(u, v)` with `S = R*` stored.
    fn step_of(&self, v: &Vocab, i: usize, inst: &Instr) -> Option<Atom> {
        let Formula::Exists(u, body) = &v.decl(inst.pred).body else {
            return None;
        };
        if let Some(rel) = closure_into(body, *u, 0) {
            return Some(self.rel_atom(v, i, inst, &rel, 0, 1));
        }
        let Atom::Stored(star, _) = self.atom(v, i, inst, pointer_conjunct(body, *u)?) else {
            return None;
        };
        (self.steps.iter())
            .find(|(s, id, _)| *s == inst.strukt && *id == star)
            .map(|(_, _, step)| step.clone())
    }

    /// Adds a clause over nodes of struct `strukt` (of every type when `None`).
    fn push(&mut self, strukt: impl Into<Option<StructId>>, vars: usize, lits: Vec<(bool, Atom)>) {
        self.clauses.push(Clause {
            strukt: strukt.into(),
            vars,
            lits,
        });
    }

    /// The clauses of `p(v) <=> phi(v)`.
    fn definition(&mut self, v: &Vocab, i: usize, inst: &Instr) {
        let decl = v.decl(inst.pred);
        let params: Vec<usize> = (0..decl.arity).collect();
        let me = Atom::Stored(inst.id, params);
        for (pos, head) in [(true, false), (false, true)] {
            // pos: p -> phi, i.e. !p || phi;  !pos: phi -> p, i.e. !phi || p.
            let body = strip_forall(nnf(&decl.body, pos));
            let Some(clauses) = cnf(&body) else { continue };
            for cl in clauses {
                let mut lits = vec![(head, me.clone())];
                for (p, f) in cl {
                    lits.push((p, self.atom(v, i, inst, f)));
                }
                self.clauses.push(Clause {
                    strukt: (!v.over_link(inst)).then_some(inst.strukt),
                    vars: decl.slots.max(decl.arity),
                    lits,
                });
            }
        }
    }

    fn atom(&self, v: &Vocab, i: usize, inst: &Instr, f: Formula) -> Atom {
        match &f {
            Formula::Eq(a, b) => Atom::Eq(*a, *b),
            Formula::Field(r, a, b) => match inst.roles.get(*r) {
                Some(fi) => Atom::Stored(v.field_pred(*fi), vec![*a, *b]),
                None => Atom::Formula(i, f),
            },
            Formula::Pointer(a) => match inst.only_pointer() {
                Some(x) => Atom::Stored(v.pt(x), vec![*a]),
                None => Atom::Formula(i, f),
            },
            Formula::Pred(p, rs, args) => {
                let bound: Vec<usize> = rs
                    .iter()
                    .filter_map(|r| inst.roles.get(*r).copied())
                    .collect();
                let pointer = v.decl(*p).pointer.as_ref().and(inst.only_pointer());
                match v.stored(*p, &bound, pointer) {
                    Some(j) => Atom::Stored(v.instr[j].id, args.clone()),
                    None => Atom::Formula(i, f),
                }
            }
            _ => Atom::Formula(i, f),
        }
    }

    /// The relation a closure is taken of, as an atom on variables `a`, `b`.
    fn rel_atom(&self, v: &Vocab, i: usize, inst: &Instr, rel: &Rel, a: usize, b: usize) -> Atom {
        let f = match rel {
            Rel::Field(r) => Formula::Field(*r, a, b),
            Rel::Pred(p, rs) => Formula::Pred(*p, rs.clone(), vec![a, b]),
        };
        self.atom(v, i, inst, f)
    }

    /// Laws of closure-defined predicates.
    fn closure_laws(&mut self, v: &Vocab, i: usize, inst: &Instr) {
        let decl = v.decl(inst.pred);
        let s = inst.strukt;
        let me = |args: Vec<usize>| Atom::Stored(inst.id, args);
        match &decl.body {
            Formula::Closure {
                rel,
                reflexive,
                from: 0,
                to: 1,
            } if decl.arity == 2 => {
                let r = |a, b| self.rel_atom(v, i, inst, rel, a, b);
                let laws = vec![
                    vec![
                        (false, me(vec![0, 1])),
                        (false, r(1, 2)),
                        (true, me(vec![0, 2])),
                    ],
                    vec![
                        (false, r(0, 1)),
                        (false, me(vec![1, 2])),
                        (true, me(vec![0, 2])),
                    ],
                    vec![(false, r(0, 1)), (true, me(vec![0, 1]))],
                ];
                for l in laws {
                    self.push(s, 3, l);
                }
                if *reflexive {
                    let step = self.rel_atom(v, i, inst, rel, 0, 1);
                    self.push(s, 1, vec![(false, Atom::Eq(0, 0)), (true, me(vec![0, 0]))]);
                    self.steps.push((s, inst.id, step));
                }
            }
            Formula::Closure {
                rel,
                reflexive: false,
                from: 0,
                to: 0,
            } if decl.arity == 1 => {
                // R(v, v) -> p(v); with a stored reflexive closure S of R also
                // R(v, w) && S(w, v) -> p(v): an edge back into a cycle puts v on it.
                let (loop_, edge) = (
                    self.rel_atom(v, i, inst, rel, 0, 0),
                    self.rel_atom(v, i, inst, rel, 0, 1),
                );
                self.push(s, 1, vec![(false, loop_), (true, me(vec![0]))]);
                if let Some(star) = reflexive_companion(v, inst, rel) {
                    self.push(
                        s,
                        2,
                        vec![
                            (false, edge),
                            (false, Atom::Stored(star, vec![1, 0])),
                            (true, me(vec![0])),
                        ],
                    );
                }
            }
            Formula::Exists(u, body) if decl.arity == 1 => {
                if let Some(rel) = closure_into(body, *u, 0) {
                    // p(v) && R(v, w) -> p(w): what is reachable stays reachable one step on.
                    let r = self.rel_atom(v, i, inst, &rel, 0, 1);
                    self.push(
                        s,
                        2,
                        vec![(false, me(vec![0])), (false, r), (true, me(vec![1]))],
                    );
                }
                // p<x>(v) && x(u) -> A(u, v) for `p<x>(v) = exists u. x(u) && A(u, v)`: x
                // points to one cell, so that cell is the witness.
                if let (Some(x), Some(rest)) = (inst.only_pointer(), pointer_conjunct(body, *u)) {
                    // In the clause, variable 0 is the cell x points to and 1 is v.
                    let swap = |k: &usize| match k {
                        0 => Some(1),
                        k if k == u => Some(0),
                        _ => None,
                    };
                    if let Atom::Stored(a, args) = self.atom(v, i, inst, rest)
                        && let Some(args) = args.iter().map(swap).collect::<Option<Vec<_>>>()
                    {
                        self.push(
                            s,
                            2,
                            vec![
                                (false, Atom::Stored(v.pt(x), vec![0])),
                                (false, me(vec![1])),
                                (true, Atom::Stored(a, args)),
                            ],
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// Unit propagation to a fixpoint; `None` if the structure violates a constraint.
    pub fn apply(&self, v: &Vocab, mut g: Graph) -> Option<Graph> {
        let formulas = self
            .clauses
            .iter()
            .any(|c| c.lits.iter().any(|(_, a)| matches!(a, Atom::Formula(..))));
        let max_vars = self.clauses.iter().map(|c| c.vars).max().unwrap_or(0);
        let mut tuple = vec![0usize; max_vars];
        // The nodes having the fields of each clause's struct type (types do not change
        // here): its own nodes and those of the structs embedding it.
        let mut by_type: Vec<(Option<StructId>, Vec<usize>)> = vec![];
        for c in &self.clauses {
            if by_type.iter().all(|(s, _)| *s != c.strukt) {
                let nodes = (0..g.n)
                    .filter(|u| c.strukt.is_none_or(|s| v.carries(g.ty[*u], s)))
                    .collect();
                by_type.push((c.strukt, nodes));
            }
        }
        for _round in 0..64 {
            let mut changed = false;
            // Formula atoms are evaluated on the structure as the round began (with each
            // instance's closures computed once): propagation only sharpens 1/2 values, so
            // an older value is less precise, never wrong, and the fixpoint ends with a
            // round that changed nothing, whose snapshot is the final structure.
            let snap = formulas.then(|| g.clone());
            let evals: Vec<OnceCell<Eval>> = (0..v.instr.len()).map(|_| OnceCell::new()).collect();
            let ctx = Ctx {
                v,
                snap: snap.as_ref(),
                evals: &evals,
            };
            for c in &self.clauses {
                let Some((_, nodes)) = by_type.iter().find(|(s, _)| *s == c.strukt) else {
                    continue;
                };
                match self.scan(&ctx, &mut g, c, nodes, &mut tuple, 0) {
                    Step::Conflict => return None,
                    Step::Changed => changed = true,
                    Step::Nothing => {}
                }
            }
            match self.entries(v, &mut g) {
                None => return None,
                Some(true) => changed = true,
                Some(false) => {}
            }
            match self.first_steps(&ctx, &mut g, &by_type) {
                None => return None,
                Some(true) => changed = true,
                Some(false) => {}
            }
            changed |= self.exits(&ctx, &mut g);
            if !self.root_entries_hold(&ctx, &g) {
                return None;
            }
            if !changed {
                break;
            }
        }
        Self::witnesses_hold(v, &g).then_some(g)
    }

    /// The first-step law of a reflexive closure `S = R*`: `S(a, c) && a != c -> exists b.
    /// R(a, b) && S(b, c)` (a path leaves `a` through one of its successors). Existential,
    /// so checked on its own: for two distinct nodes with `S(a, c)` 1, the nodes `b` where
    /// both `R(a, b)` and `S(b, c)` may hold are the only witnesses; none makes the structure
    /// infeasible, and a single one that is a single cell is the witness of every cell of
    /// `a` and `c`, so both are 1 (a tree node whose left child is NULL reaches what it
    /// reaches through its right child). True if a value was set.
    fn first_steps(
        &self,
        ctx: &Ctx,
        g: &mut Graph,
        by_type: &[(Option<StructId>, Vec<usize>)],
    ) -> Option<bool> {
        let v = ctx.v;
        let mut changed = false;
        for (strukt, star, step) in &self.steps {
            let Some((_, nodes)) = by_type.iter().find(|(s, _)| *s == Some(*strukt)) else {
                continue;
            };
            for &a in nodes {
                for &c in nodes {
                    if a == c || g.get(v, *star, &[a, c]) != T {
                        continue;
                    }
                    let mut witnesses = nodes.iter().copied().filter(|&b| {
                        value(ctx, g, step, &[a, b]) != F && g.get(v, *star, &[b, c]) != F
                    });
                    // No witness: no path leaves `a` towards `c`.
                    let b = witnesses.next()?;
                    if witnesses.next().is_some() || g.sm[b] != F {
                        continue;
                    }
                    if g.get(v, *star, &[b, c]) != T {
                        g.set(v, *star, &[b, c], T);
                        changed = true;
                    }
                    if let Atom::Stored(r, _) = step
                        && value(ctx, g, step, &[a, b]) != T
                    {
                        g.set(v, *r, &[a, b], T);
                        changed = true;
                    }
                }
            }
        }
        Some(changed)
    }

    /// The exit law of two instances reaching along the same relation `R*`, `p` from a
    /// source that is one single cell `a` (a pointer's target, or the only cell a link may
    /// enter) and `q` from any source (a pointer, or a root instance: some link's target):
    /// when each `R`-successor of `a` is wholly in `q`, every other cell `p` reaches is in
    /// `q` too (its path from `a` leaves through such a successor, and what a cell of `q`
    /// reaches is in `q`). After `free(n)` in a tree walked with a stack, the subtrees of
    /// `n`'s children stay reachable once both children are on the stack, although each
    /// child reaches only part of the summary below them; after a cell is put behind the
    /// head of a ring held by a link, the rest of the ring is still reached from the new
    /// cell. Only 1/2 values are sharpened. True if a value was set.
    fn exits(&self, ctx: &Ctx, g: &mut Graph) -> bool {
        let v = ctx.v;
        let mut changed = false;
        for (p, src, q, step) in &self.exits {
            let Some(a) = src.single(v, g) else {
                continue;
            };
            let out =
                (0..g.n).all(|b| value(ctx, g, step, &[a, b]) == F || g.get(v, *q, &[b]) == T);
            if !out {
                continue;
            }
            for w in (0..g.n).filter(|&w| w != a) {
                if g.get(v, *p, &[w]) == T && g.get(v, *q, &[w]) == H {
                    g.set(v, *q, &[w], T);
                    changed = true;
                }
            }
        }
        changed
    }

    /// The entry law of a root instance `h<->c>(v) = exists s, u. c(s, u) && R*(u, v)`:
    /// every cell of a node where `h` is 1 lies in the closure, under the `R` edges that are
    /// not 0, of the nodes some `c` edge that is not 0 enters. Existential, so checked on its
    /// own: a focus that leaves a summary of subtree roots beside the one root a single link
    /// still holds is infeasible (those roots would be reached from no link).
    fn root_entries_hold(&self, ctx: &Ctx, g: &Graph) -> bool {
        let v = ctx.v;
        self.root_entries.iter().all(|(h, link, step)| {
            let targets: Vec<usize> = (0..g.n).filter(|&t| g.get(v, *h, &[t]) == T).collect();
            if targets.is_empty() {
                return true;
            }
            let start = (0..g.n)
                .map(|u| (0..g.n).any(|s| g.get(v, *link, &[s, u]) != F))
                .collect();
            let may = closure_of(start, |a, b| value(ctx, g, step, &[a, b]) != F);
            targets.iter().all(|&t| may[t])
        })
    }

    /// The witness laws: a node where `exists u. f(u, v)` (or `exists w. f(v, w)`) is 1 has
    /// an `f` edge into it (out of it) that is not 0. Existential, so checked on its own
    /// like the entry laws: a focus that leaves an owned cell without its owner, or a
    /// cell known to point somewhere with its field NULL, is infeasible.
    fn witnesses_hold(v: &Vocab, g: &Graph) -> bool {
        v.edges.iter().all(|e| {
            let f = v.field_pred(e.field);
            (0..g.n).all(|t| {
                g.get(v, e.id, &[t]) != T
                    || (0..g.n).any(|m| {
                        let tuple = if e.predecessor { [m, t] } else { [t, m] };
                        g.get(v, f, &tuple) != F
                    })
            })
        })
    }

    /// Propagates clause `c` over every tuple of `nodes` extending `tuple[..k]`. A literal
    /// whose variables are all bound and which is already true satisfies the clause for every
    /// extension, which is skipped (propagation only sharpens 1/2, so it stays true).
    fn scan(
        &self,
        ctx: &Ctx,
        g: &mut Graph,
        c: &Clause,
        nodes: &[usize],
        tuple: &mut [usize],
        k: usize,
    ) -> Step {
        if k == c.vars {
            return self.propagate(ctx, g, c, &tuple[..k]);
        }
        let mut out = Step::Nothing;
        for &u in nodes {
            tuple[k] = u;
            let satisfied = c.lits.iter().any(|(pos, atom)| {
                last_var(atom, c.vars) == k && {
                    let v = value(ctx, g, atom, tuple);
                    (if *pos { v } else { v.not() }) == T
                }
            });
            if satisfied {
                continue;
            }
            match self.scan(ctx, g, c, nodes, tuple, k + 1) {
                Step::Conflict => return Step::Conflict,
                Step::Changed => out = Step::Changed,
                Step::Nothing => {}
            }
        }
        out
    }

    fn propagate(&self, ctx: &Ctx, g: &mut Graph, c: &Clause, env: &[usize]) -> Step {
        let v = ctx.v;
        let mut open: Option<usize> = None;
        for (k, (pos, atom)) in c.lits.iter().enumerate() {
            let val = value(ctx, g, atom, env);
            let lit = if *pos { val } else { val.not() };
            match lit {
                T => return Step::Nothing,
                H if open.is_some() => return Step::Nothing,
                H => open = Some(k),
                _ => {}
            }
        }
        let Some(k) = open else { return Step::Conflict };
        let (pos, atom) = &c.lits[k];
        let want = Kleene::from_bool(*pos);
        match atom {
            // A repeated variable on a summary node names only the tuples that repeat an
            // individual; the stored value also stands for the others, so it stays.
            Atom::Stored(_, args) if repeats_on_summary(g, args, env) => Step::Nothing,
            Atom::Stored(p, args) => {
                let a: Vec<usize> = args.iter().map(|x| env[*x]).collect();
                g.set(v, *p, &a, want);
                Step::Changed
            }
            Atom::Eq(a, b) if *pos && env[*a] == env[*b] => {
                g.sm[env[*a]] = F;
                Step::Changed
            }
            _ => Step::Nothing,
        }
    }
}

enum Step {
    Conflict,
    Changed,
    Nothing,
}

/// Whether `args` repeats a variable that `env` maps to a summary node.
fn repeats_on_summary(g: &Graph, args: &[usize], env: &[usize]) -> bool {
    args.iter()
        .enumerate()
        .any(|(i, x)| args[..i].contains(x) && g.sm[env[*x]] != F)
}

/// What atoms are evaluated with: the vocabulary and, for formula atoms, the round's
/// snapshot with one lazily built evaluator per instance.
struct Ctx<'a> {
    v: &'a Vocab<'a>,
    snap: Option<&'a Graph>,
    evals: &'a [OnceCell<Eval<'a>>],
}

/// The highest variable an atom reads (a formula atom: the clause's last).
fn last_var(atom: &Atom, vars: usize) -> usize {
    match atom {
        Atom::Stored(_, args) => args.iter().copied().max().unwrap_or(0),
        Atom::Eq(a, b) => (*a).max(*b),
        Atom::Formula(..) => vars.saturating_sub(1),
    }
}

/// The value of an atom under an assignment of nodes to variables.
fn value(ctx: &Ctx, g: &Graph, atom: &Atom, env: &[usize]) -> Kleene {
    let v = ctx.v;
    match atom {
        Atom::Stored(p, args) => {
            let mut a = [0usize; 2];
            for (i, x) in args.iter().enumerate() {
                a[i] = env[*x];
                if !node_fits(v, g, *p, i, a[i]) {
                    return F;
                }
            }
            g.get(v, *p, &a[..args.len()])
        }
        Atom::Eq(a, b) => {
            if env[*a] != env[*b] {
                F
            } else {
                g.sm[env[*a]].not()
            }
        }
        Atom::Formula(i, f) => {
            // (Formula atoms exist only when there is a snapshot; 1/2 is the safe answer.)
            let Some(snap) = ctx.snap else { return H };
            let ev = ctx.evals[*i].get_or_init(|| Eval::new(v, snap, &v.instr[*i], None));
            let mut e = env.to_vec();
            let slots = v.decl(v.instr[*i].pred).slots;
            if e.len() < slots {
                e.resize(slots, 0);
            }
            ev.formula(f, &v.instr[*i].roles, e)
        }
    }
}

/// Whether node `u` has the struct type predicate `p` is about at argument `k` (the second
/// argument of a field is its target).
fn node_fits(v: &Vocab, g: &Graph, p: usize, k: usize, u: usize) -> bool {
    let s = match &v.preds[p].kind {
        PredKind::PointsTo(x) => return v.may_point(g.ty[u], v.vars[*x].strukt),
        PredKind::Field(f) if k == 1 => v.fields[*f].target,
        PredKind::Undef(f) | PredKind::Field(f) => v.fields[*f].strukt,
        PredKind::Owned(o) => v.fields[v.owned[*o].field].strukt,
        PredKind::Inner(i) => v.fields[v.inner[*i].field].strukt,
        PredKind::Instr(i) => v.instr[*i].strukt,
        PredKind::Data(d) => v.data[*d].assertion.strukt,
    };
    v.carries(g.ty[u], s)
}

/// The tracked field `f` if `inst` is `exists u. x(u) && f*(u, v)` for a single field.
pub(super) fn single_field_reach(v: &Vocab, inst: &Instr) -> Option<usize> {
    let Formula::Exists(u, body) = &v.decl(inst.pred).body else {
        return None;
    };
    let Formula::And(a, b) = &**body else {
        return None;
    };
    let field = |x: &Formula, r: &Formula| match (x, r) {
        (
            Formula::Pointer(w),
            Formula::Closure {
                rel: Rel::Field(f),
                from,
                to: 0,
                ..
            },
        ) if w == u && from == u => inst.roles.get(*f).copied(),
        _ => None,
    };
    field(a, b).or_else(|| field(b, a))
}

/// A relation with its roles resolved to tracked fields, comparable across declarations.
#[derive(PartialEq)]
enum BoundRel {
    Field(usize),
    Pred(shapecheck_dsl::ir::PredId, Vec<usize>),
}

fn bind_rel(inst: &Instr, rel: &Rel) -> Option<BoundRel> {
    let role = |r: &usize| inst.roles.get(*r).copied();
    Some(match rel {
        Rel::Field(r) => BoundRel::Field(role(r)?),
        Rel::Pred(p, rs) => BoundRel::Pred(*p, rs.iter().map(role).collect::<Option<_>>()?),
    })
}

/// The stored predicate (vocabulary id) defined as the reflexive-transitive closure of the
/// same relation as `rel` in `inst`, if the vocabulary has one.
fn reflexive_companion(v: &Vocab, inst: &Instr, rel: &Rel) -> Option<usize> {
    let want = bind_rel(inst, rel)?;
    v.instr.iter().find_map(|j| {
        if j.strukt != inst.strukt || j.pointer.is_some() || j.root.is_some() {
            return None;
        }
        match &v.decl(j.pred).body {
            Formula::Closure {
                rel: r,
                reflexive: true,
                from: 0,
                to: 1,
            } if bind_rel(j, r).as_ref() == Some(&want) => Some(j.id),
            _ => None,
        }
    })
}

/// If `body` is `x(u) && rest` (in either order) for the bound variable `u`, `rest`.
fn pointer_conjunct(body: &Formula, u: usize) -> Option<Formula> {
    let Formula::And(a, b) = body else {
        return None;
    };
    match (&**a, &**b) {
        (Formula::Pointer(w), rest) | (rest, Formula::Pointer(w)) if *w == u => Some(rest.clone()),
        _ => None,
    }
}

/// If `body` is `psi(u) && R*(u, target)` (in either order) with `u` the bound variable,
/// the relation `R`.
fn closure_into(body: &Formula, u: usize, target: usize) -> Option<Rel> {
    let is = |f: &Formula| match f {
        Formula::Closure { rel, from, to, .. } if *from == u && *to == target => Some(rel.clone()),
        _ => None,
    };
    match body {
        Formula::And(a, b) => is(b).or_else(|| is(a)),
        other => is(other),
    }
}

//! Symbolic heaps of separation logic (seed 001, section 2): `Π ∧ Σ`, a pure part of
//! equalities, disequalities and data comparisons between terms, and a spatial part of
//! points-to cells (one term per field) and non-empty list segments, each segment carrying a
//! multiset of data values that at least that many of its cells hold (`list(x, y, S)` of the
//! multiset domain SH^mls) and upper bounds on how many hold a value ([`Caps`], our extension:
//! zero says a value is absent, which SH^mls's lower bounds cannot say); a segment of the
//! sorted domain SH^sls also records that its values do not decrease along the links, that its
//! first cell holds `lo` and that none holds more than `hi` (`Seg::order`); plus `true` for
//! junk.
//!
//! Consumes terms over the program's variables; produces heaps with the operations the
//! abstraction and the entailment check need: the equality closure of the pure part
//! ([`Classes`]), consistency (distinct constants, separation: allocated addresses differ and
//! are not NULL), substitution, occurrence counts of existentials, the projection `pr_T` of
//! a multiset onto the symbols `T` ([`Bag::project`]), and a canonical form (existentials
//! renamed in order of first occurrence, conjuncts sorted) so that equal heaps are equal
//! values.

use super::domain::Params;
use crate::program::ir::{StructId, VarId};
use std::collections::BTreeMap;
use std::fmt;

/// A term: NULL, an integer, the current value of a program variable, or an existential
/// (primed) variable. The order puts the most concrete terms first: a class of equal terms
/// is represented by its least element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// NULL.
    Nil,
    /// An integer constant.
    Int(i64),
    /// The current value of a program variable.
    Var(VarId),
    /// An existential variable.
    Ex(u32),
}

impl Term {
    /// Whether it is an existential variable.
    pub fn is_ex(self) -> bool {
        matches!(self, Term::Ex(_))
    }

    /// Whether it denotes a fixed value (NULL or an integer).
    pub fn is_const(self) -> bool {
        matches!(self, Term::Nil | Term::Int(_))
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Nil => write!(f, "nil"),
            Term::Int(k) => write!(f, "{k}"),
            Term::Var(v) => write!(f, "v{}", v.0),
            Term::Ex(i) => write!(f, "_{i}'"),
        }
    }
}

/// A pure atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// `a = b` (smaller term first).
    Eq(Term, Term),
    /// `a ≠ b` (smaller term first).
    Ne(Term, Term),
    /// `a < b` on data values.
    Lt(Term, Term),
    /// `a ≤ b` on data values (the bounds of sorted segments).
    Le(Term, Term),
}

impl Atom {
    /// `a = b`, normalised.
    pub fn eq(a: Term, b: Term) -> Atom {
        Atom::Eq(a.min(b), a.max(b))
    }

    /// `a ≠ b`, normalised.
    pub fn ne(a: Term, b: Term) -> Atom {
        Atom::Ne(a.min(b), a.max(b))
    }

    /// Its two terms.
    pub fn terms(self) -> [Term; 2] {
        match self {
            Atom::Eq(a, b) | Atom::Ne(a, b) | Atom::Lt(a, b) | Atom::Le(a, b) => [a, b],
        }
    }

    /// The atom with `f` applied to its terms, normalised.
    pub fn map(self, f: impl Fn(Term) -> Term) -> Atom {
        match self {
            Atom::Eq(a, b) => Atom::eq(f(a), f(b)),
            Atom::Ne(a, b) => Atom::ne(f(a), f(b)),
            Atom::Lt(a, b) => Atom::Lt(f(a), f(b)),
            Atom::Le(a, b) => Atom::Le(f(a), f(b)),
        }
    }
}

/// A multiset of terms: each element with its multiplicity (at least 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bag(BTreeMap<Term, u32>);

impl Bag {
    /// The empty multiset.
    pub fn new() -> Bag {
        Bag::default()
    }

    /// `{t}`.
    pub fn single(t: Term) -> Bag {
        Bag(BTreeMap::from([(t, 1)]))
    }

    /// A multiset from elements with multiplicities (zero ones are left out).
    pub fn from_counts(items: impl IntoIterator<Item = (Term, u32)>) -> Bag {
        let mut b = Bag::new();
        for (t, n) in items {
            b.add(t, n);
        }
        b
    }

    /// Adds `n` copies of `t`.
    pub fn add(&mut self, t: Term, n: u32) {
        if n > 0 {
            *self.0.entry(t).or_insert(0) += n;
        }
    }

    /// Adds copies of `t` until it holds at least `n`.
    pub fn raise_to(&mut self, t: Term, n: u32) {
        let more = n.saturating_sub(self.count(t));
        self.add(t, more);
    }

    /// The multiset sum.
    pub fn sum(&self, other: &Bag) -> Bag {
        let mut out = self.clone();
        for (t, n) in &other.0 {
            out.add(*t, *n);
        }
        out
    }

    /// Removes one copy of `t`, if it has one.
    pub fn remove_one(&mut self, t: Term) {
        if let Some(n) = self.0.get_mut(&t) {
            *n -= 1;
            if *n == 0 {
                self.0.remove(&t);
            }
        }
    }

    /// How many copies of `t` it holds.
    pub fn count(&self, t: Term) -> u32 {
        self.0.get(&t).copied().unwrap_or(0)
    }

    /// The number of elements, with multiplicity.
    pub fn size(&self) -> u32 {
        self.0.values().sum()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Elements with multiplicities, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Term, u32)> + '_ {
        self.0.iter().map(|(t, n)| (*t, *n))
    }

    /// The multiset with `f` applied to its elements (multiplicities of elements mapped to
    /// the same term add up).
    pub fn map(&self, f: impl Fn(Term) -> Term) -> Bag {
        Bag::from_counts(self.iter().map(|(t, n)| (f(t), n)))
    }

    /// `S / Π`: the elements replaced by their class representatives.
    pub fn quotient(&self, c: &Classes) -> Bag {
        self.map(|t| c.rep(t))
    }

    /// `pr_T(S, Π)`: the elements of `S / Π` provably equal to a symbol of `T`, each with
    /// its multiplicity capped by that symbol's multiplicity in `T / Π`.
    pub fn project(&self, keep: &Bag, c: &Classes) -> Bag {
        let keep = keep.quotient(c);
        let cap = |t: Term| keep.0.get(&t).copied().unwrap_or(0);
        Bag::from_counts(self.quotient(c).iter().map(|(t, n)| (t, n.min(cap(t)))))
    }

    /// Whether every element of `self` occurs at least as often in `other`, up to the
    /// classes of `c` (`self` then states no more than `other`).
    pub fn below(&self, other: &Bag, c: &Classes) -> bool {
        let other = other.quotient(c);
        self.quotient(c)
            .iter()
            .all(|(t, n)| other.0.get(&t).copied().unwrap_or(0) >= n)
    }
}

/// Upper bounds on how many cells of a segment hold a value: `t ↦ n` says at most `n` do
/// (zero: none does); values without an entry are unbounded. The dual of [`Bag`]'s lower
/// bounds, kept for the symbols of `T` only: a removed key, or a value a search did not find,
/// is then known absent from the list.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Caps(BTreeMap<Term, u32>);

impl Caps {
    /// No bounds.
    pub fn new() -> Caps {
        Caps::default()
    }

    /// Bounds the count of `t` by `n` (the least bound wins).
    pub fn limit(&mut self, t: Term, n: u32) {
        let e = self.0.entry(t).or_insert(n);
        *e = (*e).min(n);
    }

    /// The bound on `t` (of any term of its class), if there is one.
    pub fn bound(&self, t: Term, c: &Classes) -> Option<u32> {
        self.iter()
            .filter(|(k, _)| c.equal(*k, t))
            .map(|(_, n)| n)
            .min()
    }

    /// One cell fewer may hold `t`: the bound on its class goes down by one.
    pub fn take_one(&mut self, t: Term, c: &Classes) {
        for (k, n) in self.0.iter_mut() {
            if c.equal(*k, t) {
                *n = n.saturating_sub(1);
            }
        }
    }

    /// Whether it bounds nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The bounds on the values `gone` does not select.
    pub fn without(&self, gone: impl Fn(Term) -> bool) -> Caps {
        Caps(
            self.0
                .iter()
                .filter(|(t, _)| !gone(**t))
                .map(|(t, n)| (*t, *n))
                .collect(),
        )
    }

    /// Values with their bounds, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Term, u32)> + '_ {
        self.0.iter().map(|(t, n)| (*t, *n))
    }

    /// The bounds with `f` applied to the values (the least bound of values mapped together).
    pub fn map(&self, f: impl Fn(Term) -> Term) -> Caps {
        let mut out = Caps::new();
        for (t, n) in self.iter() {
            out.limit(f(t), n);
        }
        out
    }

    /// The bounds of two segments laid end to end: a value bounded in both, by the sum.
    pub fn sum(&self, other: &Caps, c: &Classes) -> Caps {
        let (a, b) = (self.map(|t| c.rep(t)), other.map(|t| c.rep(t)));
        let mut out = Caps::new();
        for (t, n) in a.iter() {
            if let Some(m) = b.0.get(&t) {
                out.limit(t, n + m);
            }
        }
        out
    }

    /// The bounds a cell holding `d` satisfies for the symbols of `keep`: zero for those it
    /// provably differs from, one for those it provably equals.
    pub fn of_value(d: Term, keep: &Bag, pure: &[Atom], c: &Classes) -> Caps {
        let mut out = Caps::new();
        for (t, _) in keep.quotient(c).iter() {
            if let Some(n) = c.count_of(pure, d, t) {
                out.limit(t, n);
            }
        }
        out
    }

    /// The projection onto `T` (the bounds analogue of `pr_T`): the bounds, up to `Π`, on
    /// values provably equal to a symbol of `T` and no larger than its multiplicity there,
    /// which keeps the domain finite.
    pub fn project(&self, keep: &Bag, c: &Classes) -> Caps {
        let keep = keep.quotient(c);
        let mut out = Caps::new();
        for (t, n) in self.map(|t| c.rep(t)).iter() {
            if keep.count(t) >= n.max(1) {
                out.limit(t, n);
            }
        }
        out
    }
}

/// A list shape: the spec's list predicate instantiated on a struct: the struct of its cells,
/// the field that links them, the field whose value the parameters talk about (none for lists
/// without data) and the domain's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ListShape {
    /// The cells' struct.
    pub ty: StructId,
    /// Index of the link field.
    pub link: usize,
    /// Index of the data field, if any.
    pub data: Option<usize>,
    /// What the domain's segments carry and how they fold.
    pub params: Params,
}

/// `addr ↦ {f0: t0, f1: t1, ...}`: one term per field of the struct, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// The cell's address.
    pub addr: Term,
    /// Its struct.
    pub ty: StructId,
    /// The fields' values.
    pub fields: Vec<Term>,
}

/// `list(from, to, bag)`: a non-empty segment of cells of a list shape, linked from `from`
/// to `to`, at least `bag(d)` of whose cells hold `d` in the data field.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seg {
    /// Index of its shape in the domain's shapes.
    pub shape: usize,
    /// The first cell's address.
    pub from: Term,
    /// Where the last cell links to.
    pub to: Term,
    /// Lower bounds on the data values held.
    pub bag: Bag,
    /// Upper bounds on the data values held.
    pub caps: Caps,
    /// For a sorted segment (SH^sls): its values are non-decreasing along the links, its
    /// first cell holds `lo` and none holds more than `hi`.
    pub order: Option<(Term, Term)>,
    /// At least this many cells (a `length` parameter; 0 and 1 say nothing more than that
    /// the segment is not empty).
    pub len: u32,
}

impl Seg {
    /// The segment with `f` applied to every term.
    pub fn map(&self, f: impl Fn(Term) -> Term) -> Seg {
        Seg {
            shape: self.shape,
            from: f(self.from),
            to: f(self.to),
            bag: self.bag.map(&f),
            caps: self.caps.map(&f),
            order: self.order.map(|(lo, hi)| (f(lo), f(hi))),
            len: self.len,
        }
    }

    /// Whether its lower bounds exceed its upper bounds (it denotes nothing).
    fn overfull(&self, c: &Classes) -> bool {
        let held = self.bag.quotient(c);
        self.caps.iter().any(|(t, n)| held.count(c.rep(t)) > n)
    }

    /// Whether its value bounds are empty (`hi < lo`), or it holds a value outside them.
    fn empty_range(&self, c: &Classes, pure: &[Atom]) -> bool {
        self.order.is_some_and(|(lo, hi)| {
            c.order(pure, hi, lo) == Some(true)
                || (self.bag.iter()).any(|(t, _)| {
                    c.order(pure, t, lo) == Some(true) || c.order(pure, hi, t) == Some(true)
                })
        })
    }
}

/// A symbolic heap `Π ∧ Σ` (with `∗ true` when `junk`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymHeap {
    /// Pure atoms, sorted, without duplicates.
    pub pure: Vec<Atom>,
    /// Points-to cells, sorted.
    pub cells: Vec<Cell>,
    /// Segments, sorted.
    pub segs: Vec<Seg>,
    /// Whether the heap may hold more cells (`∗ true`).
    pub junk: bool,
}

impl SymHeap {
    /// `emp`.
    pub fn emp() -> SymHeap {
        SymHeap::default()
    }

    /// Every term occurrence, in a fixed order (pure part, cells, segments).
    pub fn terms(&self) -> Vec<Term> {
        let mut out = vec![];
        for a in &self.pure {
            out.extend(a.terms());
        }
        for c in &self.cells {
            out.push(c.addr);
            out.extend(c.fields.iter().copied());
        }
        for s in &self.segs {
            out.push(s.from);
            out.push(s.to);
            out.extend(s.bag.iter().map(|(t, _)| t));
            out.extend(s.caps.iter().map(|(t, _)| t));
            out.extend(s.order.iter().flat_map(|(lo, hi)| [*lo, *hi]));
        }
        out
    }

    /// How often each existential occurs.
    pub fn ex_counts(&self) -> BTreeMap<Term, usize> {
        let mut out = BTreeMap::new();
        for t in self.terms().into_iter().filter(|t| t.is_ex()) {
            *out.entry(t).or_insert(0) += 1;
        }
        out
    }

    /// A fresh existential.
    pub fn fresh(&self) -> Term {
        let next = self
            .terms()
            .into_iter()
            .filter_map(|t| match t {
                Term::Ex(i) => Some(i + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        Term::Ex(next)
    }

    /// The heap with `f` applied to every term, re-sorted.
    pub fn map(&self, f: &impl Fn(Term) -> Term) -> SymHeap {
        let mut h = SymHeap {
            pure: self.pure.iter().map(|a| a.map(f)).collect(),
            cells: self
                .cells
                .iter()
                .map(|c| Cell {
                    addr: f(c.addr),
                    ty: c.ty,
                    fields: c.fields.iter().map(|t| f(*t)).collect(),
                })
                .collect(),
            segs: self.segs.iter().map(|s| s.map(f)).collect(),
            junk: self.junk,
        };
        h.sort();
        h
    }

    /// `self[to/from]`.
    pub fn subst(&self, from: Term, to: Term) -> SymHeap {
        self.map(&|t| if t == from { to } else { t })
    }

    /// Adds a pure atom.
    pub fn assume(&mut self, a: Atom) {
        self.pure.push(a);
        self.sort();
    }

    /// Sorts the conjuncts and drops duplicate and trivial pure atoms.
    pub fn sort(&mut self) {
        self.pure.retain(|a| !matches!(a, Atom::Eq(x, y) if x == y));
        self.pure.sort();
        self.pure.dedup();
        self.cells.sort();
        self.segs.sort();
    }

    /// The addresses the spatial part allocates (cells and segment starts).
    pub fn allocated(&self) -> Vec<Term> {
        let mut out: Vec<Term> = self.cells.iter().map(|c| c.addr).collect();
        out.extend(self.segs.iter().map(|s| s.from));
        out
    }

    /// Whether the heap denotes no state: its pure part is inconsistent, or two allocated
    /// addresses are equal, or one is NULL.
    pub fn inconsistent(&self) -> bool {
        let c = Classes::new(&self.pure);
        if c.contradictory(&self.pure) {
            return true;
        }
        let mut reps: Vec<Term> = self.allocated().into_iter().map(|t| c.rep(t)).collect();
        if reps.contains(&Term::Nil) {
            return true;
        }
        reps.sort();
        reps.windows(2).any(|w| w[0] == w[1])
            || (self.segs.iter()).any(|s| s.overfull(&c) || s.empty_range(&c, &self.pure))
    }

    /// The canonical form: existentials renamed `0, 1, ...` in order of first occurrence
    /// after sorting the conjuncts with existentials masked, then sorted again.
    pub fn canonical(&self) -> SymHeap {
        let mut order: Vec<Term> = vec![];
        let mut push = |t: Term| {
            if t.is_ex() && !order.contains(&t) {
                order.push(t);
            }
        };
        let mut cells: Vec<&Cell> = self.cells.iter().collect();
        cells.sort_by_key(|c| masked_cell(c));
        let mut segs: Vec<&Seg> = self.segs.iter().collect();
        segs.sort_by_key(|s| masked_seg(s));
        let mut pure: Vec<Atom> = self.pure.clone();
        pure.sort_by_key(|a| a.map(mask));
        for c in cells {
            push(c.addr);
            c.fields.iter().for_each(|t| push(*t));
        }
        for s in segs {
            push(s.from);
            push(s.to);
            s.bag.iter().for_each(|(t, _)| push(t));
            s.caps.iter().for_each(|(t, _)| push(t));
            s.order.iter().for_each(|(lo, hi)| {
                push(*lo);
                push(*hi);
            });
        }
        for a in pure {
            a.terms().into_iter().for_each(&mut push);
        }
        let rename: BTreeMap<Term, Term> = order
            .iter()
            .enumerate()
            .map(|(i, t)| (*t, Term::Ex(i as u32)))
            .collect();
        self.map(&|t| rename.get(&t).copied().unwrap_or(t))
    }
}

fn mask(t: Term) -> Term {
    if t.is_ex() { Term::Ex(u32::MAX) } else { t }
}

fn masked_cell(c: &Cell) -> Cell {
    Cell {
        addr: mask(c.addr),
        ty: c.ty,
        fields: c.fields.iter().map(|t| mask(*t)).collect(),
    }
}

fn masked_seg(s: &Seg) -> Seg {
    s.map(mask)
}

/// The equality closure of a pure part: a union-find over its terms, each class
/// represented by its least term (constants before variables before existentials).
#[derive(Clone, Debug, Default)]
pub struct Classes {
    parent: BTreeMap<Term, Term>,
}

impl Classes {
    /// The classes of the equalities among `pure`.
    pub fn new(pure: &[Atom]) -> Classes {
        let mut c = Classes::default();
        for a in pure {
            if let Atom::Eq(x, y) = a {
                c.union(*x, *y);
            }
        }
        c
    }

    /// The representative of `t`'s class.
    pub fn rep(&self, mut t: Term) -> Term {
        while let Some(p) = self.parent.get(&t) {
            t = *p;
        }
        t
    }

    /// Whether `a = b` follows from the equalities.
    pub fn equal(&self, a: Term, b: Term) -> bool {
        self.rep(a) == self.rep(b)
    }

    /// Merges the classes of `a` and `b`.
    pub fn union(&mut self, a: Term, b: Term) {
        let (ra, rb) = (self.rep(a), self.rep(b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent.insert(hi, lo);
        }
    }

    /// Whether the atoms contradict the classes: two different integers (or NULL and a
    /// nonzero integer) made equal, a disequality inside one class, or `a < a`.
    pub fn contradictory(&self, pure: &[Atom]) -> bool {
        let clash = self.parent.keys().any(|t| {
            let r = self.rep(*t);
            match (*t, r) {
                (Term::Int(a), Term::Int(b)) => a != b,
                (Term::Int(a), Term::Nil) | (Term::Nil, Term::Int(a)) => a != 0,
                _ => false,
            }
        });
        clash
            || pure.iter().any(|a| match a {
                Atom::Ne(x, y) | Atom::Lt(x, y) => self.equal(*x, *y),
                Atom::Eq(..) | Atom::Le(..) => false,
            })
            || self.order_cycle(pure)
    }

    /// Whether the order atoms, with the order of the integer constants, close a cycle through
    /// a strict one (`x < 1000 ∧ 1000 < x`, `a < b ≤ a`, `2 < x < 1`).
    fn order_cycle(&self, pure: &[Atom]) -> bool {
        pure.iter().any(|a| match a {
            Atom::Lt(x, y) => self.order(pure, *y, *x).is_some(),
            _ => false,
        })
    }

    /// The order edges of `pure` between class representatives (`true`: strict), with those
    /// between the integer constants they mention.
    fn order_edges(&self, pure: &[Atom]) -> Vec<(Term, Term, bool)> {
        let mut edges: Vec<(Term, Term, bool)> = pure
            .iter()
            .filter_map(|a| match a {
                Atom::Lt(x, y) => Some((self.rep(*x), self.rep(*y), true)),
                Atom::Le(x, y) => Some((self.rep(*x), self.rep(*y), false)),
                _ => None,
            })
            .collect();
        let mut ints: Vec<i64> = edges
            .iter()
            .flat_map(|(x, y, _)| [*x, *y])
            .filter_map(|t| match t {
                Term::Int(k) => Some(k),
                _ => None,
            })
            .collect();
        ints.sort();
        ints.dedup();
        edges.extend(
            ints.windows(2)
                .map(|w| (Term::Int(w[0]), Term::Int(w[1]), true)),
        );
        edges
    }

    /// Whether `a ≤ b` follows from the order atoms and the constants' order: `Some(true)` if
    /// `a < b`, `Some(false)` if only `a ≤ b` (or `a = b`), `None` if neither follows.
    pub fn order(&self, pure: &[Atom], a: Term, b: Term) -> Option<bool> {
        let (ra, rb) = (self.rep(a), self.rep(b));
        if let (Term::Int(i), Term::Int(j)) = (ra, rb) {
            return (i <= j).then_some(i < j);
        }
        let mut edges = self.order_edges(pure);
        // The constants the two terms are, placed among the others.
        for t in [ra, rb] {
            if let Term::Int(k) = t {
                let others: Vec<i64> = (edges.iter())
                    .flat_map(|(x, y, _)| [*x, *y])
                    .filter_map(|t| match t {
                        Term::Int(j) if j != k => Some(j),
                        _ => None,
                    })
                    .collect();
                for j in others {
                    let (lo, hi) = if j < k { (j, k) } else { (k, j) };
                    edges.push((Term::Int(lo), Term::Int(hi), true));
                }
            }
        }
        // Best strictness of a path from `ra` to `rb`.
        let mut best: BTreeMap<Term, bool> = BTreeMap::from([(ra, false)]);
        let mut todo = vec![ra];
        while let Some(n) = todo.pop() {
            let s = best[&n];
            for (x, y, strict) in &edges {
                if *x != n {
                    continue;
                }
                let t = s || *strict;
                if best.get(y).is_none_or(|old| !*old && t) {
                    best.insert(*y, t);
                    todo.push(*y);
                }
            }
        }
        best.get(&rb).copied()
    }

    /// Whether `a ≠ b` follows from `pure` and the classes (distinct constants, or a
    /// disequality or strict order between their classes).
    pub fn differ(&self, pure: &[Atom], a: Term, b: Term) -> bool {
        let (ra, rb) = (self.rep(a), self.rep(b));
        if ra == rb {
            return false;
        }
        if ra.is_const() && rb.is_const() {
            return ra != rb;
        }
        pure.iter().any(|x| match x {
            Atom::Ne(p, q) | Atom::Lt(p, q) => {
                let (rp, rq) = (self.rep(*p), self.rep(*q));
                (rp, rq) == (ra, rb) || (rp, rq) == (rb, ra)
            }
            Atom::Eq(..) | Atom::Le(..) => false,
        }) || self.order(pure, a, b) == Some(true)
            || self.order(pure, b, a) == Some(true)
    }

    /// How many of the values `{d}` are provably `t`: one if equal, zero if they differ,
    /// `None` if the pure part does not tell.
    pub fn count_of(&self, pure: &[Atom], d: Term, t: Term) -> Option<u32> {
        if self.equal(d, t) {
            Some(1)
        } else if self.differ(pure, d, t) {
            Some(0)
        } else {
            None
        }
    }

    /// Whether `a < b` follows from `pure` and the classes.
    pub fn less(&self, pure: &[Atom], a: Term, b: Term) -> bool {
        self.order(pure, a, b) == Some(true)
    }
}

impl fmt::Display for SymHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = vec![];
        for c in &self.cells {
            let fields: Vec<String> = c.fields.iter().map(|t| t.to_string()).collect();
            parts.push(format!(
                "{} |-> s{}{{{}}}",
                c.addr,
                c.ty.0,
                fields.join(", ")
            ));
        }
        for s in &self.segs {
            let bag: Vec<String> = s
                .bag
                .iter()
                .map(|(t, n)| {
                    if n == 1 {
                        t.to_string()
                    } else {
                        format!("{t}*{n}")
                    }
                })
                .collect();
            let mut caps: Vec<String> =
                s.caps.iter().map(|(t, n)| format!(", #{t}<={n}")).collect();
            caps.extend(s.order.map(|(lo, hi)| format!(", sorted in [{lo}, {hi}]")));
            caps.extend((s.len > 1).then(|| format!(", length>={}", s.len)));
            parts.push(format!(
                "list{}({}, {}, {{{}}}{})",
                s.shape,
                s.from,
                s.to,
                bag.join(", "),
                caps.concat()
            ));
        }
        if self.junk {
            parts.push("true".into());
        }
        if parts.is_empty() {
            parts.push("emp".into());
        }
        let pure: Vec<String> = self
            .pure
            .iter()
            .map(|a| match a {
                Atom::Eq(x, y) => format!("{x} = {y}"),
                Atom::Ne(x, y) => format!("{x} != {y}"),
                Atom::Lt(x, y) => format!("{x} < {y}"),
                Atom::Le(x, y) => format!("{x} <= {y}"),
            })
            .collect();
        if pure.is_empty() {
            write!(f, "{}", parts.join(" * "))
        } else {
            write!(f, "{} & {}", pure.join(" & "), parts.join(" * "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(i: u32) -> Term {
        Term::Var(VarId(i))
    }

    #[test]
    fn the_order_follows_chains_of_comparisons_and_constants() {
        let (a, b, c) = (v(0), v(1), v(2));
        let pure = vec![Atom::Lt(a, b), Atom::Le(b, c)];
        let cl = Classes::new(&pure);
        assert_eq!(cl.order(&pure, a, c), Some(true));
        assert_eq!(cl.order(&pure, b, c), Some(false));
        assert_eq!(cl.order(&pure, c, a), None);
        assert!(cl.differ(&pure, a, c));
        assert!(!cl.differ(&pure, b, c));
        // Through constants: a < 3 and 5 <= c give a < c.
        let pure = vec![Atom::Lt(a, Term::Int(3)), Atom::Le(Term::Int(5), c)];
        assert_eq!(Classes::new(&pure).order(&pure, a, c), Some(true));
    }

    #[test]
    fn a_cycle_through_a_strict_comparison_is_a_contradiction() {
        let (a, b) = (v(0), v(1));
        let le = vec![Atom::Le(a, b), Atom::Le(b, a)];
        assert!(!Classes::new(&le).contradictory(&le));
        let lt = vec![Atom::Lt(a, b), Atom::Le(b, a)];
        assert!(Classes::new(&lt).contradictory(&lt));
    }

    #[test]
    fn a_sorted_segment_holding_a_value_below_its_least_denotes_nothing() {
        let (lo, hi, x) = (v(0), v(1), v(3));
        let heap = |pure: Vec<Atom>| SymHeap {
            segs: vec![Seg {
                shape: 0,
                from: v(2),
                to: Term::Nil,
                bag: Bag::single(x),
                caps: Caps::new(),
                order: Some((lo, hi)),
                len: 0,
            }],
            pure,
            ..SymHeap::emp()
        };
        assert!(heap(vec![Atom::Lt(x, lo)]).inconsistent());
        assert!(heap(vec![Atom::Lt(hi, x)]).inconsistent());
        assert!(!heap(vec![Atom::Le(lo, x), Atom::Le(x, hi)]).inconsistent());
    }

    #[test]
    fn a_sorted_segment_with_an_empty_range_denotes_nothing() {
        let (a, b) = (v(0), v(1));
        let seg = Seg {
            shape: 0,
            from: v(2),
            to: Term::Nil,
            bag: Bag::new(),
            caps: Caps::new(),
            order: Some((a, b)),
            len: 0,
        };
        let mut h = SymHeap {
            segs: vec![seg],
            ..SymHeap::emp()
        };
        assert!(!h.inconsistent());
        h.assume(Atom::Lt(b, a));
        assert!(h.inconsistent());
    }
}

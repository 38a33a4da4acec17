//! The abstraction `abs_T` of the list domains of seed 001 (Fig. 4, and Fig. 5's guard):
//! a terminating rewrite system applied until no rule fires.
//!
//! Consumes a [`SymHeap`], the domain's list shapes and the refinement parameter: `keep`,
//! the multiset `T` of symbols whose occurrences the segments' multisets remember (SH^mls),
//! and `protect`, the addresses never absorbed into a segment (SH^rls). Produces the
//! canonical abstract heap, or `None` when the heap is inconsistent. The rules:
//!
//! 1. `Δ ∧ x' = e ⇝ Δ[e/x']`: an existential equal to a more concrete term is replaced.
//! 2. and 3. Cells and segments no root reaches (a program variable, a constant, a term of
//!    the pure part) are garbage: `Δ ∗ σ ⇝ Δ ∗ true`. This covers the paper's single
//!    unreachable predicate and its garbage two-cycle, and longer garbage cycles.
//! 4. and 5. `σ1(e1, x', S1) ∗ σ2(x', e2, S2) ⇝ list(e1, e2, pr_T(S1 ∪ S2, Π))` when `x'`
//!    occurs nowhere else and `e2` is NULL or the address of a third predicate, and `e1` is
//!    not protected.
//! 6. `list(e, f, S) ⇝ list(e, f, pr_T(S, Π))`.
//!
//! Segments also carry upper bounds ([`Caps`]): a cell holding `d` is bounded by zero for
//! each symbol of `T` that `d` provably differs from and by one for each it equals; merging
//! adds the bounds both sides have, and rules 4 to 6 project them onto `T` like the multisets
//! (bounds on symbols of `T` no larger than their multiplicity), so the domain stays finite.
//!
//! Which conjuncts fold, under which guard, and which parameters the merged segment carries
//! is the spec's domain ([`super::domain::Params`]): a pair of conjuncts folds only if a rule
//! of the domain folds that pair, the guard `x !in T` is the rule's, and a parameter kind the
//! domain lacks stays empty. A `length` parameter adds the two sides' lengths, counted up to
//! the domain's bound.
//!
//! In the sorted domain SH^sls (an `interval` parameter), a merge keeps the segment sorted when both sides
//! are (a cell is, with its value as both bounds) and the pure part proves the first side's
//! largest value at most the second's least (Fig. 7, with the side condition the paper leaves
//! implicit); otherwise the merged segment is a plain one.
//!
//! Disequalities that separation implies are dropped, and pure atoms about existentials that
//! no longer occur in the spatial part are dropped (a weakening), after adding what they say
//! about the order of the other terms (`a < e <= b` gives `a < b`, an implied atom). Every rule either removes a spatial conjunct, an existential or a multiset
//! element, so rewriting terminates; every rule is an entailment `Δ ⊢ Δ'`, so `abs_T` is
//! inflationary, and a larger `T` or `protect` fires fewer rules (monotone in `T`).

use super::domain::Params;
use super::heap::{Atom, Bag, Caps, Cell, Classes, ListShape, Seg, SymHeap, Term};
use std::collections::BTreeSet;

/// The abstraction with its parameter.
#[derive(Clone, Copy, Debug)]
pub struct Abstraction<'a> {
    /// The list shapes of the domain.
    pub shapes: &'a [ListShape],
    /// `T`: the data symbols (with multiplicities) the multisets keep.
    pub keep: &'a Bag,
    /// Addresses kept as cells of their own.
    pub protect: &'a [Term],
    /// The domain: which conjuncts fold and what segments carry.
    pub params: Params,
}

/// A spatial conjunct seen as a list predicate `σ(from, to, S)`.
#[derive(Clone, Debug)]
struct View {
    shape: usize,
    from: Term,
    to: Term,
    bag: Bag,
    caps: Caps,
    /// A cell's data value.
    data: Option<Term>,
    /// The bounds of its sorted values (a cell's value twice).
    order: Option<(Term, Term)>,
    /// Whether it is a segment (not a cell).
    is_list: bool,
    /// At least this many cells.
    len: u32,
}

/// What one rewrite step gives.
enum Step {
    /// The rewritten heap.
    One(SymHeap),
    /// Cases to rewrite each on its own (they cover the heap).
    Cases(Vec<SymHeap>),
}

/// A spatial conjunct: a cell or a segment, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conj {
    Cell(usize),
    Seg(usize),
}

impl Abstraction<'_> {
    /// `abs_T(h)`: its cases (none if `h` is inconsistent, more than one where a merge first
    /// decided whether a cell holds a symbol of `T`).
    pub fn apply(&self, h: &SymHeap) -> Vec<SymHeap> {
        let mut todo = vec![h.clone()];
        let mut out = vec![];
        while let Some(h) = todo.pop() {
            if h.inconsistent() {
                continue;
            }
            let mut h = h;
            loop {
                match self.step(&h) {
                    Some(Step::One(next)) => h = next,
                    Some(Step::Cases(cases)) => {
                        todo.extend(cases);
                        break;
                    }
                    None => {
                        out.push(h.canonical());
                        break;
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// One rule application, if any fires.
    fn step(&self, h: &SymHeap) -> Option<Step> {
        let one = substitute(h)
            .or_else(|| drop_implied(h))
            .or_else(|| collect_garbage(h));
        if let Some(h) = one {
            return Some(Step::One(h));
        }
        if let Some(step) = self.merge(h) {
            return Some(step);
        }
        self.project(h).or_else(|| forget(h)).map(Step::One)
    }

    /// The list shape of a cell's struct, if the domain has one.
    fn shape_of(&self, c: &Cell) -> Option<usize> {
        self.shapes.iter().position(|s| s.ty == c.ty)
    }

    /// A conjunct as a list predicate.
    fn view(&self, h: &SymHeap, x: Conj) -> Option<View> {
        match x {
            Conj::Cell(i) => {
                let c = &h.cells[i];
                let shape = self.shape_of(c)?;
                let s = self.shapes[shape];
                let data = s.data.and_then(|d| c.fields.get(d)).copied();
                let classes = Classes::new(&h.pure);
                let p = self.params;
                Some(View {
                    shape,
                    from: c.addr,
                    to: *c.fields.get(s.link)?,
                    bag: (data.filter(|_| p.multiset)).map_or_else(Bag::new, Bag::single),
                    caps: (data.filter(|_| p.counts)).map_or_else(Caps::new, |d| {
                        Caps::of_value(d, self.keep, &h.pure, &classes)
                    }),
                    data,
                    order: data.map(|d| (d, d)),
                    is_list: false,
                    len: 1,
                })
            }
            Conj::Seg(i) => {
                let s = &h.segs[i];
                Some(View {
                    shape: s.shape,
                    from: s.from,
                    to: s.to,
                    bag: s.bag.clone(),
                    caps: s.caps.clone(),
                    data: None,
                    order: s.order,
                    is_list: true,
                    len: s.len.max(1),
                })
            }
        }
    }

    /// Rules 4 and 5: merges two conjuncts linked through an existential used nowhere else.
    /// A cell whose value the pure part does not compare with a symbol of `T` is first split
    /// into the cases that it holds the symbol and that it does not, so the merged segment
    /// knows how often it may hold it.
    fn merge(&self, h: &SymHeap) -> Option<Step> {
        let c = Classes::new(&h.pure);
        let counts = h.ex_counts();
        let conjs = conjuncts(h);
        let views: Vec<Option<View>> = conjs.iter().map(|x| self.view(h, *x)).collect();
        for (i, a) in views.iter().enumerate() {
            let Some(a) = a else { continue };
            if !a.to.is_ex() || counts.get(&a.to) != Some(&2) {
                continue;
            }
            let Some(j) = views
                .iter()
                .position(|b| b.as_ref().is_some_and(|b| b.from == a.to))
            else {
                continue;
            };
            let b = views[j].as_ref()?;
            if i == j || a.shape != b.shape || b.to == a.to {
                continue;
            }
            // The domain's rule for these two conjuncts, with its guard `x !in T`.
            let params = self.params;
            let Some(guard) = params.rule(a.is_list, b.is_list) else {
                continue;
            };
            if guard.address && self.protected(&c, a.from) {
                continue;
            }
            let ends_in_nil = c.equal(b.to, Term::Nil);
            let ends_at_cell = views.iter().enumerate().any(|(k, v)| {
                k != i && k != j && v.as_ref().is_some_and(|v| c.equal(v.from, b.to))
            }) || conjs.iter().enumerate().any(|(k, x)| {
                k != i && k != j && self.view(h, *x).is_none() && c.equal(addr(h, *x), b.to)
            });
            if !ends_in_nil && !ends_at_cell {
                continue;
            }
            if (params.counts || guard.value)
                && let Some(cases) = self.decide(h, &c, a).or_else(|| self.decide(h, &c, b))
            {
                return Some(Step::Cases(cases));
            }
            if guard.value && !(self.untracked_value(h, &c, a) && self.untracked_value(h, &c, b)) {
                continue;
            }
            let seg = Seg {
                shape: a.shape,
                from: a.from,
                to: if ends_in_nil { Term::Nil } else { b.to },
                bag: a.bag.sum(&b.bag).project(self.keep, &c),
                caps: a.caps.sum(&b.caps, &c).project(self.keep, &c),
                order: self.merged_order(h, &c, a, b),
                len: (a.len + b.len).min(params.length),
            };
            let mut out = remove(h, &[conjs[i], conjs[j]]);
            out.segs.push(seg);
            out.sort();
            return Some(Step::One(out));
        }
        None
    }

    /// The bounds of `a` then `b` as one sorted segment (SH^sls, Fig. 7): when both are
    /// sorted and the pure part proves `a`'s largest value at most `b`'s least.
    fn merged_order(&self, h: &SymHeap, c: &Classes, a: &View, b: &View) -> Option<(Term, Term)> {
        let ((lo, mid1), (mid2, hi)) = (a.order?, b.order?);
        (self.params.sorted && c.order(&h.pure, mid1, mid2).is_some()).then_some((lo, hi))
    }

    /// The two cases `d = t` and `d ≠ t` for a cell's value `d` and the first symbol `t` of
    /// `T` the pure part does not compare it with.
    fn decide(&self, h: &SymHeap, c: &Classes, v: &View) -> Option<Vec<SymHeap>> {
        let d = v.data?;
        let keep = self.keep.quotient(c);
        let (t, _) = keep
            .iter()
            .find(|(t, _)| c.count_of(&h.pure, d, *t).is_none())?;
        let mut same = h.clone();
        same.assume(Atom::eq(d, t));
        let mut differ = h.clone();
        differ.assume(Atom::ne(d, t));
        Some(vec![same, differ])
    }

    /// Whether a conjunct is not a cell holding a value the pure part does not prove different
    /// from every symbol of `T` (the value guard `d !in T`).
    fn untracked_value(&self, h: &SymHeap, c: &Classes, v: &View) -> bool {
        let keep = self.keep.quotient(c);
        v.data.is_none_or(|d| {
            keep.iter()
                .all(|(t, _)| c.count_of(&h.pure, d, t) == Some(0))
        })
    }

    /// Whether `t` is (provably equal to) a protected address.
    fn protected(&self, c: &Classes, t: Term) -> bool {
        self.protect.iter().any(|p| c.equal(*p, t))
    }

    /// Rule 6: projects a segment's multiset onto `T` (not without list shapes: then only
    /// the rules that are not list rules fire, as between loop heads).
    fn project(&self, h: &SymHeap) -> Option<SymHeap> {
        if self.shapes.is_empty() {
            return None;
        }
        let c = Classes::new(&h.pure);
        let i = h.segs.iter().position(|s| {
            s.bag.project(self.keep, &c) != s.bag || s.caps.project(self.keep, &c) != s.caps
        })?;
        let mut out = h.clone();
        out.segs[i].bag = h.segs[i].bag.project(self.keep, &c);
        out.segs[i].caps = h.segs[i].caps.project(self.keep, &c);
        out.sort();
        Some(out)
    }
}

/// The spatial conjuncts of a heap.
fn conjuncts(h: &SymHeap) -> Vec<Conj> {
    (0..h.cells.len())
        .map(Conj::Cell)
        .chain((0..h.segs.len()).map(Conj::Seg))
        .collect()
}

/// A conjunct's address.
fn addr(h: &SymHeap, x: Conj) -> Term {
    match x {
        Conj::Cell(i) => h.cells[i].addr,
        Conj::Seg(i) => h.segs[i].from,
    }
}

/// The pointers a conjunct holds (every field of a cell; a segment's end).
fn targets(h: &SymHeap, x: Conj) -> Vec<Term> {
    match x {
        Conj::Cell(i) => h.cells[i].fields.clone(),
        Conj::Seg(i) => vec![h.segs[i].to],
    }
}

/// The heap without some conjuncts.
fn remove(h: &SymHeap, gone: &[Conj]) -> SymHeap {
    let mut out = h.clone();
    out.cells = h
        .cells
        .iter()
        .enumerate()
        .filter(|(i, _)| !gone.contains(&Conj::Cell(*i)))
        .map(|(_, c)| c.clone())
        .collect();
    out.segs = h
        .segs
        .iter()
        .enumerate()
        .filter(|(i, _)| !gone.contains(&Conj::Seg(*i)))
        .map(|(_, s)| s.clone())
        .collect();
    out
}

/// The heap with rule 1 applied and the pure atoms about existentials no spatial conjunct
/// holds dropped, to a fixpoint: the same constraints on the program's values, named by
/// them (`x = a' ∧ y ≠ a'` becomes `y ≠ x`).
pub fn simplify(h: &SymHeap) -> SymHeap {
    let mut h = h.clone();
    while let Some(next) = substitute(&h).or_else(|| forget(&h)) {
        h = next;
    }
    h
}

/// Rule 1: replaces an existential by the least term of its class.
fn substitute(h: &SymHeap) -> Option<SymHeap> {
    let c = Classes::new(&h.pure);
    let x = h
        .terms()
        .into_iter()
        .find(|t| t.is_ex() && c.rep(*t) != *t)?;
    Some(h.subst(x, c.rep(x)))
}

/// Drops the disequalities separation implies (between two allocated addresses, or between
/// one and NULL): they are no information, and would pin the existentials they mention.
fn drop_implied(h: &SymHeap) -> Option<SymHeap> {
    let c = Classes::new(&h.pure);
    let alloc: BTreeSet<Term> = h.allocated().into_iter().map(|t| c.rep(t)).collect();
    let known = |t: Term| c.rep(t) == Term::Nil || alloc.contains(&c.rep(t));
    let implied = |a: &Atom| matches!(a, Atom::Ne(x, y) if known(*x) && known(*y));
    if !h.pure.iter().any(implied) {
        return None;
    }
    let mut out = h.clone();
    out.pure.retain(|a| !implied(a));
    Some(out)
}

/// Rules 2 and 3: drops the conjuncts no root reaches, adding `true`.
fn collect_garbage(h: &SymHeap) -> Option<SymHeap> {
    let c = Classes::new(&h.pure);
    let mut roots: BTreeSet<Term> = h.pure.iter().flat_map(|a| a.terms()).collect();
    let conjs = conjuncts(h);
    let is_root =
        |t: Term, roots: &BTreeSet<Term>| !t.is_ex() || roots.iter().any(|r| c.equal(*r, t));
    let mut reached = vec![false; conjs.len()];
    loop {
        let mut changed = false;
        for (k, x) in conjs.iter().enumerate() {
            if !reached[k] && is_root(addr(h, *x), &roots) {
                reached[k] = true;
                roots.extend(targets(h, *x));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let gone: Vec<Conj> = conjs
        .iter()
        .zip(&reached)
        .filter(|(_, r)| !**r)
        .map(|(x, _)| *x)
        .collect();
    if gone.is_empty() {
        return None;
    }
    let mut out = remove(h, &gone);
    out.junk = true;
    out.sort();
    Some(out)
}

/// Drops pure atoms about existentials that occur in no spatial conjunct, and the bounds of
/// segments on existentials that occur nowhere else (some value is held at least once, or
/// at most so often: no information).
fn forget(h: &SymHeap) -> Option<SymHeap> {
    let spatial: BTreeSet<Term> = SymHeap {
        pure: vec![],
        ..h.clone()
    }
    .terms()
    .into_iter()
    .collect();
    let dangling = |t: Term| t.is_ex() && !spatial.contains(&t);
    let gone = (h.pure.iter())
        .flat_map(|a| a.terms())
        .find(|t| dangling(*t));
    if let Some(e) = gone {
        let mut out = h.clone();
        out.pure = eliminate(&h.pure, e);
        out.sort();
        return Some(out);
    }
    let counts = h.ex_counts();
    let lone = |t: Term| t.is_ex() && counts.get(&t) == Some(&1);
    let i = (h.segs.iter())
        .position(|s| s.bag.iter().any(|(t, _)| lone(t)) || s.caps.iter().any(|(t, _)| lone(t)))?;
    let mut out = h.clone();
    let s = &mut out.segs[i];
    s.bag = Bag::from_counts(s.bag.iter().filter(|(t, _)| !lone(*t)));
    s.caps = s.caps.without(lone);
    out.sort();
    Some(out)
}

/// The pure part without the existential `e`, keeping what it says through `e` about the
/// order of the other terms (`a < e <= b` gives `a < b`): a sorted segment's bounds stay
/// related to the cells around it when the value between them is gone (a deleted cell's).
fn eliminate(pure: &[Atom], e: Term) -> Vec<Atom> {
    let bound = |lower: bool| -> Vec<(Term, bool)> {
        (pure.iter())
            .filter_map(|a| match (*a, lower) {
                (Atom::Lt(x, y), true) | (Atom::Lt(y, x), false) if y == e && x != e => {
                    Some((x, true))
                }
                (Atom::Le(x, y), true) | (Atom::Le(y, x), false) if y == e && x != e => {
                    Some((x, false))
                }
                _ => None,
            })
            .collect()
    };
    let (below, above) = (bound(true), bound(false));
    let mut out: Vec<Atom> = (pure.iter().copied())
        .filter(|a| !a.terms().contains(&e))
        .collect();
    for (a, s1) in &below {
        for (b, s2) in &above {
            let atom = match (s1 | s2, a == b) {
                (true, _) => Atom::Lt(*a, *b),
                (false, false) => Atom::Le(*a, *b),
                (false, true) => continue,
            };
            if !out.contains(&atom) {
                out.push(atom);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::seed001::domain::Guard;
    use crate::techniques::seed001::fixtures::{SHAPES, node, var};

    fn heap(cells: Vec<Cell>, pure: Vec<Atom>) -> SymHeap {
        let mut h = SymHeap {
            pure,
            cells,
            segs: vec![],
            junk: false,
        };
        h.sort();
        h
    }

    fn abs(keep: &Bag, h: &SymHeap) -> SymHeap {
        Abstraction {
            shapes: &SHAPES,
            keep,
            protect: &[],
            params: Params::mls(),
        }
        .apply(h)
        .pop()
        .expect("consistent")
    }

    /// The running example's heap at l5: `r` heads three cells, one holding `x`.
    fn three_cells() -> SymHeap {
        let (r, x) = (var(0), var(1));
        let (a, b, d1, d3) = (Term::Ex(0), Term::Ex(1), Term::Ex(2), Term::Ex(3));
        heap(
            vec![node(r, a, d1), node(a, b, x), node(b, Term::Nil, d3)],
            vec![],
        )
    }

    #[test]
    fn without_symbols_a_list_forgets_its_values() {
        let h = abs(&Bag::new(), &three_cells());
        assert!(h.cells.is_empty(), "{h}");
        assert_eq!(h.segs.len(), 1, "{h}");
        assert_eq!((h.segs[0].from, h.segs[0].to), (var(0), Term::Nil));
        assert!(h.segs[0].bag.is_empty(), "{h}");
    }

    #[test]
    fn a_kept_symbol_stays_in_the_multiset() {
        let h = abs(&Bag::single(var(1)), &three_cells());
        assert_eq!(h.segs.len(), 1, "{h}");
        assert_eq!(h.segs[0].bag, Bag::single(var(1)), "{h}");
    }

    #[test]
    fn multiplicities_are_capped_by_the_parameter() {
        let x = var(1);
        let (a, b) = (Term::Ex(0), Term::Ex(1));
        let h = heap(
            vec![node(var(0), a, x), node(a, b, x), node(b, Term::Nil, x)],
            vec![],
        );
        let two = Bag::from_counts([(x, 2)]);
        assert_eq!(abs(&two, &h).segs[0].bag, Bag::from_counts([(x, 2)]));
        assert_eq!(abs(&Bag::single(x), &h).segs[0].bag, Bag::single(x));
    }

    #[test]
    fn a_value_equal_to_a_kept_symbol_counts_as_it() {
        let (x, d) = (var(1), Term::Ex(5));
        let a = Term::Ex(0);
        let h = heap(
            vec![node(var(0), a, d), node(a, Term::Nil, Term::Ex(6))],
            vec![Atom::eq(d, x)],
        );
        assert_eq!(abs(&Bag::single(x), &h).segs[0].bag, Bag::single(x));
    }

    #[test]
    fn a_segment_ends_at_a_cell_a_variable_points_to() {
        // r -> a' -> q, q -> nil: the segment r..q keeps q's cell apart.
        let (r, q, a) = (var(0), var(2), Term::Ex(0));
        let h = heap(
            vec![
                node(r, a, Term::Ex(1)),
                node(a, q, Term::Ex(2)),
                node(q, Term::Nil, Term::Ex(3)),
            ],
            vec![],
        );
        let h = abs(&Bag::new(), &h);
        assert_eq!(h.segs.len(), 1, "{h}");
        assert_eq!((h.segs[0].from, h.segs[0].to), (r, q), "{h}");
        assert_eq!(h.cells.len(), 1, "{h}");
    }

    #[test]
    fn a_cell_no_variable_reaches_is_junk() {
        let h = heap(
            vec![
                node(var(0), Term::Nil, Term::Int(1)),
                node(Term::Ex(0), Term::Nil, Term::Int(2)),
            ],
            vec![],
        );
        let h = abs(&Bag::new(), &h);
        assert!(h.junk, "{h}");
        assert_eq!(h.cells.len(), 1, "{h}");
        // A garbage cycle of two cells as well.
        let (a, b) = (Term::Ex(0), Term::Ex(1));
        let h = heap(vec![node(a, b, Term::Nil), node(b, a, Term::Nil)], vec![]);
        let h = abs(&Bag::new(), &h);
        assert!(h.junk && h.cells.is_empty(), "{h}");
    }

    #[test]
    fn a_protected_address_stays_a_cell() {
        let (r, a, b) = (var(0), Term::Ex(0), Term::Ex(1));
        let h = heap(
            vec![
                node(r, a, Term::Ex(5)),
                node(a, b, Term::Ex(6)),
                node(b, Term::Nil, Term::Ex(7)),
            ],
            vec![],
        );
        let protect = [r];
        let h = Abstraction {
            shapes: &SHAPES,
            keep: &Bag::new(),
            protect: &protect,
            params: Params::mls(),
        }
        .apply(&h)
        .pop()
        .expect("consistent");
        assert!(h.cells.iter().any(|c| c.addr == r), "{h}");
        assert_eq!(h.segs.len(), 1, "{h}");
    }

    #[test]
    fn inconsistent_heaps_have_no_abstraction() {
        let r = var(0);
        let h = heap(
            vec![node(r, Term::Nil, Term::Int(0))],
            vec![Atom::eq(r, Term::Nil)],
        );
        assert!(
            Abstraction {
                shapes: &SHAPES,
                keep: &Bag::new(),
                protect: &[],
                params: Params::mls(),
            }
            .apply(&h)
            .is_empty()
        );
    }

    #[test]
    fn renamed_existentials_give_the_same_canonical_heap() {
        let (r, x) = (var(0), var(1));
        let h1 = heap(
            vec![
                node(r, Term::Ex(4), x),
                node(Term::Ex(4), Term::Nil, Term::Ex(9)),
            ],
            vec![],
        );
        let h2 = heap(
            vec![
                node(r, Term::Ex(1), x),
                node(Term::Ex(1), Term::Nil, Term::Ex(0)),
            ],
            vec![],
        );
        assert_eq!(h1.canonical(), h2.canonical());
    }

    #[test]
    fn cells_that_differ_from_a_kept_symbol_fold_into_a_segment_without_it() {
        let (r, x, a) = (var(0), var(1), Term::Ex(0));
        let (d1, d2) = (Term::Ex(1), Term::Ex(2));
        let h = heap(
            vec![node(r, a, d1), node(a, Term::Nil, d2)],
            vec![Atom::ne(d1, x), Atom::ne(d2, x)],
        );
        let out = abs(&Bag::single(x), &h);
        assert_eq!(out.segs.len(), 1, "{out}");
        assert_eq!(
            out.segs[0].caps.bound(x, &Classes::default()),
            Some(0),
            "{out}"
        );
        // Without x in T the bound is not kept.
        assert!(abs(&Bag::new(), &h).segs[0].caps.is_empty());
    }

    #[test]
    fn a_cell_not_compared_with_a_kept_symbol_is_split_before_it_folds() {
        let (r, x, a) = (var(0), var(1), Term::Ex(0));
        let (d1, d2) = (Term::Ex(1), Term::Ex(2));
        let h = heap(
            vec![node(r, a, d1), node(a, Term::Nil, d2)],
            vec![Atom::ne(d1, x)],
        );
        let keep = Bag::single(x);
        let cases = Abstraction {
            shapes: &SHAPES,
            keep: &keep,
            protect: &[],
            params: Params::mls(),
        }
        .apply(&h);
        // d2 = x (x held once, at most once) or d2 ≠ x (x held by no cell).
        let bounds: Vec<(u32, Option<u32>)> = cases
            .iter()
            .map(|g| {
                (
                    g.segs[0].bag.count(x),
                    g.segs[0].caps.bound(x, &Classes::default()),
                )
            })
            .collect();
        assert_eq!(cases.len(), 2, "{cases:?}");
        assert!(bounds.contains(&(1, Some(1))), "{bounds:?}");
        assert!(bounds.contains(&(0, Some(0))), "{bounds:?}");
    }

    #[test]
    fn a_length_parameter_counts_the_folded_cells_up_to_its_bound() {
        let fold = |length: u32, rules| {
            let h = three_cells();
            let params = Params {
                length,
                rules,
                ..Params::mls()
            };
            let abs = Abstraction {
                shapes: &SHAPES,
                keep: &Bag::new(),
                protect: &[],
                params,
            };
            abs.apply(&h).pop().expect("consistent")
        };
        let all = [[Some(Guard::ADDRESS); 2]; 2];
        assert_eq!(fold(8, all).segs[0].len, 3);
        assert_eq!(fold(2, all).segs[0].len, 2);
        assert_eq!(fold(0, all).segs[0].len, 0);
        // Without a rule that folds two cells, cells stay cells.
        let g = Some(Guard::ADDRESS);
        let no_cells = [[None, g], [g, g]];
        let out = fold(8, no_cells);
        assert!(out.segs.is_empty() && out.cells.len() == 3, "{out}");
    }

    #[test]
    fn the_value_guard_keeps_a_cell_holding_a_kept_value() {
        // r -> a -> b -> nil, the cell at a holding x; with x in T and every fold guarded by
        // `d !in T`, the cell holding x stays a cell (and the one after it is a segment of
        // one), while a cell not compared with x is first split.
        let guarded = Guard {
            address: true,
            value: true,
        };
        let abs = Abstraction {
            shapes: &SHAPES,
            keep: &Bag::single(var(1)),
            protect: &[],
            params: Params {
                rules: [[Some(guarded); 2]; 2],
                ..Params::mls()
            },
        };
        let cases = abs.apply(&three_cells());
        assert!(!cases.is_empty());
        for h in &cases {
            assert!(
                h.cells.iter().any(|c| c.fields[1] == var(1)),
                "the cell holding x is kept: {h}"
            );
        }
        // Without the guard it folds.
        let plain = Abstraction {
            params: Params::mls(),
            ..abs
        };
        assert!(
            plain
                .apply(&three_cells())
                .iter()
                .all(|h| h.cells.is_empty())
        );
    }

    #[test]
    fn a_forgotten_value_leaves_the_order_it_implied() {
        let (a, b, e) = (var(0), var(1), Term::Ex(9));
        let pure = vec![Atom::Lt(a, e), Atom::Le(e, b), Atom::Ne(e, Term::Int(3))];
        assert_eq!(eliminate(&pure, e), [Atom::Lt(a, b)]);
        let pure = vec![Atom::Le(a, e), Atom::Le(e, b), Atom::Le(e, a)];
        let mut out = eliminate(&pure, e);
        out.sort();
        assert_eq!(out, [Atom::Le(a, b)]);
        // a < e < a: the contradiction stays.
        assert_eq!(
            eliminate(&[Atom::Lt(a, e), Atom::Lt(e, a)], e),
            [Atom::Lt(a, a)]
        );
    }

    #[test]
    fn cells_in_order_fold_into_a_sorted_segment_only_in_the_sorted_domain() {
        let (r, a) = (var(0), Term::Ex(0));
        let (d1, d2) = (Term::Ex(1), Term::Ex(2));
        let h = heap(
            vec![node(r, a, d1), node(a, Term::Nil, d2)],
            vec![Atom::Le(d1, d2)],
        );
        let fold = |sorted: bool, h: &SymHeap| {
            Abstraction {
                shapes: &SHAPES,
                keep: &Bag::new(),
                protect: &[],
                params: Params {
                    sorted,
                    ..Params::mls()
                },
            }
            .apply(h)
            .pop()
            .expect("consistent")
        };
        let out = fold(true, &h);
        assert_eq!(out.segs.len(), 1, "{out}");
        assert!(out.segs[0].order.is_some(), "{out}");
        assert!(fold(false, &h).segs[0].order.is_none());
        // Out of order (or not known to be in order): a plain segment.
        let h = heap(vec![node(r, a, d1), node(a, Term::Nil, d2)], vec![]);
        assert!(fold(true, &h).segs[0].order.is_none());
    }
}

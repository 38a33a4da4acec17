//! Entailment `Δ1 ⊢ Δ2` between symbolic heaps of the list domains (seed 001, section 4.4):
//! the order of the abstract domain, used for coverage in the ART and in the certificate
//! re-check.
//!
//! Consumes two heaps and the list shapes; produces whether every state of the left heap is
//! a state of the right one. The check is a search for a match: the right heap's existentials
//! are bound to terms of the left, each right cell is matched by a left cell at an equal
//! address with equal fields, and each right segment `list(e, f, S)` by a chain of left cells
//! and segments of its shape linked from `e` to `f` (segments compose, and a cell is a
//! segment of length one), whose multisets together hold at least `S` (up to the left heap's
//! equalities), whose upper bounds add up to at most the right segment's, and, for a sorted
//! right segment, sorted pieces in order whose first value is the segment's least and whose
//! last bound is at most its largest, and whose lengths add up to at least the right segment's.
//! Chains of more than one piece need the domain's composition lemma (a cell alone is a
//! segment by the definition's step case over an empty rest). Unmatched left conjuncts are allowed only where the
//! right heap has `∗ true`.
//! The right heap's pure atoms must follow from the left heap's: equalities by its classes,
//! disequalities also from separation (two allocated addresses differ, and are not NULL).
//! The check is sound and incomplete: a `false` answer only costs precision (a graph is not
//! covered), never soundness.

use super::heap::{Atom, Bag, Caps, Classes, ListShape, SymHeap, Term};
use std::collections::BTreeMap;

/// Whether `lhs ⊢ rhs`.
pub fn entails(shapes: &[ListShape], lhs: &SymHeap, rhs: &SymHeap) -> bool {
    if lhs.inconsistent() {
        return true;
    }
    if lhs.junk && !rhs.junk {
        return false;
    }
    let m = Matcher::new(shapes, lhs, rhs);
    m.go(0, &State::new(m.left.len()))
}

/// Whether `lhs` entails one of `rhs` (the disjunction's sufficient check).
pub fn entails_one(shapes: &[ListShape], lhs: &SymHeap, rhs: &[SymHeap]) -> bool {
    rhs.iter().any(|r| entails(shapes, lhs, r))
}

/// A left conjunct seen as a piece of list (or as a plain cell).
#[derive(Clone, Debug)]
struct Piece {
    /// Its address.
    addr: Term,
    /// Its list shape and end, and the multiset it holds, if it is a list piece.
    list: Option<(usize, Term, Bag)>,
    /// What bounds its values: a cell's data term, or a segment's upper bounds.
    held: Held,
    /// Its least and largest value if its values are sorted (a cell's value twice).
    order: Option<(Term, Term)>,
    /// A cell's struct and fields.
    cell: Option<(crate::program::ir::StructId, Vec<Term>)>,
    /// At least this many cells.
    len: u32,
}

/// What bounds the values of a left piece.
#[derive(Clone, Debug)]
enum Held {
    /// A cell holding this value (none: a cell without a list shape or data field).
    Value(Option<Term>),
    /// A segment with these upper bounds.
    Caps(Caps),
}

/// Bindings of the right heap's existentials, and which goal uses each left conjunct.
#[derive(Clone, Debug)]
struct State {
    bind: BTreeMap<Term, Term>,
    owner: Vec<Option<usize>>,
}

impl State {
    fn new(n: usize) -> State {
        State {
            bind: BTreeMap::new(),
            owner: vec![None; n],
        }
    }

    fn used(&self, i: usize) -> bool {
        self.owner[i].is_some()
    }
}

/// A right conjunct to match.
#[derive(Clone, Debug)]
enum Goal {
    Cell(Term, crate::program::ir::StructId, Vec<Term>),
    Seg(usize, Term, Term, Bag, Caps, Option<(Term, Term)>, u32),
}

/// A right segment's shape, end, lower and upper bounds, sorted bounds and least length.
type SegGoal<'g> = (usize, Term, &'g Bag, &'g Caps, Option<(Term, Term)>, u32);

struct Matcher<'a> {
    shapes: &'a [ListShape],
    lhs: &'a SymHeap,
    rhs: &'a SymHeap,
    classes: Classes,
    left: Vec<Piece>,
    goals: Vec<Goal>,
}

impl<'a> Matcher<'a> {
    fn new(shapes: &'a [ListShape], lhs: &'a SymHeap, rhs: &'a SymHeap) -> Matcher<'a> {
        let mut left: Vec<Piece> = lhs
            .cells
            .iter()
            .map(|c| {
                let list = shapes.iter().position(|s| s.ty == c.ty).and_then(|k| {
                    let s = shapes[k];
                    let data = s.data.and_then(|d| c.fields.get(d));
                    Some((
                        k,
                        *c.fields.get(s.link)?,
                        data.map_or_else(Bag::new, |t| Bag::single(*t)),
                    ))
                });
                let data = shapes
                    .iter()
                    .find(|s| s.ty == c.ty)
                    .and_then(|s| s.data.and_then(|d| c.fields.get(d)).copied());
                Piece {
                    addr: c.addr,
                    list,
                    order: data.map(|d| (d, d)),
                    held: Held::Value(data),
                    cell: Some((c.ty, c.fields.clone())),
                    len: 1,
                }
            })
            .collect();
        left.extend(lhs.segs.iter().map(|s| Piece {
            addr: s.from,
            list: Some((s.shape, s.to, s.bag.clone())),
            held: Held::Caps(s.caps.clone()),
            order: s.order,
            cell: None,
            len: s.len.max(1),
        }));
        // Cells first, and among them those whose address is not existential.
        let mut goals: Vec<Goal> = rhs
            .cells
            .iter()
            .map(|c| Goal::Cell(c.addr, c.ty, c.fields.clone()))
            .collect();
        goals.sort_by_key(|g| matches!(g, Goal::Cell(a, ..) if a.is_ex()));
        let mut segs: Vec<Goal> = rhs
            .segs
            .iter()
            .map(|s| {
                let (bag, caps) = (s.bag.clone(), s.caps.clone());
                Goal::Seg(s.shape, s.from, s.to, bag, caps, s.order, s.len)
            })
            .collect();
        segs.sort_by_key(|g| matches!(g, Goal::Seg(_, a, ..) if a.is_ex()));
        goals.extend(segs);
        Matcher {
            shapes,
            lhs,
            rhs,
            classes: Classes::new(&lhs.pure),
            left,
            goals,
        }
    }

    /// Matches the goals from `k` on.
    fn go(&self, k: usize, st: &State) -> bool {
        match self.goals.get(k) {
            None => self.finish(st),
            Some(Goal::Cell(a, ty, fields)) => (0..self.left.len()).any(|i| {
                let p = &self.left[i];
                let Some((pty, pfields)) = &p.cell else {
                    return false;
                };
                if st.used(i) || pty != ty || pfields.len() != fields.len() {
                    return false;
                }
                let mut st = st.clone();
                st.owner[i] = Some(k);
                let ok = self.unify(&mut st, *a, p.addr)
                    && fields
                        .iter()
                        .zip(pfields)
                        .all(|(r, l)| self.unify(&mut st, *r, *l));
                ok && self.go(k + 1, &st)
            }),
            Some(Goal::Seg(shape, from, to, bag, caps, order, len)) => {
                (0..self.left.len()).any(|i| {
                    let p = &self.left[i];
                    if st.used(i) || p.list.as_ref().is_none_or(|l| l.0 != *shape) {
                        return false;
                    }
                    let mut st = st.clone();
                    st.owner[i] = Some(k);
                    let goal = (*shape, *to, bag, caps, *order, *len);
                    let sorted_from = match (order, p.order) {
                        (None, _) => true,
                        (Some(_), None) => false,
                        (Some((lo, _)), Some((first, _))) => self.unify(&mut st, *lo, first),
                    };
                    self.unify(&mut st, *from, p.addr) && sorted_from && self.chain(k, &st, i, goal)
                })
            }
        }
    }

    /// Extends a chain whose last piece is `last` towards the goal's end `to`.
    fn chain(&self, k: usize, st: &State, last: usize, goal: SegGoal) -> bool {
        let (shape, to, bag, caps, order, len) = goal;
        let (_, end, _) = self.left[last].list.as_ref().expect("a list piece");
        let end = *end;
        let last_hi = self.left[last].order.map(|(_, hi)| hi);
        // Stop here: the chain ends where the goal's segment ends, holding enough values (and
        // for a sorted goal, no larger than its bound).
        let mut stop = st.clone();
        let sorted_to = |st: &mut State| match (order, last_hi) {
            (None, _) => true,
            (Some((_, hi)), Some(last)) => self.above(st, hi, last),
            (Some(_), None) => false,
        };
        if self.unify(&mut stop, to, end)
            && sorted_to(&mut stop)
            && self.holds(&stop, k, bag)
            && self.bounded(&stop, k, caps)
            && self.long(&stop, k, len)
            && self.go(k + 1, &stop)
        {
            return true;
        }
        // Without the composition lemma a goal segment is matched by one piece.
        if !self.shapes.get(shape).is_none_or(|s| s.params.compose) {
            return false;
        }
        // Or go on through a piece at the chain's end.
        (0..self.left.len()).any(|j| {
            let p = &self.left[j];
            if st.used(j)
                || p.list.as_ref().is_none_or(|l| l.0 != shape)
                || !self.classes.equal(p.addr, end)
            {
                return false;
            }
            // A sorted goal: the next piece is sorted and starts no lower than this one ends.
            let in_order = order.is_none()
                || matches!((last_hi, p.order), (Some(a), Some((b, _)))
                    if self.classes.order(&self.lhs.pure, a, b).is_some());
            if !in_order {
                return false;
            }
            let mut st = st.clone();
            st.owner[j] = Some(k);
            self.chain(k, &st, j, goal)
        })
    }

    /// Whether right term `hi` is at least left term `v` (binding `hi` to `v` if unbound).
    fn above(&self, st: &mut State, hi: Term, v: Term) -> bool {
        match self.resolve(st, hi) {
            Some(x) => self.classes.order(&self.lhs.pure, v, x).is_some(),
            None => self.unify(st, hi, v),
        }
    }

    /// Whether the chain of goal `k` has at least `len` cells.
    fn long(&self, st: &State, k: usize, len: u32) -> bool {
        let owned = (self.left.iter().enumerate()).filter(|(i, _)| st.owner[*i] == Some(k));
        owned.map(|(_, p)| p.len).sum::<u32>() >= len
    }

    /// Whether the chain of goal `k` holds at least `bag`.
    fn holds(&self, st: &State, k: usize, bag: &Bag) -> bool {
        if bag.is_empty() {
            return true;
        }
        let Some(bag) = self.resolve_bag(st, bag) else {
            return false;
        };
        let mut held = Bag::new();
        for (i, p) in self.left.iter().enumerate() {
            if st.owner[i] == Some(k)
                && let Some((_, _, b)) = &p.list
            {
                held = held.sum(b);
            }
        }
        bag.below(&held, &self.classes)
    }

    /// Whether the chain of goal `k` holds no more of each value than `caps` allows: every
    /// piece bounds it (a cell by whether it provably holds it, a segment by its own bound)
    /// and the bounds add up to at most the goal's.
    fn bounded(&self, st: &State, k: usize, caps: &Caps) -> bool {
        let c = &self.classes;
        caps.iter().all(|(t, n)| {
            let Some(t) = self.resolve(st, t) else {
                return false;
            };
            let mut total = 0;
            for (i, p) in self.left.iter().enumerate() {
                if st.owner[i] != Some(k) {
                    continue;
                }
                let bound = match &p.held {
                    Held::Value(Some(d)) => c.count_of(&self.lhs.pure, *d, t),
                    Held::Value(None) => None,
                    Held::Caps(own) => own.bound(t, c),
                };
                let Some(b) = bound else { return false };
                total += b;
            }
            total <= n
        })
    }

    fn resolve_bag(&self, st: &State, bag: &Bag) -> Option<Bag> {
        let mut out = Bag::new();
        for (t, n) in bag.iter() {
            let r = self.resolve(st, t)?;
            out.add(r, n);
        }
        Some(out)
    }

    /// A right term under the bindings (`None` for an unbound existential).
    fn resolve(&self, st: &State, t: Term) -> Option<Term> {
        if t.is_ex() {
            st.bind.get(&t).copied()
        } else {
            Some(t)
        }
    }

    /// Makes right term `r` denote left term `l`: binds an unbound existential, or checks
    /// that the two are equal in the left heap.
    fn unify(&self, st: &mut State, r: Term, l: Term) -> bool {
        match self.resolve(st, r) {
            Some(x) => self.classes.equal(x, l),
            None => {
                st.bind.insert(r, l);
                true
            }
        }
    }

    /// All goals matched: no left conjunct is left over (unless the right heap has junk),
    /// and the right pure part follows.
    fn finish(&self, st: &State) -> bool {
        if !self.rhs.junk && st.owner.iter().any(|o| o.is_none()) {
            return false;
        }
        let mut st = st.clone();
        self.rhs.pure.iter().all(|a| self.pure(&mut st, *a))
    }

    fn pure(&self, st: &mut State, a: Atom) -> bool {
        let [x, y] = a.terms();
        if let Atom::Eq(..) = a {
            match (self.resolve(st, x), self.resolve(st, y)) {
                (Some(p), Some(q)) => return self.classes.equal(p, q),
                (None, Some(q)) => return self.unify(st, x, q),
                (Some(p), None) => return self.unify(st, y, p),
                (None, None) => return false,
            }
        }
        let (Some(p), Some(q)) = (self.resolve(st, x), self.resolve(st, y)) else {
            return false;
        };
        match a {
            Atom::Ne(..) => self.classes.differ(&self.lhs.pure, p, q) || self.separated(p, q),
            Atom::Lt(..) => self.classes.less(&self.lhs.pure, p, q),
            Atom::Le(..) => self.classes.order(&self.lhs.pure, p, q).is_some(),
            Atom::Eq(..) => unreachable!("handled above"),
        }
    }

    /// Whether separation makes `p ≠ q`: both allocated by different conjuncts, or one
    /// allocated and the other NULL.
    fn separated(&self, p: Term, q: Term) -> bool {
        let alloc = self.lhs.allocated();
        let at = |t: Term| alloc.iter().position(|a| self.classes.equal(*a, t));
        match (at(p), at(q)) {
            (Some(i), Some(j)) => i != j,
            (Some(_), None) => self.classes.equal(q, Term::Nil),
            (None, Some(_)) => self.classes.equal(p, Term::Nil),
            (None, None) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::techniques::seed001::fixtures::{SHAPES, node, var};
    use crate::techniques::seed001::heap::{Cell, Seg};

    fn list(from: Term, to: Term, bag: Bag) -> Seg {
        Seg {
            shape: 0,
            from,
            to,
            bag,
            caps: Caps::new(),
            order: None,
            len: 0,
        }
    }

    fn heap(cells: Vec<Cell>, segs: Vec<Seg>, pure: Vec<Atom>, junk: bool) -> SymHeap {
        let mut h = SymHeap {
            pure,
            cells,
            segs,
            junk,
        };
        h.sort();
        h
    }

    fn ent(l: &SymHeap, r: &SymHeap) -> bool {
        entails(&SHAPES, l, r)
    }

    #[test]
    fn a_goal_length_needs_that_many_cells_and_chains_need_the_composition_lemma() {
        let (r, a) = (var(0), Term::Ex(0));
        let goal = |len: u32| {
            let mut g = list(r, Term::Nil, Bag::new());
            g.len = len;
            heap(vec![], vec![g], vec![], false)
        };
        let mut rest = list(a, Term::Nil, Bag::new());
        rest.len = 2;
        let lhs = heap(vec![node(r, a, Term::Int(1))], vec![rest], vec![], false);
        assert!(entails(&SHAPES, &lhs, &goal(3)));
        assert!(!entails(&SHAPES, &lhs, &goal(4)));
        let mut shapes = SHAPES;
        shapes[0].params.compose = false;
        assert!(!entails(&shapes, &lhs, &goal(1)));
        let one = heap(
            vec![node(r, Term::Nil, Term::Int(1))],
            vec![],
            vec![],
            false,
        );
        assert!(entails(&shapes, &one, &goal(1)));
    }

    #[test]
    fn cells_fold_into_a_segment_holding_their_values() {
        let (r, x, y, a) = (var(0), var(1), var(2), Term::Ex(0));
        let l = heap(
            vec![node(r, a, Term::Ex(1)), node(a, Term::Nil, x)],
            vec![],
            vec![],
            false,
        );
        let seg = |b: Bag| heap(vec![], vec![list(r, Term::Nil, b)], vec![], false);
        assert!(ent(&l, &seg(Bag::new())));
        assert!(ent(&l, &seg(Bag::single(x))));
        assert!(!ent(&l, &seg(Bag::single(y))));
        assert!(!ent(&l, &seg(Bag::from_counts([(x, 2)]))));
    }

    #[test]
    fn a_multiset_may_be_forgotten_but_not_invented() {
        let (r, x) = (var(0), var(1));
        let with = heap(
            vec![],
            vec![list(r, Term::Nil, Bag::single(x))],
            vec![],
            false,
        );
        let without = heap(vec![], vec![list(r, Term::Nil, Bag::new())], vec![], false);
        assert!(ent(&with, &without));
        assert!(!ent(&without, &with));
    }

    #[test]
    fn segments_compose_and_a_segment_is_no_cell() {
        let (r, q) = (var(0), var(1));
        let two = heap(
            vec![],
            vec![list(r, q, Bag::new()), list(q, Term::Nil, Bag::new())],
            vec![],
            false,
        );
        let one = heap(vec![], vec![list(r, Term::Nil, Bag::new())], vec![], false);
        assert!(ent(&two, &one));
        assert!(!ent(&one, &two));
        let cell = heap(vec![node(r, Term::Nil, Term::Ex(0))], vec![], vec![], false);
        assert!(!ent(&one, &cell));
        assert!(ent(&cell, &one));
    }

    #[test]
    fn leftover_cells_need_junk_on_the_right() {
        let (r, q) = (var(0), var(1));
        let both = heap(
            vec![
                node(r, Term::Nil, Term::Int(1)),
                node(q, Term::Nil, Term::Int(2)),
            ],
            vec![],
            vec![],
            false,
        );
        let one = |junk| heap(vec![node(r, Term::Nil, Term::Ex(0))], vec![], vec![], junk);
        assert!(!ent(&both, &one(false)));
        assert!(ent(&both, &one(true)));
        let mut junky = one(true);
        junky.pure.clear();
        assert!(!ent(&junky, &one(false)));
    }

    #[test]
    fn separation_proves_disequalities() {
        let (r, q) = (var(0), var(1));
        let l = heap(
            vec![
                node(r, Term::Nil, Term::Int(1)),
                node(q, Term::Nil, Term::Int(2)),
            ],
            vec![],
            vec![],
            false,
        );
        let mut rhs = l.clone();
        rhs.assume(Atom::ne(r, q));
        rhs.assume(Atom::ne(r, Term::Nil));
        assert!(ent(&l, &rhs));
        let mut wrong = l.clone();
        wrong.assume(Atom::eq(r, q));
        assert!(!ent(&l, &wrong));
    }

    #[test]
    fn existentials_on_the_right_are_bound_consistently() {
        let (r, a) = (var(0), Term::Ex(0));
        let l = heap(
            vec![node(r, a, Term::Int(7)), node(a, Term::Nil, Term::Int(7))],
            vec![],
            vec![],
            false,
        );
        // Both cells hold the same value d'.
        let (b, d) = (Term::Ex(5), Term::Ex(6));
        let same = heap(
            vec![node(r, b, d), node(b, Term::Nil, d)],
            vec![],
            vec![],
            false,
        );
        assert!(ent(&l, &same));
        let mut l2 = l.clone();
        l2.cells[1].fields[1] = Term::Int(8);
        assert!(!ent(&l2, &same));
    }

    #[test]
    fn an_inconsistent_heap_entails_anything() {
        let r = var(0);
        let l = heap(
            vec![node(r, Term::Nil, Term::Int(1))],
            vec![],
            vec![Atom::eq(r, Term::Nil)],
            false,
        );
        let other = heap(vec![], vec![], vec![Atom::eq(var(3), Term::Int(4))], false);
        assert!(ent(&l, &other));
    }

    #[test]
    fn an_upper_bound_is_entailed_only_where_it_is_known() {
        let (r, x, a, d) = (var(0), var(1), Term::Ex(0), Term::Ex(1));
        let absent = |from: Term| {
            let mut s = list(from, Term::Nil, Bag::new());
            s.caps.limit(x, 0);
            s
        };
        let none = heap(vec![], vec![absent(r)], vec![], false);
        let plain = heap(vec![], vec![list(r, Term::Nil, Bag::new())], vec![], false);
        assert!(ent(&none, &plain));
        assert!(!ent(&plain, &none));
        // A cell and a segment: the cell must provably not hold x.
        let cell = |pure: Vec<Atom>| heap(vec![node(r, a, d)], vec![absent(a)], pure, false);
        assert!(ent(&cell(vec![Atom::ne(d, x)]), &none));
        assert!(!ent(&cell(vec![]), &none));
        assert!(!ent(&cell(vec![Atom::eq(d, x)]), &none));
    }

    #[test]
    fn lower_bounds_beyond_the_upper_bounds_denote_nothing() {
        let (r, x) = (var(0), var(1));
        let mut s = list(r, Term::Nil, Bag::single(x));
        s.caps.limit(x, 0);
        assert!(heap(vec![], vec![s], vec![], false).inconsistent());
    }

    #[test]
    fn a_sorted_segment_is_entailed_by_pieces_in_order() {
        let (r, a, d, lo, hi) = (var(0), Term::Ex(0), Term::Ex(1), Term::Ex(2), Term::Ex(3));
        let sorted = |from: Term, lo: Term, hi: Term| {
            let mut s = list(from, Term::Nil, Bag::new());
            s.order = Some((lo, hi));
            s
        };
        let goal = heap(
            vec![],
            vec![sorted(r, Term::Ex(5), Term::Ex(6))],
            vec![],
            false,
        );
        // A cell, then a sorted rest starting no lower.
        let chain =
            |pure: Vec<Atom>| heap(vec![node(r, a, d)], vec![sorted(a, lo, hi)], pure, false);
        assert!(ent(&chain(vec![Atom::Le(d, lo), Atom::Le(lo, hi)]), &goal));
        assert!(!ent(&chain(vec![Atom::Le(lo, hi)]), &goal));
        // A plain segment is no sorted one; a sorted one is a plain one.
        let plain = heap(vec![], vec![list(r, Term::Nil, Bag::new())], vec![], false);
        assert!(!ent(&plain, &goal));
        let one = heap(
            vec![],
            vec![sorted(r, lo, hi)],
            vec![Atom::Le(lo, hi)],
            false,
        );
        assert!(ent(&one, &plain));
    }
}

//! Cubes and Boolean heaps, the abstract domain of seed 004 (§3.2 of the paper).
//!
//! Consumes nothing but predicate indices; produces [`Cube`]s (partial maps from predicates to
//! truth values, as two bit sets) and [`Heap`]s (a nullary cube and a set of unary cubes,
//! meaning `nullary ∧ ∀v. ⋁ cubes(v)`), with the domain's order, join, the splitting on a
//! singleton predicate (§2.4 of the digest) and the lub of the cubes where a singleton holds
//! (the context instantiation's `cube(x)`, §2.7).
//!
//! Representation: a Boolean heap is a sorted set of partial cubes rather than a BDD. The
//! heaps Bohne meets are sparse (a handful of cubes over a few dozen predicates, the paper's
//! §2.5), so a set of cubes is small, canonical once ordered, and needs no crate: the
//! operations the analysis uses (subsumption, union, splitting, lub) are direct on it.

use std::collections::BTreeSet;

/// The most predicates one cube holds (the bits of a word).
pub const MAX_PREDS: usize = 64;

/// A partial map from predicates to truth values: `mask` has the predicates it defines,
/// `bits` their values (zero outside `mask`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cube {
    /// The predicates that occur.
    pub mask: u64,
    /// Their values.
    pub bits: u64,
}

impl Cube {
    /// The cube that says nothing (every object).
    pub const TOP: Cube = Cube { mask: 0, bits: 0 };

    /// The value of predicate `p`, if it occurs.
    pub fn get(self, p: usize) -> Option<bool> {
        (self.mask >> p & 1 == 1).then_some(self.bits >> p & 1 == 1)
    }

    /// The number of its literals.
    pub fn len(self) -> u32 {
        self.mask.count_ones()
    }

    /// Whether it has no literal (is [`Cube::TOP`]).
    pub fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// The cube with `p` set to `value`.
    pub fn with(self, p: usize, value: bool) -> Cube {
        let bit = 1u64 << p;
        Cube {
            mask: self.mask | bit,
            bits: if value {
                self.bits | bit
            } else {
                self.bits & !bit
            },
        }
    }

    /// `self ⊑ other`: every literal of `other` is a literal of `self` (`other` is weaker).
    pub fn below(self, other: Cube) -> bool {
        other.mask & !self.mask == 0 && (self.bits ^ other.bits) & other.mask == 0
    }

    /// The least cube above both: the literals they share.
    pub fn lub(self, other: Cube) -> Cube {
        let mask = self.mask & other.mask & !(self.bits ^ other.bits);
        Cube {
            mask,
            bits: self.bits & mask,
        }
    }

    /// Whether `p` may hold: it is positive or absent.
    pub fn may(self, p: usize) -> bool {
        self.get(p) != Some(false)
    }

    /// The literals, in predicate order.
    pub fn literals(self) -> impl Iterator<Item = (usize, bool)> {
        (0..MAX_PREDS).filter_map(move |p| self.get(p).map(|b| (p, b)))
    }
}

/// A Boolean heap: the states whose nullary predicates satisfy `nullary` and whose every
/// object satisfies one of `cubes`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Heap {
    /// The nullary predicates.
    pub nullary: Cube,
    /// The cubes over the unary predicates.
    pub cubes: BTreeSet<Cube>,
}

impl Heap {
    /// `self ⊑ other`: the nullary cube is below `other`'s and every object a cube of
    /// `self` admits is admitted by some cube of `other` (each cube is covered by the union
    /// of `other`'s).
    pub fn below(&self, other: &Heap) -> bool {
        let cubes: Vec<Cube> = other.cubes.iter().copied().collect();
        self.nullary.below(other.nullary) && (self.cubes.iter()).all(|c| covered(*c, &cubes))
    }

    /// The heap without the cubes another of its cubes covers (they add nothing to its
    /// meaning).
    pub fn reduced(mut self) -> Heap {
        let all: Vec<Cube> = self.cubes.iter().copied().collect();
        self.cubes
            .retain(|c| !all.iter().any(|d| d != c && c.below(*d)));
        self
    }

    /// Splitting on the singleton predicate `p` (it holds of exactly one object): one heap
    /// per cube that may hold `p`, in which that cube (with `p` positive) is the only cube
    /// with `p`, and every other object's cube has `p` negative.
    pub fn split(&self, p: usize) -> Vec<Heap> {
        let negative: BTreeSet<Cube> = (self.cubes.iter())
            .filter(|c| c.get(p) != Some(true))
            .map(|c| c.with(p, false))
            .collect();
        (self.cubes.iter())
            .filter(|c| c.may(p))
            .map(|c| {
                let mut cubes = negative.clone();
                cubes.insert(c.with(p, true));
                Heap {
                    nullary: self.nullary,
                    cubes,
                }
                .reduced()
            })
            .collect()
    }

    /// The lub of the cubes where `p` may hold, with `p` positive: what every object `p`
    /// singles out satisfies (`None` when no cube allows `p`).
    pub fn singled_out(&self, p: usize) -> Option<Cube> {
        (self.cubes.iter())
            .filter(|c| c.may(p))
            .map(|c| c.with(p, true))
            .reduce(Cube::lub)
    }

    /// The join of heaps as one heap (the union of their cubes, the lub of their nullary
    /// cubes): a context for all of them.
    pub fn join<'a>(heaps: impl IntoIterator<Item = &'a Heap>) -> Heap {
        let mut out: Option<Heap> = None;
        for h in heaps {
            match &mut out {
                None => out = Some(h.clone()),
                Some(o) => {
                    o.nullary = o.nullary.lub(h.nullary);
                    o.cubes.extend(h.cubes.iter().copied());
                }
            }
        }
        out.unwrap_or_default()
    }
}

/// Whether every complete cube below `c` lies below one of `cubes`: by case splits on the
/// predicates the compatible cubes define and `c` leaves open.
fn covered(c: Cube, cubes: &[Cube]) -> bool {
    if cubes.iter().any(|d| c.below(*d)) {
        return true;
    }
    let compatible: Vec<Cube> = (cubes.iter().copied())
        .filter(|d| (c.bits ^ d.bits) & c.mask & d.mask == 0)
        .collect();
    let open = compatible
        .iter()
        .map(|d| d.mask & !c.mask)
        .find(|m| *m != 0);
    match open {
        None => false,
        Some(m) => {
            let p = m.trailing_zeros() as usize;
            covered(c.with(p, true), &compatible) && covered(c.with(p, false), &compatible)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(lits: &[(usize, bool)]) -> Cube {
        lits.iter().fold(Cube::TOP, |c, &(p, b)| c.with(p, b))
    }

    #[test]
    fn order_and_lub_of_cubes() {
        let a = cube(&[(0, true), (1, false)]);
        let b = cube(&[(0, true)]);
        assert!(a.below(b));
        assert!(!b.below(a));
        assert!(a.below(Cube::TOP));
        assert_eq!(a.lub(cube(&[(0, true), (1, true)])), b);
        assert_eq!(a.lub(cube(&[(0, false)])), Cube::TOP);
        assert_eq!(
            a.literals().collect::<Vec<_>>(),
            vec![(0, true), (1, false)]
        );
    }

    #[test]
    fn splitting_keeps_one_cube_per_singleton() {
        // p0 is the singleton `x = v`; p1 some other predicate.
        let h = Heap {
            nullary: Cube::TOP,
            cubes: [cube(&[(1, true)]), cube(&[(0, false), (1, false)])]
                .into_iter()
                .collect(),
        };
        let parts = h.split(0);
        // Only the first cube may hold x.
        assert_eq!(parts.len(), 1);
        let only = &parts[0];
        assert_eq!(
            only.cubes.iter().filter(|c| c.get(0) == Some(true)).count(),
            1
        );
        assert!(only.cubes.contains(&cube(&[(0, true), (1, true)])));
        assert!(only.cubes.contains(&cube(&[(0, false), (1, true)])));
        // Splitting loses nothing: each part lies below the heap.
        assert!(only.below(&h));
        assert_eq!(only.singled_out(0), Some(cube(&[(0, true), (1, true)])));
    }

    #[test]
    fn a_heap_with_fewer_cubes_is_below() {
        let small = Heap {
            nullary: cube(&[(0, true)]),
            cubes: [cube(&[(0, true), (1, true)])].into_iter().collect(),
        };
        let big = Heap {
            nullary: Cube::TOP,
            cubes: [cube(&[(0, true)]), cube(&[(0, false)])]
                .into_iter()
                .collect(),
        };
        assert!(small.below(&big));
        assert!(!big.below(&small));
        // A cube covered by two cubes together, by neither alone.
        let split = Heap {
            nullary: Cube::TOP,
            cubes: [
                cube(&[(1, true), (0, true)]),
                cube(&[(1, true), (0, false)]),
            ]
            .into_iter()
            .collect(),
        };
        let whole = Heap {
            nullary: Cube::TOP,
            cubes: [cube(&[(1, true)])].into_iter().collect(),
        };
        assert!(whole.below(&split) && split.below(&whole));
        assert!(!whole.below(&Heap {
            nullary: Cube::TOP,
            cubes: [cube(&[(1, true), (0, true)])].into_iter().collect(),
        }));
        let j = Heap::join([&small, &big]);
        assert!(small.below(&j) && big.below(&j));
    }
}

//! What a spec's spatial domain asks of the separation-logic engine.
//!
//! Consumes a checked spatial domain of the spec language (`shapecheck_dsl::ir::Spatial`: a
//! list predicate with typed parameters, lemmas, abstraction rules and the kinds of symbols
//! `T` may hold); produces [`Params`], the switches the engine's stages read: which parameter
//! kinds a segment carries (each kind's base, step and composition laws are implemented by the
//! stages: unfolding in [`super::exec`], folding in [`super::abstraction`], matching in
//! [`super::entail`]), whether entailment may compose segments, which conjuncts may fold and
//! under which guard, and what SelectSymbols may add to `T` ([`super::refine`]). The engine
//! knows the parameter kinds, not the domains: the standard library's SH^mls and SH^sls are
//! two specs among others.

use shapecheck_dsl::ir::{ParamKind, Piece, Spatial, SymbolKind};

/// The switches of one spatial domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Params {
    /// Segments carry a multiset of values held at least that often.
    pub multiset: bool,
    /// Segments carry upper bounds on the symbols of `T` they hold.
    pub counts: bool,
    /// Segments may carry sorted bounds `[lo, hi]`.
    pub sorted: bool,
    /// Segments carry a lower bound on their length, counted up to this (0: no length).
    pub length: u32,
    /// `T` may hold data values.
    pub values: bool,
    /// `T` may hold addresses a guarded rule does not absorb.
    pub addresses: bool,
    /// Entailment may match a segment by a chain of pieces (the composition lemma).
    pub compose: bool,
    /// Per first and second conjunct (cell, segment) of a fold: whether a rule folds them,
    /// and its guards.
    pub rules: [[Option<Guard>; 2]; 2],
}

/// The guards of a fold rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Guard {
    /// `x !in T`: the first address is not an address `T` keeps.
    pub address: bool,
    /// `d !in T`: each folded cell's value provably differs from every symbol of `T`.
    pub value: bool,
}

impl Guard {
    /// The address guard alone (SH^rls's).
    pub const ADDRESS: Guard = Guard {
        address: true,
        value: false,
    };
}

impl Params {
    /// The switches of `s`.
    pub fn of(s: &Spatial) -> Params {
        let piece = |p: Piece| usize::from(p == Piece::List);
        let mut rules = [[None; 2]; 2];
        for r in &s.rules {
            rules[piece(r.first)][piece(r.second)] = Some(Guard {
                address: r.untracked,
                value: r.distinct,
            });
        }
        let length = match s.param(ParamKind::Length(1)).map(|p| p.kind) {
            Some(ParamKind::Length(n)) => n,
            _ => 0,
        };
        Params {
            multiset: s.param(ParamKind::Multiset).is_some(),
            counts: s.param(ParamKind::Counts).is_some(),
            sorted: s.param(ParamKind::Interval).is_some(),
            length,
            values: s.has_symbols(SymbolKind::Values),
            addresses: s.has_symbols(SymbolKind::Addresses),
            compose: s.composes(),
            rules,
        }
    }

    /// The library's SH^mls (multisets and counts, values and addresses, every fold guarded),
    /// for unit tests that build heaps by hand.
    pub const fn mls() -> Params {
        Params {
            multiset: true,
            counts: true,
            sorted: false,
            length: 0,
            values: true,
            addresses: true,
            compose: true,
            rules: [[Some(Guard::ADDRESS); 2]; 2],
        }
    }

    /// Whether a rule folds a `first` conjunct into a following `second` one (`true` for a
    /// segment), and if so under which guards.
    pub fn rule(&self, first_is_list: bool, second_is_list: bool) -> Option<Guard> {
        self.rules[usize::from(first_is_list)][usize::from(second_is_list)]
    }

    /// Whether a parameter talks about the cells' data values (then the choice of data field
    /// matters).
    pub fn uses_data(&self) -> bool {
        self.multiset || self.counts || self.sorted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switches_follow_the_spec() {
        let text = "spatial d {\n  symbols addresses;\n  list ls(x, y; L: length(3)) :=\n      \
                    x == y && L == 0\n    | x |-> (z, d) * ls(z, y; L1) && L <= L1 + 1;\n  \
                    abstract cl: x |-> (y, d) * ls(y, z) -> ls(x, z) when fresh(y);\n}\n";
        let spec = shapecheck_dsl::load(text).expect("a valid spec");
        let p = Params::of(&spec.spatial[0]);
        assert_eq!(
            (p.length, p.multiset, p.counts, p.sorted),
            (3, false, false, false)
        );
        assert_eq!((p.values, p.addresses, p.compose), (false, true, false));
        let unguarded = Guard {
            address: false,
            value: false,
        };
        assert_eq!(p.rule(false, true), Some(unguarded));
        assert_eq!(p.rule(false, false), None);
        assert!(!p.uses_data());
    }
}

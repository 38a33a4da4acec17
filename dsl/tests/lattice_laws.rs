//! Lattice laws of the shape-class generators of every standard-library structure.
//!
//! Order: `g ⊑ h` is `lattice::refines` ("g refines h": g's shape class has every predicate of
//! h's, for the probe tracking definition). Finer generators have more families and sit lower;
//! the coarsest generator (no families) is the top. Within one structure the generators are
//! the `requires`-closed family sets, so that
//! - the meet `g ⊓ h` (greatest common refinement) is the union of the family sets and
//! - the join `g ⊔ h` (least common coarsening) is their intersection,
//!
//! and both must again be generators.

mod common;

use shapecheck_dsl::ir::{Generator, Spec, StructId};
use shapecheck_dsl::lattice::{finest, generators, refines};
use std::collections::BTreeSet;

const STRUCTURES: [&str; 7] = ["sll", "dll", "tree", "treep", "csll", "sllo", "dllo"];

/// Each library structure with its generators and its role names as fields.
fn lattices(spec: &Spec) -> Vec<(StructId, Vec<Generator>, Vec<String>)> {
    assert_eq!(
        spec.structures.len(),
        STRUCTURES.len(),
        "a new structure: list it"
    );
    STRUCTURES
        .iter()
        .map(|n| {
            let s = common::structure(spec, n);
            let roles = spec.structures[s.0].roles.clone();
            (s, generators(spec, s), roles)
        })
        .collect()
}

fn meet(g: &Generator, h: &Generator) -> Generator {
    Generator {
        structure: g.structure,
        families: g.families.union(&h.families).copied().collect(),
    }
}

fn join(g: &Generator, h: &Generator) -> Generator {
    Generator {
        structure: g.structure,
        families: g.families.intersection(&h.families).copied().collect(),
    }
}

#[test]
fn generators_are_the_requires_closed_family_sets() {
    let spec = common::library();
    let count = |n: &str| generators(&spec, common::structure(&spec, n)).len();
    // csll: {}, {reach}, {reach, cyclic}; sll adds successors freely: 3 * 2; dll adds
    // cancellation freely too: 3 * 2 * 2.
    assert_eq!(count("sll"), 6);
    assert_eq!(count("csll"), 3);
    assert_eq!(count("dll"), 12);
    // tree: down ← closure ← {reachability, acyclicity}, and down ← subtrees: {}, {d},
    // {d,s}, then {d,c}, +r, +a, +r+a each with subtrees on or off.
    assert_eq!(count("tree"), 11);
    assert_eq!(count("treep"), 22);
    // sllo: sll's six times ownership on or off; dllo: dll's twelve likewise.
    assert_eq!(count("sllo"), 12);
    assert_eq!(count("dllo"), 24);
    for (s, gens, _) in lattices(&spec) {
        let st = &spec.structures[s.0];
        let distinct: BTreeSet<&Generator> = gens.iter().collect();
        assert_eq!(
            distinct.len(),
            gens.len(),
            "{}: duplicate generators",
            st.name
        );
        for g in &gens {
            assert_eq!(g.structure, s);
            for f in &g.families {
                for r in &st.families[*f].requires {
                    assert!(g.families.contains(r), "{}: {g:?} not closed", st.name);
                }
            }
        }
    }
}

#[test]
fn generators_are_closed_under_union_and_intersection() {
    let spec = common::library();
    for (_, gens, _) in lattices(&spec) {
        for g in &gens {
            for h in &gens {
                assert!(gens.contains(&meet(g, h)), "{g:?} ∪ {h:?}");
                assert!(gens.contains(&join(g, h)), "{g:?} ∩ {h:?}");
            }
        }
    }
}

#[test]
fn meet_and_join_are_commutative_associative_idempotent_and_absorbing() {
    let spec = common::library();
    for (_, gens, _) in lattices(&spec) {
        for a in &gens {
            assert_eq!(meet(a, a), *a);
            assert_eq!(join(a, a), *a);
            for b in &gens {
                assert_eq!(meet(a, b), meet(b, a));
                assert_eq!(join(a, b), join(b, a));
                assert_eq!(meet(a, &join(a, b)), *a, "absorption");
                assert_eq!(join(a, &meet(a, b)), *a, "absorption");
                for c in &gens {
                    assert_eq!(meet(&meet(a, b), c), meet(a, &meet(b, c)));
                    assert_eq!(join(&join(a, b), c), join(a, &join(b, c)));
                }
            }
        }
    }
}

#[test]
fn refines_is_a_partial_order() {
    let spec = common::library();
    for (_, gens, roles) in lattices(&spec) {
        let le = |g: &Generator, h: &Generator| refines(&spec, g, &roles, h, &roles);
        for g in &gens {
            assert!(le(g, g), "reflexive: {g:?}");
            for h in &gens {
                if g != h {
                    assert!(!(le(g, h) && le(h, g)), "antisymmetric: {g:?} {h:?}");
                }
                for k in &gens {
                    if le(g, h) && le(h, k) {
                        assert!(le(g, k), "transitive: {g:?} {h:?} {k:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn refines_agrees_with_meet_and_join() {
    let spec = common::library();
    for (_, gens, roles) in lattices(&spec) {
        let le = |g: &Generator, h: &Generator| refines(&spec, g, &roles, h, &roles);
        for g in &gens {
            for h in &gens {
                // Finer = more families.
                assert_eq!(le(g, h), g.families.is_superset(&h.families), "{g:?} {h:?}");
                assert_eq!(le(g, h), meet(g, h) == *g, "{g:?} {h:?}");
                assert_eq!(le(g, h), join(g, h) == *h, "{g:?} {h:?}");
                let (m, j) = (meet(g, h), join(g, h));
                for k in &gens {
                    // The meet is the greatest lower bound, the join the least upper bound.
                    assert_eq!(le(k, g) && le(k, h), le(k, &m), "{k:?} vs {g:?} ⊓ {h:?}");
                    assert_eq!(le(g, k) && le(h, k), le(&j, k), "{k:?} vs {g:?} ⊔ {h:?}");
                }
            }
        }
    }
}

#[test]
fn coarsest_is_the_top_and_finest_the_bottom() {
    let spec = common::library();
    for (s, gens, roles) in lattices(&spec) {
        let le = |g: &Generator, h: &Generator| refines(&spec, g, &roles, h, &roles);
        let top = gens.first().expect("at least one generator");
        let bottom = gens.last().expect("at least one generator");
        assert!(top.families.is_empty(), "coarsest first");
        assert_eq!(*bottom, finest(&spec, s), "finest last");
        for g in &gens {
            assert!(le(g, top), "{g:?} ⊑ top");
            assert!(le(bottom, g), "bottom ⊑ {g:?}");
            assert!(top.families.len() <= g.families.len());
        }
    }
}

#[test]
fn finer_structures_refine_coarser_ones_with_roles_mapped() {
    let spec = common::library();
    let fin = |n: &str| finest(&spec, common::structure(&spec, n));
    let f = common::fields;
    // dll[f, b] refines sll[f]: sll's roles bound to dll's `f`.
    assert!(refines(
        &spec,
        &fin("dll"),
        &f(&["f", "b"]),
        &fin("sll"),
        &f(&["f"])
    ));
    assert!(!refines(
        &spec,
        &fin("sll"),
        &f(&["f"]),
        &fin("dll"),
        &f(&["f", "b"])
    ));
    // ... but not with sll's role bound to dll's `b`.
    assert!(!refines(
        &spec,
        &fin("sll"),
        &f(&["b"]),
        &fin("dll"),
        &f(&["f", "b"])
    ));
    // treep[l, r, p] refines tree[l, r].
    let lrp = f(&["l", "r", "p"]);
    let lr = f(&["l", "r"]);
    assert!(refines(&spec, &fin("treep"), &lrp, &fin("tree"), &lr));
    assert!(!refines(&spec, &fin("tree"), &lr, &fin("treep"), &lrp));
    // Every dll generator whose families contain sll's refines the matching sll generator.
    let (sll, dll) = (
        common::structure(&spec, "sll"),
        common::structure(&spec, "dll"),
    );
    for g in generators(&spec, dll) {
        for h in generators(&spec, sll) {
            let expected = h.families.iter().all(|i| g.families.contains(i));
            let got = refines(&spec, &g, &f(&["f", "b"]), &h, &f(&["f"]));
            assert_eq!(got, expected, "{g:?} vs {h:?}");
        }
    }
    // Every coarsest generator is above everything (m0 only has core predicates).
    let top = |n: &str| generators(&spec, common::structure(&spec, n))[0].clone();
    assert!(refines(&spec, &fin("tree"), &lr, &top("sll"), &f(&["l"])));
    // Unrelated structures do not refine each other's finest generators.
    assert!(!refines(&spec, &fin("tree"), &lr, &fin("sll"), &f(&["l"])));
    assert!(!refines(
        &spec,
        &fin("csll"),
        &f(&["f"]),
        &fin("dll"),
        &f(&["f", "b"])
    ));
}

#[test]
fn the_checker_accepts_the_library_refinements() {
    let spec = common::library();
    for s in 0..spec.structures.len() {
        for r in &spec.structures[s].refines {
            let missing = shapecheck_dsl::lattice::not_refined(&spec, StructId(s), r);
            assert!(
                missing.is_empty(),
                "{}: {missing:?}",
                spec.structures[s].name
            );
        }
    }
}

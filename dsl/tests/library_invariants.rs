//! Every invariant of the standard library on explicit heaps that satisfy it and heaps that
//! violate it, through the interpreter.

mod common;

use common::{fields, heap};
use shapecheck_dsl::eval::{Evaluator, ExplicitHeap, Kleene};

/// The value of library invariant `name` with its roles bound to `roles` on `h`.
fn inv(name: &str, roles: &[&str], h: &ExplicitHeap) -> bool {
    let spec = common::library();
    let id = common::invariant(&spec, name).unwrap_or_else(|| panic!("no invariant `{name}`"));
    assert_eq!(spec.invariants[id.0].roles.len(), roles.len());
    match Evaluator::new(&spec, h).invariant(id, &fields(roles)) {
        Kleene::True => true,
        Kleene::False => false,
        Kleene::Half => panic!("an explicit heap gives a definite value"),
    }
}

fn list3() -> ExplicitHeap {
    heap(3, &[(0, "n", 1), (1, "n", 2)], &[("x", 0)])
}

fn cycle3() -> ExplicitHeap {
    heap(3, &[(0, "n", 1), (1, "n", 2), (2, "n", 0)], &[("x", 0)])
}

/// 0 ⇄ 1 ⇄ 2 through `n` and `p`.
fn dll3(prev_of_2: usize) -> ExplicitHeap {
    let edges = [(0, "n", 1), (1, "n", 2), (1, "p", 0), (2, "p", prev_of_2)];
    heap(3, &edges, &[("x", 0)])
}

#[test]
fn every_library_invariant_is_tested() {
    let spec = common::library();
    let names: Vec<&str> = spec.invariants.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["acyclic", "inverse", "unshared", "tree", "circular", "owns"]
    );
}

#[test]
fn acyclic() {
    assert!(inv("acyclic", &["n"], &list3()));
    assert!(!inv("acyclic", &["n"], &cycle3()));
    assert!(!inv("acyclic", &["n"], &heap(1, &[(0, "n", 0)], &[])));
    // Only the bound field counts.
    assert!(inv("acyclic", &["m"], &cycle3()));
    assert!(inv("acyclic", &["n"], &ExplicitHeap::default()));
}

#[test]
fn inverse() {
    assert!(inv("inverse", &["n", "p"], &dll3(1)));
    assert!(inv("inverse", &["p", "n"], &dll3(1)));
    // One broken prev: 2.p points to 0, not 1; both directions fail.
    assert!(!inv("inverse", &["n", "p"], &dll3(0)));
    assert!(!inv("inverse", &["p", "n"], &dll3(0)));
    // A singly-linked list has no back edges.
    assert!(!inv("inverse", &["n", "p"], &list3()));
    assert!(inv("inverse", &["p", "n"], &list3()));
}

#[test]
fn unshared() {
    assert!(inv("unshared", &["n"], &list3()));
    assert!(inv("unshared", &["n"], &cycle3()));
    // Two lists with a common tail: 2 has two predecessors.
    let shared = heap(4, &[(0, "n", 2), (1, "n", 2), (2, "n", 3)], &[]);
    assert!(!inv("unshared", &["n"], &shared));
    // A dll shares nothing along one field, but does along both merged: not expressible, so
    // each field separately.
    assert!(inv("unshared", &["n"], &dll3(1)));
    assert!(inv("unshared", &["p"], &dll3(1)));
    assert!(!inv("unshared", &["p"], &dll3(0)));
}

/// 0 with children 1 (l) and 2 (r); 1 with child 3 (l).
fn tree4() -> ExplicitHeap {
    heap(4, &[(0, "l", 1), (0, "r", 2), (1, "l", 3)], &[])
}

#[test]
fn tree() {
    assert!(inv("tree", &["l", "r"], &tree4()));
    assert!(inv("tree", &["r", "l"], &tree4()));
    assert!(inv("tree", &["l", "r"], &heap(1, &[], &[])));
    // A DAG: 3 is shared by 1 and 2.
    let dag = heap(
        4,
        &[(0, "l", 1), (0, "r", 2), (1, "l", 3), (2, "r", 3)],
        &[],
    );
    assert!(!inv("tree", &["l", "r"], &dag));
    // Both children of 0 are the same node.
    assert!(!inv(
        "tree",
        &["l", "r"],
        &heap(2, &[(0, "l", 1), (0, "r", 1)], &[])
    ));
    // Cycles of length 1 and 2.
    assert!(!inv("tree", &["l", "r"], &heap(1, &[(0, "l", 0)], &[])));
    let cycle2 = heap(3, &[(0, "l", 1), (0, "r", 2), (1, "r", 0)], &[]);
    assert!(!inv("tree", &["l", "r"], &cycle2));
}

/// A down cycle of length 3 in which every node has one predecessor and one child.
#[test]
fn tree_rejects_long_cycles() {
    let cycle3 = heap(3, &[(0, "l", 1), (1, "r", 2), (2, "l", 0)], &[]);
    assert!(!inv("tree", &["l", "r"], &cycle3));
}

#[test]
fn circular() {
    assert!(inv("circular", &["n"], &cycle3()));
    assert!(!inv("circular", &["n"], &list3()));
    assert!(inv("circular", &["n"], &heap(1, &[(0, "n", 0)], &[])));
    // A lasso: 0 is not on the cycle.
    let lasso = heap(3, &[(0, "n", 1), (1, "n", 2), (2, "n", 1)], &[]);
    assert!(!inv("circular", &["n"], &lasso));
}

#[test]
fn structures_are_enabled_by_their_heaps() {
    // The invariants a structure lists, evaluated with its roles bound to fields.
    let spec = common::library();
    let enabled = |name: &str, binding: &[&str], h: &ExplicitHeap| {
        let st = &spec.structures[common::structure(&spec, name).0];
        let eval = Evaluator::new(&spec, h);
        st.invariants.iter().all(|u| {
            let fs: Vec<String> = u.roles.iter().map(|r| binding[*r].to_string()).collect();
            eval.invariant(u.inv, &fs) == Kleene::True
        })
    };
    assert!(enabled("sll", &["n"], &list3()));
    assert!(!enabled("sll", &["n"], &cycle3()));
    assert!(enabled("csll", &["n"], &cycle3()));
    assert!(!enabled("csll", &["n"], &list3()));
    assert!(enabled("dll", &["n", "p"], &dll3(1)));
    assert!(!enabled("dll", &["n", "p"], &dll3(0)));
    assert!(!enabled("dll", &["n", "p"], &list3()));
    assert!(enabled("tree", &["l", "r"], &tree4()));
    assert!(!enabled("treep", &["l", "r", "p"], &tree4()));
    let mut with_parents = tree4();
    for (child, parent) in [(1, 0), (2, 0), (3, 1)] {
        with_parents.edges.insert((child, "p".into()), parent);
    }
    assert!(enabled("treep", &["l", "r", "p"], &with_parents));
}

#[test]
fn owns() {
    // 0 -> 1 -> 2 along n; 0 owns 3 through o, 1 and 2 point o at themselves.
    let owned = heap(
        4,
        &[
            (0, "n", 1),
            (1, "n", 2),
            (0, "o", 3),
            (1, "o", 1),
            (2, "o", 2),
        ],
        &[("x", 0)],
    );
    assert!(inv("owns", &["n", "o"], &owned));
    // An o-edge into the list (a dll's back edge, a tree's right child with children).
    assert!(!inv("owns", &["n", "p"], &dll3(1)));
    let into_list = heap(3, &[(0, "n", 1), (1, "n", 2), (2, "o", 1)], &[]);
    assert!(!inv("owns", &["n", "o"], &into_list));
    // The owned cell may not start a list of its own.
    let owns_list = heap(3, &[(0, "o", 1), (1, "n", 2)], &[]);
    assert!(!inv("owns", &["n", "o"], &owns_list));
}

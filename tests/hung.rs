//! Structures that hang off a link field of another struct (a list under a holder, a tree
//! under a stack item) once every cursor into them is dead: the shape engine alone proves
//! valid-memtrack through the root instances of the reachability predicates (reachability
//! from the targets of the link field), and the twins that lose a cell are refuted with a
//! replayed counterexample. A tree freed through a stack of items holding its subtrees needs
//! the predicates of links besides: an item's link is non-null (`linked[t]`), no two items
//! hold one node (`shared[t]`), and a popped node is no other node's child (`child[l, r]`).

#[path = "common/shape.rs"]
mod shape;

use shape::{program, shape};

fn proved(name: &str) {
    let out = shape(&program("valid-memtrack", name), "valid-memsafety");
    assert!(out.starts_with("TRUE\n"), "{name}: {out}");
    assert!(out.contains("certificate re-checked"), "{name}: {out}");
}

fn refuted(name: &str) {
    let out = shape(&program("valid-memtrack", name), "valid-memsafety");
    assert!(out.starts_with("FALSE(valid-memtrack)\n"), "{name}: {out}");
    assert!(out.contains("replayed concretely"), "{name}: {out}");
}

#[test]
fn a_list_held_only_by_a_holder_s_link_is_proved() {
    proved("hung_list.c");
}

#[test]
fn a_tree_held_only_by_a_stack_item_s_link_is_proved() {
    proved("hung_tree.c");
}

#[test]
fn a_ring_grown_and_emptied_behind_its_head_through_a_link_is_proved() {
    proved("hung_ring.c");
}

#[test]
fn the_twins_that_lose_a_cell_are_refuted() {
    refuted("hung_list_bug.c");
    refuted("hung_tree_bug.c");
    refuted("hung_ring_bug.c");
}

#[test]
fn a_tree_freed_through_a_stack_of_its_subtrees_is_proved() {
    proved("tree_walk.c");
}

#[test]
fn the_stack_walk_twins_that_skip_a_child_or_push_null_are_refuted() {
    refuted("tree_walk_bug.c");
    let out = shape(
        &program("valid-memtrack", "tree_walk_null.c"),
        "valid-memsafety",
    );
    assert!(out.starts_with("FALSE(valid-deref)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

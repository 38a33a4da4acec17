//! Pointers to links (the seed-000 coverage issue: programs as SV-COMP users write them): a
//! cursor of type `struct s **` that addresses a head variable or a cell's link
//! (`pp = &(*pp)->next`, `slot = &(*slot)->left`) is read and written as the variable or field
//! it addresses, so that appending, unlinking by key and binary-search-tree insertion through
//! such a cursor are proved by the shape engine alone with a re-checked certificate, and each
//! twin (a link overwritten one step early, a successor lost, a subtree overwritten) gets a
//! replayed counterexample from it. Also: an array member of a node, written at constant
//! indices inside its bounds, is a valid access of the cell (a write past the block is not).

#[path = "common/shape.rs"]
mod shape;

use shape::{assert_proved, assert_refuted, program, shape_in};

/// The shape engine's answers (LP64) on `group/name.c` and its twin `group/name_bug.c`.
fn pair(group: &str, name: &str) -> (String, String) {
    let run = |file: &str| shape_in(&program(group, file), "valid-memsafety", "LP64");
    (run(&format!("{name}.c")), run(&format!("{name}_bug.c")))
}

/// Checks that `out` is a TRUE whose explanation names `slots` as the pointers to links.
fn assert_slots(out: &str, slots: &str) {
    assert_proved(out);
    assert!(
        out.contains(&format!("pointers to links: {slots}\n")),
        "{out}"
    );
}

#[test]
fn appending_through_a_pointer_to_the_last_link_keeps_every_cell() {
    let (ok, bug) = pair("valid-memtrack", "slot_append");
    assert_slots(&ok, "main::pp (into struct cell)");
    assert_refuted(&bug, "FALSE(valid-memtrack)");
}

#[test]
fn unlinking_through_a_pointer_to_the_link_that_holds_the_key() {
    let (ok, bug) = pair("valid-memtrack", "slot_remove");
    assert_slots(
        &ok,
        "main::queue (into struct job), main::pp (into struct job)",
    );
    assert_refuted(&bug, "FALSE(valid-memtrack)");
}

#[test]
fn a_search_tree_built_through_a_pointer_to_the_child_link() {
    let (ok, bug) = pair("valid-memtrack", "slot_tree");
    assert_slots(&ok, "main::slot (into struct tree)");
    assert_refuted(&bug, "FALSE(valid-memtrack)");
}

#[test]
fn an_array_member_is_part_of_its_cell() {
    let (ok, bug) = pair("valid-deref", "member_array");
    assert_proved(&ok);
    assert_refuted(&bug, "FALSE(valid-deref)");
}

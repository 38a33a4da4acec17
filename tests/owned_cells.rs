//! Lists whose cells own an optional cell through a second self-pointer field (the library's
//! `sllo`/`dllo`, item 3 of the seed-000 coverage issue): the shape engine alone proves the
//! correct program with a re-checked certificate, the twin gets a replayed counterexample,
//! and classification gives the owning field its own role only where the owned cells lie
//! outside the list (a doubly-linked list's `prev` is no owner).

#[path = "common/shape.rs"]
mod shape;

use shape::{program, run, shape};

#[test]
fn a_list_whose_cells_own_an_optional_cell_is_proved() {
    let out = shape(&program("unreach-call", "owned_extra.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    assert!(out.contains("sllo[f=next, o=extra]"), "{out}");
}

#[test]
fn the_twin_with_a_foreign_extra_cell_is_refuted() {
    let out = shape(
        &program("unreach-call", "owned_extra_bug.c"),
        "unreach-call",
    );
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

#[test]
fn classification_binds_an_owner_only_outside_the_list() {
    let owned = run(&["classify"], &program("unreach-call", "owned_extra.c"));
    assert!(owned.contains("=> sllo[f=next, o=extra]"), "{owned}");
    let dll = run(
        &["classify"],
        &program("unreach-call", "append_dll_value.c"),
    );
    assert!(!dll.contains("=> sllo"), "{dll}");
    assert!(dll.contains("=> dll["), "{dll}");
}

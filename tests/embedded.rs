//! Struct variables and embedded list heads as nodes of the shape analysis (item 4 of the
//! seed-000 coverage issue): a Linux-style intrusive list (`struct list_head` inside the
//! element, `container_of`, a head that is a local or global variable) and a sentinel that is
//! a local struct are proved by the shape engine alone with a re-checked certificate; each
//! twin gets a replayed counterexample; a write through the address of a variable's first
//! member (its link) is a write of that link. Also: a helper returning a comparison
//! (`list_empty`, `is_empty`) splits the graph so the caller branches precisely.

#[path = "common/shape.rs"]
mod shape;

use shape::{assert_proved, assert_refuted, program, replayed_twin, shape, shape_in};

/// The shape engine's output on `tests/programs/<group>/<name>` under valid-memsafety.
fn memsafety(group: &str, name: &str) -> String {
    shape(&program(group, name), "valid-memsafety")
}

#[test]
fn a_kernel_style_queue_with_a_local_head_is_proved_memory_safe() {
    let out = memsafety("valid-free", "kernel_queue.c");
    assert_proved(&out);
    assert!(out.contains("pt[&main::pending]"), "{out}");
}

#[test]
fn freeing_the_embedded_node_instead_of_its_element_is_an_invalid_free() {
    let out = memsafety("valid-free", "kernel_queue_bug.c");
    assert_refuted(&out, "FALSE(valid-free)");
}

#[test]
fn the_states_of_elements_reached_through_list_entry_are_tracked() {
    let out = shape(&program("unreach-call", "kernel_ready.c"), "unreach-call");
    assert_proved(&out);
    assert!(
        out.contains("field assertions struct task: state == 1"),
        "{out}"
    );
    replayed_twin("kernel_ready_bug.c");
}

#[test]
fn a_list_behind_a_sentinel_on_the_stack_is_freed_completely() {
    assert_proved(&memsafety("valid-memtrack", "stack_sentinel.c"));
    let bug = memsafety("valid-memtrack", "stack_sentinel_bug.c");
    assert_refuted(&bug, "FALSE(valid-memtrack)");
}

#[test]
fn a_write_through_the_address_of_a_variables_member_is_not_missed() {
    // `&head.next` is the address of the sentinel itself (its link is first), so the
    // write through it is a write of the sentinel's link (`program/links.rs`).
    assert_proved(&shape(
        &program("unreach-call", "member_address.c"),
        "unreach-call",
    ));
    replayed_twin("member_address_bug.c");
}

#[test]
fn list_for_each_entry_on_lp64_stops_at_the_would_be_entry_around_the_head() {
    let lp64 = |name: &str| shape_in(&program("unreach-call", name), "unreach-call", "LP64");
    assert_proved(&lp64("kernel_table.c"));
    assert_refuted(&lp64("kernel_table_bug.c"), "FALSE(unreach-call)");
}

#[test]
fn a_comparison_a_helper_returns_decides_the_callers_branch() {
    assert_proved(&memsafety("valid-deref", "empty_helper.c"));
    let bug = memsafety("valid-deref", "empty_helper_bug.c");
    assert_refuted(&bug, "FALSE(valid-deref)");
}

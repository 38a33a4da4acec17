//! Blocks owned through raw fields (item 3 of the seed-000 coverage issue: memtrack follows
//! cells reached through pointer fields that are no role of the structure): a list whose
//! cells each own an `int` and a name buffer, a Linux-style queue whose messages own a
//! payload cleared with `memset`, and segments owning a struct without pointers are proved by
//! the shape engine alone with a re-checked certificate, the owned blocks absorbed into the
//! summarised cells; each twin (a buffer not freed, a payload freed twice, a block too small
//! for its struct) gets a replayed counterexample from the shape engine. Lists whose cells
//! each own a sub-list of another struct (through a link, not a raw field) are proved the
//! same way, whether the sub-lists are drained through the link or through a cursor.

#[path = "common/shape.rs"]
mod shape;

use shape::{assert_proved, assert_refuted, program, run, shape, shape_in};

/// Checks that `out` is a TRUE with a re-checked certificate that names the owning fields.
fn assert_owning(out: &str, fields: &str) {
    assert_proved(out);
    assert!(
        out.contains(&format!("owned blocks through: {fields}")),
        "{out}"
    );
}

#[test]
fn buffers_owned_by_list_cells_are_freed_with_them() {
    let out = shape(
        &program("valid-memtrack", "owned_buffers.c"),
        "valid-memsafety",
    );
    assert_owning(&out, "struct record: count, struct record: name");
    let bug = shape(
        &program("valid-memtrack", "owned_buffers_bug.c"),
        "valid-memsafety",
    );
    assert_refuted(&bug, "FALSE(valid-memtrack)");
}

#[test]
fn payloads_of_a_kernel_style_queue_are_freed_once() {
    for model in ["LP64", "ILP32"] {
        let out = shape_in(
            &program("valid-free", "message_payloads.c"),
            "valid-memsafety",
            model,
        );
        assert_owning(&out, "struct message: payload");
    }
    let bug = shape_in(
        &program("valid-free", "message_payloads_bug.c"),
        "valid-memsafety",
        "LP64",
    );
    assert_refuted(&bug, "FALSE(valid-free)");
}

#[test]
fn an_owned_block_must_hold_the_struct_read_through_it() {
    let out = shape(&program("valid-deref", "owned_ranges.c"), "valid-memsafety");
    assert_owning(&out, "struct segment: range");
    let bug = shape(
        &program("valid-deref", "owned_ranges_bug.c"),
        "valid-memsafety",
    );
    assert_refuted(&bug, "FALSE(valid-deref)");
}

#[test]
fn boxes_handed_over_through_local_pointers_to_plain_data_are_tracked() {
    let out = shape(
        &program("valid-memtrack", "boxed_values.c"),
        "valid-memsafety",
    );
    assert_owning(&out, "struct item: box");
    assert!(out.contains("main::b"), "{out}");
    // The twin loses a box only for some values: the shape engine does not prove it, the
    // portfolio replays the leak.
    let twin = program("valid-memtrack", "boxed_values_bug.c");
    let bug = shape(&twin, "valid-memsafety");
    assert!(!bug.starts_with("TRUE"), "{bug}");
    let all = run(&["verify", "--check", "valid-memsafety"], &twin);
    assert_refuted(&all, "FALSE(valid-memtrack)");
}

#[test]
fn an_int_view_of_a_block_that_became_a_node_is_never_read_as_data() {
    let out = shape(&program("valid-deref", "int_view.c"), "valid-memsafety");
    assert!(out.starts_with("TRUE\n"), "{out}");
    // Writing through the `int *` after the block became a node would change its `next`
    // unseen: the shape engine refuses that dereference, the portfolio replays the crash.
    let twin = program("valid-deref", "int_view_bug.c");
    let bug = shape(&twin, "valid-memsafety");
    assert!(bug.contains("read as plain data"), "{bug}");
    let all = run(&["verify", "--check", "valid-memsafety"], &twin);
    assert_refuted(&all, "FALSE(valid-deref)");
}

#[test]
fn a_payload_pointer_into_its_own_cell_is_told_from_an_owned_block() {
    // `m->body = &m->inline_body` or a block of its own; the drain frees the body only when
    // it is not the inline one. `inner[body: inline_body]` keeps the two kinds of cells apart.
    let out = shape(
        &program("valid-free", "inline_payload.c"),
        "valid-memsafety",
    );
    assert_proved(&out);
    assert!(
        out.contains("pointers into their own cell: struct msg: body = &inline_body"),
        "{out}"
    );
    // Freeing every body frees an address inside a message.
    let out = shape(
        &program("valid-free", "inline_payload_bug.c"),
        "valid-memsafety",
    );
    assert_refuted(&out, "FALSE(valid-free)");
    assert!(out.contains("inline_payload_bug.c:39"), "{out}");
    // A body pointing to another message's inline payload is no inner pointer: never proved.
    let out = shape(
        &program("valid-free", "inline_payload_bug2.c"),
        "valid-memsafety",
    );
    assert!(!out.starts_with("TRUE"), "{out}");
}

#[test]
fn sub_lists_of_another_struct_are_freed_with_their_owners() {
    for name in ["sub_lists.c", "sub_list_cursor.c"] {
        for model in ["LP64", "ILP32"] {
            let out = shape_in(&program("valid-memtrack", name), "valid-memsafety", model);
            assert_proved(&out);
        }
    }
    let bug = shape_in(
        &program("valid-memtrack", "sub_lists_bug.c"),
        "valid-memsafety",
        "LP64",
    );
    assert_refuted(&bug, "FALSE(valid-memtrack)");
    let bug = shape_in(
        &program("valid-memtrack", "sub_list_cursor_bug.c"),
        "valid-memsafety",
        "LP64",
    );
    assert_refuted(&bug, "FALSE(valid-deref)");
}

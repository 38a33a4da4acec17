//! Comparisons handed to `__VERIFIER_assert` (the SV-COMP idiom for a property of the heap):
//! an integer variable assigned a comparison is split into the graphs where the comparison
//! holds (the variable is 1) and where it does not (0), as a branch on it would be, so the
//! assertion's `if (!cond)` is as precise as the comparison. The shape analysis alone proves
//! that a filter leaves no negative value (a field assertion), that an unlinked cell is not
//! met again (reachability) and that a walk made `prev` the inverse of `next`; each buggy
//! twin gets a replayed counterexample from the shape engine.

#[path = "common/shape.rs"]
mod shape;

use shape::{assert_proved, program, replayed_twin, shape};

/// Checks that the shape engine proves `tests/programs/unreach-call/<name>.c` and refutes
/// its twin `<name>_bug.c` with a replayed counterexample; returns the proof's output.
fn proved_with_twin(name: &str) -> String {
    let out = shape(
        &program("unreach-call", &format!("{name}.c")),
        "unreach-call",
    );
    assert_proved(&out);
    replayed_twin(&format!("{name}_bug.c"));
    out
}

#[test]
fn a_data_comparison_in_an_assertion_is_decided_per_cell() {
    let out = proved_with_twin("asserted_filter");
    assert!(out.contains("fd[value < 0]"), "{out}");
}

#[test]
fn a_pointer_comparison_in_an_assertion_uses_reachability() {
    let out = proved_with_twin("asserted_unlinked");
    assert!(out.contains("reach[next]<main::head>"), "{out}");
}

#[test]
fn an_inverse_link_comparison_in_an_assertion_is_decided() {
    proved_with_twin("asserted_inverse");
}

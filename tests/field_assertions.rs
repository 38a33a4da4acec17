//! Field assertions in the lazy shape analysis (`verify --engine shape`, seed 000's `Φ`):
//! lists whose cells are told apart by a data field are proved by refining the tracking
//! definition with the field assertions an infeasible path states (`tag == 7`), and their
//! buggy twins get replayed counterexamples; struct copies copy every member, pointer and
//! data alike. Field assertions also order a field against a constant (`prio < 7`) or an
//! integer variable (`value < pivot`), forgotten when the variable changes; a condition on an
//! integer variable (`if (mode)`) is remembered until the variable is written. A field equal
//! to an integer variable (`key == k`) is carried through copies of the variable (a key
//! passed to the function that stores it and to the one that looks it up).

#[path = "common/cfile.rs"]
mod cfile;

#[path = "common/shape.rs"]
mod shape;

use cfile::temp_c;
use shape::{assert_proved, program, replayed_twin, shape};

#[test]
fn a_list_ended_by_a_tagged_cell_is_proved_with_field_assertions() {
    let out = shape(&program("unreach-call", "tagged_slots.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    // Refinement added the three tags the walk compares with, and the predicates are in the
    // final abstraction.
    for tag in ["tag == 0", "tag == 1", "tag == 7"] {
        assert!(
            out.lines()
                .any(|l| l.contains("field assertions struct slot:") && l.contains(tag)),
            "{tag}: {out}"
        );
        assert!(out.contains(&format!("fd[{tag}]")), "{tag}: {out}");
    }
}

#[test]
fn the_twin_with_a_foreign_tag_gets_a_replayed_counterexample() {
    let out = shape(
        &program("unreach-call", "tagged_slots_bug.c"),
        "unreach-call",
    );
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
    assert!(out.contains("tagged_slots_bug.c:36"), "{out}");
}

#[test]
fn a_struct_copy_copies_pointer_and_data_members() {
    let out = shape(&program("unreach-call", "struct_copy.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    // Before struct copies were copied member by member, the shape analysis proved these.
    for twin in ["struct_copy_bug.c", "struct_copy_bug2.c"] {
        let out = shape(&program("unreach-call", twin), "unreach-call");
        assert!(out.starts_with("FALSE(unreach-call)\n"), "{twin}: {out}");
        assert!(out.contains("replayed concretely"), "{twin}: {out}");
    }
}

#[test]
fn values_written_through_other_pointers_are_never_trusted() {
    // The copied constant of `s` and the field predicate of `tag` would say the error is
    // unreachable; the stores through `q` and `d` change them.
    let var = "extern void reach_error(void);\n\
               int main(void) { int s = 1; int *q = &s; *q = 2;\n\
               if (s == 2) reach_error(); return 0; }\n";
    let field = "#include <stdlib.h>\nextern void reach_error(void);\n\
                 struct cell { struct cell *next; int tag; };\n\
                 int main(void) { struct cell *p = malloc(sizeof(struct cell));\n\
                 if (!p) return 0; p->next = NULL; p->tag = 1; int *d = &p->tag; *d = 5;\n\
                 if (p->tag == 5) reach_error(); free(p); return 0; }\n";
    for src in [var, field] {
        let f = temp_c(src);
        let out = shape(f.path(), "unreach-call");
        assert!(!out.starts_with("TRUE"), "{src}\n{out}");
    }
    // An input overwrites a field whose predicate said 1.
    let input = "#include <stdlib.h>\nextern void reach_error(void);\n\
                 extern int __VERIFIER_nondet_int(void);\n\
                 struct cell { struct cell *next; int tag; };\n\
                 int main(void) { struct cell *p = malloc(sizeof(struct cell));\n\
                 if (!p) return 0; p->next = NULL; p->tag = 1;\n\
                 p->tag = __VERIFIER_nondet_int();\n\
                 if (p->tag == 2) reach_error(); free(p); return 0; }\n";
    let f = temp_c(input);
    let out = shape(f.path(), "unreach-call");
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
}

#[test]
fn unknown_tags_are_split_and_normalised() {
    let out = shape(
        &program("unreach-call", "normalised_tags.c"),
        "unreach-call",
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    let out = shape(
        &program("unreach-call", "normalised_tags_bug.c"),
        "unreach-call",
    );
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

#[test]
fn a_variable_shown_nonzero_stores_a_nonzero_field() {
    // `if (w == 0) ... else j->weight = w;`: the store copies a variable the condition showed
    // nonzero, so `weight == 0` is false on the cell (before, it was 1/2 and the walk's check
    // stayed reachable).
    let out = shape(
        &program("unreach-call", "nonzero_weights.c"),
        "unreach-call",
    );
    assert_proved(&out);
    assert!(out.contains("fd[weight == 0]"), "{out}");
    let out = replayed_twin("nonzero_weights_bug.c");
    assert!(out.contains("nonzero_weights_bug.c:31"), "{out}");
}

#[test]
fn a_field_ordered_against_a_variable_proves_the_pivot_split() {
    let out = shape(&program("unreach-call", "split_by_pivot.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    // Refinement relates the value field to the pivot; the marks are constants.
    assert!(out.contains("fd[value < main::pivot]"), "{out}");
    assert!(out.contains("fd[side == -1]"), "{out}");
    replayed_twin("split_by_pivot_bug.c");
}

#[test]
fn a_relation_to_a_variable_is_forgotten_when_the_variable_changes() {
    let out = shape(&program("unreach-call", "pivot_bound.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    // The same program with `pivot--` after the split: the relation must not survive it.
    replayed_twin("pivot_bound_bug.c");
}

#[test]
fn fields_ordered_against_constants_keep_three_bands_apart() {
    let out = shape(&program("unreach-call", "priority_bands.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    // `prio <= 6` and `prio > 2` are written as the strict `prio < 7` and `prio < 3`.
    for bound in ["fd[prio < 0]", "fd[prio < 3]", "fd[prio < 7]"] {
        assert!(out.contains(bound), "{bound}: {out}");
    }
    replayed_twin("priority_bands_bug.c");
}

#[test]
fn a_bitwise_complement_is_not_a_negation() {
    // `~f` with f = 5 is -6, true; the shape analysis once read it as `!f` and proved the
    // error unreachable. The same through a field whose predicate is known.
    let var = "extern void reach_error(void);\nextern void *malloc(unsigned long);\n\
               extern int __VERIFIER_nondet_int(void);\n\
               struct node { int d; struct node *next; };\n\
               int main(void) { struct node *l = 0;\n\
               while (__VERIFIER_nondet_int()) { struct node *n = malloc(sizeof(*n));\n\
               if (!n) return 0; n->next = l; n->d = 5; l = n; }\n\
               int f = 5; if (l != 0) { if (~f) reach_error(); } return 0; }\n";
    let field = "extern void reach_error(void);\nextern void *malloc(unsigned long);\n\
                 extern int __VERIFIER_nondet_int(void);\n\
                 struct node { int d; struct node *next; };\n\
                 int main(void) { struct node *l = 0;\n\
                 while (__VERIFIER_nondet_int()) { struct node *n = malloc(sizeof(*n));\n\
                 if (!n) return 0; n->next = l; n->d = 5; l = n; }\n\
                 if (l != 0 && l->d == 5) { if (~(l->d)) reach_error(); } return 0; }\n";
    for src in [var, field] {
        let f = temp_c(src);
        let out = shape(f.path(), "unreach-call");
        assert!(out.starts_with("FALSE(unreach-call)\n"), "{src}\n{out}");
    }
}

#[test]
fn a_mode_shown_nonzero_by_a_condition_keeps_its_graphs_apart() {
    let out = shape(&program("unreach-call", "mode_marks.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("fd[mark == 7]"), "{out}");
    // The twin switches the mode off while building: the fact must not survive the write.
    replayed_twin("mode_marks_bug.c");
}

#[test]
fn a_field_copied_into_a_local_stays_linked_to_its_cell() {
    let out = shape(&program("unreach-call", "reversed_pair.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    for mark in ["fd[mark == 5]", "fd[mark == 6]"] {
        assert!(out.contains(mark), "{mark}: {out}");
    }
    replayed_twin("reversed_pair_bug.c");
    // A local known to differ from a constant forgets it when written.
    let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
               int main(void) { int m = __VERIFIER_nondet_int();\n\
               if (m != 6) { m = __VERIFIER_nondet_int(); if (m == 6) reach_error(); }\n\
               return 0; }\n";
    let f = temp_c(src);
    let out = shape(f.path(), "unreach-call");
    assert!(!out.starts_with("TRUE"), "{out}");
}

#[test]
fn a_cell_kind_that_always_has_a_successor_is_proved_with_the_successors_family() {
    let out = shape(&program("unreach-call", "paired_cells.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    // `linked[next]` (the library's successors family) says a kind-1 cell is never last.
    assert!(out.contains("successors"), "{out}");
    assert!(out.contains("linked[next]"), "{out}");
    replayed_twin("paired_cells_bug.c");
}

#[test]
fn a_key_copied_through_calls_stays_found_in_a_set() {
    let out = shape(&program("unreach-call", "key_membership.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    // The equality learned at the lookup is carried to the variables the key is copied
    // from and into (the caller's key, the parameter of add).
    for rel in ["key == main::k", "key == add::k", "key == contains::k"] {
        assert!(out.contains(&format!("fd[{rel}]")), "{rel}: {out}");
    }
    replayed_twin("key_membership_bug.c");
}

#[test]
fn a_removed_key_is_no_longer_bound() {
    let out = shape(&program("unreach-call", "key_removal.c"), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("fd[key == remove_key::k]"), "{out}");
    replayed_twin("key_removal_bug.c");
}

#[test]
fn a_field_assertion_belongs_to_the_precision_only_where_the_path_needs_it() {
    let out = shape(&program("unreach-call", "phased_marks.c"), "unreach-call");
    assert_proved(&out);
    // `mark == 1` is learned from the marking (line 32) to the check (line 36): the loops
    // that move the list onto a stack and free it (lines 39-51) are outside its region.
    let region = out
        .lines()
        .rfind(|l| l.contains("struct cell: mark == 1 (lines "))
        .and_then(|l| l.split("mark == 1 (lines ").nth(1))
        .and_then(|r| r.split(')').next())
        .and_then(|r| r.split_once('-'))
        .map(|(a, b)| (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap()));
    let Some((first, last)) = region else {
        panic!("no region for mark == 1: {out}");
    };
    assert!(first <= 32 && (36..39).contains(&last), "{out}");
    replayed_twin("phased_marks_bug.c");
}

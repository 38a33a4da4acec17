//! Reference parameters and allocation wrappers in the lazy shape analysis (`verify --engine
//! shape`): a list built through `push(&list)` is proved (the callee's `*pp` is the caller's
//! variable), its twins get replayed counterexamples, a parameter that may point to two
//! variables is never read as one of them, and a `void *` wrapper's result is tracked with
//! the pointers it flows into.

#[path = "common/cfile.rs"]
mod cfile;

#[path = "common/shape.rs"]
mod shape;

use cfile::temp_c;
use shape::{program, shape};

#[test]
fn lists_built_through_reference_parameters_are_proved() {
    let out = shape(
        &program("valid-memtrack", "ref_param_push.c"),
        "valid-memsafety",
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    let out = shape(
        &program("unreach-call", "ref_param_nonempty.c"),
        "unreach-call",
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
}

#[test]
fn the_twin_that_may_leave_the_list_empty_is_refuted() {
    let out = shape(
        &program("unreach-call", "ref_param_nonempty_bug.c"),
        "unreach-call",
    );
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
    assert!(out.contains("ref_param_nonempty_bug.c:26"), "{out}");
}

#[test]
fn a_parameter_given_two_variables_is_not_read_as_either() {
    // Reading `*pp` as `a` would leave `b` NULL and prove the error unreachable.
    let src = "#include <stdlib.h>\nextern void reach_error(void);\n\
               struct n { struct n *next; };\n\
               void set(struct n **pp) { struct n *c = malloc(sizeof(struct n));\n\
               if (!c) abort(); c->next = 0; *pp = c; }\n\
               int main(void) { struct n *a = 0, *b = 0; set(&a); set(&b);\n\
               if (b != 0) reach_error(); free(a); free(b); return 0; }\n";
    let f = temp_c(src);
    let out = shape(f.path(), "unreach-call");
    assert!(!out.starts_with("TRUE"), "{out}");
    assert!(
        out.contains("the address of `a` is taken") || out.starts_with("FALSE"),
        "{out}"
    );
}

#[test]
fn a_void_pointer_wrapper_result_is_tracked_under_unreach_call() {
    // The core names only the cast result; the wrapper's `void *` local carries the cell.
    let src = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n\
               extern void reach_error(void);\n\
               struct n { struct n *next; };\n\
               void *xmalloc(size_t s) { void *p = malloc(s); if (!p) abort(); return p; }\n\
               struct n *node(void) { struct n *c = xmalloc(sizeof(struct n));\n\
               if (!c) abort(); c->next = 0; return c; }\n\
               int main(void) { struct n *l = 0;\n\
               do { struct n *c = node(); c->next = l; l = c; } while (__VERIFIER_nondet_int());\n\
               if (!l) reach_error();\n\
               while (l) { struct n *x = l->next; free(l); l = x; } return 0; }\n";
    let f = temp_c(src);
    let out = shape(f.path(), "unreach-call");
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("xmalloc::p"), "{out}");
}

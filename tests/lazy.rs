//! The lazy shape analysis from the command line (`verify --engine shape`): a proof with its
//! refinement history and re-checked certificate, shape-graph dumps, a replayed counterexample
//! for the buggy twin, the maximal-SCG configuration, valid-memtrack proofs for an unbounded
//! list with their buggy twins, valid-memcleanup proofs with theirs, lists built by
//! allocating helpers, a doubly-linked list freed from its head (dangling back pointers), a
//! cell spliced in after a cursor in the middle of a list (reachability kept across
//! `x = x->next`), and UNKNOWN with a reason for programs outside the shape analysis
//! (recursion); properties that want different abstractions proved one group at a time.

#[path = "common/cfile.rs"]
mod cfile;

use cfile::temp_c;
use std::path::{Path, PathBuf};
use std::process::Command;

fn seed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/seed-000")
        .join(name)
}

/// `verify --check PROPS FILE` with the default engines.
fn verify_default(file: &Path, props: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(["verify", "--timeout", "60", "--check", props])
        .arg(file)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn verify(file: &Path, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(["verify", "--engine", "shape", "--timeout", "60"])
        .args(extra)
        .arg(file)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn fig1_is_proved_by_refinement_with_a_rechecked_certificate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = dir.path().join("shapes.txt");
    let dot = dir.path().join("shapes.dot");
    let out = verify(
        &seed("fig1.c"),
        &[
            "--dump-shapes",
            text.to_str().unwrap(),
            "--dump-dot",
            dot.to_str().unwrap(),
        ],
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    // The paper's result for Fig. 1: the dll generator with the cancellation family only.
    assert!(
        out.contains("dll[") && out.contains("{cancellation} (1/4 families)"),
        "{out}"
    );
    assert!(out.contains("1 td,"), "{out}");
    let shapes = std::fs::read_to_string(&text).expect("shape dump");
    assert!(shapes.contains("main > assert_dll @"), "{shapes}");
    assert!(
        shapes.contains("cancel[") && shapes.contains("(summary)"),
        "{shapes}"
    );
    let graph = std::fs::read_to_string(&dot).expect("dot dump");
    assert!(graph.starts_with("digraph shapes") && graph.contains("doublecircle"));
}

#[test]
fn the_buggy_twin_gets_a_replayed_counterexample() {
    let out = verify(&seed("fig1_bug.c"), &[]);
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
    assert!(out.contains("counterexample: replayed concretely"), "{out}");
}

#[test]
fn the_maximal_configuration_needs_no_refinement() {
    let out = verify(&seed("cancel_remove.c"), &["--maximal"]);
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("refinements: 0 td, 0 scg"), "{out}");
    assert!(
        out.contains("{reachability, cyclicity, successors, cancellation} (4/4 families)"),
        "{out}"
    );
}

#[test]
fn recursion_is_unknown_with_its_line() {
    let f = temp_c(
        "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct node { struct node *next; };
static struct node *build(int n) {
  struct node *x;
  if (n == 0) return NULL;
  x = malloc(sizeof *x);
  if (!x) abort();
  x->next = build(n - 1);
  return x;
}
int main(void) {
  struct node *l = build(__VERIFIER_nondet_int());
  while (l) { if (l->next == l) reach_error(); l = l->next; }
  return 0;
}
",
    );
    let out = verify(f.path(), &[]);
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
    assert!(
        out.contains("recursive call to `build`") && out.contains("line 10"),
        "{out}"
    );
}

/// A global list of unbounded length, built (stopping when malloc fails) and freed cell by
/// cell before `main` returns; `STOP` is the free loop's extra condition, `LOSE` what runs
/// before it (the buggy twins).
const GLOBAL_LIST: &str = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int data; };
struct node *head;
int main(void) {
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n) break;
    n->next = head;
    n->data = 1;
    head = n;
  }
  LOSE
  while (head STOP) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
";

#[test]
fn memcleanup_is_proved_by_the_shape_analysis_and_its_twins_are_not() {
    let list =
        |stop: &str, lose: &str| temp_c(&GLOBAL_LIST.replace("STOP", stop).replace("LOSE", lose));
    let ok = list("", "");
    let out = verify(ok.path(), &["--check", "valid-memcleanup"]);
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    let all = verify(ok.path(), &["--check", "valid-memsafety,valid-memcleanup"]);
    assert!(all.starts_with("TRUE\n"), "{all}");
    // The last cell is never freed: the abstract error at the end replays.
    let last = list("&& head->next", "");
    let out = verify(last.path(), &["--check", "valid-memcleanup"]);
    assert!(out.starts_with("FALSE(valid-memcleanup)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
    // The list is dropped: its cells are garbage, which must not be collected out of sight;
    // the run past the abstract error (where the list is lost) reaches the end unfreed.
    let dropped = list("", "head = 0;");
    let out = verify(dropped.path(), &["--check", "valid-memcleanup"]);
    assert!(out.starts_with("FALSE(valid-memcleanup)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

/// A list of unbounded length built, walked and freed cell by cell; `LOSE` is spliced in
/// before the free loop (the buggy twins).
const SLL_FREE: &str = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int data; };
int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->next = head;
    n->data = 0;
    head = n;
  }
  struct node *x = head;
  while (x) { x->data = 1; x = x->next; }
  LOSE
  while (head) {
    struct node *t = head;
    head = head->next;
    FREE
  }
  return 0;
}
";

fn sll_free(lose: &str, free: &str) -> tempfile::NamedTempFile {
    temp_c(&SLL_FREE.replace("LOSE", lose).replace("FREE", free))
}

#[test]
fn memtrack_is_proved_for_a_list_freed_cell_by_cell() {
    let f = sll_free("", "free(t);");
    let out = verify(f.path(), &["--check", "valid-memsafety"]);
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    // Sharing and cyclicity are what keeps a cell taken off the list from being pointed to
    // by the rest; reachability from a pointer is what shows nothing is lost.
    assert!(
        out.contains("sll[f=next] {reachability, cyclicity}"),
        "{out}"
    );
    assert!(out.contains("reach[next]<main::head>"), "{out}");
}

#[test]
fn a_lost_cell_is_never_proved_and_both_engines_replay_it() {
    for (lose, free) in [
        ("", "if (__VERIFIER_nondet_int()) free(t);"),
        ("head = head ? head->next : head;", "free(t);"),
        ("", ""),
    ] {
        let f = sll_free(lose, free);
        let shape = verify(f.path(), &["--check", "valid-memsafety"]);
        assert!(
            shape.starts_with("FALSE(valid-memtrack)\n") && shape.contains("replayed concretely"),
            "{lose} {free}: {shape}"
        );
        let out = verify_default(f.path(), "valid-memsafety");
        assert!(
            out.starts_with("FALSE(valid-memtrack)\n") && out.contains("replayed concretely"),
            "{lose} {free}: {out}"
        );
    }
}

/// Cells allocated by helpers (a `safe_malloc` wrapper returning `void *`, a `create` that
/// fills the cell and returns it) are not lost at the helpers' `return`: the list they build
/// is proved on both data models; the twin frees only the last cell and loses the others.
const HELPERS: &str = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int data; };
static void *safe_malloc(size_t n) {
  void *p = malloc(n);
  if (!p) abort();
  return p;
}
static struct node *create(int d) {
  struct node *n = safe_malloc(sizeof *n);
  n->next = NULL;
  n->data = d;
  return n;
}
int main(void) {
  struct node *head = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = create(1);
    n->next = head;
    head = n;
  }
  while (head) {
    struct node *t = head->next;
    FREE
    head = t;
  }
  return 0;
}
";

#[test]
fn cells_returned_by_allocating_helpers_are_not_lost() {
    let ok = temp_c(&HELPERS.replace("FREE", "free(head);"));
    for model in ["ILP32", "LP64"] {
        let out = verify(
            ok.path(),
            &["--check", "valid-memsafety", "--data-model", model],
        );
        assert!(out.starts_with("TRUE\n"), "{model}: {out}");
    }
    let twin = temp_c(&HELPERS.replace("FREE", "if (!t) free(head);"));
    let out = verify_default(twin.path(), "valid-memsafety");
    assert!(
        out.starts_with("FALSE(valid-memtrack)\n") && out.contains("replayed concretely"),
        "{out}"
    );
}

/// A whole list built by a helper and returned: the caller's pointer must inherit the
/// returned one's reachability over the summarised cells (the return stores the result
/// before the helper's locals die), or the tail looks lost at `return h;`. The twin drops
/// the first cell at that return.
const LIST_BUILDER: &str = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *n; int d; };
struct node *build(void) {
  struct node *h = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *t = malloc(sizeof *t);
    if (!t) abort();
    t->n = h;
    t->d = __VERIFIER_nondet_int();
    h = t;
  }
  return RESULT;
}
int main(void) {
  struct node *h = build();
  while (h) {
    struct node *t = h;
    h = h->n;
    free(t);
  }
  return 0;
}
";

#[test]
fn a_list_returned_by_its_builder_is_not_lost() {
    let ok = temp_c(&LIST_BUILDER.replace("RESULT", "h"));
    for model in ["ILP32", "LP64"] {
        let out = verify(
            ok.path(),
            &["--check", "valid-memsafety", "--data-model", model],
        );
        assert!(out.starts_with("TRUE\n"), "{model}: {out}");
    }
    let twin = temp_c(&LIST_BUILDER.replace("RESULT", "h ? h->n : h"));
    let out = verify(twin.path(), &["--check", "valid-memsafety"]);
    assert!(
        out.starts_with("FALSE(valid-memtrack)\n") && out.contains("replayed concretely"),
        "{out}"
    );
}

/// A doubly-linked list freed from its head: the next cell's `prev` dangles, which is no
/// error (proved), until the twin dereferences it.
const DLL_FREE: &str = "#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; struct node *prev; int v; };
int main(void) {
  struct node *head = NULL, *tail = NULL;
  while (__VERIFIER_nondet_int()) {
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->v = 0;
    n->next = NULL;
    n->prev = tail;
    if (tail) tail->next = n; else head = n;
    tail = n;
  }
  while (head) {
    struct node *p = head->next;
    free(head);
    USE
    head = p;
  }
  return 0;
}
";

#[test]
fn a_dangling_back_pointer_is_no_error_until_it_is_dereferenced() {
    let ok = temp_c(&DLL_FREE.replace("USE", "if (p) p->v = 1;"));
    let out = verify(ok.path(), &["--check", "valid-memsafety"]);
    assert!(out.starts_with("TRUE\n"), "{out}");
    let twin = temp_c(&DLL_FREE.replace("USE", "if (p) p->prev->v = 1;"));
    let shape = verify(twin.path(), &["--check", "valid-memsafety"]);
    assert!(!shape.starts_with("TRUE"), "{shape}");
    let out = verify_default(twin.path(), "valid-memsafety");
    assert!(
        out.starts_with("FALSE(valid-deref)\n") && out.contains("replayed concretely"),
        "{out}"
    );
}

#[test]
fn a_cell_spliced_in_after_a_moving_cursor_keeps_the_rest_of_the_list_reachable() {
    // `x = x->next` keeps what `reach[next]<x>` knew past the edge it moved along, and
    // `tmp->next = x->next` reads the cells past `x`'s one edge off `reach[next]<x>`: without
    // them the tail looked only possibly reachable from `tmp`, and memtrack failed.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/valid-memtrack");
    let out = verify(
        &dir.join("insert_after_cursor.c"),
        &["--check", "valid-memsafety"],
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    let out = verify_default(&dir.join("insert_after_cursor_bug.c"), "valid-memsafety");
    assert!(out.starts_with("FALSE(valid-memtrack)\n"), "{out}");
    assert!(out.contains("insert_after_cursor_bug.c:23"), "{out}");
}

/// `tests/programs/<group>/<name>`.
fn corpus(group: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(group)
        .join(name)
}

/// Checks that the shape analysis alone gives each twin in `tests/programs/<group>` its
/// verdict under `check`, with a concretely replayed counterexample.
fn assert_twins_refuted(group: &str, check: &str, twins: &[(&str, &str)]) {
    for (twin, verdict) in twins {
        let out = verify(&corpus(group, twin), &["--check", check]);
        assert!(out.starts_with(&format!("{verdict}\n")), "{twin}: {out}");
        assert!(out.contains("replayed concretely"), "{twin}: {out}");
    }
}

#[test]
fn properties_that_want_different_abstractions_are_proved_one_group_at_a_time() {
    let check = "unreach-call,valid-memsafety";
    let out = verify(
        &corpus("unreach-call", "doubly_linked_after.c"),
        &["--check", check],
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    if out.contains("the joint run for every property gave up") {
        let proof = out.lines().nth(1).unwrap_or("");
        for group in [
            "[unreach-call] lazy",
            "[valid-deref, valid-free, valid-memtrack] lazy",
        ] {
            assert!(proof.contains(group), "{group}: {out}");
        }
        assert_eq!(out.matches("certificate re-checked").count(), 2, "{out}");
        // Each proof needs its own abstraction: a doubly-linked one for the assertion, a
        // singly-linked one for memory safety.
        assert!(
            out.contains("struct node => sll[f=next] {reachability"),
            "{out}"
        );
    } else {
        // Since the closure delta keeps the paths past uninitialised fields, one
        // doubly-linked abstraction proves every property at once.
        assert!(
            out.contains("no violation of unreach-call, valid-deref, valid-free, valid-memtrack"),
            "{out}"
        );
    }
    assert!(out.contains("struct node => dll["), "{out}");
    assert_twins_refuted(
        "unreach-call",
        check,
        &[
            ("doubly_linked_after_bug.c", "FALSE(unreach-call)"),
            ("doubly_linked_after_bug2.c", "FALSE(valid-memtrack)"),
        ],
    );
}

#[test]
fn a_tree_with_parent_pointers_is_torn_down_through_its_parents() {
    let check = "valid-memsafety";
    let out = verify(
        &corpus("valid-memtrack", "parent_tree.c"),
        &["--check", check],
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    // Unlinking a leaf through `p->parent->left/right` needs the parent to be the inverse of
    // the down relation: the library's pcancel, in treep's cancellation family.
    assert!(
        out.contains("struct tree => treep[l=left, r=right, p=parent]"),
        "{out}"
    );
    assert!(out.contains("pcancel[parent, left, right]"), "{out}");
    assert_twins_refuted(
        "valid-memtrack",
        check,
        &[
            ("parent_tree_bug.c", "FALSE(valid-memtrack)"),
            ("parent_tree_bug2.c", "FALSE(valid-deref)"),
        ],
    );
}

#[test]
fn sorted_insertion_is_proved_by_orderings_of_a_cell_with_its_successor() {
    let check = "unreach-call,valid-memsafety";
    // Insertion by key, and Bohne's SortedList.insert (the new cell compared with the cursor).
    for (name, cursor) in [
        ("sorted_insert.c", "data <= insert::x"),
        ("sorted_list_insert.c", "data < insert::n->data"),
    ] {
        let out = verify(&corpus("unreach-call", name), &["--check", check]);
        assert!(out.starts_with("TRUE\n"), "{name}: {out}");
        assert!(out.contains("certificate re-checked"), "{name}: {out}");
        // Sortedness is a cell's value at most its successor's, learned from the check.
        assert!(out.contains("fd[data <= next->data]"), "{name}: {out}");
        assert!(out.contains(&format!("fd[{cursor}]")), "{name}: {out}");
    }
    // Two cells' constants decide their comparison also where the field is ordered (5 <= 3
    // is refuted in the same run that proves the order, without splitting the properties).
    let out = verify(
        &corpus("unreach-call", "ordered_constants.c"),
        &["--check", check],
    );
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(!out.contains("one proof per group"), "{out}");
    assert_twins_refuted(
        "unreach-call",
        check,
        &[
            ("sorted_insert_bug.c", "FALSE(unreach-call)"),
            ("sorted_list_insert_bug.c", "FALSE(unreach-call)"),
            ("ordered_constants_bug.c", "FALSE(unreach-call)"),
        ],
    );
}

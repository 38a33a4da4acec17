//! The lazy shape analysis from the command line (`verify --engine shape`): a proof with its
//! refinement history and re-checked certificate, shape-graph dumps, a replayed counterexample
//! for the buggy twin, the maximal-SCG configuration, and UNKNOWN with a reason for programs
//! outside the shape analysis (recursion, leak properties).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn seed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/seed-000")
        .join(name)
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
        out.contains("dll[") && out.contains("{cancellation} (1/3 families)"),
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
        out.contains("{reachability, cyclicity, cancellation} (3/3 families)"),
        "{out}"
    );
}

fn temp_c(src: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".c")
        .tempfile()
        .expect("temp file");
    f.write_all(src.as_bytes()).expect("write");
    f
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

#[test]
fn leak_properties_are_left_to_the_explicit_engine() {
    let out = verify(&seed("fig1.c"), &["--check", "valid-memtrack"]);
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
    assert!(out.contains("does not check valid-memtrack"), "{out}");
}

//! A user's own data structures, end to end: two structures the standard library lacks, each
//! described in a `.shape` file of `tests/userspec/` and used by a C program that builds one of
//! unbounded size, changes it and checks its invariant. `verify --spec` proves the program,
//! finds its buggy twin, and without the spec the same program is not proved: the spec, loaded
//! at run time with nothing rebuilt, is what makes the proof.
//!
//! - `ring.shape`: a circular doubly-linked list with a sentinel node (`ring.c`, `ring_bug.c`).
//! - `threaded.shape`: a full binary tree whose leaves are threaded into a list
//!   (`threaded.c`, `threaded_bug.c`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/userspec")
        .join(name)
}

fn verify(program: &str, spec: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_shapecheck"));
    cmd.arg("verify")
        .arg(file(program))
        .args(["--engine", "shape", "--timeout", "300"])
        .args(["--check", "unreach-call,valid-deref,valid-free"]);
    if let Some(spec) = spec {
        cmd.arg("--spec").arg(file(spec));
    }
    cmd.output().expect("run shapecheck")
}

fn first_line(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout);
    out.lines().next().unwrap_or("").to_string()
}

/// `program` proved with `spec`, `twin` refuted with it; without the spec, the library
/// must not prove `program` unless `library_too` (it never refutes it).
fn check(program: &str, twin: &str, spec: &str, library_too: bool) {
    let o = verify(program, Some(spec));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(first_line(&o), "TRUE", "{program} with {spec}:\n{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    assert!(out.contains("engine: shape"), "{out}");

    let o = verify(twin, Some(spec));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(first_line(&o), "FALSE(unreach-call)", "{twin}:\n{out}");
    assert!(out.contains("replayed concretely"), "{out}");

    // Without the spec the standard library has no abstraction that proves the program.
    let o = verify(program, None);
    assert_ne!(
        first_line(&o),
        "FALSE(unreach-call)",
        "{program} without the spec"
    );
    if !library_too {
        assert_eq!(
            first_line(&o),
            "UNKNOWN",
            "{program} is proved without its spec: the test no longer shows what the spec adds"
        );
    }
}

#[test]
fn a_circular_list_with_a_sentinel_is_proved_with_its_spec() {
    // The library's dll with its successors family (`linked`, the ring spec's `hasnext`)
    // proves it too since that family was added.
    check("ring.c", "ring_bug.c", "ring.shape", true);
}

#[test]
fn a_tree_with_threaded_leaves_is_proved_with_its_spec() {
    check("threaded.c", "threaded_bug.c", "threaded.shape", false);
}

#[test]
fn the_user_specs_check() {
    for spec in ["ring.shape", "threaded.shape"] {
        let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
            .arg("spec")
            .arg("check")
            .arg(file(spec))
            .output()
            .expect("run shapecheck");
        assert!(
            o.status.success(),
            "{spec}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

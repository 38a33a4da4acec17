//! Runs of the shapecheck binary on the corpus programs (`tests/programs`), for the
//! end-to-end tests of the shape analysis's features: the program's path, the output of any
//! command, and the output of `verify --engine shape` alone under one check.

// Each test crate uses only some of the helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `tests/programs/<group>/<name>`.
pub fn program(group: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(group)
        .join(name)
}

/// The standard output of `shapecheck ARGS FILE`.
pub fn run(args: &[&str], file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .arg(file)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The standard output of the shape engine alone on `file` under `check` (60 s).
pub fn shape(file: &Path, check: &str) -> String {
    shape_in(file, check, "ILP32")
}

/// [`shape`] in the given data model (`ILP32`, `LP64`).
pub fn shape_in(file: &Path, check: &str, model: &str) -> String {
    run(
        &[
            "verify",
            "--engine",
            "shape",
            "--timeout",
            "60",
            "--check",
            check,
            "--data-model",
            model,
        ],
        file,
    )
}

/// The shape engine's answer on the buggy twin `tests/programs/unreach-call/<name>`, checked
/// to be FALSE(unreach-call) with a concretely replayed counterexample.
pub fn replayed_twin(name: &str) -> String {
    let out = shape(&program("unreach-call", name), "unreach-call");
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{name}: {out}");
    assert!(out.contains("replayed concretely"), "{name}: {out}");
    out
}

/// Checks that `out` is a TRUE with a re-checked certificate.
pub fn assert_proved(out: &str) {
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
}

/// Checks that `out` is `verdict` with a concretely replayed counterexample.
pub fn assert_refuted(out: &str, verdict: &str) {
    assert!(out.starts_with(&format!("{verdict}\n")), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

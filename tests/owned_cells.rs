//! Lists whose cells own an optional cell through a second self-pointer field (the library's
//! `sllo`/`dllo`, item 3 of the seed-000 coverage issue): the shape engine alone proves the
//! correct program with a re-checked certificate, the twin gets a replayed counterexample,
//! and classification gives the owning field its own role only where the owned cells lie
//! outside the list (a doubly-linked list's `prev` is no owner).

use std::path::{Path, PathBuf};
use std::process::Command;

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/unreach-call")
        .join(name)
}

fn run(args: &[&str], file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .arg(file)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn shape(file: &Path) -> String {
    run(
        &[
            "verify",
            "--engine",
            "shape",
            "--timeout",
            "60",
            "--check",
            "unreach-call",
        ],
        file,
    )
}

#[test]
fn a_list_whose_cells_own_an_optional_cell_is_proved() {
    let out = shape(&program("owned_extra.c"));
    assert!(out.starts_with("TRUE\n"), "{out}");
    assert!(out.contains("certificate re-checked"), "{out}");
    assert!(out.contains("sllo[f=next, o=extra]"), "{out}");
}

#[test]
fn the_twin_with_a_foreign_extra_cell_is_refuted() {
    let out = shape(&program("owned_extra_bug.c"));
    assert!(out.starts_with("FALSE(unreach-call)\n"), "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

#[test]
fn classification_binds_an_owner_only_outside_the_list() {
    let owned = run(&["classify"], &program("owned_extra.c"));
    assert!(owned.contains("=> sllo[f=next, o=extra]"), "{owned}");
    let dll = run(&["classify"], &program("append_dll_value.c"));
    assert!(!dll.contains("=> sllo"), "{dll}");
    assert!(dll.contains("=> dll["), "{dll}");
}

//! Bad and extreme input to the command line: every one gets a located message and its exit
//! code, never a crash. Spec files (`spec check`, `spec show`): exit 1 with
//! `file:line:col: error: ...`. The inputs are generated here (deep nesting, long lines, bytes
//! that are not UTF-8).

use std::path::Path;
use std::process::{Command, Output};

fn shapecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .output()
        .expect("run shapecheck")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `bytes` to `name` in `dir` and returns its path as a string.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temp file");
    path.to_str().expect("utf-8 temp path").to_string()
}

/// A spec whose one predicate has `body`.
fn predicate(body: &str) -> String {
    format!("predicate p[f](v) := {body};\n")
}

/// Runs `spec check` and `spec show` on the file; both must fail with exit 1 and print
/// `needle` on stderr.
fn rejected(path: &str, needle: &str) {
    for cmd in ["check", "show"] {
        let o = shapecheck(&["spec", cmd, path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "spec {cmd}: {err}");
        assert!(
            err.contains(needle),
            "spec {cmd}: want {needle:?} in\n{err}"
        );
    }
}

#[test]
fn deeply_nested_specs_get_a_diagnostic_not_a_stack_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let col = "predicate p[f](v) := ".len() + 128 + 1;
    let parens = predicate(&format!("{}f(v, v){}", "(".repeat(900), ")".repeat(900)));
    let path = write(dir.path(), "parens.shape", parens.as_bytes());
    rejected(
        &path,
        &format!("{path}:1:{col}: error: nesting deeper than 128 levels"),
    );
    let nots = predicate(&format!("{}f(v, v)", "!".repeat(10_000)));
    let path = write(dir.path(), "nots.shape", nots.as_bytes());
    rejected(
        &path,
        &format!("{path}:1:{col}: error: nesting deeper than 128 levels"),
    );
    let quantifiers: String = (0..1000).map(|i| format!("forall a{i}. ")).collect();
    let path = write(
        dir.path(),
        "quantifiers.shape",
        predicate(&format!("{quantifiers}f(v, v)")).as_bytes(),
    );
    rejected(&path, "error: nesting deeper than 128 levels");
    // Up to the limit, both commands go through (the checks, the printer and dropping).
    let ok = predicate(&format!("{}f(v, v){}", "(".repeat(128), ")".repeat(128)));
    let path = write(dir.path(), "ok.shape", ok.as_bytes());
    for cmd in ["check", "show"] {
        let o = shapecheck(&["spec", cmd, &path]);
        assert_eq!(o.status.code(), Some(0), "spec {cmd}: {}", stderr(&o));
    }
}

#[test]
fn an_error_past_column_65536_is_rendered() {
    let dir = tempfile::tempdir().unwrap();
    let text = predicate(&format!("{}g(v, v)", " ".repeat(65_536)));
    let path = write(dir.path(), "col.shape", text.as_bytes());
    rejected(&path, &format!("{path}:1:65558: error: unknown name `g`"));
}

#[test]
fn a_spec_that_is_not_utf8_is_reported_at_its_first_bad_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "latin1.shape",
        b"// r\xe9sum\xe9\npredicate p[f](v) := true;\n",
    );
    rejected(
        &path,
        &format!("{path}:1:5: error: invalid UTF-8 (byte 0xe9)"),
    );
}

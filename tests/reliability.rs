//! Bad and extreme input to the command line: every one gets a located message and its exit
//! code, never a crash. Spec files (`spec check`, `spec show`): exit 1 with
//! `file:line:col: error: ...`. C programs a compiler rejects: exit 2 with `file:line:` and no
//! verdict (the C compiler's check, or the front end's own checks when no compiler runs). C
//! nested deeper than the front end takes: an implementation-limit message naming the place.
//! The inputs are generated here (deep nesting, long lines, bytes that are not UTF-8).

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn shapecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .output()
        .expect("run shapecheck")
}

/// `shapecheck` with `CC` naming no compiler: `.i` files are read as they are, and the C
/// compiler's check cannot run.
fn shapecheck_without_cc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .env("CC", "/nonexistent/cc")
        .output()
        .expect("run shapecheck")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
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

/// Programs that violate a constraint of C, each with the line of the violation: a compiler
/// rejects them, so `verify` must not give a verdict.
const MALFORMED: [(&str, &str, u32); 14] = [
    (
        "goto",
        "int main(void) {\n  goto nowhere;\n  return 0;\n}\n",
        2,
    ),
    (
        "decrement",
        "int main(void) {\n  int x = 5;\n  int y = ----x;\n  return y;\n}\n",
        3,
    ),
    (
        "const",
        "int main(void) {\n  const int x = 1;\n  x = 2;\n  return x;\n}\n",
        3,
    ),
    (
        "case",
        "int main(void) {\n  int k = 1;\n  switch (k) { case 1: break;\n  case 1: break; }\n  return 0;\n}\n",
        4,
    ),
    (
        "redefinition",
        "int f(void) { return 1; }\nint f(void) { return 2; }\nint main(void) { return f(); }\n",
        2,
    ),
    (
        "incomplete",
        "struct nope;\nint main(void) {\n  struct nope v;\n  return 0;\n}\n",
        3,
    ),
    (
        "void",
        "void g(void) {}\nint main(void) {\n  int x = g();\n  return x;\n}\n",
        3,
    ),
    (
        "negative size",
        "int a[-1];\nint main(void) { return 0; }\n",
        1,
    ),
    (
        "division by zero",
        "int a[1 / 0 + 1];\nint main(void) { return 0; }\n",
        1,
    ),
    (
        "undeclared",
        "int main(void) {\n  int x = y;\n  return x;\n}\n",
        2,
    ),
    ("break", "int main(void) {\n  break;\n  return 0;\n}\n", 2),
    (
        "member",
        "struct s { int a; };\nint main(void) {\n  struct s v;\n  v.zzz = 1;\n  return v.a;\n}\n",
        4,
    ),
    (
        "lvalue",
        "int main(void) {\n  int x = 1;\n  (x + 1) = 3;\n  return x;\n}\n",
        3,
    ),
    (
        "sizeof",
        "struct nope;\nint main(void) {\n  int k = sizeof(struct nope);\n  return k;\n}\n",
        3,
    ),
];

#[test]
fn malformed_c_is_bad_input_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, line) in MALFORMED {
        let path = write(
            dir.path(),
            &format!("{}.c", name.replace(' ', "_")),
            text.as_bytes(),
        );
        let o = shapecheck(&["verify", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {}{err}", stdout(&o));
        assert!(
            stdout(&o).is_empty(),
            "{name}: no verdict on malformed input"
        );
        assert!(err.contains(&format!("{path}:{line}:")), "{name}: {err}");
        assert!(err.contains("error"), "{name}: {err}");
    }
}

#[test]
fn without_a_compiler_the_front_end_still_rejects_what_it_can_tell() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, line, message) in [
        (
            "goto",
            MALFORMED[0].1,
            2,
            "label `nowhere` used but not defined",
        ),
        ("undeclared", MALFORMED[9].1, 2, "undeclared identifier `y`"),
        (
            "break",
            MALFORMED[10].1,
            2,
            "`break` statement not within a loop or switch",
        ),
        ("member", MALFORMED[11].1, 4, "no field `zzz` in `struct s`"),
    ] {
        let path = write(dir.path(), &format!("{name}.i"), text.as_bytes());
        let o = shapecheck_without_cc(&["verify", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {}{err}", stdout(&o));
        assert!(err.contains(&format!("{path}:{line}:")), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
    }
    // Valid input still gets its verdict without the compiler.
    let ok = "extern void reach_error(void);\nint main(void) { int x = 1; if (x) reach_error(); return 0; }\n";
    let path = write(dir.path(), "ok.i", ok.as_bytes());
    let o = shapecheck_without_cc(&["verify", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("FALSE(unreach-call)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn old_style_c_passes_the_compiler_check() {
    let dir = tempfile::tempdir().unwrap();
    // K&R definitions, implicit declarations, int/pointer conversions: valid C89 that newer
    // compilers reject by default.
    let text = "extern void reach_error(void);\nint f(x) int x; { return x + 1; }\n\
                int main(void) { int *p = 0; long v = p; if (g() == 7) reach_error(); return f(v); }\n\
                int g(void) { return 7; }\n";
    let path = write(dir.path(), "old.c", text.as_bytes());
    let o = shapecheck(&["verify", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Deeply nested C: `cfa` and `verify` give the implementation-limit
/// message with the place, in a few seconds, and never crash.
#[test]
fn deeply_nested_c_reaches_an_implementation_limit() {
    let dir = tempfile::tempdir().unwrap();
    let nested = |open: &str, close: &str, n: usize| {
        format!(
            "extern void reach_error(void);\nint main(void) {{\n  int x = 1;\n  int y = {}x{};\n  if (y == 1) reach_error();\n  return 0;\n}}\n",
            open.repeat(n),
            close.repeat(n)
        )
    };
    for (name, text, cmd) in [
        ("par5k.c", nested("(", ")", 5_000), "cfa"),
        ("par120k.c", nested("(", ")", 120_000), "verify"),
        ("not16k.c", nested("!", "", 16_000), "verify"),
    ] {
        let path = write(dir.path(), name, text.as_bytes());
        let start = Instant::now();
        let o = shapecheck(&[cmd, &path]);
        let all = format!("{}{}", stdout(&o), stderr(&o));
        // verify answers UNKNOWN (0) or rejects (2); cfa, which has no verdict to give,
        // exits 1 at an implementation limit.
        assert!(
            matches!(o.status.code(), Some(0..=2)),
            "{name}: {:?} {all}",
            o.status
        );
        let place = format!("implementation limit: nesting depth 500 exceeded at {path}:4:");
        assert!(all.contains(&place), "{name}: {all}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{name}: {:?}",
            start.elapsed()
        );
    }
    // Just under the limit, `cfa` lists the program.
    let path = write(dir.path(), "par400.c", nested("(", ")", 400).as_bytes());
    let o = shapecheck(&["cfa", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A long function: 16000 blocks in a row, each with a local whose address leaves it (so each
/// block ends with a scope end). `cfa` lists it (it overflowed the main thread's stack in the
/// loop-head search, after two minutes of quadratic scans for escaping addresses), and
/// `verify` stays within its time limit.
#[test]
fn a_long_function_of_many_blocks_is_lowered_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let n = 16_000;
    let mut text =
        String::from("extern void reach_error(void);\nint main(void) {\n  int *p = 0;\n");
    for i in 0..n {
        text += &format!("  {{ int t{i} = {i}; p = &t{i}; if (*p != {i}) reach_error(); }}\n");
    }
    text += "  return 0;\n}\n";
    let path = write(dir.path(), "blocks.c", text.as_bytes());
    let start = Instant::now();
    let o = shapecheck(&["cfa", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let last = format!("line {}", n + 3);
    assert!(stdout(&o).contains(&last), "{}", stderr(&o));
    assert!(stdout(&o).contains("scope_end(&t15999)"));
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    let start = Instant::now();
    let o = shapecheck(&["verify", &path, "--timeout", "10"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

//! The command line on bad input and its output formats: errors with file and line and no
//! verdict, the verdict line first, JSON output, property files, and the CFA printer.

use std::io::Write;
use std::process::{Command, Output};

fn shapecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .output()
        .expect("run shapecheck")
}

fn c_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".c").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn missing_file_is_an_input_error_without_verdict() {
    let o = shapecheck(&["verify", "/nonexistent/prog.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file"));
}

#[test]
fn syntax_error_names_the_line() {
    let f = c_file("int main(void) {\n  int x = 1;\n  x = x +* ;\n  return 0;\n}\n");
    let o = shapecheck(&["verify", f.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty(), "no verdict on malformed input");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(":3:"), "the error should name line 3: {err}");
    // The C compiler's message when one runs (the gate), else lang-c's.
    assert!(
        err.contains("error: expected") || err.contains("syntax error"),
        "{err}"
    );
}

#[test]
fn missing_main_is_an_input_error() {
    let f = c_file("int f(void) { return 1; }\n");
    let o = shapecheck(&["verify", f.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no definition of `main`"));
}

#[test]
fn unknown_property_is_rejected() {
    let f = c_file("int main(void) { return 0; }\n");
    let o = shapecheck(&[
        "verify",
        f.path().to_str().unwrap(),
        "--check",
        "termination",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown property `termination`"));
}

#[test]
fn unsupported_construct_gives_unknown_with_its_line() {
    let f = c_file("int main(void) {\n  double d = 1.5;\n  return d > 1.0;\n}\n");
    let o = shapecheck(&["verify", f.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("UNKNOWN\n"), "{out}");
    assert!(
        out.contains("floating-point") && out.contains("line 2"),
        "{out}"
    );
}

#[test]
fn unreachable_unsupported_code_does_not_matter() {
    let f = c_file(
        "extern void reach_error(void);\nvoid unused(void) { double d = 2.0; }\nint main(void) {\n  int x = 3;\n  if (x != 3) reach_error();\n  return 0;\n}\n",
    );
    let o = shapecheck(&["verify", f.path().to_str().unwrap()]);
    assert!(stdout(&o).starts_with("TRUE\n"), "{}", stdout(&o));
}

#[test]
fn property_file_and_json_output() {
    let f = c_file(
        "#include <stdlib.h>\nint main(void) {\n  int *p = malloc(4);\n  if (!p) return 0;\n  free(p);\n  free(p);\n  return 0;\n}\n",
    );
    let mut prp = tempfile::Builder::new().suffix(".prp").tempfile().unwrap();
    prp.write_all(b"CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n").unwrap();
    let args = [
        "verify",
        f.path().to_str().unwrap(),
        "--property",
        prp.path().to_str().unwrap(),
    ];
    let o = shapecheck(&args);
    assert_eq!(
        stdout(&o).lines().next(),
        Some("FALSE(valid-free)"),
        "{}",
        stdout(&o)
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let o = shapecheck(&json_args);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["verdict"], "FALSE(valid-free)");
    assert_eq!(v["violation"]["line"], 6);
    assert!(
        v["trace"]["steps"]
            .as_array()
            .is_some_and(|s| !s.is_empty())
    );
}

#[test]
fn cfa_prints_text_and_dot() {
    let f = c_file(
        "struct n { struct n *next; };\nint main(void) {\n  struct n a, b;\n  a.next = &b;\n  a.next->next = 0;\n  return 0;\n}\n",
    );
    let o = shapecheck(&["cfa", f.path().to_str().unwrap()]);
    let text = stdout(&o);
    assert!(text.contains("function main"), "{text}");
    assert!(text.contains("a.next->next = NULL"), "{text}");
    let o = shapecheck(&["cfa", "--dot", f.path().to_str().unwrap()]);
    assert!(stdout(&o).starts_with("digraph program {"));
}

/// `table2` on a folder of one program and its twin: the template engine and the portfolio
/// prove the program, the portfolio finds the twin, and the summary line counts them.
#[test]
fn table2_runs_programs_and_twins() {
    let dir = tempfile::tempdir().unwrap();
    let program = |bound: u32| {
        format!(
            "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
             int main(void) {{\n  int i = 0;\n  while (__VERIFIER_nondet_int()) {{\n    \
             if (i < 10) i++;\n  }}\n  if (i > {bound}) reach_error();\n  return 0;\n}}\n"
        )
    };
    std::fs::write(dir.path().join("count.c"), program(10)).unwrap();
    std::fs::write(dir.path().join("count_bug.c"), program(5)).unwrap();
    let o = shapecheck(&["table2", dir.path().to_str().unwrap(), "--timeout", "20"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("count "), "{out}");
    assert!(out.contains("FALSE(unreach-call)"), "{out}");
    assert!(out.contains("TRUE (template)"), "{out}");
    assert!(
        out.contains(
            "1 of 1 programs proved by the template engine, 1 by the portfolio; 1 twins found; \
             0 wrong"
        ),
        "{out}"
    );
}

#[test]
fn version_names_the_commit() {
    let o = shapecheck(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    let v = stdout(&o);
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or("unknown".to_string(), |o| stdout(&o).trim().to_string());
    let want = format!("shapecheck {} (commit {head})", env!("CARGO_PKG_VERSION"));
    assert_eq!(v.trim(), want);
}

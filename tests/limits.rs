//! The run's limits and output from outside: odd `--timeout` values are input errors (exit 2,
//! no panic), a time limit ends the run with UNKNOWN soon after it passes, a memory limit
//! ends it with UNKNOWN ("memory limit") instead of an abort, emergency verdicts respect
//! `--format json`, and a reader that closes the pipe early (`| head -1`) is not a crash.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// A program whose explicit exploration never ends and keeps growing: an unbounded list
/// whose nodes hold nondeterministic values.
const ENDLESS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void *malloc(unsigned long);\n\
struct n { struct n *next; int v; };\nint main(void) {\n  struct n *h = 0;\n\
  while (__VERIFIER_nondet_int()) {\n    struct n *x = malloc(sizeof *x);\n    if (!x) return 0;\n\
    x->v = __VERIFIER_nondet_int();\n    x->next = h;\n    h = x;\n  }\n  return 0;\n}\n";

/// Exploration bounds that never stop the run by themselves.
const UNBOUNDED: [&str; 8] = [
    "--engine",
    "explicit",
    "--max-heap",
    "1000000",
    "--max-steps",
    "1000000000000",
    "--max-path",
    "4000000000",
];

#[test]
fn odd_timeouts_are_input_errors() {
    let f = c_file("int main(void) { return 0; }\n");
    let path = f.path().to_str().unwrap();
    for t in ["inf", "nan", "-1", "0", "x"] {
        let o = shapecheck(&["verify", path, "--timeout", t]);
        assert_eq!(o.status.code(), Some(2), "--timeout {t}");
        assert!(o.stdout.is_empty(), "--timeout {t}: no verdict");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "--timeout {t}: {err}");
    }
    for t in ["1e20", "18446744073709551616", "0.5"] {
        let o = shapecheck(&["verify", path, "--timeout", t]);
        assert_eq!(o.status.code(), Some(0), "--timeout {t}");
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).lines().next(),
            Some("TRUE")
        );
    }
}

#[test]
fn the_time_limit_ends_the_run() {
    let f = c_file(ENDLESS);
    let mut args = vec!["verify", f.path().to_str().unwrap(), "--timeout", "1"];
    args.extend(UNBOUNDED);
    let start = Instant::now();
    let o = shapecheck(&args);
    let took = start.elapsed();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out.lines().next(), Some("UNKNOWN"), "{out}");
    assert!(out.contains("time limit"), "{out}");
    // Generous: the limit is 1 s and the run ends within about 1.6 s on an idle machine.
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn the_memory_limit_gives_unknown_not_an_abort() {
    let f = c_file(ENDLESS);
    for format in ["text", "json"] {
        let mut args = vec![
            "verify",
            f.path().to_str().unwrap(),
            "--memory-limit",
            "150",
            "--timeout",
            "120",
            "--format",
            format,
        ];
        args.extend(UNBOUNDED);
        let o = shapecheck(&args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(out.contains("memory limit"), "{out}");
        if format == "json" {
            let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
            assert_eq!(v["verdict"], "UNKNOWN");
        } else {
            assert_eq!(out.lines().next(), Some("UNKNOWN"));
        }
    }
}

#[test]
fn a_closed_pipe_is_not_a_crash() {
    let text = "extern void reach_error(void);\nint main(void) {\n  int i, s = 0;\n\
                for (i = 0; i < 2000; i++) s += i;\n  if (s > 0) reach_error();\n  return 0;\n}\n";
    let f = c_file(text);
    let mut child = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(["verify", f.path().to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 6];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"FALSE(");
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0));
}

//! Witnesses (YAML format 2.0): violation witnesses replay to their target when driven by
//! their waypoints alone, and stop replaying when a waypoint lies; hand-written witnesses
//! with branching waypoints are followed; broken witnesses fail the schema; correctness
//! witnesses carry the template engine's loop invariants and the task's data model.

#[path = "common/witness.rs"]
mod witness;

use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::property::PropertySet;
use shapecheck_runtime::witness::validate::validate;
use std::path::Path;
use std::process::Command;

const PICK: &str = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int n = 0;
  while (__VERIFIER_nondet_int()) {
    n++;
  }
  if (x == 7 && n == 2)
    reach_error();
  return 0;
}
";

/// Runs `verify FILE --witness W ARGS`; returns stdout and the witness text.
fn verify(dir: &Path, source: &str, args: &[&str]) -> (String, String) {
    let file = dir.join("p.c");
    std::fs::write(&file, source).unwrap();
    let w = dir.join("w.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(&file)
        .arg("--witness")
        .arg(&w)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (stdout, std::fs::read_to_string(&w).unwrap_or_default())
}

fn check(dir: &Path, text: &str) -> Result<String, String> {
    let prog = frontend::load(&dir.join("p.c")).unwrap();
    let checks = PropertySet::parse_list("unreach-call").unwrap();
    validate(&prog, &checks, text, 100_000).map(|v| format!("{} {}", v.property.name(), v.line))
}

#[test]
fn a_violation_witness_replays_and_a_lying_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let (out, text) = verify(dir.path(), PICK, &[]);
    assert!(out.starts_with("FALSE(unreach-call)"), "{out}");
    assert!(
        out.contains("validated: its replay violates unreach-call at line 10"),
        "{out}"
    );
    assert_eq!(witness::problems(&text), Vec::<String>::new());
    // x, then the loop condition three times (1, 1, 0), each at its call's `)`.
    assert!(text.contains("\\result == 7"), "{text}");
    assert_eq!(text.matches("type: function_return").count(), 4, "{text}");
    assert!(text.contains("column: 33"), "{text}");
    assert_eq!(check(dir.path(), &text), Ok("unreach-call 10".into()));
    let lie = text.replacen("\\result == 7", "\\result == 6", 1);
    assert!(check(dir.path(), &lie).is_err());
    // A waypoint at the wrong column is never passed.
    let moved = text.replacen("column: 33", "column: 12", 1);
    assert!(check(dir.path(), &moved).is_err());
}

#[test]
fn branching_waypoints_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let src = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    return 0;
  }
  reach_error();
  return 0;
}
";
    std::fs::write(dir.path().join("p.c"), src).unwrap();
    let file = dir.path().join("p.c").display().to_string();
    let hash = shapecheck_runtime::witness::sha256_hex(src.as_bytes());
    let witness = |branch: &str| {
        format!(
            "- entry_type: violation_sequence
  metadata:
    format_version: '2.0'
    uuid: 4412af70-389a-475e-849c-e57e5b92019c
    creation_time: 2026-11-24T15:35:00+01:00
    producer: {{name: hand, version: n/a}}
    task:
      input_files: ['{file}']
      input_file_hashes: {{'{file}': {hash}}}
      specification: G ! call(reach_error())
      data_model: ILP32
      language: C
  content:
  - segment:
    - waypoint:
        type: branching
        action: follow
        location: {{file_name: '{file}', line: 5, column: 3, function: main}}
        constraint: {{value: '{branch}'}}
  - segment:
    - waypoint:
        type: target
        action: follow
        location: {{file_name: '{file}', line: 8, column: 3, function: main}}
"
        )
    };
    assert_eq!(witness::problems(&witness("false")), Vec::<String>::new());
    // x = 0 (no waypoint pins it) takes the false branch.
    assert_eq!(
        check(dir.path(), &witness("false")),
        Ok("unreach-call 8".into())
    );
    assert!(check(dir.path(), &witness("true")).is_err());
}

#[test]
fn broken_witnesses_fail_the_schema_and_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (_, text) = verify(dir.path(), PICK, &[]);
    let without_target = text.replace("type: target", "type: function_enter");
    assert!(!witness::problems(&without_target).is_empty());
    let bad_version = text.replace("format_version: '2.0'", "format_version: '1.0'");
    assert!(!witness::problems(&bad_version).is_empty());
    let zero_column = text.replacen("column: 33", "column: 0", 1);
    assert!(!witness::problems(&zero_column).is_empty());
    let no_hash = text.replace("input_file_hashes:", "input_file_hash:");
    assert!(!witness::problems(&no_hash).is_empty());
}

#[test]
fn correctness_witnesses_state_the_template_invariant_and_the_data_model() {
    let dir = tempfile::tempdir().unwrap();
    let src = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int lo = x, hi = x;
  while (__VERIFIER_nondet_int()) {
    x = __VERIFIER_nondet_int();
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (lo > hi) reach_error();
  return 0;
}
";
    let args = ["--engine", "template", "--data-model", "LP64"];
    let (out, text) = verify(dir.path(), src, &args);
    assert!(out.starts_with("TRUE"), "{out}");
    assert_eq!(witness::problems(&text), Vec::<String>::new());
    assert!(text.contains("entry_type: invariant_set"), "{text}");
    assert!(text.contains("data_model: LP64"), "{text}");
    assert!(text.contains("type: loop_invariant"), "{text}");
    assert!(text.contains("line: 6"), "{text}");
    assert!(
        text.contains("(long long)lo - (long long)hi <= 0LL"),
        "{text}"
    );
    // No witness for UNKNOWN.
    let other = tempfile::tempdir().unwrap();
    let (out, text) = verify(
        other.path(),
        src,
        &["--engine", "explicit", "--max-steps", "1"],
    );
    assert!(out.starts_with("UNKNOWN"), "{out}");
    assert!(text.is_empty());
    // A certificate that states nothing in C (a complete explicit state space): an empty,
    // valid invariant set.
    let finite = "extern void reach_error(void);\nint main(void) { int i = 0; while (i < 3) i++; if (i != 3) reach_error(); return 0; }\n";
    let (out, text) = verify(other.path(), finite, &["--engine", "explicit"]);
    assert!(out.starts_with("TRUE"), "{out}");
    assert!(out.contains("the certificate states nothing in C"), "{out}");
    assert!(text.contains("content: []"), "{text}");
    assert_eq!(witness::problems(&text), Vec::<String>::new());
}

#[test]
fn the_validate_command_replays_a_witness_file() {
    let dir = tempfile::tempdir().unwrap();
    let (_, text) = verify(dir.path(), PICK, &[]);
    let run = |witness: &str| {
        let w = dir.path().join("v.yml");
        std::fs::write(&w, witness).unwrap();
        Command::new(env!("CARGO_BIN_EXE_shapecheck"))
            .arg("validate")
            .arg(dir.path().join("p.c"))
            .arg("--witness")
            .arg(&w)
            .output()
            .unwrap()
    };
    let ok = run(&text);
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("VALID: the replay violates"));
    let lie = run(&text.replacen("\\result == 7", "\\result == 6", 1));
    assert_eq!(lie.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&lie.stdout).starts_with("INVALID:"));
    let broken = run("- not a witness");
    assert_eq!(broken.status.code(), Some(1));
    let missing = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args([
            "validate",
            "/nonexistent.c",
            "--witness",
            "/nonexistent.yml",
        ])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

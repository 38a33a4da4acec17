//! End-to-end tests: every C program under `tests/programs/` is verified with the CLI and its
//! first output line compared with the `// expect:` header (see tests/programs/README.md).

#[path = "common/witness.rs"]
mod witness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

struct Case {
    file: PathBuf,
    check: String,
    expect: String,
    reason: Option<String>,
    model: Option<String>,
    malloc: Option<String>,
    timeout: Option<String>,
}

fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| {
            l.strip_prefix("//")?
                .trim()
                .strip_prefix(key)
                .map(|v| v.trim().to_string())
        })
}

fn cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut out = vec![];
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs.into_iter().filter(|d| d.is_dir()) {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for file in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "c"))
        {
            let text = std::fs::read_to_string(&file).unwrap();
            let check =
                header(&text, "check:").unwrap_or_else(|| panic!("{}: no check:", file.display()));
            let expect = header(&text, "expect:")
                .unwrap_or_else(|| panic!("{}: no expect:", file.display()));
            let reason = header(&text, "expect-reason:");
            let model = header(&text, "data-model:");
            let malloc = header(&text, "malloc:");
            let timeout = header(&text, "timeout:");
            out.push(Case {
                file,
                check,
                expect,
                reason,
                model,
                malloc,
                timeout,
            });
        }
    }
    out
}

/// The time limit of a case, in seconds.
fn timeout(c: &Case) -> u64 {
    c.timeout.as_deref().map_or(60, |t| {
        t.parse()
            .unwrap_or_else(|_| panic!("{}: bad timeout: {t}", c.file.display()))
    })
}

/// Whether a failure is an UNKNOWN for lack of time, which a loaded machine can cause: such a
/// case is run again, alone and with twice the time, before it counts as failed.
fn ran_out_of_time(c: &Case, failure: &str) -> bool {
    c.expect != "UNKNOWN"
        && failure.contains("got \"UNKNOWN\"")
        && (failure.contains("time limit") || failure.contains("canceled"))
}

/// Runs one case; returns a failure description.
fn run(c: &Case, seconds: u64) -> Option<String> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let witness = dir.path().join("witness.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(["verify", "--timeout", &seconds.to_string()])
        .args(["--check", &c.check])
        .arg("--witness")
        .arg(&witness)
        .args(["--data-model", c.model.as_deref().unwrap_or("ILP32")])
        .args(["--malloc", c.malloc.as_deref().unwrap_or("may-fail")])
        .arg(&c.file)
        .output()
        .expect("run shapecheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or("");
    let name = c
        .file
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(&c.file)
        .display();
    if !out.status.success() || first != c.expect {
        let detail: Vec<&str> = stdout.lines().skip(1).take(3).collect();
        return Some(format!(
            "{name}: expected {}, got {first:?} (exit {:?}) {detail:?} {}",
            c.expect,
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if let Some(r) = &c.reason
        && !stdout.contains(r.as_str())
    {
        return Some(format!(
            "{name}: the explanation does not mention {r:?}:\n{stdout}"
        ));
    }
    check_witness(&name.to_string(), first, &stdout, &witness)
}

/// A decided verdict comes with a witness of format 2.0; a violation witness replays.
fn check_witness(name: &str, verdict: &str, stdout: &str, path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok();
    match (verdict, text) {
        ("UNKNOWN", None) => None,
        ("UNKNOWN", Some(_)) => Some(format!("{name}: a witness for UNKNOWN")),
        (_, None) => Some(format!("{name}: no witness for {verdict}")),
        (_, Some(text)) => {
            let problems = witness::problems(&text);
            if !problems.is_empty() {
                return Some(format!(
                    "{name}: the witness breaks the format: {problems:?}"
                ));
            }
            let validated = stdout.contains("validated: its replay violates")
                || stdout.contains("cannot be pinned by waypoints");
            (verdict.starts_with("FALSE") && !validated)
                .then(|| format!("{name}: the violation witness does not replay:\n{stdout}"))
        }
    }
}

#[test]
fn corpus_verdicts_match_headers() {
    let cases = cases();
    assert!(
        cases.len() >= 60,
        "the corpus shrank to {} programs",
        cases.len()
    );
    let failures = Mutex::new(vec![]);
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    let Some(c) = cases.get(i) else { break };
                    if let Some(f) = run(c, timeout(c)) {
                        failures.lock().unwrap().push((c, f));
                    }
                }
            });
        }
    });
    let failures: Vec<String> = failures
        .into_inner()
        .unwrap()
        .into_iter()
        .filter_map(|(c, f)| {
            if !ran_out_of_time(c, &f) {
                return Some(f);
            }
            run(c, 2 * timeout(c)).map(|again| format!("{f}\n  and again: {again}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} programs failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn every_correct_program_has_a_buggy_twin() {
    let cases = cases();
    for c in cases
        .iter()
        .filter(|c| c.expect == "TRUE" || c.expect == "UNKNOWN")
    {
        let stem = c.file.file_stem().unwrap().to_string_lossy().to_string();
        let twin = c.file.with_file_name(format!("{stem}_bug.c"));
        let t = cases.iter().find(|x| x.file == twin);
        let t = t.unwrap_or_else(|| panic!("{} has no twin {}", c.file.display(), twin.display()));
        assert!(
            t.expect.starts_with("FALSE("),
            "{}: twin must be FALSE",
            twin.display()
        );
    }
}

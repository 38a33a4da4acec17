//! Seed 000's Table 1 benchmarks (`benchmarks/seed-000/`): the GDSL 1.4 list and tree clients
//! and Fig. 1. Every buggy twin `<name>_bug.c` must be answered `FALSE(unreach-call)` with a
//! replayed trace, and never `TRUE` by the shape analysis alone; the correct programs in
//! [`PROVED`] must be `TRUE` by the lazy shape analysis with a re-checked certificate, the
//! others must not get a FALSE answer; every correct program has a twin.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/seed-000");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|f| f.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    files
}

fn is_twin(file: &Path) -> bool {
    file.file_stem()
        .unwrap()
        .to_string_lossy()
        .ends_with("_bug")
}

/// Verifies one program; returns a failure description.
/// The correct programs the lazy shape analysis proves within the test's time limit: all of
/// Table 1 and Fig. 1 (a correct program missing here must still not be FALSE).
const PROVED: [&str; 15] = [
    "fig1",
    "cancel_link",
    "cancel_insert_after",
    "cancel_insert_before",
    "cancel_remove",
    "acyclic_link",
    "acyclic_insert_after",
    "acyclic_insert_before",
    "acyclic_remove",
    "bintree_rotate_left",
    "bintree_rotate_right",
    "bintree_rotate_left_right",
    "treep_rotate_left",
    "treep_rotate_right",
    "treep_rotate_left_right",
];

fn stem(file: &Path) -> String {
    file.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The shape analysis alone must never prove a buggy twin (it is sound: a TRUE here would be
/// a wrong verdict that the explicit engine only hides in the default mode).
fn shape_only_twin(file: &Path) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(["verify", "--check", "unreach-call", "--engine", "shape"])
        .args(["--timeout", "8"])
        .arg(file)
        .output()
        .expect("run shapecheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or("");
    (first == "TRUE" || !out.status.success()).then(|| {
        format!(
            "{}: the shape analysis alone answered {first:?} (exit {:?}) for a buggy twin",
            file.file_name().unwrap().to_string_lossy(),
            out.status.code()
        )
    })
}

/// Verifies one program (twins with the default engines and with the shape analysis alone,
/// correct programs with the shape analysis); returns a failure description.
fn run(file: &Path) -> Option<String> {
    if is_twin(file)
        && let Some(wrong) = shape_only_twin(file)
    {
        return Some(wrong);
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_shapecheck"));
    cmd.args(["verify", "--check", "unreach-call"]);
    if is_twin(file) {
        cmd.args(["--timeout", "60"]);
    } else {
        cmd.args(["--engine", "shape", "--timeout", "60"]);
    }
    let out = cmd.arg(file).output().expect("run shapecheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or("");
    let proved = PROVED.contains(&stem(file).as_str());
    let ok = if is_twin(file) {
        first == "FALSE(unreach-call)" && stdout.contains("replayed concretely")
    } else if proved {
        first == "TRUE" && stdout.contains("certificate re-checked")
    } else {
        first == "TRUE" || first == "UNKNOWN"
    };
    if ok && out.status.success() {
        return None;
    }
    let want = if is_twin(file) {
        "FALSE(unreach-call)"
    } else if proved {
        "TRUE with a re-checked certificate"
    } else {
        "TRUE or UNKNOWN"
    };
    let detail: Vec<&str> = stdout.lines().skip(1).take(3).collect();
    Some(format!(
        "{}: expected {want}, got {first:?} (exit {:?}) {detail:?} {}",
        file.file_name().unwrap().to_string_lossy(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    ))
}

#[test]
fn table1_verdicts() {
    let files = programs();
    let correct = files.iter().filter(|f| !is_twin(f)).count();
    assert!(
        correct >= 15,
        "expected Fig. 1 and the 14 programs of Table 1, found {correct} correct programs"
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
                    let Some(f) = files.get(i) else { break };
                    if let Some(msg) = run(f) {
                        failures.lock().unwrap().push(msg);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} programs failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn every_correct_program_has_a_buggy_twin() {
    let files = programs();
    for f in files.iter().filter(|f| !is_twin(f)) {
        let stem = f.file_stem().unwrap().to_string_lossy();
        let twin = f.with_file_name(format!("{stem}_bug.c"));
        assert!(
            files.contains(&twin),
            "{} has no twin {}",
            f.display(),
            twin.display()
        );
    }
    for t in files.iter().filter(|f| is_twin(f)) {
        let stem = t.file_stem().unwrap().to_string_lossy();
        let orig = t.with_file_name(format!("{}.c", stem.trim_end_matches("_bug")));
        assert!(
            files.contains(&orig),
            "{} is the twin of no program",
            t.display()
        );
    }
}

/// The program text without comments, so that GDSL's signatures quoted there do not count.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, after)| after);
            out.push('\n');
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The clients stay within what a TVLA-style shape analysis models: pointer variables and
/// pointer fields, no `&`, no pointers to pointers, and no integer counter bounding the checks
/// (the former `nodes`, `depth` and `len` bounds); GDSL's `*t = rn` relinking is in the client.
#[test]
fn programs_are_pointer_only() {
    for f in programs() {
        let text = code(&std::fs::read_to_string(&f).unwrap());
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !text.replace("&&", "").contains('&'),
            "{name}: address-of `&`"
        );
        for bad in [
            "tree_t *", "node_t *", "List *", "nodes", "depth", "len++", "len >",
        ] {
            assert!(!text.contains(bad), "{name}: `{bad}`");
        }
        // No recursion: a function definition (a line at column 0 ending in `{`) up to its
        // closing `}` at column 0 does not call itself.
        let mut lines = text.lines();
        while let Some(head) = lines.next() {
            if head.starts_with(char::is_whitespace) || !head.ends_with('{') {
                continue;
            }
            let Some((before, _)) = head.split_once('(') else {
                continue;
            };
            let fun = before.rsplit([' ', '*']).next().unwrap_or("");
            for line in lines.by_ref().take_while(|l| *l != "}") {
                assert!(
                    !line.contains(&format!("{fun}(")),
                    "{name}: {fun} calls itself: {line:?}"
                );
            }
        }
    }
}

#[test]
fn headers_state_the_expected_verdict() {
    for f in programs() {
        let text = std::fs::read_to_string(&f).unwrap();
        let first = text.lines().next().unwrap_or("");
        if !first.starts_with("// Table 1 (seed 000)") {
            continue; // fig1.c keeps the paper's block comment
        }
        let want = if is_twin(&f) {
            "Expected: FALSE(unreach-call)"
        } else {
            "Expected: TRUE"
        };
        assert!(first.ends_with(want), "{}: header {first:?}", f.display());
        if is_twin(&f) {
            // The second line names the buggy line, which carries a `/* BUG: ... */` mark.
            let line: usize = text
                .lines()
                .nth(1)
                .and_then(|l| l.strip_prefix("// Buggy line: "))
                .and_then(|l| l.split('.').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{}: no `// Buggy line: N.` line", f.display()));
            let marked = text.lines().nth(line - 1).unwrap_or("");
            assert!(
                marked.contains("/* BUG:"),
                "{}: line {line} is not marked BUG: {marked:?}",
                f.display()
            );
        }
    }
}

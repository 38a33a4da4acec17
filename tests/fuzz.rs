//! Smoke test of the fuzzer (`shapecheck-fuzz fuzz`): each target runs a fixed, small number
//! of inputs with a fixed seed and must find no crash. Mutators and generators that find the
//! crashes listed in `tests/fuzz/regressions/README.md` (being fixed) are switched off with
//! `--skip`; `SHAPECHECK_FUZZ_SKIP` replaces that list (empty: run every generator) and
//! `SHAPECHECK_FUZZ_ITERATIONS` replaces the number of inputs of every target. The regression
//! inputs themselves are replayed by the ignored test `regressions_do_not_crash`
//! (`cargo test --release --test fuzz -- --ignored`).

use std::path::PathBuf;
use std::process::Command;

/// Switched off until the known crashes are fixed: deep nesting (stack overflows in the C
/// front end and the spec parser, exponential parse time of `--` chains), columns past 65536
/// (a panic in dsl/src/diag.rs), odd `--timeout` values and a closed stdout (CLI panics).
const KNOWN: &str = "deep-nesting,long-line,long-ident,odd-timeout,broken-pipe";

fn fuzzer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shapecheck-fuzz"))
}

fn artifacts(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("fuzz-smoke")
        .join(name)
}

fn smoke(target: &str, iterations: u64) {
    let skip = std::env::var("SHAPECHECK_FUZZ_SKIP").unwrap_or_else(|_| KNOWN.to_string());
    let count: u64 = std::env::var("SHAPECHECK_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(iterations);
    let dir = artifacts(target);
    let _ = std::fs::remove_dir_all(&dir);
    let mut cmd = fuzzer();
    cmd.args(["fuzz", "--target", target, "--seed", "1", "--no-external"])
        .arg(format!("--iterations={count}"))
        .arg(format!("--skip={skip}"))
        .args([
            "--minimise",
            "60",
            "--cli-timeout",
            "60",
            "--exec-timeout",
            "30",
        ])
        .arg("--shapecheck")
        .arg(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("--artifacts")
        .arg(&dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let out = cmd.output().expect("run shapecheck-fuzz");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "new crashes in target {target} (inputs saved in {}):\n{table}\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(table.contains(target), "no summary row: {table}");
}

#[test]
fn c_frontend_smoke() {
    smoke("c-frontend", 200);
}

#[test]
fn spec_smoke() {
    smoke("spec", 200);
}

#[test]
fn cli_smoke() {
    smoke("cli", 30);
}

#[test]
#[ignore = "known crashes being fixed: see tests/fuzz/regressions/README.md"]
fn regressions_do_not_crash() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("regressions folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "c" || e == "shape" || e == "args")
        })
        .collect();
    files.sort();
    let out = fuzzer()
        .arg("replay")
        .arg("--shapecheck")
        .arg(env!("CARGO_BIN_EXE_shapecheck"))
        .args(&files)
        .output()
        .expect("run shapecheck-fuzz replay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

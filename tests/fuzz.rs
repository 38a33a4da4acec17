//! Smoke test of the fuzzer (`shapecheck-fuzz fuzz`): each target runs a fixed, small number
//! of inputs with a fixed seed, every mutator and generator on, and must find no crash
//! (`SHAPECHECK_FUZZ_SKIP` switches generators off, `SHAPECHECK_FUZZ_ITERATIONS` replaces the
//! number of inputs of every target). The crashes the fuzzer found, listed in
//! `tests/fuzz/regressions/README.md`, are replayed by `regressions_do_not_crash`.

use std::path::PathBuf;
use std::process::Command;

fn fuzzer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shapecheck-fuzz"))
}

fn artifacts(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("fuzz-smoke")
        .join(name)
}

fn smoke(target: &str, iterations: u64) {
    let skip = std::env::var("SHAPECHECK_FUZZ_SKIP").unwrap_or_default();
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

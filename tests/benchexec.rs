//! The BenchExec tool-info module (scripts/benchexec/shapecheck_benchexec/shapecheck.py),
//! tested with the real BenchExec (unpacked into .deps/benchexec by `make setup`) against
//! runs of the real binary: see scripts/benchexec/test_shapecheck.py.

use std::path::Path;
use std::process::Command;

#[test]
fn the_tool_info_module_runs_shapecheck_as_benchexec_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let benchexec = root.join(".deps/benchexec");
    if !benchexec.join(".complete").exists() {
        eprintln!("skipped: BenchExec is not unpacked (run scripts/setup-benchexec.sh)");
        return;
    }
    let path = std::env::join_paths([benchexec, root.join("scripts/benchexec")]).unwrap();
    let out = Command::new("python3")
        .arg(root.join("scripts/benchexec/test_shapecheck.py"))
        .env("PYTHONPATH", path)
        .env("SHAPECHECK_BIN", env!("CARGO_BIN_EXE_shapecheck"))
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// BenchExec's own checker of tool-info modules (`python3 -m benchexec.test_tool_info`)
/// accepts the module: it finds the binary, reads its version (with the commit) and builds
/// the command line for an SV-Benchmarks task.
#[test]
fn benchexec_test_tool_info_accepts_the_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let benchexec = root.join(".deps/benchexec");
    let bin = Path::new(env!("CARGO_BIN_EXE_shapecheck"));
    if !benchexec.join(".complete").exists() || !bin.starts_with(root.join("target/release")) {
        eprintln!("skipped: BenchExec is not unpacked, or the binary is not in target/release");
        return;
    }
    let path = std::env::join_paths([benchexec, root.join("scripts/benchexec")]).unwrap();
    let out = Command::new("python3")
        .args([
            "-m",
            "benchexec.test_tool_info",
            "shapecheck_benchexec.shapecheck",
        ])
        .arg("--tool-directory")
        .arg(root)
        .arg("--no-container")
        .env("PYTHONPATH", path)
        .output()
        .expect("python3 runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Version: “0.1.0 (commit "), "{text}");
    assert!(text.contains("Command line SV-Benchmarks task:"), "{text}");
    assert!(text.contains("'--data-model', 'ILP32'"), "{text}");
}

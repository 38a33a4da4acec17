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

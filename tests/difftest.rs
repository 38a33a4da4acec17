//! A short differential soundness run (`shapecheck-fuzz difftest`): 12 generated programs with
//! a fixed seed, each verified for unreach-call, valid-memsafety and valid-memcleanup, every
//! TRUE cross-checked on 30 random runs of the program compiled with ASan/UBSan and every FALSE
//! replayed on its counterexample's inputs. Fails on a wrong TRUE, a suspected wrong FALSE or
//! a crash; skipped (with a message) where no C compiler with `-fsanitize=address` works.
//! The long run is `make difftest DIFF_PROGRAMS=10000`.

use std::process::Command;

#[test]
fn short_difftest() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("difftest-short");
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck-fuzz"))
        .args(["difftest", "--programs", "12", "--seed", "1", "--jobs", "2"])
        .args(["--timeout", "5", "--runs", "30"])
        .arg("--shapecheck")
        .arg(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("--artifacts")
        .arg(&dir)
        .output()
        .expect("run shapecheck-fuzz difftest");
    let table = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(4) {
        eprintln!("{table}");
        return;
    }
    assert!(
        out.status.success(),
        "difftest found defects (saved in {}):\n{table}\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(table.contains("programs generated: 12"), "{table}");
}

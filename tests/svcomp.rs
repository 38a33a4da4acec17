//! SV-COMP regression: runs `shapecheck bench` over ../shared/benchmarks/sv-comp when that
//! folder exists (it is skipped cleanly otherwise). Fails on any wrong verdict, on any task the
//! bench could not read, on any crash of the verifier, and when fewer than 75% of the pairs whose expected verdict is false
//! are answered FALSE with the right property. Exploration limits are lowered so that the run
//! stays within a few minutes on two cores; `make bench` runs the full-limit sweep.

use std::path::Path;
use std::process::Command;

#[test]
fn svcomp_bench_has_no_wrong_verdicts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/sv-comp");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let json = std::env::temp_dir().join(format!("shapecheck-svcomp-{}.json", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("bench")
        .arg(&root)
        .args([
            "--timeout",
            "15",
            "--verifier-arg=--max-steps=400000",
            "--json",
        ])
        .arg(&json)
        .output()
        .expect("run shapecheck bench");
    let table = String::from_utf8_lossy(&out.stdout);
    println!("{table}");
    assert_eq!(
        out.status.code(),
        Some(0),
        "bench reported wrong verdicts or bad tasks:\n{table}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let _ = std::fs::remove_file(&json);
    let results = report["results"].as_array().expect("results");
    let expected_false = results
        .iter()
        .filter(|r| r["expected_verdict"] == false)
        .count();
    let correct_false = results
        .iter()
        .filter(|r| r["category"] == "correct-false")
        .count();
    assert!(expected_false > 0);
    let crashed: Vec<_> = results
        .iter()
        .filter(|r| r["category"] == "error")
        .map(|r| r["task"].to_string())
        .collect();
    assert!(
        crashed.is_empty(),
        "the verifier failed (crash or input error) on {crashed:?}"
    );
    assert!(
        correct_false * 4 >= expected_false * 3,
        "only {correct_false} of {expected_false} expected-false pairs answered FALSE with the right property"
    );
}

/// Unbounded SV-COMP tasks that only the lazy shape analysis decides: valid-memsafety (with
/// valid-memtrack) of a queue built and emptied cell by cell, of a tree built by descents
/// and freed leaf by leaf, and of lists hanging off the cells of a list of buckets (the root
/// instances of reachability through the buckets' `list` field).
#[test]
fn shape_analysis_proves_unbounded_memsafety_tasks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/sv-comp");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let prp = root.join("properties/valid-memsafety.prp");
    for task in [
        "forester-heap/sll-queue-1.i",
        "memsafety-ext/tree_cnstr.i",
        "forester-heap/sll-buckets-1.i",
        "memsafety-ext/tree_stack.i",
        "memsafety-ext/tree_parent_ptr.i",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
            .args(["verify", "--timeout", "60", "--property"])
            .arg(&prp)
            .arg(root.join(task))
            .output()
            .expect("run shapecheck verify");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("TRUE\n"), "{task}: {text}");
        assert!(
            text.contains("proof: lazy shape analysis"),
            "{task}: {text}"
        );
    }
}

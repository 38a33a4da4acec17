//! `shapecheck classify` end to end: runs the binary on seed 000's Fig. 1 program
//! (benchmarks/seed-000/fig1.c), on small programs under tests/classify/ (an sll, a binary
//! tree, a tree with parent pointers, a circular list) and, when ../shared/benchmarks/sv-comp
//! exists, on SV-COMP programs, and checks from the JSON output which structures are enabled
//! for which fields. Also checks the exit code and message on bad input.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shapecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(args)
        .output()
        .expect("run shapecheck")
}

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The JSON report of `classify` on `file` with extra arguments.
fn classify(file: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["classify", file.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    let o = shapecheck(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON output")
}

/// What classify found for one struct type: enabled bindings (with the finest flag) and the
/// best picks, as text such as `dll[f=succ, b=pred]`.
struct Found {
    enabled: Vec<(String, bool)>,
    best: Vec<String>,
    samples: usize,
}

impl Found {
    fn of(report: &Value, name: &str) -> Found {
        let t = report["types"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["struct"] == name)
            .unwrap_or_else(|| panic!("no type {name} in {report:#}"));
        let texts = |v: &Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect()
        };
        Found {
            enabled: t["enabled"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    let text = e["text"].as_str().unwrap().to_string();
                    (text, e["finest"] == true)
                })
                .collect(),
            best: texts(&t["best"]),
            samples: t["samples"].as_array().unwrap().len(),
        }
    }

    fn has(&self, binding: &str) -> bool {
        self.enabled.iter().any(|(b, _)| b == binding)
    }

    fn finest(&self, binding: &str) -> bool {
        self.enabled.iter().any(|(b, f)| b == binding && *f)
    }

    fn has_structure(&self, name: &str) -> bool {
        let prefix = format!("{name}[");
        self.enabled.iter().any(|(b, _)| b.starts_with(&prefix))
    }
}

#[test]
fn fig1_is_a_dll_over_succ_and_pred_and_not_a_tree() {
    let r = classify(&manifest("benchmarks/seed-000/fig1.c"), &[]);
    assert_eq!(r["exploration"]["enough_samples"], true, "{r:#}");
    let f = Found::of(&r, "struct node");
    assert_eq!(f.samples, 5);
    assert!(f.finest("dll[f=succ, b=pred]"), "{:?}", f.enabled);
    assert!(f.has("sll[f=succ]"));
    assert!(!f.has_structure("tree"), "{:?}", f.enabled);
    assert!(!f.has_structure("treep"));
    assert!(!f.has_structure("csll"));
    assert_eq!(f.best, ["dll[f=succ, b=pred]"]);
}

#[test]
fn fig1_text_output_names_the_binding() {
    let file = manifest("benchmarks/seed-000/fig1.c");
    let o = shapecheck(&["classify", file.to_str().unwrap(), "--verbose"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("struct node: dll[f=succ, b=pred] (finest)"),
        "{out}"
    );
    assert!(out.contains("struct node => dll[f=succ, b=pred]"), "{out}");
    assert!(
        out.contains("rejected tree[l=succ, r=pred]: tree[succ, pred] is false on sample"),
        "{out}"
    );
}

#[test]
fn sll_program_is_an_sll_and_not_a_dll() {
    let r = classify(&manifest("tests/classify/sll.c"), &[]);
    let f = Found::of(&r, "struct node");
    assert!(f.finest("sll[f=next]"), "{:?}", f.enabled);
    assert!(!f.has_structure("dll"));
    assert!(!f.has_structure("csll"));
}

#[test]
fn binary_tree_program_is_a_tree() {
    let r = classify(&manifest("tests/classify/tree.c"), &[]);
    let f = Found::of(&r, "struct tnode");
    assert!(f.finest("tree[l=left, r=right]"), "{:?}", f.enabled);
    assert!(!f.has_structure("dll"));
    assert_eq!(f.best, ["tree[l=left, r=right]"]);
}

#[test]
fn tree_with_parent_pointers_is_a_treep() {
    let r = classify(&manifest("tests/classify/treep.c"), &[]);
    let f = Found::of(&r, "struct tnode");
    assert!(
        f.finest("treep[l=left, r=right, p=parent]"),
        "{:?}",
        f.enabled
    );
    // tree is enabled too, but treep refines it.
    assert!(f.has("tree[l=left, r=right]"));
    assert!(!f.finest("tree[l=left, r=right]"));
    assert!(!f.has_structure("dll"));
    assert_eq!(f.best, ["treep[l=left, r=right, p=parent]"]);
}

#[test]
fn circular_list_is_a_csll_and_not_an_sll() {
    let r = classify(&manifest("tests/classify/csll.c"), &[]);
    let f = Found::of(&r, "struct cell");
    assert!(f.finest("csll[f=next]"), "{:?}", f.enabled);
    assert!(!f.has_structure("sll"));
}

#[test]
fn missing_file_is_an_input_error() {
    let o = shapecheck(&["classify", "/nonexistent/prog.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file"));
}

const USER_SPEC: &str = "invariant acyclic[f] := forall v. !f+(v, v);\n\
    predicate reach[f]<x>(v) := exists u. x(u) && f*(u, v);\n\
    structure chain[f] {\n  invariant acyclic[f];\n  family reachability = reach[f];\n}\n";

#[test]
fn user_spec_replaces_or_extends_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("chain.shape");
    std::fs::write(&spec, USER_SPEC).unwrap();
    let file = manifest("tests/classify/sll.c");
    let spec_arg = spec.to_str().unwrap();
    let r = classify(&file, &["--spec", spec_arg]);
    let f = Found::of(&r, "struct node");
    assert!(f.has("chain[f=next]"), "{:?}", f.enabled);
    assert!(!f.has_structure("sll"));
    let bad = dir.path().join("bad.shape");
    std::fs::write(&bad, "structure broken[f] { invariant nosuch[f]; }\n").unwrap();
    let o = shapecheck(&[
        "classify",
        file.to_str().unwrap(),
        "--spec",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr).contains("nosuch"));
}

#[test]
fn user_spec_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("chain.shape");
    // With the library loaded first, the user spec may use its predicates and invariants.
    let text = "structure chain[f] refines sll[f] {\n  invariant acyclic[f], unshared[f];\n  \
                family reachability = reach[f];\n  \
                family cyclicity = cyclic[f], shared[f] requires reachability;\n  \
                family successors = linked[f], pointed[f];\n}\n";
    std::fs::write(&spec, text).unwrap();
    let file = manifest("tests/classify/sll.c");
    let r = classify(&file, &["--spec", spec.to_str().unwrap(), "--with-library"]);
    let f = Found::of(&r, "struct node");
    assert!(f.finest("chain[f=next]"), "{:?}", f.enabled);
    assert!(f.has("sll[f=next]"));
    assert!(!f.finest("sll[f=next]"));
    // Errors in the user's part name the user's file and line.
    std::fs::write(&spec, "\nstructure chain[f] refines sll[f] {\n}\n").unwrap();
    let o = shapecheck(&[
        "classify",
        file.to_str().unwrap(),
        "--spec",
        spec.to_str().unwrap(),
        "--with-library",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("chain.shape:2:"), "{err}");
}

/// SV-COMP programs with the structure classify must find (skipped when the benchmarks are
/// absent).
#[test]
fn svcomp_programs_are_classified() {
    let root = manifest("../shared/benchmarks/sv-comp");
    if !root.is_dir() {
        eprintln!("skipped: {} does not exist", root.display());
        return;
    }
    let cases = [
        ("list-properties/simple-1.i", "struct node", "sll[f=n]"),
        ("list-properties/list-1.i", "struct node", "sll[f=n]"),
        ("forester-heap/sll-queue-1.i", "struct TSLL", "sll[f=next]"),
        (
            "forester-heap/dll-queue-1.i",
            "struct TSLL",
            "dll[f=next, b=prev]",
        ),
        (
            "forester-heap/dll-sorted-1.i",
            "struct TSLL",
            "dll[f=next, b=prev]",
        ),
        (
            "forester-heap/sll-circular-1.i",
            "struct TSLL",
            "csll[f=next]",
        ),
        (
            "heap-manipulation/tree-1.i",
            "struct node",
            "treep[l=left, r=right, p=parent]",
        ),
        (
            "memsafety-ext/tree_cnstr.i",
            "struct TreeNode",
            "tree[l=left, r=right]",
        ),
    ];
    for (file, ty, expected) in cases {
        let path = root.join(file);
        if !path.is_file() {
            eprintln!("skipped: {} does not exist", path.display());
            continue;
        }
        let r = classify(&path, &["--timeout", "30"]);
        let f = Found::of(&r, ty);
        assert_eq!(f.best, [expected], "{file}: {:?}", f.enabled);
    }
}

#[test]
fn a_linux_style_ring_on_lp64_is_sampled_through_its_head_and_embedded_links() {
    let file = manifest("tests/programs/unreach-call/kernel_table.c");
    let r = classify(&file, &["--data-model", "LP64"]);
    let t = Found::of(&r, "struct list_head");
    assert!(t.samples >= 4, "{r:#}");
    assert!(t.has("csll[f=next]") && t.has("csll[f=prev]"), "{r:#}");
    assert!(!t.has_structure("sll") && !t.has_structure("tree"), "{r:#}");
}

//! The correctness witnesses of shape-analysis proofs state nullness and aliasing facts at
//! loop heads (`p == 0`, `p != q`, ...). Checked here against concrete runs, independently of
//! the code that derived them: every program is run on many input vectors, and at every visit
//! of a loop head each fact the witness states there is evaluated on the concrete state.

use shapecheck_runtime::explicit::exec::State;
use shapecheck_runtime::explicit::memory::{Ptr, Val};
use shapecheck_runtime::explicit::replay::replay_observed;
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::ir::{FuncId, Program, VarId};
use shapecheck_runtime::program::property::PropertySet;
use std::path::Path;
use std::process::Command;

/// Shape-analysis proofs with loops, and the properties they prove.
const PROGRAMS: &[(&str, &str)] = &[
    ("tests/programs/valid-memtrack/unbounded_sll.c", MEMSAFETY),
    (
        "tests/programs/valid-memtrack/tree_leaf_by_leaf.c",
        MEMSAFETY,
    ),
    ("tests/programs/valid-memtrack/main_return.c", MEMSAFETY),
    ("benchmarks/seed-000/fig1.c", "unreach-call"),
    ("benchmarks/seed-000/acyclic_insert_after.c", "unreach-call"),
    ("benchmarks/seed-000/cancel_remove.c", "unreach-call"),
    ("benchmarks/seed-000/bintree_rotate_left.c", "unreach-call"),
    (
        "benchmarks/seed-000/treep_rotate_left_right.c",
        "unreach-call",
    ),
];

const MEMSAFETY: &str = "valid-memtrack,valid-deref,valid-free";

/// A loop invariant of a witness: where, and its `a op b` conjuncts.
struct Claim {
    function: String,
    line: u32,
    column: u32,
    conjuncts: Vec<(String, bool, String)>,
}

/// The loop invariants of the correctness witness `verify --engine shape` writes.
fn claims(file: &Path, checks: &str) -> Vec<Claim> {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("w.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(file)
        .args(["--check", checks, "--engine", "shape", "--witness"])
        .arg(&w)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("TRUE"), "{}: {stdout}", file.display());
    let text = std::fs::read_to_string(&w).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let content = doc[0]["content"].as_sequence().unwrap();
    content
        .iter()
        .map(|item| {
            let inv = &item["invariant"];
            let loc = &inv["location"];
            assert_eq!(inv["type"].as_str(), Some("loop_invariant"));
            Claim {
                function: loc["function"].as_str().unwrap().to_string(),
                line: loc["line"].as_u64().unwrap() as u32,
                column: loc["column"].as_u64().unwrap() as u32,
                conjuncts: inv["value"]
                    .as_str()
                    .unwrap()
                    .split(" && ")
                    .map(conjunct)
                    .collect(),
            }
        })
        .collect()
}

fn conjunct(c: &str) -> (String, bool, String) {
    let (op, eq) = if c.contains(" == ") {
        (" == ", true)
    } else {
        (" != ", false)
    };
    let (a, b) = c
        .split_once(op)
        .unwrap_or_else(|| panic!("not a comparison: {c}"));
    (a.to_string(), eq, b.to_string())
}

/// The pointer `name` holds in the innermost frame of `st` (or a global), `0` for literal 0.
fn value(prog: &Program, st: &State, name: &str) -> Ptr {
    if name == "0" {
        return Ptr::Null;
    }
    let top = st.frames.last().unwrap();
    let named = |(v, _): &(&VarId, &u32)| prog.var(**v).name == name;
    let (_, block) = (top.vars.iter().find(named))
        .or_else(|| st.globals.iter().find(named))
        .unwrap_or_else(|| panic!("no variable {name} in scope"));
    match st.mem.read(*block, 0, prog.model.ptr_bytes()) {
        Some(Val::Ptr(p)) => p,
        other => panic!("{name} holds {other:?}, not a pointer"),
    }
}

/// The loop-head location of a claim.
fn head(prog: &Program, c: &Claim) -> (FuncId, petgraph::graph::NodeIndex) {
    let f = prog.func_by_name(&c.function).unwrap();
    let cfa = &prog.func(f).cfa;
    let loc = cfa
        .node_indices()
        .find(|&n| {
            cfa[n].loop_head
                && cfa
                    .edges(n)
                    .any(|e| (e.weight().line, e.weight().column) == (c.line, c.column))
        })
        .unwrap_or_else(|| panic!("no loop head at {}:{}", c.line, c.column));
    (f, loc)
}

#[test]
fn shape_facts_hold_on_concrete_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut stated, mut checked) = (0, 0);
    for (file, props) in PROGRAMS {
        let path = root.join(file);
        let claims = claims(&path, props);
        let prog = frontend::load(&path).unwrap();
        let checks = PropertySet::parse_list(props).unwrap();
        let heads: Vec<_> = claims.iter().map(|c| head(&prog, c)).collect();
        stated += claims.iter().map(|c| c.conjuncts.len()).sum::<usize>();
        let mut seed = 0x2545_f491_u64;
        for _ in 0..40 {
            let inputs: Vec<i64> = (0..64)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % 4) as i64
                })
                .collect();
            replay_observed(&prog, &checks, &inputs, 20_000, &mut |st| {
                let Some(top) = st.frames.last() else { return };
                for (c, h) in claims.iter().zip(&heads) {
                    if (top.func, top.loc) != *h {
                        continue;
                    }
                    for (a, eq, b) in &c.conjuncts {
                        let same = value(&prog, st, a) == value(&prog, st, b);
                        assert_eq!(same, *eq, "{file}:{}: {a} {b} fails", c.line);
                        checked += 1;
                    }
                }
            });
        }
    }
    assert!(stated >= 20, "the witnesses state {stated} facts");
    assert!(checked >= 100, "only {checked} concrete checks");
}

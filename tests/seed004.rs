//! Seed 004's engine (`--engine bohne`): Bohne's Boolean heaps prove C functions against
//! their contracts with printed invariants (universally quantified Boolean combinations of
//! unary predicates) that a fresh solver re-checks, and refute the buggy twins by a run the
//! function takes concretely (FALSE), never proving one.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bench(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/seed-003")
        .join(name)
}

/// The verdict line and the whole report of `function` in `file` against `spec`.
fn bohne(file: &Path, spec: &Path, function: &str, extra: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(file)
        .args(["--engine", "bohne", "--timeout", "240", "--spec"])
        .arg(spec)
        .args(["--function", function])
        .args(["--check", "unreach-call,valid-deref,valid-free"])
        .args(extra)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fig9(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/seed-004")
        .join(name)
}

fn contract(name: &str, kind: &str) -> PathBuf {
    bench(&format!("contracts/{name}.{kind}.shape"))
}

#[test]
fn functions_meet_their_contracts_with_quantified_invariants() {
    // Budgets are generous for a loaded machine; times are measured by the tables.
    for (name, kind) in [
        ("last", "property"),
        ("create", "property"),
        ("delete_all", "property"),
    ] {
        let out = bohne(
            &bench(&format!("{name}.c")),
            &contract(name, kind),
            name,
            &[],
        );
        assert!(out.starts_with("TRUE"), "{name}:\n{out}");
        assert!(out.contains("Boolean-heap invariants"), "{name}:\n{out}");
        assert!(out.contains("invariant at line"), "{name}:\n{out}");
        assert!(out.contains("forall v."), "{name}:\n{out}");
    }
}

#[test]
fn twins_are_refuted_by_a_replayed_run_and_never_proved() {
    for name in ["last", "create", "delete_all"] {
        let file = bench(&format!("{name}_bug.c"));
        let out = bohne(&file, &contract(name, "property"), name, &[]);
        assert!(out.starts_with("FALSE"), "{name}_bug:\n{out}");
        assert!(out.contains("replayed"), "{name}_bug:\n{out}");
    }
}

#[test]
fn the_object_malloc_returns_keeps_its_cube_after_the_post() {
    // create() links fresh nodes in front: without the post's focus on `v = t'`, the fresh
    // node's cube loses `alloc` and the store `t->n = h` might close a cycle.
    let out = bohne(
        &bench("create.c"),
        &contract("create", "safety"),
        "create",
        &[],
    );
    assert!(out.starts_with("TRUE"), "{out}");
}

#[test]
fn every_context_operator_is_sound() {
    // The Fig. 10 ablation's settings: each may prove less, none proves a twin.
    for ctx in ["none", "full", "instantiated"] {
        let out = bohne(
            &bench("last_bug.c"),
            &contract("last", "property"),
            "last",
            &["--context", ctx],
        );
        assert!(!out.starts_with("TRUE"), "{ctx}:\n{out}");
        let out = bohne(
            &bench("last.c"),
            &contract("last", "property"),
            "last",
            &["--context", ctx],
        );
        assert!(!out.starts_with("FALSE"), "{ctx}:\n{out}");
    }
}

#[test]
fn fig9_procedures_meet_content_contracts_and_their_twins_are_refuted() {
    // content = old content + {n}, stated with two ghosts; DLL.addLast keeps prev the
    // inverse of next. (SortedList.add is proved too, in about 20 s: `benchmarks/seed-004`.)
    for (file, function) in [("dll_add_last", "add_last"), ("list_reverse", "reverse")] {
        let spec = fig9(&format!("contracts/{file}.shape"));
        let out = bohne(&fig9(&format!("{file}.c")), &spec, function, &[]);
        assert!(out.starts_with("TRUE"), "{file}:\n{out}");
        let out = bohne(&fig9(&format!("{file}_bug.c")), &spec, function, &[]);
        assert!(out.starts_with("FALSE"), "{file}_bug:\n{out}");
    }
    let spec = fig9("contracts/sorted_list_add.shape");
    let out = bohne(&fig9("sorted_list_add_bug.c"), &spec, "insert", &[]);
    assert!(out.starts_with("FALSE"), "sorted_list_add_bug:\n{out}");
}

#[test]
fn the_skip_list_lane_is_proved_by_correlated_posts() {
    // After the express-lane walk, a cube may leave `sprev<next*>v` open; `prev = sprev;
    // current = sprev->next` then makes `prev'<next*>v` and `current'<next*>v` agree off
    // `prev'`, which a single cube cannot say. The post's split on correlated focus
    // predicates keeps `current == prev->next`, without which `e->nextSub = scurrent` is
    // not known to stay on the list.
    let spec = fig9("contracts/skiplist_lanes.shape");
    let out = bohne(&fig9("skiplist_add.c"), &spec, "add", &[]);
    assert!(out.starts_with("TRUE"), "skiplist_add:\n{out}");
    let out = bohne(&fig9("skiplist_add_bug.c"), &spec, "add", &[]);
    assert!(out.starts_with("FALSE"), "skiplist_add_bug:\n{out}");
}

#[test]
fn trees_are_proved_along_a_backbone_and_their_twins_are_refuted() {
    // `backbone t[left, right]`: content is the set of nodes t-reachable from root; the
    // parent-tree contract also keeps parent the inverse of the tree's edges.
    for file in ["tree_add", "parent_tree_add"] {
        let spec = fig9(&format!("contracts/{file}.shape"));
        let out = bohne(&fig9(&format!("{file}.c")), &spec, "add", &[]);
        assert!(out.starts_with("TRUE"), "{file}:\n{out}");
        assert!(
            out.contains("<t*>"),
            "{file}: the invariant follows the backbone\n{out}"
        );
        let out = bohne(&fig9(&format!("{file}_bug.c")), &spec, "add", &[]);
        assert!(out.starts_with("FALSE(contract)"), "{file}_bug:\n{out}");
        assert!(out.contains("replayed concretely"), "{file}_bug:\n{out}");
    }
}

#[test]
fn a_store_that_shares_a_tree_node_leaves_the_logic() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/seed004/tree_share.c");
    let out = bohne(&file, &fig9("contracts/tree_add.shape"), "add", &[]);
    assert!(out.starts_with("UNKNOWN"), "{out}");
    assert!(out.contains("second parent"), "{out}");
}

#[test]
fn a_tree_node_from_malloc_is_proved_once_its_links_are_written() {
    // The logic gives a node from malloc null children; the program must write them before
    // a cut point or a read, or the run leaves the logic.
    let spec = fig9("contracts/tree_insert.shape");
    let out = bohne(&fig9("tree_insert.c"), &spec, "insert", &[]);
    assert!(out.starts_with("TRUE"), "tree_insert:\n{out}");
    let out = bohne(&fig9("tree_insert_bug.c"), &spec, "insert", &[]);
    assert!(
        out.starts_with("FALSE(contract)"),
        "tree_insert_bug:\n{out}"
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/seed004/tree_insert_unwritten.c");
    let out = bohne(&file, &spec, "insert", &[]);
    assert!(out.starts_with("UNKNOWN"), "{out}");
    assert!(out.contains("node from malloc"), "{out}");
}

#[test]
fn content_stated_with_old_is_proved_and_its_twin_refuted() {
    // `old(next*(first, a) && a != null)` is a ghost the precondition fixes at entry.
    let spec = fig9("contracts/dll_add_last_old.shape");
    let out = bohne(&fig9("dll_add_last.c"), &spec, "add_last", &[]);
    assert!(out.starts_with("TRUE"), "dll_add_last:\n{out}");
    let out = bohne(&fig9("dll_add_last_bug.c"), &spec, "add_last", &[]);
    assert!(
        out.starts_with("FALSE(contract)"),
        "dll_add_last_bug:\n{out}"
    );
}

#[test]
fn a_caller_is_proved_through_its_callees_contract() {
    // insert_pair calls insert twice; each call stands for insert's contract, which the
    // engine proves first on insert alone (assume-guarantee).
    let spec = fig9("contracts/tree_insert_pair.shape");
    let out = bohne(&fig9("tree_insert_pair.c"), &spec, "insert_pair", &[]);
    assert!(out.starts_with("TRUE"), "tree_insert_pair:\n{out}");
    assert!(
        out.contains("the calls of `insert` use its contract, proved first"),
        "{out}"
    );
    // The twin drops the tree between the calls: the replay runs insert's real body.
    let out = bohne(&fig9("tree_insert_pair_bug.c"), &spec, "insert_pair", &[]);
    assert!(
        out.starts_with("FALSE(contract)"),
        "tree_insert_pair_bug:\n{out}"
    );
    // A caller that cannot show the callee's precondition, and a callee whose contract
    // does not hold, leave the caller UNKNOWN.
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/seed004");
    let out = bohne(
        &fig9("tree_insert_pair.c"),
        &here.join("tree_insert_weak.shape"),
        "insert_pair",
        &[],
    );
    assert!(out.starts_with("UNKNOWN"), "{out}");
    assert!(out.contains("break the precondition"), "{out}");
    assert!(out.contains("of `insert`"), "{out}");
    let out = bohne(
        &fig9("tree_insert_pair.c"),
        &here.join("tree_insert_wrong.shape"),
        "insert_pair",
        &[],
    );
    assert!(out.starts_with("UNKNOWN"), "{out}");
    assert!(out.contains("which is not proved"), "{out}");
}

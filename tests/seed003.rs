//! Seed 003's engine (`--engine pdr`): PDR over reachability predicates proves the quick
//! benchmarks of `benchmarks/seed-003/` with a printed, re-checked invariant, never proves a
//! buggy program and never answers FALSE itself, says "no inductive invariant over these
//! predicates" when a family the proof needs is removed, and names the construct and line of
//! a program outside its logic. With `--function`, a function alone meets its contract from
//! the spec (parameters in `ensures` read at entry), twins and a too weak precondition are
//! refuted by a run of the model that the function, run concretely from its initial heap,
//! reproduces (FALSE), a run it does not reproduce stays UNKNOWN, and contracts the engine
//! cannot check are refused.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bench(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/seed-003")
        .join(name)
}

fn own(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/seed003")
        .join(name)
}

/// The text report of a PDR run.
fn pdr(p: &Path, check: &str, timeout: &str, extra: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(p)
        .args(["--engine", "pdr", "--check", check, "--timeout", timeout])
        .args(extra)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn verdict(out: &str) -> &str {
    out.lines().next().unwrap_or("")
}

const ALL: &str = "unreach-call,valid-deref,valid-free";

#[test]
fn pdr_proves_the_quick_benchmarks_with_a_printed_invariant() {
    // The budget is generous for a loaded machine; times are measured by `table3`.
    for name in ["delete_all.c", "last.c", "create.c"] {
        let out = pdr(&bench(name), ALL, "240", &[]);
        assert_eq!(verdict(&out), "TRUE", "{name}:\n{out}");
        assert!(out.contains("PDR invariant ("), "{name}:\n{out}");
        assert!(out.contains("invariant at line"), "{name}:\n{out}");
    }
}

#[test]
fn pdr_proves_no_buggy_program_and_never_answers_false() {
    // (delete_all_bug.c leaks: valid-memtrack, checked below.)
    let mut files: Vec<PathBuf> = ["delete_bug.c", "last_bug.c", "create_bug.c"]
        .iter()
        .map(|n| bench(n))
        .collect();
    files.extend(
        [
            "t8_insert_weak_pre.c",
            "t8_filter_null_deref.c",
            "t8_reverse_cycle.c",
        ]
        .iter()
        .map(|n| bench(n)),
    );
    files.push(own("walk_to_bug.c"));
    for p in &files {
        let out = pdr(p, ALL, "30", &[]);
        assert_eq!(verdict(&out), "UNKNOWN", "{}:\n{out}", p.display());
    }
}

#[test]
fn a_bug_is_reported_as_a_run_of_the_model_with_its_line() {
    let out = pdr(&own("walk_to_bug.c"), "valid-deref,valid-free", "60", &[]);
    assert_eq!(verdict(&out), "UNKNOWN", "{out}");
    assert!(
        out.contains("reaches a dereference of null or of unallocated memory at line 29"),
        "{out}"
    );
}

#[test]
fn without_reachability_no_inductive_invariant_exists() {
    let p = own("walk_to.c");
    let full = pdr(&p, "valid-deref,valid-free", "120", &[]);
    assert_eq!(verdict(&full), "TRUE", "{full}");
    let poor = pdr(
        &p,
        "valid-deref,valid-free",
        "120",
        &["--families", "eq,alloc,stable"],
    );
    assert_eq!(verdict(&poor), "UNKNOWN", "{poor}");
    assert!(
        poor.contains("no inductive invariant over these predicates (eq, alloc, stable)"),
        "{poor}"
    );
    // The abstract trace is printed, from the entry to the fault.
    assert!(poor.contains("an abstract trace to"), "{poor}");
}

#[test]
fn a_construct_outside_the_logic_is_named_with_its_line() {
    let out = pdr(&own("int_pointer.c"), "valid-deref,valid-free", "30", &[]);
    assert_eq!(verdict(&out), "UNKNOWN", "{out}");
    assert!(
        out.contains("the variable `p` of a pointer type outside the logic (line 6)"),
        "{out}"
    );
}

#[test]
fn an_unknown_family_is_refused() {
    let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(own("walk_to.c"))
        .args(["--engine", "pdr", "--families", "eq,reachable"])
        .output()
        .expect("run shapecheck");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("reachable"));
}

#[test]
fn two_different_fields_of_a_node_are_not_one_data_value() {
    // `p->lo > p->hi` compares two fields: the data order `dle` tracks one field only, so
    // this twin (the third interval is [4, 3]) must not be proved.
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/unreach-call/split_recent_bug.c");
    let out = pdr(
        &p,
        "unreach-call",
        "60",
        &["--families", "eq,edge,reach,alloc,stable,sorted"],
    );
    assert_eq!(verdict(&out), "UNKNOWN", "{out}");
}

#[test]
fn memtrack_proofs_hold_and_lost_memory_is_never_proved() {
    // A helper's local handed out by `return`, and a list a global still holds at the end,
    // are not lost; every leaky program stays unproved: an overwritten head, a list reached
    // only through its freed head, a helper's node dropped at its return before `abort`, a
    // free loop that stops one node early (here and in the benchmarks).
    for name in ["helper_alloc.c", "global_list.c"] {
        let out = pdr(&own(name), "valid-memsafety", "240", &[]);
        assert_eq!(verdict(&out), "TRUE", "{name}:\n{out}");
        assert!(out.contains("valid-memtrack"), "{name}:\n{out}");
    }
    let mut leaky: Vec<PathBuf> = [
        "leak_drop.c",
        "leak_free_head.c",
        "leak_in_helper.c",
        "helper_alloc_bug.c",
    ]
    .iter()
    .map(|n| own(n))
    .collect();
    leaky.push(bench("delete_all_bug.c"));
    for p in &leaky {
        let out = pdr(p, "valid-memtrack", "60", &[]);
        assert_eq!(verdict(&out), "UNKNOWN", "{}:\n{out}", p.display());
        assert!(out.contains("(a leak)"), "{}:\n{out}", p.display());
    }
}

#[test]
fn without_the_rooted_family_memtrack_has_no_invariant() {
    // Nothing says that no allocated node is garbage: the abstract trace starts at the
    // entry, where the predicates cannot tell an empty heap from a lost node.
    let out = pdr(
        &bench("delete_all.c"),
        "valid-memtrack",
        "120",
        &["--families", "eq,edge,reach,ls,alloc,stable"],
    );
    assert_eq!(verdict(&out), "UNKNOWN", "{out}");
    assert!(
        out.contains("no inductive invariant over these predicates (eq, edge, reach, ls, alloc, stable) excludes allocated memory"),
        "{out}"
    );
}

/// `verify --engine pdr --spec SPEC --function F` on `p`: (exit code, stdout, stderr).
fn contract(p: &Path, spec: &Path, function: &str, extra: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(p)
        .args(["--check", ALL, "--timeout", "240", "--spec"])
        .arg(spec)
        .args(["--function", function])
        .args(extra)
        .output()
        .expect("run shapecheck");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        o.status.code().unwrap_or(-1),
        text(&o.stdout),
        text(&o.stderr),
    )
}

fn contract_file(name: &str) -> PathBuf {
    bench(&format!("contracts/{name}.shape"))
}

#[test]
fn functions_meet_their_contracts_alone_and_twins_do_not() {
    for name in ["delete_all", "last", "create", "delete"] {
        for block in ["safety", "property"] {
            let spec = contract_file(&format!("{name}.{block}"));
            let (code, out, err) = contract(&bench(&format!("{name}.c")), &spec, name, PDR);
            assert_eq!(
                (code, verdict(&out)),
                (0, "TRUE"),
                "{name} {block}:\n{out}{err}"
            );
            assert!(
                out.contains(&format!("`{name}` meets its contract")),
                "{out}"
            );
        }
        // The twin breaks the property: a run of the model shows it, and the function run
        // concretely from that run's initial heap breaks it too.
        let spec = contract_file(&format!("{name}.property"));
        let twin = bench(&format!("{name}_bug.c"));
        let (_, out, err) = contract(&twin, &spec, name, PDR);
        assert_eq!(verdict(&out), "FALSE(contract)", "{name}_bug:\n{out}{err}");
        assert!(
            out.contains("replayed concretely")
                && out.contains("breaks its postcondition")
                && out.contains("the run starts from this heap:"),
            "{name}_bug:\n{out}"
        );
    }
    // Table 8: insert's precondition without `e != null`; the concrete run dereferences it.
    let spec = contract_file("t8_insert_weak_pre");
    let (_, out, _) = contract(&bench("t8_insert_weak_pre.c"), &spec, "insert", PDR);
    assert_eq!(verdict(&out), "FALSE(valid-deref)", "{out}");
    assert!(out.contains("replayed concretely"), "{out}");
}

/// Inductive generalisation drops the literals of a learned clause that relative induction
/// does not need: reverse's memory-safety invariant has 17 clauses with it, 26 with relative
/// induction alone (32 with neither); its property run, which needs it to end in time, is
/// measured by `table3`.
#[test]
fn learned_clauses_are_generalised_by_dropping_literals() {
    let spec = contract_file("reverse.safety");
    let (code, out, err) = contract(&bench("reverse.c"), &spec, "reverse", PDR);
    assert_eq!((code, verdict(&out)), (0, "TRUE"), "{out}{err}");
    let clauses: usize = (out.split("PDR invariant (").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no clause count in:\n{out}"));
    assert!(clauses <= 24, "{clauses} clauses:\n{out}");
}

/// A run of the model that the C function does not take (here it needs a nondeterministic
/// input other than the replays' 0 and 1) is no counterexample: the verdict stays UNKNOWN
/// with the model's run.
#[test]
fn a_run_of_the_model_the_function_does_not_take_is_not_false() {
    let (_, out, _) = contract(
        &own("advance_nondet.c"),
        &own("advance.shape"),
        "advance",
        PDR,
    );
    assert_eq!(verdict(&out), "UNKNOWN", "{out}");
    assert!(out.contains("meets the contract"), "{out}");
}

const PDR: &[&str] = &["--engine", "pdr"];

#[test]
fn parameters_in_ensures_are_their_values_at_entry() {
    let prog = own("advance.c");
    let (_, out, _) = contract(&prog, &own("advance.shape"), "advance", PDR);
    assert_eq!(verdict(&out), "TRUE", "{out}");
    let (_, out, _) = contract(&prog, &own("advance_wrong.shape"), "advance", PDR);
    assert_eq!(verdict(&out), "FALSE(contract)", "{out}");
    assert!(
        out.contains("`advance` returns in a state that breaks"),
        "{out}"
    );
}

#[test]
fn contracts_the_engine_cannot_check_are_refused_with_the_reason() {
    let prog = own("advance.c");
    let reason = |spec: &str| {
        let (code, out, err) = contract(&prog, &own(spec), "advance", PDR);
        assert_eq!((code, verdict(&out)), (0, "UNKNOWN"), "{spec}:\n{out}{err}");
        out.lines()
            .find(|l| l.starts_with("reason:"))
            .unwrap_or_default()
            .to_string()
    };
    assert!(reason("contract_errors.shape").contains("precondition of `advance` is unsatisfiable"));
    assert!(reason("contract_field.shape").contains("`next` is not a pointer field"));
    assert!(reason("contract_sorted.shape").contains("compares no integer field"));
    // Usage errors exit 2: another engine, a function the spec has no contract for, a
    // function the program lacks.
    let spec = own("advance.shape");
    let (code, _, err) = contract(&prog, &spec, "advance", &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--engine pdr"), "{err}");
    let (code, _, err) = contract(&prog, &spec, "main", PDR);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no contract for `main`"), "{err}");
    let (code, _, err) = contract(
        &prog,
        &spec,
        "advance",
        &["--engine", "pdr", "--witness", "w.yml"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--witness describes runs from `main`"),
        "{err}"
    );
    let (code, _, err) = contract(&bench("last.c"), &spec, "advance", PDR);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no function `advance`"), "{err}");
}

/// A family a user declares in their own spec is instantiated by PDR from its definition
/// alone: with it (and without the library's `stable`) `delete_all` meets its contract;
/// without either no invariant exists over the rest, and the run says so.
#[test]
fn a_users_own_family_is_instantiated_from_its_definition() {
    let spec = own("own_family.shape");
    let p = bench("delete_all.c");
    let mut with = PDR.to_vec();
    with.extend(["--families", "eq,edge,reach,ls,alloc,owned"]);
    let (code, out, err) = contract(&p, &spec, "delete_all", &with);
    assert_eq!((code, verdict(&out)), (0, "TRUE"), "{out}{err}");
    assert!(
        out.contains("owned[n](h)"),
        "the invariant names the family:\n{out}"
    );
    let mut without = PDR.to_vec();
    without.extend(["--families", "eq,edge,reach,ls,alloc"]);
    let (_, out, err) = contract(&p, &spec, "delete_all", &without);
    assert_eq!(verdict(&out), "UNKNOWN", "{out}{err}");
    assert!(
        out.contains("no inductive invariant over these predicates (eq, edge, reach, ls, alloc)"),
        "{out}"
    );
    // An unknown family is refused before any run, with the families known.
    let mut unknown = PDR.to_vec();
    unknown.extend(["--families", "eq,owner"]);
    let (code, _, err) = contract(&p, &spec, "delete_all", &unknown);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no family `owner`") && err.contains("owned"),
        "{err}"
    );
}

/// The library's families come before every user spec, so a user's family of the same name
/// is a located error in the user's file, which says where the first one is.
#[test]
fn a_family_named_like_the_librarys_is_a_located_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .args(["spec", "check"])
        .arg(own("family_clash.shape"))
        .output()
        .expect("run shapecheck");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("family_clash.shape:2:8: error: a second family `ls`")
            && err.contains("the first: in the standard library"),
        "{err}"
    );
}

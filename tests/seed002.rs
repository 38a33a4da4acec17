//! Seed 002's benchmarks (`benchmarks/seed-002/`): shape-and-data programs in the style of the
//! paper's Table II, each with a buggy twin. The template engine must never prove a twin and
//! must prove the programs it is known to prove, with the invariant it found printed; the
//! portfolio must find every twin FALSE with a replayed counterexample.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/seed-002")
}

fn programs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("benchmarks/seed-002")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    out.sort();
    out
}

fn is_twin(p: &Path) -> bool {
    p.file_stem().unwrap().to_string_lossy().ends_with("_bug")
}

fn verify(p: &Path, engine: &str, timeout: &str) -> String {
    verify_with(p, engine, timeout, &[])
}

fn verify_with(p: &Path, engine: &str, timeout: &str, extra: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_shapecheck"))
        .arg("verify")
        .arg(p)
        .args(["--engine", engine, "--timeout", timeout, "--format", "json"])
        .args(extra)
        .output()
        .expect("run shapecheck");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn verdict(json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(json).expect("json report");
    v["verdict"].as_str().unwrap_or("").to_string()
}

/// Programs the template engine proves today (the others end UNKNOWN with a reason).
const PROVED: [&str; 8] = [
    "calendar.c",
    "cart.c",
    "hash_fun.c",
    "min_max.c",
    "process_queue.c",
    "running_example.c",
    "shared_mem1.c",
    "shared_mem2.c",
];

#[test]
fn the_template_engine_proves_no_twin_and_the_programs_it_should() {
    let files = programs();
    assert!(files.len() >= 22, "{} programs", files.len());
    let mut failures = vec![];
    for p in &files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        // The proved programs take up to 25 s alone; a loaded CI machine runs two test
        // binaries at once, so their budget is generous (time is measured by `bench`, not here).
        let budget = if PROVED.contains(&name.as_str()) {
            "150"
        } else {
            "30"
        };
        let out = verify(p, "template", budget);
        let v = verdict(&out);
        if is_twin(p) && v == "TRUE" {
            failures.push(format!("{name}: a buggy twin proved TRUE:\n{out}"));
        }
        if v.starts_with("FALSE") {
            failures.push(format!(
                "{name}: the template engine never answers FALSE:\n{out}"
            ));
        }
        if PROVED.contains(&name.as_str()) {
            if v != "TRUE" {
                failures.push(format!("{name}: not proved:\n{out}"));
            } else if !out.contains("re-checked") || !out.contains("<= ") {
                failures.push(format!("{name}: no invariant or re-check reported:\n{out}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_portfolio_finds_every_twin() {
    for p in programs().iter().filter(|p| is_twin(p)) {
        let out = verify(p, "auto", "30");
        assert_eq!(
            verdict(&out),
            "FALSE(unreach-call)",
            "{}:\n{out}",
            p.display()
        );
    }
}

#[test]
fn the_running_example_invariant_is_the_papers() {
    let out = verify(&dir().join("running_example.c"), "template", "20");
    // Section 4.4: every node's value stays in [10, 20] at the walking loop.
    assert!(
        out.contains("10 <= site1@31.summary.val at line 39 <= 20"),
        "{out}"
    );
    assert!(
        out.contains(
            "site1@31.summary.next at line 28 in {NULL, &site1@31.recent, &site1@31.summary}"
        ),
        "{out}"
    );
}

/// A user's template spec with two linear rows over three fields proves what the default
/// (intervals and zones) cannot.
#[test]
fn a_user_template_with_linear_rows_proves_the_invoice() {
    let user_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/userspec");
    let spec = user_dir.join("invoice.shape");
    let spec = spec.to_str().unwrap();
    let program = user_dir.join("invoice.c");
    let default = verify(&program, "template", "300");
    assert_eq!(verdict(&default), "UNKNOWN", "{default}");
    let user = ["--spec", spec, "--with-library"];
    let out = verify_with(&program, "template", "300", &user);
    assert_eq!(verdict(&out), "TRUE", "{out}");
    assert!(out.contains(".summary.gross - "), "{out}");
    let twin = verify_with(&user_dir.join("invoice_bug.c"), "template", "300", &user);
    assert_eq!(verdict(&twin), "UNKNOWN", "{twin}");
}

/// The relational rows of the default template: min <= val <= max for every node of
/// min_max.c, found as zones between a field and two program variables.
#[test]
fn the_default_zones_relate_fields_to_variables() {
    let out = verify(&dir().join("min_max.c"), "template", "60");
    assert_eq!(verdict(&out), "TRUE", "{out}");
    assert!(
        out.contains("site1@31.summary.val - max at line 29 <= 0"),
        "{out}"
    );
    assert!(
        out.contains("-site1@31.summary.val + min at line 29 <= 0"),
        "{out}"
    );
}

/// The programs that free their list nodes: the template engine assumes memory safety only
/// when the shape analysis proves it, which needs reachability updated exactly through
/// `p = head; head = p->next; free(p)` and `n->next = head` (TVLA's update formulas: copied
/// from the pointer assigned, moved past the cell left, extended over the edge added).
#[test]
fn the_shape_analysis_proves_the_frees_of_the_list_programs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/seed-002");
    for name in ["calendar.c", "cart.c", "interval_split.c"] {
        let out = verify_with(
            &dir.join(name),
            "shape",
            "60",
            &["--check", "valid-deref,valid-free"],
        );
        assert_eq!(verdict(&out), "TRUE", "{name}:\n{out}");
    }
}

/// Objects of an allocating helper that returns `void *`: the template engine lays them out by
/// the type of the pointers the result is copied into, and where that type is ambiguous it
/// must not assume the accesses away (it once proved such a buggy program TRUE, with every
/// row "unreachable").
#[test]
fn objects_of_an_allocating_helper_are_laid_out_and_never_assumed_away() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/unreach-call");
    let proved = verify(&dir.join("helper_alloc.c"), "template", "60");
    assert_eq!(verdict(&proved), "TRUE", "{proved}");
    assert!(proved.contains("7 <= site0@"), "{proved}");
    let field = verify(&dir.join("helper_alloc_field.c"), "template", "60");
    assert_eq!(verdict(&field), "TRUE", "{field}");
    assert!(field.contains(".recent.key at line"), "{field}");
    for twin in [
        "helper_alloc_bug.c",
        "helper_alloc_field_bug.c",
        "untyped_alloc_bug.c",
    ] {
        let out = verify(&dir.join(twin), "template", "60");
        assert_eq!(verdict(&out), "UNKNOWN", "{twin}:\n{out}");
        assert!(!out.contains("unreachable"), "{twin}:\n{out}");
    }
}

/// A pointer to a site's most recent object keeps reading that object after the site
/// allocates again (the object joins the summary; the pointer's reads stay one object's),
/// and a store through a pointer that cannot reach the summary leaves the summary's
/// objects alone: `split_recent.c` relates a value read before an allocation to one read
/// after it.
#[test]
fn a_pointer_keeps_its_object_when_its_site_allocates_again() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/unreach-call");
    let out = verify(&dir.join("split_recent.c"), "template", "60");
    assert_eq!(verdict(&out), "TRUE", "{out}");
    let twin = verify(&dir.join("split_recent_bug.c"), "template", "60");
    assert_eq!(verdict(&twin), "UNKNOWN", "{twin}");
}

/// A pointer to a site's most recent object, freed before the site allocates again, must
/// dangle, not join the summary (whose objects live): the read through it below is a use
/// after free, and the template engine once proved this program TRUE.
#[test]
fn a_pointer_to_a_freed_recent_object_dangles_after_the_next_allocation() {
    let text = "extern int __VERIFIER_nondet_int(void);\n\
        extern void reach_error(void);\n\
        #include <stdlib.h>\n\
        struct s { int v; };\n\
        int main(void) {\n\
          struct s *q = 0;\n\
          while (__VERIFIER_nondet_int()) {\n\
            struct s *p = malloc(sizeof(struct s));\n\
            if (!p) return 0;\n\
            p->v = 2;\n\
            if (q && q->v != 1) reach_error();\n\
            p->v = 1;\n\
            q = p;\n\
            free(p);\n\
          }\n\
          return 0;\n\
        }\n";
    let dir = std::env::temp_dir().join(format!("shapecheck-uaf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("uaf_after_fold.c");
    std::fs::write(&file, text).unwrap();
    let out = verify(&file, "template", "60");
    assert_eq!(verdict(&out), "UNKNOWN", "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The values of `window_values.c` lie in (base, base + 50); the samples the synthesis joins
/// stop short of base + 49, and only narrowing to the exact extreme (a binary search over
/// runs) gives the bound under which `base + 50` cannot overflow. Its allocations are
/// unchecked, so the proof also needs SV-COMP's rule that allocation succeeds: where malloc
/// may fail, the NULL dereference is undefined behaviour and no TRUE is possible.
#[test]
fn narrowing_finds_the_exact_bound_and_allocation_failure_rules_out_a_proof() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/unreach-call");
    let never = ["--malloc", "never-fails"];
    let proved = verify_with(&dir.join("window_values.c"), "template", "60", &never);
    assert_eq!(verdict(&proved), "TRUE", "{proved}");
    let twin = verify_with(&dir.join("window_values_bug.c"), "template", "60", &never);
    assert_eq!(verdict(&twin), "UNKNOWN", "{twin}");
    let may_fail = verify(&dir.join("window_values.c"), "template", "60");
    assert_eq!(verdict(&may_fail), "UNKNOWN", "{may_fail}");
    assert!(may_fail.contains("undefined behaviour"), "{may_fail}");
}

/// The two programs whose nodes move from one list to another (one allocation site, two
/// lists with different data invariants) are beyond per-site template rows; the lazy shape
/// analysis proves them with field assertions that order a field against a constant or a
/// variable, and the portfolio reaches that proof.
#[test]
fn the_programs_that_move_nodes_between_lists_are_proved_by_field_orderings() {
    for (name, bound) in [
        ("packet_filter.c", "prio < 6"),
        ("quick_sort_split.c", "val < main::pivot"),
    ] {
        let p = dir().join(name);
        let out = verify(&p, "shape", "30");
        assert_eq!(verdict(&out), "TRUE", "{name}:\n{out}");
        assert!(out.contains(bound), "{name}: {bound}:\n{out}");
        let auto = verify(&p, "auto", "60");
        assert_eq!(verdict(&auto), "TRUE", "{name}:\n{auto}");
    }
}

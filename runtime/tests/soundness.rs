//! Soundness of the shape analysis against concrete runs: for every buggy twin of the seed-000
//! benchmarks, the explicit engine finds a replayed counterexample, and the shape analysis
//! simulated along exactly that run must reach its abstract error under every shape-class
//! generator of the library (every structure, every binding of its roles to the self-pointer
//! fields, every generator), with every pointer tracked. An abstraction that loses a concrete
//! run somewhere along it is unsound there (a transfer function, focus, coerce or blur that
//! drops a structure it should keep). The runs are followed with and without the field
//! predicates of every field assertion the program states. With `SHAPECHECK_DEBUG=1` the failing simulation prints
//! where the run was lost and the shape graphs before that step.

use shapecheck_runtime::engine::domain::Compiled;
use shapecheck_runtime::engine::feasibility::PathStep;
use shapecheck_runtime::explicit::explore::{Explorer, Limits, Outcome};
use shapecheck_runtime::explicit::sample::{RecursiveType, recursive_types};
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::ir::{Program, VarId};
use shapecheck_runtime::program::property::{Property, PropertySet};
use shapecheck_runtime::techniques::seed000::lazy::{Scg, all_scgs, describe_scg};
use shapecheck_runtime::techniques::seed000::shape::analysis::Art;
use shapecheck_runtime::techniques::seed000::shape::coerce::Constraints;
use shapecheck_runtime::techniques::seed000::shape::data;
use shapecheck_runtime::techniques::seed000::shape::vocab::{Assertion, ShapeType, Vocab};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

/// The standard library as compiled code.
static LIBRARY: Compiled = Compiled {
    tables: &shapecheck_library::COMPILED,
    name: "standard library",
};

fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../benchmarks/seed-000")
}

/// The concrete run to the violation, as CFA edges.
fn counterexample(prog: &Program, checks: &PropertySet) -> Vec<PathStep> {
    let limits = Limits {
        timeout: Some(Duration::from_secs(30)),
        ..Limits::default()
    };
    match Explorer::new(prog, checks, limits).run() {
        Outcome::Violation(cex) => cex
            .trace
            .steps
            .iter()
            .map(|s| {
                let (func, edge) = s.edge.expect("replayed steps name their edge");
                PathStep { func, edge }
            })
            .collect(),
        other => panic!("the explicit engine finds no violation: {other:?}"),
    }
}

/// The recursive types the program declares (not the C library's internal ones).
fn program_types(prog: &Program) -> Vec<RecursiveType> {
    recursive_types(prog)
        .into_iter()
        .filter(|t| !prog.strukt(t.id).name.contains(" __"))
        .collect()
}

fn all_pointers(prog: &Program) -> BTreeSet<VarId> {
    (0..prog.vars.len())
        .map(|i| VarId(i as u32))
        .filter(|x| prog.var(*x).ty.pointee().is_some())
        .collect()
}

/// Every field assertion the program's operations state (the most refinement can add).
fn program_assertions(prog: &Program) -> BTreeSet<Assertion> {
    prog.functions
        .iter()
        .flat_map(|f| f.cfa.edge_weights().flat_map(|e| data::atoms(prog, &e.op)))
        .collect()
}

/// Whether the shape analysis with SCG `s` for the program's one recursive type (and the
/// field predicates of every assertion the program states, with `data`) follows the run to
/// its abstract error.
fn follows(prog: &Program, checks: &PropertySet, s: &Scg, path: &[PathStep], data: bool) -> bool {
    let types: Vec<ShapeType> = program_types(prog)
        .iter()
        .map(|t| ShapeType {
            strukt: t.id,
            generator: Some(s.generator.clone()),
            fields: s.binding.fields.clone(),
        })
        .collect();
    let assertions = if data {
        program_assertions(prog)
    } else {
        BTreeSet::new()
    };
    let vocab = Vocab::new(prog, &LIBRARY, &types, &all_pointers(prog))
        .with_assertions(assertions.iter().map(|a| (a, None)));
    let cons = Constraints::new(&vocab);
    // The constraints the lazy analysis uses for valid-memtrack.
    let cons = if checks.has(Property::ValidMemtrack) {
        cons.with_reach_transitivity(&vocab)
    } else {
        cons
    };
    Art::new(prog, &vocab, &cons, checks).keeps_run(path)
}

/// Runs every SCG of the library along the twin's counterexample; the names of those that
/// lose it.
fn lost_runs(twin: &std::path::Path, checks: &PropertySet, data: bool) -> Vec<String> {
    let spec = shapecheck_library::spec();
    let prog = frontend::load(twin).expect("parses");
    let path = counterexample(&prog, checks);
    let rec = program_types(&prog);
    assert_eq!(rec.len(), 1, "{}: one recursive type", twin.display());
    let fields: Vec<String> = rec[0].fields.iter().map(|f| f.name.clone()).collect();
    let mut lost = vec![];
    for s in all_scgs(spec, &fields) {
        let name = format!(
            "{}: {}",
            twin.file_name().unwrap_or_default().to_string_lossy(),
            describe_scg(spec, &s)
        );
        // SOUNDNESS_ONLY=text restricts the run to the cases whose name contains it.
        if std::env::var("SOUNDNESS_ONLY").is_ok_and(|o| !name.contains(&o)) {
            continue;
        }
        if !follows(&prog, checks, &s, &path, data) {
            lost.push(name);
        }
    }
    lost
}

#[test]
fn every_scg_follows_the_concrete_runs_of_the_buggy_twins() {
    let dir = seed_dir();
    let mut twins: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("benchmarks/seed-000")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with("_bug.c"))
        .collect();
    twins.sort();
    assert_eq!(twins.len(), 15, "fifteen buggy twins");
    let checks = PropertySet::parse_list("unreach-call").expect("property");
    let lost: Vec<String> = twins
        .iter()
        .flat_map(|t| lost_runs(t, &checks, false))
        .collect();
    assert!(
        lost.is_empty(),
        "the shape analysis loses a concrete run under:\n{}",
        lost.join("\n")
    );
}

/// The same for valid-memtrack: the programs of the end-to-end corpus that lose memory, with
/// one recursive type, must be caught (at the leak or earlier) under every SCG.
#[test]
fn every_scg_catches_the_leaks_of_the_memtrack_twins() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/valid-memtrack");
    let mut twins: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/programs/valid-memtrack")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|s| s.contains("// expect: FALSE(valid-memtrack)"))
        })
        .filter(|p| {
            let prog = frontend::load(p).expect("parses");
            program_types(&prog).len() == 1
        })
        .collect();
    twins.sort();
    assert!(twins.len() >= 3, "memtrack twins: {twins:?}");
    let checks = PropertySet::parse_list("valid-memsafety").expect("property");
    let lost: Vec<String> = twins
        .iter()
        .flat_map(|t| lost_runs(t, &checks, false))
        .collect();
    assert!(
        lost.is_empty(),
        "the shape analysis loses a leaking run under:\n{}",
        lost.join("\n")
    );
}

/// The same with field predicates: every assertion a twin's operations state is tracked (data
/// stores, conditions on data, struct copies), for the twins of the end-to-end corpus whose
/// bugs depend on data fields and for the seed-000 twins (which store data too).
#[test]
fn every_scg_with_field_predicates_follows_the_concrete_runs() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/unreach-call");
    let mut twins: Vec<PathBuf> = [
        "tagged_slots_bug.c",
        "normalised_tags_bug.c",
        "struct_copy_bug.c",
        "struct_copy_bug2.c",
        // Orderings of two cells' values (sortedness, relations to a pointer's cell).
        "sorted_insert_bug.c",
        "sorted_list_insert_bug.c",
        "sorted_delete_bug.c",
        "sorted_merge_bug.c",
        "ordered_constants_bug.c",
    ]
    .iter()
    .map(|n| corpus.join(n))
    .collect();
    let dir = seed_dir();
    let mut seed: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("benchmarks/seed-000")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with("_bug.c"))
        .collect();
    seed.sort();
    let stores_data = |t: &PathBuf| {
        let prog = frontend::load(t).expect("parses");
        !program_assertions(&prog).is_empty()
    };
    assert!(twins.iter().all(stores_data), "{twins:?}");
    let seed: Vec<PathBuf> = seed.into_iter().filter(stores_data).collect();
    assert!(seed.len() >= 5, "seed-000 twins storing data: {seed:?}");
    twins.extend(seed);
    let checks = PropertySet::parse_list("unreach-call").expect("property");
    let lost: Vec<String> = twins
        .iter()
        .flat_map(|t| lost_runs(t, &checks, true))
        .collect();
    assert!(
        lost.is_empty(),
        "the shape analysis with field predicates loses a concrete run under:\n{}",
        lost.join("\n")
    );
}

//! Proofs by lazy shape analysis (seed 000) from the command line: the SCGsFromExplicit oracle
//! over the standard library's compiled invariants (or a `--spec` file through the
//! interpreter), the combination with the explicit-heap engine in `verify`, rendering of the
//! certificate, and `shapecheck table1`: seed 000's Table 1 side by side with our runs.
//!
//! Consumes programs and specs; produces reports and the table.

use crate::classify;
use shapecheck_dsl::compiled::CompiledSpec;
use shapecheck_dsl::ir::Spec;
use shapecheck_runtime::explicit::sample::TypeSamples;
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::ir::Program;
use shapecheck_runtime::program::property::{Property, PropertySet};
use shapecheck_runtime::techniques::seed000::lazy::{
    Binding, Explicit, Lazy, LazyConfig, LazyResult, LazyVerdict, Refinement,
};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// SCGsFromExplicit: evaluates every structure's invariants on the samples of a type.
pub struct Oracle<'c> {
    /// Compiled code for the standard library; `None` runs the interpreter.
    pub compiled: Option<&'c CompiledSpec>,
}

impl Explicit for Oracle<'_> {
    fn enabled(&self, spec: &Spec, samples: &TypeSamples) -> Vec<Binding> {
        classify::classify(spec, self.compiled, samples)
            .enabled
            .into_iter()
            .map(|(b, _)| Binding {
                structure: b.structure,
                fields: b.fields,
            })
            .collect()
    }
}

/// Whether the shape analysis can decide these properties (it checks valid-memtrack, but
/// not valid-memcleanup).
pub fn supported(checks: &PropertySet) -> bool {
    !checks.has(Property::ValidMemcleanup)
}

/// Runs the lazy shape analysis with the standard library.
pub fn prove(prog: &Program, checks: &PropertySet, cfg: LazyConfig) -> LazyResult {
    let spec = shapecheck_library::spec();
    let oracle = Oracle {
        compiled: Some(&shapecheck_library::COMPILED),
    };
    Lazy::new(prog, spec, checks, &oracle, cfg).run()
}

/// The report lines of a lazy run (after the verdict line).
pub fn explain(r: &LazyResult) -> String {
    let mut out = String::new();
    match &r.verdict {
        LazyVerdict::True(c) => {
            let _ = writeln!(
                out,
                "proof: lazy shape analysis; certificate re-checked: {} locations, {} shape graphs, {} transitions, every one covered",
                c.locations, c.graphs, c.transitions
            );
        }
        LazyVerdict::Unknown(why) => {
            let _ = writeln!(out, "reason: shape analysis: {why}");
        }
        LazyVerdict::False(_) => {}
    }
    for (ty, scg, preds) in &r.abstraction {
        let _ = writeln!(out, "abstraction: {ty} => {scg}");
        if !preds.is_empty() {
            let _ = writeln!(out, "  predicates: {}", preds.join(", "));
        }
    }
    if !r.tracked.is_empty() {
        let _ = writeln!(out, "tracked pointers: {}", r.tracked.join(", "));
    }
    let _ = writeln!(
        out,
        "refinements: {} td, {} scg ({} ART rounds, {:.2} s)",
        r.td(),
        r.scg(),
        r.rounds,
        r.seconds
    );
    for (i, f) in r.refinements.iter().enumerate() {
        let line = match f {
            Refinement::Tracking(ps) => format!("track {}", ps.join(", ")),
            Refinement::Abstract(ty, scg) => format!("explicit samples: {ty} => {scg}"),
            Refinement::Scg(ty, scg) => format!("FineTune: {ty} => {scg}"),
        };
        let _ = writeln!(out, "  {}. {line}", i + 1);
    }
    out
}

/// `shapecheck table1` arguments.
#[derive(clap::Args)]
pub struct TableArgs {
    /// The folder of the seed 000 programs.
    #[arg(default_value = "benchmarks/seed-000")]
    dir: PathBuf,
    /// Time limit per program and configuration, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Time limit for the maximal-SCG configuration (default: --timeout).
    #[arg(long)]
    max_timeout: Option<f64>,
    /// Also run the buggy twins.
    #[arg(long)]
    twins: bool,
}

/// Table 1 of seed 000: program, max SCG, time (a), final SCG, refinements, time (b), time (c).
const PAPER: [(&str, &str, &str, &str, &str, &str, &str); 14] = [
    (
        "cancel_link",
        "dll/3",
        "10.04",
        "dll 1/3",
        "1 td, 1 scg",
        "12.65",
        "13.76",
    ),
    (
        "cancel_insert_after",
        "dll/3",
        "23.62",
        "dll 1/3",
        "1 td, 1 scg",
        "24.41",
        "26.82",
    ),
    (
        "cancel_insert_before",
        "dll/3",
        "30.90",
        "dll 3/3",
        "2 td, 2 scg",
        "69.01",
        "77.22",
    ),
    (
        "cancel_remove",
        "dll/3",
        "4.42",
        "dll 2/3",
        "1 td, 1 scg",
        "28.49",
        "29.05",
    ),
    (
        "acyclic_link",
        "dll/3",
        "11.57",
        "sll 2/2",
        "1 td, 1 scg",
        "6.32",
        "6.49",
    ),
    (
        "acyclic_insert_after",
        "dll/3",
        "24.21",
        "sll 2/2",
        "1 td, 1 scg",
        "23.57",
        "26.06",
    ),
    (
        "acyclic_insert_before",
        "dll/3",
        "34.53",
        "dll 3/3",
        "2 td, 2 scg",
        "80.81",
        "88.21",
    ),
    (
        "acyclic_remove",
        "dll/3",
        "4.23",
        "sll 2/2",
        "1 td, 2 scg",
        "96.77",
        "99.75",
    ),
    (
        "bintree_rotate_left",
        "tree+p/5",
        ">9000",
        "tree 2/4",
        "3 td, 2 scg",
        "414.28",
        "521.31",
    ),
    (
        "bintree_rotate_right",
        "tree+p/5",
        ">9000",
        "tree 2/4",
        "3 td, 1 scg",
        "419.24",
        "437.30",
    ),
    (
        "bintree_rotate_left_right",
        "tree+p/5",
        ">9000",
        "tree 2/4",
        "2 td, 2 scg",
        "7023.41",
        "7401.74",
    ),
    (
        "treep_rotate_left",
        "tree+p/5",
        ">9000",
        "tree+p 2/5",
        "4 td, 2 scg",
        "180.58",
        "66.63",
    ),
    (
        "treep_rotate_right",
        "tree+p/5",
        ">9000",
        "tree+p 2/5",
        "4 td, 2 scg",
        "402.70",
        "384.19",
    ),
    (
        "treep_rotate_left_right",
        "tree+p/5",
        ">9000",
        "tree+p 2/5",
        "4 td, 2 scg",
        "1175.14",
        "1189.42",
    ),
];

fn verdict_word(r: &LazyResult) -> &'static str {
    match r.verdict {
        LazyVerdict::True(_) => "TRUE",
        LazyVerdict::False(_) => "FALSE",
        LazyVerdict::Unknown(_) => "UNKNOWN",
    }
}

fn run_one(path: &Path, maximal: bool, timeout: f64) -> Result<LazyResult, String> {
    let prog = frontend::load(path).map_err(|e| e.to_string())?;
    let checks = PropertySet::parse_list("unreach-call")?;
    let cfg = LazyConfig {
        maximal,
        timeout: Some(Duration::from_secs_f64(timeout)),
        ..LazyConfig::default()
    };
    Ok(prove(&prog, &checks, cfg))
}

/// Short SCG text: `dll 1/3 {cancellation}`.
fn short_scg(r: &LazyResult) -> String {
    r.abstraction
        .iter()
        .filter(|(_, s, _)| s != "m0")
        .map(|(_, s, _)| s.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Runs `shapecheck table1`.
pub fn table1(args: &TableArgs) -> ExitCode {
    let mut programs: Vec<(String, String)> = vec![("fig1".into(), String::new())];
    programs.extend(PAPER.iter().map(|p| (p.0.to_string(), String::new())));
    let mut out = String::new();
    crate::outln!(
        "{:<26} {:>8} {:>9} | {:<52} {:>11} {:>9} | paper: {:>8} {:<11} {:>8} {:>8} {:>8}",
        "program",
        "max",
        "time(a)",
        "final SCG (families/max)",
        "refines",
        "time(c)",
        "max SCG",
        "final",
        "(a)",
        "(b)",
        "(c)"
    );
    let mut total = (0.0, 0.0);
    let mut proved = 0;
    let mut failures = vec![];
    let start = Instant::now();
    for (name, _) in &programs {
        let path = args.dir.join(format!("{name}.c"));
        let c = run_one(&path, false, args.timeout);
        let a = run_one(&path, true, args.max_timeout.unwrap_or(args.timeout));
        let (a, c) = match (a, c) {
            (Ok(a), Ok(c)) => (a, c),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        total.0 += a.seconds;
        total.1 += c.seconds;
        if matches!(c.verdict, LazyVerdict::True(_)) {
            proved += 1;
        } else {
            failures.push(format!("{name}: {}", lazy_reason(&c)));
        }
        let paper = PAPER.iter().find(|p| p.0 == name);
        crate::outln!(
            "{:<26} {:>8} {:>8.2}s | {:<52} {:>11} {:>8.2}s | paper: {:>8} {:<11} {:>8} {:>8} {:>8}",
            name,
            verdict_word(&a),
            a.seconds,
            format!("{} {}", verdict_word(&c), short_scg(&c)),
            format!("{} td, {} scg", c.td(), c.scg()),
            c.seconds,
            paper.map_or("-", |p| p.1),
            paper.map_or("-", |p| p.3),
            paper.map_or("-", |p| p.2),
            paper.map_or("-", |p| p.5),
            paper.map_or("-", |p| p.6),
        );
    }
    let _ = writeln!(
        out,
        "total: {proved}/{} proved TRUE by refinement; time (a) {:.2} s, time (c) {:.2} s, wall {:.2} s",
        programs.len(),
        total.0,
        total.1,
        start.elapsed().as_secs_f64()
    );
    for f in &failures {
        let _ = writeln!(out, "  not proved: {f}");
    }
    if args.twins {
        for (name, _) in &programs {
            let path = args.dir.join(format!("{name}_bug.c"));
            match run_one(&path, false, args.timeout) {
                Ok(r) => {
                    let _ = writeln!(
                        out,
                        "twin {:<26} {:<8} {:.2}s",
                        name,
                        verdict_word(&r),
                        r.seconds
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "twin {name}: error: {e}");
                }
            }
        }
    }
    crate::guard::print(&out);
    ExitCode::SUCCESS
}

fn lazy_reason(r: &LazyResult) -> String {
    match &r.verdict {
        LazyVerdict::Unknown(w) => w.clone(),
        LazyVerdict::False(_) => "FALSE".into(),
        LazyVerdict::True(_) => String::new(),
    }
}

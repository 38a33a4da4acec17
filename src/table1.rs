//! `shapecheck table1`: seed 000's Table 1 side by side with lazy shape analysis runs on
//! benchmarks/seed-000 (the maximal SCG and refinement from the coarsest), with the standard
//! library compiled (default) or interpreted (`--interpreted`, for comparison).
//!
//! Consumes the programs of the folder; prints the table.

use shapecheck_runtime::engine::domain::{Domain, Interpreted};
use shapecheck_runtime::engine::{Budget, Task};
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::property::PropertySet;
use shapecheck_runtime::techniques::seed000::lazy::{Lazy, LazyConfig, LazyResult, LazyVerdict};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
    /// Run the standard library through the spec interpreter instead of its compiled code.
    #[arg(long)]
    interpreted: bool,
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

fn run_one(
    path: &Path,
    domain: &dyn Domain,
    maximal: bool,
    timeout: f64,
) -> Result<LazyResult, String> {
    let prog = frontend::load(path).map_err(|e| e.to_string())?;
    let checks = PropertySet::parse_list("unreach-call")?;
    let cfg = LazyConfig {
        maximal,
        timeout: Duration::try_from_secs_f64(timeout).ok(),
        ..LazyConfig::default()
    };
    let task = Task {
        program: &prog,
        properties: &checks,
        domain,
        budget: Budget::run(),
    };
    Ok(Lazy::new(&task, cfg).run(&task))
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
    let compiled = crate::specs::library();
    let interpreted = Interpreted {
        spec: shapecheck_library::spec().clone(),
        name: "standard library".into(),
    };
    let domain: &dyn Domain = match args.interpreted {
        true => &interpreted,
        false => &compiled,
    };
    crate::outln!("spec: {}", domain.describe());
    for (name, _) in &programs {
        let path = args.dir.join(format!("{name}.c"));
        let c = run_one(&path, domain, false, args.timeout);
        let a = run_one(
            &path,
            domain,
            true,
            args.max_timeout.unwrap_or(args.timeout),
        );
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
            match run_one(&path, domain, false, args.timeout) {
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

//! `shapecheck table2`: seed 002's Table II side by side with runs on benchmarks/seed-002: the
//! template engine on each correct program (the invariant it finds, or why not), the default
//! portfolio on it (with the engine that decided), and the default portfolio on each buggy
//! twin (a replayed counterexample expected).
//!
//! Consumes the programs of the folder (`X.c` with its twin `X_bug.c`); runs `verify` on each
//! in a child process under the time limit; prints the table with the paper's 2LS time and the
//! peers' published verdicts.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// `shapecheck table2` arguments.
#[derive(clap::Args)]
pub struct Table2Args {
    /// The folder of the seed 002 programs.
    #[arg(default_value = "benchmarks/seed-002")]
    dir: PathBuf,
    /// Time limit per program, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// A spec for the template engine (`verify --spec`); with `--with-library` it extends the
    /// library's templates.
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// With `--spec`: load the standard library first.
    #[arg(long, requires = "spec")]
    with_library: bool,
}

/// Table II of seed 002: program, row, 2LS, CPA-Seq, PredatorHP, Forester, Symbiotic,
/// UAutomizer (CPU seconds or the verdict; every task is correct).
const PAPER: [[&str; 8]; 10] = [
    [
        "calendar", "Calendar", "2.88", "timeout", "false", "unknown", "timeout", "timeout",
    ],
    [
        "cart", "Cart", "23.70", "timeout", "false", "unknown", "timeout", "timeout",
    ],
    [
        "hash_fun",
        "Hash Function",
        "3.65",
        "8.51",
        "unknown",
        "unknown",
        "unknown",
        "timeout",
    ],
    [
        "min_max", "MinMax", "5.14", "timeout", "false", "unknown", "timeout", "timeout",
    ],
    [
        "packet_filter",
        "Packet Filter",
        "431.00",
        "timeout",
        "timeout",
        "unknown",
        "unknown",
        "timeout",
    ],
    [
        "process_queue",
        "Process Queue",
        "6.62",
        "7.68",
        "timeout",
        "unknown",
        "timeout",
        "timeout",
    ],
    [
        "quick_sort_split",
        "Quick Sort",
        "18.20",
        "3.50",
        "timeout",
        "unknown",
        "unknown",
        "5.75",
    ],
    [
        "running_example",
        "Running Example",
        "1.24",
        "timeout",
        "timeout",
        "unknown",
        "timeout",
        "unknown",
    ],
    [
        "shared_mem1",
        "SM1",
        "0.53",
        "timeout",
        "0.31",
        "false",
        "timeout",
        "timeout",
    ],
    [
        "shared_mem2",
        "SM2",
        "0.55",
        "5.41",
        "false",
        "false",
        "timeout",
        "14.50",
    ],
];

/// Runs the table.
pub fn table2(args: &Table2Args) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot locate the shapecheck executable: {e}");
            return ExitCode::from(2);
        }
    };
    let mut names: Vec<String> = match std::fs::read_dir(&args.dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .filter(|s| !s.ends_with("_bug"))
            .collect(),
        Err(e) => {
            eprintln!("error: {}: {e}", args.dir.display());
            return ExitCode::from(2);
        }
    };
    names.sort();
    println!(
        "{:<17} {:<16} {:>7} {:>8} {:>8} {:>8} {:>9} {:>10} | {:<8} {:>7} | {:<16} {:>7} | {:<20} {:>6}",
        "program",
        "Table II row",
        "2LS",
        "CPA-Seq",
        "Predator",
        "Forester",
        "Symbiotic",
        "UAutomizr",
        "template",
        "time",
        "auto (engine)",
        "time",
        "twin (auto)",
        "time"
    );
    let (mut proved, mut proved_auto, mut found, mut wrong) = (0, 0, 0, 0);
    for name in &names {
        let paper = PAPER.iter().find(|r| r[0] == name);
        let cols: Vec<&str> = match paper {
            Some(r) => r[1..].to_vec(),
            None => vec!["(own)", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"],
        };
        let program = args.dir.join(format!("{name}.c"));
        let (v, _, t) = run(&exe, &program, "template", args);
        let (av, engine, at) = run(&exe, &program, "auto", args);
        let twin = args.dir.join(format!("{name}_bug.c"));
        let (tv, _, tt) = if twin.exists() {
            run(&exe, &twin, "auto", args)
        } else {
            ("-".to_string(), String::new(), 0.0)
        };
        proved += usize::from(v == "TRUE");
        proved_auto += usize::from(av == "TRUE");
        found += usize::from(tv.starts_with("FALSE"));
        wrong += usize::from(v.starts_with("FALSE") || av.starts_with("FALSE") || tv == "TRUE");
        let auto = if engine.is_empty() {
            av
        } else {
            format!("{av} ({engine})")
        };
        println!(
            "{:<17} {:<16} {:>7} {:>8} {:>8} {:>8} {:>9} {:>10} | {:<8} {:>7.2} | {:<16} {:>7.2} | {:<20} {:>6.2}",
            name,
            cols[0],
            cols[1],
            cols[2],
            cols[3],
            cols[4],
            cols[5],
            cols[6],
            v,
            t,
            auto,
            at,
            tv,
            tt
        );
    }
    println!(
        "{proved} of {} programs proved by the template engine, {proved_auto} by the portfolio; \
         {found} twins found; {wrong} wrong",
        names.len()
    );
    if wrong > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The first line of `verify`'s answer, the engine that decided (empty if none) and the
/// wall-clock seconds.
fn run(exe: &Path, program: &Path, engine: &str, args: &Table2Args) -> (String, String, f64) {
    let mut cmd = Command::new(exe);
    cmd.arg("verify")
        .arg(program)
        .args(["--engine", engine, "--check", "unreach-call"])
        .arg("--timeout")
        .arg(args.timeout.to_string());
    if let Some(spec) = &args.spec {
        cmd.arg("--spec").arg(spec);
        if args.with_library {
            cmd.arg("--with-library");
        }
    }
    let start = Instant::now();
    let (verdict, decided_by) = match cmd.output() {
        Ok(o) => {
            let out = String::from_utf8_lossy(&o.stdout);
            let first = out.lines().next().unwrap_or("(no answer)").to_string();
            let engine = out
                .lines()
                .find_map(|l| l.strip_prefix("engine: "))
                .unwrap_or_default()
                .to_string();
            (first, engine)
        }
        Err(e) => (format!("error: {e}"), String::new()),
    };
    (verdict, decided_by, start.elapsed().as_secs_f64())
}

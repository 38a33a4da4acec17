//! `shapecheck table3`: seed 003's Table 6 and Table 8 (Itzhaky et al., "Property-Directed
//! Shape Analysis", CAV 2014) side by side with runs on benchmarks/seed-003: the PDR engine on
//! each correct program, once for safety and integrity (valid-deref, valid-free) and once with
//! the additional property (unreach-call too), and the default portfolio on each buggy twin
//! and each Table 8 program (FALSE with the subproperty of the file's `Expected:` line).
//! Then the paper's own setting: each program's function alone against its contracts
//! (`contracts/X.safety.shape`, `contracts/X.property.shape`, `verify --function`), and the
//! twins and Table 8 programs against the same contracts (never TRUE; "found" when PDR's
//! bounded check finds a run of the logic's model that breaks the contract).
//!
//! Consumes the programs of the folder (`X.c` with its twin `X_bug.c`, and `t8_*.c`); runs
//! `verify` on each in a child process under the time limit; prints our verdict, wall time,
//! frame index N, solver calls and invariant clauses next to the paper's time, N, Z3 calls and
//! clauses (Table 6) or c.e. size (Table 8), then a summary. Exit code 1 when a verdict is
//! wrong (TRUE on a buggy program, FALSE on a correct one), 2 when the folder is unreadable.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// `shapecheck table3` arguments.
#[derive(clap::Args)]
pub struct Table3Args {
    /// The folder of the seed 003 programs.
    #[arg(default_value = "benchmarks/seed-003")]
    dir: PathBuf,
    /// Time limit per run, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Only the paper's setting: each function alone against its contracts.
    #[arg(long)]
    contracts: bool,
}

/// Table 6 of seed 003: program, row, then for the left block (safety and integrity) and the
/// right block (additional property) each: predicate set, time (s), N, Z3 calls, clauses.
const TABLE6: [[&str; 12]; 11] = [
    [
        "create", "create", "–", "1.37", "3", "28", "3", "–", "8.19", "4", "96", "7",
    ],
    [
        "delete", "delete", "–", "14.55", "4", "61", "6", "–", "9.32", "3", "67", "7",
    ],
    [
        "delete_all",
        "deleteAll",
        "St",
        "6.77",
        "3",
        "72",
        "6",
        "St",
        "37.35",
        "7",
        "308",
        "12",
    ],
    [
        "filter", "filter", "–", "2.37", "3", "27", "4", "–", "55.53", "5", "94", "5",
    ],
    [
        "insert", "insert", "–", "26.38", "5", "220", "16", "–", "25.25", "4", "155", "13",
    ],
    [
        "prev", "prev", "–", "0.21", "2", "3", "0", "–", "11.64", "4", "118", "6",
    ],
    [
        "last", "last", "–", "0.33", "2", "3", "0", "–", "7.49", "3", "41", "4",
    ],
    [
        "reverse", "reverse", "–", "5.35", "5", "128", "4", "–", "146.42", "6", "723", "11",
    ],
    [
        "sorted_insert",
        "sorted insert",
        "S",
        "41.07",
        "3",
        "48",
        "7",
        "S",
        "51.46",
        "4",
        "134",
        "10",
    ],
    [
        "sorted_merge",
        "sorted merge",
        "–",
        "26.69",
        "4",
        "87",
        "10",
        "S",
        "256.41",
        "5",
        "140",
        "14",
    ],
    [
        "make_dll",
        "make doubly-linked",
        "–",
        "18.91",
        "3",
        "44",
        "5",
        "R",
        "1086.61",
        "5",
        "112",
        "8",
    ],
];

/// Table 8 of seed 003: file stem, row, time (s), N, Z3 calls, c.e. size.
const TABLE8: [[&str; 6]; 4] = [
    [
        "t8_insert_weak_pre",
        "insert: weak precondition",
        "4.46",
        "1",
        "17",
        "8",
    ],
    [
        "t8_filter_null_deref",
        "filter: null dereference",
        "6.30",
        "1",
        "21",
        "3",
    ],
    ["t8_filter_typo", "filter: typo", "103.10", "3", "79", "4"],
    [
        "t8_reverse_cycle",
        "reverse: cycle created",
        "0.96",
        "1",
        "9",
        "2",
    ],
];

/// The PDR runs per correct program: block label and the properties checked. The paper has
/// figures for the first two; the third is SV-COMP's valid-memsafety, leaks included (ours:
/// the paper checks none).
const BLOCKS: [(&str, &str); 3] = [
    ("safety", "valid-deref,valid-free"),
    ("+property", "unreach-call,valid-deref,valid-free"),
    ("memsafety", "valid-memsafety"),
];

/// What one `verify` child printed, parsed.
pub(crate) struct Outcome {
    /// The verdict line (`TRUE`, `FALSE(...)`, `UNKNOWN`, or `(no answer)`).
    pub(crate) verdict: String,
    /// Wall-clock seconds.
    pub(crate) secs: f64,
    /// The last `N = .., .. solver calls` line's frame index and calls.
    frames: Option<String>,
    calls: Option<String>,
    /// Clauses of the PDR invariant (TRUE only).
    clauses: Option<String>,
    /// Why not TRUE: the first `reason:` line, a FALSE's location line, or stderr.
    pub(crate) reason: String,
    /// The whole report.
    pub(crate) text: String,
}

/// The verdict counts behind the summary line.
#[derive(Default)]
struct Tally {
    runs: usize,
    proved: usize,
    twins: usize,
    twins_found: usize,
    t8: usize,
    t8_found: usize,
    contract_runs: usize,
    contract_proved: usize,
    contract_bugs: usize,
    contract_found: usize,
    contract_replayed: usize,
    wrong: usize,
}

/// Runs the table.
pub fn table3(args: &Table3Args) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot locate the shapecheck executable: {e}");
            return ExitCode::from(2);
        }
    };
    let stems = match stems(&args.dir) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", args.dir.display());
            return ExitCode::from(2);
        }
    };
    let correct = correct_programs(&stems);
    let mut tally = Tally::default();
    let twins: Vec<String> = correct
        .iter()
        .map(|n| format!("{n}_bug"))
        .filter(|n| stems.contains(n))
        .collect();
    let mut t8: Vec<String> = stems
        .iter()
        .filter(|s| s.starts_with("t8_"))
        .cloned()
        .collect();
    paper_order(&mut t8, &TABLE8.map(|r| r[0]));
    if !args.contracts {
        println!(
            "Table 6: the PDR engine on the correct programs (paper: Z3 4.3.2, 1.7 GHz Core i5)"
        );
        table6(&exe, args, &correct, &mut tally);
        println!();
        println!("Buggy twins and Table 8: the default portfolio");
        bugs(&exe, args, &twins, &t8, &mut tally);
        println!();
    }
    println!(
        "Table 6 in the paper's setting: each function alone against its contract \
         (contracts/X.safety.shape, contracts/X.property.shape)"
    );
    contracts(&exe, args, &correct, &mut tally);
    println!();
    println!("Buggy twins and Table 8 against the same contracts: PDR");
    contract_bugs(&exe, args, &twins, &t8, &mut tally);
    summary(&tally)
}

/// The stems of the folder's `.c` files, sorted.
fn stems(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(names)
}

/// The correct programs (neither `_bug` nor `t8_`), in the paper's row order, others after.
fn correct_programs(stems: &[String]) -> Vec<String> {
    let mut out: Vec<String> = stems
        .iter()
        .filter(|s| !s.ends_with("_bug") && !s.starts_with("t8_"))
        .cloned()
        .collect();
    paper_order(&mut out, &TABLE6.map(|r| r[0]));
    out
}

/// Sorts `names` in the order of `paper`, the names it lacks last (alphabetically).
fn paper_order(names: &mut [String], paper: &[&str]) {
    names.sort_by_key(|n| {
        let at = paper.iter().position(|p| p == n);
        (at.unwrap_or(usize::MAX), n.clone())
    });
}

/// The header of Table 6's rows.
fn table6_header() {
    println!(
        "{:<14} {:<9} {:<5} | {:<8} {:>7} {:>3} {:>6} {:>4} | {:>8} {:>3} {:>5} {:>4} | reason",
        "program",
        "block",
        "preds",
        "ours",
        "time",
        "N",
        "calls",
        "cl.",
        "paper",
        "N",
        "calls",
        "cl."
    );
}

/// One row of Table 6: ours beside the paper's `cols` (predicates, time, N, calls, clauses).
fn table6_row(name: &str, label: &str, cols: &[&str], o: &Outcome) {
    println!(
        "{:<14} {:<9} {:<5} | {:<8} {:>7.2} {:>3} {:>6} {:>4} | {:>8} {:>3} {:>5} {:>4} | {}",
        name,
        label,
        cols[0],
        o.verdict,
        o.secs,
        dash(o.frames.as_deref()),
        dash(o.calls.as_deref()),
        dash(o.clauses.as_deref()),
        cols[1],
        cols[2],
        cols[3],
        cols[4],
        short(&o.reason, 60)
    );
}

/// Three PDR runs per correct program, one line each.
fn table6(exe: &Path, args: &Table3Args, programs: &[String], tally: &mut Tally) {
    table6_header();
    for name in programs {
        let paper = TABLE6.iter().find(|r| r[0] == name);
        let file = args.dir.join(format!("{name}.c"));
        for (b, (label, check)) in BLOCKS.iter().enumerate() {
            let cols: Vec<&str> = match paper {
                Some(r) if b < 2 => r[2 + 5 * b..7 + 5 * b].to_vec(),
                Some(_) => vec!["-", "n/a", "n/a", "n/a", "n/a"],
                None => vec!["(own)", "n/a", "n/a", "n/a", "n/a"],
            };
            let o = verify(
                exe,
                &file,
                &["--engine", "pdr", "--check", check],
                args.timeout,
            );
            tally.runs += 1;
            tally.proved += usize::from(o.verdict == "TRUE");
            tally.wrong += usize::from(o.verdict.starts_with("FALSE"));
            table6_row(name, label, &cols, &o);
        }
    }
}

/// The two contract blocks: the file suffix and the label.
const CONTRACTS: [(&str, &str); 2] = [("safety", "safety"), ("property", "+property")];

/// The `verify` arguments that check `function` alone against the contract in `spec`.
fn contract_args<'a>(spec: &'a str, function: &'a str) -> [&'a str; 8] {
    [
        "--engine",
        "pdr",
        "--spec",
        spec,
        "--function",
        function,
        "--check",
        "unreach-call,valid-deref,valid-free",
    ]
}

/// Two PDR runs per correct program with a contract file, its function alone.
fn contracts(exe: &Path, args: &Table3Args, programs: &[String], tally: &mut Tally) {
    table6_header();
    for name in programs {
        let paper = TABLE6.iter().find(|r| r[0] == name);
        let file = args.dir.join(format!("{name}.c"));
        for (b, (suffix, label)) in CONTRACTS.iter().enumerate() {
            let spec = args.dir.join(format!("contracts/{name}.{suffix}.shape"));
            if !spec.exists() {
                continue;
            }
            let cols: Vec<&str> = match paper {
                Some(r) => r[2 + 5 * b..7 + 5 * b].to_vec(),
                None => vec!["(own)", "n/a", "n/a", "n/a", "n/a"],
            };
            let spec = spec.display().to_string();
            let o = verify(exe, &file, &contract_args(&spec, name), args.timeout);
            tally.contract_runs += 1;
            tally.contract_proved += usize::from(o.verdict == "TRUE");
            tally.wrong += usize::from(o.verdict.starts_with("FALSE"));
            table6_row(name, label, &cols, &o);
        }
    }
}

/// The buggy programs whose bug no contract of their function can see, with the reason:
/// they are listed, not run.
const OUTSIDE: [(&str, &str); 3] = [
    (
        "reverse_bug",
        "the bug is in the caller (a too weak precondition); reverse is correct",
    ),
    (
        "filter_bug",
        "the bug is in the data criterion; the filter contract has no data atoms",
    ),
    (
        "t8_filter_typo",
        "the bug is in the data criterion; the program is memory safe",
    ),
];

/// Each twin against its program's property contract, and each Table 8 program against its
/// own contract (`contracts/t8_X.shape`) or its function's safety contract. A bug counts as
/// found when the bounded check finds a run of the logic's model that breaks the contract or
/// leaves the logic (a store closing a cycle: the paper's corrupted structure); it is FALSE
/// when the function run concretely from that run's initial heap breaks the contract too.
fn contract_bugs(
    exe: &Path,
    args: &Table3Args,
    twins: &[String],
    t8: &[String],
    tally: &mut Tally,
) {
    println!(
        "{:<22} {:<14} {:<10} {:<18} {:<5} {:>7} | reason",
        "program", "function", "contract", "ours", "found", "time"
    );
    let mut runs: Vec<(String, String, String)> = vec![];
    for twin in twins {
        let function = twin.trim_end_matches("_bug").to_string();
        runs.push((
            twin.clone(),
            function.clone(),
            format!("{function}.property"),
        ));
    }
    for name in t8 {
        let rest = name.trim_start_matches("t8_");
        let function = rest.split('_').next().unwrap_or(rest).to_string();
        let own = args.dir.join(format!("contracts/{name}.shape"));
        let spec = if own.exists() {
            name.clone()
        } else {
            format!("{function}.safety")
        };
        runs.push((name.clone(), function, spec));
    }
    for (name, function, spec) in runs {
        let path = args.dir.join(format!("contracts/{spec}.shape"));
        if !path.exists() {
            continue;
        }
        if let Some((_, why)) = OUTSIDE.iter().find(|(n, _)| *n == name) {
            println!("{name:<22} {function:<14} {:<10} not run: {why}", "-");
            continue;
        }
        let file = args.dir.join(format!("{name}.c"));
        let path = path.display().to_string();
        let o = verify(exe, &file, &contract_args(&path, &function), args.timeout);
        let replayed = o.verdict.starts_with("FALSE");
        let found = replayed
            || (o.verdict == "UNKNOWN"
                && (o.reason.contains("a run of the logic's model")
                    || o.reason.contains("leaves the logic")));
        tally.contract_bugs += 1;
        tally.contract_found += usize::from(found);
        tally.contract_replayed += usize::from(replayed);
        tally.wrong += usize::from(o.verdict == "TRUE");
        println!(
            "{:<22} {:<14} {:<10} {:<18} {:<5} {:>7.2} | {}",
            name,
            function,
            spec.rsplit('.').next().unwrap_or(&spec),
            o.verdict,
            if found { "yes" } else { "no" },
            o.secs,
            if found {
                String::new()
            } else {
                short(&o.reason, 60)
            }
        );
    }
}

/// The default portfolio on each twin and Table 8 program, one line each.
fn bugs(exe: &Path, args: &Table3Args, twins: &[String], t8: &[String], tally: &mut Tally) {
    println!(
        "{:<22} {:<26} {:<21} {:<21} {:<5} {:>7} | {:>8} {:>3} {:>5} {:>4} | reason",
        "program",
        "Table 8 row",
        "expected",
        "ours",
        "match",
        "time",
        "paper",
        "N",
        "calls",
        "c.e."
    );
    for name in twins.iter().chain(t8) {
        let paper = TABLE8.iter().find(|r| r[0] == name);
        let cols: Vec<&str> = match paper {
            Some(r) => r[1..].to_vec(),
            None if name.starts_with("t8_") => vec!["(own)", "n/a", "n/a", "n/a", "n/a"],
            None => vec!["", "", "", "", ""],
        };
        let file = args.dir.join(format!("{name}.c"));
        let sub = expected(&file);
        let check = sub
            .as_deref()
            .map_or("unreach-call,valid-memsafety", check_for);
        let o = verify(exe, &file, &["--check", check], args.timeout);
        let want = sub.as_ref().map(|s| format!("FALSE({s})"));
        let hit = want.as_ref() == Some(&o.verdict);
        let (count, found) = if name.starts_with("t8_") {
            (&mut tally.t8, &mut tally.t8_found)
        } else {
            (&mut tally.twins, &mut tally.twins_found)
        };
        *count += 1;
        *found += usize::from(hit);
        tally.wrong += usize::from(o.verdict == "TRUE");
        println!(
            "{:<22} {:<26} {:<21} {:<21} {:<5} {:>7.2} | {:>8} {:>3} {:>5} {:>4} | {}",
            name,
            cols[0],
            want.as_deref().unwrap_or("?"),
            o.verdict,
            if hit { "yes" } else { "no" },
            o.secs,
            cols[1],
            cols[2],
            cols[3],
            cols[4],
            if hit {
                String::new()
            } else {
                short(&o.reason, 60)
            }
        );
    }
}

/// Prints the summary line; exit code 1 when a verdict was wrong.
fn summary(t: &Tally) -> ExitCode {
    println!();
    let whole = format!(
        "{} of {} correct runs TRUE (PDR); {} of {} twins and {} of {} Table 8 programs FALSE \
         as expected; ",
        t.proved, t.runs, t.twins_found, t.twins, t.t8_found, t.t8
    );
    println!(
        "{}against contracts: {} of {} runs TRUE, {} of {} buggy runs refuted by a run of the \
         model ({} replayed concretely: FALSE); {} wrong",
        if t.runs > 0 { whole.as_str() } else { "" },
        t.contract_proved,
        t.contract_runs,
        t.contract_found,
        t.contract_bugs,
        t.contract_replayed,
        t.wrong
    );
    if t.wrong > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The subproperty of the file's `Expected: FALSE (...)` header line; None for a TRUE or a
/// missing line.
fn expected(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find_map(|l| l.split_once("Expected:"))?.1;
    let inner = line
        .trim()
        .strip_prefix("FALSE")?
        .trim()
        .strip_prefix('(')?;
    let sub = inner.split([',', ')']).next()?.trim();
    (!sub.is_empty()).then(|| sub.to_string())
}

/// The `--check` value that covers a subproperty.
fn check_for(sub: &str) -> &str {
    match sub {
        "valid-deref" | "valid-free" | "valid-memtrack" => "valid-memsafety",
        other => other,
    }
}

/// Runs `verify FILE ARGS --timeout T` in a child process and parses its answer.
pub(crate) fn verify(exe: &Path, file: &Path, args: &[&str], timeout: f64) -> Outcome {
    let start = Instant::now();
    let output = Command::new(exe)
        .arg("verify")
        .arg(file)
        .args(args)
        .arg("--timeout")
        .arg(timeout.to_string())
        .output();
    let secs = start.elapsed().as_secs_f64();
    match output {
        Ok(o) => parse(
            &String::from_utf8_lossy(&o.stdout),
            &String::from_utf8_lossy(&o.stderr),
            secs,
        ),
        Err(e) => parse("", &format!("error: {e}"), secs),
    }
}

/// Parses `verify`'s text answer (see the module doc for the lines used).
fn parse(out: &str, err: &str, secs: f64) -> Outcome {
    let verdict = out.lines().next().unwrap_or("(no answer)").to_string();
    let (frames, calls) = match out.lines().rev().find_map(|l| l.strip_prefix("N = ")) {
        Some(rest) => match rest.split_once(", ") {
            Some((n, c)) => (
                Some(n.to_string()),
                c.strip_suffix(" solver calls").map(str::to_string),
            ),
            None => (None, None),
        },
        None => (None, None),
    };
    let clauses = out
        .lines()
        .filter(|l| l.starts_with("proof: "))
        .find_map(|l| l.split_once("PDR invariant (").map(|(_, r)| r))
        .and_then(|r| r.split_once(" clauses"))
        .map(|(k, _)| k.to_string());
    Outcome {
        reason: reason(&verdict, out, err),
        verdict,
        secs,
        frames,
        calls,
        clauses,
        text: out.to_string(),
    }
}

/// Why a run is not TRUE: the first `reason:` line of an UNKNOWN, the location line of a
/// FALSE, else the first line of stderr.
fn reason(verdict: &str, out: &str, err: &str) -> String {
    let line = if verdict == "TRUE" {
        None
    } else if verdict.starts_with("FALSE") {
        out.lines().nth(1).map(without_dir)
    } else {
        out.lines().find_map(|l| l.strip_prefix("reason: "))
    };
    match line {
        Some(l) => l.to_string(),
        None if verdict == "TRUE" => String::new(),
        None => err.lines().next().unwrap_or_default().to_string(),
    }
}

/// A `dir/file.c:LINE: message` line without the folder.
fn without_dir(line: &str) -> &str {
    match line.split_once(".c:") {
        Some((path, _)) => path.rfind('/').map_or(line, |i| &line[i + 1..]),
        None => line,
    }
}

/// The value, or `-` when absent.
fn dash(v: Option<&str>) -> &str {
    v.unwrap_or("-")
}

/// `s` cut to at most `max` characters, an ellipsis marking a cut.
pub(crate) fn short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

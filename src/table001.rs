//! `shapecheck table001`: seed 001's Table 1 (Botinčan, Dodds, Magill, "Refining Existential
//! Properties in Separation Logic Analyses") side by side with runs on benchmarks/seed-001:
//! the separation-logic engine on each correct program (result, |T|, refinements, ART size,
//! entailment queries, time) next to the paper's (result, domain, |T| with the minimal |T|,
//! #Refn, |ART|, #Quer), and the default portfolio on each buggy twin (FALSE expected).
//!
//! Consumes the folder's programs (`X.c` and its twin `X_bug.c`); runs `verify` on each in a
//! child process under the time limit; prints the table and a summary. Exit code 1 when a
//! verdict is wrong (TRUE on a twin, FALSE on a correct program), 2 when a program is
//! missing.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// `shapecheck table001` arguments.
#[derive(clap::Args)]
pub struct Table001Args {
    /// The folder of the seed 001 programs.
    #[arg(default_value = "benchmarks/seed-001")]
    dir: PathBuf,
    /// Time limit per run, in seconds.
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
}

/// Table 1 of seed 001: our program, row, group, benchmark, then the paper's result, domain,
/// |T| (minimal), #Refn, |ART|, #Quer.
const TABLE1: [[&str; 10]; 17] = [
    [
        "fig1",
        "-",
        "Fig. 1",
        "running example",
        "✓",
        "mls",
        "1",
        "1",
        "-",
        "-",
    ],
    [
        "set_add_mem",
        "1",
        "Set",
        "add(x) ∗ mem(x)",
        "✓",
        "mls",
        "1",
        "1",
        "83",
        "162",
    ],
    [
        "set_any_add_mem",
        "2",
        "Set",
        "∗ add(x) ∗¬del mem(x)",
        "✓",
        "mls",
        "1",
        "1",
        "104",
        "193",
    ],
    [
        "set_mem_mem",
        "3",
        "Set",
        "∗¬del mem(x) ∗¬x mem(x)",
        "✓",
        "mls",
        "1",
        "1",
        "165",
        "280",
    ],
    [
        "set_all_equal",
        "4",
        "Set",
        "∗add(x) all_equal_to_x",
        "∞",
        "mls",
        "-",
        "-",
        "-",
        "-",
    ],
    [
        "set_all_sorted",
        "5",
        "Set",
        "∗add(x) all_sorted",
        "⊤",
        "mls",
        "-",
        "-",
        "-",
        "-",
    ],
    [
        "multiset_add_add_del_mem",
        "6",
        "Multiset",
        "add(x) add(x) del(x) mem(x)",
        "✓",
        "mls",
        "2",
        "1",
        "67",
        "91",
    ],
    [
        "multiset_any_add_mem",
        "7",
        "Multiset",
        "∗ add(x) ∗¬del mem(x)",
        "✓",
        "mls",
        "1",
        "1",
        "112",
        "205",
    ],
    [
        "multiset_mem_mem",
        "8",
        "Multiset",
        "∗¬del mem(x) ∗¬x mem(x)",
        "✓",
        "mls",
        "1",
        "1",
        "171",
        "312",
    ],
    [
        "multiset_two_adds_del_mem",
        "9",
        "Multiset",
        "∗ add(x) ∗¬del add(x) ∗¬del del(x) mem(x)",
        "✓",
        "mls",
        "2",
        "2",
        "219",
        "458",
    ],
    [
        "map_put_get",
        "10",
        "Map",
        "∗ put(k,v) ∗¬k get(k)",
        "✓",
        "mls",
        "1",
        "1",
        "118",
        "215",
    ],
    [
        "map_rem_bound",
        "11",
        "Map",
        "∗ rem(k) bound(k)",
        "✓",
        "mls",
        "1",
        "1",
        "92",
        "168",
    ],
    [
        "bytebuffer_p1",
        "12",
        "ByteBufferPool",
        "Property 1",
        "✓",
        "rls",
        "1",
        "1",
        "154",
        "231",
    ],
    [
        "bytebuffer_p2",
        "13",
        "ByteBufferPool",
        "Property 2",
        "✓",
        "rls",
        "2 (1)",
        "1",
        "189",
        "270",
    ],
    [
        "bytebuffer_p3",
        "14",
        "ByteBufferPool",
        "Property 3",
        "✓",
        "rls",
        "6 (2)",
        "4",
        "316",
        "511",
    ],
    [
        "freertos_p4",
        "15",
        "FreeRTOS list",
        "Property 4",
        "✓",
        "mls",
        "1",
        "1",
        "91",
        "158",
    ],
    [
        "freertos_p5",
        "16",
        "FreeRTOS list",
        "Property 5",
        "✓",
        "sls",
        "6",
        "5",
        "425",
        "971",
    ],
];

/// One run: verdict, seconds, and the engine's numbers when it proved.
struct Outcome {
    verdict: String,
    secs: f64,
    numbers: Option<[String; 4]>,
    /// The spec's domain that proved it (`mls`, `sls`).
    domain: String,
}

fn run(program: &Path, engine: &str, timeout: f64) -> Outcome {
    let start = Instant::now();
    let out = Command::new(std::env::current_exe().unwrap_or_else(|_| "shapecheck".into()))
        .arg("verify")
        .arg(program)
        .args(["--engine", engine, "--timeout", &format!("{timeout}")])
        .output();
    let secs = start.elapsed().as_secs_f64();
    let text = out.map_or_else(
        |e| e.to_string(),
        |o| String::from_utf8_lossy(&o.stdout).into(),
    );
    let verdict = text.lines().next().unwrap_or("").to_string();
    Outcome {
        verdict,
        secs,
        numbers: numbers(&text),
        domain: domain(&text),
    }
}

/// The name of the spatial domain a proof names (`domain: sls (...)`), or `-`.
fn domain(text: &str) -> String {
    let line = text.lines().find_map(|l| l.strip_prefix("domain: "));
    let name = line.and_then(|l| l.split_whitespace().next());
    name.unwrap_or("-").to_string()
}

/// |T|, refinements, ART size and queries from the proof line.
fn numbers(text: &str) -> Option<[String; 4]> {
    let line = text
        .lines()
        .find(|l| l.starts_with("proof: separation-logic"))?;
    let after = |key: &str| -> Option<String> {
        let rest = &line[line.find(key)? + key.len()..];
        Some(
            rest.split(|c: char| !c.is_ascii_digit())
                .next()?
                .to_string(),
        )
    };
    Some([
        after("(|T| = ")?,
        after(") after ")?,
        after("tree of ")?,
        after("refinements and ")?,
    ])
}

/// Prints the table; the exit code says whether every verdict was right.
pub fn table001(args: &Table001Args) -> ExitCode {
    println!(
        "{:<3} {:<15} {:<42} | {:<6} {:<4} {:<6} {:<5} {:<5} {:<5} | {:<8} {:<4} {:<4} {:<5} {:<5} {:<6} {:>6} | twin",
        "row",
        "group",
        "benchmark",
        "paper",
        "dom",
        "|T|",
        "#Refn",
        "|ART|",
        "#Quer",
        "ours",
        "dom",
        "|T|",
        "#Refn",
        "|ART|",
        "#Quer",
        "time"
    );
    let (mut proved, mut found, mut wrong, mut missing) = (0, 0, 0, 0);
    for row in TABLE1 {
        let file = args.dir.join(format!("{}.c", row[0]));
        if !file.exists() {
            missing += 1;
            continue;
        }
        let ours = run(&file, "separation", args.timeout);
        let n = ours.numbers.clone().unwrap_or_default();
        proved += usize::from(ours.verdict == "TRUE");
        wrong += usize::from(ours.verdict.starts_with("FALSE"));
        let twin = args.dir.join(format!("{}_bug.c", row[0]));
        let twin = if twin.exists() {
            let t = run(&twin, "auto", args.timeout);
            found += usize::from(t.verdict.starts_with("FALSE"));
            wrong += usize::from(t.verdict == "TRUE");
            format!("{} ({:.1} s)", t.verdict, t.secs)
        } else {
            "-".into()
        };
        println!(
            "{:<3} {:<15} {:<42} | {:<6} {:<4} {:<6} {:<5} {:<5} {:<5} | {:<8} {:<4} {:<4} {:<5} {:<5} {:<6} {:>5.1}s | {twin}",
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            row[7],
            row[8],
            row[9],
            ours.verdict,
            ours.domain,
            n[0],
            n[1],
            n[2],
            n[3],
            ours.secs
        );
    }
    println!(
        "\n{proved} correct programs proved, {found} twins refuted, {wrong} wrong verdicts, \
         {missing} rows without a program"
    );
    if wrong > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

//! `shapecheck table4`: seed 004's Fig. 9 and Fig. 10 (Wies et al., "On Verifying Complex
//! Properties using Symbolic Shape Analysis", HAV 2007) side by side with Bohne runs on
//! benchmarks/seed-004.
//!
//! Consumes the folder's procedures (`X.c`, its twin `X_bug.c`, its contract
//! `contracts/X.shape`); runs `verify --engine bohne --function F` on each in a child
//! process under the time limit; prints, per Fig. 9 row, our verdict, predicates (all
//! discovered), solver calls and posts answered by the cache, and time beside the paper's
//! predicates (manual), validity-checker calls (cache hits) and time, with the twin's
//! verdict; then, with `--ablation`, Fig. 10: the same runs with each context operator. Exit
//! code 1 when a verdict is wrong (TRUE on a twin, FALSE on a correct procedure), 2 when the
//! folder is unreadable.

use crate::table3::{Outcome, short, verify};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `shapecheck table4` arguments.
#[derive(clap::Args)]
pub struct Table4Args {
    /// The folder of the seed 004 procedures.
    #[arg(default_value = "benchmarks/seed-004")]
    dir: PathBuf,
    /// Time limit per run, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Also Fig. 10: every procedure with each context operator.
    #[arg(long)]
    ablation: bool,
}

/// Fig. 9: file stem, C function, row, predicates (manual), calls (cache hits), time.
const FIG9: [[&str; 6]; 7] = [
    [
        "dll_add_last",
        "add_last",
        "DLL.addLast",
        "7 (0)",
        "118 (19%)",
        "2",
    ],
    [
        "list_reverse",
        "reverse",
        "List.reverse",
        "7 (2)",
        "371 (22%)",
        "4",
    ],
    [
        "sorted_list_add",
        "insert",
        "SortedList.add",
        "16 (1)",
        "368 (40%)",
        "11",
    ],
    [
        "skiplist_add",
        "add",
        "Skiplist.add",
        "20 (0)",
        "787 (44%)",
        "26",
    ],
    ["tree_add", "add", "Tree.add", "13 (0)", "358 (31%)", "31"],
    [
        "parent_tree_add",
        "add",
        "ParentTree.add",
        "13 (0)",
        "362 (32%)",
        "33",
    ],
    [
        "array_inv",
        "inv",
        "Linear.arrayInv",
        "7 (5)",
        "882 (52%)",
        "57",
    ],
];

/// Fig. 10: row, then time and calls (hits) per context: none, full, instantiated.
const FIG10: [[&str; 7]; 4] = [
    [
        "dll_add_last",
        "2 s",
        "118 (20%)",
        "4 s",
        "178 (23%)",
        "2 s",
        "118 (19%)",
    ],
    [
        "sorted_list_add",
        "14 s (fails)",
        "457 (32%)",
        "24 s",
        "445 (22%)",
        "11 s",
        "368 (40%)",
    ],
    [
        "skiplist_add",
        "29 s (fails)",
        "1110 (51%)",
        "72 s",
        "1031 (38%)",
        "26 s",
        "787 (44%)",
    ],
    [
        "tree_add",
        "71 s",
        "1024 (51%)",
        "473 s",
        "742 (13%)",
        "32 s",
        "358 (31%)",
    ],
];

/// Why a Fig. 9 row has no program here.
const MISSING: [(&str, &str); 1] = [("array_inv", "the logic has no arrays")];

/// Runs the table.
pub fn table4(args: &Table4Args) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot locate the shapecheck executable: {e}");
            return ExitCode::from(2);
        }
    };
    if !args.dir.is_dir() {
        eprintln!("error: {}: not a folder", args.dir.display());
        return ExitCode::from(2);
    }
    println!("Fig. 9: Bohne on each procedure against its contract (paper: Jahob, MONA, CVC Lite)");
    println!(
        "{:<16} {:<15} | {:<8} {:>6} {:>18} {:>7} | {:>7} {:>10} {:>5} | {:<16} | reason",
        "program",
        "row",
        "ours",
        "preds",
        "calls (cached)",
        "time",
        "preds",
        "calls",
        "time",
        "twin"
    );
    let mut wrong = 0;
    let mut proved = 0;
    for row in FIG9 {
        let [stem, function, name, preds, calls, time] = row;
        if let Some((_, why)) = MISSING.iter().find(|(s, _)| *s == stem) {
            println!("{stem:<16} {name:<15} | not here: {why}");
            continue;
        }
        let o = run(&exe, args, stem, function, stem, None);
        let twin = run(&exe, args, stem, function, &format!("{stem}_bug"), None);
        wrong += usize::from(o.verdict.starts_with("FALSE")) + usize::from(twin.verdict == "TRUE");
        proved += usize::from(o.verdict == "TRUE");
        println!(
            "{:<16} {:<15} | {:<8} {:>6} {:>18} {:>7.2} | {:>7} {:>10} {:>5} | {:<16} | {}",
            stem,
            name,
            o.verdict,
            field(&o.text, " predicates over", 0),
            cached(&o.text),
            o.secs,
            preds,
            calls,
            time,
            format!("{} {:.1}", twin.verdict, twin.secs),
            short(&o.reason, 50)
        );
    }
    if args.ablation {
        println!();
        println!("Fig. 10: time and calls per context operator (ours | paper)");
        for row in FIG10 {
            let stem = row[0];
            let Some(f) = FIG9.iter().find(|r| r[0] == stem) else {
                continue;
            };
            if MISSING.iter().any(|(s, _)| *s == stem) {
                continue;
            }
            for (i, ctx) in ["none", "full", "instantiated"].into_iter().enumerate() {
                let o = run(&exe, args, stem, f[1], stem, Some(ctx));
                wrong += usize::from(o.verdict.starts_with("FALSE"));
                println!(
                    "{:<16} {:<13} | {:<8} {:>7.2} {:>18} | {:>13} {:>11}",
                    stem,
                    ctx,
                    o.verdict,
                    o.secs,
                    cached(&o.text),
                    row[1 + 2 * i],
                    row[2 + 2 * i]
                );
            }
        }
    }
    println!();
    println!("proved: {proved}; wrong verdicts: {wrong}");
    if wrong > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One Bohne run of `function` in `file` against `stem`'s contract.
fn run(
    exe: &Path,
    args: &Table4Args,
    stem: &str,
    function: &str,
    file: &str,
    context: Option<&str>,
) -> Outcome {
    let spec = args.dir.join(format!("contracts/{stem}.shape"));
    let spec = spec.display().to_string();
    let mut a = vec!["--engine", "bohne", "--spec", &spec, "--function", function];
    a.extend(["--check", "unreach-call,valid-deref,valid-free"]);
    if let Some(c) = context {
        a.extend(["--context", c]);
    }
    verify(exe, &args.dir.join(format!("{file}.c")), &a, args.timeout)
}

/// The `k`-th word before `marker` on the report's line that has it (`-` when absent).
fn field(text: &str, marker: &str, k: usize) -> String {
    (text.lines())
        .find_map(|l| l.split_once(marker).map(|(a, _)| a))
        .and_then(|a| a.split_whitespace().rev().nth(k))
        .unwrap_or("-")
        .to_string()
}

/// Solver calls and posts from the cache, as `calls (hits/lookups)`.
fn cached(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.contains(" solver calls"))
        .unwrap_or("");
    let calls = line
        .split_once(" solver calls")
        .and_then(|(a, _)| a.split_whitespace().last())
        .unwrap_or("-");
    let hits = line
        .split_once("), ")
        .and_then(|(_, b)| b.split_once(" posts from the cache"))
        .map(|(h, _)| h.replace(" of ", "/"))
        .unwrap_or_else(|| "-".into());
    format!("{calls} ({hits})")
}

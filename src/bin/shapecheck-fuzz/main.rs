//! shapecheck-fuzz: fuzzing and differential soundness testing of shapecheck on the stable
//! toolchain.
//!
//! - `fuzz --target c-frontend|spec|cli|all`: mutation- and grammar-based fuzzing; crashing
//!   inputs, deduplicated by signature and minimised, go to `--artifacts` (default
//!   `fuzz-artifacts/`), and a summary table ends the run;
//! - `replay --target T FILE...`: runs saved inputs again and prints what each does;
//! - `difftest`: random heap-manipulating C programs verified by shapecheck and cross-checked
//!   by running them compiled with AddressSanitizer and UBSan;
//! - `worker`: the child process that runs in-process targets (internal).

mod artifacts;
mod cli;
mod corpus;
mod difftest;
mod engine;
mod grammar;
mod mutate;
mod rng;
mod targets;
mod worker;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use targets::Target;

#[derive(Parser)]
#[command(
    name = "shapecheck-fuzz",
    about = "Fuzzing and differential testing of shapecheck"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fuzz one target or all of them; exit 1 when a crash was found.
    Fuzz(FuzzArgs),
    /// Run saved inputs again (crash files, regressions) and print each outcome.
    Replay(ReplayArgs),
    /// Differential soundness testing against AddressSanitizer/UBSan.
    Difftest(difftest::DiffArgs),
    /// Serve inputs of an in-process target on stdin (internal).
    #[command(hide = true)]
    Worker(WorkerArgs),
}

#[derive(clap::Args)]
struct CommonArgs {
    /// c-frontend, spec, cli or all.
    #[arg(long, default_value = "all")]
    target: String,
    /// Where crashing inputs are saved.
    #[arg(long, default_value = "fuzz-artifacts")]
    artifacts: PathBuf,
    /// The shapecheck binary (cli target); default: beside this binary.
    #[arg(long)]
    shapecheck: Option<PathBuf>,
    /// Time limit of one input, in seconds (in-process targets; a hang past it is a crash).
    #[arg(long, default_value_t = 10.0)]
    exec_timeout: f64,
    /// Time limit of one cli run, in seconds.
    #[arg(long, default_value_t = 30.0)]
    cli_timeout: f64,
    /// Stack of each stage thread of an in-process target, in MiB (8: like a main thread).
    #[arg(long, default_value_t = 8)]
    stack_mb: usize,
    /// Address-space limit of a worker, in MiB (0: none).
    #[arg(long, default_value_t = 4096)]
    memory_mb: u64,
}

#[derive(clap::Args)]
struct FuzzArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Inputs per target.
    #[arg(long)]
    iterations: Option<u64>,
    /// Seconds per target (default: 60 when --iterations is not given).
    #[arg(long)]
    seconds: Option<f64>,
    /// The seed: the same seed and budget in iterations give the same inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Mutators or generators to switch off, comma-separated (see --list).
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
    /// Runs spent minimising each new crash (0: none).
    #[arg(long, default_value_t = 400)]
    minimise: u32,
    /// Longest input in bytes.
    #[arg(long, default_value_t = 1 << 20)]
    max_len: usize,
    /// Read no corpus outside the repository (SV-COMP, reliability probes).
    #[arg(long)]
    no_external: bool,
    /// The repository root (corpus); default: the current directory if it is the repository,
    /// else where the binary was built.
    #[arg(long)]
    root: Option<PathBuf>,
    /// Print every new crash when it is found.
    #[arg(long, short)]
    verbose: bool,
    /// List mutator and generator names and exit.
    #[arg(long)]
    list: bool,
}

#[derive(clap::Args)]
struct ReplayArgs {
    #[command(flatten)]
    common: CommonArgs,
    /// Saved inputs (`.c`, `.shape`, or `.args` for the cli target).
    files: Vec<PathBuf>,
}

#[derive(clap::Args)]
struct WorkerArgs {
    #[arg(long)]
    target: Target,
    #[arg(long)]
    stack_bytes: usize,
    #[arg(long)]
    memory_mb: u64,
}

fn main() -> ExitCode {
    worker::remember_exe();
    match Cli::parse().command {
        Command::Worker(w) => worker::serve(w.target, w.stack_bytes, w.memory_mb),
        Command::Fuzz(f) => fuzz(&f),
        Command::Replay(r) => replay(&r),
        Command::Difftest(d) => difftest::run(&d),
    }
}

fn targets_of(name: &str) -> Result<Vec<Target>, String> {
    if name == "all" {
        Ok(targets::ALL.to_vec())
    } else {
        name.split(',').map(str::parse).collect()
    }
}

fn repo_root(given: Option<&PathBuf>) -> PathBuf {
    if let Some(r) = given {
        return r.clone();
    }
    let here = PathBuf::from(".");
    if here.join("library/specs").is_dir() && here.join("runtime").is_dir() {
        here
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

fn shapecheck_binary(given: Option<&PathBuf>) -> PathBuf {
    given.cloned().unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(|d| d.join("shapecheck")))
            .unwrap_or_else(|| PathBuf::from("shapecheck"))
    })
}

fn worker_config(target: Target, c: &CommonArgs) -> worker::WorkerConfig {
    worker::WorkerConfig {
        target,
        stack_bytes: c.stack_mb << 20,
        memory_mb: c.memory_mb,
        timeout: Duration::from_secs_f64(c.exec_timeout),
    }
}

fn fuzz(f: &FuzzArgs) -> ExitCode {
    if f.list {
        println!("{}", mutate::known_names().join("\n"));
        return ExitCode::SUCCESS;
    }
    if let Some(bad) = f
        .skip
        .iter()
        .find(|s| !s.is_empty() && !mutate::known_names().contains(&s.as_str()))
    {
        eprintln!("error: unknown mutator or generator `{bad}` (see --list)");
        return ExitCode::from(2);
    }
    let targets = match targets_of(&f.common.target) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let budget = engine::Budget {
        iterations: f.iterations,
        seconds: f.seconds.or(if f.iterations.is_none() {
            Some(60.0)
        } else {
            None
        }),
    };
    let root = repo_root(f.root.as_ref());
    let mut rows = vec![];
    for t in targets {
        rows.push(match t {
            Target::Cli => cli::fuzz(&cli::CliConfig {
                binary: shapecheck_binary(f.common.shapecheck.as_ref()),
                budget,
                seed: f.seed,
                skip: f.skip.clone(),
                limit: Duration::from_secs_f64(f.common.cli_timeout),
                artifacts: f.common.artifacts.clone(),
                verbose: f.verbose,
            }),
            _ => engine::fuzz(
                t,
                &engine::FuzzConfig {
                    budget,
                    seed: f.seed,
                    skip: f.skip.clone(),
                    minimise_runs: f.minimise,
                    max_len: f.max_len,
                    worker: worker_config(t, &f.common),
                    corpus: corpus::CorpusConfig {
                        external: if f.no_external {
                            vec![]
                        } else {
                            corpus::default_external(&root)
                        },
                        root: root.clone(),
                    },
                    artifacts: f.common.artifacts.clone(),
                    verbose: f.verbose,
                },
            ),
        });
    }
    print!("{}", artifacts::table(&rows));
    if rows.iter().any(|r| !r.store.seen.is_empty()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn replay(r: &ReplayArgs) -> ExitCode {
    let mut crashed = false;
    for file in &r.files {
        let target = match guess_target(&r.common.target, file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        let outcome = replay_one(target, &bytes, &r.common);
        match outcome {
            Some((sig, _)) => {
                crashed = true;
                println!("{}: CRASH {sig}", file.display());
            }
            None => println!("{}: ok", file.display()),
        }
    }
    if crashed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn guess_target(given: &str, file: &std::path::Path) -> Result<Target, String> {
    if given != "all" {
        return given.parse();
    }
    match file.extension().and_then(|e| e.to_str()) {
        Some("c" | "i") => Ok(Target::CFrontend),
        Some("shape") => Ok(Target::Spec),
        Some("args") => Ok(Target::Cli),
        _ => Err("cannot tell the target from the extension; give --target".into()),
    }
}

/// Runs one saved input; `Some((signature, detail))` when it crashes.
fn replay_one(target: Target, bytes: &[u8], c: &CommonArgs) -> Option<(String, String)> {
    if target == Target::Cli {
        let (args, closed) = cli::parse_saved(&String::from_utf8_lossy(bytes));
        let bin = shapecheck_binary(c.shapecheck.as_ref());
        return cli::run_one(&bin, &args, closed, Duration::from_secs_f64(c.cli_timeout));
    }
    let mut w = match worker::Worker::spawn(&worker_config(target, c)) {
        Ok(w) => w,
        Err(e) => return Some(("worker failed to start".into(), e.to_string())),
    };
    match w.run(bytes) {
        worker::Outcome::Ok => None,
        worker::Outcome::Crash { signature, detail } => Some((signature, detail)),
    }
}

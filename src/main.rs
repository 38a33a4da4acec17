//! The shapecheck command line: `verify` (the verdict on a C program), `cfa` (the program IR),
//! `bench` (SV-COMP task definitions, scored).
//!
//! Exit codes of `verify`: 0 when a verdict line was printed (TRUE, FALSE(...) or UNKNOWN);
//! 2 for bad input (missing or malformed C file, unknown property, unreadable property file),
//! with an error on stderr and no verdict; 3 when the tool failed internally (the verdict line
//! is then UNKNOWN).

mod bench;
mod classify;
mod guard;
mod prove;
mod spec_cmd;
mod specs;

use clap::{Parser, Subcommand, ValueEnum};
use shapecheck_runtime::explicit::explore::Limits;
use shapecheck_runtime::program::frontend::FrontendErrorKind;
use shapecheck_runtime::program::property::PropertySet;
use shapecheck_runtime::program::{cfa, frontend};
use shapecheck_runtime::report;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: guard::CountingAlloc = guard::CountingAlloc;

#[derive(Parser)]
#[command(
    name = "shapecheck",
    version,
    about = "A verifier for heap-manipulating C programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Verify a C program; the first line of output is the SV-COMP verdict.
    ///
    /// Exit codes: 0 verdict printed; 2 bad input (no verdict); 3 internal failure (UNKNOWN).
    Verify(VerifyArgs),
    /// Print the program IR: one control-flow automaton per function.
    Cfa {
        /// A C file (`.c` is preprocessed with `cc -E`, `.i` is read as is).
        file: PathBuf,
        /// Write Graphviz DOT instead of the text listing.
        #[arg(long)]
        dot: bool,
    },
    /// Run SV-COMP task definitions and score the verdicts.
    Bench(bench::BenchArgs),
    /// Check or show `.shape` specifications.
    #[command(subcommand)]
    Spec(spec_cmd::SpecCommand),
    /// Tell which data structure each recursive struct type of a C program is, from heap samples.
    Classify(classify::ClassifyArgs),
    /// Seed 000's Table 1 side by side with lazy shape analysis runs on benchmarks/seed-000.
    Table1(prove::TableArgs),
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// The C program (`.c` or preprocessed `.i`).
    file: PathBuf,
    /// An SV-COMP property file (.prp).
    #[arg(long, conflicts_with = "check")]
    property: Option<PathBuf>,
    /// Properties to check, comma-separated: unreach-call, valid-memsafety, valid-memcleanup
    /// (or valid-deref, valid-free, valid-memtrack).
    #[arg(long, default_value = "unreach-call")]
    check: String,
    /// Time limit in seconds for the whole run, front end included (UNKNOWN when reached).
    #[arg(long, value_parser = parse_seconds)]
    timeout: Option<Seconds>,
    /// Memory limit in MB (UNKNOWN when reached); default: three quarters of the machine's
    /// memory.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    memory_limit: Option<u64>,
    /// The data model: ILP32 (32-bit long and pointers) or LP64 (64-bit).
    #[arg(long, value_enum, default_value_t = Model::Ilp32)]
    data_model: Model,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Maximum number of edges explored in total.
    #[arg(long, default_value_t = Limits::default().max_steps)]
    max_steps: u64,
    /// Maximum number of edges on one path.
    #[arg(long, default_value_t = Limits::default().max_path)]
    max_path: u32,
    /// Maximum number of live heap blocks in a state.
    #[arg(long, default_value_t = Limits::default().max_heap)]
    max_heap: usize,
    /// Engines: explicit heaps first, then lazy shape analysis if undecided (auto); or one.
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// Write the shape graphs of a TRUE certificate per location to this file (text).
    #[arg(long)]
    dump_shapes: Option<PathBuf>,
    /// Write the shape graphs of a TRUE certificate as Graphviz DOT to this file.
    #[arg(long)]
    dump_dot: Option<PathBuf>,
    /// Shape analysis with the maximal SCG (finest enabled by samples, every pointer tracked)
    /// instead of refinement from the coarsest.
    #[arg(long)]
    maximal: bool,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Engine {
    Auto,
    Explicit,
    Shape,
}

#[derive(Copy, Clone, ValueEnum)]
enum Model {
    #[value(name = "ILP32", alias = "ilp32")]
    Ilp32,
    #[value(name = "LP64", alias = "lp64")]
    Lp64,
}

impl Model {
    fn data_model(self) -> shapecheck_runtime::program::ir::DataModel {
        match self {
            Model::Ilp32 => shapecheck_runtime::program::ir::DataModel::Ilp32,
            Model::Lp64 => shapecheck_runtime::program::ir::DataModel::Lp64,
        }
    }
}

#[derive(Copy, Clone, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// A time limit: a positive number of seconds; `None` when it is too large to matter.
#[derive(Clone, Copy, Debug)]
pub struct Seconds(pub Option<Duration>);

/// Parses a time limit (`--timeout`): a positive, finite number of seconds.
pub fn parse_seconds(s: &str) -> Result<Seconds, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !v.is_finite() || v <= 0.0 {
        return Err(format!("`{s}` is not a positive, finite number of seconds"));
    }
    Ok(Seconds(
        Duration::try_from_secs_f64(v)
            .ok()
            .filter(|d| d.as_secs() < 1 << 32),
    ))
}

fn main() -> ExitCode {
    let start = Instant::now();
    let cli = Cli::parse();
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Cfa { file, dot } => show_cfa(&file, dot),
        Command::Spec(c) => spec_cmd::run(&c),
        Command::Classify(args) => on_big_stack(guard::Style::Silent, move || classify::run(&args)),
        Command::Verify(args) => {
            let style = match args.format {
                Format::Text => guard::Style::Text,
                Format::Json => guard::Style::Json,
            };
            let memory = args.memory_limit.or_else(guard::default_memory_mb);
            guard::start(style, start, args.timeout.and_then(|t| t.0), memory);
            on_big_stack(style, move || verify(&args))
        }
        Command::Table1(args) => on_big_stack(guard::Style::Silent, move || prove::table1(&args)),
    }
}

/// Runs `f` on a thread with a large stack (deeply nested C expressions recurse deeply); a
/// panic is an internal failure: exit code 3, and for `verify` the verdict line `UNKNOWN`.
fn on_big_stack(style: guard::Style, f: impl FnOnce() -> ExitCode + Send + 'static) -> ExitCode {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .ok()
        .and_then(|h| h.join().ok())
        .unwrap_or_else(|| {
            match style {
                guard::Style::Text => {
                    guard::print_verdict("UNKNOWN\nreason: internal error (see stderr)\n")
                }
                guard::Style::Json => guard::print_verdict(
                    "{\"verdict\":\"UNKNOWN\",\"reasons\":[\"internal error (see stderr)\"]}\n",
                ),
                guard::Style::Silent => {}
            }
            ExitCode::from(3)
        })
}

fn show_cfa(file: &std::path::Path, dot: bool) -> ExitCode {
    match frontend::load(file) {
        Ok(p) => {
            guard::print(&if dot { cfa::dot(&p) } else { cfa::listing(&p) });
            ExitCode::SUCCESS
        }
        Err(e) => {
            report_frontend_error(&e);
            match e.kind {
                FrontendErrorKind::Input => ExitCode::from(2),
                FrontendErrorKind::Limit => ExitCode::from(1),
            }
        }
    }
}

/// Prints a front-end error on stderr (the C compiler's messages already say `error:`).
fn report_frontend_error(e: &frontend::FrontendError) {
    if e.message.contains(": error:") {
        eprintln!("{e}");
    } else {
        eprintln!("error: {e}");
    }
}

fn checks(args: &VerifyArgs) -> Result<PropertySet, String> {
    match &args.property {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            PropertySet::parse_prp(&text).map_err(|e| format!("{}: {e}", p.display()))
        }
        None => PropertySet::parse_list(&args.check),
    }
}

fn verify(args: &VerifyArgs) -> ExitCode {
    let checks = match checks(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let deadline = shapecheck_runtime::engine::budget::get().deadline;
    let prog = match frontend::load_with(&args.file, args.data_model.data_model(), deadline) {
        Ok(p) => p,
        Err(e) if e.kind == FrontendErrorKind::Limit => {
            let r = report::Report::undecided(&checks, &e.message);
            print_report(args, &r, None);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            report_frontend_error(&e);
            return ExitCode::from(2);
        }
    };
    let limits = Limits {
        max_steps: args.max_steps,
        max_path: args.max_path,
        max_heap: args.max_heap,
        timeout: shapecheck_runtime::engine::budget::remaining(),
    };
    let start = Instant::now();
    // Auto: a short explicit-heap run (bugs are usually shallow), then the lazy shape
    // analysis, then, if both are undecided, the explicit engine with the full budget.
    let shape = args.engine != Engine::Explicit && prove::supported(&checks);
    let staged = args.engine == Engine::Auto && shape && limits.max_steps > FIRST_PASS_STEPS;
    let first = Limits {
        max_steps: if staged {
            FIRST_PASS_STEPS
        } else {
            limits.max_steps
        },
        ..limits.clone()
    };
    let mut r = match args.engine {
        Engine::Shape => report::Report::undecided(&checks, "explicit-heap engine not run"),
        _ => report::verify(&prog, &checks, first),
    };
    let remaining = |_: Instant| shapecheck_runtime::engine::budget::remaining();
    if matches!(r.verdict, report::Verdict::Unknown(_)) && args.engine != Engine::Explicit {
        if shape {
            let budget = remaining(start).map(|t| if staged { t / 2 } else { t });
            let cfg = shapecheck_runtime::techniques::seed000::lazy::LazyConfig {
                timeout: budget.or(Some(Duration::from_secs(300))),
                maximal: args.maximal,
                ..Default::default()
            };
            let lr = prove::prove(&prog, &checks, cfg);
            write_dumps(args, &lr);
            r.add_lazy(lr, prove::explain);
        } else {
            r.note("shape analysis not run: it does not check valid-memcleanup");
        }
    }
    if staged && matches!(r.verdict, report::Verdict::Unknown(_)) {
        let full = Limits {
            timeout: remaining(start),
            ..limits.clone()
        };
        let again = report::verify(&prog, &checks, full);
        if !matches!(again.verdict, report::Verdict::Unknown(_)) {
            r.lazy = None;
        }
        r.verdict = again.verdict;
        r.stats = again.stats;
    }
    r.seconds = start.elapsed().as_secs_f64();
    print_report(args, &r, Some(&prog));
    ExitCode::SUCCESS
}

/// Prints the verdict report in the chosen format.
fn print_report(
    args: &VerifyArgs,
    r: &report::Report,
    prog: Option<&shapecheck_runtime::program::ir::Program>,
) {
    match args.format {
        Format::Text => guard::print_verdict(&r.text(prog)),
        Format::Json => guard::print_verdict(&format!("{}\n", r.json())),
    }
}

/// Steps of the first, short explicit-heap run in auto mode.
const FIRST_PASS_STEPS: u64 = 300_000;

fn write_dumps(args: &VerifyArgs, r: &shapecheck_runtime::techniques::seed000::lazy::LazyResult) {
    if let Some(p) = &args.dump_shapes
        && let Err(e) = std::fs::write(p, &r.shapes_text)
    {
        eprintln!("error: {}: {e}", p.display());
    }
    if let Some(p) = &args.dump_dot
        && let Err(e) = std::fs::write(p, &r.shapes_dot)
    {
        eprintln!("error: {}: {e}", p.display());
    }
}

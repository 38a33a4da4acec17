//! The shapecheck command line: `verify` (the verdict on a C program), `cfa` (the program IR),
//! `bench` (SV-COMP task definitions, scored).
//!
//! Exit codes of `verify`: 0 when a verdict line was printed (TRUE, FALSE(...) or UNKNOWN);
//! 2 for bad input (missing or malformed C file, unknown property, unreadable property file),
//! with an error on stderr and no verdict; 3 when the tool failed internally (the verdict line
//! is then UNKNOWN).

mod bench;
mod classify;
mod draw;
mod guard;
mod spec_cmd;
mod specs;
mod table001;
mod table1;
mod table2;
mod table3;
mod table4;
mod witness;

use clap::{Parser, Subcommand, ValueEnum};
use shapecheck_runtime::engine::{Budget, Run, Task};
use shapecheck_runtime::explicit::explore::Limits;
use shapecheck_runtime::portfolio::{self, Engines, Mode};
use shapecheck_runtime::program::frontend::FrontendErrorKind;
use shapecheck_runtime::program::property::PropertySet;
use shapecheck_runtime::program::{cfa, frontend};
use shapecheck_runtime::report;
use shapecheck_runtime::techniques::explicit::Explicit;
use shapecheck_runtime::techniques::seed000::Seed000;
use shapecheck_runtime::techniques::seed000::lazy::LazyConfig;
use shapecheck_runtime::techniques::seed001::Seed001;
use shapecheck_runtime::techniques::seed002::Seed002;
use shapecheck_runtime::techniques::seed003::Seed003;
use shapecheck_runtime::techniques::seed003::families::Family;
use shapecheck_runtime::techniques::seed004::Seed004;
use shapecheck_runtime::techniques::seed004::post::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: guard::GuardedAlloc = guard::GuardedAlloc;

#[derive(Parser)]
#[command(
    name = "shapecheck",
    version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SHAPECHECK_COMMIT"), ")"),
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
    Table1(table1::TableArgs),
    /// Seed 002's Table II side by side with template engine runs on benchmarks/seed-002.
    Table2(table2::Table2Args),
    /// Seed 001's Table 1 side by side with separation-logic engine runs on benchmarks/seed-001.
    Table001(table001::Table001Args),
    /// Seed 003's Tables 6 and 8 side by side with PDR and portfolio runs on benchmarks/seed-003.
    Table3(table3::Table3Args),
    /// Seed 004's Figs. 9 and 10 side by side with Bohne runs on benchmarks/seed-004.
    Table4(table4::Table4Args),
    /// Validate a violation witness (YAML format 2.0) by replaying it, driven by its
    /// waypoints alone; prints `VALID` or `INVALID` with the reason.
    ///
    /// Exit codes: 0 valid; 1 invalid; 2 bad input.
    Validate(witness::ValidateArgs),
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
    /// Whether `malloc` and `calloc` may return NULL (`may-fail`, as the C standard allows)
    /// or always succeed (`never-fails`, SV-COMP's rule for the tasks written under it).
    #[arg(long, value_enum, default_value_t = Malloc::MayFail)]
    malloc: Malloc,
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
    /// Engines: `auto` (a short explicit-heap run, the lazy shape analysis, then the explicit
    /// engine with the rest of the budget), one engine (`explicit`, `shape`), or `compare`
    /// (every engine; disagreements are reported, exit 3).
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// A spec file whose data structures the shape analysis uses instead of the standard
    /// library (interpreted; nothing is rebuilt).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// With `--spec`: load the standard library first (the spec may use its predicates and
    /// invariants and refine its structures).
    #[arg(long, requires = "spec")]
    with_library: bool,
    /// Write the shape graphs of a TRUE certificate per location to this file (text).
    #[arg(long)]
    dump_shapes: Option<PathBuf>,
    /// Write the shape graphs of a TRUE certificate as Graphviz DOT to this file.
    #[arg(long)]
    dump_dot: Option<PathBuf>,
    /// Write a witness in SV-COMP's YAML format 2.0 to this file: a violation witness for a
    /// FALSE (first validated by replaying it, driven by its waypoints alone), a correctness
    /// witness for a TRUE (the certificate's invariants C can state; possibly none). No file
    /// is written for UNKNOWN.
    #[arg(long)]
    witness: Option<PathBuf>,
    /// Draw the verdict as an SVG picture in this file: for a FALSE the heap where the
    /// replayed run violates the property (variables, blocks, pointers; leaked blocks red,
    /// freed ones dashed), for a TRUE of the shape analysis its shape graphs per location.
    #[arg(long)]
    draw: Option<PathBuf>,
    /// Write pictures into this folder: `heap.svg` and `trace.svg` (the heap after every step
    /// of the replayed counterexample that changed memory) for a FALSE, `shapes.svg` for a
    /// TRUE of the shape analysis.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Shape analysis with the maximal SCG (finest enabled by samples, every pointer tracked)
    /// instead of refinement from the coarsest.
    #[arg(long)]
    maximal: bool,
    /// PDR's predicate families, comma-separated: the logic's atoms (eq, edge, reach, alloc),
    /// rooted, and the spec's `family` declarations (the library's ls, stable, rev, sorted, or
    /// your own), instead of the lattice of the families' levels (the atoms with ls and
    /// stable, and rooted for valid-memtrack, then rev and sorted).
    #[arg(long, value_delimiter = ',')]
    families: Vec<String>,
    /// Verify this C function alone against its `contract` in the `--spec` file (PDR, so
    /// with `--engine pdr`): its precondition gives the initial states, and every return must
    /// meet its postcondition, besides the checked properties.
    #[arg(long, requires = "spec", value_name = "NAME")]
    function: Option<String>,
    /// Bohne's context operator: `none` (plain Cartesian post), `full` (the join of a loop
    /// head's states) or `instantiated` (that join instantiated at the variables' objects).
    #[arg(long, default_value = "instantiated", value_parser = parse_context)]
    context: Context,
}

fn parse_context(s: &str) -> Result<Context, String> {
    [Context::None, Context::Full, Context::Instantiated]
        .into_iter()
        .find(|c| c.name() == s)
        .ok_or_else(|| format!("no context `{s}` (none, full, instantiated)"))
}

/// Every name of `--families` is one of the engine's or of the spec's families; otherwise
/// the error to print.
fn check_families(args: &VerifyArgs, spec: &shapecheck_dsl::ir::Spec) -> Result<(), String> {
    for n in &args.families {
        if Family::parse(n, &spec.families).is_none() {
            return Err(format!(
                "no family `{n}` (known: {})",
                Family::known(&spec.families).join(", ")
            ));
        }
    }
    Ok(())
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Engine {
    Auto,
    Explicit,
    Shape,
    /// Separation logic with multiset-parametric list domains refined by abduction (seed
    /// 001; unreach-call, valid-deref, valid-free).
    Separation,
    /// Template-based invariant synthesis (seed 002; unreach-call only).
    Template,
    /// Property-directed reachability over reachability predicates (seed 003; unreach-call,
    /// valid-deref, valid-free).
    Pdr,
    /// Bohne's symbolic shape analysis over Boolean heaps (seed 004; the properties of
    /// `pdr`).
    Bohne,
    Compare,
}

impl Engine {
    fn mode(self) -> Mode {
        match self {
            Engine::Auto => Mode::Auto,
            Engine::Explicit => Mode::Only("explicit"),
            Engine::Shape => Mode::Only("shape"),
            Engine::Separation => Mode::Only("separation"),
            Engine::Template => Mode::Only("template"),
            Engine::Pdr => Mode::Only("pdr"),
            Engine::Bohne => Mode::Only("bohne"),
            Engine::Compare => Mode::Compare,
        }
    }
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Model {
    #[value(name = "ILP32", alias = "ilp32")]
    Ilp32,
    #[value(name = "LP64", alias = "lp64")]
    Lp64,
}

impl Model {
    /// The name SV-COMP's task definitions and `--data-model` use.
    pub fn name(self) -> &'static str {
        match self {
            Model::Ilp32 => "ILP32",
            Model::Lp64 => "LP64",
        }
    }

    pub fn data_model(self) -> shapecheck_runtime::program::ir::DataModel {
        match self {
            Model::Ilp32 => shapecheck_runtime::program::ir::DataModel::Ilp32,
            Model::Lp64 => shapecheck_runtime::program::ir::DataModel::Lp64,
        }
    }
}

/// The allocation model of `verify --malloc` and `bench --malloc`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Malloc {
    /// `malloc` and `calloc` may return NULL.
    MayFail,
    /// Every allocation succeeds.
    NeverFails,
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
    if let Some(warning) = shapecheck_runtime::smt::old_z3_warning() {
        eprintln!("{warning}");
    }
    match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Cfa { file, dot } => {
            on_big_stack(guard::Style::Silent, move || show_cfa(&file, dot))
        }
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
        Command::Table1(args) => on_big_stack(guard::Style::Silent, move || table1::table1(&args)),
        Command::Table2(args) => table2::table2(&args),
        Command::Table001(args) => table001::table001(&args),
        Command::Table3(args) => table3::table3(&args),
        Command::Table4(args) => table4::table4(&args),
        Command::Validate(args) => on_big_stack(guard::Style::Silent, move || witness::run(&args)),
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
    let mut prog = match frontend::load_with(&args.file, args.data_model.data_model(), deadline) {
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
    prog.alloc_may_fail = args.malloc == Malloc::MayFail;
    let domain = match crate::specs::domain(args.spec.as_deref(), args.with_library) {
        Ok(d) => d,
        Err(e) => {
            eprint!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) =
        check_function(args, domain.spec(), &prog).and(check_families(args, domain.spec()))
    {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let task = Task {
        program: &prog,
        properties: &checks,
        domain: domain.as_ref(),
        budget: Budget::run(),
    };
    let result = portfolio::run(&task, &engines(args), args.engine.mode());
    if let Some(shape) = result.runs.iter().find(|r| r.engine == "shape") {
        write_dumps(args, shape);
    }
    let conflict = !result.conflicts.is_empty();
    let mut r = report::Report::new(result, &checks, domain.describe());
    if let Some(path) = &args.witness {
        let meta = witness_meta(args, &checks, &prog);
        match witness::write(&prog, &checks, &r.result.verdict, &meta, path) {
            Ok(Some(note)) => r.note(&note),
            Ok(None) => {}
            Err(e) => eprintln!("error: {}: {e}", path.display()),
        }
    }
    if let Some(path) = &args.draw {
        let note = draw::write(&prog, &r.result.verdict, &r.result.runs, path);
        r.note(&note);
    }
    if let Some(dir) = &args.svg {
        let note = draw::write_dir(&prog, &checks, &r.result.verdict, &r.result.runs, dir);
        r.note(&note);
    }
    r.seconds = start.elapsed().as_secs_f64();
    print_report(args, &r, Some(&prog));
    if conflict {
        eprintln!("error: engines disagree: a TRUE against a replayed FALSE is a soundness bug");
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// The metadata of `verify`'s witness: the input file, the property file's text (or the
/// formulas of the checked properties), the data model and the command line.
fn witness_meta(
    args: &VerifyArgs,
    checks: &PropertySet,
    prog: &shapecheck_runtime::program::ir::Program,
) -> shapecheck_runtime::witness::Meta {
    let bytes = std::fs::read(&args.file).unwrap_or_default();
    let spec = (args.property.as_ref())
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|t| {
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_else(|| shapecheck_runtime::witness::specification(checks));
    let mut meta = shapecheck_runtime::witness::Meta::new(
        &args.file.display().to_string(),
        &bytes,
        spec,
        prog.model,
    );
    let argv: Vec<String> = std::env::args().collect();
    meta.command_line = Some(argv.join(" "));
    meta
}

/// The engines with the options of `verify`.
fn engines(args: &VerifyArgs) -> Engines {
    let limits = Limits {
        max_steps: args.max_steps,
        max_path: args.max_path,
        max_heap: args.max_heap,
        timeout: None,
    };
    // Without a time limit for the run, the shape analysis stops after 300 s.
    let lazy_timeout = match Budget::run().deadline {
        Some(_) => None,
        None => Some(Duration::from_secs(300)),
    };
    Engines {
        explicit: Explicit { limits },
        seed000: Seed000 {
            config: LazyConfig {
                timeout: lazy_timeout,
                maximal: args.maximal,
                pictures: args.draw.is_some() || args.svg.is_some(),
                ..LazyConfig::default()
            },
        },
        seed001: Seed001,
        seed002: Seed002 {
            safety: Seed000 {
                config: Seed002::safety_config(LazyConfig {
                    timeout: lazy_timeout,
                    ..LazyConfig::default()
                }),
            },
        },
        seed003: Seed003 {
            families: if args.families.is_empty() {
                vec![]
            } else {
                vec![args.families.clone()]
            },
            function: args.function.clone(),
        },
        seed004: Seed004 {
            function: args.function.clone(),
            context: args.context,
        },
    }
}

/// With `--function`: the engine is PDR or Bohne, the spec has the function's contract, and the
/// program defines the function with as many parameters; otherwise the error to print.
fn check_function(
    args: &VerifyArgs,
    spec: &shapecheck_dsl::ir::Spec,
    prog: &shapecheck_runtime::program::ir::Program,
) -> Result<(), String> {
    let Some(name) = &args.function else {
        return Ok(());
    };
    if !matches!(args.engine, Engine::Pdr | Engine::Bohne) {
        return Err(
            "--function verifies a function against its contract with PDR or Bohne: add \
                    `--engine pdr` or `--engine bohne`"
                .into(),
        );
    }
    if args.witness.is_some() {
        return Err(
            "--witness describes runs from `main`; a function verified alone against its \
             contract has none (drop --witness or --function)"
                .into(),
        );
    }
    let spec_file = args.spec.as_ref().map(|p| p.display().to_string());
    let c = spec.contract(name).ok_or_else(|| {
        format!(
            "{}: no contract for `{name}`",
            spec_file.unwrap_or_default()
        )
    })?;
    let f = (prog.func_by_name(name))
        .map(|f| prog.func(f))
        .filter(|f| f.defined && !f.library)
        .ok_or_else(|| format!("{}: no function `{name}` is defined", args.file.display()))?;
    if f.params.len() != c.params.len() {
        return Err(format!(
            "{}:{}: `{name}` has {} parameter(s), its contract names {}",
            args.file.display(),
            f.line,
            f.params.len(),
            c.params.len()
        ));
    }
    Ok(())
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

fn write_dumps(args: &VerifyArgs, r: &Run) {
    let text = r.artifacts.get("shapes.txt").map_or("", String::as_str);
    let dot = r.artifacts.get("shapes.dot").map_or("", String::as_str);
    if let Some(p) = &args.dump_shapes
        && let Err(e) = std::fs::write(p, text)
    {
        eprintln!("error: {}: {e}", p.display());
    }
    if let Some(p) = &args.dump_dot
        && let Err(e) = std::fs::write(p, dot)
    {
        eprintln!("error: {}: {e}", p.display());
    }
}

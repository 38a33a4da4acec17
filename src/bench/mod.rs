//! `shapecheck bench`: runs the verifier on SV-COMP task definitions and scores its verdicts.
//!
//! It consumes task definitions (`.yml`, format_version '2.0'), given as files or found
//! recursively in folders, and runs every (task, property) pair that has an expected verdict and
//! a supported property (unreach-call, valid-memsafety, valid-memcleanup) as a child process
//! `shapecheck verify INPUT --property PRP --timeout SECS`, in parallel, under wall-time and
//! memory limits. It produces a score table by property, by folder and in total on stdout, a
//! list of wrong verdicts, optionally the reasons of every pair that is not correct, and
//! optionally a JSON report of every pair; its exit code tells whether any verdict was wrong.

mod child;
mod html;
mod report;
mod score;
mod sys;
mod task;

use child::{RunOutput, Runner};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use report::PairResult;
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use task::{Pair, Skipped, TaskError};

/// The exit codes, shown at the end of `shapecheck bench --help`.
const EXIT_CODES: &str = "Exit codes:
  0  every verdict was correct or unknown (UNKNOWN, error, timeout)
  1  at least one verdict was wrong
  2  bad usage, or a task definition was unreadable, malformed or names a missing file
     (the other tasks are still run; 2 takes precedence over 1)";

/// Run SV-COMP task definitions and score the verdicts.
///
/// Every (task, property) pair with an expected verdict and a supported property
/// (unreach-call, valid-memsafety, valid-memcleanup) runs as `shapecheck verify INPUT
/// --property PRP --timeout SECS` in a child process. Other properties are skipped and counted.
#[derive(Args, Debug)]
#[command(after_help = EXIT_CODES)]
pub struct BenchArgs {
    /// Task definitions (.yml), or folders searched recursively for them.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Wall-time limit per pair in seconds, passed to the verifier; the child is killed 5 s later.
    #[arg(long, value_name = "SECS", default_value_t = 60, value_parser = at_least_one())]
    pub timeout: u64,
    /// Address-space limit per pair in MiB (0: none).
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub memory_mb: u64,
    /// Pairs run at once [default: the number of available cores].
    #[arg(long, short = 'j', value_name = "N", value_parser = at_least_one())]
    pub jobs: Option<u64>,
    /// Run only the tasks whose definition's path contains this text.
    #[arg(long, value_name = "SUBSTRING")]
    pub filter: Option<String>,
    /// Write every pair's result and the summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// List every pair that is not correct, with the verifier's explanation.
    #[arg(long)]
    pub verbose: bool,
    /// An extra argument for every `verify` call, e.g. `--verifier-arg=--max-steps=200000`
    /// (repeatable).
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub verifier_arg: Vec<String>,
    /// The allocation model for every `verify` call. SV-COMP's rules said until 2025 that
    /// `malloc` never returns NULL, and the tasks' expected verdicts were written under that
    /// rule; tasks written since guard every allocation (`safe_malloc`), so both models give
    /// them the same verdict.
    #[arg(long, value_enum, default_value_t = crate::Malloc::NeverFails)]
    pub malloc: crate::Malloc,
    /// The data model of every task, instead of the one its definition names: run ILP32 tasks
    /// on the 64-bit path (`LP64`), or the reverse. The expected verdicts stay the task's, so
    /// a pair whose verdict depends on the width of `long` or of pointers may then be scored
    /// wrong.
    #[arg(long, value_enum, value_name = "MODEL")]
    pub data_model: Option<crate::Model>,
    /// A spec file for every `verify` call (checked once here; see `verify --spec`).
    #[arg(long, value_name = "FILE")]
    pub spec: Option<PathBuf>,
    /// With `--spec`: load the standard library first.
    #[arg(long, requires = "spec")]
    pub with_library: bool,
    /// Write each pair's witness (YAML format 2.0; see `verify --witness`) into this folder,
    /// as `FOLDER__TASK__PROPERTY.yml`.
    #[arg(long, value_name = "DIR")]
    pub witnesses: Option<PathBuf>,
    /// Write the results as an HTML page to this file, with each pair's witness and pictures
    /// (`verify --svg`) linked; they go into `NAME_files/` beside it (the witnesses into
    /// `--witnesses DIR` when given).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The folder of the files an HTML page at `page` links: `NAME_files` beside it.
fn html_files(page: &Path) -> PathBuf {
    let stem = page.file_stem().map_or_else(
        || "report".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    page.with_file_name(format!("{stem}_files"))
}

/// The `verify` arguments of every pair: `--spec` (absolute, checked first) and the extras.
fn verifier_args(args: &BenchArgs) -> Result<Vec<std::ffi::OsString>, String> {
    let mut out = vec![];
    if args.malloc == crate::Malloc::NeverFails {
        out.push("--malloc=never-fails".into());
    }
    if let Some(spec) = &args.spec {
        crate::specs::load_file(spec, args.with_library)
            .map_err(|d| format!("the spec does not check:\n{d}"))?;
        let abs = std::path::absolute(spec).map_err(|e| format!("{}: {e}", spec.display()))?;
        out.push("--spec".into());
        out.push(abs.into_os_string());
        if args.with_library {
            out.push("--with-library".into());
        }
    }
    out.extend(args.verifier_arg.iter().map(Into::into));
    Ok(out)
}

/// The parser of a positive count.
fn at_least_one() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..)
}

/// Runs the benchmark described by `args`; see [`BenchArgs`] for the exit codes.
pub fn run(args: &BenchArgs) -> ExitCode {
    let runner = match std::env::current_exe() {
        Ok(exe) => {
            let mut r = Runner::new(exe, args.timeout, args.memory_mb);
            r.extra_args = match verifier_args(args) {
                Ok(a) => a,
                Err(e) => return usage_error(&e),
            };
            let files = args.html.as_deref().map(html_files);
            let witnesses =
                (args.witnesses.clone()).or_else(|| files.as_ref().map(|f| f.join("witnesses")));
            let pictures = files.map(|f| f.join("pictures"));
            for dir in witnesses.iter().chain(&pictures) {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    return usage_error(&format!("{}: {e}", dir.display()));
                }
            }
            r.witness_dir = witnesses;
            r.svg_dir = pictures;
            r
        }
        Err(e) => return usage_error(&format!("cannot locate the shapecheck executable: {e}")),
    };
    match bench(args, &runner, &mut std::io::stdout().lock()) {
        Ok(code) => ExitCode::from(code),
        Err(message) => usage_error(&message),
    }
}

/// Reports a usage error and returns exit code 2.
fn usage_error(message: &str) -> ExitCode {
    eprintln!("shapecheck bench: error: {message}");
    ExitCode::from(2)
}

/// The pairs to run, what was skipped, and the unusable task definitions.
#[derive(Debug, Default)]
struct Plan {
    pairs: Vec<Pair>,
    skipped: Skipped,
    errors: Vec<TaskError>,
}

/// Runs the benchmark with `runner`, writes the report to `out` and returns the exit code;
/// `Err` is a usage error.
fn bench(args: &BenchArgs, runner: &Runner, out: &mut dyn Write) -> Result<u8, String> {
    let plan = plan(args)?;
    let json = args.json.as_ref().map(|path| open_json(path)).transpose()?;
    for error in &plan.errors {
        let task = error.task.display();
        eprintln!("shapecheck bench: error: {task}: {}", error.message);
    }
    let outputs = run_pairs(&plan.pairs, runner, jobs(args));
    let results: Vec<PairResult> = plan
        .pairs
        .iter()
        .zip(&outputs)
        .map(|(p, o)| PairResult::new(p, o))
        .collect();
    let summary = report::summarize(&results, plan.skipped, &plan.errors);
    let text = render(&summary, &results, args.verbose);
    let write_error = |e: std::io::Error| format!("cannot write the report: {e}");
    out.write_all(text.as_bytes()).map_err(write_error)?;
    if let Some((path, file)) = json {
        let failed = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        report::write_json(file, &summary, &results).map_err(failed)?;
    }
    if let Some(path) = &args.html {
        let files = html::Files {
            witnesses: runner.witness_dir.as_deref(),
            pictures: runner.svg_dir.as_deref(),
        };
        let text = html::page(path, &summary, &plan.pairs, &results, &files);
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(exit_code(&plan, summary.total.wrong()))
}

/// The text report: table, notes, wrong verdicts and, if `verbose`, every pair not correct.
fn render(summary: &report::Summary, results: &[PairResult], verbose: bool) -> String {
    let mut text = report::render_table(summary) + &report::render_notes(summary);
    text += &report::render_wrong(results);
    if verbose {
        text += &report::render_not_correct(results);
    }
    text
}

/// The exit code: 2 for unusable task definitions, else 1 for wrong verdicts, else 0.
fn exit_code(plan: &Plan, wrong: usize) -> u8 {
    match (plan.errors.is_empty(), wrong) {
        (false, _) => 2,
        (true, 0) => 0,
        (true, _) => 1,
    }
}

/// Finds, filters and loads the task definitions; `Err` when there is nothing to run.
fn plan(args: &BenchArgs) -> Result<Plan, String> {
    let mut tasks = task::discover(&args.paths)?;
    if tasks.is_empty() {
        return Err("no task definitions (.yml) found".to_string());
    }
    if let Some(filter) = &args.filter {
        tasks.retain(|path| path.to_string_lossy().contains(filter.as_str()));
        if tasks.is_empty() {
            return Err(format!("no task definition matches --filter {filter:?}"));
        }
    }
    let mut plan = Plan::default();
    for path in &tasks {
        match task::load_task(path) {
            Ok(mut loaded) => {
                if let Some(model) = args.data_model {
                    for pair in &mut loaded.pairs {
                        pair.data_model = model.name().to_string();
                    }
                }
                plan.pairs.extend(loaded.pairs);
                plan.skipped.add(loaded.skipped);
            }
            Err(error) => plan.errors.push(error),
        }
    }
    Ok(plan)
}

/// Creates the JSON report file up front, so that a bad path fails before the runs.
fn open_json(path: &Path) -> Result<(PathBuf, File), String> {
    let file = File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    Ok((path.to_path_buf(), file))
}

/// The number of pairs to run at once.
fn jobs(args: &BenchArgs) -> usize {
    let cores = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    args.jobs
        .map_or(cores, |jobs| usize::try_from(jobs).unwrap_or(cores))
}

/// Runs `pairs` on `jobs` worker threads, showing progress; outputs are in the order of `pairs`.
fn run_pairs(pairs: &[Pair], runner: &Runner, jobs: usize) -> Vec<RunOutput> {
    let bar = progress_bar(pairs.len());
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, pairs.len().max(1)) {
            let (sender, next, bar) = (sender.clone(), &next, &bar);
            scope.spawn(move || worker(pairs, runner, next, &sender, bar));
        }
    });
    bar.finish_and_clear();
    drop(sender);
    let mut outputs: Vec<Option<RunOutput>> = vec![None; pairs.len()];
    receiver
        .into_iter()
        .for_each(|(index, output)| outputs[index] = Some(output));
    let missing = || RunOutput::failed("not run: internal error".to_string());
    outputs
        .into_iter()
        .map(|output| output.unwrap_or_else(missing))
        .collect()
}

/// Takes pairs by their index from `next` until none is left, runs them and sends the outputs.
fn worker(
    pairs: &[Pair],
    runner: &Runner,
    next: &AtomicUsize,
    sender: &mpsc::Sender<(usize, RunOutput)>,
    bar: &ProgressBar,
) {
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let Some(pair) = pairs.get(index) else { return };
        let output = runner.run(pair);
        bar.set_message(pair.task.display().to_string());
        bar.inc(1);
        if sender.send((index, output)).is_err() {
            return;
        }
    }
}

/// A progress bar on stderr over `len` pairs, hidden when stderr is not a terminal.
fn progress_bar(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let template = "{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}";
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(len as u64).with_style(style.progress_chars("=> "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::time::Duration;

    /// A fake verifier: answers by the input file's name (`$2`, after `verify`).
    const FAKE_VERIFIER: &str = r#"case "$2" in
  *safe.i) echo TRUE ;;
  *deref.i) echo 'FALSE(valid-deref)' ;;
  *reach.i) echo 'FALSE(unreach-call)' ;;
  *) echo UNKNOWN; echo 'no idea' ;;
esac"#;

    fn fake_runner() -> Runner {
        let mut runner = Runner::new(PathBuf::from("sh"), 3, 0);
        runner.prefix_args = vec!["-c".into(), FAKE_VERIFIER.into(), "sh".into()];
        runner.kill_after = Duration::from_secs(10);
        runner
    }

    fn args(paths: Vec<PathBuf>) -> BenchArgs {
        let (timeout, memory_mb, jobs) = (3, 0, Some(2));
        BenchArgs {
            paths,
            timeout,
            memory_mb,
            jobs,
            filter: None,
            json: None,
            verbose: true,
            verifier_arg: vec![],
            malloc: crate::Malloc::MayFail,
            data_model: None,
            spec: None,
            with_library: false,
            witnesses: None,
            html: None,
        }
    }

    /// Writes a task `name.yml` with input `input` and `(property, expected)` entries.
    fn write_task(dir: &Path, name: &str, input: &str, properties: &[(&str, &str)]) {
        fs::write(dir.join(input), "int main(void) { return 0; }\n").unwrap();
        let mut yml = format!("format_version: '2.0'\ninput_files: '{input}'\nproperties:\n");
        for (property, expected) in properties {
            yml += &format!("  - property_file: ../properties/{property}.prp\n{expected}");
        }
        fs::write(dir.join(format!("{name}.yml")), yml).unwrap();
    }

    /// A suite with one folder `s` of tasks and the property files they use.
    fn suite() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let (props, suite) = (root.path().join("properties"), root.path().join("s"));
        fs::create_dir_all(&props).unwrap();
        fs::create_dir_all(&suite).unwrap();
        for property in ["unreach-call", "valid-memsafety", "termination"] {
            fs::write(props.join(format!("{property}.prp")), "CHECK\n").unwrap();
        }
        let t = "    expected_verdict: true\n";
        let deref = "    expected_verdict: false\n    subproperty: valid-deref\n";
        write_task(
            &suite,
            "a",
            "safe.i",
            &[("unreach-call", t), ("termination", t)],
        );
        write_task(
            &suite,
            "b",
            "deref.i",
            &[("valid-memsafety", deref), ("unreach-call", "")],
        );
        write_task(&suite, "c", "other.i", &[("valid-memsafety", t)]);
        root
    }

    fn bench_text(args: &BenchArgs) -> (Result<u8, String>, String) {
        let mut out = Vec::new();
        let code = bench(args, &fake_runner(), &mut out);
        (code, String::from_utf8(out).unwrap())
    }

    #[test]
    fn scores_a_suite_without_wrong_verdicts() {
        let root = suite();
        let json = root.path().join("out.json");
        let mut args = args(vec![root.path().to_path_buf()]);
        args.json = Some(json.clone());
        let (code, text) = bench_text(&args);
        assert_eq!(code, Ok(0), "{text}");
        let total: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("total"))
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(
            total[..9],
            ["total", "3", "1", "1", "0", "0", "1", "0", "3"]
        );
        assert!(text.contains(
            "skipped 2 property entries: 1 with an unsupported property file, 1 without"
        ));
        assert!(text.contains(
            "s/c.yml  valid-memsafety  expected true  got UNKNOWN  [unknown]\n      no idea\n"
        ));
        let report: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(json).unwrap()).unwrap();
        assert_eq!(report["results"].as_array().unwrap().len(), 3);
        assert_eq!(report["results"][1]["category"], "correct-false");
    }

    #[test]
    fn exits_1_on_a_wrong_verdict_and_2_on_a_broken_task() {
        let root = suite();
        let suite = root.path().join("s");
        write_task(
            &suite,
            "d",
            "reach.i",
            &[("unreach-call", "    expected_verdict: true\n")],
        );
        let mut filtered = args(vec![root.path().to_path_buf()]);
        filtered.filter = Some("d.yml".to_string());
        let (code, text) = bench_text(&filtered);
        assert_eq!(code, Ok(1));
        assert!(text.contains("wrong verdicts (1):\n  "), "{text}");
        fs::write(suite.join("e.yml"), "format_version: '2.0'\ninput_files: [").unwrap();
        assert_eq!(bench_text(&args(vec![root.path().to_path_buf()])).0, Ok(2));
    }

    #[test]
    fn rejects_bad_usage() {
        let root = suite();
        let missing = args(vec![root.path().join("missing")]);
        assert!(bench_text(&missing).0.unwrap_err().contains("missing"));
        let mut filtered = args(vec![root.path().to_path_buf()]);
        filtered.filter = Some("nothing-matches".to_string());
        assert!(bench_text(&filtered).0.unwrap_err().contains("--filter"));
        let empty = tempfile::tempdir().unwrap();
        assert!(
            bench_text(&args(vec![empty.path().to_path_buf()]))
                .0
                .is_err()
        );
        let mut bad_json = args(vec![root.path().to_path_buf()]);
        bad_json.json = Some(root.path().join("no/such/dir/out.json"));
        assert!(bench_text(&bad_json).0.unwrap_err().contains("out.json"));
    }

    #[test]
    fn forwards_a_checked_spec_to_every_verify_call() {
        let root = suite();
        let spec = root.path().join("my.shape");
        fs::write(&spec, "predicate p[f](v) := exists w. f(v, w);\n").unwrap();
        let mut a = args(vec![root.path().to_path_buf()]);
        a.spec = Some(spec.clone());
        a.with_library = true;
        a.verifier_arg = vec!["--engine".into(), "shape".into()];
        let forwarded: Vec<String> = verifier_args(&a)
            .unwrap()
            .into_iter()
            .map(|s| s.into_string().unwrap())
            .collect();
        let abs = std::path::absolute(&spec).unwrap();
        assert_eq!(
            forwarded,
            [
                "--spec",
                abs.to_str().unwrap(),
                "--with-library",
                "--engine",
                "shape"
            ]
        );
        a.malloc = crate::Malloc::NeverFails;
        let first = verifier_args(&a).unwrap().remove(0);
        assert_eq!(first, "--malloc=never-fails");
        fs::write(&spec, "predicate p[f](v) := exists w. g(v, w);\n").unwrap();
        let err = verifier_args(&a).unwrap_err();
        assert!(err.contains("my.shape:1:"), "{err}");
    }

    #[test]
    fn a_data_model_given_replaces_every_tasks_own() {
        let root = suite();
        let mut a = args(vec![root.path().to_path_buf()]);
        let models = |a: &BenchArgs| -> Vec<String> {
            plan(a)
                .unwrap()
                .pairs
                .into_iter()
                .map(|p| p.data_model)
                .collect()
        };
        assert_eq!(models(&a), ["ILP32"; 3]);
        a.data_model = Some(crate::Model::Lp64);
        assert_eq!(models(&a), ["LP64"; 3]);
    }

    #[test]
    fn keeps_the_order_of_pairs_when_running_in_parallel() {
        let root = suite();
        let plan = plan(&args(vec![root.path().to_path_buf()])).unwrap();
        let outputs = run_pairs(&plan.pairs, &fake_runner(), 3);
        let lines: Vec<_> = outputs
            .iter()
            .map(|o| o.verdict_line().unwrap().to_string())
            .collect();
        assert_eq!(lines, ["TRUE", "FALSE(valid-deref)", "UNKNOWN"]);
    }
}

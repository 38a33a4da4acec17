//! Results of the runs and their presentation: one [`PairResult`] per (task, property) pair,
//! the per-property / per-folder / total [`Summary`], the text table and listings for stdout,
//! and the JSON report.

use super::child::{Exit, RunOutput};
use super::score::{Category, judge, parse_verdict};
use super::task::{Expected, Pair, Property, Skipped, TaskError};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

/// Most stderr lines shown as the reason of a pair that is not correct.
const REASON_STDERR_LINES: usize = 3;

/// The outcome of one (task, property) pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairResult {
    /// The task definition.
    pub task: String,
    /// The folder holding the task definition.
    pub folder: String,
    /// The input files.
    pub input_files: Vec<String>,
    /// The property checked.
    pub property: Property,
    /// The property file passed to the verifier.
    pub property_file: String,
    /// The expected verdict.
    pub expected_verdict: bool,
    /// The expected violated subproperty, when the task names one.
    pub expected_subproperty: Option<String>,
    /// The first line of the verifier's output, if any.
    pub verdict_line: Option<String>,
    /// How the answer is scored.
    pub category: Category,
    /// The SV-COMP score.
    pub score: i64,
    /// CPU time (user + system) in seconds.
    pub cpu_s: f64,
    /// Wall time in seconds.
    pub wall_s: f64,
    /// The exit code, when the verifier exited.
    pub exit_code: Option<i32>,
    /// The signal that killed the verifier, when one did (SIGKILL at the time limit).
    pub signal: Option<i32>,
    /// Why the pair is not correct, as far as the verifier's output tells.
    pub reason: Option<String>,
}

impl PairResult {
    /// Scores the run `out` of `pair`.
    pub fn new(pair: &Pair, out: &RunOutput) -> PairResult {
        let category = categorize(pair, out);
        let (exit_code, signal) = match out.exit {
            Exit::Code(code) => (Some(code), None),
            Exit::Signal(signal) => (None, Some(signal)),
            Exit::TimedOut => (None, Some(libc::SIGKILL)),
            Exit::Failed(_) => (None, None),
        };
        PairResult {
            task: pair.task.display().to_string(),
            folder: pair.folder.clone(),
            input_files: pair
                .inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            property: pair.property,
            property_file: pair.property_file.display().to_string(),
            expected_verdict: pair.expected.verdict,
            expected_subproperty: pair.expected.subproperty.clone(),
            verdict_line: out.verdict_line().map(str::to_string),
            category,
            score: category.score(),
            cpu_s: out.cpu.as_secs_f64(),
            wall_s: out.wall.as_secs_f64(),
            exit_code,
            signal,
            reason: (!category.is_correct()).then(|| reason(out)).flatten(),
        }
    }

    /// The expected verdict as `true`, `false` or `false(SUBPROPERTY)`.
    fn expected_text(&self) -> String {
        let subproperty = self.expected_subproperty.clone();
        Expected {
            verdict: self.expected_verdict,
            subproperty,
        }
        .render()
    }

    /// The answer as shown in listings: the verdict line, or what happened instead.
    fn answer_text(&self) -> String {
        match (&self.verdict_line, self.category) {
            (_, Category::Timeout) => "timeout".to_string(),
            (Some(line), _) if !line.trim().is_empty() => line.trim_end().to_string(),
            _ => "no verdict".to_string(),
        }
    }
}

/// The category of a run: timeouts and failures first, then the verdict line's score.
fn categorize(pair: &Pair, out: &RunOutput) -> Category {
    match out.exit {
        Exit::TimedOut => Category::Timeout,
        Exit::Code(0) => match out.verdict_line().and_then(parse_verdict) {
            Some(verdict) => judge(pair.property, &pair.expected, &verdict),
            None => Category::Error,
        },
        Exit::Code(_) | Exit::Signal(_) | Exit::Failed(_) => Category::Error,
    }
}

/// What the run tells about a pair that is not correct: how it ended when that was abnormal,
/// the second stdout line, and the first lines of stderr.
fn reason(out: &RunOutput) -> Option<String> {
    let mut lines = match &out.exit {
        Exit::Code(0) => vec![],
        Exit::Code(code) => vec![format!("exit code {code}")],
        Exit::Signal(signal) => vec![format!("killed by signal {signal}")],
        Exit::TimedOut => vec![format!(
            "killed at the wall-time limit after {:.1} s",
            out.wall.as_secs_f64()
        )],
        Exit::Failed(message) => vec![message.clone()],
    };
    lines.extend(
        out.stdout
            .lines()
            .nth(1)
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string),
    );
    let stderr = out.stderr.lines().filter(|l| !l.trim().is_empty());
    lines.extend(stderr.take(REASON_STDERR_LINES).map(str::to_string));
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Counts of the categories of a group of pairs, with their score and CPU time.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Counts {
    /// Pairs run.
    pub pairs: usize,
    /// Expected true, answered TRUE.
    pub correct_true: usize,
    /// Expected false, answered FALSE with the right property.
    pub correct_false: usize,
    /// Expected false, answered TRUE.
    pub wrong_true: usize,
    /// Answered FALSE when expected true, or with the wrong property.
    pub wrong_false: usize,
    /// Answered UNKNOWN.
    pub unknown: usize,
    /// The verifier failed.
    pub errors: usize,
    /// The verifier was killed at the time limit.
    pub timeouts: usize,
    /// The total score.
    pub score: i64,
    /// The total CPU time in seconds.
    pub cpu_s: f64,
}

impl Counts {
    /// Adds one pair's result.
    pub fn add(&mut self, result: &PairResult) {
        self.pairs += 1;
        *match result.category {
            Category::CorrectTrue => &mut self.correct_true,
            Category::CorrectFalse => &mut self.correct_false,
            Category::WrongTrue => &mut self.wrong_true,
            Category::WrongFalse => &mut self.wrong_false,
            Category::Unknown => &mut self.unknown,
            Category::Error => &mut self.errors,
            Category::Timeout => &mut self.timeouts,
        } += 1;
        self.score += result.score;
        self.cpu_s += result.cpu_s;
    }

    /// The number of wrong verdicts.
    pub fn wrong(&self) -> usize {
        self.wrong_true + self.wrong_false
    }
}

/// A named row of the summary table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The property or folder name.
    pub name: String,
    /// Its counts.
    #[serde(flatten)]
    pub counts: Counts,
}

/// A task definition that could not be used, for the JSON report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskErrorRow {
    /// The task definition.
    pub task: String,
    /// What is wrong with it.
    pub message: String,
}

/// Totals of a benchmark run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// One row per property that has pairs: unreach-call, valid-memsafety, valid-memcleanup.
    pub by_property: Vec<Row>,
    /// One row per folder, sorted by name.
    pub by_folder: Vec<Row>,
    /// All pairs.
    pub total: Counts,
    /// Property entries that were not run.
    pub skipped: Skipped,
    /// Task definitions that could not be used.
    pub task_errors: Vec<TaskErrorRow>,
}

/// Aggregates `results` by property, by folder and in total.
pub fn summarize(results: &[PairResult], skipped: Skipped, errors: &[TaskError]) -> Summary {
    let mut by_property: BTreeMap<Property, Counts> = BTreeMap::new();
    let mut by_folder: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut total = Counts::default();
    for result in results {
        by_property.entry(result.property).or_default().add(result);
        by_folder.entry(&result.folder).or_default().add(result);
        total.add(result);
    }
    let row = |name: &str, counts: Counts| Row {
        name: name.to_string(),
        counts,
    };
    let task_errors = errors.iter().map(|e| TaskErrorRow {
        task: e.task.display().to_string(),
        message: e.message.clone(),
    });
    Summary {
        by_property: by_property
            .into_iter()
            .map(|(p, c)| row(p.name(), c))
            .collect(),
        by_folder: by_folder.into_iter().map(|(f, c)| row(f, c)).collect(),
        total,
        skipped,
        task_errors: task_errors.collect(),
    }
}

/// The table's column headers after the row label.
const HEADERS: [&str; 9] = [
    "pairs",
    "correct TRUE",
    "correct FALSE",
    "wrong TRUE",
    "wrong FALSE",
    "unknown",
    "errors/timeouts",
    "score",
    "CPU time (s)",
];

/// The cells of one table row after its label.
fn cells(counts: &Counts) -> [String; 9] {
    let c = counts;
    [
        c.pairs.to_string(),
        c.correct_true.to_string(),
        c.correct_false.to_string(),
        c.wrong_true.to_string(),
        c.wrong_false.to_string(),
        c.unknown.to_string(),
        (c.errors + c.timeouts).to_string(),
        c.score.to_string(),
        format!("{:.1}", c.cpu_s),
    ]
}

/// Renders the summary table: property rows, folder rows, a rule and the total row.
pub fn render_table(summary: &Summary) -> String {
    let mut rows: Vec<(String, [String; 9])> = Vec::new();
    rows.extend(
        summary
            .by_property
            .iter()
            .map(|r| (format!("property {}", r.name), cells(&r.counts))),
    );
    rows.extend(
        summary
            .by_folder
            .iter()
            .map(|r| (format!("folder {}", r.name), cells(&r.counts))),
    );
    let total = ("total".to_string(), cells(&summary.total));
    let label_width = rows
        .iter()
        .chain([&total])
        .map(|(l, _)| l.len())
        .max()
        .unwrap_or(0);
    let mut widths = HEADERS.map(str::len);
    for (_, row) in rows.iter().chain([&total]) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.len());
        }
    }
    let line = |label: &str, row: &[String]| {
        let cells = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell:>w$}"));
        format!(
            "{label:<label_width$}  {}\n",
            cells.collect::<Vec<_>>().join("  ")
        )
    };
    let mut out = line("", &HEADERS.map(str::to_string));
    rows.iter()
        .for_each(|(label, row)| out.push_str(&line(label, row)));
    let rule_width = label_width + widths.iter().map(|w| w + 2).sum::<usize>();
    let _ = writeln!(out, "{}", "-".repeat(rule_width));
    out.push_str(&line(&total.0, &total.1));
    out
}

/// Renders the line on skipped property entries and unusable task definitions.
pub fn render_notes(summary: &Summary) -> String {
    let s = &summary.skipped;
    let mut out = format!(
        "skipped {} property entries: {} with an unsupported property file, {} without an \
         expected verdict\n",
        s.total(),
        s.unsupported_property,
        s.no_expected_verdict
    );
    if !summary.task_errors.is_empty() {
        let _ = writeln!(
            out,
            "unusable task definitions: {}",
            summary.task_errors.len()
        );
    }
    out
}

/// One listing line for a pair: task, property, expected and answered verdict.
fn listing_line(result: &PairResult) -> String {
    format!(
        "  {}  {}  expected {}  got {}",
        result.task,
        result.property.name(),
        result.expected_text(),
        result.answer_text()
    )
}

/// Lists every wrong verdict; empty when there is none.
pub fn render_wrong(results: &[PairResult]) -> String {
    let wrong: Vec<&PairResult> = results.iter().filter(|r| r.category.is_wrong()).collect();
    if wrong.is_empty() {
        return String::new();
    }
    let mut out = format!("wrong verdicts ({}):\n", wrong.len());
    wrong
        .iter()
        .for_each(|r| out.push_str(&(listing_line(r) + "\n")));
    out
}

/// Lists every pair that is not correct, with its category and reason; empty when none.
pub fn render_not_correct(results: &[PairResult]) -> String {
    let listed: Vec<&PairResult> = results
        .iter()
        .filter(|r| !r.category.is_correct())
        .collect();
    if listed.is_empty() {
        return String::new();
    }
    let mut out = format!("not correct ({}):\n", listed.len());
    for result in listed {
        let _ = writeln!(
            out,
            "{}  [{}]",
            listing_line(result),
            result.category.name()
        );
        for line in result.reason.iter().flat_map(|r| r.lines()) {
            let _ = writeln!(out, "      {line}");
        }
    }
    out
}

/// The JSON report: the summary and every pair's result.
#[derive(Serialize)]
struct JsonReport<'a> {
    summary: &'a Summary,
    results: &'a [PairResult],
}

/// Writes the JSON report to `writer`.
pub fn write_json(
    writer: impl Write,
    summary: &Summary,
    results: &[PairResult],
) -> std::io::Result<()> {
    let mut writer = std::io::BufWriter::new(writer);
    serde_json::to_writer_pretty(&mut writer, &JsonReport { summary, results })?;
    writeln!(writer)?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn pair(folder: &str, name: &str, property: Property, expected: &str) -> Pair {
        let (verdict, subproperty) = match expected.strip_prefix("false") {
            Some(rest) => (
                false,
                rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')),
            ),
            None => (true, None),
        };
        Pair {
            task: PathBuf::from(format!("{folder}/{name}.yml")),
            folder: folder.to_string(),
            inputs: vec![PathBuf::from(format!("{folder}/{name}.i"))],
            property,
            property_file: PathBuf::from(format!("p/{}.prp", property.name())),
            expected: Expected {
                verdict,
                subproperty: subproperty.map(str::to_string),
            },
            data_model: "ILP32".to_string(),
        }
    }

    fn output(exit: Exit, stdout: &str, stderr: &str, cpu_ms: u64) -> RunOutput {
        RunOutput {
            exit,
            stdout: stdout.to_string(),
            stderr: stderr.to_string(),
            cpu: Duration::from_millis(cpu_ms),
            wall: Duration::from_millis(2 * cpu_ms),
        }
    }

    /// One result of every category, over two folders and all three properties.
    fn results() -> Vec<PairResult> {
        use Property::*;
        let ok = |stdout: &str| output(Exit::Code(0), stdout, "", 500);
        let runs = [
            (pair("a", "t1", UnreachCall, "true"), ok("TRUE\n")),
            (
                pair("a", "t2", UnreachCall, "false"),
                ok("FALSE(unreach-call)\n"),
            ),
            (
                pair("a", "t3", ValidMemsafety, "false(valid-deref)"),
                ok("TRUE\n"),
            ),
            (
                pair("b", "t4", ValidMemsafety, "false(valid-deref)"),
                ok("FALSE(valid-free)\n"),
            ),
            (
                pair("b", "t5", ValidMemcleanup, "false"),
                ok("UNKNOWN\nloop too deep\n"),
            ),
            (
                pair("b", "t6", UnreachCall, "true"),
                output(Exit::Code(101), "TRUE\n", "panic\n", 100),
            ),
            (
                pair("b", "t7", UnreachCall, "true"),
                output(Exit::TimedOut, "", "", 7000),
            ),
        ];
        runs.iter().map(|(p, o)| PairResult::new(p, o)).collect()
    }

    #[test]
    fn categorizes_runs() {
        let categories: Vec<&str> = results().iter().map(|r| r.category.name()).collect();
        let expected = [
            "correct-true",
            "correct-false",
            "wrong-true",
            "wrong-false",
            "unknown",
            "error",
            "timeout",
        ];
        assert_eq!(categories, expected);
        let crashed = output(Exit::Signal(6), "", "", 0);
        let unparsable = output(Exit::Code(0), "maybe\n", "", 0);
        let p = pair("a", "t", Property::UnreachCall, "true");
        for run in [crashed, unparsable, RunOutput::failed("gone".to_string())] {
            assert_eq!(PairResult::new(&p, &run).category, Category::Error);
        }
    }

    #[test]
    fn explains_results_that_are_not_correct() {
        let reasons: Vec<Option<String>> = results().into_iter().map(|r| r.reason).collect();
        assert_eq!(reasons[0], None);
        assert_eq!(reasons[4].as_deref(), Some("loop too deep"));
        assert_eq!(reasons[5].as_deref(), Some("exit code 101\npanic"));
        assert!(
            reasons[6]
                .as_deref()
                .unwrap()
                .starts_with("killed at the wall-time limit")
        );
    }

    #[test]
    fn aggregates_by_property_folder_and_total() {
        let errors = [TaskError {
            task: PathBuf::from("x.yml"),
            message: "bad".to_string(),
        }];
        let skipped = Skipped {
            unsupported_property: 3,
            no_expected_verdict: 1,
        };
        let summary = summarize(&results(), skipped, &errors);
        let names: Vec<&str> = summary
            .by_property
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["unreach-call", "valid-memsafety", "valid-memcleanup"]
        );
        let unreach = &summary.by_property[0].counts;
        assert_eq!(
            (unreach.pairs, unreach.correct_true, unreach.correct_false),
            (4, 1, 1)
        );
        assert_eq!((unreach.errors, unreach.timeouts, unreach.score), (1, 1, 3));
        let [a, b] = [&summary.by_folder[0], &summary.by_folder[1]];
        assert_eq!(
            (a.name.as_str(), a.counts.pairs, a.counts.score),
            ("a", 3, -29)
        );
        assert_eq!(
            (b.name.as_str(), b.counts.pairs, b.counts.score),
            ("b", 4, -16)
        );
        let total = &summary.total;
        assert_eq!(
            (total.pairs, total.wrong(), total.unknown, total.score),
            (7, 2, 1, -45)
        );
        assert!((total.cpu_s - 9.6).abs() < 1e-9);
        assert_eq!(summary.task_errors[0].task, "x.yml");
    }

    #[test]
    fn renders_the_table_and_listings() {
        let results = results();
        let summary = summarize(&results, Skipped::default(), &[]);
        let table = render_table(&summary);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 1 + 3 + 2 + 2);
        assert!(
            lines[0].ends_with("errors/timeouts  score  CPU time (s)"),
            "{table}"
        );
        let total: Vec<&str> = lines[7].split_whitespace().collect();
        assert_eq!(
            total,
            ["total", "7", "1", "1", "1", "1", "1", "2", "-45", "9.6"]
        );
        assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{table}");
        let wrong = render_wrong(&results);
        assert_eq!(wrong.lines().count(), 3);
        assert!(wrong.contains(
            "b/t4.yml  valid-memsafety  expected false(valid-deref)  got FALSE(valid-free)"
        ));
        let listed = render_not_correct(&results);
        assert!(listed.contains("b/t7.yml  unreach-call  expected true  got timeout  [timeout]"));
        assert!(
            listed.contains("[unknown]\n      loop too deep\n"),
            "{listed}"
        );
    }

    #[test]
    fn writes_json() {
        let results = results();
        let summary = summarize(&results, Skipped::default(), &[]);
        let mut buffer = Vec::new();
        write_json(&mut buffer, &summary, &results).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&buffer).unwrap();
        assert_eq!(json["summary"]["total"]["score"], -45);
        let fourth = &json["results"][3];
        assert_eq!(fourth["category"], "wrong-false");
        assert_eq!(fourth["expected_subproperty"], "valid-deref");
        assert_eq!(fourth["verdict_line"], "FALSE(valid-free)");
        assert_eq!(fourth["property"], "valid-memsafety");
        assert_eq!(json["results"][6]["signal"], 9);
    }
}

//! Verdict reports: renders what the engines found (a [`Portfolio`] result) as text, the
//! SV-COMP verdict line first, or as a JSON document. Runs nothing.

use crate::engine::Verdict;
use crate::explicit::explore::{Counterexample, Stats};
use crate::portfolio::Portfolio;
use crate::program::ir::Program;
use crate::program::property::PropertySet;
use serde_json::json;
use std::fmt::Write;

/// A verification run, ready to render.
#[derive(Clone, Debug)]
pub struct Report {
    /// What the engines found.
    pub result: Portfolio,
    /// The properties checked.
    pub checks: PropertySet,
    /// How the spec reached the engines (`standard library (compiled)`, ...).
    pub domain: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Further notes.
    pub notes: Vec<String>,
}

impl Report {
    /// A report of engine results.
    pub fn new(result: Portfolio, checks: &PropertySet, domain: String) -> Report {
        Report {
            result,
            checks: checks.clone(),
            domain,
            seconds: 0.0,
            notes: vec![],
        }
    }

    /// An UNKNOWN report before any engine ran.
    pub fn undecided(checks: &PropertySet, why: &str) -> Report {
        let result = Portfolio {
            runs: vec![],
            verdict: Verdict::Unknown(vec![why.to_string()]),
            decided_by: None,
            conflicts: vec![],
        };
        Report::new(result, checks, String::new())
    }

    /// Adds a note.
    pub fn note(&mut self, n: &str) {
        self.notes.push(n.to_string());
    }

    /// The SV-COMP verdict line.
    pub fn verdict_line(&self) -> String {
        match &self.result.verdict {
            Verdict::True(_) => "TRUE".into(),
            Verdict::False(c) => format!("FALSE({})", c.violation.property),
            Verdict::Unknown(_) => "UNKNOWN".into(),
        }
    }

    /// The exploration counters of the last explicit-heap run.
    fn stats(&self) -> Stats {
        self.result
            .runs
            .iter()
            .rev()
            .find_map(|r| r.stats.clone())
            .unwrap_or_default()
    }

    /// The human-readable report: verdict line first (`prog` names the file in a
    /// counterexample; there is none before the program is read).
    pub fn text(&self, prog: Option<&Program>) -> String {
        let mut out = self.verdict_line();
        out.push('\n');
        match &self.result.verdict {
            Verdict::True(c) => {
                let _ = writeln!(out, "proof: {}; no violation of {}", c.summary, self.checks);
            }
            Verdict::False(c) => match prog {
                Some(prog) => write_counterexample(&mut out, prog, c),
                None => out.push_str("counterexample: the program was not read\n"),
            },
            Verdict::Unknown(reasons) => {
                for r in reasons {
                    let _ = writeln!(out, "reason: {r}");
                }
            }
        }
        if let Some(e) = self.result.decided_by {
            let _ = writeln!(out, "engine: {e}");
        }
        for c in &self.result.conflicts {
            let _ = writeln!(
                out,
                "soundness bug: engine {} answered TRUE, engine {} found a violation that replays",
                c.proved, c.refuted
            );
        }
        for r in &self.result.runs {
            for d in &r.details {
                let _ = writeln!(out, "{d}");
            }
        }
        if self.result.runs.iter().any(|r| r.engine == "shape") && !self.domain.is_empty() {
            let _ = writeln!(out, "spec: {}", self.domain);
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let s = self.stats();
        let _ = writeln!(
            out,
            "stats: {} steps, {} states, {} covered, {} solver calls, {} spurious candidates, {:.2} s",
            s.steps, s.states, s.covered, s.solver_calls, s.spurious, self.seconds
        );
        out
    }

    /// The report as JSON, with `verdict` (the verdict line) first.
    pub fn json(&self) -> serde_json::Value {
        let mut v = json!({
            "verdict": self.verdict_line(),
            "properties": self.checks.0.iter().map(|p| p.name()).collect::<Vec<_>>(),
            "stats": self.stats(),
            "seconds": self.seconds,
            "engine": self.result.decided_by,
            "runs": self.result.runs.iter().map(|r| json!({
                "engine": r.engine,
                "verdict": match &r.verdict {
                    Verdict::True(_) => "TRUE".to_string(),
                    Verdict::False(c) => format!("FALSE({})", c.violation.property),
                    Verdict::Unknown(_) => "UNKNOWN".to_string(),
                },
                "details": r.details,
                "seconds": r.seconds,
            })).collect::<Vec<_>>(),
        });
        match &self.result.verdict {
            Verdict::False(c) => {
                v["violation"] = json!({
                    "property": c.violation.property.name(),
                    "line": c.violation.line,
                    "message": c.violation.message,
                });
                v["trace"] = serde_json::to_value(&c.trace).unwrap_or_default();
            }
            Verdict::Unknown(r) => v["reasons"] = json!(r),
            Verdict::True(c) => v["proof"] = json!(c.summary),
        }
        if !self.result.conflicts.is_empty() {
            v["conflicts"] = json!(
                self.result
                    .conflicts
                    .iter()
                    .map(|c| json!({"proved": c.proved, "refuted": c.refuted}))
                    .collect::<Vec<_>>()
            );
        }
        v
    }
}

fn write_counterexample(out: &mut String, prog: &Program, c: &Counterexample) {
    let v = &c.violation;
    let _ = writeln!(
        out,
        "{}:{}: {} ({})",
        prog.file, v.line, v.message, v.property
    );
    let inputs: Vec<String> = c
        .trace
        .inputs
        .iter()
        .enumerate()
        .map(|(i, x)| format!("in{i}={x}"))
        .collect();
    let _ = writeln!(
        out,
        "counterexample: replayed concretely in {} steps; inputs: {}",
        c.trace.steps.len(),
        if inputs.is_empty() {
            "none".to_string()
        } else {
            inputs.join(", ")
        }
    );
    let mut n = 0;
    let library: std::collections::BTreeSet<&str> = prog
        .functions
        .iter()
        .filter(|f| f.library)
        .map(|f| f.name.as_str())
        .collect();
    for s in &c.trace.steps {
        if s.op == "skip" && s.changes.is_empty() || library.contains(s.function.as_str()) {
            continue;
        }
        n += 1;
        let _ = write!(out, "  {n:>4}. {}:{:<5} {}", s.function, s.line, s.op);
        if !s.changes.is_empty() {
            let _ = write!(out, "    // {}", s.changes.join("; "));
        }
        out.push('\n');
    }
}

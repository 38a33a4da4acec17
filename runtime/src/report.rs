//! Verdicts and their reports: runs the engine on a program and renders the SV-COMP verdict
//! line first, then the explanation (text) or a JSON document.

use crate::explicit::explore::{Counterexample, Explorer, Limits, Outcome, Stats};
use crate::program::ir::Program;
use crate::program::property::PropertySet;
use serde_json::json;
use std::fmt::Write;
use std::time::Instant;

/// The answer of a verification run.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No checked property can be violated.
    True,
    /// A replayed violation.
    False(Box<Counterexample>),
    /// Neither could be established, with the reasons.
    Unknown(Vec<String>),
}

/// A verdict with the run's counters.
#[derive(Clone, Debug)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Exploration counters.
    pub stats: Stats,
    /// The properties checked.
    pub checks: PropertySet,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// What the lazy shape analysis said (its explanation lines), if it ran.
    pub lazy: Option<String>,
    /// Further notes.
    pub notes: Vec<String>,
}

/// Verifies `prog` against `checks` with the explicit-heap engine.
pub fn verify(prog: &Program, checks: &PropertySet, limits: Limits) -> Report {
    let start = Instant::now();
    let mut ex = Explorer::new(prog, checks, limits);
    let outcome = ex.run();
    let verdict = match outcome {
        Outcome::Violation(c) => Verdict::False(c),
        Outcome::Complete => Verdict::True,
        Outcome::Incomplete(r) => Verdict::Unknown(r),
    };
    let stats = ex.stats.clone();
    // The waitlist and the coverage set may hold millions of shared states whose destruction
    // takes seconds; a verification run is followed by the end of the process, so skip it.
    std::mem::forget(ex);
    Report {
        verdict,
        stats,
        checks: checks.clone(),
        seconds: start.elapsed().as_secs_f64(),
        lazy: None,
        notes: vec![],
    }
}

impl Report {
    /// An UNKNOWN report before any engine ran.
    pub fn undecided(checks: &PropertySet, why: &str) -> Report {
        Report {
            verdict: Verdict::Unknown(vec![why.to_string()]),
            stats: Stats::default(),
            checks: checks.clone(),
            seconds: 0.0,
            lazy: None,
            notes: vec![],
        }
    }

    /// Adds a note.
    pub fn note(&mut self, n: &str) {
        self.notes.push(n.to_string());
    }

    /// Takes the lazy shape analysis' verdict when it decided the program; `explain` renders
    /// its report lines.
    pub fn add_lazy(
        &mut self,
        r: crate::techniques::seed000::lazy::LazyResult,
        explain: fn(&crate::techniques::seed000::lazy::LazyResult) -> String,
    ) {
        self.lazy = Some(explain(&r));
        match r.verdict {
            crate::techniques::seed000::lazy::LazyVerdict::True(_) => self.verdict = Verdict::True,
            crate::techniques::seed000::lazy::LazyVerdict::False(c) => {
                self.verdict = Verdict::False(c)
            }
            crate::techniques::seed000::lazy::LazyVerdict::Unknown(_) => {}
        }
    }

    /// The SV-COMP verdict line.
    pub fn verdict_line(&self) -> String {
        match &self.verdict {
            Verdict::True => "TRUE".into(),
            Verdict::False(c) => format!("FALSE({})", c.violation.property),
            Verdict::Unknown(_) => "UNKNOWN".into(),
        }
    }

    /// The human-readable report: verdict line first (`prog` names the file in a
    /// counterexample; there is none before the program is read).
    pub fn text(&self, prog: Option<&Program>) -> String {
        let mut out = self.verdict_line();
        out.push('\n');
        let props: Vec<_> = self.checks.0.iter().map(|p| p.name()).collect();
        match &self.verdict {
            Verdict::True if self.lazy.is_some() => {}
            Verdict::True => {
                let _ = writeln!(
                    out,
                    "proof: the explicit-heap state space is complete ({} states, {} runs ended, {} \
                     states covered at loop heads); no violation of {}",
                    self.stats.states,
                    self.stats.ended,
                    self.stats.covered,
                    props.join(", ")
                );
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
        if let Some(l) = &self.lazy {
            out.push_str(l);
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let s = &self.stats;
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
            "stats": self.stats,
            "seconds": self.seconds,
        });
        match &self.verdict {
            Verdict::False(c) => {
                v["violation"] = json!({
                    "property": c.violation.property.name(),
                    "line": c.violation.line,
                    "message": c.violation.message,
                });
                v["trace"] = serde_json::to_value(&c.trace).unwrap_or_default();
            }
            Verdict::Unknown(r) => v["reasons"] = json!(r),
            Verdict::True if self.lazy.is_some() => {
                v["proof"] = json!("lazy shape analysis, certificate re-checked")
            }
            Verdict::True => v["proof"] = json!("complete explicit-heap exploration"),
        }
        if let Some(l) = &self.lazy {
            v["shape_analysis"] = json!(l.lines().collect::<Vec<_>>());
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

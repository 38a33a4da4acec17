//! The explicit-heap engine: exploration of every run with symbolic inputs (see
//! `crate::explicit::explore`) as an engine. Complete exploration is its proof; a violation
//! that replays concretely its counterexample; a bound reached, an unsupported construct or
//! undefined behaviour outside the checked properties make it UNKNOWN.

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::explicit::explore::{Explorer, Limits, Outcome};
use crate::program::property::PropertySet;
use std::time::Instant;

/// The explicit-heap engine with its exploration bounds.
#[derive(Clone, Debug, Default)]
pub struct Explicit {
    /// Exploration bounds (the time limit is the task's budget, or less).
    pub limits: Limits,
}

impl Engine for Explicit {
    fn name(&self) -> &'static str {
        "explicit"
    }

    fn supports(&self, _: &PropertySet) -> Result<(), String> {
        Ok(())
    }

    fn run(&self, task: &Task) -> Run {
        let start = Instant::now();
        let timeout = match (task.budget.remaining(), self.limits.timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let limits = Limits {
            timeout,
            ..self.limits.clone()
        };
        let mut ex = Explorer::new(task.program, task.properties, limits);
        let outcome = ex.run();
        let stats = ex.stats.clone();
        // The waitlist and the coverage set may hold millions of shared states whose
        // destruction takes seconds; the run's result is all that is needed.
        std::mem::forget(ex);
        let verdict = match outcome {
            Outcome::Violation(c) => Verdict::False(c),
            Outcome::Complete => Verdict::True(Certificate {
                summary: format!(
                    "the explicit-heap state space is complete ({} states, {} runs ended, {} \
                     states covered at loop heads)",
                    stats.states, stats.ended, stats.covered
                ),
                invariants: vec![],
            }),
            Outcome::Incomplete(r) => Verdict::Unknown(r),
        };
        let mut run = Run::new(self.name(), verdict);
        run.stats = Some(stats);
        run.seconds = start.elapsed().as_secs_f64();
        run
    }
}

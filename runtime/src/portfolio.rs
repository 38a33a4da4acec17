//! Which engines run on a task, under one budget.
//!
//! Consumes a [`Task`] (its budget is the whole run's) and the engines' configurations;
//! produces a [`Portfolio`] result: every [`Run`] in order and the final [`Verdict`].
//!
//! - [`Mode::Auto`]: a short explicit-heap run (bugs are usually shallow; at most a fifth of
//!   the time and at most [`FIRST_PASS_CAP`]), then the separation-logic engine (a fifth of
//!   the time left, at most [`SEPARATION_CAP`]), then template synthesis (unreach-call only) on half of the time left,
//!   the lazy shape analysis on half of what is then left (more when the first pass shows
//!   that the full explicit run needs less: [`shape_share`]), PDR (where it applies) on a
//!   share of what is then left, then the explicit engine with the rest; the first decided
//!   verdict stands.
//! - [`Mode::Only`]: one engine, with the whole budget.
//! - [`Mode::Compare`]: every engine that supports the properties, each on an equal share of
//!   the budget; they must not disagree. A TRUE against a replayed FALSE is a soundness bug:
//!   it is reported as a [`Conflict`], and the FALSE (a real run) is the verdict.

use crate::engine::{Engine, Run, Task, Verdict};
use crate::explicit::explore::Limits;
use crate::techniques::explicit::Explicit;
use crate::techniques::seed000::Seed000;
use crate::techniques::seed001::Seed001;
use crate::techniques::seed002::Seed002;
use crate::techniques::seed003::Seed003;
use crate::techniques::seed004::Seed004;

/// How engines are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The staged default (see the module documentation).
    Auto,
    /// One engine by name.
    Only(&'static str),
    /// Every engine, compared.
    Compare,
}

/// The engines and their configurations.
#[derive(Clone, Debug, Default)]
pub struct Engines {
    /// The explicit-heap engine.
    pub explicit: Explicit,
    /// The lazy shape analysis.
    pub seed000: Seed000,
    /// Separation logic refined by abduction.
    pub seed001: Seed001,
    /// Template-based invariant synthesis.
    pub seed002: Seed002,
    /// Property-directed reachability over reachability predicates.
    pub seed003: Seed003,
    /// Bohne's symbolic shape analysis over Boolean heaps.
    pub seed004: Seed004,
}

/// Steps of the first, short explicit-heap run in auto mode.
pub const FIRST_PASS_STEPS: u64 = 300_000;

/// Live heap blocks of the first, short explicit-heap run in auto mode: a shallow bug needs
/// few; a state space that completes only with many more (lists of lists built by counted
/// loops) is left to the full run at the end, after the engines that prove.
pub const FIRST_PASS_HEAP: usize = 48;

/// The share of the time the first explicit-heap run may take in auto mode (its steps can be
/// slow: a path condition grows with every symbolic branch).
pub const FIRST_PASS_SHARE: f64 = 0.2;

/// The most time the first explicit-heap run takes in auto mode. Shallow bugs fall within
/// it (every twin of the seed benchmarks and every FALSE task of the SV-COMP folder is found
/// in under a second); on a correct program with unbounded loops the run cannot end, and a
/// fifth of a long budget would only delay the engines that prove. Deeper bugs are left to
/// the full explicit run at the end.
pub const FIRST_PASS_CAP: std::time::Duration = std::time::Duration::from_secs(4);

/// The share of the time left after the first pass that template synthesis may take in auto
/// mode (unreach-call only): it alone proves properties of heap data, and a synthesis that
/// cannot succeed usually stops early.
pub const TEMPLATE_SHARE: f64 = 0.5;

/// The share of the time left after the first pass that the separation-logic engine may
/// take in auto mode: on the programs in its fragment it ends in seconds (a proof, or a
/// counterexample it cannot refute); elsewhere it stops at the first construct outside it.
pub const SEPARATION_SHARE: f64 = 0.2;

/// The most time the separation-logic engine takes in auto mode.
pub const SEPARATION_CAP: std::time::Duration = std::time::Duration::from_secs(15);

/// The share of the time left that PDR may take in auto mode, on the tasks it applies to
/// (unreach-call, valid-deref, valid-free and valid-memtrack on one list struct), after the
/// shape analysis: it proves properties that need Boolean combinations of reachability facts,
/// and the rest of the time goes to the full explicit run that finds deep bugs.
pub const PDR_SHARE: f64 = 0.4;

/// The most time PDR takes in auto mode when the run has no time limit.
pub const PDR_CAP: std::time::Duration = std::time::Duration::from_secs(120);

/// The names `--engine` takes besides `auto` and `compare`.
pub const ENGINES: [&str; 6] = [
    "explicit",
    "shape",
    "separation",
    "template",
    "pdr",
    "bohne",
];

/// Engines that decided a task differently: a soundness bug.
#[derive(Clone, Debug)]
pub struct Conflict {
    /// The engine that answered TRUE.
    pub proved: &'static str,
    /// The engine whose FALSE replayed.
    pub refuted: &'static str,
}

/// What the portfolio found.
#[derive(Clone, Debug)]
pub struct Portfolio {
    /// Every run, in order.
    pub runs: Vec<Run>,
    /// The final verdict.
    pub verdict: Verdict,
    /// The engine whose verdict stands (`None` when no engine decided).
    pub decided_by: Option<&'static str>,
    /// Engines that disagreed (compare mode).
    pub conflicts: Vec<Conflict>,
}

impl Engines {
    fn by_name(&self, name: &str) -> Option<&dyn Engine> {
        match name {
            "explicit" => Some(&self.explicit),
            "shape" => Some(&self.seed000),
            "separation" => Some(&self.seed001),
            "template" => Some(&self.seed002),
            "pdr" => Some(&self.seed003),
            "bohne" => Some(&self.seed004),
            _ => None,
        }
    }

    fn all(&self) -> [&dyn Engine; 6] {
        [
            &self.explicit,
            &self.seed001,
            &self.seed002,
            &self.seed003,
            &self.seed004,
            &self.seed000,
        ]
    }
}

/// Runs the engines `mode` selects on `task`.
pub fn run(task: &Task, engines: &Engines, mode: Mode) -> Portfolio {
    match mode {
        Mode::Auto => auto(task, engines),
        Mode::Only(name) => {
            let runs = match engines.by_name(name) {
                Some(e) => vec![run_one(e, task)],
                None => vec![Run::new(
                    "portfolio",
                    Verdict::Unknown(vec![format!("no engine `{name}`")]),
                )],
            };
            conclude(runs)
        }
        Mode::Compare => compare(task, engines),
    }
}

/// One engine, or UNKNOWN with the reason it does not apply.
fn run_one(e: &dyn Engine, task: &Task) -> Run {
    match e.supports(task.properties) {
        Ok(()) => e.run(task),
        Err(why) => Run::new(e.name(), Verdict::Unknown(vec![why])),
    }
}

fn auto(task: &Task, engines: &Engines) -> Portfolio {
    let full = &engines.explicit;
    let shape_applies = engines.seed000.supports(task.properties).is_ok();
    let template_applies = engines.seed002.supports(task.properties).is_ok();
    let staged = (shape_applies || template_applies) && full.limits.max_steps > FIRST_PASS_STEPS;
    let first = Explicit {
        limits: Limits {
            max_steps: if staged {
                FIRST_PASS_STEPS
            } else {
                full.limits.max_steps
            },
            max_heap: if staged {
                full.limits.max_heap.min(FIRST_PASS_HEAP)
            } else {
                full.limits.max_heap
            },
            ..full.limits.clone()
        },
    };
    let mut runs = vec![if staged {
        first.run(&task.with_budget(task.budget.share(FIRST_PASS_SHARE).at_most(FIRST_PASS_CAP)))
    } else {
        first.run(task)
    }];
    if engines.seed001.supports(task.properties).is_ok() && !runs[0].verdict.decided() {
        let budget = task.budget.share(SEPARATION_SHARE).at_most(SEPARATION_CAP);
        runs.push(engines.seed001.run(&task.with_budget(budget)));
    }
    if template_applies && !runs.iter().any(|r| r.verdict.decided()) {
        runs.push(
            engines
                .seed002
                .run(&task.with_budget(task.budget.share(TEMPLATE_SHARE))),
        );
    }
    if !runs.iter().any(|r| r.verdict.decided()) {
        let share = if staged {
            shape_share(&runs[0], full.limits.max_steps, task.budget.remaining())
        } else {
            1.0
        };
        runs.push(run_one(
            &engines.seed000,
            &task.with_budget(task.budget.share(share)),
        ));
    }
    if !runs.iter().any(|r| r.verdict.decided()) && engines.seed003.applies(task) {
        runs.push(
            engines
                .seed003
                .run(&task.with_budget(task.budget.share(PDR_SHARE).at_most(PDR_CAP))),
        );
    }
    if staged && !runs.iter().any(|r| r.verdict.decided()) {
        // The full run supersedes the first pass: its reasons are the explicit engine's.
        runs[0].verdict = Verdict::Unknown(vec![]);
        runs.push(full.run(task));
    }
    conclude(runs)
}

/// The share of the time left that the lazy shape analysis takes in auto mode: half, or
/// all but what the full explicit run at the end needs when the first pass shows that to be
/// less. A first pass that stopped at its step bound gives the explicit engine's speed on the
/// program; the full run's step bound at that speed, twice over (its states grow larger), is
/// its need. Time the full run could not use would otherwise be left idle after it.
fn shape_share(first: &Run, full_steps: u64, left: Option<std::time::Duration>) -> f64 {
    let (Some(stats), Some(left)) = (&first.stats, left) else {
        return 0.5;
    };
    if stats.steps < FIRST_PASS_STEPS || first.seconds <= 0.0 || left.is_zero() {
        return 0.5;
    }
    let need = 2.0 * first.seconds * full_steps as f64 / stats.steps as f64;
    (1.0 - need / left.as_secs_f64()).clamp(0.5, 0.9)
}

fn compare(task: &Task, engines: &Engines) -> Portfolio {
    let candidates: Vec<&dyn Engine> = engines
        .all()
        .into_iter()
        .filter(|e| e.supports(task.properties).is_ok())
        .collect();
    let mut runs = vec![];
    for (i, e) in candidates.iter().enumerate() {
        let share = 1.0 / (candidates.len() - i) as f64;
        runs.push(e.run(&task.with_budget(task.budget.share(share))));
    }
    let mut p = conclude(runs);
    for t in p
        .runs
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::True(_)))
    {
        for f in p
            .runs
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::False(_)))
        {
            p.conflicts.push(Conflict {
                proved: t.engine,
                refuted: f.engine,
            });
        }
    }
    p
}

/// The final verdict of some runs: a replayed FALSE first (it is a real run), else a TRUE,
/// else UNKNOWN with every run's reasons.
fn conclude(runs: Vec<Run>) -> Portfolio {
    let false_run = runs.iter().find(|r| matches!(r.verdict, Verdict::False(_)));
    let true_run = runs.iter().find(|r| matches!(r.verdict, Verdict::True(_)));
    let (verdict, decided_by) = match (false_run, true_run) {
        (Some(r), _) | (None, Some(r)) => (r.verdict.clone(), Some(r.engine)),
        (None, None) => {
            let reasons = runs
                .iter()
                .flat_map(|r| match &r.verdict {
                    Verdict::Unknown(why) => why.iter().map(|w| label(r.engine, w)).collect(),
                    _ => vec![],
                })
                .collect();
            (Verdict::Unknown(reasons), None)
        }
    };
    Portfolio {
        runs,
        verdict,
        decided_by,
        conflicts: vec![],
    }
}

/// A reason with the engine it comes from (the explicit engine's reasons read as they are).
fn label(engine: &str, why: &str) -> String {
    match engine {
        "explicit" | "portfolio" => why.to_string(),
        "shape" => format!("shape analysis: {why}"),
        e => format!("{e}: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::explore::Stats;
    use std::time::Duration;

    /// A first pass that took `seconds` for `steps` steps.
    fn first(steps: u64, seconds: f64) -> Run {
        let mut run = Run::new("explicit", Verdict::Unknown(vec![]));
        run.stats = Some(Stats {
            steps,
            ..Stats::default()
        });
        run.seconds = seconds;
        run
    }

    #[test]
    fn the_shape_analysis_gets_what_the_full_explicit_run_cannot_use() {
        let left = Some(Duration::from_secs(60));
        // 300 000 steps in 1 s: 3 million need 10 s, twice over 20 s of the 60 left.
        let share = shape_share(&first(FIRST_PASS_STEPS, 1.0), 3_000_000, left);
        assert!((share - 2.0 / 3.0).abs() < 1e-9, "{share}");
        // A fast explicit engine leaves the shape analysis at most nine tenths.
        assert_eq!(
            shape_share(&first(FIRST_PASS_STEPS, 0.01), 3_000_000, left),
            0.9
        );
        // A slow one, or a first pass that stopped before its step bound (on time or an
        // end), says nothing better than half.
        assert_eq!(
            shape_share(&first(FIRST_PASS_STEPS, 4.0), 3_000_000, left),
            0.5
        );
        assert_eq!(shape_share(&first(1000, 0.01), 3_000_000, left), 0.5);
        assert_eq!(
            shape_share(&first(FIRST_PASS_STEPS, 1.0), 3_000_000, None),
            0.5
        );
    }
}

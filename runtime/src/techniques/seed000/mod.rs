//! Seed 000: lazy shape analysis refined by explicit heaps. [`shape`] is the domain (TVLA
//! three-valued shape graphs over the spec's predicates) and its ART; [`classify`] decides on
//! explicit-heap samples which structures a type builds (SCGsFromExplicit); [`lazy`] is the
//! refinement loop (Algorithms 1-3) over the generic loop of `crate::engine::refine`; the
//! [`Seed000`] engine runs it on a task and explains the result.

pub mod classify;
pub mod lazy;
pub mod shape;

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::program::property::PropertySet;
use lazy::{Lazy, LazyConfig, LazyResult, LazyVerdict, Refinement};
use std::fmt::Write;

/// The lazy shape analysis as an engine.
#[derive(Clone, Debug, Default)]
pub struct Seed000 {
    /// Its configuration (the time limit is the task's budget, or less).
    pub config: LazyConfig,
}

impl Engine for Seed000 {
    fn name(&self) -> &'static str {
        "shape"
    }

    fn supports(&self, _: &PropertySet) -> Result<(), String> {
        Ok(())
    }

    fn run(&self, task: &Task) -> Run {
        let r = Lazy::new(task, self.config.clone()).run(task);
        let mut run = Run::new(self.name(), verdict(&r));
        run.details = explain(&r).lines().map(str::to_string).collect();
        run.seconds = r.seconds;
        run.artifacts.insert("shapes.txt".into(), r.shapes_text);
        run.artifacts.insert("shapes.dot".into(), r.shapes_dot);
        run.artifacts.insert("shapes.svg".into(), r.shapes_svg);
        run
    }
}

fn verdict(r: &LazyResult) -> Verdict {
    match &r.verdict {
        LazyVerdict::True(c) => Verdict::True(Certificate {
            summary: format!(
                "lazy shape analysis; certificate re-checked: {} locations, {} shape graphs, \
                 {} transitions, every one covered",
                c.locations, c.graphs, c.transitions
            ),
            invariants: r.invariants.clone(),
        }),
        LazyVerdict::False(cex) => Verdict::False(cex.clone()),
        LazyVerdict::Unknown(why) => Verdict::Unknown(vec![why.clone()]),
    }
}

/// The lines explaining a run: the final abstraction, the tracked pointers and the
/// refinements in order.
pub fn explain(r: &LazyResult) -> String {
    let mut out = String::new();
    for (ty, scg, preds) in &r.abstraction {
        let _ = writeln!(out, "abstraction: {ty} => {scg}");
        if !preds.is_empty() {
            let _ = writeln!(out, "  predicates: {}", preds.join(", "));
        }
    }
    if !r.tracked.is_empty() {
        let _ = writeln!(out, "tracked pointers: {}", r.tracked.join(", "));
    }
    if !r.owned.is_empty() {
        let _ = writeln!(out, "owned blocks through: {}", r.owned.join(", "));
    }
    let _ = writeln!(
        out,
        "refinements: {} td, {} scg ({} ART rounds, {:.2} s)",
        r.td(),
        r.scg(),
        r.rounds,
        r.seconds
    );
    for (i, f) in r.refinements.iter().enumerate() {
        let line = match f {
            Refinement::Tracking(ps) => format!("track {}", ps.join(", ")),
            Refinement::Abstract(ty, scg) => format!("explicit samples: {ty} => {scg}"),
            Refinement::Scg(ty, scg) => format!("FineTune: {ty} => {scg}"),
            Refinement::Assertions(a) => format!("field assertions {}", a.join(", ")),
        };
        let _ = writeln!(out, "  {}. {line}", i + 1);
    }
    out
}

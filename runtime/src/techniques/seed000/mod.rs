//! Seed 000: lazy shape analysis refined by explicit heaps. [`shape`] is the domain (TVLA
//! three-valued shape graphs over the spec's predicates) and its ART; [`classify`] decides on
//! explicit-heap samples which structures a type builds (SCGsFromExplicit); [`lazy`] is the
//! refinement loop (Algorithms 1-3) over the generic loop of `crate::engine::refine`; the
//! [`Seed000`] engine runs it on a task and explains the result.
//!
//! One abstraction must serve every checked property at once, and the refinements one
//! property asks for can stand in the way of another's (a finer structure for an assertion
//! whose predicates the memtrack proof cannot maintain while the list is built). When the
//! joint run gives up refining, the engine asks the smaller questions: the properties split
//! into groups (unreach-call; valid-deref, valid-free and valid-memtrack; valid-memcleanup),
//! each proved on its own share of the time left. A proof of each group is a proof of all:
//! every group's analysis covers every execution up to its first violation of that group, and
//! the other proofs show there is none. A replayed violation of any group is a FALSE.

pub mod classify;
pub mod lazy;
pub mod shape;

use crate::engine::{Certificate, Engine, Run, Task, Verdict, refine};
use crate::program::property::{Property, PropertySet};
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
        let groups = groups(task.properties);
        let gave_up =
            matches!(&r.verdict, LazyVerdict::Unknown(why) if refine::refinement_gave_up(why));
        let time_left = task.budget.remaining().is_none_or(|t| t >= MIN_SPLIT_TIME);
        if gave_up && time_left && groups.len() > 1 {
            return self.run_split(task, r, &groups);
        }
        let mut run = Run::new(self.name(), verdict(&r));
        run.details = explain(&r).lines().map(str::to_string).collect();
        run.seconds = r.seconds;
        run.artifacts.insert("shapes.txt".into(), r.shapes_text);
        run.artifacts.insert("shapes.dot".into(), r.shapes_dot);
        run.artifacts.insert("shapes.svg".into(), r.shapes_svg);
        run
    }
}

/// The least time left for which the split runs are tried after a joint run gave up.
const MIN_SPLIT_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// The checked properties in the groups that are proved separately after a joint run gave up
/// (see the module documentation); empty groups are left out.
fn groups(checks: &PropertySet) -> Vec<PropertySet> {
    let memsafety = [
        Property::ValidDeref,
        Property::ValidFree,
        Property::ValidMemtrack,
    ];
    [
        vec![Property::UnreachCall],
        memsafety.to_vec(),
        vec![Property::ValidMemcleanup],
    ]
    .into_iter()
    .map(|g| PropertySet(g.into_iter().filter(|p| checks.has(*p)).collect()))
    .filter(|g| !g.0.is_empty())
    .collect()
}

impl Seed000 {
    /// One lazy run per group of properties after the joint run `joint` gave up: TRUE when
    /// every group is proved, the first replayed FALSE, else UNKNOWN with the joint reason
    /// and each group's.
    fn run_split(&self, task: &Task, joint: LazyResult, groups: &[PropertySet]) -> Run {
        let mut seconds = joint.seconds;
        let mut details = vec![
            "the joint run for every property gave up; each group of properties on its own:"
                .to_string(),
        ];
        let mut reasons = vec![match &joint.verdict {
            LazyVerdict::Unknown(why) => format!("for all properties together: {why}"),
            _ => unreachable!("only a joint run that gave up is split"),
        }];
        let (mut proofs, mut invariants, mut shapes) = (vec![], vec![], vec![]);
        for (i, group) in groups.iter().enumerate() {
            let share = 1.0 / (groups.len() - i) as f64;
            let sub = Task {
                properties: group,
                ..task.with_budget(task.budget.share(share))
            };
            let r = Lazy::new(&sub, self.config.clone()).run(&sub);
            seconds += r.seconds;
            let names = group.to_string();
            details.push(format!("[{names}]"));
            details.extend(explain(&r).lines().map(|l| format!("  {l}")));
            match verdict(&r) {
                Verdict::False(cex) => {
                    let mut run = Run::new(self.name(), Verdict::False(cex));
                    run.details = details;
                    run.seconds = seconds;
                    return run;
                }
                Verdict::True(c) => {
                    proofs.push(format!("[{names}] {}", c.summary));
                    // Two groups' graphs may show the same fact at a loop head: state it once.
                    for i in c.invariants {
                        if !invariants.contains(&i) {
                            invariants.push(i);
                        }
                    }
                    shapes.push((names, r.shapes_text, r.shapes_dot, r.shapes_svg));
                }
                Verdict::Unknown(why) => {
                    reasons.extend(why.into_iter().map(|w| format!("for {names} alone: {w}")))
                }
            }
        }
        let verdict = if proofs.len() == groups.len() {
            Verdict::True(Certificate {
                summary: format!(
                    "lazy shape analysis, one proof per group of properties: {}",
                    proofs.join("; ")
                ),
                invariants,
            })
        } else {
            Verdict::Unknown(reasons)
        };
        let mut run = Run::new(self.name(), verdict);
        run.details = details;
        run.seconds = seconds;
        if matches!(run.verdict, Verdict::True(_)) {
            let text = shapes
                .iter()
                .map(|(names, text, _, _)| format!("// proof of {names}\n{text}"))
                .collect::<String>();
            run.artifacts.insert("shapes.txt".into(), text);
            // A picture shows one proof: the first group's.
            let (_, _, dot, svg) = shapes.swap_remove(0);
            run.artifacts.insert("shapes.dot".into(), dot);
            run.artifacts.insert("shapes.svg".into(), svg);
        }
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
    if !r.slots.is_empty() {
        let _ = writeln!(out, "pointers to links: {}", r.slots.join(", "));
    }
    if !r.owned.is_empty() {
        let _ = writeln!(out, "owned blocks through: {}", r.owned.join(", "));
    }
    if !r.inner.is_empty() {
        let _ = writeln!(out, "pointers into their own cell: {}", r.inner.join(", "));
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
            Refinement::Regions(a) => {
                format!("field assertions at more locations: {}", a.join(", "))
            }
        };
        let _ = writeln!(out, "  {}. {line}", i + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_split_into_unreach_call_memory_safety_and_cleanup() {
        let all = PropertySet::parse_list("unreach-call,valid-memsafety,valid-memcleanup").unwrap();
        let got: Vec<String> = groups(&all).iter().map(PropertySet::to_string).collect();
        assert_eq!(
            got,
            [
                "unreach-call",
                "valid-deref, valid-free, valid-memtrack",
                "valid-memcleanup"
            ]
        );
        let memsafety = PropertySet::parse_list("valid-memsafety").unwrap();
        assert_eq!(groups(&memsafety).len(), 1, "nothing to split");
        let two = PropertySet::parse_list("unreach-call,valid-deref").unwrap();
        let got: Vec<String> = groups(&two).iter().map(PropertySet::to_string).collect();
        assert_eq!(got, ["unreach-call", "valid-deref"]);
    }
}

//! Seed 004: Bohne's symbolic shape analysis (Wies, Kuncak, Zee, Podelski, Rinard, HAV
//! 2007): loop invariants as disjunctions of universally quantified Boolean combinations of
//! unary abstraction predicates (Boolean heaps), inferred by a `Reach` fixpoint whose
//! abstract post is computed on demand by validity checks, behind the engine interface.
//!
//! Consumes a task with the properties of seed 003's logic (unreach-call, valid-deref,
//! valid-free, valid-memtrack) on a program whose heap is one list struct, or with
//! [`Seed004::function`] one C function and its contract from the spec (the paper's
//! setting: a procedure verified against `requires`/`ensures`); produces TRUE when the
//! fixpoint's invariants (printed as formulas) pass the re-check by fresh solver queries
//! (initial, inductive along every path, excluding every fault and, for a contract, implying
//! the postcondition at the exit); FALSE when a fault's abstract trace is followed by a run
//! of the logic's model and the function run concretely from that run's initial heap breaks
//! the contract; UNKNOWN otherwise, with the fault, its line and the trace.
//!
//! The transition system, the logic and its EPR encoding, the contract and the re-checks are
//! seed 003's ([`crate::techniques::seed003`]): the two techniques share the predicate and
//! weakest-precondition layer and differ in the abstract post (PDR frames of closed
//! predicates there, Boolean heaps of unary predicates here). The stages: [`predicates`]
//! (the abstraction predicates per cut point), [`heap`] (the domain), [`propagate`] (the
//! precondition's conjuncts every path preserves), [`post`] (the context-sensitive
//! Cartesian post with its cache) and [`reach`] (the fixpoint).

pub mod heap;
pub mod post;
pub mod predicates;
pub mod propagate;
pub mod reach;

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::program::property::PropertySet;
use crate::techniques::seed003::logic::Names;
use crate::techniques::seed003::program::{self, System};
use crate::techniques::seed003::{Refuted, Seed003, check, refute};
use heap::Heap;
use post::{Context, Oracle};
use predicates::Preds;
use reach::Outcome;
use std::time::Instant;
use z3::ast::Bool;

/// The Bohne engine.
#[derive(Clone, Debug, Default)]
pub struct Seed004 {
    /// The C function to verify alone against its contract in the spec, instead of the
    /// program from `main`.
    pub function: Option<String>,
    /// The context operator.
    pub context: Context,
}

impl Engine for Seed004 {
    fn name(&self) -> &'static str {
        "bohne"
    }

    fn supports(&self, properties: &PropertySet) -> Result<(), String> {
        Seed003::default().supports(properties).map_err(|_| {
            "Bohne checks unreach-call, valid-deref, valid-free and valid-memtrack".into()
        })
    }

    fn run(&self, task: &Task) -> Run {
        let start = Instant::now();
        let mut details = vec![];
        let verdict = self.prove(task, &mut details);
        Run::finished(self.name(), start, verdict, details)
    }
}

impl Seed004 {
    /// Whether the engine applies to the task: its properties, and a program inside the logic.
    pub fn applies(&self, task: &Task) -> bool {
        self.supports(task.properties).is_ok() && self.system(task).is_ok()
    }

    /// The transition system, with the data order when the program compares node data.
    fn system(&self, task: &Task) -> Result<System, String> {
        let pdr = Seed003 {
            function: self.function.clone(),
            families: vec![],
        };
        let probe = pdr.system(task, false)?;
        if program::compared_field(&probe.flat).is_some() {
            pdr.system(task, true)
        } else {
            Ok(probe)
        }
    }

    fn prove(&self, task: &Task, details: &mut Vec<String>) -> Result<Verdict, String> {
        let sys = self.system(task)?;
        let callees: Vec<String> = sys.summaries.values().map(|s| s.function.clone()).collect();
        let prove = |g: &str, details: &mut Vec<String>| {
            let callee = Seed004 {
                function: Some(g.to_string()),
                ..self.clone()
            };
            callee.prove(task, details)
        };
        if let Some(unknown) = crate::techniques::seed003::callees_hold(&callees, details, prove)? {
            return Ok(unknown);
        }
        let (assumed, propagated) = propagate::propagate(&sys, &task.budget)?;
        let preds: Vec<Preds> = (0..sys.cuts.len())
            .map(|c| predicates::discover(&sys, c))
            .collect();
        let count: usize = preds.iter().map(|p| p.unary.len() + p.nullary.len()).sum();
        details.push(format!(
            "{count} predicates over {} cut points (0 supplied), context {}",
            sys.cuts.len(),
            self.context.name()
        ));
        if reach::debugging() {
            for (c, p) in preds.iter().enumerate() {
                let names: Vec<&str> = p.unary.iter().map(|q| q.name.as_str()).collect();
                eprintln!("bohne: cut {c}: {}", names.join(", "));
                let n = Names {
                    vars: &sys.names,
                    fields: &sys.relations,
                };
                eprintln!("bohne: cut {c} assumes {}", n.formula(&assumed[c]));
            }
        }
        let mut oracle = Oracle::new(&sys, &preds, &assumed, task.budget)?;
        let outcome = reach::reach(&mut oracle, self.context, &task.budget);
        let ctr = oracle.counters;
        details.push(format!(
            "{} tree nodes, {} solver calls ({} for the precondition's conjuncts), {} of {} \
             posts from the cache",
            ctr.nodes,
            ctr.calls + propagated,
            propagated,
            ctr.hits,
            ctr.lookups
        ));
        match outcome {
            Outcome::Fixpoint(states) => {
                let states: Vec<Vec<Heap>> = states.into_iter().map(maximal).collect();
                let cases = |c: usize, v: &crate::techniques::seed003::epr::Voc| {
                    let assumed = v.encode(&assumed[c]);
                    (states[c].iter())
                        .map(|h| Bool::and(&[assumed.clone(), oracle.gamma(c, h, v)]))
                        .collect()
                };
                check::inductive(&sys, &cases, &task.budget)?;
                let heaps: usize = states.iter().map(Vec::len).sum();
                for (c, hs) in states.iter().enumerate() {
                    details.push(format!("invariant at line {}:", sys.line_of(sys.cuts[c])));
                    let names = Names {
                        vars: &sys.names,
                        fields: &sys.relations,
                    };
                    details.push(format!("  {}", names.formula(&assumed[c])));
                    for h in hs {
                        details.push(format!("  or {}", show(&preds[c], h)));
                    }
                }
                let what = match &self.function {
                    Some(f) => format!("`{f}` meets its contract: "),
                    None => String::new(),
                };
                Ok(Verdict::True(Certificate {
                    summary: format!(
                        "{what}Boolean-heap invariants ({heaps} heaps); re-checked initial, \
                         inductive and excluding every fault by fresh solver queries"
                    ),
                    invariants: vec![],
                }))
            }
            Outcome::Fault(cuts, bad) => {
                let f = self.function.as_deref();
                let line = bad.line;
                match refute(task, &sys, f, &cuts, &bad, "", details)? {
                    Refuted::False(v) => Ok(v),
                    Refuted::Model(what) => Err(what),
                    Refuted::Spurious => {
                        let lines: Vec<String> = (cuts.iter())
                            .map(|&c| sys.line_of(sys.cuts[c]).to_string())
                            .collect();
                        Err(format!(
                            "the Boolean heaps over these predicates do not exclude {} at line \
                             {line}; no run of the logic's model follows the abstract trace \
                             through the loop heads at lines {}",
                            bad.describe(),
                            lines.join(", ")
                        ))
                    }
                }
            }
            Outcome::Stopped(why) => Err(why),
        }
    }
}

/// The heaps of `hs` that no other one of them is below (the same invariant, fewer cases).
fn maximal(hs: Vec<Heap>) -> Vec<Heap> {
    let mut out: Vec<Heap> = vec![];
    for h in hs {
        if out.iter().any(|o| h.below(o)) {
            continue;
        }
        out.retain(|o| !o.below(&h));
        out.push(h);
    }
    out
}

/// A Boolean heap as a formula: its nullary literals and `forall v. ⋁ cubes`.
pub fn show(preds: &Preds, h: &Heap) -> String {
    let lit = |p: &predicates::Pred, b: bool| {
        if b {
            p.name.clone()
        } else {
            format!("!({})", p.name)
        }
    };
    let cube = |k: heap::Cube, ps: &[predicates::Pred]| -> String {
        let lits: Vec<String> = k.literals().map(|(p, b)| lit(&ps[p], b)).collect();
        if lits.is_empty() {
            "true".into()
        } else {
            lits.join(" && ")
        }
    };
    let cubes: Vec<String> = (h.cubes.iter())
        .map(|k| format!("({})", cube(*k, &preds.unary)))
        .collect();
    let null = cube(h.nullary, &preds.nullary);
    let all = format!("forall v. {}", cubes.join(" || "));
    if null == "true" {
        all
    } else {
        format!("{null} && {all}")
    }
}

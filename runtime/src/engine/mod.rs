//! The seam every technique plugs into.
//!
//! An engine consumes a [`Task`] (the program, the properties to check, the data-structure
//! [`Domain`](domain::Domain) a spec defines, and its [`Budget`]) and produces a [`Run`]: a
//! [`Verdict`] (TRUE with a [`Certificate`] the engine re-checked, FALSE with a counterexample
//! that replayed concretely, UNKNOWN with reasons) and the lines that explain it. Engines that
//! refine an abstraction run the generic loop of [`refine`]; the [`feasibility`] of abstract
//! counterexamples is decided here for all of them. The portfolio (`crate::portfolio`) chooses
//! which engines run on a task, and `crate::report` renders what they found.

pub mod budget;
pub mod domain;
pub mod feasibility;
pub mod refine;

pub use budget::Budget;

use crate::explicit::explore::{Counterexample, Stats};
use crate::program::ir::Program;
use crate::program::property::PropertySet;
use std::collections::BTreeMap;

/// What an engine is asked: does `program` satisfy `properties`?
#[derive(Clone, Copy)]
pub struct Task<'a> {
    /// The program.
    pub program: &'a Program,
    /// The properties to check.
    pub properties: &'a PropertySet,
    /// The data structures (predicates, invariants, structures) of the spec in use.
    pub domain: &'a dyn domain::Domain,
    /// The engine's share of the run's time and memory.
    pub budget: Budget,
}

impl Task<'_> {
    /// The same task with another budget.
    pub fn with_budget(self, budget: Budget) -> Self {
        Task { budget, ..self }
    }
}

/// A proof: what the engine re-checked before answering TRUE.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// One line: the kind of proof and how it was re-checked.
    pub summary: String,
    /// The part of the proof a C expression can state, for a correctness witness (each
    /// invariant proved as part of the certificate).
    pub invariants: Vec<crate::witness::correctness::LocatedInvariant>,
}

/// An engine's answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No execution violates the properties, with the re-checked proof.
    True(Certificate),
    /// A violation, with its concrete run (replayed).
    False(Box<Counterexample>),
    /// Neither could be established, for these reasons.
    Unknown(Vec<String>),
}

impl Verdict {
    /// Whether the verdict decides the task (TRUE or FALSE).
    pub fn decided(&self) -> bool {
        !matches!(self, Verdict::Unknown(_))
    }
}

/// What one engine found on a task.
#[derive(Clone, Debug)]
pub struct Run {
    /// The engine's name.
    pub engine: &'static str,
    /// Its verdict.
    pub verdict: Verdict,
    /// Lines explaining the verdict (the abstraction used, refinements, ...).
    pub details: Vec<String>,
    /// Exploration counters, for engines that explore explicit states.
    pub stats: Option<Stats>,
    /// Engine-specific outputs by name (e.g. the shape graphs of a certificate).
    pub artifacts: BTreeMap<String, String>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Run {
    /// A run with a verdict and nothing else.
    pub fn new(engine: &'static str, verdict: Verdict) -> Run {
        Run {
            engine,
            verdict,
            details: vec![],
            stats: None,
            artifacts: BTreeMap::new(),
            seconds: 0.0,
        }
    }
}

impl Run {
    /// The run of an engine that started at `start`: its verdict (an `Err` is UNKNOWN with
    /// that reason) and the lines explaining it.
    pub fn finished(
        engine: &'static str,
        start: std::time::Instant,
        verdict: Result<Verdict, String>,
        details: Vec<String>,
    ) -> Run {
        let mut run = Run::new(
            engine,
            verdict.unwrap_or_else(|why| Verdict::Unknown(vec![why])),
        );
        run.details = details;
        run.seconds = start.elapsed().as_secs_f64();
        run
    }
}

/// A verification technique.
pub trait Engine {
    /// Its name, as `--engine` spells it.
    fn name(&self) -> &'static str;
    /// `Err(why)` when it cannot decide these properties.
    fn supports(&self, properties: &PropertySet) -> Result<(), String>;
    /// Runs on a task, within the task's budget.
    fn run(&self, task: &Task) -> Run;
}

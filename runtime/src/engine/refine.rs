//! The generic counterexample-guided refinement loop:
//!
//! ```text
//! loop
//!   explore with the current precision
//!     proof (re-checked by the engine)  -> TRUE
//!     abstract counterexample           -> feasible? (explicit engine along the path, replay)
//!         yes                           -> FALSE with the replayed run
//!         no, with a core               -> refine the precision, or UNKNOWN (refinement failed)
//! ```
//!
//! Consumes a [`Task`] and an engine that implements [`Refinement`] (its abstract domain, how
//! it explores, how it refines); produces an [`Outcome`]. The feasibility check is the shared
//! one of [`super::feasibility`], so every refinement engine reports FALSE only for a run that
//! replayed concretely, and the loop honours the task's budget between rounds.

use super::Task;
use super::feasibility::{self, Core, PathResult};
use crate::explicit::explore::Counterexample;
use crate::program::path::{PathEnd, PathStep};

/// The result of one exploration with a fixed precision.
pub enum Exploration<P> {
    /// The exploration is complete and its certificate re-checked: `P` describes it.
    Proof(P),
    /// An abstract error path and how it claims to end.
    Counterexample {
        /// The program path.
        path: Vec<PathStep>,
        /// The claimed violation.
        end: PathEnd,
        /// What the abstraction could not rule out, for reports.
        message: String,
    },
    /// Neither, for this reason.
    Incomplete(String),
}

/// An engine that refines its abstraction along spurious counterexamples.
pub trait Refinement {
    /// What a proof carries (the engine's certificate).
    type Proof;
    /// Explores the program with the current precision.
    fn explore(&mut self, task: &Task) -> Exploration<Self::Proof>;
    /// Refines the precision so that `path`, infeasible for the reasons in `core`, is ruled
    /// out; `Err` with the reason when no refinement does.
    fn refine(&mut self, task: &Task, path: &[PathStep], core: &Core) -> Result<(), String>;
}

/// How the loop ends.
pub enum Outcome<P> {
    /// A proof.
    Proved(P),
    /// A violation with its replayed run.
    Refuted(Box<Counterexample>),
    /// Neither, with the reason.
    Unknown(String),
}

/// Whether an [`Outcome::Unknown`] reason says that refinement gave up (failed, or reached
/// its limit) rather than a bound, an unsupported construct or an undecided path: only then
/// can the same engine on a smaller question (fewer properties) still succeed.
pub fn refinement_gave_up(why: &str) -> bool {
    why.starts_with("refinement failed") || why.starts_with("refinement limit reached")
}

/// Runs the loop, with at most `max_refinements` refinements.
pub fn run<R: Refinement>(
    engine: &mut R,
    task: &Task,
    max_refinements: usize,
) -> Outcome<R::Proof> {
    let mut refinements = 0;
    loop {
        if let Err(e) = task.budget.check() {
            return Outcome::Unknown(format!("bound reached: {e}"));
        }
        let (path, end, message) = match engine.explore(task) {
            Exploration::Proof(p) => return Outcome::Proved(p),
            Exploration::Incomplete(why) => return Outcome::Unknown(why),
            Exploration::Counterexample { path, end, message } => (path, end, message),
        };
        match feasibility::check_path(task.program, task.properties, &path, &end) {
            PathResult::Feasible(cex) => return Outcome::Refuted(cex),
            PathResult::Unknown(why) => {
                return Outcome::Unknown(format!(
                    "{message}; its path could not be decided: {why}"
                ));
            }
            PathResult::Infeasible(core) => {
                if refinements >= max_refinements {
                    return Outcome::Unknown(format!(
                        "refinement limit reached on a spurious path ({message})"
                    ));
                }
                refinements += 1;
                if let Err(why) = engine.refine(task, &path, &core) {
                    // A refinement cut short by the deadline failed for want of time.
                    if let Err(e) = task.budget.check() {
                        return Outcome::Unknown(format!("bound reached: {e}"));
                    }
                    let why = if why.is_empty() {
                        String::new()
                    } else {
                        format!(" ({why})")
                    };
                    return Outcome::Unknown(format!(
                        "refinement failed on a spurious path of {} steps ending in: {message}{why}",
                        path.len()
                    ));
                }
            }
        }
    }
}

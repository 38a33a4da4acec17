//! The seam between techniques: the run's [`budget`] and the [`feasibility`] of abstract
//! counterexamples (explicit engine along the path, SSA path formula, concrete replay).

pub mod budget;
pub mod feasibility;

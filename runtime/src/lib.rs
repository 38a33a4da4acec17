//! shapecheck's runtime, laid out by concern:
//!
//! - [`program`]: the program a verifier reads: the C front end, the IR, the properties;
//! - [`explicit`]: the concrete/symbolic machine shared by every engine (explicit heaps, the
//!   semantics of an edge, exploration, concrete replay, heap sampling);
//! - [`smt`]: the Z3 layer (terms and path formulas as bit-vector formulas);
//! - [`engine`]: the seam every technique plugs into (task, budget, verdicts, the feasibility
//!   check of abstract counterexamples);
//! - [`techniques`]: one folder per technique (seed 000's lazy shape analysis today);
//! - [`report`]: verdict reports;
//! - [`witness`]: SV-COMP witnesses (writing, checking, validating by replay);
//! - [`picture`]: heaps and shape graphs drawn as SVG.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod engine;
pub mod explicit;
pub mod picture;
pub mod portfolio;
pub mod program;
pub mod report;
pub mod smt;
pub mod techniques;
pub mod witness;

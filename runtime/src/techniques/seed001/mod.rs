//! Seed 001: separation logic with multiset-parametric list domains, refined by abduction
//! (Botinčan, Dodds, Magill, "Refining existential properties in separation logic
//! analyses").
//!
//! Status: the foundation only. It is not an engine yet and no portfolio runs it.
//! - [`heap`]: symbolic heaps, with their equality closure, consistency and canonical form.
//! - [`abstraction`]: the abstraction `abs_T` of the multiset domain SH^mls (Fig. 4), with the
//!   address guard of SH^rls (Fig. 5).
//! - [`entail`]: entailment between such heaps, the domain's order.
//!
//! Still to come: symbolic execution over the program IR with rearrangement, Algorithm 1
//! (the breadth-first ART), Algorithm 2 (backward abduction and SelectSymbols), the
//! certificate re-check, and the spatial-predicate section of the spec language.

pub mod abstraction;
pub mod entail;
#[cfg(test)]
mod fixtures;
pub mod heap;

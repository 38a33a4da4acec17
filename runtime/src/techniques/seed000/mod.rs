//! Seed 000: lazy shape analysis refined by explicit heaps. [`shape`] is the domain (TVLA
//! three-valued shape graphs over the spec's predicates) and its ART; [`lazy`] the refinement
//! loop (Algorithms 1-3).

pub mod lazy;
pub mod shape;

//! The standard domain library of shapecheck: the data structures, instrumentation predicates,
//! explicit-heap invariants, templates and spatial domains of `specs/*.shape`, compiled by
//! `shapecheck_macros::spec!`.
//!
//! - [`spec()`]: the checked spec as data (formulas as `Formula` trees);
//! - [`predicates`]: `reach`, `treach`, `cyclic`, `shared`, `cancel`, `down`, `dstar`, `dreach`,
//!   `dacyclic`, each a type implementing `shapecheck_dsl::compiled::CompiledPredicate`
//!   (two-valued evaluation on explicit heaps, three-valued on shape graphs);
//! - [`invariants`]: `acyclic`, `inverse`, `unshared`, `tree`, `circular`;
//! - [`structures`]: `sll`, `dll`, `tree`, `treep`, `csll`, each with its invariants and its
//!   lattice of shape-class generators;
//! - templates (`specs/templates.shape`): `heap`, the configuration of seed 002's template
//!   engine (the paper's: `objects auto; paths loops;` points-to and interval rows over
//!   variables and fields), as data in `COMPILED.templates` and `spec().templates`;
//! - spatial domains (`specs/spatial.shape`): `mls` (SH^mls with counts, and SH^rls's
//!   guarded rules) and `sls` (SH^sls, sorted segments), the list domains of seed 001's
//!   separation-logic engine in the order it tries them, as data in `spec().spatial`;
//! - predicate families (`specs/families.shape`): `ls`, `stable` (level 1), `rev`, `sorted`
//!   (level 2), the families of seed 003's PDR and of contracts, as data in
//!   `spec().families`; a user spec loaded at run time gets them too (see [`FAMILIES`]);
//! - [`COMPILED`]: all of them as tables, for lookup by name.
//!
//! ```
//! use shapecheck_dsl::compiled::CompiledPredicate;
//! use shapecheck_dsl::eval::ExplicitHeap;
//! use shapecheck_library::predicates::Reach;
//!
//! // x -> 0 -next-> 1, node 2 unreachable.
//! let heap = ExplicitHeap {
//!     nodes: 3,
//!     edges: [((0, "next".to_string()), 1)].into(),
//!     pointers: [("x".to_string(), 0)].into(),
//! };
//! assert!(Reach::eval2(&heap, &["next"], Some("x"), &[1]));
//! assert!(!Reach::eval2(&heap, &["next"], Some("x"), &[2]));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

shapecheck_macros::spec!(
    "specs/predicates.shape",
    "specs/invariants.shape",
    "specs/structures.shape",
    "specs/templates.shape",
    "specs/spatial.shape",
    "specs/families.shape"
);

/// The text of `specs/families.shape`: the predicate families every spec loaded at run time
/// starts from, so that its contracts and PDR runs can name `ls`, `stable`, `rev` and
/// `sorted` without the rest of the library.
pub const FAMILIES: &str = include_str!("../specs/families.shape");

//! The data-structure domain of a task: what a checked spec defines, as the engines consume it.
//!
//! Consumes a checked [`Spec`]; produces the [`Domain`] interface: the spec as data, and the
//! evaluation of its invariants on explicit heaps. Two implementations exist and must agree:
//! [`Compiled`], the code `shapecheck_macros::spec!` generated for a spec (the standard
//! library, or any library compiled through the macro), and [`Interpreted`], the spec
//! interpreter over a `.shape` file loaded at run time (`--spec`). Engines see only the trait,
//! so a user's spec and the standard library take the same path.

use shapecheck_dsl::compiled::CompiledSpec;
use shapecheck_dsl::eval::{Evaluator, ExplicitHeap, Kleene};
use shapecheck_dsl::ir::{InvId, Spec};

/// The data structures of a spec, for the engines.
pub trait Domain: Sync {
    /// The checked spec as data (formulas, structures, the lattice of generators).
    fn spec(&self) -> &Spec;
    /// How the spec reaches the engines, for reports (`compiled standard library`, ...).
    fn describe(&self) -> String;
    /// Whether invariant `inv`, its roles bound to `fields`, holds on `heap`.
    fn invariant(&self, inv: InvId, heap: &ExplicitHeap, fields: &[&str]) -> bool;
}

/// A spec compiled by `shapecheck_macros::spec!`.
pub struct Compiled {
    /// The generated tables.
    pub tables: &'static CompiledSpec,
    /// The spec as data (from the same generated code).
    pub spec: &'static Spec,
    /// A name for reports.
    pub name: &'static str,
}

impl Domain for Compiled {
    fn spec(&self) -> &Spec {
        self.spec
    }

    fn describe(&self) -> String {
        format!("{} (compiled)", self.name)
    }

    fn invariant(&self, inv: InvId, heap: &ExplicitHeap, fields: &[&str]) -> bool {
        (self.tables.invariants[inv.0].eval2)(heap, fields)
    }
}

/// A spec loaded at run time and evaluated by the interpreter.
pub struct Interpreted {
    /// The checked spec.
    pub spec: Spec,
    /// A name for reports (the file).
    pub name: String,
}

impl Domain for Interpreted {
    fn spec(&self) -> &Spec {
        &self.spec
    }

    fn describe(&self) -> String {
        format!("{} (interpreted)", self.name)
    }

    fn invariant(&self, inv: InvId, heap: &ExplicitHeap, fields: &[&str]) -> bool {
        let fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
        Evaluator::new(&self.spec, heap).invariant(inv, &fields) == Kleene::True
    }
}

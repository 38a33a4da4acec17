//! The data-structure domain of a task: what a checked spec defines, as the engines consume it.
//!
//! Consumes a checked [`Spec`]; produces the [`Domain`] interface: the spec as data, the
//! evaluation of its invariants on explicit heaps (classification), and the evaluation of its
//! predicates through an engine's three-valued semantics (the shape analysis' updates and
//! coerce). Two implementations exist and must agree:
//! [`Compiled`], the code `shapecheck_macros::spec!` generated for a spec (the standard
//! library, or any library compiled through the macro), and [`Interpreted`], the spec
//! interpreter over a `.shape` file loaded at run time (`--spec`). Engines see only the trait,
//! so a user's spec and the standard library take the same path.

use shapecheck_dsl::compiled::CompiledSpec;
use shapecheck_dsl::eval::{Evaluator, ExplicitHeap, Kleene};
use shapecheck_dsl::ir::{InvId, PredId, Spec};
use shapecheck_dsl::sem::{self, Sem3};

/// The data structures of a spec, for the engines.
pub trait Domain: Sync {
    /// The checked spec as data (formulas, structures, the lattice of generators).
    fn spec(&self) -> &Spec;
    /// How the spec reaches the engines, for reports (`compiled standard library`, ...).
    fn describe(&self) -> String;
    /// Whether invariant `inv`, its roles bound to `fields`, holds on `heap`.
    fn invariant(&self, inv: InvId, heap: &ExplicitHeap, fields: &[&str]) -> bool;
    /// The value of predicate `p` (roles bound to the field indices `roles`) on `args`
    /// through an engine's three-valued semantics `c`.
    fn predicate3(&self, p: PredId, c: &dyn Sem3, roles: &[usize], args: &[usize]) -> Kleene;
}

/// A spec compiled by `shapecheck_macros::spec!`.
pub struct Compiled {
    /// The generated tables (with the spec as data).
    pub tables: &'static CompiledSpec,
    /// A name for reports.
    pub name: &'static str,
}

impl Domain for Compiled {
    fn spec(&self) -> &Spec {
        (self.tables.spec)()
    }

    fn describe(&self) -> String {
        format!("{} (compiled)", self.name)
    }

    fn invariant(&self, inv: InvId, heap: &ExplicitHeap, fields: &[&str]) -> bool {
        (self.tables.invariants[inv.0].eval2)(heap, fields)
    }

    fn predicate3(&self, p: PredId, c: &dyn Sem3, roles: &[usize], args: &[usize]) -> Kleene {
        (self.tables.predicates[p.0].eval3)(c, roles, args)
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

    fn predicate3(&self, p: PredId, c: &dyn Sem3, roles: &[usize], args: &[usize]) -> Kleene {
        sem::predicate3(&self.spec, c, p, roles, args)
    }
}

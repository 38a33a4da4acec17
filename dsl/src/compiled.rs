//! The interface of compiled specs: what `shapecheck_macros::spec!` generates for a checked
//! Spec IR. Each predicate, invariant and structure becomes a zero-sized type implementing one
//! of the traits below (static dispatch, for engines generic over a domain), and the whole spec
//! becomes one [`CompiledSpec`] of tables of [`PredicateEntry`], [`InvariantEntry`] and
//! [`StructureEntry`] (dynamic lookup by name, e.g. for a predicate a refinement discovered).
//! Templates are data only: one [`TemplateEntry`] each, static rows and terms, equal to the
//! IR the interpreter's front end produces ([`TemplateEntry::to_ir`]).
//!
//! Compiled evaluators agree with the interpreter: `eval2` on an explicit heap is `true`
//! exactly when [`crate::eval::Evaluator`] answers [`Kleene::True`], and `eval3` makes the
//! calls [`crate::sem::formula3`] makes on any [`Sem3`], so it returns the same value.

use crate::eval::{ExplicitHeap, Kleene};
use crate::ir::{
    Generator, InvId, Invariant, Materialise, PathSensitivity, PredId, Predicate, Row, RowKind,
    Scope, Spec, StructId, Structure, Template,
};
use crate::sem::Sem3;

/// A compiled two-valued evaluator of a predicate: heap, fields bound to its roles, tracked
/// pointer, node arguments.
pub type PredEval2 = fn(&ExplicitHeap, &[&str], Option<&str>, &[usize]) -> bool;
/// A compiled three-valued evaluator of a predicate: the engine's semantics, field indices
/// bound to its roles, node arguments.
pub type PredEval3 = fn(&dyn Sem3, &[usize], &[usize]) -> Kleene;
/// A compiled two-valued evaluator of a closed formula (an invariant, a structure's
/// invariants): heap and fields bound to its roles.
pub type ClosedEval2 = fn(&ExplicitHeap, &[&str]) -> bool;
/// A compiled three-valued evaluator of a closed formula: the engine's semantics and the
/// field indices bound to its roles.
pub type ClosedEval3 = fn(&dyn Sem3, &[usize]) -> Kleene;

/// A compiled instrumentation predicate.
///
/// `eval2` and `eval3` panic when `fields` has fewer entries than [`Self::ROLES`] or `args`
/// does not have [`Self::ARITY`] entries.
pub trait CompiledPredicate {
    /// Its name in the spec.
    const NAME: &'static str;
    /// Its index in [`Spec::predicates`].
    const ID: PredId;
    /// Its role names, in order.
    const ROLES: &'static [&'static str];
    /// The name of its tracked-pointer parameter, if it has one.
    const POINTER: Option<&'static str>;
    /// Number of node parameters.
    const ARITY: usize;
    /// Its declaration as data (the defining formula), for SMT encodings, coerce and focus.
    fn decl() -> &'static Predicate;
    /// Its value on an explicit heap.
    fn eval2(heap: &ExplicitHeap, fields: &[&str], pointer: Option<&str>, args: &[usize]) -> bool;
    /// Its value through an engine's three-valued semantics (Kleene logic), with field
    /// indices bound to its roles (see [`crate::sem`]).
    fn eval3(c: &dyn Sem3, roles: &[usize], args: &[usize]) -> Kleene;
    /// Its row in [`CompiledSpec::predicates`].
    const ENTRY: PredicateEntry = PredicateEntry {
        name: Self::NAME,
        id: Self::ID,
        roles: Self::ROLES,
        pointer: Self::POINTER,
        arity: Self::ARITY,
        decl: Self::decl,
        eval2: Self::eval2,
        eval3: Self::eval3,
    };
}

/// A compiled explicit-heap invariant (a closed formula with roles).
///
/// `eval2` and `eval3` panic when `fields` has fewer entries than [`Self::ROLES`].
pub trait CompiledInvariant {
    /// Its name in the spec.
    const NAME: &'static str;
    /// Its index in [`Spec::invariants`].
    const ID: InvId;
    /// Its role names, in order.
    const ROLES: &'static [&'static str];
    /// Its declaration as data.
    fn decl() -> &'static Invariant;
    /// Its value on an explicit heap.
    fn eval2(heap: &ExplicitHeap, fields: &[&str]) -> bool;
    /// Its value through an engine's three-valued semantics.
    fn eval3(c: &dyn Sem3, roles: &[usize]) -> Kleene;
    /// Its row in [`CompiledSpec::invariants`].
    const ENTRY: InvariantEntry = InvariantEntry {
        name: Self::NAME,
        id: Self::ID,
        roles: Self::ROLES,
        decl: Self::decl,
        eval2: Self::eval2,
        eval3: Self::eval3,
    };
}

/// A compiled data structure: its invariants and its lattice of shape-class generators.
pub trait CompiledStructure {
    /// Its name in the spec.
    const NAME: &'static str;
    /// Its index in [`Spec::structures`].
    const ID: StructId;
    /// Its role names, in order.
    const ROLES: &'static [&'static str];
    /// Its family names, by family index.
    const FAMILIES: &'static [&'static str];
    /// Its generators as sets of family indices, coarsest first (the order of
    /// [`crate::lattice::generators`]).
    const GENERATORS: &'static [&'static [usize]];
    /// Its declaration as data.
    fn decl() -> &'static Structure;
    /// Whether an explicit heap satisfies all its invariants, roles bound to `fields`.
    fn invariants_hold(heap: &ExplicitHeap, fields: &[&str]) -> bool;
    /// The conjunction of its invariants through an engine's three-valued semantics.
    fn invariants3(c: &dyn Sem3, roles: &[usize]) -> Kleene;
    /// Its row in [`CompiledSpec::structures`].
    const ENTRY: StructureEntry = StructureEntry {
        name: Self::NAME,
        id: Self::ID,
        roles: Self::ROLES,
        families: Self::FAMILIES,
        generators: Self::GENERATORS,
        decl: Self::decl,
        invariants_hold: Self::invariants_hold,
        invariants3: Self::invariants3,
    };
}

/// A compiled predicate as a table row.
#[derive(Copy, Clone, Debug)]
pub struct PredicateEntry {
    /// Its name.
    pub name: &'static str,
    /// Its index in [`Spec::predicates`].
    pub id: PredId,
    /// Its role names.
    pub roles: &'static [&'static str],
    /// Its tracked-pointer parameter.
    pub pointer: Option<&'static str>,
    /// Number of node parameters.
    pub arity: usize,
    /// Its declaration as data.
    pub decl: fn() -> &'static Predicate,
    /// Two-valued evaluator.
    pub eval2: PredEval2,
    /// Three-valued evaluator.
    pub eval3: PredEval3,
}

/// A compiled invariant as a table row.
#[derive(Copy, Clone, Debug)]
pub struct InvariantEntry {
    /// Its name.
    pub name: &'static str,
    /// Its index in [`Spec::invariants`].
    pub id: InvId,
    /// Its role names.
    pub roles: &'static [&'static str],
    /// Its declaration as data.
    pub decl: fn() -> &'static Invariant,
    /// Two-valued evaluator.
    pub eval2: ClosedEval2,
    /// Three-valued evaluator.
    pub eval3: ClosedEval3,
}

/// A compiled structure as a table row.
#[derive(Copy, Clone, Debug)]
pub struct StructureEntry {
    /// Its name.
    pub name: &'static str,
    /// Its index in [`Spec::structures`].
    pub id: StructId,
    /// Its role names.
    pub roles: &'static [&'static str],
    /// Its family names.
    pub families: &'static [&'static str],
    /// Its generators as family-index sets, coarsest first.
    pub generators: &'static [&'static [usize]],
    /// Its declaration as data.
    pub decl: fn() -> &'static Structure,
    /// Whether an explicit heap satisfies all its invariants.
    pub invariants_hold: ClosedEval2,
    /// The conjunction of its invariants, three-valued.
    pub invariants3: ClosedEval3,
}

impl StructureEntry {
    /// Its generators as IR values, coarsest first.
    pub fn generators(&self) -> Vec<Generator> {
        self.generators
            .iter()
            .map(|families| Generator {
                structure: self.id,
                families: families.iter().copied().collect(),
            })
            .collect()
    }
}

/// A whole compiled spec: the IR as data and the tables of compiled items, each in IR order.
#[derive(Copy, Clone, Debug)]
pub struct CompiledSpec {
    /// The checked spec the tables were compiled from.
    pub spec: fn() -> &'static Spec,
    /// One row per predicate, in [`Spec::predicates`] order.
    pub predicates: &'static [PredicateEntry],
    /// One row per invariant, in [`Spec::invariants`] order.
    pub invariants: &'static [InvariantEntry],
    /// One row per structure, in [`Spec::structures`] order.
    pub structures: &'static [StructureEntry],
    /// One row per template, in [`Spec::templates`] order.
    pub templates: &'static [TemplateEntry],
}

impl CompiledSpec {
    /// The predicate named `name`.
    pub fn predicate(&self, name: &str) -> Option<&'static PredicateEntry> {
        self.predicates.iter().find(|e| e.name == name)
    }

    /// The invariant named `name`.
    pub fn invariant(&self, name: &str) -> Option<&'static InvariantEntry> {
        self.invariants.iter().find(|e| e.name == name)
    }

    /// The structure named `name`.
    pub fn structure(&self, name: &str) -> Option<&'static StructureEntry> {
        self.structures.iter().find(|e| e.name == name)
    }

    /// The template named `name`.
    pub fn template(&self, name: &str) -> Option<&'static TemplateEntry> {
        self.templates.iter().find(|e| e.name == name)
    }

    /// Every template merged into the engine's configuration ([`Template::merge`]); `None`
    /// without templates.
    pub fn template_config(&self) -> Option<Template> {
        let all: Vec<Template> = self.templates.iter().map(TemplateEntry::to_ir).collect();
        Template::merge(&all)
    }
}

/// A template as static data: what `spec!` generates for an [`ir::Template`](Template).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TemplateEntry {
    /// Its name.
    pub name: &'static str,
    /// The materialisation bound.
    pub objects: Materialise,
    /// The path sensitivity.
    pub paths: PathSensitivity,
    /// Its rows, in order.
    pub rows: &'static [RowEntry],
}

/// A template row as static data ([`Row`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RowEntry {
    /// What each instance states.
    pub kind: RowKindEntry,
    /// The scopes, distinct, `Vars` before `Fields`.
    pub over: &'static [Scope],
}

/// A row kind as static data ([`RowKind`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RowKindEntry {
    /// [`RowKind::PointsTo`].
    PointsTo,
    /// [`RowKind::Interval`].
    Interval,
    /// [`RowKind::Zone`].
    Zone,
    /// [`RowKind::Octagon`].
    Octagon,
    /// [`RowKind::Linear`]: (coefficient, name) terms.
    Linear(&'static [(i64, &'static str)]),
}

impl TemplateEntry {
    /// The template as IR (equal to what the front end produces from the same source).
    pub fn to_ir(&self) -> Template {
        Template {
            name: self.name.to_string(),
            objects: self.objects,
            paths: self.paths,
            rows: self.rows.iter().map(RowEntry::to_ir).collect(),
        }
    }
}

impl RowEntry {
    /// The row as IR.
    pub fn to_ir(&self) -> Row {
        let kind = match self.kind {
            RowKindEntry::PointsTo => RowKind::PointsTo,
            RowKindEntry::Interval => RowKind::Interval,
            RowKindEntry::Zone => RowKind::Zone,
            RowKindEntry::Octagon => RowKind::Octagon,
            RowKindEntry::Linear(terms) => {
                RowKind::Linear(terms.iter().map(|(c, n)| (*c, n.to_string())).collect())
            }
        };
        Row {
            kind,
            over: self.over.to_vec(),
        }
    }
}

//! The resolved Spec IR: what the checks (`crate::check`) produce from a well-formed spec, and
//! what both the interpreter (`crate::eval`) and the code generator (`shapecheck-macros`)
//! consume. Names are resolved to ids, roles to indices, variables to slots; every predicate
//! sits in a stratum after the predicates it uses. Collections are ordered (`Vec`, `BTreeMap`)
//! so that generated code is deterministic.

use std::collections::BTreeSet;

/// Index of a predicate in [`Spec::predicates`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredId(pub usize);

/// Index of an invariant in [`Spec::invariants`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InvId(pub usize);

/// Index of a structure in [`Spec::structures`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub usize);

/// A node variable: a slot in the evaluation environment of one predicate or invariant
/// (parameters first, then quantified variables in order of appearance).
pub type Var = usize;

/// A whole checked spec.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Spec {
    /// Instrumentation predicates, in stratification order (a predicate only uses earlier ones).
    pub predicates: Vec<Predicate>,
    /// Explicit-heap invariants.
    pub invariants: Vec<Invariant>,
    /// Data structures with their families; the refinement edges form the lattice.
    pub structures: Vec<Structure>,
}

/// An instrumentation predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predicate {
    /// Name.
    pub name: String,
    /// Role names, in order.
    pub roles: Vec<String>,
    /// Name of the tracked-pointer parameter, if the predicate has one.
    pub pointer: Option<String>,
    /// Number of node parameters (1 or 2); they are variables `0..arity`.
    pub arity: usize,
    /// Number of variable slots the body needs (parameters included).
    pub slots: usize,
    /// Parameter and bound variable names, by slot (for printing).
    pub var_names: Vec<String>,
    /// Defining formula.
    pub body: Formula,
}

/// A closed formula over an explicit heap, with roles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    /// Name.
    pub name: String,
    /// Role names, in order.
    pub roles: Vec<String>,
    /// Number of variable slots the body needs.
    pub slots: usize,
    /// Bound variable names, by slot.
    pub var_names: Vec<String>,
    /// The formula.
    pub body: Formula,
}

/// A binary relation that a closure can be taken of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    /// The field bound to a role of the enclosing declaration.
    Field(usize),
    /// A binary predicate applied to roles of the enclosing declaration.
    Pred(PredId, Vec<usize>),
}

/// A resolved formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// Truth.
    True,
    /// Falsity.
    False,
    /// Node equality.
    Eq(Var, Var),
    /// `f(v, w)`: the field bound to role `f` of node `v` points to node `w`.
    Field(usize, Var, Var),
    /// `x(v)`: the tracked pointer parameter points to `v`.
    Pointer(Var),
    /// `sm(v)`: `v` is a summary node.
    Summary(Var),
    /// A predicate applied to roles and nodes.
    Pred(PredId, Vec<usize>, Vec<Var>),
    /// `rel+(v, w)` (or `rel*` when reflexive).
    Closure {
        /// The relation.
        rel: Rel,
        /// `*` when true, `+` when false.
        reflexive: bool,
        /// Source node.
        from: Var,
        /// Target node.
        to: Var,
    },
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction.
    And(Box<Formula>, Box<Formula>),
    /// Disjunction.
    Or(Box<Formula>, Box<Formula>),
    /// Implication.
    Implies(Box<Formula>, Box<Formula>),
    /// Equivalence.
    Iff(Box<Formula>, Box<Formula>),
    /// `exists v. φ` with `v` a slot.
    Exists(Var, Box<Formula>),
    /// `forall v. φ`.
    Forall(Var, Box<Formula>),
}

/// A predicate applied to some of a structure's roles.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredUse {
    /// The predicate.
    pub pred: PredId,
    /// For each of the predicate's roles, the index of the structure's role bound to it.
    pub roles: Vec<usize>,
}

/// An invariant applied to a structure's roles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvUse {
    /// The invariant.
    pub inv: InvId,
    /// For each of the invariant's roles, the structure's role index.
    pub roles: Vec<usize>,
}

/// An instrumentation-predicate family of a structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// Name.
    pub name: String,
    /// Its predicates.
    pub preds: Vec<PredUse>,
    /// Indices of families (of the same structure) this one requires.
    pub requires: Vec<usize>,
    /// Whether its predicates are abstraction predicates.
    pub abstraction: bool,
}

/// `refines other[roles]`: this structure is finer than `other`, whose role `i` is bound to
/// our role `roles[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refinement {
    /// The coarser structure.
    pub coarser: StructId,
    /// Role mapping.
    pub roles: Vec<usize>,
}

/// A data structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structure {
    /// Name.
    pub name: String,
    /// Role names.
    pub roles: Vec<String>,
    /// Invariants an explicit heap must satisfy to enable it.
    pub invariants: Vec<InvUse>,
    /// Families of its finest generator.
    pub families: Vec<Family>,
    /// Structures it refines.
    pub refines: Vec<Refinement>,
}

/// A shape-class generator: a structure with a set of its families (closed under `requires`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Generator {
    /// The structure.
    pub structure: StructId,
    /// Enabled family indices.
    pub families: BTreeSet<usize>,
}

/// A tracking definition `(T, T_s, Φ)`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tracking {
    /// Tracked pointers.
    pub tracked: BTreeSet<String>,
    /// Separating pointers (a subset of the tracked ones).
    pub separating: BTreeSet<String>,
    /// Field assertions, as text (e.g. `data == 0`).
    pub assertions: BTreeSet<String>,
}

/// A predicate of a shape class, fully instantiated.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PredInstance {
    /// `sm`.
    Summary,
    /// `pt[x]`.
    PointsTo(String),
    /// `fd[φ]`.
    FieldAssertion(String),
    /// The binary predicate of a struct field.
    Field(String),
    /// An instrumentation predicate: name, fields bound to its roles, tracked pointer.
    Instr {
        /// Predicate name.
        name: String,
        /// Fields bound to its roles.
        fields: Vec<String>,
        /// The tracked pointer, for pointer-indexed predicates.
        pointer: Option<String>,
    },
}

/// A shape class `(P_core, P_instr, P_abs)`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ShapeClass {
    /// Core predicates.
    pub core: BTreeSet<PredInstance>,
    /// Instrumentation predicates.
    pub instr: BTreeSet<PredInstance>,
    /// Abstraction predicates.
    pub abs: BTreeSet<PredInstance>,
}

impl ShapeClass {
    /// `self ⪯ other`: every predicate of `other` is in `self` (finer means more predicates).
    pub fn refines(&self, other: &ShapeClass) -> bool {
        other.core.is_subset(&self.core)
            && other.instr.is_subset(&self.instr)
            && other.abs.is_subset(&self.abs)
    }

    /// Number of predicates (the cost measure of FineTune's tie-break).
    pub fn size(&self) -> usize {
        self.core.len() + self.instr.len()
    }
}

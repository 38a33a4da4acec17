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
    /// Templates of seed 002's template engine, in source order; the engine uses them merged
    /// ([`Spec::template_config`]).
    pub templates: Vec<Template>,
    /// Predicate families of seed 003's PDR (and the families contracts may name), in source
    /// order (a family's body only names earlier families).
    pub families: Vec<PredFamily>,
    /// Contracts of C functions (seeds 003 and 004), in source order.
    pub contracts: Vec<Contract>,
    /// List domains of seed 001's separation-logic engine, in source order (the order the
    /// engine tries them in).
    pub spatial: Vec<Spatial>,
}

impl Spec {
    /// The configuration seed 002's template engine runs with: every template of the spec
    /// merged by [`Template::merge`]; `None` when the spec declares no template.
    pub fn template_config(&self) -> Option<Template> {
        Template::merge(&self.templates)
    }

    /// The predicate family `name`, if the spec declares one.
    pub fn family(&self, name: &str) -> Option<&PredFamily> {
        self.families.iter().find(|f| f.name == name)
    }

    /// The contract of the C function `name`, if the spec has one.
    pub fn contract(&self, name: &str) -> Option<&Contract> {
        self.contracts.iter().find(|c| c.function == name)
    }
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

// ---------------------------------------------------------------- templates (seed 002)

/// A template of seed 002's template-based invariant synthesis (`template NAME { ... }`): the
/// rows instantiated at every loop head, conjoined (a product), each guarded by its row guard
/// and split per symbolic path (a power domain). See `docs/spec-language.md`, "Templates".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Template {
    /// Name.
    pub name: String,
    /// How many abstract objects each allocation site is materialised into.
    pub objects: Materialise,
    /// Which guards split the rows into symbolic paths.
    pub paths: PathSensitivity,
    /// The rows, in source order, no two with the same kind and an overlapping scope.
    pub rows: Vec<Row>,
}

/// The materialisation bound `n_i` of every allocation site.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Materialise {
    /// `objects auto;`: computed per site by the may-alias pre-pass.
    Auto,
    /// `objects N;`: `N` abstract objects per site, `1..=`[`Template::MAX_OBJECTS`].
    Fixed(u32),
}

/// The symbolic paths a template's rows are split by (one parameter vector per path, the
/// all-negative path excluded). Ordered by precision: `None < Loops < Branches`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathSensitivity {
    /// `paths none;`: one parameter vector (rows guarded only).
    None,
    /// `paths loops;`: paths over the loop-select guards (the paper's power domain).
    Loops,
    /// `paths branches;`: paths over the loop-select and the branch guards.
    Branches,
}

/// `row KIND over SCOPES;`: one row kind instantiated over the terms its scopes select.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// What each instance of the row states.
    pub kind: RowKind,
    /// The term classes it ranges over: distinct, in the order `Vars`, `Fields`.
    pub over: Vec<Scope>,
}

/// The kinds of rows; each is instantiated with a parameter the synthesis finds (`d`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// `p == a1 || ... || p == ak` for each pointer term `p`, parameter `{a1, ..., ak}`, a set
    /// of addresses (objects and `null`); join is union.
    PointsTo,
    /// `x <= d1 && -x <= d2` for each numeric term `x`.
    Interval,
    /// `x - y <= d` for each ordered pair of distinct numeric terms.
    Zone,
    /// `±x ± y <= d` (four rows) for each pair of distinct numeric terms.
    Octagon,
    /// `c1*x1 + ... + cn*xn <= d`: the terms as (coefficient, name), in source order, each
    /// coefficient non-zero and within ±[`Template::MAX_COEFFICIENT`], each name once. The
    /// names are program variables (over `vars`) or fields of one abstract object (over
    /// `fields`).
    Linear(Vec<(i64, String)>),
}

/// A class of terms rows range over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// `vars`: the loop-back program variables (`x^lb`), pointer or numeric by row kind.
    Vars,
    /// `fields`: the fields of the abstract objects (`ao.f^lb`), pointer or numeric by row kind.
    Fields,
}

impl RowKind {
    /// The row kind's name in the source (`linear` for linear rows).
    pub fn name(&self) -> &'static str {
        match self {
            RowKind::PointsTo => "pointsto",
            RowKind::Interval => "interval",
            RowKind::Zone => "zone",
            RowKind::Octagon => "octagon",
            RowKind::Linear(_) => "linear",
        }
    }

    /// Whether `self` and `other` state the same thing: equal, linear terms compared as a
    /// set (`linear(a - b)` is `linear(-b + a)`).
    pub fn same(&self, other: &RowKind) -> bool {
        match (self, other) {
            (RowKind::Linear(a), RowKind::Linear(b)) => {
                let sorted = |t: &[(i64, String)]| {
                    let mut t = t.to_vec();
                    t.sort_by(|x, y| x.1.cmp(&y.1));
                    t
                };
                sorted(a) == sorted(b)
            }
            (a, b) => a == b,
        }
    }
}

impl Scope {
    /// The scope's name in the source.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Vars => "vars",
            Scope::Fields => "fields",
        }
    }
}

impl Materialise {
    /// `auto` or the bound, as in the source.
    pub fn text(self) -> String {
        match self {
            Materialise::Auto => "auto".into(),
            Materialise::Fixed(n) => n.to_string(),
        }
    }
}

impl PathSensitivity {
    /// The mode's name in the source.
    pub fn name(self) -> &'static str {
        match self {
            PathSensitivity::None => "none",
            PathSensitivity::Loops => "loops",
            PathSensitivity::Branches => "branches",
        }
    }
}

impl Template {
    /// The largest materialisation bound `objects` accepts.
    pub const MAX_OBJECTS: u32 = 8;
    /// The largest absolute value of a coefficient of a `linear` row.
    pub const MAX_COEFFICIENT: i64 = 65536;
    /// `objects` when a template does not say.
    pub const DEFAULT_OBJECTS: Materialise = Materialise::Auto;
    /// `paths` when a template does not say.
    pub const DEFAULT_PATHS: PathSensitivity = PathSensitivity::Loops;

    /// Several templates merged into the one configuration the engine runs with; `None` for
    /// no template.
    ///
    /// - `name`: the names joined by `+`, in order;
    /// - `objects`: the largest fixed bound if any template fixes one, else `Auto`;
    /// - `paths`: the most precise mode (`Branches` over `Loops` over `None`);
    /// - `rows`: one row per distinct kind ([`RowKind::same`]), in order of first appearance,
    ///   over the union of the scopes of every row of that kind, so that no term gets the same
    ///   row twice.
    pub fn merge<'a>(templates: impl IntoIterator<Item = &'a Template>) -> Option<Template> {
        let mut all = templates.into_iter();
        let first = all.next()?;
        let mut m = Template {
            name: first.name.clone(),
            objects: first.objects,
            paths: first.paths,
            rows: vec![],
        };
        m.add_rows(&first.rows);
        for t in all {
            m.name = format!("{}+{}", m.name, t.name);
            m.objects = match (m.objects, t.objects) {
                (Materialise::Fixed(a), Materialise::Fixed(b)) => Materialise::Fixed(a.max(b)),
                (Materialise::Fixed(a), Materialise::Auto)
                | (Materialise::Auto, Materialise::Fixed(a)) => Materialise::Fixed(a),
                (Materialise::Auto, Materialise::Auto) => Materialise::Auto,
            };
            m.paths = m.paths.max(t.paths);
            m.add_rows(&t.rows);
        }
        Some(m)
    }

    /// Adds `rows`, merging each into the row of the same kind if there is one.
    fn add_rows(&mut self, rows: &[Row]) {
        for r in rows {
            match self.rows.iter_mut().find(|m| m.kind.same(&r.kind)) {
                Some(m) => {
                    m.over.extend(r.over.iter().copied());
                    m.over.sort();
                    m.over.dedup();
                }
                None => self.rows.push(r.clone()),
            }
        }
    }
}

// ---------------------------------------------------------------- contracts (seeds 003, 004)

/// A contract of a C function: its pre- and postcondition in the reachability logic AF^R,
/// checked to be alternation-free. See `docs/spec-language.md`, "Contracts".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// The C function.
    pub function: String,
    /// Its parameters, in order. In `ensures` a parameter stands for its value at entry.
    pub params: Vec<String>,
    /// Logical constants, arbitrary but fixed across the call.
    pub ghosts: Vec<String>,
    /// The C globals the contract reads (current values in each condition).
    pub globals: Vec<String>,
    /// The tree backbones it declares: a name and the pointer fields whose union it follows
    /// (the heap along them is a forest); a path atom may name a backbone like a field.
    pub backbones: Vec<(String, Vec<String>)>,
    /// The precondition's conjuncts.
    pub requires: Vec<Assertion>,
    /// The postcondition's conjuncts.
    pub ensures: Vec<Assertion>,
}

/// A term of a contract.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CTerm {
    /// The null pointer.
    Null,
    /// The function's return value (postconditions only).
    Result,
    /// A parameter, ghost or global, by name.
    Name(String),
    /// A bound node variable, by name (names are never shadowed).
    Bound(String),
}

/// A predicate family of seed 003 (`family ls[f](x, y?) := φ;`): a name, field roles,
/// node parameters and a defining universal AF^R formula over them. PDR instantiates every
/// enabled family over the pointer variables live at a cut point (and `null` for a parameter
/// marked `?`), with distinct fields for distinct roles and distinct nodes for distinct
/// parameters; contracts name instances such as `ls[n](h, null)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredFamily {
    /// Name.
    pub name: String,
    /// Field roles, in order (at least one).
    pub fields: Vec<String>,
    /// Node parameters, in order, with whether each may also be `null` when instantiated.
    pub params: Vec<(String, bool)>,
    /// The configuration that first enables the family (1: the first one PDR tries; a
    /// higher level joins after an abstraction failure at the levels below).
    pub level: u32,
    /// Whether the definition compares data (`dle`, itself or through a family it names):
    /// the transition system must then model the data order.
    pub orders_data: bool,
    /// The definition: `Name` terms are the parameters, `Path` fields the roles.
    pub body: Assertion,
}

/// The steps of a contract's path atom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathKind {
    /// `f(t, u)`: exactly one step.
    Edge,
    /// `f+(t, u)`: one step or more.
    Plus,
    /// `f*(t, u)`: any number of steps.
    Star,
}

/// A formula of a contract (AF^R over C pointer fields).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Assertion {
    /// `true` / `false`.
    Const(bool),
    /// `t == u`.
    Eq(CTerm, CTerm),
    /// `f(t, u)` (`t->f == u`, no closure), `f+(t, u)` or `f*(t, u)` along the pointer field
    /// `f`.
    Path {
        /// The C field.
        field: String,
        /// One step, `+` or `*`.
        kind: PathKind,
        /// Source.
        from: CTerm,
        /// Target.
        to: CTerm,
    },
    /// `alloc(t)`: allocated and not freed.
    Alloc(CTerm),
    /// `dle(t, u)`: the data of `t` is at most that of `u`.
    Dle(CTerm, CTerm),
    /// A family instance such as `ls[n](h, null)` (of a [`PredFamily`] of the spec).
    Family {
        /// The family.
        name: String,
        /// Its field roles.
        fields: Vec<String>,
        /// Its node arguments.
        args: Vec<CTerm>,
    },
    /// Negation.
    Not(Box<Assertion>),
    /// Conjunction.
    And(Box<Assertion>, Box<Assertion>),
    /// Disjunction.
    Or(Box<Assertion>, Box<Assertion>),
    /// Implication.
    Implies(Box<Assertion>, Box<Assertion>),
    /// Equivalence.
    Iff(Box<Assertion>, Box<Assertion>),
    /// Universal quantification over nodes.
    Forall(Vec<String>, Box<Assertion>),
    /// Existential quantification over nodes.
    Exists(Vec<String>, Box<Assertion>),
}

impl Assertion {
    /// Visits the formula and each of its subformulas, outermost first.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Assertion)) {
        f(self);
        match self {
            Assertion::Not(x) | Assertion::Forall(_, x) | Assertion::Exists(_, x) => x.walk(f),
            Assertion::And(x, y)
            | Assertion::Or(x, y)
            | Assertion::Implies(x, y)
            | Assertion::Iff(x, y) => {
                x.walk(f);
                y.walk(f);
            }
            _ => {}
        }
    }

    /// Whether it compares data: `dle`, or an instance of one of `families` that does.
    pub fn orders_data(&self, families: &[PredFamily]) -> bool {
        let mut found = false;
        self.walk(&mut |x| {
            found |= match x {
                Assertion::Dle(..) => true,
                Assertion::Family { name, .. } => {
                    (families.iter()).any(|f| &f.name == name && f.orders_data)
                }
                _ => false,
            }
        });
        found
    }

    /// The terms of its atoms, in order.
    pub fn terms(&self) -> Vec<&CTerm> {
        let mut out = vec![];
        self.walk(&mut |a| match a {
            Assertion::Eq(x, y) | Assertion::Dle(x, y) => out.extend([x, y]),
            Assertion::Path { from, to, .. } => out.extend([from, to]),
            Assertion::Alloc(x) => out.push(x),
            Assertion::Family { args, .. } => out.extend(args),
            _ => {}
        });
        out
    }
}

// ---------------------------------------------------------------- spatial domains (seed 001)

/// A list domain of seed 001's separation-logic engine (`spatial NAME { ... }`): a list
/// predicate with typed parameters and its recursive definition, the lemmas the entailment
/// procedure may use, the abstraction rules and the kinds of symbols the refinement parameter
/// `T` may hold. See `docs/spec-language.md`, "Spatial domains".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spatial {
    /// Name.
    pub name: String,
    /// `symbols values, addresses;`: what SelectSymbols may add to `T`, distinct, in the order
    /// `Values`, `Addresses`.
    pub symbols: Vec<SymbolKind>,
    /// The list predicate, with the fold and unfold rules its definition gives.
    pub list: ListPredicate,
    /// The lemmas, in source order.
    pub lemmas: Vec<Lemma>,
    /// The abstraction rules, in source order (at least one).
    pub rules: Vec<AbstractionRule>,
}

/// The kinds of symbols the refinement parameter `T` may hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// `values`: data values (program variables and constants compared with list data).
    Values,
    /// `addresses`: addresses of cells an abstraction rule must not absorb.
    Addresses,
}

/// `list NAME(x, y; P: kind, ...) := base | step;`: a list segment from `x` to `y` and the
/// parameters its recursive definition relates cell by cell. The definition was checked to be
/// the two cases the engine's fold and unfold rules implement: the empty segment (`x == y`
/// with each parameter's base law) and a first cell `x |-> (z, d)` followed by the segment
/// from `z` (with each parameter's step law).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ListPredicate {
    /// Name.
    pub name: String,
    /// Parameters, in source order, distinct names, at most one of each kind.
    pub params: Vec<ListParam>,
}

/// A parameter of a list predicate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ListParam {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: ParamKind,
}

/// The parameter kinds, each with the laws of its definition (`d` the first cell's data
/// value, `P1` the parameter of the rest of the segment).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamKind {
    /// `multiset`: values at least that many cells hold (SH^mls). Base `P == {}`, step
    /// `P <= P1 + {d}`.
    Multiset,
    /// `counts`: upper bounds on how many cells hold each symbol of `T` (zero: absent). No
    /// base law, step `P >= P1 + {d}`.
    Counts,
    /// `interval`: the values do not decrease along the links, the first is `lo(P)` and none
    /// exceeds `hi(P)` (SH^sls). No base law, step
    /// `lo(P) == d && d <= lo(P1) && hi(P1) == hi(P)`.
    Interval,
    /// `length(N)`: at least `P` cells, counted up to `N` (`1..=`[`ParamKind::MAX_LENGTH`]).
    /// Base `P == 0`, step `P <= P1 + 1`.
    Length(u32),
}

impl ParamKind {
    /// The largest count a `length` parameter keeps.
    pub const MAX_LENGTH: u32 = 8;

    /// The kind's name in the source.
    pub fn name(self) -> &'static str {
        match self {
            ParamKind::Multiset => "multiset",
            ParamKind::Counts => "counts",
            ParamKind::Interval => "interval",
            ParamKind::Length(_) => "length",
        }
    }
}

impl SymbolKind {
    /// The kind's name in the source.
    pub fn name(self) -> &'static str {
        match self {
            SymbolKind::Values => "values",
            SymbolKind::Addresses => "addresses",
        }
    }
}

/// A lemma the entailment procedure may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lemma {
    /// `lemma ls(x, y; P1...) * ls(y, z; P2...) -> ls(x, z; P1 + P2...);`: two segments in a
    /// row entail one, their parameters composed by each kind's composition law (`S1 + S2`
    /// for multisets, counts and lengths, `[lo(I1), hi(I2)]` for intervals when
    /// `hi(I1) <= lo(I2)`). Without it, entailment matches a goal segment against one piece.
    Compose,
}

/// `abstract NAME: A * B -> ls(x, z) when ...;`: two spatial conjuncts linked through an
/// existential `y` folded into one segment, parameters composed as in [`Lemma::Compose`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AbstractionRule {
    /// Name.
    pub name: String,
    /// The first conjunct (at `x`, pointing to `y`).
    pub first: Piece,
    /// The second conjunct (at `y`, pointing to `z`).
    pub second: Piece,
    /// Whether the rule may not fire when `x` is equal to an address of `T`
    /// (`when x !in T`, the guard of SH^rls).
    pub untracked: bool,
    /// Whether the rule folds only cells whose values provably differ from every symbol of
    /// `T` (`when d !in T` for the value `d` of each cell it folds): a cell holding a kept
    /// value stays a cell, with its other fields.
    pub distinct: bool,
}

/// A spatial conjunct on the left of an abstraction rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// `x |-> (y, d)`: a cell.
    Cell,
    /// `ls(x, y)`: a segment of the domain's list predicate.
    List,
}

impl Spatial {
    /// The parameter of kind `kind` (compared by name, so any `length` bound matches a
    /// `Length`), if the list predicate has one.
    pub fn param(&self, kind: ParamKind) -> Option<&ListParam> {
        self.list
            .params
            .iter()
            .find(|p| p.kind.name() == kind.name())
    }

    /// Whether `T` may hold symbols of kind `k`.
    pub fn has_symbols(&self, k: SymbolKind) -> bool {
        self.symbols.contains(&k)
    }

    /// Whether the entailment procedure may compose segments.
    pub fn composes(&self) -> bool {
        self.lemmas.contains(&Lemma::Compose)
    }

    /// The rule folding `first * second`, if the domain has one.
    pub fn rule(&self, first: Piece, second: Piece) -> Option<&AbstractionRule> {
        self.rules
            .iter()
            .find(|r| r.first == first && r.second == second)
    }
}

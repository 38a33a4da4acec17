//! The abstract syntax of `.shape` files, as the parser produces it: every node carries the
//! byte span of its source text. The semantic checks (`crate::check`) consume it and produce
//! the resolved Spec IR (`crate::ir`); the printer (`crate::print`) turns it back into text.

/// A byte range in one source file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// Start offset (inclusive).
    pub start: usize,
    /// End offset (exclusive).
    pub end: usize,
}

/// A name with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A whole `.shape` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Declarations in source order.
    pub items: Vec<Item>,
}

/// One top-level declaration; each kind is its own section of the language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `predicate name[roles]<x>(v, ...) := formula;`
    Predicate(PredicateDecl),
    /// `invariant name[roles] := formula;`
    Invariant(InvariantDecl),
    /// `structure name[roles] refines ... { ... }`
    Structure(StructureDecl),
    /// `template name { objects ...; paths ...; row ...; }` (see [`crate::template`])
    Template(TemplateDecl),
    /// `contract f(x, ...) { ghost ...; global ...; requires ...; ensures ...; }` (see
    /// [`crate::contract`])
    Contract(ContractDecl),
    /// `spatial name { symbols ...; list ...; lemma ...; abstract ...; }` (see
    /// [`crate::spatial`])
    Spatial(SpatialDecl),
    /// `family name[roles](x, y?) level k := formula;`: a predicate family of seed 003's PDR
    /// (see [`crate::family`])
    PredFamily(PredFamilyDecl),
}

/// An instrumentation predicate, parameterised by field roles and optionally by one tracked
/// pointer (instantiated once per pointer of the tracking definition).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateDecl {
    /// Name.
    pub name: Ident,
    /// Field roles, e.g. `[f, b]`.
    pub roles: Vec<Ident>,
    /// The tracked-pointer parameter, e.g. `<x>`.
    pub pointer: Option<Ident>,
    /// Node parameters: one (unary) or two (binary).
    pub params: Vec<Ident>,
    /// Defining formula.
    pub body: Formula,
    /// The whole declaration.
    pub span: Span,
}

/// A data-structure invariant, evaluated on explicit heaps (a closed formula).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantDecl {
    /// Name.
    pub name: Ident,
    /// Field roles.
    pub roles: Vec<Ident>,
    /// The formula; quantifiers range over the nodes reachable from the sample's root.
    pub body: Formula,
    /// The whole declaration.
    pub span: Span,
}

/// A predicate, invariant or structure applied to roles: `cancel[f, b]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// What is applied.
    pub name: Ident,
    /// The role arguments.
    pub roles: Vec<Ident>,
    /// The whole instance.
    pub span: Span,
}

/// A data structure: its roles, invariants, and the predicate families of its finest
/// shape-class generator; coarser generators are the subsets of families closed under
/// `requires`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureDecl {
    /// Name.
    pub name: Ident,
    /// Field roles.
    pub roles: Vec<Ident>,
    /// Coarser structures this one refines, with their roles mapped to ours.
    pub refines: Vec<Instance>,
    /// Invariants that explicit-heap samples must satisfy to enable the structure.
    pub invariants: Vec<Instance>,
    /// Instrumentation-predicate families.
    pub families: Vec<FamilyDecl>,
    /// Families whose predicates are abstraction predicates (besides those of separating
    /// pointers, which always are).
    pub abstracts: Vec<Ident>,
    /// The whole declaration.
    pub span: Span,
}

/// `family name = p[roles], ... requires other, ...;`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyDecl {
    /// Name.
    pub name: Ident,
    /// Its predicates.
    pub preds: Vec<Instance>,
    /// Families that must be enabled whenever this one is.
    pub requires: Vec<Ident>,
    /// The whole declaration.
    pub span: Span,
}

/// A template of seed 002's template engine: the rows its invariant synthesis instantiates,
/// the materialisation bound and the path sensitivity. Members are grouped by kind, each in
/// source order (the printer writes `objects`, then `paths`, then the rows); `objects` and
/// `paths` are vectors so that the checks can report one given twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateDecl {
    /// Name.
    pub name: Ident,
    /// `objects auto;` / `objects 2;` members.
    pub objects: Vec<ObjectsDecl>,
    /// `paths loops;` members.
    pub paths: Vec<PathsDecl>,
    /// `row ... over ...;` members.
    pub rows: Vec<RowDecl>,
    /// The whole declaration.
    pub span: Span,
}

/// A number as written (its digits), so that the checks can report one out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number {
    /// The decimal digits.
    pub digits: String,
    /// Where they are written.
    pub span: Span,
}

/// The value of `objects`: a number, or a name (`auto`; any other name is an error of the
/// checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundDecl {
    /// `objects 3;`
    Number(Number),
    /// `objects auto;`
    Name(Ident),
}

/// `objects BOUND;`: the materialisation bound per allocation site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectsDecl {
    /// The `objects` keyword.
    pub keyword: Span,
    /// Its value.
    pub bound: BoundDecl,
    /// The whole member.
    pub span: Span,
}

/// `paths MODE;`: the symbolic paths rows are split by (`none`, `loops`, `branches`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathsDecl {
    /// The `paths` keyword.
    pub keyword: Span,
    /// The mode, as a name (checked).
    pub mode: Ident,
    /// The whole member.
    pub span: Span,
}

/// `row KIND(EXPR)? over SCOPE, ...;`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowDecl {
    /// The row kind, as a name (`pointsto`, `interval`, `zone`, `octagon`, `linear`; checked).
    pub kind: Ident,
    /// The parenthesised linear expression (of `linear`), if written.
    pub expr: Option<LinExprDecl>,
    /// The scopes after `over` (`vars`, `fields`; checked).
    pub over: Vec<Ident>,
    /// The whole member.
    pub span: Span,
}

/// `(2*a + b - c)`: a sum of terms, possibly empty (an error of the checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinExprDecl {
    /// The terms, in order.
    pub terms: Vec<TermDecl>,
    /// The expression with its parentheses.
    pub span: Span,
}

/// One term of a linear expression: a sign, an optional coefficient `k*`, a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermDecl {
    /// Preceded by `-`.
    pub negative: bool,
    /// The coefficient's digits, when written (`2` of `2*a`).
    pub coef: Option<Number>,
    /// The field or variable.
    pub name: Ident,
    /// The term with its sign.
    pub span: Span,
}

/// A contract of the C function `name`: its parameters, the logical constants it names
/// (`ghost`, fixed across the call), the C globals it reads (`global`), and the pre- and
/// postconditions (each a conjunct) in the reachability logic AF^R.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractDecl {
    /// The C function.
    pub name: Ident,
    /// Its parameters, in order.
    pub params: Vec<Ident>,
    /// `ghost a, b;`: logical constants, arbitrary but fixed across the call.
    pub ghosts: Vec<Ident>,
    /// `global g;`: C globals the contract reads.
    pub globals: Vec<Ident>,
    /// `backbone t[left, right];`: a tree backbone over pointer fields, whose paths `t*`
    /// and `t+` the conditions may follow.
    pub backbones: Vec<(Ident, Vec<Ident>)>,
    /// `requires φ;`, in order.
    pub requires: Vec<Formula>,
    /// `ensures φ;`, in order.
    pub ensures: Vec<Formula>,
    /// The whole declaration.
    pub span: Span,
}

/// A predicate family of seed 003 (`family ls[f](x, y?) level 1 := φ;`): field roles, node
/// parameters (a `?` lets one range over `null` too), the configuration level that enables it
/// and its defining formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredFamilyDecl {
    /// Name.
    pub name: Ident,
    /// Field roles, e.g. `[f, b]`.
    pub roles: Vec<Ident>,
    /// Node parameters, each with whether it carries `?`.
    pub params: Vec<(Ident, bool)>,
    /// `level k`, if given (1 when not).
    pub level: Option<Number>,
    /// The defining formula.
    pub body: Formula,
    /// The whole declaration.
    pub span: Span,
}

/// A list domain of seed 001's separation-logic engine: the kinds of symbols its refinement
/// may track, a list predicate with its recursive definition, its lemmas and its abstraction
/// rules. Members are grouped by kind, each in source order (the printer writes `symbols`, the
/// list, the lemmas, then the rules); `symbols` and `lists` are vectors so that the checks can
/// report one missing or given twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpatialDecl {
    /// Name.
    pub name: Ident,
    /// `symbols values, addresses;` members.
    pub symbols: Vec<SymbolsDecl>,
    /// `list ls(x, y; ...) := ... | ...;` members.
    pub lists: Vec<ListDecl>,
    /// `lemma ... -> ...;` members.
    pub lemmas: Vec<LemmaDecl>,
    /// `abstract NAME: ... -> ... when ...;` members.
    pub rules: Vec<RuleDecl>,
    /// The whole declaration.
    pub span: Span,
}

/// `symbols KIND, ...;`: the kinds of symbols the refinement parameter `T` may hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolsDecl {
    /// The `symbols` keyword.
    pub keyword: Span,
    /// The kinds, as names (`values`, `addresses`; checked).
    pub kinds: Vec<Ident>,
    /// The whole member.
    pub span: Span,
}

/// `list NAME(x, y; P: kind, ...) := BASE | STEP;`: the list predicate and its definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListDecl {
    /// The `list` keyword.
    pub keyword: Span,
    /// The predicate's name.
    pub name: Ident,
    /// The first location parameter (`x`, where the segment starts).
    pub from: Ident,
    /// The second location parameter (`y`, where the segment ends).
    pub to: Ident,
    /// The typed parameters after `;`, in order.
    pub params: Vec<ListParamDecl>,
    /// The empty case.
    pub base: BaseDecl,
    /// The first-cell case.
    pub step: StepDecl,
    /// The whole member.
    pub span: Span,
}

/// `P: kind` or `P: kind(N)`: a typed parameter of a list predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListParamDecl {
    /// Name.
    pub name: Ident,
    /// The kind, as a name (`multiset`, `counts`, `interval`, `length`; checked).
    pub kind: Ident,
    /// The bound in parentheses (of `length`), if written.
    pub bound: Option<Number>,
    /// The whole parameter.
    pub span: Span,
}

/// `x == y && LAW && ...`: the base case of a list predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseDecl {
    /// The left side of the location equality.
    pub left: Ident,
    /// Its right side.
    pub right: Ident,
    /// The laws after it, in order.
    pub laws: Vec<LawDecl>,
    /// The whole case.
    pub span: Span,
}

/// `x |-> (z, d) * P(z, y; P1, ...) && LAW && ...`: the step case of a list predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepDecl {
    /// The first cell.
    pub cell: CellDecl,
    /// The rest of the segment (the recursive call).
    pub rest: SegmentDecl,
    /// The laws after it, in order.
    pub laws: Vec<LawDecl>,
    /// The whole case.
    pub span: Span,
}

/// `a |-> (b, c)`: a cell at `a` whose link is `b` and data `c`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellDecl {
    /// The cell's address.
    pub at: Ident,
    /// Its link.
    pub next: Ident,
    /// Its data value.
    pub data: Ident,
    /// The whole cell.
    pub span: Span,
}

/// `P(a, b)` or `P(a, b; t, ...)`: a segment of a list predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentDecl {
    /// The predicate.
    pub pred: Ident,
    /// Where it starts.
    pub from: Ident,
    /// Where it ends.
    pub to: Ident,
    /// The parameters after `;` (none when there is no `;`).
    pub args: Vec<PureTerm>,
    /// The whole segment.
    pub span: Span,
}

/// A spatial conjunct of a lemma or a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceDecl {
    /// `a |-> (b, c)`
    Cell(CellDecl),
    /// `P(a, b; ...)`
    Segment(SegmentDecl),
}

impl PieceDecl {
    /// Where the piece is written.
    pub fn span(&self) -> Span {
        match self {
            PieceDecl::Cell(c) => c.span,
            PieceDecl::Segment(s) => s.span,
        }
    }
}

/// `A * B * ...`: one side of a lemma or a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideDecl {
    /// The pieces, in order.
    pub pieces: Vec<PieceDecl>,
    /// The whole side.
    pub span: Span,
}

/// `lemma LEFT -> RIGHT;`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LemmaDecl {
    /// The `lemma` keyword.
    pub keyword: Span,
    /// What it assumes.
    pub left: SideDecl,
    /// What it concludes.
    pub right: SideDecl,
    /// The whole member.
    pub span: Span,
}

/// `abstract NAME: LEFT -> RIGHT when CONDITION, ...;`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDecl {
    /// Name.
    pub name: Ident,
    /// The pieces it folds.
    pub left: SideDecl,
    /// What it folds them into.
    pub right: SideDecl,
    /// The conditions after `when` (none without `when`).
    pub conditions: Vec<ConditionDecl>,
    /// The whole member.
    pub span: Span,
}

/// A side condition of an abstraction rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionDecl {
    /// Its form.
    pub kind: ConditionKind,
    /// Where it is written.
    pub span: Span,
}

/// The forms of a side condition (which ones are known is checked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionKind {
    /// `f(a)`, such as `fresh(y)`.
    Apply {
        /// The function.
        func: Ident,
        /// Its argument.
        arg: Ident,
    },
    /// `a !in S`, such as `x !in T`.
    NotIn {
        /// The element.
        elem: Ident,
        /// The set.
        set: Ident,
    },
}

/// `LEFT OP RIGHT`: a conjunct of a list predicate's definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LawDecl {
    /// Left side.
    pub left: PureTerm,
    /// The comparison.
    pub op: LawOp,
    /// Right side.
    pub right: PureTerm,
    /// The whole conjunct.
    pub span: Span,
}

/// The comparisons of laws.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LawOp {
    /// `==`
    Eq,
    /// `<=`
    Le,
    /// `>=`
    Ge,
}

impl LawOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            LawOp::Eq => "==",
            LawOp::Le => "<=",
            LawOp::Ge => ">=",
        }
    }
}

/// `a + b ++ c`: atoms joined by `+` or `++`, flat (terms have no parentheses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PureTerm {
    /// The first atom.
    pub first: PureAtom,
    /// The others, each with the operator before it.
    pub rest: Vec<(PureOp, PureAtom)>,
    /// The whole term.
    pub span: Span,
}

/// The operators of pure terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PureOp {
    /// `+`: multiset union, count or length addition.
    Plus,
    /// `++`: interval concatenation.
    Concat,
}

impl PureOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            PureOp::Plus => "+",
            PureOp::Concat => "++",
        }
    }
}

/// An atom of a pure term with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PureAtom {
    /// Its form.
    pub kind: PureAtomKind,
    /// Where it is written.
    pub span: Span,
}

/// The forms of an atom of a pure term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PureAtomKind {
    /// A parameter, data value or location.
    Name(Ident),
    /// `0`, `1`.
    Number(Number),
    /// `{}` (`None`) or `{d}`.
    Set(Option<Ident>),
    /// `lo(I)`, `hi(I)`.
    Apply {
        /// The function.
        func: Ident,
        /// Its argument.
        arg: Ident,
    },
}

/// A formula with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formula {
    /// The connective or atom.
    pub kind: FormulaKind,
    /// Where it is written.
    pub span: Span,
}

/// Quantifiers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `forall`
    Forall,
    /// `exists`
    Exists,
}

/// Closure operators on binary relations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Closure {
    /// `f+`: transitive closure.
    Plus,
    /// `f*`: reflexive-transitive closure.
    Star,
}

/// The forms of a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormulaKind {
    /// `true`
    True,
    /// `false`
    False,
    /// `v == w` (`equal`) or `v != w`.
    Eq {
        /// Left variable.
        left: Ident,
        /// Right variable.
        right: Ident,
        /// `==` when true.
        equal: bool,
    },
    /// `name[roles]closure(args)`: a field role, the tracked pointer, `sm`, or a predicate.
    Atom {
        /// What is applied.
        name: Ident,
        /// Role arguments (predicates only).
        roles: Option<Vec<Ident>>,
        /// `+` or `*` on a binary relation.
        closure: Option<Closure>,
        /// Node variables.
        args: Vec<Ident>,
    },
    /// `!φ`
    Not(Box<Formula>),
    /// `φ && ψ`
    And(Box<Formula>, Box<Formula>),
    /// `φ || ψ`
    Or(Box<Formula>, Box<Formula>),
    /// `φ -> ψ`
    Implies(Box<Formula>, Box<Formula>),
    /// `φ <-> ψ`
    Iff(Box<Formula>, Box<Formula>),
    /// `old(φ)`: φ in the state at entry (a contract's `ensures` only).
    Old(Box<Formula>),
    /// `forall v, w. φ` / `exists v. φ`
    Quant {
        /// Which quantifier.
        q: Quantifier,
        /// Bound variables.
        vars: Vec<Ident>,
        /// Body.
        body: Box<Formula>,
    },
}

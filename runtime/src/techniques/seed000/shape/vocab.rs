//! The vocabulary of a shape analysis: which predicates its three-valued structures carry.
//!
//! Consumes the program, a checked spec (compiled or loaded with `--spec`), one shape type per
//! recursive struct (seed 000 §2.4: a shape-class generator of a spec structure with its roles
//! bound to fields, or `m0`) and the tracked pointers of the tracking definition; produces a
//! [`Vocab`]: points-to predicates for tracked pointers, one binary predicate per field a role
//! is bound to (with a unary `undef[f]` for fields not yet written since allocation), and the
//! instrumentation predicates of every enabled family, instantiated per tracked pointer where
//! the predicate has a pointer parameter. Nothing here knows any particular data structure:
//! every instrumentation predicate comes with its defining formula from the spec.

use crate::engine::domain::Domain;
use crate::program::ir::{ExprKind, FuncId, Program, StructId, Type, VarId};
use petgraph::graph::NodeIndex;
use shapecheck_dsl::ir::{self as spec, Formula, Generator, PredId, Rel, Spec};
use std::collections::{BTreeMap, BTreeSet};

/// An instance to create: predicate, struct, role fields, pointer, root field, abstraction flag.
type Wanted = (
    PredId,
    StructId,
    Vec<usize>,
    Option<usize>,
    Option<usize>,
    bool,
);

/// The shape type of one recursive struct: its generator (`None` is `m0`, no predicates) and
/// the fields bound to the generator's structure's roles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeType {
    /// The C struct.
    pub strukt: StructId,
    /// The generator, `None` for `m0`.
    pub generator: Option<Generator>,
    /// Field names bound to the structure's roles, in role order.
    pub fields: Vec<String>,
}

/// What a predicate is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PredKind {
    /// `pt[x]`: tracked pointer `x` (an index into [`Vocab::vars`]) points to the node.
    PointsTo(usize),
    /// `undef[f]`: field `f` (an index into [`Vocab::fields`]) is uninitialised.
    Undef(usize),
    /// The binary predicate of field `f`.
    Field(usize),
    /// An instrumentation predicate (an index into [`Vocab::instr`]).
    Instr(usize),
    /// `own[f: t]`: field `f` of the cell holds the only pointer to a block of raw type `t`
    /// that is no node of the graph (an index into [`Vocab::owned`]).
    Owned(usize),
    /// `fd[f == c]`: the field assertion (an index into [`Vocab::data`]) holds on every
    /// cell the node stands for.
    Data(usize),
    /// `inner[f: m]`: field `f` of the cell points to the cell's own member `m` (an index
    /// into [`Vocab::inner`]).
    Inner(usize),
}

/// A field assertion on a data (non-pointer) field of a struct: seed 000's `ϕ` of a tracking
/// definition's `Φ`, whose field predicate `fd_ϕ` the vocabulary carries. It compares the
/// field with a constant (`data == 1`) or with an integer variable whose address is never
/// taken (`val < pivot`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Assertion {
    /// The struct holding the field.
    pub strukt: StructId,
    /// The field's name.
    pub field: String,
    /// What the field is compared with.
    pub bound: Bound,
}

/// The right-hand side of a field assertion.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    /// `f == c`.
    Eq(i64),
    /// `f < c` (a comparison with a constant is always written strict: `f <= c` is
    /// `f < c + 1`).
    Below(i64),
    /// `f < x` (`strict`) or `f <= x` for an integer variable `x`.
    Var {
        /// Whether the comparison is strict.
        strict: bool,
        /// The variable.
        var: VarId,
        /// Its name, for printing.
        name: String,
    },
    /// `f == x` for an integer variable `x`.
    VarEq {
        /// The variable.
        var: VarId,
        /// Its name, for printing.
        name: String,
    },
    /// `f < p->f` (`strict`) or `f <= p->f` for a pointer variable `p` (the same field of the
    /// cell `p` points to).
    Cell {
        /// Whether the comparison is strict.
        strict: bool,
        /// The pointer variable.
        ptr: VarId,
        /// Its name, for printing.
        name: String,
    },
    /// `f <= link->f` where pointer field `link` leads to a cell (sortedness along `link`).
    Sorted {
        /// The pointer field.
        link: String,
    },
}

impl Assertion {
    /// `data == 1`, `size < 1001`, `val < pivot`.
    pub fn describe(&self) -> String {
        match &self.bound {
            Bound::Eq(c) => format!("{} == {c}", self.field),
            Bound::Below(c) => format!("{} < {c}", self.field),
            Bound::Var { strict, name, .. } => {
                format!("{} {} {name}", self.field, if *strict { "<" } else { "<=" })
            }
            Bound::VarEq { name, .. } => format!("{} == {name}", self.field),
            Bound::Sorted { link } => format!("{0} <= {link}->{0}", self.field),
            Bound::Cell { strict, name, .. } => format!(
                "{0} {1} {name}->{0}",
                self.field,
                if *strict { "<" } else { "<=" }
            ),
        }
    }

    /// The variable a relational assertion compares with.
    pub fn var(&self) -> Option<VarId> {
        match &self.bound {
            Bound::Var { var, .. } | Bound::VarEq { var, .. } => Some(*var),
            Bound::Cell { ptr, .. } => Some(*ptr),
            _ => None,
        }
    }
}

/// A field predicate of the vocabulary.
#[derive(Clone, Debug)]
pub struct DataPred {
    /// Its assertion.
    pub assertion: Assertion,
    /// Index into [`Vocab::preds`].
    pub id: usize,
    /// Where it is part of the precision (`None`: everywhere).
    pub region: Option<Region>,
}

/// The CFA locations where a field assertion belongs to the precision (seed 000's `Ψ̂(l)`,
/// which is per location): elsewhere its predicate is 1/2 on every node, as the abstract post
/// into a location without the predicate leaves it.
pub type Region = BTreeSet<(FuncId, NodeIndex)>;

/// A predicate of the vocabulary.
#[derive(Clone, Debug)]
pub struct PredInfo {
    /// Printable name, e.g. `pt[p]`, `succ`, `cancel[succ, pred]`.
    pub name: String,
    /// 1 or 2.
    pub arity: usize,
    /// Index into the structure's unary or binary tables.
    pub slot: usize,
    /// What it is.
    pub kind: PredKind,
    /// Whether it is an abstraction predicate (unary only).
    pub abstraction: bool,
}

/// A tracked pointer variable, or a struct variable whose storage is a node (a cell
/// variable: `pt[&head]` marks its node, which exists while the variable is in scope).
#[derive(Clone, Debug)]
pub struct TrackedVar {
    /// The variable.
    pub var: VarId,
    /// Qualified name (`function::name` for locals, `&name` for a cell variable).
    pub name: String,
    /// The struct it points to (a cell variable: its own type).
    pub strukt: StructId,
    /// Whether this is a cell variable rather than a pointer.
    pub cell: bool,
}

/// A struct that embeds an analysed struct as a member: a Linux-style element with its
/// `struct list_head` inside. Its cells are nodes of the embedded struct's shape graph too: a
/// pointer to the member (`&e->link`) denotes the element's node, `container_of` leads back,
/// and the embedded struct's fields are the node's fields.
///
/// A struct embedding more than one (`struct master { struct list_head link; struct
/// list_head slaves; }`, an element on one list that heads another) has one primary member,
/// the one its cells are nodes through; each other one is a [`Member`]: a node of its own,
/// allocated and freed with its carrier and reached from it through a field of the member's
/// name that nothing but the carrier's lifetime writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carrier {
    /// The embedded (analysed) struct.
    pub strukt: StructId,
    /// The member holding it.
    pub member: String,
    /// The member's offset.
    pub offset: u64,
    /// The other embedded analysed members.
    pub members: Vec<Member>,
}

/// An embedded analysed member of a carrier besides its primary one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The member's name (also the name of the field leading to its node).
    pub name: String,
    /// Its type.
    pub strukt: StructId,
    /// Its offset in the carrier.
    pub offset: u64,
}

/// The carriers of a program: every struct that holds instances of structs for which
/// `analysed` holds as direct members only (none nested deeper or in arrays). The primary
/// member is the first one the program's `container_of` leads back from, else the first.
pub fn carriers(
    prog: &Program,
    analysed: impl Fn(StructId) -> bool,
) -> BTreeMap<StructId, Carrier> {
    let mut out = BTreeMap::new();
    for (i, def) in prog.structs.iter().enumerate() {
        let e = StructId(i as u32);
        if def.is_union || !def.complete || analysed(e) {
            continue;
        }
        let direct: Vec<Member> = def
            .fields
            .iter()
            .filter_map(|f| match f.ty {
                Type::Struct(s) if analysed(s) && f.bits.is_none() => Some(Member {
                    name: f.name.clone(),
                    strukt: s,
                    offset: f.offset,
                }),
                _ => None,
            })
            .collect();
        let nested_deeper = def.fields.iter().any(|f| {
            !direct.iter().any(|m| m.name == f.name)
                && direct.iter().any(|m| embeds(prog, &f.ty, m.strukt, 1) > 0)
        });
        if direct.is_empty() || nested_deeper {
            continue;
        }
        let first = match direct.len() {
            1 => 0,
            _ => {
                let back = container_of_offsets(prog, e);
                (direct.iter().position(|m| back.contains(&m.offset))).unwrap_or(0)
            }
        };
        let mut members = direct;
        let primary = members.remove(first);
        out.insert(
            e,
            Carrier {
                strukt: primary.strukt,
                member: primary.name,
                offset: primary.offset,
                members,
            },
        );
    }
    out
}

/// The offsets `d` of the program's casts `(E *)((char *)p - d)` to a pointer to struct `e`
/// (`container_of`).
fn container_of_offsets(prog: &Program, e: StructId) -> BTreeSet<u64> {
    let mut out = BTreeSet::new();
    prog.visit_exprs(&mut |_, y| {
        if let ExprKind::Cast(inner) = &y.kind
            && y.ty.pointee() == Some(&Type::Struct(e))
            && let Some((_, d)) = super::embed::byte_move(inner)
            && let Some(d) = d.checked_neg().and_then(|d| u64::try_from(d).ok())
        {
            out.insert(d);
        }
    });
    out
}

/// The raw fields of a program: pointer members of node types (`node`) that the program
/// accesses and that point to plain data (see [`plain`]): `void *data`, `int *val`, `char
/// *name`, a pointer to a struct without pointers.
pub fn raw_fields(prog: &Program, node: impl Fn(StructId) -> bool) -> BTreeSet<(StructId, String)> {
    let mut out = BTreeSet::new();
    field_uses(prog, |s, name, ty| {
        if node(s) && ty.pointee().is_some_and(|t| plain(prog, t, 0)) {
            out.insert((s, name.to_string()));
        }
    });
    out
}

/// Calls `each(s, name, ty)` for every access to field `name` (of type `ty`) of struct `s`
/// in the program.
fn field_uses(prog: &Program, mut each: impl FnMut(StructId, &str, &Type)) {
    prog.visit_exprs(&mut |_, y| {
        if let ExprKind::Field(base, _, name) = &y.kind
            && let Type::Struct(s) = base.ty
        {
            each(s, name, &y.ty);
        }
    });
}

/// Whether a unary predicate of one role can be instantiated at a link between structures,
/// and on which end: `Some(false)` when it reads the role's field only out of its node
/// (`linked[f](v) := exists w. f(v, w)`: on the link's holder), `Some(true)` when only into
/// it (`shared[f]`, `pointed[f]`: on the link's target), `None` otherwise (closures,
/// other predicates, pointers, both directions). Its quantifiers then range over the nodes
/// at the link's other end.
fn link_form(p: &spec::Predicate) -> Option<bool> {
    fn dirs(f: &Formula, out: &mut (bool, bool)) -> bool {
        match f {
            Formula::True | Formula::False | Formula::Eq(..) => true,
            Formula::Field(_, a, b) => {
                out.0 |= *a == 0 && *b != 0;
                out.1 |= *b == 0 && *a != 0;
                (*a == 0) != (*b == 0)
            }
            Formula::Not(a) | Formula::Exists(_, a) | Formula::Forall(_, a) => dirs(a, out),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => dirs(a, out) && dirs(b, out),
            _ => false,
        }
    }
    let mut out = (false, false);
    if p.arity != 1 || p.pointer.is_some() || p.roles.len() != 1 || !dirs(&p.body, &mut out) {
        return None;
    }
    match out {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    }
}

/// The links between analysed structs the program uses: fields `(s, name)` of an analysed
/// struct `s` that point to another analysed struct `t`, with `t`.
fn cross_fields(
    prog: &Program,
    holder: impl Fn(StructId) -> bool,
    shaped: impl Fn(StructId) -> bool,
) -> BTreeSet<(StructId, String, StructId)> {
    let mut out = BTreeSet::new();
    field_uses(prog, |s, name, ty| {
        if let Some(Type::Struct(t)) = ty.pointee()
            && *t != s
            && holder(s)
            && shaped(*t)
        {
            out.insert((s, name.to_string(), *t));
        }
    });
    out
}

/// Whether `ty` is plain data: no pointers in it (void, integers, arrays and structs of them).
pub fn plain(prog: &Program, ty: &Type, depth: usize) -> bool {
    match ty {
        Type::Void | Type::Int(_) => true,
        Type::Array(el, _) => plain(prog, el, depth + 1),
        Type::Struct(s) if depth < 16 => {
            let def = prog.strukt(*s);
            def.complete && def.fields.iter().all(|f| plain(prog, &f.ty, depth + 1))
        }
        _ => false,
    }
}

/// The raw types a block absorbed into its owner can have: one per constant allocation size
/// of the program (zeroed for `calloc`), at most eight, and the type of unknown size.
fn raw_block_types(prog: &Program, fields: &[TrackedField]) -> Vec<StructId> {
    use crate::program::ir::{AllocKind, Builtin, Callee, ExprKind, Op};
    let mut out = BTreeSet::new();
    // The pointee of a typed raw field (`int *val`): blocks of its size, also through
    // allocation wrappers whose size argument is a parameter.
    for f in fields.iter().filter(|f| f.raw) {
        let def = prog.strukt(f.strukt);
        let Some(m) = def.fields.iter().find(|m| m.name == f.name) else {
            continue;
        };
        match m.ty.pointee() {
            Some(Type::Void) | None => {}
            Some(t) => {
                if let Ok(n) = u32::try_from(prog.size_of(t)) {
                    out.insert(super::transfer::raw(n, false));
                }
            }
        }
    }
    for f in &prog.functions {
        for e in f.cfa.edge_references() {
            let Op::Call {
                callee: Callee::Builtin(Builtin::Alloc(k)),
                args,
                ..
            } = &e.weight().op
            else {
                continue;
            };
            let c = |i: usize| match args.get(i).map(|a| &a.kind) {
                Some(ExprKind::Const(n)) => u32::try_from(*n).ok(),
                _ => None,
            };
            let size = match k {
                AllocKind::Calloc => c(0).zip(c(1)).and_then(|(a, b)| a.checked_mul(b)),
                AllocKind::Alloca => None,
                _ => c(0),
            };
            if let Some(n) = size.filter(|n| *n > 0) {
                out.insert(super::transfer::raw(n, *k == AllocKind::Calloc));
            }
        }
    }
    let mut out: Vec<StructId> = out
        .into_iter()
        .filter(|t| *t != super::transfer::UNKNOWN_BLOCK)
        .take(8)
        .collect();
    out.push(super::transfer::UNKNOWN_BLOCK);
    out
}

/// How many instances of struct `s` a value of type `ty` holds (saturating at 2).
fn embeds(prog: &Program, ty: &Type, s: StructId, depth: usize) -> u64 {
    match ty {
        Type::Struct(t) if *t == s => 1,
        Type::Struct(t) if depth < 16 => prog
            .strukt(*t)
            .fields
            .iter()
            .map(|f| embeds(prog, &f.ty, s, depth + 1))
            .sum::<u64>()
            .min(2),
        Type::Array(el, n) => (embeds(prog, el, s, depth + 1) * (*n).min(2)).min(2),
        _ => 0,
    }
}

/// A tracked pointer field.
#[derive(Clone, Debug)]
pub struct TrackedField {
    /// The struct holding it.
    pub strukt: StructId,
    /// Its name.
    pub name: String,
    /// Whether it points to raw blocks (a buffer, an `int`, a struct without pointers): an
    /// owned field, see [`Owned`].
    pub raw: bool,
    /// The struct it points to: `strukt` itself for a role field (a self-pointer), another
    /// analysed struct for a link between structures (a stack item's tree node, a bucket's
    /// list, a master cell's slave list), which no instrumentation predicate reads.
    pub target: StructId,
    /// Whether it is the field leading from a carrier to the node of one of its other
    /// embedded members (see [`Member`]): a link that only allocation and `free` write.
    pub member: bool,
}

/// A block owned through a raw field and absorbed into its owner: `own[f: t]` on a node says
/// that field `f` of each cell it stands for holds the only pointer to a block of raw type `t`
/// (size and zeroedness) of its own. Blocks are absorbed when the graph is abstracted and
/// exposed as nodes again before a cell is used, so that a list whose cells each own a buffer
/// summarises to a node that still knows every cell owns one (valid-memtrack, valid-free).
#[derive(Clone, Debug)]
pub struct Owned {
    /// The field (index into [`Vocab::fields`]).
    pub field: usize,
    /// The raw type of the block.
    pub ty: StructId,
    /// Index into [`Vocab::preds`].
    pub id: usize,
}

/// A raw field that may point into its own cell (`n->pData = &n->data`, storage inside the
/// node instead of a block of its own): `inner[f: m]` on a node says field `f` of each cell
/// it stands for holds the address of that cell's member `m`. The field then has no edge.
#[derive(Clone, Debug)]
pub struct Inner {
    /// The field (index into [`Vocab::fields`]).
    pub field: usize,
    /// The member's name.
    pub member: String,
    /// The member's byte offset in the cell.
    pub offset: u64,
    /// Index into [`Vocab::preds`].
    pub id: usize,
}

/// A one-edge instrumentation predicate instance: "v has an f-predecessor" or "v's f points
/// somewhere".
#[derive(Clone, Debug)]
pub struct OneEdge {
    /// Index into [`Vocab::preds`].
    pub id: usize,
    /// The struct its nodes belong to.
    pub strukt: StructId,
    /// The field (index into [`Vocab::fields`]).
    pub field: usize,
    /// Whether the edge enters the node (`exists u. f(u, v)`) rather than leaves it.
    pub predecessor: bool,
}

/// An instrumentation predicate instance.
#[derive(Clone, Debug)]
pub struct Instr {
    /// The spec predicate.
    pub pred: PredId,
    /// The struct its nodes belong to.
    pub strukt: StructId,
    /// Field indices (into [`Vocab::fields`]) bound to the predicate's roles.
    pub roles: Vec<usize>,
    /// Field names bound to the predicate's roles.
    pub role_names: Vec<String>,
    /// The tracked pointer (index into [`Vocab::vars`]) of a pointer-indexed predicate.
    pub pointer: Option<usize>,
    /// For a pointer-indexed predicate instantiated at a link between structures instead of
    /// a pointer: the field (index into [`Vocab::fields`], of another struct) whose targets
    /// stand for the pointer's, `x(u)` read as `exists s. c(s, u)` (a bucket's list, a tree
    /// node's sub-list, a stack item's tree: the cells hanging off some cell's `c` field).
    /// With both `pointer` and `root` set, `x(u)` reads `exists s. x(s) && c(s, u)`: the cells
    /// hanging off the link of the cell the pointer points to (`o->items` of a list of lists),
    /// which keeps that cell's sub-list apart from the others' when they are summarised.
    pub root: Option<usize>,
    /// Index into [`Vocab::preds`].
    pub id: usize,
}

impl Instr {
    /// The tracked pointer of an instance indexed by a pointer alone (not through a link).
    pub fn only_pointer(&self) -> Option<usize> {
        self.pointer.filter(|_| self.root.is_none())
    }

    /// The link of an instance rooted at every cell's link (not at one pointer's cell).
    pub fn only_root(&self) -> Option<usize> {
        self.root.filter(|_| self.pointer.is_none())
    }

    /// The pointer and link of an instance rooted at the link of one pointer's cell
    /// (`<x->c>`).
    pub fn pointer_link(&self) -> Option<(usize, usize)> {
        self.pointer.zip(self.root)
    }
}

/// The field indices that the roles `rs` of a used predicate name, given the enclosing
/// declaration's `roles` (unbound roles are left out, as the evaluator does).
pub fn bind_roles(roles: &[usize], rs: &[usize]) -> Vec<usize> {
    rs.iter().filter_map(|r| roles.get(*r).copied()).collect()
}

/// The vocabulary.
#[derive(Clone)]
pub struct Vocab<'d> {
    /// The domain the instrumentation predicates come from (and that evaluates them).
    pub domain: &'d dyn Domain,
    /// The shape types, one per recursive struct in the analysis.
    pub types: Vec<ShapeType>,
    /// Tracked pointer variables.
    pub vars: Vec<TrackedVar>,
    /// The program's slots (`struct s **` cursors), tracked as pointers to their cells.
    pub slots: super::slots::Slots,
    /// Tracked fields.
    pub fields: Vec<TrackedField>,
    /// Instrumentation predicate instances, in stratification order.
    pub instr: Vec<Instr>,
    /// Field predicates of the tracked field assertions.
    pub data: Vec<DataPred>,
    /// The ownership predicates of the raw fields.
    pub owned: Vec<Owned>,
    /// The predicates of raw fields pointing into their own cell.
    pub inner: Vec<Inner>,
    /// All predicates.
    pub preds: Vec<PredInfo>,
    /// The structs that embed an analysed struct once.
    pub carriers: BTreeMap<StructId, Carrier>,
    /// Number of unary and binary slots.
    pub unary: usize,
    /// Number of binary slots.
    pub binary: usize,
    var_index: BTreeMap<VarId, usize>,
    field_index: BTreeMap<(StructId, String), usize>,
    /// The instances of each spec predicate (indices into `instr`).
    instr_index: BTreeMap<PredId, Vec<usize>>,
    /// Per instance, the stored predicates (ids) its defining formula reads, through the
    /// predicates it evaluates rather than reads; `None` when that could not be bounded.
    pub reads: Vec<Option<Vec<usize>>>,
    /// Per instance, whether it means "v is reachable from its pointer along tracked
    /// fields" (`exists u. x(u) && R(u, v)`, R a closure of fields): its value 1 on a node
    /// says every individual the node stands for is reachable (valid-memtrack).
    pub reaching: Vec<bool>,
    /// Per instance, whether it means "v is reachable along tracked fields from a target of
    /// its root field" (a reachability instance with [`Instr::root`]): its value 1 on a node
    /// says every individual is reachable once every cell that may have the root field set
    /// is (valid-memtrack of nested structures).
    pub rooting: Vec<bool>,
    /// The one-edge instances (`exists u. f(u, v)`, `exists w. f(v, w)`): their value 1 on a
    /// node says every individual it stands for has such an edge (coerce checks a witness;
    /// valid-memtrack follows owned cells through the predecessor form).
    pub edges: Vec<OneEdge>,
}

impl<'d> Vocab<'d> {
    /// The vocabulary for the given shape types and tracked pointers (those whose pointee is
    /// not one of the types are ignored).
    pub fn new(
        prog: &Program,
        domain: &'d dyn Domain,
        types: &[ShapeType],
        tracked: &BTreeSet<VarId>,
    ) -> Vocab<'d> {
        let mut v = Vocab {
            domain,
            types: types.to_vec(),
            vars: vec![],
            slots: super::slots::Slots::new(prog, &super::alias::RefParams::new(prog)),
            fields: vec![],
            instr: vec![],
            data: vec![],
            owned: vec![],
            inner: vec![],
            preds: vec![],
            unary: 0,
            binary: 0,
            var_index: BTreeMap::new(),
            field_index: BTreeMap::new(),
            instr_index: BTreeMap::new(),
            reads: vec![],
            reaching: vec![],
            rooting: vec![],
            edges: vec![],
            carriers: BTreeMap::new(),
        };
        let any = types.iter().any(|t| t.generator.is_some());
        v.carriers = carriers(prog, |s| {
            types.iter().any(|t| t.strukt == s && t.generator.is_some())
        });
        let plain_tracked: Vec<VarId> = (tracked.iter().copied())
            .filter(|x| v.slots.base(*x).is_none())
            .collect();
        for x in plain_tracked {
            let ty = &prog.var(x).ty;
            let s = match ty.pointee() {
                Some(t) if any && plain(prog, t, 0) => Some(super::transfer::RAW),
                _ => pointee_struct(prog, ty).filter(|s| v.node_type(*s)),
            };
            if let Some(s) = s {
                v.push_var(x, qualified_name(prog, x), s, false);
            }
        }
        let slots: Vec<(VarId, StructId)> =
            (v.slots.bases()).filter(|(_, s)| v.node_type(*s)).collect();
        for (x, s) in slots {
            v.push_var(x, qualified_name(prog, x), s, false);
        }
        let mut slots = std::mem::take(&mut v.slots);
        slots.retain(|x| v.var_index.contains_key(&x));
        v.slots = slots;
        for (i, info) in prog.vars.iter().enumerate() {
            let x = VarId(i as u32);
            if let Type::Struct(s) = info.ty
                && v.node_type(s)
                && !v.var_index.contains_key(&x)
            {
                v.push_var(x, format!("&{}", qualified_name(prog, x)), s, true);
            }
        }
        for t in types.iter().filter(|t| t.generator.is_some()) {
            for f in &t.fields {
                v.add_field(t.strukt, f.clone(), false, t.strukt);
            }
        }
        for (strukt, name, target) in cross_fields(prog, |s| v.node_type(s), |s| v.analysed(s)) {
            v.add_field(strukt, name, false, target);
        }
        let members: Vec<(StructId, Member)> = (v.carriers.iter())
            .flat_map(|(e, c)| c.members.iter().map(|m| (*e, m.clone())))
            .collect();
        for (e, m) in members {
            v.add_field(e, m.name.clone(), false, m.strukt);
            if let Some(f) = v.field(e, &m.name) {
                v.fields[f].member = true;
            }
        }
        if any {
            for (strukt, name) in raw_fields(prog, |s| v.node_type(s)) {
                v.add_field(strukt, name, true, super::transfer::RAW);
            }
        }
        for i in 0..v.vars.len() {
            let name = format!("pt[{}]", v.vars[i].name);
            v.push_pred(name, 1, PredKind::PointsTo(i), true);
        }
        for i in 0..v.fields.len() {
            let name = format!("undef[{}]", v.fields[i].name);
            v.push_pred(name, 1, PredKind::Undef(i), true);
            let name = v.fields[i].name.clone();
            v.push_pred(name, 2, PredKind::Field(i), false);
        }
        v.add_instr(types);
        v.reads = (0..v.instr.len()).map(|i| v.instance_reads(i)).collect();
        v.reaching = (0..v.instr.len())
            .map(|i| v.instr[i].only_pointer().is_some() && v.reaches_from_pointer(i))
            .collect();
        v.rooting = (0..v.instr.len())
            .map(|i| v.instr[i].only_root().is_some() && v.reaches_from_pointer(i))
            .collect();
        v.edges = (0..v.instr.len()).filter_map(|i| v.one_edge(i)).collect();
        let blocks = raw_block_types(prog, &v.fields);
        let raw: Vec<usize> = (0..v.fields.len()).filter(|f| v.fields[*f].raw).collect();
        for f in raw {
            for &ty in &blocks {
                let (size, zeroed) = super::transfer::raw_info(ty).unwrap_or((0, false));
                let name = format!(
                    "own[{}: {size}{}]",
                    v.fields[f].name,
                    if zeroed { " zeroed" } else { "" }
                );
                let id = v.push_pred(name, 1, PredKind::Owned(v.owned.len()), true);
                v.owned.push(Owned { field: f, ty, id });
            }
        }
        for (f, member, offset) in super::inner::self_members(prog, &v) {
            let name = format!("inner[{}: {member}]", v.fields[f].name);
            let id = v.push_pred(name, 1, PredKind::Inner(v.inner.len()), true);
            v.inner.push(Inner {
                field: f,
                member,
                offset,
                id,
            });
        }
        v
    }

    /// Tracks field `name` of `strukt` (pointing to `target`) unless it already is.
    fn add_field(&mut self, strukt: StructId, name: String, raw: bool, target: StructId) {
        if self.field_index.contains_key(&(strukt, name.clone())) {
            return;
        }
        self.field_index
            .insert((strukt, name.clone()), self.fields.len());
        self.fields.push(TrackedField {
            strukt,
            name,
            raw,
            target,
            member: false,
        });
    }

    /// Whether a node of type `ty` may be the target of field `f`.
    pub fn may_target(&self, f: usize, ty: StructId) -> bool {
        if self.fields[f].raw {
            super::transfer::raw_info(ty).is_some()
        } else if self.fields[f].member {
            ty == self.fields[f].target
        } else {
            self.carries(ty, self.fields[f].target)
        }
    }

    /// The ownership predicate absorbing a block of raw type `ty` into field `f`: the one of
    /// that type, or the one of unknown size (a block exposed from it cannot be read).
    pub fn owned_pred(&self, f: usize, ty: StructId) -> Option<&Owned> {
        let of = |t: StructId| self.owned.iter().find(|o| o.field == f && o.ty == t);
        let unzeroed = super::transfer::raw_info(ty).map(|(n, _)| super::transfer::raw(n, false));
        of(ty)
            .or_else(|| unzeroed.and_then(of))
            .or_else(|| of(super::transfer::UNKNOWN_BLOCK))
    }

    /// The vocabulary extended by the field predicates of `assertions` on analysed structs,
    /// each part of the precision on its region only (everywhere without one). They are abstraction predicates (the
    /// paper's `fd_ϕ` is 1 on a node only where `ϕ` holds for all its cells): cells whose data
    /// differ are never merged into one summary node.
    pub fn with_assertions<'r>(
        mut self,
        assertions: impl IntoIterator<Item = (&'r Assertion, Option<&'r Region>)>,
    ) -> Vocab<'d> {
        let wanted: Vec<(&Assertion, Option<&Region>)> = assertions
            .into_iter()
            .filter(|(a, _)| self.node_type(a.strukt))
            .collect();
        for (a, region) in wanted {
            let id = self.push_pred(
                format!("fd[{}]", a.describe()),
                1,
                PredKind::Data(self.data.len()),
                true,
            );
            self.data.push(DataPred {
                assertion: a.clone(),
                id,
                region: region.cloned(),
            });
        }
        self
    }

    /// The unary slots of the field predicates outside the precision at `loc` of `func`.
    pub fn masked_at(&self, func: FuncId, loc: NodeIndex) -> Vec<usize> {
        self.data
            .iter()
            .filter(|d| d.region.as_ref().is_some_and(|r| !r.contains(&(func, loc))))
            .map(|d| self.preds[d.id].slot)
            .collect()
    }

    /// The field predicates on field `field` of struct `s`: (constant, predicate id).
    pub fn data_preds(&self, s: StructId, field: &str) -> Vec<(i64, usize)> {
        self.field_preds(s, field)
            .filter_map(|d| match d.assertion.bound {
                Bound::Eq(c) => Some((c, d.id)),
                _ => None,
            })
            .collect()
    }

    /// Every field predicate on field `field` of struct `s`.
    pub fn field_preds<'a>(
        &'a self,
        s: StructId,
        field: &'a str,
    ) -> impl Iterator<Item = &'a DataPred> + 'a {
        self.data
            .iter()
            .filter(move |d| d.assertion.strukt == s && d.assertion.field == field)
    }

    /// The relational field predicates comparing field `field` of struct `s` with `x`:
    /// (strict, predicate id).
    pub fn relation_preds(&self, s: StructId, field: &str, x: VarId) -> Vec<(bool, usize)> {
        self.field_preds(s, field)
            .filter_map(|d| match d.assertion.bound {
                Bound::Var { strict, var, .. } if var == x => Some((strict, d.id)),
                _ => None,
            })
            .collect()
    }

    fn push_pred(
        &mut self,
        name: String,
        arity: usize,
        kind: PredKind,
        abstraction: bool,
    ) -> usize {
        let slot = if arity == 1 {
            self.unary += 1;
            self.unary - 1
        } else {
            self.binary += 1;
            self.binary - 1
        };
        self.preds.push(PredInfo {
            name,
            arity,
            slot,
            kind,
            abstraction: abstraction && arity == 1,
        });
        self.preds.len() - 1
    }

    /// Instances of every enabled family's predicates, sorted by spec predicate (the spec's
    /// stratification order).
    fn add_instr(&mut self, types: &[ShapeType]) {
        let mut wanted: Vec<Wanted> = vec![];
        for t in types {
            let Some(g) = &t.generator else { continue };
            let st = &self.spec().structures[g.structure.0];
            for &fi in &g.families {
                let fam = &st.families[fi];
                for u in &fam.preds {
                    let roles: Vec<usize> = u
                        .roles
                        .iter()
                        .filter_map(|r| t.fields.get(*r))
                        .filter_map(|f| self.field_index.get(&(t.strukt, f.clone())).copied())
                        .collect();
                    let p = &self.spec().predicates[u.pred.0];
                    let pointers: Vec<Option<usize>> = if p.pointer.is_some() {
                        (0..self.vars.len())
                            .filter(|i| self.carries(self.vars[*i].strukt, t.strukt))
                            .map(Some)
                            .collect()
                    } else {
                        vec![None]
                    };
                    for ptr in pointers {
                        wanted.push((
                            u.pred,
                            t.strukt,
                            roles.clone(),
                            ptr,
                            None,
                            fam.abstraction || ptr.is_some(),
                        ));
                    }
                    if p.pointer.is_some() {
                        for c in self.links_into(t.strukt) {
                            wanted.push((u.pred, t.strukt, roles.clone(), None, Some(c), true));
                            let holder = self.fields[c].strukt;
                            for x in (0..self.vars.len())
                                .filter(|x| self.carries(self.vars[*x].strukt, holder))
                            {
                                wanted.push((
                                    u.pred,
                                    t.strukt,
                                    roles.clone(),
                                    Some(x),
                                    Some(c),
                                    true,
                                ));
                            }
                        }
                    }
                    // The holder's edge predicates also hold of its links: `linked[node]`
                    // on a stack item, `shared[node]` on the tree nodes its links reach.
                    if let Some(into) = link_form(p) {
                        for c in self.links_out_of(t.strukt) {
                            let at = if into {
                                self.fields[c].target
                            } else {
                                t.strukt
                            };
                            // Into the link's target it tells a sub-list's head from its other
                            // cells (`pointed[items]`), which abstraction keeps apart.
                            wanted.push((u.pred, at, vec![c], None, None, fam.abstraction || into));
                        }
                    }
                }
            }
        }
        wanted.sort_by_key(|w| (w.0, w.1, w.2.clone(), w.3, w.4));
        wanted.dedup_by_key(|w| (w.0, w.1, w.2.clone(), w.3, w.4));
        for (pred, strukt, roles, pointer, root, abs) in wanted {
            let p = self.spec().predicates[pred.0].clone();
            let role_names: Vec<String> =
                roles.iter().map(|r| self.fields[*r].name.clone()).collect();
            let ptr = match (pointer, root) {
                (Some(i), Some(c)) => format!("<{}->{}>", self.vars[i].name, self.fields[c].name),
                (Some(i), None) => format!("<{}>", self.vars[i].name),
                (None, Some(c)) => format!("<->{}>", self.fields[c].name),
                (None, None) => String::new(),
            };
            let name = format!("{}[{}]{ptr}", p.name, role_names.join(", "));
            let idx = self.instr.len();
            let id = self.push_pred(name, p.arity, PredKind::Instr(idx), abs);
            self.instr_index.entry(pred).or_default().push(idx);
            self.instr.push(Instr {
                pred,
                strukt,
                roles,
                role_names,
                pointer,
                root,
                id,
            });
        }
    }

    /// The links into struct `t`: pointer fields of another analysed struct whose target is
    /// `t` (a bucket's list head, a tree node's sub-list, a stack item's tree node).
    fn links_into(&self, t: StructId) -> Vec<usize> {
        (0..self.fields.len())
            .filter(|c| self.fields[*c].target == t && self.is_link(*c))
            .collect()
    }

    /// The links out of struct `s`: its pointer fields whose target is another analysed
    /// struct (a stack item's tree node, a bucket's list head).
    fn links_out_of(&self, s: StructId) -> Vec<usize> {
        (0..self.fields.len())
            .filter(|c| {
                let f = &self.fields[*c];
                self.carries(f.strukt, s) && self.is_link(*c)
            })
            .collect()
    }

    /// Whether tracked field `f` is a link between structures (not a role field, not raw).
    pub fn is_link(&self, f: usize) -> bool {
        let f = &self.fields[f];
        !f.raw && (f.member || !self.carries(f.strukt, f.target))
    }

    /// The member fields of nodes of type `ty` (see [`Member`]).
    pub fn member_fields(&self, ty: StructId) -> impl Iterator<Item = usize> + '_ {
        (0..self.fields.len())
            .filter(move |f| self.fields[*f].member && self.fields[*f].strukt == ty)
    }

    /// The member field `m` of carrier `ty`, if `m` is one of its other embedded members.
    pub fn member_field(&self, ty: &Type, m: &str) -> Option<usize> {
        let Type::Struct(s) = ty else { return None };
        self.field(*s, m).filter(|f| self.fields[*f].member)
    }

    /// Whether instance `inst` has a role bound to a link (`linked[node]`): its quantifiers
    /// and coerce clauses range over the nodes of every type.
    pub fn over_link(&self, inst: &Instr) -> bool {
        inst.roles.iter().any(|f| self.is_link(*f))
    }

    /// The bound variable and body of a unary instance defined as `exists u. body`, with or
    /// without a pointer parameter as asked.
    fn unary_exists(&self, i: usize, pointer: bool) -> Option<(usize, &Formula)> {
        let inst = &self.instr[i];
        let decl = self.decl(inst.pred);
        if (inst.pointer.is_some() || inst.root.is_some()) != pointer || decl.arity != 1 {
            return None;
        }
        match &decl.body {
            Formula::Exists(u, body) => Some((*u, body)),
            _ => None,
        }
    }

    /// The one-edge predicate instance `i` is, if it is `exists u. f(u, v)` (a predecessor)
    /// or `exists w. f(v, w)` (a successor).
    fn one_edge(&self, i: usize) -> Option<OneEdge> {
        let inst = &self.instr[i];
        let (u, body) = self.unary_exists(i, false)?;
        let (r, predecessor) = match body {
            Formula::Field(r, a, 0) if *a == u => (r, true),
            Formula::Field(r, 0, b) if *b == u => (r, false),
            _ => return None,
        };
        Some(OneEdge {
            id: inst.id,
            strukt: inst.strukt,
            field: *inst.roles.get(*r)?,
            predecessor,
        })
    }

    /// Whether instance `i` is reachability from its pointer (or root) along tracked fields.
    pub fn reaches_from_pointer(&self, i: usize) -> bool {
        let inst = &self.instr[i];
        let Some((u, body)) = self.unary_exists(i, true) else {
            return false;
        };
        let Formula::And(a, b) = body else {
            return false;
        };
        let ok = |x: &Formula, r: &Formula| {
            matches!(x, Formula::Pointer(w) if *w == u) && self.field_path(&inst.roles, r, u, 0, 0)
        };
        ok(a, b) || ok(b, a)
    }

    /// Whether `f` (on variables `from`, `to`) implies a path of tracked fields between them.
    fn field_path(
        &self,
        roles: &[usize],
        f: &Formula,
        from: usize,
        to: usize,
        depth: usize,
    ) -> bool {
        if depth > 16 {
            return false;
        }
        match f {
            Formula::Field(r, a, b) => *a == from && *b == to && roles.get(*r).is_some(),
            Formula::Closure {
                rel,
                from: a,
                to: b,
                ..
            } => *a == from && *b == to && self.rel_is_fields(roles, rel, depth + 1),
            Formula::Pred(p, rs, args) if args[..] == [from, to] => {
                let bound = bind_roles(roles, rs);
                let decl = self.decl(*p);
                decl.arity == 2 && self.field_path(&bound, &decl.body, 0, 1, depth + 1)
            }
            Formula::Or(a, b) => {
                self.field_path(roles, a, from, to, depth + 1)
                    && self.field_path(roles, b, from, to, depth + 1)
            }
            _ => false,
        }
    }

    /// Whether every tuple of `rel` is a tracked field edge.
    fn rel_is_fields(&self, roles: &[usize], rel: &Rel, depth: usize) -> bool {
        match rel {
            Rel::Field(r) => roles.get(*r).is_some(),
            Rel::Pred(p, rs) => {
                let bound = bind_roles(roles, rs);
                let decl = self.decl(*p);
                decl.arity == 2 && self.field_path(&bound, &decl.body, 0, 1, depth + 1)
            }
        }
    }

    /// The stored predicates instance `i` reads (see [`Vocab::reads`]).
    fn instance_reads(&self, i: usize) -> Option<Vec<usize>> {
        let inst = &self.instr[i];
        let mut out = vec![];
        let body = &self.decl(inst.pred).body;
        self.formula_reads(inst.pointer, &inst.roles, body, 0, &mut out)?;
        out.extend(inst.root.map(|c| self.field_pred(c)));
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    fn formula_reads(
        &self,
        pointer: Option<usize>,
        roles: &[usize],
        f: &Formula,
        depth: usize,
        out: &mut Vec<usize>,
    ) -> Option<()> {
        if depth > 16 {
            return None;
        }
        let rel_reads = |rel: &Rel, out: &mut Vec<usize>| match rel {
            Rel::Field(r) => {
                out.extend(roles.get(*r).map(|fi| self.field_pred(*fi)));
                Some(())
            }
            Rel::Pred(p, rs) => self.pred_reads(pointer, roles, *p, rs, depth, out),
        };
        match f {
            Formula::True | Formula::False | Formula::Eq(..) | Formula::Summary(_) => Some(()),
            Formula::Field(r, ..) => rel_reads(&Rel::Field(*r), out),
            Formula::Pointer(_) => {
                out.extend(pointer.map(|x| self.pt(x)));
                Some(())
            }
            Formula::Pred(p, rs, _) => self.pred_reads(pointer, roles, *p, rs, depth, out),
            Formula::Closure { rel, .. } => rel_reads(rel, out),
            Formula::Not(a) | Formula::Exists(_, a) | Formula::Forall(_, a) => {
                self.formula_reads(pointer, roles, a, depth + 1, out)
            }
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
                self.formula_reads(pointer, roles, a, depth + 1, out)?;
                self.formula_reads(pointer, roles, b, depth + 1, out)
            }
        }
    }

    /// What predicate `p` applied to roles `rs` reads: itself if stored, else its body's.
    fn pred_reads(
        &self,
        pointer: Option<usize>,
        roles: &[usize],
        p: PredId,
        rs: &[usize],
        depth: usize,
        out: &mut Vec<usize>,
    ) -> Option<()> {
        let bound = bind_roles(roles, rs);
        let decl = self.decl(p);
        if let Some(j) = self.stored(p, &bound, decl.pointer.as_ref().and(pointer)) {
            out.push(self.instr[j].id);
            return Some(());
        }
        self.formula_reads(pointer, &bound, &decl.body, depth + 1, out)
    }

    /// The index of a tracked variable.
    pub fn var(&self, x: VarId) -> Option<usize> {
        self.var_index.get(&x).copied()
    }

    /// The index of a tracked field.
    pub fn field(&self, s: StructId, name: &str) -> Option<usize> {
        self.field_index.get(&(s, name.to_string())).copied()
    }

    /// The stored instance of spec predicate `p` with roles bound to `roles`, if any.
    pub fn stored(&self, p: PredId, roles: &[usize], pointer: Option<usize>) -> Option<usize> {
        self.instr_index.get(&p)?.iter().copied().find(|i| {
            let inst = &self.instr[*i];
            inst.pointer == pointer && inst.root.is_none() && inst.roles == roles
        })
    }

    /// The predicate id of `pt[x]`.
    pub fn pt(&self, x: usize) -> usize {
        x
    }

    /// The predicate id of `undef[f]`.
    pub fn undef(&self, f: usize) -> usize {
        self.vars.len() + 2 * f
    }

    /// The predicate id of field `f`.
    pub fn field_pred(&self, f: usize) -> usize {
        self.vars.len() + 2 * f + 1
    }

    /// Whether the struct is analysed (has a generator other than `m0`).
    pub fn analysed(&self, s: StructId) -> bool {
        self.types
            .iter()
            .any(|t| t.strukt == s && t.generator.is_some())
    }

    /// Whether nodes of struct `s` are in the graphs: it is analysed or a carrier.
    pub fn node_type(&self, s: StructId) -> bool {
        self.analysed(s) || self.carriers.contains_key(&s)
    }

    /// Whether a node of type `ty` has the fields of struct `s`: it is one, or embeds one.
    pub fn carries(&self, ty: StructId, s: StructId) -> bool {
        ty == s || self.carriers.get(&ty).is_some_and(|c| c.strukt == s)
    }

    /// Whether a pointer to struct `s` may denote a node of type `ty`: one carrying `s`, or,
    /// for a carrier `s`, a node of the struct it embeds (the would-be element around a
    /// list's head, see `embed`).
    pub fn may_point(&self, ty: StructId, s: StructId) -> bool {
        self.carries(ty, s) || self.carriers.get(&s).is_some_and(|c| c.strukt == ty)
    }

    /// Tracks variable `x` (a pointer to `strukt`'s cells, or a cell variable).
    fn push_var(&mut self, x: VarId, name: String, strukt: StructId, cell: bool) {
        self.var_index.insert(x, self.vars.len());
        self.vars.push(TrackedVar {
            var: x,
            name,
            strukt,
            cell,
        });
    }

    /// The index of a cell variable.
    pub fn cell_var(&self, x: VarId) -> Option<usize> {
        self.var(x).filter(|i| self.vars[*i].cell)
    }

    /// The spec predicate's declaration.
    pub fn decl(&self, p: PredId) -> &'d spec::Predicate {
        &self.spec().predicates[p.0]
    }

    /// The spec.
    pub fn spec(&self) -> &'d Spec {
        self.domain.spec()
    }

    /// Names of the predicates that are not core (for reports).
    pub fn instr_names(&self) -> Vec<String> {
        self.instr
            .iter()
            .map(|i| self.preds[i.id].name.clone())
            .collect()
    }
}

/// The recursive struct a pointer type points to, if it points to a struct.
pub fn pointee_struct(prog: &Program, ty: &Type) -> Option<StructId> {
    let _ = prog;
    match ty.pointee()? {
        Type::Struct(s) => Some(*s),
        _ => None,
    }
}

/// `function::name` for locals, `name` for globals.
pub fn qualified_name(prog: &Program, x: VarId) -> String {
    let info = prog.var(x);
    match &info.kind {
        crate::program::ir::VarKind::Global => info.name.clone(),
        crate::program::ir::VarKind::Local(f) => format!("{}::{}", prog.func(*f).name, info.name),
    }
}

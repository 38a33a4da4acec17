//! Which template rows each loop head gets, from the spec's `template` declarations.
//!
//! Consumes the merged template of the spec (`shapecheck_dsl::ir::Template`), the memory model
//! and what a loop may change; produces [`RowPlan`]s: the kind of each row and its terms
//! (coefficient and value: a register, a cell of an exact object, or a cell of a summary
//! object's tuple). Points-to and interval rows have one term; zones, octagons and the
//! spec's linear rows relate several (`c1*x1 + ... + ck*xk <= d`). `vars` rows range over
//! program variables, `fields` rows over the cells of allocated objects; in a linear row over
//! fields, a name that is not a field of the object is a program variable.

use super::memory::{ALIVE, Memory, ObjKind, Scalar};
use crate::program::ir::{ExprKind, Op, Program, VarId, VarKind};
use shapecheck_dsl::ir::{RowKind, Scope, Template};
use std::collections::{BTreeMap, BTreeSet};

/// A value a row constrains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Term {
    /// A register.
    Reg(VarId),
    /// A cell of an exact object.
    Cell(usize, u64),
    /// A cell of a summary object (of each object it stands for).
    Sum(usize, u64),
}

/// The kind of a planned row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanKind {
    /// A points-to row (one pointer term).
    PointsTo,
    /// An interval row (one numeric term).
    Interval,
    /// An upper bound of a linear combination.
    Upper,
}

/// A row to create at a loop head.
#[derive(Clone, Debug)]
pub struct RowPlan {
    /// Its kind.
    pub kind: PlanKind,
    /// Coefficients and terms.
    pub terms: Vec<(i64, Term)>,
}

/// A linear row's terms (coefficient, name) and its scopes (vars, fields).
type Linear = (Vec<(i64, String)>, [bool; 2]);

/// The rows the template configuration asks for.
#[derive(Clone, Debug, Default)]
pub struct Config {
    points: [bool; 2],
    interval: [bool; 2],
    zone: [bool; 2],
    octagon: [bool; 2],
    linear: Vec<Linear>,
}

fn scopes(over: &[Scope]) -> [bool; 2] {
    [over.contains(&Scope::Vars), over.contains(&Scope::Fields)]
}

fn or(a: &mut [bool; 2], b: [bool; 2]) {
    a[0] |= b[0];
    a[1] |= b[1];
}

impl Config {
    /// The configuration of a merged template.
    pub fn new(t: &Template) -> Config {
        let mut c = Config::default();
        for row in &t.rows {
            let s = scopes(&row.over);
            match &row.kind {
                RowKind::PointsTo => or(&mut c.points, s),
                RowKind::Interval => or(&mut c.interval, s),
                RowKind::Zone => or(&mut c.zone, s),
                RowKind::Octagon => or(&mut c.octagon, s),
                RowKind::Linear(terms) => c.linear.push((terms.clone(), s)),
            }
        }
        c
    }
}

/// What a loop may change: registers, exact cells, summary cells.
pub struct Changed {
    /// Registers.
    pub regs: Vec<VarId>,
    /// Cells of exact objects.
    pub cells: Vec<(usize, u64)>,
    /// Cells of summary objects.
    pub sums: Vec<(usize, u64)>,
    /// The registers live at the loop head: only these get rows (a dead register's
    /// loop-back value is never read).
    pub live: BTreeSet<VarId>,
}

impl Changed {
    /// The registers the loop changes that are live at its head: those that get rows.
    fn live_regs(&self) -> impl Iterator<Item = VarId> + '_ {
        self.regs.iter().copied().filter(|v| self.live.contains(v))
    }
}

/// Whether relational and linear rows take values of this type: integers at most 32 bits
/// wide (sums of two stay exact in the rows' 64 bits).
fn small_int(s: Scalar) -> bool {
    matches!(s, Scalar::Int(i) if i.bits <= 32)
}

/// A field (by name) or a program variable: the nodes of the relevance relation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    Field(String),
    Var(VarId),
}

/// Which program variables and fields each field (by name) is computed from or compared with
/// in the program, directly or through one variable in between (`v = p->f; if (v < m)`
/// relates `f` to `m`): the partners of a field in zone and octagon rows over fields.
#[derive(Clone, Debug, Default)]
pub struct Relevance(BTreeMap<String, BTreeSet<Node>>);

impl Relevance {
    /// The relevance of the fields in the operations of `edges`.
    pub fn new<'e>(edges: impl Iterator<Item = &'e Op>) -> Relevance {
        let mut near: BTreeMap<Node, BTreeSet<Node>> = BTreeMap::new();
        for op in edges {
            let mut nodes = BTreeSet::new();
            for e in op.exprs() {
                e.visit(&mut |x| match &x.kind {
                    ExprKind::Field(_, _, name) => {
                        nodes.insert(Node::Field(name.clone()));
                    }
                    ExprKind::Var(v) => {
                        nodes.insert(Node::Var(*v));
                    }
                    _ => {}
                });
            }
            for n in &nodes {
                near.entry(n.clone())
                    .or_default()
                    .extend(nodes.iter().cloned());
            }
        }
        let mut out = BTreeMap::new();
        for (n, direct) in &near {
            let Node::Field(f) = n else { continue };
            let mut all = direct.clone();
            for v in direct.iter().filter(|v| matches!(v, Node::Var(_))) {
                all.extend(near.get(v).into_iter().flatten().cloned());
            }
            all.remove(n);
            out.insert(f.clone(), all);
        }
        Relevance(out)
    }

    /// The variables related to the field `name`.
    fn vars(&self, name: &str) -> impl Iterator<Item = VarId> + '_ {
        (self.0.get(name).into_iter().flatten()).filter_map(|n| match n {
            Node::Var(v) => Some(*v),
            Node::Field(_) => None,
        })
    }

    /// Whether the fields `a` and `b` are related.
    fn fields(&self, a: &str, b: &str) -> bool {
        (self.0.get(a)).is_some_and(|s| s.contains(&Node::Field(b.to_string())))
    }
}

/// Plans the rows of one loop head.
pub fn plan(
    cfg: &Config,
    prog: &Program,
    mem: &Memory,
    rel: &Relevance,
    ch: &Changed,
) -> Vec<RowPlan> {
    let mut out = vec![];
    let single = |t: Term, s: Scalar, fields: bool, out: &mut Vec<RowPlan>| {
        let i = usize::from(fields);
        let kind = match s {
            Scalar::Ptr if cfg.points[i] => PlanKind::PointsTo,
            Scalar::Int(_) if cfg.interval[i] => PlanKind::Interval,
            _ => return,
        };
        out.push(RowPlan {
            kind,
            terms: vec![(1, t)],
        });
    };
    for v in ch.live_regs() {
        single(Term::Reg(v), reg_scalar(prog, v), false, &mut out);
    }
    for &(o, off) in ch.cells.iter().chain(&ch.sums) {
        let t = term(mem, o, off);
        let s = mem.cell(o, off).ty;
        if off == ALIVE {
            // Liveness is always tracked: rows over allocated cells hold while they live.
            out.push(RowPlan {
                kind: PlanKind::Interval,
                terms: vec![(1, t)],
            });
            continue;
        }
        let fields = !matches!(mem.objects[o].kind, ObjKind::Var(_));
        single(t, s, fields, &mut out);
    }
    relational_vars(cfg, prog, mem, ch, &mut out);
    relational_fields(cfg, prog, mem, rel, ch, &mut out);
    field_partners(cfg, prog, mem, rel, ch, &mut out);
    out
}

/// Zone and octagon rows between a numeric field of an allocated object and the program
/// variables relevant to that field, for the pairs the loop changes.
fn field_partners(
    cfg: &Config,
    prog: &Program,
    mem: &Memory,
    rel: &Relevance,
    ch: &Changed,
    out: &mut Vec<RowPlan>,
) {
    if !(cfg.zone[1] || cfg.octagon[1]) {
        return;
    }
    let changed = |o: usize, off: u64| ch.cells.contains(&(o, off)) || ch.sums.contains(&(o, off));
    for (o, obj) in mem.objects.iter().enumerate() {
        if matches!(obj.kind, ObjKind::Var(_)) {
            continue;
        }
        for c in &obj.cells {
            if c.off == ALIVE || !small_int(c.ty) {
                continue;
            }
            let name = c.name.trim_start_matches('.');
            for v in rel.vars(name) {
                if !mem.register[v.0 as usize] || !relatable(prog, v) || !ch.live.contains(&v) {
                    continue;
                }
                if changed(o, c.off) || ch.regs.contains(&v) {
                    let t = term(mem, o, c.off);
                    pairs(cfg.zone[1], cfg.octagon[1], t, Term::Reg(v), out);
                }
            }
        }
    }
}

fn term(mem: &Memory, o: usize, off: u64) -> Term {
    match mem.objects[o].kind {
        ObjKind::Summary(_) => Term::Sum(o, off),
        _ => Term::Cell(o, off),
    }
}

fn reg_scalar(prog: &Program, v: VarId) -> Scalar {
    Scalar::of(&prog.var(v).ty).expect("registers are scalars")
}

/// Whether a register is a program variable a relational row should mention (not a
/// temporary of the front end or of inlining), numeric and at most 32 bits wide.
fn relatable(prog: &Program, v: VarId) -> bool {
    let name = &prog.var(v).name;
    small_int(reg_scalar(prog, v))
        && !matches!(reg_scalar(prog, v), Scalar::Int(i) if i.boolean)
        && !name.starts_with("__")
        && !name.contains('#')
}

/// Pairwise rows: zones `x - y`, `y - x`; octagons also `x + y`, `-x - y`.
fn pairs(zone: bool, octagon: bool, a: Term, b: Term, out: &mut Vec<RowPlan>) {
    let mut forms: Vec<[i64; 2]> = vec![];
    if zone || octagon {
        forms.extend([[1, -1], [-1, 1]]);
    }
    if octagon {
        forms.extend([[1, 1], [-1, -1]]);
    }
    for [x, y] in forms {
        out.push(RowPlan {
            kind: PlanKind::Upper,
            terms: vec![(x, a), (y, b)],
        });
    }
}

fn relational_vars(
    cfg: &Config,
    prog: &Program,
    mem: &Memory,
    ch: &Changed,
    out: &mut Vec<RowPlan>,
) {
    let regs: Vec<VarId> = ch.live_regs().filter(|v| relatable(prog, *v)).collect();
    if cfg.zone[0] || cfg.octagon[0] {
        for (i, a) in regs.iter().enumerate() {
            for b in &regs[i + 1..] {
                pairs(
                    cfg.zone[0],
                    cfg.octagon[0],
                    Term::Reg(*a),
                    Term::Reg(*b),
                    out,
                );
            }
        }
    }
    for (terms, s) in &cfg.linear {
        if !s[0] {
            continue;
        }
        let resolved: Option<Vec<(i64, Term)>> = (terms.iter())
            .map(|(c, n)| register_named(prog, mem, n).map(|v| (*c, Term::Reg(v))))
            .collect();
        // A row over variables belongs to the loops that change one of them (live).
        if let Some(t) = resolved
            && t.iter()
                .any(|(_, x)| matches!(x, Term::Reg(v) if ch.live_regs().any(|w| w == *v)))
        {
            out.push(RowPlan {
                kind: PlanKind::Upper,
                terms: t,
            });
        }
    }
}

fn relational_fields(
    cfg: &Config,
    prog: &Program,
    mem: &Memory,
    rel: &Relevance,
    ch: &Changed,
    out: &mut Vec<RowPlan>,
) {
    let mut objects: Vec<usize> = (ch.cells.iter().chain(&ch.sums))
        .map(|(o, _)| *o)
        .filter(|o| !matches!(mem.objects[*o].kind, ObjKind::Var(_)))
        .collect();
    objects.dedup();
    let changed = |o: usize, off: u64| ch.cells.contains(&(o, off)) || ch.sums.contains(&(o, off));
    for o in objects {
        let ints: Vec<(u64, &str)> = (mem.objects[o].cells.iter())
            .filter(|c| c.off != ALIVE && small_int(c.ty))
            .filter(|c| changed(o, c.off))
            .map(|c| (c.off, c.name.trim_start_matches('.')))
            .collect();
        if cfg.zone[1] || cfg.octagon[1] {
            for (i, (a, na)) in ints.iter().enumerate() {
                for (b, _) in ints[i + 1..].iter().filter(|(_, nb)| rel.fields(na, nb)) {
                    let (x, y) = (term(mem, o, *a), term(mem, o, *b));
                    pairs(cfg.zone[1], cfg.octagon[1], x, y, out);
                }
            }
        }
        for (terms, s) in &cfg.linear {
            if !s[1] {
                continue;
            }
            let mut resolved = vec![];
            let mut has_field = false;
            for (c, n) in terms {
                if let Some(cell) = mem.objects[o]
                    .cells
                    .iter()
                    .find(|x| x.name == format!(".{n}"))
                {
                    if !small_int(cell.ty) {
                        break;
                    }
                    has_field = true;
                    resolved.push((*c, term(mem, o, cell.off)));
                } else if let Some(v) = register_named(prog, mem, n) {
                    resolved.push((*c, Term::Reg(v)));
                } else {
                    break;
                }
            }
            if has_field && resolved.len() == terms.len() {
                out.push(RowPlan {
                    kind: PlanKind::Upper,
                    terms: resolved,
                });
            }
        }
    }
}

/// The numeric register with this source name: a local of `main`, else a global, else the
/// first inlined copy of another function's local.
fn register_named(prog: &Program, mem: &Memory, name: &str) -> Option<VarId> {
    let candidates: Vec<(usize, &crate::program::ir::VarInfo)> = (prog.vars.iter().enumerate())
        .filter(|(i, v)| {
            mem.register[*i] && v.name == name && Scalar::of(&v.ty).is_some_and(small_int)
        })
        .collect();
    let rank = |v: &crate::program::ir::VarInfo| match v.kind {
        VarKind::Local(f) if f == prog.main => 0,
        VarKind::Global => 1,
        VarKind::Local(_) => 2,
    };
    (candidates.iter())
        .min_by_key(|(i, v)| (rank(v), *i))
        .map(|(i, _)| VarId(*i as u32))
}

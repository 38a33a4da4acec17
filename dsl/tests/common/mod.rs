//! Helpers shared by the integration tests of `shapecheck-dsl`: paths of the spec corpus and
//! the standard library, span erasure for comparing ASTs, and explicit heaps.
#![allow(dead_code)] // each test crate uses a subset

use shapecheck_dsl::ast::*;
use shapecheck_dsl::eval::ExplicitHeap;
use shapecheck_dsl::ir;
use std::path::{Path, PathBuf};

/// The workspace root (the dsl crate's parent).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Reads a file given relative to the workspace root.
pub fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The files of `dir` (relative to the workspace root) whose name ends with `ext`, as
/// relative paths, sorted.
pub fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| {
            e.expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(ext))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    out.sort();
    out
}

/// The standard library's spec files, in load order.
pub const LIBRARY: [&str; 6] = [
    "library/specs/predicates.shape",
    "library/specs/invariants.shape",
    "library/specs/structures.shape",
    "library/specs/templates.shape",
    "library/specs/spatial.shape",
    "library/specs/families.shape",
];

/// The standard library, checked.
pub fn library() -> ir::Spec {
    let texts: Vec<String> = LIBRARY.iter().map(|f| read(f)).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    shapecheck_dsl::load_all(&refs).unwrap_or_else(|e| {
        panic!(
            "{}",
            shapecheck_dsl::diag::render_all(&e, "library", &refs.join("\n"))
        )
    })
}

/// The id of the structure called `name`.
pub fn structure(spec: &ir::Spec, name: &str) -> ir::StructId {
    ir::StructId(
        spec.structures
            .iter()
            .position(|s| s.name == name)
            .unwrap_or_else(|| panic!("no structure `{name}`")),
    )
}

/// The id of the predicate called `name`.
pub fn predicate(spec: &ir::Spec, name: &str) -> Option<ir::PredId> {
    spec.predicates
        .iter()
        .position(|s| s.name == name)
        .map(ir::PredId)
}

/// The id of the invariant called `name`.
pub fn invariant(spec: &ir::Spec, name: &str) -> Option<ir::InvId> {
    spec.invariants
        .iter()
        .position(|s| s.name == name)
        .map(ir::InvId)
}

/// An explicit heap of `nodes` nodes with the given field edges and pointer variables.
pub fn heap(
    nodes: usize,
    edges: &[(usize, &str, usize)],
    pointers: &[(&str, usize)],
) -> ExplicitHeap {
    ExplicitHeap {
        nodes,
        edges: edges
            .iter()
            .map(|(a, f, b)| ((*a, f.to_string()), *b))
            .collect(),
        pointers: pointers.iter().map(|(x, n)| (x.to_string(), *n)).collect(),
    }
}

/// Field names as owned strings.
pub fn fields(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- span erasure

/// The spec with every span set to the default, for comparisons up to spans.
pub fn erase(spec: &Spec) -> Spec {
    Spec {
        items: spec.items.iter().map(erase_item).collect(),
    }
}

const NO: Span = Span { start: 0, end: 0 };

fn id(i: &Ident) -> Ident {
    Ident {
        name: i.name.clone(),
        span: NO,
    }
}

fn ids(v: &[Ident]) -> Vec<Ident> {
    v.iter().map(id).collect()
}

fn inst(i: &Instance) -> Instance {
    Instance {
        name: id(&i.name),
        roles: ids(&i.roles),
        span: NO,
    }
}

fn insts(v: &[Instance]) -> Vec<Instance> {
    v.iter().map(inst).collect()
}

fn erase_item(i: &Item) -> Item {
    match i {
        Item::Predicate(p) => Item::Predicate(PredicateDecl {
            name: id(&p.name),
            roles: ids(&p.roles),
            pointer: p.pointer.as_ref().map(id),
            params: ids(&p.params),
            body: erase_formula(&p.body),
            span: NO,
        }),
        Item::Invariant(i) => Item::Invariant(InvariantDecl {
            name: id(&i.name),
            roles: ids(&i.roles),
            body: erase_formula(&i.body),
            span: NO,
        }),
        Item::Structure(s) => Item::Structure(StructureDecl {
            name: id(&s.name),
            roles: ids(&s.roles),
            refines: insts(&s.refines),
            invariants: insts(&s.invariants),
            families: s
                .families
                .iter()
                .map(|f| FamilyDecl {
                    name: id(&f.name),
                    preds: insts(&f.preds),
                    requires: ids(&f.requires),
                    span: NO,
                })
                .collect(),
            abstracts: ids(&s.abstracts),
            span: NO,
        }),
        Item::Template(t) => Item::Template(erase_template(t)),
        Item::Contract(c) => Item::Contract(ContractDecl {
            name: id(&c.name),
            params: ids(&c.params),
            ghosts: ids(&c.ghosts),
            globals: ids(&c.globals),
            backbones: (c.backbones.iter())
                .map(|(b, fs)| (id(b), ids(fs)))
                .collect(),
            requires: c.requires.iter().map(erase_formula).collect(),
            ensures: c.ensures.iter().map(erase_formula).collect(),
            span: NO,
        }),
        Item::Spatial(s) => Item::Spatial(erase_spatial(s)),
        Item::PredFamily(f) => Item::PredFamily(PredFamilyDecl {
            name: id(&f.name),
            roles: ids(&f.roles),
            params: f.params.iter().map(|(p, q)| (id(p), *q)).collect(),
            level: f.level.as_ref().map(|n| Number {
                digits: n.digits.clone(),
                span: NO,
            }),
            body: erase_formula(&f.body),
            span: NO,
        }),
    }
}

/// The spatial domain with every span set to the default.
pub fn erase_spatial(d: &SpatialDecl) -> SpatialDecl {
    SpatialDecl {
        name: id(&d.name),
        symbols: (d.symbols.iter())
            .map(|s| SymbolsDecl {
                keyword: NO,
                kinds: ids(&s.kinds),
                span: NO,
            })
            .collect(),
        lists: d.lists.iter().map(erase_list).collect(),
        lemmas: (d.lemmas.iter())
            .map(|m| LemmaDecl {
                keyword: NO,
                left: erase_side(&m.left),
                right: erase_side(&m.right),
                span: NO,
            })
            .collect(),
        rules: (d.rules.iter())
            .map(|r| RuleDecl {
                name: id(&r.name),
                left: erase_side(&r.left),
                right: erase_side(&r.right),
                conditions: r.conditions.iter().map(erase_condition).collect(),
                span: NO,
            })
            .collect(),
        span: NO,
    }
}

fn erase_list(l: &ListDecl) -> ListDecl {
    ListDecl {
        keyword: NO,
        name: id(&l.name),
        from: id(&l.from),
        to: id(&l.to),
        params: (l.params.iter())
            .map(|p| ListParamDecl {
                name: id(&p.name),
                kind: id(&p.kind),
                bound: p.bound.as_ref().map(num),
                span: NO,
            })
            .collect(),
        base: BaseDecl {
            left: id(&l.base.left),
            right: id(&l.base.right),
            laws: l.base.laws.iter().map(erase_law).collect(),
            span: NO,
        },
        step: StepDecl {
            cell: erase_cell(&l.step.cell),
            rest: erase_segment(&l.step.rest),
            laws: l.step.laws.iter().map(erase_law).collect(),
            span: NO,
        },
        span: NO,
    }
}

fn erase_cell(c: &CellDecl) -> CellDecl {
    CellDecl {
        at: id(&c.at),
        next: id(&c.next),
        data: id(&c.data),
        span: NO,
    }
}

fn erase_segment(s: &SegmentDecl) -> SegmentDecl {
    SegmentDecl {
        pred: id(&s.pred),
        from: id(&s.from),
        to: id(&s.to),
        args: s.args.iter().map(erase_term).collect(),
        span: NO,
    }
}

fn erase_side(s: &SideDecl) -> SideDecl {
    SideDecl {
        pieces: (s.pieces.iter())
            .map(|p| match p {
                PieceDecl::Cell(c) => PieceDecl::Cell(erase_cell(c)),
                PieceDecl::Segment(s) => PieceDecl::Segment(erase_segment(s)),
            })
            .collect(),
        span: NO,
    }
}

fn erase_condition(c: &ConditionDecl) -> ConditionDecl {
    let kind = match &c.kind {
        ConditionKind::Apply { func, arg } => ConditionKind::Apply {
            func: id(func),
            arg: id(arg),
        },
        ConditionKind::NotIn { elem, set } => ConditionKind::NotIn {
            elem: id(elem),
            set: id(set),
        },
    };
    ConditionDecl { kind, span: NO }
}

fn erase_law(l: &LawDecl) -> LawDecl {
    LawDecl {
        left: erase_term(&l.left),
        op: l.op,
        right: erase_term(&l.right),
        span: NO,
    }
}

fn erase_term(t: &PureTerm) -> PureTerm {
    PureTerm {
        first: erase_atom(&t.first),
        rest: t.rest.iter().map(|(op, a)| (*op, erase_atom(a))).collect(),
        span: NO,
    }
}

fn erase_atom(a: &PureAtom) -> PureAtom {
    let kind = match &a.kind {
        PureAtomKind::Name(n) => PureAtomKind::Name(id(n)),
        PureAtomKind::Number(n) => PureAtomKind::Number(num(n)),
        PureAtomKind::Set(n) => PureAtomKind::Set(n.as_ref().map(id)),
        PureAtomKind::Apply { func, arg } => PureAtomKind::Apply {
            func: id(func),
            arg: id(arg),
        },
    };
    PureAtom { kind, span: NO }
}

fn num(n: &Number) -> Number {
    Number {
        digits: n.digits.clone(),
        span: NO,
    }
}

/// The template with every span set to the default.
pub fn erase_template(t: &TemplateDecl) -> TemplateDecl {
    TemplateDecl {
        name: id(&t.name),
        objects: (t.objects.iter())
            .map(|o| ObjectsDecl {
                keyword: NO,
                bound: match &o.bound {
                    BoundDecl::Number(n) => BoundDecl::Number(num(n)),
                    BoundDecl::Name(n) => BoundDecl::Name(id(n)),
                },
                span: NO,
            })
            .collect(),
        paths: (t.paths.iter())
            .map(|p| PathsDecl {
                keyword: NO,
                mode: id(&p.mode),
                span: NO,
            })
            .collect(),
        rows: (t.rows.iter())
            .map(|r| RowDecl {
                kind: id(&r.kind),
                expr: r.expr.as_ref().map(|e| LinExprDecl {
                    terms: (e.terms.iter())
                        .map(|t| TermDecl {
                            negative: t.negative,
                            coef: t.coef.as_ref().map(num),
                            name: id(&t.name),
                            span: NO,
                        })
                        .collect(),
                    span: NO,
                }),
                over: ids(&r.over),
                span: NO,
            })
            .collect(),
        span: NO,
    }
}

/// The formula with every span set to the default.
pub fn erase_formula(f: &Formula) -> Formula {
    let bx = |x: &Formula| Box::new(erase_formula(x));
    let kind = match &f.kind {
        FormulaKind::True => FormulaKind::True,
        FormulaKind::False => FormulaKind::False,
        FormulaKind::Eq { left, right, equal } => FormulaKind::Eq {
            left: id(left),
            right: id(right),
            equal: *equal,
        },
        FormulaKind::Atom {
            name,
            roles,
            closure,
            args,
        } => FormulaKind::Atom {
            name: id(name),
            roles: roles.as_deref().map(ids),
            closure: *closure,
            args: ids(args),
        },
        FormulaKind::Not(a) => FormulaKind::Not(bx(a)),
        FormulaKind::And(a, b) => FormulaKind::And(bx(a), bx(b)),
        FormulaKind::Or(a, b) => FormulaKind::Or(bx(a), bx(b)),
        FormulaKind::Implies(a, b) => FormulaKind::Implies(bx(a), bx(b)),
        FormulaKind::Iff(a, b) => FormulaKind::Iff(bx(a), bx(b)),
        FormulaKind::Old(a) => FormulaKind::Old(bx(a)),
        FormulaKind::Quant { q, vars, body } => FormulaKind::Quant {
            q: *q,
            vars: ids(vars),
            body: bx(body),
        },
    };
    Formula { kind, span: NO }
}

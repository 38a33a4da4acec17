//! Parse → print → parse: for every `tests/dsl/pass/` file and every standard-library spec,
//! and for random ASTs (proptest), `parse(print(ast))` equals `ast` up to spans.

mod common;

use common::{erase, erase_formula};
use proptest::prelude::*;
use shapecheck_dsl::ast::*;
use shapecheck_dsl::parser::parse;
use shapecheck_dsl::print::{formula, print};

/// The spec files whose round trip is checked.
fn corpus() -> Vec<String> {
    let mut files = common::files("tests/dsl/pass", ".shape");
    files.extend(common::files("tests/dsl/run", ".shape"));
    files.extend(common::LIBRARY.iter().map(|s| s.to_string()));
    files
}

#[test]
fn corpus_and_library_round_trip() {
    let files = corpus();
    assert!(files.len() >= 10, "{files:?}");
    for f in files {
        let text = common::read(&f);
        let ast = parse(&text).unwrap_or_else(|e| panic!("{f}: {}", e.message));
        let printed = print(&ast);
        let again = parse(&printed).unwrap_or_else(|e| {
            panic!("{f}: printed text does not parse: {}\n{printed}", e.message)
        });
        assert_eq!(
            erase(&again),
            erase(&ast),
            "{f}: round trip changes the AST\n{printed}"
        );
        // The canonical layout is a fixed point.
        assert_eq!(print(&again), printed, "{f}: printing is not idempotent");
    }
}

#[test]
fn printed_specs_check_to_the_same_ir() {
    for f in corpus() {
        let text = common::read(&f);
        let printed = print(&parse(&text).expect("parses"));
        // The library's files only check together; the others check alone.
        if f.starts_with("library/") {
            continue;
        }
        let a = shapecheck_dsl::load(&text).unwrap_or_else(|_| panic!("{f} checks"));
        let b = shapecheck_dsl::load(&printed).unwrap_or_else(|_| panic!("printed {f} checks"));
        assert_eq!(a, b, "{f}");
    }
    let lib: Vec<String> = common::LIBRARY.iter().map(|f| common::read(f)).collect();
    let printed: Vec<String> = lib
        .iter()
        .map(|t| print(&parse(t).expect("parses")))
        .collect();
    let a = shapecheck_dsl::load_all(&lib.iter().map(String::as_str).collect::<Vec<_>>());
    let b = shapecheck_dsl::load_all(&printed.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        a.expect("library checks"),
        b.expect("printed library checks")
    );
}

/// The checked specs of the corpus (outside the library's files) and the library.
fn checked_specs() -> Vec<shapecheck_dsl::ir::Spec> {
    let mut specs: Vec<shapecheck_dsl::ir::Spec> = (corpus().iter())
        .filter(|f| !f.starts_with("library/"))
        .map(|f| shapecheck_dsl::load(&common::read(f)).expect("checks"))
        .collect();
    specs.push(common::library());
    specs
}

#[test]
fn checked_templates_print_back_to_the_same_ir() {
    // `template::print_ir` writes a checked template in source syntax, every member explicit;
    // loading that text gives the same template.
    let specs = checked_specs();
    let mut seen = 0;
    for spec in specs {
        for t in &spec.templates {
            let text = shapecheck_dsl::template::print_ir(t, "");
            let again = shapecheck_dsl::load(&text).unwrap_or_else(|_| panic!("{text}"));
            assert_eq!(again.templates, std::slice::from_ref(t), "{text}");
            seen += 1;
        }
    }
    assert!(seen >= 3, "templates in the corpus and the library: {seen}");
}

#[test]
fn checked_spatial_domains_print_back_to_the_same_ir() {
    // `spatial::print_ir` writes a checked domain in source syntax, its definition and lemma
    // as the kinds give them; loading that text gives the same domain.
    let specs = checked_specs();
    let mut seen = 0;
    for spec in specs {
        for s in &spec.spatial {
            let text = shapecheck_dsl::spatial::print_ir(s, "");
            let again = shapecheck_dsl::load(&text).unwrap_or_else(|_| panic!("{text}"));
            assert_eq!(again.spatial, std::slice::from_ref(s), "{text}");
            seen += 1;
        }
    }
    assert!(
        seen >= 2,
        "spatial domains in the corpus and the library: {seen}"
    );
}

#[test]
fn spans_are_erased_but_everything_else_compared() {
    let a = parse("predicate p[f](v) := f(v, v);").expect("parses");
    let b = parse("predicate   p [f] (v)\n:= f (v,v) ;").expect("parses");
    let c = parse("predicate p[f](w) := f(w, w);").expect("parses");
    assert_ne!(a, b);
    assert_eq!(erase(&a), erase(&b));
    assert_ne!(erase(&a), erase(&c));
}

// ---------------------------------------------------------------- random ASTs

const KEYWORDS: [&str; 14] = [
    "predicate",
    "invariant",
    "structure",
    "template",
    "contract",
    "spatial",
    "refines",
    "family",
    "requires",
    "abstract",
    "forall",
    "exists",
    "true",
    "false",
];

/// Identifiers, with a bias towards those that begin with a keyword.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["v", "w", "f", "b", "x", "sm", "reach", "_", "_1"])
            .prop_map(str::to_string),
        1 => prop::sample::select(vec![
            "trueish", "false_", "falsey", "true1", "forallv", "exists_w", "predicates",
            "families", "abstraction", "refinesx",
        ])
        .prop_map(str::to_string),
        2 => "[a-zA-Z_][a-zA-Z0-9_]{0,6}",
    ]
    .prop_filter("not a keyword", |s| !KEYWORDS.contains(&s.as_str()))
}

fn ident() -> impl Strategy<Value = Ident> {
    name().prop_map(|name| Ident {
        name,
        span: Span::default(),
    })
}

fn idents(min: usize, max: usize) -> impl Strategy<Value = Vec<Ident>> {
    prop::collection::vec(ident(), min..=max)
}

fn f(kind: FormulaKind) -> Formula {
    Formula {
        kind,
        span: Span::default(),
    }
}

fn leaf() -> impl Strategy<Value = Formula> {
    let closure = prop::option::of(prop_oneof![Just(Closure::Plus), Just(Closure::Star)]);
    prop_oneof![
        Just(f(FormulaKind::True)),
        Just(f(FormulaKind::False)),
        (ident(), ident(), any::<bool>()).prop_map(|(left, right, equal)| f(FormulaKind::Eq {
            left,
            right,
            equal
        })),
        (
            ident(),
            prop::option::of(idents(0, 2)),
            closure,
            idents(1, 3)
        )
            .prop_map(|(name, roles, closure, args)| f(FormulaKind::Atom {
                name,
                roles,
                closure,
                args
            })),
    ]
}

fn any_formula() -> impl Strategy<Value = Formula> {
    leaf().prop_recursive(5, 48, 2, |inner| {
        let b = |x: Formula| Box::new(x);
        let quant = prop_oneof![Just(Quantifier::Forall), Just(Quantifier::Exists)];
        prop_oneof![
            inner.clone().prop_map(move |a| f(FormulaKind::Not(b(a)))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| f(FormulaKind::And(b(x), b(y)))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| f(FormulaKind::Or(b(x), b(y)))),
            (inner.clone(), inner.clone())
                .prop_map(move |(x, y)| f(FormulaKind::Implies(b(x), b(y)))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| f(FormulaKind::Iff(b(x), b(y)))),
            (quant, idents(1, 3), inner).prop_map(move |(q, vars, body)| f(FormulaKind::Quant {
                q,
                vars,
                body: b(body)
            })),
        ]
    })
}

fn instance() -> impl Strategy<Value = Instance> {
    (ident(), idents(0, 3)).prop_map(|(name, roles)| Instance {
        name,
        roles,
        span: Span::default(),
    })
}

fn instances(min: usize, max: usize) -> impl Strategy<Value = Vec<Instance>> {
    prop::collection::vec(instance(), min..=max)
}

fn item() -> impl Strategy<Value = Item> {
    let sp = Span::default();
    let predicate = (
        ident(),
        idents(0, 3),
        prop::option::of(ident()),
        idents(1, 3),
        any_formula(),
    )
        .prop_map(move |(name, roles, pointer, params, body)| {
            Item::Predicate(PredicateDecl {
                name,
                roles,
                pointer,
                params,
                body,
                span: sp,
            })
        });
    let invariant = (ident(), idents(0, 3), any_formula()).prop_map(move |(name, roles, body)| {
        Item::Invariant(InvariantDecl {
            name,
            roles,
            body,
            span: sp,
        })
    });
    let family =
        (ident(), instances(1, 3), idents(0, 2)).prop_map(move |(name, preds, requires)| {
            FamilyDecl {
                name,
                preds,
                requires,
                span: sp,
            }
        });
    let structure = (
        ident(),
        idents(0, 3),
        instances(0, 2),
        instances(0, 3),
        prop::collection::vec(family, 0..=3),
        idents(0, 2),
    )
        .prop_map(
            move |(name, roles, refines, invariants, families, abstracts)| {
                Item::Structure(StructureDecl {
                    name,
                    roles,
                    refines,
                    invariants,
                    families,
                    abstracts,
                    span: sp,
                })
            },
        );
    let pred_family = (
        ident(),
        idents(1, 2),
        prop::collection::vec((ident(), any::<bool>()), 1..=3),
        prop::option::of(number()),
        any_formula(),
    )
        .prop_map(move |(name, roles, params, level, body)| {
            Item::PredFamily(PredFamilyDecl {
                name,
                roles,
                params,
                level,
                body,
                span: sp,
            })
        });
    prop_oneof![
        predicate,
        invariant,
        structure,
        template(),
        spatial(),
        pred_family
    ]
}

fn number() -> impl Strategy<Value = Number> {
    "[0-9]{1,6}".prop_map(|digits| Number {
        digits,
        span: Span::default(),
    })
}

/// Random template declarations: any names where the checks expect kinds, scopes and modes
/// (the round trip is syntactic), coefficients with and without signs, empty expressions.
fn template() -> impl Strategy<Value = Item> {
    let sp = Span::default();
    let bound = prop_oneof![
        number().prop_map(BoundDecl::Number),
        ident().prop_map(BoundDecl::Name)
    ];
    let objects = bound.prop_map(move |bound| ObjectsDecl {
        keyword: sp,
        bound,
        span: sp,
    });
    let paths = ident().prop_map(move |mode| PathsDecl {
        keyword: sp,
        mode,
        span: sp,
    });
    let term = (any::<bool>(), prop::option::of(number()), ident()).prop_map(
        move |(negative, coef, name)| TermDecl {
            negative,
            coef,
            name,
            span: sp,
        },
    );
    let expr =
        prop::collection::vec(term, 0..=3).prop_map(move |terms| LinExprDecl { terms, span: sp });
    let row =
        (ident(), prop::option::of(expr), idents(1, 3)).prop_map(move |(kind, expr, over)| {
            RowDecl {
                kind,
                expr,
                over,
                span: sp,
            }
        });
    (
        ident(),
        prop::collection::vec(objects, 0..=2),
        prop::collection::vec(paths, 0..=2),
        prop::collection::vec(row, 0..=3),
    )
        .prop_map(move |(name, objects, paths, rows)| {
            Item::Template(TemplateDecl {
                name,
                objects,
                paths,
                rows,
                span: sp,
            })
        })
}

/// Random pure terms: any names and numbers, sets, applications, `+` and `++`.
fn pure_term() -> impl Strategy<Value = PureTerm> {
    let sp = Span::default();
    let atom = prop_oneof![
        ident().prop_map(PureAtomKind::Name),
        number().prop_map(PureAtomKind::Number),
        prop::option::of(ident()).prop_map(PureAtomKind::Set),
        (ident(), ident()).prop_map(|(func, arg)| PureAtomKind::Apply { func, arg }),
    ]
    .prop_map(move |kind| PureAtom { kind, span: sp });
    let op = prop_oneof![Just(PureOp::Plus), Just(PureOp::Concat)];
    (atom.clone(), prop::collection::vec((op, atom), 0..=2)).prop_map(move |(first, rest)| {
        PureTerm {
            first,
            rest,
            span: sp,
        }
    })
}

fn law() -> impl Strategy<Value = LawDecl> {
    let op = prop_oneof![Just(LawOp::Eq), Just(LawOp::Le), Just(LawOp::Ge)];
    (pure_term(), op, pure_term()).prop_map(|(left, op, right)| LawDecl {
        left,
        op,
        right,
        span: Span::default(),
    })
}

fn cell() -> impl Strategy<Value = CellDecl> {
    (ident(), ident(), ident()).prop_map(|(at, next, data)| CellDecl {
        at,
        next,
        data,
        span: Span::default(),
    })
}

fn segment() -> impl Strategy<Value = SegmentDecl> {
    let args = prop::collection::vec(pure_term(), 0..=2);
    (ident(), ident(), ident(), args).prop_map(|(pred, from, to, args)| SegmentDecl {
        pred,
        from,
        to,
        args,
        span: Span::default(),
    })
}

fn side() -> impl Strategy<Value = SideDecl> {
    let piece = prop_oneof![
        cell().prop_map(PieceDecl::Cell),
        segment().prop_map(PieceDecl::Segment)
    ];
    prop::collection::vec(piece, 1..=3).prop_map(|pieces| SideDecl {
        pieces,
        span: Span::default(),
    })
}

fn list() -> impl Strategy<Value = ListDecl> {
    let sp = Span::default();
    let param =
        (ident(), ident(), prop::option::of(number())).prop_map(move |(name, kind, bound)| {
            ListParamDecl {
                name,
                kind,
                bound,
                span: sp,
            }
        });
    let laws = || prop::collection::vec(law(), 0..=3);
    let base = (ident(), ident(), laws()).prop_map(move |(left, right, laws)| BaseDecl {
        left,
        right,
        laws,
        span: sp,
    });
    let step = (cell(), segment(), laws()).prop_map(move |(cell, rest, laws)| StepDecl {
        cell,
        rest,
        laws,
        span: sp,
    });
    let head = (
        ident(),
        ident(),
        ident(),
        prop::collection::vec(param, 0..=3),
    );
    (head, base, step).prop_map(move |((name, from, to, params), base, step)| ListDecl {
        keyword: sp,
        name,
        from,
        to,
        params,
        base,
        step,
        span: sp,
    })
}

/// Random spatial domains: any names where the checks expect kinds, conditions and the
/// shapes of laws, lemmas and rules (the round trip is syntactic).
fn spatial() -> impl Strategy<Value = Item> {
    let sp = Span::default();
    let symbols = idents(1, 3).prop_map(move |kinds| SymbolsDecl {
        keyword: sp,
        kinds,
        span: sp,
    });
    let lemma = (side(), side()).prop_map(move |(left, right)| LemmaDecl {
        keyword: sp,
        left,
        right,
        span: sp,
    });
    let condition = prop_oneof![
        (ident(), ident()).prop_map(|(func, arg)| ConditionKind::Apply { func, arg }),
        (ident(), ident()).prop_map(|(elem, set)| ConditionKind::NotIn { elem, set }),
    ]
    .prop_map(move |kind| ConditionDecl { kind, span: sp });
    let rule = (
        ident(),
        side(),
        side(),
        prop::collection::vec(condition, 0..=2),
    )
        .prop_map(move |(name, left, right, conditions)| RuleDecl {
            name,
            left,
            right,
            conditions,
            span: sp,
        });
    (
        ident(),
        prop::collection::vec(symbols, 0..=2),
        prop::collection::vec(list(), 0..=2),
        prop::collection::vec(lemma, 0..=2),
        prop::collection::vec(rule, 0..=3),
    )
        .prop_map(move |(name, symbols, lists, lemmas, rules)| {
            Item::Spatial(SpatialDecl {
                name,
                symbols,
                lists,
                lemmas,
                rules,
                span: sp,
            })
        })
}

proptest! {
    #[test]
    fn random_formulas_round_trip(body in any_formula()) {
        let text = format!("invariant i[f] := {};", formula(&body));
        let spec = parse(&text).map_err(|e| TestCaseError::fail(format!("{}: {text}", e.message)))?;
        let Some(Item::Invariant(inv)) = spec.items.first() else {
            return Err(TestCaseError::fail(format!("not an invariant: {text}")));
        };
        prop_assert_eq!(erase_formula(&inv.body), body, "{}", text);
    }

    #[test]
    fn random_specs_round_trip(items in prop::collection::vec(item(), 0..5)) {
        let spec = Spec { items };
        let text = print(&spec);
        let again = parse(&text).map_err(|e| TestCaseError::fail(format!("{}:\n{text}", e.message)))?;
        prop_assert_eq!(erase(&again), spec, "{}", text);
    }
}

//! The generated code compiles without any warning, and the small fixture's compiled items
//! agree with the interpreter on hand-made heaps.
//!
//! `deny(warnings)` covers the generator's output for `tests/fixtures/small.shape` (which uses
//! every kind of formula and declaration) as ordinary source: the body of the golden snapshot,
//! extracted by `build.rs`. Expansions of `spec!` itself are checked too, but rustc and clippy
//! skip most lints inside a macro expansion from another crate.
#![deny(warnings)]

use shapecheck_dsl::compiled::{CompiledPredicate, CompiledStructure};
use shapecheck_dsl::eval::{Evaluator, ExplicitHeap, Kleene, Structure3};
use shapecheck_dsl::ir::{InvId, PredId};
use shapecheck_dsl::sem::Plain;

/// The golden snapshot's code, compiled as written.
mod small_source {
    include!(concat!(env!("OUT_DIR"), "/small_generated.rs"));
}

mod small {
    shapecheck_macros::spec!("tests/fixtures/small.shape");
}

mod library {
    shapecheck_macros::spec!(
        "../library/specs/predicates.shape",
        "../library/specs/invariants.shape",
        "../library/specs/structures.shape",
        "../library/specs/templates.shape",
        "../library/specs/spatial.shape",
        "../library/specs/families.shape"
    );
}

/// 0 -f-> 1 -f-> 2 -f-> 1, 1 -b-> 0, x -> 0.
fn heap() -> ExplicitHeap {
    let e = |from: usize, f: &str, to: usize| ((from, f.to_string()), to);
    ExplicitHeap {
        nodes: 3,
        edges: [e(0, "f", 1), e(1, "f", 2), e(2, "f", 1), e(1, "b", 0)].into(),
        pointers: [("x".to_string(), 0)].into(),
    }
}

/// The same shape with node 2 a summary node and 2 -f-> 1 only possible.
struct Blurred(ExplicitHeap);

impl Structure3 for Blurred {
    fn nodes(&self) -> Vec<usize> {
        self.0.nodes()
    }
    fn field(&self, field: &str, from: usize, to: usize) -> Kleene {
        match (field, from, to) {
            ("f", 2, 1) => Kleene::Half,
            _ => self.0.field(field, from, to),
        }
    }
    fn pointer(&self, var: &str, node: usize) -> Kleene {
        self.0.pointer(var, node)
    }
    fn summary(&self, node: usize) -> Kleene {
        Kleene::from_bool(node == 2).min(Kleene::Half)
    }
}

#[test]
fn snapshot_source_is_the_expansion() {
    assert_eq!(small_source::spec(), small::spec());
    let names = |c: &shapecheck_dsl::compiled::CompiledSpec| -> Vec<&str> {
        let preds = c.predicates.iter().map(|e| e.name);
        let invs = c.invariants.iter().map(|e| e.name);
        preds
            .chain(invs)
            .chain(c.structures.iter().map(|e| e.name))
            .collect()
    };
    assert_eq!(names(&small_source::COMPILED), names(&small::COMPILED));
    assert_eq!(small_source::COMPILED.templates, small::COMPILED.templates);
}

/// Compiled against interpreted, for templates: the static table `spec!` generates, read back
/// as IR, equals what the interpreter's front end produces from the same text, and so does the
/// generated `spec()` data; the merged configurations agree too.
#[test]
fn template_tables_equal_the_interpreted_ir() {
    let text = include_str!("fixtures/small.shape");
    let loaded = shapecheck_dsl::load(text).expect("fixture checks");
    assert_eq!(loaded.templates.len(), 2);
    for compiled in [&small::COMPILED, &small_source::COMPILED] {
        let table: Vec<_> = compiled.templates.iter().map(|t| t.to_ir()).collect();
        assert_eq!(table, loaded.templates);
        assert_eq!((compiled.spec)().templates, loaded.templates);
        assert_eq!(compiled.template_config(), loaded.template_config());
    }
    let ranges = small::COMPILED.template("ranges").expect("compiled");
    assert_eq!(
        ranges.rows[0].kind,
        shapecheck_dsl::compiled::RowKindEntry::Linear(&[(2, "hi"), (-1, "lo"), (-3, "x")])
    );
    assert_eq!(ranges.objects, shapecheck_dsl::ir::Materialise::Fixed(2));
}

#[test]
fn small_spec_agrees_with_the_interpreter() {
    agrees(&small::COMPILED);
    agrees(&small_source::COMPILED);
}

fn agrees(compiled: &shapecheck_dsl::compiled::CompiledSpec) {
    let spec = (compiled.spec)();
    let (explicit, blurred) = (heap(), Blurred(heap()));
    let (ev2, ev3) = (
        Evaluator::new(spec, &explicit),
        Evaluator::new(spec, &blurred),
    );
    let bindings: [&[&str]; 3] = [&["f", "b"], &["b", "f"], &["f", "f"]];
    for e in compiled.predicates {
        for fields in bindings {
            let fields = &fields[..e.roles.len()];
            let owned: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
            for args in [[0, 0], [0, 1], [1, 1], [1, 2], [2, 1], [2, 2]] {
                let args = &args[..e.arity];
                let want2 = ev2.predicate(e.id, &owned, Some("x"), args) == Kleene::True;
                let want3 = ev3.predicate(e.id, &owned, Some("x"), args);
                assert_eq!((e.eval2)(&explicit, fields, Some("x"), args), want2);
                let c = Plain::new(&blurred, &owned, Some("x"));
                let roles: Vec<usize> = (0..owned.len()).collect();
                assert_eq!((e.eval3)(&c, &roles, args), want3);
            }
        }
    }
    for e in compiled.invariants {
        for fields in bindings {
            let owned = vec![fields[0].to_string()];
            let want = ev3.invariant(e.id, &owned);
            let c = Plain::new(&blurred, &owned, None);
            assert_eq!((e.eval3)(&c, &[0]), want, "{}", e.name);
            let want = ev2.invariant(e.id, &owned) == Kleene::True;
            assert_eq!((e.eval2)(&explicit, &fields[..1]), want, "{}", e.name);
        }
    }
}

#[test]
fn small_spec_items_have_the_declared_shape() {
    use small::predicates::{Loop, Reach};
    use small::structures::Twolist;
    assert_eq!(
        (Reach::NAME, Reach::ARITY, Reach::POINTER),
        ("reach", 1, Some("x"))
    );
    assert_eq!(Loop::ID, PredId(2));
    assert_eq!(Loop::decl(), &small::spec().predicates[2]);
    assert_eq!(Twolist::FAMILIES, ["reachability", "loops", "pairs"]);
    // `loops` requires `reachability`: it never appears without it.
    assert!(
        Twolist::GENERATORS
            .iter()
            .all(|g| !g.contains(&1) || g.contains(&0))
    );
    assert_eq!(Twolist::GENERATORS.len(), 6);
    // f is cyclic through 1 and 2, b is not.
    assert!(!Twolist::invariants_hold(&heap(), &["f", "b"]));
    assert!(small::structures::List::invariants_hold(&heap(), &["b"]));
    assert_eq!(
        small::COMPILED.invariant("acyclic").map(|e| e.id),
        Some(InvId(0))
    );
}

#[test]
fn library_expansion_is_complete() {
    let spec = library::spec();
    assert_eq!(library::COMPILED.predicates.len(), spec.predicates.len());
    assert_eq!(library::COMPILED.invariants.len(), spec.invariants.len());
    assert_eq!(library::COMPILED.structures.len(), spec.structures.len());
    assert_eq!(library::COMPILED.templates.len(), spec.templates.len());
    let sll = library::COMPILED.structure("sll").expect("sll is compiled");
    assert!((sll.invariants_hold)(&heap(), &["b"]));
    let domains: Vec<&str> = spec.spatial.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(domains, ["mls", "sls", "keyed"]);
}

/// Compiled against interpreted, for spatial domains: the generated `spec()` data equals what
/// the interpreter's front end produces from the same text, for the fixture and the library.
#[test]
fn spatial_domains_equal_the_interpreted_ir() {
    use shapecheck_dsl::ir::{ParamKind, Piece};
    let text = include_str!("fixtures/small.shape");
    let loaded = shapecheck_dsl::load(text).expect("fixture checks");
    assert_eq!(loaded.spatial.len(), 1);
    for compiled in [&small::COMPILED, &small_source::COMPILED] {
        assert_eq!((compiled.spec)().spatial, loaded.spatial);
    }
    let d = &small::spec().spatial[0];
    assert_eq!(
        d.param(ParamKind::Length(4)).map(|p| p.name.as_str()),
        Some("N")
    );
    assert!(
        d.composes()
            && d.rule(Piece::List, Piece::List)
                .is_some_and(|r| r.untracked)
    );
    assert!(
        d.rule(Piece::Cell, Piece::Cell)
            .is_some_and(|r| !r.untracked)
    );
    let library = shapecheck_dsl::load(include_str!("../../library/specs/spatial.shape"))
        .expect("the library's domains check");
    assert_eq!(library::spec().spatial, library.spatial);
}

/// Compiled against interpreted, for contracts: the generated `spec()` data equals what the
/// interpreter's front end produces from the same text.
#[test]
fn contracts_equal_the_interpreted_ir() {
    let text = include_str!("fixtures/small.shape");
    let loaded = shapecheck_dsl::load(text).expect("fixture checks");
    assert_eq!(loaded.contracts.len(), 1);
    for compiled in [&small::COMPILED, &small_source::COMPILED] {
        assert_eq!((compiled.spec)().contracts, loaded.contracts);
    }
    let c = (small::COMPILED.spec)()
        .contract("splice")
        .expect("compiled");
    assert_eq!(
        (c.ghosts.len(), c.requires.len(), c.ensures.len()),
        (3, 3, 3)
    );
    // `old(...)` is the ghost `old#1`, fixed by the last precondition.
    assert_eq!(c.ghosts[2], "old#1");
    assert_eq!(c.backbones, [("t".into(), vec!["f".into(), "b".into()])]);
}

/// Compiled against interpreted, for predicate families: the generated `spec()` data equals
/// what the interpreter's front end produces from the same text, for the fixture and the
/// library.
#[test]
fn families_equal_the_interpreted_ir() {
    let text = include_str!("fixtures/small.shape");
    let loaded = shapecheck_dsl::load(text).expect("fixture checks");
    assert_eq!(loaded.families.len(), 4);
    for compiled in [&small::COMPILED, &small_source::COMPILED] {
        assert_eq!((compiled.spec)().families, loaded.families);
    }
    let sorted = small::spec().family("sorted").expect("compiled");
    assert_eq!((sorted.level, sorted.orders_data), (2, true));
    assert_eq!(sorted.params, [("x".into(), false), ("y".into(), true)]);
    let library = shapecheck_dsl::load(include_str!("../../library/specs/families.shape"))
        .expect("the library's families check");
    assert_eq!(library::spec().families, library.families);
    let names: Vec<&str> = library.families.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["ls", "stable", "rev", "sorted"]);
}

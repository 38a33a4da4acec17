//! Compiled against interpreted: on random explicit heaps and random three-valued structures,
//! every library predicate, invariant and structure compiled by `spec!` gives exactly the value
//! the interpreter (`shapecheck_dsl::eval::Evaluator`, `shapecheck_dsl::sem::predicate3`)
//! gives, for every binding of its roles to fields, every tracked pointer and every tuple of
//! node arguments; three-valued, the compiled code also makes exactly the interpreter's calls
//! of the engine semantics (`Sem3`), in the same order, so that an engine that tracks what a
//! value read (the shape analysis) gets the same answers from both.

use proptest::prelude::*;
use shapecheck_dsl::eval::{Evaluator, ExplicitHeap, Kleene, Structure3};
use shapecheck_dsl::ir::{InvId, Materialise, PathSensitivity, PredId, Spec, StructId};
use shapecheck_dsl::sem::{Bound, Plain, Sem3, predicate3};
use shapecheck_library::COMPILED;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The library specs loaded by the interpreter's front end, independently of the generated
/// `spec()` data.
static LOADED: LazyLock<Spec> = LazyLock::new(|| {
    shapecheck_dsl::load_all(&[
        include_str!("../specs/predicates.shape"),
        include_str!("../specs/invariants.shape"),
        include_str!("../specs/structures.shape"),
        include_str!("../specs/templates.shape"),
        include_str!("../specs/spatial.shape"),
        include_str!("../specs/families.shape"),
    ])
    .expect("library specs check")
});

/// Fields of explicit heaps; roles are bound to every tuple of them.
const FIELDS2: [&str; 5] = ["next", "prev", "left", "right", "parent"];
/// Fields of three-valued structures (fewer: their tables are dense).
const FIELDS3: [&str; 3] = ["next", "prev", "left"];
/// Pointer variables; `y` is often null, `z` never set.
const POINTERS: [&str; 3] = ["x", "y", "z"];

/// Every `k`-tuple of `fields`.
fn bindings(fields: &[&'static str], k: usize) -> Vec<Vec<&'static str>> {
    (0..k).fold(vec![vec![]], |acc, _| {
        acc.iter()
            .flat_map(|t| fields.iter().map(move |f| [t.clone(), vec![*f]].concat()))
            .collect()
    })
}

/// Every `k`-tuple of `nodes`.
fn tuples(nodes: &[usize], k: usize) -> Vec<Vec<usize>> {
    (0..k).fold(vec![vec![]], |acc, _| {
        acc.iter()
            .flat_map(|t| nodes.iter().map(move |n| [t.clone(), vec![*n]].concat()))
            .collect()
    })
}

/// The pointers a predicate is evaluated with: each variable if it has a pointer parameter.
fn pointers(has_pointer: bool) -> Vec<Option<&'static str>> {
    match has_pointer {
        true => POINTERS.iter().map(|x| Some(*x)).collect(),
        false => vec![None],
    }
}

fn owned(fields: &[&str]) -> Vec<String> {
    fields.iter().map(|f| f.to_string()).collect()
}

fn explicit_heap() -> impl Strategy<Value = ExplicitHeap> {
    (2usize..=6)
        .prop_flat_map(|n| {
            let edge = prop::option::weighted(0.6, 0..n);
            let edges = prop::collection::vec(edge, n * FIELDS2.len());
            let ptrs = (prop::option::of(0..n), prop::option::weighted(0.3, 0..n));
            (Just(n), edges, ptrs)
        })
        .prop_map(|(n, edges, (x, y))| {
            let edges = (0..n)
                .flat_map(|v| FIELDS2.iter().map(move |f| (v, f.to_string())))
                .zip(edges)
                .filter_map(|(k, t)| t.map(|t| (k, t)))
                .collect();
            let pointers = [("x", x), ("y", y)]
                .into_iter()
                .filter_map(|(name, t)| t.map(|t| (name.to_string(), t)))
                .collect();
            ExplicitHeap {
                nodes: n,
                edges,
                pointers,
            }
        })
}

/// A three-valued structure given by tables; nodes are arbitrary ids, not `0..n`.
#[derive(Clone, Debug)]
struct Tables {
    nodes: Vec<usize>,
    fields: BTreeMap<(&'static str, usize, usize), Kleene>,
    pointers: BTreeMap<(&'static str, usize), Kleene>,
    summary: BTreeMap<usize, Kleene>,
}

impl Structure3 for Tables {
    fn nodes(&self) -> Vec<usize> {
        self.nodes.clone()
    }
    fn field(&self, field: &str, from: usize, to: usize) -> Kleene {
        let key = FIELDS3.iter().find(|f| **f == field);
        key.and_then(|f| self.fields.get(&(*f, from, to)).copied())
            .unwrap_or(Kleene::False)
    }
    fn pointer(&self, var: &str, node: usize) -> Kleene {
        let key = POINTERS.iter().find(|x| **x == var);
        key.and_then(|x| self.pointers.get(&(*x, node)).copied())
            .unwrap_or(Kleene::False)
    }
    fn summary(&self, node: usize) -> Kleene {
        self.summary.get(&node).copied().unwrap_or(Kleene::False)
    }
}

fn kleene(false_weight: u32) -> impl Strategy<Value = Kleene> {
    prop_oneof![
        false_weight => Just(Kleene::False),
        1 => Just(Kleene::Half),
        1 => Just(Kleene::True),
    ]
}

fn three_valued() -> impl Strategy<Value = Tables> {
    (2usize..=5)
        .prop_flat_map(|n| {
            let nodes = prop::sample::subsequence((0..12).collect::<Vec<usize>>(), n);
            let fields = prop::collection::vec(kleene(4), n * n * FIELDS3.len());
            let pointers = prop::collection::vec(kleene(3), n * 2);
            let summary = prop::collection::vec(kleene(2), n);
            (nodes, fields, pointers, summary)
        })
        .prop_map(|(nodes, fields, pointers, summary)| {
            let edges = FIELDS3.iter().flat_map(|f| {
                let nodes = &nodes;
                nodes
                    .iter()
                    .flat_map(move |a| nodes.iter().map(move |b| (*f, *a, *b)))
            });
            let fields = edges.zip(fields).collect();
            let pointers = POINTERS[..2]
                .iter()
                .flat_map(|x| nodes.iter().map(move |n| (*x, *n)))
                .zip(pointers)
                .collect();
            let summary = nodes.iter().copied().zip(summary).collect();
            Tables {
                nodes,
                fields,
                pointers,
                summary,
            }
        })
}

/// Compiled `eval2` of every predicate equals the interpreter's `== True`.
fn predicates_agree_2(heap: &ExplicitHeap) -> Result<(), TestCaseError> {
    let ev = Evaluator::new(&LOADED, heap);
    let nodes: Vec<usize> = (0..heap.nodes).collect();
    for (i, p) in LOADED.predicates.iter().enumerate() {
        let entry = COMPILED
            .predicate(&p.name)
            .expect("every predicate is compiled");
        for fields in bindings(&FIELDS2, p.roles.len()) {
            for pointer in pointers(p.pointer.is_some()) {
                for args in tuples(&nodes, p.arity) {
                    let want = ev.predicate(PredId(i), &owned(&fields), pointer, &args);
                    let got = (entry.eval2)(heap, &fields, pointer, &args);
                    let at = format!("{}{fields:?}<{pointer:?}>{args:?}", p.name);
                    prop_assert_eq!(got, want == Kleene::True, "{}", at);
                }
            }
        }
    }
    Ok(())
}

/// A [`Sem3`] that answers as [`Plain`] does and records every call it gets.
struct Recorder<'a> {
    inner: Plain<'a>,
    log: RefCell<Vec<String>>,
}

impl Recorder<'_> {
    fn note(&self, s: String) {
        self.log.borrow_mut().push(s);
    }
}

impl Sem3 for Recorder<'_> {
    fn eq(&self, a: usize, b: usize) -> Kleene {
        self.note(format!("eq {a} {b}"));
        self.inner.eq(a, b)
    }
    fn field(&self, f: usize, a: usize, b: usize) -> Kleene {
        self.note(format!("field {f} {a} {b}"));
        self.inner.field(f, a, b)
    }
    fn pointer(&self, a: usize) -> Kleene {
        self.note(format!("pointer {a}"));
        self.inner.pointer(a)
    }
    fn summary(&self, a: usize) -> Kleene {
        self.note(format!("summary {a}"));
        self.inner.summary(a)
    }
    fn and(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.note("and".into());
        self.inner.and(a, b)
    }
    fn or(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.note("or".into());
        self.inner.or(a, b)
    }
    fn implies(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.note("implies".into());
        self.inner.implies(a, b)
    }
    fn iff(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.note("iff".into());
        self.inner.iff(a, b)
    }
    fn exists(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene {
        self.note("exists".into());
        self.inner.exists(body)
    }
    fn forall(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene {
        self.note("forall".into());
        self.inner.forall(body)
    }
    fn pred(
        &self,
        p: PredId,
        roles: &[usize],
        args: &[usize],
        body: &dyn Fn(&[usize], &[usize]) -> Kleene,
    ) -> Kleene {
        self.note(format!("pred {} {roles:?} {args:?}", p.0));
        body(roles, args)
    }
    fn closure(
        &self,
        rel: &Bound,
        reflexive: bool,
        a: usize,
        b: usize,
        value: &dyn Fn(usize, usize) -> Kleene,
    ) -> Kleene {
        self.note(format!("closure {rel:?} {reflexive} {a} {b}"));
        self.inner.closure(rel, reflexive, a, b, value)
    }
}

/// Compiled `eval3` of every predicate equals the interpreter, call for call.
fn predicates_agree_3(s: &Tables) -> Result<(), TestCaseError> {
    for (i, p) in LOADED.predicates.iter().enumerate() {
        let entry = COMPILED
            .predicate(&p.name)
            .expect("every predicate is compiled");
        for fields in bindings(&FIELDS3, p.roles.len()) {
            let names = owned(&fields);
            let roles: Vec<usize> = (0..names.len()).collect();
            for pointer in pointers(p.pointer.is_some()) {
                for args in tuples(&s.nodes, p.arity) {
                    let record = || Recorder {
                        inner: Plain::new(s, &names, pointer),
                        log: RefCell::new(vec![]),
                    };
                    let (ri, rc) = (record(), record());
                    let want = predicate3(&LOADED, &ri, PredId(i), &roles, &args);
                    let got = (entry.eval3)(&rc, &roles, &args);
                    let at = format!("{}{fields:?}<{pointer:?}>{args:?}", p.name);
                    prop_assert_eq!(got, want, "{}", at);
                    prop_assert_eq!(rc.log.into_inner(), ri.log.into_inner(), "{}", at);
                }
            }
        }
    }
    Ok(())
}

/// Invariants and structures' conjunctions of invariants agree, two- and three-valued.
fn invariants_agree(
    s: &dyn Structure3,
    heap: Option<&ExplicitHeap>,
    fields: &[&'static str],
) -> Result<(), TestCaseError> {
    let ev = Evaluator::new(&LOADED, s);
    for (i, inv) in LOADED.invariants.iter().enumerate() {
        let entry = COMPILED
            .invariant(&inv.name)
            .expect("every invariant is compiled");
        for b in bindings(fields, inv.roles.len()) {
            let want = ev.invariant(InvId(i), &owned(&b));
            let names = owned(&b);
            let roles: Vec<usize> = (0..names.len()).collect();
            let c = Plain::new(s, &names, None);
            prop_assert_eq!((entry.eval3)(&c, &roles), want, "{}{:?}", inv.name, b);
            if let Some(heap) = heap {
                let got = (entry.eval2)(heap, &b);
                prop_assert_eq!(got, want == Kleene::True, "{}{:?}", inv.name, b);
            }
        }
    }
    for st in &LOADED.structures {
        let entry = COMPILED
            .structure(&st.name)
            .expect("every structure is compiled");
        for b in bindings(fields, st.roles.len()) {
            let want = st.invariants.iter().fold(Kleene::True, |acc, u| {
                let bound: Vec<String> = u.roles.iter().map(|r| b[*r].to_string()).collect();
                acc.and(ev.invariant(u.inv, &bound))
            });
            let names = owned(&b);
            let roles: Vec<usize> = (0..names.len()).collect();
            let c = Plain::new(s, &names, None);
            prop_assert_eq!((entry.invariants3)(&c, &roles), want, "{}{:?}", st.name, b);
            if let Some(heap) = heap {
                let got = (entry.invariants_hold)(heap, &b);
                prop_assert_eq!(got, want == Kleene::True, "{}{:?}", st.name, b);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn predicates_on_explicit_heaps(heap in explicit_heap()) {
        predicates_agree_2(&heap)?;
    }

    #[test]
    fn predicates_on_three_valued_structures(s in three_valued()) {
        predicates_agree_3(&s)?;
    }

    #[test]
    fn invariants_on_explicit_heaps(heap in explicit_heap()) {
        invariants_agree(&heap, Some(&heap), &FIELDS2)?;
    }

    #[test]
    fn invariants_on_three_valued_structures(s in three_valued()) {
        invariants_agree(&s, None, &FIELDS3)?;
    }
}

#[test]
fn generated_spec_data_is_the_checked_spec() {
    assert_eq!(shapecheck_library::spec(), &*LOADED);
}

#[test]
fn tables_follow_the_ir() {
    let spec = &*LOADED;
    let names = |v: Vec<&str>| v.join(" ");
    assert_eq!(
        names(COMPILED.predicates.iter().map(|e| e.name).collect()),
        names(spec.predicates.iter().map(|p| p.name.as_str()).collect())
    );
    for (i, e) in COMPILED.predicates.iter().enumerate() {
        let p = &spec.predicates[i];
        assert_eq!(
            (e.id, e.arity, e.pointer),
            (PredId(i), p.arity, p.pointer.as_deref())
        );
        assert_eq!(owned(e.roles), p.roles);
        assert_eq!((e.decl)(), p);
    }
    for (i, e) in COMPILED.invariants.iter().enumerate() {
        assert_eq!((e.id, e.name), (InvId(i), spec.invariants[i].name.as_str()));
        assert_eq!((e.decl)(), &spec.invariants[i]);
    }
    for (i, e) in COMPILED.structures.iter().enumerate() {
        let st = &spec.structures[i];
        assert_eq!((e.id, e.name), (StructId(i), st.name.as_str()));
        assert_eq!(owned(e.roles), st.roles);
        let families: Vec<&str> = st.families.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(e.families, families);
        assert_eq!(
            e.generators(),
            shapecheck_dsl::lattice::generators(spec, StructId(i))
        );
    }
}

/// Compiled against interpreted, for templates: the static table `spec!` generated, read back
/// as IR, equals the templates the interpreter's front end produces from the library's texts
/// (and the merged configurations agree); the library's default is the paper's configuration.
#[test]
fn template_tables_equal_the_interpreted_ir() {
    let table: Vec<_> = COMPILED.templates.iter().map(|t| t.to_ir()).collect();
    assert_eq!(table, LOADED.templates);
    assert_eq!(shapecheck_library::spec().templates, LOADED.templates);
    assert_eq!(COMPILED.template_config(), LOADED.template_config());
    let heap = COMPILED.template("heap").expect("the library's template");
    assert_eq!(
        (heap.objects, heap.paths),
        (Materialise::Auto, PathSensitivity::Loops)
    );
    let rows: Vec<String> = (heap.rows.iter())
        .map(|r| shapecheck_dsl::template::row_ir(&r.to_ir()))
        .collect();
    assert_eq!(
        rows,
        [
            "pointsto over vars, fields",
            "interval over vars, fields",
            "zone over vars, fields",
            "octagon over fields"
        ]
    );
}

/// The library's spatial domains, as seed 001's engine reads them from `spec().spatial`: the
/// generated data equals the interpreted IR; `mls`, `sls` then `keyed` (the order the engine
/// tries them in), each composing segments and folding every pair of pieces under SH^rls's
/// guard.
#[test]
fn spatial_domains_equal_the_interpreted_ir() {
    use shapecheck_dsl::ir::{ParamKind, Piece, SymbolKind};
    let spatial = &shapecheck_library::spec().spatial;
    assert_eq!(spatial, &LOADED.spatial);
    let names: Vec<(&str, &str)> = (spatial.iter())
        .map(|s| (s.name.as_str(), s.list.name.as_str()))
        .collect();
    assert_eq!(names, [("mls", "ls"), ("sls", "sls"), ("keyed", "ls")]);
    for s in spatial {
        assert!(s.composes());
        assert!(s.has_symbols(SymbolKind::Values) && s.has_symbols(SymbolKind::Addresses));
        for first in [Piece::Cell, Piece::List] {
            for second in [Piece::Cell, Piece::List] {
                let rule = s.rule(first, second).expect("a rule for every pair");
                assert!(rule.untracked, "{}: {}", s.name, rule.name);
            }
        }
        assert!(s.param(ParamKind::Multiset).is_some() && s.param(ParamKind::Counts).is_some());
    }
    assert!(spatial[0].param(ParamKind::Interval).is_none());
    assert!(spatial[1].param(ParamKind::Interval).is_some());
    // `keyed` keeps every cell holding a value of T: each rule folding a cell guards its value.
    let keyed = &spatial[2];
    assert!(
        keyed
            .rules
            .iter()
            .all(|r| r.distinct == (r.first == Piece::Cell || r.second == Piece::Cell))
    );
}

//! The shape analysis on small C programs with the standard library's doubly-linked list
//! structure: coerce derives what the cancellation predicates imply, blur merges nodes, a
//! correct program's ART is complete and re-checks as a certificate, and its buggy twin
//! reaches an abstract error.

use shapecheck_dsl::eval::Kleene;
use shapecheck_dsl::ir::{Generator, StructId as SpecStruct};
use shapecheck_runtime::engine::domain::Compiled;
use shapecheck_runtime::program::frontend;
use shapecheck_runtime::program::ir::{Program, StructId, VarId};
use shapecheck_runtime::program::property::PropertySet;
use shapecheck_runtime::techniques::seed000::shape::analysis::{Art, Bounds, Ending};
use shapecheck_runtime::techniques::seed000::shape::coerce::Constraints;
use shapecheck_runtime::techniques::seed000::shape::graph::Graph;
use shapecheck_runtime::techniques::seed000::shape::vocab::{ShapeType, Vocab};
use std::collections::BTreeSet;
use std::io::Write;

/// The standard library as compiled code.
static LIBRARY: Compiled = Compiled {
    tables: &shapecheck_library::COMPILED,
    name: "standard library",
};

const BUILD: &str = r#"
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
typedef struct node { int data; struct node *succ, *pred; } *node_t;
static node_t alloc_list(void) {
  node_t r = malloc(sizeof(struct node));
  node_t p = r;
  if (!r) abort();
  r->succ = NULL; r->pred = NULL;
  while (__VERIFIER_nondet_int()) {
    node_t t = malloc(sizeof(struct node));
    if (!t) abort();
    t->succ = NULL;
    p->succ = t;
    LINK
    p = t;
  }
  return r;
}
int main(void) {
  node_t l = alloc_list();
  node_t p = l;
  while (p != NULL) {
    if (p->succ != NULL && p->succ->pred != p) reach_error();
    p = p->succ;
  }
  return 0;
}
"#;

fn load(src: &str) -> Program {
    let mut f = tempfile::Builder::new()
        .suffix(".c")
        .tempfile()
        .expect("temp file");
    f.write_all(src.as_bytes()).expect("write");
    frontend::load(f.path()).expect("parses")
}

fn node_struct(prog: &Program) -> StructId {
    let i = prog
        .structs
        .iter()
        .position(|s| s.name.contains("node"))
        .expect("struct node");
    StructId(i as u32)
}

/// The dll structure of the library over (succ, pred) with the given families.
fn dll(prog: &Program, families: &[&str]) -> ShapeType {
    let spec = shapecheck_library::spec();
    let sid = spec
        .structures
        .iter()
        .position(|s| s.name == "dll")
        .expect("dll");
    let st = &spec.structures[sid];
    let fams = families
        .iter()
        .map(|f| {
            st.families
                .iter()
                .position(|x| x.name == *f)
                .expect("family")
        })
        .collect();
    ShapeType {
        strukt: node_struct(prog),
        generator: Some(Generator {
            structure: SpecStruct(sid),
            families: fams,
        }),
        fields: vec!["succ".into(), "pred".into()],
    }
}

fn all_pointers(prog: &Program) -> BTreeSet<VarId> {
    (0..prog.vars.len())
        .map(|i| VarId(i as u32))
        .filter(|x| prog.var(*x).ty.pointee().is_some())
        .collect()
}

fn analyse(src: &str, families: &[&str]) -> (bool, Option<String>) {
    let prog = load(src);
    let vocab = Vocab::new(
        &prog,
        &LIBRARY,
        &[dll(&prog, families)],
        &all_pointers(&prog),
    );
    let cons = Constraints::new(&vocab);
    let checks = PropertySet::parse_list("unreach-call").expect("property");
    let mut art = Art::new(&prog, &vocab, &cons, &checks);
    match art.build(Bounds::default()) {
        Ending::Complete => (art.recheck().is_ok(), None),
        Ending::Error(path, e) => {
            assert!(!path.is_empty());
            (false, Some(e.message))
        }
        Ending::Incomplete(w) => panic!("incomplete: {w:?}"),
    }
}

#[test]
fn cancellation_proves_the_dll_walk_and_its_absence_does_not() {
    let correct = BUILD.replace("LINK", "t->pred = p;");
    assert_eq!(analyse(&correct, &["cancellation"]), (true, None));
    // Without the cancellation family the back pointers are not tracked precisely enough.
    let (ok, err) = analyse(&correct, &[]);
    assert!(!ok && err.is_some_and(|m| m.contains("error function")));
}

#[test]
fn a_missing_back_pointer_reaches_the_error() {
    let buggy = BUILD.replace("LINK", "t->pred = NULL;");
    let (ok, err) = analyse(&buggy, &["cancellation"]);
    assert!(!ok);
    let msg = err.expect("an abstract error");
    assert!(
        msg.contains("line 25") && msg.contains("error function"),
        "{msg}"
    );
}

#[test]
fn coerce_derives_back_pointers_from_cancellation() {
    let correct = BUILD.replace("LINK", "t->pred = p;");
    let prog = load(&correct);
    let vocab = Vocab::new(
        &prog,
        &LIBRARY,
        &[dll(&prog, &["cancellation"])],
        &BTreeSet::new(),
    );
    let cons = Constraints::new(&vocab);
    let s = node_struct(&prog);
    let mut g = Graph::empty(&vocab);
    let (a, b) = (g.add_node(s), g.add_node(s));
    let succ = vocab.field_pred(vocab.field(s, "succ").expect("succ"));
    let pred = vocab.field_pred(vocab.field(s, "pred").expect("pred"));
    let cancel = vocab
        .instr
        .iter()
        .find(|i| vocab.preds[i.id].name == "cancel[succ, pred]")
        .expect("cancel")
        .id;
    g.set(&vocab, succ, &[a, b], Kleene::True);
    g.set(&vocab, pred, &[b, a], Kleene::Half);
    g.set(&vocab, cancel, &[a], Kleene::True);
    let g = cons.apply(&vocab, g).expect("consistent");
    assert_eq!(g.get(&vocab, pred, &[b, a]), Kleene::True);
    // A definite contradiction makes the structure infeasible.
    let mut bad = g.clone();
    bad.set(&vocab, pred, &[b, a], Kleene::False);
    assert!(cons.apply(&vocab, bad).is_none());
}

#[test]
fn blur_merges_nodes_that_agree_on_abstraction_predicates() {
    let prog = load(&BUILD.replace("LINK", "t->pred = p;"));
    let vocab = Vocab::new(&prog, &LIBRARY, &[dll(&prog, &[])], &BTreeSet::new());
    let s = node_struct(&prog);
    let mut g = Graph::empty(&vocab);
    let succ = vocab.field_pred(vocab.field(s, "succ").expect("succ"));
    let nodes: Vec<usize> = (0..3).map(|_| g.add_node(s)).collect();
    g.set(&vocab, succ, &[nodes[0], nodes[1]], Kleene::True);
    g.set(&vocab, succ, &[nodes[1], nodes[2]], Kleene::True);
    let b = g.blur(&vocab);
    assert_eq!(b.n, 1);
    assert_eq!(b.sm[0], Kleene::Half);
    assert_eq!(b.get(&vocab, succ, &[0, 0]), Kleene::Half);
    assert!(g.blur(&vocab).embeds_into(&b));
}

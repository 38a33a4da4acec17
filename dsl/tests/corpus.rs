//! The spec corpus `tests/dsl/{pass,fail,run}/`, one test per file (see tests/dsl/README.md):
//! - `pass/NAME.shape` checks without errors; its `spec show` report is snapshotted;
//! - `fail/NAME.shape` is rejected; its rendered diagnostics are snapshotted;
//! - `run/NAME.shape` checks, and the expectations of `run/NAME.heaps` hold when the
//!   interpreter evaluates it on the explicit heaps described there.
//!
//! Every file of the corpus must be listed below (`every_corpus_file_has_a_test` checks it).

mod common;

use shapecheck_dsl::diag::{Severity, render_all};
use shapecheck_dsl::eval::{Evaluator, ExplicitHeap, Kleene};
use shapecheck_dsl::{ir, print};
use std::collections::BTreeSet;

macro_rules! corpus {
    ($kind:ident => $runner:ident: $($name:ident),* $(,)?) => {
        mod $kind {
            /// The files of this directory that have a test.
            pub const FILES: &[&str] = &[$(stringify!($name)),*];
            $(
                #[test]
                fn $name() {
                    super::$runner(stringify!($name));
                }
            )*
        }
    };
}

corpus!(pass => check_pass:
    empty,
    formula_forms,
    layout,
    minimal,
    myqueue,
    refinement_chain,
    requires_diamond,
    standalone_roles,
    templates_all_forms,
    templates_paper,
    contracts_all_forms,
    families_all_forms,
);

corpus!(fail => check_fail:
    arity_node_params,
    arity_roles,
    contract_alternation,
    contract_atoms,
    contract_names,
    duplicate_declarations,
    duplicate_roles_params_families,
    duplicate_templates,
    family_checks,
    formula_closure_of_unary,
    formula_free_variable,
    formula_names_and_roles,
    formula_node_counts,
    formula_pointer_not_declared,
    formula_shadowing,
    lattice_cyclic_refinement,
    lattice_refinement_lacks_predicate,
    lattice_requires_cycle,
    lattice_too_many_families,
    names_all_kinds,
    names_unknown_family,
    names_unknown_invariant,
    names_unknown_predicate,
    names_unknown_role,
    names_unknown_structure,
    order_formulas_before_stratification,
    order_lattice_before_templates,
    order_names_before_formulas,
    stratification_later_predicate,
    stratification_recursion,
    syntax_bad_formula,
    syntax_bad_member,
    syntax_keyword_as_name,
    syntax_missing_semicolon,
    syntax_single_equals,
    syntax_template_member,
    syntax_unclosed_structure,
    template_coefficient_out_of_range,
    template_given_twice,
    template_linear_expression,
    template_linear_name_twice,
    template_no_rows,
    template_objects_out_of_range,
    template_row_repeated,
    template_scope_twice,
    template_unknown_names,
    template_zero_coefficient,
);

corpus!(run => check_run: connectives, dll, lists, trees);

const DIR: &str = "tests/dsl";

fn snapshot(name: &str, input: &str, value: &str) {
    insta::with_settings!({
        input_file => common::root().join(input),
        omit_expression => true,
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, value);
    });
}

fn check_pass(name: &str) {
    let path = format!("{DIR}/pass/{name}.shape");
    let text = common::read(&path);
    let spec = shapecheck_dsl::load(&text)
        .unwrap_or_else(|e| panic!("{path} does not check:\n{}", render_all(&e, &path, &text)));
    snapshot(&format!("pass_{name}"), &path, &print::show_ir(&spec));
}

fn check_fail(name: &str) {
    let path = format!("{DIR}/fail/{name}.shape");
    let text = common::read(&path);
    let errors = match shapecheck_dsl::load(&text) {
        Ok(_) => panic!("{path} checks, but it is in fail/"),
        Err(e) => e,
    };
    for d in &errors {
        assert_eq!(d.severity, Severity::Error, "{path}: {}", d.message);
        assert!(d.primary.start <= d.primary.end && d.primary.end <= text.len());
    }
    snapshot(
        &format!("fail_{name}"),
        &path,
        &render_all(&errors, &path, &text),
    );
}

fn check_run(name: &str) {
    let path = format!("{DIR}/run/{name}.shape");
    let text = common::read(&path);
    let spec = shapecheck_dsl::load(&text)
        .unwrap_or_else(|e| panic!("{path} does not check:\n{}", render_all(&e, &path, &text)));
    let heaps_path = format!("{DIR}/run/{name}.heaps");
    let mut failures = vec![];
    let mut expectations = 0;
    for block in parse_heaps(&common::read(&heaps_path)) {
        let eval = Evaluator::new(&spec, &block.heap);
        for (line, e) in &block.expect {
            expectations += 1;
            if let Err(msg) = e.check(&spec, &eval, block.heap.nodes) {
                failures.push(format!("{heaps_path}:{line}: heap `{}`: {msg}", block.name));
            }
        }
    }
    assert!(expectations > 0, "{heaps_path} expects nothing");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_corpus_file_has_a_test() {
    for (kind, listed) in [
        ("pass", pass::FILES),
        ("fail", fail::FILES),
        ("run", run::FILES),
    ] {
        let dir = format!("{DIR}/{kind}");
        let on_disk: BTreeSet<String> = common::files(&dir, ".shape")
            .iter()
            .map(|f| f[dir.len() + 1..f.len() - ".shape".len()].to_string())
            .collect();
        let listed: BTreeSet<String> = listed.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            on_disk, listed,
            "tests/dsl/{kind}: files vs tests in corpus.rs"
        );
    }
    let heaps: BTreeSet<String> = common::files(&format!("{DIR}/run"), ".heaps")
        .iter()
        .map(|f| {
            f.trim_end_matches(".heaps")
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    let runs: BTreeSet<String> = run::FILES.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        heaps, runs,
        "every run/NAME.shape needs run/NAME.heaps and vice versa"
    );
}

// ---------------------------------------------------------------- the .heaps format

/// One `heap NAME NODES` block: the heap and the expectations that follow it.
struct Block {
    name: String,
    heap: ExplicitHeap,
    expect: Vec<(usize, Expect)>,
}

/// `predicate p[f]<x>(a, b) = v`, `invariant i[f] = v`, or `holds p[f]<x> = {...}`.
enum Expect {
    Pred(Applied, Vec<usize>, Kleene),
    Inv(Applied, Kleene),
    Holds(Applied, Option<BTreeSet<Vec<usize>>>),
}

/// `name[fields]<pointer>`.
struct Applied {
    name: String,
    fields: Vec<String>,
    pointer: Option<String>,
}

fn parse_heaps(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = vec![];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let n = i + 1;
        if let Some(rest) = line.strip_prefix("heap ") {
            let (name, nodes) = rest
                .trim()
                .split_once(' ')
                .unwrap_or_else(|| unreadable(n, raw));
            blocks.push(Block {
                name: name.to_string(),
                heap: ExplicitHeap {
                    nodes: nodes.trim().parse().unwrap_or_else(|_| unreadable(n, raw)),
                    ..ExplicitHeap::default()
                },
                expect: vec![],
            });
            continue;
        }
        let Some(b) = blocks.last_mut() else {
            panic!("line {n}: `{raw}` before the first `heap`")
        };
        let (lhs, rhs) = line.split_once('=').unwrap_or_else(|| unreadable(n, raw));
        let (lhs, rhs) = (lhs.trim(), rhs.trim());
        let expect = if let Some(p) = lhs.strip_prefix("predicate ") {
            let (applied, args) = applied(p);
            Expect::Pred(
                applied,
                args.unwrap_or_else(|| unreadable(n, raw)),
                kleene(rhs).unwrap_or_else(|| unreadable(n, raw)),
            )
        } else if let Some(p) = lhs.strip_prefix("invariant ") {
            Expect::Inv(
                applied(p).0,
                kleene(rhs).unwrap_or_else(|| unreadable(n, raw)),
            )
        } else if let Some(p) = lhs.strip_prefix("holds ") {
            Expect::Holds(applied(p).0, tuples(rhs))
        } else if let Some((node, field)) = lhs.split_once('.') {
            let node = node.parse().unwrap_or_else(|_| unreadable(n, raw));
            let to = rhs.parse().unwrap_or_else(|_| unreadable(n, raw));
            b.heap.edges.insert((node, field.to_string()), to);
            continue;
        } else {
            b.heap.pointers.insert(
                lhs.to_string(),
                rhs.parse().unwrap_or_else(|_| unreadable(n, raw)),
            );
            continue;
        };
        b.expect.push((n, expect));
    }
    blocks
}

fn unreadable<T>(line: usize, raw: &str) -> T {
    panic!("line {line}: cannot read `{raw}`")
}

/// `name[f, g]<x>(1, 2)`: the applied name and the node arguments, if any.
fn applied(s: &str) -> (Applied, Option<Vec<usize>>) {
    let (name, rest) = s.split_once('[').unwrap_or((s, "]"));
    let (roles, rest) = rest.split_once(']').unwrap_or(("", rest));
    let (pointer, rest) = match rest.trim().strip_prefix('<') {
        Some(r) => {
            let (p, r) = r.split_once('>').unwrap_or((r, ""));
            (Some(p.trim().to_string()), r)
        }
        None => (None, rest),
    };
    let args = rest
        .trim()
        .strip_prefix('(')
        .map(|a| numbers(a.trim_end_matches(')')));
    let fields = roles
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect();
    (
        Applied {
            name: name.trim().to_string(),
            fields,
            pointer,
        },
        args,
    )
}

fn numbers(s: &str) -> Vec<usize> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap_or_else(|_| panic!("not a node: `{x}`")))
        .collect()
}

fn kleene(s: &str) -> Option<Kleene> {
    match s {
        "true" => Some(Kleene::True),
        "false" => Some(Kleene::False),
        "half" => Some(Kleene::Half),
        _ => None,
    }
}

/// `{0, 1}` or `{(0, 1), (1, 2)}` (the tuples where the predicate is true), or `all`.
fn tuples(s: &str) -> Option<BTreeSet<Vec<usize>>> {
    if s == "all" {
        return None;
    }
    let inner = s
        .strip_prefix('{')
        .and_then(|x| x.strip_suffix('}'))
        .unwrap_or_else(|| panic!("expected `{{...}}` or `all`, found `{s}`"));
    if inner.contains('(') {
        Some(
            inner
                .split(')')
                .map(|t| {
                    t.trim()
                        .trim_start_matches(',')
                        .trim()
                        .trim_start_matches('(')
                })
                .filter(|t| !t.is_empty())
                .map(numbers)
                .collect(),
        )
    } else {
        Some(numbers(inner).into_iter().map(|n| vec![n]).collect())
    }
}

impl Expect {
    fn check(&self, spec: &ir::Spec, eval: &Evaluator, nodes: usize) -> Result<(), String> {
        match self {
            Expect::Inv(a, want) => {
                let id = common::invariant(spec, &a.name)
                    .ok_or_else(|| format!("no invariant `{}`", a.name))?;
                let inv = &spec.invariants[id.0];
                if inv.roles.len() != a.fields.len() || a.pointer.is_some() {
                    return Err(format!("`{}` is applied wrongly", a.name));
                }
                let got = eval.invariant(id, &a.fields);
                compare(&format!("invariant {}", a.text()), got, *want)
            }
            Expect::Pred(a, args, want) => {
                let (id, _) = a.predicate(spec, args.len())?;
                let got = eval.predicate(id, &a.fields, a.pointer.as_deref(), args);
                compare(&format!("{}({args:?})", a.text()), got, *want)
            }
            Expect::Holds(a, want) => {
                let (id, arity) = a.predicate(spec, 0)?;
                let all = tuples_of(nodes, arity);
                let got: BTreeSet<Vec<usize>> = all
                    .iter()
                    .filter(|t| {
                        eval.predicate(id, &a.fields, a.pointer.as_deref(), t) == Kleene::True
                    })
                    .cloned()
                    .collect();
                let want = want.clone().unwrap_or_else(|| all.into_iter().collect());
                if got == want {
                    Ok(())
                } else {
                    Err(format!("{} holds at {got:?}, expected {want:?}", a.text()))
                }
            }
        }
    }
}

impl Applied {
    fn text(&self) -> String {
        let ptr = self
            .pointer
            .as_ref()
            .map(|p| format!("<{p}>"))
            .unwrap_or_default();
        format!("{}[{}]{ptr}", self.name, self.fields.join(", "))
    }

    /// The predicate and its arity, checking roles, pointer and (unless 0) the node count.
    fn predicate(&self, spec: &ir::Spec, nodes: usize) -> Result<(ir::PredId, usize), String> {
        let id = common::predicate(spec, &self.name)
            .ok_or_else(|| format!("no predicate `{}`", self.name))?;
        let p = &spec.predicates[id.0];
        let ok = p.roles.len() == self.fields.len()
            && p.pointer.is_some() == self.pointer.is_some()
            && (nodes == 0 || nodes == p.arity);
        if ok {
            Ok((id, p.arity))
        } else {
            Err(format!("`{}` is applied wrongly", self.text()))
        }
    }
}

fn tuples_of(nodes: usize, arity: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for _ in 0..arity {
        out = out
            .into_iter()
            .flat_map(|t| {
                (0..nodes).map(move |n| {
                    let mut t = t.clone();
                    t.push(n);
                    t
                })
            })
            .collect();
    }
    out
}

fn compare(what: &str, got: Kleene, want: Kleene) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} is {got:?}, expected {want:?}"))
    }
}

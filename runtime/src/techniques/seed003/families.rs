//! The predicates of seed 003's full predicate abstraction and their instantiation.
//!
//! Consumes the pointer variables live at a cut point, the pointer fields of the list struct
//! and a configuration of families; produces the predicates there, each with its defining
//! AF^R formula and a readable name. A configuration holds the logic's atoms (`x = y`,
//! `x<f>y`, `x<f*>y`, `alloc(x)`), the memtrack family `f.rooted` (its arity is the number
//! of variables, so it is no spec family) and families of the spec (`family` declarations:
//! the library's `ls`, `stable`, `rev`, `sorted`, or a user's), whose definitions
//! [`super::assertion`] lowers. A spec family is instantiated over every injective choice of
//! fields for its roles and of live variables for its parameters, `null` too for a parameter
//! marked `?` (quadratic in the variables for the binary families, as in the paper); when a
//! family of the configuration orders data, the atoms `dle(x, y)` join.

use super::assertion;
use super::logic::{Formula, Term};
use super::program::System;
use shapecheck_dsl::ir::PredFamily;

/// A family of predicates.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// `x = y`.
    Eq,
    /// `x<f>y`: `x->f == y`.
    Edge,
    /// `x<f*>y`.
    Reach,
    /// `alloc(x)`.
    Alloc,
    /// `f.rooted`: every allocated node is reached from a variable along `f` (no garbage;
    /// one nullary predicate per field and cut point, for valid-memtrack).
    Rooted,
    /// `dle(x, y)`: the data order between two variables' nodes (joins any configuration
    /// with a family that orders data).
    Dle,
    /// A family the spec declares, by name.
    Spec(String),
}

impl Family {
    /// The logic's atoms: the families every configuration starts from.
    pub const ATOMS: [Family; 4] = [Family::Eq, Family::Edge, Family::Reach, Family::Alloc];

    /// The engine's own families, with `rooted`.
    const BUILTIN: [Family; 5] = [
        Family::Eq,
        Family::Edge,
        Family::Reach,
        Family::Alloc,
        Family::Rooted,
    ];

    /// Its name in configurations and reports.
    pub fn name(&self) -> &str {
        match self {
            Family::Eq => "eq",
            Family::Edge => "edge",
            Family::Reach => "reach",
            Family::Alloc => "alloc",
            Family::Rooted => "rooted",
            Family::Dle => "dle",
            Family::Spec(n) => n,
        }
    }

    /// The family of a name: one of the engine's, or one of `defs`.
    pub fn parse(s: &str, defs: &[PredFamily]) -> Option<Family> {
        let builtin = Family::BUILTIN.into_iter().find(|f| f.name() == s);
        builtin.or_else(|| (defs.iter().any(|d| d.name == s)).then(|| Family::Spec(s.into())))
    }

    /// Every name [`Family::parse`] accepts, for messages.
    pub fn known(defs: &[PredFamily]) -> Vec<String> {
        let builtin = Family::BUILTIN.iter().map(|f| f.name().to_string());
        builtin.chain(defs.iter().map(|d| d.name.clone())).collect()
    }

    /// Its definition, for a spec family.
    pub fn def<'d>(&self, defs: &'d [PredFamily]) -> Option<&'d PredFamily> {
        match self {
            Family::Spec(n) => defs.iter().find(|d| &d.name == n),
            _ => None,
        }
    }
}

/// A predicate instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pred {
    /// Its readable name (`x<n*>y`, `ls[n](x, y)`, ...).
    pub name: String,
    /// Its family.
    pub family: Family,
    /// Its definition.
    pub formula: Formula,
}

/// Instantiates `families` at a cut point whose live variables are `vars` (indices into
/// `sys`'s vocabulary, with their names), over the struct's fields and `null`.
pub fn instantiate(
    sys: &System,
    families: &[Family],
    vars: &[(usize, String)],
) -> Result<Vec<Pred>, String> {
    let fields: Vec<(usize, String)> = sys.fields.iter().cloned().enumerate().collect();
    let mut terms: Vec<(Term, String)> = vars
        .iter()
        .map(|(v, n)| (Term::Var(*v), n.clone()))
        .collect();
    terms.push((Term::Null, "null".into()));
    let mut out = vec![];
    for fam in families {
        match fam {
            Family::Eq => {
                for (i, (a, an)) in terms.iter().enumerate() {
                    for (b, bn) in &terms[i + 1..] {
                        out.push(pred(format!("{an} = {bn}"), fam, Formula::Eq(*a, *b)));
                    }
                }
            }
            Family::Alloc => {
                for (a, an) in terms.iter().filter(|(t, _)| *t != Term::Null) {
                    out.push(pred(format!("alloc({an})"), fam, Formula::Alloc(*a)));
                }
            }
            Family::Rooted => {
                for (f, fname) in &fields {
                    out.push(pred(format!("{fname}.rooted"), fam, rooted(*f, vars)));
                }
            }
            Family::Edge | Family::Reach => {
                for (f, fname) in &fields {
                    paths(fam, *f, fname, &terms, &mut out);
                }
            }
            // Joins below, when a family orders data.
            Family::Dle => {}
            Family::Spec(name) => {
                let def = (sys.families.iter())
                    .find(|d| &d.name == name)
                    .ok_or_else(|| format!("the spec declares no family `{name}`"))?;
                spec_family(sys, def, fam, &fields, &terms, &mut out)?;
            }
        }
    }
    let data = (families.iter()).any(|f| f.def(&sys.families).is_some_and(|d| d.orders_data));
    if data {
        data_order(&terms, &mut out);
    }
    Ok(out)
}

/// The equality of two variables (by index, with the vocabulary's names).
pub fn equal(u: usize, v: usize, names: &[String]) -> Pred {
    pred(
        format!("{} = {}", names[u], names[v]),
        &Family::Eq,
        Formula::Eq(Term::Var(u), Term::Var(v)),
    )
}

fn pred(name: String, family: &Family, formula: Formula) -> Pred {
    Pred {
        name,
        family: family.clone(),
        formula,
    }
}

/// `x<f>y` or `x<f*>y` for every ordered pair of distinct terms with a non-null source.
fn paths(fam: &Family, f: usize, fname: &str, terms: &[(Term, String)], out: &mut Vec<Pred>) {
    for (a, an) in terms.iter().filter(|(t, _)| *t != Term::Null) {
        for (b, bn) in terms.iter().filter(|(t, _)| t != a) {
            out.push(match fam {
                Family::Edge => pred(
                    format!("{an}<{fname}>{bn}"),
                    fam,
                    Formula::edge(f, *a, *b, 0),
                ),
                _ => pred(
                    format!("{an}<{fname}*>{bn}"),
                    fam,
                    Formula::Reach(f, *a, *b),
                ),
            });
        }
    }
}

/// `dle(x, y)` for every ordered pair of distinct variables: the data order between two
/// variables' nodes.
fn data_order(terms: &[(Term, String)], out: &mut Vec<Pred>) {
    let nodes: Vec<&(Term, String)> = terms.iter().filter(|(t, _)| *t != Term::Null).collect();
    for (a, an) in &nodes {
        for (b, bn) in nodes.iter().filter(|(t, _)| t != a) {
            let name = format!("dle({an}, {bn})");
            out.push(pred(name, &Family::Dle, Formula::Dle(*a, *b)));
        }
    }
}

/// Every instance of the spec family `def`: injective choices of fields for its roles and of
/// terms for its parameters (`null` only where the parameter is marked `?`).
fn spec_family(
    sys: &System,
    def: &PredFamily,
    fam: &Family,
    fields: &[(usize, String)],
    terms: &[(Term, String)],
    out: &mut Vec<Pred>,
) -> Result<(), String> {
    let field_choices = injective(fields.len(), def.fields.len(), &|_, _| true);
    let may = |slot: usize, i: usize| terms[i].0 != Term::Null || def.params[slot].1;
    let term_choices = injective(terms.len(), def.params.len(), &may);
    for fs in &field_choices {
        let fidx: Vec<usize> = fs.iter().map(|&i| fields[i].0).collect();
        let fnames: Vec<&str> = fs.iter().map(|&i| fields[i].1.as_str()).collect();
        for ts in &term_choices {
            let args: Vec<Term> = ts.iter().map(|&i| terms[i].0).collect();
            let anames: Vec<&str> = ts.iter().map(|&i| terms[i].1.as_str()).collect();
            let formula = assertion::instance(sys, def, &fidx, &args)?;
            let name = format!("{}[{}]({})", def.name, fnames.join(", "), anames.join(", "));
            out.push(pred(name, fam, formula));
        }
    }
    Ok(())
}

/// Every sequence of `k` distinct indices below `n` whose index at each position `slot`
/// passes `ok(slot, index)`, in lexicographic order.
fn injective(n: usize, k: usize, ok: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut out = vec![];
    let mut cur = vec![];
    extend(n, k, ok, &mut cur, &mut out);
    out
}

fn extend(
    n: usize,
    k: usize,
    ok: &dyn Fn(usize, usize) -> bool,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if cur.len() == k {
        out.push(cur.clone());
        return;
    }
    for i in 0..n {
        if !cur.contains(&i) && ok(cur.len(), i) {
            cur.push(i);
            extend(n, k, ok, cur, out);
            cur.pop();
        }
    }
}

/// `forall a. alloc(a) -> x<f*>a || y<f*>a || ...` over every variable.
fn rooted(f: usize, vars: &[(usize, String)]) -> Formula {
    let a = Term::Bound(1);
    let reached = (vars.iter())
        .map(|(v, _)| Formula::Reach(f, Term::Var(*v), a))
        .collect();
    Formula::Forall(
        vec![1],
        Box::new(Formula::Alloc(a).implies(Formula::Or(reached))),
    )
}

#[cfg(test)]
mod tests {
    //! Instantiation counts, the fragment, and the library's definitions against the
    //! paper's formulas (as the engine wrote them before families moved to the spec
    //! language), compared by a solver.
    use super::*;
    use crate::program::frontend::load_source;
    use crate::program::property::{Property, PropertySet};
    use crate::techniques::seed002::flat::Flat;
    use crate::techniques::seed003::epr::{Voc, constant};
    use z3::{SatResult, Solver};

    /// A system over `struct node { n, p, d }` with the library's families.
    fn system() -> System {
        let prog = load_source(
            "struct node { struct node *n; struct node *p; int d; };
             int main(void) {
               struct node *x = 0; struct node *y = 0;
               if (x && y && x->d <= y->d) return 1;
               return 0; }",
        );
        let props = PropertySet([Property::ValidDeref].into());
        let mut sys = System::new(Flat::new(&prog).expect("flat"), &props, true).expect("sys");
        sys.families = shapecheck_library::spec().families.clone();
        sys
    }

    fn library(names: &[&str]) -> Vec<Family> {
        (names.iter())
            .map(|n| Family::Spec(n.to_string()))
            .collect()
    }

    #[test]
    fn every_body_is_alternation_free_and_counts_are_quadratic() {
        let sys = system();
        let vars = vec![(0, "x".to_string()), (1, "y".to_string())];
        let mut fams = Family::ATOMS.to_vec();
        fams.push(Family::Rooted);
        fams.extend(library(&["ls", "stable", "rev", "sorted"]));
        let ps = instantiate(&sys, &fams, &vars).expect("instantiates");
        assert!(ps.iter().all(|p| p.formula.is_alternation_free()));
        // Terms x, y, null: 3 equalities, per field 4 ordered pairs with a non-null source.
        let count = |fam: &Family| ps.iter().filter(|p| &p.family == fam).count();
        assert_eq!(count(&Family::Eq), 3);
        assert_eq!(count(&Family::Reach), 8);
        assert_eq!(count(&Family::Edge), 8);
        assert_eq!(count(&Family::Alloc), 2);
        assert_eq!(count(&Family::Rooted), 2);
        let [ls, stable, rev, sorted] = &library(&["ls", "stable", "rev", "sorted"])[..] else {
            unreachable!()
        };
        assert_eq!(count(ls), 8);
        assert_eq!(count(stable), 4);
        // Two ordered pairs of distinct fields, 4 pairs of nodes each.
        assert_eq!(count(rev), 8);
        assert_eq!(count(sorted), 8);
        // `sorted` orders data: dle(x, y) and dle(y, x) join.
        assert_eq!(count(&Family::Dle), 2);
        for name in [
            "ls[n](x, null)",
            "rev[n, p](y, x)",
            "stable[p](y)",
            "dle(y, x)",
        ] {
            assert!(ps.iter().any(|p| p.name == name), "{name}");
        }
        // Only a parameter marked `?` ranges over null.
        assert!(!ps.iter().any(|p| p.name.starts_with("ls[n](null")));
    }

    const A: Term = Term::Bound(1);
    const B: Term = Term::Bound(2);

    fn forall2(body: Formula) -> Formula {
        Formula::Forall(vec![1, 2], Box::new(body))
    }

    fn on_segment(f: usize, x: Term, y: Term) -> Vec<Formula> {
        vec![
            Formula::Eq(A, Term::Null).negate(),
            Formula::Eq(B, Term::Null).negate(),
            Formula::Reach(f, x, A),
            Formula::Reach(f, A, y),
            Formula::Reach(f, x, B),
            Formula::Reach(f, B, y),
        ]
    }

    /// The paper's definitions, as the engine wrote them by hand before.
    fn reference(name: &str, f: usize, g: usize, x: Term, y: Term) -> Formula {
        match name {
            "ls" => forall2(
                Formula::And(vec![
                    Formula::Reach(f, x, A),
                    Formula::Reach(f, A, y),
                    Formula::Eq(A, y).negate(),
                    Formula::Reach(f, B, A),
                ])
                .implies(Formula::Or(vec![
                    Formula::Reach(f, B, x),
                    Formula::Reach(f, x, B),
                ])),
            ),
            "stable" => Formula::Forall(
                vec![1],
                Box::new(Formula::Reach(f, x, A).implies(Formula::Or(vec![
                    Formula::Alloc(A),
                    Formula::Eq(A, Term::Null),
                ]))),
            ),
            "rev" => forall2(
                Formula::And(on_segment(f, x, y))
                    .implies(Formula::Reach(f, A, B).iff(Formula::Reach(g, B, A))),
            ),
            _ => {
                let mut hyp = on_segment(f, x, y);
                hyp.push(Formula::Reach(f, A, B));
                forall2(Formula::And(hyp).implies(Formula::Dle(A, B)))
            }
        }
    }

    #[test]
    fn the_library_defines_the_papers_families() {
        let sys = system();
        let null = constant("null");
        let names = ["x".to_string(), "y".to_string()];
        let v = Voc::fresh("", &names, 2, &[], true, &null);
        let (x, y) = (Term::Var(0), Term::Var(1));
        for (name, fields, args) in [
            ("ls", vec![0], vec![x, y]),
            ("ls", vec![1], vec![y, Term::Null]),
            ("stable", vec![0], vec![x]),
            ("rev", vec![0, 1], vec![x, y]),
            ("rev", vec![1, 0], vec![y, Term::Null]),
            ("sorted", vec![0], vec![x, y]),
        ] {
            let def = sys.families.iter().find(|d| d.name == name).expect("def");
            let ours = assertion::instance(&sys, def, &fields, &args).expect("lowers");
            let g = fields.get(1).copied().unwrap_or(0);
            let theirs = reference(name, fields[0], g, args[0], *args.last().expect("arg"));
            let s = Solver::new();
            for a in v.axioms() {
                s.assert(&a);
            }
            s.assert(v.encode(&ours.iff(theirs).negate()));
            assert_eq!(s.check(), SatResult::Unsat, "{name}{fields:?}{args:?}");
        }
    }

    #[test]
    fn a_weaker_definition_is_told_apart() {
        // The differential check above can fail: `ls` without `a != y` is another family.
        let sys = system();
        let null = constant("null");
        let names = ["x".to_string(), "y".to_string()];
        let v = Voc::fresh("", &names, 2, &[], true, &null);
        let spec = shapecheck_dsl::load(
            "family ls2[f](x, y?) := forall a, b. f*(x, a) && f*(a, y) && f*(b, a) \
             -> f*(b, x) || f*(x, b);",
        )
        .expect("checks");
        let (x, y) = (Term::Var(0), Term::Var(1));
        let ours = assertion::instance(&sys, &spec.families[0], &[0], &[x, y]).expect("lowers");
        let s = Solver::new();
        for a in v.axioms() {
            s.assert(&a);
        }
        s.assert(v.encode(&ours.iff(reference("ls", 0, 0, x, y)).negate()));
        assert_eq!(s.check(), SatResult::Sat);
    }
}

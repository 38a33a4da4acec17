//! The predicate families of seed 003 (Tables 1 and 3) and their instantiation.
//!
//! Consumes the pointer variables live at a cut point and the pointer fields of the list
//! struct; produces the predicates of full predicate abstraction there: every enabled family
//! instantiated over the variables and `null` (quadratic for the binary families, as in the
//! paper), each with its defining AF^R formula and a readable name.

use super::logic::{Formula, Term};

/// A family of predicates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// `x = y`.
    Eq,
    /// `x<f>y`: `x->f == y`.
    Edge,
    /// `x<f*>y`.
    Reach,
    /// `f.ls[x, y]`: the segment from x to y is not shared.
    Ls,
    /// `alloc(x)`.
    Alloc,
    /// `f.stable(x)`: every node on x's f-path is allocated (or null).
    Stable,
    /// `f/b.rev[x, y]`: b is the reverse of f on the segment from x to y.
    Rev,
    /// `f.sorted[x, y]`: the data along the segment from x to y is ordered by `dle`.
    Sorted,
    /// `f.rooted`: every allocated node is reached from a variable along `f` (no garbage;
    /// one nullary predicate per field and cut point, for valid-memtrack).
    Rooted,
}

impl Family {
    /// The families of the paper's top part of Table 1 (its blank configuration).
    pub const BASE: [Family; 4] = [Family::Eq, Family::Edge, Family::Reach, Family::Ls];

    /// Its name in configurations and reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Eq => "eq",
            Family::Edge => "edge",
            Family::Reach => "reach",
            Family::Ls => "ls",
            Family::Alloc => "alloc",
            Family::Stable => "stable",
            Family::Rev => "rev",
            Family::Sorted => "sorted",
            Family::Rooted => "rooted",
        }
    }

    /// Every family.
    pub const ALL: [Family; 9] = [
        Family::Eq,
        Family::Edge,
        Family::Reach,
        Family::Ls,
        Family::Alloc,
        Family::Stable,
        Family::Rev,
        Family::Sorted,
        Family::Rooted,
    ];

    /// The family of a name.
    pub fn parse(s: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == s)
    }
}

/// A predicate instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pred {
    /// Its readable name (`x<n*>y`, `n.ls[x, y]`, ...).
    pub name: String,
    /// Its family.
    pub family: Family,
    /// Its definition.
    pub formula: Formula,
}

/// Instantiates `families` over the variables `vars` (indices into the vocabulary, with
/// their names) and `null`, for the fields `fields` (indices and names).
pub fn instantiate(
    families: &[Family],
    vars: &[(usize, String)],
    fields: &[(usize, String)],
) -> Vec<Pred> {
    let mut terms: Vec<(Term, String)> = vars
        .iter()
        .map(|(v, n)| (Term::Var(*v), n.clone()))
        .collect();
    terms.push((Term::Null, "null".into()));
    let mut out = vec![];
    for &fam in families {
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
                for (f, fname) in fields {
                    out.push(pred(format!("{fname}.rooted"), fam, rooted(*f, vars)));
                }
            }
            _ => {
                for (f, fname) in fields {
                    binary(fam, *f, fname, fields, &terms, &mut out);
                }
            }
        }
    }
    out
}

/// The equality of two variables (by index, with the vocabulary's names).
pub fn equal(u: usize, v: usize, names: &[String]) -> Pred {
    pred(
        format!("{} = {}", names[u], names[v]),
        Family::Eq,
        Formula::Eq(Term::Var(u), Term::Var(v)),
    )
}

fn pred(name: String, family: Family, formula: Formula) -> Pred {
    Pred {
        name,
        family,
        formula,
    }
}

fn binary(
    fam: Family,
    f: usize,
    fname: &str,
    fields: &[(usize, String)],
    terms: &[(Term, String)],
    out: &mut Vec<Pred>,
) {
    for (a, an) in terms.iter().filter(|(t, _)| *t != Term::Null) {
        if fam == Family::Stable {
            out.push(pred(format!("{fname}.stable({an})"), fam, stable(f, *a)));
            continue;
        }
        for (b, bn) in terms.iter().filter(|(t, _)| t != a) {
            match fam {
                Family::Edge => out.push(pred(
                    format!("{an}<{fname}>{bn}"),
                    fam,
                    Formula::edge(f, *a, *b, 0),
                )),
                Family::Reach => out.push(pred(
                    format!("{an}<{fname}*>{bn}"),
                    fam,
                    Formula::Reach(f, *a, *b),
                )),
                Family::Ls => out.push(pred(format!("{fname}.ls[{an}, {bn}]"), fam, ls(f, *a, *b))),
                Family::Sorted => {
                    out.push(pred(
                        format!("{fname}.sorted[{an}, {bn}]"),
                        fam,
                        sorted(f, *a, *b),
                    ));
                    // The data order between two variables' nodes, once (not per field).
                    if f == fields[0].0 && *b != Term::Null {
                        out.push(pred(format!("dle({an}, {bn})"), fam, Formula::Dle(*a, *b)));
                    }
                }
                Family::Rev => {
                    for (g, gname) in fields.iter().filter(|(g, _)| *g != f) {
                        out.push(pred(
                            format!("{fname}/{gname}.rev[{an}, {bn}]"),
                            fam,
                            rev(f, *g, *a, *b),
                        ))
                    }
                }
                _ => {}
            }
        }
    }
}

const A: Term = Term::Bound(1);
const B: Term = Term::Bound(2);

fn forall2(body: Formula) -> Formula {
    Formula::Forall(vec![1, 2], Box::new(body))
}

/// `forall a, b. x<f*>a && a<f*>y && a != y && b<f*>a -> (b<f*>x || x<f*>b)`: no node
/// outside the segment from x up to (not including) y points into it. The end y is left
/// out, as in separation logic's `ls(x, y)`: with it, `ls[x, null]` would say that every
/// list of the heap runs through x (all lists end in null).
pub(crate) fn ls(f: usize, x: Term, y: Term) -> Formula {
    forall2(
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
    )
}

/// `forall a. x<f*>a -> alloc(a) || a = null`.
pub(crate) fn stable(f: usize, x: Term) -> Formula {
    Formula::Forall(
        vec![1],
        Box::new(Formula::Reach(f, x, A).implies(Formula::Or(vec![
            Formula::Alloc(A),
            Formula::Eq(A, Term::Null),
        ]))),
    )
}

/// `forall a. alloc(a) -> x<f*>a || y<f*>a || ...` over every variable.
fn rooted(f: usize, vars: &[(usize, String)]) -> Formula {
    let reached = (vars.iter())
        .map(|(v, _)| Formula::Reach(f, Term::Var(*v), A))
        .collect();
    Formula::Forall(
        vec![1],
        Box::new(Formula::Alloc(A).implies(Formula::Or(reached))),
    )
}

/// The nodes `a` and `b` lie on the segment from `x` to `y` and are not null.
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

/// `forall a, b on the segment. a<f*>b <-> b<g*>a`.
pub(crate) fn rev(f: usize, g: usize, x: Term, y: Term) -> Formula {
    forall2(
        Formula::And(on_segment(f, x, y))
            .implies(Formula::Reach(f, A, B).iff(Formula::Reach(g, B, A))),
    )
}

/// `forall a, b on the segment. a<f*>b -> dle(a, b)`.
pub(crate) fn sorted(f: usize, x: Term, y: Term) -> Formula {
    let mut hyp = on_segment(f, x, y);
    hyp.push(Formula::Reach(f, A, B));
    forall2(Formula::And(hyp).implies(Formula::Dle(A, B)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_body_is_alternation_free_and_counts_are_quadratic() {
        let vars = vec![(0, "x".to_string()), (1, "y".to_string())];
        let fields = vec![(0, "n".to_string()), (1, "p".to_string())];
        let ps = instantiate(&Family::ALL, &vars, &fields);
        assert!(ps.iter().all(|p| p.formula.is_alternation_free()));
        // Terms x, y, null: 3 equalities, per field 4 ordered pairs with a non-null source.
        let count = |fam| ps.iter().filter(|p| p.family == fam).count();
        assert_eq!(count(Family::Eq), 3);
        assert_eq!(count(Family::Reach), 8);
        assert_eq!(count(Family::Edge), 8);
        assert_eq!(count(Family::Alloc), 2);
        assert_eq!(count(Family::Stable), 4);
        assert_eq!(count(Family::Rev), 8);
        assert_eq!(count(Family::Rooted), 2);
        assert!(ps.iter().any(|p| p.name == "n.ls[x, null]"));
    }
}

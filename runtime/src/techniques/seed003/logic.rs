//! The reachability logic AF^R of seed 003 and the checks that keep queries decidable.
//!
//! Consumes nothing; produces [`Formula`]s over the program's pointer variables, `null`,
//! bound node variables, the reachability relations `f*` of the pointer fields, the ghost
//! relation `alloc` and the data order `dle`; the fragment tests ([`Formula::is_universal`],
//! [`Formula::is_alternation_free`], [`Formula::is_epr`]) that every formula handed to the
//! solver must pass; and the evaluation of a formula on a finite heap read back from a model
//! ([`FiniteHeap`]), which computes the abstraction β of a model.

use std::fmt;

/// A term: a program pointer variable (by its index in the engine's vocabulary), `null`, or a
/// bound node variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// The vocabulary's variable `i`.
    Var(usize),
    /// The null pointer (a node that reaches only itself).
    Null,
    /// A bound variable.
    Bound(u32),
}

/// A formula of the reachability logic.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Formula {
    /// A truth value.
    Const(bool),
    /// `t1 = t2`.
    Eq(Term, Term),
    /// `t1 <f*> t2`: an `f`-path (possibly empty) from `t1` to `t2`.
    Reach(usize, Term, Term),
    /// `alloc(t)`: `t` is allocated and not freed.
    Alloc(Term),
    /// `dle(t1, t2)`: the data of `t1` is at most that of `t2`.
    Dle(Term, Term),
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction.
    And(Vec<Formula>),
    /// Disjunction.
    Or(Vec<Formula>),
    /// Universal quantification over nodes.
    Forall(Vec<u32>, Box<Formula>),
    /// Existential quantification over nodes.
    Exists(Vec<u32>, Box<Formula>),
}

impl Formula {
    /// `¬self`.
    pub fn negate(self) -> Formula {
        match self {
            Formula::Not(f) => *f,
            Formula::Const(b) => Formula::Const(!b),
            f => Formula::Not(Box::new(f)),
        }
    }

    /// `self -> other`.
    pub fn implies(self, other: Formula) -> Formula {
        Formula::Or(vec![self.negate(), other])
    }

    /// `self <-> other`.
    pub fn iff(self, other: Formula) -> Formula {
        Formula::And(vec![
            self.clone().implies(other.clone()),
            other.implies(self),
        ])
    }

    /// `t1 <f+> t2`: a non-empty path.
    pub fn reach_plus(f: usize, a: Term, b: Term) -> Formula {
        Formula::And(vec![Formula::Reach(f, a, b), Formula::Eq(a, b).negate()])
    }

    /// `E_f(a, b)`, that is `a->f == b`, defined from `f*` on acyclic chains:
    /// `a <f+> b && forall g. a <f+> g -> b <f*> g`, with `g` the bound variable `fresh`.
    pub fn edge(f: usize, a: Term, b: Term, fresh: u32) -> Formula {
        let g = Term::Bound(fresh);
        Formula::And(vec![
            Formula::reach_plus(f, a, b),
            Formula::Forall(
                vec![fresh],
                Box::new(Formula::reach_plus(f, a, g).implies(Formula::Reach(f, b, g))),
            ),
        ])
    }

    /// The conjuncts of a conjunction (nested ones flattened), or the formula itself.
    pub fn conjuncts(&self) -> Vec<&Formula> {
        match self {
            Formula::And(fs) => fs.iter().flat_map(Formula::conjuncts).collect(),
            f => vec![f],
        }
    }

    /// Adds the vocabulary variables the formula mentions to `out`.
    pub fn vars(&self, out: &mut std::collections::BTreeSet<usize>) {
        let mut term = |t: &Term| {
            if let Term::Var(v) = t {
                out.insert(*v);
            }
        };
        match self {
            Formula::Const(_) => {}
            Formula::Eq(a, b) | Formula::Reach(_, a, b) | Formula::Dle(a, b) => {
                term(a);
                term(b)
            }
            Formula::Alloc(a) => term(a),
            Formula::Not(a) | Formula::Forall(_, a) | Formula::Exists(_, a) => a.vars(out),
            Formula::And(xs) | Formula::Or(xs) => xs.iter().for_each(|x| x.vars(out)),
        }
    }

    /// Adds the (variable, field) pairs of the paths `x<f*>t` from a vocabulary variable `x`
    /// the formula mentions to `out`.
    pub fn sources(&self, out: &mut std::collections::BTreeSet<(usize, usize)>) {
        match self {
            Formula::Reach(f, Term::Var(x), _) => {
                out.insert((*x, *f));
            }
            Formula::Not(a) | Formula::Forall(_, a) | Formula::Exists(_, a) => a.sources(out),
            Formula::And(xs) | Formula::Or(xs) => xs.iter().for_each(|x| x.sources(out)),
            _ => {}
        }
    }

    /// Whether the formula is universal: in negation normal form, only `forall` occurs.
    pub fn is_universal(&self) -> bool {
        self.quantifiers(true).1 == 0
    }

    /// Whether the formula is alternation-free (AF^R): a Boolean combination of universal
    /// formulas, so that in negation normal form no quantifier occurs under one of the other
    /// kind.
    pub fn is_alternation_free(&self) -> bool {
        !self.alternates(true, None)
    }

    /// Whether the formula is in the decidable fragment a query may use (EPR after the
    /// reduction): in negation normal form, no `exists` under a `forall`.
    pub fn is_epr(&self) -> bool {
        !self.exists_under_forall(true, false)
    }

    /// (foralls, exists) in negation normal form under `positive` polarity.
    fn quantifiers(&self, positive: bool) -> (usize, usize) {
        let mut n = (0, 0);
        self.walk_nnf(positive, &mut |q, pos| {
            if pos == q { n.0 += 1 } else { n.1 += 1 }
        });
        n
    }

    /// Visits every quantifier with (is_forall_syntactically, polarity).
    fn walk_nnf(&self, positive: bool, f: &mut dyn FnMut(bool, bool)) {
        match self {
            Formula::Not(a) => a.walk_nnf(!positive, f),
            Formula::And(xs) | Formula::Or(xs) => xs.iter().for_each(|x| x.walk_nnf(positive, f)),
            Formula::Forall(_, a) => {
                f(true, positive);
                a.walk_nnf(positive, f)
            }
            Formula::Exists(_, a) => {
                f(false, positive);
                a.walk_nnf(positive, f)
            }
            _ => {}
        }
    }

    /// Whether, in negation normal form, a quantifier occurs under one of the other kind
    /// (`outer`: the kind of the innermost enclosing quantifier, true for forall).
    fn alternates(&self, positive: bool, outer: Option<bool>) -> bool {
        match self {
            Formula::Not(a) => a.alternates(!positive, outer),
            Formula::And(xs) | Formula::Or(xs) => xs.iter().any(|x| x.alternates(positive, outer)),
            Formula::Forall(_, a) | Formula::Exists(_, a) => {
                let kind = matches!(self, Formula::Forall(..)) == positive;
                outer.is_some_and(|o| o != kind) || a.alternates(positive, Some(kind))
            }
            _ => false,
        }
    }

    fn exists_under_forall(&self, positive: bool, under: bool) -> bool {
        match self {
            Formula::Not(a) => a.exists_under_forall(!positive, under),
            Formula::And(xs) | Formula::Or(xs) => {
                xs.iter().any(|x| x.exists_under_forall(positive, under))
            }
            Formula::Forall(_, a) | Formula::Exists(_, a) => {
                let forall = matches!(self, Formula::Forall(..)) == positive;
                (!forall && under) || a.exists_under_forall(positive, under || forall)
            }
            _ => false,
        }
    }
}

/// A finite heap: a model of the logic read back from the solver. Nodes are `0..size`.
#[derive(Clone, Debug)]
pub struct FiniteHeap {
    /// The number of nodes.
    pub size: usize,
    /// The node of each vocabulary variable.
    pub vars: Vec<usize>,
    /// The node of `null`.
    pub null: usize,
    /// `reach[f][a][b]`: `a <f*> b`.
    pub reach: Vec<Vec<Vec<bool>>>,
    /// `alloc[a]`.
    pub alloc: Vec<bool>,
    /// `dle[a][b]`, when the data order is in the vocabulary.
    pub dle: Option<Vec<Vec<bool>>>,
}

impl FiniteHeap {
    /// The value of a closed formula (bound variables range over the nodes).
    pub fn eval(&self, f: &Formula) -> bool {
        self.eval_in(f, &mut vec![])
    }

    fn term(&self, t: &Term, env: &[(u32, usize)]) -> usize {
        match t {
            Term::Var(v) => self.vars[*v],
            Term::Null => self.null,
            Term::Bound(b) => env
                .iter()
                .rev()
                .find(|(x, _)| x == b)
                .map(|(_, n)| *n)
                .unwrap_or(self.null),
        }
    }

    fn eval_in(&self, f: &Formula, env: &mut Vec<(u32, usize)>) -> bool {
        match f {
            Formula::Const(b) => *b,
            Formula::Eq(a, b) => self.term(a, env) == self.term(b, env),
            Formula::Reach(fi, a, b) => self.reach[*fi][self.term(a, env)][self.term(b, env)],
            Formula::Alloc(a) => self.alloc[self.term(a, env)],
            Formula::Dle(a, b) => self
                .dle
                .as_ref()
                .is_some_and(|d| d[self.term(a, env)][self.term(b, env)]),
            Formula::Not(a) => !self.eval_in(a, env),
            Formula::And(xs) => xs.iter().all(|x| self.eval_in(x, env)),
            Formula::Or(xs) => xs.iter().any(|x| self.eval_in(x, env)),
            Formula::Forall(vs, a) => self.quantify(vs, a, env, true),
            Formula::Exists(vs, a) => self.quantify(vs, a, env, false),
        }
    }

    /// The heap, readable: per node (null left out) the variables pointing to it (those with a
    /// non-empty name; a last line for those at null), whether it
    /// is allocated, and its successor along each field (`?` when its path does not end).
    pub fn describe(&self, vars: &[String], fields: &[String]) -> Vec<String> {
        let name = |n: usize| {
            if n == self.null {
                "null".to_string()
            } else {
                format!("n{n}")
            }
        };
        let held = |n: usize| -> Vec<&str> {
            (self.vars.iter().zip(vars))
                .filter(|(v, x)| **v == n && !x.is_empty())
                .map(|(_, x)| x.as_str())
                .collect()
        };
        let at_null = held(self.null);
        let null_line = (!at_null.is_empty()).then(|| format!("null ({})", at_null.join(", ")));
        (0..self.size)
            .filter(|&n| n != self.null)
            .map(|n| {
                let mut line = name(n);
                let held = held(n);
                if !held.is_empty() {
                    line.push_str(&format!(" ({})", held.join(", ")));
                }
                line.push_str(if self.alloc[n] {
                    ": allocated"
                } else {
                    ": not allocated"
                });
                for (f, fname) in fields.iter().enumerate() {
                    let next = self.successor(f, n).map_or("?".to_string(), name);
                    line.push_str(&format!(", {fname} -> {next}"));
                }
                line
            })
            .chain(null_line)
            .collect()
    }

    /// The node right after `a` along field `f`: the first node of `a`'s strict successors.
    pub fn successor(&self, f: usize, a: usize) -> Option<usize> {
        let r = &self.reach[f];
        let after: Vec<usize> = (0..self.size).filter(|&b| b != a && r[a][b]).collect();
        after
            .iter()
            .copied()
            .find(|&b| after.iter().all(|&c| r[b][c]))
    }

    fn quantify(&self, vs: &[u32], a: &Formula, env: &mut Vec<(u32, usize)>, all: bool) -> bool {
        let Some((&v, rest)) = vs.split_first() else {
            return self.eval_in(a, env);
        };
        for n in 0..self.size {
            env.push((v, n));
            let r = self.quantify(rest, a, env, all);
            env.pop();
            if r != all {
                return !all;
            }
        }
        all
    }
}

/// Prints formulas with the vocabulary's variable and field names.
pub struct Names<'a> {
    /// Variable names, by index.
    pub vars: &'a [String],
    /// Field names, by index.
    pub fields: &'a [String],
}

impl Names<'_> {
    /// A term's name.
    pub fn term(&self, t: &Term) -> String {
        match t {
            Term::Var(v) => self
                .vars
                .get(*v)
                .cloned()
                .unwrap_or_else(|| format!("v{v}")),
            Term::Null => "null".into(),
            Term::Bound(b) => format!("a{b}"),
        }
    }

    /// A formula, in the paper's notation.
    pub fn formula(&self, f: &Formula) -> String {
        Shown(self, f).to_string()
    }
}

struct Shown<'a, 'b>(&'a Names<'b>, &'a Formula);

impl fmt::Display for Shown<'_, '_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        let field = |i: &usize| n.fields.get(*i).cloned().unwrap_or_else(|| format!("f{i}"));
        let join = |xs: &[Formula], op: &str| {
            xs.iter()
                .map(|x| format!("({})", Shown(n, x)))
                .collect::<Vec<_>>()
                .join(op)
        };
        match self.1 {
            Formula::Const(b) => write!(out, "{b}"),
            Formula::Eq(a, b) => write!(out, "{} = {}", n.term(a), n.term(b)),
            Formula::Reach(f, a, b) => write!(out, "{}<{}*>{}", n.term(a), field(f), n.term(b)),
            Formula::Alloc(a) => write!(out, "alloc({})", n.term(a)),
            Formula::Dle(a, b) => write!(out, "dle({}, {})", n.term(a), n.term(b)),
            Formula::Not(a) => match &**a {
                Formula::Eq(x, y) => write!(out, "{} != {}", n.term(x), n.term(y)),
                a => write!(out, "!({})", Shown(n, a)),
            },
            Formula::And(xs) if xs.is_empty() => write!(out, "true"),
            Formula::Or(xs) if xs.is_empty() => write!(out, "false"),
            Formula::And(xs) => write!(out, "{}", join(xs, " && ")),
            Formula::Or(xs) => write!(out, "{}", join(xs, " || ")),
            Formula::Forall(vs, a) | Formula::Exists(vs, a) => {
                let q = if matches!(self.1, Formula::Forall(..)) {
                    "forall"
                } else {
                    "exists"
                };
                let vs: Vec<String> = vs.iter().map(|v| format!("a{v}")).collect();
                write!(out, "{q} {}. {}", vs.join(", "), Shown(n, a))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Term {
        Term::Var(0)
    }

    #[test]
    fn fragments() {
        let e = Formula::edge(0, x(), Term::Null, 1);
        assert!(e.is_universal());
        assert!(e.is_alternation_free());
        // A negated universal is existential: still alternation-free, not universal.
        assert!(!e.clone().negate().is_universal());
        assert!(e.clone().negate().is_alternation_free());
        // forall a. exists b. a <f*> b is outside EPR.
        let fa = Formula::Forall(
            vec![1],
            Box::new(Formula::Exists(
                vec![2],
                Box::new(Formula::Reach(0, Term::Bound(1), Term::Bound(2))),
            )),
        );
        assert!(!fa.is_epr());
        assert!(!fa.is_alternation_free());
        // exists b. forall a. ... is EPR but not alternation-free.
        let ea = Formula::Exists(
            vec![2],
            Box::new(Formula::Forall(
                vec![1],
                Box::new(Formula::Reach(0, Term::Bound(1), Term::Bound(2))),
            )),
        );
        assert!(ea.is_epr());
        assert!(!ea.is_alternation_free());
        // Under negation the kinds swap.
        assert!(!ea.negate().is_epr());
    }

    #[test]
    fn conjuncts_flatten_nested_conjunctions_only() {
        let r = Formula::Reach(0, x(), Term::Null);
        let a = Formula::Alloc(x());
        let or = Formula::Or(vec![r.clone(), a.clone()]);
        let f = Formula::And(vec![r.clone(), Formula::And(vec![a.clone(), or.clone()])]);
        assert_eq!(f.conjuncts(), vec![&r, &a, &or]);
        assert_eq!(or.conjuncts(), vec![&or]);
        let names = Names {
            vars: &["x".to_string()],
            fields: &["next".to_string()],
        };
        assert_eq!(names.formula(f.conjuncts()[0]), "x<next*>null");
    }

    #[test]
    fn evaluation_on_a_two_node_list() {
        // Node 0 is null, node 1 is x, x->f == null.
        let h = FiniteHeap {
            size: 2,
            vars: vec![1],
            null: 0,
            reach: vec![vec![vec![true, false], vec![true, true]]],
            alloc: vec![false, true],
            dle: None,
        };
        assert!(h.eval(&Formula::edge(0, x(), Term::Null, 7)));
        assert!(!h.eval(&Formula::edge(0, Term::Null, x(), 7)));
        assert!(h.eval(&Formula::Alloc(x())));
        let all_alloc = Formula::Forall(
            vec![3],
            Box::new(
                Formula::Reach(0, x(), Term::Bound(3)).implies(Formula::Or(vec![
                    Formula::Alloc(Term::Bound(3)),
                    Formula::Eq(Term::Bound(3), Term::Null),
                ])),
            ),
        );
        assert!(h.eval(&all_alloc));
    }
}

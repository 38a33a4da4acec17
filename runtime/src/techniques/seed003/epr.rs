//! The reduction of the reachability logic to EPR, and models read back as finite heaps.
//!
//! Consumes [`Formula`]s and a [`Voc`] (one copy of the vocabulary: a node constant per
//! pointer variable, a binary relation `R_f` per field standing for `f*`, the unary `alloc`, the
//! binary `dle`); produces Z3 terms over an uninterpreted node sort, the background axioms
//! Γ_linOrd of every field (reflexive, transitive, antisymmetric, linear, and `null` reaches
//! only itself), and, from a model, the [`FiniteHeap`] of one copy of the vocabulary.
//! Proposition 1 of the paper: a formula is satisfiable iff its translation is, together with
//! the axioms of each copy it mentions.

use super::logic::{FiniteHeap, Formula, Term};
use z3::ast::{Ast, Bool, Dynamic};
use z3::{FuncDecl, Model, Sort};

/// The node sort.
pub fn node() -> Sort {
    Sort::uninterpreted("Node".into())
}

/// A relation symbol, shared between copies of a state.
pub type Rel = std::rc::Rc<FuncDecl>;

/// One copy of the vocabulary.
#[derive(Clone, Debug)]
pub struct Voc {
    /// The node of each pointer variable.
    pub vars: Vec<Dynamic>,
    /// The node `null` (shared by every copy).
    pub null: Dynamic,
    /// `R_f` per field.
    pub reach: Vec<Rel>,
    /// `alloc`.
    pub alloc: Rel,
    /// `dle`, when data is ordered.
    pub dle: Option<Rel>,
}

/// A fresh binary relation on nodes.
pub fn relation(name: &str) -> Rel {
    let n = node();
    Rel::new(FuncDecl::new(fresh_name(name), &[&n, &n], &Sort::bool()))
}

/// A fresh unary relation on nodes.
pub fn set(name: &str) -> Rel {
    Rel::new(FuncDecl::new(fresh_name(name), &[&node()], &Sort::bool()))
}

/// A fresh node constant.
pub fn constant(name: &str) -> Dynamic {
    Dynamic::fresh_const(name, &node())
}

fn fresh_name(name: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("{name}!{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// `r(a, b)`.
pub fn app2(r: &FuncDecl, a: &Dynamic, b: &Dynamic) -> Bool {
    r.apply(&[a as &dyn Ast, b as &dyn Ast])
        .as_bool()
        .unwrap_or_else(|| Bool::from_bool(false))
}

/// `s(a)`.
pub fn app1(s: &FuncDecl, a: &Dynamic) -> Bool {
    s.apply(&[a as &dyn Ast])
        .as_bool()
        .unwrap_or_else(|| Bool::from_bool(false))
}

/// `forall bound. body`.
pub fn forall(bound: &[&Dynamic], body: &Bool) -> Bool {
    let b: Vec<&dyn Ast> = bound.iter().map(|d| *d as &dyn Ast).collect();
    z3::ast::forall_const(&b, &[], body)
}

impl Voc {
    /// A fresh copy with `vars` variables (named after `names`) and `fields` fields.
    pub fn fresh(tag: &str, names: &[String], fields: usize, dle: bool, null: &Dynamic) -> Voc {
        Voc {
            vars: names
                .iter()
                .map(|n| constant(&format!("{n}{tag}")))
                .collect(),
            null: null.clone(),
            reach: (0..fields)
                .map(|f| relation(&format!("R{f}{tag}")))
                .collect(),
            alloc: set(&format!("alloc{tag}")),
            dle: dle.then(|| relation(&format!("dle{tag}"))),
        }
    }

    /// The translation of a formula (bound variables become Z3 bound constants).
    pub fn encode(&self, f: &Formula) -> Bool {
        self.enc(f, &mut vec![])
    }

    /// The translation of a formula whose bound variable `id` is free, standing for `node`.
    pub fn encode_at(&self, f: &Formula, id: u32, node: &Dynamic) -> Bool {
        self.enc(f, &mut vec![(id, node.clone())])
    }

    fn term(&self, t: &Term, env: &[(u32, Dynamic)]) -> Dynamic {
        match t {
            Term::Var(v) => self.vars[*v].clone(),
            Term::Null => self.null.clone(),
            Term::Bound(b) => env
                .iter()
                .rev()
                .find(|(x, _)| x == b)
                .map(|(_, d)| d.clone())
                .unwrap_or_else(|| self.null.clone()),
        }
    }

    fn enc(&self, f: &Formula, env: &mut Vec<(u32, Dynamic)>) -> Bool {
        match f {
            Formula::Const(b) => Bool::from_bool(*b),
            Formula::Eq(a, b) => self.term(a, env).eq(self.term(b, env)),
            Formula::Reach(fi, a, b) => {
                app2(&self.reach[*fi], &self.term(a, env), &self.term(b, env))
            }
            Formula::Alloc(a) => app1(&self.alloc, &self.term(a, env)),
            Formula::Dle(a, b) => match &self.dle {
                Some(d) => app2(d, &self.term(a, env), &self.term(b, env)),
                None => Bool::from_bool(true),
            },
            Formula::Not(a) => self.enc(a, env).not(),
            Formula::And(xs) => Bool::and(&xs.iter().map(|x| self.enc(x, env)).collect::<Vec<_>>()),
            Formula::Or(xs) => Bool::or(&xs.iter().map(|x| self.enc(x, env)).collect::<Vec<_>>()),
            Formula::Forall(vs, a) | Formula::Exists(vs, a) => {
                let consts: Vec<Dynamic> = vs.iter().map(|_| constant("q")).collect();
                let n = env.len();
                env.extend(vs.iter().copied().zip(consts.iter().cloned()));
                let body = self.enc(a, env);
                env.truncate(n);
                let bound: Vec<&dyn Ast> = consts.iter().map(|d| d as &dyn Ast).collect();
                if matches!(f, Formula::Forall(..)) {
                    z3::ast::forall_const(&bound, &[], &body)
                } else {
                    z3::ast::exists_const(&bound, &[], &body)
                }
            }
        }
    }

    /// Γ_linOrd for every field of this copy, `null` ending every path, `null` never
    /// allocated, and `dle` a total preorder.
    pub fn axioms(&self) -> Vec<Bool> {
        let mut out: Vec<Bool> = self
            .reach
            .iter()
            .flat_map(|r| lin_ord(r, &self.null))
            .collect();
        out.push(app1(&self.alloc, &self.null).not());
        if let Some(d) = &self.dle {
            let (a, b, c) = (constant("a"), constant("b"), constant("c"));
            out.push(forall(
                &[&a, &b],
                &Bool::or(&[app2(d, &a, &b), app2(d, &b, &a)]),
            ));
            out.push(forall(
                &[&a, &b, &c],
                &Bool::and(&[app2(d, &a, &b), app2(d, &b, &c)]).implies(app2(d, &a, &c)),
            ));
        }
        out
    }

    /// The finite heap of this copy in `model` (its universe is the model's node universe).
    pub fn read(&self, model: &Model) -> Option<FiniteHeap> {
        let universe: Vec<Dynamic> = model.get_sort_universe(&node())?.iter().collect();
        let index = |d: &Dynamic| -> Option<usize> {
            let v = model.eval(d, true)?;
            universe.iter().position(|u| *u == v)
        };
        let truth = |b: Bool| {
            model
                .eval(&b, true)
                .and_then(|v| v.as_bool())
                .unwrap_or(false)
        };
        let n = universe.len();
        let rel = |r: &Rel| -> Vec<Vec<bool>> {
            (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| truth(app2(r, &universe[i], &universe[j])))
                        .collect()
                })
                .collect()
        };
        Some(FiniteHeap {
            size: n,
            vars: self.vars.iter().map(&index).collect::<Option<Vec<_>>>()?,
            null: index(&self.null)?,
            reach: self.reach.iter().map(rel).collect(),
            alloc: (0..n)
                .map(|i| truth(app1(&self.alloc, &universe[i])))
                .collect(),
            dle: self.dle.as_ref().map(rel),
        })
    }
}

/// Γ_linOrd of one relation, with `null` reaching only itself.
fn lin_ord(r: &Rel, null: &Dynamic) -> Vec<Bool> {
    let (a, b, c) = (constant("a"), constant("b"), constant("c"));
    let rr = |x: &Dynamic, y: &Dynamic| app2(r, x, y);
    vec![
        forall(&[&a], &rr(&a, &a)),
        forall(
            &[&a, &b, &c],
            &Bool::and(&[rr(&a, &b), rr(&b, &c)]).implies(rr(&a, &c)),
        ),
        forall(
            &[&a, &b],
            &Bool::and(&[rr(&a, &b), rr(&b, &a)]).implies(a.eq(&b)),
        ),
        forall(
            &[&a, &b, &c],
            &Bool::and(&[rr(&a, &b), rr(&a, &c)]).implies(Bool::or(&[rr(&b, &c), rr(&c, &b)])),
        ),
        forall(&[&a], &rr(null, &a).implies(a.eq(null))),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    #[test]
    fn an_edge_and_its_model() {
        let null = constant("null");
        let v = Voc::fresh("", &["x".into(), "y".into()], 1, false, &null);
        let s = Solver::new();
        for a in v.axioms() {
            s.assert(&a);
        }
        // x->n == y, y->n == null, x allocated.
        s.assert(v.encode(&Formula::edge(0, Term::Var(0), Term::Var(1), 0)));
        s.assert(v.encode(&Formula::edge(0, Term::Var(1), Term::Null, 0)));
        s.assert(v.encode(&Formula::Alloc(Term::Var(0))));
        assert_eq!(s.check(), SatResult::Sat);
        let h = v.read(&s.get_model().unwrap()).unwrap();
        assert!(h.eval(&Formula::Reach(0, Term::Var(0), Term::Null)));
        assert!(h.eval(&Formula::edge(0, Term::Var(0), Term::Var(1), 0)));
        assert!(!h.eval(&Formula::Eq(Term::Var(0), Term::Var(1))));
        // And x<n*>null cannot fail: acyclicity and linearity force it.
        s.assert(v.encode(&Formula::Reach(0, Term::Var(0), Term::Null).negate()));
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn null_is_never_allocated_and_reaches_only_itself() {
        let null = constant("null");
        let v = Voc::fresh("", &["x".into()], 1, false, &null);
        let s = Solver::new();
        for a in v.axioms() {
            s.assert(&a);
        }
        s.assert(v.encode(&Formula::Reach(0, Term::Null, Term::Var(0))));
        s.assert(v.encode(&Formula::Alloc(Term::Var(0))));
        assert_eq!(s.check(), SatResult::Unsat);
    }
}

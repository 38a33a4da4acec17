//! The reduction of the reachability logic to EPR, and models read back as finite heaps.
//!
//! Consumes [`Formula`]s and a [`Voc`] (one copy of the vocabulary: a node constant per
//! pointer variable, a binary relation `R_f` per field standing for `f*`, the unary `alloc`, the
//! binary `dle`, and a binary relation per tree backbone standing for the paths along the
//! union of its fields); produces Z3 terms over an uninterpreted node sort, the background
//! axioms Γ_linOrd of every field (reflexive, transitive, antisymmetric, linear, and `null`
//! reaches only itself), the forest axioms of every backbone, and, from a model, the
//! [`FiniteHeap`] of one copy of the vocabulary. Proposition 1 of the paper: a formula over
//! fields is satisfiable iff its translation is, together with the axioms of each copy it
//! mentions.
//!
//! A backbone `t[f1, ..., fk]` departs from the paper (which decided trees with MONA): its
//! relation `T` holds of `(a, b)` when `a = b` or a non-empty path along the fields leads
//! from `a` to `b ≠ null`. Its axioms hold of every forest: `T` is a partial order, the
//! nodes above any node are totally ordered, `null` is related only to itself, and every
//! path along one member field to a node other than `null` is a `T` path. They are sound but
//! not complete: no axiom says that a path leaves a node through one of its children (that
//! would put an existential under a universal and leave EPR), so a fact such as "a node
//! whose fields are all `null` has no descendant" must be stated with `t*` where a proof
//! needs it. A query the axioms cannot decide fails to prove, never proves wrongly. Only
//! the bounded checks, which need real heaps, add that axiom
//! ([`Voc::backbone_paths`]).

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
    /// The member fields of each backbone: backbone `j` is relation
    /// `reach.len() - backbones.len() + j` of `reach`.
    pub backbones: Vec<Vec<usize>>,
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
    /// A fresh copy with `vars` variables (named after `names`), `fields` fields and the
    /// backbones over the member fields `backbones`.
    pub fn fresh(
        tag: &str,
        names: &[String],
        fields: usize,
        backbones: &[Vec<usize>],
        dle: bool,
        null: &Dynamic,
    ) -> Voc {
        Voc {
            vars: names
                .iter()
                .map(|n| constant(&format!("{n}{tag}")))
                .collect(),
            null: null.clone(),
            reach: (0..fields + backbones.len())
                .map(|f| relation(&format!("R{f}{tag}")))
                .collect(),
            alloc: set(&format!("alloc{tag}")),
            dle: dle.then(|| relation(&format!("dle{tag}"))),
            backbones: backbones.to_vec(),
        }
    }

    /// The number of fields (the relations before the backbones').
    pub fn fields(&self) -> usize {
        self.reach.len() - self.backbones.len()
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
        let fields = self.fields();
        let mut out: Vec<Bool> = self.reach[..fields]
            .iter()
            .flat_map(|r| lin_ord(r, &self.null))
            .collect();
        for (j, members) in self.backbones.iter().enumerate() {
            let t = &self.reach[fields + j];
            let members: Vec<&Rel> = members.iter().map(|&f| &self.reach[f]).collect();
            out.extend(forest(t, &members, &self.null));
            out.extend(childless_when_free(t, &members, &self.alloc, &self.null));
        }
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

    /// For each backbone, over a finite universe of nodes `universe` (which the caller
    /// asserts is every node): every path of it leaves its source through an edge of a
    /// member field, `∀a, b. T(a, b) ∧ a ≠ b → ⋁_{f, u ∈ universe} E_f(a, u) ∧ T(u, b)`. True
    /// of every heap of that size, and with it every model's backbone relation is the paths
    /// of its edges; only the bounded checks assert it, whose models must be real heaps for
    /// the concrete replay. Over an unbounded universe the existential would leave EPR (Z3
    /// gives up on it, and on the same axiom with the fields as function symbols it is
    /// erratic); over a finite one it is a disjunction. A counterexample that needs more
    /// nodes is missed, which costs the FALSE, never a TRUE.
    pub fn backbone_paths(&self, universe: &[Dynamic]) -> Vec<Bool> {
        let fields = self.fields();
        let (a, b, g) = (constant("a"), constant("b"), constant("g"));
        let mut out = vec![];
        for (j, members) in self.backbones.iter().enumerate() {
            let t = &self.reach[fields + j];
            let mut steps = vec![];
            for &f in members {
                let r = &self.reach[f];
                let plus = |x: &Dynamic, z: &Dynamic| Bool::and(&[app2(r, x, z), x.eq(z).not()]);
                for u in universe {
                    let edge = Bool::and(&[
                        plus(&a, u),
                        forall(&[&g], &plus(&a, &g).implies(app2(r, u, &g))),
                    ]);
                    steps.push(Bool::and(&[edge, u.eq(&self.null).not(), app2(t, u, &b)]));
                }
            }
            out.push(forall(
                &[&a, &b],
                &Bool::and(&[app2(t, &a, &b), a.eq(&b).not()]).implies(Bool::or(&steps)),
            ));
            out.extend(self.one_parent(members, universe));
        }
        out
    }

    /// Over a finite universe: no node but `null` is the target of two member edges (two
    /// fields of one node, or of two nodes), which the forest axioms alone allow when the
    /// sources are ordered along the backbone. A parent function names the one source; each
    /// edge `E_f(a, c)` is quantifier-free once its `∀` is expanded over the universe.
    fn one_parent(&self, members: &[usize], universe: &[Dynamic]) -> Vec<Bool> {
        let (a, c) = (constant("a"), constant("c"));
        let parent = FuncDecl::new(fresh_name("parent"), &[&node()], &node());
        let edges: Vec<Bool> = (members.iter())
            .map(|&f| ground_edge(&self.reach[f], &a, &c, universe))
            .collect();
        let some = c.eq(&self.null).not();
        let mut out = vec![];
        for (i, e) in edges.iter().enumerate() {
            let named = parent.apply(&[&c]).eq(&a);
            out.push(forall(&[&a, &c], &Bool::and(&[e, &some]).implies(named)));
            for d in &edges[i + 1..] {
                out.push(forall(&[&a, &c], &Bool::and(&[e, d, &some]).not()));
            }
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

/// The axioms of backbone relation `t` over the member fields' relations: a partial order
/// whose nodes above any node are totally ordered (a forest), `null` related only to
/// itself, and every path along a member to a node other than `null` a path of `t`.
fn forest(t: &Rel, members: &[&Rel], null: &Dynamic) -> Vec<Bool> {
    let (a, b, c) = (constant("a"), constant("b"), constant("c"));
    let tt = |x: &Dynamic, y: &Dynamic| app2(t, x, y);
    let mut out = partial_order(t, null);
    out.push(forall(
        &[&a, &b, &c],
        &Bool::and(&[tt(&a, &c), tt(&b, &c)]).implies(Bool::or(&[tt(&a, &b), tt(&b, &a)])),
    ));
    out.push(forall(&[&a], &tt(&a, null).implies(a.eq(null))));
    for r in members {
        out.push(forall(
            &[&a, &b],
            &Bool::and(&[app2(r, &a, &b), b.eq(null).not()]).implies(tt(&a, &b)),
        ));
    }
    out
}

/// `E(u, c)` of field relation `r` over a finite universe: `c` is `u`'s successor, a
/// ground formula.
fn ground_edge(r: &Rel, u: &Dynamic, c: &Dynamic, universe: &[Dynamic]) -> Bool {
    let mut all = vec![app2(r, u, c), u.eq(c).not()];
    for w in universe {
        let plus = Bool::and(&[app2(r, u, w), u.eq(w).not()]);
        all.push(plus.implies(app2(r, c, w)));
    }
    Bool::and(&all)
}

/// An unallocated node has `null` children along backbone `t` (its `members`, so no
/// descendants): C leaves the contents of memory not allocated undefined, and the logic
/// fixes them to `null` (a free cuts the node's children, a malloc then finds none).
fn childless_when_free(t: &Rel, members: &[&Rel], alloc: &Rel, null: &Dynamic) -> Vec<Bool> {
    let (a, b) = (constant("a"), constant("b"));
    let free = app1(alloc, &a).not();
    let mut out = vec![forall(
        &[&a, &b],
        &Bool::and(&[free.clone(), app2(t, &a, &b)]).implies(a.eq(&b)),
    )];
    for r in members {
        out.push(forall(&[&a], &free.implies(app2(r, &a, null))));
    }
    out
}

/// Γ_linOrd of one relation, with `null` reaching only itself.
fn lin_ord(r: &Rel, null: &Dynamic) -> Vec<Bool> {
    let (a, b, c) = (constant("a"), constant("b"), constant("c"));
    let rr = |x: &Dynamic, y: &Dynamic| app2(r, x, y);
    let mut out = partial_order(r, null);
    out.push(forall(
        &[&a, &b, &c],
        &Bool::and(&[rr(&a, &b), rr(&a, &c)]).implies(Bool::or(&[rr(&b, &c), rr(&c, &b)])),
    ));
    out
}

/// `r` reflexive, transitive and antisymmetric, with `null` related only to itself.
fn partial_order(r: &Rel, null: &Dynamic) -> Vec<Bool> {
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
        let v = Voc::fresh("", &["x".into(), "y".into()], 1, &[], false, &null);
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
    fn a_backbone_holds_its_fields_paths_and_is_a_forest() {
        let null = constant("null");
        let names = ["x".into(), "y".into(), "z".into()];
        let v = Voc::fresh("", &names, 2, &[vec![0, 1]], false, &null);
        let (x, y, z) = (Term::Var(0), Term::Var(1), Term::Var(2));
        let s = Solver::new();
        for a in v.axioms() {
            s.assert(&a);
        }
        // x->l == y and z->r == y, y not null: y is below both, so x and z are ordered.
        s.assert(v.encode(&Formula::edge(0, x, y, 0)));
        s.assert(v.encode(&Formula::edge(1, z, y, 0)));
        s.assert(v.encode(&Formula::Eq(y, Term::Null).negate()));
        assert_eq!(s.check(), SatResult::Sat);
        let h = v.read(&s.get_model().unwrap()).unwrap();
        assert!(h.eval(&Formula::Reach(2, x, y)) && h.eval(&Formula::Reach(2, z, y)));
        s.assert(v.encode(&Formula::Eq(x, z).negate()));
        s.assert(v.encode(&Formula::Reach(2, x, z).negate()));
        s.assert(v.encode(&Formula::Reach(2, z, x).negate()));
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn backbone_paths_make_a_backbone_path_a_path_of_edges() {
        let null = constant("null");
        let universe: Vec<Dynamic> = (0..4).map(|_| constant("u")).collect();
        let v = Voc::fresh(
            "",
            &["x".into(), "y".into()],
            2,
            &[vec![0, 1]],
            false,
            &null,
        );
        let (x, y) = (Term::Var(0), Term::Var(1));
        // x has no children, yet the axioms alone let it be above y.
        let leaf = [
            v.encode(&Formula::edge(0, x, Term::Null, 0)),
            v.encode(&Formula::edge(1, x, Term::Null, 0)),
            v.encode(&Formula::reach_plus(2, x, y)),
        ];
        let s = Solver::new();
        for a in v.axioms().iter().chain(&leaf) {
            s.assert(a);
        }
        assert_eq!(s.check(), SatResult::Sat);
        // Every backbone path leaves its source through an edge: no longer.
        let x = constant("x");
        let every: Vec<Bool> = universe.iter().map(|u| x.eq(u)).collect();
        s.assert(forall(&[&x], &Bool::or(&every)));
        for a in v.backbone_paths(&universe) {
            s.assert(&a);
        }
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn a_bounded_backbone_gives_each_node_one_parent() {
        let null = constant("null");
        let universe: Vec<Dynamic> = (0..4).map(|_| constant("u")).collect();
        let names = ["x".into(), "y".into(), "z".into()];
        let v = Voc::fresh("", &names, 2, &[vec![0, 1]], false, &null);
        let (x, y, z) = (Term::Var(0), Term::Var(1), Term::Var(2));
        let some = v.encode(&Formula::Eq(y, Term::Null).negate());
        let bounded = |s: &Solver| {
            let w = constant("w");
            let every: Vec<Bool> = universe.iter().map(|u| w.eq(u)).collect();
            s.assert(forall(&[&w], &Bool::or(&every)));
            for a in v.axioms().iter().chain(&v.backbone_paths(&universe)) {
                s.assert(a);
            }
            s.assert(&some);
        };
        // x->l == x->r == y: the forest axioms alone allow it (one pair, t(x, y)).
        let both = [
            v.encode(&Formula::edge(0, x, y, 0)),
            v.encode(&Formula::edge(1, x, y, 0)),
        ];
        let s = Solver::new();
        for a in v.axioms().iter().chain(&both) {
            s.assert(a);
        }
        s.assert(&some);
        assert_eq!(s.check(), SatResult::Sat);
        let s = Solver::new();
        bounded(&s);
        both.iter().for_each(|a| s.assert(a));
        assert_eq!(s.check(), SatResult::Unsat);
        // x->l == y and z->l == y for x != z: two parents.
        let s = Solver::new();
        bounded(&s);
        s.assert(v.encode(&Formula::edge(0, x, y, 0)));
        s.assert(v.encode(&Formula::edge(0, z, y, 0)));
        s.assert(v.encode(&Formula::Eq(x, z).negate()));
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn an_unallocated_node_has_no_backbone_children() {
        let null = constant("null");
        let v = Voc::fresh(
            "",
            &["x".into(), "y".into()],
            2,
            &[vec![0, 1]],
            false,
            &null,
        );
        let (x, y) = (Term::Var(0), Term::Var(1));
        let s = Solver::new();
        for a in v.axioms() {
            s.assert(&a);
        }
        s.assert(v.encode(&Formula::Alloc(x).negate()));
        assert_eq!(s.check(), SatResult::Sat);
        // Its links end in null at once, and nothing but itself is below it.
        let h = v.read(&s.get_model().unwrap()).unwrap();
        assert!(h.eval(&Formula::edge(0, x, Term::Null, 0)));
        s.assert(v.encode(&Formula::reach_plus(2, x, y)));
        assert_eq!(s.check(), SatResult::Unsat);
    }

    #[test]
    fn null_is_never_allocated_and_reaches_only_itself() {
        let null = constant("null");
        let v = Voc::fresh("", &["x".into()], 1, &[], false, &null);
        let s = Solver::new();
        for a in v.axioms() {
            s.assert(&a);
        }
        s.assert(v.encode(&Formula::Reach(0, Term::Null, Term::Var(0))));
        s.assert(v.encode(&Formula::Alloc(Term::Var(0))));
        assert_eq!(s.check(), SatResult::Unsat);
    }
}

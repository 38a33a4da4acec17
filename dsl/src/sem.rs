//! Three-valued evaluation of formulas against an engine's own semantics.
//!
//! [`Sem3`] is what evaluating a formula asks of a structure: the value of a field edge, of
//! the tracked pointer, of node equality and summary nodes, the connectives and quantifiers
//! (so that an engine can record what a value depends on), a predicate atom (so that an
//! engine can read a predicate it stores instead of evaluating its body) and a transitive
//! closure (so that an engine can compute and cache it over the nodes it chooses). Roles are
//! bound to field *indices* of the engine's choosing.
//!
//! Two evaluators drive the trait and must agree: [`formula3`]/[`predicate3`] interpret the
//! Spec IR, and the code `shapecheck_macros::spec!` generates for each predicate body makes the
//! same calls in the same order (`CompiledPredicate::eval3`). [`Plain`] implements the trait
//! over any [`Structure3`] with the textbook semantics (every predicate evaluated, closures over
//! the whole universe).

use crate::eval::{Kleene, Structure3};
use crate::ir::{Formula, PredId, Rel, Spec};
use std::cell::RefCell;
use std::collections::HashMap;

/// A relation whose closure is taken, with its roles bound: a field, or a binary predicate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The field with this index.
    Field(usize),
    /// The predicate with its roles bound to these field indices.
    Pred(PredId, Vec<usize>),
}

/// The semantics three-valued evaluation needs (see the module documentation).
pub trait Sem3 {
    /// `a == b`.
    fn eq(&self, a: usize, b: usize) -> Kleene;
    /// The edge of field `field` (an index) from `a` to `b`.
    fn field(&self, field: usize, a: usize, b: usize) -> Kleene;
    /// The tracked pointer points to `a` (0 when the evaluation has no pointer).
    fn pointer(&self, a: usize) -> Kleene;
    /// `a` is a summary node.
    fn summary(&self, a: usize) -> Kleene;
    /// `a && b`.
    fn and(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene;
    /// `a || b`.
    fn or(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene;
    /// `a -> b`.
    fn implies(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene;
    /// `a <-> b`.
    fn iff(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        a().iff(b())
    }
    /// `exists v. body(v)`.
    fn exists(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene;
    /// `forall v. body(v)`.
    fn forall(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene;
    /// Predicate `p` with its roles bound to `roles` on `args`; `body(roles, args)` evaluates
    /// its definition.
    fn pred(
        &self,
        p: PredId,
        roles: &[usize],
        args: &[usize],
        body: &dyn Fn(&[usize], &[usize]) -> Kleene,
    ) -> Kleene;
    /// `rel+(a, b)`, or `rel*(a, b)` when `reflexive`; `rel(x, y)` evaluates the relation.
    fn closure(
        &self,
        rel: &Bound,
        reflexive: bool,
        a: usize,
        b: usize,
        value: &dyn Fn(usize, usize) -> Kleene,
    ) -> Kleene;
}

/// The field indices that the roles `rs` of a used predicate name, given the enclosing
/// declaration's `roles` (unbound roles are left out).
pub fn bind(roles: &[usize], rs: &[usize]) -> Vec<usize> {
    rs.iter().filter_map(|r| roles.get(*r).copied()).collect()
}

/// The field index bound to role `r`, if it is bound.
pub fn role(roles: &[usize], r: usize) -> Option<usize> {
    roles.get(r).copied()
}

/// The edge of the field bound to role `r` (0 when `r` is unbound).
pub fn role_field(c: &dyn Sem3, roles: &[usize], r: usize, a: usize, b: usize) -> Kleene {
    match roles.get(r) {
        Some(f) => c.field(*f, a, b),
        None => Kleene::False,
    }
}

/// The value of predicate `p` (roles bound to `roles`) on `args`, by the interpreter.
pub fn predicate3(spec: &Spec, c: &dyn Sem3, p: PredId, roles: &[usize], args: &[usize]) -> Kleene {
    let decl = &spec.predicates[p.0];
    let mut env = vec![0; decl.slots.max(args.len())];
    env[..args.len()].copy_from_slice(args);
    formula3(spec, c, &decl.body, roles, &RefCell::new(env))
}

/// The value of formula `f` (roles bound to `roles`, variable slots in `env`), by the
/// interpreter.
pub fn formula3(
    spec: &Spec,
    c: &dyn Sem3,
    f: &Formula,
    roles: &[usize],
    env: &RefCell<Vec<usize>>,
) -> Kleene {
    let at = |v: usize| env.borrow()[v];
    let go = |g: &Formula| formula3(spec, c, g, roles, env);
    match f {
        Formula::True => Kleene::True,
        Formula::False => Kleene::False,
        Formula::Eq(a, b) => c.eq(at(*a), at(*b)),
        Formula::Field(r, a, b) => role_field(c, roles, *r, at(*a), at(*b)),
        Formula::Pointer(a) => c.pointer(at(*a)),
        Formula::Summary(a) => c.summary(at(*a)),
        Formula::Pred(p, rs, args) => {
            let vals: Vec<usize> = args.iter().map(|a| at(*a)).collect();
            let body = |r2: &[usize], a2: &[usize]| predicate3(spec, c, *p, r2, a2);
            c.pred(*p, &bind(roles, rs), &vals, &body)
        }
        Formula::Closure {
            rel,
            reflexive,
            from,
            to,
        } => closure3(spec, c, rel, *reflexive, roles, at(*from), at(*to)),
        Formula::Not(a) => go(a).not(),
        Formula::And(a, b) => c.and(&|| go(a), &|| go(b)),
        Formula::Or(a, b) => c.or(&|| go(a), &|| go(b)),
        Formula::Implies(a, b) => c.implies(&|| go(a), &|| go(b)),
        Formula::Iff(a, b) => c.iff(&|| go(a), &|| go(b)),
        Formula::Exists(v, body) => quantify(c, env, *v, &|| go(body), true),
        Formula::Forall(v, body) => quantify(c, env, *v, &|| go(body), false),
    }
}

/// `exists v` (`existential`) or `forall v` over the body, with slot `v` restored after.
fn quantify(
    c: &dyn Sem3,
    env: &RefCell<Vec<usize>>,
    v: usize,
    body: &dyn Fn() -> Kleene,
    existential: bool,
) -> Kleene {
    let saved = env.borrow()[v];
    let at = |u: usize| {
        env.borrow_mut()[v] = u;
        body()
    };
    let r = match existential {
        true => c.exists(&at),
        false => c.forall(&at),
    };
    env.borrow_mut()[v] = saved;
    r
}

/// A closure atom: the relation bound to the enclosing roles, evaluated through `c`.
pub fn closure3(
    spec: &Spec,
    c: &dyn Sem3,
    rel: &Rel,
    reflexive: bool,
    roles: &[usize],
    a: usize,
    b: usize,
) -> Kleene {
    match rel {
        Rel::Field(r) => match roles.get(*r) {
            Some(f) => {
                let f = *f;
                c.closure(&Bound::Field(f), reflexive, a, b, &|x, y| c.field(f, x, y))
            }
            None => Kleene::False,
        },
        Rel::Pred(p, rs) => {
            let bound = bind(roles, rs);
            let body = |r2: &[usize], a2: &[usize]| predicate3(spec, c, *p, r2, a2);
            let value = |x: usize, y: usize| c.pred(*p, &bound, &[x, y], &body);
            c.closure(&Bound::Pred(*p, bound.clone()), reflexive, a, b, &value)
        }
    }
}

/// The max-min (reflexive-)transitive closure of `value` over `nodes`, row-major by position
/// in `nodes`: the best path's weakest edge (Floyd–Warshall over Kleene's `and`/`or`); the
/// reflexive closure adds `eq(u, u)` on the diagonal (a summary node is only maybe itself).
pub fn max_min_closure(
    nodes: &[usize],
    reflexive: bool,
    value: &dyn Fn(usize, usize) -> Kleene,
    eq: &dyn Fn(usize, usize) -> Kleene,
) -> Vec<Kleene> {
    let k = nodes.len();
    let mut m = vec![Kleene::False; k * k];
    for i in 0..k {
        for j in 0..k {
            m[i * k + j] = value(nodes[i], nodes[j]);
        }
    }
    for via in 0..k {
        for i in 0..k {
            for j in 0..k {
                let path = m[i * k + via].and(m[via * k + j]);
                m[i * k + j] = m[i * k + j].or(path);
            }
        }
    }
    if reflexive {
        for i in 0..k {
            m[i * k + i] = m[i * k + i].or(eq(nodes[i], nodes[i]));
        }
    }
    m
}

/// [`Sem3`] over a [`Structure3`]: field `i` is `fields[i]`, every predicate is evaluated,
/// connectives are Kleene's, closures are max-min closures over the universe (cached).
pub struct Plain<'a> {
    s: &'a dyn Structure3,
    fields: &'a [String],
    pointer: Option<&'a str>,
    nodes: Vec<usize>,
    closures: RefCell<HashMap<(Bound, bool), Vec<Kleene>>>,
}

impl<'a> Plain<'a> {
    /// `s` with fields named by index and the tracked pointer `pointer`.
    pub fn new(s: &'a dyn Structure3, fields: &'a [String], pointer: Option<&'a str>) -> Self {
        Plain {
            s,
            fields,
            pointer,
            nodes: s.nodes(),
            closures: RefCell::new(HashMap::new()),
        }
    }

    fn matrix(&self, value: &dyn Fn(usize, usize) -> Kleene, reflexive: bool) -> Vec<Kleene> {
        let eq = |a: usize, b: usize| self.eq(a, b);
        max_min_closure(&self.nodes, reflexive, value, &eq)
    }
}

impl Sem3 for Plain<'_> {
    fn eq(&self, a: usize, b: usize) -> Kleene {
        if a == b {
            self.s.summary(a).not()
        } else {
            Kleene::False
        }
    }

    fn field(&self, field: usize, a: usize, b: usize) -> Kleene {
        match self.fields.get(field) {
            Some(f) => self.s.field(f, a, b),
            None => Kleene::False,
        }
    }

    fn pointer(&self, a: usize) -> Kleene {
        match self.pointer {
            Some(x) => self.s.pointer(x, a),
            None => Kleene::False,
        }
    }

    fn summary(&self, a: usize) -> Kleene {
        self.s.summary(a)
    }

    fn and(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        a().and(b())
    }

    fn or(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        a().or(b())
    }

    fn implies(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        a().implies(b())
    }

    fn exists(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene {
        self.nodes
            .iter()
            .fold(Kleene::False, |acc, n| acc.or(body(*n)))
    }

    fn forall(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene {
        self.nodes
            .iter()
            .fold(Kleene::True, |acc, n| acc.and(body(*n)))
    }

    fn pred(
        &self,
        _: PredId,
        roles: &[usize],
        args: &[usize],
        body: &dyn Fn(&[usize], &[usize]) -> Kleene,
    ) -> Kleene {
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
        let key = (rel.clone(), reflexive);
        let cached = self.closures.borrow().get(&key).cloned();
        let m = match cached {
            Some(m) => m,
            None => {
                let m = self.matrix(value, reflexive);
                self.closures.borrow_mut().insert(key, m.clone());
                m
            }
        };
        let pos = |n: usize| self.nodes.iter().position(|x| *x == n);
        match (pos(a), pos(b)) {
            (Some(i), Some(j)) => m[i * self.nodes.len() + j],
            _ => Kleene::False,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Kleene::*;

    /// A three-node structure: 0 -> 1 (1/2), 1 -> 2 (1), 2 -> 0 (1/2); node 2 a summary.
    struct Tri;

    impl Structure3 for Tri {
        fn nodes(&self) -> Vec<usize> {
            vec![0, 1, 2]
        }
        fn field(&self, _: &str, a: usize, b: usize) -> Kleene {
            match (a, b) {
                (0, 1) | (2, 0) => Half,
                (1, 2) => True,
                _ => False,
            }
        }
        fn pointer(&self, _: &str, n: usize) -> Kleene {
            Kleene::from_bool(n == 0)
        }
        fn summary(&self, n: usize) -> Kleene {
            if n == 2 { Half } else { False }
        }
    }

    #[test]
    fn closure_takes_the_best_path_minimum() {
        let fields = ["next".to_string()];
        let c = Plain::new(&Tri, &fields, Some("x"));
        let f = Bound::Field(0);
        let rel = |a, b| c.field(0, a, b);
        assert_eq!(c.closure(&f, false, 1, 2, &rel), True);
        assert_eq!(c.closure(&f, false, 0, 2, &rel), Half);
        assert_eq!(c.closure(&f, false, 1, 1, &rel), Half);
        assert_eq!(c.closure(&f, true, 1, 1, &rel), True);
        assert_eq!(c.closure(&f, true, 2, 2, &rel), Half);
        assert_eq!(c.closure(&f, true, 0, 7, &rel), False);
        assert_eq!(c.eq(2, 2), Half);
        assert_eq!(c.pointer(0), True);
    }
}

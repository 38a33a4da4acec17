//! Finite differencing of closure predicates: bounds on the new value of a predicate defined
//! as a transitive closure, from its old value and the tuples of the closed relation that an
//! update added or removed (TVLA's update formulas for reachability, after Reps, Sagiv and
//! Loginov).
//!
//! Consumes the old and new graph of one update and a closure instance (`R*(v, w)`,
//! `R+(v, w)`, `R+(v, v)`, or reachability from a tracked pointer `exists u. x(u) && R*(u,
//! v)` when the update left `x` alone); produces, per tuple, an upper bound (a new path must use an
//! added edge: `old(v, w) || exists (a, b) added. R'*(v, a) && R'*(b, w)`) and a lower bound
//! (an old path survives if no removed edge lies on any: `old(v, w) && !exists (a, b)
//! removed. R*(v, a) && R*(b, w)`). Re-evaluating the definition alone loses what the old
//! value knew about the individuals a summary node stands for (a summary with a possible
//! self-edge always looks possibly cyclic); the bounds keep it.

use super::formula::Eval;
use super::graph::{F, Graph, H, T};
use super::vocab::{Instr, PredKind, Vocab, bind_roles};
use shapecheck_dsl::eval::Kleene;
use shapecheck_dsl::ir::{Formula, Rel};

/// The closure shapes the bounds apply to.
pub struct ClosureDelta {
    rel: Rel,
    /// The field indices the relation's roles are bound to.
    roles: Vec<usize>,
    shape: Shape,
    added: Vec<(usize, usize)>,
    removed: Vec<(usize, usize)>,
}

/// Which closure an instance is.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    /// Binary `R*(v, w)` or `R+(v, w)`.
    Binary,
    /// Unary `R+(v, v)` (cyclicity).
    Diagonal,
    /// Unary `exists u. x(u) && R*(u, v)` (reachability from tracked pointer `x`, whose
    /// targets did not change).
    FromPointer(usize),
}

fn rank(k: Kleene) -> u8 {
    match k {
        F => 0,
        H => 1,
        T => 2,
    }
}

/// If `body` is `x(u) && R*(u, 0)` (either order; `R*` a closure or a predicate defined as
/// one), the relation and the field indices its roles are bound to.
fn reach_body(v: &Vocab, u: usize, body: &Formula, roles: &[usize]) -> Option<(Rel, Vec<usize>)> {
    let Formula::And(a, b) = body else {
        return None;
    };
    let star = |x: &Formula, r: &Formula| -> Option<(Rel, Vec<usize>)> {
        if !matches!(x, Formula::Pointer(w) if *w == u) {
            return None;
        }
        match r {
            Formula::Closure {
                rel,
                reflexive: true,
                from,
                to: 0,
            } if *from == u => Some((rel.clone(), roles.to_vec())),
            Formula::Pred(p, rs, args) if args[..] == [u, 0] => {
                let bound = bind_roles(roles, rs);
                match &v.decl(*p).body {
                    Formula::Closure {
                        rel,
                        reflexive: true,
                        from: 0,
                        to: 1,
                    } => Some((rel.clone(), bound)),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    star(a, b).or_else(|| star(b, a))
}

impl ClosureDelta {
    /// The delta of instance `inst` between `old` and `new` (same nodes), if its body is a
    /// closure of one of the supported shapes.
    pub fn new(v: &Vocab, inst: &Instr, old: &Graph, new: &Graph) -> Option<ClosureDelta> {
        if old.n != new.n {
            return None;
        }
        let decl = v.decl(inst.pred);
        let (rel, roles, shape) = match (&decl.body, inst.pointer) {
            (
                Formula::Closure {
                    rel,
                    from: 0,
                    to: 1,
                    ..
                },
                None,
            ) if decl.arity == 2 => (rel.clone(), inst.roles.clone(), Shape::Binary),
            (
                Formula::Closure {
                    rel,
                    reflexive: false,
                    from: 0,
                    to: 0,
                },
                None,
            ) if decl.arity == 1 => (rel.clone(), inst.roles.clone(), Shape::Diagonal),
            (Formula::Exists(u, body), Some(x)) if decl.arity == 1 => {
                let pt = v.pt(x);
                if (0..new.n).any(|w| old.get(v, pt, &[w]) != new.get(v, pt, &[w])) {
                    return None;
                }
                let (rel, roles) = reach_body(v, *u, body, &inst.roles)?;
                (rel, roles, Shape::FromPointer(x))
            }
            _ => return None,
        };
        let relf = match &rel {
            Rel::Field(r) => Formula::Field(*r, 0, 1),
            Rel::Pred(p, rs) => Formula::Pred(*p, rs.clone(), vec![0, 1]),
        };
        let (eo, en) = (Eval::new(v, old, inst, None), Eval::new(v, new, inst, None));
        let mut d = ClosureDelta {
            rel,
            roles,
            shape,
            added: vec![],
            removed: vec![],
        };
        for &a in &en.nodes {
            // A store of an unknown value leaves `1/2` tuples whose cells may have changed.
            let blurred = touched_unknown(v, old, a) || touched_unknown(v, new, a);
            for &b in &en.nodes {
                let was = eo.formula(&relf, &d.roles, vec![a, b]);
                let now = en.formula(&relf, &d.roles, vec![a, b]);
                if rank(now) > rank(was) || (blurred && now == H) {
                    d.added.push((a, b));
                }
                if rank(now) < rank(was) || (blurred && now == H) {
                    d.removed.push((a, b));
                }
            }
        }
        Some(d)
    }

    /// Whether the update left the relation as it was.
    pub fn unchanged(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }

    /// Sharpens `val`, the re-evaluated value of the instance on `t`, with the bounds.
    pub fn sharpen(
        &self,
        v: &Vocab,
        inst: &Instr,
        (old, new): (&Graph, &Graph),
        t: &[usize],
        val: Kleene,
    ) -> Kleene {
        if val != H {
            return val;
        }
        let was = old.get(v, inst.id, t);
        let star = Formula::Closure {
            rel: self.rel.clone(),
            reflexive: true,
            from: 0,
            to: 1,
        };
        // The sources of the paths: the tuple's first node, or the pointer's targets.
        let sources = |g: &Graph| -> Vec<(usize, Kleene)> {
            match self.shape {
                Shape::FromPointer(x) => (0..g.n)
                    .map(|u| (u, g.get(v, v.pt(x), &[u])))
                    .filter(|(_, k)| *k != F)
                    .collect(),
                _ => vec![(t[0], T)],
            }
        };
        let b0 = if self.shape == Shape::Binary {
            t[1]
        } else {
            t[0]
        };
        let via = |g: &Graph, edges: &[(usize, usize)]| -> Kleene {
            let ev = Eval::new(v, g, inst, None);
            let mut acc = F;
            for (a0, k) in sources(g) {
                for &(a, b) in edges {
                    let x = ev.formula(&star, &self.roles, vec![a0, a]);
                    let y = ev.formula(&star, &self.roles, vec![b, b0]);
                    acc = acc.or(k.and(x).and(y));
                    if acc == T {
                        return acc;
                    }
                }
            }
            acc
        };
        if was != T && via(new, &self.added) == F {
            return was;
        }
        if was == T && via(old, &self.removed) == F {
            return T;
        }
        val
    }
}

/// Whether some tracked field of node `a` may hold an unknown value.
fn touched_unknown(v: &Vocab, g: &Graph, a: usize) -> bool {
    v.preds.iter().enumerate().any(|(id, p)| {
        matches!(p.kind, PredKind::Undef(f) if v.fields[f].strukt == g.ty[a])
            && g.get(v, id, &[a]) != F
    })
}

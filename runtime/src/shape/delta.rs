//! Finite differencing of closure predicates: bounds on the new value of a predicate defined
//! as a transitive closure, from its old value and the tuples of the closed relation that an
//! update added or removed (TVLA's update formulas for reachability, after Reps, Sagiv and
//! Loginov).
//!
//! Consumes the old and new graph of one update and a closure instance (`R*(v, w)`,
//! `R+(v, w)` or `R+(v, v)`); produces, per tuple, an upper bound (a new path must use an
//! added edge: `old(v, w) || exists (a, b) added. R'*(v, a) && R'*(b, w)`) and a lower bound
//! (an old path survives if no removed edge lies on any: `old(v, w) && !exists (a, b)
//! removed. R*(v, a) && R*(b, w)`). Re-evaluating the definition alone loses what the old
//! value knew about the individuals a summary node stands for (a summary with a possible
//! self-edge always looks possibly cyclic); the bounds keep it.

use super::formula::Eval;
use super::graph::{F, Graph, H, T};
use super::vocab::{Instr, PredKind, Vocab};
use shapecheck_dsl::eval::Kleene;
use shapecheck_dsl::ir::{Formula, Rel};

/// The closure shapes the bounds apply to.
pub struct ClosureDelta {
    rel: Rel,
    /// Whether the instance is unary `R+(v, v)` (cyclicity) rather than binary.
    diagonal: bool,
    added: Vec<(usize, usize)>,
    removed: Vec<(usize, usize)>,
}

fn rank(k: Kleene) -> u8 {
    match k {
        F => 0,
        H => 1,
        T => 2,
    }
}

impl ClosureDelta {
    /// The delta of instance `inst` between `old` and `new` (same nodes), if its body is a
    /// closure of one of the supported shapes.
    pub fn new(v: &Vocab, inst: &Instr, old: &Graph, new: &Graph) -> Option<ClosureDelta> {
        if old.n != new.n || inst.pointer.is_some() {
            return None;
        }
        let decl = v.decl(inst.pred);
        let (rel, diagonal) = match &decl.body {
            Formula::Closure {
                rel,
                from: 0,
                to: 1,
                ..
            } if decl.arity == 2 => (rel.clone(), false),
            Formula::Closure {
                rel,
                reflexive: false,
                from: 0,
                to: 0,
            } if decl.arity == 1 => (rel.clone(), true),
            _ => return None,
        };
        let relf = match &rel {
            Rel::Field(r) => Formula::Field(*r, 0, 1),
            Rel::Pred(p, rs) => Formula::Pred(*p, rs.clone(), vec![0, 1]),
        };
        let (eo, en) = (Eval::new(v, old, inst, None), Eval::new(v, new, inst, None));
        let mut d = ClosureDelta {
            rel,
            diagonal,
            added: vec![],
            removed: vec![],
        };
        for &a in &en.nodes {
            // A store of an unknown value leaves `1/2` tuples whose cells may have changed.
            let blurred = touched_unknown(v, old, a) || touched_unknown(v, new, a);
            for &b in &en.nodes {
                let was = eo.formula(&relf, &inst.roles, &mut vec![a, b]);
                let now = en.formula(&relf, &inst.roles, &mut vec![a, b]);
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
        let (a0, b0) = if self.diagonal {
            (t[0], t[0])
        } else {
            (t[0], t[1])
        };
        let was = old.get(v, inst.id, t);
        let star = Formula::Closure {
            rel: self.rel.clone(),
            reflexive: true,
            from: 0,
            to: 1,
        };
        let via = |g: &Graph, edges: &[(usize, usize)]| -> Kleene {
            let ev = Eval::new(v, g, inst, None);
            let mut acc = F;
            for &(a, b) in edges {
                let x = ev.formula(&star, &inst.roles, &mut vec![a0, a]);
                let y = ev.formula(&star, &inst.roles, &mut vec![b, b0]);
                acc = acc.or(x.and(y));
                if acc == T {
                    break;
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

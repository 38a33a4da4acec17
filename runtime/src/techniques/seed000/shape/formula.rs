//! Three-valued evaluation of the spec's defining formulas on shape graphs.
//!
//! Consumes a [`Graph`], its [`Vocab`] and an instrumentation predicate instance; produces
//! Kleene values. [`Eval`] is the shape analysis' semantics of formulas (`shapecheck_dsl::sem::
//! Sem3`): a predicate the formula uses is read from the structure when the vocabulary stores
//! it (that is what makes stored instrumentation predicates more precise than re-evaluation),
//! closures are max-min closures over the nodes of the instance's struct type, and the
//! evaluator records whether it read any tuple that an update changed ([`Changes`]): a value
//! whose formula read no changed tuple keeps its stored value (the differencing rule of
//! `super::update`). What drives it is the domain's code for the predicate: compiled by
//! `spec!` for the standard library, the spec interpreter for a `--spec` file.

use super::graph::{F, Graph, H, T};
use super::vocab::{Instr, Vocab};
use shapecheck_dsl::eval::Kleene;
use shapecheck_dsl::ir::{Formula, PredId};
use shapecheck_dsl::sem::{self, Bound, Sem3, max_min_closure};
use std::cell::{Cell, RefCell};

/// Which tuples an update changed, indexed like the graph's tables.
#[derive(Clone, Debug, Default)]
pub struct Changes {
    /// `[slot][node]`.
    pub un: Vec<Vec<bool>>,
    /// `[slot][from * n + to]`.
    pub bin: Vec<Vec<bool>>,
    any_un: Vec<bool>,
    any_bin: Vec<bool>,
}

impl Changes {
    /// No change on a structure of `n` nodes.
    pub fn none(v: &Vocab, n: usize) -> Changes {
        Changes {
            un: vec![vec![false; n]; v.unary],
            bin: vec![vec![false; n * n]; v.binary],
            any_un: vec![false; v.unary],
            any_bin: vec![false; v.binary],
        }
    }

    /// Marks predicate `p` on `args` as changed.
    pub fn mark(&mut self, v: &Vocab, n: usize, p: usize, args: &[usize]) {
        let info = &v.preds[p];
        if info.arity == 1 {
            self.un[info.slot][args[0]] = true;
            self.any_un[info.slot] = true;
        } else {
            self.bin[info.slot][args[0] * n + args[1]] = true;
            self.any_bin[info.slot] = true;
        }
    }

    fn get(&self, v: &Vocab, n: usize, p: usize, args: &[usize]) -> bool {
        let info = &v.preds[p];
        if info.arity == 1 {
            self.un[info.slot][args[0]]
        } else {
            self.bin[info.slot][args[0] * n + args[1]]
        }
    }

    /// Whether predicate `p` changed on some tuple.
    pub fn any(&self, v: &Vocab, p: usize) -> bool {
        let info = &v.preds[p];
        if info.arity == 1 {
            self.any_un[info.slot]
        } else {
            self.any_bin[info.slot]
        }
    }
}

/// A relation's closure: the matrix over the instance's nodes and whether it read a change.
type Closure = (Vec<Kleene>, bool);

/// A computed closure: the bound relation, whether reflexive, the closure, and the stored
/// closure instance that may sharpen it (see [`Eval::stored_closure`]).
type Cached = (Bound, bool, Closure, Option<usize>);

/// An evaluator of one instance's formulas on one graph: the engine's semantics
/// ([`Sem3`]) that the domain's compiled code or the spec interpreter drives.
pub struct Eval<'a> {
    v: &'a Vocab<'a>,
    g: &'a Graph,
    inst: &'a Instr,
    changes: Option<&'a Changes>,
    /// Whether the last evaluation read a changed tuple.
    pub read_changed: Cell<bool>,
    /// The nodes of the instance's struct type (of every type for an instance over a link).
    pub nodes: Vec<usize>,
    /// Each node's position in `nodes`.
    pos_of: Vec<Option<usize>>,
    /// The closures computed so far.
    closures: RefCell<Vec<Cached>>,
}

impl<'a> Eval<'a> {
    /// An evaluator of instance `inst` on `g`.
    pub fn new(
        v: &'a Vocab<'a>,
        g: &'a Graph,
        inst: &'a Instr,
        changes: Option<&'a Changes>,
    ) -> Self {
        // An instance over a link (`linked[node]` on a stack item) quantifies over the
        // link's targets, which are of another type.
        let links = v.over_link(inst);
        let nodes: Vec<usize> = (0..g.n)
            .filter(|u| links || v.carries(g.ty[*u], inst.strukt))
            .collect();
        let mut pos_of = vec![None; g.n];
        for (i, u) in nodes.iter().enumerate() {
            pos_of[*u] = Some(i);
        }
        Eval {
            v,
            g,
            inst,
            changes,
            read_changed: Cell::new(false),
            nodes,
            pos_of,
            closures: RefCell::new(Vec::new()),
        }
    }

    /// The value of the instance's defining formula on `args`: the domain's code for the
    /// predicate (compiled, or the interpreter) driven by this evaluator.
    pub fn instance(&self, args: &[usize]) -> Kleene {
        self.v
            .domain
            .predicate3(self.inst.pred, self, &self.inst.roles, args)
    }

    /// The value of formula `f` with roles bound to the field indices `roles` and the
    /// variable slots `env`, by the spec interpreter.
    pub fn formula(&self, f: &Formula, roles: &[usize], env: Vec<usize>) -> Kleene {
        sem::formula3(self.v.spec(), self, f, roles, &RefCell::new(env))
    }

    /// Evaluates `f`, returning its value and whether it read a changed tuple.
    fn tracked(&self, f: &dyn Fn() -> Kleene) -> (Kleene, bool) {
        let saved = self.read_changed.replace(false);
        let v = f();
        let d = self.read_changed.replace(saved);
        (v, d)
    }

    /// `a && b` (absorbing F), `a || b` (absorbing T), `!a || b` (`negate_a`, absorbing T).
    /// An operand with the absorbing value that read no changed tuple decides the value
    /// whatever the changed tuples are, so the result then does not depend on them.
    fn connective(
        &self,
        a: &dyn Fn() -> Kleene,
        b: &dyn Fn() -> Kleene,
        negate_a: bool,
        absorbing: Kleene,
    ) -> Kleene {
        let (mut va, da) = self.tracked(a);
        if negate_a {
            va = va.not();
        }
        let (vb, db) = self.tracked(b);
        let v = if absorbing == F {
            va.and(vb)
        } else {
            va.or(vb)
        };
        let decided = (va == absorbing && !da) || (vb == absorbing && !db);
        if !decided && (da || db) {
            self.read_changed.set(true);
        }
        v
    }

    fn quantify(
        &self,
        body: &dyn Fn(usize) -> Kleene,
        unit: Kleene,
        op: fn(Kleene, Kleene) -> Kleene,
    ) -> Kleene {
        let absorbing = unit.not();
        let mut acc = unit;
        let (mut dep, mut decided) = (false, false);
        for &u in &self.nodes {
            let (v, d) = self.tracked(&|| body(u));
            acc = op(acc, v);
            dep |= d;
            decided |= v == absorbing && !d;
        }
        if dep && !decided {
            self.read_changed.set(true);
        }
        acc
    }

    /// A stored predicate's value, noting whether the tuple changed.
    fn read(&self, p: usize, args: &[usize]) -> Kleene {
        if let Some(c) = self.changes
            && c.get(self.v, self.g.n, p, args)
        {
            self.read_changed.set(true);
        }
        self.g.get(self.v, p, args)
    }

    /// Node equality: a summary node is only possibly equal to itself.
    pub fn equal(&self, a: usize, b: usize) -> Kleene {
        if a != b { F } else { self.g.sm[a].not() }
    }

    fn pos(&self, u: usize) -> Option<usize> {
        self.pos_of.get(u).copied().flatten()
    }

    /// Max-min (reflexive-)transitive closure of a relation over the instance's nodes.
    fn matrix(
        &self,
        rel: &Bound,
        reflexive: bool,
        value: &dyn Fn(usize, usize) -> Kleene,
    ) -> Closure {
        let saved = self.read_changed.replace(false);
        if let Some(c) = self.changes
            && let Bound::Field(fi) = rel
            && c.any(self.v, self.v.field_pred(*fi))
        {
            self.read_changed.set(true);
        }
        let eq = |a: usize, b: usize| self.equal(a, b);
        let m = max_min_closure(&self.nodes, reflexive, value, &eq);
        let changed = self.read_changed.replace(saved);
        (m, changed)
    }
}

impl Sem3 for Eval<'_> {
    fn eq(&self, a: usize, b: usize) -> Kleene {
        self.equal(a, b)
    }

    fn field(&self, field: usize, a: usize, b: usize) -> Kleene {
        self.read(self.v.field_pred(field), &[a, b])
    }

    /// `x(a)`: the tracked pointer points to `a`, or for a root instance, some cell's root
    /// field does (`exists s. c(s, a)` over every node, of any type).
    fn pointer(&self, a: usize) -> Kleene {
        match (self.inst.pointer, self.inst.root) {
            (Some(x), Some(c)) => {
                let (pt, f) = (self.v.pt(x), self.v.field_pred(c));
                (0..self.g.n).fold(F, |acc, s| {
                    acc.or(self.read(pt, &[s]).and(self.read(f, &[s, a])))
                })
            }
            (Some(x), None) => self.read(self.v.pt(x), &[a]),
            (None, Some(c)) => {
                let f = self.v.field_pred(c);
                (0..self.g.n).fold(F, |acc, s| acc.or(self.read(f, &[s, a])))
            }
            (None, None) => F,
        }
    }

    fn summary(&self, a: usize) -> Kleene {
        self.g.sm[a]
    }

    fn and(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.connective(a, b, false, F)
    }

    fn or(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.connective(a, b, false, T)
    }

    fn implies(&self, a: &dyn Fn() -> Kleene, b: &dyn Fn() -> Kleene) -> Kleene {
        self.connective(a, b, true, T)
    }

    fn exists(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene {
        self.quantify(body, F, Kleene::or)
    }

    fn forall(&self, body: &dyn Fn(usize) -> Kleene) -> Kleene {
        self.quantify(body, T, Kleene::and)
    }

    /// A stored instance's value, or the predicate's definition evaluated.
    fn pred(
        &self,
        p: PredId,
        roles: &[usize],
        args: &[usize],
        body: &dyn Fn(&[usize], &[usize]) -> Kleene,
    ) -> Kleene {
        let decl = self.v.decl(p);
        let pointer = decl.pointer.as_ref().and(self.inst.only_pointer());
        if decl.pointer.is_some() && pointer.is_none() {
            return body(roles, args);
        }
        match self.v.stored(p, roles, pointer) {
            Some(i) => self.read(self.v.instr[i].id, args),
            None => body(roles, args),
        }
    }

    fn closure(
        &self,
        rel: &Bound,
        reflexive: bool,
        a: usize,
        b: usize,
        value: &dyn Fn(usize, usize) -> Kleene,
    ) -> Kleene {
        let found = self
            .closures
            .borrow()
            .iter()
            .position(|(r, refl, ..)| r == rel && *refl == reflexive);
        let idx = match found {
            Some(i) => i,
            None => {
                // Computed outside the borrow: a relation defined by a predicate may itself
                // evaluate closures.
                let c = self.matrix(rel, reflexive, value);
                let stored = self.stored_closure(rel, reflexive);
                let mut cl = self.closures.borrow_mut();
                cl.push((rel.clone(), reflexive, c, stored));
                cl.len() - 1
            }
        };
        let cl = self.closures.borrow();
        let ((m, changed), stored) = (&cl[idx].2, cl[idx].3);
        if *changed {
            self.read_changed.set(true);
        }
        let (Some(i), Some(j)) = (self.pos(a), self.pos(b)) else {
            return F;
        };
        match (m[i * self.nodes.len() + j], stored) {
            (H, Some(id)) => self.g.get(self.v, id, &[a, b]),
            (k, _) => k,
        }
    }
}

impl Eval<'_> {
    /// The stored binary closure instance (`treach[f](v, w) := f*(v, w)`) whose values stand
    /// for a closure of field `rel` the update left alone where they are definite. The max-min
    /// closure of a relation with 1/2 edges is 1/2 where the stored instance, maintained
    /// across updates, still knows the path (a cell behind a cursor that moved along `next`
    /// is reached by `prev*` from the cursor, whatever the 1/2 `prev` edges of the join
    /// that made the cell say). Used only while differencing, where the changed tuples are
    /// known: the stored value is current when neither the field nor the instance changed.
    fn stored_closure(&self, rel: &Bound, reflexive: bool) -> Option<usize> {
        let c = self.changes?;
        let Bound::Field(fi) = rel else {
            return None;
        };
        let id = self.v.instr.iter().find_map(|i| {
            let Formula::Closure {
                rel: shapecheck_dsl::ir::Rel::Field(r),
                reflexive: refl,
                from: 0,
                to: 1,
            } = &self.v.decl(i.pred).body
            else {
                return None;
            };
            let same = *refl == reflexive
                && i.pointer.is_none()
                && i.root.is_none()
                && i.roles.get(*r) == Some(fi);
            same.then_some(i.id)
        })?;
        let current =
            id != self.inst.id && !c.any(self.v, id) && !c.any(self.v, self.v.field_pred(*fi));
        current.then_some(id)
    }
}

/// All tuples of `arity` over `nodes`.
pub fn tuples(nodes: &[usize], arity: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for _ in 0..arity {
        out = out
            .into_iter()
            .flat_map(|t| {
                nodes.iter().map(move |u| {
                    let mut t2 = t.clone();
                    t2.push(*u);
                    t2
                })
            })
            .collect();
    }
    out
}

/// Whether a value is definite.
pub fn definite(k: Kleene) -> bool {
    k != H
}

//! The abstract post of seed 004: context-sensitive Cartesian post computed on demand by
//! validity checks, with the context operator, semantic caching, cleaning and the abstraction
//! of the initial states (§2.3 and §2.5–2.8 of the digest).
//!
//! Consumes the transition system of seed 003 (its paths between cut points over two copies
//! of the vocabulary, the faults on them), the predicates per cut point and the conjuncts of
//! the precondition assumed at each; produces, for a pre-state cube (the objects it denotes)
//! and one path, the smallest post-state cube those objects satisfy, and the same for the
//! nullary predicates; whether a Boolean heap can take a path at all (cleaning by the path's
//! guard), the faults it may meet, and the Boolean heap of the initial states.
//!
//! A validity check `Γ ∧ A ∧ C(v) ∧ T ⊨ p'(v)` for every post predicate `p` and polarity is
//! answered by few solver calls: the candidate literals start as every literal, a model of
//! the antecedent with the negated conjunction of the candidates removes those it falsifies,
//! and an unsat answer proves the rest (the strongest implied cube, as in predicate
//! abstraction by models). Every formula stays in EPR: Boolean heaps are universal, the
//! paths' updates are seed 003's. A solver that gives up proves nothing: the cube loses the
//! literals it could not prove (sound, imprecise).
//!
//! One cube's post may be several cubes ([`Oracle::post_cubes`]): the objects are split on
//! the target's open singletons and on classes of open reachability predicates that the
//! path makes agree or disagree on every object. This focus on the post state departs from
//! the paper, whose relational product keeps correlations only through the pre-state's
//! predicates; Skiplist.add needs it (see the method's doc).
//!
//! The context Γ of a cut point comes from the join of its states: nothing ([`Context::None`]),
//! the join's meaning itself, quantified ([`Context::Full`]), or its instantiation at the
//! objects of the variables ([`Context::Instantiated`], the default): for each singleton
//! `v = x`, the literals every cube that may hold `x` shares, with `v` replaced by `x`, so no
//! quantifier enters a query. Contexts only weaken as states are added, so a literal not
//! implied under an earlier context stays not implied: the cache keeps, per path and cube,
//! the last context's result, returns it when the context is unchanged, and otherwise starts
//! the candidates from it.

use super::heap::{Cube, Heap, MAX_PREDS};
use super::predicates::{Pred, Preds, V};
use crate::engine::Budget;
use crate::techniques::seed003::epr::{self, Voc, forall};
use crate::techniques::seed003::logic::{Formula, Term};
use crate::techniques::seed003::pdr::new_solver;
use crate::techniques::seed003::program::Leaf;
use crate::techniques::seed003::program::{Bad, System};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use z3::SatResult;
use z3::ast::{Bool, Dynamic};

/// The context operator κ (the Fig. 10 ablation's three settings).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Context {
    /// Γ = true: plain Cartesian post.
    None,
    /// Γ = the meaning of the join of the cut point's states (quantified).
    Full,
    /// Γ = that join instantiated at the objects of the variables (quantifier-free).
    #[default]
    Instantiated,
}

impl Context {
    /// Its name in options and tables.
    pub fn name(self) -> &'static str {
        match self {
            Context::None => "none",
            Context::Full => "full",
            Context::Instantiated => "instantiated",
        }
    }
}

/// What the analysis spent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    /// Solver calls (validity and satisfiability checks).
    pub calls: usize,
    /// Post computations asked of the cache.
    pub lookups: usize,
    /// Of those, answered by it without a solver call.
    pub hits: usize,
    /// Nodes of the abstract reachability tree.
    pub nodes: usize,
}

/// A context formula with the key that identifies it.
pub struct Ctx {
    key: Vec<Cube>,
    formula: Bool,
}

/// A cached post: the context it was computed under and the cube (`None`: no object of the
/// pre-state cube takes the path).
type Entry = (Vec<Cube>, Option<Cube>);

/// The most cubes one cube's focused post splits into.
const MAX_FOCUS: usize = 16;

/// A cache key: cut point, path, nullary cube, and the unary cube (`None` for the nullary
/// post).
type Key = (usize, usize, Cube, Option<Cube>);

/// The solver side of the analysis.
pub struct Oracle<'a> {
    sys: &'a System,
    /// The predicates per cut point.
    pub preds: &'a [Preds],
    /// The precondition's conjuncts assumed per cut point (over `w0`).
    assumed: Vec<Bool>,
    w0: Voc,
    w1: Voc,
    /// The object `v` (one node, the same before and after a path).
    obj: Dynamic,
    /// Per cut point: the target, transition formula and focus predicates (see [`focus`])
    /// of each path leaving it.
    paths: Vec<Vec<(usize, Bool, Vec<usize>)>>,
    /// Per cut point: the faults its paths may meet.
    bads: Vec<Vec<Bad>>,
    budget: Budget,
    cache: HashMap<Key, Entry>,
    /// The focused posts per key, with their context.
    focused: HashMap<Key, (Vec<Cube>, Vec<Cube>)>,
    /// What was spent.
    pub counters: Counters,
}

impl<'a> Oracle<'a> {
    /// The oracle of `sys`, with `assumed` (per cut point) taken as known.
    pub fn new(
        sys: &'a System,
        preds: &'a [Preds],
        assumed: &[Formula],
        budget: Budget,
    ) -> Result<Oracle<'a>, String> {
        for (c, p) in preds.iter().enumerate() {
            if p.unary.len() > MAX_PREDS || p.nullary.len() > MAX_PREDS {
                return Err(format!(
                    "more than {MAX_PREDS} predicates at the loop head at line {}",
                    sys.line_of(sys.cuts[c])
                ));
            }
        }
        let null = epr::constant("null");
        let w0 = sys.voc("@0", &null);
        let w1 = sys.voc("@1", &null);
        let mut paths: Vec<Vec<(usize, Bool, Vec<usize>)>> = vec![];
        let mut bads = vec![];
        for c in 0..sys.cuts.len() {
            let (leaves, b) = sys.explore(c, &w0)?;
            let focus = |l: &Leaf| focus(&preds[l.to], l.changes(&w0));
            paths.push(
                (leaves.iter())
                    .map(|l| (l.to, l.transition(&w1), focus(l)))
                    .collect(),
            );
            bads.push(b);
        }
        if super::reach::debugging() {
            for (c, ps) in paths.iter().enumerate() {
                for (to, _, f) in ps {
                    let names: Vec<&str> = f
                        .iter()
                        .map(|&p| preds[*to].unary[p].name.as_str())
                        .collect();
                    eprintln!("bohne: path {c} -> {to} focuses on {}", names.join(", "));
                }
            }
        }
        Ok(Oracle {
            sys,
            preds,
            assumed: assumed.iter().map(|f| w0.encode(f)).collect(),
            obj: epr::constant("v"),
            w0,
            w1,
            paths,
            bads,
            budget,
            cache: HashMap::new(),
            focused: HashMap::new(),
            counters: Counters::default(),
        })
    }

    /// The paths leaving cut point `c`: each one's index with its target.
    pub fn paths(&self, c: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.paths[c].iter().map(|(to, ..)| *to).enumerate()
    }

    /// The cube's literals over `preds`, at `node`, in `voc`.
    fn cube(&self, preds: &[Pred], cube: Cube, voc: &Voc, node: &Dynamic) -> Bool {
        let lits: Vec<Bool> = (cube.literals())
            .map(|(p, b)| literal(voc.encode_at(&preds[p].formula, V, node), b))
            .collect();
        Bool::and(&lits)
    }

    /// The meaning of heap `h` at cut point `c` over `voc`: its nullary cube and
    /// `forall v. ⋁ cubes(v)`.
    pub fn gamma(&self, c: usize, h: &Heap, voc: &Voc) -> Bool {
        let p = &self.preds[c];
        let q = epr::constant("q");
        let cubes: Vec<Bool> = (h.cubes.iter())
            .map(|k| self.cube(&p.unary, *k, voc, &q))
            .collect();
        Bool::and(&[
            self.cube(&p.nullary, h.nullary, voc, &q),
            forall(&[&q], &Bool::or(&cubes)),
        ])
    }

    /// The context Γ at cut point `c` for states whose join is `join`.
    pub fn context(&self, c: usize, mode: Context, join: &Heap) -> Ctx {
        match mode {
            Context::None => Ctx {
                key: vec![],
                formula: Bool::from_bool(true),
            },
            Context::Full => Ctx {
                key: std::iter::once(join.nullary)
                    .chain(join.cubes.iter().copied())
                    .collect(),
                formula: self.gamma(c, join, &self.w0),
            },
            Context::Instantiated => {
                let p = &self.preds[c];
                let mut key = vec![join.nullary];
                let mut parts = vec![self.cube(&p.nullary, join.nullary, &self.w0, &self.obj)];
                for (i, t) in p.singletons() {
                    // No cube allows the singleton: the states are empty; Γ = false is implied.
                    let cube = join.singled_out(i);
                    key.push(cube.unwrap_or(Cube { mask: 1, bits: 0 }));
                    parts.push(match cube {
                        Some(k) => {
                            let node = self.term(t);
                            self.cube(&p.unary, k, &self.w0, &node)
                        }
                        None => Bool::from_bool(false),
                    });
                }
                Ctx {
                    key,
                    formula: Bool::and(&parts),
                }
            }
        }
    }

    fn term(&self, t: Term) -> Dynamic {
        match t {
            Term::Var(x) => self.w0.vars[x].clone(),
            _ => self.w0.null.clone(),
        }
    }

    /// Whether a state of `h` at `c` can take path `i` (cleaning by the path's guard; a
    /// solver that gives up keeps the heap).
    pub fn feasible(&mut self, c: usize, i: usize, h: &Heap) -> bool {
        let parts = [
            self.assumed[c].clone(),
            self.gamma(c, h, &self.w0),
            self.paths[c][i].1.clone(),
        ];
        self.solve(&parts).0 != SatResult::Unsat
    }

    /// The faults a state of `h` at `c` may meet on the paths leaving `c`.
    pub fn faults(&mut self, c: usize, h: &Heap) -> Vec<Bad> {
        let g = Bool::and(&[self.assumed[c].clone(), self.gamma(c, h, &self.w0)]);
        let all: Vec<Bool> = self.bads[c].iter().map(|b| b.cond.clone()).collect();
        if all.is_empty() || self.solve(&[g.clone(), Bool::or(&all)]).0 == SatResult::Unsat {
            return vec![];
        }
        let bads = self.bads[c].clone();
        (bads.into_iter())
            .filter(|b| {
                let (r, m) = self.solve(&[g.clone(), b.cond.clone()]);
                if super::reach::debugging() {
                    eprintln!("bohne: {} at line {}: {r:?}", b.describe(), b.line);
                    self.show_model(m.as_ref());
                }
                r != SatResult::Unsat
            })
            .collect()
    }

    /// The post of the objects of cube `k` (in a heap with nullary cube `n`) at `c` along
    /// path `i`, under the context `ctx`: the strongest cube over the target's unary
    /// predicates they satisfy, or `None` when none of them takes the path.
    pub fn post_cube(&mut self, c: usize, i: usize, ctx: &Ctx, n: Cube, k: Cube) -> Option<Cube> {
        let cands = self.post_candidates(self.paths[c][i].0);
        let ante = self.cube_antecedent(c, i, ctx, n, k);
        self.cached((c, i, n, Some(k)), &ctx.key, &ante, &cands)
    }

    /// The posts of the objects of cube `k` along path `i` from `c`, focused on the post
    /// state: split on each of the target's singleton predicates that the Cartesian post
    /// leaves open (one cube for the objects that become the singleton's object, one for the
    /// others), then on the classes of open focus predicates (see [`focus`]) that agree, or
    /// disagree, on every object of a cube. Without the first, the object a `malloc`
    /// returns, which comes from the cube of unallocated objects, would lose `alloc`: a
    /// cube's post cannot correlate `v = x'` with `alloc'(v)`. Without the second,
    /// `prev = current; current = current->next` from a cube that leaves `current<next*>v`
    /// open loses that `prev'<next*>v` and `current'<next*>v` agree off `prev'`, i.e. that
    /// `current'` is `prev'`'s successor. The paper's relational product keeps such
    /// correlations when they run through the pre-state's predicates; the split keeps them
    /// whatever their source. Empty when none of the objects takes the path.
    pub fn post_cubes(&mut self, c: usize, i: usize, ctx: &Ctx, n: Cube, k: Cube) -> Vec<Cube> {
        let Some(main) = self.post_cube(c, i, ctx, n, k) else {
            return vec![];
        };
        let key = (c, i, n, Some(k));
        if let Some((old, cubes)) = self.focused.get(&key)
            && *old == ctx.key
        {
            return cubes.clone();
        }
        let to = self.paths[c][i].0;
        let cands = self.post_candidates(to);
        let ante = self.cube_antecedent(c, i, ctx, n, k);
        let mut results: Vec<(Vec<Bool>, Cube)> = vec![(vec![], main)];
        let singletons: Vec<usize> = self.preds[to].singletons().map(|(s, _)| s).collect();
        for s in singletons {
            if results.len() >= MAX_FOCUS {
                break;
            }
            let mut next = vec![];
            for (extra, cube) in results {
                if cube.get(s).is_some() {
                    next.push((extra, cube));
                    continue;
                }
                for b in [true, false] {
                    let mut e = extra.clone();
                    e.push(literal(cands[s].1.clone(), b));
                    let all: Vec<Bool> = ante.iter().chain(&e).cloned().collect();
                    if let Some(k2) = self.implied(&all, &cands, None) {
                        next.push((e, k2));
                    }
                }
            }
            results = next;
        }
        let mut cubes = vec![];
        for (extra, cube) in results {
            let all: Vec<Bool> = ante.iter().chain(&extra).cloned().collect();
            cubes.extend(self.correlated(c, i, &all, &cands, cube));
        }
        self.focused.insert(key, (ctx.key.clone(), cubes.clone()));
        cubes
    }

    /// `cube` split on the classes of its open focus predicates that `ante` makes agree or
    /// disagree on every object: each class is all true or all false (with the parities).
    fn correlated(
        &mut self,
        c: usize,
        i: usize,
        ante: &[Bool],
        cands: &[(usize, Bool)],
        cube: Cube,
    ) -> Vec<Cube> {
        let open: Vec<usize> = (self.paths[c][i].2.iter())
            .copied()
            .filter(|&p| cube.get(p).is_none())
            .collect();
        let mut pairs = vec![];
        let mut formulas = vec![];
        for (x, &p) in open.iter().enumerate() {
            for &q in &open[x + 1..] {
                formulas.push((pairs.len(), cands[p].1.iff(&cands[q].1)));
                pairs.push((p, q));
            }
        }
        if pairs.is_empty() || pairs.len() > 64 {
            return vec![cube];
        }
        let Some(same) = self.implied(ante, &formulas, None) else {
            return vec![cube];
        };
        // Classes by union-find with parities, from the pairs proved (anti-)equivalent.
        let mut class: BTreeMap<usize, (usize, bool)> =
            open.iter().map(|&p| (p, (p, false))).collect();
        let find = |class: &BTreeMap<usize, (usize, bool)>, mut p: usize| {
            let mut parity = false;
            while class[&p].0 != p {
                parity ^= class[&p].1;
                p = class[&p].0;
            }
            (p, parity)
        };
        for (j, &(p, q)) in pairs.iter().enumerate() {
            let Some(eq) = same.get(j) else { continue };
            let ((rp, xp), (rq, xq)) = (find(&class, p), find(&class, q));
            if rp != rq {
                class.insert(rq, (rp, xp ^ xq ^ !eq));
            }
        }
        let mut out = vec![cube];
        for &root in &open {
            let members: Vec<(usize, bool)> = (open.iter())
                .map(|&p| (p, find(&class, p)))
                .filter(|(_, (r, _))| *r == root)
                .map(|(p, (_, x))| (p, x))
                .collect();
            if members.len() < 2 || out.len() * 2 > MAX_FOCUS {
                continue;
            }
            out = (out.into_iter())
                .flat_map(|k| {
                    [true, false].map(|b| (members.iter()).fold(k, |k, &(p, x)| k.with(p, b ^ x)))
                })
                .collect();
        }
        out
    }

    /// The unary predicates of cut point `to` at the object, over the post-state copy.
    fn post_candidates(&self, to: usize) -> Vec<(usize, Bool)> {
        (self.preds[to].unary.iter().enumerate())
            .map(|(p, q)| (p, self.w1.encode_at(&q.formula, V, &self.obj)))
            .collect()
    }

    fn cube_antecedent(&self, c: usize, i: usize, ctx: &Ctx, n: Cube, k: Cube) -> Vec<Bool> {
        vec![
            self.assumed[c].clone(),
            ctx.formula.clone(),
            self.cube(&self.preds[c].nullary, n, &self.w0, &self.obj),
            self.cube(&self.preds[c].unary, k, &self.w0, &self.obj),
            self.paths[c][i].1.clone(),
        ]
    }

    /// The post of the nullary cube `n` at `c` along path `i` under `ctx`.
    pub fn post_nullary(&mut self, c: usize, i: usize, ctx: &Ctx, n: Cube) -> Option<Cube> {
        let to = self.paths[c][i].0;
        let preds = &self.preds[to].nullary;
        let cands: Vec<(usize, Bool)> = (0..preds.len())
            .map(|p| (p, self.w1.encode(&preds[p].formula)))
            .collect();
        let ante = vec![
            self.assumed[c].clone(),
            ctx.formula.clone(),
            self.cube(&self.preds[c].nullary, n, &self.w0, &self.obj),
            self.paths[c][i].1.clone(),
        ];
        self.cached((c, i, n, None), &ctx.key, &ante, &cands)
    }

    fn cached(
        &mut self,
        key: Key,
        ctx: &[Cube],
        ante: &[Bool],
        cands: &[(usize, Bool)],
    ) -> Option<Cube> {
        self.counters.lookups += 1;
        let start = match self.cache.get(&key) {
            Some((old, result)) if old == ctx => {
                self.counters.hits += 1;
                return *result;
            }
            // A weaker context: what was not implied stays not implied.
            Some((_, Some(cube))) => Some(*cube),
            _ => None,
        };
        let result = self.implied(ante, cands, start);
        self.cache.insert(key, (ctx.to_vec(), result));
        result
    }

    /// The strongest cube within `start` (every literal of both polarities when `None`)
    /// that `ante` implies, over the candidates' formulas; `None` when `ante` is
    /// unsatisfiable and the search started from every literal.
    fn implied(
        &mut self,
        ante: &[Bool],
        cands: &[(usize, Bool)],
        start: Option<Cube>,
    ) -> Option<Cube> {
        // Literals by position in `cands`.
        let mut lits: Vec<(usize, bool)> = vec![];
        for (j, (p, _)) in cands.iter().enumerate() {
            match start {
                None => lits.extend([(j, true), (j, false)]),
                Some(k) => lits.extend(k.get(*p).map(|b| (j, b))),
            }
        }
        let formula = |(j, b): (usize, bool)| literal(cands[j].1.clone(), b);
        loop {
            let mut parts = ante.to_vec();
            if !lits.is_empty() {
                let neg: Vec<Bool> = lits.iter().map(|&l| formula(l).not()).collect();
                parts.push(Bool::or(&neg));
            }
            match self.solve(&parts) {
                (SatResult::Unsat, _) => {
                    let contradictory = (lits.iter()).any(|&(p, b)| lits.contains(&(p, !b)));
                    if contradictory {
                        return None;
                    }
                    return Some(
                        lits.iter()
                            .fold(Cube::TOP, |k, &(j, b)| k.with(cands[j].0, b)),
                    );
                }
                (SatResult::Sat, Some(model)) => {
                    let before = lits.len();
                    lits.retain(|&l| {
                        model
                            .eval(&formula(l), true)
                            .and_then(|v| v.as_bool())
                            .unwrap_or(false)
                    });
                    if lits.len() == before {
                        // A model that falsifies no candidate: the solver's answer is not
                        // to be trusted; prove nothing.
                        return Some(Cube::TOP);
                    }
                    if lits.is_empty() {
                        return Some(Cube::TOP);
                    }
                }
                _ => return Some(Cube::TOP),
            }
        }
    }

    /// The Boolean heap of the initial states at the entry: the nullary cube they imply, and
    /// a cube per kind of object in one of them. The kinds are the complete cubes over the
    /// core predicates (singletons, `alloc`, reachability from a variable), enumerated by
    /// models; each is completed by the other predicates' literals its objects imply (an
    /// object no variable reaches has arbitrary links and data, which would otherwise make a
    /// cube per combination).
    pub fn initial(&mut self, limit: usize) -> Result<Heap, String> {
        let init = self.sys.initial(&self.w0);
        let p = &self.preds[0];
        let preds: Vec<(usize, Bool)> = (p.unary.iter().enumerate())
            .map(|(i, q)| (i, self.w0.encode_at(&q.formula, V, &self.obj)))
            .collect();
        type Cands = Vec<(usize, Bool)>;
        let (core, rest): (Cands, Cands) =
            preds.iter().cloned().partition(|(i, _)| p.unary[*i].core);
        let ante = vec![init.clone(), self.assumed[0].clone()];
        let mut cubes = std::collections::BTreeSet::new();
        let mut blocked = ante.clone();
        loop {
            if cubes.len() > limit {
                return Err(format!(
                    "the initial states have more than {limit} kinds of objects"
                ));
            }
            let m = match self.solve(&blocked) {
                (SatResult::Unsat, _) => break,
                (SatResult::Sat, Some(m)) => m,
                _ => return Err("the solver gave up on the initial states".into()),
            };
            let mut k = Cube::TOP;
            let mut lits = vec![];
            for (i, f) in &core {
                let b = (m.eval(f, true).and_then(|v| v.as_bool())).unwrap_or(false);
                k = k.with(*i, b);
                lits.push(literal(f.clone(), b));
            }
            blocked.push(Bool::and(&lits).not());
            let kind: Vec<Bool> = ante.iter().cloned().chain(lits).collect();
            let more = self.implied(&kind, &rest, None).unwrap_or(Cube::TOP);
            let joined = more.literals().fold(k, |k, (i, b)| k.with(i, b));
            cubes.insert(joined);
        }
        let cands: Vec<(usize, Bool)> = (p.nullary.iter().enumerate())
            .map(|(i, q)| (i, self.w0.encode(&q.formula)))
            .collect();
        let nullary = self
            .implied(&ante, &cands, None)
            .ok_or("the initial states are empty")?;
        Ok(Heap { nullary, cubes })
    }

    /// For the debug trace: the heap before and after the path in a model.
    fn show_model(&self, m: Option<&z3::Model>) {
        let Some(m) = m else { return };
        for (tag, w) in [("before", &self.w0), ("after", &self.w1)] {
            if let Some(h) = w.read(m) {
                eprintln!("  {tag}:");
                for l in h.describe(&self.sys.names, &self.sys.fields) {
                    eprintln!("    {l}");
                }
            }
        }
    }

    fn solve(&mut self, parts: &[Bool]) -> (SatResult, Option<z3::Model>) {
        self.counters.calls += 1;
        let s = new_solver(&self.budget);
        for a in self.w0.axioms().into_iter().chain(self.w1.axioms()) {
            s.assert(&a);
        }
        for p in parts {
            s.assert(p);
        }
        let r = s.check();
        let m = if r == SatResult::Sat {
            s.get_model()
        } else {
            None
        };
        (r, m)
    }
}

/// The predicates of a path's target worth focusing on beyond the singletons: reachability
/// from a variable or along a field the path changes, whose values after it can be
/// correlated through the old values of what it changed.
fn focus(preds: &Preds, (vars, fields): (BTreeSet<usize>, BTreeSet<usize>)) -> Vec<usize> {
    let about = |f: &Formula| {
        let mut mentioned = BTreeSet::new();
        f.vars(&mut mentioned);
        match f {
            Formula::Reach(g, ..) => {
                fields.contains(g) || mentioned.iter().any(|v| vars.contains(v))
            }
            _ => false,
        }
    };
    (preds.unary.iter().enumerate())
        .filter(|(_, p)| p.singleton.is_none() && about(&p.formula))
        .map(|(i, _)| i)
        .collect()
}

fn literal(f: Bool, positive: bool) -> Bool {
    if positive { f } else { f.not() }
}

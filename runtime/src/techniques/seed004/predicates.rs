//! The abstraction predicates of seed 004: unary predicates over heap objects (the implicit
//! variable `v`) and nullary ones, per cut point.
//!
//! Consumes the transition system of seed 003 (its variables, fields, liveness and
//! contract); produces, per cut point, the unary predicates Bohne derives from the program
//! by its syntactic analysis (§2.7 and §2.10 of the digest): the singleton `v = x` for every
//! pointer variable that matters there and for `null`, `alloc(v)`, reachability from each such
//! variable along each field and each backbone of the contract (`x<f*>v`), whether `v`'s
//! path along a field ends in `null`, the nodes above each variable the program stores
//! along a backbone (`v<t*>x`, what the store's check asks), and, when the program compares
//! node data, the data order between `v` and each variable's node. A variable matters at a cut point when it is
//! live there or the contract's postcondition names it (a ghost, an argument's entry copy).
//! Every unary predicate is a quantifier-free formula of seed 003's logic with the bound
//! variable [`V`] free, so a Boolean heap's meaning `∀v. ⋁ cubes` stays universal (EPR).

use crate::program::ir::{Expr, ExprKind, Op};
use crate::techniques::seed003::logic::{Formula, Term};
use crate::techniques::seed003::program::System;
use std::collections::BTreeSet;

/// The bound-variable id of the implicit object variable `v` (the families' bodies use ids
/// below it, a contract's at and above 100).
pub const V: u32 = 90;

/// A predicate.
#[derive(Clone, Debug)]
pub struct Pred {
    /// Its readable name (`x<n*>v`, `v = x`, ...).
    pub name: String,
    /// Its definition (with `v` free for a unary predicate).
    pub formula: Formula,
    /// For a singleton `v = t`: the term `t`.
    pub singleton: Option<Term>,
    /// Whether it tells kinds of objects apart in the initial abstraction (singletons,
    /// `alloc`, reachability from a variable).
    pub core: bool,
}

/// The predicates of one cut point.
#[derive(Clone, Debug, Default)]
pub struct Preds {
    /// Over objects.
    pub unary: Vec<Pred>,
    /// Over the state.
    pub nullary: Vec<Pred>,
}

impl Preds {
    /// The singleton predicates, by index, with their terms.
    pub fn singletons(&self) -> impl Iterator<Item = (usize, Term)> + '_ {
        (self.unary.iter().enumerate()).filter_map(|(i, p)| p.singleton.map(|t| (i, t)))
    }
}

/// The variables that matter at cut point `c`: live there (with their aliases), or named
/// by the precondition at the entry (a ghost) and by the postcondition at a loop head (a
/// ghost, an argument's entry copy), except the return value, which only the return sets.
pub fn variables(sys: &System, c: usize) -> Vec<usize> {
    let mut vs: BTreeSet<usize> = sys.live[c].iter().copied().collect();
    vs.extend(sys.aliases[c].iter().map(|&(_, v)| v));
    let named = if c == 0 { &sys.pre } else { &sys.post };
    if let Some(f) = named {
        let mut more = BTreeSet::new();
        f.vars(&mut more);
        let result = sys.flat.result.and_then(|r| sys.index_of(r));
        vs.extend(more.into_iter().filter(|v| Some(*v) != result));
    }
    vs.into_iter().collect()
}

/// The predicates of cut point `c`. Reachability from a variable is tracked along every
/// field for the code's variables live at `c`, and for the contract's own (ghosts, entry
/// copies) only along the fields the contract follows from them: what the assertions can ask about (the paper's backward
/// relevance). The data order is tracked for live variables.
pub fn discover(sys: &System, c: usize) -> Preds {
    let vars = variables(sys, c);
    let sources = contract_sources(sys);
    // The contract's own names (ghosts, entry copies) count as live everywhere (the exit
    // reads them); the code's variables are the others.
    let live: BTreeSet<usize> = (sys.live[c].iter().copied())
        .chain(sys.aliases[c].iter().map(|&(_, v)| v))
        .filter(|&x| !contract_only(sys, x))
        .collect();
    let v = Term::Bound(V);
    let mut terms: Vec<(Term, String)> = vec![(Term::Null, "null".into())];
    terms.extend(vars.iter().map(|&x| (Term::Var(x), sys.names[x].clone())));
    let in_backbone: BTreeSet<usize> = (sys.backbones.iter())
        .flat_map(|(_, m)| m.iter().copied())
        .collect();
    let mut unary = vec![];
    for (t, n) in &terms {
        unary.push(Pred {
            name: format!("v = {n}"),
            formula: Formula::Eq(v, *t),
            singleton: Some(*t),
            core: true,
        });
    }
    unary.push(core("alloc(v)".into(), Formula::Alloc(v)));
    for (f, fname) in sys.relations.iter().enumerate() {
        // Along a backbone only `null` reaches `null`: nothing to track.
        if f < sys.fields.len() {
            unary.push(plain(
                format!("v<{fname}*>null"),
                Formula::Reach(f, v, Term::Null),
            ));
        }
        for &x in &vars {
            // Along a field of a backbone, the backbone's paths stand for the field's unless
            // the contract follows the field from the variable.
            let tracked =
                sources.contains(&(x, f)) || (live.contains(&x) && !in_backbone.contains(&f));
            if tracked {
                let n = &sys.names[x];
                unary.push(core(
                    format!("{n}<{fname}*>v"),
                    Formula::Reach(f, Term::Var(x), v),
                ));
            }
        }
    }
    // What the check of a store along a backbone asks (does the node stored have a
    // parent?): the nodes above each live variable the program stores there, unless the
    // precondition names it (its propagated conjuncts then say what holds of it).
    for (x, t) in grafted(sys) {
        if live.contains(&x) && !sys.flat.extra_vars.contains(&sys.vars[x]) {
            let (n, tname) = (&sys.names[x], &sys.relations[t]);
            unary.push(plain(
                format!("v<{tname}*>{n}"),
                Formula::Reach(t, v, Term::Var(x)),
            ));
        }
    }
    if sys.data_field.is_some() {
        for &x in vars.iter().filter(|x| live.contains(x)) {
            let (t, n) = (Term::Var(x), &sys.names[x]);
            unary.push(plain(format!("dle(v, {n})"), Formula::Dle(v, t)));
            unary.push(plain(format!("dle({n}, v)"), Formula::Dle(t, v)));
        }
    }
    Preds {
        unary,
        nullary: vec![],
    }
}

/// The (variable, backbone relation) pairs of the stores `p->f = x` along a member field
/// `f` of a backbone.
fn grafted(sys: &System) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for e in &sys.flat.edges {
        let Op::Assign { lhs, rhs } = &e.op else {
            continue;
        };
        let (ExprKind::Field(_, _, name), Some(x)) = (&lhs.kind, variable(sys, rhs)) else {
            continue;
        };
        for (j, (_, members)) in sys.backbones.iter().enumerate() {
            if members.iter().any(|&f| sys.fields[f] == *name) {
                out.insert((x, sys.fields.len() + j));
            }
        }
    }
    out
}

/// The vocabulary variable an expression reads, through casts.
fn variable(sys: &System, e: &Expr) -> Option<usize> {
    match &e.kind {
        ExprKind::Var(v) => sys.index_of(*v),
        ExprKind::Cast(a) => variable(sys, a),
        _ => None,
    }
}

/// Whether vocabulary variable `x` is a contract's ghost or an argument's entry copy.
fn contract_only(sys: &System, x: usize) -> bool {
    let name = &sys.flat.prog.vars[sys.vars[x].0 as usize].name;
    name.ends_with("#ghost") || name.ends_with("#pre")
}

/// The (variable, field) pairs the contract follows a path from.
fn contract_sources(sys: &System) -> BTreeSet<(usize, usize)> {
    let mut out = BTreeSet::new();
    for f in sys.pre.iter().chain(&sys.post) {
        f.sources(&mut out);
    }
    out
}

fn plain(name: String, formula: Formula) -> Pred {
    Pred {
        name,
        formula,
        singleton: None,
        core: false,
    }
}

fn core(name: String, formula: Formula) -> Pred {
    Pred {
        core: true,
        ..plain(name, formula)
    }
}

//! A C function verified alone against its contract (the paper's setting: one procedure,
//! `Init = requires`, `Bad = ¬ensures` at its exit, plus the memory-safety faults).
//!
//! Consumes a program, the name of one of its functions and the spec's contract for it
//! ([`ir::Contract`]); produces the function's inlined graph ([`Flat::function`]) with the
//! contract's names bound to program variables, and then, over the transition system built
//! from that graph, the precondition and postcondition as formulas of the logic.
//!
//! The names: in `requires` a parameter is its value at entry; in `ensures` too (a copy
//! taken at entry, as C passes arguments by value), so `ensures` can relate the result to the
//! arguments even when the body overwrites them; `result` is the return value; a ghost is a
//! fresh constant that nothing writes; a declared global is the C global of that name, at
//! entry in `requires` and at exit in `ensures`. Fields are the C struct's pointer fields,
//! families the spec's definitions, lowered by [`super::assertion`].
//!
//! Assume–guarantee: the calls of other functions with contracts ([`kept`]) stay in the
//! graph, and each callee's contract becomes a [`Summary`] over the caller's logic, which the
//! program's semantics applies at the call (`program::Ctx::call`).

use super::assertion::lower_all;
use super::logic::{Formula, Term};
use super::program::System;
use crate::program::ir::{Callee, FuncId, Op, Program, Type, VarId, VarInfo, VarKind};
use crate::techniques::seed002::flat::Flat;
use shapecheck_dsl::ir::{self, Assertion, CTerm};
use std::collections::{BTreeMap, BTreeSet};

/// The program variables a contract's names stand for.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    /// In `requires`.
    pre: BTreeMap<String, VarId>,
    /// In `ensures`.
    post: BTreeMap<String, VarId>,
    /// `result`.
    result: Option<VarId>,
}

/// The graph of `function` alone, with the contract's names bound; the calls of the
/// functions in `keep` stay call edges (their contracts stand for them).
pub fn flat(
    prog: &Program,
    function: &str,
    c: &ir::Contract,
    keep: &BTreeSet<FuncId>,
) -> Result<(Flat, Bindings), String> {
    let f = prog
        .func_by_name(function)
        .ok_or_else(|| format!("the program defines no function `{function}`"))?;
    let params = prog.func(f).params.clone();
    if params.len() != c.params.len() {
        return Err(format!(
            "the contract of `{function}` names {} parameter(s), the function has {}",
            c.params.len(),
            params.len()
        ));
    }
    let (mut flat, copies) = Flat::function_keeping(prog, f, &params, keep)?;
    let mut b = Bindings {
        result: flat.result,
        ..Bindings::default()
    };
    for ((name, &p), &copy) in c.params.iter().zip(&params).zip(&copies) {
        b.pre.insert(name.clone(), p);
        b.post.insert(name.clone(), copy);
    }
    for g in &c.globals {
        let v = global(prog, function, g)?;
        b.pre.insert(g.clone(), v);
        b.post.insert(g.clone(), v);
    }
    for g in &c.ghosts {
        let v = flat.prog.add_var(VarInfo {
            name: format!("{g}#ghost"),
            ty: Type::Void.ptr_to(),
            kind: VarKind::Global,
            line: prog.func(f).line,
        });
        b.pre.insert(g.clone(), v);
        b.post.insert(g.clone(), v);
    }
    let (pre, _) = names(&c.requires);
    flat.extra_vars = pre.iter().filter_map(|n| b.pre.get(*n)).copied().collect();
    let (post, result) = names(&c.ensures);
    flat.exit_uses = post
        .iter()
        .filter_map(|n| b.post.get(*n))
        .copied()
        .collect();
    if result {
        let r = b.result.ok_or_else(|| {
            format!("the contract of `{function}` names `result`, but the function returns void")
        })?;
        flat.exit_uses.insert(r);
    }
    Ok((flat, b))
}

/// The C global `name` that the contract of `function` declares.
fn global(prog: &Program, function: &str, name: &str) -> Result<VarId, String> {
    (0..prog.vars.len())
        .map(|i| VarId(i as u32))
        .find(|&v| prog.var(v).kind == VarKind::Global && prog.var(v).name == name)
        .ok_or_else(|| format!("the contract of `{function}` reads `{name}`, not a global"))
}

/// The functions whose contracts stand for their calls in `function`'s graph
/// (assume–guarantee): every other function with a contract in `spec` that has a body and
/// does not call `function`, directly or not (so the proofs they rest on are never circular).
pub fn kept(prog: &Program, spec: &ir::Spec, function: &str) -> BTreeSet<FuncId> {
    let Some(f) = prog.func_by_name(function) else {
        return BTreeSet::new();
    };
    (spec.contracts.iter())
        .filter_map(|c| prog.func_by_name(&c.function))
        .filter(|&g| g != f && prog.func(g).defined && !calls(prog, g).contains(&f))
        .collect()
}

/// The functions `g` calls, directly or not.
fn calls(prog: &Program, g: FuncId) -> BTreeSet<FuncId> {
    let mut seen = BTreeSet::new();
    let mut work = vec![g];
    while let Some(h) = work.pop() {
        for e in prog.func(h).cfa.edge_weights() {
            if let Op::Call {
                callee: Callee::Func(k),
                ..
            } = &e.op
                && seen.insert(*k)
            {
                work.push(*k);
            }
        }
    }
    seen
}

/// The globals `g` may assign, directly or in the functions it calls.
fn written_globals(prog: &Program, g: FuncId) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    let funcs = std::iter::once(g).chain(calls(prog, g));
    for h in funcs {
        for e in prog.func(h).cfa.edge_weights() {
            let lhs = match &e.op {
                Op::Assign { lhs, .. } => Some(lhs),
                Op::Call { lhs: Some(l), .. } => Some(l),
                _ => None,
            };
            if let Some(crate::program::ir::ExprKind::Var(v)) = lhs.map(|l| &l.kind)
                && prog.var(*v).kind == VarKind::Global
            {
                out.insert(*v);
            }
        }
    }
    out
}

/// A called function's contract, standing for its calls: the formulas are over binding
/// slots `[arguments | globals at entry | ghosts | globals at exit | result]`.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The function's name.
    pub function: String,
    /// How many parameters.
    pub params: usize,
    /// The globals the contract declares, in slot order.
    pub globals: Vec<VarId>,
    /// How many ghosts.
    pub ghosts: usize,
    /// The precondition's conjuncts that name no ghost, each with its text: every call must
    /// meet them.
    pub requires: Vec<(Formula, String)>,
    /// The other conjuncts: the postcondition is known of the ghost values that meet them.
    pub given: Formula,
    /// The postcondition.
    pub ensures: Formula,
    /// The globals the function may assign (those it declares, and those its body or its
    /// callees write).
    pub writes: BTreeSet<VarId>,
}

impl Summary {
    /// The slot of the `j`th declared global at exit.
    pub fn exit_slot(&self, j: usize) -> usize {
        self.params + self.globals.len() + self.ghosts + j
    }

    /// The slot of `result`.
    pub fn result_slot(&self) -> usize {
        self.params + 2 * self.globals.len() + self.ghosts
    }
}

/// The summary of `g`'s contract `c` over the logic of `sys` (the caller's system), or why
/// the caller's logic cannot use it.
pub fn summary(
    sys: &System,
    prog: &Program,
    g: FuncId,
    c: &ir::Contract,
) -> Result<Summary, String> {
    let name = &c.function;
    if prog.func(g).params.len() != c.params.len() {
        return Err(format!(
            "the contract of `{name}` names {} parameter(s), the function has {}",
            c.params.len(),
            prog.func(g).params.len()
        ));
    }
    if orders_data(c, &sys.families) && sys.data_field.is_none() {
        return Err(format!(
            "the contract of `{name}` orders data, but the caller's logic has no data order"
        ));
    }
    for b in &c.backbones {
        let mine = sys.backbones.iter().find(|(n, _)| *n == b.0);
        let same = mine.is_some_and(|(_, fs)| fs.iter().map(|&f| &sys.fields[f]).eq(b.1.iter()));
        if !same {
            return Err(format!(
                "the contract of `{name}` declares the backbone `{}`, which the caller's \
                 contract does not declare alike",
                b.0
            ));
        }
    }
    let globals: Vec<VarId> = (c.globals.iter())
        .map(|n| global(prog, name, n))
        .collect::<Result<_, _>>()?;
    let (p, m, k) = (c.params.len(), globals.len(), c.ghosts.len());
    let slot = |i: usize| Some(Term::Var(i));
    let mut pre: BTreeMap<String, Option<Term>> = BTreeMap::new();
    let mut post: BTreeMap<String, Option<Term>> = BTreeMap::new();
    for (i, n) in c.params.iter().enumerate() {
        pre.insert(n.clone(), slot(i));
        post.insert(n.clone(), slot(i));
    }
    for (j, n) in c.globals.iter().enumerate() {
        pre.insert(n.clone(), slot(p + j));
        post.insert(n.clone(), slot(p + m + k + j));
    }
    for (j, n) in c.ghosts.iter().enumerate() {
        pre.insert(n.clone(), slot(p + m + j));
        post.insert(n.clone(), slot(p + m + j));
    }
    let names_ghost = |a: &Assertion| {
        (a.terms().iter()).any(|t| matches!(t, CTerm::Name(n) if c.ghosts.contains(n)))
    };
    let mut requires = vec![];
    let mut given = vec![];
    for a in &c.requires {
        if names_ghost(a) {
            given.push(a.clone());
        } else {
            let f = lower_all(sys, std::slice::from_ref(a), &pre, None)?;
            requires.push((f, shapecheck_dsl::contract::assertion(a)));
        }
    }
    let given = lower_all(sys, &given, &pre, None)?;
    let ensures = lower_all(sys, &c.ensures, &post, Some(slot(p + 2 * m + k)))?;
    let mut writes = written_globals(prog, g);
    writes.extend(globals.iter().copied());
    Ok(Summary {
        function: name.clone(),
        params: p,
        globals,
        ghosts: k,
        requires,
        given,
        ensures,
        writes,
    })
}

/// The families a contract names (`rev`, `sorted`, ...): the predicates its proof most
/// likely needs, so they join the first configuration.
pub fn families(c: &ir::Contract) -> Vec<String> {
    let mut out = vec![];
    for a in c.requires.iter().chain(&c.ensures) {
        a.walk(&mut |x| {
            if let Assertion::Family { name, .. } = x {
                out.push(name.clone());
            }
        });
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a contract orders data (`dle`, or a family whose definition in `defs` does): the
/// system must then model `dle`.
pub fn orders_data(c: &ir::Contract, defs: &[ir::PredFamily]) -> bool {
    (c.requires.iter().chain(&c.ensures)).any(|a| a.orders_data(defs))
}

/// The names (and whether `result`) the conditions mention.
fn names(conds: &[Assertion]) -> (Vec<&str>, bool) {
    let terms: Vec<&CTerm> = conds.iter().flat_map(Assertion::terms).collect();
    let names = (terms.iter())
        .filter_map(|t| match t {
            CTerm::Name(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    (names, terms.contains(&&CTerm::Result))
}

/// Sets the system's initial states to the precondition and its exit check to the
/// postcondition, each lowered to the logic and checked to be alternation-free.
pub fn install(sys: &mut System, c: &ir::Contract, b: &Bindings) -> Result<(), String> {
    if orders_data(c, &sys.families) && sys.data_field.is_none() {
        return Err(format!(
            "the contract of `{}` orders data (`dle` or `sorted`), but `{}` compares no \
             integer field between two nodes, so the logic has no data order",
            c.function, c.function
        ));
    }
    sys.set_backbones(&c.backbones)?;
    let terms = |names: &BTreeMap<String, VarId>| -> BTreeMap<String, Option<Term>> {
        (names.iter())
            .map(|(n, v)| (n.clone(), sys.index_of(*v).map(Term::Var)))
            .collect()
    };
    let result = b.result.map(|r| sys.index_of(r).map(Term::Var));
    let pre = lower_all(sys, &c.requires, &terms(&b.pre), None)?;
    let post = lower_all(sys, &c.ensures, &terms(&b.post), result)?;
    for (what, f) in [("precondition", &pre), ("postcondition", &post)] {
        if !f.is_alternation_free() {
            return Err(format!("the {what} of `{}` is not in AF^R", c.function));
        }
    }
    sys.pre = Some(pre);
    sys.post = Some(post);
    Ok(())
}

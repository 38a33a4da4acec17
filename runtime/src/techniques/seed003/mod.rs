//! Seed 003: property-directed shape analysis (Itzhaky, Bjørner, Reps, Sagiv, Thakur, CAV
//! 2014): IC3/PDR over full predicate abstraction, the predicates being reachability
//! formulas of AF^R decided by the reduction to EPR, behind the engine interface.
//!
//! Consumes a task whose properties are among unreach-call, valid-deref, valid-free and
//! valid-memtrack, on a program whose heap is one list struct with pointer fields to itself
//! (checked, with the construct and line of anything else); produces TRUE when PDR converges to an inductive
//! invariant (per loop head, a CNF over predicate instances, printed) that a fresh solver
//! re-checks; UNKNOWN otherwise, with the reason: "no inductive invariant over these
//! predicates" with the abstract trace (Theorem 1's third outcome) when no concrete run
//! follows it, or the concrete counterexample's fault and line when one does (on a whole
//! program this engine does not answer FALSE: the engines of the portfolio that replay runs
//! do). The predicate families are the spec's (`family` declarations: the library's `ls`,
//! `stable`, `rev`, `sorted`, or a user's) beside the logic's atoms, and form a small
//! lattice by their levels: configuration k holds the atoms and the families of level <= k
//! (with `ls` and `stable` at level 1 and `rev` and `sorted` at level 2 in the library), and
//! PDR tries the configurations in order, moving up after an abstraction failure.
//!
//! With [`Seed003::function`] set, the engine verifies that one C function alone against its
//! contract from the spec (the paper's setting): the initial states are the precondition, and
//! a return that breaks the postcondition is one more fault ([`contract`]). There a run of
//! the model that breaks the contract is replayed: the function runs concretely from the
//! run's initial heap ([`replay`]), and a concrete break is FALSE.
//!
//! The stages: [`logic`] holds the formulas, [`assertion`] lowers the spec's formulas to
//! them, [`families`] the predicates, [`epr`] the solver encoding, [`program`] the
//! transition system, [`contract`] a function's contract, [`pdr`] the search, [`check`] the
//! re-checks, [`replay`] the concrete run of a function.

pub mod assertion;
pub mod check;
pub mod contract;
pub mod epr;
pub mod families;
pub mod logic;
pub mod pdr;
pub mod program;
pub mod replay;

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::program::ir::{Callee, FuncId, Op};
use crate::program::property::{Property, PropertySet};
use crate::techniques::seed002::flat::Flat;
use families::{Family, Pred};
use pdr::{Outcome, Pdr};
use program::System;
use shapecheck_dsl::ir;
use std::collections::BTreeSet;
use std::time::Instant;

/// Assume–guarantee: the contracts of `callees` stand for their calls, so the caller's
/// verdict rests on them. Each is proved in turn by `prove` (the same engine, on that
/// function alone); `Some(UNKNOWN)` when one is not proved, naming it and why.
pub fn callees_hold(
    callees: &[String],
    details: &mut Vec<String>,
    mut prove: impl FnMut(&str, &mut Vec<String>) -> Result<Verdict, String>,
) -> Result<Option<Verdict>, String> {
    for g in callees {
        let mut sub = vec![];
        let why = match prove(g, &mut sub) {
            Ok(Verdict::True(_)) => {
                details.push(format!(
                    "the calls of `{g}` use its contract, proved first: {}",
                    sub.first().map_or("", String::as_str)
                ));
                continue;
            }
            Ok(Verdict::False(cex)) => format!("a run breaks it ({:?})", cex.violation),
            Ok(Verdict::Unknown(reasons)) => reasons.join("; "),
            Err(e) => e,
        };
        return Ok(Some(Verdict::Unknown(vec![format!(
            "the calls of `{g}` use its contract, which is not proved: {why}"
        )])));
    }
    Ok(None)
}

/// The PDR engine.
#[derive(Clone, Debug, Default)]
pub struct Seed003 {
    /// The configurations of families to try, coarsest first, by name (the engine's atoms
    /// and `rooted`, or families of the spec); empty: the lattice of the spec's levels.
    pub families: Vec<Vec<String>>,
    /// The C function to verify alone against its contract in the spec, instead of the
    /// program from `main`.
    pub function: Option<String>,
}

impl Engine for Seed003 {
    fn name(&self) -> &'static str {
        "pdr"
    }

    fn supports(&self, properties: &PropertySet) -> Result<(), String> {
        let ok = |p: &Property| {
            matches!(
                p,
                Property::UnreachCall
                    | Property::ValidDeref
                    | Property::ValidFree
                    | Property::ValidMemtrack
            )
        };
        if properties.0.iter().all(ok) {
            Ok(())
        } else {
            Err(
                "the PDR engine checks unreach-call, valid-deref, valid-free and valid-memtrack"
                    .into(),
            )
        }
    }

    fn run(&self, task: &Task) -> Run {
        let start = Instant::now();
        let mut details = vec![];
        let verdict = self.prove(task, &mut details);
        Run::finished(self.name(), start, verdict, details)
    }
}

impl Seed003 {
    /// Whether the engine applies to the task: its properties, and a program inside the logic.
    pub fn applies(&self, task: &Task) -> bool {
        self.supports(task.properties).is_ok() && self.system(task, false).is_ok()
    }

    /// The transition system of the task: the program from `main`, or the function alone
    /// with its contract installed; `data` asks for the data order.
    pub fn system(&self, task: &Task, data: bool) -> Result<System, String> {
        let Some(name) = &self.function else {
            let mut sys = System::new(Flat::new(task.program)?, task.properties, data)?;
            sys.families = task.domain.spec().families.clone();
            return Ok(sys);
        };
        let c = (task.domain.spec().contract(name))
            .ok_or_else(|| format!("the spec has no contract for `{name}`"))?;
        if task.properties.has(Property::ValidMemtrack) {
            return Err(
                "valid-memtrack is not checked against a contract: what the \
                        caller still holds is unknown there"
                    .into(),
            );
        }
        let spec = task.domain.spec();
        let keep = contract::kept(task.program, spec, name);
        let (flat, bindings) = contract::flat(task.program, name, c, &keep)?;
        let data = data || contract::orders_data(c, &spec.families);
        let mut sys = System::new(flat, task.properties, data)?;
        sys.families = spec.families.clone();
        contract::install(&mut sys, c, &bindings)?;
        let called: BTreeSet<FuncId> = (sys.flat.edges.iter())
            .filter_map(|e| match &e.op {
                Op::Call {
                    callee: Callee::Func(g),
                    ..
                } => Some(*g),
                _ => None,
            })
            .collect();
        for g in keep.into_iter().filter(|g| called.contains(g)) {
            let cg = (spec.contracts.iter())
                .find(|k| task.program.func_by_name(&k.function) == Some(g))
                .ok_or("a kept function without a contract")?;
            let s = contract::summary(&sys, task.program, g, cg)?;
            sys.summaries.insert(g, s);
        }
        if !check::satisfiable(&sys, &task.budget)? {
            return Err(format!(
                "the precondition of `{name}` is unsatisfiable: the contract would hold \
                 vacuously"
            ));
        }
        Ok(sys)
    }

    /// The configurations to try on `sys`: the given ones (resolved against the spec's
    /// families), or, for each level k of the spec's families, the families of level <= k
    /// that apply (as many distinct fields as roles; data compared, for a family that orders
    /// data) and the families a contract names, between the logic's atoms and, for
    /// valid-memtrack, `rooted` (see [`configuration`]); a level that adds nothing is skipped.
    fn lattice(
        &self,
        sys: &System,
        data: bool,
        memtrack: bool,
        named: &[String],
    ) -> Result<Vec<Vec<Family>>, String> {
        let defs = &sys.families;
        if !self.families.is_empty() {
            let resolve = |n: &String| {
                Family::parse(n, defs).ok_or_else(|| {
                    format!(
                        "no family `{n}` (known: {})",
                        Family::known(defs).join(", ")
                    )
                })
            };
            return (self.families.iter())
                .map(|c| c.iter().map(resolve).collect())
                .collect();
        }
        let applies =
            |d: &&ir::PredFamily| d.fields.len() <= sys.fields.len() && (data || !d.orders_data);
        let top = defs.iter().map(|d| d.level).max().unwrap_or(1);
        let mut out: Vec<Vec<Family>> = vec![];
        for k in 1..=top {
            let mut chosen: Vec<&ir::PredFamily> = defs
                .iter()
                .filter(applies)
                .filter(|d| d.level <= k)
                .collect();
            for d in defs.iter().filter(|d| named.contains(&d.name)) {
                if !chosen.iter().any(|c| c.name == d.name) {
                    chosen.push(d);
                }
            }
            let config = configuration(&chosen, memtrack);
            if out.last().is_none_or(|last| last.len() < config.len()) {
                out.push(config);
            }
        }
        Ok(out)
    }

    fn prove(&self, task: &Task, details: &mut Vec<String>) -> Result<Verdict, String> {
        // The system without data order serves every configuration without `sorted`.
        let mut plain = Some(self.system(task, false)?);
        let probe = plain.as_ref().ok_or("no system")?;
        let callees: Vec<String> = (probe.summaries.values())
            .map(|s| s.function.clone())
            .collect();
        let prove = |g: &str, details: &mut Vec<String>| {
            let callee = Seed003 {
                function: Some(g.to_string()),
                ..self.clone()
            };
            callee.prove(task, details)
        };
        if let Some(unknown) = callees_hold(&callees, details, prove)? {
            return Ok(unknown);
        }
        let probe = plain.as_ref().ok_or("no system")?;
        let data = program::compared_field(&probe.flat).is_some();
        let memtrack = task.properties.has(Property::ValidMemtrack);
        let named = (self.function.as_ref())
            .and_then(|f| task.domain.spec().contract(f))
            .map(contract::families)
            .unwrap_or_default();
        let configs = self.lattice(probe, data, memtrack, &named)?;
        let defs = &task.domain.spec().families;
        let mut last = String::new();
        for families in configs {
            let with_data = (families.iter()).any(|f| f.def(defs).is_some_and(|d| d.orders_data));
            let sys = match plain.take() {
                Some(sys) if !with_data => sys,
                _ => self.system(task, with_data)?,
            };
            let preds = predicates(&sys, &families)?;
            let names: Vec<&str> = families.iter().map(|f| f.name()).collect();
            let count: usize = preds.iter().map(Vec::len).sum();
            details.push(format!(
                "families {}: {count} predicates over {} cut points",
                names.join(", "),
                sys.cuts.len()
            ));
            if pdr::debugging() {
                for (c, live) in sys.live.iter().enumerate() {
                    let vs: Vec<&str> = live.iter().map(|&v| sys.names[v].as_str()).collect();
                    eprintln!(
                        "pdr: cut {c} (line {}): {}",
                        sys.line_of(sys.cuts[c]),
                        vs.join(", ")
                    );
                }
            }
            let mut pdr = Pdr::new(&sys, &preds, task.budget)?;
            let outcome = pdr.run();
            let ctr = pdr.counters;
            details.push(format!("N = {}, {} solver calls", ctr.frames, ctr.calls));
            match outcome {
                Outcome::Invariant(inv) => {
                    check::invariant(&sys, &preds, &inv, &task.budget)?;
                    let clauses: usize = inv.iter().map(|c| c.len()).sum();
                    for (c, cls) in inv.iter().enumerate() {
                        details.push(format!("invariant at line {}:", sys.line_of(sys.cuts[c])));
                        for cl in cls {
                            details.push(format!("  {}", pdr::show_clause(&preds[c], cl)));
                        }
                    }
                    let what = match &self.function {
                        Some(f) => format!("`{f}` meets its contract: "),
                        None => String::new(),
                    };
                    return Ok(Verdict::True(Certificate {
                        summary: format!(
                            "{what}PDR invariant ({clauses} clauses over {}); re-checked \
                             initial, inductive and excluding every fault by fresh solver \
                             queries",
                            names.join(", ")
                        ),
                        invariants: vec![],
                    }));
                }
                Outcome::Trace(trace, bad) => {
                    let line = bad.line;
                    let cuts: Vec<usize> = trace.iter().map(|(c, _)| *c).collect();
                    let label = format!("families {}: ", names.join(", "));
                    let f = self.function.as_deref();
                    match refute(task, &sys, f, &cuts, &bad, &label, details)? {
                        Refuted::False(v) => return Ok(v),
                        // Only a configuration that models data more finely (`sorted`
                        // brings the data order) can remove the run.
                        Refuted::Model(what) if sys.data_field.is_some() => return Err(what),
                        Refuted::Model(what) => {
                            last = what;
                            continue;
                        }
                        Refuted::Spurious => {}
                    }
                    details.push(format!(
                        "no inductive invariant over these predicates: an abstract trace to {} \
                         at line {line}:",
                        bad.describe()
                    ));
                    for (c, cube) in &trace {
                        details.push(format!(
                            "  line {}: {}",
                            sys.line_of(sys.cuts[*c]),
                            pdr::show_cube(&preds[*c], cube)
                        ));
                    }
                    last = format!(
                        "no inductive invariant over these predicates ({}) excludes {} at \
                         line {line}",
                        names.join(", "),
                        bad.describe()
                    );
                }
                Outcome::Stopped(why) => return Err(why),
            }
        }
        Err(last)
    }
}

/// What the concrete check of an abstract trace found.
pub enum Refuted {
    /// A concrete run of the function breaks its contract: FALSE.
    False(Verdict),
    /// A run of the logic's model follows the trace, and no concrete run was found (the
    /// reason, already in the details).
    Model(String),
    /// No run of the model follows the trace: the abstraction is too coarse.
    Spurious,
}

/// Checks an abstract trace (the cut points it visits, then `fault` at `line`) concretely:
/// a bounded check of the logic's model, then, against a contract, the function run from
/// the model's initial heap. Reasons go to `details` after `label`.
pub fn refute(
    task: &Task,
    sys: &System,
    function: Option<&str>,
    cuts: &[usize],
    bad: &program::Bad,
    label: &str,
    details: &mut Vec<String>,
) -> Result<Refuted, String> {
    let (fault, line) = (bad.fault, bad.line);
    let Some(heap) = check::bounded(sys, cuts, fault, &task.budget)? else {
        return Ok(Refuted::Spurious);
    };
    if let (Some(f), true) = (function, fault.is_violation()) {
        match replay::run(task, sys, f, &heap) {
            Ok(Some(cex)) => {
                details.push(format!(
                    "{label}the run of the logic's model breaks the contract; `{f}` run \
                     concretely from its initial heap breaks it too"
                ));
                details.push("the run starts from this heap:".into());
                for l in heap.describe(&entry_names(sys), &sys.fields) {
                    details.push(format!("  {l}"));
                }
                return Ok(Refuted::False(Verdict::False(Box::new(cex))));
            }
            Ok(None) => details.push(format!(
                "`{f}` run concretely from the model's initial heap meets the contract \
                 (every input 0, every input 1, then mixed 0s and 1s)"
            )),
            Err(why) => details.push(format!("the model's initial heap is not rebuilt: {why}")),
        }
    }
    let what = if fault.is_violation() && sys.pre.is_some() {
        format!(
            "a run of the logic's model of the function from a state that meets the \
             precondition reaches {} at line {line} through {} loop heads (bounded check; the \
             function run concretely from that state does not)",
            fault.describe(),
            cuts.len() - 1
        )
    } else if fault.is_violation() {
        format!(
            "a run of the logic's model of the program reaches {} at line {line} through {} \
             loop heads (bounded check; integers and untracked data are nondeterministic \
             there, so only the engines that replay runs decide it)",
            fault.describe(),
            cuts.len() - 1
        )
    } else {
        format!(
            "the program leaves the logic: {} at line {line}",
            bad.describe()
        )
    };
    details.push(format!("{label}{what}"));
    if sys.pre.is_some() {
        // Against a contract the run's initial heap is the input that breaks it.
        details.push("the run starts from this heap:".into());
        for l in heap.describe(&entry_names(sys), &sys.fields) {
            details.push(format!("  {l}"));
        }
    }
    Ok(Refuted::Model(what))
}

/// The names of the vocabulary variables live at the entry (the others empty): what a
/// description of a run's initial heap shows.
fn entry_names(sys: &System) -> Vec<String> {
    (sys.names.iter().enumerate())
        .map(|(i, n)| {
            if sys.live[0].contains(&i) {
                n.clone()
            } else {
                String::new()
            }
        })
        .collect()
}

/// A configuration of the spec families `chosen`: the atoms `x = y`, `x<f>y`, `x<f*>y`,
/// then the families in order, with the atoms `alloc(x)` placed before the first family whose
/// definition reads `alloc` (each predicate after the ones its definition is built from, the
/// order of the paper's Table 1), then `rooted` for valid-memtrack.
fn configuration(chosen: &[&ir::PredFamily], memtrack: bool) -> Vec<Family> {
    let mut out = vec![Family::Eq, Family::Edge, Family::Reach];
    for d in chosen {
        if !out.contains(&Family::Alloc) && reads_alloc(&d.body) {
            out.push(Family::Alloc);
        }
        out.push(Family::Spec(d.name.clone()));
    }
    if !out.contains(&Family::Alloc) {
        out.push(Family::Alloc);
    }
    if memtrack {
        out.push(Family::Rooted);
    }
    out
}

/// Whether a definition reads `alloc` (itself: a family it names comes before it).
fn reads_alloc(a: &ir::Assertion) -> bool {
    let mut found = false;
    a.walk(&mut |x| found |= matches!(x, ir::Assertion::Alloc(_)));
    found
}

/// The predicates of every cut point: the families over the variables live there.
pub fn predicates(sys: &System, families: &[Family]) -> Result<Vec<Vec<Pred>>, String> {
    (sys.live.iter().zip(&sys.aliases))
        .map(|(live, aliases)| {
            let vars: Vec<(usize, String)> =
                live.iter().map(|&v| (v, sys.names[v].clone())).collect();
            let mut preds = families::instantiate(sys, families, &vars)?;
            preds.extend(
                aliases
                    .iter()
                    .map(|&(u, v)| families::equal(u, v, &sys.names)),
            );
            Ok(preds)
        })
        .collect()
}

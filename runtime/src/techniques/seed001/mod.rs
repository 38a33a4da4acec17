//! Seed 001: separation logic with multiset-parametric list domains, refined by abduction
//! (Botinčan, Dodds, Magill, "Refining existential properties in separation logic
//! analyses"), behind the engine interface.
//!
//! Consumes a task whose properties are among unreach-call, valid-deref and valid-free, on a
//! program without recursion or calls through pointers (calls are inlined: the paper's
//! analysis is intra-procedural); produces TRUE when Algorithm 1 finishes an abstract
//! reachability tree without `⊤` and its re-check passes (every post of every node entailed
//! by a heap at its location, by the entailment procedure run afresh); FALSE when an abstract
//! counterexample the backward pass cannot refute is real: inputs steered by the path make
//! the explicit engine's concrete replay of the program reach a violation ([`concrete`]);
//! UNKNOWN otherwise with the reason: a construct outside the fragment and its line, a
//! counterexample neither refuted nor replayed, or a bound. The loop: build the tree with
//! `abs_T` ([`art`]); at an abstract counterexample run Algorithm 2 ([`refine`]): the
//! backward pass by abduction finds where precision was lost and SelectSymbols the symbols
//! `T` must keep; then the tree is rebuilt from the root with the larger `T` (the paper
//! resumes from the refinement point; rebuilding gives the same final tree in this
//! breadth-first order, at more cost). The whole loop runs once per domain the spec declares
//! (`spatial` declarations, in source order: the standard library's SH^mls with SH^rls's
//! protected addresses, the sorted SH^sls, then `keyed`, SH^mls whose folds keep a cell
//! holding a value of `T`; a `--spec` file's own) and per choice of the lists' data fields
//! (the first integer field of each list struct, then the second, ...), as the paper picks
//! the domain per program, until one proves.
//!
//! The stages: [`domain`] (what a spec's domain switches on), [`heap`] (symbolic heaps),
//! [`abstraction`] (`abs_T`: the domain's fold rules with their guards), [`entail`] (the
//! order), [`exec`] (symbolic execution with rearrangement), [`art`] (Algorithm 1 and the
//! re-check), [`refine`] (Algorithm 2), [`shapes`] (which structs are lists), [`split`]
//! (struct variables that embed structs, one variable per field), [`concrete`] (a replayed
//! run for an unrefuted counterexample), [`boxes`] (variables whose
//! address is taken, and struct variables, as cells).

pub mod abstraction;
pub mod art;
pub mod boxes;
pub mod concrete;
pub mod domain;
pub mod entail;
pub mod exec;
#[cfg(test)]
mod fixtures;
pub mod heap;
pub mod refine;
pub mod shapes;
pub mod split;

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::program::ir::VarId;
use crate::program::property::{Property, PropertySet};
use crate::techniques::seed002::flat::Flat;
use art::{Art, Forward, Precision};
use domain::Params;
use exec::Exec;
use heap::ListShape;
use std::collections::BTreeSet;
use std::time::Instant;

/// The most refinements before the engine gives up.
pub const MAX_REFINEMENTS: usize = 12;

/// The separation-logic engine.
#[derive(Clone, Debug, Default)]
pub struct Seed001;

/// The numbers of a finished run (the columns of the paper's Table 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// `|T|` after the last refinement.
    pub symbols: usize,
    /// Refinements.
    pub refinements: usize,
    /// Nodes of the final tree.
    pub art: usize,
    /// Entailment queries, over all trees built.
    pub queries: usize,
}

impl Engine for Seed001 {
    fn name(&self) -> &'static str {
        "separation"
    }

    fn supports(&self, properties: &PropertySet) -> Result<(), String> {
        let ok = |p: &Property| {
            matches!(
                p,
                Property::UnreachCall | Property::ValidDeref | Property::ValidFree
            )
        };
        if properties.0.iter().all(ok) {
            Ok(())
        } else {
            Err(
                "the separation-logic engine checks unreach-call, valid-deref and valid-free"
                    .into(),
            )
        }
    }

    fn run(&self, task: &Task) -> Run {
        let start = Instant::now();
        let mut details = vec![];
        let verdict = prove(task, &mut details).map(|(v, _)| v);
        Run::finished(self.name(), start, verdict, details)
    }
}

/// Algorithm 1 with Algorithm 2 on the task: the verdict and the run's numbers.
pub fn prove(task: &Task, details: &mut Vec<String>) -> Result<(Verdict, Stats), String> {
    let mut flat = Flat::new(task.program)?;
    // A variable's cell lives as long as the run, not as the variable: with valid-deref or
    // valid-free checked, a dangling pointer to a local must stay a fault, and a free of a
    // global's cell through a pointer once the variable `&g` is dead would go unnoticed: no
    // cells then.
    if !task.properties.has(Property::ValidDeref) && !task.properties.has(Property::ValidFree) {
        split::split_embedding(&mut flat);
        boxes::box_address_taken(&mut flat);
    }
    boxes::add_byte_block(&mut flat);
    let live = flat.liveness();
    let domains = &task.domain.spec().spatial;
    if domains.is_empty() {
        return Err(format!(
            "the spec ({}) declares no spatial domain for the separation-logic engine",
            task.domain.describe()
        ));
    }
    // Each domain of the spec, and in it each choice of data fields, in turn; the first
    // answer that proves, else the first's reason.
    let mut first = None;
    let choices = shapes::data_choices(&flat.prog);
    for domain in domains {
        let params = Params::of(domain);
        for choice in 0..if params.uses_data() { choices } else { 1 } {
            let shapes = shapes::list_shapes_with(&flat.prog, choice, params);
            let mut tried = vec![];
            let attempt = prove_with(task, &flat, &shapes, &live, params, &mut tried);
            let fields = data_fields(&flat.prog, &shapes);
            match attempt {
                Ok(r) => {
                    if choice > 0 {
                        details.push(format!("data fields: {fields}"));
                    }
                    details.push(format!("domain: {} ({})", domain.name, describe(domain)));
                    details.extend(tried);
                    return Ok(r);
                }
                Err(why) => {
                    details.push(format!(
                        "domain {} with data fields {fields}: {why}",
                        domain.name
                    ));
                    if std::env::var_os("SHAPECHECK_SL_DEBUG").is_some() {
                        eprintln!("{}", tried.join("\n"));
                    }
                    if first.is_none() {
                        details.extend(tried);
                        first = Some(why);
                    }
                }
            }
            if task.budget.check().is_err() {
                return Err(first.expect("at least one attempt"));
            }
        }
    }
    Err(first.expect("at least one attempt"))
}

/// A domain for reports: its list predicate and the kinds of its parameters
/// (`ls(x, y; S: multiset, C: counts)`).
fn describe(domain: &shapecheck_dsl::ir::Spatial) -> String {
    use shapecheck_dsl::spatial::{kind_text, segment_text};
    let params: Vec<String> = (domain.list.params.iter())
        .map(|p| format!("{}: {}", p.name, kind_text(p.kind)))
        .collect();
    segment_text(&domain.list.name, "x", "y", &params)
}

/// [`prove`] with these list shapes.
fn prove_with(
    task: &Task,
    flat: &Flat,
    shapes: &[ListShape],
    live: &[BTreeSet<VarId>],
    params: Params,
    details: &mut Vec<String>,
) -> Result<(Verdict, Stats), String> {
    let exec = Exec {
        prog: &flat.prog,
        shapes,
        error_calls: task.properties.has(Property::UnreachCall),
    };
    let mut art = Art::new(flat, exec, shapes, live);
    art.params = params;
    let mut t = Precision::default();
    let mut stats = Stats::default();
    loop {
        let cex = match art.forward(&t, &task.budget) {
            Forward::Done => break,
            Forward::Stop(why) => return Err(why),
            Forward::Cex(cex) => cex,
        };
        stats.queries += art.queries;
        art.queries = 0;
        let refined = match stats.refinements < MAX_REFINEMENTS {
            true => {
                refine::refine(&art, &cex, &t).map_err(|why| format!("refinement failed: {why}"))
            }
            false => Err(format!(
                "refinement limit reached: {} refinements, T = {}",
                stats.refinements,
                show(&flat.prog, &t)
            )),
        };
        let r = match refined {
            Ok(r) => r,
            Err(why) => {
                // Not refuted: a concrete run along it, if the inputs it steers by give one.
                if let Some(c) = concrete::find(task, flat, &cex.edges) {
                    details.push(format!(
                        "{why}; the abstract counterexample through lines {} is real: a run \
                         of the program replayed concretely reaches it",
                        lines(&art, &cex)
                    ));
                    return Ok((Verdict::False(c), stats));
                }
                return Err(format!(
                    "{why}; the abstract counterexample passes lines {}",
                    lines(&art, &cex)
                ));
            }
        };
        t.keep = t.keep.sum(&r.add.keep);
        t.protect.extend(r.add.protect.iter().copied());
        stats.refinements += 1;
        details.push(format!(
            "refinement {}: precision lost after line {}; T = {}",
            stats.refinements,
            r.line,
            show(&flat.prog, &t)
        ));
    }
    stats.queries += art.queries;
    let checked = art
        .recheck(&t)
        .map_err(|why| format!("the re-check failed: {why}"))?;
    stats.symbols = t.size();
    stats.art = art.nodes.len();
    let summary = format!(
        "separation-logic invariant: an abstract reachability tree of {} symbolic heaps with \
         T = {} (|T| = {}) after {} refinements and {} entailment queries; re-checked by \
         {checked} fresh entailment queries",
        stats.art,
        show(&flat.prog, &t),
        stats.symbols,
        stats.refinements,
        stats.queries
    );
    details.push(summary.clone());
    let cert = Certificate {
        summary,
        invariants: vec![],
    };
    Ok((Verdict::True(cert), stats))
}

/// The data field of each list shape, for messages (`node.key`).
fn data_fields(prog: &crate::program::ir::Program, shapes: &[ListShape]) -> String {
    let names: Vec<String> = (shapes.iter())
        .filter_map(|s| {
            let st = prog.strukt(s.ty);
            Some(format!("{}.{}", st.name, st.fields[s.data?].name))
        })
        .collect();
    names.join(", ")
}

/// `T` for messages: the data symbols, then the protected addresses.
fn show(prog: &crate::program::ir::Program, t: &Precision) -> String {
    let name = |x: heap::Term| match x {
        heap::Term::Var(v) => prog.var(v).name.clone(),
        other => other.to_string(),
    };
    let mut parts: Vec<String> = vec![];
    for (x, n) in t.keep.iter() {
        parts.extend(std::iter::repeat_n(name(x), n as usize));
    }
    parts.extend(t.protect.iter().map(|x| format!("&{}", name(*x))));
    format!("{{{}}}", parts.join(", "))
}

/// The source lines a counterexample passes.
fn lines(art: &Art, cex: &art::Cex) -> String {
    let mut out: Vec<u32> = (cex.edges.iter())
        .map(|e| art.flat.edges[*e].line)
        .collect();
    out.dedup();
    out.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

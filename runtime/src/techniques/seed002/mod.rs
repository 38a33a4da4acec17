//! Seed 002: template-based invariant synthesis over the SSA encoding of the whole program
//! (2LS: Malík, Hruška, Schrammel, Vojnar, FMCAD 2018), behind the engine interface.
//!
//! Consumes a task whose only property is unreach-call; produces TRUE when the synthesised
//! invariant, conjoined rows over the live values a loop changes (points-to rows over
//! symbolic addresses for pointers and pointer fields of abstract objects; interval, zone and
//! other numeric rows the spec's template asks for over numbers and numeric fields), is
//! inductive and excludes every error call and every undefined behaviour, re-checked by a
//! fresh solver; otherwise UNKNOWN with the reason (this engine never answers FALSE: a
//! violation it sees is a candidate the other engines of the portfolio refute or confirm by
//! replay). Memory safety is first asked of the shape analysis (valid-deref and valid-free on
//! a share of the budget): when it proves it, the encoding assumes it (no access or free is
//! undefined, and a freed object of a summary leaves it), which is both cheaper and more
//! precise than the engine's own checks.
//!
//! The stages: [`flat`] inlines the program and cuts its loops, [`memory`] lays out objects
//! and addresses, [`encode`] builds the SSA formula, [`template`] holds rows and parameters,
//! [`synth`] runs the 2LS loop and the final checks.

pub mod cinv;
pub mod encode;
pub mod flat;
pub mod memory;
pub mod rows;
pub mod synth;
pub mod template;

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::program::ir::{ExprKind, IntTy, Type};
use crate::program::property::{Property, PropertySet};
use crate::techniques::seed000::Seed000;
use crate::techniques::seed000::lazy::LazyConfig;
use encode::Encoder;
use flat::Flat;
use memory::Memory;
use std::time::{Duration, Instant};
use synth::Found;
use template::Templates;

/// The template engine.
#[derive(Clone, Debug)]
pub struct Seed002 {
    /// The engine that proves memory safety first (valid-deref and valid-free), so that the
    /// encoding may assume it.
    pub safety: Seed000,
}

impl Default for Seed002 {
    fn default() -> Self {
        Seed002 {
            safety: Seed000 {
                config: Seed002::safety_config(LazyConfig::default()),
            },
        }
    }
}

/// The stack of the memory-safety proof's thread (the size of the verifying thread's).
const SAFETY_STACK: usize = 256 << 20;

/// The share of the engine's budget the memory-safety proof may use.
const SAFETY_SHARE: f64 = 0.3;

/// The sampling bound of the memory-safety proof, in exploration steps (a step bound, so
/// that the proof does not depend on the machine's load): a few hundred steps find the
/// samples of the programs built by one function, and longer sampling of a `main` that builds
/// and walks a list runs to its cap without a sample of four nodes (the exploration is
/// breadth-first in the number of choices) while taking most of the engine's time.
const SAFETY_SAMPLING: u64 = 300;

impl Engine for Seed002 {
    fn name(&self) -> &'static str {
        "template"
    }

    fn supports(&self, properties: &PropertySet) -> Result<(), String> {
        if properties.0.iter().all(|p| *p == Property::UnreachCall) {
            Ok(())
        } else {
            Err("the template engine checks unreach-call only".into())
        }
    }

    fn run(&self, task: &Task) -> Run {
        let start = Instant::now();
        let mut details = vec![];
        let safe = self.memory_safety(task, &mut details);
        if synth::debugging() {
            eprintln!("memory safety in {:.2} s", start.elapsed().as_secs_f64());
        }
        let verdict = prove(task, safe.as_deref(), &mut details);
        Run::finished(self.name(), start, verdict, details)
    }
}

impl Seed002 {
    /// The shape analysis's configuration for the memory-safety proof: explicit-heap sampling
    /// is cut short, since it often runs to its cap without finding more to classify and the
    /// proof is only a first step of this engine.
    pub fn safety_config(base: LazyConfig) -> LazyConfig {
        LazyConfig {
            sample_steps: SAFETY_SAMPLING,
            sample_timeout: Duration::from_secs(2),
            ..base
        }
    }

    /// The certificate of a memory-safety proof (valid-deref and valid-free) by the shape
    /// analysis, if it finds one within its share of the budget.
    fn memory_safety(&self, task: &Task, details: &mut Vec<String>) -> Option<String> {
        let props = PropertySet([Property::ValidDeref, Property::ValidFree].into());
        let sub = Task {
            properties: &props,
            budget: task.budget.share(SAFETY_SHARE),
            ..*task
        };
        // On a thread of its own, so in a solver context of its own: the terms the shape
        // analysis creates (in an order that varies from run to run) would otherwise share
        // the synthesis's context and change the models it joins, and so the invariant.
        let (certificate, seconds) = std::thread::scope(|s| {
            let proof = std::thread::Builder::new()
                .stack_size(SAFETY_STACK)
                .spawn_scoped(s, || {
                    let run = self.safety.run(&sub);
                    let certificate = match run.verdict {
                        Verdict::True(c) => Some(c.summary),
                        Verdict::False(_) | Verdict::Unknown(_) => None,
                    };
                    (certificate, run.seconds)
                });
            match proof {
                Ok(t) => t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                Err(_) => (None, 0.0),
            }
        });
        if certificate.is_none() {
            details.push(format!(
                "memory safety not proved by the shape analysis ({seconds:.2} s): undefined \
                 behaviour is checked by the template engine"
            ));
        }
        certificate
    }
}

fn prove(task: &Task, safe: Option<&str>, details: &mut Vec<String>) -> Result<Verdict, String> {
    let template = (task.domain.spec().template_config()).ok_or_else(|| {
        format!(
            "{} declares no template (add a `template` declaration, or --with-library)",
            task.domain.describe()
        )
    })?;
    let cfg = rows::Config::new(&template);
    let flat = Flat::new(task.program)?;
    let mem = Memory::new(&flat)?;
    let mut tpl = Templates::new(universe(&mem), constants(task.program));
    if synth::debugging() {
        for (a, n) in &tpl.universe {
            eprintln!("address {a:#x}: {n}");
        }
    }
    let mut enc = Encoder::new(&flat, &mem, &mut tpl, &cfg, task.budget);
    if safe.is_some() {
        enc = enc.assume_memory_safe();
    }
    let encoding = Instant::now();
    let enc = enc.run()?;
    if synth::debugging() {
        eprintln!("encoded in {:.2} s", encoding.elapsed().as_secs_f64());
    }
    let found = synth::synthesise(&enc, &mut tpl, task.budget)?;
    let rounds = match found {
        Found::Safe { rounds }
        | Found::ErrorReachable(_, rounds)
        | Found::UndefinedReachable(_, _, rounds) => rounds,
    };
    details.push(format!(
        "invariant: {} rows over {} loops, {rounds} candidate checks",
        tpl.rows.len(),
        flat.loops.len()
    ));
    for r in 0..tpl.rows.len() {
        details.push(format!("  {}", tpl.show(r)));
    }
    match found {
        Found::Safe { .. } => Ok(Verdict::True(Certificate {
            invariants: located(task, &flat, &enc, &tpl),
            summary: match safe {
                None => format!(
                    "template invariant ({} rows); re-checked inductive and excluding every \
                     error call and every invalid dereference and free by a fresh solver",
                    tpl.rows.len()
                ),
                Some(proof) => format!(
                    "template invariant ({} rows); re-checked inductive and excluding every \
                     error call by a fresh solver, on runs that are memory safe by {proof}",
                    tpl.rows.len()
                ),
            },
        })),
        Found::UndefinedReachable(line, what, _) => Err(format!(
            "the strongest invariant of the templates does not exclude {what} at line {line} \
             (undefined behaviour: no TRUE for any property)"
        )),
        Found::ErrorReachable(line, _) => Err(format!(
            "the strongest invariant of the templates does not exclude the error call at \
             line {line}"
        )),
    }
}

/// The certificate's invariants at source locations (see [`cinv::located`]).
fn located(
    task: &Task,
    flat: &Flat,
    enc: &encode::Encoding,
    tpl: &Templates,
) -> Vec<crate::witness::correctness::LocatedInvariant> {
    let begun = Instant::now();
    let out = cinv::located(task.program, flat, enc, tpl, task.budget);
    if synth::debugging() {
        eprintln!(
            "located invariants in {:.2} s",
            begun.elapsed().as_secs_f64()
        );
    }
    out
}

/// The addresses points-to rows range over: NULL, the start of every object, and the
/// dangling address of pointers to freed objects that a fold leaves behind.
fn universe(mem: &Memory) -> Vec<(u64, String)> {
    let mut out = vec![(0, "NULL".to_string())];
    for (o, obj) in mem.objects.iter().enumerate() {
        out.push((Memory::addr(o, 0), format!("&{}", obj.name)));
    }
    if mem.sites.iter().any(|s| s.in_loop) {
        // Where a fold moves the pointers to a freed recent object (`encode::Fold`).
        out.push((
            Memory::addr(mem.objects.len(), 0),
            "(a freed object)".into(),
        ));
    }
    out
}

/// The integer constants of the program's own functions (not shapecheck's C library) and
/// their neighbours: the widening thresholds.
fn constants(prog: &crate::program::ir::Program) -> Vec<i128> {
    let mut out = vec![0];
    let edges = (prog.functions.iter())
        .filter(|f| !f.library)
        .flat_map(|f| f.cfa.edge_weights());
    for e in edges {
        for x in e.op.exprs() {
            x.visit(&mut |e| {
                if let (ExprKind::Const(c), Type::Int(IntTy { .. })) = (&e.kind, &e.ty) {
                    let c = i128::from(*c);
                    out.extend([c - 1, c, c + 1]);
                }
            });
        }
    }
    out
}

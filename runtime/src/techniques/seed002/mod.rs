//! Seed 002: template-based invariant synthesis over the SSA encoding of the whole program
//! (2LS: Malík, Hruška, Schrammel, Vojnar, FMCAD 2018), behind the engine interface.
//!
//! Consumes a task whose only property is unreach-call; produces TRUE when the synthesised
//! invariant, conjoined rows over every value a loop changes (points-to rows over symbolic
//! addresses for pointers and pointer fields of abstract objects, interval rows for numbers
//! and numeric fields), is inductive and excludes every error call, re-checked by a fresh
//! solver; otherwise UNKNOWN with the reason (this engine never answers FALSE: a violation it
//! sees is a candidate the other engines of the portfolio refute or confirm by replay).
//!
//! The stages: [`flat`] inlines the program and cuts its loops, [`memory`] lays out objects
//! and addresses, [`encode`] builds the SSA formula, [`template`] holds rows and parameters,
//! [`synth`] runs the 2LS loop and the final checks.

pub mod encode;
pub mod flat;
pub mod memory;
pub mod rows;
pub mod synth;
pub mod template;

use crate::engine::{Certificate, Engine, Run, Task, Verdict};
use crate::program::ir::{ExprKind, IntTy, Type};
use crate::program::property::{Property, PropertySet};
use encode::Encoder;
use flat::Flat;
use memory::Memory;
use std::time::Instant;
use synth::Found;
use template::Templates;

/// The template engine.
#[derive(Clone, Debug, Default)]
pub struct Seed002;

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
        let verdict = match prove(task, &mut details) {
            Ok(v) => v,
            Err(why) => Verdict::Unknown(vec![why]),
        };
        let mut run = Run::new(self.name(), verdict);
        run.details = details;
        run.seconds = start.elapsed().as_secs_f64();
        run
    }
}

fn prove(task: &Task, details: &mut Vec<String>) -> Result<Verdict, String> {
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
    if std::env::var_os("SHAPECHECK_DEBUG_TEMPLATE").is_some() {
        for (a, n) in &tpl.universe {
            eprintln!("address {a:#x}: {n}");
        }
    }
    let enc = Encoder::new(&flat, &mem, &mut tpl, &cfg, task.budget).run()?;
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
            summary: format!(
                "template invariant ({} rows); re-checked inductive and excluding every \
                     error call and every invalid dereference and free by a fresh solver",
                tpl.rows.len()
            ),
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

/// The addresses points-to rows range over: NULL and the start of every object.
fn universe(mem: &Memory) -> Vec<(u64, String)> {
    let mut out = vec![(0, "NULL".to_string())];
    for (o, obj) in mem.objects.iter().enumerate() {
        out.push((Memory::addr(o, 0), format!("&{}", obj.name)));
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

//! `verify --draw` and `verify --svg`: the verdict as pictures.
//!
//! Consumes the final verdict, the program and the runs; produces an SVG file and a note for
//! the report. A FALSE is drawn as the heap its replay ends in (variables, blocks, pointers;
//! leaked blocks red, freed ones dashed grey); a TRUE of the shape analysis as its shape
//! graphs per location. Anything else has nothing to draw, and the note says so. `--svg DIR`
//! adds the heap after every step of the counterexample that changed memory.

use shapecheck_runtime::engine::{Run, Verdict};
use shapecheck_runtime::explicit::draw;
use shapecheck_runtime::explicit::explore::Counterexample;
use shapecheck_runtime::explicit::replay::replay_observed;
use shapecheck_runtime::picture::{Picture, svg};
use shapecheck_runtime::program::ir::Program;
use shapecheck_runtime::program::property::PropertySet;
use std::path::Path;

/// Writes the picture of `verdict` to `path`; returns a note for the report.
pub fn write(prog: &Program, verdict: &Verdict, runs: &[Run], path: &Path) -> String {
    let (text, what) = match picture(prog, verdict, runs) {
        Ok(x) => x,
        Err(why) => return format!("picture: none written ({why})"),
    };
    match std::fs::write(path, text) {
        Ok(()) => format!("picture: {} ({what})", path.display()),
        Err(e) => format!("picture: cannot write {}: {e}", path.display()),
    }
}

fn picture(prog: &Program, verdict: &Verdict, runs: &[Run]) -> Result<(String, String), String> {
    match verdict {
        Verdict::False(cx) => {
            let v = &cx.violation;
            let state = (cx.trace.last.as_deref()).ok_or("the replay kept no final state")?;
            let caption = format!(
                "the heap when {} is violated at line {}: {}",
                v.property.name(),
                v.line,
                v.message
            );
            let p = draw::picture(prog, state, &caption);
            let what = format!("the counterexample's heap, {} boxes", p.boxes.len());
            Ok((svg::document(&[p]), what))
        }
        Verdict::True(_) => {
            let shapes = runs
                .iter()
                .find_map(|r| r.artifacts.get("shapes.svg").filter(|s| !s.is_empty()))
                .ok_or("the proof is not the shape analysis's, which alone has graphs to draw")?;
            let panels = shapes.matches("class=\"caption\"").count();
            Ok((shapes.clone(), format!("the shape graphs, {panels} panels")))
        }
        Verdict::Unknown(_) => Err("the verdict is UNKNOWN".into()),
    }
}

/// The most steps of a counterexample drawn in `trace.svg`.
const MAX_STEPS: usize = 60;

/// `verify --svg DIR`: `heap.svg` (the heap a FALSE's replay ends in), `trace.svg` (the heap
/// after every step of the replay that changed memory, at most [`MAX_STEPS`]) and
/// `shapes.svg` (a shape-analysis TRUE's graphs); returns a note for the report.
pub fn write_dir(
    prog: &Program,
    checks: &PropertySet,
    verdict: &Verdict,
    runs: &[Run],
    dir: &Path,
) -> String {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return format!("pictures: cannot create {}: {e}", dir.display());
    }
    let mut files: Vec<(&str, String)> = vec![];
    match picture(prog, verdict, runs) {
        Ok((text, _)) if matches!(verdict, Verdict::False(_)) => files.push(("heap.svg", text)),
        Ok((text, _)) => files.push(("shapes.svg", text)),
        Err(why) => return format!("pictures: none written ({why})"),
    }
    if let Verdict::False(cx) = verdict {
        files.push(("trace.svg", svg::document(&trace(prog, checks, cx))));
    }
    for (name, text) in &files {
        if let Err(e) = std::fs::write(dir.join(name), text) {
            return format!("pictures: cannot write {}: {e}", dir.join(name).display());
        }
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    format!("pictures: {} in {}", names.join(", "), dir.display())
}

/// The heap after each step of the counterexample's replay that changed memory.
fn trace(prog: &Program, checks: &PropertySet, cx: &Counterexample) -> Vec<Picture> {
    let steps = &cx.trace.steps;
    let mut panels = vec![];
    let mut k: usize = 0;
    let mut more: usize = 0;
    replay_observed(prog, checks, &cx.trace.inputs, steps.len() + 1, &mut |st| {
        if let Some(step) = k.checked_sub(1).and_then(|i| steps.get(i))
            && !step.changes.is_empty()
        {
            if panels.len() < MAX_STEPS {
                let caption = format!(
                    "step {k}, line {} in {}: {}",
                    step.line, step.function, step.op
                );
                panels.push(draw::picture(prog, st, &caption));
            } else {
                more += 1;
            }
        }
        k += 1;
    });
    if let Some(last) = cx.trace.last.as_deref() {
        let v = &cx.violation;
        let caption = format!("the violation of {} at line {}", v.property.name(), v.line);
        panels.push(draw::picture(prog, last, &caption));
    }
    if more > 0 {
        panels.push(Picture::new(format!("({more} more steps not drawn)")));
    }
    panels
}

//! `verify --draw`: the verdict as a picture.
//!
//! Consumes the final verdict, the program and the runs; produces an SVG file and a note for
//! the report. A FALSE is drawn as the heap its replay ends in (variables, blocks, pointers;
//! leaked blocks red, freed ones dashed grey); a TRUE of the shape analysis as its shape
//! graphs per location. Anything else has nothing to draw, and the note says so.

use shapecheck_runtime::engine::{Run, Verdict};
use shapecheck_runtime::explicit::draw;
use shapecheck_runtime::picture::svg;
use shapecheck_runtime::program::ir::Program;
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

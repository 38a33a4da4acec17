//! `verify --witness`: writes the verdict's witness file.
//!
//! Consumes the final verdict, the program and the witness metadata; produces the witness
//! file (violation witness for FALSE, correctness witness for TRUE) and a note for the
//! report. A violation witness is validated first by replaying it in the concrete
//! interpreter, driven by its waypoints alone; a witness that does not replay is still
//! written, and the note says so.

use shapecheck_runtime::engine::Verdict;
use shapecheck_runtime::program::ir::Program;
use shapecheck_runtime::program::property::PropertySet;
use shapecheck_runtime::witness::{Meta, correctness, validate, violation};
use std::path::Path;

/// The most edges the validating replay runs.
const REPLAY_STEPS: usize = 1_000_000;

/// Writes the witness of `verdict` to `path`; returns a note for the report.
pub fn write(
    prog: &Program,
    checks: &PropertySet,
    verdict: &Verdict,
    meta: &Meta,
    path: &Path,
) -> Result<Option<String>, String> {
    let (text, note) = match verdict {
        Verdict::False(cx) => {
            let text = violation::witness(prog, cx, meta);
            let note = match validate::validate(prog, checks, &text, REPLAY_STEPS) {
                Ok(v) => format!(
                    "witness: {} (violation, {} waypoints; validated: its replay violates {} \
                     at line {})",
                    path.display(),
                    v.waypoints,
                    v.property.name(),
                    v.line
                ),
                Err(e) => format!(
                    "witness: {} (violation; NOT validated by replay: {e}{})",
                    path.display(),
                    match violation::unpinned(prog, cx, meta) {
                        0 => String::new(),
                        n => format!(
                            "; {n} values drawn outside the program's own nondeterministic \
                             calls (main's arguments, a library model, an uninitialised \
                             variable) cannot be pinned by waypoints"
                        ),
                    }
                ),
            };
            (text, note)
        }
        Verdict::True(c) => {
            let note = format!(
                "witness: {} (correctness, {} loop invariants{})",
                path.display(),
                c.invariants.len(),
                match c.invariants.is_empty() {
                    true => ": the certificate states nothing in C",
                    false => "",
                }
            );
            (correctness::witness(meta, &c.invariants), note)
        }
        Verdict::Unknown(_) => return Ok(None),
    };
    std::fs::write(path, text).map_err(|e| e.to_string())?;
    Ok(Some(note))
}

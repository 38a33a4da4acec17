//! `verify --witness`: writes the verdict's witness file; `validate`: replays one.
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
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The most edges a validating replay runs beyond the length of the run that found the
/// violation (a replay that strays from the witness's path, e.g. into a loop that only a
/// later waypoint's value leaves, is cut short).
const REPLAY_SLACK: usize = 10_000;

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
            let steps = 2 * cx.trace.steps.len() + REPLAY_SLACK;
            let note = match validate::validate(prog, checks, &text, steps) {
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

/// `shapecheck validate`.
#[derive(clap::Args)]
pub struct ValidateArgs {
    /// The C program (`.c` or preprocessed `.i`).
    file: PathBuf,
    /// The violation witness (YAML format 2.0).
    #[arg(long)]
    witness: PathBuf,
    /// An SV-COMP property file (.prp).
    #[arg(long, conflicts_with = "check")]
    property: Option<PathBuf>,
    /// Properties, comma-separated (as for `verify`).
    #[arg(long, default_value = "unreach-call")]
    check: String,
    /// The data model.
    #[arg(long, value_enum, default_value_t = crate::Model::Ilp32)]
    data_model: crate::Model,
    /// Whether allocation may fail.
    #[arg(long, value_enum, default_value_t = crate::Malloc::MayFail)]
    malloc: crate::Malloc,
    /// The most edges one replay runs.
    #[arg(long, default_value_t = 1_000_000)]
    max_steps: usize,
}

/// Replays the witness of `args`; exit 0 when it reaches its target.
pub fn run(args: &ValidateArgs) -> ExitCode {
    let checks = match &args.property {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| format!("{}: {e}", p.display()))
            .and_then(|t| PropertySet::parse_prp(&t)),
        None => PropertySet::parse_list(&args.check),
    };
    let text = std::fs::read_to_string(&args.witness)
        .map_err(|e| format!("{}: {e}", args.witness.display()));
    let model = args.data_model.data_model();
    let prog = shapecheck_runtime::program::frontend::load_with(&args.file, model, None)
        .map_err(|e| e.to_string());
    let (checks, text, mut prog) = match (checks, text, prog) {
        (Ok(c), Ok(t), Ok(p)) => (c, t, p),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    prog.alloc_may_fail = args.malloc == crate::Malloc::MayFail;
    match validate::validate(&prog, &checks, &text, args.max_steps) {
        Ok(v) => {
            println!(
                "VALID: the replay violates {} at line {}, passing {} waypoints",
                v.property.name(),
                v.line,
                v.waypoints
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("INVALID: {e}");
            ExitCode::from(1)
        }
    }
}

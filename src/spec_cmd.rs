//! `shapecheck spec check FILE...` and `shapecheck spec show [FILE]`.

use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

/// The `spec` subcommands.
#[derive(Subcommand, Debug)]
pub enum SpecCommand {
    /// Report every mistake in spec files (file:line:col, the line, a caret); exit 1 on errors.
    Check {
        /// Spec files, checked one by one.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Show the structures, predicates with formulas, and the lattice of a spec (default: the
    /// standard library).
    Show {
        /// A spec file.
        file: Option<PathBuf>,
    },
}

/// Runs a `spec` subcommand.
pub fn run(c: &SpecCommand) -> ExitCode {
    match c {
        SpecCommand::Check { files } => check(files),
        SpecCommand::Show { file } => show(file.as_deref()),
    }
}

fn check(files: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    for f in files {
        match crate::specs::load_file(f) {
            Ok(spec) => crate::outln!(
                "{}: ok ({} predicates, {} invariants, {} structures)",
                f.display(),
                spec.predicates.len(),
                spec.invariants.len(),
                spec.structures.len()
            ),
            Err(e) => {
                failed = true;
                eprint!("{e}");
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn show(file: Option<&std::path::Path>) -> ExitCode {
    let spec = match file {
        Some(f) => match crate::specs::load_file(f) {
            Ok(s) => s,
            Err(e) => {
                eprint!("{e}");
                return ExitCode::from(1);
            }
        },
        None => crate::specs::standard(),
    };
    crate::guard::print(&shapecheck_dsl::print::show_ir(&spec));
    ExitCode::SUCCESS
}

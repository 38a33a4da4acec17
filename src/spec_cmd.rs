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
        /// Check each file on top of the standard library (it may use the library's
        /// predicates and invariants and refine its structures).
        #[arg(long)]
        with_library: bool,
    },
    /// Show the structures, predicates with formulas, and the lattice of a spec (default: the
    /// standard library).
    Show {
        /// A spec file.
        file: Option<PathBuf>,
        /// Show the file on top of the standard library.
        #[arg(long, requires = "file")]
        with_library: bool,
    },
}

/// Runs a `spec` subcommand.
pub fn run(c: &SpecCommand) -> ExitCode {
    match c {
        SpecCommand::Check {
            files,
            with_library,
        } => check(files, *with_library),
        SpecCommand::Show { file, with_library } => show(file.as_deref(), *with_library),
    }
}

fn check(files: &[PathBuf], with_library: bool) -> ExitCode {
    let mut failed = false;
    for f in files {
        match crate::specs::load_file(f, with_library) {
            Ok(spec) => crate::outln!(
                "{}: ok ({} predicates, {} invariants, {} structures{})",
                f.display(),
                spec.predicates.len(),
                spec.invariants.len(),
                spec.structures.len(),
                match spec.spatial.len() {
                    0 => String::new(),
                    n => format!(", {n} spatial domains"),
                }
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

fn show(file: Option<&std::path::Path>, with_library: bool) -> ExitCode {
    let spec = match file {
        Some(f) => match crate::specs::load_file(f, with_library) {
            Ok(s) => s,
            Err(e) => {
                eprint!("{e}");
                return ExitCode::from(1);
            }
        },
        None => shapecheck_library::spec().clone(),
    };
    crate::guard::print(&shapecheck_dsl::print::show_ir(&spec));
    ExitCode::SUCCESS
}

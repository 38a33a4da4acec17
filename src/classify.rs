//! `shapecheck classify`: placeholder until the classify module lands.
use clap::Args;
use std::process::ExitCode;

/// Arguments of `shapecheck classify`.
#[derive(Args, Debug)]
pub struct ClassifyArgs {
    /// The C program.
    pub file: std::path::PathBuf,
}

/// Runs the classification.
pub fn run(_args: &ClassifyArgs) -> ExitCode {
    eprintln!("classify: not implemented yet");
    ExitCode::from(1)
}

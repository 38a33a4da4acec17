//! `shapecheck bench`: placeholder until the bench module lands.
use clap::Args;
use std::process::ExitCode;

/// Arguments of `shapecheck bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Task definitions (.yml) or folders of them.
    pub paths: Vec<std::path::PathBuf>,
}

/// Runs the benchmark.
pub fn run(_args: &BenchArgs) -> ExitCode {
    eprintln!("bench: not implemented yet");
    ExitCode::from(1)
}

//! The shapecheck command line: `verify`, `cfa`, `bench`.
mod bench;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "shapecheck", version, about = "A verifier for heap-manipulating C programs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run SV-COMP task definitions and score the verdicts.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Bench(args) => bench::run(&args),
    }
}

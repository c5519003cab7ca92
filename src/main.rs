//! The `extrack` command line.

use clap::Parser;
use std::process::ExitCode;

mod cli;

/// Exact real-time extremal-distance tracking on NURBS CAD models.
#[derive(Parser)]
#[command(name = "extrack", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: cli::Command,
}

fn main() -> ExitCode {
    let args = Cli::parse();
    match cli::run(args.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("extrack: error: {e}");
            ExitCode::FAILURE
        }
    }
}

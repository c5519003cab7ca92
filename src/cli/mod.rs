//! Subcommands of the `extrack` binary (one file per command).

use clap::Subcommand;

/// All subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Print the library version and the supported formats.
    Version,
}

/// Runs one subcommand; errors become one line on stderr and exit code 1.
pub fn run(cmd: Command) -> Result<(), String> {
    match cmd {
        Command::Version => {
            println!("extrack {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
    }
}

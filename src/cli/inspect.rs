//! `extrack inspect FILE [--json]`: summary of a STEP or IGES file.

use clap::Args;
use extrack::import::{import_file, InspectReport};
use std::path::PathBuf;

/// Arguments of `extrack inspect`.
#[derive(Args)]
pub struct InspectArgs {
    /// A STEP (.step/.stp) or IGES (.igs/.iges) file.
    pub file: PathBuf,
    /// Print the stable JSON report (schema in formats/iges.md and formats/step.md).
    #[arg(long)]
    pub json: bool,
}

/// Runs `inspect`.
pub fn run(args: InspectArgs) -> Result<(), String> {
    let model = import_file(&args.file).map_err(|e| e.to_string())?;
    let report = InspectReport::of(&model);
    if args.json {
        super::write_stdout(&(serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n"))?;
    } else {
        super::write_stdout(&report.to_text())?;
    }
    Ok(())
}

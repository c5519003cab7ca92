//! `extrack dump FILE.exs`: deterministic text dump of a scene file.

use crate::scene::{dump, SceneError, SceneFile};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `extrack dump`.
#[derive(Args)]
pub struct DumpArgs {
    /// A scene file (.exs) written by `extrack import`. It is fully validated
    /// (checksums, bounds, indices) before anything is printed.
    pub file: PathBuf,
}

/// Runs `dump`: the text goes to stdout; an unreadable, foreign or corrupted
/// file is one error line (exit code 1).
pub fn run(args: DumpArgs) -> Result<(), String> {
    let scene = SceneFile::open(&args.file).map_err(|e| match e {
        SceneError::Io { .. } => e.to_string(),
        _ => format!("{}: {e}", args.file.display()),
    })?;
    super::write_stdout(&dump(&scene.view()))?;
    Ok(())
}

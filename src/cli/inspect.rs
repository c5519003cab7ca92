//! `extrack inspect FILE [--json]`: summary of a STEP or IGES file, or of a
//! prepared scene (`.exs`, recognised by its magic bytes).

use crate::import::{import_file, InspectReport};
use crate::scene::packed::PACKED_MAGIC;
use crate::scene::records::MAGIC;
use crate::scene::summary::SceneSummary;
use crate::scene::SceneFile;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `extrack inspect`.
#[derive(Args)]
pub struct InspectArgs {
    /// A STEP (.step/.stp) or IGES (.igs/.iges) file, or a scene (.exs).
    pub file: PathBuf,
    /// Print the stable JSON report (schema in formats/iges.md, formats/step.md; scenes: formats/scene.md).
    #[arg(long)]
    pub json: bool,
}

/// The scene form of the file by its magic bytes: `Some(false)` plain,
/// `Some(true)` packed, `None` not a scene.
fn scene_form(path: &std::path::Path) -> Option<bool> {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .ok()?;
    match head {
        MAGIC => Some(false),
        PACKED_MAGIC => Some(true),
        _ => None,
    }
}

/// Runs `inspect`.
pub fn run(args: InspectArgs) -> Result<(), String> {
    if let Some(packed) = scene_form(&args.file) {
        let scene = SceneFile::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
        let file_bytes = std::fs::metadata(&args.file).map_or(0, |m| m.len() as usize);
        let summary = SceneSummary::of(&scene.view()).stored_as(file_bytes, packed);
        let text = if args.json {
            serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())? + "\n"
        } else {
            summary.to_text()
        };
        return super::write_stdout(&text);
    }
    let model = import_file(&args.file).map_err(|e| e.to_string())?;
    let report = InspectReport::of(&model);
    if args.json {
        super::write_stdout(&(serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n"))?;
    } else {
        super::write_stdout(&report.to_text())?;
    }
    Ok(())
}

//! `extrack verify FILE|SCENE [--source FILE] [--json]`: the self-check of a
//! prepared scene against the imported Model (issue 25, `extrack::verify`).
//! A STEP/IGES FILE is imported, prepared and checked; a scene (.exs) is
//! checked against the Model of `--source`. Exit code 1 when a face fails.

use clap::Args;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::scene::SceneFile;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `extrack verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// A STEP/IGES file (imported and prepared here) or a scene (.exs).
    pub file: PathBuf,
    /// The STEP/IGES file a scene was prepared from (required for a scene).
    #[arg(long)]
    pub source: Option<PathBuf>,
    /// Print the full report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also print the check's time on stderr.
    #[arg(long)]
    pub time: bool,
}

/// Runs `verify`.
pub fn run(args: VerifyArgs) -> Result<(), String> {
    let is_scene = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("exs"));
    let (model_path, scene) = if is_scene {
        let src = args
            .source
            .clone()
            .ok_or_else(|| format!("{}: a scene needs --source FILE (the STEP/IGES file it came from)", args.file.display()))?;
        let f = SceneFile::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
        (src, Some(f.view().to_data()))
    } else {
        (args.file.clone(), None)
    };
    let model = extrack::import::import_file(&model_path).map_err(|e| format!("{}: {e}", model_path.display()))?;
    let scene = match scene {
        Some(s) => s,
        None => prepare(&model, &PrepareOptions::default()).map_err(|e| format!("{}: {e}", model_path.display()))?,
    };
    let t = Instant::now();
    let report = extrack::verify::verify(&model, &scene);
    if args.time {
        eprintln!("verify: {:.3} s", t.elapsed().as_secs_f64());
    }
    if args.json {
        let s = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        super::write_stdout(&(s + "\n"))?;
    } else {
        super::write_stdout(&report.to_text())?;
    }
    if report.passed() {
        Ok(())
    } else {
        Err(format!("{} face(s) failed verification", report.summary.failed))
    }
}

//! `extrack verify FILE|SCENE [--source FILE] [--json]`: the self-check of a
//! prepared scene against the imported Model (issue 25, `crate::verify`).
//! A STEP/IGES FILE is imported, prepared and checked; a scene (.exs) is
//! checked against the Model of `--source`, or, without it, its stored
//! self-check is reported. Exit code 1 when a face fails.

use crate::prepare::{prepare, PrepareOptions};
use crate::scene::summary::ChecksSummary;
use crate::scene::SceneFile;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `extrack verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// A STEP/IGES file (imported, prepared and checked) or a scene (.exs).
    pub file: PathBuf,
    /// The STEP/IGES file a scene was prepared from: check the scene against
    /// it (without it, a scene's stored self-check is reported).
    #[arg(long)]
    pub source: Option<PathBuf>,
    /// Print the full per-face report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also print the times of import, prepare and the check on stderr.
    #[arg(long)]
    pub time: bool,
}

/// Runs `verify`.
pub fn run(args: VerifyArgs) -> Result<(), String> {
    let is_scene = args.file.extension().is_some_and(|e| e.eq_ignore_ascii_case("exs"));
    let shown = |p: &PathBuf| p.display().to_string();
    if is_scene && args.source.is_none() {
        return stored(&args);
    }
    use crate::verify::cost::{timed, Cost};
    let (model_path, scene) = if is_scene {
        let src = args.source.clone().unwrap_or_default();
        let f = SceneFile::open(&args.file).map_err(|e| format!("{}: {e}", shown(&args.file)))?;
        (src, Some(f.view().to_data()))
    } else {
        (args.file.clone(), None)
    };
    let (model, import) = timed(|| crate::import::import_file(&model_path));
    let model = model.map_err(|e| format!("{}: {e}", shown(&model_path)))?;
    let (scene, prepare_t) = timed(|| match scene {
        Some(s) => Ok(s),
        None => prepare(&model, &PrepareOptions::default()),
    });
    let scene = scene.map_err(|e| format!("{}: {e}", shown(&model_path)))?;
    let (report, verify_t) = timed(|| crate::verify::verify(&model, &scene));
    if args.time {
        let cost = Cost {
            import,
            prepare: prepare_t,
            verify: verify_t,
        };
        eprintln!("{}", cost.to_line());
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

/// Reports the self-check stored in a scene.
fn stored(args: &VerifyArgs) -> Result<(), String> {
    let f = SceneFile::open(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let view = f.view();
    let Some(checks) = ChecksSummary::of(&view) else {
        return Err(format!(
            "{}: the scene carries no self-check (prepared with --no-verify or before format 2.2); give --source FILE to check it",
            args.file.display()
        ));
    };
    let failed = checks
        .failed_faces
        .iter()
        .filter(|f| f.failed.iter().any(|n| *n != "not_checked"))
        .count();
    if args.json {
        let s = serde_json::to_string_pretty(&checks).map_err(|e| e.to_string())?;
        super::write_stdout(&(s + "\n"))?;
    } else {
        let mut s = String::new();
        for f in &checks.failed_faces {
            let body = f.body.map_or("-".to_string(), |b| b.to_string());
            s.push_str(&format!(
                "face #{} (body {body}): {} (face {:.6} mm², pieces {:.6} mm², containment {:.3e} mm, boundary {:.3e} mm)\n",
                f.face,
                f.failed.join(", "),
                f.model_area,
                f.piece_area,
                f.worst_containment,
                f.worst_boundary
            ));
        }
        for b in checks.bodies.iter().filter(|b| !b.failed.is_empty()) {
            s.push_str(&format!("body {}: {}\n", b.body, b.failed.join(", ")));
        }
        s.push_str(&format!(
            "verify (stored in the scene): {} faces, {failed} failed: {}\n",
            checks.faces,
            if failed == 0 { "PASS" } else { "FAIL" }
        ));
        super::write_stdout(&s)?;
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} face(s) failed verification"))
    }
}

//! `extrack import FILE -o OUT.exs`: import a STEP/IGES file, prepare it into
//! convex nice pieces and write the scene, with progress on stderr and a
//! one-screen summary.

use crate::prepare::{prepare_with_stats, PrepareOptions};
use crate::scene::ConvexityClass;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `extrack import`.
#[derive(Args)]
pub struct ImportArgs {
    /// A STEP (.step/.stp) or IGES (.igs/.iges) file.
    pub file: PathBuf,
    /// Output scene file (.exs).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Largest normal-cone half-angle of a convex piece, degrees (< 90).
    #[arg(long, default_value_t = 80.0)]
    pub max_cone_deg: f64,
    /// Write the plain in-place layout instead of the packed (Zstandard)
    /// container: larger, but it can be memory-mapped.
    #[arg(long)]
    pub plain: bool,
    /// Skip the self-check of the scene against the Model (`extrack verify`).
    #[arg(long)]
    pub no_verify: bool,
    /// Refuse the file when import and preparation take longer than this
    /// many seconds (wall clock; the per-face work budgets apply either way).
    #[arg(long)]
    pub time_limit: Option<f64>,
}

/// Runs `import`.
pub fn run(args: ImportArgs) -> Result<(), String> {
    let t0 = Instant::now();
    let model = crate::import::import_file(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let t_import = t0.elapsed();
    let time_limit = match args.time_limit {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(format!("--time-limit {s}: not a positive number of seconds"))
        }
        Some(s) => {
            let left = std::time::Duration::from_secs_f64(s).checked_sub(t_import);
            match left {
                Some(l) => Some(l),
                None => {
                    return Err(format!(
                        "{}: import took {:.1} s, beyond the time limit of {s} s; the file is refused",
                        args.file.display(),
                        t_import.as_secs_f64()
                    ))
                }
            }
        }
        None => None,
    };
    // a progress bar on stderr for long files (hidden when stderr is not a terminal)
    let total_faces: usize = model.bodies.iter().map(|b| b.face_indices().count()).sum();
    let bar = if total_faces >= 50 {
        ProgressBar::new(total_faces as u64)
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template("{msg:>8} [{bar:40}] {pos}/{len} faces, {elapsed} (eta {eta})") {
        bar.set_style(style.progress_chars("=> "));
    }
    let progress = |stage: &str, done: usize, _total: usize| {
        if bar.message() != stage {
            bar.set_message(stage.to_string());
        }
        bar.set_position(done as u64);
    };
    let opts = PrepareOptions {
        max_cone_angle: args.max_cone_deg.to_radians(),
        progress: Some(&progress),
        time_limit,
        ..PrepareOptions::default()
    };
    let t1 = Instant::now();
    let (mut scene, stats) = prepare_with_stats(&model, &opts).map_err(|e| match (e, args.time_limit) {
        (crate::prepare::PrepareError::TimeLimit { done, total, .. }, Some(s)) => format!(
            "{}: import and preparation exceeded the time limit of {s} s ({done} of {total} faces prepared); the file is refused",
            args.file.display()
        ),
        (e, _) => format!("{}: {e}", args.file.display()),
    })?;
    bar.finish_and_clear();
    let t_prepare = t1.elapsed();
    // the self-check, stored in the scene (answers on a failed face are flagged)
    let t3 = Instant::now();
    let report = (!args.no_verify).then(|| crate::verify::verify_into(&model, &mut scene));
    let t_verify = t3.elapsed();
    let t2 = Instant::now();
    let bytes = if args.plain {
        scene.write()
    } else {
        scene
            .write_packed(crate::scene::packed::DEFAULT_LEVEL)
            .map_err(|e| format!("{}: {e}", args.output.display()))?
    };
    std::fs::write(&args.output, &bytes).map_err(|e| format!("{}: {e}", args.output.display()))?;
    let t_write = t2.elapsed();
    let mut by_class = [0usize; 5];
    for p in &scene.pieces {
        by_class[p.class.code() as usize] += 1;
    }
    let max_cone = scene
        .pieces
        .iter()
        .filter(|p| p.class == ConvexityClass::Convex)
        .map(|p| p.cone.half_angle.to_degrees())
        .fold(0.0, f64::max);
    println!("{} -> {}", args.file.display(), args.output.display());
    println!(
        "bodies {}  faces {} (skipped {})",
        scene.bodies.len(),
        stats.faces,
        stats.faces_skipped
    );
    let classes: Vec<String> = ConvexityClass::ALL
        .iter()
        .map(|c| format!("{} {}", c.name(), by_class[c.code() as usize]))
        .collect();
    println!(
        "pieces {} ({}); dropped outside trims {}",
        scene.pieces.len(),
        classes.join(", "),
        stats.pieces_dropped
    );
    println!("largest convex normal cone {max_cone:.1}°");
    println!(
        "edges {}  vertices {}  bvh nodes {}",
        scene.edges.len(),
        scene.vertices.len(),
        scene.bvh_nodes.len()
    );
    println!(
        "scene {} bytes ({}); warnings {}",
        bytes.len(),
        if args.plain { "plain" } else { "packed" },
        scene.meta.warnings.len()
    );
    if let Some(report) = &report {
        for (f, c) in report.faces.iter().zip(&report.context) {
            // failing faces, and faces the check could not finish
            // (NOT_CHECKED: their answers are unverified too)
            if f.failed != 0 {
                println!("warning: verify: {}", crate::verify::face_line(f, c));
            }
        }
        for b in report
            .bodies
            .iter()
            .filter(|b| b.failed & crate::verify::SHELL_INCOMPLETE != 0)
        {
            println!(
                "warning: verify: body {}: its closed shell lost {} face(s): signed distance unreliable",
                b.body, b.dropped_faces
            );
        }
        let m = &report.summary;
        println!(
            "verify: {} faces, {} failed ({} dropped), {} not checked, {} incomplete bodies: {}",
            m.faces,
            m.failed,
            m.dropped,
            m.not_checked,
            m.incomplete_bodies,
            if report.passed() { "PASS" } else { "FAIL" }
        );
    }
    println!(
        "time: import {:.3} s, prepare {:.3} s, write {:.3} s{}",
        t_import.as_secs_f64(),
        t_prepare.as_secs_f64(),
        t_write.as_secs_f64(),
        if report.is_some() {
            format!(", verify {:.3} s", t_verify.as_secs_f64())
        } else {
            String::new()
        }
    );
    Ok(())
}

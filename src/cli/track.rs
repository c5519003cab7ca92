//! `extrack track SCENE --path PATH.csv --out TRACE.csv [--plot TRACE.svg]`:
//! a point–body tracker driven along a path, one row per update; and
//! `extrack track SCENE --bodies I J --motion MOTION --out TRACE.csv`: a
//! body–body tracker driven along a motion of both bodies (`pair_track`).
//! Both input formats: `formats/motion.md`. The point trace's last column,
//! `status`, holds the answer's status bits (`AnswerStatus`: 1 checked,
//! 2 unverified face, 4 shell incomplete, 8 unconverged; 0 = the scene
//! carries no self-check and the update converged).

use crate::geom::Vec3;
use crate::track::{BodyState, PointBodyResult, PointBodyTracker, PointState};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `extrack track`.
#[derive(Args)]
pub struct TrackArgs {
    /// A scene (.exs), or a STEP/IGES file (imported and prepared first).
    pub scene: PathBuf,
    /// Point–body mode: the point's path, CSV with columns `t,x,y,z` (seconds, mm; a header line is allowed).
    #[arg(long, required_unless_present = "motion", conflicts_with_all = ["motion", "bodies", "scene_b"])]
    pub path: Option<PathBuf>,
    /// Body–body mode: the motion of both bodies, a CSV file of `t, A's position and quaternion, B's` (formats/motion.md) or `builtin:orbit` / `builtin:approach` / `builtin:haptic`.
    #[arg(long, requires = "bodies")]
    pub motion: Option<String>,
    /// Body–body mode: body I of SCENE (A) and body J of SCENE or of `--scene-b` (B).
    #[arg(long, num_args = 2, value_names = ["I", "J"], requires = "motion", allow_negative_numbers = true)]
    pub bodies: Option<Vec<String>>,
    /// Body–body mode: take body J from this scene (.exs, STEP or IGES).
    #[arg(long, requires = "bodies")]
    pub scene_b: Option<PathBuf>,
    /// Trace output (CSV, one row per update).
    #[arg(long)]
    pub out: PathBuf,
    /// Point–body mode: the body index.
    #[arg(long, default_value_t = 0, conflicts_with = "bodies")]
    pub body: u32,
    /// Also draw the distance and the witnesses' parameters over time (SVG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Point–body mode: controller settings.
    #[command(flatten)]
    pub controller: super::query::ControllerArgs,
}

/// Reads a `t,x,y,z` CSV path.
pub fn read_path(path: &Path) -> Result<Vec<(f64, Vec3)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        let nums: Result<Vec<f64>, _> = cells.iter().map(|c| c.parse::<f64>()).collect();
        match nums {
            Ok(n) if n.len() == 4 && n.iter().all(|x| x.is_finite()) => rows.push((n[0], Vec3::new(n[1], n[2], n[3]))),
            Err(_) if rows.is_empty() && i == 0 => continue, // header
            _ => {
                return Err(format!(
                    "{}:{}: expected four finite numbers t,x,y,z",
                    path.display(),
                    i + 1
                ))
            }
        }
    }
    if rows.is_empty() {
        return Err(format!("{}: no rows", path.display()));
    }
    for w in rows.windows(2) {
        if w[1].0 < w[0].0 {
            return Err(format!(
                "{}: time must not decrease ({} after {})",
                path.display(),
                w[1].0,
                w[0].0
            ));
        }
    }
    Ok(rows)
}

/// Percentile of sorted values (nearest rank).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let k = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[k.clamp(1, sorted.len()) - 1]
}

fn kind_id(r: &PointBodyResult) -> (&'static str, u32) {
    match r.feature {
        crate::scene::data::FeatureRef::Piece(i) => ("piece", i),
        crate::scene::data::FeatureRef::Edge(i) => ("edge", i),
        crate::scene::data::FeatureRef::Vertex(i) => ("vertex", i),
    }
}

/// Runs `track`.
pub fn run(args: TrackArgs) -> Result<(), String> {
    let path = match (args.path, args.motion, args.bodies) {
        (Some(p), None, None) => p,
        (None, Some(motion), Some(bodies)) => {
            return super::pair_track::run(super::pair_track::PairTrackArgs {
                scene: args.scene,
                bodies,
                scene_b: args.scene_b,
                motion,
                out: args.out,
                plot: args.plot,
            })
        }
        _ => return Err("give either --path (a point) or --bodies I J --motion MOTION (two bodies)".into()),
    };
    let scene = super::query::load_scene(&args.scene)?;
    let rows = read_path(&path)?;
    let mut tracker = PointBodyTracker::new(&scene, args.body, args.controller.config()?).map_err(|e| e.to_string())?;
    let body = BodyState::default();
    let mut out = String::from(
        "t,x,y,z,distance,signed_distance,px,py,pz,nx,ny,nz,feature,feature_id,face,piece,u,v,mode,iterations,switches,cells,update_ns,status\n",
    );
    let mut times = Vec::with_capacity(rows.len());
    let mut trace = Vec::with_capacity(rows.len());
    let mut switch_events = 0u64;
    let mut prev: Option<(f64, Vec3)> = None;
    for (i, &(t, q)) in rows.iter().enumerate() {
        let (dt, v) = match prev {
            Some((t0, q0)) if t > t0 => (t - t0, (q - q0) / (t - t0)),
            Some((t0, _)) => (t - t0, Vec3::zeros()),
            None => (0.0, Vec3::zeros()),
        };
        prev = Some((t, q));
        let start = Instant::now();
        let r = tracker
            .update(&scene, &PointState { q, q_dot: v }, &body, dt)
            .map_err(|e| format!("{}: row {}: {e}", path.display(), i + 1))?;
        let ns = start.elapsed().as_nanos() as f64;
        times.push(ns);
        switch_events += r.switches as u64;
        let (kind, id) = kind_id(&r);
        let sd = r.signed_distance.map_or(String::new(), |x| format!("{x}"));
        let piece = if r.piece == crate::scene::data::NONE {
            String::new()
        } else {
            r.piece.to_string()
        };
        let _ = writeln!(
            out,
            "{t},{},{},{},{},{sd},{},{},{},{},{},{},{kind},{id},{},{piece},{},{},{:?},{},{},{},{ns},{}",
            q.x,
            q.y,
            q.z,
            r.distance,
            r.point.x,
            r.point.y,
            r.point.z,
            r.normal.x,
            r.normal.y,
            r.normal.z,
            r.face,
            r.params[0],
            r.params[1],
            r.mode,
            r.iterations,
            r.switches,
            r.cells_solved,
            r.status.bits(),
        );
        trace.push((t, r));
    }
    std::fs::write(&args.out, out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    if let Some(p) = &args.plot {
        plot_trace(p, &trace)?;
    }
    // the first update is a cold start: the coherent statistics leave it out
    let cold = times[0];
    let mut coherent: Vec<f64> = times[1..].to_vec();
    coherent.sort_by(f64::total_cmp);
    let summary = format!(
        "{} updates, {} feature switches; cold start {:.1} µs; coherent update median {:.2} µs, p99 {:.2} µs, p99.9 {:.2} µs, max {:.2} µs\n",
        rows.len(),
        switch_events,
        cold / 1e3,
        percentile(&coherent, 50.0) / 1e3,
        percentile(&coherent, 99.0) / 1e3,
        percentile(&coherent, 99.9) / 1e3,
        coherent.last().copied().unwrap_or(f64::NAN) / 1e3,
    );
    super::write_stdout(&summary)
}

/// Distance and the active piece's parameters over time (PG-2004 Figs. 11 and 15 style).
fn plot_trace(path: &Path, trace: &[(f64, PointBodyResult)]) -> Result<(), String> {
    use plotters::prelude::*;
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 700)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (top, bottom) = root.split_vertically(350);
    let t0 = trace.first().map_or(0.0, |x| x.0);
    let t1 = trace.last().map_or(1.0, |x| x.0).max(t0 + 1e-9);
    let d = |r: &PointBodyResult| r.signed_distance.unwrap_or(r.distance);
    let (dmin, dmax) = trace.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, r)| {
        (a.min(d(r)), b.max(d(r)))
    });
    let pad = ((dmax - dmin) * 0.05).max(1e-6);
    let mut c = ChartBuilder::on(&top)
        .caption("signed distance (mm)", ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(t0..t1, (dmin - pad)..(dmax + pad))
        .map_err(|e| err(&e))?;
    c.configure_mesh().x_desc("t (s)").draw().map_err(|e| err(&e))?;
    c.draw_series(LineSeries::new(trace.iter().map(|(t, r)| (*t, d(r))), &BLUE))
        .map_err(|e| err(&e))?;
    let mut c = ChartBuilder::on(&bottom)
        .caption(
            "active feature parameters (u, v), piece index / 100 dashed",
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(t0..t1, -0.05f64..1.05f64)
        .map_err(|e| err(&e))?;
    c.configure_mesh().x_desc("t (s)").draw().map_err(|e| err(&e))?;
    c.draw_series(PointSeries::of_element(
        trace.iter().map(|(t, r)| (*t, r.params[0].clamp(-0.05, 1.05))),
        1,
        &RED,
        &|c, s, st| EmptyElement::at(c) + Circle::new((0, 0), s, st.filled()),
    ))
    .map_err(|e| err(&e))?;
    c.draw_series(PointSeries::of_element(
        trace.iter().map(|(t, r)| (*t, r.params[1].clamp(-0.05, 1.05))),
        1,
        &GREEN,
        &|c, s, st| EmptyElement::at(c) + Circle::new((0, 0), s, st.filled()),
    ))
    .map_err(|e| err(&e))?;
    let feature_level = |r: &PointBodyResult| (kind_id(r).1 % 100) as f64 / 100.0;
    c.draw_series(LineSeries::new(
        trace.iter().map(|(t, r)| (*t, feature_level(r))),
        BLACK.mix(0.4),
    ))
    .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

//! `extrack demo [--plot FILE.svg]`: the main job on embedded models — a
//! point on a helix over the PG-GUAS Table I patch and two NURBS ellipsoids
//! in rigid motion (PG-2002), tracked at 1 kHz.

use crate::geom::fixtures::{ellipsoid, table1_patch};
use crate::geom::Vec3;
use crate::track::core::{normalized_error, DIST_FLOOR};
use crate::track::point_patch::point_patch_local;
use crate::track::scenarios::{ellipsoid_states, helix};
use crate::track::{BodyState, ControlLaw, Integrator, PatchPairTracker, PointPatchTracker, TrackerConfig};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `extrack demo`.
#[derive(Args)]
pub struct DemoArgs {
    /// Draw the normalised projection errors of a cold start (PG-GUAS Fig. 7 style) into this SVG file.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Simulated seconds of motion at 1 kHz.
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
}

const H: f64 = 1e-3;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Runs the demo.
pub fn run(args: DemoArgs) -> Result<(), String> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err("--seconds must be in (0, 3600]".into());
    }
    let steps = (args.seconds / H).round() as usize;
    let patch = table1_patch();
    let still = BodyState::default();

    // 1. cold start on the Table I patch, then coherent tracking along a helix
    let mut t = PointPatchTracker::new(TrackerConfig::default(), [0.5, 0.5]).map_err(|e| e.to_string())?;
    let cold = t.update(&patch, &helix(0.0), &still, 0.0).map_err(|e| e.to_string())?;
    let mut ns = Vec::with_capacity(steps);
    let mut iters = 0u64;
    let mut last = cold;
    for k in 1..=steps {
        let p = helix(k as f64 * H);
        let t0 = Instant::now();
        last = t.update(&patch, &p, &still, H).map_err(|e| e.to_string())?;
        ns.push(t0.elapsed().as_nanos() as f64);
        iters += u64::from(last.iterations);
    }
    println!("Table I patch (degree-4 Bezier), point on a helix at 1 kHz, hybrid law with feed-forward:");
    println!(
        "  cold start: distance {:.12} mm after {} iterations ({} evaluations)",
        cold.distance, cold.iterations, cold.evaluations
    );
    println!(
        "  tracking {} ticks: final distance {:.12} mm at uv = ({:.6}, {:.6}), mean {:.2} iterations/tick, median {:.0} ns/tick",
        steps,
        last.distance,
        last.uv[0],
        last.uv[1],
        iters as f64 / steps as f64,
        median(&mut ns)
    );

    // 2. two ellipsoids in rigid motion (PG-2002)
    let (ea, eb) = (ellipsoid(3.0, 2.0, 1.5, -1.0), ellipsoid(2.0, 1.0, 1.0, 1.0));
    let mut pt = PatchPairTracker::new(TrackerConfig::default(), [0.4, 0.4], [0.6, 0.6]).map_err(|e| e.to_string())?;
    let (a0, b0) = ellipsoid_states(0.0);
    let cold = pt.update(&ea, &a0, &eb, &b0, 0.0).map_err(|e| e.to_string())?;
    let mut ns = Vec::with_capacity(steps);
    let mut last = cold;
    for k in 1..=steps {
        let (a, b) = ellipsoid_states(k as f64 * H);
        let t0 = Instant::now();
        last = pt.update(&ea, &a, &eb, &b, H).map_err(|e| e.to_string())?;
        ns.push(t0.elapsed().as_nanos() as f64);
    }
    println!("Two NURBS ellipsoids (3,2,1.5) and (2,1,1) in rigid motion, patch-patch tracker:");
    println!(
        "  cold start: distance {:.12} mm after {} iterations",
        cold.distance, cold.iterations
    );
    println!(
        "  tracking {} ticks: final distance {:.12} mm, median {:.0} ns/tick",
        steps,
        last.distance,
        median(&mut ns)
    );

    if let Some(path) = args.plot {
        plot_cold_start(&path)?;
        println!("plot of the normalised projection errors written to {}", path.display());
    }
    Ok(())
}

/// Normalised projection errors of a cold start with the globally convergent
/// law (RK2, K = 100, h = 1 ms) and the feedback-linearised law, one
/// controller step per tick (PG-GUAS Fig. 7 / PG-2005 Fig. 7 style).
fn plot_cold_start(path: &std::path::Path) -> Result<(), String> {
    use plotters::prelude::*;
    let patch = table1_patch();
    let q = Vec3::new(4.0, 6.0, 11.0);
    let mut series = Vec::new();
    for (name, law, k) in [
        ("globally convergent, K=100", ControlLaw::GloballyConvergent, 100.0),
        ("feedback-linearised, K=100", ControlLaw::FeedbackLinearized, 100.0),
        ("hybrid, K=1000", ControlLaw::Hybrid, 1000.0),
    ] {
        let cfg = TrackerConfig {
            law,
            integrator: Integrator::Rk2,
            gain_k: k,
            max_iters: 1,
            tol: 1e-300,
            step_tol: 1e-300,
            feed_forward: false,
            ..TrackerConfig::default()
        };
        let mut t = PointPatchTracker::new(cfg, [0.05, 0.95]).map_err(|e| e.to_string())?;
        let mut pts = Vec::new();
        for tick in 0..150 {
            let uv = t.uv();
            let sp = patch.eval_derivs(uv[0], uv[1]);
            let loc = point_patch_local(&sp, &q, &Vec3::zeros());
            let e = normalized_error(&loc, &[false, false], DIST_FLOOR).max(1e-17);
            pts.push((tick as f64, e.log10()));
            t.solve(&patch, &q, &Vec3::zeros(), 0.0).map_err(|e| e.to_string())?;
        }
        series.push((name, pts));
    }
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Table I patch: normalised projection error (log10) per 1 ms tick",
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(45)
        .build_cartesian_2d(0f64..150f64, -17f64..1f64)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("tick")
        .y_desc("log10 |Ψ| / (|ΔR| |f_x|)")
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (name, pts)) in series.into_iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

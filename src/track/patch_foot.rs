//! Foot points on a patch: the closest point of a NURBS patch to a point by a
//! grid of samples and a polish of the best ones with the point–patch
//! tracker (allocates; used when trackers are built and by references).

use super::config::{ControlLaw, TrackerConfig};
use super::point_patch::PointPatchTracker;
use crate::geom::{NurbsSurface, Vec3};

/// A brute-force closest point on a patch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BruteClosest {
    /// Parameters of the closest point.
    pub uv: [f64; 2],
    /// The closest point.
    pub point: Vec3,
    /// Its distance to the query.
    pub distance: f64,
    /// Distance of the best local minimum that is not the global one
    /// (further than `separation` in parameter space), `INFINITY` if none:
    /// tells whether the answer is unique.
    pub runner_up: f64,
}

/// Closest point of `patch` to `q` by an `n × n` grid and Newton polish of the
/// best `seeds` grid points (clamped Newton, 50 iterations).
pub fn closest_on_patch(patch: &NurbsSurface, q: &Vec3, n: usize, seeds: usize) -> BruteClosest {
    let ((u0, u1), (v0, v1)) = patch.domain();
    let n = n.max(2);
    let mut samples: Vec<(f64, f64, f64)> = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let u = u0 + (u1 - u0) * i as f64 / (n - 1) as f64;
            let v = v0 + (v1 - v0) * j as f64 / (n - 1) as f64;
            samples.push(((patch.eval(u, v) - q).norm(), u, v));
        }
    }
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cfg = TrackerConfig {
        law: ControlLaw::NewtonSaturated,
        max_iters: 100,
        tol: 1e-15,
        step_tol: 1e-14,
        feed_forward: false,
        ..TrackerConfig::default()
    };
    let mut results: Vec<(f64, [f64; 2], Vec3)> = Vec::new();
    for &(_, u, v) in samples.iter().take(seeds.max(1)) {
        let Ok(mut t) = PointPatchTracker::new(cfg, [u, v]) else {
            continue;
        };
        let Ok(w) = t.solve(patch, q, &Vec3::zeros(), 0.0) else {
            continue;
        };
        results.push((w.distance, w.uv, w.point));
    }
    // a globally convergent polish from the best sample too (robust on boundaries)
    let gc = TrackerConfig {
        law: ControlLaw::Hybrid,
        max_iters: 2000,
        tol: 1e-15,
        step_tol: 1e-14,
        feed_forward: false,
        gain_k: 500.0,
        ..TrackerConfig::default()
    };
    if let Some(&(_, u, v)) = samples.first() {
        if let Ok(mut t) = PointPatchTracker::new(gc, [u, v]) {
            if let Ok(w) = t.solve(patch, q, &Vec3::zeros(), 0.0) {
                results.push((w.distance, w.uv, w.point));
            }
        }
    }
    results.sort_by(|a, b| a.0.total_cmp(&b.0));
    let best = results[0];
    let sep = 0.05 * ((u1 - u0).abs() + (v1 - v0).abs());
    let runner_up = results
        .iter()
        .filter(|r| (r.1[0] - best.1[0]).abs() + (r.1[1] - best.1[1]).abs() > sep)
        .map(|r| r.0)
        .next()
        .unwrap_or(f64::INFINITY);
    BruteClosest {
        uv: best.1,
        point: best.2,
        distance: best.0,
        runner_up,
    }
}

//! Brute-force reference answers (verification only, allocates): dense
//! parameter sampling followed by a projected Newton polish on the exact
//! surface or curve. Used by tests and benchmarks as ground truth.

use super::config::{ControlLaw, TrackerConfig};
use super::point_patch::PointPatchTracker;
use crate::geom::{NurbsCurve, NurbsSurface, Vec3};

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

/// One Newton step of the foot-point problem `(c(t) − q)·c'(t) = 0` from
/// `t` (where `c` is the curve's point and derivatives), clamped to the
/// domain; where the second derivative of the squared distance is not
/// positive, a short gradient step instead.
pub(crate) fn curve_newton(c: &crate::geom::CurvePoint, q: &Vec3, t: f64, (t0, t1): (f64, f64)) -> f64 {
    let dr = c.p - q;
    let g = dr.dot(&c.d1);
    let h = c.d1.dot(&c.d1) + dr.dot(&c.d2);
    let step = if h > 0.0 {
        -g / h
    } else {
        -g / c.d1.dot(&c.d1).max(1e-300) * 0.1
    };
    (t + step).clamp(t0, t1)
}

/// Closest point of a curve to `q`: `(t, point, distance)` by `n` samples and
/// a clamped Newton polish of the best few.
pub fn closest_on_curve(curve: &NurbsCurve, q: &Vec3, n: usize) -> (f64, Vec3, f64) {
    let (t0, t1) = curve.domain();
    let n = n.max(2);
    let mut samples: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let t = t0 + (t1 - t0) * i as f64 / (n - 1) as f64;
            ((curve.eval(t) - q).norm(), t)
        })
        .collect();
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best = (samples[0].1, curve.eval(samples[0].1), samples[0].0);
    for &(_, t_start) in samples.iter().take(8) {
        let mut t = t_start;
        for _ in 0..100 {
            let c = curve.eval_derivs(t);
            let tn = curve_newton(&c, q, t, (t0, t1));
            if (tn - t).abs() < 1e-16 * (1.0 + t.abs()) {
                t = tn;
                break;
            }
            t = tn;
        }
        let p = curve.eval(t);
        let d = (p - q).norm();
        if d < best.2 {
            best = (t, p, d);
        }
    }
    best
}

/// Brute-force minimum distance between two scene bodies at given poses
/// (composed with their placements), independent of the pair trackers:
/// every piece of B sampled on an `n × n` grid (points its trims keep), the
/// exact global point–body distance of each sample to A (cold far phase),
/// then alternating exact projections (A ← B ← A …) from the `seeds` best
/// samples until the pair stops moving. Returns `(distance, point on A,
/// point on B)` in world coordinates. Separated bodies only (the
/// projections would stall on an intersection curve).
#[allow(clippy::too_many_arguments)]
pub fn body_pair_distance(
    scene_a: &super::TrackScene,
    body_a: u32,
    pose_a: &crate::geom::Pose,
    scene_b: &super::TrackScene,
    body_b: u32,
    pose_b: &crate::geom::Pose,
    n: usize,
    seeds: usize,
) -> Result<(f64, Vec3, Vec3), super::BodyError> {
    use super::point_body::{closest_point, Target};
    let b = scene_b.body(body_b)?;
    let place_b = super::point_body::body_pose(b, pose_b);
    let n = n.max(2);
    let ta = Target::Body {
        index: body_a,
        pose: *pose_a,
    };
    let tb = Target::Body {
        index: body_b,
        pose: *pose_b,
    };
    let mut samples: Vec<(f64, Vec3)> = Vec::new();
    for (k, p) in b.pieces.iter().enumerate() {
        for i in 0..n {
            for j in 0..n {
                let (u, v) = (i as f64 / (n - 1) as f64, j as f64 / (n - 1) as f64);
                if !b.piece_keeps(k as u32, u, v) {
                    continue;
                }
                let q = place_b.transform_point(&p.surface.eval(u, v));
                let r = closest_point(scene_a, &ta, q)?;
                samples.push((r.distance, q));
            }
        }
    }
    samples.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = (f64::INFINITY, Vec3::zeros(), Vec3::zeros());
    for &(_, q0) in samples.iter().take(seeds.max(1)) {
        let mut qb = q0;
        let mut pa = closest_point(scene_a, &ta, qb)?.point;
        for _ in 0..500 {
            let nb = closest_point(scene_b, &tb, pa)?.point;
            let na = closest_point(scene_a, &ta, nb)?.point;
            let moved = (nb - qb).norm() + (na - pa).norm();
            qb = nb;
            pa = na;
            if moved < 1e-14 * (1.0 + pa.norm()) {
                break;
            }
        }
        let d = (qb - pa).norm();
        if d < best.0 {
            best = (d, pa, qb);
        }
    }
    Ok(best)
}

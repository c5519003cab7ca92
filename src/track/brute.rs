//! Brute-force reference answers (verification only, allocates): dense
//! parameter sampling followed by a projected Newton polish on the exact
//! surface or curve. Used by tests and benchmarks as ground truth.

pub use super::patch_foot::{closest_on_patch, BruteClosest};
pub use crate::geom::curve_foot::closest_on_curve;
use crate::geom::Vec3;

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

//! Per-entry decay of the far phase's lower bounds (NJC-1999 §3.4,
//! PG-2005 §V): a bound `ℓ` made for a pair at the relative pose of one
//! search still holds, lowered by how far the points of the pair's B side
//! moved since, at any later pose.
//!
//! The front's heap orders entries by `ℓ + S`, with `S` the accumulated
//! bound on the motion of *any* point of B (its whole box: centre
//! displacement plus rotation angle × B's radius). That bound is shared by
//! all entries, so it is loose for a small entry near B's centre. When an
//! entry comes off the heap, its own decay is taken instead: for a B side in
//! the box with centre `c` and radius `ρ` (B's frame), between the relative
//! poses `(R₀, t₀)` and `(R, t)`,
//! `|(R − R₀) p + (t − t₀)| ≤ |(R − R₀) c + t − t₀| + θ ρ` for every
//! `p = c + e`, `|e| ≤ ρ`, with `θ` the angle of `R R₀ᵀ` (`|(R R₀ᵀ − I) v| =
//! 2 sin(θ/2) |v_⊥| ≤ θ |v|`). The pair's distance is 1-Lipschitz in B's
//! points, so it is at least `ℓ − δ` now. An entry whose decayed bound is
//! still beaten by the best pair goes back to the front without being
//! bounded again (its hull bounds and its cells' solves are not redone),
//! keyed by the decayed bound plus `S` from now on (sound: `S` grows by at
//! least this entry's motion).
//!
//! The poses of the last [`POSE_RING`] searches are kept in a fixed ring
//! (no allocation per update); an older entry falls back to `ℓ + S` and is
//! bounded afresh.

use crate::geom::Vec3;
use crate::track::body_pair::relative::rotation_angle_bound;
use crate::track::patch_pair::Frame;
use nalgebra::Matrix3;

/// Searches whose relative poses are kept for the per-entry decay.
pub(super) const POSE_RING: usize = 64;

/// The relative poses of the last [`POSE_RING`] far-phase searches, and
/// per pose the rotation angle bound from it to the current search's pose
/// (computed once per search on first use).
#[derive(Debug, Clone)]
pub(super) struct PoseRing {
    poses: Box<[(Matrix3<f64>, Vec3)]>,
    /// `θ` from each kept pose to the current one (NaN: not computed yet in
    /// this search).
    angle: Box<[f64]>,
    /// The current search (its pose is `poses[now % POSE_RING]`).
    now: u32,
}

impl PoseRing {
    pub(super) fn new() -> Self {
        Self {
            poses: vec![(Matrix3::identity(), Vec3::zeros()); POSE_RING].into_boxed_slice(),
            angle: vec![f64::NAN; POSE_RING].into_boxed_slice(),
            now: 0,
        }
    }

    /// Search `now` is made at relative pose `frame`.
    pub(super) fn enter(&mut self, now: u32, frame: &Frame) {
        self.now = now;
        self.poses[now as usize % POSE_RING] = (frame.r, frame.t);
        self.angle.fill(f64::NAN);
    }

    /// An upper bound on how far any point of the box `[lo, hi]` of B
    /// (B's frame) moved in A's frame between the pose of search `at` and
    /// the current one; `None` when that pose is no longer kept, is the
    /// current search's own, or `at` is not a search.
    pub(super) fn motion(&mut self, at: u32, lo: &Vec3, hi: &Vec3) -> Option<f64> {
        let age = self.now.checked_sub(at)?;
        if age == 0 || age as usize >= POSE_RING {
            return None;
        }
        let k = at as usize % POSE_RING;
        let (r, t) = self.poses[self.now as usize % POSE_RING];
        let (r0, t0) = self.poses[k];
        if self.angle[k].is_nan() {
            self.angle[k] = rotation_angle_bound(&(r * r0.transpose()));
        }
        let c = (lo + hi) * 0.5;
        let rho = 0.5 * (hi - lo).norm();
        Some(((r - r0) * c + (t - t0)).norm() + self.angle[k] * rho)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Rotation3, Unit};

    fn frame(axis: Vec3, angle: f64, t: Vec3) -> Frame {
        Frame {
            r: Rotation3::from_axis_angle(&Unit::new_normalize(axis), angle).into_inner(),
            t,
        }
    }

    #[test]
    fn the_motion_bound_holds_for_every_corner_and_sample_of_the_box() {
        let (lo, hi) = (Vec3::new(3.0, -1.0, 2.0), Vec3::new(5.0, 0.5, 2.25));
        let mut ring = PoseRing::new();
        let poses = [
            frame(Vec3::new(1.0, 1.0, 1.0), 0.0, Vec3::new(10.0, 0.0, 0.0)),
            frame(Vec3::new(1.0, 1.0, 1.0), 0.02, Vec3::new(10.1, 0.3, 0.0)),
            frame(Vec3::new(0.0, -1.0, 2.0), 0.7, Vec3::new(9.0, 0.3, -1.0)),
            frame(Vec3::new(0.3, 0.2, -1.0), 3.0, Vec3::new(-4.0, 2.0, 1.0)),
        ];
        for (now, f) in poses.iter().enumerate() {
            ring.enter(now as u32, f);
            for (at, f0) in poses.iter().enumerate().take(now) {
                let m = ring.motion(at as u32, &lo, &hi).expect("a kept pose");
                let mut worst: f64 = 0.0;
                for i in 0..=4 {
                    for j in 0..=4 {
                        for k in 0..=4 {
                            let s = Vec3::new(i as f64, j as f64, k as f64) / 4.0;
                            let p = lo + (hi - lo).component_mul(&s);
                            let d = ((f.r * p + f.t) - (f0.r * p + f0.t)).norm();
                            worst = worst.max(d);
                        }
                    }
                }
                assert!(worst <= m * (1.0 + 1e-12), "pose {at} → {now}: moved {worst} > bound {m}");
                // tight to first order for small motions (not the whole body's radius)
                assert!(m <= worst + 0.5 * (hi - lo).norm() * 3.2, "pose {at} → {now}: bound {m} loose for {worst}");
            }
            assert_eq!(ring.motion(now as u32, &lo, &hi), None, "the current pose has no motion bound");
        }
    }

    #[test]
    fn poses_older_than_the_ring_are_not_used() {
        let mut ring = PoseRing::new();
        let f = frame(Vec3::new(0.0, 0.0, 1.0), 0.1, Vec3::zeros());
        ring.enter(0, &f);
        ring.enter(POSE_RING as u32, &f);
        assert_eq!(ring.motion(0, &Vec3::zeros(), &Vec3::new(1.0, 1.0, 1.0)), None);
        assert!(ring.motion(1, &Vec3::zeros(), &Vec3::new(1.0, 1.0, 1.0)).is_some());
        assert_eq!(ring.motion(super::super::front::NO_POSE, &Vec3::zeros(), &Vec3::zeros()), None);
    }
}

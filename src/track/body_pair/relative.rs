//! Relative placement of body B in body A's frame (pose and twist), with
//! the box and hull distance bounds the far phase prunes by (PG-2004 §II,
//! NJC-1999 §3.1), and the bound on the relative rotation between updates.

use crate::geom::{Pose, Twist, Vec3};
use crate::track::motion::BodyState;
use crate::track::patch_pair::Frame;
use nalgebra::Matrix3;

/// Relative placement of B in A's frame.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rel {
    pub(super) frame: Frame,
    /// `|R|` (component-wise), for box bounds.
    abs_r: Matrix3<f64>,
    /// B's motion relative to A, expressed in A's frame.
    pub(super) state_b: BodyState,
}

impl Rel {
    pub(super) fn new(pose_a: &Pose, pose_b: &Pose, twist_a: &Twist, twist_b: &Twist) -> Self {
        let t = pose_a.iso.inverse() * pose_b.iso;
        let r = t.rotation.to_rotation_matrix().into_inner();
        let ra = pose_a.iso.rotation;
        let ta = pose_a.iso.translation.vector;
        let dw = twist_b.omega - twist_a.omega;
        let dv = twist_b.v - twist_a.v;
        // a point x of A's frame (world R_A x + t_A) sees B move with
        // R_Aᵀ(Δv + Δω × t_A) + (R_Aᵀ Δω) × x
        let twist = Twist {
            omega: ra.inverse_transform_vector(&dw),
            v: ra.inverse_transform_vector(&(dv + dw.cross(&ta))),
        };
        Self {
            frame: Frame {
                r,
                t: t.translation.vector,
            },
            abs_r: r.abs(),
            state_b: BodyState {
                pose: Pose::identity(),
                twist,
            },
        }
    }

    /// Distance bound between box `[lo_a, hi_a]` of A and box `[lo_b, hi_b]`
    /// of B (B's box mapped into A's frame as the box of its image): the
    /// larger of the gap between the boxes and their gap along the unit
    /// direction `n` (projection onto a line is 1-Lipschitz, so any `n`
    /// gives a valid bound; the direction of the best pair so far makes it
    /// tight near the contact: a slab bound).
    #[inline]
    pub(super) fn box_bound(&self, lo_a: &Vec3, hi_a: &Vec3, lo_b: &Vec3, hi_b: &Vec3, n: &Vec3) -> f64 {
        let (c, e) = self.place(lo_b, hi_b);
        self.box_gap(lo_a, hi_a, &c, &e, n)
    }

    /// B's box `[lo_b, hi_b]` placed in A's frame: the centre of its image
    /// and the half-extents of the image's box (the part of
    /// [`Rel::box_bound`] that depends on B's box only).
    #[inline]
    pub(super) fn place(&self, lo_b: &Vec3, hi_b: &Vec3) -> (Vec3, Vec3) {
        let cb = (lo_b + hi_b) * 0.5;
        let eb = (hi_b - lo_b) * 0.5;
        (self.frame.r * cb + self.frame.t, self.abs_r * eb)
    }

    /// [`Rel::box_bound`] of A's box `[lo_a, hi_a]` and a box of B placed
    /// by [`Rel::place`] (centre `c`, half-extents `e`): the same value.
    #[inline]
    pub(super) fn box_gap(&self, lo_a: &Vec3, hi_a: &Vec3, c: &Vec3, e: &Vec3, n: &Vec3) -> f64 {
        let ca = (lo_a + hi_a) * 0.5;
        let ea = (hi_a - lo_a) * 0.5;
        let mut s = 0.0;
        let mut slab = n.dot(&(c - ca));
        for k in 0..3 {
            let g = ((c[k] - ca[k]).abs() - ea[k] - e[k]).max(0.0);
            s += g * g;
            slab -= n[k].abs() * (ea[k] + e[k]);
        }
        s.sqrt().max(slab)
    }

    /// Distance bound between an item of A in the hull of `ha` and an item
    /// of B in the hull of `hb` (B's frame): their gap along the unit
    /// direction `n` (A's frame), `min n·B − max n·A`. Along the direction
    /// of the pair's own last witnesses it is the pair's distance for two
    /// planar pieces and stays within second order of it while they move,
    /// where a box bound loses the pieces' tilt. `−∞` without hulls.
    #[inline]
    pub(super) fn hull_bound(&self, ha: &[Vec3], hb: &[Vec3], n: &Vec3) -> f64 {
        if ha.is_empty() || hb.is_empty() {
            return f64::NEG_INFINITY;
        }
        let nb = self.frame.r.tr_mul(n);
        let max_a = ha.iter().fold(f64::NEG_INFINITY, |m, p| m.max(n.dot(p)));
        let min_b = hb.iter().fold(f64::INFINITY, |m, p| m.min(nb.dot(p)));
        min_b + n.dot(&self.frame.t) - max_a
    }
}

/// An upper bound of the rotation angle `θ` of the rotation matrix `dr`,
/// tight to `O(θ⁵)` for small angles, without a transcendental function
/// (this runs on every update): `|dr − I|_F = 2√2 sin(θ/2)`, and with
/// `x = sin(θ/2) < 0.5`, `asin x ≤ x + x³ / (6 (1 − x²))` (the series'
/// coefficients after the cubic one are below 1/6); larger angles by `acos`.
pub(super) fn rotation_angle_bound(dr: &Matrix3<f64>) -> f64 {
    let x = (dr - Matrix3::identity()).norm() / (2.0 * std::f64::consts::SQRT_2);
    if x < 0.5 {
        let x2 = x * x;
        2.0 * (x + x * x2 / (6.0 * (1.0 - x2)))
    } else {
        ((dr.trace() - 1.0) * 0.5)
            .clamp(-1.0, 1.0)
            .acos()
            .max(2.0 * x.min(1.0).asin())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_angle_bound_is_above_the_angle_and_tight() {
        for &deg in &[
            0.0, 1e-6, 1e-3, 0.05, 1.0, 10.0, 59.0, 60.0, 61.0, 120.0, 150.0, 179.0, 180.0,
        ] {
            let th = f64::to_radians(deg);
            let axis = nalgebra::Unit::new_normalize(Vec3::new(0.3, -0.5, 0.8));
            let r = nalgebra::Rotation3::from_axis_angle(&axis, th).into_inner();
            let b = rotation_angle_bound(&r);
            assert!(b >= th - 1e-15, "{deg}°: bound {b} below {th}");
            assert!(
                b <= th * (1.0 + 0.02 * th * th) + 1e-12,
                "{deg}°: bound {b} loose for {th}"
            );
        }
    }
}

//! Reference motions of the seeds' experiments, shared by the demo, the
//! benchmarks and the tests: a query point on a helix above the PG-GUAS
//! Table I patch, and the two PG-2002 ellipsoids in rigid motion (use them
//! with [`crate::geom::fixtures::table1_patch`] and
//! [`crate::geom::fixtures::ellipsoid`]`(3, 2, 1.5, −1)` / `(2, 1, 1, +1)`).

use super::motion::{BodyState, PointState};
use crate::geom::{Pose, Twist, Vec3};

/// A point on a helix of radius 2 mm about (5, 5) rising 0.5 mm/s from
/// z = 9, half a turn per second, with its exact velocity.
pub fn helix(t: f64) -> PointState {
    let w = std::f64::consts::PI;
    PointState {
        q: Vec3::new(5.0 + 2.0 * (w * t).cos(), 5.0 + 2.0 * (w * t).sin(), 9.0 + 0.5 * t),
        q_dot: Vec3::new(-2.0 * w * (w * t).sin(), 2.0 * w * (w * t).cos(), 0.5),
    }
}

/// Ellipsoid A at the origin swinging about z, ellipsoid B swinging on a
/// circle of radius 7 around it on the +x side and bobbing in z; poses and
/// twists are exact derivatives of the motion.
pub fn ellipsoid_states(t: f64) -> (BodyState, BodyState) {
    let a = BodyState {
        pose: Pose::from_translation_axis_angle(Vec3::zeros(), Vec3::new(0.0, 0.0, 0.4 * (0.3 * t).sin())),
        twist: Twist {
            omega: Vec3::new(0.0, 0.0, 0.12 * (0.3 * t).cos()),
            v: Vec3::zeros(),
        },
    };
    let phi = 0.5 * (0.8 * t).sin();
    let phi_dot = 0.4 * (0.8 * t).cos();
    let c = Vec3::new(7.0 * phi.cos(), 7.0 * phi.sin(), 0.5 * (0.5 * t).sin());
    let c_dot = Vec3::new(
        -7.0 * phi.sin() * phi_dot,
        7.0 * phi.cos() * phi_dot,
        0.25 * (0.5 * t).cos(),
    );
    let b = BodyState {
        pose: Pose::from_translation_axis_angle(c, Vec3::new(0.0, 0.0, phi)),
        twist: Twist::about_point(Vec3::new(0.0, 0.0, phi_dot), c, c_dot),
    };
    (a, b)
}

/// The body-pair orbit (`extrack track --bodies I J --motion builtin:orbit`):
/// A at rest at its placement; B's bounding-sphere centre circles A's in the
/// world xy-plane at 1.2 × the sum of the bounding-sphere radii, bobbing in z
/// by a quarter of A's radius (twice per lap), while B spins three times per
/// lap about (1, 1, 1) through its centre. `steps` samples, `dt` apart, make
/// one closed lap (sample `steps` would equal sample 0). Each state is B's
/// pose (relative to its placement) with the exact twist.
pub fn body_orbit(a: &super::BodyGeom, b: &super::BodyGeom, steps: usize, dt: f64) -> Vec<BodyState> {
    let sphere = |g: &super::BodyGeom| {
        let c = g.placement.transform_point(&((g.lo + g.hi) * 0.5));
        (c, 0.5 * (g.hi - g.lo).norm())
    };
    let ((ca, ra), (cb, rb)) = (sphere(a), sphere(b));
    let radius = 1.2 * (ra + rb);
    let axis = nalgebra::Unit::new_normalize(Vec3::new(1.0, 1.0, 1.0));
    let w = std::f64::consts::TAU / (steps.max(1) as f64 * dt);
    (0..steps)
        .map(|k| {
            let th = w * k as f64 * dt;
            let c = ca + Vec3::new(radius * th.cos(), radius * th.sin(), 0.25 * ra * (2.0 * th).sin());
            let c_dot = Vec3::new(
                -radius * w * th.sin(),
                radius * w * th.cos(),
                0.5 * ra * w * (2.0 * th).cos(),
            );
            let rot = nalgebra::UnitQuaternion::from_axis_angle(&axis, 3.0 * th);
            BodyState {
                pose: Pose::from_parts(c - rot * cb, rot),
                twist: Twist::about_point(axis.into_inner() * 3.0 * w, c, c_dot),
            }
        })
        .collect()
}

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

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

/// Centre and radius of the sphere around a body's local box, at its placement.
fn placed_sphere(g: &super::BodyGeom) -> (Vec3, f64) {
    (
        g.placement.transform_point(&((g.lo + g.hi) * 0.5)),
        0.5 * (g.hi - g.lo).norm(),
    )
}

/// The line of `builtin:approach` and `builtin:haptic`: the unit direction
/// `d` from A's sphere centre to B's (x when they coincide) and the offset
/// `s_c` along it at which B (unturned) touches A, by conservative
/// advancement from `s = 1.2 (r_A + r_B)` (moving B towards A by the current
/// distance cannot make the bodies overlap) until the distance is below
/// `1e-9 (1 + r_A + r_B)` or the bodies interpenetrate.
pub fn contact_line(
    scene_a: &super::TrackScene,
    a: u32,
    scene_b: &super::TrackScene,
    b: u32,
) -> Result<(Vec3, f64), super::BodyError> {
    let ((ca, ra), (cb, rb)) = (placed_sphere(scene_a.body(a)?), placed_sphere(scene_b.body(b)?));
    let off = cb - ca;
    let dir = if off.norm() > 1e-9 * (1.0 + ra + rb) {
        off.normalize()
    } else {
        Vec3::new(1.0, 0.0, 0.0)
    };
    let mut s = 1.2 * (ra + rb);
    let tol = 1e-9 * (1.0 + ra + rb);
    for _ in 0..200 {
        let pose = Pose::from_parts(ca + dir * s - cb, nalgebra::UnitQuaternion::identity());
        let r = super::body_distance(scene_a, a, &Pose::identity(), scene_b, b, &pose)?;
        if r.penetrating || r.distance <= tol {
            break;
        }
        s -= r.distance;
    }
    Ok((dir, s))
}

/// `builtin:approach`: B translates along the contact line ([`contact_line`])
/// from the gap `g = 0.1 (r_A + r_B)` through the contact to the depth
/// `δ = 0.1 ×` the smallest extent of the two local boxes (at the middle of
/// the motion) and back: B's sphere centre at
/// `c_A + d (s_c + g − (g + δ) sin(π k / steps))`, `k = 0..=steps`. B's
/// poses relative to its placement, with the exact twists (`dt` apart).
pub fn body_approach(
    scene_a: &super::TrackScene,
    a: u32,
    scene_b: &super::TrackScene,
    b: u32,
    steps: usize,
    dt: f64,
) -> Result<Vec<BodyState>, super::BodyError> {
    let (ga, gb) = (scene_a.body(a)?, scene_b.body(b)?);
    let ((ca, ra), (cb, rb)) = (placed_sphere(ga), placed_sphere(gb));
    let (dir, s) = contact_line(scene_a, a, scene_b, b)?;
    let extent = |g: &super::BodyGeom| (g.hi - g.lo).min();
    let depth = 0.1 * extent(ga).min(extent(gb)).max(1e-6);
    let gap = 0.1 * (ra + rb);
    let total = steps.max(1) as f64 * dt;
    let w = std::f64::consts::PI / total;
    Ok((0..=steps)
        .map(|k| {
            let t = k as f64 * dt;
            let c = ca + dir * (s + gap - (gap + depth) * (w * t).sin());
            let c_dot = -dir * ((gap + depth) * w * (w * t).cos());
            BodyState {
                pose: Pose::from_parts(c - cb, nalgebra::UnitQuaternion::identity()),
                twist: Twist::about_point(Vec3::zeros(), c, c_dot),
            }
        })
        .collect())
}

/// Largest speed of B's sphere centre in [`body_haptic`], mm/s (0.5 m/s).
pub const HAPTIC_SPEED: f64 = 500.0;
/// Largest angular speed of B in [`body_haptic`], rad/s.
pub const HAPTIC_SPIN: f64 = 3.0;

/// A smooth signal: a sum of sines `Σ aₖ sin(2π fₖ t + φₖ)` per axis.
struct Sines {
    /// Per axis, per term: (amplitude, frequency in Hz, phase).
    terms: [[(f64, f64, f64); 3]; 3],
}

impl Sines {
    /// Random terms (frequencies in 0.2–2 Hz) from the generator `next`,
    /// scaled so that the speed is at most `speed` at every time (the sum of
    /// the terms' `2π fₖ |aₖ|` over the axes, as a Euclidean norm).
    fn random(next: &mut impl FnMut() -> f64, speed: f64) -> Self {
        let mut terms = [[(0.0, 0.0, 0.0); 3]; 3];
        for axis in &mut terms {
            for t in axis.iter_mut() {
                *t = (0.5 + 0.5 * next(), 0.2 + 1.8 * next(), std::f64::consts::TAU * next());
            }
        }
        let rate =
            |axis: &[(f64, f64, f64); 3]| axis.iter().map(|(a, f, _)| std::f64::consts::TAU * f * a).sum::<f64>();
        let bound = terms.iter().map(|ax| rate(ax).powi(2)).sum::<f64>().sqrt();
        let k = speed / bound;
        for axis in &mut terms {
            for t in axis.iter_mut() {
                t.0 *= k;
            }
        }
        Self { terms }
    }

    /// Value and derivative at time `t`.
    fn at(&self, t: f64) -> (Vec3, Vec3) {
        let (mut x, mut dx) = (Vec3::zeros(), Vec3::zeros());
        for (i, axis) in self.terms.iter().enumerate() {
            for &(a, f, p) in axis {
                let w = std::f64::consts::TAU * f;
                x[i] += a * (w * t + p).sin();
                dx[i] += a * w * (w * t + p).cos();
            }
        }
        (x, dx)
    }
}

/// `builtin:haptic`: a smooth random 6-DOF motion of B about a start pose
/// near A, as a hand moves a haptic device, seeded (the same `seed` gives
/// the same motion). B starts unturned on the contact line ([`contact_line`])
/// at the gap `0.02 (r_A + r_B)`; its sphere centre then moves by a sum of
/// three random sines per axis (0.2–2 Hz) whose speed is at most
/// [`HAPTIC_SPEED`] (0.5 m/s), and it turns about its centre by the rotation
/// vector of another such sum whose rate is at most [`HAPTIC_SPIN`] (3 rad/s;
/// the angular velocity of `exp(θ(t))` is at most `|θ̇|`), so it goes in and
/// out of contact. `steps + 1` samples `dt` apart: B's poses relative to its
/// placement with their twists (the angular velocity by a central
/// difference of the rotation, to rounding).
pub fn body_haptic(
    scene_a: &super::TrackScene,
    a: u32,
    scene_b: &super::TrackScene,
    b: u32,
    steps: usize,
    dt: f64,
    seed: u64,
) -> Result<Vec<BodyState>, super::BodyError> {
    let ((ca, ra), (cb, rb)) = (placed_sphere(scene_a.body(a)?), placed_sphere(scene_b.body(b)?));
    let (dir, s) = contact_line(scene_a, a, scene_b, b)?;
    // splitmix64: uniform numbers in [0, 1)
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let shift = Sines::random(&mut next, HAPTIC_SPEED);
    let turn = Sines::random(&mut next, HAPTIC_SPIN);
    let start = ca + dir * (s + 0.02 * (ra + rb));
    let rot = |t: f64| nalgebra::UnitQuaternion::from_scaled_axis(turn.at(t).0);
    Ok((0..=steps)
        .map(|k| {
            let t = k as f64 * dt;
            let (d, d_dot) = shift.at(t);
            let c = start + d;
            let q = rot(t);
            let eps = 1e-6;
            let omega = (rot(t + eps) * rot(t - eps).inverse()).scaled_axis() / (2.0 * eps);
            BodyState {
                pose: Pose::from_parts(c - q * cb, q),
                twist: Twist::about_point(omega, c, d_dot),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn haptic_signals_keep_their_speed_bound_and_repeat_with_the_seed() {
        let make = |seed: u64| {
            let mut state = seed;
            let mut next = move || {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                (state >> 11) as f64 / (1u64 << 53) as f64
            };
            Sines::random(&mut next, HAPTIC_SPEED)
        };
        let (s, again) = (make(26), make(26));
        let mut fastest: f64 = 0.0;
        for k in 0..=2000 {
            let t = k as f64 * 1e-3;
            let (x, dx) = s.at(t);
            assert_eq!((x, dx), again.at(t), "t {t}");
            fastest = fastest.max(dx.norm());
            // the derivative is the signal's: a central difference agrees
            let h = 1e-6;
            let fd = (s.at(t + h).0 - s.at(t - h).0) / (2.0 * h);
            assert!((fd - dx).norm() <= 1e-5 * HAPTIC_SPEED, "t {t}: {fd} vs {dx}");
        }
        assert!(fastest <= HAPTIC_SPEED * (1.0 + 1e-12), "speed {fastest}");
        // the bound is a sum of the terms' rates: the motion uses a good part of it
        assert!(fastest >= 0.1 * HAPTIC_SPEED, "speed {fastest}");
    }
}

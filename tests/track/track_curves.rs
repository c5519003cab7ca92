//! Point–curve and curve–curve trackers (the 1-D analogues) against brute force.

use extrack::geom::{NurbsCurve, Pose, Twist, Vec3};
use extrack::track::brute::closest_on_curve;
use extrack::track::{BodyState, CurvePairTracker, Mode, PointCurveTracker, PointState, TrackerConfig};

/// A convex planar arc: rational quadratic quarter circle of radius `r` (z = 0).
fn arc(r: f64) -> NurbsCurve {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    NurbsCurve::try_new(
        2,
        vec![0., 0., 0., 1., 1., 1.],
        &[[r, 0., 0.], [r, r, 0.], [0., r, 0.]],
        Some(&[1.0, s, 1.0]),
    )
    .unwrap()
}

#[test]
fn point_on_a_spiral_around_an_arc_matches_brute_force_with_end_saturation() {
    let c = arc(5.0);
    let mut t = PointCurveTracker::new(TrackerConfig::default(), 0.5).unwrap();
    let body = BodyState::default();
    let mut saw_end = false;
    let mut saw_interior = false;
    for k in 0..3000 {
        let time = k as f64 * 1e-3;
        let ang = -0.6 + 2.4 * time / 3.0; // sweeps past both ends of the arc
        let rad = 7.0 + 0.5 * (3.0 * time).sin();
        let p = PointState {
            q: Vec3::new(rad * ang.cos(), rad * ang.sin(), 0.3),
            q_dot: Vec3::zeros(),
        };
        let w = t.update(&c, &p, &body, 1e-3).unwrap();
        let (_, bp, bd) = closest_on_curve(&c, &p.q, 2001);
        assert!((w.distance - bd).abs() < 1e-8, "tick {k}: {} vs {bd}", w.distance);
        assert!((w.point - bp).norm() < 1e-6);
        saw_end |= w.mode != Mode::Interior;
        saw_interior |= w.mode == Mode::Interior;
    }
    assert!(saw_end && saw_interior);
}

#[test]
fn two_arcs_in_relative_motion_match_brute_force() {
    let (c1, c2) = (arc(3.0), arc(2.0));
    let mut t = CurvePairTracker::new(TrackerConfig::default(), 0.5, 0.5).unwrap();
    let a = BodyState::default();
    for k in 0..2000 {
        let time = k as f64 * 1e-3;
        let th = std::f64::consts::PI + 0.3 * (time * 2.0).sin();
        // arc 2 rotated by ~π about z and moved so that it faces arc 1
        let c = Vec3::new(6.0, 6.0, 0.2);
        let b = BodyState {
            pose: Pose::from_translation_axis_angle(c, Vec3::new(0.0, 0.0, th)),
            twist: Twist::about_point(Vec3::new(0.0, 0.0, 0.6 * (time * 2.0).cos()), c, Vec3::zeros()),
        };
        let w = t.update(&c1, &a, &c2, &b, 1e-3).unwrap();
        if k % 20 != 0 {
            continue;
        }
        // brute force: dense sampling of curve 2, exact projection onto curve 1
        let mut best = f64::INFINITY;
        for i in 0..=2000 {
            let s = i as f64 / 2000.0;
            let p2 = b.pose.transform_point(&c2.eval(s));
            best = best.min(closest_on_curve(&c1, &p2, 64).2);
        }
        assert!(
            w.distance <= best + 1e-9 && w.distance > best - 1e-6,
            "tick {k}: {} vs {best}",
            w.distance
        );
        if k % 500 == 0 {
            assert!(w.converged);
        }
    }
}

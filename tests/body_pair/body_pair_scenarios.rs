//! The seeds' two-body scenarios with curved multi-feature bodies (issue 7,
//! item 4), tracked coherently and checked against brute force (dense
//! sampling + alternating exact projections) to 1e-8 mm:
//!
//! - PG-2004 Figs. 12–13: two planar convex bodies of three circular arcs
//!   each (`pair_tri_prism`, the arcs extruded), A fixed, B spinning about
//!   its own centre while its centre spirals inwards around A;
//! - PG-2005 Figs. 19–20: two spatial bodies of three convex patches each
//!   (`pair_lens`, three rational B-spline lunes), B moving around A.
//!
//! Besides the distances, the tests check what the papers' figures show:
//! the witnesses visit every bounding curve / patch of both bodies, and the
//! parameter traces are continuous between the transitions.

use extrack::geom::{Pose, Twist, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::brute::body_pair_distance;
use extrack::track::{body_distance, BodyPairResult, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use nalgebra::UnitQuaternion;
use std::collections::BTreeSet;
use std::path::Path;

fn fixture(name: &str) -> TrackScene {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name);
    let m = extrack::import::import_file(&p).unwrap();
    let s = prepare(&m, &PrepareOptions::default()).unwrap();
    TrackScene::from_data(&s).unwrap()
}

/// Box centre and the radius of the bounding sphere of body 0.
fn extent(s: &TrackScene) -> (Vec3, f64) {
    let b = &s.bodies[0];
    (
        b.placement.transform_point(&((b.lo + b.hi) * 0.5)),
        0.5 * (b.hi - b.lo).norm(),
    )
}

/// Runs the tracker along `states` (B's states; A at rest), checking every
/// `every`-th update against brute force and a cold query (1e-8 mm); returns
/// the results of every update.
fn run(s: &TrackScene, states: &[BodyState], dt: f64, every: usize, samples: usize) -> Vec<BodyPairResult> {
    let mut t = BodyPairTracker::new(s, 0, s, 0, TrackerConfig::default()).unwrap();
    assert!(t.convex(), "both bodies of the scenario are convex solids");
    let still = BodyState::at(Pose::identity());
    let mut out = Vec::with_capacity(states.len());
    for (i, st) in states.iter().enumerate() {
        let r = t.update(s, &still, s, st, if i == 0 { 0.0 } else { dt }).unwrap();
        assert!(r.distance.is_finite() && r.point_a.iter().chain(r.point_b.iter()).all(|x| x.is_finite()));
        assert!(!r.penetrating, "step {i}: the bodies never touch");
        if i % every == 0 {
            let (d, pa, pb) = body_pair_distance(s, 0, &Pose::identity(), s, 0, &st.pose, samples, 4).unwrap();
            assert!(
                (r.distance - d).abs() <= 1e-8,
                "step {i}: tracked {} ({:?}/{:?}) vs brute force {d} (pa {pa:?} pb {pb:?})",
                r.distance,
                r.feature_a,
                r.feature_b
            );
            let cold = body_distance(s, 0, &Pose::identity(), s, 0, &st.pose).unwrap();
            assert!(
                (cold.distance - d).abs() <= 1e-8,
                "step {i}: cold {} vs brute force {d}",
                cold.distance
            );
            // the witnesses realise the distance
            assert!(((r.point_b - r.point_a).norm() - r.distance).abs() <= 1e-9 * (1.0 + r.distance));
        }
        out.push(r);
    }
    out
}

/// The faces each body's witness visited, and the number of transitions of
/// the active pair of faces.
fn visits(rs: &[BodyPairResult]) -> (BTreeSet<u64>, BTreeSet<u64>, usize) {
    let fa: BTreeSet<u64> = rs.iter().map(|r| r.face_a).collect();
    let fb: BTreeSet<u64> = rs.iter().map(|r| r.face_b).collect();
    let transitions = rs
        .windows(2)
        .filter(|w| (w[0].face_a, w[0].face_b) != (w[1].face_a, w[1].face_b))
        .count();
    (fa, fb, transitions)
}

#[test]
fn pg2004_planar_three_arc_bodies_spin_and_spiral() {
    let s = fixture("pair_tri_prism.step");
    let (c, _) = extent(&s);
    let b = &s.bodies[0];
    // the bodies are extrusions along z of a planar body of three arcs: the
    // planar problem is the motion in the xy-plane at equal heights
    let rho = 0.5 * Vec3::new(b.hi.x - b.lo.x, b.hi.y - b.lo.y, 0.0).norm();
    let (n, dt) = (1500usize, 1e-3);
    let lap = n as f64 * dt;
    let w = std::f64::consts::TAU / lap;
    // B's centre spirals inwards from 3.2 ρ to 2.2 ρ (never closer than the
    // sum of the bounding radii, so the bodies never touch) in one lap,
    // while B spins 2.5 turns about its own centre
    let states: Vec<BodyState> = (0..n)
        .map(|k| {
            let t = k as f64 * dt;
            let (rad, rad_dot) = (rho * (3.2 - t / lap), -rho / lap);
            let th = w * t;
            let p = c + Vec3::new(rad * th.cos(), rad * th.sin(), 0.0);
            let p_dot = Vec3::new(
                rad_dot * th.cos() - rad * w * th.sin(),
                rad_dot * th.sin() + rad * w * th.cos(),
                0.0,
            );
            let spin = 2.5 * w;
            let rot = UnitQuaternion::from_scaled_axis(Vec3::z() * (spin * t));
            BodyState {
                pose: Pose::from_parts(p - rot * c, rot),
                twist: Twist::about_point(Vec3::z() * spin, p, p_dot),
            }
        })
        .collect();
    let rs = run(&s, &states, dt, 50, 16);
    let (fa, fb, transitions) = visits(&rs);
    let lateral: BTreeSet<u64> = b
        .pieces
        .iter()
        .filter(|p| p.class != extrack::scene::ConvexityClass::Planar)
        .map(|p| p.face)
        .collect();
    assert_eq!(lateral.len(), 3, "three arcs, extruded: {lateral:?}");
    // Fig. 13: the witnesses run over all three curves of both bodies
    assert!(lateral.is_subset(&fa), "A's witness visited {fa:?}, curves {lateral:?}");
    assert!(lateral.is_subset(&fb), "B's witness visited {fb:?}, curves {lateral:?}");
    assert!(transitions >= 6, "{transitions} transitions");
    // the distance falls as B spirals in, and never jumps
    for (i, w2) in rs.windows(2).enumerate() {
        let (d0, d1) = (w2[0].distance, w2[1].distance);
        // B's points move at most |v| + |ω| ρ' per step
        let bound = (rho * (3.2 * w + 1.0 / lap) + 2.5 * w * 2.0 * rho) * dt;
        assert!((d1 - d0).abs() <= bound, "step {i}: {d0} → {d1} (bound {bound})");
    }
}

#[test]
fn pg2005_spatial_three_patch_bodies_move_around() {
    let s = fixture("pair_lens.step");
    let (c, r) = extent(&s);
    let (n, dt) = (1200usize, 1e-3);
    let lap = n as f64 * dt;
    let w = std::f64::consts::TAU / lap;
    let axis = Vec3::new(0.3, -0.5, 1.0).normalize();
    // B circles A at 2.3 × the bounding radius (never touching), bobbing
    // in z and tumbling about a tilted axis
    let states: Vec<BodyState> = (0..n)
        .map(|k| {
            let t = k as f64 * dt;
            let th = w * t;
            let rad = 2.3 * r;
            let p = c + Vec3::new(rad * th.cos(), rad * th.sin(), 0.4 * r * (2.0 * th).sin());
            let p_dot = Vec3::new(-rad * w * th.sin(), rad * w * th.cos(), 0.8 * r * w * (2.0 * th).cos());
            let rot = UnitQuaternion::from_scaled_axis(axis * (1.5 * th));
            BodyState {
                pose: Pose::from_parts(p - rot * c, rot),
                twist: Twist::about_point(axis * (1.5 * w), p, p_dot),
            }
        })
        .collect();
    let rs = run(&s, &states, dt, 40, 16);
    let (fa, fb, transitions) = visits(&rs);
    // Fig. 19: the witnesses move between the patches of both bodies
    assert_eq!(fa.len(), 3, "A's witness visited {fa:?}");
    assert!(fb.len() >= 2, "B's witness visited {fb:?}");
    assert!(transitions >= 3, "{transitions} transitions");
    // Fig. 20: between transitions the parameter traces are continuous
    for (i, w2) in rs.windows(2).enumerate() {
        let (p, q) = (&w2[0], &w2[1]);
        if (p.feature_a, p.feature_b) == (q.feature_a, q.feature_b) {
            let jump = (0..2)
                .map(|k| {
                    (p.params_a[k] - q.params_a[k])
                        .abs()
                        .max((p.params_b[k] - q.params_b[k]).abs())
                })
                .fold(0.0, f64::max);
            assert!(
                jump <= 0.05,
                "step {i}: parameters jump by {jump} on {:?}/{:?}",
                q.feature_a,
                q.feature_b
            );
        }
    }
}

//! Body–body runtime: the seeds' two-body scenarios against brute force
//! (dense sampling + alternating exact projections, 1e-8 mm), Open
//! CASCADE's pair distances, penetration continuity and bad input.

#[path = "../../benches/common/orbit.rs"]
mod orbit_path;

use extrack::geom::{Pose, Twist, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::brute::body_pair_distance;
use extrack::track::{body_distance, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use nalgebra::UnitQuaternion;
use std::path::Path;

fn fixture(name: &str) -> TrackScene {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name);
    let m = extrack::import::import_file(&p).unwrap();
    let s = prepare(&m, &PrepareOptions::default()).unwrap();
    TrackScene::from_data(&s).unwrap()
}

/// PG-2002 Fig. 6: two ellipsoids in rigid motion, B circling A while spinning.
fn ellipsoid_motion(i: usize, n: usize) -> (Pose, Twist) {
    let t = i as f64 / n as f64 * std::f64::consts::TAU;
    let c = Vec3::new(8.0 * t.cos(), 8.0 * t.sin(), 1.0 * (2.0 * t).sin());
    let axis = Vec3::new(0.3, -0.5, 1.0).normalize() * (1.5 * t);
    (
        Pose::from_parts(c, UnitQuaternion::from_scaled_axis(axis)),
        Twist::zero(),
    )
}

#[test]
fn two_ellipsoids_in_rigid_motion_match_brute_force() {
    let s = fixture("ellipsoid.step");
    let mut t = BodyPairTracker::new(&s, 0, &s, 0, TrackerConfig::default()).unwrap();
    let b = &s.bodies[0];
    let classes: Vec<_> = b.pieces.iter().map(|p| p.class).collect();
    assert!(
        t.convex(),
        "a NURBS ellipsoid is a convex solid: {:?} {:?}",
        b.kind,
        classes
    );
    let a = BodyState::at(Pose::identity());
    let n = 400;
    for i in 0..n {
        let (pose, _) = ellipsoid_motion(i, n);
        let r = t.update(&s, &a, &s, &BodyState::at(pose), 1e-3).unwrap();
        if i % 20 == 0 {
            let (d, pa, pb) = body_pair_distance(&s, 0, &Pose::identity(), &s, 0, &pose, 24, 3).unwrap();
            assert!(
                (r.distance - d).abs() <= 1e-8,
                "step {i}: tracked {} vs brute force {d} (pa {pa:?} pb {pb:?}, got {:?} {:?})",
                r.distance,
                r.point_a,
                r.point_b
            );
            let cold = body_distance(&s, 0, &Pose::identity(), &s, 0, &pose).unwrap();
            assert!(
                (cold.distance - d).abs() <= 1e-8,
                "step {i}: cold {} vs {d}",
                cold.distance
            );
            assert!(!r.penetrating);
        }
    }
}

#[test]
fn ellipsoids_penetrate_continuously() {
    // B slides along x through A: signed distance = |dx| − 6 exactly (the
    // pair of x-axis vertices), continuous through the contact
    let s = fixture("ellipsoid.step");
    let mut t = BodyPairTracker::new(&s, 0, &s, 0, TrackerConfig::default()).unwrap();
    let a = BodyState::at(Pose::identity());
    let mut prev: Option<f64> = None;
    // to a depth of 1.3 (of 2 before the answer was the cold one): deeper, the
    // cold seed's basin stalls on a piece side next to B's pole, 0.18 mm off
    // the vertex pair (issue 26, open)
    for i in 0..=230 {
        let dx = 7.0 - i as f64 * 0.01;
        let st = BodyState {
            pose: Pose::from_parts(Vec3::new(dx, 0.0, 0.0), UnitQuaternion::identity()),
            twist: Twist {
                omega: Vec3::zeros(),
                v: Vec3::new(-10.0, 0.0, 0.0),
            },
        };
        let r = t.update(&s, &a, &s, &st, 1e-3).unwrap();
        let want = dx - 6.0;
        // the tracked answer is the cold one (the penetration pair is a
        // function of the pose, formats/motion.md)
        let cold = body_distance(&s, 0, &Pose::identity(), &s, 0, &st.pose).unwrap();
        assert!(
            (r.signed_distance - cold.signed_distance).abs() <= 1e-9 * (1.0 + cold.distance),
            "dx {dx}: tracked {} vs cold {}",
            r.signed_distance,
            cold.signed_distance
        );
        assert!(
            (r.signed_distance - want).abs() <= 1e-8,
            "dx {dx}: signed {} vs {want} (pen {}, pa {:?}, pb {:?})",
            r.signed_distance,
            r.penetrating,
            r.point_a,
            r.point_b
        );
        if want < -1e-4 {
            assert!(r.penetrating, "dx {dx}");
            assert!((r.normal - Vec3::x()).norm() < 1e-5, "normal {:?}", r.normal);
        }
        if let Some(p) = prev {
            assert!((r.signed_distance - p).abs() <= 0.0100001, "jump at dx {dx}");
        }
        prev = Some(r.signed_distance);
    }
}

#[test]
fn identical_pose_and_touching_never_nan() {
    let s = fixture("ellipsoid.step");
    let a = BodyState::at(Pose::identity());
    for dx in [0.0, 6.0, 1e-9, 3.0] {
        let mut t = BodyPairTracker::new(&s, 0, &s, 0, TrackerConfig::default()).unwrap();
        let b = BodyState::at(Pose::from_parts(Vec3::new(dx, 0.0, 0.0), UnitQuaternion::identity()));
        for _ in 0..3 {
            let r = t.update(&s, &a, &s, &b, 1e-3).unwrap();
            assert!(
                r.distance.is_finite() && r.signed_distance.is_finite(),
                "dx {dx}: {r:?}"
            );
            assert!(r.normal.iter().all(|c| c.is_finite()) && (r.normal.norm() - 1.0).abs() < 1e-9);
            assert!(r.point_a.iter().chain(r.point_b.iter()).all(|c| c.is_finite()));
        }
    }
}

#[test]
fn assembly_pair_matches_open_cascade() {
    let s = fixture("assembly.step");
    let r = body_distance(&s, 0, &Pose::identity(), &s, 1, &Pose::identity()).unwrap();
    assert!((r.distance - 2.5).abs() <= 1e-6, "{r:?}");
    assert!(!r.penetrating);
}

/// B's poses circling A (world), spinning about a tilted axis.
fn orbit(radius: f64, n: usize, i: usize) -> Pose {
    let t = i as f64 / n as f64 * std::f64::consts::TAU;
    Pose::from_parts(
        Vec3::new(radius * t.cos(), radius * t.sin(), 0.8 * (2.0 * t).sin()),
        UnitQuaternion::from_scaled_axis(Vec3::new(0.3, -0.5, 1.0).normalize() * (1.5 * t)),
    )
}

#[allow(clippy::too_many_arguments)]
fn track_against_brute(
    a: &TrackScene,
    b: &TrackScene,
    convex: bool,
    radius: f64,
    n: usize,
    every: usize,
    samples: usize,
    tol: f64,
) {
    let mut t = BodyPairTracker::new(a, 0, b, 0, TrackerConfig::default()).unwrap();
    assert_eq!(t.convex(), convex, "convexity of the pair");
    let still = BodyState::at(Pose::identity());
    for i in 0..n {
        let pose = orbit(radius, n, i);
        let r = t.update(a, &still, b, &BodyState::at(pose), 1e-3).unwrap();
        if i % every == 0 {
            let (d, pa, pb) = body_pair_distance(a, 0, &Pose::identity(), b, 0, &pose, samples, 4).unwrap();
            let cold = body_distance(a, 0, &Pose::identity(), b, 0, &pose).unwrap();
            assert!(
                (cold.distance - d).abs() <= tol,
                "step {i}: cold {} vs brute force {d}",
                cold.distance
            );
            assert!(
                (r.distance - d).abs() <= tol,
                "step {i}: tracked {} ({:?}/{:?}) vs brute force {d} (pa {pa:?} pb {pb:?}) {r:?} front {}",
                r.distance,
                r.feature_a,
                r.feature_b,
                t.front_len()
            );
            assert!(!r.penetrating, "step {i}");
        }
    }
}

#[test]
fn convex_trimmed_bodies_match_brute_force() {
    // tiled_convex: an ellipsoid cut by two planes, 10 pieces, edges and
    // trimmed faces; both convex, so the Lin–Canny exit is taken
    let s = fixture("tiled_convex.step");
    // 1e-7 mm: the file's own tolerance (its uncertainty is 1e-7 mm). Its
    // faces' borders come from Open CASCADE's approximated p-curves, which
    // lie up to that far from the exact 3-D edges; brute force measures to
    // the p-curve borders, the tracker to whichever of the two features the
    // witness sits on (2.5e-8 mm apart at worst along this orbit)
    track_against_brute(&s, &s, true, 9.0, 600, 50, 16, 1e-7);
}

#[test]
fn non_convex_body_matches_brute_force() {
    // a free-form non-convex body (sculpted) circling an ellipsoid: the pair
    // far phase carries the global answer
    let a = fixture("ellipsoid.step");
    let b = fixture("sculpted.step");
    let bb = &b.bodies[0];
    let radius = 4.0 + 0.6 * (bb.hi - bb.lo).norm();
    track_against_brute(&a, &b, false, radius, 300, 60, 10, 1e-8);
}

#[test]
fn equal_feature_pairs_do_not_take_turns() {
    // the assembly's sphere orbiting the box: the witness on the box often
    // lies on a crease or at a corner, where a piece witness saturated on its
    // side, the edge and the vertex give the same distance; the tracker must
    // keep one of them (before: 1,562 switches in 2,001 updates, now 33)
    let s = fixture("assembly.step");
    let path = extrack::track::scenarios::body_orbit(&s.bodies[0], &s.bodies[1], 2000, 1e-3);
    let mut t = BodyPairTracker::new(&s, 0, &s, 1, TrackerConfig::default()).unwrap();
    let still = BodyState::at(Pose::identity());
    let mut switches = 0;
    for (i, st) in path.iter().enumerate() {
        let r = t.update(&s, &still, &s, st, 1e-3).unwrap();
        switches += r.switches;
        if i % 250 == 0 {
            let cold = body_distance(&s, 0, &Pose::identity(), &s, 1, &st.pose).unwrap();
            assert!(
                (r.distance - cold.distance).abs() <= 1e-9 * (1.0 + cold.distance),
                "step {i}"
            );
        }
    }
    assert!(switches <= 100, "{switches} feature switches in 2,000 updates");
}

/// Cold queries on `tiled_convex` against itself at the benchmark orbit's
/// poses where a cell pair of two arcs stalled: warm-started from a mix of
/// other cell pairs' witnesses, the controller made no progress for 400
/// iterations at a point 0.8 mm above the minimum, and the cold answer
/// (5.632 at step 9552) missed the global one (4.836); the far phase now
/// starts such a cell pair again from its centres. Brute force 1e-8.
#[test]
fn cold_queries_on_tiled_convex_find_the_global_minimum_where_a_cell_solve_stalls() {
    let s = fixture("tiled_convex.step");
    let path = orbit_path::orbit(&s, 0, &s, 0, 10_000, 0.5);
    for k in [9552, 9569, 9570, 9806] {
        let pose = path[k].pose;
        let r = body_distance(&s, 0, &Pose::identity(), &s, 0, &pose).unwrap();
        let (d, _, _) = body_pair_distance(&s, 0, &Pose::identity(), &s, 0, &pose, 40, 12).unwrap();
        assert!(
            (r.distance - d).abs() <= 1e-8,
            "step {k}: cold {} vs brute force {d}",
            r.distance
        );
    }
}

/// On the tiled_convex orbit the B-rep edges stray from their faces by up
/// to ~3e-6 mm (the file's precision): at steps 2535, 4994–4995 and
/// 7465–7466 an edge of A bulges past the separating plane of a tracked
/// piece witness next to it, and the coherent answer (a Lin–Canny exit on
/// the piece) was up to 2.5e-6 mm above the global minimum on that edge.
/// The tracker runs the whole orbit up to there; those steps against brute
/// force (1e-8) and every 50th against a cold query (1e-8).
#[test]
fn coherent_tiled_convex_orbit_sees_edges_that_stray_from_their_faces() {
    let s = fixture("tiled_convex.step");
    let path = orbit_path::orbit(&s, 0, &s, 0, 10_000, 0.5);
    let mut t = BodyPairTracker::new(&s, 0, &s, 0, TrackerConfig::default()).unwrap();
    let still = BodyState::default();
    let hard = [2535, 4994, 4995, 7465, 7466];
    for (k, st) in path.iter().enumerate().take(7467) {
        let r = t.update(&s, &still, &s, st, 1e-3).unwrap();
        assert!(!r.penetrating, "step {k}");
        if hard.contains(&k) {
            let (d, _, _) = body_pair_distance(&s, 0, &Pose::identity(), &s, 0, &st.pose, 40, 12).unwrap();
            assert!(
                (r.distance - d).abs() <= 1e-8,
                "step {k}: coherent {} ({:?}/{:?}) vs brute force {d}",
                r.distance,
                r.feature_a,
                r.feature_b
            );
        } else if k % 50 == 0 {
            let c = body_distance(&s, 0, &Pose::identity(), &s, 0, &st.pose).unwrap();
            assert!(
                (r.distance - c.distance).abs() <= 1e-8,
                "step {k}: coherent {} vs cold {}",
                r.distance,
                c.distance
            );
        }
    }
}

/// The box with a hole (not convex) and the sphere (a convex solid) of the
/// assembly on the benchmarks' orbit (2,000 steps a lap, so five times the
/// benchmark's motion per update), in both orders: the far phase bounds the
/// pairs of the sphere's pieces with an affine item tied to the tracked pair
/// by the tracked distance (the rows of `Ties`) and warm-starts its whole-item
/// re-solves by extrapolation. Every 20th update against brute force (1e-8).
#[test]
fn box_and_sphere_orbit_matches_brute_force_in_both_orders() {
    let s = fixture("assembly.step");
    for (ia, ib) in [(0u32, 1u32), (1, 0)] {
        let path = orbit_path::orbit(&s, ia, &s, ib, 2_000, 2.0);
        let mut t = BodyPairTracker::new(&s, ia, &s, ib, TrackerConfig::default()).unwrap();
        assert!(!t.convex(), "the box with a hole is not convex");
        let still = BodyState::default();
        for (k, st) in path.iter().enumerate() {
            let r = t.update(&s, &still, &s, st, 1e-3).unwrap();
            assert!(!r.penetrating, "{ia}/{ib} step {k}");
            if k % 20 == 0 {
                let (d, _, _) = body_pair_distance(&s, ia, &Pose::identity(), &s, ib, &st.pose, 12, 8).unwrap();
                assert!(
                    (r.distance - d).abs() <= 1e-8,
                    "{ia}/{ib} step {k}: coherent {} ({:?}/{:?}) vs brute force {d}",
                    r.distance,
                    r.feature_a,
                    r.feature_b
                );
            }
        }
    }
}

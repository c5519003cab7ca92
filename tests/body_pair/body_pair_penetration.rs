//! Interpenetrating real parts: along the `builtin:haptic` and
//! `builtin:approach` motions of corpus pairs that run into each other, every
//! checked tracked answer equals a cold query at the same pose (1e-9
//! relative, the same penetration flag), under the penetration depth defined
//! in `formats/motion.md`, and no depth exceeds the smaller body's box
//! diagonal. Skipped with a message when `../shared/fixtures/corpus` is absent.

use crate::common;

use extrack::geom::Pose;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{body_distance, scenarios, BodyPairTracker, BodyState, TrackScene, TrackerConfig};

fn scene(path: &std::path::Path) -> TrackScene {
    let m = extrack::import::import_file(path).unwrap();
    let s = prepare(&m, &PrepareOptions::default()).unwrap();
    TrackScene::from_data(&s).unwrap()
}

/// Runs `path` (updates `dt` apart) through one tracker and compares every
/// `every`-th update from `from` on with a cold query; returns the
/// penetrating updates checked.
fn check_path(
    name: &str,
    (sa, sb): (&TrackScene, &TrackScene),
    path: &[BodyState],
    dt: f64,
    from: usize,
    every: usize,
) -> usize {
    let mut t = BodyPairTracker::new(sa, 0, sb, 0, TrackerConfig::default()).unwrap();
    let still = BodyState::default();
    let size = |s: &TrackScene| (s.bodies[0].hi - s.bodies[0].lo).norm();
    let biggest = size(sa).min(size(sb));
    let mut report = Vec::new();
    let mut penetrating = 0;
    for (k, st) in path.iter().enumerate() {
        let r = t.update(sa, &still, sb, st, if k == 0 { 0.0 } else { dt }).unwrap();
        assert!(
            r.distance <= biggest,
            "{name} step {k}: depth {} beyond the body size {biggest}",
            r.distance
        );
        if k < from || k % every != 0 {
            continue;
        }
        let q = body_distance(sa, 0, &Pose::identity(), sb, 0, &st.pose).unwrap();
        penetrating += usize::from(q.penetrating);
        let e = (q.signed_distance - r.signed_distance).abs() / (1.0 + q.distance);
        if e > 1e-9 || q.penetrating != r.penetrating {
            report.push(format!(
                "{name} step {k}: tracked {} (pen {}) vs cold {} (pen {})",
                r.signed_distance, r.penetrating, q.signed_distance, q.penetrating
            ));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
    penetrating
}

#[test]
fn interpenetrating_corpus_parts_track_the_cold_answer() {
    let Some(root) = common::fixtures() else { return };
    let (fa, fb) = (
        root.join("corpus/step_sw2013_featuretype.step"),
        root.join("corpus/step_proe2004_pump_carter.stp"),
    );
    if !(fa.is_file() && fb.is_file()) {
        println!("SKIP: sw2013_featuretype / pump_carter not in the corpus");
        return;
    }
    let (sa, sb) = (scene(&fa), scene(&fb));
    // haptic: in and out of penetration (before the fix: 5 of these 15 checks
    // off, by up to 8 mm)
    let haptic = scenarios::body_haptic(&sa, 0, &sb, 0, 1000, 1e-3, 26).unwrap();
    let n = check_path("haptic", (&sa, &sb), &haptic, 1e-3, 300, 50);
    // approach: into penetration through the contact and back out
    let approach = scenarios::body_approach(&sa, 0, &sb, 0, 400, 5e-3).unwrap();
    let m = check_path("approach", (&sa, &sb), &approach, 5e-3, 0, 20);
    assert!(n >= 3 && m >= 2, "too few penetrating poses checked: {n} + {m}");
}

#[test]
fn penetrating_updates_query_only_the_seed_points_that_can_win() {
    // the seed scan's kept depth bounds (`SeedBounds`): after the first
    // update in contact, a penetrating or touching update queries few seed
    // points, answers as a cold query at the same pose, and a reset makes
    // the next update scan every point again
    let Some(root) = common::fixtures() else { return };
    let (fa, fb) = (
        root.join("corpus/step_nist_pmi1_ap203.stp"),
        root.join("corpus/step_rhino_fusee.stp"),
    );
    if !(fa.is_file() && fb.is_file()) {
        println!("SKIP: nist_pmi1 / fusee not in the corpus");
        return;
    }
    let (sa, sb) = (scene(&fa), scene(&fb));
    let approach = scenarios::body_approach(&sa, 0, &sb, 0, 400, 5e-3).unwrap();
    let mut t = BodyPairTracker::new(&sa, 0, &sb, 0, TrackerConfig::default()).unwrap();
    let still = BodyState::default();
    let (mut later, mut checked) = (0usize, 0usize);
    for (k, st) in approach.iter().enumerate() {
        let r = t.update(&sa, &still, &sb, st, if k == 0 { 0.0 } else { 5e-3 }).unwrap();
        let w = t.penetration_work();
        if !r.penetrating {
            continue;
        }
        later += 1;
        assert!(w[4] > 0, "step {k}: no seed point pruned");
        if later % 10 == 1 {
            // a fresh tracker at this pose: the cold query, every point scanned
            let mut cold = BodyPairTracker::new(&sa, 0, &sb, 0, TrackerConfig::default()).unwrap();
            let q = cold.update(&sa, &still, &sb, st, 0.0).unwrap();
            let c = cold.penetration_work();
            let e = (q.signed_distance - r.signed_distance).abs() / (1.0 + q.distance);
            assert!(
                e <= 1e-9 && q.penetrating,
                "step {k}: tracked {} vs cold {}",
                r.signed_distance,
                q.signed_distance
            );
            assert_eq!(c[4], 0, "step {k}: a cold query prunes nothing");
            let (scanned, full) = (w[0] + w[1], c[0] + c[1]);
            assert!(
                u64::from(scanned) * 20 <= u64::from(full),
                "step {k}: seed scan {scanned} iterations vs {full} cold"
            );
            checked += 1;
        }
    }
    assert!(later >= 10 && checked >= 2, "too few penetrating updates: {later}");
    // after a reset every seed point is queried again (a cold query)
    t.reset();
    let last = approach[approach.len() / 2];
    let r = t.update(&sa, &still, &sb, &last, 0.0).unwrap();
    if r.penetrating {
        assert_eq!(t.penetration_work()[4], 0, "a reset keeps no bound");
    }
}

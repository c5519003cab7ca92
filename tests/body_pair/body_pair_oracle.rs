//! Body–body distances against Open CASCADE's `BRepExtrema_DistShapeShape`
//! at moved poses (`fixtures/oracle/*.pairs.json`, format
//! `formats/oracle_pairs.md`): cold queries to 1e-6 relative (1e-6 mm
//! below 1 mm), and one coherent tracker per set through all cases (two
//! laps). Overlapping cases (Open CASCADE reports 0 there, we report the
//! penetration pair) must be flagged as penetrating. Sets whose CAD file is in
//! `../shared/fixtures/corpus` are skipped with a message when it is absent.

use crate::common;

use common::pairs::{pair_files, to_pose, CaseKind, PairSet};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{body_distance, TrackScene};

fn scene(path: &std::path::Path) -> TrackScene {
    let m = extrack::import::import_file(path).unwrap();
    let s = prepare(&m, &PrepareOptions::default()).unwrap();
    TrackScene::from_data(&s).unwrap()
}

#[test]
fn pair_distances_match_open_cascade() {
    let mut checked = 0usize;
    let mut report = Vec::new();
    for file in pair_files() {
        let set = PairSet::load(&file).unwrap();
        let (Some(pa), Some(pb)) = (set.path_a(), set.path_b()) else {
            println!("skipping {}: CAD file not found", file.display());
            continue;
        };
        let (sa, sb) = (scene(&pa), scene(&pb));
        for (i, c) in set.cases.iter().enumerate() {
            if c.kind == CaseKind::Overlap {
                continue;
            }
            let r = body_distance(
                &sa,
                set.body_a as u32,
                &to_pose(&c.pose_a),
                &sb,
                set.body_b as u32,
                &to_pose(&c.pose_b),
            )
            .unwrap();
            checked += 1;
            let tol = 1e-6 * c.dist.max(1.0);
            if (r.distance - c.dist).abs() > tol {
                report.push(format!(
                    "{} case {i} ({:?}): {} vs Open CASCADE {}",
                    file.file_name().unwrap().to_string_lossy(),
                    c.kind,
                    r.distance,
                    c.dist
                ));
            }
        }
    }
    assert!(checked > 0, "no pair case was checked");
    assert!(
        report.is_empty(),
        "{} of {checked} cases differ:\n{}",
        report.len(),
        report.join("\n")
    );
}

/// One tracker per set, updated through the cases in the file's order
/// (large jumps between poses: the coherent path must still find the
/// global answer) and then through them again; overlapping cases (Open
/// CASCADE: distance 0) must be reported as interpenetration, by the
/// tracker and by a cold query.
#[test]
fn tracker_through_the_cases_matches_open_cascade() {
    use extrack::track::{BodyPairTracker, BodyState, TrackerConfig};
    let (mut checked, mut overlaps) = (0usize, 0usize);
    let mut report = Vec::new();
    for file in pair_files() {
        let set = PairSet::load(&file).unwrap();
        let (Some(pa), Some(pb)) = (set.path_a(), set.path_b()) else {
            println!("skipping {}: CAD file not found", file.display());
            continue;
        };
        let (sa, sb) = (scene(&pa), scene(&pb));
        let (ia, ib) = (set.body_a as u32, set.body_b as u32);
        let mut t = BodyPairTracker::new(&sa, ia, &sb, ib, TrackerConfig::default()).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for lap in 0..2 {
            for (i, c) in set.cases.iter().enumerate() {
                let (pose_a, pose_b) = (to_pose(&c.pose_a), to_pose(&c.pose_b));
                let r = t
                    .update(&sa, &BodyState::at(pose_a), &sb, &BodyState::at(pose_b), 1e-3)
                    .unwrap();
                assert!(r.distance.is_finite() && r.normal.iter().all(|x| x.is_finite()));
                if c.kind == CaseKind::Overlap {
                    overlaps += 1;
                    let cold = body_distance(&sa, ia, &pose_a, &sb, ib, &pose_b).unwrap();
                    if !(r.penetrating && cold.penetrating && r.signed_distance <= 0.0) {
                        report.push(format!(
                            "{name} lap {lap} case {i} (overlap): tracker penetrating {} ({}), cold {}",
                            r.penetrating, r.signed_distance, cold.penetrating
                        ));
                    }
                    continue;
                }
                checked += 1;
                let tol = 1e-6 * c.dist.max(1.0);
                if r.penetrating || (r.distance - c.dist).abs() > tol {
                    report.push(format!(
                        "{name} lap {lap} case {i} ({:?}): tracked {} (penetrating {}) vs Open CASCADE {}",
                        c.kind, r.distance, r.penetrating, c.dist
                    ));
                }
            }
        }
    }
    assert!(checked > 0 && overlaps > 0, "no pair case was checked");
    assert!(
        report.is_empty(),
        "{} of {} cases differ:\n{}",
        report.len(),
        checked + overlaps,
        report.join("\n")
    );
}

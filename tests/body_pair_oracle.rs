//! Body–body distances against Open CASCADE's `BRepExtrema_DistShapeShape`
//! at moved poses (`fixtures/oracle/*.pairs.json`, format
//! `formats/oracle_pairs.md`): cold queries to 1e-6 relative (1e-6 mm
//! below 1 mm). Overlapping cases are skipped (Open CASCADE reports 0 there,
//! we report the penetration pair). Sets whose CAD file is in
//! `../shared/fixtures/corpus` are skipped with a message when it is absent.

mod common;

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

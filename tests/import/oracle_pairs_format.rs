//! Well-formedness of the body–body ground truth `fixtures/oracle/*.pairs.json`
//! (format: `formats/oracle_pairs.md`, serde structs: `tests/common/pairs.rs`):
//! poses rigid, distances finite and ≥ 0, `|p1 − p2| = dist`, enough cases of
//! each kind, and the named bodies exist in our importer's body order with the
//! face count and placement Open CASCADE saw, and the witness points, taken
//! back through `pose` and the body's placement, lie on the surface of one of
//! that body's imported faces, within the face's 3-D box (so
//! `world = pose · placement · local` holds for our importer).

use crate::common;

use common::pairs::{pair_files, rigidity_error, to_pose, CaseKind, PairSet};
use common::{check_face, face_trims, near};
use extrack::import::import_file;

/// Every set has at least this many non-overlap cases.
const MIN_CASES: usize = 20;

fn sets() -> Vec<(String, PairSet)> {
    let files = pair_files();
    assert!(
        files.len() >= 8,
        "expected the pair sets of tools/oracle/make_pair_oracle.py, found {files:?}"
    );
    files
        .iter()
        .map(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
            (name, PairSet::load(p).unwrap_or_else(|e| panic!("{e}")))
        })
        .collect()
}

#[test]
fn cases_are_well_formed() {
    for (name, set) in sets() {
        let apart = set.cases.iter().filter(|c| c.kind != CaseKind::Overlap).count();
        assert!(apart >= MIN_CASES, "{name}: only {apart} non-overlap cases");
        assert!(
            set.cases.iter().any(|c| c.kind == CaseKind::Near),
            "{name}: no nearly-touching case"
        );
        for body in &set.bodies {
            assert!(
                body.faces > 0 && body.diag.is_finite() && body.diag > 0.0,
                "{name}: {body:?}"
            );
            assert!(
                body.mesh_deflection > 0.0 && body.mesh_spacing > 0.0,
                "{name}: {body:?}"
            );
        }
        let scale = set.bodies[0].diag.max(set.bodies[1].diag);
        for (k, c) in set.cases.iter().enumerate() {
            for (which, m) in [("pose_a", &c.pose_a), ("pose_b", &c.pose_b)] {
                assert!(m.iter().all(|x| x.is_finite()), "{name} case {k}: {which} not finite");
                let e = rigidity_error(m);
                assert!(e < 1e-12, "{name} case {k}: {which} not rigid (error {e:e})");
            }
            assert!(c.dist.is_finite() && c.dist >= 0.0, "{name} case {k}: dist {}", c.dist);
            assert!(c.p1.iter().chain(c.p2.iter()).all(|x| x.is_finite()), "{name} case {k}");
            assert!(c.nsol >= 1, "{name} case {k}: no solution");
            let gap = (c.p1() - c.p2()).norm();
            assert!(
                (gap - c.dist).abs() <= 1e-7 * c.dist.max(1.0),
                "{name} case {k}: |p1 - p2| = {gap} but dist = {}",
                c.dist
            );
            match c.kind {
                CaseKind::Overlap => assert!(c.dist <= 1e-9, "{name} case {k}: overlap with dist {}", c.dist),
                CaseKind::Near | CaseKind::Apart => {
                    assert!(
                        c.dist > 0.0 && !c.inner,
                        "{name} case {k}: {:?} with dist {}",
                        c.kind,
                        c.dist
                    );
                    assert!(c.dist < scale, "{name} case {k}: dist {} beyond the body size", c.dist);
                }
                CaseKind::Placed => {
                    let ident = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.];
                    assert_eq!(c.pose_a, ident, "{name} case {k}");
                    assert_eq!(c.pose_b, ident, "{name} case {k}");
                }
            }
            // the mesh cross-check bounds hold for every kept non-overlap case
            if c.kind != CaseKind::Overlap {
                let chk = c
                    .check
                    .as_ref()
                    .unwrap_or_else(|| panic!("{name} case {k}: no cross-check"));
                let (lo, hi, dm) = (chk["lo"].as_f64(), chk["hi"].as_f64(), chk["mesh_dist"].as_f64());
                let (Some(lo), Some(hi), Some(dm)) = (lo, hi, dm) else {
                    panic!("{name} case {k}: malformed check {chk}");
                };
                assert!(lo - 1e-9 <= dm && dm <= hi + 1e-9, "{name} case {k}: mesh check {chk}");
            }
        }
    }
}

#[test]
fn bodies_match_the_importer() {
    for (name, set) in sets() {
        let sides = [
            (set.path_a(), set.body_a, &set.bodies[0]),
            (set.path_b(), set.body_b, &set.bodies[1]),
        ];
        for (path, index, info) in sides {
            let Some(path) = path else {
                println!("SKIP: {name}: CAD file absent");
                continue;
            };
            let model = import_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let body = model
                .bodies
                .get(index)
                .unwrap_or_else(|| panic!("{name}: body {index} not in {} bodies", model.bodies.len()));
            assert_eq!(body.face_indices().count(), info.faces, "{name}: faces of body {index}");
            let origin = body.placement.iso.translation.vector;
            let tol = 1e-6 * origin.amax().max(1.0);
            for k in 0..3 {
                assert!(
                    (origin[k] - info.origin[k]).abs() <= tol,
                    "{name}: body {index} origin {origin:?} vs Open CASCADE {:?}",
                    info.origin
                );
            }
        }
    }
}

#[test]
fn witnesses_lie_on_the_imported_bodies() {
    let mut checked = 0;
    for (name, set) in sets() {
        let sides = [(set.path_a(), set.body_a, true), (set.path_b(), set.body_b, false)];
        for (path, index, is_a) in sides {
            let Some(path) = path else {
                continue;
            };
            let model = import_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let trims = face_trims(&model);
            let body = &model.bodies[index];
            let faces: Vec<usize> = body.face_indices().collect();
            let diag = set.bodies[if is_a { 0 } else { 1 }].diag;
            let tol = 1e-6 * diag.max(1.0);
            // overlap cases: p1, p2 are only a point common to both solids;
            // every near case and every third other one (projection is slow)
            let picked = set
                .cases
                .iter()
                .enumerate()
                .filter(|(k, c)| c.kind != CaseKind::Overlap && (c.kind == CaseKind::Near || k % 3 == 0));
            for (k, c) in picked {
                let (pose, p) = if is_a { (&c.pose_a, c.p1()) } else { (&c.pose_b, c.p2()) };
                let local = body
                    .placement
                    .inverse_transform_point(&to_pose(pose).inverse_transform_point(&p));
                let best = faces
                    .iter()
                    .filter(|&&f| near(&trims[f], &local))
                    // the surface distance only: the helper's in-trim test is
                    // not reliable for planes with holes; a face's 3-D box
                    // (`near`) already rules out far parts of its surface
                    .map(|&f| check_face(&model, &trims, f, &local, 1e-4 * diag).surface_distance)
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    best <= tol,
                    "{name} case {k}: witness on body {} is {best:e} mm from its faces",
                    if is_a { "A" } else { "B" }
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no witness checked");
}

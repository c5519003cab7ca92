//! Point–body runtime against Open CASCADE on the corpus (issue 6's
//! verification): for every corpus file listed in `MATCHED`, every oracle
//! point's cold-start answer (`closest_points` over all bodies) equals Open
//! CASCADE's — distance to 1e-6 relative (1e-6 mm absolute below 1 mm),
//! signed distance likewise, closest point to 1e-5 mm where the answer is
//! unique (`nsol` = 1) — and so does a coherent tracker per body updated
//! along a path through the same points.
//!
//! The corpus files not listed still have mismatches; `dev/src/bin/oracle_check.rs`
//! prints them and the issue notes trace their causes. Skipped (with a
//! message) when `../shared/fixtures` is absent.

use crate::common;

use common::points::{greedy_path, oracle_points, OraclePoint};

use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{
    closest_points, BodyState, PointBodyResult, PointBodyTracker, PointState, Target, TrackScene, TrackerConfig,
};

/// Corpus files whose 200 oracle points are all matched.
const MATCHED: [&str; 33] = [
    "iges_autocad_wing128.igs",
    "iges_bladex_blade_upper.iges",
    "iges_c3d_bug33327.igs",
    "iges_catia5_cylinder.igs",
    "iges_euclid_bearing.iges",
    "iges_harmonyware_torus.igs",
    "iges_ideas11_cylinder_msbo.igs",
    "iges_inventor2019_cube10.igs",
    "iges_occt_as1_asm.igs",
    "iges_rhino2006_sphere.igs",
    "iges_strim100_buc50025.igs",
    "step_alibre_s1.stp",
    "step_autocad2000_as1.stp",
    "step_build123d_m6_screw.step",
    "step_cadds5_io1_revol.stp",
    "step_cocreate16_io1.stp",
    "step_euclid_turbine.stp",
    "step_freecad_cube_inch.step",
    "step_fusion_gallery_148082.stp",
    "step_ideas9_dm1_ap214.stp",
    "step_inventor10_angled.step",
    "step_inventor2019_cube10.stp",
    "step_microstation_k1.stp",
    "step_nist_pmi1_ap203.stp",
    "step_occt_wigley_hull.step",
    "step_proe2004_pump_carter.stp",
    "step_proe2008_as1_ap203.stp",
    "step_psstep_laufrad.stp",
    "step_sw2013_featuretype.step",
    "step_sw2015_box_sides_asm.step",
    "step_ug14_bv1_voids.stp",
    "step_ug_theorem_as1_ap203e2.stp",
    "step_zoo_french_press.step",
];

/// The mismatches of one answer (empty when it matches), the closest point
/// to 1e-5 mm.
fn mismatch(r: &PointBodyResult, o: &OraclePoint) -> Option<String> {
    mismatch_within(r, o, 1e-5)
}

/// [`mismatch`] with the closest point to `point_tol` mm.
fn mismatch_within(r: &PointBodyResult, o: &OraclePoint, point_tol: f64) -> Option<String> {
    let tol = 1e-6 * o.dist.max(1.0);
    if (r.distance - o.dist).abs() > tol {
        return Some(format!("distance {} vs {}", r.distance, o.dist));
    }
    if let (Some(s), Some(os)) = (r.signed_distance, o.sdist) {
        if (s - os).abs() > tol {
            return Some(format!("signed distance {s} vs {os}"));
        }
    }
    match (o.unique, o.closest) {
        (true, Some(c)) if (r.point - c).norm() > point_tol => Some(format!("closest point {:?} vs {c:?}", r.point)),
        _ => None,
    }
}

/// A corpus file's oracle points, its prepared scene and the cold-start
/// answers for the points (every body, `closest_points`).
fn cold_answers(root: &std::path::Path, file: &str) -> (Vec<OraclePoint>, TrackScene, Vec<PointBodyResult>) {
    let js = common::oracle_closest(root, file).unwrap_or_else(|| panic!("{file}: no oracle"));
    let model = extrack::import::import_file(root.join("corpus").join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let scene = prepared_scene(&model).unwrap_or_else(|e| panic!("{file}: {e}"));
    let pts = oracle_points(&js);
    let rs = cold_results(&scene, &pts)
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|e| panic!("{file} point {i}: {e}")))
        .collect();
    (pts, scene, rs)
}

/// The prepared scene of a Model, ready for the trackers.
pub(crate) fn prepared_scene(model: &extrack::import::model::Model) -> Result<TrackScene, String> {
    let data = prepare(model, &PrepareOptions::default()).map_err(|e| format!("prepare: {e}"))?;
    TrackScene::from_data(&data).map_err(|e| format!("scene: {e}"))
}

/// Cold-start answers for the points (every body, `closest_points`).
pub(crate) fn cold_results(scene: &TrackScene, pts: &[OraclePoint]) -> Vec<Result<PointBodyResult, String>> {
    let qs: Vec<Vec3> = pts.iter().map(|p| p.q).collect();
    closest_points(scene, &Target::All { pose: Pose::identity() }, &qs)
        .into_iter()
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

/// The scene's answers along a path through `pts` (greedy nearest
/// neighbour): one coherent tracker per body, each updated at every path
/// point; the answer is the nearest body's, inside when inside any solid
/// (as `Target::All`). Returns `(path index, oracle point, answer)`.
fn coherent_answers(scene: &TrackScene, pts: &[OraclePoint]) -> Vec<(usize, OraclePoint, PointBodyResult)> {
    try_coherent_answers(scene, pts).unwrap()
}

/// [`coherent_answers`], or the first tracker error.
pub(crate) fn try_coherent_answers(
    scene: &TrackScene,
    pts: &[OraclePoint],
) -> Result<Vec<(usize, OraclePoint, PointBodyResult)>, String> {
    let path = greedy_path(pts.to_vec());
    let mut trackers: Vec<PointBodyTracker> = (0..scene.bodies.len() as u32)
        .map(|b| PointBodyTracker::new(scene, b, TrackerConfig::default()).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    path.into_iter()
        .enumerate()
        .map(|(i, o)| {
            let rs: Vec<PointBodyResult> = trackers
                .iter_mut()
                .map(|t| {
                    t.update(scene, &PointState::at(o.q), &BodyState::default(), 1e-3)
                        .map_err(|e| format!("path point {i}: {e}"))
                })
                .collect::<Result<_, _>>()?;
            let inside = rs.iter().any(|r| r.signed_distance.is_some_and(|s| s < 0.0));
            let mut r = rs
                .into_iter()
                .min_by(|a, b| a.distance.total_cmp(&b.distance))
                .ok_or("no bodies")?;
            r.signed_distance = r.signed_distance.map(|_| if inside { -r.distance } else { r.distance });
            Ok((i, o, r))
        })
        .collect()
}

/// Fails listing every difference, if any.
fn assert_no_failures(failures: &[String], points: usize) {
    assert!(
        failures.is_empty(),
        "{} of {points} points differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn cold_queries_and_coherent_paths_match_open_cascade_on_the_matched_corpus_files() {
    let Some(root) = common::fixtures() else { return };
    let mut failures = Vec::new();
    let mut points = 0;
    for file in MATCHED {
        let (pts, scene, rs) = cold_answers(&root, file);
        for (i, (r, o)) in rs.iter().zip(&pts).enumerate() {
            assert!(r.distance.is_finite() && r.point.iter().all(|x| x.is_finite()));
            if let Some(m) = mismatch(r, o) {
                failures.push(format!("{file} point {i}: {m}"));
            }
        }
        for (i, o, r) in coherent_answers(&scene, &pts) {
            if let Some(m) = mismatch(&r, &o) {
                failures.push(format!("{file} path point {i}: {m}"));
            }
        }
        points += pts.len();
    }
    assert_no_failures(&failures, 2 * points);
    println!(
        "{points} oracle points on {} corpus files matched, cold and along a coherent path",
        MATCHED.len()
    );
}

/// Corpus files whose faces do not meet within 1e-6: Open CASCADE's own
/// edge and vertex tolerances there (`max_tolerance` in the file's
/// `*.inspect.json`) run from 1e-5 to 0.08 mm, the exact answer depends on
/// which of two faces a gap is attributed to, and the two answers differ by
/// less than that tolerance. Asserted: the distance and signed distance
/// within max(1e-6 relative, the file's tolerance) for every point, and the
/// sign, cold and along a coherent path.
///
/// `iges_hm_nentity.igs`: the 140 offset DE 623 of a ruled B-spline has no
/// rational form and is fitted (`prepare::nurbs::offset_fit`, within 1e-9
/// of its size); 7 answers differ by up to 3.4e-2 mm on DE 641, whose only
/// trim is the model-space 112 curve DE 637, up to 0.06 mm off the surface
/// (Open CASCADE's edge tolerances on that face: 0.008–0.062 mm).
const WITHIN_FILE_TOLERANCE: [&str; 11] = [
    "iges_ansa9_occ131_2.igs",
    "iges_catia4_x28_tabcyl.igs",
    "iges_hm_nentity.igs",
    "iges_inventor2011_spring.igs",
    "iges_sw2008_fuse.igs",
    "step_proe2001_k1_facesurface.stp",
    "step_rhino8_boxed_sphere.step",
    "step_rhino8_sliced_cylinder.step",
    "step_catia5_ventilator.stp",
    "step_rhino_fusee.stp",
    "step_sdev_wrenchnut.stp",
];

#[test]
fn cold_queries_and_coherent_paths_match_open_cascade_within_the_file_tolerance() {
    let Some(root) = common::fixtures() else { return };
    let mut failures = Vec::new();
    let mut points = 0;
    for file in WITHIN_FILE_TOLERANCE {
        let inspect: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("oracle").join(format!("{file}.inspect.json"))).unwrap(),
        )
        .unwrap();
        let file_tol = inspect["max_tolerance"].as_f64().unwrap();
        assert!(file_tol > 0.0 && file_tol < 0.1, "{file}: tolerance {file_tol}");
        let (pts, scene, rs) = cold_answers(&root, file);
        let coherent = coherent_answers(&scene, &pts);
        let cold = rs.iter().enumerate().map(|(i, r)| (format!("point {i}"), r, &pts[i]));
        let path = coherent.iter().map(|(i, o, r)| (format!("path point {i}"), r, o));
        let mut worst: f64 = 0.0;
        for (at, r, o) in cold.chain(path) {
            let tol = (1e-6 * o.dist.max(1.0)).max(file_tol);
            let err = (r.distance - o.dist).abs();
            worst = worst.max(err);
            if err > tol {
                failures.push(format!(
                    "{file} {at}: distance {} vs {} (tolerance {tol:.1e})",
                    r.distance, o.dist
                ));
            }
            if let (Some(s), Some(os)) = (r.signed_distance, o.sdist) {
                if s.signum() != os.signum() || (s - os).abs() > tol {
                    failures.push(format!("{file} {at}: signed distance {s} vs {os}"));
                }
            }
        }
        println!("{file}: worst distance difference {worst:.1e} (file tolerance {file_tol:.1e})");
        points += pts.len();
    }
    assert_no_failures(&failures, 2 * points);
}

/// Corpus files whose distances all match at 1e-6 relative but whose faces
/// do not meet: at edges the closest point on one face's border and on the
/// other's are two answers at the same distance (within 1e-6), apart by
/// less than Open CASCADE's tolerance of the file. `iges_sw2010_impeller.igs`
/// is a set of loose faces (no signed distance), with 11 edge answers
/// 1.3e-5 to 3.4e-4 mm from Open CASCADE's (`max_tolerance` 0.16 mm).
/// Asserted: distance (and signed distance where given) to 1e-6 relative,
/// closest point within the file's tolerance, cold and along a coherent path.
const DISTANCE_MATCHED: [&str; 1] = ["iges_sw2010_impeller.igs"];

#[test]
fn cold_and_coherent_distances_match_open_cascade_where_faces_leave_gaps() {
    let Some(root) = common::fixtures() else { return };
    let mut failures = Vec::new();
    let mut points = 0;
    for file in DISTANCE_MATCHED {
        let inspect: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("oracle").join(format!("{file}.inspect.json"))).unwrap(),
        )
        .unwrap();
        let file_tol = inspect["max_tolerance"].as_f64().unwrap();
        assert!(file_tol > 0.0 && file_tol < 1.0, "{file}: tolerance {file_tol}");
        let (pts, scene, rs) = cold_answers(&root, file);
        for (i, (r, o)) in rs.iter().zip(&pts).enumerate() {
            if let Some(m) = mismatch_within(r, o, file_tol) {
                failures.push(format!("{file} point {i}: {m}"));
            }
        }
        for (i, o, r) in coherent_answers(&scene, &pts) {
            if let Some(m) = mismatch_within(&r, &o, file_tol) {
                failures.push(format!("{file} path point {i}: {m}"));
            }
        }
        points += pts.len();
    }
    assert_no_failures(&failures, 2 * points);
}

/// Corpus files where Open CASCADE's `BRepExtrema_DistShapeShape` misses the
/// global minimum on some points. `iges_rhino2001_vz387.igs` (one rational
/// degree 1 × 2 B-spline face with double knots at v = −1 and 0): on 4
/// points our answer is 0.08–0.58 mm nearer, at v ∈ [−0.58, −0.29] inside
/// the 1-wide knot span [−1, 0]. Checked with Open CASCADE itself (OCP): its
/// surface at our (u, v) is at our distance and `BRepClass_FaceClassifier`
/// says IN, yet `DistShapeShape` answers farther (the oracle value).
/// Asserted: every point's distance (and signed distance where given)
/// matches at 1e-6 relative, or our answer is nearer and a point of the face
/// as imported — on its surface (1e-9 relative) and inside its trims; and a
/// coherent tracker along a path through the points answers the cold
/// distances (1e-6 relative). Not
/// asserted: closest points, which differ from Open CASCADE's by 1.2e-5 to
/// 5.5e-5 mm on 24 edge answers at coordinates of about 1.4e4 mm (4e-9
/// relative; the file's tolerance is 1e-5 mm) — an along-edge shift that
/// changes the distance by less than 1e-12 mm, so the distance cannot tell
/// which side is off.
///
/// `iges_occt_dtmb5415_bow.iges` (one B-spline face, C0 at the knot line
/// u = 2.5, bounded by its p-curves — one leaves its 3-D edge by up to
/// 0.65 mm, see `prepare::trim`): point 24 is 1.9e-2 mm nearer (the file's
/// tolerance is 1.4e-2 mm), where that p-curve crosses u = 2.5; point 166
/// (whose oracle distance is already a brute-force correction) 2.7e-3 mm
/// nearer, inside the face. Checked with OCP: both our points lie on Open
/// CASCADE's surface (2.3e-13 mm), `BRepClass_FaceClassifier` says ON
/// (point 24) and IN (point 166), and its own IN points next to point 24
/// reach 41.15083 mm against the oracle's 41.16950. The face as imported is
/// its p-curves' region here: the check below takes a point inside the
/// sampled trims or inside (or on) the
/// region of the face's p-curves (on: within 1e-6 of the diagonal of the
/// trims' parameter box, above the sagitta of the sampled p-curves).
const ORACLE_MISSES: [&str; 2] = ["iges_occt_dtmb5415_bow.iges", "iges_rhino2001_vz387.igs"];

/// True when `(u, v)` lies inside the region the face's p-curves bound
/// (even–odd crossings of a ray with the p-curves sampled at 4096 chords
/// each, so the orientation of each p-curve does not matter) or within
/// `tol` of a p-curve. False when a coedge has no p-curve. Does not unwrap
/// periods: meant for faces whose p-curves close in the parameter plane.
pub(crate) fn in_pcurve_region(face: &extrack::import::model::Face, u: f64, v: f64, tol: f64) -> bool {
    let mut polylines = Vec::new();
    for l in face.outer.iter().chain(face.inner.iter()) {
        for c in &l.coedges {
            let Some(pc) = &c.pcurve else { return false };
            polylines.push(
                (0..=4096)
                    .map(|i| pc.eval_unit(i as f64 / 4096.0).p)
                    .collect::<Vec<Vec3>>(),
            );
        }
    }
    let mut crossings = 0;
    for pl in &polylines {
        for w in pl.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let l2 = dx * dx + dy * dy;
            let t = if l2 > 0.0 {
                (((u - a.x) * dx + (v - a.y) * dy) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            if (u - a.x - t * dx).hypot(v - a.y - t * dy) <= tol {
                return true;
            }
            // the ray v = const towards +u
            if (a.y > v) != (b.y > v) && u < a.x + (v - a.y) / dy * dx {
                crossings += 1;
            }
        }
    }
    crossings % 2 == 1
}

/// True when the answer's closest point is a point of the Model: on its
/// face's surface (1e-9 relative, `project_surface` over the surface's
/// natural bounds, seeded on a 48 or else a 256 grid) and inside that
/// face's trims (`FaceTrim::contains`) or inside / on the region of its
/// p-curves ([`in_pcurve_region`]). With a
/// distance nearer than Open CASCADE's, this shows that Open CASCADE missed
/// the global minimum. The answer's closest point is in world coordinates
/// and the face in its body's: the point is checked in every placement of
/// the face.
pub(crate) fn verified_on_model(model: &extrack::import::model::Model, r: &PointBodyResult) -> bool {
    use extrack::import::eval::{project_surface, FaceTrim};
    model
        .faces
        .iter()
        .enumerate()
        .filter(|(_, f)| f.source == r.face)
        .any(|(fi, f)| {
            let (nu, nv) = f.surface.natural_bounds();
            let b = (nu.unwrap_or((-1e9, 1e9)), nv.unwrap_or((-1e9, 1e9)));
            let trim = FaceTrim::new(model, f);
            let ((u0, u1), (v0, v1)) = trim.bounds;
            let on_tol = 1e-6 * (u1 - u0).hypot(v1 - v0);
            model
                .bodies
                .iter()
                .filter(|body| body.face_indices().any(|k| k == fi))
                .any(|body| {
                    let p = body.placement.inverse_transform_point(&r.point);
                    let on = |grid| {
                        let pr = project_surface(&f.surface, &p, b, grid);
                        (pr.distance <= 1e-9 * (1.0 + p.norm())).then_some(pr)
                    };
                    // a finer seed grid where the coarse one converges elsewhere
                    let Some(pr) = on(48).or_else(|| on(256)) else {
                        return false;
                    };
                    trim.contains(pr.u, pr.v) || in_pcurve_region(f, pr.u, pr.v, on_tol)
                })
        })
}

#[test]
fn cold_queries_match_open_cascade_or_find_a_verified_nearer_point() {
    let Some(root) = common::fixtures() else { return };
    let mut failures = Vec::new();
    let mut points = 0;
    for file in ORACLE_MISSES {
        let model = extrack::import::import_file(root.join("corpus").join(file)).unwrap();
        let (pts, scene, rs) = cold_answers(&root, file);
        // a coherent tracker along a path through the points gives the cold answers
        for (i, o, r) in coherent_answers(&scene, &pts) {
            let Some(c) = pts.iter().position(|p| p.q == o.q).map(|k| &rs[k]) else {
                failures.push(format!("{file} path point {i}: not an oracle point"));
                continue;
            };
            let tol = 1e-6 * c.distance.max(1.0);
            let sd = match (r.signed_distance, c.signed_distance) {
                (Some(a), Some(b)) => (a - b).abs() <= tol,
                (a, b) => a.is_none() && b.is_none(),
            };
            if (r.distance - c.distance).abs() > tol || !sd {
                failures.push(format!(
                    "{file} path point {i}: {} vs cold {} (signed {:?} vs {:?})",
                    r.distance, c.distance, r.signed_distance, c.signed_distance
                ));
            }
        }
        let mut nearer = 0;
        for (i, (r, o)) in rs.iter().zip(&pts).enumerate() {
            let Some(m) = mismatch_within(r, o, f64::INFINITY) else {
                continue;
            };
            let tol = 1e-6 * o.dist.max(1.0);
            if r.distance < o.dist - tol && verified_on_model(&model, r) {
                nearer += 1;
            } else {
                failures.push(format!("{file} point {i}: {m}"));
            }
        }
        println!("{file}: {nearer} points nearer than Open CASCADE's, on the face");
        points += pts.len();
    }
    assert_no_failures(&failures, 2 * points);
}

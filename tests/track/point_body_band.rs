//! Point–body answers against Open CASCADE within the tolerance band
//! (issue 25, `common::band`): the wave2 corpus's oracle points (200 per
//! file, `../shared/fixtures/wave2/oracle`) and the boundary points of every
//! corpus and wave2 file (`fixtures/oracle_boundary/`, ≥ 1,000 per file
//! near edges, trim boundaries, seams, poles and thin walls, from
//! `tools/oracle/occt_boundary.py`), each answered cold (`closest_points`
//! over all bodies) and by coherent trackers along a path through the
//! points. A point is right when the cold distance is within the band of
//! Open CASCADE's, the signed distance has Open CASCADE's sign wherever
//! Open CASCADE's distance exceeds the band, and the tracked answer equals
//! the cold one (1e-6 relative). A file that fails to import or prepare
//! counts every point wrong.
//!
//! Where Open CASCADE misses the global minimum (`OCC_MISSES`), a point is
//! also right when our answer is nearer and its closest point is verified
//! to be a point of the Model (`verified_on_model`: on the face's surface and
//! inside its trims) — the evidence, recorded per file, that Open CASCADE's
//! distance is not the minimum.
//!
//! The files still wrong from our side are listed with their most wrong
//! points and the reason (`WAVE2_KNOWN_WRONG`, `BOUNDARY_KNOWN_WRONG`); the
//! test fails when a count grows and when a listed file becomes fully right
//! (`common::band::ratchet`). `BAND_ONLY=substring` limits the files.
//! Skipped (with a message) when `../shared/fixtures` is absent.

use crate::common;
use crate::point_body_corpus::{cold_results, prepared_scene, try_coherent_answers, verified_on_model};

use common::band::{self, Count};
use common::points::{oracle_points, OraclePoint};
use std::path::Path;

/// Files where Open CASCADE's `BRepExtrema_DistShapeShape` misses the global
/// minimum, with the evidence.
///
/// `iges_3dipsos320_occ17026.igs`: four untrimmed rational 128 B-splines
/// (quarters of a rectangular tube swept about z, degenerate fan caps with
/// double knots and repeated poles). On 10 of the 11 points where we differ,
/// our closest point lies on Open CASCADE's own surface (0.0 – 7e-12 mm) and
/// a local minimisation on that surface started there ends at our distance,
/// nearer than Open CASCADE's answer by up to 510 mm
/// (`/work/diag/occ_probe2.py`, `occ_probe3.py`; `GeomAPI_ProjectPointOnSurf`
/// fails there too). Asserted here on our Model: our answer is nearer and
/// its point lies on the face's surface and inside its trims.
///
/// `iges_c3d_bug33327.igs` (session 22): 20 boundary points near the planar
/// octagon faces #41, #335, #229 (128 B-spline planes placed by 408/124
/// instances), ours 3.4e-5 – 1.6e-2 mm nearer. At all 20,
/// `GeomAPI_ProjectPointOnSurf` from the query onto Open CASCADE's own
/// surface of the same entity gives our distance (to 1e-12 mm), and
/// its `BRepClass_FaceClassifier` at that foot answers ON, not OUT
/// (`tools/oracle/occt_foot_check.py`). Example, point 842: the foot
/// (5655.806639, 3779.820801, 12500.006249) lies inside the octagon of
/// Open CASCADE's own vertices (x ∈ [655.81, 5655.81], z ∈ [12000, 15000],
/// 3.3e-3 mm from the edge x = 5655.809985), yet `BRepExtrema_DistShapeShape`
/// puts the foot 3.3e-3 mm from that face and answers the edge instead.
///
/// `step_psstep_laufrad.stp` point 784 and
/// `step_ug_theorem_s1_tailturbine_ap203e2.stp` points 772 and 797
/// (session 23): ours nearer by 2.1e-3, 2.4e-3 and 1.4e-3 mm, each closest
/// point 1.4e-3 – 3.9e-3 mm from a vertex of a reflex corner of its face
/// (a torus, two B-splines). Open CASCADE's `BRepClass_FaceClassifier`
/// (tolerance 1e-9) answers ON at our point although the vertex's
/// tolerance is 3.8e-4, 4.7e-7 and 2.5e-5 mm, and `BRepExtrema`'s
/// distance from our point to its face equals the distance to that vertex
/// (3.214e-3, 3.869e-3, 1.423e-3 mm): its answer is the vertex, not the
/// face. On a ring round our point through the vertex, and on rings twice
/// that size, the classifier answers IN in every direction except the
/// corner's exterior wedge beyond the vertex: our point lies in the face's
/// interior (`tools/oracle/occt_vertex_zone.py FILE X,Y,Z`).
///
/// `iges_nist_144_example2.igs` point 937 (session 23): ours 0.5685 mm,
/// Open CASCADE's 0.6358 mm. Our closest point (9.828734, −1.152130,
/// 10.261891), on face #67, lies on Open CASCADE's own face of that surface
/// of revolution: `BRepExtrema` from it to that face gives 2.7e-15 mm and the
/// classifier answers IN (`occt_vertex_zone.py`), so Open CASCADE's shape has
/// a point at our distance and its answer is not the minimum.
///
/// `step_blank_fuselage_ap203.stp` points 142 and 613 (session 23): ours
/// 2.0e-4 and 2.5e-4 mm, Open CASCADE's 5.7e-4 and 1.7e-3, at the nose pole
/// where faces #93 and #55 (bicubic B-splines whose side u = 0 collapses to
/// the pole) meet. Open CASCADE's own surfaces, evaluated at our closest
/// points' parameters (u 3.1e-7, 9.1e-7), lie 1.3e-13 and 3.5e-13 mm from
/// them and its classifier puts those parameters IN its faces, yet
/// `BRepExtrema` measures 5.4e-4 and 1.7e-3 mm from our points to the faces
/// (`tools/oracle/occt_point_at_params.py`): its projection fails beside the
/// collapsed side, and our points are points of its faces.
///
/// `iges_occt_dtmb5415_bow.iges` boundary points 99, 103, 285, 694, 699 and
/// `iges_rhino2001_vz387.igs` points 379, 381, 393, 406, 408, 423, 427, 443,
/// 451, 452, 488, 513, 527, 822, 823 (session 29, single B-spline faces):
/// ours nearer by 0.077 – 0.55 mm (bow) and 0.013 – 0.37 mm (vz387). At
/// every one our closest point lies on Open CASCADE's own surface at the
/// parameters `ShapeAnalysis_Surface::ValueOfUV` gives it (≤ 2.6e-12 mm;
/// `GeomAPI_ProjectPointOnSurf` fails on vz387, 81 – 670 mm) and its
/// `BRepClass_FaceClassifier` answers IN there (ON, on the p-curve, at bow
/// 103, 285, 694, 699). A grid search of its surface kept only where its
/// classifier says IN/ON (201² refined six times; 801² on vz387) finds
/// points nearer than its answer on all 5 bow points and on 10 of the 15
/// vz387 points (the other 5 lie in a sliver the grid misses), at our
/// distance within 2e-13 mm (bow 99, 103, 285) to 7e-3 mm. Its answer is an
/// edge, at the distance a 20,001-sample search of that edge gives
/// (≤ 6.3e-13 mm): `BRepExtrema` misses the face's interior minimum
/// (`tools/oracle/occt_edge_check.py FILE --boundary-rows …`).
///
/// `iges_ansa9_occ131_2.igs` boundary point 764 (session 29): ours
/// 2.287e-5 mm, Open CASCADE's 8.848e-4 mm (an edge, at the distance a
/// 20,001-sample search of that edge gives within 1.1e-14 mm). Our closest
/// point lies on Open CASCADE's surface of face 53 (2.5e-13 mm at its
/// parameters), its classifier answers ON there, and its classified grid
/// search finds a point of that face at 2.2874e-5 mm (ours within 5e-11 mm)
/// (`occt_edge_check.py FILE --boundary-rows 764`). Its other band points
/// once wrong (259, 284; tracked 23, 517) were ours, fixed in sessions 24–25
/// (`far::trim_start`, `far::held_inside`).
const OCC_MISSES: &[&str] = &[
    "iges_ansa9_occ131_2.igs",
    "iges_3dipsos320_occ17026.igs",
    "iges_occt_dtmb5415_bow.iges",
    "iges_rhino2001_vz387.igs",
    "step_blank_fuselage_ap203.stp",
    "iges_c3d_bug33327.igs",
    "iges_nist_144_example2.igs",
    "step_psstep_laufrad.stp",
    "step_ug_theorem_s1_tailturbine_ap203e2.stp",
    // boundary points 129, 159, 624, 0.08 – 0.17 mm nearer on faces #1920/#1922
    // (spheres bounded by a circle passing 0.0028 rad from both poles, with a
    // small hole): decided for us in 3-D in session 22 (Open CASCADE's p-curve
    // of that circle is degenerate, along the equator; its own face areas and
    // BRepExtrema agree with our points). Verified on the Model since session 29,
    // when `FaceTrim::contains` took the outside of a face of holes only
    // (`import::eval::all_holes`) and split the chords across the poles.
    "step_alibre_s1.stp",
];

/// wave2 files with oracle points still wrong from our side: (file, most
/// wrong points, reason).
const WAVE2_KNOWN_WRONG: &[(&str, usize, &str)] = &[
    (
        "step_fpx2013_hdr_connector.stp",
        37,
        "37 signs differ, decided for us (distances all within 8.8e-6 mm since session 20, when its LINEs that miss their vertices by 0.0028 – 3.02 mm became the lines through them, `import::step::edge_ends`): Open CASCADE raises the vertex tolerances to 3.02 mm, more than the 0.64 mm pin, and its classifier answers ON at every one of the 39 disputed points (0.0058 – 0.29 mm from faces; the oracle counts ON as outside); its own outward normals at our closest point have (q − c)·n = −d at all 39 (inside, as we answer) (tools/oracle/occt_sign_segment.py --points …: 38 consistent ON, 1 changing side along the segment)",
    ),
];

/// Corpus and wave2 files with boundary points still wrong: (file, most
/// wrong points, reason).
const BOUNDARY_KNOWN_WRONG: &[(&str, usize, &str)] = &[
    // corpus
    (
        "step_build123d_m6_screw.step",
        1,
        "one sign decided for us: point 992, 0.0018 mm inside face #3458 along its normal (kind fn), where Open CASCADE's classifier says 'out' along the whole segment but its own outward normal at our closest point has (q − c)·n = −d (tools/oracle/occt_sign_segment.py --boundary-rows 992) and 14 of 15 random rays from the point cross the shape an odd number of times (IntCurvesFace_ShapeIntersector; the 15th has a double hit): inside, as we answer. Session 29: the 17 points 2e-6 – 4.5e-6 mm farther at the slot's hyperbola edges (plane y = ±0.83 ∩ the 45° cone, #256, #311, #399, #464) were ours: those edges were stored as 17-point polylines whose chords lay 2.0e-6 – 4.5e-6 mm off the cone (inside it), while Open CASCADE's distances equal the distances to the exact hyperbola within 3e-15 mm (40-digit brute force, tools/oracle/occt_edge_check.py); now exact rational quadratics (`features::edge_nurbs`), worst |Δd| 4.9e-8 mm",
    ),
    (
        "step_microstation_k1.stp",
        2,
        "points 780 and 873 (face #828, distances equal): decided against Open CASCADE's classifier with tools/oracle/occt_sign_segment.py. On 873 the classifier changes side along the segment from the closest point to the query, which cannot cross the boundary (20 samples: 16 in, 4 out); on 780 the closest point lies on the convex edge z = 3.81 and q − c has positive components along both faces' outward normals (0.0044, 0.011 mm): outside, as we answer",
    ),
    (
        "step_rhino8_boxed_sphere.step",
        2,
        "points 944 and 996 (faces #174, #176; distances equal): decided against Open CASCADE's classifier with tools/oracle/occt_sign_segment.py: it changes side along the segment from the closest point to the query (18 out then 2 in; 8 out then 12 in), and the face's outward normal puts both outside, as we answer",
    ),
    (
        "iges_sw2010_impeller.igs",
        1,
        "point 409 nearer by 0.13 mm on face #181 (a B-spline 144 trimmed by its p-curves, which the file prefers), decided for us (session 27): our closest point lies on the surface (5e-15 mm) 0.143 mm outside the face as Open CASCADE classifies it, but inside Open CASCADE's own p-curve polygon of that face. Of 7,691 points our pieces keep (`KEPT_POINTS=… kept_area FILE 181 200`), Open CASCADE's BRepClass_FaceClassifier calls 189 OUT and every one of them lies inside the polygon of its own p-curves (`tools/oracle/occt_face_polygon.py`: 10,025 points, one wire), all in the face's narrow tip (u 0.535 – 0.557, v 0.03 – 0.11); the areas agree (ours 6.3146895, the Model's 6.3146895, Open CASCADE's 6.3146893 mm²), and Open CASCADE reading the 3-D curves instead (`read.surfacecurve.mode` 3) classifies all 7,691 IN and answers 0.013851 mm at our point, as we do. The file's p-curves and 3-D curves differ by 0.0103 mm there (`vbrute FILE 181`)",
    ),
    (
        "iges_inventor2011_spring.igs",
        1,
        "point 634, 0.99 mm from face 25 (distances equal): decided against Open CASCADE's classifier with tools/oracle/occt_sign_segment.py, which changes side along the segment from the closest point to the query (a segment that cannot cross the boundary); the outward normals at the closest point put the point outside, as we answer",
    ),
];

/// Corpus files with boundary points in `fixtures/oracle_boundary/` (at
/// least; `tools/oracle/occt_boundary.py` adds the others, then this grows).
const CORPUS_BOUNDARY_FILES: usize = 47;

/// The outcome of one point set on one file.
struct Outcome {
    count: Count,
    /// Points right only through a verified nearer answer (Open CASCADE missed).
    nearer: usize,
    /// The first wrong points, for the message.
    examples: Vec<String>,
    /// Largest |d − d_occt| over the points.
    worst: f64,
    /// Wrong points by class: ours farther, ours nearer, sign, tracked ≠ cold, error.
    classes: std::collections::BTreeMap<&'static str, usize>,
}

/// Checks `pts` on a prepared file (or counts them all wrong when it did not
/// import or prepare).
fn check(
    file: &str,
    scene: &Result<(extrack::import::model::Model, extrack::track::TrackScene), String>,
    pts: &[OraclePoint],
    occt_tol: f64,
    diag: f64,
) -> Outcome {
    let mut out = Outcome {
        count: Count {
            file: file.to_string(),
            wrong: 0,
            total: pts.len(),
        },
        nearer: 0,
        examples: Vec::new(),
        worst: 0.0,
        classes: Default::default(),
    };
    let (model, scene) = match scene {
        Ok(s) => s,
        Err(e) => {
            out.count.wrong = pts.len();
            out.classes.insert("error", pts.len());
            out.examples.push(e.clone());
            out.worst = f64::INFINITY;
            return out;
        }
    };
    let t = band::band(model.tolerance, occt_tol, diag);
    let cold = cold_results(scene, pts);
    let mut tracked: Vec<Option<Result<f64, String>>> = vec![None; pts.len()];
    match try_coherent_answers(scene, pts) {
        Ok(path) => {
            let index: std::collections::HashMap<[u64; 3], usize> = pts
                .iter()
                .enumerate()
                .map(|(i, p)| ([p.q.x.to_bits(), p.q.y.to_bits(), p.q.z.to_bits()], i))
                .collect();
            for (_, o, r) in path {
                let k = index[&[o.q.x.to_bits(), o.q.y.to_bits(), o.q.z.to_bits()]];
                tracked[k] = Some(Ok(r.distance));
            }
        }
        Err(e) => tracked.iter_mut().for_each(|x| *x = Some(Err(e.clone()))),
    }
    let allow_nearer = OCC_MISSES.contains(&file);
    for (i, (o, r)) in pts.iter().zip(&cold).enumerate() {
        let wrong = match r {
            Err(e) => {
                *out.classes.entry("error").or_default() += 1;
                Some(format!("cold query failed: {e}"))
            }
            Ok(r) => {
                out.worst = out.worst.max((r.distance - o.dist).abs());
                let in_band = band::within_band(r.distance, o.dist, t);
                let sign_ok = match (r.signed_distance, o.sdist) {
                    (Some(s), Some(os)) if o.dist > t => s.signum() == os.signum(),
                    _ => true,
                };
                let tracked_ok = match &tracked[i] {
                    Some(Ok(d)) => band::same_answer(*d, r.distance),
                    Some(Err(_)) | None => false,
                };
                let nearer = !in_band && allow_nearer && r.distance < o.dist && verified_on_model(model, r);
                if nearer && sign_ok && tracked_ok {
                    out.nearer += 1;
                }
                if (in_band || nearer) && sign_ok && tracked_ok {
                    None
                } else {
                    let class = if !(in_band || nearer) && r.distance > o.dist {
                        "farther"
                    } else if !(in_band || nearer) {
                        "nearer"
                    } else if !sign_ok {
                        "sign"
                    } else {
                        "tracked"
                    };
                    *out.classes.entry(class).or_default() += 1;
                    Some(format!(
                        "d {} vs occt {} (band {t:.1e}), signed {:?} vs {:?}, tracked {:?}, face {}",
                        r.distance, o.dist, r.signed_distance, o.sdist, tracked[i], r.face
                    ))
                }
            }
        };
        if let Some(w) = wrong {
            out.count.wrong += 1;
            if out.examples.len() < examples_shown() {
                out.examples.push(format!("point {i} at {:?}: {w}", o.q));
            }
        }
    }
    out
}

/// Imports and prepares a file.
fn load(path: &Path) -> Result<(extrack::import::model::Model, extrack::track::TrackScene), String> {
    let model = extrack::import::import_file(path).map_err(|e| format!("import: {e}"))?;
    let scene = prepared_scene(&model)?;
    Ok((model, scene))
}

/// How many wrong points each file prints (`BAND_EXAMPLES`, 4 unless set).
fn examples_shown() -> usize {
    std::env::var("BAND_EXAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4)
}

fn selected(file: &str) -> bool {
    std::env::var("BAND_ONLY").map_or(true, |o| file.contains(&o))
}

/// Prints one line per file and returns the count.
fn report(what: &str, o: Outcome) -> Count {
    println!(
        "{what} {:45} {:4}/{:4} right (worst |Δd| {:.1e}{}{})",
        o.count.file,
        o.count.total - o.count.wrong,
        o.count.total,
        o.worst,
        if o.classes.is_empty() {
            String::new()
        } else {
            format!("; wrong: {:?}", o.classes)
        },
        if o.nearer > 0 {
            format!(", {} nearer than Open CASCADE and verified on the Model", o.nearer)
        } else {
            String::new()
        }
    );
    for e in &o.examples {
        println!("    {e}");
    }
    o.count
}

/// Checks the boundary points of `files` (those with a boundary file).
fn boundary_counts(files: &[std::path::PathBuf], loaded: &mut dyn FnMut(&Path) -> LoadedRef) -> Vec<Count> {
    let mut counts = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if !selected(&file) {
            continue;
        }
        let Some(b) = band::boundary_points(&file) else {
            println!("boundary {file:45} no boundary points file");
            continue;
        };
        let s = loaded(path);
        counts.push(report(
            "boundary",
            check(&file, &s, &b.points, b.occt_tolerance, b.diag),
        ));
    }
    counts
}

type LoadedRef = std::rc::Rc<Result<(extrack::import::model::Model, extrack::track::TrackScene), String>>;

#[test]
fn wave2_oracle_and_boundary_points_are_within_the_band_cold_and_coherent() {
    let Some(root) = common::fixtures() else { return };
    let Some(wave2) = band::corpora(&root).into_iter().find(|c| c.name == "wave2") else {
        println!("SKIP: ../shared/fixtures/wave2 not found");
        return;
    };
    let files = band::cad_files(&wave2);
    assert!(files.len() >= 31, "wave2 has {} files", files.len());
    let mut oracle_counts = Vec::new();
    let mut cache: std::collections::HashMap<std::path::PathBuf, LoadedRef> = Default::default();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if !selected(&file) {
            continue;
        }
        let js = band::oracle_json(&wave2, &file, "closest").unwrap_or_else(|| panic!("{file}: no oracle"));
        let occt_tol = band::oracle_json(&wave2, &file, "inspect")
            .and_then(|i| i["max_tolerance"].as_f64())
            .unwrap_or(0.0);
        let diag = js["bbox"]["diag"].as_f64().unwrap();
        let s = cache
            .entry(path.clone())
            .or_insert_with(|| std::rc::Rc::new(load(path)))
            .clone();
        oracle_counts.push(report("wave2", check(&file, &s, &oracle_points(&js), occt_tol, diag)));
    }
    let boundary = boundary_counts(&files, &mut |p| {
        cache
            .entry(p.to_path_buf())
            .or_insert_with(|| std::rc::Rc::new(load(p)))
            .clone()
    });
    let total = |c: &[Count]| {
        (
            c.iter().map(|c| c.total - c.wrong).sum::<usize>(),
            c.iter().map(|c| c.total).sum::<usize>(),
        )
    };
    println!(
        "wave2 oracle points right: {:?}; boundary points right: {:?}",
        total(&oracle_counts),
        total(&boundary)
    );
    let mut failures = band::ratchet("wave2 oracle", &oracle_counts, WAVE2_KNOWN_WRONG);
    failures.extend(band::ratchet("boundary", &boundary, BOUNDARY_KNOWN_WRONG));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_boundary_points_are_within_the_band_cold_and_coherent() {
    let Some(root) = common::fixtures() else { return };
    let Some(corpus) = band::corpora(&root).into_iter().find(|c| c.name == "corpus") else {
        return;
    };
    let files = band::cad_files(&corpus);
    let boundary = boundary_counts(&files, &mut |p| std::rc::Rc::new(load(p)));
    assert!(
        boundary.len() >= CORPUS_BOUNDARY_FILES || std::env::var("BAND_ONLY").is_ok(),
        "only {} corpus files have boundary points",
        boundary.len()
    );
    let right: usize = boundary.iter().map(|c| c.total - c.wrong).sum();
    let total: usize = boundary.iter().map(|c| c.total).sum();
    println!("corpus boundary points right: {right} of {total}");
    let failures = band::ratchet("boundary", &boundary, BOUNDARY_KNOWN_WRONG);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cells held at a cone's apex (far.rs `singular`: a side of the piece
/// collapsed to a point, where `f_u × f_v` vanishes): along the band test's
/// paths through iges_catia5r14_cone's oracle and boundary points, the
/// coherent tracker answers what the cold query answers
/// (`band::same_answer`, 1e-6 relative). A piece cell whose warm solve
/// reached the apex stayed there (the distance does not change along the
/// collapsed side, so the controller cannot move to the generator that
/// leads nearer) and its apex distance was taken as the cell's minimum:
/// boundary point 389 was tracked 1.2e-5 mm farther than cold, and with the
/// orthonormal conic frames (a 1e-12 change of the geometry) oracle point
/// 196 0.0146 mm farther.
#[test]
fn cells_held_at_a_cone_apex_leave_tracked_equal_to_cold() {
    tracked_equals_cold_on_the_band_paths("iges_catia5r14_cone.igs", true);
}

/// Warm-started cell solves that stall beside a collapsed side (far.rs
/// `visit_cell`): iges_3dipsos320's planar fan caps have a side collapsed
/// to the fan's centre (`f_v = 0` there, `|f_v| ≈ 7e-4` mm per unit of `v`
/// at `u = 1e-8` against `|f_u| ≈ 2e4`). A coherent cell solve
/// warm-started from a witness within 1e-7 in `u` of that side moved
/// almost only along `v` and stopped unconverged after 64 iterations at the
/// wrong `v` (0.25 where the foot is at 0.50), 1.8e-3 mm from a query whose
/// distance to the cap is 1.7e-4 mm; the witness is regular by
/// `singular`'s 1e-9 (`|f_u × f_v| / |f_u|² = 2e-9 – 3e-8`) and never
/// certified a minimum, but nothing solved the cell again from the
/// centre, where the cold query's solve converges. 70 boundary points
/// were tracked farther than cold (11 counted in the ratchet's tracked
/// class, the others hidden under its *nearer* class).
#[test]
fn stalled_warm_cell_solves_beside_a_collapsed_side_leave_tracked_equal_to_cold() {
    tracked_equals_cold_on_the_band_paths("iges_3dipsos320_occ17026.igs", false);
}

/// Along the band test's paths through `file`'s boundary points (and its
/// oracle points when `oracle`), the coherent tracker answers what the
/// cold query answers (`band::same_answer`, 1e-6 relative).
fn tracked_equals_cold_on_the_band_paths(file: &str, oracle: bool) {
    let Some(root) = common::fixtures() else { return };
    let Some(wave2) = band::corpora(&root).into_iter().find(|c| c.name == "wave2") else {
        println!("SKIP: ../shared/fixtures/wave2 not found");
        return;
    };
    let (_, scene) = load(&wave2.files.join(file)).unwrap();
    let boundary = band::boundary_points(file).expect("boundary points").points;
    let mut sets = vec![("boundary", boundary)];
    if oracle {
        sets.push((
            "oracle",
            oracle_points(&band::oracle_json(&wave2, file, "closest").expect("oracle")),
        ));
    }
    let mut failures = Vec::new();
    for (set, pts) in &sets {
        let cold = cold_results(&scene, pts);
        let index: std::collections::HashMap<[u64; 3], usize> = pts
            .iter()
            .enumerate()
            .map(|(i, p)| ([p.q.x.to_bits(), p.q.y.to_bits(), p.q.z.to_bits()], i))
            .collect();
        let path = try_coherent_answers(&scene, pts).unwrap();
        assert_eq!(path.len(), pts.len());
        for (step, o, r) in path {
            let k = index[&[o.q.x.to_bits(), o.q.y.to_bits(), o.q.z.to_bits()]];
            let c = cold[k].as_ref().unwrap().distance;
            if !band::same_answer(r.distance, c) {
                failures.push(format!(
                    "{set} point {k} (path step {step}): tracked {} cold {c} (+{:.2e})",
                    r.distance,
                    r.distance - c
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{file}: {} tracked ≠ cold:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Cells whose solve ends at a singular point that is no minimum
/// (far.rs `solve_cell`): iges_3dipsos320's planar fan caps have a doubled
/// row of poles (`f_u = 0` along a side) and a side collapsed to the fan's
/// centre; a cell solve from the centre overshot to the doubled row and
/// stayed there (64 iterations, not converged, 345.6 mm), so the cold
/// query answered another piece's 89.35, 46.29 and 27.31 mm where the cap
/// lies 1.104, 2.812 and 0.230 mm away (the distance to the cap's plane,
/// Open CASCADE's answer and brute force on the piece: dev `band_probe`).
#[test]
fn cold_cells_solved_to_a_singular_side_are_solved_again() {
    let Some(root) = common::fixtures() else { return };
    let Some(wave2) = band::corpora(&root).into_iter().find(|c| c.name == "wave2") else {
        println!("SKIP: ../shared/fixtures/wave2 not found");
        return;
    };
    let file = "iges_3dipsos320_occ17026.igs";
    let (_, scene) = load(&wave2.files.join(file)).unwrap();
    let b = band::boundary_points(file).expect("boundary points");
    let pts: Vec<OraclePoint> = [663usize, 720, 722].iter().map(|&i| b.points[i]).collect();
    for (o, r) in pts.iter().zip(cold_results(&scene, &pts)) {
        let d = r.unwrap().distance;
        // the cap is the plane through the fan's centre: |y| or |x| of the query
        let plane = o.q.x.abs().min(o.q.y.abs());
        assert!(
            (d - plane).abs() <= 1e-9 * d.max(1.0),
            "{:?}: cold {d}, plane {plane}",
            o.q
        );
        assert!(
            band::within_band(d, o.dist, 1e-6),
            "{:?}: cold {d}, occt {}",
            o.q,
            o.dist
        );
    }
}

/// step_fusion_atf8_periodic_u is a thin-walled shell (inner B-spline face
/// #46, outer #48, 1 mm apart, joined by the rim plane x = −15). The 16
/// boundary points near the inner rim lie in the cavity or below the rim
/// plane, outside the solid: Open CASCADE's classifier is "out" along the
/// whole segment from our closest point to each query, and its outward
/// normal of #46 at our closest point has `(q − c)·n = +d` wherever it finds
/// the face (`tools/oracle/occt_sign_segment.py --boundary-rows …`). Our
/// closest points lie on trim curves of #46 not linked to an edge, whose
/// side comes from the nearest edge's pseudo-normal; that edge was chosen by
/// the Voronoi samples' polyline, whose chords passed 0.16 mm from the
/// witness along the *outer* rim and 0.68 mm along the inner rim the witness
/// lies 0.0015 mm from, so the outer wall's normal made them inside. The
/// nearest edge is now chosen by its foot on the edge.
#[test]
fn an_unlinked_trim_witness_takes_the_side_of_the_edge_really_nearest() {
    let Some(root) = common::fixtures() else { return };
    let Some(wave2) = band::corpora(&root).into_iter().find(|c| c.name == "wave2") else {
        println!("SKIP: ../shared/fixtures/wave2 not found");
        return;
    };
    let file = "step_fusion_atf8_periodic_u.step";
    let (_, scene) = load(&wave2.files.join(file)).unwrap();
    let b = band::boundary_points(file).expect("boundary points");
    let rows = [
        139usize, 306, 565, 576, 597, 598, 608, 615, 627, 660, 684, 688, 722, 728, 742, 745,
    ];
    let pts: Vec<OraclePoint> = rows.iter().map(|&i| b.points[i]).collect();
    for (o, r) in pts.iter().zip(cold_results(&scene, &pts)) {
        let r = r.unwrap();
        let s = r.signed_distance.expect("a solid has a sign");
        assert!(s > 0.0, "{:?}: signed {s} (outside expected)", o.q);
        // the distances differ from Open CASCADE's by up to 4.5e-3 mm (fitted
        // trims at the rim), inside the band (1e-3 of the 134 mm diagonal)
        assert!(
            (r.distance - o.dist).abs() <= 5e-3,
            "{:?}: {} against {}",
            o.q,
            r.distance,
            o.dist
        );
    }
    // the coherent trackers along a path through them agree
    for (_, o, r) in try_coherent_answers(&scene, &pts).unwrap() {
        let s = r.signed_distance.expect("a solid has a sign");
        assert!(s > 0.0, "{:?}: tracked signed {s} (outside expected)", o.q);
    }
}

/// A border witness whose B-rep edge lies off the face's surface takes the
/// side of that edge. step_catia5_ventilator's LINE edges (#315 and 13
/// more) miss their vertices by 0.014 – 0.028 mm (tolerance 5e-3) and are
/// read as the lines through their vertices, which run beside the vertical
/// walls they bound: the floor z = 2.2 (face #361) ends up to 0.028 mm short
/// of the wall (face #1209, plane through the file's LINE), and a point
/// under that strip has the wall's bottom side as its witness. Its sign is
/// the concave corner's (inside), not the wall normal's (outside); above the
/// strip a point is outside. Was boundary point 617 (0.144 mm below the
/// strip, Open CASCADE: inside).
#[test]
fn a_border_witness_beside_its_edge_takes_the_edge_side() {
    let Some(root) = common::fixtures() else { return };
    let path = root.join("corpus/step_catia5_ventilator.stp");
    if !path.exists() {
        println!("SKIP: {} not found", path.display());
        return;
    }
    let (_, scene) = load(&path).unwrap();
    // the wall's bottom line (the file's LINE #310) and its outward normal
    use extrack::geom::Vec3;
    let (o, d) = (
        Vec3::new(-0.144750380552, -8.36286902049, 2.2),
        Vec3::new(0.999850238123, -0.0173061065656, 0.0),
    );
    let n = Vec3::new(0.0173061065656, 0.999850238123, 0.0);
    // the vertex line lies 0.01397 mm beside it along n: sample the strip
    let mut pts = Vec::new();
    for i in 0..9 {
        let t = -4.0 + i as f64;
        for (off, depth) in [
            (0.002, -0.144),
            (0.007, -0.05),
            (0.012, -0.3),
            (0.007, 0.05),
            (0.002, 0.3),
        ] {
            let q = o + d * t + n * off + Vec3::z() * depth;
            pts.push(OraclePoint {
                q,
                dist: f64::NAN,
                sdist: Some(depth),
                closest: None,
                unique: true,
            });
        }
    }
    for (o, r) in pts.iter().zip(cold_results(&scene, &pts)) {
        let r = r.unwrap();
        let s = r.signed_distance.expect("a solid has a sign");
        assert_eq!(s < 0.0, o.sdist < Some(0.0), "{:?}: signed {s}", o.q);
    }
    for (_, o, r) in try_coherent_answers(&scene, &pts).unwrap() {
        let s = r.signed_distance.expect("a solid has a sign");
        assert_eq!(s < 0.0, o.sdist < Some(0.0), "{:?}: tracked signed {s}", o.q);
    }
}

//! Every IGES fixture (corpus, wave2, generated) imports; face counts equal Open CASCADE's; every oracle
//! closest point lies on an imported face (within 1e-5 mm) inside its trims.

use crate::common;

use common::band;
use common::*;
use extrack::geom::Vec3;
use extrack::import::import_file;

/// Face-count differences from Open CASCADE, explained in formats/iges.md (none).
const FACE_COUNT_EXCEPTIONS: &[(&str, usize, &str)] = &[];

/// Closest-point differences from Open CASCADE allowed per file (the corpus
/// has none left; their causes were in formats/iges.md, "Verification against
/// Open CASCADE"): file → most oracle points allowed off the imported geometry,
/// and why. A ratchet (`band::ratchet`): a listed file that gets every point
/// on its faces must leave the list.
const CLOSEST_EXCEPTIONS: &[(&str, usize, &str)] = &[
    (
        "iges_3dipsos320_occ17026.igs",
        2,
        "points 161 and 170: Open CASCADE's closest points lie 34 and 202 mm from the file's 128 surfaces as we evaluate them; both are among the points where Open CASCADE misses the minimum (tests/track/point_body_band.rs, OCC_MISSES)",
    ),
];

#[test]
fn every_iges_fixture_imports_and_face_counts_match_occt() {
    let Some(root) = fixtures() else { return };
    let files = iges_files(&root);
    assert!(
        files.len() >= 38,
        "expected the corpus and generated IGES files, found {}",
        files.len()
    );
    let mut bad = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let m = match import_file(f) {
            Ok(m) => m,
            Err(e) => {
                bad.push(format!("{name}: import failed: {e}"));
                continue;
            }
        };
        assert!(!m.faces.is_empty(), "{name}: no faces");
        // Open CASCADE counts a face once per placed instance (408 subfigure
        // instances of one definition share their faces in the Model)
        let face_uses: usize = m.bodies.iter().map(|b| b.face_indices().count()).sum();
        let Some(o) = oracle_inspect(&root, &name) else {
            println!(
                "{name}: {} faces (no oracle: Open CASCADE cannot read it)",
                m.faces.len()
            );
            continue;
        };
        let want = o["counts"]["faces"].as_u64().unwrap() as usize;
        let exc = FACE_COUNT_EXCEPTIONS.iter().find(|e| e.0 == name);
        match exc {
            Some(&(_, n, why)) => assert_eq!(face_uses, n, "{name}: documented exception ({why})"),
            None if face_uses != want => bad.push(format!("{name}: {face_uses} face uses, Open CASCADE {want}")),
            None => {}
        }
        println!(
            "{name}: {} faces, {face_uses} face uses (OCCT {want}), {} bodies",
            m.faces.len(),
            m.bodies.len()
        );
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn oracle_closest_points_lie_on_imported_faces_inside_trims() {
    let Some(root) = fixtures() else { return };
    let mut counts = Vec::new();
    let mut total = 0usize;
    for f in iges_files(&root) {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let Some(o) = oracle_closest(&root, &name) else {
            continue;
        };
        let m = import_file(&f).unwrap();
        let trims = face_trims(&m);
        // every placed face: the face and its body's placement (oracle points
        // are in world coordinates, face geometry in the body's)
        let instances: Vec<(usize, extrack::geom::Pose)> = m
            .bodies
            .iter()
            .flat_map(|b| b.face_indices().map(move |f| (f, b.placement)))
            .collect();
        let diag = o["bbox"]["diag"].as_f64().unwrap_or(1.0);
        // Open CASCADE merges vertices within its tolerance: a vertex answer is
        // OCCT's merged vertex, which may sit that far off the file's curves.
        let occt_tol = oracle_inspect(&root, &name)
            .and_then(|i| i["max_tolerance"].as_f64())
            .unwrap_or(0.0);
        let same_file = o["file"].as_str() == Some(name.as_str());
        let oracle_faces = o["faces"].as_array().cloned().unwrap_or_default();
        let mut n_ok = 0;
        let mut file_failures = Vec::new();
        let mut n_edge_curve = 0;
        for (k, p) in o["points"].as_array().unwrap().iter().enumerate() {
            let Some(c) = p["closest"].as_array() else { continue };
            total += 1;
            let q = Vec3::new(c[0].as_f64().unwrap(), c[1].as_f64().unwrap(), c[2].as_f64().unwrap());
            let support = p["support"].as_str().unwrap_or("face");
            // faces of the same IGES entity first
            let mut hint: Vec<u64> = Vec::new();
            if same_file {
                let ids = p["faces"].as_array().cloned().unwrap_or_default();
                for id in ids.iter().chain(std::iter::once(&p["face"])) {
                    if let Some(de) = id
                        .as_u64()
                        .and_then(|i| oracle_faces.get(i as usize))
                        .and_then(|f| f["entity"]["iges_de"].as_u64())
                    {
                        hint.push(de);
                    }
                }
            }
            let local: Vec<Vec3> = instances
                .iter()
                .map(|(_, pose)| pose.inverse_transform_point(&q))
                .collect();
            let order: Vec<usize> = (0..instances.len())
                .filter(|&k| hint.contains(&m.faces[instances[k].0].source))
                .chain((0..instances.len()).filter(|&k| {
                    let fi = instances[k].0;
                    !hint.contains(&m.faces[fi].source) && near(&trims[fi], &local[k])
                }))
                .collect();
            let mut best: Option<(usize, Hit)> = None;
            let mut found = false;
            for &k in &order {
                let (fi, q) = (instances[k].0, local[k]);
                let h = check_face(&m, &trims, fi, &q, 1e-3 * diag);
                if h.surface_distance <= 1e-5 && h.inside {
                    found = true;
                    break;
                }
                if best
                    .as_ref()
                    .map_or(true, |b| h.surface_distance < b.1.surface_distance)
                {
                    best = Some((fi, h));
                }
            }
            if !found && support != "face" {
                // an answer on an edge: the edge may be the file's model-space trim curve
                let d = order
                    .iter()
                    .flat_map(|&k| trims[instances[k].0].curves3d.iter().map(move |c| (k, c)))
                    .map(|(k, c)| curve_distance(c, &local[k]))
                    .fold(f64::INFINITY, f64::min);
                let d = order
                    .iter()
                    .flat_map(|&k| trims[instances[k].0].pcurves.iter().map(move |c| (k, c)))
                    .map(|(k, c)| pcurve_distance(&m.faces[instances[k].0].surface, c, &local[k]))
                    .fold(d, f64::min);
                let tol = if support == "vertex" { occt_tol.max(1e-5) } else { 1e-5 };
                let d = if support == "vertex" {
                    order
                        .iter()
                        .map(|&k| check_face(&m, &trims, instances[k].0, &local[k], 0.0).surface_distance)
                        .fold(d, f64::min)
                } else {
                    d
                };
                if d <= tol {
                    found = true;
                    n_edge_curve += 1;
                }
            }
            if found {
                n_ok += 1;
            } else {
                file_failures.push(format!(
                    "{name} point {k} ({support}, oracle face {}, periods {:?}, outer box {:?}): best {:?}",
                    p["face"],
                    best.map(|(fi, _)| m.faces[fi].surface.periods()),
                    best.map(|(fi, _)| trims[fi].outer.as_ref().map(|o| o
                        .iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |a, p| (a.0.min(p.0), a.1.max(p.0))))),
                    best.map(|(fi, h)| (fi, m.faces[fi].source, m.faces[fi].surface.type_name(), h))
                ));
            }
        }
        println!("{name}: {n_ok} points on imported faces ({n_edge_curve} on model-space trim curves)");
        for f in file_failures.iter().take(5) {
            println!("  {f}");
        }
        counts.push(band::Count {
            file: name,
            wrong: file_failures.len(),
            total: n_ok + file_failures.len(),
        });
    }
    let failures = band::ratchet(
        "oracle closest points off the imported faces",
        &counts,
        CLOSEST_EXCEPTIONS,
    );
    println!("{total} oracle points checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hm_nentity_off_domain_pcurve_is_dropped_and_form0_ruled_surfaces_are_reported() {
    let Some(root) = fixtures() else { return };
    let m = import_file(root.join("corpus/iges_hm_nentity.igs")).unwrap();
    // 142 DE 639 (outer loop of the 144 DE 641): its parameter-space circle is in
    // model space, far outside the 114 surface's [0, 1] × [0, 3]
    assert!(
        m.warnings
            .iter()
            .any(|w| w.starts_with("142 DE 639:") && w.contains("model-space curve DE 637")),
        "{:?}",
        m.warnings
    );
    let f = m.faces.iter().find(|f| f.source == 641).expect("face DE 641");
    let outer = f.outer.as_ref().expect("outer loop");
    assert!(outer.coedges.iter().all(|c| c.pcurve.is_none() && c.curve.is_some()));
    // form-0 ruled surfaces with an arc rail: 521, 541, 621 (527 is form 1)
    for de in [521, 541, 621] {
        assert!(
            m.warnings
                .iter()
                .any(|w| w.starts_with(&format!("118 DE {de} is form 0"))),
            "DE {de}: {:?}",
            m.warnings
        );
    }
    assert!(!m.warnings.iter().any(|w| w.starts_with("118 DE 527 ")));
}

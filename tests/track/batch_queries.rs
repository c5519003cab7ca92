//! Batch point queries (`closest_points`: Hilbert order, each cold search
//! under the previous witness's distance) equal per-point cold queries
//! (`closest_point`) on real corpus files: for one body and for the whole
//! scene, at the Open CASCADE oracle points, a grid over the scene's box
//! grown by 20 % and points scattered near the oracle points. Distance,
//! signed distance and closest point to 1e-12 relative, normal to 1e-12,
//! feature, face, piece, mode and status exactly (only the work counters
//! may differ). Skipped (with a message) when `../shared/fixtures` is absent.

use crate::common;

use common::points::oracle_points;
use extrack::geom::{Pose, Vec3};
use extrack::track::{closest_point, closest_points, PointBodyResult, Target, TrackScene};

/// Files of the corpus: a median part, a freeform screw, a multi-body assembly.
const FILES: [&str; 4] = [
    "step_proe2004_pump_carter.stp",
    "step_nist_pmi1_ap203.stp",
    "step_build123d_m6_screw.step",
    "iges_occt_as1_asm.igs",
];

/// The difference between a batch answer and the cold one, if any.
fn differs(b: &PointBodyResult, c: &PointBodyResult) -> Option<String> {
    let scale = 1.0 + c.distance.abs() + c.point.norm();
    let rel = ((b.distance - c.distance).abs()).max((b.point - c.point).norm()) / scale;
    let signed = match (b.signed_distance, c.signed_distance) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-12 * scale,
        (None, None) => true,
        _ => false,
    };
    let same = rel <= 1e-12
        && signed
        && (b.normal - c.normal).norm() <= 1e-12
        && (b.body, b.feature, b.face, b.piece, b.mode, b.status)
            == (c.body, c.feature, c.face, c.piece, c.mode, c.status);
    (!same).then(|| format!("batch {b:?}\n  cold {c:?}"))
}

/// The query points of a file: its oracle points, a 12³ grid over the
/// scene's box grown by 20 %, and each oracle point moved by 1 % of the box
/// diagonal along a fixed pattern.
fn query_points(root: &std::path::Path, file: &str, scene: &TrackScene) -> Vec<Vec3> {
    let js = common::oracle_closest(root, file).unwrap_or_else(|| panic!("{file}: no oracle"));
    let mut qs: Vec<Vec3> = oracle_points(&js).iter().map(|o| o.q).collect();
    let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    for b in &scene.bodies {
        for corner in [b.lo, b.hi] {
            let w = b.placement.transform_point(&corner);
            lo = lo.inf(&w);
            hi = hi.sup(&w);
        }
    }
    let (c, h) = (0.5 * (lo + hi), 0.6 * (hi - lo));
    let n = 12;
    for i in 0..n * n * n {
        let t = |k: usize| -1.0 + 2.0 * (k as f64 + 0.5) / n as f64;
        qs.push(c + Vec3::new(t(i % n) * h.x, t((i / n) % n) * h.y, t(i / (n * n)) * h.z));
    }
    let step = 0.01 * (hi - lo).norm();
    let near: Vec<Vec3> = qs
        .iter()
        .take(200)
        .enumerate()
        .map(|(i, q)| q + step * Vec3::new((i as f64).sin(), (1.7 * i as f64).cos(), (0.3 * i as f64).sin()))
        .collect();
    qs.extend(near);
    qs
}

#[test]
fn batch_answers_equal_cold_queries_on_corpus_files() {
    let Some(root) = common::fixtures() else { return };
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in FILES {
        let model =
            extrack::import::import_file(root.join("corpus").join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let scene = super::point_body_corpus::prepared_scene(&model).unwrap_or_else(|e| panic!("{file}: {e}"));
        let qs = query_points(&root, file, &scene);
        let main = (0..scene.bodies.len())
            .max_by_key(|&i| scene.bodies[i].pieces.len())
            .unwrap_or(0) as u32;
        let pose = Pose::from_translation_axis_angle(Vec3::new(3.0, -1.0, 2.0), Vec3::new(0.1, 0.2, -0.3));
        for target in [
            Target::Body { index: main, pose },
            Target::All { pose: Pose::identity() },
        ] {
            let batch = closest_points(&scene, &target, &qs);
            assert_eq!(batch.len(), qs.len());
            for (i, (q, b)) in qs.iter().zip(&batch).enumerate() {
                let c = closest_point(&scene, &target, *q);
                match (b, &c) {
                    (Ok(b), Ok(c)) => {
                        if let Some(d) = differs(b, c) {
                            failures.push(format!("{file} {target:?} point {i} {q:?}:\n  {d}"));
                        }
                    }
                    (Err(_), Err(_)) => {}
                    _ => failures.push(format!("{file} point {i}: batch {b:?} vs cold {c:?}")),
                }
                checked += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} batch answers differ from cold:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("{checked} batch answers equal to cold queries on {} files", FILES.len());
}

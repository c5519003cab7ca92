//! A self-checked scene for the answer-status tests (issue 25): a prepared
//! fixture with `face_checks` / `body_checks` records marking one face failed.
#![allow(dead_code)]

use extrack::geom::Vec3;
use extrack::scene::data::SceneData;
use extrack::scene::records::{BodyCheck, FaceCheck, BODY_FACES_FAILED, FACE_COVERAGE};

/// The prepared scene of `fixtures/<model>`.
pub fn prepared(model: &str) -> SceneData {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let m = extrack::import::import_file(root.join("fixtures").join(model)).unwrap();
    extrack::prepare::prepare(&m, &Default::default()).unwrap()
}

/// Query points all around the scene: the box centre pushed out along the 26
/// directions of a 3×3×3 grid, 1.5 half-diagonals away.
pub fn probe_points(data: &SceneData) -> Vec<Vec3> {
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for b in &data.bodies {
        for k in 0..3 {
            lo[k] = lo[k].min(b.bbox.min[k] + b.placement[4 * k + 3]);
            hi[k] = hi[k].max(b.bbox.max[k] + b.placement[4 * k + 3]);
        }
    }
    let c = Vec3::new(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]));
    let h = Vec3::new(0.5 * (hi[0] - lo[0]), 0.5 * (hi[1] - lo[1]), 0.5 * (hi[2] - lo[2]));
    let mut out = Vec::new();
    for i in -1..=1 {
        for j in -1..=1 {
            for k in -1..=1 {
                if (i, j, k) != (0, 0, 0) {
                    let d = Vec3::new(i as f64 * h.x, j as f64 * h.y, k as f64 * h.z);
                    out.push(c + 1.5 * d);
                }
            }
        }
    }
    out
}

/// Adds a self-check to `data`: every face of every body verified except
/// `failed_face` (coverage failure, areas 100 vs 90 mm²); body records with
/// `faces_failed` on the failed face's bodies.
pub fn mark_failed(data: &mut SceneData, failed_face: u64) {
    let mut faces: Vec<(u32, u64)> = data.pieces.iter().map(|p| (p.body, p.source_face)).collect();
    faces.sort_unstable();
    faces.dedup();
    data.face_checks = faces
        .iter()
        .map(|&(body, source_face)| FaceCheck {
            source_face,
            body,
            failed: if source_face == failed_face { FACE_COVERAGE } else { 0 },
            model_area: 100.0,
            piece_area: if source_face == failed_face { 90.0 } else { 100.0 },
            worst_containment: 1e-9,
            worst_boundary: 2e-9,
        })
        .collect();
    data.body_checks = (0..data.bodies.len() as u32)
        .map(|b| {
            let n = faces.iter().filter(|f| f.0 == b && f.1 == failed_face).count() as u32;
            BodyCheck {
                body: b,
                failed: if n > 0 { BODY_FACES_FAILED } else { 0 },
                dropped_faces: 0,
                failed_faces: n,
            }
        })
        .collect();
}

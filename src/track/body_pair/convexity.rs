//! The convex-solid test: a solid with no concave or saddle piece whose
//! sampled surface points all lie behind every sampled tangent plane (so
//! Lin–Canny's local answer is global on a pair of them).

use crate::geom::Vec3;
use crate::scene::data::{BodyKind, ConvexityClass};
use crate::track::body::BodyGeom;

/// Whether a body is a convex solid: a solid with no concave or saddle
/// piece whose sampled surface points all lie on the inner side of
/// every sampled tangent plane (so a concave crease between convex pieces
/// is caught). Sampled (3×3 per convex piece, 6×6 per mixed one), not a proof; bodies with more than
/// 4,000 samples are treated as non-convex (the far phase then runs).
pub fn convex_solid(body: &BodyGeom) -> bool {
    // concave and saddle pieces are not convex; a mixed piece (a class the
    // offline bounds could not decide, e.g. at a degenerate pole) is left to
    // a denser sampled test
    if body.kind != BodyKind::Solid
        || body.pieces.is_empty()
        || body
            .pieces
            .iter()
            .any(|p| matches!(p.class, ConvexityClass::Concave | ConvexityClass::Saddle))
    {
        return false;
    }
    pub(super) const COARSE: [f64; 3] = [0.1, 0.5, 0.9];
    pub(super) const DENSE: [f64; 6] = [0.02, 0.2, 0.4, 0.6, 0.8, 0.98];
    let mut samples: Vec<(Vec3, Vec3)> = Vec::new();
    for (k, p) in body.pieces.iter().enumerate() {
        let grid: &[f64] = if matches!(p.class, ConvexityClass::Planar | ConvexityClass::Convex) {
            &COARSE
        } else {
            &DENSE
        };
        for &u in grid {
            for &v in grid {
                if !body.piece_keeps(k as u32, u, v) {
                    continue;
                }
                let n = body.piece_normal(k as u32, [u, v]);
                if n != Vec3::zeros() {
                    samples.push((p.surface.eval(u, v), n));
                }
            }
        }
        if samples.len() > 4000 {
            return false;
        }
    }
    let eps = 1e-7 * (1.0 + (body.hi - body.lo).norm());
    samples
        .iter()
        .all(|(p, n)| samples.iter().all(|(q, _)| n.dot(&(q - p)) <= eps))
}

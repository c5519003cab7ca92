//! Pseudo-normals at cusp edges.
//!
//! The pseudo-normal of an edge (PG-2005 §IV) is the sum of its two faces'
//! outward normals; the side of a query whose closest feature is the edge is
//! the sign of `(q − c)·(n_a + n_b)`. Where the two faces meet tangentially
//! with opposite normals — a *cusp edge*: the bottom of a zero-angle groove
//! (a wall tangent to the fillet beside it, two bodies fused into one shell),
//! or the tip of a zero-angle fin — the sum vanishes and its direction is
//! rounding noise, so the side is a coin toss.
//!
//! At a cusp both faces leave the edge in the same direction `t`
//! (perpendicular to the edge, in their common tangent plane), and the limit
//! of `n_a + n_b` over nearly-cusp edges is `+t` for a groove (the faces
//! bend towards each other's outward side: the thin region between them is
//! outside, behind the edge is material) and `−t` for a fin (the thin region
//! is material, behind the tip is outside). [`resolve_cusps`] replaces the
//! vanishing sums of a body's cusp samples by that limit, found on the
//! pieces themselves when the tracker is built: the departure direction is
//! the one along which each piece continues (a probe point a short step
//! away lies on the piece, inside its trims), and groove or fin is which side
//! of face `a` face `b` lies on a step away (coincident faces, a zero-width
//! slit, count as a groove: the material is behind the edge).

use super::geom::BodyGeom;
use crate::geom::Vec3;
use crate::scene::data::{FeatureRef, NONE};
use crate::track::patch_foot::closest_on_patch;

/// The kind of a cusp edge: which side its common normal line is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cusp {
    /// The bottom of a zero-angle groove: the faces bend towards each
    /// other's outward side; a query on the common normal line is inside.
    Groove,
    /// The tip of a zero-angle fin: the faces bend away from each other; a
    /// query on the common normal line is outside.
    Fin,
}

/// A pseudo-normal shorter than this (a sum of two unit normals) is a cusp:
/// the faces' normals are opposite within 1e-6 rad.
const CUSP: f64 = 1e-6;

/// The probe step, relative to the larger side piece's box diagonal.
const STEP: f64 = 1e-3;

/// A probe point lies on a piece when its foot is kept by the trims and
/// within this fraction of the step (the surface bends away from its
/// tangent plane by O(step²·curvature)).
const ON_PIECE: f64 = 0.05;

/// Replaces the pseudo-normal samples of `g`'s cusp edges by the groove's
/// (`+t`) or fin's (`−t`) unit limit and marks the edges with their kind.
/// Samples where the departure cannot be found on both pieces, or where the
/// faces leave in opposite directions (an orientation error of the file,
/// not a cusp), keep their sum.
pub(super) fn resolve_cusps(g: &mut BodyGeom) {
    for k in 0..g.edges.len() {
        let pieces = g.edges[k].pieces;
        if pieces.contains(&NONE) || pieces[0] == pieces[1] {
            continue;
        }
        for s in 0..g.edges[k].pseudo_normals.len() {
            let (t, c, pn) = g.edges[k].pseudo_normals[s];
            if pn.norm() >= CUSP {
                continue;
            }
            let tangent = g.edges[k].curve.eval_derivs(t).d1;
            if let Some((limit, kind)) = cusp_limit(g, pieces, &c, &tangent) {
                g.edges[k].pseudo_normals[s].2 = limit;
                g.edges[k].cusp = Some(kind);
            }
        }
    }
}

/// The outward limit direction at the cusp point `c` of an edge with
/// tangent `tangent` between `pieces`, or `None` when it cannot be told.
fn cusp_limit(g: &BodyGeom, pieces: [u32; 2], c: &Vec3, tangent: &Vec3) -> Option<(Vec3, Cusp)> {
    let foot_a = closest_on_patch(&g.pieces[pieces[0] as usize].surface, c, 9, 3);
    let n_a = g.piece_normal(pieces[0], foot_a.uv);
    let d = tangent.cross(&n_a).try_normalize(0.0)?;
    // a piece lies in the union of its cells' boxes
    let diag = |p: u32| {
        let r = &g.pieces[p as usize].cells;
        let cells = g.cells.get(r.start as usize..r.end as usize).unwrap_or(&[]);
        let lo = cells.iter().fold(Vec3::repeat(f64::INFINITY), |m, c| m.inf(&c.lo));
        let hi = cells.iter().fold(Vec3::repeat(f64::NEG_INFINITY), |m, c| m.sup(&c.hi));
        if cells.is_empty() {
            0.0
        } else {
            (hi - lo).norm()
        }
    };
    let h = STEP * diag(pieces[0]).max(diag(pieces[1]));
    if !(h > 0.0) {
        return None;
    }
    let (dir_a, p_a) = departure(g, pieces[0], c, &d, h)?;
    let (dir_b, p_b) = departure(g, pieces[1], c, &d, h)?;
    if dir_a != dir_b {
        return None;
    }
    let t = d * dir_a;
    // face b a step away on face a's outward side (or on face a): a groove
    let fin = (p_b - p_a).dot(&n_a) < -1e-9 * h;
    Some(if fin { (-t, Cusp::Fin) } else { (t, Cusp::Groove) })
}

/// Along which of `±d` piece `k` continues from `c` (`+1.0` or `−1.0`),
/// with its point a step `h` away; `None` when neither probe lies on it.
fn departure(g: &BodyGeom, k: u32, c: &Vec3, d: &Vec3, h: f64) -> Option<(f64, Vec3)> {
    let piece = &g.pieces[k as usize];
    [1.0, -1.0]
        .into_iter()
        .filter_map(|s| {
            let probe = c + d * (s * h);
            let foot = closest_on_patch(&piece.surface, &probe, 9, 3);
            (foot.distance <= ON_PIECE * h && g.piece_keeps(k, foot.uv[0], foot.uv[1]))
                .then_some((foot.distance, s, foot.point))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, s, p)| (s, p))
}

impl BodyGeom {
    /// The kind of the cusp edge bordering piece `k` (across a side or linked
    /// to a trim) that passes within rounding of `p`, if any. Allocation-free
    /// and cheap on bodies without cusps (one flag per adjacent edge).
    pub fn cusp_through(&self, k: u32, p: &Vec3) -> Option<Cusp> {
        let tol = 1e-7 * (1.0 + p.norm());
        self.pieces[k as usize].adjacency.iter().find_map(|(_, f)| {
            let FeatureRef::Edge(e) = *f else { return None };
            let kind = self.edges[e as usize].cusp?;
            self.edge_foot(e, p, tol).map(|_| kind)
        })
    }
}

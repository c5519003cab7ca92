//! Item classes: unimodal items (planar and convex pieces — PG-2005's
//! nice pieces seen from outside — and straight edges) and affine items
//! (parallelogram patches, straight edges), whose converged local minima
//! against each other are the pair's minimum; the Karush–Kuhn–Tucker test on
//! an affine piece ([`Flat::kkt_at`]).

use super::hulls::euclidean_poles;
use crate::geom::Vec3;
use crate::scene::data::ConvexityClass;
use crate::track::body::{BodyGeom, Item};

/// An affine piece: the parallelogram `o + u·e1 + v·e2`, `(u, v) ∈ [0,1]²`
/// (body-local), with its outward unit normal.
#[derive(Debug, Clone, Copy)]
pub(super) struct Flat {
    o: Vec3,
    e1: Vec3,
    e2: Vec3,
    n: Vec3,
}

impl Flat {
    /// Whether the parallelogram's own minimum against the other body's
    /// witness is met at `p` to first order: `p` lies on the parallelogram's
    /// border (within `tol`, mm), every parameter at a bound has its
    /// Karush–Kuhn–Tucker sign for moving towards `q` (`w = q − p`: the
    /// distance grows into the parallelogram), a parameter strictly inside
    /// runs along the unit direction `along` (where the caller's witness is
    /// stationary: the tracked edge), and the piece faces `q` (`n·w ≥ 0`).
    pub(super) fn kkt_at(&self, p: &Vec3, w: &Vec3, along: &Vec3, tol: f64) -> bool {
        let r = p - self.o;
        let (g11, g12, g22) = (self.e1.dot(&self.e1), self.e1.dot(&self.e2), self.e2.dot(&self.e2));
        let det = g11 * g22 - g12 * g12;
        if !(det > 0.0) || self.n.dot(w) < 0.0 {
            return false;
        }
        let (b1, b2) = (self.e1.dot(&r), self.e2.dot(&r));
        let x = [(b1 * g22 - b2 * g12) / det, (b2 * g11 - b1 * g12) / det];
        if (self.o + self.e1 * x[0] + self.e2 * x[1] - p).norm() > tol {
            return false;
        }
        let mut on_border = false;
        for (k, e) in [self.e1, self.e2].iter().enumerate() {
            let t = tol / e.norm();
            let (lo, hi) = (x[k].abs() <= t, (x[k] - 1.0).abs() <= t);
            if lo || hi {
                on_border = true;
                // at u = 0 the distance must not fall as u grows (w·e ≤ 0), at u = 1 as it shrinks
                if (lo && w.dot(e) > 0.0) || (hi && w.dot(e) < 0.0) {
                    return false;
                }
            } else if x[k] < 0.0 || x[k] > 1.0 || e.cross(along).norm() > 1e-9 * e.norm() {
                return false;
            }
        }
        on_border
    }
}

/// The parallelogram of an affine piece (see [`affine_item`]) with its
/// outward normal; `None` when degenerate.
pub(super) fn flat_of(body: &BodyGeom, k: u32) -> Option<Flat> {
    let s = &body.pieces[k as usize].surface;
    let o = s.eval(0.0, 0.0);
    let (e1, e2) = (s.eval(1.0, 0.0) - o, s.eval(0.0, 1.0) - o);
    let n = body.piece_normal(k, [0.5, 0.5]);
    (n != Vec3::zeros()).then_some(Flat { o, e1, e2, n })
}

/// The unit direction of a straight edge ([`unimodal_item`]), else `None`.
pub(super) fn straight_dir(body: &BodyGeom, e: u32) -> Option<Vec3> {
    if !unimodal_item(body, Item::Edge(e)) {
        return None;
    }
    let mut pts = euclidean_poles(&body.edges[e as usize].curve.cw)?;
    let first = pts.next()?;
    let d = pts.last()? - first;
    let l = d.norm();
    (l > 0.0).then(|| d / l)
}

#[inline]
pub(super) fn unimodal_class(body: &BodyGeom, item: Item) -> bool {
    match item {
        Item::Piece(k) => matches!(
            body.pieces[k as usize].class,
            ConvexityClass::Planar | ConvexityClass::Convex
        ),
        _ => false,
    }
}

/// Whether an item is an affine map of its parameter box: a planar piece
/// whose patch is bilinear with equal weights and a parallelogram of control
/// points (to 1e-12 of its size), or a straight edge (see [`unimodal_item`]:
/// collinear control points in order make the distance along it unimodal).
pub(super) fn affine_item(body: &BodyGeom, item: Item) -> bool {
    match item {
        Item::Piece(k) => {
            let s = &body.pieces[k as usize].surface;
            if s.degree_u != 1 || s.degree_v != 1 || s.n_u != 2 || s.n_v != 2 || s.cw.len() != 4 {
                return false;
            }
            let w = s.cw[0][3];
            if !(w > 0.0) || s.cw.iter().any(|h| h[3] != w) {
                return false;
            }
            let p = |i: usize| Vec3::new(s.cw[i][0], s.cw[i][1], s.cw[i][2]) / w;
            let size = (p(3) - p(0)).norm() + (p(1) - p(2)).norm();
            // bilinear is affine exactly when P00 + P11 = P10 + P01
            (p(0) + p(3) - p(1) - p(2)).norm() <= 1e-12 * size
        }
        Item::Edge(_) => unimodal_item(body, item),
        Item::Trim(_) => false,
    }
}

/// Whether an item's converged, facing local minimum against another such
/// item is that pair's minimum: planar and convex pieces (PG-2005's nice
/// pieces seen from outside), and straight edges — a segment is a convex
/// set, so the distance from a point running along it to a convex piece
/// seen from outside has one minimum. An edge counts as straight when its
/// control points lie on the chord between its ends (to 1e-12 of its
/// length) in order, so the parameterisation runs monotonically along it.
pub(super) fn unimodal_item(body: &BodyGeom, item: Item) -> bool {
    match item {
        Item::Piece(_) => unimodal_class(body, item),
        Item::Edge(k) => {
            let cw = &body.edges[k as usize].curve.cw;
            let pt = |h: &crate::geom::Hpoint| Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
            let (Some(first), Some(last)) = (cw.first(), cw.last()) else {
                return false;
            };
            let (p0, p1) = (pt(first), pt(last));
            let chord = p1 - p0;
            let len = chord.norm();
            if !(len > 0.0) || cw.iter().any(|h| !(h[3] > 0.0)) {
                return false;
            }
            let dir = chord / len;
            let mut along = 0.0;
            cw.iter().all(|h| {
                let q = pt(h) - p0;
                let t = q.dot(&dir);
                let ok = (q - dir * t).norm() <= 1e-12 * len && t >= along - 1e-12 * len;
                along = along.max(t);
                ok
            })
        }
        Item::Trim(_) => false,
    }
}

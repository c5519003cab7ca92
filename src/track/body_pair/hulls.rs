//! Control-point hulls: a rational Bézier piece or curve with positive
//! weights lies in the convex hull of its control points (DESIGN, far
//! phase), per item and per quarter of a piece cell, for the far phase's
//! hull bounds ([`super::relative::Rel::hull_bound`]).

use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item};

/// Euclidean control points of homogeneous poles, `None` when a weight is
/// not positive (the curve or patch then need not lie in their hull).
pub(super) fn euclidean_poles(cw: &[crate::geom::Hpoint]) -> Option<impl Iterator<Item = Vec3> + '_> {
    cw.iter()
        .all(|p| p[3] > 0.0 && p.iter().all(|c| c.is_finite()))
        .then(|| cw.iter().map(|p| Vec3::new(p[0] / p[3], p[1] / p[3], p[2] / p[3])))
}

/// The control-point hulls of a body's items, indexed like [`ItemBoxes`](super::items::ItemBoxes):
/// a piece's patch and an edge's curve lie in the convex hull of their
/// control points (positive weights); a trim curve lies on its piece's
/// patch, so its piece's points serve.
pub(super) fn control_hulls(body: &BodyGeom) -> (Vec<(u32, u32)>, Vec<Vec3>) {
    let mut hull = Vec::new();
    let mut range = Vec::with_capacity(body.pieces.len() + body.edges.len() + body.trims.len());
    let add = |hull: &mut Vec<Vec3>, cw: &[crate::geom::Hpoint]| {
        let s = hull.len() as u32;
        if let Some(pts) = euclidean_poles(cw) {
            hull.extend(pts);
        }
        (s, hull.len() as u32)
    };
    for p in &body.pieces {
        range.push(add(&mut hull, &p.surface.cw));
    }
    for e in &body.edges {
        range.push(add(&mut hull, &e.curve.cw));
    }
    for t in &body.trims {
        range.push(range.get(t.piece as usize).copied().unwrap_or((0, 0)));
    }
    (range, hull)
}

/// Control points of the four quarters of each piece cell's sub-patch
/// (the cell lies in the union of their convex hulls: positive weights; a
/// quarter's net lies about four times closer to the surface than the
/// cell's), made on first use: edge and trim cells, and cells with a
/// non-positive weight, get none.
#[derive(Debug, Clone)]
pub(super) struct CellHulls {
    /// Per cell: its range of `pts` (`u32::MAX`: not made yet).
    range: Vec<(u32, u32)>,
    pts: Vec<Vec3>,
}

impl CellHulls {
    pub(super) fn new(body: &BodyGeom) -> Self {
        Self {
            range: vec![(u32::MAX, 0); body.cells.len()],
            pts: Vec::new(),
        }
    }

    /// Cell `c`'s control points (made now when new).
    pub(super) fn of(&mut self, body: &BodyGeom, c: u32) -> (u32, u32) {
        let r = self.range[c as usize];
        if r.0 != u32::MAX {
            return r;
        }
        let s = self.pts.len();
        let cell = &body.cells[c as usize];
        if let Item::Piece(k) = cell.item {
            let sf = &body.pieces[k as usize].surface;
            let r = cell.rect;
            let (um, vm) = (0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3]));
            let quarters = [
                [r[0], um, r[2], vm],
                [um, r[1], r[2], vm],
                [r[0], um, vm, r[3]],
                [um, r[1], vm, r[3]],
            ];
            for q in &quarters {
                let sub = crate::track::body::sub_patch(&sf.cw, sf.degree_u, sf.degree_v, q);
                let ok = euclidean_poles(&sub).map(|p| self.pts.extend(p)).is_some();
                if !ok {
                    self.pts.truncate(s);
                    break;
                }
            }
        }
        let r = (s as u32, self.pts.len() as u32);
        self.range[c as usize] = r;
        r
    }

    pub(super) fn get(&self, r: (u32, u32)) -> &[Vec3] {
        &self.pts[r.0 as usize..r.1 as usize]
    }
}

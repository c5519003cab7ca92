//! Runtime pieces: each piece's patch on `[0,1]²`, its trim loops and its
//! fixed grid of cells (sub-patches with control-hull boxes, the far phase's
//! leaves), classified against the trims ([`CellTrim`]).

use super::boxes::aabb_corners;
use super::build::{local_feature, span_range};
use super::clip::segment_hits_rect;
use super::geom::{Cell, CellTrim, Item, PieceGeom};
use super::oriented::OrientedBox;
use super::sixteenths::Sixteenths;
use super::tangent_cones::{seam_differences, CellCones};
use super::trim_loops::{edges_contain, trim_edges, trim_polygons, TrimBands, TrimEdge};
use super::BodyError;
use crate::geom::bernstein::{split_u, split_v};
use crate::geom::{NurbsSurface, Vec3};
use crate::scene::bvh::hull_box;
use crate::scene::data::{Body, Boundary, ConvexityClass, FeatureRef, Piece, SceneData};

/// The pieces of body `b` with their cells (appended to `cells`).
pub(super) fn build_pieces(
    scene: &SceneData,
    b: &Body,
    cells: &mut Vec<Cell>,
    boxes: &mut Vec<OrientedBox>,
    quarters: &mut Vec<[OrientedBox; 4]>,
    cones: &mut Vec<CellCones>,
) -> Result<Vec<PieceGeom>, BodyError> {
    let mut pieces = Vec::with_capacity(b.pieces.count as usize);
    for (k, p) in scene.pieces[span_range(&b.pieces)].iter().enumerate() {
        let id = b.pieces.first + k as u32;
        let bad = |reason: String| BodyError::BadGeometry {
            what: "piece",
            index: id,
            reason,
        };
        let (du, dv) = (p.degree_u as usize, p.degree_v as usize);
        let surface = NurbsSurface::bezier(du, dv, p.poles.clone()).map_err(|e| bad(e.to_string()))?;
        let trims = if p.fully_inside { Vec::new() } else { trim_polygons(p) };
        let trim_edges = if trims.is_empty() { Vec::new() } else { trim_edges(p) };
        let first = cells.len() as u32;
        let n = grid_of(p.class);
        // rows of sub-patches: split in u, then each strip in v
        let mut rest_u = p.poles.clone();
        for i in 0..n {
            let (strip, r) = if i + 1 < n {
                split_u(du, dv, &rest_u, 1.0 / (n - i) as f64)
            } else {
                (rest_u.clone(), Vec::new())
            };
            rest_u = r;
            let mut rest_v = strip;
            for j in 0..n {
                let (sub, r) = if j + 1 < n {
                    split_v(du, dv, &rest_v, 1.0 / (n - j) as f64)
                } else {
                    (rest_v.clone(), Vec::new())
                };
                rest_v = r;
                let rect = [
                    i as f64 / n as f64,
                    (i + 1) as f64 / n as f64,
                    j as f64 / n as f64,
                    (j + 1) as f64 / n as f64,
                ];
                let Some(trim) = rect_trim(&trim_edges, &rect) else {
                    continue;
                };
                let (lo, hi) = aabb_corners(&hull_box(&sub));
                if !(lo.iter().chain(hi.iter()).all(|x| x.is_finite())) {
                    return Err(bad("non-finite control points".into()));
                }
                let whole = OrientedBox::of_patch(du, dv, &sub).unwrap_or_else(|| OrientedBox::aabb(&lo, &hi));
                boxes.push(whole);
                let seams = cell_seams(scene, b, p, &rect);
                cones.push(CellCones::of_patch_seams(du, dv, &sub, surface.rational, &whole, &seams));
                quarters.push(OrientedBox::of_quarters(du, dv, &sub).unwrap_or([whole; 4]));
                let sixteenths = match trim {
                    CellTrim::Partial => Sixteenths::of(&trim_edges, &rect),
                    CellTrim::Inside => Sixteenths::KEPT,
                };
                cells.push(Cell {
                    item: Item::Piece(k as u32),
                    rect,
                    lo,
                    hi,
                    trim,
                    sixteenths,
                });
            }
        }
        let adjacency = p
            .adjacency
            .iter()
            .filter_map(|a| local_feature(a.feature, b).map(|f| (a.boundary, f)))
            .collect();
        pieces.push(PieceGeom {
            id,
            face: p.source_face,
            surface,
            class: p.class,
            reversed: p.reversed,
            domain: p.domain,
            trims,
            trim_bands: TrimBands::new(&trim_edges),
            trim_edges,
            adjacency,
            cells: first..cells.len() as u32,
        });
    }
    Ok(pieces)
}

/// The sides of the cell `rect` of piece `p` (of body `b`) that lie on a
/// seam (`0`–`3`: `u = 0`, `u = 1`, `v = 0`, `v = 1` of the piece), each
/// with the derivative directions across it of the neighbouring piece of the
/// face that holds the cell's whole side, over that side
/// ([`seam_differences`] of the neighbour restricted to it): what
/// [`CellCones::of_patch_seams`] needs. A side shared with several
/// neighbours, or with none, is not a seam here.
fn cell_seams(scene: &SceneData, b: &Body, p: &Piece, rect: &[f64; 4]) -> Vec<(usize, Vec<Vec3>)> {
    const SIDES: [Boundary; 4] = [Boundary::U0, Boundary::U1, Boundary::V0, Boundary::V1];
    let mut out = Vec::new();
    for (s, side) in SIDES.iter().enumerate() {
        if rect[s] != (s % 2) as f64 {
            continue;
        }
        // the parameter along the side, in the face's coordinates
        let o = if s < 2 { 2 } else { 0 };
        let face = |t: f64| p.domain[o] + t * (p.domain[o + 1] - p.domain[o]);
        let (fa, fb) = (face(rect[o]), face(rect[o + 1]));
        for a in p.adjacency.iter().filter(|a| a.boundary == *side) {
            let (Some(FeatureRef::Piece(_)), FeatureRef::Piece(i)) = (local_feature(a.feature, b), a.feature) else {
                continue;
            };
            let n = &scene.pieces[i as usize];
            let len = n.domain[o + 1] - n.domain[o];
            if !(len > 0.0) {
                continue;
            }
            let (ta, tb) = ((fa - n.domain[o]) / len, (fb - n.domain[o]) / len);
            if !(ta >= -1e-9 && tb <= 1.0 + 1e-9 && tb > ta) {
                continue;
            }
            let (ta, tb) = (ta.max(0.0), tb.min(1.0));
            let (du, dv) = (n.degree_u as usize, n.degree_v as usize);
            if n.poles.len() != (du + 1) * (dv + 1) || n.poles.iter().any(|h| !(h[3] > 0.0)) {
                continue;
            }
            let r = if s < 2 { [0.0, 1.0, ta, tb] } else { [ta, tb, 0.0, 1.0] };
            let sub = sub_patch(&n.poles, du, dv, &r);
            let rational = n.poles.iter().any(|h| h[3] != 1.0);
            // the neighbour's side along this seam is the opposite one
            let dirs = seam_differences(du, dv, &sub, s ^ 1, rational);
            if !dirs.is_empty() {
                out.push((s, dirs));
            }
            break;
        }
    }
    out
}

/// Trim status of a rectangle: `None` when it lies entirely outside the kept region.
pub(super) fn rect_trim(edges: &[TrimEdge], r: &[f64; 4]) -> Option<CellTrim> {
    if edges.is_empty() {
        return Some(CellTrim::Inside);
    }
    for e in edges {
        let b = &e.hull;
        if b[0] > r[1] || b[1] < r[0] || b[2] > r[3] || b[3] < r[2] {
            continue;
        }
        if e.n == 2 {
            let p = e.points();
            let (a, c) = (
                [p[0][0] / p[0][2], p[0][1] / p[0][2]],
                [p[1][0] / p[1][2], p[1][1] / p[1][2]],
            );
            if !segment_hits_rect(a, c, r) {
                continue;
            }
        }
        return Some(CellTrim::Partial);
    }
    let c = (0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3]));
    edges_contain(edges, c.0, c.1).then_some(CellTrim::Inside)
}

/// Poles of the sub-patch of a Bézier patch over `rect` (by two de Casteljau splits per direction).
pub(crate) fn sub_patch(poles: &[[f64; 4]], du: usize, dv: usize, rect: &[f64; 4]) -> Vec<[f64; 4]> {
    let mut cw = poles.to_vec();
    if rect[1] < 1.0 {
        cw = split_u(du, dv, &cw, rect[1]).0;
    }
    if rect[0] > 0.0 && rect[1] > 0.0 {
        cw = split_u(du, dv, &cw, (rect[0] / rect[1]).min(1.0)).1;
    }
    if rect[3] < 1.0 {
        cw = split_v(du, dv, &cw, rect[3]).0;
    }
    if rect[2] > 0.0 && rect[3] > 0.0 {
        cw = split_v(du, dv, &cw, (rect[2] / rect[3]).min(1.0)).1;
    }
    cw
}

/// Cells per side of a piece's grid by class: planar and convex pieces are
/// unimodal for the distance; the rest get a finer grid.
pub(super) fn grid_of(class: ConvexityClass) -> usize {
    match class {
        ConvexityClass::Planar => 1,
        ConvexityClass::Convex => 2,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::track::body::TrimEdge;

    #[test]
    fn rect_trim_classifies() {
        let sq = [[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75], [0.25, 0.25]];
        let square: Vec<TrimEdge> = sq
            .windows(2)
            .filter_map(|w| TrimEdge::new(&[[w[0][0], w[0][1], 1.0], [w[1][0], w[1][1], 1.0]]))
            .collect();
        assert_eq!(rect_trim(&square, &[0.4, 0.6, 0.4, 0.6]), Some(CellTrim::Inside));
        assert_eq!(rect_trim(&square, &[0.0, 0.5, 0.0, 0.5]), Some(CellTrim::Partial));
        assert_eq!(rect_trim(&square, &[0.8, 1.0, 0.8, 1.0]), None);
        assert_eq!(rect_trim(&[], &[0.8, 1.0, 0.8, 1.0]), Some(CellTrim::Inside));
        // a rectangle holding the whole loop is crossed by it
        assert_eq!(rect_trim(&square, &[0.0, 1.0, 0.0, 1.0]), Some(CellTrim::Partial));
    }
}

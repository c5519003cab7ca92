//! Trim curves tracked as items of their own: the boundary of a trimmed
//! face inside a piece where no B-rep edge runs (a B-rep edge's exact curve
//! bounds the face otherwise), as straight segments or rational Bézier
//! curves in the piece's parameters, each with one cell.

use super::boxes::aabb_corners;
use super::build::{local_feature, span_range};
use super::clip::clip_unit;
use super::geom::{Cell, CellTrim, Item, TrimGeom, TrimPath};
use super::oriented::OrientedBox;
use super::pieces::sub_patch;
use super::trim_loops::bezier2;
use super::geom::BodyGeom;
use crate::geom::{bez2, CurvePoint, NurbsCurve, Vec3};
use crate::scene::bvh::hull_box;
use crate::scene::data::{Body, Boundary, FeatureRef, SceneData, TrimCurve, NONE};

/// The trim curves of body `b`'s pieces with their cells (appended to `cells`).
pub(super) fn build_trims(scene: &SceneData, b: &Body, cells: &mut Vec<Cell>, boxes: &mut Vec<OrientedBox>) -> Vec<TrimGeom> {
    let mut trims = Vec::new();
    for (k, p) in scene.pieces[span_range(&b.pieces)].iter().enumerate() {
        if p.fully_inside {
            continue;
        }
        for (li, l) in p.trim_loops.iter().enumerate() {
            for (ci, c) in l.curves.iter().enumerate() {
                let edge = p
                    .adjacency
                    .iter()
                    .find(|a| {
                        a.boundary
                            == Boundary::Trim {
                                trim_loop: li as u32,
                                curve: ci as u32,
                            }
                    })
                    .and_then(|a| match local_feature(a.feature, b) {
                        Some(FeatureRef::Edge(e)) => Some(e),
                        _ => None,
                    })
                    .unwrap_or(NONE);
                if edge != NONE {
                    // the B-rep edge's exact curve bounds the face here
                    continue;
                }
                let paths: Vec<(TrimPath, [f64; 4])> = match c {
                    TrimCurve::Polyline(v) => v
                        .windows(2)
                        .filter_map(|w| clip_unit(w[0], w[1]))
                        .filter(|(a, b)| !on_one_side(a, b))
                        .map(|(a, b)| (TrimPath::Segment(a, b), param_rect(&[a, b])))
                        .collect(),
                    TrimCurve::Bezier(h) => {
                        let cw: Vec<[f64; 4]> = h.iter().map(|x| [x[0], x[1], 0.0, x[2]]).collect();
                        let pts: Vec<[f64; 2]> = h.iter().map(|x| [x[0] / x[2], x[1] / x[2]]).collect();
                        // the curve (not its control polygon) inside the piece: exactly clipped trims
                        let e = 1e-9;
                        let in_unit = (0..=32).all(|i| {
                            let q = bez2::eval(h, i as f64 / 32.0);
                            q.iter().all(|&x| x >= -e && x <= 1.0 + e)
                        });
                        let along_side = (0..2).any(|k| {
                            [0.0, 1.0]
                                .iter()
                                .any(|&c| pts.iter().all(|p| (p[k] - c).abs() <= 1e-12))
                        });
                        if along_side {
                            continue;
                        }
                        match NurbsCurve::bezier(cw) {
                            Ok(curve) if in_unit => vec![(TrimPath::Curve(curve), param_rect(&pts))],
                            // leaves the piece: flattened and clipped to it
                            _ => {
                                let n = 48;
                                let flat: Vec<[f64; 2]> = (0..=n).map(|i| bezier2(h, i as f64 / n as f64)).collect();
                                flat.windows(2)
                                    .filter_map(|w| clip_unit(w[0], w[1]))
                                    .filter(|(a, b)| !on_one_side(a, b))
                                    .map(|(a, b)| (TrimPath::Segment(a, b), param_rect(&[a, b])))
                                    .collect()
                            }
                        }
                    }
                };
                for (path, rect) in paths {
                    let sub = sub_patch(&p.poles, p.degree_u as usize, p.degree_v as usize, &rect);
                    let (lo, hi) = aabb_corners(&hull_box(&sub));
                    let (du, dv) = (p.degree_u as usize, p.degree_v as usize);
                    boxes.push(OrientedBox::of_patch(du, dv, &sub).unwrap_or_else(|| OrientedBox::aabb(&lo, &hi)));
                    let t = trims.len() as u32;
                    let dom = match &path {
                        TrimPath::Segment(..) => (0.0, 1.0),
                        TrimPath::Curve(c) => c.domain(),
                    };
                    trims.push(TrimGeom {
                        piece: k as u32,
                        path,
                        edge,
                        cell: cells.len() as u32,
                        // filled by `build_body` once the surfaces are in place
                        samples: [Vec3::zeros(); TRIM_SAMPLES + 1],
                    });
                    cells.push(Cell {
                        item: Item::Trim(t),
                        rect: [dom.0, dom.1, 0.0, 0.0],
                        lo,
                        hi,
                        trim: CellTrim::Inside,
                        sixteenths: super::Sixteenths::KEPT,
                    });
                }
            }
        }
    }
    trims
}

/// A segment lying on one side of `[0,1]²`: a loop clipped to the piece
/// runs along its sides, where the face goes on into the neighbouring piece
/// (or, when the side is a real border, the piece's own box constraint
/// finds the boundary point): not a trim curve to track.
pub(super) fn on_one_side(a: &[f64; 2], b: &[f64; 2]) -> bool {
    let eps = 1e-12;
    (0..2).any(|k| (a[k].abs() <= eps && b[k].abs() <= eps) || ((a[k] - 1.0).abs() <= eps && (b[k] - 1.0).abs() <= eps))
}

/// Parameter rectangle `[u0, u1, v0, v1]` of points, clamped to `[0,1]²`.
pub(super) fn param_rect(pts: &[[f64; 2]]) -> [f64; 4] {
    let mut r = [1.0f64, 0.0, 1.0, 0.0];
    for p in pts {
        r[0] = r[0].min(p[0]);
        r[1] = r[1].max(p[0]);
        r[2] = r[2].min(p[1]);
        r[3] = r[3].max(p[1]);
    }
    [
        r[0].clamp(0.0, 1.0),
        r[1].clamp(0.0, 1.0),
        r[2].clamp(0.0, 1.0),
        r[3].clamp(0.0, 1.0),
    ]
}

/// Point and derivatives of trim curve `k` as a curve on its piece's
/// surface, `c(s) = f(γ(s))`, and `γ(s)`.
pub fn trim_point(body: &BodyGeom, k: u32, s: f64) -> (CurvePoint, [f64; 2]) {
    let t = &body.trims[k as usize];
    let (g, d1, d2) = match &t.path {
        TrimPath::Segment(a, b) => (
            [a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])],
            [b[0] - a[0], b[1] - a[1]],
            [0.0, 0.0],
        ),
        TrimPath::Curve(c) => {
            let cp = c.eval_derivs(s);
            ([cp.p.x, cp.p.y], [cp.d1.x, cp.d1.y], [cp.d2.x, cp.d2.y])
        }
    };
    let uv = [g[0].clamp(0.0, 1.0), g[1].clamp(0.0, 1.0)];
    let sp = body.pieces[t.piece as usize].surface.eval_derivs(uv[0], uv[1]);
    let (du, dv) = (d1[0], d1[1]);
    let cp = CurvePoint {
        p: sp.p,
        d1: sp.su * du + sp.sv * dv,
        d2: sp.suu * (du * du) + sp.suv * (2.0 * du * dv) + sp.svv * (dv * dv) + sp.su * d2[0] + sp.sv * d2[1],
    };
    (cp, uv)
}

/// Domain of trim curve `k`.
pub fn trim_domain(body: &BodyGeom, k: u32) -> (f64, f64) {
    match &body.trims[k as usize].path {
        TrimPath::Segment(..) => (0.0, 1.0),
        TrimPath::Curve(c) => c.domain(),
    }
}

/// Samples of a trim curve from which [`trim_start`](crate::track::far::trim_start) picks its start.
pub const TRIM_SAMPLES: usize = 16;

/// The points of trim curve `k` among which [`trim_start`](crate::track::far::trim_start) picks its
/// start, at [`TRIM_SAMPLES`] + 1 evenly spaced parameters (evaluated once
/// per body, into [`TrimGeom::samples`]).
pub fn trim_samples(body: &BodyGeom, k: u32) -> TrimSamples {
    let (a, b) = trim_domain(body, k);
    std::array::from_fn(|i| trim_point(body, k, a + (b - a) * i as f64 / TRIM_SAMPLES as f64).0.p)
}

/// The sample points of one trim curve ([`trim_samples`]).
pub type TrimSamples = [Vec3; TRIM_SAMPLES + 1];

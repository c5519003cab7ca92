//! Runtime edges and vertices: each edge's exact NURBS curve, its cells
//! (the Bézier spans' control-point boxes) and its pseudo-normal samples;
//! each vertex's point, normal-cone axis and incident features.

use super::boxes::aabb_corners;
use super::build::{local_index, span_range, v3};
use super::geom::{Cell, CellTrim, EdgeGeom, Item, VertexGeom};
use super::oriented::OrientedBox;
use super::tangent_cones::CellCones;
use super::BodyError;
use crate::geom::{Hpoint, NurbsCurve, SpanCurve, Vec3};
use crate::scene::bvh::hull_box;
use crate::scene::data::{Body, SceneData, NONE};

/// The edges of body `b` with their cells (appended to `cells`).
pub(super) fn build_edges(
    scene: &SceneData,
    b: &Body,
    cells: &mut Vec<Cell>,
    boxes: &mut Vec<OrientedBox>,
    cones: &mut Vec<CellCones>,
) -> Result<Vec<EdgeGeom>, BodyError> {
    let mut edges = Vec::with_capacity(b.edges.count as usize);
    for (k, e) in scene.edges[span_range(&b.edges)].iter().enumerate() {
        let id = b.edges.first + k as u32;
        let curve = NurbsCurve::try_from_homogeneous(e.curve_degree as usize, e.knots.clone(), e.poles.clone())
            .map_err(|err| BodyError::BadGeometry {
                what: "edge",
                index: id,
                reason: err.to_string(),
            })?;
        let first = cells.len() as u32;
        // the spans' Bézier polygons, one per cell below (their tangent cones)
        let polys: Vec<Vec<Hpoint>> = curve.bezier_spans().into_iter().map(|s| s.curve.cw).collect();
        let p = e.curve_degree as usize;
        for i in p..e.poles.len() {
            let (t0, t1) = (e.knots[i], e.knots[i + 1]);
            if !(t1 > t0) {
                continue;
            }
            let (lo, hi) = aabb_corners(&hull_box(&e.poles[i - p..=i]));
            let bx = OrientedBox::of_curve(&e.poles[i - p..=i]).unwrap_or_else(|| OrientedBox::aabb(&lo, &hi));
            boxes.push(bx);
            let j = (cells.len() as u32 - first) as usize;
            cones.push(if polys.len() == (p..e.poles.len()).filter(|&i| e.knots[i + 1] > e.knots[i]).count() {
                CellCones::of_span(&polys, j, curve.rational, &bx)
            } else {
                CellCones::NONE
            });
            cells.push(Cell {
                item: Item::Edge(k as u32),
                rect: [t0, t1, 0.0, 0.0],
                lo,
                hi,
                trim: CellTrim::Inside,
                sixteenths: super::Sixteenths::KEPT,
            });
        }
        // sample parameters are normalised to [0, 1] along the curve's domain
        let (k0, k1) = curve.domain();
        let pseudo_normals = e
            .samples
            .iter()
            .map(|s| {
                // the sample stores only its parameter: the point is the curve there
                let t = k0 + s.t * (k1 - k0);
                (t, curve.eval(t), v3(s.normal_a) + v3(s.normal_b))
            })
            .collect();
        edges.push(EdgeGeom {
            id,
            kind: e.kind,
            spans: SpanCurve::new(&curve),
            curve,
            vertices: [
                local_index(e.vertices[0], &b.vertices),
                local_index(e.vertices[1], &b.vertices),
            ],
            pieces: [
                local_index(e.sides[0].piece, &b.pieces),
                local_index(e.sides[1].piece, &b.pieces),
            ],
            pseudo_normals,
            cusp: None,
            bounds: cells[first as usize..].iter().fold(
                (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)),
                |(lo, hi), c| (lo.inf(&c.lo), hi.sup(&c.hi)),
            ),
            cells: first..cells.len() as u32,
        });
    }
    Ok(edges)
}

/// The vertices of body `b`.
pub(super) fn build_vertices(scene: &SceneData, b: &Body) -> Vec<VertexGeom> {
    let vertices = scene.vertices[span_range(&b.vertices)]
        .iter()
        .enumerate()
        .map(|(k, v)| VertexGeom {
            id: b.vertices.first + k as u32,
            point: v3(v.point),
            axis: v3(v.cone.axis),
            edges: v
                .edges
                .iter()
                .map(|&e| local_index(e, &b.edges))
                .filter(|&e| e != NONE)
                .collect(),
            pieces: v
                .pieces
                .iter()
                .map(|&p| local_index(p, &b.pieces))
                .filter(|&p| p != NONE)
                .collect(),
        })
        .collect();
    vertices
}

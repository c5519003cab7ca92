//! The owned copy of a view: [`SceneView::to_data`] rebuilds the
//! [`SceneData`] the writer would serialise to the same bytes.

use super::SceneView;
use crate::scene::data::{
    Adjacency, Body, BodyKind, Boundary, BvhKind, BvhNode, ConvexityClass, Edge, EdgeKind, EdgeSample, EdgeSide,
    FeatureRef, Meta, ParamMap, Piece, PieceOrigin, SceneData, SurfaceNet, Tolerance, TrimCurve, TrimLoop, Vertex,
};
use crate::scene::records::*;

impl SceneView<'_> {
    /// An owned copy; `SceneData::write` of it reproduces a writer-made file byte for byte.
    pub fn to_data(&self) -> SceneData {
        let s = |r: StrRef| self.str(r).to_owned();
        let boundary =
            |b: &BoundaryRecord| Boundary::from_codes(b.side, b.trim_loop, b.trim_curve).unwrap_or(Boundary::U0);
        let meta = Meta {
            source_name: self.source_name().to_owned(),
            producer: self.producer().to_owned(),
            source_format: self.source_format(),
            warnings: self.warnings().map(str::to_owned).collect(),
            tolerances: self
                .tolerances()
                .iter()
                .map(|t| Tolerance {
                    name: s(t.name),
                    value: t.value,
                })
                .collect(),
        };
        let bodies = self
            .bodies
            .iter()
            .map(|b| Body {
                name: s(b.name),
                kind: BodyKind::from_code(b.kind).unwrap_or_default(),
                source_id: b.source_id,
                placement: b.placement,
                bbox: b.bbox,
                pieces: b.pieces,
                edges: b.edges,
                vertices: b.vertices,
                bvh: b.bvh,
                bvh_root: b.bvh_root,
            })
            .collect();
        let origin = |i: usize| {
            self.piece_origins
                .get(i)
                .filter(|o| o.surface != NONE)
                .map(|o| PieceOrigin {
                    surface: o.surface,
                    span: [o.span_u, o.span_v],
                    rect: o.rect,
                })
        };
        let pieces = self
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| Piece {
                origin: origin(i),
                body: p.body,
                source_face: p.source_face,
                degree_u: p.degree_u,
                degree_v: p.degree_v,
                poles: self.piece_poles(p).to_vec(),
                class: ConvexityClass::from_code(p.class).unwrap_or_default(),
                reversed: p.flags & PIECE_REVERSED != 0,
                trimmed: p.flags & PIECE_TRIMMED != 0,
                fully_inside: p.flags & PIECE_FULLY_INSIDE != 0,
                domain: p.domain,
                cone: p.cone,
                bbox: p.bbox,
                trim_loops: self
                    .piece_trim_loops(p)
                    .iter()
                    .map(|l| TrimLoop {
                        outer: l.flags & LOOP_OUTER != 0,
                        curves: self
                            .loop_curves(l)
                            .iter()
                            .map(|c| {
                                let pts = self.trim_curve_points(c);
                                if c.kind == TRIM_POLYLINE {
                                    TrimCurve::Polyline(pts.iter().map(|q| [q[0], q[1]]).collect())
                                } else {
                                    TrimCurve::Bezier(pts.to_vec())
                                }
                            })
                            .collect(),
                    })
                    .collect(),
                adjacency: self
                    .piece_adjacency(p)
                    .iter()
                    .map(|a| Adjacency {
                        boundary: boundary(&a.boundary),
                        feature: FeatureRef::from_codes(a.feature.kind, a.feature.index)
                            .unwrap_or(FeatureRef::Piece(a.feature.index)),
                    })
                    .collect(),
            })
            .collect();
        let side = |r: &EdgeSideRecord| EdgeSide {
            piece: r.piece,
            boundary: boundary(&r.boundary),
            map: match r.map {
                MAP_CURVE => ParamMap::Curve,
                MAP_CURVE_REVERSED => ParamMap::CurveReversed,
                _ => ParamMap::Linear {
                    start: r.uv_start,
                    end: r.uv_end,
                },
            },
        };
        let edges = self
            .edges
            .iter()
            .map(|e| Edge {
                kind: EdgeKind::from_code(e.kind).unwrap_or_default(),
                source_id: e.source_id,
                body: e.body,
                vertices: e.vertices,
                curve_degree: e.curve_degree,
                knots: self.edge_knots(e).to_vec(),
                poles: self.edge_poles(e).to_vec(),
                sides: [side(&e.sides[0]), side(&e.sides[1])],
                samples: self
                    .edge_samples(e)
                    .iter()
                    .map(|x| EdgeSample {
                        t: x.t,
                        normal_a: x.normal_a,
                        normal_b: x.normal_b,
                    })
                    .collect(),
            })
            .collect();
        let vertices = self
            .vertices
            .iter()
            .map(|x| Vertex {
                body: x.body,
                source_id: x.source_id,
                point: x.point,
                cone: x.cone,
                edges: self.vertex_edges(x).to_vec(),
                pieces: self.vertex_pieces(x).to_vec(),
            })
            .collect();
        let bvh_nodes = self
            .bvh_nodes
            .iter()
            .map(|n| BvhNode {
                bbox: n.bbox,
                kind: if n.kind == BVH_LEAF {
                    BvhKind::Leaf(self.leaf_pieces(n).to_vec())
                } else {
                    BvhKind::Interior(n.a, n.b)
                },
            })
            .collect();
        let surfaces = self
            .surfaces
            .iter()
            .map(|f| {
                let (ku, kv) = self.surface_knots(f);
                SurfaceNet {
                    degree_u: f.degree_u,
                    degree_v: f.degree_v,
                    count_u: f.count_u,
                    count_v: f.count_v,
                    knots_u: ku.to_vec(),
                    knots_v: kv.to_vec(),
                    poles: self.surface_poles(f).to_vec(),
                }
            })
            .collect();
        SceneData {
            meta,
            bodies,
            pieces,
            edges,
            vertices,
            bvh_nodes,
            surfaces,
            face_checks: self.face_checks.to_vec(),
            body_checks: self.body_checks.to_vec(),
        }
    }
}

//! Runtime geometry of prepared scene bodies ([`TrackScene`]).
//!
//! Built once from a loaded scene (`.exs`): every piece becomes an evaluable
//! rational Bézier patch on `[0,1]²` with its trim polygons and a fixed grid
//! of *cells* (sub-patches with control-hull boxes, the far phase's leaves);
//! every edge an exact NURBS curve whose cells are its Bézier spans; every
//! vertex its point and normal-cone axis. The scene's per-body BVH is copied
//! with the edges attached to the leaf of an adjacent piece (boxes grown to
//! contain them), so one traversal bounds pieces and edges alike.
//!
//! A cell's box holds the control points of its sub-patch (or span), which
//! contain the rational patch (positive weights): `dist(Q, box)` is a lower
//! bound on the distance to anything in the cell.

use crate::geom::bernstein::{split_u, split_v};
use crate::geom::bez2;
#[cfg(test)]
use crate::geom::polygon::polygons_contain;
use crate::geom::{NurbsCurve, NurbsSurface, Pose, Vec3};
use crate::scene::bvh::hull_box;
use crate::scene::data::{
    Aabb, BodyKind, Boundary, BvhKind, ConvexityClass, EdgeKind, FeatureRef, SceneData, TrimCurve, NONE,
};
use crate::scene::{SceneError, SceneView};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};
use thiserror::Error;

use super::config::TrackError;

/// Errors of the body-level runtime (scene content, ids, bad input).
#[derive(Debug, Error)]
pub enum BodyError {
    /// The body index is not in the scene.
    #[error("unknown body {body} (the scene has {count} bodies)")]
    UnknownBody {
        /// Requested body.
        body: u32,
        /// Bodies in the scene.
        count: usize,
    },
    /// The body has no surface pieces to track.
    #[error("body {0} has no surface pieces")]
    EmptyBody(u32),
    /// A piece or edge of the scene cannot be evaluated.
    #[error("scene {what} {index}: {reason}")]
    BadGeometry {
        /// `piece` or `edge`.
        what: &'static str,
        /// Absolute index in the scene.
        index: u32,
        /// Why.
        reason: String,
    },
    /// The scene file failed to load or validate.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// Bad input to a tracker (non-finite numbers, non-rigid pose, config).
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// What a cell belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A piece (index local to the body).
    Piece(u32),
    /// An edge (index local to the body).
    Edge(u32),
    /// A trim curve of a piece (index into [`BodyGeom::trims`]): the boundary
    /// of the trimmed face inside the piece, as a curve on the surface.
    Trim(u32),
}

/// A trim curve in a piece's `[0,1]²` parameters.
#[derive(Debug, Clone)]
pub enum TrimPath {
    /// Straight segment from `a` to `b` (parameter `s ∈ [0,1]`).
    Segment([f64; 2], [f64; 2]),
    /// Rational Bézier curve in the plane (`z = 0`) on its own domain.
    Curve(NurbsCurve),
}

/// One trim curve of a piece, tracked as the surface curve `f(γ(s))`.
#[derive(Debug, Clone)]
pub struct TrimGeom {
    /// The piece (body-local).
    pub piece: u32,
    /// The curve in the piece's parameters.
    pub path: TrimPath,
    /// The B-rep edge along it (body-local), [`NONE`] when the face has no edge there.
    pub edge: u32,
    /// Its far-phase cell.
    pub cell: u32,
}

/// How a piece cell lies with respect to the piece's trim loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellTrim {
    /// Entirely kept.
    Inside,
    /// Crossed by a trim curve: a witness found in it is tested against the loops.
    Partial,
}

/// A far-phase leaf: a sub-patch of a piece or a span of an edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// The piece or edge.
    pub item: Item,
    /// Parameter rectangle `[u0, u1, v0, v1]` (edges: `[t0, t1, 0, 0]`).
    pub rect: [f64; 4],
    /// Box of the control points (body-local).
    pub lo: Vec3,
    /// Upper corner of the box.
    pub hi: Vec3,
    /// Trim status (edges: always inside).
    pub trim: CellTrim,
}

/// Most control points of a [`TrimEdge`] (higher degrees are flattened).
pub const TRIM_EDGE_POINTS: usize = 16;

/// A `y`-monotone piece of a trim loop: a rational Bézier curve with
/// homogeneous points `[w·u, w·v, w]` (a straight segment has two), and the
/// box of its control points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrimEdge {
    /// Control points (the first `n`).
    pub h: [[f64; 3]; TRIM_EDGE_POINTS],
    /// Number of control points (≥ 2).
    pub n: u8,
    /// `[u_min, u_max, v_min, v_max]` of the control points.
    pub hull: [f64; 4],
}

impl TrimEdge {
    fn new(h: &[[f64; 3]]) -> Option<Self> {
        if h.len() < 2 || h.len() > TRIM_EDGE_POINTS || !h.iter().all(|p| p[2] > 0.0 && p.iter().all(|x| x.is_finite()))
        {
            return None;
        }
        let mut a = [[0.0; 3]; TRIM_EDGE_POINTS];
        a[..h.len()].copy_from_slice(h);
        Some(Self {
            h: a,
            n: h.len() as u8,
            hull: bez2::hull(h),
        })
    }

    /// The control points.
    pub fn points(&self) -> &[[f64; 3]] {
        &self.h[..self.n as usize]
    }
}

/// The exact trim loops of a piece as `y`-monotone edges (loops closed, gaps
/// between consecutive curves bridged by straight segments).
pub fn trim_edges(p: &crate::scene::data::Piece) -> Vec<TrimEdge> {
    let mut out = Vec::new();
    let line = |a: [f64; 2], b: [f64; 2]| [[a[0], a[1], 1.0], [b[0], b[1], 1.0]];
    for l in &p.trim_loops {
        let mut first: Option<[f64; 2]> = None;
        let mut pen: Option<[f64; 2]> = None;
        let push_line = |out: &mut Vec<TrimEdge>, a: [f64; 2], b: [f64; 2]| {
            if a != b {
                out.extend(TrimEdge::new(&line(a, b)));
            }
        };
        for c in &l.curves {
            match c {
                TrimCurve::Polyline(v) => {
                    for &q in v {
                        if let Some(a) = pen {
                            push_line(&mut out, a, q);
                        }
                        first.get_or_insert(q);
                        pen = Some(q);
                    }
                }
                TrimCurve::Bezier(h) => {
                    if h.len() < 2 {
                        continue;
                    }
                    let (s, e) = (bez2::eval(h, 0.0), bez2::eval(h, 1.0));
                    if let Some(a) = pen {
                        push_line(&mut out, a, s);
                    }
                    first.get_or_insert(s);
                    if h.len() <= TRIM_EDGE_POINTS {
                        for m in bez2::monotone_in_y(h) {
                            out.extend(TrimEdge::new(&m));
                        }
                    } else {
                        let n = 256;
                        for k in 0..n {
                            push_line(
                                &mut out,
                                bez2::eval(h, k as f64 / n as f64),
                                bez2::eval(h, (k + 1) as f64 / n as f64),
                            );
                        }
                    }
                    pen = Some(e);
                }
            }
        }
        if let (Some(a), Some(b)) = (pen, first) {
            push_line(&mut out, a, b);
        }
    }
    out
}

/// Even-odd containment of `(s, t)` in the exact trim loops given as
/// `y`-monotone edges: the ray towards `+u` is intersected with each curve
/// exactly (bisection to the last bit of its parameter), so points a hair
/// inside or outside a curved trim are told apart. Does not allocate.
pub fn edges_contain(edges: &[TrimEdge], s: f64, t: f64) -> bool {
    let mut inside = false;
    for e in edges {
        if t < e.hull[2] || t > e.hull[3] || s >= e.hull[1] {
            continue;
        }
        if bez2::ray_crosses(e.points(), e.hull[0], e.hull[1], s, t) {
            inside = !inside;
        }
    }
    inside
}

/// Runtime form of one piece.
#[derive(Debug, Clone)]
pub struct PieceGeom {
    /// Absolute piece index in the scene.
    pub id: u32,
    /// Source face entity id.
    pub face: u64,
    /// The patch on `[0,1]²` (body-local).
    pub surface: NurbsSurface,
    /// Convexity class.
    pub class: ConvexityClass,
    /// Outward normal is `−(f_u × f_v)`.
    pub reversed: bool,
    /// `[u0, u1, v0, v1]`: the piece's rectangle in its face's NURBS parameters
    /// (pieces of one face map into each other through it across seams).
    pub domain: [f64; 4],
    /// Trim polygons in `[0,1]²` (closed, Bézier trims flattened); empty when the piece is untrimmed.
    pub trims: Vec<Vec<[f64; 2]>>,
    /// The exact trim loops as `y`-monotone pieces (the containment test of
    /// [`BodyGeom::piece_keeps`]); empty when the piece is untrimmed.
    pub trim_edges: Vec<TrimEdge>,
    /// Neighbours across the sides (body-local feature indices).
    pub adjacency: Vec<(Boundary, FeatureRef)>,
    /// Range of this piece's cells in [`BodyGeom::cells`].
    pub cells: std::ops::Range<u32>,
}

/// Runtime form of one edge.
#[derive(Debug, Clone)]
pub struct EdgeGeom {
    /// Absolute edge index in the scene.
    pub id: u32,
    /// Kind.
    pub kind: EdgeKind,
    /// Exact 3-D curve (body-local).
    pub curve: NurbsCurve,
    /// End vertices (body-local indices, [`NONE`] for none).
    pub vertices: [u32; 2],
    /// The pieces on each side (body-local, [`NONE`] for none).
    pub pieces: [u32; 2],
    /// Voronoi samples: `(t, point, normal_a + normal_b)` (the edge pseudo-normal) in increasing `t`.
    pub pseudo_normals: Vec<(f64, Vec3, Vec3)>,
    /// Range of the edge's cells.
    pub cells: std::ops::Range<u32>,
}

/// Runtime form of one vertex.
#[derive(Debug, Clone)]
pub struct VertexGeom {
    /// Absolute vertex index in the scene.
    pub id: u32,
    /// Position (body-local).
    pub point: Vec3,
    /// Axis of the normal cone of the adjacent faces (the vertex pseudo-normal).
    pub axis: Vec3,
    /// Incident edges (body-local).
    pub edges: Vec<u32>,
    /// Incident pieces (body-local).
    pub pieces: Vec<u32>,
}

/// A node of the runtime BVH.
#[derive(Debug, Clone)]
pub struct Node {
    /// Box lower corner.
    pub lo: Vec3,
    /// Box upper corner.
    pub hi: Vec3,
    /// Children (local node indices) or, for a leaf, `[first, end)` into [`BodyGeom::leaf_items`].
    pub kind: NodeKind,
}

/// Interior or leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// Two children.
    Interior(u32, u32),
    /// Items `[first, end)` of [`BodyGeom::leaf_items`].
    Leaf(u32, u32),
}

/// Runtime geometry of one body.
#[derive(Debug, Clone)]
pub struct BodyGeom {
    /// Name.
    pub name: String,
    /// Solid, open shell or loose faces (signed distance only for solids).
    pub kind: BodyKind,
    /// Placement in the scene (body-local → world).
    pub placement: Pose,
    /// Box (body-local).
    pub lo: Vec3,
    /// Box upper corner.
    pub hi: Vec3,
    /// Pieces.
    pub pieces: Vec<PieceGeom>,
    /// Edges.
    pub edges: Vec<EdgeGeom>,
    /// Vertices.
    pub vertices: Vec<VertexGeom>,
    /// Trim curves of the pieces.
    pub trims: Vec<TrimGeom>,
    /// Far-phase cells of all pieces, edges and trim curves.
    pub cells: Vec<Cell>,
    /// BVH nodes (children after their parent).
    pub nodes: Vec<Node>,
    /// Items of the leaves.
    pub leaf_items: Vec<Item>,
    /// Root node.
    pub root: u32,
}

/// The runtime geometry of a whole scene: immutable, shareable between
/// threads; trackers borrow it per update.
#[derive(Debug, Clone)]
pub struct TrackScene {
    /// Bodies in scene order.
    pub bodies: Vec<BodyGeom>,
}

/// Squared distance from `q` to the box `[lo, hi]` (0 inside).
#[inline]
pub fn box_dist2(lo: &Vec3, hi: &Vec3, q: &Vec3) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let d = (lo[k] - q[k]).max(q[k] - hi[k]).max(0.0);
        s += d * d;
    }
    s
}

fn v3(a: [f64; 3]) -> Vec3 {
    Vec3::new(a[0], a[1], a[2])
}

/// Rigid pose from a 3×4 row-major `[R | t]`, re-orthonormalised (files
/// store rotations to ~1e-13).
pub fn pose_from_placement(m: &[f64; 12]) -> Pose {
    // Gram–Schmidt on the columns: `Rotation3::from_matrix` iterates from
    // the identity and stalls on half turns (trace −1), leaving them unrotated
    let c0 = Vector3::new(m[0], m[4], m[8]);
    let c1 = Vector3::new(m[1], m[5], m[9]);
    let x = c0.try_normalize(1e-300).unwrap_or_else(Vector3::x);
    let y = (c1 - x * x.dot(&c1))
        .try_normalize(1e-300)
        .unwrap_or_else(|| x.cross(&Vector3::z()).try_normalize(1e-300).unwrap_or_else(Vector3::y));
    let z = x.cross(&y);
    let rot = Rotation3::from_matrix_unchecked(Matrix3::from_columns(&[x, y, z]));
    Pose::from_parts(
        Vector3::new(m[3], m[7], m[11]),
        UnitQuaternion::from_rotation_matrix(&rot),
    )
}

/// Flattens a piece's trim loops into closed polygons in `[0,1]²`.
fn trim_polygons(p: &crate::scene::data::Piece) -> Vec<Vec<[f64; 2]>> {
    let mut out = Vec::with_capacity(p.trim_loops.len());
    for l in &p.trim_loops {
        let mut poly: Vec<[f64; 2]> = Vec::new();
        for c in &l.curves {
            match c {
                TrimCurve::Polyline(v) => poly.extend_from_slice(v),
                TrimCurve::Bezier(h) => {
                    let n = 48;
                    for k in 0..=n {
                        poly.push(bezier2(h, k as f64 / n as f64));
                    }
                }
            }
        }
        if poly.len() >= 3 {
            out.push(poly);
        }
    }
    out
}

/// Rational Bézier curve point in the plane by de Casteljau on homogeneous points.
fn bezier2(h: &[[f64; 3]], t: f64) -> [f64; 2] {
    let mut w: [[f64; 3]; 32] = [[0.0; 3]; 32];
    let n = h.len().min(32);
    w[..n].copy_from_slice(&h[..n]);
    for r in 1..n {
        for i in 0..n - r {
            for k in 0..3 {
                w[i][k] = (1.0 - t) * w[i][k] + t * w[i + 1][k];
            }
        }
    }
    let z = if w[0][2] != 0.0 { w[0][2] } else { 1.0 };
    [w[0][0] / z, w[0][1] / z]
}

fn segment_hits_rect(a: [f64; 2], b: [f64; 2], r: &[f64; 4]) -> bool {
    clip_segment(a, b, r).is_some_and(|(t0, t1)| t0 <= t1)
}

/// Liang–Barsky: the parameter interval `[t0, t1]` of the segment `a + t (b − a)`,
/// `t ∈ [0,1]`, inside the closed rectangle `r` (`None` when it misses).
fn clip_segment(a: [f64; 2], b: [f64; 2], r: &[f64; 4]) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = [b[0] - a[0], b[1] - a[1]];
    for (p, q) in [
        (-d[0], a[0] - r[0]),
        (d[0], r[1] - a[0]),
        (-d[1], a[1] - r[2]),
        (d[1], r[3] - a[1]),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

/// Trim status of a rectangle: `None` when it lies entirely outside the kept region.
fn rect_trim(edges: &[TrimEdge], r: &[f64; 4]) -> Option<CellTrim> {
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

/// The part of the segment `a b` inside `[0,1]²` (`None` when it misses or is a point).
fn clip_unit(a: [f64; 2], b: [f64; 2]) -> Option<([f64; 2], [f64; 2])> {
    let (t0, t1) = clip_segment(a, b, &[0.0, 1.0, 0.0, 1.0])?;
    if t1 - t0 <= 1e-15 {
        return None;
    }
    let at = |t: f64| [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    Some((at(t0), at(t1)))
}

/// A segment lying on one side of `[0,1]²`: a loop clipped to the piece
/// runs along its sides, where the face goes on into the neighbouring piece
/// (or, when the side is a real border, the piece's own box constraint
/// finds the boundary point): not a trim curve to track.
fn on_one_side(a: &[f64; 2], b: &[f64; 2]) -> bool {
    let eps = 1e-12;
    (0..2).any(|k| (a[k].abs() <= eps && b[k].abs() <= eps) || ((a[k] - 1.0).abs() <= eps && (b[k] - 1.0).abs() <= eps))
}

/// Parameter rectangle `[u0, u1, v0, v1]` of points, clamped to `[0,1]²`.
fn param_rect(pts: &[[f64; 2]]) -> [f64; 4] {
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
fn grid_of(class: ConvexityClass) -> usize {
    match class {
        ConvexityClass::Planar => 1,
        ConvexityClass::Convex => 2,
        _ => 4,
    }
}

fn aabb_corners(b: &Aabb) -> (Vec3, Vec3) {
    (v3(b.min), v3(b.max))
}

impl TrackScene {
    /// Builds the runtime geometry from a validated scene view.
    pub fn new(view: &SceneView) -> Result<Self, BodyError> {
        Self::from_data(&view.to_data())
    }

    /// Builds the runtime geometry from an owned scene.
    pub fn from_data(scene: &SceneData) -> Result<Self, BodyError> {
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for b in &scene.bodies {
            bodies.push(build_body(scene, b)?);
        }
        Ok(Self { bodies })
    }

    /// The body `b`, or an error naming the valid range.
    pub fn body(&self, b: u32) -> Result<&BodyGeom, BodyError> {
        self.bodies.get(b as usize).ok_or(BodyError::UnknownBody {
            body: b,
            count: self.bodies.len(),
        })
    }
}

fn local_feature(f: FeatureRef, b: &crate::scene::data::Body) -> Option<FeatureRef> {
    let sub = |i: u32, s: &crate::scene::data::Span| i.checked_sub(s.first).filter(|&k| k < s.count);
    match f {
        FeatureRef::Piece(i) => sub(i, &b.pieces).map(FeatureRef::Piece),
        FeatureRef::Edge(i) => sub(i, &b.edges).map(FeatureRef::Edge),
        FeatureRef::Vertex(i) => sub(i, &b.vertices).map(FeatureRef::Vertex),
    }
}

fn build_body(scene: &SceneData, b: &crate::scene::data::Body) -> Result<BodyGeom, BodyError> {
    let rng = |s: &crate::scene::data::Span| s.first as usize..(s.first + s.count) as usize;
    let loc = |i: u32, s: &crate::scene::data::Span| {
        if i == NONE {
            NONE
        } else {
            i.checked_sub(s.first).filter(|&k| k < s.count).unwrap_or(NONE)
        }
    };
    let mut cells = Vec::new();
    let mut pieces = Vec::with_capacity(b.pieces.count as usize);
    for (k, p) in scene.pieces[rng(&b.pieces)].iter().enumerate() {
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
                cells.push(Cell {
                    item: Item::Piece(k as u32),
                    rect,
                    lo,
                    hi,
                    trim,
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
            trim_edges,
            adjacency,
            cells: first..cells.len() as u32,
        });
    }
    let mut trims = Vec::new();
    for (k, p) in scene.pieces[rng(&b.pieces)].iter().enumerate() {
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
                    });
                    cells.push(Cell {
                        item: Item::Trim(t),
                        rect: [dom.0, dom.1, 0.0, 0.0],
                        lo,
                        hi,
                        trim: CellTrim::Inside,
                    });
                }
            }
        }
    }
    let mut edges = Vec::with_capacity(b.edges.count as usize);
    for (k, e) in scene.edges[rng(&b.edges)].iter().enumerate() {
        let id = b.edges.first + k as u32;
        let curve = NurbsCurve::try_from_homogeneous(e.curve_degree as usize, e.knots.clone(), e.poles.clone())
            .map_err(|err| BodyError::BadGeometry {
                what: "edge",
                index: id,
                reason: err.to_string(),
            })?;
        let first = cells.len() as u32;
        let p = e.curve_degree as usize;
        for i in p..e.poles.len() {
            let (t0, t1) = (e.knots[i], e.knots[i + 1]);
            if !(t1 > t0) {
                continue;
            }
            let (lo, hi) = aabb_corners(&hull_box(&e.poles[i - p..=i]));
            cells.push(Cell {
                item: Item::Edge(k as u32),
                rect: [t0, t1, 0.0, 0.0],
                lo,
                hi,
                trim: CellTrim::Inside,
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
            curve,
            vertices: [loc(e.vertices[0], &b.vertices), loc(e.vertices[1], &b.vertices)],
            pieces: [loc(e.sides[0].piece, &b.pieces), loc(e.sides[1].piece, &b.pieces)],
            pseudo_normals,
            cells: first..cells.len() as u32,
        });
    }
    let vertices = scene.vertices[rng(&b.vertices)]
        .iter()
        .enumerate()
        .map(|(k, v)| VertexGeom {
            id: b.vertices.first + k as u32,
            point: v3(v.point),
            axis: v3(v.cone.axis),
            edges: v
                .edges
                .iter()
                .map(|&e| loc(e, &b.edges))
                .filter(|&e| e != NONE)
                .collect(),
            pieces: v
                .pieces
                .iter()
                .map(|&p| loc(p, &b.pieces))
                .filter(|&p| p != NONE)
                .collect(),
        })
        .collect();
    let (nodes, leaf_items, root) = build_nodes(scene, b, &pieces, &edges, &trims, &cells);
    Ok(BodyGeom {
        name: b.name.clone(),
        kind: b.kind,
        placement: pose_from_placement(&b.placement),
        lo: v3(b.bbox.min),
        hi: v3(b.bbox.max),
        pieces,
        edges,
        vertices,
        trims,
        cells,
        nodes,
        leaf_items,
        root,
    })
}

/// Copies the scene BVH, attaches every edge to the leaf of one of its
/// pieces and recomputes the boxes bottom-up from the cells, so every box
/// contains its cells exactly. Pieces missing from every leaf (or a body
/// without a BVH) get a leaf of their own under a new root: nothing is
/// ever skipped. Returns the nodes, the leaf items and the root.
fn build_nodes(
    scene: &SceneData,
    b: &crate::scene::data::Body,
    pieces: &[PieceGeom],
    edges: &[EdgeGeom],
    trims: &[TrimGeom],
    cells: &[Cell],
) -> (Vec<Node>, Vec<Item>, u32) {
    struct Copy<'a> {
        scene: &'a SceneData,
        first: u32,
        count: u32,
        nodes: Vec<Node>,
        leaves: Vec<Vec<Item>>,
        piece_leaf: Vec<u32>,
    }
    impl Copy<'_> {
        fn push(&mut self, kind: NodeKind, items: Vec<Item>) -> u32 {
            self.nodes.push(Node {
                lo: Vec3::zeros(),
                hi: Vec3::zeros(),
                kind,
            });
            self.leaves.push(items);
            (self.nodes.len() - 1) as u32
        }
        fn leaf(&mut self, ps: &[u32]) -> u32 {
            let me = self.nodes.len() as u32;
            let mut items = Vec::new();
            for &p in ps {
                if let Some(k) = p.checked_sub(self.first).filter(|&k| k < self.count) {
                    if self.piece_leaf[k as usize] == NONE {
                        self.piece_leaf[k as usize] = me;
                        items.push(Item::Piece(k));
                    }
                }
            }
            self.push(NodeKind::Leaf(0, 0), items)
        }
        fn copy(&mut self, sn: u32, depth: u32) -> u32 {
            match self.scene.bvh_nodes.get(sn as usize).map(|n| &n.kind) {
                Some(BvhKind::Interior(l, r)) if depth < 200 => {
                    let (l, r) = (*l, *r);
                    let me = self.push(NodeKind::Interior(NONE, NONE), Vec::new());
                    let a = self.copy(l, depth + 1);
                    let c = self.copy(r, depth + 1);
                    self.nodes[me as usize].kind = NodeKind::Interior(a, c);
                    me
                }
                Some(BvhKind::Leaf(ps)) => {
                    let ps = ps.clone();
                    self.leaf(&ps)
                }
                // too deep or dangling: its pieces end up in the leaf of missing pieces
                _ => self.push(NodeKind::Leaf(0, 0), Vec::new()),
            }
        }
    }
    let mut cp = Copy {
        scene,
        first: b.pieces.first,
        count: b.pieces.count,
        nodes: Vec::new(),
        leaves: Vec::new(),
        piece_leaf: vec![NONE; pieces.len()],
    };
    let mut root = if b.bvh_root != NONE && b.bvh.count > 0 {
        cp.copy(b.bvh_root, 0)
    } else {
        NONE
    };
    let missing: Vec<u32> = (0..pieces.len() as u32)
        .filter(|&k| cp.piece_leaf[k as usize] == NONE)
        .map(|k| k + b.pieces.first)
        .collect();
    if root == NONE || !missing.is_empty() {
        let leaf = cp.leaf(&missing);
        root = if root == NONE {
            leaf
        } else {
            cp.push(NodeKind::Interior(root, leaf), Vec::new())
        };
    }
    let Copy {
        mut nodes,
        mut leaves,
        piece_leaf,
        ..
    } = cp;
    for (k, e) in edges.iter().enumerate() {
        let host = e
            .pieces
            .iter()
            .find(|&&p| p != NONE)
            .map_or(root, |&p| piece_leaf[p as usize]);
        let mut leaf = if host == NONE { root } else { host };
        while let NodeKind::Interior(l, _) = nodes[leaf as usize].kind {
            leaf = l;
        }
        leaves[leaf as usize].push(Item::Edge(k as u32));
    }
    for (k, t) in trims.iter().enumerate() {
        let mut leaf = piece_leaf[t.piece as usize];
        if leaf == NONE {
            leaf = root;
        }
        while let NodeKind::Interior(l, _) = nodes[leaf as usize].kind {
            leaf = l;
        }
        leaves[leaf as usize].push(Item::Trim(k as u32));
    }
    let cell_box = |r: &std::ops::Range<u32>| {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        for c in &cells[r.start as usize..r.end as usize] {
            lo = lo.inf(&c.lo);
            hi = hi.sup(&c.hi);
        }
        (lo, hi)
    };
    let item_box = |it: &Item| match *it {
        Item::Piece(k) => cell_box(&pieces[k as usize].cells),
        Item::Edge(k) => cell_box(&edges[k as usize].cells),
        Item::Trim(k) => cell_box(&(trims[k as usize].cell..trims[k as usize].cell + 1)),
    };
    // Leaves of the scene's BVH hold whole pieces plus their edges and trim
    // curves, dozens of items at times; split each into a binary subtree of
    // at most LEAF_ITEMS items (median of the item boxes' centres along the
    // widest axis), so far-phase bounds stay tight and item pairs are reached
    // through boxes rather than enumerated leaf by leaf.
    const LEAF_ITEMS: usize = 2;
    fn split_leaf(nodes: &mut Vec<Node>, out: &mut Vec<Item>, mut its: Vec<(Item, Vec3)>, into: u32) {
        if its.len() <= LEAF_ITEMS {
            let first = out.len() as u32;
            out.extend(its.iter().map(|(it, _)| *it));
            nodes[into as usize].kind = NodeKind::Leaf(first, out.len() as u32);
            return;
        }
        let (lo, hi) = its.iter().fold(
            (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)),
            |(lo, hi), (_, c)| (lo.inf(c), hi.sup(c)),
        );
        let axis = (hi - lo).imax();
        its.sort_by(|x, y| x.1[axis].total_cmp(&y.1[axis]));
        let right = its.split_off(its.len() / 2);
        let node = |nodes: &mut Vec<Node>| {
            nodes.push(Node {
                lo: Vec3::zeros(),
                hi: Vec3::zeros(),
                kind: NodeKind::Leaf(0, 0),
            });
            (nodes.len() - 1) as u32
        };
        let (l, r) = (node(nodes), node(nodes));
        nodes[into as usize].kind = NodeKind::Interior(l, r);
        split_leaf(nodes, out, its, l);
        split_leaf(nodes, out, right, r);
    }
    let mut items = Vec::new();
    for (i, l) in leaves.iter().enumerate() {
        if matches!(nodes[i].kind, NodeKind::Leaf(..)) {
            let its = l
                .iter()
                .map(|it| {
                    let (lo, hi) = item_box(it);
                    // an item without cells (an empty box) sorts by the origin
                    let c = if lo.x <= hi.x { (lo + hi) * 0.5 } else { Vec3::zeros() };
                    (*it, c)
                })
                .collect();
            split_leaf(&mut nodes, &mut items, its, i as u32);
        }
    }
    fn fit(nodes: &mut [Node], i: u32, items: &[Item], item_box: &dyn Fn(&Item) -> (Vec3, Vec3)) -> (Vec3, Vec3) {
        let (lo, hi) = match nodes[i as usize].kind {
            NodeKind::Interior(l, r) => {
                let (a0, a1) = fit(nodes, l, items, item_box);
                let (c0, c1) = fit(nodes, r, items, item_box);
                (a0.inf(&c0), a1.sup(&c1))
            }
            NodeKind::Leaf(f, e) => items[f as usize..e as usize].iter().map(item_box).fold(
                (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)),
                |(lo, hi), (a, c)| (lo.inf(&a), hi.sup(&c)),
            ),
        };
        nodes[i as usize].lo = lo;
        nodes[i as usize].hi = hi;
        (lo, hi)
    }
    fit(&mut nodes, root, &items, &item_box);
    (nodes, items, root)
}

impl BodyGeom {
    /// Number of far-phase cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Outward unit normal of piece `k` at `(u, v)`; at a degenerate point
    /// (a pole) the normal of a point slightly inside the patch.
    pub fn piece_normal(&self, k: u32, uv: [f64; 2]) -> Vec3 {
        let p = &self.pieces[k as usize];
        let mut uv = uv;
        for _ in 0..4 {
            let d = p.surface.eval_d1(uv[0], uv[1]);
            let n = d.su.cross(&d.sv);
            let l = n.norm();
            if l > 1e-14 * (d.su.norm() * d.sv.norm()).max(1e-300) && l.is_finite() {
                return if p.reversed { -n / l } else { n / l };
            }
            uv = [uv[0] + (0.5 - uv[0]) * 1e-4, uv[1] + (0.5 - uv[1]) * 1e-4];
        }
        Vec3::zeros()
    }

    /// Outward unit normal of piece `k` from the raw `f_u × f_v` at `uv` (as
    /// a solve already has it); [`piece_normal`](Self::piece_normal) where it is degenerate.
    pub fn outward_from(&self, k: u32, raw: &Vec3, uv: [f64; 2]) -> Vec3 {
        let l = raw.norm();
        if l > 1e-300 && l.is_finite() {
            if self.pieces[k as usize].reversed {
                -raw / l
            } else {
                raw / l
            }
        } else {
            self.piece_normal(k, uv)
        }
    }

    /// The pseudo-normal of edge `k` at parameter `t` (sum of the two adjacent
    /// outward normals, interpolated between the Voronoi samples).
    pub fn edge_pseudo_normal(&self, k: u32, t: f64) -> Vec3 {
        let e = &self.edges[k as usize];
        let s = &e.pseudo_normals;
        match s.len() {
            0 => Vec3::zeros(),
            1 => s[0].2,
            _ => {
                let i = s.partition_point(|x| x.0 < t).clamp(1, s.len() - 1);
                let (a, b) = (&s[i - 1], &s[i]);
                let w = if b.0 > a.0 {
                    ((t - a.0) / (b.0 - a.0)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                a.2 * (1.0 - w) + b.2 * w
            }
        }
    }

    /// The pseudo-normal of edge `k` at its Voronoi sample nearest to `p`.
    pub fn edge_pseudo_normal_near(&self, k: u32, p: &Vec3) -> Vec3 {
        self.edges[k as usize]
            .pseudo_normals
            .iter()
            .min_by(|a, b| (a.1 - p).norm_squared().total_cmp(&(b.1 - p).norm_squared()))
            .map_or(Vec3::zeros(), |s| s.2)
    }

    /// Squared distance from `p` to the polyline through the Voronoi sample
    /// points of edge `k` (`None` without samples). Edges with constant
    /// normals keep only their two end samples, so the polyline (not the
    /// sample points alone) stands for the edge.
    pub fn edge_samples_dist2(&self, k: u32, p: &Vec3) -> Option<f64> {
        let s = &self.edges[k as usize].pseudo_normals;
        let first = s.first()?;
        let mut best = (first.1 - p).norm_squared();
        for w in s.windows(2) {
            let (a, b) = (w[0].1, w[1].1);
            let ab = b - a;
            let l2 = ab.norm_squared();
            let x = if l2 > 0.0 {
                ((p - a).dot(&ab) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            best = best.min((a + ab * x - p).norm_squared());
        }
        Some(best)
    }

    /// Whether piece `k` keeps the parameters `(u, v)` (its trims).
    pub fn piece_keeps(&self, k: u32, u: f64, v: f64) -> bool {
        let p = &self.pieces[k as usize];
        // a witness on a side of the piece is tested a hair inside it (the
        // clipped loops run along the sides)
        let nudge = |x: f64| x + (0.5 - x) * 1e-9;
        p.trims.is_empty() || edges_contain(&p.trim_edges, nudge(u), nudge(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_half_turn_is_kept() {
        // a 180° rotation (x → −z, y → −y, z → −x) with a translation: the
        // autocad2000_as1 nuts and bolts, left unrotated by an iterative fit
        let m = [0.0, 0.0, -1.0, 132.5, 0.0, -1.0, 0.0, 62.0, -1.0, 0.0, 0.0, -1.5];
        let pose = pose_from_placement(&m);
        let p = Vec3::new(1.0, 2.0, 3.0);
        let got = pose.transform_point(&p);
        let want = Vec3::new(-3.0 + 132.5, -2.0 + 62.0, -1.0 - 1.5);
        assert!((got - want).norm() < 1e-12, "{got:?} vs {want:?}");
        // and a slightly non-orthonormal general rotation stays close to it
        let r = Rotation3::from_euler_angles(0.3, -1.2, 2.9);
        let a = r.matrix();
        let e = 1e-13;
        let m = [
            a[(0, 0)] + e,
            a[(0, 1)],
            a[(0, 2)],
            1.0,
            a[(1, 0)],
            a[(1, 1)] - e,
            a[(1, 2)],
            2.0,
            a[(2, 0)],
            a[(2, 1)],
            a[(2, 2)] + e,
            3.0,
        ];
        let pose = pose_from_placement(&m);
        let got = pose.transform_point(&p);
        let want = r * p + Vec3::new(1.0, 2.0, 3.0);
        assert!((got - want).norm() < 1e-11, "{got:?} vs {want:?}");
    }

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

    /// A piece whose outer trim loop is the circle of radius `r` around `c`
    /// (four rational quarter arcs).
    fn circle_piece(c: [f64; 2], r: f64) -> crate::scene::data::Piece {
        use crate::scene::data::{Piece, TrimLoop};
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let quarter = |k: usize| -> TrimCurve {
            let rot = |x: f64, y: f64| match k {
                0 => (x, y),
                1 => (-y, x),
                2 => (-x, -y),
                _ => (y, -x),
            };
            TrimCurve::Bezier(
                [(1.0, 0.0, 1.0), (1.0, 1.0, w), (0.0, 1.0, 1.0)]
                    .iter()
                    .map(|&(x, y, wt)| {
                        let (x, y) = rot(x, y);
                        [(c[0] + r * x) * wt, (c[1] + r * y) * wt, wt]
                    })
                    .collect(),
            )
        };
        Piece {
            body: 0,
            source_face: 1,
            degree_u: 1,
            degree_v: 1,
            poles: vec![
                [0.0, 0.0, 0.0, 1.0],
                [0.0, 1.0, 0.0, 1.0],
                [1.0, 0.0, 0.0, 1.0],
                [1.0, 1.0, 0.0, 1.0],
            ],
            class: ConvexityClass::Planar,
            reversed: false,
            trimmed: true,
            fully_inside: false,
            domain: [0.0, 1.0, 0.0, 1.0],
            cone: Default::default(),
            bbox: Default::default(),
            trim_loops: vec![TrimLoop {
                outer: true,
                curves: (0..4).map(quarter).collect(),
            }],
            adjacency: Vec::new(),
            origin: None,
        }
    }

    #[test]
    fn exact_containment_near_a_circle() {
        let (c, r) = ([0.5, 0.45], 0.3);
        let p = circle_piece(c, r);
        let edges = trim_edges(&p);
        let polys = trim_polygons(&p);
        let mut polygon_wrong = 0;
        for k in 0..997 {
            let a = k as f64 * 0.0063;
            for (d, want) in [(-1e-9, true), (1e-9, false)] {
                let (s, t) = (c[0] + (r + d) * a.cos(), c[1] + (r + d) * a.sin());
                assert_eq!(edges_contain(&edges, s, t), want, "angle {a} offset {d}");
                if polygons_contain(&polys, s, t) != want {
                    polygon_wrong += 1;
                }
            }
        }
        // the flattened polygon gets the inner points between its vertices wrong
        assert!(polygon_wrong > 100, "{polygon_wrong}");
    }

    proptest::proptest! {
        #[test]
        fn exact_containment_matches_a_dense_polygon(
            cx in 0.3f64..0.7, cy in 0.3f64..0.7, r in 0.05f64..0.3,
            pts in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0), 64),
        ) {
            let p = circle_piece([cx, cy], r);
            let edges = trim_edges(&p);
            let n = 4096;
            let dense: Vec<Vec<[f64; 2]>> = vec![(0..n)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / n as f64;
                    [cx + r * a.cos(), cy + r * a.sin()]
                })
                .collect()];
            for (s, t) in pts {
                let d = ((s - cx).hypot(t - cy) - r).abs();
                if d > 1e-4 {
                    proptest::prop_assert_eq!(edges_contain(&edges, s, t), polygons_contain(&dense, s, t));
                }
            }
        }
    }

    #[test]
    fn box_distance() {
        let (lo, hi) = (Vec3::zeros(), Vec3::new(1.0, 1.0, 1.0));
        assert_eq!(box_dist2(&lo, &hi, &Vec3::new(0.5, 0.5, 0.5)), 0.0);
        assert!((box_dist2(&lo, &hi, &Vec3::new(2.0, 0.5, -1.0)) - 2.0).abs() < 1e-15);
    }
}

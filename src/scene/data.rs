//! The owned scene model ([`SceneData`]) the offline stage fills and the
//! writer serialises.
//!
//! Top-level features (bodies, pieces, edges, vertices, BVH nodes) live in
//! flat vectors and refer to each other by `u32` index, exactly as in the file;
//! variable-length data that belongs to one record (control points, knots, trim
//! loops, adjacency lists, Voronoi samples, incident lists, strings) is owned by
//! that record, and the writer packs it into the shared pools of the file.
//! [`SceneData::write`] is deterministic, and [`SceneView::to_data`](super::SceneView::to_data)
//! inverts it exactly, so `write → read → write` is byte-identical.

pub use super::records::{Aabb, BodyCheck, FaceCheck, NormalCone, Span, NONE};
use super::records::{
    BVH_INTERIOR, BVH_LEAF, EDGE_BOUNDARY, EDGE_CREASE, EDGE_SEAM, FEATURE_EDGE, FEATURE_PIECE, FEATURE_VERTEX,
    MAP_CURVE, MAP_CURVE_REVERSED, MAP_LINEAR, SIDE_TRIM, SIDE_U0, SIDE_U1, SIDE_V0, SIDE_V1, TRIM_BEZIER,
    TRIM_POLYLINE,
};

/// A whole prepared scene, owned.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SceneData {
    /// Source, producer, importer warnings and tolerances.
    pub meta: Meta,
    /// Bodies (each owns contiguous ranges of pieces, edges, vertices and BVH nodes).
    pub bodies: Vec<Body>,
    /// All pieces of all bodies.
    pub pieces: Vec<Piece>,
    /// All edge features.
    pub edges: Vec<Edge>,
    /// All vertex features.
    pub vertices: Vec<Vertex>,
    /// All BVH nodes of all bodies.
    pub bvh_nodes: Vec<BvhNode>,
    /// The NURBS surfaces pieces were cut from (optional section since 2.1;
    /// pieces refer to them through [`Piece::origin`]).
    pub surfaces: Vec<SurfaceNet>,
    /// The self-check of each source face against the Model (optional
    /// section since 2.2, written only when non-empty; `notes/SELFCHECK.md`).
    /// Empty: the scene was not checked.
    pub face_checks: Vec<FaceCheck>,
    /// The self-check of each body (optional section since 2.2), in
    /// increasing body order, at most one per body.
    pub body_checks: Vec<BodyCheck>,
}

/// A NURBS surface pieces were cut from: the face's surface as the offline
/// stage converted it (exact NURBS of the face's geometry over the face's
/// range). Stored once per face, so a packed scene can derive its pieces'
/// Bézier poles instead of storing them (`formats/scene.md`, "Packed container").
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceNet {
    /// Degree in u.
    pub degree_u: u32,
    /// Degree in v.
    pub degree_v: u32,
    /// Number of poles in u.
    pub count_u: u32,
    /// Number of poles in v.
    pub count_v: u32,
    /// Knot vector in u (`count_u + degree_u + 1` values).
    pub knots_u: Vec<f64>,
    /// Knot vector in v (`count_v + degree_v + 1` values).
    pub knots_v: Vec<f64>,
    /// `count_u × count_v` homogeneous poles `[w·x, w·y, w·z, w]`, u index outer.
    pub poles: Vec<[f64; 4]>,
}

/// Where a piece lies on its surface: the Bézier span `(span_u, span_v)` of
/// [`SceneData::surfaces`]`[surface]` (non-empty knot spans counted from 0)
/// restricted to `rect` in the span's normalised `[0,1]²`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceOrigin {
    /// Index into [`SceneData::surfaces`].
    pub surface: u32,
    /// Non-empty knot span indices `(u, v)`.
    pub span: [u32; 2],
    /// `[s0, s1, t0, t1]` inside the span.
    pub rect: [f64; 4],
}

/// Where the scene came from and how it was prepared.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Meta {
    /// Source CAD file name.
    pub source_name: String,
    /// Producer, e.g. `extrack 0.1.0`.
    pub producer: String,
    /// Format of the source file.
    pub source_format: SourceKind,
    /// The importer's warnings, in order.
    pub warnings: Vec<String>,
    /// Named tolerances of the offline stage, unit in the name (`linear_mm`, `angular_rad`, …).
    pub tolerances: Vec<Tolerance>,
}

/// Format of the source CAD file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceKind {
    /// Unknown or synthesised.
    #[default]
    Unknown,
    /// IGES.
    Iges,
    /// STEP.
    Step,
}

impl SourceKind {
    /// File code.
    pub fn code(self) -> u32 {
        match self {
            SourceKind::Unknown => 0,
            SourceKind::Iges => 1,
            SourceKind::Step => 2,
        }
    }
    /// From a file code.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(SourceKind::Unknown),
            1 => Some(SourceKind::Iges),
            2 => Some(SourceKind::Step),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Unknown => "unknown",
            SourceKind::Iges => "iges",
            SourceKind::Step => "step",
        }
    }
}

/// A named tolerance.
#[derive(Debug, Clone, PartialEq)]
pub struct Tolerance {
    /// Name with unit, e.g. `linear_mm`.
    pub name: String,
    /// Value.
    pub value: f64,
}

/// What a body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BodyKind {
    /// A closed solid (inside/outside defined).
    #[default]
    Solid,
    /// An open shell.
    OpenShell,
    /// Loose faces.
    Faces,
}

impl BodyKind {
    /// File code.
    pub fn code(self) -> u32 {
        match self {
            BodyKind::Solid => 0,
            BodyKind::OpenShell => 1,
            BodyKind::Faces => 2,
        }
    }
    /// From a file code.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(BodyKind::Solid),
            1 => Some(BodyKind::OpenShell),
            2 => Some(BodyKind::Faces),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Solid => "solid",
            BodyKind::OpenShell => "open_shell",
            BodyKind::Faces => "faces",
        }
    }
}

/// A body.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Name (may be empty).
    pub name: String,
    /// Kind.
    pub kind: BodyKind,
    /// Source entity id.
    pub source_id: u64,
    /// Body-local → world, 3×4 row-major `[R | t]`.
    pub placement: [f64; 12],
    /// Bounding box (body-local).
    pub bbox: Aabb,
    /// Range into [`SceneData::pieces`].
    pub pieces: Span,
    /// Range into [`SceneData::edges`].
    pub edges: Span,
    /// Range into [`SceneData::vertices`].
    pub vertices: Span,
    /// Range into [`SceneData::bvh_nodes`].
    pub bvh: Span,
    /// Root node (absolute index), [`NONE`] when `bvh` is empty.
    pub bvh_root: u32,
}

/// The identity placement.
pub const IDENTITY_PLACEMENT: [f64; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// Convexity class of a piece w.r.t. its outward normal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord, Hash)]
pub enum ConvexityClass {
    /// Flat.
    Planar,
    /// Convex (second fundamental form negative semidefinite w.r.t. the outward normal).
    Convex,
    /// Concave.
    Concave,
    /// Saddle-shaped everywhere.
    Saddle,
    /// Not decided / several kinds (the far phase subdivides it).
    #[default]
    Mixed,
}

impl ConvexityClass {
    /// All classes in code order.
    pub const ALL: [ConvexityClass; 5] = [
        ConvexityClass::Planar,
        ConvexityClass::Convex,
        ConvexityClass::Concave,
        ConvexityClass::Saddle,
        ConvexityClass::Mixed,
    ];
    /// File code.
    pub fn code(self) -> u32 {
        self as u32
    }
    /// From a file code.
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            ConvexityClass::Planar => "planar",
            ConvexityClass::Convex => "convex",
            ConvexityClass::Concave => "concave",
            ConvexityClass::Saddle => "saddle",
            ConvexityClass::Mixed => "mixed",
        }
    }
}

/// A rational Bézier piece on `[0,1]²`.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Owning body.
    pub body: u32,
    /// Source face entity id.
    pub source_face: u64,
    /// Degree in u.
    pub degree_u: u32,
    /// Degree in v.
    pub degree_v: u32,
    /// `(degree_u+1)(degree_v+1)` homogeneous poles `[w·x, w·y, w·z, w]`, u index outer.
    pub poles: Vec<[f64; 4]>,
    /// Convexity class.
    pub class: ConvexityClass,
    /// Outward normal is `−(f_u × f_v)`.
    pub reversed: bool,
    /// Partly trimmed.
    pub trimmed: bool,
    /// Fully inside the face's trims.
    pub fully_inside: bool,
    /// `[u0, u1, v0, v1]` sub-rectangle of the face's parameter domain.
    pub domain: [f64; 4],
    /// Normal cone.
    pub cone: NormalCone,
    /// Bounding box (body-local).
    pub bbox: Aabb,
    /// Trim loops in the piece's normalised parameters.
    pub trim_loops: Vec<TrimLoop>,
    /// Neighbours across the boundaries.
    pub adjacency: Vec<Adjacency>,
    /// Where the piece was cut from (`None` for pieces made without a surface).
    pub origin: Option<PieceOrigin>,
}

impl Piece {
    /// Even-odd test of the piece parameters `(s, t)` against the piece's trim
    /// loops (polylines as given; Bézier trim curves by their control
    /// polygons). A piece without trim loops is not "inside" by this test —
    /// callers treat an untrimmed piece as entirely kept.
    pub fn trim_contains(&self, s: f64, t: f64) -> bool {
        let mut inside = false;
        let mut edge = |a: [f64; 2], b: [f64; 2]| {
            if (a[1] > t) != (b[1] > t) && s < a[0] + (t - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
                inside = !inside;
            }
        };
        for l in &self.trim_loops {
            for c in &l.curves {
                match c {
                    TrimCurve::Polyline(v) => v.windows(2).for_each(|w| edge(w[0], w[1])),
                    TrimCurve::Bezier(v) => v.windows(2).for_each(|w| {
                        edge(
                            [w[0][0] / w[0][2], w[0][1] / w[0][2]],
                            [w[1][0] / w[1][2], w[1][1] / w[1][2]],
                        )
                    }),
                }
            }
        }
        inside
    }
}

/// A closed trim loop.
#[derive(Debug, Clone, PartialEq)]
pub struct TrimLoop {
    /// Outer boundary (else a hole).
    pub outer: bool,
    /// Consecutive curves.
    pub curves: Vec<TrimCurve>,
}

/// A curve of a trim loop.
#[derive(Debug, Clone, PartialEq)]
pub enum TrimCurve {
    /// Polyline through `(u, v)` points (≥ 2).
    Polyline(Vec<[f64; 2]>),
    /// Rational Bézier curve with homogeneous points `[w·u, w·v, w]`; degree = points − 1.
    Bezier(Vec<[f64; 3]>),
}

impl TrimCurve {
    /// File kind code.
    pub fn kind_code(&self) -> u32 {
        match self {
            TrimCurve::Polyline(_) => TRIM_POLYLINE,
            TrimCurve::Bezier(_) => TRIM_BEZIER,
        }
    }
}

/// A piece boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Boundary {
    /// `u = 0`.
    U0,
    /// `u = 1`.
    U1,
    /// `v = 0`.
    V0,
    /// `v = 1`.
    V1,
    /// A trim curve: loop index and curve index local to the piece.
    Trim {
        /// Loop index in [`Piece::trim_loops`].
        trim_loop: u32,
        /// Curve index in [`TrimLoop::curves`].
        curve: u32,
    },
}

impl Boundary {
    /// `(side, trim_loop, trim_curve)` file codes.
    pub fn codes(self) -> (u32, u32, u32) {
        match self {
            Boundary::U0 => (SIDE_U0, NONE, NONE),
            Boundary::U1 => (SIDE_U1, NONE, NONE),
            Boundary::V0 => (SIDE_V0, NONE, NONE),
            Boundary::V1 => (SIDE_V1, NONE, NONE),
            Boundary::Trim { trim_loop, curve } => (SIDE_TRIM, trim_loop, curve),
        }
    }
    /// From file codes (`None` for an unknown side code or stray trim indices).
    pub fn from_codes(side: u32, trim_loop: u32, trim_curve: u32) -> Option<Self> {
        let plain = trim_loop == NONE && trim_curve == NONE;
        match side {
            SIDE_U0 if plain => Some(Boundary::U0),
            SIDE_U1 if plain => Some(Boundary::U1),
            SIDE_V0 if plain => Some(Boundary::V0),
            SIDE_V1 if plain => Some(Boundary::V1),
            SIDE_TRIM => Some(Boundary::Trim {
                trim_loop,
                curve: trim_curve,
            }),
            _ => None,
        }
    }
    /// Short name: `u0`, `u1`, `v0`, `v1`, `trim(L,C)`.
    pub fn label(self) -> String {
        match self {
            Boundary::U0 => "u0".into(),
            Boundary::U1 => "u1".into(),
            Boundary::V0 => "v0".into(),
            Boundary::V1 => "v1".into(),
            Boundary::Trim { trim_loop, curve } => format!("trim({trim_loop},{curve})"),
        }
    }
}

/// A feature of the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FeatureRef {
    /// Index into pieces.
    Piece(u32),
    /// Index into edges.
    Edge(u32),
    /// Index into vertices.
    Vertex(u32),
}

impl FeatureRef {
    /// `(kind, index)` file codes.
    pub fn codes(self) -> (u32, u32) {
        match self {
            FeatureRef::Piece(i) => (FEATURE_PIECE, i),
            FeatureRef::Edge(i) => (FEATURE_EDGE, i),
            FeatureRef::Vertex(i) => (FEATURE_VERTEX, i),
        }
    }
    /// From file codes.
    pub fn from_codes(kind: u32, index: u32) -> Option<Self> {
        match kind {
            FEATURE_PIECE => Some(FeatureRef::Piece(index)),
            FEATURE_EDGE => Some(FeatureRef::Edge(index)),
            FEATURE_VERTEX => Some(FeatureRef::Vertex(index)),
            _ => None,
        }
    }
    /// Short label: `piece 3`, `edge 1`, `vertex 0`.
    pub fn label(self) -> String {
        match self {
            FeatureRef::Piece(i) => format!("piece {i}"),
            FeatureRef::Edge(i) => format!("edge {i}"),
            FeatureRef::Vertex(i) => format!("vertex {i}"),
        }
    }
}

/// One neighbour of a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjacency {
    /// The piece boundary.
    pub boundary: Boundary,
    /// The neighbour across it.
    pub feature: FeatureRef,
}

/// Kind of an edge feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EdgeKind {
    /// B-rep edge between faces.
    #[default]
    Crease,
    /// Between two pieces of one face.
    Seam,
    /// Boundary of an open shell.
    Boundary,
}

impl EdgeKind {
    /// File code.
    pub fn code(self) -> u32 {
        match self {
            EdgeKind::Crease => EDGE_CREASE,
            EdgeKind::Seam => EDGE_SEAM,
            EdgeKind::Boundary => EDGE_BOUNDARY,
        }
    }
    /// From a file code.
    pub fn from_code(code: u32) -> Option<Self> {
        match code {
            EDGE_CREASE => Some(EdgeKind::Crease),
            EDGE_SEAM => Some(EdgeKind::Seam),
            EDGE_BOUNDARY => Some(EdgeKind::Boundary),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Crease => "crease",
            EdgeKind::Seam => "seam",
            EdgeKind::Boundary => "boundary",
        }
    }
}

/// Map from the edge parameter `t ∈ [0,1]` to a piece's `(u, v)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamMap {
    /// `uv_start + t (uv_end − uv_start)`.
    Linear {
        /// `(u,v)` at `t = 0`.
        start: [f64; 2],
        /// `(u,v)` at `t = 1`.
        end: [f64; 2],
    },
    /// The side's trim curve at `s = t`.
    Curve,
    /// The side's trim curve at `s = 1 − t`.
    CurveReversed,
}

impl ParamMap {
    /// `(code, start, end)` as stored (zeros for curve maps).
    pub fn codes(self) -> (u32, [f64; 2], [f64; 2]) {
        match self {
            ParamMap::Linear { start, end } => (MAP_LINEAR, start, end),
            ParamMap::Curve => (MAP_CURVE, [0.0; 2], [0.0; 2]),
            ParamMap::CurveReversed => (MAP_CURVE_REVERSED, [0.0; 2], [0.0; 2]),
        }
    }
}

/// How an edge lies on one adjacent piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeSide {
    /// The piece ([`NONE`] for none).
    pub piece: u32,
    /// The piece boundary along the edge.
    pub boundary: Boundary,
    /// Edge parameter → piece parameters.
    pub map: ParamMap,
}

impl EdgeSide {
    /// No piece on this side (open-shell boundary).
    pub const NONE: EdgeSide = EdgeSide {
        piece: NONE,
        boundary: Boundary::U0,
        map: ParamMap::Linear {
            start: [0.0; 2],
            end: [0.0; 2],
        },
    };
}

/// One Voronoi sample along an edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EdgeSample {
    /// Edge parameter in `[0,1]` (the point is the edge curve there).
    pub t: f64,
    /// Outward normal of side 0's piece.
    pub normal_a: [f64; 3],
    /// Outward normal of side 1's piece (zero when none).
    pub normal_b: [f64; 3],
}

/// An edge feature.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// Kind.
    pub kind: EdgeKind,
    /// Source edge entity id.
    pub source_id: u64,
    /// Owning body.
    pub body: u32,
    /// Vertices at `t = 0`, `t = 1` ([`NONE`] allowed).
    pub vertices: [u32; 2],
    /// Degree of the 3-D curve.
    pub curve_degree: u32,
    /// Knot vector (`poles.len() + curve_degree + 1` values).
    pub knots: Vec<f64>,
    /// Homogeneous poles.
    pub poles: Vec<[f64; 4]>,
    /// The two sides (piece a, piece b).
    pub sides: [EdgeSide; 2],
    /// Voronoi samples in increasing `t`.
    pub samples: Vec<EdgeSample>,
}

/// A vertex feature.
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    /// Owning body.
    pub body: u32,
    /// Source vertex entity id.
    pub source_id: u64,
    /// Position.
    pub point: [f64; 3],
    /// Normal cone of the adjacent faces.
    pub cone: NormalCone,
    /// Incident edges.
    pub edges: Vec<u32>,
    /// Incident pieces.
    pub pieces: Vec<u32>,
}

/// A BVH node.
#[derive(Debug, Clone, PartialEq)]
pub struct BvhNode {
    /// Bounds.
    pub bbox: Aabb,
    /// Children or pieces.
    pub kind: BvhKind,
}

/// Interior or leaf.
#[derive(Debug, Clone, PartialEq)]
pub enum BvhKind {
    /// Two children (absolute node indices, greater than the node's own).
    Interior(u32, u32),
    /// Piece indices of the body.
    Leaf(Vec<u32>),
}

impl BvhKind {
    /// File kind code.
    pub fn code(&self) -> u32 {
        match self {
            BvhKind::Interior(..) => BVH_INTERIOR,
            BvhKind::Leaf(_) => BVH_LEAF,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for c in ConvexityClass::ALL {
            assert_eq!(ConvexityClass::from_code(c.code()), Some(c));
        }
        assert_eq!(ConvexityClass::from_code(5), None);
        for k in [BodyKind::Solid, BodyKind::OpenShell, BodyKind::Faces] {
            assert_eq!(BodyKind::from_code(k.code()), Some(k));
        }
        for k in [EdgeKind::Crease, EdgeKind::Seam, EdgeKind::Boundary] {
            assert_eq!(EdgeKind::from_code(k.code()), Some(k));
        }
        for k in [SourceKind::Unknown, SourceKind::Iges, SourceKind::Step] {
            assert_eq!(SourceKind::from_code(k.code()), Some(k));
        }
        for b in [
            Boundary::U0,
            Boundary::U1,
            Boundary::V0,
            Boundary::V1,
            Boundary::Trim { trim_loop: 2, curve: 7 },
        ] {
            let (s, l, c) = b.codes();
            assert_eq!(Boundary::from_codes(s, l, c), Some(b));
        }
        assert_eq!(Boundary::from_codes(SIDE_U0, 0, NONE), None, "stray trim index");
        assert_eq!(Boundary::from_codes(9, NONE, NONE), None);
        for f in [FeatureRef::Piece(1), FeatureRef::Edge(2), FeatureRef::Vertex(3)] {
            let (k, i) = f.codes();
            assert_eq!(FeatureRef::from_codes(k, i), Some(f));
        }
        assert_eq!(FeatureRef::from_codes(3, 0), None);
    }
}

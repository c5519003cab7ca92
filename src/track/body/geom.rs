//! The runtime forms of a body's features: pieces (evaluable rational
//! Bézier patches on `[0,1]²` with their trims), edges (exact NURBS curves),
//! vertices, trim curves, the far phase's cells and the BVH nodes, gathered
//! in [`BodyGeom`].

use super::oriented::OrientedBox;
use super::tangent_cones::CellCones;
use super::trim_loops::{TrimBands, TrimEdge};
use crate::geom::{NurbsCurve, NurbsSurface, Pose, SpanCurve, Vec3};
use crate::scene::data::{BodyKind, Boundary, ConvexityClass, EdgeKind, FeatureRef};

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
    /// The B-rep edge along it (body-local), [`NONE`](crate::scene::data::NONE) when the face has no edge there.
    pub edge: u32,
    /// Its far-phase cell.
    pub cell: u32,
    /// The surface points at [`TRIM_SAMPLES`](super::TRIM_SAMPLES) + 1
    /// evenly spaced parameters of the curve ([`trim_samples`](super::trim_samples)),
    /// computed once when the body is built: the start of every solve of the
    /// curve, cold or tracked, is the nearest of them to the query
    /// ([`trim_start`](crate::track::far::trim_start)), the same bit for bit.
    pub samples: super::TrimSamples,
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
    /// The trim classes of its 4 × 4 sixteenths (all kept but in a
    /// [`CellTrim::Partial`] cell).
    pub sixteenths: super::Sixteenths,
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
    /// `trim_edges` by bands of `v` (what [`BodyGeom::piece_keeps`] scans).
    pub trim_bands: TrimBands,
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
    /// The same curve as Bézier spans, converted once: what the trackers
    /// evaluate (a fixed-degree Bernstein sum instead of a NURBS span search
    /// and basis triangle per evaluation).
    pub spans: SpanCurve,
    /// End vertices (body-local indices, [`NONE`](crate::scene::data::NONE) for none).
    pub vertices: [u32; 2],
    /// The pieces on each side (body-local, [`NONE`](crate::scene::data::NONE) for none).
    pub pieces: [u32; 2],
    /// Voronoi samples: `(t, point, normal_a + normal_b)` (the edge pseudo-normal) in increasing `t`.
    pub pseudo_normals: Vec<(f64, Vec3, Vec3)>,
    /// The cusp kind where the two faces meet tangentially with opposite
    /// normals (their samples' sum then holds the cusp's limit direction).
    pub cusp: Option<super::cusps::Cusp>,
    /// Range of the edge's cells.
    pub cells: std::ops::Range<u32>,
    /// The box around all the edge's cells (`lo`, `hi`): a point farther
    /// from it than a tolerance is off the edge without a look at its cells.
    pub bounds: (Vec3, Vec3),
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
    /// The oriented box of each cell (same order as [`cells`](Self::cells)):
    /// the far phase's tight lower bound.
    pub cell_boxes: Vec<OrientedBox>,
    /// The oriented boxes of each piece cell's four quarters (halved in `u`
    /// and `v`; the piece cells come first in [`cells`](Self::cells), the
    /// cells of edges and trim curves have none): the cell lies in their
    /// union, so the least of their distances is a lower bound about four
    /// times tighter than the whole box's on a curved cell.
    pub cell_quarters: Vec<[OrientedBox; 4]>,
    /// The tangent cones of each cell (same order as [`cells`](Self::cells);
    /// `CellCones::NONE` for trim curves): a cell on which the distance is
    /// monotone towards a side inside its piece, a seam, or an interior
    /// breakpoint of its edge holds no minimum of the body
    /// (`CellCones::excludes`).
    pub cell_cones: Vec<CellCones>,
    /// BVH nodes (children after their parent).
    pub nodes: Vec<Node>,
    /// Items of the leaves.
    pub leaf_items: Vec<Item>,
    /// Root node.
    pub root: u32,
    /// The same BVH 4-wide (every second level collapsed, built from
    /// [`nodes`](Self::nodes)): what the point–body far phase walks.
    pub wide: super::WideBvh,
    /// The verification status of answers on the body's pieces (from the
    /// scene's self-check; all unknown without one), set by [`TrackScene`](super::TrackScene).
    pub status: crate::track::status::BodyStatus,
}

impl BodyGeom {
    /// Number of far-phase cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }
}

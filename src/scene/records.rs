//! Plain-data `#[repr(C)]` records of the `.exs` format, exactly as they lie
//! in the file (little-endian, no padding inside a record, every record size a
//! multiple of 8 so arrays of them stay 8-byte aligned).
//!
//! The byte layout of every record is specified in `formats/scene.md`; the
//! `const` assertions at the end of this file pin the sizes. Enumerations are
//! stored as `u32` codes; the `*_CODE`/`from_code` helpers translate them.
//! A [`SceneView`](super::SceneView) validates every code, index and range
//! once, so a record obtained from a view always holds valid values.

use bytemuck::{Pod, Zeroable};

/// The eight magic bytes at offset 0 of every scene.
pub const MAGIC: [u8; 8] = *b"EXTRACK\0";
/// Major format version written and accepted (incompatible changes bump it).
pub const VERSION_MAJOR: u16 = 2;
/// Minor format version of this reader: the newest minor it knows (a newer
/// minor may only add optional sections). The writer writes it when the scene
/// holds a self-check (`face_checks` / `body_checks`, since 2.2), else
/// [`VERSION_MINOR_WITHOUT_CHECKS`].
pub const VERSION_MINOR: u16 = 2;
/// Minor version the writer writes for a scene without self-check sections:
/// such a file is exactly a 2.1 file (byte for byte what a 2.1 writer wrote).
pub const VERSION_MINOR_WITHOUT_CHECKS: u16 = 1;
/// Endianness marker: `0x0102_0304` written little-endian (bytes `04 03 02 01`).
pub const ENDIAN_MARKER: u32 = 0x0102_0304;
/// "No index" value of an optional `u32` index (no neighbour, no vertex, no BVH).
pub const NONE: u32 = u32::MAX;

/// Section-table flag: a reader that does not know the section id must reject the file.
pub const SECTION_REQUIRED: u32 = 1;

/// File header, 40 bytes at offset 0.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct Header {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// Major version ([`VERSION_MAJOR`]).
    pub version_major: u16,
    /// Minor version.
    pub version_minor: u16,
    /// [`ENDIAN_MARKER`].
    pub endian: u32,
    /// Header flags; none are defined in major version 1 (must be 0).
    pub flags: u32,
    /// Number of [`SectionEntry`] records following the header.
    pub section_count: u32,
    /// Total length of the file in bytes.
    pub total_len: u64,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// CRC-32 of header bytes `0..36` followed by the whole section table.
    pub header_crc: u32,
}

/// One entry of the section table, 40 bytes; the table follows the header.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct SectionEntry {
    /// Section id (see [`SectionId`]).
    pub id: u32,
    /// Bit 0: [`SECTION_REQUIRED`]; other bits must be 0.
    pub flags: u32,
    /// Byte offset from the start of the file (multiple of 8).
    pub offset: u64,
    /// Byte length (`record_size × record_count`).
    pub length: u64,
    /// Size of one record in bytes.
    pub record_size: u32,
    /// Number of records.
    pub record_count: u32,
    /// CRC-32 of the section's `length` bytes.
    pub crc: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
}

/// The section ids of format 2.2: those of 2.0 (all required, the same ids as
/// 1.0), the optional `surfaces` and `piece_origins` of 2.1 and the optional
/// `face_checks` and `body_checks` of 2.2 (see [`SectionId::is_required`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u32)]
pub enum SectionId {
    /// One [`MetaRecord`].
    Meta = 1,
    /// UTF-8 string blob (record size 1).
    Strings = 2,
    /// [`StrRef`] lists (importer warnings).
    StrRefs = 3,
    /// [`ToleranceRecord`]s.
    Tolerances = 4,
    /// [`BodyRecord`]s.
    Bodies = 5,
    /// [`PieceRecord`]s.
    Pieces = 6,
    /// Homogeneous control points `[w·x, w·y, w·z, w]` (f64 × 4).
    Poles = 7,
    /// [`TrimLoopRecord`]s.
    TrimLoops = 8,
    /// [`TrimCurveRecord`]s.
    TrimCurves = 9,
    /// Homogeneous 2-D trim points `[w·u, w·v, w]` (f64 × 3).
    TrimPoints = 10,
    /// [`AdjacencyRecord`]s.
    Adjacency = 11,
    /// [`EdgeRecord`]s.
    Edges = 12,
    /// Knot values (f64).
    Knots = 13,
    /// [`EdgeSampleRecord`]s.
    EdgeSamples = 14,
    /// [`VertexRecord`]s.
    Vertices = 15,
    /// Generic `u32` index lists.
    Indices = 16,
    /// [`BvhNodeRecord`]s.
    BvhNodes = 17,
    /// [`SurfaceRecord`]s (optional, since 2.1): the NURBS surfaces pieces were cut from.
    Surfaces = 18,
    /// [`PieceOriginRecord`]s (optional, since 2.1): one per piece, where it lies on its surface.
    PieceOrigins = 19,
    /// [`FaceCheck`]s (optional, since 2.2): the self-check of each source face.
    FaceChecks = 20,
    /// [`BodyCheck`]s (optional, since 2.2): the self-check of each body.
    BodyChecks = 21,
}

impl SectionId {
    /// All ids of format 2.2, in the order the writer lays them out.
    pub const ALL: [SectionId; 21] = [
        SectionId::Meta,
        SectionId::Strings,
        SectionId::StrRefs,
        SectionId::Tolerances,
        SectionId::Bodies,
        SectionId::Pieces,
        SectionId::Poles,
        SectionId::TrimLoops,
        SectionId::TrimCurves,
        SectionId::TrimPoints,
        SectionId::Adjacency,
        SectionId::Edges,
        SectionId::Knots,
        SectionId::EdgeSamples,
        SectionId::Vertices,
        SectionId::Indices,
        SectionId::BvhNodes,
        SectionId::Surfaces,
        SectionId::PieceOrigins,
        SectionId::FaceChecks,
        SectionId::BodyChecks,
    ];

    /// True for the sections every 2.x file holds; the others (added in
    /// minor versions) are optional: written without the required flag and
    /// read as empty when absent.
    pub fn is_required(self) -> bool {
        !matches!(
            self,
            SectionId::Surfaces | SectionId::PieceOrigins | SectionId::FaceChecks | SectionId::BodyChecks
        )
    }

    /// The id for a numeric code, `None` for ids this version does not know.
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.iter().copied().find(|s| *s as u32 == code)
    }

    /// Lower-case name used in messages and dumps.
    pub fn name(self) -> &'static str {
        match self {
            SectionId::Meta => "meta",
            SectionId::Strings => "strings",
            SectionId::StrRefs => "str_refs",
            SectionId::Tolerances => "tolerances",
            SectionId::Bodies => "bodies",
            SectionId::Pieces => "pieces",
            SectionId::Poles => "poles",
            SectionId::TrimLoops => "trim_loops",
            SectionId::TrimCurves => "trim_curves",
            SectionId::TrimPoints => "trim_points",
            SectionId::Adjacency => "adjacency",
            SectionId::Edges => "edges",
            SectionId::Knots => "knots",
            SectionId::EdgeSamples => "edge_samples",
            SectionId::Vertices => "vertices",
            SectionId::Indices => "indices",
            SectionId::BvhNodes => "bvh_nodes",
            SectionId::Surfaces => "surfaces",
            SectionId::PieceOrigins => "piece_origins",
            SectionId::FaceChecks => "face_checks",
            SectionId::BodyChecks => "body_checks",
        }
    }

    /// Size in bytes of one record of this section.
    pub fn record_size(self) -> usize {
        match self {
            SectionId::Meta => size_of::<MetaRecord>(),
            SectionId::Strings => 1,
            SectionId::StrRefs => size_of::<StrRef>(),
            SectionId::Tolerances => size_of::<ToleranceRecord>(),
            SectionId::Bodies => size_of::<BodyRecord>(),
            SectionId::Pieces => size_of::<PieceRecord>(),
            SectionId::Poles => size_of::<[f64; 4]>(),
            SectionId::TrimLoops => size_of::<TrimLoopRecord>(),
            SectionId::TrimCurves => size_of::<TrimCurveRecord>(),
            SectionId::TrimPoints => size_of::<[f64; 3]>(),
            SectionId::Adjacency => size_of::<AdjacencyRecord>(),
            SectionId::Edges => size_of::<EdgeRecord>(),
            SectionId::Knots => size_of::<f64>(),
            SectionId::EdgeSamples => size_of::<EdgeSampleRecord>(),
            SectionId::Vertices => size_of::<VertexRecord>(),
            SectionId::Indices => size_of::<u32>(),
            SectionId::BvhNodes => size_of::<BvhNodeRecord>(),
            SectionId::Surfaces => size_of::<SurfaceRecord>(),
            SectionId::PieceOrigins => size_of::<PieceOriginRecord>(),
            SectionId::FaceChecks => size_of::<FaceCheck>(),
            SectionId::BodyChecks => size_of::<BodyCheck>(),
        }
    }
}

/// A `(first, count)` range into another section.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable)]
pub struct Span {
    /// Index of the first record.
    pub first: u32,
    /// Number of records.
    pub count: u32,
}

impl Span {
    /// The span `first .. first + count`.
    pub const fn new(first: u32, count: u32) -> Self {
        Self { first, count }
    }
    /// The empty span at 0.
    pub const EMPTY: Span = Span { first: 0, count: 0 };
    /// As a `usize` range (`None` when `first + count` overflows `usize`).
    #[inline]
    pub fn range(self) -> Option<core::ops::Range<usize>> {
        let first = usize::try_from(self.first).ok()?;
        let end = first.checked_add(usize::try_from(self.count).ok()?)?;
        Some(first..end)
    }
}

/// A string in the string blob: byte offset and byte length of UTF-8 text.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Pod, Zeroable)]
pub struct StrRef {
    /// Byte offset into the strings section.
    pub offset: u32,
    /// Byte length.
    pub len: u32,
}

/// An axis-aligned bounding box, mm.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable)]
pub struct Aabb {
    /// Minimum corner.
    pub min: [f64; 3],
    /// Maximum corner (`max[i] >= min[i]`).
    pub max: [f64; 3],
}

/// A cone of directions: every direction `d` it stands for has `angle(d, axis) <= half_angle`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable)]
pub struct NormalCone {
    /// Unit axis.
    pub axis: [f64; 3],
    /// Half-angle in radians, in `[0, π]`.
    pub half_angle: f64,
}

/// Scene metadata (exactly one record).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct MetaRecord {
    /// Name of the source CAD file (no directories).
    pub source_name: StrRef,
    /// Producer of the scene (e.g. `extrack 0.1.0`).
    pub producer: StrRef,
    /// Source format code: 0 unknown, 1 IGES, 2 STEP.
    pub source_format: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// Importer warnings: range into the str_refs section.
    pub warnings: Span,
    /// Tolerances used by the offline stage: range into the tolerances section.
    pub tolerances: Span,
}

/// A named tolerance used by the offline stage (unit in the name, e.g. `linear_mm`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ToleranceRecord {
    /// Name.
    pub name: StrRef,
    /// Value (finite).
    pub value: f64,
}

/// A body: a solid, an open shell or loose faces, with its placement and feature ranges.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct BodyRecord {
    /// Name (may be empty).
    pub name: StrRef,
    /// Body kind code (see [`BodyKind`](super::BodyKind)).
    pub kind: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// Source entity id (STEP `#N` / IGES DE number; 0 = synthesised).
    pub source_id: u64,
    /// Body-local → world: 3×4 row-major `[R | t]` (rows `r00 r01 r02 tx`, …).
    pub placement: [f64; 12],
    /// Bounding box of the body's pieces in body-local coordinates.
    pub bbox: Aabb,
    /// The body's pieces (range into pieces).
    pub pieces: Span,
    /// The body's edges (range into edges).
    pub edges: Span,
    /// The body's vertices (range into vertices).
    pub vertices: Span,
    /// The body's BVH nodes (range into bvh_nodes).
    pub bvh: Span,
    /// Root node (absolute index into bvh_nodes, inside `bvh`), [`NONE`] when `bvh` is empty.
    pub bvh_root: u32,
    /// Reserved, must be 0.
    pub reserved2: u32,
}

/// Piece flag: the outward normal is `−(f_u × f_v)`.
pub const PIECE_REVERSED: u32 = 1;
/// Piece flag: the piece is partly trimmed (its trim loops cut its square).
pub const PIECE_TRIMMED: u32 = 2;
/// Piece flag: the piece lies fully inside the face's trims (no loop cuts it).
pub const PIECE_FULLY_INSIDE: u32 = 4;
/// All defined piece flag bits.
pub const PIECE_FLAGS_ALL: u32 = PIECE_REVERSED | PIECE_TRIMMED | PIECE_FULLY_INSIDE;

/// A piece: a rational Bézier patch on `[0,1]²` cut from one face.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct PieceRecord {
    /// Owning body (index into bodies; the piece lies in that body's range).
    pub body: u32,
    /// Convexity class code (see [`ConvexityClass`](super::ConvexityClass)).
    pub class: u32,
    /// Source face entity id.
    pub source_face: u64,
    /// Degree in u (1..=15).
    pub degree_u: u32,
    /// Degree in v (1..=15).
    pub degree_v: u32,
    /// Control points: range into poles, `(degree_u+1)(degree_v+1)` of them, u index outer.
    pub poles: Span,
    /// [`PIECE_REVERSED`] | [`PIECE_TRIMMED`] | [`PIECE_FULLY_INSIDE`].
    pub flags: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// `[u0, u1, v0, v1]`: piece `(s, t)` ∈ `[0,1]²` is face `(u0 + s(u1−u0), v0 + t(v1−v0))`.
    pub domain: [f64; 4],
    /// Normal cone of the outward normals.
    pub cone: NormalCone,
    /// Bounding box (body-local).
    pub bbox: Aabb,
    /// Trim loops in the piece's `[0,1]²` parameters (range into trim_loops).
    pub trim_loops: Span,
    /// Neighbour features per boundary (range into adjacency).
    pub adjacency: Span,
}

/// A NURBS surface pieces were cut from (section `surfaces`, optional since 2.1).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct SurfaceRecord {
    /// Degree in u (1..=15).
    pub degree_u: u32,
    /// Degree in v (1..=15).
    pub degree_v: u32,
    /// Number of poles in u (`> degree_u`).
    pub count_u: u32,
    /// Number of poles in v (`> degree_v`).
    pub count_v: u32,
    /// Knot vector in u: range into knots, `count_u + degree_u + 1` values.
    pub knots_u: Span,
    /// Knot vector in v: range into knots, `count_v + degree_v + 1` values.
    pub knots_v: Span,
    /// Homogeneous poles: range into poles, `count_u × count_v`, u index outer.
    pub poles: Span,
}

/// Where a piece lies on its surface (section `piece_origins`, optional since
/// 2.1, one record per piece): its poles are the surface's Bézier span
/// `(span_u, span_v)` restricted to `rect` (`geom::bernstein::restrict_poles`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct PieceOriginRecord {
    /// Index into surfaces, or [`NONE`] when the piece has no recorded origin.
    pub surface: u32,
    /// Index of the non-empty u knot span (0-based, increasing u).
    pub span_u: u32,
    /// Index of the non-empty v knot span.
    pub span_v: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// `[s0, s1, t0, t1]` ⊆ `[0,1]²` inside the span's normalised parameters.
    pub rect: [f64; 4],
}

/// Face-check bit: a face of the source file that is not in the scene.
pub const FACE_DROPPED: u32 = 1;
/// Face-check bit: the area of the face's pieces differs from the face's trimmed area.
pub const FACE_COVERAGE: u32 = 2;
/// Face-check bit: a sample of the face's pieces lies off the source face.
pub const FACE_CONTAINMENT: u32 = 4;
/// Face-check bit: a Model edge of the face is not on the boundary of its pieces.
pub const FACE_BOUNDARY: u32 = 8;
/// Face-check bit: the check could not run on this face (e.g. no exact evaluation).
pub const FACE_NOT_CHECKED: u32 = 16;
/// All defined face-check bits.
pub const FACE_CHECK_BITS: u32 = FACE_DROPPED | FACE_COVERAGE | FACE_CONTAINMENT | FACE_BOUNDARY | FACE_NOT_CHECKED;
/// The face-check bits with their names (`dropped`, `coverage`, …), in bit order.
pub const FACE_CHECK_NAMES: [(u32, &str); 5] = [
    (FACE_DROPPED, "dropped"),
    (FACE_COVERAGE, "coverage"),
    (FACE_CONTAINMENT, "containment"),
    (FACE_BOUNDARY, "boundary"),
    (FACE_NOT_CHECKED, "not_checked"),
];

/// Body-check bit: a closed shell lost a face (its signed distance is unreliable).
pub const BODY_SHELL_INCOMPLETE: u32 = 1;
/// Body-check bit: some face of the body failed its check.
pub const BODY_FACES_FAILED: u32 = 2;
/// All defined body-check bits.
pub const BODY_CHECK_BITS: u32 = BODY_SHELL_INCOMPLETE | BODY_FACES_FAILED;
/// The body-check bits with their names, in bit order.
pub const BODY_CHECK_NAMES: [(u32, &str); 2] = [
    (BODY_SHELL_INCOMPLETE, "shell_incomplete"),
    (BODY_FACES_FAILED, "faces_failed"),
];

/// The names of the bits of `bits` found in `names`, in bit order.
pub fn bit_names(bits: u32, names: &[(u32, &'static str)]) -> Vec<&'static str> {
    names.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| *n).collect()
}

/// The self-check of one source face against the Model (section
/// `face_checks`, optional since 2.2; `notes/SELFCHECK.md`). Also written for
/// faces of the file that never became pieces ([`FACE_DROPPED`]).
///
/// Measures are `>= 0`, `+∞` (unbounded) or NaN (not measured).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct FaceCheck {
    /// The face's entity id in the source file (STEP `#N` / IGES DE number), as [`PieceRecord::source_face`].
    pub source_face: u64,
    /// Scene body index, [`NONE`] when the face belongs to no body.
    pub body: u32,
    /// Bitset of [`FACE_DROPPED`] … [`FACE_NOT_CHECKED`]; 0 = verified.
    pub failed: u32,
    /// mm², the face's trimmed area from the Model's own boundary (NaN if not computed).
    pub model_area: f64,
    /// mm², total area of the face's pieces.
    pub piece_area: f64,
    /// mm, largest distance of a sample of the face's pieces from the source face; 0 if none.
    pub worst_containment: f64,
    /// mm, largest distance of a Model edge sample from the boundary of the face's pieces.
    pub worst_boundary: f64,
}

/// The self-check of one body (section `body_checks`, optional since 2.2;
/// `notes/SELFCHECK.md`). At most one record per body, in increasing body order.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct BodyCheck {
    /// Scene body index.
    pub body: u32,
    /// Bitset of [`BODY_SHELL_INCOMPLETE`], [`BODY_FACES_FAILED`]; 0 = verified.
    pub failed: u32,
    /// Faces of the body not in the scene.
    pub dropped_faces: u32,
    /// Faces of the body that failed a check (dropped ones included).
    pub failed_faces: u32,
}

/// Trim-loop flag: the loop is an outer boundary (else a hole).
pub const LOOP_OUTER: u32 = 1;

/// A closed trim loop of a piece: consecutive trim curves.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct TrimLoopRecord {
    /// Curves of the loop (range into trim_curves).
    pub curves: Span,
    /// [`LOOP_OUTER`] or 0.
    pub flags: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
}

/// Trim-curve kind code: polyline through its points (all weights 1), parameter `s ∈ [0,1]`
/// spread uniformly over the segments.
pub const TRIM_POLYLINE: u32 = 0;
/// Trim-curve kind code: rational Bézier curve of `degree` on `s ∈ [0,1]`.
pub const TRIM_BEZIER: u32 = 1;

/// One curve of a trim loop, in the piece's normalised parameters.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct TrimCurveRecord {
    /// [`TRIM_POLYLINE`] or [`TRIM_BEZIER`].
    pub kind: u32,
    /// Degree (1 for a polyline).
    pub degree: u32,
    /// Points `[w·u, w·v, w]` (range into trim_points): ≥ 2 for a polyline, `degree + 1` for a Bézier.
    pub points: Span,
}

/// Boundary side code: `u = 0`.
pub const SIDE_U0: u32 = 0;
/// Boundary side code: `u = 1`.
pub const SIDE_U1: u32 = 1;
/// Boundary side code: `v = 0`.
pub const SIDE_V0: u32 = 2;
/// Boundary side code: `v = 1`.
pub const SIDE_V1: u32 = 3;
/// Boundary side code: a trim curve of the piece (`trim_loop`, `trim_curve`).
pub const SIDE_TRIM: u32 = 4;

/// A piece boundary: one side of `[0,1]²`, or a trim curve of the piece.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct BoundaryRecord {
    /// `SIDE_U0..=SIDE_TRIM`.
    pub side: u32,
    /// For [`SIDE_TRIM`]: loop index local to the piece's trim loops, else [`NONE`].
    pub trim_loop: u32,
    /// For [`SIDE_TRIM`]: curve index local to that loop, else [`NONE`].
    pub trim_curve: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
}

/// Feature kind code: piece.
pub const FEATURE_PIECE: u32 = 0;
/// Feature kind code: edge (crease, seam or open boundary).
pub const FEATURE_EDGE: u32 = 1;
/// Feature kind code: vertex.
pub const FEATURE_VERTEX: u32 = 2;

/// A reference to a feature of the scene.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct FeatureRecord {
    /// `FEATURE_PIECE`, `FEATURE_EDGE` or `FEATURE_VERTEX`.
    pub kind: u32,
    /// Index into pieces, edges or vertices.
    pub index: u32,
}

/// One neighbour of a piece across one of its boundaries.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Pod, Zeroable)]
pub struct AdjacencyRecord {
    /// The boundary of the piece.
    pub boundary: BoundaryRecord,
    /// The neighbouring feature across it.
    pub feature: FeatureRecord,
}

/// Parameter-map code: `(u,v)(t) = uv_start + t (uv_end − uv_start)`.
pub const MAP_LINEAR: u32 = 0;
/// Parameter-map code: `(u,v)(t)` = the boundary's trim curve at `s = t`.
pub const MAP_CURVE: u32 = 1;
/// Parameter-map code: `(u,v)(t)` = the boundary's trim curve at `s = 1 − t`.
pub const MAP_CURVE_REVERSED: u32 = 2;

/// How an edge lies on one of its two adjacent pieces.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct EdgeSideRecord {
    /// Adjacent piece (index into pieces), [`NONE`] for none (open-shell boundary).
    pub piece: u32,
    /// `MAP_LINEAR`, `MAP_CURVE` or `MAP_CURVE_REVERSED`.
    pub map: u32,
    /// The piece boundary the edge runs along.
    pub boundary: BoundaryRecord,
    /// `(u, v)` of the piece at edge parameter `t = 0` (linear map).
    pub uv_start: [f64; 2],
    /// `(u, v)` of the piece at edge parameter `t = 1` (linear map).
    pub uv_end: [f64; 2],
}

/// Edge kind code: a B-rep edge between two faces (crease).
pub const EDGE_CREASE: u32 = 0;
/// Edge kind code: a seam between two pieces of one face.
pub const EDGE_SEAM: u32 = 1;
/// Edge kind code: a boundary of an open shell (one adjacent piece).
pub const EDGE_BOUNDARY: u32 = 2;

/// An edge feature: its 3-D curve, end vertices, adjacent pieces and Voronoi data.
///
/// The edge parameter `t ∈ [0,1]` is the curve's knot domain `[k_p, k_n]` mapped linearly.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct EdgeRecord {
    /// `EDGE_CREASE`, `EDGE_SEAM` or `EDGE_BOUNDARY`.
    pub kind: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// Source edge entity id (0 for seams).
    pub source_id: u64,
    /// Owning body.
    pub body: u32,
    /// Degree of the 3-D curve (1..=15).
    pub curve_degree: u32,
    /// Vertices at `t = 0` and `t = 1` ([`NONE`] for a closed edge without vertex).
    pub vertices: [u32; 2],
    /// Knots of the 3-D NURBS curve (range into knots), `poles.count + curve_degree + 1` values.
    pub knots: Span,
    /// Homogeneous poles of the 3-D curve (range into poles).
    pub poles: Span,
    /// Voronoi samples along the edge, increasing `t` (range into edge_samples).
    pub samples: Span,
    /// The two adjacent pieces (side 0 = piece "a", side 1 = piece "b").
    pub sides: [EdgeSideRecord; 2],
}

/// One sample of an edge's Voronoi wedge.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct EdgeSampleRecord {
    /// Edge parameter in `[0,1]` (the point is the edge curve there).
    pub t: f64,
    /// Unit outward normal of side 0's piece.
    pub normal_a: [f64; 3],
    /// Unit outward normal of side 1's piece (zero when there is none).
    pub normal_b: [f64; 3],
}

/// A vertex feature.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct VertexRecord {
    /// Position (body-local).
    pub point: [f64; 3],
    /// Normal cone of the adjacent faces' outward normals.
    pub cone: NormalCone,
    /// Incident edges (range into indices, each an index into edges).
    pub edges: Span,
    /// Incident pieces (range into indices, each an index into pieces).
    pub pieces: Span,
    /// Owning body.
    pub body: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// Source vertex entity id.
    pub source_id: u64,
}

/// BVH node kind code: interior node with two children.
pub const BVH_INTERIOR: u32 = 0;
/// BVH node kind code: leaf holding pieces.
pub const BVH_LEAF: u32 = 1;

/// A node of a body's bounding-volume hierarchy over its pieces.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct BvhNodeRecord {
    /// Bounds of everything below (body-local).
    pub bbox: Aabb,
    /// `BVH_INTERIOR` or `BVH_LEAF`.
    pub kind: u32,
    /// Reserved, must be 0.
    pub reserved: u32,
    /// Interior: the two children (absolute node indices, greater than this node's, in the
    /// same body). Leaf: `[first, count]`, a range into indices listing piece indices of the body.
    pub a: u32,
    /// See `a`.
    pub b: u32,
}

const _: () = {
    assert!(size_of::<Header>() == 40);
    assert!(size_of::<SectionEntry>() == 40);
    assert!(size_of::<Span>() == 8);
    assert!(size_of::<StrRef>() == 8);
    assert!(size_of::<Aabb>() == 48);
    assert!(size_of::<NormalCone>() == 32);
    assert!(size_of::<MetaRecord>() == 40);
    assert!(size_of::<ToleranceRecord>() == 16);
    assert!(size_of::<BodyRecord>() == 208);
    assert!(size_of::<PieceRecord>() == 168);
    assert!(size_of::<TrimLoopRecord>() == 16);
    assert!(size_of::<TrimCurveRecord>() == 16);
    assert!(size_of::<BoundaryRecord>() == 16);
    assert!(size_of::<FeatureRecord>() == 8);
    assert!(size_of::<AdjacencyRecord>() == 24);
    assert!(size_of::<EdgeSideRecord>() == 56);
    assert!(size_of::<EdgeRecord>() == 168);
    assert!(size_of::<EdgeSampleRecord>() == 56);
    assert!(size_of::<VertexRecord>() == 88);
    assert!(size_of::<BvhNodeRecord>() == 64);
    assert!(size_of::<SurfaceRecord>() == 40);
    assert!(size_of::<PieceOriginRecord>() == 48);
    assert!(size_of::<FaceCheck>() == 48);
    assert!(size_of::<BodyCheck>() == 16);
};

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::offset_of;

    /// The offsets printed in formats/scene.md.
    #[test]
    fn field_offsets_match_the_spec() {
        assert_eq!(offset_of!(Header, endian), 12);
        assert_eq!(offset_of!(Header, total_len), 24);
        assert_eq!(offset_of!(Header, header_crc), 36);
        assert_eq!(offset_of!(SectionEntry, offset), 8);
        assert_eq!(offset_of!(SectionEntry, crc), 32);
        assert_eq!(offset_of!(MetaRecord, warnings), 24);
        assert_eq!(offset_of!(BodyRecord, placement), 24);
        assert_eq!(offset_of!(BodyRecord, bbox), 120);
        assert_eq!(offset_of!(BodyRecord, bvh_root), 200);
        assert_eq!(offset_of!(PieceRecord, poles), 24);
        assert_eq!(offset_of!(PieceRecord, domain), 40);
        assert_eq!(offset_of!(PieceRecord, cone), 72);
        assert_eq!(offset_of!(PieceRecord, bbox), 104);
        assert_eq!(offset_of!(PieceRecord, adjacency), 160);
        assert_eq!(offset_of!(AdjacencyRecord, feature), 16);
        assert_eq!(offset_of!(EdgeSideRecord, uv_start), 24);
        assert_eq!(offset_of!(EdgeRecord, knots), 32);
        assert_eq!(offset_of!(EdgeRecord, sides), 56);
        assert_eq!(offset_of!(EdgeSampleRecord, normal_b), 32);
        assert_eq!(offset_of!(VertexRecord, edges), 56);
        assert_eq!(offset_of!(VertexRecord, source_id), 80);
        assert_eq!(offset_of!(BvhNodeRecord, a), 56);
        assert_eq!(offset_of!(FaceCheck, body), 8);
        assert_eq!(offset_of!(FaceCheck, failed), 12);
        assert_eq!(offset_of!(FaceCheck, model_area), 16);
        assert_eq!(offset_of!(FaceCheck, worst_boundary), 40);
        assert_eq!(offset_of!(BodyCheck, dropped_faces), 8);
        for id in SectionId::ALL {
            assert_eq!(SectionId::from_code(id as u32), Some(id));
            let rs = id.record_size();
            assert!(rs == 1 || rs == 4 || rs % 8 == 0, "{}", id.name());
        }
        assert_eq!(SectionId::from_code(0), None);
        assert_eq!(&MAGIC, b"EXTRACK\0");
        assert_eq!(ENDIAN_MARKER.to_le_bytes(), [4, 3, 2, 1]);
    }

    #[test]
    fn check_bit_names() {
        assert_eq!(
            bit_names(FACE_COVERAGE | FACE_BOUNDARY, &FACE_CHECK_NAMES),
            ["coverage", "boundary"]
        );
        assert_eq!(
            bit_names(BODY_SHELL_INCOMPLETE, &BODY_CHECK_NAMES),
            ["shell_incomplete"]
        );
        assert!(bit_names(0, &FACE_CHECK_NAMES).is_empty());
        assert_eq!(FACE_CHECK_NAMES.iter().fold(0, |a, (b, _)| a | b), FACE_CHECK_BITS);
        assert_eq!(BODY_CHECK_NAMES.iter().fold(0, |a, (b, _)| a | b), BODY_CHECK_BITS);
        assert!(!SectionId::FaceChecks.is_required() && !SectionId::BodyChecks.is_required());
    }

    #[test]
    fn span_ranges_never_overflow() {
        assert_eq!(Span::new(2, 3).range(), Some(2..5));
        assert_eq!(Span::EMPTY.range(), Some(0..0));
        let r = Span::new(u32::MAX, u32::MAX).range();
        // on 64-bit targets the sum fits; on 32-bit it is reported as None
        if let Some(r) = r {
            assert_eq!(r.end, 2 * u32::MAX as usize);
        }
    }
}

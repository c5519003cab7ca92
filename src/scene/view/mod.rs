//! The zero-copy reader: [`SceneView`] borrows an 8-byte aligned buffer,
//! validates it once in [`SceneView::from_bytes`], and from then on every
//! accessor is infallible and returns slices of records in place.
//!
//! - `layout.rs`: validation of the header and the section table (steps 1
//!   and 2) into the byte ranges of the known sections;
//! - `check.rs`: validation of every record (step 3);
//! - `to_data.rs`: the owned copy [`SceneData`](super::SceneData) of a view;
//! - `file.rs`: the owners of the aligned bytes, [`AlignedBytes`] and
//!   [`SceneFile`] (read, or memory-mapped with [`SceneFile::open_mmap`]).
//!
//! Validation, in order (each failure is a [`SceneError`], never a panic):
//! 1. buffer alignment (8), header length, magic, endianness marker, major
//!    version, reserved header fields, section table in bounds, total length
//!    equal to the buffer length, header checksum;
//! 2. every table entry: flags, 8-aligned offset after the table, sections in
//!    increasing offset order without overlap, inside the buffer
//!    (overflow-checked), `length = record_size × record_count`, record size
//!    of known sections, no duplicate ids, unknown required ids rejected,
//!    unknown optional ids skipped, every section checksum; zero padding
//!    between sections; every required section of format 2.0 present (the
//!    optional sections of 2.1 may be absent);
//! 3. every record: enum codes, reserved fields, every index in range, every
//!    `(first, count)` range in bounds, sizes consistent (pole counts, knot
//!    counts), ownership (a piece, edge, vertex or BVH node lies in the range of
//!    the body it names, a body's ranges hold only its own features, features
//!    refer only to features of their own body), BVH children strictly after their parent (so the
//!    tree is acyclic), trim references inside the piece's loops, strings valid
//!    UTF-8, every float finite, weights positive, boxes ordered, cone axes unit.
//!
//! The only `unsafe` of the scene module is the memory map in
//! [`SceneFile::open_mmap`]; the view itself casts with `bytemuck`, which checks
//! size and alignment.

mod check;
mod file;
mod layout;
mod to_data;

pub use file::{AlignedBytes, SceneFile};

use super::data::SourceKind;
use super::records::*;
use super::SceneError;
use check::Checker;
use layout::Layout;
use std::ops::Range;

/// A validated scene borrowed from a byte buffer. Cheap to copy.
#[derive(Debug, Clone, Copy)]
pub struct SceneView<'a> {
    bytes: &'a [u8],
    header: Header,
    table: &'a [SectionEntry],
    meta: MetaRecord,
    strings: &'a [u8],
    str_refs: &'a [StrRef],
    tolerances: &'a [ToleranceRecord],
    bodies: &'a [BodyRecord],
    pieces: &'a [PieceRecord],
    poles: &'a [[f64; 4]],
    trim_loops: &'a [TrimLoopRecord],
    trim_curves: &'a [TrimCurveRecord],
    trim_points: &'a [[f64; 3]],
    adjacency: &'a [AdjacencyRecord],
    edges: &'a [EdgeRecord],
    knots: &'a [f64],
    edge_samples: &'a [EdgeSampleRecord],
    vertices: &'a [VertexRecord],
    indices: &'a [u32],
    bvh_nodes: &'a [BvhNodeRecord],
    surfaces: &'a [SurfaceRecord],
    piece_origins: &'a [PieceOriginRecord],
    face_checks: &'a [FaceCheck],
    body_checks: &'a [BodyCheck],
}

/// Casts `bytes[range]` to records; empty on any mismatch (never happens for a validated layout).
fn cast<'a, T: bytemuck::Pod>(bytes: &'a [u8], range: &Range<usize>) -> &'a [T] {
    bytes
        .get(range.clone())
        .and_then(|b| bytemuck::try_cast_slice(b).ok())
        .unwrap_or(&[])
}

/// `pool[span]`, empty when out of bounds (never for records of a validated view).
#[inline]
fn sub<T>(pool: &[T], s: Span) -> &[T] {
    s.range().and_then(|r| pool.get(r)).unwrap_or(&[])
}

// ---------------------------------------------------------------- public API

impl<'a> SceneView<'a> {
    /// Validates `bytes` (see the module docs) and returns the view.
    ///
    /// `bytes` must start at an 8-byte aligned address ([`SceneError::Misaligned`]
    /// otherwise): read files with [`AlignedBytes`] or [`SceneFile`].
    pub fn from_bytes(bytes: &'a [u8]) -> Result<SceneView<'a>, SceneError> {
        let layout = Layout::validate(bytes)?;
        let view = layout.view(bytes);
        Checker { v: &view }.run()?;
        Ok(view)
    }

    /// The whole buffer.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// Format version `(major, minor)` of the file.
    pub fn version(&self) -> (u16, u16) {
        (self.header.version_major, self.header.version_minor)
    }
    /// The section table (including unknown optional sections).
    pub fn sections(&self) -> &'a [SectionEntry] {
        self.table
    }
    /// Bytes of a section by id (first one with that id), e.g. an optional
    /// section of a newer minor version; `None` when absent.
    pub fn section_bytes(&self, id: u32) -> Option<&'a [u8]> {
        let e = self.table.iter().find(|e| e.id == id)?;
        let start = usize::try_from(e.offset).ok()?;
        self.bytes
            .get(start..start.checked_add(usize::try_from(e.length).ok()?)?)
    }

    /// The metadata record.
    pub fn meta(&self) -> &MetaRecord {
        &self.meta
    }
    /// A string of the blob (empty for a reference not from this view).
    pub fn str(&self, s: StrRef) -> &'a str {
        std::str::from_utf8(sub(self.strings, Span::new(s.offset, s.len))).unwrap_or("")
    }
    /// Source file name.
    pub fn source_name(&self) -> &'a str {
        self.str(self.meta.source_name)
    }
    /// Producer.
    pub fn producer(&self) -> &'a str {
        self.str(self.meta.producer)
    }
    /// Source format.
    pub fn source_format(&self) -> SourceKind {
        SourceKind::from_code(self.meta.source_format).unwrap_or_default()
    }
    /// Importer warnings.
    pub fn warnings(&self) -> impl ExactSizeIterator<Item = &'a str> + '_ {
        let strs = *self;
        sub(self.str_refs, self.meta.warnings).iter().map(move |s| strs.str(*s))
    }
    /// Tolerance records.
    pub fn tolerances(&self) -> &'a [ToleranceRecord] {
        sub(self.tolerances, self.meta.tolerances)
    }
    /// A tolerance by name.
    pub fn tolerance(&self, name: &str) -> Option<f64> {
        self.tolerances()
            .iter()
            .find(|t| self.str(t.name) == name)
            .map(|t| t.value)
    }

    /// All bodies.
    pub fn bodies(&self) -> &'a [BodyRecord] {
        self.bodies
    }
    /// All pieces.
    pub fn pieces(&self) -> &'a [PieceRecord] {
        self.pieces
    }
    /// All edges.
    pub fn edges(&self) -> &'a [EdgeRecord] {
        self.edges
    }
    /// All vertices.
    pub fn vertices(&self) -> &'a [VertexRecord] {
        self.vertices
    }
    /// All BVH nodes.
    pub fn bvh_nodes(&self) -> &'a [BvhNodeRecord] {
        self.bvh_nodes
    }

    /// A body's pieces.
    pub fn body_pieces(&self, b: &BodyRecord) -> &'a [PieceRecord] {
        sub(self.pieces, b.pieces)
    }
    /// A body's edges.
    pub fn body_edges(&self, b: &BodyRecord) -> &'a [EdgeRecord] {
        sub(self.edges, b.edges)
    }
    /// A body's vertices.
    pub fn body_vertices(&self, b: &BodyRecord) -> &'a [VertexRecord] {
        sub(self.vertices, b.vertices)
    }
    /// A body's BVH nodes.
    pub fn body_bvh(&self, b: &BodyRecord) -> &'a [BvhNodeRecord] {
        sub(self.bvh_nodes, b.bvh)
    }
    /// A piece's homogeneous poles (`(degree_u+1)(degree_v+1)`, u index outer).
    pub fn piece_poles(&self, p: &PieceRecord) -> &'a [[f64; 4]] {
        sub(self.poles, p.poles)
    }
    /// A piece's trim loops.
    pub fn piece_trim_loops(&self, p: &PieceRecord) -> &'a [TrimLoopRecord] {
        sub(self.trim_loops, p.trim_loops)
    }
    /// A loop's curves.
    pub fn loop_curves(&self, l: &TrimLoopRecord) -> &'a [TrimCurveRecord] {
        sub(self.trim_curves, l.curves)
    }
    /// A trim curve's homogeneous points `[w·u, w·v, w]`.
    pub fn trim_curve_points(&self, c: &TrimCurveRecord) -> &'a [[f64; 3]] {
        sub(self.trim_points, c.points)
    }
    /// A piece's adjacency list.
    pub fn piece_adjacency(&self, p: &PieceRecord) -> &'a [AdjacencyRecord] {
        sub(self.adjacency, p.adjacency)
    }
    /// An edge's knots.
    pub fn edge_knots(&self, e: &EdgeRecord) -> &'a [f64] {
        sub(self.knots, e.knots)
    }
    /// An edge's homogeneous poles.
    pub fn edge_poles(&self, e: &EdgeRecord) -> &'a [[f64; 4]] {
        sub(self.poles, e.poles)
    }
    /// An edge's Voronoi samples.
    pub fn edge_samples(&self, e: &EdgeRecord) -> &'a [EdgeSampleRecord] {
        sub(self.edge_samples, e.samples)
    }
    /// A vertex's incident edges.
    pub fn vertex_edges(&self, x: &VertexRecord) -> &'a [u32] {
        sub(self.indices, x.edges)
    }
    /// A vertex's incident pieces.
    pub fn vertex_pieces(&self, x: &VertexRecord) -> &'a [u32] {
        sub(self.indices, x.pieces)
    }
    /// A leaf's piece indices (empty for an interior node).
    pub fn leaf_pieces(&self, n: &BvhNodeRecord) -> &'a [u32] {
        if n.kind == BVH_LEAF {
            sub(self.indices, Span::new(n.a, n.b))
        } else {
            &[]
        }
    }

    /// The NURBS surfaces pieces were cut from (empty when the file has none).
    pub fn surfaces(&self) -> &'a [SurfaceRecord] {
        self.surfaces
    }
    /// One origin per piece (empty when the file has none).
    pub fn piece_origins(&self) -> &'a [PieceOriginRecord] {
        self.piece_origins
    }
    /// The self-check of each source face (empty when the scene was not
    /// checked: a file without the optional `face_checks` section of 2.2).
    pub fn face_checks(&self) -> &'a [FaceCheck] {
        self.face_checks
    }
    /// The self-check of each body, in increasing body order (empty when absent).
    pub fn body_checks(&self) -> &'a [BodyCheck] {
        self.body_checks
    }
    /// True when the scene carries a self-check (either check section).
    pub fn is_checked(&self) -> bool {
        !self.face_checks.is_empty() || !self.body_checks.is_empty()
    }
    /// A surface's knot vectors `(u, v)`.
    pub fn surface_knots(&self, f: &SurfaceRecord) -> (&'a [f64], &'a [f64]) {
        (sub(self.knots, f.knots_u), sub(self.knots, f.knots_v))
    }
    /// A surface's homogeneous poles (`count_u × count_v`, u index outer).
    pub fn surface_poles(&self, f: &SurfaceRecord) -> &'a [[f64; 4]] {
        sub(self.poles, f.poles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_never_panics() {
        let pool = [1u32, 2, 3];
        assert_eq!(sub(&pool, Span::new(1, 2)), &[2, 3]);
        assert!(sub(&pool, Span::new(2, 2)).is_empty());
        assert!(sub(&pool, Span::new(u32::MAX, u32::MAX)).is_empty());
    }
}

//! The zero-copy reader: [`SceneView`] borrows an 8-byte aligned buffer,
//! validates it once in [`SceneView::from_bytes`], and from then on every
//! accessor is infallible and returns slices of records in place.
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

use super::data::{
    Adjacency, Body, BodyKind, Boundary, BvhKind, BvhNode, ConvexityClass, Edge, EdgeKind, EdgeSample, EdgeSide,
    FeatureRef, Meta, ParamMap, Piece, PieceOrigin, SceneData, SourceKind, SurfaceNet, Tolerance, TrimCurve, TrimLoop,
    Vertex,
};
use super::records::*;
use super::{checksum, SceneError};
use crate::geom::MAX_DEGREE;
use std::ops::Range;
use std::path::Path;

/// Byte ranges of the known sections of a validated buffer (index = `SectionId::ALL` position).
#[derive(Debug, Clone)]
struct Layout {
    known: [Range<usize>; SectionId::ALL.len()],
    table: Range<usize>,
}

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

fn section_label(id: u32) -> String {
    SectionId::from_code(id).map_or_else(|| format!("#{id}"), |s| s.name().to_owned())
}

impl Layout {
    fn validate(bytes: &[u8]) -> Result<Layout, SceneError> {
        let rem = bytes.as_ptr() as usize % 8;
        if rem != 0 {
            return Err(SceneError::Misaligned { rem });
        }
        let hsize = size_of::<Header>();
        let header_bytes = bytes.get(..hsize).ok_or(SceneError::TooShort {
            len: bytes.len(),
            need: hsize,
        })?;
        let header: Header = bytemuck::pod_read_unaligned(header_bytes);
        if header.magic != MAGIC {
            return Err(SceneError::BadMagic { found: header.magic });
        }
        if header.endian != ENDIAN_MARKER {
            return Err(SceneError::BadEndianness { found: header.endian });
        }
        if header.version_major != VERSION_MAJOR {
            return Err(SceneError::UnsupportedVersion {
                major: header.version_major,
                minor: header.version_minor,
                supported: VERSION_MAJOR,
            });
        }
        let table_end = (header.section_count as u64)
            .checked_mul(size_of::<SectionEntry>() as u64)
            .and_then(|t| t.checked_add(hsize as u64))
            .filter(|&e| e <= bytes.len() as u64)
            .ok_or(SceneError::TooShort {
                len: bytes.len(),
                need: (header.section_count as usize)
                    .saturating_mul(size_of::<SectionEntry>())
                    .saturating_add(hsize),
            })? as usize;
        if header.total_len != bytes.len() as u64 {
            return Err(SceneError::LengthMismatch {
                header: header.total_len,
                actual: bytes.len(),
            });
        }
        let table_bytes = bytes.get(hsize..table_end).unwrap_or(&[]);
        let computed = checksum::header_crc(header_bytes, table_bytes);
        if computed != header.header_crc {
            return Err(SceneError::HeaderChecksum {
                stored: header.header_crc,
                computed,
            });
        }
        if header.flags != 0 {
            return Err(SceneError::Reserved {
                what: "header flags".into(),
                value: header.flags as u64,
            });
        }
        if header.reserved != 0 {
            return Err(SceneError::Reserved {
                what: "header reserved field".into(),
                value: header.reserved as u64,
            });
        }
        let table: &[SectionEntry] = cast(bytes, &(hsize..table_end));
        let mut known: [Option<Range<usize>>; SectionId::ALL.len()] = Default::default();
        let mut cursor = table_end;
        for e in table {
            let label = section_label(e.id);
            let layout_err = |reason: &'static str| SceneError::SectionLayout {
                section: label.clone(),
                reason,
                offset: e.offset,
                length: e.length,
            };
            if e.flags & !SECTION_REQUIRED != 0 || e.reserved != 0 {
                return Err(SceneError::Reserved {
                    what: format!("section {label} flags"),
                    value: (e.flags as u64) | ((e.reserved as u64) << 32),
                });
            }
            if e.offset % 8 != 0 {
                return Err(layout_err("offset not a multiple of 8"));
            }
            let start = usize::try_from(e.offset).map_err(|_| layout_err("offset past the end of the file"))?;
            if start < cursor {
                return Err(layout_err("overlaps the table or the previous section"));
            }
            let end = usize::try_from(e.length)
                .ok()
                .and_then(|l| start.checked_add(l))
                .filter(|&end| end <= bytes.len())
                .ok_or_else(|| layout_err("extends past the end of the file"))?;
            if (e.record_size as u64).checked_mul(e.record_count as u64) != Some(e.length) {
                return Err(SceneError::RecordShape {
                    section: label,
                    record_size: e.record_size,
                    record_count: e.record_count,
                    length: e.length,
                    expected: e.record_size as usize,
                });
            }
            // padding between the previous section (or the table) and this one
            if let Some(p) = bytes.get(cursor..start).and_then(|g| g.iter().position(|&b| b != 0)) {
                return Err(SceneError::Padding { offset: cursor + p });
            }
            let data = bytes.get(start..end).unwrap_or(&[]);
            let computed = checksum::crc32(data);
            if computed != e.crc {
                return Err(SceneError::SectionChecksum {
                    section: label,
                    stored: e.crc,
                    computed,
                });
            }
            match SectionId::from_code(e.id) {
                Some(id) => {
                    let expected = id.record_size();
                    if e.record_size as usize != expected {
                        return Err(SceneError::RecordShape {
                            section: label,
                            record_size: e.record_size,
                            record_count: e.record_count,
                            length: e.length,
                            expected,
                        });
                    }
                    let pos = SectionId::ALL.iter().position(|s| *s == id).unwrap_or(0);
                    if known[pos].is_some() {
                        return Err(SceneError::DuplicateSection { section: label });
                    }
                    known[pos] = Some(start..end);
                }
                None if e.flags & SECTION_REQUIRED != 0 => {
                    return Err(SceneError::UnknownRequiredSection { id: e.id });
                }
                None => {} // unknown optional section: skipped
            }
            cursor = end;
        }
        if let Some(p) = bytes.get(cursor..).and_then(|g| g.iter().position(|&b| b != 0)) {
            return Err(SceneError::Padding { offset: cursor + p });
        }
        let mut out: [Range<usize>; SectionId::ALL.len()] = Default::default();
        for (k, r) in known.into_iter().enumerate() {
            let id = SectionId::ALL[k];
            out[k] = match r {
                Some(r) => r,
                // an optional section that is absent reads as empty
                None if !id.is_required() => 0..0,
                None => return Err(SceneError::MissingSection { section: id.name() }),
            };
        }
        Ok(Layout {
            known: out,
            table: hsize..table_end,
        })
    }

    fn view<'a>(&self, bytes: &'a [u8]) -> SceneView<'a> {
        let r = |id: SectionId| {
            let pos = SectionId::ALL.iter().position(|s| *s == id).unwrap_or(0);
            self.known[pos].clone()
        };
        let header = bytes
            .get(..size_of::<Header>())
            .map(bytemuck::pod_read_unaligned)
            .unwrap_or_else(Header::zeroed);
        let metas: &[MetaRecord] = cast(bytes, &r(SectionId::Meta));
        SceneView {
            bytes,
            header,
            table: cast(bytes, &self.table),
            meta: metas.first().copied().unwrap_or_else(MetaRecord::zeroed),
            strings: bytes.get(r(SectionId::Strings)).unwrap_or(&[]),
            str_refs: cast(bytes, &r(SectionId::StrRefs)),
            tolerances: cast(bytes, &r(SectionId::Tolerances)),
            bodies: cast(bytes, &r(SectionId::Bodies)),
            pieces: cast(bytes, &r(SectionId::Pieces)),
            poles: cast(bytes, &r(SectionId::Poles)),
            trim_loops: cast(bytes, &r(SectionId::TrimLoops)),
            trim_curves: cast(bytes, &r(SectionId::TrimCurves)),
            trim_points: cast(bytes, &r(SectionId::TrimPoints)),
            adjacency: cast(bytes, &r(SectionId::Adjacency)),
            edges: cast(bytes, &r(SectionId::Edges)),
            knots: cast(bytes, &r(SectionId::Knots)),
            edge_samples: cast(bytes, &r(SectionId::EdgeSamples)),
            vertices: cast(bytes, &r(SectionId::Vertices)),
            indices: cast(bytes, &r(SectionId::Indices)),
            bvh_nodes: cast(bytes, &r(SectionId::BvhNodes)),
            surfaces: cast(bytes, &r(SectionId::Surfaces)),
            piece_origins: cast(bytes, &r(SectionId::PieceOrigins)),
        }
    }
}

use bytemuck::Zeroable;

// ---------------------------------------------------------------- content checks

struct Checker<'v, 'a> {
    v: &'v SceneView<'a>,
}

fn finite(xs: &[f64]) -> bool {
    xs.iter().all(|x| x.is_finite())
}

impl Checker<'_, '_> {
    fn span<'p, T>(
        &self,
        pool: &'p [T],
        s: Span,
        what: &'static str,
        index: usize,
        target: &'static str,
    ) -> Result<&'p [T], SceneError> {
        s.range().and_then(|r| pool.get(r)).ok_or(SceneError::Range {
            what,
            index,
            first: s.first,
            count: s.count,
            target,
            len: pool.len(),
        })
    }

    fn index(
        &self,
        value: u32,
        len: usize,
        what: &'static str,
        index: usize,
        target: &'static str,
    ) -> Result<(), SceneError> {
        if (value as usize) < len {
            Ok(())
        } else {
            Err(SceneError::Index {
                what,
                index,
                value,
                target,
                len,
            })
        }
    }

    fn string(&self, s: StrRef, what: &'static str, index: usize) -> Result<(), SceneError> {
        let bytes = self.span(self.v.strings, Span::new(s.offset, s.len), what, index, "strings")?;
        std::str::from_utf8(bytes).map(|_| ()).map_err(|_| SceneError::Invalid {
            what,
            index,
            reason: "string is not valid UTF-8".into(),
        })
    }

    fn zero(&self, value: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        if value == 0 {
            Ok(())
        } else {
            Err(SceneError::Reserved {
                what: format!("{what} {index}"),
                value: value as u64,
            })
        }
    }

    fn invalid(what: &'static str, index: usize, reason: impl Into<String>) -> SceneError {
        SceneError::Invalid {
            what,
            index,
            reason: reason.into(),
        }
    }

    fn bbox(&self, b: &Aabb, what: &'static str, index: usize) -> Result<(), SceneError> {
        if !finite(&b.min) || !finite(&b.max) {
            return Err(SceneError::NonFinite { what, index });
        }
        if (0..3).any(|k| b.min[k] > b.max[k]) {
            return Err(Self::invalid(what, index, "bounding box min > max"));
        }
        Ok(())
    }

    fn cone(&self, c: &NormalCone, what: &'static str, index: usize) -> Result<(), SceneError> {
        if !finite(&c.axis) || !c.half_angle.is_finite() {
            return Err(SceneError::NonFinite { what, index });
        }
        let n = (c.axis[0] * c.axis[0] + c.axis[1] * c.axis[1] + c.axis[2] * c.axis[2]).sqrt();
        if (n - 1.0).abs() > 1e-6 {
            return Err(Self::invalid(
                what,
                index,
                format!("normal-cone axis has length {n}, not 1"),
            ));
        }
        if !(0.0..=std::f64::consts::PI).contains(&c.half_angle) {
            return Err(Self::invalid(what, index, "normal-cone half-angle outside [0, π]"));
        }
        Ok(())
    }

    fn hpoints(&self, pts: &[[f64; 4]], what: &'static str, index: usize) -> Result<(), SceneError> {
        for p in pts {
            if !finite(p) {
                return Err(SceneError::NonFinite { what, index });
            }
            if p[3] <= 0.0 {
                return Err(Self::invalid(what, index, "control-point weight not positive"));
            }
        }
        Ok(())
    }

    fn degree(&self, d: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        if d == 0 || d as usize > MAX_DEGREE {
            return Err(Self::invalid(
                what,
                index,
                format!("degree {d} outside 1..={MAX_DEGREE}"),
            ));
        }
        Ok(())
    }

    /// A boundary of `piece`.
    fn boundary(
        &self,
        b: &BoundaryRecord,
        piece: &PieceRecord,
        what: &'static str,
        index: usize,
    ) -> Result<(), SceneError> {
        self.zero(b.reserved, what, index)?;
        let Some(bd) = Boundary::from_codes(b.side, b.trim_loop, b.trim_curve) else {
            return Err(Self::invalid(what, index, format!("bad boundary side code {}", b.side)));
        };
        if let Boundary::Trim { trim_loop, curve } = bd {
            let loops = sub(self.v.trim_loops, piece.trim_loops);
            let Some(lp) = loops.get(trim_loop as usize) else {
                return Err(Self::invalid(
                    what,
                    index,
                    format!("trim loop {trim_loop} not in the piece"),
                ));
            };
            if curve >= lp.curves.count {
                return Err(Self::invalid(
                    what,
                    index,
                    format!("trim curve {curve} not in loop {trim_loop}"),
                ));
            }
        }
        Ok(())
    }

    /// A valid feature of body `body`.
    fn feature(&self, f: &FeatureRecord, body: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        let v = self.v;
        let owner = match f.kind {
            FEATURE_PIECE => {
                self.index(f.index, v.pieces.len(), what, index, "pieces")?;
                v.pieces.get(f.index as usize).map(|p| p.body)
            }
            FEATURE_EDGE => {
                self.index(f.index, v.edges.len(), what, index, "edges")?;
                v.edges.get(f.index as usize).map(|e| e.body)
            }
            FEATURE_VERTEX => {
                self.index(f.index, v.vertices.len(), what, index, "vertices")?;
                v.vertices.get(f.index as usize).map(|x| x.body)
            }
            k => return Err(Self::invalid(what, index, format!("bad feature kind {k}"))),
        };
        self.same_body(owner, body, what, index)
    }

    /// Features only refer to features of their own body.
    fn same_body(&self, owner: Option<u32>, body: u32, what: &'static str, index: usize) -> Result<(), SceneError> {
        match owner {
            Some(b) if b == body => Ok(()),
            _ => Err(Self::invalid(
                what,
                index,
                format!("refers to a feature outside its body {body}"),
            )),
        }
    }

    /// `index` lies in `bodies[body].<field>`.
    fn owned(
        &self,
        body: u32,
        index: usize,
        field: fn(&BodyRecord) -> Span,
        what: &'static str,
    ) -> Result<(), SceneError> {
        self.index(body, self.v.bodies.len(), what, index, "bodies")?;
        let span = self.v.bodies.get(body as usize).map(field).unwrap_or_default();
        if span.range().is_some_and(|r| r.contains(&index)) {
            Ok(())
        } else {
            Err(Self::invalid(
                what,
                index,
                format!("not in the range of its body {body}"),
            ))
        }
    }

    fn run(&self) -> Result<(), SceneError> {
        let v = self.v;
        // meta and strings
        let metas: usize = v
            .table
            .iter()
            .find(|e| e.id == SectionId::Meta as u32)
            .map_or(0, |e| e.record_count as usize);
        if metas != 1 {
            return Err(Self::invalid("meta section", 0, format!("{metas} records, expected 1")));
        }
        let m = &v.meta;
        self.zero(m.reserved, "meta", 0)?;
        self.string(m.source_name, "meta source name", 0)?;
        self.string(m.producer, "meta producer", 0)?;
        if SourceKind::from_code(m.source_format).is_none() {
            return Err(Self::invalid(
                "meta",
                0,
                format!("bad source format {}", m.source_format),
            ));
        }
        self.span(v.str_refs, m.warnings, "meta warnings", 0, "str_refs")?;
        self.span(v.tolerances, m.tolerances, "meta tolerances", 0, "tolerances")?;
        for (i, s) in v.str_refs.iter().enumerate() {
            self.string(*s, "str_ref", i)?;
        }
        for (i, t) in v.tolerances.iter().enumerate() {
            self.string(t.name, "tolerance name", i)?;
            if !t.value.is_finite() {
                return Err(SceneError::NonFinite {
                    what: "tolerance",
                    index: i,
                });
            }
        }
        // bodies
        for (i, b) in v.bodies.iter().enumerate() {
            const W: &str = "body";
            self.string(b.name, "body name", i)?;
            if BodyKind::from_code(b.kind).is_none() {
                return Err(Self::invalid(W, i, format!("bad body kind {}", b.kind)));
            }
            self.zero(b.reserved, W, i)?;
            self.zero(b.reserved2, W, i)?;
            if !finite(&b.placement) {
                return Err(SceneError::NonFinite {
                    what: "body placement",
                    index: i,
                });
            }
            self.bbox(&b.bbox, W, i)?;
            self.span(v.pieces, b.pieces, "body pieces", i, "pieces")?;
            self.span(v.edges, b.edges, "body edges", i, "edges")?;
            self.span(v.vertices, b.vertices, "body vertices", i, "vertices")?;
            self.span(v.bvh_nodes, b.bvh, "body bvh", i, "bvh_nodes")?;
            // the body's ranges hold only its own features (so bodies never share one)
            let mine = sub(v.pieces, b.pieces).iter().all(|p| p.body == i as u32)
                && sub(v.edges, b.edges).iter().all(|e| e.body == i as u32)
                && sub(v.vertices, b.vertices).iter().all(|x| x.body == i as u32);
            if !mine {
                return Err(Self::invalid(W, i, "its ranges hold features of another body"));
            }
            let root_ok = if b.bvh.count == 0 {
                b.bvh_root == NONE
            } else {
                b.bvh.range().is_some_and(|r| r.contains(&(b.bvh_root as usize)))
            };
            if !root_ok {
                return Err(Self::invalid(
                    W,
                    i,
                    format!("BVH root {} not in its node range", b.bvh_root),
                ));
            }
        }
        // trim loops and curves (all records)
        for (i, l) in v.trim_loops.iter().enumerate() {
            self.span(v.trim_curves, l.curves, "trim loop curves", i, "trim_curves")?;
            if l.flags & !LOOP_OUTER != 0 {
                return Err(SceneError::Reserved {
                    what: format!("trim loop {i} flags"),
                    value: l.flags as u64,
                });
            }
            self.zero(l.reserved, "trim loop", i)?;
        }
        for (i, c) in v.trim_curves.iter().enumerate() {
            const W: &str = "trim curve";
            let pts = self.span(v.trim_points, c.points, "trim curve points", i, "trim_points")?;
            if pts.iter().any(|p| !finite(p)) {
                return Err(SceneError::NonFinite { what: W, index: i });
            }
            match c.kind {
                TRIM_POLYLINE => {
                    if c.degree != 1 || pts.len() < 2 || pts.iter().any(|p| p[2] != 1.0) {
                        return Err(Self::invalid(W, i, "polyline needs degree 1, ≥ 2 points, weights 1"));
                    }
                }
                TRIM_BEZIER => {
                    self.degree(c.degree, W, i)?;
                    if pts.len() != c.degree as usize + 1 || pts.iter().any(|p| p[2] <= 0.0) {
                        return Err(Self::invalid(
                            W,
                            i,
                            "Bézier needs degree + 1 points with positive weights",
                        ));
                    }
                }
                k => return Err(Self::invalid(W, i, format!("bad trim curve kind {k}"))),
            }
        }
        // pieces
        for (i, p) in v.pieces.iter().enumerate() {
            const W: &str = "piece";
            self.owned(p.body, i, |b| b.pieces, W)?;
            if ConvexityClass::from_code(p.class).is_none() {
                return Err(Self::invalid(W, i, format!("bad convexity class {}", p.class)));
            }
            self.degree(p.degree_u, W, i)?;
            self.degree(p.degree_v, W, i)?;
            let poles = self.span(v.poles, p.poles, "piece poles", i, "poles")?;
            let n = (p.degree_u as usize + 1) * (p.degree_v as usize + 1);
            if poles.len() != n {
                return Err(Self::invalid(
                    W,
                    i,
                    format!("{} poles for degree {}×{}", poles.len(), p.degree_u, p.degree_v),
                ));
            }
            self.hpoints(poles, "piece poles", i)?;
            if p.flags & !PIECE_FLAGS_ALL != 0 {
                return Err(SceneError::Reserved {
                    what: format!("piece {i} flags"),
                    value: p.flags as u64,
                });
            }
            self.zero(p.reserved, W, i)?;
            if !finite(&p.domain) {
                return Err(SceneError::NonFinite {
                    what: "piece domain",
                    index: i,
                });
            }
            if !(p.domain[0] < p.domain[1] && p.domain[2] < p.domain[3]) {
                return Err(Self::invalid(
                    W,
                    i,
                    "empty parameter sub-rectangle (need u0 < u1, v0 < v1)",
                ));
            }
            self.cone(&p.cone, W, i)?;
            self.bbox(&p.bbox, W, i)?;
            self.span(v.trim_loops, p.trim_loops, "piece trim loops", i, "trim_loops")?;
            for a in self.span(v.adjacency, p.adjacency, "piece adjacency", i, "adjacency")? {
                self.boundary(&a.boundary, p, "piece adjacency", i)?;
                self.feature(&a.feature, p.body, "piece adjacency", i)?;
            }
        }
        // surfaces and piece origins (optional sections of 2.1)
        for (i, f) in v.surfaces.iter().enumerate() {
            const W: &str = "surface";
            self.degree(f.degree_u, W, i)?;
            self.degree(f.degree_v, W, i)?;
            let poles = self.span(v.poles, f.poles, "surface poles", i, "poles")?;
            let (nu, nv) = (f.count_u as u64, f.count_v as u64);
            if nu <= f.degree_u as u64 || nv <= f.degree_v as u64 || nu * nv != poles.len() as u64 {
                return Err(Self::invalid(
                    W,
                    i,
                    format!(
                        "{} poles for {}×{} poles of degree {}×{}",
                        poles.len(),
                        nu,
                        nv,
                        f.degree_u,
                        f.degree_v
                    ),
                ));
            }
            self.hpoints(poles, "surface poles", i)?;
            for (knots, n, p) in [(f.knots_u, nu, f.degree_u), (f.knots_v, nv, f.degree_v)] {
                let k = self.span(v.knots, knots, "surface knots", i, "knots")?;
                if !finite(k) {
                    return Err(SceneError::NonFinite {
                        what: "surface knots",
                        index: i,
                    });
                }
                let (n, p) = (n as usize, p as usize);
                let ok = k.len() == n + p + 1
                    && k.windows(2).all(|w| w[0] <= w[1])
                    && k.get(p).zip(k.get(n)).is_some_and(|(a, b)| a < b);
                if !ok {
                    return Err(Self::invalid(
                        W,
                        i,
                        "knot count is not poles + degree + 1, knots decrease, or the domain is empty",
                    ));
                }
            }
        }
        if !v.piece_origins.is_empty() && v.piece_origins.len() != v.pieces.len() {
            return Err(Self::invalid(
                "piece origins",
                0,
                format!("{} records for {} pieces", v.piece_origins.len(), v.pieces.len()),
            ));
        }
        for (i, o) in v.piece_origins.iter().enumerate() {
            const W: &str = "piece origin";
            self.zero(o.reserved, W, i)?;
            if o.surface != NONE {
                self.index(o.surface, v.surfaces.len(), W, i, "surfaces")?;
            }
            if !finite(&o.rect) {
                return Err(SceneError::NonFinite { what: W, index: i });
            }
            let r = o.rect;
            if !(0.0 <= r[0] && r[0] < r[1] && r[1] <= 1.0 && 0.0 <= r[2] && r[2] < r[3] && r[3] <= 1.0) {
                return Err(Self::invalid(W, i, "rectangle not inside [0,1]² or empty"));
            }
        }
        // edges
        for (i, e) in v.edges.iter().enumerate() {
            const W: &str = "edge";
            if EdgeKind::from_code(e.kind).is_none() {
                return Err(Self::invalid(W, i, format!("bad edge kind {}", e.kind)));
            }
            self.zero(e.reserved, W, i)?;
            self.owned(e.body, i, |b| b.edges, W)?;
            self.degree(e.curve_degree, W, i)?;
            let poles = self.span(v.poles, e.poles, "edge poles", i, "poles")?;
            let knots = self.span(v.knots, e.knots, "edge knots", i, "knots")?;
            let p = e.curve_degree as usize;
            if poles.len() < p + 1 || knots.len() != poles.len() + p + 1 {
                return Err(Self::invalid(
                    W,
                    i,
                    format!("{} poles and {} knots for degree {p}", poles.len(), knots.len()),
                ));
            }
            self.hpoints(poles, "edge poles", i)?;
            if !finite(knots) {
                return Err(SceneError::NonFinite {
                    what: "edge knots",
                    index: i,
                });
            }
            let domain_ok = knots.windows(2).all(|w| w[0] <= w[1])
                && knots.get(p).zip(knots.get(poles.len())).is_some_and(|(a, b)| a < b);
            if !domain_ok {
                return Err(Self::invalid(W, i, "knots decreasing or empty domain"));
            }
            for vtx in e.vertices {
                if vtx != NONE {
                    self.index(vtx, v.vertices.len(), "edge vertex", i, "vertices")?;
                    self.same_body(v.vertices.get(vtx as usize).map(|x| x.body), e.body, "edge vertex", i)?;
                }
            }
            let samples = self.span(v.edge_samples, e.samples, "edge samples", i, "edge_samples")?;
            let mut last = 0.0;
            for s in samples {
                let all = [s.t]
                    .iter()
                    .chain(&s.normal_a)
                    .chain(&s.normal_b)
                    .all(|x| x.is_finite());
                if !all {
                    return Err(SceneError::NonFinite {
                        what: "edge sample",
                        index: i,
                    });
                }
                if !(last..=1.0).contains(&s.t) {
                    return Err(Self::invalid(W, i, "sample parameters not increasing in [0,1]"));
                }
                last = s.t;
            }
            let kind = EdgeKind::from_code(e.kind).unwrap_or_default();
            for (k, s) in e.sides.iter().enumerate() {
                if !(finite(&s.uv_start) && finite(&s.uv_end)) {
                    return Err(SceneError::NonFinite {
                        what: "edge side map",
                        index: i,
                    });
                }
                if !matches!(s.map, MAP_LINEAR | MAP_CURVE | MAP_CURVE_REVERSED) {
                    return Err(Self::invalid(W, i, format!("bad parameter map code {}", s.map)));
                }
                if s.piece == NONE {
                    if k == 0 || kind != EdgeKind::Boundary {
                        return Err(Self::invalid(W, i, format!("side {k} has no piece")));
                    }
                    continue;
                }
                if k == 1 && kind == EdgeKind::Boundary {
                    return Err(Self::invalid(W, i, "boundary edge with a second piece"));
                }
                self.index(s.piece, v.pieces.len(), "edge side piece", i, "pieces")?;
                self.same_body(
                    v.pieces.get(s.piece as usize).map(|p| p.body),
                    e.body,
                    "edge side piece",
                    i,
                )?;
                let piece = v
                    .pieces
                    .get(s.piece as usize)
                    .copied()
                    .unwrap_or_else(PieceRecord::zeroed);
                self.boundary(&s.boundary, &piece, "edge side", i)?;
                if s.map != MAP_LINEAR && s.boundary.side != SIDE_TRIM {
                    return Err(Self::invalid(
                        W,
                        i,
                        "curve parameter map on a side that is not a trim curve",
                    ));
                }
            }
        }
        // vertices
        for (i, x) in v.vertices.iter().enumerate() {
            const W: &str = "vertex";
            self.owned(x.body, i, |b| b.vertices, W)?;
            self.zero(x.reserved, W, i)?;
            if !finite(&x.point) {
                return Err(SceneError::NonFinite { what: W, index: i });
            }
            self.cone(&x.cone, W, i)?;
            for &e in self.span(v.indices, x.edges, "vertex edges", i, "indices")? {
                self.index(e, v.edges.len(), "vertex edge", i, "edges")?;
                self.same_body(v.edges.get(e as usize).map(|e| e.body), x.body, "vertex edge", i)?;
            }
            for &p in self.span(v.indices, x.pieces, "vertex pieces", i, "indices")? {
                self.index(p, v.pieces.len(), "vertex piece", i, "pieces")?;
                self.same_body(v.pieces.get(p as usize).map(|p| p.body), x.body, "vertex piece", i)?;
            }
        }
        // BVH nodes: every node belongs to the body whose range holds it
        let mut owner = vec![NONE; v.bvh_nodes.len()];
        for (bi, b) in v.bodies.iter().enumerate() {
            for slot in owner.get_mut(b.bvh.range().unwrap_or(0..0)).unwrap_or(&mut []) {
                if *slot != NONE {
                    return Err(Self::invalid("body", bi, "BVH node range overlaps another body's"));
                }
                *slot = bi as u32;
            }
        }
        for (i, n) in v.bvh_nodes.iter().enumerate() {
            const W: &str = "bvh node";
            self.bbox(&n.bbox, W, i)?;
            self.zero(n.reserved, W, i)?;
            let Some(body) = v.bodies.get(owner.get(i).copied().unwrap_or(NONE) as usize) else {
                return Err(Self::invalid(W, i, "not in any body's node range"));
            };
            match n.kind {
                BVH_INTERIOR => {
                    let nodes = body.bvh.range().unwrap_or(0..0);
                    for c in [n.a, n.b] {
                        if (c as usize) <= i || !nodes.contains(&(c as usize)) {
                            return Err(Self::invalid(W, i, format!("child {c} not after the node in its body")));
                        }
                    }
                }
                BVH_LEAF => {
                    let pieces = body.pieces.range().unwrap_or(0..0);
                    for &p in self.span(v.indices, Span::new(n.a, n.b), "bvh leaf pieces", i, "indices")? {
                        if !pieces.contains(&(p as usize)) {
                            return Err(Self::invalid(W, i, format!("leaf piece {p} not in its body")));
                        }
                    }
                }
                k => return Err(Self::invalid(W, i, format!("bad node kind {k}"))),
            }
        }
        Ok(())
    }
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
    /// A surface's knot vectors `(u, v)`.
    pub fn surface_knots(&self, f: &SurfaceRecord) -> (&'a [f64], &'a [f64]) {
        (sub(self.knots, f.knots_u), sub(self.knots, f.knots_v))
    }
    /// A surface's homogeneous poles (`count_u × count_v`, u index outer).
    pub fn surface_poles(&self, f: &SurfaceRecord) -> &'a [[f64; 4]] {
        sub(self.poles, f.poles)
    }

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
        }
    }
}

// ---------------------------------------------------------------- owners

/// An owned byte buffer whose start is 8-byte aligned (backed by `u64`s), so a
/// [`SceneView`] can borrow it.
#[derive(Debug, Clone, Default)]
pub struct AlignedBytes {
    words: Vec<u64>,
    len: usize,
}

impl AlignedBytes {
    /// Copies `bytes` into an aligned buffer.
    pub fn from_slice(bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        dst[..bytes.len()].copy_from_slice(bytes);
        Self {
            words,
            len: bytes.len(),
        }
    }

    /// A zero-filled aligned buffer of `len` bytes.
    pub fn zeroed(len: usize) -> Self {
        Self {
            words: vec![0u64; len.div_ceil(8)],
            len,
        }
    }

    /// The bytes, writable (8-aligned start).
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        let all: &mut [u8] = bytemuck::cast_slice_mut(&mut self.words);
        let len = self.len.min(all.len());
        &mut all[..len]
    }

    /// Reads a whole file into an aligned buffer.
    pub fn read(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |source| SceneError::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = usize::try_from(file.metadata().map_err(io)?.len()).unwrap_or(usize::MAX);
        let mut words = vec![0u64; len.div_ceil(8)];
        let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        let dst = dst.get_mut(..len).unwrap_or_default();
        file.read_exact(dst).map_err(io)?;
        // a file that grew meanwhile: read the rest into a bigger buffer
        let mut rest = Vec::new();
        file.read_to_end(&mut rest).map_err(io)?;
        if rest.is_empty() {
            Ok(Self { words, len })
        } else {
            let mut all = bytemuck::cast_slice::<u64, u8>(&words)[..len].to_vec();
            all.extend_from_slice(&rest);
            Ok(Self::from_slice(&all))
        }
    }

    /// The bytes (8-aligned start).
    pub fn as_bytes(&self) -> &[u8] {
        let all: &[u8] = bytemuck::cast_slice(&self.words);
        all.get(..self.len).unwrap_or(all)
    }
}

#[derive(Debug)]
enum Storage {
    Owned(AlignedBytes),
    Mapped(memmap2::Mmap),
}

/// A validated scene file held in memory (read into an [`AlignedBytes`] by
/// default, or memory-mapped with the explicit opt-in [`SceneFile::open_mmap`]).
#[derive(Debug)]
pub struct SceneFile {
    storage: Storage,
    layout: Layout,
}

impl SceneFile {
    /// Reads the file into an aligned buffer (unpacking a packed scene, see
    /// [`packed`](super::packed)) and validates it.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let bytes = AlignedBytes::read(path)?;
        if super::packed::is_packed(bytes.as_bytes()) {
            Self::from_aligned(super::packed::unpack(bytes.as_bytes())?)
        } else {
            Self::from_aligned(bytes)
        }
    }

    /// Validates the bytes of a scene file in either form (plain or packed),
    /// copying them into an aligned buffer (unpacking a packed scene).
    pub fn from_file_bytes(bytes: &[u8]) -> Result<Self, SceneError> {
        Self::from_aligned(super::packed::load(bytes)?)
    }

    /// Validates an aligned buffer and keeps it.
    pub fn from_aligned(bytes: AlignedBytes) -> Result<Self, SceneError> {
        let layout = Self::check(bytes.as_bytes())?;
        Ok(Self {
            storage: Storage::Owned(bytes),
            layout,
        })
    }

    /// Memory-maps a plain (not packed) scene file and validates it.
    ///
    /// # Safety
    /// The mapping reflects later changes of the file. If the file is modified
    /// or truncated (by this or any other process) while the `SceneFile` lives,
    /// the validated bytes change underneath every view: that is undefined
    /// behaviour. Use it only for files nothing writes to; otherwise use
    /// [`SceneFile::open`].
    pub unsafe fn open_mmap(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let path = path.as_ref();
        let io = |source| SceneError::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: the caller guarantees (see `# Safety`) that the file is not
        // modified while the map lives; a mapping starts on a page boundary, so
        // it is 8-byte aligned. This is the only `unsafe` of the scene module.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        if super::packed::is_packed(&map) {
            return Err(SceneError::Packed {
                reason: "a packed scene cannot be memory-mapped; open it with SceneFile::open or write it plain (`extrack import --plain`)".into(),
            });
        }
        let layout = Self::check(&map)?;
        Ok(Self {
            storage: Storage::Mapped(map),
            layout,
        })
    }

    fn check(bytes: &[u8]) -> Result<Layout, SceneError> {
        let layout = Layout::validate(bytes)?;
        Checker { v: &layout.view(bytes) }.run()?;
        Ok(layout)
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Owned(b) => b.as_bytes(),
            Storage::Mapped(m) => m,
        }
    }

    /// The validated view (no re-validation, no copy).
    pub fn view(&self) -> SceneView<'_> {
        self.layout.view(self.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_bytes_are_aligned_and_exact() {
        for len in [0usize, 1, 7, 8, 9, 100] {
            let data: Vec<u8> = (0..len as u8).collect();
            let a = AlignedBytes::from_slice(&data);
            assert_eq!(a.as_bytes(), &data[..]);
            assert_eq!(a.as_bytes().as_ptr() as usize % 8, 0);
        }
    }

    #[test]
    fn empty_scene_views_and_reads_from_a_file() {
        let bytes = SceneData::default().write();
        let dir = std::env::temp_dir().join(format!("extrack-scene-view-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("empty.exs");
        std::fs::write(&path, &bytes).unwrap();
        let a = AlignedBytes::read(&path).unwrap();
        assert_eq!(a.as_bytes(), &bytes[..]);
        let f = SceneFile::open(&path).unwrap();
        let v = f.view();
        assert_eq!(v.bodies().len(), 0);
        // the optional sections of 2.1 are written only when they hold records
        let required = SectionId::ALL.iter().filter(|s| s.is_required()).count();
        assert_eq!(v.sections().len(), required);
        assert_eq!(v.version(), (VERSION_MAJOR, VERSION_MINOR));
        assert!(v.surfaces().is_empty() && v.piece_origins().is_empty());
        assert_eq!(v.to_data(), SceneData::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sub_never_panics() {
        let pool = [1u32, 2, 3];
        assert_eq!(sub(&pool, Span::new(1, 2)), &[2, 3]);
        assert!(sub(&pool, Span::new(2, 2)).is_empty());
        assert!(sub(&pool, Span::new(u32::MAX, u32::MAX)).is_empty());
    }
}

//! Serialising a [`SceneData`] into `.exs` bytes, and the low-level container
//! writer [`assemble`] (header, section table, 8-aligned sections, checksums).
//!
//! Layout produced: header, section table, then the sections in
//! [`SectionId::ALL`] order, each starting at the next multiple of 8, gaps
//! zero-filled (optional sections only when they hold records; the header
//! says minor 2 only when a self-check section is present, else 1). Pools are filled in record order (bodies, then pieces with
//! their poles, trim loops and adjacency, then edges, vertices, BVH nodes), so
//! the output depends only on the data: the writer is deterministic.

use super::checksum::{crc32, header_crc};
use super::data::{BvhKind, EdgeSide, SceneData, TrimCurve};
use super::records::*;
use super::SceneError;
use std::path::Path;

/// One section to place in a file with [`assemble`].
#[derive(Debug, Clone, PartialEq)]
pub struct RawSection {
    /// Section id.
    pub id: u32,
    /// Section flags ([`SECTION_REQUIRED`] or 0).
    pub flags: u32,
    /// Size of one record.
    pub record_size: u32,
    /// Number of records.
    pub record_count: u32,
    /// The section bytes (`record_size × record_count` of them for a valid file).
    pub bytes: Vec<u8>,
}

fn pad8(n: usize) -> usize {
    n.div_ceil(8) * 8
}

/// Lays out a container: header (with the given version), section table,
/// sections in the given order at 8-aligned offsets, checksums. Used by
/// [`SceneData::write`]; public so tools and tests can build files of other
/// minor versions or with extra sections.
pub fn assemble(version_major: u16, version_minor: u16, sections: &[RawSection]) -> Vec<u8> {
    let hsize = size_of::<Header>();
    let table_len = sections.len() * size_of::<SectionEntry>();
    let mut offset = pad8(hsize + table_len);
    let mut entries = Vec::with_capacity(sections.len());
    for s in sections {
        entries.push(SectionEntry {
            id: s.id,
            flags: s.flags,
            offset: offset as u64,
            length: s.bytes.len() as u64,
            record_size: s.record_size,
            record_count: s.record_count,
            crc: crc32(&s.bytes),
            reserved: 0,
        });
        offset = pad8(offset + s.bytes.len());
    }
    let total = offset;
    let mut out = vec![0u8; total];
    let header = Header {
        magic: MAGIC,
        version_major,
        version_minor,
        endian: ENDIAN_MARKER,
        flags: 0,
        section_count: sections.len() as u32,
        total_len: total as u64,
        reserved: 0,
        header_crc: 0,
    };
    out[..hsize].copy_from_slice(bytemuck::bytes_of(&header));
    out[hsize..hsize + table_len].copy_from_slice(bytemuck::cast_slice(&entries));
    for (s, e) in sections.iter().zip(&entries) {
        let o = e.offset as usize;
        out[o..o + s.bytes.len()].copy_from_slice(&s.bytes);
    }
    let crc = header_crc(&out[..hsize], &out[hsize..hsize + table_len]);
    out[36..40].copy_from_slice(&crc.to_le_bytes());
    out
}

/// Packs strings into the blob; identical strings are stored once (first occurrence).
#[derive(Default)]
struct StringPool {
    blob: Vec<u8>,
    seen: std::collections::HashMap<String, StrRef>,
}

impl StringPool {
    fn add(&mut self, s: &str) -> StrRef {
        if let Some(r) = self.seen.get(s) {
            return *r;
        }
        let r = StrRef {
            offset: self.blob.len() as u32,
            len: s.len() as u32,
        };
        self.blob.extend_from_slice(s.as_bytes());
        self.seen.insert(s.to_owned(), r);
        r
    }
}

fn push<T: Copy>(pool: &mut Vec<T>, items: &[T]) -> Span {
    let first = pool.len() as u32;
    pool.extend_from_slice(items);
    Span::new(first, items.len() as u32)
}

fn boundary_record(b: super::data::Boundary) -> BoundaryRecord {
    let (side, trim_loop, trim_curve) = b.codes();
    BoundaryRecord {
        side,
        trim_loop,
        trim_curve,
        reserved: 0,
    }
}

fn side_record(s: &EdgeSide) -> EdgeSideRecord {
    let (map, uv_start, uv_end) = s.map.codes();
    EdgeSideRecord {
        piece: s.piece,
        map,
        boundary: boundary_record(s.boundary),
        uv_start,
        uv_end,
    }
}

fn section<T: bytemuck::Pod>(id: SectionId, items: &[T]) -> RawSection {
    RawSection {
        id: id as u32,
        flags: SECTION_REQUIRED,
        record_size: size_of::<T>() as u32,
        record_count: items.len() as u32,
        bytes: bytemuck::cast_slice(items).to_vec(),
    }
}

fn optional(mut s: RawSection) -> RawSection {
    s.flags = 0;
    s
}

impl SceneData {
    /// Serialises the scene (deterministic: equal data gives equal bytes).
    ///
    /// Writing never fails; whether the data is consistent (indices in range,
    /// finite geometry, …) is decided by the reader: use [`SceneData::check`].
    pub fn write(&self) -> Vec<u8> {
        let mut strings = StringPool::default();
        let mut str_refs: Vec<StrRef> = Vec::new();
        let mut tolerances: Vec<ToleranceRecord> = Vec::new();
        let mut poles: Vec<[f64; 4]> = Vec::new();
        let mut trim_loops: Vec<TrimLoopRecord> = Vec::new();
        let mut trim_curves: Vec<TrimCurveRecord> = Vec::new();
        let mut trim_points: Vec<[f64; 3]> = Vec::new();
        let mut adjacency: Vec<AdjacencyRecord> = Vec::new();
        let mut knots: Vec<f64> = Vec::new();
        let mut samples: Vec<EdgeSampleRecord> = Vec::new();
        let mut indices: Vec<u32> = Vec::new();

        let m = &self.meta;
        let source_name = strings.add(&m.source_name);
        let producer = strings.add(&m.producer);
        let warn_refs: Vec<StrRef> = m.warnings.iter().map(|w| strings.add(w)).collect();
        let warnings = push(&mut str_refs, &warn_refs);
        let tol: Vec<ToleranceRecord> = m
            .tolerances
            .iter()
            .map(|t| ToleranceRecord {
                name: strings.add(&t.name),
                value: t.value,
            })
            .collect();
        let tolerance_span = push(&mut tolerances, &tol);
        let meta = MetaRecord {
            source_name,
            producer,
            source_format: m.source_format.code(),
            reserved: 0,
            warnings,
            tolerances: tolerance_span,
        };

        let bodies: Vec<BodyRecord> = self
            .bodies
            .iter()
            .map(|b| BodyRecord {
                name: strings.add(&b.name),
                kind: b.kind.code(),
                reserved: 0,
                source_id: b.source_id,
                placement: b.placement,
                bbox: b.bbox,
                pieces: b.pieces,
                edges: b.edges,
                vertices: b.vertices,
                bvh: b.bvh,
                bvh_root: b.bvh_root,
                reserved2: 0,
            })
            .collect();

        let mut pieces = Vec::with_capacity(self.pieces.len());
        for p in &self.pieces {
            let pole_span = push(&mut poles, &p.poles);
            let loops: Vec<TrimLoopRecord> = p
                .trim_loops
                .iter()
                .map(|l| {
                    let curves: Vec<TrimCurveRecord> = l
                        .curves
                        .iter()
                        .map(|c| {
                            let (degree, pts): (u32, Vec<[f64; 3]>) = match c {
                                TrimCurve::Polyline(pts) => (1, pts.iter().map(|q| [q[0], q[1], 1.0]).collect()),
                                TrimCurve::Bezier(pts) => (pts.len().saturating_sub(1) as u32, pts.clone()),
                            };
                            TrimCurveRecord {
                                kind: c.kind_code(),
                                degree,
                                points: push(&mut trim_points, &pts),
                            }
                        })
                        .collect();
                    TrimLoopRecord {
                        curves: push(&mut trim_curves, &curves),
                        flags: if l.outer { LOOP_OUTER } else { 0 },
                        reserved: 0,
                    }
                })
                .collect();
            let loop_span = push(&mut trim_loops, &loops);
            let adj: Vec<AdjacencyRecord> = p
                .adjacency
                .iter()
                .map(|a| {
                    let (kind, index) = a.feature.codes();
                    AdjacencyRecord {
                        boundary: boundary_record(a.boundary),
                        feature: FeatureRecord { kind, index },
                    }
                })
                .collect();
            let adj_span = push(&mut adjacency, &adj);
            let flags = (if p.reversed { PIECE_REVERSED } else { 0 })
                | (if p.trimmed { PIECE_TRIMMED } else { 0 })
                | (if p.fully_inside { PIECE_FULLY_INSIDE } else { 0 });
            pieces.push(PieceRecord {
                body: p.body,
                class: p.class.code(),
                source_face: p.source_face,
                degree_u: p.degree_u,
                degree_v: p.degree_v,
                poles: pole_span,
                flags,
                reserved: 0,
                domain: p.domain,
                cone: p.cone,
                bbox: p.bbox,
                trim_loops: loop_span,
                adjacency: adj_span,
            });
        }

        let mut edges = Vec::with_capacity(self.edges.len());
        for e in &self.edges {
            let knot_span = push(&mut knots, &e.knots);
            let pole_span = push(&mut poles, &e.poles);
            let recs: Vec<EdgeSampleRecord> = e
                .samples
                .iter()
                .map(|s| EdgeSampleRecord {
                    t: s.t,
                    normal_a: s.normal_a,
                    normal_b: s.normal_b,
                })
                .collect();
            edges.push(EdgeRecord {
                kind: e.kind.code(),
                reserved: 0,
                source_id: e.source_id,
                body: e.body,
                curve_degree: e.curve_degree,
                vertices: e.vertices,
                knots: knot_span,
                poles: pole_span,
                samples: push(&mut samples, &recs),
                sides: [side_record(&e.sides[0]), side_record(&e.sides[1])],
            });
        }

        let vertices: Vec<VertexRecord> = self
            .vertices
            .iter()
            .map(|v| VertexRecord {
                point: v.point,
                cone: v.cone,
                edges: push(&mut indices, &v.edges),
                pieces: push(&mut indices, &v.pieces),
                body: v.body,
                reserved: 0,
                source_id: v.source_id,
            })
            .collect();

        let nodes: Vec<BvhNodeRecord> = self
            .bvh_nodes
            .iter()
            .map(|n| {
                let (a, b) = match &n.kind {
                    BvhKind::Interior(l, r) => (*l, *r),
                    BvhKind::Leaf(list) => {
                        let s = push(&mut indices, list);
                        (s.first, s.count)
                    }
                };
                BvhNodeRecord {
                    bbox: n.bbox,
                    kind: n.kind.code(),
                    reserved: 0,
                    a,
                    b,
                }
            })
            .collect();

        // surfaces last in both pools, so files without them keep the 2.0 layout
        let surfaces: Vec<SurfaceRecord> = self
            .surfaces
            .iter()
            .map(|f| SurfaceRecord {
                degree_u: f.degree_u,
                degree_v: f.degree_v,
                count_u: f.count_u,
                count_v: f.count_v,
                knots_u: push(&mut knots, &f.knots_u),
                knots_v: push(&mut knots, &f.knots_v),
                poles: push(&mut poles, &f.poles),
            })
            .collect();
        let origins: Vec<PieceOriginRecord> = if self.pieces.iter().any(|p| p.origin.is_some()) {
            self.pieces
                .iter()
                .map(|p| match p.origin {
                    Some(o) => PieceOriginRecord {
                        surface: o.surface,
                        span_u: o.span[0],
                        span_v: o.span[1],
                        reserved: 0,
                        rect: o.rect,
                    },
                    None => PieceOriginRecord {
                        surface: NONE,
                        span_u: 0,
                        span_v: 0,
                        reserved: 0,
                        rect: [0.0, 1.0, 0.0, 1.0],
                    },
                })
                .collect()
        } else {
            Vec::new()
        };

        let mut sections = vec![
            section(SectionId::Meta, &[meta]),
            RawSection {
                id: SectionId::Strings as u32,
                flags: SECTION_REQUIRED,
                record_size: 1,
                record_count: strings.blob.len() as u32,
                bytes: strings.blob,
            },
            section(SectionId::StrRefs, &str_refs),
            section(SectionId::Tolerances, &tolerances),
            section(SectionId::Bodies, &bodies),
            section(SectionId::Pieces, &pieces),
            section(SectionId::Poles, &poles),
            section(SectionId::TrimLoops, &trim_loops),
            section(SectionId::TrimCurves, &trim_curves),
            section(SectionId::TrimPoints, &trim_points),
            section(SectionId::Adjacency, &adjacency),
            section(SectionId::Edges, &edges),
            section(SectionId::Knots, &knots),
            section(SectionId::EdgeSamples, &samples),
            section(SectionId::Vertices, &vertices),
            section(SectionId::Indices, &indices),
            section(SectionId::BvhNodes, &nodes),
        ];
        // optional sections (2.1) only when there is something to say
        if !surfaces.is_empty() {
            sections.push(optional(section(SectionId::Surfaces, &surfaces)));
        }
        if !origins.is_empty() {
            sections.push(optional(section(SectionId::PieceOrigins, &origins)));
        }
        // the self-check (2.2): a scene without one stays a 2.1 file byte for byte
        let checked = !self.face_checks.is_empty() || !self.body_checks.is_empty();
        if !self.face_checks.is_empty() {
            sections.push(optional(section(SectionId::FaceChecks, &self.face_checks)));
        }
        if !self.body_checks.is_empty() {
            sections.push(optional(section(SectionId::BodyChecks, &self.body_checks)));
        }
        let minor = if checked {
            VERSION_MINOR
        } else {
            VERSION_MINOR_WITHOUT_CHECKS
        };
        assemble(VERSION_MAJOR, minor, &sections)
    }

    /// Writes the scene to a file.
    pub fn write_to_path(&self, path: impl AsRef<Path>) -> Result<(), SceneError> {
        let path = path.as_ref();
        std::fs::write(path, self.write()).map_err(|source| SceneError::Io {
            path: path.to_owned(),
            source,
        })
    }

    /// The packed form of [`SceneData::write`]'s bytes (Zstandard at `level`,
    /// see [`packed`](super::packed)).
    pub fn write_packed(&self, level: i32) -> Result<Vec<u8>, SceneError> {
        super::packed::pack(&self.write(), level)
    }

    /// Checks the data the way a reader will: writes it and validates the bytes.
    pub fn check(&self) -> Result<(), SceneError> {
        let bytes = super::AlignedBytes::from_slice(&self.write());
        super::SceneView::from_bytes(bytes.as_bytes()).map(|_| ())
    }
}

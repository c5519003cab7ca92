//! Structural validation of a scene buffer (steps 1 and 2 of the
//! [module docs](super)): the header, the section table and the sections'
//! byte ranges, checksums and padding, giving the [`Layout`] a
//! [`SceneView`] is built on.

use super::{cast, SceneView};
use crate::scene::records::*;
use crate::scene::{checksum, SceneError};
use bytemuck::Zeroable;
use std::ops::Range;

/// Byte ranges of the known sections of a validated buffer (index = `SectionId::ALL` position).
#[derive(Debug, Clone)]
pub(super) struct Layout {
    known: [Range<usize>; SectionId::ALL.len()],
    table: Range<usize>,
}

fn section_label(id: u32) -> String {
    SectionId::from_code(id).map_or_else(|| format!("#{id}"), |s| s.name().to_owned())
}

impl Layout {
    /// Validates the header and the section table of `bytes` (steps 1 and 2).
    pub(super) fn validate(bytes: &[u8]) -> Result<Layout, SceneError> {
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

    /// The view of `bytes` (the buffer this layout was validated on).
    pub(super) fn view<'a>(&self, bytes: &'a [u8]) -> SceneView<'a> {
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
            face_checks: cast(bytes, &r(SectionId::FaceChecks)),
            body_checks: cast(bytes, &r(SectionId::BodyChecks)),
        }
    }
}

//! Derived data of a scene: the fields a packed scene of codec 2
//! ([`CODEC_ZSTD_DERIVED`](super::packed::CODEC_ZSTD_DERIVED)) does not store
//! but recomputes at load (`formats/scene.md`, "Packed container").
//!
//! Most of a prepared scene is redundant: a B-spline face of `n` knot spans
//! becomes `n` or more pieces whose Bézier poles are all functions of the
//! face's net (the optional `surfaces` and `piece_origins` sections of 2.1),
//! every piece's box is a function of its poles, every BVH a function of the
//! boxes. A *residual image* is the plain scene with each
//! derivable 8-byte field replaced by `bits(value) XOR bits(prediction)`:
//! zero wherever the prediction is exact, which the compressor then all but
//! removes. Predictions use only the `+ − × ÷ √`, `min` and `max` of IEEE 754
//! doubles in a fixed order (no library transcendental functions), so every
//! platform computes the same bits. Normal cones are stored: their axis is
//! a function of the span too, but the Bernstein products it takes cost more
//! at load than its bytes, and the half-angle is an `acos`.
//!
//! The residual image is read before it is validated, so everything here is
//! bounds-checked and bounded in work: a prediction whose inputs are missing,
//! out of range or inconsistent is simply not made (the field then holds its
//! value unchanged), and the scene's checksums decide afterwards whether the
//! result is the scene that was packed. Decoding needs no other guarantee:
//! [`encode`] is only used after checking that [`decode`] inverts it.

use super::records::*;
use crate::geom::bernstein::restrict_poles;
use crate::geom::{Hpoint, NurbsSurface, MAX_DEGREE};
use crate::scene::bvh;
use crate::scene::bvh::hull_box;
use crate::scene::data::BvhKind;
use std::ops::Range;

/// Predicted fields: byte offsets in the image with the predicted bits of
/// 8-byte (`f64`) and 4-byte (`u32`) fields.
#[derive(Default)]
struct Predictions {
    w8: Vec<(usize, u64)>,
    w4: Vec<(usize, u32)>,
}

impl Predictions {
    /// XORs the predictions into the image (offsets outside it are ignored).
    fn apply(&mut self, img: &mut [u8]) {
        for (at, bits) in self.w8.drain(..) {
            if let Some(b) = img.get_mut(at..at + 8) {
                let x = u64::from_le_bytes(b.try_into().unwrap_or([0; 8])) ^ bits;
                b.copy_from_slice(&x.to_le_bytes());
            }
        }
        for (at, bits) in self.w4.drain(..) {
            if let Some(b) = img.get_mut(at..at + 4) {
                let x = u32::from_le_bytes(b.try_into().unwrap_or([0; 4])) ^ bits;
                b.copy_from_slice(&x.to_le_bytes());
            }
        }
    }
}

/// Byte offsets of fields inside a [`PieceRecord`] (pinned by the format's tests).
const PIECE_DEGREE_U: usize = 16;
const PIECE_DEGREE_V: usize = 20;
const PIECE_POLES: usize = 24;
const PIECE_BBOX: usize = 104;

/// Most refined-net poles the decoder computes for surfaces, per pole record
/// of the file (plus a constant): bounds the work a hostile file can ask for.
const REFINE_BUDGET_PER_POLE: usize = 64;

fn u32_at(img: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(img.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

fn u64_at(img: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(img.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

fn span_at(img: &[u8], at: usize) -> Option<Span> {
    Some(Span::new(u32_at(img, at)?, u32_at(img, at + 4)?))
}

/// A section of an unvalidated image: its byte range and record count.
#[derive(Debug, Clone, Default)]
struct Sec {
    range: Range<usize>,
    count: usize,
}

impl Sec {
    /// Byte offset of record `i` of `size` bytes, when it lies inside the section.
    fn record(&self, i: usize, size: usize) -> Option<usize> {
        (i < self.count).then(|| self.range.start + i * size)
    }
    /// Byte range of records `s` of `size` bytes, when inside the section.
    fn records(&self, s: Span, size: usize) -> Option<Range<usize>> {
        let r = s.range()?;
        (r.end <= self.count).then(|| self.range.start + r.start * size..self.range.start + r.end * size)
    }
}

/// The known sections of an image, read from its header and table without
/// validating anything else (a section whose entry is inconsistent reads as
/// absent).
struct Sections {
    by_id: Vec<(SectionId, Sec)>,
}

impl Sections {
    fn read(img: &[u8]) -> Sections {
        let mut by_id = Vec::new();
        let count = u32_at(img, 20).unwrap_or(0) as usize;
        let hsize = size_of::<Header>();
        let esize = size_of::<SectionEntry>();
        for k in 0..count {
            let Some(at) = k.checked_mul(esize).and_then(|o| o.checked_add(hsize)) else {
                break;
            };
            let (Some(id), Some(offset), Some(length), Some(size), Some(n)) = (
                u32_at(img, at),
                u64_at(img, at + 8),
                u64_at(img, at + 16),
                u32_at(img, at + 24),
                u32_at(img, at + 28),
            ) else {
                break;
            };
            let Some(id) = SectionId::from_code(id) else { continue };
            if size as usize != id.record_size() || (size as u64).checked_mul(n as u64) != Some(length) {
                continue;
            }
            let (Ok(start), Ok(len)) = (usize::try_from(offset), usize::try_from(length)) else {
                continue;
            };
            let Some(end) = start.checked_add(len).filter(|&e| e <= img.len()) else {
                continue;
            };
            if by_id.iter().all(|(s, _)| *s != id) {
                by_id.push((
                    id,
                    Sec {
                        range: start..end,
                        count: n as usize,
                    },
                ));
            }
        }
        Sections { by_id }
    }

    fn get(&self, id: SectionId) -> Sec {
        self.by_id
            .iter()
            .find(|(s, _)| *s == id)
            .map(|(_, r)| r.clone())
            .unwrap_or_default()
    }
}

fn hpoints(img: &[u8], r: Range<usize>) -> Vec<Hpoint> {
    img.get(r)
        .unwrap_or(&[])
        .chunks_exact(32)
        .map(|c| std::array::from_fn(|k| f64::from_le_bytes(c[8 * k..8 * k + 8].try_into().unwrap_or([0; 8]))))
        .collect()
}

fn f64s(img: &[u8], r: Range<usize>) -> Vec<f64> {
    img.get(r)
        .unwrap_or(&[])
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}

/// The Bézier spans of one surface: span counts in u and v, degrees, and the
/// poles of every span (u-major, as [`NurbsSurface::bezier_patches`]).
struct Spans {
    n_v: usize,
    n_u: usize,
    degree: (usize, usize),
    poles: Vec<Hpoint>,
}

/// Upper bound of the refined net's size in one direction: one run of
/// `degree` poles per distinct breakpoint inside the domain, plus the ends.
fn refined_len(degree: usize, knots: &[f64], n: usize) -> usize {
    let (Some(&lo), Some(&hi)) = (knots.get(degree), knots.get(n)) else {
        return usize::MAX;
    };
    let mut distinct = 0usize;
    let mut last = lo;
    for &k in knots.iter().skip(degree + 1).take(n.saturating_sub(degree + 1)) {
        if k > last && k < hi {
            distinct += 1;
            last = k;
        }
    }
    (distinct + 1).saturating_mul(degree).saturating_add(1)
}

/// Surface `i` of the image as a NURBS surface and its Bézier spans, when its
/// record is consistent and its refinement fits in `budget` (decremented).
fn surface_spans(img: &[u8], s: &Sections, i: usize, budget: &mut usize) -> Option<Spans> {
    let surfaces = s.get(SectionId::Surfaces);
    let at = surfaces.record(i, size_of::<SurfaceRecord>())?;
    let rec: SurfaceRecord = bytemuck::pod_read_unaligned(img.get(at..at + size_of::<SurfaceRecord>())?);
    let (p, q) = (rec.degree_u as usize, rec.degree_v as usize);
    if !(1..=MAX_DEGREE).contains(&p) || !(1..=MAX_DEGREE).contains(&q) {
        return None;
    }
    let knots = s.get(SectionId::Knots);
    let ku = f64s(img, knots.records(rec.knots_u, 8)?);
    let kv = f64s(img, knots.records(rec.knots_v, 8)?);
    let (nu, nv) = (rec.count_u as usize, rec.count_v as usize);
    let work = refined_len(p, &ku, nu).saturating_mul(refined_len(q, &kv, nv));
    if work > *budget {
        return None;
    }
    *budget -= work;
    let cw = hpoints(img, s.get(SectionId::Poles).records(rec.poles, 32)?);
    let surface = NurbsSurface::try_from_homogeneous(p, q, ku, kv, nu, nv, cw).ok()?;
    let (n_u, n_v, poles) = surface.bezier_blocks();
    Some(Spans {
        n_u,
        n_v,
        degree: (p, q),
        poles,
    })
}

/// Phase 1: every piece's poles from its origin (the surface's Bézier span
/// restricted to the origin's rectangle with [`restrict_poles`]).
fn predict_poles(img: &[u8], s: &Sections, out: &mut Predictions) {
    let pieces = s.get(SectionId::Pieces);
    let origins = s.get(SectionId::PieceOrigins);
    let poles = s.get(SectionId::Poles);
    let surface_count = s.get(SectionId::Surfaces).count;
    let mut budget = poles
        .count
        .saturating_mul(REFINE_BUDGET_PER_POLE)
        .saturating_add(1 << 16);
    let mut cache: Vec<Option<Option<Spans>>> = Vec::new();
    cache.resize_with(surface_count, || None);
    let psize = size_of::<PieceRecord>();
    let osize = size_of::<PieceOriginRecord>();
    for i in 0..pieces.count.min(origins.count) {
        let (Some(pa), Some(oa)) = (pieces.record(i, psize), origins.record(i, osize)) else {
            break;
        };
        let Some(o) = img
            .get(oa..oa + osize)
            .map(bytemuck::pod_read_unaligned::<PieceOriginRecord>)
        else {
            break;
        };
        let r = o.rect;
        if !(0.0 <= r[0] && r[0] < r[1] && r[1] <= 1.0 && 0.0 <= r[2] && r[2] < r[3] && r[3] <= 1.0) {
            continue;
        }
        let Some(slot) = cache.get_mut(o.surface as usize) else {
            continue;
        };
        let spans = slot.get_or_insert_with(|| surface_spans(img, s, o.surface as usize, &mut budget));
        let Some(spans) = spans else { continue };
        let (p, q) = spans.degree;
        let (Some(du), Some(dv), Some(span)) = (
            u32_at(img, pa + PIECE_DEGREE_U),
            u32_at(img, pa + PIECE_DEGREE_V),
            span_at(img, pa + PIECE_POLES),
        ) else {
            continue;
        };
        let n = (p + 1) * (q + 1);
        if (du as usize, dv as usize) != (p, q) || span.count as usize != n {
            continue;
        }
        let (iu, iv) = (o.span_u as usize, o.span_v as usize);
        if iu >= spans.n_u || iv >= spans.n_v {
            continue;
        }
        let first = (iu * spans.n_v + iv) * n;
        let (Some(block), Some(target)) = (spans.poles.get(first..first + n), poles.records(span, 32)) else {
            continue;
        };
        let predicted = restrict_poles(p, q, block, r);
        for (k, h) in predicted.iter().enumerate() {
            for (c, x) in h.iter().enumerate() {
                out.w8.push((target.start + 32 * k + 8 * c, x.to_bits()));
            }
        }
    }
}

/// Phase 2: every piece's box ([`hull_box`]) from its poles (decoded by phase 1).
fn predict_bounds(img: &[u8], s: &Sections, out: &mut Predictions) {
    let pieces = s.get(SectionId::Pieces);
    let poles = s.get(SectionId::Poles);
    let psize = size_of::<PieceRecord>();
    for i in 0..pieces.count {
        let Some(pa) = pieces.record(i, psize) else { break };
        let (Some(du), Some(dv), Some(span)) = (
            u32_at(img, pa + PIECE_DEGREE_U),
            u32_at(img, pa + PIECE_DEGREE_V),
            span_at(img, pa + PIECE_POLES),
        ) else {
            break;
        };
        let (p, q) = (du as usize, dv as usize);
        if !(1..=MAX_DEGREE).contains(&p) || !(1..=MAX_DEGREE).contains(&q) || span.count as usize != (p + 1) * (q + 1)
        {
            continue;
        }
        let Some(r) = poles.records(span, 32) else { continue };
        let cw = hpoints(img, r);
        let b = hull_box(&cw);
        for (k, x) in b.min.iter().chain(&b.max).enumerate() {
            out.w8.push((pa + PIECE_BBOX + 8 * k, x.to_bits()));
        }
    }
}

/// Phase 3: every body's BVH ([`bvh::build`] over its pieces' boxes) and the
/// leaves' piece lists, placed as the writer places them (nodes at the body's
/// `bvh` range, leaf lists after the vertices' lists in node order).
fn predict_bvh(img: &[u8], s: &Sections, out: &mut Predictions) {
    let bodies = s.get(SectionId::Bodies);
    let pieces = s.get(SectionId::Pieces);
    let nodes = s.get(SectionId::BvhNodes);
    let indices = s.get(SectionId::Indices);
    let vertices = s.get(SectionId::Vertices);
    let (bsize, psize, nsize, vsize) = (
        size_of::<BodyRecord>(),
        size_of::<PieceRecord>(),
        size_of::<BvhNodeRecord>(),
        size_of::<VertexRecord>(),
    );
    // the writer fills `indices` with the vertices' lists first
    let mut cursor = 0usize;
    for i in 0..vertices.count {
        let Some(va) = vertices.record(i, vsize) else { break };
        for at in [56, 64] {
            if let Some(sp) = span_at(img, va + at).and_then(|s| s.range()) {
                cursor = cursor.max(sp.end);
            }
        }
    }
    for b in 0..bodies.count {
        let Some(ba) = bodies.record(b, bsize) else { break };
        let (Some(ps), Some(bs)) = (span_at(img, ba + 168), span_at(img, ba + 192)) else {
            break;
        };
        let (Some(pr), Some(nr)) = (ps.range(), bs.range()) else {
            continue;
        };
        if pr.end > pieces.count || nr.end > nodes.count || pr.is_empty() {
            continue;
        }
        let mut items: Vec<(u32, Aabb)> = Vec::with_capacity(pr.len());
        for k in pr.clone() {
            let at = pieces.range.start + k * psize + PIECE_BBOX;
            let Some(bytes) = img.get(at..at + size_of::<Aabb>()) else {
                break;
            };
            items.push((k as u32, bytemuck::pod_read_unaligned(bytes)));
        }
        let mut local = Vec::new();
        bvh::build(&mut items, &mut local);
        if local.len() != nr.len() {
            continue;
        }
        for (k, n) in local.iter().enumerate() {
            let at = nodes.range.start + (nr.start + k) * nsize;
            let (kind, a, c) = match &n.kind {
                BvhKind::Interior(l, r) => (BVH_INTERIOR, l + nr.start as u32, r + nr.start as u32),
                BvhKind::Leaf(list) => {
                    let first = cursor;
                    for (j, &piece) in list.iter().enumerate() {
                        if first + j < indices.count {
                            out.w4.push((indices.range.start + 4 * (first + j), piece));
                        }
                    }
                    cursor += list.len();
                    (BVH_LEAF, first as u32, list.len() as u32)
                }
            };
            for (j, x) in n.bbox.min.iter().chain(&n.bbox.max).enumerate() {
                out.w8.push((at + 8 * j, x.to_bits()));
            }
            out.w4.push((at + 48, kind));
            out.w4.push((at + 56, a));
            out.w4.push((at + 60, c));
        }
    }
}

/// The residual image of a plain scene (see the module docs).
pub fn encode(plain: &[u8]) -> Vec<u8> {
    let mut r = plain.to_vec();
    // the section table as stored, read once (decode reads it from the
    // residual image, where header and table are stored as they are)
    let s = Sections::read(plain);
    let mut preds = Predictions::default();
    predict_poles(plain, &s, &mut preds);
    predict_bounds(plain, &s, &mut preds);
    predict_bvh(plain, &s, &mut preds);
    preds.apply(&mut r);
    r
}

/// Turns a residual image back into the plain scene, in place (phases in
/// order, each reading what the previous ones restored).
pub fn decode(img: &mut [u8]) {
    let s = Sections::read(img);
    let mut preds = Predictions::default();
    predict_poles(img, &s, &mut preds);
    preds.apply(img);
    predict_bounds(img, &s, &mut preds);
    preds.apply(img);
    predict_bvh(img, &s, &mut preds);
    preds.apply(img);
}

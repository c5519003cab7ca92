//! The packed `.exs` container: a scene's bytes compressed with Zstandard
//! behind a 40-byte checksummed header (`formats/scene.md`, "Packed
//! container").
//!
//! A prepared scene is mostly `f64` arrays of Bézier poles, trim points and
//! edge samples; neighbouring pieces repeat boundary rows, and weights, flags,
//! indices and padding repeat patterns, so a general-purpose compressor takes
//! most scenes to a fifth or less of the in-place layout. The packed form is
//! what `extrack import` writes by default; readers unpack it once into an
//! 8-aligned [`AlignedBytes`] and then view it in place as usual
//! ([`SceneFile::open`](super::SceneFile::open) does both). Only the plain
//! layout can be memory-mapped.
//!
//! Every byte of a packed file is covered: the header by its own CRC-32, the
//! payload by a CRC-32 and its exact length, the unpacked bytes by the scene's
//! own checksums. The declared unpacked length is bounded
//! ([`MAX_EXPANSION`] times the payload) before anything is allocated.

use super::checksum::crc32;
use super::{AlignedBytes, SceneError};

/// The first 8 bytes of a packed scene (the plain layout starts with
/// `"EXTRACK\0"`).
pub const PACKED_MAGIC: [u8; 8] = *b"EXTRACKZ";
/// Size of the packed container's header.
pub const PACKED_HEADER_LEN: usize = 40;
/// Container version this reader and writer implement.
pub const PACKED_VERSION: u16 = 1;
/// Codec id of Zstandard (RFC 8878) over the plain bytes.
pub const CODEC_ZSTD: u16 = 1;
/// Codec id of Zstandard over the scene's *residual image*: the plain bytes
/// with every field the reader can derive (pieces' poles from their surfaces,
/// boxes, BVHs) XORed with its derivation
/// (`derived`). What [`pack`] writes whenever unpacking
/// reproduces the scene exactly; otherwise it falls back to [`CODEC_ZSTD`].
pub const CODEC_ZSTD_DERIVED: u16 = 2;
/// Compression level `extrack import` uses (Zstandard levels 1–22; 9 takes
/// about 0.2 s for a 4 MB scene and is within 5 % of level 19's size on the
/// corpus).
pub const DEFAULT_LEVEL: i32 = 9;
/// Largest accepted ratio of unpacked to packed length. Scenes of the corpus
/// pack by 3–16×; the bound keeps a hostile header from requesting an
/// unbounded allocation.
pub const MAX_EXPANSION: u64 = 1024;

/// True when `bytes` start with [`PACKED_MAGIC`].
pub fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(&PACKED_MAGIC)
}

fn put_u16(out: &mut [u8], at: usize, v: u16) {
    out[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn put_u32(out: &mut [u8], at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut [u8], at: usize, v: u64) {
    out[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn le<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut a = [0u8; N];
    if let Some(s) = bytes.get(at..at + N) {
        a.copy_from_slice(s);
    }
    a
}

/// Packs the bytes of a plain scene (as [`SceneData::write`](super::SceneData::write)
/// returns them) at a Zstandard `level` (clamped to 1..=22). Deterministic:
/// the same bytes and level give the same output.
pub fn pack(scene: &[u8], level: i32) -> Result<Vec<u8>, SceneError> {
    let residual = super::derived::encode(scene);
    let mut check = residual.clone();
    super::derived::decode(&mut check);
    let (codec, image) = if check == scene {
        (CODEC_ZSTD_DERIVED, &residual[..])
    } else {
        (CODEC_ZSTD, scene)
    };
    pack_with(image, scene.len(), codec, level)
}

/// Packs `image` as it is under `codec`: the scene's bytes for
/// [`CODEC_ZSTD`], a residual image (`derived::encode`)
/// for [`CODEC_ZSTD_DERIVED`]. Nothing is checked: [`pack`] is the writer;
/// this is for tools and tests that need containers of either codec.
pub fn pack_raw(image: &[u8], codec: u16, level: i32) -> Result<Vec<u8>, SceneError> {
    pack_with(image, image.len(), codec, level)
}

fn pack_with(image: &[u8], len: usize, codec: u16, level: i32) -> Result<Vec<u8>, SceneError> {
    let payload = zstd::bulk::compress(image, level.clamp(1, 22)).map_err(|e| SceneError::Packed {
        reason: format!("compression failed: {e}"),
    })?;
    let mut out = vec![0u8; PACKED_HEADER_LEN];
    out[..8].copy_from_slice(&PACKED_MAGIC);
    put_u16(&mut out, 8, PACKED_VERSION);
    put_u16(&mut out, 10, codec);
    // bytes 12..16 reserved (zero)
    put_u64(&mut out, 16, len as u64);
    put_u64(&mut out, 24, payload.len() as u64);
    put_u32(&mut out, 32, crc32(&payload));
    let hcrc = crc32(&out[..36]);
    put_u32(&mut out, 36, hcrc);
    out.extend_from_slice(&payload);
    Ok(out)
}

/// Unpacks a packed scene into an 8-aligned buffer, checking the header, the
/// payload's length and checksum, and the unpacked length. The result still
/// has to be validated as a scene ([`SceneView::from_bytes`](super::SceneView::from_bytes)).
pub fn unpack(bytes: &[u8]) -> Result<AlignedBytes, SceneError> {
    let bad = |reason: String| SceneError::Packed { reason };
    if bytes.len() < PACKED_HEADER_LEN {
        return Err(bad(format!(
            "truncated: {} bytes is shorter than the {PACKED_HEADER_LEN}-byte header",
            bytes.len()
        )));
    }
    if !is_packed(bytes) {
        return Err(bad("bad magic (expected \"EXTRACKZ\")".into()));
    }
    let stored = u32::from_le_bytes(le(bytes, 36));
    let computed = crc32(&bytes[..36]);
    if stored != computed {
        return Err(bad(format!(
            "header checksum mismatch (stored {stored:#010x}, computed {computed:#010x})"
        )));
    }
    let version = u16::from_le_bytes(le(bytes, 8));
    if version != PACKED_VERSION {
        return Err(bad(format!(
            "unsupported container version {version} (this reader implements {PACKED_VERSION})"
        )));
    }
    let codec = u16::from_le_bytes(le(bytes, 10));
    if codec != CODEC_ZSTD && codec != CODEC_ZSTD_DERIVED {
        return Err(bad(format!(
            "unknown codec {codec} (1 = Zstandard, 2 = Zstandard over derived residuals)"
        )));
    }
    let reserved = u32::from_le_bytes(le(bytes, 12));
    if reserved != 0 {
        return Err(SceneError::Reserved {
            what: "packed header bytes 12..16".into(),
            value: u64::from(reserved),
        });
    }
    let unpacked_len = u64::from_le_bytes(le(bytes, 16));
    let payload_len = u64::from_le_bytes(le(bytes, 24));
    let actual = (bytes.len() - PACKED_HEADER_LEN) as u64;
    if payload_len != actual {
        return Err(bad(format!(
            "payload length mismatch: header says {payload_len} bytes, file has {actual} (truncated or padded file)"
        )));
    }
    let payload = &bytes[PACKED_HEADER_LEN..];
    let stored = u32::from_le_bytes(le(bytes, 32));
    let computed = crc32(payload);
    if stored != computed {
        return Err(bad(format!(
            "payload checksum mismatch (stored {stored:#010x}, computed {computed:#010x})"
        )));
    }
    if unpacked_len > payload_len.saturating_mul(MAX_EXPANSION).max(4096) {
        return Err(bad(format!(
            "declared unpacked length {unpacked_len} exceeds {MAX_EXPANSION} times the payload"
        )));
    }
    let len = usize::try_from(unpacked_len).map_err(|_| bad(format!("unpacked length {unpacked_len} too large")))?;
    let mut out = AlignedBytes::zeroed(len);
    let got = zstd::bulk::decompress_to_buffer(payload, out.as_bytes_mut())
        .map_err(|e| bad(format!("corrupt payload: {e}")))?;
    if got != len {
        return Err(bad(format!(
            "payload unpacks to {got} bytes, header says {unpacked_len}"
        )));
    }
    if codec == CODEC_ZSTD_DERIVED {
        super::derived::decode(out.as_bytes_mut());
    }
    Ok(out)
}

/// An aligned copy of a scene file's bytes in either form: packed bytes are
/// unpacked, plain bytes copied.
pub fn load(bytes: &[u8]) -> Result<AlignedBytes, SceneError> {
    if is_packed(bytes) {
        unpack(bytes)
    } else {
        Ok(AlignedBytes::from_slice(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SceneData;

    #[test]
    fn pack_unpack_round_trip_is_exact_and_deterministic() {
        let plain = SceneData::default().write();
        let a = pack(&plain, DEFAULT_LEVEL).unwrap();
        let b = pack(&plain, DEFAULT_LEVEL).unwrap();
        assert_eq!(a, b);
        assert!(is_packed(&a));
        let back = unpack(&a).unwrap();
        assert_eq!(back.as_bytes(), &plain[..]);
        assert_eq!(back.as_bytes().as_ptr() as usize % 8, 0);
        assert_eq!(load(&plain).unwrap().as_bytes(), &plain[..]);
        assert_eq!(load(&a).unwrap().as_bytes(), &plain[..]);
    }

    #[test]
    fn every_single_byte_change_and_truncation_is_rejected() {
        let plain = SceneData::default().write();
        let packed = pack(&plain, DEFAULT_LEVEL).unwrap();
        for i in 0..packed.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut b = packed.clone();
                b[i] ^= flip;
                let r = load(&b).and_then(|a| crate::scene::SceneView::from_bytes(a.as_bytes()).map(|_| ()));
                assert!(r.is_err(), "byte {i} ^ {flip:#x} accepted");
            }
        }
        for n in 0..packed.len() {
            assert!(unpack(&packed[..n]).is_err(), "truncated to {n} accepted");
        }
        let mut longer = packed.clone();
        longer.push(0);
        assert!(unpack(&longer).is_err());
    }

    #[test]
    fn hostile_headers_are_errors_not_allocations() {
        let plain = SceneData::default().write();
        let mut b = pack(&plain, DEFAULT_LEVEL).unwrap();
        // a consistent header claiming an enormous unpacked length
        put_u64(&mut b, 16, u64::MAX);
        let h = crc32(&b[..36]);
        put_u32(&mut b, 36, h);
        let e = unpack(&b).unwrap_err().to_string();
        assert!(e.contains("exceeds"), "{e}");
        // a consistent header with a wrong (smaller) unpacked length
        put_u64(&mut b, 16, plain.len() as u64 - 8);
        let h = crc32(&b[..36]);
        put_u32(&mut b, 36, h);
        assert!(unpack(&b).is_err());
        // a newer container version
        let mut v = pack(&plain, DEFAULT_LEVEL).unwrap();
        put_u16(&mut v, 8, 2);
        let h = crc32(&v[..36]);
        put_u32(&mut v, 36, h);
        let e = unpack(&v).unwrap_err().to_string();
        assert!(e.contains("version 2"), "{e}");
    }
}

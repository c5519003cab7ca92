//! Checksums of the `.exs` format: CRC-32 (IEEE 802.3 polynomial `0x04C11DB7`,
//! reflected, initial value and final xor `0xFFFFFFFF`; the zlib/PNG CRC),
//! computed by `crc32fast`.
//!
//! A CRC-32 detects every error burst of at most 32 bits, so every single-byte
//! change inside a checksummed region is detected. The header checksum covers
//! header bytes `0..36` and the whole section table; every section has its own
//! checksum; every other byte of the file (padding) must be zero.

use super::records::{Header, SectionEntry};
use super::SceneError;

/// Byte offset of `header_crc` in the header (the checksum covers bytes before it).
pub const HEADER_CRC_OFFSET: usize = 36;

/// CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// CRC-32 of header bytes `0..36` followed by the section table bytes.
pub fn header_crc(header_bytes: &[u8], table_bytes: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(header_bytes.get(..HEADER_CRC_OFFSET).unwrap_or(header_bytes));
    h.update(table_bytes);
    h.finalize()
}

/// Recomputes every section checksum and then the header checksum of a scene
/// in place, for tools and tests that patch records directly. Only the header
/// and section table are checked (bounds), nothing else is validated.
pub fn reseal(bytes: &mut [u8]) -> Result<(), SceneError> {
    let hsize = size_of::<Header>();
    let header: Header = bytemuck::pod_read_unaligned(bytes.get(..hsize).ok_or(SceneError::TooShort {
        len: bytes.len(),
        need: hsize,
    })?);
    let esize = size_of::<SectionEntry>();
    let table_len = (header.section_count as usize).saturating_mul(esize);
    let table_end = hsize.saturating_add(table_len);
    if bytes.len() < table_end {
        return Err(SceneError::TooShort {
            len: bytes.len(),
            need: table_end,
        });
    }
    for k in 0..header.section_count as usize {
        let at = hsize + k * esize;
        let mut e: SectionEntry = bytemuck::pod_read_unaligned(&bytes[at..at + esize]);
        let range = usize::try_from(e.offset)
            .ok()
            .and_then(|o| Some(o..o.checked_add(usize::try_from(e.length).ok()?)?))
            .filter(|r| r.end <= bytes.len())
            .ok_or_else(|| SceneError::SectionLayout {
                section: e.id.to_string(),
                reason: "outside the file",
                offset: e.offset,
                length: e.length,
            })?;
        e.crc = crc32(&bytes[range]);
        bytes[at..at + esize].copy_from_slice(bytemuck::bytes_of(&e));
    }
    let crc = header_crc(&bytes[..hsize], &bytes[hsize..table_end]);
    bytes[HEADER_CRC_OFFSET..HEADER_CRC_OFFSET + 4].copy_from_slice(&crc.to_le_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn header_crc_skips_crc_field() {
        let mut h = [7u8; 40];
        let a = header_crc(&h, b"table");
        h[36..40].copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(a, header_crc(&h, b"table"));
        h[35] ^= 1;
        assert_ne!(a, header_crc(&h, b"table"));
    }
}

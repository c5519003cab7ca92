//! Directory entries (IGES 5.3 §2.2.4.4): two 80-column records of ten
//! 8-column fields per entity.

use super::error::IgesError;
use super::records::Record;

/// Subordinate-entity switch (status digits 3–4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subordinate {
    /// 00: independent (a root).
    Independent,
    /// 01: physically dependent (exists only as part of its parent).
    Physical,
    /// 02: logically dependent.
    Logical,
    /// 03: both.
    Both,
}

/// One directory entry.
#[derive(Debug, Clone, PartialEq)]
pub struct DirEntry {
    /// Sequence number of the first record (odd): the entity's DE number.
    pub de: usize,
    /// File line of the first record.
    pub line: usize,
    /// Entity type number.
    pub entity: i64,
    /// 1-based index of the first parameter-data record.
    pub param_ptr: i64,
    /// Transformation matrix pointer (DE number of a 124, 0 = none).
    pub transform: i64,
    /// Blank status (status digits 1–2): 1 = blanked.
    pub blank: u8,
    /// Subordinate switch.
    pub subordinate: Subordinate,
    /// Entity use flag (status digits 5–6): 0 geometry, 1 annotation, 2 definition, 5 2-D parametric, 6 construction.
    pub use_flag: u8,
    /// Number of parameter-data records.
    pub param_count: i64,
    /// Form number.
    pub form: i64,
    /// Entity label (columns 57–64 of the second record), trimmed.
    pub label: String,
    /// Entity subscript.
    pub subscript: i64,
}

fn field<'a>(r: &Record<'a>, k: usize) -> &'a [u8] {
    let d = r.data;
    let a = (k * 8).min(d.len());
    let b = (k * 8 + 8).min(d.len());
    &d[a..b]
}

fn int_field(r: &Record<'_>, k: usize, de: usize, name: &str) -> Result<i64, IgesError> {
    let f = field(r, k);
    let a = f.iter().position(|b| *b != b' ').unwrap_or(f.len());
    let b = f.iter().rposition(|b| *b != b' ').map_or(a, |i| i + 1);
    if a == b {
        return Ok(0);
    }
    super::params::parse_int(&f[a..b]).ok_or_else(|| IgesError::Directory {
        line: r.line,
        de,
        msg: format!(
            "field {} ({name}, columns {}-{}) is not an integer: \"{}\"",
            k + 1,
            k * 8 + 1,
            k * 8 + 8,
            crate::import::escape::escape_bytes(&f[a..b])
        ),
    })
}

/// The entry label, trimmed (no allocation when blank).
fn label(f: &[u8]) -> String {
    if f.iter().all(|&c| c == b' ') {
        return String::new();
    }
    crate::import::escape::escape_bytes(f).trim().to_string()
}

/// Parses all directory entries. The records come in pairs (checked by the record splitter).
pub fn parse(records: &[Record<'_>]) -> Result<Vec<DirEntry>, IgesError> {
    let mut out = Vec::with_capacity(records.len() / 2);
    for pair in records.chunks_exact(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let de = a.seq;
        let entity = int_field(a, 0, de, "entity type")?;
        let entity2 = int_field(b, 0, de, "entity type")?;
        if entity != entity2 {
            return Err(IgesError::Directory {
                line: b.line,
                de,
                msg: format!("entity type {entity2} on the second record differs from {entity} on the first"),
            });
        }
        let status = field(a, 8);
        let mut digits = [0u8; 8];
        for (d, &c) in digits.iter_mut().zip(status) {
            *d = if c == b' ' { 0 } else { c.wrapping_sub(b'0') };
        }
        if digits.iter().any(|&d| d > 9) {
            return Err(IgesError::Directory {
                line: a.line,
                de,
                msg: format!("status number \"{}\" is not 8 digits", crate::import::escape::escape_bytes(status)),
            });
        }
        let pair_at =
            |i: usize| -> u8 { digits.get(i).copied().unwrap_or(0) * 10 + digits.get(i + 1).copied().unwrap_or(0) };
        let subordinate = match pair_at(2) {
            0 => Subordinate::Independent,
            1 => Subordinate::Physical,
            2 => Subordinate::Logical,
            _ => Subordinate::Both,
        };
        out.push(DirEntry {
            de,
            line: a.line,
            entity,
            param_ptr: int_field(a, 1, de, "parameter data pointer")?,
            transform: int_field(a, 6, de, "transformation matrix pointer")?,
            blank: pair_at(0),
            subordinate,
            use_flag: pair_at(4),
            param_count: int_field(b, 3, de, "parameter line count")?,
            form: int_field(b, 4, de, "form number")?,
            label: label(field(b, 7)),
            subscript: int_field(b, 8, de, "entity subscript").unwrap_or(0),
        });
    }
    Ok(out)
}

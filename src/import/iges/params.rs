//! Free-format parameter lexing (IGES 5.3 §2.2.3): parameters separated by
//! the file's parameter delimiter, a record ended by its record delimiter,
//! Hollerith strings `nH…`, integers and reals (`E` or `D` exponents).
//!
//! The lexer works on the concatenated data columns of an entity's parameter
//! records and maps every byte offset back to its file line for errors. Counts
//! read from the file are checked against the bytes that remain before any
//! allocation ([`Params::count`]), so memory stays bounded by the file size.

use super::error::IgesError;
use crate::import::number;

/// One lexed parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'t> {
    /// Omitted (default value).
    Empty,
    /// A Hollerith string.
    Str(&'t [u8]),
    /// Anything else (a number, trimmed).
    Raw(&'t [u8]),
}

/// Where the parameters came from, for error messages.
#[derive(Debug, Clone, Copy)]
pub enum Origin {
    /// The Global section.
    Global,
    /// Parameter data of the entity with this DE number and type.
    Entity {
        /// Directory-entry sequence number.
        de: usize,
        /// Entity type number.
        entity: i64,
    },
}

/// A cursor over one parameter record (an entity's parameters, or the Global section).
#[derive(Debug)]
pub struct Params {
    text: Vec<u8>,
    /// `(offset into text, file line)` for the start of each source record.
    starts: Vec<(usize, usize)>,
    pos: usize,
    index: usize,
    ended: bool,
    pd: u8,
    rd: u8,
    /// Neither delimiter can be part of a number (the one-pass number path is usable).
    quick: bool,
    origin: Origin,
}

impl Params {
    /// A cursor over `text`; `starts` maps offsets to file lines.
    pub fn new(text: Vec<u8>, starts: Vec<(usize, usize)>, pd: u8, rd: u8, origin: Origin) -> Self {
        let numeric = |c: u8| matches!(c, b'0'..=b'9' | b'+' | b'-' | b'.' | b'E' | b'e' | b'D' | b'd');
        Self {
            quick: !numeric(pd) && !numeric(rd),
            text,
            starts,
            pos: 0,
            index: 0,
            ended: false,
            pd,
            rd,
            origin,
        }
    }

    /// The file line of the current position.
    pub fn line(&self) -> usize {
        let p = self.pos.min(self.text.len().saturating_sub(1));
        match self.starts.binary_search_by(|(o, _)| o.cmp(&p)) {
            Ok(i) => self.starts[i].1,
            Err(0) => self.starts.first().map_or(0, |s| s.1),
            Err(i) => self.starts[i - 1].1,
        }
    }

    /// 1-based index of the next parameter to be read (the entity type is 0 for entities).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Bytes not yet consumed.
    pub fn remaining(&self) -> usize {
        if self.ended {
            0
        } else {
            self.text.len().saturating_sub(self.pos)
        }
    }

    /// An error at the current parameter.
    pub fn err(&self, msg: impl Into<String>) -> IgesError {
        let index = self.index.saturating_sub(1);
        match self.origin {
            Origin::Global => IgesError::Global {
                line: self.line(),
                index: self.index + 2,
                msg: msg.into(),
            },
            Origin::Entity { de, entity } => IgesError::Parameter {
                line: self.line(),
                de,
                entity,
                index,
                msg: msg.into(),
            },
        }
    }

    /// True when the record delimiter has been reached.
    pub fn at_end(&self) -> bool {
        self.ended || self.pos >= self.text.len()
    }

    fn next_tok(&mut self) -> Result<Option<Tok<'_>>, IgesError> {
        if self.at_end() {
            return Ok(None);
        }
        self.index += 1;
        let text = &self.text;
        let mut p = self.pos;
        while p < text.len() && text[p] == b' ' {
            p += 1;
        }
        // Hollerith: digits then 'H'
        let mut q = p;
        while q < text.len() && text[q].is_ascii_digit() {
            q += 1;
        }
        if q > p && q < text.len() && (text[q] == b'H' || text[q] == b'h') {
            let n: usize = std::str::from_utf8(&text[p..q])
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(usize::MAX);
            let s0 = q + 1;
            if n > text.len() - s0 {
                self.pos = p;
                self.ended = true;
                return Err(self.err(format!(
                    "Hollerith string of {n} characters runs past the end of the record"
                )));
            }
            let s1 = s0 + n;
            let mut r = s1;
            while r < text.len() && text[r] == b' ' {
                r += 1;
            }
            if r < text.len() && text[r] != self.pd && text[r] != self.rd {
                self.pos = r;
                self.ended = true;
                return Err(self.err("Hollerith string not followed by a delimiter"));
            }
            self.ended = r >= text.len() || text[r] == self.rd;
            self.pos = r + 1;
            return Ok(Some(Tok::Str(&self.text[s0..s1])));
        }
        let mut r = p;
        while r < text.len() && text[r] != self.pd && text[r] != self.rd {
            r += 1;
        }
        self.ended = r >= text.len() || text[r] == self.rd;
        self.pos = r + 1;
        let raw = trim(&self.text[p..r]);
        Ok(Some(if raw.is_empty() { Tok::Empty } else { Tok::Raw(raw) }))
    }

    /// Skips one parameter (any kind); false when the record has ended.
    pub fn skip(&mut self) -> Result<bool, IgesError> {
        Ok(self.next_tok()?.is_some())
    }

    /// Fast path for a plain number followed by a delimiter (no Hollerith,
    /// no blanks inside): parses in one pass and advances; `None` leaves the
    /// cursor untouched for the general path.
    #[inline]
    fn quick_number(&mut self) -> Option<f64> {
        // one pass: the number must end exactly at a delimiter (anything
        // else, e.g. a Hollerith count or embedded blanks, takes the
        // general path)
        let (v, end) = scan_real(&self.text, self.quick_start()?)?;
        self.quick_end(end)?;
        Some(v)
    }

    /// Where a fast-path token starts (past leading blanks); `None` when the
    /// record has ended or the record is not eligible for the fast paths.
    #[inline]
    fn quick_start(&self) -> Option<usize> {
        if self.ended || !self.quick {
            return None;
        }
        let mut p = self.pos;
        while p < self.text.len() && self.text[p] == b' ' {
            p += 1;
        }
        Some(p)
    }

    /// Accepts a fast-path token ending at `p` when a delimiter follows it:
    /// advances past the delimiter; `None` (cursor untouched) otherwise.
    #[inline]
    fn quick_end(&mut self, p: usize) -> Option<()> {
        let c = *self.text.get(p)?;
        if c != self.pd && c != self.rd {
            return None;
        }
        self.ended = c == self.rd;
        self.pos = p + 1;
        self.index += 1;
        Some(())
    }

    /// Fast path for a plain integer (`[+-]` and 1–18 digits) followed by a
    /// delimiter; `None` leaves the cursor untouched for the general path.
    #[inline]
    fn quick_int(&mut self) -> Option<i64> {
        let mut p = self.quick_start()?;
        let text = &self.text;
        let neg = match text.get(p) {
            Some(b'-') => {
                p += 1;
                true
            }
            Some(b'+') => {
                p += 1;
                false
            }
            _ => false,
        };
        let d0 = p;
        let mut v = 0i64;
        while p < text.len() && text[p].is_ascii_digit() && p - d0 < 18 {
            v = v * 10 + (text[p] - b'0') as i64;
            p += 1;
        }
        if p == d0 {
            return None;
        }
        self.quick_end(p)?;
        Some(if neg { -v } else { v })
    }

    /// A real, `None` when omitted or past the end of the record.
    pub fn opt_real(&mut self) -> Result<Option<f64>, IgesError> {
        if let Some(v) = self.quick_number() {
            return Ok(Some(v));
        }
        match self.next_tok()? {
            None | Some(Tok::Empty) => Ok(None),
            Some(Tok::Str(_)) => Err(self.err("expected a number, found a string")),
            Some(Tok::Raw(r)) => match parse_real(r) {
                Some(v) => Ok(Some(v)),
                None => {
                    let s = crate::import::escape::escape_bytes(r);
                    Err(self.err(format!("expected a number, found \"{s}\"")))
                }
            },
        }
    }

    /// A real; an omitted value takes `default`; a missing one (record ended) is an error.
    pub fn real_or(&mut self, default: f64) -> Result<f64, IgesError> {
        if self.at_end() {
            self.index += 1;
            return Err(self.err("missing parameter (record ended early)"));
        }
        Ok(self.opt_real()?.unwrap_or(default))
    }

    /// A required real (omitted = 0.0 as the specification's default).
    #[inline]
    pub fn real(&mut self) -> Result<f64, IgesError> {
        if let Some(v) = self.quick_number() {
            return Ok(v);
        }
        self.real_or(0.0)
    }

    /// An integer, `None` when omitted or past the end.
    pub fn opt_int(&mut self) -> Result<Option<i64>, IgesError> {
        if let Some(v) = self.quick_int() {
            return Ok(Some(v));
        }
        match self.next_tok()? {
            None | Some(Tok::Empty) => Ok(None),
            Some(Tok::Str(_)) => Err(self.err("expected an integer, found a string")),
            Some(Tok::Raw(r)) => match parse_int(r) {
                Some(v) => Ok(Some(v)),
                None => {
                    let s = crate::import::escape::escape_bytes(r);
                    Err(self.err(format!("expected an integer, found \"{s}\"")))
                }
            },
        }
    }

    /// A required integer (omitted = `default`).
    pub fn int_or(&mut self, default: i64) -> Result<i64, IgesError> {
        if self.at_end() {
            self.index += 1;
            return Err(self.err("missing parameter (record ended early)"));
        }
        Ok(self.opt_int()?.unwrap_or(default))
    }

    /// A required integer (omitted = 0).
    #[inline]
    pub fn int(&mut self) -> Result<i64, IgesError> {
        if let Some(v) = self.quick_int() {
            return Ok(v);
        }
        self.int_or(0)
    }

    /// A count of items each needing at least `min_params` parameters, checked
    /// against the bytes left (every parameter needs at least one delimiter).
    pub fn count(&mut self, min_params: usize, what: &str) -> Result<usize, IgesError> {
        let n = self.int()?;
        self.check_count(n, min_params, what)
    }

    /// Validates a count read earlier (see [`count`](Self::count)).
    pub fn check_count(&self, n: i64, min_params: usize, what: &str) -> Result<usize, IgesError> {
        if n < 0 {
            return Err(self.err(format!("negative {what} count {n}")));
        }
        let left = self.remaining() as u128;
        let need = (n as u128) * (min_params as u128);
        if need > left + 1 {
            return Err(self.err(format!(
                "{what} count {n} needs at least {need} more parameters but only {left} bytes of parameter data remain"
            )));
        }
        Ok(n as usize)
    }

    /// A string (Hollerith), `None` when omitted.
    pub fn opt_string(&mut self) -> Result<Option<String>, IgesError> {
        match self.next_tok()? {
            None | Some(Tok::Empty) => Ok(None),
            Some(Tok::Str(s)) => Ok(Some(String::from_utf8_lossy(s).into_owned())),
            Some(Tok::Raw(r)) => {
                let s = crate::import::escape::escape_bytes(r);
                Err(self.err(format!("expected a Hollerith string (nH...), found \"{s}\"")))
            }
        }
    }

    /// Reads `n` reals into a vector (count already validated).
    pub fn reals(&mut self, n: usize) -> Result<Vec<f64>, IgesError> {
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.real()?);
        }
        Ok(v)
    }

    /// Three reals as a point.
    pub fn xyz(&mut self) -> Result<[f64; 3], IgesError> {
        Ok([self.real()?, self.real()?, self.real()?])
    }
}

fn trim(s: &[u8]) -> &[u8] {
    let a = s.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(s.len());
    let b = s.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(a, |i| i + 1);
    &s[a..b]
}

/// Parses an IGES real: Fortran `D` exponents and a trailing `.` are accepted.
/// Fast exact path ([`scan_real`]) for up to [`FAST_DIGITS`] significant
/// digits, the standard library's correctly rounded parser otherwise.
pub fn parse_real(r: &[u8]) -> Option<f64> {
    if let Some(v) = fast_real(r) {
        return Some(v);
    }
    let mut buf = [0u8; 64];
    if r.len() > buf.len() {
        // rare: very long literals go through an allocated copy
        let s: String = r
            .iter()
            .filter(|c| **c != b' ')
            .map(|&c| if matches!(c, b'D' | b'd') { 'e' } else { c as char })
            .collect();
        let v: f64 = s.parse().ok()?;
        return v.is_finite().then_some(v);
    }
    let mut n = 0;
    for &c in r {
        let c = match c {
            b'D' | b'd' => b'e',
            b' ' => continue,
            c => c,
        };
        buf[n] = c;
        n += 1;
    }
    let s = std::str::from_utf8(&buf[..n]).ok()?;
    let v: f64 = s.parse().ok()?;
    v.is_finite().then_some(v)
}

/// The exact fast path of [`parse_real`] on a whole token: `None` unless the
/// token is a plain decimal real that [`scan_real`] converts exactly.
fn fast_real(r: &[u8]) -> Option<f64> {
    match scan_real(r, 0) {
        Some((v, end)) if end == r.len() => Some(v),
        _ => None,
    }
}

/// Significant digits up to which [`scan_real`] converts on its fast path
/// (every such mantissa is an exact `u64`).
const FAST_DIGITS: usize = 19;

/// Reads a plain decimal real starting at `r[i0]` (`E`, `e`, `D` or `d`
/// exponents; at most [`FAST_DIGITS`] significant digits, converted exactly
/// by [`number::exact_real`], so the value equals `str::parse`'s); returns
/// the value and the index of the first byte after it. `None` when the text
/// there is not such a number (the caller then takes the general path).
#[inline]
fn scan_real(r: &[u8], i0: usize) -> Option<(f64, usize)> {
    let d = number::scan_decimal(r, i0, |c| matches!(c, b'E' | b'e' | b'D' | b'd'))?;
    if d.nd > FAST_DIGITS {
        return None;
    }
    let v = if d.mant == 0 {
        0.0
    } else {
        number::exact_real(d.mant, d.exp.unwrap_or(0) - d.frac_len as i64)?
    };
    Some((if d.neg { -v } else { v }, d.end))
}

/// Parses an IGES integer (a real with an integral value is accepted).
pub fn parse_int(r: &[u8]) -> Option<i64> {
    let (neg, digits) = match r.first() {
        Some(b'-') => (true, &r[1..]),
        Some(b'+') => (false, &r[1..]),
        _ => (false, r),
    };
    if !digits.is_empty() && digits.len() <= 18 && digits.iter().all(|c| c.is_ascii_digit()) {
        let v = digits.iter().fold(0i64, |a, &c| a * 10 + (c - b'0') as i64);
        return Some(if neg { -v } else { v });
    }
    let v = parse_real(r)?;
    (v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Params {
        Params::new(
            s.as_bytes().to_vec(),
            vec![(0, 7)],
            b',',
            b';',
            Origin::Entity { de: 3, entity: 110 },
        )
    }

    #[test]
    fn lexes_numbers_strings_and_defaults() {
        let mut q = p("110, 1.5D2 ,,3HA;B,-4;junk");
        assert_eq!(q.int().unwrap(), 110);
        assert_eq!(q.real().unwrap(), 150.0);
        assert_eq!(q.real_or(9.0).unwrap(), 9.0);
        assert_eq!(q.opt_string().unwrap().as_deref(), Some("A;B"));
        assert_eq!(q.int().unwrap(), -4);
        assert!(q.at_end());
        assert!(q.opt_real().unwrap().is_none());
    }

    #[test]
    fn errors_name_line_and_de() {
        let mut q = p("110,abc;");
        q.int().unwrap();
        let e = q.real().unwrap_err().to_string();
        assert!(e.contains("line 7") && e.contains("DE 3") && e.contains("abc"), "{e}");
    }

    #[test]
    fn fast_real_path_matches_std() {
        for t in [
            "307.622693996283",
            "-0.5",
            "1.",
            ".25",
            "6.12303176911189E-017",
            "1.5D2",
            "+3E+05",
            "0",
            "-0.0",
            "123456789012345678",
        ] {
            let std: f64 = t.replace('D', "e").parse().unwrap();
            assert_eq!(parse_real(t.as_bytes()), Some(std), "{t}");
        }
        assert_eq!(parse_int(b"-42"), Some(-42));
        assert_eq!(parse_int(b"3."), Some(3));
        assert_eq!(parse_int(b"3.5"), None);
        assert_eq!(parse_real(b"1.2.3"), None);
        assert_eq!(parse_real(b"E5"), None);
    }

    proptest::proptest! {
        #[test]
        fn parse_real_round_trips_every_finite_f64(x in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO) {
            for text in [format!("{x}"), format!("{x:e}"), format!("{x:E}").replace('E', "D"), format!("{x:.6}")] {
                let want: f64 = text.replace('D', "e").parse().unwrap();
                proptest::prop_assert_eq!(parse_real(text.as_bytes()), Some(want), "{}", text);
            }
        }

        #[test]
        fn lexer_never_panics(s in "[0-9 ,;.HEDe+-]{0,80}") {
            let mut q = p(&s);
            for _ in 0..100 {
                if q.opt_real().is_err() || q.at_end() {
                    break;
                }
            }
        }
    }

    #[test]
    fn huge_counts_rejected_before_allocation() {
        let mut q = p("126,1000000000000,3;");
        q.int().unwrap();
        let e = q.count(3, "control point").unwrap_err().to_string();
        assert!(e.contains("control point count 1000000000000"), "{e}");
    }
}

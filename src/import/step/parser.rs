//! Parser of the ISO 10303-21 exchange structure (clear-text encoding).
//!
//! One pass over the bytes: token recognisers (a nom one for enumerations;
//! keywords, numbers, references, strings and binaries scanned by hand, since
//! they are most of the file: numbers in one pass with an exact fast float
//! conversion, [`scan_number`]), an explicit stack for nested
//! lists (so a nesting bomb cannot overflow the call stack; depth is limited
//! to [`MAX_DEPTH`]), and all parameters appended to one flat arena
//! ([`super::arena`]). Strings are kept as raw spans and decoded only when an
//! entity's name is actually read. Line numbers are counted only when an error
//! is reported.

use super::arena::{Exchange, IdIndex, Instance, Param, Record, Span};
use super::error::{At, StepError};
use crate::import::number::{exact_real, scan_decimal, Decimal, POW10_U64};
use nom::{
    bytes::complete::{tag, take_while1},
    IResult,
};

/// Deepest list nesting accepted (real files use at most 4).
pub const MAX_DEPTH: usize = 32;

/// Length of the keyword at the start of `i` (0 when there is none): a run
/// of letters, `!` and `_`, then letters, digits, `_` and `-` (the same
/// language as `recognize(pair(take_while1(..), take_while(..)))`, scanned
/// by hand because keywords are the most frequent token after numbers).
#[inline]
fn keyword_len(i: &[u8]) -> usize {
    let head = i
        .iter()
        .take_while(|&&c| c.is_ascii_alphabetic() || c == b'!' || c == b'_')
        .count();
    if head == 0 {
        return 0;
    }
    head + i[head..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        .count()
}

fn enumeration(i: &[u8]) -> IResult<&[u8], &[u8]> {
    let (i, _) = tag(".")(i)?;
    let (i, name) = take_while1(|c: u8| c.is_ascii_alphanumeric() || c == b'_')(i)?;
    let (i, _) = tag(".")(i)?;
    Ok((i, name))
}

struct Frame {
    scratch_start: usize,
    typed: Option<Span>,
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    params: Vec<Param>,
    records: Vec<Record>,
    scratch: Vec<Param>,
    frames: Vec<Frame>,
    /// Current instance (for messages).
    cur_id: Option<u64>,
    /// The first string with a malformed or unknown escape (a warning).
    string_issues: Vec<String>,
    /// How many more strings had one.
    string_issue_more: usize,
}

/// The start of a string literal, quoted, for a warning.
fn excerpt_str(raw: &[u8]) -> String {
    let s = crate::import::escape::escape_bytes(raw);
    let mut t: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        t.push('…');
    }
    format!("'{t}'")
}

fn excerpt(b: &[u8]) -> String {
    if b.is_empty() {
        return "end of file".into();
    }
    let n = b
        .iter()
        .take(24)
        .take_while(|&&c| c != b'\n' && c != b'\r')
        .count()
        .max(1);
    format!("`{}`", crate::import::escape::escape_bytes(&b[..n.min(b.len())]))
}

impl<'a> Parser<'a> {
    fn line_at(&self, pos: usize) -> usize {
        let end = pos.min(self.src.len());
        1 + self.src[..end].iter().filter(|&&b| b == b'\n').count()
    }
    fn at(&self, pos: usize) -> At {
        At {
            line: self.line_at(pos),
            id: self.cur_id,
        }
    }
    fn rest(&self) -> &'a [u8] {
        self.src.get(self.pos..).unwrap_or(&[])
    }
    fn syntax(&self, expected: &'static str) -> StepError {
        StepError::Syntax {
            at: self.at(self.pos),
            expected,
            found: excerpt(self.rest()),
        }
    }
    fn span(&self, s: &[u8]) -> Span {
        // `s` is a sub-slice of `src`.
        let start = s.as_ptr() as usize - self.src.as_ptr() as usize;
        Span {
            start: start as u32,
            len: s.len() as u32,
        }
    }

    /// Skips white space and comments.
    fn ws(&mut self) -> Result<(), StepError> {
        let src = self.src;
        loop {
            while self.pos < src.len() && matches!(src[self.pos], b' ' | b'\t' | b'\r' | b'\n' | b'\x0c') {
                self.pos += 1;
            }
            if src.get(self.pos) == Some(&b'/') && src.get(self.pos + 1) == Some(&b'*') {
                let start = self.pos;
                match src[self.pos + 2..].windows(2).position(|w| w == b"*/") {
                    Some(k) => self.pos += 2 + k + 2,
                    None => {
                        return Err(StepError::Unterminated {
                            at: self.at(start),
                            what: "comment",
                        })
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8, what: &'static str) -> Result<(), StepError> {
        self.ws()?;
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else if self.pos >= self.src.len() {
            Err(StepError::Unterminated {
                at: self.at(self.pos),
                what: if self.cur_id.is_some() { "instance" } else { "section" },
            })
        } else {
            Err(self.syntax(what))
        }
    }

    fn keyword(&mut self) -> Result<&'a [u8], StepError> {
        self.ws()?;
        let rest = self.rest();
        match keyword_len(rest) {
            0 if rest.is_empty() => Err(StepError::Unterminated {
                at: self.at(self.pos),
                what: "section",
            }),
            0 => Err(self.syntax("a keyword")),
            n => {
                self.pos += n;
                Ok(&rest[..n])
            }
        }
    }

    /// Scans a string starting at the opening quote; returns the raw content span.
    fn string(&mut self) -> Result<Span, StepError> {
        let start = self.pos;
        let src = self.src;
        let mut i = self.pos + 1;
        loop {
            match src.get(i) {
                None => {
                    return Err(StepError::Unterminated {
                        at: self.at(start),
                        what: "string",
                    })
                }
                Some(b'\'') => {
                    if src.get(i + 1) == Some(&b'\'') {
                        i += 2;
                    } else {
                        break;
                    }
                }
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        let raw = &src[start + 1..i];
        if super::strings::needs_check(raw) {
            // a string never stops an import: malformed or unknown escapes
            // are kept literally, with a warning naming the first one
            if let Some(msg) = super::strings::decode_lenient(raw).issue {
                if self.string_issues.is_empty() {
                    let at = self.at(start);
                    self.string_issues
                        .push(format!("{at}: string {}: {msg}; kept literally", excerpt_str(raw)));
                } else {
                    self.string_issue_more += 1;
                }
            }
        }
        Ok(Span {
            start: (start + 1) as u32,
            len: (i - start - 1) as u32,
        })
    }

    /// Parses one parameter list starting at `(`, with all nested lists and
    /// typed parameters; returns the arena range of its elements.
    fn args(&mut self) -> Result<(u32, u32), StepError> {
        self.expect(b'(', "`(`")?;
        let list_start_pos = self.pos;
        self.frames.clear();
        self.frames.push(Frame {
            scratch_start: self.scratch.len(),
            typed: None,
        });
        let mut want_value = true; // right after `(` or `,`
        let mut first = true; // right after `(`: `)` is allowed
        loop {
            self.ws()?;
            let Some(c) = self.peek() else {
                return Err(StepError::Unterminated {
                    at: self.at(list_start_pos),
                    what: if self.cur_id.is_some() {
                        "instance"
                    } else {
                        "header entity"
                    },
                });
            };
            if !want_value {
                match c {
                    b',' => {
                        self.pos += 1;
                        want_value = true;
                        first = false;
                        continue;
                    }
                    b')' => {}
                    _ => return Err(self.syntax("`,` or `)`")),
                }
            }
            if c == b')' {
                if want_value && !first {
                    return Err(self.syntax("a parameter"));
                }
                self.pos += 1;
                let Some(frame) = self.frames.pop() else {
                    return Err(self.syntax("a parameter"));
                };
                let elems = &self.scratch[frame.scratch_start..];
                let done = if let Some(name) = frame.typed {
                    if elems.len() != 1 {
                        return Err(self.syntax("exactly one value in a typed parameter"));
                    }
                    let value = self.params.len() as u32;
                    self.params.push(elems[0]);
                    Param::Typed { name, value }
                } else {
                    let start = self.params.len() as u32;
                    self.params.extend_from_slice(elems);
                    Param::List {
                        start,
                        len: elems.len() as u32,
                    }
                };
                self.scratch.truncate(frame.scratch_start);
                if self.frames.is_empty() {
                    return match done {
                        Param::List { start, len } => Ok((start, len)),
                        _ => Err(self.syntax("a parameter list")),
                    };
                }
                self.scratch.push(done);
                want_value = false;
                continue;
            }
            // a value
            let src = self.src;
            let p = match c {
                b'$' => {
                    self.pos += 1;
                    Param::Null
                }
                b'*' => {
                    self.pos += 1;
                    Param::Derived
                }
                b'#' => {
                    let r = &src[self.pos + 1..];
                    let n = r.iter().take_while(|c| c.is_ascii_digit()).count();
                    if n == 0 || n > 18 {
                        return Err(self.syntax("an instance number after `#`"));
                    }
                    let id = parse_u64(&r[..n]);
                    self.pos += 1 + n;
                    Param::Ref(id)
                }
                b'\'' => Param::Str(self.string()?),
                b'"' => {
                    let r = &src[self.pos + 1..];
                    let n = r.iter().take_while(|c| c.is_ascii_hexdigit()).count();
                    if r.get(n) != Some(&b'"') {
                        return Err(if n == r.len() {
                            StepError::Unterminated {
                                at: self.at(self.pos),
                                what: "binary",
                            }
                        } else {
                            self.syntax("hex digits and `\"` in a binary")
                        });
                    }
                    let sp = self.span(&r[..n]);
                    self.pos += n + 2;
                    Param::Binary(sp)
                }
                b'.' if src.get(self.pos + 1).is_some_and(|c| c.is_ascii_alphabetic()) => {
                    match enumeration(self.rest()) {
                        Ok((r, name)) => {
                            let sp = self.span(name);
                            self.pos = src.len() - r.len();
                            Param::Enum(sp)
                        }
                        Err(_) => return Err(self.syntax("an enumeration `.NAME.`")),
                    }
                }
                b'(' => {
                    self.pos += 1;
                    if self.frames.len() >= MAX_DEPTH {
                        return Err(StepError::Nesting {
                            at: self.at(self.pos),
                            limit: MAX_DEPTH,
                        });
                    }
                    self.frames.push(Frame {
                        scratch_start: self.scratch.len(),
                        typed: None,
                    });
                    want_value = true;
                    first = true;
                    continue;
                }
                c if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' => match scan_number(self.rest()) {
                    Some((n, value)) => {
                        self.pos += n;
                        value
                    }
                    None => return Err(self.syntax("a number")),
                },
                c if c.is_ascii_alphabetic() || c == b'!' => {
                    let k = self.keyword()?;
                    let name = self.span(k);
                    self.expect(b'(', "`(` after a type name")?;
                    if self.frames.len() >= MAX_DEPTH {
                        return Err(StepError::Nesting {
                            at: self.at(self.pos),
                            limit: MAX_DEPTH,
                        });
                    }
                    self.frames.push(Frame {
                        scratch_start: self.scratch.len(),
                        typed: Some(name),
                    });
                    want_value = true;
                    first = true;
                    continue;
                }
                _ => return Err(self.syntax("a parameter")),
            };
            self.scratch.push(p);
            want_value = false;
        }
    }

    /// `KEYWORD(args)` → a record.
    fn record(&mut self) -> Result<Record, StepError> {
        let k = self.keyword()?;
        let name = self.span(k);
        let (start, len) = self.args()?;
        Ok(Record { name, start, len })
    }

    /// Header entities up to `ENDSEC;`.
    fn header(&mut self, out: &mut Vec<Instance>) -> Result<(), StepError> {
        loop {
            self.ws()?;
            let save = self.pos;
            let k = self.keyword()?;
            if k == b"ENDSEC" {
                return self.expect(b';', "`;`");
            }
            self.pos = save;
            let rec_start = self.records.len() as u32;
            let r = self.record()?;
            self.records.push(r);
            self.expect(b';', "`;` after a header entity")?;
            out.push(Instance {
                id: 0,
                offset: save as u32,
                rec_start,
                rec_len: 1,
            });
        }
    }

    /// Data instances up to `ENDSEC;`.
    fn data(&mut self, out: &mut Vec<Instance>) -> Result<(), StepError> {
        loop {
            self.ws()?;
            self.cur_id = None;
            match self.peek() {
                Some(b'#') => {}
                None => {
                    return Err(StepError::Unterminated {
                        at: self.at(self.pos),
                        what: "DATA section (no ENDSEC;)",
                    })
                }
                _ => {
                    let save = self.pos;
                    let k = self.keyword()?;
                    if k == b"ENDSEC" {
                        return self.expect(b';', "`;`");
                    }
                    self.pos = save;
                    return Err(self.syntax("`#N =` or ENDSEC"));
                }
            }
            let offset = self.pos;
            let r = &self.src[self.pos + 1..];
            let n = r.iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 || n > 18 {
                return Err(self.syntax("an instance number"));
            }
            let id = parse_u64(&r[..n]);
            self.pos += 1 + n;
            self.cur_id = Some(id);
            self.expect(b'=', "`=`")?;
            self.ws()?;
            let rec_start = self.records.len() as u32;
            if self.peek() == Some(b'(') {
                // complex instance
                self.pos += 1;
                loop {
                    self.ws()?;
                    match self.peek() {
                        Some(b')') => {
                            self.pos += 1;
                            break;
                        }
                        None => {
                            return Err(StepError::Unterminated {
                                at: self.at(offset),
                                what: "instance",
                            })
                        }
                        _ => {
                            let rec = self.record()?;
                            self.records.push(rec);
                        }
                    }
                }
                if self.records.len() as u32 == rec_start {
                    return Err(self.syntax("at least one record in a complex instance"));
                }
            } else {
                let rec = self.record()?;
                self.records.push(rec);
            }
            self.expect(b';', "`;` after an instance")?;
            if self.params.len() > u32::MAX as usize - 1 {
                return Err(StepError::TooLarge(self.src.len()));
            }
            out.push(Instance {
                id,
                offset: offset as u32,
                rec_start,
                rec_len: self.records.len() as u32 - rec_start,
            });
        }
    }
}

fn parse_u64(d: &[u8]) -> u64 {
    d.iter()
        .fold(0u64, |a, &c| a.wrapping_mul(10).wrapping_add((c - b'0') as u64))
}

/// Scans a number token at the start of `s` (ISO 10303-21 integer or real:
/// `[+-] digits [. digits] [E [+-] digits]`, also `.5` and `1.`) in one pass;
/// returns its length and value (`Param::Int` without `.` or exponent).
///
/// Reals whose significant digits fit 2^53 with a decimal exponent within
/// ±22 are converted exactly by one IEEE multiplication or division of two
/// exact values (Clinger's fast path, correctly rounded); every other real
/// goes through `str::parse`, so the result always equals `str::parse::<f64>`
/// of the token. Non-finite results are rejected (`None`).
pub fn scan_number(s: &[u8]) -> Option<(usize, Param)> {
    // all digits accumulate in `mant`, exact while at most 19 of them follow
    // the first non-zero one (`nd` counts those); longer digit strings are
    // rescanned below
    let Decimal {
        neg,
        mant,
        nd,
        int_start,
        int_len,
        dot,
        frac_start,
        frac_len,
        exp,
        end: i,
    } = scan_decimal(s, 0, |c| matches!(c, b'e' | b'E'))?;
    let is_real = dot || exp.is_some();
    let exp = exp.unwrap_or(0);
    if !is_real {
        if int_len <= 18 {
            // exact: fewer than 10^18
            let v = mant as i64;
            return Some((i, Param::Int(if neg { -v } else { v })));
        }
        return parse_number_slow(&s[..i]).map(|p| (i, p));
    }
    let (mant, e10) = if nd <= 19 {
        (mant, exp - frac_len as i64)
    } else {
        // long digit string: keep the significant digits only
        let mut acc = Digits::default();
        for (k, &c) in s[int_start..int_start + int_len]
            .iter()
            .chain(&s[frac_start..frac_start + frac_len])
            .enumerate()
        {
            acc.push(c - b'0', k);
        }
        if acc.overflow {
            return parse_number_slow(&s[..i]).map(|p| (i, p));
        }
        // the digit at `last` weighs 10^(int_len - 1 - last)
        (acc.mant, exp + int_len as i64 - 1 - acc.last as i64)
    };
    if mant == 0 {
        return Some((i, Param::Real(if neg { -0.0 } else { 0.0 })));
    }
    if let Some(v) = exact_real(mant, e10) {
        return Some((i, Param::Real(if neg { -v } else { v })));
    }
    parse_number_slow(&s[..i]).map(|p| (i, p))
}

/// Significant decimal digits of a number being scanned.
#[derive(Default)]
struct Digits {
    /// The digits from the first to the last non-zero one.
    mant: u64,
    /// How many digits `mant` holds.
    nd: usize,
    /// Zeros seen since the last non-zero digit.
    zeros: usize,
    /// Index of the last non-zero digit.
    last: usize,
    /// More than 19 significant digits.
    overflow: bool,
}

impl Digits {
    #[inline]
    fn push(&mut self, d: u8, index: usize) {
        if d == 0 {
            if self.nd > 0 {
                self.zeros += 1;
            }
            return;
        }
        let n = self.nd + self.zeros + 1;
        if n > 19 {
            self.overflow = true;
            return;
        }
        self.mant = self.mant * POW10_U64[self.zeros + 1] + d as u64;
        self.nd = n;
        self.zeros = 0;
        self.last = index;
    }
}

/// `str::parse` of a scanned number token (integers too large for `i64` become reals).
fn parse_number_slow(s: &[u8]) -> Option<Param> {
    let is_real = s.iter().any(|&c| matches!(c, b'.' | b'e' | b'E'));
    let text = std::str::from_utf8(s).ok()?;
    if !is_real {
        if let Ok(i) = text.parse::<i64>() {
            return Some(Param::Int(i));
        }
    }
    // "1." and ".5" are valid for Rust's parser; "1.E5" too.
    text.parse::<f64>().ok().filter(|x| x.is_finite()).map(Param::Real)
}

/// Parses a whole file.
pub fn parse(src: &[u8]) -> Result<Exchange<'_>, StepError> {
    if src.len() >= u32::MAX as usize {
        return Err(StepError::TooLarge(src.len()));
    }
    let mut p = Parser {
        src,
        pos: 0,
        params: Vec::with_capacity(src.len() / 6),
        records: Vec::with_capacity(src.len() / 40),
        scratch: Vec::with_capacity(256),
        frames: Vec::with_capacity(MAX_DEPTH),
        cur_id: None,
        string_issues: Vec::new(),
        string_issue_more: 0,
    };
    p.ws()?;
    if !p.rest().starts_with(b"ISO-10303-21") {
        return Err(StepError::NotStep);
    }
    p.pos += b"ISO-10303-21".len();
    p.expect(b';', "`;` after ISO-10303-21")?;
    let mut header = Vec::new();
    let mut instances = Vec::with_capacity(src.len() / 50);
    let mut saw_data = false;
    loop {
        p.ws()?;
        if p.pos >= src.len() {
            return Err(StepError::Unterminated {
                at: p.at(p.pos),
                what: "file (no END-ISO-10303-21;)",
            });
        }
        let k = p.keyword()?;
        match k {
            b"HEADER" => {
                p.expect(b';', "`;` after HEADER")?;
                p.header(&mut header)?;
            }
            b"DATA" => {
                p.ws()?;
                if p.peek() == Some(b'(') {
                    // DATA('name', ('schema')) of edition 3: parameters ignored
                    p.args()?;
                }
                p.expect(b';', "`;` after DATA")?;
                p.data(&mut instances)?;
                saw_data = true;
            }
            b"ANCHOR" | b"REFERENCE" | b"SIGNATURE" => {
                // edition-3 sections the reader does not use: skip to ENDSEC;
                let from = p.pos;
                match src[from..].windows(6).position(|w| w == b"ENDSEC") {
                    Some(k) => p.pos = from + k + 6,
                    None => {
                        return Err(StepError::Unterminated {
                            at: p.at(from),
                            what: "section",
                        })
                    }
                }
                p.expect(b';', "`;` after ENDSEC")?;
            }
            b"END-ISO-10303-21" => {
                p.expect(b';', "`;` after END-ISO-10303-21")?;
                break;
            }
            _ => {
                p.pos -= k.len();
                return Err(p.syntax("HEADER, DATA or END-ISO-10303-21"));
            }
        }
    }
    if !saw_data {
        return Err(StepError::Syntax {
            at: p.at(p.pos),
            expected: "a DATA section",
            found: "END-ISO-10303-21".into(),
        });
    }
    let Parser {
        params,
        records,
        mut string_issues,
        string_issue_more,
        ..
    } = p;
    if string_issue_more > 0 {
        string_issues.push(format!(
            "{string_issue_more} more string{} with malformed or unknown escapes, kept literally",
            if string_issue_more == 1 { "" } else { "s" }
        ));
    }
    let mut ex = Exchange {
        warnings: string_issues,
        src,
        header,
        instances,
        records,
        params,
        index: IdIndex::Dense(Vec::new()),
        ref_counts: Vec::new(),
        type_notes: Default::default(),
    };
    ex.index = build_index(&ex)?;
    ex.ref_counts = check_refs(&ex)?;
    Ok(ex)
}

fn build_index(ex: &Exchange<'_>) -> Result<IdIndex, StepError> {
    let n = ex.instances.len();
    let max_id = ex.instances.iter().map(|i| i.id).max().unwrap_or(0);
    let dup = |k: usize, first: usize| StepError::Duplicate {
        at: At {
            line: ex.line_of(ex.instances[k].offset),
            id: Some(ex.instances[k].id),
        },
        first_line: ex.line_of(ex.instances[first].offset),
    };
    if max_id <= (4 * n as u64 + 1024) {
        let mut t = vec![0u32; max_id as usize + 1];
        for (k, inst) in ex.instances.iter().enumerate() {
            let slot = &mut t[inst.id as usize];
            if *slot != 0 {
                return Err(dup(k, *slot as usize - 1));
            }
            *slot = k as u32 + 1;
        }
        Ok(IdIndex::Dense(t))
    } else {
        let mut m = std::collections::HashMap::with_capacity(n);
        for (k, inst) in ex.instances.iter().enumerate() {
            if let Some(&first) = m.get(&inst.id) {
                return Err(dup(k, first as usize));
            }
            m.insert(inst.id, k as u32);
        }
        Ok(IdIndex::Sparse(m))
    }
}

/// Every `#N` used anywhere must be defined. The parameters of an instance
/// occupy one contiguous arena range (nested lists are flushed before their
/// parent), from the end of the previous instance's last record to the end of
/// its own last record. Returns how many references each instance receives.
fn check_refs(ex: &Exchange<'_>) -> Result<Vec<u8>, StepError> {
    let mut counts = vec![0u8; ex.instances.len()];
    let mut from = 0usize;
    for inst in &ex.instances {
        let recs = ex.records_of(inst);
        let end = recs
            .iter()
            .map(|r| (r.start + r.len) as usize)
            .max()
            .unwrap_or(from)
            .max(from);
        for p in ex.params.get(from..end).unwrap_or(&[]) {
            if let Param::Ref(t) = *p {
                if let Some(c) = ex.index.get(t).and_then(|k| counts.get_mut(k)) {
                    *c = c.saturating_add(1);
                } else {
                    return Err(StepError::Dangling {
                        at: At {
                            line: ex.line_of(inst.offset),
                            id: Some(inst.id),
                        },
                        target: t,
                    });
                }
            }
        }
        from = end;
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(data: &str) -> String {
        format!("ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nENDSEC;\nDATA;\n{data}\nENDSEC;\nEND-ISO-10303-21;\n")
    }

    #[test]
    fn parses_simple_and_complex_instances() {
        let s = file("#1=CARTESIAN_POINT('p',(1.,-2.5E1,+3));\n#2=( A(1) B(.T.,$,*) C() );\n#3=X(LENGTH_MEASURE(1.),\"0F\",(#1,#2));");
        let ex = parse(s.as_bytes()).unwrap();
        assert_eq!(ex.instances.len(), 3);
        let (_, i1) = ex.get(1).unwrap();
        let r = ex.records_of(i1)[0];
        assert_eq!(ex.name(&r), b"CARTESIAN_POINT");
        let args = ex.args(&r);
        assert_eq!(args.len(), 2);
        let l = ex.list(&args[1]).unwrap();
        assert_eq!(l, &[Param::Real(1.0), Param::Real(-25.0), Param::Int(3)]);
        let (_, i2) = ex.get(2).unwrap();
        assert_eq!(ex.records_of(i2).len(), 3);
        let (_, i3) = ex.get(3).unwrap();
        let a3 = ex.args(&ex.records_of(i3)[0]);
        match a3[0] {
            Param::Typed { name, value } => {
                assert_eq!(name.of(s.as_bytes()), b"LENGTH_MEASURE");
                assert_eq!(ex.params[value as usize], Param::Real(1.0));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(a3[1], Param::Binary(_)));
        assert_eq!(ex.list(&a3[2]).unwrap(), &[Param::Ref(1), Param::Ref(2)]);
    }

    #[test]
    fn comments_strings_and_line_breaks() {
        let s = file("/* c */ #1 /* x */ =\r\n NAME ( 'it''s; (not) a list' , /* c2 */ 2 ) ;");
        let ex = parse(s.as_bytes()).unwrap();
        let (_, i) = ex.get(1).unwrap();
        let a = ex.args(&ex.records_of(i)[0]);
        match a[0] {
            Param::Str(sp) => assert_eq!(sp.of(s.as_bytes()), b"it''s; (not) a list"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_name_line_and_id() {
        let e = parse(file("#1=A(1);\n#2=B(#7);").as_bytes()).unwrap_err();
        assert_eq!(e.at(), Some(At { line: 7, id: Some(2) }), "{e}");
        let e = parse(file("#1=A(1);\n#1=B(2);").as_bytes()).unwrap_err();
        assert!(matches!(e, StepError::Duplicate { first_line: 6, .. }), "{e}");
        let e = parse(file("#1=A('abc);").as_bytes()).unwrap_err();
        assert!(matches!(e, StepError::Unterminated { what: "string", .. }), "{e}");
        let deep = format!("#5=A({}1{});", "(".repeat(100), ")".repeat(100));
        let e = parse(file(&deep).as_bytes()).unwrap_err();
        assert!(
            matches!(
                e,
                StepError::Nesting {
                    at: At { id: Some(5), .. },
                    ..
                }
            ),
            "{e}"
        );
    }
}

//! Fixed-format 80-column records and their sections (IGES 5.3 §2.1).
//!
//! Each record holds 72 data columns, the section letter in column 73 and a
//! sequence number in columns 74–80. Lines may end in LF or CRLF; a short
//! last field (trailing blanks stripped) is accepted; lower-case section
//! letters are accepted with a warning. Sections must come in the order
//! Start, Global, Directory, Parameter, Terminate.

use super::error::IgesError;
use nom::character::complete::space0;
use nom::combinator::map_opt;
use nom::number::complete::be_u8;
use nom::IResult;

/// A section of an IGES file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// Start (free text).
    Start,
    /// Global (file-wide parameters).
    Global,
    /// Directory entries (two records per entity).
    Directory,
    /// Parameter data.
    Parameter,
    /// Terminate (section counts).
    Terminate,
}

impl Section {
    fn letter(self) -> char {
        match self {
            Section::Start => 'S',
            Section::Global => 'G',
            Section::Directory => 'D',
            Section::Parameter => 'P',
            Section::Terminate => 'T',
        }
    }
}

/// One record: its file line (1-based), section, the data columns (up to 72
/// bytes, fewer when the line was cut short) and the sequence number.
#[derive(Debug, Clone, Copy)]
pub struct Record<'a> {
    /// File line, 1-based.
    pub line: usize,
    /// Data columns 1–72 (as many as present).
    pub data: &'a [u8],
    /// Sequence number (columns 74–80).
    pub seq: usize,
}

/// The records of a file split by section.
#[derive(Debug, Default)]
pub struct Records<'a> {
    /// Start section.
    pub start: Vec<Record<'a>>,
    /// Global section.
    pub global: Vec<Record<'a>>,
    /// Directory section.
    pub directory: Vec<Record<'a>>,
    /// Parameter section.
    pub parameter: Vec<Record<'a>>,
    /// Terminate record, when present.
    pub terminate: Option<Record<'a>>,
    /// Lenience notes (lower-case letters, CRLF, blank lines …).
    pub warnings: Vec<String>,
    /// Total number of lines.
    pub lines: usize,
}

/// The section letter of column 73 (either case), `None` for any other byte.
fn section_letter(c: u8) -> Option<Section> {
    Some(match c.to_ascii_uppercase() {
        b'S' => Section::Start,
        b'G' => Section::Global,
        b'D' => Section::Directory,
        b'P' => Section::Parameter,
        b'T' => Section::Terminate,
        _ => return None,
    })
}

/// Parses the tail of a record from column 73: section letter (either
/// case) and the sequence-number field after any blanks or tabs.
fn record_tail(input: &[u8]) -> IResult<&[u8], (u8, Section, &[u8])> {
    let (rest, (letter, section)) = map_opt(be_u8, |c| section_letter(c).map(|s| (c, s)))(input)?;
    let (digits, _) = space0(rest)?;
    Ok((&[], (letter, section, digits)))
}

/// The sequence number: at most seven digits between blanks.
fn parse_seq(field: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < field.len() && field[i] == b' ' {
        i += 1;
    }
    let start = i;
    let mut v = 0usize;
    while i < field.len() && field[i].is_ascii_digit() {
        v = v * 10 + (field[i] - b'0') as usize;
        i += 1;
    }
    let n = i - start;
    if n == 0 || n > 7 || field[i..].iter().any(|&b| b != b' ') {
        return None;
    }
    Some(v)
}

/// Splits a file into records and sections.
pub fn split(bytes: &[u8]) -> Result<Records<'_>, IgesError> {
    let mut out = Records::default();
    let mut current = Section::Start;
    let mut seen_any = false;
    let mut lower_case = 0usize;
    let mut crlf = 0usize;
    let mut blank_lines = Vec::new();
    let mut pos = 0usize;
    let mut line_no = 0usize;
    while pos < bytes.len() {
        // fast path: an 80-column record followed by LF or CRLF
        let end = match (bytes.get(pos + 80), bytes.get(pos + 81)) {
            (Some(b'\n'), _) => pos + 80,
            (Some(b'\r'), Some(b'\n')) => pos + 81,
            _ => memchr_nl(&bytes[pos..]).map_or(bytes.len(), |i| pos + i),
        };
        let mut line = &bytes[pos..end];
        pos = end + 1;
        line_no += 1;
        if let Some(l) = line.strip_suffix(b"\r") {
            line = l;
            crlf += 1;
        }
        if line.len() < 73 && line.iter().all(|b| b.is_ascii_whitespace() || *b == 0x1a) {
            blank_lines.push(line_no);
            continue;
        }
        if line.len() < 73 {
            return Err(IgesError::Record {
                line: line_no,
                msg: format!(
                    "record has {} columns, expected 80 (section letter in column 73, sequence number in 74-80)",
                    line.len()
                ),
            });
        }
        let tail = &line[72..line.len().min(80)];
        let Ok((_, (letter, section, digits))) = record_tail(tail) else {
            let c = tail[0] as char;
            let msg = if matches!(c, 'B' | 'b' | 'C' | 'c') && !seen_any {
                "binary or compressed IGES (flag in column 73) is not supported".to_string()
            } else {
                format!("unknown section letter {c:?} in column 73 (expected S, G, D, P or T)")
            };
            return Err(IgesError::Record { line: line_no, msg });
        };
        if letter.is_ascii_lowercase() {
            lower_case += 1;
        }
        let seq = parse_seq(digits).ok_or_else(|| IgesError::Record {
            line: line_no,
            msg: format!(
                "sequence number in columns 74-80 is not a number: \"{}\"",
                crate::import::escape::escape_bytes(digits)
            ),
        })?;
        if section < current {
            return Err(IgesError::Section {
                line: line_no,
                msg: format!(
                    "{} record after the {} section (sections must be S, G, D, P, T in order)",
                    section.letter(),
                    current.letter()
                ),
            });
        }
        if out.terminate.is_some() {
            return Err(IgesError::Section {
                line: line_no,
                msg: "record after the Terminate record".into(),
            });
        }
        current = section;
        seen_any = true;
        let rec = Record {
            line: line_no,
            data: &line[..72],
            seq,
        };
        let list = match section {
            Section::Start => &mut out.start,
            Section::Global => &mut out.global,
            Section::Directory => &mut out.directory,
            Section::Parameter => &mut out.parameter,
            Section::Terminate => {
                out.terminate = Some(rec);
                continue;
            }
        };
        if list.is_empty() && matches!(section, Section::Directory | Section::Parameter) {
            // first record of a long section: room for the rest of the
            // file's records (at least 73 bytes each), so it never regrows
            list.reserve(bytes.len().saturating_sub(pos) / 73 + 1);
        }
        if seq != list.len() + 1 {
            return Err(IgesError::Record {
                line: line_no,
                msg: format!(
                    "{} section sequence number {} out of order, expected {}",
                    section.letter(),
                    seq,
                    list.len() + 1
                ),
            });
        }
        list.push(rec);
    }
    out.lines = line_no;
    if !seen_any {
        return Err(IgesError::Empty);
    }
    if lower_case > 0 {
        out.warnings.push(format!(
            "{lower_case} records use lower-case section letters (read as upper case)"
        ));
    }
    if crlf > 0 && crlf < line_no.saturating_sub(blank_lines.len()) {
        out.warnings
            .push(format!("mixed line ends: {crlf} of {line_no} lines end in CRLF"));
    }
    if let Some(&first) = blank_lines.iter().find(|&&l| l < line_no) {
        out.warnings.push(format!(
            "{} blank lines skipped (first at line {first})",
            blank_lines.len()
        ));
    }
    let last = line_no;
    if out.global.is_empty() {
        return Err(IgesError::Section {
            line: last,
            msg: "missing Global (G) section".into(),
        });
    }
    if out.directory.is_empty() {
        return Err(IgesError::Section {
            line: last,
            msg: "missing Directory Entry (D) section".into(),
        });
    }
    if out.directory.len() % 2 != 0 {
        let l = out.directory.last().map_or(last, |r| r.line);
        return Err(IgesError::Section {
            line: l,
            msg: format!(
                "Directory Entry section has an odd number of records ({}): truncated entry",
                out.directory.len()
            ),
        });
    }
    if out.parameter.is_empty() {
        return Err(IgesError::Section {
            line: last,
            msg: "missing Parameter Data (P) section".into(),
        });
    }
    match out.terminate {
        None => out.warnings.push(format!(
            "missing Terminate (T) record: file may be truncated after line {last}"
        )),
        Some(t) => check_terminate(&t, &out)?,
    }
    Ok(out)
}

fn check_terminate(t: &Record<'_>, r: &Records<'_>) -> Result<(), IgesError> {
    let field = |k: usize| -> Option<(u8, usize)> {
        let f = t.data.get(k * 8..k * 8 + 8)?;
        let letter = f[0];
        let n = std::str::from_utf8(&f[1..]).ok()?.trim().parse().ok()?;
        Some((letter, n))
    };
    let expect = [
        (b'S', r.start.len()),
        (b'G', r.global.len()),
        (b'D', r.directory.len()),
        (b'P', r.parameter.len()),
    ];
    for (k, (letter, n)) in expect.iter().enumerate() {
        if let Some((l, got)) = field(k) {
            if l.to_ascii_uppercase() == *letter && got != *n {
                return Err(IgesError::Section {
                    line: t.line,
                    msg: format!(
                        "Terminate record says {} {} records but the file has {}: truncated or damaged file",
                        *letter as char, got, n
                    ),
                });
            }
        }
    }
    Ok(())
}

fn memchr_nl(s: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(data: &str, letter: char, seq: usize) -> String {
        format!("{data:<72}{letter}{seq:>7}\n")
    }

    #[test]
    fn splits_sections_and_accepts_crlf_and_lower_case() {
        let mut f = rec("hello", 'S', 1) + &rec("1H,,1H;;", 'g', 1);
        f += &rec("     110       1", 'D', 1);
        f += &rec("     110", 'D', 2);
        f += &rec("110,0,0,0,1,1,1;", 'P', 1);
        f += &rec("S      1G      1D      2P      1", 'T', 1);
        let f = f.replace('\n', "\r\n");
        let r = split(f.as_bytes()).unwrap();
        assert_eq!(
            (r.start.len(), r.global.len(), r.directory.len(), r.parameter.len()),
            (1, 1, 2, 1)
        );
        assert!(r.warnings.iter().any(|w| w.contains("lower-case")));
    }

    #[test]
    fn short_record_names_line() {
        let f = rec("x", 'S', 1) + "too short\n";
        let e = split(f.as_bytes()).unwrap_err().to_string();
        assert!(e.starts_with("line 2:"), "{e}");
    }

    #[test]
    fn out_of_order_sections_rejected() {
        let f = rec("x", 'G', 1) + &rec("x", 'S', 1);
        let e = split(f.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("order"), "{e}");
    }
}

//! Decoding of ISO 10303-21 string literals: `''` for a quote, `\\` for a
//! backslash, `\S\c` (the character `c` + 128 of the current ISO 8859 page),
//! `\P?\` (page switch, accepted), `\X\HH` (ISO 8859-1 code point), `\X2\…\X0\`
//! (UTF-16 code units, 4 hex digits each) and `\X4\…\X0\` (UCS-4, 8 hex digits
//! each). Line breaks inside a string are dropped (they are print control,
//! not content). Bytes outside ASCII are accepted as UTF-8 when they form
//! valid UTF-8, else as ISO 8859-1.

fn hex(b: &[u8]) -> Option<u32> {
    let mut v = 0u32;
    for &c in b {
        v = v.checked_mul(16)? + (c as char).to_digit(16)?;
    }
    Some(v)
}

/// A decoded string and what was wrong with it, if anything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decoded {
    /// The text. Malformed or unknown escapes are kept literally.
    pub text: String,
    /// The first malformed or unknown escape, described (`None` when the
    /// string is valid ISO 10303-21).
    pub issue: Option<String>,
}

/// Decodes the raw bytes between the quotes, leniently: a string never
/// fails. A `\` that does not begin a valid directive (`\\`, `\S\`,
/// `\P?\`, `\X\HH`, `\X2\…\X0\`, `\X4\…\X0\`, `\N\`, `\F\`), such as
/// the single backslashes of a raw Windows path (`C:\Users\…`, written by
/// ACIS and other Windows exporters), is kept as a literal backslash, and a
/// malformed directive is kept as written, as Open CASCADE does; the first
/// such problem is reported in [`Decoded::issue`].
pub fn decode_lenient(raw: &[u8]) -> Decoded {
    let mut out = String::with_capacity(raw.len());
    let mut issue = None;
    let mut rest = raw;
    loop {
        match decode_strict(rest) {
            Ok(s) => {
                out.push_str(&s);
                break;
            }
            Err(e) => {
                // keep what decoded, the offending backslash literally, go on after it
                out.push_str(&e.text);
                out.push(char::from(rest[e.at]));
                issue.get_or_insert(e.msg);
                rest = &rest[e.at + 1..];
            }
        }
    }
    Decoded { text: out, issue }
}

/// A strict-decoding failure: where, why, and the text decoded before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset of the offending backslash (or quote) in the raw string.
    pub at: usize,
    /// What is wrong.
    pub msg: String,
    /// The text decoded before `at`.
    pub text: String,
}

/// Decodes the raw bytes between the quotes strictly (ISO 10303-21 only);
/// `Err` describes the first malformed escape. See [`decode_lenient`] for
/// the reading used by the importer.
pub fn decode(raw: &[u8]) -> Result<String, String> {
    decode_strict(raw).map_err(|e| e.msg)
}

fn decode_strict(raw: &[u8]) -> Result<String, DecodeError> {
    if !raw
        .iter()
        .any(|&c| c == b'\\' || c == b'\'' || c >= 0x80 || c == b'\n' || c == b'\r')
    {
        // fast path: plain ASCII
        return Ok(String::from_utf8_lossy(raw).into_owned());
    }
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    let mut plain_start = 0;
    let flush = |out: &mut String, bytes: &[u8]| {
        match std::str::from_utf8(bytes) {
            Ok(s) => out.push_str(s),
            Err(_) => out.extend(bytes.iter().map(|&b| b as char)),
        };
    };
    while i < raw.len() {
        match raw[i] {
            b'\'' => {
                flush(&mut out, &raw[plain_start..i]);
                if raw.get(i + 1) != Some(&b'\'') {
                    return Err(DecodeError {
                        at: i,
                        msg: format!("lone quote at byte {i} of the string"),
                        text: out,
                    });
                }
                out.push('\'');
                i += 2;
                plain_start = i;
            }
            b'\r' | b'\n' => {
                flush(&mut out, &raw[plain_start..i]);
                i += 1;
                plain_start = i;
            }
            b'\\' => {
                flush(&mut out, &raw[plain_start..i]);
                let mark = out.len();
                match directive(&raw[i..], &mut out) {
                    Ok(n) => i += n,
                    Err(msg) => {
                        out.truncate(mark);
                        return Err(DecodeError { at: i, msg, text: out });
                    }
                }
                plain_start = i;
            }
            _ => i += 1,
        }
    }
    flush(&mut out, &raw[plain_start..]);
    Ok(out)
}

/// Decodes the directive at the start of `rest` (which begins with `\`)
/// onto `out`; the number of bytes it takes, or why it is malformed.
fn directive(rest: &[u8], out: &mut String) -> Result<usize, String> {
    if rest.starts_with(b"\\\\") {
        out.push('\\');
        Ok(2)
    } else if rest.starts_with(b"\\S\\") {
        let Some(&ch) = rest.get(3) else {
            return Err("\\S\\ without a character".into());
        };
        if !(0x20..0x7f).contains(&ch) {
            return Err(format!("\\S\\ followed by byte {ch:#04x}"));
        }
        out.push(char::from(ch + 128));
        Ok(4)
    } else if rest.starts_with(b"\\P") && rest.get(3) == Some(&b'\\') {
        if !rest.get(2).is_some_and(|c| (b'A'..=b'I').contains(c)) {
            return Err("\\P?\\ with a page outside A..I".into());
        }
        Ok(4)
    } else if rest.starts_with(b"\\X\\") {
        let v = rest.get(3..5).and_then(hex).ok_or("\\X\\ needs two hex digits")?;
        out.push(char::from(v as u8));
        Ok(5)
    } else if rest.starts_with(b"\\X2\\") || rest.starts_with(b"\\X4\\") {
        let width = if rest[2] == b'2' { 4 } else { 8 };
        let body_start = 4;
        let end = rest[body_start..]
            .windows(4)
            .position(|w| w == b"\\X0\\")
            .ok_or("\\X2\\ or \\X4\\ without a closing \\X0\\")?;
        let body = &rest[body_start..body_start + end];
        if body.is_empty() || body.len() % width != 0 {
            return Err(format!(
                "{} hex digits where a multiple of {width} is required",
                body.len()
            ));
        }
        if width == 4 {
            let units: Vec<u16> = body
                .chunks(4)
                .map(|h| hex(h).map(|v| v as u16))
                .collect::<Option<_>>()
                .ok_or("non-hex digit in \\X2\\")?;
            for ch in char::decode_utf16(units.iter().copied()) {
                out.push(ch.map_err(|_| "unpaired UTF-16 surrogate in \\X2\\".to_string())?);
            }
        } else {
            for h in body.chunks(8) {
                let v = hex(h).ok_or("non-hex digit in \\X4\\")?;
                out.push(char::from_u32(v).ok_or(format!("{v:#x} is not a Unicode scalar value"))?);
            }
        }
        Ok(body_start + end + 4)
    } else if rest.starts_with(b"\\N\\") || rest.starts_with(b"\\F\\") {
        // print control directives (new line / form feed)
        Ok(3)
    } else {
        Err(format!(
            "unknown escape `{}`",
            crate::import::escape::escape_bytes(&rest[..rest.len().min(4)])
        ))
    }
}

/// True when the raw string needs escape checking (it has a backslash).
#[inline]
pub fn needs_check(raw: &[u8]) -> bool {
    raw.contains(&b'\\')
}

#[cfg(test)]
mod tests {
    use super::{decode, decode_lenient};

    fn ok(raw: &[u8]) -> String {
        decode(raw).unwrap()
    }

    #[test]
    fn escapes() {
        assert_eq!(ok(b"plain"), "plain");
        assert_eq!(ok(b"it''s"), "it's");
        assert_eq!(ok(b"a\\\\b"), "a\\b");
        assert_eq!(ok(b"\\S\\d"), "\u{e4}");
        assert_eq!(ok(b"\\X\\E9t\\X\\E9"), "\u{e9}t\u{e9}");
        assert_eq!(ok(b"\\X2\\00C400D6\\X0\\x"), "\u{c4}\u{d6}x");
        assert_eq!(ok(b"\\X2\\D83DDE00\\X0\\"), "\u{1f600}");
        assert_eq!(ok(b"\\X4\\0001F600\\X0\\"), "\u{1f600}");
        assert_eq!(ok(b"\\PA\\\\S\\d"), "\u{e4}");
        assert_eq!(ok(b"ab\r\ncd"), "abcd");
        assert_eq!(ok("Grüße".as_bytes()), "Grüße");
        // the lenient reading agrees on valid strings and reports nothing
        for raw in [
            &b"\\X2\\00C400D6\\X0\\x"[..],
            b"\\PA\\\\S\\d",
            b"a\\\\b",
            b"\\N\\x\\F\\",
        ] {
            let d = decode_lenient(raw);
            assert_eq!(d.text, ok(raw));
            assert_eq!(d.issue, None);
        }
    }

    #[test]
    fn bad_escapes() {
        for bad in [
            &b"\\X2\\00C\\X0\\"[..],
            b"\\X2\\00C4",
            b"\\X\\G1",
            b"\\X4\\FFFFFFFF\\X0\\",
            b"\\X2\\D83D\\X0\\",
            b"\\Q\\",
            b"\\S\\",
        ] {
            assert!(decode(bad).is_err(), "{}", String::from_utf8_lossy(bad));
            let d = decode_lenient(bad);
            assert!(d.issue.is_some(), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn unknown_escapes_are_kept_literally() {
        // a raw Windows path (step_acis_ujoint.stp's FILE_NAME)
        let d = decode_lenient(b"C:\\Users\\Nate\\Desktop\\U Joint 2.stp");
        assert_eq!(d.text, "C:\\Users\\Nate\\Desktop\\U Joint 2.stp");
        assert!(
            d.issue.as_deref().is_some_and(|m| m.contains("unknown escape `\\Use`")),
            "{d:?}"
        );
        // valid directives around a stray backslash still decode
        let d = decode_lenient(b"\\X\\E9 C:\\temp\\X2\\00C4\\X0\\ it''s");
        assert_eq!(d.text, "\u{e9} C:\\temp\u{c4} it's");
        assert!(d.issue.is_some());
        // malformed directives are kept as written
        assert_eq!(decode_lenient(b"\\X2\\00C4").text, "\\X2\\00C4");
        assert_eq!(decode_lenient(b"x\\").text, "x\\");
    }
}

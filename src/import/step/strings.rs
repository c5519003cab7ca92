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

/// Decodes the raw bytes between the quotes; `Err` describes a malformed escape.
pub fn decode(raw: &[u8]) -> Result<String, String> {
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
        let c = raw[i];
        match c {
            b'\'' => {
                flush(&mut out, &raw[plain_start..i]);
                if raw.get(i + 1) != Some(&b'\'') {
                    return Err(format!("lone quote at byte {i} of the string"));
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
                let rest = &raw[i..];
                if rest.starts_with(b"\\\\") {
                    out.push('\\');
                    i += 2;
                } else if rest.starts_with(b"\\S\\") {
                    let Some(&ch) = rest.get(3) else {
                        return Err("\\S\\ without a character".into());
                    };
                    if !(0x20..0x7f).contains(&ch) {
                        return Err(format!("\\S\\ followed by byte {ch:#04x}"));
                    }
                    out.push(char::from(ch + 128));
                    i += 4;
                } else if rest.starts_with(b"\\P") && rest.get(3) == Some(&b'\\') {
                    if !rest.get(2).is_some_and(|c| (b'A'..=b'I').contains(c)) {
                        return Err("\\P?\\ with a page outside A..I".into());
                    }
                    i += 4;
                } else if rest.starts_with(b"\\X\\") {
                    let v = rest.get(3..5).and_then(hex).ok_or("\\X\\ needs two hex digits")?;
                    out.push(char::from(v as u8));
                    i += 5;
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
                    i += body_start + end + 4;
                } else if rest.starts_with(b"\\N\\") || rest.starts_with(b"\\F\\") {
                    // print control directives (new line / form feed)
                    i += 3;
                } else {
                    return Err(format!(
                        "unknown escape `{}`",
                        String::from_utf8_lossy(&rest[..rest.len().min(4)])
                    ));
                }
                plain_start = i;
            }
            _ => i += 1,
        }
    }
    flush(&mut out, &raw[plain_start..]);
    Ok(out)
}

/// True when the raw string needs escape checking (it has a backslash).
#[inline]
pub fn needs_check(raw: &[u8]) -> bool {
    raw.contains(&b'\\')
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn escapes() {
        assert_eq!(decode(b"plain").unwrap(), "plain");
        assert_eq!(decode(b"it''s").unwrap(), "it's");
        assert_eq!(decode(b"a\\\\b").unwrap(), "a\\b");
        assert_eq!(decode(b"\\S\\d").unwrap(), "\u{e4}");
        assert_eq!(decode(b"\\X\\E9t\\X\\E9").unwrap(), "\u{e9}t\u{e9}");
        assert_eq!(decode(b"\\X2\\00C400D6\\X0\\x").unwrap(), "\u{c4}\u{d6}x");
        assert_eq!(decode(b"\\X2\\D83DDE00\\X0\\").unwrap(), "\u{1f600}");
        assert_eq!(decode(b"\\X4\\0001F600\\X0\\").unwrap(), "\u{1f600}");
        assert_eq!(decode(b"\\PA\\\\S\\d").unwrap(), "\u{e4}");
        assert_eq!(decode(b"ab\r\ncd").unwrap(), "abcd");
        assert_eq!(decode("Grüße".as_bytes()).unwrap(), "Grüße");
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
        }
    }
}

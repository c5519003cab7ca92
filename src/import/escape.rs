//! **Escaped quotes of the input.** Every error or warning that quotes bytes
//! of an input file (an entity name, a token excerpt, a field of an IGES
//! record, a decoded string) goes through [`escape_bytes`] or
//! [`escape_str`], so that a message never carries a raw control character
//! (a NUL, an escape sequence, a carriage return) or an invalid UTF-8 byte
//! to a terminal, a log, a C string or a Python exception: control
//! characters come out as `\xNN` (`\u{NNNN}` above the ASCII range) and
//! each byte that is not valid UTF-8 as `\xNN`. Printable text, including
//! non-ASCII letters, is kept as is. The CLI, the C ABI and the Python
//! binding all format the same error values, so they show the same text.

/// `s` with its control characters escaped (`\x00`, `\x1b`, `\u{85}`).
pub fn escape_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// `bytes` as text: valid UTF-8 with its control characters escaped, and
/// every byte that is not valid UTF-8 as `\xNN`.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        push_escaped(&mut out, chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        if c.is_control() {
            let n = u32::from(c);
            if n < 0x80 {
                out.push_str(&format!("\\x{n:02X}"));
            } else {
                out.push_str(&format!("\\u{{{n:X}}}"));
            }
        } else {
            out.push(c);
        }
    }
}

/// True when `s` holds no character [`escape_str`] would escape.
pub fn is_clean(s: &str) -> bool {
    !s.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_invalid_bytes_are_escaped() {
        assert_eq!(escape_bytes(b"AB\0C"), "AB\\x00C");
        assert_eq!(escape_bytes(b"x\x1b[31my"), "x\\x1B[31my");
        assert_eq!(escape_bytes(b"a\r\nb\t"), "a\\x0D\\x0Ab\\x09");
        assert_eq!(escape_bytes(b"\xff\xfeOK"), "\\xFF\\xFEOK");
        assert_eq!(escape_bytes(&[0x7f]), "\\x7F");
        assert_eq!(escape_str("a\u{85}b"), "a\\u{85}b");
    }

    #[test]
    fn printable_text_is_kept() {
        let s = "CARTESIAN_POINT('Würfel',(0.,1.E+20,-3.))";
        assert_eq!(escape_str(s), s);
        assert_eq!(escape_bytes(s.as_bytes()), s);
        assert!(is_clean(&escape_bytes(b"\0\x01\xc3\x28")));
    }
}

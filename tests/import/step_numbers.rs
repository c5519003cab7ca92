//! The STEP parser's hand-rolled number scanner (`scan_number`) gives exactly
//! what `str::parse` gives — bit for bit — on every number token of every
//! corpus STEP file and on generated edge cases.

use extrack::import::step::arena::Param;
use extrack::import::step::parser::scan_number;
use std::path::Path;

/// What the scanner must return for a complete number token.
fn reference(tok: &str) -> Option<Param> {
    let is_real = tok.contains(['.', 'e', 'E']);
    if !is_real {
        if let Ok(i) = tok.parse::<i64>() {
            return Some(Param::Int(i));
        }
    }
    tok.parse::<f64>().ok().filter(|x| x.is_finite()).map(Param::Real)
}

fn same(a: &Param, b: &Param) -> bool {
    match (a, b) {
        (Param::Real(x), Param::Real(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// Checks one token (followed by a delimiter, as in a file): the scanner
/// takes the longest prefix that is a number and gives `str::parse`'s value.
fn check(tok: &str) {
    let text = format!("{tok},");
    match scan_number(text.as_bytes()) {
        Some((n, g)) => {
            assert!(n <= tok.len(), "{tok}: scanned past the token");
            let w = reference(&tok[..n]).unwrap_or_else(|| panic!("{tok}: scanned {g:?}, str::parse rejects it"));
            assert!(same(&g, &w), "{tok}: scanned {g:?}, str::parse {w:?}");
            if n < tok.len() {
                assert!(reference(tok).is_none(), "{tok}: scan stopped after {n} bytes");
            }
        }
        None => {
            let w = reference(tok);
            // only non-finite values may be rejected among valid numbers
            assert!(w.is_none(), "{tok}: rejected, str::parse {w:?}");
        }
    }
}

/// The number tokens of a STEP file: maximal runs of number characters that
/// start a parameter (after `(`, `,` or white space), outside strings.
fn tokens(src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut prev = b' ';
    while i < src.len() {
        let c = src[i];
        if c == b'\'' {
            // skip a string ('' escapes)
            i += 1;
            while i < src.len() {
                if src[i] == b'\'' {
                    if src.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            prev = b'\'';
            i += 1;
            continue;
        }
        let starts = matches!(prev, b'(' | b',' | b' ' | b'\n' | b'\r' | b'\t');
        if starts && (c.is_ascii_digit() || c == b'-' || c == b'+' || c == b'.') {
            let j = i + src[i..]
                .iter()
                .take_while(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
                .count();
            let t = &src[i..j];
            if t.iter().any(u8::is_ascii_digit) && !(t.len() > 1 && t[0] == b'.' && t[1].is_ascii_alphabetic()) {
                out.push(String::from_utf8_lossy(t).into_owned());
            }
            prev = src[j - 1];
            i = j;
            continue;
        }
        prev = c;
        i += 1;
    }
    out
}

#[test]
fn corpus_numbers_match_str_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    let mut n = 0usize;
    for sub in ["corpus", "generated"] {
        let Ok(rd) = std::fs::read_dir(root.join(sub)) else {
            eprintln!("skipping {sub}: absent");
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let l = p.to_string_lossy().to_ascii_lowercase();
            if !(l.ends_with(".stp") || l.ends_with(".step")) {
                continue;
            }
            let src = std::fs::read(&p).unwrap();
            for t in tokens(&src) {
                check(&t);
                n += 1;
            }
        }
    }
    println!("{n} corpus number tokens checked");
    if root.join("corpus").is_dir() {
        assert!(n > 100_000, "only {n} number tokens found");
    }
}

#[test]
fn edge_cases_match_str_parse() {
    let fixed = [
        "0",
        "-0",
        "+0",
        "0.",
        "-0.",
        ".0",
        "-.0",
        "1.",
        ".5",
        "+.5",
        "-.5",
        "1.E5",
        "1.e-5",
        "1E5",
        "-1E+05",
        "5E",
        "5E+",
        "1.5E-",
        "12.5e3x",
        "9007199254740992.",
        "9007199254740993.",
        "9007199254740991.5",
        "18446744073709551615.",
        "18446744073709551616.",
        "1234567890123456789",
        "12345678901234567890",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "0.1",
        "0.3",
        "2.2250738585072014E-308",
        "4.9E-324",
        "1E-400",
        "1.7976931348623157E308",
        "1E309",
        "1E22",
        "1E23",
        "1E-22",
        "1E-23",
        "0.000000000000000000000000000001",
        "100000000000000000000000.",
        "123456789012345678.9",
        "-21.999999999999996",
        "3.552713678801e-15",
        "6.28318530718",
        "1.0000000000000033",
        "000001.5000000",
        "0.0000000000000000000",
        "1.00000000000000000000000000000000000001",
        "99999999999999999999E-20",
        ".",
        "-",
        "+",
        "-.",
        "E5",
        "1E99999999999999999999",
        "1E-99999999999999999999",
    ];
    for t in fixed {
        check(t);
    }
    // generated: mantissas of 1..=20 digits, decimal point at every position, exponents -30..=30
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for k in 0..400_000 {
        // half of them with 16 to 20 digits (beyond 2^53)
        let len = if k % 2 == 0 {
            16 + (next() % 5) as usize
        } else {
            1 + (next() % 20) as usize
        };
        let digits: String = (0..len).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
        let dot = (next() % (len as u64 + 1)) as usize;
        let mut t = String::new();
        if next() % 3 == 0 {
            t.push('-');
        }
        t.push_str(&digits[..dot]);
        t.push('.');
        t.push_str(&digits[dot..]);
        if next() % 2 == 0 {
            t.push_str(&format!("E{}", (next() % 61) as i64 - 30));
        }
        if next() % 4 == 0 {
            t.push_str("000");
        }
        check(&t);
    }
}

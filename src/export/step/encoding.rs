//! ISO 10303-21 values: reals in shortest round-trip form, string literals
//! with their escapes, logicals, lists and entity references, and B-spline
//! knots as distinct values with multiplicities.

use std::fmt::Write as _;

/// A real in ISO 10303-21 form: the shortest decimal that reads back to the
/// same `f64`, always with a decimal point, exponent as `E` (`1.E-07` style is
/// not needed: `1.E-7` is valid).
pub fn real(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x }; // no "-0."
    let s = format!("{x:?}");
    let (mant, exp) = match s.split_once('e') {
        Some((m, e)) => (m.to_string(), Some(e.to_string())),
        None => (s, None),
    };
    let mut mant = if mant.contains('.') { mant } else { format!("{mant}.") };
    if let Some(stripped) = mant.strip_suffix(".0") {
        mant = format!("{stripped}.");
    }
    match exp {
        Some(e) => format!("{mant}E{e}"),
        None => mant,
    }
}

/// A string literal: `'` doubled, `\` doubled, printable ASCII as is, every
/// other character as `\X2\…\X0\` (UTF-16 code units, 4 hex digits each).
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    let mut wide: Vec<u16> = Vec::new();
    let flush = |out: &mut String, wide: &mut Vec<u16>| {
        if !wide.is_empty() {
            out.push_str("\\X2\\");
            for u in wide.iter() {
                let _ = write!(out, "{u:04X}");
            }
            out.push_str("\\X0\\");
            wide.clear();
        }
    };
    for c in s.chars() {
        if (' '..='~').contains(&c) {
            flush(&mut out, &mut wide);
            match c {
                '\'' => out.push_str("''"),
                '\\' => out.push_str("\\\\"),
                _ => out.push(c),
            }
        } else {
            let mut buf = [0u16; 2];
            wide.extend_from_slice(c.encode_utf16(&mut buf));
        }
    }
    flush(&mut out, &mut wide);
    out.push('\'');
    out
}

/// A logical: `.T.` or `.F.`.
pub(super) fn b(x: bool) -> &'static str {
    if x {
        ".T."
    } else {
        ".F."
    }
}

/// A parenthesised, comma-separated list of `f` of each item.
pub(super) fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    let mut s = String::from("(");
    for (k, it) in items.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str(&f(it));
    }
    s.push(')');
    s
}

/// A list of entity references `(#1,#2,…)`.
pub(super) fn refs(ids: &[usize]) -> String {
    list(ids, |i| format!("#{i}"))
}

/// Distinct knot values with multiplicities (exact equality).
pub fn compress_knots(k: &[f64]) -> (Vec<usize>, Vec<f64>) {
    let mut m = Vec::new();
    let mut v: Vec<f64> = Vec::new();
    for &x in k {
        match v.last() {
            Some(&l) if l == x => {
                if let Some(c) = m.last_mut() {
                    *c += 1;
                }
            }
            _ => {
                v.push(x);
                m.push(1);
            }
        }
    }
    (m, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reals_have_a_decimal_point() {
        assert_eq!(real(1.0), "1.");
        assert_eq!(real(-0.0), "0.");
        assert_eq!(real(0.5), "0.5");
        assert_eq!(real(1e-7), "1.E-7");
        assert_eq!(real(1.5e300), "1.5E300");
        assert_eq!(real(-2.5e-12), "-2.5E-12");
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_non_ascii() {
        assert_eq!(string("it's"), "'it''s'");
        assert_eq!(string("a\\b"), "'a\\\\b'");
        assert_eq!(string("Müller"), "'M\\X2\\00FC\\X0\\ller'");
        assert_eq!(string("😀"), "'\\X2\\D83DDE00\\X0\\'");
        assert_eq!(string("line\nbreak"), "'line\\X2\\000A\\X0\\break'");
    }

    #[test]
    fn knots_compress_by_exact_equality() {
        let (m, k) = compress_knots(&[0.0, 0.0, 0.5, 1.0, 1.0, 1.0]);
        assert_eq!(m, vec![2, 1, 3]);
        assert_eq!(k, vec![0.0, 0.5, 1.0]);
    }

    proptest! {
        #[test]
        fn reals_read_back_exactly(x in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO) {
            let s = real(x);
            prop_assert!(s.contains('.'));
            let v: f64 = s.replace(".E", ".0E").parse().unwrap();
            prop_assert_eq!(v, if x == 0.0 { 0.0 } else { x });
        }

        #[test]
        fn strings_decode_to_the_original(s in "\\PC{0,40}") {
            let lit = string(&s);
            let inner = &lit.as_bytes()[1..lit.len() - 1];
            prop_assert!(lit.is_ascii());
            let back = crate::import::step::strings::decode(inner).unwrap();
            prop_assert_eq!(back, s);
        }
    }
}

//! The IGES 5.3 file layer: parameters in IGES form (reals, Hollerith
//! strings), free-format parameter text broken into 64-column data fields,
//! the global section's unit, and the fixed 80-column records of the Start,
//! Global, Directory Entry, Parameter Data and Terminate sections.

use super::writer::Ent;
use super::IgesOptions;
use crate::import::model::Model;
use std::fmt::Write as _;

/// A real in IGES form: shortest round-trip decimal, always with a point, `E` exponent.
pub fn real(x: f64) -> String {
    crate::export::step::real(x)
}

/// A Hollerith string `nHtext`; characters outside printable ASCII become `?`
/// (reported through the returned flag).
pub fn hollerith(s: &str) -> (String, bool) {
    let mut lossy = false;
    let t: String = s
        .chars()
        .map(|c| {
            if (' '..='~').contains(&c) {
                c
            } else {
                lossy = true;
                '?'
            }
        })
        .collect();
    (format!("{}H{t}", t.len()), lossy)
}

/// Splits free-format parameter text into 64-column data fields, breaking
/// after delimiters where possible (a token longer than a line is cut).
pub fn param_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut token = String::new();
    let push_token = |cur: &mut String, lines: &mut Vec<String>, token: &str| {
        if cur.len() + token.len() > 64 {
            if !cur.is_empty() {
                lines.push(std::mem::take(cur));
            }
            let mut t = token;
            while t.len() > 64 {
                let (a, b) = t.split_at(64);
                lines.push(a.to_string());
                t = b;
            }
            cur.push_str(t);
        } else {
            cur.push_str(token);
        }
    };
    // tokens end with a delimiter; Hollerith strings may contain delimiters
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        token.push(c);
        if c == 'H' {
            // a Hollerith count precedes: digits only since the last delimiter
            let count: Option<usize> = token[..token.len() - 1].parse().ok();
            if let Some(n) = count {
                let end = (i + 1 + n).min(bytes.len());
                token.push_str(&text[i + 1..end]);
                i = end;
                continue;
            }
        }
        if c == ',' || c == ';' {
            push_token(&mut cur, &mut lines, &token);
            token.clear();
        }
        i += 1;
    }
    if !token.is_empty() {
        push_token(&mut cur, &mut lines, &token);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// The global section's unit flag, unit name and model-space scale for a
/// Model in `mm_per_unit`: the unit of the specification's list with that
/// factor, else millimetres with a model-space scale (model units per mm).
pub(super) fn iges_unit(mm_per_unit: f64) -> (i64, &'static str, f64) {
    const UNITS: [(i64, &str, f64); 10] = [
        (2, "MM", 1.0),
        (1, "INCH", 25.4),
        (4, "FT", 304.8),
        (5, "MI", 1_609_344.0),
        (6, "M", 1000.0),
        (7, "KM", 1.0e6),
        (8, "MIL", 0.0254),
        (9, "UM", 0.001),
        (10, "CM", 10.0),
        (11, "UIN", 2.54e-5),
    ];
    match UNITS.iter().find(|u| u.2 == mm_per_unit) {
        Some(&(f, n, _)) => (f, n, 1.0),
        None if mm_per_unit.is_finite() && mm_per_unit > 0.0 => (2, "MM", 1.0 / mm_per_unit),
        None => (2, "MM", 1.0),
    }
}

/// One 80-column record: 72 columns of data, the section letter, the sequence number.
fn record(out: &mut String, data: &str, letter: char, seq: usize) {
    let _ = writeln!(out, "{data:<72}{letter}{seq:>7}");
}

/// The file's bytes: Start, Global, Directory Entry, Parameter Data and
/// Terminate sections for the entities `ents` (in directory order).
pub(super) fn assemble(model: &Model, opts: &IgesOptions, ents: &[Ent], warnings: &mut Vec<String>) -> Vec<u8> {
    let mut out = String::new();
    let start = format!("extrack export of {}", model.file_name);
    let start: String = start
        .chars()
        .map(|c| if c.is_ascii() { c } else { '?' })
        .take(72)
        .collect();
    record(&mut out, &start, 'S', 1);
    let file_name = opts.file_name.clone().unwrap_or_else(|| {
        let stem = model
            .file_name
            .rsplit_once('.')
            .map_or(model.file_name.as_str(), |(s, _)| s);
        format!("{stem}.igs")
    });
    let mut lossy = false;
    let mut hs = |s: &str| {
        let (t, l) = hollerith(s);
        lossy |= l;
        t
    };
    let (unit_flag, unit_name, unit_scale) = iges_unit(model.units.mm_per_unit);
    let tol = model
        .tolerance
        .filter(|t| t.is_finite() && *t > 0.0)
        .unwrap_or_else(|| crate::export::units::stable_div(1e-7, model.units.mm_per_unit.max(f64::MIN_POSITIVE)));
    let maxc = model
        .vertices
        .iter()
        .flat_map(|v| v.point.iter().map(|c| c.abs()).collect::<Vec<_>>())
        .fold(0.0f64, f64::max)
        .max(1.0);
    let global = format!(
        "1H,,1H;,{},{},{},{},32,38,6,308,15,{},{},{},{},1,0.01,15H19700101.000000,{},{},{},{},11,0,15H19700101.000000;",
        hs(&model.file_name),
        hs(&file_name),
        hs("extrack"),
        hs(concat!("extrack ", env!("CARGO_PKG_VERSION"))),
        hs(&model.file_name),
        real(unit_scale),
        unit_flag,
        hs(unit_name),
        real(tol),
        real(maxc),
        hs(""),
        hs(""),
    );
    let global = global.replace(",0H,", ",,");
    if lossy {
        warnings.push("non-ASCII characters in names written as '?' (IGES strings are ASCII)".into());
    }
    let mut gseq = 0;
    for l in param_lines(&global) {
        gseq += 1;
        record(&mut out, &l, 'G', gseq);
    }
    // parameter lines first, to know the pointers
    let mut plines: Vec<(String, usize)> = Vec::new();
    let mut ptr = Vec::with_capacity(ents.len());
    for (k, e) in ents.iter().enumerate() {
        let de = 2 * k + 1;
        let lines = param_lines(&e.params);
        ptr.push((plines.len() + 1, lines.len()));
        for l in lines {
            plines.push((l, de));
        }
    }
    for (k, e) in ents.iter().enumerate() {
        let (p, n) = ptr[k];
        let sub = if e.dependent { "01" } else { "00" };
        let usef = if e.pspace { "05" } else { "00" };
        let status = format!("00{sub}{usef}00");
        let l1 = format!(
            "{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}",
            e.typ, p, 0, 0, 0, 0, e.transform, 0, status
        );
        record(&mut out, &l1, 'D', 2 * k + 1);
        let l2 = format!(
            "{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}",
            e.typ, 0, 0, n, e.form, "", "", "", 0
        );
        record(&mut out, &l2, 'D', 2 * k + 2);
    }
    for (k, (l, de)) in plines.iter().enumerate() {
        let _ = writeln!(out, "{l:<64} {de:>7}P{:>7}", k + 1);
    }
    let t = format!("S{:>7}G{:>7}D{:>7}P{:>7}", 1, gseq, 2 * ents.len(), plines.len());
    record(&mut out, &t, 'T', 1);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hollerith_counts_and_replaces_non_ascii() {
        assert_eq!(hollerith("MM"), ("2HMM".to_string(), false));
        assert_eq!(hollerith("a,b;c"), ("5Ha,b;c".to_string(), false));
        assert_eq!(hollerith("Grüße"), ("5HGr??e".to_string(), true));
        assert_eq!(hollerith(""), ("0H".to_string(), false));
    }

    #[test]
    fn parameter_lines_break_after_delimiters() {
        let text = format!("126,{}1.5;", "123456789,".repeat(10));
        let lines = param_lines(&text);
        assert!(lines.iter().all(|l| l.len() <= 64));
        assert_eq!(lines.concat(), text);
        for l in &lines[..lines.len() - 1] {
            assert!(l.ends_with(','), "{l}");
        }
    }

    #[test]
    fn hollerith_with_delimiters_stays_whole() {
        let text = "1H,,1H;,11Hab,cd;ef,gh,2HMM;";
        let lines = param_lines(text);
        assert_eq!(lines.concat(), text);
    }

    proptest! {
        #[test]
        fn records_are_80_columns(names in proptest::collection::vec("[ -~]{0,100}", 1..4), xs in proptest::collection::vec(-1e300f64..1e300, 1..60)) {
            let mut text = String::from("999");
            for n in &names {
                text.push(',');
                text.push_str(&hollerith(n).0);
            }
            for x in &xs {
                text.push(',');
                text.push_str(&real(*x));
            }
            text.push(';');
            let lines = param_lines(&text);
            prop_assert_eq!(lines.concat(), text.clone());
            let mut out = String::new();
            for (k, l) in lines.iter().enumerate() {
                prop_assert!(l.len() <= 64);
                let _ = writeln!(out, "{l:<64} {:>7}P{:>7}", 1, k + 1);
            }
            for l in out.lines() {
                prop_assert_eq!(l.len(), 80);
            }
            // the reader's number parser reads every real back exactly
            for x in &xs {
                let s = real(*x);
                prop_assert_eq!(crate::import::iges::params::parse_real(s.as_bytes()), Some(*x));
            }
        }
    }
}

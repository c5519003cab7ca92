//! The Global section (IGES 5.3 §2.2.4): delimiters, producing system, units,
//! model-space scale and resolution.

use super::error::IgesError;
use super::params::{Origin, Params};
use super::records::Record;

/// The Global-section parameters the importer uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Global {
    /// Parameter delimiter (default `,`).
    pub pd: u8,
    /// Record delimiter (default `;`).
    pub rd: u8,
    /// Sender's product id (parameter 3).
    pub product: String,
    /// File name (parameter 4).
    pub file_name: String,
    /// Native system id (parameter 5).
    pub system: String,
    /// Preprocessor version (parameter 6).
    pub preprocessor: String,
    /// Model-space scale (parameter 13): model units per real-world unit.
    pub scale: f64,
    /// Unit flag (parameter 14).
    pub unit_flag: i64,
    /// Unit name (parameter 15).
    pub unit_name: String,
    /// Minimum user-intended resolution in model units (parameter 19).
    pub resolution: Option<f64>,
    /// Version flag (parameter 23).
    pub version: i64,
    /// Notes about lenient reading.
    pub warnings: Vec<String>,
}

/// One unit: display name and millimetres per unit.
pub fn unit_of_flag(flag: i64) -> Option<(&'static str, f64)> {
    Some(match flag {
        1 => ("inch", 25.4),
        2 => ("mm", 1.0),
        4 => ("ft", 304.8),
        5 => ("mi", 1_609_344.0),
        6 => ("m", 1000.0),
        7 => ("km", 1.0e6),
        8 => ("mil", 0.0254),
        9 => ("micron", 0.001),
        10 => ("cm", 10.0),
        11 => ("microinch", 2.54e-5),
        _ => return None,
    })
}

/// A unit from its name (parameter 15, as the specification spells them).
pub fn unit_of_name(name: &str) -> Option<(&'static str, f64)> {
    let n = name.trim().to_ascii_uppercase();
    let flag = match n.as_str() {
        "IN" | "INCH" | "INCHES" => 1,
        "MM" | "MILLIMETER" | "MILLIMETRE" | "MILLIMETERS" => 2,
        "FT" | "FOOT" | "FEET" => 4,
        "MI" | "MILE" | "MILES" => 5,
        "M" | "METER" | "METRE" | "METERS" => 6,
        "KM" | "KILOMETER" | "KILOMETRE" => 7,
        "MIL" | "MILS" => 8,
        "UM" | "MICRON" | "MICRONS" => 9,
        "CM" | "CENTIMETER" | "CENTIMETRE" => 10,
        "UIN" | "MICROINCH" | "MICROINCHES" => 11,
        _ => return None,
    };
    unit_of_flag(flag)
}

impl Global {
    /// The length unit: name and millimetres per *model* unit (unit and
    /// model-space scale applied), plus a warning when the flag and the name
    /// disagree or neither is usable.
    pub fn units(&self) -> (String, f64, Option<String>) {
        let by_flag = unit_of_flag(self.unit_flag);
        let by_name = unit_of_name(&self.unit_name);
        let (name, mm, warn) = match (self.unit_flag, by_flag, by_name) {
            (3, _, Some(u)) => (u.0, u.1, None),
            (3, _, None) => (
                "mm",
                1.0,
                Some(format!(
                    "unit flag 3 with unknown unit name {:?}: millimetres assumed",
                    self.unit_name
                )),
            ),
            (_, Some(f), Some(n)) if f.1 != n.1 => (
                f.0,
                f.1,
                Some(format!(
                    "unit flag {} ({}) disagrees with unit name {:?}: the flag is used",
                    self.unit_flag, f.0, self.unit_name
                )),
            ),
            (_, Some(f), _) => (f.0, f.1, None),
            (_, None, Some(n)) => (
                n.0,
                n.1,
                Some(format!(
                    "invalid unit flag {}: unit taken from the name {:?}",
                    self.unit_flag, self.unit_name
                )),
            ),
            (_, None, None) => (
                "mm",
                1.0,
                Some(format!(
                    "invalid unit flag {} and no unit name: millimetres assumed",
                    self.unit_flag
                )),
            ),
        };
        (name.to_string(), mm / self.scale, warn)
    }

    /// Producing system, `"system / preprocessor"` when both are given and differ.
    pub fn producer(&self) -> String {
        match (self.system.trim(), self.preprocessor.trim()) {
            (a, "") => a.to_string(),
            ("", b) => b.to_string(),
            (a, b) if a == b => a.to_string(),
            (a, b) => format!("{a} / {b}"),
        }
    }
}

/// Reads the Global section.
pub fn parse(records: &[Record<'_>]) -> Result<Global, IgesError> {
    let mut text = Vec::with_capacity(records.len() * 72);
    let mut starts = Vec::with_capacity(records.len());
    for r in records {
        starts.push((text.len(), r.line));
        text.extend_from_slice(r.data);
    }
    let first_line = records.first().map_or(1, |r| r.line);
    let gerr = |index: usize, msg: &str| IgesError::Global {
        line: first_line,
        index,
        msg: msg.to_string(),
    };
    // Delimiters: parameter 1 and 2, each empty (default) or `1Hc`.
    let mut pos = text.iter().position(|&b| b != b' ').unwrap_or(text.len());
    let mut pd = b',';
    let mut rd = b';';
    if text[pos..].starts_with(b"1H") || text[pos..].starts_with(b"1h") {
        pd = *text
            .get(pos + 2)
            .ok_or_else(|| gerr(1, "parameter delimiter missing after 1H"))?;
        pos += 3;
        if text.get(pos) != Some(&pd) {
            return Err(gerr(1, "parameter delimiter not followed by itself"));
        }
        pos += 1;
    } else if text.get(pos) == Some(&b',') {
        pos += 1;
    } else {
        return Err(gerr(1, "expected the parameter delimiter (1Hc or empty)"));
    }
    while text.get(pos) == Some(&b' ') {
        pos += 1;
    }
    if text[pos..].starts_with(b"1H") || text[pos..].starts_with(b"1h") {
        rd = *text
            .get(pos + 2)
            .ok_or_else(|| gerr(2, "record delimiter missing after 1H"))?;
        pos += 3;
    } else if text.get(pos) != Some(&pd) && text.get(pos) != Some(&rd) {
        return Err(gerr(2, "expected the record delimiter (1Hc or empty)"));
    }
    if pd == rd || pd == b' ' || rd == b' ' || pd.is_ascii_digit() || rd.is_ascii_digit() {
        return Err(gerr(
            2,
            "parameter and record delimiters must differ and not be blanks or digits",
        ));
    }
    let ended = text.get(pos) == Some(&rd);
    let rest = text.split_off((pos + 1).min(text.len()));
    let starts = starts
        .iter()
        .map(|&(o, l)| (o.saturating_sub(pos + 1), l))
        .collect::<Vec<_>>();
    let mut p = Params::new(if ended { Vec::new() } else { rest }, starts, pd, rd, Origin::Global);
    // p's index starts at 0; parameters 1 and 2 are consumed already.
    let mut g = Global {
        pd,
        rd,
        product: String::new(),
        file_name: String::new(),
        system: String::new(),
        preprocessor: String::new(),
        scale: 1.0,
        unit_flag: 1,
        unit_name: String::new(),
        resolution: None,
        version: 0,
        warnings: Vec::new(),
    };
    let mut values: Vec<GVal> = Vec::with_capacity(24);
    loop {
        if p.at_end() {
            break;
        }
        let k = values.len() + 3;
        let v = match k {
            3..=6 | 12 | 15 | 18 | 21 | 22 | 25 | 26 => GVal::S(lenient_string(&mut p, &mut g.warnings, k)?),
            _ => GVal::N(lenient_number(&mut p, &mut g.warnings, k)?),
        };
        values.push(v);
    }
    let s = |k: usize| match values.get(k - 3) {
        Some(GVal::S(s)) => s.clone(),
        _ => String::new(),
    };
    let n = |k: usize| match values.get(k - 3) {
        Some(GVal::N(v)) => *v,
        _ => None,
    };
    g.product = s(3);
    g.file_name = s(4);
    g.system = s(5);
    g.preprocessor = s(6);
    g.scale = match n(13) {
        Some(v) if v > 0.0 => v,
        Some(v) => {
            g.warnings
                .push(format!("model-space scale {v} is not positive: 1.0 used"));
            1.0
        }
        None => 1.0,
    };
    g.unit_flag = n(14).map_or(1, |v| v as i64);
    g.unit_name = s(15);
    g.resolution = n(19).filter(|v| *v > 0.0);
    g.version = n(23).map_or(0, |v| v as i64);
    if values.len() < 12 {
        g.warnings.push(format!(
            "Global section has only {} parameters (25 expected): defaults used",
            values.len() + 2
        ));
    }
    Ok(g)
}

enum GVal {
    S(String),
    N(Option<f64>),
}

fn lenient_string(p: &mut Params, warnings: &mut Vec<String>, k: usize) -> Result<String, IgesError> {
    match p.opt_string() {
        Ok(s) => Ok(s.unwrap_or_default()),
        Err(e) => {
            warnings.push(format!("global parameter {k} is not a string ({e}): ignored"));
            Ok(String::new())
        }
    }
}

fn lenient_number(p: &mut Params, warnings: &mut Vec<String>, k: usize) -> Result<Option<f64>, IgesError> {
    match p.opt_real() {
        Ok(v) => Ok(v),
        // the unit flag and scale are needed: anything else is informational
        Err(e) if matches!(k, 13 | 14) => Err(e),
        Err(e) => {
            warnings.push(format!("global parameter {k} is not a number ({e}): ignored"));
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recs(lines: &[&str]) -> Vec<Record<'static>> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| Record {
                line: i + 2,
                data: Box::leak(format!("{l:<72}").into_bytes().into_boxed_slice()),
                seq: i + 1,
            })
            .collect()
    }

    #[test]
    fn reads_delimiters_units_and_producer() {
        let g = parse(&recs(&[
            "1H//1H#/4Hpart/8Hpart.igs/5HMySys/3H1.0/32/38/6/308/15/4Hpart/1./",
            "10/2HCM/1/0.1/15H20240101.120000/0.001/1000./4Hname/3Horg/11/0#",
        ]))
        .unwrap();
        assert_eq!((g.pd, g.rd), (b'/', b'#'));
        assert_eq!(g.producer(), "MySys / 1.0");
        assert_eq!(g.unit_flag, 10);
        assert_eq!(g.units().1, 10.0);
        assert_eq!(g.resolution, Some(0.001));
        assert_eq!(g.version, 11);
    }

    #[test]
    fn every_unit_flag_converts() {
        let want = [
            25.4,
            1.0,
            0.0,
            304.8,
            1_609_344.0,
            1000.0,
            1.0e6,
            0.0254,
            0.001,
            10.0,
            2.54e-5,
        ];
        for (i, w) in want.iter().enumerate() {
            let flag = i as i64 + 1;
            let name = if flag == 3 { "4HINCH" } else { "" };
            let line = format!(",,,,,,,,,,,,1.,{flag},{name};");
            let g = parse(&recs(&[&line])).unwrap();
            let mm = g.units().1;
            let expect = if flag == 3 { 25.4 } else { *w };
            assert!((mm - expect).abs() <= 1e-12 * expect, "flag {flag}: {mm}");
        }
    }

    #[test]
    fn model_space_scale_divides() {
        let g = parse(&recs(&[",,,,,,,,,,,,0.5,2,2HMM;"])).unwrap();
        assert_eq!(g.units().1, 2.0);
    }

    #[test]
    fn bad_unit_flag_names_line() {
        let e = parse(&recs(&[",,,,,,,,,,,,1.,XX,2HMM;"])).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("global parameter 14"), "{e}");
    }
}

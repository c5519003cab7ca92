//! The oracle's tolerance band (issue 25) and the corpora it applies to: a
//! distance is right when `|d − d_occt| ≤ max(1e-6·max(1, d), t)`, with `t`
//! the larger of the file's own tolerance and Open CASCADE's largest shape
//! tolerance, capped at 1e-3 of the model's diagonal. Also the two point
//! sets the band is applied to — the `*.closest.json` answers of
//! `../shared/fixtures/{corpus,wave2}` (200 points per file) and the
//! boundary points of `fixtures/oracle_boundary/` (`tools/oracle/occt_boundary.py`,
//! ≥ 1,000 points per file near edges, trims, seams and thin walls) — and
//! the ratchet of files still known wrong.
#![allow(dead_code)]

use super::points::OraclePoint;
use extrack::geom::Vec3;
use std::path::{Path, PathBuf};

/// One real-file corpus of `../shared/fixtures`: its directory name, the
/// folder of its files and the folder of its Open CASCADE answers.
pub struct Corpus {
    /// `corpus` or `wave2`.
    pub name: &'static str,
    /// The CAD files.
    pub files: PathBuf,
    /// `*.inspect.json` and `*.closest.json`.
    pub oracle: PathBuf,
}

/// The corpora under `root` (`../shared/fixtures`) that are present.
pub fn corpora(root: &Path) -> Vec<Corpus> {
    [
        ("corpus", root.join("corpus"), root.join("oracle")),
        ("wave2", root.join("wave2/corpus"), root.join("wave2/oracle")),
    ]
    .into_iter()
    .filter(|(_, f, o)| f.is_dir() && o.is_dir())
    .map(|(name, files, oracle)| Corpus { name, files, oracle })
    .collect()
}

/// The STEP and IGES files of a corpus, sorted.
pub fn cad_files(c: &Corpus) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(&c.files)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ["step", "stp", "igs", "iges"].iter().any(|x| e.eq_ignore_ascii_case(x)))
    });
    v.sort();
    v
}

/// Every STEP file of the corpora and of `generated/` with its oracle file
/// `<name>.<kind>.json` (a generated fixture's is named by its stem, in
/// `oracle/`) and whether it is a generated fixture.
pub fn step_files_with_oracle(root: &Path, kind: &str) -> Vec<(PathBuf, PathBuf, bool)> {
    let is_step = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("step") || e.eq_ignore_ascii_case("stp"))
    };
    let mut out = Vec::new();
    for c in corpora(root) {
        for p in cad_files(&c).into_iter().filter(|p| is_step(p)) {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            out.push((p, c.oracle.join(format!("{name}.{kind}.json")), false));
        }
    }
    if let Ok(rd) = std::fs::read_dir(root.join("generated")) {
        for p in rd.flatten().map(|e| e.path()).filter(|p| is_step(p)) {
            let stem = p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .trim_end_matches(".step")
                .to_string();
            out.push((p, root.join("oracle").join(format!("{stem}.{kind}.json")), true));
        }
    }
    out.sort();
    out
}

/// Parsed `<file>.<kind>.json` of a corpus, if present.
pub fn oracle_json(c: &Corpus, file: &str, kind: &str) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(c.oracle.join(format!("{file}.{kind}.json"))).ok()?).ok()
}

/// The band `t` of the acceptance rule: `max(file tolerance, Open
/// CASCADE's largest shape tolerance)`, capped at `1e-3 × diag`.
pub fn band(file_tol: Option<f64>, occt_tol: f64, diag: f64) -> f64 {
    file_tol.unwrap_or(0.0).max(occt_tol).min(1e-3 * diag)
}

/// The acceptance rule: `|d − d_occt| ≤ max(1e-6·max(1, d), t)`.
pub fn within_band(d: f64, d_occt: f64, t: f64) -> bool {
    (d - d_occt).abs() <= (1e-6 * d_occt.max(1.0)).max(t)
}

/// Two answers of extrack for the same point agree (coherent = cold):
/// `1e-6·max(1, d)`.
pub fn same_answer(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.max(b).max(1.0)
}

/// A file's points of `fixtures/oracle_boundary/<file>.boundary.csv.zst`
/// with the header's `diag` and `max_tolerance`, or `None` when the file has
/// none (Open CASCADE cannot read it).
pub struct BoundaryPoints {
    /// The points (no closest point: only distances and signs are stored).
    pub points: Vec<OraclePoint>,
    /// Query kind per point (`en`, `ei`, `eo`, `vx`, `fn`, see the script).
    pub kinds: Vec<String>,
    /// Open CASCADE's bounding-box diagonal of the model.
    pub diag: f64,
    /// Open CASCADE's largest edge / vertex tolerance.
    pub occt_tolerance: f64,
}

/// The folder of the boundary points in the repository.
pub fn boundary_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/oracle_boundary")
}

/// Reads the boundary points of `file` (see [`BoundaryPoints`]).
pub fn boundary_points(file: &str) -> Option<BoundaryPoints> {
    let bytes = std::fs::read(boundary_dir().join(format!("{file}.boundary.csv.zst"))).ok()?;
    let text = String::from_utf8(zstd::decode_all(&bytes[..]).expect("zstd")).expect("utf-8");
    let mut lines = text.lines();
    let header = lines.next().expect("header line");
    let field = |k: &str| -> f64 {
        header
            .split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{k}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{file}: no {k} in {header}"))
    };
    let (diag, occt_tolerance) = (field("diag"), field("max_tolerance"));
    assert_eq!(
        lines.next(),
        Some("kind,x,y,z,dist,inside,support,face"),
        "{file}: columns"
    );
    let (mut points, mut kinds) = (Vec::new(), Vec::new());
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        let num = |k: usize| -> f64 { c[k].parse().unwrap_or_else(|_| panic!("{file}: bad number in {l}")) };
        let dist = num(4);
        points.push(OraclePoint {
            q: Vec3::new(num(1), num(2), num(3)),
            dist,
            sdist: match c[5] {
                "1" => Some(-dist),
                "0" => Some(dist),
                _ => None,
            },
            closest: None,
            unique: false,
        });
        kinds.push(c[0].to_string());
    }
    Some(BoundaryPoints {
        points,
        kinds,
        diag,
        occt_tolerance,
    })
}

/// One file's count of wrong points, for [`ratchet`].
pub struct Count {
    /// File name.
    pub file: String,
    /// Points outside the band (or answered with an error).
    pub wrong: usize,
    /// Points checked.
    pub total: usize,
}

/// The ratchet of a known-wrong list `(file, most wrong points, reason)`:
/// a failure for every file with more wrong points than listed (0 when not
/// listed) and for every listed file that is now right on every point (to
/// be removed from the list, so that it shrinks as fixes land).
pub fn ratchet(what: &str, counts: &[Count], known: &[(&str, usize, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    for c in counts {
        let listed = known.iter().find(|k| k.0 == c.file);
        let allowed = listed.map_or(0, |k| k.1);
        if c.wrong > allowed {
            out.push(format!(
                "{what}: {}: {} of {} points wrong, at most {allowed} allowed{}",
                c.file,
                c.wrong,
                c.total,
                listed.map_or(String::new(), |k| format!(" ({})", k.2))
            ));
        } else if listed.is_some() && c.wrong == 0 {
            out.push(format!(
                "{what}: {} is now right on all {} points: remove it from the known-wrong list",
                c.file, c.total
            ));
        }
    }
    out
}

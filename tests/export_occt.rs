//! Files written by extrack are read by Open CASCADE: the oracle scripts of
//! `../shared/oracle/` run on STEP and IGES exports of generated fixtures. Runs
//! when `python3 -c "import OCP"` works (PyPI `cadquery-ocp`; `.ci/run`
//! installs it when it can), else skips with a message.
//!
//! Checks per exported file: Open CASCADE's face count equals the oracle's
//! for the original file, and `occt_closest.py` with the oracle's seed and
//! point count (the query points are drawn from the faces, so an export with
//! the same faces in the same order gets the same points) gives the same
//! distances as the oracle on the original within 1e-6 mm. When Open CASCADE
//! orders the exported faces differently the query points differ; then only
//! the face count is checked (printed).

use extrack::export::{write_model, Format};
use extrack::import::import_file;
use std::path::PathBuf;
use std::process::Command;

fn ocp() -> bool {
    Command::new("python3")
        .args(["-c", "import OCP"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn open_cascade_reads_exports() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if !root.join("oracle/occt_closest.py").is_file() || !root.join("fixtures/oracle").is_dir() {
        println!("SKIP: ../shared/oracle or ../shared/fixtures not found");
        return;
    }
    if !ocp() {
        println!("SKIP: Open CASCADE Python bindings (import OCP; pip install cadquery-ocp) not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut compared = 0;
    // assembly.step's untrimmed periodic B-spline face becomes a 510 without
    // loops in IGES B-rep mode, which Open CASCADE 8.0.1 crashes on
    // (formats/export.md, "Known limits"): its IGES export is not run.
    let cases: [(&str, &[(Format, &str)]); 4] = [
        ("holed_plate", &[(Format::Step, "step"), (Format::Iges, "igs")]),
        ("sculpted", &[(Format::Step, "step"), (Format::Iges, "igs")]),
        ("rounded_box", &[(Format::Step, "step"), (Format::Iges, "igs")]),
        ("assembly", &[(Format::Step, "step")]),
    ];
    for (name, formats) in cases {
        let src = root.join(format!("fixtures/generated/{name}.step"));
        let oracle: serde_json::Value =
            serde_json::from_slice(&std::fs::read(root.join(format!("fixtures/oracle/{name}.closest.json"))).unwrap())
                .unwrap();
        let n = oracle["n"].as_u64().unwrap();
        let seed = oracle["seed"].as_u64().unwrap();
        let m = import_file(&src).unwrap();
        for &(fmt, ext) in formats {
            let out = dir.path().join(format!("{name}.{ext}"));
            let w = write_model(&m, fmt).unwrap();
            std::fs::write(&out, &w.bytes).unwrap();
            let res = Command::new("python3")
                .arg(root.join("oracle/occt_closest.py"))
                .arg(&out)
                .args(["--points", &n.to_string(), "--seed", &seed.to_string()])
                .output()
                .unwrap();
            assert!(
                res.status.success(),
                "{name}.{ext}: occt_closest failed: {}",
                String::from_utf8_lossy(&res.stderr)
            );
            let got: serde_json::Value = serde_json::from_slice(&res.stdout).unwrap();
            assert_eq!(got["face_count"], oracle["face_count"], "{name}.{ext}: face count");
            let (a, b) = (oracle["points"].as_array().unwrap(), got["points"].as_array().unwrap());
            assert_eq!(a.len(), b.len());
            let same_queries = a
                .iter()
                .zip(b)
                .all(|(p, q)| (0..3).all(|k| (p["q"][k].as_f64().unwrap() - q["q"][k].as_f64().unwrap()).abs() < 1e-6));
            if !same_queries {
                println!(
                    "{name}.{ext}: faces {} equal; Open CASCADE orders the faces differently, distances not compared",
                    got["face_count"]
                );
                continue;
            }
            let worst = a
                .iter()
                .zip(b)
                .map(|(p, q)| (p["dist"].as_f64().unwrap() - q["dist"].as_f64().unwrap()).abs())
                .fold(0.0f64, f64::max);
            println!(
                "{name}.{ext}: faces {} equal, {} distances, max |Δ| = {worst:e} mm",
                got["face_count"],
                a.len()
            );
            assert!(worst < 1e-6, "{name}.{ext}: distances differ by {worst} mm");
            compared += 1;
        }
    }
    assert!(
        compared > 0,
        "no export had Open CASCADE's query points; nothing compared"
    );
}

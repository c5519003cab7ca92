//! `extrack inspect --json` on the project's own IGES fixtures (insta
//! snapshots of the stable report), and the CLI's error behaviour.

use extrack::import::{import_file, InspectReport};
use std::path::PathBuf;
use std::process::Command;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

#[test]
fn inspect_json_snapshots_of_generated_fixtures() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "igs"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 18);
    for f in files {
        let m = import_file(&f).unwrap();
        let r = InspectReport::of(&m);
        let v = serde_json::to_value(&r).unwrap();
        for key in [
            "format",
            "producer",
            "units",
            "bodies",
            "faces",
            "edges",
            "vertices",
            "surface_types",
            "warnings",
        ] {
            assert!(v.get(key).is_some(), "missing key {key}");
        }
        assert_eq!(v["format"], "iges");
        let name = f.file_name().unwrap().to_string_lossy().replace('.', "_");
        insta::assert_json_snapshot!(format!("inspect_{name}"), v);
    }
}

#[test]
fn cli_inspect_json_and_errors() {
    let exe = env!("CARGO_BIN_EXE_extrack");
    let out = Command::new(exe)
        .args(["inspect", "--json"])
        .arg(fixtures().join("holed_plate.brep.igs"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["faces"], 9);
    assert_eq!(v["surface_types"]["Cylinder"], 3);

    let dir = std::env::temp_dir().join(format!("extrack-iges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.igs");
    let mut text = std::fs::read_to_string(fixtures().join("torus.faces.igs")).unwrap();
    text.truncate(text.len() * 2 / 3);
    std::fs::write(&bad, text).unwrap();
    let out = Command::new(exe)
        .args(["inspect", "--json"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("line "), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

//! `extrack inspect` on a prepared scene: pieces by class, largest convex
//! normal cone (nice pieces: < 90°), sections.

use std::process::Command;

#[test]
fn inspect_reports_pieces_cones_and_sections_of_a_scene() {
    let exe = env!("CARGO_BIN_EXE_extrack");
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("tiled_convex.exs");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tiled_convex.step");
    let st = Command::new(exe)
        .args(["import", src, "-o"])
        .arg(&scene)
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let out = Command::new(exe)
        .arg("inspect")
        .arg(&scene)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "scene");
    let pieces = v["pieces"].as_u64().unwrap();
    let by_class: u64 = v["pieces_by_class"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert!(pieces > 0);
    assert_eq!(pieces, by_class);
    let cone = v["max_convex_cone_deg"].as_f64().unwrap();
    assert!(cone > 0.0 && cone < 90.0, "{cone}");
    assert_eq!(v["sections"].as_array().unwrap().len(), 17);
    assert_eq!(v["bytes"].as_u64().unwrap(), std::fs::metadata(&scene).unwrap().len());
    // the preparation's tolerances, piece merging depth among them
    let tols = v["tolerances"].as_array().unwrap();
    let merge = tols.iter().find(|t| t["name"] == "classify_merge_depth").unwrap();
    assert_eq!(merge["value"].as_f64().unwrap(), 2.0);
    // text form too
    let txt = Command::new(exe).arg("inspect").arg(&scene).output().unwrap();
    assert!(String::from_utf8_lossy(&txt.stdout).contains("largest convex normal cone"));
    assert!(String::from_utf8_lossy(&txt.stdout).contains("classify_merge_depth"));
}

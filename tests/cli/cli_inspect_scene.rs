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
    // the 17 sections of 2.0, the optional surfaces and piece origins of 2.1
    // and the self-check (face and body checks) of 2.2 that import writes
    assert_eq!(v["sections"].as_array().unwrap().len(), 21);
    // a prepared scene packs with codec 2 (derived data not stored)
    let raw = std::fs::read(&scene).unwrap();
    assert_eq!(
        u16::from_le_bytes([raw[10], raw[11]]),
        extrack::scene::packed::CODEC_ZSTD_DERIVED
    );
    // `import` writes the packed container by default; `bytes` is the in-place size
    let file_len = std::fs::metadata(&scene).unwrap().len();
    assert_eq!(v["file_bytes"].as_u64().unwrap(), file_len);
    assert_eq!(v["packed"], true);
    assert!(v["bytes"].as_u64().unwrap() > 2 * file_len, "{v}");
    // the preparation's tolerances, piece merging depth among them
    let tols = v["tolerances"].as_array().unwrap();
    let merge = tols.iter().find(|t| t["name"] == "classify_merge_depth").unwrap();
    assert_eq!(merge["value"].as_f64().unwrap(), 2.0);
    // text form too
    let txt = Command::new(exe).arg("inspect").arg(&scene).output().unwrap();
    assert!(String::from_utf8_lossy(&txt.stdout).contains("largest convex normal cone"));
    assert!(String::from_utf8_lossy(&txt.stdout).contains(&format!("file:      {file_len} bytes (packed)")));
    assert!(String::from_utf8_lossy(&txt.stdout).contains("classify_merge_depth"));
}

#[test]
fn plain_and_packed_scenes_hold_the_same_scene() {
    let exe = env!("CARGO_BIN_EXE_extrack");
    let dir = tempfile::tempdir().unwrap();
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rounded_box.step");
    let packed = dir.path().join("p.exs");
    let plain = dir.path().join("q.exs");
    for (out, extra) in [(&packed, None), (&plain, Some("--plain"))] {
        let mut c = Command::new(exe);
        c.args(["import", src, "-o"]).arg(out);
        if let Some(x) = extra {
            c.arg(x);
        }
        let st = c.output().unwrap();
        assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    }
    let a = std::fs::read(&packed).unwrap();
    let b = std::fs::read(&plain).unwrap();
    assert!(extrack::scene::packed::is_packed(&a));
    assert!(!extrack::scene::packed::is_packed(&b));
    assert!(a.len() < b.len());
    // the packed file unpacks to exactly the plain file's bytes
    assert_eq!(extrack::scene::packed::unpack(&a).unwrap().as_bytes(), &b[..]);
    let fa = extrack::scene::SceneFile::open(&packed).unwrap();
    assert_eq!(fa.bytes(), &b[..]);
    // only the plain file can be memory-mapped
    // SAFETY: nothing writes to these temporary files while they are mapped.
    assert!(unsafe { extrack::scene::SceneFile::open_mmap(&plain) }.is_ok());
    // SAFETY: as above.
    let e = unsafe { extrack::scene::SceneFile::open_mmap(&packed) }.unwrap_err();
    assert!(e.to_string().contains("cannot be memory-mapped"), "{e}");
    // dumps agree
    let da = Command::new(exe).arg("dump").arg(&packed).output().unwrap();
    let db = Command::new(exe).arg("dump").arg(&plain).output().unwrap();
    assert!(da.status.success() && db.status.success());
    assert_eq!(da.stdout, db.stdout);
}

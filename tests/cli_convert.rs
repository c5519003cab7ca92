//! `extrack convert` and `extrack export --format step|iges` end to end.

use std::process::Command;

fn extrack(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_extrack")).args(args).output().unwrap()
}

#[test]
fn convert_step_to_iges_and_back_keeps_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/holed_plate.brep.igs");
    let step = dir.path().join("plate.step");
    let igs = dir.path().join("plate.igs");
    let o = extrack(&["convert", src, step.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = extrack(&["convert", step.to_str().unwrap(), igs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let a = extrack::import::import_file(std::path::Path::new(src)).unwrap();
    let b = extrack::import::import_file(&igs).unwrap();
    assert_eq!(
        (a.faces.len(), a.edges.len(), a.vertices.len()),
        (b.faces.len(), b.edges.len(), b.vertices.len())
    );
    let bad = extrack(&["convert", src, dir.path().join("x.obj").to_str().unwrap()]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("extension"));
}

#[test]
fn export_scene_as_step_and_iges() {
    let dir = tempfile::tempdir().unwrap();
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tiled_convex.step");
    let exs = dir.path().join("t.exs");
    let o = extrack(&["import", src, "-o", exs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pieces = extrack::scene::SceneFile::open(&exs).unwrap().view().pieces().len();
    for (fmt, ext) in [("iges", "igs"), ("step", "step")] {
        let out = dir.path().join(format!("t.{ext}"));
        let o = extrack(&[
            "export",
            exs.to_str().unwrap(),
            "--format",
            fmt,
            "--by-class",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let m = extrack::import::import_file(&out).unwrap();
        assert_eq!(m.faces.len(), pieces, "{fmt}: one face per piece");
    }
}

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

/// `convert` keeps the source length unit: an inch STEP file becomes an IGES
/// file with unit flag 1 (`INCH`) and back a STEP file with a
/// CONVERSION_BASED_UNIT 'INCH'; the values in the files are inches (the
/// block's 2-inch side is written as `2.`) and the Models are in mm as before.
#[test]
fn convert_keeps_inches() {
    let dir = tempfile::tempdir().unwrap();
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/inch_block.step");
    let igs = dir.path().join("block.igs");
    let step = dir.path().join("block.step");
    let o = extrack(&["convert", src, igs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = extrack(&["convert", igs.to_str().unwrap(), step.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let g = std::fs::read_to_string(&igs).unwrap();
    let global: String = g
        .lines()
        .filter(|l| l.as_bytes().get(72) == Some(&b'G'))
        .map(|l| &l[..72])
        .collect();
    assert!(global.contains(",1.,1,4HINCH,"), "IGES global section: {global}");
    let s = std::fs::read_to_string(&step).unwrap();
    assert!(
        s.contains("CONVERSION_BASED_UNIT('INCH',"),
        "no inch unit in the STEP file"
    );
    assert!(s.contains("LENGTH_MEASURE(25.4)"));
    let a = extrack::import::import_file(std::path::Path::new(src)).unwrap();
    for out in [&igs, &step] {
        let b = extrack::import::import_file(out).unwrap();
        assert_eq!(b.units.mm_per_unit, 25.4, "{}", out.display());
        assert_eq!(b.units.name, "inch");
        assert_eq!(b.vertices.len(), a.vertices.len());
        // same corners in mm
        for v in &a.vertices {
            assert!(b.vertices.iter().any(|w| (w.point - v.point).norm() < 1e-9 * 50.8));
        }
    }
    // the file holds inches: the block is 2 x 1 x 0.5 inch
    assert!(
        s.contains("CARTESIAN_POINT('',(2.,"),
        "STEP coordinates are not in inches"
    );
}

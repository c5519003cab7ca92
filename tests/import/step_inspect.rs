//! insta snapshots of `inspect --json` for the project's own STEP fixtures:
//! an assembly with two placed bodies, a hand-made inch-unit block, and every
//! other STEP fixture.

use extrack::import::{import_file, InspectReport};
use std::path::Path;

fn report(name: &str) -> InspectReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name);
    InspectReport::of(&import_file(&path).unwrap())
}

#[test]
fn assembly_two_placed_bodies() {
    let r = report("assembly.step");
    assert_eq!(r.bodies, 2);
    let names: Vec<&str> = r.body_list.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["plate (plate_instance)", "knob (knob_instance)"]);
    // the knob is placed at (5, -3, 4), the plate moved to z in [-5, 0]
    assert_eq!(r.body_list[1].origin, [5.0, -3.0, 4.0]);
    assert_eq!(r.body_list[0].origin, [0.0, 0.0, -5.0]);
    insta::assert_json_snapshot!("inspect_assembly_step", r);
}

#[test]
fn inch_block() {
    let r = report("inch_block.step");
    assert_eq!(r.units.name, "inch");
    assert_eq!(r.units.mm_per_unit, 25.4);
    assert!((r.tolerance.unwrap() - 25.4e-6).abs() < 1e-15);
    assert_eq!((r.faces, r.edges, r.vertices), (6, 12, 8));
    insta::assert_json_snapshot!("inspect_inch_block_step", r);
}

#[test]
fn inch_block_geometry_is_in_mm() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/inch_block.step");
    let m = import_file(&path).unwrap();
    let max = m.vertices.iter().fold([0.0f64; 3], |a, v| {
        [a[0].max(v.point.x), a[1].max(v.point.y), a[2].max(v.point.z)]
    });
    assert_eq!(max, [50.8, 25.4, 12.7]);
}

/// Every other STEP fixture of the project: the report of each is a snapshot
/// (counts, surface types, units, bodies, warnings).
#[test]
fn every_project_step_fixture() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".step") && n != "assembly.step" && n != "inch_block.step")
        .collect();
    names.sort();
    assert!(names.len() >= 10, "fixtures missing: {names:?}");
    for name in names {
        let r = report(&name);
        assert!(r.faces > 0, "{name}: no faces");
        assert_eq!(r.format, extrack::import::model::SourceFormat::Step, "{name}");
        insta::assert_json_snapshot!(format!("inspect_{}", name.replace('.', "_")), r);
    }
}

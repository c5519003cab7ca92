//! IGES 186 with void shells (flag 0 = shell used reversed): the importer
//! flips the void's faces like the STEP side does for ORIENTED_CLOSED_SHELL
//! `.F.` (tests/import/step_voids.rs), so their material-outward normals point into
//! the cavity. `fixtures/voids/void_block.{brep.igs,step}` (tools/make_void_block.py,
//! Open CASCADE): a box with a box cavity and a spherical cavity; every signed
//! distance equals Open CASCADE's (`fixtures/voids/void_block.closest.json`,
//! computed on the STEP file), from both files, points inside the cavities
//! included.

use extrack::geom::{Pose, Vec3};
use extrack::import::model::BodyKind;
use extrack::track::{closest_point, Target, TrackScene};
use std::path::Path;

fn check(file: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/voids");
    let model = extrack::import::import_file(root.join(file)).unwrap();
    assert_eq!(model.bodies.len(), 1, "{file}");
    let body = &model.bodies[0];
    assert_eq!(body.kind, BodyKind::Solid, "{file}");
    let voids: Vec<bool> = body.shells.iter().map(|s| s.void).collect();
    assert_eq!(voids, [false, true, true], "{file}");
    assert!(body.shells.iter().all(|s| s.closed), "{file}");
    let data = extrack::prepare::prepare(&model, &extrack::prepare::PrepareOptions::default()).unwrap();
    let scene = TrackScene::from_data(&data).unwrap();
    let js: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("void_block.closest.json")).unwrap()).unwrap();
    let in_cavity = |q: &Vec3| {
        let in_box = (5.0..15.0).contains(&q.x) && (5.0..13.0).contains(&q.y) && (5.0..11.0).contains(&q.z);
        in_box || (q - Vec3::new(28.0, 18.0, 10.0)).norm() < 4.0
    };
    let mut cavity_points = 0;
    for (i, p) in js["points"].as_array().unwrap().iter().enumerate() {
        let q: Vec<f64> = p["q"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let q = Vec3::new(q[0], q[1], q[2]);
        let (d, sd) = (p["dist"].as_f64().unwrap(), p["sdist"].as_f64().unwrap());
        let r = closest_point(&scene, &Target::All { pose: Pose::identity() }, q).unwrap();
        let tol = 1e-6 * d.max(1.0);
        assert!(
            (r.distance - d).abs() <= tol,
            "{file} point {i}: distance {} vs {d}",
            r.distance
        );
        let s = r.signed_distance.unwrap();
        assert!((s - sd).abs() <= tol, "{file} point {i} {q:?}: signed {s} vs {sd}");
        if in_cavity(&q) {
            assert!(s > 0.0, "{file} point {i} in a cavity: signed {s}");
            cavity_points += 1;
        }
    }
    assert!(cavity_points > 0, "{file}: no oracle point inside a cavity");
}

#[test]
fn iges_void_shells_face_into_the_void() {
    check("void_block.brep.igs");
}

#[test]
fn step_void_shells_face_into_the_void() {
    check("void_block.step");
}

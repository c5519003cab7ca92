//! The self-check's accounting of faces the importer could not read (issue
//! 25): each is a `DROPPED` face record naming its entity, with the
//! importer's reason, and the body whose closed shell lost it is
//! `SHELL_INCOMPLETE`, in the report and in the scene's records.

use extrack::prepare::{prepare, PrepareOptions};
use extrack::verify::{verify_into, DROPPED, SHELL_INCOMPLETE};
use std::path::Path;

fn check(rel: &str) -> (extrack::verify::VerifyReport, extrack::scene::data::SceneData) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(rel);
    let model = extrack::import::import_file(&path).expect("imports");
    let mut scene = prepare(&model, &PrepareOptions::default()).expect("prepares");
    let report = verify_into(&model, &mut scene);
    (report, scene)
}

#[test]
fn step_faces_lost_on_import_are_dropped_records() {
    let (r, scene) = check("accounting/lost_face.step");
    assert!(!r.passed());
    assert_eq!(r.summary.faces, 3, "{}", r.to_text());
    assert_eq!(r.summary.dropped, 2);
    let rec = |id: u64| {
        let i = r.faces.iter().position(|f| f.source_face == id).expect("a record");
        (r.faces[i], r.context[i].note.clone())
    };
    let (f40, why40) = rec(40);
    assert_eq!((f40.failed, f40.body), (DROPPED, 0));
    assert!(why40.contains("semi-angle"), "{why40}");
    let (f50, why50) = rec(50);
    assert_eq!((f50.failed, f50.body), (DROPPED, u32::MAX));
    assert!(why50.contains("not in any solid"), "{why50}");
    // the face that was read passes
    assert_eq!(rec(4).0.failed, 0);
    assert_eq!(r.bodies.len(), 1);
    assert_ne!(r.bodies[0].failed & SHELL_INCOMPLETE, 0);
    assert_eq!(r.bodies[0].dropped_faces, 1);
    // stored in the scene
    assert!(scene
        .face_checks
        .iter()
        .any(|c| c.source_face == 40 && c.failed == DROPPED && c.body == 0));
    assert_ne!(scene.body_checks[0].failed & SHELL_INCOMPLETE, 0);
    let text = r.to_text();
    assert!(text.contains("face #40 (body 0): dropped (not imported: "), "{text}");
    assert!(text.contains("body 0: closed shell lost 1 face(s)"), "{text}");
}

#[test]
fn iges_shell_that_lost_a_face_is_incomplete() {
    let (r, _) = check("hostile/holed_plate_curve_for_surface.igs");
    assert_eq!(r.summary.faces, 9, "{}", r.to_text());
    assert_eq!(r.summary.dropped, 1);
    assert_eq!(r.summary.failed, 1, "only the lost face fails: {}", r.to_text());
    let f = r.faces.iter().find(|f| f.source_face == 7).expect("DE 7 recorded");
    assert_eq!((f.failed, f.body), (DROPPED, 0));
    assert_ne!(r.bodies[0].failed & SHELL_INCOMPLETE, 0);
}

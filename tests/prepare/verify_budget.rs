//! The self-check's per-face work budget (issue 29): a face whose check
//! spends its budget is reported `NOT_CHECKED` with a note naming the
//! budget, listed by the report's text, and its answers are unverified as
//! on a failing face; the repository's fixtures stay well within their
//! budgets.

use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{AnswerStatus, BodyStatus};
use extrack::verify::{budget, verify, verify_capped, FAILURE_BITS, NOT_CHECKED};
use std::path::Path;

fn fixture(name: &str) -> (extrack::import::model::Model, extrack::scene::data::SceneData) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name);
    let model = extrack::import::import_file(&path).expect("imports");
    let scene = prepare(&model, &PrepareOptions::default()).expect("prepares");
    (model, scene)
}

#[test]
fn a_face_over_its_budget_is_not_checked_and_its_answers_unverified() {
    let (model, mut scene) = fixture("holed_plate.step");
    // 10 units: less than the trims and the boundary trace of any face cost
    let r = verify_capped(&model, &scene, 10);
    assert_eq!(r.summary.not_checked, r.summary.faces, "{}", r.to_text());
    assert_eq!(r.summary.failed, 0, "nothing was found wrong: {}", r.to_text());
    for (f, c) in r.faces.iter().zip(&r.context) {
        assert_eq!(f.failed, NOT_CHECKED, "face #{}", f.source_face);
        assert!(
            c.note.contains("self-check work budget of 10 units spent"),
            "{}",
            c.note
        );
    }
    let text = r.to_text();
    assert!(
        text.contains("not checked (self-check work budget of 10 units spent"),
        "{text}"
    );
    assert!(text.contains(&format!("{} not checked", r.summary.faces)), "{text}");
    // every answer on those faces is unverified
    scene.face_checks = r.face_checks();
    scene.body_checks = r.body_checks();
    let status = BodyStatus::of_scene(&scene);
    for (i, p) in scene.pieces.iter().enumerate() {
        let b = &status[p.body as usize];
        let s = b.pieces[i - b.first_piece as usize];
        assert!(s.is_checked() && s.has(AnswerStatus::UNVERIFIED_FACE), "piece {i}");
    }
}

#[test]
fn the_fixtures_are_checked_within_a_third_of_their_budgets() {
    // a budget 3× smaller than every face's own still checks every face of
    // the repository's fixtures to the same result
    for name in [
        "holed_plate.step",
        "sculpted.step",
        "torus_nurbs.step",
        "rounded_box.brep.igs",
    ] {
        let (model, scene) = fixture(name);
        let full = verify(&model, &scene);
        assert_eq!(full.summary.not_checked, 0, "{name}: {}", full.to_text());
        let least = model
            .faces
            .iter()
            .map(|f| budget::face_budget(&model.edges, f, 0))
            .min()
            .unwrap();
        let third = verify_capped(&model, &scene, least / 3);
        assert_eq!(
            third.summary.not_checked,
            0,
            "{name} at {} units: {}",
            least / 3,
            third.to_text()
        );
        let bits =
            |r: &extrack::verify::VerifyReport| r.faces.iter().map(|f| f.failed & FAILURE_BITS).collect::<Vec<_>>();
        assert_eq!(bits(&full), bits(&third), "{name}");
    }
}

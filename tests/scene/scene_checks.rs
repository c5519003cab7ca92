//! The self-check sections of format 2.2 (`face_checks`, `body_checks`):
//! written only when non-empty (scenes without them stay 2.1 byte for byte),
//! validated, dumped, summarised by `inspect`, carried by the packed codec,
//! and turned into the status of closest-point answers.

use crate::common::checks::{mark_failed, prepared, probe_points};
use crate::common::scene_fixture::small_scene;
use extrack::geom::Pose;
use extrack::scene::packed::{pack, unpack, CODEC_ZSTD_DERIVED, DEFAULT_LEVEL};
use extrack::scene::records::*;
use extrack::scene::summary::SceneSummary;
use extrack::scene::{dump, AlignedBytes, SceneError, SceneView};
use extrack::track::{closest_point, AnswerStatus, Target, TrackScene};

fn view_of(bytes: &[u8]) -> Result<(), SceneError> {
    let a = AlignedBytes::from_slice(bytes);
    SceneView::from_bytes(a.as_bytes()).map(|_| ())
}

#[test]
fn scenes_without_checks_stay_2_1_and_checked_ones_are_2_2() {
    let plain = small_scene();
    let bytes = plain.write();
    let a = AlignedBytes::from_slice(&bytes);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    assert_eq!(v.version(), (2, 1));
    assert!(!v.is_checked() && v.face_checks().is_empty() && v.body_checks().is_empty());
    assert!(!dump(&v).contains("check"));

    let mut checked = plain.clone();
    mark_failed(&mut checked, 103);
    let bytes2 = checked.write();
    let a2 = AlignedBytes::from_slice(&bytes2);
    let v2 = SceneView::from_bytes(a2.as_bytes()).unwrap();
    assert_eq!(v2.version(), (2, 2));
    assert_eq!(v2.face_checks(), &checked.face_checks[..]);
    assert_eq!(v2.body_checks(), &checked.body_checks[..]);
    let names: Vec<&str> = v2
        .sections()
        .iter()
        .filter_map(|s| SectionId::from_code(s.id))
        .map(|s| s.name())
        .collect();
    assert_eq!(&names[names.len() - 2..], ["face_checks", "body_checks"]);
    assert!(v2
        .sections()
        .iter()
        .rev()
        .take(2)
        .all(|s| s.flags & SECTION_REQUIRED == 0));
    // write → read → write is the identity, and dropping the checks gives the 2.1 bytes back
    let back = v2.to_data();
    assert_eq!(back, checked);
    assert_eq!(back.write(), bytes2);
    let mut stripped = back;
    stripped.face_checks.clear();
    stripped.body_checks.clear();
    assert_eq!(stripped.write(), bytes);
}

#[test]
fn check_records_are_validated() {
    let ok = {
        let mut d = small_scene();
        mark_failed(&mut d, 103);
        d
    };
    assert!(ok.check().is_ok());
    let bad = |f: &dyn Fn(&mut extrack::scene::SceneData), what: &str| {
        let mut d = ok.clone();
        f(&mut d);
        let e = view_of(&d.write()).expect_err(what);
        assert!(e.to_string().contains("check"), "{what}: {e}");
    };
    bad(&|d| d.face_checks[0].body = 7, "face body out of range");
    bad(&|d| d.face_checks[0].failed = 32, "unknown face bit");
    bad(&|d| d.face_checks[0].worst_boundary = -1.0, "negative measure");
    bad(&|d| d.face_checks[0].piece_area = f64::NEG_INFINITY, "-inf measure");
    bad(&|d| d.body_checks[0].body = 9, "body out of range");
    bad(&|d| d.body_checks[0].failed = 4, "unknown body bit");
    bad(&|d| d.body_checks.swap(0, 1), "body records out of order");
    // NaN (not measured), +∞ (unbounded) and NONE (a face of no body) are valid
    let mut d = ok.clone();
    d.face_checks[0].model_area = f64::NAN;
    d.face_checks[0].worst_containment = f64::INFINITY;
    d.face_checks[1].body = NONE;
    d.face_checks[1].failed = FACE_DROPPED | FACE_NOT_CHECKED;
    assert!(view_of(&d.write()).is_ok());
    // a body-check section alone counts as a self-check
    let mut d = small_scene();
    d.body_checks = ok.body_checks.clone();
    let a = AlignedBytes::from_slice(&d.write());
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    assert!(v.is_checked() && v.face_checks().is_empty());
}

#[test]
fn checked_scene_reports_and_answers_with_status() {
    let mut data = prepared("rounded_box.step");
    let points = probe_points(&data);
    // without a self-check every answer's status is unknown
    let ts0 = TrackScene::from_data(&data).unwrap();
    let target = Target::All { pose: Pose::identity() };
    let before: Vec<_> = points
        .iter()
        .map(|q| closest_point(&ts0, &target, *q).unwrap())
        .collect();
    assert!(before.iter().all(|r| r.status == AnswerStatus::UNKNOWN));
    let failed_face = before
        .iter()
        .find(|r| matches!(r.feature, extrack::scene::data::FeatureRef::Piece(_)))
        .unwrap()
        .face;
    mark_failed(&mut data, failed_face);

    let bytes = data.write();
    let a = AlignedBytes::from_slice(&bytes);
    let v = SceneView::from_bytes(a.as_bytes()).unwrap();
    // (a) the dump and inspect name the failing face, what failed and by how much
    let text = dump(&v);
    let line = text
        .lines()
        .find(|l| l.starts_with("face check ") && l.contains(&format!("face #{failed_face} ")))
        .unwrap();
    assert!(
        line.contains("failed coverage") && line.contains("piece area 90.0"),
        "{line}"
    );
    assert!(text.contains("body check 0 body 0 failed faces_failed dropped faces 0 failed faces 1"));
    let summary = SceneSummary::of(&v);
    let js = serde_json::to_value(&summary).unwrap();
    let failed = js["checks"]["failed_faces"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["face"], failed_face);
    assert_eq!(failed[0]["failed"], serde_json::json!(["coverage"]));
    assert_eq!(failed[0]["piece_area"], 90.0);
    assert_eq!(js["checks"]["bodies"][0]["failed"], serde_json::json!(["faces_failed"]));
    assert!(summary.to_text().contains(&format!(
        "  face #{failed_face} body 0: coverage  model area 100 mm², piece area 90 mm²"
    )));
    assert_eq!(js["version"], "2.2");

    // (b) closest points on the failed face are unverified, elsewhere verified
    let ts = TrackScene::new(&v).unwrap();
    let (mut on_failed, mut elsewhere) = (0, 0);
    for (q, r0) in points.iter().zip(&before) {
        let r = closest_point(&ts, &target, *q).unwrap();
        assert_eq!(
            (r.distance, r.piece, r.feature),
            (r0.distance, r0.piece, r0.feature),
            "same answer"
        );
        assert!(r.status.is_checked());
        let pieces_face = |p: u32| data.pieces[p as usize].source_face;
        let touches_failed = match r.feature {
            extrack::scene::data::FeatureRef::Piece(p) => pieces_face(p) == failed_face,
            extrack::scene::data::FeatureRef::Edge(e) => data.edges[e as usize]
                .sides
                .iter()
                .any(|s| s.piece != NONE && pieces_face(s.piece) == failed_face),
            extrack::scene::data::FeatureRef::Vertex(_) => continue,
        };
        if touches_failed {
            on_failed += 1;
            assert!(
                r.status.has(AnswerStatus::UNVERIFIED_FACE) && !r.status.is_verified(),
                "{q:?}"
            );
        } else {
            elsewhere += 1;
            assert!(r.status.is_verified(), "{q:?}: {:?}", r.status);
        }
    }
    assert!(on_failed >= 1 && elsewhere >= 1, "{on_failed} {elsewhere}");
}

#[test]
fn packed_codec_2_carries_the_checks() {
    let mut data = prepared("rounded_box.step");
    let face = data.pieces[0].source_face;
    mark_failed(&mut data, face);
    let bytes = data.write();
    let packed = pack(&bytes, DEFAULT_LEVEL).unwrap();
    assert_eq!(u16::from_le_bytes([packed[10], packed[11]]), CODEC_ZSTD_DERIVED);
    let back = unpack(&packed).unwrap();
    assert_eq!(back.as_bytes(), &bytes[..]);
    let v = SceneView::from_bytes(back.as_bytes()).unwrap();
    assert_eq!(v.face_checks(), &data.face_checks[..]);
}

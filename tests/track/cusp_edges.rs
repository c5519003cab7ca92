//! Cusp edges: where a body's two faces meet tangentially with opposite
//! outward normals (a wall tangent to the fillet beside it, as in fused
//! component models), the edge pseudo-normal `n_a + n_b` vanishes and its
//! sign is rounding noise. The tracker resolves each such edge as a groove
//! or a fin when it is built (`track::body::cusps`). Checked on a fin and a
//! groove made with Open CASCADE (`fixtures/cusp/`,
//! `tools/oracle/make_cusp_fixtures.py`) and on real files whose walls meet
//! their terminals' fillets this way (skipped with a message when
//! `../shared/fixtures` is absent): points behind the cusp and on the faces'
//! common normal line (as far from both faces) are inside at a groove and
//! outside at a fin, cold and tracked.

use crate::common;
use crate::point_body_corpus::prepared_scene;
use extrack::geom::Pose;
use extrack::track::body::Cusp;
use extrack::track::TrackScene;
use extrack::track::{closest_point, BodyState, PointBodyTracker, PointState, Target, TrackerConfig};
use std::path::Path;

/// Files with groove cusps, with the number of cusp edges each must have.
const GROOVE_FILES: &[(&str, usize)] = &[
    ("wave2/corpus/step_kicadstepup_r0805.step", 2),
    ("wave2/corpus/step_creo1_gpio_red_brick.stp", 1),
];

/// The cusp edges of `scene`'s body 0, each checked to be `kind` with
/// points behind it and on its common normal line on the cusp's side, cold
/// and tracked; returns how many there are.
fn check_cusps(file: &str, scene: &TrackScene, kind: Cusp) -> usize {
    let body = scene.body(0).unwrap();
    let mut cusps = 0;
    for (k, e) in body.edges.iter().enumerate() {
        let Some(found) = e.cusp else { continue };
        cusps += 1;
        assert_eq!(found, kind, "{file}: edge {k}");
        // the edge's middle (its end samples lie on the neighbouring faces)
        let t = 0.5 * (e.pseudo_normals[0].0 + e.pseudo_normals[e.pseudo_normals.len() - 1].0);
        let c = e.curve.eval(t);
        // the pseudo-normal holds the cusp's limit: the faces' departure
        // direction (groove) or its opposite (fin)
        let limit = body.edge_pseudo_normal(k as u32, t).normalize();
        let departure = if kind == Cusp::Groove { limit } else { -limit };
        let normal_line = e.curve.eval_derivs(t).d1.cross(&departure).normalize();
        let s = 1e-3;
        for q in [c + normal_line * s, c - normal_line * s, c - departure * s] {
            let cold = closest_point(scene, &Target::All { pose: Pose::identity() }, q).unwrap();
            let signed = cold.signed_distance.expect("a solid");
            assert_eq!(
                signed < 0.0,
                kind == Cusp::Groove,
                "{file}: edge {k}: {q:?} at a {kind:?} is {} the body, got {signed}",
                if kind == Cusp::Groove { "inside" } else { "outside" }
            );
            // a tracker arriving from 0.5 mm away answers the same
            let mut tracker = PointBodyTracker::new(scene, 0, TrackerConfig::default()).unwrap();
            let start = q - departure * 0.5 + normal_line * 0.5;
            let steps = 50;
            let mut last = None;
            for i in 0..=steps {
                let x = start + (q - start) * (i as f64 / steps as f64);
                last = Some(
                    tracker
                        .update(scene, &PointState::at(x), &BodyState::at(Pose::identity()), 1e-3)
                        .unwrap(),
                );
            }
            let tracked = last.unwrap().signed_distance.unwrap();
            assert!(
                (tracked - signed).abs() <= 1e-9 * (1.0 + signed.abs()),
                "{file}: edge {k}: {q:?} tracked {tracked} vs cold {signed}"
            );
        }
    }
    cusps
}

fn scene_of(path: &Path) -> TrackScene {
    let model = extrack::import::import_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    prepared_scene(&model).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_fin_and_a_groove_take_their_sides() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cusp");
    for (file, kind) in [("fin.step", Cusp::Fin), ("groove.step", Cusp::Groove)] {
        let n = check_cusps(file, &scene_of(&dir.join(file)), kind);
        assert_eq!(n, 1, "{file}: the one cusp edge x = y = 0");
    }
}

#[test]
fn points_at_groove_cusps_of_real_files_are_inside_cold_and_tracked() {
    let Some(root) = common::fixtures() else { return };
    for (file, min_cusps) in GROOVE_FILES {
        let n = check_cusps(file, &scene_of(&root.join(file)), Cusp::Groove);
        assert!(
            n >= *min_cusps,
            "{file}: {n} cusp edges found, expected at least {min_cusps}"
        );
    }
}

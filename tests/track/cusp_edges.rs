//! Cusp edges: where a body's two faces meet tangentially with opposite
//! outward normals (a wall tangent to the fillet beside it, as in fused
//! component models), the edge pseudo-normal `n_a + n_b` vanishes and its
//! sign is rounding noise. The tracker resolves each such edge as a groove
//! or a fin when it is built (`track::body::cusps`); here, on real files
//! whose walls meet their terminals' fillets this way, every cusp edge found
//! is a groove, and points behind the groove's bottom and on the faces'
//! common normal line (as far from both faces) are inside, cold and
//! tracked. Skipped (with a message) when `../shared/fixtures` is absent.

use crate::common;
use crate::point_body_corpus::prepared_scene;
use extrack::geom::Pose;
use extrack::track::body::Cusp;
use extrack::track::{closest_point, BodyState, PointBodyTracker, PointState, Target, TrackerConfig};

/// Files with groove cusps, with the number of cusp edges each must have.
const GROOVE_FILES: &[(&str, usize)] = &[
    ("wave2/corpus/step_kicadstepup_r0805.step", 2),
    ("wave2/corpus/step_creo1_gpio_red_brick.stp", 1),
];

#[test]
fn points_at_groove_cusps_are_inside_cold_and_tracked() {
    let Some(root) = common::fixtures() else { return };
    for (file, min_cusps) in GROOVE_FILES {
        let model = extrack::import::import_file(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let scene = prepared_scene(&model).unwrap_or_else(|e| panic!("{file}: {e}"));
        let body = scene.body(0).unwrap();
        let mut cusps = 0;
        for (k, e) in body.edges.iter().enumerate() {
            let Some(kind) = e.cusp else { continue };
            cusps += 1;
            assert_eq!(
                kind,
                Cusp::Groove,
                "{file}: edge {k} is a cusp between a wall and a fillet: a groove"
            );
            // the edge's middle (its end samples lie on the neighbouring faces)
            let t = 0.5 * (e.pseudo_normals[0].0 + e.pseudo_normals[e.pseudo_normals.len() - 1].0);
            let c = e.curve.eval(t);
            let limit = body.edge_pseudo_normal(k as u32, t);
            // `limit` is the faces' departure direction; the common normal
            // line is perpendicular to it and to the edge
            let along = e.curve.eval_derivs(t).d1;
            let normal_line = along.cross(&limit).normalize();
            let s = 1e-3;
            let behind = c - limit.normalize() * s;
            for q in [c + normal_line * s, c - normal_line * s, behind] {
                let cold = closest_point(&scene, &Target::All { pose: Pose::identity() }, q).unwrap();
                let signed = cold.signed_distance.expect("a solid");
                assert!(
                    signed < 0.0,
                    "{file}: edge {k}: {q:?} at a groove is inside, got {signed}"
                );
                // a tracker arriving from far away answers the same
                let mut tracker = PointBodyTracker::new(&scene, 0, TrackerConfig::default()).unwrap();
                let start = c + limit.normalize() * 0.5 + normal_line * 0.5;
                let steps = 50;
                let mut last = None;
                for i in 0..=steps {
                    let x = start + (q - start) * (i as f64 / steps as f64);
                    last = Some(
                        tracker
                            .update(&scene, &PointState::at(x), &BodyState::at(Pose::identity()), 1e-3)
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
        assert!(
            cusps >= *min_cusps,
            "{file}: {cusps} cusp edges found, expected at least {min_cusps}"
        );
    }
}

//! Regression: a face's loop samples lie on the sheet its p-curves give.
//! `step_build123d_m6_screw.stp` face #3818 is a thread flank (degree 13 × 1
//! B-spline) whose root strip touches the next turn: the 3-D end point of
//! its first edge lies on the surface at u ≈ 50.9 (where its p-curve is) and
//! at u ≈ 57.24, v = 0. Projected without the p-curve, the samples ran along
//! v = 0 to the surface's end and jumped back a turn, and prepare kept a
//! strip between v = 0 and the edge at v ≈ 0.00184 (two oracle points
//! 2.6e-4 mm too near). Skipped when `../shared/fixtures` is absent.

use crate::common;

use extrack::import::eval::FaceTrim;

#[test]
fn thread_flank_loop_samples_follow_their_pcurves() {
    let Some(root) = common::fixtures() else { return };
    let model = extrack::import::import_file(root.join("corpus/step_build123d_m6_screw.step")).unwrap();
    let face = model.faces.iter().find(|f| f.source == 3818).expect("face #3818");
    let t = FaceTrim::new(&model, face);
    let loops: Vec<_> = face.outer.iter().chain(face.inner.iter()).collect();
    let mut checked = 0;
    for (l, spans) in t.loops.iter().zip(&t.coedge_spans) {
        for sp in spans {
            let Some(pc) = loops[sp.face_loop].coedges[sp.coedge].pcurve.as_ref() else {
                continue;
            };
            // the p-curve as a fine polyline in (u, v)
            let poly: Vec<[f64; 2]> = (0..=4000)
                .map(|i| {
                    let p = pc.eval_unit(i as f64 / 4000.0).p;
                    [p.x, p.y]
                })
                .collect();
            for &(u, v) in &l[sp.samples.clone()] {
                let d = poly
                    .iter()
                    .map(|p| (p[0] - u).hypot(p[1] - v))
                    .fold(f64::INFINITY, f64::min);
                // a p-curve spans ≤ 6.4 in u: polyline spacing ≤ 0.0016; the
                // wrong sheet was 0.8 to 6 away
                assert!(
                    d < 0.02,
                    "coedge {}: sample ({u}, {v}) is {d} from its p-curve",
                    sp.coedge
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} samples checked");
}

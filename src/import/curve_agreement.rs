//! **Two curves of one boundary that disagree.** A coedge of a trimmed face
//! may carry two descriptions of the same boundary: a curve in the
//! surface's parameter space (a p-curve) and one in model space (IGES 142's
//! BPTR and CPTR). Where the file names the p-curve the preferred one (142
//! preference flag 1) the face follows it: the preparation trims by it and
//! the self-check traces it, so nothing else looks at the model-space curve.
//! When the two lie farther apart than the file's tolerance the file
//! contradicts itself near that boundary, and an answer there is exact only
//! for the reading the file prefers (Open CASCADE, reading both, raises its
//! edge tolerances instead: 0.16 mm on sw2010_impeller).
//!
//! [`check`] measures, for every such coedge, how far the p-curve's image on
//! the surface lies from the model-space curve ([`SAMPLES`] points along the
//! p-curve, each projected onto the curve) and warns where it exceeds the
//! file's tolerance (at least [`FLOOR`] × the size of the images), naming
//! the face and the coedge's entity, the worst ones first.

use super::eval::distance_to_curve_range;
use super::model::Model;
use super::sanity::name_of;

/// Points per p-curve.
pub const SAMPLES: usize = 9;

/// The least tolerance, relative to the model's size (the link tolerance
/// of the preparation's trims).
pub const FLOOR: f64 = 1e-6;

/// Coedges named one by one before the rest are counted.
const SHOWN: usize = 5;

/// One coedge whose preferred p-curve leaves its model-space curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Disagreement {
    /// The face's entity.
    pub face: u64,
    /// The coedge's entity (IGES: the 142).
    pub coedge: u64,
    /// The largest distance found from the p-curve's image to the curve, mm.
    pub gap: f64,
}

/// Every coedge with a preferred p-curve and a model-space curve, with its
/// gap, worst first; and the size (box diagonal) of the p-curves' images.
pub fn measure(model: &Model) -> (Vec<Disagreement>, f64) {
    let mut out = Vec::new();
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for face in &model.faces {
        for c in face.outer.iter().chain(face.inner.iter()).flat_map(|l| l.coedges.iter()) {
            if !c.pcurve_preferred {
                continue;
            }
            let (Some(p), Some(s)) = (c.pcurve.as_ref(), c.curve.as_ref()) else {
                continue;
            };
            if !(p.t0.is_finite() && p.t1.is_finite() && s.t0.is_finite() && s.t1.is_finite()) {
                continue;
            }
            let mut gap = 0.0f64;
            for k in 0..SAMPLES {
                let uv = p.eval_unit(k as f64 / (SAMPLES - 1) as f64).p;
                let q = face.surface.eval(uv.x, uv.y);
                let d = distance_to_curve_range(&s.curve, s.t0.min(s.t1), s.t0.max(s.t1), &q);
                // an image off the surface's domain (NaN) is as far as can be
                gap = if d.is_nan() { f64::INFINITY } else { gap.max(d) };
                for j in 0..3 {
                    if q[j].is_finite() {
                        lo[j] = lo[j].min(q[j]);
                        hi[j] = hi[j].max(q[j]);
                    }
                }
            }
            out.push(Disagreement {
                face: face.source,
                coedge: c.source,
                gap,
            });
        }
    }
    out.sort_by(|a, b| b.gap.total_cmp(&a.gap));
    let size = (0..3).map(|j| (hi[j] - lo[j]).powi(2)).sum::<f64>().sqrt();
    (out, if size.is_finite() { size } else { 0.0 })
}

/// The tolerance [`check`] holds the two curves to: the file's, at least
/// [`FLOOR`] × `size`.
pub fn tolerance(model: &Model, size: f64) -> f64 {
    model.tolerance.filter(|t| t.is_finite()).unwrap_or(0.0).max(FLOOR * size)
}

/// A warning per coedge whose preferred p-curve lies farther than the
/// [`tolerance`] from its model-space curve (the first [`SHOWN`], then a
/// count), none when every one follows its curve.
pub fn check(model: &Model) -> Vec<String> {
    let (all, size) = measure(model);
    let tol = tolerance(model, size);
    let found: Vec<&Disagreement> = all.iter().filter(|d| d.gap > tol).collect();
    let name = |id: u64| name_of(model, id);
    let mut w: Vec<String> = found
        .iter()
        .take(SHOWN)
        .map(|d| {
            format!(
                "face {}: the preferred parameter-space curve of {} lies up to {:.2e} mm from its model-space curve \
                 (tolerance {tol:.1e} mm): the face follows the parameter-space curve, so answers near that \
                 boundary hold for that reading of the file",
                name(d.face),
                name(d.coedge),
                d.gap
            )
        })
        .collect();
    if found.len() > SHOWN {
        w.push(format!(
            "{} more coedges whose preferred parameter-space curve leaves its model-space curve (up to {:.2e} mm)",
            found.len() - SHOWN,
            found[SHOWN].gap
        ));
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Frame, Vec3};
    use crate::import::model::{Coedge, Curve, CurveSegment, Face, Loop, SourceFormat, Surface};

    /// A unit square on the plane z = 0 bounded by one IGES-like coedge whose
    /// p-curve is the square's side y = 0 and whose model-space curve is that
    /// side moved by `dy` across the plane.
    fn model(dy: f64, preferred: bool) -> Model {
        let line = |o: Vec3, d: Vec3| CurveSegment {
            curve: Curve::Line { origin: o, dir: d },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        let coedge = Coedge {
            edge: None,
            forward: true,
            pcurve: Some(line(Vec3::zeros(), Vec3::x())),
            curve: Some(line(Vec3::new(0.0, dy, 0.0), Vec3::x())),
            pcurve_preferred: preferred,
            source: 42,
        };
        let mut m = Model::new(SourceFormat::Iges, "square");
        m.tolerance = Some(1e-6);
        m.faces.push(Face {
            surface: Surface::Plane { frame: Frame::world() },
            same_sense: true,
            outer: Some(Loop {
                coedges: vec![coedge],
                source: 0,
            }),
            inner: Vec::new(),
            source: 7,
        });
        m
    }

    #[test]
    fn a_preferred_p_curve_off_its_model_space_curve_is_named() {
        let w = check(&model(1e-3, true));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("face DE 7") && w[0].contains("DE 42") && w[0].contains("1.00e-3"), "{}", w[0]);
        let (d, size) = measure(&model(1e-3, true));
        assert!((d[0].gap - 1e-3).abs() < 1e-12, "{d:?}");
        assert!((size - 1.0).abs() < 1e-12, "{size}");
    }

    #[test]
    fn agreeing_curves_and_unpreferred_p_curves_give_no_warning() {
        assert!(check(&model(1e-7, true)).is_empty(), "within the file's tolerance");
        // the face follows the model-space curve where the file prefers it
        assert!(check(&model(1e-3, false)).is_empty());
        // the floor: 1e-6 of the model's size (a side of 1 km)
        let mut big = model(1e-3, true);
        for c in big.faces[0].outer.as_mut().unwrap().coedges.iter_mut() {
            for s in [c.pcurve.as_mut().unwrap(), c.curve.as_mut().unwrap()] {
                s.t1 = 1e6;
            }
        }
        assert!(check(&big).is_empty());
    }
}

//! **Polyline trims.** A coedge whose 3-D curve is a polyline (IGES 106,
//! a degree-1 curve) and that has no usable p-curve: the edge the file
//! gives is the chain of straight chords between its vertices, so its trim
//! is each chord projected onto the face ([`polyline_chain`]). On a curved
//! surface a chord's projection bends: a chord of a circle on a cone lies
//! inside the cone (sagitta `r(1 − cos(Δθ/2))`), and its foot curve dips
//! off the circle. Joining the samples' face parameters by straight lines
//! instead follows neither the chord nor the circle between samples
//! (nist_144 DE135: 16 polyline holes, pieces 0.066 mm² short of the
//! Model's and Open CASCADE's area).
//!
//! Each chord is projected as a line by [`projected_chain`] between its end
//! samples (the samples of [`sample_fractions`] include every vertex), so a
//! fitted piece never spans a corner.

use super::line;
use super::projection::projected_chain;
use crate::geom::bez2::H2;
use crate::import::eval::{break_samples, sample_fractions};
use crate::import::model::{Curve, CurveSegment, Face};

/// The chords of the polyline coedge `seg` projected onto `face`, in
/// traversal order, between the coedge's face-parameter `samples` (those of
/// [`sample_fractions`], unwrapped): each chord fitted within `tol` in face
/// parameters ([`projected_chain`]; `on_tol` its on-surface class). A
/// chord whose projection yields nothing keeps its samples' straight
/// lines; a chord of zero length adds nothing. `crossings` counts the
/// crease crossings the chords' pieces end at. `None` when `seg` is not a
/// polyline or the samples are not its samples (another count).
pub(super) fn polyline_chain(
    face: &Face,
    seg: &CurveSegment,
    samples: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    tol: f64,
    on_tol: f64,
    crossings: &mut usize,
) -> Option<Vec<Vec<H2>>> {
    let Curve::Polyline(pts) = &seg.curve else {
        return None;
    };
    if pts.len() < 2 {
        return None;
    }
    let fractions = sample_fractions(seg);
    if fractions.len() != samples.len() || samples.len() < 2 {
        return None;
    }
    // the samples at the coedge's ends and at the vertices between them
    let mut breaks = vec![0];
    breaks.extend(break_samples(seg, samples.len()));
    breaks.push(samples.len() - 1);
    let mut out = Vec::new();
    for w in breaks.windows(2) {
        let (i, j) = (w[0], w[1]);
        let (a, b) = (seg.eval_unit(fractions[i]).p, seg.eval_unit(fractions[j]).p);
        if a == b {
            continue;
        }
        // the chord as a line from its first sample's point to its last
        let chord = CurveSegment {
            curve: Curve::Line { origin: a, dir: b - a },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        // fitted from end to end (the projection of a line is smooth: its
        // inner samples would only cut it into more fits, each charged to
        // the face's work budget)
        let part = &samples[i..=j];
        let ch = projected_chain(face, &chord, &[samples[i], samples[j]], periods, tol, on_tol, crossings);
        if ch.is_empty() {
            for q in part.windows(2) {
                if q[0] != q[1] {
                    out.push(line([q[0].0, q[0].1], [q[1].0, q[1].1]));
                }
            }
        } else {
            out.extend(ch);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::bez2;
    use crate::geom::{Frame, Vec3};
    use crate::import::model::Surface;
    use std::f64::consts::FRAC_PI_4;

    /// The cone of nist_144 (radius 10 at `z = 0`, narrowing along `+z` at
    /// 45°) and a polyline of 6 vertices on its circle of radius 3
    /// (`z = 7`), 0.05 rad apart (sagitta 9.4e-4 mm), then down its
    /// generatrix to radius 7 (`z = 3`).
    fn cone_and_polyline(forward: bool) -> (Face, CurveSegment) {
        let face = Face {
            surface: Surface::Cone {
                frame: Frame::world(),
                radius: 10.0,
                semi_angle: -FRAC_PI_4,
            },
            same_sense: true,
            outer: None,
            inner: Vec::new(),
            source: 1,
        };
        let mut pts: Vec<Vec3> = (0..6)
            .map(|k| {
                let a = 0.3 + 0.05 * k as f64;
                Vec3::new(3.0 * a.cos(), 3.0 * a.sin(), 7.0)
            })
            .collect();
        let a = 0.55_f64;
        pts.push(Vec3::new(7.0 * a.cos(), 7.0 * a.sin(), 3.0));
        let n = pts.len() as f64 - 1.0;
        let seg = CurveSegment {
            curve: Curve::Polyline(pts),
            t0: 0.0,
            t1: n,
            forward,
        };
        (face, seg)
    }

    /// The coedge's samples as [`crate::import::eval::FaceTrim`] takes them:
    /// its 3-D points at [`sample_fractions`], in the cone's parameters.
    fn samples(face: &Face, seg: &CurveSegment) -> Vec<(f64, f64)> {
        sample_fractions(seg)
            .into_iter()
            .map(|s| face.surface.analytic_params(&seg.eval_unit(s).p).expect("cone parameters"))
            .collect()
    }

    /// How far `S(uv)` is from being the foot of a point of the polyline:
    /// over the chords' points `c`, the least tangential part of `c − S(uv)`
    /// (zero where `S(uv)` is the projection of `c`).
    fn off_projection(face: &Face, pts: &[Vec3], uv: [f64; 2]) -> f64 {
        let e = face.surface.eval_derivs(uv[0], uv[1]);
        let n = e.su.cross(&e.sv).normalize();
        let tangential = |x: Vec3| x - n * x.dot(&n);
        pts.windows(2)
            .map(|w| {
                let (r0, d) = (tangential(w[0] - e.p), tangential(w[1] - w[0]));
                let t = (-r0.dot(&d) / d.dot(&d)).clamp(0.0, 1.0);
                (r0 + d * t).norm()
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn the_chords_of_a_polyline_on_a_cone_are_projected() {
        for forward in [true, false] {
            let (face, seg) = cone_and_polyline(forward);
            let Curve::Polyline(pts) = &seg.curve else { unreachable!() };
            let uv = samples(&face, &seg);
            let chain = polyline_chain(&face, &seg, &uv, (Some(std::f64::consts::TAU), None), 1e-10, 1e-5, &mut 0)
                .expect("a polyline's chain");
            // ends on the coedge's ends, consecutive pieces meet
            let (a, b) = (bez2::eval(&chain[0], 0.0), bez2::eval(&chain[chain.len() - 1], 1.0));
            let (ua, ub) = (uv[0], uv[uv.len() - 1]);
            assert!((a[0] - ua.0).hypot(a[1] - ua.1) <= 1e-12, "{a:?} {ua:?}");
            assert!((b[0] - ub.0).hypot(b[1] - ub.1) <= 1e-12, "{b:?} {ub:?}");
            let mut worst: f64 = 0.0;
            for (k, h) in chain.iter().enumerate() {
                if k > 0 {
                    let (p, q) = (bez2::eval(&chain[k - 1], 1.0), bez2::eval(h, 0.0));
                    assert!((p[0] - q[0]).hypot(p[1] - q[1]) <= 1e-12, "gap at {k}");
                }
                for i in 0..=16 {
                    worst = worst.max(off_projection(&face, pts, bez2::eval(h, i as f64 / 16.0)));
                }
            }
            assert!(worst <= 1e-9, "chain off the projected chords by {worst:e} mm");
            // the samples joined by straight lines (what the scene did) miss
            // it by 4.1e-5 mm between samples on the circle (7.5e-11 fitted)
            let mut straight: f64 = 0.0;
            for w in uv.windows(2) {
                let m = [0.5 * (w[0].0 + w[1].0), 0.5 * (w[0].1 + w[1].1)];
                straight = straight.max(off_projection(&face, pts, m));
            }
            assert!(straight > 1e-5, "the straight lines should miss: {straight:e}");
        }
    }

    #[test]
    fn only_a_polyline_with_its_own_samples_has_a_chain() {
        let (face, seg) = cone_and_polyline(true);
        let uv = samples(&face, &seg);
        let periods = (Some(std::f64::consts::TAU), None);
        assert!(polyline_chain(&face, &seg, &uv[1..], periods, 1e-10, 1e-5, &mut 0).is_none());
        let line = CurveSegment {
            curve: Curve::Line {
                origin: Vec3::new(3.0, 0.0, 7.0),
                dir: Vec3::new(0.0, 1.0, 0.0),
            },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        assert!(polyline_chain(&face, &line, &uv, periods, 1e-10, 1e-5, &mut 0).is_none());
    }
}

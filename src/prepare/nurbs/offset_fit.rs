//! Offsets without a rational form (of general or ruled B-splines,
//! extrusions of free curves, …) fitted by polynomial Bézier patches
//! ([`surface_fit`]) within [`OFFSET_FIT_TOL`] of their size.

use crate::geom::Vec3;
use crate::import::model::{Curve, Surface};
use crate::prepare::surface_fit;

/// Relative tolerance of [`offset_fit`]: the fitted offset is within this
/// times the size of the fitted part (its box diagonal, at least 1 mm) of
/// the exact offset at every check point.
pub const OFFSET_FIT_TOL: f64 = 1e-9;

/// Interior knot values of `s` along u and v (where a surface, and with it
/// its offset, may lose smoothness).
fn knot_breaks(s: &Surface) -> (Vec<f64>, Vec<f64>) {
    let inner =
        |k: &[f64], p: usize| -> Vec<f64> { k.get(p + 1..k.len().saturating_sub(p + 1)).unwrap_or(&[]).to_vec() };
    let curve = |c: &Curve| -> Vec<f64> {
        match c {
            Curve::BSpline(b) => inner(&b.knots, b.degree),
            _ => Vec::new(),
        }
    };
    match s {
        Surface::BSpline(b) => (inner(&b.knots_u, b.degree_u), inner(&b.knots_v, b.degree_v)),
        Surface::Extrusion { profile, .. } => (curve(profile), Vec::new()),
        Surface::Revolution { profile, .. } => (Vec::new(), curve(profile)),
        Surface::Offset { basis, .. } | Surface::Trimmed { basis, .. } => knot_breaks(basis),
        _ => (Vec::new(), Vec::new()),
    }
}

/// The offset `basis + d·n` over `range` fitted by [`surface_fit`] within
/// [`OFFSET_FIT_TOL`] × its size, cut first at the basis's knots; an error
/// where the normal degenerates or the fit does not converge.
pub fn offset_fit(basis: &Surface, d: f64, range: ((f64, f64), (f64, f64))) -> Result<surface_fit::SurfaceFit, String> {
    if !d.is_finite() {
        return Err("offset by a non-finite distance".into());
    }
    let f = |u: f64, v: f64| -> Option<Vec3> {
        let e = basis.eval_derivs(u, v);
        let nr = e.su.cross(&e.sv);
        let len = nr.norm();
        (len > 1e-12 * e.su.norm() * e.sv.norm() && len.is_finite()).then(|| e.p + nr * (d / len))
    };
    let ((u0, u1), (v0, v1)) = range;
    let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    for a in 0..=8 {
        for b in 0..=8 {
            let p = f(u0 + (u1 - u0) * a as f64 / 8.0, v0 + (v1 - v0) * b as f64 / 8.0)
                .ok_or("the basis's normal degenerates")?;
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
    }
    let size = (hi - lo).norm().max(1.0);
    let (bu, bv) = knot_breaks(basis);
    surface_fit::fit_surface(&f, range, &bu, &bv, OFFSET_FIT_TOL * size)
}

#[cfg(test)]
mod tests {
    use super::super::surface_nurbs_noted;
    use super::super::test_support::frame;
    use super::*;
    use std::f64::consts::TAU;

    /// Offsets with no rational form are fitted within `OFFSET_FIT_TOL` of
    /// their size and noted; an offset whose normal degenerates in the range
    /// (the cone's apex) stays an error.
    #[test]
    fn non_rational_offsets_are_fitted_and_noted() {
        let f = frame();
        let off = |basis: Surface, distance: f64| Surface::Offset {
            basis: Box::new(basis),
            distance,
        };
        let range = ((0.0, 1.0), (-1.0, 1.0));
        let hyperboloid = Surface::Revolution {
            profile: Box::new(Curve::Line {
                origin: Vec3::new(2.0, 0.0, 0.0),
                dir: Vec3::new(0.0, 1.0, 1.0),
            }),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        };
        let elliptic = Surface::Extrusion {
            profile: Box::new(Curve::Ellipse {
                frame: f,
                semi_x: 2.0,
                semi_y: 1.0,
            }),
            direction: f.z,
        };
        let cases = [
            (
                off(Surface::BSpline(crate::geom::fixtures::table1_patch()), 0.2),
                ((0.0, 1.0), (0.0, 1.0)),
            ),
            (
                off(Surface::BSpline(crate::geom::fixtures::table1_patch()), -0.1),
                ((0.1, 0.9), (0.2, 0.7)),
            ),
            (off(hyperboloid, 0.5), range),
            (off(elliptic, -0.3), ((0.0, TAU), (-1.0, 2.0))),
        ];
        for (s, r) in &cases {
            let (m, note) = surface_nurbs_noted(s, 7, *r).unwrap();
            let note = note.expect("a fitted offset is noted");
            assert!(note.contains("#7") && note.contains("fitted"), "{note}");
            let ((u0, u1), (v0, v1)) = *r;
            let mut size = 0.0f64;
            let mut worst = 0.0f64;
            for i in 0..=40 {
                for j in 0..=40 {
                    let (u, v) = (u0 + (u1 - u0) * i as f64 / 40.0, v0 + (v1 - v0) * j as f64 / 40.0);
                    let q = s.eval(u, v);
                    let (a, b) = m.to_param(u, v);
                    worst = worst.max((m.surface.eval(a, b) - q).norm());
                    size = size.max((q - s.eval(u0, v0)).norm());
                }
            }
            // between the fit's own check points: a few times its tolerance
            assert!(worst <= 4.0 * OFFSET_FIT_TOL * size.max(1.0), "{s:?}: {worst}");
        }
        // exact offsets carry no note
        let cyl = off(Surface::Cylinder { frame: f, radius: 2.0 }, 0.5);
        assert!(surface_nurbs_noted(&cyl, 7, range).unwrap().1.is_none());
        let apex = off(
            Surface::Cone {
                frame: f,
                radius: 0.0,
                semi_angle: 0.3,
            },
            1.0,
        );
        let e = surface_nurbs_noted(&apex, 7, range).unwrap_err();
        assert!(
            e.to_string().contains("apex") && e.to_string().contains("fitting it failed"),
            "{e}"
        );
    }
}

//! Exact NURBS forms of the Model's curves (used for ruled surfaces, for
//! non-similarity transforms of conics and for parameter-space maps), and
//! exact power-basis → Bézier conversion for IGES 112/114 splines.

use super::transform::Affine;
use crate::geom::Frame;
use crate::geom::{Hpoint, NurbsCurve, Vec3};
use crate::import::model::{Curve, CurveSegment};
use std::f64::consts::FRAC_PI_2;

fn h(p: Vec3, w: f64) -> Hpoint {
    [p.x * w, p.y * w, p.z * w, w]
}

/// Rational quadratic arcs of `o + a cos t·x + b sin t·y` for `t ∈ [t0, t1]`,
/// split into pieces of at most 90°. Returned on the knot domain `[t0, t1]`
/// (the parameterisation differs from the angle inside each piece).
fn ellipse_arc(f: &Frame, a: f64, b: f64, t0: f64, t1: f64) -> Option<NurbsCurve> {
    let span = t1 - t0;
    if !(span > 0.0 && span.is_finite()) {
        return None;
    }
    let n = ((span / FRAC_PI_2).ceil() as usize).clamp(1, 64);
    let d = span / n as f64;
    let w1 = (d / 2.0).cos();
    let p = |t: f64| f.origin + f.x * (a * t.cos()) + f.y * (b * t.sin());
    let mut cw = vec![h(p(t0), 1.0)];
    let mut knots = vec![t0; 3];
    for k in 0..n {
        let ta = t0 + d * k as f64;
        let tm = ta + d / 2.0;
        let mid = f.origin + f.x * (a * tm.cos() / w1) + f.y * (b * tm.sin() / w1);
        cw.push(h(mid, w1));
        cw.push(h(p(ta + d), 1.0));
        let kn = t0 + d * (k + 1) as f64;
        if k + 1 < n {
            knots.push(kn);
            knots.push(kn);
        }
    }
    knots.extend([t1; 3]);
    NurbsCurve::try_from_homogeneous(2, knots, cw).ok()
}

/// Homogeneous 2D poles `(X, Y, W)` of one arc piece of half-angle `alpha`
/// centred on angle 0, in Open CASCADE's "rational C1" parameterisation
/// (`Convert_RationalC1`): with the quadratic B-splines `U(t)`, `V(t)` on
/// knots `[-α, 0, α]` (`U` poles `1, 1 + α/4·tan(α/2)` twice, `1`; `V` poles
/// `∓tan(α/2)`, `±(α/4 − tan(α/2))`), the point is at angle `2·atan2(V, U)`,
/// i.e. `X = U² − V²`, `Y = 2UV`, `W = U² + V²`: an exact quartic B-spline on
/// knots `[-α×5, 0×3, α×5]` (C1 at 0). Returns its 8 poles.
fn rational_c1_piece(alpha: f64) -> [[f64; 3]; 8] {
    let tq = (alpha / 2.0).tan();
    let a4 = alpha / 4.0;
    let v = [-tq, a4 - tq, tq - a4, tq];
    let u = [1.0, 1.0 + a4 * tq, 1.0 + a4 * tq, 1.0];
    // Bézier pieces of the quadratics (knot 0 inserted once, equal spans)
    let bez = |p: [f64; 4]| -> [[f64; 3]; 2] {
        let m = 0.5 * (p[1] + p[2]);
        [[p[0], p[1], m], [m, p[2], p[3]]]
    };
    // product of two quadratic Bézier polynomials as a quartic Bézier
    let mul = |a: [f64; 3], b: [f64; 3]| -> [f64; 5] {
        [
            a[0] * b[0],
            (a[0] * b[1] + a[1] * b[0]) / 2.0,
            (a[0] * b[2] + 4.0 * a[1] * b[1] + a[2] * b[0]) / 6.0,
            (a[1] * b[2] + a[2] * b[1]) / 2.0,
            a[2] * b[2],
        ]
    };
    let (ub, vb) = (bez(u), bez(v));
    let mut out = [[0.0; 3]; 8];
    for piece in 0..2 {
        let (uu, vv, uv) = (
            mul(ub[piece], ub[piece]),
            mul(vb[piece], vb[piece]),
            mul(ub[piece], vb[piece]),
        );
        // left piece gives poles 0..=3, right piece poles 4..=7 (its 1..=4):
        // the common Bézier point is removed (C1 join, knot multiplicity 3)
        for k in 0..4 {
            let j = if piece == 0 { k } else { k + 1 };
            out[piece * 4 + k] = [uu[j] - vv[j], 2.0 * uv[j], uu[j] + vv[j]];
        }
    }
    out
}

/// An arc of `o + a cos t·x + b sin t·y`, `t ∈ [t0, t1]`, as Open CASCADE
/// converts a trimmed circle or ellipse for a ruled surface
/// (`GeomConvert::CurveToBSplineCurve` with `Convert_RationalC1`): one quartic
/// rational piece of two C1 spans, or two such pieces (joined C0) when the arc
/// spans 6 rad or more. Same point set as [`to_nurbs`] but a different
/// correspondence between parameter and angle (not the angle, not arc length),
/// which decides where the rulings of a 118 surface go.
fn ellipse_arc_rational_c1(f: &Frame, a: f64, b: f64, t0: f64, t1: f64) -> Option<NurbsCurve> {
    let span = t1 - t0;
    if !(span > 0.0 && span.is_finite()) {
        return None;
    }
    let n = if span < 6.0 { 1 } else { 2 };
    let d = span / n as f64;
    let alpha = d / 2.0;
    let local = rational_c1_piece(alpha);
    let mut knots = vec![t0; 5];
    let mut cw: Vec<Hpoint> = Vec::with_capacity(8 * n);
    for k in 0..n {
        let beta = t0 + d * k as f64 + alpha;
        let (sb, cb) = beta.sin_cos();
        for (i, p) in local.iter().enumerate() {
            if k > 0 && i == 0 {
                continue; // shared with the previous piece's last pole
            }
            let (x, y, w) = (cb * p[0] - sb * p[1], sb * p[0] + cb * p[1], p[2]);
            let q = f.origin * w + f.x * (a * x) + f.y * (b * y);
            cw.push([q.x, q.y, q.z, w]);
        }
        knots.extend([t0 + d * k as f64 + alpha; 3]);
        if k + 1 < n {
            knots.extend([t0 + d * (k + 1) as f64; 4]);
        }
    }
    knots.extend([t1; 5]);
    NurbsCurve::try_from_homogeneous(4, knots, cw).ok()
}

/// The NURBS form Open CASCADE gives a 118 ruled surface's rail: circles and
/// ellipses in the "rational C1" parameterisation (see
/// `ellipse_arc_rational_c1`), everything else as [`to_nurbs`]. Rails are
/// paired by equal normalised parameter, so this choice moves the rulings.
pub fn to_nurbs_rail(seg: &CurveSegment) -> Option<NurbsCurve> {
    match &seg.curve {
        Curve::Circle { frame, radius } => ellipse_arc_rational_c1(frame, *radius, *radius, seg.t0, seg.t1),
        Curve::Ellipse { frame, semi_x, semi_y } => ellipse_arc_rational_c1(frame, *semi_x, *semi_y, seg.t0, seg.t1),
        _ => to_nurbs(seg),
    }
}

fn hyperbola_arc(f: &Frame, a: f64, b: f64, t0: f64, t1: f64) -> Option<NurbsCurve> {
    let span = t1 - t0;
    if !(span > 0.0 && span.is_finite()) {
        return None;
    }
    let n = (span.ceil() as usize).clamp(1, 64);
    let d = span / n as f64;
    let w1 = (d / 2.0).cosh();
    let p = |t: f64| f.origin + f.x * (a * t.cosh()) + f.y * (b * t.sinh());
    let mut cw = vec![h(p(t0), 1.0)];
    let mut knots = vec![t0; 3];
    for k in 0..n {
        let ta = t0 + d * k as f64;
        let tm = ta + d / 2.0;
        let mid = f.origin + f.x * (a * tm.cosh() / w1) + f.y * (b * tm.sinh() / w1);
        cw.push(h(mid, w1));
        cw.push(h(p(ta + d), 1.0));
        if k + 1 < n {
            let kn = t0 + d * (k + 1) as f64;
            knots.push(kn);
            knots.push(kn);
        }
    }
    knots.extend([t1; 3]);
    NurbsCurve::try_from_homogeneous(2, knots, cw).ok()
}

/// The NURBS form of a curve segment on its range, with the same direction
/// of traversal as the segment's curve parameter. `None` for curves that have
/// no single-degree form here (composites of mixed degree).
pub fn to_nurbs(seg: &CurveSegment) -> Option<NurbsCurve> {
    let (t0, t1) = (seg.t0, seg.t1);
    match &seg.curve {
        Curve::Line { origin, dir } => {
            let cw = vec![h(origin + dir * t0, 1.0), h(origin + dir * t1, 1.0)];
            NurbsCurve::try_from_homogeneous(1, vec![t0, t0, t1, t1], cw).ok()
        }
        Curve::Circle { frame, radius } => ellipse_arc(frame, *radius, *radius, t0, t1),
        Curve::Ellipse { frame, semi_x, semi_y } => ellipse_arc(frame, *semi_x, *semi_y, t0, t1),
        Curve::Hyperbola { frame, semi_x, semi_y } => hyperbola_arc(frame, *semi_x, *semi_y, t0, t1),
        Curve::Parabola { frame, focal } => {
            let p = |t: f64| frame.origin + frame.x * (t * t / (4.0 * focal)) + frame.y * t;
            let d0 = frame.x * (t0 / (2.0 * focal)) + frame.y;
            let mid = p(t0) + d0 * ((t1 - t0) / 2.0);
            let cw = vec![h(p(t0), 1.0), h(mid, 1.0), h(p(t1), 1.0)];
            NurbsCurve::try_from_homogeneous(2, vec![t0, t0, t0, t1, t1, t1], cw).ok()
        }
        Curve::BSpline(b) => Some(b.clone()),
        Curve::Polyline(pts) => {
            if pts.len() < 2 {
                return None;
            }
            let mut knots = vec![0.0];
            knots.extend((0..pts.len()).map(|i| i as f64));
            knots.push((pts.len() - 1) as f64);
            let cw = pts.iter().map(|p| h(*p, 1.0)).collect();
            NurbsCurve::try_from_homogeneous(1, knots, cw).ok()
        }
        Curve::Composite(segs) => {
            // join pieces of equal degree, each on [k, k+1]
            let mut parts = Vec::with_capacity(segs.len());
            for s in segs {
                let mut c = to_nurbs(s)?;
                if !s.forward {
                    c = reverse(&c);
                }
                parts.push(c);
            }
            let deg = parts.first()?.degree;
            if parts.iter().any(|c| c.degree != deg) {
                return None;
            }
            let mut knots = vec![0.0; deg + 1];
            let mut cw: Vec<Hpoint> = Vec::new();
            for (k, c) in parts.iter().enumerate() {
                let (a, b) = c.domain();
                let n = c.cw.len();
                let interior = &c.knots[deg + 1..n];
                knots.extend(interior.iter().map(|t| k as f64 + (t - a) / (b - a)));
                if k + 1 < parts.len() {
                    knots.extend(std::iter::repeat((k + 1) as f64).take(deg));
                }
                if k == 0 {
                    cw.extend_from_slice(&c.cw);
                } else {
                    // weights of consecutive pieces are matched by scaling the piece
                    let last = *cw.last()?;
                    let first = c.cw[0];
                    let s = last[3] / first[3];
                    cw.extend(c.cw[1..].iter().map(|p| [p[0] * s, p[1] * s, p[2] * s, p[3] * s]));
                }
            }
            knots.extend(std::iter::repeat(parts.len() as f64).take(deg + 1));
            NurbsCurve::try_from_homogeneous(deg, knots, cw).ok()
        }
    }
}

/// The same curve traversed backwards, on the same knot domain (knots mirrored).
pub fn reverse(c: &NurbsCurve) -> NurbsCurve {
    let first = c.knots.first().copied().unwrap_or(0.0);
    let last = c.knots.last().copied().unwrap_or(first);
    let knots: Vec<f64> = c.knots.iter().rev().map(|t| first + last - t).collect();
    let cw: Vec<Hpoint> = c.cw.iter().rev().copied().collect();
    NurbsCurve {
        degree: c.degree,
        knots,
        cw,
        rational: c.rational,
    }
}

/// Applies an affine map to a NURBS curve (exact: maps the Euclidean poles).
pub fn map_nurbs(c: &NurbsCurve, a: &Affine) -> NurbsCurve {
    let cw =
        c.cw.iter()
            .map(|p| {
                let w = p[3];
                let q = a.point(&Vec3::new(p[0] / w, p[1] / w, p[2] / w));
                [q.x * w, q.y * w, q.z * w, w]
            })
            .collect();
    NurbsCurve {
        degree: c.degree,
        knots: c.knots.clone(),
        cw,
        rational: c.rational,
    }
}

/// Bernstein (Bézier) coefficients of a cubic `a0 + a1 s + a2 s² + a3 s³` on `s ∈ [0, h]`.
pub fn cubic_power_to_bezier(a: [f64; 4], h: f64) -> [f64; 4] {
    let b = [a[0], a[1] * h, a[2] * h * h, a[3] * h * h * h];
    [
        b[0],
        b[0] + b[1] / 3.0,
        b[0] + 2.0 * b[1] / 3.0 + b[2] / 3.0,
        b[0] + b[1] + b[2] + b[3],
    ]
}

/// A C0 knot vector of degree 3 over the breakpoints (end knots of multiplicity 4, interior 3).
pub fn cubic_breakpoint_knots(t: &[f64]) -> Vec<f64> {
    let mut k = Vec::with_capacity(3 * t.len() + 2);
    let n = t.len();
    for (i, &x) in t.iter().enumerate() {
        let m = if i == 0 || i + 1 == n { 4 } else { 3 };
        k.extend(std::iter::repeat(x).take(m));
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::TAU;

    #[test]
    fn circle_arc_nurbs_lies_on_circle() {
        let f = Frame::default();
        let c = ellipse_arc(&f, 2.0, 2.0, 0.3, 5.0).unwrap();
        for i in 0..=50 {
            let t = 0.3 + 4.7 * i as f64 / 50.0;
            let p = c.eval(t);
            assert!((p.norm() - 2.0).abs() < 1e-12);
        }
        assert!((c.eval(0.3) - Vec3::new(2.0 * 0.3f64.cos(), 2.0 * 0.3f64.sin(), 0.0)).norm() < 1e-12);
    }

    #[test]
    fn rational_c1_arc_lies_on_circle_and_matches_open_cascade_weights() {
        let f = Frame::default();
        for (t0, t1) in [(0.3, 2.1), (-1.0, 4.9), (0.0, TAU)] {
            let c = ellipse_arc_rational_c1(&f, 2.0, 2.0, t0, t1).unwrap();
            assert_eq!(c.degree, 4);
            for i in 0..=60 {
                let t = t0 + (t1 - t0) * i as f64 / 60.0;
                assert!((c.eval(t).norm() - 2.0).abs() < 1e-12, "{t0}..{t1} at {t}");
            }
            let end = |t: f64| Vec3::new(2.0 * t.cos(), 2.0 * t.sin(), 0.0);
            assert!((c.eval(t0) - end(t0)).norm() < 1e-12);
            assert!((c.eval(t1) - end(t1)).norm() < 1e-12);
            // the mid parameter of each piece is the mid angle (symmetric map)
            let n = if t1 - t0 < 6.0 { 1.0 } else { 2.0 };
            let d = (t1 - t0) / n;
            assert!((c.eval(t0 + d / 2.0) - end(t0 + d / 2.0)).norm() < 1e-12);
        }
        // iges_hm_nentity.igs DE 537 (arc of half-angle atan2(0.47, 0.375)):
        // Open CASCADE's ruled surface DE 541 has these weight ratios
        // w[2]/w[0], w[3]/w[0] along the arc (read through OCP).
        let alpha = 0.47f64.atan2(0.375);
        let p = rational_c1_piece(alpha);
        let occt = [
            1.0008770860900065 / 1.0008183205333134,
            0.9974862728433673 / 1.0008183205333134,
        ];
        assert!((p[1][2] / p[0][2] - 1.0).abs() < 1e-14);
        assert!((p[2][2] / p[0][2] - occt[0]).abs() < 1e-12, "{}", p[2][2] / p[0][2]);
        assert!((p[3][2] / p[0][2] - occt[1]).abs() < 1e-12, "{}", p[3][2] / p[0][2]);
        // the map from parameter to angle is neither the angle nor arc length
        let c = ellipse_arc_rational_c1(&f, 1.0, 1.0, -alpha, alpha).unwrap();
        let q = c.eval(-alpha / 2.0);
        assert!((q.y.atan2(q.x) + alpha / 2.0).abs() > 1e-4);
    }

    #[test]
    fn hyperbola_arc_nurbs_lies_on_hyperbola() {
        let f = Frame::default();
        let c = hyperbola_arc(&f, 2.0, 1.0, -1.5, 2.0).unwrap();
        for i in 0..=40 {
            let p = c.eval(-1.5 + 3.5 * i as f64 / 40.0);
            assert!((p.x * p.x / 4.0 - p.y * p.y - 1.0).abs() < 1e-10);
        }
    }

    #[test]
    fn power_to_bezier_matches_polynomial() {
        let a = [1.0, -2.0, 0.5, 3.0];
        let h = 0.7;
        let b = cubic_power_to_bezier(a, h);
        for i in 0..=10 {
            let s = h * i as f64 / 10.0;
            let x = s / h;
            let bez = b[0] * (1.0 - x).powi(3)
                + 3.0 * b[1] * x * (1.0 - x).powi(2)
                + 3.0 * b[2] * x * x * (1.0 - x)
                + b[3] * x.powi(3);
            let poly = a[0] + a[1] * s + a[2] * s * s + a[3] * s * s * s;
            assert!((bez - poly).abs() < 1e-12);
        }
    }
}

//! Exact NURBS of a Model 3-D curve over a parameter interval (lines,
//! circles and ellipses as rational arcs, parabolas as polynomial
//! quadratics, hyperbolas as rational quadratic images, B-splines
//! restricted by knot insertion, polylines as degree-1 B-splines,
//! composites as their parts' Bézier spans elevated to a common degree and
//! joined): the profiles of surfaces of revolution and extrusion
//! ([`curve_nurbs`], parameter-preserving), the trim curves and the edges
//! ([`curve_image_nurbs`], the exact point set).

use crate::geom::primitives::{self, ParamMap};
use crate::geom::{Hpoint, NurbsCurve};
use crate::import::model::{Curve, CurveSegment};

/// Exact NURBS of a 3-D curve on `[t0, t1]` (line, circle, ellipse,
/// parabola, B-spline, polyline, composite). Parabolas, polylines and
/// composites keep the Model's parameter (`ParamMap::Identity`); a
/// composite with a part that has no parameter-preserving NURBS (a circle,
/// ellipse or hyperbola arc, whose rational parameter is not the angle) is
/// an error ([`curve_image_nurbs`] has its exact point set).
pub fn curve_nurbs(c: &Curve, t: (f64, f64)) -> Result<(NurbsCurve, ParamMap), String> {
    match c {
        Curve::Line { origin, dir } => primitives::line_segment(*origin, *dir, t)
            .map(|m| (m.curve, m.map))
            .map_err(|e| e.to_string()),
        Curve::Circle { frame, radius } => primitives::circle_arc(frame.origin, frame.x, frame.y, *radius, t)
            .map(|m| (m.curve, m.map))
            .map_err(|e| e.to_string()),
        Curve::Ellipse { frame, semi_x, semi_y } => {
            // the affine image of the unit circle arc: same parameter, poles scaled in the frame
            let m = primitives::circle_arc(frame.origin, frame.x, frame.y, 1.0, t).map_err(|e| e.to_string())?;
            if !(*semi_x > 0.0 && *semi_y > 0.0 && semi_x.is_finite() && semi_y.is_finite()) {
                return Err(format!("ellipse semi-axes {semi_x}, {semi_y}"));
            }
            let cw = m
                .curve
                .cw
                .iter()
                .map(|h| {
                    let w = h[3];
                    let d = crate::geom::Vec3::new(h[0] / w, h[1] / w, h[2] / w) - frame.origin;
                    let p = frame.origin + frame.x * (semi_x * d.dot(&frame.x)) + frame.y * (semi_y * d.dot(&frame.y));
                    [p.x * w, p.y * w, p.z * w, w]
                })
                .collect();
            let c = NurbsCurve::try_from_homogeneous(m.curve.degree, m.curve.knots.clone(), cw)
                .map_err(|e| e.to_string())?;
            Ok((c, m.map))
        }
        Curve::BSpline(b) => Ok((restrict_curve(b, t), ParamMap::Identity)),
        Curve::Polyline(pts) => Ok((restrict_curve(&polyline_nurbs(pts)?, t), ParamMap::Identity)),
        Curve::Composite(segs) => Ok((composite_nurbs(segs, t, true)?, ParamMap::Identity)),
        // a parabola's polynomial parameter is its own (see conic_image_nurbs)
        Curve::Parabola { .. } => conic_image_nurbs(c, t)
            .map(|n| (n, ParamMap::Identity))
            .ok_or_else(|| format!("parabola on {}..{}", t.0, t.1)),
        other => Err(format!("{} curve", other.type_name())),
    }
}

/// The exact point set of a 3-D curve on `t` as a NURBS (`None` when it
/// has none): what an edge or a trim needs, not its parameter. Lines,
/// circles, ellipses, parabolas, B-splines and polylines as
/// [`curve_nurbs`], hyperbola arcs as their [`conic_image_nurbs`], and
/// composites as their parts' exact NURBS joined at a common degree
/// (parameter-preserving where the part has such a form, its image
/// otherwise); the NURBS parameter is the curve's at the Bézier span ends
/// (a composite's joints among them), between them only where
/// [`curve_nurbs`] keeps it.
pub fn curve_image_nurbs(c: &Curve, t: (f64, f64)) -> Option<NurbsCurve> {
    exact_nurbs(c, t, false).ok().map(|x| x.0)
}

/// Widest hyperbola span of [`conic_image_nurbs`] in the curve's parameter
/// (the middle weight is `cosh(Δ/2)`: at most `cosh(0.5) ≈ 1.13`).
const HYPERBOLA_SPAN: f64 = 1.0;

/// The exact image of a parabola or hyperbola arc on `t` as a NURBS of
/// degree 2 (`None` for another curve or bad data). A parabola is a
/// polynomial quadratic (its parameter is kept: knots `t0, t1`); a
/// hyperbola `o + a cosh t·x + b sinh t·y` is a rational quadratic per span
/// of at most [`HYPERBOLA_SPAN`], with poles `H(t0)`, the tangents'
/// intersection `o + (a cosh m·x + b sinh m·y)/cosh h` (`m` the span's
/// middle, `h` its half-width) and `H(t1)`, the middle weight `cosh h`: the
/// image of the symmetric arc `(cosh s, sinh s)`, `|s| ≤ h`, under the
/// hyperbolic rotation by `m` (affine, so poles and weights carry over). The
/// hyperbola's NURBS parameter is the curve's only at the span ends, so this
/// is for trims (images), not for profiles whose parameter matters.
pub fn conic_image_nurbs(c: &Curve, t: (f64, f64)) -> Option<NurbsCurve> {
    let (t0, t1) = t;
    if !(t0.is_finite() && t1.is_finite() && t0 < t1) {
        return None;
    }
    let hp = |p: crate::geom::Vec3, w: f64| -> Hpoint { [p.x * w, p.y * w, p.z * w, w] };
    let (knots, cw) = match c {
        Curve::Parabola { frame, focal } => {
            if !(*focal > 0.0 && focal.is_finite()) {
                return None;
            }
            let at = |s: f64| frame.origin + frame.x * (s * s / (4.0 * focal)) + frame.y * s;
            let d0 = frame.x * (t0 / (2.0 * focal)) + frame.y;
            let mid = at(t0) + d0 * (0.5 * (t1 - t0));
            (vec![t0, t0, t0, t1, t1, t1], vec![hp(at(t0), 1.0), hp(mid, 1.0), hp(at(t1), 1.0)])
        }
        Curve::Hyperbola { frame, semi_x, semi_y } => {
            let (a, b) = (*semi_x, *semi_y);
            if !(a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite()) {
                return None;
            }
            let n = ((t1 - t0) / HYPERBOLA_SPAN).ceil().max(1.0);
            if n > 1e4 {
                return None;
            }
            let n = n as usize;
            let at = |s: f64| frame.origin + frame.x * (a * s.cosh()) + frame.y * (b * s.sinh());
            let ends: Vec<f64> = (0..=n).map(|i| t0 + (t1 - t0) * i as f64 / n as f64).collect();
            let mut knots = vec![t0; 3];
            let mut cw = vec![hp(at(t0), 1.0)];
            for (i, w) in ends.windows(2).enumerate() {
                let (m, h) = (0.5 * (w[0] + w[1]), 0.5 * (w[1] - w[0]));
                let mid = frame.origin + frame.x * (a * m.cosh() / h.cosh()) + frame.y * (b * m.sinh() / h.cosh());
                cw.push(hp(mid, h.cosh()));
                cw.push(hp(at(w[1]), 1.0));
                let k = if i + 1 == n { 3 } else { 2 };
                knots.extend(std::iter::repeat(w[1]).take(k));
            }
            (knots, cw)
        }
        _ => return None,
    };
    if !cw.iter().flatten().all(|x| x.is_finite()) {
        return None;
    }
    NurbsCurve::try_from_homogeneous(2, knots, cw).ok()
}

/// The degree-1 B-spline through the polyline's points, vertex `k` at
/// parameter `k` (the Model's parameter `t ∈ [0, n−1]`).
fn polyline_nurbs(pts: &[crate::geom::Vec3]) -> Result<NurbsCurve, String> {
    if pts.len() < 2 {
        return Err(format!("polyline of {} points", pts.len()));
    }
    let n = pts.len();
    let mut knots = Vec::with_capacity(n + 2);
    knots.push(0.0);
    knots.extend((0..n).map(|i| i as f64));
    knots.push((n - 1) as f64);
    let cw = pts.iter().map(|p| [p.x, p.y, p.z, 1.0]).collect();
    NurbsCurve::try_from_homogeneous(1, knots, cw).map_err(|e| e.to_string())
}

/// Homogeneous Bézier poles of degree `p` elevated once (to `p + 1`).
fn elevate_bezier(cw: &[Hpoint]) -> Vec<Hpoint> {
    let n = cw.len(); // p + 1
    let q = n as f64; // p + 1, the new degree
    (0..=n)
        .map(|i| {
            let a = i as f64 / q;
            let mut r = [0.0; 4];
            for (k, x) in r.iter_mut().enumerate() {
                let lo = if i > 0 { cw[i - 1][k] * a } else { 0.0 };
                let hi = if i < n { cw[i][k] * (1.0 - a) } else { 0.0 };
                *x = lo + hi;
            }
            r
        })
        .collect()
}

/// A composite range end within this of a joint (in the composite's
/// parameter, one per segment) is the joint.
const JOINT_SNAP: f64 = 1e-9;

/// A part of a composite on its own curve's range, and the range of the
/// composite's parameter it covers.
pub(crate) type CompositePart = (CurveSegment, (f64, f64));

/// The parts of a composite used on `t` (its parameter: segment `k` on
/// `[k, k+1]`), in the composite's order: segment `k`'s curve on the part of
/// its own range that `[max(t0, k), min(t1, k+1)]` covers (direction kept),
/// with that composite range. Ends within [`JOINT_SNAP`] of a joint are the
/// joint (an edge's range found by projecting its vertices lands a rounding
/// error off it); segments the range does not cover are left out. `Err`
/// for a range outside the composite's or of no length.
pub(crate) fn composite_parts(segs: &[CurveSegment], t: (f64, f64)) -> Result<Vec<CompositePart>, String> {
    let n = segs.len() as f64;
    let snap = |x: f64| {
        let x = x.clamp(0.0, n);
        if (x - x.round()).abs() <= JOINT_SNAP {
            x.round()
        } else {
            x
        }
    };
    let (t0, t1) = (snap(t.0), snap(t.1));
    if !(t0.is_finite() && t1.is_finite() && t0 < t1) {
        return Err(format!("composite range {}..{} of {} segments", t.0, t.1, segs.len()));
    }
    let mut out = Vec::new();
    for (k, s) in segs.iter().enumerate() {
        let (lo, hi) = (t0.max(k as f64), t1.min(k as f64 + 1.0));
        if !(lo < hi) {
            continue;
        }
        let len = s.t1 - s.t0;
        if !(len > 0.0 && len.is_finite()) {
            return Err(format!("composite segment {k} range {}..{}", s.t0, s.t1));
        }
        // the segment curve's parameter at composite fraction f of the segment
        let at = |f: f64| {
            let g = if s.forward { f } else { 1.0 - f };
            if g <= 0.0 {
                s.t0
            } else if g >= 1.0 {
                s.t1
            } else {
                s.t0 + g * len
            }
        };
        let (a, b) = (at(lo - k as f64), at(hi - k as f64));
        let part = CurveSegment {
            curve: s.curve.clone(),
            t0: a.min(b),
            t1: a.max(b),
            forward: s.forward,
        };
        out.push((part, (lo, hi)));
    }
    Ok(out)
}

/// The exact NURBS of `c` on `t` and the map from the curve's parameter
/// to the NURBS's: with `exact`, parameter-preserving ([`curve_nurbs`] with
/// the identity map); otherwise any exact form of the point set whose map
/// is known at the Bézier span ends: [`curve_nurbs`]'s with its map, a
/// hyperbola's [`conic_image_nurbs`] (its knots are the curve's
/// parameters), a composite's joined image (its knots are the composite's
/// parameters).
fn exact_nurbs(c: &Curve, t: (f64, f64), exact: bool) -> Result<(NurbsCurve, ParamMap), String> {
    if exact {
        let (n, map) = curve_nurbs(c, t)?;
        if map != ParamMap::Identity {
            return Err(format!("{} has no parameter-preserving NURBS", c.type_name()));
        }
        return Ok((n, map));
    }
    match c {
        Curve::Composite(segs) => composite_nurbs(segs, t, false).map(|n| (n, ParamMap::Identity)),
        _ => curve_nurbs(c, t).or_else(|e| conic_image_nurbs(c, t).map(|n| (n, ParamMap::Identity)).ok_or(e)),
    }
}

/// The composite's parts on `t` ([`composite_parts`]) joined into one
/// NURBS: each part's exact NURBS ([`exact_nurbs`]; with `exact` the
/// segment's parameter kept, else its point set), reversed when the segment
/// runs backwards, its Bézier spans placed on the part's composite range by
/// the affine map of the segment's parameter (exact at every span end; within
/// a span too when `exact`), elevated to the highest degree and joined
/// with knots of full multiplicity at the span ends; the weights of each
/// span are scaled so that the homogeneous end poles of consecutive spans
/// agree. The result's domain is `t` (ends snapped to joints).
fn composite_nurbs(segs: &[CurveSegment], t: (f64, f64), exact: bool) -> Result<NurbsCurve, String> {
    if segs.is_empty() {
        return Err("empty composite".into());
    }
    // (start, end, Bézier poles) in the composite's parameter
    let mut spans: Vec<(f64, f64, Vec<Hpoint>)> = Vec::new();
    for (k, (s, (lo, hi))) in composite_parts(segs, t)?.into_iter().enumerate() {
        let (c, map) = exact_nurbs(&s.curve, (s.t0, s.t1), exact).map_err(|e| format!("composite part {k}: {e}"))?;
        let len = s.t1 - s.t0;
        // composite parameter of the segment curve's parameter x
        let to_comp = |x: f64| {
            let f = ((x - s.t0) / len).clamp(0.0, 1.0);
            lo + (hi - lo) * if s.forward { f } else { 1.0 - f }
        };
        let mut parts: Vec<(f64, f64, Vec<Hpoint>)> = c
            .bezier_spans()
            .into_iter()
            .filter(|b| b.range.1 > b.range.0)
            .map(|b| {
                let (a, e) = (to_comp(map.to_analytic(b.range.0)), to_comp(map.to_analytic(b.range.1)));
                if s.forward {
                    (a, e, b.curve.cw.clone())
                } else {
                    let mut cw = b.curve.cw.clone();
                    cw.reverse();
                    (e, a, cw)
                }
            })
            .collect();
        if !s.forward {
            parts.reverse();
        }
        // the part's ends exactly on its range
        if let Some(f) = parts.first_mut() {
            f.0 = lo;
        }
        if let Some(l) = parts.last_mut() {
            l.1 = hi;
        }
        spans.extend(parts.into_iter().filter(|p| p.1 > p.0));
    }
    if spans.is_empty() {
        return Err("composite with no span on its range".into());
    }
    let deg = spans.iter().map(|s| s.2.len() - 1).max().unwrap_or(1).max(1);
    let mut knots = vec![spans[0].0; deg + 1];
    let mut cw: Vec<Hpoint> = Vec::new();
    for (i, (_, e, poles)) in spans.iter().enumerate() {
        let mut poles = poles.clone();
        while poles.len() < deg + 1 {
            poles = elevate_bezier(&poles);
        }
        if let Some(last) = cw.last() {
            // consecutive spans must meet (a gap has no NURBS form)
            let e = |h: &Hpoint| crate::geom::Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
            let (a, b) = (e(last), e(&poles[0]));
            if !((a - b).norm() <= 1e-7 * (1.0 + a.norm())) {
                return Err(format!(
                    "composite with a gap of {:e} at parameter {}",
                    (a - b).norm(),
                    spans[i].0
                ));
            }
            let s = last[3] / poles[0][3];
            if !(s.is_finite() && s > 0.0) {
                return Err("composite with a zero weight at a joint".into());
            }
            cw.extend(poles[1..].iter().map(|h| [h[0] * s, h[1] * s, h[2] * s, h[3] * s]));
        } else {
            cw.extend_from_slice(&poles);
        }
        let m = if i + 1 == spans.len() { deg + 1 } else { deg };
        knots.extend(std::iter::repeat(*e).take(m));
    }
    NurbsCurve::try_from_homogeneous(deg, knots, cw).map_err(|e| e.to_string())
}

/// The part of `b` over `t` (same parameters) by knot insertion at the ends
/// that cut the domain; `b` itself when `t` does not cut it.
fn restrict_curve(b: &NurbsCurve, t: (f64, f64)) -> NurbsCurve {
    let (d0, d1) = b.domain();
    let (a, e) = (t.0.max(d0), t.1.min(d1));
    if a.partial_cmp(&e) != Some(std::cmp::Ordering::Less) || (a <= d0 && e >= d1) {
        return b.clone();
    }
    let mut c = b.clone();
    for x in [a, e] {
        if x > d0 && x < d1 {
            let have = c.knots.iter().filter(|&&k| k == x).count();
            for _ in have..c.degree {
                match c.insert_knot(x) {
                    Ok(n) => c = n,
                    Err(_) => return b.clone(),
                }
            }
        }
    }
    let p = c.degree;
    // poles i0..=i1 with knots[i0+1..=i0+p] = a and knots[i1+1..=i1+p] = e
    let i0 = c.knots.iter().position(|&k| k == a).unwrap_or(0).saturating_sub(1);
    let i1 = c
        .knots
        .iter()
        .position(|&k| k == e)
        .unwrap_or(c.knots.len() - 1)
        .saturating_sub(1);
    if i1 < i0 + p || i1 + p + 1 >= c.knots.len() || i1 >= c.cw.len() {
        return b.clone();
    }
    let mut knots = c.knots[i0..=i1 + p + 1].to_vec();
    knots[0] = knots[1];
    let n = knots.len();
    knots[n - 1] = knots[n - 2];
    NurbsCurve::try_from_homogeneous(p, knots, c.cw[i0..=i1].to_vec()).unwrap_or_else(|_| b.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Frame, Vec3};

    /// `curve_nurbs` of `c` on `t` evaluates as the Model's curve (1e-9).
    fn check(c: &Curve, t: (f64, f64)) {
        let (n, map) = curve_nurbs(c, t).unwrap();
        for i in 0..=40 {
            let x = t.0 + (t.1 - t.0) * i as f64 / 40.0;
            let p = n.eval(map.to_param(x));
            let q = c.eval_derivs(x).p;
            assert!(
                (p - q).norm() <= 1e-9 * (1.0 + q.norm()),
                "{c:?} at {x}: {p:?} vs {q:?}"
            );
        }
    }

    #[test]
    fn parabola_and_hyperbola_arcs_have_exact_images() {
        let f = Frame::from_axis_ref(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.0, 0.6, 0.8), Some(Vec3::x())).unwrap();
        let curves = [
            (Curve::Parabola { frame: f, focal: 0.7 }, (-2.0, 3.0)),
            (
                Curve::Hyperbola {
                    frame: f,
                    semi_x: 2.0,
                    semi_y: 0.5,
                },
                (-0.4, 2.7),
            ),
        ];
        for (c, t) in curves {
            let n = conic_image_nurbs(&c, t).expect("a conic arc");
            let (d0, d1) = n.domain();
            // ends exact, every NURBS point on the conic (its own equation), and
            // every conic point near the NURBS (dense)
            assert!((n.eval(d0) - c.eval_derivs(t.0).p).norm() <= 1e-12);
            assert!((n.eval(d1) - c.eval_derivs(t.1).p).norm() <= 1e-12);
            for i in 0..=200 {
                let p = n.eval(d0 + (d1 - d0) * i as f64 / 200.0) - f.origin;
                let (x, y, z) = (p.dot(&f.x), p.dot(&f.y), p.dot(&f.z));
                let r = match c {
                    Curve::Parabola { focal, .. } => x - y * y / (4.0 * focal),
                    _ => (x / 2.0).powi(2) - (y / 0.5).powi(2) - 1.0,
                };
                // (the hyperbola's branch: x > 0; the parabola: x ≥ 0)
                assert!(r.abs() <= 1e-10 && z.abs() <= 1e-12 && x >= -1e-12, "{c:?}: residual {r}, off-plane {z}");
            }
            for i in 0..=50 {
                let q = c.eval_derivs(t.0 + (t.1 - t.0) * i as f64 / 50.0).p;
                let near = (0..=20000)
                    .map(|k| (n.eval(d0 + (d1 - d0) * k as f64 / 20000.0) - q).norm())
                    .fold(f64::INFINITY, f64::min);
                assert!(near <= 1e-3, "{c:?}: conic point {q:?} {near} from the NURBS");
            }
        }
        assert!(conic_image_nurbs(&Curve::Parabola { frame: f, focal: 0.0 }, (0.0, 1.0)).is_none());
        assert!(conic_image_nurbs(&Curve::Parabola { frame: f, focal: 1.0 }, (1.0, 1.0)).is_none());
    }

    /// Two composites with conic parts: a line, a parabola arc and a line
    /// (run backwards); a hyperbola arc (run backwards), a circle arc and a
    /// line of parameter length 3.
    fn conic_composites() -> [Curve; 2] {
        let seg = |curve: Curve, t0: f64, t1: f64, forward: bool| CurveSegment { curve, t0, t1, forward };
        let f = Frame::from_axis_ref(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.0, 0.6, 0.8), Some(Vec3::x())).unwrap();
        let parabola = Curve::Parabola { frame: f, focal: 0.5 };
        let (p0, p1) = (parabola.eval(-1.5), parabola.eval(2.0));
        let a = p0 - Vec3::new(3.0, 1.0, -2.0);
        let q = p1 + Vec3::new(0.5, 4.0, 1.0);
        let first = Curve::Composite(vec![
            seg(Curve::Line { origin: a, dir: p0 - a }, 0.0, 1.0, true),
            seg(parabola, -1.5, 2.0, true),
            seg(Curve::Line { origin: q, dir: p1 - q }, 0.0, 1.0, false),
        ]);
        let g = Frame::from_axis_ref(Vec3::new(-3.0, 0.5, 2.0), Vec3::new(0.48, 0.0, 0.64) / 0.8, Some(Vec3::y())).unwrap();
        let hyperbola = Curve::Hyperbola {
            frame: g,
            semi_x: 1.2,
            semi_y: 0.7,
        };
        let h = hyperbola.eval(-0.8);
        let circle = Curve::Circle {
            frame: Frame { origin: h - g.x * 2.5, ..g },
            radius: 2.5,
        };
        let c = circle.eval(2.0);
        let second = Curve::Composite(vec![
            seg(hyperbola, -0.8, 1.9, false),
            seg(circle, 0.0, 2.0, true),
            seg(
                Curve::Line {
                    origin: c,
                    dir: Vec3::new(0.3, -0.2, 0.4),
                },
                0.0,
                3.0,
                true,
            ),
        ]);
        [first, second]
    }

    /// A composite's image on any range of its parameter, also from inside
    /// a segment and with ends a rounding error off a joint: its ends and
    /// joints at their composite parameters, every point on its segment's
    /// curve (1e-12 relative) and moving forward along it.
    #[test]
    fn composites_with_conic_parts_have_exact_images_on_any_range() {
        for c in conic_composites() {
            let Curve::Composite(segs) = &c else { unreachable!() };
            let scale = 1.0 + (0..=30).map(|i| c.eval(i as f64 / 10.0).norm()).fold(0.0, f64::max);
            for t in [(0.0, 3.0), (0.3, 2.6), (1.2, 1.7), (1.0 - 1e-12, 2.0 + 1e-12), (0.25, 1.0)] {
                let n = curve_image_nurbs(&c, t).unwrap_or_else(|| panic!("{t:?}: no image"));
                let snap = |x: f64| if (x - x.round()).abs() <= 1e-9 { x.round() } else { x };
                let (d0, d1) = n.domain();
                assert_eq!((d0, d1), (snap(t.0), snap(t.1)));
                let same = |x: f64| (n.eval(x) - c.eval(x)).norm() <= 1e-12 * scale;
                assert!(same(d0) && same(d1), "{t:?}: ends");
                for k in (d0.ceil() as usize)..=(d1.floor() as usize) {
                    assert!(same(k as f64), "{t:?}: joint {k}");
                }
                let mut last: Option<(usize, f64)> = None;
                for i in 0..=600 {
                    let x = d0 + (d1 - d0) * i as f64 / 600.0;
                    let k = (x.floor() as usize).min(segs.len() - 1);
                    let s = &segs[k];
                    let p = n.eval(x);
                    let foot = crate::import::eval::curve_param_in_range(&s.curve, s.t0, s.t1, &p);
                    let off = (s.curve.eval(foot) - p).norm();
                    assert!(off <= 1e-12 * scale, "{t:?} at {x}: {off:e} off segment {k}");
                    // forward along the composite: the foot moves in the segment's direction
                    let along = if s.forward { foot } else { -foot };
                    if let Some((lk, la)) = last {
                        assert!(lk < k || along >= la - 1e-9, "{t:?} at {x}: backwards on segment {k}");
                    }
                    last = Some((k, along));
                }
            }
        }
        // a parabola keeps its parameter: the first composite is
        // parameter-preserving; the second (hyperbola, circle) has no such form
        let [first, second] = conic_composites();
        check(&first, (0.0, 3.0));
        check(&first, (0.3, 2.6));
        assert!(curve_nurbs(&second, (0.0, 3.0)).is_err());
        check(&Curve::Parabola {
            frame: Frame::world(),
            focal: 0.25,
        }, (-1.0, 2.0));
    }

    #[test]
    fn polylines_are_exact_degree_one_bsplines() {
        let pts = vec![
            Vec3::new(-10.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 10.0),
            Vec3::new(3.0, 4.0, 10.0),
        ];
        let c = Curve::Polyline(pts);
        check(&c, (0.0, 2.0));
        check(&c, (0.25, 1.5));
        assert_eq!(curve_nurbs(&c, (0.0, 2.0)).unwrap().0.degree, 1);
    }

    #[test]
    fn composites_join_their_segments_at_a_common_degree() {
        let f = Frame::from_axis_ref(Vec3::new(1.0, 2.0, 3.0), Vec3::z(), Some(Vec3::x())).unwrap();
        let cubic = NurbsCurve::try_from_homogeneous(
            3,
            vec![0.0, 0.0, 0.0, 0.0, 0.5, 2.0, 2.0, 2.0, 2.0],
            vec![
                [0.0, 0.0, 0.0, 1.0],
                [2.0, 2.0, 0.0, 2.0],
                [2.0, 0.0, 1.0, 1.0],
                [3.0, 1.0, 0.0, 1.0],
                [4.0, 0.0, 0.0, 1.0],
            ],
        )
        .unwrap();
        let seg = |curve: Curve, t0: f64, t1: f64, forward: bool| CurveSegment { curve, t0, t1, forward };
        // a line to the cubic's point at 1.7, the cubic back to 0.3, a polyline on
        let (b, e) = (cubic.eval(1.7), cubic.eval(0.3));
        let c = Curve::Composite(vec![
            seg(
                Curve::Line {
                    origin: b - (b - f.origin) * 2.0,
                    dir: (b - f.origin) * (2.0 / 3.0),
                },
                0.0,
                3.0,
                true,
            ),
            seg(Curve::BSpline(cubic), 0.3, 1.7, false),
            seg(
                Curve::Polyline(vec![e, e + Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 5.0, 0.0)]),
                0.0,
                2.0,
                true,
            ),
        ]);
        check(&c, (0.0, 3.0));
        check(&c, (0.4, 2.2));
        // conic segments have no parameter-preserving NURBS
        let arc = Curve::Composite(vec![seg(Curve::Circle { frame: f, radius: 1.0 }, 0.0, 1.0, true)]);
        assert!(curve_nurbs(&arc, (0.0, 1.0)).is_err());
    }
}

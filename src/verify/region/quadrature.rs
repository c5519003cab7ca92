//! The quadrature of the check's traced loops: where the integrals along a
//! traced curve break (its own knots, the surface's knots crossed by a
//! straight p-curve), and the nodes with the two rules' weights (3-point
//! Gauss and Simpson on the same intervals) whose difference bounds the
//! error of the Green area ([`super::area`]).
//!
//! No behaviour of its own: the nodes are traced by [`Region::new`] and
//! integrated by [`Region::area`].

use super::Region;
use crate::import::model::{Curve, CurveSegment, Surface};

/// 3-point Gauss–Legendre nodes and weights on `[0, 1]`.
pub(super) const G3: [(f64, f64); 3] = [
    (0.112_701_665_379_258_3, 5.0 / 18.0),
    (0.5, 8.0 / 18.0),
    (0.887_298_334_620_741_7, 5.0 / 18.0),
];

/// The nodes `(s, Gauss weight, Simpson weight, the previous interval's
/// share of the Simpson weight)` on `[0, 1]` cut at `cuts` (increasing, from
/// 0 to 1): each interval's three Gauss points (the middle one also carries
/// Simpson's middle weight) and the interval ends (Simpson's end weights of
/// the intervals on both sides; at a kink each side takes its own
/// derivative), for the two quadrature orders whose difference bounds the
/// area's error.
pub(super) fn quadrature_nodes_on(cuts: &[f64]) -> Vec<(f64, f64, f64, f64)> {
    let n = cuts.len().saturating_sub(1);
    let mut pts = Vec::with_capacity(4 * n + 1);
    for i in 0..=n {
        let left = if i > 0 { cuts[i] - cuts[i - 1] } else { 0.0 };
        let right = if i < n { cuts[i + 1] - cuts[i] } else { 0.0 };
        pts.push((cuts[i], 0.0, (left + right) / 6.0, left / 6.0));
        if i < n {
            pts.extend(G3.iter().enumerate().map(|(k, &(x, w))| {
                (
                    cuts[i] + x * right,
                    w * right,
                    if k == 1 { 4.0 * right / 6.0 } else { 0.0 },
                    0.0,
                )
            }));
        }
    }
    pts
}

/// The distinct knots of `surface` in `u` (`v_dir` false) or `v`: where its
/// area element may lose smoothness (a B-spline's knots, a revolution's or
/// an extrusion's profile knots, a polyline profile's vertices), so that
/// quadratures break there.
pub(super) fn surface_breaks(surface: &Surface, v_dir: bool) -> Vec<f64> {
    let curve_breaks = |c: &Curve| -> Vec<f64> {
        match c {
            Curve::BSpline(b) => {
                let mut k = b.knots.clone();
                k.dedup();
                k
            }
            Curve::Composite(parts) => (0..=parts.len()).map(|k| k as f64).collect(),
            // (a polyline's vertex k at t = k: its kinks)
            Curve::Polyline(p) => (0..p.len()).map(|k| k as f64).collect(),
            _ => Vec::new(),
        }
    };
    match surface {
        Surface::BSpline(b) => {
            let mut k = if v_dir { b.knots_v.clone() } else { b.knots_u.clone() };
            k.dedup();
            k
        }
        Surface::Trimmed { basis, .. } | Surface::Offset { basis, .. } => surface_breaks(basis, v_dir),
        Surface::Revolution { profile, .. } if v_dir => curve_breaks(profile),
        Surface::Extrusion { profile, .. } if !v_dir => curve_breaks(profile),
        _ => Vec::new(),
    }
}

/// Interior knot values of `knots` (a clamped knot vector) whose
/// multiplicity is at least `degree`: where the curve or surface is only C0.
fn c0_knots(knots: &[f64], degree: usize) -> Vec<f64> {
    let (Some(&first), Some(&last)) = (knots.first(), knots.last()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < knots.len() {
        let mut j = i;
        while j < knots.len() && knots[j] == knots[i] {
            j += 1;
        }
        if j - i >= degree.max(1) && knots[i] != first && knots[i] != last {
            out.push(knots[i]);
        }
        i = j;
    }
    out
}

/// The *creases* of `surface` in `u` (`v_dir` false) or `v`: the values
/// where its derivative in that direction may jump (a B-spline's knots of
/// multiplicity ≥ its degree, a revolution's or an extrusion's profile's
/// C0 knots, joints and polyline vertices). Across one, the area element
/// jumps and the 3-D speed of a traced curve jumps with it, which neither a
/// Gauss rule nor a chord's midpoint ([`Region::follow_curves_within`]) sees
/// inside one interval; at smoother knots a rule only loses order, which
/// the second rule's estimate measures.
pub(super) fn surface_creases(surface: &Surface, v_dir: bool) -> Vec<f64> {
    let curve_creases = |c: &Curve| -> Vec<f64> {
        match c {
            Curve::BSpline(b) => c0_knots(&b.knots, b.degree),
            Curve::Composite(parts) => (1..parts.len()).map(|k| k as f64).collect(),
            Curve::Polyline(p) => (1..p.len().saturating_sub(1)).map(|k| k as f64).collect(),
            _ => Vec::new(),
        }
    };
    match surface {
        Surface::BSpline(b) => {
            if v_dir {
                c0_knots(&b.knots_v, b.degree_v)
            } else {
                c0_knots(&b.knots_u, b.degree_u)
            }
        }
        Surface::Trimmed { basis, .. } | Surface::Offset { basis, .. } => surface_creases(basis, v_dir),
        Surface::Revolution { profile, .. } if v_dir => curve_creases(profile),
        Surface::Extrusion { profile, .. } if !v_dir => curve_creases(profile),
        _ => Vec::new(),
    }
}

/// Whether `curve` may turn a corner at a break of its quadrature: a
/// polyline, a composite, a B-spline with a knot of multiplicity ≥ its
/// degree (at such a break each side takes its own derivative).
pub(super) fn kinked(curve: &Curve) -> bool {
    match curve {
        Curve::Polyline(_) | Curve::Composite(_) => true,
        Curve::BSpline(b) => !c0_knots(&b.knots, b.degree).is_empty(),
        _ => false,
    }
}

/// The unit parameters (along `seg`, in its direction) of its curve's own
/// breaks: a B-spline's knots, a polyline's vertices, a composite's joints
/// and, inside each of its parts, the part's own breaks (a composite of
/// B-splines with corners at their knots is smooth only between them).
/// Values outside `(0, 1)` are the caller's to drop.
pub(super) fn own_breaks(seg: &CurveSegment) -> Vec<f64> {
    let (t0, t1) = (seg.t0, seg.t1);
    let len = t1 - t0;
    let unit = |t: f64| if seg.forward { (t - t0) / len } else { (t1 - t) / len };
    match &seg.curve {
        Curve::BSpline(b) => b.knots.iter().map(|&k| unit(k)).collect(),
        // (a polyline's vertex k at t = k: its kinks)
        Curve::Polyline(p) => (1..p.len().saturating_sub(1)).map(|k| unit(k as f64)).collect(),
        Curve::Composite(parts) => {
            let mut out: Vec<f64> = (1..parts.len()).map(|k| unit(k as f64)).collect();
            for (k, part) in parts.iter().enumerate() {
                let inner = own_breaks(part).into_iter().filter(|s| *s > 0.0 && *s < 1.0);
                out.extend(inner.map(|s| unit(k as f64 + s)));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Samples per quadrature interval at which a p-curve is compared with the
/// surface's creases ([`Region::crease_crossings`]).
const CREASE_SAMPLES: usize = 4;

/// At most this many quadrature intervals per traced curve.
const MAX_INTERVALS: usize = 256;

fn intervals(curve: &Curve) -> usize {
    match curve {
        Curve::Line { .. } => 2,
        Curve::Polyline(p) => p.len().clamp(2, 256),
        Curve::BSpline(b) => b.cw.len().clamp(4, 64),
        Curve::Composite(s) => (s.len() * 4).clamp(4, 256),
        _ => 12,
    }
}

impl Region<'_> {
    /// The unit parameters (from 0 to 1) where the quadrature along `seg`
    /// breaks: its curve's own knots (a polyline's vertices) and, for a straight p-curve, where it
    /// crosses the surface's knots (a B-spline's area element is smooth only
    /// between them, and a Gauss rule across a knot loses its order); the
    /// longest spans are then halved up to the curve's usual number of
    /// intervals ([`intervals`], at least `min_n`), at most [`MAX_INTERVALS`].
    pub(super) fn segment_cuts(&self, seg: &CurveSegment, param: bool, min_n: usize) -> Vec<f64> {
        let (t0, t1) = (seg.t0, seg.t1);
        let len = t1 - t0;
        let n = intervals(&seg.curve).max(min_n);
        let unit = |t: f64| if seg.forward { (t - t0) / len } else { (t1 - t) / len };
        let mut inner: Vec<f64> = own_breaks(seg);
        match &seg.curve {
            Curve::Line { origin, dir } if param => {
                for (o, d, v_dir) in [(origin.x, dir.x, false), (origin.y, dir.y, true)] {
                    if d != 0.0 {
                        inner.extend(surface_breaks(self.surface(), v_dir).iter().map(|&k| unit((k - o) / d)));
                    }
                }
            }
            _ => {}
        }
        inner.retain(|x| x.is_finite() && *x > 1e-9 && *x < 1.0 - 1e-9);
        inner.sort_by(f64::total_cmp);
        let mut cuts = vec![0.0];
        for x in inner {
            if x - cuts[cuts.len() - 1] > 1e-9 {
                cuts.push(x);
            }
        }
        cuts.push(1.0);
        if cuts.len() > MAX_INTERVALS + 1 {
            return (0..=MAX_INTERVALS).map(|i| i as f64 / MAX_INTERVALS as f64).collect();
        }
        while cuts.len() < n + 1 {
            let (i, _) = cuts
                .windows(2)
                .enumerate()
                .map(|(i, w)| (i, w[1] - w[0]))
                .fold((0, 0.0), |b, c| if c.1 > b.1 { c } else { b });
            cuts.insert(i + 1, 0.5 * (cuts[i] + cuts[i + 1]));
        }
        // a curved p-curve crossing a crease inside an interval: cut there
        // too (a straight one has every knot crossing above)
        if param && !matches!(seg.curve, Curve::Line { .. }) {
            let crossings = self.crease_crossings(seg, &cuts);
            if !crossings.is_empty() {
                cuts.extend(crossings);
                cuts.sort_by(f64::total_cmp);
                let mut kept = vec![cuts[0]];
                for &x in &cuts[1..] {
                    if x - kept[kept.len() - 1] > 1e-9 {
                        kept.push(x);
                    } else if x == 1.0 {
                        // (the end stays exactly 1)
                        let last = kept.len() - 1;
                        kept[last] = 1.0;
                    }
                }
                cuts = kept;
            }
        }
        cuts
    }

    /// The unit parameters where the p-curve `seg` crosses a crease of the
    /// surface ([`surface_creases`], every copy of it in a periodic
    /// direction) inside one of the intervals `cuts`: found by a change of
    /// side between [`CREASE_SAMPLES`] samples an interval, then bisection.
    /// A curve touching a crease without crossing it, or crossing it twice
    /// between two samples, is not cut (its rule then sees a smooth enough
    /// integrand or a sliver of the interval).
    pub(super) fn crease_crossings(&self, seg: &CurveSegment, cuts: &[f64]) -> Vec<f64> {
        let surface = self.surface();
        let creases = [surface_creases(surface, false), surface_creases(surface, true)];
        if creases.iter().all(|c| c.is_empty()) {
            return Vec::new();
        }
        let (pu, pv) = surface.periods();
        let periods = [pu, pv];
        let uv = |x: f64| {
            let p = seg.eval_unit(x).p;
            [p.x, p.y]
        };
        let mut xs = vec![0.0];
        for w in cuts.windows(2) {
            xs.extend((1..=CREASE_SAMPLES).map(|k| w[0] + (w[1] - w[0]) * k as f64 / CREASE_SAMPLES as f64));
        }
        let pts: Vec<[f64; 2]> = xs.iter().map(|&x| uv(x)).collect();
        let mut out = Vec::new();
        for k in 0..2 {
            if creases[k].is_empty() {
                continue;
            }
            let (lo, hi) = pts.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                (l.min(p[k]), h.max(p[k]))
            });
            // (a curve lying on a crease line, up to rounding, crosses nothing)
            let eps = 1e-12 * (1.0 + lo.abs().max(hi.abs()));
            for i in 1..xs.len() {
                let (y0, y1) = (pts[i - 1][k], pts[i][k]);
                if !(y0.is_finite() && y1.is_finite()) {
                    continue;
                }
                let (ya, yb) = (y0.min(y1), y0.max(y1));
                for &c in &creases[k] {
                    let copies: Vec<f64> = match periods[k] {
                        Some(p) if p > 0.0 => {
                            let (n0, n1) = (((ya - c) / p).ceil(), ((yb - c) / p).floor());
                            if n1 - n0 > 4.0 {
                                continue;
                            }
                            let mut v = Vec::new();
                            let mut n = n0;
                            while n <= n1 {
                                v.push(c + n * p);
                                n += 1.0;
                            }
                            v
                        }
                        _ => vec![c],
                    };
                    for c in copies {
                        if !(ya < c - eps && c + eps < yb) {
                            continue;
                        }
                        // bisection on the side of the crease
                        let below = y0 < c;
                        let (mut a, mut b) = (xs[i - 1], xs[i]);
                        for _ in 0..64 {
                            let m = 0.5 * (a + b);
                            if m <= a || m >= b {
                                break;
                            }
                            if (uv(m)[k] < c) == below {
                                a = m;
                            } else {
                                b = m;
                            }
                        }
                        let x = 0.5 * (a + b);
                        if x > 1e-9 && x < 1.0 - 1e-9 {
                            out.push(x);
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::face_model;
    use super::*;
    use crate::geom::{NurbsCurve, NurbsSurface, Vec3};
    use crate::import::model::Coedge;

    /// A coedge with only the `(u, v)` curve `curve` on `[t0, t1]` (an IGES
    /// 142 / 141 boundary's parameter-space curve).
    fn on_pcurve(curve: Curve, t0: f64, t1: f64) -> Coedge {
        Coedge {
            edge: None,
            forward: true,
            pcurve: Some(CurveSegment {
                curve,
                t0,
                t1,
                forward: true,
            }),
            curve: None,
            pcurve_preferred: false,
            source: 0,
        }
    }

    fn pline(a: [f64; 2], b: [f64; 2]) -> Coedge {
        on_pcurve(
            Curve::Line {
                origin: Vec3::new(a[0], a[1], 0.0),
                dir: Vec3::new(b[0] - a[0], b[1] - a[1], 0.0),
            },
            0.0,
            1.0,
        )
    }

    #[test]
    fn a_composite_pcurve_breaks_at_its_parts_corners() {
        // the square [0.1, 0.9] × [−0.5, 0.5] of the plane z = 0 bounded by
        // one composite p-curve whose only part is a degree-1 B-spline with
        // its corners at the uneven knots 0.37, 1.9, 2.2 (an IGES 102 of
        // 126s, as iges_rhino2001_vz387's outer loop, whose part has C0
        // knots): the composite's uniform intervals put the corners inside
        // Gauss intervals unless the part's own knots cut them
        let square = NurbsCurve::try_new(
            1,
            vec![0.0, 0.0, 0.37, 1.9, 2.2, 4.0, 4.0],
            &[
                [0.1, -0.5, 0.0],
                [0.9, -0.5, 0.0],
                [0.9, 0.5, 0.0],
                [0.1, 0.5, 0.0],
                [0.1, -0.5, 0.0],
            ],
            None,
        )
        .expect("curve");
        let part = CurveSegment {
            curve: Curve::BSpline(square),
            t0: 0.0,
            t1: 4.0,
            forward: true,
        };
        let m = face_model(
            Surface::Plane {
                frame: crate::geom::Frame::world(),
            },
            Some(vec![on_pcurve(Curve::Composite(vec![part]), 0.0, 1.0)]),
            Vec::new(),
            Vec::new(),
        );
        let r = super::super::Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        assert!((a - 0.8).abs() < 1e-12, "{a} ± {e}");
        assert!(e < 1e-9, "the corners are interval ends: {e}");
    }

    /// `S(u, v) = (u, y(v), 0)` with `y = 1000 v` for `v ≤ 0` and `y = v`
    /// above: a plane whose parametrisation has a C0 crease at `v = 0`, where
    /// the speed in `v` drops 1,000-fold (iges_rhino2001_vz387's 128 has C0
    /// double knots at `v = −1, 0` with a strip between them 500 times faster
    /// than its neighbours).
    fn creased_plane() -> Surface {
        let s = NurbsSurface::try_new(
            1,
            1,
            vec![0.0, 0.0, 1.0, 1.0],
            vec![-1.0, -1.0, 0.0, 1.0, 1.0],
            2,
            3,
            &[
                [0.0, -1000.0, 0.0],
                [0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, -1000.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
            ],
            None,
        )
        .expect("surface");
        Surface::BSpline(s)
    }

    #[test]
    fn a_pcurve_crossing_a_crease_inside_its_span_is_cut_there() {
        // the face 0.3 ≤ a ≤ a(b), b0 ≤ b ≤ 0.5 of the creased plane, its
        // right side the quadratic p-curve (0.3, b0), (0.8, b0), (0.8, 0.5):
        // a(x) = 0.3 + x − x²/2, b(x) = b0 + (0.5 − b0) x², which crosses
        // the crease at x_c ≈ 0.133, inside its quadrature interval
        // [0, 0.25], whose end node x = 0 and first Gauss node lie on either
        // side. The Green area (F jumps 1,000-fold across the crease) lost
        // the fast side's sliver: 4.06 against 0.969 before the crossing was
        // an interval end
        let b0 = -0.009;
        let c = NurbsCurve::try_new(
            2,
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            &[[0.3, b0, 0.0], [0.8, b0, 0.0], [0.8, 0.5, 0.0]],
            None,
        )
        .expect("curve");
        let m = face_model(
            creased_plane(),
            Some(vec![
                on_pcurve(Curve::BSpline(c), 0.0, 1.0),
                pline([0.8, 0.5], [0.3, 0.5]),
                pline([0.3, 0.5], [0.3, b0]),
            ]),
            Vec::new(),
            Vec::new(),
        );
        let mut r = super::super::Region::new(&m, &m.faces[0]).expect("region");
        // ∫ (a − 0.3) J(b) b' dx on both sides of x_c (J = 1000, then 1)
        let k = 2.0 * (0.5 - b0);
        let xc = (-b0 / (0.5 - b0)).sqrt();
        let g = |x: f64| x.powi(3) / 3.0 - x.powi(4) / 8.0;
        let want = k * (1000.0 * g(xc) + g(1.0) - g(xc));
        let (a, e) = r.area();
        assert!((a - want).abs() < 1e-9 * want, "{a} vs {want} ± {e}");
        assert!(e < 1e-6 * want, "{e}");
        // the polygon follows the curve within a quarter of the tolerance in
        // 3-D: points tol/2 inside the curve (in 3-D, across it) are in the
        // face, points tol/2 outside it are not (here the chord test splits
        // the crossing chord even without the cut: this part holds the
        // guarantee; vz387's unsplit chord is in docs/exactness.md)
        let tol = 0.01;
        r.follow_curves_within(tol);
        let y = |b: f64| if b <= 0.0 { 1000.0 * b } else { b };
        let b_of = |y: f64| if y <= 0.0 { y / 1000.0 } else { y };
        // (from x = 0.03: the start's corner with the left side is
        // farther than tol from the points)
        for i in 0..400 {
            let x = 0.03 + 0.57 * i as f64 / 400.0;
            let (a, b) = (0.3 + x - 0.5 * x * x, b0 + (0.5 - b0) * x * x);
            let t = [1.0 - x, if b <= 0.0 { 1000.0 } else { 1.0 } * 2.0 * (0.5 - b0) * x];
            let n = t[0].hypot(t[1]);
            // the face lies on the left of the curve (it runs up its right side)
            let left = [-t[1] / n, t[0] / n];
            for (sign, inside) in [(1.0, true), (-1.0, false)] {
                let q = [a + sign * 0.5 * tol * left[0], y(b) + sign * 0.5 * tol * left[1]];
                let ab = [q[0], b_of(q[1])];
                assert_eq!(r.contains(ab), inside, "x = {x}: {ab:?} (b on the curve {b})");
            }
        }
    }

    #[test]
    fn both_rules_integrate_a_cubic_on_uneven_cuts() {
        // ∫₀¹ (1 + 2s − 3s² + 4s³) ds = 1 + 1 − 1 + 1 = 2 by either rule
        // (Gauss 3 points: degree 5, Simpson: degree 3), whatever the cuts
        let f = |s: f64| 1.0 + 2.0 * s - 3.0 * s * s + 4.0 * s * s * s;
        let nodes = quadrature_nodes_on(&[0.0, 0.1, 0.45, 1.0]);
        assert_eq!(
            nodes.len(),
            4 * 3 + 1,
            "three Gauss points per interval and the four ends"
        );
        let gauss: f64 = nodes.iter().map(|&(s, wg, _, _)| wg * f(s)).sum();
        let simpson: f64 = nodes.iter().map(|&(s, _, ws, _)| ws * f(s)).sum();
        assert!((gauss - 2.0).abs() < 1e-14, "{gauss}");
        assert!((simpson - 2.0).abs() < 1e-14, "{simpson}");
        // the weights of each rule add up to the interval's length
        let (sg, ss) = nodes.iter().fold((0.0, 0.0), |a, n| (a.0 + n.1, a.1 + n.2));
        assert!((sg - 1.0).abs() < 1e-15 && (ss - 1.0).abs() < 1e-15, "{sg} {ss}");
    }

    #[test]
    fn the_rules_differ_on_a_quintic_by_simpsons_error() {
        // ∫₀¹ s⁵ ds = 1/6: Gauss exact, Simpson off by its fourth-derivative
        // term; the difference is what bounds the area's error
        let nodes = quadrature_nodes_on(&[0.0, 1.0]);
        let gauss: f64 = nodes.iter().map(|&(s, wg, _, _)| wg * s.powi(5)).sum();
        let simpson: f64 = nodes.iter().map(|&(s, _, ws, _)| ws * s.powi(5)).sum();
        assert!((gauss - 1.0 / 6.0).abs() < 1e-15, "{gauss}");
        // Simpson: (0 + 4·(1/2)⁵ + 1)/6 = 1.125/6
        assert!((simpson - 1.125 / 6.0).abs() < 1e-15, "{simpson}");
    }

    #[test]
    fn an_extrusion_breaks_at_its_profiles_joints_in_u_only() {
        let line = |x: f64| CurveSegment {
            curve: Curve::Line {
                origin: crate::geom::Vec3::new(x, 0.0, 0.0),
                dir: crate::geom::Vec3::new(1.0, 0.0, 0.0),
            },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        let ext = Surface::Extrusion {
            profile: Box::new(Curve::Composite(vec![line(0.0), line(1.0)])),
            direction: crate::geom::Vec3::new(0.0, 0.0, 1.0),
        };
        assert_eq!(
            surface_breaks(&ext, false),
            vec![0.0, 1.0, 2.0],
            "the composite's joints in u"
        );
        assert!(surface_breaks(&ext, true).is_empty(), "straight in v");
        let plane = Surface::Plane {
            frame: crate::geom::Frame::world(),
        };
        assert!(surface_breaks(&plane, false).is_empty() && surface_breaks(&plane, true).is_empty());
    }
}

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
        let mut inner: Vec<f64> = Vec::new();
        match &seg.curve {
            Curve::BSpline(b) => inner.extend(b.knots.iter().map(|&k| unit(k))),
            Curve::Composite(parts) => inner.extend((1..parts.len()).map(|k| unit(k as f64))),
            // (a polyline's vertex k at t = k: its kinks)
            Curve::Polyline(p) => inner.extend((1..p.len().saturating_sub(1)).map(|k| unit(k as f64))),
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
        cuts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

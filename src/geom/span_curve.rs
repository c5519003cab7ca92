//! A NURBS curve held as its Bézier spans, for fast repeated evaluation.
//!
//! [`NurbsCurve::eval_derivs`] finds the knot span and runs the Cox–de Boor
//! triangle with basis arrays sized for the largest degree on every call
//! (about 2,750 instructions on a screw's helix edges). A tracker evaluates
//! the same edges thousands of times, so [`SpanCurve`] converts the curve
//! once (knot insertion, [`NurbsCurve::bezier_spans`]) into one homogeneous
//! Bézier control polygon per non-empty span; an evaluation is then a
//! binary search over the breakpoints and the closed-form Bernstein basis
//! of the fixed degree ([`bernstein_d2`], the order fixed at compile time
//! for degrees 1–9) applied to `p + 1` poles. Rational spans stay
//! homogeneous (`[w·x, w·y, w·z, w]`) and are divided once, as in
//! [`NurbsCurve::eval_derivs`].
//!
//! The span chosen for `t` is the one [`NurbsCurve::eval_derivs`] chooses
//! (`t₀ ≤ t < t₁`, the last span at the domain's end), so at a C0 knot the
//! derivatives are those of the same side. Knot insertion changes the poles
//! by rounding only: points and derivatives agree with the NURBS evaluator to
//! about 1e-15 relative (the tests hold them to 1e-12).
//!
//! [`CurveEval`] lets the trackers take either form.

use super::basis::{bernstein_d2, MAX_ORDER};
use super::curve::{combine_homogeneous, CurvePoint, NurbsCurve};
use super::{Hpoint, Vec3};

/// A curve the trackers can evaluate: its domain and its point with the
/// first two derivatives (the parameter clamped to the domain).
pub trait CurveEval {
    /// Parameter domain `(t0, t1)`.
    fn domain(&self) -> (f64, f64);
    /// Point, first and second derivative at `t` (clamped to the domain).
    fn eval_derivs(&self, t: f64) -> CurvePoint;
}

impl CurveEval for NurbsCurve {
    #[inline]
    fn domain(&self) -> (f64, f64) {
        NurbsCurve::domain(self)
    }
    #[inline]
    fn eval_derivs(&self, t: f64) -> CurvePoint {
        NurbsCurve::eval_derivs(self, t)
    }
}

/// A NURBS curve as homogeneous Bézier spans (see the module doc). Built
/// once; evaluation allocates nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanCurve {
    degree: usize,
    rational: bool,
    /// Breakpoints: span `i` is `[breaks[i], breaks[i + 1]]`.
    breaks: Vec<f64>,
    /// `1 / (breaks[i + 1] − breaks[i])` per span.
    inv_len: Vec<f64>,
    /// `degree + 1` homogeneous poles per span.
    cw: Vec<Hpoint>,
}

impl SpanCurve {
    /// The Bézier spans of `curve`.
    pub fn new(curve: &NurbsCurve) -> Self {
        let spans = curve.bezier_spans();
        let mut breaks = Vec::with_capacity(spans.len() + 1);
        let mut inv_len = Vec::with_capacity(spans.len());
        let mut cw = Vec::with_capacity(spans.len() * (curve.degree + 1));
        for s in &spans {
            breaks.push(s.range.0);
            inv_len.push(1.0 / (s.range.1 - s.range.0));
            cw.extend_from_slice(&s.curve.cw);
        }
        // the domain's end exactly (the spans' ranges are the curve's knots)
        breaks.push(curve.domain().1);
        Self {
            degree: curve.degree,
            rational: curve.rational,
            breaks,
            inv_len,
            cw,
        }
    }

    /// Degree of every span.
    pub fn degree(&self) -> usize {
        self.degree
    }

    /// Number of spans.
    pub fn span_count(&self) -> usize {
        self.inv_len.len()
    }

    /// The span holding `t` (clamped to the domain): `t₀ ≤ t < t₁`, the last
    /// span at the domain's end — the span [`NurbsCurve::eval_derivs`] uses.
    #[inline]
    pub fn span_of(&self, t: f64) -> usize {
        let n = self.inv_len.len();
        // breaks[1..n] are the interior breakpoints; count those ≤ t
        self.breaks[1..n].partition_point(|&b| b <= t)
    }

    /// Point only.
    #[inline]
    pub fn eval(&self, t: f64) -> Vec3 {
        CurveEval::eval_derivs(self, t).p
    }

    #[inline(always)]
    fn eval_o<const O: usize>(&self, i: usize, t: f64) -> CurvePoint {
        let p = if O < MAX_ORDER { O - 1 } else { self.degree };
        let it = self.inv_len[i];
        let s = ((t - self.breaks[i]) * it).clamp(0.0, 1.0);
        let nb = bernstein_d2::<O>(p, s, it);
        combine_homogeneous(&nb, &self.cw[i * (p + 1)..(i + 1) * (p + 1)], 3, self.rational)
    }
}

impl CurveEval for SpanCurve {
    #[inline]
    fn domain(&self) -> (f64, f64) {
        (self.breaks[0], self.breaks[self.breaks.len() - 1])
    }

    #[inline]
    fn eval_derivs(&self, t: f64) -> CurvePoint {
        let (t0, t1) = CurveEval::domain(self);
        let t = t.clamp(t0, t1);
        let i = self.span_of(t);
        match self.degree {
            1 => self.eval_o::<2>(i, t),
            2 => self.eval_o::<3>(i, t),
            3 => self.eval_o::<4>(i, t),
            4 => self.eval_o::<5>(i, t),
            5 => self.eval_o::<6>(i, t),
            6 => self.eval_o::<7>(i, t),
            7 => self.eval_o::<8>(i, t),
            8 => self.eval_o::<9>(i, t),
            9 => self.eval_o::<10>(i, t),
            _ => self.eval_o::<MAX_ORDER>(i, t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Vec3, b: &Vec3, scale: f64) -> bool {
        (a - b).norm() <= 1e-12 * scale.max(1.0)
    }

    fn check(c: &NurbsCurve) {
        let s = SpanCurve::new(c);
        let (t0, t1) = c.domain();
        assert_eq!(CurveEval::domain(&s), (t0, t1));
        let mut ts: Vec<f64> = (0..=200).map(|k| t0 + (t1 - t0) * k as f64 / 200.0).collect();
        // every knot, where the span choice matters at a C0 knot
        ts.extend(c.knots.iter().copied().filter(|&k| k >= t0 && k <= t1));
        ts.extend([t0 - 1.0, t1 + 1.0]);
        for t in ts {
            let a = c.eval_derivs(t);
            let b = CurveEval::eval_derivs(&s, t);
            let sc = a.p.norm() + a.d1.norm() + a.d2.norm();
            assert!(close(&a.p, &b.p, sc), "point at {t}: {:?} vs {:?}", a.p, b.p);
            assert!(close(&a.d1, &b.d1, sc), "d1 at {t}: {:?} vs {:?}", a.d1, b.d1);
            assert!(close(&a.d2, &b.d2, sc), "d2 at {t}: {:?} vs {:?}", a.d2, b.d2);
        }
    }

    #[test]
    fn cubic_with_interior_knots_matches_nurbs() {
        let pts = [
            [0.0, 0.0, 0.0],
            [1.0, 2.0, 0.5],
            [3.0, 2.5, -1.0],
            [4.0, 0.0, 2.0],
            [6.0, -1.0, 0.0],
            [7.0, 1.0, 1.0],
        ];
        let knots = vec![0.0, 0.0, 0.0, 0.0, 0.3, 0.7, 2.0, 2.0, 2.0, 2.0];
        check(&NurbsCurve::try_new(3, knots, &pts, None).unwrap());
    }

    #[test]
    fn rational_circle_with_c0_knots_matches_nurbs() {
        // quarter circles of degree 2 joined at double knots (C0 in the
        // parameterization, weights 1/√2 at the corners)
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let pts = [
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [-1.0, 1.0, 0.0],
            [-1.0, 0.0, 0.0],
        ];
        let w = [1.0, h, 1.0, h, 1.0];
        let knots = vec![0.0, 0.0, 0.0, 1.0, 1.0, 2.5, 2.5, 2.5];
        let c = NurbsCurve::try_new(2, knots, &pts, Some(&w)).unwrap();
        assert_eq!(SpanCurve::new(&c).span_count(), 2);
        check(&c);
    }

    #[test]
    fn high_degree_single_span_matches_nurbs() {
        let pts: Vec<[f64; 3]> = (0..12)
            .map(|k| {
                let a = k as f64 * 0.4;
                [a.cos() * 3.0, a.sin() * 3.0, 0.2 * k as f64]
            })
            .collect();
        let mut knots = vec![-1.0; 12];
        knots.extend([4.0; 12]);
        check(&NurbsCurve::try_new(11, knots, &pts, None).unwrap());
    }

    #[test]
    fn span_of_takes_the_right_side_of_a_knot() {
        let pts = [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [2.0, 0.0, 0.0], [3.0, 1.0, 0.0]];
        let knots = vec![0.0, 0.0, 1.0, 2.0, 3.0, 3.0];
        let s = SpanCurve::new(&NurbsCurve::try_new(1, knots, &pts, None).unwrap());
        assert_eq!(s.span_of(0.0), 0);
        assert_eq!(s.span_of(0.999), 0);
        assert_eq!(s.span_of(1.0), 1);
        assert_eq!(s.span_of(3.0), 2);
        assert_eq!(s.degree(), 1);
    }
}

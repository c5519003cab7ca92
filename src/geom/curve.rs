//! NURBS curves (rational or not, any degree `1..=MAX_DEGREE`) in 3-D (2-D
//! parameter-space curves use `z = 0`), with an allocation-free evaluator for
//! the point and first two derivatives.

use super::basis::{bernstein_d2, find_span, span_basis_d2, MAX_ORDER};
use super::surface::{bezier_knots, check_knots, check_points, single_bezier_span};
use super::{GeomError, Hpoint, Vec3};

/// Point and derivatives of a curve at `t`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CurvePoint {
    /// c(t)
    pub p: Vec3,
    /// c'(t)
    pub d1: Vec3,
    /// c''(t)
    pub d2: Vec3,
}

/// A NURBS curve with homogeneous poles `[w·x, w·y, w·z, w]`.
#[derive(Debug, Clone, PartialEq)]
pub struct NurbsCurve {
    /// Degree.
    pub degree: usize,
    /// Knot vector (`cw.len() + degree + 1` values).
    pub knots: Vec<f64>,
    /// Homogeneous poles.
    pub cw: Vec<Hpoint>,
    /// False when every weight is 1.
    pub rational: bool,
}

impl NurbsCurve {
    /// Builds a curve from Euclidean poles and optional weights.
    pub fn try_new(
        degree: usize,
        knots: Vec<f64>,
        points: &[[f64; 3]],
        weights: Option<&[f64]>,
    ) -> Result<Self, GeomError> {
        if let Some(w) = weights {
            if w.len() != points.len() {
                return Err(GeomError::PointCount {
                    got: w.len(),
                    expected: points.len(),
                });
            }
        }
        let cw = points
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let w = weights.map_or(1.0, |w| w[k]);
                [p[0] * w, p[1] * w, p[2] * w, w]
            })
            .collect();
        Self::try_from_homogeneous(degree, knots, cw)
    }

    /// Builds a curve from homogeneous poles, validating everything.
    pub fn try_from_homogeneous(degree: usize, knots: Vec<f64>, cw: Vec<Hpoint>) -> Result<Self, GeomError> {
        check_knots(&knots, cw.len(), degree)?;
        let rational = check_points(&cw)?;
        Ok(Self {
            degree,
            knots,
            cw,
            rational,
        })
    }

    /// A (rational) Bézier curve on `[0,1]`.
    pub fn bezier(cw: Vec<Hpoint>) -> Result<Self, GeomError> {
        let p = cw.len().saturating_sub(1);
        Self::try_from_homogeneous(p, bezier_knots(p), cw)
    }

    /// Parameter domain `(t0, t1)`.
    pub fn domain(&self) -> (f64, f64) {
        (self.knots[self.degree], self.knots[self.cw.len()])
    }

    /// Euclidean pole `i`.
    pub fn pole(&self, i: usize) -> Vec3 {
        let c = self.cw[i];
        Vec3::new(c[0] / c[3], c[1] / c[3], c[2] / c[3])
    }

    /// Point only (the sum of [`eval_derivs`](Self::eval_derivs)'s
    /// point row, bit for bit; the derivative rows are not summed).
    pub fn eval(&self, t: f64) -> Vec3 {
        match self.degree {
            1 => self.eval_o::<2, false>(t).p,
            2 => self.eval_o::<3, false>(t).p,
            3 => self.eval_o::<4, false>(t).p,
            4 => self.eval_o::<5, false>(t).p,
            5 => self.eval_o::<6, false>(t).p,
            6 => self.eval_o::<7, false>(t).p,
            7 => self.eval_o::<8, false>(t).p,
            8 => self.eval_o::<9, false>(t).p,
            9 => self.eval_o::<10, false>(t).p,
            _ => self.eval_o::<MAX_ORDER, false>(t).p,
        }
    }

    /// Like [`eval_derivs`](Self::eval_derivs) but refuses a NaN parameter
    /// ([`GeomError::Parameter`]) instead of returning NaN.
    #[inline]
    pub fn try_eval_derivs(&self, t: f64) -> Result<CurvePoint, GeomError> {
        if t.is_nan() {
            return Err(GeomError::Parameter);
        }
        Ok(self.eval_derivs(t))
    }

    /// Point, first and second derivative; `t` is clamped to the domain.
    ///
    /// Degrees 1–9 run a copy with the basis order fixed at compile time
    /// (the same arithmetic in the same order, so the same bits; the loops
    /// unroll instead of running over arrays sized for degree 15).
    #[inline]
    pub fn eval_derivs(&self, t: f64) -> CurvePoint {
        match self.degree {
            1 => self.eval_o::<2, true>(t),
            2 => self.eval_o::<3, true>(t),
            3 => self.eval_o::<4, true>(t),
            4 => self.eval_o::<5, true>(t),
            5 => self.eval_o::<6, true>(t),
            6 => self.eval_o::<7, true>(t),
            7 => self.eval_o::<8, true>(t),
            8 => self.eval_o::<9, true>(t),
            9 => self.eval_o::<10, true>(t),
            _ => self.eval_o::<MAX_ORDER, true>(t),
        }
    }

    /// [`eval_derivs`](Self::eval_derivs) with the basis arrays of size `O`
    /// (`O < MAX_ORDER`: the degree is exactly `O − 1`); without `D` only
    /// the point (the derivative fields are zero).
    #[inline(always)]
    fn eval_o<const O: usize, const D: bool>(&self, t: f64) -> CurvePoint {
        let (t0, t1) = self.domain();
        let t = t.clamp(t0, t1);
        let p = if O < MAX_ORDER { O - 1 } else { self.degree };
        let n = self.cw.len();
        let (span, nb) = if single_bezier_span(&self.knots, n, p) {
            let it = 1.0 / (t1 - t0);
            (p, bernstein_d2::<O>(p, (t - t0) * it, it))
        } else {
            let span = find_span(n, p, t, &self.knots);
            (span, span_basis_d2::<O>(p, span, t, &self.knots))
        };
        combine_homogeneous(&nb, &self.cw[span - p..=span], if D { 3 } else { 1 }, self.rational)
    }
}

/// The point and first two derivatives of a curve from the basis values
/// (`nb[k][j]`: the `k`-th derivative of the `j`-th basis function) and
/// the homogeneous poles they weight, projected when `rational`; only the
/// first `rows` derivative orders are summed (the others stay zero). One
/// summation for [`NurbsCurve`] and [`SpanCurve`](super::SpanCurve).
#[inline(always)]
pub(crate) fn combine_homogeneous<const O: usize>(
    nb: &[[f64; O]; 3],
    poles: &[Hpoint],
    rows: usize,
    rational: bool,
) -> CurvePoint {
    let mut a = [[0.0f64; 4]; 3];
    for (j, c) in poles.iter().enumerate() {
        for k in 0..rows {
            let b = nb[k][j];
            for q in 0..4 {
                a[k][q] += b * c[q];
            }
        }
    }
    let v3 = |h: &[f64; 4]| Vec3::new(h[0], h[1], h[2]);
    if !rational {
        return CurvePoint {
            p: v3(&a[0]),
            d1: v3(&a[1]),
            d2: v3(&a[2]),
        };
    }
    let iw = 1.0 / a[0][3];
    let pt = v3(&a[0]) * iw;
    let d1 = (v3(&a[1]) - pt * a[1][3]) * iw;
    let d2 = (v3(&a[2]) - d1 * (2.0 * a[1][3]) - pt * a[2][3]) * iw;
    CurvePoint { p: pt, d1, d2 }
}

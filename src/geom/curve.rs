//! NURBS curves (rational or not, any degree `1..=MAX_DEGREE`) in 3-D (2-D
//! parameter-space curves use `z = 0`), with an allocation-free evaluator for
//! the point and first two derivatives.

use super::basis::{bernstein_ders, ders_basis, find_span, MAX_ORDER};
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

    /// Point only.
    pub fn eval(&self, t: f64) -> Vec3 {
        self.eval_derivs(t).p
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
    #[inline]
    pub fn eval_derivs(&self, t: f64) -> CurvePoint {
        let (t0, t1) = self.domain();
        let t = t.clamp(t0, t1);
        let p = self.degree;
        let n = self.cw.len();
        let mut nb = [[0.0; MAX_ORDER]; 3];
        let span;
        if single_bezier_span(&self.knots, n, p) {
            span = p;
            bernstein_ders(p, (t - t0) / (t1 - t0), &mut nb);
            let it = 1.0 / (t1 - t0);
            for j in 0..=p {
                nb[1][j] *= it;
                nb[2][j] *= it * it;
            }
        } else {
            span = find_span(n, p, t, &self.knots);
            ders_basis(span, t, p, &self.knots, 2, &mut nb);
        }
        let mut a = [[0.0f64; 4]; 3];
        for (j, c) in self.cw[span - p..=span].iter().enumerate() {
            for k in 0..3 {
                let b = nb[k][j];
                for q in 0..4 {
                    a[k][q] += b * c[q];
                }
            }
        }
        let v3 = |h: &[f64; 4]| Vec3::new(h[0], h[1], h[2]);
        if !self.rational {
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
}

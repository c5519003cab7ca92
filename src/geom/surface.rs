//! NURBS surfaces (rational or not, any degree `1..=MAX_DEGREE`) on flat arrays,
//! with an allocation-free evaluator for the point and its five partial
//! derivatives (`f_u, f_v, f_uu, f_uv, f_vv`), one basis evaluation per call.

use super::basis::{bernstein_ders, ders_basis, find_span, MAX_DEGREE, MAX_ORDER};
use super::{GeomError, Hpoint, Vec3};

/// Point and partial derivatives of a surface at `(u, v)`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SurfacePoint {
    /// f(u,v)
    pub p: Vec3,
    /// ∂f/∂u
    pub su: Vec3,
    /// ∂f/∂v
    pub sv: Vec3,
    /// ∂²f/∂u²
    pub suu: Vec3,
    /// ∂²f/∂u∂v
    pub suv: Vec3,
    /// ∂²f/∂v²
    pub svv: Vec3,
}

impl SurfacePoint {
    /// Un-normalised normal `f_u × f_v`.
    #[inline]
    pub fn normal_raw(&self) -> Vec3 {
        self.su.cross(&self.sv)
    }
}

/// A tensor-product NURBS surface. Control points are stored homogeneous
/// (`[w·x, w·y, w·z, w]`), row-major with the u index outer:
/// `cw[i * n_v + j]` is pole `(i, j)`.
#[derive(Debug, Clone, PartialEq)]
pub struct NurbsSurface {
    /// Degree in u.
    pub degree_u: usize,
    /// Degree in v.
    pub degree_v: usize,
    /// Knot vector in u (`n_u + degree_u + 1` values).
    pub knots_u: Vec<f64>,
    /// Knot vector in v.
    pub knots_v: Vec<f64>,
    /// Number of poles in u.
    pub n_u: usize,
    /// Number of poles in v.
    pub n_v: usize,
    /// Homogeneous poles, `n_u * n_v` of them.
    pub cw: Vec<Hpoint>,
    /// False when every weight is 1 (the polynomial fast path is taken).
    pub rational: bool,
}

pub(crate) fn check_knots(knots: &[f64], n: usize, p: usize) -> Result<(), GeomError> {
    if p == 0 || p > MAX_DEGREE {
        return Err(GeomError::Degree(p));
    }
    if n < p + 1 {
        return Err(GeomError::PointCount {
            got: n,
            expected: p + 1,
        });
    }
    if knots.len() != n + p + 1 {
        return Err(GeomError::KnotCount {
            got: knots.len(),
            expected: n + p + 1,
        });
    }
    if knots.iter().any(|k| !k.is_finite()) {
        return Err(GeomError::NonFinite("knots"));
    }
    if knots.windows(2).any(|w| w[1] < w[0]) || knots[n] <= knots[p] {
        return Err(GeomError::KnotOrder);
    }
    Ok(())
}

pub(crate) fn check_points(cw: &[Hpoint]) -> Result<bool, GeomError> {
    let mut rational = false;
    for c in cw {
        if c.iter().any(|x| !x.is_finite()) {
            return Err(GeomError::NonFinite("control points"));
        }
        if c[3] <= 0.0 {
            return Err(GeomError::Weight(c[3]));
        }
        if c[3] != 1.0 {
            rational = true;
        }
    }
    Ok(rational)
}

impl NurbsSurface {
    /// Builds a surface from Euclidean poles `points` (u-major) and `weights`
    /// (`None` = all ones), validating degrees, knots and weights.
    pub fn try_new(
        degree_u: usize,
        degree_v: usize,
        knots_u: Vec<f64>,
        knots_v: Vec<f64>,
        n_u: usize,
        n_v: usize,
        points: &[[f64; 3]],
        weights: Option<&[f64]>,
    ) -> Result<Self, GeomError> {
        if points.len() != n_u * n_v {
            return Err(GeomError::PointCount {
                got: points.len(),
                expected: n_u * n_v,
            });
        }
        if let Some(w) = weights {
            if w.len() != points.len() {
                return Err(GeomError::PointCount {
                    got: w.len(),
                    expected: points.len(),
                });
            }
        }
        let cw: Vec<Hpoint> = points
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let w = weights.map_or(1.0, |w| w[k]);
                [p[0] * w, p[1] * w, p[2] * w, w]
            })
            .collect();
        Self::try_from_homogeneous(degree_u, degree_v, knots_u, knots_v, n_u, n_v, cw)
    }

    /// Builds a surface from homogeneous poles, validating everything.
    pub fn try_from_homogeneous(
        degree_u: usize,
        degree_v: usize,
        knots_u: Vec<f64>,
        knots_v: Vec<f64>,
        n_u: usize,
        n_v: usize,
        cw: Vec<Hpoint>,
    ) -> Result<Self, GeomError> {
        check_knots(&knots_u, n_u, degree_u)?;
        check_knots(&knots_v, n_v, degree_v)?;
        if cw.len() != n_u * n_v {
            return Err(GeomError::PointCount {
                got: cw.len(),
                expected: n_u * n_v,
            });
        }
        let rational = check_points(&cw)?;
        Ok(Self {
            degree_u,
            degree_v,
            knots_u,
            knots_v,
            n_u,
            n_v,
            cw,
            rational,
        })
    }

    /// A (rational) Bézier patch of the given degrees on `[0,1]²`.
    pub fn bezier(degree_u: usize, degree_v: usize, cw: Vec<Hpoint>) -> Result<Self, GeomError> {
        let ku = bezier_knots(degree_u);
        let kv = bezier_knots(degree_v);
        Self::try_from_homogeneous(degree_u, degree_v, ku, kv, degree_u + 1, degree_v + 1, cw)
    }

    /// Parameter domain `((u0, u1), (v0, v1))`.
    pub fn domain(&self) -> ((f64, f64), (f64, f64)) {
        (
            (self.knots_u[self.degree_u], self.knots_u[self.n_u]),
            (self.knots_v[self.degree_v], self.knots_v[self.n_v]),
        )
    }

    /// Euclidean pole `(i, j)`.
    pub fn pole(&self, i: usize, j: usize) -> Vec3 {
        let c = self.cw[i * self.n_v + j];
        Vec3::new(c[0] / c[3], c[1] / c[3], c[2] / c[3])
    }

    /// True when the surface is a single Bézier span in both directions.
    pub fn is_bezier(&self) -> bool {
        self.n_u == self.degree_u + 1 && self.n_v == self.degree_v + 1
    }

    /// Point only (cheaper than [`eval_derivs`](Self::eval_derivs)).
    pub fn eval(&self, u: f64, v: f64) -> Vec3 {
        let mut out = SurfacePoint::default();
        self.eval_into(u, v, 0, &mut out);
        out.p
    }

    /// Point and first derivatives (second derivatives left zero).
    pub fn eval_d1(&self, u: f64, v: f64) -> SurfacePoint {
        let mut out = SurfacePoint::default();
        self.eval_into(u, v, 1, &mut out);
        out
    }

    /// Point and all first and second partial derivatives. Parameters outside
    /// the domain are clamped to it. Allocation-free.
    #[inline]
    pub fn eval_derivs(&self, u: f64, v: f64) -> SurfacePoint {
        let mut out = SurfacePoint::default();
        self.eval_into(u, v, 2, &mut out);
        out
    }

    /// Evaluates up to derivative order `nd` (0, 1 or 2) into `out`.
    #[inline]
    pub fn eval_into(&self, u: f64, v: f64, nd: usize, out: &mut SurfacePoint) {
        let ((u0, u1), (v0, v1)) = self.domain();
        let u = u.clamp(u0, u1);
        let v = v.clamp(v0, v1);
        let (pu, pv) = (self.degree_u, self.degree_v);
        let mut nu = [[0.0; MAX_ORDER]; 3];
        let mut nv = [[0.0; MAX_ORDER]; 3];
        let (su, sv);
        if self.is_bezier() {
            su = pu;
            sv = pv;
            bernstein_ders(pu, (u - u0) / (u1 - u0), &mut nu);
            bernstein_ders(pv, (v - v0) / (v1 - v0), &mut nv);
            let (iu, iv) = (1.0 / (u1 - u0), 1.0 / (v1 - v0));
            for j in 0..=pu {
                nu[1][j] *= iu;
                nu[2][j] *= iu * iu;
            }
            for j in 0..=pv {
                nv[1][j] *= iv;
                nv[2][j] *= iv * iv;
            }
        } else {
            su = find_span(self.n_u, pu, u, &self.knots_u);
            sv = find_span(self.n_v, pv, v, &self.knots_v);
            ders_basis(su, u, pu, &self.knots_u, nd, &mut nu);
            ders_basis(sv, v, pv, &self.knots_v, nd, &mut nv);
        }
        // a[k][l] = ∂^{k+l} A / ∂u^k ∂v^l (homogeneous), for k+l <= nd.
        let mut a = [[[0.0f64; 4]; 3]; 3];
        let iu0 = su - pu;
        let iv0 = sv - pv;
        for i in 0..=pu {
            let row = &self.cw[(iu0 + i) * self.n_v + iv0..(iu0 + i) * self.n_v + iv0 + pv + 1];
            // t[l] = Σ_j N_v^{(l)}[j] P_{i,j}
            let mut t = [[0.0f64; 4]; 3];
            for (j, c) in row.iter().enumerate() {
                for l in 0..=nd {
                    let b = nv[l][j];
                    t[l][0] += b * c[0];
                    t[l][1] += b * c[1];
                    t[l][2] += b * c[2];
                    t[l][3] += b * c[3];
                }
            }
            for k in 0..=nd {
                let bu = nu[k][i];
                for l in 0..=(nd - k) {
                    for c in 0..4 {
                        a[k][l][c] += bu * t[l][c];
                    }
                }
            }
        }
        let v3 = |h: &[f64; 4]| Vec3::new(h[0], h[1], h[2]);
        if !self.rational {
            out.p = v3(&a[0][0]);
            if nd >= 1 {
                out.su = v3(&a[1][0]);
                out.sv = v3(&a[0][1]);
            }
            if nd >= 2 {
                out.suu = v3(&a[2][0]);
                out.suv = v3(&a[1][1]);
                out.svv = v3(&a[0][2]);
            }
            return;
        }
        let w = a[0][0][3];
        let iw = 1.0 / w;
        let p = v3(&a[0][0]) * iw;
        out.p = p;
        if nd >= 1 {
            let (wu, wv) = (a[1][0][3], a[0][1][3]);
            let su = (v3(&a[1][0]) - p * wu) * iw;
            let sv = (v3(&a[0][1]) - p * wv) * iw;
            out.su = su;
            out.sv = sv;
            if nd >= 2 {
                let (wuu, wuv, wvv) = (a[2][0][3], a[1][1][3], a[0][2][3]);
                out.suu = (v3(&a[2][0]) - su * (2.0 * wu) - p * wuu) * iw;
                out.suv = (v3(&a[1][1]) - su * wv - sv * wu - p * wuv) * iw;
                out.svv = (v3(&a[0][2]) - sv * (2.0 * wv) - p * wvv) * iw;
            }
        }
    }

    /// Control-point bounding box `(min, max)` (a rational patch with positive
    /// weights lies inside the convex hull of its poles).
    pub fn hull_bbox(&self) -> (Vec3, Vec3) {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        for c in &self.cw {
            let p = Vec3::new(c[0] / c[3], c[1] / c[3], c[2] / c[3]);
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
        (lo, hi)
    }
}

/// Clamped Bézier knot vector `[0;p+1, 1;p+1]`.
pub fn bezier_knots(p: usize) -> Vec<f64> {
    let mut k = vec![0.0; p + 1];
    k.extend(std::iter::repeat_n(1.0, p + 1));
    k
}

//! NURBS surfaces (rational or not, any degree `1..=MAX_DEGREE`) on flat arrays,
//! with an allocation-free evaluator for the point and its five partial
//! derivatives (`f_u, f_v, f_uu, f_uv, f_vv`), one basis evaluation per call.

use super::basis::{bernstein_d2, bernstein_ders, ders_basis, find_span, span_basis_d2, MAX_DEGREE, MAX_ORDER};
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

    /// True when the surface is a single Bézier span in both directions
    /// (one span whose inner knots are clamped, so the basis is Bernstein's).
    #[inline]
    pub fn is_bezier(&self) -> bool {
        single_bezier_span(&self.knots_u, self.n_u, self.degree_u)
            && single_bezier_span(&self.knots_v, self.n_v, self.degree_v)
    }

    /// Like [`eval_derivs`](Self::eval_derivs) but refuses NaN parameters
    /// ([`GeomError::Parameter`]) instead of returning NaN.
    #[inline]
    pub fn try_eval_derivs(&self, u: f64, v: f64) -> Result<SurfacePoint, GeomError> {
        if u.is_nan() || v.is_nan() {
            return Err(GeomError::Parameter);
        }
        Ok(self.eval_derivs(u, v))
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
    /// the domain are clamped to it (a NaN parameter gives NaN output; see
    /// [`try_eval_derivs`](Self::try_eval_derivs)). Allocation-free.
    ///
    /// This is the runtime path. Degrees up to 5 in each direction (equal,
    /// or the pairs of the analytic primitives) run code specialised at
    /// compile time (fully unrolled basis and contraction), others a generic
    /// loop; rational and polynomial surfaces have separate paths; one basis
    /// evaluation per direction serves all six outputs. On x86-64 CPUs with
    /// AVX2 and FMA (detected once at run time) the same code is compiled for
    /// those features, with fused multiply-adds: results then differ from
    /// [`eval_derivs_portable`](Self::eval_derivs_portable) by rounding only.
    #[inline]
    pub fn eval_derivs(&self, u: f64, v: f64) -> SurfacePoint {
        #[cfg(target_arch = "x86_64")]
        {
            if cfg!(all(target_feature = "avx2", target_feature = "fma")) {
                return self.dispatch::<true>(u, v);
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: `eval_derivs_avx2_fma` only requires the AVX2 and FMA
                // instruction sets, which the running CPU was just checked to have.
                return unsafe { self.eval_derivs_avx2_fma(u, v) };
            }
        }
        self.dispatch::<false>(u, v)
    }

    /// [`eval_derivs`](Self::eval_derivs) without fused multiply-adds or
    /// wide vectors (baseline instruction set): bit-for-bit reproducible
    /// across x86-64 CPUs.
    #[inline]
    pub fn eval_derivs_portable(&self, u: f64, v: f64) -> SurfacePoint {
        self.dispatch::<false>(u, v)
    }

    /// The specialised evaluators compiled with AVX2 + FMA enabled.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn eval_derivs_avx2_fma(&self, u: f64, v: f64) -> SurfacePoint {
        self.dispatch::<true>(u, v)
    }

    /// One specialisation compiled with AVX2 + FMA enabled.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn eval_fixed_avx2_fma<const OU: usize, const OV: usize, const R: bool>(&self, u: f64, v: f64) -> SurfacePoint {
        self.eval_fixed::<OU, OV, R, true>(u, v)
    }

    /// `eval_fixed` for the AVX2 + FMA (`F`) or the portable path.
    #[inline(always)]
    fn fixed<const OU: usize, const OV: usize, const R: bool, const F: bool>(&self, u: f64, v: f64) -> SurfacePoint {
        #[cfg(target_arch = "x86_64")]
        if F {
            // SAFETY: `F` is only true inside `eval_derivs_avx2_fma` (entered
            // after checking the CPU for AVX2 and FMA) or when the crate is
            // compiled with both features enabled.
            return unsafe { self.eval_fixed_avx2_fma::<OU, OV, R>(u, v) };
        }
        self.eval_fixed::<OU, OV, R, false>(u, v)
    }

    /// Degree/rationality dispatch; `F` = the AVX2 + FMA path.
    #[inline(always)]
    fn dispatch<const F: bool>(&self, u: f64, v: f64) -> SurfacePoint {
        match (self.degree_u, self.degree_v, self.rational) {
            (1, 1, false) => self.fixed::<2, 2, false, F>(u, v),
            (2, 2, false) => self.fixed::<3, 3, false, F>(u, v),
            (3, 3, false) => self.fixed::<4, 4, false, F>(u, v),
            (4, 4, false) => self.fixed::<5, 5, false, F>(u, v),
            (5, 5, false) => self.fixed::<6, 6, false, F>(u, v),
            (1, 1, true) => self.fixed::<2, 2, true, F>(u, v),
            (2, 2, true) => self.fixed::<3, 3, true, F>(u, v),
            (3, 3, true) => self.fixed::<4, 4, true, F>(u, v),
            (4, 4, true) => self.fixed::<5, 5, true, F>(u, v),
            (5, 5, true) => self.fixed::<6, 6, true, F>(u, v),
            // analytic surfaces as NURBS: arcs × lines (cylinder, cone), arcs × arcs
            (2, 1, true) => self.fixed::<3, 2, true, F>(u, v),
            (1, 2, true) => self.fixed::<2, 3, true, F>(u, v),
            (3, 1, false) => self.fixed::<4, 2, false, F>(u, v),
            (1, 3, false) => self.fixed::<2, 4, false, F>(u, v),
            (3, 2, false) => self.fixed::<4, 3, false, F>(u, v),
            (2, 3, false) => self.fixed::<3, 4, false, F>(u, v),
            (_, _, false) => self.fixed::<MAX_ORDER, MAX_ORDER, false, F>(u, v),
            (_, _, true) => self.fixed::<MAX_ORDER, MAX_ORDER, true, F>(u, v),
        }
    }

    /// Basis functions of one direction: Bernstein on a single clamped span,
    /// else B-spline on the span found by binary search. Returns the first
    /// pole index and `[N, N′, N″]`.
    #[inline(always)]
    fn dir_basis<const O: usize>(knots: &[f64], n: usize, p: usize, t: f64) -> (usize, [[f64; O]; 3]) {
        let (t0, t1) = (knots[p], knots[n]);
        let t = t.clamp(t0, t1);
        if single_bezier_span(knots, n, p) {
            let inv = 1.0 / (t1 - t0);
            (0, bernstein_d2::<O>(p, (t - t0) * inv, inv))
        } else {
            let span = find_span(n, p, t, knots);
            (span - p, span_basis_d2::<O>(p, span, t, knots))
        }
    }

    /// The evaluator behind [`eval_derivs`](Self::eval_derivs): orders `OU`,
    /// `OV` fixed at compile time (or `MAX_ORDER` = use the runtime degrees),
    /// `R` = rational, `F` = fused multiply-add.
    #[inline(always)]
    fn eval_fixed<const OU: usize, const OV: usize, const R: bool, const F: bool>(
        &self,
        u: f64,
        v: f64,
    ) -> SurfacePoint {
        let pu = if OU < MAX_ORDER { OU - 1 } else { self.degree_u };
        let pv = if OV < MAX_ORDER { OV - 1 } else { self.degree_v };
        let (iu0, [nu0, nu1, nu2]) = Self::dir_basis::<OU>(&self.knots_u, self.n_u, pu, u);
        let (iv0, [nv0, nv1, nv2]) = Self::dir_basis::<OV>(&self.knots_v, self.n_v, pv, v);
        let nu = [nu0, nu1, nu2];
        let nv = [nv0, nv1, nv2];
        let acc = if F {
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: `F` is only true on the AVX2 + FMA path: inside
                // `eval_fixed_avx2_fma`, reached after checking the CPU (or
                // when the crate is compiled with both features).
                unsafe { simd::contract::<OU, OV>(&self.cw, self.n_v, iu0, iv0, pu, pv, &nu, &nv) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            contract_scalar::<OU, OV, R>(&self.cw, self.n_v, iu0, iv0, pu, pv, &nu, &nv)
        } else {
            contract_scalar::<OU, OV, R>(&self.cw, self.n_v, iu0, iv0, pu, pv, &nu, &nv)
        };
        const C: usize = 4;
        let v3 = |h: &[f64; C]| Vec3::new(h[0], h[1], h[2]);
        if !R {
            return SurfacePoint {
                p: v3(&acc[0]),
                su: v3(&acc[1]),
                sv: v3(&acc[2]),
                suu: v3(&acc[3]),
                suv: v3(&acc[4]),
                svv: v3(&acc[5]),
            };
        }
        let iw = 1.0 / acc[0][3];
        let (wu, wv, wuu, wuv, wvv) = (acc[1][3], acc[2][3], acc[3][3], acc[4][3], acc[5][3]);
        let p = v3(&acc[0]) * iw;
        let su = (v3(&acc[1]) - p * wu) * iw;
        let sv = (v3(&acc[2]) - p * wv) * iw;
        SurfacePoint {
            p,
            su,
            sv,
            suu: (v3(&acc[3]) - su * (2.0 * wu) - p * wuu) * iw,
            suv: (v3(&acc[4]) - su * wv - sv * wu - p * wuv) * iw,
            svv: (v3(&acc[5]) - sv * (2.0 * wv) - p * wvv) * iw,
        }
    }

    /// Evaluates up to derivative order `nd` (0, 1 or 2) into `out` with the
    /// general A2.3 basis routine (the reference path; [`eval_derivs`](Self::eval_derivs)
    /// is the fast one).
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

/// Tensor contraction of the poles of one span with the basis rows:
/// `[A, A_u, A_v, A_uu, A_uv, A_vv]` (homogeneous; the weight lane is left
/// at zero for polynomial surfaces). Row by row: `t_l = Σ_j N_v^{(l)}[j] P_ij`
/// (l = 0, 1, 2), then `∂A += N_u^{(k)}[i] t_l` for the six `(k, l)`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn contract_scalar<const OU: usize, const OV: usize, const R: bool>(
    cw: &[Hpoint],
    n_v: usize,
    iu0: usize,
    iv0: usize,
    pu: usize,
    pv: usize,
    nu: &[[f64; OU]; 3],
    nv: &[[f64; OV]; 3],
) -> [[f64; 4]; 6] {
    let nc = if R { 4 } else { 3 };
    let mut acc = [[0.0f64; 4]; 6];
    for i in 0..=pu {
        let base = (iu0 + i) * n_v + iv0;
        let row = &cw[base..base + pv + 1];
        let mut t = [[0.0f64; 4]; 3];
        for (j, c) in row.iter().enumerate() {
            let (b0, b1, b2) = (nv[0][j], nv[1][j], nv[2][j]);
            for q in 0..nc {
                t[0][q] += b0 * c[q];
                t[1][q] += b1 * c[q];
                t[2][q] += b2 * c[q];
            }
        }
        let (a0, a1, a2) = (nu[0][i], nu[1][i], nu[2][i]);
        for q in 0..nc {
            acc[0][q] += a0 * t[0][q];
            acc[1][q] += a1 * t[0][q];
            acc[2][q] += a0 * t[1][q];
            acc[3][q] += a2 * t[0][q];
            acc[4][q] += a1 * t[1][q];
            acc[5][q] += a0 * t[2][q];
        }
    }
    acc
}

/// The same contraction with one 4-wide fused multiply-add per pole update
/// (a homogeneous pole is exactly one `__m256d`).
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::Hpoint;
    use std::arch::x86_64::{
        __m256d, _mm256_castpd256_pd128, _mm256_extractf128_pd, _mm256_fmadd_pd, _mm256_set1_pd, _mm256_set_pd,
        _mm256_setzero_pd, _mm_cvtsd_f64, _mm_unpackhi_pd,
    };

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn lanes(x: __m256d) -> [f64; 4] {
        let lo = _mm256_castpd256_pd128(x);
        let hi = _mm256_extractf128_pd::<1>(x);
        [
            _mm_cvtsd_f64(lo),
            _mm_cvtsd_f64(_mm_unpackhi_pd(lo, lo)),
            _mm_cvtsd_f64(hi),
            _mm_cvtsd_f64(_mm_unpackhi_pd(hi, hi)),
        ]
    }

    /// See `contract_scalar`; all four lanes are always computed.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn contract<const OU: usize, const OV: usize>(
        cw: &[Hpoint],
        n_v: usize,
        iu0: usize,
        iv0: usize,
        pu: usize,
        pv: usize,
        nu: &[[f64; OU]; 3],
        nv: &[[f64; OV]; 3],
    ) -> [[f64; 4]; 6] {
        let z = _mm256_setzero_pd();
        let mut acc = [z; 6];
        for i in 0..=pu {
            let base = (iu0 + i) * n_v + iv0;
            let row = &cw[base..base + pv + 1];
            let (mut t0, mut t1, mut t2) = (z, z, z);
            for (j, c) in row.iter().enumerate() {
                let cv = _mm256_set_pd(c[3], c[2], c[1], c[0]);
                t0 = _mm256_fmadd_pd(_mm256_set1_pd(nv[0][j]), cv, t0);
                t1 = _mm256_fmadd_pd(_mm256_set1_pd(nv[1][j]), cv, t1);
                t2 = _mm256_fmadd_pd(_mm256_set1_pd(nv[2][j]), cv, t2);
            }
            let (a0, a1, a2) = (
                _mm256_set1_pd(nu[0][i]),
                _mm256_set1_pd(nu[1][i]),
                _mm256_set1_pd(nu[2][i]),
            );
            acc[0] = _mm256_fmadd_pd(a0, t0, acc[0]);
            acc[1] = _mm256_fmadd_pd(a1, t0, acc[1]);
            acc[2] = _mm256_fmadd_pd(a0, t1, acc[2]);
            acc[3] = _mm256_fmadd_pd(a2, t0, acc[3]);
            acc[4] = _mm256_fmadd_pd(a1, t1, acc[4]);
            acc[5] = _mm256_fmadd_pd(a0, t2, acc[5]);
        }
        [
            lanes(acc[0]),
            lanes(acc[1]),
            lanes(acc[2]),
            lanes(acc[3]),
            lanes(acc[4]),
            lanes(acc[5]),
        ]
    }
}

/// True when a knot vector with `n` poles of degree `p` is one Bézier span:
/// `n = p + 1` and `knots[1..=p]`, `knots[p+1..=2p]` constant (the outermost
/// knots do not influence the curve). Knots are non-decreasing, so comparing
/// the ends of each run suffices.
#[inline]
pub(crate) fn single_bezier_span(knots: &[f64], n: usize, p: usize) -> bool {
    n == p + 1 && knots[1] == knots[p] && knots[p + 1] == knots[2 * p]
}

/// Clamped Bézier knot vector `[0;p+1, 1;p+1]`.
pub fn bezier_knots(p: usize) -> Vec<f64> {
    let mut k = vec![0.0; p + 1];
    k.extend(std::iter::repeat_n(1.0, p + 1));
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The specialised fast path agrees with the general A2.3 path for every
    /// dispatched degree pair, rational or not, Bézier or multi-span.
    #[test]
    fn fast_path_matches_reference_path() {
        let knots = |p: usize, multi: bool| {
            let mut k = vec![0.0; p + 1];
            if multi {
                k.extend([0.3, 0.3, 0.55]);
            }
            k.extend(std::iter::repeat_n(1.0, p + 1));
            k
        };
        for pu in 1..=7 {
            for pv in 1..=7 {
                for (multi, rational) in [(false, false), (true, false), (false, true), (true, true)] {
                    let (ku, kv) = (knots(pu, multi), knots(pv, multi));
                    let (nu, nv) = (ku.len() - pu - 1, kv.len() - pv - 1);
                    let pts: Vec<[f64; 3]> = (0..nu * nv)
                        .map(|k| [k as f64, (k * k % 7) as f64, ((k as f64) * 0.9).sin()])
                        .collect();
                    let w: Vec<f64> = (0..nu * nv).map(|k| 0.5 + 0.25 * (k % 5) as f64).collect();
                    let s = NurbsSurface::try_new(pu, pv, ku, kv, nu, nv, &pts, rational.then_some(&w[..])).unwrap();
                    for (u, v) in [
                        (0.0, 0.0),
                        (0.3, 0.71),
                        (0.55, 0.3),
                        (1.0, 0.2),
                        (0.99, 1.0),
                        (-1.0, 2.0),
                    ] {
                        let a = s.eval_derivs(u, v);
                        let c = s.eval_derivs_portable(u, v);
                        assert!(
                            (a.suu - c.suu).norm() <= 1e-10 * (1.0 + c.suu.norm())
                                && (a.p - c.p).norm() <= 1e-12 * (1.0 + c.p.norm())
                        );
                        let mut b = SurfacePoint::default();
                        s.eval_into(u, v, 2, &mut b);
                        for (x, y) in [
                            (a.p, b.p),
                            (a.su, b.su),
                            (a.sv, b.sv),
                            (a.suu, b.suu),
                            (a.suv, b.suv),
                            (a.svv, b.svv),
                        ] {
                            assert!(
                                (x - y).norm() <= 1e-10 * (1.0 + y.norm()),
                                "({pu},{pv}) multi={multi} rational={rational} at ({u},{v}): {x:?} vs {y:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

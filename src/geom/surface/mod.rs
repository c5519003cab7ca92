//! NURBS surfaces (rational or not, any degree `1..=MAX_DEGREE`) on flat arrays,
//! with an allocation-free evaluator for the point and its five partial
//! derivatives (`f_u, f_v, f_uu, f_uv, f_vv`), one basis evaluation per call.
//!
//! - this file: [`SurfacePoint`], [`NurbsSurface`] (construction,
//!   validation, accessors) and the evaluation entry points;
//! - `span_table.rs`: the [`SpanTable`], the per-span Bézier form the fast
//!   evaluator reads, and the choice of its kernel;
//! - `specialised.rs`: the degree-specialised evaluator behind
//!   [`NurbsSurface::eval_derivs`] (scalar contraction; the AVX2 + FMA
//!   kernels are in [`geom::simd`](super::simd));
//! - `reference.rs`: the general A2.3 reference path [`NurbsSurface::eval_into`].

mod reference;
mod span_table;
mod specialised;

pub use span_table::SpanTable;

use super::basis::MAX_DEGREE;
use super::{GeomError, Hpoint, Vec3};

/// Point and partial derivatives of a surface at `(u, v)` (`repr(C)`: 18
/// contiguous `f64`, which the vector evaluator writes directly).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
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

// the layout the AVX2 kernels of `geom::simd` rely on
const _: () = assert!(std::mem::size_of::<Vec3>() == 24 && std::mem::size_of::<SurfacePoint>() == 144);

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
///
/// The constructors also build [`SpanTable`] `table`, the per-span Bézier
/// form the fast evaluator reads. The other fields stay public for reading;
/// a surface assembled or edited field by field (struct update syntax,
/// assignment) no longer matches its table and is evaluated by the general
/// path, with the same results but slower, until [`with_table`](Self::with_table)
/// rebuilds it. Editing poles or knots in place requires that call.
#[derive(Debug, PartialEq)]
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
    /// Evaluation data derived from the fields above (see the type's docs).
    pub table: SpanTable,
}

impl Clone for NurbsSurface {
    /// Clones the fields; the table is carried over and bound to the clone's
    /// own arrays when it matched the original.
    fn clone(&self) -> Self {
        let mut s = Self {
            degree_u: self.degree_u,
            degree_v: self.degree_v,
            knots_u: self.knots_u.clone(),
            knots_v: self.knots_v.clone(),
            n_u: self.n_u,
            n_v: self.n_v,
            cw: self.cw.clone(),
            rational: self.rational,
            table: SpanTable::default(),
        };
        if self.table.matches(self) {
            s.table = self.table.clone();
            s.table.key = s.key();
        }
        s
    }
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
    #[allow(clippy::too_many_arguments)]
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
            table: SpanTable::default(),
        }
        .with_table())
    }

    /// The surface with its [`SpanTable`] rebuilt from the current fields
    /// (needed after editing fields directly; the constructors call it).
    pub fn with_table(mut self) -> Self {
        self.table = SpanTable::default();
        self.table = SpanTable::build(&self);
        self
    }

    /// Identity of the arrays and sizes the table depends on.
    #[inline(always)]
    fn key(&self) -> [usize; 6] {
        [
            self.cw.as_ptr() as usize,
            self.knots_u.as_ptr() as usize,
            self.knots_v.as_ptr() as usize,
            self.n_u,
            self.n_v,
            self.degree_u | self.degree_v << 8 | usize::from(self.rational) << 16,
        ]
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
    /// evaluation per direction serves all six outputs. The specialised
    /// degrees read the [`SpanTable`] (Bernstein basis on the span's Bézier
    /// poles, no division) through the evaluator picked when the table was
    /// built; a surface that no longer matches its table takes the B-spline
    /// path. On x86-64 CPUs with AVX2 and FMA (detected at run time) the same
    /// code is compiled for those features, with fused multiply-adds: results
    /// then differ from [`eval_derivs_portable`](Self::eval_derivs_portable)
    /// by rounding only.
    #[inline]
    pub fn eval_derivs(&self, u: f64, v: f64) -> SurfacePoint {
        if let (Some(k), true) = (self.table.kernel, self.table.matches(self)) {
            return k.eval(self, u, v);
        }
        self.eval_derivs_general(u, v)
    }

    /// [`eval_derivs`](Self::eval_derivs) without fused multiply-adds or
    /// wide vectors (baseline instruction set): bit-for-bit reproducible
    /// across x86-64 CPUs.
    #[inline]
    pub fn eval_derivs_portable(&self, u: f64, v: f64) -> SurfacePoint {
        self.dispatch(u, v, None)
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
    k.extend(std::iter::repeat(1.0).take(p + 1));
    k
}

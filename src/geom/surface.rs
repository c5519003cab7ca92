//! NURBS surfaces (rational or not, any degree `1..=MAX_DEGREE`) on flat arrays,
//! with an allocation-free evaluator for the point and its five partial
//! derivatives (`f_u, f_v, f_uu, f_uv, f_vv`), one basis evaluation per call.

use super::basis::{bernstein_d2, bernstein_ders, ders_basis, find_span, span_basis_d2, MAX_DEGREE, MAX_ORDER};
use super::{GeomError, Hpoint, Vec3};
use std::mem::MaybeUninit;

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

// the layout `simd::eval_block` relies on
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

/// Breakpoints of one direction: the distinct knots of the domain and the
/// reciprocal width of each span.
///
/// Up to five spans (the common case) also live in fixed arrays: the inner
/// breakpoints padded with `+∞` (`pad`), the span starts `lo` and widths
/// `iv`, so the span is a count of four comparisons that indexes them
/// without bounds checks.
#[derive(Debug, Clone, Default)]
struct Breaks {
    brk: Vec<f64>,
    inv: Vec<f64>,
    few: bool,
    t0: f64,
    t1: f64,
    pad: [f64; 4],
    lo: [f64; 5],
    iv: [f64; 5],
}

impl Breaks {
    fn of(knots: &[f64], n: usize, p: usize) -> Self {
        let mut brk: Vec<f64> = knots[p..=n].to_vec();
        brk.dedup();
        let inv: Vec<f64> = brk.windows(2).map(|w| 1.0 / (w[1] - w[0])).collect();
        let mut pad = [f64::INFINITY; 4];
        let mut lo = [0.0; 5];
        let mut iv = [0.0; 5];
        let few = inv.len() <= 5;
        if few {
            for (k, &x) in brk[1..brk.len() - 1].iter().enumerate() {
                pad[k] = x;
            }
            lo[..inv.len()].copy_from_slice(&brk[..inv.len()]);
            iv[..inv.len()].copy_from_slice(&inv);
        }
        Self {
            t0: brk[0],
            t1: brk[brk.len() - 1],
            brk,
            inv,
            few,
            pad,
            lo,
            iv,
        }
    }

    /// Span `k` holding `t` (clamped to the domain; the last span is closed on
    /// the right), the local Bézier parameter in it and the span's
    /// reciprocal width. A NaN parameter gives span 0 and a NaN local
    /// parameter.
    #[inline(always)]
    fn locate(&self, t: f64) -> (usize, f64, f64) {
        if self.few {
            // clamp without `f64::clamp`'s bound check; NaN stays NaN
            let t = if t < self.t0 {
                self.t0
            } else if t > self.t1 {
                self.t1
            } else {
                t
            };
            let c = &self.pad;
            let k = usize::from(c[0] <= t) + usize::from(c[1] <= t) + usize::from(c[2] <= t) + usize::from(c[3] <= t);
            let inv = self.iv[k];
            return (k, (t - self.lo[k]) * inv, inv);
        }
        let b = &self.brk[..];
        let last = b.len() - 1;
        let t = t.clamp(b[0], b[last]);
        let inner = &b[1..last];
        let k = if inner.len() <= 32 {
            // branch-free count of the inner breakpoints ≤ t
            inner.iter().map(|&x| usize::from(x <= t)).sum()
        } else {
            inner.partition_point(|&x| x <= t)
        };
        let inv = self.inv[k];
        (k, (t - b[k]) * inv, inv)
    }
}

/// Largest table, in homogeneous poles (2 MiB); larger multi-span surfaces
/// are evaluated by the general B-spline path.
const MAX_TABLE_POLES: usize = 1 << 16;

/// Per-span Bézier form of a [`NurbsSurface`] (derived data, built by the
/// constructors): for each direction the breakpoints and reciprocal span
/// widths, and for a multi-span surface the Bézier poles of every span pair
/// (obtained by knot insertion, so the geometry is the same to rounding),
/// `(p_u+1)(p_v+1)` homogeneous poles per pair, pairs u-major. A single
/// Bézier span reads the surface's own poles. Evaluation on the table needs
/// no knot-span search beyond a count of breakpoints and no division: the
/// basis is Bernstein's, scaled by the span's reciprocal width.
///
/// Built for the degree pairs with specialised evaluators and up to
/// `2^16` table poles; otherwise empty (the general path is used). Two
/// tables compare equal always (they are derived from the compared fields).
#[derive(Clone, Default)]
pub struct SpanTable {
    /// Identity of the data the table was built from (see `NurbsSurface::key`).
    key: [usize; 6],
    u: Breaks,
    v: Breaks,
    blocks: Vec<Hpoint>,
    built: bool,
    /// The specialised evaluator for this surface's degrees and rationality,
    /// chosen at build time (AVX2 + FMA when the CPU has both).
    kernel: Option<Kernel>,
}

/// A specialised evaluator reading the span table; it writes the result
/// into its last argument (no copy of the 144-byte result on return).
type Kernel = unsafe fn(&NurbsSurface, f64, f64, &mut MaybeUninit<SurfacePoint>);

/// The table evaluator for orders `OU`, `OV` (portable instruction set).
fn table_kernel<const OU: usize, const OV: usize, const R: bool>(
    s: &NurbsSurface,
    u: f64,
    v: f64,
    out: &mut MaybeUninit<SurfacePoint>,
) {
    out.write(s.eval_fixed::<OU, OV, R, false>(u, v, true));
}

/// The table evaluator compiled with AVX2 + FMA.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn table_kernel_avx2_fma<const OU: usize, const OV: usize, const R: bool>(
    s: &NurbsSurface,
    u: f64,
    v: f64,
    out: &mut MaybeUninit<SurfacePoint>,
) {
    let (blk, su, sv, scu, scv) = s.span_block::<OU, OV>(u, v);
    simd::eval_span::<OU, OV, R>(blk, su, sv, scu, scv, out);
}

/// Picks the table evaluator for a degree pair (`None` when there is no
/// specialisation), with AVX2 + FMA when the running CPU has both.
fn pick_kernel(pu: usize, pv: usize, rational: bool) -> Option<Kernel> {
    macro_rules! pick {
        ($k:ident) => {
            match (pu, pv, rational) {
                (1, 1, false) => Some($k::<2, 2, false> as Kernel),
                (2, 2, false) => Some($k::<3, 3, false> as Kernel),
                (3, 3, false) => Some($k::<4, 4, false> as Kernel),
                (4, 4, false) => Some($k::<5, 5, false> as Kernel),
                (5, 5, false) => Some($k::<6, 6, false> as Kernel),
                (1, 1, true) => Some($k::<2, 2, true> as Kernel),
                (2, 2, true) => Some($k::<3, 3, true> as Kernel),
                (3, 3, true) => Some($k::<4, 4, true> as Kernel),
                (4, 4, true) => Some($k::<5, 5, true> as Kernel),
                (5, 5, true) => Some($k::<6, 6, true> as Kernel),
                (2, 1, true) => Some($k::<3, 2, true> as Kernel),
                (1, 2, true) => Some($k::<2, 3, true> as Kernel),
                (3, 1, false) => Some($k::<4, 2, false> as Kernel),
                (1, 3, false) => Some($k::<2, 4, false> as Kernel),
                (3, 2, false) => Some($k::<4, 3, false> as Kernel),
                (2, 3, false) => Some($k::<3, 4, false> as Kernel),
                _ => None,
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        return pick!(table_kernel_avx2_fma);
    }
    pick!(table_kernel)
}

impl PartialEq for SpanTable {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for SpanTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpanTable")
            .field("built", &self.built)
            .field("spans", &(self.u.inv.len(), self.v.inv.len()))
            .field("blocks", &self.blocks.len())
            .finish()
    }
}

impl SpanTable {
    fn build(s: &NurbsSurface) -> Self {
        let Some(kernel) = pick_kernel(s.degree_u, s.degree_v, s.rational) else {
            return Self::default();
        };
        let u = Breaks::of(&s.knots_u, s.n_u, s.degree_u);
        let v = Breaks::of(&s.knots_v, s.n_v, s.degree_v);
        let (su, sv) = (u.inv.len(), v.inv.len());
        let per = (s.degree_u + 1) * (s.degree_v + 1);
        let blocks = if s.is_bezier() {
            Vec::new()
        } else {
            if su * sv * per > MAX_TABLE_POLES {
                return Self::default();
            }
            // the poles of `bezier_patches()`, without building the patches
            let (nu, nv, blocks) = s.bezier_blocks();
            if nu * nv != su * sv || blocks.len() != su * sv * per {
                return Self::default();
            }
            blocks
        };
        if !(u.inv.iter().chain(&v.inv).all(|x| x.is_finite() && *x > 0.0)
            && blocks.iter().flatten().all(|x| x.is_finite()))
        {
            return Self::default();
        }
        Self {
            key: s.key(),
            u,
            v,
            blocks,
            built: true,
            kernel: Some(kernel),
        }
    }

    /// True when this table was built from `s`'s current arrays.
    #[inline(always)]
    fn matches(&self, s: &NurbsSurface) -> bool {
        // branch-free word comparison (an array `==` calls memcmp)
        let (a, b) = (&self.key, s.key());
        let diff = (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) | (a[5] ^ b[5]);
        self.built & (diff == 0)
    }

    /// True when the table holds data (the fast evaluator is used while it
    /// matches its surface).
    pub fn is_built(&self) -> bool {
        self.built
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
            let mut out = MaybeUninit::uninit();
            // SAFETY: the table holds an AVX2 + FMA kernel only when the CPU
            // was checked for both when it was built (and a table is only
            // ever used on the machine that built it: it is not serialised).
            // Every kernel writes `out`.
            unsafe {
                k(self, u, v, &mut out);
                return out.assume_init();
            }
        }
        self.eval_derivs_general(u, v)
    }

    /// `eval_derivs` without a matching span table.
    #[inline(never)]
    fn eval_derivs_general(&self, u: f64, v: f64) -> SurfacePoint {
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
    fn eval_fixed_avx2_fma<const OU: usize, const OV: usize, const R: bool>(
        &self,
        u: f64,
        v: f64,
        tab: bool,
    ) -> SurfacePoint {
        self.eval_fixed::<OU, OV, R, true>(u, v, tab)
    }

    /// `eval_fixed` for the AVX2 + FMA (`F`) or the portable path.
    #[inline(always)]
    fn fixed<const OU: usize, const OV: usize, const R: bool, const F: bool>(
        &self,
        u: f64,
        v: f64,
        tab: bool,
    ) -> SurfacePoint {
        #[cfg(target_arch = "x86_64")]
        if F {
            // SAFETY: `F` is only true inside `eval_derivs_avx2_fma` (entered
            // after checking the CPU for AVX2 and FMA) or when the crate is
            // compiled with both features enabled.
            return unsafe { self.eval_fixed_avx2_fma::<OU, OV, R>(u, v, tab) };
        }
        self.eval_fixed::<OU, OV, R, false>(u, v, tab)
    }

    /// Degree/rationality dispatch; `F` = the AVX2 + FMA path. The span
    /// table is used when it matches the surface.
    #[inline(always)]
    fn dispatch<const F: bool>(&self, u: f64, v: f64) -> SurfacePoint {
        let t = self.table.matches(self);
        match (self.degree_u, self.degree_v, self.rational) {
            (1, 1, false) => self.fixed::<2, 2, false, F>(u, v, t),
            (2, 2, false) => self.fixed::<3, 3, false, F>(u, v, t),
            (3, 3, false) => self.fixed::<4, 4, false, F>(u, v, t),
            (4, 4, false) => self.fixed::<5, 5, false, F>(u, v, t),
            (5, 5, false) => self.fixed::<6, 6, false, F>(u, v, t),
            (1, 1, true) => self.fixed::<2, 2, true, F>(u, v, t),
            (2, 2, true) => self.fixed::<3, 3, true, F>(u, v, t),
            (3, 3, true) => self.fixed::<4, 4, true, F>(u, v, t),
            (4, 4, true) => self.fixed::<5, 5, true, F>(u, v, t),
            (5, 5, true) => self.fixed::<6, 6, true, F>(u, v, t),
            // analytic surfaces as NURBS: arcs × lines (cylinder, cone), arcs × arcs
            (2, 1, true) => self.fixed::<3, 2, true, F>(u, v, t),
            (1, 2, true) => self.fixed::<2, 3, true, F>(u, v, t),
            (3, 1, false) => self.fixed::<4, 2, false, F>(u, v, t),
            (1, 3, false) => self.fixed::<2, 4, false, F>(u, v, t),
            (3, 2, false) => self.fixed::<4, 3, false, F>(u, v, t),
            (2, 3, false) => self.fixed::<3, 4, false, F>(u, v, t),
            (_, _, false) => self.fixed::<MAX_ORDER, MAX_ORDER, false, F>(u, v, false),
            (_, _, true) => self.fixed::<MAX_ORDER, MAX_ORDER, true, F>(u, v, false),
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
    /// `R` = rational, `F` = fused multiply-add, `tab` = read the span table
    /// (Bernstein basis on the span's Bézier poles) instead of computing the
    /// B-spline basis from the knots.
    #[inline(always)]
    fn eval_fixed<const OU: usize, const OV: usize, const R: bool, const F: bool>(
        &self,
        u: f64,
        v: f64,
        tab: bool,
    ) -> SurfacePoint {
        let pu = if OU < MAX_ORDER { OU - 1 } else { self.degree_u };
        let pv = if OV < MAX_ORDER { OV - 1 } else { self.degree_v };
        if tab && OU < MAX_ORDER && OV < MAX_ORDER {
            let (blk, su, sv, scu, scv) = self.span_block::<OU, OV>(u, v);
            if F {
                #[cfg(target_arch = "x86_64")]
                {
                    let mut out = MaybeUninit::uninit();
                    // SAFETY: as below; `eval_span` writes `out`.
                    unsafe {
                        simd::eval_span::<OU, OV, R>(blk, su, sv, scu, scv, &mut out);
                        return out.assume_init();
                    }
                }
            }
            let nu = bernstein_d2::<OU>(pu, su, scu);
            let nv = bernstein_d2::<OV>(pv, sv, scv);
            let acc = contract_scalar::<OU, OV, R>(blk, OV, 0, 0, pu, pv, &nu, &nv);
            return Self::quotient::<R>(&acc);
        }
        let (iu0, nu) = Self::dir_basis::<OU>(&self.knots_u, self.n_u, pu, u);
        let (iv0, nv) = Self::dir_basis::<OV>(&self.knots_v, self.n_v, pv, v);
        let (poles, n_v) = (&self.cw[..], self.n_v);
        if F {
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: `F` is only true on the AVX2 + FMA path: inside
                // `eval_fixed_avx2_fma`, reached after checking the CPU (or
                // when the crate is compiled with both features).
                return unsafe { simd::eval_block::<OU, OV, R>(poles, n_v, iu0, iv0, pu, pv, &nu, &nv) };
            }
        }
        let acc = contract_scalar::<OU, OV, R>(poles, n_v, iu0, iv0, pu, pv, &nu, &nv);
        Self::quotient::<R>(&acc)
    }

    /// The span table's Bézier poles of the span holding `(u, v)` (contiguous,
    /// `OU × OV`, u-major; a single span reads the surface's own poles), the
    /// local parameters in it and its reciprocal widths. The table must
    /// match the surface.
    #[inline(always)]
    fn span_block<const OU: usize, const OV: usize>(&self, u: f64, v: f64) -> (&[Hpoint], f64, f64, f64, f64) {
        let t = &self.table;
        let (ku, su, scu) = t.u.locate(u);
        let (kv, sv, scv) = t.v.locate(v);
        let blk = if t.blocks.is_empty() {
            &self.cw[..OU * OV]
        } else {
            let b = (ku * t.v.inv.len() + kv) * (OU * OV);
            &t.blocks[b..b + OU * OV]
        };
        (blk, su, sv, scu, scv)
    }

    /// The surface point and derivatives from the homogeneous contraction
    /// `[A, A_u, A_v, A_uu, A_uv, A_vv]` (quotient rule when rational).
    #[inline(always)]
    fn quotient<const R: bool>(acc: &[[f64; 4]; 6]) -> SurfacePoint {
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
    #[allow(clippy::needless_range_loop)] // index loops over parallel basis/derivative arrays
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
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
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
    for i in 0..pu + 1 {
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
/// (a homogeneous pole is exactly one `__m256d`), and the rational quotient
/// rule on whole vectors.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Hpoint, MaybeUninit, SurfacePoint, MAX_ORDER};
    use std::arch::x86_64::{
        __m128d, __m256d, _mm256_blend_pd, _mm256_castpd128_pd256, _mm256_div_pd, _mm256_fmadd_pd, _mm256_fnmadd_pd,
        _mm256_loadu_pd, _mm256_mul_pd, _mm256_permute4x64_pd, _mm256_set1_pd, _mm256_setzero_pd, _mm256_storeu_pd,
        _mm_add_pd, _mm_fmadd_pd, _mm_fnmadd_pd, _mm_mul_pd, _mm_set1_pd, _mm_set_pd, _mm_setzero_pd, _mm_storeu_pd,
        _mm_sub_pd,
    };

    /// Bernstein basis of degree `p = O − 1` on two lanes at once (lane 0 at
    /// `t[0]`, lane 1 at `t[1]`), by the de Casteljau triangle
    /// `B^k_r = (1−t) B^{k−1}_r + t B^{k−1}_{r−1}`, with the unscaled
    /// derivative stencils read off the two levels below:
    /// `[B^p_r, B^{p−1}_{r−1} − B^{p−1}_r, B^{p−2}_{r−2} − 2 B^{p−2}_{r−1} + B^{p−2}_r]`.
    /// The first and second derivatives of the basis are these stencils
    /// times `p·s` and `p(p−1)·s²` (`s` = the span's reciprocal width).
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn bern_lanes<const O: usize>(t: __m128d) -> [[__m128d; O]; 3] {
        let p = O - 1;
        let z = _mm_setzero_pd();
        let s = _mm_sub_pd(_mm_set1_pd(1.0), t);
        // level 1
        let mut b = [z; O];
        b[0] = s;
        b[1] = t;
        let mut l1 = [z; O];
        let mut l2 = [z; O];
        if p == 1 {
            l1[0] = _mm_set1_pd(1.0);
        }
        if p == 2 {
            l2[0] = _mm_set1_pd(1.0);
        }
        for k in 2..O {
            // `b` holds level k − 1
            if k == p {
                l1 = b;
            }
            if k + 1 == p {
                l2 = b;
            }
            // level k from level k − 1
            let prev = b;
            b[k] = _mm_mul_pd(t, prev[k - 1]);
            for r in 1..k {
                b[r] = _mm_fmadd_pd(s, prev[r], _mm_mul_pd(t, prev[r - 1]));
            }
            b[0] = _mm_mul_pd(s, prev[0]);
        }
        let mut d1 = [z; O];
        let mut d2 = [z; O];
        for r in 0..O {
            d1[r] = match (r >= 1, r < p) {
                (true, true) => _mm_sub_pd(l1[r - 1], l1[r]),
                (true, false) => l1[r - 1],
                _ => _mm_sub_pd(z, l1[0]),
            };
            if p >= 2 {
                // B^{p−2} has p − 1 entries: indices 0..p−1
                let a = if r >= 2 { Some(l2[r - 2]) } else { None };
                let m = if r >= 1 && r - 1 < p - 1 { Some(l2[r - 1]) } else { None };
                let c = if r < p - 1 { Some(l2[r]) } else { None };
                let ac = match (a, c) {
                    (Some(a), Some(c)) => Some(_mm_add_pd(a, c)),
                    (Some(a), None) => Some(a),
                    (None, Some(c)) => Some(c),
                    (None, None) => None,
                };
                d2[r] = match (ac, m) {
                    (Some(ac), Some(m)) => _mm_fnmadd_pd(_mm_set1_pd(2.0), m, ac),
                    (Some(ac), None) => ac,
                    (None, Some(m)) => _mm_mul_pd(_mm_set1_pd(-2.0), m),
                    (None, None) => z,
                };
            }
        }
        [b, d1, d2]
    }

    /// The table evaluator's AVX2 + FMA path: the point and five partial
    /// derivatives on one Bézier span with poles `blk` (`OU × OV`, u-major),
    /// at local parameters `(tu, tv)` ∈ [0,1]² of a span with reciprocal
    /// widths `(su, sv)`. Both directions' bases are computed together on two
    /// lanes; the derivative scale factors are applied once to the sums.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn eval_span<const OU: usize, const OV: usize, const R: bool>(
        blk: &[Hpoint],
        tu: f64,
        tv: f64,
        su: f64,
        sv: f64,
        out: &mut MaybeUninit<SurfacePoint>,
    ) {
        let blk = &blk[..OU * OV];
        let t = _mm_set_pd(tv, tu);
        let lu = bern_lanes::<OU>(t);
        let lv: [[__m128d; OV]; 3] = if OU == OV {
            std::array::from_fn(|l| std::array::from_fn(|j| lu[l][j]))
        } else {
            bern_lanes::<OV>(t)
        };
        // The u basis as numbers and the v basis broadcast to whole vectors,
        // both in memory, read back through an opaque reference for each
        // row: every v-basis vector is then an operand of its multiply-add
        // straight from memory, and the rows are summed one after another
        // (left to itself the scheduler starts the sums of the lower-degree
        // stencils, ready first, for all rows at once and spills them).
        let mut bu = [[[0.0f64; 2]; OU]; 3];
        for l in 0..3 {
            for i in 0..OU {
                // SAFETY: `bu[l][i]` is two writable f64 (unaligned store).
                unsafe { _mm_storeu_pd(bu[l][i].as_mut_ptr(), lu[l][i]) };
            }
        }
        let nvb: [[__m256d; OV]; 3] = std::array::from_fn(|l| {
            std::array::from_fn(|j| _mm256_permute4x64_pd::<0x55>(_mm256_castpd128_pd256(lv[l][j])))
        });
        let z = _mm256_setzero_pd();
        let mut acc = [z; 6];
        for i in 0..OU {
            let (bu, nv) = if OV >= 4 {
                std::hint::black_box((&bu, &nvb))
            } else {
                (&bu, &nvb)
            };
            let row = &blk[i * OV..i * OV + OV];
            let (mut t0, mut t1, mut t2) = (z, z, z);
            for j in 0..OV {
                // SAFETY: `row[j]` is a `[f64; 4]`, four readable f64 (unaligned load).
                let c = unsafe { _mm256_loadu_pd(row[j].as_ptr()) };
                if j == 0 {
                    t0 = _mm256_mul_pd(nv[0][j], c);
                    t1 = _mm256_mul_pd(nv[1][j], c);
                    if OV > 2 {
                        t2 = _mm256_mul_pd(nv[2][j], c);
                    }
                } else {
                    t0 = _mm256_fmadd_pd(nv[0][j], c, t0);
                    t1 = _mm256_fmadd_pd(nv[1][j], c, t1);
                    if OV > 2 {
                        t2 = _mm256_fmadd_pd(nv[2][j], c, t2);
                    }
                }
            }
            let (a0, a1, a2) = (
                _mm256_set1_pd(bu[0][i][0]),
                _mm256_set1_pd(bu[1][i][0]),
                _mm256_set1_pd(bu[2][i][0]),
            );
            if i == 0 {
                acc[0] = _mm256_mul_pd(a0, t0);
                acc[1] = _mm256_mul_pd(a1, t0);
                acc[2] = _mm256_mul_pd(a0, t1);
                if OU > 2 {
                    acc[3] = _mm256_mul_pd(a2, t0);
                }
                acc[4] = _mm256_mul_pd(a1, t1);
                if OV > 2 {
                    acc[5] = _mm256_mul_pd(a0, t2);
                }
            } else {
                acc[0] = _mm256_fmadd_pd(a0, t0, acc[0]);
                acc[1] = _mm256_fmadd_pd(a1, t0, acc[1]);
                acc[2] = _mm256_fmadd_pd(a0, t1, acc[2]);
                if OU > 2 {
                    acc[3] = _mm256_fmadd_pd(a2, t0, acc[3]);
                }
                acc[4] = _mm256_fmadd_pd(a1, t1, acc[4]);
                if OV > 2 {
                    acc[5] = _mm256_fmadd_pd(a0, t2, acc[5]);
                }
            }
        }
        // derivative scale factors p·s and p(p−1)·s²
        let (pu, pv) = ((OU - 1) as f64, (OV - 1) as f64);
        let (c1u, c1v) = (pu * su, pv * sv);
        acc[1] = _mm256_mul_pd(acc[1], _mm256_set1_pd(c1u));
        acc[2] = _mm256_mul_pd(acc[2], _mm256_set1_pd(c1v));
        acc[3] = _mm256_mul_pd(acc[3], _mm256_set1_pd(c1u * (pu - 1.0) * su));
        acc[4] = _mm256_mul_pd(acc[4], _mm256_set1_pd(c1u * c1v));
        acc[5] = _mm256_mul_pd(acc[5], _mm256_set1_pd(c1v * (pv - 1.0) * sv));
        finish::<R>(acc, out);
    }

    /// Quotient rule (rational) and the overlapping stores into the result.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn finish<const R: bool>(mut acc: [__m256d; 6], out: &mut MaybeUninit<SurfacePoint>) {
        if R {
            // f = A/W and its derivatives, the weight lane broadcast
            let w = |x| _mm256_permute4x64_pd::<0xFF>(x);
            let iw = _mm256_div_pd(_mm256_set1_pd(1.0), w(acc[0]));
            let (wu, wv, wuu, wuv, wvv) = (w(acc[1]), w(acc[2]), w(acc[3]), w(acc[4]), w(acc[5]));
            let p = _mm256_mul_pd(acc[0], iw);
            let su = _mm256_mul_pd(_mm256_fnmadd_pd(p, wu, acc[1]), iw);
            let sv = _mm256_mul_pd(_mm256_fnmadd_pd(p, wv, acc[2]), iw);
            let two = _mm256_set1_pd(2.0);
            let suu = _mm256_fnmadd_pd(su, _mm256_mul_pd(two, wu), acc[3]);
            let suu = _mm256_mul_pd(_mm256_fnmadd_pd(p, wuu, suu), iw);
            let suv = _mm256_fnmadd_pd(sv, wu, _mm256_fnmadd_pd(su, wv, acc[4]));
            let suv = _mm256_mul_pd(_mm256_fnmadd_pd(p, wuv, suv), iw);
            let svv = _mm256_fnmadd_pd(sv, _mm256_mul_pd(two, wv), acc[5]);
            let svv = _mm256_mul_pd(_mm256_fnmadd_pd(p, wvv, svv), iw);
            acc = [p, su, sv, suu, suv, svv];
        }
        // SAFETY: `out` is a `SurfacePoint`: 18 contiguous f64 (see `store_point`).
        unsafe { store_point(&acc, out.as_mut_ptr().cast::<f64>()) };
    }

    /// Writes the 18 coordinates `acc[k][0..3]` (k = point, su, sv, suu,
    /// suv, svv) to `o[3k..3k+3]` with five overlapping 4-lane stores, so
    /// that a consumer's later load of any one coordinate, or of the `(y, z)`
    /// or `(x, y)` pair of one vector, reads from a single store (a load
    /// that spans two stores still in flight cannot be forwarded from them
    /// and waits for both to reach the cache: the old tail, a 2-lane and a
    /// 1-lane store, made the load of `svv`'s `(y, z)` wait so).
    /// Order: p, su, sv, suu (each also writes the next vector's x, which
    /// the next store rewrites); then `[·, svv.x, svv.y, svv.z]` at
    /// `o[14..18]`; then `[suv, svv.x]` at `o[12..16]`.
    ///
    /// # Safety
    /// `o` must be valid for writes of 18 f64; the CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn store_point(acc: &[__m256d; 6], o: *mut f64) {
        // SAFETY: every store is inside o[0..18] (the caller's contract).
        unsafe {
            for (k, a) in acc[..4].iter().enumerate() {
                _mm256_storeu_pd(o.add(3 * k), *a);
            }
            _mm256_storeu_pd(o.add(14), _mm256_permute4x64_pd::<0b10_01_00_00>(acc[5]));
            let tail = _mm256_blend_pd::<0b1000>(acc[4], _mm256_permute4x64_pd::<0>(acc[5]));
            _mm256_storeu_pd(o.add(12), tail);
        }
    }

    /// See `contract_scalar` and `NurbsSurface::eval_fixed`; all four lanes
    /// are always computed.
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn eval_block<const OU: usize, const OV: usize, const R: bool>(
        cw: &[Hpoint],
        n_v: usize,
        iu0: usize,
        iv0: usize,
        pu: usize,
        pv: usize,
        nu: &[[f64; OU]; 3],
        nv: &[[f64; OV]; 3],
    ) -> SurfacePoint {
        // compile-time trip counts when the orders are exact
        let pu = if OU < MAX_ORDER { OU - 1 } else { pu };
        let pv = if OV < MAX_ORDER { OV - 1 } else { pv };
        let z = _mm256_setzero_pd();
        let mut acc = [z; 6];
        for i in 0..pu + 1 {
            let base = (iu0 + i) * n_v + iv0;
            let row = &cw[base..base + pv + 1];
            let (mut t0, mut t1, mut t2) = (z, z, z);
            for (j, c) in row.iter().enumerate() {
                // SAFETY: `c` is a `[f64; 4]`, four readable f64 (unaligned load).
                let cv = unsafe { _mm256_loadu_pd(c.as_ptr()) };
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
        if R {
            // f = A/W and its derivatives, the weight lane broadcast
            let w = |x| _mm256_permute4x64_pd::<0xFF>(x);
            let iw = _mm256_div_pd(_mm256_set1_pd(1.0), w(acc[0]));
            let (wu, wv, wuu, wuv, wvv) = (w(acc[1]), w(acc[2]), w(acc[3]), w(acc[4]), w(acc[5]));
            let p = _mm256_mul_pd(acc[0], iw);
            let su = _mm256_mul_pd(_mm256_fnmadd_pd(p, wu, acc[1]), iw);
            let sv = _mm256_mul_pd(_mm256_fnmadd_pd(p, wv, acc[2]), iw);
            let two = _mm256_set1_pd(2.0);
            let suu = _mm256_fnmadd_pd(su, _mm256_mul_pd(two, wu), acc[3]);
            let suu = _mm256_mul_pd(_mm256_fnmadd_pd(p, wuu, suu), iw);
            let suv = _mm256_fnmadd_pd(sv, wu, _mm256_fnmadd_pd(su, wv, acc[4]));
            let suv = _mm256_mul_pd(_mm256_fnmadd_pd(p, wuv, suv), iw);
            let svv = _mm256_fnmadd_pd(sv, _mm256_mul_pd(two, wv), acc[5]);
            let svv = _mm256_mul_pd(_mm256_fnmadd_pd(p, wvv, svv), iw);
            acc = [p, su, sv, suu, suv, svv];
        }
        // overlapping stores straight into the result (`store_point`)
        let mut out = MaybeUninit::<SurfacePoint>::uninit();
        // SAFETY: `SurfacePoint` is `repr(C)` with six `Vec3` fields, 144
        // bytes in all (asserted at compile time next to its definition): 18
        // contiguous f64, all written by `store_point`; then it is initialised.
        unsafe {
            store_point(&acc, out.as_mut_ptr().cast::<f64>());
            out.assume_init()
        }
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
            k.extend(std::iter::repeat(1.0).take(p + 1));
            if multi && p % 2 == 1 {
                // unclamped ends (the domain is [k_p, k_n])
                for (i, x) in k.iter_mut().enumerate().take(p) {
                    *x -= 0.1 * (p - i) as f64;
                }
            }
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
                    assert_eq!(s.table.is_built(), pick_kernel(pu, pv, rational).is_some());
                    // the same surface without its table (general B-spline path)
                    let general = NurbsSurface {
                        cw: s.cw.clone(),
                        ..s.clone()
                    };
                    assert!(!general.table.matches(&general) && s.table.matches(&s) == s.table.is_built());
                    let copy = s.clone();
                    assert!(copy.table.matches(&copy) == s.table.is_built());
                    for (u, v) in [
                        (0.0, 0.0),
                        (0.3, 0.71),
                        (0.55, 0.3),
                        (1.0, 0.2),
                        (0.99, 1.0),
                        (-1.0, 2.0),
                    ] {
                        let mut b = SurfacePoint::default();
                        s.eval_into(u, v, 2, &mut b);
                        // AVX2/FMA and portable paths, with and without the table
                        for a in [
                            s.eval_derivs(u, v),
                            s.eval_derivs_portable(u, v),
                            general.eval_derivs(u, v),
                            general.eval_derivs_portable(u, v),
                        ] {
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
}

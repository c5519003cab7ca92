//! All the SIMD of the crate, and with it every `unsafe` of `geom` and of the
//! trackers: the AVX2 + FMA kernels of the surface evaluator (`kernels.rs`,
//! x86-64 only), the run-time detection of those instruction sets
//! ([`Avx2Fma`]) and the safe dispatch helpers that run code compiled for
//! them ([`with_avx2_fma`], [`Avx2Fma::run`], `TableKernel`).
//!
//! Code is compiled for AVX2 + FMA by inlining it into a
//! `#[target_feature(enable = "avx2,fma")]` function: a caller passes a
//! closure whose body (with its `#[inline(always)]` callees, e.g. a
//! tracker's whole tick and the surface evaluator) becomes the body of that
//! function. Holding an [`Avx2Fma`] proves the running CPU has both sets,
//! which is what makes these calls safe.

use super::{Hpoint, SurfacePoint};
use std::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
mod kernels;

/// Proof that the running CPU has AVX2 and FMA: only [`Avx2Fma::detect`]
/// makes one. Zero-sized; off x86-64 none can exist.
#[derive(Debug, Clone, Copy)]
pub struct Avx2Fma(Proof);

/// The content of an [`Avx2Fma`] (nothing).
#[cfg(target_arch = "x86_64")]
type Proof = ();

/// The content of an [`Avx2Fma`]: uninhabited off x86-64.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Debug, Clone, Copy)]
enum Proof {}

impl Avx2Fma {
    /// The proof, when the running CPU has AVX2 and FMA (std caches the
    /// detection, so this is a load and a test).
    #[inline]
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            return Some(Self(()));
        }
        None
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx2Fma {
    /// Runs `f` compiled with AVX2 + FMA enabled (inlined into a
    /// `#[target_feature]` function, out of line from the caller).
    #[inline(always)]
    pub fn run<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: `self` proves the running CPU has AVX2 and FMA, all that
        // `run_avx2_fma` requires.
        unsafe { run_avx2_fma(f) }
    }

    /// [`run`](Self::run) kept out of line (`#[inline(never)]`) even when
    /// called from code compiled for AVX2 + FMA.
    #[inline(always)]
    pub(crate) fn run_outlined<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: as in `run`.
        unsafe { run_avx2_fma_outlined(f) }
    }

    /// The point and five partial derivatives on one Bézier span of a span
    /// table (see `kernels::eval_span`).
    #[inline(always)]
    pub(crate) fn eval_span<const OU: usize, const OV: usize, const R: bool>(
        self,
        blk: &[Hpoint],
        tu: f64,
        tv: f64,
        su: f64,
        sv: f64,
    ) -> SurfacePoint {
        let mut out = MaybeUninit::uninit();
        // SAFETY: `self` proves the CPU has AVX2 and FMA, all that
        // `eval_span` requires; `eval_span` writes all 18 f64 of `out`
        // (`store_point`), which is then initialised.
        unsafe {
            kernels::eval_span::<OU, OV, R>(blk, tu, tv, su, sv, &mut out);
            out.assume_init()
        }
    }

    /// The vector contraction and quotient rule on the poles of a B-spline
    /// span (see `kernels::eval_block`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn eval_block<const OU: usize, const OV: usize, const R: bool>(
        self,
        cw: &[Hpoint],
        n_v: usize,
        iu0: usize,
        iv0: usize,
        pu: usize,
        pv: usize,
        nu: &[[f64; OU]; 3],
        nv: &[[f64; OV]; 3],
    ) -> SurfacePoint {
        // SAFETY: `self` proves the CPU has AVX2 and FMA, all that
        // `eval_block` requires.
        unsafe { kernels::eval_block::<OU, OV, R>(cw, n_v, iu0, iv0, pu, pv, nu, nv) }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Avx2Fma {
    /// Runs `f` compiled with AVX2 + FMA enabled (never reached here).
    #[inline(always)]
    pub fn run<R>(self, f: impl FnOnce() -> R) -> R {
        let _ = f;
        match self.0 {}
    }

    /// [`run`](Self::run) kept out of line (never reached here).
    #[inline(always)]
    pub(crate) fn run_outlined<R>(self, f: impl FnOnce() -> R) -> R {
        let _ = f;
        match self.0 {}
    }

    /// The span-table kernel (never reached here).
    #[inline(always)]
    pub(crate) fn eval_span<const OU: usize, const OV: usize, const R: bool>(
        self,
        _: &[Hpoint],
        _: f64,
        _: f64,
        _: f64,
        _: f64,
    ) -> SurfacePoint {
        match self.0 {}
    }

    /// The B-spline span kernel (never reached here).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn eval_block<const OU: usize, const OV: usize, const R: bool>(
        self,
        _: &[Hpoint],
        _: usize,
        _: usize,
        _: usize,
        _: usize,
        _: usize,
        _: &[[f64; OU]; 3],
        _: &[[f64; OV]; 3],
    ) -> SurfacePoint {
        match self.0 {}
    }
}

/// Runs `f` compiled with AVX2 + FMA when the running CPU has both (checked
/// here, at every call), else as it is (baseline instruction set).
///
/// Used by the trackers for a whole tick, so that the surface evaluator
/// inlines into code built for the same instruction sets. Nothing in `f`
/// is contracted into fused multiply-adds that was not one already: the
/// results are the same either way (the evaluator's own kernels differ by
/// rounding only, see `NurbsSurface::eval_derivs`).
#[inline(always)]
pub fn with_avx2_fma<R>(f: impl FnOnce() -> R) -> R {
    match Avx2Fma::detect() {
        Some(t) => t.run(f),
        None => f(),
    }
}

/// `f` compiled with AVX2 + FMA enabled.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2_fma<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `f` compiled with AVX2 + FMA enabled, never inlined.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
unsafe fn run_avx2_fma_outlined<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// A surface type the span-table kernels evaluate (the table's data and the
/// portable evaluation on it).
pub(crate) trait TableSurface {
    /// The portable evaluation on the span table, orders `OU × OV`,
    /// rational when `R`.
    fn eval_table_portable<const OU: usize, const OV: usize, const R: bool>(&self, u: f64, v: f64) -> SurfacePoint;

    /// The span table's Bézier poles of the span holding `(u, v)` (`OU × OV`,
    /// u-major), the local parameters in it and its reciprocal widths.
    fn span_block<const OU: usize, const OV: usize>(&self, u: f64, v: f64) -> (&[Hpoint], f64, f64, f64, f64);
}

/// A specialised evaluator of the span table of an `S`, picked once when the
/// table is built (AVX2 + FMA when the CPU has both) and called through a
/// pointer; it writes its result into its last argument (no copy of the
/// 144-byte result on return).
pub(crate) struct TableKernel<S>(unsafe fn(&S, f64, f64, &mut MaybeUninit<SurfacePoint>));

impl<S> Clone for TableKernel<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for TableKernel<S> {}

impl<S: TableSurface> TableKernel<S> {
    /// The kernel for orders `OU × OV`, rational when `R`: the AVX2 + FMA
    /// build given the proof, else the portable one.
    pub(crate) fn new<const OU: usize, const OV: usize, const R: bool>(isa: Option<Avx2Fma>) -> Self {
        match isa {
            #[cfg(target_arch = "x86_64")]
            Some(_) => Self(table_avx2_fma::<S, OU, OV, R>),
            #[cfg(not(target_arch = "x86_64"))]
            Some(t) => match t.0 {},
            None => Self(table_portable::<S, OU, OV, R>),
        }
    }

    /// Evaluates the surface `s` (whose table this kernel was picked for) at `(u, v)`.
    #[inline(always)]
    pub(crate) fn eval(self, s: &S, u: f64, v: f64) -> SurfacePoint {
        let mut out = MaybeUninit::uninit();
        // SAFETY: a kernel is the portable one or, made by `new` from a proof
        // that the running CPU has AVX2 and FMA, the AVX2 + FMA one (a table
        // is only ever used in the process that built it: it is not
        // serialised). Both write all of `out`.
        unsafe {
            (self.0)(s, u, v, &mut out);
            out.assume_init()
        }
    }
}

/// The table kernel for the baseline instruction set.
fn table_portable<S: TableSurface, const OU: usize, const OV: usize, const R: bool>(
    s: &S,
    u: f64,
    v: f64,
    out: &mut MaybeUninit<SurfacePoint>,
) {
    out.write(s.eval_table_portable::<OU, OV, R>(u, v));
}

/// The table kernel compiled with AVX2 + FMA.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn table_avx2_fma<S: TableSurface, const OU: usize, const OV: usize, const R: bool>(
    s: &S,
    u: f64,
    v: f64,
    out: &mut MaybeUninit<SurfacePoint>,
) {
    let (blk, su, sv, scu, scv) = s.span_block::<OU, OV>(u, v);
    kernels::eval_span::<OU, OV, R>(blk, su, sv, scu, scv, out);
}

//! The AVX2 + FMA kernels of the surface evaluator: the tensor contraction
//! with one 4-wide fused multiply-add per pole update (a homogeneous pole is
//! exactly one `__m256d`), the two-lane Bernstein basis of the span table,
//! and the rational quotient rule on whole vectors, stored straight into a
//! [`SurfacePoint`].

use crate::geom::basis::MAX_ORDER;
use crate::geom::{Hpoint, SurfacePoint};
use std::arch::x86_64::{
    __m128d, __m256d, _mm256_blend_pd, _mm256_castpd128_pd256, _mm256_div_pd, _mm256_fmadd_pd, _mm256_fnmadd_pd,
    _mm256_loadu_pd, _mm256_mul_pd, _mm256_permute4x64_pd, _mm256_set1_pd, _mm256_setzero_pd, _mm256_storeu_pd,
    _mm_add_pd, _mm_fmadd_pd, _mm_fnmadd_pd, _mm_mul_pd, _mm_set1_pd, _mm_set_pd, _mm_setzero_pd, _mm_storeu_pd,
    _mm_sub_pd,
};
use std::mem::MaybeUninit;

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

//! The degree-specialised evaluator behind [`NurbsSurface::eval_derivs`]:
//! the dispatch on degrees and rationality to code with compile-time orders,
//! the basis of each direction (Bernstein on the span table, else B-spline),
//! the scalar tensor contraction and the quotient rule. The AVX2 + FMA
//! build of the same code and its vector contraction are in
//! [`geom::simd`](crate::geom::simd).

use super::{single_bezier_span, NurbsSurface, SurfacePoint};
use crate::geom::basis::{bernstein_d2, find_span, span_basis_d2, MAX_ORDER};
use crate::geom::simd::{Avx2Fma, TableSurface};
use crate::geom::{Hpoint, Vec3};

impl NurbsSurface {
    /// `eval_derivs` without a matching span table.
    #[inline(never)]
    pub(super) fn eval_derivs_general(&self, u: f64, v: f64) -> SurfacePoint {
        if let Some(t) = Avx2Fma::detect() {
            if cfg!(all(target_feature = "avx2", target_feature = "fma")) {
                return self.dispatch(u, v, Some(t));
            }
            // the specialised evaluators compiled with AVX2 + FMA enabled
            return t.run(|| self.dispatch(u, v, Some(t)));
        }
        self.dispatch(u, v, None)
    }

    /// `eval_fixed` for the AVX2 + FMA (`isa` given) or the portable path;
    /// each AVX2 + FMA specialisation is compiled out of line.
    #[inline(always)]
    fn fixed<const OU: usize, const OV: usize, const R: bool>(
        &self,
        u: f64,
        v: f64,
        tab: bool,
        isa: Option<Avx2Fma>,
    ) -> SurfacePoint {
        if let Some(t) = isa {
            return t.run_outlined(move || self.eval_fixed::<OU, OV, R>(u, v, tab, Some(t)));
        }
        self.eval_fixed::<OU, OV, R>(u, v, tab, None)
    }

    /// Degree/rationality dispatch; `isa` = the AVX2 + FMA path. The span
    /// table is used when it matches the surface.
    #[inline(always)]
    pub(super) fn dispatch(&self, u: f64, v: f64, isa: Option<Avx2Fma>) -> SurfacePoint {
        let t = self.table.matches(self);
        match (self.degree_u, self.degree_v, self.rational) {
            (1, 1, false) => self.fixed::<2, 2, false>(u, v, t, isa),
            (2, 2, false) => self.fixed::<3, 3, false>(u, v, t, isa),
            (3, 3, false) => self.fixed::<4, 4, false>(u, v, t, isa),
            (4, 4, false) => self.fixed::<5, 5, false>(u, v, t, isa),
            (5, 5, false) => self.fixed::<6, 6, false>(u, v, t, isa),
            (1, 1, true) => self.fixed::<2, 2, true>(u, v, t, isa),
            (2, 2, true) => self.fixed::<3, 3, true>(u, v, t, isa),
            (3, 3, true) => self.fixed::<4, 4, true>(u, v, t, isa),
            (4, 4, true) => self.fixed::<5, 5, true>(u, v, t, isa),
            (5, 5, true) => self.fixed::<6, 6, true>(u, v, t, isa),
            // analytic surfaces as NURBS: arcs × lines (cylinder, cone), arcs × arcs
            (2, 1, true) => self.fixed::<3, 2, true>(u, v, t, isa),
            (1, 2, true) => self.fixed::<2, 3, true>(u, v, t, isa),
            (3, 1, false) => self.fixed::<4, 2, false>(u, v, t, isa),
            (1, 3, false) => self.fixed::<2, 4, false>(u, v, t, isa),
            (3, 2, false) => self.fixed::<4, 3, false>(u, v, t, isa),
            (2, 3, false) => self.fixed::<3, 4, false>(u, v, t, isa),
            (_, _, false) => self.fixed::<MAX_ORDER, MAX_ORDER, false>(u, v, false, isa),
            (_, _, true) => self.fixed::<MAX_ORDER, MAX_ORDER, true>(u, v, false, isa),
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
    /// `R` = rational, `isa` = the AVX2 + FMA kernels (fused multiply-adds),
    /// `tab` = read the span table
    /// (Bernstein basis on the span's Bézier poles) instead of computing the
    /// B-spline basis from the knots.
    #[inline(always)]
    pub(super) fn eval_fixed<const OU: usize, const OV: usize, const R: bool>(
        &self,
        u: f64,
        v: f64,
        tab: bool,
        isa: Option<Avx2Fma>,
    ) -> SurfacePoint {
        let pu = if OU < MAX_ORDER { OU - 1 } else { self.degree_u };
        let pv = if OV < MAX_ORDER { OV - 1 } else { self.degree_v };
        if tab && OU < MAX_ORDER && OV < MAX_ORDER {
            let (blk, su, sv, scu, scv) = self.span_block::<OU, OV>(u, v);
            if let Some(t) = isa {
                return t.eval_span::<OU, OV, R>(blk, su, sv, scu, scv);
            }
            let nu = bernstein_d2::<OU>(pu, su, scu);
            let nv = bernstein_d2::<OV>(pv, sv, scv);
            let acc = contract_scalar::<OU, OV, R>(blk, OV, 0, 0, pu, pv, &nu, &nv);
            return Self::quotient::<R>(&acc);
        }
        let (iu0, nu) = Self::dir_basis::<OU>(&self.knots_u, self.n_u, pu, u);
        let (iv0, nv) = Self::dir_basis::<OV>(&self.knots_v, self.n_v, pv, v);
        let (poles, n_v) = (&self.cw[..], self.n_v);
        if let Some(t) = isa {
            return t.eval_block::<OU, OV, R>(poles, n_v, iu0, iv0, pu, pv, &nu, &nv);
        }
        let acc = contract_scalar::<OU, OV, R>(poles, n_v, iu0, iv0, pu, pv, &nu, &nv);
        Self::quotient::<R>(&acc)
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
                    assert_eq!(
                        s.table.is_built(),
                        super::super::span_table::pick_kernel(pu, pv, rational).is_some()
                    );
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

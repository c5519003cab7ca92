//! The reference evaluator [`NurbsSurface::eval_into`]: the general A2.3
//! B-spline basis routine (any degree, derivative order 0, 1 or 2), against
//! which the fast path is tested.

use super::{NurbsSurface, SurfacePoint};
use crate::geom::basis::{bernstein_ders, ders_basis, find_span, MAX_ORDER};
use crate::geom::Vec3;

impl NurbsSurface {
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
}

//! The trimmed area of a traced [`Region`] by Green's theorem.
//!
//! `∮ F db` with `F(a, b) = ∫_{a0}^{a} J(s, b) ds` (`J = |S_a × S_b|`),
//! each loop signed by the side the face lies on (probed with the
//! point-in-face test), plus the part of the seam `a = a0 + P` inside the
//! face. The quadrature error is estimated by a second rule on the same
//! loops (Simpson against 3-point Gauss) and a second rule for `F` (5
//! against 8 Gauss points).

use super::Region;
use crate::import::model::Surface;
use crate::verify::piece::{G5, G8};

impl Region<'_> {
    /// Knot values of a B-spline in `a` (breaks for the quadrature of `F`).
    pub(super) fn knot_breaks(&self) -> Vec<f64> {
        let mut s = self.surface();
        while let Surface::Trimmed { basis, .. } = s {
            s = basis;
        }
        match s {
            Surface::BSpline(b) => {
                let mut k: Vec<f64> = if self.swap {
                    b.knots_v.clone()
                } else {
                    b.knots_u.clone()
                };
                k.dedup();
                k
            }
            _ => Vec::new(),
        }
    }

    /// `J(a, b)`.
    fn jac(&self, a: f64, b: f64) -> f64 {
        let a = match self.period[0] {
            Some(p) => self.a_lo + (a - self.a_lo).rem_euclid(p),
            None => a,
        };
        let (_, sa, sb) = self.derivs([a, b]);
        sa.cross(&sb).norm()
    }

    /// `F(a, b) = ∫_{a0}^{a} J(s, b) ds` with `a` taken modulo the period,
    /// by the Gauss rule `g` on the knot spans (at most 8 sub-intervals
    /// otherwise).
    fn f(&self, a: f64, b: f64, g: &[(f64, f64)]) -> f64 {
        let a = match self.period[0] {
            Some(p) => self.a0 + (a - self.a0).rem_euclid(p),
            None => a,
        };
        match self.surface() {
            Surface::Plane { .. } => return a - self.a0,
            Surface::Cylinder { .. }
            | Surface::Cone { .. }
            | Surface::Sphere { .. }
            | Surface::Torus { .. }
            | Surface::Revolution { .. }
                if !self.swap =>
            {
                return (a - self.a0) * self.jac(self.a0, b);
            }
            _ => {}
        }
        let (lo, hi, sign) = if a >= self.a0 {
            (self.a0, a, 1.0)
        } else {
            (a, self.a0, -1.0)
        };
        if hi <= lo {
            return 0.0;
        }
        let full = self.period[0].unwrap_or((self.bbox[1][0] - self.bbox[0][0]).max(1e-300));
        let mut cuts = vec![lo];
        let shifts: &[f64] = match self.period[0] {
            Some(p) => &[-p, 0.0, p],
            None => &[0.0],
        };
        for sh in shifts {
            cuts.extend(self.breaks.iter().map(|k| k + sh).filter(|&k| k > lo && k < hi));
        }
        if let Some(p) = self.period[0] {
            cuts.extend([self.a_lo, self.a_lo + p].into_iter().filter(|&k| k > lo && k < hi));
        }
        cuts[1..].sort_by(f64::total_cmp);
        cuts.push(hi);
        let mut s = 0.0;
        for w in cuts.windows(2) {
            let k = (((w[1] - w[0]) / full * 8.0).ceil() as usize).clamp(1, 8);
            let h = (w[1] - w[0]) / k as f64;
            for i in 0..k {
                for &(x, wt) in g {
                    s += wt * h * self.jac(w[0] + (i as f64 + x) * h, b);
                }
            }
        }
        sign * s
    }

    /// The face's trimmed area, mm², from the Model's boundary, and an
    /// estimate of its quadrature error.
    pub fn area(&self) -> (f64, f64) {
        let (mut sum_g, mut sum_s) = (0.0, 0.0);
        let mut f_err = 0.0f64;
        let mut seam_b: Vec<f64> = Vec::new();
        for l in &self.loops {
            let sign = if l.left { 1.0 } else { -1.0 };
            let n = l.nodes.len();
            for (i, nd) in l.nodes.iter().enumerate() {
                if !nd.seam && nd.db != 0.0 && (nd.wg > 0.0 || nd.ws > 0.0) {
                    let f = self.f(nd.ab[0], nd.ab[1], &G8);
                    sum_g += sign * f * nd.db * nd.wg;
                    sum_s += sign * f * nd.db * nd.ws;
                    if nd.ws > 0.0 && nd.wg > 0.0 {
                        // a midpoint: the error of F
                        let f5 = self.f(nd.ab[0], nd.ab[1], &G5);
                        f_err = f_err.max((f - f5).abs() / f.abs().max(1e-300));
                    }
                }
                // seam crossings (a = a0 mod P) between consecutive nodes
                if let Some(p) = self.period[0] {
                    let q = l.nodes[(i + 1) % n].ab;
                    if (nd.seam && l.nodes[(i + 1) % n].seam) || self.wraps(nd.ab, q) {
                        continue;
                    }
                    let (k0, k1) = (((nd.ab[0] - self.a0) / p).floor(), ((q[0] - self.a0) / p).floor());
                    if k0 != k1 {
                        let x = self.a0 + k0.max(k1) * p;
                        let t = (x - nd.ab[0]) / (q[0] - nd.ab[0]);
                        seam_b.push(nd.ab[1] + t * (q[1] - nd.ab[1]));
                    }
                }
            }
        }
        let mut strip = 0.0;
        if let Some(p) = self.period[0] {
            // the seam line a = a0 + P: inside intervals along b
            let (blo, bhi) = match self.period[1] {
                Some(pb) => (self.bbox[0][1], self.bbox[0][1] + pb),
                None => {
                    let nb = self.face.surface.natural_bounds();
                    let nb = if self.swap { nb.0 } else { nb.1 };
                    match nb {
                        Some((lo, hi)) => (lo, hi),
                        None => (self.bbox[0][1], self.bbox[1][1]),
                    }
                }
            };
            let mut cuts: Vec<f64> = seam_b
                .into_iter()
                .map(|b| match self.period[1] {
                    Some(pb) => blo + (b - blo).rem_euclid(pb),
                    None => b,
                })
                .filter(|b| *b > blo && *b < bhi)
                .collect();
            cuts.push(blo);
            cuts.push(bhi);
            cuts.sort_by(f64::total_cmp);
            cuts.dedup();
            for w in cuts.windows(2) {
                let (b0, b1) = (w[0], w[1]);
                if b1 - b0 <= 0.0 || !self.contains([self.a0, 0.5 * (b0 + b1)]) {
                    continue;
                }
                let k = 4;
                let h = (b1 - b0) / k as f64;
                for i in 0..k {
                    for &(x, wt) in &G8 {
                        strip += wt * h * self.f(self.a0 + p * (1.0 - 1e-15), b0 + (i as f64 + x) * h, &G8);
                    }
                }
            }
        }
        let area = sum_g + strip;
        let err = (sum_g - sum_s).abs() + f_err * area.abs() + 1e-12 * area.abs();
        (area, err)
    }
}

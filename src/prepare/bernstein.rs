//! Bivariate polynomials in tensor-product Bernstein form on `[0,1]²`:
//! derivative, product, sum and degree elevation, plus de Casteljau
//! subdivision of rational Bézier patches. Products work in the scaled basis
//! (`c_ij·C(p,i)·C(q,j)`), where multiplication is a plain convolution.
//!
//! The Bernstein coefficients bound the polynomial (convex-hull property): all
//! coefficients ≥ 0 ⇒ the polynomial is ≥ 0 on the square.

use crate::geom::Hpoint;

/// `C(n, k)` as f64.
pub fn binom(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut r = 1.0;
    for i in 0..k.min(n - k) {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

/// A polynomial of degree `(p, q)` with Bernstein coefficients `c[i·(q+1)+j]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Poly {
    /// Degree in s.
    pub p: usize,
    /// Degree in t.
    pub q: usize,
    /// Coefficients, s index outer.
    pub c: Vec<f64>,
}

impl Poly {
    /// The zero polynomial of degree `(p, q)`.
    pub fn zero(p: usize, q: usize) -> Self {
        Self {
            p,
            q,
            c: vec![0.0; (p + 1) * (q + 1)],
        }
    }
    /// Coefficient `(i, j)`.
    #[inline]
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.c[i * (self.q + 1) + j]
    }
    /// ∂/∂s (degree `p−1`; the zero polynomial of degree 0 when `p = 0`).
    pub fn ds(&self) -> Self {
        if self.p == 0 {
            return Self::zero(0, self.q);
        }
        let mut r = Self::zero(self.p - 1, self.q);
        for i in 0..self.p {
            for j in 0..=self.q {
                r.c[i * (self.q + 1) + j] = self.p as f64 * (self.at(i + 1, j) - self.at(i, j));
            }
        }
        r
    }
    /// ∂/∂t.
    pub fn dt(&self) -> Self {
        self.transpose().ds().transpose()
    }
    /// Swaps s and t.
    pub fn transpose(&self) -> Self {
        let mut r = Self::zero(self.q, self.p);
        for i in 0..=self.p {
            for j in 0..=self.q {
                r.c[j * (self.p + 1) + i] = self.at(i, j);
            }
        }
        r
    }
    /// Product.
    pub fn mul(&self, o: &Self) -> Self {
        let (p, q) = (self.p + o.p, self.q + o.q);
        let mut r = Self::zero(p, q);
        for i in 0..=self.p {
            for j in 0..=self.q {
                let a = self.at(i, j) * binom(self.p, i) * binom(self.q, j);
                if a == 0.0 {
                    continue;
                }
                for k in 0..=o.p {
                    for l in 0..=o.q {
                        r.c[(i + k) * (q + 1) + j + l] += a * o.at(k, l) * binom(o.p, k) * binom(o.q, l);
                    }
                }
            }
        }
        for i in 0..=p {
            for j in 0..=q {
                r.c[i * (q + 1) + j] /= binom(p, i) * binom(q, j);
            }
        }
        r
    }
    /// Degree elevated to `(p, q)` (each at least the current one).
    pub fn elevate(&self, p: usize, q: usize) -> Self {
        let mut r = self.clone();
        while r.p < p {
            let n = r.p + 1;
            let mut e = Self::zero(n, r.q);
            for i in 0..=n {
                for j in 0..=r.q {
                    let a = if i > 0 {
                        r.at(i - 1, j) * i as f64 / n as f64
                    } else {
                        0.0
                    };
                    let b = if i < n {
                        r.at(i, j) * (1.0 - i as f64 / n as f64)
                    } else {
                        0.0
                    };
                    e.c[i * (r.q + 1) + j] = a + b;
                }
            }
            r = e;
        }
        if r.q < q {
            r = r.transpose().elevate(q, 0).transpose();
        }
        r
    }
    /// `self + k·o` (degrees elevated to the larger).
    pub fn add_scaled(&self, o: &Self, k: f64) -> Self {
        let (p, q) = (self.p.max(o.p), self.q.max(o.q));
        let mut a = self.elevate(p, q);
        let b = o.elevate(p, q);
        for (x, y) in a.c.iter_mut().zip(&b.c) {
            *x += k * y;
        }
        a
    }
    /// Smallest and largest coefficient (bounds of the polynomial on the square).
    pub fn bounds(&self) -> (f64, f64) {
        self.c.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
    }
    /// Largest |coefficient|.
    pub fn max_abs(&self) -> f64 {
        self.c.iter().fold(0.0, |m: f64, x| m.max(x.abs()))
    }
}

/// The four homogeneous coordinate polynomials of a rational Bézier patch
/// with `(p+1)(q+1)` poles `cw` (u index outer).
pub fn coordinate_polys(p: usize, q: usize, cw: &[Hpoint]) -> [Poly; 4] {
    std::array::from_fn(|k| Poly {
        p,
        q,
        c: cw.iter().map(|h| h[k]).collect(),
    })
}

/// De Casteljau split of a Bézier patch's poles at `s = a` (u direction):
/// returns the `[0,a]` and `[a,1]` halves.
pub fn split_u(p: usize, q: usize, cw: &[Hpoint], a: f64) -> (Vec<Hpoint>, Vec<Hpoint>) {
    let mut left = vec![[0.0; 4]; cw.len()];
    let mut right = vec![[0.0; 4]; cw.len()];
    for j in 0..=q {
        let mut col: Vec<Hpoint> = (0..=p).map(|i| cw[i * (q + 1) + j]).collect();
        for r in 0..=p {
            left[r * (q + 1) + j] = col[0];
            right[(p - r) * (q + 1) + j] = col[p - r];
            for i in 0..p - r {
                let next = col[i + 1];
                for (c, n) in col[i].iter_mut().zip(next) {
                    *c = (1.0 - a) * *c + a * n;
                }
            }
        }
    }
    (left, right)
}

/// Transposes a pole grid (u ↔ v).
pub fn transpose_poles(p: usize, q: usize, cw: &[Hpoint]) -> Vec<Hpoint> {
    let mut out = vec![[0.0; 4]; cw.len()];
    for i in 0..=p {
        for j in 0..=q {
            out[j * (p + 1) + i] = cw[i * (q + 1) + j];
        }
    }
    out
}

/// De Casteljau split at `t = a` (v direction).
pub fn split_v(p: usize, q: usize, cw: &[Hpoint], a: f64) -> (Vec<Hpoint>, Vec<Hpoint>) {
    let t = transpose_poles(p, q, cw);
    let (l, r) = split_u(q, p, &t, a);
    (transpose_poles(q, p, &l), transpose_poles(q, p, &r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(p: &Poly, s: f64, t: f64) -> f64 {
        let mut sum = 0.0;
        for i in 0..=p.p {
            for j in 0..=p.q {
                sum += p.at(i, j)
                    * binom(p.p, i)
                    * s.powi(i as i32)
                    * (1.0 - s).powi((p.p - i) as i32)
                    * binom(p.q, j)
                    * t.powi(j as i32)
                    * (1.0 - t).powi((p.q - j) as i32);
            }
        }
        sum
    }

    #[test]
    fn arithmetic_matches_evaluation() {
        let a = Poly {
            p: 2,
            q: 1,
            c: vec![1.0, -2.0, 0.5, 3.0, -1.0, 2.0],
        };
        let b = Poly {
            p: 1,
            q: 3,
            c: vec![0.3, 1.0, -0.7, 2.0, 1.5, -1.0, 0.2, 0.9],
        };
        let m = a.mul(&b);
        let e = a.elevate(4, 3);
        let sum = a.add_scaled(&b, -2.0);
        for (s, t) in [(0.1, 0.2), (0.5, 0.9), (0.77, 0.33)] {
            assert!((eval(&m, s, t) - eval(&a, s, t) * eval(&b, s, t)).abs() < 1e-12);
            assert!((eval(&e, s, t) - eval(&a, s, t)).abs() < 1e-12);
            assert!((eval(&sum, s, t) - (eval(&a, s, t) - 2.0 * eval(&b, s, t))).abs() < 1e-12);
            let h = 1e-6;
            let ds = (eval(&a, s + h, t) - eval(&a, s - h, t)) / (2.0 * h);
            let dt = (eval(&b, s, t + h) - eval(&b, s, t - h)) / (2.0 * h);
            assert!((eval(&a.ds(), s, t) - ds).abs() < 1e-6);
            assert!((eval(&b.dt(), s, t) - dt).abs() < 1e-6);
        }
    }
}

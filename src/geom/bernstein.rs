//! Bivariate polynomials in tensor-product Bernstein form on `[0,1]²`:
//! derivative, product, sum and degree elevation, plus de Casteljau
//! subdivision of rational Bézier patches. Products work in the scaled basis
//! (`c_ij·C(p,i)·C(q,j)`), where multiplication is a plain convolution.
//!
//! The Bernstein coefficients bound the polynomial (convex-hull property): all
//! coefficients ≥ 0 ⇒ the polynomial is ≥ 0 on the square.

use crate::geom::Hpoint;

#[cfg(test)]
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

/// The binomial coefficients `C(n, 0..=n)`.
fn binom_row(n: usize) -> Vec<f64> {
    let mut r = Vec::with_capacity(n + 1);
    let mut c = 1.0;
    for k in 0..=n {
        r.push(c);
        c = c * (n - k) as f64 / (k + 1) as f64;
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
    /// Product (a convolution in the scaled basis).
    pub fn mul(&self, o: &Self) -> Self {
        let (p, q) = (self.p + o.p, self.q + o.q);
        let (bp, bq, op, oq) = (binom_row(self.p), binom_row(self.q), binom_row(o.p), binom_row(o.q));
        let b: Vec<f64> = (0..=o.p)
            .flat_map(|k| (0..=o.q).map(move |l| (k, l)))
            .map(|(k, l)| o.at(k, l) * op[k] * oq[l])
            .collect();
        let mut r = Self::zero(p, q);
        for i in 0..=self.p {
            for j in 0..=self.q {
                let a = self.at(i, j) * bp[i] * bq[j];
                if a == 0.0 {
                    continue;
                }
                for k in 0..=o.p {
                    let row = &mut r.c[(i + k) * (q + 1) + j..(i + k) * (q + 1) + j + o.q + 1];
                    let src = &b[k * (o.q + 1)..(k + 1) * (o.q + 1)];
                    for (x, y) in row.iter_mut().zip(src) {
                        *x += a * y;
                    }
                }
            }
        }
        let (rp, rq) = (binom_row(p), binom_row(q));
        for i in 0..=p {
            for j in 0..=q {
                r.c[i * (q + 1) + j] /= rp[i] * rq[j];
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
    /// De Casteljau split at `s = a`: the polynomial on `[0,a]` and on `[a,1]`
    /// (each re-parameterised to `[0,1]` in s).
    pub fn split_s(&self, a: f64) -> (Self, Self) {
        let (p, q) = (self.p, self.q);
        let mut left = Self::zero(p, q);
        let mut right = Self::zero(p, q);
        let mut col = vec![0.0; p + 1];
        for j in 0..=q {
            for (i, c) in col.iter_mut().enumerate() {
                *c = self.at(i, j);
            }
            for r in 0..=p {
                left.c[r * (q + 1) + j] = col[0];
                right.c[(p - r) * (q + 1) + j] = col[p - r];
                for i in 0..p - r {
                    col[i] = (1.0 - a) * col[i] + a * col[i + 1];
                }
            }
        }
        (left, right)
    }
    /// De Casteljau split at `t = a`.
    pub fn split_t(&self, a: f64) -> (Self, Self) {
        let (l, r) = self.transpose().split_s(a);
        (l.transpose(), r.transpose())
    }
    /// The polynomial restricted to `[s0,s1]×[t0,t1]` ⊆ `[0,1]²`, re-parameterised to `[0,1]²`.
    pub fn restrict(&self, r: [f64; 4]) -> Self {
        let mut x = self.clone();
        if r[0] > 0.0 {
            x = x.split_s(r[0]).1;
        }
        if r[1] < 1.0 {
            x = x.split_s((r[1] - r[0]) / (1.0 - r[0])).0;
        }
        if r[2] > 0.0 {
            x = x.split_t(r[2]).1;
        }
        if r[3] < 1.0 {
            x = x.split_t((r[3] - r[2]) / (1.0 - r[2])).0;
        }
        x
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

/// The poles of a Bézier patch restricted to `[s0,s1]×[t0,t1]` ⊆ `[0,1]²`
/// and re-parameterised to `[0,1]²` (de Casteljau splits in the order of
/// [`Poly::restrict`]: u at `s0`, u at the rescaled `s1`, then v likewise).
///
/// This is the one definition of a piece's poles: the offline stage stores
/// exactly these values, and a packed scene re-derives them from the
/// surface's span ([`packed`](crate::scene::packed)), so the arithmetic must
/// not change without a new packed codec.
pub fn restrict_poles(p: usize, q: usize, cw: &[Hpoint], r: [f64; 4]) -> Vec<Hpoint> {
    let mut x = cw.to_vec();
    if r[0] > 0.0 {
        x = split_u(p, q, &x, r[0]).1;
    }
    if r[1] < 1.0 {
        x = split_u(p, q, &x, (r[1] - r[0]) / (1.0 - r[0])).0;
    }
    if r[2] > 0.0 {
        x = split_v(p, q, &x, r[2]).1;
    }
    if r[3] < 1.0 {
        x = split_v(p, q, &x, (r[3] - r[2]) / (1.0 - r[2])).0;
    }
    x
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
            let (l, r) = m.split_s(0.3);
            let (lo, hi) = m.split_t(0.6);
            assert!((eval(&l, s, t) - eval(&m, 0.3 * s, t)).abs() < 1e-12);
            assert!((eval(&r, s, t) - eval(&m, 0.3 + 0.7 * s, t)).abs() < 1e-12);
            assert!((eval(&lo, s, t) - eval(&m, s, 0.6 * t)).abs() < 1e-12);
            assert!((eval(&hi, s, t) - eval(&m, s, 0.6 + 0.4 * t)).abs() < 1e-12);
            let sub = m.restrict([0.2, 0.7, 0.1, 0.4]);
            assert!((eval(&sub, s, t) - eval(&m, 0.2 + 0.5 * s, 0.1 + 0.3 * t)).abs() < 1e-12);
        }
    }
}

//! The certificate of a singular cell end at a collapsed side (a cone's
//! apex, a pole): no generator leaving the apex leads nearer to the query,
//! tested on the Bernstein coefficients of the next row of poles restricted
//! to the cell's own range by de Casteljau.

use super::{SIDE, SINGULAR};
use crate::geom::{Vec3, MAX_DEGREE};
use crate::track::body::{BodyGeom, Item};

/// Pole `(m, depth)` of a side as `(i, j)`, given `(n_u, n_v)`.
type SidePole = fn(usize, usize, usize, usize) -> (usize, usize);

/// Whether the [`singular`] witness `x` of piece cell `c` lies on a side of
/// its piece collapsed to one point `A` (a cone's apex, a pole) from which
/// no generator *of the cell* leads nearer to `q`.
///
/// On a Bézier piece whose row of poles on that side is `A` (homogeneous
/// `w_i0 A`), the derivative across the side at a parameter `t` along it is
/// `S_v(t) = n f(t) / Σ B_i(t) w_i0`, with the vector polynomial
/// `f(t) = Σ B_i(t) (P^w_i1 − w_i1 A)` (`P^w_i1` the next row's homogeneous
/// poles; the terms of the collapsed row cancel). The distance does not
/// decrease to first order along the generator leaving `A` at `t` when
/// `g(t) = f(t)·(A − q) ≥ 0`, a scalar polynomial of degree `n` with
/// Bernstein coefficients `c_i = (P^w_i1 − w_i1 A)·(A − q)`. The cell
/// covers the range `[a, b]` of `t` (its rectangle's side along the
/// collapsed one), so only the generators of that range matter: `g` is
/// restricted to `[a, b]` by de Casteljau (the Bernstein coefficients of
/// `g(a + (b − a) s)`), and when every restricted coefficient is
/// non-negative so is `g` on `[a, b]` (Bernstein polynomials are
/// non-negative and sum to one). Every generator of the cell then leads
/// away from `q` or along the sphere about it, and the witness is a
/// stationary point of the distance on the cell's rectangle, not an
/// artefact of the collapsed parametrisation (`f_u = 0` there, so the
/// controller cannot move along the side to a generator that leads nearer)
/// — the same argument as for the whole side, applied to the cell, which is
/// all the cell's solve is asked for. All `c_i ≥ 0` on the whole side
/// implies the restricted ones (convex combinations of them), so the
/// restriction only certifies more. `false` (no certificate) anywhere
/// else. Coefficients within rounding of zero decide either way: the
/// first-order change they stand for is below the distance's round-off.
pub(super) fn apex_certified(body: &BodyGeom, c: u32, x: &[f64; 2], q: &Vec3) -> bool {
    let cell = &body.cells[c as usize];
    let Item::Piece(k) = cell.item else {
        return false;
    };
    let s = &body.pieces[k as usize].surface;
    let (nu, nv) = (s.n_u, s.n_v);
    if nu != s.degree_u + 1 || nv != s.degree_v + 1 || nu < 2 || nv < 2 || nu.max(nv) > MAX_DEGREE + 1 {
        return false;
    }
    let r = &cell.rect;
    // (is x on it, poles along it, pole (m, depth) of the side as (i, j),
    // the cell's range along it: `false` for u, `true` for v)
    let sides: [(bool, usize, SidePole, bool); 4] = [
        (x[1] <= SIDE, nu, |m, d, _, _| (m, d), false),
        (x[1] >= 1.0 - SIDE, nu, |m, d, _, nv| (m, nv - 1 - d), false),
        (x[0] <= SIDE, nv, |m, d, _, _| (d, m), true),
        (x[0] >= 1.0 - SIDE, nv, |m, d, nu, _| (nu - 1 - d, m), true),
    ];
    sides.iter().filter(|s| s.0).any(|&(_, len, at, along_v)| {
        let get = |m: usize, d: usize| {
            let (i, j) = at(m, d, nu, nv);
            s.cw[i * nv + j]
        };
        let h = get(0, 0);
        if h[3] <= 0.0 {
            return false;
        }
        let a = Vec3::new(h[0], h[1], h[2]) / h[3];
        let aq = a - q;
        // the cheap part first: the signs (no division), then the collapse
        let mut coef = [0.0f64; MAX_DEGREE + 1];
        let mut all_nonneg = true;
        for (m, cm) in coef.iter_mut().enumerate().take(len) {
            let h1 = get(m, 1);
            // (P^w_m1 − w_m1 A)·(A − q)
            *cm = (Vec3::new(h1[0], h1[1], h1[2]) - a * h1[3]).dot(&aq);
            all_nonneg &= *cm >= 0.0;
        }
        if !all_nonneg {
            let range = if along_v {
                bezier_range(&s.knots_v, s.degree_v, r[2], r[3])
            } else {
                bezier_range(&s.knots_u, s.degree_u, r[0], r[1])
            };
            if !bernstein_nonneg_on(&mut coef[..len], range) {
                return false;
            }
        }
        // the side is collapsed: its poles coincide (relative to the next row)
        let mut reach = 0.0f64;
        let mut spread = 0.0f64;
        for m in 0..len {
            let (h0, h1) = (get(m, 0), get(m, 1));
            if h0[3] <= 0.0 || h1[3] <= 0.0 {
                return false;
            }
            spread = spread.max((Vec3::new(h0[0], h0[1], h0[2]) / h0[3] - a).norm());
            reach = reach.max((Vec3::new(h1[0], h1[1], h1[2]) / h1[3] - a).norm());
        }
        spread <= SINGULAR * reach
    })
}

/// The range `[a, b]` of the parameter interval `[lo, hi]` of a Bézier
/// piece (knots `knots`, degree `p`) in its Bernstein parameter `[0, 1]`
/// (clamped to it).
#[inline]
pub(super) fn bezier_range(knots: &[f64], p: usize, lo: f64, hi: f64) -> [f64; 2] {
    let (k0, k1) = (knots[p], knots[p + 1]);
    let w = k1 - k0;
    let t = |x: f64| if w > 0.0 { ((x - k0) / w).clamp(0.0, 1.0) } else { x.clamp(0.0, 1.0) };
    [t(lo), t(hi)]
}

/// Whether the polynomial with Bernstein coefficients `c` on `[0, 1]` has
/// non-negative Bernstein coefficients on `range` = `[a, b]` (then it is
/// non-negative there). `c` is overwritten: de Casteljau at `b` keeps the
/// left part `[0, b]`, then at `a / b` keeps its right part `[a, b]`.
fn bernstein_nonneg_on(c: &mut [f64], range: [f64; 2]) -> bool {
    let [a, b] = range;
    let n = c.len();
    // left part [0, b]: the first element of each de Casteljau level
    if b < 1.0 {
        for r in 1..n {
            for i in (r..n).rev() {
                c[i] = (1.0 - b) * c[i - 1] + b * c[i];
            }
        }
    }
    // right part [a/b, 1] of that: the last element of each level
    if a > 0.0 {
        let t = if b > 0.0 { a / b } else { 0.0 };
        for r in 1..n {
            for i in 0..n - r {
                c[i] = (1.0 - t) * c[i] + t * c[i + 1];
            }
        }
    }
    c.iter().all(|&v| v >= 0.0)
}


#[cfg(test)]
mod tests {
    use super::{bernstein_nonneg_on, bezier_range};

    /// The value at `t` of the polynomial with Bernstein coefficients `c` on `[0, 1]`.
    fn bernstein_at(c: &[f64], t: f64) -> f64 {
        let mut v = c.to_vec();
        for r in 1..v.len() {
            for i in 0..v.len() - r {
                v[i] = (1.0 - t) * v[i] + t * v[i + 1];
            }
        }
        v[0]
    }

    #[test]
    fn a_bernstein_polynomial_restricted_to_a_cell_range_is_certified_where_it_is_positive() {
        // 6t² − 6t + 1: negative on (0.2113, 0.7887), positive outside
        let c = [1.0, -2.0, 1.0];
        let cert = |a: f64, b: f64| bernstein_nonneg_on(&mut c.clone(), [a, b]);
        assert!(cert(0.0, 0.2));
        assert!(cert(0.8, 1.0));
        assert!(!cert(0.0, 1.0));
        assert!(!cert(0.3, 0.7));
        assert!(!cert(0.0, 0.25));
        assert!(!cert(0.75, 1.0));
        // a point range: the value there
        assert!(cert(0.1, 0.1));
        assert!(!cert(0.5, 0.5));
    }

    #[test]
    fn a_certified_range_holds_no_negative_value() {
        // soundness over pseudo-random cubics and quintics and ranges (an LCG: no dependency)
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut certified, mut refused) = (0, 0);
        for trial in 0..2000 {
            let n = if trial % 2 == 0 { 4 } else { 6 };
            let c: Vec<f64> = (0..n).map(|_| rnd() * 2.0 - 0.6).collect();
            let (x, y) = (rnd(), rnd());
            let (a, b) = (x.min(y), x.max(y));
            if bernstein_nonneg_on(&mut c.clone(), [a, b]) {
                certified += 1;
                for k in 0..=64 {
                    let t = a + (b - a) * k as f64 / 64.0;
                    assert!(bernstein_at(&c, t) >= -1e-12, "{c:?} on [{a}, {b}] at {t}");
                }
            } else {
                refused += 1;
            }
        }
        // both outcomes occur (the test exercises the restriction)
        assert!(certified > 100 && refused > 100, "{certified} {refused}");
    }

    #[test]
    fn a_cell_range_maps_to_the_bezier_parameter() {
        // knots [2, 2, 2, 4, 4, 4]: the cell [2.5, 3] is [0.25, 0.5]
        let k = [2.0, 2.0, 2.0, 4.0, 4.0, 4.0];
        assert_eq!(bezier_range(&k, 2, 2.5, 3.0), [0.25, 0.5]);
        assert_eq!(bezier_range(&[0.0, 0.0, 1.0, 1.0], 1, 0.0, 1.0), [0.0, 1.0]);
    }
}

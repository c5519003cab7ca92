//! The certificate of a singular cell end at a collapsed side (a cone's
//! apex, a pole): no generator leaving the apex leads nearer to the query,
//! tested on the Bernstein coefficients of the next row of poles restricted
//! to the cell's own range by de Casteljau.

use super::{SIDE, SINGULAR};
use crate::geom::{NurbsSurface, Vec3, MAX_DEGREE};
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
///
/// **Coefficients at round-off: the second order decides.** Where the query
/// lies on the normal line of the apex (sw2013_tel10wi's corner blends: the
/// pole is the answer, 8.8e-4 mm away), `g` vanishes identically and its
/// computed coefficients are noise (−3.4e-16 at operands of 0.78 and 8.8e-4
/// mm, coordinates of 20 mm); the exact sign test refused by the sign of the
/// noise, and the cell was solved again from its quarters. A coefficient
/// within [`ROUND_UNITS`]` · ε` of the magnitudes it came from
/// ([`round_off`]) is therefore accepted as zero, but only where the
/// second-order change along every generator of the cell is positive: with
/// `S_v = f / W` and `S_vv = g₂ / W − 2 W_v f / W²` at the side (quotient
/// rule; `W` the weight, `g₂ = X_vv − W_vv A`), the squared distance along
/// the generator at `t` is `|A − q|² + 2 δ S_v·(A − q) + δ² C(t) + O(δ³)`
/// with `C = |S_v|² + S_vv·(A − q)`, and `W² C = |f|² + (A − q)·(W g₂ −
/// 2 W_v f)` is a polynomial of degree `2n` in `t` whose Bernstein
/// coefficients (products of Bernstein polynomials) restricted to the cell's
/// range must all exceed [`SECOND_MARGIN`] times `max |f_i|²`. Then a
/// first-order term at round-off (`|2 δ S_v·(A − q)| ≤ 2δτ`) lowers the
/// squared distance by at most `τ² / C`, far below its round-off. Without
/// the second-order test the tolerance would be wrong: a query inside a
/// sphere beyond its centre, on the pole's axis, has `g ≡ 0` too, but
/// `C = |S_v|²(1 − |A − q| / ρ) < 0` — the pole is the farthest point
/// along every generator — and must not be certified.
pub(super) fn apex_certified(body: &BodyGeom, c: u32, x: &[f64; 2], q: &Vec3) -> bool {
    let cell = &body.cells[c as usize];
    let Item::Piece(k) = cell.item else {
        return false;
    };
    side_certified(&body.pieces[k as usize].surface, &cell.rect, x, q)
}

/// Units of round-off, in `ε` times the magnitudes of its operands, within
/// which a first-order coefficient counts as zero ([`apex_certified`]).
const ROUND_UNITS: f64 = 16.0;

/// How far above zero, relative to `max |f_i|²` (the scale of `|S_v|²`),
/// the second-order coefficients must be ([`apex_certified`]; the saddle
/// test's [`SADDLE_CURVATURE`](crate::track::point_patch::SADDLE_CURVATURE)).
const SECOND_MARGIN: f64 = 1e-6;

/// [`apex_certified`] on the rectangle `r` of a Bézier surface `s`.
fn side_certified(s: &NurbsSurface, r: &[f64; 4], x: &[f64; 2], q: &Vec3) -> bool {
    let (nu, nv) = (s.n_u, s.n_v);
    if nu != s.degree_u + 1 || nv != s.degree_v + 1 || nu < 2 || nv < 2 || nu.max(nv) > MAX_DEGREE + 1 {
        return false;
    }
    // (is x on it, poles along it, poles across it, pole (m, depth) of the
    // side as (i, j), the cell's range along it: `false` for u, `true` for v)
    let sides: [(bool, usize, usize, SidePole, bool); 4] = [
        (x[1] <= SIDE, nu, nv, |m, d, _, _| (m, d), false),
        (x[1] >= 1.0 - SIDE, nu, nv, |m, d, _, nv| (m, nv - 1 - d), false),
        (x[0] <= SIDE, nv, nu, |m, d, _, _| (d, m), true),
        (x[0] >= 1.0 - SIDE, nv, nu, |m, d, nu, _| (nu - 1 - d, m), true),
    ];
    sides.iter().filter(|s| s.0).any(|&(_, len, across, at, along_v)| {
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
        let mut min_c = f64::INFINITY;
        for (m, cm) in coef.iter_mut().enumerate().take(len) {
            let h1 = get(m, 1);
            // (P^w_m1 − w_m1 A)·(A − q)
            *cm = (Vec3::new(h1[0], h1[1], h1[2]) - a * h1[3]).dot(&aq);
            min_c = min_c.min(*cm);
        }
        // every coefficient clearly positive: the first order decides;
        // within round-off of zero (of either sign, exact zeros too): the
        // second order decides; clearly negative on the cell: refused
        let tol = round_off(&get, len, &a, q);
        if !(min_c > tol) {
            let range = if along_v {
                bezier_range(&s.knots_v, s.degree_v, r[2], r[3])
            } else {
                bezier_range(&s.knots_u, s.degree_u, r[0], r[1])
            };
            let mut restricted = coef;
            bernstein_restrict(&mut restricted[..len], range);
            let rmin = restricted[..len].iter().fold(f64::INFINITY, |m, &v| m.min(v));
            if !(rmin >= -tol) {
                return false;
            }
            if !(rmin > tol) && !second_order_away(&get, len, across, &a, &aq, range) {
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

/// The round-off of the first-order coefficients `(P^w_m1 − w_m1 A)·(A −
/// q)` of a side whose poles are `get(m, d)` ([`apex_certified`]):
/// [`ROUND_UNITS`]` · ε` times the magnitudes of the operands (each factor's
/// error times the other factor).
fn round_off(get: &impl Fn(usize, usize) -> [f64; 4], len: usize, a: &Vec3, q: &Vec3) -> f64 {
    let (na, naq, nq) = (a.norm(), (a - q).norm(), q.norm());
    let mut m = 0.0f64;
    for i in 0..len {
        let h1 = get(i, 1);
        let p = Vec3::new(h1[0], h1[1], h1[2]);
        let f = p - a * h1[3];
        m = m.max(f.norm() * (na + nq) + (p.norm() + h1[3].abs() * na) * naq);
    }
    ROUND_UNITS * f64::EPSILON * m
}

/// Whether the second-order change of the squared distance from `q` along
/// every generator leaving the collapsed side `A` is positive on `range`
/// of the side's parameter ([`apex_certified`]): with `k` the degree across
/// the side (rows `d = 0, 1, 2` of `get(m, d)`), `f = k f̂`, `g₂ = k(k − 1)
/// ĝ₂` (`ĝ₂ = 0` for `k = 1`) and `W_v = k Ŵ_v` in the poles' differences,
/// the Bernstein coefficients of `W² C / k = k|f̂|² + (A − q)·((k − 1) W ĝ₂
/// − 2k Ŵ_v f̂)`, restricted to `range`, all above [`SECOND_MARGIN`]` · k ·
/// max |f̂_i|²`.
fn second_order_away(
    get: &impl Fn(usize, usize) -> [f64; 4],
    len: usize,
    across: usize,
    a: &Vec3,
    aq: &Vec3,
    range: [f64; 2],
) -> bool {
    if len > MAX_DEGREE + 1 || across < 2 {
        return false;
    }
    let qd = (across - 1) as f64;
    let v3 = |h: [f64; 4]| Vec3::new(h[0], h[1], h[2]);
    // per pole along the side: f_m, (A − q)·f_m, (A − q)·g_m, W_m, (W_v)_m / q
    let mut f = [Vec3::zeros(); MAX_DEGREE + 1];
    let mut af = [0.0f64; MAX_DEGREE + 1];
    let mut ag = [0.0f64; MAX_DEGREE + 1];
    let mut w = [0.0f64; MAX_DEGREE + 1];
    let mut wv = [0.0f64; MAX_DEGREE + 1];
    let mut scale = 0.0f64;
    for m in 0..len {
        let (h0, h1) = (get(m, 0), get(m, 1));
        f[m] = v3(h1) - a * h1[3];
        af[m] = aq.dot(&f[m]);
        if across >= 3 {
            let h2 = get(m, 2);
            ag[m] = aq.dot(&(v3(h2) - a * h2[3] - f[m] * 2.0));
        }
        w[m] = h0[3];
        wv[m] = h1[3] - h0[3];
        scale = scale.max(f[m].norm_squared());
    }
    // the products' Bernstein coefficients (degree 2p), up to the positive
    // factors C(2p, k)
    let p = len - 1;
    let binom = |n: usize, k: usize| (0..k).fold(1.0f64, |b, i| b * (n - i) as f64 / (i + 1) as f64);
    let mut phi = [0.0f64; 2 * MAX_DEGREE + 1];
    for (k, ph) in phi.iter_mut().enumerate().take(2 * p + 1) {
        let mut sum = 0.0;
        for i in k.saturating_sub(p)..=k.min(p) {
            let j = k - i;
            let b = binom(p, i) * binom(p, j);
            sum += b * (qd * f[i].dot(&f[j]) + (qd - 1.0) * w[i] * ag[j] - 2.0 * qd * wv[i] * af[j]);
        }
        *ph = sum / binom(2 * p, k);
    }
    let margin = SECOND_MARGIN * qd * scale;
    if !(margin > 0.0) {
        return false;
    }
    for v in phi.iter_mut().take(2 * p + 1) {
        *v -= margin;
    }
    // (Φ − margin > 0 on the range: its coefficients, restricted; the
    // constant shifts every Bernstein coefficient alike)
    bernstein_restrict(&mut phi[..2 * p + 1], range);
    phi[..2 * p + 1].iter().all(|&v| v > 0.0)
}

/// The range `[a, b]` of the parameter interval `[lo, hi]` of a Bézier
/// piece (knots `knots`, degree `p`) in its Bernstein parameter `[0, 1]`
/// (clamped to it).
#[inline]
pub(super) fn bezier_range(knots: &[f64], p: usize, lo: f64, hi: f64) -> [f64; 2] {
    let (k0, k1) = (knots[p], knots[p + 1]);
    let w = k1 - k0;
    let t = |x: f64| {
        if w > 0.0 {
            ((x - k0) / w).clamp(0.0, 1.0)
        } else {
            x.clamp(0.0, 1.0)
        }
    };
    [t(lo), t(hi)]
}

/// Whether the polynomial with Bernstein coefficients `c` on `[0, 1]` has
/// non-negative Bernstein coefficients on `range` = `[a, b]` (then it is
/// non-negative there). `c` is overwritten: de Casteljau at `b` keeps the
/// left part `[0, b]`, then at `a / b` keeps its right part `[a, b]`.
#[cfg(test)]
fn bernstein_nonneg_on(c: &mut [f64], range: [f64; 2]) -> bool {
    bernstein_restrict(c, range);
    c.iter().all(|&v| v >= 0.0)
}

/// Overwrites the Bernstein coefficients `c` on `[0, 1]` with those of the
/// same polynomial on `range` = `[a, b]` (de Casteljau at `b` keeps `[0, b]`,
/// then at `a / b` keeps its right part).
fn bernstein_restrict(c: &mut [f64], range: [f64; 2]) {
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
}

#[cfg(test)]
mod tests {
    use super::{bernstein_nonneg_on, bezier_range, side_certified};
    use crate::geom::Vec3;

    use crate::track::far::cell_floor::tests::octant;

    #[test]
    fn a_pole_on_the_queries_axis_is_certified_only_where_it_is_the_nearest_point() {
        // the first-order coefficients vanish for every query on the pole's
        // axis (computed: round-off of either sign); the second order
        // decides. Coordinates of 20 mm, as on sw2013_tel10wi's corner blends.
        let (o, rho) = (Vec3::new(20.0, -17.0, 23.0), 0.8);
        let s = octant(o, rho);
        let whole = [0.0, 1.0, 0.0, 1.0];
        let cell = [0.25, 0.5, 0.75, 1.0];
        let at_pole = [0.3, 1.0];
        let axis = |z: f64| o + Vec3::new(0.0, 0.0, z * rho);
        for r in [whole, cell] {
            // outside above the pole, between it and the centre (8.8e-4 mm
            // below the pole too): the pole is the nearest point
            for z in [1.5, 1.0 - 8.8e-4 / rho, 0.5, 0.01] {
                assert!(side_certified(&s, &r, &at_pole, &axis(z)), "z {z} rect {r:?}");
            }
            // beyond the centre: the pole is the farthest point along every
            // generator (zero slope, negative curvature): never certified
            for z in [-0.01, -0.5, -0.99] {
                assert!(!side_certified(&s, &r, &at_pole, &axis(z)), "z {z} rect {r:?}");
            }
        }
        // off the axis, towards the octant: a generator leads nearer
        let q = o + Vec3::new(0.3, 0.3, 0.5) * rho;
        assert!(!side_certified(&s, &whole, &at_pole, &q));
        // and a witness not on the collapsed side is never certified
        assert!(!side_certified(&s, &whole, &[0.3, 0.5], &axis(0.5)));
    }

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
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
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

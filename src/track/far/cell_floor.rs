//! The floor of a cell: a proof that no point of a piece cell lies nearer to
//! the query than the answer, from the Bernstein coefficients of the squared
//! distance over the cell, so that a slow solve of the cell can stop
//! (issue 27: the focal-set tail).
//!
//! Near the focal set of a piece — a query at a sphere's centre, on a
//! torus's axis — every cell ties with the answer within a fraction of a
//! percent, the distance is nearly flat over each cell (`1 − dκ ≈ 0`), and
//! the controller crawls across it at the globally convergent law's pace:
//! rhino2006_sphere's grazing path solved 64 cells in one update, 56 of them
//! to the 64-iteration cap and again from their centres. No box or hull
//! bound separates such cells (their minima do tie within 0.3 %), but the
//! solve of one only has to find the cell's minimum when that minimum could
//! beat the answer, and the squared distance over a cell is a polynomial
//! whose Bernstein coefficients bound it from below without any iterate.

use super::apex::bezier_range;
use crate::geom::{Hpoint, NurbsSurface, Vec3};
use crate::track::body::{BodyGeom, Item};

/// Most poles per direction of the pieces whose cells [`cell_floor`] tests
/// (up to quintics; the stack buffers hold `MAX_POLES²` poles).
const MAX_POLES: usize = 6;

/// Units of round-off, in `ε` times the magnitudes of the terms summed, that
/// a coefficient must clear ([`cell_floor`]): the restriction of the net by
/// de Casteljau (at most `2(n − 1) ≤ 10` convex combinations per direction,
/// each within `ε` of the exact one relative to the net's magnitude), the
/// dot product and the sums, generously rounded up.
const ROUND_UNITS: f64 = 64.0;

/// The binomial coefficients `C(n, k)` for `n < MAX_POLES`.
const BINOM: [[f64; MAX_POLES]; MAX_POLES] = [
    [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
    [1.0, 2.0, 1.0, 0.0, 0.0, 0.0],
    [1.0, 3.0, 3.0, 1.0, 0.0, 0.0],
    [1.0, 4.0, 6.0, 4.0, 1.0, 0.0],
    [1.0, 5.0, 10.0, 10.0, 5.0, 1.0],
];

/// A lower bound, above `d`, of the distance from `q` to piece cell `c`:
/// `Some(f)` with `f > d` when no point of the cell is nearer to `q` than
/// `f` (the cell cannot beat an answer at `d`, and `f` is a lower bound of
/// the cell), `None` when that is not proven — an edge or trim cell, a
/// piece that is no single Bézier patch of at most [`MAX_POLES`] poles per
/// direction, or a cell that may come nearer than `d`.
///
/// **Why it is sound.** On a Bézier piece with homogeneous poles
/// `P^w_ij = (w_ij P_ij, w_ij)`, the cell's rectangle maps to `[a, b] ×
/// [c, e]` of the Bernstein parameters (`bezier_range`), and de Casteljau
/// restricts the net of `(S − q)^w = (P^w_ij − w_ij q, w_ij)` to it: the
/// cell is `S(s, t) − q = X(s, t) / W(s, t)` on `[0, 1]²` with `X`, `W` of
/// degrees `(m, n)` in Bernstein form with the restricted poles
/// `(X_ij, W_ij)`. When every `W_ij > 0`, `W > 0` on the cell, and
/// `|S − q|² ≥ f²` there is `F = X·X − f² W² ≥ 0`. `X·X` and `W²` are
/// polynomials of degree `(2m, 2n)` whose Bernstein coefficients are, by the
/// product rule of Bernstein polynomials,
/// `A_kl = Σ_{i+i'=k, j+j'=l} c · X_ij·X_i'j'` and `B_kl = Σ c · W_ij W_i'j'`
/// with `c = C(m,i)C(m,i')C(n,j)C(n,j') / (C(2m,k)C(2n,l))`; Bernstein
/// polynomials are non-negative and sum to one on `[0, 1]²`, so `F` lies
/// between its least and largest coefficient `A_kl − f² B_kl`, and all of
/// them `≥ 0` — every `f² ≤ A_kl / B_kl` (`B_kl > 0`) — proves `F ≥ 0` on
/// the whole cell. The bound returned is the largest such `f` with every
/// coefficient above [`ROUND_UNITS`]` · ε` times the sum of the magnitudes
/// of its terms plus the error of the translated poles (`ε` times the
/// coordinates' magnitude, which need not be small where the distance is):
/// round-off cannot turn a negative coefficient into a certified one. A
/// cell that ties with `d` exactly (its minimum *is* the answer) is
/// therefore not certified; it is solved as before.
///
/// The bound itself, not only the verdict, is what the far phase keeps as
/// the cell's key: with `d` as the key (session 29), a cell certified at a
/// query moving straight away from a sphere's centre tied with the next
/// answer to round-off (the answer `ρ − |q − o|` falls by exactly the step
/// the key decays by), and was solved and certified again on every update
/// of the way out (rhino2006_sphere's grazing path: 29 cells on each of
/// the six updates after the centre).
///
/// It does not depend on any iterate of the solve, so it holds however far
/// from its minimum the solve stopped; and it does not depend on the
/// curvature of the distance (a bound from a witness, its gradient and a
/// bound of the second derivatives, `d(x) − |∇d|·diam − ½ M₂ diam²`, needs
/// `M₂` over the cell from the same control nets, and its Taylor gap is
/// what the Bernstein coefficients' gap is, without the witness). Its gap
/// from the cell's true minimum is the control net's distance from the
/// cell (`O(h²)` in the cell's size `h`). On a sphere of radius `ρ` about
/// `o` seen from `q = o + δ` with `d = ρ − |δ|` (the answer), `|S − q|² − d²
/// = 2|δ|(ρ − δ̂·(S − o))`: the coefficients scale with the offset `|δ|` like
/// the cells' minima themselves, so the test separates the cells away from
/// the nearest point however close the query is to the centre.
///
/// Cost: the restriction (`≤ 2(m + n)` de Casteljau passes over 4-vectors)
/// and `(m + 1)²(n + 1)²` products of poles scaled once by their binomial
/// weights (9.5 k instructions per biquadratic cell before that scaling,
/// session 29's version; a handful of controller iterations), so it is
/// asked only of a solve that has not
/// converged after [`CHECK_AT`](super::CHECK_AT) iterations. The four
/// corners (the coefficients `A_00 − f² B_00`, … are the squared distances
/// there, times `W²`) come first: a corner nearer than `d` refuses at once.
pub(super) fn cell_floor(body: &BodyGeom, c: u32, q: &Vec3, d: f64) -> Option<f64> {
    let cell = &body.cells[c as usize];
    let Item::Piece(k) = cell.item else {
        return None;
    };
    surface_floor(&body.pieces[k as usize].surface, &cell.rect, q, d)
}

/// [`cell_floor`] on the rectangle `r` (`[u0, u1, v0, v1]`, in the
/// surface's knot parameters) of a Bézier surface `s`: a lower bound above
/// `d` of the distance from `q` to it, when one is proven.
fn surface_floor(s: &NurbsSurface, r: &[f64; 4], q: &Vec3, d: f64) -> Option<f64> {
    if !(d.is_finite() && d > 0.0) {
        return None;
    }
    let (nu, nv) = (s.n_u, s.n_v);
    if nu != s.degree_u + 1 || nv != s.degree_v + 1 || nu < 2 || nv < 2 || nu > MAX_POLES || nv > MAX_POLES {
        return None;
    }
    if s.cw.len() < nu * nv {
        return None;
    }
    let [ua, ub] = bezier_range(&s.knots_u, s.degree_u, r[0], r[1]);
    let [va, vb] = bezier_range(&s.knots_v, s.degree_v, r[2], r[3]);
    // the net of (S − q)^w, and the magnitude of the coordinates it came from
    let mut g = [[0.0f64; 4]; MAX_POLES * MAX_POLES];
    let mut coord = q.x.abs().max(q.y.abs()).max(q.z.abs());
    for (gi, h) in g.iter_mut().zip(&s.cw[..nu * nv]) {
        if !(h[3] > 0.0) {
            return None;
        }
        coord = coord.max(h[0].abs().max(h[1].abs()).max(h[2].abs()) / h[3]);
        *gi = [h[0] - h[3] * q.x, h[1] - h[3] * q.y, h[2] - h[3] * q.z, h[3]];
    }
    // restricted to the cell: along u (index i, stride nv), then along v
    for j in 0..nv {
        restrict(&mut g, j, nv, nu, ua, ub);
    }
    for i in 0..nu {
        restrict(&mut g, i * nv, 1, nv, va, vb);
    }
    if !g[..nu * nv].iter().all(|h| h[3] > 0.0 && h.iter().all(|x| x.is_finite())) {
        return None;
    }
    let d2 = d * d;
    // the error of a translated pole's coordinate (per unit weight)
    let e = ROUND_UNITS * f64::EPSILON * coord;
    let unit = ROUND_UNITS * f64::EPSILON;
    // the largest f² certified by one coefficient: its sums `A` (of `X·X`),
    // `B` (of `W²`) and `M` (magnitudes of the terms of `A` and of the
    // poles' errors); certified when `A − f² B > unit · (M + f² B)`
    let cap = |a: f64, b: f64, mag: f64| {
        let f2 = (a - unit * mag) / (b * (1.0 + unit));
        if f2.is_finite() {
            f2
        } else {
            f64::NEG_INFINITY
        }
    };
    // the corners (squared distances there, times W²) first
    for (i, j) in [(0, 0), (nu - 1, 0), (0, nv - 1), (nu - 1, nv - 1)] {
        let h = &g[i * nv + j];
        let n = norm3(h);
        let (a, b) = (h[0] * h[0] + h[1] * h[1] + h[2] * h[2], h[3] * h[3]);
        if cap(a, b, n * n + 2.0 * e * n * h[3]) <= d2 {
            return None;
        }
    }
    // the poles times their binomial weights `C(m,i)C(n,j)`, and their norms
    // (a term of `A_kl`, times `C(2m,k)C(2n,l)`, is a product of two such)
    let (m, n) = (nu - 1, nv - 1);
    let mut y = [[0.0f64; 4]; MAX_POLES * MAX_POLES];
    let mut yn = [0.0f64; MAX_POLES * MAX_POLES];
    for i in 0..nu {
        for j in 0..nv {
            let b = BINOM[m][i] * BINOM[n][j];
            let h = &g[i * nv + j];
            y[i * nv + j] = [b * h[0], b * h[1], b * h[2], b * h[3]];
            yn[i * nv + j] = b * norm3(h);
        }
    }
    let mut least = f64::INFINITY;
    for kk in 0..=2 * m {
        for l in 0..=2 * n {
            let (mut a, mut b, mut mag) = (0.0f64, 0.0f64, 0.0f64);
            for i in kk.saturating_sub(m)..=kk.min(m) {
                for j in l.saturating_sub(n)..=l.min(n) {
                    let (s1, s2) = (i * nv + j, (kk - i) * nv + (l - j));
                    let (p, r) = (&y[s1], &y[s2]);
                    a += p[0] * r[0] + p[1] * r[1] + p[2] * r[2];
                    b += p[3] * r[3];
                    mag += yn[s1] * yn[s2] + e * (yn[s1] * r[3] + yn[s2] * p[3]);
                }
            }
            let f2 = cap(a, b, mag);
            if f2 <= d2 {
                return None;
            }
            least = least.min(f2);
        }
    }
    // (a hair below the certified root: the division and the root round)
    Some(d.max(least.sqrt() * (1.0 - 4.0 * f64::EPSILON)))
}

/// `|(h_0, h_1, h_2)|`.
#[inline]
fn norm3(h: &Hpoint) -> f64 {
    (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt()
}

/// Restricts the Bézier polygon of `len` poles `g[start + stride·i]` on
/// `[0, 1]` to `[a, b]` in place (de Casteljau at `b` keeps `[0, b]`, then at
/// `a / b` keeps its right part).
fn restrict(g: &mut [Hpoint], start: usize, stride: usize, len: usize, a: f64, b: f64) {
    let at = |i: usize| start + stride * i;
    let lerp = |x: &Hpoint, y: &Hpoint, t: f64| {
        let mut z = [0.0; 4];
        for k in 0..4 {
            z[k] = (1.0 - t) * x[k] + t * y[k];
        }
        z
    };
    if b < 1.0 {
        for r in 1..len {
            for i in (r..len).rev() {
                g[at(i)] = lerp(&g[at(i - 1)], &g[at(i)], b);
            }
        }
    }
    if a > 0.0 {
        let t = if b > 0.0 { a / b } else { 0.0 };
        for r in 1..len {
            for i in 0..len - r {
                g[at(i)] = lerp(&g[at(i)], &g[at(i + 1)], t);
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::{restrict, surface_floor, BINOM, MAX_POLES};
    use crate::geom::{Hpoint, NurbsSurface, Vec3};

    /// The octant `x, y, z ≥ 0` of the sphere of radius `rho` about `o`: a
    /// biquadratic rational Bézier patch (a quarter circle of longitude `u`
    /// times a quarter circle of latitude `v`; the side `v = 1` collapsed to
    /// the pole); also the pole certificate's test surface (`apex.rs`).
    pub(in crate::track::far) fn octant(o: Vec3, rho: f64) -> NurbsSurface {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let circ = [(1.0, 0.0, 1.0), (1.0, 1.0, h), (0.0, 1.0, 1.0)];
        let prof = [(1.0, 0.0, 1.0), (1.0, 1.0, h), (0.0, 1.0, 1.0)];
        let mut cw = Vec::new();
        for &(cx, cy, wu) in &circ {
            for &(px, pz, wv) in &prof {
                let w = wu * wv;
                let p = o + Vec3::new(rho * px * cx, rho * px * cy, rho * pz);
                cw.push([w * p.x, w * p.y, w * p.z, w]);
            }
        }
        NurbsSurface::bezier(2, 2, cw).unwrap()
    }

    /// The least distance from `q` over a 65 × 65 grid of the rectangle `r`.
    fn sampled_min(s: &NurbsSurface, r: &[f64; 4], q: &Vec3) -> f64 {
        let mut m = f64::INFINITY;
        for i in 0..=64 {
            for j in 0..=64 {
                let u = r[0] + (r[1] - r[0]) * i as f64 / 64.0;
                let v = r[2] + (r[3] - r[2]) * j as f64 / 64.0;
                m = m.min((s.eval(u, v) - q).norm());
            }
        }
        m
    }

    #[test]
    fn an_octant_of_a_sphere_is_exact() {
        let (o, rho) = (Vec3::new(3.0, -2.0, 5.0), 10.0);
        let s = octant(o, rho);
        for (u, v) in [(0.0, 0.0), (0.3, 0.7), (1.0, 0.5), (0.5, 1.0)] {
            assert!(((s.eval(u, v) - o).norm() - rho).abs() <= 1e-12);
        }
    }

    #[test]
    fn cells_of_a_sphere_seen_from_near_its_centre_cannot_beat_the_nearest_point() {
        // the query 1e-3 from the centre towards the opposite octant: every
        // point of this octant is farther than the answer ρ − |δ| (by up to
        // 2|δ|), each of its 16 cells proves it, however small the offset
        let (o, rho) = (Vec3::new(3.0, -2.0, 5.0), 10.0);
        let s = octant(o, rho);
        for off in [1e-3, 1e-6, 1e-9] {
            let delta = Vec3::new(-1.0, -1.0, -1.0).normalize() * off;
            let q = o + delta;
            let d = rho - off;
            for i in 0..4 {
                for j in 0..4 {
                    let r = [0.25 * i as f64, 0.25 * (i + 1) as f64, 0.25 * j as f64, 0.25 * (j + 1) as f64];
                    assert!(surface_floor(&s, &r, &q, d).is_some(), "offset {off} cell {r:?}");
                }
            }
        }
        // towards this octant's middle: the cell holding the nearest point
        // (a minimum below ρ) is refused, and so is the whole patch
        let q = o + Vec3::new(1.0, 1.0, 1.0).normalize() * 1e-3;
        let d = rho - 1e-3 + 1e-9;
        assert!(surface_floor(&s, &[0.25, 0.75, 0.25, 0.75], &q, d).is_none());
        assert!(surface_floor(&s, &[0.0, 1.0, 0.0, 1.0], &q, d).is_none());
    }

    #[test]
    fn the_bound_of_a_cell_seen_from_near_the_centre_rises_with_its_minimum() {
        // the opposite octant's cells, seen from 1e-3 beside the centre: the
        // bound is above the answer by a good part of the cell's own margin
        // (with the answer as the bound, a query moving straight out tied
        // with every certified cell on every update)
        let (o, rho) = (Vec3::new(3.0, -2.0, 5.0), 10.0);
        let s = octant(o, rho);
        let off = 1e-3;
        let q = o + Vec3::new(-1.0, -1.0, -1.0).normalize() * off;
        let d = rho - off;
        for i in 0..4 {
            for j in 0..4 {
                let r = [0.25 * i as f64, 0.25 * (i + 1) as f64, 0.25 * j as f64, 0.25 * (j + 1) as f64];
                let m = sampled_min(&s, &r, &q);
                let f = surface_floor(&s, &r, &q, d).expect("certified");
                assert!(f <= m * (1.0 + 1e-12), "cell {r:?}: bound {f} above min {m}");
                assert!(f - d >= 0.25 * (m - d), "cell {r:?}: bound {f}, min {m}, answer {d}");
            }
        }
    }

    #[test]
    fn a_certified_cell_holds_no_point_nearer_than_the_answer() {
        // soundness over pseudo-random queries, cells and answers (an LCG)
        let (o, rho) = (Vec3::new(3.0, -2.0, 5.0), 10.0);
        let s = octant(o, rho);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut certified, mut refused) = (0, 0);
        for _ in 0..400 {
            let q = o + Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * (3.0 * rho * rnd());
            let (a, b, c, e) = (rnd(), rnd(), rnd(), rnd());
            let r = [a.min(b), a.max(b), c.min(e), c.max(e)];
            let m = sampled_min(&s, &r, &q);
            // answers around the cell's minimum, within ±2 %
            let d = m * (0.98 + 0.04 * rnd());
            if let Some(f) = surface_floor(&s, &r, &q, d) {
                certified += 1;
                assert!(f >= d, "q {q:?} cell {r:?}: bound {f} < {d}");
                assert!(m >= f * (1.0 - 1e-12), "q {q:?} cell {r:?}: min {m} < bound {f}");
            } else {
                refused += 1;
            }
        }
        assert!(certified > 40 && refused > 40, "{certified} {refused}");
    }

    /// De Casteljau value of a polygon at `t`.
    fn at(p: &[Hpoint], t: f64) -> Hpoint {
        let mut v = p.to_vec();
        for r in 1..v.len() {
            for i in 0..v.len() - r {
                for k in 0..4 {
                    v[i][k] = (1.0 - t) * v[i][k] + t * v[i + 1][k];
                }
            }
        }
        v[0]
    }

    #[test]
    fn a_restricted_polygon_is_the_curve_on_the_range() {
        let p: Vec<Hpoint> = vec![[0.0, 1.0, 2.0, 1.0], [3.0, -1.0, 0.5, 2.0], [1.0, 4.0, -2.0, 0.5], [2.0, 2.0, 2.0, 1.0]];
        let (a, b) = (0.2, 0.7);
        let mut g = p.clone();
        restrict(&mut g, 0, 1, 4, a, b);
        for k in 0..=10 {
            let s = k as f64 / 10.0;
            let (x, y) = (at(&g, s), at(&p, a + (b - a) * s));
            for i in 0..4 {
                assert!((x[i] - y[i]).abs() <= 1e-13, "{s}: {x:?} {y:?}");
            }
        }
    }

    #[test]
    fn the_binomials_are_pascals_triangle() {
        for n in 1..MAX_POLES {
            for k in 1..=n {
                assert_eq!(BINOM[n][k], BINOM[n - 1][k - 1] + BINOM[n - 1][k]);
            }
        }
    }
}

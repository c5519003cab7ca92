//! B-spline basis functions and their derivatives (Piegl & Tiller, The NURBS
//! Book, A2.1 and A2.3), allocation-free on fixed-size stack buffers.

/// Highest degree supported by the evaluators (the seeds need up to 9).
pub const MAX_DEGREE: usize = 15;
/// Size of the per-direction basis buffers.
pub const MAX_ORDER: usize = MAX_DEGREE + 1;

/// Knot span index `i` with `knots[i] <= t < knots[i+1]` for a B-spline with
/// `n_ctrl` control points and degree `p`; the parameter is clamped to the
/// domain `[knots[p], knots[n_ctrl]]` (the last span is closed on the right).
///
/// Binary search, O(log n). The caller guarantees `knots.len() == n_ctrl + p + 1`.
#[inline]
pub fn find_span(n_ctrl: usize, p: usize, t: f64, knots: &[f64]) -> usize {
    let n = n_ctrl - 1;
    if t >= knots[n + 1] {
        // last non-empty span
        let mut i = n;
        while i > p && knots[i] >= knots[n + 1] {
            i -= 1;
        }
        return i;
    }
    if t <= knots[p] {
        let mut i = p;
        while i < n && knots[i + 1] <= knots[p] {
            i += 1;
        }
        return i;
    }
    let (mut lo, mut hi) = (p, n + 1);
    let mut mid = (lo + hi) / 2;
    while t < knots[mid] || t >= knots[mid + 1] {
        if t < knots[mid] {
            hi = mid;
        } else {
            lo = mid;
        }
        mid = (lo + hi) / 2;
    }
    mid
}

/// Basis functions and up to `nd` (≤ 2) derivatives at `t` in span `span`:
/// `ders[k][j]` is the k-th derivative of `N_{span-p+j,p}(t)`, `j = 0..=p`.
/// Derivative rows beyond `nd` are left untouched.
#[inline]
pub fn ders_basis(span: usize, t: f64, p: usize, knots: &[f64], nd: usize, ders: &mut [[f64; MAX_ORDER]; 3]) {
    let nd_req = nd.min(2);
    let nd = nd_req.min(p);
    for row in ders.iter_mut().take(nd_req + 1).skip(nd + 1) {
        row[..=p].iter_mut().for_each(|x| *x = 0.0);
    }
    let mut ndu = [[0.0f64; MAX_ORDER]; MAX_ORDER];
    let mut left = [0.0f64; MAX_ORDER];
    let mut right = [0.0f64; MAX_ORDER];
    ndu[0][0] = 1.0;
    for j in 1..=p {
        left[j] = t - knots[span + 1 - j];
        right[j] = knots[span + j] - t;
        let mut saved = 0.0;
        for r in 0..j {
            // lower triangle: knot differences
            ndu[j][r] = right[r + 1] + left[j - r];
            let temp = ndu[r][j - 1] / ndu[j][r];
            // upper triangle: basis functions
            ndu[r][j] = saved + right[r + 1] * temp;
            saved = left[j - r] * temp;
        }
        ndu[j][j] = saved;
    }
    for j in 0..=p {
        ders[0][j] = ndu[j][p];
    }
    if nd == 0 {
        return;
    }
    let mut a = [[0.0f64; MAX_ORDER]; 2];
    for r in 0..=p {
        let (mut s1, mut s2) = (0usize, 1usize);
        a[0][0] = 1.0;
        for k in 1..=nd {
            let mut d = 0.0;
            let rk = r as isize - k as isize;
            let pk = p - k;
            if r >= k {
                let rk = rk as usize;
                a[s2][0] = a[s1][0] / ndu[pk + 1][rk];
                d = a[s2][0] * ndu[rk][pk];
            }
            let j1 = if rk >= -1 { 1 } else { (-rk) as usize };
            let j2 = if r as isize - 1 <= pk as isize { k - 1 } else { p - r };
            for j in j1..=j2 {
                let idx = (rk + j as isize) as usize;
                a[s2][j] = (a[s1][j] - a[s1][j - 1]) / ndu[pk + 1][idx];
                d += a[s2][j] * ndu[idx][pk];
            }
            if r <= pk {
                a[s2][k] = -a[s1][k - 1] / ndu[pk + 1][r];
                d += a[s2][k] * ndu[r][pk];
            }
            ders[k][r] = d;
            std::mem::swap(&mut s1, &mut s2);
        }
    }
    let mut f = p as f64;
    for k in 1..=nd {
        for j in 0..=p {
            ders[k][j] *= f;
        }
        f *= (p - k) as f64;
    }
}

/// Bernstein polynomials of degree `p` and their first two derivatives at
/// `t ∈ [0,1]` (rational Bézier pieces): `ders[k][j] = d^k/dt^k B_{j,p}(t)`.
#[inline]
pub fn bernstein_ders(p: usize, t: f64, ders: &mut [[f64; MAX_ORDER]; 3]) {
    // B_{j,p} = C(p,j) t^j (1-t)^{p-j}; derivatives via degree-lowered values.
    let mut lower = [[0.0f64; MAX_ORDER]; 3]; // Bernstein of degree p, p-1, p-2
    let s = 1.0 - t;
    for (k, row) in lower.iter_mut().enumerate() {
        if k > p {
            break;
        }
        let q = p - k;
        row[0] = 1.0;
        for i in 1..=q {
            let mut saved = 0.0;
            for j in 0..i {
                let tmp = row[j];
                row[j] = saved + s * tmp;
                saved = t * tmp;
            }
            row[i] = saved;
        }
    }
    for j in 0..=p {
        ders[0][j] = lower[0][j];
    }
    if p >= 1 {
        let pf = p as f64;
        for j in 0..=p {
            let a = if j >= 1 { lower[1][j - 1] } else { 0.0 };
            let b = if j < p { lower[1][j] } else { 0.0 };
            ders[1][j] = pf * (a - b);
        }
    } else {
        ders[1][0] = 0.0;
    }
    if p >= 2 {
        let c = (p * (p - 1)) as f64;
        for j in 0..=p {
            let a = if j >= 2 { lower[2][j - 2] } else { 0.0 };
            let b = if j >= 1 && j - 1 <= p - 2 { lower[2][j - 1] } else { 0.0 };
            let d = if j <= p - 2 { lower[2][j] } else { 0.0 };
            ders[2][j] = c * (a - 2.0 * b + d);
        }
    } else {
        for j in 0..=p {
            ders[2][j] = 0.0;
        }
    }
}

/// Basis functions and their first two derivatives on one knot span, for the
/// runtime evaluators: `[N, N′, N″][k][r]` is the k-th derivative of
/// `N_{span−p+r, p}(t)`, `r = 0..=p`.
///
/// `O` is the array size. When `O < MAX_ORDER` the degree is taken to be
/// exactly `O − 1` (the loops then have compile-time trip counts and unroll);
/// with `O = MAX_ORDER` the runtime `p` is used. Instead of the `ndu` triangle
/// of A2.3 it keeps the basis rows of degree `p−2` and `p−1` from the
/// Cox–de Boor recursion and differentiates with
/// `N′_{i,p} = p (N_{i,p−1}/(u_{i+p}−u_i) − N_{i+1,p−1}/(u_{i+p+1}−u_{i+1}))`
/// (applied twice for `N″`). All denominators are ≥ the span width, so a
/// non-empty span never divides by zero.
#[inline(always)]
pub fn span_basis_d2<const O: usize>(p: usize, span: usize, t: f64, knots: &[f64]) -> [[f64; O]; 3] {
    let p = if O < MAX_ORDER { O - 1 } else { p };
    let mut n = [0.0f64; O];
    let mut n1 = [0.0f64; O];
    let mut n2 = [0.0f64; O];
    let mut left = [0.0f64; O];
    let mut right = [0.0f64; O];
    n[0] = 1.0;
    if p == 1 {
        n1 = n;
    }
    if p == 2 {
        n2 = n;
    }
    for j in 1..=p {
        left[j] = t - knots[span + 1 - j];
        right[j] = knots[span + j] - t;
        let mut saved = 0.0;
        for r in 0..j {
            let temp = n[r] / (right[r + 1] + left[j - r]);
            n[r] = saved + right[r + 1] * temp;
            saved = left[j - r] * temp;
        }
        n[j] = saved;
        if j + 1 == p {
            n1 = n;
        }
        if j + 2 == p {
            n2 = n;
        }
    }
    let pf = p as f64;
    // inv[r] = 1/(u_{span+1+r} − u_{span+1+r−p}), the degree-(p−1) denominators
    let mut inv = [0.0f64; O];
    for r in 0..p {
        inv[r] = 1.0 / (knots[span + 1 + r] - knots[span + 1 + r - p]);
    }
    let mut d1 = [0.0f64; O];
    let mut prev = 0.0;
    for r in 0..p {
        let a = n1[r] * inv[r];
        d1[r] = pf * (prev - a);
        prev = a;
    }
    d1[p] = pf * prev;
    let mut d2 = [0.0f64; O];
    if p >= 2 {
        // derivatives of the degree-(p−1) functions N_{span−p+1+r, p−1}
        let mut dd = [0.0f64; O];
        let mut prev = 0.0;
        for r in 0..p - 1 {
            let a = n2[r] / (knots[span + 1 + r] - knots[span + 2 + r - p]);
            dd[r] = (pf - 1.0) * (prev - a);
            prev = a;
        }
        dd[p - 1] = (pf - 1.0) * prev;
        let mut prev = 0.0;
        for r in 0..p {
            let a = dd[r] * inv[r];
            d2[r] = pf * (prev - a);
            prev = a;
        }
        d2[p] = pf * prev;
    }
    [n, d1, d2]
}

/// Binomial coefficients `C(n, k)` for `n ≤ MAX_DEGREE` (exact in f64).
const BINOM: [[f64; MAX_ORDER]; MAX_ORDER] = {
    let mut b = [[0.0; MAX_ORDER]; MAX_ORDER];
    let mut n = 0;
    while n < MAX_ORDER {
        b[n][0] = 1.0;
        let mut k = 1;
        while k <= n {
            b[n][k] = b[n - 1][k - 1] + if k < n { b[n - 1][k] } else { 0.0 };
            k += 1;
        }
        n += 1;
    }
    b
};

/// Bernstein polynomials of degree `p` at `t ∈ [0,1]` and their first two
/// derivatives with respect to `x`, where `t = (x − x0)·scale` (pass
/// `scale = 1` for derivatives in `t`). Same layout and `O` convention as
/// [`span_basis_d2`].
///
/// Closed form `B_{r,q} = C(q,r) tʳ (1−t)^{q−r}` from power tables (no
/// divisions, no dependency chain through the de Casteljau triangle), and
/// `B′_{r,p} = p (B_{r−1,p−1} − B_{r,p−1})`, `B″_{r,p} = p(p−1)(B_{r−2,p−2} − 2B_{r−1,p−2} + B_{r,p−2})`.
/// All terms are non-negative, so the values are accurate to a few ulps.
#[inline(always)]
pub fn bernstein_d2<const O: usize>(p: usize, t: f64, scale: f64) -> [[f64; O]; 3] {
    let p = if O < MAX_ORDER { O - 1 } else { p };
    let s = 1.0 - t;
    let mut tp = [1.0f64; O];
    let mut sp = [1.0f64; O];
    for k in 1..=p {
        tp[k] = tp[k - 1] * t;
        sp[k] = sp[k - 1] * s;
    }
    let mut n = [0.0f64; O];
    for r in 0..=p {
        n[r] = BINOM[p][r] * tp[r] * sp[p - r];
    }
    let pf = p as f64;
    let mut d1 = [0.0f64; O];
    let c1 = pf * scale;
    let mut prev = 0.0;
    for r in 0..p {
        let b = BINOM[p - 1][r] * tp[r] * sp[p - 1 - r];
        d1[r] = c1 * (prev - b);
        prev = b;
    }
    d1[p] = c1 * prev;
    let mut d2 = [0.0f64; O];
    if p >= 2 {
        let c2 = pf * (pf - 1.0) * scale * scale;
        let (mut a, mut b) = (0.0, 0.0); // B_{r−2,p−2}, B_{r−1,p−2}
        for r in 0..=p {
            let x = if r + 2 <= p {
                BINOM[p - 2][r] * tp[r] * sp[p - 2 - r]
            } else {
                0.0
            };
            d2[r] = c2 * (a - 2.0 * b + x);
            a = b;
            b = x;
        }
    }
    [n, d1, d2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_lookup_clamps_and_finds() {
        let k = [0.0, 0.0, 0.0, 0.5, 1.0, 1.0, 1.0];
        assert_eq!(find_span(4, 2, 0.0, &k), 2);
        assert_eq!(find_span(4, 2, 0.25, &k), 2);
        assert_eq!(find_span(4, 2, 0.5, &k), 3);
        assert_eq!(find_span(4, 2, 1.0, &k), 3);
        assert_eq!(find_span(4, 2, 7.0, &k), 3);
        assert_eq!(find_span(4, 2, -7.0, &k), 2);
    }

    #[test]
    fn basis_partition_of_unity_and_derivative_sums() {
        let k = [0.0, 0.0, 0.0, 0.0, 0.3, 0.7, 1.0, 1.0, 1.0, 1.0];
        for i in 0..=20 {
            let t = i as f64 / 20.0;
            let s = find_span(6, 3, t, &k);
            let mut d = [[0.0; MAX_ORDER]; 3];
            ders_basis(s, t, 3, &k, 2, &mut d);
            let sum: f64 = d[0][..4].iter().sum();
            let sum1: f64 = d[1][..4].iter().sum();
            let sum2: f64 = d[2][..4].iter().sum();
            assert!((sum - 1.0).abs() < 1e-14);
            assert!(sum1.abs() < 1e-12 && sum2.abs() < 1e-10);
        }
    }

    fn check_fixed<const O: usize>(p: usize, knots: &[f64], n: usize) {
        for i in 0..=40 {
            let (a, b) = (knots[p], knots[n]);
            let t = a + (b - a) * i as f64 / 40.0;
            let span = find_span(n, p, t, knots);
            let mut want = [[0.0; MAX_ORDER]; 3];
            ders_basis(span, t, p, knots, 2, &mut want);
            let got = span_basis_d2::<O>(p, span, t, knots);
            for k in 0..3 {
                for r in 0..=p {
                    let tol = 1e-12 * (1.0 + want[k][r].abs());
                    assert!(
                        (got[k][r] - want[k][r]).abs() < tol,
                        "O={O} p={p} k={k} r={r}: {} vs {}",
                        got[k][r],
                        want[k][r]
                    );
                }
            }
            if knots[..=p].iter().all(|&x| x == a) && n == p + 1 {
                let sc = 1.0 / (b - a);
                let bz = bernstein_d2::<O>(p, (t - a) * sc, sc);
                for k in 0..3 {
                    for r in 0..=p {
                        let w = want[k][r];
                        assert!(
                            (bz[k][r] - w).abs() < 1e-11 * (1.0 + w.abs()),
                            "bernstein O={O} p={p} k={k} r={r}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fixed_order_basis_matches_a2_3() {
        for p in 1..=MAX_DEGREE {
            for interior in [&[][..], &[0.1, 0.35, 0.35, 0.8][..]] {
                let mut k = vec![-0.5; p + 1];
                k.extend(interior.iter().map(|x| x * 3.0 - 0.5));
                k.extend(std::iter::repeat_n(2.5, p + 1));
                let n = k.len() - p - 1;
                check_fixed::<MAX_ORDER>(p, &k, n);
                match p {
                    1 => check_fixed::<2>(p, &k, n),
                    2 => check_fixed::<3>(p, &k, n),
                    3 => check_fixed::<4>(p, &k, n),
                    4 => check_fixed::<5>(p, &k, n),
                    5 => check_fixed::<6>(p, &k, n),
                    _ => {}
                }
            }
            // unclamped
            let k: Vec<f64> = (0..2 * p + 4).map(|i| i as f64 * 0.5).collect();
            check_fixed::<MAX_ORDER>(p, &k, p + 3);
        }
    }

    #[test]
    fn bernstein_matches_bspline_on_bezier_knots() {
        for p in 1..=9usize {
            let mut k = vec![0.0; p + 1];
            k.extend(std::iter::repeat_n(1.0, p + 1));
            for i in 0..=10 {
                let t = i as f64 / 10.0;
                let mut a = [[0.0; MAX_ORDER]; 3];
                let mut b = [[0.0; MAX_ORDER]; 3];
                ders_basis(find_span(p + 1, p, t, &k), t, p, &k, 2, &mut a);
                bernstein_ders(p, t, &mut b);
                for kk in 0..=p.min(2) {
                    for j in 0..=p {
                        assert!(
                            (a[kk][j] - b[kk][j]).abs() < 1e-9 * (1.0 + a[kk][j].abs()),
                            "p={p} k={kk} j={j}"
                        );
                    }
                }
            }
        }
    }
}

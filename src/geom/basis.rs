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

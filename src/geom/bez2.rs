//! Planar rational Bézier curves with homogeneous points `[w·x, w·y, w]`
//! (the trim curves of the scene): evaluation, de Casteljau splitting,
//! roots of Bernstein polynomials, exact clipping to a rectangle, monotone
//! splitting and the ray-crossing test used for exact trim containment.
//!
//! Everything here works on slices of at most [`MAX_POINTS`] points without
//! allocating, except the functions returning new curves.

/// Most control points of a curve handled here (degree ≤ 31).
pub const MAX_POINTS: usize = 32;

/// Homogeneous planar point `[w·x, w·y, w]`.
pub type H2 = [f64; 3];

/// The point of the curve at `t` (by de Casteljau on the homogeneous points).
#[inline]
pub fn eval(h: &[H2], t: f64) -> [f64; 2] {
    let (p, _) = eval_d1(h, t);
    p
}

/// Point and first derivative at `t`.
pub fn eval_d1(h: &[H2], t: f64) -> ([f64; 2], [f64; 2]) {
    let n = h.len().min(MAX_POINTS);
    if n == 0 {
        return ([f64::NAN; 2], [f64::NAN; 2]);
    }
    if n == 1 {
        let w = h[0][2];
        return ([h[0][0] / w, h[0][1] / w], [0.0; 2]);
    }
    let mut w: [H2; MAX_POINTS] = [[0.0; 3]; MAX_POINTS];
    w[..n].copy_from_slice(&h[..n]);
    for r in 1..n - 1 {
        for i in 0..n - r {
            for k in 0..3 {
                w[i][k] = (1.0 - t) * w[i][k] + t * w[i + 1][k];
            }
        }
    }
    // w[0], w[1]: the last two points of the scheme
    let deg = (n - 1) as f64;
    let a = w[0];
    let b = w[1];
    let p = [
        (1.0 - t) * a[0] + t * b[0],
        (1.0 - t) * a[1] + t * b[1],
        (1.0 - t) * a[2] + t * b[2],
    ];
    let d = [deg * (b[0] - a[0]), deg * (b[1] - a[1]), deg * (b[2] - a[2])];
    let z = p[2];
    let x = [p[0] / z, p[1] / z];
    // (P/W)' = (P' − x W') / W
    let dx = [(d[0] - x[0] * d[2]) / z, (d[1] - x[1] * d[2]) / z];
    (x, dx)
}

/// De Casteljau split at `t`: the parts on `[0,t]` and `[t,1]`, each on `[0,1]`.
pub fn split(h: &[H2], t: f64) -> (Vec<H2>, Vec<H2>) {
    let n = h.len();
    let mut w = h.to_vec();
    let mut left = Vec::with_capacity(n);
    let mut right = vec![[0.0; 3]; n];
    for r in 0..n {
        left.push(w[0]);
        right[n - 1 - r] = w[n - 1 - r];
        for i in 0..n - 1 - r {
            for k in 0..3 {
                w[i][k] = (1.0 - t) * w[i][k] + t * w[i + 1][k];
            }
        }
    }
    (left, right)
}

/// The part of the curve on `[a, b]` (`0 ≤ a < b ≤ 1`) as a curve on `[0,1]`.
pub fn sub(h: &[H2], a: f64, b: f64) -> Vec<H2> {
    let mut c = h.to_vec();
    if b < 1.0 {
        c = split(&c, b).0;
    }
    if a > 0.0 && b > 0.0 {
        c = split(&c, (a / b).min(1.0)).1;
    }
    c
}

/// The curve traversed backwards.
pub fn reversed(h: &[H2]) -> Vec<H2> {
    h.iter().rev().copied().collect()
}

/// Euclidean control points.
pub fn points(h: &[H2]) -> impl Iterator<Item = [f64; 2]> + '_ {
    h.iter().map(|p| [p[0] / p[2], p[1] / p[2]])
}

/// Box `[xmin, xmax, ymin, ymax]` of the Euclidean control points (holds the curve for positive weights).
pub fn hull(h: &[H2]) -> [f64; 4] {
    let mut r = [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
    for p in points(h) {
        r[0] = r[0].min(p[0]);
        r[1] = r[1].max(p[0]);
        r[2] = r[2].min(p[1]);
        r[3] = r[3].max(p[1]);
    }
    r
}

/// Value of the Bernstein polynomial with coefficients `c` (≤ [`MAX_POINTS`]) at `t`.
fn bern_eval(c: &[f64], t: f64) -> f64 {
    let n = c.len().min(MAX_POINTS);
    let mut w = [0.0; MAX_POINTS];
    w[..n].copy_from_slice(&c[..n]);
    for r in 1..n {
        for i in 0..n - r {
            w[i] = (1.0 - t) * w[i] + t * w[i + 1];
        }
    }
    w[0]
}

fn bern_split(c: &[f64], t: f64) -> (Vec<f64>, Vec<f64>) {
    let n = c.len();
    let mut w = c.to_vec();
    let mut left = Vec::with_capacity(n);
    let mut right = vec![0.0; n];
    for r in 0..n {
        left.push(w[0]);
        right[n - 1 - r] = w[n - 1 - r];
        for i in 0..n - 1 - r {
            w[i] = (1.0 - t) * w[i] + t * w[i + 1];
        }
    }
    (left, right)
}

/// Roots in `(0, 1)` of the Bernstein polynomial with coefficients `c`, to
/// about `1e-15` in `t` (a tangential root is reported once or twice, as
/// its refinement ends). Sorted.
pub fn bern_roots(c: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    if c.len() < 2 || c.len() > MAX_POINTS || !c.iter().all(|x| x.is_finite()) {
        return out;
    }
    roots_rec(c, c, 0.0, 1.0, 0, &mut out);
    out.sort_by(f64::total_cmp);
    out.dedup_by(|a, b| (*a - *b).abs() <= 1e-15);
    out
}

fn sign_changes(c: &[f64]) -> usize {
    let mut n = 0;
    let mut prev = 0.0f64;
    for &x in c {
        if x != 0.0 {
            if prev != 0.0 && (x > 0.0) != (prev > 0.0) {
                n += 1;
            }
            prev = x;
        }
    }
    n
}

/// The point of `[lo, hi]` where `f` changes sign, by bisection (at most
/// `steps` halvings, fewer once the interval no longer shrinks in floating
/// point or `f` is exactly zero): `up` when `f` rises through the root
/// (negative at `lo`).
fn bisect_sign_change(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, up: bool, steps: u32) -> f64 {
    for _ in 0..steps {
        let m = 0.5 * (lo + hi);
        if !(m > lo && m < hi) {
            break;
        }
        let v = f(m);
        if v == 0.0 {
            return m;
        }
        if (v < 0.0) == up {
            lo = m;
        } else {
            hi = m;
        }
    }
    0.5 * (lo + hi)
}

fn roots_rec(orig: &[f64], c: &[f64], a: f64, b: f64, depth: u32, out: &mut Vec<f64>) {
    let scale = c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale == 0.0 {
        return;
    }
    let n = c.len();
    let ch = sign_changes(c);
    // a zero end coefficient is a root at the end: interior roots only count
    if ch == 0 {
        return;
    }
    let (f0, f1) = (c[0], c[n - 1]);
    if ch == 1 && f0 != 0.0 && f1 != 0.0 && (f0 > 0.0) != (f1 > 0.0) {
        // exactly one root: bisection on the original polynomial
        let r = bisect_sign_change(|t| bern_eval(orig, t), a, b, f0 < 0.0, 200);
        if r > 0.0 && r < 1.0 {
            out.push(r);
        }
        return;
    }
    if b - a < 1e-14 || depth > 80 {
        let r = 0.5 * (a + b);
        if r > 0.0 && r < 1.0 {
            out.push(r);
        }
        return;
    }
    let (l, r) = bern_split(c, 0.5);
    let m = 0.5 * (a + b);
    roots_rec(orig, &l, a, m, depth + 1, out);
    // a root exactly at the midpoint
    if l[n - 1] == 0.0 && m > 0.0 && m < 1.0 {
        out.push(m);
    }
    roots_rec(orig, &r, m, b, depth + 1, out);
}

/// Parameters in `(0,1)` where the curve meets the line `x_k = c` (`k` 0 or 1).
pub fn line_crossings(h: &[H2], k: usize, c: f64) -> Vec<f64> {
    let coef: Vec<f64> = h.iter().map(|p| p[k] - c * p[2]).collect();
    bern_roots(&coef)
}

/// Is the point inside the closed rectangle `r = [x0, x1, y0, y1]`?
#[inline]
pub fn in_rect(p: [f64; 2], r: &[f64; 4]) -> bool {
    p[0] >= r[0] && p[0] <= r[1] && p[1] >= r[2] && p[1] <= r[3]
}

/// The parameter intervals of `[0,1]`, in order, split where the curve
/// crosses a side of `r`, each with whether it lies inside the closed
/// rectangle (decided at its middle). Adjacent intervals of the same kind are merged.
pub fn clip_intervals(h: &[H2], r: &[f64; 4]) -> Vec<(f64, f64, bool)> {
    let b = hull(h);
    if b[0] >= r[0] && b[1] <= r[1] && b[2] >= r[2] && b[3] <= r[3] {
        return vec![(0.0, 1.0, true)];
    }
    if b[1] < r[0] || b[0] > r[1] || b[3] < r[2] || b[2] > r[3] {
        return vec![(0.0, 1.0, false)];
    }
    let mut ts = vec![0.0];
    for (k, c) in [(0, r[0]), (0, r[1]), (1, r[2]), (1, r[3])] {
        let lo = if k == 0 { b[0] } else { b[2] };
        let hi = if k == 0 { b[1] } else { b[3] };
        if c >= lo && c <= hi {
            ts.extend(line_crossings(h, k, c));
        }
    }
    ts.push(1.0);
    ts.sort_by(f64::total_cmp);
    ts.dedup();
    let mut out: Vec<(f64, f64, bool)> = Vec::new();
    for w in ts.windows(2) {
        let (a, c) = (w[0], w[1]);
        if !(c > a) {
            continue;
        }
        let inside = in_rect(eval(h, 0.5 * (a + c)), r);
        match out.last_mut() {
            Some(l) if l.2 == inside => l.1 = c,
            _ => out.push((a, c, inside)),
        }
    }
    out
}

/// Parameters in `(0,1)` where `x_k(t)` has a local extremum (the
/// derivative's numerator changes sign), found on a 64-step grid and refined
/// by bisection.
pub fn extrema(h: &[H2], k: usize) -> Vec<f64> {
    let mut out = Vec::new();
    if h.len() < 3 {
        return out;
    }
    let n = 64;
    let d = |t: f64| eval_d1(h, t).1[k];
    let mut prev = d(0.0);
    for i in 1..=n {
        let t = i as f64 / n as f64;
        let cur = d(t);
        if prev != 0.0 && cur != 0.0 && (prev > 0.0) != (cur > 0.0) {
            let r = bisect_sign_change(d, (i - 1) as f64 / n as f64, t, prev < 0.0, 60);
            if r > 1e-12 && r < 1.0 - 1e-12 {
                out.push(r);
            }
        }
        if cur != 0.0 {
            prev = cur;
        }
    }
    out
}

/// The curve split into pieces monotone in `y` (each on `[0,1]`).
pub fn monotone_in_y(h: &[H2]) -> Vec<Vec<H2>> {
    let ts = extrema(h, 1);
    if ts.is_empty() {
        return vec![h.to_vec()];
    }
    let mut out = Vec::with_capacity(ts.len() + 1);
    let mut a = 0.0;
    for &t in ts.iter().chain(std::iter::once(&1.0)) {
        if t > a {
            out.push(sub(h, a, t));
        }
        a = t;
    }
    out
}

/// Does the ray from `(u, v)` towards `+x` cross the `y`-monotone curve
/// `h` (half-open rule: the curve's lower end counts, its upper end does
/// not — the even-odd polygon rule)? The crossing point is found by
/// bisection to the last bit of `t`.
#[inline]
pub fn ray_crosses(h: &[H2], x_lo: f64, x_hi: f64, u: f64, v: f64) -> bool {
    let n = h.len();
    if n < 2 {
        return false;
    }
    let y0 = h[0][1] / h[0][2];
    let y1 = h[n - 1][1] / h[n - 1][2];
    if (y0 > v) == (y1 > v) {
        return false;
    }
    if u < x_lo {
        return true;
    }
    if u >= x_hi {
        return false;
    }
    if n == 2 {
        let (a, b) = ([h[0][0] / h[0][2], y0], [h[1][0] / h[1][2], y1]);
        return u < a[0] + (v - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
    }
    // y(t) − v changes sign once on [0,1]
    let rising = y1 > y0;
    if let Some(crosses) = crossing_side_by_hulls(h, u, v, rising) {
        return crosses;
    }
    crossing_side_by_bisection(h, x_lo, x_hi, u, v, rising)
}

/// The side of the crossing of `y = v` on the `y`-monotone curve `h`
/// (`rising`: `y` grows with `t`): true when `u` lies left of it, the
/// crossing found by bisection of `t` to the last bit.
fn crossing_side_by_bisection(h: &[H2], x_lo: f64, x_hi: f64, u: f64, v: f64, rising: bool) -> bool {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x = 0.5 * (x_lo + x_hi);
    for _ in 0..64 {
        let m = 0.5 * (lo + hi);
        if !(m > lo && m < hi) {
            break;
        }
        let p = eval(h, m);
        x = p[0];
        if p[1] == v {
            break;
        }
        if (p[1] < v) == rising {
            lo = m;
        } else {
            hi = m;
        }
    }
    u < x
}

/// Most rays are decided long before the last bit: halve the curve by de
/// Casteljau, keep the half where `y` passes `v`, and stop as soon as that
/// half's control points (which hold it: positive weights) lie wholly on
/// one side of `u` by more than a rounding margin. `Some(crosses)` then
/// equals what the bisection to the last bit answers; `None` (degree above
/// 15, a split point exactly at `v`, or no decision after 40 halvings: `u`
/// within the margin of the crossing) leaves it to the bisection.
fn crossing_side_by_hulls(h: &[H2], u: f64, v: f64, rising: bool) -> Option<bool> {
    const MAX: usize = 16;
    let n = h.len();
    if n > MAX {
        return None;
    }
    let margin = 1e-12 * (1.0 + u.abs());
    let mut c = [[0.0f64; 3]; MAX];
    c[..n].copy_from_slice(h);
    let mut left = [[0.0f64; 3]; MAX];
    let mut right = [[0.0f64; 3]; MAX];
    for _ in 0..40 {
        let (mut xmin, mut xmax) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &c[..n] {
            if !(p[2] > 0.0) {
                return None;
            }
            let x = p[0] / p[2];
            xmin = xmin.min(x);
            xmax = xmax.max(x);
        }
        if xmin > u + margin {
            return Some(true);
        }
        if xmax < u - margin {
            return Some(false);
        }
        // de Casteljau at 1/2: left half in `left`, right half in `right`
        let mut w = c;
        for r in 0..n {
            left[r] = w[0];
            right[n - 1 - r] = w[n - 1 - r];
            for i in 0..n - 1 - r {
                for k in 0..3 {
                    w[i][k] = 0.5 * (w[i][k] + w[i + 1][k]);
                }
            }
        }
        let mid = left[n - 1];
        let ym = mid[1] / mid[2];
        if !ym.is_finite() || ym == v {
            return None;
        }
        // the crossing lies in the right half while the curve is still short of `v` at the split
        c = if (ym < v) == rising { right } else { left };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bisection alone (the reference of the hull shortcut).
    fn ray_crosses_bisection(h: &[H2], x_lo: f64, x_hi: f64, u: f64, v: f64) -> bool {
        let n = h.len();
        let y0 = h[0][1] / h[0][2];
        let y1 = h[n - 1][1] / h[n - 1][2];
        if (y0 > v) == (y1 > v) {
            return false;
        }
        if u < x_lo {
            return true;
        }
        if u >= x_hi {
            return false;
        }
        crossing_side_by_bisection(h, x_lo, x_hi, u, v, y1 > y0)
    }

    #[test]
    fn hull_shortcut_agrees_with_the_bisection() {
        // quarter circles (rational, y-monotone), rays at many heights and
        // offsets, including points a hair off the curve
        for (c, r) in [([0.2, 0.3], 0.5), ([0.0, 0.0], 1.0), ([0.5, -0.25], 0.125)] {
            let h = quarter(c, r);
            let xs: Vec<f64> = h.iter().map(|p| p[0] / p[2]).collect();
            let (x_lo, x_hi) = (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
            for i in 1..40 {
                let a = std::f64::consts::FRAC_PI_2 * i as f64 / 40.0;
                let (px, py) = (c[0] + r * a.cos(), c[1] + r * a.sin());
                for du in [-0.3, -1e-3, -1e-9, -1e-13, 0.0, 1e-13, 1e-9, 1e-3, 0.3] {
                    let u = px + du;
                    assert_eq!(
                        ray_crosses(&h, x_lo, x_hi, u, py),
                        ray_crosses_bisection(&h, x_lo, x_hi, u, py),
                        "u {u} v {py}"
                    );
                }
            }
        }
    }

    /// Quarter circle of radius `r` around `c` from angle 0 to π/2.
    fn quarter(c: [f64; 2], r: f64) -> Vec<H2> {
        let w = std::f64::consts::FRAC_1_SQRT_2;
        vec![
            [c[0] + r, c[1], 1.0],
            [(c[0] + r) * w, (c[1] + r) * w, w],
            [c[0], c[1] + r, 1.0],
        ]
    }

    #[test]
    fn quarter_circle_is_exact() {
        let h = quarter([0.2, 0.3], 0.5);
        for i in 0..=20 {
            let p = eval(&h, i as f64 / 20.0);
            let d = ((p[0] - 0.2).powi(2) + (p[1] - 0.3).powi(2)).sqrt();
            assert!((d - 0.5).abs() < 1e-15, "{d}");
        }
        let (l, r) = split(&h, 0.3);
        assert!((eval(&l, 1.0)[0] - eval(&h, 0.3)[0]).abs() < 1e-15);
        assert!((eval(&r, 0.5)[1] - eval(&h, 0.65)[1]).abs() < 1e-15);
        let s = sub(&h, 0.25, 0.75);
        assert!((eval(&s, 0.5)[0] - eval(&h, 0.5)[0]).abs() < 1e-15);
    }

    #[test]
    fn roots_of_a_cubic() {
        // (t − 0.2)(t − 0.5)(t − 0.9) in Bernstein form: sample-free check
        let f = |t: f64| (t - 0.2) * (t - 0.5) * (t - 0.9);
        // power → Bernstein for degree 3 via values is awkward; use a curve: x(t) = f(t) + c with w = 1
        // Bernstein coefficients of f from its power coefficients a0 + a1 t + a2 t² + a3 t³
        let (a0, a1, a2, a3) = (-0.09, 0.73, -1.6, 1.0);
        let c = [a0, a0 + a1 / 3.0, a0 + 2.0 * a1 / 3.0 + a2 / 3.0, a0 + a1 + a2 + a3];
        assert!((bern_eval(&c, 0.37) - f(0.37)).abs() < 1e-15);
        let r = bern_roots(&c);
        assert_eq!(r.len(), 3, "{r:?}");
        for (x, y) in r.iter().zip([0.2, 0.5, 0.9]) {
            assert!((x - y).abs() < 1e-14, "{r:?}");
        }
    }

    #[test]
    fn clipping_a_circle_arc_to_a_rectangle() {
        // quarter circle of radius 1 around the origin, clipped by x ≤ 0.6
        let h = quarter([0.0, 0.0], 1.0);
        let iv = clip_intervals(&h, &[-1.0, 0.6, -1.0, 2.0]);
        assert_eq!(iv.len(), 2, "{iv:?}");
        assert!(!iv[0].2 && iv[1].2);
        let t = iv[0].1;
        let p = eval(&h, t);
        assert!((p[0] - 0.6).abs() < 1e-14, "{p:?}");
        assert!((p[1] - 0.8).abs() < 1e-14, "{p:?}");
        // the kept part starts exactly on the side and stays on the circle
        let kept = sub(&h, iv[1].0, iv[1].1);
        let q = eval(&kept, 0.0);
        assert!((q[0] - 0.6).abs() < 1e-14 && (q[1] - 0.8).abs() < 1e-14, "{q:?}");
        let m = eval(&kept, 0.5);
        assert!((m[0].hypot(m[1]) - 1.0).abs() < 1e-15);
        // a rectangle cutting the arc twice: in, out, in
        let iv = clip_intervals(&h, &[-1.0, 2.0, -1.0, 2.0]);
        assert_eq!(iv, vec![(0.0, 1.0, true)]);
        let iv = clip_intervals(&h, &[0.0, 0.9, 0.0, 0.9]);
        assert_eq!(iv.len(), 3, "{iv:?}");
        assert!(!iv[0].2 && iv[1].2 && !iv[2].2);
        for t in [iv[0].1, iv[1].1] {
            let p = eval(&h, t);
            assert!((p[0] - 0.9).abs() < 1e-14 || (p[1] - 0.9).abs() < 1e-14, "{p:?}");
        }
    }

    #[test]
    fn monotone_pieces_and_crossings() {
        // half circle (two quarters) around (0.5, 0.5), radius 0.25, angle 0 → π
        let q1 = quarter([0.5, 0.5], 0.25);
        // second quarter: rotate the first by 90°
        let q2: Vec<H2> = q1
            .iter()
            .map(|p| {
                [
                    -(p[1] - 0.5 * p[2]) + 0.5 * p[2],
                    (p[0] - 0.5 * p[2]) + 0.5 * p[2],
                    p[2],
                ]
            })
            .collect();
        for q in [&q1, &q2] {
            let m = monotone_in_y(q);
            assert_eq!(m.len(), 1);
        }
        // a cubic with a y extremum in the middle
        let c: Vec<H2> = vec![[0.0, 0.0, 1.0], [0.3, 1.0, 1.0], [0.6, 1.0, 1.0], [1.0, 0.0, 1.0]];
        let m = monotone_in_y(&c);
        assert_eq!(m.len(), 2);
        assert!((eval(&m[0], 1.0)[1] - 0.75).abs() < 1e-12);
        // the ray from a point left of the first half's crossing at y = 0.5
        let b = hull(&m[0]);
        let t = line_crossings(&c, 1, 0.5)[0];
        let x = eval(&c, t)[0];
        assert!(ray_crosses(&m[0], b[0], b[1], x - 1e-12, 0.5));
        assert!(!ray_crosses(&m[0], b[0], b[1], x + 1e-12, 0.5));
    }
}

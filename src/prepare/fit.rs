//! Polynomial Bézier pieces fitted to a parameter-space curve known only
//! by evaluation (a projected 3-D edge, a Bézier trim mapped through a
//! rational-arc parameter).
//!
//! A piece on `[a, b]` of the curve's parameter is the Bézier curve of
//! degree `n` interpolating the curve at the `n + 1` Chebyshev–Lobatto
//! nodes of `[a, b]` (the end points are the given end points, exactly,
//! so consecutive pieces meet). It is accepted when its distance to the
//! curve at `2n + 1` interior check points (at the same parameter) is at
//! most the tolerance. [`fit`] tries the degrees `min_degree..=max_degree` in
//! turn and keeps the lowest that passes; when the lowest is high, or none
//! passes, the interval is halved and the choice with fewer scene bytes
//! (16 per curve record plus 24 per point) wins.

use crate::geom::bez2::{self, H2};

/// Highest degree [`fit`] tries (the scene allows Bézier trims up to 15).
pub const MAX_DEGREE: usize = 9;

/// Scene bytes of a Bézier trim curve of `points` points.
fn bytes(points: usize) -> usize {
    16 + 24 * points
}

/// Bernstein basis of degree `n` at `t` (`n ≤ 15`).
pub(super) fn bernstein(n: usize, t: f64) -> [f64; 16] {
    let mut b = [0.0; 16];
    b[0] = 1.0;
    let s = 1.0 - t;
    for j in 1..=n {
        let mut saved = 0.0;
        for k in 0..j {
            let tmp = b[k];
            b[k] = saved + s * tmp;
            saved = t * tmp;
        }
        b[j] = saved;
    }
    b
}

/// The `k`-th of the `n + 1` Chebyshev–Lobatto nodes of `[0, 1]`.
pub(super) fn node(n: usize, k: usize) -> f64 {
    if k == 0 {
        0.0
    } else if k == n {
        1.0
    } else {
        0.5 * (1.0 - (std::f64::consts::PI * k as f64 / n as f64).cos())
    }
}

/// The polynomial Bézier curve of degree `n` through `p0` (at 0), `p1`
/// (at 1) and `inner[k - 1]` at the nodes `node(n, k)`, `k = 1..n`;
/// `None` when the system is singular or the result not finite.
fn interpolate(n: usize, p0: [f64; 2], p1: [f64; 2], inner: &[[f64; 2]]) -> Option<Vec<H2>> {
    let m = n.checked_sub(1)?;
    if inner.len() != m {
        return None;
    }
    let mut out: Vec<H2> = Vec::with_capacity(n + 1);
    out.push([p0[0], p0[1], 1.0]);
    if m > 0 {
        // rows: interior nodes; unknowns: interior control points
        let mut a = vec![vec![0.0; m + 2]; m];
        for (r, row) in a.iter_mut().enumerate() {
            let b = bernstein(n, node(n, r + 1));
            row[..m].copy_from_slice(&b[1..n]);
            let q = inner[r];
            row[m] = q[0] - b[0] * p0[0] - b[n] * p1[0];
            row[m + 1] = q[1] - b[0] * p0[1] - b[n] * p1[1];
        }
        // Gaussian elimination with partial pivoting
        for c in 0..m {
            let piv = (c..m).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
            a.swap(c, piv);
            let d = a[c][c];
            if !(d.abs() > 1e-300) {
                return None;
            }
            for r in c + 1..m {
                let f = a[r][c] / d;
                if f != 0.0 {
                    for k in c..m + 2 {
                        a[r][k] -= f * a[c][k];
                    }
                }
            }
        }
        let mut x = vec![[0.0; 2]; m];
        for c in (0..m).rev() {
            let mut s = [a[c][m], a[c][m + 1]];
            for k in c + 1..m {
                s[0] -= a[c][k] * x[k][0];
                s[1] -= a[c][k] * x[k][1];
            }
            x[c] = [s[0] / a[c][c], s[1] / a[c][c]];
        }
        for q in x {
            if !(q[0].is_finite() && q[1].is_finite()) {
                return None;
            }
            out.push([q[0], q[1], 1.0]);
        }
    }
    out.push([p1[0], p1[1], 1.0]);
    Some(out)
}

/// The `k`-th of `count` interior check points of `[0, 1]`, midpoint first
/// (a misfit is usually largest away from the interpolation nodes).
fn check_at(count: usize, k: usize) -> f64 {
    // order 1/2 first, then the rest of the uniform interior grid
    let mid = count / 2;
    let j = if k == 0 {
        mid
    } else if k <= mid {
        k - 1
    } else {
        k
    };
    (j + 1) as f64 / (count + 1) as f64
}

/// The curve to fit: `eval(t, seed)` is its point at parameter `t`
/// (`seed`: a nearby guess, for curves found by projection) and a class
/// flag, `None` where it is undefined. Above the deepest level a piece
/// keeps one class (its start's) at its nodes and check points, so a
/// property of the curve that changes along it (for a projected edge: the
/// edge lying on the surface or not) changes only between pieces.
pub type Eval<'a> = &'a dyn Fn(f64, [f64; 2]) -> Option<([f64; 2], bool)>;

/// Result of fitting one interval at one degree.
enum Try {
    /// Within the tolerance at every check point.
    Pass(Vec<H2>),
    /// Outside it (the largest error found, which stops at the first miss).
    Miss(Vec<H2>, f64),
    /// The curve is undefined at a node or check point.
    Undefined,
}

/// One degree on `[a, b]`; `class`: the class every node and check point
/// must have (a different one counts as a miss).
#[allow(clippy::too_many_arguments)]
fn try_degree(
    eval: Eval,
    n: usize,
    (a, b): (f64, f64),
    p0: [f64; 2],
    p1: [f64; 2],
    seed: &[H2],
    tol: f64,
    class: Option<bool>,
) -> Try {
    let mut inner = Vec::with_capacity(n.saturating_sub(1));
    let mut mixed = false;
    for k in 1..n {
        let f = node(n, k);
        match eval(a + f * (b - a), bez2::eval(seed, f)) {
            Some((q, c)) => {
                inner.push(q);
                mixed |= class.is_some_and(|k| k != c);
            }
            None => return Try::Undefined,
        }
    }
    let Some(c) = interpolate(n, p0, p1, &inner) else {
        return Try::Undefined;
    };
    if mixed {
        return Try::Miss(c, f64::INFINITY);
    }
    let count = 2 * n + 1;
    let mut err = 0.0f64;
    for k in 0..count {
        let f = check_at(count, k);
        let g = bez2::eval(&c, f);
        let Some((q, cl)) = eval(a + f * (b - a), g) else {
            return Try::Undefined;
        };
        let e = (q[0] - g[0]).hypot(q[1] - g[1]);
        err = err.max(if e.is_finite() { e } else { f64::INFINITY });
        if class.is_some_and(|k| k != cl) {
            err = f64::INFINITY;
        }
        if err > tol {
            return Try::Miss(c, err);
        }
    }
    Try::Pass(c)
}

/// Fitting settings.
#[derive(Debug, Clone, Copy)]
pub struct FitParams {
    /// Largest distance to the curve at the check points.
    pub tol: f64,
    /// Halvings allowed below the first interval.
    pub max_depth: u32,
    /// Lowest degree tried (`1..=max_degree`).
    pub min_degree: usize,
    /// Highest degree tried (`1..=15`).
    pub max_degree: usize,
}

/// What [`fit`] does where the curve is undefined or still missed at the
/// deepest level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fallback {
    /// The fit with the smallest error found when it misses the tolerance
    /// narrowly (by at most [`NEAR_MISS`] times) and the curve by less than
    /// the chord does, both measured at the fit's check points; otherwise
    /// the straight chord. A projection whose Newton feet wobble at the
    /// tolerance's order (sdev_wrenchnut #40: 2.8e-6 against 2.5e-6 in
    /// parameters) stays far nearer its fit than its chord (1.5e-3); near a
    /// pole, where parameter distances overstate the distance in space,
    /// the fits miss widely and the chord stays (sw2017_russian_part's
    /// small sphere faces).
    Nearer,
    /// The fit with the smallest error found (the chord where undefined).
    Best,
}

/// Fits the curve `eval` on `[a, b]` (end points `p0`, `p1`, exact) by
/// polynomial Bézier pieces in parameter order. `seed`: a rough curve on
/// `[a, b]` (its parameter mapped to `[0, 1]`) giving the starting guesses
/// of `eval`; `None` uses the chord and then each fit.
#[allow(clippy::too_many_arguments)]
pub fn fit(
    eval: Eval,
    a: f64,
    b: f64,
    p0: [f64; 2],
    p1: [f64; 2],
    seed: Option<&[H2]>,
    params: FitParams,
    fallback: Fallback,
) -> Vec<Vec<H2>> {
    fit_spans(eval, a, b, p0, p1, seed, params, fallback)
        .into_iter()
        .map(|(_, _, c)| c)
        .collect()
}

/// A fitted piece with its parameter interval `[a, b]`.
pub type SpanPiece = (f64, f64, Vec<H2>);

/// [`fit`], each piece with its parameter interval.
#[allow(clippy::too_many_arguments)]
pub fn fit_spans(
    eval: Eval,
    a: f64,
    b: f64,
    p0: [f64; 2],
    p1: [f64; 2],
    seed: Option<&[H2]>,
    params: FitParams,
    fallback: Fallback,
) -> Vec<SpanPiece> {
    fit_rec(eval, a, b, p0, p1, seed, params, fallback, 0)
}

/// One polynomial piece on `[a, b]` through `p0` and `p1` at the lowest
/// degree in `2..=max_degree` that fits `eval` within `tol` at its check
/// points, keeping the class of `a` throughout; `None` when no degree does
/// (no halving). `eval` should carry its own good guesses (the seed given to
/// it is the chord).
pub fn fit_one(eval: Eval, a: f64, b: f64, p0: [f64; 2], p1: [f64; 2], tol: f64, max_degree: usize) -> Option<Vec<H2>> {
    let chord = vec![[p0[0], p0[1], 1.0], [p1[0], p1[1], 1.0]];
    let class = eval(a, p0).map(|(_, c)| c);
    for n in 2..=max_degree.clamp(2, 15) {
        match try_degree(eval, n, (a, b), p0, p1, &chord, tol, class) {
            Try::Pass(c) => return Some(c),
            Try::Miss(..) => {}
            Try::Undefined => return None,
        }
    }
    None
}

/// Merges consecutive fitted pieces of a projected chain (both curved:
/// straight pieces are chords at poles, cusps or missing velocities) into one
/// piece where one polynomial of degree ≤ [`MAX_DEGREE`] fits the
/// projection over both within `tol` (same check as every fitted piece) and
/// takes fewer scene bytes. The coarse steps of [`projected_chain`] are
/// fitted one by one, so a smooth curve otherwise keeps at least one piece
/// per step. The projections of the merged interval start from the pieces'
/// own points, which lie within `tol` of the curve.
pub fn merge(position: Eval, chain: &mut Vec<SpanPiece>, tol: f64) {
    // one pass, each piece moved once (a removal in place would make a long
    // chain quadratic)
    let mut rest = std::mem::take(chain).into_iter();
    let Some(mut cur) = rest.next() else {
        return;
    };
    for next in rest {
        if crate::prepare::budget::exceeded() {
            chain.push(std::mem::replace(&mut cur, next));
            continue;
        }
        let (a0, b0, c0) = &cur;
        let (a1, b1, c1) = &next;
        let joined = *b0 == *a1 && c0.len() >= 3 && c1.len() >= 3 && b0 > a0 && b1 > a1;
        let merged = joined
            .then(|| {
                let (a0, b0, a1, b1) = (*a0, *b0, *a1, *b1);
                let guess = |s: f64| {
                    if s <= b0 {
                        bez2::eval(c0, (s - a0) / (b0 - a0))
                    } else {
                        bez2::eval(c1, (s - a1) / (b1 - a1))
                    }
                };
                let eval = |s: f64, _: [f64; 2]| position(s, guess(s));
                let (p0, p1) = (bez2::eval(c0, 0.0), bez2::eval(c1, 1.0));
                // fewer bytes needs n + 1 ≤ the pair's point count: higher
                // degrees are not tried (same result, fewer projections)
                let most = MAX_DEGREE.min(c0.len() + c1.len() - 1);
                fit_one(&eval, a0, b1, p0, p1, tol, most)
                    .filter(|m| pieces_bytes([m]) < pieces_bytes([c0, c1]))
                    .map(|m| (a0, b1, m))
            })
            .flatten();
        match merged {
            Some(m) => cur = m,
            None => chain.push(std::mem::replace(&mut cur, next)),
        }
    }
    chain.push(cur);
}

/// Scene bytes of the pieces `c` (16 per curve record, 24 per point).
pub fn pieces_bytes<'a>(c: impl IntoIterator<Item = &'a Vec<H2>>) -> usize {
    c.into_iter().map(|h| bytes(h.len())).sum()
}

/// How far beyond the tolerance a fit may miss and still be kept by
/// [`Fallback::Nearer`].
pub const NEAR_MISS: f64 = 1e4;

/// [`Fallback::Nearer`]: the fit `best` when it misses the curve by at most
/// [`NEAR_MISS`] × `tol` and by less than the chord does, both measured at
/// the fit's check points (each projected once, from the fit's point), else
/// the chord.
fn nearer(eval: Eval, (a, b): (f64, f64), chord: Vec<H2>, best: Option<(Vec<H2>, f64)>, tol: f64) -> Vec<H2> {
    let Some((fit, _)) = best else {
        return chord;
    };
    let count = 2 * (fit.len() - 1) + 1;
    if !crate::prepare::budget::charge(count as u64) {
        return chord;
    }
    let (mut fit_err, mut chord_err) = (0.0f64, 0.0f64);
    for k in 0..count {
        let f = check_at(count, k);
        let g = bez2::eval(&fit, f);
        let Some((q, _)) = eval(a + f * (b - a), g) else {
            return chord;
        };
        let c = bez2::eval(&chord, f);
        fit_err = fit_err.max((q[0] - g[0]).hypot(q[1] - g[1]));
        chord_err = chord_err.max((q[0] - c[0]).hypot(q[1] - c[1]));
    }
    if fit_err < chord_err && fit_err <= NEAR_MISS * tol {
        fit
    } else {
        chord
    }
}

#[allow(clippy::too_many_arguments)]
fn fit_rec(
    eval: Eval,
    a: f64,
    b: f64,
    p0: [f64; 2],
    p1: [f64; 2],
    seed: Option<&[H2]>,
    params: FitParams,
    fallback: Fallback,
    depth: u32,
) -> Vec<SpanPiece> {
    let chord = vec![[p0[0], p0[1], 1.0], [p1[0], p1[1], 1.0]];
    if !crate::prepare::budget::charge(1) {
        return vec![(a, b, chord)];
    }
    let max_degree = params.max_degree.clamp(1, 15);
    let min_degree = params.min_degree.clamp(1, max_degree);
    let mut best: Option<(Vec<H2>, f64)> = None;
    let mut found: Option<Vec<H2>> = None;
    let mut undefined = false;
    let mut prev: Vec<H2> = seed.map_or_else(|| chord.clone(), |s| s.to_vec());
    // one class per piece above the deepest level (the class at `a`, seeded by the start point)
    let class = if depth < params.max_depth {
        eval(a, p0).map(|(_, c)| c)
    } else {
        None
    };
    for n in min_degree..=max_degree {
        // a try of degree `n` makes up to `3n` evaluations of `eval` (a
        // mapped p-curve point costs about a unit each third of them; a
        // projection is charged again where it is made): the node's single
        // unit would let a wild curve try all 15 degrees at every node of a
        // 14-deep recursion nearly for free
        if !crate::prepare::budget::charge(n as u64) {
            break;
        }
        match try_degree(eval, n, (a, b), p0, p1, &prev, params.tol, class) {
            Try::Pass(c) => {
                found = Some(c);
                break;
            }
            Try::Miss(c, e) => {
                if best.as_ref().map_or(true, |b| e < b.1) {
                    best = Some((c.clone(), e));
                }
                // a higher degree starts from the seed or the best fit so far
                if seed.is_none() {
                    prev = c;
                }
            }
            Try::Undefined => {
                undefined = true;
                break;
            }
        }
    }
    if undefined && depth >= params.max_depth {
        return vec![(a, b, chord)];
    }
    let split = |seed_here: &[H2]| -> Vec<SpanPiece> {
        let m = 0.5 * (a + b);
        let guess = bez2::eval(seed_here, 0.5);
        let Some((pm, _)) = eval(m, guess) else {
            return vec![(a, b, chord.clone())];
        };
        let (s0, s1) = bez2::split(seed_here, 0.5);
        let mut v = fit_rec(eval, a, m, p0, pm, Some(&s0), params, fallback, depth + 1);
        v.extend(fit_rec(eval, m, b, pm, p1, Some(&s1), params, fallback, depth + 1));
        v
    };
    match found {
        Some(c) => {
            // halving can be cheaper than one high-degree piece
            if depth < params.max_depth && c.len() >= 7 {
                let halves = split(&c);
                if pieces_bytes(halves.iter().map(|h| &h.2)) < bytes(c.len()) {
                    return halves;
                }
            }
            vec![(a, b, c)]
        }
        None if depth < params.max_depth => {
            let s = seed.map_or_else(|| best.as_ref().map_or(chord.clone(), |b| b.0.clone()), |s| s.to_vec());
            split(&s)
        }
        None => match fallback {
            Fallback::Nearer => vec![(a, b, nearer(eval, (a, b), chord, best, params.tol))],
            Fallback::Best => vec![(a, b, best.map_or(chord, |b| b.0))],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(t: f64, _: [f64; 2]) -> Option<([f64; 2], bool)> {
        Some(([t.cos(), t.sin()], true))
    }

    /// Largest distance of the pieces from the unit circle (201 points each).
    fn max_err(pieces: &[Vec<H2>]) -> f64 {
        let mut e = 0.0f64;
        for h in pieces {
            for k in 0..=200 {
                let p = bez2::eval(h, k as f64 / 200.0);
                e = e.max((p[0].hypot(p[1]) - 1.0).abs());
            }
        }
        e
    }

    #[test]
    fn interpolation_reproduces_a_polynomial_exactly() {
        // a degree-5 polynomial curve is fitted at degree 5 (or less) to rounding
        let f = |t: f64, _: [f64; 2]| Some(([t.powi(5) - 2.0 * t * t, 3.0 * t.powi(4) + t], true));
        let p = FitParams {
            tol: 1e-13,
            max_depth: 0,
            min_degree: 1,
            max_degree: 9,
        };
        let v = fit(&f, 0.0, 1.0, [0.0, 0.0], [-1.0, 4.0], None, p, Fallback::Best);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].len(), 6);
        for k in 0..=50 {
            let t = k as f64 / 50.0;
            let q = bez2::eval(&v[0], t);
            let r = f(t, [0.0; 2]).unwrap().0;
            assert!((q[0] - r[0]).abs() < 1e-13 && (q[1] - r[1]).abs() < 1e-13);
        }
    }

    #[test]
    fn a_circle_arc_is_fitted_within_the_tolerance_with_exact_shared_ends() {
        for tol in [1e-8, 1e-11] {
            let p = FitParams {
                tol,
                max_depth: 14,
                min_degree: 1,
                max_degree: MAX_DEGREE,
            };
            let v = fit(
                &circle,
                0.0,
                3.0,
                [1.0, 0.0],
                [3f64.cos(), 3f64.sin()],
                None,
                p,
                Fallback::Best,
            );
            // dense check between the check points: within 10 × the tolerance
            assert!(max_err(&v) <= 10.0 * tol, "tol {tol}: {}", max_err(&v));
            for w in v.windows(2) {
                assert_eq!(bez2::eval(&w[0], 1.0), bez2::eval(&w[1], 0.0));
            }
            assert_eq!(bez2::eval(&v[0], 0.0), [1.0, 0.0]);
            // fewer bytes than cubic pieces at the same tolerance would need
            let cubic = fit(
                &circle,
                0.0,
                3.0,
                [1.0, 0.0],
                [3f64.cos(), 3f64.sin()],
                None,
                FitParams { max_degree: 3, ..p },
                Fallback::Best,
            );
            assert!(
                pieces_bytes(&v) < pieces_bytes(&cubic),
                "{} vs {}",
                pieces_bytes(&v),
                pieces_bytes(&cubic)
            );
        }
    }

    #[test]
    fn a_piece_keeps_one_class_above_the_deepest_level() {
        // a parabola (exact at degree 2) whose class flips at t = 0.37: a
        // piece (above the deepest level) straddles the flip only where no
        // node or check point sees it, within 1/(2n + 2) of its length of an end
        let f = |t: f64, _: [f64; 2]| Some(([t, t * t], t < 0.37));
        let p = FitParams {
            tol: 1e-12,
            max_depth: 5,
            min_degree: 1,
            max_degree: 9,
        };
        let v = fit(&f, 0.0, 1.0, [0.0, 0.0], [1.0, 1.0], None, p, Fallback::Best);
        assert!(v.len() > 1);
        for h in &v {
            let (a, b) = (bez2::eval(h, 0.0)[0], bez2::eval(h, 1.0)[0]);
            assert!(h.len() <= 3, "a parabola needs degree 2 at most");
            if a < 0.37 && b > 0.37 {
                let n = (h.len() - 1) as f64;
                assert!(
                    (0.37 - a).min(b - 0.37) <= (b - a) / (2.0 * n + 2.0) + 1e-12,
                    "{a}..{b}"
                );
            }
        }
        // without the flip: one piece
        let g = |t: f64, _: [f64; 2]| Some(([t, t * t], true));
        assert_eq!(
            fit(&g, 0.0, 1.0, [0.0, 0.0], [1.0, 1.0], None, p, Fallback::Best).len(),
            1
        );
    }

    #[test]
    fn an_undefined_curve_gives_its_chord() {
        let f = |t: f64, _: [f64; 2]| (t < 0.3).then_some(([t, 0.0], true));
        let p = FitParams {
            tol: 1e-9,
            max_depth: 3,
            min_degree: 1,
            max_degree: 5,
        };
        let v = fit(&f, 0.0, 1.0, [0.0, 0.0], [1.0, 0.0], None, p, Fallback::Nearer);
        assert_eq!(v, vec![vec![[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]]]);
    }

    /// A quarter circle of radius 1 with a wobble of amplitude `w` (a
    /// projection whose Newton feet scatter at that order).
    fn wobbly_arc(w: f64) -> impl Fn(f64, [f64; 2]) -> Option<([f64; 2], bool)> {
        move |t: f64, _: [f64; 2]| {
            let a = 0.5 * std::f64::consts::PI * t;
            let r = 1.0 + w * (4000.0 * t).sin();
            Some(([r * a.cos(), r * a.sin()], true))
        }
    }

    /// The largest distance of the pieces from the arc without its wobble.
    fn off_arc(v: &[Vec<H2>]) -> f64 {
        v.iter()
            .flat_map(|h| (0..=64).map(move |i| bez2::eval(h, i as f64 / 64.0)))
            .map(|p| (p[0].hypot(p[1]) - 1.0).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn a_narrow_miss_at_the_deepest_level_keeps_the_fit_not_the_chord() {
        // the wobble (1e-7) exceeds the tolerance (5e-8) at every depth:
        // the deepest pieces fall back; the nearer is the fit (within a few
        // wobbles of the arc), not the chord (sagitta ≈ 3e-4 at depth 2)
        let p = FitParams {
            tol: 5e-8,
            max_depth: 2,
            min_degree: 2,
            max_degree: MAX_DEGREE,
        };
        let f = wobbly_arc(1e-7);
        let v = fit(&f, 0.0, 1.0, [1.0, 0.0], [0.0, 1.0], None, p, Fallback::Nearer);
        assert!(v.iter().all(|h| h.len() > 2), "a chord was kept");
        assert!(off_arc(&v) <= 1e-5, "{}", off_arc(&v));
    }

    #[test]
    fn a_wild_curve_at_the_deepest_level_keeps_the_chord() {
        // a jump the polynomials cannot follow: no fit is nearer than the chord
        let f = |t: f64, _: [f64; 2]| Some(([t, if t < 0.5 { 0.0 } else { 1e-3 }], true));
        let p = FitParams {
            tol: 1e-9,
            max_depth: 0,
            min_degree: 2,
            max_degree: 4,
        };
        let v = fit(&f, 0.0, 1.0, [0.0, 0.0], [1.0, 1e-3], None, p, Fallback::Nearer);
        assert_eq!(v, vec![vec![[0.0, 0.0, 1.0], [1.0, 1e-3, 1.0]]]);
    }

    #[test]
    fn merging_a_chain_of_steps_keeps_the_tolerance_with_fewer_pieces() {
        // a quarter circle fitted in 8 steps, then merged
        let tol = 1e-10;
        let params = FitParams {
            tol,
            max_depth: 6,
            min_degree: 2,
            max_degree: MAX_DEGREE,
        };
        let mut chain = Vec::new();
        for k in 0..8 {
            let (a, b) = (k as f64 * 0.2, (k + 1) as f64 * 0.2);
            let at = |t: f64| [t.cos(), t.sin()];
            chain.extend(fit_spans(&circle, a, b, at(a), at(b), None, params, Fallback::Best));
        }
        let before = chain.len();
        let bytes_before = pieces_bytes(chain.iter().map(|c| &c.2));
        merge(&circle, &mut chain, tol);
        let pieces: Vec<Vec<H2>> = chain.iter().map(|c| c.2.clone()).collect();
        assert!(chain.len() < before, "{} pieces, were {before}", chain.len());
        assert!(pieces_bytes(&pieces) < bytes_before);
        assert!(max_err(&pieces) < 2.0 * tol, "{}", max_err(&pieces));
        // the intervals still tile [0, 1.6] and consecutive pieces meet
        assert_eq!(chain[0].0, 0.0);
        assert!((chain.last().unwrap().1 - 1.6).abs() < 1e-15);
        for w in chain.windows(2) {
            assert_eq!(w[0].1, w[1].0);
            assert_eq!(w[0].2.last(), w[1].2.first());
        }
        // straight pieces are never merged
        let mut lines = vec![
            (0.0, 0.5, vec![[1.0, 0.0, 1.0], [0.9, 0.4, 1.0]]),
            (0.5, 1.0, vec![[0.9, 0.4, 1.0], [0.5, 0.8, 1.0]]),
        ];
        merge(&circle, &mut lines, tol);
        assert_eq!(lines.len(), 2);
    }
}

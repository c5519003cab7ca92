//! Point projection onto the Model's surfaces and curves (foot points): grid
//! or sample seeds refined by Newton / Gauss–Newton iterations inside a
//! parameter box, closed forms for the analytic cases.
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use crate::geom::Vec3;
use crate::import::model::{Curve, Surface};
use std::f64::consts::{PI, TAU};

/// Result of a point projection onto a surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceProjection {
    /// Parameters of the foot point.
    pub u: f64,
    /// Parameters of the foot point.
    pub v: f64,
    /// The foot point.
    pub point: Vec3,
    /// Distance from the query point.
    pub distance: f64,
}

/// Newton refinement of `min |S(u,v) − p|` from `(u, v)`, kept inside `bounds`.
pub fn newton_surface(s: &Surface, p: &Vec3, u: f64, v: f64, bounds: ((f64, f64), (f64, f64))) -> SurfaceProjection {
    newton_surface_counted(s, p, u, v, bounds).0
}

/// What one evaluation of `s` at `(u, v)` costs, in evaluations: 1, and
/// [`WRAP_EVALUATIONS`] more for a B-spline surface evaluated outside its
/// knot domain (a periodic face's parameters unwrapped past the seam): it
/// first finds whether the surface is closed (`Surface::periods`: the
/// hull's box and 20 boundary evaluations) to wrap the parameters back.
pub fn evaluation_cost(s: &Surface, u: f64, v: f64) -> u32 {
    match s {
        Surface::BSpline(b) => {
            let ((u0, u1), (v0, v1)) = b.domain();
            if u < u0 || u > u1 || v < v0 || v > v1 {
                1 + WRAP_EVALUATIONS
            } else {
                1
            }
        }
        Surface::Trimmed { basis, .. } => evaluation_cost(basis, u, v),
        _ => 1,
    }
}

/// Extra evaluations an evaluation of a B-spline surface outside its knot
/// domain costs ([`evaluation_cost`]): the 20 evaluations of the closedness
/// test and about as much again for the scan of the poles' box (measured:
/// `Surface::periods` took as much time as the evaluations themselves on a
/// periodic 7×7 face whose projections all ran past its seam).
pub const WRAP_EVALUATIONS: u32 = 24;

/// [`newton_surface`], with the number of surface evaluations it made
/// (point evaluations and evaluations with derivatives alike: 1 + up to
/// 13 per Newton step, each priced by [`evaluation_cost`]), the measure of
/// its work a budget charges.
pub fn newton_surface_counted(
    s: &Surface,
    p: &Vec3,
    mut u: f64,
    mut v: f64,
    bounds: ((f64, f64), (f64, f64)),
) -> (SurfaceProjection, u32) {
    let ((u0, u1), (v0, v1)) = bounds;
    let mut evaluations = evaluation_cost(s, u, v);
    let mut best = s.eval(u, v);
    let mut best_d = (best - p).norm();
    let (mut bu, mut bv) = (u, v);
    for _ in 0..40 {
        let e = s.eval_derivs(u, v);
        evaluations = evaluations.saturating_add(evaluation_cost(s, u, v));
        let r = e.p - p;
        let g = [r.dot(&e.su), r.dot(&e.sv)];
        let a = e.su.dot(&e.su) + r.dot(&e.suu);
        let b = e.su.dot(&e.sv) + r.dot(&e.suv);
        let c = e.sv.dot(&e.sv) + r.dot(&e.svv);
        let det = a * c - b * b;
        let (du, dv) = if det > 1e-300 && a > 0.0 {
            ((-g[0] * c + g[1] * b) / det, (g[0] * b - g[1] * a) / det)
        } else {
            gauss_newton_step(e.su, e.sv, g)
        };
        if !(du.is_finite() && dv.is_finite()) {
            break;
        }
        let mut step = 1.0;
        let mut improved = false;
        for _ in 0..12 {
            let nu = (u + du * step).clamp(u0, u1);
            let nv = (v + dv * step).clamp(v0, v1);
            let q = s.eval(nu, nv);
            evaluations = evaluations.saturating_add(evaluation_cost(s, nu, nv));
            let d = (q - p).norm();
            if d <= best_d {
                best_d = d;
                best = q;
                bu = nu;
                bv = nv;
                u = nu;
                v = nv;
                improved = true;
                break;
            }
            step *= 0.5;
        }
        if !improved || (du.abs() + dv.abs()) * step < 1e-15 * (1.0 + u.abs() + v.abs()) {
            break;
        }
    }
    (
        SurfaceProjection {
            u: bu,
            v: bv,
            point: best,
            distance: best_d,
        },
        evaluations,
    )
}

/// The Gauss–Newton step `(du, dv)` for the gradient `g = (r·S_u, r·S_v)`,
/// damped (Levenberg–Marquardt) by `1e-9` of the normal matrix's trace so that
/// a collapsed direction (a pole or a side collapsed to a point, `S_v = 0`)
/// gives the step along the other direction instead of none.
fn gauss_newton_step(su: Vec3, sv: Vec3, g: [f64; 2]) -> (f64, f64) {
    let lambda = 1e-9 * (su.norm_squared() + sv.norm_squared()) + 1e-300;
    let (a, b, c) = (su.norm_squared() + lambda, su.dot(&sv), sv.norm_squared() + lambda);
    let det = a * c - b * b;
    ((-g[0] * c + g[1] * b) / det, (g[0] * b - g[1] * a) / det)
}

/// Projects `p` onto `s` within the parameter box `bounds` (grid seed of
/// `grid × grid` samples, then Newton). Analytic surfaces use closed forms.
///
/// Three places where Newton from a grid node stops short of the foot are
/// handled (iges_3dipsos320's swept rectangle tube: fan caps collapsed to
/// the rectangle's centre, closed round the rectangle, folded onto the
/// sweep at C0 knots where the cap's parametrization has zero speed):
/// * the nodes of a side collapsed to one point are one seed, started on
///   the generator (the derivative off the side) that passes nearest `p`
///   ([`generator_miss`]), not on the first node's;
/// * the lines just either side of a B-spline's C0 knot lines (a fold) are
///   seed lines too (where there are at most `grid / 4` of them in a
///   direction: at most 2.25 times the grid's evaluations), and a Newton
///   that ends within its distance of a fold goes on from the fold's other
///   side (one side's speed may vanish there);
/// * in a closed direction (the bounds are the whole period) a Newton that
///   ends on the seam goes on from the seam's other copy.
pub fn project_surface(s: &Surface, p: &Vec3, bounds: ((f64, f64), (f64, f64)), grid: usize) -> SurfaceProjection {
    if let Some((mut u, v)) = s.analytic_params(p) {
        if u.is_nan() {
            u = 0.0;
        }
        let q = s.eval(u, v);
        return SurfaceProjection {
            u,
            v,
            point: q,
            distance: (q - p).norm(),
        };
    }
    let ((u0, u1), (v0, v1)) = bounds;
    let n = grid.max(2);
    let folds = [fold_lines(s, 0, (u0, u1)), fold_lines(s, 1, (v0, v1))];
    let lines = |lo: f64, hi: f64, f: &[f64]| -> Vec<f64> {
        let d = FOLD_SIDE * (hi - lo);
        (0..=n)
            .map(|i| lo + (hi - lo) * i as f64 / n as f64)
            .chain(f.iter().filter(|_| f.len() <= n / 4).flat_map(|&k| [k - d, k + d]))
            .collect()
    };
    let (us, vs) = (lines(u0, u1, &folds[0]), lines(v0, v1, &folds[1]));
    // keep the best few grid nodes as Newton seeds, one per 3-D point: the
    // nodes of a side collapsed to a point (a pole, a fan's centre) are one
    // point and would otherwise fill every seed; of those, the node whose
    // generator passes nearest `p`
    let mut seeds = [(u0, v0, f64::INFINITY, Vec3::zeros()); 4];
    let mut miss = [f64::INFINITY; 4];
    for &u in &us {
        for &v in &vs {
            let q = s.eval(u, v);
            let d = (q - p).norm_squared();
            let seen = |seed: &(f64, f64, f64, Vec3)| seed.2.is_finite() && (seed.3 - q).norm() <= 1e-12 * (1.0 + q.norm());
            match seeds.iter().position(seen) {
                Some(k) => {
                    if let Some(m) = generator_miss(s, p, u, v, bounds) {
                        if miss[k].is_infinite() {
                            miss[k] = generator_miss(s, p, seeds[k].0, seeds[k].1, bounds).unwrap_or(f64::INFINITY);
                        }
                        if m < miss[k] {
                            (seeds[k].0, seeds[k].1, miss[k]) = (u, v, m);
                        }
                    }
                }
                None if d < seeds[3].2 => {
                    seeds[3] = (u, v, d, q);
                    miss[3] = f64::INFINITY;
                    let mut order = [0, 1, 2, 3];
                    order.sort_by(|&a, &b| seeds[a].2.total_cmp(&seeds[b].2));
                    let (was, was_miss) = (seeds, miss);
                    for (k, &i) in order.iter().enumerate() {
                        seeds[k] = was[i];
                        miss[k] = was_miss[i];
                    }
                }
                None => {}
            }
        }
    }
    let closed = closed_directions(s, bounds);
    let mut best: Option<SurfaceProjection> = None;
    for &(u, v, d, _) in &seeds {
        if !d.is_finite() {
            continue;
        }
        let r = go_on(s, p, newton_surface(s, p, u, v, bounds), bounds, &folds, closed);
        if best.map_or(true, |b| r.distance < b.distance) {
            best = Some(r);
        }
        if r.distance < 1e-12 {
            break;
        }
    }
    best.unwrap_or_else(|| newton_surface(s, p, u0, v0, bounds))
}

/// How far beside a fold (a C0 knot line) [`project_surface`] seeds and
/// restarts, relative to the parameter range: inside the span on that side,
/// well above the parameters' rounding.
const FOLD_SIDE: f64 = 1e-9;

/// The C0 knot lines (multiplicity at least the degree) of a B-spline
/// surface inside `range` of parameter `k` (0: u, 1: v); none for the other
/// kinds.
fn fold_lines(s: &Surface, k: usize, range: (f64, f64)) -> Vec<f64> {
    if !matches!(s, Surface::BSpline(_)) {
        return Vec::new();
    }
    let mut out = super::creases::surface_creases(s, k);
    out.retain(|&c| c > range.0 && c < range.1);
    out
}

/// The directions in which `bounds` spans a whole period of `s` (the seam
/// lines `u0` and `u1` are one curve).
fn closed_directions(s: &Surface, bounds: ((f64, f64), (f64, f64))) -> [bool; 2] {
    let (pu, pv) = s.periods();
    let whole = |per: Option<f64>, (lo, hi): (f64, f64)| per.is_some_and(|t| ((hi - lo) - t).abs() <= 1e-9 * t);
    [whole(pu, bounds.0), whole(pv, bounds.1)]
}

/// At a node on a side collapsed to one point, the distance from `p` to the
/// generator leaving the point there: the ray along the non-vanishing
/// derivative into the box (the line, off the box's sides). `None` where
/// the surface does not collapse, and for `p` on the collapsed point itself
/// (no generator is nearer: the first node's seed stays).
fn generator_miss(s: &Surface, p: &Vec3, u: f64, v: f64, bounds: ((f64, f64), (f64, f64))) -> Option<f64> {
    let e = s.eval_derivs(u, v);
    let (a, b) = (e.su.norm(), e.sv.norm());
    let side = |x: f64, (lo, hi): (f64, f64)| {
        if x <= lo {
            1.0
        } else if x >= hi {
            -1.0
        } else {
            0.0
        }
    };
    let (g, sign) = if b <= 1e-7 * a {
        (e.su, side(u, bounds.0))
    } else if a <= 1e-7 * b {
        (e.sv, side(v, bounds.1))
    } else {
        return None;
    };
    let gn = g.norm();
    if !(gn > 0.0) {
        return None;
    }
    let w = p - e.p;
    // at the collapsed point itself every generator is as near
    if w.norm() <= 1e-12 * (1.0 + p.norm()) {
        return None;
    }
    let t = w.dot(&g) / gn;
    let t = if sign == 0.0 { t } else { (t * sign).max(0.0) * sign };
    Some((w - g * (t / gn)).norm())
}

/// Newton's end `r` carried on past a fold or a seam (see
/// [`project_surface`]): from the other side of a fold lying within `r`'s
/// distance of its foot, from the other copy of a seam it ends on; the
/// nearest result, at most four times.
fn go_on(
    s: &Surface,
    p: &Vec3,
    mut r: SurfaceProjection,
    bounds: ((f64, f64), (f64, f64)),
    folds: &[Vec<f64>; 2],
    closed: [bool; 2],
) -> SurfaceProjection {
    let ranges = [bounds.0, bounds.1];
    for _ in 0..4 {
        let mut starts: Vec<(f64, f64)> = Vec::new();
        for k in 0..2 {
            let x = if k == 0 { r.u } else { r.v };
            let at = |y: f64| if k == 0 { (y, r.v) } else { (r.u, y) };
            let (lo, hi) = ranges[k];
            if closed[k] && (x <= lo || x >= hi) {
                starts.push(at(if x <= lo { hi } else { lo }));
            }
            // the nearest fold, when it lies within the distance
            let near = folds[k]
                .iter()
                .copied()
                .min_by(|a, b| (a - x).abs().total_cmp(&(b - x).abs()));
            if let Some(f) = near {
                let (fu, fv) = at(f);
                if (s.eval(fu, fv) - r.point).norm() <= r.distance {
                    let d = FOLD_SIDE * (hi - lo);
                    starts.push(at(if x >= f { f - d } else { f + d }));
                }
            }
        }
        let next = starts
            .into_iter()
            .map(|(u, v)| newton_surface(s, p, u, v, bounds))
            .min_by(|a, b| a.distance.total_cmp(&b.distance));
        match next {
            Some(n) if n.distance < r.distance => r = n,
            _ => break,
        }
    }
    r
}

/// Parameter of the point of `c` nearest to `p` (closed forms for lines and
/// conics, sampling + Newton otherwise).
pub fn curve_param_of(c: &Curve, p: &Vec3) -> f64 {
    curve_param_toward(c, p, false)
}

/// [`curve_param_of`] for an edge's vertex that the edge leaves from
/// (`arriving` false) or arrives at (`arriving` true): a vertex at the
/// closing point of a closed bounded curve (a closed composite or
/// B-spline, whose two ends are one point) takes the curve's first
/// parameter when the edge leaves from it and its last when the edge
/// arrives there. Elsewhere the same as [`curve_param_of`].
pub fn curve_param_toward(c: &Curve, p: &Vec3, arriving: bool) -> f64 {
    match c {
        Curve::Line { origin, dir } => (p - origin).dot(dir) / dir.norm_squared().max(1e-300),
        Curve::Circle { frame, .. } | Curve::Ellipse { frame, .. } => {
            let d = p - frame.origin;
            let (x, y) = (d.dot(&frame.x), d.dot(&frame.y));
            let t0 = match c {
                Curve::Ellipse { semi_x, semi_y, .. } => (y / semi_y).atan2(x / semi_x),
                _ => y.atan2(x),
            };
            let t0 = if t0 < 0.0 { t0 + TAU } else { t0 };
            let t = newton_curve(c, p, t0, (t0 - PI, t0 + PI));
            t.rem_euclid(TAU)
        }
        Curve::Parabola { frame, .. } => newton_curve(c, p, (p - frame.origin).dot(&frame.y), (f64::MIN, f64::MAX)),
        Curve::Hyperbola { frame, semi_y, .. } => newton_curve(
            c,
            p,
            ((p - frame.origin).dot(&frame.y) / semi_y).asinh(),
            (f64::MIN, f64::MAX),
        ),
        _ => {
            let (t0, t1) = c.natural_range().unwrap_or((0.0, 1.0));
            // end points first (the usual case for edge vertices): accept an
            // end within a small fraction of the curve's size, then polish
            let (a, b) = (c.eval(t0), c.eval(t1));
            let size = (a - b).norm().max(match c {
                Curve::BSpline(bs) => bs.cw.windows(2).map(|w| (bs_pole(&w[0]) - bs_pole(&w[1])).norm()).sum(),
                _ => 0.0,
            });
            let near = 1e-6 * (1.0 + size);
            let (da, db) = ((a - p).norm(), (b - p).norm());
            if da.max(db) <= near {
                // the closing point of a closed curve: the end the edge uses there
                return if arriving { t1 } else { t0 };
            }
            if da.min(db) <= near {
                let t = if da <= db { t0 } else { t1 };
                return newton_curve(c, p, t, (t0, t1));
            }
            let n = match c {
                Curve::BSpline(b) => (b.cw.len() * 3).clamp(16, 300),
                Curve::Polyline(v) => v.len() * 2,
                Curve::Composite(s) => s.len() * 16,
                _ => 32,
            };
            let mut best = (t0, f64::INFINITY);
            for i in 0..=n {
                let t = t0 + (t1 - t0) * i as f64 / n as f64;
                let d = (c.eval(t) - p).norm_squared();
                if d < best.1 {
                    best = (t, d);
                }
            }
            newton_curve(c, p, best.0, (t0, t1))
        }
    }
}

fn bs_pole(h: &[f64; 4]) -> Vec3 {
    Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3])
}

/// Newton refinement of `min |c(t) − p|` from `t` inside `range`.
pub fn newton_curve(c: &Curve, p: &Vec3, mut t: f64, range: (f64, f64)) -> f64 {
    let mut best_d = (c.eval(t) - p).norm();
    for _ in 0..40 {
        let e = c.eval_derivs(t);
        let r = e.p - p;
        let g = r.dot(&e.d1);
        let h = e.d1.dot(&e.d1) + r.dot(&e.d2);
        let dt = if h > 1e-300 {
            -g / h
        } else {
            -g / e.d1.dot(&e.d1).max(1e-300)
        };
        if !dt.is_finite() {
            break;
        }
        let mut step = 1.0;
        let mut moved = false;
        for _ in 0..12 {
            let nt = (t + dt * step).clamp(range.0, range.1);
            let d = (c.eval(nt) - p).norm();
            if d <= best_d {
                best_d = d;
                moved = (nt - t).abs() > 0.0;
                t = nt;
                break;
            }
            step *= 0.5;
        }
        if !moved || (dt * step).abs() < 1e-15 * (1.0 + t.abs()) {
            break;
        }
    }
    t
}

/// Parameter of the point of `c` on `[t0, t1]` nearest to `p`: the nearest
/// of 65 evenly spaced samples, refined by Newton inside the range.
pub fn curve_param_in_range(c: &Curve, t0: f64, t1: f64, p: &Vec3) -> f64 {
    let n = 64;
    let mut best = (t0, f64::INFINITY);
    for i in 0..=n {
        let t = t0 + (t1 - t0) * i as f64 / n as f64;
        let d = (c.eval(t) - p).norm_squared();
        if d < best.1 {
            best = (t, d);
        }
    }
    newton_curve(c, p, best.0, (t0.min(t1), t0.max(t1)))
}

/// Distance from `p` to an edge curve restricted to `[t0, t1]`.
pub fn distance_to_curve_range(c: &Curve, t0: f64, t1: f64, p: &Vec3) -> f64 {
    (c.eval(curve_param_in_range(c, t0, t1, p)) - p).norm()
}

/// The result of projecting a point onto a surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    /// Parameters of the foot point.
    pub uv: (f64, f64),
    /// The foot point.
    pub point: Vec3,
    /// Distance from the query point, mm.
    pub distance: f64,
}

/// Projects `q` onto `s` within the parameter box `bx` (`((u0,u1),(v0,v1))`):
/// closed form for analytic surfaces, else a `grid × grid` search followed by
/// clamped Gauss–Newton iterations from the 8 best local minima of the grid
/// (the nearest foot wins). `tol` is the
/// parameter step (relative to the box) at which iterations stop. More robust
/// near degenerate pole rows than [`project_surface`] (used by the IGES tests).
pub fn project(s: &Surface, q: &Vec3, bx: ((f64, f64), (f64, f64)), grid: usize, tol: f64) -> Projection {
    let ((u0, u1), (v0, v1)) = bx;
    let finish = |u: f64, v: f64| {
        let p = s.eval(u, v);
        Projection {
            uv: (u, v),
            point: p,
            distance: (p - q).norm(),
        }
    };
    if let Some((u, v)) = s.invert_analytic(q) {
        return finish(u, v);
    }
    let g = match s {
        Surface::BSpline(b) => grid.max(3 * b.n_u.max(b.n_v)).min(240),
        _ => grid,
    }
    .max(2);
    let (per_u, per_v) = s.periods();
    let (us, vs) = (seed_lines(s, 0, (u0, u1), g), seed_lines(s, 1, (v0, v1), g));
    let (nu, nv) = (us.len(), vs.len());
    let mut samples = Vec::with_capacity(nu * nv);
    for &u in &us {
        for &v in &vs {
            samples.push(((s.eval(u, v) - q).norm_squared(), u, v));
        }
    }
    // Gauss–Newton from the best few local minima of the grid: on folded or
    // self-overlapping patches the best sample can lie on the wrong sheet
    let at = |i: usize, j: usize| samples[i * nv + j].0;
    let mut firsts: Vec<(f64, f64, f64)> = Vec::new();
    for i in 0..nu {
        for j in 0..nv {
            let d = at(i, j);
            let lower = (i.saturating_sub(1)..=(i + 1).min(nu - 1))
                .flat_map(|a| (j.saturating_sub(1)..=(j + 1).min(nv - 1)).map(move |b| (a, b)))
                .any(|(a, b)| at(a, b) < d);
            if !lower {
                firsts.push(samples[i * nv + j]);
            }
        }
    }
    firsts.sort_by(|a, b| a.0.total_cmp(&b.0));
    firsts.truncate(8);
    let su_span = (u1 - u0).abs().max(1e-300);
    let sv_span = (v1 - v0).abs().max(1e-300);
    let descend = |mut u: f64, mut v: f64| -> (f64, f64) {
        for _ in 0..100 {
            let d = s.eval_derivs(u, v);
            let r = d.p - q;
            let a11 = d.su.dot(&d.su);
            let a12 = d.su.dot(&d.sv);
            let a22 = d.sv.dot(&d.sv);
            let b1 = -r.dot(&d.su);
            let b2 = -r.dot(&d.sv);
            let det = a11 * a22 - a12 * a12;
            let (du, dv) = if det.abs() > 1e-300 {
                ((b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det)
            } else if a11 > 0.0 {
                (b1 / a11, 0.0)
            } else if a22 > 0.0 {
                (0.0, b2 / a22)
            } else {
                break;
            };
            // limit the step to a tenth of the box
            let scale = (du.abs() / (0.1 * su_span)).max(dv.abs() / (0.1 * sv_span)).max(1.0);
            let wrap = |x: f64, a: f64, b: f64, per: Option<f64>| match per {
                Some(p) if (b - a - p).abs() <= 1e-9 * p.max(1.0) => a + (x - a).rem_euclid(p),
                _ => x.clamp(a.min(b), a.max(b)),
            };
            let nu = wrap(u + du / scale, u0, u1, per_u);
            let nv = wrap(v + dv / scale, v0, v1, per_v);
            let moved = ((du / scale) / su_span).abs().max(((dv / scale) / sv_span).abs());
            u = nu;
            v = nv;
            if moved < tol {
                break;
            }
        }
        (u, v)
    };
    let mut best: Option<Projection> = None;
    for &(_, su, sv) in &firsts {
        let (u, v) = descend(su, sv);
        let p = finish(u, v);
        if best.map_or(true, |b| p.distance < b.distance) {
            best = Some(p);
        }
        // a foot this close cannot be improved on by another start
        if p.distance <= 1e-12 * (1.0 + q.norm()) {
            break;
        }
    }
    best.unwrap_or_else(|| finish(u0, v0))
}

/// The seed lines of [`project`] in parameter direction `k` (0 = u, 1 = v)
/// over `range`: `g + 1` evenly spaced lines and, where `k` runs along the
/// profile of a swept surface (a revolution's v, an extrusion's u), lines
/// just either side of each of the profile's corners (a polyline's or
/// composite's inner vertices, a B-spline's C0 knots) and one in the middle
/// of each span between them.
/// Each smooth strip of such a surface then has seeds of its own: Newton
/// stops at a crease, and a long span between short ones (iges_nist_144's
/// polyline profiles: one 5.7 mm chord among 0.05 mm chords) can fall
/// between the even lines.
fn seed_lines(s: &Surface, k: usize, range: (f64, f64), g: usize) -> Vec<f64> {
    let (a, b) = range;
    let mut out: Vec<f64> = (0..=g).map(|i| a + (b - a) * i as f64 / g as f64).collect();
    let swept = match s {
        Surface::Trimmed { basis, .. } => &**basis,
        s => s,
    };
    let profile = match swept {
        Surface::Revolution { profile, .. } if k == 1 => Some(profile),
        Surface::Extrusion { profile, .. } if k == 0 => Some(profile),
        _ => None,
    };
    let corners = profile.map_or_else(Vec::new, |p| super::creases::curve_corners(p));
    if !corners.is_empty() {
        let (lo, hi) = (a.min(b), a.max(b));
        let mut breaks = vec![lo];
        breaks.extend(corners.into_iter().filter(|&t| t > lo && t < hi));
        breaks.push(hi);
        // just inside each span's ends (Newton at a corner itself follows
        // the next span's tangent) and in its middle
        let eps = 1e-9 * (hi - lo);
        for w in breaks.windows(2) {
            out.extend([w[0] + eps, 0.5 * (w[0] + w[1]), w[1] - eps]);
        }
        out.sort_by(f64::total_cmp);
        if a > b {
            out.reverse();
        }
        out.dedup();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_shapes::{frame, surfaces};
    use super::*;

    #[test]
    fn projection_recovers_surface_points() {
        for s in surfaces() {
            let (u, v) = (1.1, 0.3);
            let p = s.eval(u, v);
            let pr = project_surface(&s, &p, ((0.0, TAU), (-1.0, 1.0)), 24);
            assert!(pr.distance < 1e-9, "{}: {}", s.type_name(), pr.distance);
        }
    }

    /// A planar fan on `z = 0`: the side `u = 0` collapsed to the origin
    /// (`S_v = 0` there), the side `u = 1` a parabolic arc from x to y.
    fn fan() -> Surface {
        let o = [0.0, 0.0, 0.0];
        let pts = [o, o, o, [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
        let k = |p: usize| [vec![0.0; p + 1], vec![1.0; p + 1]].concat();
        Surface::BSpline(crate::geom::NurbsSurface::try_new(1, 2, k(1), k(2), 2, 3, &pts, None).unwrap())
    }

    #[test]
    fn newton_leaves_a_side_collapsed_to_a_point() {
        let s = fan();
        let p = s.eval(0.01, 0.5) + Vec3::new(0.0, 0.0, 0.3);
        // started on the collapsed side, where S_v = 0 and the full Newton
        // system is singular: the damped Gauss–Newton step moves along u
        let r = newton_surface(&s, &p, 0.0, 0.2, ((0.0, 1.0), (0.0, 1.0)));
        assert!((r.distance - 0.3).abs() < 1e-12, "distance {}", r.distance);
        assert!((r.u - 0.01).abs() < 1e-9 && (r.v - 0.5).abs() < 1e-9, "({}, {})", r.u, r.v);
    }

    /// A planar cap in the proportions of iges_3dipsos320's: a rectangle
    /// 900 × 36,000 mm (`v` round it, closed: `v = 0` and `v = 1` are its
    /// corner (−450, 18000)) collapsed to its centre at `u = 0`. Feet
    /// 0.018 mm from the centre whose generators lie across the seam from
    /// `v = 0` (the top side, `v` in (0.75, 1)): the centre's grid nodes
    /// are one point, and Newton from the first of them (`v = 0`) ran
    /// along that generator into the seam and stopped 3e-4 mm short.
    #[test]
    fn projection_beside_a_closed_caps_centre_takes_the_nearest_generator_and_crosses_the_seam() {
        let c = [0.0, 0.0, 0.0];
        let (a, b) = ([-450.0, 18000.0, 0.0], [-450.0, -18000.0, 0.0]);
        let (d, e) = ([450.0, -18000.0, 0.0], [450.0, 18000.0, 0.0]);
        let pts = [c, c, c, c, c, a, b, d, e, a];
        let ku = vec![0.0, 0.0, 1.0, 1.0];
        let kv = vec![0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.0];
        let s = Surface::BSpline(crate::geom::NurbsSurface::try_new(1, 1, ku, kv, 2, 5, &pts, None).unwrap());
        for &(u, v) in &[(1e-6, 0.9), (1e-6, 0.97), (2e-6, 0.999), (1e-6, 0.02)] {
            let foot = s.eval(u, v);
            for h in [0.0, 2.6e-3] {
                let p = foot + Vec3::new(0.0, 0.0, h);
                for grid in [48, 256] {
                    let r = project_surface(&s, &p, ((0.0, 1.0), (0.0, 1.0)), grid);
                    assert!((r.distance - h).abs() < 1e-9, "({u}, {v}) +{h} grid {grid}: distance {}", r.distance);
                    assert!((r.point - foot).norm() < 1e-8, "({u}, {v}) +{h}: foot {:?} vs {foot:?}", r.point);
                }
            }
        }
    }

    /// Two planar sheets meeting at a C0 knot `u = 0.45` (a fold, as
    /// iges_3dipsos320's caps meet its sweep): the first (`z = 0`, poles
    /// A, B, B) has zero speed at the fold, the second (`x = 0`) does not.
    /// Feet on the second sheet just past the fold, where the nearest grid
    /// nodes lie on the first: Newton from them stops on the fold (its
    /// gradient in `u` vanishes there) at the distance to the first sheet.
    #[test]
    fn projection_beside_a_fold_goes_on_past_it() {
        let row = |x: f64, z: f64| [[x, 0.0, z], [x, 1.0, z]];
        let pts: Vec<[f64; 3]> = [row(-1.0, 0.0), row(0.0, 0.0), row(0.0, 0.0), row(0.0, 0.5), row(0.0, 1.0)]
            .concat();
        let ku = vec![0.0, 0.0, 0.0, 0.45, 0.45, 1.0, 1.0, 1.0];
        let kv = vec![0.0, 0.0, 1.0, 1.0];
        let s = Surface::BSpline(crate::geom::NurbsSurface::try_new(2, 1, ku, kv, 5, 2, &pts, None).unwrap());
        for &(z, y) in &[(1e-4, 0.365), (1e-3, 0.81), (1e-5, 0.5)] {
            for h in [0.0, 0.05] {
                let p = Vec3::new(h, y, z);
                for grid in [12, 48, 256] {
                    let r = project_surface(&s, &p, ((0.0, 1.0), (0.0, 1.0)), grid);
                    assert!((r.distance - h).abs() < 1e-12, "({y}, {z}) +{h} grid {grid}: distance {}", r.distance);
                    assert!((r.point - Vec3::new(0.0, y, z)).norm() < 1e-12, "({y}, {z}) +{h}: foot {:?}", r.point);
                }
            }
        }
    }

    /// A surface of revolution whose profile is a polyline in the shape of
    /// iges_nist_144's: an arc of 19 chords of 0.05 mm (radius 3 at
    /// z = 7), one chord of 5.7 mm down to a second arc (radius 7 at z = 3)
    /// and a closing chord, turned about a horizontal axis. Feet on the long
    /// chord's strip: from the even grid (40) Newton stopped at the strip's
    /// creases 0.2 – 1.5 mm off (and from a seed on a corner itself, along
    /// the next span); with seed lines just either side of each corner and in
    /// each span's middle every foot is found.
    #[test]
    fn projection_onto_a_swept_polyline_seeds_every_span() {
        let arc = |r: f64, z: f64, deg: f64| {
            let a = deg.to_radians();
            Vec3::new(r * a.cos(), r * a.sin(), z)
        };
        let mut pts: Vec<Vec3> = (0..20).map(|k| arc(3.0, 7.0, 213.0 + k as f64)).collect();
        pts.extend((0..21).map(|k| arc(7.0, 3.0, 232.0 - k as f64)));
        pts.push(pts[0]);
        let s = Surface::Revolution {
            profile: Box::new(Curve::Polyline(pts)),
            axis_origin: Vec3::new(-6.4278761, 7.6604444, 10.0),
            axis_dir: Vec3::new(0.6427876114062824, -0.7660444416759421, 0.0),
        };
        let bx = ((0.0, TAU), (0.0, 41.0));
        for u in [0.3, 2.0, 4.1, 5.93] {
            for v in [19.1, 19.5, 19.74, 19.9, 40.5] {
                let foot = s.eval(u, v);
                let r = project(&s, &foot, bx, 40, 1e-15);
                assert!(r.distance < 1e-9, "({u}, {v}): {} from the surface", r.distance);
            }
        }
    }

    #[test]
    fn projection_near_a_collapsed_side_finds_the_foot() {
        let s = fan();
        for &(u, v) in &[(0.01, 0.5), (0.003, 0.1), (0.02, 0.9)] {
            let foot = s.eval(u, v);
            for h in [0.0, 0.3] {
                let p = foot + Vec3::new(0.0, 0.0, h);
                let r = project_surface(&s, &p, ((0.0, 1.0), (0.0, 1.0)), 48);
                assert!((r.distance - h).abs() < 1e-12, "({u}, {v}) +{h}: distance {}", r.distance);
                assert!((r.point - foot).norm() < 1e-9, "({u}, {v}) +{h}: foot {:?}", r.point);
            }
        }
    }

    #[test]
    fn curve_parameters_round_trip() {
        let f = frame();
        let curves = [
            Curve::Line {
                origin: Vec3::new(1.0, 2.0, 3.0),
                dir: Vec3::new(0.0, 0.6, 0.8),
            },
            Curve::Circle { frame: f, radius: 2.0 },
            Curve::Ellipse {
                frame: f,
                semi_x: 3.0,
                semi_y: 1.0,
            },
        ];
        for c in &curves {
            for &t in &[0.2, 1.5, 4.0] {
                let back = curve_param_of(c, &c.eval(t));
                assert!((back - t).abs() < 1e-9, "{}: {t} -> {back}", c.type_name());
            }
        }
    }
}

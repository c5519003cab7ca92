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
    // keep the best few grid nodes as Newton seeds, one per 3-D point: the
    // nodes of a side collapsed to a point (a pole, a fan's centre) are one
    // point and would otherwise fill every seed
    let mut seeds = [(u0, v0, f64::INFINITY, Vec3::zeros()); 4];
    for i in 0..=n {
        let u = u0 + (u1 - u0) * i as f64 / n as f64;
        for j in 0..=n {
            let v = v0 + (v1 - v0) * j as f64 / n as f64;
            let q = s.eval(u, v);
            let d = (q - p).norm_squared();
            let seen = |seed: &(f64, f64, f64, Vec3)| seed.2.is_finite() && (seed.3 - q).norm() <= 1e-12 * (1.0 + q.norm());
            if d < seeds[3].2 && !seeds.iter().any(seen) {
                seeds[3] = (u, v, d, q);
                seeds.sort_by(|a, b| a.2.total_cmp(&b.2));
            }
        }
    }
    let mut best: Option<SurfaceProjection> = None;
    for &(u, v, d, _) in &seeds {
        if !d.is_finite() {
            continue;
        }
        let r = newton_surface(s, p, u, v, bounds);
        if best.map_or(true, |b| r.distance < b.distance) {
            best = Some(r);
        }
        if r.distance < 1e-12 {
            break;
        }
    }
    best.unwrap_or_else(|| newton_surface(s, p, u0, v0, bounds))
}

/// Parameter of the point of `c` nearest to `p` (closed forms for lines and
/// conics, sampling + Newton otherwise).
pub fn curve_param_of(c: &Curve, p: &Vec3) -> f64 {
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
    let mut samples = Vec::with_capacity((g + 1) * (g + 1));
    for i in 0..=g {
        let u = u0 + (u1 - u0) * i as f64 / g as f64;
        for j in 0..=g {
            let v = v0 + (v1 - v0) * j as f64 / g as f64;
            samples.push(((s.eval(u, v) - q).norm_squared(), u, v));
        }
    }
    // Gauss–Newton from the best few local minima of the grid: on folded or
    // self-overlapping patches the best sample can lie on the wrong sheet
    let at = |i: usize, j: usize| samples[i * (g + 1) + j].0;
    let mut firsts: Vec<(f64, f64, f64)> = Vec::new();
    for i in 0..=g {
        for j in 0..=g {
            let d = at(i, j);
            let lower = (i.saturating_sub(1)..=(i + 1).min(g))
                .flat_map(|a| (j.saturating_sub(1)..=(j + 1).min(g)).map(move |b| (a, b)))
                .any(|(a, b)| at(a, b) < d);
            if !lower {
                firsts.push(samples[i * (g + 1) + j]);
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

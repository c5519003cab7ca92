//! Evaluation of the Model's [`Surface`] and [`Curve`] enums (point and first
//! and second derivatives, in the parameterisations documented on each
//! variant), point projection onto curves and surfaces (grid seed + Newton,
//! closed forms for the analytic cases), and a point-in-face test against the
//! face's trim loops in parameter space.
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use crate::geom::{CurvePoint, SurfacePoint, Vec3};
use crate::import::model::{Curve, CurveSegment, Face, Model, Surface};
use std::f64::consts::{FRAC_PI_2, PI, TAU};

fn ring(f: &crate::import::model::Frame, u: f64) -> (Vec3, Vec3) {
    let (s, c) = u.sin_cos();
    (f.x * c + f.y * s, f.y * c - f.x * s)
}

impl Curve {
    /// Point at `t`.
    pub fn eval(&self, t: f64) -> Vec3 {
        self.eval_derivs(t).p
    }

    /// Point, first and second derivative at `t`.
    pub fn eval_derivs(&self, t: f64) -> CurvePoint {
        match self {
            Curve::Line { origin, dir } => CurvePoint {
                p: origin + dir * t,
                d1: *dir,
                d2: Vec3::zeros(),
            },
            Curve::Circle { frame, radius } => {
                let (e, e1) = ring(frame, t);
                CurvePoint {
                    p: frame.origin + e * *radius,
                    d1: e1 * *radius,
                    d2: -e * *radius,
                }
            }
            Curve::Ellipse { frame, semi_x, semi_y } => {
                let (s, c) = t.sin_cos();
                CurvePoint {
                    p: frame.at(semi_x * c, semi_y * s, 0.0),
                    d1: frame.x * (-semi_x * s) + frame.y * (semi_y * c),
                    d2: frame.x * (-semi_x * c) + frame.y * (-semi_y * s),
                }
            }
            Curve::Parabola { frame, focal } => CurvePoint {
                p: frame.at(t * t / (4.0 * focal), t, 0.0),
                d1: frame.x * (t / (2.0 * focal)) + frame.y,
                d2: frame.x * (1.0 / (2.0 * focal)),
            },
            Curve::Hyperbola { frame, semi_x, semi_y } => {
                let (ch, sh) = (t.cosh(), t.sinh());
                CurvePoint {
                    p: frame.at(semi_x * ch, semi_y * sh, 0.0),
                    d1: frame.x * (semi_x * sh) + frame.y * (semi_y * ch),
                    d2: frame.x * (semi_x * ch) + frame.y * (semi_y * sh),
                }
            }
            Curve::BSpline(b) => b.eval_derivs(t),
            Curve::Polyline(pts) => {
                if pts.len() < 2 {
                    return CurvePoint {
                        p: pts.first().copied().unwrap_or_default(),
                        ..Default::default()
                    };
                }
                let n = pts.len() - 1;
                let k = (t.floor().max(0.0) as usize).min(n - 1);
                let s = t - k as f64;
                let d = pts[k + 1] - pts[k];
                CurvePoint {
                    p: pts[k] + d * s,
                    d1: d,
                    d2: Vec3::zeros(),
                }
            }
            Curve::Composite(segs) => {
                if segs.is_empty() {
                    return CurvePoint::default();
                }
                let n = segs.len();
                let k = (t.floor().max(0.0) as usize).min(n - 1);
                let s = (t - k as f64).clamp(0.0, 1.0);
                segs[k].eval_unit(s)
            }
        }
    }
}

impl CurveSegment {
    /// Point and derivatives at the normalised position `s ∈ [0, 1]` along the
    /// segment in its traversal direction (derivatives w.r.t. `s`).
    pub fn eval_unit(&self, s: f64) -> CurvePoint {
        let len = self.t1 - self.t0;
        let (t, k) = if self.forward {
            (self.t0 + s * len, len)
        } else {
            (self.t1 - s * len, -len)
        };
        let c = self.curve.eval_derivs(t);
        CurvePoint {
            p: c.p,
            d1: c.d1 * k,
            d2: c.d2 * (k * k),
        }
    }
}

/// Rodrigues rotation of `w` by angle `u` about unit axis `d`, and its first
/// and second derivatives w.r.t. `u`.
fn rotate(w: &Vec3, d: &Vec3, u: f64) -> (Vec3, Vec3, Vec3) {
    let (s, c) = u.sin_cos();
    let dxw = d.cross(w);
    let dd = d * d.dot(w);
    (
        w * c + dxw * s + dd * (1.0 - c),
        -w * s + dxw * c + dd * s,
        -w * c - dxw * s + dd * c,
    )
}

impl Surface {
    /// Point at `(u, v)`.
    pub fn eval(&self, u: f64, v: f64) -> Vec3 {
        self.eval_derivs(u, v).p
    }

    /// Point and first and second partial derivatives at `(u, v)`.
    pub fn eval_derivs(&self, u: f64, v: f64) -> SurfacePoint {
        let z = Vec3::zeros();
        match self {
            Surface::Plane { frame } => SurfacePoint {
                p: frame.at(u, v, 0.0),
                su: frame.x,
                sv: frame.y,
                suu: z,
                suv: z,
                svv: z,
            },
            Surface::Cylinder { frame, radius } => {
                let (e, e1) = ring(frame, u);
                SurfacePoint {
                    p: frame.origin + e * *radius + frame.z * v,
                    su: e1 * *radius,
                    sv: frame.z,
                    suu: -e * *radius,
                    suv: z,
                    svv: z,
                }
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let (e, e1) = ring(frame, u);
                let (sa, ca) = semi_angle.sin_cos();
                let rho = radius + v * sa;
                SurfacePoint {
                    p: frame.origin + e * rho + frame.z * (v * ca),
                    su: e1 * rho,
                    sv: e * sa + frame.z * ca,
                    suu: -e * rho,
                    suv: e1 * sa,
                    svv: z,
                }
            }
            Surface::Sphere { frame, radius } => {
                let (e, e1) = ring(frame, u);
                let (sv_, cv) = v.sin_cos();
                let r = *radius;
                SurfacePoint {
                    p: frame.origin + e * (r * cv) + frame.z * (r * sv_),
                    su: e1 * (r * cv),
                    sv: -e * (r * sv_) + frame.z * (r * cv),
                    suu: -e * (r * cv),
                    suv: -e1 * (r * sv_),
                    svv: -e * (r * cv) - frame.z * (r * sv_),
                }
            }
            Surface::Torus { frame, major, minor } => {
                let (e, e1) = ring(frame, u);
                let (sv_, cv) = v.sin_cos();
                let rho = major + minor * cv;
                SurfacePoint {
                    p: frame.origin + e * rho + frame.z * (minor * sv_),
                    su: e1 * rho,
                    sv: -e * (minor * sv_) + frame.z * (minor * cv),
                    suu: -e * rho,
                    suv: -e1 * (minor * sv_),
                    svv: -e * (minor * cv) - frame.z * (minor * sv_),
                }
            }
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                let c = profile.eval_derivs(v);
                let w = c.p - axis_origin;
                let (r0, r1, r2) = rotate(&w, axis_dir, u);
                let (d0, d1, _) = rotate(&c.d1, axis_dir, u);
                let (dd0, _, _) = rotate(&c.d2, axis_dir, u);
                SurfacePoint {
                    p: axis_origin + r0,
                    su: r1,
                    sv: d0,
                    suu: r2,
                    suv: d1,
                    svv: dd0,
                }
            }
            Surface::Extrusion { profile, direction } => {
                let c = profile.eval_derivs(u);
                SurfacePoint {
                    p: c.p + direction * v,
                    su: c.d1,
                    sv: *direction,
                    suu: c.d2,
                    suv: z,
                    svv: z,
                }
            }
            Surface::Offset { basis, distance } => {
                let first = |u: f64, v: f64| -> (Vec3, Vec3, Vec3) {
                    let b = basis.eval_derivs(u, v);
                    let nr = b.su.cross(&b.sv);
                    let len = nr.norm();
                    if !(len > 1e-300) {
                        return (b.p, b.su, b.sv);
                    }
                    let n = nr / len;
                    let nu_raw = b.suu.cross(&b.sv) + b.su.cross(&b.suv);
                    let nv_raw = b.suv.cross(&b.sv) + b.su.cross(&b.svv);
                    let nu = (nu_raw - n * n.dot(&nu_raw)) / len;
                    let nv = (nv_raw - n * n.dot(&nv_raw)) / len;
                    (b.p + n * *distance, b.su + nu * *distance, b.sv + nv * *distance)
                };
                let (p, su, sv) = first(u, v);
                let h = 1e-6;
                let (_, su_p, sv_p) = first(u + h, v);
                let (_, su_m, sv_m) = first(u - h, v);
                let (_, su_vp, sv_vp) = first(u, v + h);
                let (_, su_vm, sv_vm) = first(u, v - h);
                SurfacePoint {
                    p,
                    su,
                    sv,
                    suu: (su_p - su_m) / (2.0 * h),
                    suv: ((sv_p - sv_m) / (2.0 * h) + (su_vp - su_vm) / (2.0 * h)) * 0.5,
                    svv: (sv_vp - sv_vm) / (2.0 * h),
                }
            }
            Surface::BSpline(b) => b.eval_derivs(u, v),
            Surface::Trimmed { basis, .. } => basis.eval_derivs(u, v),
        }
    }

    /// Periods of the parameters (`None` = not periodic).
    pub fn periods(&self) -> (Option<f64>, Option<f64>) {
        match self {
            Surface::Cylinder { .. } | Surface::Cone { .. } | Surface::Sphere { .. } | Surface::Revolution { .. } => {
                (Some(TAU), None)
            }
            Surface::Torus { .. } => (Some(TAU), Some(TAU)),
            Surface::Offset { basis, .. } => basis.periods(),
            _ => (None, None),
        }
    }

    /// The natural parameter box where it is bounded.
    pub fn natural_bounds(&self) -> (Option<(f64, f64)>, Option<(f64, f64)>) {
        match self {
            Surface::Cylinder { .. } | Surface::Cone { .. } => (Some((0.0, TAU)), None),
            Surface::Sphere { .. } => (Some((0.0, TAU)), Some((-FRAC_PI_2, FRAC_PI_2))),
            Surface::Torus { .. } => (Some((0.0, TAU)), Some((0.0, TAU))),
            Surface::Revolution { profile, .. } => {
                (Some((0.0, TAU)), crate::import::step::geometry::natural_range(profile))
            }
            Surface::Extrusion { profile, .. } => (crate::import::step::geometry::natural_range(profile), None),
            Surface::Offset { basis, .. } => basis.natural_bounds(),
            Surface::BSpline(b) => {
                let (u, v) = b.domain();
                (Some(u), Some(v))
            }
            Surface::Trimmed { u, v, .. } => (Some(*u), Some(*v)),
            Surface::Plane { .. } => (None, None),
        }
    }

    /// Closed-form parameters of the point of an analytic surface nearest to
    /// `p`; `None` for the other kinds. `u` is NaN where it is undefined (on
    /// the axis).
    pub fn analytic_params(&self, p: &Vec3) -> Option<(f64, f64)> {
        let local = |f: &crate::import::model::Frame| {
            let d = p - f.origin;
            (d.dot(&f.x), d.dot(&f.y), d.dot(&f.z))
        };
        let angle = |x: f64, y: f64, scale: f64| {
            if x.hypot(y) <= 1e-13 * scale.max(1e-300) {
                f64::NAN
            } else {
                let a = y.atan2(x);
                if a < 0.0 {
                    a + TAU
                } else {
                    a
                }
            }
        };
        match self {
            Surface::Plane { frame } => {
                let (x, y, _) = local(frame);
                Some((x, y))
            }
            Surface::Cylinder { frame, radius } => {
                let (x, y, z) = local(frame);
                Some((angle(x, y, *radius), z))
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let (x, y, z) = local(frame);
                let rho = x.hypot(y);
                let (sa, ca) = semi_angle.sin_cos();
                Some((angle(x, y, radius.abs() + z.abs()), (rho - radius) * sa + z * ca))
            }
            Surface::Sphere { frame, radius } => {
                let (x, y, z) = local(frame);
                Some((angle(x, y, *radius), z.atan2(x.hypot(y))))
            }
            Surface::Torus { frame, major, minor } => {
                let (x, y, z) = local(frame);
                let rho = x.hypot(y);
                let mut v = z.atan2(rho - major);
                if v < 0.0 {
                    v += TAU;
                }
                Some((angle(x, y, major + minor), v))
            }
            _ => None,
        }
    }
}

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
pub fn newton_surface(
    s: &Surface,
    p: &Vec3,
    mut u: f64,
    mut v: f64,
    bounds: ((f64, f64), (f64, f64)),
) -> SurfaceProjection {
    let ((u0, u1), (v0, v1)) = bounds;
    let mut best = s.eval(u, v);
    let mut best_d = (best - p).norm();
    let (mut bu, mut bv) = (u, v);
    for _ in 0..40 {
        let e = s.eval_derivs(u, v);
        let r = e.p - p;
        let g = [r.dot(&e.su), r.dot(&e.sv)];
        let a = e.su.dot(&e.su) + r.dot(&e.suu);
        let b = e.su.dot(&e.sv) + r.dot(&e.suv);
        let c = e.sv.dot(&e.sv) + r.dot(&e.svv);
        let det = a * c - b * b;
        let (du, dv) = if det > 1e-300 && a > 0.0 {
            ((-g[0] * c + g[1] * b) / det, (g[0] * b - g[1] * a) / det)
        } else {
            // Gauss-Newton fallback
            let (a, c) = (e.su.dot(&e.su), e.sv.dot(&e.sv));
            let det = a * c - b * b + 1e-300;
            (
                (-g[0] * c + g[1] * (e.su.dot(&e.sv))) / det,
                (g[0] * (e.su.dot(&e.sv)) - g[1] * a) / det,
            )
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
    SurfaceProjection {
        u: bu,
        v: bv,
        point: best,
        distance: best_d,
    }
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
    let mut best = (u0, v0, f64::INFINITY);
    for i in 0..=n {
        let u = u0 + (u1 - u0) * i as f64 / n as f64;
        for j in 0..=n {
            let v = v0 + (v1 - v0) * j as f64 / n as f64;
            let d = (s.eval(u, v) - p).norm_squared();
            if d < best.2 {
                best = (u, v, d);
            }
        }
    }
    newton_surface(s, p, best.0, best.1, bounds)
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
            let (t0, t1) = crate::import::step::geometry::natural_range(c).unwrap_or((0.0, 1.0));
            // end points first (the usual case for edge vertices)
            let scale = 1e-9 * (1.0 + p.norm());
            if (c.eval(t0) - p).norm() <= scale {
                return t0;
            }
            if (c.eval(t1) - p).norm() <= scale {
                return t1;
            }
            let n = match c {
                Curve::BSpline(b) => (b.cw.len() * 4).clamp(16, 2000),
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

/// Distance from `p` to an edge curve restricted to `[t0, t1]`.
pub fn distance_to_curve_range(c: &Curve, t0: f64, t1: f64, p: &Vec3) -> f64 {
    let n = 64;
    let mut best = (t0, f64::INFINITY);
    for i in 0..=n {
        let t = t0 + (t1 - t0) * i as f64 / n as f64;
        let d = (c.eval(t) - p).norm_squared();
        if d < best.1 {
            best = (t, d);
        }
    }
    let t = newton_curve(c, p, best.0, (t0.min(t1), t0.max(t1)));
    (c.eval(t) - p).norm()
}

/// A face's trim loops sampled into parameter space, for point-in-face tests.
///
/// Each loop's 3-D coedge curves are sampled (adaptively) and projected onto
/// the face's surface; periodic parameters are unwrapped along the loop. A
/// point `(u, v)` is inside when the nearest loop crossing of the line
/// `u = const` through it leaves the point on the loop's left side (loops run
/// with the face on their left seen from the face's outward normal, i.e. on
/// the left in `(u, v)` when the face has `same_sense`). This handles outer
/// and inner loops, loops that wind once around a periodic direction, and
/// faces whose outer boundary degenerates into a pole.
#[derive(Debug, Clone)]
pub struct FaceTrim {
    /// Sampled loops in parameter space.
    pub loops: Vec<Vec<(f64, f64)>>,
    /// Periods of u and v.
    pub periods: (Option<f64>, Option<f64>),
    /// `same_sense` of the face.
    pub same_sense: bool,
    /// Parameter box of the samples (or the natural box) for projection seeds.
    pub bounds: ((f64, f64), (f64, f64)),
}

fn coedge_samples(model: &Model, c: &crate::import::model::Coedge, out: &mut Vec<Vec3>) {
    let seg = if let Some(e) = c.edge.and_then(|e| model.edges.get(e)) {
        CurveSegment {
            curve: e.curve.clone(),
            t0: e.t0,
            t1: e.t1,
            forward: c.forward,
        }
    } else if let Some(s) = &c.curve {
        s.clone()
    } else {
        return;
    };
    let n = match &seg.curve {
        Curve::Line { .. } | Curve::Polyline(_) => 8,
        Curve::BSpline(b) => (b.cw.len() * 8).clamp(32, 512),
        _ => 96,
    };
    for i in 0..n {
        out.push(seg.eval_unit(i as f64 / n as f64).p);
    }
}

impl FaceTrim {
    /// Samples the loops of face `face` of `model`.
    pub fn new(model: &Model, face: &Face) -> Self {
        let periods = face.surface.periods();
        let mut loops = Vec::new();
        for lp in face.outer.iter().chain(face.inner.iter()) {
            let mut pts = Vec::new();
            for c in &lp.coedges {
                coedge_samples(model, c, &mut pts);
            }
            if pts.len() < 2 {
                continue;
            }
            loops.push(Self::to_uv(&face.surface, &pts, periods));
        }
        let (nu, nv) = face.surface.natural_bounds();
        let mut lo = (f64::INFINITY, f64::INFINITY);
        let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for l in &loops {
            for &(u, v) in l {
                lo = (lo.0.min(u), lo.1.min(v));
                hi = (hi.0.max(u), hi.1.max(v));
            }
        }
        let pick = |nat: Option<(f64, f64)>, lo: f64, hi: f64| -> (f64, f64) {
            match nat {
                Some((a, b)) if !(lo.is_finite() && hi.is_finite()) => (a, b),
                Some((a, b)) => {
                    let m = 0.02 * (hi - lo).abs().max(1e-9);
                    ((lo - m).max(a), (hi + m).min(b))
                }
                None if lo.is_finite() && hi.is_finite() => {
                    let m = 0.02 * (hi - lo).abs().max(1e-9);
                    (lo - m, hi + m)
                }
                None => (-1e3, 1e3),
            }
        };
        let bu = pick(nu, lo.0, hi.0);
        let bv = pick(nv, lo.1, hi.1);
        Self {
            loops,
            periods,
            same_sense: face.same_sense,
            bounds: (bu, bv),
        }
    }

    fn to_uv(s: &Surface, pts: &[Vec3], periods: (Option<f64>, Option<f64>)) -> Vec<(f64, f64)> {
        let (nu, nv) = s.natural_bounds();
        let bounds = (nu.unwrap_or((-1e9, 1e9)), nv.unwrap_or((-1e9, 1e9)));
        let mut out: Vec<(f64, f64)> = Vec::with_capacity(pts.len());
        let mut prev: Option<(f64, f64)> = None;
        for p in pts {
            let (mut u, mut v) = match (s.analytic_params(p), prev) {
                (Some(uv), _) => uv,
                (None, Some((pu, pv))) => {
                    let a = newton_surface(s, p, pu, pv, bounds);
                    let g = if a.distance > 1e-6 * (1.0 + p.norm()) {
                        project_surface(s, p, bounds, 24)
                    } else {
                        a
                    };
                    if g.distance < a.distance {
                        (g.u, g.v)
                    } else {
                        (a.u, a.v)
                    }
                }
                (None, None) => {
                    let g = project_surface(s, p, bounds, 24);
                    (g.u, g.v)
                }
            };
            if u.is_nan() {
                u = prev.map_or(0.0, |q| q.0);
            }
            if let Some((pu, pv)) = prev {
                if let Some(t) = periods.0 {
                    u += ((pu - u) / t).round() * t;
                }
                if let Some(t) = periods.1 {
                    v += ((pv - v) / t).round() * t;
                }
            }
            prev = Some((u, v));
            out.push((u, v));
        }
        // a pole sample (u undefined) takes its u from the next sample
        out
    }

    /// True when `(u, v)` lies inside the trimmed face.
    pub fn contains(&self, u: f64, v: f64) -> bool {
        if self.loops.is_empty() {
            return true;
        }
        let sigma = if self.same_sense { 1.0 } else { -1.0 };
        let mut nearest: Option<(f64, bool)> = None; // (|dv|, inside)
        for l in &self.loops {
            let n = l.len();
            for k in 0..n {
                let a = l[k];
                let mut b = l[(k + 1) % n];
                if k + 1 == n {
                    // closing segment: unwrap the last-to-first step
                    if let Some(t) = self.periods.0 {
                        b.0 += ((a.0 - b.0) / t).round() * t;
                    }
                    if let Some(t) = self.periods.1 {
                        b.1 += ((a.1 - b.1) / t).round() * t;
                    }
                }
                let (umin, umax) = (a.0.min(b.0), a.0.max(b.0));
                if umax <= umin {
                    continue;
                }
                let mut up = u;
                if let Some(t) = self.periods.0 {
                    up += ((umin - up) / t).ceil() * t;
                }
                if !(up >= umin && up < umax) {
                    continue;
                }
                let s = (up - a.0) / (b.0 - a.0);
                let vc = a.1 + s * (b.1 - a.1);
                let mut dv = vc - v;
                if let Some(t) = self.periods.1 {
                    dv -= (dv / t).round() * t;
                }
                let moving_plus_u = (b.0 - a.0) * sigma > 0.0;
                // left of a +u segment is above it; left of a −u segment below
                let inside = if dv > 0.0 { !moving_plus_u } else { moving_plus_u };
                if nearest.is_none_or(|(d, _)| dv.abs() < d) {
                    nearest = Some((dv.abs(), inside));
                }
            }
        }
        nearest.is_some_and(|(_, inside)| inside)
    }
}

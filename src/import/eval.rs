//! Evaluation of the Model's [`Surface`] and [`Curve`] variants (point and
//! first derivatives, in the parameterisations documented on the enums), and
//! a robust point → surface projection used by tests and diagnostics.
//!
//! Not on the runtime path (prepared scenes use the NURBS evaluators in
//! `geom`); analytic surfaces are evaluated in closed form.

use super::model::{Curve, CurveSegment, Surface};
use crate::geom::Vec3;
use std::f64::consts::{PI, TAU};

/// Point and first partial derivatives of a surface.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SurfaceD1 {
    /// f(u,v)
    pub p: Vec3,
    /// ∂f/∂u
    pub su: Vec3,
    /// ∂f/∂v
    pub sv: Vec3,
}

/// Point and first derivative of a curve.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CurveD1 {
    /// c(t)
    pub p: Vec3,
    /// c'(t)
    pub d: Vec3,
}

fn rotate(q: Vec3, d: Vec3, u: f64) -> Vec3 {
    let (s, c) = u.sin_cos();
    q * c + d.cross(&q) * s + d * (d.dot(&q) * (1.0 - c))
}

impl Curve {
    /// Point and derivative at `t` (B-splines clamp `t` to their domain).
    pub fn eval_d1(&self, t: f64) -> CurveD1 {
        match self {
            Curve::Line { origin, dir } => CurveD1 {
                p: origin + dir * t,
                d: *dir,
            },
            Curve::Circle { frame, radius } => {
                let (s, c) = t.sin_cos();
                CurveD1 {
                    p: frame.origin + (frame.x * c + frame.y * s) * *radius,
                    d: (frame.y * c - frame.x * s) * *radius,
                }
            }
            Curve::Ellipse { frame, semi_x, semi_y } => {
                let (s, c) = t.sin_cos();
                CurveD1 {
                    p: frame.origin + frame.x * (semi_x * c) + frame.y * (semi_y * s),
                    d: frame.y * (semi_y * c) - frame.x * (semi_x * s),
                }
            }
            Curve::Hyperbola { frame, semi_x, semi_y } => CurveD1 {
                p: frame.origin + frame.x * (semi_x * t.cosh()) + frame.y * (semi_y * t.sinh()),
                d: frame.x * (semi_x * t.sinh()) + frame.y * (semi_y * t.cosh()),
            },
            Curve::Parabola { frame, focal } => CurveD1 {
                p: frame.origin + frame.x * (t * t / (4.0 * focal)) + frame.y * t,
                d: frame.x * (t / (2.0 * focal)) + frame.y,
            },
            Curve::BSpline(b) => {
                let c = b.eval_derivs(t);
                CurveD1 { p: c.p, d: c.d1 }
            }
            Curve::Polyline(pts) => {
                if pts.is_empty() {
                    return CurveD1::default();
                }
                if pts.len() == 1 {
                    return CurveD1 {
                        p: pts[0],
                        d: Vec3::zeros(),
                    };
                }
                let n = pts.len() - 1;
                let tc = t.clamp(0.0, n as f64);
                let k = (tc.floor() as usize).min(n - 1);
                let f = tc - k as f64;
                let d = pts[k + 1] - pts[k];
                CurveD1 { p: pts[k] + d * f, d }
            }
            Curve::Composite(parts) => {
                if parts.is_empty() {
                    return CurveD1::default();
                }
                let n = parts.len();
                let tc = t.clamp(0.0, n as f64);
                let k = (tc.floor() as usize).min(n - 1);
                let f = tc - k as f64;
                let s = &parts[k];
                let (tt, sign) = if s.forward {
                    (s.t0 + f * (s.t1 - s.t0), 1.0)
                } else {
                    (s.t1 - f * (s.t1 - s.t0), -1.0)
                };
                let c = s.curve.eval_d1(tt);
                CurveD1 {
                    p: c.p,
                    d: c.d * (sign * (s.t1 - s.t0)),
                }
            }
        }
    }
}

impl CurveSegment {
    /// The point at fraction `s ∈ [0, 1]` of the segment, in traversal order.
    pub fn point_at(&self, s: f64) -> Vec3 {
        let t = if self.forward {
            self.t0 + s * (self.t1 - self.t0)
        } else {
            self.t1 - s * (self.t1 - self.t0)
        };
        self.curve.eval_d1(t).p
    }

    /// `n + 1` points from start to end (composites sample each piece).
    pub fn sample(&self, n: usize) -> Vec<Vec3> {
        if let Curve::Composite(parts) = &self.curve {
            let mut out = Vec::new();
            let iter: Box<dyn Iterator<Item = &CurveSegment>> = if self.forward {
                Box::new(parts.iter())
            } else {
                Box::new(parts.iter().rev())
            };
            for p in iter {
                let mut q = p.sample(n.max(8));
                if !self.forward {
                    q.reverse();
                }
                out.extend(q);
            }
            return out;
        }
        (0..=n).map(|i| self.point_at(i as f64 / n as f64)).collect()
    }
}

impl Surface {
    /// Point and first derivatives at `(u, v)`.
    pub fn eval_d1(&self, u: f64, v: f64) -> SurfaceD1 {
        match self {
            Surface::Plane { frame } => SurfaceD1 {
                p: frame.at(u, v, 0.0),
                su: frame.x,
                sv: frame.y,
            },
            Surface::Cylinder { frame, radius } => {
                let (s, c) = u.sin_cos();
                SurfaceD1 {
                    p: frame.origin + (frame.x * c + frame.y * s) * *radius + frame.z * v,
                    su: (frame.y * c - frame.x * s) * *radius,
                    sv: frame.z,
                }
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let (s, c) = u.sin_cos();
                let (sa, ca) = semi_angle.sin_cos();
                let r = radius + v * sa;
                let radial = frame.x * c + frame.y * s;
                SurfaceD1 {
                    p: frame.origin + radial * r + frame.z * (v * ca),
                    su: (frame.y * c - frame.x * s) * r,
                    sv: radial * sa + frame.z * ca,
                }
            }
            Surface::Sphere { frame, radius } => {
                let (su_, cu) = u.sin_cos();
                let (sv_, cv) = v.sin_cos();
                let radial = frame.x * cu + frame.y * su_;
                SurfaceD1 {
                    p: frame.origin + radial * (radius * cv) + frame.z * (radius * sv_),
                    su: (frame.y * cu - frame.x * su_) * (radius * cv),
                    sv: radial * (-radius * sv_) + frame.z * (radius * cv),
                }
            }
            Surface::Torus { frame, major, minor } => {
                let (su_, cu) = u.sin_cos();
                let (sv_, cv) = v.sin_cos();
                let radial = frame.x * cu + frame.y * su_;
                let r = major + minor * cv;
                SurfaceD1 {
                    p: frame.origin + radial * r + frame.z * (minor * sv_),
                    su: (frame.y * cu - frame.x * su_) * r,
                    sv: radial * (-minor * sv_) + frame.z * (minor * cv),
                }
            }
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                let c = profile.eval_d1(v);
                let q = c.p - axis_origin;
                let (s, co) = u.sin_cos();
                let d = *axis_dir;
                SurfaceD1 {
                    p: axis_origin + rotate(q, d, u),
                    su: -q * s + d.cross(&q) * co + d * (d.dot(&q) * s),
                    sv: rotate(c.d, d, u),
                }
            }
            Surface::Extrusion { profile, direction } => {
                let c = profile.eval_d1(u);
                SurfaceD1 {
                    p: c.p + direction * v,
                    su: c.d,
                    sv: *direction,
                }
            }
            Surface::Offset { basis, distance } => {
                let n = |u: f64, v: f64| {
                    let b = basis.eval_d1(u, v);
                    let nn = b.su.cross(&b.sv);
                    let l = nn.norm();
                    b.p + if l > 0.0 { nn * (distance / l) } else { Vec3::zeros() }
                };
                let h = 1e-6 * (1.0 + u.abs().max(v.abs()));
                let p = n(u, v);
                SurfaceD1 {
                    p,
                    su: (n(u + h, v) - n(u - h, v)) / (2.0 * h),
                    sv: (n(u, v + h) - n(u, v - h)) / (2.0 * h),
                }
            }
            Surface::BSpline(b) => {
                let d = b.eval_d1(u, v);
                SurfaceD1 {
                    p: d.p,
                    su: d.su,
                    sv: d.sv,
                }
            }
            Surface::Trimmed { basis, .. } => basis.eval_d1(u, v),
        }
    }

    /// Point at `(u, v)`.
    pub fn eval(&self, u: f64, v: f64) -> Vec3 {
        self.eval_d1(u, v).p
    }

    /// The parameter rectangle when the surface has one (B-splines, trimmed
    /// surfaces, spheres, tori, offsets of bounded surfaces).
    pub fn domain(&self) -> Option<((f64, f64), (f64, f64))> {
        match self {
            Surface::BSpline(b) => Some(b.domain()),
            Surface::Trimmed { u, v, .. } => Some((*u, *v)),
            Surface::Sphere { .. } => Some(((0.0, TAU), (-PI / 2.0, PI / 2.0))),
            Surface::Torus { .. } => Some(((0.0, TAU), (0.0, TAU))),
            Surface::Offset { basis, .. } => basis.domain(),
            _ => None,
        }
    }

    /// Periods in u and v: `Some(2π)` for the angular parameters, the domain
    /// width for B-splines whose first and last pole rows coincide (closed).
    pub fn periods(&self) -> (Option<f64>, Option<f64>) {
        match self {
            Surface::Cylinder { .. } | Surface::Cone { .. } | Surface::Sphere { .. } | Surface::Revolution { .. } => {
                (Some(TAU), None)
            }
            Surface::Torus { .. } => (Some(TAU), Some(TAU)),
            Surface::Trimmed { basis, .. } | Surface::Offset { basis, .. } => basis.periods(),
            Surface::BSpline(b) => {
                let ((u0, u1), (v0, v1)) = b.domain();
                let tol = 1e-9 * (1.0 + b.hull_bbox().1.norm() + b.hull_bbox().0.norm());
                let closed_u = (0..b.n_v).all(|j| (b.pole(0, j) - b.pole(b.n_u - 1, j)).norm() <= tol);
                let closed_v = (0..b.n_u).all(|i| (b.pole(i, 0) - b.pole(i, b.n_v - 1)).norm() <= tol);
                (closed_u.then_some(u1 - u0), closed_v.then_some(v1 - v0))
            }
            _ => (None, None),
        }
    }

    /// Closed-form parameters of the point of an analytic surface nearest to `q`
    /// (planes, cylinders, cones, spheres, tori); `None` for the others.
    pub fn invert_analytic(&self, q: &Vec3) -> Option<(f64, f64)> {
        match self {
            Surface::Plane { frame } => {
                let d = q - frame.origin;
                Some((d.dot(&frame.x), d.dot(&frame.y)))
            }
            Surface::Cylinder { frame, .. } => {
                let d = q - frame.origin;
                Some((d.dot(&frame.y).atan2(d.dot(&frame.x)), d.dot(&frame.z)))
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let d = q - frame.origin;
                let u = d.dot(&frame.y).atan2(d.dot(&frame.x));
                let rho = (d.dot(&frame.x)).hypot(d.dot(&frame.y));
                let z = d.dot(&frame.z);
                let (sa, ca) = semi_angle.sin_cos();
                // nearest point on the generatrix line (radius + v sa, v ca)
                let v = (rho - radius) * sa + z * ca;
                Some((u, v))
            }
            Surface::Sphere { frame, .. } => {
                let d = q - frame.origin;
                let rho = (d.dot(&frame.x)).hypot(d.dot(&frame.y));
                Some((d.dot(&frame.y).atan2(d.dot(&frame.x)), d.dot(&frame.z).atan2(rho)))
            }
            Surface::Torus { frame, major, .. } => {
                let d = q - frame.origin;
                let u = d.dot(&frame.y).atan2(d.dot(&frame.x));
                let rho = (d.dot(&frame.x)).hypot(d.dot(&frame.y));
                Some((u, d.dot(&frame.z).atan2(rho - major)))
            }
            Surface::Trimmed { basis, .. } => basis.invert_analytic(q),
            _ => None,
        }
    }
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
/// clamped Gauss–Newton iterations. `tol` is the parameter step (relative to
/// the box) at which iterations stop.
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
    let mut best = (f64::INFINITY, u0, v0);
    for i in 0..=g {
        let u = u0 + (u1 - u0) * i as f64 / g as f64;
        for j in 0..=g {
            let v = v0 + (v1 - v0) * j as f64 / g as f64;
            let d = (s.eval(u, v) - q).norm_squared();
            if d < best.0 {
                best = (d, u, v);
            }
        }
    }
    let (mut u, mut v) = (best.1, best.2);
    let su_span = (u1 - u0).abs().max(1e-300);
    let sv_span = (v1 - v0).abs().max(1e-300);
    for _ in 0..100 {
        let d = s.eval_d1(u, v);
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
    finish(u, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::model::Frame;

    fn fd_check(s: &Surface, u: f64, v: f64) {
        let h = 1e-6;
        let d = s.eval_d1(u, v);
        let su = (s.eval(u + h, v) - s.eval(u - h, v)) / (2.0 * h);
        let sv = (s.eval(u, v + h) - s.eval(u, v - h)) / (2.0 * h);
        assert!((d.su - su).norm() < 1e-6 * (1.0 + su.norm()), "{s:?} su");
        assert!((d.sv - sv).norm() < 1e-6 * (1.0 + sv.norm()), "{s:?} sv");
    }

    #[test]
    fn analytic_derivatives_match_finite_differences() {
        let f = Frame::from_axis_ref(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.2, 0.3, 1.0), Some(Vec3::x())).unwrap();
        let surfaces = [
            Surface::Plane { frame: f },
            Surface::Cylinder { frame: f, radius: 2.0 },
            Surface::Cone {
                frame: f,
                radius: 2.0,
                semi_angle: 0.3,
            },
            Surface::Sphere { frame: f, radius: 2.0 },
            Surface::Torus {
                frame: f,
                major: 5.0,
                minor: 1.0,
            },
            Surface::Revolution {
                profile: Box::new(Curve::Line {
                    origin: Vec3::new(3.0, 0.0, 0.0),
                    dir: Vec3::new(1.0, 0.0, 2.0),
                }),
                axis_origin: Vec3::zeros(),
                axis_dir: Vec3::z(),
            },
            Surface::Extrusion {
                profile: Box::new(Curve::Circle { frame: f, radius: 1.5 }),
                direction: Vec3::z(),
            },
        ];
        for s in &surfaces {
            fd_check(s, 0.4, 0.7);
        }
    }

    #[test]
    fn revolution_of_a_line_is_a_cone_point() {
        let s = Surface::Revolution {
            profile: Box::new(Curve::Line {
                origin: Vec3::new(1.0, 0.0, 0.0),
                dir: Vec3::new(0.0, 0.0, 1.0),
            }),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        };
        let p = s.eval(PI / 2.0, 2.0);
        assert!((p - Vec3::new(0.0, 1.0, 2.0)).norm() < 1e-12);
    }

    #[test]
    fn projection_finds_foot_point_on_torus_and_revolution() {
        let t = Surface::Torus {
            frame: Frame::default(),
            major: 10.0,
            minor: 3.0,
        };
        let q = Vec3::new(15.0, 0.0, 1.0);
        let pr = project(&t, &q, ((0.0, TAU), (0.0, TAU)), 8, 1e-14);
        assert!((pr.distance - ((25.0f64 + 1.0).sqrt() - 3.0)).abs() < 1e-9);
    }
}

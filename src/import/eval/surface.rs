//! Evaluation of the Model's [`Surface`]s: point and first and second
//! partial derivatives in the parameterisation documented on each variant,
//! and what the parameterisation implies: periods, the natural parameter
//! box, and the closed-form parameters of a point of an analytic surface.
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use super::curve::ring;
use super::Range;
use crate::geom::{SurfacePoint, Vec3};
use crate::import::model::{Curve, Surface};
use std::f64::consts::{FRAC_PI_2, TAU};

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
                    if len.is_nan() || len <= 1e-300 {
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
            Surface::BSpline(b) => {
                let ((u0, u1), (v0, v1)) = b.domain();
                if u < u0 || u > u1 || v < v0 || v > v1 {
                    // a closed direction is periodic: face parameters of a
                    // loop unwrapped past the knot domain wrap back into it
                    let (pu, pv) = self.periods();
                    let wrap = |t: f64, a: f64, b: f64, p: Option<f64>| match p {
                        Some(p) if p > 0.0 && (t < a || t > b) => a + (t - a).rem_euclid(p),
                        _ => t,
                    };
                    return b.eval_derivs(wrap(u, u0, u1, pu), wrap(v, v0, v1, pv));
                }
                b.eval_derivs(u, v)
            }
            Surface::Trimmed { basis, .. } => basis.eval_derivs(u, v),
        }
    }

    /// Periods of the parameters (`None` = not periodic).
    pub fn periods(&self) -> (Option<f64>, Option<f64>) {
        match self {
            Surface::Cylinder { .. } | Surface::Cone { .. } | Surface::Sphere { .. } => (Some(TAU), None),
            Surface::Revolution { profile, .. } => (
                Some(TAU),
                matches!(**profile, Curve::Circle { .. } | Curve::Ellipse { .. }).then_some(TAU),
            ),
            Surface::Extrusion { profile, .. } => (
                matches!(**profile, Curve::Circle { .. } | Curve::Ellipse { .. }).then_some(TAU),
                None,
            ),
            Surface::Torus { .. } => (Some(TAU), Some(TAU)),
            Surface::Offset { basis, .. } => basis.periods(),
            // a trim interval spanning a whole period of the basis (an IGES
            // 120 revolution from 0 to 6.2831853, a STEP rectangular trim
            // from 0° to 360°) bounds nothing in that direction: the surface
            // stays closed there (nist_144 DE135)
            Surface::Trimmed { basis, u, v } => {
                let (pu, pv) = basis.periods();
                let whole = |t: &Range, p: f64| t.1 - t.0 >= p * (1.0 - 1e-6);
                (pu.filter(|&p| whole(u, p)), pv.filter(|&p| whole(v, p)))
            }
            Surface::BSpline(b) => {
                // closed in a direction when the opposite boundaries coincide
                let ((u0, u1), (v0, v1)) = b.domain();
                let (lo, hi) = b.hull_bbox();
                let tol = 1e-9 * (1.0 + (hi - lo).norm());
                let closed_u = (0..=4).all(|k| {
                    let v = v0 + (v1 - v0) * k as f64 / 4.0;
                    (b.eval(u0, v) - b.eval(u1, v)).norm() <= tol
                });
                let closed_v = (0..=4).all(|k| {
                    let u = u0 + (u1 - u0) * k as f64 / 4.0;
                    (b.eval(u, v0) - b.eval(u, v1)).norm() <= tol
                });
                (closed_u.then_some(u1 - u0), closed_v.then_some(v1 - v0))
            }
            _ => (None, None),
        }
    }

    /// The natural parameter box where it is bounded.
    pub fn natural_bounds(&self) -> (Option<Range>, Option<Range>) {
        match self {
            Surface::Cylinder { .. } | Surface::Cone { .. } => (Some((0.0, TAU)), None),
            Surface::Sphere { .. } => (Some((0.0, TAU)), Some((-FRAC_PI_2, FRAC_PI_2))),
            Surface::Torus { .. } => (Some((0.0, TAU)), Some((0.0, TAU))),
            Surface::Revolution { profile, .. } => (Some((0.0, TAU)), profile.natural_range()),
            Surface::Extrusion { profile, .. } => (profile.natural_range(), None),
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
        let local = |f: &crate::geom::Frame| {
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

    /// The parameter rectangle when the surface has one (B-splines, trimmed
    /// surfaces, spheres, tori, offsets of bounded surfaces).
    pub fn domain(&self) -> Option<((f64, f64), (f64, f64))> {
        match self.natural_bounds() {
            (Some(u), Some(v)) => Some((u, v)),
            _ => None,
        }
    }

    /// Closed-form parameters of the nearest point of an analytic surface
    /// (as [`analytic_params`](Self::analytic_params), with `u = 0` on the axis).
    pub fn invert_analytic(&self, q: &Vec3) -> Option<(f64, f64)> {
        self.analytic_params(q)
            .map(|(u, v)| (if u.is_nan() { 0.0 } else { u }, v))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_shapes::surfaces;

    #[test]
    fn derivatives_match_finite_differences() {
        let h = 1e-5;
        for s in surfaces() {
            for &(u, v) in &[(0.3, 0.2), (1.7, -0.4), (4.0, 0.9)] {
                let d = s.eval_derivs(u, v);
                let fu = (s.eval(u + h, v) - s.eval(u - h, v)) / (2.0 * h);
                let fv = (s.eval(u, v + h) - s.eval(u, v - h)) / (2.0 * h);
                assert!((d.su - fu).norm() < 1e-6, "{} su", s.type_name());
                assert!((d.sv - fv).norm() < 1e-6, "{} sv", s.type_name());
                let d2 = s.eval_derivs(u + h, v);
                let d3 = s.eval_derivs(u - h, v);
                let d4 = s.eval_derivs(u, v + h);
                let d5 = s.eval_derivs(u, v - h);
                let tol = 1e-4;
                assert!(
                    (d.suu - (d2.su - d3.su) / (2.0 * h)).norm() < tol,
                    "{} suu",
                    s.type_name()
                );
                assert!(
                    (d.svv - (d4.sv - d5.sv) / (2.0 * h)).norm() < tol,
                    "{} svv",
                    s.type_name()
                );
                assert!(
                    (d.suv - (d4.su - d5.su) / (2.0 * h)).norm() < tol,
                    "{} suv",
                    s.type_name()
                );
            }
        }
    }
}

//! Surface entities: 128 B-splines, 190–198 analytic surfaces (form 1, with
//! reference directions), 120 revolutions, 122 tabulated cylinders, 140
//! offsets; an unbounded extrusion face bounded to what its edges reach.

use super::curves::shift_curve;
use super::records::real;
use super::writer::W;
use crate::geom::Vec3;
use crate::import::model::{Curve, CurveSegment, Face, Model, Surface};
use std::f64::consts::PI;
use std::fmt::Write as _;

impl W {
    /// A surface entity; `None` with a warning for what IGES cannot hold.
    pub(super) fn surface(&mut self, s: &Surface, what: &str) -> usize {
        let deg = 180.0 / PI;
        match s {
            Surface::BSpline(n) => {
                let (cu, cv) = closed_directions(n);
                let mut t = format!(
                    "128,{},{},{},{},{},{},{},0,0,",
                    n.n_u - 1,
                    n.n_v - 1,
                    n.degree_u,
                    n.degree_v,
                    i32::from(cu),
                    i32::from(cv),
                    i32::from(!n.rational)
                );
                for k in n.knots_u.iter().chain(&n.knots_v) {
                    let _ = write!(t, "{},", real(*k));
                }
                // weights and poles with the u index varying fastest
                for j in 0..n.n_v {
                    for i in 0..n.n_u {
                        let _ = write!(t, "{},", real(n.cw[i * n.n_v + j][3]));
                    }
                }
                for j in 0..n.n_v {
                    for i in 0..n.n_u {
                        let q = crate::export::stable_pole(n.cw[i * n.n_v + j]);
                        let _ = write!(t, "{},{},{},", real(q[0]), real(q[1]), real(q[2]));
                    }
                }
                let ((u0, u1), (v0, v1)) = n.domain();
                let _ = write!(t, "{},{},{},{};", real(u0), real(u1), real(v0), real(v1));
                self.add(128, 0, t)
            }
            Surface::Plane { frame } => {
                let o = self.point116(&frame.origin);
                let z = self.dir123(&frame.z);
                let x = self.dir123(&frame.x);
                self.add(190, 1, format!("190,{o},{z},{x};"))
            }
            Surface::Cylinder { frame, radius } => {
                let o = self.point116(&frame.origin);
                let z = self.dir123(&frame.z);
                let x = self.dir123(&frame.x);
                self.add(192, 1, format!("192,{o},{z},{},{x};", real(*radius)))
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let o = self.point116(&frame.origin);
                let z = self.dir123(&frame.z);
                let x = self.dir123(&frame.x);
                self.add(
                    194,
                    1,
                    format!("194,{o},{z},{},{},{x};", real(*radius), real(semi_angle * deg)),
                )
            }
            Surface::Sphere { frame, radius } => {
                let o = self.point116(&frame.origin);
                let z = self.dir123(&frame.z);
                let x = self.dir123(&frame.x);
                self.add(196, 1, format!("196,{o},{},{z},{x};", real(*radius)))
            }
            Surface::Torus { frame, major, minor } => {
                let o = self.point116(&frame.origin);
                let z = self.dir123(&frame.z);
                let x = self.dir123(&frame.x);
                self.add(198, 1, format!("198,{o},{z},{},{},{x};", real(*major), real(*minor)))
            }
            Surface::Trimmed { basis, u, v } => match basis.as_ref() {
                Surface::Revolution {
                    profile,
                    axis_origin,
                    axis_dir,
                } => self.revolution(profile, axis_origin, axis_dir, *u, *v),
                Surface::Extrusion { profile, direction } => {
                    let seg = CurveSegment {
                        curve: (**profile).clone(),
                        t0: u.0,
                        t1: u.1,
                        forward: true,
                    };
                    let mut seg = seg;
                    if v.0 != 0.0 {
                        // shift the directrix so that v starts at 0
                        seg.curve = shift_curve(&seg.curve, &(direction * v.0));
                    }
                    let c = self.curve(&seg, false);
                    let start = seg.curve.eval(u.0);
                    let end = start + direction * (v.1 - v.0);
                    if v.0 != 0.0 {
                        self.warnings.push(format!(
                            "{what}: extrusion range v ∈ [{}, {}] written from 0 (directrix moved)",
                            v.0, v.1
                        ));
                    }
                    self.add(
                        122,
                        0,
                        format!("122,{c},{},{},{};", real(end.x), real(end.y), real(end.z)),
                    )
                }
                other => {
                    self.warnings.push(format!(
                        "{what}: rectangular trim [{}, {}] × [{}, {}] of a {} not representable in IGES; the face loops bound it",
                        u.0,
                        u.1,
                        v.0,
                        v.1,
                        other.type_name()
                    ));
                    self.surface(other, what)
                }
            },
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                let range = profile.natural_range();
                let vr = range.unwrap_or((0.0, 1.0));
                if range.is_none() {
                    self.warnings.push(format!(
                        "{what}: surface of revolution of an unbounded profile written on profile range [0, 1]"
                    ));
                }
                self.revolution(profile, axis_origin, axis_dir, (0.0, std::f64::consts::TAU), vr)
            }
            Surface::Extrusion { profile, direction } => {
                let range = profile.natural_range().unwrap_or((0.0, 1.0));
                self.warnings.push(format!(
                    "{what}: unbounded surface of linear extrusion written as a tabulated cylinder of length 1 mm"
                ));
                let trimmed = Surface::Trimmed {
                    basis: Box::new(Surface::Extrusion {
                        profile: profile.clone(),
                        direction: *direction,
                    }),
                    u: range,
                    v: (0.0, 1.0),
                };
                self.surface(&trimmed, what)
            }
            Surface::Offset { basis, distance } => {
                let b = self.surface(basis, what);
                self.add(140, 0, format!("140,0.,0.,0.,{},{b};", real(*distance)))
            }
        }
    }

    pub(super) fn revolution(&mut self, profile: &Curve, o: &Vec3, d: &Vec3, u: (f64, f64), v: (f64, f64)) -> usize {
        let axis = CurveSegment {
            curve: Curve::Line { origin: *o, dir: *d },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        let l = self.curve(&axis, false);
        let g = self.curve(
            &CurveSegment {
                curve: profile.clone(),
                t0: v.0,
                t1: v.1,
                forward: true,
            },
            false,
        );
        self.add(120, 0, format!("120,{l},{g},{},{};", real(u.0), real(u.1)))
    }
}

/// An unbounded extrusion face as a `Trimmed` extrusion that holds the
/// face: u = the profile's natural range, v from 0 (or lower) to a bound of
/// the face's edges along the direction (`(p − c(u))·d` over 17 samples of
/// each edge and of the profile, widened by 1e-9 of the extent); `None` for
/// other faces or without edges.
pub(super) fn bounded_extrusion(model: &Model, face: &Face) -> Option<Surface> {
    let Surface::Extrusion { profile, direction } = &face.surface else {
        return None;
    };
    let u = profile.natural_range()?;
    const N: usize = 16;
    let (mut c_lo, mut c_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for k in 0..=N {
        let x = profile.eval(u.0 + (u.1 - u.0) * k as f64 / N as f64).dot(direction);
        c_lo = c_lo.min(x);
        c_hi = c_hi.max(x);
    }
    let (mut p_lo, mut p_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for c in face
        .outer
        .iter()
        .chain(face.inner.iter())
        .flat_map(|l| l.coedges.iter())
    {
        let seg = match (c.edge.and_then(|e| model.edges.get(e)), &c.curve) {
            (Some(e), _) => CurveSegment {
                curve: e.curve.clone(),
                t0: e.t0,
                t1: e.t1,
                forward: true,
            },
            (None, Some(s)) => s.clone(),
            _ => continue,
        };
        for k in 0..=N {
            let x = seg.point_at(k as f64 / N as f64).dot(direction);
            p_lo = p_lo.min(x);
            p_hi = p_hi.max(x);
        }
    }
    if !(p_lo.is_finite() && p_hi.is_finite() && c_lo.is_finite() && c_hi.is_finite()) {
        return None;
    }
    let (lo, hi) = (p_lo - c_hi, p_hi - c_lo);
    let pad = 1e-9 * (hi - lo).abs().max(1.0);
    // from the directrix unless the face reaches below it (then the writer moves it)
    let v = (if lo < -pad { lo - pad } else { 0.0 }, hi + pad);
    Some(Surface::Trimmed {
        basis: Box::new(face.surface.clone()),
        u,
        v,
    })
}

/// Samples per boundary in [`closed_directions`].
const CLOSURE_SAMPLES: usize = 16;

/// IGES 128 PROP1 / PROP2: whether the B-spline is closed in u (its
/// boundaries `u = u0` and `u = u1` coincide) and in v, by sampling both
/// boundaries within 1e-9 of the poles' extent. Open CASCADE's reader takes
/// the flags as given: a surface of revolution whose flag says open has no
/// seam, and a face bounded by two circles on it reads as two faces of zero
/// area.
pub(super) fn closed_directions(n: &crate::geom::NurbsSurface) -> (bool, bool) {
    let ((u0, u1), (v0, v1)) = n.domain();
    let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    for h in &n.cw {
        let p = Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
        lo = lo.inf(&p);
        hi = hi.sup(&p);
    }
    let tol = 1e-9 * (hi - lo).norm().max(1.0);
    let closed = |a: &dyn Fn(f64) -> Vec3, b: &dyn Fn(f64) -> Vec3| {
        (0..=CLOSURE_SAMPLES).all(|k| {
            let s = k as f64 / CLOSURE_SAMPLES as f64;
            (a(s) - b(s)).norm() <= tol
        })
    };
    let at_v = |s: f64| v0 + s * (v1 - v0);
    let at_u = |s: f64| u0 + s * (u1 - u0);
    let cu = closed(&|s| n.eval(u0, at_v(s)), &|s| n.eval(u1, at_v(s)));
    let cv = closed(&|s| n.eval(at_u(s), v0), &|s| n.eval(at_u(s), v1));
    (cu, cv)
}

#[cfg(test)]
mod tests {
    use super::closed_directions;
    use crate::geom::NurbsSurface;

    /// A quadratic × linear Bézier patch with poles `xy[i]` at heights 0 and 1.
    fn patch(xy: [(f64, f64); 3]) -> NurbsSurface {
        let mut cw = Vec::new();
        for (x, y) in xy {
            for z in [0.0, 1.0] {
                cw.push([x, y, z, 1.0]);
            }
        }
        NurbsSurface::bezier(2, 1, cw).unwrap()
    }

    #[test]
    fn closed_flags_follow_the_boundaries() {
        // first and last u rows coincide: closed in u, open in v
        assert_eq!(closed_directions(&patch([(0.0, 0.0), (1.0, 1.0), (0.0, 0.0)])), (true, false));
        // a last row 1e-6 off (beyond 1e-9 of the extent) is open
        assert_eq!(closed_directions(&patch([(0.0, 0.0), (1.0, 1.0), (1e-6, 0.0)])), (false, false));
        assert_eq!(closed_directions(&patch([(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)])), (false, false));
    }
}

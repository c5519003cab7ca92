//! Offsets with an exact form: the parallel surface `basis + d·n` of a
//! plane, quadric, torus, or of a surface of revolution or extrusion whose
//! normal is constant along a ruling or meridian circle, as a surface of the
//! same kind family and parameterisation.

use crate::geom::{Frame, Vec3};
use crate::import::model::{Curve, Surface};

/// The offset `basis + d·n` (`n` the unit normal `f_u × f_v`, see
/// [`Surface::Offset`]) as a surface of the same kind family and the same
/// parameterisation over `range`, when that offset is exactly representable:
/// offsets of planes, cylinders, cones, spheres, tori, surfaces of
/// revolution of a line or circle lying in a plane through the axis,
/// extrusions of a line or of a circle along its normal, offsets of these and
/// restricted (trimmed) ones. The parallel surfaces of these are again such
/// surfaces (the normal is constant along a ruling or meridian circle).
/// Other bases (general B-splines, ruled B-spline surfaces, extrusions of
/// free curves, …) have offsets that are not rational: the error names what
/// was met so that the caller can report it. The normal must keep its side
/// over `range` (no apex, axis crossing or spindle part inside it).
pub fn offset_surface(basis: &Surface, d: f64, range: ((f64, f64), (f64, f64))) -> Result<Surface, String> {
    if !d.is_finite() {
        return Err("offset by a non-finite distance".into());
    }
    let (_, (v0, v1)) = range;
    let unsupported = |why: &str| Err(format!("offset of a {}{why}", basis.type_name()));
    match basis {
        Surface::Plane { frame } => Ok(Surface::Plane {
            frame: Frame {
                origin: frame.origin + frame.z * d,
                ..*frame
            },
        }),
        // f_u × f_v points away from the axis / centre for these
        Surface::Cylinder { frame, radius } => {
            let r = radius + d;
            if !(r > 0.0) {
                return unsupported(" through its axis");
            }
            Ok(Surface::Cylinder {
                frame: *frame,
                radius: r,
            })
        }
        Surface::Sphere { frame, radius } => {
            let r = radius + d;
            if !(r > 0.0) {
                return unsupported(" through its centre");
            }
            Ok(Surface::Sphere {
                frame: *frame,
                radius: r,
            })
        }
        Surface::Torus { frame, major, minor } => {
            // ρ = R + r cos v must stay positive (outside a spindle torus' inner part)
            let (cmin, _) = cos_bounds(v0, v1);
            let r = minor + d;
            if !(major + minor * cmin > 0.0) {
                return unsupported(" over its spindle part");
            }
            if !(r > 0.0) {
                return unsupported(" through its core circle");
            }
            Ok(Surface::Torus {
                frame: *frame,
                major: *major,
                minor: r,
            })
        }
        Surface::Cone {
            frame,
            radius,
            semi_angle,
        } => {
            // f_u × f_v = ρ (cos a·e − sin a·z), ρ = r + v sin a: the offset
            // moves the cone by d' (cos a·e − sin a·z) with d' = ±d by the sign of ρ
            let (sa, ca) = semi_angle.sin_cos();
            let (ra, rb) = (radius + v0 * sa, radius + v1 * sa);
            let tol = 1e-12 * (radius.abs() + (v0.abs() + v1.abs()) * sa.abs()).max(1e-300);
            let dd = if ra >= -tol && rb >= -tol {
                d
            } else if ra <= tol && rb <= tol {
                -d
            } else {
                return unsupported(" across its apex");
            };
            let origin = frame.origin - frame.z * (dd * sa);
            let r = radius + dd * ca;
            if r >= 0.0 {
                Ok(Surface::Cone {
                    frame: Frame { origin, ..*frame },
                    radius: r,
                    semi_angle: *semi_angle,
                })
            } else {
                // same surface, radius negative at v = 0: the revolved generatrix
                Ok(Surface::Revolution {
                    profile: Box::new(Curve::Line {
                        origin: origin + frame.x * r,
                        dir: frame.x * sa + frame.z * ca,
                    }),
                    axis_origin: origin,
                    axis_dir: frame.z,
                })
            }
        }
        Surface::Revolution {
            profile,
            axis_origin,
            axis_dir,
        } => {
            let a = *axis_origin;
            let dn = axis_dir.norm();
            if !(dn > 0.0 && dn.is_finite()) {
                return unsupported(" about a degenerate axis");
            }
            let ax = *axis_dir / dn;
            // the meridian plane's normal m (f_u × f_v = ρ·m × c' with ρ the
            // distance from the axis, signed against m × axis)
            let pts = [v0, 0.5 * (v0 + v1), v1].map(|t| profile.eval(t));
            let far =
                pts.iter()
                    .map(|p| ax.cross(&(p - a)))
                    .fold(Vec3::zeros(), |b, w| if w.norm() > b.norm() { w } else { b });
            let scale = 1.0 + pts.iter().map(|p| (p - a).norm()).fold(0.0, f64::max);
            if !(far.norm() > 1e-12 * scale) {
                return unsupported(" lying on its axis");
            }
            let m = far / far.norm();
            let e = m.cross(&ax);
            let tol = 1e-9 * scale;
            match profile.as_ref() {
                Curve::Line { origin, dir } => {
                    let l = dir.norm();
                    if !(l > 0.0) || (origin - a).dot(&m).abs() > tol || dir.dot(&m).abs() > 1e-9 * l {
                        return unsupported(" of a line skew to its axis");
                    }
                    if (pts[0] - a).dot(&e) < -tol || (pts[2] - a).dot(&e) < -tol {
                        return unsupported(" of a line crossing its axis");
                    }
                    let n = m.cross(dir) / l;
                    Ok(Surface::Revolution {
                        profile: Box::new(Curve::Line {
                            origin: origin + n * d,
                            dir: *dir,
                        }),
                        axis_origin: a,
                        axis_dir: *axis_dir,
                    })
                }
                Curve::Circle { frame, radius } => {
                    let zc = frame.z;
                    if zc.cross(&m).norm() > 1e-9 || (frame.origin - a).dot(&m).abs() > tol {
                        return unsupported(" of a circle off a plane through its axis");
                    }
                    // ρ(t) = (c − a)·e + r (cos t x·e + sin t y·e) ≥ 0 over the range
                    let (xe, ye) = (frame.x.dot(&e), frame.y.dot(&e));
                    let amp = radius * xe.hypot(ye);
                    let phase = ye.atan2(xe);
                    let (cmin, _) = cos_bounds(v0 - phase, v1 - phase);
                    if (frame.origin - a).dot(&e) + amp * cmin < -tol {
                        return unsupported(" of a circle crossing its axis");
                    }
                    // m × c' = −r (m·z) ρ̂: the circle shrinks by d (m·z)
                    let r = radius - d * m.dot(&zc).signum();
                    if !(r > 0.0) {
                        return unsupported(" of a circle through its centre");
                    }
                    Ok(Surface::Revolution {
                        profile: Box::new(Curve::Circle {
                            frame: *frame,
                            radius: r,
                        }),
                        axis_origin: a,
                        axis_dir: *axis_dir,
                    })
                }
                other => Err(format!("offset of a revolution of a {}", other.type_name())),
            }
        }
        Surface::Extrusion { profile, direction } => match profile.as_ref() {
            // f_u × f_v = c' × dir
            Curve::Line { origin, dir } => {
                let n = dir.cross(direction);
                if !(n.norm() > 0.0) {
                    return unsupported(" of a line along its direction");
                }
                Ok(Surface::Extrusion {
                    profile: Box::new(Curve::Line {
                        origin: origin + n / n.norm() * d,
                        dir: *dir,
                    }),
                    direction: *direction,
                })
            }
            Curve::Circle { frame, radius } => {
                let k = direction.dot(&frame.z);
                if frame.z.cross(direction).norm() > 1e-9 * direction.norm() || k == 0.0 {
                    return unsupported(" of a circle not along its normal");
                }
                let r = radius + d * k.signum();
                if !(r > 0.0) {
                    return unsupported(" of a circle through its axis");
                }
                Ok(Surface::Extrusion {
                    profile: Box::new(Curve::Circle {
                        frame: *frame,
                        radius: r,
                    }),
                    direction: *direction,
                })
            }
            other => Err(format!("offset of an extrusion of a {}", other.type_name())),
        },
        Surface::Offset { basis, distance } => {
            let inner = offset_surface(basis, *distance, range)?;
            offset_surface(&inner, d, range)
        }
        Surface::Trimmed { basis, u, v } => Ok(Surface::Trimmed {
            basis: Box::new(offset_surface(basis, d, range)?),
            u: *u,
            v: *v,
        }),
        Surface::BSpline(_) => unsupported(""),
    }
}

/// Least and greatest `cos t` over `[a, b]`.
fn cos_bounds(a: f64, b: f64) -> (f64, f64) {
    if !(a.is_finite() && b.is_finite()) || b - a >= std::f64::consts::TAU {
        return (-1.0, 1.0);
    }
    let (mut lo, mut hi) = (a.cos().min(b.cos()), a.cos().max(b.cos()));
    let pi = std::f64::consts::PI;
    // multiples of π inside (a, b): cos = ±1 there
    let mut k = (a / pi).ceil();
    while k * pi < b {
        if (k as i64).rem_euclid(2) == 0 {
            hi = 1.0;
        } else {
            lo = -1.0;
        }
        k += 1.0;
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{check, frame};
    use super::super::{surface_nurbs, NurbsError};
    use super::*;
    use std::f64::consts::{PI, TAU};

    #[test]
    fn exact_offsets_match_definition() {
        // every representable offset kind, both signs, against `basis + d·n`
        // (the Model's own evaluation of `Surface::Offset`) at 8 × 8 points, 1e-9 relative
        let f = frame();
        let off = |basis: Surface, distance: f64| Surface::Offset {
            basis: Box::new(basis),
            distance,
        };
        let cone = |radius: f64, semi_angle: f64| Surface::Cone {
            frame: f,
            radius,
            semi_angle,
        };
        for d in [0.7, -0.4] {
            check(&off(Surface::Plane { frame: f }, d), ((-1.0, 2.0), (0.5, 3.0)));
            check(
                &off(Surface::Cylinder { frame: f, radius: 2.5 }, d),
                ((0.3, 5.0), (-1.0, 4.0)),
            );
            check(
                &off(Surface::Sphere { frame: f, radius: 3.0 }, d),
                ((0.0, TAU), (-1.2, 1.5)),
            );
            let torus = Surface::Torus {
                frame: f,
                major: 5.0,
                minor: 1.5,
            };
            check(&off(torus, d), ((0.5, TAU), (-PI, PI)));
            // widening and narrowing cones, a range below the apex (ρ < 0)
            check(&off(cone(2.0, 0.4), d), ((0.0, 4.0), (-1.0, 2.0)));
            check(&off(cone(2.0, -0.6), d), ((1.0, 3.0), (-2.0, 2.5)));
            check(&off(cone(1.0, 0.5), d), ((0.0, 2.0), (-9.0, -3.0)));
            // the offset's radius at v = 0 turns negative (revolved generatrix)
            check(&off(cone(0.1, 0.5), -3.0 * d.abs()), ((0.0, 2.0), (2.0, 6.0)));
            // revolution of a line and of a circle in a plane through a tilted axis
            let ax = Vec3::new(0.2, -0.1, 1.0).normalize();
            let a = Vec3::new(1.0, 2.0, -1.0);
            let side = ax.cross(&Vec3::x()).normalize().cross(&ax);
            let line = Curve::Line {
                origin: a + side * 3.0,
                dir: side * 0.5 + ax,
            };
            let rev = |profile: Curve| Surface::Revolution {
                profile: Box::new(profile),
                axis_origin: a,
                axis_dir: ax,
            };
            check(&off(rev(line), d), ((0.2, 5.0), (-2.0, 3.0)));
            for normal in [ax.cross(&side), side.cross(&ax)] {
                let circle = Curve::Circle {
                    frame: Frame::from_axis_ref(a + side * 4.0 + ax, normal, Some(side)).unwrap(),
                    radius: 1.0,
                };
                check(&off(rev(circle), d), ((0.0, 4.0), (0.5, 5.0)));
            }
            // extrusions of a line (a plane) and of a circle along its normal, both ways
            let ext = |profile: Curve, direction: Vec3| Surface::Extrusion {
                profile: Box::new(profile),
                direction,
            };
            let line = Curve::Line {
                origin: Vec3::new(1.0, 0.0, 2.0),
                dir: Vec3::new(0.0, 2.0, 1.0),
            };
            check(
                &off(ext(line, Vec3::new(1.0, 0.0, 0.3).normalize()), d),
                ((-1.0, 2.0), (0.0, 3.0)),
            );
            for sign in [1.0, -1.0] {
                let circle = Curve::Circle { frame: f, radius: 2.0 };
                check(&off(ext(circle, f.z * sign), d), ((0.2, 3.0), (-1.0, 2.0)));
            }
            // an offset of an offset, and of a restricted surface
            check(&off(off(cone(2.0, 0.4), 0.3), d), ((0.0, 4.0), (-1.0, 2.0)));
            let trimmed = Surface::Trimmed {
                basis: Box::new(Surface::Cylinder { frame: f, radius: 2.5 }),
                u: (0.0, 3.0),
                v: (-5.0, 5.0),
            };
            check(&off(trimmed, d), ((0.5, 2.5), (-1.0, 4.0)));
        }
    }

    #[test]
    fn unrepresentable_offsets_are_reported() {
        let f = frame();
        let off = |basis: Surface| Surface::Offset {
            basis: Box::new(basis),
            distance: 1.0,
        };
        let range = ((0.0, 1.0), (-1.0, 1.0));
        let cases = [
            // a free-form basis: the offset is not rational
            (
                off(Surface::BSpline(crate::geom::fixtures::table1_patch())),
                "offset of a BSplineSurface",
            ),
            // a cone whose range holds its apex: the normal flips there
            (
                off(Surface::Cone {
                    frame: f,
                    radius: 0.0,
                    semi_angle: 0.3,
                }),
                "apex",
            ),
            // a hyperboloid (line skew to the axis)
            (
                off(Surface::Revolution {
                    profile: Box::new(Curve::Line {
                        origin: Vec3::new(2.0, 0.0, 0.0),
                        dir: Vec3::new(0.0, 1.0, 1.0),
                    }),
                    axis_origin: Vec3::zeros(),
                    axis_dir: Vec3::z(),
                }),
                "skew",
            ),
            // an elliptic cylinder
            (
                off(Surface::Extrusion {
                    profile: Box::new(Curve::Ellipse {
                        frame: f,
                        semi_x: 2.0,
                        semi_y: 1.0,
                    }),
                    direction: f.z,
                }),
                "extrusion of a Ellipse",
            ),
            // a cylinder offset through its axis
            (
                Surface::Offset {
                    basis: Box::new(Surface::Cylinder { frame: f, radius: 1.0 }),
                    distance: -1.5,
                },
                "axis",
            ),
        ];
        for (s, what) in &cases {
            let e = surface_nurbs(s, 42, range).unwrap_err();
            assert!(matches!(e, NurbsError::Unsupported { face: 42, .. }), "{e}");
            assert!(e.to_string().contains("#42") && e.to_string().contains(what), "{e}");
        }
    }
}

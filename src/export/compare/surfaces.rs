//! Comparison of surfaces: value by value for the same type, and the
//! `bounded_surfaces` relaxation (a bare revolution / extrusion against a
//! `Trimmed` one, an extrusion profile moved along the direction).

use super::walker::Cmp;
use crate::import::model::{Curve, CurveSegment, Surface};

impl<'a> Cmp<'a> {
    pub(super) fn surface(&mut self, path: &str, x: &Surface, y: &Surface) {
        if self.o.relax.bounded_surfaces {
            if let (false, Surface::Trimmed { basis: q, u, v }) = (matches!(x, Surface::Trimmed { .. }), y) {
                if matches!(**q, Surface::Revolution { .. } | Surface::Extrusion { .. }) {
                    *self.out.relaxed.entry("bounded surface (Trimmed)").or_insert(0) += 1;
                    self.bounded_basis(&format!("{path} / trimmed basis"), x, q, *u, *v);
                    return;
                }
            }
        }
        match (x, y) {
            (Surface::Plane { frame: f }, Surface::Plane { frame: g }) => self.frame(path, f, g),
            (Surface::Cylinder { frame: f, radius: r }, Surface::Cylinder { frame: g, radius: s }) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
            }
            (
                Surface::Cone {
                    frame: f,
                    radius: r,
                    semi_angle: a,
                },
                Surface::Cone {
                    frame: g,
                    radius: s,
                    semi_angle: b,
                },
            ) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
                self.real(path, "semi-angle", *a, *b);
            }
            (Surface::Sphere { frame: f, radius: r }, Surface::Sphere { frame: g, radius: s }) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
            }
            (
                Surface::Torus {
                    frame: f,
                    major: r1,
                    minor: r2,
                },
                Surface::Torus {
                    frame: g,
                    major: s1,
                    minor: s2,
                },
            ) => {
                self.frame(path, f, g);
                self.real(path, "major radius", *r1, *s1);
                self.real(path, "minor radius", *r2, *s2);
            }
            (
                Surface::Revolution {
                    profile: p,
                    axis_origin: o,
                    axis_dir: d,
                },
                Surface::Revolution {
                    profile: q,
                    axis_origin: o2,
                    axis_dir: d2,
                },
            ) => {
                self.curve(&format!("{path} / profile"), p, q);
                self.vec(path, "axis origin", o, o2);
                self.vec(path, "axis direction", d, d2);
            }
            (
                Surface::Extrusion {
                    profile: p,
                    direction: d,
                },
                Surface::Extrusion {
                    profile: q,
                    direction: d2,
                },
            ) => {
                self.curve(&format!("{path} / profile"), p, q);
                self.vec(path, "direction", d, d2);
            }
            (Surface::Offset { basis: p, distance: d }, Surface::Offset { basis: q, distance: e }) => {
                self.surface(&format!("{path} / basis"), p, q);
                self.real(path, "offset", *d, *e);
            }
            (Surface::BSpline(p), Surface::BSpline(q)) => {
                if (p.degree_u, p.degree_v, p.n_u, p.n_v) != (q.degree_u, q.degree_v, q.n_u, q.n_v) {
                    self.diff(
                        path,
                        format!(
                            "B-spline degrees/poles {}x{} {}x{} vs {}x{} {}x{}",
                            p.degree_u, p.degree_v, p.n_u, p.n_v, q.degree_u, q.degree_v, q.n_u, q.n_v
                        ),
                    );
                    return;
                }
                self.reals(path, "u knot", &p.knots_u, &q.knots_u);
                self.reals(path, "v knot", &p.knots_v, &q.knots_v);
                self.poles(path, &p.cw, &q.cw);
            }
            (Surface::Trimmed { basis: p, u, v }, Surface::Trimmed { basis: q, u: u2, v: v2 }) => {
                self.surface(&format!("{path} / basis"), p, q);
                self.reals(path, "trim", &[u.0, u.1, v.0, v.1], &[u2.0, u2.1, v2.0, v2.1]);
            }
            _ => self.diff(path, format!("surface type {} vs {}", variant_s(x), variant_s(y))),
        }
    }

    /// A bare revolution / extrusion `x` against the basis `y` of a trimmed
    /// surface with rectangle `u × v` (`bounded_surfaces`). A profile whose
    /// type changed (a conic written as a B-spline) compares by evaluation:
    /// `x`'s profile on its natural range against `y`'s on the rectangle's
    /// profile range.
    pub(super) fn bounded_basis(&mut self, path: &str, x: &Surface, y: &Surface, u: (f64, f64), v: (f64, f64)) {
        let (p, q, range) = match (x, y) {
            (Surface::Revolution { profile: p, .. }, Surface::Revolution { profile: q, .. }) => (p, q, v),
            (Surface::Extrusion { profile: p, .. }, Surface::Extrusion { profile: q, .. }) => (p, q, u),
            _ => return self.surface(path, x, y),
        };
        if p.type_name() == q.type_name() {
            if let (Surface::Extrusion { direction: d, .. }, Surface::Extrusion { direction: d2, .. }) = (x, y) {
                // the same surface when the profile moved along the direction
                let t = p.natural_range().map_or(0.0, |r| r.0);
                let delta = (q.eval(t) - p.eval(t)).dot(d);
                if delta != 0.0 && delta.is_finite() {
                    *self
                        .out
                        .relaxed
                        .entry("extrusion profile moved along the direction")
                        .or_insert(0) += 1;
                    let moved = crate::export::iges::shift_curve(p, &(d * delta));
                    self.curve(
                        &format!("{path} / profile moved by {delta:e} along the direction"),
                        &moved,
                        q,
                    );
                    self.vec(path, "direction", d, d2);
                    return;
                }
            }
            return self.surface(path, x, y);
        }
        if !self.o.relax.curves_by_evaluation {
            return self.surface(path, x, y);
        }
        let Some((t0, t1)) = p.natural_range() else {
            self.diff(
                path,
                format!("profile {} vs {}: unbounded profile", p.type_name(), q.type_name()),
            );
            return;
        };
        let seg = |c: &Curve, (t0, t1): (f64, f64)| CurveSegment {
            curve: c.clone(),
            t0,
            t1,
            forward: true,
        };
        self.segment(&format!("{path} / profile"), &seg(p, (t0, t1)), &seg(q, range), false);
        match (x, y) {
            (
                Surface::Revolution {
                    axis_origin: o,
                    axis_dir: d,
                    ..
                },
                Surface::Revolution {
                    axis_origin: o2,
                    axis_dir: d2,
                    ..
                },
            ) => {
                self.vec(path, "axis origin", o, o2);
                self.vec(path, "axis direction", d, d2);
            }
            (Surface::Extrusion { direction: d, .. }, Surface::Extrusion { direction: d2, .. }) => {
                self.vec(path, "direction", d, d2)
            }
            _ => {}
        }
    }
}

fn variant_s(s: &Surface) -> &'static str {
    match s {
        Surface::Trimmed { .. } => "RectangularTrimmedSurface",
        other => other.type_name(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::walker::cmp;
    use super::super::Relaxations;
    use super::*;
    use crate::geom::Vec3;
    use crate::import::model::{Model, SourceFormat};

    #[test]
    fn bounded_surfaces_compare_by_basis_and_moved_directrix() {
        let m = Model::new(SourceFormat::Step, "t.step");
        let profile = Curve::Line {
            origin: Vec3::new(1.0, 0.0, 0.0),
            dir: Vec3::new(0.0, 1.0, 0.0),
        };
        let d = Vec3::new(0.0, 0.0, 1.0);
        let bare = Surface::Extrusion {
            profile: Box::new(profile.clone()),
            direction: d,
        };
        let trimmed = |p: Curve| Surface::Trimmed {
            basis: Box::new(Surface::Extrusion {
                profile: Box::new(p),
                direction: d,
            }),
            u: (0.0, 1.0),
            v: (0.0, 2.0),
        };
        let relax = Relaxations {
            bounded_surfaces: true,
            ..Default::default()
        };
        let moved = crate::export::iges::shift_curve(&profile, &(d * -1.5));
        let tilted = crate::export::iges::shift_curve(&profile, &Vec3::new(0.1, 0.0, -1.5));
        for (y, relax, equal) in [
            (trimmed(profile.clone()), relax, true),
            (trimmed(moved.clone()), relax, true),
            (trimmed(tilted), relax, false),
            (trimmed(profile.clone()), Relaxations::default(), false),
        ] {
            let mut c = cmp(&m, relax);
            c.surface("s", &bare, &y);
            assert_eq!(c.out.is_equal(), equal, "{}", c.out.report(5));
        }
    }
}

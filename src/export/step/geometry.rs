//! Geometry entities: lines, conics, polylines, composite curves of trimmed
//! curves and B-spline curves (rational as the complex instance), in 3-D or
//! in a surface's 2-D parameter space; analytic, swept, offset, trimmed and
//! B-spline surfaces.

use super::encoding::{b, compress_knots, list, real, refs};
use super::writer::W;
use crate::export::{stable_pole, stable_unit};
use crate::geom::{NurbsCurve, NurbsSurface, Vec3};
use crate::import::model::{Curve, Surface};

impl W<'_> {
    pub(super) fn bspline_curve(&mut self, c: &NurbsCurve, dim2: bool) -> usize {
        let pts: Vec<usize> =
            c.cw.iter()
                .map(|h| {
                    let p = stable_pole(*h);
                    self.pt(&Vec3::new(p[0], p[1], p[2]), dim2)
                })
                .collect();
        let (m, k) = compress_knots(&c.knots);
        let ml = list(&m, |x| x.to_string());
        let kl = list(&k, |x| real(*x));
        if c.rational {
            let w = list(&c.cw, |h| real(h[3]));
            self.add(format!(
                "(BOUNDED_CURVE()B_SPLINE_CURVE({},{},.UNSPECIFIED.,.F.,.F.)B_SPLINE_CURVE_WITH_KNOTS({ml},{kl},.UNSPECIFIED.)CURVE()GEOMETRIC_REPRESENTATION_ITEM()RATIONAL_B_SPLINE_CURVE({w})REPRESENTATION_ITEM(''))",
                c.degree,
                refs(&pts)
            ))
        } else {
            self.add(format!(
                "B_SPLINE_CURVE_WITH_KNOTS('',{},{},.UNSPECIFIED.,.F.,.F.,{ml},{kl},.UNSPECIFIED.)",
                c.degree,
                refs(&pts)
            ))
        }
    }

    /// Any curve; `range` is the used parameter range when known (lines with a
    /// non-unit direction then become an exact degree-1 B-spline).
    pub(super) fn curve(&mut self, c: &Curve, dim2: bool, range: Option<(f64, f64)>, what: &str) -> usize {
        match c {
            Curve::Line { origin, dir } => {
                let u = stable_unit(*dir);
                let unit_speed = (dir.norm() - 1.0).abs() <= 1e-15;
                if !unit_speed {
                    // STEP lines have unit speed: same point set, parameter scaled by |d|
                    self.scaled_lines += 1;
                }
                let _ = range;
                let o = self.pt(origin, dim2);
                let d = self.dir(&u, dim2);
                let v = self.add(format!("VECTOR('',#{d},1.)"));
                self.add(format!("LINE('',#{o},#{v})"))
            }
            Curve::Circle { frame, radius } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("CIRCLE('',#{a},{})", real(*radius)))
            }
            Curve::Ellipse { frame, semi_x, semi_y } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("ELLIPSE('',#{a},{},{})", real(*semi_x), real(*semi_y)))
            }
            Curve::Parabola { frame, focal } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("PARABOLA('',#{a},{})", real(*focal)))
            }
            Curve::Hyperbola { frame, semi_x, semi_y } => {
                let a = self.conic_axis(frame, dim2, what);
                self.add(format!("HYPERBOLA('',#{a},{},{})", real(*semi_x), real(*semi_y)))
            }
            Curve::BSpline(n) => self.bspline_curve(n, dim2),
            Curve::Polyline(p) => {
                let ids: Vec<usize> = p.iter().map(|q| self.pt(q, dim2)).collect();
                self.add(format!("POLYLINE('',{})", refs(&ids)))
            }
            Curve::Composite(segs) => {
                let mut ids = Vec::with_capacity(segs.len());
                for s in segs {
                    let basis = self.curve(&s.curve, dim2, Some((s.t0, s.t1)), what);
                    let t = self.add(format!(
                        "TRIMMED_CURVE('',#{basis},(PARAMETER_VALUE({})),(PARAMETER_VALUE({})),.T.,.PARAMETER.)",
                        real(s.t0),
                        real(s.t1)
                    ));
                    ids.push(self.add(format!("COMPOSITE_CURVE_SEGMENT(.CONTINUOUS.,{},#{t})", b(s.forward))));
                }
                self.add(format!("COMPOSITE_CURVE('',{},.U.)", refs(&ids)))
            }
        }
    }

    pub(super) fn bspline_surface(&mut self, s: &NurbsSurface) -> usize {
        let mut rows = Vec::with_capacity(s.n_u);
        for i in 0..s.n_u {
            let row: Vec<usize> = (0..s.n_v)
                .map(|j| {
                    let p = stable_pole(s.cw[i * s.n_v + j]);
                    self.pt3(&Vec3::new(p[0], p[1], p[2]))
                })
                .collect();
            rows.push(refs(&row));
        }
        let poles = list(&rows, |r| r.clone());
        let (mu, ku) = compress_knots(&s.knots_u);
        let (mv, kv) = compress_knots(&s.knots_v);
        let knots = format!(
            "{},{},{},{}",
            list(&mu, |x| x.to_string()),
            list(&mv, |x| x.to_string()),
            list(&ku, |x| real(*x)),
            list(&kv, |x| real(*x))
        );
        if s.rational {
            let wrows: Vec<String> = (0..s.n_u)
                .map(|i| list(&s.cw[i * s.n_v..(i + 1) * s.n_v], |h| real(h[3])))
                .collect();
            self.add(format!(
                "(BOUNDED_SURFACE()B_SPLINE_SURFACE({},{},{poles},.UNSPECIFIED.,.F.,.F.,.F.)B_SPLINE_SURFACE_WITH_KNOTS({knots},.UNSPECIFIED.)GEOMETRIC_REPRESENTATION_ITEM()RATIONAL_B_SPLINE_SURFACE({})REPRESENTATION_ITEM('')SURFACE())",
                s.degree_u,
                s.degree_v,
                list(&wrows, |r| r.clone())
            ))
        } else {
            self.add(format!(
                "B_SPLINE_SURFACE_WITH_KNOTS('',{},{},{poles},.UNSPECIFIED.,.F.,.F.,.F.,{knots},.UNSPECIFIED.)",
                s.degree_u, s.degree_v
            ))
        }
    }

    pub(super) fn surface(&mut self, s: &Surface, what: &str) -> usize {
        match s {
            Surface::Plane { frame } => {
                let a = self.axis3(frame);
                self.add(format!("PLANE('',#{a})"))
            }
            Surface::Cylinder { frame, radius } => {
                let a = self.axis3(frame);
                self.add(format!("CYLINDRICAL_SURFACE('',#{a},{})", real(*radius)))
            }
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            } => {
                let a = self.axis3(frame);
                self.add(format!(
                    "CONICAL_SURFACE('',#{a},{},{})",
                    real(*radius),
                    real(*semi_angle)
                ))
            }
            Surface::Sphere { frame, radius } => {
                let a = self.axis3(frame);
                self.add(format!("SPHERICAL_SURFACE('',#{a},{})", real(*radius)))
            }
            Surface::Torus { frame, major, minor } => {
                let a = self.axis3(frame);
                self.add(format!("TOROIDAL_SURFACE('',#{a},{},{})", real(*major), real(*minor)))
            }
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                let c = self.curve(profile, false, None, what);
                let o = self.pt3(axis_origin);
                let d = self.dir(axis_dir, false);
                let a = self.add(format!("AXIS1_PLACEMENT('',#{o},#{d})"));
                self.add(format!("SURFACE_OF_REVOLUTION('',#{c},#{a})"))
            }
            Surface::Extrusion { profile, direction } => {
                let c = self.curve(profile, false, None, what);
                let d = self.dir(direction, false);
                let v = self.add(format!("VECTOR('',#{d},1.)"));
                self.add(format!("SURFACE_OF_LINEAR_EXTRUSION('',#{c},#{v})"))
            }
            Surface::Offset { basis, distance } => {
                let bs = self.surface(basis, what);
                self.add(format!("OFFSET_SURFACE('',#{bs},{},.F.)", real(*distance)))
            }
            Surface::BSpline(n) => self.bspline_surface(n),
            Surface::Trimmed { basis, u, v } => {
                let bs = self.surface(basis, what);
                self.add(format!(
                    "RECTANGULAR_TRIMMED_SURFACE('',#{bs},{},{},{},{},.T.,.T.)",
                    real(u.0),
                    real(u.1),
                    real(v.0),
                    real(v.1)
                ))
            }
        }
    }
}

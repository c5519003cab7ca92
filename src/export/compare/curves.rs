//! Comparison of curves and used curve ranges: value by value for the same
//! type, and the relaxations for lines (point sets of the used segment),
//! p-curve ranges, angle ranges and conics written as B-splines (compared
//! by evaluation).

use super::walker::Cmp;
use crate::geom::{Frame, Vec3};
use crate::import::model::{Curve, CurveSegment};

impl<'a> Cmp<'a> {
    pub(super) fn curve(&mut self, path: &str, x: &Curve, y: &Curve) {
        match (x, y) {
            (Curve::Line { origin: o, dir: d }, Curve::Line { origin: o2, dir: d2 }) => {
                self.vec(path, "origin", o, o2);
                self.vec(path, "direction", d, d2);
            }
            (Curve::Circle { frame: f, radius: r }, Curve::Circle { frame: g, radius: s }) => {
                self.frame(path, f, g);
                self.real(path, "radius", *r, *s);
            }
            (
                Curve::Ellipse {
                    frame: f,
                    semi_x: a,
                    semi_y: b,
                },
                Curve::Ellipse {
                    frame: g,
                    semi_x: c,
                    semi_y: d,
                },
            )
            | (
                Curve::Hyperbola {
                    frame: f,
                    semi_x: a,
                    semi_y: b,
                },
                Curve::Hyperbola {
                    frame: g,
                    semi_x: c,
                    semi_y: d,
                },
            ) => {
                self.frame(path, f, g);
                self.real(path, "semi-axis x", *a, *c);
                self.real(path, "semi-axis y", *b, *d);
            }
            (Curve::Parabola { frame: f, focal: a }, Curve::Parabola { frame: g, focal: b }) => {
                self.frame(path, f, g);
                self.real(path, "focal distance", *a, *b);
            }
            (Curve::BSpline(p), Curve::BSpline(q)) => {
                if p.degree != q.degree {
                    self.diff(path, format!("B-spline degree {} vs {}", p.degree, q.degree));
                    return;
                }
                self.reals(path, "knot", &p.knots, &q.knots);
                self.poles(path, &p.cw, &q.cw);
            }
            (Curve::Polyline(p), Curve::Polyline(q)) => {
                if p.len() != q.len() {
                    self.diff(path, format!("polyline points {} vs {}", p.len(), q.len()));
                    return;
                }
                for (k, (u, v)) in p.iter().zip(q).enumerate() {
                    self.vec(path, &format!("point {k}"), u, v);
                }
            }
            (Curve::Composite(p), Curve::Composite(q)) => {
                if p.len() != q.len() {
                    self.diff(path, format!("composite segments {} vs {}", p.len(), q.len()));
                    return;
                }
                for (k, (u, v)) in p.iter().zip(q).enumerate() {
                    self.segment(&format!("{path} / segment {k}"), u, v, false);
                }
            }
            _ => self.diff(path, format!("curve type {} vs {}", x.type_name(), y.type_name())),
        }
    }

    /// `y` (a B-spline segment) against the conic segment `x` by evaluation
    /// (see [`Relaxations::curves_by_evaluation`]); `either_sense` accepts
    /// `y` running against `x` (p-curves under `pcurve_ranges`).
    ///
    /// [`Relaxations::curves_by_evaluation`]: super::Relaxations::curves_by_evaluation
    pub(super) fn conic_by_evaluation(&mut self, path: &str, x: &CurveSegment, y: &CurveSegment, either_sense: bool) {
        const N: usize = 16;
        let periodic = matches!(x.curve, Curve::Circle { .. } | Curve::Ellipse { .. });
        let (start, end) = if x.forward { (x.t0, x.t1) } else { (x.t1, x.t0) };
        let mut ts = Vec::with_capacity(N + 1);
        let n = self.out.differences.len();
        for k in 0..=N {
            let s = k as f64 / N as f64;
            let p = y.point_at(s);
            let Some(mut t) = conic_parameter(&x.curve, &p) else {
                self.diff(path, format!("{} has no closed-form parameter", x.curve.type_name()));
                return;
            };
            if periodic {
                // the turn closest to the expected position along `x`
                let expect = start + s * (end - start);
                t += ((expect - t) / std::f64::consts::TAU).round() * std::f64::consts::TAU;
            }
            let q = x.curve.eval(t);
            self.vec(
                path,
                &format!("B-spline point {k} on the {}", x.curve.type_name()),
                &q,
                &p,
            );
            ts.push(t);
            if self.out.differences.len() > n + 3 {
                return;
            }
        }
        let (first, last) = (ts[0], ts[N]);
        let reversed = either_sense && (first - end).abs() < (first - start).abs();
        let (want0, want1) = if reversed { (end, start) } else { (start, end) };
        self.real(path, "start parameter on the conic", want0, first);
        self.real(path, "end parameter on the conic", want1, last);
        let rising = want1 > want0;
        if ts.windows(2).any(|w| (w[1] > w[0]) != rising || w[1] == w[0]) {
            self.diff(
                path,
                format!(
                    "the B-spline does not run monotonically along the {}",
                    x.curve.type_name()
                ),
            );
        }
    }

    /// A used curve range; `pcurve` applies the p-curve relaxation, under
    /// which a p-curve also equals the same curve reversed (the IGES writer
    /// writes each p-curve along its loop, Open CASCADE's reading; the IGES
    /// reader keeps the curve as written and sets the sense flag).
    pub(super) fn segment(&mut self, path: &str, x: &CurveSegment, y: &CurveSegment, pcurve: bool) {
        let n = self.out.differences.len();
        self.segment_once(path, x, y, pcurve);
        if self.out.differences.len() == n {
            return;
        }
        let Some(r) = reversed_curve(y) else { return };
        let found = self.out.differences.split_off(n);
        let relaxed = self.out.relaxed.clone();
        // the reversed curve traversed as `y` is (sense flag flipped): the
        // same point set in the same order, so equal without relaxation (a
        // writer may store a reversed segment as its reversed curve); then,
        // for p-curves under the relaxation, traversed the other way
        let flipped = CurveSegment {
            forward: !r.forward,
            ..r.clone()
        };
        let either = self.o.relax.pcurve_ranges || self.o.relax.pcurve_direction;
        let candidates: &[(&CurveSegment, &'static str)] = if pcurve && either {
            &[
                (&flipped, "p-curve reversed (by curve)"),
                (&r, "p-curve reversed (by curve)"),
            ]
        } else {
            &[(&flipped, "curve stored reversed (same traversal)")]
        };
        for &(candidate, why) in candidates {
            self.segment_once(path, x, candidate, pcurve);
            if self.out.differences.len() == n {
                *self.out.relaxed.entry(why).or_insert(0) += 1;
                return;
            }
            self.out.differences.truncate(n);
            self.out.relaxed = relaxed.clone();
        }
        self.out.differences.extend(found);
    }

    /// [`segment`](Self::segment) without the reversed p-curve retry.
    fn segment_once(&mut self, path: &str, x: &CurveSegment, y: &CurveSegment, pcurve: bool) {
        if self.o.relax.curves_by_evaluation
            && matches!(y.curve, Curve::BSpline(_))
            && matches!(
                x.curve,
                Curve::Circle { .. } | Curve::Ellipse { .. } | Curve::Hyperbola { .. } | Curve::Parabola { .. }
            )
        {
            // in their traversal orders (either way round for p-curves under `pcurve_ranges`)
            let either = pcurve && self.o.relax.pcurve_ranges;
            *self
                .out
                .relaxed
                .entry(match x.curve {
                    Curve::Circle { .. } => "circle as B-spline (by evaluation)",
                    Curve::Ellipse { .. } => "ellipse as B-spline (by evaluation)",
                    Curve::Hyperbola { .. } => "hyperbola as B-spline (by evaluation)",
                    _ => "parabola as B-spline (by evaluation)",
                })
                .or_insert(0) += 1;
            self.conic_by_evaluation(path, x, y, either);
            return;
        }
        if x.forward != y.forward && !(pcurve && self.o.relax.pcurve_ranges) {
            self.diff(path, format!("direction forward={} vs {}", x.forward, y.forward));
        }
        if self.o.relax.line_parameterisation {
            if let (Curve::Line { origin: o, dir: d }, Curve::Line { origin: o2, dir: d2 }) = (&x.curve, &y.curve) {
                if pcurve && self.o.relax.pcurve_ranges {
                    // by curve only: the same infinite line (ranges and
                    // speed are the format's, see `pcurve_ranges`)
                    let (n, n2) = (d.norm(), d2.norm());
                    if n > 0.0 && n2 > 0.0 {
                        let (u, mut u2) = (d / n, d2 / n2);
                        if u.dot(&u2) < 0.0 {
                            u2 = -u2;
                        }
                        self.vec(path, "line direction (unit, up to sign)", &u, &u2);
                        let off = o2 - o;
                        let perp = off - u * off.dot(&u);
                        self.vec(path, "line offset (perpendicular)", &Vec3::zeros(), &perp);
                        return;
                    }
                }
                self.vec(path, "line start", &(o + d * x.t0), &(o2 + d2 * y.t0));
                self.vec(path, "line end", &(o + d * x.t1), &(o2 + d2 * y.t1));
                return;
            }
        }
        self.curve(path, &x.curve, &y.curve);
        let periodic = matches!(x.curve, Curve::Circle { .. } | Curve::Ellipse { .. });
        if self.o.relax.angle_ranges && periodic && !(pcurve && self.o.relax.pcurve_ranges) {
            let k = ((y.t0 - x.t0) / std::f64::consts::TAU).round() * std::f64::consts::TAU;
            self.real(path, "t0 (mod 2π)", x.t0 + k, y.t0);
            self.real(path, "t1 (mod 2π)", x.t1 + k, y.t1);
            return;
        }
        if !(pcurve && self.o.relax.pcurve_ranges) {
            self.real(path, "t0", x.t0, y.t0);
            self.real(path, "t1", x.t1, y.t1);
        }
    }
}

/// `s` with its curve reversed on the same range (the point at `t` is the
/// original's at `t0 + t1 − t`, so the segment is traversed the other way):
/// lines and B-splines; `None` for others.
fn reversed_curve(s: &CurveSegment) -> Option<CurveSegment> {
    let curve = match &s.curve {
        Curve::Line { origin, dir } => Curve::Line {
            origin: origin + dir * (s.t0 + s.t1),
            dir: -dir,
        },
        Curve::Polyline(p) => {
            let last = p.len().saturating_sub(1) as f64;
            return Some(CurveSegment {
                curve: Curve::Polyline(p.iter().rev().copied().collect()),
                t0: last - s.t1,
                t1: last - s.t0,
                forward: s.forward,
            });
        }
        Curve::Composite(segs) if s.t0 == 0.0 && s.t1 == segs.len() as f64 => {
            // members in reverse order, each reversed on its own range
            Curve::Composite(segs.iter().rev().map(reversed_curve).collect::<Option<Vec<_>>>()?)
        }
        Curve::BSpline(c) => {
            let (a, b) = c.domain();
            let r = crate::import::iges::nurbs::reverse(c);
            return Some(CurveSegment {
                curve: Curve::BSpline(r),
                t0: a + b - s.t1,
                t1: a + b - s.t0,
                forward: s.forward,
            });
        }
        _ => return None,
    };
    Some(CurveSegment { curve, ..s.clone() })
}

/// The parameter of the conic `c` at a point on it, in closed form (`None`
/// for other curves): circles and ellipses the eccentric angle, hyperbolas
/// `asinh(y / b)`, parabolas `y` (frame coordinates).
fn conic_parameter(c: &Curve, p: &Vec3) -> Option<f64> {
    let local = |f: &Frame| {
        let d = p - f.origin;
        (d.dot(&f.x), d.dot(&f.y))
    };
    match c {
        Curve::Circle { frame, .. } => {
            let (x, y) = local(frame);
            Some(y.atan2(x))
        }
        Curve::Ellipse { frame, semi_x, semi_y } => {
            let (x, y) = local(frame);
            Some((y / semi_y).atan2(x / semi_x))
        }
        Curve::Hyperbola { frame, semi_y, .. } => Some((local(frame).1 / semi_y).asinh()),
        Curve::Parabola { frame, .. } => Some(local(frame).1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::walker::cmp;
    use super::super::Relaxations;
    use super::*;
    use crate::import::model::{Model, SourceFormat};

    #[test]
    fn conic_segments_compare_by_evaluation_only_when_relaxed_and_on_the_conic() {
        let m = Model::new(SourceFormat::Step, "t.step");
        let frame = Frame::from_axis_ref(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.6, 0.8), Some(Vec3::x())).unwrap();
        for conic in [
            Curve::Ellipse {
                frame,
                semi_x: 3.0,
                semi_y: 1.5,
            },
            Curve::Hyperbola {
                frame,
                semi_x: 2.0,
                semi_y: 0.5,
            },
        ] {
            let seg = CurveSegment {
                curve: conic.clone(),
                t0: 0.3,
                t1: 1.9,
                forward: true,
            };
            let nurbs = crate::import::iges::nurbs::to_nurbs(&seg).unwrap();
            let (s0, s1) = nurbs.domain();
            let as_bspline = CurveSegment {
                curve: Curve::BSpline(nurbs.clone()),
                t0: s0,
                t1: s1,
                forward: true,
            };
            let relax = Relaxations {
                curves_by_evaluation: true,
                ..Default::default()
            };
            let mut c = cmp(&m, relax);
            c.segment("e", &seg, &as_bspline, false);
            assert!(c.out.is_equal(), "{}", c.out.report(5));
            assert_eq!(c.out.relaxed.values().sum::<usize>(), 1);
            // strict: a type difference
            let mut c = cmp(&m, Relaxations::default());
            c.segment("e", &seg, &as_bspline, false);
            assert!(!c.out.is_equal());
            // a shorter segment, a reversed one and a moved pole are differences
            let shorter = CurveSegment { t1: 1.8, ..seg.clone() };
            let reversed = CurveSegment {
                forward: false,
                ..seg.clone()
            };
            let mut moved = nurbs.clone();
            let k = moved.cw.len() / 2;
            moved.cw[k][2] += 1e-9 * moved.cw[k][3];
            let moved = CurveSegment {
                curve: Curve::BSpline(moved),
                ..as_bspline.clone()
            };
            for (x, y) in [(&shorter, &as_bspline), (&reversed, &as_bspline), (&seg, &moved)] {
                let mut c = cmp(&m, relax);
                c.segment("e", x, y, false);
                assert!(!c.out.is_equal(), "{:?} vs {:?}", x.t1, y.curve.type_name());
            }
            // a p-curve may run either way under `pcurve_ranges`
            let mut c = cmp(
                &m,
                Relaxations {
                    pcurve_ranges: true,
                    ..relax
                },
            );
            c.segment("p", &reversed, &as_bspline, true);
            assert!(c.out.is_equal(), "{}", c.out.report(5));
        }
    }

    #[test]
    fn a_reversed_pcurve_is_equal_only_under_pcurve_direction() {
        let m = Model::new(SourceFormat::Iges, "t.igs");
        let line = CurveSegment {
            curve: Curve::Line {
                origin: Vec3::new(1.0, 2.0, 0.0),
                dir: Vec3::new(3.0, -1.0, 0.0),
            },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        let r = reversed_curve(&line).unwrap();
        // the same points, traversed the other way
        assert!((r.curve.eval(0.0) - line.curve.eval(1.0)).norm() < 1e-15);
        let mut c = cmp(&m, Relaxations::default());
        c.segment("p", &line, &r, true);
        assert!(!c.out.is_equal());
        let relax = Relaxations {
            pcurve_direction: true,
            ..Default::default()
        };
        let mut c = cmp(&m, relax);
        c.segment("p", &line, &r, true);
        assert!(c.out.is_equal(), "{}", c.out.report(5));
        assert_eq!(c.out.relaxed.get("p-curve reversed (by curve)"), Some(&1));
        // a moved line is not excused
        let moved = CurveSegment {
            curve: Curve::Line {
                origin: Vec3::new(1.0, 2.0 + 1e-6, 0.0),
                dir: Vec3::new(3.0, -1.0, 0.0),
            },
            ..line.clone()
        };
        let mut c = cmp(&m, relax);
        c.segment("p", &line, &reversed_curve(&moved).unwrap(), true);
        assert!(!c.out.is_equal());
        assert!(c.out.relaxed.is_empty());
    }
}

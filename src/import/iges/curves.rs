//! Curve entities → [`CurveSegment`]s in model space (mm), or in a surface's
//! parameter space for p-curves: 100 circular arc, 102 composite, 104 conic
//! arc, 106 copious data (forms 1–3, 11–13, 63), 110 line, 112 parametric
//! spline (exact cubic B-spline), 126 rational B-spline, 130 not supported.
//!
//! Parameterisations follow IGES where it matters for trimming: a 110 line
//! is `p1 + t (p2 - p1)`, `t ∈ [0, 1]`; a 100 arc runs over its angles.

use super::directory::DirEntry;
use super::error::IgesError;
use super::nurbs::{cubic_breakpoint_knots, cubic_power_to_bezier, map_nurbs, to_nurbs};
use super::reader::Reader;
use super::transform::Affine;
use crate::geom::Frame;
use crate::geom::{NurbsCurve, Vec3};
use crate::import::model::{Curve, CurveSegment};
use std::f64::consts::TAU;

fn seg(curve: Curve, t0: f64, t1: f64) -> CurveSegment {
    CurveSegment {
        curve,
        t0,
        t1,
        forward: true,
    }
}

/// Applies an affine map to a curve segment (exactly: conics under a
/// non-similarity become NURBS).
pub fn map_segment(s: CurveSegment, a: &Affine) -> Result<CurveSegment, String> {
    let sim = a.similarity();
    // the frame stays orthonormal (its invariant) where the 124's matrix is
    // a similarity only up to rounding (columns 1 ± 4e-12 long in
    // catia5r14_cone): the scale is the radius', not the axes'
    let frame_map = |f: &Frame| -> Frame {
        let x = a.vector(&f.x).normalize();
        let yv = a.vector(&f.y);
        let y = (yv - x * x.dot(&yv)).normalize();
        Frame {
            origin: a.point(&f.origin),
            x,
            y,
            z: x.cross(&y),
        }
    };
    let curve = match (&s.curve, sim) {
        (Curve::Line { origin, dir }, _) => Curve::Line {
            origin: a.point(origin),
            dir: a.vector(dir),
        },
        (Curve::Circle { frame, radius }, Some(k)) => Curve::Circle {
            frame: frame_map(frame),
            radius: radius * k,
        },
        (Curve::Ellipse { frame, semi_x, semi_y }, Some(k)) => Curve::Ellipse {
            frame: frame_map(frame),
            semi_x: semi_x * k,
            semi_y: semi_y * k,
        },
        (Curve::Hyperbola { frame, semi_x, semi_y }, Some(k)) => Curve::Hyperbola {
            frame: frame_map(frame),
            semi_x: semi_x * k,
            semi_y: semi_y * k,
        },
        (Curve::Parabola { frame, focal }, Some(k)) => Curve::Parabola {
            frame: frame_map(frame),
            focal: focal * k,
        },
        (Curve::BSpline(b), _) => Curve::BSpline(map_nurbs(b, a)),
        (Curve::Polyline(p), _) => Curve::Polyline(p.iter().map(|q| a.point(q)).collect()),
        (Curve::Composite(parts), _) => Curve::Composite(
            parts
                .iter()
                .map(|p| map_segment(p.clone(), a))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        (_, None) => {
            let n = to_nurbs(&s).ok_or("conic cannot be converted to NURBS")?;
            let (t0, t1) = n.domain();
            return Ok(CurveSegment {
                curve: Curve::BSpline(map_nurbs(&n, a)),
                t0,
                t1,
                forward: s.forward,
            });
        }
    };
    Ok(CurveSegment { curve, ..s })
}

/// The conic `A x² + B xy + C y² + D x + E y + F = 0` in its own frame.
struct Conic {
    curve: Curve,
    /// Parameter of a point on the conic (in the curve's own parameterisation).
    param: Box<dyn Fn(f64, f64) -> f64>,
    closed: bool,
}

fn conic(c: [f64; 6], zt: f64) -> Option<Conic> {
    let [a, b, cc, d, e, f] = c;
    let th = if b == 0.0 { 0.0 } else { 0.5 * b.atan2(a - cc) };
    let (s, co) = th.sin_cos();
    let a1 = a * co * co + b * co * s + cc * s * s;
    let c1 = a * s * s - b * s * co + cc * co * co;
    let d1 = d * co + e * s;
    let e1 = -d * s + e * co;
    let scale = a1.abs().max(c1.abs());
    if !(scale > 0.0) {
        return None;
    }
    let frame_at = |x0: f64, y0: f64, rot: f64| -> Frame {
        let (s2, c2) = (th + rot).sin_cos();
        let ox = co * x0 - s * y0;
        let oy = s * x0 + co * y0;
        Frame {
            origin: Vec3::new(ox, oy, zt),
            x: Vec3::new(c2, s2, 0.0),
            y: Vec3::new(-s2, c2, 0.0),
            z: Vec3::z(),
        }
    };
    let local = move |fr: &Frame, x: f64, y: f64| -> (f64, f64) {
        let v = Vec3::new(x, y, zt) - fr.origin;
        (v.dot(&fr.x), v.dot(&fr.y))
    };
    if a1.abs() > 1e-12 * scale && c1.abs() > 1e-12 * scale {
        let x0 = -d1 / (2.0 * a1);
        let y0 = -e1 / (2.0 * c1);
        let rhs = -(f - a1 * x0 * x0 - c1 * y0 * y0);
        let p = rhs / a1;
        let q = rhs / c1;
        if p > 0.0 && q > 0.0 {
            let fr = frame_at(x0, y0, 0.0);
            let (sa, sb) = (p.sqrt(), q.sqrt());
            let fr2 = fr;
            return Some(Conic {
                curve: Curve::Ellipse {
                    frame: fr,
                    semi_x: sa,
                    semi_y: sb,
                },
                param: Box::new(move |x, y| {
                    let (lx, ly) = local(&fr2, x, y);
                    (ly / sb).atan2(lx / sa)
                }),
                closed: true,
            });
        }
        // hyperbola: the real axis is the positive one
        let (rot, sa, sb) = if p > 0.0 && q < 0.0 {
            (0.0, p.sqrt(), (-q).sqrt())
        } else if q > 0.0 && p < 0.0 {
            (std::f64::consts::FRAC_PI_2, q.sqrt(), (-p).sqrt())
        } else {
            return None;
        };
        let fr = frame_at(x0, y0, rot);
        return Some(Conic {
            curve: Curve::Hyperbola {
                frame: fr,
                semi_x: sa,
                semi_y: sb,
            },
            param: Box::new(move |x, y| {
                let (_, ly) = local(&fr, x, y);
                (ly / sb).asinh()
            }),
            closed: false,
        });
    }
    // parabola: one of a1, c1 vanishes
    let (rot, k, dd, ee, ff) = if a1.abs() <= 1e-12 * scale {
        // c1 Y² + d1 X + e1 Y + f = 0
        (0.0, c1, d1, e1, f)
    } else {
        // a1 X² + d1 X + e1 Y + f = 0: swap roles (rotate by 90°: X' = Y, Y' = -X)
        (std::f64::consts::FRAC_PI_2, a1, e1, -d1, f)
    };
    if dd.abs() < 1e-300 {
        return None;
    }
    // k (Y + ee/2k)² + dd X + ff - ee²/4k = 0  →  X - X0 = -(k/dd) (Y - Y0)²
    let y0 = -ee / (2.0 * k);
    let x0 = -(ff - ee * ee / (4.0 * k)) / dd;
    let coef = -k / dd; // X - X0 = coef (Y - Y0)²
    let (x0g, y0g) = if rot == 0.0 { (x0, y0) } else { (-y0, x0) };
    let mut fr = frame_at(x0g, y0g, rot);
    let focal = 1.0 / (4.0 * coef.abs());
    if coef < 0.0 {
        fr.x = -fr.x;
        fr.y = -fr.y;
    }
    Some(Conic {
        curve: Curve::Parabola { frame: fr, focal },
        param: Box::new(move |x, y| local(&fr, x, y).1),
        closed: false,
    })
}

impl Reader<'_> {
    /// The curve a pointer refers to, placed with `parent` (model space incl.
    /// unit scale, or identity for parameter space).
    pub fn curve(&mut self, ptr: i64, from: &DirEntry, parent: &Affine) -> Result<CurveSegment, IgesError> {
        let e = self.entry(ptr, from)?;
        if let Some(class) = super::reader::other_class(e.entity, super::reader::Class::Curve) {
            return Err(self.err(
                from,
                format!(
                    "pointer {ptr} should be a curve, is entity {} ({class}) at DE {}",
                    e.entity, e.de
                ),
            ));
        }
        self.nested(&e, |r| r.curve_entity(&e, parent))
    }

    fn curve_entity(&mut self, e: &DirEntry, parent: &Affine) -> Result<CurveSegment, IgesError> {
        let a = self.placed(e, parent)?;
        let seg = match e.entity {
            102 => {
                let mut p = self.params(e)?;
                let n = p.count(1, "constituent curve")?;
                let mut ptrs = Vec::with_capacity(n);
                for _ in 0..n {
                    ptrs.push(p.int()?);
                }
                let mut parts = Vec::with_capacity(n);
                for q in ptrs {
                    let c = self.entry(q, e)?;
                    if matches!(c.entity, 116) {
                        self.skip(&c, "point inside a composite curve");
                        continue;
                    }
                    parts.push(self.curve(q, e, &a)?);
                }
                if parts.is_empty() {
                    return Err(self.err(e, "composite curve without constituent curves"));
                }
                let n = parts.len() as f64;
                return Ok(seg(Curve::Composite(parts), 0.0, n));
            }
            _ => self.curve_local(e)?,
        };
        map_segment(seg, &a).map_err(|m| self.err(e, m))
    }

    /// A curve in its definition space (no transform applied).
    fn curve_local(&mut self, e: &DirEntry) -> Result<CurveSegment, IgesError> {
        let mut p = self.params(e)?;
        match e.entity {
            100 => {
                let zt = p.real()?;
                let c = [p.real()?, p.real()?];
                let s = [p.real()?, p.real()?];
                let t = [p.real()?, p.real()?];
                let r = (s[0] - c[0]).hypot(s[1] - c[1]);
                if !(r > 0.0) {
                    return Err(self.err(e, "circular arc with zero radius"));
                }
                let a0 = (s[1] - c[1]).atan2(s[0] - c[0]);
                let mut a1 = (t[1] - c[1]).atan2(t[0] - c[0]);
                let closed = (s[0] - t[0]).hypot(s[1] - t[1]) <= 1e-9 * r;
                if closed {
                    a1 = a0 + TAU;
                } else {
                    while a1 <= a0 {
                        a1 += TAU;
                    }
                }
                let frame = Frame {
                    origin: Vec3::new(c[0], c[1], zt),
                    ..Frame::default()
                };
                Ok(seg(Curve::Circle { frame, radius: r }, a0, a1))
            }
            104 => {
                let mut k = [0.0; 6];
                for x in k.iter_mut() {
                    *x = p.real()?;
                }
                let zt = p.real()?;
                let s = [p.real()?, p.real()?];
                let t = [p.real()?, p.real()?];
                let cn = conic(k, zt).ok_or_else(|| self.err(e, "degenerate conic coefficients"))?;
                let t0 = (cn.param)(s[0], s[1]);
                let mut t1 = (cn.param)(t[0], t[1]);
                if cn.closed {
                    let same = (s[0] - t[0]).hypot(s[1] - t[1]) <= 1e-12 * (1.0 + s[0].abs() + s[1].abs());
                    if same {
                        t1 = t0 + TAU;
                    }
                    while t1 <= t0 {
                        t1 += TAU;
                    }
                    Ok(seg(cn.curve, t0, t1))
                } else if t1 >= t0 {
                    Ok(seg(cn.curve, t0, t1))
                } else {
                    Ok(CurveSegment {
                        curve: cn.curve,
                        t0: t1,
                        t1: t0,
                        forward: false,
                    })
                }
            }
            106 => {
                let ip = p.int()?;
                let n = p.int()?;
                let per = match ip {
                    1 => 2,
                    2 => 3,
                    3 => 6,
                    _ => return Err(p.err(format!("copious data interpretation flag {ip} (expected 1, 2 or 3)"))),
                };
                let n = p.check_count(n, per, "point")?;
                if !matches!(e.form, 1..=3 | 11..=13 | 63) {
                    return Err(self.err(e, format!("copious data form {} is not a curve", e.form)));
                }
                let zt = if ip == 1 { p.real()? } else { 0.0 };
                let mut pts = Vec::with_capacity(n);
                for _ in 0..n {
                    let x = p.real()?;
                    let y = p.real()?;
                    let z = if ip == 1 { zt } else { p.real()? };
                    if ip == 3 {
                        p.real()?;
                        p.real()?;
                        p.real()?;
                    }
                    pts.push(Vec3::new(x, y, z));
                }
                if pts.len() < 2 {
                    return Err(self.err(e, "copious data curve with fewer than 2 points"));
                }
                let m = (pts.len() - 1) as f64;
                Ok(seg(Curve::Polyline(pts), 0.0, m))
            }
            110 => {
                let a = Vec3::from(p.xyz()?);
                let b = Vec3::from(p.xyz()?);
                Ok(seg(Curve::Line { origin: a, dir: b - a }, 0.0, 1.0))
            }
            112 => {
                let _ctype = p.int()?;
                let _h = p.int()?;
                let ndim = p.int()?;
                let n = p.count(13, "segment")?;
                if n == 0 {
                    return Err(p.err("parametric spline with no segments"));
                }
                let t = p.reals(n + 1)?;
                if t.windows(2).any(|w| !(w[1] > w[0])) {
                    return Err(self.err(e, "breakpoints of the parametric spline are not increasing"));
                }
                let mut cw = Vec::with_capacity(3 * n + 1);
                for i in 0..n {
                    let mut c = [[0.0; 4]; 3];
                    for row in c.iter_mut() {
                        for v in row.iter_mut() {
                            *v = p.real()?;
                        }
                    }
                    if ndim == 2 {
                        c[2] = [c[2][0], 0.0, 0.0, 0.0];
                    }
                    let hh = t[i + 1] - t[i];
                    let bx = cubic_power_to_bezier(c[0], hh);
                    let by = cubic_power_to_bezier(c[1], hh);
                    let bz = cubic_power_to_bezier(c[2], hh);
                    let start = if i == 0 { 0 } else { 1 };
                    for k in start..4 {
                        cw.push([bx[k], by[k], bz[k], 1.0]);
                    }
                }
                let knots = cubic_breakpoint_knots(&t);
                let c = NurbsCurve::try_from_homogeneous(3, knots, cw).map_err(|g| self.err(e, g.to_string()))?;
                let (t0, t1) = (t[0], t[n]);
                Ok(seg(Curve::BSpline(c), t0, t1))
            }
            126 => {
                let c = self.read_126(&mut p, e)?;
                Ok(c)
            }
            116 => Err(self.err(e, "a point (116) where a curve is required")),
            t => Err(self.err(e, format!("entity type {t} is not a supported curve"))),
        }
    }

    fn read_126(&mut self, p: &mut super::params::Params, e: &DirEntry) -> Result<CurveSegment, IgesError> {
        let k = p.int()?;
        let m = p.int()?;
        if !(1..=crate::geom::MAX_DEGREE as i64).contains(&m) {
            return Err(p.err(format!("B-spline degree {m} outside 1..={}", crate::geom::MAX_DEGREE)));
        }
        let n = p.check_count(k + 1, 5, "control point")?;
        let m = m as usize;
        for _ in 0..4 {
            p.int()?;
        }
        let knots = p.reals(n + m + 1)?;
        let w = p.reals(n)?;
        let mut pts = Vec::with_capacity(n);
        for _ in 0..n {
            pts.push(p.xyz()?);
        }
        let v0 = p.opt_real()?;
        let v1 = p.opt_real()?;
        let c =
            NurbsCurve::try_new(m, knots, &pts, Some(&w)).map_err(|g| self.err(e, format!("invalid B-spline: {g}")))?;
        let (d0, d1) = c.domain();
        let (mut t0, mut t1) = (v0.unwrap_or(d0).max(d0), v1.unwrap_or(d1).min(d1));
        if !(t1 > t0) {
            t0 = d0;
            t1 = d1;
        }
        Ok(seg(Curve::BSpline(c), t0, t1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_similarity_keeps_the_circle_frame_orthonormal() {
        // a 124 rotation whose columns are 1 + 4e-12 long (as catia5r14_cone
        // writes them): the frame's axes stay unit and orthogonal to 1e-15,
        // the scale goes into the radius, and the circle's points are the
        // transform's to rounding
        let (c, s) = (0.6_f64, 0.8_f64);
        let e = 1.0 + 4e-12;
        let a = Affine {
            m: nalgebra::Matrix3::new(c * e, -s, 0.0, s * e, c, 0.0, 0.0, 0.0, e),
            t: Vec3::new(1.0, 2.0, 3.0),
        };
        let circle = seg(
            Curve::Circle {
                frame: Frame::default(),
                radius: 60.0,
            },
            0.0,
            1.0,
        );
        let mapped = map_segment(circle.clone(), &a).unwrap();
        let Curve::Circle { frame, radius } = &mapped.curve else {
            panic!("not a circle")
        };
        for v in [frame.x, frame.y, frame.z] {
            assert!((v.norm() - 1.0).abs() <= 1e-15, "axis length {}", v.norm());
        }
        assert!(frame.x.dot(&frame.y).abs() <= 1e-15);
        assert!((radius - 60.0).abs() <= 1e-9);
        for t in [0.0, 0.7, 2.0, 4.5] {
            let want = a.point(&circle.curve.eval(t));
            assert!((mapped.curve.eval(t) - want).norm() <= 1e-9, "t = {t}");
        }
    }

    #[test]
    fn ellipse_conic_standard_position() {
        // x²/4 + y² = 1  →  0.25 x² + y² - 1 = 0
        let c = conic([0.25, 0.0, 1.0, 0.0, 0.0, -1.0], 0.0).unwrap();
        match c.curve {
            Curve::Ellipse { semi_x, semi_y, .. } => {
                assert!((semi_x - 2.0).abs() < 1e-12 && (semi_y - 1.0).abs() < 1e-12);
            }
            _ => panic!("not an ellipse"),
        }
    }

    #[test]
    fn parabola_conic_points_lie_on_it() {
        // y = x² / 2  →  0.5 x² - y = 0  (A=0.5, E=-1)
        let c = conic([0.5, 0.0, 0.0, 0.0, -1.0, 0.0], 0.0).unwrap();
        let s = seg(c.curve, -1.0, 2.0);
        let n = to_nurbs(&s).unwrap();
        for i in 0..=10 {
            let q = n.eval(-1.0 + 0.3 * i as f64);
            assert!((q.y - q.x * q.x / 2.0).abs() < 1e-12, "{q:?}");
        }
    }
}

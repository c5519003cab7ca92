//! Curve entities: 110 lines, 100 circular arcs (with the 124 of their
//! plane), 126 B-splines, 106 form 12 polylines, 102 composites; the other
//! conics and reversed or partial segments as exact rational 126s.

use super::records::real;
use super::writer::W;
use crate::geom::Frame;
use crate::geom::{NurbsCurve, Vec3};
use crate::import::iges::nurbs::{reverse, to_nurbs};
use crate::import::model::{Curve, CurveSegment};
use std::fmt::Write as _;

impl W {
    pub(super) fn nurbs126(&mut self, c: &NurbsCurve, t0: f64, t1: f64, planar_normal: Option<Vec3>) -> usize {
        let n = c.cw.len();
        let mut s = format!(
            "126,{},{},{},0,{},0,",
            n - 1,
            c.degree,
            i32::from(planar_normal.is_some()),
            i32::from(!c.rational)
        );
        for k in &c.knots {
            let _ = write!(s, "{},", real(*k));
        }
        for p in &c.cw {
            let _ = write!(s, "{},", real(p[3]));
        }
        for p in &c.cw {
            let q = crate::export::stable_pole(*p);
            let _ = write!(s, "{},{},{},", real(q[0]), real(q[1]), real(q[2]));
        }
        let nn = planar_normal.unwrap_or_else(Vec3::zeros);
        let _ = write!(
            s,
            "{},{},{},{},{};",
            real(t0),
            real(t1),
            real(nn.x),
            real(nn.y),
            real(nn.z)
        );
        self.add(126, 0, s)
    }

    /// A curve segment as an IGES curve entity that reads back as the same
    /// segment (range and direction) where IGES allows it; `pspace` marks p-curves.
    pub(super) fn curve(&mut self, s: &CurveSegment, pspace: bool) -> usize {
        let de = self.curve_inner(s, pspace);
        if let Some(e) = self.ent_mut(de) {
            e.pspace = pspace;
        }
        de
    }

    pub(super) fn curve_inner(&mut self, s: &CurveSegment, pspace: bool) -> usize {
        let normal = pspace.then(Vec3::z);
        match &s.curve {
            Curve::Line { origin, dir } => {
                let (a, b) = (origin + dir * s.t0, origin + dir * s.t1);
                let (a, b) = if s.forward { (a, b) } else { (b, a) };
                self.add(
                    110,
                    0,
                    format!(
                        "110,{},{},{},{},{},{};",
                        real(a.x),
                        real(a.y),
                        real(a.z),
                        real(b.x),
                        real(b.y),
                        real(b.z)
                    ),
                )
            }
            Curve::Circle { frame, radius } if s.forward => {
                let (t0, t1) = (s.t0, s.t1);
                let full = (t1 - t0 - std::f64::consts::TAU).abs() <= 1e-12;
                let (c0, s0) = (t0.cos() * radius, t0.sin() * radius);
                let (c1, s1) = if full {
                    (c0, s0)
                } else {
                    (t1.cos() * radius, t1.sin() * radius)
                };
                let de = self.add(
                    100,
                    0,
                    format!("100,0.,0.,0.,{},{},{},{};", real(c0), real(s0), real(c1), real(s1)),
                );
                let t = self.transform(frame);
                if let Some(e) = self.ent_mut(de) {
                    e.transform = t;
                }
                de
            }
            Curve::BSpline(c) => {
                if s.forward {
                    self.nurbs126(c, s.t0, s.t1, normal)
                } else {
                    self.convert("reversed B-spline segment (knots mirrored)");
                    let r = reverse(c);
                    let (a, b) = c.domain();
                    self.nurbs126(&r, a + b - s.t1, a + b - s.t0, normal)
                }
            }
            Curve::Polyline(p) if s.t0 == 0.0 && s.t1 == (p.len() - 1) as f64 => {
                // a reversed polyline is the polyline of its points reversed
                let mut t = format!("106,2,{},", p.len());
                let points: Box<dyn Iterator<Item = &Vec3>> =
                    if s.forward { Box::new(p.iter()) } else { Box::new(p.iter().rev()) };
                for q in points {
                    let _ = write!(t, "{},{},{},", real(q.x), real(q.y), real(q.z));
                }
                t.pop();
                t.push(';');
                self.add(106, 12, t)
            }
            Curve::Composite(segs) if s.forward && s.t0 == 0.0 && s.t1 == segs.len() as f64 => {
                let members: Vec<usize> = segs.iter().map(|m| self.curve(m, pspace)).collect();
                let mut t = format!("102,{}", members.len());
                for m in members {
                    let _ = write!(t, ",{m}");
                }
                t.push(';');
                self.add(102, 0, t)
            }
            other => {
                let what: &'static str = match other {
                    Curve::Circle { .. } => "reversed circular arc",
                    Curve::Ellipse { .. } => "ellipse",
                    Curve::Parabola { .. } => "parabola",
                    Curve::Hyperbola { .. } => "hyperbola",
                    Curve::Polyline(_) => "partial polyline",
                    Curve::Composite(_) => "partial or reversed composite",
                    _ => "curve",
                };
                self.convert(what);
                let fwd = CurveSegment {
                    forward: true,
                    ..s.clone()
                };
                match to_nurbs(&fwd) {
                    Some(n) => {
                        let n = if s.forward { n } else { reverse(&n) };
                        let (a, b) = n.domain();
                        self.nurbs126(&n, a, b, normal)
                    }
                    None => {
                        // composites of mixed degree: elevate nothing, write the members
                        let parts = match other {
                            Curve::Composite(segs) => segs.clone(),
                            _ => vec![fwd.clone()],
                        };
                        let members: Vec<usize> = parts.iter().map(|m| self.curve(m, pspace)).collect();
                        if !s.forward {
                            self.warnings
                                .push("reversed composite of mixed degree written forwards (direction lost)".into());
                        }
                        let mut t = format!("102,{}", members.len());
                        for m in members {
                            let _ = write!(t, ",{m}");
                        }
                        t.push(';');
                        self.add(102, 0, t)
                    }
                }
            }
        }
    }
}

/// `c` moved by `d`.
pub(crate) fn shift_curve(c: &Curve, d: &Vec3) -> Curve {
    match c {
        Curve::Line { origin, dir } => Curve::Line {
            origin: origin + d,
            dir: *dir,
        },
        Curve::Circle { frame, radius } => Curve::Circle {
            frame: Frame {
                origin: frame.origin + d,
                ..*frame
            },
            radius: *radius,
        },
        Curve::Ellipse { frame, semi_x, semi_y } => Curve::Ellipse {
            frame: Frame {
                origin: frame.origin + d,
                ..*frame
            },
            semi_x: *semi_x,
            semi_y: *semi_y,
        },
        Curve::Parabola { frame, focal } => Curve::Parabola {
            frame: Frame {
                origin: frame.origin + d,
                ..*frame
            },
            focal: *focal,
        },
        Curve::Hyperbola { frame, semi_x, semi_y } => Curve::Hyperbola {
            frame: Frame {
                origin: frame.origin + d,
                ..*frame
            },
            semi_x: *semi_x,
            semi_y: *semi_y,
        },
        Curve::BSpline(n) => Curve::BSpline(NurbsCurve {
            cw: n
                .cw
                .iter()
                .map(|p| [p[0] + d.x * p[3], p[1] + d.y * p[3], p[2] + d.z * p[3], p[3]])
                .collect(),
            ..n.clone()
        }),
        Curve::Polyline(p) => Curve::Polyline(p.iter().map(|q| q + d).collect()),
        Curve::Composite(s) => Curve::Composite(
            s.iter()
                .map(|x| CurveSegment {
                    curve: shift_curve(&x.curve, d),
                    ..x.clone()
                })
                .collect(),
        ),
    }
}

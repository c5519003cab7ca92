//! IGES 5.3 writer for the B-rep [`Model`] (formats/export.md has the tables).
//!
//! Two modes:
//! - **B-rep** (default): per body a 186 manifold solid (solids) or a root 514
//!   shell (open shells), 514 shells, 510 faces, 508 loops with their
//!   parameter-space curves, one 504 edge list and one 502 vertex list per
//!   file; loose faces become root 510 faces. A body's placement is a 124
//!   transformation matrix on its 186 / 514 / 510 entities.
//! - **faces**: per face a 144 trimmed surface whose 142 curves on surface
//!   carry the loop as a 102 composite of p-curves and a 102 composite of
//!   3-D curves (placements as 124 on the 144).
//!
//! Surfaces: B-splines as 128, planes 190, cylinders 192, cones 194, spheres
//! 196, tori 198 (form 1, with reference directions), revolutions 120,
//! extrusions 122, offsets 140. P-curves are written in the IGES surface's
//! parameter space (degrees for the angles of 192–198, the IGES
//! parameterisations of 120 / 122). Curves: 110 lines, 100 circular arcs
//! (with a 124 for the arc's plane), 126 B-splines (rational or not), 106
//! form 12 polylines, 102 composites; ellipses, parabolas and hyperbolas as
//! exact rational 126 (a warning names each conversion).
//!
//! Numbers are written in Rust's shortest round-trip form (`1.E-7` style), the
//! unit is millimetre (flag 2), every record is exactly 80 columns.

use super::{check_finite, ExportError, Written};
use crate::geom::Frame;
use crate::geom::{NurbsCurve, Pose, Vec3};
use crate::import::iges::nurbs::{reverse, to_nurbs};
use crate::import::model::{Body, BodyKind, Curve, CurveSegment, Face, Loop, Model, Surface};
use std::collections::HashMap;
use std::f64::consts::PI;
use std::fmt::Write as _;

/// Options of the IGES writer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IgesOptions {
    /// Write 144/142 trimmed surfaces instead of the 186 B-rep.
    pub faces_mode: bool,
    /// File name written in the global section (default: the Model's name with `.igs`).
    pub file_name: Option<String>,
}

/// A real in IGES form: shortest round-trip decimal, always with a point, `E` exponent.
pub fn real(x: f64) -> String {
    super::step::real(x)
}

/// A Hollerith string `nHtext`; characters outside printable ASCII become `?`
/// (reported through the returned flag).
pub fn hollerith(s: &str) -> (String, bool) {
    let mut lossy = false;
    let t: String = s
        .chars()
        .map(|c| {
            if (' '..='~').contains(&c) {
                c
            } else {
                lossy = true;
                '?'
            }
        })
        .collect();
    (format!("{}H{t}", t.len()), lossy)
}

/// Splits free-format parameter text into 64-column data fields, breaking
/// after delimiters where possible (a token longer than a line is cut).
pub fn param_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut token = String::new();
    let push_token = |cur: &mut String, lines: &mut Vec<String>, token: &str| {
        if cur.len() + token.len() > 64 {
            if !cur.is_empty() {
                lines.push(std::mem::take(cur));
            }
            let mut t = token;
            while t.len() > 64 {
                let (a, b) = t.split_at(64);
                lines.push(a.to_string());
                t = b;
            }
            cur.push_str(t);
        } else {
            cur.push_str(token);
        }
    };
    // tokens end with a delimiter; Hollerith strings may contain delimiters
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        token.push(c);
        if c == 'H' {
            // a Hollerith count precedes: digits only since the last delimiter
            let count: Option<usize> = token[..token.len() - 1].parse().ok();
            if let Some(n) = count {
                let end = (i + 1 + n).min(bytes.len());
                token.push_str(&text[i + 1..end]);
                i = end;
                continue;
            }
        }
        if c == ',' || c == ';' {
            push_token(&mut cur, &mut lines, &token);
            token.clear();
        }
        i += 1;
    }
    if !token.is_empty() {
        push_token(&mut cur, &mut lines, &token);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

struct Ent {
    typ: i64,
    form: i64,
    params: String,
    transform: usize,
    dependent: bool,
    pspace: bool,
}

struct W {
    ents: Vec<Ent>,
    warnings: Vec<String>,
    /// Per-entity-kind count of conic → NURBS conversions, reported once.
    conversions: HashMap<&'static str, usize>,
}

/// Linear map of the parameter plane `(u, v) ↦ m (u, v) + t`.
#[derive(Clone, Copy)]
struct Map2 {
    m: [[f64; 2]; 2],
    t: [f64; 2],
}

impl Map2 {
    fn identity() -> Self {
        Self {
            m: [[1.0, 0.0], [0.0, 1.0]],
            t: [0.0, 0.0],
        }
    }
    fn scale(su: f64, sv: f64) -> Self {
        Self {
            m: [[su, 0.0], [0.0, sv]],
            t: [0.0, 0.0],
        }
    }
    fn is_identity(&self) -> bool {
        self.m == [[1.0, 0.0], [0.0, 1.0]] && self.t == [0.0, 0.0]
    }
    fn point(&self, p: &Vec3) -> Vec3 {
        Vec3::new(
            self.m[0][0] * p.x + self.m[0][1] * p.y + self.t[0],
            self.m[1][0] * p.x + self.m[1][1] * p.y + self.t[1],
            0.0,
        )
    }
    fn vector(&self, p: &Vec3) -> Vec3 {
        Vec3::new(
            self.m[0][0] * p.x + self.m[0][1] * p.y,
            self.m[1][0] * p.x + self.m[1][1] * p.y,
            0.0,
        )
    }
    /// `Some(k)` when the map is `k` times an isometry of the plane.
    fn similarity(&self) -> Option<f64> {
        let a = self.m;
        let c0 = a[0][0].hypot(a[1][0]);
        let c1 = a[0][1].hypot(a[1][1]);
        let dot = a[0][0] * a[0][1] + a[1][0] * a[1][1];
        ((c0 - c1).abs() <= 1e-12 * c0 && dot.abs() <= 1e-12 * c0 * c1).then_some(c0)
    }
}

/// Model surface parameters → IGES surface parameters (the inverse of the
/// reader's maps).
fn pmap_of(s: &Surface) -> Map2 {
    let deg = 180.0 / PI;
    match s {
        Surface::Cylinder { .. } => Map2::scale(deg, 1.0),
        Surface::Cone { semi_angle, .. } => Map2::scale(deg, semi_angle.cos()),
        Surface::Sphere { .. } | Surface::Torus { .. } => Map2::scale(deg, deg),
        Surface::Revolution { .. } => Map2 {
            m: [[0.0, 1.0], [1.0, 0.0]],
            t: [0.0, 0.0],
        },
        Surface::Trimmed { basis, u, v } => match basis.as_ref() {
            Surface::Extrusion { .. } => {
                let (du, dv) = (u.1 - u.0, v.1 - v.0);
                Map2 {
                    m: [[1.0 / du, 0.0], [0.0, 1.0 / dv]],
                    t: [-u.0 / du, -v.0 / dv],
                }
            }
            b => pmap_of(b),
        },
        Surface::Offset { basis, .. } => pmap_of(basis),
        _ => Map2::identity(),
    }
}

fn map_nurbs2(c: &NurbsCurve, m: &Map2) -> NurbsCurve {
    let cw =
        c.cw.iter()
            .map(|h| {
                let p = m.point(&Vec3::new(h[0] / h[3], h[1] / h[3], 0.0));
                [p.x * h[3], p.y * h[3], 0.0, h[3]]
            })
            .collect();
    NurbsCurve {
        degree: c.degree,
        knots: c.knots.clone(),
        cw,
        rational: c.rational,
    }
}

impl W {
    fn add(&mut self, typ: i64, form: i64, params: String) -> usize {
        self.ents.push(Ent {
            typ,
            form,
            params,
            transform: 0,
            dependent: true,
            pspace: false,
        });
        2 * self.ents.len() - 1
    }

    fn ent_mut(&mut self, de: usize) -> Option<&mut Ent> {
        self.ents.get_mut(de / 2)
    }

    /// A 124 matrix from a frame (columns x, y, z; translation = origin).
    fn transform(&mut self, f: &Frame) -> usize {
        let r = |v: f64| real(v);
        let p = format!(
            "124,{},{},{},{},{},{},{},{},{},{},{},{};",
            r(f.x.x),
            r(f.y.x),
            r(f.z.x),
            r(f.origin.x),
            r(f.x.y),
            r(f.y.y),
            r(f.z.y),
            r(f.origin.y),
            r(f.x.z),
            r(f.y.z),
            r(f.z.z),
            r(f.origin.z)
        );
        self.add(124, 0, p)
    }

    fn pose_transform(&mut self, p: &Pose) -> usize {
        let f = super::frame_of_pose(p);
        self.transform(&f)
    }

    fn point116(&mut self, p: &Vec3) -> usize {
        self.add(116, 0, format!("116,{},{},{},0;", real(p.x), real(p.y), real(p.z)))
    }

    fn dir123(&mut self, d: &Vec3) -> usize {
        self.add(123, 0, format!("123,{},{},{};", real(d.x), real(d.y), real(d.z)))
    }

    fn nurbs126(&mut self, c: &NurbsCurve, t0: f64, t1: f64, planar_normal: Option<Vec3>) -> usize {
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
            let q = super::stable_pole(*p);
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

    fn convert(&mut self, what: &'static str) {
        *self.conversions.entry(what).or_insert(0) += 1;
    }

    /// A curve segment as an IGES curve entity that reads back as the same
    /// segment (range and direction) where IGES allows it; `pspace` marks p-curves.
    fn curve(&mut self, s: &CurveSegment, pspace: bool) -> usize {
        let de = self.curve_inner(s, pspace);
        if let Some(e) = self.ent_mut(de) {
            e.pspace = pspace;
        }
        de
    }

    fn curve_inner(&mut self, s: &CurveSegment, pspace: bool) -> usize {
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
            Curve::Polyline(p) if s.forward && s.t0 == 0.0 && s.t1 == (p.len() - 1) as f64 => {
                let mut t = format!("106,2,{},", p.len());
                for q in p {
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

    /// A p-curve mapped into the IGES surface's parameter space.
    ///
    /// The curve is written as stored (its own direction, `forward` ignored):
    /// the reader decides the sense by comparing end points with the edge.
    fn pcurve(&mut self, s: &CurveSegment, m: &Map2) -> usize {
        let raw = CurveSegment {
            forward: true,
            ..s.clone()
        };
        let s = &raw;
        if m.is_identity() {
            return self.curve(s, true);
        }
        let mapped = self.map_segment(s, m);
        self.curve(&mapped, true)
    }

    fn map_segment(&mut self, s: &CurveSegment, m: &Map2) -> CurveSegment {
        let curve = match &s.curve {
            Curve::Line { origin, dir } => Curve::Line {
                origin: m.point(origin),
                dir: m.vector(dir),
            },
            Curve::Polyline(p) => Curve::Polyline(p.iter().map(|q| m.point(q)).collect()),
            Curve::BSpline(c) => Curve::BSpline(map_nurbs2(c, m)),
            Curve::Composite(segs) => Curve::Composite(segs.iter().map(|x| self.map_segment(x, m)).collect()),
            Curve::Circle { frame, radius } if m.similarity().is_some() => {
                let k = m.similarity().unwrap_or(1.0);
                let x = m.vector(&frame.x) / k;
                let y = m.vector(&frame.y) / k;
                Curve::Circle {
                    frame: Frame {
                        origin: m.point(&frame.origin),
                        x,
                        y,
                        z: x.cross(&y),
                    },
                    radius: radius * k,
                }
            }
            other => {
                self.convert("p-curve conic under a non-uniform parameter map");
                let fwd = CurveSegment {
                    curve: other.clone(),
                    t0: s.t0,
                    t1: s.t1,
                    forward: true,
                };
                match to_nurbs(&fwd) {
                    Some(n) => {
                        let (a, b) = n.domain();
                        return CurveSegment {
                            curve: Curve::BSpline(map_nurbs2(&n, m)),
                            t0: a,
                            t1: b,
                            forward: s.forward,
                        };
                    }
                    None => other.clone(),
                }
            }
        };
        CurveSegment { curve, ..s.clone() }
    }

    /// A surface entity; `None` with a warning for what IGES cannot hold.
    fn surface(&mut self, s: &Surface, what: &str) -> usize {
        let deg = 180.0 / PI;
        match s {
            Surface::BSpline(n) => {
                let mut t = format!(
                    "128,{},{},{},{},0,0,{},0,0,",
                    n.n_u - 1,
                    n.n_v - 1,
                    n.degree_u,
                    n.degree_v,
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
                        let q = super::stable_pole(n.cw[i * n.n_v + j]);
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

    fn revolution(&mut self, profile: &Curve, o: &Vec3, d: &Vec3, u: (f64, f64), v: (f64, f64)) -> usize {
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

/// The natural parameter rectangle of a face without an outer loop, when known.
fn natural_rect(s: &Surface) -> Option<((f64, f64), (f64, f64))> {
    match s {
        Surface::BSpline(n) => Some(n.domain()),
        Surface::Trimmed { u, v, .. } => Some((*u, *v)),
        Surface::Sphere { .. } => Some(((0.0, 2.0 * PI), (-PI / 2.0, PI / 2.0))),
        Surface::Torus { .. } => Some(((0.0, 2.0 * PI), (0.0, 2.0 * PI))),
        Surface::Offset { basis, .. } => natural_rect(basis),
        _ => None,
    }
}

/// A copy of `model` where every B-spline face without an outer loop gets its
/// natural boundary as four iso-parameter edges (exact: the boundary rows of
/// poles of a clamped B-spline), since a 510 face without loops is not read by
/// every system (Open CASCADE crashes on it). Returns the number of faces changed.
fn with_natural_boundaries(model: &Model, warnings: &mut Vec<String>) -> Model {
    use crate::import::model::{Coedge, Edge, Vertex};
    let mut m = model.clone();
    let mut changed = 0;
    for f in 0..m.faces.len() {
        if m.faces[f].outer.is_some() {
            continue;
        }
        let Surface::BSpline(s) = &m.faces[f].surface else {
            continue;
        };
        let clamped =
            |k: &[f64], p: usize, n: usize| k[..=p].iter().all(|x| *x == k[0]) && k[n..].iter().all(|x| *x == k[n]);
        if !(clamped(&s.knots_u, s.degree_u, s.n_u) && clamped(&s.knots_v, s.degree_v, s.n_v)) {
            warnings.push(format!(
                "face {f}: unclamped B-spline without trims written as a 510 without loops"
            ));
            continue;
        }
        let ((u0, u1), (v0, v1)) = s.domain();
        let row = |j: usize| -> Vec<[f64; 4]> { (0..s.n_u).map(|i| s.cw[i * s.n_v + j]).collect() };
        let col = |i: usize| -> Vec<[f64; 4]> { (0..s.n_v).map(|j| s.cw[i * s.n_v + j]).collect() };
        let iso = |cw: Vec<[f64; 4]>, p: usize, k: &[f64]| NurbsCurve::try_from_homogeneous(p, k.to_vec(), cw).ok();
        let curves = [
            iso(row(0), s.degree_u, &s.knots_u),
            iso(col(s.n_u - 1), s.degree_v, &s.knots_v),
            iso(row(s.n_v - 1), s.degree_u, &s.knots_u),
            iso(col(0), s.degree_v, &s.knots_v),
        ];
        let corner = |i: usize, j: usize| {
            let c = s.cw[i * s.n_v + j];
            Vec3::new(c[0] / c[3], c[1] / c[3], c[2] / c[3])
        };
        let pts = [
            corner(0, 0),
            corner(s.n_u - 1, 0),
            corner(s.n_u - 1, s.n_v - 1),
            corner(0, s.n_v - 1),
        ];
        let vbase = m.vertices.len();
        for p in pts {
            m.vertices.push(Vertex { point: p, source: 0 });
        }
        // (curve, start corner, end corner, coedge forward, p-curve origin, p-curve direction, range)
        let spec = [
            (0, 0, 1, true, Vec3::new(0.0, v0, 0.0), Vec3::x(), (u0, u1)),
            (1, 1, 2, true, Vec3::new(u1, 0.0, 0.0), Vec3::y(), (v0, v1)),
            (2, 3, 2, false, Vec3::new(0.0, v1, 0.0), Vec3::x(), (u0, u1)),
            (3, 0, 3, false, Vec3::new(u0, 0.0, 0.0), Vec3::y(), (v0, v1)),
        ];
        let mut coedges = Vec::new();
        for (ci, a, b, fwd, o, d, (t0, t1)) in spec {
            let Some(c) = curves[ci].clone() else { continue };
            let e = m.edges.len();
            m.edges.push(Edge {
                curve: Curve::BSpline(c),
                t0,
                t1,
                start: Some(vbase + a),
                end: Some(vbase + b),
                faces: vec![f],
                source: 0,
            });
            coedges.push(Coedge {
                edge: Some(e),
                forward: fwd,
                pcurve: Some(CurveSegment {
                    curve: Curve::Line { origin: o, dir: d },
                    t0,
                    t1,
                    forward: fwd,
                }),
                curve: None,
                pcurve_preferred: false,
                source: 0,
            });
        }
        m.faces[f].outer = Some(Loop { coedges, source: 0 });
        changed += 1;
    }
    if changed > 0 {
        warnings.push(format!(
            "{changed} untrimmed B-spline faces written with their natural boundary as four iso-parameter edges (a 510 face needs a loop)"
        ));
    }
    m
}

/// The global section's unit flag, unit name and model-space scale for a
/// Model in `mm_per_unit`: the unit of the specification's list with that
/// factor, else millimetres with a model-space scale (model units per mm).
fn iges_unit(mm_per_unit: f64) -> (i64, &'static str, f64) {
    const UNITS: [(i64, &str, f64); 10] = [
        (2, "MM", 1.0),
        (1, "INCH", 25.4),
        (4, "FT", 304.8),
        (5, "MI", 1_609_344.0),
        (6, "M", 1000.0),
        (7, "KM", 1.0e6),
        (8, "MIL", 0.0254),
        (9, "UM", 0.001),
        (10, "CM", 10.0),
        (11, "UIN", 2.54e-5),
    ];
    match UNITS.iter().find(|u| u.2 == mm_per_unit) {
        Some(&(f, n, _)) => (f, n, 1.0),
        None if mm_per_unit.is_finite() && mm_per_unit > 0.0 => (2, "MM", 1.0 / mm_per_unit),
        None => (2, "MM", 1.0),
    }
}

/// Writes `model` as an IGES 5.3 file.
pub fn write_iges(model: &Model, opts: &IgesOptions) -> Result<Written, ExportError> {
    check_finite(model)?;
    // every length in the source unit (the global section's unit flag and name)
    let scaled = super::units::to_file_units(model);
    let model: &Model = &scaled;
    let mut w = W {
        ents: Vec::new(),
        warnings: Vec::new(),
        conversions: HashMap::new(),
    };
    let used: usize = model
        .vertices
        .iter()
        .enumerate()
        .filter(|(k, _)| !model.edges.iter().any(|e| e.start == Some(*k) || e.end == Some(*k)))
        .count();
    if used > 0 {
        w.warnings.push(format!(
            "{used} vertices not used by any edge (e.g. STEP VERTEX_LOOP apexes) are not written"
        ));
    }
    let mut roots: Vec<usize> = Vec::new();
    let free = model
        .bodies
        .iter()
        .flat_map(|b| b.face_indices())
        .filter_map(|f| model.faces.get(f))
        .flat_map(|f| f.outer.iter().chain(f.inner.iter()))
        .any(|l| l.coedges.iter().any(|c| c.edge.is_none()));
    if free && !opts.faces_mode {
        w.warnings.push(
            "the Model has trim curves without shared edges (IGES 142 / STEP POLY_LOOP): written in faces mode (144/142)"
                .into(),
        );
    }
    if opts.faces_mode || free {
        for (bk, body) in model.bodies.iter().enumerate() {
            let t = (body.placement.iso != Pose::identity().iso).then(|| w.pose_transform(&body.placement));
            for f in body.face_indices() {
                let face = &model.faces[f];
                let de = face_144(&mut w, model, face, f)?;
                if let (Some(t), Some(e)) = (t, w.ent_mut(de)) {
                    e.transform = t;
                }
                roots.push(de);
            }
            if body.shells.len() > 1 || body.kind != BodyKind::Faces {
                w.warnings.push(format!(
                    "body {bk} ({}): faces mode writes loose faces; the {} structure is not kept",
                    body.name,
                    match body.kind {
                        BodyKind::Solid => "solid",
                        BodyKind::OpenShell => "shell",
                        BodyKind::Faces => "shell",
                    }
                ));
            }
        }
    } else {
        let augmented = with_natural_boundaries(model, &mut w.warnings);
        let model = &augmented;
        // one vertex list and one edge list for the whole file
        let mut vert_order = Vec::new();
        let mut vert_idx: HashMap<usize, usize> = HashMap::new();
        let mut edge_order = Vec::new();
        let mut edge_idx: HashMap<usize, usize> = HashMap::new();
        for body in &model.bodies {
            for f in body.face_indices() {
                let face = &model.faces[f];
                for l in face.outer.iter().chain(face.inner.iter()) {
                    for c in &l.coedges {
                        if let Some(e) = c.edge {
                            if let std::collections::hash_map::Entry::Vacant(v) = edge_idx.entry(e) {
                                v.insert(edge_order.len() + 1);
                                edge_order.push(e);
                                let ed = &model.edges[e];
                                for x in [ed.start, ed.end].into_iter().flatten() {
                                    if let std::collections::hash_map::Entry::Vacant(s) = vert_idx.entry(x) {
                                        s.insert(vert_order.len() + 1);
                                        vert_order.push(x);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut vl = format!("502,{}", vert_order.len());
        for &v in &vert_order {
            let p = model.vertices[v].point;
            let _ = write!(vl, ",{},{},{}", real(p.x), real(p.y), real(p.z));
        }
        vl.push(';');
        // no empty lists (Open CASCADE crashes on a 502 / 504 without entries)
        let vlist = if vert_order.is_empty() { 0 } else { w.add(502, 1, vl) };
        let elist = if edge_order.is_empty() {
            0
        } else {
            w.add(504, 1, String::new())
        };
        let mut el = format!("504,{}", edge_order.len());
        for &e in &edge_order {
            let ed = &model.edges[e];
            let c = w.curve(
                &CurveSegment {
                    curve: ed.curve.clone(),
                    t0: ed.t0,
                    t1: ed.t1,
                    forward: true,
                },
                false,
            );
            let (Some(s), Some(t)) = (ed.start, ed.end) else {
                return Err(ExportError::Unsupported(format!(
                    "edge {e}: an edge without vertices cannot be written"
                )));
            };
            let _ = write!(el, ",{c},{vlist},{},{vlist},{}", vert_idx[&s], vert_idx[&t]);
        }
        el.push(';');
        if let Some(e) = w.ent_mut(elist) {
            e.params = el;
        }
        let mut face_de: HashMap<usize, usize> = HashMap::new();
        // bodies with the same shells (instances of one component) share one
        // definition: a 308 subfigure holding the 186 / 514 and one 408
        // instance per body with the body's placement as its 124; a placed
        // body of its own is written the same way
        let shell_key = |b: &Body| -> Vec<(Vec<usize>, bool, bool)> {
            b.shells.iter().map(|s| (s.faces.clone(), s.closed, s.void)).collect()
        };
        let mut uses: HashMap<Vec<(Vec<usize>, bool, bool)>, usize> = HashMap::new();
        for b in model
            .bodies
            .iter()
            .filter(|b| b.kind != BodyKind::Faces && !b.shells.is_empty())
        {
            *uses.entry(shell_key(b)).or_insert(0) += 1;
        }
        let mut definitions: HashMap<Vec<(Vec<usize>, bool, bool)>, usize> = HashMap::new();
        for (bk, body) in model.bodies.iter().enumerate() {
            let key = shell_key(body);
            // a placed body too: Open CASCADE 8.0.1 ignores a 124 on a 186
            // (it reads the solid unplaced) but applies a 408's
            let instanced = body.kind != BodyKind::Faces
                && (uses.get(&key).copied().unwrap_or(0) > 1 || body.placement.iso != Pose::identity().iso);
            if let (true, Some(&def)) = (instanced, definitions.get(&key)) {
                let inst = w.add(408, 0, format!("408,{def},0.,0.,0.,1.;"));
                if body.placement.iso != Pose::identity().iso {
                    let t = w.pose_transform(&body.placement);
                    if let Some(e) = w.ent_mut(inst) {
                        e.transform = t;
                    }
                }
                roots.push(inst);
                continue;
            }
            let mut shells = Vec::new();
            for s in &body.shells {
                let mut fl = Vec::new();
                for &f in &s.faces {
                    let de = match face_de.get(&f) {
                        Some(&d) => d,
                        None => {
                            let d = face_510(&mut w, model, f, &edge_idx, elist)?;
                            face_de.insert(f, d);
                            d
                        }
                    };
                    fl.push((de, model.faces[f].same_sense));
                }
                let mut t = format!("514,{}", fl.len());
                for (de, ss) in fl {
                    let _ = write!(t, ",{de},{}", i32::from(ss));
                }
                t.push(';');
                shells.push(w.add(514, if s.closed { 1 } else { 2 }, t));
            }
            let placement = (body.placement.iso != Pose::identity().iso).then(|| w.pose_transform(&body.placement));
            let mut tops = Vec::new();
            match body.kind {
                BodyKind::Solid if !shells.is_empty() => {
                    let mut t = format!("186,{},1,{}", shells[0], shells.len() - 1);
                    for s in &shells[1..] {
                        let _ = write!(t, ",{s},1");
                    }
                    t.push(';');
                    tops.push(w.add(186, 0, t));
                }
                BodyKind::Faces => {
                    // loose faces: root 510s (the shells written above stay unused)
                    for _ in &shells {
                        w.ents.pop();
                    }
                    tops.extend(body.face_indices().filter_map(|f| face_de.get(&f).copied()));
                    if body.face_indices().any(|f| !model.faces[f].same_sense) {
                        w.warnings.push(format!(
                            "body {bk} ({}): reversed loose faces keep their surface's orientation (IGES 510 has no sense flag)",
                            body.name
                        ));
                    }
                }
                _ => tops.extend(shells.iter().copied()),
            }
            if instanced {
                let (name, lossy) = hollerith(&body.name);
                if lossy {
                    w.warnings.push(format!(
                        "body {bk}: non-ASCII characters of the name {:?} written as '?' (308 definition name)",
                        body.name
                    ));
                }
                let members: Vec<String> = tops.iter().map(|d| d.to_string()).collect();
                let def = w.add(308, 0, format!("308,0,{name},{},{};", members.len(), members.join(",")));
                definitions.insert(key, def);
                let inst = w.add(408, 0, format!("408,{def},0.,0.,0.,1.;"));
                if let Some(t) = placement {
                    if let Some(e) = w.ent_mut(inst) {
                        e.transform = t;
                    }
                }
                roots.push(inst);
                continue;
            }
            for de in tops {
                let mut shared_placement = false;
                if let Some(e) = w.ent_mut(de) {
                    if let Some(t) = placement {
                        if e.transform == 0 {
                            e.transform = t;
                        } else {
                            shared_placement = true;
                        }
                    }
                    e.dependent = false;
                }
                if shared_placement {
                    w.warnings.push(format!(
                        "body {bk} ({}): face shared by several placed bodies written once, first placement",
                        body.name
                    ));
                }
                roots.push(de);
            }
        }
    }
    for r in roots {
        if let Some(e) = w.ent_mut(r) {
            e.dependent = false;
        }
    }
    let mut conv: Vec<_> = w.conversions.iter().map(|(k, v)| (*k, *v)).collect();
    conv.sort();
    for (what, n) in conv {
        w.warnings.push(format!(
            "{n} × {what} written as an exact rational B-spline (126); its parameterisation changes"
        ));
    }
    Ok(Written {
        bytes: assemble(model, opts, &w.ents, &mut w.warnings),
        warnings: w.warnings,
    })
}

fn face_510(
    w: &mut W,
    model: &Model,
    f: usize,
    edge_idx: &HashMap<usize, usize>,
    elist: usize,
) -> Result<usize, ExportError> {
    let face = &model.faces[f];
    let bounded = bounded_extrusion(model, face);
    let surface = bounded.as_ref().unwrap_or(&face.surface);
    let sd = w.surface(surface, &format!("face {f}"));
    let m = pmap_of(surface);
    let keep = keep_pcurves(w, face, f);
    let mut loops = Vec::new();
    for l in face.outer.iter().chain(face.inner.iter()) {
        let mut t = format!("508,{}", l.coedges.len());
        for (ci, c) in l.coedges.iter().enumerate() {
            let Some(e) = c.edge else {
                return Err(ExportError::Unsupported(format!(
                    "face {f}: coedge {ci} has no shared edge; write this Model in faces mode (144/142)"
                )));
            };
            let _ = write!(t, ",0,{elist},{},{}", edge_idx[&e], i32::from(c.forward));
            match c.pcurve.as_ref().filter(|_| keep) {
                Some(pc) => {
                    let de = w.pcurve(pc, &m);
                    let _ = write!(t, ",1,0,{de}");
                }
                None => t.push_str(",0"),
            }
        }
        t.push(';');
        loops.push(w.add(508, 1, t));
    }
    if face.outer.is_none() {
        w.warnings.push(format!(
            "face {f}: {} without an outer loop written as a 510 without an outer boundary",
            face.surface.type_name()
        ));
    }
    let mut t = format!("510,{sd},{},{}", loops.len(), i32::from(face.outer.is_some()));
    for l in loops {
        let _ = write!(t, ",{l}");
    }
    t.push(';');
    Ok(w.add(510, 1, t))
}

/// An unbounded extrusion face as a `Trimmed` extrusion that holds the
/// face: u = the profile's natural range, v from 0 (or lower) to a bound of
/// the face's edges along the direction (`(p − c(u))·d` over 17 samples of
/// each edge and of the profile, widened by 1e-9 of the extent); `None` for
/// other faces or without edges.
fn bounded_extrusion(model: &Model, face: &Face) -> Option<Surface> {
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

/// The profile type of a revolution / extrusion (also trimmed or offset)
/// whose profile the writer converts to a rational 126 with another
/// parameterisation (ellipse, hyperbola, parabola).
fn converted_profile(s: &Surface) -> Option<&'static str> {
    match s {
        Surface::Trimmed { basis, .. } | Surface::Offset { basis, .. } => converted_profile(basis),
        Surface::Revolution { profile, .. } | Surface::Extrusion { profile, .. } => matches!(
            **profile,
            Curve::Ellipse { .. } | Curve::Hyperbola { .. } | Curve::Parabola { .. }
        )
        .then(|| profile.type_name()),
        _ => None,
    }
}

/// False (with a warning) when the face's p-curves cannot be written: their
/// profile parameter would not match the converted profile's (the loops'
/// 3-D edges still bound the face).
fn keep_pcurves(w: &mut W, face: &Face, f: usize) -> bool {
    let Some(kind) = converted_profile(&face.surface) else {
        return true;
    };
    let n = face
        .outer
        .iter()
        .chain(face.inner.iter())
        .flat_map(|l| l.coedges.iter())
        .filter(|c| c.pcurve.is_some())
        .count();
    if n > 0 {
        w.warnings.push(format!(
            "face {f}: {n} p-curves left out: the {}'s {kind} profile is written as a rational B-spline whose parameter differs",
            face.surface.type_name()
        ));
    }
    false
}

/// A 142 curve on surface for loop `l` with its p-curves as a 102 composite
/// (the model-space composite is added by the caller).
fn loop_142(w: &mut W, sd: usize, l: &Loop, m: &Map2, keep_pcurves: bool) -> usize {
    let mut pcs = Vec::new();
    for c in &l.coedges {
        match c.pcurve.as_ref().filter(|_| keep_pcurves) {
            Some(p) => pcs.push(w.pcurve(p, m)),
            None => {
                pcs.clear();
                break;
            }
        }
    }
    let b = if pcs.is_empty() {
        0
    } else {
        let mut t = format!("102,{}", pcs.len());
        for p in &pcs {
            let _ = write!(t, ",{p}");
        }
        t.push(';');
        let de = w.add(102, 0, t);
        if let Some(e) = w.ent_mut(de) {
            e.pspace = true;
        }
        de
    };
    w.add(142, 0, format!("142,0,{sd},{b},0,1;"))
}

fn face_144(w: &mut W, model: &Model, face: &Face, f: usize) -> Result<usize, ExportError> {
    let bounded = bounded_extrusion(model, face);
    let surface = bounded.as_ref().unwrap_or(&face.surface);
    let sd = w.surface(surface, &format!("face {f}"));
    let m = pmap_of(surface);
    let keep = keep_pcurves(w, face, f);
    let mut curves3: Vec<Vec<CurveSegment>> = Vec::new();
    for l in face.outer.iter().chain(face.inner.iter()) {
        let mut segs = Vec::new();
        for c in &l.coedges {
            let s = match (c.edge, &c.curve) {
                (Some(e), _) => model.edges.get(e).map(|ed| CurveSegment {
                    curve: ed.curve.clone(),
                    t0: ed.t0,
                    t1: ed.t1,
                    forward: c.forward,
                }),
                (None, Some(s)) => Some(CurveSegment {
                    forward: s.forward == c.forward,
                    ..s.clone()
                }),
                _ => None,
            };
            segs.extend(s);
        }
        curves3.push(segs);
    }
    let mut bounds = Vec::new();
    for (k, l) in face.outer.iter().chain(face.inner.iter()).enumerate() {
        let b = loop_142(w, sd, l, &m, keep);
        // model-space composite
        let segs = &curves3[k];
        if segs.len() == l.coedges.len() && !segs.is_empty() {
            let members: Vec<usize> = segs.iter().map(|s| w.curve(s, false)).collect();
            let mut t = format!("102,{}", members.len());
            for p in &members {
                let _ = write!(t, ",{p}");
            }
            t.push(';');
            let c = w.add(102, 0, t);
            if let Some(e) = w.ent_mut(b) {
                // CRTN, SPTR, BPTR, CPTR, PREF
                let parts: Vec<&str> = e.params.trim_end_matches(';').split(',').collect();
                let bptr = parts.get(3).copied().unwrap_or("0").to_string();
                let pref = if bptr == "0" { 2 } else { 1 };
                e.params = format!("142,0,{sd},{bptr},{c},{pref};");
            }
        }
        bounds.push(b);
    }
    if face.outer.is_none() && natural_rect(&face.surface).is_none() {
        w.warnings.push(format!(
            "face {f}: unbounded {} without trim loops written as an untrimmed 144",
            face.surface.type_name()
        ));
    }
    if !face.same_sense {
        w.warnings.push(format!(
            "face {f}: reversed face; IGES 144 has no sense flag, the surface's own orientation is written"
        ));
    }
    let n1 = i32::from(face.outer.is_some());
    let outer = if face.outer.is_some() { bounds[0] } else { 0 };
    let inner: Vec<usize> = if face.outer.is_some() {
        bounds[1..].to_vec()
    } else {
        bounds.clone()
    };
    let mut t = format!("144,{sd},{n1},{},{outer}", inner.len());
    for b in inner {
        let _ = write!(t, ",{b}");
    }
    t.push(';');
    Ok(w.add(144, 0, t))
}

fn record(out: &mut String, data: &str, letter: char, seq: usize) {
    let _ = writeln!(out, "{data:<72}{letter}{seq:>7}");
}

fn assemble(model: &Model, opts: &IgesOptions, ents: &[Ent], warnings: &mut Vec<String>) -> Vec<u8> {
    let mut out = String::new();
    let start = format!("extrack export of {}", model.file_name);
    let start: String = start
        .chars()
        .map(|c| if c.is_ascii() { c } else { '?' })
        .take(72)
        .collect();
    record(&mut out, &start, 'S', 1);
    let file_name = opts.file_name.clone().unwrap_or_else(|| {
        let stem = model
            .file_name
            .rsplit_once('.')
            .map_or(model.file_name.as_str(), |(s, _)| s);
        format!("{stem}.igs")
    });
    let mut lossy = false;
    let mut hs = |s: &str| {
        let (t, l) = hollerith(s);
        lossy |= l;
        t
    };
    let (unit_flag, unit_name, unit_scale) = iges_unit(model.units.mm_per_unit);
    let tol = model
        .tolerance
        .filter(|t| t.is_finite() && *t > 0.0)
        .unwrap_or_else(|| super::units::stable_div(1e-7, model.units.mm_per_unit.max(f64::MIN_POSITIVE)));
    let maxc = model
        .vertices
        .iter()
        .flat_map(|v| v.point.iter().map(|c| c.abs()).collect::<Vec<_>>())
        .fold(0.0f64, f64::max)
        .max(1.0);
    let global = format!(
        "1H,,1H;,{},{},{},{},32,38,6,308,15,{},{},{},{},1,0.01,15H19700101.000000,{},{},{},{},11,0,15H19700101.000000;",
        hs(&model.file_name),
        hs(&file_name),
        hs("extrack"),
        hs(concat!("extrack ", env!("CARGO_PKG_VERSION"))),
        hs(&model.file_name),
        real(unit_scale),
        unit_flag,
        hs(unit_name),
        real(tol),
        real(maxc),
        hs(""),
        hs(""),
    );
    let global = global.replace(",0H,", ",,");
    if lossy {
        warnings.push("non-ASCII characters in names written as '?' (IGES strings are ASCII)".into());
    }
    let mut gseq = 0;
    for l in param_lines(&global) {
        gseq += 1;
        record(&mut out, &l, 'G', gseq);
    }
    // parameter lines first, to know the pointers
    let mut plines: Vec<(String, usize)> = Vec::new();
    let mut ptr = Vec::with_capacity(ents.len());
    for (k, e) in ents.iter().enumerate() {
        let de = 2 * k + 1;
        let lines = param_lines(&e.params);
        ptr.push((plines.len() + 1, lines.len()));
        for l in lines {
            plines.push((l, de));
        }
    }
    for (k, e) in ents.iter().enumerate() {
        let (p, n) = ptr[k];
        let sub = if e.dependent { "01" } else { "00" };
        let usef = if e.pspace { "05" } else { "00" };
        let status = format!("00{sub}{usef}00");
        let l1 = format!(
            "{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}",
            e.typ, p, 0, 0, 0, 0, e.transform, 0, status
        );
        record(&mut out, &l1, 'D', 2 * k + 1);
        let l2 = format!(
            "{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}",
            e.typ, 0, 0, n, e.form, "", "", "", 0
        );
        record(&mut out, &l2, 'D', 2 * k + 2);
    }
    for (k, (l, de)) in plines.iter().enumerate() {
        let _ = writeln!(out, "{l:<64} {de:>7}P{:>7}", k + 1);
    }
    let t = format!("S{:>7}G{:>7}D{:>7}P{:>7}", 1, gseq, 2 * ents.len(), plines.len());
    record(&mut out, &t, 'T', 1);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hollerith_counts_and_replaces_non_ascii() {
        assert_eq!(hollerith("MM"), ("2HMM".to_string(), false));
        assert_eq!(hollerith("a,b;c"), ("5Ha,b;c".to_string(), false));
        assert_eq!(hollerith("Grüße"), ("5HGr??e".to_string(), true));
        assert_eq!(hollerith(""), ("0H".to_string(), false));
    }

    #[test]
    fn parameter_lines_break_after_delimiters() {
        let text = format!("126,{}1.5;", "123456789,".repeat(10));
        let lines = param_lines(&text);
        assert!(lines.iter().all(|l| l.len() <= 64));
        assert_eq!(lines.concat(), text);
        for l in &lines[..lines.len() - 1] {
            assert!(l.ends_with(','), "{l}");
        }
    }

    #[test]
    fn hollerith_with_delimiters_stays_whole() {
        let text = "1H,,1H;,11Hab,cd;ef,gh,2HMM;";
        let lines = param_lines(text);
        assert_eq!(lines.concat(), text);
    }

    proptest! {
        #[test]
        fn records_are_80_columns(names in proptest::collection::vec("[ -~]{0,100}", 1..4), xs in proptest::collection::vec(-1e300f64..1e300, 1..60)) {
            let mut text = String::from("999");
            for n in &names {
                text.push(',');
                text.push_str(&hollerith(n).0);
            }
            for x in &xs {
                text.push(',');
                text.push_str(&real(*x));
            }
            text.push(';');
            let lines = param_lines(&text);
            prop_assert_eq!(lines.concat(), text.clone());
            let mut out = String::new();
            for (k, l) in lines.iter().enumerate() {
                prop_assert!(l.len() <= 64);
                let _ = writeln!(out, "{l:<64} {:>7}P{:>7}", 1, k + 1);
            }
            for l in out.lines() {
                prop_assert_eq!(l.len(), 80);
            }
            // the reader's number parser reads every real back exactly
            for x in &xs {
                let s = real(*x);
                prop_assert_eq!(crate::import::iges::params::parse_real(s.as_bytes()), Some(*x));
            }
        }
    }
}

//! The natural boundary of a face without an outer loop.
//!
//! A Model face whose `outer` is `None` is bounded by its surface's natural
//! parameter rectangle (holes aside). A 510 face needs an outer loop: Open
//! CASCADE crashes on a 510 without loops and reads each loop of a 510
//! without an outer boundary as a face of its own. So the writer gives such
//! faces their rectangle as an explicit loop of exact edges:
//! - a clamped B-spline: its four boundary rows of poles as iso-parameter
//!   edges;
//! - a sphere, or a surface of revolution over a whole turn (also an IGES
//!   120 from 0 to 6.2831853, a `Trimmed` revolution): the meridian `u = 0`
//!   as a seam edge used twice (`u = 2π` up, `u = 0` down); a profile end on
//!   the axis (the STEP face bounded by holes and VERTEX_LOOPs at its poles)
//!   is a pole, a collapsed edge, which the 508 writes as a vertex use (as
//!   Open CASCADE writes a sphere's poles); an end off the axis is the
//!   parallel circle through it, a closed edge (the rim of nist_144's cone
//!   DE135, a 144 bounded by its 16 holes and the surface's own boundary).
//!
//! The STEP writer needs the same where the face has a rim: Open CASCADE
//! reads an ADVANCED_FACE of FACE_BOUNDs only on such a surface as one face
//! per hole ([`with_rims`]; its poles are left out of the EDGE_LOOP, as
//! STEP has no collapsed edges).
//!
//! The seam is the meridian `u = 0` unless a hole comes near it; then the
//! meridian in the middle of the widest gap between the holes. A face whose
//! loops wind about the axis (a band between two parallels) already has its
//! boundary in those loops and is left as it is, as is a face with a loop
//! through a pole.

use super::curves::shift_curve;
use crate::geom::{Frame, NurbsCurve, Vec3};
use crate::import::model::{Coedge, Curve, CurveSegment, Edge, Loop, Model, Surface, Vertex};
use std::f64::consts::TAU;

/// A copy of `model` where every face of revolution without an outer loop
/// whose profile has an end off the axis (a rim) gets its natural boundary
/// as its outer loop, without the collapsed edges of its poles (the STEP
/// writer's; faces whose ends are both poles, as a STEP sphere with holes,
/// are read by Open CASCADE as they are); a warning counts the faces changed.
pub(in crate::export) fn with_rims(model: &Model, warnings: &mut Vec<String>) -> Model {
    let mut m = model.clone();
    let mut n = 0;
    for f in 0..m.faces.len() {
        if m.faces[f].outer.is_some() {
            continue;
        }
        let rim = Revolved::of(&m.faces[f].surface).is_some_and(|rev| {
            let (v0, v1) = rev.v;
            let p = [rev.meridian.eval(v0), rev.meridian.eval(v1)];
            let scale = 1.0 + (p[0] - rev.origin).norm().max((p[1] - rev.origin).norm());
            p.iter().any(|&q| rev.off_axis(q) > 1e-9 * scale)
        });
        if !(rim && revolved_boundary(&mut m, f)) {
            continue;
        }
        n += 1;
        let poles: Vec<bool> = (0..m.edges.len()).map(|e| collapsed(&m, e)).collect();
        if let Some(o) = m.faces[f].outer.as_mut() {
            o.coedges.retain(|c| !c.edge.is_some_and(|e| poles[e]));
        }
    }
    if n > 0 {
        warnings.push(format!(
            "{n} faces of revolution bounded by holes only written with their natural boundary: a meridian as a seam edge and the rim as a parallel circle (Open CASCADE reads FACE_BOUNDs alone there as one face per hole)"
        ));
    }
    m
}

/// A copy of `model` where every face without an outer loop whose natural
/// boundary can be written exactly gets it as its outer loop; a warning per
/// kind counts the faces changed.
pub(super) fn with_natural_boundaries(model: &Model, warnings: &mut Vec<String>) -> Model {
    let mut m = model.clone();
    let (mut bspline, mut revolved) = (0, 0);
    for f in 0..m.faces.len() {
        if m.faces[f].outer.is_some() {
            continue;
        }
        let (is_bspline, is_revolved) = match &m.faces[f].surface {
            Surface::BSpline(_) => (true, false),
            s => (false, Revolved::of(s).is_some()),
        };
        if is_bspline && bspline_boundary(&mut m, f, warnings) {
            bspline += 1;
        } else if is_revolved && revolved_boundary(&mut m, f) {
            revolved += 1;
        }
    }
    if bspline > 0 {
        warnings.push(format!(
            "{bspline} untrimmed B-spline faces written with their natural boundary as four iso-parameter edges (a 510 face needs a loop)"
        ));
    }
    if revolved > 0 {
        warnings.push(format!(
            "{revolved} faces of revolution bounded by holes only written with their natural boundary: a meridian as a seam edge, the poles as vertex uses and a rim as a parallel circle (a 510 face needs an outer loop)"
        ));
    }
    m
}

/// True when `e` is collapsed to a point: both ends at one vertex and its
/// curve within `1e-9` of the model's scale of that vertex along its range
/// (a pole of the natural boundary), written as a 508 vertex use.
pub(super) fn collapsed(model: &Model, e: usize) -> bool {
    let ed = &model.edges[e];
    let (Some(s), Some(t)) = (ed.start, ed.end) else {
        return false;
    };
    if s != t {
        return false;
    }
    let v = model.vertices[s].point;
    let tol = 1e-9 * (1.0 + v.norm());
    (0..=4).all(|k| {
        let t = ed.t0 + (ed.t1 - ed.t0) * k as f64 / 4.0;
        (ed.curve.eval(t) - v).norm() <= tol
    })
}

/// The natural boundary of a clamped B-spline face: four iso-parameter edges
/// (exact: the boundary rows of poles). False (with a warning) when unclamped.
fn bspline_boundary(m: &mut Model, f: usize, warnings: &mut Vec<String>) -> bool {
    let Surface::BSpline(s) = &m.faces[f].surface else {
        return false;
    };
    let clamped =
        |k: &[f64], p: usize, n: usize| k[..=p].iter().all(|x| *x == k[0]) && k[n..].iter().all(|x| *x == k[n]);
    if !(clamped(&s.knots_u, s.degree_u, s.n_u) && clamped(&s.knots_v, s.degree_v, s.n_v)) {
        warnings.push(format!(
            "face {f}: unclamped B-spline without trims written as a 510 without loops"
        ));
        return false;
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
        coedges.push(iso_coedge(e, fwd, o, d, (t0, t1)));
    }
    m.faces[f].outer = Some(Loop { coedges, source: 0 });
    true
}

/// A coedge of the natural boundary: edge `e` used `forward`, its p-curve the
/// line `o + t d` on `range` in the same direction.
fn iso_coedge(e: usize, forward: bool, o: Vec3, d: Vec3, (t0, t1): (f64, f64)) -> Coedge {
    Coedge {
        edge: Some(e),
        forward,
        pcurve: Some(CurveSegment {
            curve: Curve::Line { origin: o, dir: d },
            t0,
            t1,
            forward,
        }),
        curve: None,
        pcurve_preferred: false,
        source: 0,
    }
}

/// The axis of a surface of revolution (origin, unit direction), the
/// meridian `u = 0` as a curve with its range `v0..v1`, and the circles
/// `v = c` (centre, radius). `None` for other surfaces, unbounded
/// profiles and trims short of a whole turn.
struct Revolved {
    origin: Vec3,
    axis: Vec3,
    meridian: Curve,
    v: (f64, f64),
}

impl Revolved {
    fn of(s: &Surface) -> Option<Revolved> {
        match s {
            Surface::Sphere { frame, radius } => Some(Revolved {
                origin: frame.origin,
                axis: frame.z,
                // p(v) = o + r cos v·x + r sin v·z
                meridian: Curve::Circle {
                    frame: Frame {
                        origin: frame.origin,
                        x: frame.x,
                        y: frame.z,
                        z: frame.x.cross(&frame.z),
                    },
                    radius: *radius,
                },
                v: (-std::f64::consts::FRAC_PI_2, std::f64::consts::FRAC_PI_2),
            }),
            Surface::Revolution {
                profile,
                axis_origin,
                axis_dir,
            } => {
                // a closed profile (a torus-like surface) has no poles
                if matches!(**profile, Curve::Circle { .. } | Curve::Ellipse { .. }) {
                    return None;
                }
                let axis = axis_dir.try_normalize(1e-300)?;
                Some(Revolved {
                    origin: *axis_origin,
                    axis,
                    // the rotation by u = 0 is the profile itself
                    meridian: (**profile).clone(),
                    v: profile.natural_range()?,
                })
            }
            // an IGES 120 over a whole turn (0 to 6.2831853): its profile's
            // trimmed range
            Surface::Trimmed { basis, u, v } => {
                if !(u.1 - u.0 >= TAU * (1.0 - 1e-6)) {
                    return None;
                }
                let mut r = Revolved::of(basis)?;
                r.v = (v.0.max(r.v.0), v.1.min(r.v.1));
                (r.v.0 < r.v.1).then_some(r)
            }
            _ => None,
        }
    }

    /// The meridian `u = us`, parameterised by `v` as the surface is: the
    /// meridian `u = 0` turned about the axis. `None` when it cannot be
    /// turned exactly with its parameter (a profile other than a line, a
    /// polyline, a circle or a B-spline).
    fn meridian_at(&self, us: f64) -> Option<Curve> {
        if us == 0.0 {
            return Some(self.meridian.clone());
        }
        let turn = |v: Vec3| {
            let (s, c) = us.sin_cos();
            v * c + self.axis.cross(&v) * s + self.axis * (self.axis.dot(&v) * (1.0 - c))
        };
        match &self.meridian {
            Curve::Line { origin, dir } => Some(Curve::Line {
                origin: self.origin + turn(origin - self.origin),
                dir: turn(*dir),
            }),
            Curve::Polyline(p) => Some(Curve::Polyline(
                p.iter().map(|q| self.origin + turn(q - self.origin)).collect(),
            )),
            Curve::Circle { frame, radius } => Some(Curve::Circle {
                frame: Frame {
                    origin: self.origin + turn(frame.origin - self.origin),
                    x: turn(frame.x),
                    y: turn(frame.y),
                    z: turn(frame.z),
                },
                radius: *radius,
            }),
            Curve::BSpline(b) => {
                let cw = b
                    .cw
                    .iter()
                    .map(|h| {
                        let p = Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
                        let q = self.origin + turn(p - self.origin);
                        [q.x * h[3], q.y * h[3], q.z * h[3], h[3]]
                    })
                    .collect();
                NurbsCurve::try_from_homogeneous(b.degree, b.knots.clone(), cw)
                    .ok()
                    .map(Curve::BSpline)
            }
            _ => None,
        }
    }

    /// Distance of `p` from the axis.
    fn off_axis(&self, p: Vec3) -> f64 {
        let w = p - self.origin;
        (w - self.axis * self.axis.dot(&w)).norm()
    }

    /// The angle of `p` about the axis, measured from the meridian `u = 0`
    /// (whose direction off the axis is `x0`).
    fn angle(&self, p: Vec3, x0: Vec3) -> f64 {
        let w = p - self.origin;
        let w = w - self.axis * self.axis.dot(&w);
        let y0 = self.axis.cross(&x0);
        w.dot(&y0).atan2(w.dot(&x0))
    }
}

/// Gives face `f` (a sphere or a surface of revolution without an outer
/// loop) the outer loop of its natural rectangle `[u_s, u_s + 2π] × [v0, v1]`:
/// the side `v0`, the seam up at `u_s + 2π`, the side `v1`, the seam down at
/// `u_s`; a side is a pole (collapsed edge) where the meridian's end lies on
/// the axis, else the parallel circle through that end (parameterised by
/// `u`, from and to the seam's end). The seam meridian `u_s` is `0` when no
/// loop comes near it, else the middle of the widest gap between the loops'
/// angles about the axis (the holes' p-curves are moved by whole periods
/// into the rectangle). False (the face unchanged) when a loop comes near
/// the axis or winds about it, or the seam cannot be turned exactly (a
/// profile other than a line, polyline, circle or B-spline).
fn revolved_boundary(m: &mut Model, f: usize) -> bool {
    let Some(rev) = Revolved::of(&m.faces[f].surface) else {
        return false;
    };
    let (v0, v1) = rev.v;
    let (south, north) = (rev.meridian.eval(v0), rev.meridian.eval(v1));
    let scale = 1.0 + (south - rev.origin).norm().max((north - rev.origin).norm());
    // the meridian u = 0's direction off the axis (its middle is off it)
    let mid = rev.meridian.eval(0.5 * (v0 + v1)) - rev.origin;
    let Some(x0) = (mid - rev.axis * rev.axis.dot(&mid)).try_normalize(1e-12 * scale) else {
        return false;
    };
    let near = 1e-6 * scale;
    let Some(us) = seam_angle(m, &m.faces[f].inner, &rev, x0, near) else {
        return false;
    };
    let Some(seam) = rev.meridian_at(us) else {
        return false;
    };
    let pole = |m: &mut Model, p: Vec3| -> usize {
        let own = m
            .vertex_loops
            .iter()
            .filter(|vl| vl.face == f)
            .map(|vl| vl.vertex)
            .find(|&v| (m.vertices[v].point - p).norm() <= near);
        own.unwrap_or_else(|| {
            m.vertices.push(Vertex { point: p, source: 0 });
            m.vertices.len() - 1
        })
    };
    let on_axis = |p: Vec3| rev.off_axis(p) <= 1e-9 * scale;
    let (vs, vn) = (pole(m, seam.eval(v0)), pole(m, seam.eval(v1)));
    let e0 = m.edges.len();
    let edge = |curve: Curve, (t0, t1): (f64, f64), (start, end): (usize, usize)| Edge {
        curve,
        t0,
        t1,
        start: Some(start),
        end: Some(end),
        faces: vec![f],
        source: 0,
    };
    // the poles as edges collapsed to a point (written as vertex uses), a
    // rim as the parallel circle through the end `p` of the meridian u = 0:
    // its point at t is `p` turned by t about the axis, the surface's (t, v)
    let side = |p: Vec3| -> (Curve, (f64, f64)) {
        if on_axis(p) {
            let c = Curve::Line {
                origin: p,
                dir: Vec3::zeros(),
            };
            return (c, (0.0, TAU));
        }
        let w = p - rev.origin;
        let centre = rev.origin + rev.axis * rev.axis.dot(&w);
        let radius = (p - centre).norm();
        let x = (p - centre) / radius;
        let c = Curve::Circle {
            frame: Frame {
                origin: centre,
                x,
                y: rev.axis.cross(&x),
                z: rev.axis,
            },
            radius,
        };
        (c, (us, us + TAU))
    };
    let (s_curve, s_range) = side(south);
    let (n_curve, n_range) = side(north);
    m.edges.push(edge(s_curve, s_range, (vs, vs)));
    m.edges.push(edge(seam, (v0, v1), (vs, vn)));
    m.edges.push(edge(n_curve, n_range, (vn, vn)));
    // the holes' p-curves into [u_s, u_s + 2π)
    for l in m.faces[f].inner.iter_mut() {
        for c in l.coedges.iter_mut() {
            if let Some(pc) = c.pcurve.as_mut() {
                let u = pc.curve.eval(0.5 * (pc.t0 + pc.t1)).x;
                let k = ((u - us) / TAU).floor();
                if k != 0.0 {
                    pc.curve = shift_curve(&pc.curve, &Vec3::new(-k * TAU, 0.0, 0.0));
                }
            }
        }
    }
    // counter-clockwise in (u, v): the face on the left about f_u × f_v
    let mut outer = Loop {
        coedges: vec![
            iso_coedge(e0, true, Vec3::new(us - s_range.0, v0, 0.0), Vec3::x(), s_range),
            iso_coedge(e0 + 1, true, Vec3::new(us + TAU, 0.0, 0.0), Vec3::y(), (v0, v1)),
            iso_coedge(e0 + 2, false, Vec3::new(us - n_range.0, v1, 0.0), Vec3::x(), n_range),
            iso_coedge(e0 + 1, false, Vec3::new(us, 0.0, 0.0), Vec3::y(), (v0, v1)),
        ],
        source: 0,
    };
    // a Model loop keeps the face on its left about the outward normal
    if !m.faces[f].same_sense {
        outer.reverse();
    }
    m.faces[f].outer = Some(outer);
    true
}

/// Samples per coedge of the seam test.
const SEAM_SAMPLES: usize = 64;

/// The seam meridian's angle `u_s ∈ [0, 2π)` for `loops` about the axis: `0`
/// when every sample's angle is farther than `near` (as an arc at its radius)
/// from it, else the middle of the widest gap between the samples' angles.
/// `None` when a sample lies within `near` of the axis, a loop winds about
/// the axis (it crosses every meridian) or a coedge has no 3-D curve.
fn seam_angle(m: &Model, loops: &[Loop], rev: &Revolved, x0: Vec3, near: f64) -> Option<f64> {
    let mut angles = Vec::new();
    let mut clear_of_zero = true;
    for l in loops {
        let mut turn = 0.0;
        let mut last: Option<f64> = None;
        for c in &l.coedges {
            let (curve, t0, t1) = match (c.edge, &c.curve) {
                (Some(e), _) => {
                    let ed = &m.edges[e];
                    (&ed.curve, ed.t0, ed.t1)
                }
                (None, Some(s)) => (&s.curve, s.t0, s.t1),
                (None, None) => return None,
            };
            let ts: Vec<f64> = (0..=SEAM_SAMPLES)
                .map(|k| t0 + (t1 - t0) * k as f64 / SEAM_SAMPLES as f64)
                .collect();
            // along the loop: a coedge used backwards runs t1 → t0
            let ordered: Vec<f64> = if c.forward || c.edge.is_none() {
                ts
            } else {
                ts.into_iter().rev().collect()
            };
            for t in ordered {
                let p = curve.eval(t);
                let r = rev.off_axis(p);
                if r <= near {
                    return None;
                }
                let a = rev.angle(p, x0).rem_euclid(TAU);
                let to_zero = a.min(TAU - a);
                clear_of_zero &= to_zero * r > near;
                if let Some(b) = last {
                    let d = (a - b + std::f64::consts::PI).rem_euclid(TAU) - std::f64::consts::PI;
                    turn += d;
                }
                last = Some(a);
                angles.push(a);
            }
        }
        // a loop winding about the axis bounds the face itself
        if turn.abs() > std::f64::consts::PI {
            return None;
        }
    }
    if clear_of_zero {
        return Some(0.0);
    }
    angles.sort_by(f64::total_cmp);
    let mut best = (TAU - angles.last()? + angles[0], angles.last()? - TAU);
    for w in angles.windows(2) {
        if w[1] - w[0] > best.0 {
            best = (w[1] - w[0], w[0]);
        }
    }
    // a gap of at least a hundredth of a turn (the samples are 1/64 of each coedge)
    (best.0 > TAU / 100.0).then(|| (best.1 + 0.5 * best.0).rem_euclid(TAU))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::model::{Face, VertexLoop};

    /// A unit sphere face with one hole (a small circle about +y) and
    /// VERTEX_LOOPs at its poles, as a STEP exporter writes a sphere with a
    /// hole.
    fn holed_sphere(hole_axis: Vec3) -> Model {
        let mut m = Model::new(crate::import::model::SourceFormat::Step, "holed_sphere.step");
        let frame = Frame::default();
        let c = hole_axis.normalize() * 0.9;
        let x = hole_axis.normalize().cross(&Vec3::z()).try_normalize(1e-12).unwrap_or(Vec3::x());
        let hole = Curve::Circle {
            frame: Frame {
                origin: c,
                x,
                y: hole_axis.normalize().cross(&x),
                z: hole_axis.normalize(),
            },
            radius: 0.19f64.sqrt(),
        };
        m.vertices.push(Vertex {
            point: hole.eval(0.0),
            source: 0,
        });
        m.vertices.push(Vertex {
            point: Vec3::new(0.0, 0.0, -1.0),
            source: 0,
        });
        m.edges.push(Edge {
            curve: hole,
            t0: 0.0,
            t1: TAU,
            start: Some(0),
            end: Some(0),
            faces: vec![0],
            source: 0,
        });
        m.faces.push(Face {
            surface: Surface::Sphere { frame, radius: 1.0 },
            same_sense: true,
            outer: None,
            inner: vec![Loop {
                coedges: vec![Coedge {
                    edge: Some(0),
                    forward: false,
                    pcurve: None,
                    curve: None,
                    pcurve_preferred: false,
                    source: 0,
                }],
                source: 0,
            }],
            source: 0,
        });
        m.vertex_loops.push(VertexLoop {
            face: 0,
            vertex: 1,
            source: 0,
        });
        m
    }

    /// Each coedge's p-curve, on face 0's surface, starts and ends at its
    /// 3-D edge's ends (within 1e-12).
    fn p_curves_end_on_their_edges(m: &Model, outer: &Loop) {
        let s = &m.faces[0].surface;
        for c in &outer.coedges {
            let pc = c.pcurve.as_ref().unwrap();
            let ed = &m.edges[c.edge.unwrap()];
            let (a, b) = if c.forward { (ed.t0, ed.t1) } else { (ed.t1, ed.t0) };
            let (pa, pb) = if pc.forward { (pc.t0, pc.t1) } else { (pc.t1, pc.t0) };
            let q = |t: f64| {
                let uv = pc.curve.eval(t);
                s.eval(uv.x, uv.y)
            };
            assert!((q(pa) - ed.curve.eval(a)).norm() < 1e-12);
            assert!((q(pb) - ed.curve.eval(b)).norm() < 1e-12);
        }
    }

    #[test]
    fn a_holed_sphere_gets_the_seam_and_its_poles() {
        let mut w = Vec::new();
        let m = with_natural_boundaries(&holed_sphere(Vec3::y()), &mut w);
        let outer = m.faces[0].outer.as_ref().expect("outer loop");
        assert_eq!(outer.coedges.len(), 4);
        let es: Vec<usize> = outer.coedges.iter().map(|c| c.edge.unwrap()).collect();
        // pole, seam, pole, the same seam back
        assert!(collapsed(&m, es[0]) && collapsed(&m, es[2]));
        assert!(!collapsed(&m, es[1]) && es[1] == es[3]);
        assert!(outer.coedges[1].forward && !outer.coedges[3].forward);
        // the south pole is the file's own VERTEX_LOOP vertex
        assert_eq!(m.edges[es[0]].start, Some(1));
        // the seam runs from the south pole to the north pole on the sphere
        let seam = &m.edges[es[1]];
        assert!((seam.curve.eval(seam.t0) - Vec3::new(0.0, 0.0, -1.0)).norm() < 1e-15);
        assert!((seam.curve.eval(seam.t1) - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-15);
        for k in 0..=8 {
            let t = seam.t0 + (seam.t1 - seam.t0) * k as f64 / 8.0;
            assert!((seam.curve.eval(t).norm() - 1.0).abs() < 1e-15);
        }
        // each p-curve's surface points are the 3-D curve's (the loop closes on the surface)
        p_curves_end_on_their_edges(&m, outer);
        assert!(w.iter().any(|x| x.contains("faces of revolution")), "{w:?}");
    }

    #[test]
    fn a_hole_across_the_meridian_u0_turns_the_seam_away_from_it() {
        let mut w = Vec::new();
        // the meridian u = 0 runs through +x, the hole's centre
        let m = with_natural_boundaries(&holed_sphere(Vec3::x()), &mut w);
        let outer = m.faces[0].outer.as_ref().expect("outer loop");
        let seam = &m.edges[outer.coedges[1].edge.unwrap()];
        // the seam lies opposite the hole (the widest gap's middle: u = π)
        let mid = seam.curve.eval(0.0);
        assert!((mid - Vec3::new(-1.0, 0.0, 0.0)).norm() < 1e-9, "{mid:?}");
        // its p-curves are the rectangle's sides u = π and u = 3π
        let u = |k: usize| outer.coedges[k].pcurve.as_ref().unwrap().curve.eval(0.0).x;
        assert!((u(3) - std::f64::consts::PI).abs() < 1e-9 && (u(1) - 3.0 * std::f64::consts::PI).abs() < 1e-9);
        for k in 0..=16 {
            let t = seam.t0 + (seam.t1 - seam.t0) * k as f64 / 16.0;
            let p = seam.curve.eval(t);
            assert!((p.norm() - 1.0).abs() < 1e-14 && p.x <= 1e-12);
        }
    }

    /// The cone of nist_144 DE135 as the IGES reader builds it: the 120
    /// revolution of the segment (−10, 0, 0)–(0, 0, 10) about z from 0 to
    /// 6.2831853 (`Trimmed`), rim r = 10 at z = 0, apex at z = 10; one hole
    /// (a free polyline coedge round u ≈ 1.55, v ≈ 0.5), no outer loop.
    #[allow(clippy::approx_constant)] // the file's own 6.2831853, not 2π
    fn holed_cone() -> Model {
        let mut m = Model::new(crate::import::model::SourceFormat::Iges, "holed_cone.igs");
        let basis = Surface::Revolution {
            profile: Box::new(Curve::Polyline(vec![Vec3::new(-10.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 10.0)])),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        };
        let surface = Surface::Trimmed {
            basis: Box::new(basis),
            u: (0.0, 6.2831853),
            v: (0.0, 1.0),
        };
        let hole: Vec<Vec3> = [(1.4, 0.4), (1.7, 0.4), (1.7, 0.6), (1.4, 0.6), (1.4, 0.4)]
            .iter()
            .map(|&(u, v)| surface.eval(u, v))
            .collect();
        m.faces.push(Face {
            surface,
            same_sense: false,
            outer: None,
            inner: vec![Loop {
                coedges: vec![Coedge {
                    edge: None,
                    forward: false,
                    pcurve: None,
                    curve: Some(CurveSegment {
                        curve: Curve::Polyline(hole),
                        t0: 0.0,
                        t1: 4.0,
                        forward: true,
                    }),
                    pcurve_preferred: false,
                    source: 0,
                }],
                source: 0,
            }],
            source: 0,
        });
        m
    }

    #[test]
    fn a_holed_cone_gets_its_rim_its_seam_and_its_apex() {
        let mut w = Vec::new();
        let m = with_natural_boundaries(&holed_cone(), &mut w);
        let outer = m.faces[0].outer.as_ref().expect("outer loop");
        assert_eq!(outer.coedges.len(), 4);
        let es: Vec<usize> = outer.coedges.iter().map(|c| c.edge.unwrap()).collect();
        // the face's normal is the reversed one: the loop runs the other way
        // round, apex first; the rim is a circle, the apex a collapsed edge
        let rim = es.iter().copied().find(|&e| matches!(m.edges[e].curve, Curve::Circle { .. }));
        let rim = rim.expect("a rim circle");
        assert_eq!(es.iter().filter(|&&e| collapsed(&m, e)).count(), 1);
        assert!(!collapsed(&m, rim));
        let s = &m.faces[0].surface;
        let ed = &m.edges[rim];
        for k in 0..=16 {
            // the rim's point at t is the surface's (t, 0)
            let t = ed.t0 + (ed.t1 - ed.t0) * k as f64 / 16.0;
            assert!((ed.curve.eval(t) - s.eval(t, 0.0)).norm() < 1e-12, "{t}");
        }
        // each p-curve's surface points are the 3-D curve's at both ends
        p_curves_end_on_their_edges(&m, outer);
        // consecutive coedges meet (the loop closes in space)
        let ends: Vec<(Vec3, Vec3)> = outer
            .coedges
            .iter()
            .map(|c| {
                let ed = &m.edges[c.edge.unwrap()];
                let (a, b) = (ed.curve.eval(ed.t0), ed.curve.eval(ed.t1));
                if c.forward {
                    (a, b)
                } else {
                    (b, a)
                }
            })
            .collect();
        for k in 0..ends.len() {
            assert!((ends[k].1 - ends[(k + 1) % ends.len()].0).norm() < 1e-12, "{k}");
        }
        assert!(w.iter().any(|x| x.contains("rim as a parallel circle")), "{w:?}");
        // the STEP writer's: the same without the apex's collapsed edge
        let mut w = Vec::new();
        let m = with_rims(&holed_cone(), &mut w);
        let outer = m.faces[0].outer.as_ref().expect("outer loop");
        assert_eq!(outer.coedges.len(), 3);
        assert!(outer.coedges.iter().all(|c| !collapsed(&m, c.edge.unwrap())));
        assert_eq!(w.len(), 1, "{w:?}");
        // a sphere's holes (both ends poles) are left to the STEP reader
        let mut w = Vec::new();
        assert!(with_rims(&holed_sphere(Vec3::y()), &mut w).faces[0].outer.is_none());
        assert!(w.is_empty());
    }

    #[test]
    fn a_band_between_two_parallels_leaves_the_face_as_it_is() {
        let mut m = holed_sphere(Vec3::y());
        // replace the hole with a parallel at z = 0.5 (winds about the axis)
        let r = 0.75f64.sqrt();
        m.edges[0].curve = Curve::Circle {
            frame: Frame {
                origin: Vec3::new(0.0, 0.0, 0.5),
                x: Vec3::y(),
                y: -Vec3::x(),
                z: Vec3::z(),
            },
            radius: r,
        };
        m.vertices[0].point = Vec3::new(0.0, r, 0.5);
        let mut w = Vec::new();
        let out = with_natural_boundaries(&m, &mut w);
        assert!(out.faces[0].outer.is_none());
        assert!(w.is_empty(), "{w:?}");
    }
}

//! P-curves in the IGES surface's parameter space: the linear map from the
//! Model's surface parameters to the IGES parameterisation (degrees for the
//! angles of 192–198, the IGES parameterisations of 120 / 122), p-curves
//! mapped through it, and the faces whose p-curves cannot be written.

use super::writer::W;
use crate::geom::Frame;
use crate::geom::{NurbsCurve, Vec3};
use crate::import::iges::nurbs::to_nurbs;
pub(super) use crate::import::iges::transform::Map2;
use nalgebra::{Matrix2, Vector2};
use crate::import::model::{Curve, CurveSegment, Face, Surface};
use std::f64::consts::PI;

/// Model surface parameters → IGES surface parameters (the inverse of the
/// reader's maps).
pub(super) fn pmap_of(s: &Surface) -> Map2 {
    let deg = 180.0 / PI;
    match s {
        Surface::Cylinder { .. } => Map2::scale(deg, 1.0),
        Surface::Cone { semi_angle, .. } => Map2::scale(deg, semi_angle.cos()),
        Surface::Sphere { .. } | Surface::Torus { .. } => Map2::scale(deg, deg),
        Surface::Revolution { .. } => Map2::swap(),
        Surface::Trimmed { basis, u, v } => match basis.as_ref() {
            Surface::Extrusion { .. } => {
                let (du, dv) = (u.1 - u.0, v.1 - v.0);
                Map2 {
                    m: Matrix2::new(1.0 / du, 0.0, 0.0, 1.0 / dv),
                    t: Vector2::new(-u.0 / du, -v.0 / dv),
                }
            }
            b => pmap_of(b),
        },
        Surface::Offset { basis, .. } => pmap_of(basis),
        _ => Map2::identity(),
    }
}

/// True when the IGES surface written for `s` has the opposite normal of
/// the Model surface: its parameters are the Model's mirrored (a 120
/// revolution is `(t, θ)` where the Model's is `(θ, t)`), so `S_u × S_v`
/// changes sign. Such a face's 514 sense flag and 508 loop direction are
/// those of the reversed Model face.
pub(super) fn reverses_normal(s: &Surface) -> bool {
    pmap_of(s).mirrors()
}

/// The face's sense against the IGES surface written for it (a 514 flag;
/// for a 144 or a loose 510, which have none, whether the surface's own
/// normal is the face's): the Model's sense, flipped where the IGES
/// surface's normal is the Model surface's reversed ([`reverses_normal`]).
pub(super) fn iges_sense(face: &Face) -> bool {
    face.same_sense != reverses_normal(&face.surface)
}

pub(super) fn map_nurbs2(c: &NurbsCurve, m: &Map2) -> NurbsCurve {
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
    /// A p-curve mapped into the IGES surface's parameter space, written in
    /// its own direction when `own` (else reversed; `forward` is ignored:
    /// the caller decides the direction along the loop).
    pub(super) fn pcurve(&mut self, s: &CurveSegment, own: bool, m: &Map2) -> usize {
        let raw = CurveSegment {
            forward: own,
            ..s.clone()
        };
        let s = &raw;
        if m.is_identity() {
            return self.curve(s, true);
        }
        let mapped = self.map_segment(s, m);
        self.curve(&mapped, true)
    }

    pub(super) fn map_segment(&mut self, s: &CurveSegment, m: &Map2) -> CurveSegment {
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
}

/// The profile type of a revolution / extrusion (also trimmed or offset)
/// whose profile the writer converts to a rational 126 with another
/// parameterisation (ellipse, hyperbola, parabola).
pub(super) fn converted_profile(s: &Surface) -> Option<&'static str> {
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
pub(super) fn keep_pcurves(w: &mut W, face: &Face, f: usize) -> bool {
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

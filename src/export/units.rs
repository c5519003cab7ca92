//! The Model in its source length unit: the writers declare
//! [`Model::units`](crate::import::model::Model::units) in the file (STEP
//! SI_UNIT / CONVERSION_BASED_UNIT, IGES units flag and name) and write every
//! length divided by `mm_per_unit`, so a conversion keeps the unit.
//!
//! [`to_file_units`] is the inverse of what the readers do to a file's values:
//! 3-D points, radii, offsets and poles scale; unit line directions stay unit
//! and their parameters scale (STEP lines are unit-speed); other line
//! directions scale (IGES lines run on `[0, 1]`); p-curves scale per parameter
//! axis by the surface's length factors (both axes of a plane, `v` of a
//! cylinder, cone or extrusion, the profile's factor on a revolution); angles,
//! knots and B-spline parameters stay.
//!
//! Each length is divided "stably" ([`stable_div`]): the value written is the
//! one that reading back (`× mm_per_unit`) and dividing again maps to itself,
//! so Model → file → Model → file stays byte-identical in any unit.

use super::settle;
use crate::geom::Frame;
use crate::geom::{NurbsCurve, NurbsSurface, Vec3};
use crate::import::model::{Curve, CurveSegment, Model, Surface};

/// `x / s` such that `(y · s) / s == y` for the returned `y` (see [`settle`]).
pub(crate) fn stable_div(x: f64, s: f64) -> f64 {
    if s == 1.0 || !x.is_finite() {
        return x;
    }
    settle(x / s, |y| (y * s) / s, |y| vec![y.to_bits()])
}

fn div3(v: &Vec3, s: f64) -> Vec3 {
    Vec3::new(stable_div(v.x, s), stable_div(v.y, s), stable_div(v.z, s))
}

fn is_unit(d: &Vec3) -> bool {
    (d.norm() - 1.0).abs() <= 1e-14
}

/// Per-axis factors (mm per file unit) of a surface's parameters: the STEP
/// reader's `param_factors` with angles at 1. With `step_cones` a cone's `v`
/// is STEP's, the height along the axis (the Model's runs along the
/// generatrix: `mm / cos a`).
fn uv_factors(s: &Surface, mm: f64, step_cones: bool) -> (f64, f64) {
    match s {
        Surface::Plane { .. } => (mm, mm),
        Surface::Cylinder { .. } => (1.0, mm),
        Surface::Cone { semi_angle, .. } if step_cones => (1.0, mm / semi_angle.cos()),
        Surface::Cone { .. } => (1.0, mm),
        Surface::Sphere { .. } | Surface::Torus { .. } => (1.0, 1.0),
        Surface::Revolution { profile, .. } => (1.0, curve_factor(profile, mm)),
        Surface::Extrusion { profile, .. } => (curve_factor(profile, mm), mm),
        Surface::Offset { basis, .. } | Surface::Trimmed { basis, .. } => uv_factors(basis, mm, step_cones),
        Surface::BSpline(_) => (1.0, 1.0),
    }
}

/// Factor of a 3-D curve's parameter: unit-speed lines measure length.
fn curve_factor(c: &Curve, mm: f64) -> f64 {
    match c {
        Curve::Line { dir, .. } if is_unit(dir) => mm,
        _ => 1.0,
    }
}

fn frame(f: &Frame, mm: f64) -> Frame {
    Frame {
        origin: div3(&f.origin, mm),
        ..*f
    }
}

fn curve3(c: &Curve, mm: f64) -> Curve {
    curve2(c, (mm, mm, mm))
}

/// A curve with coordinates divided per axis by `(fx, fy, fz)` (uniform in
/// 3-D, `(fu, fv, 1)` for p-curves).
fn curve2(c: &Curve, f: (f64, f64, f64)) -> Curve {
    let pt = |p: &Vec3| Vec3::new(stable_div(p.x, f.0), stable_div(p.y, f.1), stable_div(p.z, f.2));
    match c {
        Curve::Line { origin, dir } => Curve::Line {
            origin: pt(origin),
            dir: if is_unit(dir) { *dir } else { pt(dir) },
        },
        Curve::Circle { frame, radius } => Curve::Circle {
            frame: Frame {
                origin: pt(&frame.origin),
                ..*frame
            },
            radius: stable_div(*radius, f.0),
        },
        Curve::Ellipse { frame, semi_x, semi_y } => Curve::Ellipse {
            frame: Frame {
                origin: pt(&frame.origin),
                ..*frame
            },
            semi_x: stable_div(*semi_x, f.0),
            semi_y: stable_div(*semi_y, f.0),
        },
        Curve::Parabola { frame, focal } => Curve::Parabola {
            frame: Frame {
                origin: pt(&frame.origin),
                ..*frame
            },
            focal: stable_div(*focal, f.0),
        },
        Curve::Hyperbola { frame, semi_x, semi_y } => Curve::Hyperbola {
            frame: Frame {
                origin: pt(&frame.origin),
                ..*frame
            },
            semi_x: stable_div(*semi_x, f.0),
            semi_y: stable_div(*semi_y, f.0),
        },
        Curve::BSpline(b) => Curve::BSpline(nurbs_curve(b, f)),
        Curve::Polyline(p) => Curve::Polyline(p.iter().map(pt).collect()),
        Curve::Composite(segs) => Curve::Composite(segs.iter().map(|s| segment(s, f)).collect()),
    }
}

/// Parameter factor of a curve whose coordinates scale per axis by `f`.
fn param_factor(c: &Curve, f: (f64, f64, f64)) -> f64 {
    match c {
        Curve::Line { dir, .. } if is_unit(dir) => {
            if f.0 == f.1 && f.1 == f.2 {
                f.0
            } else {
                // exact for axis-parallel p-curve lines (the usual case)
                ((dir.x * f.0).powi(2) + (dir.y * f.1).powi(2) + (dir.z * f.2).powi(2)).sqrt()
            }
        }
        _ => 1.0,
    }
}

fn segment(s: &CurveSegment, f: (f64, f64, f64)) -> CurveSegment {
    let k = param_factor(&s.curve, f);
    CurveSegment {
        curve: curve2(&s.curve, f),
        t0: stable_div(s.t0, k),
        t1: stable_div(s.t1, k),
        forward: s.forward,
    }
}

/// The Euclidean pole (in file units, per-axis factors `f`) to store for the
/// homogeneous Model pole `c`. The writers write `stable_pole` of the stored
/// `pole · w`; the readers compute `(file value · f) · w`. For a rational
/// pole the whole chain is settled (see [`settle`]), so that a pole read back
/// from the file maps to the same stored pole and the same written value.
fn file_pole(c: &[f64; 4], f: (f64, f64, f64)) -> [f64; 3] {
    let w = c[3];
    let div = |e: [f64; 3]| [stable_div(e[0], f.0), stable_div(e[1], f.1), stable_div(e[2], f.2)];
    let start = div(super::stable_pole(*c));
    if w == 1.0 {
        return start;
    }
    // stored y → written G(y) → read R(G(y)) → stored again
    let step = |y: &[f64; 3]| {
        let g = super::stable_pole([y[0] * w, y[1] * w, y[2] * w, w]);
        let r = [(g[0] * f.0) * w, (g[1] * f.1) * w, (g[2] * f.2) * w, w];
        div(super::stable_pole(r))
    };
    settle(start, step, |y| y.iter().map(|c| c.to_bits()).collect())
}

fn nurbs_curve(b: &NurbsCurve, f: (f64, f64, f64)) -> NurbsCurve {
    let pts: Vec<[f64; 3]> = b.cw.iter().map(|c| file_pole(c, f)).collect();
    let w: Vec<f64> = b.cw.iter().map(|c| c[3]).collect();
    NurbsCurve::try_new(b.degree, b.knots.clone(), &pts, b.rational.then_some(w.as_slice()))
        .unwrap_or_else(|_| b.clone())
}

fn surface(s: &Surface, mm: f64, step_cones: bool) -> Surface {
    match s {
        Surface::Plane { frame: fr } => Surface::Plane { frame: frame(fr, mm) },
        Surface::Cylinder { frame: fr, radius } => Surface::Cylinder {
            frame: frame(fr, mm),
            radius: stable_div(*radius, mm),
        },
        Surface::Cone {
            frame: fr,
            radius,
            semi_angle,
        } => Surface::Cone {
            frame: frame(fr, mm),
            radius: stable_div(*radius, mm),
            semi_angle: *semi_angle,
        },
        Surface::Sphere { frame: fr, radius } => Surface::Sphere {
            frame: frame(fr, mm),
            radius: stable_div(*radius, mm),
        },
        Surface::Torus {
            frame: fr,
            major,
            minor,
        } => Surface::Torus {
            frame: frame(fr, mm),
            major: stable_div(*major, mm),
            minor: stable_div(*minor, mm),
        },
        Surface::Revolution {
            profile,
            axis_origin,
            axis_dir,
        } => Surface::Revolution {
            profile: Box::new(curve3(profile, mm)),
            axis_origin: div3(axis_origin, mm),
            axis_dir: *axis_dir,
        },
        Surface::Extrusion { profile, direction } => Surface::Extrusion {
            profile: Box::new(curve3(profile, mm)),
            direction: *direction,
        },
        Surface::Offset { basis, distance } => Surface::Offset {
            basis: Box::new(surface(basis, mm, step_cones)),
            distance: stable_div(*distance, mm),
        },
        Surface::BSpline(b) => {
            let pts: Vec<[f64; 3]> = b.cw.iter().map(|c| file_pole(c, (mm, mm, mm))).collect();
            let w: Vec<f64> = b.cw.iter().map(|c| c[3]).collect();
            Surface::BSpline(
                NurbsSurface::try_new(
                    b.degree_u,
                    b.degree_v,
                    b.knots_u.clone(),
                    b.knots_v.clone(),
                    b.n_u,
                    b.n_v,
                    &pts,
                    b.rational.then_some(w.as_slice()),
                )
                .unwrap_or_else(|_| b.clone()),
            )
        }
        Surface::Trimmed { basis, u, v } => {
            let (fu, fv) = uv_factors(basis, mm, step_cones);
            Surface::Trimmed {
                basis: Box::new(surface(basis, mm, step_cones)),
                u: (stable_div(u.0, fu), stable_div(u.1, fu)),
                v: (stable_div(v.0, fv), stable_div(v.1, fv)),
            }
        }
    }
}

/// A surface of revolution or extrusion on a non-unit-speed line profile (IGES
/// 110 lines run on `[0, 1]`) made unit-speed: the profile direction divided by
/// its length `L` and the profile parameter (revolution `v`, extrusion `u`)
/// multiplied by `L` in the trim rectangle and in the face's p-curves, so the
/// face is the same point set. STEP lines are unit-speed and the STEP reader
/// measures that parameter in length units. Returns the number of faces changed.
pub fn unit_speed_profiles(m: &mut Model) -> usize {
    fn unit_line(c: &mut Curve) -> Option<f64> {
        if let Curve::Line { dir, .. } = c {
            let l = dir.norm();
            if l.is_finite() && l > 0.0 && !is_unit(dir) {
                *dir /= l;
                return Some(l);
            }
        }
        None
    }
    // factors dividing (u, v): the profile parameter grows by L
    fn fix(s: &mut Surface) -> Option<(f64, f64)> {
        match s {
            Surface::Revolution { profile, .. } => unit_line(profile).map(|l| (1.0, 1.0 / l)),
            Surface::Extrusion { profile, .. } => unit_line(profile).map(|l| (1.0 / l, 1.0)),
            Surface::Trimmed { basis, u, v } => {
                let f = fix(basis)?;
                *u = (u.0 / f.0, u.1 / f.0);
                *v = (v.0 / f.1, v.1 / f.1);
                Some(f)
            }
            _ => None,
        }
    }
    let mut n = 0;
    for f in &mut m.faces {
        if let Some((fu, fv)) = fix(&mut f.surface) {
            n += 1;
            for l in f.outer.iter_mut().chain(f.inner.iter_mut()) {
                for c in &mut l.coedges {
                    c.pcurve = c.pcurve.as_ref().map(|s| segment(s, (fu, fv, 1.0)));
                }
            }
        }
    }
    n
}

/// `model` with every length in its source unit (`model.units`); the Model
/// itself when the unit is the millimetre (or not a usable factor).
pub fn to_file_units(model: &Model) -> std::borrow::Cow<'_, Model> {
    file_units(model, false)
}

/// [`to_file_units`] for STEP: also the `v` of cone faces' p-curves and
/// trim rectangles as STEP's CONICAL_SURFACE measures it, the height along
/// the axis (ISO 10303-42: `C + (R + v tan a)(cos u x + sin u y) + v z`;
/// the Model's cone runs along the generatrix), the inverse of the STEP
/// reader's `param_factors`.
pub fn to_step_units(model: &Model) -> std::borrow::Cow<'_, Model> {
    file_units(model, true)
}

fn file_units(model: &Model, step_cones: bool) -> std::borrow::Cow<'_, Model> {
    fn cone(s: &Surface) -> bool {
        match s {
            Surface::Cone { .. } => true,
            Surface::Offset { basis, .. } | Surface::Trimmed { basis, .. } => cone(basis),
            _ => false,
        }
    }
    let mm = model.units.mm_per_unit;
    let mm = if mm.is_finite() && mm > 0.0 { mm } else { 1.0 };
    if mm == 1.0 && !(step_cones && model.faces.iter().any(|f| cone(&f.surface))) {
        return std::borrow::Cow::Borrowed(model);
    }
    let mut m = model.clone();
    for v in &mut m.vertices {
        v.point = div3(&v.point, mm);
    }
    for b in &mut m.bodies {
        let t = b.placement.iso.translation.vector;
        b.placement.iso.translation.vector = div3(&t, mm);
    }
    m.tolerance = m.tolerance.map(|t| stable_div(t, mm));
    for e in &mut m.edges {
        let k = curve_factor(&e.curve, mm);
        e.curve = curve3(&e.curve, mm);
        e.t0 = stable_div(e.t0, k);
        e.t1 = stable_div(e.t1, k);
    }
    for f in &mut m.faces {
        let (fu, fv) = uv_factors(&f.surface, mm, step_cones);
        f.surface = surface(&f.surface, mm, step_cones);
        for l in f.outer.iter_mut().chain(f.inner.iter_mut()) {
            for c in &mut l.coedges {
                c.pcurve = c.pcurve.as_ref().map(|s| segment(s, (fu, fv, 1.0)));
                c.curve = c.curve.as_ref().map(|s| segment(s, (mm, mm, mm)));
            }
        }
    }
    std::borrow::Cow::Owned(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_div_reads_back_to_itself() {
        for x in [1.0, 0.1, 25.4, 3.3333333333333335, 1e-7, 123456.789, -7.25] {
            for s in [25.4, 304.8, 1000.0, 0.001, 10.0] {
                let y = stable_div(x, s);
                assert_eq!(stable_div(y * s, s), y, "{x} / {s}");
                assert!((y * s - x).abs() <= 4.0 * f64::EPSILON * x.abs());
            }
        }
    }

    #[test]
    fn model_in_inches() {
        let mut m = Model::new(crate::import::model::SourceFormat::Step, "a.step");
        m.units = crate::import::model::Units {
            name: "inch".into(),
            mm_per_unit: 25.4,
        };
        m.vertices.push(crate::import::model::Vertex {
            point: Vec3::new(25.4, 50.8, 0.0),
            source: 0,
        });
        m.edges.push(crate::import::model::Edge {
            curve: Curve::Line {
                origin: Vec3::zeros(),
                dir: Vec3::x(),
            },
            t0: 0.0,
            t1: 50.8,
            start: Some(0),
            end: None,
            faces: vec![],
            source: 0,
        });
        let s = to_file_units(&m);
        assert_eq!(s.vertices[0].point, Vec3::new(1.0, 2.0, 0.0));
        assert_eq!(s.edges[0].t1, 2.0);
    }
}

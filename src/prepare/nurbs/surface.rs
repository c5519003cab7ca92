//! Every Model surface kind as one NURBS over a parameter range: planes,
//! quadrics and tori as rational primitives, surfaces of revolution and
//! extrusion swept from their profile's NURBS, offsets through their exact
//! form (or fitted where they have none), B-splines restricted.

use super::bspline::bspline_nurbs;
use super::curve::curve_nurbs;
use super::offset::offset_surface;
use super::offset_fit::offset_fit;
use super::NurbsError;
use crate::geom::primitives::{self, MappedSurface, ParamMap};
use crate::import::model::Surface;
use crate::prepare::surface_fit;

/// NURBS of `face`'s surface over `range` (face parameters): [`surface_nurbs`]
/// (exact) for every kind and for offsets with a rational form; an offset
/// without one (of a general or ruled B-spline, …) is fitted instead by
/// [`offset_fit`], and the note says so (for the scene's warnings).
pub fn surface_nurbs_noted(
    s: &Surface,
    face: u64,
    range: ((f64, f64), (f64, f64)),
) -> Result<(MappedSurface, Option<String>), NurbsError> {
    if let Surface::Trimmed { basis, .. } = s {
        if let Surface::Offset { .. } = **basis {
            return surface_nurbs_noted(basis, face, trimmed_range(s, range));
        }
    }
    if let Surface::Offset { basis, distance } = s {
        if let Err(what) = offset_surface(basis, *distance, range) {
            let fit = offset_fit(basis, *distance, range).map_err(|why| NurbsError::Unsupported {
                face,
                what: format!("{what} (fitting it failed: {why})"),
            })?;
            let note = format!(
                "prepare: face #{face}: {what} has no rational form; fitted by {}x{} polynomial Bezier patches of degree {} within {:.1e} of the exact offset",
                fit.cells.0,
                fit.cells.1,
                surface_fit::DEGREE,
                fit.max_error
            );
            let m = MappedSurface {
                surface: fit.surface,
                u_map: ParamMap::Identity,
                v_map: ParamMap::Identity,
            };
            return Ok((m, Some(note)));
        }
    }
    surface_nurbs(s, face, range).map(|m| (m, None))
}

/// Exact NURBS of `face`'s surface over `range` (face parameters).
pub fn surface_nurbs(s: &Surface, face: u64, range: ((f64, f64), (f64, f64))) -> Result<MappedSurface, NurbsError> {
    let (u, v) = range;
    if !(u.0.is_finite() && u.1.is_finite() && v.0.is_finite() && v.1.is_finite() && u.1 > u.0 && v.1 > v.0) {
        return Err(NurbsError::Range { face, range });
    }
    let g = |e| NurbsError::Geom { face, source: e };
    match s {
        Surface::Plane { frame } => primitives::plane_patch(frame, u, v).map_err(g),
        Surface::Cylinder { frame, radius } => primitives::cylinder(frame, *radius, u, v).map_err(g),
        Surface::Cone {
            frame,
            radius,
            semi_angle,
        } => primitives::cone(frame, *radius, *semi_angle, u, v).map_err(g),
        Surface::Sphere { frame, radius } => primitives::sphere(frame, *radius, u, v).map_err(g),
        Surface::Torus { frame, major, minor } => primitives::torus(frame, *major, *minor, u, v).map_err(g),
        Surface::Revolution {
            profile,
            axis_origin,
            axis_dir,
        } => {
            let (c, map) = curve_nurbs(profile, v).map_err(|what| NurbsError::Unsupported {
                face,
                what: format!("revolution of a {what}"),
            })?;
            let mut m = primitives::revolve(&c, *axis_origin, *axis_dir, u).map_err(g)?;
            m.v_map = map;
            Ok(m)
        }
        Surface::Extrusion { profile, direction } => {
            let (c, map) = curve_nurbs(profile, u).map_err(|what| NurbsError::Unsupported {
                face,
                what: format!("extrusion of a {what}"),
            })?;
            let mut m = primitives::extrude(&c, *direction, v).map_err(g)?;
            m.u_map = map;
            Ok(m)
        }
        Surface::Offset { basis, distance } => {
            let exact =
                offset_surface(basis, *distance, range).map_err(|what| NurbsError::Unsupported { face, what })?;
            surface_nurbs(&exact, face, range)
        }
        Surface::BSpline(b) => bspline_nurbs(s, b, face, range),
        Surface::Trimmed { basis, .. } => surface_nurbs(basis, face, trimmed_range(s, range)),
    }
}

/// `range` within the trim box of a [`Surface::Trimmed`], except in a
/// direction where the trim spans a whole period (the trimmed surface is
/// closed there: see [`Surface::periods`]), which keeps `range` (a window
/// across the seam).
fn trimmed_range(s: &Surface, range: ((f64, f64), (f64, f64))) -> ((f64, f64), (f64, f64)) {
    let Surface::Trimmed { u: tu, v: tv, .. } = s else {
        return range;
    };
    let (pu, pv) = s.periods();
    let cut = |r: (f64, f64), t: &(f64, f64), closed: bool| if closed { r } else { (r.0.max(t.0), r.1.min(t.1)) };
    (cut(range.0, tu, pu.is_some()), cut(range.1, tv, pv.is_some()))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{check, frame};
    use super::*;
    use crate::geom::{Frame, Vec3};
    use crate::import::model::Curve;
    use std::f64::consts::{FRAC_PI_2, PI, TAU};

    #[test]
    fn analytic_surfaces_match_eval() {
        let f = frame();
        check(&Surface::Plane { frame: f }, ((-1.0, 2.0), (0.5, 3.0)));
        check(&Surface::Cylinder { frame: f, radius: 2.5 }, ((0.3, 5.0), (-1.0, 4.0)));
        check(&Surface::Cylinder { frame: f, radius: 2.5 }, ((0.0, TAU), (0.0, 1.0)));
        check(
            &Surface::Cone {
                frame: f,
                radius: 2.0,
                semi_angle: 0.4,
            },
            ((0.0, 4.0), (-1.0, 2.0)),
        );
        check(
            &Surface::Sphere { frame: f, radius: 3.0 },
            ((0.0, TAU), (-FRAC_PI_2, FRAC_PI_2)),
        );
        check(
            &Surface::Torus {
                frame: f,
                major: 5.0,
                minor: 1.5,
            },
            ((0.5, TAU), (-PI, PI)),
        );
        check(
            &Surface::Offset {
                basis: Box::new(Surface::Sphere { frame: f, radius: 3.0 }),
                distance: 0.5,
            },
            ((0.0, 3.0), (-1.0, 1.0)),
        );
        let prof = Curve::Circle {
            frame: Frame::from_axis_ref(Vec3::new(4.0, 0.0, 0.0), Vec3::y(), Some(Vec3::x())).unwrap(),
            radius: 1.0,
        };
        check(
            &Surface::Revolution {
                profile: Box::new(prof.clone()),
                axis_origin: Vec3::zeros(),
                axis_dir: Vec3::z(),
            },
            ((0.0, 4.0), (0.5, 5.0)),
        );
        check(
            &Surface::Extrusion {
                profile: Box::new(prof),
                direction: Vec3::new(0.0, 0.0, 1.0),
            },
            ((0.2, 3.0), (-1.0, 2.0)),
        );
    }

    #[test]
    fn a_trim_spanning_a_whole_turn_stays_closed() {
        // an IGES 120 revolution from 0 to 6.2831853 (nist_144 DE5): a
        // window across the seam converts exactly
        let rev = Surface::Revolution {
            profile: Box::new(Curve::Line {
                origin: Vec3::new(-10.0, 0.0, 0.0),
                dir: Vec3::new(10.0, 0.0, 10.0),
            }),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        };
        // the file's 6.2831853, 3e-8 short of 2π
        let file_turn = TAU - 3.0717958647e-8;
        let whole = Surface::Trimmed {
            basis: Box::new(rev.clone()),
            u: (0.0, file_turn),
            v: (0.0, 1.0),
        };
        assert_eq!(whole.periods(), (Some(TAU), None));
        check(&whole, ((-0.5, TAU - 0.5), (0.2, 0.8)));
        let m = surface_nurbs(&whole, 1, ((-0.5, TAU - 0.5), (0.0, 1.0))).unwrap();
        let (a, _) = m.to_param(-0.5, 0.5);
        let p = m.surface.eval(a, m.to_param(-0.5, 0.5).1);
        assert!((p - whole.eval_derivs(-0.5, 0.5).p).norm() < 1e-9);
        // a trim short of a turn bounds the surface
        let part = Surface::Trimmed {
            basis: Box::new(rev),
            u: (0.0, PI),
            v: (0.0, 1.0),
        };
        assert_eq!(part.periods(), (None, None));
    }
}

//! Exact NURBS conversion of the Model's surfaces over a face's parameter
//! range, keeping the map between the face (Open CASCADE) parameters and the
//! NURBS parameters (angular directions are rational quadratic arcs whose
//! parameter is not the angle, see [`crate::geom::primitives`]).
//!
//! One concept per file:
//! - this file: a face's surface as one NURBS over its range
//!   ([`FaceNurbs`], [`face_nurbs`]) and the errors;
//! - `range.rs`: the face's parameter range ([`face_range`]);
//! - `surface.rs`: every surface kind as a NURBS over a range
//!   ([`surface_nurbs`], [`surface_nurbs_noted`]);
//! - `bspline.rs`: B-spline surfaces over a range (unrolled across a seam,
//!   restricted by knot insertion);
//! - `curve.rs`: exact NURBS of 3-D curves ([`curve_nurbs`]), the profiles
//!   of swept surfaces and the trim curves;
//! - `offset.rs`: offsets with an exact (rational) form
//!   ([`offset_surface`]);
//! - `offset_fit.rs`: offsets without one, fitted ([`offset_fit`]).

mod bspline;
mod curve;
mod offset;
mod offset_fit;
mod range;
mod surface;

pub(crate) use curve::composite_parts;
pub use curve::{conic_image_nurbs, curve_image_nurbs, curve_nurbs};
pub use offset::offset_surface;
pub use offset_fit::{offset_fit, OFFSET_FIT_TOL};
pub use range::{face_range, face_range_of, face_range_within, holes_only};
pub use surface::{surface_nurbs, surface_nurbs_noted};

use crate::geom::primitives::MappedSurface;
use crate::geom::Vec3;
use crate::import::eval::FaceTrim;
use crate::import::model::{Face, Model};
use thiserror::Error;

/// Why a surface or curve has no exact NURBS form here.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NurbsError {
    /// The surface kind (or this offset of it) is not representable.
    #[error("face #{face}: {what} has no exact NURBS conversion")]
    Unsupported {
        /// Source id of the face.
        face: u64,
        /// What was met.
        what: String,
    },
    /// The primitive construction failed (degenerate radius, empty range, …).
    #[error("face #{face}: {source}")]
    Geom {
        /// Source id of the face.
        face: u64,
        /// The geometry error.
        source: crate::geom::GeomError,
    },
    /// The face's parameter range is empty or unbounded.
    #[error("face #{face}: parameter range {range:?} is empty or unbounded")]
    Range {
        /// Source id of the face.
        face: u64,
        /// `((u0,u1),(v0,v1))`.
        range: ((f64, f64), (f64, f64)),
    },
}

/// A face's surface as one NURBS surface over the face's parameter range.
#[derive(Debug, Clone)]
pub struct FaceNurbs {
    /// The NURBS with its parameter maps (face parameter → NURBS parameter).
    pub mapped: MappedSurface,
    /// Face parameter range covered, `((u0,u1),(v0,v1))`.
    pub range: ((f64, f64), (f64, f64)),
    /// Set when the NURBS is not exact (a fitted offset): what was done and
    /// the measured deviation, for the scene's warnings.
    pub note: Option<String>,
}

impl FaceNurbs {
    /// NURBS parameters of face parameters `(u, v)`.
    pub fn to_nurbs(&self, u: f64, v: f64) -> (f64, f64) {
        self.mapped.to_param(u, v)
    }
    /// Face parameters of NURBS parameters `(s, t)`.
    pub fn to_face(&self, s: f64, t: f64) -> (f64, f64) {
        self.mapped.to_analytic(s, t)
    }
}

/// Exact NURBS of one face over its parameter range.
pub fn face_nurbs(model: &Model, face: &Face) -> Result<FaceNurbs, NurbsError> {
    face_nurbs_of(face, &FaceTrim::new(model, face))
}

/// [`face_nurbs`] from the face's already sampled trims.
pub fn face_nurbs_of(face: &Face, trim: &FaceTrim) -> Result<FaceNurbs, NurbsError> {
    face_nurbs_within(face, trim, None)
}

/// [`face_nurbs_of`] over [`face_range_within`] (the exact trims' extent).
pub fn face_nurbs_within(
    face: &Face,
    trim: &FaceTrim,
    exact: Option<((f64, f64), (f64, f64))>,
) -> Result<FaceNurbs, NurbsError> {
    let range = face_range_within(face, trim, exact);
    let (mapped, note) = surface_nurbs_noted(&face.surface, face.source, range)?;
    Ok(FaceNurbs { mapped, range, note })
}

/// Unit outward normal of `face` at face parameters `(u, v)` (zero where degenerate).
pub fn outward_normal(face: &Face, u: f64, v: f64) -> Vec3 {
    let d = face.surface.eval_derivs(u, v);
    let n = d.su.cross(&d.sv);
    let l = n.norm();
    if !(l > 0.0) {
        return Vec3::zeros();
    }
    let n = n / l;
    if face.same_sense {
        n
    } else {
        -n
    }
}

/// Helpers of the unit tests of the conversions.
#[cfg(test)]
mod test_support {
    use crate::geom::{Frame, Vec3};
    use crate::import::model::Surface;

    /// A tilted frame off the origin.
    pub(super) fn frame() -> Frame {
        Frame::from_axis_ref(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.2, 1.0), Some(Vec3::x())).unwrap()
    }

    /// Checks [`surface_nurbs`](super::surface_nurbs) of `s` over `range`
    /// against the Model's evaluation at 8 × 8 points (1e-9 relative).
    pub(super) fn check(s: &Surface, range: ((f64, f64), (f64, f64))) {
        let m = super::surface_nurbs(s, 1, range).unwrap();
        let ((u0, u1), (v0, v1)) = range;
        for i in 0..=7 {
            for j in 0..=7 {
                let u = u0 + (u1 - u0) * i as f64 / 7.0;
                let v = v0 + (v1 - v0) * j as f64 / 7.0;
                let (a, b) = m.to_param(u, v);
                let p = m.surface.eval(a, b);
                let q = s.eval(u, v);
                let scale = 1.0 + q.norm();
                assert!((p - q).norm() <= 1e-9 * scale, "{s:?} at ({u},{v}): {p:?} vs {q:?}");
            }
        }
    }
}

//! Evaluation of the Model's [`Surface`](crate::import::model::Surface) and
//! [`Curve`](crate::import::model::Curve) enums (point and first and second
//! derivatives, in the parameterisations documented on each variant), point
//! projection onto curves and surfaces (grid seed + Newton, closed forms for
//! the analytic cases), and a point-in-face test against the face's trim
//! loops in parameter space.
//!
//! - `curve`: evaluation of curves and curve segments;
//! - `surface`: evaluation of surfaces, their periods and natural bounds;
//! - `projection`: foot points on surfaces and curves ([`project`],
//!   [`project_surface`], [`curve_param_of`]);
//! - `point_in_face`: the trim loops in parameter space and the
//!   point-in-face test ([`FaceTrim`]);
//! - `holes_only`: faces of closed surfaces bounded by holes only
//!   ([`all_holes`]);
//! - `creases`: the C0 parameter lines of a surface ([`surface_creases`]);
//! - `chord_refine`: the loops' chords split where they leave the curve's
//!   image in parameter space (near a pole).
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

mod chord_refine;
mod creases;
mod curve;
mod holes_only;
mod point_in_face;
mod projection;
mod surface;
#[cfg(test)]
mod test_shapes;

pub use creases::{c0_knots, curve_corners, surface_creases};
pub use holes_only::{all_holes, is_hole, without_rim};
pub use point_in_face::{break_samples, fractions_of_samples, sample_fractions, CoedgeSpan, FaceTrim};
pub use projection::{
    curve_param_in_range, curve_param_of, curve_param_toward, distance_to_curve_range, newton_curve, newton_surface, newton_surface_counted, project, project_surface, Projection,
    SurfaceProjection,
};

/// A parameter interval `(lo, hi)`.
pub type Range = (f64, f64);

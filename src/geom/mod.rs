//! Geometry: exact NURBS / rational Bézier evaluation with first and second
//! derivatives, rigid frames and twists.
//!
//! Everything on the runtime path here is allocation-free: evaluation works on
//! flat arrays of homogeneous control points (`[w·x, w·y, w·z, w]`) and fixed-size
//! stack buffers for the basis functions (degrees `1..=MAX_DEGREE`).
//!
//! Formulas (docs/architecture.md, "Evaluation"): with `f = A/W`,
//! `f_u = (A_u − W_u f)/W`, `f_uu = (A_uu − 2 W_u f_u − W_uu f)/W`,
//! `f_uv = (A_uv − W_u f_v − W_v f_u − W_uv f)/W`.
//!
//! All SIMD is in `simd` (the AVX2 + FMA kernels and the safe run-time
//! dispatch to them), the one module of `geom` and of the trackers that
//! holds unchecked code.

internal! {
    mod basis;
    mod bernstein;
    mod bez2;
    mod curve;
    mod curve_foot;
    mod error;
    mod frame;
    mod knots;
    mod polygon;
    mod primitives;
    mod simd;
    mod span_curve;
    mod surface;
    #[cfg(feature = "toolchain")]
    mod truck_conv;
}
// Reference geometry for the tests, benches and the `demo` command.
#[cfg(feature = "reference")]
pub mod fixtures;
#[cfg(all(not(feature = "reference"), any(test, feature = "toolchain")))]
pub(crate) mod fixtures;

pub use basis::{find_span, MAX_DEGREE};
pub use curve::{CurvePoint, NurbsCurve};
pub use error::GeomError;
#[cfg(feature = "reference")]
pub use fixtures::table1_patch;
pub use frame::{Frame, Pose, Twist};
pub use knots::{BezierCurveSpan, BezierPatch};
pub use primitives::{ArcMap, MappedCurve, MappedSurface, ParamMap};
pub use span_curve::{CurveEval, SpanCurve};
pub use surface::{NurbsSurface, SpanTable, SurfacePoint};

/// 3-vector of `f64` (positions, directions, derivatives), millimetres.
pub type Vec3 = nalgebra::Vector3<f64>;
/// Homogeneous (weighted) control point `[w·x, w·y, w·z, w]`.
pub type Hpoint = [f64; 4];

//! Trackers: the controllers of the seeds on patches and curves.
//!
//! - `core`: the shared box-constrained controller (laws, saturation, integrators);
//! - `point_patch`: point–patch (PG-GUAS eq. 1/3, feedback linearisation, hybrid, Newton);
//! - [`gains`]: discrete stability window and the motion lower bound (PG-GUAS Theorem 1);
//! - `motion`: poses, twists and relative velocities;
//! - [`status`]: the verification status of answers (the scene's self-check).

internal! {
    mod batch_order;
    mod body;
    mod body_pair;
    mod cold;
    mod config;
    mod core;
    mod coupler;
    mod curves;
    mod far;
    mod motion;
    mod orient;
    mod patch_foot;
    mod patch_pair;
    mod point_body;
    mod point_patch;
}
pub mod gains;
// Brute-force oracles of the trackers: verification only.
#[cfg(feature = "reference")]
pub mod brute;
#[cfg(all(test, not(feature = "reference")))]
mod brute;
// Scripted motions of the tests, benches and the `demo` command.
#[cfg(feature = "reference")]
pub mod scenarios;
#[cfg(all(not(feature = "reference"), any(test, feature = "toolchain")))]
pub(crate) mod scenarios;
pub mod status;

pub use body::{BodyError, BodyGeom, TrackScene};
pub use body_pair::{body_distance, BodyPairResult, BodyPairTracker};
pub use config::{ControlLaw, Integrator, Mode, TrackError, TrackerConfig};
pub use coupler::{CouplerConfig, CouplerOutput, HapticCoupler};
pub use curves::{CurvePairTracker, CurvePairWitness, CurveWitness, PointCurveTracker};
pub use motion::{BodyState, PointState};
pub use patch_pair::{PairWitness, PatchPairTracker};
#[cfg(feature = "toolchain")]
pub(crate) use point_body::closest_points_with;
pub use point_body::{closest_point, closest_points, PointBodyResult, PointBodyTracker, Target};
pub use point_patch::{PatchWitness, PointPatchTracker};
pub use status::{AnswerStatus, BodyStatus};

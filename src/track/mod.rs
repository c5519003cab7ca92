//! Trackers: the controllers of the seeds on patches and curves.
//!
//! - [`core`]: the shared box-constrained controller (laws, saturation, integrators);
//! - [`point_patch`]: point–patch (PG-GUAS eq. 1/3, feedback linearisation, hybrid, Newton);
//! - [`gains`]: discrete stability window and the motion lower bound (PG-GUAS Theorem 1);
//! - [`motion`]: poses, twists and relative velocities;
//! - [`status`]: the verification status of answers (the scene's self-check).

pub mod body;
pub mod body_pair;
pub mod brute;
pub mod config;
pub mod core;
pub mod coupler;
pub mod curves;
pub mod far;
pub mod gains;
pub mod motion;
pub mod patch_foot;
pub mod patch_pair;
pub mod point_body;
pub mod point_patch;
pub mod scenarios;
pub mod status;

pub use body::{BodyError, BodyGeom, TrackScene};
pub use body_pair::{body_distance, BodyPairResult, BodyPairTracker};
pub use config::{ControlLaw, Integrator, Mode, TrackError, TrackerConfig};
pub use coupler::{CouplerConfig, CouplerOutput, HapticCoupler};
pub use curves::{CurvePairTracker, CurvePairWitness, CurveWitness, PointCurveTracker};
pub use motion::{BodyState, PointState};
pub use patch_pair::{PairWitness, PatchPairTracker};
pub use point_body::{closest_point, closest_points, PointBodyResult, PointBodyTracker, Target};
pub use point_patch::{PatchWitness, PointPatchTracker};
pub use status::{AnswerStatus, BodyStatus};

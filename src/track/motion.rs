//! Relative motion of a query point with respect to a moving body.

use crate::geom::{Pose, Twist, Vec3};

use super::config::TrackError;

/// Pose and twist of a rigid body at one instant (body frame → world).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyState {
    /// Pose: body coordinates → world.
    pub pose: Pose,
    /// Twist in world coordinates.
    pub twist: Twist,
}

impl BodyState {
    /// A body at rest at `pose`.
    pub fn at(pose: Pose) -> Self {
        Self {
            pose,
            twist: Twist::zero(),
        }
    }
    /// Validates finiteness and rigidity (unit quaternion to 1e-9).
    pub fn validate(&self) -> Result<(), TrackError> {
        if !self.pose.is_finite() {
            return Err(TrackError::NonFinite("pose"));
        }
        if !self.twist.is_finite() {
            return Err(TrackError::NonFinite("twist"));
        }
        let n = self.pose.iso.rotation.coords.norm();
        if (n - 1.0).abs() > 1e-9 {
            return Err(TrackError::NotRigid);
        }
        Ok(())
    }
}

/// A query point and its world velocity.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PointState {
    /// World position, mm.
    pub q: Vec3,
    /// World velocity, mm/s.
    pub q_dot: Vec3,
}

impl PointState {
    /// A point at rest.
    pub fn at(q: Vec3) -> Self {
        Self {
            q,
            q_dot: Vec3::zeros(),
        }
    }
    /// Validates finiteness.
    pub fn validate(&self) -> Result<(), TrackError> {
        let (q, v) = (&self.q, &self.q_dot);
        // finite iff every component is (a NaN or infinity poisons the sum)
        if !(q.x + q.y + q.z + v.x + v.y + v.z).is_finite() {
            return Err(TrackError::NonFinite("query point"));
        }
        Ok(())
    }
    /// Position and velocity relative to `body`, in body coordinates.
    #[inline]
    pub fn in_body(&self, body: &BodyState) -> (Vec3, Vec3) {
        let qb = body.pose.inverse_transform_point(&self.q);
        let rel = self.q_dot - body.twist.velocity_at(&self.q);
        (qb, body.pose.inverse_transform_vector(&rel))
    }
}

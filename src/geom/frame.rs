//! Rigid poses and twists (body motion) used by every tracker.

use super::{GeomError, Vec3};
use nalgebra::{Isometry3, Translation3, UnitQuaternion};

/// A rigid pose: maps body coordinates to world coordinates (`x_w = R x_b + t`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// The isometry (rotation + translation).
    pub iso: Isometry3<f64>,
}

impl Default for Pose {
    fn default() -> Self {
        Self::identity()
    }
}

impl Pose {
    /// The identity pose.
    pub fn identity() -> Self {
        Self {
            iso: Isometry3::identity(),
        }
    }
    /// Pose from a translation and a unit quaternion.
    pub fn from_parts(t: Vec3, q: UnitQuaternion<f64>) -> Self {
        Self {
            iso: Isometry3::from_parts(Translation3::from(t), q),
        }
    }
    /// Pose from a translation and an axis-angle vector (radians).
    pub fn from_translation_axis_angle(t: Vec3, axis_angle: Vec3) -> Self {
        Self::from_parts(t, UnitQuaternion::from_scaled_axis(axis_angle))
    }
    /// World coordinates of a body point.
    #[inline]
    pub fn transform_point(&self, p: &Vec3) -> Vec3 {
        self.iso.rotation * p + self.iso.translation.vector
    }
    /// World coordinates of a body vector (rotation only).
    #[inline]
    pub fn transform_vector(&self, v: &Vec3) -> Vec3 {
        self.iso.rotation * v
    }
    /// Body coordinates of a world point.
    #[inline]
    pub fn inverse_transform_point(&self, p: &Vec3) -> Vec3 {
        self.iso
            .rotation
            .inverse_transform_vector(&(p - self.iso.translation.vector))
    }
    /// Body coordinates of a world vector.
    #[inline]
    pub fn inverse_transform_vector(&self, v: &Vec3) -> Vec3 {
        self.iso.rotation.inverse_transform_vector(v)
    }
    /// True when every component is finite.
    pub fn is_finite(&self) -> bool {
        let t = &self.iso.translation.vector;
        let q = &self.iso.rotation.coords;
        // a sum of finite values is finite; any NaN or infinity poisons it
        // (overflow of ~1e308 inputs is rejected too, which is intended)
        (t.x + t.y + t.z + q.x + q.y + q.z + q.w).is_finite()
    }
}

/// Twist of a rigid body in world coordinates: angular velocity `omega` (rad/s)
/// and the linear velocity `v` (mm/s) of the body point at the world origin, so
/// that a body point at world position `x` moves with `v + omega × x`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Twist {
    /// Angular velocity, rad/s.
    pub omega: Vec3,
    /// Linear velocity of the body point currently at the world origin, mm/s.
    pub v: Vec3,
}

impl Twist {
    /// A twist that is zero.
    pub fn zero() -> Self {
        Self::default()
    }
    /// Velocity of the body point currently at world position `x`.
    #[inline]
    pub fn velocity_at(&self, x: &Vec3) -> Vec3 {
        self.v + self.omega.cross(x)
    }
    /// Twist of a body whose frame origin `c` moves with `v_c` and spins with `omega`.
    pub fn about_point(omega: Vec3, c: Vec3, v_c: Vec3) -> Self {
        Self {
            omega,
            v: v_c - omega.cross(&c),
        }
    }
    /// True when every component is finite.
    pub fn is_finite(&self) -> bool {
        let (w, v) = (&self.omega, &self.v);
        (w.x + w.y + w.z + v.x + v.y + v.z).is_finite()
    }
}

/// An orthonormal right-handed frame (origin and axes), in mm: placements of
/// analytic surfaces and primitives (`x`, `y` reference directions, `z` the
/// main axis or normal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Origin.
    pub origin: Vec3,
    /// X axis (reference direction), unit.
    pub x: Vec3,
    /// Y axis = z × x, unit.
    pub y: Vec3,
    /// Z axis (main axis / normal), unit.
    pub z: Vec3,
}

impl Default for Frame {
    fn default() -> Self {
        Self {
            origin: Vec3::zeros(),
            x: Vec3::x(),
            y: Vec3::y(),
            z: Vec3::z(),
        }
    }
}

impl Frame {
    /// The world frame.
    pub fn world() -> Self {
        Self {
            origin: Vec3::zeros(),
            x: Vec3::x(),
            y: Vec3::y(),
            z: Vec3::z(),
        }
    }

    pub(crate) fn check(&self) -> Result<(), GeomError> {
        let vs = [self.origin, self.x, self.y, self.z];
        if vs.iter().any(|v| !v.iter().all(|c| c.is_finite())) {
            return Err(GeomError::NonFinite("axes"));
        }
        if [self.x, self.y, self.z].iter().any(|v| v.norm() == 0.0) {
            return Err(GeomError::Primitive("zero axis vector"));
        }
        Ok(())
    }

    /// Frame from an origin, a main axis and an approximate reference direction
    /// (orthogonalised; a parallel or missing reference picks an arbitrary one).
    /// Returns `None` when `axis` is zero or not finite.
    ///
    /// Idempotent: an axis already of unit length and a reference already
    /// orthogonal to it, both within round-off, are kept bit for bit (not
    /// normalised or projected again), so a frame written with its axes and
    /// read back is the same frame, and a second export of a file is
    /// byte-identical to the first.
    pub fn from_axis_ref(origin: Vec3, axis: Vec3, reference: Option<Vec3>) -> Option<Self> {
        let n = axis.norm();
        if !(n.is_finite() && n > 0.0 && origin.iter().all(|c| c.is_finite())) {
            return None;
        }
        let z = unit_within_round_off(axis);
        let mut x = reference
            .map(|r| {
                let d = r.dot(&z);
                if d.abs() <= ROUND_OFF * r.norm() {
                    r
                } else {
                    // projected twice: one projection of a reference near
                    // the axis leaves it off the plane by more than round-off
                    // (and a re-read would project it again)
                    let x = r - z * d;
                    x - z * x.dot(&z)
                }
            })
            .unwrap_or_else(Vec3::zeros);
        if !(x.norm() > 1e-12) || !x.iter().all(|c| c.is_finite()) {
            // any direction perpendicular to z
            let a = if z.x.abs() < 0.9 { Vec3::x() } else { Vec3::y() };
            x = a - z * a.dot(&z);
        }
        let x = unit_within_round_off(x);
        Some(Self {
            origin,
            x,
            y: z.cross(&x),
            z,
        })
    }
    /// Local `(a, b, c)` to world: `origin + a x + b y + c z`.
    #[inline]
    pub fn at(&self, a: f64, b: f64, c: f64) -> Vec3 {
        self.origin + self.x * a + self.y * b + self.z * c
    }
}

/// How far from unit length (squared) or from orthogonal (relative) a
/// vector may be and still count as exact: a few units of round-off.
const ROUND_OFF: f64 = 8.0 * f64::EPSILON;

/// `v` normalised, or `v` itself when it is of unit length within
/// round-off (normalising it again would only move its last bits).
fn unit_within_round_off(v: Vec3) -> Vec3 {
    if (v.norm_squared() - 1.0).abs() <= ROUND_OFF {
        v
    } else {
        v.normalize()
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A frame built from its own axes is the same frame bit for bit
        /// (what a STEP export and its re-import do), and its axes are
        /// orthonormal within round-off.
        #[test]
        fn a_frame_from_its_own_axes_is_itself(
            a in prop::array::uniform3(-1.0f64..1.0),
            r in prop::array::uniform3(-1.0f64..1.0),
            s in 1e-3f64..1e3,
        ) {
            let (axis, reference) = (Vec3::from(a) * s, Vec3::from(r));
            // the reference at least ~6° off the axis (orthogonality within
            // round-off over the sine of that angle)
            prop_assume!(reference.cross(&axis).norm() > 0.1 * axis.norm() * reference.norm());
            let f = Frame::from_axis_ref(Vec3::new(1.0, 2.0, 3.0), axis, Some(reference)).unwrap();
            prop_assert!((f.x.norm() - 1.0).abs() < 1e-15 && (f.z.norm() - 1.0).abs() < 1e-15);
            prop_assert!(f.x.dot(&f.z).abs() < 1e-14);
            let g = Frame::from_axis_ref(f.origin, f.z, Some(f.x)).unwrap();
            prop_assert_eq!(g.x, f.x);
            prop_assert_eq!(g.z, f.z);
            prop_assert_eq!(g.y, f.y);
        }
    }

    /// A reference off the orthogonal plane by more than round-off is still
    /// projected onto it.
    #[test]
    fn a_slanted_reference_is_orthogonalised() {
        let f = Frame::from_axis_ref(Vec3::zeros(), Vec3::new(0.0, 0.0, 2.0), Some(Vec3::new(1.0, 0.0, 1e-9))).unwrap();
        assert_eq!(f.x, Vec3::new(1.0, 0.0, 0.0));
        assert_eq!(f.z, Vec3::new(0.0, 0.0, 1.0));
    }
}

//! Plain C structs shared by the entry points (vectors, poses, twists, boxes)
//! and their checked conversions to the Rust types.
//!
//! Units everywhere: millimetres, seconds, radians. Every input is checked
//! (finite numbers, unit quaternion, rigid matrix) before it reaches the Rust
//! API; a failed check is `EXT_INVALID_ARGUMENT` naming the argument.

use super::error::{guard, CResult, Failure};
use crate::geom::{Pose, Twist, Vec3};
use crate::track::BodyState;
use nalgebra::{Matrix3, Quaternion, Rotation3, UnitQuaternion};

use super::error::ext_status;

/// A 3-vector (a point in mm, a velocity in mm/s, a force in N, …).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[allow(non_camel_case_types)]
pub struct ext_vec3 {
    /// x component.
    pub x: f64,
    /// y component.
    pub y: f64,
    /// z component.
    pub z: f64,
}

/// A quaternion `w + x i + y j + z k`; as an orientation it must have unit
/// norm (to 1e-6; it is renormalised, except that the tracker updates take
/// one within 1e-9 of unit norm as given).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_quat {
    /// Scalar part.
    pub w: f64,
    /// i component.
    pub x: f64,
    /// j component.
    pub y: f64,
    /// k component.
    pub z: f64,
}

/// A rigid pose mapping body-local coordinates to world coordinates:
/// `x_world = R(orientation) * x_body + position`. Build it from a 4×4 matrix
/// with `ext_pose_from_matrix`; the identity is `{{0,0,0},{1,0,0,0}}`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_pose {
    /// Translation (world position of the body frame origin), mm.
    pub position: ext_vec3,
    /// Rotation as a unit quaternion.
    pub orientation: ext_quat,
}

/// Velocity of a rigid body in world coordinates.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[allow(non_camel_case_types)]
pub struct ext_twist {
    /// Angular velocity, rad/s, world axes.
    pub angular: ext_vec3,
    /// Linear velocity of the body frame origin (the pose's `position`), mm/s.
    pub linear: ext_vec3,
}

/// An axis-aligned bounding box, mm.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[allow(non_camel_case_types)]
pub struct ext_aabb {
    /// Minimum corner.
    pub min: ext_vec3,
    /// Maximum corner (`max >= min` componentwise).
    pub max: ext_vec3,
}

impl From<Vec3> for ext_vec3 {
    fn from(v: Vec3) -> Self {
        Self { x: v.x, y: v.y, z: v.z }
    }
}

impl From<[f64; 3]> for ext_vec3 {
    fn from(v: [f64; 3]) -> Self {
        Self {
            x: v[0],
            y: v[1],
            z: v[2],
        }
    }
}

impl ext_vec3 {
    /// The vector as is, for inputs the Rust API validates itself (the
    /// trackers reject non-finite points and poses with a clear error).
    #[inline]
    pub(crate) fn vec(&self) -> Vec3 {
        Vec3::new(self.x, self.y, self.z)
    }
    /// The vector, or `EXT_INVALID_ARGUMENT` naming `what` when a component is not finite.
    #[inline]
    pub(crate) fn checked(&self, what: &str) -> CResult<Vec3> {
        // a NaN or an infinity poisons the sum (overflowing ~1e308 inputs are rejected too)
        if (self.x + self.y + self.z).is_finite() {
            Ok(Vec3::new(self.x, self.y, self.z))
        } else {
            Err(Failure::invalid(format_args!("`{what}` has a non-finite component")))
        }
    }
}

/// Largest accepted deviation of an orientation quaternion's norm from 1.
const QUAT_NORM_TOL: f64 = 1e-6;
/// Largest accepted deviation of `RᵀR` from the identity (per entry) for a matrix pose.
const MATRIX_RIGID_TOL: f64 = 1e-6;

impl ext_pose {
    /// The identity pose.
    pub(crate) const IDENTITY: ext_pose = ext_pose {
        position: ext_vec3 { x: 0.0, y: 0.0, z: 0.0 },
        orientation: ext_quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };

    /// The Rust pose, checking finiteness and the unit norm (renormalised
    /// unless already unit to rounding).
    #[inline]
    pub(crate) fn checked(&self, what: &str) -> CResult<Pose> {
        let pose = self.unit(what)?;
        if !pose.is_finite() {
            return Err(Failure::invalid(format_args!("`{what}` has a non-finite component")));
        }
        Ok(pose)
    }

    /// The Rust pose with its quaternion checked for unit norm and
    /// renormalised (unless unit to rounding); the translation is not checked
    /// (for the trackers, which validate the pose themselves).
    #[inline]
    pub(crate) fn unit(&self, what: &str) -> CResult<Pose> {
        let q = &self.orientation;
        let n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
        // |n² − 1| ≤ 4 ε: unit to rounding (false for NaN), no renormalisation needed
        let coords = if (n2 - 1.0).abs() <= 4.0 * f64::EPSILON {
            Quaternion::new(q.w, q.x, q.y, q.z)
        } else {
            let n = n2.sqrt();
            if !((n - 1.0).abs() <= QUAT_NORM_TOL) {
                return Err(Failure::invalid(format_args!(
                    "`{what}` orientation is not a unit quaternion (norm {n})"
                )));
            }
            Quaternion::new(q.w / n, q.x / n, q.y / n, q.z / n)
        };
        Ok(Pose::from_parts(
            self.position.vec(),
            UnitQuaternion::new_unchecked(coords),
        ))
    }
}

impl From<&Pose> for ext_pose {
    fn from(p: &Pose) -> Self {
        let q = p.iso.rotation.quaternion();
        ext_pose {
            position: p.iso.translation.vector.into(),
            orientation: ext_quat {
                w: q.w,
                x: q.i,
                y: q.j,
                z: q.k,
            },
        }
    }
}

/// The Rust body state from a pose (NULL: identity) and an optional twist
/// (NULL: at rest), for the trackers: the quaternion is checked and
/// renormalised here, finiteness is checked by the tracker itself.
///
/// This runs on every servo tick, so the common case (a quaternion that is
/// unit to rounding) is inline and branch-light; renormalisation and the
/// error message are out of line.
#[inline(always)]
pub(crate) fn body_state(pose: Option<&ext_pose>, twist: Option<&ext_twist>) -> CResult<BodyState> {
    match pose {
        Some(p) if !unit_or_null(pose) => {
            let p = renormalised(p)?;
            Ok(body_state_unit(Some(&ext_pose::from(&p)), twist))
        }
        _ => Ok(body_state_unit(pose, twist)),
    }
}

/// True when `pose` is NULL or its quaternion is unit to rounding, so that
/// [`body_state_unit`] applies.
#[inline(always)]
pub(crate) fn unit_or_null(pose: Option<&ext_pose>) -> bool {
    match pose {
        None => true,
        Some(p) => {
            let q = &p.orientation;
            ((q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z) - 1.0).abs() <= 4.0 * f64::EPSILON
        }
    }
}

/// A body at rest where its scene put it (a NULL pose and a NULL twist),
/// built at compile time: the servo tick passes a reference, nothing is
/// stored per call.
pub(crate) static AT_REST: BodyState = BodyState {
    pose: Pose {
        iso: nalgebra::Isometry3 {
            rotation: UnitQuaternion::new_unchecked(Quaternion::new(1.0, 0.0, 0.0, 0.0)),
            translation: nalgebra::Translation3 {
                vector: Vec3::new(0.0, 0.0, 0.0),
            },
        },
    },
    twist: Twist {
        omega: Vec3::new(0.0, 0.0, 0.0),
        v: Vec3::new(0.0, 0.0, 0.0),
    },
};

/// [`body_state`] for a pose that passed [`unit_or_null`]: no check, no
/// `Result` (the servo tick's path builds the state in place).
#[inline(always)]
pub(crate) fn body_state_unit(pose: Option<&ext_pose>, twist: Option<&ext_twist>) -> BodyState {
    let pose = match pose {
        None => Pose::identity(),
        Some(p) => {
            let q = &p.orientation;
            Pose::from_parts(
                p.position.vec(),
                UnitQuaternion::new_unchecked(Quaternion::new(q.w, q.x, q.y, q.z)),
            )
        }
    };
    let twist = match twist {
        None => Twist::zero(),
        Some(t) => Twist::about_point(t.angular.vec(), pose.iso.translation.vector, t.linear.vec()),
    };
    BodyState { pose, twist }
}

/// The slow path of [`body_state`]: a quaternion off unit norm by more than
/// rounding is renormalised, or rejected beyond the tolerance.
#[cold]
#[inline(never)]
fn renormalised(p: &ext_pose) -> CResult<Pose> {
    p.unit("pose")
}

/// A checked servo time step: finite and > 0.
#[inline]
pub(crate) fn checked_dt(dt: f64) -> CResult<f64> {
    if dt.is_finite() && dt > 0.0 {
        Ok(dt)
    } else {
        Err(Failure::invalid(format_args!(
            "time step dt = {dt} must be finite and > 0"
        )))
    }
}

/// Reads a required input pointer.
#[inline]
pub(crate) unsafe fn input<'a, T>(p: *const T, name: &str) -> CResult<&'a T> {
    // SAFETY: the caller of the entry point guarantees that a non-NULL `p`
    // points to a valid, initialised `T` for the duration of the call.
    unsafe { p.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// Checks a required output pointer (written only at the end, on success).
#[inline]
pub(crate) fn output<T>(p: *mut T, name: &str) -> CResult<*mut T> {
    if p.is_null() {
        Err(Failure::null(name))
    } else {
        Ok(p)
    }
}

/// The rigid pose of a 4×4 homogeneous matrix (row-major unless
/// `column_major`): finite entries, last row `0 0 0 1`, an orthonormal
/// rotation block with determinant +1 (to 1e-6); `what` names the argument.
pub(crate) fn pose_from_matrix(m: &[f64; 16], column_major: bool, what: &str) -> CResult<Pose> {
    let at = |r: usize, c: usize| if column_major { m[c * 4 + r] } else { m[r * 4 + c] };
    if !m.iter().all(|x| x.is_finite()) {
        return Err(Failure::invalid(format_args!("`{what}` has a non-finite entry")));
    }
    if at(3, 0) != 0.0 || at(3, 1) != 0.0 || at(3, 2) != 0.0 || at(3, 3) != 1.0 {
        return Err(Failure::invalid(format_args!("`{what}` last row is not 0 0 0 1")));
    }
    let r = Matrix3::from_fn(at);
    let rtr = r.transpose() * r;
    let off = (rtr - Matrix3::identity()).abs().max();
    if !(off <= MATRIX_RIGID_TOL) || !(r.determinant() > 0.0) {
        return Err(Failure::invalid(format_args!(
            "`{what}` rotation block is not a rotation (|RᵀR − I| = {off:.3e}, det {:.6})",
            r.determinant()
        )));
    }
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r));
    Ok(Pose::from_parts(Vec3::new(at(0, 3), at(1, 3), at(2, 3)), q))
}

/// Converts a 4×4 homogeneous rigid transform (body-local → world) into a pose.
///
/// `m` holds 16 doubles, row-major (`m[0..4]` is the first row, the
/// translation is `m[3], m[7], m[11]`) when `column_major` is 0, column-major
/// (OpenGL layout: translation `m[12], m[13], m[14]`) otherwise. The rotation
/// block must be orthonormal with determinant +1 (to 1e-6) and the last row
/// `0 0 0 1`; otherwise `EXT_INVALID_ARGUMENT`.
///
/// Ownership: `m` and `out` belong to the caller; `out` is written only on
/// success.
///
/// Thread safety: reentrant, callable from any thread.
///
/// # Safety
/// `m` must point to 16 readable doubles and `out` to a writable `ext_pose`
/// (or be NULL, which is rejected).
#[no_mangle]
pub unsafe extern "C" fn ext_pose_from_matrix(m: *const f64, column_major: u32, out: *mut ext_pose) -> ext_status {
    guard(|| {
        if m.is_null() {
            return Err(Failure::null("m"));
        }
        let out = output(out, "out")?;
        // SAFETY: the caller guarantees 16 readable doubles at `m`.
        let m = unsafe { &*m.cast::<[f64; 16]>() };
        let pose = pose_from_matrix(m, column_major != 0, "matrix")?;
        // SAFETY: `out` is non-NULL and the caller guarantees it is writable.
        unsafe { out.write(ext_pose::from(&pose)) };
        Ok(())
    })
}

/// Writes the 4×4 homogeneous matrix of `pose` (row-major when `column_major`
/// is 0, column-major otherwise) into `out` (16 doubles). The quaternion must
/// be a unit quaternion (to 1e-6).
///
/// Ownership: `pose` and `out` belong to the caller; `out` is written only on
/// success.
///
/// Thread safety: reentrant, callable from any thread.
///
/// # Safety
/// `pose` must point to a readable `ext_pose` and `out` to 16 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn ext_pose_to_matrix(pose: *const ext_pose, column_major: u32, out: *mut f64) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let pose = unsafe { input(pose, "pose") }?.checked("pose")?;
        let out = output(out, "out")?;
        let r = pose.iso.rotation.to_rotation_matrix();
        let t = pose.iso.translation.vector;
        let mut m = [0.0; 16];
        for i in 0..3 {
            for j in 0..3 {
                m[i * 4 + j] = r[(i, j)];
            }
            m[i * 4 + 3] = t[i];
        }
        m[15] = 1.0;
        if column_major != 0 {
            let rm = m;
            for i in 0..4 {
                for j in 0..4 {
                    m[j * 4 + i] = rm[i * 4 + j];
                }
            }
        }
        // SAFETY: the caller guarantees 16 writable doubles at `out`.
        unsafe { std::ptr::copy_nonoverlapping(m.as_ptr(), out, 16) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn matrix_round_trip_both_layouts() {
        let pose = Pose::from_translation_axis_angle(Vec3::new(1.0, -2.0, 3.0), Vec3::new(0.3, -0.2, 0.9));
        let p = ext_pose::from(&pose);
        for cm in [0, 1] {
            let mut m = [0.0; 16];
            assert_eq!(
                unsafe { ext_pose_to_matrix(&p, cm, m.as_mut_ptr()) },
                ext_status::EXT_OK
            );
            let mut back = ext_pose::IDENTITY;
            assert_eq!(
                unsafe { ext_pose_from_matrix(m.as_ptr(), cm, &mut back) },
                ext_status::EXT_OK
            );
            let x = Vec3::new(0.5, 0.25, -4.0);
            let a = pose.transform_point(&x);
            let b = back.checked("p").unwrap().transform_point(&x);
            assert!((a - b).norm() < 1e-12, "{a} {b}");
        }
        let mut m = [0.0; 16];
        unsafe { ext_pose_to_matrix(&p, 0, m.as_mut_ptr()) };
        assert!(close(m[3], 1.0) && close(m[7], -2.0) && close(m[11], 3.0) && m[15] == 1.0);
    }

    #[test]
    fn non_rigid_and_non_finite_are_rejected_and_out_untouched() {
        let sentinel = ext_pose {
            position: ext_vec3 { x: 7.0, y: 7.0, z: 7.0 },
            orientation: ext_quat {
                w: 7.0,
                x: 7.0,
                y: 7.0,
                z: 7.0,
            },
        };
        let mut out = sentinel;
        let mut scaled = [0.0; 16];
        for i in 0..3 {
            scaled[i * 5] = 2.0;
        }
        scaled[15] = 1.0;
        assert_eq!(
            unsafe { ext_pose_from_matrix(scaled.as_ptr(), 0, &mut out) },
            ext_status::EXT_INVALID_ARGUMENT
        );
        let mut mirror = [0.0; 16];
        mirror[0] = -1.0;
        mirror[5] = 1.0;
        mirror[10] = 1.0;
        mirror[15] = 1.0;
        assert_eq!(
            unsafe { ext_pose_from_matrix(mirror.as_ptr(), 0, &mut out) },
            ext_status::EXT_INVALID_ARGUMENT
        );
        let mut nan = [0.0; 16];
        nan[0] = f64::NAN;
        assert_eq!(
            unsafe { ext_pose_from_matrix(nan.as_ptr(), 0, &mut out) },
            ext_status::EXT_INVALID_ARGUMENT
        );
        assert_eq!(
            unsafe { ext_pose_from_matrix(std::ptr::null(), 0, &mut out) },
            ext_status::EXT_NULL_POINTER
        );
        assert_eq!(out, sentinel);
    }

    #[test]
    fn pose_checks() {
        assert!(ext_pose::IDENTITY.checked("p").is_ok());
        let mut p = ext_pose::IDENTITY;
        p.orientation.w = 1.1;
        assert_eq!(p.checked("p").unwrap_err().status, ext_status::EXT_INVALID_ARGUMENT);
        p.orientation.w = 1.0 + 1e-9;
        let pose = p.checked("p").unwrap();
        assert!((pose.iso.rotation.coords.norm() - 1.0).abs() < 1e-15);
        p.position.y = f64::INFINITY;
        assert!(p.checked("p").is_err());
        let mut q = ext_pose::IDENTITY;
        q.orientation.x = f64::NAN;
        assert!(q.checked("p").is_err());
    }

    #[test]
    fn twist_is_about_the_pose_origin() {
        let mut p = ext_pose::IDENTITY;
        p.position = ext_vec3 {
            x: 10.0,
            y: 0.0,
            z: 0.0,
        };
        let t = ext_twist {
            angular: ext_vec3 { x: 0.0, y: 0.0, z: 1.0 },
            linear: ext_vec3 { x: 0.0, y: 5.0, z: 0.0 },
        };
        let s = body_state(Some(&p), Some(&t)).unwrap();
        // the frame origin moves with `linear`
        let v = s.twist.velocity_at(&Vec3::new(10.0, 0.0, 0.0));
        assert!((v - Vec3::new(0.0, 5.0, 0.0)).norm() < 1e-12);
        let mut nan = t;
        nan.angular.x = f64::NAN;
        assert!(!body_state(Some(&p), Some(&nan)).unwrap().twist.is_finite());
        assert!(checked_dt(0.0).is_err() && checked_dt(f64::NAN).is_err() && checked_dt(1e-3).is_ok());
    }
}

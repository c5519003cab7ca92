//! Cold-start closest-point queries: one point, or an array of points in
//! parallel (`crate::track::{closest_point, closest_points}`).

use super::error::{ext_status, guard, Failure};
use super::scene::{body_failure, body_status, ext_scene, scene_ref};
use super::tracker::ext_closest_point;
use super::types::{ext_pose, ext_vec3, input, output};
use crate::geom::Vec3;
use crate::track::{closest_point, closest_points, Target};

/// Body selector of the queries: every body of the scene (the answer is the
/// nearest body's; the point counts as inside when it is inside any solid).
pub const EXT_ALL_BODIES: u32 = u32::MAX;

fn target(body: u32, pose: &crate::geom::Pose) -> Target {
    if body == EXT_ALL_BODIES {
        Target::All { pose: *pose }
    } else {
        Target::Body {
            index: body,
            pose: *pose,
        }
    }
}

/// The closest point of body `body` (or of the whole scene with
/// `EXT_ALL_BODIES`) to `point`, from scratch (a global search, the same as a
/// tracker's first update). `pose` is the body's (or with `EXT_ALL_BODIES` the
/// whole scene's) pose relative to the scene placement; NULL = identity.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_NO_SUCH_BODY`, `EXT_INVALID_ARGUMENT`
/// (non-finite point, non-unit quaternion), `EXT_TRACKING`.
///
/// Ownership: all pointers are borrowed for the call; `out` is written only on
/// success.
///
/// Thread safety: a scene may be queried from any number of threads at once.
///
/// # Safety
/// `scene` must be a live scene handle; `pose` NULL or a readable `ext_pose`;
/// `point` a readable `ext_vec3`; `out` a writable `ext_closest_point`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_closest_point(
    scene: *const ext_scene,
    body: u32,
    pose: *const ext_pose,
    point: *const ext_vec3,
    out: *mut ext_closest_point,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let (scene, pose, point) = unsafe { (scene_ref(scene)?, pose.as_ref(), input(point, "point")?) };
        let out = output(out, "out")?;
        let pose = pose.unwrap_or(&ext_pose::IDENTITY).checked("pose")?;
        let q = point.checked("point")?;
        let r = closest_point(&scene.inner.track, &target(body, &pose), q).map_err(body_failure)?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(ext_closest_point::from(&r)) };
        Ok(())
    })
}

/// Closest points of `count` independent query points (cold starts, computed
/// in parallel on the library's thread pool), `out[i]` for `points[i]`. All or
/// nothing: when any point fails (e.g. a non-finite one), the function returns
/// that point's status, the message names its index, and `out` is not
/// written. `count == 0` succeeds without reading `points` or writing `out`.
///
/// Errors: as `ext_scene_closest_point`.
///
/// Ownership: all pointers are borrowed for the call; the caller owns both
/// arrays.
///
/// Thread safety: a scene may be queried from any number of threads at once;
/// the call blocks until all points are answered.
///
/// # Safety
/// `scene` must be a live scene handle; `pose` NULL or a readable `ext_pose`;
/// `points` `count` readable `ext_vec3`s; `out` `count` writable
/// `ext_closest_point`s (the two arrays must not overlap).
#[no_mangle]
pub unsafe extern "C" fn ext_scene_closest_points(
    scene: *const ext_scene,
    body: u32,
    pose: *const ext_pose,
    points: *const ext_vec3,
    count: usize,
    out: *mut ext_closest_point,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let (scene, pose) = unsafe { (scene_ref(scene)?, pose.as_ref()) };
        if count > 0 && points.is_null() {
            return Err(Failure::null("points"));
        }
        let out = output(out, "out")?;
        let pose = pose.unwrap_or(&ext_pose::IDENTITY).checked("pose")?;
        if count == 0 {
            return Ok(());
        }
        // SAFETY: `count` readable points by contract.
        let points = unsafe { std::slice::from_raw_parts(points, count) };
        let qs = points
            .iter()
            .enumerate()
            .map(|(i, p)| p.checked(&format!("points[{i}]")))
            .collect::<Result<Vec<Vec3>, _>>()?;
        let results = closest_points(&scene.inner.track, &target(body, &pose), &qs);
        let mut answers = Vec::with_capacity(count);
        for (i, r) in results.iter().enumerate() {
            match r {
                Ok(r) => answers.push(ext_closest_point::from(r)),
                Err(e) => return Err(Failure::new(body_status(e), format_args!("points[{i}]: {e}"))),
            }
        }
        // SAFETY: `count` writable records at `out`, not overlapping `points`.
        unsafe { std::ptr::copy_nonoverlapping(answers.as_ptr(), out, count) };
        Ok(())
    })
}

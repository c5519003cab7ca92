//! Body–body trackers: the minimum distance (or the local maximum
//! penetration) between two moving scene bodies, coherent from update to
//! update (`crate::track::BodyPairTracker`), and the cold query
//! `ext_pair_distance` (`crate::track::body_distance`).

use super::error::{ext_status, guard, CResult, Failure};
use super::scene::{body_failure, ext_scene, scene_ref, SceneInner};
use super::tracker::{
    ext_feature_kind, ext_mode, ext_tracker_config, feature_code, mode_code, with_object, Poisonable,
};
use super::types::{
    body_state, body_state_unit, ext_pose, ext_twist, ext_vec3, input, output, pose_from_matrix, unit_or_null, AT_REST,
};
use crate::track::{body_distance, BodyError, BodyPairResult, BodyPairTracker, BodyState, TrackerConfig};
use std::sync::Arc;

/// The answer of a body–body query (world coordinates, mm).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_pair_result {
    /// 1 when the bodies interpenetrate (both must be solids), else 0.
    pub penetrating: u32,
    /// Reserved, 0.
    pub reserved0: u32,
    /// `|point_b - point_a|`: the separation, or the penetration depth when
    /// `penetrating` (>= 0): the depth of a maximum-penetration pair (each
    /// witness inside the other body, the boundary normals anti-parallel
    /// along `point_b - point_a`), a function of the pose: seeded from the
    /// deepest boundary point inside the other body and converged; a tracker
    /// and a cold query give the same pair (formats/motion.md, "Penetration
    /// depth").
    pub distance: f64,
    /// `distance` when apart, `-distance` when penetrating.
    pub signed_distance: f64,
    /// Witness point on body A.
    pub point_a: ext_vec3,
    /// Witness point on body B.
    pub point_b: ext_vec3,
    /// Unit contact normal: the direction in which B must move to increase
    /// the separation (A's outward normal at a face contact);
    /// `(point_b - point_a) / distance` when apart, the opposite when
    /// penetrating.
    pub normal: ext_vec3,
    /// Source face entity id (STEP `#N` / IGES DE) of A's piece (at an edge:
    /// an adjacent piece's); 0 if none.
    pub face_id_a: u64,
    /// Source face entity id of B's piece; 0 if none.
    pub face_id_b: u64,
    /// Absolute piece index on A, `EXT_NONE` when no piece is adjacent.
    pub piece_a: u32,
    /// Absolute piece index on B, `EXT_NONE` when no piece is adjacent.
    pub piece_b: u32,
    /// Kind of A's active feature.
    pub feature_kind_a: ext_feature_kind,
    /// Absolute index of A's active feature among its scene's pieces, edges
    /// or vertices (per `feature_kind_a`).
    pub feature_index_a: u32,
    /// Kind of B's active feature.
    pub feature_kind_b: ext_feature_kind,
    /// Absolute index of B's active feature in its scene.
    pub feature_index_b: u32,
    /// Controller mode on A's feature.
    pub mode_a: ext_mode,
    /// Controller mode on B's feature.
    pub mode_b: ext_mode,
    /// A's witness parameters: piece `(u, v)` in `[0,1]²`, edge `(t, 0)`, vertex `(0, 0)`.
    pub params_a: [f64; 2],
    /// B's witness parameters (`(r, s)` on a piece).
    pub params_b: [f64; 2],
    /// Controller iterations in this update.
    pub iterations: u32,
    /// Feature-pair switches in this update.
    pub switches: u32,
    /// Far-phase cell pairs solved in this update.
    pub cells_solved: u32,
    /// How far the answer can be trusted (both witnesses):
    /// `EXT_ANSWER_CHECKED` only when both bodies' scenes carry a self-check,
    /// `EXT_ANSWER_UNVERIFIED` when either witness's face failed or was not
    /// checked, `EXT_ANSWER_SHELL_INCOMPLETE` when either body lost a face,
    /// `EXT_ANSWER_UNCONVERGED` when the pair's solve hit its iteration cap.
    /// Verified exactly when `flags == EXT_ANSWER_CHECKED`.
    pub flags: u32,
}

impl From<&BodyPairResult> for ext_pair_result {
    #[inline]
    fn from(r: &BodyPairResult) -> Self {
        let (feature_kind_a, feature_index_a) = feature_code(r.feature_a);
        let (feature_kind_b, feature_index_b) = feature_code(r.feature_b);
        ext_pair_result {
            penetrating: r.penetrating as u32,
            reserved0: 0,
            distance: r.distance,
            signed_distance: r.signed_distance,
            point_a: r.point_a.into(),
            point_b: r.point_b.into(),
            normal: r.normal.into(),
            face_id_a: r.face_a,
            face_id_b: r.face_b,
            piece_a: r.piece_a,
            piece_b: r.piece_b,
            feature_kind_a,
            feature_index_a,
            feature_kind_b,
            feature_index_b,
            mode_a: mode_code(r.mode_a),
            mode_b: mode_code(r.mode_b),
            params_a: r.params_a,
            params_b: r.params_b,
            iterations: r.iterations,
            switches: r.switches,
            cells_solved: r.cells_solved,
            flags: r.status.bits(),
        }
    }
}

/// A body–body tracker (opaque). Belongs to one thread at a time. Free with
/// `ext_pair_tracker_free`.
#[allow(non_camel_case_types)]
pub struct ext_pair_tracker {
    scene_a: Arc<SceneInner>,
    scene_b: Arc<SceneInner>,
    tracker: BodyPairTracker,
    poisoned: bool,
}

impl ext_pair_tracker {
    /// The Rust scenes and tracker behind this handle (Rust only, not part
    /// of the C API), for measuring the boundary's own cost on the same
    /// object (`benches/capi.rs`).
    #[doc(hidden)]
    pub fn rust_parts(
        &mut self,
    ) -> (
        &crate::track::TrackScene,
        &crate::track::TrackScene,
        &mut BodyPairTracker,
    ) {
        (&self.scene_a.track, &self.scene_b.track, &mut self.tracker)
    }
}

impl Poisonable for ext_pair_tracker {
    const NAME: &'static str = "tracker";
    fn poisoned(&self) -> bool {
        self.poisoned
    }
    fn poison(&mut self) {
        self.poisoned = true;
    }
}

/// Creates a tracker of the minimum distance (or penetration) between body
/// `body_a` of `scene_a` and body `body_b` of `scene_b` (the same scene may
/// be passed twice). `config` may be NULL for the defaults (see
/// `ext_tracker_config_default`). The first update (and the first after
/// `ext_pair_tracker_reset`) is a cold start (a global search over both
/// bodies); later updates track the active feature pair coherently.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_NO_SUCH_BODY`, `EXT_TRACKING` (a body
/// has no surface pieces), `EXT_INVALID_ARGUMENT` (bad configuration).
///
/// Ownership: the tracker keeps a reference to both scenes' data, so the
/// scene handles may be freed before the tracker. The caller owns the new
/// tracker and frees it with `ext_pair_tracker_free`.
///
/// Thread safety: the scenes may be shared by threads creating trackers at
/// once; the new tracker belongs to one thread at a time (it may be moved
/// between threads, never used by two at once).
///
/// # Safety
/// `scene_a` and `scene_b` must be live scene handles; `config` NULL or a
/// readable `ext_tracker_config`; `out` a writable `ext_pair_tracker*`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_new(
    scene_a: *const ext_scene,
    body_a: u32,
    scene_b: *const ext_scene,
    body_b: u32,
    config: *const ext_tracker_config,
    out: *mut *mut ext_pair_tracker,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let (sa, sb) = unsafe { (scene_ref(scene_a)?, scene_ref(scene_b)?) };
        // SAFETY: NULL or readable by contract.
        let cfg = match unsafe { config.as_ref() } {
            Some(c) => c.checked()?,
            None => TrackerConfig::default(),
        };
        let out = output(out, "out")?;
        let tracker =
            BodyPairTracker::new(&sa.inner.track, body_a, &sb.inner.track, body_b, cfg).map_err(body_failure)?;
        let handle = Box::new(ext_pair_tracker {
            scene_a: Arc::clone(&sa.inner),
            scene_b: Arc::clone(&sb.inner),
            tracker,
            poisoned: false,
        });
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(Box::into_raw(handle)) };
        Ok(())
    })
}

/// Replaces the tracker's controller settings (validated; the tracking
/// history is kept).
///
/// Errors: `EXT_NULL_POINTER`, `EXT_INVALID_ARGUMENT`, `EXT_PANIC` (poisoned).
///
/// Ownership: `config` is borrowed for the call.
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live pair tracker; `config` a readable `ext_tracker_config`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_set_config(
    tracker: *mut ext_pair_tracker,
    config: *const ext_tracker_config,
) -> ext_status {
    with_object(tracker, |t| {
        // SAFETY: readable by contract.
        let cfg = unsafe { input(config, "config") }?.checked()?;
        t.tracker.set_config(cfg).map_err(body_failure)
    })
}

/// Writes the tracker's current controller settings to `out`.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_PANIC` (poisoned).
///
/// Ownership: `out` belongs to the caller; written only on success.
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live pair tracker; `out` a writable `ext_tracker_config`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_config(
    tracker: *mut ext_pair_tracker,
    out: *mut ext_tracker_config,
) -> ext_status {
    with_object(tracker, |t| {
        let out = output(out, "out")?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(ext_tracker_config::from(&t.tracker.cfg)) };
        Ok(())
    })
}

/// Runs one update with checked states and writes the answer. `dt` is
/// checked by the tracker (finite, >= 0), which keeps its state on error;
/// the message then names `dt` as the entry points document.
#[inline(always)]
fn update_with(
    t: &mut ext_pair_tracker,
    state_a: &BodyState,
    state_b: &BodyState,
    dt: f64,
    out: *mut ext_pair_result,
) -> CResult {
    // the answer is converted as it is built, straight into `out`
    let written = t
        .tracker
        .update_map(&t.scene_a.track, state_a, &t.scene_b.track, state_b, dt, |r| {
            // SAFETY: `out` was checked non-NULL by the caller and is writable by contract.
            unsafe { out.write(ext_pair_result::from(&r)) }
        });
    written.map_err(|e| update_failure(e, dt))
}

/// The failure of a rejected update: a bad `dt` is reported as such, even
/// when a state is bad too (the entry points check `dt` first); anything else
/// as the tracker's error.
#[cold]
#[inline(never)]
fn update_failure(e: BodyError, dt: f64) -> Failure {
    if !(dt.is_finite() && dt >= 0.0) {
        return Failure::invalid(format_args!("dt = {dt} must be finite and >= 0"));
    }
    body_failure(e)
}

/// The body state of a matrix pose (NULL: identity) and a twist (NULL: at rest).
///
/// # Safety
/// `m` NULL or 16 readable doubles; `twist` NULL or a readable `ext_twist`.
unsafe fn matrix_state(m: *const f64, twist: *const ext_twist, what: &str) -> CResult<BodyState> {
    // SAFETY: see `# Safety`.
    let pose = match unsafe { m.cast::<[f64; 16]>().as_ref() } {
        Some(m) => Some(ext_pose::from(&pose_from_matrix(m, false, what)?)),
        None => None,
    };
    // SAFETY: see `# Safety`.
    body_state(pose.as_ref(), unsafe { twist.as_ref() })
}

/// One tracking update with the bodies' poses as 4×4 homogeneous matrices.
///
/// Inputs: `pose_a`, `pose_b`: 16 doubles each, **row-major** (translation in
/// `m[3], m[7], m[11]`), the rigid motion of each body relative to its scene
/// placement (world = pose · placement · body-local); NULL = the identity
/// (the body where its file put it). The rotation block must be orthonormal
/// with determinant +1 (to 1e-6) and the last row `0 0 0 1`. `twist_a`,
/// `twist_b`: each body's velocity in world axes, `linear` being the velocity
/// of the pose's origin (`m[3], m[7], m[11]`); NULL = at rest. `dt`: the
/// time since the previous update, s (finite, >= 0).
///
/// Errors: `EXT_NULL_POINTER` (`tracker` or `out`), `EXT_INVALID_ARGUMENT`
/// (non-finite numbers, non-rigid matrix, negative `dt`), `EXT_TRACKING`,
/// `EXT_PANIC` (poisoned). On error the tracker keeps its previous state.
///
/// Ownership: every pointer argument is borrowed for the call; `out` is
/// written only on success.
///
/// Thread safety: not concurrently with any other call on the same tracker;
/// trackers over the same scenes may update on different threads at once.
///
/// # Safety
/// `tracker` must be a live pair tracker; `pose_a` / `pose_b` NULL or 16
/// readable doubles; `twist_a` / `twist_b` NULL or readable `ext_twist`s;
/// `out` a writable `ext_pair_result`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_update(
    tracker: *mut ext_pair_tracker,
    pose_a: *const f64,
    pose_b: *const f64,
    twist_a: *const ext_twist,
    twist_b: *const ext_twist,
    dt: f64,
    out: *mut ext_pair_result,
) -> ext_status {
    with_object(tracker, |t| {
        let out = output(out, "out")?;
        // SAFETY: see `# Safety`.
        let (sa, sb) = unsafe {
            (
                matrix_state(pose_a, twist_a, "pose_a")?,
                matrix_state(pose_b, twist_b, "pose_b")?,
            )
        };
        update_with(t, &sa, &sb, dt, out)
    })
}

/// One tracking update with the bodies' poses as position + unit quaternion
/// (`ext_pose`, the form `ext_point_tracker_update` takes); otherwise the
/// same as `ext_pair_tracker_update`. A quaternion must have unit norm (to
/// 1e-6; it is renormalised when off by more than 1e-9). NULL poses are the
/// identity, NULL twists at rest.
///
/// Errors: `EXT_NULL_POINTER` (`tracker` or `out`), `EXT_INVALID_ARGUMENT`
/// (non-finite numbers, non-unit quaternion, negative `dt`), `EXT_TRACKING`,
/// `EXT_PANIC` (poisoned). On error the tracker keeps its previous state.
///
/// Ownership: every pointer argument is borrowed for the call; `out` is
/// written only on success.
///
/// Thread safety: not concurrently with any other call on the same tracker;
/// trackers over the same scenes may update on different threads at once.
///
/// # Safety
/// `tracker` must be a live pair tracker; the poses and twists NULL or
/// readable; `out` a writable `ext_pair_result`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_update_pose(
    tracker: *mut ext_pair_tracker,
    pose_a: *const ext_pose,
    pose_b: *const ext_pose,
    twist_a: *const ext_twist,
    twist_b: *const ext_twist,
    dt: f64,
    out: *mut ext_pair_result,
) -> ext_status {
    with_object(tracker, |t| {
        let out = output(out, "out")?;
        // SAFETY: NULL or readable by contract (all four).
        let (pa, pb, ta, tb) = unsafe { (pose_a.as_ref(), pose_b.as_ref(), twist_a.as_ref(), twist_b.as_ref()) };
        // the servo tick's path: the states as given, built in place (a body
        // at rest at its placement not even that); the tracker checks them
        // (finite, unit quaternion to 1e-9) before it touches its own state,
        // so whatever it rejects is checked again here, on the cold path
        let (sa, sb);
        let state_a = if pa.is_none() && ta.is_none() {
            &AT_REST
        } else {
            sa = body_state_unit(pa, ta);
            &sa
        };
        let state_b = if pb.is_none() && tb.is_none() {
            &AT_REST
        } else {
            sb = body_state_unit(pb, tb);
            &sb
        };
        let written = t
            .tracker
            .update_map(&t.scene_a.track, state_a, &t.scene_b.track, state_b, dt, |r| {
                // SAFETY: `out` was checked non-NULL above and is writable by contract.
                unsafe { out.write(ext_pair_result::from(&r)) }
            });
        match written {
            Ok(()) => Ok(()),
            Err(e) => update_pose_checked(t, (pa, ta), (pb, tb), dt, out, e),
        }
    })
}

/// The cold path of `ext_pair_tracker_update_pose` after the tracker
/// rejected an update: the arguments checked in the documented order (a
/// quaternion off unit norm by more than 1e-9 but within 1e-6 is
/// renormalised and the update made with it), else the tracker's error.
#[cold]
#[inline(never)]
fn update_pose_checked(
    t: &mut ext_pair_tracker,
    (pa, ta): (Option<&ext_pose>, Option<&ext_twist>),
    (pb, tb): (Option<&ext_pose>, Option<&ext_twist>),
    dt: f64,
    out: *mut ext_pair_result,
    e: BodyError,
) -> CResult {
    let sa = body_state(pa, ta).map_err(|f| rename(f, "pose_a"))?;
    let sb = body_state(pb, tb).map_err(|f| rename(f, "pose_b"))?;
    if unit_or_null(pa) && unit_or_null(pb) {
        // nothing was renormalised: the states were as the tracker saw them
        return Err(update_failure(e, dt));
    }
    update_with(t, &sa, &sb, dt, out)
}

/// Names the pose argument in a message of `body_state` (which says `pose`).
fn rename(f: Failure, what: &str) -> Failure {
    Failure::new(f.status, f.message.replacen("`pose`", &format!("`{what}`"), 1))
}

/// Forgets the tracking history: the next update is a cold start.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live pair tracker.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_reset(tracker: *mut ext_pair_tracker) -> ext_status {
    with_object(tracker, |t| {
        t.tracker.reset();
        Ok(())
    })
}

/// Frees a pair tracker (and its references to the scenes' data). NULL is
/// ignored.
///
/// Ownership: takes ownership of `tracker`; the pointer must not be used again.
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be NULL or a live tracker from `ext_pair_tracker_new`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_tracker_free(tracker: *mut ext_pair_tracker) {
    if tracker.is_null() {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: made by `Box::into_raw` in `ext_pair_tracker_new`.
        drop(unsafe { Box::from_raw(tracker) });
    });
}

/// The minimum distance (or penetration) between body `body_a` of `scene_a`
/// at `pose_a` and body `body_b` of `scene_b` at `pose_b`, from scratch (a
/// global search, the same as a pair tracker's first update). Poses are
/// relative to the scene placements (NULL = identity: the bodies where their
/// files put them).
///
/// Errors: `EXT_NULL_POINTER` (a scene or `out`), `EXT_NO_SUCH_BODY`,
/// `EXT_INVALID_ARGUMENT` (non-finite pose, non-unit quaternion),
/// `EXT_TRACKING`.
///
/// Ownership: all pointers are borrowed for the call; `out` is written only on
/// success.
///
/// Thread safety: scenes may be queried from any number of threads at once.
///
/// # Safety
/// `scene_a` and `scene_b` must be live scene handles; the poses NULL or
/// readable `ext_pose`s; `out` a writable `ext_pair_result`.
#[no_mangle]
pub unsafe extern "C" fn ext_pair_distance(
    scene_a: *const ext_scene,
    body_a: u32,
    pose_a: *const ext_pose,
    scene_b: *const ext_scene,
    body_b: u32,
    pose_b: *const ext_pose,
    out: *mut ext_pair_result,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let (sa, sb, pa, pb) = unsafe {
            (
                scene_ref(scene_a)?,
                scene_ref(scene_b)?,
                pose_a.as_ref(),
                pose_b.as_ref(),
            )
        };
        let out = output(out, "out")?;
        let pa = pa.unwrap_or(&ext_pose::IDENTITY).checked("pose_a")?;
        let pb = pb.unwrap_or(&ext_pose::IDENTITY).checked("pose_b")?;
        let r = body_distance(&sa.inner.track, body_a, &pa, &sb.inner.track, body_b, &pb).map_err(body_failure)?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(ext_pair_result::from(&r)) };
        Ok(())
    })
}

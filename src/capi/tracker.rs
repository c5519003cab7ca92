//! Point–body trackers: the closest point of one scene body to a moving
//! point, coherent from update to update (`crate::track::PointBodyTracker`).

use super::error::{ext_status, guard, CResult, Failure};
use super::scene::{body_failure, ext_scene, scene_ref, SceneInner};
use super::types::{body_state, body_state_unit, ext_pose, ext_twist, ext_vec3, input, output, unit_or_null, AT_REST};
use crate::geom::Vec3;
use crate::scene::data::{FeatureRef, NONE};
use crate::track::{
    AnswerStatus, BodyError, ControlLaw, Integrator, Mode, PointBodyResult, PointBodyTracker, PointState, TrackerConfig,
};
use std::sync::Arc;

/// "No index": a `piece` of an `ext_closest_point` with no adjacent piece.
pub const EXT_NONE: u32 = u32::MAX;
// Spelled `u32::MAX` so that cbindgen writes `UINT32_MAX`; it is the scene's `NONE`.
const _: () = assert!(EXT_NONE == NONE);

/// Low-level control law of a tracker (PG-GUAS, PG-2002/2004/2005, NJC-1999).
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ext_control_law {
    /// PG-GUAS eq. (1), globally convergent.
    EXT_LAW_GLOBALLY_CONVERGENT = 0,
    /// PG-GUAS eq. (3), enhanced with the motion terms.
    EXT_LAW_ENHANCED = 1,
    /// Feedback linearisation with motion feed-forward.
    EXT_LAW_FEEDBACK_LINEARIZED = 2,
    /// Feedback-linearised where safe, globally convergent elsewhere (default).
    EXT_LAW_HYBRID = 3,
    /// Newton iteration (no boundary handling).
    EXT_LAW_NEWTON = 4,
    /// Newton iteration with the parameters saturated at the boundaries.
    EXT_LAW_NEWTON_SATURATED = 5,
}

/// Integrator of the controller ODE.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ext_integrator {
    /// Explicit Euler (default).
    EXT_INTEGRATOR_EULER = 0,
    /// Heun's second-order Runge–Kutta.
    EXT_INTEGRATOR_RK2 = 1,
    /// Classical fourth-order Runge–Kutta.
    EXT_INTEGRATOR_RK4 = 2,
}

/// Kind of the feature the closest point lies on.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ext_feature_kind {
    /// The interior of a surface piece.
    EXT_FEATURE_PIECE = 0,
    /// An edge (crease, seam or open boundary).
    EXT_FEATURE_EDGE = 1,
    /// A vertex.
    EXT_FEATURE_VERTEX = 2,
}

/// Controller mode of the active feature (PG-GUAS Fig. 4).
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ext_mode {
    /// Witness inside the piece (or edge).
    EXT_MODE_INTERIOR = 0,
    /// Saturated on `u = 0` (`t = 0` on an edge).
    EXT_MODE_U0 = 1,
    /// Saturated on `u = 1`.
    EXT_MODE_U1 = 2,
    /// Saturated on `v = 0`.
    EXT_MODE_V0 = 3,
    /// Saturated on `v = 1`.
    EXT_MODE_V1 = 4,
    /// A corner (both parameters saturated).
    EXT_MODE_CORNER = 5,
}

/// Settings of a tracker's low-level controller; start from
/// `ext_tracker_config_default`. Validated when applied.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_tracker_config {
    /// Control law, an `ext_control_law` value.
    pub law: u32,
    /// Integrator, an `ext_integrator` value.
    pub integrator: u32,
    /// Gain `K`, 1/s (> 0).
    pub gain_k: f64,
    /// Controller integration step `h`, s (> 0); `gain_k * h` sets the
    /// discrete stability (keep it below 2 for Euler and RK2).
    pub h: f64,
    /// Convergence: normalised projection error (sine of the angle between
    /// the offset and the normal) below which the witness is converged (> 0).
    pub tol: f64,
    /// Convergence: a Newton-like step shorter than this, mm, is accepted (> 0).
    pub step_tol: f64,
    /// Most controller iterations per update (>= 1).
    pub max_iters: u32,
    /// Non-zero: precondition the globally convergent law by the inverse
    /// first fundamental form.
    pub precondition: u32,
    /// Non-zero: feed the motion of the query forward.
    pub feed_forward: u32,
    /// Hybrid switch margin (>= 0).
    pub pd_margin: f64,
}

/// The answer of a point query (world coordinates, mm).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_closest_point {
    /// Body index of the closest point.
    pub body: u32,
    /// 1 when the body is a solid and `signed_distance` carries a sign; 0
    /// for open shells and loose faces (then `signed_distance == distance`).
    pub has_sign: u32,
    /// Distance from the query to the closest boundary point (>= 0).
    pub distance: f64,
    /// Positive outside, negative inside a solid (penetration depth =
    /// `-signed_distance`).
    pub signed_distance: f64,
    /// Closest boundary point.
    pub point: ext_vec3,
    /// Outward unit normal at the closest point (at an edge or vertex: the
    /// direction from the closest point towards an outside query).
    pub normal: ext_vec3,
    /// Source face entity id (STEP `#N` / IGES DE) of the piece; 0 if none.
    pub face_id: u64,
    /// Absolute piece index, `EXT_NONE` when no piece is adjacent.
    pub piece: u32,
    /// Kind of the active feature.
    pub feature_kind: ext_feature_kind,
    /// Absolute index of the active feature among the scene's pieces, edges
    /// or vertices (per `feature_kind`).
    pub feature_index: u32,
    /// Controller mode of the active feature.
    pub mode: ext_mode,
    /// Witness parameters: piece `(u, v)` in `[0,1]²`, edge `(t, 0)`, vertex `(0, 0)`.
    pub params: [f64; 2],
    /// Controller iterations in this update.
    pub iterations: u32,
    /// Feature switches in this update.
    pub switches: u32,
    /// Far-phase cells solved in this update.
    pub cells_solved: u32,
    /// How far the answer can be trusted: `EXT_ANSWER_CHECKED` (the scene
    /// carries a self-check; 0 = status unknown, e.g. a scene written before
    /// format 2.2), `EXT_ANSWER_UNVERIFIED` (the answer's face failed its
    /// check or was not checked), `EXT_ANSWER_SHELL_INCOMPLETE` (the body
    /// lost a face: `signed_distance` unreliable), `EXT_ANSWER_UNCONVERGED`
    /// (the solve that produced the answer hit its iteration cap: the
    /// distance may be too large). Verified exactly when
    /// `flags == EXT_ANSWER_CHECKED`.
    pub flags: u32,
}

/// Answer flag: the scene carries a self-check (without it
/// `EXT_ANSWER_UNVERIFIED` and `EXT_ANSWER_SHELL_INCOMPLETE` are 0 and the
/// self-check's status is unknown; `EXT_ANSWER_UNCONVERGED` is set either way).
pub const EXT_ANSWER_CHECKED: u32 = 1;
/// Answer flag: the answer's piece belongs to a face whose self-check failed
/// or did not run (at an edge: either adjacent face).
pub const EXT_ANSWER_UNVERIFIED: u32 = 2;
/// Answer flag: the body (a closed shell) lost a face: the signed distance
/// (inside / outside) is unreliable.
pub const EXT_ANSWER_SHELL_INCOMPLETE: u32 = 4;
/// Answer flag: the solve that produced this answer hit its iteration cap
/// (or stalled) before meeting its tolerance: the witness is an iterate, not
/// a minimum, and the distance may be too large by up to the distance from
/// the witness to the nearest point of the sub-patch (or edge span) of the
/// far phase holding it, at most that cell's size; or the far phase left a
/// cell open that may hold a nearer point (its solve stopped the same way,
/// its lower bound below the answer). The point is still a point of the
/// body. Set with or without a self-check (a tracker whose tolerances
/// cannot be met sets it on nearly every update).
pub const EXT_ANSWER_UNCONVERGED: u32 = 8;
// Literals so that cbindgen writes them; they are the bits of `AnswerStatus`.
const _: () = assert!(
    EXT_ANSWER_CHECKED == AnswerStatus::CHECKED
        && EXT_ANSWER_UNVERIFIED == AnswerStatus::UNVERIFIED_FACE
        && EXT_ANSWER_SHELL_INCOMPLETE == AnswerStatus::SHELL_INCOMPLETE
        && EXT_ANSWER_UNCONVERGED == AnswerStatus::UNCONVERGED
);

/// The C kind and index of a feature.
#[inline]
pub(crate) fn feature_code(f: FeatureRef) -> (ext_feature_kind, u32) {
    match f {
        FeatureRef::Piece(k) => (ext_feature_kind::EXT_FEATURE_PIECE, k),
        FeatureRef::Edge(k) => (ext_feature_kind::EXT_FEATURE_EDGE, k),
        FeatureRef::Vertex(k) => (ext_feature_kind::EXT_FEATURE_VERTEX, k),
    }
}

/// The C code of a controller mode.
#[inline]
pub(crate) fn mode_code(m: Mode) -> ext_mode {
    match m {
        Mode::Interior => ext_mode::EXT_MODE_INTERIOR,
        Mode::U0 => ext_mode::EXT_MODE_U0,
        Mode::U1 => ext_mode::EXT_MODE_U1,
        Mode::V0 => ext_mode::EXT_MODE_V0,
        Mode::V1 => ext_mode::EXT_MODE_V1,
        Mode::Corner => ext_mode::EXT_MODE_CORNER,
    }
}

impl From<&PointBodyResult> for ext_closest_point {
    #[inline]
    fn from(r: &PointBodyResult) -> Self {
        let (feature_kind, feature_index) = feature_code(r.feature);
        let mode = mode_code(r.mode);
        ext_closest_point {
            body: r.body,
            has_sign: r.signed_distance.is_some() as u32,
            distance: r.distance,
            signed_distance: r.signed_distance.unwrap_or(r.distance),
            point: r.point.into(),
            normal: r.normal.into(),
            face_id: r.face,
            piece: r.piece,
            feature_kind,
            feature_index,
            mode,
            params: r.params,
            iterations: r.iterations,
            switches: r.switches,
            cells_solved: r.cells_solved,
            flags: r.status.bits(),
        }
    }
}

fn law_code(l: ControlLaw) -> u32 {
    (match l {
        ControlLaw::GloballyConvergent => ext_control_law::EXT_LAW_GLOBALLY_CONVERGENT,
        ControlLaw::Enhanced => ext_control_law::EXT_LAW_ENHANCED,
        ControlLaw::FeedbackLinearized => ext_control_law::EXT_LAW_FEEDBACK_LINEARIZED,
        ControlLaw::Hybrid => ext_control_law::EXT_LAW_HYBRID,
        ControlLaw::Newton => ext_control_law::EXT_LAW_NEWTON,
        ControlLaw::NewtonSaturated => ext_control_law::EXT_LAW_NEWTON_SATURATED,
    }) as u32
}

fn law_from(code: u32) -> CResult<ControlLaw> {
    Ok(match code {
        0 => ControlLaw::GloballyConvergent,
        1 => ControlLaw::Enhanced,
        2 => ControlLaw::FeedbackLinearized,
        3 => ControlLaw::Hybrid,
        4 => ControlLaw::Newton,
        5 => ControlLaw::NewtonSaturated,
        _ => return Err(Failure::invalid(format_args!("unknown control law {code}"))),
    })
}

fn integrator_from(code: u32) -> CResult<Integrator> {
    Ok(match code {
        0 => Integrator::Euler,
        1 => Integrator::Rk2,
        2 => Integrator::Rk4,
        _ => return Err(Failure::invalid(format_args!("unknown integrator {code}"))),
    })
}

impl From<&TrackerConfig> for ext_tracker_config {
    fn from(c: &TrackerConfig) -> Self {
        ext_tracker_config {
            law: law_code(c.law),
            integrator: match c.integrator {
                Integrator::Euler => ext_integrator::EXT_INTEGRATOR_EULER,
                Integrator::Rk2 => ext_integrator::EXT_INTEGRATOR_RK2,
                Integrator::Rk4 => ext_integrator::EXT_INTEGRATOR_RK4,
            } as u32,
            gain_k: c.gain_k,
            h: c.h,
            tol: c.tol,
            step_tol: c.step_tol,
            max_iters: c.max_iters,
            precondition: c.precondition as u32,
            feed_forward: c.feed_forward as u32,
            pd_margin: c.pd_margin,
        }
    }
}

impl ext_tracker_config {
    /// The Rust configuration, validated.
    pub(crate) fn checked(&self) -> CResult<TrackerConfig> {
        let c = TrackerConfig {
            law: law_from(self.law)?,
            integrator: integrator_from(self.integrator)?,
            gain_k: self.gain_k,
            h: self.h,
            tol: self.tol,
            step_tol: self.step_tol,
            max_iters: self.max_iters,
            precondition: self.precondition != 0,
            feed_forward: self.feed_forward != 0,
            pd_margin: self.pd_margin,
        };
        c.validate().map_err(Failure::invalid)?;
        Ok(c)
    }
}

/// A point–body tracker (opaque). Belongs to one thread at a time. Free with
/// `ext_point_tracker_free`.
#[allow(non_camel_case_types)]
pub struct ext_point_tracker {
    scene: Arc<SceneInner>,
    tracker: PointBodyTracker,
    poisoned: bool,
}

/// Runs `body` on the tracker behind `t` with the panic boundary; a poisoned
/// tracker answers `EXT_PANIC`, a panic poisons it.
#[inline]
pub(crate) fn with_object<T: Poisonable>(t: *mut T, body: impl FnOnce(&mut T) -> CResult) -> ext_status {
    // SAFETY: the entry point's contract: `t` is NULL or a live handle used by
    // this thread only during the call.
    let Some(obj) = (unsafe { t.as_mut() }) else {
        return guard(|| Err(Failure::null(T::NAME)));
    };
    if obj.poisoned() {
        return guard(|| {
            Err(Failure::new(
                ext_status::EXT_PANIC,
                format_args!("this {} was poisoned by an earlier internal error; free it", T::NAME),
            ))
        });
    }
    let status = guard(|| body(obj));
    if status == ext_status::EXT_PANIC {
        // SAFETY: as above; the closure's borrow has ended.
        if let Some(obj) = unsafe { t.as_mut() } {
            obj.poison();
        }
    }
    status
}

/// Objects that a caught panic poisons.
pub(crate) trait Poisonable {
    /// Argument name in messages.
    const NAME: &'static str;
    /// True after a caught panic.
    fn poisoned(&self) -> bool;
    /// Marks the object poisoned.
    fn poison(&mut self);
}

impl ext_point_tracker {
    /// The Rust scene and tracker behind this handle (Rust only, not part of
    /// the C API): lets `benches/capi.rs` run the very same tracker object
    /// through the Rust API and through the ABI, so that the measured
    /// difference is the boundary's own cost and not the data layout of two
    /// different trackers.
    #[doc(hidden)]
    pub fn rust_parts(&mut self) -> (&crate::track::TrackScene, &mut PointBodyTracker) {
        (&self.scene.track, &mut self.tracker)
    }
}

impl Poisonable for ext_point_tracker {
    const NAME: &'static str = "tracker";
    fn poisoned(&self) -> bool {
        self.poisoned
    }
    fn poison(&mut self) {
        self.poisoned = true;
    }
}

/// Writes the default tracker settings (hybrid law, Euler, `K = 1000/s`,
/// `h = 1 ms`) to `out`.
///
/// Ownership: `out` belongs to the caller; written only on success.
///
/// Thread safety: reentrant.
///
/// # Safety
/// `out` must point to a writable `ext_tracker_config`.
#[no_mangle]
pub unsafe extern "C" fn ext_tracker_config_default(out: *mut ext_tracker_config) -> ext_status {
    guard(|| {
        let out = output(out, "out")?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(ext_tracker_config::from(&TrackerConfig::default())) };
        Ok(())
    })
}

/// Creates a tracker of the closest point of body `body` of `scene` to a
/// moving point. `config` may be NULL for the defaults. The first update
/// (and the first after `ext_point_tracker_reset`) is a cold start (a global
/// search); later updates track coherently and allocate nothing.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_NO_SUCH_BODY`, `EXT_TRACKING` (the body
/// has no surface pieces), `EXT_INVALID_ARGUMENT` (bad configuration).
///
/// Ownership: the tracker keeps a reference to the scene's data, so the scene
/// handle may be freed before the tracker. The caller owns the new tracker and
/// frees it with `ext_point_tracker_free`.
///
/// Thread safety: the scene may be shared by threads creating trackers at
/// once; the new tracker belongs to one thread at a time (it may be moved
/// between threads, never used by two at once).
///
/// # Safety
/// `scene` must be a live scene handle; `config` NULL or a readable
/// `ext_tracker_config`; `out` a writable `ext_point_tracker*`.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_new(
    scene: *const ext_scene,
    body: u32,
    config: *const ext_tracker_config,
    out: *mut *mut ext_point_tracker,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        // SAFETY: NULL or readable by contract.
        let cfg = match unsafe { config.as_ref() } {
            Some(c) => c.checked()?,
            None => TrackerConfig::default(),
        };
        let out = output(out, "out")?;
        let tracker = PointBodyTracker::new(&scene.inner.track, body, cfg).map_err(body_failure)?;
        let handle = Box::new(ext_point_tracker {
            scene: Arc::clone(&scene.inner),
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
/// `tracker` must be a live tracker; `config` a readable `ext_tracker_config`.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_set_config(
    tracker: *mut ext_point_tracker,
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
/// `tracker` must be a live tracker; `out` a writable `ext_tracker_config`.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_config(
    tracker: *mut ext_point_tracker,
    out: *mut ext_tracker_config,
) -> ext_status {
    with_object(tracker, |t| {
        let out = output(out, "out")?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(ext_tracker_config::from(&t.tracker.cfg)) };
        Ok(())
    })
}

/// Sets the gain `K` (1/s) and the controller step `h` (s), keeping the other
/// settings. Both must be finite and > 0.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_INVALID_ARGUMENT`, `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live tracker.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_set_gains(
    tracker: *mut ext_point_tracker,
    gain_k: f64,
    h: f64,
) -> ext_status {
    with_object(tracker, |t| {
        let cfg = TrackerConfig {
            gain_k,
            h,
            ..t.tracker.cfg
        };
        cfg.validate().map_err(Failure::invalid)?;
        t.tracker.set_config(cfg).map_err(body_failure)
    })
}

/// Sets the control law (an `ext_control_law`) and the integrator (an
/// `ext_integrator`), keeping the other settings.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_INVALID_ARGUMENT` (unknown value),
/// `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live tracker.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_set_integrator(
    tracker: *mut ext_point_tracker,
    law: u32,
    integrator: u32,
) -> ext_status {
    with_object(tracker, |t| {
        let cfg = TrackerConfig {
            law: law_from(law)?,
            integrator: integrator_from(integrator)?,
            ..t.tracker.cfg
        };
        t.tracker.set_config(cfg).map_err(body_failure)
    })
}

/// Sets the convergence tolerances (`tol`: normalised projection error;
/// `step_tol`: step length, mm; both finite and > 0) and the most iterations
/// per update (`max_iters >= 1`), keeping the other settings.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_INVALID_ARGUMENT`, `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live tracker.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_set_tolerance(
    tracker: *mut ext_point_tracker,
    tol: f64,
    step_tol: f64,
    max_iters: u32,
) -> ext_status {
    with_object(tracker, |t| {
        let cfg = TrackerConfig {
            tol,
            step_tol,
            max_iters,
            ..t.tracker.cfg
        };
        cfg.validate().map_err(Failure::invalid)?;
        t.tracker.set_config(cfg).map_err(body_failure)
    })
}

/// One tracking update: the closest point of the tracker's body to `point`.
///
/// Inputs: `point` (world, mm); `point_velocity` (world, mm/s; NULL = at
/// rest); `pose` of the body relative to its scene placement (NULL = the
/// identity: the body where the file put it; build one from a 4×4 matrix
/// with `ext_pose_from_matrix`); `twist` of the body (NULL = at rest); `dt`,
/// the time since the previous update in s (finite, >= 0).
///
/// Errors: `EXT_NULL_POINTER` (`tracker`, `point` or `out`),
/// `EXT_INVALID_ARGUMENT` (non-finite numbers, non-unit quaternion, negative
/// `dt`), `EXT_TRACKING`, `EXT_PANIC` (poisoned). On error the tracker keeps
/// its previous state.
///
/// Ownership: every pointer argument is borrowed for the call; `out` is
/// written only on success. No allocation once tracking is coherent.
///
/// Thread safety: not concurrently with any other call on the same tracker;
/// trackers of the same scene may update on different threads at once.
///
/// # Safety
/// `tracker` must be a live tracker; `point` a readable `ext_vec3`; the
/// nullable pointers NULL or readable; `out` a writable `ext_closest_point`.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_update(
    tracker: *mut ext_point_tracker,
    point: *const ext_vec3,
    point_velocity: *const ext_vec3,
    pose: *const ext_pose,
    twist: *const ext_twist,
    dt: f64,
    out: *mut ext_closest_point,
) -> ext_status {
    with_object(tracker, |t| {
        // SAFETY: readable or NULL by contract (all four).
        let (point, point_velocity, pose, twist) = unsafe {
            (
                input(point, "point")?,
                point_velocity.as_ref(),
                pose.as_ref(),
                twist.as_ref(),
            )
        };
        let out = output(out, "out")?;
        let q = point.vec();
        let q_dot = point_velocity.map_or_else(Vec3::zeros, ext_vec3::vec);
        // the servo tick's path: the state as given, built in place (a body
        // at rest at its placement not even that); the tracker checks the
        // point, the state (finite, unit quaternion to 1e-9) and `dt` before
        // it touches its own state, so whatever it rejects is checked again
        // here, on the cold path
        let st;
        let state = if pose.is_none() && twist.is_none() {
            &AT_REST
        } else {
            st = body_state_unit(pose, twist);
            &st
        };
        match t.tracker.update(&t.scene.track, &PointState { q, q_dot }, state, dt) {
            Ok(r) => {
                // SAFETY: non-NULL, writable by contract.
                unsafe { out.write(ext_closest_point::from(&r)) };
                Ok(())
            }
            Err(e) => update_checked(t, PointState { q, q_dot }, (pose, twist), dt, out, e),
        }
    })
}

/// The cold path of `ext_point_tracker_update` after the tracker rejected an
/// update: the arguments checked in the documented order (a quaternion off
/// unit norm by more than 1e-9 but within 1e-6 is renormalised and the update
/// made with it), else the tracker's error.
#[cold]
#[inline(never)]
fn update_checked(
    t: &mut ext_point_tracker,
    point: PointState,
    (pose, twist): (Option<&ext_pose>, Option<&ext_twist>),
    dt: f64,
    out: *mut ext_closest_point,
    e: BodyError,
) -> CResult {
    let state = body_state(pose, twist)?;
    if !(0.0..f64::INFINITY).contains(&dt) {
        return Err(Failure::invalid(format_args!("dt = {dt} must be finite and >= 0")));
    }
    if unit_or_null(pose) {
        // nothing was renormalised: the state was as the tracker saw it
        return Err(body_failure(e));
    }
    let r = t
        .tracker
        .update(&t.scene.track, &point, &state, dt)
        .map_err(body_failure)?;
    // SAFETY: non-NULL (checked by the entry point), writable by contract.
    unsafe { out.write(ext_closest_point::from(&r)) };
    Ok(())
}

/// Forgets the tracking history: the next update is a cold start.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be a live tracker.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_reset(tracker: *mut ext_point_tracker) -> ext_status {
    with_object(tracker, |t| t.tracker.reset(&t.scene.track).map_err(body_failure))
}

/// Frees a tracker (and its reference to the scene data). NULL is ignored.
///
/// Ownership: takes ownership of `tracker`; the pointer must not be used again.
///
/// Thread safety: not concurrently with any other call on the same tracker.
///
/// # Safety
/// `tracker` must be NULL or a live tracker from `ext_point_tracker_new`.
#[no_mangle]
pub unsafe extern "C" fn ext_point_tracker_free(tracker: *mut ext_point_tracker) {
    if tracker.is_null() {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: made by `Box::into_raw` in `ext_point_tracker_new`.
        drop(unsafe { Box::from_raw(tracker) });
    });
}

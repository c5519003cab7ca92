//! `extrack.PointTracker`, `extrack.PairTracker`, `extrack.pair_distance` and
//! their answers `ClosestPoint` and `PairResult`.

use super::scene::Scene;
use super::{body_index, check, pose, twist, vec3, Fail};
use crate::capi::{
    ext_closest_point, ext_feature_kind, ext_mode, ext_point_tracker, ext_point_tracker_free, ext_point_tracker_new,
    ext_point_tracker_reset, ext_point_tracker_update, EXT_NONE,
};
use crate::capi::{
    ext_pair_distance, ext_pair_result, ext_pair_tracker, ext_pair_tracker_free, ext_pair_tracker_new,
    ext_pair_tracker_reset, ext_pair_tracker_update_pose,
};
use crate::capi::{ext_pose, ext_twist, ext_vec3};
use numpy::PyArray1;
use pyo3::prelude::*;
use std::mem::MaybeUninit;
use std::ptr::NonNull;

/// The names of the set status bits of an answer's `flags`
/// (`AnswerStatus::names`: `checked`, `unverified_face`,
/// `shell_incomplete`, `unconverged`).
fn status_names(flags: u32) -> Vec<&'static str> {
    crate::track::AnswerStatus(flags).names()
}

fn arr3<'py>(py: Python<'py>, v: ext_vec3) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_vec(py, vec![v.x, v.y, v.z])
}

fn feature(kind: ext_feature_kind, index: u32) -> (&'static str, u32) {
    let k = match kind {
        ext_feature_kind::EXT_FEATURE_PIECE => "piece",
        ext_feature_kind::EXT_FEATURE_EDGE => "edge",
        ext_feature_kind::EXT_FEATURE_VERTEX => "vertex",
    };
    (k, index)
}

fn mode(m: ext_mode) -> &'static str {
    match m {
        ext_mode::EXT_MODE_INTERIOR => "interior",
        ext_mode::EXT_MODE_U0 => "u0",
        ext_mode::EXT_MODE_U1 => "u1",
        ext_mode::EXT_MODE_V0 => "v0",
        ext_mode::EXT_MODE_V1 => "v1",
        ext_mode::EXT_MODE_CORNER => "corner",
    }
}

fn opt_piece(p: u32) -> Option<u32> {
    (p != EXT_NONE).then_some(p)
}

fn ptr<T>(p: &Option<T>) -> *const T {
    p.as_ref().map_or(std::ptr::null(), |p| p as *const T)
}

/// The closest point of a body to a query point (world coordinates, mm).
#[pyclass(module = "extrack", frozen)]
pub struct ClosestPoint(pub(crate) ext_closest_point);

#[pymethods]
impl ClosestPoint {
    /// Distance from the query to the closest boundary point (>= 0).
    #[getter]
    fn distance(&self) -> f64 {
        self.0.distance
    }
    /// Positive outside, negative inside a solid; equal to `distance` for
    /// open shells and loose faces (`has_sign` false).
    #[getter]
    fn signed_distance(&self) -> f64 {
        self.0.signed_distance
    }
    /// True when the body is a solid and `signed_distance` carries a sign.
    #[getter]
    fn has_sign(&self) -> bool {
        self.0.has_sign != 0
    }
    /// The closest boundary point, shape (3,).
    #[getter]
    fn point<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arr3(py, self.0.point)
    }
    /// Outward unit normal at the closest point, shape (3,).
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arr3(py, self.0.normal)
    }
    /// Body index of the closest point.
    #[getter]
    fn body(&self) -> u32 {
        self.0.body
    }
    /// Source face entity id (STEP `#N` / IGES DE); 0 if none.
    #[getter]
    fn face(&self) -> u64 {
        self.0.face_id
    }
    /// Absolute piece index, `None` when no piece is adjacent.
    #[getter]
    fn piece(&self) -> Option<u32> {
        opt_piece(self.0.piece)
    }
    /// The active feature: `(kind, index)` with kind `"piece"`, `"edge"` or
    /// `"vertex"` and the absolute index in the scene.
    #[getter]
    fn feature(&self) -> (&'static str, u32) {
        feature(self.0.feature_kind, self.0.feature_index)
    }
    /// Controller mode: `"interior"`, `"u0"`, `"u1"`, `"v0"`, `"v1"` or `"corner"`.
    #[getter]
    fn mode(&self) -> &'static str {
        mode(self.0.mode)
    }
    /// Witness parameters: piece `(u, v)`, edge `(t, 0)`, vertex `(0, 0)`.
    #[getter]
    fn params(&self) -> (f64, f64) {
        (self.0.params[0], self.0.params[1])
    }
    /// Controller iterations in this update.
    #[getter]
    fn iterations(&self) -> u32 {
        self.0.iterations
    }
    /// The names of the answer's status bits: `checked` (the scene carries
    /// a self-check), `unverified_face`, `shell_incomplete`, `unconverged`
    /// (the solve hit its iteration cap: the distance may be too large).
    #[getter]
    fn status(&self) -> Vec<&'static str> {
        status_names(self.0.flags)
    }
    /// Checked, no face or body failure, and the solve converged.
    #[getter]
    fn verified(&self) -> bool {
        crate::track::AnswerStatus(self.0.flags).is_verified()
    }
    fn __repr__(&self) -> String {
        let p = self.0.point;
        format!(
            "<extrack.ClosestPoint distance={} signed_distance={} point=({}, {}, {}) face={}>",
            self.0.distance, self.0.signed_distance, p.x, p.y, p.z, self.0.face_id
        )
    }
}

/// The minimum distance (or penetration) between two bodies (world
/// coordinates, mm).
#[pyclass(module = "extrack", frozen)]
pub struct PairResult(ext_pair_result);

#[pymethods]
impl PairResult {
    /// `|point_b - point_a|`: the separation, or the penetration depth.
    #[getter]
    fn distance(&self) -> f64 {
        self.0.distance
    }
    /// `distance` when apart, `-distance` when penetrating.
    #[getter]
    fn signed_distance(&self) -> f64 {
        self.0.signed_distance
    }
    /// True when the bodies interpenetrate (both solids).
    #[getter]
    fn penetrating(&self) -> bool {
        self.0.penetrating != 0
    }
    /// Witness point on body A, shape (3,).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arr3(py, self.0.point_a)
    }
    /// Witness point on body B, shape (3,).
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arr3(py, self.0.point_b)
    }
    /// Unit contact normal: the direction in which B must move to increase
    /// the separation, shape (3,).
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        arr3(py, self.0.normal)
    }
    /// Source face id of A's piece; 0 if none.
    #[getter]
    fn face_a(&self) -> u64 {
        self.0.face_id_a
    }
    /// Source face id of B's piece; 0 if none.
    #[getter]
    fn face_b(&self) -> u64 {
        self.0.face_id_b
    }
    /// A's active feature `(kind, index)`.
    #[getter]
    fn feature_a(&self) -> (&'static str, u32) {
        feature(self.0.feature_kind_a, self.0.feature_index_a)
    }
    /// B's active feature `(kind, index)`.
    #[getter]
    fn feature_b(&self) -> (&'static str, u32) {
        feature(self.0.feature_kind_b, self.0.feature_index_b)
    }
    /// Controller iterations in this update.
    #[getter]
    fn iterations(&self) -> u32 {
        self.0.iterations
    }
    /// The names of the answer's status bits: `checked` (the scene carries
    /// a self-check), `unverified_face`, `shell_incomplete`, `unconverged`
    /// (the solve hit its iteration cap: the distance may be too large).
    #[getter]
    fn status(&self) -> Vec<&'static str> {
        status_names(self.0.flags)
    }
    /// Checked, no face or body failure, and the solve converged.
    #[getter]
    fn verified(&self) -> bool {
        crate::track::AnswerStatus(self.0.flags).is_verified()
    }
    fn __repr__(&self) -> String {
        format!(
            "<extrack.PairResult distance={} penetrating={}>",
            self.0.distance,
            self.0.penetrating != 0
        )
    }
}

/// An owned tracker handle of the C ABI.
struct Owned<T: Tracker>(NonNull<T>);

/// The C trackers' destructors.
trait Tracker {
    /// Frees the handle.
    ///
    /// # Safety
    /// `p` must be a live handle of this type, not used again.
    unsafe fn free(p: *mut Self);
}

impl Tracker for ext_point_tracker {
    unsafe fn free(p: *mut Self) {
        // SAFETY: forwarded contract.
        unsafe { ext_point_tracker_free(p) }
    }
}

impl Tracker for ext_pair_tracker {
    unsafe fn free(p: *mut Self) {
        // SAFETY: forwarded contract.
        unsafe { ext_pair_tracker_free(p) }
    }
}

impl<T: Tracker> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: made by the tracker's constructor, freed once, here.
        unsafe { T::free(self.0.as_ptr()) };
    }
}

// SAFETY: a C tracker may be moved between threads (src/capi/tracker.rs:
// "belongs to one thread at a time"); it keeps its scenes alive itself.
unsafe impl<T: Tracker> Send for Owned<T> {}
// SAFETY: the Python classes holding an `Owned` reach it only through
// `&mut self` (PyO3's exclusive borrow), so no two threads use it at once.
unsafe impl<T: Tracker> Sync for Owned<T> {}

/// A point–body tracker: the closest point of one body to a moving point,
/// coherent from update to update (the first update is a cold start). Make
/// one with `Scene.point_tracker(body)`. Use it from one thread at a time.
#[pyclass(module = "extrack")]
pub struct PointTracker(Owned<ext_point_tracker>);

impl PointTracker {
    /// A tracker of body `body` of `scene` with the default settings.
    pub(crate) fn create(scene: &Scene, body: i64) -> PyResult<PointTracker> {
        let body = body_index(body)?;
        let mut out: *mut ext_point_tracker = std::ptr::null_mut();
        // SAFETY: a live scene; NULL config = defaults; `out` writable.
        check(unsafe { ext_point_tracker_new(scene.ptr(), body, std::ptr::null(), &mut out) })?;
        let p = NonNull::new(out).ok_or_else(|| Fail::new("EXT_PANIC", "no tracker returned"))?;
        Ok(PointTracker(Owned(p)))
    }
}

#[pymethods]
impl PointTracker {
    /// One update: the closest point to `q` (3 numbers, mm) moving at
    /// `q_dot` (mm/s; `None` = at rest), `dt` s after the previous update
    /// (finite, >= 0). `pose`: the body's motion relative to its placement
    /// (`None`, a 4×4 row-major matrix or `(position, quaternion w x y z)`);
    /// `twist`: its velocity (`None`, 6 numbers `ω, v` or `(ω, v)`).
    /// Raises `extrack.Error`; the tracker then keeps its state.
    #[pyo3(signature = (q, q_dot = None, dt = 0.0, pose = None, twist = None))]
    fn update(
        &mut self,
        q: &Bound<'_, PyAny>,
        q_dot: Option<&Bound<'_, PyAny>>,
        dt: f64,
        pose: Option<&Bound<'_, PyAny>>,
        twist: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ClosestPoint> {
        let q = vec3(q, "point")?;
        let q_dot = match q_dot.filter(|o| !o.is_none()) {
            Some(v) => Some(vec3(v, "point_velocity")?),
            None => None,
        };
        let pose: Option<ext_pose> = super::pose(pose, "pose")?;
        let twist: Option<ext_twist> = super::twist(twist, "twist")?;
        let mut out = MaybeUninit::<ext_closest_point>::uninit();
        // SAFETY: a live tracker used by this thread only (`&mut self`); the
        // inputs are live locals or NULL; `out` is writable.
        check(unsafe {
            ext_point_tracker_update(
                self.0 .0.as_ptr(),
                &q,
                ptr(&q_dot),
                ptr(&pose),
                ptr(&twist),
                dt,
                out.as_mut_ptr(),
            )
        })?;
        // SAFETY: written on success.
        Ok(ClosestPoint(unsafe { out.assume_init() }))
    }

    /// Forgets the tracking history: the next update is a cold start.
    fn reset(&mut self) -> PyResult<()> {
        // SAFETY: a live tracker used by this thread only.
        Ok(check(unsafe { ext_point_tracker_reset(self.0 .0.as_ptr()) })?)
    }
}

/// A body–body tracker: the minimum distance (or penetration) between body
/// `body_a` of `scene_a` and body `body_b` of `scene_b`, coherent from update
/// to update. Use it from one thread at a time.
#[pyclass(module = "extrack")]
pub struct PairTracker(Owned<ext_pair_tracker>);

#[pymethods]
impl PairTracker {
    /// A tracker with the default settings. Raises `extrack.Error`.
    #[new]
    fn new(scene_a: &Bound<'_, Scene>, body_a: i64, scene_b: &Bound<'_, Scene>, body_b: i64) -> PyResult<Self> {
        let (a, b) = (body_index(body_a)?, body_index(body_b)?);
        let mut out: *mut ext_pair_tracker = std::ptr::null_mut();
        // SAFETY: live scenes; NULL config = defaults; `out` writable.
        check(unsafe {
            ext_pair_tracker_new(
                scene_a.get().ptr(),
                a,
                scene_b.get().ptr(),
                b,
                std::ptr::null(),
                &mut out,
            )
        })?;
        let p = NonNull::new(out).ok_or_else(|| Fail::new("EXT_PANIC", "no tracker returned"))?;
        Ok(PairTracker(Owned(p)))
    }

    /// One update with the bodies' poses relative to their placements
    /// (`None`, 4×4 row-major matrices or `(position, quaternion)`), their
    /// twists (`None` = at rest) and `dt` s since the previous update.
    /// Raises `extrack.Error`; the tracker then keeps its state.
    #[pyo3(signature = (pose_a = None, pose_b = None, dt = 0.0, twist_a = None, twist_b = None))]
    fn update(
        &mut self,
        pose_a: Option<&Bound<'_, PyAny>>,
        pose_b: Option<&Bound<'_, PyAny>>,
        dt: f64,
        twist_a: Option<&Bound<'_, PyAny>>,
        twist_b: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PairResult> {
        let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
        let (ta, tb) = (twist(twist_a, "twist_a")?, twist(twist_b, "twist_b")?);
        let mut out = MaybeUninit::<ext_pair_result>::uninit();
        // SAFETY: a live tracker used by this thread only; inputs live or
        // NULL; `out` writable.
        check(unsafe {
            ext_pair_tracker_update_pose(
                self.0 .0.as_ptr(),
                ptr(&pa),
                ptr(&pb),
                ptr(&ta),
                ptr(&tb),
                dt,
                out.as_mut_ptr(),
            )
        })?;
        // SAFETY: written on success.
        Ok(PairResult(unsafe { out.assume_init() }))
    }

    /// Forgets the tracking history: the next update is a cold start.
    fn reset(&mut self) -> PyResult<()> {
        // SAFETY: a live tracker used by this thread only.
        Ok(check(unsafe { ext_pair_tracker_reset(self.0 .0.as_ptr()) })?)
    }
}

/// The minimum distance (or penetration) between body `body_a` of `scene_a`
/// and body `body_b` of `scene_b` at the given poses (relative to their
/// placements; `None` = where the files put them), from scratch. Releases the
/// GIL. Raises `extrack.Error`.
#[pyfunction]
#[pyo3(signature = (scene_a, body_a, scene_b, body_b, pose_a = None, pose_b = None))]
fn pair_distance(
    py: Python<'_>,
    scene_a: &Bound<'_, Scene>,
    body_a: i64,
    scene_b: &Bound<'_, Scene>,
    body_b: i64,
    pose_a: Option<&Bound<'_, PyAny>>,
    pose_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<PairResult> {
    let (a, b) = (body_index(body_a)?, body_index(body_b)?);
    let (pa, pb) = (pose(pose_a, "pose_a")?, pose(pose_b, "pose_b")?);
    let (sa, sb): (&Scene, &Scene) = (scene_a.get(), scene_b.get());
    let r = py.allow_threads(|| -> Result<ext_pair_result, Fail> {
        let mut out = MaybeUninit::<ext_pair_result>::uninit();
        // SAFETY: live scenes (borrowed for the call); inputs live or NULL;
        // `out` writable.
        check(unsafe { ext_pair_distance(sa.ptr(), a, ptr(&pa), sb.ptr(), b, ptr(&pb), out.as_mut_ptr()) })?;
        // SAFETY: written on success.
        Ok(unsafe { out.assume_init() })
    })?;
    Ok(PairResult(r))
}

/// Adds the tracker items to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ClosestPoint>()?;
    m.add_class::<PairResult>()?;
    m.add_class::<PointTracker>()?;
    m.add_class::<PairTracker>()?;
    m.add_function(wrap_pyfunction!(pair_distance, m)?)?;
    Ok(())
}

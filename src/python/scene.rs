//! `extrack.Scene`: import + prepare, load, save, body facts, closest-point
//! queries; and `prepare_file`, the per-file step of `extrack.dask`.

use super::{body_index, check, float_array, vec3, Fail};
use crate::batch::{prepare_file as prepare_one, process_file, FileOptions};
use crate::capi::ext_closest_point;
use crate::capi::{
    ext_body_info, ext_body_kind, ext_scene, ext_scene_body_count, ext_scene_body_info, ext_scene_body_name,
    ext_scene_find_body, ext_scene_free, ext_scene_load_buffer,
};
use crate::capi::{ext_pose, ext_vec3};
use crate::capi::{ext_scene_closest_point, ext_scene_closest_points, EXT_ALL_BODIES};
use crate::scene::SceneError;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::ffi::CString;
use std::path::PathBuf;
use std::ptr::NonNull;

/// An owned `ext_scene` handle.
struct Handle(NonNull<ext_scene>);

// SAFETY: an `ext_scene` is immutable once created and documented as usable
// from any number of threads at once (src/capi/scene.rs); the handle is freed
// only by `Drop`, when no borrow of it remains.
unsafe impl Send for Handle {}
// SAFETY: as above: every use through `&Handle` is a read-only C ABI call
// that the C ABI allows concurrently.
unsafe impl Sync for Handle {}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle came from an `ext_scene_*` constructor and is
        // freed once, here.
        unsafe { ext_scene_free(self.0.as_ptr()) };
    }
}

/// A prepared scene: the bodies of a STEP/IGES file, ready for distance
/// queries and trackers. Immutable; may be shared by threads.
#[pyclass(module = "extrack", frozen)]
pub struct Scene {
    handle: Handle,
    /// The bytes of the scene file (packed or plain), for `save`.
    bytes: Vec<u8>,
}

impl Scene {
    /// The C handle, for the trackers.
    pub(crate) fn ptr(&self) -> *const ext_scene {
        self.handle.0.as_ptr()
    }

    /// A scene from the bytes of an `.exs` file (validated completely).
    fn from_vec(bytes: Vec<u8>) -> Result<Scene, Fail> {
        let mut out: *mut ext_scene = std::ptr::null_mut();
        // SAFETY: `bytes` is readable for its length; `out` is a live local.
        check(unsafe { ext_scene_load_buffer(bytes.as_ptr(), bytes.len(), &mut out) })?;
        let handle = NonNull::new(out).ok_or_else(|| Fail::new("EXT_PANIC", "no scene returned"))?;
        Ok(Scene {
            handle: Handle(handle),
            bytes,
        })
    }

    fn info(&self, body: u32) -> Result<ext_body_info, Fail> {
        let mut info = std::mem::MaybeUninit::<ext_body_info>::uninit();
        // SAFETY: a live scene; `info` is writable and written on success.
        check(unsafe { ext_scene_body_info(self.ptr(), body, info.as_mut_ptr()) })?;
        // SAFETY: written on success.
        Ok(unsafe { info.assume_init() })
    }

    fn name(&self, body: u32) -> Result<String, Fail> {
        let mut len = 0usize;
        // SAFETY: length query with a NULL buffer; `len` is writable.
        check(unsafe { ext_scene_body_name(self.ptr(), body, std::ptr::null_mut(), 0, &mut len) })?;
        let mut buf = vec![0u8; len + 1];
        // SAFETY: `buf` has `len + 1` writable bytes.
        check(unsafe { ext_scene_body_name(self.ptr(), body, buf.as_mut_ptr().cast(), buf.len(), &mut len) })?;
        buf.truncate(len);
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }
}

/// The C body selector of an optional body index.
fn selector(body: Option<i64>) -> Result<u32, Fail> {
    body.map_or(Ok(EXT_ALL_BODIES), body_index)
}

/// A pose argument, or NULL.
fn pose_ptr(p: &Option<ext_pose>) -> *const ext_pose {
    p.as_ref().map_or(std::ptr::null(), |p| p as *const ext_pose)
}

fn options(max_cone_deg: f64, plain: bool) -> FileOptions {
    FileOptions { max_cone_deg, plain }
}

#[pymethods]
impl Scene {
    /// Imports a STEP (AP203/214/242) or IGES file and prepares it (the
    /// offline stage), as `extrack import FILE -o F.exs` does: `save` writes
    /// the same bytes. Options: `max_cone_deg`, the largest normal-cone
    /// half-angle of a convex piece in degrees (0 < x < 90); `plain`, keep
    /// the plain layout instead of the packed container for `save`. Releases
    /// the GIL. Raises `extrack.Error`.
    #[staticmethod]
    #[pyo3(signature = (path, *, max_cone_deg = 80.0, plain = false))]
    fn import_file(py: Python<'_>, path: PathBuf, max_cone_deg: f64, plain: bool) -> PyResult<Scene> {
        let scene = py.allow_threads(|| {
            let p = prepare_one(&path, &options(max_cone_deg, plain)).map_err(|e| {
                use crate::batch::BatchError as B;
                use crate::import::ImportError;
                use crate::prepare::PrepareError;
                let status = match &e {
                    B::Import(ImportError::Io { .. }) | B::Io { .. } => "EXT_IO",
                    B::Import(_) | B::NoFileName(_) => "EXT_IMPORT",
                    B::Prepare(PrepareError::Option(_)) => "EXT_INVALID_ARGUMENT",
                    B::Prepare(_) => "EXT_PREPARE",
                    B::Scene(_) => "EXT_INVALID_SCENE",
                    B::Panic(_) => "EXT_PANIC",
                };
                Fail::new(status, e.to_string())
            })?;
            Scene::from_vec(p.bytes)
        })?;
        Ok(scene)
    }

    /// Loads a scene file (`.exs`, packed or plain), validating it
    /// completely. Releases the GIL. Raises `extrack.Error`.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Scene> {
        Ok(py.allow_threads(|| {
            let bytes = std::fs::read(&path).map_err(|source| {
                Fail::new(
                    "EXT_IO",
                    SceneError::Io {
                        path: path.clone(),
                        source,
                    }
                    .to_string(),
                )
            })?;
            Scene::from_vec(bytes)
        })?)
    }

    /// A scene from the bytes of a scene file (`Scene.to_bytes`, or an
    /// `.exs` file read by the caller). Raises `extrack.Error`.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: Vec<u8>) -> PyResult<Scene> {
        Ok(py.allow_threads(|| Scene::from_vec(data))?)
    }

    /// Writes the scene file (`.exs`): the bytes `extrack import` writes for
    /// an imported scene, the file's own bytes for a loaded one.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        Ok(py.allow_threads(|| {
            std::fs::write(&path, &self.bytes).map_err(|e| Fail::new("EXT_IO", format!("{}: {e}", path.display())))
        })?)
    }

    /// The bytes of the scene file.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.bytes)
    }

    /// Number of bodies.
    #[getter]
    fn body_count(&self) -> PyResult<u32> {
        let mut n = 0u32;
        // SAFETY: a live scene; `n` is writable.
        check(unsafe { ext_scene_body_count(self.ptr(), &mut n) })?;
        Ok(n)
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(self.body_count()? as usize)
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "<extrack.Scene: {} bodies, {} bytes>",
            self.body_count()?,
            self.bytes.len()
        ))
    }

    /// Facts about every body: a list of dicts with `name`, `kind`
    /// (`"solid"`, `"open_shell"` or `"faces"`), `pieces`, `edges`,
    /// `vertices`, `source_id`, `bbox` (min and max corners, body-local, mm)
    /// and `placement` (position, quaternion w x y z).
    #[getter]
    fn bodies<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        (0..self.body_count()?)
            .map(|b| {
                let info = self.info(b)?;
                let d = PyDict::new(py);
                d.set_item("name", self.name(b)?)?;
                d.set_item(
                    "kind",
                    match info.kind {
                        ext_body_kind::EXT_BODY_SOLID => "solid",
                        ext_body_kind::EXT_BODY_OPEN_SHELL => "open_shell",
                        ext_body_kind::EXT_BODY_FACES => "faces",
                    },
                )?;
                d.set_item("pieces", info.piece_count)?;
                d.set_item("edges", info.edge_count)?;
                d.set_item("vertices", info.vertex_count)?;
                d.set_item("source_id", info.source_id)?;
                let v = |v: ext_vec3| (v.x, v.y, v.z);
                d.set_item("bbox", (v(info.bbox.min), v(info.bbox.max)))?;
                let q = info.placement.orientation;
                d.set_item("placement", (v(info.placement.position), (q.w, q.x, q.y, q.z)))?;
                Ok(d)
            })
            .collect()
    }

    /// The index of the first body named `name`. Raises `extrack.Error`.
    fn find_body(&self, name: &str) -> PyResult<u32> {
        let c = CString::new(name).map_err(|_| Fail::new("EXT_INVALID_STRING", "`name` contains a NUL"))?;
        let mut out = 0u32;
        // SAFETY: a live scene, a NUL-terminated string, a writable `out`.
        check(unsafe { ext_scene_find_body(self.ptr(), c.as_ptr(), &mut out) })?;
        Ok(out)
    }

    /// The closest point of body `body` (`None`: every body) to one point
    /// (3 numbers), from scratch. `pose`: the body's (or the whole scene's)
    /// rigid motion relative to its placement — `None`, a 4×4 row-major
    /// matrix or `(position, quaternion w x y z)`. Raises `extrack.Error`.
    #[pyo3(signature = (point, body = None, pose = None))]
    fn closest_point(
        &self,
        point: &Bound<'_, PyAny>,
        body: Option<i64>,
        pose: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<super::tracker::ClosestPoint> {
        let q = vec3(point, "point")?;
        let sel = selector(body)?;
        let pose = super::pose(pose, "pose")?;
        let mut out = std::mem::MaybeUninit::<ext_closest_point>::uninit();
        // SAFETY: a live scene; the inputs are live locals; `out` writable.
        check(unsafe { ext_scene_closest_point(self.ptr(), sel, pose_ptr(&pose), &q, out.as_mut_ptr()) })?;
        // SAFETY: written on success.
        Ok(super::tracker::ClosestPoint(unsafe { out.assume_init() }))
    }

    /// Closest points of many points, `points` an `(N, 3)` float array
    /// (read in place when it is a C-contiguous float64 array), computed in
    /// parallel without the GIL. `body=None` answers for every body (the
    /// nearest). Returns a dict of numpy arrays: `distance` (N,),
    /// `signed_distance` (N,) (negative inside a solid), `point` (N, 3),
    /// `normal` (N, 3), `face` (N,) (source face id), `body` (N,), `piece`
    /// (N,), `has_sign` (N,). All or nothing: a bad point (e.g. NaN) raises
    /// `extrack.Error` naming its index.
    #[pyo3(signature = (points, body = None, pose = None))]
    fn closest_points<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
        body: Option<i64>,
        pose: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let arr = float_array(points, "points")?;
        let shape = arr.shape().to_vec();
        if shape.len() != 2 || shape[1] != 3 {
            return Err(Fail::invalid(format!(
                "`points` must have shape (N, 3), not {}",
                super::shape_text(&shape)
            ))
            .into());
        }
        let n = shape[0];
        let sel = selector(body)?;
        let pose = super::pose(pose, "pose")?;
        let ro = arr.readonly();
        let flat = ro.as_slice().map_err(|e| Fail::invalid(format!("`points`: {e}")))?;
        let answers = py.allow_threads(|| -> Result<Vec<ext_closest_point>, Fail> {
            let mut out: Vec<ext_closest_point> = Vec::with_capacity(n);
            // SAFETY: `flat` holds `3 n` contiguous doubles, which are `n`
            // `ext_vec3`s (`#[repr(C)]` of three f64, alignment of f64); `out`
            // has capacity `n`, is written completely on success, and does
            // not overlap the input. The scene is live.
            unsafe {
                check(ext_scene_closest_points(
                    self.ptr(),
                    sel,
                    pose_ptr(&pose),
                    flat.as_ptr().cast::<ext_vec3>(),
                    n,
                    out.as_mut_ptr(),
                ))?;
                out.set_len(n);
            }
            Ok(out)
        })?;
        let d = PyDict::new(py);
        let col = |f: &dyn Fn(&ext_closest_point) -> f64| answers.iter().map(f).collect::<Vec<f64>>();
        let vec3s = |f: &dyn Fn(&ext_closest_point) -> ext_vec3| {
            answers
                .iter()
                .flat_map(|a| {
                    let v = f(a);
                    [v.x, v.y, v.z]
                })
                .collect::<Vec<f64>>()
        };
        d.set_item("distance", PyArray1::from_vec(py, col(&|a| a.distance)))?;
        d.set_item("signed_distance", PyArray1::from_vec(py, col(&|a| a.signed_distance)))?;
        d.set_item("point", PyArray1::from_vec(py, vec3s(&|a| a.point)).reshape([n, 3])?)?;
        d.set_item("normal", PyArray1::from_vec(py, vec3s(&|a| a.normal)).reshape([n, 3])?)?;
        d.set_item(
            "face",
            PyArray1::from_vec(py, answers.iter().map(|a| a.face_id).collect::<Vec<u64>>()),
        )?;
        d.set_item(
            "body",
            PyArray1::from_vec(py, answers.iter().map(|a| a.body).collect::<Vec<u32>>()),
        )?;
        d.set_item(
            "piece",
            PyArray1::from_vec(py, answers.iter().map(|a| a.piece).collect::<Vec<u32>>()),
        )?;
        d.set_item(
            "has_sign",
            PyArray1::from_vec(py, answers.iter().map(|a| a.has_sign != 0).collect::<Vec<bool>>()),
        )?;
        Ok(d)
    }

    /// A point–body tracker of body `body` (default tracker settings).
    /// Raises `extrack.Error`.
    #[pyo3(signature = (body = 0))]
    fn point_tracker(slf: &Bound<'_, Self>, body: i64) -> PyResult<super::tracker::PointTracker> {
        super::tracker::PointTracker::create(slf.get(), body)
    }
}

/// Prepares `path` into `out_dir/<file name>.exs` as `extrack batch` does
/// (skipping an up-to-date scene unless `force`) and returns the report line
/// as JSON text. Never raises for a bad input file: the report's `error`
/// says why. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (path, out_dir, *, max_cone_deg = 80.0, plain = false, force = false))]
fn prepare_file(
    py: Python<'_>,
    path: PathBuf,
    out_dir: PathBuf,
    max_cone_deg: f64,
    plain: bool,
    force: bool,
) -> PyResult<String> {
    let report = py.allow_threads(|| {
        // a failure to create it shows as the write error in the report
        let _ = std::fs::create_dir_all(&out_dir);
        process_file(&path, &out_dir, &options(max_cone_deg, plain), force, None)
    });
    serde_json::to_string(&report).map_err(|e| Fail::new("EXT_PANIC", e.to_string()).into())
}

/// Adds the scene items to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Scene>()?;
    m.add_function(wrap_pyfunction!(prepare_file, m)?)?;
    Ok(())
}

//! The Python extension module `extrack._extrack` (PyO3; feature `python`),
//! re-exported by the pure-Python package `extrack` (`python/extrack/`).
//!
//! Every call goes through the C ABI ([`crate::capi`]), so the Python API has
//! its semantics, its input checks and its error messages: a failed status
//! becomes an `extrack.Error` carrying `ext_last_error_message` (and the
//! status name in its `status` attribute). Offline work and batch queries
//! release the GIL. Scenes are immutable and shared between threads; a
//! tracker is used by one thread at a time (PyO3's borrow flag enforces it).

use crate::capi::{ext_last_error_message, ext_status, ext_status_name};
use crate::capi::{ext_pose, ext_pose_from_matrix, ext_quat, ext_twist, ext_vec3};
use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySequence};
use std::ffi::CStr;

mod scene;
mod tracker;

pyo3::create_exception!(
    extrack,
    Error,
    PyException,
    "Base class of every error raised by extrack; `str(e)` is the library's message and `e.status` the C status name (e.g. \"EXT_IO\")."
);

/// A failed C ABI call: its status and the thread's error message, read right
/// after the call (on the thread that made it, possibly without the GIL).
#[derive(Debug)]
pub(crate) struct Fail {
    status: &'static str,
    message: String,
}

impl Fail {
    /// A failure with a status name and a message.
    pub(crate) fn new(status: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
    /// An invalid argument detected on the Python side.
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new("EXT_INVALID_ARGUMENT", message)
    }
}

impl From<Fail> for PyErr {
    fn from(f: Fail) -> PyErr {
        Python::with_gil(|py| {
            let err = Error::new_err(f.message);
            let _ = err.value(py).setattr("status", f.status);
            err
        })
    }
}

/// The message of the last failed C call on this thread.
fn last_message() -> String {
    // SAFETY: a length query (NULL buffer, length 0) writes nothing.
    let n = unsafe { ext_last_error_message(std::ptr::null_mut(), 0) };
    let mut buf = vec![0u8; n + 1];
    // SAFETY: `buf` has `n + 1` writable bytes.
    unsafe { ext_last_error_message(buf.as_mut_ptr().cast(), buf.len()) };
    buf.truncate(n);
    String::from_utf8_lossy(&buf).into_owned()
}

/// `Ok` for `EXT_OK`, else the failure with the thread's message.
pub(crate) fn check(status: ext_status) -> Result<(), Fail> {
    if status == ext_status::EXT_OK {
        return Ok(());
    }
    let name = ext_status_name(status as u32);
    // SAFETY: `ext_status_name` returns a static NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) }.to_str().unwrap_or("EXT_UNKNOWN_STATUS");
    // the names are static C strings; keep them as `&'static str`
    let name: &'static str = match name {
        "EXT_NULL_POINTER" => "EXT_NULL_POINTER",
        "EXT_INVALID_ARGUMENT" => "EXT_INVALID_ARGUMENT",
        "EXT_IO" => "EXT_IO",
        "EXT_INVALID_SCENE" => "EXT_INVALID_SCENE",
        "EXT_IMPORT" => "EXT_IMPORT",
        "EXT_PREPARE" => "EXT_PREPARE",
        "EXT_NO_SUCH_BODY" => "EXT_NO_SUCH_BODY",
        "EXT_TRACKING" => "EXT_TRACKING",
        "EXT_BUFFER_TOO_SMALL" => "EXT_BUFFER_TOO_SMALL",
        "EXT_INVALID_STRING" => "EXT_INVALID_STRING",
        "EXT_PANIC" => "EXT_PANIC",
        _ => "EXT_UNKNOWN_STATUS",
    };
    Err(Fail::new(name, last_message()))
}

/// `obj` as a C-contiguous float64 numpy array (no copy when it already is
/// one), or an `extrack.Error` naming `what`.
pub(crate) fn float_array<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "float64")?;
    let arr = py
        .import("numpy")?
        .call_method("ascontiguousarray", (obj,), Some(&kwargs))
        .map_err(|e| Fail::invalid(format!("`{what}` is not an array of numbers: {e}")))?;
    arr.downcast_into::<PyArrayDyn<f64>>()
        .map_err(|_| Fail::invalid(format!("`{what}` is not an array of numbers")).into())
}

/// A numpy shape as Python writes it: `(3, 2)`, `(4,)`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        s => format!("({})", s.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// `obj` as `N` numbers (shape `(N,)`), or an `extrack.Error` naming `what`.
fn fixed<const N: usize>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[f64; N]> {
    let arr = float_array(obj, what)?;
    if arr.shape() != [N] {
        return Err(Fail::invalid(format!(
            "`{what}` must have shape ({N},), not {}",
            shape_text(arr.shape())
        ))
        .into());
    }
    let ro = arr.readonly();
    let s = ro.as_slice().map_err(|e| Fail::invalid(format!("`{what}`: {e}")))?;
    let mut out = [0.0; N];
    out.copy_from_slice(s);
    Ok(out)
}

/// A point or vector argument: 3 numbers.
pub(crate) fn vec3(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<ext_vec3> {
    let [x, y, z] = fixed::<3>(obj, what)?;
    Ok(ext_vec3 { x, y, z })
}

/// A pose argument: `None` (the identity), a 4×4 row-major homogeneous matrix
/// (checked rigid by `ext_pose_from_matrix`), or a pair `(position,
/// quaternion)` with the quaternion `(w, x, y, z)`.
pub(crate) fn pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<ext_pose>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(seq) = obj.downcast::<PySequence>() {
        if seq.len().ok() == Some(2) {
            let p = vec3(&seq.get_item(0)?, &format!("{what}[0] (position)"))?;
            let [w, x, y, z] = fixed::<4>(&seq.get_item(1)?, &format!("{what}[1] (quaternion w, x, y, z)"))?;
            return Ok(Some(ext_pose {
                position: p,
                orientation: ext_quat { w, x, y, z },
            }));
        }
    }
    let arr = float_array(obj, what)?;
    if arr.shape() != [4, 4] {
        return Err(Fail::invalid(format!(
            "`{what}` must be a 4×4 matrix or a pair (position, quaternion), not an array of shape {}",
            shape_text(arr.shape())
        ))
        .into());
    }
    let ro = arr.readonly();
    let m = ro.as_slice().map_err(|e| Fail::invalid(format!("`{what}`: {e}")))?;
    let mut out = ext_pose {
        position: ext_vec3::default(),
        orientation: ext_quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };
    // SAFETY: `m` holds 16 readable doubles; `out` is a live local.
    check(unsafe { ext_pose_from_matrix(m.as_ptr(), 0, &mut out) })
        .map_err(|f| Fail::new(f.status, f.message.replacen("`matrix`", &format!("`{what}`"), 1)))?;
    Ok(Some(out))
}

/// A twist argument: `None` (at rest), 6 numbers `(ωx, ωy, ωz, vx, vy, vz)`,
/// or a pair `(angular, linear)`.
pub(crate) fn twist(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<ext_twist>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if let Ok(seq) = obj.downcast::<PySequence>() {
        if seq.len().ok() == Some(2) {
            return Ok(Some(ext_twist {
                angular: vec3(&seq.get_item(0)?, &format!("{what}[0] (angular)"))?,
                linear: vec3(&seq.get_item(1)?, &format!("{what}[1] (linear)"))?,
            }));
        }
    }
    let [a, b, c, d, e, f] = fixed::<6>(obj, what)?;
    Ok(Some(ext_twist {
        angular: ext_vec3 { x: a, y: b, z: c },
        linear: ext_vec3 { x: d, y: e, z: f },
    }))
}

/// A body index argument (`None` where allowed is handled by the caller).
pub(crate) fn body_index(body: i64) -> Result<u32, Fail> {
    u32::try_from(body)
        .ok()
        .filter(|&b| b != u32::MAX)
        .ok_or_else(|| Fail::new("EXT_NO_SUCH_BODY", format!("body {body} is not in the scene")))
}

/// The version of the library (`extrack --version`).
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The module `extrack._extrack`.
#[pymodule]
#[pyo3(name = "_extrack")]
fn extrack_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    scene::register(m)?;
    tracker::register(m)?;
    Ok(())
}

//! Scenes: load a prepared `.exs` file (memory-mapped) or a caller-owned
//! buffer, or import + prepare a STEP/IGES file; query bodies; free.
//!
//! An `ext_scene` is immutable once created and owns all its data (the file
//! mapping or the caller's buffer is read only during the loading call). It is
//! reference counted: trackers and couplers created from it keep it alive, so
//! `ext_scene_free` may be called while they still exist.

use super::error::{ext_status, guard, CResult, Failure};
use super::types::{ext_aabb, ext_pose, input, output};
use crate::geom::{Pose, Vec3};
#[cfg(feature = "toolchain")]
use crate::import::ImportError;
#[cfg(feature = "toolchain")]
use crate::prepare::{PrepareError, PrepareOptions};
use crate::scene::data::BodyKind;
use crate::scene::{AlignedBytes, SceneError, SceneFile, SceneView};
use crate::track::{BodyError, TrackError, TrackScene};
use nalgebra::{Matrix3, UnitQuaternion};
use std::ffi::{c_char, CStr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a body is.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ext_body_kind {
    /// A closed solid: inside and outside are defined, distances are signed.
    EXT_BODY_SOLID = 0,
    /// An open shell: unsigned distances only.
    EXT_BODY_OPEN_SHELL = 1,
    /// Loose faces: unsigned distances only.
    EXT_BODY_FACES = 2,
}

/// Facts about one body of a scene.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_body_info {
    /// Kind of body.
    pub kind: ext_body_kind,
    /// Number of prepared surface pieces.
    pub piece_count: u32,
    /// Number of edge features.
    pub edge_count: u32,
    /// Number of vertex features.
    pub vertex_count: u32,
    /// Source entity id (STEP `#N`, IGES directory entry; 0 when synthesised).
    pub source_id: u64,
    /// Placement of the body in the source file's assembly (body-local →
    /// scene). Trackers and queries compose the pose they are given with it:
    /// the identity pose (or NULL) tracks the body where the file put it.
    pub placement: ext_pose,
    /// Bounding box of the body in body-local coordinates, mm.
    pub bbox: ext_aabb,
}

/// Options of `ext_scene_import` (the offline stage); start from
/// `ext_prepare_options_default`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_prepare_options {
    /// Largest normal-cone half-angle of a convex piece, radians, in (0, π/2).
    pub max_cone_angle: f64,
    /// Most halvings when splitting a convex patch into nice pieces (≤ 30).
    pub max_split_depth: u32,
    /// Voronoi samples per edge (2 ..= 1000).
    pub edge_samples: u32,
}

/// Per-body data kept by a scene handle.
#[derive(Debug, Clone)]
pub(crate) struct BodyEntry {
    pub name: String,
    pub info: ext_body_info,
}

/// The shared, immutable content of a scene handle.
#[derive(Debug)]
pub(crate) struct SceneInner {
    /// Names and facts of the bodies.
    pub bodies: Vec<BodyEntry>,
    /// Runtime geometry of every body.
    pub track: TrackScene,
}

/// A loaded scene (opaque). Immutable; may be used from any number of threads
/// at once. Free with `ext_scene_free`.
#[allow(non_camel_case_types)]
pub struct ext_scene {
    pub(crate) inner: Arc<SceneInner>,
}

fn placement_pose(p: &[f64; 12]) -> Pose {
    let r = Matrix3::new(p[0], p[1], p[2], p[4], p[5], p[6], p[8], p[9], p[10]);
    Pose::from_parts(Vec3::new(p[3], p[7], p[11]), UnitQuaternion::from_matrix(&r))
}

impl SceneInner {
    fn from_view(view: &SceneView<'_>) -> CResult<SceneInner> {
        let bodies = view
            .bodies()
            .iter()
            .map(|b| {
                let kind = match BodyKind::from_code(b.kind) {
                    Some(BodyKind::OpenShell) => ext_body_kind::EXT_BODY_OPEN_SHELL,
                    Some(BodyKind::Faces) => ext_body_kind::EXT_BODY_FACES,
                    _ => ext_body_kind::EXT_BODY_SOLID,
                };
                BodyEntry {
                    name: view.str(b.name).to_owned(),
                    info: ext_body_info {
                        kind,
                        piece_count: b.pieces.count,
                        edge_count: b.edges.count,
                        vertex_count: b.vertices.count,
                        source_id: b.source_id,
                        placement: ext_pose::from(&placement_pose(&b.placement)),
                        bbox: ext_aabb {
                            min: b.bbox.min.into(),
                            max: b.bbox.max.into(),
                        },
                    },
                }
            })
            .collect();
        let track = TrackScene::new(view).map_err(body_failure)?;
        Ok(SceneInner { bodies, track })
    }

    /// The entry of body `body`, or `EXT_NO_SUCH_BODY`.
    pub(crate) fn body(&self, body: u32) -> CResult<&BodyEntry> {
        self.bodies.get(body as usize).ok_or_else(|| {
            Failure::new(
                ext_status::EXT_NO_SUCH_BODY,
                format_args!("body {body} is not in the scene ({} bodies)", self.bodies.len()),
            )
        })
    }
}

fn scene_failure(e: SceneError) -> Failure {
    match e {
        SceneError::Io { .. } => Failure::new(ext_status::EXT_IO, e),
        e => Failure::new(ext_status::EXT_INVALID_SCENE, e),
    }
}

/// The status of a runtime error.
pub(crate) fn body_status(e: &BodyError) -> ext_status {
    match e {
        BodyError::UnknownBody { .. } => ext_status::EXT_NO_SUCH_BODY,
        BodyError::EmptyBody(_) | BodyError::Track(TrackError::Degenerate) => ext_status::EXT_TRACKING,
        BodyError::BadGeometry { .. } | BodyError::Scene(_) => ext_status::EXT_INVALID_SCENE,
        BodyError::Track(_) => ext_status::EXT_INVALID_ARGUMENT,
    }
}

/// A runtime error as a failure.
pub(crate) fn body_failure(e: BodyError) -> Failure {
    Failure::new(body_status(&e), e)
}

#[cfg(feature = "toolchain")]
fn import_failure(e: ImportError) -> Failure {
    match e {
        ImportError::Io { .. } => Failure::new(ext_status::EXT_IO, e),
        e => Failure::new(ext_status::EXT_IMPORT, e),
    }
}

#[cfg(feature = "toolchain")]
fn prepare_failure(e: PrepareError) -> Failure {
    match e {
        PrepareError::Option(_) => Failure::invalid(e),
        e => Failure::new(ext_status::EXT_PREPARE, e),
    }
}

/// A path argument (bytes as given on Unix; UTF-8 elsewhere).
pub(crate) unsafe fn path_arg(p: *const c_char, name: &str) -> CResult<PathBuf> {
    if p.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: the caller guarantees a NUL-terminated string at `p`.
    let c = unsafe { CStr::from_ptr(p) };
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(c.to_bytes())))
    }
    #[cfg(not(unix))]
    {
        c.to_str()
            .map(PathBuf::from)
            .map_err(|_| Failure::new(ext_status::EXT_INVALID_STRING, format_args!("`{name}` is not UTF-8")))
    }
}

/// Boxes a new scene handle and writes it to `out`.
fn hand_out(inner: SceneInner, out: *mut *mut ext_scene) {
    let handle = Box::into_raw(Box::new(ext_scene { inner: Arc::new(inner) }));
    // SAFETY: `out` was checked non-NULL by the caller of this helper and the
    // entry point's contract makes it writable.
    unsafe { out.write(handle) };
}

/// The scene behind a handle pointer.
pub(crate) unsafe fn scene_ref<'a>(scene: *const ext_scene) -> CResult<&'a ext_scene> {
    // SAFETY: the entry point's contract: NULL or a live handle.
    unsafe { input(scene, "scene") }
}

/// Loads a prepared scene file (`.exs`, written by `extrack import`, packed or
/// plain) by reading it into memory (unpacking a packed one), validating it
/// completely (layout, checksums, every record) and building the runtime
/// geometry.
///
/// On success `*out` receives a new scene handle.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_IO` (missing or unreadable file),
/// `EXT_INVALID_SCENE` (not a valid scene; the message names the section and
/// record).
///
/// Ownership: `path` is borrowed for the call. The file is read only during
/// the call: the scene owns copies of everything it needs, and the file may be
/// changed or deleted afterwards. The caller owns the new handle and frees it
/// with `ext_scene_free`.
///
/// Thread safety: reentrant; any number of threads may load scenes at once.
///
/// # Safety
/// `path` must be a NUL-terminated string (bytes of a path on Unix, UTF-8
/// elsewhere); `out` must point to a writable `ext_scene*`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_load_file(path: *const c_char, out: *mut *mut ext_scene) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let path = unsafe { path_arg(path, "path") }?;
        let out = output(out, "out")?;
        let file = SceneFile::open(&path).map_err(scene_failure)?;
        let inner = SceneInner::from_view(&file.view())?;
        drop(file);
        hand_out(inner, out);
        Ok(())
    })
}

/// Loads a prepared scene from a caller-owned byte buffer holding the bytes of
/// an `.exs` file (packed or plain), validating it completely. The buffer may
/// have any alignment (a misaligned plain one is copied once, a packed one is
/// unpacked into an aligned copy).
///
/// Errors: `EXT_NULL_POINTER` (`data` NULL with `len > 0`, or `out` NULL),
/// `EXT_INVALID_SCENE`.
///
/// Ownership: the buffer stays owned by the caller and is only read during the
/// call; it may be freed or reused as soon as the function returns. The
/// caller owns the new handle and frees it with `ext_scene_free`.
///
/// Thread safety: reentrant.
///
/// # Safety
/// `data` must point to `len` readable bytes (it may be NULL only when `len` is
/// 0); `out` must point to a writable `ext_scene*`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_load_buffer(data: *const u8, len: usize, out: *mut *mut ext_scene) -> ext_status {
    guard(|| {
        let out = output(out, "out")?;
        let bytes: &[u8] = if len == 0 {
            &[]
        } else if data.is_null() {
            return Err(Failure::null("data"));
        } else {
            // SAFETY: the caller guarantees `len` readable bytes at `data`.
            unsafe { std::slice::from_raw_parts(data, len) }
        };
        let inner = if crate::scene::packed::is_packed(bytes) {
            SceneInner::from_view(&SceneFile::from_file_bytes(bytes).map_err(scene_failure)?.view())?
        } else if bytes.as_ptr() as usize % 8 == 0 {
            SceneInner::from_view(&SceneView::from_bytes(bytes).map_err(scene_failure)?)?
        } else {
            let copy = AlignedBytes::from_slice(bytes);
            SceneInner::from_view(&SceneView::from_bytes(copy.as_bytes()).map_err(scene_failure)?)?
        };
        hand_out(inner, out);
        Ok(())
    })
}

/// The message of the offline-stage entry points in a library built without
/// the `toolchain` Cargo feature (the runtime-only build).
#[cfg(not(feature = "toolchain"))]
const NO_TOOLCHAIN: &str = "built without the toolchain feature";

/// Writes the default options of the offline stage to `out` (the options
/// `extrack import` uses).
///
/// Errors: `EXT_NULL_POINTER`; `EXT_PREPARE` when the library was built
/// without the offline stage (the runtime-only build, message "built without
/// the toolchain feature").
///
/// Ownership: `out` belongs to the caller; written only on success.
///
/// Thread safety: reentrant.
///
/// # Safety
/// `out` must point to a writable `ext_prepare_options`.
#[no_mangle]
pub unsafe extern "C" fn ext_prepare_options_default(out: *mut ext_prepare_options) -> ext_status {
    guard(|| {
        let out = output(out, "out")?;
        let o = default_prepare_options()?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(o) };
        Ok(())
    })
}

/// The offline stage's default options in their C form.
#[cfg(feature = "toolchain")]
fn default_prepare_options() -> CResult<ext_prepare_options> {
    let d = PrepareOptions::default();
    Ok(ext_prepare_options {
        max_cone_angle: d.max_cone_angle,
        max_split_depth: d.max_split_depth,
        edge_samples: u32::try_from(d.edge_samples).unwrap_or(u32::MAX),
    })
}

/// Without the offline stage there are no default options.
#[cfg(not(feature = "toolchain"))]
fn default_prepare_options() -> CResult<ext_prepare_options> {
    Err(Failure::new(ext_status::EXT_PREPARE, NO_TOOLCHAIN))
}

#[cfg(feature = "toolchain")]
fn prepare_options(o: Option<&ext_prepare_options>) -> CResult<PrepareOptions<'static>> {
    let mut opts = PrepareOptions::default();
    if let Some(o) = o {
        if !(o.max_cone_angle > 0.0 && o.max_cone_angle < std::f64::consts::FRAC_PI_2) {
            return Err(Failure::invalid(format_args!(
                "max_cone_angle = {} must be in (0, π/2) radians",
                o.max_cone_angle
            )));
        }
        if o.max_split_depth > 30 {
            return Err(Failure::invalid(format_args!(
                "max_split_depth = {} must be <= 30",
                o.max_split_depth
            )));
        }
        if !(2..=1000).contains(&o.edge_samples) {
            return Err(Failure::invalid(format_args!(
                "edge_samples = {} must be in 2..=1000",
                o.edge_samples
            )));
        }
        opts.max_cone_angle = o.max_cone_angle;
        opts.max_split_depth = o.max_split_depth;
        opts.edge_samples = o.edge_samples as usize;
    }
    Ok(opts)
}

/// Imports a STEP (AP203/214/242) or IGES file (format detected from the
/// content) and prepares it with the offline stage, straight into a scene —
/// the same result as `extrack import FILE -o F.exs` followed by
/// `ext_scene_load_file`, without the intermediate file. This takes
/// milliseconds to seconds depending on the model: do it outside the servo
/// loop.
///
/// `options` may be NULL for the defaults (`ext_prepare_options_default`).
///
/// Errors: `EXT_NULL_POINTER`, `EXT_IO`, `EXT_IMPORT` (the message names the
/// line or entity), `EXT_PREPARE`, `EXT_INVALID_ARGUMENT` (options out of
/// range); `EXT_IMPORT` when the library was built without the importers (the
/// runtime-only build, message "built without the toolchain feature").
///
/// Ownership: `path` and `options` are borrowed for the call. The caller owns
/// the new handle and frees it with `ext_scene_free`.
///
/// Thread safety: reentrant.
///
/// # Safety
/// `path` must be a NUL-terminated string; `options` NULL or a readable
/// `ext_prepare_options`; `out` a writable `ext_scene*`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_import(
    path: *const c_char,
    options: *const ext_prepare_options,
    out: *mut *mut ext_scene,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let path = unsafe { path_arg(path, "path") }?;
        // SAFETY: NULL or readable by contract.
        import_scene(&path, unsafe { options.as_ref() }, out)
    })
}

/// `ext_scene_import` after its path argument: checks the options and `out`,
/// imports, prepares and hands the scene out.
#[cfg(feature = "toolchain")]
fn import_scene(path: &Path, options: Option<&ext_prepare_options>, out: *mut *mut ext_scene) -> CResult {
    let opts = prepare_options(options)?;
    let out = output(out, "out")?;
    let model = crate::import::import_file(path).map_err(import_failure)?;
    let data = crate::prepare::prepare(&model, &opts).map_err(prepare_failure)?;
    let bytes = AlignedBytes::from_slice(&data.write());
    let view = SceneView::from_bytes(bytes.as_bytes()).map_err(scene_failure)?;
    hand_out(SceneInner::from_view(&view)?, out);
    Ok(())
}

/// Without the importers and the offline stage: checks `out`, then fails.
#[cfg(not(feature = "toolchain"))]
fn import_scene(_path: &Path, _options: Option<&ext_prepare_options>, out: *mut *mut ext_scene) -> CResult {
    output(out, "out")?;
    Err(Failure::new(ext_status::EXT_IMPORT, NO_TOOLCHAIN))
}

/// Releases a scene handle. The scene's data is freed when the last tracker or
/// coupler created from it is freed too. NULL is accepted and ignored.
///
/// Ownership: takes ownership of `scene`; the pointer must not be used again.
///
/// Thread safety: the handle must not be in use by another thread during the
/// call (trackers created from it may still run).
///
/// # Safety
/// `scene` must be NULL or a handle returned by an `ext_scene_*` constructor
/// and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_free(scene: *mut ext_scene) {
    if scene.is_null() {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: the caller gives back a handle made by `Box::into_raw` here.
        drop(unsafe { Box::from_raw(scene) });
    });
}

/// Number of bodies of the scene (bodies are numbered `0 .. count-1`).
///
/// Ownership: `scene` is borrowed; `out_count` written only on success.
///
/// Thread safety: a scene may be queried from any number of threads at once.
///
/// # Safety
/// `scene` must be a live scene handle; `out_count` a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_body_count(scene: *const ext_scene, out_count: *mut u32) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        let out = output(out_count, "out_count")?;
        let n = u32::try_from(scene.inner.bodies.len()).unwrap_or(u32::MAX);
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(n) };
        Ok(())
    })
}

/// Kind, feature counts, placement and bounding box of body `body`.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_NO_SUCH_BODY`.
///
/// Ownership: `scene` is borrowed; `out` written only on success.
///
/// Thread safety: a scene may be queried from any number of threads at once.
///
/// # Safety
/// `scene` must be a live scene handle; `out` a writable `ext_body_info`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_body_info(
    scene: *const ext_scene,
    body: u32,
    out: *mut ext_body_info,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        let out = output(out, "out")?;
        let info = scene.inner.body(body)?.info;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(info) };
        Ok(())
    })
}

/// Bounding box of body `body` in body-local coordinates, mm (the same box as
/// `ext_body_info.bbox`).
///
/// Errors: `EXT_NULL_POINTER`, `EXT_NO_SUCH_BODY`.
///
/// Ownership: `scene` is borrowed; `out` written only on success.
///
/// Thread safety: a scene may be queried from any number of threads at once.
///
/// # Safety
/// `scene` must be a live scene handle; `out` a writable `ext_aabb`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_body_bbox(scene: *const ext_scene, body: u32, out: *mut ext_aabb) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        let out = output(out, "out")?;
        let bbox = scene.inner.body(body)?.info.bbox;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(bbox) };
        Ok(())
    })
}

/// Copies the name of body `body` (UTF-8, possibly empty) into `buf` with a
/// terminating NUL and writes its length in bytes (without the NUL) to
/// `out_len`.
///
/// Pass `buf = NULL` (and any `len`) to query the length only. When `buf` is
/// not NULL and `len < name length + 1`, returns `EXT_BUFFER_TOO_SMALL` and
/// writes nothing.
///
/// Errors: `EXT_NULL_POINTER` (`scene` or `out_len`), `EXT_NO_SUCH_BODY`,
/// `EXT_BUFFER_TOO_SMALL`.
///
/// Ownership: `scene` is borrowed; `buf` and `out_len` belong to the caller
/// and are written only on success.
///
/// Thread safety: a scene may be queried from any number of threads at once.
///
/// # Safety
/// `scene` must be a live scene handle; `buf` NULL or `len` writable bytes;
/// `out_len` a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_body_name(
    scene: *const ext_scene,
    body: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        let out_len = output(out_len, "out_len")?;
        let name = &scene.inner.body(body)?.name;
        if !buf.is_null() {
            if len < name.len() + 1 {
                return Err(Failure::new(
                    ext_status::EXT_BUFFER_TOO_SMALL,
                    format_args!(
                        "body {body} name needs {} bytes with the NUL, buffer has {len}",
                        name.len() + 1
                    ),
                ));
            }
            // SAFETY: `len >= name.len() + 1` writable bytes at `buf` by contract.
            unsafe {
                std::ptr::copy_nonoverlapping(name.as_ptr(), buf.cast::<u8>(), name.len());
                *buf.add(name.len()) = 0;
            }
        }
        // SAFETY: non-NULL, writable by contract.
        unsafe { out_len.write(name.len()) };
        Ok(())
    })
}

/// Finds the first body whose name equals `name` (UTF-8, exact match) and
/// writes its index to `out_body`.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_INVALID_STRING` (not UTF-8),
/// `EXT_NO_SUCH_BODY` (no body has that name).
///
/// Ownership: `scene` and `name` are borrowed; `out_body` written only on
/// success.
///
/// Thread safety: a scene may be queried from any number of threads at once.
///
/// # Safety
/// `scene` must be a live scene handle; `name` a NUL-terminated string;
/// `out_body` a writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn ext_scene_find_body(
    scene: *const ext_scene,
    name: *const c_char,
    out_body: *mut u32,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        if name.is_null() {
            return Err(Failure::null("name"));
        }
        // SAFETY: NUL-terminated by contract.
        let name = unsafe { CStr::from_ptr(name) }
            .to_str()
            .map_err(|_| Failure::new(ext_status::EXT_INVALID_STRING, "`name` is not UTF-8"))?;
        let out = output(out_body, "out_body")?;
        let idx = scene.inner.bodies.iter().position(|b| b.name == name).ok_or_else(|| {
            Failure::new(
                ext_status::EXT_NO_SUCH_BODY,
                format_args!("no body named {name:?} in the scene"),
            )
        })?;
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(idx as u32) };
        Ok(())
    })
}

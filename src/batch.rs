//! Preparing CAD files one at a time into scene files, with a per-file
//! report: the engine of `extrack batch`, of the Python package's
//! `Scene.import_file` and of `extrack.dask.prepare_many`, so that all of them
//! write the same bytes as `extrack import`.
//!
//! [`prepare_file`] imports and prepares one file in memory;
//! [`process_file`] does it for a batch: it writes `OUTDIR/<file name>.exs`
//! and, beside it, `OUTDIR/<file name>.exs.json` (the file's [`FileReport`],
//! holding the cache key), and skips the work when the key — a SHA-256 of the
//! input's bytes, the options and the extrack version — is unchanged and the
//! scene is still there. A failure (including a panic of the library) becomes
//! the report's `error`; it never propagates.

use crate::import::ImportError;
use crate::prepare::{prepare_with_stats, PrepareError, PrepareOptions, ProgressFn};
use crate::scene::{packed, SceneError};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;

/// Options of the offline stage of a batch (those of `extrack import`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FileOptions {
    /// Largest normal-cone half-angle of a convex piece, degrees (< 90);
    /// `extrack import --max-cone-deg`.
    pub max_cone_deg: f64,
    /// Write the plain in-place layout instead of the packed (Zstandard)
    /// container; `extrack import --plain`.
    pub plain: bool,
}

impl Default for FileOptions {
    fn default() -> Self {
        Self {
            max_cone_deg: 80.0,
            plain: false,
        }
    }
}

/// Why a file could not be prepared.
#[derive(Debug, Error)]
pub enum BatchError {
    /// The importer rejected the file (or could not read it).
    #[error("{0}")]
    Import(#[from] ImportError),
    /// The offline stage failed (or an option is out of range).
    #[error("{0}")]
    Prepare(#[from] PrepareError),
    /// The scene could not be written.
    #[error("{0}")]
    Scene(#[from] SceneError),
    /// An output could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The input path has no file name to name the output after.
    #[error("{0}: not a file name")]
    NoFileName(PathBuf),
    /// An internal error of the library (a panic, caught).
    #[error("internal error: {0}")]
    Panic(String),
}

/// A prepared file: the scene file's bytes and the facts of the report.
#[derive(Debug, Clone)]
pub struct PreparedFile {
    /// The bytes of the `.exs` file, exactly as `extrack import` writes them.
    pub bytes: Vec<u8>,
    /// Bodies of the scene.
    pub bodies: usize,
    /// Faces converted.
    pub faces: usize,
    /// Surface pieces of the scene.
    pub pieces: usize,
    /// Warnings of the importer and of the offline stage.
    pub warnings: Vec<String>,
    /// The verification of the scene ([`self_check`]).
    pub self_check: Option<serde_json::Value>,
}

/// One line of a batch report (JSON): the outcome for one input file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileReport {
    /// The input path, as given.
    pub file: String,
    /// The scene file written (or that would have been).
    pub output: String,
    /// Bodies of the scene (`null` on failure).
    pub bodies: Option<usize>,
    /// Faces converted (`null` on failure).
    pub faces: Option<usize>,
    /// Surface pieces (`null` on failure).
    pub pieces: Option<usize>,
    /// Warnings of the importer and of the offline stage.
    pub warnings: Vec<String>,
    /// The verification of the scene ([`self_check`]); `null` when it was not prepared.
    pub self_check: Option<serde_json::Value>,
    /// Wall time spent on this file in this run, s.
    pub seconds: f64,
    /// Why the file failed; `null` on success.
    pub error: Option<String>,
    /// True when the scene was up to date and not prepared again.
    pub up_to_date: bool,
    /// Size of the scene file, bytes (`null` on failure).
    pub output_bytes: Option<u64>,
    /// Cache key: SHA-256 (hex) of the input's bytes, the options and the
    /// extrack version (`null` when the input could not be read).
    pub key: Option<String>,
}

/// The verification of a prepared scene ([`crate::verify`]), reported as
/// `self_check` in every batch report line: `passed`, the face and failure
/// counts, and the entity ids of the failing faces.
pub fn self_check(report: &crate::verify::VerifyReport) -> Option<serde_json::Value> {
    let failing: Vec<u64> = report
        .faces
        .iter()
        .filter(|f| f.failed & crate::verify::FAILURE_BITS != 0)
        .map(|f| f.source_face)
        .collect();
    let m = &report.summary;
    Some(serde_json::json!({
        "passed": report.passed(),
        "faces": m.faces,
        "failed": m.failed,
        "dropped": m.dropped,
        "not_checked": m.not_checked,
        "incomplete_bodies": m.incomplete_bodies,
        "failed_faces": failing,
    }))
}

/// The scene file of `input` in `out_dir`: `out_dir/<input file name>.exs`.
pub fn output_path(input: &Path, out_dir: &Path) -> Result<PathBuf, BatchError> {
    let name = input
        .file_name()
        .ok_or_else(|| BatchError::NoFileName(input.to_path_buf()))?;
    let mut name = name.to_os_string();
    name.push(".exs");
    Ok(out_dir.join(name))
}

/// The report file kept beside a scene file: `<scene>.json`.
pub fn sidecar_path(output: &Path) -> PathBuf {
    let mut s = output.as_os_str().to_os_string();
    s.push(".json");
    PathBuf::from(s)
}

/// The cache key of an input's bytes under `opts`.
pub fn cache_key(input: &[u8], opts: &FileOptions) -> String {
    let mut h = Sha256::new();
    h.update(b"extrack-batch/1\0");
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(b"\0");
    h.update(opts.max_cone_deg.to_bits().to_le_bytes());
    h.update([opts.plain as u8]);
    h.update((input.len() as u64).to_le_bytes());
    h.update(input);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_owned()
    }
}

/// Imports and prepares a file already read into memory (`name`: its file
/// name, recorded in the scene) and writes the scene into bytes, exactly as
/// `extrack import` does with the same options. A panic of the library is
/// caught and returned as [`BatchError::Panic`].
pub fn prepare_bytes(
    input: &[u8],
    name: &str,
    opts: &FileOptions,
    progress: Option<ProgressFn<'_>>,
) -> Result<PreparedFile, BatchError> {
    catch_unwind(AssertUnwindSafe(|| {
        let model = crate::import::import_bytes(input, name)?;
        let popts = PrepareOptions {
            max_cone_angle: opts.max_cone_deg.to_radians(),
            progress,
            ..PrepareOptions::default()
        };
        let (mut scene, stats) = prepare_with_stats(&model, &popts)?;
        // the self-check, stored in the scene as `extrack import` does
        let report = crate::verify::verify_into(&model, &mut scene);
        let bytes = if opts.plain {
            scene.write()
        } else {
            scene.write_packed(packed::DEFAULT_LEVEL)?
        };
        Ok(PreparedFile {
            bytes,
            bodies: scene.bodies.len(),
            faces: stats.faces,
            pieces: scene.pieces.len(),
            warnings: scene.meta.warnings.clone(),
            self_check: self_check(&report),
        })
    }))
    .unwrap_or_else(|p| Err(BatchError::Panic(panic_text(&*p))))
}

/// Reads, imports and prepares the file at `path` ([`prepare_bytes`]).
pub fn prepare_file(path: &Path, opts: &FileOptions) -> Result<PreparedFile, BatchError> {
    let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    prepare_bytes(&bytes, &name, opts, None)
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that a reader never sees a partial file.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BatchError> {
    let io = |source| BatchError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// The report kept beside `output` if it describes an up-to-date scene for
/// `key`.
fn up_to_date(output: &Path, key: &str) -> Option<FileReport> {
    let text = std::fs::read_to_string(sidecar_path(output)).ok()?;
    let old: FileReport = serde_json::from_str(&text).ok()?;
    let len = std::fs::metadata(output).ok()?.len();
    (old.error.is_none() && old.key.as_deref() == Some(key) && old.output_bytes == Some(len)).then_some(old)
}

/// Prepares `input` into `out_dir/<file name>.exs` (see the module docs) and
/// reports the outcome; never fails and never panics out. Unless `force`, a
/// scene whose kept report has the same cache key and whose size matches is
/// not prepared again (`up_to_date`). On failure a stale scene and report of
/// the same name are removed, so that a later run does not take them for
/// current. `progress` receives the offline stage's progress.
pub fn process_file(
    input: &Path,
    out_dir: &Path,
    opts: &FileOptions,
    force: bool,
    progress: Option<ProgressFn<'_>>,
) -> FileReport {
    let t0 = Instant::now();
    let mut report = FileReport {
        file: input.display().to_string(),
        output: String::new(),
        bodies: None,
        faces: None,
        pieces: None,
        warnings: Vec::new(),
        self_check: None,
        seconds: 0.0,
        error: None,
        up_to_date: false,
        output_bytes: None,
        key: None,
    };
    let output = match output_path(input, out_dir) {
        Ok(o) => o,
        Err(e) => {
            report.error = Some(e.to_string());
            report.seconds = t0.elapsed().as_secs_f64();
            return report;
        }
    };
    report.output = output.display().to_string();
    let result = (|| -> Result<(), BatchError> {
        let bytes = std::fs::read(input).map_err(|source| ImportError::Io {
            path: input.display().to_string(),
            source,
        })?;
        let key = cache_key(&bytes, opts);
        report.key = Some(key.clone());
        if !force {
            if let Some(old) = up_to_date(&output, &key) {
                report.bodies = old.bodies;
                report.faces = old.faces;
                report.pieces = old.pieces;
                report.warnings = old.warnings;
                report.self_check = old.self_check;
                report.output_bytes = old.output_bytes;
                report.up_to_date = true;
                return Ok(());
            }
        }
        let name = input
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let p = prepare_bytes(&bytes, &name, opts, progress)?;
        write_atomic(&output, &p.bytes)?;
        report.bodies = Some(p.bodies);
        report.faces = Some(p.faces);
        report.pieces = Some(p.pieces);
        report.warnings = p.warnings;
        report.self_check = p.self_check;
        report.output_bytes = Some(p.bytes.len() as u64);
        let mut kept = report.clone();
        kept.seconds = t0.elapsed().as_secs_f64();
        let json = serde_json::to_string(&kept).map_err(|e| BatchError::Panic(e.to_string()))?;
        write_atomic(&sidecar_path(&output), json.as_bytes())
    })();
    if let Err(e) = result {
        report.error = Some(e.to_string());
        let _ = std::fs::remove_file(sidecar_path(&output));
        let _ = std::fs::remove_file(&output);
    }
    report.seconds = t0.elapsed().as_secs_f64();
    report
}

/// The report of an input whose output name is already taken by an earlier
/// input of the same batch (two inputs with the same file name).
pub fn collision_report(input: &Path, out_dir: &Path, first: &Path) -> FileReport {
    let output = output_path(input, out_dir)
        .map(|o| o.display().to_string())
        .unwrap_or_default();
    FileReport {
        file: input.display().to_string(),
        error: Some(format!(
            "{output}: output name already used by {} in this batch",
            first.display()
        )),
        output,
        bodies: None,
        faces: None,
        pieces: None,
        warnings: Vec::new(),
        self_check: None,
        seconds: 0.0,
        up_to_date: false,
        output_bytes: None,
        key: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name)
    }

    #[test]
    fn output_is_named_after_the_input_file() {
        let o = output_path(Path::new("/a/b/part.step"), Path::new("out")).unwrap();
        assert_eq!(o, Path::new("out/part.step.exs"));
        assert_eq!(sidecar_path(&o), Path::new("out/part.step.exs.json"));
        assert!(output_path(Path::new("/"), Path::new("out")).is_err());
    }

    #[test]
    fn key_depends_on_content_and_options() {
        let d = FileOptions::default();
        let k = cache_key(b"abc", &d);
        assert_eq!(k.len(), 64);
        assert_eq!(k, cache_key(b"abc", &d));
        assert_ne!(k, cache_key(b"abd", &d));
        assert_ne!(k, cache_key(b"abc", &FileOptions { plain: true, ..d }));
        assert_ne!(
            k,
            cache_key(
                b"abc",
                &FileOptions {
                    max_cone_deg: 70.0,
                    ..d
                }
            )
        );
    }

    #[test]
    fn process_skips_up_to_date_and_reports_failures() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("ellipsoid.step");
        std::fs::copy(fixture("ellipsoid.step"), &input).unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let opts = FileOptions::default();
        let r1 = process_file(&input, &out, &opts, false, None);
        assert_eq!(r1.error, None);
        assert!(!r1.up_to_date);
        assert_eq!(r1.bodies, Some(1));
        assert!(r1.pieces.unwrap() > 0);
        // the self-check ran and is reported (import's, the same bytes)
        assert!(r1.self_check.is_some());
        let bytes = std::fs::read(out.join("ellipsoid.step.exs")).unwrap();
        assert_eq!(bytes, prepare_file(&input, &opts).unwrap().bytes);
        let r2 = process_file(&input, &out, &opts, false, None);
        assert!(r2.up_to_date);
        assert_eq!((r2.bodies, r2.pieces, &r2.key), (r1.bodies, r1.pieces, &r1.key));
        // other options: prepared again
        let r3 = process_file(&input, &out, &FileOptions { plain: true, ..opts }, false, None);
        assert!(!r3.up_to_date);
        // a broken input: reported, stale outputs removed
        std::fs::write(&input, b"ISO-10303-21;\nthis is not STEP").unwrap();
        let r4 = process_file(&input, &out, &opts, false, None);
        assert!(r4.error.is_some(), "{r4:?}");
        assert!(!out.join("ellipsoid.step.exs").exists());
        assert!(!out.join("ellipsoid.step.exs.json").exists());
        // a missing input
        let r5 = process_file(&dir.path().join("missing.step"), &out, &opts, false, None);
        assert!(r5.error.unwrap().contains("missing.step"));
        assert!(r5.key.is_none());
    }
}

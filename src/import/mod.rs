//! Importers (IGES, STEP) into the B-rep [`Model`].
//!
//! [`import_file`] picks the format from the file's first bytes (not its
//! extension): `ISO-10303-21;` is STEP, an 80-column record with `S` in column
//! 73 is IGES.

internal! {
    mod curve_agreement;
    mod escape;
    mod eval;
    mod iges;
    mod model;
    mod number;
    mod report;
    mod sanity;
    mod step;
}

pub use iges::{read_iges, IgesError};
pub use model::{
    Body, BodyKind, Coedge, Curve, CurveSegment, Edge, Face, Loop, Model, Shell, SourceFormat, SourceId, Surface,
    Units, Vertex,
};
pub use report::{BodySummary, InspectReport};
pub use sanity::SanityError;
pub use step::{read_step, At, StepError};

use std::path::Path;
use thiserror::Error;

/// Why a file could not be imported.
#[derive(Debug, Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// Path given.
        path: String,
        /// OS error.
        source: std::io::Error,
    },
    /// The IGES reader rejected the file (the message names line and directory entry).
    #[error("IGES: {0}")]
    Iges(#[from] iges::IgesError),
    /// Neither STEP nor IGES.
    #[error("{0}: not a STEP (ISO-10303-21) or IGES file")]
    UnknownFormat(String),
    /// The STEP reader rejected the file.
    #[error(transparent)]
    Step(#[from] step::StepError),
    /// The Model holds values that cannot be prepared meaningfully
    /// (non-finite or absurd coordinates, broken knot vectors or weights;
    /// see `sanity`).
    #[error(transparent)]
    Sanity(#[from] sanity::SanityError),
}

/// Formats the importers recognise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// IGES.
    Iges,
    /// STEP (ISO 10303-21).
    Step,
}

/// Detects the format from the content.
pub fn sniff(bytes: &[u8]) -> Option<FileFormat> {
    let head = &bytes[..bytes.len().min(4096)];
    let trimmed = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map_or(&head[..0], |i| &head[i..]);
    if trimmed.starts_with(b"ISO-10303-21") {
        return Some(FileFormat::Step);
    }
    // IGES: first record has the section letter S (or s) in column 73.
    let first_line = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let first_line = first_line.strip_suffix(b"\r").unwrap_or(first_line);
    if first_line.len() >= 73 && matches!(first_line[72], b'S' | b's') {
        return Some(FileFormat::Iges);
    }
    None
}

/// Reads a file from disk and imports it (format sniffed from content).
pub fn import_file(path: impl AsRef<Path>) -> Result<Model, ImportError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    import_bytes(&bytes, &name)
}

/// Imports a file already in memory; `file_name` is recorded in the Model.
/// The Model has passed the sanity pass (`sanity::check`: refused with
/// [`ImportError::Sanity`], or its warnings appended), and a warning names
/// each preferred p-curve that leaves its model-space curve beyond the
/// file's tolerance (`curve_agreement::check`).
pub fn import_bytes(bytes: &[u8], file_name: &str) -> Result<Model, ImportError> {
    let mut model = match sniff(bytes) {
        None => return Err(ImportError::UnknownFormat(escape::escape_str(file_name))),
        Some(FileFormat::Step) => step::read_step(bytes, file_name)?,
        Some(FileFormat::Iges) => iges::read_iges(bytes, file_name)?,
    };
    sanity::check(&mut model)?;
    let disagree = curve_agreement::check(&model);
    model.warnings.extend(disagree);
    Ok(model)
}

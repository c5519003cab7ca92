//! IGES 5.3 reader (nom-based) into the B-rep [`Model`].
//!
//! Pipeline: [`records`] splits the fixed 80-column records into sections,
//! [`global`] reads delimiters, units and producer, [`directory`] the entity
//! directory, [`params`] lexes each entity's parameter data; the converters
//! ([`curves`], [`surfaces`], [`faces`], [`brep`]) map entities into the
//! Model with their [`transform`] chains applied, and [`build`] turns the
//! independent entities into bodies. The coverage table and the rules are in
//! `formats/iges.md`.

// Comparisons like `!(x > 0.0)` are deliberate: they also reject NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod accounting;
pub mod brep;
pub mod build;
pub mod curves;
pub mod directory;
pub mod error;
pub mod faces;
pub mod global;
pub mod nurbs;
pub mod params;
pub mod reader;
pub mod records;
pub mod surfaces;
pub mod transform;

pub use error::IgesError;

use super::model::{Model, SourceFormat, Units};

/// Reads an IGES file from memory. `file_name` is recorded in the Model.
///
/// Geometry ends up in model space in millimetres (unit flag and model-space
/// scale applied, every 124 chain applied); every body has the identity
/// placement.
pub fn read_iges(bytes: &[u8], file_name: &str) -> Result<Model, IgesError> {
    let recs = records::split(bytes)?;
    let global = global::parse(&recs.global)?;
    let dir = directory::parse(&recs.directory)?;
    let (unit_name, mm, unit_warning) = global.units();
    let mut model = Model::new(SourceFormat::Iges, file_name);
    model.producer = global.producer();
    model.units = Units {
        name: unit_name,
        mm_per_unit: mm,
    };
    model.tolerance = global.resolution.map(|r| r * mm);
    let mut reader = reader::Reader::new(recs, global, dir, mm);
    if let Some(w) = unit_warning {
        reader.notes.push(w);
    }
    if reader.global.scale != 1.0 {
        reader.notes.push(format!(
            "model-space scale {} applied: lengths divided by it",
            reader.global.scale
        ));
    }
    reader.build(&mut model)?;
    if model.faces.is_empty() {
        // no face could be read: the first face's own error says why
        if let Some(e) = reader.first_face_error.take() {
            return Err(e);
        }
    }
    model.warnings = reader.warnings();
    Ok(model)
}

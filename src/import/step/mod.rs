//! STEP (ISO 10303-21; AP203, AP214, AP242) B-rep importer.
//!
//! [`read_step`] parses the exchange structure in one pass ([`parser`], into
//! the flat [`arena`]), then maps the entities reachable from the product
//! structure into a [`Model`]: units per representation context ([`units`]),
//! geometry with Open CASCADE's parameterisations ([`geometry`]), shared
//! topology ([`topology`]) and placed bodies along the assembly tree
//! ([`product`]). Entity types that were never read are reported as counted
//! warnings, one line per type. Coverage and rules: `formats/step.md`.

pub mod access;
pub mod accounting;
pub mod arena;
pub mod builder;
pub mod edge_ends;
pub mod error;
pub mod geometry;
pub mod header;
pub mod parser;
pub mod product;
pub mod strings;
pub mod topology;
pub mod units;

pub use error::{At, StepError};

use crate::import::model::{Model, SourceFormat};

/// Reads a STEP file held in memory into a Model (lengths in mm).
pub fn read_step(bytes: &[u8], file_name: &str) -> Result<Model, StepError> {
    let ex = parser::parse(bytes)?;
    let header = header::read_header(&ex)?;
    let mut model = Model::new(SourceFormat::Step, file_name);
    model.producer = header.producer;
    model.warnings.extend(ex.warnings.iter().cloned());
    let mut b = builder::Builder::new(&ex, model);
    b.build_bodies()?;
    b.account_unreached_faces();
    let mut warnings = b.skipped_warnings();
    // wrong-type references read anyway: the first ones each, then a count
    const SHOWN: usize = 20;
    // (a shared geometry is looked at once per use)
    let mut seen = std::collections::HashSet::new();
    let mut type_notes: Vec<String> = ex.type_notes.borrow_mut().drain(..).collect();
    type_notes.retain(|w| seen.insert(w.clone()));
    let extra = type_notes.len().saturating_sub(SHOWN);
    warnings.extend(type_notes.into_iter().take(SHOWN));
    if extra > 0 {
        warnings.push(format!("{extra} more references to an instance of another type than required"));
    }
    if let Some(first) = b.pcurve_range_misses.first() {
        let n = b.pcurve_range_misses.len();
        warnings.push(format!(
            "{n} p-curve{} (first #{first}): no range of the p-curve joins its edge's vertices; the 3-D curve's range kept",
            if n == 1 { "" } else { "s" }
        ));
    }
    warnings.extend(edge_ends::warnings(&b.edge_ends));
    let first_face_error = b.first_face_error.take();
    let mut model = b.model;
    if model.faces.is_empty() {
        // no face could be read: the first face's own error says why
        if let Some(e) = first_face_error {
            return Err(e);
        }
        // never a silent empty scene
        let skipped: Vec<&str> = model
            .warnings
            .iter()
            .chain(&warnings)
            .map(String::as_str)
            .take(4)
            .collect();
        return Err(StepError::NoGeometry {
            detail: format!(
                "{} bod{} and no solid, shell, face or bounded surface in any shape representation{}{}",
                model.bodies.len(),
                if model.bodies.len() == 1 { "y" } else { "ies" },
                if skipped.is_empty() { "" } else { "; " },
                skipped.join("; ")
            ),
        });
    }
    model.warnings.append(&mut warnings);
    Ok(model)
}
#[cfg(test)]
mod tests;

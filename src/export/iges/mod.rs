//! IGES 5.3 writer for the B-rep [`Model`] (formats/export.md has the tables).
//!
//! Two modes:
//! - **B-rep** (default): per body a 186 manifold solid (solids) or a root 514
//!   shell (open shells), 514 shells, 510 faces, 508 loops with their
//!   parameter-space curves, one 504 edge list and one 502 vertex list per
//!   file; loose faces become root 510 faces. A body's placement is a 124
//!   transformation matrix on its 186 / 514 / 510 entities.
//! - **faces**: per face a 144 trimmed surface whose 142 curves on surface
//!   carry the loop as a 102 composite of p-curves and a 102 composite of
//!   3-D curves (placements as 124 on the 144).
//!
//! Surfaces: B-splines as 128, planes 190, cylinders 192, cones 194, spheres
//! 196, tori 198 (form 1, with reference directions), revolutions 120,
//! extrusions 122, offsets 140. P-curves are written in the IGES surface's
//! parameter space (degrees for the angles of 192–198, the IGES
//! parameterisations of 120 / 122). Curves: 110 lines, 100 circular arcs
//! (with a 124 for the arc's plane), 126 B-splines (rational or not), 106
//! form 12 polylines, 102 composites; ellipses, parabolas and hyperbolas as
//! exact rational 126 (a warning names each conversion).
//!
//! Numbers are written in Rust's shortest round-trip form (`1.E-7` style), the
//! unit is millimetre (flag 2), every record is exactly 80 columns.
//!
//! One concept per file: `records` (the 80-column file sections, reals and
//! Hollerith strings), `writer` (the entity list), `curves` and `surfaces`
//! (geometry entities), `pspace` (the map into IGES surface parameters and
//! the p-curves), `brep` (the 186 / 514 / 510 / 508 / 504 / 502 topology,
//! 308 / 408 instances), `natural` (the outer loop of a face bounded by its
//! surface's natural rectangle) and `trimmed` (faces mode: 144 / 142).

mod brep;
mod curves;
pub(super) mod natural;
mod pspace;
mod records;
mod surfaces;
mod trimmed;
mod writer;

pub(crate) use curves::shift_curve;
pub use records::{hollerith, param_lines, real};

use super::{check_finite, ExportError, Written};
use crate::import::model::Model;
use records::assemble;
use std::collections::HashMap;
use writer::W;

/// Options of the IGES writer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IgesOptions {
    /// Write 144/142 trimmed surfaces instead of the 186 B-rep.
    pub faces_mode: bool,
    /// File name written in the global section (default: the Model's name with `.igs`).
    pub file_name: Option<String>,
}

/// Writes `model` as an IGES 5.3 file.
pub fn write_iges(model: &Model, opts: &IgesOptions) -> Result<Written, ExportError> {
    check_finite(model)?;
    // every length in the source unit (the global section's unit flag and name)
    let scaled = crate::export::units::to_file_units(model);
    let model: &Model = &scaled;
    let mut w = W {
        ents: Vec::new(),
        warnings: Vec::new(),
        conversions: HashMap::new(),
    };
    let mut roots: Vec<usize> = Vec::new();
    let free = model
        .bodies
        .iter()
        .flat_map(|b| b.face_indices())
        .filter_map(|f| model.faces.get(f))
        .flat_map(|f| f.outer.iter().chain(f.inner.iter()))
        .any(|l| l.coedges.iter().any(|c| c.edge.is_none()));
    if free && !opts.faces_mode {
        w.warnings.push(
            "the Model has trim curves without shared edges (IGES 142 / STEP POLY_LOOP): written in faces mode (144/142)"
                .into(),
        );
    }
    if opts.faces_mode || free {
        unused_vertices(&mut w, model);
        trimmed::write_faces(&mut w, model, &mut roots)?;
    } else {
        brep::write_brep(&mut w, model, &mut roots)?;
    }
    for r in roots {
        if let Some(e) = w.ent_mut(r) {
            e.dependent = false;
        }
    }
    let mut conv: Vec<_> = w.conversions.iter().map(|(k, v)| (*k, *v)).collect();
    conv.sort();
    for (what, n) in conv {
        w.warnings.push(format!(
            "{n} × {what} written as an exact rational B-spline (126); its parameterisation changes"
        ));
    }
    Ok(Written {
        bytes: assemble(model, opts, &w.ents, &mut w.warnings),
        warnings: w.warnings,
    })
}

/// Warns of the vertices no edge uses (they are not written).
fn unused_vertices(w: &mut W, model: &Model) {
    let unused = super::unused_vertex_count(model);
    if unused > 0 {
        w.warnings.push(format!(
            "{unused} vertices not used by any edge (e.g. STEP VERTEX_LOOP apexes) are not written"
        ));
    }
}

//! STEP AP214 writer (ISO 10303-21, schema AUTOMOTIVE_DESIGN) for the B-rep
//! [`Model`].
//!
//! What is written (formats/export.md has the full table):
//! - units: SI millimetre, radian, steradian; the Model tolerance as the
//!   context's length uncertainty (1e-7 mm when the Model has none);
//! - product structure: one PRODUCT per body when every body is unplaced and
//!   has its own faces, else an assembly: one root product, one component
//!   product per distinct set of shells, one NEXT_ASSEMBLY_USAGE_OCCURRENCE with
//!   a CONTEXT_DEPENDENT_SHAPE_REPRESENTATION / ITEM_DEFINED_TRANSFORMATION per
//!   body (its placement);
//! - solids as MANIFOLD_SOLID_BREP (BREP_WITH_VOIDS with void shells), open
//!   shells as SHELL_BASED_SURFACE_MODEL, a one-face loose body as a bare
//!   ADVANCED_FACE item;
//! - ADVANCED_FACE, FACE_OUTER_BOUND / FACE_BOUND, EDGE_LOOP / POLY_LOOP,
//!   ORIENTED_EDGE, EDGE_CURVE (always `same_sense = .T.`, start vertex at the
//!   Edge's `t0`), VERTEX_POINT, SURFACE_CURVE / SEAM_CURVE with one PCURVE
//!   per face use;
//! - analytic surfaces as PLANE, CYLINDRICAL_SURFACE, CONICAL_SURFACE,
//!   SPHERICAL_SURFACE, TOROIDAL_SURFACE, SURFACE_OF_REVOLUTION,
//!   SURFACE_OF_LINEAR_EXTRUSION, OFFSET_SURFACE, RECTANGULAR_TRIMMED_SURFACE,
//!   B-splines as B_SPLINE_SURFACE_WITH_KNOTS (rational: the complex instance
//!   with RATIONAL_B_SPLINE_SURFACE); curves as LINE, CIRCLE, ELLIPSE,
//!   PARABOLA, HYPERBOLA, POLYLINE, COMPOSITE_CURVE of TRIMMED_CURVEs and
//!   B_SPLINE_CURVE_WITH_KNOTS (rational: complex instance).
//!
//! Entities are numbered in traversal order, reals are written in Rust's
//! shortest round-trip form, and directions, frames and rational poles are
//! written as values the reader maps back to themselves, so Model → STEP →
//! Model → STEP gives the same bytes twice.
//!
//! One concept per file: `encoding` (ISO 10303-21 values: reals, strings,
//! lists, knot multiplicities), `writer` (the entity list and placements),
//! `context` (units, uncertainty, representation and product contexts),
//! `geometry` (curves and surfaces), `topology` (vertices, edges with their
//! p-curves, loops, faces) and `product` (shape items, products, assembly).

mod context;
mod edge_split;
mod encoding;
mod geometry;
mod product;
mod topology;
mod writer;

pub use encoding::{compress_knots, real, string};

use super::{check_finite, ExportError, Written};
use crate::import::model::Model;
use std::fmt::Write as _;
use writer::W;

/// Options of the STEP writer.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOptions {
    /// Name written in FILE_NAME (default: the Model's file name with `.step`).
    pub file_name: Option<String>,
    /// Name of the root product when an assembly is written.
    pub assembly_name: String,
}

impl Default for StepOptions {
    fn default() -> Self {
        Self {
            file_name: None,
            assembly_name: "assembly".into(),
        }
    }
}

/// Writes `model` as a STEP AP214 file, in the Model's source length unit.
pub fn write_step(model: &Model, opts: &StepOptions) -> Result<Written, ExportError> {
    check_finite(model)?;
    // revolution / extrusion profiles that are non-unit lines made unit-speed
    let mut profiled = model.clone();
    let n = crate::export::units::unit_speed_profiles(&mut profiled);
    let model: &Model = if n > 0 { &profiled } else { model };
    // every length in the source unit (declared below), cone v as STEP's height
    let scaled = crate::export::units::to_step_units(model);
    // faces of revolution bounded by holes only get their rim and seam
    let mut rim_warnings = Vec::new();
    let rimmed = crate::export::iges::natural::with_rims(&scaled, &mut rim_warnings);
    let model: &Model = &rimmed;
    let mut w = W {
        model,
        ents: Vec::new(),
        warnings: Vec::new(),
        ctx2: 0,
        scaled_lines: 0,
    };
    if n > 0 {
        w.warnings.push(format!(
            "{n} surfaces of revolution / extrusion on a non-unit line profile written unit-speed (the profile parameter becomes a length; trims and p-curves scaled with it)"
        ));
    }
    w.warnings.append(&mut rim_warnings);
    let loose = super::unused_vertex_count(model);
    if loose > 0 {
        w.warnings.push(format!(
            "{loose} vertices not used by any edge (e.g. VERTEX_LOOP apexes; the Model does not keep their face) are not written"
        ));
    }
    let ctx = context::write_contexts(&mut w, model);
    let face_id = topology::write_topology(&mut w, model)?;
    product::write_products(&mut w, model, opts, &face_id, &ctx);

    // the file
    let file_name = opts.file_name.clone().unwrap_or_else(|| {
        let stem = model
            .file_name
            .rsplit_once('.')
            .map_or(model.file_name.as_str(), |(s, _)| s);
        format!("{stem}.step")
    });
    let mut out = String::with_capacity(w.ents.iter().map(|e| e.len() + 12).sum::<usize>() + 512);
    out.push_str("ISO-10303-21;\nHEADER;\n");
    let _ = writeln!(
        out,
        "FILE_DESCRIPTION(({}),'2;1');",
        string(&format!("extrack export of {}", model.file_name))
    );
    let _ = writeln!(
        out,
        "FILE_NAME({},'1970-01-01T00:00:00',(''),(''),{},{},'');",
        string(&file_name),
        string(concat!("extrack ", env!("CARGO_PKG_VERSION"))),
        string("extrack")
    );
    out.push_str("FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));\nENDSEC;\nDATA;\n");
    for (k, e) in w.ents.iter().enumerate() {
        let _ = writeln!(out, "#{}={e};", k + 1);
    }
    out.push_str("ENDSEC;\nEND-ISO-10303-21;\n");
    if w.scaled_lines > 0 {
        w.warnings.push(format!(
            "{} lines with a non-unit direction (IGES 110 lines run on [0, 1]) written as unit-speed LINEs: same points, parameter scaled by the direction's length",
            w.scaled_lines
        ));
    }
    let _ = w.model;
    Ok(Written {
        bytes: out.into_bytes(),
        warnings: w.warnings,
    })
}

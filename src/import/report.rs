//! The `inspect` report of an imported Model (the stable JSON schema documented
//! in `formats/iges.md` and `formats/step.md`).

use super::model::{BodyKind, Model, SourceFormat, Surface};
use serde::Serialize;
use std::collections::BTreeMap;

/// Summary of a Model, serialised by `extrack inspect --json`.
#[derive(Debug, Clone, Serialize)]
pub struct InspectReport {
    /// `"iges"` or `"step"`.
    pub format: SourceFormat,
    /// File name.
    pub file: String,
    /// Producing system.
    pub producer: String,
    /// The file's length unit (`name`, `mm_per_unit`); geometry is reported in mm.
    pub units: super::model::Units,
    /// Model tolerance in mm, when the file gives one.
    pub tolerance: Option<f64>,
    /// Number of bodies.
    pub bodies: usize,
    /// Number of faces.
    pub faces: usize,
    /// Number of edges.
    pub edges: usize,
    /// Number of vertices.
    pub vertices: usize,
    /// Surface type name → number of faces.
    pub surface_types: BTreeMap<String, usize>,
    /// B-spline faces by `"<deg_u>x<deg_v>"` (+ `" rational"`) → count.
    pub bspline_kinds: BTreeMap<String, usize>,
    /// The bodies with name, kind, face count and placement origin.
    pub body_list: Vec<BodySummary>,
    /// Warnings, one line each.
    pub warnings: Vec<String>,
}

/// One body in the report.
#[derive(Debug, Clone, Serialize)]
pub struct BodySummary {
    /// Name.
    pub name: String,
    /// Solid / open shell / faces.
    pub kind: BodyKind,
    /// Number of faces (all shells).
    pub faces: usize,
    /// Number of shells.
    pub shells: usize,
    /// World position of the body's local origin (mm).
    pub origin: [f64; 3],
}

fn bspline_of(s: &Surface) -> Option<&crate::geom::NurbsSurface> {
    match s {
        Surface::BSpline(b) => Some(b),
        Surface::Trimmed { basis, .. } => bspline_of(basis),
        _ => None,
    }
}

impl InspectReport {
    /// Builds the report of a Model.
    pub fn of(model: &Model) -> Self {
        let mut surface_types = BTreeMap::new();
        let mut bspline_kinds = BTreeMap::new();
        for f in &model.faces {
            *surface_types.entry(f.surface.type_name().to_string()).or_insert(0) += 1;
            if let Some(b) = bspline_of(&f.surface) {
                let key = format!(
                    "{}x{}{}",
                    b.degree_u,
                    b.degree_v,
                    if b.rational { " rational" } else { "" }
                );
                *bspline_kinds.entry(key).or_insert(0) += 1;
            }
        }
        let body_list = model
            .bodies
            .iter()
            .map(|b| {
                let t = b.placement.iso.translation.vector;
                BodySummary {
                    name: b.name.clone(),
                    kind: b.kind,
                    faces: b.face_indices().count(),
                    shells: b.shells.len(),
                    origin: [t.x, t.y, t.z],
                }
            })
            .collect();
        Self {
            format: model.format,
            file: model.file_name.clone(),
            producer: model.producer.clone(),
            units: model.units.clone(),
            tolerance: model.tolerance,
            bodies: model.bodies.len(),
            faces: model.faces.len(),
            edges: model.edges.len(),
            vertices: model.vertices.len(),
            surface_types,
            bspline_kinds,
            body_list,
            warnings: model.warnings.clone(),
        }
    }

    /// Human-readable multi-line summary.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let fmt = match self.format {
            SourceFormat::Iges => "IGES",
            SourceFormat::Step => "STEP",
        };
        let _ = writeln!(s, "file:      {}", self.file);
        let _ = writeln!(s, "format:    {fmt}");
        let _ = writeln!(s, "producer:  {}", self.producer);
        let _ = writeln!(
            s,
            "units:     {} ({} mm per unit)",
            self.units.name, self.units.mm_per_unit
        );
        if let Some(t) = self.tolerance {
            let _ = writeln!(s, "tolerance: {t} mm");
        }
        let _ = writeln!(
            s,
            "counts:    {} bodies, {} faces, {} edges, {} vertices",
            self.bodies, self.faces, self.edges, self.vertices
        );
        let _ = writeln!(s, "surfaces:");
        for (k, v) in &self.surface_types {
            let _ = writeln!(s, "  {k:<24} {v}");
        }
        if !self.bspline_kinds.is_empty() {
            let _ = writeln!(s, "b-spline degrees:");
            for (k, v) in &self.bspline_kinds {
                let _ = writeln!(s, "  {k:<24} {v}");
            }
        }
        let _ = writeln!(s, "bodies:");
        for b in &self.body_list {
            let _ = writeln!(
                s,
                "  {:<24} {:?}, {} faces, {} shells, origin ({}, {}, {})",
                b.name, b.kind, b.faces, b.shells, b.origin[0], b.origin[1], b.origin[2]
            );
        }
        let _ = writeln!(s, "warnings:  {}", self.warnings.len());
        for w in &self.warnings {
            let _ = writeln!(s, "  {w}");
        }
        s
    }
}

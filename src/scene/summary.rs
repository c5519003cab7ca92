//! The `inspect` report of a scene file: pieces by convexity class, the
//! largest normal cone of a convex piece, scene size and sections.

use super::data::ConvexityClass;
use super::records::SectionId;
use super::view::SceneView;
use serde::Serialize;
use std::collections::BTreeMap;

/// One section of the file.
#[derive(Debug, Clone, Serialize)]
pub struct SectionSummary {
    /// Section name (`pieces`, `poles`, …; `unknown-<id>` for optional sections of a newer minor).
    pub name: String,
    /// Bytes.
    pub bytes: u64,
    /// Records.
    pub records: u32,
}

/// One stored tolerance of the preparation.
#[derive(Debug, Clone, Serialize)]
pub struct ToleranceSummary {
    /// Name with its unit (`linear_mm`, `classify_merge_depth`, …).
    pub name: String,
    /// Value.
    pub value: f64,
}

/// Summary of a validated scene, serialised by `extrack inspect FILE.exs --json`.
#[derive(Debug, Clone, Serialize)]
pub struct SceneSummary {
    /// `"scene"`.
    pub format: &'static str,
    /// `major.minor`.
    pub version: String,
    /// Source file the scene was prepared from.
    pub source: String,
    /// Program that wrote the scene.
    pub producer: String,
    /// Size of the scene in its plain in-place layout (in memory), bytes.
    pub bytes: usize,
    /// Size of the file as stored, bytes (smaller than `bytes` when packed).
    pub file_bytes: usize,
    /// Whether the file is the packed (Zstandard) container.
    pub packed: bool,
    /// Bodies.
    pub bodies: usize,
    /// Pieces.
    pub pieces: usize,
    /// Pieces by convexity class name.
    pub pieces_by_class: BTreeMap<String, usize>,
    /// Largest normal-cone half-angle of a convex piece, degrees (< 90 for nice pieces).
    pub max_convex_cone_deg: f64,
    /// Edge features.
    pub edges: usize,
    /// Vertices.
    pub vertices: usize,
    /// BVH nodes.
    pub bvh_nodes: usize,
    /// Importer and preparation warnings.
    pub warnings: usize,
    /// Tolerances and limits the scene was prepared with, in stored order.
    pub tolerances: Vec<ToleranceSummary>,
    /// Sections in file order.
    pub sections: Vec<SectionSummary>,
}

impl SceneSummary {
    /// Summarises a validated scene.
    pub fn of(view: &SceneView<'_>) -> Self {
        let mut by_class = BTreeMap::new();
        let mut max_cone = 0.0f64;
        for p in view.pieces() {
            let class = ConvexityClass::from_code(p.class);
            let name = class.map_or("unknown", |c| c.name());
            *by_class.entry(name.to_string()).or_insert(0) += 1;
            if class == Some(ConvexityClass::Convex) {
                max_cone = max_cone.max(p.cone.half_angle.to_degrees());
            }
        }
        let (major, minor) = view.version();
        Self {
            format: "scene",
            version: format!("{major}.{minor}"),
            source: view.source_name().to_string(),
            producer: view.producer().to_string(),
            bytes: view.bytes().len(),
            file_bytes: view.bytes().len(),
            packed: false,
            bodies: view.bodies().len(),
            pieces: view.pieces().len(),
            pieces_by_class: by_class,
            max_convex_cone_deg: max_cone,
            edges: view.edges().len(),
            vertices: view.vertices().len(),
            bvh_nodes: view.bvh_nodes().len(),
            warnings: view.warnings().len(),
            tolerances: view
                .tolerances()
                .iter()
                .map(|t| ToleranceSummary {
                    name: view.str(t.name).to_string(),
                    value: t.value,
                })
                .collect(),
            sections: view
                .sections()
                .iter()
                .map(|s| SectionSummary {
                    name: SectionId::from_code(s.id).map_or_else(|| format!("unknown-{}", s.id), |i| i.name().into()),
                    bytes: s.length,
                    records: s.record_count,
                })
                .collect(),
        }
    }

    /// The same summary for a file of `file_bytes` bytes, packed or not.
    pub fn stored_as(mut self, file_bytes: usize, packed: bool) -> Self {
        self.file_bytes = file_bytes;
        self.packed = packed;
        self
    }

    /// Human-readable summary.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "scene:     {} bytes, format {}", self.bytes, self.version);
        let _ = writeln!(
            s,
            "file:      {} bytes ({})",
            self.file_bytes,
            if self.packed { "packed" } else { "plain" }
        );
        let _ = writeln!(s, "source:    {}, scene written by {}", self.source, self.producer);
        let _ = writeln!(
            s,
            "counts:    {} bodies, {} pieces, {} edges, {} vertices, {} BVH nodes",
            self.bodies, self.pieces, self.edges, self.vertices, self.bvh_nodes
        );
        let _ = writeln!(s, "pieces by class:");
        for (k, v) in &self.pieces_by_class {
            let _ = writeln!(s, "  {k:<10} {v}");
        }
        let _ = writeln!(s, "largest convex normal cone: {:.2}°", self.max_convex_cone_deg);
        let _ = writeln!(s, "warnings:  {}", self.warnings);
        let _ = writeln!(s, "tolerances:");
        for t in &self.tolerances {
            let _ = writeln!(s, "  {:<24} {}", t.name, t.value);
        }
        let _ = writeln!(s, "sections:");
        for sec in &self.sections {
            let _ = writeln!(
                s,
                "  {:<14} {:>10} bytes {:>8} records",
                sec.name, sec.bytes, sec.records
            );
        }
        s
    }
}

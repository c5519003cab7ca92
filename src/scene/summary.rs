//! The `inspect` report of a scene file: pieces by convexity class, the
//! largest normal cone of a convex piece, scene size and sections, and the
//! stored self-check (failing faces, body flags) when there is one.

use super::data::ConvexityClass;
use super::records::{bit_names, SectionId, BODY_CHECK_NAMES, FACE_CHECK_NAMES, NONE};
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

/// A face whose self-check failed or did not run (`failed != 0`).
#[derive(Debug, Clone, Serialize)]
pub struct FailedFace {
    /// The face's entity id in the source file (STEP `#N`, IGES DE number).
    pub face: u64,
    /// Scene body index, `null` when the face belongs to no body.
    pub body: Option<u32>,
    /// Names of the failed checks: `dropped`, `coverage`, `containment`, `boundary`, `not_checked`.
    pub failed: Vec<&'static str>,
    /// mm², the face's trimmed area from the Model (`null` when not computed).
    pub model_area: f64,
    /// mm², total area of the face's pieces.
    pub piece_area: f64,
    /// mm, largest distance of a piece sample from the source face (`null` for +∞).
    pub worst_containment: f64,
    /// mm, largest distance of a Model edge sample from the pieces' boundary.
    pub worst_boundary: f64,
}

/// The self-check of one body.
#[derive(Debug, Clone, Serialize)]
pub struct BodyCheckSummary {
    /// Scene body index.
    pub body: u32,
    /// Names of the body flags: `shell_incomplete`, `faces_failed` (empty: verified).
    pub failed: Vec<&'static str>,
    /// Faces of the body not in the scene.
    pub dropped_faces: u32,
    /// Faces of the body that failed a check.
    pub failed_faces: u32,
}

/// The self-check stored in a scene (sections `face_checks`, `body_checks` of 2.2).
#[derive(Debug, Clone, Serialize)]
pub struct ChecksSummary {
    /// Face records.
    pub faces: usize,
    /// Faces whose check failed or did not run, in stored order.
    pub failed_faces: Vec<FailedFace>,
    /// Every body record, in body order.
    pub bodies: Vec<BodyCheckSummary>,
}

impl ChecksSummary {
    /// The self-check of a view, `None` when the scene carries none.
    pub fn of(view: &SceneView<'_>) -> Option<Self> {
        if !view.is_checked() {
            return None;
        }
        Some(Self {
            faces: view.face_checks().len(),
            failed_faces: view
                .face_checks()
                .iter()
                .filter(|c| c.failed != 0)
                .map(|c| FailedFace {
                    face: c.source_face,
                    body: (c.body != NONE).then_some(c.body),
                    failed: bit_names(c.failed, &FACE_CHECK_NAMES),
                    model_area: c.model_area,
                    piece_area: c.piece_area,
                    worst_containment: c.worst_containment,
                    worst_boundary: c.worst_boundary,
                })
                .collect(),
            bodies: view
                .body_checks()
                .iter()
                .map(|c| BodyCheckSummary {
                    body: c.body,
                    failed: bit_names(c.failed, &BODY_CHECK_NAMES),
                    dropped_faces: c.dropped_faces,
                    failed_faces: c.failed_faces,
                })
                .collect(),
        })
    }

    /// One line per failing face and per body record.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "self-check: {} faces, {} failed or not checked",
            self.faces,
            self.failed_faces.len()
        );
        for f in &self.failed_faces {
            let body = f.body.map_or("none".to_string(), |b| b.to_string());
            let _ = writeln!(
                s,
                "  face #{} body {body}: {}  model area {} mm², piece area {} mm², containment {} mm, boundary {} mm",
                f.face,
                f.failed.join(", "),
                f.model_area,
                f.piece_area,
                f.worst_containment,
                f.worst_boundary
            );
        }
        for b in &self.bodies {
            let flags = if b.failed.is_empty() {
                "verified".to_string()
            } else {
                b.failed.join(", ")
            };
            let _ = writeln!(
                s,
                "  body {}: {flags}  ({} dropped faces, {} failed faces)",
                b.body, b.dropped_faces, b.failed_faces
            );
        }
        s
    }
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
    /// The stored self-check (absent from the JSON when the scene has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<ChecksSummary>,
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
            checks: ChecksSummary::of(view),
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
        if let Some(c) = &self.checks {
            s.push_str(&c.to_text());
        }
        s
    }
}

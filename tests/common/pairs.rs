//! Open CASCADE ground truth for body–body minimum distances at moved poses:
//! the `fixtures/oracle/*.pairs.json` files written by
//! `tools/oracle/make_pair_oracle.py` (format: `formats/oracle_pairs.md`).
//!
//! A [`PairSet`] names two bodies (file + body index in the order of
//! `extrack inspect`) and lists [`PairCase`]s: a pose for each body, applied
//! on top of the body's own placement (`world = pose · placement · local`),
//! with Open CASCADE's `BRepExtrema_DistShapeShape` distance and witness
//! points (`p1` on body A, `p2` on body B, world coordinates). Every case that
//! is not an [`CaseKind::Overlap`] was cross-checked against dense meshes of
//! both bodies; cases that disagreed were dropped (kept in
//! [`PairSet::dropped`] for reference, never to be asserted against).
//!
//! Use: `mod common;` then `common::pairs::{pair_files, PairSet}`;
//! [`PairSet::load`] reads one file, [`PairSet::path_a`] / [`PairSet::path_b`]
//! find the CAD files (`None`, with a printed skip message, when a corpus
//! file of `../shared/fixtures/corpus` is absent).
#![allow(dead_code)]

use extrack::geom::{Pose, Vec3};
use nalgebra::{Matrix3, Rotation3, Translation3, UnitQuaternion};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Where a pair set's CAD file lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileRoot {
    /// The crate's `fixtures/` folder (committed).
    Fixtures,
    /// `../shared/fixtures/corpus` (not committed; tests skip when absent).
    Corpus,
}

/// How the poses of a set were drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PairMode {
    /// Random 3-D rotations and directions.
    Space,
    /// Rotations about z and moves in the xy plane only (planar bodies: the
    /// witness points are then unique only up to their z coordinate).
    Planar,
    /// Like `Space`, but every third direction points up +z from body A's
    /// centre (into `pair_notch.step`'s V-groove).
    Groove,
}

/// What a case is meant to exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseKind {
    /// Both poses identity: the bodies as placed in the file.
    Placed,
    /// Nearly touching: gap about 1e-4, 1e-3 or 1e-2 of the smaller body diagonal.
    Near,
    /// Apart: gap 0.02..0.6 of the smaller body diagonal.
    Apart,
    /// Interpenetrating (pushed 5% of the smaller diagonal past contact):
    /// `dist` is ≤ 1e-9 and `p1`, `p2` are only some point common to both solids
    /// (possibly interior), not witnesses.
    Overlap,
}

/// Facts about one body of a set, for checking that an importer picked the same body.
#[derive(Debug, Clone, Deserialize)]
pub struct BodyInfo {
    /// Number of faces (Open CASCADE; equals `extrack inspect`'s count).
    pub faces: usize,
    /// Translation of the body's placement, mm.
    pub origin: [f64; 3],
    /// Diagonal of the body's bounding box, mm.
    pub diag: f64,
    /// Linear deflection of the cross-check mesh, mm.
    pub mesh_deflection: f64,
    /// Largest spacing of the cross-check mesh points, mm.
    pub mesh_spacing: f64,
}

/// One pair of poses and Open CASCADE's answer.
#[derive(Debug, Clone, Deserialize)]
pub struct PairCase {
    /// What the case exercises.
    pub kind: CaseKind,
    /// Pose of body A, row-major 4×4, applied on top of A's placement.
    pub pose_a: [f64; 16],
    /// Pose of body B, row-major 4×4, applied on top of B's placement.
    pub pose_b: [f64; 16],
    /// Minimum distance between the two solids, mm (0 when they overlap or touch).
    pub dist: f64,
    /// Witness point on A, world coordinates.
    pub p1: [f64; 3],
    /// Witness point on B, world coordinates.
    pub p2: [f64; 3],
    /// Number of solutions Open CASCADE reported (> 1: the witness pair is not unique).
    pub nsol: usize,
    /// Open CASCADE's `InnerSolution()`: a solid lies (partly) inside the other; only in overlap cases.
    pub inner: bool,
    /// Cross-check data (mesh distance and its bounds, or the common volume of an overlap).
    #[serde(default)]
    pub check: Option<serde_json::Value>,
}

/// A dropped case: as [`PairCase`] plus why it was dropped.
#[derive(Debug, Clone, Deserialize)]
pub struct DroppedCase {
    /// The case as Open CASCADE answered it.
    #[serde(flatten)]
    pub case: PairCase,
    /// Why it disagreed with the mesh cross-check.
    pub reason: String,
}

/// One `*.pairs.json` file.
#[derive(Debug, Clone, Deserialize)]
pub struct PairSet {
    /// File name of body A.
    pub a: String,
    /// Folder of body A's file.
    pub a_in: FileRoot,
    /// Index of body A in the importer's body order.
    pub body_a: usize,
    /// File name of body B.
    pub b: String,
    /// Folder of body B's file.
    pub b_in: FileRoot,
    /// Index of body B in the importer's body order.
    pub body_b: usize,
    /// How the poses were drawn.
    pub mode: PairMode,
    /// Version of the Open CASCADE bindings used.
    pub ocp_version: String,
    /// The Open CASCADE call that produced the distances.
    pub method: String,
    /// Seed of the pose generator.
    pub seed: u64,
    /// Body A and body B.
    pub bodies: [BodyInfo; 2],
    /// The cases to check against.
    pub cases: Vec<PairCase>,
    /// Cases dropped by the cross-check (not ground truth).
    #[serde(default)]
    pub dropped: Vec<DroppedCase>,
}

/// The crate root.
pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// All `fixtures/oracle/*.pairs.json`, sorted.
pub fn pair_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(crate_root().join("fixtures/oracle"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".pairs.json")))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

impl PairSet {
    /// Reads and parses one pairs file.
    pub fn load(path: &Path) -> Result<PairSet, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn resolve(name: &str, root: FileRoot) -> Option<PathBuf> {
        let p = match root {
            FileRoot::Fixtures => crate_root().join("fixtures").join(name),
            FileRoot::Corpus => crate_root().join("../shared/fixtures/corpus").join(name),
        };
        if p.is_file() {
            Some(p)
        } else {
            println!("SKIP: {} not found", p.display());
            None
        }
    }

    /// Path of body A's file, or `None` (skip message printed) when absent.
    pub fn path_a(&self) -> Option<PathBuf> {
        Self::resolve(&self.a, self.a_in)
    }

    /// Path of body B's file, or `None` (skip message printed) when absent.
    pub fn path_b(&self) -> Option<PathBuf> {
        Self::resolve(&self.b, self.b_in)
    }
}

/// The 3×3 block and the translation of a row-major 4×4.
pub fn split(m: &[f64; 16]) -> (Matrix3<f64>, Vec3) {
    let r = Matrix3::new(m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]);
    (r, Vec3::new(m[3], m[7], m[11]))
}

/// Largest deviation of a row-major 4×4 from a rigid motion: `|RᵀR − I|`,
/// `|det R − 1|` and the bottom row's distance from `0 0 0 1`.
pub fn rigidity_error(m: &[f64; 16]) -> f64 {
    let (r, _) = split(m);
    let ortho = (r.transpose() * r - Matrix3::identity()).abs().max();
    let det = (r.determinant() - 1.0).abs();
    let bottom = m[12].abs().max(m[13].abs()).max(m[14].abs()).max((m[15] - 1.0).abs());
    ortho.max(det).max(bottom)
}

/// A row-major rigid 4×4 as a [`Pose`] (the rotation re-orthonormalised).
pub fn to_pose(m: &[f64; 16]) -> Pose {
    let (r, t) = split(m);
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix(&r));
    Pose {
        iso: nalgebra::Isometry3::from_parts(Translation3::from(t), q),
    }
}

impl PairCase {
    /// World pose of body A's local coordinates: `pose_a · placement`.
    pub fn world_a(&self, placement: &Pose) -> Pose {
        Pose {
            iso: to_pose(&self.pose_a).iso * placement.iso,
        }
    }

    /// World pose of body B's local coordinates: `pose_b · placement`.
    pub fn world_b(&self, placement: &Pose) -> Pose {
        Pose {
            iso: to_pose(&self.pose_b).iso * placement.iso,
        }
    }

    /// Witness on A as a vector.
    pub fn p1(&self) -> Vec3 {
        Vec3::from(self.p1)
    }

    /// Witness on B as a vector.
    pub fn p2(&self) -> Vec3 {
        Vec3::from(self.p2)
    }
}

//! Writers: the B-rep [`Model`] and prepared scenes to STEP AP214
//! (`step`) and IGES 5.3 (`iges`), and the structural comparison of two
//! Models (`compare`) the round-trip tests use. `formats/export.md`
//! documents what is written.
//!
//! Every writer is deterministic (same Model → same bytes: no time stamps,
//! entities numbered in traversal order) and returns, beside the bytes, a list
//! of warnings: whatever the target cannot represent is converted exactly where
//! possible (e.g. to NURBS) and otherwise named there; nothing is dropped
//! silently.

// Model comparison (the round-trip tests' oracle): verification only.
#[cfg(feature = "reference")]
pub mod compare;
#[cfg(all(test, not(feature = "reference")))]
mod compare;
internal! {
    mod iges;
    mod scene;
    mod step;
    mod units;
}

pub use iges::{write_iges, IgesOptions};
pub use scene::{scene_to_model, SceneExportOptions};
pub use step::{write_step, StepOptions};

use crate::geom::Frame;
use crate::geom::{Pose, Vec3};
use crate::import::model::Model;
use nalgebra::{Matrix3, Rotation3, UnitQuaternion};
use thiserror::Error;

/// Target format of a writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// ISO 10303-21, AP214 (AUTOMOTIVE_DESIGN).
    Step,
    /// IGES 5.3.
    Iges,
}

impl Format {
    /// The format a file name's extension names (`.step`/`.stp`, `.igs`/`.iges`), any case.
    pub fn from_path(path: &std::path::Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "step" | "stp" | "p21" => Some(Format::Step),
            "igs" | "iges" => Some(Format::Iges),
            _ => None,
        }
    }
}

/// Why a Model could not be written at all.
#[derive(Debug, Error, PartialEq)]
pub enum ExportError {
    /// A value that no exchange format can hold (NaN, infinity).
    #[error("{what}: non-finite value")]
    NonFinite {
        /// Where it was found, e.g. `face 3 surface`.
        what: String,
    },
    /// A reference inside the Model points outside its vectors.
    #[error("{what}: index {index} out of range")]
    BadIndex {
        /// Where it was found.
        what: String,
        /// The index.
        index: usize,
    },
    /// An IGES face-mode file cannot hold a face without any trim information
    /// on a surface IGES cannot bound.
    #[error("{0}")]
    Unsupported(String),
}

/// Bytes written plus the warnings of what had to be converted or approximated.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// File contents.
    pub bytes: Vec<u8>,
    /// One line per conversion the target forced (empty when the file is exact).
    pub warnings: Vec<String>,
}

/// Writes `model` in `format` with default options.
pub fn write_model(model: &Model, format: Format) -> Result<Written, ExportError> {
    match format {
        Format::Step => step::write_step(model, &step::StepOptions::default()),
        Format::Iges => iges::write_iges(model, &iges::IgesOptions::default()),
    }
}

/// Writes a prepared scene (every piece a face, see `scene`); returns the
/// bytes and the warnings of the conversion and the writer.
pub fn write_scene(
    data: &crate::scene::SceneData,
    format: Format,
    by_class: bool,
) -> Result<(Vec<u8>, Vec<String>), ExportError> {
    let mut warnings = Vec::new();
    let model = scene::scene_to_model(data, &scene::SceneExportOptions { by_class }, &mut warnings);
    let w = match format {
        Format::Step => step::write_step(&model, &step::StepOptions::default())?,
        Format::Iges => iges::write_iges(
            &model,
            &iges::IgesOptions {
                faces_mode: true,
                ..Default::default()
            },
        )?,
    };
    warnings.extend(w.warnings);
    Ok((w.bytes, warnings))
}

/// Iterates `step` from `start` until a value repeats and returns the
/// smallest value (by `key`) of the cycle reached — the fixed point when there
/// is one. Writers use it for values a reader recomputes (normalised
/// directions, orthonormalised frames, poles times weights): writing the
/// result, reading it back and writing again gives the same value, because
/// the read-back value lies on the same cycle.
pub(crate) fn settle<T: Copy + PartialEq>(start: T, step: impl Fn(&T) -> T, key: impl Fn(&T) -> Vec<u64>) -> T {
    let mut seen: Vec<T> = vec![start];
    for _ in 0..64 {
        let Some(last) = seen.last() else { break };
        let next = step(last);
        if let Some(j) = seen.iter().position(|f| *f == next) {
            return seen[j..].iter().min_by_key(|f| key(f)).copied().unwrap_or(next);
        }
        seen.push(next);
    }
    seen.last().copied().unwrap_or(start)
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|c| c.to_bits()).collect()
}

/// `v / |v|` as the STEP reader computes it (unchanged when zero or not finite).
fn normalise(v: &Vec3) -> Vec3 {
    let n = v.norm();
    if n.is_finite() && n > 1e-300 {
        v / n
    } else {
        *v
    }
}

/// A unit vector that normalising maps back to itself (see [`settle`]).
pub(crate) fn stable_unit(v: Vec3) -> Vec3 {
    settle(normalise(&v), normalise, |u| bits(u.as_slice()))
}

/// The frame a STEP reader builds from a written AXIS2_PLACEMENT_3D.
fn read_frame(f: &Frame) -> Frame {
    Frame::from_axis_ref(f.origin, normalise(&f.z), Some(normalise(&f.x))).unwrap_or(*f)
}

fn frame_key(f: &Frame) -> Vec<u64> {
    bits(&[
        f.origin.x, f.origin.y, f.origin.z, f.x.x, f.x.y, f.x.z, f.z.x, f.z.y, f.z.z,
    ])
}

/// A frame that reading maps back to itself (see [`settle`]).
pub(crate) fn stable_frame(f: &Frame) -> Frame {
    settle(read_frame(f), read_frame, frame_key)
}

/// The frame of a pose (origin = translation, axes = rotation columns).
pub(crate) fn frame_of_pose(p: &Pose) -> Frame {
    let m = p.iso.rotation.to_rotation_matrix();
    let m = m.matrix();
    Frame {
        origin: p.iso.translation.vector,
        x: m.column(0).into_owned(),
        y: m.column(1).into_owned(),
        z: m.column(2).into_owned(),
    }
}

/// The pose of a frame, exactly as the STEP reader computes it.
pub(crate) fn pose_of_frame(f: &Frame) -> Pose {
    let m = Matrix3::from_columns(&[f.x, f.y, f.z]);
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(m));
    Pose::from_parts(f.origin, q)
}

/// A frame for `p` whose read-back pose writes the same frame again (frame →
/// read → quaternion → frame, see [`settle`]).
pub(crate) fn stable_pose_frame(p: &Pose) -> Frame {
    settle(
        snap_axes(frame_of_pose(p)),
        |f| frame_of_pose(&pose_of_frame(&read_frame(f))),
        frame_key,
    )
}

/// The frame with its axes snapped to the exact signed coordinate axes when
/// every axis component lies within `1e-12` of 0 or ±1 (a quarter-turn
/// placement read from a file with rounding noise); other frames unchanged.
///
/// Frame → quaternion → frame is not idempotent near such rotations: each
/// round trip moves the ~1e-14 noise components by an ulp (no cycle within
/// reach of [`settle`], `step_autocad2000_as1`'s rod placement). The exact
/// axes are a fixed point: the quaternion of a signed permutation matrix is
/// exact (components 0, ±½, ±1/√2 or ±1 rounded) and gives the same matrix back.
fn snap_axes(f: Frame) -> Frame {
    let snap = |v: &Vec3| -> Option<Vec3> {
        let mut out = Vec3::zeros();
        let mut ones = 0;
        for k in 0..3 {
            let c = v[k];
            if c.abs() <= 1e-12 {
                out[k] = 0.0;
            } else if (c.abs() - 1.0).abs() <= 1e-12 {
                out[k] = c.signum();
                ones += 1;
            } else {
                return None;
            }
        }
        (ones == 1).then_some(out)
    };
    match (snap(&f.x), snap(&f.y), snap(&f.z)) {
        (Some(x), Some(y), Some(z)) if z.cross(&x) == y => Frame {
            origin: f.origin,
            x,
            y,
            z,
        },
        _ => f,
    }
}

/// Euclidean pole `c / w` that the readers' `pole · w` maps back to the same
/// pole (see [`settle`]).
pub(crate) fn stable_pole(c: [f64; 4]) -> [f64; 3] {
    let w = c[3];
    if w == 1.0 {
        return [c[0], c[1], c[2]];
    }
    settle(
        [c[0] / w, c[1] / w, c[2] / w],
        |x| [(x[0] * w) / w, (x[1] * w) / w, (x[2] * w) / w],
        |x| bits(x),
    )
}

/// True when every coordinate of the Model that a writer emits is finite.
/// The number of vertices that no edge starts or ends at (the writers do not
/// write them: STEP VERTEX_LOOP apexes, for one).
pub(crate) fn unused_vertex_count(model: &Model) -> usize {
    let mut used = vec![false; model.vertices.len()];
    for e in &model.edges {
        for v in [e.start, e.end].into_iter().flatten() {
            if let Some(u) = used.get_mut(v) {
                *u = true;
            }
        }
    }
    used.iter().filter(|u| !**u).count()
}

pub(crate) fn check_finite(model: &Model) -> Result<(), ExportError> {
    for (k, v) in model.vertices.iter().enumerate() {
        if !v.point.iter().all(|c| c.is_finite()) {
            return Err(ExportError::NonFinite {
                what: format!("vertex {k}"),
            });
        }
    }
    for (k, b) in model.bodies.iter().enumerate() {
        if !b.placement.is_finite() {
            return Err(ExportError::NonFinite {
                what: format!("body {k} placement"),
            });
        }
        for s in &b.shells {
            for &f in &s.faces {
                if f >= model.faces.len() {
                    return Err(ExportError::BadIndex {
                        what: format!("body {k} shell"),
                        index: f,
                    });
                }
            }
        }
    }
    for (k, f) in model.faces.iter().enumerate() {
        for l in f.outer.iter().chain(f.inner.iter()) {
            for c in &l.coedges {
                if let Some(e) = c.edge {
                    let Some(ed) = model.edges.get(e) else {
                        return Err(ExportError::BadIndex {
                            what: format!("face {k} coedge"),
                            index: e,
                        });
                    };
                    for v in [ed.start, ed.end].into_iter().flatten() {
                        if v >= model.vertices.len() {
                            return Err(ExportError::BadIndex {
                                what: format!("edge {e} vertex"),
                                index: v,
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_unit_is_a_fixed_point() {
        for v in [
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(0.1, 0.7, -0.3),
            Vec3::new(1e-3, 0.0, 7.0),
        ] {
            let u = stable_unit(v);
            assert_eq!(stable_unit(u / u.norm()), u);
            assert!((u - v.normalize()).norm() < 1e-15);
        }
    }

    #[test]
    fn stable_pose_frame_reads_back_to_itself() {
        let p = Pose::from_translation_axis_angle(Vec3::new(1.0, -2.0, 3.5), Vec3::new(0.3, -0.2, 0.9));
        let f = stable_pose_frame(&p);
        let again = stable_pose_frame(&pose_of_frame(&read_frame(&f)));
        assert_eq!(f, again);
        assert!((f.origin - Vec3::new(1.0, -2.0, 3.5)).norm() < 1e-15);
    }

    #[test]
    fn quarter_turn_placement_with_noise_settles() {
        // step_autocad2000_as1's rod: axes (0, 1, 0) / (-1, 0, 0) with 1e-14 noise
        let q = UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(
            -0.4999999999999999,
            0.4999999999999931,
            0.5000000000000071,
            -0.4999999999999998,
        ));
        let p = Pose::from_parts(Vec3::new(90.0, 75.0, 60.0), q);
        let f = stable_pose_frame(&p);
        assert_eq!(f.z, Vec3::new(-1.0, 0.0, 0.0));
        let back = pose_of_frame(&read_frame(&f));
        assert_eq!(stable_pose_frame(&back), f);
        assert!(back.iso.rotation.angle_to(&q) < 1e-13);
    }

    #[test]
    fn stable_pole_round_trips_through_multiplication() {
        for c in [[0.3, 0.1, 7.0, 0.73], [1.0, 2.0, 3.0, 3.0], [5.0, 6.0, 7.0, 1.0]] {
            let x = stable_pole(c);
            let back = [x[0] * c[3], x[1] * c[3], x[2] * c[3]];
            let again = stable_pole([back[0], back[1], back[2], c[3]]);
            assert_eq!(x, again);
        }
    }

    #[test]
    fn format_from_extension() {
        use std::path::Path;
        assert_eq!(Format::from_path(Path::new("a.STP")), Some(Format::Step));
        assert_eq!(Format::from_path(Path::new("a.iges")), Some(Format::Iges));
        assert_eq!(Format::from_path(Path::new("a.obj")), None);
    }
}

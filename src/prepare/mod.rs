//! The offline stage: Model → convex "nice" rational Bézier pieces, feature
//! graph, Voronoi data and BVH, as a [`SceneData`].
//!
//! Per face: exact NURBS over the face's parameter range (`nurbs`), Bézier
//! decomposition by knot insertion, convexity classification with
//! subdivision (`convexity`), splitting of convex patches until their
//! normal cone is below [`PrepareOptions::max_cone_angle`] (`split`), trim
//! classification (`trim`). Then per body the feature graph (`features`)
//! and the BVH (`bvh`).
//!
//! This file is the pipeline driver ([`prepare`], [`prepare_with_stats`],
//! their options and errors); the per-face piece builder is in
//! `pieces.rs`, piece evaluation ([`piece_surface`], [`piece_normal`]) in
//! `piece_eval.rs`.

// `!(x > 0.0)` style tests are deliberate: they also reject NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

internal! {
    mod budget;
    mod convexity;
    mod features;
    mod fit;
    mod nurbs;
    mod piece_eval;
    mod split;
    mod surface_fit;
    mod trim;
}
mod pieces;

pub use convexity::ConvexityOptions;
pub use piece_eval::{piece_normal, piece_surface};
pub(crate) use pieces::PieceInfo;

use crate::import::model::{BodyKind as ModelBodyKind, Model, SourceFormat};
use crate::scene::data::{Aabb, Body, BodyKind, SceneData, SourceKind, Tolerance, NONE};
use crate::scene::Span;
use pieces::{face_pieces, surface_net, FaceOut};
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use thiserror::Error;

/// Progress callback: `(stage, done, total)`; called from worker threads.
pub type ProgressFn<'a> = &'a (dyn Fn(&str, usize, usize) + Sync);

/// Options of [`prepare`].
pub struct PrepareOptions<'a> {
    /// Classification tolerances and subdivision depth.
    pub convexity: ConvexityOptions,
    /// Largest normal-cone half-angle of a convex piece, radians (< π/2).
    pub max_cone_angle: f64,
    /// Most halvings when making a convex patch nice.
    pub max_split_depth: u32,
    /// Voronoi samples per edge (≥ 2; more where the tangent turns; an edge
    /// whose outward normals are constant keeps only its two end samples).
    pub edge_samples: usize,
    /// Called with `(stage, done, total)`.
    pub progress: Option<ProgressFn<'a>>,
    /// Wall-clock limit of the whole preparation: once it passes, every
    /// face's work budget runs out and [`prepare`] fails with
    /// [`PrepareError::TimeLimit`]. `None`: only the per-face work budgets
    /// (`budget::face_budget`) bound the work.
    pub time_limit: Option<std::time::Duration>,
}

impl Default for PrepareOptions<'_> {
    fn default() -> Self {
        Self {
            convexity: ConvexityOptions::default(),
            max_cone_angle: 80f64.to_radians(),
            max_split_depth: 12,
            edge_samples: 9,
            progress: None,
            time_limit: None,
        }
    }
}

/// Why preparation failed.
#[derive(Debug, Error)]
pub enum PrepareError {
    /// A body ended with no piece at all.
    #[error("body {body} ({name}): no face could be converted; first problem: {reason}")]
    EmptyBody {
        /// Body index.
        body: usize,
        /// Body name.
        name: String,
        /// The first warning of that body.
        reason: String,
    },
    /// More features than the format's u32 indices hold.
    #[error("too many features for the scene format")]
    TooLarge,
    /// An option is out of range.
    #[error("bad option: {0}")]
    Option(String),
    /// The preparation did not finish within [`PrepareOptions::time_limit`].
    #[error(
        "preparation exceeded the time limit of {seconds} s ({done} of {total} faces prepared); the file is refused"
    )]
    TimeLimit {
        /// The limit, seconds.
        seconds: f64,
        /// Faces prepared within the limit.
        done: usize,
        /// Faces of the model.
        total: usize,
    },
}

/// Statistics of a preparation (for the CLI summary).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PrepareStats {
    /// Faces converted.
    pub faces: usize,
    /// Faces skipped (see the warnings).
    pub faces_skipped: usize,
    /// Pieces dropped as fully outside the trims.
    pub pieces_dropped: usize,
    /// Warnings of the offline stage (also appended to the scene's warnings).
    pub warnings: Vec<String>,
}

fn placement(p: &crate::geom::Pose) -> [f64; 12] {
    let r = p.iso.rotation.to_rotation_matrix();
    let m = r.matrix();
    let t = p.iso.translation.vector;
    [
        m[(0, 0)],
        m[(0, 1)],
        m[(0, 2)],
        t.x,
        m[(1, 0)],
        m[(1, 1)],
        m[(1, 2)],
        t.y,
        m[(2, 0)],
        m[(2, 1)],
        m[(2, 2)],
        t.z,
    ]
}

/// Prepares `model` into a scene.
pub fn prepare(model: &Model, opts: &PrepareOptions) -> Result<SceneData, PrepareError> {
    prepare_with_stats(model, opts).map(|(s, _)| s)
}

/// [`prepare`], also returning statistics.
pub fn prepare_with_stats(model: &Model, opts: &PrepareOptions) -> Result<(SceneData, PrepareStats), PrepareError> {
    if !(opts.max_cone_angle > 0.0 && opts.max_cone_angle < std::f64::consts::FRAC_PI_2) {
        return Err(PrepareError::Option(format!(
            "max_cone_angle {} not in (0, π/2)",
            opts.max_cone_angle
        )));
    }
    let deadline = opts.time_limit.and_then(|d| std::time::Instant::now().checked_add(d));
    let mut stats = PrepareStats::default();
    let mut scene = SceneData::default();
    let total_faces: usize = model.bodies.iter().map(|b| b.face_indices().count()).sum();
    let done_faces = AtomicUsize::new(0);
    // (projected from 3-D, kept as polylines, faces with polylines)
    let mut trim_counts = (0usize, 0usize, 0usize);
    for (bi, body) in model.bodies.iter().enumerate() {
        let body_idx = u32::try_from(scene.bodies.len()).map_err(|_| PrepareError::TooLarge)?;
        let piece_first = scene.pieces.len();
        let mut infos: Vec<PieceInfo> = Vec::new();
        let mut first_problem = None;
        let mut face_nurbs = std::collections::HashMap::new();
        let face_list: Vec<usize> = body.face_indices().collect();
        // faces are independent: convert, classify, split and trim them in parallel
        // EXTRACK_BUDGET_TRACE=1: what every face spent, on stderr (to
        // calibrate the budget over the corpora, docs/hostile_input.md)
        // (`=calibrate`: and no budget, to see what the faces would spend)
        let trace_budget = std::env::var_os("EXTRACK_BUDGET_TRACE").is_some();
        let calibrate = std::env::var_os("EXTRACK_BUDGET_TRACE").is_some_and(|v| v == "calibrate");
        let results: Vec<(usize, Result<FaceOut, String>)> = face_list
            .par_iter()
            .map(|&fi| {
                let r = model.faces.get(fi).map(|face| {
                    let units = if calibrate {
                        u64::MAX / 4
                    } else {
                        budget::face_budget(model, face)
                    };
                    let (r, over, t) = budget::run(units, deadline, || face_pieces(model, fi, body_idx, opts));
                    if trace_budget {
                        eprintln!(
                            "budget: face #{} spent {} of {} units ({} projections, {} evaluations, {} trim pieces)",
                            face.source,
                            t.units,
                            budget::face_budget(model, face),
                            t.projections,
                            t.evaluations,
                            t.trim_pieces
                        );
                    }
                    match (r, over) {
                        (r, None) => r.map_err(|e| e.to_string()),
                        (_, Some(budget::Overrun::Units(u))) => Err(format!(
                            "work budget of {u} units spent (projection, fitting and subdivision are bounded \
                             per face, see README \"Limits\"); the face is left out"
                        )),
                        (_, Some(budget::Overrun::Clock)) => Err(format!(
                            "took longer than {} s (projection, fitting and subdivision are bounded per face, \
                             see README \"Limits\"); the face is left out",
                            budget::FACE_SECONDS
                        )),
                        (_, Some(budget::Overrun::Deadline)) => Err("time limit reached".to_string()),
                    }
                });
                let d = done_faces.fetch_add(1, Ordering::Relaxed) + 1;
                if let Some(cb) = opts.progress {
                    cb("pieces", d, total_faces);
                }
                (fi, r)
            })
            .filter_map(|(fi, r)| r.map(|r| (fi, r)))
            .collect();
        for (fi, r) in results {
            match r {
                Ok(fo) => {
                    stats.faces += 1;
                    let surface = u32::try_from(scene.surfaces.len()).map_err(|_| PrepareError::TooLarge)?;
                    if let (Some(f), false) = (&fo.fnurbs, fo.pieces.is_empty()) {
                        scene.surfaces.push(surface_net(&f.mapped.surface));
                    }
                    if let Some(f) = fo.fnurbs {
                        face_nurbs.insert(fi, f);
                    }
                    stats.pieces_dropped += fo.dropped;
                    trim_counts.0 += fo.trim_counts.0;
                    trim_counts.1 += fo.trim_counts.1;
                    trim_counts.2 += fo.trim_counts.2;
                    stats.warnings.extend(fo.warnings);
                    for (mut p, info) in fo.pieces {
                        if let Some(o) = &mut p.origin {
                            o.surface = surface;
                        }
                        scene.pieces.push(p);
                        infos.push(info);
                    }
                }
                Err(e) => {
                    stats.faces_skipped += 1;
                    let w = format!("prepare: face #{} skipped: {e}", model.faces[fi].source);
                    first_problem.get_or_insert_with(|| w.clone());
                    stats.warnings.push(w);
                }
            }
        }
        if let Some(d) = opts
            .time_limit
            .filter(|_| deadline.is_some_and(|t| std::time::Instant::now() >= t))
        {
            return Err(PrepareError::TimeLimit {
                seconds: d.as_secs_f64(),
                done: stats.faces,
                total: total_faces,
            });
        }
        if scene.pieces.len() == piece_first {
            if body.face_indices().count() == 0 {
                continue;
            }
            return Err(PrepareError::EmptyBody {
                body: bi,
                name: crate::import::escape::escape_str(&body.name),
                reason: first_problem.unwrap_or_else(|| "every piece lies outside the trims".into()),
            });
        }
        let piece_count = scene.pieces.len() - piece_first;
        let edge_first = scene.edges.len();
        let vertex_first = scene.vertices.len();
        features::build(
            model,
            body,
            body_idx,
            piece_first,
            &infos,
            &face_nurbs,
            opts,
            &mut scene,
            &mut stats,
        )?;
        let bvh_first = scene.bvh_nodes.len();
        let mut items: Vec<(u32, Aabb)> = (piece_first..scene.pieces.len())
            .map(|i| (i as u32, scene.pieces[i].bbox))
            .collect();
        let mut local = Vec::new();
        let root = crate::scene::bvh::build(&mut items, &mut local);
        for mut n in local {
            if let crate::scene::data::BvhKind::Interior(a, b) = &mut n.kind {
                *a += bvh_first as u32;
                *b += bvh_first as u32;
            }
            scene.bvh_nodes.push(n);
        }
        let bbox = scene.pieces[piece_first..]
            .iter()
            .skip(1)
            .fold(scene.pieces[piece_first].bbox, |a, p| {
                crate::scene::bvh::union(&a, &p.bbox)
            });
        let span = |first: usize, end: usize| -> Result<Span, PrepareError> {
            Ok(Span {
                first: u32::try_from(first).map_err(|_| PrepareError::TooLarge)?,
                count: u32::try_from(end - first).map_err(|_| PrepareError::TooLarge)?,
            })
        };
        scene.bodies.push(Body {
            name: body.name.clone(),
            kind: match body.kind {
                ModelBodyKind::Solid => BodyKind::Solid,
                ModelBodyKind::OpenShell => BodyKind::OpenShell,
                ModelBodyKind::Faces => BodyKind::Faces,
            },
            source_id: body.source,
            placement: placement(&body.placement),
            bbox,
            pieces: span(piece_first, piece_first + piece_count)?,
            edges: span(edge_first, scene.edges.len())?,
            vertices: span(vertex_first, scene.vertices.len())?,
            bvh: span(bvh_first, scene.bvh_nodes.len())?,
            bvh_root: root.map_or(NONE, |r| r + bvh_first as u32),
        });
    }
    if trim_counts.0 > 0 {
        stats.warnings.push(format!(
            "prepare: {} trim curve(s) have no p-curve: projected from their 3-D curves (fitted Bézier pieces aimed at 1e-8 of the diagonal of the face's trim bounds, see formats/scene.md)",
            trim_counts.0
        ));
    }
    if trim_counts.1 > 0 {
        stats.warnings.push(format!(
            "prepare: {} trim curve(s) on {} face(s) have neither a usable p-curve nor a projectable 3-D curve: kept as sampled polylines",
            trim_counts.1, trim_counts.2
        ));
    }
    scene.meta.source_name = model.file_name.clone();
    scene.meta.producer = format!("extrack {}", env!("CARGO_PKG_VERSION"));
    scene.meta.source_format = match model.format {
        SourceFormat::Iges => SourceKind::Iges,
        SourceFormat::Step => SourceKind::Step,
    };
    scene.meta.warnings = model.warnings.iter().chain(&stats.warnings).cloned().collect();
    let mut tol = vec![
        Tolerance {
            name: "classify_rel".into(),
            value: opts.convexity.rel_tol,
        },
        Tolerance {
            name: "classify_max_depth".into(),
            value: f64::from(opts.convexity.max_depth),
        },
        Tolerance {
            name: "classify_merge_depth".into(),
            value: f64::from(opts.convexity.merge_depth),
        },
        Tolerance {
            name: "max_cone_half_angle_rad".into(),
            value: opts.max_cone_angle,
        },
        Tolerance {
            name: "max_split_depth".into(),
            value: f64::from(opts.max_split_depth),
        },
    ];
    if let Some(t) = model.tolerance.filter(|t| t.is_finite()) {
        tol.insert(
            0,
            Tolerance {
                name: "linear_mm".into(),
                value: t,
            },
        );
    }
    scene.meta.tolerances = tol;
    Ok((scene, stats))
}

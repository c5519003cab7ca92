//! The offline stage: Model → convex "nice" rational Bézier pieces, feature
//! graph, Voronoi data and BVH, as a [`SceneData`].
//!
//! Per face: exact NURBS over the face's parameter range ([`nurbs`]), Bézier
//! decomposition by knot insertion, convexity classification with
//! subdivision ([`convexity`]), splitting of convex patches until their
//! normal cone is below [`PrepareOptions::max_cone_angle`] ([`split`]), trim
//! classification ([`trim`]). Then per body the feature graph ([`features`])
//! and the BVH ([`bvh`]).

// `!(x > 0.0)` style tests are deliberate: they also reject NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod convexity;
pub mod features;
pub mod fit;
pub mod nurbs;
pub mod split;
pub mod surface_fit;
pub mod trim;

use crate::geom::{NurbsSurface, Vec3};
use crate::import::eval::FaceTrim;
use crate::import::model::{BodyKind as ModelBodyKind, Model, SourceFormat};
use crate::scene::data::{
    Aabb, Body, BodyKind, Piece, PieceOrigin, SceneData, SourceKind, SurfaceNet, Tolerance, NONE,
};
use crate::scene::Span;
use convexity::ConvexityOptions;
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
}

impl Default for PrepareOptions<'_> {
    fn default() -> Self {
        Self {
            convexity: ConvexityOptions::default(),
            max_cone_angle: 80f64.to_radians(),
            max_split_depth: 12,
            edge_samples: 9,
            progress: None,
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

/// Per-piece data kept for the feature graph.
#[derive(Debug, Clone)]
pub(crate) struct PieceInfo {
    /// Model face index.
    pub face: usize,
    /// NURBS rectangle of the face NURBS.
    pub nrect: [f64; 4],
    /// Least distance within which `features` links a trim curve of the
    /// piece to an edge: the file's tolerance on a face bounded by p-curves
    /// that leave their 3-D edges by more than it (see
    /// [`trim::ExactLoops::by_pcurves`]), else 0.
    pub link_floor: f64,
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
        let results: Vec<(usize, Result<FaceOut, nurbs::NurbsError>)> = face_list
            .par_iter()
            .map(|&fi| {
                let r = model.faces.get(fi).map(|_| face_pieces(model, fi, body_idx, opts));
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
        if scene.pieces.len() == piece_first {
            if body.face_indices().count() == 0 {
                continue;
            }
            return Err(PrepareError::EmptyBody {
                body: bi,
                name: body.name.clone(),
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

/// What one face gives.
struct FaceOut {
    fnurbs: Option<nurbs::FaceNurbs>,
    pieces: Vec<(Piece, PieceInfo)>,
    warnings: Vec<String>,
    dropped: usize,
    /// Trim curves projected from 3-D, kept as sampled polylines, and whether any was.
    trim_counts: (usize, usize, usize),
}

fn face_pieces(model: &Model, fi: usize, body: u32, opts: &PrepareOptions) -> Result<FaceOut, nurbs::NurbsError> {
    let mut stats = FaceOut {
        fnurbs: None,
        pieces: Vec::new(),
        warnings: Vec::new(),
        dropped: 0,
        trim_counts: (0, 0, 0),
    };
    let face = &model.faces[fi];
    let trim = FaceTrim::new(model, face);
    let exact = trim::exact_loops(model, face, &trim);
    let fnurbs = nurbs::face_nurbs_within(face, &trim, exact.extent())?;
    stats.warnings.extend(fnurbs.note.clone());
    for (li, d) in &exact.by_pcurves {
        stats.warnings.push(format!(
            "prepare: face #{}: loop {li} bounded by its p-curves (up to {d:.1e} from the 3-D edges, beyond the file's tolerance)",
            face.source
        ));
    }
    stats.trim_counts = (exact.projected, exact.approximated, usize::from(exact.approximated > 0));
    let link_floor = if exact.by_pcurves.is_empty() {
        0.0
    } else {
        model.tolerance.filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0)
    };
    let holes_only = nurbs::holes_only(face, &trim);
    let outer_first = face.outer.as_ref().is_some_and(|l| !l.coedges.is_empty()) && !holes_only;
    let sigma = if face.same_sense { 1.0 } else { -1.0 };
    let out = &mut stats.pieces;
    let ((ru0, ru1), (rv0, rv1)) = fnurbs.mapped.surface.domain();
    for bp in fnurbs.mapped.surface.bezier_patches() {
        // a face range ending a rounding error away from a knot leaves a
        // sliver span (width ~1e-14): it has no area and no usable normal
        if !(bp.u.1 - bp.u.0 > 1e-9 * (ru1 - ru0) && bp.v.1 - bp.v.0 > 1e-9 * (rv1 - rv0)) {
            continue;
        }
        let (p, q) = (bp.patch.degree_u, bp.patch.degree_v);
        // the span's normal numerator, restricted to each classified part
        let span_normal = split::normal_polys(p, q, &bp.patch.cw);
        for cp in convexity::classify(p, q, &bp.patch.cw, sigma, &opts.convexity) {
            let mut nice = Vec::new();
            split::make_nice_with(
                p,
                q,
                cp.cw,
                &span_normal,
                cp.rect,
                cp.class,
                sigma,
                opts.max_cone_angle,
                opts.max_split_depth,
                &mut nice,
            );
            for np in nice {
                if np.class == crate::scene::data::ConvexityClass::Mixed
                    && cp.class == crate::scene::data::ConvexityClass::Convex
                {
                    stats.warnings.push(format!(
                        "prepare: face #{}: a convex patch could not be made nice within {} halvings; stored as mixed",
                        face.source, opts.max_split_depth
                    ));
                }
                let r = [
                    np.rect[0] + (np.rect[1] - np.rect[0]) * 0.0,
                    np.rect[1],
                    np.rect[2],
                    np.rect[3],
                ];
                let (du, dv) = (bp.u.1 - bp.u.0, bp.v.1 - bp.v.0);
                let nrect = [
                    bp.u.0 + r[0] * du,
                    bp.u.0 + r[1] * du,
                    bp.v.0 + r[2] * dv,
                    bp.v.0 + r[3] * dv,
                ];
                let (fu0, fv0) = fnurbs.to_face(nrect[0], nrect[2]);
                let (fu1, fv1) = fnurbs.to_face(nrect[1], nrect[3]);
                let domain = [fu0, fu1, fv0, fv1];
                if !(fu1 > fu0 && fv1 > fv0) {
                    continue;
                }
                let status = trim::trim_piece(&trim, &exact, outer_first, holes_only, &fnurbs, domain, nrect);
                let (trimmed, fully_inside, loops) = match status {
                    trim::TrimStatus::Outside => {
                        stats.dropped += 1;
                        continue;
                    }
                    trim::TrimStatus::Inside => (false, true, Vec::new()),
                    trim::TrimStatus::Partial(l) => (true, false, l),
                };
                // the stored poles, box and cone are the ones a packed scene
                // re-derives from the span (`scene::packed`): one arithmetic
                let poles = crate::geom::bernstein::restrict_poles(p, q, &bp.patch.cw, np.rect);
                let bbox = crate::scene::bvh::hull_box(&poles);
                out.push((
                    Piece {
                        body,
                        source_face: face.source,
                        degree_u: p as u32,
                        degree_v: q as u32,
                        poles,
                        class: np.class,
                        reversed: !face.same_sense,
                        trimmed,
                        fully_inside,
                        domain,
                        cone: np.cone,
                        bbox,
                        trim_loops: loops,
                        adjacency: Vec::new(),
                        // `surface` is set when the face's surface is added to the scene
                        origin: Some(PieceOrigin {
                            surface: 0,
                            span: [bp.index.0 as u32, bp.index.1 as u32],
                            rect: np.rect,
                        }),
                    },
                    PieceInfo {
                        face: fi,
                        nrect,
                        link_floor,
                    },
                ));
            }
        }
    }
    stats.fnurbs = Some(fnurbs);
    Ok(stats)
}

/// A face's converted NURBS surface as the scene stores it.
fn surface_net(s: &NurbsSurface) -> SurfaceNet {
    SurfaceNet {
        degree_u: s.degree_u as u32,
        degree_v: s.degree_v as u32,
        count_u: s.n_u as u32,
        count_v: s.n_v as u32,
        knots_u: s.knots_u.clone(),
        knots_v: s.knots_v.clone(),
        poles: s.cw.clone(),
    }
}

/// The piece's patch as a NURBS surface on `[0,1]²`.
pub fn piece_surface(p: &Piece) -> Option<NurbsSurface> {
    NurbsSurface::bezier(p.degree_u as usize, p.degree_v as usize, p.poles.clone()).ok()
}

/// Outward unit normal of a piece at `(s, t)` (zero where degenerate).
pub fn piece_normal(s: &NurbsSurface, reversed: bool, u: f64, v: f64) -> Vec3 {
    let d = s.eval_derivs(u, v);
    let n = d.normal_raw();
    let l = n.norm();
    if !(l > 0.0) {
        return Vec3::zeros();
    }
    if reversed {
        -n / l
    } else {
        n / l
    }
}

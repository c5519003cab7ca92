//! The feature graph of one body: piece adjacency across the seams inside a
//! face (pieces sharing a rectangle side), B-rep edges as crease / boundary
//! edge features with exact NURBS curves and Voronoi samples (the edge
//! parameter and the outward normals of both adjacent faces there; only the
//! two end samples where both normals are constant), and vertices with
//! their incident edges and pieces and the cone of the adjacent normals.
//!
//! An edge sample's face parameters come from projecting the edge point onto
//! each adjacent face's surface (closed form for analytic surfaces, Newton
//! otherwise); the piece on each side is the one whose face-parameter
//! rectangle holds the projection of the edge's middle sample, and the
//! side's linear parameter map joins the projections of the edge's ends in
//! that piece's `[0,1]²`.

use super::nurbs::{curve_image_nurbs, outward_normal, FaceNurbs};
use super::split::cone_of;
use super::{PieceInfo, PrepareError, PrepareOptions, PrepareStats};
use crate::geom::{NurbsCurve, Vec3};
use crate::import::eval::project_surface;
use crate::import::model::{Body as ModelBody, BodyKind, Face, Model};
use crate::scene::data::{
    Adjacency, Boundary, Edge, EdgeKind, EdgeSample, EdgeSide, FeatureRef, ParamMap, SceneData, Vertex, NONE,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Incident edges, pieces and adjacent normals of a vertex.
type Incidence = (Vec<u32>, BTreeSet<u32>, Vec<Vec3>);

struct FaceCtx<'a> {
    face: &'a Face,
    fnurbs: Option<FaceNurbs>,
    pieces: Vec<usize>,
    /// Least link tolerance of the face's trim curves ([`PieceInfo::link_floor`]).
    link_floor: f64,
}

fn to_range(face: &Face, fnurbs: &Option<FaceNurbs>, p: &Vec3) -> (f64, f64) {
    let range = fnurbs.as_ref().map_or(((0.0, 1.0), (0.0, 1.0)), |f| f.range);
    let (mut u, mut v) = match face.surface.analytic_params(p) {
        Some(uv) => uv,
        None => {
            let r = project_surface(&face.surface, p, range, 12);
            (r.u, r.v)
        }
    };
    let (pu, pv) = face.surface.periods();
    if u.is_nan() {
        u = 0.5 * (range.0 .0 + range.0 .1);
    }
    if let Some(per) = pu {
        u -= ((u - range.0 .0 + 1e-9) / per).floor() * per;
    }
    if let Some(per) = pv {
        v -= ((v - range.1 .0 + 1e-9) / per).floor() * per;
    }
    (u, v)
}

/// Largest turn of an edge's tangent between two neighbouring Voronoi
/// samples (radians): the runtime interpolates the pseudo-normal linearly
/// between samples, so a curve that winds (a thread's helix) needs samples
/// in proportion to its total turning.
const MAX_SAMPLE_TURN: f64 = 0.5;
/// Most Voronoi samples per edge.
const MAX_EDGE_SAMPLES: usize = 1025;

/// Voronoi samples for `curve`: at least `min`, and enough that the tangent
/// turns by at most [`MAX_SAMPLE_TURN`] between neighbours (its total turning
/// measured at 16 points per knot span).
fn edge_sample_count(curve: &NurbsCurve, min: usize) -> usize {
    let (k0, k1) = curve.domain();
    let spans = curve.knots.windows(2).filter(|w| w[1] > w[0]).count().max(1);
    let probes = (16 * spans).clamp(32, 8192);
    let mut turn = 0.0;
    let mut prev: Option<Vec3> = None;
    for k in 0..=probes {
        let t = k0 + (k1 - k0) * k as f64 / probes as f64;
        let Some(d) = curve.eval_derivs(t).d1.try_normalize(0.0) else {
            continue;
        };
        if let Some(p) = prev {
            turn += p.dot(&d).clamp(-1.0, 1.0).acos();
        }
        prev = Some(d);
    }
    let need = (turn / MAX_SAMPLE_TURN).ceil();
    if need.is_finite() {
        (need as usize + 1).clamp(min, MAX_EDGE_SAMPLES.max(min))
    } else {
        min
    }
}

/// Largest difference (per component) between two unit normals for which an
/// edge's Voronoi samples count as having constant normals.
const CONSTANT_NORMAL_TOL: f64 = 1e-12;

/// The Voronoi samples to store: only the two end samples when both sides'
/// outward normals are the same at every sample (within
/// [`CONSTANT_NORMAL_TOL`], e.g. a straight edge between two planes). The
/// runtime interpolates the pseudo-normal between samples, so the dropped
/// samples would only repeat it.
fn thin_samples(samples: Vec<EdgeSample>) -> Vec<EdgeSample> {
    let same = |a: &[f64; 3], b: &[f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= CONSTANT_NORMAL_TOL);
    match (samples.first(), samples.last()) {
        (Some(&first), Some(&last))
            if samples.len() > 2
                && samples
                    .iter()
                    .all(|s| same(&s.normal_a, &first.normal_a) && same(&s.normal_b, &first.normal_b)) =>
        {
            vec![first, last]
        }
        _ => samples,
    }
}

fn rect_dist(d: &[f64; 4], u: f64, v: f64) -> f64 {
    let du = (d[0] - u).max(u - d[1]).max(0.0) / (d[1] - d[0]).max(1e-300);
    let dv = (d[2] - v).max(v - d[3]).max(0.0) / (d[3] - d[2]).max(1e-300);
    du + dv
}

/// Best piece (absolute index) of the face for face parameters `(u, v)`, skipping `not`.
fn find_piece(scene: &SceneData, ctx: &FaceCtx, u: f64, v: f64, not: Option<usize>) -> Option<usize> {
    let (pu, _) = ctx.face.surface.periods();
    let shifts: Vec<f64> = pu.map_or(vec![0.0], |p| vec![-p, 0.0, p]);
    ctx.pieces
        .iter()
        .copied()
        .filter(|&i| Some(i) != not)
        .map(|i| {
            let d = shifts
                .iter()
                .map(|s| rect_dist(&scene.pieces[i].domain, u + s, v))
                .fold(f64::INFINITY, f64::min);
            (i, d)
        })
        .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
        .map(|x| x.0)
}

fn local(ctx: &FaceCtx, nrect: &[f64; 4], u: f64, v: f64) -> [f64; 2] {
    let Some(f) = &ctx.fnurbs else {
        return [0.0, 0.0];
    };
    let ((a, b), (c, d)) = f.range;
    let (s, t) = f.to_nurbs(u.clamp(a, b), v.clamp(c, d));
    let x = (s - nrect[0]) / (nrect[1] - nrect[0]);
    let y = (t - nrect[2]) / (nrect[3] - nrect[2]);
    [if x.is_finite() { x } else { 0.0 }, if y.is_finite() { y } else { 0.0 }]
}

fn nearest_side(st: [f64; 2]) -> Boundary {
    let c = [
        (st[0].abs(), Boundary::U0),
        ((1.0 - st[0]).abs(), Boundary::U1),
        (st[1].abs(), Boundary::V0),
        ((1.0 - st[1]).abs(), Boundary::V1),
    ];
    c.iter()
        .min_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal))
        .map_or(Boundary::U0, |x| x.1)
}

fn polyline_nurbs(pts: &[Vec3]) -> Option<NurbsCurve> {
    let n = pts.len();
    let mut knots = vec![0.0, 0.0];
    for k in 1..n - 1 {
        knots.push(k as f64);
    }
    knots.extend([(n - 1) as f64; 2]);
    NurbsCurve::try_from_homogeneous(1, knots, pts.iter().map(|p| [p.x, p.y, p.z, 1.0]).collect()).ok()
}

/// Builds edges, vertices and adjacency of one body (pieces
/// `piece_first..`, `infos[i]` for piece `piece_first + i`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    model: &Model,
    body: &ModelBody,
    body_idx: u32,
    piece_first: usize,
    infos: &[PieceInfo],
    face_nurbs: &HashMap<usize, FaceNurbs>,
    opts: &PrepareOptions,
    scene: &mut SceneData,
    stats: &mut PrepareStats,
) -> Result<(), PrepareError> {
    let idx = |i: usize| u32::try_from(i).map_err(|_| PrepareError::TooLarge);
    // faces of the body with their pieces
    let mut faces: BTreeMap<usize, FaceCtx> = BTreeMap::new();
    for (k, info) in infos.iter().enumerate() {
        let Some(face) = model.faces.get(info.face) else {
            continue;
        };
        faces
            .entry(info.face)
            .or_insert_with(|| FaceCtx {
                face,
                fnurbs: face_nurbs.get(&info.face).cloned(),
                pieces: Vec::new(),
                link_floor: info.link_floor,
            })
            .pieces
            .push(piece_first + k);
    }
    // seams: neighbouring pieces of one face; candidates by binary search on
    // sorted rectangle sides (a face may have 10⁴–10⁵ pieces), links applied
    // in the order of the pairs (a before b in the face's piece list)
    for ctx in faces.values() {
        let rects: Vec<[f64; 4]> = ctx.pieces.iter().map(|&a| infos[a - piece_first].nrect).collect();
        let scale = rects.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
        let eps = 1e-12 * (1.0 + scale);
        let sorted_by = |k: usize| -> Vec<(f64, usize)> {
            let mut v: Vec<(f64, usize)> = rects.iter().enumerate().map(|(i, r)| (r[k], i)).collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            v
        };
        let (by_u0, by_v0) = (sorted_by(0), sorted_by(2));
        // (first position, second position, boundary of first, boundary of second)
        let mut links: Vec<(usize, usize, Boundary, Boundary)> = Vec::new();
        for (ia, ra) in rects.iter().enumerate() {
            // b to the right of a (rb.u0 = ra.u1) with overlapping v ranges
            let lo = by_u0.partition_point(|x| x.0 < ra[1] - eps);
            for &(u0, ib) in &by_u0[lo..] {
                if u0 > ra[1] + eps {
                    break;
                }
                let rb = &rects[ib];
                if ib != ia && ra[2].max(rb[2]) < ra[3].min(rb[3]) - eps {
                    links.push(if ia < ib {
                        (ia, ib, Boundary::U1, Boundary::U0)
                    } else {
                        (ib, ia, Boundary::U0, Boundary::U1)
                    });
                }
            }
            // b above a (rb.v0 = ra.v1) with overlapping u ranges
            let lo = by_v0.partition_point(|x| x.0 < ra[3] - eps);
            for &(v0, ib) in &by_v0[lo..] {
                if v0 > ra[3] + eps {
                    break;
                }
                let rb = &rects[ib];
                if ib != ia && ra[0].max(rb[0]) < ra[1].min(rb[1]) - eps {
                    links.push(if ia < ib {
                        (ia, ib, Boundary::V1, Boundary::V0)
                    } else {
                        (ib, ia, Boundary::V0, Boundary::V1)
                    });
                }
            }
        }
        links.sort_by_key(|l| (l.0, l.1));
        links.dedup_by_key(|l| (l.0, l.1));
        for (ia, ib, ba, bb) in links {
            let (a, b) = (ctx.pieces[ia], ctx.pieces[ib]);
            scene.pieces[a].adjacency.push(Adjacency {
                boundary: ba,
                feature: FeatureRef::Piece(b as u32),
            });
            scene.pieces[b].adjacency.push(Adjacency {
                boundary: bb,
                feature: FeatureRef::Piece(a as u32),
            });
        }
    }
    // B-rep edges of the body
    let mut edge_ids: BTreeSet<usize> = BTreeSet::new();
    for fi in faces.keys() {
        let f = &model.faces[*fi];
        for lp in f.outer.iter().chain(&f.inner) {
            edge_ids.extend(lp.coedges.iter().filter_map(|c| c.edge));
        }
    }
    let mut vmap: BTreeMap<usize, u32> = BTreeMap::new();
    let mut vinc: BTreeMap<usize, Incidence> = BTreeMap::new();
    let min_samples = opts.edge_samples.max(2);
    // per face: the scene edges along its loops (for linking trims to edges)
    let mut face_edges: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for ei in edge_ids {
        let Some(edge) = model.edges.get(ei) else { continue };
        let adj: Vec<usize> = edge.faces.iter().copied().filter(|f| faces.contains_key(f)).collect();
        let Some(&fa) = adj.first() else { continue };
        let (t0, t1) = (edge.t0.min(edge.t1), edge.t0.max(edge.t1));
        // the edge's exact point set (its samples and side maps are taken
        // on the NURBS itself); a polyline only where the curve has no
        // exact NURBS. A hyperbola stored as a 17-point polyline lay up to
        // 4.5e-6 mm off the cone it bounds (m6_screw's slot, edges #256,
        // #311, #399, #464), and its chords were the closest points; so did
        // every composite with a circle, ellipse or hyperbola arc.
        let curve = if t1 > t0 {
            curve_image_nurbs(&edge.curve, (t0, t1))
        } else {
            None
        };
        let curve = match curve {
            Some(c) => c,
            None => {
                let pts: Vec<Vec3> = (0..=16)
                    .map(|k| edge.curve.eval(t0 + (t1 - t0) * k as f64 / 16.0))
                    .collect();
                if !(t1 > t0) || pts.iter().any(|p| !p.iter().all(|x| x.is_finite())) {
                    continue;
                }
                stats.warnings.push(format!(
                    "prepare: edge #{}: {} curve stored as a 17-point polyline",
                    edge.source,
                    edge.curve.type_name()
                ));
                match polyline_nurbs(&pts) {
                    Some(c) => c,
                    None => continue,
                }
            }
        };
        let (k0, k1) = curve.domain();
        let n_samples = edge_sample_count(&curve, min_samples);
        let e_index = idx(scene.edges.len())?;
        let fb = adj.get(1).copied();
        let kind = if fb.is_some() || body.kind == BodyKind::Solid {
            EdgeKind::Crease
        } else {
            EdgeKind::Boundary
        };
        let fb_face = fb.or(if kind == EdgeKind::Crease { Some(fa) } else { None });
        let mut samples = Vec::with_capacity(n_samples);
        let mut uvs: Vec<[(f64, f64); 2]> = Vec::with_capacity(n_samples);
        for k in 0..n_samples {
            let t = k as f64 / (n_samples - 1) as f64;
            let c = curve.eval_derivs(k0 + t * (k1 - k0)); // the point only
            let ca = &faces[&fa];
            let uva = to_range(ca.face, &ca.fnurbs, &c.p);
            let na = outward_normal(ca.face, uva.0, uva.1);
            let (uvb, nb) = match fb_face {
                Some(f) => {
                    let cb = &faces[&f];
                    let uv = to_range(cb.face, &cb.fnurbs, &c.p);
                    (uv, outward_normal(cb.face, uv.0, uv.1))
                }
                None => ((0.0, 0.0), Vec3::zeros()),
            };
            uvs.push([uva, uvb]);
            samples.push(EdgeSample {
                t,
                normal_a: [na.x, na.y, na.z],
                normal_b: [nb.x, nb.y, nb.z],
            });
        }
        let mid = n_samples / 2;
        let mut sides = [EdgeSide::NONE; 2];
        let mut piece_a = None;
        for (k, f) in [Some(fa), fb_face].into_iter().enumerate() {
            let Some(f) = f else { continue };
            let ctx = &faces[&f];
            let (u, v) = uvs[mid][k];
            let not = if Some(f) == Some(fa) && k == 1 { piece_a } else { None };
            let Some(pi) = find_piece(scene, ctx, u, v, not).or_else(|| find_piece(scene, ctx, u, v, None)) else {
                continue;
            };
            if k == 0 {
                piece_a = Some(pi);
            }
            let nrect = infos[pi - piece_first].nrect;
            let start = local(ctx, &nrect, uvs[0][k].0, uvs[0][k].1);
            let end = local(ctx, &nrect, uvs[n_samples - 1][k].0, uvs[n_samples - 1][k].1);
            let boundary = nearest_side(local(ctx, &nrect, u, v));
            sides[k] = EdgeSide {
                piece: pi as u32,
                boundary,
                map: ParamMap::Linear { start, end },
            };
            scene.pieces[pi].adjacency.push(Adjacency {
                boundary,
                feature: FeatureRef::Edge(e_index),
            });
        }
        if sides[0].piece == NONE || (kind == EdgeKind::Crease && sides[1].piece == NONE) {
            continue;
        }
        let side_faces: Vec<&FaceCtx> = adj.iter().map(|f| &faces[f]).collect();
        link_sides(scene, &side_faces, e_index, &curve);
        let mut vs = [NONE; 2];
        for (k, vtx) in [edge.start, edge.end].into_iter().enumerate() {
            let Some(vi) = vtx else { continue };
            let Some(mv) = model.vertices.get(vi) else { continue };
            let next = idx(scene.vertices.len() + vmap.len())?;
            let id = *vmap.entry(vi).or_insert(next);
            vs[k] = id;
            let _ = mv;
            let inc = vinc.entry(vi).or_default();
            inc.0.push(e_index);
            for s in &sides {
                if s.piece != NONE {
                    inc.1.insert(s.piece);
                }
            }
            let smp = if k == 0 { samples[0] } else { samples[n_samples - 1] };
            inc.2.push(Vec3::from(smp.normal_a));
            inc.2.push(Vec3::from(smp.normal_b));
        }
        // the NURBS runs from t0 to t1 (increasing); vertices follow edge.start/end
        if edge.t0 > edge.t1 {
            vs.swap(0, 1);
        }
        for f in &adj {
            face_edges.entry(*f).or_default().push(e_index);
        }
        scene.edges.push(Edge {
            kind,
            source_id: edge.source,
            body: body_idx,
            vertices: vs,
            curve_degree: curve.degree as u32,
            knots: curve.knots.clone(),
            poles: curve.cw.clone(),
            sides,
            samples: thin_samples(samples),
        });
    }
    link_trims(scene, &faces, &face_edges);
    let mut ordered: Vec<(u32, usize)> = vmap.iter().map(|(&m, &s)| (s, m)).collect();
    ordered.sort();
    for (_, vi) in ordered {
        let mv = &model.vertices[vi];
        let (edges, pieces, normals) = vinc.remove(&vi).unwrap_or_default();
        scene.vertices.push(Vertex {
            body: body_idx,
            source_id: mv.source,
            point: [mv.point.x, mv.point.y, mv.point.z],
            cone: cone_of(&normals),
            edges,
            pieces: pieces.into_iter().collect(),
        });
    }
    Ok(())
}

/// Gives every piece of the edge's faces with a side running along edge
/// `e` a `(side, Edge(e))` adjacency, not only the piece that holds the
/// edge's middle sample ([`EdgeSide`]): an edge bordering a split face
/// borders several pieces, and the runtime switches from each of them to the
/// edge and takes the edge's pseudo-normal at their borders. A side runs
/// along the edge when its points at [`LINK_SAMPLES`] are distinct and all
/// lie within [`LINK_TOL`] × the piece's size of the edge's curve (the test
/// `link_trims` makes for trim curves).
fn link_sides(scene: &mut SceneData, faces: &[&FaceCtx], e: u32, curve: &NurbsCurve) {
    let Some((clo, chi)) = pole_box(&curve.cw) else {
        return;
    };
    let mut pieces: BTreeSet<usize> = BTreeSet::new();
    for ctx in faces {
        pieces.extend(ctx.pieces.iter().copied());
    }
    for pi in pieces {
        let piece = &scene.pieces[pi];
        let (lo, hi) = (Vec3::from(piece.bbox.min), Vec3::from(piece.bbox.max));
        let tol = LINK_TOL * (hi - lo).norm().max(1e-300);
        if (0..3).any(|k| lo[k] > chi[k] + tol || hi[k] < clo[k] - tol) {
            continue;
        }
        let Some(surface) = super::piece_surface(piece) else {
            continue;
        };
        let sides = [
            (Boundary::U0, [0.0, 0.0], [0.0, 1.0]),
            (Boundary::U1, [1.0, 0.0], [0.0, 1.0]),
            (Boundary::V0, [0.0, 0.0], [1.0, 0.0]),
            (Boundary::V1, [0.0, 1.0], [1.0, 0.0]),
        ];
        for (boundary, start, dir) in sides {
            let pts = LINK_SAMPLES.map(|f| surface.eval(start[0] + f * dir[0], start[1] + f * dir[1]));
            let spread = (pts[pts.len() - 1] - pts[0]).norm();
            let along = spread > tol && pts.iter().all(|p| within(curve, p, tol, 64));
            let a = Adjacency {
                boundary,
                feature: FeatureRef::Edge(e),
            };
            if along && !scene.pieces[pi].adjacency.contains(&a) {
                scene.pieces[pi].adjacency.push(a);
            }
        }
    }
}

/// Bounds of the Euclidean points of homogeneous poles (`w > 0`), widened
/// by rounding: the rational curve lies inside (convex hull property).
/// `None` when a weight is not positive or a coordinate is not finite.
fn pole_box(poles: &[[f64; 4]]) -> Option<([f64; 3], [f64; 3])> {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for q in poles {
        if !(q[3] > 0.0) {
            return None;
        }
        for k in 0..3 {
            let x = q[k] / q[3];
            lo[k] = lo[k].min(x);
            hi[k] = hi[k].max(x);
        }
    }
    let slack = 1e-12 * (0..3).map(|k| lo[k].abs().max(hi[k].abs())).fold(1.0, f64::max);
    for k in 0..3 {
        lo[k] -= slack;
        hi[k] += slack;
    }
    (0..3)
        .all(|k| lo[k].is_finite() && hi[k].is_finite())
        .then_some((lo, hi))
}

/// Euclidean distance from `p` to the box `(lo, hi)` (0 inside).
fn box_dist(b: &([f64; 3], [f64; 3]), p: &Vec3) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let d = (b.0[k] - p[k]).max(p[k] - b.1[k]).max(0.0);
        s += d * d;
    }
    s.sqrt()
}

/// Fractions of a trim curve sampled to decide whether it runs along an edge.
const LINK_SAMPLES: [f64; 5] = [0.1, 0.3, 0.5, 0.7, 0.9];

/// Distance, relative to the face's size, within which a trim curve counts
/// as running along a B-rep edge of its face. Trim curves are the file's
/// p-curves or projections of the edges, which lie within about 1e-8 to 1e-7
/// of the exact 3-D edge; 1e-6 leaves a margin and is far below the
/// distance between two different edges of a face. On a face whose loop is
/// bounded by p-curves that leave their 3-D edges beyond the file's
/// tolerance (`trim::ExactLoops::by_pcurves`) the file's tolerance is the
/// least link distance (`PieceInfo::link_floor`): there the p-curves lie up
/// to that far from their edges along most of the edge (dtmb5415_bow: 3e-5
/// to 1.2e-4 mm, 2e-6 to 5e-6 of the pieces' size).
const LINK_TOL: f64 = 1e-6;

/// Links every trim curve of a piece that runs along a B-rep edge of its
/// face to that edge (`Boundary::Trim` adjacency): the runtime then tracks
/// the edge's exact curve there and uses its Voronoi data, instead of the
/// trim curve (a p-curve or projection). A curve is linked when its points
/// at [`LINK_SAMPLES`] all lie within [`LINK_TOL`] × the face's size of one
/// edge of the face; curves that match no edge stay trims.
/// True when `curve` passes within `tol` of `p`: `n` samples (at most 64),
/// then Newton from the 8 nearest (as `geom::curve_foot::closest_on_curve`),
/// stopping as
/// soon as a sample or an iterate is within `tol`, and each Newton run once
/// its step is below 1e-13 of the domain (or after 40 steps): the link test
/// needs the decision, not the foot point to the last bit.
fn within(curve: &NurbsCurve, p: &Vec3, tol: f64, n: usize) -> bool {
    let (t0, t1) = curve.domain();
    let n = n.clamp(2, 64);
    let mut buf = [(0.0f64, 0.0f64); 64];
    let samples = &mut buf[..n];
    for (i, s) in samples.iter_mut().enumerate() {
        let t = t0 + (t1 - t0) * i as f64 / (n - 1) as f64;
        *s = ((curve.eval(t) - p).norm(), t);
        if s.0 <= tol {
            return true;
        }
    }
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let eps = 1e-13 * (t1 - t0).abs().max(1e-300);
    samples.iter().take(8).any(|&(_, start)| {
        let mut t = start;
        for _ in 0..40 {
            let c = curve.eval_derivs(t);
            if (c.p - p).norm() <= tol {
                return true;
            }
            let tn = crate::geom::curve_foot::curve_newton(&c, p, t, (t0, t1));
            let done = (tn - t).abs() <= eps;
            t = tn;
            if done {
                break;
            }
        }
        (curve.eval(t) - p).norm() <= tol
    })
}

fn link_trims(scene: &mut SceneData, faces: &BTreeMap<usize, FaceCtx>, face_edges: &BTreeMap<usize, Vec<u32>>) {
    use crate::geom::bez2;
    use crate::scene::data::TrimCurve;
    for (fi, ctx) in faces {
        let Some(edges) = face_edges.get(fi) else { continue };
        type Boxes = Option<Vec<([f64; 3], [f64; 3])>>;
        let curves: Vec<(u32, NurbsCurve, Boxes)> = edges
            .iter()
            .filter_map(|&e| {
                let ed = &scene.edges[e as usize];
                let p = ed.curve_degree as usize;
                // one box per non-empty knot span (its p + 1 poles)
                let hull: Option<Vec<_>> = (p..ed.poles.len())
                    .filter(|&i| ed.knots.get(i + 1).zip(ed.knots.get(i)).is_some_and(|(b, a)| b > a))
                    .map(|i| pole_box(&ed.poles[i - p..=i]))
                    .collect();
                let hull = hull.filter(|h| !h.is_empty());
                NurbsCurve::try_from_homogeneous(ed.curve_degree as usize, ed.knots.clone(), ed.poles.clone())
                    .ok()
                    .map(|c| (e, c, hull))
            })
            .collect();
        if curves.is_empty() {
            continue;
        }
        for &pi in &ctx.pieces {
            let piece = &scene.pieces[pi];
            if piece.fully_inside || piece.trim_loops.is_empty() {
                continue;
            }
            let Some(surface) = super::piece_surface(piece) else {
                continue;
            };
            let size = (Vec3::from(piece.bbox.max) - Vec3::from(piece.bbox.min)).norm();
            // a face bounded by p-curves that leave their 3-D edges (by up
            // to the file's tolerance along the edge) still links them
            let tol = (LINK_TOL * size.max(1e-300)).max(ctx.link_floor);
            let mut links = Vec::new();
            for (li, l) in piece.trim_loops.iter().enumerate() {
                for (ci, c) in l.curves.iter().enumerate() {
                    let at = |f: f64| -> [f64; 2] {
                        match c {
                            TrimCurve::Bezier(h) => bez2::eval(h, f),
                            TrimCurve::Polyline(v) => {
                                let x = f * (v.len() - 1) as f64;
                                let i = (x.floor() as usize).min(v.len().saturating_sub(2));
                                let r = x - i as f64;
                                let (a, b) = (v[i], v[(i + 1).min(v.len() - 1)]);
                                [a[0] + r * (b[0] - a[0]), a[1] + r * (b[1] - a[1])]
                            }
                        }
                    };
                    let pts: Vec<Vec3> = LINK_SAMPLES
                        .iter()
                        .map(|&f| {
                            let [u, v] = at(f);
                            surface.eval(u.clamp(0.0, 1.0), v.clamp(0.0, 1.0))
                        })
                        .collect();
                    // a point farther than `tol` from the boxes of an edge's
                    // knot spans' poles is farther than `tol` from the edge
                    // (convex hull of each span): most pairs are rejected
                    // without a projection
                    // (every point's box test before any projection)
                    let along = curves.iter().find(|(_, curve, hull)| {
                        pts.iter()
                            .all(|p| hull.as_ref().map_or(true, |h| h.iter().any(|b| box_dist(b, p) <= tol)))
                            && pts.iter().all(|p| within(curve, p, tol, 32))
                    });
                    if let Some(&(e, _, _)) = along {
                        links.push(Adjacency {
                            boundary: Boundary::Trim {
                                trim_loop: li as u32,
                                curve: ci as u32,
                            },
                            feature: FeatureRef::Edge(e),
                        });
                    }
                }
            }
            scene.pieces[pi].adjacency.extend(links);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parabola and hyperbola edges get their exact curves (before: a
    /// 17-point polyline whose chords lay off the cone by up to 4.5e-6 mm on
    /// m6_screw's hyperbolas, parameter range 2.227 – 2.505, semi-axes 0.83).
    #[test]
    fn parabola_and_hyperbola_edges_are_exact_not_polylines() {
        use crate::geom::Frame;
        use crate::import::model::Curve;
        let frame = Frame::from_axis_ref(
            Vec3::new(0.0, 0.83, -5.5),
            Vec3::new(0.0, 1.0, 0.0),
            Some(Vec3::new(0.0, 0.0, 1.0)),
        )
        .unwrap();
        let hyperbola = Curve::Hyperbola {
            frame,
            semi_x: 0.83,
            semi_y: 0.83,
        };
        let parabola = Curve::Parabola { frame, focal: 0.7 };
        for (curve, t) in [(&hyperbola, (2.2272, 2.5052)), (&hyperbola, (-3.0, 1.5)), (&parabola, (-2.0, 3.0))] {
            let c = curve_image_nurbs(curve, t).expect("an exact NURBS");
            let (k0, k1) = c.domain();
            assert!((c.eval(k0) - curve.eval(t.0)).norm() < 1e-12);
            assert!((c.eval(k1) - curve.eval(t.1)).norm() < 1e-12);
            for k in 0..=400 {
                let p = c.eval(k0 + (k1 - k0) * k as f64 / 400.0);
                let l = p - frame.origin;
                let (x, y) = (l.dot(&frame.x), l.dot(&frame.y));
                assert!(l.dot(&frame.z).abs() < 1e-12);
                // on the conic: x² − y² = a² (x > 0) for the hyperbola, y² = 4 f x for the parabola
                let off = match curve {
                    Curve::Hyperbola { .. } => (x - (0.83f64.powi(2) + y * y).sqrt()).abs(),
                    _ => (x - y * y / 2.8).abs(),
                };
                assert!(off < 1e-12, "{} at {k}: {off:e}", curve.type_name());
            }
        }
        // a curve with no exact NURBS of its own still gets none here
        assert!(curve_image_nurbs(&hyperbola, (1.0, 1.0)).is_none());
    }

    #[test]
    fn a_rational_arc_lies_in_its_pole_box_and_far_points_are_rejected() {
        // quarter circle of radius 2 in the xy-plane, rational quadratic
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let poles = vec![[2.0, 0.0, 0.0, 1.0], [2.0 * w, 2.0 * w, 0.0, w], [0.0, 2.0, 0.0, 1.0]];
        let hull = pole_box(&poles).unwrap();
        let curve = NurbsCurve::try_from_homogeneous(2, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0], poles).unwrap();
        for k in 0..=64 {
            let p = curve.eval(k as f64 / 64.0);
            assert!((p.norm() - 2.0).abs() < 1e-12);
            assert_eq!(box_dist(&hull, &p), 0.0, "{p:?}");
        }
        // the box distance never exceeds the true distance to the arc
        for q in [
            Vec3::new(3.0, 3.0, 0.0),
            Vec3::new(-1.0, 1.0, 0.5),
            Vec3::new(1.0, 1.0, -2.0),
        ] {
            let d = crate::geom::curve_foot::closest_on_curve(&curve, &q, 32).2;
            assert!(box_dist(&hull, &q) <= d + 1e-12, "{q:?}");
        }
        assert!((box_dist(&hull, &Vec3::new(5.0, 1.0, 0.0)) - 3.0).abs() < 1e-9);
        assert!(pole_box(&[[1.0, 0.0, 0.0, 0.0]]).is_none());
    }
}

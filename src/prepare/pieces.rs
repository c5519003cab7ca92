//! The per-face piece builder: one face → its NURBS over the face range,
//! Bézier spans, convex / concave / mixed parts ([`super::convexity`]),
//! nice pieces ([`super::split`]) and each piece's trim status
//! ([`super::trim`]), with the data the feature graph needs per piece.

use super::{convexity, nurbs, split, trim, PrepareOptions};
use crate::geom::NurbsSurface;
use crate::import::eval::FaceTrim;
use crate::import::model::Model;
use crate::scene::data::{Piece, PieceOrigin, SurfaceNet};

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

/// What one face gives.
pub(super) struct FaceOut {
    /// The face's NURBS (set when the face converted).
    pub(super) fnurbs: Option<nurbs::FaceNurbs>,
    /// The face's pieces with their data for the feature graph.
    pub(super) pieces: Vec<(Piece, PieceInfo)>,
    /// Warnings of the face.
    pub(super) warnings: Vec<String>,
    /// Pieces dropped as fully outside the trims.
    pub(super) dropped: usize,
    /// Trim curves projected from 3-D, kept as sampled polylines, and whether any was.
    pub(super) trim_counts: (usize, usize, usize),
}

/// The pieces of face `fi` of body `body`: its NURBS over the face range
/// ([`nurbs::face_nurbs_within`], the exact trims' extent), each Bézier
/// span classified ([`convexity::classify`]) and made nice
/// ([`split::make_nice_with`]), each nice piece classified against the
/// trims ([`trim::trim_piece`]; pieces outside are dropped).
pub(super) fn face_pieces(
    model: &Model,
    fi: usize,
    body: u32,
    opts: &PrepareOptions,
) -> Result<FaceOut, nurbs::NurbsError> {
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
    let trim_segments: u64 = exact.chains.iter().map(|c| c.len() as u64).sum();
    let out = &mut stats.pieces;
    let ((ru0, ru1), (rv0, rv1)) = fnurbs.mapped.surface.domain();
    for bp in fnurbs.mapped.surface.bezier_patches() {
        if !super::budget::charge(1) {
            break;
        }
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
                // clipping a piece looks at every trim segment
                if !super::budget::charge(1 + trim_segments / 16) {
                    break;
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
pub(super) fn surface_net(s: &NurbsSurface) -> SurfaceNet {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;
    use crate::import::model::{Face, SourceFormat, Surface};
    use crate::prepare::piece_surface;

    /// An untrimmed bicubic B-spline face over `[0, 2] × [0, 1]` (two spans
    /// in `u`) with the two degeneracies of the surfaces that failed the
    /// self-check's boundary test (issue 25, class untrimmed-boundary): the
    /// corner `(2, 1)` collapsed (its last two poles in `v` equal, as in
    /// wave2 `step_blank_fuselage_ap203` #207), and the first two rows of
    /// poles equal, so `f_v = 0` all along the side `v = 0` (corpus
    /// `iges_hm_nentity` #657).
    fn collapsed_corner_face() -> Model {
        let (n_u, n_v) = (5, 4);
        let mut cw = Vec::new();
        for i in 0..n_u {
            for j in 0..n_v {
                let jj = if j == 0 { 1 } else { j };
                let (x, y) = (10.0 * i as f64, 8.0 * jj as f64);
                let z = 0.6 * (i as f64 - 2.0).powi(2) + 0.9 * (jj as f64).powi(2) - 0.4 * (i * jj) as f64;
                cw.push([x, y, z, 1.0]);
            }
        }
        let last = (n_u - 1) * n_v;
        cw[last + 3] = cw[last + 2];
        let s = crate::geom::NurbsSurface::try_from_homogeneous(
            3,
            3,
            vec![0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.0, 2.0],
            vec![0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
            n_u,
            n_v,
            cw,
        )
        .unwrap();
        let mut m = Model::new(SourceFormat::Step, "collapsed corner");
        m.faces.push(Face {
            surface: Surface::BSpline(s),
            same_sense: true,
            outer: None,
            inner: Vec::new(),
            source: 7,
        });
        m
    }

    /// The pieces of an untrimmed face with a collapsed corner and a side
    /// where `f_v` vanishes tile its natural domain (no piece dropped, their
    /// face rectangles' areas add up to the domain's) and each piece's own
    /// poles evaluate to the surface's boundary along every side of the
    /// domain it touches: 1e-12 of the face's size at 201 points per side,
    /// the corners included.
    #[test]
    fn pieces_of_an_untrimmed_face_reach_its_boundary_at_a_collapsed_corner() {
        let m = collapsed_corner_face();
        let out = face_pieces(&m, 0, 0, &PrepareOptions::default()).unwrap();
        assert_eq!(out.dropped, 0);
        assert!(!out.pieces.is_empty());
        let ((u0, u1), (v0, v1)) = m.faces[0].surface.domain().unwrap();
        let area: f64 = out
            .pieces
            .iter()
            .map(|(p, _)| (p.domain[1] - p.domain[0]) * (p.domain[3] - p.domain[2]))
            .sum();
        assert!((area - (u1 - u0) * (v1 - v0)).abs() <= 1e-12, "pieces cover {area}");
        let surfaces: Vec<_> = out.pieces.iter().map(|(p, _)| piece_surface(p).unwrap()).collect();
        let size = 60.0;
        let n = 200;
        let mut worst = 0.0f64;
        for k in 0..=n {
            let x = k as f64 / n as f64;
            for (u, v) in [
                (u0 + (u1 - u0) * x, v0),
                (u0 + (u1 - u0) * x, v1),
                (u0, v0 + (v1 - v0) * x),
                (u1, v0 + (v1 - v0) * x),
            ] {
                let q: Vec3 = m.faces[0].surface.eval(u, v);
                // every piece whose rectangle holds (u, v) reaches q there
                let mut holders = 0;
                for ((p, _), s) in out.pieces.iter().zip(&surfaces) {
                    let d = p.domain;
                    if u < d[0] || u > d[1] || v < d[2] || v > d[3] {
                        continue;
                    }
                    holders += 1;
                    let (a, b) = ((u - d[0]) / (d[1] - d[0]), (v - d[2]) / (d[3] - d[2]));
                    worst = worst.max((s.eval(a, b) - q).norm());
                }
                assert!(holders > 0, "no piece holds ({u}, {v})");
            }
        }
        assert!(worst <= 1e-12 * size, "a piece leaves the boundary by {worst:.3e} mm");
    }
}

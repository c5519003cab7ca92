//! Which side of a body a query lies on, and the answer's outward normal and
//! reported feature (PG-2005 §IV): the outward normal at a piece witness,
//! the edge pseudo-normal (sum of the two adjacent normals) at an edge, the
//! vertex normal-cone axis at a vertex; at a witness on a face's border, the
//! pseudo-normal of the B-rep edge there (the face normal alone cannot tell
//! a point beyond the border from one below it).

use super::body::{BodyGeom, Cusp, Item};
use super::config::Mode;
use super::far::{trim_point, Candidate};
use crate::geom::{CurveEval, Vec3};
use crate::scene::data::{BodyKind, Boundary, FeatureRef, NONE};

/// Outward normal, sign and reported feature of a body-local candidate.
pub(crate) struct Oriented {
    pub normal: Vec3,
    pub inside: bool,
    pub feature: FeatureRef,
    pub face: u64,
    pub piece: u32,
    pub params: [f64; 2],
}

/// Orients a candidate: outward normal at the witness, inside test, feature and face ids.
///
/// A solid lies in its bounding box, so a query outside the box (beyond
/// rounding) is outside whatever the witness's local normals say: on a
/// model whose faces do not close up exactly (a sliver of a face missing at
/// a rim), the local test at a far witness can point the wrong way.
pub(crate) fn orient(body: &BodyGeom, c: &Candidate, q: &Vec3) -> Oriented {
    let mut o = orient_local(body, c, q);
    if o.inside {
        let slack = 1e-9 * (1.0 + (body.hi - body.lo).norm());
        if super::body::box_dist2(&body.lo, &body.hi, q) > slack * slack {
            o.inside = false;
            o.normal = (q - c.point).try_normalize(0.0).unwrap_or(o.normal);
        }
    }
    o
}

/// The reported feature, face, piece and parameters of a body-local
/// candidate: [`orient`]'s, without the normal and the inside test (no
/// pseudo-normal: a body–body result needs the sign only at contact).
pub(crate) fn feature_of(body: &BodyGeom, c: &Candidate) -> (FeatureRef, u64, u32, [f64; 2]) {
    match c.item {
        Item::Piece(k) => {
            let p = &body.pieces[k as usize];
            (FeatureRef::Piece(p.id), p.face, p.id, c.x)
        }
        Item::Edge(k) => {
            let e = &body.edges[k as usize];
            let end = match c.mode {
                Mode::U0 => Some(0),
                Mode::U1 => Some(1),
                _ => None,
            };
            let (feature, params) = match end.map(|i| e.vertices[i]).filter(|&v| v != NONE) {
                Some(v) => (FeatureRef::Vertex(body.vertices[v as usize].id), [0.0, 0.0]),
                None => (FeatureRef::Edge(e.id), c.x),
            };
            let side = e.pieces.iter().copied().find(|&p| p != NONE);
            (
                feature,
                side.map_or(0, |p| body.pieces[p as usize].face),
                side.map_or(NONE, |p| body.pieces[p as usize].id),
                params,
            )
        }
        Item::Trim(k) => {
            let t = &body.trims[k as usize];
            let p = &body.pieces[t.piece as usize];
            let (_, uv) = trim_point(body, k, c.x[0]);
            let feature = if t.edge != NONE {
                FeatureRef::Edge(body.edges[t.edge as usize].id)
            } else {
                FeatureRef::Piece(p.id)
            };
            (feature, p.face, p.id, uv)
        }
    }
}

/// [`orient`] from the witness's feature alone.
fn orient_local(body: &BodyGeom, c: &Candidate, q: &Vec3) -> Oriented {
    let dr = q - c.point;
    let dist = dr.norm();
    // the reported normal is the contact direction, away from the body's inside
    let side = |n: Vec3, inside: bool| -> (Vec3, bool) {
        let nn = n.norm();
        if dist > 1e-12 * (1.0 + c.point.norm()) {
            let u = dr / dist;
            (if inside { -u } else { u }, inside)
        } else if nn > 0.0 {
            (n / nn, false)
        } else {
            (Vec3::z(), false)
        }
    };
    // sign from the feature normal
    let toward = |n: Vec3| side(n, n.dot(&dr) < 0.0);
    let (feature, face, piece, params) = feature_of(body, c);
    let (normal, inside) = match c.item {
        Item::Piece(k) => {
            let n = if c.normal == Vec3::zeros() {
                body.piece_normal(k, c.x)
            } else {
                c.normal
            };
            // a witness that is not a facing critical point (the query is not
            // along the normal) lies on the piece's border: on a solid, where
            // that border is a B-rep edge, the face normal cannot tell a point
            // beyond the edge from one below it; the edge's (or its end
            // vertex's) pseudo-normal can
            //
            // a facing witness that claims "inside" is checked the same way:
            // where two faces fold back on each other at a B-rep edge (a knife
            // edge), a query on the far side of one face is in front of the
            // other, the edge is the closest feature and only its
            // pseudo-normal tells the side (a facing "outside" claim needs no
            // check: the query is in front of a face of the body there)
            let facing = n.dot(&dr).abs() >= (1.0 - 1e-6) * n.norm() * dist;
            let claims_inside = n.dot(&dr) < 0.0;
            let border = (body.kind == BodyKind::Solid && dist > 0.0 && (!facing || claims_inside))
                .then(|| border_pseudo_normal(body, k, &c.point).or_else(|| side_edge_pseudo_normal(body, k, c)))
                .flatten();
            // a border witness with no bordering edge found through it and
            // q − c tangent to the face (|n·(q − c)| within 1e-6 of |n|·d):
            // the face normal's side is rounding noise, the nearest edge's
            // pseudo-normal tells it (as for a trim witness below)
            let tangent = n.dot(&dr).abs() <= 1e-6 * n.norm() * dist;
            let border = border.or_else(|| {
                (body.kind == BodyKind::Solid && dist > 0.0 && tangent)
                    .then(|| nearest_edge_pseudo_normal(body, &c.point))
                    .flatten()
            });
            // a facing witness on a cusp edge (the faces meet tangentially
            // with opposite normals): q lies on both faces' common normal line,
            // as far from each, and the cusp's kind tells the side
            let cusp = (body.kind == BodyKind::Solid && dist > 0.0 && facing)
                .then(|| body.cusp_through(k, &c.point))
                .flatten();
            match (cusp, border) {
                (Some(cusp), _) => side(n, cusp == Cusp::Groove),
                (None, Some(pn)) => toward(pn),
                (None, None) => (
                    if n.norm() > 0.0 { n } else { toward(n).0 },
                    n.dot(&dr) < 0.0 && dist > 0.0,
                ),
            }
        }
        Item::Edge(k) => {
            let pn = match feature {
                FeatureRef::Vertex(_) => {
                    let e = &body.edges[k as usize];
                    let end = usize::from(c.mode == Mode::U1);
                    body.vertices[e.vertices[end] as usize].axis
                }
                _ => body.edge_pseudo_normal(k, c.x[0]),
            };
            on_cusp(body.edges[k as usize].cusp, pn, &dr).map_or_else(|| toward(pn), |inside| side(pn, inside))
        }
        Item::Trim(k) => {
            let t = &body.trims[k as usize];
            let uv = params;
            // on a B-rep edge: its pseudo-normal; a solid's face border not
            // linked to its edge: the pseudo-normal of the bordering edge that
            // passes through the witness, else of the edge whose Voronoi
            // sample is nearest (the face normal alone cannot tell a point
            // beyond the border from one below it, and the nearest sample
            // can belong to another edge than the one through the witness);
            // a loose face's border: the face normal
            let n = if t.edge != NONE {
                body.edge_pseudo_normal_near(t.edge, &c.point)
            } else if body.kind == BodyKind::Solid {
                border_pseudo_normal(body, t.piece, &c.point)
                    .or_else(|| nearest_edge_pseudo_normal(body, &c.point))
                    .unwrap_or_else(|| body.piece_normal(t.piece, uv))
            } else {
                body.piece_normal(t.piece, uv)
            };
            let n = if n.norm() > 0.0 {
                n
            } else {
                body.piece_normal(t.piece, uv)
            };
            let cusp = if t.edge != NONE { body.edges[t.edge as usize].cusp } else { None };
            on_cusp(cusp, n, &dr).map_or_else(|| toward(n), |inside| side(n, inside))
        }
    };
    Oriented {
        normal,
        inside,
        feature,
        face,
        piece,
        params,
    }
}

/// The side at a witness on a cusp edge whose pseudo-normal `pn` cannot tell
/// it: `q − c` perpendicular to it (within 1e-6), on the faces' common
/// normal line, is inside at a groove and outside at a fin; `None` elsewhere.
fn on_cusp(cusp: Option<Cusp>, pn: Vec3, dr: &Vec3) -> Option<bool> {
    let cusp = cusp?;
    (pn.dot(dr).abs() <= 1e-6 * pn.norm() * dr.norm()).then_some(cusp == Cusp::Groove)
}

/// The pseudo-normal, near `p`, of the B-rep edge nearest to `p` (`None`
/// for a body without edges): the edge whose foot ([`BodyGeom::edge_foot`],
/// Newton on its Bézier spans) is nearest, its pseudo-normal there (the
/// vertex's normal-cone axis at an end). The Voronoi samples only bound the
/// search: the nearest sample of any edge is a point of an edge, so no foot
/// farther than it matters. Choosing by the samples' polyline instead is
/// wrong where an edge keeps few samples (constant normals keep only the two
/// ends): on a thin wall its chords pass nearer to a point of one rim than
/// the other rim's, and the wall's other side decided the sign
/// (step_fusion_atf8_periodic_u). The polyline's choice stays as the
/// fallback when no foot is found. Allocation-free; a scan of every edge,
/// for the rare witnesses no bordering edge passes through.
fn nearest_edge_pseudo_normal(body: &BodyGeom, p: &Vec3) -> Option<Vec3> {
    let reach = body
        .edges
        .iter()
        .flat_map(|e| e.pseudo_normals.iter())
        .map(|s| (s.1 - p).norm())
        .fold(f64::INFINITY, f64::min);
    let by_foot = reach
        .is_finite()
        .then(|| {
            let tol = reach * (1.0 + 1e-9) + 1e-12;
            (0..body.edges.len() as u32)
                .filter_map(|e| edge_side_normal(body, e, p, tol))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, n)| n)
                .filter(|n| n.norm() > 0.0)
        })
        .flatten();
    by_foot.or_else(|| {
        (0..body.edges.len() as u32)
            .filter_map(|e| body.edge_samples_dist2(e, p).map(|d| (d, e)))
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, e)| body.edge_pseudo_normal_near(e, p))
    })
}

/// The foot of `p` on edge `e` within `tol` ([`BodyGeom::edge_foot`]) and
/// the side's normal there: `(distance, normal)`, the normal being the
/// edge's pseudo-normal, or its end vertex's normal-cone axis when the foot
/// is an end of the edge (within 1e-12 of its parameter range).
fn edge_side_normal(body: &BodyGeom, e: u32, p: &Vec3, tol: f64) -> Option<(f64, Vec3)> {
    let g = &body.edges[e as usize];
    let (t, d) = body.edge_foot(e, p, tol)?;
    let (t0, t1) = g.spans.domain();
    let end = if (t - t0).abs() <= 1e-12 * (1.0 + t0.abs()) {
        Some(0)
    } else if (t1 - t).abs() <= 1e-12 * (1.0 + t1.abs()) {
        Some(1)
    } else {
        None
    };
    let n = match end.map(|i| g.vertices[i]).filter(|&v| v != NONE) {
        Some(v) => body.vertices[v as usize].axis,
        None => body.edge_pseudo_normal(e, t),
    };
    Some((d, n))
}

/// The pseudo-normal of the B-rep edge bordering piece `k` (across a side
/// or linked to a trim) that passes through `p` — the vertex's at an edge
/// end — or `None` when no bordering edge passes within rounding of `p` (a
/// seam or split inside the face, where the piece normal is right).
/// Allocation-free: each candidate edge's foot by
/// [`BodyGeom::edge_foot`] (Newton on its Bézier spans).
fn border_pseudo_normal(body: &BodyGeom, k: u32, p: &Vec3) -> Option<Vec3> {
    let tol = 1e-7 * (1.0 + p.norm());
    let on_edge = |e: u32| edge_side_normal(body, e, p, tol);
    // the piece's adjacency lists the edges across its sides and those its
    // trims are linked to (`Boundary::Trim`)
    body.pieces[k as usize]
        .adjacency
        .iter()
        .filter_map(|(_, f)| match f {
            FeatureRef::Edge(e) => Some(*e),
            _ => None,
        })
        .filter_map(on_edge)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
        .filter(|n| n.norm() > 0.0)
}

/// The pseudo-normal of the B-rep edge that the piece's adjacency lists
/// across the side the witness lies on (`x` exactly on `u = 0`, `u = 1`,
/// `v = 0` or `v = 1`), for a border witness through which no bordering
/// edge passes within rounding ([`border_pseudo_normal`]): the file's edge
/// lies off the face's surface (step_catia5_ventilator's LINE edge #315,
/// read as the line through its vertices, runs 0.014 mm beside the wall it
/// bounds, so the floor ends 0.014 mm short of the wall and a point under
/// that strip has the wall's border as its witness). The side borders that
/// edge by the topology, so its pseudo-normal (the concave corner's) tells
/// the side where the wall's normal alone says "outside". The edge's foot
/// must lie within 1e-3 of the body's diagonal (the tolerance band's cap);
/// farther, the gap is no longer a file's tolerance and `None` is returned.
/// Allocation-free.
fn side_edge_pseudo_normal(body: &BodyGeom, k: u32, c: &Candidate) -> Option<Vec3> {
    let on = |b: &Boundary| match b {
        Boundary::U0 => c.x[0] <= 0.0,
        Boundary::U1 => c.x[0] >= 1.0,
        Boundary::V0 => c.x[1] <= 0.0,
        Boundary::V1 => c.x[1] >= 1.0,
        Boundary::Trim { .. } => false,
    };
    let reach = 1e-3 * (body.hi - body.lo).norm();
    body.pieces[k as usize]
        .adjacency
        .iter()
        .filter(|(b, _)| on(b))
        .filter_map(|(_, f)| match f {
            FeatureRef::Edge(e) => Some(*e),
            _ => None,
        })
        .filter_map(|e| edge_side_normal(body, e, &c.point, reach))
        .filter(|(d, _)| *d <= reach)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
        .filter(|n| n.norm() > 0.0)
}

//! Topology entities: vertices, edge curves with their p-curves (SURFACE_CURVE
//! or SEAM_CURVE, the forward use's p-curve first), edge and poly loops,
//! face bounds and ADVANCED_FACEs (a void's faces stored flipped); free trim
//! curves as edges of their own.

use super::encoding::{b, refs};
use super::writer::W;
use crate::export::ExportError;
use crate::import::model::{Coedge, Curve, CurveSegment, Loop, Model};
use std::collections::HashMap;

/// Face uses of one edge (in traversal order): face index, p-curve, coedge direction.
struct EdgeUse {
    face: usize,
    pcurve: Option<CurveSegment>,
    forward: bool,
}

/// True when `l` is a closed polygon of free straight segments (a POLY_LOOP).
fn is_poly_loop(l: &Loop) -> bool {
    l.coedges.len() >= 3
        && l.coedges.iter().all(|c| {
            c.edge.is_none()
                && c.pcurve.is_none()
                && c.forward
                && matches!(&c.curve, Some(CurveSegment { curve: Curve::Polyline(p), t0, t1, forward: true })
                    if p.len() == 2 && *t0 == 0.0 && *t1 == 1.0)
        })
        && {
            let n = l.coedges.len();
            (0..n).all(|k| {
                let end = match &l.coedges[k].curve {
                    Some(CurveSegment {
                        curve: Curve::Polyline(p),
                        ..
                    }) => p[1],
                    _ => return false,
                };
                let next = match &l.coedges[(k + 1) % n].curve {
                    Some(CurveSegment {
                        curve: Curve::Polyline(p),
                        ..
                    }) => p[0],
                    _ => return false,
                };
                end == next
            })
        }
}

/// A free coedge (no shared edge): its 3-D segment, or `None`.
fn free_segment(c: &Coedge) -> Option<&CurveSegment> {
    c.curve.as_ref()
}

/// Writes the surfaces, vertices, edges and faces of every face the bodies
/// use (in reading order); returns each face's ADVANCED_FACE id (0 for
/// faces no body uses).
pub(super) fn write_topology(w: &mut W<'_>, model: &Model) -> Result<Vec<usize>, ExportError> {
    // traversal: unique faces, edges and vertices in reading order
    let mut face_order: Vec<usize> = Vec::new();
    let mut face_seen = vec![false; model.faces.len()];
    for body in &model.bodies {
        for s in &body.shells {
            for &f in &s.faces {
                if !face_seen[f] {
                    face_seen[f] = true;
                    face_order.push(f);
                }
            }
        }
    }
    let mut edge_order: Vec<usize> = Vec::new();
    let mut edge_uses: HashMap<usize, Vec<EdgeUse>> = HashMap::new();
    let mut vert_order: Vec<usize> = Vec::new();
    let mut vert_seen = vec![false; model.vertices.len()];
    for &f in &face_order {
        let face = &model.faces[f];
        for l in face.outer.iter().chain(face.inner.iter()) {
            for c in &l.coedges {
                let Some(e) = c.edge else { continue };
                let uses = edge_uses.entry(e).or_default();
                if uses.is_empty() {
                    edge_order.push(e);
                    let ed = &model.edges[e];
                    for v in [ed.start, ed.end].into_iter().flatten() {
                        if !vert_seen[v] {
                            vert_seen[v] = true;
                            vert_order.push(v);
                        }
                    }
                }
                uses.push(EdgeUse {
                    face: f,
                    pcurve: c.pcurve.clone(),
                    forward: c.forward,
                });
            }
        }
    }

    // surfaces, one instance per face
    let mut surf_id = vec![0usize; model.faces.len()];
    for &f in &face_order {
        surf_id[f] = w.surface(&model.faces[f].surface, &format!("face {f}"));
    }
    // vertices
    let mut vert_id = vec![0usize; model.vertices.len()];
    for &v in &vert_order {
        let p = w.pt3(&model.vertices[v].point);
        vert_id[v] = w.add(format!("VERTEX_POINT('',#{p})"));
    }
    // edges
    let mut edge_id: HashMap<usize, usize> = HashMap::new();
    for &e in &edge_order {
        let ed = &model.edges[e];
        let what = format!("edge {e}");
        let c3 = w.curve(&ed.curve, false, Some((ed.t0, ed.t1)), &what);
        let uses = edge_uses.remove(&e).unwrap_or_default();
        // p-curves: per face, the forward use first (the reader gives a seam's
        // first p-curve to the forward use)
        let mut pcs: Vec<usize> = Vec::new();
        let mut seam = false;
        let mut faces_done: Vec<usize> = Vec::new();
        for u in &uses {
            if faces_done.contains(&u.face) {
                continue;
            }
            faces_done.push(u.face);
            let mut same: Vec<&EdgeUse> = uses.iter().filter(|x| x.face == u.face).collect();
            if same.len() >= 2 {
                seam = true;
                same.sort_by_key(|x| !x.forward);
                if same.len() > 2 {
                    w.warnings.push(format!(
                        "{what}: used {} times by face {}; the reader keeps two p-curves",
                        same.len(),
                        u.face
                    ));
                }
            }
            for x in same {
                let Some(pc) = &x.pcurve else {
                    continue;
                };
                if pc.t0 != ed.t0 || pc.t1 != ed.t1 {
                    w.warnings.push(format!(
                        "{what}: p-curve on face {} has range [{}, {}], the edge [{}, {}]; STEP p-curves share the edge's parameter",
                        x.face, pc.t0, pc.t1, ed.t0, ed.t1
                    ));
                }
                let c2 = w.curve(&pc.curve, true, Some((pc.t0, pc.t1)), &what);
                let ctx2 = w.ctx2;
                let dr = w.add(format!("DEFINITIONAL_REPRESENTATION('',(#{c2}),#{ctx2})"));
                pcs.push(w.add(format!("PCURVE('',#{},#{dr})", surf_id[x.face])));
            }
        }
        let geom = if pcs.is_empty() {
            c3
        } else {
            let kind = if seam { "SEAM_CURVE" } else { "SURFACE_CURVE" };
            w.add(format!("{kind}('',#{c3},{},.PCURVE_S1.)", refs(&pcs)))
        };
        let (Some(s), Some(t)) = (ed.start, ed.end) else {
            return Err(ExportError::Unsupported(format!(
                "{what}: an edge without vertices cannot be written"
            )));
        };
        let id = w.add(format!("EDGE_CURVE('',#{},#{},#{geom},.T.)", vert_id[s], vert_id[t]));
        edge_id.insert(e, id);
    }
    // faces
    let mut face_id = vec![0usize; model.faces.len()];
    for &f in &face_order {
        let face = &model.faces[f];
        let mut bounds = Vec::new();
        for (k, l) in face.outer.iter().chain(face.inner.iter()).enumerate() {
            let outer = k == 0 && face.outer.is_some();
            if l.coedges.iter().all(|c| c.edge.is_none() && free_segment(c).is_none()) {
                // no coedge has a 3-D curve: an empty EDGE_LOOP is not valid STEP
                w.warnings.push(format!(
                    "face {f}: {} loop of {} coedges with p-curves only (STEP edges need a 3-D curve) left out",
                    if outer { "outer" } else { "inner" },
                    l.coedges.len()
                ));
                continue;
            }
            let lid = if is_poly_loop(l) {
                let pts: Vec<usize> = l
                    .coedges
                    .iter()
                    .filter_map(|c| match &c.curve {
                        Some(CurveSegment {
                            curve: Curve::Polyline(p),
                            ..
                        }) => Some(p[0]),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .iter()
                    .map(|p| w.pt3(p))
                    .collect();
                w.add(format!("POLY_LOOP('',{})", refs(&pts)))
            } else {
                let mut oes = Vec::with_capacity(l.coedges.len());
                for (ci, c) in l.coedges.iter().enumerate() {
                    let eid = match c.edge {
                        Some(e) => edge_id.get(&e).copied().unwrap_or(0),
                        None => {
                            // a free trim curve: an edge of its own
                            let Some(seg) = free_segment(c) else {
                                w.warnings.push(format!(
                                    "face {f}: coedge {ci} has only a p-curve; STEP edges need a 3-D curve, coedge left out"
                                ));
                                continue;
                            };
                            w.warnings.push(format!(
                                "face {f}: free trim curve (coedge {ci}) written as an edge with its own vertices"
                            ));
                            let c3 = w.curve(&seg.curve, false, Some((seg.t0, seg.t1)), &format!("face {f}"));
                            let p0 = seg.curve.eval(seg.t0);
                            let p1 = seg.curve.eval(seg.t1);
                            let a = w.pt3(&p0);
                            let va = w.add(format!("VERTEX_POINT('',#{a})"));
                            let vb = if p0 == p1 {
                                va
                            } else {
                                let bb = w.pt3(&p1);
                                w.add(format!("VERTEX_POINT('',#{bb})"))
                            };
                            let geom = match &c.pcurve {
                                Some(pc) => {
                                    let c2 = w.curve(&pc.curve, true, Some((pc.t0, pc.t1)), &format!("face {f}"));
                                    let ctx2 = w.ctx2;
                                    let dr = w.add(format!("DEFINITIONAL_REPRESENTATION('',(#{c2}),#{ctx2})"));
                                    let pcid = w.add(format!("PCURVE('',#{},#{dr})", surf_id[f]));
                                    w.add(format!("SURFACE_CURVE('',#{c3},(#{pcid}),.PCURVE_S1.)"))
                                }
                                None => c3,
                            };
                            let id = w.add(format!("EDGE_CURVE('',#{va},#{vb},#{geom},.T.)"));
                            let orient = c.forward == seg.forward;
                            oes.push(w.add(format!("ORIENTED_EDGE('',*,*,#{id},{})", b(orient))));
                            continue;
                        }
                    };
                    oes.push(w.add(format!("ORIENTED_EDGE('',*,*,#{eid},{})", b(c.forward))));
                }
                w.add(format!("EDGE_LOOP('',{})", refs(&oes)))
            };
            let kind = if outer { "FACE_OUTER_BOUND" } else { "FACE_BOUND" };
            bounds.push(w.add(format!("{kind}('',#{lid},.T.)")));
        }
        // a void's faces are written as the closed shell they bound and the
        // void uses that shell reversed (ORIENTED_CLOSED_SHELL .F.), so the
        // Model's material-outward sense is stored flipped here
        let in_void = model
            .bodies
            .iter()
            .any(|bd| bd.shells.iter().any(|sh| sh.void && sh.faces.contains(&f)));
        face_id[f] = w.add(format!(
            "ADVANCED_FACE('',{},#{},{})",
            refs(&bounds),
            surf_id[f],
            b(face.same_sense != in_void)
        ));
    }
    Ok(face_id)
}

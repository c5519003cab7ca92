//! B-rep mode: per body a 186 manifold solid (solids) or root 514 shells
//! (open shells), 514 shells, 510 faces, 508 loops with their p-curves, one
//! 504 edge list and one 502 vertex list per file; bodies sharing shells (or
//! placed) as one 308 definition with a 408 instance each; loose faces as
//! root 510 faces.

use super::natural::{collapsed, with_natural_boundaries};
use super::pspace::{iges_sense, keep_pcurves, pmap_of};
use super::records::{hollerith, real};
use super::surfaces::bounded_extrusion;
use super::writer::W;
use crate::export::ExportError;
use crate::geom::Pose;
use crate::import::model::{Body, BodyKind, Coedge, Curve, CurveSegment, Model, Surface};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Writes the B-rep entities of every body of `model`, pushing the root
/// entities' directory entries onto `roots`.
pub(super) fn write_brep(w: &mut W, model: &Model, roots: &mut Vec<usize>) -> Result<(), ExportError> {
    let augmented = with_natural_boundaries(model, &mut w.warnings);
    let model = &augmented;
    // after the natural boundaries, whose poles are the faces' VERTEX_LOOPs
    super::unused_vertices(w, model);
    // one vertex list and one edge list for the whole file
    let mut vert_order = Vec::new();
    let mut vert_idx: HashMap<usize, usize> = HashMap::new();
    let mut edge_order = Vec::new();
    let mut edge_idx: HashMap<usize, usize> = HashMap::new();
    for body in &model.bodies {
        for f in body.face_indices() {
            let face = &model.faces[f];
            for l in face.outer.iter().chain(face.inner.iter()) {
                for c in &l.coedges {
                    if let Some(e) = c.edge {
                        if let std::collections::hash_map::Entry::Vacant(v) = edge_idx.entry(e) {
                            // a collapsed edge (a pole) is a vertex use of
                            // the 508, not an entry of the 504
                            if collapsed(model, e) {
                                v.insert(0);
                            } else {
                                v.insert(edge_order.len() + 1);
                                edge_order.push(e);
                            }
                            let ed = &model.edges[e];
                            for x in [ed.start, ed.end].into_iter().flatten() {
                                if let std::collections::hash_map::Entry::Vacant(s) = vert_idx.entry(x) {
                                    s.insert(vert_order.len() + 1);
                                    vert_order.push(x);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let mut vl = format!("502,{}", vert_order.len());
    for &v in &vert_order {
        let p = model.vertices[v].point;
        let _ = write!(vl, ",{},{},{}", real(p.x), real(p.y), real(p.z));
    }
    vl.push(';');
    // no empty lists (Open CASCADE crashes on a 502 / 504 without entries)
    let vlist = if vert_order.is_empty() { 0 } else { w.add(502, 1, vl) };
    let elist = if edge_order.is_empty() {
        0
    } else {
        w.add(504, 1, String::new())
    };
    let mut el = format!("504,{}", edge_order.len());
    for &e in &edge_order {
        let ed = &model.edges[e];
        let c = w.curve(
            &CurveSegment {
                curve: ed.curve.clone(),
                t0: ed.t0,
                t1: ed.t1,
                forward: true,
            },
            false,
        );
        let (Some(s), Some(t)) = (ed.start, ed.end) else {
            return Err(ExportError::Unsupported(format!(
                "edge {e}: an edge without vertices cannot be written"
            )));
        };
        let _ = write!(el, ",{c},{vlist},{},{vlist},{}", vert_idx[&s], vert_idx[&t]);
    }
    el.push(';');
    if let Some(e) = w.ent_mut(elist) {
        e.params = el;
    }
    let mut face_de: HashMap<usize, usize> = HashMap::new();
    // bodies with the same shells (instances of one component) share one
    // definition: a 308 subfigure holding the 186 / 514 and one 408
    // instance per body with the body's placement as its 124; a placed
    // body of its own is written the same way
    let shell_key = |b: &Body| -> Vec<(Vec<usize>, bool, bool)> {
        b.shells.iter().map(|s| (s.faces.clone(), s.closed, s.void)).collect()
    };
    let mut uses: HashMap<Vec<(Vec<usize>, bool, bool)>, usize> = HashMap::new();
    for b in model
        .bodies
        .iter()
        .filter(|b| b.kind != BodyKind::Faces && !b.shells.is_empty())
    {
        *uses.entry(shell_key(b)).or_insert(0) += 1;
    }
    let mut definitions: HashMap<Vec<(Vec<usize>, bool, bool)>, usize> = HashMap::new();
    for (bk, body) in model.bodies.iter().enumerate() {
        let key = shell_key(body);
        // a placed body too: Open CASCADE 8.0.1 ignores a 124 on a 186
        // (it reads the solid unplaced) but applies a 408's
        let instanced = body.kind != BodyKind::Faces
            && (uses.get(&key).copied().unwrap_or(0) > 1 || body.placement.iso != Pose::identity().iso);
        if let (true, Some(&def)) = (instanced, definitions.get(&key)) {
            let inst = w.add(408, 0, format!("408,{def},0.,0.,0.,1.;"));
            if body.placement.iso != Pose::identity().iso {
                let t = w.pose_transform(&body.placement);
                if let Some(e) = w.ent_mut(inst) {
                    e.transform = t;
                }
            }
            roots.push(inst);
            continue;
        }
        let mut shells = Vec::new();
        for s in &body.shells {
            let mut fl = Vec::new();
            for &f in &s.faces {
                let de = match face_de.get(&f) {
                    Some(&d) => d,
                    None => {
                        let d = face_510(w, model, f, &Lists { edge_idx: &edge_idx, elist, vert_idx: &vert_idx, vlist })?;
                        face_de.insert(f, d);
                        d
                    }
                };
                fl.push((de, iges_sense(&model.faces[f])));
            }
            let mut t = format!("514,{}", fl.len());
            for (de, ss) in fl {
                let _ = write!(t, ",{de},{}", i32::from(ss));
            }
            t.push(';');
            shells.push(w.add(514, if s.closed { 1 } else { 2 }, t));
        }
        let placement = (body.placement.iso != Pose::identity().iso).then(|| w.pose_transform(&body.placement));
        let mut tops = Vec::new();
        match body.kind {
            BodyKind::Solid if !shells.is_empty() => {
                let mut t = format!("186,{},1,{}", shells[0], shells.len() - 1);
                for s in &shells[1..] {
                    let _ = write!(t, ",{s},1");
                }
                t.push(';');
                tops.push(w.add(186, 0, t));
            }
            BodyKind::Faces => {
                // loose faces: root 510s (the shells written above stay unused)
                for _ in &shells {
                    w.ents.pop();
                }
                tops.extend(body.face_indices().filter_map(|f| face_de.get(&f).copied()));
                if body.face_indices().any(|f| !iges_sense(&model.faces[f])) {
                    w.warnings.push(format!(
                        "body {bk} ({}): reversed loose faces keep their surface's orientation (IGES 510 has no sense flag)",
                        body.name
                    ));
                }
            }
            _ => {
                if shells.len() > 1 {
                    w.warnings.push(format!(
                        "body {bk} ({}): {} open shells written as {} root 514 shells; IGES has no body of open shells, so they read back as {} bodies",
                        body.name,
                        shells.len(),
                        shells.len(),
                        shells.len()
                    ));
                }
                tops.extend(shells.iter().copied())
            }
        }
        if instanced {
            let (name, lossy) = hollerith(&body.name);
            if lossy {
                w.warnings.push(format!(
                    "body {bk}: non-ASCII characters of the name {:?} written as '?' (308 definition name)",
                    body.name
                ));
            }
            let members: Vec<String> = tops.iter().map(|d| d.to_string()).collect();
            let def = w.add(308, 0, format!("308,0,{name},{},{};", members.len(), members.join(",")));
            definitions.insert(key, def);
            let inst = w.add(408, 0, format!("408,{def},0.,0.,0.,1.;"));
            if let Some(t) = placement {
                if let Some(e) = w.ent_mut(inst) {
                    e.transform = t;
                }
            }
            roots.push(inst);
            continue;
        }
        for de in tops {
            let mut shared_placement = false;
            if let Some(e) = w.ent_mut(de) {
                if let Some(t) = placement {
                    if e.transform == 0 {
                        e.transform = t;
                    } else {
                        shared_placement = true;
                    }
                }
                e.dependent = false;
            }
            if shared_placement {
                w.warnings.push(format!(
                    "body {bk} ({}): face shared by several placed bodies written once, first placement",
                    body.name
                ));
            }
            roots.push(de);
        }
    }
    Ok(())
}

/// The file's 504 edge list and 502 vertex list: their directory entries and
/// the 1-based index of each Model edge / vertex in them.
pub(super) struct Lists<'a> {
    edge_idx: &'a HashMap<usize, usize>,
    elist: usize,
    vert_idx: &'a HashMap<usize, usize>,
    vlist: usize,
}

pub(super) fn face_510(w: &mut W, model: &Model, f: usize, lists: &Lists) -> Result<usize, ExportError> {
    let face = &model.faces[f];
    let bounded = bounded_extrusion(model, face);
    let surface = bounded.as_ref().unwrap_or(&face.surface);
    let sd = w.surface(surface, &format!("face {f}"));
    let m = pmap_of(surface);
    let keep = keep_pcurves(w, face, f);
    let mut left_out = Vec::new();
    let mut loops = Vec::new();
    for l in face.outer.iter().chain(face.inner.iter()) {
        // a 508 loop runs counter-clockwise about the IGES surface's normal
        // (the 514 flag reverses the face as a whole): the loops of a face
        // whose outward normal is against the IGES surface's, which keep
        // the face on their left seen from that outward normal, are written
        // the other way
        let reversed;
        let l = if iges_sense(face) {
            l
        } else {
            let mut r = l.clone();
            r.reverse();
            reversed = r;
            &reversed
        };
        let mut t = format!("508,{}", l.coedges.len());
        for (ci, c) in l.coedges.iter().enumerate() {
            let Some(e) = c.edge else {
                return Err(ExportError::Unsupported(format!(
                    "face {f}: coedge {ci} has no shared edge; write this Model in faces mode (144/142)"
                )));
            };
            match (lists.edge_idx[&e], model.edges[e].start) {
                // a pole: a vertex use (type 1) with its p-curve along the side it collapses
                (0, Some(v)) => {
                    let _ = write!(t, ",1,{},{},{}", lists.vlist, lists.vert_idx[&v], i32::from(c.forward));
                }
                (k, _) => {
                    let _ = write!(t, ",0,{},{k},{}", lists.elist, i32::from(c.forward));
                }
            }
            let reparameterised = reparameterised_conic(&model.edges[e].curve);
            if let (Some(kind), Some(_)) = (reparameterised, &c.pcurve) {
                left_out.push(kind);
            }
            match c.pcurve.as_ref().filter(|_| keep && reparameterised.is_none()) {
                Some(pc) => {
                    let de = w.pcurve(pc, pcurve_along_loop(model, &face.surface, c, e), &m);
                    let _ = write!(t, ",1,0,{de}");
                }
                None => t.push_str(",0"),
            }
        }
        t.push(';');
        loops.push(w.add(508, 1, t));
    }
    if let Some(kind) = left_out.first() {
        w.warnings.push(format!(
            "face {f}: {} p-curves left out: their edge's {kind} is written as a rational B-spline whose parameter differs (readers project the edge)",
            left_out.len()
        ));
    }
    if face.outer.is_none() {
        w.warnings.push(format!(
            "face {f}: {} without an outer loop written as a 510 without an outer boundary",
            face.surface.type_name()
        ));
    }
    let mut t = format!("510,{sd},{},{}", loops.len(), i32::from(face.outer.is_some()));
    for l in loops {
        let _ = write!(t, ",{l}");
    }
    t.push(';');
    Ok(w.add(510, 1, t))
}

/// The direction to write a coedge's p-curve in (`true`: its own increasing
/// parameter): along the loop, as Open CASCADE's reader takes a 508
/// p-curve (it reverses the p-curve of a coedge whose flag is 0 and pairs its
/// ends with the 3-D curve's; a p-curve written against the loop reads with
/// its ends swapped). Decided by the surface points of the p-curve's ends
/// against the loop's start and end vertices; for a closed edge (both ends
/// at one vertex) the Model's traversal sense is kept.
fn pcurve_along_loop(model: &Model, surface: &Surface, c: &Coedge, e: usize) -> bool {
    let Some(pc) = c.pcurve.as_ref() else {
        return true;
    };
    let ed = &model.edges[e];
    let vertex = |v: Option<usize>| v.and_then(|v| model.vertices.get(v)).map(|v| v.point);
    let (Some(p0), Some(p1)) = (vertex(ed.start), vertex(ed.end)) else {
        return pc.forward;
    };
    let (a, b) = if c.forward { (p0, p1) } else { (p1, p0) };
    if (a - b).norm() <= 1e-9 * (1.0 + a.norm()) {
        return pc.forward;
    }
    let at = |t: f64| {
        let q = pc.curve.eval(t);
        surface.eval(q.x, q.y)
    };
    let (s0, s1) = (at(pc.t0), at(pc.t1));
    let along = (s0 - a).norm() + (s1 - b).norm();
    let against = (s0 - b).norm() + (s1 - a).norm();
    if along.is_finite() && against.is_finite() {
        along <= against
    } else {
        pc.forward
    }
}

/// The conic type of an edge curve that the 504 writes as a rational 126
/// with another parameter (ellipse, parabola, hyperbola), `None` otherwise.
///
/// A p-curve of such an edge that shares the edge's parameter (a B-spline in
/// the ellipse's angle on a cylinder) no longer shares it: Open CASCADE pairs
/// the two parameters linearly and reads the edge 0.56 mm off its face
/// (euclid_advexchanger_r103). Its p-curves are left out; readers project
/// the edge onto the surface.
fn reparameterised_conic(c: &Curve) -> Option<&'static str> {
    match c {
        Curve::Ellipse { .. } | Curve::Parabola { .. } | Curve::Hyperbola { .. } => Some(c.type_name()),
        _ => None,
    }
}

//! Faces mode: per face a 144 trimmed surface whose 142 curves on surface
//! carry each loop as a 102 composite of p-curves and a 102 composite of 3-D
//! curves (a body's placement as a 124 on its 144s).

use super::pspace::{iges_sense, keep_pcurves, pmap_of, Map2};
use super::surfaces::bounded_extrusion;
use super::writer::W;
use crate::export::ExportError;
use crate::geom::Pose;
use crate::import::model::{BodyKind, CurveSegment, Face, Loop, Model, Surface};
use std::f64::consts::PI;
use std::fmt::Write as _;

/// Writes every face of every body of `model` as a root 144, pushing their
/// directory entries onto `roots`.
pub(super) fn write_faces(w: &mut W, model: &Model, roots: &mut Vec<usize>) -> Result<(), ExportError> {
    for (bk, body) in model.bodies.iter().enumerate() {
        let t = (body.placement.iso != Pose::identity().iso).then(|| w.pose_transform(&body.placement));
        for f in body.face_indices() {
            let face = &model.faces[f];
            let de = face_144(w, model, face, f)?;
            if let (Some(t), Some(e)) = (t, w.ent_mut(de)) {
                e.transform = t;
            }
            roots.push(de);
        }
        if body.shells.len() > 1 || body.kind != BodyKind::Faces {
            w.warnings.push(format!(
                "body {bk} ({}): faces mode writes loose faces; the {} structure is not kept",
                body.name,
                match body.kind {
                    BodyKind::Solid => "solid",
                    BodyKind::OpenShell => "shell",
                    BodyKind::Faces => "shell",
                }
            ));
        }
    }
    Ok(())
}

/// The natural parameter rectangle of a face without an outer loop, when known.
fn natural_rect(s: &Surface) -> Option<((f64, f64), (f64, f64))> {
    match s {
        Surface::BSpline(n) => Some(n.domain()),
        Surface::Trimmed { u, v, .. } => Some((*u, *v)),
        Surface::Sphere { .. } => Some(((0.0, 2.0 * PI), (-PI / 2.0, PI / 2.0))),
        Surface::Torus { .. } => Some(((0.0, 2.0 * PI), (0.0, 2.0 * PI))),
        Surface::Offset { basis, .. } => natural_rect(basis),
        _ => None,
    }
}

/// A 142 curve on surface for loop `l` with its p-curves as a 102 composite
/// (the model-space composite is added by the caller).
fn loop_142(w: &mut W, sd: usize, l: &Loop, m: &Map2, keep_pcurves: bool) -> usize {
    let mut pcs = Vec::new();
    for c in &l.coedges {
        match c.pcurve.as_ref().filter(|_| keep_pcurves) {
            Some(p) => pcs.push(w.pcurve(p, true, m)),
            None => {
                pcs.clear();
                break;
            }
        }
    }
    let b = if pcs.is_empty() {
        0
    } else {
        let mut t = format!("102,{}", pcs.len());
        for p in &pcs {
            let _ = write!(t, ",{p}");
        }
        t.push(';');
        let de = w.add(102, 0, t);
        if let Some(e) = w.ent_mut(de) {
            e.pspace = true;
        }
        de
    };
    w.add(142, 0, format!("142,0,{sd},{b},0,1;"))
}

fn face_144(w: &mut W, model: &Model, face: &Face, f: usize) -> Result<usize, ExportError> {
    let bounded = bounded_extrusion(model, face);
    let surface = bounded.as_ref().unwrap_or(&face.surface);
    let sd = w.surface(surface, &format!("face {f}"));
    let m = pmap_of(surface);
    let keep = keep_pcurves(w, face, f);
    let mut curves3: Vec<Vec<CurveSegment>> = Vec::new();
    for l in face.outer.iter().chain(face.inner.iter()) {
        let mut segs = Vec::new();
        for c in &l.coedges {
            let s = match (c.edge, &c.curve) {
                (Some(e), _) => model.edges.get(e).map(|ed| CurveSegment {
                    curve: ed.curve.clone(),
                    t0: ed.t0,
                    t1: ed.t1,
                    forward: c.forward,
                }),
                (None, Some(s)) => Some(CurveSegment {
                    forward: s.forward == c.forward,
                    ..s.clone()
                }),
                _ => None,
            };
            segs.extend(s);
        }
        curves3.push(segs);
    }
    let mut bounds = Vec::new();
    for (k, l) in face.outer.iter().chain(face.inner.iter()).enumerate() {
        let b = loop_142(w, sd, l, &m, keep);
        // model-space composite
        let segs = &curves3[k];
        if segs.len() == l.coedges.len() && !segs.is_empty() {
            let members: Vec<usize> = segs.iter().map(|s| w.curve(s, false)).collect();
            let mut t = format!("102,{}", members.len());
            for p in &members {
                let _ = write!(t, ",{p}");
            }
            t.push(';');
            let c = w.add(102, 0, t);
            if let Some(e) = w.ent_mut(b) {
                // CRTN, SPTR, BPTR, CPTR, PREF
                let parts: Vec<&str> = e.params.trim_end_matches(';').split(',').collect();
                let bptr = parts.get(3).copied().unwrap_or("0").to_string();
                let pref = if bptr == "0" { 2 } else { 1 };
                e.params = format!("142,0,{sd},{bptr},{c},{pref};");
            }
        }
        bounds.push(b);
    }
    if face.outer.is_none() && natural_rect(&face.surface).is_none() {
        w.warnings.push(format!(
            "face {f}: unbounded {} without trim loops written as an untrimmed 144",
            face.surface.type_name()
        ));
    }
    if !iges_sense(face) {
        w.warnings.push(format!(
            "face {f}: reversed face; IGES 144 has no sense flag, the surface's own orientation is written"
        ));
    }
    let n1 = i32::from(face.outer.is_some());
    let outer = if face.outer.is_some() { bounds[0] } else { 0 };
    let inner: Vec<usize> = if face.outer.is_some() {
        bounds[1..].to_vec()
    } else {
        bounds.clone()
    };
    let mut t = format!("144,{sd},{n1},{},{outer}", inner.len());
    for b in inner {
        let _ = write!(t, ",{b}");
    }
    t.push(';');
    Ok(w.add(144, 0, t))
}

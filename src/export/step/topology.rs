//! Topology entities: vertices, edge curves with their p-curves (SURFACE_CURVE
//! or SEAM_CURVE, the forward use's p-curve first), edge and poly loops,
//! face bounds and ADVANCED_FACEs (a void's faces stored flipped); free trim
//! curves as edges of their own.

use super::edge_split::{split_edge, Piece};
use super::encoding::{b, real, refs};
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

/// A trim parameter of `c` as written: lines are written unit-speed, so
/// their parameter is scaled by the direction's length.
fn written_param(c: &Curve, t: f64) -> f64 {
    match c {
        Curve::Line { dir, .. } => t * dir.norm(),
        _ => t,
    }
}

/// A TRIMMED_CURVE of `c` from `t.0` to `t.1` (sense from their order).
fn trimmed(w: &mut W<'_>, c: &Curve, t: (f64, f64), dim2: bool, what: &str) -> usize {
    let basis = w.curve(c, dim2, Some((t.0.min(t.1), t.0.max(t.1))), what);
    w.add(format!(
        "TRIMMED_CURVE('',#{basis},(PARAMETER_VALUE({})),(PARAMETER_VALUE({})),{},.PARAMETER.)",
        real(written_param(c, t.0)),
        real(written_param(c, t.1)),
        b(t.0 <= t.1)
    ))
}

/// True when a 3-D curve on `range` with p-curve `pc` is to be split: one
/// of them is a composite and the p-curve does not share the curve's parameter.
fn off_parameter(curve: &Curve, range: (f64, f64), pc: &CurveSegment) -> bool {
    let counts = match (curve, &pc.curve) {
        (Curve::Composite(a), Curve::Composite(b)) => a.len() == b.len(),
        _ => true,
    };
    (matches!(curve, Curve::Composite(_)) || matches!(pc.curve, Curve::Composite(_)))
        && !(pc.t0 == range.0 && pc.t1 == range.1 && counts)
}

/// The pieces of `curve` on `range` with p-curve `pc` on `face` (see
/// `edge_split`), or `None` when the split does not check out.
fn pieces<'m>(
    model: &Model,
    curve: &'m Curve,
    range: (f64, f64),
    pc: &'m CurveSegment,
    face: usize,
) -> Option<Vec<Piece<'m>>> {
    // poles: ten times the Model tolerance (p-curves are written to about
    // the file's precision, so a pole's image is of the tolerance's size),
    // at least the readers' confusion distance (1e-7 mm)
    let mm = model.units.mm_per_unit;
    let confusion = 1e-7 / if mm.is_finite() && mm > 0.0 { mm } else { 1.0 };
    let tol = (10.0 * model.tolerance.filter(|t| *t > 0.0).unwrap_or(0.0)).max(confusion);
    let size = (0..=8)
        .map(|i| curve.eval(range.0 + (range.1 - range.0) * i as f64 / 8.0).norm())
        .fold(0.0, f64::max);
    let check = (10.0 * tol).max(1e-6 * (1.0 + size));
    let ps = split_edge(curve, range, pc, &model.faces[face].surface, tol, check)?;
    // polylines are written with STEP's own parameter: not trimmed here
    let poly = |c: &Curve| matches!(c, Curve::Polyline(_));
    if ps.iter().any(|p| poly(p.c3) || poly(p.c2)) {
        return None;
    }
    Some(ps)
}

/// Writes the pieces as EDGE_CURVEs from vertex `start` to vertex `end`
/// (new vertices between them) with their p-curves on `surf`; returns the
/// edges in order.
fn write_pieces(w: &mut W<'_>, ps: &[Piece<'_>], start: usize, end: usize, surf: usize, what: &str) -> Vec<usize> {
    w.warnings.push(format!(
        "{what}: composite curve written as {} edges (one per p-curve segment, pole segments left out)",
        ps.len()
    ));
    let mut ids = Vec::with_capacity(ps.len());
    let mut prev = start;
    for (i, p) in ps.iter().enumerate() {
        let next = if i + 1 == ps.len() {
            end
        } else {
            let q = w.pt3(&p.end);
            w.add(format!("VERTEX_POINT('',#{q})"))
        };
        let c3 = trimmed(w, p.c3, p.t3, false, what);
        let c2 = trimmed(w, p.c2, p.t2, true, what);
        let ctx2 = w.ctx2;
        let dr = w.add(format!("DEFINITIONAL_REPRESENTATION('',(#{c2}),#{ctx2})"));
        let pcid = w.add(format!("PCURVE('',#{surf},#{dr})"));
        let sc = w.add(format!("SURFACE_CURVE('',#{c3},(#{pcid}),.PCURVE_S1.)"));
        ids.push(w.add(format!("EDGE_CURVE('',#{prev},#{next},#{sc},.T.)")));
        prev = next;
    }
    ids
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
    let mut edge_split: HashMap<usize, Vec<usize>> = HashMap::new();
    for &e in &edge_order {
        let ed = &model.edges[e];
        let what = format!("edge {e}");
        let uses = edge_uses.remove(&e).unwrap_or_default();
        // a composite curve or p-curve off the edge's parameter: one edge per
        // p-curve segment when the edge has a single use
        let off = |u: &EdgeUse| {
            u.pcurve
                .as_ref()
                .is_some_and(|pc| off_parameter(&ed.curve, (ed.t0, ed.t1), pc))
        };
        if uses.iter().any(off) {
            let single = match (&uses[..], ed.start, ed.end) {
                ([u], Some(s), Some(t)) => u
                    .pcurve
                    .as_ref()
                    .and_then(|pc| pieces(model, &ed.curve, (ed.t0, ed.t1), pc, u.face))
                    .map(|ps| (u.face, ps, s, t)),
                _ => None,
            };
            if let Some((face, ps, s, t)) = single {
                let ids = write_pieces(w, &ps, vert_id[s], vert_id[t], surf_id[face], &what);
                edge_split.insert(e, ids);
                continue;
            }
            w.warnings.push(format!(
                "{what}: composite curve or p-curve written unsplit (used by {} coedges, or the split did not check out): the p-curve does not share the edge's parameter",
                uses.len()
            ));
        }
        let c3 = w.curve(&ed.curve, false, Some((ed.t0, ed.t1)), &what);
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
                        "{what}: p-curve on face {} has range [{}, {}], the edge [{}, {}]: the p-curve does not share the edge's parameter (STEP p-curves must)",
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
                    if let Some(ids) = c.edge.and_then(|e| edge_split.get(&e)) {
                        let ids: Vec<usize> = if c.forward {
                            ids.clone()
                        } else {
                            ids.iter().rev().copied().collect()
                        };
                        for id in ids {
                            oes.push(w.add(format!("ORIENTED_EDGE('',*,*,#{id},{})", b(c.forward))));
                        }
                        continue;
                    }
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
                            let split = c
                                .pcurve
                                .as_ref()
                                .filter(|pc| off_parameter(&seg.curve, (seg.t0, seg.t1), pc));
                            if let Some(pc) = split {
                                let what = format!("face {f} coedge {ci}");
                                match pieces(model, &seg.curve, (seg.t0, seg.t1), pc, f)
                                    .filter(|_| pc.forward == seg.forward)
                                {
                                    Some(ps) => {
                                        let ids = write_pieces(w, &ps, va, vb, surf_id[f], &what);
                                        let orient = c.forward == seg.forward;
                                        let ids: Vec<usize> =
                                            if orient { ids } else { ids.into_iter().rev().collect() };
                                        for id in ids {
                                            oes.push(w.add(format!("ORIENTED_EDGE('',*,*,#{id},{})", b(orient))));
                                        }
                                        continue;
                                    }
                                    None => w.warnings.push(format!(
                                        "{what}: composite curve or p-curve written unsplit (the split did not check out): the p-curve does not share the curve's parameter"
                                    )),
                                }
                            }
                            let c3 = w.curve(&seg.curve, false, Some((seg.t0, seg.t1)), &format!("face {f}"));
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

#[cfg(test)]
mod tests {
    use crate::export::step::{write_step, StepOptions};
    use crate::geom::{Frame, Vec3};
    use crate::import::model::{
        Body, BodyKind, Coedge, Curve, CurveSegment, Edge, Face, Loop, Model, Shell, SourceFormat, Surface, Vertex,
    };
    use std::f64::consts::{FRAC_PI_2, PI};

    fn seg(curve: Curve, t0: f64, t1: f64) -> CurveSegment {
        CurveSegment {
            curve,
            t0,
            t1,
            forward: true,
        }
    }

    fn line2(o: (f64, f64), d: (f64, f64)) -> CurveSegment {
        seg(
            Curve::Line {
                origin: Vec3::new(o.0, o.1, 0.0),
                dir: Vec3::new(d.0, d.1, 0.0),
            },
            0.0,
            1.0,
        )
    }

    /// A unit sphere's quarter face bounded by one closed edge (or free trim
    /// curve): the 3-D curve a composite of half the equator and the
    /// meridian half circle over the pole, the p-curve the uv rectangle
    /// `[0, π] × [0, π/2]` in 4 segments (its side `v = π/2` is the pole).
    fn sphere_quarter(forward: bool, faces: usize) -> Model {
        let mut m = Model::new(SourceFormat::Iges, "q.igs");
        m.tolerance = Some(1e-7);
        let equator = Curve::Circle {
            frame: Frame::default(),
            radius: 1.0,
        };
        let meridian = Curve::Circle {
            frame: Frame {
                origin: Vec3::zeros(),
                x: -Vec3::x(),
                y: Vec3::z(),
                z: Vec3::y(),
            },
            radius: 1.0,
        };
        let c3 = Curve::Composite(vec![seg(equator, 0.0, PI), seg(meridian, 0.0, PI)]);
        let pc = Curve::Composite(vec![
            line2((0.0, 0.0), (PI, 0.0)),
            line2((PI, 0.0), (0.0, FRAC_PI_2)),
            line2((PI, FRAC_PI_2), (-PI, 0.0)),
            line2((0.0, FRAC_PI_2), (0.0, -FRAC_PI_2)),
        ]);
        m.vertices.push(Vertex {
            point: Vec3::x(),
            source: 0,
        });
        m.edges.push(Edge {
            curve: c3,
            t0: 0.0,
            t1: 2.0,
            start: Some(0),
            end: Some(0),
            faces: (0..faces).collect(),
            source: 7,
        });
        let coedge = Coedge {
            edge: Some(0),
            forward,
            pcurve: Some(CurveSegment {
                forward,
                ..seg(pc, 0.0, 4.0)
            }),
            curve: None,
            pcurve_preferred: false,
            source: 0,
        };
        for _ in 0..faces {
            m.faces.push(Face {
                surface: Surface::Sphere {
                    frame: Frame::default(),
                    radius: 1.0,
                },
                same_sense: forward,
                outer: Some(Loop {
                    coedges: vec![coedge.clone()],
                    source: 0,
                }),
                inner: vec![],
                source: 0,
            });
        }
        m.bodies.push(Body {
            name: "q".into(),
            kind: BodyKind::Faces,
            placement: crate::geom::Pose::identity(),
            shells: vec![Shell {
                faces: (0..faces).collect(),
                closed: false,
                void: false,
                source: 0,
            }],
            source: 0,
        });
        m
    }

    fn count(text: &str, what: &str) -> usize {
        text.matches(what).count()
    }

    #[test]
    fn composite_edge_is_split_per_pcurve_segment_without_the_pole() {
        for (shared, forward) in [(true, true), (true, false), (false, true), (false, false)] {
            let mut m = sphere_quarter(forward, 1);
            if !shared {
                // the same boundary as a free trim curve
                let c = m.edges[0].curve.clone();
                let co = &mut m.faces[0].outer.as_mut().unwrap().coedges[0];
                co.edge = None;
                co.curve = Some(CurveSegment {
                    forward,
                    ..seg(c, 0.0, 2.0)
                });
                m.edges.clear();
            }
            let w = write_step(&m, &StepOptions::default()).unwrap();
            let text = String::from_utf8(w.bytes).unwrap();
            let case = format!("shared {shared}, forward {forward}");
            // half equator, meridian up to the pole, meridian down: 3 edges
            assert_eq!(count(&text, "EDGE_CURVE("), 3, "{case}\n{text}");
            assert_eq!(count(&text, "COMPOSITE_CURVE"), 0, "{case}: {:?}", w.warnings);
            assert_eq!(count(&text, "ORIENTED_EDGE("), 3, "{case}");
            // a free curve's segment carries the coedge's direction itself
            let sense = if forward || !shared { ",.T.);" } else { ",.F.);" };
            assert_eq!(
                text.lines().filter(|l| l.contains("ORIENTED_EDGE(") && l.ends_with(sense)).count(),
                3,
                "{case}"
            );
            // the meridian split at the pole (trims 0..π/2 and π/2..π, to 1e-12)
            let trims: Vec<(f64, f64)> = text
                .lines()
                .filter(|l| l.contains("TRIMMED_CURVE("))
                .map(|l| {
                    let v: Vec<f64> = l
                        .split("PARAMETER_VALUE(")
                        .skip(1)
                        .map(|s| s.split(')').next().unwrap().parse().unwrap())
                        .collect();
                    (v[0], v[1])
                })
                .collect();
            assert_eq!(trims.len(), 6, "{case}");
            let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() <= 1e-12 && (a.1 - b.1).abs() <= 1e-12;
            assert!(near(trims[0], (0.0, PI)), "{case}: {trims:?}");
            assert!(near(trims[2], (0.0, FRAC_PI_2)), "{case}: {trims:?}");
            assert!(near(trims[4], (FRAC_PI_2, PI)), "{case}: {trims:?}");
            // new vertices at (-1, 0, 0) and the pole; the edge's vertex, or a
            // free curve's two end vertices (its ends differ by 1.2e-16)
            assert_eq!(count(&text, "VERTEX_POINT("), if shared { 3 } else { 4 }, "{case}");
            let what = if shared { "edge 0:" } else { "face 0 coedge 0:" };
            assert!(
                w.warnings
                    .iter()
                    .any(|x| x.starts_with(what) && x.contains("composite curve written as 3 edges")),
                "{case}: {:?}",
                w.warnings
            );
        }
    }

    #[test]
    fn composite_edge_of_two_faces_is_kept_with_a_warning() {
        let m = sphere_quarter(true, 2);
        let w = write_step(&m, &StepOptions::default()).unwrap();
        let text = String::from_utf8(w.bytes).unwrap();
        assert_eq!(count(&text, "EDGE_CURVE("), 1);
        assert!(
            w.warnings
                .iter()
                .any(|x| x.starts_with("edge 0:") && x.contains("does not share the edge's parameter")),
            "{:?}",
            w.warnings
        );
    }
}

//! A prepared scene ([`SceneData`]) as a B-rep [`Model`] for the writers: every
//! piece becomes a face of its own — its rational Bézier patch as a B-spline
//! surface on `[0, 1]²` (the piece parameters), `same_sense = !reversed`, and
//! its trim loops as loops of p-curves (polylines, rational Bézier curves) in
//! those parameters. Bodies keep their names and placements; with
//! [`SceneExportOptions::by_class`] each body is split into one body per
//! convexity class (`"name [convex]"`, …), so a CAD system shows the
//! decomposition.
//!
//! Trim loops have no 3-D curves and no shared edges: IGES writes them
//! exactly (faces mode, 142 with parameter-space curves only). STEP needs a
//! 3-D curve per edge, so the STEP writer lists every p-curve-only coedge in
//! its warnings (untrimmed pieces, the common case, are exact in both).

use crate::geom::{NurbsCurve, NurbsSurface, Pose, Vec3};
use crate::import::model::{Body, BodyKind, Coedge, Curve, CurveSegment, Face, Loop, Model, Shell, SourceFormat};
use crate::scene::{ConvexityClass, SceneData, TrimCurve};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion};

/// Options of [`scene_to_model`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SceneExportOptions {
    /// One body per (scene body, convexity class) instead of one per scene body.
    pub by_class: bool,
}

fn pose_of(p: &[f64; 12]) -> Pose {
    let m = Matrix3::new(p[0], p[1], p[2], p[4], p[5], p[6], p[8], p[9], p[10]);
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(m));
    Pose::from_parts(Vec3::new(p[3], p[7], p[11]), q)
}

/// Converts a scene; `warnings` receives one line per piece that could not be converted.
pub fn scene_to_model(data: &SceneData, opts: &SceneExportOptions, warnings: &mut Vec<String>) -> Model {
    let mut m = Model::new(
        match data.meta.source_format.name() {
            "iges" => SourceFormat::Iges,
            _ => SourceFormat::Step,
        },
        data.meta.source_name.clone(),
    );
    m.producer = data.meta.producer.clone();
    for (bi, body) in data.bodies.iter().enumerate() {
        let classes: Vec<Option<ConvexityClass>> = if opts.by_class {
            ConvexityClass::ALL.iter().map(|c| Some(*c)).collect()
        } else {
            vec![None]
        };
        for class in classes {
            let mut faces = Vec::new();
            for (pi, p) in data.pieces.iter().enumerate() {
                if p.body as usize != bi || class.is_some_and(|c| c != p.class) {
                    continue;
                }
                let surf = match NurbsSurface::bezier(p.degree_u as usize, p.degree_v as usize, p.poles.clone()) {
                    Ok(s) => s,
                    Err(e) => {
                        warnings.push(format!("piece {pi}: invalid patch ({e}), not exported"));
                        continue;
                    }
                };
                let mut loops: Vec<(bool, Loop)> = Vec::new();
                for l in &p.trim_loops {
                    let mut coedges = Vec::new();
                    for c in &l.curves {
                        let seg = match c {
                            TrimCurve::Polyline(v) => CurveSegment {
                                curve: Curve::Polyline(v.iter().map(|q| Vec3::new(q[0], q[1], 0.0)).collect()),
                                t0: 0.0,
                                t1: v.len().saturating_sub(1) as f64,
                                forward: true,
                            },
                            TrimCurve::Bezier(v) => {
                                let cw = v.iter().map(|q| [q[0], q[1], 0.0, q[2]]).collect();
                                match NurbsCurve::bezier(cw) {
                                    Ok(n) => CurveSegment {
                                        curve: Curve::BSpline(n),
                                        t0: 0.0,
                                        t1: 1.0,
                                        forward: true,
                                    },
                                    Err(e) => {
                                        warnings.push(format!("piece {pi}: invalid trim curve ({e}), left out"));
                                        continue;
                                    }
                                }
                            }
                        };
                        coedges.push(Coedge {
                            edge: None,
                            forward: true,
                            pcurve: Some(seg),
                            curve: None,
                            source: 0,
                        });
                    }
                    loops.push((l.outer, Loop { coedges, source: 0 }));
                }
                let outer_pos = loops.iter().position(|(o, _)| *o);
                let outer = outer_pos.map(|k| loops.remove(k).1);
                let f = m.faces.len();
                m.faces.push(Face {
                    surface: crate::import::model::Surface::BSpline(surf),
                    same_sense: !p.reversed,
                    outer,
                    inner: loops.into_iter().map(|(_, l)| l).collect(),
                    source: p.source_face,
                });
                faces.push(f);
            }
            if faces.is_empty() && class.is_some() {
                continue;
            }
            let name = match class {
                Some(c) => format!("{} [{}]", body.name, c.name()),
                None => body.name.clone(),
            };
            m.bodies.push(Body {
                name,
                kind: BodyKind::Faces,
                placement: pose_of(&body.placement),
                shells: vec![Shell {
                    faces,
                    closed: false,
                    void: false,
                    source: 0,
                }],
                source: body.source_id,
            });
        }
    }
    m
}

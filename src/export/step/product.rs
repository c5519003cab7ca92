//! Shape items and the product structure: per body a MANIFOLD_SOLID_BREP,
//! BREP_WITH_VOIDS, SHELL_BASED_SURFACE_MODEL or lone ADVANCED_FACE; one
//! PRODUCT per body when every body is unplaced with faces of its own, else
//! an assembly of component products with one NEXT_ASSEMBLY_USAGE_OCCURRENCE
//! and placement per body.

use super::context::Contexts;
use super::encoding::{refs, string};
use super::writer::W;
use super::StepOptions;
use crate::export::stable_pose_frame;
use crate::geom::Frame;
use crate::import::model::{BodyKind, Model};

/// Splits a body name `"product (instance)"` as the reader composes it.
fn split_name(name: &str) -> (String, String) {
    if let Some(stripped) = name.strip_suffix(')') {
        if let Some(k) = stripped.rfind(" (") {
            return (stripped[..k].to_string(), stripped[k + 2..].to_string());
        }
    }
    (name.to_string(), name.to_string())
}

/// Writes the shape items of the bodies (over the faces' ids `face_id`) and
/// the products or the assembly that place them.
pub(super) fn write_products(w: &mut W<'_>, model: &Model, opts: &StepOptions, face_id: &[usize], c: &Contexts) {
    let Contexts { ctx, pctx, pdctx } = *c;
    // bodies: shape items
    let mut items = Vec::with_capacity(model.bodies.len());
    let mut rep_kind = Vec::with_capacity(model.bodies.len());
    // bodies sharing shells share one representation
    let mut shared: Vec<Option<usize>> = vec![None; model.bodies.len()];
    for (k, body) in model.bodies.iter().enumerate() {
        if let Some(j) = (0..k).find(|&j| model.bodies[j].shells == body.shells && model.bodies[j].kind == body.kind) {
            shared[k] = Some(j);
            items.push(0);
            rep_kind.push("");
            continue;
        }
        let lone_face = body.kind == BodyKind::Faces
            && body.shells.len() == 1
            && body.shells[0].faces.len() == 1
            && !body.shells[0].closed
            && !body.shells[0].void;
        if lone_face {
            // a lone ADVANCED_FACE item reads back as a one-face body
            items.push(face_id[body.shells[0].faces[0]]);
            rep_kind.push("MANIFOLD_SURFACE_SHAPE_REPRESENTATION");
            continue;
        }
        let shell_ids: Vec<usize> = body
            .shells
            .iter()
            .map(|s| {
                let fl: Vec<usize> = s.faces.iter().map(|&f| face_id[f]).collect();
                let kind = if s.closed { "CLOSED_SHELL" } else { "OPEN_SHELL" };
                w.add(format!("{kind}('',{})", refs(&fl)))
            })
            .collect();
        let name = string(&body.name);
        let (item, rk) = match body.kind {
            BodyKind::Solid => {
                if body.shells.iter().any(|s| !s.closed) {
                    w.warnings.push(format!(
                        "body {k} ({}): solid with an open shell written as MANIFOLD_SOLID_BREP of an OPEN_SHELL",
                        body.name
                    ));
                }
                match shell_ids.split_first() {
                    Some((&outer, [])) => (
                        w.add(format!("MANIFOLD_SOLID_BREP({name},#{outer})")),
                        "ADVANCED_BREP_SHAPE_REPRESENTATION",
                    ),
                    Some((&outer, voids)) => {
                        let vs: Vec<usize> = voids
                            .iter()
                            .map(|&v| w.add(format!("ORIENTED_CLOSED_SHELL('',*,#{v},.F.)")))
                            .collect();
                        (
                            w.add(format!("BREP_WITH_VOIDS({name},#{outer},{})", refs(&vs))),
                            "ADVANCED_BREP_SHAPE_REPRESENTATION",
                        )
                    }
                    None => {
                        w.warnings.push(format!(
                            "body {k} ({}): solid without shells written as an empty shell model",
                            body.name
                        ));
                        (
                            w.add(format!("SHELL_BASED_SURFACE_MODEL({name},())")),
                            "MANIFOLD_SURFACE_SHAPE_REPRESENTATION",
                        )
                    }
                }
            }
            kind => {
                if kind == BodyKind::Faces {
                    w.warnings.push(format!(
                        "body {k} ({}): {} loose faces written as an open shell (read back as an open shell body)",
                        body.name,
                        body.face_indices().count()
                    ));
                }
                (
                    w.add(format!("SHELL_BASED_SURFACE_MODEL({name},{})", refs(&shell_ids))),
                    "MANIFOLD_SURFACE_SHAPE_REPRESENTATION",
                )
            }
        };
        items.push(item);
        rep_kind.push(rk);
    }

    let identity = crate::geom::Pose::identity();
    let flat = model
        .bodies
        .iter()
        .zip(&shared)
        .all(|(bd, s)| s.is_none() && bd.placement.iso == identity.iso);
    let product = |w: &mut W<'_>, name: &str| -> (usize, usize) {
        let n = string(name);
        let p = w.add(format!("PRODUCT({n},{n},'',(#{pctx}))"));
        w.add(format!("PRODUCT_RELATED_PRODUCT_CATEGORY('part',$,(#{p}))"));
        let pdf = w.add(format!("PRODUCT_DEFINITION_FORMATION('','',#{p})"));
        let pd = w.add(format!("PRODUCT_DEFINITION('design','',#{pdf},#{pdctx})"));
        let pds = w.add(format!("PRODUCT_DEFINITION_SHAPE('','',#{pd})"));
        (pd, pds)
    };
    if flat {
        for (k, body) in model.bodies.iter().enumerate() {
            let (_pd, pds) = product(w, &body.name);
            let rep = w.add(format!("{}('',(#{}),#{ctx})", rep_kind[k], items[k]));
            w.add(format!("SHAPE_DEFINITION_REPRESENTATION(#{pds},#{rep})"));
        }
    } else {
        let (root_pd, root_pds) = product(w, &opts.assembly_name);
        let root_rep = w.reserve();
        let mut root_items = Vec::new();
        let mut comp: Vec<(usize, usize, usize)> = vec![(0, 0, 0); model.bodies.len()]; // (pd, rep, origin axis)
        for (k, body) in model.bodies.iter().enumerate() {
            if shared[k].is_some() {
                continue;
            }
            let (pname, _) = split_name(&body.name);
            let (pd, pds) = product(w, &pname);
            let origin = w.axis3(&Frame::default());
            let rep = w.add(format!("{}('',(#{},#{origin}),#{ctx})", rep_kind[k], items[k]));
            w.add(format!("SHAPE_DEFINITION_REPRESENTATION(#{pds},#{rep})"));
            comp[k] = (pd, rep, origin);
        }
        for (k, body) in model.bodies.iter().enumerate() {
            let (pd, rep, origin) = comp[shared[k].unwrap_or(k)];
            let (_, inst) = split_name(&body.name);
            let f = stable_pose_frame(&body.placement);
            let target = w.axis3(&f);
            root_items.push(target);
            let nauo = w.add(format!(
                "NEXT_ASSEMBLY_USAGE_OCCURRENCE({},{},'',#{root_pd},#{pd},$)",
                string(&format!("{}", k + 1)),
                string(&inst)
            ));
            let pds = w.add(format!("PRODUCT_DEFINITION_SHAPE('','',#{nauo})"));
            let t = w.add(format!("ITEM_DEFINED_TRANSFORMATION('','',#{origin},#{target})"));
            let rr = w.add(format!(
                "(REPRESENTATION_RELATIONSHIP('','',#{rep},#{root_rep})REPRESENTATION_RELATIONSHIP_WITH_TRANSFORMATION(#{t})SHAPE_REPRESENTATION_RELATIONSHIP())"
            ));
            w.add(format!("CONTEXT_DEPENDENT_SHAPE_REPRESENTATION(#{rr},#{pds})"));
        }
        let root_origin = w.axis3(&Frame::default());
        root_items.insert(0, root_origin);
        w.set(
            root_rep,
            format!("SHAPE_REPRESENTATION('',{},#{ctx})", refs(&root_items)),
        );
        w.add(format!("SHAPE_DEFINITION_REPRESENTATION(#{root_pds},#{root_rep})"));
    }
}

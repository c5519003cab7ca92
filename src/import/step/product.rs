//! Product structure and placements: which shape representations hold which
//! solids, and where each is placed.
//!
//! - PRODUCT_DEFINITION ← PRODUCT_DEFINITION_SHAPE ← SHAPE_DEFINITION_REPRESENTATION
//!   → shape representation; representations joined by a plain
//!   SHAPE_REPRESENTATION_RELATIONSHIP belong together (SHAPE_REPRESENTATION ↔
//!   ADVANCED_BREP_SHAPE_REPRESENTATION, same frame).
//! - NEXT_ASSEMBLY_USAGE_OCCURRENCE(relating = assembly, related = component),
//!   placed by the CONTEXT_DEPENDENT_SHAPE_REPRESENTATION whose
//!   PRODUCT_DEFINITION_SHAPE names the NAUO: its
//!   REPRESENTATION_RELATIONSHIP_WITH_TRANSFORMATION carries an
//!   ITEM_DEFINED_TRANSFORMATION(item_1, item_2); with `rep_1` the component's
//!   representation, the component's coordinates map to the assembly's by
//!   `F(item_2) ∘ F(item_1)⁻¹` (the inverse when `rep_1` is the assembly's).
//! - MAPPED_ITEM(REPRESENTATION_MAP(origin, rep), target) places `rep` by
//!   `F(target) ∘ F(origin)⁻¹`.
//! - Roots are product definitions that are no NAUO's component; every solid
//!   reached along the tree becomes one placed Body (instances share faces),
//!   and solids of representations not reached at all are added unplaced.

use super::access::at_of;
use super::builder::Builder;
use super::error::StepError;
use crate::geom::Frame;
use crate::geom::Pose;
use crate::import::model::{Body, BodyKind};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion};
use std::collections::HashMap;

/// Deepest assembly nesting followed.
pub const MAX_ASSEMBLY_DEPTH: usize = 32;

fn pose_of(f: &Frame) -> Pose {
    let m = Matrix3::from_columns(&[f.x, f.y, f.z]);
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(m));
    Pose::from_parts(f.origin, q)
}

fn compose(a: &Pose, b: &Pose) -> Pose {
    Pose { iso: a.iso * b.iso }
}

struct Usage {
    child: usize,
    nauo: usize,
    transform: Option<Pose>,
}

/// The product-structure graph.
#[derive(Default)]
struct Graph {
    /// Product definition → its shape representations.
    pd_reps: HashMap<usize, Vec<usize>>,
    /// Identity links between representations.
    links: HashMap<usize, Vec<usize>>,
    /// Assembly product definition → usages.
    usages: HashMap<usize, Vec<Usage>>,
    /// Product definitions that are a component of something.
    is_child: Vec<usize>,
}

fn upper_eq(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn is_shape_rep_name(n: &[u8]) -> bool {
    // every candidate ends in `REPRESENTATION`: a cheap reject first
    if n.len() < 14 || !n[n.len() - 14..].eq_ignore_ascii_case(b"REPRESENTATION") {
        return false;
    }
    let u = super::access::upper(n);
    (u.ends_with(b"SHAPE_REPRESENTATION") && &*u != b"CONTEXT_DEPENDENT_SHAPE_REPRESENTATION")
        || &*u == b"REPRESENTATION"
}

impl<'e, 'a> Builder<'e, 'a> {
    /// True when instance `idx` is a shape representation.
    fn is_rep(&self, idx: usize) -> bool {
        let ex = self.ex;
        ex.instances
            .get(idx)
            .is_some_and(|i| ex.records_of(i).iter().any(|r| is_shape_rep_name(ex.name(r))))
    }

    /// (items, context) of a representation.
    fn rep_parts(&mut self, idx: usize) -> Result<(Vec<usize>, Option<usize>), StepError> {
        let ex = self.ex;
        let recs = self.records(idx);
        let rec = recs
            .iter()
            .find(|r| is_shape_rep_name(ex.name(r)) && ex.args(r).len() >= 3)
            .or_else(|| recs.iter().find(|r| ex.args(r).len() >= 3));
        let Some(rec) = rec else {
            return Err(StepError::Param {
                at: at_of(ex, idx),
                entity: crate::import::escape::escape_bytes(self.type_name(idx)),
                msg: "representation without (name, items, context)".into(),
            });
        };
        let a = super::access::Args::new(ex, idx, rec);
        let items = a.refs(1)?;
        let ctx = a.opt_reference(2)?;
        Ok((items, ctx))
    }

    /// Product name of a PRODUCT_DEFINITION (via its formation).
    fn product_name(&mut self, pd: usize) -> String {
        let name = (|| -> Result<String, StepError> {
            let a = self.simple(pd);
            let form = a.reference(2)?;
            let fa = self.simple(form);
            let prod = fa.reference(2)?;
            let pa = self.simple(prod);
            let n = pa.string(1)?;
            if n.trim().is_empty() {
                pa.string(0)
            } else {
                Ok(n)
            }
        })();
        name.unwrap_or_default()
    }

    fn build_graph(&mut self) -> Result<Graph, StepError> {
        let ex = self.ex;
        let mut g = Graph::default();
        let mut cdsr_of_nauo: HashMap<usize, usize> = HashMap::new();
        let mut nauos = Vec::new();
        for (k, inst) in ex.instances.iter().enumerate() {
            let recs = ex.records_of(inst);
            let Some(first) = recs.first() else { continue };
            let name = ex.name(first);
            if recs.len() == 1 && upper_eq(name, b"SHAPE_DEFINITION_REPRESENTATION") {
                let a = self.simple(k);
                let pds = a.reference(0)?;
                let rep = a.reference(1)?;
                let pa = self.simple(pds);
                if let Ok(def) = pa.reference(2) {
                    if upper_eq(self.type_name(def), b"PRODUCT_DEFINITION")
                        || super::access::upper(self.type_name(def)).starts_with(b"PRODUCT_DEFINITION")
                    {
                        self.records(def);
                        g.pd_reps.entry(def).or_default().push(rep);
                    }
                }
            } else if recs.len() == 1 && upper_eq(name, b"SHAPE_REPRESENTATION_RELATIONSHIP") {
                let a = self.simple(k);
                let (r1, r2) = (a.reference(2)?, a.reference(3)?);
                if self.is_rep(r1) && self.is_rep(r2) {
                    g.links.entry(r1).or_default().push(r2);
                    g.links.entry(r2).or_default().push(r1);
                }
            } else if recs.len() == 1 && upper_eq(name, b"CONTEXT_DEPENDENT_SHAPE_REPRESENTATION") {
                let a = self.simple(k);
                let pds = a.reference(1)?;
                let pa = self.simple(pds);
                if let Ok(def) = pa.reference(2) {
                    cdsr_of_nauo.insert(def, k);
                }
            } else if recs.len() == 1 && upper_eq(name, b"NEXT_ASSEMBLY_USAGE_OCCURRENCE") {
                nauos.push(k);
            }
        }
        for nauo in nauos {
            let a = self.simple(nauo);
            let parent = a.reference(3)?;
            let child = a.reference(4)?;
            let transform = match cdsr_of_nauo.get(&nauo).copied() {
                Some(cdsr) => self.cdsr_transform(cdsr, child, &g)?,
                None => None,
            };
            g.is_child.push(child);
            g.usages
                .entry(parent)
                .or_default()
                .push(Usage { child, nauo, transform });
        }
        Ok(g)
    }

    fn group(&self, g: &Graph, reps: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = reps.to_vec();
        let mut k = 0;
        while k < out.len() {
            if let Some(l) = g.links.get(&out[k]) {
                for &r in l {
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
            k += 1;
        }
        out
    }

    /// Sets the unit factors of a representation's context.
    fn enter_context(&mut self, ctx: Option<usize>) -> Result<super::units::ContextUnits, StepError> {
        let cu = match ctx {
            Some(c) => self.context_units(c)?,
            None => super::units::ContextUnits::default(),
        };
        self.scale = cu.mm;
        self.angle = cu.rad;
        self.uncertainty = cu.uncertainty;
        Ok(cu)
    }

    fn frame_pose(&mut self, item: usize) -> Result<Pose, StepError> {
        let f = self.placement(item)?;
        Ok(pose_of(&f))
    }

    fn cdsr_transform(&mut self, cdsr: usize, child_pd: usize, g: &Graph) -> Result<Option<Pose>, StepError> {
        let a = self.simple(cdsr);
        let rr = a.reference(0)?;
        let Some(rel) = self.part(rr, b"REPRESENTATION_RELATIONSHIP") else {
            return Ok(None);
        };
        let (r1, r2) = (rel.reference(2)?, rel.reference(3)?);
        let Some(rwt) = self.part(rr, b"REPRESENTATION_RELATIONSHIP_WITH_TRANSFORMATION") else {
            return Ok(None);
        };
        let t = rwt.reference(0)?;
        let ta = self.simple(t);
        if !upper_eq(ta.entity, b"ITEM_DEFINED_TRANSFORMATION") {
            self.model.warnings.push(format!(
                "{}: transformation {} not supported, component left unplaced",
                at_of(self.ex, t),
                crate::import::escape::escape_bytes(ta.entity)
            ));
            return Ok(None);
        }
        let child_reps = self.group(g, g.pd_reps.get(&child_pd).map_or(&[][..], |v| v.as_slice()));
        let child_is_r1 = child_reps.contains(&r1) || !child_reps.contains(&r2);
        let parent = if child_is_r1 { r2 } else { r1 };
        let (i1, i2) = (ta.reference(2)?, ta.reference(3)?);
        // which item lies in the component's representation decides the
        // direction (writers disagree on the order of rep_1 / rep_2)
        let mut child_items = Vec::new();
        for &r in &child_reps {
            child_items.extend(self.rep_parts(r)?.0);
        }
        let (from, to) = (i1, i2);
        let child_item_1 = child_items.contains(&i1) && !child_items.contains(&i2);
        let (_, ctx) = self.rep_parts(parent)?;
        let saved = (self.scale, self.angle, self.uncertainty);
        self.enter_context(ctx)?;
        let f1 = self.frame_pose(from);
        let f2 = self.frame_pose(to);
        (self.scale, self.angle, self.uncertainty) = saved;
        let (f1, f2) = (f1?, f2?);
        let t = compose(&f2, &Pose { iso: f1.iso.inverse() });
        Ok(Some(if child_is_r1 {
            t
        } else if child_item_1 {
            // rep_1 is the assembly but item_1 lies in the component (a writer
            // variant): the component is placed by item_2, as Open CASCADE does
            f2
        } else {
            Pose { iso: t.iso.inverse() }
        }))
    }

    /// Builds every placed body.
    pub fn build_bodies(&mut self) -> Result<(), StepError> {
        let g = self.build_graph()?;
        let mut rep_done = vec![false; self.ex.instances.len()];
        let mut first_units = None;
        let mut roots: Vec<usize> = g.pd_reps.keys().chain(g.usages.keys()).copied().collect();
        roots.sort_unstable();
        roots.dedup();
        roots.retain(|pd| !g.is_child.contains(pd));
        for root in roots {
            let name = self.product_name(root);
            let mut stack = Vec::new();
            self.walk(
                &g,
                root,
                Pose::identity(),
                &name,
                &mut stack,
                &mut rep_done,
                &mut first_units,
            )?;
        }
        // representations not reached from any product: first those no
        // MAPPED_ITEM places (following their mapped items), then the rest
        let ex = self.ex;
        let mut mapped = vec![false; ex.instances.len()];
        for (k, inst) in ex.instances.iter().enumerate() {
            if let Some(r) = ex.records_of(inst).first() {
                if upper_eq(ex.name(r), b"REPRESENTATION_MAP") {
                    if let Ok(t) = super::access::Args::new(ex, k, r).reference(1) {
                        if let Some(m) = mapped.get_mut(t) {
                            *m = true;
                        }
                    }
                }
            }
        }
        let reps: Vec<usize> = (0..ex.instances.len()).filter(|&k| self.is_rep(k)).collect();
        for phase in 0..2 {
            for &k in &reps {
                if !rep_done[k] && (phase == 1 || !mapped[k]) {
                    let mut stack = Vec::new();
                    for r in self.group(&g, &[k]) {
                        if !rep_done[r] {
                            self.place_rep(
                                &g,
                                r,
                                Pose::identity(),
                                "",
                                &mut stack,
                                &mut rep_done,
                                &mut first_units,
                                true,
                            )?;
                        }
                    }
                }
            }
        }
        // a representation whose context gives units, even when no body
        // was made of it (so the reported units are never silently mm)
        if first_units.is_none() {
            first_units = self.fallback_units(&g)?;
        }
        for b in &self.model.bodies {
            if b.face_indices().next().is_none() {
                self.model.warnings.push(format!(
                    "#{}: body `{}` has no face (it is left empty)",
                    b.source, b.name
                ));
            }
        }
        if let Some(cu) = first_units {
            self.model.units = crate::import::model::Units {
                name: cu.name.clone(),
                mm_per_unit: cu.mm,
            };
            self.model.tolerance = cu.uncertainty;
        }
        Ok(())
    }

    /// Units of the first product's first representation with a context
    /// (used when no body was placed).
    fn fallback_units(&mut self, g: &Graph) -> Result<Option<super::units::ContextUnits>, StepError> {
        let mut pds: Vec<usize> = g.pd_reps.keys().copied().collect();
        pds.sort_unstable();
        for pd in pds {
            let reps = self.group(g, g.pd_reps.get(&pd).map_or(&[][..], |v| v.as_slice()));
            for r in reps {
                if let (_, Some(ctx)) = self.rep_parts(r)? {
                    return Ok(Some(self.context_units(ctx)?));
                }
            }
        }
        Ok(None)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        g: &Graph,
        pd: usize,
        pose: Pose,
        name: &str,
        stack: &mut Vec<usize>,
        rep_done: &mut Vec<bool>,
        first_units: &mut Option<super::units::ContextUnits>,
    ) -> Result<(), StepError> {
        if stack.contains(&pd) || stack.len() >= MAX_ASSEMBLY_DEPTH {
            return Err(StepError::Cycle {
                at: at_of(self.ex, pd),
                what: "assembly structure (NEXT_ASSEMBLY_USAGE_OCCURRENCE)".into(),
            });
        }
        stack.push(pd);
        let reps = self.group(g, g.pd_reps.get(&pd).map_or(&[][..], |v| v.as_slice()));
        let mut mapped_targets = Vec::new();
        for &r in &reps {
            let (items, _) = self.rep_parts(r)?;
            for it in items {
                if upper_eq(self.type_name(it), b"MAPPED_ITEM") {
                    let ma = self.simple(it);
                    let map = ma.reference(1)?;
                    let rm = self.simple(map);
                    mapped_targets.push(rm.reference(1)?);
                }
            }
        }
        for &r in &reps {
            self.place_rep(g, r, pose, name, stack, rep_done, first_units, false)?;
        }
        if let Some(us) = g.usages.get(&pd) {
            for u in us {
                let child_reps = self.group(g, g.pd_reps.get(&u.child).map_or(&[][..], |v| v.as_slice()));
                if u.transform.is_none() && child_reps.iter().any(|r| mapped_targets.contains(r)) {
                    // placed by a MAPPED_ITEM of the assembly's representation
                    self.records(u.nauo);
                    continue;
                }
                let na = self.simple(u.nauo);
                let inst = na
                    .string(1)
                    .ok()
                    .filter(|s| !s.trim().is_empty())
                    .or_else(|| na.string(0).ok())
                    .unwrap_or_default();
                let prod = self.product_name(u.child);
                let child_name = if inst.trim().is_empty() || inst == prod {
                    prod
                } else {
                    format!("{prod} ({inst})")
                };
                let p = match &u.transform {
                    Some(t) => compose(&pose, t),
                    None => pose,
                };
                self.walk(g, u.child, p, &child_name, stack, rep_done, first_units)?;
            }
        }
        stack.pop();
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn place_rep(
        &mut self,
        g: &Graph,
        rep: usize,
        pose: Pose,
        name: &str,
        stack: &mut Vec<usize>,
        rep_done: &mut Vec<bool>,
        first_units: &mut Option<super::units::ContextUnits>,
        unreached: bool,
    ) -> Result<(), StepError> {
        if stack.contains(&rep) || stack.len() >= MAX_ASSEMBLY_DEPTH {
            return Err(StepError::Cycle {
                at: at_of(self.ex, rep),
                what: "representation structure (MAPPED_ITEM)".into(),
            });
        }
        if let Some(d) = rep_done.get_mut(rep) {
            *d = true;
        }
        stack.push(rep);
        let (items, ctx) = self.rep_parts(rep)?;
        let cu = self.enter_context(ctx)?;
        let solids: Vec<usize> = items
            .iter()
            .copied()
            .filter(|&i| self.solid_kind(i).is_some())
            .collect();
        let multi = solids.len() > 1;
        let mut k = 0;
        for it in items {
            if let Some(kind) = self.solid_kind(it) {
                k += 1;
                let already = self.placed_items.contains(&it) || Self::mapped(&self.face_map, it).is_some();
                if unreached && already {
                    // the same solid was placed through the product structure
                    self.records(it);
                    continue;
                }
                self.placed_items.insert(it);
                self.enter_context(ctx)?;
                let item_name = self.simple(it).string(0).unwrap_or_default();
                let base = if name.is_empty() {
                    if item_name.trim().is_empty() {
                        format!("body {}", self.model.bodies.len() + 1)
                    } else {
                        item_name
                    }
                } else {
                    name.to_string()
                };
                let body_name = if multi { format!("{base} [{k}]") } else { base };
                let d0 = self.model.dropped.len();
                let shells = self.solid_shells(it, kind)?;
                // a surface model of one CLOSED_SHELL that closes up bounds a solid
                let kind = if kind == BodyKind::OpenShell
                    && upper_eq(self.type_name(it), b"SHELL_BASED_SURFACE_MODEL")
                    && matches!(shells.as_slice(), [s] if s.closed && self.model.faces_close_up(&s.faces))
                {
                    BodyKind::Solid
                } else {
                    kind
                };
                let source = self.ex.instances.get(it).map_or(0, |i| i.id);
                self.assign_dropped(d0, self.model.bodies.len());
                self.model.bodies.push(Body {
                    name: body_name,
                    kind,
                    placement: pose,
                    shells,
                    source,
                });
                if first_units.is_none() {
                    *first_units = Some(cu.clone());
                }
            } else if let Some(surfs) = self.bare_surfaces(it) {
                // a GEOMETRIC_SET (or a bare surface item) of a surface model
                // without topology: untrimmed faces of an open shell
                let already = self.placed_items.contains(&it);
                if unreached && already {
                    self.records(it);
                    continue;
                }
                self.placed_items.insert(it);
                self.enter_context(ctx)?;
                let item_name = self.simple(it).string(0).unwrap_or_default();
                let body_name = if !name.is_empty() {
                    name.to_string()
                } else if item_name.trim().is_empty() {
                    format!("body {}", self.model.bodies.len() + 1)
                } else {
                    item_name
                };
                let d0 = self.model.dropped.len();
                let faces = self.untrimmed_faces(&surfs)?;
                if faces.is_empty() {
                    continue;
                }
                let source = self.ex.instances.get(it).map_or(0, |i| i.id);
                self.assign_dropped(d0, self.model.bodies.len());
                self.model.bodies.push(Body {
                    name: body_name,
                    kind: BodyKind::OpenShell,
                    placement: pose,
                    shells: vec![crate::import::model::Shell {
                        faces,
                        closed: false,
                        void: false,
                        source,
                    }],
                    source,
                });
                if first_units.is_none() {
                    *first_units = Some(cu.clone());
                }
            } else if upper_eq(self.type_name(it), b"MAPPED_ITEM") {
                let ma = self.simple(it);
                let map = ma.reference(1)?;
                let target = ma.reference(2)?;
                let rm = self.simple(map);
                let origin = rm.reference(0)?;
                let mapped = rm.reference(1)?;
                self.enter_context(ctx)?;
                let ft = self.frame_pose(target)?;
                let (_, mctx) = self.rep_parts(mapped)?;
                self.enter_context(mctx)?;
                let fo = self.frame_pose(origin)?;
                let t = compose(&ft, &Pose { iso: fo.iso.inverse() });
                let p = compose(&pose, &t);
                for r in self.group(g, &[mapped]) {
                    self.place_rep(g, r, p, name, stack, rep_done, first_units, unreached)?;
                }
            } else if matches!(
                &*super::access::upper(self.type_name(it)),
                b"AXIS2_PLACEMENT_3D" | b"AXIS2_PLACEMENT_2D" | b"AXIS1_PLACEMENT"
            ) {
                // frames used by the placements
                self.placement(it)?;
            }
        }
        stack.pop();
        Ok(())
    }

    /// True when instance `idx` is a surface entity (a B-spline surface,
    /// simple or complex, an elementary, swept, offset or trimmed surface).
    fn is_surface(&self, idx: usize) -> bool {
        if self.has(idx, b"B_SPLINE_SURFACE") {
            return true;
        }
        let name = super::access::upper(self.type_name(idx));
        &*name == b"PLANE" || name.ends_with(b"_SURFACE") || name.starts_with(b"B_SPLINE_SURFACE")
    }

    /// The surfaces of a geometry-only item: the surface elements of a
    /// GEOMETRIC_SET / GEOMETRIC_CURVE_SET, or the item itself when it is a
    /// surface. `None` for other items, or a set without surfaces.
    fn bare_surfaces(&mut self, idx: usize) -> Option<Vec<usize>> {
        if self.is_surface(idx) {
            return Some(vec![idx]);
        }
        let name = super::access::upper(self.type_name(idx));
        if !matches!(&*name, b"GEOMETRIC_SET" | b"GEOMETRIC_CURVE_SET") {
            return None;
        }
        let elements = self.simple(idx).refs(1).ok()?;
        let surfs: Vec<usize> = elements.into_iter().filter(|&e| self.is_surface(e)).collect();
        (!surfs.is_empty()).then_some(surfs)
    }

    /// One untrimmed face (natural boundary: no loops) per bounded surface,
    /// in the current context's units. Surfaces that are unbounded in some
    /// direction (planes, cylinders, extrusions) or cannot be read are
    /// skipped with a warning naming them.
    fn untrimmed_faces(&mut self, surfs: &[usize]) -> Result<Vec<usize>, StepError> {
        let mut faces = Vec::new();
        for &s in surfs {
            if let Some(f) = Self::mapped(&self.face_map, s) {
                faces.push(f);
                continue;
            }
            let surface = match self.surface_for(s, false) {
                Ok(x) => x,
                Err(e) => {
                    self.drop_face(s, false, format!("{e}; the surface is not read as a face"), Some(e));
                    continue;
                }
            };
            if let (Some(_), Some(_)) = surface.natural_bounds() {
                let f = self.model.faces.len();
                self.surface_in_face(s, f);
                self.model.faces.push(crate::import::model::Face {
                    surface,
                    same_sense: true,
                    outer: None,
                    inner: Vec::new(),
                    source: self.ex.instances.get(s).map_or(0, |i| i.id),
                });
                Self::set_mapped(&mut self.face_map, s, f);
                faces.push(f);
            } else {
                let why = format!(
                    "{}: {} of a surface model is unbounded (no natural boundary): not read as a face",
                    at_of(self.ex, s),
                    crate::import::escape::escape_bytes(self.type_name(s))
                );
                self.drop_face(s, false, why, None);
            }
        }
        Ok(faces)
    }

    fn solid_kind(&self, idx: usize) -> Option<BodyKind> {
        match &*super::access::upper(self.type_name(idx)) {
            b"MANIFOLD_SOLID_BREP" | b"BREP_WITH_VOIDS" | b"FACETED_BREP" => Some(BodyKind::Solid),
            b"SHELL_BASED_SURFACE_MODEL" | b"FACE_BASED_SURFACE_MODEL" | b"OPEN_SHELL" | b"CLOSED_SHELL" => {
                Some(BodyKind::OpenShell)
            }
            b"ADVANCED_FACE" | b"FACE_SURFACE" | b"ORIENTED_FACE" => Some(BodyKind::Faces),
            _ => None,
        }
    }

    fn solid_shells(&mut self, idx: usize, kind: BodyKind) -> Result<Vec<crate::import::model::Shell>, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        match (kind, &*name) {
            (BodyKind::Solid, b"BREP_WITH_VOIDS") => {
                let mut shells = vec![self.shell(a.reference_to(1, super::access::SHELL)?, false)?];
                for v in a.refs_to(2, super::access::SHELL)? {
                    shells.push(self.shell(v, true)?);
                }
                Ok(shells)
            }
            (BodyKind::Solid, _) => Ok(vec![self.shell(a.reference_to(1, super::access::SHELL)?, false)?]),
            (_, b"SHELL_BASED_SURFACE_MODEL") | (_, b"FACE_BASED_SURFACE_MODEL") => {
                let mut shells = Vec::new();
                for s in a.refs_to(1, super::access::SHELL)? {
                    shells.push(self.shell(s, false)?);
                }
                Ok(shells)
            }
            (_, b"OPEN_SHELL") | (_, b"CLOSED_SHELL") => Ok(vec![self.shell(idx, false)?]),
            _ => {
                let faces: Vec<usize> = self.face_or_drop(idx, false).into_iter().collect();
                Ok(vec![crate::import::model::Shell {
                    faces,
                    closed: false,
                    void: false,
                    source: a.ex.instances.get(idx).map_or(0, |i| i.id),
                }])
            }
        }
    }
}

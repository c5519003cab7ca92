//! Topology: VERTEX_POINT, EDGE_CURVE, ORIENTED_EDGE, EDGE_LOOP / VERTEX_LOOP /
//! POLY_LOOP, FACE_BOUND / FACE_OUTER_BOUND, ADVANCED_FACE / FACE_SURFACE,
//! CLOSED_SHELL / OPEN_SHELL / ORIENTED_CLOSED_SHELL.
//!
//! Normalisation (documented in formats/step.md):
//! - every Edge runs along increasing curve parameter (`t0 < t1`, `start` at
//!   `t0`); an EDGE_CURVE with `same_sense = .F.` has its vertices swapped and
//!   the flip folded into each Coedge's `forward`;
//! - every Loop runs with the face on its left (seen from the face's outward
//!   normal): a FACE_BOUND with orientation `.F.` is stored reversed;
//! - p-curves come from SURFACE_CURVE / SEAM_CURVE associated geometry whose
//!   PCURVE lies on the face's surface instance (for a seam, the first p-curve
//!   goes to the forward use, the second to the reversed one).

use super::builder::Builder;
use super::error::StepError;
use crate::import::model::{Coedge, Curve, CurveSegment, Edge, Face, Loop, Shell, Surface, Vertex};

impl<'e, 'a> Builder<'e, 'a> {
    /// VERTEX_POINT → Model vertex index.
    pub fn vertex(&mut self, idx: usize) -> Result<usize, StepError> {
        if let Some(v) = Self::mapped(&self.vertex_map, idx) {
            return Ok(v);
        }
        let a = self.simple(idx);
        if !a.entity.eq_ignore_ascii_case(b"VERTEX_POINT") {
            return Err(a.err("expected a VERTEX_POINT"));
        }
        let point = self.point(a.reference(1)?)?;
        let k = self.model.vertices.len();
        self.model.vertices.push(Vertex {
            point,
            source: self.ex.instances.get(idx).map_or(0, |i| i.id),
        });
        Self::set_mapped(&mut self.vertex_map, idx, k);
        Ok(k)
    }

    /// EDGE_CURVE → (Model edge index, flipped = the STEP edge runs against the Edge).
    pub fn edge(&mut self, idx: usize) -> Result<(usize, bool), StepError> {
        let a = self.simple(idx);
        if !a.entity.eq_ignore_ascii_case(b"EDGE_CURVE") {
            return Err(a.err("expected an EDGE_CURVE"));
        }
        let same = a.boolean(4, true)?;
        if let Some(e) = Self::mapped(&self.edge_map, idx) {
            let flipped = self.model.edges.get(e).map(|_| self.edge_flip(idx)).unwrap_or(false);
            return Ok((e, flipped));
        }
        let vs = self.vertex(a.reference(1)?)?;
        let ve = self.vertex(a.reference(2)?)?;
        let geom = a.reference(3)?;
        let curve = self.curve(geom)?;
        let ps = self.model.vertices.get(vs).map(|v| v.point).unwrap_or_default();
        let pe = self.model.vertices.get(ve).map(|v| v.point).unwrap_or_default();
        // parameters along the curve direction
        let (from, to, vfrom, vto) = if same { (ps, pe, vs, ve) } else { (pe, ps, ve, vs) };
        let mut t0 = crate::import::eval::curve_param_of(&curve, &from);
        let mut t1 = crate::import::eval::curve_param_of(&curve, &to);
        let mut swapped = false;
        match super::geometry::curve_period(&curve) {
            Some(p) => {
                // both in [0, p) (closed-form projection): one period at most
                if t1 <= t0 + 1e-12 {
                    t1 += p;
                }
                if t1 - t0 > p + 1e-9 {
                    t1 -= p;
                }
            }
            None => {
                if let Some((lo, hi)) = curve.natural_range() {
                    if vfrom == vto || (t1 - t0).abs() <= 1e-12 * (1.0 + (hi - lo).abs()) {
                        // closed curve: the whole domain
                        t0 = lo;
                        t1 = hi;
                    }
                }
                if t1 < t0 {
                    std::mem::swap(&mut t0, &mut t1);
                    swapped = true;
                }
            }
        }
        let (start, end) = if swapped { (vto, vfrom) } else { (vfrom, vto) };
        let k = self.model.edges.len();
        self.model.edges.push(Edge {
            curve,
            t0,
            t1,
            start: Some(start),
            end: Some(end),
            faces: Vec::new(),
            source: self.ex.instances.get(idx).map_or(0, |i| i.id),
        });
        Self::set_mapped(&mut self.edge_map, idx, k);
        // remember whether the Edge runs against the STEP edge direction
        let flip = (!same) ^ swapped;
        self.edge_flips.insert(idx, flip);
        Ok((k, flip))
    }

    fn edge_flip(&self, idx: usize) -> bool {
        self.edge_flips.get(&idx).copied().unwrap_or(false)
    }

    /// The p-curves an EDGE_CURVE's geometry carries for surface instance `surf`.
    fn pcurves_for(&mut self, edge_idx: usize, surf: usize) -> Result<Vec<usize>, StepError> {
        let a = self.simple(edge_idx);
        let g = a.reference(3)?;
        let ga = self.simple(g);
        let name = super::access::upper(ga.entity);
        if !matches!(&*name, b"SURFACE_CURVE" | b"SEAM_CURVE" | b"INTERSECTION_CURVE") {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for pc in ga.refs(2)? {
            let pa = self.simple(pc);
            if !pa.entity.eq_ignore_ascii_case(b"PCURVE") {
                continue;
            }
            if pa.reference(1)? == surf {
                out.push(pc);
            }
        }
        Ok(out)
    }

    /// PCURVE → 2-D curve (z = 0) in the Model's parameter units for `surface`.
    fn pcurve(&mut self, idx: usize, surface: &Surface) -> Result<Curve, StepError> {
        let a = self.simple(idx);
        let rep = a.reference(2)?;
        let ra = self.simple(rep);
        let items = ra.refs(1)?;
        self.part(ra.reference(2)?, b"REPRESENTATION_CONTEXT");
        let Some(&c) = items.first() else {
            return Err(ra.count_err("item count", 0));
        };
        let (fu, fv) = super::geometry::param_factors(surface, self.scale, self.angle);
        let saved = self.uv_scale.replace((fu, fv));
        let r = self.curve(c);
        self.uv_scale = saved;
        r
    }

    /// ORIENTED_EDGE → Coedge (with the p-curve on `surf` when given).
    fn coedge(
        &mut self,
        idx: usize,
        surf: usize,
        surface: &Surface,
        seam_uses: &mut Vec<usize>,
    ) -> Result<Coedge, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        let (edge_idx, orientation) = match &*name {
            b"ORIENTED_EDGE" => {
                let mut e = a.reference(3)?;
                let mut o = a.boolean(4, true)?;
                // an oriented edge of an oriented edge
                let mut guard = 0;
                while self.type_name(e).eq_ignore_ascii_case(b"ORIENTED_EDGE") && guard < 8 {
                    let ia = self.simple(e);
                    o = o == ia.boolean(4, true)?;
                    e = ia.reference(3)?;
                    guard += 1;
                }
                (e, o)
            }
            b"EDGE_CURVE" => (idx, true),
            _ => return Err(a.err("expected an ORIENTED_EDGE")),
        };
        let (e, flip) = self.edge(edge_idx)?;
        let forward = orientation != flip;
        let pcs = self.pcurves_for(edge_idx, surf)?;
        let pick = if pcs.len() >= 2 {
            // seam: the forward use takes the first p-curve, the reversed use the second
            seam_uses.push(edge_idx);
            if orientation {
                pcs.first().copied()
            } else {
                pcs.get(1).copied()
            }
        } else {
            pcs.first().copied()
        };
        let pcurve = match pick {
            Some(pc) => {
                let c = self.pcurve(pc, surface)?;
                self.model.edges.get(e).map(|ed| CurveSegment {
                    curve: c,
                    t0: ed.t0,
                    t1: ed.t1,
                    forward,
                })
            }
            None => None,
        };
        Ok(Coedge {
            edge: Some(e),
            forward,
            pcurve,
            curve: None,
            pcurve_preferred: false,
            source: self.ex.instances.get(idx).map_or(0, |i| i.id),
        })
    }

    /// A loop (EDGE_LOOP, POLY_LOOP); `None` for a VERTEX_LOOP.
    fn face_loop(
        &mut self,
        idx: usize,
        surf: usize,
        surface: &Surface,
        seam_uses: &mut Vec<usize>,
    ) -> Result<Option<Loop>, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        let source = self.ex.instances.get(idx).map_or(0, |i| i.id);
        match &*name {
            b"EDGE_LOOP" => {
                let mut coedges = Vec::new();
                for oe in a.refs(1)? {
                    coedges.push(self.coedge(oe, surf, surface, seam_uses)?);
                }
                Ok(Some(Loop { coedges, source }))
            }
            b"VERTEX_LOOP" => {
                self.vertex(a.reference(1)?)?;
                Ok(None)
            }
            b"POLY_LOOP" => {
                let pts = a.refs(1)?;
                let mut p = Vec::with_capacity(pts.len());
                for r in pts {
                    p.push(self.point(r)?);
                }
                let n = p.len();
                if n < 3 {
                    return Err(a.count_err("polygon vertex count", n as i64));
                }
                let coedges = (0..n)
                    .map(|k| Coedge {
                        edge: None,
                        forward: true,
                        pcurve: None,
                        curve: Some(CurveSegment {
                            curve: Curve::Polyline(vec![p[k], p[(k + 1) % n]]),
                            t0: 0.0,
                            t1: 1.0,
                            forward: true,
                        }),
                        pcurve_preferred: false,
                        source,
                    })
                    .collect();
                Ok(Some(Loop { coedges, source }))
            }
            _ => Err(a.err("expected an EDGE_LOOP, VERTEX_LOOP or POLY_LOOP")),
        }
    }

    /// ADVANCED_FACE / FACE_SURFACE → Model face index (shared between shells
    /// and placed instances).
    pub fn face(&mut self, idx: usize) -> Result<usize, StepError> {
        if let Some(f) = Self::mapped(&self.face_map, idx) {
            return Ok(f);
        }
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        if !matches!(&*name, b"ADVANCED_FACE" | b"FACE_SURFACE") {
            return Err(a.err("expected an ADVANCED_FACE or FACE_SURFACE"));
        }
        let bounds = a.refs(1)?;
        let surf = a.reference(2)?;
        let same_sense = a.boolean(3, true)?;
        let surface = self.surface_for(surf, false)?;
        let mut outer = None;
        let mut inner = Vec::new();
        let mut seam_uses = Vec::new();
        for b in bounds {
            let ba = self.simple(b);
            let bname = super::access::upper(ba.entity);
            let is_outer = match &*bname {
                b"FACE_OUTER_BOUND" => true,
                b"FACE_BOUND" => false,
                _ => return Err(ba.err("expected a FACE_BOUND or FACE_OUTER_BOUND")),
            };
            let orientation = ba.boolean(2, true)?;
            let Some(mut lp) = self.face_loop(ba.reference(1)?, surf, &surface, &mut seam_uses)? else {
                continue;
            };
            if !orientation {
                lp.coedges.reverse();
                for c in &mut lp.coedges {
                    c.forward = !c.forward;
                    if let Some(s) = c.pcurve.as_mut() {
                        s.forward = !s.forward;
                    }
                    if let Some(s) = c.curve.as_mut() {
                        s.forward = !s.forward;
                    }
                }
            }
            lp.source = self.ex.instances.get(b).map_or(lp.source, |i| i.id);
            if is_outer && outer.is_none() {
                outer = Some(lp);
            } else {
                inner.push(lp);
            }
        }
        if outer.is_none() && !inner.is_empty() {
            outer = Some(inner.remove(0));
        }
        let f = self.model.faces.len();
        for lp in outer.iter().chain(inner.iter()) {
            for c in &lp.coedges {
                if let Some(e) = c.edge.and_then(|e| self.model.edges.get_mut(e)) {
                    if !e.faces.contains(&f) {
                        e.faces.push(f);
                    }
                }
            }
        }
        self.surface_in_face(surf, f);
        self.model.faces.push(Face {
            surface,
            same_sense,
            outer,
            inner,
            source: self.ex.instances.get(idx).map_or(0, |i| i.id),
        });
        Self::set_mapped(&mut self.face_map, idx, f);
        Ok(f)
    }

    /// CLOSED_SHELL / OPEN_SHELL / ORIENTED_CLOSED_SHELL / ORIENTED_OPEN_SHELL → Shell.
    pub fn shell(&mut self, idx: usize, void: bool) -> Result<Shell, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        let source = self.ex.instances.get(idx).map_or(0, |i| i.id);
        match &*name {
            b"CLOSED_SHELL" | b"OPEN_SHELL" | b"CONNECTED_FACE_SET" => {
                let mut faces = Vec::new();
                for f in a.refs(1)? {
                    faces.push(self.face(f)?);
                }
                Ok(Shell {
                    faces,
                    closed: &*name == b"CLOSED_SHELL",
                    void,
                    source,
                })
            }
            b"ORIENTED_CLOSED_SHELL" | b"ORIENTED_OPEN_SHELL" => {
                self.enter(idx, "oriented shell")?;
                let r = a.reference(2).and_then(|s| self.shell(s, void));
                self.leave(idx);
                let mut s = r?;
                s.source = source;
                // `.F.`: the shell is used reversed (a void's faces then face into the void)
                if !a.boolean(3, true)? {
                    for &f in &s.faces {
                        if let Some(face) = self.model.faces.get_mut(f) {
                            face.same_sense = !face.same_sense;
                        }
                    }
                }
                Ok(s)
            }
            _ => Err(a.err("expected a CLOSED_SHELL or OPEN_SHELL")),
        }
    }
}

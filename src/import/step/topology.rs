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
use crate::geom::Vec3;
use crate::import::model::{Coedge, Curve, CurveSegment, Edge, Face, Loop, Model, Shell, Surface, Vertex, VertexLoop};

/// A face bound as read: a loop of edges (or a polygon), or a single vertex.
enum Bound {
    Edges(Loop),
    Vertex(usize),
}

/// The roles of a face's FACE_BOUNDs when the file names no outer bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopRoles {
    /// Loop `k` runs counter-clockwise about the face normal: the outer loop.
    Outer(usize),
    /// Every loop runs clockwise on a closed surface: all are holes, and the
    /// face is the rest of the surface.
    AllHoles,
    /// Not decidable from the orientation (a loop winds around a period, or
    /// a loop is too small to sample).
    Unknown,
}

/// The roles of the loops `loops` (all FACE_BOUNDs) of a face on `surface`:
/// the signed area of each loop in the surface's parameters, times the face
/// sense, is positive for an outer loop and negative for a hole. Loops that
/// wind around a period enclose no area, so then the roles are
/// [`LoopRoles::Unknown`]; so they are when every loop is a hole on a
/// surface that is not closed (no face lies outside all its bounds there).
pub fn loop_roles(model: &Model, surface: &Surface, same_sense: bool, loops: &[Loop]) -> LoopRoles {
    let face = Face {
        surface: surface.clone(),
        same_sense,
        outer: None,
        inner: loops.to_vec(),
        source: 0,
    };
    let trim = crate::import::eval::FaceTrim::new(model, &face);
    if trim.loops.len() != loops.len() {
        return LoopRoles::Unknown;
    }
    let sigma = if same_sense { 1.0 } else { -1.0 };
    let mut first_outer = None;
    for (k, l) in trim.loops.iter().enumerate() {
        let (Some(a), Some(b)) = (l.first(), l.last()) else {
            return LoopRoles::Unknown;
        };
        let far = |d: f64, t: Option<f64>| t.is_some_and(|t| d.abs() > 0.5 * t);
        if far(b.0 - a.0, trim.periods.0) || far(b.1 - a.1, trim.periods.1) {
            return LoopRoles::Unknown;
        }
        let n = l.len();
        let twice_area: f64 = (0..n)
            .map(|i| {
                let (p, q) = (l[i], l[(i + 1) % n]);
                p.0 * q.1 - q.0 * p.1
            })
            .sum();
        if !twice_area.is_finite() || twice_area == 0.0 {
            return LoopRoles::Unknown;
        }
        if twice_area * sigma > 0.0 && first_outer.is_none() {
            first_outer = Some(k);
        }
    }
    match first_outer {
        Some(k) => LoopRoles::Outer(k),
        None if trim.periods.0.is_some() || trim.periods.1.is_some() => LoopRoles::AllHoles,
        None => LoopRoles::Unknown,
    }
}

/// How a p-curve's range relates to its edge ([`pcurve_range`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PcurveRange {
    /// The edge's 3-D range already places both vertices on the p-curve's
    /// image: the two parameterisations agree at the ends.
    Same,
    /// The p-curve's own range: the parameters of the start and end vertex
    /// (`t0 < t1`), `reversed` when the p-curve runs against the 3-D curve.
    Found {
        /// Parameter of the first end.
        t0: f64,
        /// Parameter of the second end.
        t1: f64,
        /// The p-curve's parameter increases from the edge's end vertex to
        /// its start vertex.
        reversed: bool,
    },
    /// Neither: no range of the p-curve joins the vertices along the edge.
    NotFound,
}

/// Samples per p-curve when searching its vertices.
const PCURVE_SAMPLES: usize = 256;

/// The range of the p-curve `pc` on `surface` used by the edge `ed` whose
/// start (at `ed.t0`) and end vertices are `p0` and `p1`.
///
/// A p-curve need not share its 3-D curve's parameterisation (a rational
/// B-spline circle is not parametrised by the angle, and a line in `(u, v)`
/// need not run at unit speed), so the range is found on the p-curve itself:
/// each vertex is placed at the parameters where the p-curve's image
/// `S(pc(t))` passes closest to it (every near-global minimum kept, so that
/// a closed p-curve offers both ends of its domain), and of the pairs the
/// one whose middle lies on the 3-D edge is taken (the branch of a closed
/// p-curve, the traversal direction). The 3-D range is kept ([`PcurveRange::Same`])
/// when it already puts both vertices on the image.
pub fn pcurve_range(surface: &Surface, pc: &Curve, ed: &Edge, p0: Vec3, p1: Vec3) -> PcurveRange {
    let image = |t: f64| -> Option<Vec3> {
        let q = pc.eval(t);
        let p = surface.eval(q.x, q.y);
        (p.x.is_finite() && p.y.is_finite() && p.z.is_finite()).then_some(p)
    };
    let dist = |t: f64, p: &Vec3| image(t).map_or(f64::INFINITY, |q| (q - p).norm());
    let scale = 1.0 + p0.norm().max(p1.norm());
    let same_tol = 1e-9 * scale;
    let (c0, c1) = (dist(ed.t0, &p0), dist(ed.t1, &p1));
    if c0 <= same_tol && c1 <= same_tol {
        return PcurveRange::Same;
    }
    let (lo, hi) = pc.natural_range().unwrap_or_else(|| {
        // an unbounded p-curve (a line): around the 3-D range, generously
        let w = (ed.t1 - ed.t0).abs().max(1.0);
        (ed.t0.min(ed.t1) - 4.0 * w, ed.t0.max(ed.t1) + 4.0 * w)
    });
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return PcurveRange::NotFound;
    }
    let n = PCURVE_SAMPLES;
    let ts: Vec<f64> = (0..=n).map(|i| lo + (hi - lo) * i as f64 / n as f64).collect();
    let candidates = |p: &Vec3| -> Vec<(f64, f64)> {
        let d: Vec<f64> = ts.iter().map(|&t| dist(t, p)).collect();
        let mut out: Vec<(f64, f64)> = Vec::new();
        for i in 0..=n {
            let left = if i == 0 { f64::INFINITY } else { d[i - 1] };
            let right = if i == n { f64::INFINITY } else { d[i + 1] };
            if !(d[i] <= left && d[i] <= right && d[i].is_finite()) {
                continue;
            }
            // golden-section refinement inside the neighbouring samples
            let (mut a, mut b) = (ts[i.saturating_sub(1)], ts[(i + 1).min(n)]);
            let g = 0.5 * (5f64.sqrt() - 1.0);
            let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
            let (mut f1, mut f2) = (dist(x1, p), dist(x2, p));
            for _ in 0..80 {
                if f1 <= f2 {
                    b = x2;
                    x2 = x1;
                    f2 = f1;
                    x1 = b - g * (b - a);
                    f1 = dist(x1, p);
                } else {
                    a = x1;
                    x1 = x2;
                    f1 = f2;
                    x2 = a + g * (b - a);
                    f2 = dist(x2, p);
                }
            }
            let mut best = if f1 <= f2 { (x1, f1) } else { (x2, f2) };
            // the sample itself (a domain end) may be the minimum
            if d[i] < best.1 {
                best = (ts[i], d[i]);
            }
            out.push(best);
        }
        let m = out.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        out.retain(|c| c.1 <= (10.0 * m).max(m + 1e-7 * scale));
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out.truncate(4);
        out
    };
    let (a, b) = (candidates(&p0), candidates(&p1));
    let edge = CurveSegment {
        curve: ed.curve.clone(),
        t0: ed.t0,
        t1: ed.t1,
        forward: true,
    };
    let size = (edge.eval_unit(0.5).p - p0).norm() + (p1 - p0).norm();
    let mut best: Option<(f64, f64, f64, f64)> = None; // (ta, tb, ranking, end distance)
    for &(ta, da) in &a {
        for &(tb, db) in &b {
            if (ta - tb).abs() <= 1e-12 * (1.0 + (hi - lo).abs()) {
                continue;
            }
            // direction-sensitive ranking: the pair's image against the
            // edge at the same fractions (the parameterisations differ, but
            // a wrong branch or direction is far off)
            let rank: f64 = [0.25, 0.5, 0.75]
                .iter()
                .map(|&s| image(ta + (tb - ta) * s).map_or(f64::INFINITY, |q| (q - edge.eval_unit(s).p).norm()))
                .sum();
            if best.map_or(true, |bb| rank < bb.2) {
                best = Some((ta, tb, rank, da.max(db)));
            }
        }
    }
    // the chosen pair's image must lie on the 3-D edge
    let on_edge = |ta: f64, tb: f64| -> f64 {
        [0.25, 0.5, 0.75]
            .iter()
            .map(|&s| {
                image(ta + (tb - ta) * s).map_or(f64::INFINITY, |q| {
                    crate::import::eval::distance_to_curve_range(&ed.curve, ed.t0, ed.t1, &q)
                })
            })
            .fold(0.0, f64::max)
    };
    let best = best.map(|(ta, tb, _, de)| (ta, tb, on_edge(ta, tb), de));
    match best {
        Some((ta, tb, dm, de)) if de < c0.max(c1) && dm <= 1e-2 * size + 10.0 * de + same_tol => PcurveRange::Found {
            t0: ta.min(tb),
            t1: ta.max(tb),
            reversed: tb < ta,
        },
        _ => PcurveRange::NotFound,
    }
}

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
        let point = self.point(a.reference_to(1, super::access::POINT)?)?;
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
        let vs = self.vertex(a.reference_to(1, super::access::VERTEX)?)?;
        let ve = self.vertex(a.reference_to(2, super::access::VERTEX)?)?;
        let geom = a.reference_to(3, super::access::CURVE)?;
        let curve = self.curve(geom)?;
        let ps = self.model.vertices.get(vs).map(|v| v.point).unwrap_or_default();
        let pe = self.model.vertices.get(ve).map(|v| v.point).unwrap_or_default();
        // parameters along the curve direction
        let (from, to, vfrom, vto) = if same { (ps, pe, vs, ve) } else { (pe, ps, ve, vs) };
        let mut t0 = crate::import::eval::curve_param_of(&curve, &from);
        let mut t1 = crate::import::eval::curve_param_toward(&curve, &to, true);
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
        // the vertices bound the edge: a curve whose ends miss them beyond
        // the tolerance is repaired (a line) or reported (`edge_ends`)
        let (curve, t0, t1) = self.meet_vertices(idx, geom, curve, (t0, t1), (start, end));
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

    /// Edge `idx`'s `curve` over `t` between its vertices `v` (start at
    /// `t.0`): unchanged when its ends lie within the context's tolerance of
    /// the vertices, else the line through the vertices for a LINE, the
    /// curve itself otherwise, noted for the warnings
    /// ([`super::edge_ends`]).
    fn meet_vertices(
        &mut self,
        idx: usize,
        geom: usize,
        curve: Curve,
        t: (f64, f64),
        v: (usize, usize),
    ) -> (Curve, f64, f64) {
        use super::edge_ends::{check_ends, EndsCheck, EndsNote, DEFAULT_GAP_TOLERANCE, MIN_GAP_TOLERANCE};
        let point = |k: usize| self.model.vertices.get(k).map(|v| v.point);
        let (Some(p0), Some(p1)) = (point(v.0), point(v.1)) else {
            return (curve, t.0, t.1);
        };
        let tol = self
            .uncertainty
            .filter(|u| *u > 0.0)
            .unwrap_or(DEFAULT_GAP_TOLERANCE)
            .max(MIN_GAP_TOLERANCE);
        let (out, gap, replaced) = match check_ends(&curve, t.0, t.1, p0, p1, tol) {
            EndsCheck::Meets => return (curve, t.0, t.1),
            EndsCheck::Chord { curve, t0, t1, gap } => ((curve, t0, t1), gap, true),
            EndsCheck::Misses { gap } => ((curve, t.0, t.1), gap, false),
        };
        let id = |i: usize| self.ex.instances.get(i).map_or(0, |x| x.id);
        let kind = crate::import::escape::escape_bytes(&super::access::upper(self.type_name(geom)));
        self.edge_ends.push(EndsNote {
            edge: id(idx),
            curve: (id(geom), kind),
            gap,
            tol,
            replaced,
        });
        out
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
        // the schema's pcurve_or_surface: a surface is allowed (and unused)
        for pc in ga.refs_to(2, super::access::PCURVE_OR_SURFACE)? {
            let pa = self.simple(pc);
            if !pa.entity.eq_ignore_ascii_case(b"PCURVE") {
                continue;
            }
            if pa.reference_to(1, super::access::SURFACE)? == surf {
                out.push(pc);
            }
        }
        Ok(out)
    }

    /// PCURVE → 2-D curve (z = 0) in the Model's parameter units for `surface`.
    fn pcurve(&mut self, idx: usize, surface: &Surface) -> Result<Curve, StepError> {
        let a = self.simple(idx);
        let rep = a.reference_to(2, super::access::DEFINITIONAL_REPRESENTATION)?;
        let ra = self.simple(rep);
        // the schema's rule on a PCURVE: one item, a curve
        let items = ra.refs(1)?;
        if let Some(&c) = items.first() {
            ra.check(c, super::access::CURVE)?;
        }
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
                let mut e = a.reference_to(3, super::access::EDGE)?;
                let mut o = a.boolean(4, true)?;
                // an oriented edge of an oriented edge
                let mut guard = 0;
                while self.type_name(e).eq_ignore_ascii_case(b"ORIENTED_EDGE") && guard < 8 {
                    let ia = self.simple(e);
                    o = o == ia.boolean(4, true)?;
                    e = ia.reference_to(3, super::access::EDGE)?;
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
                match self.model.edges.get(e) {
                    Some(ed) => {
                        let vertex = |v: Option<usize>| v.and_then(|v| self.model.vertices.get(v)).map(|v| v.point);
                        let ends = vertex(ed.start).zip(vertex(ed.end));
                        let (t0, t1, reversed) = match ends.map(|(p0, p1)| pcurve_range(surface, &c, ed, p0, p1)) {
                            Some(PcurveRange::Found { t0, t1, reversed }) => (t0, t1, reversed),
                            Some(PcurveRange::NotFound) => {
                                self.pcurve_range_misses
                                    .push(self.ex.instances.get(pc).map_or(0, |i| i.id));
                                (ed.t0, ed.t1, false)
                            }
                            Some(PcurveRange::Same) | None => (ed.t0, ed.t1, false),
                        };
                        Some(CurveSegment {
                            curve: c,
                            t0,
                            t1,
                            forward: forward != reversed,
                        })
                    }
                    None => None,
                }
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

    /// A loop (EDGE_LOOP, POLY_LOOP), or the Model vertex of a VERTEX_LOOP.
    fn face_loop(
        &mut self,
        idx: usize,
        surf: usize,
        surface: &Surface,
        seam_uses: &mut Vec<usize>,
    ) -> Result<Bound, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        let source = self.ex.instances.get(idx).map_or(0, |i| i.id);
        match &*name {
            b"EDGE_LOOP" => {
                let mut coedges = Vec::new();
                // an EDGE_CURVE is read along its own sense, never silently
                for oe in a.refs_to(1, super::access::ORIENTED_EDGE)? {
                    coedges.push(self.coedge(oe, surf, surface, seam_uses)?);
                }
                Ok(Bound::Edges(Loop { coedges, source }))
            }
            b"VERTEX_LOOP" => Ok(Bound::Vertex(self.vertex(a.reference_to(1, super::access::VERTEX)?)?)),
            b"POLY_LOOP" => {
                let pts = a.refs_to(1, super::access::POINT)?;
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
                Ok(Bound::Edges(Loop { coedges, source }))
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
        if &*name == b"ORIENTED_FACE" {
            return self.oriented_face(idx);
        }
        if !matches!(&*name, b"ADVANCED_FACE" | b"FACE_SURFACE") {
            return Err(a.err("expected an ADVANCED_FACE or FACE_SURFACE"));
        }
        let bounds = a.refs_to(1, super::access::BOUND)?;
        let surf = a.reference_to(2, super::access::SURFACE)?;
        let same_sense = a.boolean(3, true)?;
        let surface = self.surface_for(surf, false)?;
        let mut outer = None;
        let mut inner = Vec::new();
        let mut seam_uses = Vec::new();
        let mut vertex_loops = Vec::new();
        for b in bounds {
            let ba = self.simple(b);
            let bname = super::access::upper(ba.entity);
            let is_outer = match &*bname {
                b"FACE_OUTER_BOUND" => true,
                b"FACE_BOUND" => false,
                _ => return Err(ba.err("expected a FACE_BOUND or FACE_OUTER_BOUND")),
            };
            let orientation = ba.boolean(2, true)?;
            let mut lp = match self.face_loop(ba.reference_to(1, super::access::LOOP)?, surf, &surface, &mut seam_uses)? {
                Bound::Edges(lp) => lp,
                Bound::Vertex(v) => {
                    vertex_loops.push((v, self.ex.instances.get(b).map_or(0, |i| i.id)));
                    continue;
                }
            };
            if !orientation {
                lp.reverse();
            }
            lp.source = self.ex.instances.get(b).map_or(lp.source, |i| i.id);
            if is_outer && outer.is_none() {
                outer = Some(lp);
            } else {
                inner.push(lp);
            }
        }
        if outer.is_none() && !inner.is_empty() {
            // Only FACE_BOUNDs: which loop is the outer one is told by the
            // loops' orientation (ISO 10303-42: the face lies on the left of
            // each bound, seen from the face normal), not by their order.
            match loop_roles(&self.model, &surface, same_sense, &inner) {
                LoopRoles::Outer(k) => outer = Some(inner.remove(k)),
                // the whole closed surface minus the holes
                LoopRoles::AllHoles => {}
                LoopRoles::Unknown => outer = Some(inner.remove(0)),
            }
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
        for (vertex, source) in vertex_loops {
            self.model.vertex_loops.push(VertexLoop {
                face: f,
                vertex,
                source,
            });
        }
        Ok(f)
    }

    /// CLOSED_SHELL / OPEN_SHELL / ORIENTED_CLOSED_SHELL / ORIENTED_OPEN_SHELL → Shell.
    pub fn shell(&mut self, idx: usize, void: bool) -> Result<Shell, StepError> {
        let a = self.simple(idx);
        let name = super::access::upper(a.entity);
        let source = self.ex.instances.get(idx).map_or(0, |i| i.id);
        match &*name {
            b"CLOSED_SHELL" | b"OPEN_SHELL" | b"CONNECTED_FACE_SET" => {
                let closed = &*name == b"CLOSED_SHELL";
                let mut faces = Vec::new();
                for f in a.refs_to(1, super::access::FACE)? {
                    // a face that cannot be read is dropped with a warning
                    // (the self-check reports it), not the whole file
                    if let Some(f) = self.face_or_drop(f, closed) {
                        faces.push(f);
                    }
                }
                Ok(Shell {
                    faces,
                    closed,
                    void,
                    source,
                })
            }
            b"ORIENTED_CLOSED_SHELL" | b"ORIENTED_OPEN_SHELL" => {
                self.enter(idx, "oriented shell")?;
                let r = a
                    .reference_to(2, super::access::SHELL)
                    .and_then(|s| self.shell(s, void));
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

//! Trimmed faces: 144 trimmed surface with 142 curves on surface, 143
//! bounded surface with 141 boundaries, bounded 108 planes and untrimmed
//! surfaces (a face on the natural parameter rectangle).

use super::directory::DirEntry;
use super::error::IgesError;
use super::reader::Reader;
use super::surfaces::{map_pcurve, SurfaceDef};
use super::transform::Affine;
use crate::geom::Vec3;
use crate::import::eval::FaceTrim;
use crate::import::model::{Coedge, Curve, CurveSegment, Face, Loop, Model};

fn split_composite(s: CurveSegment) -> Vec<CurveSegment> {
    match s.curve {
        Curve::Composite(parts) if s.forward => parts,
        Curve::Composite(parts) => parts
            .into_iter()
            .rev()
            .map(|p| CurveSegment {
                forward: !p.forward,
                ..p
            })
            .collect(),
        c => vec![CurveSegment { curve: c, ..s }],
    }
}

impl Reader<'_> {
    /// A p-curve (parameter space of `sd`), mapped to the Model surface's parameters.
    fn pcurve(&mut self, ptr: i64, from: &DirEntry, sd: &SurfaceDef) -> Result<CurveSegment, IgesError> {
        let s = self.curve(ptr, from, &Affine::identity())?;
        map_pcurve(s, &sd.pmap).map_err(|m| self.err(from, m))
    }

    /// A loop from a 142 curve on a parametric surface.
    fn loop_142(&mut self, ptr: i64, from: &DirEntry, sd: &SurfaceDef, a: &Affine) -> Result<Loop, IgesError> {
        let e = self.entry_of(ptr, from, 142, "boundary", "curve on surface")?;
        self.nested(&e, |r| {
            let mut p = r.params(&e)?;
            let _crtn = p.int()?;
            let _sptr = p.int()?;
            let bptr = p.int()?;
            let cptr = p.int()?;
            let pref = p.opt_int()?.unwrap_or(0);
            let pc = if bptr != 0 { Some(r.pcurve(bptr, &e, sd)?) } else { None };
            let c3 = if cptr != 0 { Some(r.curve(cptr, &e, a)?) } else { None };
            if pc.is_none() && c3.is_none() {
                return Err(r.err(
                    &e,
                    "curve on surface with neither a parameter-space nor a model-space curve",
                ));
            }
            let pc = match (pc, &c3) {
                (Some(b), Some(_)) if !in_domain(&b, sd) => {
                    r.notes.push(format!(
                        "142 DE {}: parameter-space curve DE {bptr} leaves the surface's parameter domain (preference flag {pref}): the model-space curve DE {cptr} is used",
                        e.de
                    ));
                    None
                }
                (b, _) => b,
            };
            let coedges = match (pc, c3) {
                (Some(b), Some(c)) => {
                    let bs = split_composite(b.clone());
                    let cs = split_composite(c.clone());
                    if bs.len() == cs.len() {
                        bs.into_iter()
                            .zip(cs)
                            .map(|(b, c)| coedge(Some(b), Some(c), e.de, pref))
                            .collect()
                    } else {
                        vec![coedge(Some(b), Some(c), e.de, pref)]
                    }
                }
                (Some(b), None) => split_composite(b)
                    .into_iter()
                    .map(|b| coedge(Some(b), None, e.de, pref))
                    .collect(),
                (None, Some(c)) => split_composite(c)
                    .into_iter()
                    .map(|c| coedge(None, Some(c), e.de, pref))
                    .collect(),
                (None, None) => Vec::new(),
            };
            Ok(Loop {
                coedges,
                source: e.de as u64,
            })
        })
    }

    /// A loop from a 141 boundary.
    fn loop_141(&mut self, ptr: i64, from: &DirEntry, sd: &SurfaceDef, a: &Affine) -> Result<Loop, IgesError> {
        let e = self.entry_of(ptr, from, 141, "boundary", "boundary")?;
        self.nested(&e, |r| {
            let mut p = r.params(&e)?;
            let _typ = p.int()?;
            // 141 preference: 2 = parameter space (142's 1)
            let pref = if p.int()? == 2 { 1 } else { 0 };
            let _sptr = p.int()?;
            let n = p.count(3, "boundary curve")?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                let c = p.int()?;
                let sense = p.int()?;
                let k = p.count(1, "parameter-space curve")?;
                let mut pcs = Vec::with_capacity(k);
                for _ in 0..k {
                    pcs.push(p.int()?);
                }
                items.push((c, sense, pcs));
            }
            let mut coedges = Vec::with_capacity(n);
            for (c, sense, pcs) in items {
                let c3 = if c != 0 { Some(r.curve(c, &e, a)?) } else { None };
                let mut parts = Vec::with_capacity(pcs.len());
                for q in pcs {
                    parts.push(r.pcurve(q, &e, sd)?);
                }
                let pc = match parts.len() {
                    0 => None,
                    1 => parts.pop(),
                    k => Some(CurveSegment {
                        curve: Curve::Composite(parts),
                        t0: 0.0,
                        t1: k as f64,
                        forward: true,
                    }),
                };
                let mut ce = coedge(pc, c3, e.de, pref);
                ce.forward = sense != 2;
                coedges.push(ce);
            }
            Ok(Loop {
                coedges,
                source: e.de as u64,
            })
        })
    }

    /// A face from a 144 trimmed surface.
    pub fn face_144(&mut self, e: &DirEntry, parent: &Affine) -> Result<Face, IgesError> {
        let a = self.placed(e, parent)?;
        let mut p = self.params(e)?;
        let pts = p.int()?;
        let n1 = p.int()?;
        let n2 = p.count(1, "inner boundary")?;
        let pto = p.int()?;
        let mut pti = Vec::with_capacity(n2);
        for _ in 0..n2 {
            pti.push(p.int()?);
        }
        let sd = self.surface(pts, e, &a)?;
        let outer = if n1 != 0 && pto != 0 {
            Some(self.loop_142(pto, e, &sd, &a)?)
        } else {
            None
        };
        let mut inner = Vec::with_capacity(n2);
        for q in pti {
            inner.push(self.loop_142(q, e, &sd, &a)?);
        }
        Ok(self.face_of(sd, outer, inner, e))
    }

    /// A face from a 143 bounded surface.
    pub fn face_143(&mut self, e: &DirEntry, parent: &Affine) -> Result<Face, IgesError> {
        let a = self.placed(e, parent)?;
        let mut p = self.params(e)?;
        let _typ = p.int()?;
        let sptr = p.int()?;
        let n = p.count(1, "boundary")?;
        let mut b = Vec::with_capacity(n);
        for _ in 0..n {
            b.push(p.int()?);
        }
        let sd = self.surface(sptr, e, &a)?;
        let mut loops = Vec::with_capacity(n);
        for q in b {
            loops.push(self.loop_141(q, e, &sd, &a)?);
        }
        let mut it = loops.into_iter();
        let outer = it.next();
        Ok(self.face_of(sd, outer, it.collect(), e))
    }

    /// A face from a bounded 108 plane (form ±1): the bounding curve is the outer loop.
    pub fn face_108(&mut self, e: &DirEntry, parent: &Affine) -> Result<Option<Face>, IgesError> {
        let a = self.placed(e, parent)?;
        let mut p = self.params(e)?;
        for _ in 0..4 {
            p.real()?;
        }
        let ptr = p.opt_int()?.unwrap_or(0);
        if ptr == 0 {
            return Ok(None);
        }
        let sd = self.surface_entity(e, parent)?;
        let c = self.curve(ptr, e, &a)?;
        let outer = Loop {
            coedges: split_composite(c)
                .into_iter()
                .map(|c| coedge(None, Some(c), e.de, 0))
                .collect(),
            source: ptr as u64,
        };
        Ok(Some(self.face_of(sd, Some(outer), Vec::new(), e)))
    }

    /// An untrimmed surface as a face on its natural parameter rectangle.
    pub fn face_untrimmed(&mut self, e: &DirEntry, parent: &Affine) -> Result<Option<Face>, IgesError> {
        let sd = self.surface_entity(e, parent)?;
        if sd.domain.is_none() {
            return Ok(None);
        }
        Ok(Some(self.face_of(sd, None, Vec::new(), e)))
    }

    fn face_of(&mut self, sd: SurfaceDef, mut outer: Option<Loop>, mut inner: Vec<Loop>, e: &DirEntry) -> Face {
        // A 144/143 face keeps its IGES surface's normal (as Open CASCADE
        // does). Where the Model surface's parameters are the IGES ones
        // mirrored (a 120 revolution's `(t, θ)` read as `(θ, t)`) its normal
        // is the reversed one, so the face is reversed. The loops stay as
        // they are: the mirror turns their direction in the parameter plane,
        // and the reversed sense turns it back about the face's normal.
        let same_sense = !sd.pmap.mirrors();
        let surface = sd.bounded();
        // On a surface closed in both directions a loop bounds two regions;
        // an outer loop clockwise about the face's normal (in the IGES
        // parameters) keeps the complement (as Open CASCADE reads it).
        let sigma = if same_sense { 1.0 } else { -1.0 };
        if let (Some(o), periods @ (Some(_), Some(_))) = (&outer, surface.periods()) {
            if loop_signed_area(o).is_some_and(|a| a * sigma < 0.0) && !spans_a_period(o, periods) {
                self.notes.push(format!(
                    "DE {}: clockwise outer boundary on a closed surface read as a hole in the whole surface",
                    e.de
                ));
                inner.insert(0, outer.take().unwrap_or_default());
            }
        }
        Face {
            surface,
            same_sense,
            outer,
            inner,
            source: e.de as u64,
        }
    }
}

/// IGES gives the holes of a 144/143 face no direction (Open CASCADE's
/// reader repairs its wires' directions); the Model's holes run clockwise
/// about the face's normal, as STEP's bounds do, so a face written to STEP
/// reads back with the same holes. Each hole of face `f` that runs the
/// other way in the face's parameters (its p-curves, or its 3-D curves
/// mapped onto the surface: [`FaceTrim`]) is reversed. On a surface closed
/// in both directions the direction is the loop's meaning (see
/// `face_of`) and stays; so it does for a loop that winds round a period.
pub fn orient_holes(m: &mut Model, f: usize) {
    let face = &m.faces[f];
    let periods = face.surface.periods();
    if face.inner.is_empty() || (periods.0.is_some() && periods.1.is_some()) {
        return;
    }
    let sigma = if face.same_sense { 1.0 } else { -1.0 };
    let trim = FaceTrim::new(m, face);
    let first_hole = usize::from(face.outer.is_some());
    if trim.loops.len() != first_hole + face.inner.len() {
        return;
    }
    let counter_clockwise: Vec<bool> = trim.loops[first_hole..]
        .iter()
        .map(|l| {
            let wraps = match (l.first(), l.last()) {
                (Some(a), Some(b)) => {
                    let far = |d: f64, t: Option<f64>| t.is_some_and(|t| d.abs() > 0.5 * t);
                    far(b.0 - a.0, periods.0) || far(b.1 - a.1, periods.1)
                }
                _ => true,
            };
            !wraps && twice_area(l) * sigma > 0.0
        })
        .collect();
    for (l, flip) in m.faces[f].inner.iter_mut().zip(counter_clockwise) {
        if flip {
            l.reverse();
        }
    }
}

/// Twice the signed area of a closed polygon in the parameter plane.
fn twice_area(l: &[(f64, f64)]) -> f64 {
    let n = l.len();
    (0..n)
        .map(|k| {
            let (a, b) = (l[k], l[(k + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum()
}

/// Signed area of a loop's p-curves in parameter space (`None` when a coedge has none).
fn loop_signed_area(l: &Loop) -> Option<f64> {
    let pts: Vec<(f64, f64)> = loop_pcurve_samples(l)?.iter().map(|p| (p.x, p.y)).collect();
    Some(0.5 * twice_area(&pts))
}

/// True when a loop's p-curves reach round a whole period of `periods` (up
/// to rounding: seam lines at 0 and 6.283185307): it bounds a band or the
/// whole closed surface, whatever its direction, never a hole.
fn spans_a_period(l: &Loop, periods: (Option<f64>, Option<f64>)) -> bool {
    let Some(pts) = loop_pcurve_samples(l) else {
        return false;
    };
    let extent = |k: usize| {
        let c = |p: &Vec3| if k == 0 { p.x } else { p.y };
        let lo = pts.iter().map(c).fold(f64::INFINITY, f64::min);
        let hi = pts.iter().map(c).fold(f64::NEG_INFINITY, f64::max);
        hi - lo
    };
    periods.0.is_some_and(|p| extent(0) >= p * (1.0 - 1e-6)) || periods.1.is_some_and(|p| extent(1) >= p * (1.0 - 1e-6))
}

/// The loop's p-curves sampled in order (`None` when a coedge has none or
/// fewer than 3 points result).
fn loop_pcurve_samples(l: &Loop) -> Option<Vec<Vec3>> {
    let mut pts = Vec::new();
    for c in &l.coedges {
        let pc = c.pcurve.as_ref()?;
        let mut s = pc.sample(32);
        if !c.forward {
            s.reverse();
        }
        pts.extend(s);
    }
    (pts.len() >= 3).then_some(pts)
}

/// True when a p-curve stays inside the surface's natural parameter box
/// (checked at 17 points, 1e-3 of the box's size slack; periodic directions
/// and unbounded surfaces are not checked). Some producers write model-space
/// coordinates into the parameter-space curve of a 142 (`iges_hm_nentity.igs`
/// DE 639: a circle at (6, 7.25) on a spline surface with `u ∈ [0, 1]`).
fn in_domain(b: &CurveSegment, sd: &SurfaceDef) -> bool {
    let Some(((u0, u1), (v0, v1))) = sd.domain else {
        return true;
    };
    let (su, sv) = ((u1 - u0).abs() * 1e-3, (v1 - v0).abs() * 1e-3);
    // the periods (which sample a spline surface) only matter for a point
    // outside the box, so they are computed at the first such point
    let mut periods = None;
    (0..=16).all(|k| {
        let p = b.point_at(k as f64 / 16.0);
        let in_u = p.x >= u0.min(u1) - su && p.x <= u0.max(u1) + su;
        let in_v = p.y >= v0.min(v1) - sv && p.y <= v0.max(v1) + sv;
        if in_u && in_v {
            return true;
        }
        let (pu, pv) = *periods.get_or_insert_with(|| sd.surface.periods());
        (pu.is_some() || in_u) && (pv.is_some() || in_v)
    })
}

fn coedge(pcurve: Option<CurveSegment>, curve: Option<CurveSegment>, de: usize, pref: i64) -> Coedge {
    Coedge {
        edge: None,
        forward: true,
        pcurve_preferred: pref == 1 && pcurve.is_some(),
        pcurve,
        curve,
        source: de as u64,
    }
}

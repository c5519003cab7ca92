//! B-rep solids (IGES 5.3 §4.7x): 186 manifold solid B-rep object, 514 shell,
//! 510 face, 508 loop, 504 edge list, 502 vertex list. Edges and vertices
//! are shared through the lists: one Model edge per `(504 entry, index)` and
//! one vertex per `(502 entry, index)` within one placed body.

use super::directory::DirEntry;
use super::error::IgesError;
use super::reader::Reader;
use super::surfaces::map_pcurve;
use super::transform::Affine;
use crate::geom::Vec3;
use crate::import::model::{Coedge, Edge, Face, Loop, Model, Shell, Vertex};
use std::collections::HashMap;

/// Shared edges and vertices of one placed body.
#[derive(Default)]
pub struct BrepCache {
    edges: HashMap<(usize, usize), usize>,
    vertices: HashMap<(usize, usize), usize>,
    vlists: HashMap<usize, Vec<Vec3>>,
}

impl Reader<'_> {
    /// A 186 solid: its outer shell and voids.
    pub fn solid_186(&mut self, e: &DirEntry, parent: &Affine, m: &mut Model) -> Result<Vec<Shell>, IgesError> {
        let a = self.placed(e, parent)?;
        let mut p = self.params(e)?;
        let shell = p.int()?;
        let sof = p.int_or(1)?;
        let n = p.count(2, "void shell")?;
        let mut voids = Vec::with_capacity(n);
        for _ in 0..n {
            voids.push((p.int()?, p.int_or(1)?));
        }
        let mut cache = BrepCache::default();
        let mut shells = vec![self.shell(shell, sof == 1, false, e, &a, m, &mut cache)?];
        for (v, of) in voids {
            shells.push(self.shell(v, of == 1, true, e, &a, m, &mut cache)?);
        }
        Ok(shells)
    }

    /// A shell (514) pointed to from `from`.
    #[allow(clippy::too_many_arguments)]
    pub fn shell(
        &mut self,
        ptr: i64,
        sense: bool,
        void: bool,
        from: &DirEntry,
        parent: &Affine,
        m: &mut Model,
        cache: &mut BrepCache,
    ) -> Result<Shell, IgesError> {
        let e = self.entry_of(ptr, from, 514, "shell", "shell")?;
        self.nested(&e, |r| {
            let a = r.placed(&e, parent)?;
            let mut p = r.params(&e)?;
            let n = p.count(2, "face")?;
            let mut fl = Vec::with_capacity(n);
            for _ in 0..n {
                fl.push((p.int()?, p.int_or(1)?));
            }
            let mut faces = Vec::with_capacity(n);
            for (f, of) in fl {
                let fe = r.entry_of(f, &e, 510, "face", "face")?;
                // a face that cannot be read is dropped (the self-check
                // reports it and the shell as incomplete), not the file
                let closed = e.form != 2;
                let same = (of == 1) == sense;
                if let Some(idx) = r.face_or_drop(&fe, closed, m, |r, m| {
                    let face_index = m.faces.len();
                    let got = r.nested(&fe, |r| r.face_510(&fe, same, &a, m, cache));
                    if got.is_err() {
                        // loops read before the failure linked their edges to it
                        for ed in &mut m.edges {
                            ed.faces.retain(|&f| f != face_index);
                        }
                    }
                    got
                }) {
                    faces.push(idx);
                }
            }
            // closed = the topology closes up (a 514 form 1 whose faces leave
            // edges used once is an open shell in fact)
            let closed = e.form != 2 && m.faces_close_up(&faces);
            Ok(Shell {
                faces,
                closed,
                void,
                source: e.de as u64,
            })
        })
    }

    /// A 510 face; pushes it to the Model and returns its index.
    pub fn face_510(
        &mut self,
        e: &DirEntry,
        same_sense: bool,
        parent: &Affine,
        m: &mut Model,
        cache: &mut BrepCache,
    ) -> Result<usize, IgesError> {
        if e.entity != 510 {
            return Err(self.err(e, "expected a 510 face"));
        }
        let a = self.placed(e, parent)?;
        let mut p = self.params(e)?;
        let surf = p.int()?;
        let n = p.count(1, "loop")?;
        let of = p.int()?;
        let mut lps = Vec::with_capacity(n);
        for _ in 0..n {
            lps.push(p.int()?);
        }
        let sd = self.surface(surf, e, &a)?;
        let face_index = m.faces.len();
        let mut loops = Vec::with_capacity(n);
        for l in lps {
            let le = self.entry_of(l, e, 508, "loop", "loop")?;
            let lp = self.nested(&le, |r| r.loop_508(&le, &sd, &a, face_index, m, cache))?;
            loops.push(lp);
        }
        // IGES 508 loops run counter-clockwise about the surface's normal
        // (the 510 face is read forward, the 514 flag then reverses it); the
        // Model's loops keep the face on their left seen from the face's own
        // outward normal
        if !same_sense {
            for l in &mut loops {
                l.reverse();
            }
        }
        let mut it = loops.into_iter();
        let outer = if of == 1 { it.next() } else { None };
        let surface = sd.bounded();
        // the 514 flag is the face's sense against the IGES surface's normal;
        // where the Model surface's parameters are the IGES ones mirrored (a
        // 120 revolution's `(t, θ)` read as `(θ, t)`), the Model surface's
        // normal is the reversed one, and so is the sense
        let same_sense = same_sense != sd.pmap.mirrors();
        m.faces.push(Face {
            surface,
            same_sense,
            outer,
            inner: it.collect(),
            source: e.de as u64,
        });
        Ok(face_index)
    }

    fn loop_508(
        &mut self,
        e: &DirEntry,
        sd: &super::surfaces::SurfaceDef,
        a: &Affine,
        face: usize,
        m: &mut Model,
        cache: &mut BrepCache,
    ) -> Result<Loop, IgesError> {
        let mut p = self.params(e)?;
        let n = p.count(5, "loop edge")?;
        struct Item {
            typ: i64,
            list: i64,
            ndx: i64,
            of: i64,
            pcurves: Vec<i64>,
        }
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            let typ = p.int()?;
            let list = p.int()?;
            let ndx = p.int()?;
            let of = p.int_or(1)?;
            let k = p.count(2, "parameter-space curve")?;
            let mut pcurves = Vec::with_capacity(k);
            for _ in 0..k {
                let _isop = p.int()?;
                pcurves.push(p.int()?);
            }
            items.push(Item {
                typ,
                list,
                ndx,
                of,
                pcurves,
            });
        }
        let mut coedges = Vec::with_capacity(n);
        for it in items {
            if it.typ == 1 {
                // a vertex loop (degenerate boundary): nothing to trim with
                continue;
            }
            let edge = self.edge_504(it.list, it.ndx, e, a, m, cache)?;
            if !m.edges[edge].faces.contains(&face) {
                m.edges[edge].faces.push(face);
            }
            let mut parts = Vec::with_capacity(it.pcurves.len());
            for q in it.pcurves {
                let s = self.curve(q, e, &Affine::identity())?;
                parts.push(map_pcurve(s, &sd.pmap).map_err(|msg| self.err(e, msg))?);
            }
            let mut pcurve = match parts.len() {
                0 => None,
                1 => parts.pop(),
                k => Some(crate::import::model::CurveSegment {
                    curve: crate::import::model::Curve::Composite(parts),
                    t0: 0.0,
                    t1: k as f64,
                    forward: true,
                }),
            };
            // The Model keeps p-curves along the edge (like STEP), `forward`
            // giving the loop sense. Writers differ (Open CASCADE writes them
            // along the loop, others along the edge): decide by geometry, and
            // by the orientation flag when the edge is closed.
            if let Some(pc) = pcurve.as_mut() {
                let ed = &m.edges[edge];
                let e0 = ed.curve.eval_d1(ed.t0).p;
                let e1 = ed.curve.eval_d1(ed.t1).p;
                let s0 = sd.surface.eval(pc.point_at(0.0).x, pc.point_at(0.0).y);
                let s1 = sd.surface.eval(pc.point_at(1.0).x, pc.point_at(1.0).y);
                let along = (s0 - e0).norm() + (s1 - e1).norm();
                let against = (s0 - e1).norm() + (s1 - e0).norm();
                let closed = (e0 - e1).norm() <= 1e-9 * (1.0 + e0.norm());
                let reverse = if closed || !(along.is_finite() && against.is_finite()) {
                    it.of != 1
                } else {
                    against < along
                };
                if reverse {
                    pc.forward = !pc.forward;
                }
            }
            coedges.push(Coedge {
                edge: Some(edge),
                forward: it.of == 1,
                pcurve,
                curve: None,
                pcurve_preferred: false,
                source: e.de as u64,
            });
        }
        Ok(Loop {
            coedges,
            source: e.de as u64,
        })
    }

    fn edge_504(
        &mut self,
        list: i64,
        ndx: i64,
        from: &DirEntry,
        a: &Affine,
        m: &mut Model,
        cache: &mut BrepCache,
    ) -> Result<usize, IgesError> {
        let le = self.entry_of(list, from, 504, "edge list", "edge list")?;
        if ndx < 1 {
            return Err(self.err(from, format!("edge index {ndx} must be at least 1")));
        }
        let key = (le.de, ndx as usize);
        if let Some(&i) = cache.edges.get(&key) {
            return Ok(i);
        }
        let (curve, sv, svi, tv, tvi) = {
            let mut p = self.params(&le)?;
            let n = p.count(5, "edge")?;
            if ndx as usize > n {
                return Err(self.err(
                    from,
                    format!("edge index {ndx} beyond the {n} edges of list DE {}", le.de),
                ));
            }
            for _ in 0..(ndx as usize - 1) * 5 {
                p.skip()?;
            }
            (p.int()?, p.int()?, p.int()?, p.int()?, p.int()?)
        };
        let seg = self.nested(&le, |r| r.curve(curve, &le, a))?;
        let start = self.vertex_502(sv, svi, &le, a, m, cache)?;
        let end = self.vertex_502(tv, tvi, &le, a, m, cache)?;
        let (start, end) = if seg.forward { (start, end) } else { (end, start) };
        let idx = m.edges.len();
        m.edges.push(Edge {
            curve: seg.curve,
            t0: seg.t0,
            t1: seg.t1,
            start: Some(start),
            end: Some(end),
            faces: Vec::new(),
            source: le.de as u64,
        });
        cache.edges.insert(key, idx);
        Ok(idx)
    }

    fn vertex_502(
        &mut self,
        list: i64,
        ndx: i64,
        from: &DirEntry,
        a: &Affine,
        m: &mut Model,
        cache: &mut BrepCache,
    ) -> Result<usize, IgesError> {
        let ve = self.entry_of(list, from, 502, "vertex list", "vertex list")?;
        let key = (ve.de, ndx.max(0) as usize);
        if let Some(&i) = cache.vertices.get(&key) {
            return Ok(i);
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = cache.vlists.entry(ve.de) {
            let av = self.placed(&ve, a)?;
            let mut p = self.params(&ve)?;
            let n = p.count(3, "vertex")?;
            let mut pts = Vec::with_capacity(n);
            for _ in 0..n {
                pts.push(av.point(&Vec3::from(p.xyz()?)));
            }
            slot.insert(pts);
        }
        let pts = cache.vlists.get(&ve.de).map_or(&[][..], |v| &v[..]);
        if ndx < 1 || ndx as usize > pts.len() {
            return Err(self.err(
                from,
                format!("vertex index {ndx} outside 1..={} of list DE {}", pts.len(), ve.de),
            ));
        }
        let point = pts[ndx as usize - 1];
        let idx = m.vertices.len();
        m.vertices.push(Vertex {
            point,
            source: ve.de as u64,
        });
        cache.vertices.insert(key, idx);
        Ok(idx)
    }
}

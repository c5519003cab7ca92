//! Comparison of the topology: bodies in order, their shells, faces, loops
//! and coedges in order, building the one-to-one correspondence of faces,
//! edges and vertices (shared entities must stay shared).

use super::walker::{pair, Cmp};
use crate::import::model::{Body, BodyKind, Coedge, Curve, CurveSegment, Loop, Surface};

impl<'a> Cmp<'a> {
    pub(super) fn body(&mut self, path: &str, x: &Body, y: &Body) {
        if !self.o.relax.names && x.name != y.name {
            self.diff(path, format!("name {:?} vs {:?}", x.name, y.name));
        }
        let kinds_ok = x.kind == y.kind
            || (self.o.relax.faces_as_open_shell
                && matches!(
                    (x.kind, y.kind),
                    (BodyKind::Faces, BodyKind::OpenShell) | (BodyKind::OpenShell, BodyKind::Faces)
                ));
        if !kinds_ok {
            self.diff(path, format!("kind {:?} vs {:?}", x.kind, y.kind));
        }
        let (fx, fy) = (
            crate::export::frame_of_pose(&x.placement),
            crate::export::frame_of_pose(&y.placement),
        );
        self.frame(&format!("{path} / placement"), &fx, &fy);
        if x.shells.len() != y.shells.len() {
            self.diff(path, format!("shell count {} vs {}", x.shells.len(), y.shells.len()));
        }
        for (k, (s, t)) in x.shells.iter().zip(&y.shells).enumerate() {
            let p = format!("{path} / shell {k}");
            // a loose-face body's shell is open; an open shell may be either
            if s.closed != t.closed && !self.o.relax.faces_as_open_shell {
                self.diff(&p, format!("closed {} vs {}", s.closed, t.closed));
            }
            if s.void != t.void {
                self.diff(&p, format!("void {} vs {}", s.void, t.void));
            }
            if s.faces.len() != t.faces.len() {
                self.diff(&p, format!("face count {} vs {}", s.faces.len(), t.faces.len()));
            }
            for (&f, &g) in s.faces.iter().zip(&t.faces) {
                let fp = format!("{p} / face {f}");
                match pair(&mut self.face_map, &mut self.face_rev, f, g) {
                    Ok(true) => self.face(&fp, f, g),
                    Ok(false) => {}
                    Err(m) => self.diff(&fp, format!("face sharing differs: {m}")),
                }
            }
        }
    }

    pub(super) fn face(&mut self, path: &str, f: usize, g: usize) {
        let (a, b) = (self.a, self.b);
        let (Some(x), Some(y)) = (a.faces.get(f), b.faces.get(g)) else {
            self.diff(path, "face index out of range");
            return;
        };
        self.out.matched.0 += 1;
        if x.same_sense != y.same_sense {
            self.diff(path, format!("same_sense {} vs {}", x.same_sense, y.same_sense));
        }
        self.surface(&format!("{path} / surface"), &x.surface, &y.surface);
        match (&x.outer, &y.outer) {
            (Some(l), Some(m)) => self.lp(&format!("{path} / outer"), l, m, f, g),
            (None, None) => {}
            (None, Some(l)) if self.o.relax.natural_boundaries && on_natural_rect(&y.surface, l) => {}
            _ => self.diff(
                path,
                format!("outer loop {} vs {}", x.outer.is_some(), y.outer.is_some()),
            ),
        }
        if x.inner.len() != y.inner.len() {
            self.diff(path, format!("hole count {} vs {}", x.inner.len(), y.inner.len()));
        }
        for (k, (l, m)) in x.inner.iter().zip(&y.inner).enumerate() {
            self.lp(&format!("{path} / hole {k}"), l, m, f, g);
        }
    }

    pub(super) fn lp(&mut self, path: &str, x: &Loop, y: &Loop, f: usize, g: usize) {
        if x.coedges.len() != y.coedges.len() {
            self.diff(path, format!("coedge count {} vs {}", x.coedges.len(), y.coedges.len()));
        }
        for (k, (c, d)) in x.coedges.iter().zip(&y.coedges).enumerate() {
            self.coedge(&format!("{path} / coedge {k}"), c, d, f, g);
        }
    }

    pub(super) fn coedge(&mut self, path: &str, c: &Coedge, d: &Coedge, _f: usize, _g: usize) {
        let (a, b) = (self.a, self.b);
        match (c.edge, d.edge) {
            (Some(e), Some(h)) => {
                if c.forward != d.forward {
                    self.diff(path, format!("forward {} vs {}", c.forward, d.forward));
                }
                let ep = format!("{path} / edge {e}");
                match pair(&mut self.edge_map, &mut self.edge_rev, e, h) {
                    Ok(true) => self.edge(&ep, e, h),
                    Ok(false) => {}
                    Err(m) => self.diff(&ep, format!("edge sharing differs: {m}")),
                }
            }
            (None, Some(h)) if self.o.relax.free_coedges_as_edges => {
                let (Some(seg), Some(ed)) = (&c.curve, b.edges.get(h)) else {
                    self.diff(path, "free coedge without a 3-D curve vs an edge");
                    return;
                };
                self.out.matched.1 += 1;
                let as_seg = CurveSegment {
                    curve: ed.curve.clone(),
                    t0: ed.t0,
                    t1: ed.t1,
                    forward: d.forward,
                };
                let mine = CurveSegment {
                    forward: c.forward == seg.forward,
                    ..seg.clone()
                };
                self.segment(&format!("{path} / free curve"), &mine, &as_seg, false);
            }
            (None, None) => match (&c.curve, &d.curve) {
                // free coedges compare by their traversal (the coedge's sense
                // composed with its segment's): a writer may store a reversed
                // segment as its reversed curve, flipping both flags
                (Some(s), Some(t)) => {
                    let traversal = |co: &Coedge, s: &CurveSegment| CurveSegment {
                        forward: co.forward == s.forward,
                        ..s.clone()
                    };
                    self.segment(&format!("{path} / curve"), &traversal(c, s), &traversal(d, t), false)
                }
                (None, None) => {
                    if c.forward != d.forward {
                        self.diff(path, format!("forward {} vs {}", c.forward, d.forward));
                    }
                }
                _ => self.diff(path, "3-D trim curve present on one side only"),
            },
            _ => self.diff(
                path,
                format!("shared edge {} vs {}", c.edge.is_some(), d.edge.is_some()),
            ),
        }
        // the IGES writer leaves out the p-curves of conic edges it writes as
        // rational B-splines (their parameter changes; see
        // `Relaxations::curves_by_evaluation`)
        let conic_edge = c.edge.and_then(|e| a.edges.get(e)).is_some_and(|ed| {
            matches!(
                ed.curve,
                Curve::Ellipse { .. } | Curve::Hyperbola { .. } | Curve::Parabola { .. }
            )
        });
        match (&c.pcurve, &d.pcurve) {
            (Some(s), Some(t)) => self.segment(&format!("{path} / pcurve"), s, t, true),
            (None, None) => {}
            (Some(_), None) if conic_edge && self.o.relax.curves_by_evaluation => {
                *self.out.relaxed.entry("p-curve of a conic edge left out").or_insert(0) += 1;
            }
            _ => self.diff(
                path,
                format!("p-curve {} vs {}", c.pcurve.is_some(), d.pcurve.is_some()),
            ),
        }
        let _ = a;
    }

    pub(super) fn edge(&mut self, path: &str, e: usize, h: usize) {
        let (a, b) = (self.a, self.b);
        let (Some(x), Some(y)) = (a.edges.get(e), b.edges.get(h)) else {
            self.diff(path, "edge index out of range");
            return;
        };
        self.out.matched.1 += 1;
        let sx = CurveSegment {
            curve: x.curve.clone(),
            t0: x.t0,
            t1: x.t1,
            forward: true,
        };
        let sy = CurveSegment {
            curve: y.curve.clone(),
            t0: y.t0,
            t1: y.t1,
            forward: true,
        };
        self.segment(path, &sx, &sy, false);
        for (name, u, v) in [("start", x.start, y.start), ("end", x.end, y.end)] {
            match (u, v) {
                (Some(i), Some(j)) => {
                    let vp = format!("{path} / {name} vertex {i}");
                    match pair(&mut self.vert_map, &mut self.vert_rev, i, j) {
                        Ok(true) => {
                            self.out.matched.2 += 1;
                            if let (Some(p), Some(q)) = (a.vertices.get(i), b.vertices.get(j)) {
                                self.vec(&vp, "point", &p.point, &q.point);
                            }
                        }
                        Ok(false) => {}
                        Err(m) => self.diff(&vp, format!("vertex sharing differs: {m}")),
                    }
                }
                (None, None) => {}
                _ => self.diff(path, format!("{name} vertex {u:?} vs {v:?}")),
            }
        }
        if x.faces.len() != y.faces.len() {
            self.diff(path, format!("adjacent faces {} vs {}", x.faces.len(), y.faces.len()));
        }
    }
}

/// True when every coedge of `l` has a straight p-curve on a side of the
/// surface's natural parameter rectangle (a B-spline's domain; a sphere's or
/// a surface of revolution's `[u_s, u_s + 2π] × [v0, v1]`, whose seam
/// meridian `u_s` the IGES writer may turn away from the holes).
fn on_natural_rect(s: &Surface, l: &Loop) -> bool {
    let (Some((u0, u1)), Some((v0, v1))) = s.natural_bounds() else {
        return false;
    };
    let any_u = s.periods().0.is_some();
    let at = |x: f64, a: f64| (x - a).abs() <= 1e-9 * (1.0 + a.abs());
    !l.coedges.is_empty()
        && l.coedges.iter().all(|c| match &c.pcurve {
            Some(CurveSegment {
                curve: Curve::Line { origin, dir },
                ..
            }) => {
                (dir.y == 0.0 && (at(origin.y, v0) || at(origin.y, v1)))
                    || (dir.x == 0.0 && (any_u || at(origin.x, u0) || at(origin.x, u1)))
            }
            _ => false,
        })
}

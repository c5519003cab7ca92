//! The check's own point-in-face test on a traced [`Region`], independent of
//! the preparation's trims.
//!
//! * Even-odd along a ray in `b` (towards an end of the surface that is not
//!   a pole, where the face cannot extend without a loop): the loops'
//!   directions do not matter, so a file whose loops are oriented
//!   inconsistently (IGES 144) is read as its loops say.
//! * On a surface with poles at both ends of `b` or periodic in both
//!   directions: even-odd in the unwrapped plane when every loop closes
//!   there, else the nearest loop crossing decides by the side it is on (the
//!   loops' orientation from the face's sense).
//!
//! * Through a pole (a side of the parameter domain that is one point in
//!   3-D: a sphere's pole, a cone's apex, a collapsed B-spline side) the
//!   traced nodes jump across the pole line, whose points are all the same
//!   3-D point: the loop's polygon follows the pole line there ([`Polygon`]),
//!   not the chord between the nodes, which would cut a sliver off the
//!   face (or add one) next to the pole.
//!
//! Runs of polygon segments carry boxes so that a test skips the runs no ray
//! or line of it can cross.

use super::Region;

/// Segments per [`Run`], and runs per group of runs.
const RUN: usize = 32;

/// The box in `(a, b)` of the segments `start..end` of a loop's
/// [`Polygon`] (segment `i` joins points `i` and `i + 1`, cyclically).
#[derive(Debug, Clone, Copy)]
pub(super) struct Run {
    start: usize,
    end: usize,
    lo: [f64; 2],
    hi: [f64; 2],
}

/// A loop as the tests see it: its traced nodes in `(a, b)` and, where a
/// step leaves or reaches a pole (a node where the surface collapses along
/// `a`, so that the line of constant `b` through it is one 3-D point; or
/// along `b`), the corner where the loop turns off the pole line: a node at
/// a sphere's pole, traced from a meridian through it, takes the `a` of the
/// node before it, and the next node lies half a period away; between them
/// the face's boundary runs along the pole line, not along the chord.
#[derive(Debug, Clone, Default)]
pub(super) struct Polygon {
    /// The points, in loop order.
    pts: Vec<[f64; 2]>,
    /// Segment `i` (points `i`, `i + 1`) bounds nothing: on a seam (an edge
    /// the face uses twice) or a step across half a period or more.
    skip: Vec<bool>,
}

/// A loop's [`Polygon`] with the boxes of its runs of segments and of its
/// groups of runs.
#[derive(Debug, Clone, Default)]
pub(super) struct LoopIndex {
    polygon: Polygon,
    runs: Vec<Run>,
    groups: Vec<Run>,
}

/// The surface collapses along `a` at a point where `|S_a| ≤ POLE·|S_b|`
/// (a node traced onto a pole lies on it up to rounding; the nodes next to
/// it are a quadrature step away, where the ratio is that step's order).
const POLE: f64 = 1e-7;

/// Most halvings of a chord in [`Region::follow_curves_within`] (a chord
/// bulging 4¹⁰ times the allowance ends as 1,024 chords).
const CHORD_SPLITS: u32 = 10;

/// True when some `x + k·per` (`k` any integer; `k = 0` without a period)
/// may lie in `[lo, hi]` (with a margin for rounding: never false when a
/// segment of the run could be crossed).
fn run_hit(lo: f64, hi: f64, x: f64, per: Option<f64>) -> bool {
    let eps = 1e-9 * (lo.abs() + hi.abs() + x.abs() + per.unwrap_or(0.0)) + 1e-300;
    match per {
        Some(p) if p > 0.0 => ((lo - eps - x) / p).ceil() <= ((hi + eps - x) / p).floor(),
        _ => lo - eps <= x && x <= hi + eps,
    }
}

impl Region<'_> {
    /// The side of loop `li` the face lies on, by the even-odd test at points
    /// just beside the middle of its longest non-seam segments (majority).
    pub(super) fn probe_side(&self, li: usize) -> Option<bool> {
        let l = &self.loops[li];
        let n = l.nodes.len();
        let mut segs: Vec<(f64, usize)> = (0..n)
            .filter(|&i| {
                let seam = l.nodes[i].seam && l.nodes[(i + 1) % n].seam;
                !(seam || self.wraps(l.nodes[i].ab, l.nodes[(i + 1) % n].ab))
            })
            .map(|i| {
                let (p, q) = (l.nodes[i].ab, l.nodes[(i + 1) % n].ab);
                ((q[0] - p[0]).hypot(q[1] - p[1]), i)
            })
            .filter(|s| s.0 > 0.0)
            .collect();
        segs.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (mut yes, mut no) = (0, 0);
        for &(len, i) in segs.iter().take(5) {
            let (p, q) = (l.nodes[i].ab, l.nodes[(i + 1) % n].ab);
            let m = [0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1])];
            let nrm = [-(q[1] - p[1]) / len, (q[0] - p[0]) / len];
            let d = 1e-4 * len;
            let lft = self.contains([m[0] + d * nrm[0], m[1] + d * nrm[1]]);
            let rgt = self.contains([m[0] - d * nrm[0], m[1] - d * nrm[1]]);
            if lft && !rgt {
                yes += 1;
            } else if rgt && !lft {
                no += 1;
            }
        }
        (yes + no > 0).then_some(yes >= no)
    }

    /// A step of a loop across half a period or more (the closing step of a
    /// loop that winds round, or a jump at a pole): no boundary.
    pub(super) fn wraps(&self, p: [f64; 2], q: [f64; 2]) -> bool {
        (0..2).any(|k| self.period[k].is_some_and(|per| (q[k] - p[k]).abs() > 0.5 * per))
    }

    /// Whether the surface collapses at `ab` along `a` (the line of
    /// constant `b` through it is one point: `[true, false]`) or along `b`.
    pub(super) fn collapsed(&self, ab: [f64; 2]) -> [bool; 2] {
        let (_, sa, sb) = self.derivs(ab);
        let (na, nb) = (sa.norm(), sb.norm());
        [na <= POLE * nb, nb <= POLE * na]
    }

    /// The polygon of loop `li` in `(a, b)`: its nodes, with the pole line
    /// put in where a step leaves or reaches a pole (see [`Polygon`]).
    fn polygon(&self, li: usize) -> Polygon {
        let l = &self.loops[li];
        let n = l.nodes.len();
        let mut pts = Vec::with_capacity(n + 4);
        let mut skip = Vec::with_capacity(n + 4);
        let size = (self.bbox[1][0] - self.bbox[0][0]).hypot(self.bbox[1][1] - self.bbox[0][1]);
        let scale = l.nodes.iter().map(|x| x.p.norm()).fold(0.0, f64::max) + self.perimeter;
        let flags: Vec<[bool; 2]> = l.nodes.iter().map(|x| self.collapsed(x.ab)).collect();
        for i in 0..n {
            let (np, nq) = (&l.nodes[i], &l.nodes[(i + 1) % n]);
            let (p, q) = (np.ab, nq.ab);
            pts.push(p);
            let off = (np.seam && nq.seam) || self.wraps(p, q);
            // the corners of the pole line: from a pole along it to the
            // next node's `a` (or `b`), or along it from the previous node's
            let (fp, fq) = (flags[i], flags[(i + 1) % n]);
            let mut corners: Vec<[f64; 2]> = Vec::new();
            if fp[0] && !fq[0] {
                corners.push([q[0], p[1]]);
            } else if (fq[0] && !fp[0]) || (fp[1] && !fq[1]) {
                corners.push([p[0], q[1]]);
            } else if fq[1] && !fp[1] {
                corners.push([q[0], p[1]]);
            }
            // a corner is on the pole line only where it is the pole's own
            // 3-D point (else the derivative vanished elsewhere: no line)
            corners.retain(|&c| {
                let (u, v) = self.to_uv(c);
                let at = if fp[0] || fp[1] { np.p } else { nq.p };
                let gap = (self.face.surface.eval(u, v) - at).norm();
                (c[0] - p[0]).hypot(c[1] - p[1]) > 1e-12 * size
                    && (c[0] - q[0]).hypot(c[1] - q[1]) > 1e-12 * size
                    && gap <= 1e-9 * scale
            });
            if corners.is_empty() {
                skip.push(off);
                // (along one traced curve, forwards: not the step that
                // closes a loop of one closed curve from its end to its start)
                if !(off || fp[0] || fp[1] || fq[0] || fq[1]) && np.seg == nq.seg && np.x < nq.x {
                    let mut mids = Vec::new();
                    self.follow_chord(np.seg, (np.x, p), (nq.x, q), 0, &mut mids);
                    for m in mids {
                        pts.push(m);
                        skip.push(false);
                    }
                }
            } else {
                // the pole line and the step off it bound the face even
                // where the jump is half a period or more
                skip.push(false);
                for c in corners {
                    pts.push(c);
                    skip.push(false);
                }
            }
        }
        Polygon { pts, skip }
    }

    /// The polygons of the loops (built again) follow the traced curves
    /// within `tol / 4` in 3-D: a chord between two traced nodes whose
    /// curve bulges farther from it (measured on the surface at its
    /// midpoint) is split at the curve's midpoint, at most
    /// [`CHORD_SPLITS`] times. A point between a chord and its curve was
    /// on the wrong side of the polygon, and then as far from the boundary
    /// as the bulge (step_rhino_fusee #290: 0.15 mm inside the face, its
    /// outer loop's 89 nodes 0.02 apart in `(a, b)` round a curved end);
    /// within `tol / 4` such a point is within the tolerance of the
    /// boundary whichever side the polygon puts it.
    pub fn follow_curves_within(&mut self, tol: f64) {
        self.chord_tolerance = tol;
        self.index = std::cell::OnceCell::new();
    }

    /// The points to put between the traced nodes at unit parameters `x0`
    /// and `x1` of segment `si` (see [`Self::follow_curves_within`]), in
    /// order.
    fn follow_chord(
        &self,
        si: usize,
        (x0, p): (f64, [f64; 2]),
        (x1, q): (f64, [f64; 2]),
        depth: u32,
        out: &mut Vec<[f64; 2]>,
    ) {
        let tol = 0.25 * self.chord_tolerance;
        if depth >= CHORD_SPLITS || !(tol.is_finite() && tol > 0.0) || x0 == x1 {
            return;
        }
        let (seg, param) = &self.segments[si];
        let xm = 0.5 * (x0 + x1);
        let (m, ..) = self.trace_at(seg, *param, xm, Some(p));
        let chord = [0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1])];
        let at = |ab: [f64; 2]| {
            let (u, v) = self.to_uv(ab);
            self.face.surface.eval(u, v)
        };
        let bulge = (at(m) - at(chord)).norm();
        if !(bulge > tol) || !m.iter().all(|x| x.is_finite()) {
            return;
        }
        self.follow_chord(si, (x0, p), (xm, m), depth + 1, out);
        out.push(m);
        self.follow_chord(si, (xm, m), (x1, q), depth + 1, out);
    }

    /// The polygon, runs and groups of runs of every loop (see [`Run`]).
    fn runs(&self) -> &[LoopIndex] {
        self.index.get_or_init(|| {
            (0..self.loops.len())
                .map(|li| {
                    let polygon = self.polygon(li);
                    let n = polygon.pts.len();
                    let runs: Vec<Run> = (0..n)
                        .step_by(RUN)
                        .map(|start| {
                            let end = (start + RUN).min(n);
                            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                            for i in start..=end {
                                let p = polygon.pts[i % n];
                                for k in 0..2 {
                                    lo[k] = lo[k].min(p[k]);
                                    hi[k] = hi[k].max(p[k]);
                                }
                            }
                            Run { start, end, lo, hi }
                        })
                        .collect();
                    let groups = (0..runs.len())
                        .step_by(RUN)
                        .map(|start| {
                            let end = (start + RUN).min(runs.len());
                            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                            for r in &runs[start..end] {
                                for k in 0..2 {
                                    lo[k] = lo[k].min(r.lo[k]);
                                    hi[k] = hi[k].max(r.hi[k]);
                                }
                            }
                            Run { start, end, lo, hi }
                        })
                        .collect();
                    LoopIndex { polygon, runs, groups }
                })
                .collect()
        })
    }

    /// The segments of loop `li` in the runs whose box `hit` accepts (in
    /// groups whose box it accepts).
    fn segments_hit<'a>(&'a self, li: usize, hit: impl Fn(&Run) -> bool + 'a) -> impl Iterator<Item = usize> + 'a {
        let LoopIndex { runs, groups, .. } = &self.runs()[li];
        let hit = std::rc::Rc::new(hit);
        let h2 = hit.clone();
        groups
            .iter()
            .filter(move |g| hit(g))
            .flat_map(move |g| {
                let h = h2.clone();
                runs[g.start..g.end].iter().filter(move |r| h(r))
            })
            .flat_map(|r| r.start..r.end)
    }

    /// Point-in-face test at `(a, b)` (see the module documentation).
    ///
    /// The even-odd rays are cast from the point moved by about 1e-9 of the
    /// loops' extent (an irrational mix of both directions): a ray from the
    /// exact point may run along a loop's straight segment (an edge at
    /// constant `a`, such as a line on a cylinder where the pieces are cut),
    /// whose nodes wobble round the ray by rounding and would count
    /// crossings at random. A point that near a loop is judged by its
    /// distance to the boundary anyway.
    pub fn contains(&self, ab: [f64; 2]) -> bool {
        let ext = |k: usize| {
            self.period[k]
                .unwrap_or((self.bbox[1][k] - self.bbox[0][k]).abs())
                .max(1e-12)
        };
        let moved = [ab[0] + 1.234_567e-9 * ext(0), ab[1] + 0.707_106_781e-9 * ext(1)];
        match (self.ray, self.contractible) {
            (Some(dir), _) => self.contains_even_odd(moved, dir),
            (None, true) => self.contains_tiled(moved),
            (None, false) => self.contains_by_side(ab),
        }
    }

    /// True when every loop closes in the unwrapped parameter plane (winds
    /// round no period).
    pub(super) fn loops_contractible(&self) -> bool {
        self.runs().iter().all(|ix| {
            let (pts, skip) = (&ix.polygon.pts, &ix.polygon.skip);
            let n = pts.len();
            let (f, e) = (pts[0], pts[n - 1]);
            (0..n).all(|i| !(skip[i] && self.wraps(pts[i], pts[(i + 1) % n])))
                && (0..2).all(|k| self.period[k].map_or(true, |p| (f[k] - e[k]).abs() < 0.25 * p))
        })
    }

    /// Even-odd in the unwrapped plane for loops that close there: each loop
    /// tested with the copies of the point that fall in its box.
    fn contains_tiled(&self, ab: [f64; 2]) -> bool {
        let mut inside = self.complement;
        for (li, ix) in self.runs().iter().enumerate() {
            let pts = &ix.polygon.pts;
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for g in &ix.groups {
                for k in 0..2 {
                    lo[k] = lo[k].min(g.lo[k]);
                    hi[k] = hi[k].max(g.hi[k]);
                }
            }
            let shifts = |k: usize| -> Vec<f64> {
                match self.period[k] {
                    Some(p) => {
                        let k0 = ((lo[k] - ab[k]) / p).floor() as i64;
                        let k1 = ((hi[k] - ab[k]) / p).ceil() as i64;
                        (k0..=k1.min(k0 + 3)).map(|j| ab[k] + j as f64 * p).collect()
                    }
                    None => vec![ab[k]],
                }
            };
            for a in shifts(0) {
                for b in shifts(1) {
                    let mut odd = false;
                    let n = pts.len();
                    for i in self.segments_hit(li, move |r| run_hit(r.lo[1], r.hi[1], b, None)) {
                        let (p, q) = (pts[i], pts[(i + 1) % n]);
                        if (p[1] > b) != (q[1] > b) && a < p[0] + (b - p[1]) / (q[1] - p[1]) * (q[0] - p[0]) {
                            odd = !odd;
                        }
                    }
                    if odd {
                        inside = !inside;
                    }
                }
            }
        }
        inside
    }

    /// Even-odd count of the loop crossings of the ray from `ab` along `b`
    /// (direction `dir`); `a` is taken modulo its period.
    fn contains_even_odd(&self, ab: [f64; 2], dir: f64) -> bool {
        let mut inside = false;
        for (li, ix) in self.runs().iter().enumerate() {
            let (pts, skip) = (&ix.polygon.pts, &ix.polygon.skip);
            let n = pts.len();
            let per = self.period[0];
            for i in self.segments_hit(li, move |r| run_hit(r.lo[0], r.hi[0], ab[0], per)) {
                if skip[i] {
                    continue;
                }
                let (p, q) = (pts[i], pts[(i + 1) % n]);
                let (lo, hi) = (p[0].min(q[0]), p[0].max(q[0]));
                let (per, k0, k1) = match self.period[0] {
                    Some(per) if per > 0.0 => {
                        let k0 = ((lo - ab[0]) / per).ceil() as i64;
                        let k1 = ((hi - ab[0]) / per).floor() as i64;
                        (per, k0, k1.min(k0 + 4))
                    }
                    _ => (0.0, 0, 0),
                };
                for k in k0..=k1 {
                    let x = ab[0] + k as f64 * per;
                    if !((p[0] <= x && x < q[0]) || (q[0] <= x && x < p[0])) {
                        continue;
                    }
                    let t = (x - p[0]) / (q[0] - p[0]);
                    let b = p[1] + t * (q[1] - p[1]);
                    if (b - ab[1]) * dir > 0.0 {
                        inside = !inside;
                    }
                }
            }
        }
        inside
    }

    /// The nearest crossing of the four axis rays through the point with a
    /// loop decides, by the side of that loop the point is on. With no
    /// crossing at all, the point is inside exactly when no loop is an outer
    /// loop (a closed surface minus holes).
    fn contains_by_side(&self, ab: [f64; 2]) -> bool {
        let (_, sa, sb) = self.derivs(ab);
        let (ma, mb) = (sa.norm().max(1e-12), sb.norm().max(1e-12));
        let mut best = (f64::INFINITY, false);
        let red = |x: f64, per: Option<f64>| match per {
            Some(p) => x - (x / p).round() * p,
            None => x,
        };
        for (li, (l, ix)) in self.loops.iter().zip(self.runs()).enumerate() {
            let (pts, skip) = (&ix.polygon.pts, &ix.polygon.skip);
            let n = pts.len();
            let per = self.period;
            let by_box =
                move |r: &Run| run_hit(r.lo[0], r.hi[0], ab[0], per[0]) || run_hit(r.lo[1], r.hi[1], ab[1], per[1]);
            for i in self.segments_hit(li, by_box) {
                let (p, q) = (pts[i], pts[(i + 1) % n]);
                let d = [q[0] - p[0], q[1] - p[1]];
                if (d[0] == 0.0 && d[1] == 0.0) || skip[i] {
                    continue;
                }
                for (axis, m_along) in [(1usize, ma), (0usize, mb)] {
                    let o = 1 - axis;
                    let (pl, ql) = (p[axis], q[axis]);
                    let (lo, hi) = (pl.min(ql), pl.max(ql));
                    let (k0, k1, pp) = match self.period[axis] {
                        Some(pp) if pp > 0.0 => {
                            let k0 = ((lo - ab[axis]) / pp).ceil() as i64;
                            let k1 = ((hi - ab[axis]) / pp).floor() as i64;
                            if k1 - k0 > 4 {
                                continue;
                            }
                            (k0, k1, pp)
                        }
                        _ => (0, 0, 0.0),
                    };
                    for x in (k0..=k1).map(|k| ab[axis] + k as f64 * pp) {
                        if !((pl <= x && x < ql) || (ql <= x && x < pl)) {
                            continue;
                        }
                        let t = (x - pl) / (ql - pl);
                        let c = p[o] + t * (q[o] - p[o]);
                        let dd = red(c - ab[o], self.period[o]);
                        let dist = dd.abs() * m_along;
                        if dist < best.0 {
                            let mut rr = [0.0; 2];
                            rr[o] = -dd;
                            let cross = d[0] * rr[1] - d[1] * rr[0];
                            best = (dist, (cross > 0.0) == l.left);
                        }
                    }
                }
            }
        }
        if best.0.is_finite() {
            return best.1;
        }
        self.loops.iter().zip(self.runs()).all(|(l, ix)| {
            let pts = &ix.polygon.pts;
            let n = pts.len();
            let mut s = 0.0;
            for i in 0..n {
                let (p, q) = (pts[i], pts[(i + 1) % n]);
                s += p[0] * q[1] - q[0] * p[1];
            }
            (s > 0.0) != l.left
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Region;
    use crate::geom::{Frame, Vec3};
    use crate::import::model::{Coedge, Curve, CurveSegment, Edge, Face, Loop, Model, SourceFormat, Surface};
    use std::f64::consts::{FRAC_PI_2, PI, TAU};

    /// A half circle of the unit sphere about the origin: from `from`
    /// through `via` (unit vectors, perpendicular), as an edge over `[0, π]`.
    fn half_circle(from: Vec3, via: Vec3) -> Edge {
        Edge {
            curve: Curve::Circle {
                frame: Frame {
                    origin: Vec3::zeros(),
                    x: from,
                    y: via,
                    z: from.cross(&via),
                },
                radius: 1.0,
            },
            t0: 0.0,
            t1: PI,
            start: None,
            end: None,
            faces: vec![0],
            source: 0,
        }
    }

    /// A coedge on edge `e` (no p-curve), or on the `(u, v)` line from `a`
    /// to `b` only (an IGES 142 free curve).
    fn coedge(e: Option<usize>, line: Option<([f64; 2], [f64; 2])>) -> Coedge {
        Coedge {
            edge: e,
            forward: true,
            pcurve: line.map(|(a, b)| CurveSegment {
                curve: Curve::Line {
                    origin: Vec3::new(a[0], a[1], 0.0),
                    dir: Vec3::new(b[0] - a[0], b[1] - a[1], 0.0),
                },
                t0: 0.0,
                t1: 1.0,
                forward: true,
            }),
            curve: None,
            pcurve_preferred: false,
            source: 0,
        }
    }

    /// One face on the unit sphere about the origin (`u` about `+z` from
    /// `+x`, `v` the latitude: its poles are the lines `v = ±π/2`).
    fn sphere_face(format: SourceFormat, same_sense: bool, outer: Vec<Coedge>, edges: Vec<Edge>) -> Model {
        let mut m = Model::new(format, "sphere");
        m.edges = edges;
        m.faces.push(Face {
            surface: Surface::Sphere {
                frame: Frame::world(),
                radius: 1.0,
            },
            same_sense,
            outer: Some(Loop {
                coedges: outer,
                source: 0,
            }),
            inner: Vec::new(),
            source: 1,
        });
        m
    }

    #[test]
    fn a_point_between_a_chord_and_its_curve_is_inside_once_the_polygon_follows_the_curve() {
        // a disc of radius 10 on the plane z = 0, bounded by a 3-D circle:
        // between two traced nodes the arc bulges beyond their chord, and a
        // point in the bulge (inside the disc) lay outside the polygon
        use super::super::tests::{edge, face_model, on_edge};
        let circle = Curve::Circle {
            frame: Frame::world(),
            radius: 10.0,
        };
        let m = face_model(
            Surface::Plane { frame: Frame::world() },
            Some(vec![on_edge(0, true)]),
            Vec::new(),
            vec![edge(circle, 0.0, TAU)],
        );
        let mut r = Region::new(&m, &m.faces[0]).expect("region");
        let nodes = &r.loops[0].nodes;
        let n = nodes.len();
        let gap = |i: usize| {
            let (p, q) = (nodes[i].p, nodes[(i + 1) % n].p);
            (p - q).norm()
        };
        let i = (0..n).max_by(|&a, &b| gap(a).total_cmp(&gap(b))).expect("nodes");
        let (p, q) = (nodes[i].p, nodes[(i + 1) % n].p);
        let mid = (p + q) * 0.5;
        let sagitta = 10.0 - mid.norm();
        assert!(sagitta > 1e-4, "the widest chord bulges {sagitta} mm");
        let dir = mid / mid.norm();
        let at = |rho: f64| {
            let x = dir * rho;
            r.to_ab(x.x, x.y)
        };
        let (bulge, beyond, inner, outer) = (at(10.0 - 0.5 * sagitta), at(10.0 + 1e-3), at(9.0), at(11.0));
        assert!(!r.contains(bulge), "the traced nodes' polygon leaves the bulge out");
        r.follow_curves_within(1e-5);
        assert!(
            r.contains(bulge),
            "inside the disc, {} mm from its circle",
            0.5 * sagitta
        );
        assert!(!r.contains(beyond) && r.contains(inner) && !r.contains(outer));
    }

    #[test]
    fn a_quarter_sphere_through_its_pole_keeps_the_points_next_to_the_pole() {
        // half the equator (u from 0 to π), then half the meridian of the
        // plane y = 0 from u = π over the pole back to u = 0 (3-D edges, as
        // sw2017_russian_part's 0.25 mm quarter spheres): the face is
        // [0, π] × [0, π/2]. The meridian's node on the pole takes the `a`
        // of the node before it (π) and the next node lies at a = 0: the
        // loop runs along the pole line between them, not along the chord
        // that cut off the points next to the pole at small a
        let (x, y, z) = (Vec3::x(), Vec3::y(), Vec3::z());
        let m = sphere_face(
            SourceFormat::Step,
            true,
            vec![coedge(Some(0), None), coedge(Some(1), None)],
            vec![half_circle(x, y), half_circle(-x, z)],
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (area, err) = r.area();
        assert!((area - PI).abs() < 1e-6, "{area} ± {err}");
        for a in [1e-3, 0.05, 0.5, FRAC_PI_2, PI - 0.5, PI - 0.05, PI - 1e-3] {
            for below in [1e-4, 1e-3, 0.01, 0.03, 0.3] {
                let b = FRAC_PI_2 - below;
                assert!(r.contains([a, b]), "({a}, {b}) inside");
                assert!(!r.contains([a + PI, b]), "({}, {b}) outside", a + PI);
                assert!(!r.contains([a, -b]), "({a}, {}) outside", -b);
            }
        }
    }

    #[test]
    fn a_lune_of_two_half_meridians_keeps_the_files_direction() {
        // the half meridians u = π/2 (up, from the south pole) and u = −π/2
        // (down): the lune |u| ≤ π/2 about +x, on the left of its loop. Each
        // half circle's ends meet both ends of the other (up to rounding),
        // so their direction cannot be told by their ends: the file's holds
        let (y, z) = (Vec3::y(), Vec3::z());
        let m = sphere_face(
            SourceFormat::Step,
            true,
            vec![coedge(Some(0), None), coedge(Some(1), None)],
            vec![half_circle(-z, y), half_circle(z, -y)],
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (area, err) = r.area();
        assert!((area - TAU).abs() < 1e-6, "{area} ± {err}");
        for b in [-FRAC_PI_2 + 1e-3, -1.0, 0.0, 1.0, FRAC_PI_2 - 1e-3] {
            for a in [-1.5, -0.5, 0.0, 0.5, 1.5] {
                assert!(r.contains([a, b]), "({a}, {b}) inside");
                assert!(!r.contains([a + PI, b]), "({}, {b}) outside", a + PI);
            }
        }
        // the reversed loop bounds the other lune
        let m = sphere_face(
            SourceFormat::Step,
            true,
            vec![coedge(Some(0), None), coedge(Some(1), None)],
            vec![half_circle(-z, -y), half_circle(z, y)],
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        assert!(!r.contains([0.0, 0.3]) && r.contains([PI, 0.3]));
    }

    #[test]
    fn an_iges_outer_boundary_through_a_pole_encloses_its_face() {
        // an IGES 144 outer boundary (free p-curves) on the quarter
        // [π/2, 3π/2] × [0, π/2] whose top side is the pole line,
        // with the reversed sense of a mirrored IGES 120: the loop runs
        // clockwise about the face's normal, which gives an IGES outer
        // boundary no other meaning (iges_sw2008_fuse #101: the quarter is
        // Open CASCADE's face and area)
        let c = [
            [FRAC_PI_2, 0.0],
            [3.0 * FRAC_PI_2, 0.0],
            [3.0 * FRAC_PI_2, FRAC_PI_2],
            [FRAC_PI_2, FRAC_PI_2],
        ];
        let outer = (0..4).map(|k| coedge(None, Some((c[k], c[(k + 1) % 4])))).collect();
        let m = sphere_face(SourceFormat::Iges, false, outer, Vec::new());
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (area, err) = r.area();
        assert!((area - PI).abs() < 1e-6, "{area} ± {err}");
        for a in [FRAC_PI_2 + 1e-3, PI, 3.0 * FRAC_PI_2 - 1e-3] {
            for b in [1e-3, 0.7, FRAC_PI_2 - 1e-3] {
                assert!(r.contains([a, b]), "({a}, {b}) inside");
                assert!(
                    !r.contains([a + PI, b]) && !r.contains([a, -b]),
                    "({a}, {b}) mirrored outside"
                );
            }
        }
    }
}

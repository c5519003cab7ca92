//! The Model face as the check sees it: its loops traced from the Model's own
//! p-curves (the 3-D edges, inverted onto the surface, where a coedge has no
//! p-curve), an independent point-in-face test and the face's trimmed area by
//! Green's theorem.
//!
//! Nothing here calls the preparation's trim code, nor the importer's
//! [`FaceTrim`](crate::import::eval::FaceTrim): only the Model's surface and
//! curve evaluation and its point projection (`crate::import::eval`).
//!
//! Coordinates: the face is handled in `(a, b)`, which is `(u, v)`, or
//! `(v, u)` when only `v` is periodic, so that `a` is always the periodic
//! direction when there is one.
//!
//! * **Point in face.** Even-odd along a ray in `b` (towards an end of the
//!   surface that is not a pole, where the face cannot extend without a
//!   loop): the loops' directions do not matter, so a file whose loops are
//!   oriented inconsistently (IGES 144) is read as its loops say. On a
//!   surface with poles at both ends of `b` or periodic in both directions
//!   the nearest loop crossing decides by the side it is on (the loops'
//!   orientation from the face's sense).
//! * **Area.** `∮ F db` with `F(a, b) = ∫_{a0}^{a} J(s, b) ds`
//!   (`J = |S_a × S_b|`), each loop signed by the side the face lies on
//!   (probed with the point-in-face test), plus the part of the seam
//!   `a = a0 + P` inside the face. The quadrature error is estimated by a
//!   second rule on the same loops (Simpson against 3-point Gauss) and a
//!   second rule for `F` (5 against 8 Gauss points).

use crate::geom::Vec3;
use crate::import::eval::{newton_surface, project_surface};
use crate::import::model::{Curve, CurveSegment, Face, Model, Surface};

/// 3-point Gauss–Legendre nodes and weights on `[0, 1]`.
const G3: [(f64, f64); 3] = [
    (0.112_701_665_379_258_3, 5.0 / 18.0),
    (0.5, 8.0 / 18.0),
    (0.887_298_334_620_741_7, 5.0 / 18.0),
];

/// The nodes `(s, Gauss weight, Simpson weight)` on `[0, 1]` cut into `n`
/// intervals: each interval's three Gauss points (the middle one also
/// carries Simpson's middle weight) and the interval ends (Simpson's end
/// weights), for the two quadrature orders whose difference bounds the
/// area's error.
fn quadrature_nodes(n: usize) -> Vec<(f64, f64, f64)> {
    let nf = n as f64;
    let mut pts = Vec::with_capacity(4 * n + 1);
    for i in 0..=n {
        pts.push((
            i as f64 / nf,
            0.0,
            if i == 0 || i == n { 1.0 } else { 2.0 } / (6.0 * nf),
        ));
        if i < n {
            pts.extend(
                G3.iter()
                    .enumerate()
                    .map(|(k, &(x, w))| ((i as f64 + x) / nf, w / nf, if k == 1 { 4.0 / (6.0 * nf) } else { 0.0 })),
            );
        }
    }
    pts
}

use super::piece::{G5, G8};

/// One traced point of a loop.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// `(a, b)`, unwrapped continuously along the loop.
    pub ab: [f64; 2],
    /// 3-D point (body-local).
    pub p: Vec3,
    /// `db/dx` (x the unit parameter of the coedge).
    pub db: f64,
    /// Gauss weight of the node (0 for interval ends).
    pub wg: f64,
    /// Simpson weight of the node (ends and midpoints).
    pub ws: f64,
    /// On a seam edge (used twice by the face): not a boundary in 3-D.
    pub seam: bool,
    /// Index into [`Region::segments`] and the unit parameter on it.
    pub seg: usize,
    /// The unit parameter on the segment.
    pub x: f64,
}

/// A traced loop.
#[derive(Debug, Clone, Default)]
pub struct TracedLoop {
    /// Nodes in loop order.
    pub nodes: Vec<Node>,
    /// The face lies on the left of the loop in `(a, b)`.
    pub left: bool,
}

/// A Model face prepared for the checks.
pub struct Region<'m> {
    /// The face.
    pub face: &'m Face,
    /// `(a, b) = (v, u)`.
    pub swap: bool,
    /// Periods of `a` and `b`.
    pub period: [Option<f64>; 2],
    /// Direction of the even-odd ray in `b` (`None`: see `contractible`).
    pub ray: Option<f64>,
    /// Without a ray: every loop closes in the unwrapped plane (even-odd
    /// there), else the nearest crossing decides by its side.
    pub contractible: bool,
    /// Traced loops.
    pub loops: Vec<TracedLoop>,
    /// The traced boundary curves (p-curves: `true`) for exact distances.
    pub segments: Vec<(CurveSegment, bool)>,
    /// Box of the loops in `(a, b)` (unwrapped).
    pub bbox: [[f64; 2]; 2],
    /// Sum of the 3-D lengths of the loops, mm.
    pub perimeter: f64,
    /// How precisely the file states the face's boundary, mm: the largest
    /// gap between consecutive curves of a loop and the largest distance of
    /// a p-curve from its 3-D curve.
    pub uncertainty: f64,
    /// The seam value `a0` (F = 0 there).
    pub a0: f64,
    /// Sub-intervals of `a` for the quadrature of `F` (knots of a B-spline).
    breaks: Vec<f64>,
    /// Start of the natural range of a periodic `a` (evaluations wrap into it).
    a_lo: f64,
    /// Boxes of runs of loop segments (built on the first point-in-face
    /// test), so that the tests skip runs no ray or line of theirs can cross.
    index: std::cell::OnceCell<Vec<(Vec<Run>, Vec<Run>)>>,
}

/// Segments per [`Run`], and runs per group of runs.
const RUN: usize = 32;

/// The box in `(a, b)` of the segments `start..end` of a loop (segment `i`
/// joins nodes `i` and `i + 1`, cyclically).
#[derive(Debug, Clone, Copy)]
struct Run {
    start: usize,
    end: usize,
    lo: [f64; 2],
    hi: [f64; 2],
}

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

fn seg_of(model: &Model, c: &crate::import::model::Coedge) -> Option<(CurveSegment, bool)> {
    // the p-curve first: exact in the surface's own parameters
    if let Some(p) = c
        .pcurve
        .as_ref()
        .filter(|p| p.t0.is_finite() && p.t1.is_finite() && p.t1 > p.t0)
    {
        return Some((p.clone(), true));
    }
    if let Some(e) = c.edge.and_then(|e| model.edges.get(e)) {
        if e.t1.is_finite() && e.t0.is_finite() && e.t0 != e.t1 {
            return Some((
                CurveSegment {
                    curve: e.curve.clone(),
                    t0: e.t0.min(e.t1),
                    t1: e.t0.max(e.t1),
                    forward: c.forward,
                },
                false,
            ));
        }
    }
    c.curve
        .as_ref()
        .filter(|s| s.t0.is_finite() && s.t1.is_finite())
        .map(|s| (s.clone(), false))
}

fn intervals(curve: &Curve) -> usize {
    match curve {
        Curve::Line { .. } => 2,
        Curve::Polyline(p) => p.len().clamp(2, 256),
        Curve::BSpline(b) => b.cw.len().clamp(4, 64),
        Curve::Composite(s) => (s.len() * 4).clamp(4, 256),
        _ => 12,
    }
}

impl<'m> Region<'m> {
    /// Maps `(u, v)` to `(a, b)`.
    pub fn to_ab(&self, u: f64, v: f64) -> [f64; 2] {
        if self.swap {
            [v, u]
        } else {
            [u, v]
        }
    }
    /// Maps `(a, b)` to `(u, v)`.
    pub fn to_uv(&self, ab: [f64; 2]) -> (f64, f64) {
        if self.swap {
            (ab[1], ab[0])
        } else {
            (ab[0], ab[1])
        }
    }

    fn surface(&self) -> &Surface {
        &self.face.surface
    }

    /// `(S, S_a, S_b)` at `ab`.
    fn derivs(&self, ab: [f64; 2]) -> (Vec3, Vec3, Vec3) {
        let (u, v) = self.to_uv(ab);
        let d = self.surface().eval_derivs(u, v);
        if self.swap {
            (d.p, d.sv, d.su)
        } else {
            (d.p, d.su, d.sv)
        }
    }

    /// The parameter box Newton may use around `(u, v)`.
    fn newton_box(&self, u: f64, v: f64) -> ((f64, f64), (f64, f64)) {
        let s = self.surface();
        let span = |k: usize| self.period[k].unwrap_or(1e300) * 0.25;
        let ((u0, u1), (v0, v1)) = s.domain().unwrap_or(((-1e300, 1e300), (-1e300, 1e300)));
        let (su, sv) = if self.swap {
            (span(1), span(0))
        } else {
            (span(0), span(1))
        };
        (
            ((u - su).max(u0).min(u), (u + su).min(u1).max(u)),
            ((v - sv).max(v0).min(v), (v + sv).min(v1).max(v)),
        )
    }

    /// Projection of `p` onto the surface from the hint `hint` (in `(a, b)`):
    /// Newton, and the global projection when Newton stays farther than
    /// `good`. Returns `(ab, distance)` with `ab` unwrapped next to the hint.
    pub fn project_near(&self, p: &Vec3, hint: Option<[f64; 2]>, good: f64) -> ([f64; 2], f64) {
        let s = self.surface();
        let (mut ab, d) = match hint.filter(|_| s.analytic_params(p).is_none()) {
            Some(h) => {
                let (u, v) = self.to_uv(h);
                let r = newton_surface(s, p, u, v, self.newton_box(u, v));
                if r.distance <= good {
                    (self.to_ab(r.u, r.v), r.distance)
                } else {
                    let g = self.project(p);
                    if g.1 < r.distance {
                        g
                    } else {
                        (self.to_ab(r.u, r.v), r.distance)
                    }
                }
            }
            None => self.project(p),
        };
        // unwrap next to the hint; a pole (a undefined) takes the hint's value
        for k in 0..2 {
            if !ab[k].is_finite() {
                ab[k] = hint.map_or(0.0, |h| h[k]);
            }
            if let (Some(per), Some(h)) = (self.period[k], hint) {
                ab[k] += ((h[k] - ab[k]) / per).round() * per;
            }
        }
        (ab, d)
    }

    /// Global projection: `(ab, distance)` (a at a pole is NaN).
    pub fn project(&self, p: &Vec3) -> ([f64; 2], f64) {
        let s = self.surface();
        if let Some((u, v)) = s.analytic_params(p) {
            let q = s.eval(if u.is_nan() { 0.0 } else { u }, v);
            return (self.to_ab(u, v), (q - p).norm());
        }
        let bounds = s.domain().unwrap_or_else(|| {
            let (a, b) = (self.bbox[0], self.bbox[1]);
            let ((u0, v0), (u1, v1)) = (self.to_uv(a), self.to_uv(b));
            let (du, dv) = ((u1 - u0).abs() * 0.1 + 1e-9, (v1 - v0).abs() * 0.1 + 1e-9);
            ((u0.min(u1) - du, u0.max(u1) + du), (v0.min(v1) - dv, v0.max(v1) + dv))
        });
        let r = project_surface(s, p, bounds, 12);
        (self.to_ab(r.u, r.v), r.distance)
    }

    /// Traces face `face` of `model`. `None` when the face has no usable
    /// boundary and no bounded natural domain.
    pub fn new(model: &'m Model, face: &'m Face) -> Option<Self> {
        let (pu, pv) = face.surface.periods();
        let swap = pu.is_none() && pv.is_some();
        let period = if swap { [pv, pu] } else { [pu, pv] };
        let sense_left = face.same_sense != swap;
        let mut r = Region {
            face,
            swap,
            period,
            ray: None,
            contractible: false,
            loops: Vec::new(),
            segments: Vec::new(),
            bbox: [[f64::INFINITY; 2], [f64::NEG_INFINITY; 2]],
            perimeter: 0.0,
            uncertainty: 0.0,
            a0: 0.0,
            breaks: Vec::new(),
            a_lo: 0.0,
            index: std::cell::OnceCell::new(),
        };
        let loops: Vec<&crate::import::model::Loop> = face.outer.iter().chain(face.inner.iter()).collect();
        let mut uses: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
        for l in &loops {
            for c in &l.coedges {
                if let Some(e) = c.edge {
                    *uses.entry(e).or_insert(0) += 1;
                }
            }
        }
        for l in &loops {
            let mut tl = TracedLoop::default();
            let mut prev: Option<[f64; 2]> = None;
            // the loop's curves with their end points (3-D)
            let mut chain: Vec<(CurveSegment, bool, bool, Vec3, Vec3)> = Vec::new();
            for c in &l.coedges {
                let Some((seg, param)) = seg_of(model, c) else {
                    continue;
                };
                let seam = c.edge.is_some_and(|e| uses.get(&e).copied().unwrap_or(0) >= 2);
                let point = |x: f64| {
                    let q = seg.eval_unit(x).p;
                    if param {
                        face.surface.eval(q.x, q.y)
                    } else {
                        q
                    }
                };
                let (s0, s1) = (point(0.0), point(1.0));
                // the file's own disagreement between the p-curve and the 3-D curve
                if param {
                    let other = c
                        .edge
                        .and_then(|e| model.edges.get(e))
                        .filter(|e| e.t0.is_finite() && e.t1.is_finite())
                        .map(|e| (&e.curve, e.t0.min(e.t1), e.t0.max(e.t1)))
                        .or_else(|| c.curve.as_ref().map(|s| (&s.curve, s.t0, s.t1)));
                    if let Some((curve, t0, t1)) = other {
                        for x in [0.25, 0.5, 0.75] {
                            let d = crate::import::eval::distance_to_curve_range(curve, t0, t1, &point(x));
                            if d.is_finite() {
                                r.uncertainty = r.uncertainty.max(d);
                            }
                        }
                    }
                }
                chain.push((seg, param, seam, s0, s1));
            }
            // keep the chain connected whatever the file's directions: the
            // first curve ends where the second one meets it, each next one
            // starts where the previous one ends
            if chain.len() >= 2 {
                let (a0, a1) = (chain[0].3, chain[0].4);
                let (b0, b1) = (chain[1].3, chain[1].4);
                let to_next = |p: Vec3| (p - b0).norm().min((p - b1).norm());
                if to_next(a0) < 0.5 * to_next(a1) {
                    let c = &mut chain[0];
                    c.0.forward = !c.0.forward;
                    std::mem::swap(&mut c.3, &mut c.4);
                }
                for i in 1..chain.len() {
                    let pp = chain[i - 1].4;
                    let c = &mut chain[i];
                    if (c.4 - pp).norm() < 0.5 * (c.3 - pp).norm() {
                        c.0.forward = !c.0.forward;
                        std::mem::swap(&mut c.3, &mut c.4);
                    }
                }
            }
            // the gaps between consecutive curves: the file's own precision
            for i in 0..chain.len() {
                let next = &chain[(i + 1) % chain.len()];
                r.uncertainty = r.uncertainty.max((next.3 - chain[i].4).norm());
            }
            for (seg, param, seam, _, _) in chain {
                let n = intervals(&seg.curve);
                for (s, wg, ws) in quadrature_nodes(n) {
                    let cp = seg.eval_unit(s);
                    let (ab, p, d) = if param {
                        let mut ab = r.to_ab(cp.p.x, cp.p.y);
                        if let Some(h) = prev {
                            for k in 0..2 {
                                if let Some(per) = period[k] {
                                    ab[k] += ((h[k] - ab[k]) / per).round() * per;
                                }
                            }
                        }
                        let p = face.surface.eval(cp.p.x, cp.p.y);
                        let d = r.to_ab(cp.d1.x, cp.d1.y);
                        (ab, p, d)
                    } else {
                        let (ab, _) = r.project_near(&cp.p, prev, 1e-7 * (1.0 + cp.p.norm()));
                        // (a', b') from S_a a' + S_b b' = C' (least squares)
                        let (_, sa, sb) = r.derivs(ab);
                        let (g11, g12, g22) = (sa.dot(&sa), sa.dot(&sb), sb.dot(&sb));
                        let (r1, r2) = (sa.dot(&cp.d1), sb.dot(&cp.d1));
                        let det = g11 * g22 - g12 * g12;
                        let d = if det > 1e-300 {
                            [(r1 * g22 - r2 * g12) / det, (r2 * g11 - r1 * g12) / det]
                        } else {
                            [0.0, 0.0]
                        };
                        (ab, cp.p, d)
                    };
                    if wg > 0.0 {
                        let len = if param {
                            let (_, sa, sb) = r.derivs(ab);
                            (sa * d[0] + sb * d[1]).norm()
                        } else {
                            cp.d1.norm()
                        };
                        r.perimeter += len * wg;
                    }
                    prev = Some(ab);
                    tl.nodes.push(Node {
                        ab,
                        p,
                        db: d[1],
                        wg,
                        ws,
                        seam,
                        seg: r.segments.len(),
                        x: s,
                    });
                }
                r.segments.push((seg, param));
            }
            // a loop of seam edges only (a closed face's seam) bounds nothing
            if tl.nodes.len() >= 3 && !tl.nodes.iter().all(|n| n.seam) {
                for n in &tl.nodes {
                    for k in 0..2 {
                        r.bbox[0][k] = r.bbox[0][k].min(n.ab[k]);
                        r.bbox[1][k] = r.bbox[1][k].max(n.ab[k]);
                    }
                }
                r.loops.push(tl);
            }
        }
        if r.loops.is_empty() && r.period[0].is_some() {
            // a closed surface with no boundary: the whole domain, covered by
            // the seam strip of `area` (and `contains` is true everywhere)
            let ((u0, u1), (v0, v1)) = face.surface.domain()?;
            let (a, b) = (r.to_ab(u0, v0), r.to_ab(u1, v1));
            r.bbox = [a, b];
            r.a0 = a[0];
            r.a_lo = a[0];
            r.breaks = r.knot_breaks();
            return Some(r);
        }
        if r.loops.is_empty() {
            // natural domain: a rectangle in parameter space
            let ((u0, u1), (v0, v1)) = face.surface.domain()?;
            let c = [[u0, v0], [u1, v0], [u1, v1], [u0, v1], [u0, v0]];
            let mut tl = TracedLoop::default();
            for w in c.windows(2) {
                let (a, b) = (r.to_ab(w[0][0], w[0][1]), r.to_ab(w[1][0], w[1][1]));
                r.segments.push((
                    CurveSegment {
                        curve: Curve::Line {
                            origin: Vec3::new(w[0][0], w[0][1], 0.0),
                            dir: Vec3::new(w[1][0] - w[0][0], w[1][1] - w[0][1], 0.0),
                        },
                        t0: 0.0,
                        t1: 1.0,
                        forward: true,
                    },
                    true,
                ));
                let n = 8;
                for (s, wg, ws) in quadrature_nodes(n) {
                    let ab = [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
                    let (u, v) = r.to_uv(ab);
                    if wg > 0.0 {
                        let (_, sa, sb) = r.derivs(ab);
                        r.perimeter += ((sa * (b[0] - a[0])) + (sb * (b[1] - a[1]))).norm() * wg;
                    }
                    tl.nodes.push(Node {
                        ab,
                        p: face.surface.eval(u, v),
                        db: b[1] - a[1],
                        wg,
                        ws,
                        seam: false,
                        seg: r.segments.len() - 1,
                        x: s,
                    });
                }
            }
            for n in &tl.nodes {
                for k in 0..2 {
                    r.bbox[0][k] = r.bbox[0][k].min(n.ab[k]);
                    r.bbox[1][k] = r.bbox[1][k].max(n.ab[k]);
                }
            }
            r.loops.push(tl);
        }
        // the seam: just below the loops when they do not wind round the
        // period (then no loop crosses it), else the natural lower bound of a
        let winds = r.period[0].is_some_and(|p| r.bbox[1][0] - r.bbox[0][0] > 0.999 * p);
        let nb = face.surface.natural_bounds();
        let (na, nbb) = if swap { (nb.1, nb.0) } else { (nb.0, nb.1) };
        r.a0 = na.map_or(r.bbox[0][0], |x| x.0);
        r.a_lo = r.a0;
        if let Some(p) = r.period[0] {
            // loops that wind round: the seam line well inside the period,
            // away from the file's own seam; others: just below the loops
            r.a0 = if winds {
                r.a0 + 0.437 * p
            } else {
                r.bbox[0][0] - 1e-6 * p
            };
        }
        if r.period[0].is_none() && na.is_none() {
            r.a0 = r.bbox[0][0];
        }
        r.breaks = r.knot_breaks();
        // the even-odd ray: towards an end of b that is not a pole
        if r.period[1].is_none() {
            let pole = |b: f64| {
                let a_span = r.period[0].unwrap_or((r.bbox[1][0] - r.bbox[0][0]).max(1e-9));
                let size = (r.bbox[1][1] - r.bbox[0][1]).abs().max(1e-9);
                (0..4).all(|k| {
                    let a = r.bbox[0][0] + a_span * (k as f64 + 0.5) / 4.0;
                    let (_, sa, sb) = r.derivs([a, b]);
                    sa.norm() * a_span <= 1e-9 * (1.0 + sb.norm() * size)
                })
            };
            r.ray = match nbb {
                None => Some(1.0),
                Some((lo, hi)) => {
                    if !pole(hi) {
                        Some(1.0)
                    } else if !pole(lo) {
                        Some(-1.0)
                    } else {
                        None
                    }
                }
            };
        }
        r.contractible = r.loops_contractible();
        // each loop's side: probe beside a few of its segments
        for li in 0..r.loops.len() {
            let left = match (r.ray, r.contractible) {
                (None, false) => sense_left,
                _ => r.probe_side(li).unwrap_or(sense_left),
            };
            r.loops[li].left = left;
        }
        Some(r)
    }

    /// Knot values of a B-spline in `a` (breaks for the quadrature of `F`).
    fn knot_breaks(&self) -> Vec<f64> {
        let mut s = self.surface();
        while let Surface::Trimmed { basis, .. } = s {
            s = basis;
        }
        match s {
            Surface::BSpline(b) => {
                let mut k: Vec<f64> = if self.swap {
                    b.knots_v.clone()
                } else {
                    b.knots_u.clone()
                };
                k.dedup();
                k
            }
            _ => Vec::new(),
        }
    }

    /// The side of loop `li` the face lies on, by the even-odd test at points
    /// just beside the middle of its longest non-seam segments (majority).
    fn probe_side(&self, li: usize) -> Option<bool> {
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
    fn wraps(&self, p: [f64; 2], q: [f64; 2]) -> bool {
        (0..2).any(|k| self.period[k].is_some_and(|per| (q[k] - p[k]).abs() > 0.5 * per))
    }

    /// The runs of every loop (see [`Run`]), and groups of [`RUN`] runs
    /// (`start..end` indexing the runs).
    fn runs(&self) -> &[(Vec<Run>, Vec<Run>)] {
        self.index.get_or_init(|| {
            self.loops
                .iter()
                .map(|l| {
                    let n = l.nodes.len();
                    let runs: Vec<Run> = (0..n)
                        .step_by(RUN)
                        .map(|start| {
                            let end = (start + RUN).min(n);
                            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
                            for i in start..=end {
                                let p = l.nodes[i % n].ab;
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
                    (runs, groups)
                })
                .collect()
        })
    }

    /// The segments of loop `li` in the runs whose box `hit` accepts (in
    /// groups whose box it accepts).
    fn segments_hit<'a>(&'a self, li: usize, hit: impl Fn(&Run) -> bool + 'a) -> impl Iterator<Item = usize> + 'a {
        let (runs, groups) = &self.runs()[li];
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
    fn loops_contractible(&self) -> bool {
        self.loops.iter().all(|l| {
            let n = l.nodes.len();
            let (f, e) = (l.nodes[0].ab, l.nodes[n - 1].ab);
            (0..n).all(|i| !self.wraps(l.nodes[i].ab, l.nodes[(i + 1) % n].ab))
                && (0..2).all(|k| self.period[k].map_or(true, |p| (f[k] - e[k]).abs() < 0.25 * p))
        })
    }

    /// Even-odd in the unwrapped plane for loops that close there: each loop
    /// tested with the copies of the point that fall in its box.
    fn contains_tiled(&self, ab: [f64; 2]) -> bool {
        let mut inside = false;
        for (li, l) in self.loops.iter().enumerate() {
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for n in &l.nodes {
                for k in 0..2 {
                    lo[k] = lo[k].min(n.ab[k]);
                    hi[k] = hi[k].max(n.ab[k]);
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
                    let n = l.nodes.len();
                    for i in self.segments_hit(li, move |r| run_hit(r.lo[1], r.hi[1], b, None)) {
                        let (p, q) = (l.nodes[i].ab, l.nodes[(i + 1) % n].ab);
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
        for (li, l) in self.loops.iter().enumerate() {
            let n = l.nodes.len();
            let per = self.period[0];
            for i in self.segments_hit(li, move |r| run_hit(r.lo[0], r.hi[0], ab[0], per)) {
                let (na, nb) = (&l.nodes[i], &l.nodes[(i + 1) % n]);
                if (na.seam && nb.seam) || self.wraps(na.ab, nb.ab) {
                    continue;
                }
                let (p, q) = (na.ab, nb.ab);
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
        for (li, l) in self.loops.iter().enumerate() {
            let n = l.nodes.len();
            let per = self.period;
            let by_box =
                move |r: &Run| run_hit(r.lo[0], r.hi[0], ab[0], per[0]) || run_hit(r.lo[1], r.hi[1], ab[1], per[1]);
            for i in self.segments_hit(li, by_box) {
                let p = l.nodes[i].ab;
                let q = l.nodes[(i + 1) % n].ab;
                let d = [q[0] - p[0], q[1] - p[1]];
                if (d[0] == 0.0 && d[1] == 0.0) || (l.nodes[i].seam && l.nodes[(i + 1) % n].seam) || self.wraps(p, q) {
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
        self.loops.iter().all(|l| {
            let n = l.nodes.len();
            let mut s = 0.0;
            for i in 0..n {
                let p = l.nodes[i].ab;
                let q = l.nodes[(i + 1) % n].ab;
                s += p[0] * q[1] - q[0] * p[1];
            }
            (s > 0.0) != l.left
        })
    }

    /// `J(a, b)`.
    fn jac(&self, a: f64, b: f64) -> f64 {
        let a = match self.period[0] {
            Some(p) => self.a_lo + (a - self.a_lo).rem_euclid(p),
            None => a,
        };
        let (_, sa, sb) = self.derivs([a, b]);
        sa.cross(&sb).norm()
    }

    /// `F(a, b) = ∫_{a0}^{a} J(s, b) ds` with `a` taken modulo the period,
    /// by the Gauss rule `g` on the knot spans (at most 8 sub-intervals
    /// otherwise).
    fn f(&self, a: f64, b: f64, g: &[(f64, f64)]) -> f64 {
        let a = match self.period[0] {
            Some(p) => self.a0 + (a - self.a0).rem_euclid(p),
            None => a,
        };
        match self.surface() {
            Surface::Plane { .. } => return a - self.a0,
            Surface::Cylinder { .. }
            | Surface::Cone { .. }
            | Surface::Sphere { .. }
            | Surface::Torus { .. }
            | Surface::Revolution { .. }
                if !self.swap =>
            {
                return (a - self.a0) * self.jac(self.a0, b);
            }
            _ => {}
        }
        let (lo, hi, sign) = if a >= self.a0 {
            (self.a0, a, 1.0)
        } else {
            (a, self.a0, -1.0)
        };
        if hi <= lo {
            return 0.0;
        }
        let full = self.period[0].unwrap_or((self.bbox[1][0] - self.bbox[0][0]).max(1e-300));
        let mut cuts = vec![lo];
        let shifts: &[f64] = match self.period[0] {
            Some(p) => &[-p, 0.0, p],
            None => &[0.0],
        };
        for sh in shifts {
            cuts.extend(self.breaks.iter().map(|k| k + sh).filter(|&k| k > lo && k < hi));
        }
        if let Some(p) = self.period[0] {
            cuts.extend([self.a_lo, self.a_lo + p].into_iter().filter(|&k| k > lo && k < hi));
        }
        cuts[1..].sort_by(f64::total_cmp);
        cuts.push(hi);
        let mut s = 0.0;
        for w in cuts.windows(2) {
            let k = (((w[1] - w[0]) / full * 8.0).ceil() as usize).clamp(1, 8);
            let h = (w[1] - w[0]) / k as f64;
            for i in 0..k {
                for &(x, wt) in g {
                    s += wt * h * self.jac(w[0] + (i as f64 + x) * h, b);
                }
            }
        }
        sign * s
    }

    /// The face's trimmed area, mm², from the Model's boundary, and an
    /// estimate of its quadrature error.
    pub fn area(&self) -> (f64, f64) {
        let (mut sum_g, mut sum_s) = (0.0, 0.0);
        let mut f_err = 0.0f64;
        let mut seam_b: Vec<f64> = Vec::new();
        for l in &self.loops {
            let sign = if l.left { 1.0 } else { -1.0 };
            let n = l.nodes.len();
            for (i, nd) in l.nodes.iter().enumerate() {
                if !nd.seam && nd.db != 0.0 && (nd.wg > 0.0 || nd.ws > 0.0) {
                    let f = self.f(nd.ab[0], nd.ab[1], &G8);
                    sum_g += sign * f * nd.db * nd.wg;
                    sum_s += sign * f * nd.db * nd.ws;
                    if nd.ws > 0.0 && nd.wg > 0.0 {
                        // a midpoint: the error of F
                        let f5 = self.f(nd.ab[0], nd.ab[1], &G5);
                        f_err = f_err.max((f - f5).abs() / f.abs().max(1e-300));
                    }
                }
                // seam crossings (a = a0 mod P) between consecutive nodes
                if let Some(p) = self.period[0] {
                    let q = l.nodes[(i + 1) % n].ab;
                    if (nd.seam && l.nodes[(i + 1) % n].seam) || self.wraps(nd.ab, q) {
                        continue;
                    }
                    let (k0, k1) = (((nd.ab[0] - self.a0) / p).floor(), ((q[0] - self.a0) / p).floor());
                    if k0 != k1 {
                        let x = self.a0 + k0.max(k1) * p;
                        let t = (x - nd.ab[0]) / (q[0] - nd.ab[0]);
                        seam_b.push(nd.ab[1] + t * (q[1] - nd.ab[1]));
                    }
                }
            }
        }
        let mut strip = 0.0;
        if let Some(p) = self.period[0] {
            // the seam line a = a0 + P: inside intervals along b
            let (blo, bhi) = match self.period[1] {
                Some(pb) => (self.bbox[0][1], self.bbox[0][1] + pb),
                None => {
                    let nb = self.face.surface.natural_bounds();
                    let nb = if self.swap { nb.0 } else { nb.1 };
                    match nb {
                        Some((lo, hi)) => (lo, hi),
                        None => (self.bbox[0][1], self.bbox[1][1]),
                    }
                }
            };
            let mut cuts: Vec<f64> = seam_b
                .into_iter()
                .map(|b| match self.period[1] {
                    Some(pb) => blo + (b - blo).rem_euclid(pb),
                    None => b,
                })
                .filter(|b| *b > blo && *b < bhi)
                .collect();
            cuts.push(blo);
            cuts.push(bhi);
            cuts.sort_by(f64::total_cmp);
            cuts.dedup();
            for w in cuts.windows(2) {
                let (b0, b1) = (w[0], w[1]);
                if b1 - b0 <= 0.0 || !self.contains([self.a0, 0.5 * (b0 + b1)]) {
                    continue;
                }
                let k = 4;
                let h = (b1 - b0) / k as f64;
                for i in 0..k {
                    for &(x, wt) in &G8 {
                        strip += wt * h * self.f(self.a0 + p * (1.0 - 1e-15), b0 + (i as f64 + x) * h, &G8);
                    }
                }
            }
        }
        let area = sum_g + strip;
        let err = (sum_g - sum_s).abs() + f_err * area.abs() + 1e-12 * area.abs();
        (area, err)
    }

    /// Distance from `p` to the face's 3-D boundary: the nearest traced
    /// node (an upper bound), refined on the exact curves when that exceeds
    /// `good`: every curve whose nodes, less their reach (the longest chord
    /// between consecutive nodes: the curve between them), come nearer than
    /// the best distance so far, nearest first (Gauss–Newton from the
    /// curve's nearest node).
    pub fn boundary_distance(&self, p: &Vec3, good: f64) -> f64 {
        // per traced curve: (lower bound, nearest node's distance, its x)
        let mut curves: Vec<(f64, f64, usize, f64)> = Vec::new();
        let mut out = f64::INFINITY;
        for l in &self.loops {
            let mut i = 0;
            while i < l.nodes.len() {
                let si = l.nodes[i].seg;
                let mut j = i;
                let (mut dmin, mut x0, mut chord) = (f64::INFINITY, 0.0, 0.0f64);
                while j < l.nodes.len() && l.nodes[j].seg == si {
                    let n = &l.nodes[j];
                    let d = (n.p - p).norm();
                    if d < dmin {
                        dmin = d;
                        x0 = n.x;
                    }
                    if j > i {
                        chord = chord.max((n.p - l.nodes[j - 1].p).norm());
                    }
                    j += 1;
                }
                if !l.nodes[i].seam {
                    out = out.min(dmin);
                    curves.push((dmin - chord, dmin, si, x0));
                }
                i = j;
            }
        }
        if !(out > good) {
            return out;
        }
        curves.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(lb, _, si, x0) in &curves {
            if lb >= out || out <= good {
                break;
            }
            if si == usize::MAX || si >= self.segments.len() {
                continue;
            }
            let (seg, param) = &self.segments[si];
            let eval = |x: f64| -> (Vec3, Vec3) {
                let c = seg.eval_unit(x);
                if *param {
                    let d = self.face.surface.eval_derivs(c.p.x, c.p.y);
                    (d.p, d.su * c.d1.x + d.sv * c.d1.y)
                } else {
                    (c.p, c.d1)
                }
            };
            let mut x = x0;
            for _ in 0..12 {
                let (q, c1) = eval(x);
                out = out.min((q - p).norm());
                let l2 = c1.norm_squared();
                if !(l2 > 0.0) {
                    break;
                }
                let nx = (x + (p - q).dot(&c1) / l2).clamp(0.0, 1.0);
                if (nx - x).abs() < 1e-14 {
                    break;
                }
                x = nx;
            }
            out = out.min((eval(x).0 - p).norm());
        }
        out
    }
}

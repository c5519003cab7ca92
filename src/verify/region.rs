//! The Model face as the check sees it: its loops traced from the Model's own
//! p-curves (the 3-D edges, inverted onto the surface, where a coedge has no
//! p-curve), on which the check's point-in-face test
//! ([`point_in_face`]), trimmed area ([`area`]) and distances
//! ([`distance`]) work.
//!
//! Nothing here calls the preparation's trim code, nor the importer's
//! [`FaceTrim`](crate::import::eval::FaceTrim): only the Model's surface and
//! curve evaluation and its point projection (`crate::import::eval`).
//!
//! Coordinates: the face is handled in `(a, b)`, which is `(u, v)`, or
//! `(v, u)` when only `v` is periodic, so that `a` is always the periodic
//! direction when there is one.

mod area;
mod distance;
mod point_in_face;
mod poles;
mod quadrature;

use point_in_face::LoopIndex;
use quadrature::{quadrature_nodes_on, surface_breaks, surface_creases, G3};

use crate::geom::Vec3;
use crate::import::model::{Curve, CurveSegment, Face, Model, Surface};

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
    /// The previous interval's share of [`Self::ws`] (at an interval's end).
    pub ws_before: f64,
    /// `db/dx` approached from the previous interval: [`Self::db`] except at
    /// a kink of the traced curve (a polyline's vertex, a composite's
    /// joint), where `db` is the next interval's.
    pub db_before: f64,
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

/// Points a traced p-curve is compared with its 3-D curve at
/// ([`Region::contradiction`]).
pub const CONTRADICTION_SAMPLES: usize = 33;

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
    /// On a closed surface without a rim (periodic in `a`, no ray) whose
    /// loops all close in the unwrapped plane: the face is what lies outside the loops (its loops
    /// are holes: no outer loop, or an outer loop that runs clockwise about
    /// the face's normal), so the even-odd test starts inside.
    pub complement: bool,
    /// Traced loops.
    pub loops: Vec<TracedLoop>,
    /// The traced boundary curves (p-curves: `true`) for exact distances.
    pub segments: Vec<(CurveSegment, bool)>,
    /// Box of the loops in `(a, b)` (unwrapped).
    pub bbox: [[f64; 2]; 2],
    /// Sum of the 3-D lengths of the loops, mm.
    pub perimeter: f64,
    /// How precisely the file states the face's boundary, mm: the largest
    /// gap between consecutive curves of a loop, the largest distance of a
    /// p-curve from its 3-D curve, and the largest distance of a traced 3-D
    /// curve from the face's surface.
    pub uncertainty: f64,
    /// The file's own contradiction in the face's boundary, mm: the
    /// largest distance of a traced p-curve's image from its coedge's 3-D
    /// curve, sampled densely ([`CONTRADICTION_SAMPLES`] points a curve;
    /// [`Self::uncertainty`] takes three). Where it exceeds the tolerance,
    /// no trim can follow both curves: a failure there is reported as the
    /// file's (still a failure).
    pub contradiction: f64,
    /// The seam value `a0` (F = 0 there).
    pub a0: f64,
    /// Sub-intervals of `a` for the quadrature of `F` (knots of a B-spline).
    breaks: Vec<f64>,
    /// Start of the natural range of a periodic `a` (evaluations wrap into it).
    a_lo: f64,
    /// Boxes of runs of loop segments (built on the first point-in-face
    /// test), so that the tests skip runs no ray or line of theirs can cross.
    index: std::cell::OnceCell<Vec<LoopIndex>>,
    /// The loops' polygons follow their curves within a quarter of this,
    /// in 3-D, on the surface ([`Self::follow_curves_within`]; infinite:
    /// the traced nodes alone).
    chord_tolerance: f64,
    /// The boundary's nodes indexed for distances (built on the first
    /// distance asked).
    boundary: std::cell::OnceCell<crate::verify::sampled_curves::SampledCurves>,
}

/// The curve a coedge is traced along, `(segment, is a p-curve)`: its
/// p-curve (exact in the surface's own parameters) when the p-curve's image
/// on `surface` runs between the end points of the coedge's 3-D curve, else
/// the 3-D curve. A p-curve whose range the file does not pin down (the
/// importer then keeps the 3-D curve's range, which need not be the
/// p-curve's: a rational circle is not parametrised by the angle) traces
/// part of another curve; its ends tell.
fn seg_of(model: &Model, surface: &Surface, c: &crate::import::model::Coedge) -> Option<(CurveSegment, bool)> {
    let three_d = c
        .edge
        .and_then(|e| model.edges.get(e))
        .filter(|e| e.t1.is_finite() && e.t0.is_finite() && e.t0 != e.t1)
        .map(|e| CurveSegment {
            curve: e.curve.clone(),
            t0: e.t0.min(e.t1),
            t1: e.t0.max(e.t1),
            forward: c.forward,
        })
        .or_else(|| {
            c.curve
                .as_ref()
                .filter(|s| s.t0.is_finite() && s.t1.is_finite())
                .cloned()
        });
    if let Some(p) = c
        .pcurve
        .as_ref()
        .filter(|p| p.t0.is_finite() && p.t1.is_finite() && p.t1 > p.t0)
    {
        // (a file that names the p-curve as the preferred one: the face follows it)
        let meets = c.pcurve_preferred
            || three_d.as_ref().map_or(true, |s| {
                let image = |x: f64| {
                    let q = p.eval_unit(x).p;
                    surface.eval(q.x, q.y)
                };
                let (a0, a1) = (image(0.0), image(1.0));
                let (b0, b1) = (s.eval_unit(0.0).p, s.eval_unit(1.0).p);
                let miss = ((a0 - b0).norm().max((a1 - b1).norm())).min((a0 - b1).norm().max((a1 - b0).norm()));
                let scale = 1.0 + b0.norm().max(b1.norm());
                // NaN (an image off the surface's domain) does not meet
                miss <= (10.0 * model.tolerance.unwrap_or(0.0)).max(1e-6 * scale)
            });
        if meets {
            return Some((p.clone(), true));
        }
    }
    three_d.map(|s| (s, false))
}

impl<'m> Region<'m> {
    /// The trace of `seg` (a p-curve when `param`) at unit parameter `x`:
    /// `(a, b)` (unwrapped near `near`), the 3-D point, `d(a, b)/dx`, the
    /// 3-D speed `|dP/dx|` and how far a 3-D curve's point lies off the
    /// surface (0 for a p-curve).
    pub(super) fn trace_at(
        &self,
        seg: &CurveSegment,
        param: bool,
        x: f64,
        near: Option<[f64; 2]>,
    ) -> ([f64; 2], Vec3, [f64; 2], f64, f64) {
        let cp = seg.eval_unit(x);
        if param {
            let mut ab = self.to_ab(cp.p.x, cp.p.y);
            if let Some(h) = near {
                for k in 0..2 {
                    if let Some(per) = self.period[k] {
                        ab[k] += ((h[k] - ab[k]) / per).round() * per;
                    }
                }
            }
            let p = self.face.surface.eval(cp.p.x, cp.p.y);
            let d = self.to_ab(cp.d1.x, cp.d1.y);
            let (_, sa, sb) = self.derivs(ab);
            (ab, p, d, (sa * d[0] + sb * d[1]).norm(), 0.0)
        } else {
            let good = 1e-7 * (1.0 + cp.p.norm());
            let (ab, off) = match near {
                Some(_) => self.project_near(&cp.p, near, good),
                None => self.project_start(&cp.p, good),
            };
            // (a', b') from S_a a' + S_b b' = C' (least squares)
            let (_, sa, sb) = self.derivs(ab);
            let (g11, g12, g22) = (sa.dot(&sa), sa.dot(&sb), sb.dot(&sb));
            let (r1, r2) = (sa.dot(&cp.d1), sb.dot(&cp.d1));
            let det = g11 * g22 - g12 * g12;
            let d = if det > 1e-300 {
                [(r1 * g22 - r2 * g12) / det, (r2 * g11 - r1 * g12) / det]
            } else {
                [0.0, 0.0]
            };
            (ab, cp.p, d, cp.d1.norm(), off)
        }
    }

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

    /// Widens the box by a loop's nodes.
    fn push_bbox(&mut self, tl: &TracedLoop) {
        for n in &tl.nodes {
            for k in 0..2 {
                self.bbox[0][k] = self.bbox[0][k].min(n.ab[k]);
                self.bbox[1][k] = self.bbox[1][k].max(n.ab[k]);
            }
        }
    }

    /// The nodes of the straight line from `(u, v)` `from` to `to` (a side
    /// of the natural domain), added to [`Self::segments`] as a p-curve.
    fn domain_line(&mut self, from: [f64; 2], to: [f64; 2]) -> Vec<Node> {
        self.segments.push((
            CurveSegment {
                curve: Curve::Line {
                    origin: Vec3::new(from[0], from[1], 0.0),
                    dir: Vec3::new(to[0] - from[0], to[1] - from[1], 0.0),
                },
                t0: 0.0,
                t1: 1.0,
                forward: true,
            },
            true,
        ));
        let (a, b) = (self.to_ab(from[0], from[1]), self.to_ab(to[0], to[1]));
        let mut nodes = Vec::new();
        let line = self.segments[self.segments.len() - 1].0.clone();
        let cuts = self.segment_cuts(&line, true, 8);
        for (s, wg, ws, ws_before) in quadrature_nodes_on(&cuts) {
            let ab = [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
            let (u, v) = self.to_uv(ab);
            if wg > 0.0 {
                let (_, sa, sb) = self.derivs(ab);
                self.perimeter += ((sa * (b[0] - a[0])) + (sb * (b[1] - a[1]))).norm() * wg;
            }
            nodes.push(Node {
                ab,
                p: self.face.surface.eval(u, v),
                db: b[1] - a[1],
                db_before: b[1] - a[1],
                wg,
                ws,
                ws_before,
                seam: false,
                seg: self.segments.len() - 1,
                x: s,
            });
        }
        nodes
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
            complement: false,
            loops: Vec::new(),
            segments: Vec::new(),
            bbox: [[f64::INFINITY; 2], [f64::NEG_INFINITY; 2]],
            perimeter: 0.0,
            uncertainty: 0.0,
            contradiction: 0.0,
            a0: 0.0,
            breaks: Vec::new(),
            a_lo: 0.0,
            index: std::cell::OnceCell::new(),
            chord_tolerance: f64::INFINITY,
            boundary: std::cell::OnceCell::new(),
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
        // the traced loop of the declared outer loop
        let mut outer_traced: Option<usize> = None;
        for (li, l) in loops.iter().enumerate() {
            let mut tl = TracedLoop::default();
            let mut prev: Option<[f64; 2]> = None;
            // the loop's curves with their end points (3-D)
            let mut chain: Vec<(CurveSegment, bool, bool, Vec3, Vec3)> = Vec::new();
            for c in &l.coedges {
                let Some((seg, param)) = seg_of(model, &face.surface, c) else {
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
                        let n = CONTRADICTION_SAMPLES - 1;
                        for k in 0..=n {
                            let x = k as f64 / n as f64;
                            let d = crate::import::eval::distance_to_curve_range(curve, t0, t1, &point(x));
                            if d.is_finite() {
                                r.contradiction = r.contradiction.max(d);
                            }
                        }
                    }
                }
                chain.push((seg, param, seam, s0, s1));
            }
            // keep the chain connected whatever the file's directions: the
            // first curve ends where the second one meets it, each next one
            // starts where the previous one ends
            // (a closed curve, whose ends meet, cannot be turned by its ends:
            // rounding would decide; it keeps the file's direction)
            let closed = |c: &(CurveSegment, bool, bool, Vec3, Vec3)| {
                let reach = [0.25, 0.5, 0.75]
                    .iter()
                    .map(|&x| {
                        let q = c.0.eval_unit(x).p;
                        let q = if c.1 { face.surface.eval(q.x, q.y) } else { q };
                        (q - c.3).norm()
                    })
                    .fold(0.0, f64::max);
                (c.4 - c.3).norm() <= 1e-3 * reach
            };
            if chain.len() >= 2 {
                let (a0, a1) = (chain[0].3, chain[0].4);
                let (b0, b1) = (chain[1].3, chain[1].4);
                let to_next = |p: Vec3| (p - b0).norm().min((p - b1).norm());
                // (a first curve whose both ends meet the second one, as in
                // a loop of two half circles, keeps the file's direction)
                let (d0, d1) = (to_next(a0), to_next(a1));
                if d0 < 0.5 * d1 && d1 > 1e-3 * (a1 - a0).norm() && !closed(&chain[0]) {
                    let c = &mut chain[0];
                    c.0.forward = !c.0.forward;
                    std::mem::swap(&mut c.3, &mut c.4);
                }
                for i in 1..chain.len() {
                    let pp = chain[i - 1].4;
                    let turn = !closed(&chain[i]);
                    let c = &mut chain[i];
                    if turn && (c.4 - pp).norm() < 0.5 * (c.3 - pp).norm() {
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
                let first = tl.nodes.len();
                let cuts = r.segment_cuts(&seg, param, 0);
                let kinked = quadrature::kinked(&seg.curve);
                let mut cut = 0;
                for (s, wg, ws, ws_before) in quadrature_nodes_on(&cuts) {
                    let (ab, p, d, len, off) = r.trace_at(&seg, param, s, prev);
                    // at an inner cut of a curve with kinks: each side's own
                    // derivative, taken just inside its interval
                    let (mut db, mut db_before) = (d[1], d[1]);
                    if wg == 0.0 {
                        if kinked && cut > 0 && cut + 1 < cuts.len() {
                            let side = |x: f64| r.trace_at(&seg, param, x, Some(ab)).2[1];
                            db = side(s + 1e-6 * (cuts[cut + 1] - s));
                            db_before = side(s - 1e-6 * (s - cuts[cut - 1]));
                        }
                        cut += 1;
                    }
                    // the file's own 3-D edge off the face's surface (Open
                    // CASCADE raises the edge's tolerance to this): no trim
                    // on the surface can follow the edge closer
                    if off.is_finite() {
                        r.uncertainty = r.uncertainty.max(off);
                    }
                    if wg > 0.0 {
                        r.perimeter += len * wg;
                    }
                    prev = Some(ab);
                    tl.nodes.push(Node {
                        ab,
                        p,
                        db,
                        db_before,
                        wg,
                        ws,
                        ws_before,
                        seam,
                        seg: r.segments.len(),
                        x: s,
                    });
                }
                if !param {
                    r.pole_ends(&mut tl.nodes[first..]);
                    prev = tl.nodes.last().map(|n| n.ab);
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
                if li == 0 && face.outer.is_some() {
                    outer_traced = Some(r.loops.len());
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
                tl.nodes.extend(r.domain_line(w[0], w[1]));
            }
            r.push_bbox(&tl);
            r.loops.push(tl);
        } else if face.outer.is_none() && r.period[1].is_none() {
            // holes in the natural domain (no outer loop: an IGES 144 whose
            // outer boundary is the surface's): the domain's boundary bounds
            // the face too, a rectangle, or on a surface periodic in `a` the
            // two lines of constant `b` that are not poles
            if let Some(((u0, u1), (v0, v1))) = face.surface.domain() {
                let (lo, hi) = (r.to_ab(u0, v0), r.to_ab(u1, v1));
                let lines: Vec<Vec<([f64; 2], [f64; 2])>> = if r.period[0].is_some() {
                    vec![
                        vec![([lo[0], lo[1]], [hi[0], lo[1]])],
                        vec![([hi[0], hi[1]], [lo[0], hi[1]])],
                    ]
                } else {
                    let c = [
                        [lo[0], lo[1]],
                        [hi[0], lo[1]],
                        [hi[0], hi[1]],
                        [lo[0], hi[1]],
                        [lo[0], lo[1]],
                    ];
                    vec![c.windows(2).map(|w| (w[0], w[1])).collect()]
                };
                for l in lines {
                    let mut tl = TracedLoop::default();
                    for (a, b) in l {
                        let (a, b) = (r.to_uv(a), r.to_uv(b));
                        tl.nodes.extend(r.domain_line([a.0, a.1], [b.0, b.1]));
                    }
                    // a pole (the line is one point in 3-D) bounds nothing
                    let p0 = tl.nodes[0].p;
                    let size = tl.nodes.iter().map(|n| (n.p - p0).norm()).fold(0.0, f64::max);
                    if size > 1e-9 * (1.0 + p0.norm()) {
                        r.push_bbox(&tl);
                        r.loops.push(tl);
                    }
                }
            }
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
        if r.ray.is_none() && r.contractible && r.period[0].is_some() {
            // (a face made only of holes is what lies outside them, as the
            // preparation and the importer read it; a declared outer loop
            // encloses the face on its side: the face's sense tells)
            r.complement = match outer_traced {
                None => face.outer.is_none(),
                // an IGES 144/143 outer boundary (free curves, no direction
                // the importer keeps: it moves one that means the
                // complement to the holes) encloses the face
                Some(_)
                    if model.format == crate::import::model::SourceFormat::Iges
                        && face.outer.iter().flat_map(|o| &o.coedges).all(|c| c.edge.is_none()) =>
                {
                    false
                }
                Some(oi) => {
                    let l = &r.loops[oi].nodes;
                    let n = l.len();
                    let twice: f64 = (0..n)
                        .map(|i| {
                            let (p, q) = (l[i].ab, l[(i + 1) % n].ab);
                            p[0] * q[1] - q[0] * p[1]
                        })
                        .sum();
                    (twice > 0.0) != sense_left
                }
            };
        }
        // each loop's side: probe beside a few of its segments
        for li in 0..r.loops.len() {
            let left = match (r.ray, r.contractible) {
                (None, false) => sense_left,
                _ => r.probe_side(li).unwrap_or(sense_left),
            };
            r.loops[li].left = left;
        }
        // a seam (an edge the face uses twice) lies inside the face: where the
        // side from the face's sense puts the points beside a loop's seam
        // outside, the loop runs against the face's sense (an exporter's
        // wrong bound flag, as Open CASCADE's areas show): the seam decides
        if r.ray.is_none() && !r.contractible {
            for li in 0..r.loops.len() {
                let Some(probe) = r.seam_probe(li) else { continue };
                if !probe.iter().all(|&q| r.contains(q)) {
                    r.loops[li].left = !r.loops[li].left;
                    if !probe.iter().all(|&q| r.contains(q)) {
                        r.loops[li].left = !r.loops[li].left;
                    }
                }
            }
        }
        Some(r)
    }

    /// Two points just beside the middle of loop `li`'s seam (one on each
    /// side), or `None` when the loop has no seam.
    fn seam_probe(&self, li: usize) -> Option<[[f64; 2]; 2]> {
        let l = &self.loops[li];
        let n = l.nodes.len();
        let steps: Vec<usize> = (0..n)
            .filter(|&i| {
                let (p, q) = (&l.nodes[i], &l.nodes[(i + 1) % n]);
                p.seam && q.seam && p.seg == q.seg && !self.wraps(p.ab, q.ab) && p.ab != q.ab
            })
            .collect();
        let &i = steps.get(steps.len() / 2)?;
        let (p, q) = (l.nodes[i].ab, l.nodes[(i + 1) % n].ab);
        let m = [0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1])];
        let len = (q[0] - p[0]).hypot(q[1] - p[1]);
        let ext = |k: usize| {
            self.period[k]
                .unwrap_or((self.bbox[1][k] - self.bbox[0][k]).abs())
                .max(1e-12)
        };
        let d = 1e-4 * ext(0).max(ext(1));
        let nrm = [-(q[1] - p[1]) / len, (q[0] - p[0]) / len];
        Some([
            [m[0] + d * nrm[0], m[1] + d * nrm[1]],
            [m[0] - d * nrm[0], m[1] - d * nrm[1]],
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Frame;
    use crate::import::model::{Coedge, Edge, Loop, SourceFormat, Vertex};

    /// The square `[0, 2]²` of the plane `z = 0`, bounded by four line edges
    /// whose p-curves (the same lines in `(u, v)`) run over `range(k)`.
    fn square(range: impl Fn(usize) -> (f64, f64)) -> Model {
        let c = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        let mut m = Model::new(SourceFormat::Step, "square");
        let line = |k: usize| {
            let (a, b) = (c[k], c[(k + 1) % 4]);
            Curve::Line {
                origin: Vec3::new(a[0], a[1], 0.0),
                dir: Vec3::new(b[0] - a[0], b[1] - a[1], 0.0),
            }
        };
        m.vertices = c
            .iter()
            .map(|p| Vertex {
                point: Vec3::new(p[0], p[1], 0.0),
                source: 0,
            })
            .collect();
        let mut coedges = Vec::new();
        for k in 0..4 {
            m.edges.push(Edge {
                curve: line(k),
                t0: 0.0,
                t1: 1.0,
                start: Some(k),
                end: Some((k + 1) % 4),
                faces: vec![0],
                source: 0,
            });
            let (t0, t1) = range(k);
            coedges.push(Coedge {
                edge: Some(k),
                forward: true,
                pcurve: Some(CurveSegment {
                    curve: line(k),
                    t0,
                    t1,
                    forward: true,
                }),
                curve: None,
                pcurve_preferred: false,
                source: 0,
            });
        }
        m.faces.push(Face {
            surface: Surface::Plane { frame: Frame::world() },
            same_sense: true,
            outer: Some(Loop { coedges, source: 0 }),
            inner: Vec::new(),
            source: 1,
        });
        m
    }

    #[test]
    fn area_of_a_square_traced_on_its_pcurves() {
        let m = square(|_| (0.0, 1.0));
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        assert!((a - 4.0).abs() < 1e-12, "{a} ± {e}");
        assert!(r.segments.iter().all(|s| s.1), "traced on the p-curves");
        assert!(r.contains([1.0, 1.0]) && !r.contains([3.0, 1.0]));
    }

    /// A coedge on 3-D edge `e` (no p-curve).
    pub(super) fn on_edge(e: usize, forward: bool) -> Coedge {
        Coedge {
            edge: Some(e),
            forward,
            pcurve: None,
            curve: None,
            pcurve_preferred: false,
            source: 0,
        }
    }

    /// A coedge on the `(u, v)` line from `a` to `b` only (an IGES 142 free
    /// curve with its parameter-space curve).
    fn on_pline(a: [f64; 2], b: [f64; 2]) -> Coedge {
        Coedge {
            edge: None,
            forward: true,
            pcurve: Some(CurveSegment {
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

    pub(super) fn face_model(
        surface: Surface,
        outer: Option<Vec<Coedge>>,
        inner: Vec<Vec<Coedge>>,
        edges: Vec<Edge>,
    ) -> Model {
        let mut m = Model::new(SourceFormat::Step, "face");
        m.edges = edges;
        m.faces.push(Face {
            surface,
            same_sense: true,
            outer: outer.map(|coedges| Loop { coedges, source: 0 }),
            inner: inner.into_iter().map(|coedges| Loop { coedges, source: 0 }).collect(),
            source: 1,
        });
        m
    }

    pub(super) fn edge(curve: Curve, t0: f64, t1: f64) -> Edge {
        Edge {
            curve,
            t0,
            t1,
            start: None,
            end: None,
            faces: vec![0],
            source: 0,
        }
    }

    #[test]
    fn a_closed_edge_keeps_its_direction_in_the_chain() {
        // the band 0 ≤ z ≤ 1 of the unit cylinder: seam down, bottom circle,
        // seam up, top circle backwards; the top circle's ends differ by
        // rounding only (sin 2π ≠ 0), which must not turn it round (the loop
        // would wind twice and enclose nothing)
        let circle = |z: f64| Curve::Circle {
            frame: Frame {
                origin: Vec3::new(0.0, 0.0, z),
                ..Frame::world()
            },
            radius: 1.0,
        };
        let tau = std::f64::consts::TAU;
        let seam = Curve::Line {
            origin: Vec3::new(1.0, 0.0, 0.0),
            dir: Vec3::new(0.0, 0.0, 1.0),
        };
        let m = face_model(
            Surface::Cylinder {
                frame: Frame::world(),
                radius: 1.0,
            },
            Some(vec![
                on_edge(1, false),
                on_edge(0, true),
                on_edge(1, true),
                on_edge(2, false),
            ]),
            Vec::new(),
            vec![
                edge(circle(0.0), 0.0, tau),
                edge(seam, 0.0, 1.0),
                edge(circle(1.0), 0.0, tau),
            ],
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        assert!((a - tau).abs() < 1e-9, "{a} ± {e}");
        assert!(r.contains([1.0, 0.5]) && !r.contains([1.0, 1.5]) && !r.contains([1.0, -0.5]));
    }

    #[test]
    fn a_strip_once_round_a_cylinder_is_split_at_the_seam_line() {
        // the parallelogram (−2π, 0), (0, 1), (0, 1.5), (−2π, 0.5) of the unit
        // cylinder: a helical strip of area π whose loop spans the whole
        // period, so that the seam line of the area crosses its helices
        // inside a quadrature interval, where F jumps by the period's area
        let tau = std::f64::consts::TAU;
        let c = [[-tau, 0.0], [0.0, 1.0], [0.0, 1.5], [-tau, 0.5]];
        let m = face_model(
            Surface::Cylinder {
                frame: Frame::world(),
                radius: 1.0,
            },
            Some((0..4).map(|k| on_pline(c[k], c[(k + 1) % 4])).collect()),
            Vec::new(),
            Vec::new(),
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        let want = std::f64::consts::PI;
        assert!((a - want).abs() < 1e-9, "{a} vs {want} ± {e}");
        assert!(e < 1e-6, "{e}");
    }

    #[test]
    fn a_sphere_with_a_hole_and_no_outer_loop_is_what_lies_outside_it() {
        // the unit sphere less the cap of angular radius 0.3 about +x (a hole
        // whose loop closes in the parameter plane; no outer loop)
        let (c, sn) = (0.3f64.cos(), 0.3f64.sin());
        let hole = Curve::Circle {
            frame: Frame {
                origin: Vec3::new(c, 0.0, 0.0),
                x: Vec3::new(0.0, 0.0, 1.0),
                y: Vec3::new(0.0, 1.0, 0.0),
                z: Vec3::new(-1.0, 0.0, 0.0),
            },
            radius: sn,
        };
        let m = face_model(
            Surface::Sphere {
                frame: Frame::world(),
                radius: 1.0,
            },
            None,
            vec![vec![on_edge(0, true)]],
            vec![edge(hole, 0.0, std::f64::consts::TAU)],
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        let cap = std::f64::consts::TAU * (1.0 - c);
        let want = 4.0 * std::f64::consts::PI - cap;
        assert!((a - want).abs() < 1e-6, "{a} vs {want} ± {e}");
        assert!(!r.contains([0.0, 0.0]) && r.contains([std::f64::consts::PI, 0.0]));
    }

    #[test]
    fn a_preferred_pcurve_off_its_edge_between_the_three_samples_is_a_contradiction() {
        // the square's bottom edge with a preferred p-curve that follows the
        // line except for a 0.1 bump at x = 7/8 (a polyline of 8 equal
        // steps): the three samples of the uncertainty (x = 1/4, 1/2, 3/4)
        // lie on the line, the dense ones find the bump
        let mut m = square(|_| (0.0, 1.0));
        let pts: Vec<Vec3> = (0..=8)
            .map(|k| Vec3::new(0.25 * k as f64, if k == 7 { 0.1 } else { 0.0 }, 0.0))
            .collect();
        let c = &mut m.faces[0].outer.as_mut().expect("outer").coedges[0];
        c.pcurve = Some(CurveSegment {
            curve: Curve::Polyline(pts),
            t0: 0.0,
            t1: 8.0,
            forward: true,
        });
        c.pcurve_preferred = true;
        let r = Region::new(&m, &m.faces[0]).expect("region");
        assert!(r.segments[0].1, "traced on the preferred p-curve");
        assert!(r.uncertainty < 1e-12, "{}", r.uncertainty);
        assert!((r.contradiction - 0.1).abs() < 1e-12, "{}", r.contradiction);
    }

    #[test]
    fn a_pcurve_whose_ends_miss_its_edge_is_traced_on_the_edge() {
        // edge 1's p-curve range covers only the first half of its line (as
        // when a file gives a range the importer cannot place on the
        // p-curve): the loop would not close, the area would be 3, not 4
        let m = square(|k| if k == 1 { (0.0, 0.5) } else { (0.0, 1.0) });
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        assert!((a - 4.0).abs() < 1e-9, "{a} ± {e}");
        assert_eq!(r.segments.iter().filter(|s| !s.1).count(), 1, "one edge traced in 3-D");
        assert!(r.contains([1.9, 1.9]));
    }

    #[test]
    fn a_square_traced_on_one_3d_polyline_breaks_at_its_vertices() {
        // the square [0, 2]² of the plane z = 0 bounded by one closed 3-D
        // polyline (no p-curve): the quadrature must break at the corners
        // (t = 1, 2, 3), not at the usual uniform cuts (a Gauss rule across
        // a corner made the area 3.9 % off and Simpson's estimate useless)
        let pts: Vec<Vec3> = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0]]
            .iter()
            .map(|p| Vec3::new(p[0], p[1], 0.0))
            .collect();
        let m = face_model(
            Surface::Plane { frame: Frame::world() },
            Some(vec![on_edge(0, true)]),
            Vec::new(),
            vec![edge(Curve::Polyline(pts), 0.0, 4.0)],
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let (a, e) = r.area();
        assert!((a - 4.0).abs() < 1e-12, "{a} ± {e}");
        assert!(
            e < 1e-9,
            "the two rules agree once each side has its own derivative: {e}"
        );
        assert!((r.perimeter - 8.0).abs() < 1e-12, "{}", r.perimeter);
        assert!(r.contains([1.99, 1.0]) && r.contains([0.01, 1.99]) && !r.contains([2.01, 1.0]));
    }
}

//! Point-in-face: a face's trim loops sampled into the surface's parameter
//! space ([`FaceTrim`]) and the test whether a parameter point lies inside
//! the trimmed face (orientation of the nearest loop crossing for loops that
//! wind around a period, even-odd parity otherwise).
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use super::chord_refine::Chords;
use super::holes_only::all_holes;
use super::projection::{newton_surface, project_surface};
use crate::geom::Vec3;
use crate::import::model::{Curve, CurveSegment, Face, Model, Surface};

/// A face's trim loops sampled into parameter space, for point-in-face tests.
///
/// Each loop's 3-D coedge curves are sampled (adaptively) and projected onto
/// the face's surface; periodic parameters are unwrapped along the loop. A
/// point `(u, v)` is inside when the nearest loop crossing of the line
/// `u = const` through it (`v = const` when the loops wind round v)
/// leaves the point on the loop's left side (loops run
/// with the face on their left seen from the face's outward normal, i.e. on
/// the left in `(u, v)` when the face has `same_sense`). This handles outer
/// and inner loops, loops that wind once around a periodic direction, and
/// faces whose outer boundary degenerates into a pole. A face of a closed
/// surface whose loops are all holes ([`FaceTrim::holes_only`]) is the rest
/// of the surface: outside their even–odd interior. The point is classified
/// against [`FaceTrim::fine`] where the chords between samples leave the
/// curves' images (near a pole).
#[derive(Debug, Clone)]
pub struct FaceTrim {
    /// Sampled loops in parameter space.
    pub loops: Vec<Vec<(f64, f64)>>,
    /// The loops with points added inside the chords that leave the curve's
    /// image in parameter space (a curve passing near a pole of the surface,
    /// see `chord_refine`); empty when no chord was split. What
    /// [`FaceTrim::contains`] classifies against; the exact trims are built
    /// from [`FaceTrim::loops`].
    pub fine: Vec<Vec<(f64, f64)>>,
    /// True when the face is its closed surface minus what the loops enclose
    /// (every loop a hole, see [`all_holes`]): [`FaceTrim::contains_in`]
    /// then takes the outside of their even–odd interior.
    pub holes_only: bool,
    /// Periods of u and v.
    pub periods: (Option<f64>, Option<f64>),
    /// `same_sense` of the face.
    pub same_sense: bool,
    /// Parameter box of the samples (or the natural box) for projection seeds.
    pub bounds: ((f64, f64), (f64, f64)),
    /// For a cone: the apex parameter `v` and `sin a`; beyond the apex the
    /// parameterisation reverses orientation.
    pub cone_apex: Option<(f64, f64)>,
    /// Per sampled loop: which samples each coedge gave (for exact trims).
    pub coedge_spans: Vec<Vec<CoedgeSpan>>,
    /// True when the loops ran against the face sense and [`FaceTrim::new`]
    /// reversed `same_sense` to match them (see there).
    pub healed: bool,
}

/// The samples one coedge contributed to a sampled loop of [`FaceTrim`].
#[derive(Debug, Clone, PartialEq)]
pub struct CoedgeSpan {
    /// Index of the face loop (outer first, then the inner loops).
    pub face_loop: usize,
    /// Index of the coedge in that loop.
    pub coedge: usize,
    /// Range of its samples in the sampled loop.
    pub samples: std::ops::Range<usize>,
}

/// The fractions `s ∈ [0, 1]` (traversal order) at which a curve segment is
/// sampled: evenly within each span between the curve's breakpoints (a
/// polyline's vertices, a composite's joints, the knots of a degree-1
/// B-spline), every breakpoint included, so that a sampled polyline never cuts a corner of the curve
/// (nist_144: a 42-vertex polyline sampled at 9 points cut the corners of
/// every hole). Per span: 4 samples on a straight segment (its image on a
/// curved surface bends), 16 on a composite's segment; a smooth curve gets
/// 96 samples (8 per pole of a B-spline, 32–512) spread by span length.
pub fn sample_fractions(seg: &CurveSegment) -> Vec<f64> {
    fractions_and_breaks(seg).0
}

/// The indices of the samples of [`sample_fractions`] that lie on the
/// curve's inner breakpoints (a composite's joints, a polyline's vertices,
/// the knots of a degree-1 B-spline: where its direction may turn), in
/// increasing order; empty when `count` is not the number of its samples.
pub fn break_samples(seg: &CurveSegment, count: usize) -> Vec<usize> {
    let (fr, breaks) = fractions_and_breaks(seg);
    if fr.len() == count {
        breaks
    } else {
        Vec::new()
    }
}

/// [`sample_fractions`] and [`break_samples`].
fn fractions_and_breaks(seg: &CurveSegment) -> (Vec<f64>, Vec<usize>) {
    let (t0, t1) = (seg.t0, seg.t1);
    if !(t0.is_finite() && t1.is_finite() && t1 > t0) {
        return ((0..=8).map(|i| i as f64 / 8.0).collect(), Vec::new());
    }
    let inner = |ts: Vec<f64>| -> Vec<f64> { ts.into_iter().filter(|&t| t > t0 && t < t1).collect() };
    let integers = || inner((t0.ceil() as i64..=t1.floor() as i64).map(|k| k as f64).collect());
    let (breaks, per_span, total) = match &seg.curve {
        Curve::Line { .. } => (Vec::new(), 8, 8),
        Curve::Polyline(_) => (integers(), 4, 8),
        Curve::Composite(_) => (integers(), 16, 96),
        // a degree-1 B-spline is a polyline (corners at its knots); a smooth
        // B-spline keeps its even samples, which the exact trims' fits were
        // validated on (8 per pole)
        Curve::BSpline(b) if b.degree == 1 => {
            let mut ks = b.knots.clone();
            ks.dedup();
            (inner(ks), 4, 8)
        }
        Curve::BSpline(b) => (Vec::new(), 1, (b.cw.len() * 8).clamp(32, 512)),
        _ => (Vec::new(), 96, 96),
    };
    let mut ts = vec![t0];
    ts.extend(breaks);
    ts.push(t1);
    let len = t1 - t0;
    let mut out = Vec::new();
    let mut at_breaks = Vec::new();
    for (i, w) in ts.windows(2).enumerate() {
        if i > 0 {
            at_breaks.push(out.len());
        }
        let k = ((total as f64 * (w[1] - w[0]) / len).ceil() as usize).max(per_span).min(4096);
        for j in 0..k {
            out.push((w[0] + (w[1] - w[0]) * j as f64 / k as f64 - t0) / len);
        }
    }
    out.push(1.0);
    if !seg.forward {
        // eval_unit(s) runs from t1 down: the fraction of parameter t is (t1 − t) / len
        for s in &mut out {
            *s = 1.0 - *s;
        }
        out.reverse();
        let last = out.len() - 1;
        at_breaks = at_breaks.into_iter().rev().map(|i| last - i).collect();
    }
    (out, at_breaks)
}

/// The fractions of `count` samples of `seg` (traversal order): those of
/// [`sample_fractions`] when it gives that many (the samples [`FaceTrim`]
/// took), else `count` evenly spaced ones. The fraction of sample `k` is
/// not `k / (count − 1)` where the breakpoints split the range unevenly (a
/// composite used from inside a segment: that segment's 16 samples on a
/// short stretch).
pub fn fractions_of_samples(seg: &CurveSegment, count: usize) -> Vec<f64> {
    let fr = sample_fractions(seg);
    if fr.len() == count {
        return fr;
    }
    let n = count.saturating_sub(1).max(1) as f64;
    (0..count).map(|k| k as f64 / n).collect()
}

/// Appends the coedge's 3-D samples to `out` and, for each, a parameter
/// hint to `hints`: the point of the coedge's p-curve (when the file gives
/// one) at the same fraction of the curve, oriented by which end of the
/// p-curve lies at the first sample. The hint picks the sheet when the
/// surface passes through a sample more than once (a thread flank whose
/// root strip touches the next turn); [`FaceTrim::to_uv`] only starts
/// Newton there and keeps the result when it lands on the sample.
///
/// Returns the curve segment sampled and its fractions (one per sample),
/// `None` for a boundary given in parameter space only.
fn coedge_samples(
    model: &Model,
    face: &Surface,
    c: &crate::import::model::Coedge,
    out: &mut Vec<Vec3>,
    hints: &mut Vec<Option<(f64, f64)>>,
) -> Option<(CurveSegment, Vec<f64>)> {
    let seg = if let Some(e) = c.edge.and_then(|e| model.edges.get(e)) {
        CurveSegment {
            curve: e.curve.clone(),
            t0: e.t0,
            t1: e.t1,
            forward: c.forward,
        }
    } else if let Some(s) = &c.curve {
        s.clone()
    } else if let Some(p) = c
        .pcurve
        .as_ref()
        .filter(|p| p.t0.is_finite() && p.t1.is_finite() && p.t1 > p.t0)
    {
        // a boundary given in parameter space only (IGES 142 with no
        // model-space curve): its points on the surface, each with its own
        // parameters as the hint
        for s in sample_fractions(p) {
            let q = p.eval_unit(s).p;
            if !(q.x.is_finite() && q.y.is_finite()) {
                continue;
            }
            out.push(face.eval(q.x, q.y));
            hints.push(Some((q.x, q.y)));
        }
        return None;
    } else {
        return None;
    };
    let fractions = sample_fractions(&seg);
    let first = out.len();
    for &s in &fractions {
        out.push(seg.eval_unit(s).p);
    }
    let pc = c
        .pcurve
        .as_ref()
        .filter(|p| p.t0.is_finite() && p.t1.is_finite() && p.t1 > p.t0);
    let at = |p: &CurveSegment, s: f64| {
        let q = p.eval_unit(s).p;
        (q.x.is_finite() && q.y.is_finite()).then_some((q.x, q.y))
    };
    let flip = pc.and_then(|p| {
        let (a, b) = (at(p, 0.0)?, at(p, 1.0)?);
        let s0 = out[first];
        let da = (face.eval(a.0, a.1) - s0).norm();
        let db = (face.eval(b.0, b.1) - s0).norm();
        Some(db < da)
    });
    for &s in &fractions {
        hints.push(match (pc, flip) {
            (Some(p), Some(f)) => at(p, if f { 1.0 - s } else { s }),
            _ => None,
        });
    }
    Some((seg, fractions))
}

impl FaceTrim {
    /// Samples the loops of face `face` of `model`.
    pub fn new(model: &Model, face: &Face) -> Self {
        let periods = face.surface.periods();
        let mut loops = Vec::new();
        let mut fine = Vec::new();
        let mut refined = false;
        let mut coedge_spans = Vec::new();
        let (nu, nv) = face.surface.natural_bounds();
        let chords = Chords {
            surface: &face.surface,
            periods,
            bounds: (nu.unwrap_or((-1e9, 1e9)), nv.unwrap_or((-1e9, 1e9))),
        };
        // seams (an edge used twice by the face) lie on the period boundary
        // and bound nothing: leave them out
        let mut uses: Vec<usize> = face
            .outer
            .iter()
            .chain(face.inner.iter())
            .flat_map(|l| l.coedges.iter().filter_map(|c| c.edge))
            .collect();
        uses.sort_unstable();
        let seam = |e: usize| uses.iter().filter(|&&x| x == e).count() > 1;
        for (fl, lp) in face.outer.iter().chain(face.inner.iter()).enumerate() {
            let mut pts = Vec::new();
            let mut hints = Vec::new();
            let mut spans = Vec::new();
            let mut sources = Vec::new();
            for (ci, c) in lp.coedges.iter().enumerate() {
                if c.edge.is_some_and(seam) {
                    continue;
                }
                let first = pts.len();
                let source = coedge_samples(model, &face.surface, c, &mut pts, &mut hints);
                if pts.len() > first {
                    sources.push(source);
                    spans.push(CoedgeSpan {
                        face_loop: fl,
                        coedge: ci,
                        samples: first..pts.len(),
                    });
                }
            }
            if pts.len() < 2 {
                continue;
            }
            let uv = Self::to_uv(&face.surface, &pts, &hints, periods);
            // the chords of each coedge's samples, split where they leave the curve's image
            let mut f: Vec<(f64, f64)> = Vec::with_capacity(uv.len());
            for (sp, src) in spans.iter().zip(&sources) {
                let r = sp.samples.clone();
                match src.as_ref().and_then(|(seg, fr)| chords.refine(seg, fr, &pts[r.clone()], &uv[r.clone()])) {
                    Some(more) => {
                        refined = true;
                        f.extend(more);
                    }
                    None => f.extend_from_slice(&uv[r]),
                }
            }
            fine.push(f);
            loops.push(uv);
            coedge_spans.push(spans);
        }
        if !refined {
            fine.clear();
        }
        let mut lo = (f64::INFINITY, f64::INFINITY);
        let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for l in &loops {
            for &(u, v) in l {
                lo = (lo.0.min(u), lo.1.min(v));
                hi = (hi.0.max(u), hi.1.max(v));
            }
        }
        let pick = |nat: Option<(f64, f64)>, lo: f64, hi: f64, periodic: bool| -> (f64, f64) {
            match nat {
                Some((a, b)) if periodic || !(lo.is_finite() && hi.is_finite()) => (a, b),
                Some((a, b)) => {
                    let m = 0.02 * (hi - lo).abs().max(1e-9);
                    ((lo - m).max(a), (hi + m).min(b))
                }
                None if lo.is_finite() && hi.is_finite() => {
                    let m = 0.02 * (hi - lo).abs().max(1e-9);
                    (lo - m, hi + m)
                }
                None => (-1e3, 1e3),
            }
        };
        let bu = pick(nu, lo.0, hi.0, periods.0.is_some());
        let bv = pick(nv, lo.1, hi.1, periods.1.is_some());
        let cone_apex = match &face.surface {
            Surface::Cone { radius, semi_angle, .. } => Some((-radius / semi_angle.sin(), semi_angle.sin())),
            _ => None,
        };
        let mut t = Self {
            loops,
            fine,
            holes_only: false,
            periods,
            same_sense: face.same_sense,
            bounds: (bu, bv),
            cone_apex,
            coedge_spans,
            healed: false,
        };
        // Orientation witness: a seam lies inside the face (the face continues
        // on both of its sides), so the middle of a seam edge must test inside.
        // When a loop winds around a period (the only case where the side is
        // read from the loops' orientation) and it tests outside, the loops
        // run against the face sense — some writers (Euclid) close sphere and
        // cone caps so — and the face is the other side, as Open CASCADE's
        // wire-orientation repair decides.
        if t.loops.iter().any(|l| t.winds(l)) {
            let witness = face
                .outer
                .iter()
                .chain(face.inner.iter())
                .flat_map(|l| l.coedges.iter())
                .filter_map(|c| c.edge.filter(|&e| seam(e)))
                .find_map(|e| model.edges.get(e));
            if let Some(e) = witness {
                let mid = CurveSegment {
                    curve: e.curve.clone(),
                    t0: e.t0,
                    t1: e.t1,
                    forward: true,
                }
                .eval_unit(0.5)
                .p;
                if let Some(&(u, v)) = Self::to_uv(&face.surface, &[mid], &[], periods).first() {
                    // a little off the seam, where the face lies on both sides
                    let nudge = |x: f64, per: Option<f64>| per.map_or(x, |p| x + 1e-4 * p);
                    let (u, v) = (nudge(u, periods.0), nudge(v, periods.1));
                    if u.is_finite() && v.is_finite() && !t.contains(u, v) {
                        t.same_sense = !t.same_sense;
                        t.healed = true;
                    }
                }
            }
        }
        t.holes_only = all_holes(face, &t);
        t
    }

    /// Parameters of the loop samples `pts`; `hints` (empty, or one per
    /// sample) are p-curve points tried first as Newton starts.
    fn to_uv(
        s: &Surface,
        pts: &[Vec3],
        hints: &[Option<(f64, f64)>],
        periods: (Option<f64>, Option<f64>),
    ) -> Vec<(f64, f64)> {
        let (nu, nv) = s.natural_bounds();
        let bounds = (nu.unwrap_or((-1e9, 1e9)), nv.unwrap_or((-1e9, 1e9)));
        let mut out: Vec<(f64, f64)> = Vec::with_capacity(pts.len());
        let mut prev: Option<(f64, f64)> = None;
        // distance of the previous sample to the surface: an edge off its
        // surface by a modelling gap keeps a similar gap from sample to
        // sample, so the warm-started Newton is accepted up to twice it
        // (at most 1e-3 relative; the grid search is for real jumps only)
        let mut prev_dist = 0.0f64;
        for (i, p) in pts.iter().enumerate() {
            let scale = 1.0 + p.norm();
            // the file's p-curve at this sample, when Newton from it lands on the sample
            let analytic = s.analytic_params(p);
            let hinted = hints
                .get(i)
                .copied()
                .flatten()
                .filter(|_| analytic.is_none())
                .and_then(|(hu, hv)| {
                    let a = newton_surface(s, p, hu, hv, bounds);
                    let accept = (1e-6 * scale).max((2.0 * prev_dist).min(1e-3 * scale));
                    (a.distance <= accept && a.u.is_finite() && a.v.is_finite()).then_some(a)
                });
            let (mut u, mut v) = match (analytic, prev, hinted) {
                (Some(uv), _, _) => uv,
                (None, _, Some(a)) => {
                    prev_dist = a.distance;
                    (a.u, a.v)
                }
                (None, Some((pu, pv)), None) => {
                    let a = newton_surface(s, p, pu, pv, bounds);
                    let accept = (1e-6 * scale).max((2.0 * prev_dist).min(1e-3 * scale));
                    let g = if a.distance > accept {
                        project_surface(s, p, bounds, 24)
                    } else {
                        a
                    };
                    let best = if g.distance < a.distance { g } else { a };
                    prev_dist = best.distance;
                    (best.u, best.v)
                }
                (None, None, None) => {
                    let g = project_surface(s, p, bounds, 24);
                    prev_dist = g.distance;
                    (g.u, g.v)
                }
            };
            if u.is_nan() {
                u = prev.map_or(0.0, |q| q.0);
            }
            if let Some((pu, pv)) = prev {
                if let Some(t) = periods.0 {
                    u += ((pu - u) / t).round() * t;
                }
                if let Some(t) = periods.1 {
                    v += ((pv - v) / t).round() * t;
                }
            }
            prev = Some((u, v));
            out.push((u, v));
        }
        // a pole sample (u undefined) takes its u from the next sample
        out
    }

    /// True when the loop's unwrapped end is a period away from its start.
    fn winds(&self, l: &[(f64, f64)]) -> bool {
        self.winds_in(l, 0) || self.winds_in(l, 1)
    }

    /// True when the loop's unwrapped end is a period of direction `k`
    /// (0 = u, 1 = v) away from its start.
    pub fn winds_in(&self, l: &[(f64, f64)], k: usize) -> bool {
        let (Some(a), Some(b)) = (l.first(), l.last()) else {
            return false;
        };
        let far = |d: f64, t: Option<f64>| t.is_some_and(|t| d.abs() > 0.5 * t);
        if k == 0 {
            far(b.0 - a.0, self.periods.0)
        } else {
            far(b.1 - a.1, self.periods.1)
        }
    }

    /// Even-odd test (all loops closed in the unwrapped parameter plane):
    /// independent of the loops' orientation.
    fn parity(&self, loops: &[Vec<(f64, f64)>], u: f64, v: f64) -> bool {
        let mut inside = false;
        for l in loops {
            let vmin = l.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let mut vp = v;
            if let Some(t) = self.periods.1 {
                vp += ((vmin - vp) / t).ceil() * t;
            }
            let n = l.len();
            for k in 0..n {
                let a = l[k];
                let b = l[(k + 1) % n];
                let (umin, umax) = (a.0.min(b.0), a.0.max(b.0));
                if umax <= umin {
                    continue;
                }
                let mut up = u;
                if let Some(t) = self.periods.0 {
                    up += ((umin - up) / t).ceil() * t;
                }
                if !(up >= umin && up < umax) {
                    continue;
                }
                let vc = a.1 + (up - a.0) / (b.0 - a.0) * (b.1 - a.1);
                if vc > vp {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// True when `(u, v)` lies inside the trimmed face.
    pub fn contains(&self, u: f64, v: f64) -> bool {
        if self.fine.is_empty() {
            self.contains_in(&self.loops, u, v)
        } else {
            self.contains_in(&self.fine, u, v)
        }
    }

    /// [`FaceTrim::contains`] with other loops in place of the sampled
    /// ones (same unwrapping, periods and sense: for example the exact trim
    /// curves, finely flattened).
    pub fn contains_in(&self, loops: &[Vec<(f64, f64)>], u: f64, v: f64) -> bool {
        if loops.is_empty() {
            return true;
        }
        if !loops.iter().any(|l| self.winds(l)) {
            return self.parity(loops, u, v) != self.holes_only;
        }
        let mut sigma = if self.same_sense { 1.0 } else { -1.0 };
        if let Some((apex, sa)) = self.cone_apex {
            if (v - apex) * sa < 0.0 {
                sigma = -sigma;
            }
        }
        // The winding direction `k` (0 = u, 1 = v; a closed B-spline may wind
        // round v): cast along the other parameter and take the side of the
        // nearest loop crossing. In the transposed frame (x = winding
        // parameter, y = the other) the orientation flips.
        let k = if loops.iter().any(|l| self.winds_in(l, 0)) {
            0
        } else {
            1
        };
        let (px, py) = if k == 0 {
            (self.periods.0, self.periods.1)
        } else {
            (self.periods.1, self.periods.0)
        };
        if k == 1 {
            sigma = -sigma;
        }
        let xy = |q: (f64, f64)| if k == 0 { q } else { (q.1, q.0) };
        let (x, y) = xy((u, v));
        let mut nearest: Option<(f64, bool)> = None; // (|dy|, inside)
        for l in loops {
            let n = l.len();
            for i in 0..n {
                let a = xy(l[i]);
                let mut b = xy(l[(i + 1) % n]);
                if i + 1 == n {
                    // closing segment: unwrap the last-to-first step
                    if let Some(t) = px {
                        b.0 += ((a.0 - b.0) / t).round() * t;
                    }
                    if let Some(t) = py {
                        b.1 += ((a.1 - b.1) / t).round() * t;
                    }
                }
                let (xmin, xmax) = (a.0.min(b.0), a.0.max(b.0));
                if xmax <= xmin {
                    continue;
                }
                let mut xp = x;
                if let Some(t) = px {
                    xp += ((xmin - xp) / t).ceil() * t;
                }
                if !(xp >= xmin && xp < xmax) {
                    continue;
                }
                let s = (xp - a.0) / (b.0 - a.0);
                let yc = a.1 + s * (b.1 - a.1);
                let mut dy = yc - y;
                if let Some(t) = py {
                    dy -= (dy / t).round() * t;
                }
                let moving_plus_x = (b.0 - a.0) * sigma > 0.0;
                // left of a +x segment is above it; left of a −x segment below
                let inside = if dy > 0.0 { !moving_plus_x } else { moving_plus_x };
                if nearest.map_or(true, |(d, _)| dy.abs() < d) {
                    nearest = Some((dy.abs(), inside));
                }
            }
        }
        nearest.is_some_and(|(_, inside)| inside)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::TAU;

    #[test]
    fn square_with_a_hole() {
        // outer square counter-clockwise, inner square clockwise (a hole)
        let sq = |a: f64, b: f64, ccw: bool| {
            let mut p = vec![(a, a), (b, a), (b, b), (a, b)];
            if !ccw {
                p.reverse();
            }
            p
        };
        let t = FaceTrim {
            loops: vec![sq(0.0, 4.0, true), sq(1.0, 2.0, false)],
            periods: (None, None),
            same_sense: true,
            bounds: ((0.0, 4.0), (0.0, 4.0)),
            cone_apex: None,
            coedge_spans: Vec::new(),
            healed: false,
            fine: Vec::new(),
            holes_only: false,
        };
        assert!(t.contains(3.0, 3.0));
        assert!(!t.contains(1.5, 1.5));
        assert!(!t.contains(5.0, 1.0));
    }

    #[test]
    fn cap_of_a_surface_closed_in_v() {
        // a rim winding round v at u = 1 (+v), the face the cap u ∈ [1, 8]
        // up to a pole at u = 8 (transposed band_on_a_cylinder's bottom)
        let rim: Vec<(f64, f64)> = (0..=16).map(|k| (1.0, 8.0 * k as f64 / 16.0)).collect();
        let t = FaceTrim {
            loops: vec![rim],
            periods: (None, Some(8.0)),
            same_sense: true,
            bounds: ((0.0, 8.0), (0.0, 8.0)),
            cone_apex: None,
            coedge_spans: Vec::new(),
            healed: false,
            fine: Vec::new(),
            holes_only: false,
        };
        // left of +v is −u after the transpose: the side u < 1
        assert!(t.contains(0.5, 3.0));
        assert!(!t.contains(4.0, 3.0));
        let mut r = t.clone();
        r.same_sense = false;
        assert!(r.contains(4.0, 3.0) && r.contains(7.9, -5.0));
        assert!(!r.contains(0.5, 3.0));
    }

    #[test]
    fn band_on_a_cylinder() {
        // bottom circle +u at v = 0, top circle −u at v = 2: the band between
        let bottom: Vec<(f64, f64)> = (0..=16).map(|k| (TAU * k as f64 / 16.0, 0.0)).collect();
        let top: Vec<(f64, f64)> = (0..=16).map(|k| (TAU * (16 - k) as f64 / 16.0, 2.0)).collect();
        let mut lp = bottom;
        lp.extend(top);
        let t = FaceTrim {
            loops: vec![lp],
            periods: (Some(TAU), None),
            same_sense: true,
            bounds: ((0.0, TAU), (0.0, 2.0)),
            cone_apex: None,
            coedge_spans: Vec::new(),
            healed: false,
            fine: Vec::new(),
            holes_only: false,
        };
        assert!(t.contains(1.0, 1.0));
        assert!(t.contains(-5.0, 1.5));
        assert!(!t.contains(1.0, 2.5));
        assert!(!t.contains(1.0, -0.5));
    }

    #[test]
    fn loop_samples_follow_the_pcurve_where_the_surface_folds() {
        // A strip folded onto itself: x = u on u ∈ [0, 1], then back,
        // x = 1 − 0.9 (u − 1) on u ∈ [1, 2]; every point with x ∈ [0.1, 1]
        // lies on both sheets. A face on the second sheet (its p-curves say
        // u ∈ [1.2, 1.8]) must be sampled there, not where a projection of
        // the 3-D edges happens to land first (m6_screw face #3818: a thread
        // flank whose root strip touches the next turn).
        use crate::geom::NurbsSurface;
        use crate::import::model::{Coedge, Loop, SourceFormat};
        let pts = [
            [0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.1, 0.0, 0.0],
            [0.1, 1.0, 0.0],
        ];
        let b = NurbsSurface::try_new(
            1,
            1,
            vec![0.0, 0.0, 1.0, 2.0, 2.0],
            vec![0.0, 0.0, 1.0, 1.0],
            3,
            2,
            &pts,
            None,
        )
        .unwrap();
        let surface = Surface::BSpline(b);
        let corners = [(1.2, 0.3), (1.8, 0.3), (1.8, 0.7), (1.2, 0.7)];
        let line = |a: (f64, f64), b: (f64, f64), z: f64| CurveSegment {
            curve: Curve::Line {
                origin: Vec3::new(a.0, a.1, z),
                dir: Vec3::new(b.0 - a.0, b.1 - a.1, 0.0),
            },
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        let coedges = (0..4)
            .map(|k| {
                let (a, b) = (corners[k], corners[(k + 1) % 4]);
                let (pa, pb) = (surface.eval(a.0, a.1), surface.eval(b.0, b.1));
                Coedge {
                    edge: None,
                    forward: true,
                    pcurve: Some(line(a, b, 0.0)),
                    curve: Some(CurveSegment {
                        curve: Curve::Line {
                            origin: pa,
                            dir: pb - pa,
                        },
                        t0: 0.0,
                        t1: 1.0,
                        forward: true,
                    }),
                    pcurve_preferred: false,
                    source: k as u64,
                }
            })
            .collect();
        let face = Face {
            surface,
            same_sense: true,
            outer: Some(Loop { coedges, source: 9 }),
            inner: Vec::new(),
            source: 10,
        };
        let model = Model::new(SourceFormat::Step, "folded");
        let t = FaceTrim::new(&model, &face);
        assert_eq!(t.loops.len(), 1);
        for &(u, v) in &t.loops[0] {
            assert!(
                (1.2 - 1e-9..=1.8 + 1e-9).contains(&u) && (0.3 - 1e-9..=0.7 + 1e-9).contains(&v),
                "sample ({u}, {v}) off the p-curves' sheet"
            );
        }
        assert!(t.contains(1.5, 0.5));
        assert!(!t.contains(0.55, 0.5));
    }

    /// Classifies a point of the sphere against the 3-D truth of the cap
    /// `x < d` minus a hole of angular radius `h` round the pole `−x`, and
    /// returns the misclassified points `(u, v)` among those `margin` (mm)
    /// clear of both circles.
    fn cap_errors(
        contains: impl Fn(f64, f64) -> bool,
        pts: &[(f64, f64)],
        r: f64,
        d: f64,
        h: f64,
        margin: f64,
    ) -> Vec<(f64, f64)> {
        pts.iter()
            .copied()
            .filter(|&(u, v)| {
                let p = Vec3::new(v.cos() * u.cos(), v.cos() * u.sin(), v.sin()) * r;
                let to_hole = r * (-p.x / r).clamp(-1.0, 1.0).acos();
                if (p.x - d).abs() < margin || (to_hole - r * h).abs() < margin {
                    return false;
                }
                let truth = p.x < d && to_hole > r * h;
                contains(u, v) != truth
            })
            .collect()
    }

    #[test]
    fn a_sphere_cap_through_both_poles_with_a_hole() {
        // alibre_s1 #1920/#1922's class: a sphere (R 10) bounded by a circle
        // in the plane x = d passing 0.0028 rad from both poles, the face the
        // side of the centre (it holds both poles: every loop is a hole),
        // with a small hole round the pole −x. The circle's image in (u, v)
        // turns by π in u within 0.0028 rad of each pole.
        use crate::geom::Frame;
        use crate::import::model::{Coedge, Loop, SourceFormat};
        use std::f64::consts::FRAC_PI_2;
        let (r, d, hr) = (10.0, 0.028, 0.025);
        let circle = |c: Vec3, radius: f64, forward: bool| Coedge {
            edge: None,
            forward: true,
            pcurve: None,
            curve: Some(CurveSegment {
                curve: Curve::Circle {
                    frame: Frame::from_axis_ref(c, Vec3::x(), Some(Vec3::y())).unwrap(),
                    radius,
                },
                t0: 0.0,
                t1: TAU,
                forward,
            }),
            pcurve_preferred: false,
            source: 0,
        };
        let lp = |c: Coedge| Loop { coedges: vec![c], source: 0 };
        let frame = Frame::from_axis_ref(Vec3::zeros(), Vec3::z(), Some(Vec3::x())).unwrap();
        let surface = Surface::Sphere { frame, radius: r };
        // the rim runs clockwise about +x (the face, on the −x side, on its
        // left seen from outside), the hole anticlockwise about +x
        let rim = |fwd: bool| circle(Vec3::new(d, 0.0, 0.0), (r * r - d * d).sqrt(), fwd);
        let hole = |fwd: bool| circle(Vec3::new(-(r * r - hr * hr).sqrt(), 0.0, 0.0), hr, fwd);
        let faces = [
            // as written: the rim the outer loop
            (lp(rim(false)), vec![lp(hole(true))], true),
            // the hole written as the outer loop (alibre_s1 #1920)
            (lp(hole(true)), vec![lp(rim(false))], true),
            // the face against its sphere, both loops reversed
            (lp(rim(true)), vec![lp(hole(false))], false),
        ];
        // points near both poles (within 0.05 rad), and over the sphere
        let mut pts = Vec::new();
        for &dv in &[5e-4, 1e-3, 2e-3, 3e-3, 4e-3, 6e-3, 1e-2, 2e-2, 5e-2] {
            for i in 0..96 {
                let u = TAU * (i as f64 + 0.25) / 96.0;
                pts.push((u, FRAC_PI_2 - dv));
                pts.push((u, dv - FRAC_PI_2));
            }
        }
        for i in 0..48 {
            for j in 1..24 {
                pts.push((TAU * (i as f64 + 0.5) / 48.0, -FRAC_PI_2 + std::f64::consts::PI * j as f64 / 24.0));
            }
        }
        // near the hole
        for i in 0..32 {
            for &rho in &[0.5 * hr / r, 2.0 * hr / r] {
                let a = TAU * i as f64 / 32.0;
                pts.push((std::f64::consts::PI + rho * a.cos(), rho * a.sin()));
            }
        }
        let model = Model::new(SourceFormat::Step, "cap");
        for (k, (outer, inner, same_sense)) in faces.into_iter().enumerate() {
            let face = Face {
                surface: surface.clone(),
                same_sense,
                outer: Some(outer),
                inner,
                source: 1,
            };
            let t = FaceTrim::new(&model, &face);
            assert!(t.holes_only, "face {k}: every loop is a hole");
            assert!(!t.fine.is_empty(), "face {k}: the chords across the poles are split");
            // 1e-4 mm (1e-5 of the radius) clear of the boundary
            let wrong = cap_errors(|u, v| t.contains(u, v), &pts, r, d, hr / r, 1e-4);
            assert!(wrong.is_empty(), "face {k}: {} of {} points misclassified: {:?}", wrong.len(), pts.len(), &wrong[..wrong.len().min(8)]);
            // the samples' own chords cut up to 0.03 rad into the face at the poles
            let coarse = cap_errors(|u, v| t.contains_in(&t.loops, u, v), &pts, r, d, hr / r, 1e-4);
            assert!(coarse.iter().all(|p| p.1.abs() > 1.5), "face {k}: {coarse:?}");
            assert!(coarse.len() > 10, "face {k}: the test's points miss the chords across the poles");
        }
    }
}

//! Edge split: an edge whose 3-D curve or p-curve is a composite and whose
//! p-curve does not share the edge's parameter is written as one edge per
//! p-curve segment (AP214 edges cannot carry a COMPOSITE_CURVE, and a reader
//! cannot pair a 2-segment 3-D composite with a 4-segment p-curve).
//!
//! Per p-curve segment: its 3-D end points are the surface at the p-curve's
//! ends; a segment whose 3-D image is a point (a pole: start, middle and end
//! within the tolerance) is left out (readers add the degenerated edge); the
//! segment's 3-D curve is the part of the edge's curve between the
//! parameters of its end points (projected, monotonically along the edge);
//! a part spanning a joint of a 3-D composite is split again at the joint
//! (at the p-curve parameter whose surface point is the joint). Every piece
//! lies in one segment of each composite, so it is written as a trimmed
//! basis curve. Any end or middle point off the other curve by more than the
//! check distance gives `None` (the caller keeps the unsplit edge).

use crate::import::eval::curve_param_in_range;
use crate::import::model::{Curve, CurveSegment, Surface};

/// One piece of a split edge, along the edge's direction.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Piece<'c> {
    /// 3-D basis curve.
    pub c3: &'c Curve,
    /// Basis parameters at the piece's start and end.
    pub t3: (f64, f64),
    /// Parameter-space basis curve.
    pub c2: &'c Curve,
    /// Basis parameters at the piece's start and end.
    pub t2: (f64, f64),
    /// 3-D point at the piece's end (the surface at the p-curve's end).
    pub end: crate::geom::Vec3,
}

/// The basis curve and basis parameter of composite (or plain) parameter `t`;
/// `seg` picks the composite segment (pieces never straddle a joint).
fn basis(c: &Curve, t: f64, seg: usize) -> (&Curve, f64) {
    match c {
        Curve::Composite(segs) if !segs.is_empty() => {
            let k = seg.min(segs.len() - 1);
            let s = &segs[k];
            let u = (t - k as f64).clamp(0.0, 1.0);
            let len = s.t1 - s.t0;
            let b = if s.forward { s.t0 + u * len } else { s.t1 - u * len };
            // nested composites are refused by the caller
            (&s.curve, b)
        }
        _ => (c, t),
    }
}

/// Segment index of the range `(a, b)` on a composite (0 otherwise).
fn seg_of(c: &Curve, a: f64, b: f64) -> usize {
    match c {
        Curve::Composite(_) => (0.5 * (a + b)).floor().max(0.0) as usize,
        _ => 0,
    }
}

/// Integer joints strictly inside `(a, b)` of a composite.
fn joints(c: &Curve, a: f64, b: f64) -> Vec<f64> {
    match c {
        Curve::Composite(_) => {
            let eps = 1e-9;
            let mut j = (a + eps).floor() + 1.0;
            let mut out = Vec::new();
            while j < b - eps {
                out.push(j);
                j += 1.0;
            }
            out
        }
        _ => Vec::new(),
    }
}

/// True when a curve is a composite with a nested composite segment (not split).
fn nested(c: &Curve) -> bool {
    matches!(c, Curve::Composite(s) if s.iter().any(|x| matches!(x.curve, Curve::Composite(_))))
}

/// The p-curve parameter on `[lo, hi]` whose surface point is nearest `p`
/// (sampling, then golden-section refinement around the best sample).
fn pcurve_param_of(pc: &Curve, s: &Surface, p: &crate::geom::Vec3, lo: f64, hi: f64) -> f64 {
    let f = |t: f64| {
        let q = pc.eval(t);
        (s.eval(q.x, q.y) - p).norm()
    };
    let n = 64;
    let h = (hi - lo) / n as f64;
    let mut best = (lo, f64::INFINITY);
    for i in 0..=n {
        let t = lo + h * i as f64;
        let d = f(t);
        if d < best.1 {
            best = (t, d);
        }
    }
    let (mut a, mut b) = ((best.0 - h).max(lo), (best.0 + h).min(hi));
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..80 {
        let (x1, x2) = (b - g * (b - a), a + g * (b - a));
        if f(x1) <= f(x2) {
            b = x2;
        } else {
            a = x1;
        }
    }
    let t = 0.5 * (a + b);
    if f(t) <= best.1 {
        t
    } else {
        best.0
    }
}

/// Splits the edge `curve` on `[t0, t1]` (`t0 < t1`) with p-curve `pc` on
/// `surface` into pieces, one per non-degenerate p-curve segment (split again
/// at the 3-D composite's joints). `tol`: degenerate-segment tolerance;
/// `check`: the largest distance accepted between the two curves.
pub(super) fn split_edge<'c>(
    curve: &'c Curve,
    (t0, t1): (f64, f64),
    pc: &'c CurveSegment,
    surface: &Surface,
    tol: f64,
    check: f64,
) -> Option<Vec<Piece<'c>>> {
    if !(t0 < t1 && pc.t0 < pc.t1) || nested(curve) || nested(&pc.curve) {
        return None;
    }
    let sp = |t: f64| {
        let q = pc.curve.eval(t);
        surface.eval(q.x, q.y)
    };
    // p-curve segments, the degenerate ones (poles) left out
    let mut cuts = vec![pc.t0];
    cuts.extend(joints(&pc.curve, pc.t0, pc.t1));
    cuts.push(pc.t1);
    let kept: Vec<(f64, f64)> = cuts
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&(a, b)| {
            let (pa, pm, pb) = (sp(a), sp(0.5 * (a + b)), sp(b));
            (pa - pm).norm() > tol || (pa - pb).norm() > tol
        })
        .collect();
    if kept.is_empty() || (sp(kept[0].0) - curve.eval(t0)).norm() > check {
        return None;
    }
    // 3-D parameters of the kept segments' ends, monotonic along the edge
    let mut spans: Vec<((f64, f64), (f64, f64))> = Vec::new();
    let mut tcur = t0;
    for (i, &(a, b)) in kept.iter().enumerate() {
        let pb = sp(b);
        let mut te = if i + 1 == kept.len() { t1 } else { curve_param_in_range(curve, tcur, t1, &pb) };
        // an end at a joint of the 3-D composite is the joint
        let j = te.round();
        if matches!(curve, Curve::Composite(_)) && j > tcur && j < t1 && (curve.eval(j) - pb).norm() <= tol {
            te = j;
        }
        if !(te > tcur) || (curve.eval(te) - pb).norm() > check {
            return None;
        }
        // split at the 3-D composite's joints
        let mut s0 = a;
        let mut u0 = tcur;
        for j in joints(curve, tcur, te) {
            let pj = curve.eval(j);
            let s = pcurve_param_of(&pc.curve, surface, &pj, s0, b);
            if (sp(s) - pj).norm() > check || !(s > s0 && s < b) {
                return None;
            }
            spans.push(((s0, s), (u0, j)));
            s0 = s;
            u0 = j;
        }
        spans.push(((s0, b), (u0, te)));
        tcur = te;
    }
    // every piece's middle on the other curve
    let mut out = Vec::with_capacity(spans.len());
    for &((a, b), (u, v)) in &spans {
        let pm = sp(0.5 * (a + b));
        let tm = curve_param_in_range(curve, u, v, &pm);
        if (curve.eval(tm) - pm).norm() > check {
            return None;
        }
        let k3 = seg_of(curve, u, v);
        let (c3, ua) = basis(curve, u, k3);
        let (_, ub) = basis(curve, v, k3);
        let k2 = seg_of(&pc.curve, a, b);
        let (c2, sa) = basis(&pc.curve, a, k2);
        let (_, sb) = basis(&pc.curve, b, k2);
        out.push(Piece {
            c3,
            t3: (ua, ub),
            c2,
            t2: (sa, sb),
            end: sp(b),
        });
    }
    Some(out)
}

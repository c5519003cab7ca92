//! Pieces against the face's trim loops: fully inside, partly trimmed (the
//! loops are stored in the piece's own `[0,1]²`) or outside (dropped).
//!
//! **Exact loops.** Each loop of [`FaceTrim`] (3-D edge samples projected
//! and unwrapped in the face parameters) is rebuilt from the coedges'
//! p-curves ([`exact_loops`]): a line, circle, ellipse or (rational)
//! B-spline p-curve becomes its rational Bézier spans (knot insertion),
//! oriented and shifted by whole periods to match the coedge's samples. On
//! a plane, a coedge without a usable p-curve gets the same from its 3-D
//! curve (line, circle, ellipse, B-spline), mapped exactly by the plane's
//! affine parametrisation (the samples still decide orientation and
//! whether the curve lies on the plane). A
//! coedge keeps its samples as a polyline only when it has no p-curve,
//! the p-curve is a polyline or another kind, or it does not follow the
//! samples (a warning says so).
//!
//! **P-curves against 3-D edges.** A p-curve follows the coedge's samples
//! when every sample lies within `1e-3` × the samples' parameter diagonal
//! of it; one that does not is replaced by the projection of its 3-D edge
//! (or accepted by its image in space where the file prefers it). That
//! per-coedge choice mixes the two descriptions in one loop when they
//! disagree. So when some p-curve of a loop misses its samples, every
//! coedge of the loop has a p-curve of exact form whose image on the
//! surface lies within `1e-3` × the face's size of its 3-D edge, the
//! p-curves join end to end, and some image lies farther from its edge
//! than the file's tolerance (the model's linear tolerance, at least the
//! link tolerance `1e-6` × the face's size), the whole loop is bounded by
//! its p-curves, as Open CASCADE bounds a face (dtmb5415_bow #1: the
//! p-curve of one coedge leaves its 3-D edge by up to 0.65 mm near one end; the
//! file's resolution is 1.4e-2 mm). The 3-D edges stay the edge features
//! (trim curves link to them within the file's tolerance, see `features`);
//! the face range holds the p-curves' extremes ([`ExactLoops::extent`]).
//!
//! **Classification.** A piece is *partly trimmed* when a loop segment
//! (shifted by the periods of periodic directions) enters the piece's
//! face-parameter rectangle shrunk by a relative `1e-6` (exact Bézier
//! clipping); otherwise the rectangle lies in one region of constant
//! winding number and [`FaceTrim::contains`] at its centre decides
//! inside / outside.
//!
//! **Stored loops.** Each loop is clipped exactly to the piece's
//! face-parameter rectangle: Bézier segments are split (de Casteljau) at
//! the parameters where they cross the sides (Bernstein roots to ~1e-15),
//! the parts inside are kept; a part outside is replaced by its
//! nearest-point projection onto the rectangle (a path along the sides,
//! with the corners it passes), which leaves the winding number of every
//! interior point unchanged. Then the face parameters are mapped to the
//! piece's `[0,1]²`: exactly (affine map of the homogeneous control
//! points) when the face's NURBS parameters are its own; for angular
//! directions of analytic surfaces (a rational arc parameter, not the
//! angle) a segment along a parameter line stays exact (a line), any other
//! becomes polynomial Bézier pieces of degree ≤ 9 fitted to the true curve
//! ([`super::fit`]: error at most `1e-11` at `2n + 1` points of a
//! degree-`n` piece, at most 14 halvings; degree and halving chosen for the
//! fewest scene bytes).

use super::nurbs::FaceNurbs;
use crate::geom::bez2::{self, H2};
use crate::geom::primitives::ParamMap;
use crate::import::eval::FaceTrim;
use crate::import::model::{Curve, CurveSegment, Face, Model};
use crate::scene::data::{TrimCurve, TrimLoop};

/// Where a piece lies w.r.t. the face's trims.
#[derive(Debug, Clone, PartialEq)]
pub enum TrimStatus {
    /// Entirely inside the trimmed face.
    Inside,
    /// Entirely outside (dropped).
    Outside,
    /// Cut by the loops (given in the piece's `[0,1]²`).
    Partial(Vec<TrimLoop>),
}

/// A face's loops as chains of rational Bézier segments in face parameters
/// (one chain per loop of [`FaceTrim`], same unwrapping).
#[derive(Debug, Clone, Default)]
pub struct ExactLoops {
    /// The chains; consecutive segments meet (tiny gaps are bridged by lines).
    pub chains: Vec<Vec<Vec<H2>>>,
    /// Control-point boxes `[u0,u1,v0,v1]` of the segments, per chain.
    pub hulls: Vec<Vec<[f64; 4]>>,
    /// Coedges kept as sampled polylines (for the warnings).
    pub approximated: usize,
    /// Coedges without a p-curve, projected from their 3-D curves.
    pub projected: usize,
    /// Loops bounded by their p-curves as a whole because p-curves and
    /// 3-D edges disagree beyond the file's tolerance (see [`exact_loops`]):
    /// the loop's index and the largest distance of a p-curve's image from
    /// its 3-D edge.
    pub by_pcurves: Vec<(usize, f64)>,
    /// The chains flattened (a line by its start point, any other segment
    /// by [`FLAT_POINTS`] points), for [`FaceTrim::contains_in`]: the side of
    /// a piece no loop enters is decided by the exact curves, not by the
    /// samples (whose chords cut corners near a pole: alibre_s1 #1922).
    pub flat: Vec<Vec<(f64, f64)>>,
}

impl ExactLoops {
    /// The chains' extent `(lo, hi)` in face parameters: end points and the
    /// curves' interior extrema in each direction (`None` without chains).
    pub fn extent(&self) -> Option<((f64, f64), (f64, f64))> {
        let mut lo = (f64::INFINITY, f64::INFINITY);
        let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for h in self.chains.iter().flatten() {
            let ts = [0.0, 1.0]
                .into_iter()
                .chain(bez2::extrema(h, 0))
                .chain(bez2::extrema(h, 1));
            for t in ts {
                let p = bez2::eval(h, t);
                if p[0].is_finite() && p[1].is_finite() {
                    lo = (lo.0.min(p[0]), lo.1.min(p[1]));
                    hi = (hi.0.max(p[0]), hi.1.max(p[1]));
                }
            }
        }
        (lo.0 <= hi.0 && lo.1 <= hi.1).then_some((lo, hi))
    }
}

/// Points per curved segment in [`ExactLoops::flat`].
const FLAT_POINTS: usize = 32;

fn shifts(period: Option<f64>) -> Vec<f64> {
    match period {
        Some(p) => vec![-2.0 * p, -p, 0.0, p, 2.0 * p],
        None => vec![0.0],
    }
}

fn line(a: [f64; 2], b: [f64; 2]) -> Vec<H2> {
    vec![[a[0], a[1], 1.0], [b[0], b[1], 1.0]]
}

fn shifted(h: &[H2], du: f64, dv: f64) -> Vec<H2> {
    h.iter().map(|p| [p[0] + du * p[2], p[1] + dv * p[2], p[2]]).collect()
}

/// The p-curve `seg` as Bézier spans in traversal order (`None` when it has
/// no exact form here).
fn pcurve_chain(seg: &CurveSegment) -> Option<Vec<Vec<H2>>> {
    mapped_chain(seg, &|q| [q[0], q[1], q[3]])
}

/// A 3-D curve lying on a plane as an exact parameter-space chain: the
/// plane's parameters are affine in the point (`u = (p − o)·x`,
/// `v = (p − o)·y`), so the homogeneous poles map exactly. `None` when the
/// face is not a plane or the curve has no exact form; whether the curve
/// lies on the plane is left to [`fit_chain`] (the coedge's samples).
fn plane_chain(face: &Face, seg: &CurveSegment) -> Option<Vec<Vec<H2>>> {
    let crate::import::model::Surface::Plane { frame } = &face.surface else {
        return None;
    };
    mapped_chain(seg, &|q| plane_coords(frame, q))
}

/// The plane parameters `((p − o)·x, (p − o)·y)` of the homogeneous point
/// `q = [w·p, w]`, homogeneous (`[w·u, w·v, w]`).
fn plane_coords(frame: &crate::geom::Frame, q: [f64; 4]) -> H2 {
    let (o, x, y) = (frame.origin, frame.x, frame.y);
    let d = [q[0] - q[3] * o.x, q[1] - q[3] * o.y, q[2] - q[3] * o.z];
    [
        d[0] * x.x + d[1] * x.y + d[2] * x.z,
        d[0] * y.x + d[1] * y.y + d[2] * y.z,
        q[3],
    ]
}

/// The curve `seg` as Bézier spans in traversal order, each homogeneous
/// pole `[wx, wy, wz, w]` mapped to parameter space by `map`.
fn mapped_chain(seg: &CurveSegment, map: &dyn Fn([f64; 4]) -> H2) -> Option<Vec<Vec<H2>>> {
    let mut out: Vec<Vec<H2>> = match &seg.curve {
        Curve::Composite(parts) => {
            if !(seg.t0 <= 1e-9 && (seg.t1 - parts.len() as f64).abs() <= 1e-9) {
                return None;
            }
            let mut v = Vec::new();
            for p in parts {
                v.extend(mapped_chain(p, map)?);
            }
            v
        }
        Curve::Line { .. } | Curve::Circle { .. } | Curve::Ellipse { .. } | Curve::BSpline(_) => {
            let (c, _) = super::nurbs::curve_nurbs(&seg.curve, (seg.t0, seg.t1)).ok()?;
            // the scene stores Bézier trims of degree ≤ 15
            if c.degree > 15 {
                return None;
            }
            let mut v = Vec::new();
            for s in c.bezier_spans() {
                let h: Vec<H2> = s.curve.cw.iter().map(|q| map(*q)).collect();
                if !h.iter().all(|q| q.iter().all(|x| x.is_finite()) && q[2] > 0.0) {
                    return None;
                }
                v.push(h);
            }
            v
        }
        _ => return None,
    };
    if out.is_empty() {
        return None;
    }
    if !seg.forward {
        out.reverse();
        for h in &mut out {
            h.reverse();
        }
    }
    Some(out)
}

/// Point at fraction `f` of a chain (by span count and span parameter).
fn chain_at(c: &[Vec<H2>], f: f64) -> [f64; 2] {
    let x = (f.clamp(0.0, 1.0) * c.len() as f64).min(c.len() as f64 - 1e-12);
    let i = (x.floor() as usize).min(c.len() - 1);
    bez2::eval(&c[i], x - i as f64)
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Matches a p-curve chain to the coedge's samples `s` (face parameters,
/// unwrapped): orientation and whole-period shift; `None` when it does not
/// follow them within `tol`.
fn fit_chain(
    mut c: Vec<Vec<H2>>,
    s: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    tol: f64,
    pole: &dyn Fn((f64, f64)) -> bool,
) -> Option<Vec<Vec<H2>>> {
    let (&f, &l) = (s.first()?, s.last()?);
    let (s0, s1) = ([f.0, f.1], [l.0, l.1]);
    let q1 = s[s.len() / 4];
    let q3 = s[(3 * s.len()) / 4];
    let shift_of = |p: [f64; 2]| -> [f64; 2] {
        let d = |x: f64, t: Option<f64>| t.map_or(0.0, |t| (x / t).round() * t);
        [d(s0[0] - p[0], periods.0), d(s0[1] - p[1], periods.1)]
    };
    let score = |c: &[Vec<H2>]| -> (f64, [f64; 2]) {
        let p = chain_at(c, 0.0);
        let d = shift_of(p);
        let at = |g: f64| {
            let x = chain_at(c, g);
            [x[0] + d[0], x[1] + d[1]]
        };
        let e = dist(at(0.0), s0) + dist(at(1.0), s1) + dist(at(0.25), [q1.0, q1.1]) + dist(at(0.75), [q3.0, q3.1]);
        (e, d)
    };
    let r: Vec<Vec<H2>> = c.iter().rev().map(|h| bez2::reversed(h)).collect();
    let (ea, da) = score(&c);
    let (eb, db) = score(&r);
    let d = if eb < ea {
        c = r;
        db
    } else {
        da
    };
    let c: Vec<Vec<H2>> = c.iter().map(|h| shifted(h, d[0], d[1])).collect();
    // every sample (at most 24 of them) near the flattened chain
    let flat: Vec<[f64; 2]> = c
        .iter()
        .flat_map(|h| (0..=64).map(move |i| bez2::eval(h, i as f64 / 64.0)))
        .collect();
    let stride = (s.len() / 24).max(1);
    for p in s.iter().step_by(stride).chain(std::iter::once(&l)) {
        // a sample at a pole has an arbitrary parameter along the pole
        if pole(*p) {
            continue;
        }
        let p = [p.0, p.1];
        let m = flat
            .windows(2)
            .map(|w| seg_dist(p, w[0], w[1]))
            .fold(f64::INFINITY, f64::min);
        if !(m <= tol) {
            return None;
        }
    }
    Some(c)
}

/// [`fit_chain`]'s fallback for a p-curve the file prefers (IGES 142 with
/// flag 1) when the coedge's samples do not follow it in parameter space: the
/// samples are projections of the 3-D curve and can land on another sheet
/// of a surface that folds back on itself (ansa9_occ131_2 #1: the p-curve
/// is the side `u = 1`, its samples wander to `u ≈ 0.995`). Accepts the
/// p-curve when its points on the surface lie within `tol3` of the 3-D
/// curve `seg` (ansa9's 3-D curves run on past the p-curve's ends by up to
/// 1.1e-3 of the face's size, so the converse is not asked). Orientation by
/// the end points in space, whole-period shift by the first sample.
fn fit_chain_3d(
    c: Vec<Vec<H2>>,
    s: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    face: &Face,
    seg: &CurveSegment,
    tol3: f64,
) -> Option<Vec<Vec<H2>>> {
    use crate::geom::Vec3;
    if !(tol3 > 0.0) {
        return None;
    }
    let c = orient_3d(c, s, periods, face, seg)?;
    let on = |p: [f64; 2]| face.surface.eval(p[0], p[1]);
    let image: Vec<Vec3> = c
        .iter()
        .flat_map(|h| (0..=32).map(move |i| bez2::eval(h, i as f64 / 32.0)))
        .map(on)
        .collect();
    let curve: Vec<Vec3> = (0..=128).map(|i| seg.eval_unit(i as f64 / 128.0).p).collect();
    let near = |p: &Vec3| curve.windows(2).any(|w| segment_foot(p, &w[0], &w[1]).0 <= tol3);
    image.iter().step_by(4).all(near).then_some(c)
}

/// Distance from `p` to the segment `a b` and the parameter `t ∈ [0, 1]` of
/// its foot.
fn segment_foot(p: &crate::geom::Vec3, a: &crate::geom::Vec3, b: &crate::geom::Vec3) -> (f64, f64) {
    let d = b - a;
    let l2 = d.dot(&d);
    let t = if l2 > 0.0 {
        ((p - a).dot(&d) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p - (a + d * t)).norm(), t)
}

/// The p-curve chain `c` oriented by its end points in space against the
/// 3-D curve `seg` (its image's ends nearer the curve's ends) and shifted by
/// whole periods to the coedge's first sample `s[0]`.
fn orient_3d(
    c: Vec<Vec<H2>>,
    s: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    face: &Face,
    seg: &CurveSegment,
) -> Option<Vec<Vec<H2>>> {
    let f = *s.first()?;
    if c.is_empty() {
        return None;
    }
    let on = |p: [f64; 2]| face.surface.eval(p[0], p[1]);
    let (c0, c1) = (seg.eval_unit(0.0).p, seg.eval_unit(1.0).p);
    let ends = |c: &[Vec<H2>]| (on(chain_at(c, 0.0)) - c0).norm() + (on(chain_at(c, 1.0)) - c1).norm();
    let r: Vec<Vec<H2>> = c.iter().rev().map(|h| bez2::reversed(h)).collect();
    let c = if ends(&r) < ends(&c) { r } else { c };
    let p0 = chain_at(&c, 0.0);
    let d = |x: f64, t: Option<f64>| t.map_or(0.0, |t| (x / t).round() * t);
    let (du, dv) = (d(f.0 - p0[0], periods.0), d(f.1 - p0[1], periods.1));
    Some(c.iter().map(|h| shifted(h, du, dv)).collect())
}

/// Points per Bézier span of a p-curve at which [`deviation_3d`] measures.
const DEVIATION_POINTS: usize = 32;

/// The largest distance from the p-curve chain's image on the surface to
/// the 3-D curve `seg` ([`DEVIATION_POINTS`] points per span; each point's
/// foot on the curve seeded from a 256-chord polyline and refined by
/// Gauss–Newton steps, so the chords' sagitta does not count). `NaN` where
/// the surface or the curve cannot be evaluated.
fn deviation_3d(c: &[Vec<H2>], face: &Face, seg: &CurveSegment) -> f64 {
    const N: usize = 256;
    let poly: Vec<crate::geom::Vec3> = (0..=N).map(|i| seg.eval_unit(i as f64 / N as f64).p).collect();
    let mut worst = 0.0f64;
    for h in c {
        for i in 0..=DEVIATION_POINTS {
            let uv = bez2::eval(h, i as f64 / DEVIATION_POINTS as f64);
            let p = face.surface.eval(uv[0], uv[1]);
            // nearest chord, then the foot on the curve
            let mut best = (f64::INFINITY, 0.0);
            for (k, w) in poly.windows(2).enumerate() {
                let (e, t) = segment_foot(&p, &w[0], &w[1]);
                if e < best.0 {
                    best = (e, (k as f64 + t) / N as f64);
                }
            }
            let mut s = best.1;
            let mut e = (seg.eval_unit(s).p - p).norm();
            for _ in 0..8 {
                let q = seg.eval_unit(s);
                let l2 = q.d1.dot(&q.d1);
                if !(l2 > 0.0) {
                    break;
                }
                let sn = (s + (p - q.p).dot(&q.d1) / l2).clamp(0.0, 1.0);
                let en = (seg.eval_unit(sn).p - p).norm();
                if !(en < e) {
                    break;
                }
                (s, e) = (sn, en);
            }
            worst = worst.max(e);
        }
    }
    worst
}

/// One coedge of a loop for [`pcurve_loop`]: its p-curve fitted to its
/// samples (when it follows them), the coedge, and its samples.
type LoopPart<'a> = (
    Option<Vec<Vec<H2>>>,
    Option<&'a crate::import::model::Coedge>,
    &'a [(f64, f64)],
);

/// A loop bounded by its p-curves as a whole ([`exact_loops`]): the chains
/// of every coedge (`uv`: the ones that follow their samples in parameter
/// space), or `None` when some coedge has no p-curve of exact form, a
/// p-curve's image leaves its 3-D curve by more than `accept`, the chains do
/// not join end to end in parameter space within `join` (except at a pole,
/// where the p-curves may meet anywhere along it), or no p-curve leaves its
/// 3-D curve by more than `agree` (then the p-curves and the 3-D edges
/// agree within the file's tolerance and the per-coedge choice stands).
/// With the chains, the largest distance of a p-curve's image from its 3-D
/// curve ([`deviation_3d`]).
#[allow(clippy::too_many_arguments)]
fn pcurve_loop(
    model: &Model,
    face: &Face,
    spans: &[LoopPart],
    periods: (Option<f64>, Option<f64>),
    accept: f64,
    agree: f64,
    join: f64,
    pole: &dyn Fn((f64, f64)) -> bool,
) -> Option<(Vec<Vec<Vec<H2>>>, f64)> {
    let mut out = Vec::with_capacity(spans.len());
    let mut worst = 0.0f64;
    for (uv, coedge, samples) in spans {
        let ce = (*coedge)?;
        let seg = coedge_segment(model, ce)?;
        let c = match uv {
            Some(c) => c.clone(),
            None => orient_3d(pcurve_chain(ce.pcurve.as_ref()?)?, samples, periods, face, &seg)?,
        };
        let d = deviation_3d(&c, face, &seg);
        if !(d <= accept) {
            return None;
        }
        worst = worst.max(d);
        out.push(c);
    }
    if !(worst > agree) || out.is_empty() {
        return None;
    }
    // the closing join may be a whole period away (a loop around a period)
    let wrap = |x: f64, t: Option<f64>| t.map_or(x, |t| x - (x / t).round() * t);
    for k in 0..out.len() {
        let a = chain_at(&out[k], 1.0);
        let mut b = chain_at(&out[(k + 1) % out.len()], 0.0);
        if k + 1 == out.len() {
            b = [a[0] + wrap(b[0] - a[0], periods.0), a[1] + wrap(b[1] - a[1], periods.1)];
        }
        if !(dist(a, b) <= join || (pole((a[0], a[1])) && pole((b[0], b[1])))) {
            return None;
        }
    }
    Some((out, worst))
}

fn seg_dist(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let l2 = d[0] * d[0] + d[1] * d[1];
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    dist(p, [a[0] + t * d[0], a[1] + t * d[1]])
}

/// Halvings of a projected trim interval whose end tangents are far longer
/// than its chord (a curve passing near a pole, see [`projected_chain`]):
/// 2⁻¹⁶ of a coarse step.
const POLE_HALVINGS: u32 = 16;

/// The 3-D curve a coedge's samples come from (as [`FaceTrim`] samples it).
fn coedge_segment(model: &Model, c: &crate::import::model::Coedge) -> Option<CurveSegment> {
    if let Some(e) = c.edge.and_then(|e| model.edges.get(e)) {
        Some(CurveSegment {
            curve: e.curve.clone(),
            t0: e.t0,
            t1: e.t1,
            forward: c.forward,
        })
    } else {
        c.curve.clone()
    }
}

/// Face-parameter velocity of the surface curve with 3-D velocity `d` at
/// `(u, v)` (least squares on the tangent plane); `None` where the surface
/// is degenerate.
fn param_velocity(face: &Face, uv: [f64; 2], d: &crate::geom::Vec3) -> Option<[f64; 2]> {
    let e = face.surface.eval_derivs(uv[0], uv[1]);
    let (a, b, c) = (e.su.dot(&e.su), e.su.dot(&e.sv), e.sv.dot(&e.sv));
    let det = a * c - b * b;
    if !(det > 1e-12 * a * c) {
        return None;
    }
    let (g0, g1) = (e.su.dot(d), e.sv.dot(d));
    let r = [(g0 * c - g1 * b) / det, (g1 * a - g0 * b) / det];
    r.iter().all(|x| x.is_finite()).then_some(r)
}

/// A coedge without a usable p-curve: its 3-D curve projected onto the face
/// as polynomial Bézier pieces of degree 2..=9 in face parameters
/// ([`super::fit`]) between the samples (end points on the samples;
/// interior points projected by Newton, seeded by the cubic Hermite piece
/// of the end tangents), within `tol` of the projection at `2n + 1` points
/// of a degree-`n` piece, halving at most 6 times, straight where the
/// deepest piece still misses. A step whose end tangents are much longer
/// than its chord (near a pole of the surface) is first halved at projected
/// midpoints, at most [`POLE_HALVINGS`] times, and straight only where that
/// does not make the tangents fit (on the pole itself). Above the deepest level a piece does not mix
/// parameters where the 3-D curve lies within `on_tol` of the surface with
/// ones where it does not (so that `features::link_trims`, which links a
/// trim curve to an edge when its samples lie within a tolerance of the
/// same order, sees the same parts as with short pieces).
fn projected_chain(
    face: &Face,
    seg: &CurveSegment,
    samples: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    tol: f64,
    on_tol: f64,
) -> Vec<Vec<H2>> {
    let n = samples.len().saturating_sub(1);
    let mut out: Vec<super::fit::SpanPiece> = Vec::with_capacity(n);
    if n == 0 {
        return Vec::new();
    }
    let (nu, nv) = face.surface.natural_bounds();
    let nat = (nu.unwrap_or((-1e12, 1e12)), nv.unwrap_or((-1e12, 1e12)));
    // the curve's point at `s` projected onto the face (seeded), and the 3-D point
    let locate = |s: f64, seed: [f64; 2]| -> ([f64; 2], crate::geom::Vec3) {
        let c = seg.eval_unit(s);
        let b = |x: f64, per: Option<f64>, nat: (f64, f64)| per.map_or(nat, |t| (x - t, x + t));
        let bounds = (b(seed[0], periods.0, nat.0), b(seed[1], periods.1, nat.1));
        let p = crate::import::eval::newton_surface(&face.surface, &c.p, seed[0], seed[1], bounds);
        ([p.u, p.v], c.p)
    };
    // the projection and whether the curve lies on the surface there
    // (within `on_tol`: the class of super::fit, so that a piece lies on it
    // or off it as a whole)
    let position = |s: f64, seed: [f64; 2]| -> Option<([f64; 2], bool)> {
        let (uv, p) = locate(s, seed);
        let on = (face.surface.eval(uv[0], uv[1]) - p).norm() <= on_tol;
        uv.iter().all(|x| x.is_finite()).then_some((uv, on))
    };
    // the face-parameter velocity at `s` where the projection is `uv`
    let velocity = |s: f64, uv: [f64; 2]| param_velocity(face, uv, &seg.eval_unit(s).d1);
    /// One interval `a`..`b` (curve parameter, face parameters, velocity)
    /// as fitted pieces. `depth`: halvings so far of a coarse step whose end
    /// tangents were far longer than its chord.
    #[allow(clippy::too_many_arguments)]
    fn piece(
        position: super::fit::Eval,
        velocity: &dyn Fn(f64, [f64; 2]) -> Option<[f64; 2]>,
        periods: (Option<f64>, Option<f64>),
        a: (f64, [f64; 2], [f64; 2]),
        b: (f64, [f64; 2], [f64; 2]),
        tol: f64,
        depth: u32,
        out: &mut Vec<super::fit::SpanPiece>,
    ) {
        let k = (b.0 - a.0) / 3.0;
        // the cubic Hermite piece: the seeds of the projections
        let c: Vec<H2> = vec![
            [a.1[0], a.1[1], 1.0],
            [a.1[0] + k * a.2[0], a.1[1] + k * a.2[1], 1.0],
            [b.1[0] - k * b.2[0], b.1[1] - k * b.2[1], 1.0],
            [b.1[0], b.1[1], 1.0],
        ];
        // tangents far longer than the chord: the curve passes near a pole
        // (on a sphere the angle sweeps across within a short stretch of
        // the curve: alibre_s1 #1920, 0.0025 rad from the pole) or through
        // a pole or a cusp. Halve (projecting the midpoint) until the
        // tangents fit the chord; straight only at the deepest level or
        // where the midpoint has no velocity (on the pole itself).
        let chord = dist(a.1, b.1);
        let wild = k * (a.2[0].hypot(a.2[1]) + b.2[0].hypot(b.2[1])) > 4.0 * chord + tol;
        if wild {
            let m = 0.5 * (a.0 + b.0);
            let guess = [0.5 * (a.1[0] + b.1[0]), 0.5 * (a.1[1] + b.1[1])];
            let mid = (depth < POLE_HALVINGS)
                .then(|| position(m, guess))
                .flatten()
                .map(|(p, _)| {
                    // the projection may land a period away from its guess
                    let near = |x: f64, g: f64, t: Option<f64>| t.map_or(x, |t| x - ((x - g) / t).round() * t);
                    [near(p[0], guess[0], periods.0), near(p[1], guess[1], periods.1)]
                });
            match mid {
                Some(pm) => match velocity(m, pm) {
                    Some(dm) => {
                        piece(position, velocity, periods, a, (m, pm, dm), tol, depth + 1, out);
                        piece(position, velocity, periods, (m, pm, dm), b, tol, depth + 1, out);
                    }
                    None => {
                        out.push((a.0, m, line(a.1, pm)));
                        out.push((m, b.0, line(pm, b.1)));
                    }
                },
                None => out.push((a.0, b.0, line(a.1, b.1))),
            }
            return;
        }
        let params = super::fit::FitParams {
            tol,
            max_depth: 6,
            min_degree: 2,
            max_degree: super::fit::MAX_DEGREE,
        };
        out.extend(super::fit::fit_spans(
            position,
            a.0,
            b.0,
            a.1,
            b.1,
            Some(&c),
            params,
            super::fit::Fallback::Line,
        ));
    }
    // coarse steps between samples (ends on samples: their unwrapping), refined where needed
    let step = (n / 8).max(1);
    let mut idx: Vec<usize> = (0..n).step_by(step).collect();
    idx.push(n);
    let at = |i: usize| -> Option<(f64, [f64; 2], [f64; 2])> {
        let s = i as f64 / n as f64;
        let (u, v) = samples[i];
        param_velocity(face, [u, v], &seg.eval_unit(s).d1).map(|d| (s, [u, v], d))
    };
    for w in idx.windows(2) {
        let (i, j) = (w[0], w[1]);
        match (at(i), at(j)) {
            (Some(a), Some(b)) => piece(&position, &velocity, periods, a, b, tol, 0, &mut out),
            _ => {
                for k in i..j {
                    let (p, q) = (samples[k], samples[k + 1]);
                    if p != q {
                        out.push((
                            k as f64 / n as f64,
                            (k + 1) as f64 / n as f64,
                            line([p.0, p.1], [q.0, q.1]),
                        ));
                    }
                }
            }
        }
    }
    // the coarse steps are fitted one by one: join what one piece can carry
    super::fit::merge(&position, &mut out, tol);
    out.into_iter().map(|(_, _, c)| c).collect()
}

/// The exact loops of `face` (see the module doc), one per loop of `trim`;
/// a loop is bounded by its p-curves as a whole when they and the 3-D
/// edges disagree beyond the file's tolerance ([`ExactLoops::by_pcurves`]).
pub fn exact_loops(model: &Model, face: &Face, trim: &FaceTrim) -> ExactLoops {
    let face_loops: Vec<&crate::import::model::Loop> = face.outer.iter().chain(face.inner.iter()).collect();
    let ((bu0, bu1), (bv0, bv1)) = trim.bounds;
    let diag = (bu1 - bu0).hypot(bv1 - bv0);
    let tol = if diag.is_finite() && diag > 0.0 {
        1e-3 * diag
    } else {
        0.0
    };
    let ptol = 1e-8 * diag;
    let pole = |p: (f64, f64)| {
        let e = face.surface.eval_derivs(p.0, p.1);
        let (a, b) = (e.su.norm(), e.sv.norm());
        !(a > 1e-9 * b && b > 1e-9 * a)
    };
    // the link tolerance of `features::link_trims` (1e-6 × size) with the
    // face's size for the piece's: the class of a projected piece (see
    // `projected_chain`)
    let on_tol = std::cell::LazyCell::new(|| {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for &(u, v) in trim.loops.iter().flatten() {
            let p = face.surface.eval(u, v);
            for (k, x) in [p.x, p.y, p.z].into_iter().enumerate() {
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
            }
        }
        let d = ((hi[0] - lo[0]).powi(2) + (hi[1] - lo[1]).powi(2) + (hi[2] - lo[2]).powi(2)).sqrt();
        if d.is_finite() {
            1e-6 * d
        } else {
            0.0
        }
    });
    // p-curves and 3-D edges agree when within the file's tolerance (or
    // the link tolerance where the file gives none or a smaller one)
    let agree = model.tolerance.filter(|t| t.is_finite()).unwrap_or(0.0).max(*on_tol);
    let mut out = ExactLoops::default();
    for (li, l) in trim.loops.iter().enumerate() {
        let spans = trim.coedge_spans.get(li).map_or(&[][..], |v| &v[..]);
        let mut chain: Vec<Vec<H2>> = Vec::new();
        let push = |chain: &mut Vec<Vec<H2>>, h: Vec<H2>| {
            if let Some(prev) = chain.last() {
                let (a, b) = (bez2::eval(prev, 1.0), bez2::eval(&h, 0.0));
                if a != b {
                    chain.push(line(a, b));
                }
            }
            chain.push(h);
        };
        let covered: usize = spans.iter().map(|s| s.samples.len()).sum();
        if spans.is_empty() || covered != l.len() {
            // no coedge record: the samples as they are
            for w in l.windows(2) {
                push(&mut chain, line([w[0].0, w[0].1], [w[1].0, w[1].1]));
            }
            out.approximated += 1;
            out.chains.push(chain);
            continue;
        }
        // each coedge's samples, coedge and p-curve fitted to the samples
        let kept: Vec<&crate::import::eval::CoedgeSpan> =
            spans.iter().filter(|sp| l.get(sp.samples.clone()).is_some()).collect();
        let parts: Vec<_> = kept
            .iter()
            .filter_map(|sp| {
                let samples = l.get(sp.samples.clone())?;
                let coedge = face_loops.get(sp.face_loop).and_then(|fl| fl.coedges.get(sp.coedge));
                let uv = coedge
                    .and_then(|c| c.pcurve.as_ref())
                    .and_then(pcurve_chain)
                    .and_then(|c| fit_chain(c, samples, trim.periods, tol, &pole));
                Some((uv, coedge, samples))
            })
            .collect();
        // p-curves off their samples: the whole loop by its p-curves when
        // they and the 3-D edges disagree beyond the file's tolerance
        let by_pcurves = if parts.iter().any(|p| p.0.is_none()) {
            pcurve_loop(model, face, &parts, trim.periods, 1e3 * *on_tol, agree, tol, &pole)
        } else {
            None
        };
        if let Some((_, d)) = &by_pcurves {
            out.by_pcurves.push((li, *d));
        }
        let by_pcurves = by_pcurves.map(|(c, _)| c);
        for (k, (sp, (uv, coedge, samples))) in kept.into_iter().zip(parts).enumerate() {
            let exact = match &by_pcurves {
                Some(chains) => chains.get(k).cloned(),
                None => uv.or_else(|| {
                    // only where the file prefers the p-curve: elsewhere a
                    // p-curve can follow the 3-D curve in space and still
                    // take another way around a pole or seam
                    let ce = coedge.filter(|ce| ce.pcurve_preferred)?;
                    let c = pcurve_chain(ce.pcurve.as_ref()?)?;
                    let seg = coedge_segment(model, ce)?;
                    fit_chain_3d(c, samples, trim.periods, face, &seg, 1e3 * *on_tol)
                }),
            }
            .or_else(|| {
                // on a plane the 3-D curve maps exactly (an affine map of its poles)
                let seg = coedge_segment(model, coedge?)?;
                plane_chain(face, &seg).and_then(|c| fit_chain(c, samples, trim.periods, tol, &pole))
            });
            let projected = || {
                let c = face_loops.get(sp.face_loop).and_then(|fl| fl.coedges.get(sp.coedge))?;
                let seg = coedge_segment(model, c)?;
                if matches!(seg.curve, Curve::Polyline(_)) {
                    return None;
                }
                let ch = projected_chain(face, &seg, samples, trim.periods, ptol, *on_tol);
                (!ch.is_empty()).then_some(ch)
            };
            let is_exact = exact.is_some();
            match exact.or_else(projected) {
                Some(c) => {
                    if !is_exact {
                        out.projected += 1;
                    }
                    for h in c {
                        push(&mut chain, h);
                    }
                }
                None => {
                    out.approximated += 1;
                    for w in samples.windows(2) {
                        if w[0] != w[1] {
                            push(&mut chain, line([w[0].0, w[0].1], [w[1].0, w[1].1]));
                        }
                    }
                }
            }
        }
        out.chains.push(chain);
    }
    out.hulls = out
        .chains
        .iter()
        .map(|c| c.iter().map(|h| bez2::hull(h)).collect())
        .collect();
    out.flat = out
        .chains
        .iter()
        .map(|c| {
            let mut v = Vec::new();
            for h in c {
                let straight = h.len() == 2 && h[0][2] == h[1][2];
                let n = if straight { 1 } else { FLAT_POINTS };
                v.extend((0..n).map(|i| {
                    let p = bez2::eval(h, i as f64 / n as f64);
                    (p[0], p[1])
                }));
            }
            v
        })
        .collect();
    out
}

/// Classifies the piece with face-parameter `domain` `[u0,u1,v0,v1]` and NURBS
/// rectangle `nrect` `[s0,s1,t0,t1]`. `outer_first`: loop 0 is the outer loop.
/// `holes_only`: every loop is a hole (see [`nurbs::holes_only`](super::nurbs::holes_only)):
/// the face is the rest of its range, so a piece no loop enters is inside
/// when it is outside every loop, and a piece some hole enters gets its own
/// square as an outer loop (a polyline along its sides: not a boundary, it
/// only makes the even–odd rule count the holes as holes).
#[allow(clippy::too_many_arguments)]
pub fn trim_piece(
    trim: &FaceTrim,
    exact: &ExactLoops,
    outer_first: bool,
    holes_only: bool,
    fnurbs: &FaceNurbs,
    domain: [f64; 4],
    nrect: [f64; 4],
) -> TrimStatus {
    if trim.loops.is_empty() || on_range_boundary(trim, fnurbs) {
        return TrimStatus::Inside;
    }
    let eu = 1e-6 * (domain[1] - domain[0]);
    let ev = 1e-6 * (domain[3] - domain[2]);
    let shrunk = [domain[0] + eu, domain[1] - eu, domain[2] + ev, domain[3] - ev];
    let mut hit_loops: Vec<(usize, f64, f64)> = Vec::new();
    for (li, chain) in exact.chains.iter().enumerate() {
        'shift: for du in shifts(trim.periods.0) {
            for dv in shifts(trim.periods.1) {
                let r = [shrunk[0] - du, shrunk[1] - du, shrunk[2] - dv, shrunk[3] - dv];
                let hulls = exact.hulls.get(li).map_or(&[][..], |v| &v[..]);
                for (k, h) in chain.iter().enumerate() {
                    if let Some(b) = hulls.get(k) {
                        if b[0] > r[1] || b[1] < r[0] || b[2] > r[3] || b[3] < r[2] {
                            continue;
                        }
                    }
                    if bez2::clip_intervals(h, &r).iter().any(|iv| iv.2) {
                        hit_loops.push((li, du, dv));
                        break 'shift;
                    }
                }
            }
        }
    }
    if hit_loops.is_empty() {
        // no loop enters the (shrunk) rectangle: it lies in one region of
        // constant winding number, decided at its centre
        let (u, v) = (0.5 * (domain[0] + domain[1]), 0.5 * (domain[2] + domain[3]));
        let inside = if exact.flat.len() == trim.loops.len() && exact.flat.iter().all(|l| l.len() >= 3) {
            trim.contains_in(&exact.flat, u, v)
        } else {
            trim.contains(u, v)
        };
        return if inside != holes_only {
            TrimStatus::Inside
        } else {
            TrimStatus::Outside
        };
    }
    // every loop that can wind around a point of the piece (bbox overlap), not only the crossing ones
    for li in 0..exact.chains.len() {
        if hit_loops.iter().any(|h| h.0 == li) {
            continue;
        }
        let b = exact.hulls.get(li).map_or(&[][..], |v| &v[..]).iter().fold(
            [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY],
            |a, c| [a[0].min(c[0]), a[1].max(c[1]), a[2].min(c[2]), a[3].max(c[3])],
        );
        'found: for du in shifts(trim.periods.0) {
            for dv in shifts(trim.periods.1) {
                if b[0] + du <= domain[1] && b[1] + du >= domain[0] && b[2] + dv <= domain[3] && b[3] + dv >= domain[2]
                {
                    hit_loops.push((li, du, dv));
                    break 'found;
                }
            }
        }
    }
    hit_loops.sort_by_key(|h| h.0);
    let pm = PieceMap::new(fnurbs, nrect);
    let mut loops = Vec::new();
    // loops that wind around a period: (index in `loops`, closing direction)
    let mut winding: Vec<(usize, usize)> = Vec::new();
    for (li, du, dv) in hit_loops {
        let (Some(l), Some(chain)) = (trim.loops.get(li), exact.chains.get(li)) else {
            continue;
        };
        // A loop that winds around a period is an open curve in the unwrapped
        // plane: chain three consecutive copies so it crosses the whole
        // piece, and close it along a side of the piece (chosen below).
        let wind = winds(trim, l);
        let copies: &[f64] = if wind.is_some() { &[-1.0, 0.0, 1.0] } else { &[0.0] };
        let offsets: Vec<[f64; 2]> = copies
            .iter()
            .map(|&k| match wind {
                Some((d, 0)) => [du + k * d, dv],
                Some((d, _)) => [du, dv + k * d],
                None => [du, dv],
            })
            .collect();
        let parts = clip_chain(chain, &offsets, &domain, wind.is_none());
        let curves = pm.curves(&parts, wind.is_none());
        if curves.is_empty() {
            continue;
        }
        if let Some((_, dir)) = wind {
            winding.push((loops.len(), dir));
        }
        loops.push(TrimLoop {
            outer: outer_first && li == 0,
            curves,
        });
    }
    if !winding.is_empty() && winding.len() <= 4 {
        close_winding(trim, fnurbs, nrect, &mut loops, &winding);
    }
    if holes_only && !loops.is_empty() {
        loops.push(TrimLoop {
            outer: true,
            curves: vec![TrimCurve::Polyline(vec![
                [0.0, 0.0],
                [1.0, 0.0],
                [1.0, 1.0],
                [0.0, 1.0],
                [0.0, 0.0],
            ])],
        });
    }
    if loops.is_empty() {
        TrimStatus::Inside
    } else {
        TrimStatus::Partial(loops)
    }
}

/// A loop clipped to a rectangle: kept Bézier parts and runs along the sides.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    /// A part inside the rectangle.
    Bez(Vec<H2>),
    /// Points on the rectangle's sides (straight runs between them).
    Side(Vec<[f64; 2]>),
}

/// Side bits of a point on the border of `r` (1: x0, 2: x1, 4: y0, 8: y1),
/// snapping coordinates within `1e-12` of the size onto the side.
fn side_bits(p: &mut [f64; 2], r: &[f64; 4]) -> u8 {
    let ex = 1e-12 * (r[1] - r[0]).abs().max(1e-300);
    let ey = 1e-12 * (r[3] - r[2]).abs().max(1e-300);
    let mut m = 0;
    for (bit, k, c, e) in [(1u8, 0, r[0], ex), (2, 0, r[1], ex), (4, 1, r[2], ey), (8, 1, r[3], ey)] {
        if (p[k] - c).abs() <= e {
            p[k] = c;
            m |= bit;
        }
    }
    m
}

fn clamp_to(p: [f64; 2], r: &[f64; 4]) -> [f64; 2] {
    [p[0].clamp(r[0], r[1]), p[1].clamp(r[2], r[3])]
}

/// The corner between two points on adjacent sides, `None` when they share a side.
/// `Err(())` when they lie on opposite sides only (or off the border).
#[allow(clippy::result_unit_err)]
fn corner_between(a: u8, b: u8, r: &[f64; 4]) -> Result<Option<[f64; 2]>, ()> {
    if a & b != 0 {
        return Ok(None);
    }
    let x = |m: u8| {
        if m & 1 != 0 {
            Some(r[0])
        } else if m & 2 != 0 {
            Some(r[1])
        } else {
            None
        }
    };
    let y = |m: u8| {
        if m & 4 != 0 {
            Some(r[2])
        } else if m & 8 != 0 {
            Some(r[3])
        } else {
            None
        }
    };
    if let (Some(cx), Some(cy)) = (x(a), y(b)) {
        return Ok(Some([cx, cy]));
    }
    if let (Some(cx), Some(cy)) = (x(b), y(a)) {
        return Ok(Some([cx, cy]));
    }
    Err(())
}

/// Appends the projection onto `r` of the part `[a, b]` of `h` (outside `r`) to `run`.
fn add_outside(h: &[H2], off: [f64; 2], a: f64, b: f64, r: &[f64; 4], run: &mut Vec<[f64; 2]>, depth: u32) {
    let n = if depth == 0 { 8 } else { 2 };
    let mut prev_t = a;
    let at = |t: f64| {
        let p = bez2::eval(h, t);
        [p[0] + off[0], p[1] + off[1]]
    };
    for k in 1..=n {
        let t = a + (b - a) * k as f64 / n as f64;
        let mut q = clamp_to(at(t), r);
        let qb = side_bits(&mut q, r);
        let Some(&last) = run.last() else {
            run.push(q);
            prev_t = t;
            continue;
        };
        let mut lp = last;
        let lb = side_bits(&mut lp, r);
        match corner_between(lb, qb, r) {
            Ok(None) => run.push(q),
            Ok(Some(c)) => {
                run.push(c);
                run.push(q);
            }
            Err(()) if depth < 40 && t - prev_t > 1e-15 => {
                add_outside(h, off, prev_t, t, r, run, depth + 1);
            }
            Err(()) => {
                // opposite sides at the finest step: through the corners nearer the curve
                let m = at(0.5 * (prev_t + t));
                let cx = if (m[0] - r[0]).abs() < (m[0] - r[1]).abs() {
                    r[0]
                } else {
                    r[1]
                };
                let cy = if (m[1] - r[2]).abs() < (m[1] - r[3]).abs() {
                    r[2]
                } else {
                    r[3]
                };
                if lb & 3 != 0 {
                    run.push([lp[0], cy]);
                    run.push([q[0], cy]);
                } else {
                    run.push([cx, lp[1]]);
                    run.push([cx, q[1]]);
                }
                run.push(q);
            }
        }
        prev_t = t;
    }
}

/// Clips one segment `h` shifted by `off` to the closed rectangle `r`, appending to `parts`.
fn clip_one(h: &[H2], off: [f64; 2], r: &[f64; 4], parts: &mut Vec<Part>) {
    let (Some(first), Some(last)) = (h.first(), h.last()) else {
        return;
    };
    let rr = [r[0] - off[0], r[1] - off[0], r[2] - off[1], r[3] - off[1]];
    let hb = bez2::hull(h);
    let side_run = |parts: &mut Vec<Part>, p: [f64; 2]| {
        let mut q = clamp_to([p[0] + off[0], p[1] + off[1]], r);
        side_bits(&mut q, r);
        if !matches!(parts.last(), Some(Part::Side(_))) {
            parts.push(Part::Side(vec![q]));
        }
        q
    };
    // wholly beyond one side: its projection runs along that side only
    if hb[1] <= rr[0] || hb[0] >= rr[1] || hb[3] <= rr[2] || hb[2] >= rr[3] {
        side_run(parts, [first[0] / first[2], first[1] / first[2]]);
        let e = side_run(parts, [last[0] / last[2], last[1] / last[2]]);
        if let Some(Part::Side(run)) = parts.last_mut() {
            run.push(e);
        }
        return;
    }
    for (a, b, inside) in bez2::clip_intervals(h, &rr) {
        if inside {
            let s = if a == 0.0 && b == 1.0 {
                h.to_vec()
            } else {
                bez2::sub(h, a, b)
            };
            parts.push(Part::Bez(shifted(&s, off[0], off[1])));
        } else {
            side_run(parts, bez2::eval(h, a));
            if let Some(Part::Side(run)) = parts.last_mut() {
                add_outside(h, off, a, b, r, run, 0);
            }
        }
    }
}

/// Clips the chain (its copies shifted by `offsets`, joined by lines where
/// they do not meet) to the closed rectangle `r` (see the module doc).
fn clip_chain(chain: &[Vec<H2>], offsets: &[[f64; 2]], r: &[f64; 4], closed: bool) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let end = |h: &[H2], off: [f64; 2], last: bool| -> Option<[f64; 2]> {
        let p = if last { h.last()? } else { h.first()? };
        Some([p[0] / p[2] + off[0], p[1] / p[2] + off[1]])
    };
    let mut prev: Option<[f64; 2]> = None;
    let mut start: Option<[f64; 2]> = None;
    for &off in offsets {
        for h in chain {
            let s = end(h, off, false);
            if let (Some(a), Some(b)) = (prev, s) {
                if a != b {
                    clip_one(&line(a, b), [0.0, 0.0], r, &mut parts);
                }
            }
            start = start.or(s);
            clip_one(h, off, r, &mut parts);
            prev = end(h, off, true);
        }
    }
    if closed {
        if let (Some(a), Some(b)) = (prev, start) {
            if a != b {
                clip_one(&line(a, b), [0.0, 0.0], r, &mut parts);
            }
        }
    }
    if closed && parts.len() > 1 {
        if let (Some(Part::Side(_)), Some(Part::Side(_))) = (parts.first(), parts.last()) {
            if let (Some(Part::Side(last)), Some(Part::Side(first))) = (parts.pop(), parts.first_mut()) {
                let mut v = last;
                v.extend_from_slice(first);
                *first = v;
            }
        }
    }
    for p in &mut parts {
        if let Part::Side(run) = p {
            simplify_run(run, r);
        }
    }
    parts
}

/// Drops repeated points and every inner point of a run that lies on one side
/// together with its neighbours (the kept one before it and the next one):
/// a run along a side is a straight segment of it, and a stretch that goes
/// along a side and back again encloses no area and adds an even number of
/// crossings to any ray, so only where it ends matters. (Curves running just
/// outside a side are clamped onto it point by point; before session 12 the
/// reversals of those points by rounding were kept: 5,040 of the 14,168 trim
/// points of proe2001_k1 were such jitter.)
fn simplify_run(run: &mut Vec<[f64; 2]>, r: &[f64; 4]) {
    run.dedup();
    if run.len() < 3 {
        return;
    }
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(run.len());
    for i in 0..run.len() {
        if i > 0 && i + 1 < run.len() {
            let (mut a, mut p, mut b) = (run[i - 1], run[i], run[i + 1]);
            if let Some(&o) = out.last() {
                a = o;
            }
            if side_bits(&mut a, r) & side_bits(&mut p, r) & side_bits(&mut b, r) != 0 {
                continue;
            }
        }
        out.push(run[i]);
    }
    *run = out;
}

/// Face parameters → the piece's `[0,1]²`.
struct PieceMap<'a> {
    f: &'a FaceNurbs,
    nrect: [f64; 4],
}

impl<'a> PieceMap<'a> {
    fn new(f: &'a FaceNurbs, nrect: [f64; 4]) -> Self {
        Self { f, nrect }
    }

    fn identity(&self) -> bool {
        self.f.mapped.u_map == ParamMap::Identity && self.f.mapped.v_map == ParamMap::Identity
    }

    /// Unclamped map of one coordinate and its derivative.
    fn coord(&self, k: usize, x: f64) -> (f64, f64) {
        let ((ru0, ru1), (rv0, rv1)) = self.f.range;
        let (m, lo, hi, n0, n1) = if k == 0 {
            (&self.f.mapped.u_map, ru0, ru1, self.nrect[0], self.nrect[1])
        } else {
            (&self.f.mapped.v_map, rv0, rv1, self.nrect[2], self.nrect[3])
        };
        let x = x.clamp(lo, hi);
        let s = m.to_param(x);
        let dsdx = match m {
            ParamMap::Identity => 1.0,
            ParamMap::Arc(a) => {
                let d = a.param_to_angle_derivs(s)[1];
                if d != 0.0 {
                    1.0 / d
                } else {
                    0.0
                }
            }
        };
        ((s - n0) / (n1 - n0), dsdx / (n1 - n0))
    }

    fn point(&self, p: [f64; 2]) -> [f64; 2] {
        [
            self.coord(0, p[0]).0.clamp(0.0, 1.0),
            self.coord(1, p[1]).0.clamp(0.0, 1.0),
        ]
    }

    /// One clipped Bézier part in piece parameters.
    fn bezier(&self, h: &[H2], out: &mut Vec<TrimCurve>) {
        let pts: Vec<[f64; 2]> = bez2::points(h).collect();
        if pts.len() < 2 {
            return;
        }
        let flat = |k: usize| {
            let e = 1e-13 * (1.0 + pts[0][k].abs());
            pts.iter().all(|p| (p[k] - pts[0][k]).abs() <= e)
        };
        let (a, b) = (bez2::eval(h, 0.0), bez2::eval(h, 1.0));
        if h.len() == 2 || flat(0) || flat(1) {
            // a straight segment (or along a parameter line): a line in any map
            out.push(TrimCurve::Polyline(vec![self.point(a), self.point(b)]));
            return;
        }
        if self.identity() {
            let n = self.nrect;
            let (su, sv) = (1.0 / (n[1] - n[0]), 1.0 / (n[3] - n[2]));
            out.push(TrimCurve::Bezier(
                h.iter()
                    .map(|p| [(p[0] - n[0] * p[2]) * su, (p[1] - n[2] * p[2]) * sv, p[2]])
                    .collect(),
            ));
            return;
        }
        self.hermite(h, 0.0, 1.0, out);
    }

    /// The mapped curve `g(h(t))` on `[a, b]` as polynomial Bézier pieces
    /// ([`super::fit`]): the error at `2n + 1` points of a degree-`n` piece
    /// is at most `1e-11`, halving at most 14 times.
    fn hermite(&self, h: &[H2], a: f64, b: f64, out: &mut Vec<TrimCurve>) {
        let g = |t: f64| -> [f64; 2] {
            let p = bez2::eval(h, t);
            [self.coord(0, p[0]).0, self.coord(1, p[1]).0]
        };
        let eval = |t: f64, _: [f64; 2]| Some((g(t), true));
        let params = super::fit::FitParams {
            tol: 1e-11,
            max_depth: 14,
            min_degree: 1,
            max_degree: super::fit::MAX_DEGREE,
        };
        for c in super::fit::fit(&eval, a, b, g(a), g(b), None, params, super::fit::Fallback::Best) {
            out.push(TrimCurve::Bezier(c));
        }
    }

    /// The parts as consecutive trim curves (`closed`: the last meets the first).
    fn curves(&self, parts: &[Part], closed: bool) -> Vec<TrimCurve> {
        let mut cs: Vec<TrimCurve> = Vec::new();
        let mut any_bez = false;
        for p in parts {
            match p {
                Part::Bez(h) => {
                    any_bez = true;
                    self.bezier(h, &mut cs);
                }
                Part::Side(run) => {
                    let v: Vec<[f64; 2]> = run.iter().map(|&q| self.point(q)).collect();
                    cs.push(TrimCurve::Polyline(v));
                }
            }
        }
        if !any_bez {
            // only runs along the sides: a loop around the piece or nothing
            let pts: Vec<[f64; 2]> = cs
                .iter()
                .flat_map(|c| match c {
                    TrimCurve::Polyline(v) => v.clone(),
                    TrimCurve::Bezier(_) => Vec::new(),
                })
                .collect();
            let mut d = pts.clone();
            d.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
            d.dedup();
            if d.len() < 3 {
                return Vec::new();
            }
        }
        stitch(cs, closed)
    }
}

fn first_pt(c: &TrimCurve) -> Option<[f64; 2]> {
    match c {
        TrimCurve::Polyline(v) => v.first().copied(),
        TrimCurve::Bezier(h) => h.first().map(|p| [p[0] / p[2], p[1] / p[2]]),
    }
}

fn last_pt(c: &TrimCurve) -> Option<[f64; 2]> {
    match c {
        TrimCurve::Polyline(v) => v.last().copied(),
        TrimCurve::Bezier(h) => h.last().map(|p| [p[0] / p[2], p[1] / p[2]]),
    }
}

/// Makes consecutive curves meet (polylines take the neighbour's end point,
/// gaps between two Béziers get a line), merges neighbouring polylines and
/// drops polylines of fewer than two distinct points.
fn stitch(cs: Vec<TrimCurve>, closed: bool) -> Vec<TrimCurve> {
    let mut out: Vec<TrimCurve> = Vec::with_capacity(cs.len());
    for c in cs {
        let prev_end = out.last().and_then(last_pt);
        match c {
            TrimCurve::Polyline(mut v) => {
                if let Some(e) = prev_end {
                    if v.first() != Some(&e) {
                        v.insert(0, e);
                    }
                }
                if let Some(TrimCurve::Polyline(p)) = out.last_mut() {
                    p.extend(v.into_iter().skip(1));
                } else {
                    out.push(TrimCurve::Polyline(v));
                }
            }
            TrimCurve::Bezier(h) => {
                let s = first_pt(&TrimCurve::Bezier(h.clone()));
                if let (Some(e), Some(s)) = (prev_end, s) {
                    if e != s {
                        match out.last_mut() {
                            Some(TrimCurve::Polyline(p)) => p.push(s),
                            _ => out.push(TrimCurve::Polyline(vec![e, s])),
                        }
                    }
                }
                out.push(TrimCurve::Bezier(h));
            }
        }
    }
    if closed && !out.is_empty() {
        let (e, s) = (out.last().and_then(last_pt), out.first().and_then(first_pt));
        if let (Some(e), Some(s)) = (e, s) {
            if e != s {
                match out.last_mut() {
                    Some(TrimCurve::Polyline(p)) => p.push(s),
                    _ => out.push(TrimCurve::Polyline(vec![e, s])),
                }
            }
        }
    }
    for c in &mut out {
        if let TrimCurve::Polyline(v) = c {
            v.dedup();
        }
    }
    out.retain(|c| !matches!(c, TrimCurve::Polyline(v) if v.len() < 2));
    out
}

/// `Some((net advance, direction))` when loop `l` winds around the period
/// of direction 0 (u) or 1 (v): its unwrapped end is a period from its start.
fn winds(trim: &FaceTrim, l: &[(f64, f64)]) -> Option<(f64, usize)> {
    let (a, b) = (l.first()?, l.last()?);
    let adv = |d: f64, t: Option<f64>| t.filter(|&t| d.abs() > 0.5 * t).map(|t| (d / t).round() * t);
    adv(b.0 - a.0, trim.periods.0)
        .map(|d| (d, 0))
        .or_else(|| adv(b.1 - a.1, trim.periods.1).map(|d| (d, 1)))
}

/// The loop's curves flattened into a polyline (Béziers at 32 steps).
fn flatten(curves: &[TrimCurve]) -> Vec<[f64; 2]> {
    let mut v: Vec<[f64; 2]> = Vec::new();
    for c in curves {
        match c {
            TrimCurve::Polyline(p) => v.extend_from_slice(p),
            TrimCurve::Bezier(h) => v.extend((0..=32).map(|i| bez2::eval(h, i as f64 / 32.0))),
        }
    }
    v
}

/// Closes the winding loops of a piece (open chains whose ends lie on
/// opposite sides of `[0,1]²`) along the piece side that makes the
/// even-odd polygons agree best with [`FaceTrim::contains`] on a 5×5 grid.
fn close_winding(
    trim: &FaceTrim,
    fnurbs: &FaceNurbs,
    nrect: [f64; 4],
    loops: &mut [TrimLoop],
    winding: &[(usize, usize)],
) {
    let mut truth = Vec::with_capacity(25);
    for i in 0..5 {
        for j in 0..5 {
            let (x, y) = (0.1 + 0.2 * i as f64, 0.1 + 0.2 * j as f64);
            let (u, v) = fnurbs.to_face(
                nrect[0] + x * (nrect[1] - nrect[0]),
                nrect[2] + y * (nrect[3] - nrect[2]),
            );
            truth.push((x, y, trim.contains(u, v)));
        }
    }
    let chains: Vec<Vec<[f64; 2]>> = loops.iter().map(|l| flatten(&l.curves)).collect();
    let closure = |k: usize, dir: usize, side: f64| -> Vec<[f64; 2]> {
        let c = &chains[k];
        let (Some(&a), Some(&b)) = (c.first(), c.last()) else {
            return Vec::new();
        };
        // winding in u runs across s: close along t = side (and vice versa)
        if dir == 0 {
            vec![b, [b[0], side], [a[0], side], a]
        } else {
            vec![b, [side, b[1]], [side, a[1]], a]
        }
    };
    let close = |combo: usize| -> Vec<Vec<[f64; 2]>> {
        let mut polys = chains.clone();
        for (bit, &(k, dir)) in winding.iter().enumerate() {
            let side = if (combo >> bit) & 1 == 1 { 1.0 } else { 0.0 };
            let cl = closure(k, dir, side);
            polys[k].extend_from_slice(&cl[1..cl.len().saturating_sub(1).max(1)]);
        }
        polys
    };
    let agree = |polys: &[Vec<[f64; 2]>]| {
        truth
            .iter()
            .filter(|&&(x, y, t)| crate::geom::polygon::polygons_contain(polys, x, y) == t)
            .count()
    };
    let best = (0..1usize << winding.len())
        .max_by_key(|&c| agree(&close(c)))
        .unwrap_or(0);
    for (bit, &(k, dir)) in winding.iter().enumerate() {
        let side = if (best >> bit) & 1 == 1 { 1.0 } else { 0.0 };
        let cl = closure(k, dir, side);
        if cl.len() < 2 {
            continue;
        }
        let mut curves = std::mem::take(&mut loops[k].curves);
        curves.push(TrimCurve::Polyline(cl));
        loops[k].curves = stitch(curves, true);
    }
}

/// True when every loop point lies on the border of the face's NURBS range
/// (a face bounded by its natural parameter rectangle, seams included).
fn on_range_boundary(trim: &FaceTrim, fnurbs: &FaceNurbs) -> bool {
    let ((u0, u1), (v0, v1)) = fnurbs.range;
    let (eu, ev) = (1e-6 * (u1 - u0), 1e-6 * (v1 - v0));
    let near = |x: f64, a: f64, b: f64, e: f64, per: Option<f64>| {
        let m = |y: f64| (y - a).abs() <= e || (y - b).abs() <= e;
        m(x) || per.is_some_and(|p| m(x + p) || m(x - p))
    };
    trim.loops.iter().all(|l| {
        l.iter()
            .all(|&(u, v)| near(u, u0, u1, eu, trim.periods.0) || near(v, v0, v1, ev, trim.periods.1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adds one edge per 3-D curve (on face 0, sources 2, 3, …) and returns
    /// the forward coedges of a loop with the given p-curves (sources 10, 11, …).
    fn edges_with_pcurves<const N: usize>(
        m: &mut Model,
        curves: [Curve; N],
        pcurves: [Curve; N],
    ) -> Vec<crate::import::model::Coedge> {
        use crate::import::model::{Coedge, Edge};
        let mut coedges = Vec::new();
        for (k, (c, pc)) in curves.into_iter().zip(pcurves).enumerate() {
            let edge = m.edges.len();
            m.edges.push(Edge {
                curve: c,
                t0: 0.0,
                t1: 1.0,
                start: None,
                end: None,
                faces: vec![0],
                source: k as u64 + 2,
            });
            coedges.push(Coedge {
                edge: Some(edge),
                forward: true,
                pcurve: Some(CurveSegment {
                    curve: pc,
                    t0: 0.0,
                    t1: 1.0,
                    forward: true,
                }),
                curve: None,
                pcurve_preferred: false,
                source: k as u64 + 10,
            });
        }
        coedges
    }

    /// A strip `x = 100 u`, `y = v` (`u, v ∈ [0, 1]`) bounded by the square's
    /// sides as p-curves; the 3-D edge of the side `v = 0` bows into the
    /// face by `dy` mm at its middle (a quadratic Bézier), the other three
    /// edges are the sides. `tol`: the file's tolerance.
    fn bowed_strip(dy: f64, tol: Option<f64>) -> Model {
        use crate::geom::{NurbsCurve, NurbsSurface, Vec3};
        use crate::import::model::{Loop, SourceFormat, Surface};
        let mut m = Model::new(SourceFormat::Iges, "strip");
        m.tolerance = tol;
        let cw = vec![
            [0.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [100.0, 0.0, 0.0, 1.0],
            [100.0, 1.0, 0.0, 1.0],
        ];
        let surface = Surface::BSpline(NurbsSurface::bezier(1, 1, cw).unwrap());
        let bow = NurbsCurve::bezier(vec![
            [0.0, 0.0, 0.0, 1.0],
            [50.0, 2.0 * dy, 0.0, 1.0],
            [100.0, 0.0, 0.0, 1.0],
        ])
        .unwrap();
        let line = |o: [f64; 2], d: [f64; 2]| Curve::Line {
            origin: Vec3::new(o[0], o[1], 0.0),
            dir: Vec3::new(d[0], d[1], 0.0),
        };
        let curves = [
            Curve::BSpline(bow),
            line([100.0, 0.0], [0.0, 1.0]),
            line([100.0, 1.0], [-100.0, 0.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        let pcurves = [
            line([0.0, 0.0], [1.0, 0.0]),
            line([1.0, 0.0], [0.0, 1.0]),
            line([1.0, 1.0], [-1.0, 0.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        let coedges = edges_with_pcurves(&mut m, curves, pcurves);
        m.faces.push(Face {
            surface,
            same_sense: true,
            outer: Some(Loop { coedges, source: 20 }),
            inner: Vec::new(),
            source: 1,
        });
        m
    }

    /// The curved triangle `(0,0)`, `(1,0)`, `(0,1)` on the strip of
    /// [`bowed_strip`] (p-curves: two sides and a quadratic arc through
    /// `(0.55, 0.55)` as the third), one open-shell body; the 3-D edge of the
    /// side `v = 0` bows into the face by `dy0` mm, the arc's edge (source 3)
    /// leaves the arc's image by `dy1` mm at its middle. `tol`: the file's
    /// tolerance.
    fn bowed_triangle(dy0: f64, dy1: f64, tol: f64) -> Model {
        use crate::geom::{NurbsCurve, Pose, Vec3};
        use crate::import::model::{Body, BodyKind, Loop, Shell};
        let mut m = bowed_strip(0.0, Some(tol));
        let quad = |a: [f64; 2], mid: [f64; 2], b: [f64; 2]| {
            Curve::BSpline(
                NurbsCurve::bezier(vec![
                    [a[0], a[1], 0.0, 1.0],
                    [mid[0], mid[1], 0.0, 1.0],
                    [b[0], b[1], 0.0, 1.0],
                ])
                .unwrap(),
            )
        };
        let line = |o: [f64; 2], d: [f64; 2]| Curve::Line {
            origin: Vec3::new(o[0], o[1], 0.0),
            dir: Vec3::new(d[0], d[1], 0.0),
        };
        let curves = [
            quad([0.0, 0.0], [50.0, 2.0 * dy0], [100.0, 0.0]),
            quad([100.0, 0.0], [60.0, 0.6 + 2.0 * dy1], [0.0, 1.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        let pcurves = [
            line([0.0, 0.0], [1.0, 0.0]),
            quad([1.0, 0.0], [0.6, 0.6], [0.0, 1.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        m.edges.clear();
        let coedges = edges_with_pcurves(&mut m, curves, pcurves);
        m.faces[0].outer = Some(Loop { coedges, source: 20 });
        m.bodies.push(Body {
            name: "triangle".into(),
            kind: BodyKind::OpenShell,
            placement: Pose::identity(),
            shells: vec![Shell {
                faces: vec![0],
                closed: false,
                void: false,
                source: 21,
            }],
            source: 22,
        });
        m
    }

    #[test]
    fn a_p_curve_bounded_face_links_trim_curves_to_edges_within_the_file_tolerance() {
        use crate::scene::data::{Boundary, FeatureRef};
        // the side v = 0 (0.05 mm off its p-curve) makes the loop p-curve
        // bounded; the hypotenuse's edge is 5e-3 mm off its p-curve: beyond
        // the link tolerance 1e-6 × the piece's size (~1e-4 mm), within a
        // file tolerance of 1e-2 mm, not of 1e-3 mm
        for (tol, linked) in [(1e-2, true), (1e-3, false)] {
            let m = bowed_triangle(0.05, 5e-3, tol);
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert_eq!(ex.by_pcurves.len(), 1, "{tol}");
            let scene = super::super::prepare(&m, &super::super::PrepareOptions::default()).unwrap();
            let hyp = scene
                .edges
                .iter()
                .position(|e| e.source_id == 3)
                .expect("the hypotenuse's edge") as u32;
            let trimmed: Vec<_> = scene.pieces.iter().filter(|p| !p.trim_loops.is_empty()).collect();
            assert!(!trimmed.is_empty());
            let found = trimmed.iter().any(|p| {
                p.adjacency
                    .iter()
                    .any(|a| matches!(a.boundary, Boundary::Trim { .. }) && a.feature == FeatureRef::Edge(hyp))
            });
            assert_eq!(found, linked, "file tolerance {tol}");
        }
    }

    /// The largest distance of a point of the exact loop from the square's
    /// sides (0 when the loop is the p-curves).
    fn off_sides(ex: &ExactLoops) -> f64 {
        ex.flat[0]
            .iter()
            .map(|&(u, v)| u.abs().min((1.0 - u).abs()).min(v.abs()).min((1.0 - v).abs()))
            .fold(0.0, f64::max)
    }

    #[test]
    fn p_curves_bound_the_loop_where_they_and_the_edges_disagree_beyond_the_file_tolerance() {
        // the bow (0.05 mm, 0.05 in v) misses the p-curve's samples test
        // (1e-3 × the parameter diagonal ≈ 1.4e-3) and lies within 1e-3 of
        // the face's size (0.1 mm): the whole loop by its p-curves
        for tol in [None, Some(1e-3)] {
            let m = bowed_strip(0.05, tol);
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert_eq!(ex.by_pcurves.len(), 1, "{tol:?}");
            let (li, d) = ex.by_pcurves[0];
            assert_eq!(li, 0);
            assert!((d - 0.05).abs() <= 1e-6, "deviation {d}");
            assert_eq!(ex.projected, 0);
            assert!(off_sides(&ex) <= 1e-12, "{}", off_sides(&ex));
            let ((u0, v0), (u1, v1)) = ex.extent().unwrap();
            assert!(u0.abs() <= 1e-12 && (u1 - 1.0).abs() <= 1e-12 && v0.abs() <= 1e-12 && (v1 - 1.0).abs() <= 1e-12);
        }
    }

    #[test]
    fn edges_within_the_file_tolerance_or_far_off_keep_the_projected_edge() {
        // within the file's tolerance (5e-3 ≤ 1e-2): they agree, the side
        // v = 0 is the projected edge; 0.5 mm beyond 1e-3 of the size: the
        // p-curve is not trusted
        for (dy, tol) in [(5e-3, Some(1e-2)), (0.5, None)] {
            let m = bowed_strip(dy, tol);
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert!(ex.by_pcurves.is_empty(), "{dy}");
            assert_eq!(ex.projected, 1, "{dy}");
            assert!((off_sides(&ex) - dy).abs() <= 1e-3 * dy, "{dy}: {}", off_sides(&ex));
        }
    }

    #[test]
    fn a_circle_on_a_tilted_plane_maps_to_an_exact_parameter_circle() {
        use crate::geom::Frame;
        use crate::geom::Vec3;
        let z = Vec3::new(1.0, 2.0, 2.0) / 3.0;
        let x = Vec3::new(2.0, 1.0, -2.0) / 3.0;
        let plane = Frame {
            origin: Vec3::new(10.0, -4.0, 7.0),
            x,
            y: z.cross(&x),
            z,
        };
        // a circle of radius 2.5 in that plane, centred at plane parameters (3, -1)
        let centre = plane.origin + 3.0 * plane.x - 1.0 * plane.y;
        let seg = CurveSegment {
            curve: Curve::Circle {
                frame: Frame {
                    origin: centre,
                    x: plane.y,
                    y: -plane.x,
                    z: plane.z,
                },
                radius: 2.5,
            },
            t0: 0.3,
            t1: 5.0,
            forward: false,
        };
        let chain = mapped_chain(&seg, &|q| plane_coords(&plane, q)).expect("a circle has an exact form");
        assert!(chain.len() >= 2);
        for h in &chain {
            for k in 0..=16 {
                let p = bez2::eval(h, k as f64 / 16.0);
                let r = (p[0] - 3.0).hypot(p[1] + 1.0);
                assert!((r - 2.5).abs() <= 1e-12, "radius {r}");
            }
        }
        // traversed backwards: starts at t1 = 5.0, ends at t0 = 0.3 (angles from the circle's x = plane y)
        let at = |t: f64| [3.0 + 2.5 * -t.sin(), -1.0 + 2.5 * t.cos()];
        let (a, b) = (bez2::eval(&chain[0], 0.0), bez2::eval(&chain[chain.len() - 1], 1.0));
        assert!(dist(a, at(5.0)) <= 1e-12 && dist(b, at(0.3)) <= 1e-12, "{a:?} {b:?}");
    }

    #[test]
    fn side_runs_keep_only_where_they_turn_off_a_side() {
        let r = [0.0, 2.0, 0.0, 1.0];
        // along the right side with rounding jitter and a trip up and back,
        // then round the corner and along the top
        let mut run = vec![
            [2.0, 0.1875],
            [2.0, 0.187_499_999_999_999_97],
            [2.0, 0.1875],
            [2.0, 0.187_500_000_000_000_03],
            [2.0, 0.9],
            [2.0, 0.5],
            [2.0, 1.0],
            [1.5, 1.0],
            [0.5, 1.0],
            [1.0, 1.0],
        ];
        simplify_run(&mut run, &r);
        assert_eq!(run, vec![[2.0, 0.1875], [2.0, 1.0], [1.0, 1.0]]);
        // a point off the sides is always kept, and so are both ends
        let mut run = vec![[2.0, 0.2], [2.0, 0.3], [1.0, 0.5], [2.0, 0.7], [2.0, 0.6]];
        simplify_run(&mut run, &r);
        assert_eq!(run, vec![[2.0, 0.2], [2.0, 0.3], [1.0, 0.5], [2.0, 0.7], [2.0, 0.6]]);
    }

    #[test]
    fn clipped_circle_keeps_the_arc_and_runs_along_the_sides() {
        // unit circle (four quarters) around (0.5, 0.5) radius 0.4, rectangle [0, 0.5]²
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let (c, r) = ([0.5, 0.5], 0.4);
        let q = |k: usize| -> Vec<H2> {
            let rot = |x: f64, y: f64| match k {
                0 => (x, y),
                1 => (-y, x),
                2 => (-x, -y),
                _ => (y, -x),
            };
            let p = [(1.0, 0.0, 1.0), (1.0, 1.0, w), (0.0, 1.0, 1.0)];
            p.iter()
                .map(|&(x, y, wt)| {
                    let (x, y) = rot(x, y);
                    [(c[0] + r * x) * wt, (c[1] + r * y) * wt, wt]
                })
                .collect()
        };
        let segs: Vec<Vec<H2>> = (0..4).map(q).collect();
        let rect = [0.0, 0.5, 0.0, 0.5];
        let parts = clip_chain(&segs, &[[0.0, 0.0]], &rect, true);
        // one arc inside (the third quarter), one run along the sides
        let bez: Vec<&Vec<H2>> = parts
            .iter()
            .filter_map(|p| match p {
                Part::Bez(h) => Some(h),
                _ => None,
            })
            .collect();
        assert_eq!(bez.len(), 1, "{parts:?}");
        for i in 0..=10 {
            let p = bez2::eval(bez[0], i as f64 / 10.0);
            assert!(((p[0] - 0.5).hypot(p[1] - 0.5) - 0.4).abs() < 1e-15);
            assert!(bez2::in_rect(p, &[-1e-15, 0.5 + 1e-15, -1e-15, 0.5 + 1e-15]), "{p:?}");
        }
        let runs: Vec<&Vec<[f64; 2]>> = parts
            .iter()
            .filter_map(|p| match p {
                Part::Side(v) => Some(v),
                _ => None,
            })
            .collect();
        assert_eq!(runs.len(), 1, "{parts:?}");
        // the run goes from (0.5, 0.1) through the corner (0.5, 0.5) to (0.1, 0.5)
        let run = runs[0];
        assert!(run.contains(&[0.5, 0.5]), "{run:?}");
        for p in run {
            assert!(p[0] == 0.5 || p[1] == 0.5, "{run:?}");
        }
    }

    #[test]
    fn a_loop_around_the_rectangle_becomes_its_border() {
        // a square loop well outside a small rectangle winds once around it
        let sq = [[-1.0, -1.0], [2.0, -1.0], [2.0, 2.0], [-1.0, 2.0], [-1.0, -1.0]];
        let segs: Vec<Vec<H2>> = sq.windows(2).map(|w| line(w[0], w[1])).collect();
        let parts = clip_chain(&segs, &[[0.0, 0.0]], &[0.0, 1.0, 0.0, 1.0], true);
        assert_eq!(parts.len(), 1);
        let Part::Side(run) = &parts[0] else {
            panic!("{parts:?}")
        };
        let poly = vec![run.clone()];
        assert!(crate::geom::polygon::polygons_contain(&poly, 0.5, 0.5), "{run:?}");
        for c in [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]] {
            assert!(run.contains(&c), "{run:?}");
        }
    }
}

//! **Exact loops.** Each loop of [`FaceTrim`] (3-D edge samples projected
//! and unwrapped in the face parameters) is rebuilt from the coedges'
//! p-curves ([`exact_loops`]): a line, circle, ellipse, parabola,
//! hyperbola or (rational) B-spline p-curve becomes its rational Bézier spans (knot insertion),
//! oriented and shifted by whole periods to match the coedge's samples. On
//! a plane, a coedge without a usable p-curve gets the same from its 3-D
//! curve (line, conic, B-spline), mapped exactly by the plane's
//! affine parametrisation (the samples still decide orientation and
//! whether the curve lies on the plane). A
//! coedge keeps its samples as a polyline only when it has no p-curve,
//! the p-curve is a polyline or another kind, or it does not follow the
//! samples, and its 3-D curve cannot be projected (a warning says so).
//!
//! A coedge with neither is projected from its 3-D curve
//! (`projection.rs`; a polyline chord by chord, `polyline.rs`); where p-curves and 3-D edges disagree beyond the
//! file's tolerance the whole loop is bounded by its p-curves
//! (`pcurve_loop.rs`).

use super::pcurve_loop::{fit_chain_3d, pcurve_loop};
use super::polyline::polyline_chain;
use super::projection::projected_chain;
use super::{chain_at, dist, line, shifted};
use crate::geom::bez2::{self, H2};
use crate::import::eval::FaceTrim;
use crate::import::model::{Curve, CurveSegment, Face, Model};

/// How far the image of a p-curve the file prefers (IGES 142 `PREF = 1`,
/// 141 preference 2) may lie from its 3-D curve and still bound the face, in
/// link tolerances (`1e-6` of the face's size): 1 % of the face's size.
/// IGES 5.3 §4.32 makes the parameter-space curve `S∘B` the preferred
/// representation there, and Open CASCADE (`read.surfacecurve.mode` 0, its
/// default) builds the edge from it; the 3-D curve is the secondary, often
/// fitted, copy (sw2010_impeller: 5.8e-3 mm apart on faces of ~4 mm, where
/// the default `1e3` refused the p-curve and the pieces followed the 3-D
/// curve). A preferred p-curve farther than this from its edge is taken for
/// another curve (another way round a seam or pole) and the 3-D curve is
/// projected instead.
pub(super) const PREFERRED_PCURVE_GATE: f64 = 1e4;

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
    /// Where those projected coedges cross a crease of the surface (a C0
    /// parameter line): their fitted pieces end there.
    pub crease_crossings: usize,
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
    /// How each coedge's piece of each chain was built (one entry per
    /// coedge span, per loop; empty for a loop without coedge records).
    pub paths: Vec<Vec<TrimPath>>,
    /// Parallel to [`ExactLoops::paths`]: each coedge's index in the
    /// loop's [`FaceTrim::coedge_spans`] and the range of its pieces in the
    /// loop's chain (without the line bridging a gap before it).
    pub coedge_pieces: Vec<Vec<(usize, std::ops::Range<usize>)>>,
}

/// How one coedge of a loop got its chain in [`exact_loops`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrimPath {
    /// The file's p-curve, following the coedge's samples.
    PCurve,
    /// The file's preferred p-curve, accepted by its image in space.
    PCurveInSpace,
    /// The loop bounded by its p-curves as a whole (`pcurve_loop.rs`).
    PCurveLoop,
    /// The 3-D curve mapped exactly by the plane's affine parametrisation.
    PlaneImage,
    /// The 3-D curve projected and fitted (`projection.rs`).
    Projected,
    /// The coedge's samples as a polyline.
    Samples,
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

/// The p-curve `seg` as Bézier spans in traversal order (`None` when it has
/// no exact form here).
pub(super) fn pcurve_chain(seg: &CurveSegment) -> Option<Vec<Vec<H2>>> {
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
        // each part on the used range by itself (its own degree)
        Curve::Composite(parts) => {
            let mut v = Vec::new();
            for (p, _) in crate::prepare::nurbs::composite_parts(parts, (seg.t0, seg.t1)).ok()? {
                v.extend(mapped_chain(&p, map)?);
            }
            v
        }
        Curve::Line { .. }
        | Curve::Circle { .. }
        | Curve::Ellipse { .. }
        | Curve::Parabola { .. }
        | Curve::Hyperbola { .. }
        | Curve::BSpline(_) => {
            // the image is what a trim needs (a hyperbola's rational
            // parameter is not its own)
            let c = crate::prepare::nurbs::curve_image_nurbs(&seg.curve, (seg.t0, seg.t1))?;
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

/// The 3-D curve a coedge's samples come from (as [`FaceTrim`] samples it).
pub(super) fn coedge_segment(model: &Model, c: &crate::import::model::Coedge) -> Option<CurveSegment> {
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
        // (whether a line bridged a gap before `h`)
        let push = |chain: &mut Vec<Vec<H2>>, h: Vec<H2>| -> bool {
            let mut bridged = false;
            if let Some(prev) = chain.last() {
                let (a, b) = (bez2::eval(prev, 1.0), bez2::eval(&h, 0.0));
                if a != b {
                    chain.push(line(a, b));
                    bridged = true;
                }
            }
            chain.push(h);
            bridged
        };
        let covered: usize = spans.iter().map(|s| s.samples.len()).sum();
        if spans.is_empty() || covered != l.len() {
            // no coedge record: the samples as they are
            for w in l.windows(2) {
                push(&mut chain, line([w[0].0, w[0].1], [w[1].0, w[1].1]));
            }
            out.approximated += 1;
            out.chains.push(chain);
            out.paths.push(Vec::new());
            out.coedge_pieces.push(Vec::new());
            continue;
        }
        // each coedge's samples, coedge and p-curve fitted to the samples
        let kept: Vec<(usize, &crate::import::eval::CoedgeSpan)> = spans
            .iter()
            .enumerate()
            .filter(|(_, sp)| l.get(sp.samples.clone()).is_some())
            .collect();
        let parts: Vec<_> = kept
            .iter()
            .filter_map(|(_, sp)| {
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
        let mut paths = Vec::with_capacity(parts.len());
        let mut pieces = Vec::with_capacity(parts.len());
        for (k, ((si, sp), (uv, coedge, samples))) in kept.into_iter().zip(parts).enumerate() {
            let first = chain.len();
            let mut bridged = None;
            let mut path = TrimPath::PCurve;
            let exact = match &by_pcurves {
                Some(chains) => {
                    path = TrimPath::PCurveLoop;
                    chains.get(k).cloned()
                }
                None => uv.or_else(|| {
                    // only where the file prefers the p-curve: elsewhere a
                    // p-curve can follow the 3-D curve in space and still
                    // take another way around a pole or seam
                    let ce = coedge.filter(|ce| ce.pcurve_preferred)?;
                    let c = pcurve_chain(ce.pcurve.as_ref()?)?;
                    let seg = coedge_segment(model, ce)?;
                    path = TrimPath::PCurveInSpace;
                    fit_chain_3d(c, samples, trim.periods, face, &seg, PREFERRED_PCURVE_GATE * *on_tol)
                }),
            }
            .or_else(|| {
                // on a plane the 3-D curve maps exactly (an affine map of its poles)
                let seg = coedge_segment(model, coedge?)?;
                path = TrimPath::PlaneImage;
                plane_chain(face, &seg).and_then(|c| fit_chain(c, samples, trim.periods, tol, &pole))
            });
            let projected = || {
                let c = face_loops.get(sp.face_loop).and_then(|fl| fl.coedges.get(sp.coedge))?;
                let seg = coedge_segment(model, c)?;
                // a polyline: its chords projected one by one (never a
                // fitted piece across a corner)
                let ch = if matches!(seg.curve, Curve::Polyline(_)) {
                    polyline_chain(face, &seg, samples, trim.periods, ptol, *on_tol, &mut out.crease_crossings)?
                } else {
                    projected_chain(face, &seg, samples, trim.periods, ptol, *on_tol, &mut out.crease_crossings)
                };
                (!ch.is_empty()).then_some(ch)
            };
            let is_exact = exact.is_some();
            match exact.or_else(projected) {
                Some(c) => {
                    if !is_exact {
                        out.projected += 1;
                        path = TrimPath::Projected;
                    }
                    for h in c {
                        let b = push(&mut chain, h);
                        bridged.get_or_insert(b);
                    }
                }
                None => {
                    out.approximated += 1;
                    path = TrimPath::Samples;
                    for w in samples.windows(2) {
                        if w[0] != w[1] {
                            let b = push(&mut chain, line([w[0].0, w[0].1], [w[1].0, w[1].1]));
                            bridged.get_or_insert(b);
                        }
                    }
                }
            }
            paths.push(path);
            // (after the line bridging a gap before its first piece)
            let start = first + usize::from(bridged == Some(true));
            pieces.push((si, start.min(chain.len())..chain.len()));
        }
        out.paths.push(paths);
        out.coedge_pieces.push(pieces);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A hyperbola or parabola p-curve (m6_screw #250: the file's hyperbola
    /// p-curves were refused and the edges projected) is taken as it is.
    #[test]
    fn conic_pcurves_have_exact_chains() {
        use crate::geom::{Frame, Vec3};
        let frame = Frame::from_axis_ref(Vec3::new(0.5, -1.0, 0.0), Vec3::z(), Some(Vec3::new(0.6, 0.8, 0.0))).unwrap();
        let hyperbola = CurveSegment {
            curve: Curve::Hyperbola {
                frame,
                semi_x: 1.5,
                semi_y: 0.25,
            },
            t0: -1.2,
            t1: 0.9,
            forward: false,
        };
        let parabola = CurveSegment {
            curve: Curve::Parabola { frame, focal: 0.3 },
            t0: -1.0,
            t1: 2.0,
            forward: true,
        };
        for seg in [hyperbola, parabola] {
            let chain = pcurve_chain(&seg).expect("a conic p-curve has an exact chain");
            let uv = |t: f64| {
                let p = seg.curve.eval_derivs(t).p;
                [p.x, p.y]
            };
            let (first, last) = (bez2::eval(&chain[0], 0.0), bez2::eval(&chain[chain.len() - 1], 1.0));
            let (a, b) = if seg.forward { (seg.t0, seg.t1) } else { (seg.t1, seg.t0) };
            assert!(dist(first, uv(a)) <= 1e-12 && dist(last, uv(b)) <= 1e-12, "{first:?} {last:?}");
            // consecutive spans meet; every point on the conic
            for w in chain.windows(2) {
                assert!(dist(bez2::eval(&w[0], 1.0), bez2::eval(&w[1], 0.0)) <= 1e-12);
            }
            for h in &chain {
                for k in 0..=32 {
                    let p = bez2::eval(h, k as f64 / 32.0);
                    let d = Vec3::new(p[0], p[1], 0.0) - frame.origin;
                    let (x, y) = (d.dot(&frame.x), d.dot(&frame.y));
                    let r = match seg.curve {
                        Curve::Hyperbola { .. } => (x / 1.5).powi(2) - (y / 0.25).powi(2) - 1.0,
                        _ => x - y * y / (4.0 * 0.3),
                    };
                    assert!(r.abs() <= 1e-10, "{:?}: residual {r}", seg.curve);
                }
            }
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
}

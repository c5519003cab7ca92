//! **Fitted-trim deviation.** How far the chain of a coedge whose trim was
//! fitted ([`TrimPath::Projected`], [`TrimPath::Samples`]) lies, mapped
//! through its surface, from the coedge's 3-D edge projected onto the
//! surface ([`fitted_deviations`]). Issue 25 asks for such trims within
//! `1e-6` of the model's size; this measures them densely in both
//! directions, independently of how the chain was fitted:
//!
//! - *edge to chain*: at 2 points per sample step of the edge, the edge's
//!   foot on the surface (Newton from the samples' parameters) against the
//!   chain's image, refined on the nearest chain piece (golden section);
//! - *chain to edge*: at 12 points per chain piece or more (twice the edge's), the image against the
//!   foot of the edge's nearest point (golden section on the edge; where the
//!   edge lies off the surface, on the feet themselves).
//!
//! Both are upper bounds of the distance between the chain's image and the
//! edge's projection at the measured points.

use super::exact_loops::{coedge_segment, ExactLoops, TrimPath};
use crate::geom::bez2::{self, H2};
use crate::geom::Vec3;
use crate::import::eval::{fractions_of_samples, newton_surface, FaceTrim};
use crate::import::model::{CurveSegment, Face, Model};

/// Points per sample step of the edge (edge to chain).
const EDGE_POINTS_PER_STEP: usize = 2;
/// Fewest points per chain piece (chain to edge).
const CHAIN_POINTS_PER_PIECE: usize = 12;
/// Nearest sample points a distance is refined from (the two ends of a
/// closed coedge are one point; a curve may pass near itself).
const NEAREST: usize = 2;
/// Most refinements of one edge point's distance to the chain.
const MAX_STARTS: usize = 64;
/// Golden-section steps of a refinement (the bracket shrinks by 0.618 each).
const GOLDEN_STEPS: usize = 30;

/// The deviation of one fitted coedge's chain (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct CoedgeDeviation {
    /// The loop's index in [`FaceTrim::loops`].
    pub loop_index: usize,
    /// The coedge's face loop (the outer loop first, then the inner ones).
    pub face_loop: usize,
    /// The coedge's index in its face loop.
    pub coedge: usize,
    /// The source id of the coedge's edge (`None` for a free curve).
    pub edge: Option<u64>,
    /// How the chain was built.
    pub path: TrimPath,
    /// Largest distance between the chain's image and the edge's
    /// projection onto the surface, mm.
    pub deviation: f64,
    /// Where: the fraction of the edge (traversal order) at the worst point.
    pub at: f64,
    /// Largest distance of the edge from the surface at the measured points, mm.
    pub off_surface: f64,
    /// Chain pieces of the coedge.
    pub pieces: usize,
}

/// Golden-section minimum of `f` on `[a, b]`: `(x, f(x))`.
fn golden(f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64) -> (f64, f64) {
    const R: f64 = 0.618_033_988_749_895;
    let mut c = b - R * (b - a);
    let mut d = a + R * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..GOLDEN_STEPS {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - R * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + R * (b - a);
            fd = f(d);
        }
    }
    let best = [(a, f(a)), (b, f(b)), (c, fc), (d, fd)];
    best.into_iter()
        .fold((a, f64::INFINITY), |m, x| if x.1 < m.1 { x } else { m })
}

/// The deviations of the fitted coedges of `face` (paths
/// [`TrimPath::Projected`] and [`TrimPath::Samples`]; see the module doc).
pub fn fitted_deviations(model: &Model, face: &Face, trim: &FaceTrim, exact: &ExactLoops) -> Vec<CoedgeDeviation> {
    let face_loops: Vec<&crate::import::model::Loop> = face.outer.iter().chain(face.inner.iter()).collect();
    let (nu, nv) = face.surface.natural_bounds();
    let nat = (nu.unwrap_or((-1e12, 1e12)), nv.unwrap_or((-1e12, 1e12)));
    let bounds = (
        trim.periods.0.map_or(nat.0, |_| (-1e12, 1e12)),
        trim.periods.1.map_or(nat.1, |_| (-1e12, 1e12)),
    );
    let foot = |q: &Vec3, seed: [f64; 2]| newton_surface(&face.surface, q, seed[0], seed[1], bounds);
    let mut out = Vec::new();
    for (li, (pieces, paths)) in exact.coedge_pieces.iter().zip(&exact.paths).enumerate() {
        let (Some(l), Some(spans)) = (trim.loops.get(li), trim.coedge_spans.get(li)) else {
            continue;
        };
        let Some(chain) = exact.chains.get(li) else {
            continue;
        };
        for ((si, range), path) in pieces.iter().zip(paths) {
            if !matches!(path, TrimPath::Projected | TrimPath::Samples) {
                continue;
            }
            let Some(sp) = spans.get(*si) else { continue };
            let Some(coedge) = face_loops.get(sp.face_loop).and_then(|fl| fl.coedges.get(sp.coedge)) else {
                continue;
            };
            let (Some(seg), Some(samples), Some(ch)) =
                (coedge_segment(model, coedge), l.get(sp.samples.clone()), chain.get(range.clone()))
            else {
                continue;
            };
            if samples.len() < 2 || ch.is_empty() {
                continue;
            }
            let mut d = measure(face, &seg, samples, ch, &foot);
            d.loop_index = li;
            d.face_loop = sp.face_loop;
            d.coedge = sp.coedge;
            d.edge = coedge.edge.and_then(|e| model.edges.get(e)).map(|e| e.source);
            d.path = *path;
            out.push(d);
        }
    }
    out
}

/// One coedge's deviation (indices left for the caller).
fn measure(
    face: &Face,
    seg: &CurveSegment,
    samples: &[(f64, f64)],
    chain: &[Vec<H2>],
    foot: &dyn Fn(&Vec3, [f64; 2]) -> crate::import::eval::SurfaceProjection,
) -> CoedgeDeviation {
    let n = samples.len() - 1;
    // the samples' curve fractions (as FaceTrim took them)
    let fr = fractions_of_samples(seg, samples.len());
    let frac = |k: usize| fr[k];
    // the face's surface through the chain
    let image = |h: &[H2], t: f64| -> (Vec3, [f64; 2]) {
        let g = bez2::eval(h, t.clamp(0.0, 1.0));
        (face.surface.eval(g[0], g[1]), g)
    };
    // chain points: (piece, t, image), at least twice as dense as the edge
    // points (a long piece: a helix in one piece)
    let m = (2 * EDGE_POINTS_PER_STEP * n / chain.len()).clamp(CHAIN_POINTS_PER_PIECE, 512);
    let mut cpts: Vec<(usize, f64, Vec3, [f64; 2])> = Vec::new();
    for (k, h) in chain.iter().enumerate() {
        for i in 0..=m {
            let t = i as f64 / m as f64;
            let (x, g) = image(h, t);
            cpts.push((k, t, x, g));
        }
    }
    // edge points: (fraction, foot, seed)
    let mut epts: Vec<(f64, Vec3)> = Vec::new();
    let (mut worst, mut at, mut off) = (0.0f64, 0.0f64, 0.0f64);
    for k in 0..n {
        for j in 0..EDGE_POINTS_PER_STEP {
            let x = j as f64 / EDGE_POINTS_PER_STEP as f64;
            let s = frac(k) + x * (frac(k + 1) - frac(k));
            let seed = [
                samples[k].0 + x * (samples[k + 1].0 - samples[k].0),
                samples[k].1 + x * (samples[k + 1].1 - samples[k].1),
            ];
            epts.push((s, seed_point(seg, s, seed, foot, &mut off)));
        }
    }
    let last = samples[n];
    epts.push((frac(n), seed_point(seg, frac(n), [last.0, last.1], foot, &mut off)));
    // edge to chain: refined from every chain point within twice the
    // nearest one's distance, one per stretch of `dt` of a piece (pieces at
    // a pole are one point in space and tie with the piece leading to it;
    // the two ends of a closed coedge are one point)
    let dt = 1.0 / m as f64;
    let mut near: Vec<(f64, usize, f64)> = Vec::new();
    for &(s, f) in &epts {
        let dmin = cpts.iter().map(|c| (c.2 - f).norm()).fold(f64::INFINITY, f64::min);
        near.clear();
        near.extend(
            cpts.iter()
                .map(|c| ((c.2 - f).norm(), c.0, c.1))
                .filter(|c| c.0 <= 2.0 * dmin),
        );
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let on = |k: usize, a: f64, b: f64| golden(&|t: f64| (image(&chain[k], t).0 - f).norm(), a, b).1;
        let mut d = dmin;
        let mut done: Vec<(usize, f64)> = Vec::new();
        for &(_, k, t) in &near {
            if d == 0.0 || done.len() >= MAX_STARTS {
                break;
            }
            if done.iter().any(|&(j, u)| j == k && (u - t).abs() <= dt) {
                continue;
            }
            done.push((k, t));
            d = d.min(on(k, (t - dt).max(0.0), (t + dt).min(1.0)));
            // at a piece's end the nearest point may lie on its neighbour
            if t == 0.0 && k > 0 {
                d = d.min(on(k - 1, 1.0 - dt, 1.0));
            }
            if t == 1.0 && k + 1 < chain.len() {
                d = d.min(on(k + 1, 0.0, dt));
            }
        }
        if d.is_finite() && d > worst {
            (worst, at) = (d, s);
        }
    }
    // chain to edge
    let ds = 1.0 / (n * EDGE_POINTS_PER_STEP) as f64;
    for &(_, _, x, g) in &cpts {
        let mut d = f64::INFINITY;
        let mut where_ = 0.0;
        for &(s, _) in nearest(&epts, |e| (e.1 - x).norm(), |a, b| (a.0 - b.0).abs() > 2.0 * ds) {
            let (lo, hi) = ((s - 2.0 * ds).max(0.0), (s + 2.0 * ds).min(1.0));
            let (mut sm, _) = golden(&|s: f64| (seg.eval_unit(s).p - x).norm(), lo, hi);
            let q = seg.eval_unit(sm).p;
            let f = foot(&q, g).point;
            let mut e = (f - x).norm();
            // an edge off the surface: its point nearest to `x` need not
            // be the one whose foot is nearest; minimise over the feet
            if (q - f).norm() > 0.1 * e {
                let (lo, hi) = ((sm - ds).max(0.0), (sm + ds).min(1.0));
                let (sf, ef) = golden(&|s: f64| (foot(&seg.eval_unit(s).p, g).point - x).norm(), lo, hi);
                if ef < e {
                    (sm, e) = (sf, ef);
                }
            }
            if e < d {
                (d, where_) = (e, sm);
            }
        }
        if d.is_finite() && d > worst {
            (worst, at) = (d, where_);
        }
    }
    CoedgeDeviation {
        loop_index: 0,
        face_loop: 0,
        coedge: 0,
        edge: None,
        path: TrimPath::Projected,
        deviation: worst,
        at,
        off_surface: off,
        pieces: chain.len(),
    }
}

/// Up to [`NEAREST`] items of `v` with the smallest `key`, each far from
/// the ones before it (`far`): the starts of distinct refinements.
fn nearest<T>(v: &[T], key: impl Fn(&T) -> f64, far: impl Fn(&T, &T) -> bool) -> Vec<&T> {
    let mut order: Vec<(f64, usize)> = v.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
    let mut out: Vec<&T> = Vec::with_capacity(NEAREST);
    // the nearest few dozen hold the distinct ones
    let m = order.len().min(8 * NEAREST);
    if m > 0 {
        order.select_nth_unstable_by(m - 1, |a, b| a.0.total_cmp(&b.0));
        order.truncate(m);
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    for (_, i) in order {
        let x = &v[i];
        if out.iter().all(|y| far(x, y)) {
            out.push(x);
            if out.len() == NEAREST {
                break;
            }
        }
    }
    out
}

/// The foot of the edge's point at fraction `s`, projected from `seed`;
/// `off` keeps the largest distance of the edge from the surface.
fn seed_point(
    seg: &CurveSegment,
    s: f64,
    seed: [f64; 2],
    foot: &dyn Fn(&Vec3, [f64; 2]) -> crate::import::eval::SurfaceProjection,
    off: &mut f64,
) -> Vec3 {
    let q = seg.eval_unit(s).p;
    let p = foot(&q, seed);
    *off = off.max(p.distance);
    p.point
}

/// A box `(lo, hi)` round `face`: its loops' samples and a 5 × 5 grid of
/// its parameter bounds (none for an unbounded surface without loops), on the surface (`None` when nothing is finite).
/// The union over a model's faces gives its size where the file has no
/// vertices (IGES).
pub fn face_box(face: &Face, trim: &FaceTrim) -> Option<(Vec3, Vec3)> {
    let ((u0, u1), (v0, v1)) = trim.bounds;
    // (an unbounded surface without loops has made-up bounds)
    let (nu, nv) = face.surface.natural_bounds();
    let cells = if trim.loops.is_empty() && (nu.is_none() || nv.is_none()) {
        0
    } else {
        25
    };
    let grid = (0..cells).map(|k| {
        let (i, j) = ((k % 5) as f64 / 4.0, (k / 5) as f64 / 4.0);
        (u0 + i * (u1 - u0), v0 + j * (v1 - v0))
    });
    let mut lo = Vec3::repeat(f64::INFINITY);
    let mut hi = Vec3::repeat(f64::NEG_INFINITY);
    for (u, v) in trim.loops.iter().flatten().copied().chain(grid) {
        let p = face.surface.eval(u, v);
        if p.iter().all(|x| x.is_finite()) {
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
    }
    (lo.x <= hi.x).then_some((lo, hi))
}

//! Pieces against the face's trim loops: fully inside, partly trimmed (the
//! loops are stored in the piece's own `[0,1]²`) or outside (dropped).
//!
//! The loops are the polygonised, projected and unwrapped loops of
//! [`FaceTrim`]. A piece is *partly trimmed* when a loop segment (shifted by
//! the periods of periodic directions) enters the piece's face-parameter
//! rectangle shrunk by a relative `1e-6`; otherwise the rectangle lies in one
//! region of constant winding number and [`FaceTrim::contains`] at its
//! centre decides inside / outside.
//!
//! Stored loops: each face-parameter point is clamped to the face's NURBS
//! range, mapped to NURBS parameters, normalised to the piece and clamped to
//! `[0,1]²`. Clamping is the nearest-point projection onto a box, so the
//! winding number of every interior point of the piece is unchanged.

use super::nurbs::FaceNurbs;
use crate::import::eval::FaceTrim;
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

fn shifts(period: Option<f64>) -> Vec<f64> {
    match period {
        Some(p) => vec![-2.0 * p, -p, 0.0, p, 2.0 * p],
        None => vec![0.0],
    }
}

/// Does segment a→b meet the open rectangle `[u0,u1]×[v0,v1]`? (Liang–Barsky)
fn seg_hits(a: (f64, f64), b: (f64, f64), r: [f64; 4]) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (p, q) in [(-dx, a.0 - r[0]), (dx, r[1] - a.0), (-dy, a.1 - r[2]), (dy, r[3] - a.1)] {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

/// Classifies the piece with face-parameter `domain` `[u0,u1,v0,v1]` and NURBS
/// rectangle `nrect` `[s0,s1,t0,t1]`. `outer_first`: loop 0 is the outer loop.
pub fn trim_piece(
    trim: &FaceTrim,
    outer_first: bool,
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
    for (li, l) in trim.loops.iter().enumerate() {
        'shift: for du in shifts(trim.periods.0) {
            for dv in shifts(trim.periods.1) {
                let n = l.len();
                for k in 0..n {
                    let a = l[k];
                    let b = l[(k + 1) % n];
                    if k + 1 == n && ((a.0 - b.0).abs() > 1.0 || (a.1 - b.1).abs() > 1.0) {
                        // closing step of a loop that winds around a period
                        if trim.periods.0.is_some() || trim.periods.1.is_some() {
                            continue;
                        }
                    }
                    if seg_hits((a.0 + du, a.1 + dv), (b.0 + du, b.1 + dv), shrunk) {
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
        return if trim.contains(u, v) {
            TrimStatus::Inside
        } else {
            TrimStatus::Outside
        };
    }
    let ((ru0, ru1), (rv0, rv1)) = fnurbs.range;
    // every loop that can wind around a point of the piece (bbox overlap), not only the crossing ones
    for (li, l) in trim.loops.iter().enumerate() {
        if hit_loops.iter().any(|h| h.0 == li) {
            continue;
        }
        let lo = l
            .iter()
            .fold((f64::INFINITY, f64::INFINITY), |a, p| (a.0.min(p.0), a.1.min(p.1)));
        let hi = l.iter().fold((f64::NEG_INFINITY, f64::NEG_INFINITY), |a, p| {
            (a.0.max(p.0), a.1.max(p.1))
        });
        'found: for du in shifts(trim.periods.0) {
            for dv in shifts(trim.periods.1) {
                if lo.0 + du <= domain[1] && hi.0 + du >= domain[0] && lo.1 + dv <= domain[3] && hi.1 + dv >= domain[2]
                {
                    hit_loops.push((li, du, dv));
                    break 'found;
                }
            }
        }
    }
    hit_loops.sort_by_key(|h| h.0);
    let map = |u: f64, v: f64| -> Option<[f64; 2]> {
        let (s, t) = fnurbs.to_nurbs(u.clamp(ru0, ru1), v.clamp(rv0, rv1));
        let x = ((s - nrect[0]) / (nrect[1] - nrect[0])).clamp(0.0, 1.0);
        let y = ((t - nrect[2]) / (nrect[3] - nrect[2])).clamp(0.0, 1.0);
        (x.is_finite() && y.is_finite()).then_some([x, y])
    };
    let mut loops = Vec::new();
    // loops that wind around a period: (index in `loops`, closing direction)
    let mut winding: Vec<(usize, usize)> = Vec::new();
    for (li, du, dv) in hit_loops {
        let l = &trim.loops[li];
        // A loop that winds around a period is an open curve in the unwrapped
        // plane: chain three consecutive copies so it crosses the whole
        // piece, and close it along a side of the piece (chosen below).
        let wind = winds(trim, l);
        let copies: &[f64] = if wind.is_some() { &[-1.0, 0.0, 1.0] } else { &[0.0] };
        let mut pts: Vec<[f64; 2]> = Vec::with_capacity(copies.len() * l.len() + 3);
        for &k in copies {
            let (su, sv) = match wind {
                Some((d, 0)) => (k * d, 0.0),
                Some((d, _)) => (0.0, k * d),
                None => (0.0, 0.0),
            };
            for &(u, v) in l {
                let Some(p) = map(u + du + su, v + dv + sv) else {
                    continue;
                };
                if pts.last() != Some(&p) {
                    pts.push(p);
                }
            }
        }
        if pts.len() < 2 {
            continue;
        }
        if let Some((_, dir)) = wind {
            winding.push((loops.len(), dir));
        }
        if let Some(&f) = pts.first() {
            pts.push(f);
        }
        loops.push(TrimLoop {
            outer: outer_first && li == 0,
            curves: vec![TrimCurve::Polyline(pts)],
        });
    }
    if !winding.is_empty() && winding.len() <= 4 {
        close_winding(trim, fnurbs, nrect, &mut loops, &winding);
    }
    if loops.is_empty() {
        TrimStatus::Inside
    } else {
        TrimStatus::Partial(loops)
    }
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
    let chains: Vec<Vec<[f64; 2]>> = loops
        .iter()
        .map(|l| match l.curves.first() {
            Some(TrimCurve::Polyline(p)) => p[..p.len().saturating_sub(1)].to_vec(),
            _ => Vec::new(),
        })
        .collect();
    let close = |combo: usize| -> Vec<Vec<[f64; 2]>> {
        let mut polys = chains.clone();
        for (bit, &(k, dir)) in winding.iter().enumerate() {
            let side = if (combo >> bit) & 1 == 1 { 1.0 } else { 0.0 };
            let c = &mut polys[k];
            let (Some(&a), Some(&b)) = (c.first(), c.last()) else {
                continue;
            };
            // winding in u runs across s: close along t = side (and vice versa)
            if dir == 0 {
                c.extend([[b[0], side], [a[0], side]]);
            } else {
                c.extend([[side, b[1]], [side, a[1]]]);
            }
        }
        polys
    };
    let agree = |polys: &[Vec<[f64; 2]>]| {
        truth
            .iter()
            .filter(|&&(x, y, t)| crate::track::body::polygons_contain(polys, x, y) == t)
            .count()
    };
    let best = (0..1usize << winding.len())
        .max_by_key(|&c| agree(&close(c)))
        .unwrap_or(0);
    for (k, mut p) in close(best).into_iter().enumerate() {
        if winding.iter().any(|w| w.0 == k) {
            if let Some(&f) = p.first() {
                p.push(f);
            }
            loops[k].curves = vec![TrimCurve::Polyline(p)];
        }
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

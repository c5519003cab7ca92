//! Pieces against the face's trim loops: fully inside, partly trimmed (the
//! loops are stored in the piece's own `[0,1]²`) or outside (dropped).
//!
//! One concept per file:
//! - `exact_loops.rs`: the face's loops rebuilt as chains of rational Bézier
//!   segments in face parameters ([`exact_loops`](fn@exact_loops));
//! - `pcurve_loop.rs`: p-curves against 3-D edges, and loops bounded by
//!   their p-curves as a whole where the two disagree;
//! - `deviation.rs`: how far a fitted coedge's chain lies from its 3-D
//!   edge ([`fitted_deviations`]);
//! - `projection.rs`: a 3-D curve without a usable p-curve projected onto
//!   the face as fitted Bézier pieces;
//! - `crease_crossing.rs`: where such a curve crosses a C0 parameter line
//!   of its surface (the pieces end there);
//! - `polyline.rs`: a polyline edge without a usable p-curve, each chord
//!   projected by itself;
//! - this file: the classification of a piece ([`trim_piece`]);
//! - `clipping.rs`: the stored loops clipped exactly to the piece's
//!   face-parameter rectangle;
//! - `winding.rs`: loops that wind around a period, closed along a side of
//!   the piece;
//! - `piece_map.rs`: face parameters mapped to the piece's `[0,1]²`.
//!
//! **Classification.** A piece is *partly trimmed* when a loop segment
//! (shifted by the periods of periodic directions) enters the piece's
//! face-parameter rectangle shrunk by a relative `1e-6` (exact Bézier
//! clipping); otherwise the rectangle lies in one region of constant
//! winding number and [`FaceTrim::contains`] at its centre decides
//! inside / outside.

mod clipping;
mod crease_crossing;
mod deviation;
mod exact_loops;
mod pcurve_loop;
mod piece_map;
mod polyline;
mod projection;
mod winding;

pub use deviation::{face_box, fitted_deviations, CoedgeDeviation};
pub use exact_loops::{exact_loops, ExactLoops, TrimPath};

use crate::geom::bez2::{self, H2};
use crate::import::eval::FaceTrim;
use crate::prepare::nurbs::FaceNurbs;
use crate::scene::data::{TrimCurve, TrimLoop};
use clipping::clip_chain;
use piece_map::PieceMap;
use winding::{close_winding, winds};

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

/// The whole-period shifts of a loop tried against a piece, the loop's own
/// place first.
fn shifts(period: Option<f64>) -> Vec<f64> {
    match period {
        Some(p) => vec![0.0, -p, p, -2.0 * p, 2.0 * p],
        None => vec![0.0],
    }
}

/// True when a loop's box `[u0,u1,v0,v1]` spans a whole period in a
/// periodic direction: a face making more than one turn (a helical thread
/// crest, standoff #402), whose range is the loop's own unwrapped extent;
/// its copies overlap, so only the loop itself trims (never a copy).
fn spans_a_period(b: [f64; 4], periods: (Option<f64>, Option<f64>)) -> bool {
    periods.0.is_some_and(|p| b[1] - b[0] >= p) || periods.1.is_some_and(|p| b[3] - b[2] >= p)
}

fn line(a: [f64; 2], b: [f64; 2]) -> Vec<H2> {
    vec![[a[0], a[1], 1.0], [b[0], b[1], 1.0]]
}

fn shifted(h: &[H2], du: f64, dv: f64) -> Vec<H2> {
    h.iter().map(|p| [p[0] + du * p[2], p[1] + dv * p[2], p[2]]).collect()
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

/// Classifies the piece with face-parameter `domain` `[u0,u1,v0,v1]` and NURBS
/// rectangle `nrect` `[s0,s1,t0,t1]`. `outer_first`: loop 0 is the outer loop.
/// `holes_only`: every loop is a hole (see [`nurbs::holes_only`](crate::prepare::nurbs::holes_only)):
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
    // every copy of a loop (whole-period shifts) that enters the piece: the
    // copies of a loop narrower than a period are disjoint, and a hole
    // across the seam of a full-period range enters by the copy on each side
    // (nist_144 DE135); a loop spanning a period trims by itself alone
    let mut hit_loops: Vec<(usize, f64, f64)> = Vec::new();
    for (li, chain) in exact.chains.iter().enumerate() {
        let hulls = exact.hulls.get(li).map_or(&[][..], |v| &v[..]);
        // a loop winding round a period enters once (its copies are chained below)
        let winding = trim.loops.get(li).is_some_and(|l| winds(trim, l).is_some());
        let only_itself = !winding && spans_a_period(loop_box(hulls), trim.periods);
        'shift: for du in shifts(trim.periods.0) {
            for dv in shifts(trim.periods.1) {
                if only_itself && (du != 0.0 || dv != 0.0) {
                    break 'shift;
                }
                let r = [shrunk[0] - du, shrunk[1] - du, shrunk[2] - dv, shrunk[3] - dv];
                let enters = chain.iter().enumerate().any(|(k, h)| {
                    let outside = hulls
                        .get(k)
                        .is_some_and(|b| b[0] > r[1] || b[1] < r[0] || b[2] > r[3] || b[3] < r[2]);
                    !outside && bez2::clip_intervals(h, &r).iter().any(|iv| iv.2)
                });
                if enters {
                    hit_loops.push((li, du, dv));
                    if winding {
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
        let inside = match exact_flat(trim, exact) {
            Some(flat) => trim.contains_in(flat, u, v),
            None => trim.contains(u, v),
        };
        // (a face of holes only is the outside of their even–odd interior:
        // `contains` takes that side itself, `FaceTrim::holes_only`)
        return if inside {
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
        let b = loop_box(exact.hulls.get(li).map_or(&[][..], |v| &v[..]));
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
        close_winding(trim, exact_flat(trim, exact), fnurbs, nrect, &mut loops, &winding);
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

/// The exact chains flattened, when every loop has them (at least a
/// triangle each): the side a point lies on is then decided by the exact
/// curves, not by the samples' chords.
fn exact_flat<'e>(trim: &FaceTrim, exact: &'e ExactLoops) -> Option<&'e [Vec<(f64, f64)>]> {
    (exact.flat.len() == trim.loops.len() && exact.flat.iter().all(|l| l.len() >= 3)).then_some(&exact.flat[..])
}

/// The box `[u0,u1,v0,v1]` of a loop's segment boxes.
fn loop_box(hulls: &[[f64; 4]]) -> [f64; 4] {
    hulls.iter().fold(
        [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY],
        |a, c| [a[0].min(c[0]), a[1].max(c[1]), a[2].min(c[2]), a[3].max(c[3])],
    )
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

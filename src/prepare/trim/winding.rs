//! **Winding loops.** A loop that winds around a period of the face (its
//! unwrapped end a period from its start, [`winds`]) is an open curve in the
//! unwrapped plane; on a piece it is closed along the side of the piece
//! that makes the even–odd polygons agree best with [`FaceTrim::contains`]
//! ([`close_winding`]).

use super::piece_map::stitch;
use crate::geom::bez2;
use crate::import::eval::FaceTrim;
use crate::prepare::nurbs::FaceNurbs;
use crate::scene::data::{TrimCurve, TrimLoop};

/// of direction 0 (u) or 1 (v): its unwrapped end is a period from its start.
pub(super) fn winds(trim: &FaceTrim, l: &[(f64, f64)]) -> Option<(f64, usize)> {
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
/// even-odd polygons agree best with the face's point-in-face test on a 5×5
/// grid: [`FaceTrim::contains_in`] on the exact chains flattened (`flat`)
/// when every loop has them, else [`FaceTrim::contains`] on the samples.
/// The samples' chord across a pole cuts the corner next to it (a meridian
/// through a sphere's pole jumps half a period between two samples): on
/// sw2017_russian_part's quarter spheres whose loop winds round through the
/// pole it put the pieces beside the pole inside, 0.0019 mm past the face.
pub(super) fn close_winding(
    trim: &FaceTrim,
    flat: Option<&[Vec<(f64, f64)>]>,
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
            let inside = match flat {
                Some(flat) => trim.contains_in(flat, u, v),
                None => trim.contains(u, v),
            };
            truth.push((x, y, inside));
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

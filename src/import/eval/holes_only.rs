//! **Holes only.** A face of a closed surface (a sphere, a torus, a
//! revolution closed at both poles, a closed B-spline) may be the whole
//! surface minus what its loops enclose: every loop is then a hole. In the
//! parameter plane such a face contains the surface's poles (its singular
//! sides) and the loops' even–odd interior is not the face but its
//! complement (alibre_s1's spheres #1920/#1922: the cap on the centre's side
//! of a circle passing 0.0028 rad from both poles, with a small hole).
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use super::FaceTrim;
use crate::import::model::{Face, Surface};

/// True when `surface` has no rim: each parameter direction is periodic or
/// ends in a pole at both natural bounds (a sphere, a torus, a revolution
/// whose profile starts and ends on the axis, a closed B-spline). A
/// direction without natural bounds (a cone's, a plane's) is a rim at
/// infinity. The poles are told by 9 points of each end's iso-curve lying
/// within `1e-9` of the surface's sampled size of each other.
pub fn without_rim(surface: &Surface) -> bool {
    let periods = surface.periods();
    let (nu, nv) = surface.natural_bounds();
    let (Some((u0, u1)), Some((v0, v1))) = (nu, nv) else {
        return false;
    };
    let at = |k: usize, x: f64, y: f64| if k == 0 { surface.eval(x, y) } else { surface.eval(y, x) };
    let grid = |a: f64, b: f64, i: usize| a + (b - a) * i as f64 / 8.0;
    let mut size = 0.0f64;
    let p0 = surface.eval(u0, v0);
    for i in 0..=8 {
        for j in 0..=8 {
            size = size.max((surface.eval(grid(u0, u1, i), grid(v0, v1, j)) - p0).norm());
        }
    }
    let tol = 1e-9 * size.max(1e-300);
    let pole = |k: usize, x: f64| {
        let (y0, y1) = if k == 0 { (v0, v1) } else { (u0, u1) };
        let first = at(k, x, y0);
        (1..=8).all(|j| (at(k, x, grid(y0, y1, j)) - first).norm() <= tol)
    };
    let closed = |k: usize, period: Option<f64>, (a, b): (f64, f64)| period.is_some() || (pole(k, a) && pole(k, b));
    closed(0, periods.0, (u0, u1)) && closed(1, periods.1, (v0, v1))
}

/// True when loop `l` (closed, in parameter space) is a hole: it runs
/// clockwise about the face's outward normal (signed area in `(u, v)` times
/// the face sense < 0).
pub fn is_hole(trim: &FaceTrim, l: &[(f64, f64)]) -> bool {
    let sigma = if trim.same_sense { 1.0 } else { -1.0 };
    let n = l.len();
    let twice_area: f64 = (0..n)
        .map(|k| {
            let (a, b) = (l[k], l[(k + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    twice_area * sigma < 0.0
}

/// True when the face is its surface minus what the loops of `trim` enclose:
/// the face has loops, none winds round a period, the surface is periodic in
/// some direction and has natural bounds in the others, and either the face
/// has no outer loop or every loop is a hole ([`is_hole`]) on a surface
/// without a rim ([`without_rim`]). The importers may leave the outer loop
/// empty, or (STEP files with only FACE_BOUNDs, alibre_s1's sphere #1920)
/// take a hole as the outer loop. A declared outer loop running clockwise is
/// a hole only on a surface without a rim: on an open one (a cylinder
/// between two circles) the rest of the surface would be bounded by its
/// rims, which are no edges, so the face is the region the loop encloses,
/// whatever its direction (iges_catia5_cylinder #23/#47: Open CASCADE's face
/// is that half).
pub fn all_holes(face: &Face, trim: &FaceTrim) -> bool {
    if trim.loops.is_empty() || trim.loops.iter().any(|l| trim.winds_in(l, 0) || trim.winds_in(l, 1)) {
        return false;
    }
    let (pu, pv) = face.surface.periods();
    let (nu, nv) = face.surface.natural_bounds();
    if (pu.is_none() && pv.is_none()) || (pu.is_none() && nu.is_none()) || (pv.is_none() && nv.is_none()) {
        return false;
    }
    let no_outer = !face.outer.as_ref().is_some_and(|l| !l.coedges.is_empty());
    no_outer || (trim.loops.iter().all(|l| is_hole(trim, l)) && without_rim(&face.surface))
}

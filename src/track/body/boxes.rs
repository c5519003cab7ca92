//! Axis-aligned boxes: the squared distance from a point to a box (the
//! far phase's lower bound) and the corners of a scene box, and the
//! comparisons the bounds are made of ([`max_of`], [`min_of`]).

use super::build::v3;
use crate::geom::Vec3;
use crate::scene::data::Aabb;

/// The larger of `a` and `b`, `b` when they are unordered (one `maxsd` on
/// x86-64; [`f64::max`] adds a NaN test and a blend). The bounds and keys of
/// the far phase are never NaN (finite points, `±∞` keys), where both agree
/// (up to the sign of a zero, which no comparison sees).
#[inline(always)]
pub(crate) fn max_of(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of `a` and `b`, `b` when they are unordered (one `minsd`;
/// see [`max_of`]).
#[inline(always)]
pub(crate) fn min_of(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// Squared distance from `q` to the box `[lo, hi]` (0 inside). Always
/// inlined: the far phase's walk computes one per slot it opens, and the
/// call cost a fifth of it.
#[inline(always)]
pub fn box_dist2(lo: &Vec3, hi: &Vec3, q: &Vec3) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let d = max_of(max_of(lo[k] - q[k], q[k] - hi[k]), 0.0);
        s += d * d;
    }
    s
}
pub(super) fn aabb_corners(b: &Aabb) -> (Vec3, Vec3) {
    (v3(b.min), v3(b.max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_of_and_min_of_agree_with_f64_on_bounds_and_keys() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -0.0,
            0.0,
            1e-300,
            3.0,
            1e300,
            f64::INFINITY,
        ];
        for &a in &xs {
            for &b in &xs {
                // equal up to the sign of a zero (no comparison sees it)
                assert_eq!(max_of(a, b), a.max(b), "max {a} {b}");
                assert_eq!(min_of(a, b), a.min(b), "min {a} {b}");
            }
        }
        // an unordered operand gives the other one where it is second, as f64 does
        assert_eq!(max_of(f64::NAN, 0.0), 0.0);
        assert_eq!(min_of(f64::NAN, 0.0), 0.0);
    }

    #[test]
    fn box_distance() {
        let (lo, hi) = (Vec3::zeros(), Vec3::new(1.0, 1.0, 1.0));
        assert_eq!(box_dist2(&lo, &hi, &Vec3::new(0.5, 0.5, 0.5)), 0.0);
        assert!((box_dist2(&lo, &hi, &Vec3::new(2.0, 0.5, -1.0)) - 2.0).abs() < 1e-15);
    }
}

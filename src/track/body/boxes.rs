//! Axis-aligned boxes: the squared distance from a point to a box (the
//! far phase's lower bound) and the corners of a scene box.

use super::build::v3;
use crate::geom::Vec3;
use crate::scene::data::Aabb;

/// Squared distance from `q` to the box `[lo, hi]` (0 inside).
#[inline]
pub fn box_dist2(lo: &Vec3, hi: &Vec3, q: &Vec3) -> f64 {
    let mut s = 0.0;
    for k in 0..3 {
        let d = (lo[k] - q[k]).max(q[k] - hi[k]).max(0.0);
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
    fn box_distance() {
        let (lo, hi) = (Vec3::zeros(), Vec3::new(1.0, 1.0, 1.0));
        assert_eq!(box_dist2(&lo, &hi, &Vec3::new(0.5, 0.5, 0.5)), 0.0);
        assert!((box_dist2(&lo, &hi, &Vec3::new(2.0, 0.5, -1.0)) - 2.0).abs() < 1e-15);
    }
}

//! Kept depth bounds of the penetration seeds (NJC-1999 §3.4's distance
//! bounds applied to the interpenetration seed): for each boundary cell
//! centre of either body, the point in the other body's frame at which its
//! signed depth (distance to the other body's boundary, positive inside,
//! negative outside) was last known, and that depth. The signed depth is
//! 1-Lipschitz in the point, so at a new pose it is at most the kept depth
//! plus the distance the point moved: a centre whose bound cannot beat the
//! deepest centre found so far cannot be the seed, and is not queried. The
//! seed is then the same as a cold query's (which knows no bounds and
//! queries every centre). Sized at the first kept depth, so a tracker that
//! never penetrates (and a cold `body_distance` outside contact) allocates
//! none of it; no allocation after that.

use crate::geom::Vec3;

/// Per seed point: where it was last evaluated and its signed depth there.
#[derive(Debug, Clone)]
pub(super) struct SeedBounds {
    /// The number of seed points.
    n: usize,
    /// Empty until the first [`SeedBounds::keep`], then `n` long.
    at: Vec<Vec3>,
    /// Empty until the first [`SeedBounds::keep`], then `n` long.
    depth: Vec<f64>,
}

impl SeedBounds {
    /// `n` seed points, none known (every bound `+∞`); nothing allocated.
    pub(super) fn new(n: usize) -> Self {
        Self {
            n,
            at: Vec::new(),
            depth: Vec::new(),
        }
    }

    /// Forgets every bound (the next probe queries every point).
    pub(super) fn forget(&mut self) {
        self.depth.fill(f64::INFINITY);
    }

    /// An upper bound of point `i`'s signed depth when it is at `q`.
    pub(super) fn bound(&self, i: usize, q: &Vec3) -> f64 {
        let d = self.depth.get(i).copied().unwrap_or(f64::INFINITY);
        if d.is_finite() {
            d + (q - self.at[i]).norm()
        } else {
            d
        }
    }

    /// Point `i`'s signed depth at `q` is at most `depth` (`-∞`: it is never
    /// a seed).
    pub(super) fn keep(&mut self, i: usize, q: &Vec3, depth: f64) {
        if self.depth.is_empty() {
            self.at = vec![Vec3::zeros(); self.n];
            self.depth = vec![f64::INFINITY; self.n];
        }
        self.at[i] = *q;
        self.depth[i] = depth;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_grows_by_the_motion() {
        let mut s = SeedBounds::new(2);
        assert_eq!(s.bound(0, &Vec3::zeros()), f64::INFINITY);
        assert!(s.depth.capacity() == 0 && s.at.capacity() == 0, "allocated before the first kept depth");
        s.keep(0, &Vec3::new(1.0, 0.0, 0.0), -2.0);
        let b = s.bound(0, &Vec3::new(1.0, 3.0, 4.0));
        assert!((b - 3.0).abs() < 1e-15, "{b}");
        s.keep(1, &Vec3::zeros(), f64::NEG_INFINITY);
        assert_eq!(s.bound(1, &Vec3::new(9.0, 9.0, 9.0)), f64::NEG_INFINITY);
        s.forget();
        assert_eq!(s.bound(0, &Vec3::zeros()), f64::INFINITY);
    }
}

//! A static 3-D k-d tree over sample points, for the self-check's boundary
//! test: the nearest sample of a point and the samples within a radius, in
//! `O(log n)` per query instead of a scan over every sample of every piece
//! of the face (which made the check cost more than the preparation on
//! faces with many pieces).
//!
//! The tree is implicit: the points are permuted so that the median of each
//! range splits it along the axis of the range's widest extent; the
//! splitting axis is stored per median.

use crate::geom::Vec3;

/// The tree: points (permuted), their original indices and split axes.
pub struct PointTree {
    pts: Vec<Vec3>,
    ids: Vec<usize>,
    axis: Vec<u8>,
}

impl PointTree {
    /// A tree over `points` (queries answer indices into `points`).
    pub fn new(points: &[Vec3]) -> Self {
        let mut order: Vec<usize> = (0..points.len()).collect();
        let mut axis = vec![0u8; points.len()];
        build(points, &mut order, &mut axis, 0);
        PointTree {
            pts: order.iter().map(|&i| points[i]).collect(),
            ids: order,
            axis,
        }
    }

    /// The nearest point's index (into the points given to [`Self::new`])
    /// and squared distance (`None` without points).
    pub fn nearest(&self, p: &Vec3) -> Option<(usize, f64)> {
        let mut best = f64::INFINITY;
        let mut at = usize::MAX;
        self.nearest_at(0, self.pts.len(), p, &mut best, &mut at);
        (at != usize::MAX).then(|| (self.ids[at], best))
    }

    fn nearest_at(&self, lo: usize, hi: usize, p: &Vec3, best: &mut f64, at: &mut usize) {
        if lo >= hi {
            return;
        }
        let m = lo + (hi - lo) / 2;
        let q = &self.pts[m];
        let d2 = (q - p).norm_squared();
        if d2 < *best {
            *best = d2;
            *at = m;
        }
        let k = self.axis[m] as usize;
        let off = p[k] - q[k];
        let (near, far) = if off < 0.0 {
            ((lo, m), (m + 1, hi))
        } else {
            ((m + 1, hi), (lo, m))
        };
        self.nearest_at(near.0, near.1, p, best, at);
        if off * off < *best {
            self.nearest_at(far.0, far.1, p, best, at);
        }
    }

    /// Appends to `out` the indices of the points within distance `r` of
    /// `p` (squared distance `≤ r²`), in no particular order.
    pub fn within(&self, p: &Vec3, r: f64, out: &mut Vec<usize>) {
        self.within_in(0, self.pts.len(), p, r * r, out);
    }

    fn within_in(&self, lo: usize, hi: usize, p: &Vec3, r2: f64, out: &mut Vec<usize>) {
        if lo >= hi {
            return;
        }
        let m = lo + (hi - lo) / 2;
        let q = &self.pts[m];
        if (q - p).norm_squared() <= r2 {
            out.push(self.ids[m]);
        }
        let k = self.axis[m] as usize;
        let off = p[k] - q[k];
        if off <= 0.0 || off * off <= r2 {
            self.within_in(lo, m, p, r2, out);
        }
        if off >= 0.0 || off * off <= r2 {
            self.within_in(m + 1, hi, p, r2, out);
        }
    }
}

/// Orders `order` (indices into `points`) as the implicit tree.
fn build(points: &[Vec3], order: &mut [usize], axis: &mut [u8], base: usize) {
    if order.len() <= 1 {
        return;
    }
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for &i in order.iter() {
        for k in 0..3 {
            lo[k] = lo[k].min(points[i][k]);
            hi[k] = hi[k].max(points[i][k]);
        }
    }
    let k = (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0);
    let m = order.len() / 2;
    order.select_nth_unstable_by(m, |&a, &b| points[a][k].total_cmp(&points[b][k]));
    axis[base + m] = k as u8;
    let (left, right) = order.split_at_mut(m);
    build(points, left, axis, base);
    build(points, &mut right[1..], axis, base + m + 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic scatter (a linear congruential generator), with
    /// repeated points and points on a plane (ties along an axis).
    fn cloud(n: usize) -> Vec<Vec3> {
        let mut s = 12345u64;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut v: Vec<Vec3> = (0..n).map(|_| Vec3::new(next(), next(), 0.0)).collect();
        let copies: Vec<Vec3> = v[..n / 4].to_vec();
        v.extend(copies);
        v.extend((0..n / 4).map(|_| Vec3::new(next() * 10.0, 0.5, next())));
        v
    }

    #[test]
    fn nearest_and_within_equal_a_scan() {
        let pts = cloud(400);
        let tree = PointTree::new(&pts);
        let queries = cloud(60);
        for q in queries.iter().map(|q| q + Vec3::new(0.05, -0.02, 0.03)) {
            let scan = pts.iter().map(|p| (p - q).norm_squared()).fold(f64::INFINITY, f64::min);
            let (i, d2) = tree.nearest(&q).unwrap();
            assert_eq!(d2, scan);
            assert_eq!((pts[i] - q).norm_squared(), d2);
            for r in [0.0, 0.01, 0.1, 0.7] {
                let mut got = Vec::new();
                tree.within(&q, r, &mut got);
                got.sort_unstable();
                let want: Vec<usize> = (0..pts.len())
                    .filter(|&i| (pts[i] - q).norm_squared() <= r * r)
                    .collect();
                assert_eq!(got, want, "r = {r}");
            }
        }
    }

    #[test]
    fn an_empty_tree_has_no_nearest_point() {
        let tree = PointTree::new(&[]);
        assert_eq!(tree.nearest(&Vec3::zeros()), None);
        let mut out = Vec::new();
        tree.within(&Vec3::zeros(), 1.0, &mut out);
        assert!(out.is_empty());
    }
}

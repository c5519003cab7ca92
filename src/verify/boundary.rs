//! The self-check's **boundary** test: every traced point of a Model edge of
//! the face (seams excepted) lies within tolerance of the boundary of the
//! face's pieces.
//!
//! Per edge point: the nearest boundary sample of any piece is an upper
//! bound of the distance; each boundary curve's nearest sample less the
//! curve's reach (how far a point of the curve may lie from its nearest
//! sample, [`Patch::spans`]) is a lower bound of its distance. When the upper
//! bound exceeds the tolerance, every curve whose lower bound comes nearer
//! than the best distance found is refined on the exact curve (Gauss–Newton
//! from its nearest sample, [`Patch::refine`]), nearest lower bound first.
//! The samples of all the face's pieces sit in one [`PointTree`]: a point
//! gathers only the samples within the upper bound plus the largest reach,
//! instead of scanning every sample of every piece (which cost more than
//! preparing the scene on faces of many pieces).

use super::nearest::PointTree;
use super::piece::Patch;
use super::region::Region;
use crate::geom::Vec3;

/// The boundary samples of a face's pieces, indexed.
pub struct BoundaryIndex<'p, 's> {
    patches: &'p [Patch<'s>],
    /// Sample `i` of the tree: piece, sample index in the piece, curve
    /// (span index in the piece).
    owner: Vec<(usize, usize, usize)>,
    tree: PointTree,
    /// The largest reach of any curve, mm.
    max_reach: f64,
    /// Scratch: samples near the point being tested.
    near: Vec<usize>,
    /// Scratch: per curve (lower bound, piece, nearest sample).
    curves: Vec<(f64, usize, usize)>,
}

impl<'p, 's> BoundaryIndex<'p, 's> {
    /// Indexes the boundary samples of `patches`.
    pub fn new(patches: &'p [Patch<'s>]) -> Self {
        let mut owner = Vec::new();
        let mut pts = Vec::new();
        let mut max_reach = 0.0f64;
        for (k, p) in patches.iter().enumerate() {
            let bd = p.boundary_points();
            for (c, &(a, b, reach)) in p.spans().iter().enumerate() {
                max_reach = max_reach.max(reach);
                for (i, s) in bd.iter().enumerate().take(b).skip(a) {
                    owner.push((k, i, c));
                    pts.push(s.0);
                }
            }
        }
        BoundaryIndex {
            patches,
            owner,
            tree: PointTree::new(&pts),
            max_reach,
            near: Vec::new(),
            curves: Vec::new(),
        }
    }

    /// The distance from `p` to the boundary of the pieces, exact to the
    /// refinement wherever it exceeds `tol` (infinite without pieces).
    pub fn distance(&mut self, p: &Vec3, tol: f64) -> f64 {
        let Some((first, d2)) = self.tree.nearest(p) else {
            return f64::INFINITY;
        };
        let mut best = d2.sqrt();
        if !(best > tol) {
            return best;
        }
        // most edge points lie on the curve of their nearest sample: refine
        // it first, and gather the other curves only when it is not within
        // the tolerance
        let (k, i, _) = self.owner[first];
        let (_, lp, arc, x0) = self.patches[k].boundary_points()[i];
        best = best.min(self.patches[k].refine(lp, arc, x0, p));
        if !(best > tol) {
            return best;
        }
        // every curve with a lower bound under `best` has a sample within
        // `best + reach`
        self.near.clear();
        self.tree.within(p, best + self.max_reach, &mut self.near);
        super::budget::charge(self.near.len() as u64 / super::budget::GATHER_PER_UNIT);
        self.near.sort_unstable_by_key(|&i| (self.owner[i].0, self.owner[i].2));
        self.curves.clear();
        let mut s = 0;
        while s < self.near.len() {
            let (k, _, c) = self.owner[self.near[s]];
            let (mut d2, mut at) = (f64::INFINITY, 0);
            let mut e = s;
            while e < self.near.len() && (self.owner[self.near[e]].0, self.owner[self.near[e]].2) == (k, c) {
                let i = self.owner[self.near[e]].1;
                let q = (self.patches[k].boundary_points()[i].0 - p).norm_squared();
                if q < d2 {
                    (d2, at) = (q, i);
                }
                e += 1;
            }
            let reach = self.patches[k].spans()[c].2;
            self.curves.push((d2.sqrt() - reach, k, at));
            s = e;
        }
        self.curves.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(lb, k, i) in &self.curves {
            if lb >= best || best <= tol || !super::budget::charge(super::budget::REFINE_UNITS) {
                break;
            }
            let (_, lp, arc, x0) = self.patches[k].boundary_points()[i];
            best = best.min(self.patches[k].refine(lp, arc, x0, p));
        }
        best
    }
}

/// The largest distance of the region's edge points (seams excepted) from
/// the boundary of `patches` (0 without edge points); the points tested
/// before the face's [`super::budget`] ran out when it does.
pub fn worst_boundary(region: &Region, patches: &[Patch], tol: f64) -> f64 {
    let mut index = BoundaryIndex::new(patches);
    let mut worst = 0.0f64;
    for l in &region.loops {
        for n in l.nodes.iter().filter(|n| !n.seam) {
            if !super::budget::charge(1) {
                return worst;
            }
            worst = worst.max(index.distance(&n.p, tol));
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::data::{TrimCurve, TrimLoop};

    /// The indexed distance equals the per-piece refinement
    /// ([`Patch::boundary_distance`]) taken over all pieces: a piece with a
    /// triangular hole and an untrimmed one beside it.
    #[test]
    fn indexed_distance_equals_the_per_piece_refinement() {
        let square = TrimCurve::Polyline(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]]);
        let hole = TrimCurve::Polyline(vec![
            [0.0625, 0.05 / 3.0],
            [0.3, 0.3],
            [0.05, 0.3],
            [0.0625, 0.05 / 3.0],
        ]);
        let holed = super::super::piece::tests::flat_piece(vec![
            TrimLoop {
                outer: true,
                curves: vec![square],
            },
            TrimLoop {
                outer: false,
                curves: vec![hole],
            },
        ]);
        let mut plain = super::super::piece::tests::flat_piece(Vec::new());
        for p in &mut plain.poles {
            p[0] += 2.5;
        }
        let pieces = [holed, plain];
        let patches: Vec<Patch> = pieces.iter().filter_map(Patch::new).collect();
        assert_eq!(patches.len(), 2);
        let mut index = BoundaryIndex::new(&patches);
        let tol = 1e-9;
        for k in 0..400 {
            let t = k as f64 / 400.0;
            let p = Vec3::new(5.0 * t - 0.5, 1.5 + 2.0 * (7.0 * t).sin(), 0.3 * (5.0 * t).cos());
            let brute = patches
                .iter()
                .map(|q| q.boundary_distance(&p, tol))
                .fold(f64::INFINITY, f64::min);
            let fast = index.distance(&p, tol);
            assert!((fast - brute).abs() <= 1e-9, "point {k}: {fast} vs {brute}");
        }
        // on the hole's corner's neighbour side (see piece.rs's test): 0
        assert!(index.distance(&Vec3::new(0.125, 0.0, 0.0), tol) < 1e-12);
    }
}

//! The self-check's **boundary** test: every traced point of a Model edge of
//! the face (seams excepted) lies within tolerance of the boundary of the
//! face's pieces.
//!
//! The boundary samples of all the face's pieces ([`Patch::boundary_points`])
//! form one [`SampledCurves`]: the distance of an edge point is its nearest
//! sample, refined on the exact trim curves ([`Patch::refine`]) wherever it
//! exceeds the tolerance (see [`SampledCurves::distance`] for the bounds).

use super::piece::Patch;
use super::region::Region;
use super::sampled_curves::{SampledCurves, Scratch};
use crate::geom::Vec3;

/// The boundary samples of a face's pieces, indexed.
pub struct BoundaryIndex<'p, 's> {
    patches: &'p [Patch<'s>],
    /// Per curve id of `curves`: piece, loop and arc.
    owner: Vec<(usize, usize, usize)>,
    curves: SampledCurves,
    scratch: Scratch,
}

impl<'p, 's> BoundaryIndex<'p, 's> {
    /// Indexes the boundary samples of `patches`.
    pub fn new(patches: &'p [Patch<'s>]) -> Self {
        let mut owner: Vec<(usize, usize, usize)> = Vec::new();
        let mut samples = Vec::new();
        for (k, p) in patches.iter().enumerate() {
            for &(q, lp, arc, x) in p.boundary_points() {
                if owner.last() != Some(&(k, lp, arc)) {
                    owner.push((k, lp, arc));
                }
                samples.push((q, owner.len() - 1, x));
            }
        }
        BoundaryIndex {
            patches,
            owner,
            curves: SampledCurves::new(samples),
            scratch: Scratch::default(),
        }
    }

    /// The distance from `p` to the boundary of the pieces, exact to the
    /// refinement wherever it exceeds `tol` (infinite without pieces).
    pub fn distance(&mut self, p: &Vec3, tol: f64) -> f64 {
        let (patches, owner) = (self.patches, &self.owner);
        self.curves.distance(p, tol, &mut self.scratch, |c, x| {
            let (k, lp, arc) = owner[c];
            patches[k].refine(lp, arc, x, p)
        })
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

    /// The indexed distance equals the per-piece refinement
    /// ([`Patch::boundary_distance`]) taken over all pieces: a piece with a
    /// triangular hole and an untrimmed one beside it.
    #[test]
    fn indexed_distance_equals_the_per_piece_refinement() {
        use super::super::piece::tests::{holed_piece, triangle_hole};
        let holed = holed_piece(vec![triangle_hole()]);
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

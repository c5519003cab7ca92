//! The self-check's **boundary** test: every traced point of a Model edge of
//! the face (seams excepted) lies within tolerance of the boundary of the
//! face's pieces.
//!
//! Per edge point: the nearest boundary sample of any piece (an upper bound
//! of the distance); when that exceeds the tolerance, the boundary curves of
//! the nearest pieces are refined (Gauss–Newton from their nearest samples,
//! [`Patch::refine`]). The samples of all the face's pieces sit in one
//! [`PointTree`], so each edge point costs a few tree queries instead of a
//! scan over every sample of every piece (which cost more than preparing the
//! scene on faces of many pieces). The answers are those of the scan: the
//! same pieces are refined, from the same samples, in the same order
//! ([`node_distance_scan`] is that scan, kept for the rare point farther
//! from every piece than the face's size, and as the tests' reference).

use super::nearest::PointTree;
use super::piece::Patch;
use super::region::Region;
use crate::geom::Vec3;

/// Pieces refined per edge point, and curves refined per piece.
const REFINED: usize = 4;

/// The boundary samples of a face's pieces, indexed.
pub struct BoundaryIndex<'p, 's> {
    patches: &'p [Patch<'s>],
    /// Sample `i` of the tree is sample `owner[i].1` of piece `owner[i].0`.
    owner: Vec<(usize, usize)>,
    tree: PointTree,
    /// Scratch: samples near the point being tested.
    near: Vec<usize>,
}

impl<'p, 's> BoundaryIndex<'p, 's> {
    /// Indexes the boundary samples of `patches`.
    pub fn new(patches: &'p [Patch<'s>]) -> Self {
        let mut owner = Vec::new();
        let mut pts = Vec::new();
        for (k, p) in patches.iter().enumerate() {
            for (i, b) in p.boundary_points().iter().enumerate() {
                owner.push((k, i));
                pts.push(b.0);
            }
        }
        BoundaryIndex {
            patches,
            owner,
            tree: PointTree::new(&pts),
            near: Vec::new(),
        }
    }

    /// The distance from `p` to the boundary of the pieces as the scan
    /// ([`node_distance_scan`]) finds it.
    pub fn distance(&mut self, p: &Vec3, size: f64, tol: f64) -> f64 {
        let g = self.tree.nearest_squared(p).sqrt();
        if !(g <= size) {
            // farther than the face's size from every piece: the scan's
            // box pruning by `size` decides which pieces count
            return node_distance_scan(self.patches, p, size, tol);
        }
        if !(g > tol) {
            return g;
        }
        // every sample within 4 g: it holds all the samples the scan looks
        // at (pieces whose nearest sample is within 2 g, and their samples
        // within twice that)
        self.near.clear();
        self.tree.within(p, 4.0 * g, &mut self.near);
        self.near.sort_unstable_by_key(|&i| self.owner[i]);
        // per piece (in index order): its nearest sample distance
        let mut coarse: Vec<(f64, usize, usize, usize)> = Vec::new(); // (d0, piece, first, end) in `near`
        let mut s = 0;
        while s < self.near.len() {
            let k = self.owner[self.near[s]].0;
            let mut e = s;
            let mut m2 = f64::INFINITY;
            while e < self.near.len() && self.owner[self.near[e]].0 == k {
                let (_, i) = self.owner[self.near[e]];
                m2 = m2.min((self.patches[k].boundary_points()[i].0 - p).norm_squared());
                e += 1;
            }
            coarse.push((m2.sqrt(), k, s, e));
            s = e;
        }
        // the scan's pruning: piece k counts when its box is within the
        // smallest distance of the pieces before it (and of `size`)
        let mut running = f64::INFINITY;
        let mut kept: Vec<(f64, usize, usize, usize)> = Vec::new();
        for &c in &coarse {
            if self.patches[c.1].near(p, running.min(size)) {
                running = running.min(c.0);
                kept.push(c);
            }
        }
        let best0 = running;
        kept.retain(|c| c.0 <= 2.0 * best0);
        kept.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut best = best0;
        let mut cands: Vec<(f64, usize)> = Vec::new();
        for &(d0, k, s, e) in kept.iter().take(REFINED) {
            let patch = &self.patches[k];
            let bd = patch.boundary_points();
            // `Patch::boundary_distance` on the samples near `p`
            cands.clear();
            cands.extend(
                self.near[s..e]
                    .iter()
                    .map(|&j| self.owner[j].1)
                    .map(|i| ((bd[i].0 - p).norm(), i))
                    .filter(|c| c.0 <= 2.0 * d0),
            );
            cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut done: Vec<(usize, usize)> = Vec::new();
            let mut out = d0;
            for &(_, i) in &cands {
                let (_, lp, arc, x0) = bd[i];
                if done.contains(&(lp, arc)) {
                    continue;
                }
                if done.len() >= REFINED {
                    break;
                }
                done.push((lp, arc));
                out = out.min(patch.refine(lp, arc, x0, p));
            }
            best = best.min(out);
            if best <= tol {
                break;
            }
        }
        best
    }
}

/// The distance from `p` to the boundary of `patches` by a scan over every
/// piece's samples (pieces pruned by their boxes), refined on the nearest
/// pieces when it exceeds `tol`.
pub fn node_distance_scan(patches: &[Patch], p: &Vec3, size: f64, tol: f64) -> f64 {
    let mut coarse: Vec<(f64, usize)> = Vec::new();
    let mut best0 = f64::INFINITY;
    for (k, q) in patches.iter().enumerate() {
        if q.near(p, best0.min(size)) {
            let d = q.coarse_distance(p);
            best0 = best0.min(d);
            coarse.push((d, k));
        }
    }
    let mut best = best0;
    if best0 > tol {
        coarse.retain(|c| c.0 <= 2.0 * best0);
        coarse.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(_, k) in coarse.iter().take(REFINED) {
            best = best.min(patches[k].boundary_distance(p, tol));
            if best <= tol {
                break;
            }
        }
    }
    best
}

/// The largest distance of the region's edge points (seams excepted) from
/// the boundary of `patches` (0 without edge points).
pub fn worst_boundary(region: &Region, patches: &[Patch], size: f64, tol: f64) -> f64 {
    let mut index = BoundaryIndex::new(patches);
    let mut worst = 0.0f64;
    for l in &region.loops {
        for n in l.nodes.iter().filter(|n| !n.seam) {
            worst = worst.max(index.distance(&n.p, size, tol));
        }
    }
    worst
}

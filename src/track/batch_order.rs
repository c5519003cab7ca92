//! The order of a batch of query points along a **Hilbert curve** over
//! their bounding box (issue 27, batch throughput).
//!
//! A batch of cold queries (`closest_points`) answers each point from the
//! previous one's answer: the distance from the new point to the previous
//! witness is an upper bound of the new answer, which prunes the cold
//! search's BVH walk and cell solves (`cold::cold_search` with a ceiling).
//! That bound is tight only when consecutive points are near each other, so
//! the batch is taken in the order of a space-filling curve: the points'
//! box is divided into a `2¹⁶` grid per axis and each point keyed by the
//! Hilbert index of its grid cell (Skilling's transform, *Programming the
//! Hilbert curve*, AIP Conf. Proc. 707, 2004). Consecutive cells of the
//! Hilbert curve are face neighbours (no jumps across the box, unlike the
//! Morton order), so contiguous runs of the order are compact clusters and
//! can be split among threads.
//!
//! Non-finite points are keyed 0 (their queries fail anyway); the order is
//! a permutation of `0..n` in every case.

use crate::geom::Vec3;

/// Bits per axis of the grid (3 × 16 = 48 bits of Hilbert index): cells of
/// 1/65,536 of the box, far below the spacing that matters for the bound.
const BITS: u32 = 16;

/// The Hilbert index of grid cell `x` (`bits` bits per axis, each
/// coordinate below `2^bits`): `3 · bits` bits, the first axis most
/// significant at every level.
pub fn hilbert_index(mut x: [u32; 3], bits: u32) -> u64 {
    debug_assert!((1..=21).contains(&bits));
    let m = 1u32 << (bits - 1);
    // Skilling's AxesToTranspose: undo the excess work of the inverse
    let mut q = m;
    while q > 1 {
        let p = q - 1;
        for i in 0..3 {
            if x[i] & q != 0 {
                x[0] ^= p;
            } else {
                let t = (x[0] ^ x[i]) & p;
                x[0] ^= t;
                x[i] ^= t;
            }
        }
        q >>= 1;
    }
    // Gray encode
    x[1] ^= x[0];
    x[2] ^= x[1];
    let mut t = 0u32;
    let mut q = m;
    while q > 1 {
        if x[2] & q != 0 {
            t ^= q - 1;
        }
        q >>= 1;
    }
    for v in &mut x {
        *v ^= t;
    }
    // interleave the transposed bits, the top level first
    let mut h = 0u64;
    for b in (0..bits).rev() {
        for v in &x {
            h = (h << 1) | u64::from((v >> b) & 1);
        }
    }
    h
}

/// The permutation of `0..qs.len()` that visits `qs` along the Hilbert
/// curve over their bounding box (ties in input order). One allocation of
/// `n` keys; `O(n log n)`.
pub fn hilbert_order(qs: &[Vec3]) -> Vec<u32> {
    let finite = |q: &Vec3| q.iter().all(|c| c.is_finite());
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for q in qs.iter().filter(|q| finite(q)) {
        for k in 0..3 {
            lo[k] = lo[k].min(q[k]);
            hi[k] = hi[k].max(q[k]);
        }
    }
    let cells = f64::from((1u32 << BITS) - 1);
    // one scale for the three axes: the grid's cells stay cubes
    let span = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max);
    let scale = if span > 0.0 && span.is_finite() { cells / span } else { 0.0 };
    let mut keyed: Vec<(u64, u32)> = qs
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let key = if finite(q) {
                let g = |k: usize| ((q[k] - lo[k]) * scale).clamp(0.0, cells) as u32;
                hilbert_index([g(0), g(1), g(2)], BITS)
            } else {
                0
            };
            (key, i as u32)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inverse of [`hilbert_index`] by search (small grids only).
    fn cell_of(h: u64, bits: u32) -> [u32; 3] {
        let n = 1u32 << bits;
        for x in 0..n {
            for y in 0..n {
                for z in 0..n {
                    if hilbert_index([x, y, z], bits) == h {
                        return [x, y, z];
                    }
                }
            }
        }
        [u32::MAX; 3]
    }

    #[test]
    fn the_index_is_a_bijection_whose_consecutive_cells_are_face_neighbours() {
        for bits in 1..=3u32 {
            let n = 1u32 << bits;
            let mut seen = vec![false; (n * n * n) as usize];
            for x in 0..n {
                for y in 0..n {
                    for z in 0..n {
                        let h = hilbert_index([x, y, z], bits) as usize;
                        assert!(h < seen.len(), "index {h} out of range for {bits} bits");
                        assert!(!seen[h], "index {h} given twice");
                        seen[h] = true;
                    }
                }
            }
            let mut prev = cell_of(0, bits);
            for h in 1..u64::from(n * n * n) {
                let c = cell_of(h, bits);
                let step: u32 = (0..3).map(|k| c[k].abs_diff(prev[k])).sum();
                assert_eq!(step, 1, "cells {prev:?} → {c:?} at index {h} ({bits} bits) are not neighbours");
                prev = c;
            }
        }
    }

    #[test]
    fn the_order_is_a_permutation_that_keeps_neighbours_together() {
        // a 16³ grid of points given in a scrambled order
        let n = 16usize;
        let mut qs: Vec<Vec3> = (0..n * n * n)
            .map(|i| Vec3::new((i % n) as f64, ((i / n) % n) as f64, (i / (n * n)) as f64))
            .collect();
        let len = qs.len();
        for i in 0..len {
            qs.swap(i, (i * 7919 + 13) % len);
        }
        qs.push(Vec3::new(f64::NAN, 0.0, 0.0));
        let order = hilbert_order(&qs);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..qs.len() as u32).collect::<Vec<_>>());
        // the NaN point is keyed 0 (first); every later step is one grid unit
        let grid: Vec<Vec3> = order.iter().map(|&i| qs[i as usize]).filter(|q| q.x.is_finite()).collect();
        for w in grid.windows(2) {
            assert!(
                ((w[1] - w[0]).norm() - 1.0).abs() < 1e-12,
                "{:?} → {:?} is not one grid step",
                w[0],
                w[1]
            );
        }
    }

    #[test]
    fn degenerate_batches_are_ordered() {
        assert!(hilbert_order(&[]).is_empty());
        let one = [Vec3::new(1.0, 2.0, 3.0)];
        assert_eq!(hilbert_order(&one), vec![0]);
        let same = [Vec3::new(1.0, 2.0, 3.0); 3];
        assert_eq!(hilbert_order(&same), vec![0, 1, 2]);
    }
}

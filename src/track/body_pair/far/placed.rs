//! B's boxes placed in A's frame once per search: the box bound of a pair
//! ([`Rel::box_bound`]) maps B's box into A's frame (two 3 × 3 products), and
//! within a search each box of B (node, item or cell) meets many boxes of A
//! at the same relative pose, so its image is kept until the next search.

use crate::geom::Vec3;
use crate::track::body_pair::relative::Rel;

/// The images of B's boxes (centre and half-extents in A's frame,
/// [`Rel::place`]) made in the current search. Sized once; no allocation
/// after [`Placed::new`].
#[derive(Debug, Clone)]
pub(super) struct Placed {
    c: Vec<Vec3>,
    e: Vec<Vec3>,
    /// The epoch each image was made in (0: never).
    at: Vec<u64>,
    epoch: u64,
}

impl Placed {
    /// Images for `n` boxes of B.
    pub(super) fn new(n: usize) -> Self {
        Self {
            c: vec![Vec3::zeros(); n],
            e: vec![Vec3::zeros(); n],
            at: vec![0; n],
            epoch: 1,
        }
    }

    /// A new search (a new relative pose): every image is made again.
    pub(super) fn new_pose(&mut self) {
        self.epoch += 1;
    }

    /// The image of B's box `i`, `[lo, hi]`, at the pose `rel` of the current
    /// search (the same values as [`Rel::place`]).
    #[inline]
    pub(super) fn get(&mut self, rel: &Rel, i: u32, lo: &Vec3, hi: &Vec3) -> (Vec3, Vec3) {
        let i = i as usize;
        if self.at[i] != self.epoch {
            let (c, e) = rel.place(lo, hi);
            self.c[i] = c;
            self.e[i] = e;
            self.at[i] = self.epoch;
        }
        (self.c[i], self.e[i])
    }
}

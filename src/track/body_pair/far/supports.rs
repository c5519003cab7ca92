//! The hulls' support values along the best pair's direction, made once
//! per direction and pose: the first hull bound of every pair
//! ([`Rel::hull_bound`] along the best pair's direction `n`) is
//! `min n·B − max n·A` over the two hulls, and within a search each cell
//! (item) meets many cells (items) of the other body under the same `n`,
//! so each side's extreme is kept per cell (item) and reused until the best
//! pair or the pose changes.

use crate::geom::Vec3;
use crate::track::body_pair::relative::Rel;

/// Per index of one side: its support value and the epoch it was made in.
#[derive(Debug, Clone)]
struct Side {
    val: Vec<f64>,
    at: Vec<u64>,
}

impl Side {
    fn new(n: usize) -> Self {
        Self {
            val: vec![0.0; n],
            at: vec![0; n],
        }
    }
}

/// The support values of A's and B's hulls (cells or items) along the
/// current direction: `max n·p` over A's hull, `min (Rᵀn)·q` over B's
/// (B's frame), each made on first use in an epoch. Sized once; no
/// allocation after [`Supports::new`].
#[derive(Debug, Clone)]
pub(super) struct Supports {
    a: Side,
    b: Side,
    /// The current epoch (0: none yet); an entry is valid when made in it.
    epoch: u64,
    /// The direction (A's frame), `Rᵀ n` (B's frame) and `n·t` of the epoch.
    n: Vec3,
    nb: Vec3,
    nt: f64,
    /// The pose changed since the epoch began (a new search).
    stale: bool,
}

impl Supports {
    /// Supports for `na` hulls of A and `nb` of B.
    pub(super) fn new(na: usize, nb: usize) -> Self {
        Self {
            a: Side::new(na),
            b: Side::new(nb),
            epoch: 0,
            n: Vec3::zeros(),
            nb: Vec3::zeros(),
            nt: 0.0,
            stale: true,
        }
    }

    /// A new search (a new relative pose): every value is made again.
    pub(super) fn new_pose(&mut self) {
        self.stale = true;
    }

    /// The gap of hulls `ha` (A's index `ia`) and `hb` (B's index `ib`) along
    /// the unit direction `n` at relative pose `rel` (that of the current
    /// search): [`Rel::hull_bound`]'s value, the same bit for bit but for
    /// the sign of a zero (plain comparisons instead of `f64::max`: one `maxsd` each);
    /// `−∞` without hulls.
    #[inline]
    pub(super) fn gap(&mut self, rel: &Rel, n: &Vec3, ia: u32, ha: &[Vec3], ib: u32, hb: &[Vec3]) -> f64 {
        if ha.is_empty() || hb.is_empty() {
            return f64::NEG_INFINITY;
        }
        if self.stale || *n != self.n {
            self.epoch += 1;
            self.stale = false;
            self.n = *n;
            self.nb = rel.frame.r.tr_mul(n);
            self.nt = n.dot(&rel.frame.t);
        }
        let (ia, ib) = (ia as usize, ib as usize);
        if self.a.at[ia] != self.epoch {
            let mut m = f64::NEG_INFINITY;
            for p in ha {
                let d = self.n.dot(p);
                if d > m {
                    m = d;
                }
            }
            self.a.val[ia] = m;
            self.a.at[ia] = self.epoch;
        }
        if self.b.at[ib] != self.epoch {
            let mut m = f64::INFINITY;
            for p in hb {
                let d = self.nb.dot(p);
                if d < m {
                    m = d;
                }
            }
            self.b.val[ib] = m;
            self.b.at[ib] = self.epoch;
        }
        self.b.val[ib] + self.nt - self.a.val[ia]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Pose, Twist};
    use proptest::prelude::*;

    fn vec3() -> impl Strategy<Value = Vec3> {
        (-100.0..100.0f64, -100.0..100.0f64, -100.0..100.0f64).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn unit() -> impl Strategy<Value = Vec3> {
        vec3().prop_filter("non-zero", |v| v.norm() > 1e-3).prop_map(|v| v.normalize())
    }

    fn rel(axis: Vec3, angle: f64, t: Vec3) -> Rel {
        let pb = Pose {
            iso: nalgebra::Isometry3::from_parts(
                nalgebra::Translation3::from(t),
                nalgebra::UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_unchecked(axis), angle),
            ),
        };
        Rel::new(&Pose::identity(), &pb, &Twist::zero(), &Twist::zero())
    }

    proptest! {
        /// Every gap of every pair of a few hulls, through two directions
        /// and two poses (the values kept per hull reused between them),
        /// is `Rel::hull_bound`'s, bit for bit but for the sign of a zero
        /// (and `−∞` with an empty hull).
        #[test]
        fn kept_support_values_give_the_hull_bound_bit_for_bit(
            hulls in proptest::collection::vec(proptest::collection::vec(vec3(), 0..12), 1..5),
            poses in proptest::collection::vec((unit(), -3.2..3.2f64, vec3()), 2),
            dirs in proptest::collection::vec(unit(), 2),
        ) {
            let mut s = Supports::new(hulls.len(), hulls.len());
            for (axis, angle, t) in &poses {
                let r = rel(*axis, *angle, *t);
                s.new_pose();
                for n in dirs.iter().chain(dirs.iter()) {
                    for (i, ha) in hulls.iter().enumerate() {
                        for (j, hb) in hulls.iter().enumerate() {
                            let (kept, single) = (s.gap(&r, n, i as u32, ha, j as u32, hb), r.hull_bound(ha, hb, n));
                            prop_assert!(
                                kept == single && (kept == 0.0 || kept.to_bits() == single.to_bits()),
                                "kept {} single {}",
                                kept,
                                single
                            );
                        }
                    }
                }
            }
        }
    }
}

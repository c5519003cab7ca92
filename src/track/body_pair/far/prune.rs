//! Pruning rules of the far phase: when an answer replaces the best pair,
//! when a bound settles a pair without a solve, the slab direction of the
//! box bounds, and when a converged local minimum is the pair's minimum.

use super::Ctx;
use crate::geom::Vec3;
use crate::track::body_pair::candidate::PairCandidate;

/// Whether a far-phase answer replaces the best pair so far: lower by more
/// than a rounding tie (1e-12 relative). Equal answers of different feature
/// pairs (a witness on a crease is also a piece witness saturated on its
/// side) keep the tracked pair instead of switching back and forth.
#[inline]
pub(super) fn improves(c: &PairCandidate, best: &PairCandidate) -> bool {
    c.d < best.d - 1e-12 * (1.0 + c.d)
}

/// Whether a pair whose distance is at least `lb` cannot replace `best`
/// ([`improves`]: any answer `d ≥ lb` has `d + 1e-12 (1 + d) ≥ best.d`), so
/// it need not be solved: a pair tied with the best one to rounding is
/// settled by a bound instead of a solve that could not change the answer.
#[inline]
pub(super) fn beaten(lb: f64, best: &PairCandidate) -> bool {
    lb + 1e-12 * (1.0 + lb) >= best.d
}

/// Unit direction of the best pair so far (zero while there is none): the
/// slab direction of [`Rel::box_bound`](crate::track::body_pair::relative::Rel::box_bound).
#[inline]
pub(super) fn slab_dir(best: &PairCandidate) -> Vec3 {
    if best.d.is_finite() && best.d > 0.0 {
        (best.pb - best.pa) / best.d
    } else {
        Vec3::zeros()
    }
}

/// Whether a converged local minimum of items `ia`, `ib` (indices of
/// [`ItemBoxes`](crate::track::body_pair::items::ItemBoxes)) is the pair's minimum: both affine, or both unimodal and
/// seen from outside (facing).
#[inline]
pub(super) fn proves_minimum(ctx: &Ctx, ia: usize, ib: usize, c: &PairCandidate) -> bool {
    c.converged
        && ((ctx.boxes_a.affine[ia] && ctx.boxes_b.affine[ib])
            || (ctx.boxes_a.unimodal[ia] && ctx.boxes_b.unimodal[ib] && c.facing()))
}

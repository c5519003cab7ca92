//! Ties: item pairs whose minimum is the tracked pair's distance (the
//! affine pieces beside a tracked straight edge passing the
//! Karush–Kuhn–Tucker test — Lin–Canny's Voronoi test of an edge against a
//! face — and, against a convex solid, whole rows of pairs), bounded by the
//! tracked distance in the far phase instead of solved.

use super::candidate::PairCandidate;
use super::item_eval::keeps;
use super::items::{ItemBoxes, EDGE_FACES};
use super::relative::Rel;
use super::BodyPairTracker;
use crate::geom::Vec3;
use crate::scene::data::NONE;
use crate::track::body::{BodyGeom, Item};
use crate::track::config::Mode;

/// Item pairs whose minimum is the tracked pair's distance `d`: with a tracked
/// straight edge, the affine pieces beside it that meet the Karush–Kuhn–Tucker
/// conditions at the tracked witness (Lin–Canny's Voronoi test of the edge
/// against each face: the witness direction does not point into the face),
/// paired with the other side's tracked item and its own such pieces. Each
/// such pair has a converged local minimum at the tracked witnesses, facing
/// or between affine items, so (like the tracked pair, [`PairSkip::Proven`](super::far::PairSkip::Proven))
/// that is its minimum, and it need not be solved: the far phase bounds it by `d`.
///
/// Against a convex solid also whole rows of pairs ([`BodyPairTracker::ties`]):
/// when B is a convex solid ([`convex_solid`](super::convex_solid)) and the tracked witness on B is
/// inside a piece (converged, kept by the trim, A's witness on the outer side
/// of B's tangent plane there), B lies behind that plane, so B's witness is
/// the projection of A's witness onto B; and each affine item `X` of A among
/// the tied items (the tracked item, the pieces beside a tracked edge) holds
/// A's witness as the projection of B's witness onto `X` (a converged
/// minimum over a parallelogram or segment). Two convex sets whose points
/// are each other's projections lie on either side of the slab between them,
/// so `X` is at least `d` from all of B, and every pair of `X` with a piece
/// of B is bounded by `d` (`any_a`; B's edges and trim curves are left out:
/// they lie on B's faces only to the file's precision). The same with the
/// bodies exchanged (`any_b`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Ties {
    n: usize,
    pairs: [(Item, Item); TIES_MAX],
    pub(super) d: f64,
    /// Items of A at least `d` from every piece of B (and `n_any_a` of them).
    any_a: [Item; EDGE_FACES + 1],
    n_any_a: usize,
    /// Items of B at least `d` from every piece of A.
    any_b: [Item; EDGE_FACES + 1],
    n_any_b: usize,
}

/// At most the tracked items and [`EDGE_FACES`] pieces on each side, less the tracked pair.
pub(super) const TIES_MAX: usize = (EDGE_FACES + 1) * (EDGE_FACES + 1) - 1;

impl Ties {
    pub(super) const NONE: Ties = Ties {
        n: 0,
        pairs: [(Item::Piece(0), Item::Piece(0)); TIES_MAX],
        d: f64::INFINITY,
        any_a: [Item::Piece(0); EDGE_FACES + 1],
        n_any_a: 0,
        any_b: [Item::Piece(0); EDGE_FACES + 1],
        n_any_b: 0,
    };

    /// Whether `other` ties the same pairs (whatever the distance).
    pub(super) fn same_set(&self, other: &Ties) -> bool {
        self.pairs[..self.n] == other.pairs[..other.n]
            && self.any_a[..self.n_any_a] == other.any_a[..other.n_any_a]
            && self.any_b[..self.n_any_b] == other.any_b[..other.n_any_b]
    }

    /// Whether any pair is tied.
    #[inline]
    pub(super) fn some(&self) -> bool {
        self.n + self.n_any_a + self.n_any_b > 0
    }

    #[inline]
    pub(super) fn has(&self, a: Item, b: Item) -> bool {
        self.pairs[..self.n].contains(&(a, b))
            || (matches!(b, Item::Piece(_)) && self.any_a[..self.n_any_a].contains(&a))
            || (matches!(a, Item::Piece(_)) && self.any_b[..self.n_any_b].contains(&b))
    }
}

/// One side of a tied pair: the item, whether it is affine, unimodal, and
/// faces the other witness (curves always do).
pub(super) type TieSide = (Item, bool, bool, bool);

/// The tracked item of one body and, when it is a straight edge whose witness
/// lies inside it, the affine pieces beside it that pass [`Flat::kkt_at`](super::classes::Flat::kkt_at) at
/// the witness `p` against the other witness `q` (body-local); `facing`: the
/// tracked item faces `q`.
#[allow(clippy::too_many_arguments)]
pub(super) fn tie_side(
    boxes: &ItemBoxes,
    item: Item,
    mode: Mode,
    p: &Vec3,
    q: &Vec3,
    facing: bool,
    tol: f64,
    out: &mut [TieSide; EDGE_FACES + 1],
) -> usize {
    let i = boxes.index(item);
    out[0] = (item, boxes.affine[i], boxes.unimodal[i], facing);
    let mut n = 1;
    if let (Item::Edge(e), Mode::Interior) = (item, mode) {
        if let Some(Some((dir, faces))) = boxes.edge_faces.get(e as usize) {
            let w = q - p;
            for &k in faces.iter().filter(|&&k| k != NONE) {
                if let Some(Some(f)) = boxes.flat.get(k as usize) {
                    if f.kkt_at(p, &w, dir, tol) {
                        out[n] = (Item::Piece(k), true, true, true);
                        n += 1;
                    }
                }
            }
        }
    }
    n
}

impl BodyPairTracker {
    /// The item pairs tied with a proven tracked pair `c` ([`Ties`]).
    pub(super) fn ties(&self, a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> Ties {
        let mut t = Ties { d: c.d, ..Ties::NONE };
        let dr = c.pb - c.pa;
        // the tracked witness on a convex solid is inside a piece, kept by
        // its trim, with the other witness on the outer side of its tangent
        // plane: that solid lies behind the plane ([`Ties`]' rows)
        let behind = |convex: bool, item: Item, mode: Mode, outer: bool, body: &BodyGeom, x0: f64, x1: f64| {
            convex && c.converged && mode == Mode::Interior && outer && keeps(body, item, x0, x1)
        };
        let row_a = matches!(c.ib, Item::Piece(_))
            && behind(
                self.convex_ab[1] == Some(true),
                c.ib,
                c.mode_b,
                c.nb.dot(&dr) <= 0.0,
                b,
                c.x[2],
                c.x[3],
            );
        let row_b = matches!(c.ia, Item::Piece(_))
            && behind(
                self.convex_ab[0] == Some(true),
                c.ia,
                c.mode_a,
                c.na.dot(&dr) >= 0.0,
                a,
                c.x[0],
                c.x[1],
            );
        if !matches!(c.ia, Item::Edge(_)) && !matches!(c.ib, Item::Edge(_)) && !row_a && !row_b {
            return t;
        }
        // a witness within this of a piece's border is on it (the error it
        // allows is below the far phase's tie threshold, see `improves`)
        let tol = 1e-12 * (1.0 + c.d);
        let rt = rel.frame.r.transpose();
        let (pb, qa) = (rt * (c.pb - rel.frame.t), rt * (c.pa - rel.frame.t));
        let mut sa = [(Item::Piece(0), false, false, false); EDGE_FACES + 1];
        let mut sb = sa;
        let fa = !matches!(c.ia, Item::Piece(_)) || c.na.dot(&dr) >= 0.0;
        let fb = !matches!(c.ib, Item::Piece(_)) || c.nb.dot(&dr) <= 0.0;
        let na = tie_side(&self.boxes_a, c.ia, c.mode_a, &c.pa, &c.pb, fa, tol, &mut sa);
        let nb = tie_side(&self.boxes_b, c.ib, c.mode_b, &pb, &qa, fb, tol, &mut sb);
        for &(x, ax, ux, fx) in &sa[..na] {
            for &(y, ay, uy, fy) in &sb[..nb] {
                if (x, y) != (c.ia, c.ib) && ((ax && ay) || (ux && uy && fx && fy)) && t.n < TIES_MAX {
                    t.pairs[t.n] = (x, y);
                    t.n += 1;
                }
            }
        }
        if row_a {
            for &(x, ..) in sa[..na].iter().filter(|s| s.1) {
                t.any_a[t.n_any_a] = x;
                t.n_any_a += 1;
            }
        }
        if row_b {
            for &(y, ..) in sb[..nb].iter().filter(|s| s.1) {
                t.any_b[t.n_any_b] = y;
                t.n_any_b += 1;
            }
        }
        t
    }
}

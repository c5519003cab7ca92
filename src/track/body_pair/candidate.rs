//! The feature pair: a pair of items (piece, edge or trim curve of each
//! body) with its witnesses in A's frame (PG-2002, PG-2004 §III), and its two
//! sides as point–body candidates.

use crate::geom::Vec3;
use crate::track::body::Item;
use crate::track::config::Mode;
use crate::track::far::Candidate;
use nalgebra::Matrix3;

/// A feature pair and its witnesses, in A's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairCandidate {
    /// `|pb − pa|`.
    pub d: f64,
    /// Witness on A (A's frame).
    pub pa: Vec3,
    /// Witness on B (A's frame).
    pub pb: Vec3,
    /// Item of A.
    pub ia: Item,
    /// Item of B.
    pub ib: Item,
    /// Parameters `(u, v, r, s)` (curves use `u` / `r` only).
    pub x: [f64; 4],
    /// Mode on A's item (w.r.t. the whole item).
    pub mode_a: Mode,
    /// Mode on B's item.
    pub mode_b: Mode,
    /// The controller met its tolerance.
    pub converged: bool,
    /// Outward unit normal of A's piece at `pa` (zero for curves), A's frame.
    pub na: Vec3,
    /// Outward unit normal of B's piece at `pb` (zero for curves), A's frame.
    pub nb: Vec3,
}

impl PairCandidate {
    /// No answer yet.
    pub const NONE: PairCandidate = PairCandidate {
        d: f64::INFINITY,
        pa: Vec3::new(0.0, 0.0, 0.0),
        pb: Vec3::new(0.0, 0.0, 0.0),
        ia: Item::Piece(0),
        ib: Item::Piece(0),
        x: [0.0; 4],
        mode_a: Mode::Interior,
        mode_b: Mode::Interior,
        converged: false,
        na: Vec3::new(0.0, 0.0, 0.0),
        nb: Vec3::new(0.0, 0.0, 0.0),
    };

    /// Both witnesses are converged piece witnesses inside their pieces, each
    /// in the outer half-space of the other's tangent plane: a local minimum
    /// of a unimodal pair (two planar or convex pieces seen from outside).
    pub(super) fn facing(&self) -> bool {
        let dr = self.pb - self.pa;
        self.na.dot(&dr) >= 0.0 && self.nb.dot(&dr) <= 0.0
    }
}

/// The pair's two sides as point–body candidates in their own bodies' frames
/// (inlined everywhere: a plain copy and two 3×3 products).
#[inline(always)]
pub(super) fn candidates(c: &PairCandidate, rt: &Matrix3<f64>, tb: &Vec3) -> (Candidate, Candidate) {
    let ca = Candidate {
        d: c.d,
        point: c.pa,
        item: c.ia,
        x: [c.x[0], c.x[1]],
        mode: c.mode_a,
        converged: c.converged,
        normal: c.na,
        open: f64::INFINITY,
    };
    let cb = Candidate {
        d: c.d,
        point: rt * (c.pb - tb),
        item: c.ib,
        x: [c.x[2], c.x[3]],
        mode: c.mode_b,
        converged: c.converged,
        normal: rt * c.nb,
        open: f64::INFINITY,
    };
    (ca, cb)
}

//! The trim classes of a piece cell's sixteenths: its rectangle cut in a
//! 4 × 4 grid, each part wholly kept, wholly cut away, or crossed by a trim
//! curve's control box. Made once with the body; a witness in a kept or cut
//! away part is classified without the ray test of the trim loops
//! ([`BodyGeom::cell_keeps`]), and the pair far phase's cell hulls leave
//! the cut away parts out (`body_pair::hulls`).

use super::geom::{BodyGeom, CellTrim, Item};
use super::trim_loops::{edges_contain, TrimEdge};

/// How one sixteenth of a cell lies with respect to its piece's trim loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubTrim {
    /// No trim curve's control box meets it and its centre is kept: every
    /// point of it is kept (the even-odd count of the loops cannot change
    /// inside it).
    Kept,
    /// No trim curve's control box meets it and its centre is cut away:
    /// no point of it is kept.
    Away,
    /// A trim curve's control box meets it.
    Crossed,
}

/// The [`SubTrim`] classes of a cell's 4 × 4 sixteenths, two bits each
/// (sixteenth `(i, j)`, `i` along `u`, at bits `2 (4 i + j)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sixteenths(u32);

/// Sixteenths along each side of a cell.
pub const SIXTEENTHS_SIDE: usize = 4;

impl Sixteenths {
    /// Every sixteenth kept (untrimmed and wholly kept cells, curve cells).
    pub const KEPT: Self = Self(0);

    /// The classes of the sixteenths of rectangle `r` of a piece with trim
    /// edges `edges` (all kept without edges): the test of each sixteenth
    /// as `body_pair::hulls` made it before, its rectangle by [`Sixteenths::rect`].
    pub fn of(edges: &[TrimEdge], r: &[f64; 4]) -> Self {
        if edges.is_empty() {
            return Self::KEPT;
        }
        // the edges whose control box meets the cell (grown by a hair, so
        // that a sixteenth's rounded sides cannot reach past it): the others
        // meet no sixteenth
        let m = 1e-9 * (1.0 + r[1].abs().max(r[3].abs()));
        let meets = |b: &[f64; 4], q: &[f64; 4]| !(b[0] > q[1] || b[1] < q[0] || b[2] > q[3] || b[3] < q[2]);
        let grown = [r[0] - m, r[1] + m, r[2] - m, r[3] + m];
        let mut near = [0u32; 64];
        let mut k = 0;
        let mut all = false;
        for (i, e) in edges.iter().enumerate() {
            if meets(&e.hull, &grown) {
                if k == near.len() {
                    all = true;
                    break;
                }
                near[k] = i as u32;
                k += 1;
            }
        }
        let mut bits = 0u32;
        for i in 0..SIXTEENTHS_SIDE {
            for j in 0..SIXTEENTHS_SIDE {
                let q = Self::rect(r, i, j);
                let crossed = if all {
                    edges.iter().any(|e| meets(&e.hull, &q))
                } else {
                    near[..k].iter().any(|&e| meets(&edges[e as usize].hull, &q))
                };
                let class = if crossed {
                    SubTrim::Crossed
                } else if edges_contain(edges, 0.5 * (q[0] + q[1]), 0.5 * (q[2] + q[3])) {
                    SubTrim::Kept
                } else {
                    SubTrim::Away
                };
                bits |= (class as u32) << (2 * (SIXTEENTHS_SIDE * i + j));
            }
        }
        Self(bits)
    }

    /// Sixteenth `(i, j)` of rectangle `r` (`[u0, u1, v0, v1]`).
    #[inline]
    pub fn rect(r: &[f64; 4], i: usize, j: usize) -> [f64; 4] {
        let n = SIXTEENTHS_SIDE as f64;
        [
            r[0] + (r[1] - r[0]) * i as f64 / n,
            r[0] + (r[1] - r[0]) * (i + 1) as f64 / n,
            r[2] + (r[3] - r[2]) * j as f64 / n,
            r[2] + (r[3] - r[2]) * (j + 1) as f64 / n,
        ]
    }

    /// The class of sixteenth `(i, j)`.
    #[inline]
    pub fn class(&self, i: usize, j: usize) -> SubTrim {
        match (self.0 >> (2 * (SIXTEENTHS_SIDE * i + j))) & 3 {
            0 => SubTrim::Kept,
            1 => SubTrim::Away,
            _ => SubTrim::Crossed,
        }
    }

    /// The class of a sixteenth of rectangle `r` whose closed rectangle
    /// ([`Sixteenths::rect`], as rounded) holds `(u, v)`; `None` when the
    /// one found by the point's position does not hold it (rounding at its
    /// sides) or the point is outside `r`.
    #[inline]
    pub fn at(&self, r: &[f64; 4], u: f64, v: f64) -> Option<SubTrim> {
        let n = SIXTEENTHS_SIDE as f64;
        let (fu, fv) = ((u - r[0]) / (r[1] - r[0]) * n, (v - r[2]) / (r[3] - r[2]) * n);
        if !(fu >= 0.0 && fv >= 0.0 && fu <= n && fv <= n) {
            return None;
        }
        let (i, j) = ((fu as usize).min(SIXTEENTHS_SIDE - 1), (fv as usize).min(SIXTEENTHS_SIDE - 1));
        let q = Self::rect(r, i, j);
        (u >= q[0] && u <= q[1] && v >= q[2] && v <= q[3]).then(|| self.class(i, j))
    }
}

impl BodyGeom {
    /// Whether cell `c`'s item keeps its parameters `(u, v)` (a point of the
    /// cell): [`BodyGeom::piece_keeps`] for a piece, but answered by the
    /// cell's class when it is wholly kept, and by its sixteenth's class when
    /// that is kept or cut away (the point tested as `piece_keeps` tests it,
    /// a hair inside the piece's sides); curves keep every point.
    #[inline]
    pub fn cell_keeps(&self, c: u32, u: f64, v: f64) -> bool {
        let cell = &self.cells[c as usize];
        let Item::Piece(k) = cell.item else {
            return true;
        };
        if cell.trim == CellTrim::Inside {
            return true;
        }
        let nudge = |x: f64| x + (0.5 - x) * 1e-9;
        match cell.sixteenths.at(&cell.rect, nudge(u), nudge(v)) {
            Some(SubTrim::Kept) => true,
            Some(SubTrim::Away) => false,
            _ => self.piece_keeps(k, u, v),
        }
    }
}

//! Cells a far-phase search left open ([`OpenCells`]): their solve stopped
//! unconverged (at its iteration cap, stalled, or at a stationary point that
//! is no minimum) with no floor proving them above the answer, so all the
//! search knows of their minimum is their lower bound. At the end of the
//! search each one whose bound is below the answer is asked for a
//! certified floor ([`cell_floor`]) at the final answer; a cell that still
//! may hold a nearer point makes the answer unproven ([`Candidate::open`],
//! reported as [`AnswerStatus::UNCONVERGED`](crate::track::AnswerStatus::UNCONVERGED)):
//! the far phase never passes over such a cell silently.

use super::cell_floor::cell_floor;
use super::cell_solve::solve_cell;
use super::Candidate;
use crate::geom::Vec3;
use crate::track::body::{min_of, BodyGeom, Item};
use crate::track::config::TrackerConfig;

/// The open cells of one search, `(cell, lower bound)`, in a list sized
/// once: a cell beyond [`OpenCells::CAPACITY`] marks the answer unproven at
/// once (no allocation per update).
#[derive(Debug, Clone)]
pub struct OpenCells {
    cells: Vec<(u32, f64)>,
}

impl Default for OpenCells {
    fn default() -> Self {
        Self {
            cells: Vec::with_capacity(Self::CAPACITY),
        }
    }
}

impl OpenCells {
    /// Open cells kept for the end of a search (they are rare: none on the
    /// corpus and wave2 oracle points; a few per query at a focal set).
    pub const CAPACITY: usize = 32;

    /// Forgets the last search's cells.
    #[inline]
    pub fn clear(&mut self) {
        self.cells.clear();
    }

    /// Notes cell `c`, lower bound `lb`, whose solve left it open.
    #[cold]
    pub fn note(&mut self, c: u32, lb: f64, best: &mut Candidate) {
        if self.cells.len() < Self::CAPACITY {
            self.cells.push((c, lb));
        } else {
            best.open = min_of(best.open, lb);
        }
    }

    /// At the end of a search for `q`: each open cell whose bound is below
    /// the answer is proven above it by its floor ([`cell_floor`]), or
    /// solved again from its quarters' centres (an edge span's or a trim
    /// curve's quarter points) until one solve converges, improving `best`
    /// as any cell solve does (a solve held at a stationary point that is no
    /// minimum — the far side of a cylinder seen from its axis — starts
    /// elsewhere). A cell still open leaves the answer unproven
    /// (`best.open`, the least such bound). Returns the solves and their
    /// iterations.
    pub fn close(&mut self, body: &BodyGeom, cfg: &TrackerConfig, q: &Vec3, best: &mut Candidate) -> (u32, u32) {
        let mut work = (0, 0);
        for &(c, lb) in &self.cells {
            if !(lb < best.d && best.d.is_finite()) || cell_floor(body, c, q, best.d).is_some() {
                continue;
            }
            let r = body.cells[c as usize].rect;
            let starts: &[[f64; 2]] = match body.cells[c as usize].item {
                Item::Piece(_) => &[[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
                Item::Edge(_) | Item::Trim(_) => &[[0.25, 0.0], [0.75, 0.0]],
            };
            let closed = starts.iter().any(|&[a, b]| {
                let x0 = [r[0] + a * (r[1] - r[0]), r[2] + b * (r[3] - r[2])];
                let s = solve_cell(body, cfg, c, x0, lb, q, best);
                work.0 += 1;
                work.1 += s.iters;
                !s.open()
            });
            if !closed && lb < best.d {
                best.open = min_of(best.open, lb);
            }
        }
        self.cells.clear();
        work
    }
}

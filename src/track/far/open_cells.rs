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

#[cfg(all(test, feature = "toolchain"))]
mod tests {
    use super::super::{cell_bound, cell_config, cold_search};
    use super::*;
    use crate::track::point_body::status_of;
    use crate::track::{AnswerStatus, TrackScene};

    fn scene(name: &str) -> TrackScene {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(name);
        let model = crate::import::import_file(path).expect("fixture imports");
        let data = crate::prepare::prepare(&model, &Default::default()).expect("fixture prepares");
        TrackScene::from_data(&data).expect("fixture scene")
    }

    /// Tolerances no solve meets and a cap of one iteration.
    fn capped() -> TrackerConfig {
        TrackerConfig {
            tol: 1e-300,
            step_tol: 1e-300,
            max_iters: 1,
            ..TrackerConfig::default()
        }
    }

    fn answer(d: f64) -> Candidate {
        Candidate {
            d,
            converged: true,
            ..Candidate::NONE
        }
    }

    #[test]
    fn a_cell_left_open_below_the_answer_makes_it_unproven_unless_its_floor_clears_it() {
        // the NURBS ellipsoid seen from near its centre (a focal region,
        // where open cells occur): every cell's minimum is within a few
        // per cent of the answer
        let scene = scene("ellipsoid.brep.igs");
        let body = &scene.bodies[0];
        let root = &body.nodes[body.root as usize];
        let q = 0.5 * (root.lo + root.hi) + Vec3::new(0.01, 0.02, 0.03);
        let cfg = cell_config(&TrackerConfig::default());
        let mut exact = Candidate::NONE;
        cold_search(body, &cfg, &q, &mut exact);
        assert!(exact.proven(), "{exact:?}");
        let d = exact.d;
        let cells = 0..body.cells.len() as u32;
        let bound = |c: u32| cell_bound(body, c, &q, f64::INFINITY).expect("below +∞");

        // capped, a solve leaves its cell open
        let centre = |c: u32| {
            let r = body.cells[c as usize].rect;
            [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])]
        };
        let mut first = Candidate::NONE;
        let s = solve_cell(body, &capped(), 0, centre(0), bound(0), &q, &mut first);
        assert!(s.open(), "{s:?}");
        // with the far phase's settings it converges
        let mut first = Candidate::NONE;
        assert!(!solve_cell(body, &cfg, 0, centre(0), bound(0), &q, &mut first).open());

        let mut open = OpenCells::default();
        // the answer's own cell left open under a slightly larger answer: it
        // holds a nearer point, no floor proves it away, the answer is unproven
        let home = cells
            .clone()
            .find(|&c| {
                let cell = &body.cells[c as usize];
                let r = cell.rect;
                cell.item == exact.item && (r[0]..=r[1]).contains(&exact.x[0]) && (r[2]..=r[3]).contains(&exact.x[1])
            })
            .expect("a cell holds the answer");
        assert!(matches!(exact.item, Item::Piece(_)));
        // (solved again under the capped settings, it stays open)
        let mut best = answer(d * (1.0 + 1e-3));
        assert!(best.proven());
        open.note(home, bound(home), &mut best);
        let (solves, _) = open.close(body, &capped(), &q, &mut best);
        assert_eq!(solves, 4);
        assert_eq!(best.open, bound(home));
        assert!(!best.proven());
        assert!(status_of(body, &best).has(AnswerStatus::UNCONVERGED));
        // solved again under the far phase's settings, it converges and
        // gives the nearer point: the answer is mended, and proven
        let mut best = answer(d * (1.0 + 1e-3));
        open.note(home, bound(home), &mut best);
        let (solves, _) = open.close(body, &cfg, &q, &mut best);
        assert_eq!(solves, 1);
        assert!((best.d - d).abs() <= 1e-12 * d, "{} {d}", best.d);
        assert!(best.proven());

        // a cell below the answer by its bound whose floor proves it above: cleared
        let far = cells
            .clone()
            .find(|&c| bound(c) < d && cell_floor(body, c, &q, d).is_some())
            .expect("a cell whose floor clears it");
        let mut best = answer(d);
        open.note(far, bound(far), &mut best);
        assert_eq!(open.close(body, &capped(), &q, &mut best), (0, 0));
        assert_eq!(best.open, f64::INFINITY);
        assert!(best.proven());
        assert!(!status_of(body, &best).has(AnswerStatus::UNCONVERGED));
        // a cell whose bound is not below the answer: nothing to prove
        let mut best = answer(bound(home));
        open.note(home, bound(home), &mut best);
        assert_eq!(open.close(body, &capped(), &q, &mut best), (0, 0));
        assert!(best.proven());

        // beyond the capacity a cell marks the answer at once
        let mut best = answer(d);
        for _ in 0..OpenCells::CAPACITY {
            open.note(far, bound(far), &mut best);
        }
        assert!(best.proven());
        open.note(home, bound(home), &mut best);
        assert_eq!(best.open, bound(home));
        open.clear();
    }
}

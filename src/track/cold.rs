//! The cold query's far phase: best-first branch and bound over the body's
//! BVH (the cells of [`BodyGeom`] are its leaves), without per-body memory.
//!
//! The depth-first search of [`super::far::FarState::search`], started
//! cold (no answer yet), solves the cells of the first leaves it meets in
//! index order while the best answer is still far from the final one. The
//! cold query instead takes the BVH's most promising nodes first:
//!
//! - a priority queue holds nodes keyed by their squared box distance;
//!   the smallest is taken and followed down its nearer child, the farther
//!   child going into the queue (half the queue traffic of pushing both);
//! - at a leaf, the cells of its items whose box bound is below the best
//!   answer are sorted by that bound and solved nearest first (from their
//!   centres, as every cold solve), each after its tight bound
//!   ([`cell_bound`]: the oriented box and its quarters) is checked against
//!   the best answer, which the earlier solves have lowered;
//! - a cell whose solve finds the minimum of its whole piece (a planar or
//!   convex piece seen from outside, `far::cell_solve::piece_minimum`) bounds the
//!   piece's other cells in the leaf: they are not solved once that
//!   minimum is not below the best answer;
//! - a piece cell on which the distance is strictly monotone in `u` or
//!   `v` towards a side inside its piece (its tangent cones,
//!   [`CellCones::excludes`](super::body::CellCones::excludes)) is not
//!   solved: moving off that side lowers the distance, so the body's
//!   nearest point is not in it (a point on a trim curve or an edge is
//!   found by that item's own cell);
//! - the search stops when the queue's front is not below the best
//!   distance: no remaining node can hold a closer point.
//!
//! Every cell whose bound is below the final answer is solved by either
//! search, so both find the same minimum; the best-first order solves
//! fewer of the cells above it (step_nist_pmi1_ap203: 6.7 → 3.2 cells per
//! cold query). The queue and the leaf buffer are thread-local and grow to
//! the largest query once: a query allocates nothing after the first on
//! its thread.

use super::body::{box_dist2, BodyGeom, Item, NodeKind};
use super::config::TrackerConfig;
use super::far::{cell_bound, cell_config, item_cells, solve_cell, Candidate, OpenCells};
use crate::geom::Vec3;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A BVH node in the queue, keyed by its squared box distance (the
/// smallest key first).
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: f64,
    node: u32,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    /// Reversed on the key (a max-heap pops the smallest bound), ties by node.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.total_cmp(&self.key).then_with(|| o.node.cmp(&self.node))
    }
}

/// The buffers of a cold query: the node queue and one leaf's cells.
#[derive(Debug, Default)]
struct Buffers {
    queue: BinaryHeap<Entry>,
    cells: Vec<(f64, u32)>,
    /// The pieces of the leaf whose minimum a solve found, with it.
    floors: Vec<(u32, f64)>,
    /// The cells the search left open.
    open: OpenCells,
}

thread_local! {
    /// The buffers, reused by every cold query on the thread.
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// The far phase of a cold query: improves `best` to the minimum over the
/// body (see the module doc). Returns `(cells solved, controller iterations)`.
pub fn cold_search(body: &BodyGeom, cfg: &TrackerConfig, q: &Vec3, best: &mut Candidate) -> (u32, u32) {
    if body.nodes.is_empty() {
        return (0, 0);
    }
    let cfg = cell_config(cfg);
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buf) => search(body, &cfg, q, best, &mut buf),
        // re-entered on this thread (not done by the crate): buffers of its own
        Err(_) => search(body, &cfg, q, best, &mut Buffers::default()),
    })
}

/// The cold query under a **ceiling** (batch queries, `point_body::closest_points`):
/// the same search as [`cold_search`] with the best distance started at
/// `ceiling` instead of infinity, so nodes and cells whose bounds are not
/// below it are skipped from the start. Returns the candidate when one
/// below the ceiling was found, with `(cells solved, controller iterations)`.
///
/// Same answer as [`cold_search`] whenever it returns `Some`: the cold
/// search's answer is the first minimal result, in its fixed order (node
/// keys, then cell bounds), of the cells it solves, and a cell's result does
/// not depend on the best answer (only whether it is taken). Under the
/// ceiling the same order is walked minus nodes and cells whose lower bound
/// is not below the running best, whose results cannot undercut it; the
/// running best is never below the cold search's at the same step, so the
/// cold winner, when below the ceiling, is solved and taken here too, and
/// nothing solved before it beats it. When the cold answer is not below the
/// ceiling nothing is found (`None`) and the caller answers with the plain
/// cold search. Tested against per-point cold queries on corpus files
/// (`tests/track/batch_queries.rs`).
pub fn cold_search_below(body: &BodyGeom, cfg: &TrackerConfig, q: &Vec3, ceiling: f64) -> (Option<Candidate>, u32, u32) {
    let mut best = Candidate {
        d: ceiling,
        ..Candidate::NONE
    };
    let (cells, iters) = cold_search(body, cfg, q, &mut best);
    ((best.d < ceiling).then_some(best), cells, iters)
}

fn search(body: &BodyGeom, cfg: &TrackerConfig, q: &Vec3, best: &mut Candidate, buf: &mut Buffers) -> (u32, u32) {
    let mut work = (0u32, 0u32);
    let bound = |n: u32| {
        let node = &body.nodes[n as usize];
        box_dist2(&node.lo, &node.hi, q)
    };
    buf.queue.clear();
    buf.open.clear();
    buf.queue.push(Entry {
        key: bound(body.root),
        node: body.root,
    });
    while let Some(Entry { key, node }) = buf.queue.pop() {
        if key >= best.d * best.d {
            break;
        }
        // down the nearer child, the farther one into the queue
        let mut n = node;
        loop {
            match body.nodes[n as usize].kind {
                NodeKind::Interior(l, r) => {
                    let (kl, kr) = (bound(l), bound(r));
                    let ((ka, a), (kb, b)) = if kl <= kr { ((kl, l), (kr, r)) } else { ((kr, r), (kl, l)) };
                    if kb < best.d * best.d {
                        buf.queue.push(Entry { key: kb, node: b });
                    }
                    if ka >= best.d * best.d {
                        break;
                    }
                    n = a;
                }
                NodeKind::Leaf(f, e) => {
                    leaf(body, cfg, f..e, q, best, (&mut buf.cells, &mut buf.floors, &mut buf.open), &mut work);
                    break;
                }
            }
        }
    }
    let (solved, iterations) = buf.open.close(body, cfg, q, best);
    (work.0 + solved, work.1 + iterations)
}

/// A leaf's buffers: its cells with their box bounds, the pieces
/// whose minimum a solve found, and the cells the search left open.
type LeafBuffers<'a> = (&'a mut Vec<(f64, u32)>, &'a mut Vec<(u32, f64)>, &'a mut OpenCells);

/// The cells of a leaf's items, nearest box first, each solved while its
/// bound is below the best answer.
fn leaf(
    body: &BodyGeom,
    cfg: &TrackerConfig,
    items: std::ops::Range<u32>,
    q: &Vec3,
    best: &mut Candidate,
    (buf, floors, open): LeafBuffers<'_>,
    work: &mut (u32, u32),
) {
    buf.clear();
    floors.clear();
    let d2 = best.d * best.d;
    for i in items {
        for c in item_cells(body, body.leaf_items[i as usize]) {
            let cell = &body.cells[c as usize];
            let k = box_dist2(&cell.lo, &cell.hi, q);
            if k < d2 {
                buf.push((k, c));
            }
        }
    }
    buf.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for &(k, c) in buf.iter() {
        if k >= best.d * best.d {
            break;
        }
        let cell = &body.cells[c as usize];
        let piece = match cell.item {
            Item::Piece(p) => Some(p),
            Item::Edge(_) | Item::Trim(_) => None,
        };
        // bounded by its piece's minimum, found by an earlier cell
        if piece.is_some_and(|p| floors.iter().any(|&(f, d)| f == p && d >= best.d)) {
            continue;
        }
        let Ok(lb) = cell_bound(body, c, q, best.d) else {
            continue;
        };
        // the distance is monotone over it towards a side inside its piece:
        // it holds no minimum of the body (`CellCones::excludes`)
        if body.cell_cones[c as usize].excludes(&cell.rect, q) {
            continue;
        }
        let r = &cell.rect;
        let x0 = [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
        let solve = solve_cell(body, cfg, c, x0, lb, q, best);
        if solve.open() {
            open.note(c, lb, best);
        }
        if let (Some(p), true) = (piece, solve.piece_min) {
            floors.push((p, solve.d));
        }
        work.0 += 1;
        work.1 += solve.iters;
    }
}

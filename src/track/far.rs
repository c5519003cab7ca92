//! The far phase over one body (NJC-1999 §3.1, PG-2004 §II): a depth-first
//! branch and bound over the body's BVH whose leaves are the cells of
//! [`BodyGeom`] (sub-patches of pieces, spans of edges).
//!
//! Every node and cell keeps a *key* `lower bound + S` where `S` is the
//! path length the query point has travelled in the body frame when the
//! bound was computed; the bound is still valid at a later time with
//! `S_now` as `key − S_now` (a point that moved by `δ` is at most `δ`
//! closer to anything). A subtree whose decayed bound is not below the
//! current best is skipped without a single box test, so a coherent
//! update touches only the cells that could still beat the tracked
//! feature. A fresh state (every key at `−∞`) searches cold; the
//! stateless cold query ([`cold_search`], `super::cold`) is the same branch
//! and bound taken best first.
//!
//! A visited cell is solved by the box-constrained controller of the
//! tracking core restricted to the cell's rectangle (span for edges),
//! warm-started from that cell's previous witness. The cell's minimum is
//! then a lower bound for the cell (the solve finds the minimum of the
//! cell: cells are small sub-patches, convex pieces are unimodal); a
//! witness outside the piece's trims is not a candidate (the trimmed
//! face's minimum is then on an edge, which has cells of its own).

pub use super::cold::cold_search;
use super::body::{box_dist2, max_of, min_of, BodyGeom, Item, WideKind, NO_WIDE_NODE as NO_NODE};
pub use super::body::{trim_domain, trim_point, trim_samples, TrimSamples, TRIM_SAMPLES};
use super::config::{ControlLaw, Mode, TrackerConfig};
use super::core::{clamp_box, track_loop, track_loop_until, Local};
use super::curves::point_curve_local;
use super::point_patch::{mode_of, point_patch_local, saddle, taylor};
use crate::geom::{CurveEval, CurvePoint, Vec3};
use crate::scene::data::ConvexityClass;
use nalgebra::{Vector1, Vector2};

mod apex;
use apex::apex_certified;
mod cell_floor;
use cell_floor::cell_floor;
mod cell_solve;
mod open_cells;
pub use cell_solve::{cell_bound, item_cells, solve_cell, CellSolve};
pub use open_cells::OpenCells;
use cell_solve::{held_inside, held_on_side, SIDE};

/// The best answer found so far (body-local).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Distance.
    pub d: f64,
    /// Witness point (body-local).
    pub point: Vec3,
    /// The piece or edge holding it.
    pub item: Item,
    /// Witness parameters (edges: `[t, 0]`).
    pub x: [f64; 2],
    /// Controller mode at the witness (w.r.t. the piece or edge, not the cell).
    pub mode: Mode,
    /// The controller met its tolerance (a local minimum, not an iterate).
    pub converged: bool,
    /// Outward unit normal at a piece witness (zero for edges and trim curves).
    pub normal: Vec3,
    /// The least lower bound of a cell the search that found this answer
    /// left open: its solve stopped unconverged (at its iteration cap,
    /// stalled, or at a stationary point that is no minimum) with no floor
    /// proving it above the answer. Below `d`, that cell may hold a closer
    /// point, and the answer is reported [`UNCONVERGED`](super::AnswerStatus::UNCONVERGED)
    /// ([`Candidate::proven`]). `+∞` when no cell was left open.
    pub open: f64,
}

impl Candidate {
    /// No answer yet.
    pub const NONE: Candidate = Candidate {
        d: f64::INFINITY,
        point: Vec3::new(0.0, 0.0, 0.0),
        item: Item::Piece(0),
        x: [0.0; 2],
        mode: Mode::Interior,
        converged: false,
        normal: Vec3::new(0.0, 0.0, 0.0),
        open: f64::INFINITY,
    };

    /// The answer is a local minimum (its solve converged) and no cell its
    /// search left open ([`open`](Self::open)) may hold a closer point.
    #[inline]
    pub fn proven(&self) -> bool {
        self.converged && self.open >= self.d
    }
}

/// What the far phase leaves to the caller's own tracker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Skip {
    /// A whole item (a unimodal piece, an edge, a trim curve).
    Item(Item),
    /// The cell of an item holding the witness parameters (edges and trim
    /// curves: `[t, 0]`; NaN parameters skip nothing).
    Basin(Item, [f64; 2]),
}

/// The far phase's memory for one (query, body) pair: keys of nodes and
/// cells and each cell's last witness. Sized once; updates allocate nothing.
#[derive(Debug, Clone)]
pub struct FarState {
    node_key: Vec<f64>,
    /// Per slot of `body.leaf_items`: the least key of the item's cells (a
    /// leaf passes over an item whose cells are all bounded out).
    item_key: Vec<f64>,
    cell_key: Vec<f64>,
    cell_x: Vec<[f64; 2]>,
    /// For each piece, the cell whose last solve found the piece's minimum
    /// ([`piece_minimum`](cell_solve::piece_minimum)), solved first ([`NO_HOME`] for none).
    home: Vec<u32>,
    /// The parent of each node ([`NO_NODE`] for the root) and the leaf of
    /// each slot of `body.leaf_items`: the path along which a
    /// [`TrackedSlot`]'s key re-enters the node keys.
    parent: Vec<u32>,
    slot_leaf: Vec<u32>,
    /// The slot the node keys leave out ([`TrackedSlot`]).
    tracked: TrackedSlot,
    /// The cells the current search left open ([`OpenCells`]).
    open: OpenCells,
    /// Path length travelled by the query in the body frame.
    s: f64,
    /// Cells solved in the last search.
    pub solved: u32,
    /// Controller iterations spent in the last search.
    pub iterations: u32,
    /// Why the last search solved its cells (counted and reset only with
    /// `count_why`).
    pub why: FarWhy,
    /// Count [`FarWhy`] (development probes; off by default, it costs
    /// instructions on every solve).
    pub count_why: bool,
    /// The tracker's first update, and its re-acquire after a jump
    /// ([`is_jump`](Self::is_jump)), take the BVH best first (the cold
    /// query's [`cold_search`]) instead of [`search`](Self::search).
    /// On by default. It changes which cells the coherent updates after it
    /// warm-start from where: before a singular witness stopped bounding
    /// its cell (`singular`, `apex_certified`) that left two more
    /// boundary points of iges_3dipsos320_occ17026 tracked ≠ cold.
    pub best_first: bool,
}

/// Counts of the last search's solved cells by why they were solved and
/// what the solve proved (issue 27: which cells a coherent update
/// re-solves). A solve counts once in each class that applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FarWhy {
    /// Never bounded before (key at `−∞`: a fresh state, or every cell of
    /// a best-first search).
    pub fresh: u32,
    /// The solve proved the cell's minimum (unimodal): it was solved
    /// because that bound, decayed by the path since, fell below the answer.
    pub unimodal: u32,
    /// Not unimodal, on a piece that is not planar or convex.
    pub class: u32,
    /// Not unimodal on a planar or convex piece: the query on its inner
    /// side, or the solve not converged.
    pub side: u32,
    /// Edge spans and trim curves (never unimodal).
    pub curve: u32,
    /// The cell's minimum was below the answer but outside the trims.
    pub trimmed: u32,
    /// The cell's minimum is more than 1 % above the answer: a bound
    /// within 1 % of the true distance would have skipped the solve.
    pub gap: u32,
}

/// Settings of the cell solves: the hybrid law without motion feed-forward,
/// and a positive-definiteness margin of at most 1e-3 (the tracking default
/// is 0.05). A cell solve is a static minimisation, not a servo loop: where
/// `M` is positive definite but close to singular (a query inside a convex
/// piece at nearly its radius of curvature, `1 − d·κ` = 0.04) the
/// feedback-linearised step converges quadratically, while the globally
/// convergent law contracts by `d·κ` per iteration and stopped 1.5e-2
/// parameter units short after 64 iterations (microstation_k1 point 32).
pub fn cell_config(cfg: &TrackerConfig) -> TrackerConfig {
    TrackerConfig {
        law: ControlLaw::Hybrid,
        feed_forward: false,
        max_iters: cfg.max_iters.max(48),
        pd_margin: cfg.pd_margin.min(1e-3),
        ..*cfg
    }
}

/// Second-order Taylor expansion of a curve point by a parameter step.
pub fn curve_taylor(c: &CurvePoint, d: &Vector1<f64>) -> CurvePoint {
    let dt = d[0];
    CurvePoint {
        p: c.p + c.d1 * dt + c.d2 * (0.5 * dt * dt),
        d1: c.d1 + c.d2 * dt,
        d2: c.d2,
    }
}

/// What [`solve_piece`] returns: `(distance, point, params, mode w.r.t.
/// the piece, iterations, converged, outward normal)`.
pub type PieceSolve = (f64, Vec3, [f64; 2], Mode, u32, bool, Vec3);

/// Closest point of piece `k` to `q` within the parameter box `rect`,
/// started at `x0`: `(distance, point, params, mode w.r.t. the piece, iterations)`.
pub fn solve_piece(body: &BodyGeom, cfg: &TrackerConfig, k: u32, rect: &[f64; 4], x0: [f64; 2], q: &Vec3) -> PieceSolve {
    solve_piece_checked(body, cfg, k, rect, x0, q, u32::MAX, &mut |_: &Local<2>| false).0
}

/// Controller iterations after which a cell solve that has not converged
/// asks whether the cell can beat the answer at all ([`cell_floor`]): a
/// converged cell solve takes 1–8 iterations; one still running after
/// this many is crawling over a nearly flat distance (a query near the
/// focal set), and the certificate costs a few iterations' worth.
pub(crate) const CHECK_AT: u32 = 12;

/// How small `|f_u × f_v|` is, relative to the larger of `|f_u|²` and
/// `|f_v|²`, at a [`singular`] point of a piece.
const SINGULAR: f64 = 1e-9;

/// Whether the parametrisation is singular where its derivatives are
/// `su`, `sv`: `f_u × f_v` vanishes (a side collapsed to a point — a cone's
/// apex, a sphere's pole — or a cusp), so the surface has no normal there
/// and a stationary point of the parametrised distance need not be one of
/// the distance on the surface. At a cone's apex the distance does not
/// change along the collapsed side (`f_u = 0`), so a solve that reaches the
/// apex stays there whenever `f_v` leads away from the query at its `u`,
/// although the generator at another `u` leads nearer (iges_catia5r14_cone).
#[inline]
fn singular(su: &Vec3, sv: &Vec3) -> bool {
    su.cross(sv).norm() <= SINGULAR * su.norm_squared().max(sv.norm_squared())
}

/// [`solve_piece`], whether its end point is [`singular`], and whether it
/// is *free*: only sides of the piece are active there, no side of `rect`
/// inside the piece (a KKT point of the distance on the piece's square, not
/// a minimum held by the cell's rectangle).
///
/// `give_up` is asked once after `check_at` unconverged iterations whether
/// the solve may stop there (unconverged; [`track_loop_until`]).
#[allow(clippy::too_many_arguments)]
fn solve_piece_checked<G: FnMut(&Local<2>) -> bool>(
    body: &BodyGeom,
    cfg: &TrackerConfig,
    k: u32,
    rect: &[f64; 4],
    x0: [f64; 2],
    q: &Vec3,
    check_at: u32,
    give_up: &mut G,
) -> (PieceSolve, bool, bool) {
    let surf = &body.pieces[k as usize].surface;
    let lo = Vector2::new(rect[0], rect[2]);
    let hi = Vector2::new(rect[1], rect[3]);
    let zero = Vec3::zeros();
    let out = track_loop_until(
        cfg,
        clamp_box(&Vector2::new(x0[0], x0[1]), &lo, &hi),
        &lo,
        &hi,
        &mut |x: &Vector2<f64>| surf.eval_derivs(x[0], x[1]),
        &|sp| point_patch_local(sp, q, &zero),
        &taylor,
        check_at,
        give_up,
    );
    let x = out.x;
    let p = out.state.p;
    // a stationary point that is no minimum has not converged (`saddle`)
    let converged = out.converged && !saddle(&out.loc, &out.active);
    // the mode w.r.t. the whole piece: saturated only on the piece's sides
    let on = |a: f64| a <= 0.0 || a >= 1.0;
    let active = [out.active[0] && on(x[0]), out.active[1] && on(x[1])];
    let mode = mode_of(&x, &active, &Vector2::zeros());
    let (su, sv) = (out.state.su, out.state.sv);
    let normal = body.outward_from(k, &su.cross(&sv), [x[0], x[1]]);
    (
        (
            (p - q).norm(),
            p,
            [x[0], x[1]],
            mode,
            out.iterations,
            converged,
            normal,
        ),
        singular(&su, &sv),
        (0..2).all(|i| !out.active[i] || on(x[i])),
    )
}

/// Closest point of a curve `c(t)` (given by `eval`, domain `domain`) to
/// `q` for `t` in `[t0, t1]`, started at `t_start`: `(distance, point, t,
/// mode w.r.t. the whole domain, iterations, converged)`.
#[allow(clippy::too_many_arguments)]
pub fn solve_curve(
    cfg: &TrackerConfig,
    eval: &mut dyn FnMut(f64) -> CurvePoint,
    domain: (f64, f64),
    t0: f64,
    t1: f64,
    t_start: f64,
    q: &Vec3,
) -> (f64, Vec3, f64, Mode, u32, bool) {
    let (lo, hi) = (Vector1::new(t0), Vector1::new(t1));
    let zero = Vec3::zeros();
    let out = track_loop(
        cfg,
        clamp_box(&Vector1::new(t_start), &lo, &hi),
        &lo,
        &hi,
        &mut |x: &Vector1<f64>| eval(x[0]),
        &|c| point_curve_local(c, q, &zero),
        &curve_taylor,
    );
    let t = out.x[0];
    let mode = if t <= domain.0 {
        Mode::U0
    } else if t >= domain.1 {
        Mode::U1
    } else {
        Mode::Interior
    };
    (
        (out.state.p - q).norm(),
        out.state.p,
        t,
        mode,
        out.iterations,
        out.converged,
    )
}

/// Closest point of edge `k` to `q` for `t` in `[t0, t1]`, started at `t_start`.
pub fn solve_edge(
    body: &BodyGeom,
    cfg: &TrackerConfig,
    k: u32,
    t0: f64,
    t1: f64,
    t_start: f64,
    q: &Vec3,
) -> (f64, Vec3, f64, Mode, u32, bool) {
    let curve = &body.edges[k as usize].spans;
    solve_curve(cfg, &mut |t| curve.eval_derivs(t), curve.domain(), t0, t1, t_start, q)
}

/// The start of a solve of trim curve `k`'s cell for `q`: the nearest to
/// `q` of [`TRIM_SAMPLES`] + 1 points evenly spaced in its parameter. A
/// trim curve is a single far-phase cell over its whole parameter range,
/// and the distance along it can have several minima; a solve warm-started
/// at the previous witness stays in its basin, the cold query's solve from
/// the middle in another, so tracked and cold answers differed
/// (iges_ansa9_occ131_2 points 23 and 517: 0.02187 against 0.02040 mm,
/// 2.48448 against 2.49098 mm on the same curve). A start that depends on
/// `q` alone makes both solves the same, and the nearest sample lies in
/// the global minimum's basin unless the samples miss it.
///
/// The samples are the body's ([`TrimGeom::samples`](super::body::TrimGeom),
/// computed once when it is built): the start is 17 squared distances, and
/// the cold query, the far phase and the tracker read the same array.
#[inline]
pub fn trim_start(body: &BodyGeom, k: u32, q: &Vec3) -> f64 {
    nearest_sample(body, k, &body.trims[k as usize].samples, q)
}

/// [`trim_start`] from the curve's sample points `pts` ([`trim_samples`]):
/// the parameter of the sample nearest to `q` (the first of equals; the
/// middle of the domain when none is finite).
fn nearest_sample(body: &BodyGeom, k: u32, pts: &TrimSamples, q: &Vec3) -> f64 {
    let (a, b) = trim_domain(body, k);
    let mut best = (f64::INFINITY, 0.5 * (a + b));
    for (i, p) in pts.iter().enumerate() {
        let d2 = (p - q).norm_squared();
        if d2 < best.0 {
            best = (d2, a + (b - a) * i as f64 / TRIM_SAMPLES as f64);
        }
    }
    best.1
}

/// Closest point of trim curve `k` (on the surface) to `q`, started at `s_start`.
pub fn solve_trim(
    body: &BodyGeom,
    cfg: &TrackerConfig,
    k: u32,
    s_start: f64,
    q: &Vec3,
) -> (f64, Vec3, f64, Mode, u32, bool) {
    let (a, b) = trim_domain(body, k);
    solve_curve(cfg, &mut |s| trim_point(body, k, s).0, (a, b), a, b, s_start, q)
}

impl FarState {
    /// Fresh state for `body` (every key at `−∞`: the first search is cold).
    pub fn new(body: &BodyGeom) -> Self {
        let cell_x = body
            .cells
            .iter()
            .map(|c| [0.5 * (c.rect[0] + c.rect[1]), 0.5 * (c.rect[2] + c.rect[3])])
            .collect();
        let parent = body.wide.parents();
        let mut slot_leaf = vec![NO_NODE; body.leaf_items.len()];
        for (n, node) in body.wide.nodes.iter().enumerate() {
            if let WideKind::Leaf(f, e) = node.kind {
                for i in f..e {
                    if let Some(l) = slot_leaf.get_mut(i as usize) {
                        *l = n as u32;
                    }
                }
            }
        }
        let mut node_key = vec![f64::NEG_INFINITY; body.wide.nodes.len() + 1];
        node_key[body.wide.empty() as usize] = f64::INFINITY;
        Self {
            node_key,
            item_key: vec![f64::NEG_INFINITY; body.leaf_items.len()],
            cell_key: vec![f64::NEG_INFINITY; body.cells.len()],
            cell_x,
            home: vec![NO_HOME; body.pieces.len()],
            parent,
            slot_leaf,
            tracked: TrackedSlot::NONE,
            open: OpenCells::default(),
            s: 0.0,
            solved: 0,
            iterations: 0,
            why: FarWhy::default(),
            count_why: false,
            best_first: true,
        }
    }

    /// Forgets every bound (the next search is cold) and restarts the cells at their centres.
    pub fn reset(&mut self, body: &BodyGeom) {
        self.node_key.fill(f64::NEG_INFINITY);
        // the empty slots' key (`WideBvh::empty`)
        if let Some(k) = self.node_key.last_mut() {
            *k = f64::INFINITY;
        }
        self.item_key.fill(f64::NEG_INFINITY);
        self.cell_key.fill(f64::NEG_INFINITY);
        for (x, c) in self.cell_x.iter_mut().zip(&body.cells) {
            *x = [0.5 * (c.rect[0] + c.rect[1]), 0.5 * (c.rect[2] + c.rect[3])];
        }
        self.home.fill(NO_HOME);
        self.tracked = TrackedSlot::NONE;
        self.s = 0.0;
    }

    /// Whether a move by `moved` from a query whose answer was at distance
    /// `last` is a jump that the tracker re-acquires best first: farther
    /// than that distance plus a quarter of the body's box diagonal. The
    /// depth-first search with its decayed bounds costs no more than the
    /// best-first one after moves up to 50 Lissajous steps (instr_probe
    /// `why NAME jumps`), and less on grazing paths, where a move is many
    /// times the distance; a jump across the body starts afresh.
    pub fn is_jump(&self, body: &BodyGeom, moved: f64, last: f64) -> bool {
        // the box diagonal only when the move could be a jump (per update)
        self.best_first
            && moved > last
            && moved > last + 0.25 * body.nodes.get(body.root as usize).map_or(0.0, |n| (n.hi - n.lo).norm())
    }

    /// Records a best-first search run in place of [`search`](Self::search)
    /// (`solved` cells, `iterations`): its cells count as fresh.
    pub fn note_cold(&mut self, solved: u32, iterations: u32) {
        self.solved = solved;
        self.iterations = iterations;
        self.why = FarWhy {
            fresh: solved,
            ..FarWhy::default()
        };
    }

    /// `(wide nodes, cells)` of the body this state was sized for.
    pub fn sized_for(&self) -> (usize, usize) {
        (self.node_key.len() - 1, self.cell_key.len())
    }

    /// The query moved by `delta` (body frame) since the last search.
    #[inline]
    pub fn advance(&mut self, delta: f64) {
        self.s += delta;
    }

    /// Branch and bound from the root: improves `best` to the global minimum
    /// of the body. `skip` is what the caller tracks itself (its answer is
    /// in `best`): the whole item, or for a piece that is not unimodal only
    /// the cell holding the tracked witness `x` and its neighbours (the
    /// tracker's basin); the piece's other cells are searched as usual.
    pub fn search(&mut self, body: &BodyGeom, cfg: &TrackerConfig, q: &Vec3, skip: Option<Skip>, best: &mut Candidate) {
        self.solved = 0;
        self.iterations = 0;
        if self.count_why {
            self.why = FarWhy::default();
        }
        if body.wide.nodes.is_empty() {
            return;
        }
        self.restore_tracked(body, skip);
        let cfg = cell_config(cfg);
        let root = &body.nodes[body.root as usize];
        let lb2 = box_dist2(&root.lo, &root.hi, q);
        self.open.clear();
        self.visit(body, &cfg, body.wide.root, lb2, q, skip, best);
        let (solved, iterations) = self.open.close(body, &cfg, q, best);
        self.solved += solved;
        self.iterations += iterations;
    }

    /// Visits wide node `n` ([`BodyGeom::wide`]), whose box is `lb2`
    /// (squared) from `q`: its key.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn visit(
        &mut self,
        body: &BodyGeom,
        cfg: &TrackerConfig,
        n: u32,
        lb2: f64,
        q: &Vec3,
        skip: Option<Skip>,
        best: &mut Candidate,
    ) -> f64 {
        let key = self.node_key[n as usize];
        if key - self.s >= best.d {
            return key;
        }
        self.visit_open(body, cfg, n, lb2, q, skip, best)
    }

    /// [`visit`](Self::visit) of a node whose key is known to be below the
    /// answer (just read by its parent).
    #[allow(clippy::too_many_arguments)]
    fn visit_open(
        &mut self,
        body: &BodyGeom,
        cfg: &TrackerConfig,
        n: u32,
        lb2: f64,
        q: &Vec3,
        skip: Option<Skip>,
        best: &mut Candidate,
    ) -> f64 {
        let node = &body.wide.nodes[n as usize];
        let lb = lb2.sqrt();
        if lb >= best.d {
            let k = lb + self.s;
            self.node_key[n as usize] = k;
            return k;
        }
        let k = match node.kind {
            WideKind::Interior => {
                // a half none of whose slots' keys is below the answer is not
                // looked at (nor its box: `best` only falls in this search)
                let [s0, s1, s2, s3] = node.slots;
                let (k0, k1, k2, k3) = (
                    self.node_key[s0 as usize],
                    self.node_key[s1 as usize],
                    self.node_key[s2 as usize],
                    self.node_key[s3 as usize],
                );
                let open = |k: f64| k - self.s < best.d;
                match (open(k0) || open(k1), open(k2) || open(k3)) {
                    (false, false) => min_of(min_of(k0, k1), min_of(k2, k3)),
                    (true, false) => min_of(self.visit_half(body, cfg, n, 0, q, skip, best), min_of(k2, k3)),
                    (false, true) => min_of(self.visit_half(body, cfg, n, 1, q, skip, best), min_of(k0, k1)),
                    (true, true) => {
                        // the binary order: the nearer half's box first
                        let d0 = box_dist2(&node.half_lo[0], &node.half_hi[0], q);
                        let d1 = box_dist2(&node.half_lo[1], &node.half_hi[1], q);
                        let (a, b) = if d0 <= d1 { (0, 1) } else { (1, 0) };
                        let ka = self.visit_half(body, cfg, n, a, q, skip, best);
                        let kb = self.visit_half(body, cfg, n, b, q, skip, best);
                        min_of(ka, kb)
                    }
                }
            }
            WideKind::Leaf(f, e) => {
                let mut k = f64::INFINITY;
                for i in f..e {
                    let key = self.item_key[i as usize];
                    if key - self.s >= best.d {
                        k = min_of(k, key);
                        continue;
                    }
                    let item = body.leaf_items[i as usize];
                    let basin = match skip {
                        Some(Skip::Item(it)) if it == item => {
                            // tracked by the caller: its minimum is `best.d`;
                            // the node keys leave it out while it stays
                            // tracked (`TrackedSlot`)
                            let kt = best.d + self.s;
                            self.item_key[i as usize] = kt;
                            self.tracked = TrackedSlot {
                                slot: i,
                                key: kt,
                                basin: None,
                            };
                            continue;
                        }
                        Some(Skip::Basin(it, x)) if it == item => Some(x),
                        _ => None,
                    };
                    // a piece's home cell first: when its solve finds the
                    // piece's minimum, that bounds the piece's other cells
                    let cells = item_cells(body, item);
                    let home = match item {
                        Item::Piece(p) => Some(self.home[p as usize]).filter(|h| cells.contains(h)),
                        Item::Edge(_) | Item::Trim(_) => None,
                    };
                    let mut floor = f64::NEG_INFINITY;
                    let mut ki = f64::INFINITY;
                    // the basin's cells: how many, and the last one
                    let (mut in_basin, mut basin_cell) = (0u32, 0u32);
                    // the home cell, then the others in order (a plain count:
                    // the iterator chain cost 15 % of nist_144's traversal)
                    let h = home.unwrap_or(NO_HOME);
                    let n0 = u32::from(home.is_some());
                    for j in 0..cells.end - cells.start + n0 {
                        let c = if j < n0 { h } else { cells.start + j - n0 };
                        if j >= n0 && c == h {
                            continue;
                        }
                        if let Some(x) = basin {
                            let r = &body.cells[c as usize].rect;
                            if x[0] >= r[0] && x[0] <= r[1] && x[1] >= r[2] && x[1] <= r[3] {
                                in_basin += 1;
                                basin_cell = c;
                                continue;
                            }
                        }
                        let (kc, piece_min) = self.visit_cell(body, cfg, c, q, floor, best);
                        ki = min_of(ki, kc);
                        if let (Some(d), Item::Piece(p)) = (piece_min, item) {
                            floor = d;
                            self.home[p as usize] = c;
                        }
                    }
                    if in_basin > 0 {
                        // the basin's minimum is the caller's, `best.d`: left
                        // out of the node keys while the witness stays
                        // inside the same single cell (`TrackedSlot`)
                        let kt = best.d + self.s;
                        if in_basin == 1 {
                            self.tracked = TrackedSlot {
                                slot: i,
                                key: kt,
                                basin: Some(body.cells[basin_cell as usize].rect),
                            };
                        } else {
                            ki = min_of(ki, kt);
                        }
                    }
                    self.item_key[i as usize] = ki;
                    k = min_of(k, ki);
                }
                k
            }
        };
        // never lower than the node's own box bound
        let k = max_of(k, lb + self.s);
        self.node_key[n as usize] = k;
        k
    }

    /// Puts the key of the slot the node keys left out ([`TrackedSlot`])
    /// back into its ancestors' keys, unless `skip` leaves the same item
    /// whole to the caller again.
    #[inline]
    fn restore_tracked(&mut self, body: &BodyGeom, skip: Option<Skip>) {
        let TrackedSlot { slot, key: k, basin } = self.tracked;
        if slot == NO_SLOT {
            return;
        }
        let item = body.leaf_items[slot as usize];
        let same = match (skip, basin) {
            (Some(Skip::Item(it)), None) => it == item,
            (Some(Skip::Basin(it, x)), Some(r)) => it == item && strictly_inside(&r, &x),
            _ => false,
        };
        if same {
            return;
        }
        let key = &mut self.item_key[slot as usize];
        *key = key.min(k);
        let mut n = self.slot_leaf[slot as usize];
        while n != NO_NODE {
            // the node's key bounded everything else in it, `k` the slot
            let key = &mut self.node_key[n as usize];
            *key = key.min(k);
            n = self.parent[n as usize];
        }
        self.tracked = TrackedSlot::NONE;
    }

    /// Visits half `h` of wide node `n` (the binary walk's visit of a
    /// child of `n`'s binary node, without a key or box of its own): its
    /// slots whose keys are below the answer, the nearer box first; the
    /// least key of its slots.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn visit_half(
        &mut self,
        body: &BodyGeom,
        cfg: &TrackerConfig,
        n: u32,
        h: usize,
        q: &Vec3,
        skip: Option<Skip>,
        best: &mut Candidate,
    ) -> f64 {
        let node = &body.wide.nodes[n as usize];
        let (i, j) = (2 * h, 2 * h + 1);
        let (a, b) = (node.slots[i], node.slots[j]);
        // read again: the other half, visited first, may have lowered `best`
        let (ka, kb) = (self.node_key[a as usize], self.node_key[b as usize]);
        match (ka - self.s < best.d, kb - self.s < best.d) {
            (false, false) => min_of(ka, kb),
            (true, false) => {
                let da = box_dist2(&node.slot_lo[i], &node.slot_hi[i], q);
                min_of(self.visit_open(body, cfg, a, da, q, skip, best), kb)
            }
            (false, true) => {
                let db = box_dist2(&node.slot_lo[j], &node.slot_hi[j], q);
                min_of(self.visit_open(body, cfg, b, db, q, skip, best), ka)
            }
            (true, true) => {
                let (da, db) = (
                    box_dist2(&node.slot_lo[i], &node.slot_hi[i], q),
                    box_dist2(&node.slot_lo[j], &node.slot_hi[j], q),
                );
                let ((x, dx), (y, dy)) = if da <= db { ((a, da), (b, db)) } else { ((b, db), (a, da)) };
                let kx = self.visit_open(body, cfg, x, dx, q, skip, best);
                // read again: `best` may have fallen in `x`
                let ky = self.visit(body, cfg, y, dy, q, skip, best);
                min_of(kx, ky)
            }
        }
    }

    /// Visits cell `c` whose piece's minimum at `q` is known to be at least
    /// `floor` (`−∞` when unknown): its key, and the piece's minimum when
    /// its solve found it ([`piece_minimum`](cell_solve::piece_minimum)).
    fn visit_cell(
        &mut self,
        body: &BodyGeom,
        cfg: &TrackerConfig,
        c: u32,
        q: &Vec3,
        floor: f64,
        best: &mut Candidate,
    ) -> (f64, Option<f64>) {
        let key = self.cell_key[c as usize];
        if key - self.s >= best.d {
            return (key, None);
        }
        if floor >= best.d {
            // bounded by its piece's minimum, found by another cell at this query
            let k = floor + self.s;
            self.cell_key[c as usize] = k;
            return (k, None);
        }
        let lb = match cell_bound(body, c, q, best.d) {
            Ok(lb) => max_of(lb, floor),
            Err(lb) => {
                let k = lb + self.s;
                self.cell_key[c as usize] = k;
                return (k, None);
            }
        };
        // the distance is monotone over it towards a side inside its piece:
        // it holds no minimum of the body at `q` (`CellCones::excludes`, as
        // the cold query); it keeps its bound and is tested again when the
        // point has moved
        if body.cell_cones[c as usize].excludes(&body.cells[c as usize].rect, q) {
            let k = lb + self.s;
            self.cell_key[c as usize] = k;
            return (k, None);
        }
        self.solved += 1;
        let x0 = self.cell_x[c as usize];
        let r = &body.cells[c as usize].rect;
        let centre = [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
        let before = best.d;
        let first = solve_cell(body, cfg, c, x0, lb, q, best);
        let (mut x, mut bound, iters, d, sing) = (first.x, first.bound, first.iters, first.d, first.singular);
        let mut piece_min = first.piece_min.then_some(d);
        if self.count_why {
            self.note_why(body, c, key, bound, d, before, best);
        }
        self.iterations += iters;
        // a singular witness held where a generator leads nearer (not a
        // minimum of the surface: `apex_certified`)
        let mut at_singular = sing && !apex_certified(body, c, &x, q);
        let stalled = !first.converged && matches!(body.cells[c as usize].item, Item::Piece(_));
        let mut open = first.open();
        if x0 != centre
            && !first.floor
            && (at_singular
                || stalled
                || held_on_side(body, c, &x0, &x, bound, d, best)
                || held_inside(body, c, &x0, &x, best))
        {
            // a warm start that may have kept the cell's minimum hidden:
            // solved again from the centre, the cold query's start
            let again = solve_cell(body, cfg, c, centre, lb, q, best);
            // the cell's minimum is found after all
            open = open && again.open();
            let (xc, bc, itc, dc, sc) = (again.x, again.bound, again.iters, again.d, again.singular);
            // a second minimum: the first is no longer known to be the piece's
            piece_min = None;
            self.solved += 1;
            self.iterations += itc;
            // both bounds hold for the whole cell
            bound = bound.max(bc);
            if dc < d {
                (x, at_singular) = (xc, sc && !apex_certified(body, c, &xc, q));
            }
        }
        if open {
            self.open.note(c, lb, best);
        }
        // such a witness is never a warm start: the next solve of the cell
        // starts where the cold query's does
        self.cell_x[c as usize] = if at_singular { centre } else { x };
        let k = bound + self.s;
        self.cell_key[c as usize] = k;
        (k, piece_min)
    }

    /// Counts a solve of cell `c` in [`FarWhy`]: its key before, its new
    /// bound, its minimum `d`, the answer before and after.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn note_why(&mut self, body: &BodyGeom, c: u32, key: f64, bound: f64, d: f64, before: f64, best: &Candidate) {
        let w = &mut self.why;
        w.fresh += u32::from(key == f64::NEG_INFINITY);
        if bound >= d {
            w.unimodal += 1;
        } else {
            match body.cells[c as usize].item {
                Item::Piece(p) => match body.pieces[p as usize].class {
                    ConvexityClass::Planar | ConvexityClass::Convex => w.side += 1,
                    _ => w.class += 1,
                },
                Item::Edge(_) | Item::Trim(_) => w.curve += 1,
            }
        }
        w.trimmed += u32::from(d < before && best.d == before);
        w.gap += u32::from(d > 1.01 * best.d);
    }
}

/// No home cell for a piece (`FarState::home`).
const NO_HOME: u32 = u32::MAX;

/// No slot ([`TrackedSlot`]).
const NO_SLOT: u32 = u32::MAX;

/// The leaf slot of the item the caller tracks whole ([`Skip::Item`]) in
/// the last search that visited it: the node keys above it leave it out.
///
/// The slot's own key is `best.d + S` (the tracked minimum), and a node key
/// holding it decays below the answer on the very next update (the answer
/// moves by less than the point), so every ancestor of the tracked item was
/// visited again on every update although the caller answers for the item.
/// Its ancestors' keys now bound everything in them *but* the slot; the slot
/// keeps its valid key, which [`FarState::search`] puts back into the
/// ancestors (`FarState::restore_tracked`, a walk up the parents) as soon as
/// a search does not leave the same item to the caller.
///
/// The same for the basin of a [`Skip::Basin`] (the cell holding the
/// tracked witness of an item that is not unimodal: an edge, a trim curve,
/// a piece seen from its concave side): the slot's key bounds the item's
/// other cells only, and the basin's key `best.d + S` re-enters it and the
/// ancestors when the witness leaves that cell's interior (then the cell
/// may no longer be the caller's) or the caller tracks another item.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TrackedSlot {
    /// Index into `body.leaf_items` ([`NO_SLOT`] for none).
    slot: u32,
    /// The key left out of the slot's ancestors (`best.d + S` when it was
    /// left out).
    key: f64,
    /// For a basin, the rectangle of its only cell (`None`: the whole item).
    basin: Option<[f64; 4]>,
}

impl TrackedSlot {
    const NONE: TrackedSlot = TrackedSlot {
        slot: NO_SLOT,
        key: f64::NEG_INFINITY,
        basin: None,
    };
}

/// Whether the parameters `x` lie in the interior of the rectangle `r`
/// (`[u0, u1, v0, v1]`; a degenerate `v` range, as of an edge's span, is
/// matched by its one value): then no other cell of the item, whose cells
/// tile its domain, holds `x`.
#[inline]
fn strictly_inside(r: &[f64; 4], x: &[f64; 2]) -> bool {
    let v_in = if r[2] == r[3] { x[1] == r[2] } else { x[1] > r[2] && x[1] < r[3] };
    x[0] > r[0] && x[0] < r[1] && v_in
}

#[cfg(test)]
mod tests {
    use super::cell_solve::held_away;
    use super::strictly_inside;

    #[test]
    fn a_basin_stays_the_same_only_strictly_inside_its_cell() {
        // a piece cell [0.25, 0.5] × [0.5, 0.75]
        let r = [0.25, 0.5, 0.5, 0.75];
        assert!(strictly_inside(&r, &[0.3, 0.6]));
        // on a side the neighbouring cell holds the witness too
        assert!(!strictly_inside(&r, &[0.25, 0.6]));
        assert!(!strictly_inside(&r, &[0.3, 0.75]));
        assert!(!strictly_inside(&r, &[0.6, 0.6]));
        // an edge's span [2, 3] (no v range): its open interval, v = 0
        let e = [2.0, 3.0, 0.0, 0.0];
        assert!(strictly_inside(&e, &[2.5, 0.0]));
        assert!(!strictly_inside(&e, &[3.0, 0.0]));
        assert!(!strictly_inside(&e, &[2.5, 0.1]));
    }

    #[test]
    fn a_start_held_on_an_inner_side_turned_away_from_the_answer_is_re_solved() {
        // the cell [0.5, 1] × [0.5, 0.75] of a piece
        let r = [0.5, 1.0, 0.5, 0.75];
        let (x0, x) = ([0.8, 0.75], [0.95, 0.75]);
        // the answer at v = 0.5 (below the side v = 0.75): held away from it
        assert!(held_away(&r, &x0, &x, &[1.0, 0.5]));
        // the answer beyond the side (v ≥ 0.75): the usual constrained minimum
        assert!(!held_away(&r, &x0, &x, &[0.9, 0.8]));
        // start and end on different sides, or the end inside: nothing held
        assert!(!held_away(&r, &[0.8, 0.5], &x, &[1.0, 0.5]));
        assert!(!held_away(&r, &x0, &[0.9, 0.7], &[1.0, 0.5]));
        // a side on the piece's border (u = 1) holds a KKT point of the piece, not a cell artefact
        assert!(!held_away(&r, &[1.0, 0.6], &[1.0, 0.7], &[0.6, 0.6]));
    }
}

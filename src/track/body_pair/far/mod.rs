//! The pair far phase (PG-2004 §II, NJC-1999 §3.1): a depth-first branch
//! and bound over the bounding-volume test tree of both bodies' BVHs,
//! remembered between updates as its *front* ([`front`]), each entry keyed
//! by its lower bound plus the accumulated relative motion; pruning rules in
//! [`prune`], warm starts in [`warm`], the leaves (item and cell pairs) in
//! [`item_pairs`].

mod decay;
mod front;
mod item_pairs;
mod placed;
mod prune;
mod supports;
mod warm;

use decay::PoseRing;
use front::{Entry, EntryKind, Front, FRONT_CAP, FRONT_DEPTH, NO_POSE};
use placed::Placed;
use prune::{beaten, slab_dir};
use supports::Supports;
use warm::{Warms, NO_WARM};

use super::candidate::PairCandidate;
use super::dominated::Dominated;
use super::hulls::CellHulls;
use super::items::ItemBoxes;
use super::kept::KeptLeaves;
use super::relative::Rel;
use super::ties::Ties;
use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item, NodeKind};
use crate::track::config::TrackerConfig;

/// What the far phase leaves to the caller's tracker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum PairSkip {
    /// The whole item pair (unimodal: two planar/convex pieces facing each other).
    Items(Item, Item),
    /// The whole item pair (unimodal, its converged minimum proven as in
    /// the far phase's item solves, e.g. a straight edge and a convex piece);
    /// unlike [`PairSkip::Items`], items on the same patches are not skipped.
    Proven(Item, Item),
    /// The cell pair holding the witness parameters.
    Basin(Item, Item, [f64; 4]),
}

/// What the last far-phase search did (work counters, for profiling: the
/// cost of an update by phase).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FarCounts {
    /// Front entries popped (their bound fell below the best distance).
    pub popped: u32,
    /// Popped entries put back without being bounded again: their own
    /// decayed bound (the bound made at an earlier pose less the motion of
    /// their B side since, [`decay`](self)) is still beaten by the best pair.
    pub decayed: u32,
    /// Node pairs bounded.
    pub nodes: u32,
    /// Item pairs bounded.
    pub items: u32,
    /// Whole-item solves.
    pub item_solves: u32,
    /// Cell pairs bounded.
    pub cells: u32,
    /// Cell-pair solves.
    pub cell_solves: u32,
    /// Solves (item or cell) whose answer did not improve the best pair.
    pub idle_solves: u32,
    /// Searches restarted from the root pair because the front cost more
    /// than a search from the root ([`PairFar`]'s bounded effort).
    pub restarts: u32,
    /// Penetration tests of the update by point–body searches (containment
    /// confirmations and interpenetration seeds; counted by the tracker).
    pub probes: u32,
    /// Cell-pair solves by how far the pair's lower bound was below the best
    /// distance when it was solved, relative to the best distance: `< 1e-9`,
    /// `< 1e-6`, `< 1e-3`, `< 1e-1`, larger (why the pair was not ruled out).
    pub solve_gap: [u32; 5],
    /// Cell-pair solves by their answer against the best distance before the
    /// solve, relative: improved it, above by `< 1e-9`, `< 1e-6`, `< 1e-3`,
    /// larger.
    pub solve_result: [u32; 5],
    /// Cell-pair solves by the cells' items: two pieces, a piece and a curve
    /// (edge or trim curve), two curves.
    pub solve_kind: [u32; 3],
    /// Cell-pair solves that improved the best pair, by the improvement
    /// relative to the best distance: `< 1e-9`, `< 1e-6`, `< 1e-3`, `< 1e-1`, larger.
    pub improved_by: [u32; 5],
    /// How far the search lowered the distance it started from (the tracked
    /// pair's), relative: 0 none, else `1 +` its [`gap_bucket`].
    pub drop: u32,
}

/// The bucket of a relative gap `g ≥ 0` in [`FarCounts::solve_gap`].
pub(super) fn gap_bucket(g: f64) -> usize {
    [1e-9, 1e-6, 1e-3, 1e-1].iter().position(|&t| g < t).unwrap_or(4)
}

/// The far phase over two BVHs: a depth-first branch and bound over the
/// bounding-volume test tree, remembered between updates as its front.
/// Sized once; coherent updates allocate nothing (the front's buffers grow
/// to their working size during the first searches and are then reused).
#[derive(Debug, Clone)]
pub struct PairFar {
    front: Front,
    next: Vec<Entry>,
    /// Entries bounded by a tie ([`Ties`]), kept out of the front while the
    /// tied set stays `tied_set` (each search re-proves it): a tie's bound is
    /// the tracked distance, below the best one after any motion, so in the
    /// front it would be popped and pushed back on every update.
    tied: Vec<Entry>,
    tied_set: Ties,
    /// The warm data of the entries of `front`, `next` and `tied`.
    warms: Warms,
    /// Each cell's last witness parameters on its side (warm starts).
    xa: Vec<[f64; 2]>,
    xb: Vec<[f64; 2]>,
    /// Each unimodal item's last witness parameters (warm starts of whole-item solves; NaN: none).
    ya: Vec<[f64; 2]>,
    yb: Vec<[f64; 2]>,
    /// Accumulated bound on B's motion relative to A since the bounds were made.
    s: f64,
    /// The relative poses of the last searches, for each entry's own decay.
    poses: PoseRing,
    /// Each solved cell pair's last witness direction `(pb − pa)/d` (A's
    /// frame; NaN: none), the direction of its hull bound before it is
    /// solved again, and its last witness parameters, the warm start of its
    /// next solve (a cell's own last witness, `xa` / `xb`, belongs to
    /// whichever of its many pairs was solved last).
    /// Also the last witness points, A's in A's frame and B's in B's (the
    /// per-leaf directions of the kept-region bound, [`KeptLeaves::kept_gap`]).
    dirs: std::collections::HashMap<(u32, u32), DirEntry, PairHash>,
    /// The cells' control hulls (made for cell pairs solved after the first
    /// search: a single query does not pay for them).
    hulls_a: CellHulls,
    hulls_b: CellHulls,
    /// The leaves of the trimmed cells' kept parts (made for cell pairs
    /// bounded after the first search).
    kept_a: KeptLeaves,
    kept_b: KeptLeaves,
    /// The cell hulls' and the item hulls' support values along the best
    /// pair's direction (each made once per direction and pose).
    sup_cells: Supports,
    sup_items: Supports,
    /// B's node, item and cell boxes placed in A's frame (each made once
    /// per search).
    placed_nodes: Placed,
    placed_items: Placed,
    placed_cells: Placed,
    /// Searches since the last reset.
    searches: u32,
    /// A cold search's pass bound: pairs whose lower bound is at least this
    /// are left for a later pass, as if beaten (∞ outside cold searches;
    /// [`PairFar::search_inner`]).
    cap: f64,
    /// The least lower bound left for a later pass by `cap` in this pass.
    capped: Least,
    /// A first answer is being sought from a trimmed cell's boundary
    /// ([`PairFar::seed_from_boundary`]): no nested seeding.
    seeding: bool,
    /// Cell pairs solved in the last search.
    pub solved: u32,
    /// Controller iterations of the last search.
    pub iterations: u32,
    /// Work counters of the last search.
    pub counts: FarCounts,
    /// The work ([`FarCounts::work`]) of the last search made from the
    /// root pair (at a recent pose: the work follows the pose): a search
    /// from the front that exceeds it starts over from the root (with the
    /// best pair so far), so that a coherent update costs at most about
    /// twice a search from scratch at a nearby pose.
    budget: u64,
    /// Searches left to make from the root directly, after a search from the
    /// front had to start over ([`ROOT_BACKOFF`]).
    root_next: u32,
    /// Consecutive searches from the front that had to start over.
    failures: u32,
}

/// The hasher of [`PairFar`]'s cell-pair map: a key is two cell indices of
/// the tracker's own bodies (no adversary to resist), so a multiply–rotate
/// mix replaces SipHash, which cost about 3 % of a coherent update's
/// instructions on nist_pmi1 × fusee (looked up for every cell pair bounded).
type PairHash = std::hash::BuildHasherDefault<PairHasher>;

/// See [`PairHash`].
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct PairHasher(u64);

impl std::hash::Hasher for PairHasher {
    fn finish(&self) -> u64 {
        // the table takes its bucket from the low bits and its tags from the
        // high ones: the rotation brings the product's well-mixed high bits down
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.mix(u64::from(b));
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.mix(u64::from(x));
    }
}

impl PairHasher {
    fn mix(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0xf135_7aea_2e62_a9c5);
    }
}

/// A solved cell pair's last witness direction `n` (A's frame), witness
/// parameters `x`, witness points `pa` (A's frame) and `pb` (B's frame).
#[derive(Debug, Clone, Copy)]
pub(super) struct DirEntry {
    pub(super) n: Vec3,
    pub(super) x: [f64; 4],
    /// The witness parameters of the pair's two solves before (NaN: none)
    /// and their searches: the next solve starts from the last witness
    /// extrapolated along them ([`warm::extrapolate`]).
    pub(super) xp: [f64; 4],
    pub(super) xpp: [f64; 4],
    pub(super) tp: u32,
    pub(super) tpp: u32,
    pub(super) pa: Vec3,
    pub(super) pb: Vec3,
    /// The last solve ended below the best distance on a witness trimmed
    /// away: the pair is bounded by its cells' kept parts (`kept.rs`) before
    /// it is solved again.
    pub(super) trimmed: bool,
    /// Controller iterations of the last solve (the kept-region bound is
    /// tried only where a solve costs more than it: [`KEPT_MIN_ITERATIONS`]).
    pub(super) iterations: u32,
    /// The search of the last solve: a pair met again in the same search
    /// (a later pass of a cold search, a seed, a restart from the root) is
    /// not solved again but bounded by `bound`.
    pub(super) at: u32,
    /// The lower bound the last solve gave the pair (at the pose of search `at`).
    pub(super) bound: f64,
}

/// The fewest iterations of a pair's last solve for the kept-region bound
/// to be tried before solving it again: on pairs of low-degree pieces a
/// solve of two or three iterations costs less than the leaves' bound
/// (measured on nist_pmi1 × fusee: about 6,000 instructions a solve).
pub(super) const KEPT_MIN_ITERATIONS: u32 = 4;

/// After `k` consecutive searches from the front had to start over, the next
/// `min(2^k, ROOT_BACKOFF)` searches start from the root directly: where the
/// front does not pay (its entries are re-expanded about as often as a search
/// from the root makes them), an update costs one search from the root
/// instead of a wasted front search plus one.
const ROOT_BACKOFF: u32 = 64;

impl FarCounts {
    /// A measure of the search's cost: pairs bounded plus [`SOLVE_WORK`] per solve.
    pub fn work(&self) -> u64 {
        u64::from(self.nodes)
            + u64::from(self.items)
            + u64::from(self.cells)
            + SOLVE_WORK * u64::from(self.item_solves + self.cell_solves)
    }
}

/// The least of some positive bounds, lowered through `&self` (the far
/// phase's `beaten` test is called with cell hulls borrowed from it); an
/// atomic only to stay unwind-safe and `Clone`, never shared.
#[derive(Debug)]
struct Least(std::sync::atomic::AtomicU64);

impl Least {
    fn new() -> Self {
        Self(std::sync::atomic::AtomicU64::new(f64::INFINITY.to_bits()))
    }

    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn reset(&self) {
        self.0.store(f64::INFINITY.to_bits(), std::sync::atomic::Ordering::Relaxed);
    }

    fn lower(&self, x: f64) {
        if x < self.get() {
            self.0.store(x.to_bits(), std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl Clone for Least {
    fn clone(&self) -> Self {
        let l = Self::new();
        l.lower(self.get());
        l
    }
}

/// The first pass margin of a cold search is the sum of the bodies' box
/// diagonals over this (doubled on each further pass): small against the
/// gaps between the lower bounds of a pair of parts, so that few pairs above
/// the answer are solved before it is found.
const CAP_STEPS: f64 = 1024.0;

/// The most passes of a cold search ([`CAP_STEPS`]); the last has no cap.
const MAX_PASSES: u32 = 8;

/// The cost of a solve in units of a bound (a box or hull bound costs tens of
/// nanoseconds, a solve from a warm start a few evaluations of two items).
const SOLVE_WORK: u64 = 32;

/// The smallest restart budget (a search from the root bounds the top of
/// both BVHs even when nothing needs a solve).
const MIN_BUDGET: u64 = 4 * SOLVE_WORK;

pub(super) struct Ctx<'a> {
    pub(super) a: &'a BodyGeom,
    pub(super) b: &'a BodyGeom,
    pub(super) boxes_a: &'a ItemBoxes,
    pub(super) boxes_b: &'a ItemBoxes,
    pub(super) rel: &'a Rel,
    /// The contact tolerance: a best pair this close ends the search (the
    /// bodies touch or interpenetrate; the answer is then the penetration
    /// pair, which the far phase does not find).
    pub(super) contact: f64,
    /// A curve cell (edge or trim) whose points lie within this of each
    /// other is solved as a point ([`PairFar::visit_cells`]): the trim
    /// curve along a patch side collapsed to a pole, where the curve
    /// parameter has no effect and the controller crawls to its iteration cap.
    pub(super) point: f64,
    pub(super) cfg: TrackerConfig,
    pub(super) skip: Option<PairSkip>,
    /// With `skip = Items(pa, pb)`: the items on `pa`'s and on `pb`'s patch.
    pub(super) dom: Option<(&'a Dominated, &'a Dominated)>,
    /// Item pairs tied with the tracked pair ([`Ties`]).
    pub(super) ties: &'a Ties,
}

fn centres(body: &BodyGeom) -> Vec<[f64; 2]> {
    body.cells
        .iter()
        .map(|c| [0.5 * (c.rect[0] + c.rect[1]), 0.5 * (c.rect[2] + c.rect[3])])
        .collect()
}

impl PairFar {
    /// An empty front for bodies `a` and `b` (the first search is cold).
    pub fn new(a: &BodyGeom, b: &BodyGeom) -> Self {
        Self {
            front: Front::with_capacity(1024),
            next: Vec::with_capacity(1024),
            tied: Vec::with_capacity(256),
            tied_set: Ties::NONE,
            warms: Warms::with_capacity(1024),
            xa: centres(a),
            xb: centres(b),
            ya: vec![[f64::NAN; 2]; a.pieces.len() + a.edges.len() + a.trims.len()],
            yb: vec![[f64::NAN; 2]; b.pieces.len() + b.edges.len() + b.trims.len()],
            s: 0.0,
            poses: PoseRing::new(),
            dirs: std::collections::HashMap::with_hasher(PairHash::default()),
            hulls_a: CellHulls::new(a),
            hulls_b: CellHulls::new(b),
            kept_a: KeptLeaves::new(a),
            kept_b: KeptLeaves::new(b),
            sup_cells: Supports::new(a.cells.len(), b.cells.len()),
            placed_nodes: Placed::new(b.nodes.len()),
            placed_items: Placed::new(b.pieces.len() + b.edges.len() + b.trims.len()),
            placed_cells: Placed::new(b.cells.len()),
            sup_items: Supports::new(
                a.pieces.len() + a.edges.len() + a.trims.len(),
                b.pieces.len() + b.edges.len() + b.trims.len(),
            ),
            searches: 0,
            seeding: false,
            cap: f64::INFINITY,
            capped: Least::new(),
            solved: 0,
            iterations: 0,
            counts: FarCounts::default(),
            budget: u64::MAX,
            root_next: 0,
            failures: 0,
        }
    }

    /// Forgets every bound and warm start: the next search is cold.
    pub fn forget(&mut self) {
        self.clear_entries();
        self.xa.fill([f64::NAN; 2]);
        self.xb.fill([f64::NAN; 2]);
        self.ya.fill([f64::NAN; 2]);
        self.yb.fill([f64::NAN; 2]);
        self.dirs.clear();
        self.searches = 0;
        self.s = 0.0;
        self.budget = u64::MAX;
        self.root_next = 0;
        self.failures = 0;
    }

    /// B moved by at most `delta` relative to A since the last search.
    pub fn advance(&mut self, delta: f64) {
        self.s += delta;
    }

    /// Searches since the last reset.
    pub fn searches(&self) -> u32 {
        self.searches
    }

    /// Entries in the front (a measure of the work a cold search did).
    pub fn front_len(&self) -> usize {
        self.front.len()
    }

    /// Warm-data slots in use: one per kept item entry with warm data
    /// (at most [`PairFar::front_len`] between searches).
    pub fn warm_slots(&self) -> usize {
        self.warms.live()
    }

    pub(super) fn search(&mut self, ctx: &Ctx, best: &mut PairCandidate) {
        self.solved = 0;
        self.iterations = 0;
        self.counts = FarCounts::default();
        self.searches = self.searches.saturating_add(1);
        self.poses.enter(self.searches, &ctx.rel.frame);
        self.sup_cells.new_pose();
        self.sup_items.new_pose();
        self.placed_nodes.new_pose();
        self.placed_items.new_pose();
        self.placed_cells.new_pose();
        let start_d = best.d;
        self.search_inner(ctx, best);
        if best.d < start_d && start_d.is_finite() {
            self.counts.drop = 1 + gap_bucket((start_d - best.d) / best.d.max(f64::MIN_POSITIVE)) as u32;
        }
    }

    fn search_inner(&mut self, ctx: &Ctx, best: &mut PairCandidate) {
        if ctx.a.nodes.is_empty() || ctx.b.nodes.is_empty() {
            return;
        }
        if !self.tied.is_empty() && !ctx.ties.same_set(&self.tied_set) {
            // the ties changed: their entries go back to the front with
            // their keys (a bound made at accumulated motion `S₀` as
            // `bound + S₀`, valid as before)
            for e in self.tied.drain(..) {
                self.front.push(e);
            }
        }
        if self.tied.is_empty() {
            self.tied_set = *ctx.ties;
        }
        if self.root_next > 0 {
            // the front did not pay lately: from the root (warm starts kept)
            self.root_next -= 1;
            self.clear_entries();
        }
        let mut from_root = self.front.is_empty() && self.tied.is_empty();
        let mut restarted = false;
        if from_root {
            self.push_root(ctx);
        }
        // a cold search (no answer to prune by) goes in passes of rising
        // bound, each from the root, leaving pairs whose bound is at least
        // the pass's `cap` for later passes (solved pairs are not solved
        // again): it solves about the pairs a best-first search would,
        // instead of every pair below the first answers a depth-first
        // search meets (nist_pmi1 × fusee: 3,400 cell solves, 95 % of them
        // on pairs above the answer)
        let (ra, rb) = (&ctx.a.nodes[ctx.a.root as usize], &ctx.b.nodes[ctx.b.root as usize]);
        let mut step = ((ra.hi - ra.lo).norm() + (rb.hi - rb.lo).norm()) / CAP_STEPS;
        let cold = from_root && !best.d.is_finite() && step > 0.0 && step.is_finite();
        if cold {
            self.cap = ctx.rel.box_bound(&ra.lo, &ra.hi, &rb.lo, &rb.hi, &Vec3::zeros()) + step;
            self.capped.reset();
        }
        self.next.clear();
        let mut start = 0;
        // every entry below the best distance is expanded once; what the
        // expansions make goes back in afterwards (it may lie below too,
        // where a bound is only a box bound, and waits for the next update)
        let mut passes = 0;
        loop {
            self.run_front(ctx, best, &mut from_root, &mut restarted, &mut start);
            let m = self.capped.get();
            if cold && m.is_finite() && !(best.d <= self.cap) && best.d > ctx.contact {
                // pairs were left at or above the cap and the answer (if
                // any) is not below it: the next pass, from the least bound
                // left, with a doubled margin (the last one uncapped)
                step *= 2.0;
                passes += 1;
                self.cap = if passes < MAX_PASSES { m + step } else { f64::INFINITY };
                self.capped.reset();
                self.clear_entries();
                self.push_root(ctx);
                continue;
            }
            break;
        }
        self.cap = f64::INFINITY;
        if from_root {
            // the last search from the root bounds the front's effort: the
            // work of a search follows the pose, so the cheapest one so far
            // (the budget before session 25) soon became a pose's that the
            // front could not match elsewhere, and the back-off then sent
            // three updates in four to the root (1,512 of 2,000 on the
            // nist_pmi1 × fusee orbit; 20 with this rule, and 12 % fewer
            // instructions per update)
            self.budget = (self.counts.work() - start).max(MIN_BUDGET);
        }
        if restarted {
            self.failures = self.failures.saturating_add(1);
            self.root_next = (1u32 << self.failures.min(6)).min(ROOT_BACKOFF);
        } else if !from_root {
            self.failures = 0;
        }
        for e in self.next.drain(..) {
            self.front.push(e);
        }
        if self.front.len() > FRONT_CAP {
            let k = self.front.min_key();
            self.clear_entries();
            self.front.push(Entry {
                kind: EntryKind::Nodes,
                a: ctx.a.root,
                b: ctx.b.root,
                depth: 0,
                key: k,
                lb: f64::NEG_INFINITY,
                at: NO_POSE,
                warm: NO_WARM,
            });
        }
    }

    /// Whether a pair whose distance is at least `lb` need not be solved
    /// now: beaten by the best pair ([`beaten`]), or at or above a cold
    /// search's pass cap (then kept for the next pass in `capped`).
    #[inline]
    pub(super) fn beaten(&self, lb: f64, best: &PairCandidate) -> bool {
        if beaten(lb, best) {
            return true;
        }
        if lb >= self.cap {
            self.capped.lower(lb);
            return true;
        }
        false
    }

    /// Expands the front's entries below the best distance (the body of a
    /// search; see [`PairFar::search_inner`]).
    fn run_front(&mut self, ctx: &Ctx, best: &mut PairCandidate, from_root: &mut bool, restarted: &mut bool, start: &mut u64) {
        while let Some(key) = self.front.peek_key() {
            if beaten(key - self.s, best) || best.d <= ctx.contact {
                break;
            }
            if !*from_root && self.counts.work() > self.budget {
                // the front's stale bounds cost more than a search from the
                // root would: start over from the root with the best pair so
                // far (every bound made afresh, warm starts kept)
                self.clear_entries();
                self.push_root(ctx);
                self.counts.restarts += 1;
                *from_root = true;
                *restarted = true;
                *start = self.counts.work();
                continue;
            }
            let Some(e) = self.front.pop() else { break };
            self.counts.popped += 1;
            self.expand(ctx, e, best);
        }
    }

    /// Drops every entry (the front, the tied ones, the next ones) and their
    /// warm data.
    fn clear_entries(&mut self) {
        self.front.clear();
        self.tied.clear();
        self.next.clear();
        self.warms.clear();
    }

    /// The root pair of the test tree, below every bound.
    fn push_root(&mut self, ctx: &Ctx) {
        self.front.push(Entry {
            kind: EntryKind::Nodes,
            a: ctx.a.root,
            b: ctx.b.root,
            depth: 0,
            key: f64::NEG_INFINITY,
            lb: f64::NEG_INFINITY,
            at: NO_POSE,
            warm: NO_WARM,
        });
    }

    fn push(&mut self, kind: EntryKind, a: u32, b: u32, depth: u32, bound: f64) {
        self.push_warm(kind, a, b, depth, bound, NO_WARM);
    }

    /// Keeps a pair with bound `bound`, owning warm slot `warm` ([`Warms`]).
    fn push_warm(&mut self, kind: EntryKind, a: u32, b: u32, depth: u32, bound: f64, warm: u32) {
        self.next.push(Entry {
            kind,
            a,
            b,
            depth,
            key: bound + self.s,
            lb: bound,
            at: self.searches,
            warm,
        });
    }

    /// Entry `e`'s own lower bound at the current pose: the bound made at
    /// the pose of search `e.at` less the motion of its B side (node or item
    /// box) since ([`decay`]); `None` when that pose is not kept.
    fn decayed_bound(&mut self, ctx: &Ctx, e: &Entry) -> Option<f64> {
        if e.at == NO_POSE || !e.lb.is_finite() {
            return None;
        }
        let (lo, hi) = match e.kind {
            EntryKind::Nodes => {
                let n = ctx.b.nodes.get(e.b as usize)?;
                (&n.lo, &n.hi)
            }
            EntryKind::Items => (ctx.boxes_b.lo.get(e.b as usize)?, ctx.boxes_b.hi.get(e.b as usize)?),
        };
        let m = self.poses.motion(e.at, lo, hi)?;
        Some(e.lb - m)
    }

    fn expand(&mut self, ctx: &Ctx, e: Entry, best: &mut PairCandidate) {
        match e.kind {
            EntryKind::Nodes => self.expand_nodes(ctx, e.a, e.b, e.depth, None, best),
            EntryKind::Items => self.expand_items(ctx, e.a, e.b, e.depth, e.warm, Some(&e), best),
        };
    }

    /// Bounds node pair `(na, nb)` at `depth` of the test tree, descending
    /// where its box bound is below the best distance; returns a lower bound
    /// of its subtree. Entries are kept at depth ≤ [`FRONT_DEPTH`]: a pair
    /// at that depth is remembered as one entry whose key summarises its
    /// subtree (the smallest bound found in it), so the front stays small.
    /// `known`: the pair's box bound when the caller made it (along the
    /// best pair's current direction).
    fn expand_nodes(
        &mut self,
        ctx: &Ctx,
        na: u32,
        nb: u32,
        depth: u32,
        known: Option<f64>,
        best: &mut PairCandidate,
    ) -> f64 {
        self.counts.nodes += 1;
        let (a, b) = (&ctx.a.nodes[na as usize], &ctx.b.nodes[nb as usize]);
        let lb = match known {
            Some(lb) => lb,
            None => self.node_bound(ctx, na, nb, &slab_dir(best)),
        };
        if self.beaten(lb, best) {
            if depth <= FRONT_DEPTH {
                self.push(EntryKind::Nodes, na, nb, depth, lb);
            }
            return lb;
        }
        let size = |lo: &Vec3, hi: &Vec3| (hi - lo).norm_squared();
        let below = depth.saturating_add(1);
        let k = match (a.kind, b.kind) {
            (NodeKind::Leaf(fa, ea), NodeKind::Leaf(fb, eb)) => {
                let mut k = f64::INFINITY;
                for i in fa..ea {
                    let ia = ctx.boxes_a.index(ctx.a.leaf_items[i as usize]) as u32;
                    for j in fb..eb {
                        let ib = ctx.boxes_b.index(ctx.b.leaf_items[j as usize]) as u32;
                        // item pairs below the front are summarised by their ancestor
                        k = k.min(self.expand_items(ctx, ia, ib, below, NO_WARM, None, best));
                    }
                }
                k
            }
            (NodeKind::Interior(l, r), NodeKind::Leaf(..)) => self.split(ctx, [l, r], [nb, nb], below, best),
            (NodeKind::Leaf(..), NodeKind::Interior(l, r)) => self.split(ctx, [na, na], [l, r], below, best),
            (NodeKind::Interior(la, ra), NodeKind::Interior(lb_, rb)) => {
                if size(&a.lo, &a.hi) >= size(&b.lo, &b.hi) {
                    self.split(ctx, [la, ra], [nb, nb], below, best)
                } else {
                    self.split(ctx, [na, na], [lb_, rb], below, best)
                }
            }
        };
        let k = k.max(lb);
        if depth == FRONT_DEPTH {
            self.push(EntryKind::Nodes, na, nb, depth, k);
        }
        k
    }

    /// The box bound of node pair `(na, nb)` along `n` ([`Rel::box_bound`],
    /// B's box placed once per search).
    #[inline]
    fn node_bound(&mut self, ctx: &Ctx, na: u32, nb: u32, n: &Vec3) -> f64 {
        let (a, b) = (&ctx.a.nodes[na as usize], &ctx.b.nodes[nb as usize]);
        let (c, e) = self.placed_nodes.get(ctx.rel, nb, &b.lo, &b.hi);
        ctx.rel.box_gap(&a.lo, &a.hi, &c, &e, n)
    }

    /// Visits the two child pairs `(a[0], b[0])`, `(a[1], b[1])`, nearer
    /// first (each bounded once: the nearer one's bound is its first bound,
    /// the other's too while the best pair stays the same).
    fn split(&mut self, ctx: &Ctx, a: [u32; 2], b: [u32; 2], depth: u32, best: &mut PairCandidate) -> f64 {
        let n = slab_dir(best);
        let bounds = [self.node_bound(ctx, a[0], b[0], &n), self.node_bound(ctx, a[1], b[1], &n)];
        let (f, g) = if bounds[0] <= bounds[1] { (0, 1) } else { (1, 0) };
        let d = best.d;
        let kf = self.expand_nodes(ctx, a[f], b[f], depth, Some(bounds[f]), best);
        let same = best.d.to_bits() == d.to_bits();
        let kg = self.expand_nodes(ctx, a[g], b[g], depth, same.then_some(bounds[g]), best);
        kf.min(kg)
    }
}

#[cfg(test)]
mod tests {
    use super::Least;

    /// [`Least`] keeps the least bound lowered into it since its last reset,
    /// and a clone starts from the same value.
    #[test]
    fn least_keeps_the_least_bound() {
        let l = Least::new();
        assert_eq!(l.get(), f64::INFINITY);
        for x in [5.0, 7.5, 2.25, 3.0] {
            l.lower(x);
        }
        assert_eq!(l.get(), 2.25);
        let c = l.clone();
        l.reset();
        assert_eq!(l.get(), f64::INFINITY);
        assert_eq!(c.get(), 2.25);
        c.lower(f64::INFINITY);
        assert_eq!(c.get(), 2.25);
    }
}

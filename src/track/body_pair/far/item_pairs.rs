//! The leaves of the far phase's test tree: item pairs (bounded by boxes,
//! hulls and ties, solved whole when both items are unimodal) and their cell
//! pairs (solved from warm starts).

use super::front::{Entry, EntryKind, FRONT_DEPTH};
use super::prune::{beaten, improves, proves_minimum, slab_dir};
use super::warm::{extrapolate, Warm, ITEM_RETRY, NO_WARM, WARM_NONE};
use super::{Ctx, DirEntry, PairFar, PairSkip, KEPT_MIN_ITERATIONS};
use crate::track::body_pair::hulls::CellHulls;
use crate::track::body_pair::kept::{pair_gap, KeptLeaves};

/// No witness parameters.
const NONE4: [f64; 4] = [f64::NAN; 4];

/// The most leaf pairs a kept-region bound tries ([`pair_gap`]).
const PAIR_LEAVES: usize = 64;
use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item};
use crate::track::body_pair::candidate::PairCandidate;
use crate::track::body_pair::item_eval::{item_domain, keeps};
use crate::track::body_pair::solve::{solve_pair, SideRef};

impl PairFar {
    /// Bounds item pair `(ia, ib)` (indices of [`ItemBoxes`](crate::track::body_pair::items::ItemBoxes)),
    /// solving it whole or cell by cell where its bounds are below the best
    /// distance; returns a lower bound of the pair. `popped`: the front
    /// entry it comes from, whose own decayed bound ([`PairFar::decayed_bound`])
    /// is tried after the box bound, before the hull bounds and the cells.
    /// `slot`: the pair's warm data ([`Warms`](super::warm::Warms),
    /// [`NO_WARM`]: none), owned by this call (kept with the pair or freed).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand_items(
        &mut self,
        ctx: &Ctx,
        ia: u32,
        ib: u32,
        depth: u32,
        slot: u32,
        popped: Option<&Entry>,
        best: &mut PairCandidate,
    ) -> f64 {
        self.counts.items += 1;
        let (ba, bb) = (ctx.boxes_a, ctx.boxes_b);
        if ba.redundant[ia as usize] || bb.redundant[ib as usize] {
            // a trim curve along a B-rep edge: the edge (exact) stands for it
            self.warms.release(slot);
            return f64::INFINITY;
        }
        let (c, e) = self.placed_items.get(ctx.rel, ib, &bb.lo[ib as usize], &bb.hi[ib as usize]);
        let mut lb = ctx.rel.box_gap(&ba.lo[ia as usize], &ba.hi[ia as usize], &c, &e, &slab_dir(best));
        if let Some(d) = popped
            .filter(|_| !beaten(lb, best))
            .and_then(|e| self.decayed_bound(ctx, e))
        {
            // the bound made at an earlier pose less this pair's own motion
            // since: when still beaten, neither the hulls nor the cells are
            // bounded again (the entry goes back keyed by it, valid now)
            if beaten(d, best) {
                self.counts.decayed += 1;
                lb = d;
            }
        }
        if !self.beaten(lb, best) && ctx.ties.some() && ctx.ties.has(ba.item(ia), bb.item(ib)) {
            // its minimum is at least the tracked distance (the box bound,
            // when higher, keeps the entry from being popped again soon)
            let k = ctx.ties.d.max(lb);
            self.warms.release(slot);
            if depth <= FRONT_DEPTH {
                self.tied.push(Entry {
                    kind: EntryKind::Items,
                    a: ia,
                    b: ib,
                    depth,
                    key: k + self.s,
                    lb: k,
                    at: self.searches,
                    warm: NO_WARM,
                });
            }
            return k;
        }
        // (its direction and retry count read in place: the whole warm data,
        // ~140 bytes, is copied only for a whole-item solve)
        let (own, retry) = self.warms.dir_wait(slot);
        if !self.beaten(lb, best) {
            // along the best pair's direction (a pair tied with it, e.g. a
            // face beside its edge, has that gap: exact between affine items),
            // then along the pair's own last witness direction
            let (ha, hb) = (ba.hull_of(ia), bb.hull_of(ib));
            let n = slab_dir(best);
            if n != Vec3::zeros() {
                lb = lb.max(self.sup_items.gap(ctx.rel, &n, ia, ha, ib, hb));
            }
            if !self.beaten(lb, best) && !own[0].is_nan() {
                lb = lb.max(ctx.rel.hull_bound(ha, hb, &own));
            }
        }
        let keep = depth <= FRONT_DEPTH;
        if self.beaten(lb, best) {
            if keep {
                // kept with its slot as it is (nothing copied)
                self.push_warm(EntryKind::Items, ia, ib, depth, lb, slot);
            } else {
                self.warms.release(slot);
            }
            return lb;
        }
        let (item_a, item_b) = (ba.item(ia), bb.item(ib));
        if ctx.skip == Some(PairSkip::Items(item_a, item_b))
            || ctx.skip == Some(PairSkip::Proven(item_a, item_b))
            || ctx.dom.is_some_and(|(da, db)| da.has(ia) && db.has(ib))
        {
            // tracked by the caller, unimodal: its minimum is `best.d`
            // (items on the two pieces' patches: at least that)
            let k = best.d.max(lb);
            self.warms.release(slot);
            if keep {
                self.push(EntryKind::Items, ia, ib, depth, k);
            }
            return k;
        }
        let mut wait = 0;
        if ba.unimodal[ia as usize] && bb.unimodal[ib as usize] {
            if retry > 0 {
                // the last whole-item solve proved nothing: cell by cell
                wait = retry - 1;
            } else if let Some((k, w)) = self.solve_items(ctx, ia, ib, &self.warms.get(slot), best) {
                let k = k.max(lb);
                if keep {
                    let slot = self.warms.put(slot, w);
                    self.push_warm(EntryKind::Items, ia, ib, depth, k, slot);
                } else {
                    self.warms.release(slot);
                }
                return k;
            } else {
                wait = ITEM_RETRY;
            }
        }
        let cells = |body: &BodyGeom, it: Item| match it {
            Item::Piece(p) => body.pieces[p as usize].cells.clone(),
            Item::Edge(x) => body.edges[x as usize].cells.clone(),
            Item::Trim(t) => {
                let c = body.trims[t as usize].cell;
                c..c + 1
            }
        };
        let mut bound = f64::INFINITY;
        for ca in cells(ctx.a, item_a) {
            for cb in cells(ctx.b, item_b) {
                bound = bound.min(self.visit_cells(ctx, ca, cb, best));
            }
        }
        let k = bound.max(lb);
        if keep && wait > 0 {
            let slot = self.warms.put(slot, Warm { wait, ..WARM_NONE });
            self.push_warm(EntryKind::Items, ia, ib, depth, k, slot);
        } else {
            // no warm data left (`Warm { wait: 0, ..WARM_NONE }` is none)
            self.warms.release(slot);
            if keep {
                self.push(EntryKind::Items, ia, ib, depth, k);
            }
        }
        k
    }

    /// Solves a pair of unimodal items (planar or convex pieces, straight
    /// edges) over their whole parameter boxes, warm-started from the pair's
    /// last witness (else each item's), instead of cell pair by cell pair. A converged minimum
    /// seen from outside is the pair's minimum over the untrimmed boxes, so
    /// it bounds the pair (points of the trimmed regions are among them;
    /// trimmed-away witnesses are not taken as answers: their boundaries are
    /// items of their own). `None` when the answer proves nothing (the
    /// caller then goes cell by cell).
    pub(super) fn solve_items(
        &mut self,
        ctx: &Ctx,
        ia: u32,
        ib: u32,
        warm: &Warm,
        best: &mut PairCandidate,
    ) -> Option<(f64, Warm)> {
        let (item_a, item_b) = (ctx.boxes_a.item(ia), ctx.boxes_b.item(ib));
        let (ra, rb) = (item_domain(ctx.a, item_a), item_domain(ctx.b, item_b));
        let centre = |r: &[f64; 4]| [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
        // the pair's own last witness, else each item's last witness
        let (ya, yb) = if warm.x[0].is_nan() {
            (self.ya[ia as usize], self.yb[ib as usize])
        } else {
            let x = warm.start(self.searches);
            ([x[0], x[1]], [x[2], x[3]])
        };
        let ya = if ya[0].is_nan() { centre(&ra) } else { ya };
        let yb = if yb[0].is_nan() { centre(&rb) } else { yb };
        self.solved += 1;
        self.counts.item_solves += 1;
        let sol = solve_pair(
            &ctx.cfg,
            SideRef {
                body: ctx.a,
                item: item_a,
                rect: ra,
            },
            SideRef {
                body: ctx.b,
                item: item_b,
                rect: rb,
            },
            ctx.rel,
            [ya[0], ya[1], yb[0], yb[1]],
        );
        self.iterations += sol.iterations;
        let c = sol.cand;
        if !proves_minimum(ctx, ia as usize, ib as usize, &c) {
            return None;
        }
        self.ya[ia as usize] = [c.x[0], c.x[1]];
        self.yb[ib as usize] = [c.x[2], c.x[3]];
        if !improves(&c, best) {
            self.counts.idle_solves += 1;
        }
        if improves(&c, best) && keeps(ctx.a, item_a, c.x[0], c.x[1]) && keeps(ctx.b, item_b, c.x[2], c.x[3]) {
            *best = c;
        }
        let n = if c.d > 0.0 { (c.pb - c.pa) / c.d } else { WARM_NONE.n };
        Some((
            c.d,
            Warm {
                x: c.x,
                xp: warm.x,
                xpp: warm.xp,
                t: self.searches,
                tp: warm.t,
                tpp: warm.tp,
                n,
                wait: 0,
            },
        ))
    }

    /// Lower bound of cell pair `(ca, cb)`, solving it when its box bound is
    /// below the best distance (and improving `best`).
    pub(super) fn visit_cells(&mut self, ctx: &Ctx, ca: u32, cb: u32, best: &mut PairCandidate) -> f64 {
        self.counts.cells += 1;
        let (a, b) = (&ctx.a.cells[ca as usize], &ctx.b.cells[cb as usize]);
        let (c, e) = self.placed_cells.get(ctx.rel, cb, &b.lo, &b.hi);
        let mut lb = ctx.rel.box_gap(&a.lo, &a.hi, &c, &e, &slab_dir(best));
        if self.beaten(lb, best) {
            return lb;
        }
        // the gap of the cells' control hulls along the best pair's direction
        // (a cell pair tied with the best one, e.g. cells that meet at its
        // witnesses where the bodies curve away, has at least the best
        // distance there: without it such pairs would be solved again on
        // every update), then along the pair's last witness direction (a pair
        // whose last solve ended on a witness saturated on a side, proving
        // nothing, keeps about its distance there instead of the box bound,
        // and is not solved again while that stays above)
        let (ra, rb) = (self.hulls_a.of(ctx.a, ca), self.hulls_b.of(ctx.b, cb));
        // an edge or trim cell (no quarter hulls) lies in its item's hull
        let ha = match self.hulls_a.get(ra) {
            [] => ctx.boxes_a.hull_of(ctx.boxes_a.index(a.item) as u32),
            h => h,
        };
        let hb = match self.hulls_b.get(rb) {
            [] => ctx.boxes_b.hull_of(ctx.boxes_b.index(b.item) as u32),
            h => h,
        };
        let n0 = slab_dir(best);
        // read in place: a `DirEntry` is ~130 bytes and this runs for every
        // cell pair that passes its box bound
        let last = self.dirs.get(&(ca, cb));
        let own = last.map(|e| &e.n).filter(|n| !n[0].is_nan());
        // a pair whose last witnesses, placed at this pose, are closer than
        // the best pair and lie in its cells' hulls: its hull bounds cannot
        // prune it ([`PairFar::below_best`])
        let below = self.below_best(ctx, ca, cb, last, best);
        if !below {
            // along the best pair's direction by the cells' support values
            // (made once per direction and pose), then along the pair's own
            if n0 != Vec3::zeros() {
                lb = lb.max(self.sup_cells.gap(ctx.rel, &n0, ca, ha, cb, hb));
                if self.beaten(lb, best) {
                    return lb;
                }
            }
            if let Some(n1) = own {
                lb = lb.max(ctx.rel.hull_bound(ha, hb, n1));
                if self.beaten(lb, best) {
                    return lb;
                }
            }
        }
        if last.is_some_and(|e| e.trimmed && e.iterations >= KEPT_MIN_ITERATIONS) {
            // the kept parts of the cells, leaf by leaf (`kept.rs`): a pair
            // whose minimum is trimmed away is kept alive by no bound of the
            // whole cells (only such pairs: elsewhere the leaves cost more
            // than the solves they would save)
            lb = lb.max(Self::kept_bound(
                [&mut self.kept_a, &mut self.kept_b],
                ctx,
                ca,
                cb,
                ha,
                hb,
                &n0,
                last,
                best.d,
            ));
            if self.beaten(lb, best) {
                return lb;
            }
        }
        if let Some(PairSkip::Basin(ia, ib, x)) = ctx.skip {
            let inside = |r: &[f64; 4], u: f64, v: f64| u >= r[0] && u <= r[1] && v >= r[2] && v <= r[3];
            if ia == a.item && ib == b.item && inside(&a.rect, x[0], x[1]) && inside(&b.rect, x[2], x[3]) {
                // the tracker's basin: its answer is `best`
                return best.d.max(lb);
            }
        }
        if let Some(e) = last.filter(|e| e.at == self.searches) {
            // solved before in this search (an earlier pass of a cold
            // search, a seed, or before a restart from the root): its answer
            // is in `best` already, its bound holds at this pose
            return e.bound.max(lb);
        }
        self.solved += 1;
        self.counts.cell_solves += 1;
        let best_before = best.d;
        let curves = usize::from(!matches!(a.item, Item::Piece(_))) + usize::from(!matches!(b.item, Item::Piece(_)));
        self.counts.solve_kind[curves] += 1;
        self.counts.solve_gap[super::gap_bucket((best_before - lb).max(0.0) / best_before.max(f64::MIN_POSITIVE))] += 1;
        // warm start from each cell's last witness (its centre after a reset)
        let centre = |r: &[f64; 4]| [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
        // (the pair's own last witness extrapolated along its last solves:
        // a pair re-solved on every update, e.g. one whose witness is
        // trimmed away, then starts within a Newton step of its minimum)
        let (xa, xb) = match last {
            Some(e) => {
                let x = extrapolate([&e.x, &e.xp, &e.xpp], [e.at, e.tp, e.tpp], self.searches);
                ([x[0], x[1]], [x[2], x[3]])
            }
            None => (self.xa[ca as usize], self.xb[cb as usize]),
        };
        let hist = last.map(|e| (e.x, e.xp, e.at, e.tp));
        // a curve cell whose points lie within `ctx.point` of each other (a
        // trim curve along a patch side collapsed to a pole) is solved as
        // its centre's point: its parameter moves nothing, so the controller
        // would crawl along it to its iteration cap (800 iterations a pair
        // with the retry, on every update, on nist_pmi1 × fusee's nose)
        let point = |hulls: &CellHulls, c: u32, item: Item| {
            let s = hulls.spread(c);
            (!matches!(item, Item::Piece(_)) && s <= ctx.point).then_some(s)
        };
        let (pt_a, pt_b) = (point(&self.hulls_a, ca, a.item), point(&self.hulls_b, cb, b.item));
        let held = |r: [f64; 4], on: bool| {
            let m = 0.5 * (r[0] + r[1]);
            if on {
                [m, m, r[2], r[3]]
            } else {
                r
            }
        };
        let (rect_a, rect_b) = (held(a.rect, pt_a.is_some()), held(b.rect, pt_b.is_some()));
        let xa = if xa[0].is_nan() || pt_a.is_some() {
            centre(&a.rect)
        } else {
            xa
        };
        let xb = if xb[0].is_nan() || pt_b.is_some() {
            centre(&b.rect)
        } else {
            xb
        };
        let (sa, sb) = (
            SideRef {
                body: ctx.a,
                item: a.item,
                rect: rect_a,
            },
            SideRef {
                body: ctx.b,
                item: b.item,
                rect: rect_b,
            },
        );
        let mut sol = solve_pair(&ctx.cfg, sa, sb, ctx.rel, [xa[0], xa[1], xb[0], xb[1]]);
        self.iterations += sol.iterations;
        let (ma, mb) = (centre(&a.rect), centre(&b.rect));
        if !sol.cand.converged && (xa != ma || xb != mb) {
            // a safety net: a warm start mixed from other cell pairs'
            // witnesses stalled the controller short of a critical point on
            // two arcs of tiled_convex (unguarded hybrid Newton steps cycling
            // uphill, fixed in `track_loop`); an unconverged solve is started
            // again from the cells' centres
            self.solved += 1;
            let again = solve_pair(&ctx.cfg, sa, sb, ctx.rel, [ma[0], ma[1], mb[0], mb[1]]);
            self.iterations += again.iterations;
            if again.cand.converged || again.cand.d < sol.cand.d {
                sol = again;
            }
        }
        let c = sol.cand;
        let r = if c.d < best_before {
            0
        } else {
            1 + super::gap_bucket((c.d - best_before) / best_before.max(f64::MIN_POSITIVE)).min(3)
        };
        self.counts.solve_result[r] += 1;
        if r == 0 {
            self.counts.improved_by[super::gap_bucket((best_before - c.d) / best_before.max(f64::MIN_POSITIVE))] += 1;
        }
        self.xa[ca as usize] = [c.x[0], c.x[1]];
        self.xb[cb as usize] = [c.x[2], c.x[3]];
        let keep = ctx.a.cell_keeps(ca, c.x[0], c.x[1]) && ctx.b.cell_keeps(cb, c.x[2], c.x[3]);
        if keep && improves(&c, best) {
            *best = c;
        } else {
            self.counts.idle_solves += 1;
        }
        let mut n = Vec3::new(f64::NAN, f64::NAN, f64::NAN);
        if !(ha.is_empty() || hb.is_empty()) && c.d > 0.0 && c.d.is_finite() {
            n = (c.pb - c.pa) / c.d;
            let covered = || {
                CellHulls::covers(ctx.a, ca, [c.x[0], c.x[1]]) && CellHulls::covers(ctx.b, cb, [c.x[2], c.x[3]])
            };
            if !(c.d + round_off(&c.pa, &c.pb) < best_before && covered()) {
                // (else the gap along `n` is at most `c.d`, below the best
                // distance: it would be a bound that prunes nothing)
                lb = lb.max(ctx.rel.hull_bound(ha, hb, &n));
            }
        }
        let unimodal = proves_minimum(ctx, ctx.boxes_a.index(a.item), ctx.boxes_b.index(b.item), &c);
        let bound = if unimodal {
            // a held point stands for its cell within its spread
            (c.d - pt_a.unwrap_or(0.0) - pt_b.unwrap_or(0.0)).max(lb)
        } else {
            lb
        };
        if c.x.iter().all(|x| x.is_finite()) {
            let r = &ctx.rel.frame;
            let pb = r.r.tr_mul(&(c.pb - r.t));
            let trimmed = !keep && c.d < best_before;
            self.dirs.insert(
                (ca, cb),
                DirEntry {
                    n,
                    x: c.x,
                    xp: hist.map_or(NONE4, |h| h.0),
                    xpp: hist.map_or(NONE4, |h| h.1),
                    tp: hist.map_or(0, |h| h.2),
                    tpp: hist.map_or(0, |h| h.3),
                    pa: c.pa,
                    pb,
                    trimmed,
                    iterations: sol.iterations,
                    at: self.searches,
                    bound,
                },
            );
        }
        if !keep && !best.d.is_finite() && !self.seeding {
            // no answer yet and this pair's minimum is trimmed away: its
            // kept part's boundary (trim curves, or the edges along them)
            // against the other cell gives a first answer, so that the rest
            // of the search has a bound to prune by
            let away_a = !ctx.a.cell_keeps(ca, c.x[0], c.x[1]);
            let away_b = !ctx.b.cell_keeps(cb, c.x[2], c.x[3]);
            self.seed_from_boundary(ctx, ca, cb, [away_a, away_b], best);
        }
        bound
    }

    /// Whether cell pair `(ca, cb)`, with `last` its [`DirEntry`], is
    /// closer than the best pair at its last witnesses: A's point and B's
    /// point (placed at the current relative pose) are closer than the best
    /// distance, not [`beaten`] with a margin for rounding, and each lies in
    /// the hull its cell is bounded by ([`CellHulls::covers`]). Then its hull
    /// bounds cannot prune it (any gap between two convex sets along a unit
    /// direction is at most the distance between two of their points), and
    /// they are not made. A pair whose last solve ended below the best
    /// distance on a witness trimmed away is solved again on the next update
    /// (51 cell solves per update on the nist_pmi1 × fusee orbit, 145 on pump
    /// × pump) after two hull bounds that prune nothing. Not in a cold
    /// search's passes (a pass's cap may be below the witnesses' distance)
    /// nor for a pair solved earlier in the same search.
    fn below_best(&self, ctx: &Ctx, ca: u32, cb: u32, last: Option<&DirEntry>, best: &PairCandidate) -> bool {
        let Some(e) = last else { return false };
        if self.cap != f64::INFINITY || e.at == self.searches {
            return false;
        }
        if !(CellHulls::covers(ctx.a, ca, [e.x[0], e.x[1]]) && CellHulls::covers(ctx.b, cb, [e.x[2], e.x[3]])) {
            return false;
        }
        let fr = &ctx.rel.frame;
        let pb = fr.r * e.pb + fr.t;
        !beaten((pb - e.pa).norm() + round_off(&e.pa, &pb), best)
    }

    /// A first answer for a search that has none yet, from a cell pair
    /// `(ca, cb)` whose solve ended on a witness trimmed away (`away`: on
    /// A's side, on B's): the boundary cells of the trimmed side's piece
    /// ([`boundary_cells`]) are visited against the other cell (then, both
    /// sides trimmed away and still no answer, against each other), until
    /// one gives a kept answer. The visits are ordinary cell-pair visits:
    /// they only solve pairs the search would solve, earlier, so the answer
    /// is the same minimum; without it a cold search whose nearest pieces
    /// have their minima in holes (nist_pmi1's plates under rhino_fusee)
    /// solves every cell of the other body against them with no bound to
    /// prune by (10,500 idle solves per cold query).
    fn seed_from_boundary(&mut self, ctx: &Ctx, ca: u32, cb: u32, away: [bool; 2], best: &mut PairCandidate) {
        let piece = |body: &BodyGeom, c: u32| match body.cells[c as usize].item {
            Item::Piece(k) => k,
            _ => u32::MAX,
        };
        let (ka, kb) = (piece(ctx.a, ca), piece(ctx.b, cb));
        self.seeding = true;
        // the seed is an upper bound, wanted whatever a cold pass's cap
        let cap = std::mem::replace(&mut self.cap, f64::INFINITY);
        if away[0] {
            for x in boundary_cells(ctx.a, ka) {
                if best.d.is_finite() {
                    break;
                }
                self.visit_cells(ctx, x, cb, best);
            }
        }
        if away[1] {
            for y in boundary_cells(ctx.b, kb) {
                if best.d.is_finite() {
                    break;
                }
                self.visit_cells(ctx, ca, y, best);
            }
        }
        if away[0] && away[1] {
            'pairs: for x in boundary_cells(ctx.a, ka) {
                for y in boundary_cells(ctx.b, kb) {
                    if best.d.is_finite() {
                        break 'pairs;
                    }
                    self.visit_cells(ctx, x, y, best);
                }
            }
        }
        self.cap = cap;
        self.seeding = false;
    }

    /// The kept-region bound of cell pair `(ca, cb)` ([`KeptLeaves::kept_gap`]):
    /// A's leaves against B's cell hull `hb`, then B's leaves against A's
    /// cell hull `ha`, along the best pair's direction `n0`, the pair's last
    /// witness direction and, per leaf, towards the other side's last
    /// witness; `−∞` when neither reaches the tie floor of `best_d`.
    #[allow(clippy::too_many_arguments)]
    fn kept_bound(
        [kept_a, kept_b]: [&mut KeptLeaves; 2],
        ctx: &Ctx,
        ca: u32,
        cb: u32,
        ha: &[Vec3],
        hb: &[Vec3],
        n0: &Vec3,
        last: Option<&DirEntry>,
        best_d: f64,
    ) -> f64 {
        // a gap at least this is `beaten` (prune.rs)
        let floor = (best_d - 1e-12) / (1.0 + 1e-12);
        let fr = &ctx.rel.frame;
        let mut dirs = [Vec3::zeros(); 2];
        let mut nd = 0;
        if *n0 != Vec3::zeros() {
            dirs[nd] = *n0;
            nd += 1;
        }
        if let Some(e) = last.filter(|e| !e.n[0].is_nan()) {
            dirs[nd] = e.n;
            nd += 1;
        }
        let ra = kept_a.of(ctx.a, ca);
        if ra.0 < ra.1 {
            let w = last.map(|e| fr.r * e.pb + fr.t);
            let g = kept_a.kept_gap(ra, hb, &fr.r, &fr.t, &dirs[..nd], w, floor);
            if g >= floor {
                return g;
            }
        }
        let rb = kept_b.of(ctx.b, cb);
        if rb.0 < rb.1 {
            // B's frame: A maps by the inverse placement, directions turn
            // round (from B towards A)
            let rt = fr.r.transpose();
            let t = -(rt * fr.t);
            for d in dirs[..nd].iter_mut() {
                *d = -(rt * *d);
            }
            let w = last.map(|e| rt * (e.pa - fr.t));
            let g = kept_b.kept_gap(rb, ha, &rt, &t, &dirs[..nd], w, floor);
            if g >= floor {
                return g;
            }
            for d in dirs[..nd].iter_mut() {
                *d = -(fr.r * *d);
            }
        }
        if ra.0 < ra.1 && rb.0 < rb.1 && KeptLeaves::count(ra) * KeptLeaves::count(rb) <= PAIR_LEAVES {
            // leaf against leaf, each pair along its own directions
            return pair_gap(kept_a, ra, kept_b, rb, &fr.r, &fr.t, &dirs[..nd], floor);
        }
        f64::NEG_INFINITY
    }
}

/// The cells of the kept region's boundary of piece `k`: each trim curve's
/// cell, or the cells of the B-rep edge along it (the exact curve the far
/// phase takes instead, `ItemBoxes::redundant`). Nothing for `u32::MAX`.
fn boundary_cells(body: &BodyGeom, k: u32) -> impl Iterator<Item = u32> + '_ {
    body.trims
        .iter()
        .filter(move |t| t.piece == k)
        .flat_map(|t| match body.edges.get(t.edge as usize) {
            Some(e) => e.cells.clone(),
            None => t.cell..t.cell + 1,
        })
}

/// A margin for the rounding of a hull bound made with witnesses `pa`, `pb`
/// (A's frame) against their distance: far above the rounding of the
/// bound's products at the coordinates' scale, far below the gaps that
/// decide a pair (the witnesses of a trimmed-away solve lie 1e-3 – 1e-1 of
/// the distance below the best pair).
#[inline]
fn round_off(pa: &Vec3, pb: &Vec3) -> f64 {
    1e-10 * (1.0 + pa.amax() + pb.amax())
}

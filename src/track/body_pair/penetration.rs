//! Penetration (NJC-1999 §3.4–3.6, PG-2004 §V): the interpenetration seed
//! (the deepest cell centre of each body inside the other, by point–body
//! queries, converged to the local maximum-penetration pair by the
//! feedback-linearised law), the local inside test of a pair and its global
//! confirmation.

use super::candidate::{candidates, PairCandidate};
use super::item_eval::{eval_item, evaluate, keeps};
use super::relative::Rel;
use super::seeds::SeedBounds;
use super::solve::{side, solve_pair};
use super::BodyPairTracker;
use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item};
use crate::track::config::{ControlLaw, TrackerConfig};
use crate::track::far::{cell_config, trim_point, Candidate, FarState};
use crate::track::orient::orient;

/// A sampled seed point: (depth, item on A, x on A, item on B, x on B, the
/// sampled point is B's).
type Seed = (f64, Item, [f64; 2], Item, [f64; 2], bool);

/// A bounded scan of seed points (`SeedBounds`): the points are queried in
/// order, except those whose kept bound cannot beat the deepest point so far
/// (they cannot be the first deepest point, which a cold query's full scan
/// finds); the point of the largest bound is queried first so that the
/// bounds prune from the start. `margin` covers the far phase's tolerance.
struct Scan<'g> {
    a: &'g BodyGeom,
    b: &'g BodyGeom,
    rel: &'g Rel,
    tol: f64,
    margin: f64,
}

impl Scan<'_> {
    /// Scans points `0..n` (`point`: B's point when the flag is set, its
    /// piece and parameters), kept as bounds `base + i`; returns the points
    /// not queried.
    fn run<P, T>(&self, n: usize, base: usize, point: P, try_point: &mut T, seeds: &mut SeedBounds, deepest: &mut Option<Seed>) -> u32
    where
        P: Fn(usize) -> Option<(bool, u32, [f64; 2])>,
        T: FnMut(bool, u32, [f64; 2], &mut Option<Seed>) -> (f64, Vec3),
    {
        let at = |from_b: bool, k: u32, uv: [f64; 2]| into_other(if from_b { self.b } else { self.a }, k, uv, from_b, self.rel);
        let mut top: Option<(f64, bool, u32, [f64; 2])> = None;
        for i in 0..n {
            if let Some((from_b, k, uv)) = point(i) {
                let ub = seeds.bound(base + i, &at(from_b, k, uv));
                if ub > self.tol && top.map_or(true, |t| ub > t.0) {
                    top = Some((ub, from_b, k, uv));
                }
            }
        }
        let mut floor = f64::NEG_INFINITY;
        if let Some((ub, from_b, k, uv)) = top {
            if ub.is_finite() {
                let mut first = None;
                try_point(from_b, k, uv, &mut first);
                floor = first.map_or(floor, |d: Seed| d.0);
            }
        }
        let mut skipped = 0;
        for i in 0..n {
            if let Some((from_b, k, uv)) = point(i) {
                let best = deepest.map_or(floor, |d| d.0.max(floor));
                if seeds.bound(base + i, &at(from_b, k, uv)) + self.margin < best.max(self.tol) {
                    skipped += 1;
                    continue;
                }
                let (f, q) = try_point(from_b, k, uv, deepest);
                seeds.keep(base + i, &q, f);
            }
        }
        skipped
    }
}

impl BodyPairTracker {
    /// Interpenetration seed: the deepest cell centre of each body inside
    /// the other (point–body queries), converged to the local
    /// maximum-penetration pair by the feedback-linearised law. `None` when
    /// no cell centre is inside (touching).
    pub(super) fn probe_penetration(
        &mut self,
        a: &BodyGeom,
        b: &BodyGeom,
        rel: &Rel,
        contact: &PairCandidate,
        iterations: &mut u32,
    ) -> Option<PairCandidate> {
        let cfg = cell_config(&self.cfg);
        let tol = 1e-9 * self.scale;
        let start = *iterations;
        // the point queries' controller iterations
        let spent = std::cell::Cell::new(0u32);
        let mut deepest: Option<Seed> = None;
        let rt = rel.frame.r.transpose();
        let (probe_a, probe_b) = (&mut self.probe_a, &mut self.probe_b);
        // The signed depth of the point of piece `k` of one body at `uv` in
        // the other body (an upper bound of it where it is not queried:
        // `-∞` for a trimmed-away point, minus the distance to the other
        // body's box outside it), with that point in the other body's frame;
        // keeps the deepest inside point with its nearest feature.
        let mut try_point = |from_b: bool, k: u32, uv: [f64; 2], deepest: &mut Option<Seed>| -> (f64, Vec3) {
            let (src, dst, probe) = if from_b {
                (b, a, &mut *probe_a)
            } else {
                (a, b, &mut *probe_b)
            };
            let uv = [uv[0].clamp(0.0, 1.0), uv[1].clamp(0.0, 1.0)];
            if !src.piece_keeps(k, uv[0], uv[1]) {
                return (f64::NEG_INFINITY, Vec3::zeros());
            }
            let q = into_other(src, k, uv, from_b, rel);
            let out = (0..3)
                .map(|i| (dst.lo[i] - q[i]).max(q[i] - dst.hi[i]).max(0.0))
                .fold(0.0, |s: f64, e| s + e * e)
                .sqrt();
            if out > tol {
                return (-out, q);
            }
            probe.reset(dst);
            let mut c = Candidate::NONE;
            probe.search(dst, &cfg, &q, None, &mut c);
            spent.set(spent.get() + probe.iterations);
            if !c.d.is_finite() {
                return (f64::INFINITY, q);
            }
            if !orient(dst, &c, &q).inside {
                return (-c.d, q);
            }
            if c.d > tol && deepest.map_or(true, |d| c.d > d.0) {
                *deepest = Some(if from_b {
                    (c.d, c.item, c.x, Item::Piece(k), uv, true)
                } else {
                    (c.d, Item::Piece(k), uv, c.item, c.x, false)
                });
            }
            (c.d, q)
        };
        // 1. the centre of every piece cell, in order (B's cells, then A's)
        let nb = b.cells.len();
        let ncells = nb + a.cells.len();
        let cell_of = |i: usize| if i < nb { (true, &b.cells[i]) } else { (false, &a.cells[i - nb]) };
        let centre = |i: usize| {
            let (from_b, cell) = cell_of(i);
            let r = &cell.rect;
            match cell.item {
                Item::Piece(k) => Some((from_b, k, [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])])),
                _ => None,
            }
        };
        let margin = 1e-6 * self.scale;
        let scan = Scan { a, b, rel, tol, margin };
        self.pen_work[4] += scan.run(ncells, 0, centre, &mut try_point, &mut self.seeds, &mut deepest);
        self.pen_work[0] = spent.get();
        // 2. a shallow overlap can miss every centre: rings of points around
        // the contact (where the two surfaces cross), widening
        if deepest.is_none() {
            let around = |body: &BodyGeom, item: Item, x: [f64; 2]| match item {
                Item::Piece(k) => Some((k, x)),
                Item::Trim(t) => {
                    let tr = &body.trims[t as usize];
                    Some((tr.piece, trim_point(body, t, x[0]).1))
                }
                Item::Edge(_) => None,
            };
            let sides = [
                (true, around(b, contact.ib, [contact.x[2], contact.x[3]])),
                (false, around(a, contact.ia, [contact.x[0], contact.x[1]])),
            ];
            'rings: for r in [1e-3, 4e-3, 1.6e-2, 6.4e-2, 0.256] {
                for (from_b, at) in sides {
                    let Some((k, x)) = at else { continue };
                    for j in 0..8 {
                        let th = j as f64 * std::f64::consts::FRAC_PI_4;
                        try_point(from_b, k, [x[0] + r * th.cos(), x[1] + r * th.sin()], &mut deepest);
                    }
                }
                if deepest.is_some() {
                    break 'rings;
                }
            }
        }
        // 3. last resort: a 4×4 grid on every piece cell (in order, bounded
        // as the centres)
        if deepest.is_none() {
            let grid = |n: usize| {
                let (from_b, cell) = cell_of(n / 16);
                let (i, j) = ((n % 16) / 4, n % 4);
                let f = |t: usize, lo: f64, hi: f64| lo + (hi - lo) * (t as f64 + 0.5) / 4.0;
                let r = &cell.rect;
                match cell.item {
                    Item::Piece(k) => Some((from_b, k, [f(i, r[0], r[1]), f(j, r[2], r[3])])),
                    _ => None,
                }
            };
            self.pen_work[4] += scan.run(16 * ncells, ncells, grid, &mut try_point, &mut self.seeds, &mut deepest);
        }
        self.pen_work[1] = spent.get() - self.pen_work[0];
        *iterations += spent.get();
        let (mut depth, mut ia, mut xa, mut ib, mut xb, from_b) = deepest?;
        // depth ascent: the sampled point moves deeper (away from its closest
        // point on the other body, by `step` times its depth) and back onto
        // its own boundary while that deepens it (the step doubling, else
        // quartered), so that a shallow seed near the intersection curve
        // reaches the basin of the deepest critical pair before the law runs
        let fl = TrackerConfig {
            law: ControlLaw::FeedbackLinearized,
            feed_forward: false,
            max_iters: cfg.max_iters.max(64),
            ..self.cfg
        };
        const ROUNDS: usize = 3;
        let mut stalled: Option<PairCandidate> = None;
        for round in 0..ROUNDS {
            let mut step = 1.0;
            for _ in 0..32 {
                if step < 1e-3 {
                    break;
                }
                let pa = eval_item(a, ia, xa[0], xa[1]).p;
                let pb = rel.frame.r * eval_item(b, ib, xb[0], xb[1]).p + rel.frame.t;
                let (src, dst, p_src, p_dst) = if from_b {
                    (b, a, &mut self.probe_b, &mut self.probe_a)
                } else {
                    (a, b, &mut self.probe_a, &mut self.probe_b)
                };
                let q = if from_b { pb + (pb - pa) * step } else { pa + (pa - pb) * step };
                let q_src = if from_b { rt * (q - rel.frame.t) } else { q };
                p_src.reset(src);
                let mut on = Candidate::NONE;
                p_src.search(src, &cfg, &q_src, None, &mut on);
                *iterations += p_src.iterations;
                let moved = on.d.is_finite() && keeps(src, on.item, on.x[0], on.x[1]);
                // that boundary point in the other body's frame, and its depth there
                let r = if from_b {
                    rel.frame.r * on.point + rel.frame.t
                } else {
                    rt * (on.point - rel.frame.t)
                };
                let mut c = Candidate::NONE;
                if moved {
                    p_dst.reset(dst);
                    p_dst.search(dst, &cfg, &r, None, &mut c);
                    *iterations += p_dst.iterations;
                }
                if moved && c.d.is_finite() && c.d > depth && orient(dst, &c, &r).inside {
                    depth = c.d;
                    if from_b {
                        (ia, xa, ib, xb) = (c.item, c.x, on.item, on.x);
                    } else {
                        (ia, xa, ib, xb) = (on.item, on.x, c.item, c.x);
                    }
                    step *= 2.0;
                } else {
                    step *= 0.25;
                }
            }
            let law = *iterations;
            self.pen_work[2] += law - start - self.pen_work[0] - self.pen_work[1] - self.pen_work[2] - self.pen_work[3];
            let seed = [xa[0], xa[1], xb[0], xb[1]];
            let s = solve_pair(&fl, side(a, ia), side(b, ib), rel, seed);
            *iterations += s.iterations;
            let mut c = s.cand;
            if !c.converged && c.d.is_finite() {
                // out of iterations on the way (a long ascent, or creeping near a
                // pole of a parametrisation): a longer run from there
                let more = TrackerConfig {
                    max_iters: 16 * fl.max_iters,
                    ..fl
                };
                let s = solve_pair(&more, side(a, c.ia), side(b, c.ib), rel, c.x);
                *iterations += s.iterations;
                c = s.cand;
            }
            self.pen_work[3] += *iterations - law;
            // a stalled iterate (a witness saturated on a piece side, where
            // the pair's basin continues on a neighbouring piece) seeds
            // another ascent, whose global projections cross piece sides
            let (da, db) = depths(a, b, rel, &c, &mut self.probe_a, &mut self.probe_b, &cfg);
            let own = if from_b { db.and(da) } else { da.and(db) };
            let kept = c.d.is_finite() && keeps(a, c.ia, c.x[0], c.x[1]) && keeps(b, c.ib, c.x[2], c.x[3]);
            let again = !c.converged && round + 1 < ROUNDS && kept && own.is_some_and(|d| d > depth);
            // a critical pair of the kind defined (each witness inside the other
            // body, found globally) no deeper than the two witnesses' own depths
            // together: the law can run to a far critical pair across a body. An
            // iterate the law did not finish (a pole of the parametrisation,
            // where the normal degenerates) is kept when deeper than its seed;
            // after a stalled first round the deepest such pair of the rounds
            // is the answer (a pole can also stop the law short of `Ψ = 0`).
            if (c.converged || c.d >= depth) && c.d > tol && kept && inside_pair(a, b, rel, &c) {
                if let (Some(da), Some(db)) = (da, db) {
                    if c.d <= da + db + tol {
                        if c.converged && round == 0 {
                            return Some(c);
                        }
                        if stalled.map_or(true, |k: PairCandidate| c.d > k.d) {
                            stalled = Some(c);
                        }
                    }
                }
            }
            match own {
                Some(d) if again => {
                    depth = d;
                    (ia, xa, ib, xb) = (c.ia, [c.x[0], c.x[1]], c.ib, [c.x[2], c.x[3]]);
                }
                _ => break,
            }
        }
        if stalled.is_some() {
            return stalled;
        }
        // otherwise the seed pair itself: the deepest sampled point and its
        // closest point on the other body (its depth a lower bound)
        Some(PairCandidate {
            converged: false,
            ..evaluate(
                a,
                b,
                rel,
                &PairCandidate {
                    ia,
                    ib,
                    x: [xa[0], xa[1], xb[0], xb[1]],
                    ..PairCandidate::NONE
                },
            )
        })
    }
}

/// The point of piece `k` of `src` at `uv` (clamped) in the other body's
/// frame (B's points into A's frame when `from_b`, A's into B's otherwise).
fn into_other(src: &BodyGeom, k: u32, uv: [f64; 2], from_b: bool, rel: &Rel) -> Vec3 {
    let uv = [uv[0].clamp(0.0, 1.0), uv[1].clamp(0.0, 1.0)];
    let p = src.pieces[k as usize].surface.eval(uv[0], uv[1]);
    if from_b {
        rel.frame.r * p + rel.frame.t
    } else {
        rel.frame.r.transpose() * (p - rel.frame.t)
    }
}

/// The depth of each witness inside the other body (B's witness in A, A's
/// in B) by the point–body far phase, `None` for a witness outside.
fn depths(
    a: &BodyGeom,
    b: &BodyGeom,
    rel: &Rel,
    c: &PairCandidate,
    probe_a: &mut FarState,
    probe_b: &mut FarState,
    cfg: &TrackerConfig,
) -> (Option<f64>, Option<f64>) {
    let rt = rel.frame.r.transpose();
    let depth = |body: &BodyGeom, probe: &mut FarState, q: Vec3| {
        probe.reset(body);
        let mut k = Candidate::NONE;
        probe.search(body, cfg, &q, None, &mut k);
        (k.d.is_finite() && orient(body, &k, &q).inside).then_some(k.d)
    };
    (depth(a, probe_a, c.pb), depth(b, probe_b, rt * (c.pa - rel.frame.t)))
}

/// The pair's witnesses are each inside the other body locally (B's
/// witness behind A's feature normal, or A's behind B's).
pub(super) fn inside_pair(a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> bool {
    let rt = rel.frame.r.transpose();
    let (ca, cb) = candidates(c, &rt, &rel.frame.t);
    orient(a, &ca, &c.pb).inside || orient(b, &cb, &(rt * (c.pa - rel.frame.t))).inside
}

/// Confirms a locally inside pair globally: B's witness is inside A, or A's
/// inside B, by the point–body far phase (its sign: the normal at the
/// global closest boundary point). The local test alone is fooled by a
/// witness saturated on a piece side, whose piece normal says nothing.
pub(super) fn contained(
    a: &BodyGeom,
    b: &BodyGeom,
    rel: &Rel,
    c: &PairCandidate,
    probe_a: &mut FarState,
    probe_b: &mut FarState,
    cfg: &TrackerConfig,
) -> bool {
    let rt = rel.frame.r.transpose();
    let tol = 1e-9 * (1.0 + c.d);
    let inside = |body: &BodyGeom, probe: &mut FarState, q: Vec3| {
        probe.reset(body);
        let mut k = Candidate::NONE;
        probe.search(body, cfg, &q, None, &mut k);
        k.d.is_finite() && k.d > tol && orient(body, &k, &q).inside
    };
    inside(a, probe_a, c.pb) || inside(b, probe_b, rt * (c.pa - rel.frame.t))
}

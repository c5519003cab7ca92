//! Penetration (NJC-1999 §3.4–3.6, PG-2004 §V): the interpenetration seed
//! (the deepest cell centre of each body inside the other, by point–body
//! queries, converged to the local maximum-penetration pair by the
//! feedback-linearised law), the local inside test of a pair and its global
//! confirmation.

use super::candidate::{candidates, PairCandidate};
use super::item_eval::keeps;
use super::relative::Rel;
use super::solve::{side, solve_pair};
use super::BodyPairTracker;
use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item};
use crate::track::config::{ControlLaw, TrackerConfig};
use crate::track::far::{cell_config, trim_point, Candidate, FarState};
use crate::track::point_body::orient;

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
        // (depth, item on A, x on A, item on B, x on B)
        type Seed = (f64, Item, [f64; 2], Item, [f64; 2]);
        let mut deepest: Option<Seed> = None;
        let rt = rel.frame.r.transpose();
        let (probe_a, probe_b) = (&mut self.probe_a, &mut self.probe_b);
        // whether the point of piece `k` of one body at `uv` lies inside the
        // other body; keeps the deepest such point with its nearest feature
        let mut try_point = |from_b: bool, k: u32, uv: [f64; 2], deepest: &mut Option<Seed>| {
            let (src, dst, probe) = if from_b {
                (b, a, &mut *probe_a)
            } else {
                (a, b, &mut *probe_b)
            };
            let uv = [uv[0].clamp(0.0, 1.0), uv[1].clamp(0.0, 1.0)];
            if !src.piece_keeps(k, uv[0], uv[1]) {
                return;
            }
            let p = src.pieces[k as usize].surface.eval(uv[0], uv[1]);
            // into the other body's frame
            let q = if from_b {
                rel.frame.r * p + rel.frame.t
            } else {
                rt * (p - rel.frame.t)
            };
            if (0..3).any(|i| q[i] < dst.lo[i] - tol || q[i] > dst.hi[i] + tol) {
                return;
            }
            probe.reset(dst);
            let mut c = Candidate::NONE;
            probe.search(dst, &cfg, &q, None, &mut c);
            *iterations += probe.iterations;
            if !c.d.is_finite() || c.d <= tol || !orient(dst, &c, &q).inside {
                return;
            }
            if deepest.map_or(true, |d| c.d > d.0) {
                *deepest = Some(if from_b {
                    (c.d, c.item, c.x, Item::Piece(k), uv)
                } else {
                    (c.d, Item::Piece(k), uv, c.item, c.x)
                });
            }
        };
        // 1. the centre of every piece cell
        for (from_b, src) in [(true, b), (false, a)] {
            for cell in &src.cells {
                if let Item::Piece(k) = cell.item {
                    let uv = [0.5 * (cell.rect[0] + cell.rect[1]), 0.5 * (cell.rect[2] + cell.rect[3])];
                    try_point(from_b, k, uv, &mut deepest);
                }
            }
        }
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
        // 3. last resort: a 4×4 grid on every piece cell
        if deepest.is_none() {
            for (from_b, src) in [(true, b), (false, a)] {
                for cell in &src.cells {
                    if let Item::Piece(k) = cell.item {
                        for i in 0..4 {
                            for j in 0..4 {
                                let f = |t: usize, lo: f64, hi: f64| lo + (hi - lo) * (t as f64 + 0.5) / 4.0;
                                let uv = [f(i, cell.rect[0], cell.rect[1]), f(j, cell.rect[2], cell.rect[3])];
                                try_point(from_b, k, uv, &mut deepest);
                            }
                        }
                    }
                }
            }
        }
        let (_, ia, xa, ib, xb) = deepest?;
        let fl = TrackerConfig {
            law: ControlLaw::FeedbackLinearized,
            feed_forward: false,
            max_iters: cfg.max_iters.max(64),
            ..self.cfg
        };
        let seed = [xa[0], xa[1], xb[0], xb[1]];
        let s = solve_pair(&fl, side(a, ia), side(b, ib), rel, seed);
        *iterations += s.iterations;
        let c = s.cand;
        if c.converged
            && c.d > tol
            && keeps(a, c.ia, c.x[0], c.x[1])
            && keeps(b, c.ib, c.x[2], c.x[3])
            && inside_pair(a, b, rel, &c)
        {
            return Some(c);
        }
        // not converged to a critical pair: report the seed pair itself
        let e = solve_pair(
            &TrackerConfig { max_iters: 1, ..fl },
            side(a, ia),
            side(b, ib),
            rel,
            seed,
        );
        Some(PairCandidate {
            converged: false,
            ..e.cand
        })
    }
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

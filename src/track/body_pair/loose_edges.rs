//! Edges that stray from their faces (a model tolerance): the separating
//! planes of a Lin–Canny exit bound the faces, not such edges, so each is
//! kept as a bounded polyline (a tree of balls over its chords) and tested
//! against the exit's planes.

use super::candidate::PairCandidate;
use super::relative::Rel;
use super::BodyPairTracker;
use crate::geom::Vec3;
use crate::scene::data::FeatureRef;
use crate::track::body::{BodyGeom, Item};
use crate::track::config::TrackerConfig;
use crate::track::far::cell_config;

/// How far B-rep edge `e` of `body` strays from the patches of the pieces
/// it borders (a model tolerance: an edge's exact curve and its faces'
/// surfaces agree only to the file's precision, up to a few 1e-6 on some
/// models): twice the largest distance of 17 samples of the edge from the
/// nearest bordering patch, plus what the projections leave (a sampled
/// bound with a factor 2 of margin for the deviation between samples).
pub(super) fn edge_gap(body: &BodyGeom, e: u32) -> f64 {
    let cfg = cell_config(&TrackerConfig::default());
    let pieces: Vec<u32> = body
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.adjacency.iter().any(|(_, f)| *f == FeatureRef::Edge(e)))
        .map(|(k, _)| k as u32)
        .collect();
    if pieces.is_empty() {
        return 0.0;
    }
    let curve = &body.edges[e as usize].curve;
    let (t0, t1) = curve.domain();
    let n = 16;
    let mut worst = 0.0f64;
    for i in 0..=n {
        let q = curve.eval(t0 + (t1 - t0) * i as f64 / n as f64);
        let mut near = f64::INFINITY;
        for &k in &pieces {
            let s = &body.pieces[k as usize].surface;
            let mut x0 = ([0.5, 0.5], f64::INFINITY);
            for a in 0..=4 {
                for b in 0..=4 {
                    let uv = [a as f64 * 0.25, b as f64 * 0.25];
                    let e2 = (s.eval(uv[0], uv[1]) - q).norm_squared();
                    if e2 < x0.1 {
                        x0 = (uv, e2);
                    }
                }
            }
            let (dk, ..) = crate::track::far::solve_piece(body, &cfg, k, &[0.0, 1.0, 0.0, 1.0], x0.0, &q);
            near = near.min(dk);
        }
        worst = worst.max(near);
    }
    2.0 * worst
}

/// Segments per stray edge in [`LooseEdge`]: a tree of balls over the
/// polyline, `LOOSE_FAN` children per ball (`LOOSE_SEGS = LOOSE_FAN³`).
pub(super) const LOOSE_FAN: usize = 8;
pub(super) const LOOSE_SEGS: usize = LOOSE_FAN * LOOSE_FAN * LOOSE_FAN;

/// An edge that strays from its faces ([`edge_gap`]) as a polyline of
/// `LOOSE_SEGS + 1` points at equal parameter steps `h`: the curve lies
/// within `sag = M₂ h² / 8` of its chords (`M₂` twice the largest sampled
/// `|c''|`). `balls[0]` holds the edge's ball, `balls[1]` the balls of
/// `LOOSE_FAN` runs of segments, `balls[2]` those of `LOOSE_FAN²` runs.
#[derive(Debug, Clone)]
pub(super) struct LooseEdge {
    sag: f64,
    balls: [Vec<(Vec3, f64)>; 3],
    pts: Vec<Vec3>,
}

/// The edges of a body that stray from their faces by more than `1e-12`
/// of `scale` and the largest gap (computed once per body, at the first
/// Lin–Canny exit).
#[derive(Debug, Clone, Default)]
pub(super) struct LooseEdges {
    edges: Vec<LooseEdge>,
    max: f64,
    /// A ball around every polyline point of every edge.
    centre: Vec3,
    radius: f64,
    /// `(n₀, max over the edges' polyline points x of n₀·x + sag)` for the
    /// last direction `n₀` the test passed with (see [`loose_edge_near_cached`]).
    top: Option<(Vec3, f64)>,
}

impl LooseEdges {
    pub(super) fn of(body: &BodyGeom, scale: f64) -> Self {
        let mut l = LooseEdges::default();
        for e in 0..body.edges.len() as u32 {
            let gap = edge_gap(body, e);
            if gap <= 1e-12 * scale {
                continue;
            }
            let curve = &body.edges[e as usize].curve;
            let (t0, t1) = curve.domain();
            let h = (t1 - t0) / LOOSE_SEGS as f64;
            let cps: Vec<_> = (0..=LOOSE_SEGS).map(|i| curve.eval_derivs(t0 + h * i as f64)).collect();
            let m2 = 2.0 * cps.iter().map(|c| c.d2.norm()).fold(0.0, f64::max);
            let pts: Vec<Vec3> = cps.iter().map(|c| c.p).collect();
            let level = |runs: usize| -> Vec<(Vec3, f64)> {
                let len = LOOSE_SEGS / runs;
                (0..runs)
                    .map(|g| {
                        let q = &pts[g * len..=(g + 1) * len];
                        let c = q.iter().sum::<Vec3>() / q.len() as f64;
                        (c, q.iter().map(|x| (x - c).norm()).fold(0.0, f64::max))
                    })
                    .collect()
            };
            let balls = [level(1), level(LOOSE_FAN), level(LOOSE_FAN * LOOSE_FAN)];
            l.edges.push(LooseEdge {
                sag: m2 * h * h / 8.0,
                balls,
                pts,
            });
            l.max = l.max.max(gap);
        }
        let all = || l.edges.iter().flat_map(|e| e.pts.iter());
        let count = all().count();
        if count > 0 {
            l.centre = all().sum::<Vec3>() / count as f64;
            l.radius = all().map(|x| (x - l.centre).norm()).fold(0.0, f64::max);
        }
        l
    }

    /// The largest `n·x + sag` over the edges' polyline points `x` (branch
    /// and bound over the balls).
    pub(super) fn top(&self, n: &Vec3) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for e in &self.edges {
            let above = |(c, r): &(Vec3, f64), best: f64| n.dot(c) + r + e.sag > best;
            if !above(&e.balls[0][0], best) {
                continue;
            }
            for i in 0..LOOSE_FAN {
                if !above(&e.balls[1][i], best) {
                    continue;
                }
                for j in i * LOOSE_FAN..(i + 1) * LOOSE_FAN {
                    if !above(&e.balls[2][j], best) {
                        continue;
                    }
                    for x in &e.pts[j * LOOSE_FAN..=(j + 1) * LOOSE_FAN] {
                        best = best.max(n.dot(x) + e.sag);
                    }
                }
            }
        }
        best
    }
}

/// [`loose_edge_near`] with a certificate kept between updates: with `n₀`
/// and `m₀ = max (n₀·x + sag)` from an update where the test passed, every
/// point has `n·x + sag ≤ m₀ + (n − n₀)·c + |n − n₀| ρ` (`c`, `ρ` the ball
/// around all the points), so when that is at or below the level the test
/// passes without visiting the edges; otherwise the full test runs and, when
/// it passes, `m₀` is recomputed for `n`.
pub(super) fn loose_edge_near_cached(loose: &mut LooseEdges, p: &Vec3, n: &Vec3, other_gap: f64) -> bool {
    if loose.edges.is_empty() {
        return false;
    }
    let level = n.dot(p) - other_gap;
    if let Some((n0, m0)) = loose.top {
        let dn = n - n0;
        if m0 + dn.dot(&loose.centre) + dn.norm() * loose.radius <= level {
            return false;
        }
    }
    let near = loose_edge_near(loose, p, n, other_gap);
    if !near {
        loose.top = Some((*n, loose.top(n)));
    }
    near
}

/// Whether an edge that strays from its faces ([`edge_gap`]) may hold a
/// point closer to the other body than a Lin–Canny pair with witness `p`
/// (body-local) and unit direction `n` (body-local, from `p` towards the
/// other witness). The exit's separating planes bound the faces, not such
/// an edge: the other body's points `y` (its edges within `other_gap` of
/// its faces) have `n·(y − p) ≥ d − other_gap`, so a point `x` of the edge
/// with `|x − y| < d` has `n·(x − p) > −other_gap`. The edge's balls, then
/// its chords ([`LooseEdge`]), bound `n·x` from above; an edge that stays
/// at or below that level cannot be closer.
pub(super) fn loose_edge_near(loose: &LooseEdges, p: &Vec3, n: &Vec3, other_gap: f64) -> bool {
    let level = n.dot(p) - other_gap;
    loose.edges.iter().any(|e| {
        let above = |(c, r): &(Vec3, f64)| n.dot(c) + r + e.sag > level;
        above(&e.balls[0][0])
            && (0..LOOSE_FAN).any(|i| {
                above(&e.balls[1][i])
                    && (i * LOOSE_FAN..(i + 1) * LOOSE_FAN).any(|j| {
                        above(&e.balls[2][j])
                            && e.pts[j * LOOSE_FAN..=(j + 1) * LOOSE_FAN]
                                .iter()
                                .any(|x| n.dot(x) + e.sag > level)
                    })
            })
    })
}

impl BodyPairTracker {
    /// Whether an edge of either body that strays from its faces may be
    /// closer than the Lin–Canny pair `c` ([`loose_edge_near`]; tested on the
    /// sides whose witness is on a piece).
    pub(super) fn loose_edge_closer(&mut self, a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> bool {
        let (pa_side, pb_side) = (matches!(c.ia, Item::Piece(_)), matches!(c.ib, Item::Piece(_)));
        if !(pa_side || pb_side) {
            return false;
        }
        let scale = self.scale;
        let loose = self
            .loose
            .get_or_insert_with(|| Box::new([LooseEdges::of(a, scale), LooseEdges::of(b, scale)]));
        let n = (c.pb - c.pa) / c.d;
        let (gap_a, gap_b) = (loose[0].max, loose[1].max);
        if pa_side && loose_edge_near_cached(&mut loose[0], &c.pa, &n, gap_b) {
            return true;
        }
        if pb_side {
            let rt = rel.frame.r.transpose();
            let p = rt * (c.pb - rel.frame.t);
            if loose_edge_near_cached(&mut loose[1], &p, &(-(rt * n)), gap_a) {
                return true;
            }
        }
        false
    }
}

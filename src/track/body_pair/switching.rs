//! Feature switching of the tracked pair (PG-2005 §IV, PG-GUAS §II.C;
//! Lin–Canny): a witness saturated on a seam moves into the neighbouring
//! piece, one on a crease side onto the edge, an edge witness at an end onto
//! the vertex's other edges and pieces; no switch increases the distance.

use super::candidate::PairCandidate;
use super::item_eval::{item_domain, keeps};
use super::relative::Rel;
use super::solve::{solve_pair, SideRef};
use super::BodyPairTracker;
use crate::geom::Vec3;
use crate::scene::data::{Boundary, FeatureRef, NONE};
use crate::track::body::{BodyGeom, Item};
use crate::track::config::Mode;
use crate::track::far::cell_config;

/// Updates a refused side switch of a Lin–Canny pair is skipped before it
/// is tried again (`BodyPairTracker::refused`).
pub(super) const REFUSED_RETRY: u32 = 16;

/// The first of `items` with the least `key` (by `f64::total_cmp`), each
/// key made once: `Iterator::min_by` with a comparator that makes both keys
/// gives the same item with twice the evaluations.
fn first_nearest<T: Copy>(items: impl IntoIterator<Item = T>, key: impl Fn(&T) -> f64) -> Option<T> {
    let mut best: Option<(T, f64)> = None;
    for x in items {
        let k = key(&x);
        if best.map_or(true, |(_, b)| k.total_cmp(&b).is_lt()) {
            best = Some((x, k));
        }
    }
    best.map(|(x, _)| x)
}

/// Up to 8 neighbouring features of a saturated witness (Lin–Canny switch
/// targets) with starting parameters; returns their count.
pub(super) fn neighbours(
    body: &BodyGeom,
    item: Item,
    x: [f64; 2],
    mode: Mode,
    point: &Vec3,
    out: &mut [(Item, [f64; 2]); 8],
) -> usize {
    let mut n = 0usize;
    let mut add = |it: Item, x: [f64; 2]| {
        if n < out.len() {
            out[n] = (it, x);
            n += 1;
        }
    };
    let edge_start = |e: u32, p: &Vec3| -> f64 {
        let curve = &body.edges[e as usize].curve;
        let (t0, t1) = curve.domain();
        first_nearest((0..=8).map(|i| t0 + (t1 - t0) * i as f64 / 8.0), |&t| {
            (curve.eval(t) - p).norm_squared()
        })
        .unwrap_or(t0)
    };
    match item {
        Item::Piece(k) => {
            let sides: [Option<Boundary>; 2] = match mode {
                Mode::Interior => return 0,
                Mode::U0 => [Some(Boundary::U0), None],
                Mode::U1 => [Some(Boundary::U1), None],
                Mode::V0 => [Some(Boundary::V0), None],
                Mode::V1 => [Some(Boundary::V1), None],
                Mode::Corner => [
                    Some(if x[0] <= 0.0 { Boundary::U0 } else { Boundary::U1 }),
                    Some(if x[1] <= 0.0 { Boundary::V0 } else { Boundary::V1 }),
                ],
            };
            let piece = &body.pieces[k as usize];
            for side in sides.into_iter().flatten() {
                for &(b, f) in &piece.adjacency {
                    if b != side {
                        continue;
                    }
                    match f {
                        FeatureRef::Piece(m) if (m as usize) < body.pieces.len() => {
                            let other = &body.pieces[m as usize];
                            let (u, v) = (
                                piece.domain[0] + x[0] * (piece.domain[1] - piece.domain[0]),
                                piece.domain[2] + x[1] * (piece.domain[3] - piece.domain[2]),
                            );
                            let map = |x: f64, a: f64, b: f64| {
                                if b > a {
                                    ((x - a) / (b - a)).clamp(0.0, 1.0)
                                } else {
                                    0.5
                                }
                            };
                            add(
                                Item::Piece(m),
                                [
                                    map(u, other.domain[0], other.domain[1]),
                                    map(v, other.domain[2], other.domain[3]),
                                ],
                            );
                        }
                        FeatureRef::Edge(e) if (e as usize) < body.edges.len() => {
                            add(Item::Edge(e), [edge_start(e, point), 0.0]);
                        }
                        _ => {}
                    }
                }
            }
        }
        Item::Edge(k) => {
            let e = &body.edges[k as usize];
            let end = match mode {
                Mode::U0 => 0,
                Mode::U1 => 1,
                _ => return 0,
            };
            let v = e.vertices[end];
            if v == NONE || v as usize >= body.vertices.len() {
                return 0;
            }
            let vg = &body.vertices[v as usize];
            for &o in &vg.edges {
                if o != k && (o as usize) < body.edges.len() {
                    let (t0, t1) = body.edges[o as usize].curve.domain();
                    let c = &body.edges[o as usize].curve;
                    let t = if (c.eval(t0) - vg.point).norm_squared() <= (c.eval(t1) - vg.point).norm_squared() {
                        t0
                    } else {
                        t1
                    };
                    add(Item::Edge(o), [t, 0.0]);
                }
            }
            for &p in &vg.pieces {
                if (p as usize) < body.pieces.len() {
                    let s = &body.pieces[p as usize].surface;
                    let corner = first_nearest([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], |a: &[f64; 2]| {
                        (s.eval(a[0], a[1]) - vg.point).norm_squared()
                    })
                    .unwrap_or([0.5, 0.5]);
                    // a hair inside the piece, so the controller starts in its interior
                    add(
                        Item::Piece(p),
                        [
                            corner[0] + (0.5 - corner[0]) * 1e-3,
                            corner[1] + (0.5 - corner[1]) * 1e-3,
                        ],
                    );
                }
            }
        }
        Item::Trim(_) => {}
    }
    n
}

impl BodyPairTracker {
    /// The Lin–Canny switches of the active pair: while a witness is
    /// saturated on a side (or an edge end), try the neighbouring features
    /// of that side with the other side fixed; take the best that does not
    /// increase the distance.
    pub(super) fn switch_sides(
        &self,
        a: &BodyGeom,
        b: &BodyGeom,
        rel: &Rel,
        mut c: PairCandidate,
        switches: &mut u32,
        iterations: &mut u32,
    ) -> PairCandidate {
        let cfg = cell_config(&self.cfg);
        let mut nb = [(Item::Piece(0), [0.0; 2]); 8];
        for _ in 0..4 {
            let tol = 1e-12 * (1.0 + c.d);
            let mut next: Option<PairCandidate> = None;
            for side in 0..2 {
                let (body, item, x, mode, point) = if side == 0 {
                    (a, c.ia, [c.x[0], c.x[1]], c.mode_a, c.pa)
                } else {
                    (
                        b,
                        c.ib,
                        [c.x[2], c.x[3]],
                        c.mode_b,
                        rel.frame.r.transpose() * (c.pb - rel.frame.t),
                    )
                };
                let n = neighbours(body, item, x, mode, &point, &mut nb);
                for &(it, xn) in &nb[..n] {
                    let (sa, sb, x0) = if side == 0 {
                        (
                            SideRef {
                                body: a,
                                item: it,
                                rect: item_domain(a, it),
                            },
                            SideRef {
                                body: b,
                                item: c.ib,
                                rect: item_domain(b, c.ib),
                            },
                            [xn[0], xn[1], c.x[2], c.x[3]],
                        )
                    } else {
                        (
                            SideRef {
                                body: a,
                                item: c.ia,
                                rect: item_domain(a, c.ia),
                            },
                            SideRef {
                                body: b,
                                item: it,
                                rect: item_domain(b, it),
                            },
                            [c.x[0], c.x[1], xn[0], xn[1]],
                        )
                    };
                    let s = solve_pair(&cfg, sa, sb, rel, x0);
                    *iterations += s.iterations;
                    let k = s.cand;
                    if !(keeps(a, k.ia, k.x[0], k.x[1]) && keeps(b, k.ib, k.x[2], k.x[3])) {
                        continue;
                    }
                    if k.d <= c.d + tol && next.map_or(true, |n| k.d < n.d) {
                        next = Some(k);
                    }
                }
            }
            // a switch must move the witness off the shared side or lower the
            // distance: a piece saturated on a crease goes onto the curve at a
            // tie, but a curve at its end (a vertex) only onto another curve
            // whose witness leaves the vertex (else equal pairs at a vertex
            // would take turns)
            let onto_curve = |from: Item, mode: Mode, to: Item, to_mode: Mode| {
                !matches!(to, Item::Piece(_))
                    && mode != Mode::Interior
                    && (matches!(from, Item::Piece(_)) || to_mode == Mode::Interior)
            };
            match next.filter(|n| {
                n.d < c.d - tol
                    || (n.mode_a == Mode::Interior && n.mode_b == Mode::Interior)
                    || onto_curve(c.ia, c.mode_a, n.ia, n.mode_a)
                    || onto_curve(c.ib, c.mode_b, n.ib, n.mode_b)
            }) {
                Some(n) if (n.ia, n.ib) != (c.ia, c.ib) => {
                    *switches += 1;
                    c = n;
                }
                _ => break,
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::first_nearest;

    /// `first_nearest` picks what `min_by` on the keys picks, the first of
    /// equal least keys included, making each key once.
    #[test]
    fn first_nearest_is_min_by_with_each_key_once() {
        let calls = std::cell::Cell::new(0);
        let key = |x: &i32| {
            calls.set(calls.get() + 1);
            f64::from((x - 3).abs())
        };
        for items in [vec![5, 1, 4, 2, 4, 3, 9], vec![2, 4, 9], vec![7], vec![]] {
            calls.set(0);
            let got = first_nearest(items.iter().copied(), key);
            assert_eq!(calls.get(), items.len());
            let want = items.iter().copied().min_by(|a, b| key(a).total_cmp(&key(b)));
            assert_eq!(got, want, "{items:?}");
        }
        // ties: the first of the nearest (2 and 4 are both 1 away from 3)
        assert_eq!(first_nearest([2, 4, 9], key), Some(2));
        assert_eq!(first_nearest([4, 2, 9], key), Some(4));
    }
}

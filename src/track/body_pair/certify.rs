//! Lin–Canny's exit on two convex solids, as a normal-cone certificate:
//! a pair whose witness directions lie in both bodies' normal cones is the
//! global minimum (PG-2005 §IV; Lin–Canny). The incident pieces of each
//! witness are kept between updates ([`Incident`]).

use super::candidate::PairCandidate;
use super::items::ItemBoxes;
use super::relative::Rel;
use super::BodyPairTracker;
use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item};
use crate::track::config::{Mode, TrackerConfig};
use crate::track::core::{newton_step, normalized_error, step_length, DIST_FLOOR};
use crate::track::far::cell_config;
use crate::track::point_patch::{point_patch_local, taylor};

/// The pieces incident to a witness point and their parameters there, kept
/// between updates so that a coherent update re-projects instead of
/// searching (fixed size: no allocation per update).
#[derive(Debug, Clone, Copy)]
pub(super) struct Incident {
    item: Option<Item>,
    n: usize,
    at: [(u32, [f64; 2]); 8],
    /// The last change of each projection's parameters: the next update's
    /// projection starts extrapolated by it (so on a smooth path its first
    /// Newton step is short enough to be accepted).
    vel: [[f64; 2]; 8],
}

impl Incident {
    pub(super) const NONE: Incident = Incident {
        item: None,
        n: 0,
        at: [(0, [0.0; 2]); 8],
        vel: [[0.0; 2]; 8],
    };
}

/// Whether `v` lies in the cone spanned by the unit vectors `ns`, to an
/// angle of 1e-5 (non-negative least squares by cyclic coordinate descent).
/// The slack covers witnesses on projected trim curves (1e-8 of the trim
/// size off the true crease) and the controller's tolerance; a direction
/// that far outside the cone moves the minimum by O(1e-10) of the radius
/// of curvature.
pub(super) fn in_cone(ns: &[Vec3], v: &Vec3) -> bool {
    let l = v.norm();
    if !(l > 0.0) || ns.is_empty() {
        return false;
    }
    let mut r = v / l;
    if let [n1, n2] = ns {
        // two normals (a crease or a seam): the exact non-negative least
        // squares, from the two-vector and one-vector solutions (the
        // coordinate descent below zigzags when the normals are nearly
        // parallel); near-parallel pairs (ill-conditioned) go on below
        let (a11, a12, a22) = (n1.dot(n1), n1.dot(n2), n2.dot(n2));
        let (b1, b2) = (n1.dot(&r), n2.dot(&r));
        let det = a11 * a22 - a12 * a12;
        if det > 1e-6 * a11 * a22 {
            let (w1, w2) = ((a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det);
            let res = if w1 >= 0.0 && w2 >= 0.0 {
                (r - n1 * w1 - n2 * w2).norm()
            } else {
                let one = |n: &Vec3, b: f64, a: f64| (r - n * (b / a).max(0.0)).norm();
                one(n1, b1, a11).min(one(n2, b2, a22))
            };
            return res <= 1e-5;
        }
    }
    let mut w = [0.0; 8];
    for _ in 0..200 {
        for (i, n) in ns.iter().enumerate() {
            let a = (w[i] + n.dot(&r)).max(0.0);
            r -= n * (a - w[i]);
            w[i] = a;
        }
        if r.norm() <= 1e-5 {
            return true;
        }
    }
    false
}

/// Lin–Canny's local test on a convex solid, as a normal-cone test: the
/// direction `v` from the witness `p` (body-local) to the other body's
/// witness lies in the body's normal cone at `p` (the cone of the outward
/// normals of every face through `p`: one at a piece's interior, two on a
/// crease or seam, all of them at a vertex). When it holds on both bodies,
/// the planes through the witnesses normal to `v` separate two convex
/// bodies, so the pair is the global minimum. The incident pieces are the
/// pieces passing within 1e-6 of the body's size of `p` whose trimmed face
/// holds that point (kept at it or next to it), found by projecting `p`
/// onto the pieces near it; `cache` keeps them for the next update.
#[allow(clippy::too_many_arguments)]
pub(super) fn cone_ok(
    body: &BodyGeom,
    boxes: &ItemBoxes,
    item: Item,
    mode: Mode,
    x: &[f64; 2],
    n: &Vec3,
    p: &Vec3,
    v: &Vec3,
    scale: f64,
    cache: &mut Incident,
    iterations: &mut u32,
) -> bool {
    if matches!(item, Item::Piece(_)) && mode == Mode::Interior {
        return in_cone(&[*n], v);
    }
    if matches!(item, Item::Trim(_)) {
        // a trim curve without a linked edge may be a projection (within
        // 1e-8 of the trim's size of the true border): its witness is not
        // exact enough to end the search; the far phase decides
        return false;
    }
    let cfg = cell_config(&TrackerConfig::default());
    let tol = 1e-6 * (1.0 + scale);
    let mut ns = [Vec3::zeros(); 8];
    let mut m = 0;
    // re-project onto last update's incident pieces
    if cache.item == Some(item) && cache.n > 0 {
        for i in 0..cache.n {
            let (k, x0) = cache.at[i];
            if item == Item::Piece(k) {
                // the witness's own piece: `p` is its point at `x`, `n` its
                // outward normal there
                cache.vel[i] = [x[0] - x0[0], x[1] - x0[1]];
                cache.at[i].1 = *x;
                ns[m] = *n;
                m += 1;
                continue;
            }
            let v = cache.vel[i];
            let xs = [(x0[0] + v[0]).clamp(0.0, 1.0), (x0[1] + v[1]).clamp(0.0, 1.0)];
            let (dk, xk, nk) = match reproject(body, &cfg, k, xs, p) {
                Some(r) => {
                    *iterations += 1;
                    r
                }
                None => {
                    let (dk, _, xk, _, it, _, nk) =
                        crate::track::far::solve_piece(body, &cfg, k, &[0.0, 1.0, 0.0, 1.0], xs, p);
                    *iterations += it;
                    (dk, xk, nk)
                }
            };
            if dk > tol {
                m = 0;
                break;
            }
            cache.vel[i] = [xk[0] - x0[0], xk[1] - x0[1]];
            cache.at[i].1 = xk;
            ns[m] = nk;
            m += 1;
        }
    }
    if m == 0 {
        cache.item = Some(item);
        cache.n = 0;
        for (k, piece) in body.pieces.iter().enumerate() {
            let i = boxes.index(Item::Piece(k as u32));
            if crate::track::body::box_dist2(&boxes.lo[i], &boxes.hi[i], p) > tol * tol {
                continue;
            }
            let s = &piece.surface;
            let mut x0 = ([0.5, 0.5], f64::INFINITY);
            for a in 0..=4 {
                for b in 0..=4 {
                    let uv = [a as f64 * 0.25, b as f64 * 0.25];
                    let e = (s.eval(uv[0], uv[1]) - p).norm_squared();
                    if e < x0.1 {
                        x0 = (uv, e);
                    }
                }
            }
            let (dk, _, xk, _, it, _, nk) =
                crate::track::far::solve_piece(body, &cfg, k as u32, &[0.0, 1.0, 0.0, 1.0], x0.0, p);
            *iterations += it;
            let h = 1e-7;
            let kept = [[0.0, 0.0], [h, 0.0], [-h, 0.0], [0.0, h], [0.0, -h]]
                .iter()
                .any(|d| body.piece_keeps(k as u32, xk[0] + d[0], xk[1] + d[1]));
            if dk <= tol && kept && m < ns.len() {
                ns[m] = nk;
                cache.at[m] = (k as u32, xk);
                cache.vel[m] = [0.0; 2];
                m += 1;
            }
        }
        cache.n = m;
    }
    in_cone(&ns[..m], v)
}

/// [`crate::track::far::solve_piece`]'s projection of `p` onto piece `k` from
/// `xs` when it ends at its first evaluation (converged there, or a free
/// Newton step shorter than `step_tol` that stays in the piece, answered by
/// second-order Taylor expansion): `(distance, params, outward unit
/// normal)`; `None` otherwise (then the caller runs the full solve). Used
/// where the start is extrapolated along a smooth path, so one evaluation
/// is the rule.
pub(super) fn reproject(
    body: &BodyGeom,
    cfg: &TrackerConfig,
    k: u32,
    xs: [f64; 2],
    p: &Vec3,
) -> Option<(f64, [f64; 2], Vec3)> {
    let sp = body.pieces[k as usize].surface.eval_derivs(xs[0], xs[1]);
    let loc = point_patch_local(&sp, p, &Vec3::zeros());
    let free = [false; 2];
    let (sp, x) = if normalized_error(&loc, &free, DIST_FLOOR) <= cfg.tol {
        (sp, xs)
    } else {
        let (d, _) = newton_step(cfg, &loc, &free)?;
        let x = [xs[0] + d[0], xs[1] + d[1]];
        if !(x.iter().all(|c| (0.0..=1.0).contains(c)) && step_length(&loc, &d) <= cfg.step_tol) {
            return None;
        }
        (taylor(&sp, &d), x)
    };
    Some(((sp.p - p).norm(), x, body.outward_from(k, &sp.su.cross(&sp.sv), x)))
}

impl BodyPairTracker {
    /// Lin–Canny's exit: on two convex solids a pair that is locally closest
    /// on both boundaries is the global answer (settled interior piece
    /// witnesses, else the normal-cone test of each witness, [`cone_ok`]),
    /// unless an edge that strays from its faces may be closer
    /// ([`Self::loose_edge_closer`]).
    pub(super) fn certified(
        &mut self,
        a: &BodyGeom,
        b: &BodyGeom,
        rel: &Rel,
        best: &PairCandidate,
        tol: f64,
        iterations: &mut u32,
    ) -> bool {
        let settled = best.converged
            && best.mode_a == Mode::Interior
            && best.mode_b == Mode::Interior
            && matches!((best.ia, best.ib), (Item::Piece(_), Item::Piece(_)))
            && best.facing()
            && best.d > tol;
        let lin_canny = self.convex
            && (settled
                || best.converged && best.d > tol && {
                    let rt = rel.frame.r.transpose();
                    let [ia, ib] = &mut self.incident;
                    cone_ok(
                        a,
                        &self.boxes_a,
                        best.ia,
                        best.mode_a,
                        &[best.x[0], best.x[1]],
                        &best.na,
                        &best.pa,
                        &(best.pb - best.pa),
                        self.scale,
                        ia,
                        iterations,
                    ) && cone_ok(
                        b,
                        &self.boxes_b,
                        best.ib,
                        best.mode_b,
                        &[best.x[2], best.x[3]],
                        &(rt * best.nb),
                        &(rt * (best.pb - rel.frame.t)),
                        &(rt * (best.pa - best.pb)),
                        self.scale,
                        ib,
                        iterations,
                    )
                });
        // the separating planes bound the faces, not edges that stray from them
        lin_canny && !self.loose_edge_closer(a, b, rel, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference: the cone test by coordinate descent run to convergence.
    fn descent(ns: &[Vec3], v: &Vec3) -> f64 {
        let mut r = v / v.norm();
        let mut w = [0.0; 8];
        for _ in 0..100_000 {
            for (i, n) in ns.iter().enumerate() {
                let a = (w[i] + n.dot(&r)).max(0.0);
                r -= n * (a - w[i]);
                w[i] = a;
            }
        }
        r.norm()
    }

    #[test]
    fn two_normal_cone_test_is_the_exact_least_squares() {
        // pairs of unit normals at 1°–150° and directions inside, outside
        // and within ±1e-7 of the 1e-5 threshold
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let (mut inside, mut outside) = (0, 0);
        for k in 0..4000 {
            let n1 = Vec3::new(rnd(), rnd(), rnd()).normalize();
            let axis = n1.cross(&Vec3::new(rnd(), rnd(), rnd())).normalize();
            let ang = (1.0 + 149.0 * (0.5 + 0.5 * rnd())).to_radians();
            let n2 = nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(axis), ang) * n1;
            let v = match k % 3 {
                0 => n1 * (0.5 + rnd().abs()) + n2 * rnd().abs(),
                1 => Vec3::new(rnd(), rnd(), rnd()),
                _ => {
                    // just outside or inside the slack, off a side of the cone
                    let off = axis.cross(&n1).normalize();
                    let s = if off.dot(&n2) > 0.0 { -1.0 } else { 1.0 };
                    n1 + off * s * (1e-5 + 2e-7 * rnd())
                }
            };
            let res = descent(&[n1, n2], &v);
            if (res - 1e-5).abs() < 1e-9 {
                continue; // too close to the threshold for the reference
            }
            let want = res <= 1e-5;
            assert_eq!(in_cone(&[n1, n2], &v), want, "case {k}: residual {res:e}");
            if want {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        assert!(inside > 1000 && outside > 1000, "{inside} inside, {outside} outside");
    }
}

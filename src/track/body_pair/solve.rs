//! The pair solve: the patch–patch controller (PG-2002/2004, PG-GUAS
//! remark 5) on a pair of items within their parameter boxes, a curve's
//! unused parameter locked, with the coherent one-step update of a tracked
//! pair.

use super::candidate::PairCandidate;
use super::item_eval::{eval_item, item_domain, item_mode};
use super::relative::Rel;
use crate::geom::Vec3;
use crate::track::body::{BodyGeom, Item};
use crate::track::config::{ControlLaw, TrackerConfig};
use crate::track::core::{clamp_box, track_loop, Local, LoopOut};
use crate::track::far::cell_config;
use crate::track::motion::BodyState;
use crate::track::patch_pair::{coherent_step, lock, pair_local, to_world, PairState};
use crate::track::point_patch::taylor;
use nalgebra::{Vector2, Vector4};

/// One side of a pair solve: the body, the item and the parameter box.
#[derive(Clone, Copy)]
pub(super) struct SideRef<'a> {
    pub(super) body: &'a BodyGeom,
    pub(super) item: Item,
    pub(super) rect: [f64; 4],
}

/// The side of a whole item.
pub(super) fn side(body: &BodyGeom, item: Item) -> SideRef<'_> {
    SideRef {
        body,
        item,
        rect: item_domain(body, item),
    }
}

/// What a pair solve returns besides the candidate: iterations and local data.
pub(super) struct PairSolve {
    pub(super) cand: PairCandidate,
    pub(super) iterations: u32,
    pub(super) loc: Local<4>,
    pub(super) lo: Vector4<f64>,
    pub(super) hi: Vector4<f64>,
    pub(super) feed_forward: Option<Vector4<f64>>,
}

/// The settings of the far phase's pair solves: near contact the Hessian
/// of ½|f − h|² is positive definite only by the relative curvature (an
/// eigenvalue of order d), so Newton steps are accepted wherever it is
/// positive definite at all; otherwise the globally convergent law crawls
/// and a cell's answer stays an iterate.
pub(super) fn pair_cell_config(cfg: &TrackerConfig) -> TrackerConfig {
    TrackerConfig {
        max_iters: 400,
        pd_margin: 1e-9,
        ..cell_config(cfg)
    }
}

/// Solves the feature pair `(a.item, b.item)` within the boxes `a.rect ×
/// b.rect`, started at `x0`, with `cfg`'s law.
pub(super) fn solve_pair(cfg: &TrackerConfig, a: SideRef, b: SideRef, rel: &Rel, x0: [f64; 4]) -> PairSolve {
    let lo = Vector4::new(a.rect[0], a.rect[2], b.rect[0], b.rect[2]);
    let hi = Vector4::new(a.rect[1], a.rect[3], b.rect[1], b.rect[3]);
    let (ca, cb) = (!matches!(a.item, Item::Piece(_)), !matches!(b.item, Item::Piece(_)));
    let rest = BodyState::default();
    let out = track_loop(
        cfg,
        clamp_box(&Vector4::new(x0[0], x0[1], x0[2], x0[3]), &lo, &hi),
        &lo,
        &hi,
        &mut |x: &Vector4<f64>| PairState {
            a: eval_item(a.body, a.item, x[0], x[1]),
            b: to_world(&eval_item(b.body, b.item, x[2], x[3]), &rel.frame),
        },
        &|st: &PairState| {
            let mut l = pair_local(st, &rest, &rel.state_b);
            if ca {
                lock(&mut l, 1);
            }
            if cb {
                lock(&mut l, 3);
            }
            l
        },
        &|st: &PairState, d: &Vector4<f64>| PairState {
            a: taylor(&st.a, &Vector2::new(d[0], d[1])),
            b: taylor(&st.b, &Vector2::new(d[2], d[3])),
        },
    );
    finish_pair(a, b, rel, lo, hi, out)
}

/// [`solve_pair`] for the tracked pair of a coherent update: under the
/// hybrid law, first one coherent step from `x0` (one evaluation, one
/// Cholesky factor for the step and the next feed-forward; see
/// [`coherent_step`]), for any pair of pieces, edges and trim curves (a
/// curve's unused parameter locked); the general loop runs when it is refused.
pub(super) fn solve_pair_coherent(cfg: &TrackerConfig, a: SideRef, b: SideRef, rel: &Rel, x0: [f64; 4]) -> PairSolve {
    if cfg.law == ControlLaw::Hybrid {
        let lo = Vector4::new(a.rect[0], a.rect[2], b.rect[0], b.rect[2]);
        let hi = Vector4::new(a.rect[1], a.rect[3], b.rect[1], b.rect[3]);
        let (ca, cb) = (!matches!(a.item, Item::Piece(_)), !matches!(b.item, Item::Piece(_)));
        let locked = [false, ca, false, cb];
        let x = Vector4::new(x0[0], x0[1], x0[2], x0[3]);
        // a witness held on a piece side (its rate there is zero, so the
        // warm start is still exactly on the bound) stays there while the
        // gradient pushes it out
        let mut bound = [false; 4];
        for i in 0..4 {
            bound[i] = !locked[i] && (x[i] == lo[i] || x[i] == hi[i]);
        }
        if (0..4).all(|i| locked[i] || bound[i] || (x[i] > lo[i] && x[i] < hi[i])) {
            let st = PairState {
                a: eval_item(a.body, a.item, x[0], x[1]),
                b: to_world(&eval_item(b.body, b.item, x[2], x[3]), &rel.frame),
            };
            if let Some(c) = coherent_step(
                cfg,
                &st,
                &BodyState::default(),
                &rel.state_b,
                &x,
                &lo,
                &hi,
                locked,
                bound,
            ) {
                let out = LoopOut {
                    x: c.x,
                    state: c.state,
                    loc: c.loc,
                    active: bound,
                    iterations: 1,
                    evaluations: 1,
                    converged: true,
                    left_domain: false,
                    feed_forward: cfg.feed_forward.then_some(c.feed_forward),
                };
                return finish_pair(a, b, rel, lo, hi, out);
            }
        }
    }
    solve_pair(cfg, a, b, rel, x0)
}

/// The candidate of a finished pair solve: witnesses, modes, outward normals.
pub(super) fn finish_pair(
    a: SideRef,
    b: SideRef,
    rel: &Rel,
    lo: Vector4<f64>,
    hi: Vector4<f64>,
    out: LoopOut<4, PairState>,
) -> PairSolve {
    let x = [out.x[0], out.x[1], out.x[2], out.x[3]];
    let (da, db) = (item_domain(a.body, a.item), item_domain(b.body, b.item));
    let mode_a = item_mode(a.item, &da, x[0], x[1], [out.active[0], out.active[1]]);
    let mode_b = item_mode(b.item, &db, x[2], x[3], [out.active[2], out.active[3]]);
    let (sa, sb) = (&out.state.a, &out.state.b);
    let na = match a.item {
        Item::Piece(k) => a.body.outward_from(k, &sa.su.cross(&sa.sv), [x[0], x[1]]),
        _ => Vec3::zeros(),
    };
    let nb = match b.item {
        Item::Piece(k) => {
            let raw = rel.frame.r.transpose() * sb.su.cross(&sb.sv);
            rel.frame.r * b.body.outward_from(k, &raw, [x[2], x[3]])
        }
        _ => Vec3::zeros(),
    };
    PairSolve {
        cand: PairCandidate {
            d: (sb.p - sa.p).norm(),
            pa: sa.p,
            pb: sb.p,
            ia: a.item,
            ib: b.item,
            x,
            mode_a,
            mode_b,
            converged: out.converged,
            na,
            nb,
        },
        iterations: out.iterations,
        loc: out.loc,
        lo,
        hi,
        feed_forward: out.feed_forward,
    }
}

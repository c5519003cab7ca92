//! Items as evaluable features: the point and derivatives of a piece,
//! edge or trim curve at its parameters, its parameter box, a witness's mode
//! on it, whether its trims keep a witness, and a pair re-evaluated at a new
//! relative placement.

use super::candidate::PairCandidate;
use super::relative::Rel;
use crate::geom::{CurvePoint, SurfacePoint, Vec3};
use crate::track::body::{BodyGeom, Item};
use crate::track::config::Mode;
use crate::track::far::{trim_domain, trim_point};
use crate::track::point_patch::mode_of;
use nalgebra::Vector2;

#[inline]
pub(super) fn curve_point(c: CurvePoint) -> SurfacePoint {
    let z = Vec3::zeros();
    SurfacePoint {
        p: c.p,
        su: c.d1,
        sv: z,
        suu: c.d2,
        suv: z,
        svv: z,
    }
}

/// Point and derivatives of an item at parameters `(x0, x1)` (curves: `x0`), body-local.
#[inline]
pub(super) fn eval_item(body: &BodyGeom, item: Item, x0: f64, x1: f64) -> SurfacePoint {
    match item {
        Item::Piece(k) => body.pieces[k as usize].surface.eval_derivs(x0, x1),
        Item::Edge(k) => curve_point(body.edges[k as usize].curve.eval_derivs(x0)),
        Item::Trim(k) => curve_point(trim_point(body, k, x0).0),
    }
}

/// The whole parameter box of an item `[a0, a1, b0, b1]` (curves: `[t0, t1, 0, 0]`).
pub(super) fn item_domain(body: &BodyGeom, item: Item) -> [f64; 4] {
    match item {
        Item::Piece(_) => [0.0, 1.0, 0.0, 1.0],
        Item::Edge(k) => {
            let (a, b) = body.edges[k as usize].curve.domain();
            [a, b, 0.0, 0.0]
        }
        Item::Trim(k) => {
            let (a, b) = trim_domain(body, k);
            [a, b, 0.0, 0.0]
        }
    }
}

/// Mode of a witness w.r.t. its whole item (not the cell it was solved in).
pub(super) fn item_mode(item: Item, dom: &[f64; 4], x0: f64, x1: f64, active: [bool; 2]) -> Mode {
    match item {
        Item::Piece(_) => {
            let on = |a: f64| a <= 0.0 || a >= 1.0;
            mode_of(
                &Vector2::new(x0, x1),
                &[active[0] && on(x0), active[1] && on(x1)],
                &Vector2::zeros(),
            )
        }
        Item::Edge(_) | Item::Trim(_) => {
            if x0 <= dom[0] {
                Mode::U0
            } else if x0 >= dom[1] {
                Mode::U1
            } else {
                Mode::Interior
            }
        }
    }
}

/// Whether the trims keep a witness (piece sides only).
#[inline]
pub(super) fn keeps(body: &BodyGeom, item: Item, x0: f64, x1: f64) -> bool {
    match item {
        Item::Piece(k) => body.piece_keeps(k, x0, x1),
        _ => true,
    }
}

/// The pair `c` (its items and parameters) re-evaluated at the relative placement `rel`.
pub(super) fn evaluate(a: &BodyGeom, b: &BodyGeom, rel: &Rel, c: &PairCandidate) -> PairCandidate {
    let pa = eval_item(a, c.ia, c.x[0], c.x[1]).p;
    let pb = rel.frame.r * eval_item(b, c.ib, c.x[2], c.x[3]).p + rel.frame.t;
    PairCandidate {
        d: (pb - pa).norm(),
        pa,
        pb,
        na: Vec3::zeros(),
        nb: Vec3::zeros(),
        ..*c
    }
}

//! Evaluating a prepared piece: its patch as a NURBS surface on `[0,1]²`
//! and its outward unit normal.

use crate::geom::{NurbsSurface, Vec3};
use crate::scene::data::Piece;

/// The piece's patch as a NURBS surface on `[0,1]²`.
pub fn piece_surface(p: &Piece) -> Option<NurbsSurface> {
    NurbsSurface::bezier(p.degree_u as usize, p.degree_v as usize, p.poles.clone()).ok()
}

/// Outward unit normal of a piece at `(s, t)` (zero where degenerate).
pub fn piece_normal(s: &NurbsSurface, reversed: bool, u: f64, v: f64) -> Vec3 {
    let d = s.eval_derivs(u, v);
    let n = d.normal_raw();
    let l = n.norm();
    if !(l > 0.0) {
        return Vec3::zeros();
    }
    if reversed {
        -n / l
    } else {
        n / l
    }
}

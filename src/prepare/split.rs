//! Normal cones from Bernstein coefficients and splitting of convex patches
//! until they are "nice" (normal-cone half-angle below a limit < 90°).
//!
//! The normal numerator `W·(A_s × A_t) − W_s·(A × A_t) − W_t·(A_s × A) =
//! W³·(f_s × f_t)` (A the weighted point, W the weight) is a vector
//! polynomial; since `W³ > 0` and the Bernstein basis is non-negative, every
//! normal `f_s × f_t` is a non-negative combination of its coefficient
//! vectors, so a cone holding all those vectors holds the Gauss map.

use super::convexity::centred;
use crate::geom::bernstein::{coordinate_polys, split_u, split_v, Poly};
use crate::geom::{Hpoint, Vec3};
use crate::scene::data::{ConvexityClass, NormalCone};
use std::f64::consts::PI;

fn cross(a: &[Poly; 3], b: &[Poly; 3]) -> [Poly; 3] {
    [
        a[1].mul(&b[2]).add_scaled(&a[2].mul(&b[1]), -1.0),
        a[2].mul(&b[0]).add_scaled(&a[0].mul(&b[2]), -1.0),
        a[0].mul(&b[1]).add_scaled(&a[1].mul(&b[0]), -1.0),
    ]
}

/// Bernstein coefficient vectors of `W³·(f_s × f_t)`.
pub fn normal_coefficients(p: usize, q: usize, cw: &[Hpoint]) -> Vec<Vec3> {
    coefficient_vectors(&normal_polys(p, q, cw))
}

/// The vectors of the coefficients of a polynomial 3-vector.
fn coefficient_vectors(n: &[Poly; 3]) -> Vec<Vec3> {
    (0..n[0].c.len())
        .map(|i| Vec3::new(n[0].c[i], n[1].c[i], n[2].c[i]))
        .collect()
}

/// The polynomial 3-vector `W³·(f_s × f_t)` in Bernstein form. On a
/// sub-rectangle with sides `a, b` the sub-patch's numerator is `a·b` times
/// the restricted one, so restriction ([`Poly::restrict`]) keeps directions.
pub fn normal_polys(p: usize, q: usize, cw: &[Hpoint]) -> [Poly; 3] {
    let cw = centred(cw);
    let [x, y, z, w] = coordinate_polys(p, q, &cw);
    let a = [x, y, z];
    let a_s: [Poly; 3] = std::array::from_fn(|k| a[k].ds());
    let a_t: [Poly; 3] = std::array::from_fn(|k| a[k].dt());
    let (ws, wt) = (w.ds(), w.dt());
    let t1 = cross(&a_s, &a_t);
    let t2 = cross(&a, &a_t);
    let t3 = cross(&a_s, &a);
    std::array::from_fn(|k| {
        w.mul(&t1[k])
            .add_scaled(&ws.mul(&t2[k]), -1.0)
            .add_scaled(&wt.mul(&t3[k]), -1.0)
    })
}

/// Smallest-ish cone holding the given directions (zero vectors ignored):
/// axis = normalised sum of the unit directions, half-angle = largest angle
/// to it (`π` when the directions cancel or there are none).
pub fn cone_of(dirs: &[Vec3]) -> NormalCone {
    let units: Vec<Vec3> = dirs
        .iter()
        .filter_map(|d| {
            let l = d.norm();
            (l > 0.0 && l.is_finite()).then(|| d / l)
        })
        .collect();
    let sum: Vec3 = units.iter().sum();
    let l = sum.norm();
    if units.is_empty() || !(l > 1e-12 * units.len() as f64) {
        return NormalCone {
            axis: [0.0, 0.0, 1.0],
            half_angle: PI,
        };
    }
    let axis = sum / l;
    let half = units
        .iter()
        .map(|u| u.dot(&axis).clamp(-1.0, 1.0).acos())
        .fold(0.0, f64::max);
    // a cone wider than a hemisphere is not convex: positive combinations of
    // its directions may leave it, so only the whole sphere is safe then
    NormalCone {
        axis: [axis.x, axis.y, axis.z],
        half_angle: if half < std::f64::consts::FRAC_PI_2 { half } else { PI },
    }
}

/// Cone of the outward normals of a patch (`sigma` = −1 when reversed).
pub fn patch_cone(p: usize, q: usize, cw: &[Hpoint], sigma: f64) -> NormalCone {
    let dirs: Vec<Vec3> = normal_coefficients(p, q, cw).into_iter().map(|v| v * sigma).collect();
    cone_of(&dirs)
}

/// A piece after splitting: rectangle inside the parent's `[0,1]²`, poles, class, cone.
#[derive(Debug, Clone, PartialEq)]
pub struct NicePatch {
    /// `[s0, s1, t0, t1]` inside the parent.
    pub rect: [f64; 4],
    /// Homogeneous poles on its own `[0,1]²`.
    pub cw: Vec<Hpoint>,
    /// Class (a convex patch that could not be made nice within `max_depth` becomes mixed).
    pub class: ConvexityClass,
    /// Outward normal cone.
    pub cone: NormalCone,
}

/// Cone of the outward normals of the part `rect` ⊆ `[0,1]²` of a span
/// whose normal numerator is `span_normal` ([`normal_polys`] of the span's
/// poles): the numerator restricted to `rect` ([`Poly::restrict`]), its
/// coefficient vectors times `sigma`, [`cone_of`]: the cone the offline
/// stage stores for a piece cut from the span at `rect` (computed from the
/// span's numerator, not from the piece's poles, whose numerator loses the
/// span's exact zeros to rounding on small pieces).
pub fn restricted_cone(span_normal: &[Poly; 3], rect: [f64; 4], sigma: f64) -> NormalCone {
    let normal: [Poly; 3] = std::array::from_fn(|k| span_normal[k].restrict(rect));
    let dirs: Vec<Vec3> = coefficient_vectors(&normal).into_iter().map(|v| v * sigma).collect();
    cone_of(&dirs)
}

/// Splits the part `rect` of a classified span (poles `span_cw`): convex
/// parts are halved (alternating directions, the one with the larger pole
/// extent first) until their cone half-angle is below `max_angle`; other
/// classes get their cone only.
#[allow(clippy::too_many_arguments)]
pub fn make_nice(
    p: usize,
    q: usize,
    span_cw: &[Hpoint],
    rect: [f64; 4],
    class: ConvexityClass,
    sigma: f64,
    max_angle: f64,
    max_depth: u32,
    out: &mut Vec<NicePatch>,
) {
    let normal = normal_polys(p, q, span_cw);
    let cw = crate::geom::bernstein::restrict_poles(p, q, span_cw, rect);
    make_nice_with(p, q, cw, &normal, rect, class, sigma, max_angle, max_depth, out);
}

/// [`make_nice`] with the span's normal numerator ([`normal_polys`]) given
/// and `cw` the poles of the part `rect`; every part's cone is
/// [`restricted_cone`] of the span's numerator.
#[allow(clippy::too_many_arguments)]
pub fn make_nice_with(
    p: usize,
    q: usize,
    cw: Vec<Hpoint>,
    span_normal: &[Poly; 3],
    rect: [f64; 4],
    class: ConvexityClass,
    sigma: f64,
    max_angle: f64,
    max_depth: u32,
    out: &mut Vec<NicePatch>,
) {
    let cone = restricted_cone(span_normal, rect, sigma);
    if class != ConvexityClass::Convex || cone.half_angle < max_angle {
        out.push(NicePatch { rect, cw, class, cone });
        return;
    }
    if max_depth == 0 || !super::budget::charge(1) {
        out.push(NicePatch {
            rect,
            cw,
            class: ConvexityClass::Mixed,
            cone,
        });
        return;
    }
    let [s0, s1, t0, t1] = rect;
    // split across the direction in which the poles spread more
    let ext = |along_u: bool| -> f64 {
        let mut m: f64 = 0.0;
        for i in 0..=p {
            for j in 0..=q {
                let (i2, j2) = if along_u { (i + 1, j) } else { (i, j + 1) };
                if i2 > p || j2 > q {
                    continue;
                }
                let a = cw[i * (q + 1) + j];
                let b = cw[i2 * (q + 1) + j2];
                let d = Vec3::new(
                    a[0] / a[3] - b[0] / b[3],
                    a[1] / a[3] - b[1] / b[3],
                    a[2] / a[3] - b[2] / b[3],
                );
                m = m.max(d.norm() * if along_u { p as f64 } else { q as f64 });
            }
        }
        m
    };
    if ext(true) >= ext(false) {
        let (a, b) = split_u(p, q, &cw, 0.5);
        let sm = 0.5 * (s0 + s1);
        let d = max_depth - 1;
        make_nice_with(p, q, a, span_normal, [s0, sm, t0, t1], class, sigma, max_angle, d, out);
        make_nice_with(p, q, b, span_normal, [sm, s1, t0, t1], class, sigma, max_angle, d, out);
    } else {
        let (a, b) = split_v(p, q, &cw, 0.5);
        let tm = 0.5 * (t0 + t1);
        let d = max_depth - 1;
        make_nice_with(p, q, a, span_normal, [s0, s1, t0, tm], class, sigma, max_angle, d, out);
        make_nice_with(p, q, b, span_normal, [s0, s1, tm, t1], class, sigma, max_angle, d, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::primitives;

    #[test]
    fn sphere_pieces_become_nice() {
        let m = primitives::sphere(&crate::geom::Frame::world(), 1.0, (0.0, 6.0), (-1.5, 1.5)).unwrap();
        for b in m.surface.bezier_patches() {
            let pt = &b.patch;
            let mut out = Vec::new();
            make_nice(
                pt.degree_u,
                pt.degree_v,
                &pt.cw,
                [0.0, 1.0, 0.0, 1.0],
                ConvexityClass::Convex,
                1.0,
                1.2,
                12,
                &mut out,
            );
            for n in &out {
                assert_eq!(n.class, ConvexityClass::Convex);
                assert!(n.cone.half_angle < 1.2);
                // the cone holds sampled normals
                let s = crate::geom::NurbsSurface::bezier(pt.degree_u, pt.degree_v, n.cw.clone()).unwrap();
                for (u, v) in [(0.1, 0.1), (0.5, 0.5), (0.9, 0.3)] {
                    let d = s.eval_derivs(u, v);
                    let nn = d.normal_raw().normalize();
                    let ax = Vec3::from(n.cone.axis);
                    assert!(nn.dot(&ax).acos() <= n.cone.half_angle + 1e-9);
                }
            }
        }
    }
}

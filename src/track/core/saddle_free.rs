//! The saddle-free Newton step of the controller ([`super`]): where the
//! hybrid law's `M` is not positive definite past [`SADDLE_FREE_AFTER`]
//! iterations, the step `−V |Λ|⁻¹ Vᵀ Ψ` replaces the globally convergent one.

use super::{reduce, Local, FOCAL_AFTER};
#[cfg(doc)]
use super::{track_loop, EXPAND_AFTER};
use nalgebra::SVector;

/// Iterations after which an unconverged [`track_loop`] running the hybrid
/// law replaces its globally convergent step, where `M` is not positive
/// definite, by the saddle-free Newton step `−V |Λ|⁻¹ Vᵀ Ψ`
/// ([`saddle_free_step`]; `M = V Λ Vᵀ` on the free components).
///
/// The globally convergent step is the Gauss–Newton step `−I⁻¹Ψ`: along a
/// direction of positive curvature it goes the fraction `1 − dκ` of the way
/// (`M = I(1 − dκ)` there), along one of negative curvature (the query
/// beyond the centre of curvature) it grows by `dκ` per iteration. Near a
/// focal set both are slow at once: harmonyware_torus seen from `0.4 %` of
/// its radius beside its axis has `1 − dκ ≈ −0.004` around the axis and
/// `0.41` across the tube, and the tracker's solve and two cell solves ran
/// to the 64-iteration cap (the doubling of [`EXPAND_AFTER`] does not help
/// a step whose cross-tube part overshoots). The saddle-free step is the
/// Newton step along the directions of positive curvature and, along those
/// of negative curvature, the step whose length doubles the distance from
/// the stationary point each iteration; it descends (`|M|` is positive
/// definite), and the line search still never lets the distance rise.
pub const SADDLE_FREE_AFTER: u32 = FOCAL_AFTER;

/// The saddle-free Newton step `−V |Λ|⁻¹ Vᵀ Ψ` on the free components of a
/// loop with one or two parameters (`M = V Λ Vᵀ`, the active components
/// held), when every `|λ|` is above `1e-12` times the metric's diagonal
/// (else `None`: the globally convergent step is taken); `None` for more
/// parameters.
#[inline]
pub(super) fn saddle_free_step<const N: usize>(loc: &Local<N>, active: &[bool; N]) -> Option<SVector<f64, N>> {
    let (m, g) = reduce(&loc.hess, &(-loc.g), active);
    let scale = (0..N).map(|i| loc.metric[(i, i)].abs()).fold(0.0f64, f64::max);
    let least = 1e-12 * scale;
    let mut out = SVector::<f64, N>::zeros();
    match N {
        1 => {
            let l = m[(0, 0)].abs();
            if !(l > least) {
                return None;
            }
            out[0] = g[0] / l;
        }
        2 => {
            let (a, b, c) = (m[(0, 0)], m[(0, 1)], m[(1, 1)]);
            let t = 0.5 * f64::atan2(2.0 * b, a - c);
            let (sn, cs) = t.sin_cos();
            for (v, l) in [
                ([cs, sn], a * cs * cs + 2.0 * b * sn * cs + c * sn * sn),
                ([-sn, cs], a * sn * sn - 2.0 * b * sn * cs + c * cs * cs),
            ] {
                let l = l.abs();
                if !(l > least) {
                    return None;
                }
                let k = (v[0] * g[0] + v[1] * g[1]) / l;
                out[0] += k * v[0];
                out[1] += k * v[1];
            }
        }
        _ => return None,
    }
    out.iter().all(|x| x.is_finite()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::super::track_loop;
    use super::*;
    use crate::geom::Vec3;
    use crate::track::config::TrackerConfig;
    use nalgebra::SMatrix;

    /// A saddle crawl beside a torus's axis: the torus of radii `R`, `r`
    /// (`r = R / 1.59`, so `1 − dκ ≈ 0.41` across the tube at the inner
    /// equator, harmonyware_torus's ratio) seen from `q` `δ = 4e-3 R` beyond
    /// the axis; the patch is the angles `[0.1, 1.0]` around the axis and
    /// `[π/2, 3π/2]` across the tube, so the minimum is on the side
    /// `u = 1`, where the distance falls along the concave direction `u`
    /// (the query is beyond the axis, `M_uu < 0`) while the Gauss–Newton
    /// step goes `0.41` of the way across the tube: neither direction
    /// converges at the globally convergent law's pace; with the
    /// saddle-free step past [`SADDLE_FREE_AFTER`] the loop converges at
    /// the bound within 24 iterations.
    #[test]
    fn a_saddle_crawl_beside_a_torus_axis_converges() {
        let (rr, r) = (100.0, 100.0 / 1.59);
        let q = Vec3::new(-4e-3 * rr, 0.0, 0.0);
        let (a0, a1, b0, b1) = (0.1, 1.0, std::f64::consts::FRAC_PI_2, 1.5 * std::f64::consts::PI);
        let cfg = TrackerConfig {
            feed_forward: false,
            ..TrackerConfig::default()
        };
        let (lo, hi) = (SVector::<f64, 2>::new(0.0, 0.0), SVector::<f64, 2>::new(1.0, 1.0));
        // (point, S_u, S_v, S_uu, S_uv, S_vv) at parameters (u, v)
        let geo = move |x: &SVector<f64, 2>| {
            let (ku, kv) = (a1 - a0, b1 - b0);
            let (a, b) = (a0 + ku * x[0], b0 + kv * x[1]);
            let (sa, ca, sb, cb) = (a.sin(), a.cos(), b.sin(), b.cos());
            let w = rr + r * cb;
            [
                Vec3::new(w * ca, w * sa, r * sb),
                Vec3::new(-w * sa, w * ca, 0.0) * ku,
                Vec3::new(-r * sb * ca, -r * sb * sa, r * cb) * kv,
                Vec3::new(-w * ca, -w * sa, 0.0) * (ku * ku),
                Vec3::new(r * sb * sa, -r * sb * ca, 0.0) * (ku * kv),
                Vec3::new(-r * cb * ca, -r * cb * sa, -r * sb) * (kv * kv),
            ]
        };
        // (the state is the parameters, `(u, v, 0)`)
        let mut eval = |x: &SVector<f64, 2>| Vec3::new(x[0], x[1], 0.0);
        let local = |s: &Vec3| {
            let [p, su, sv, suu, suv, svv] = geo(&SVector::<f64, 2>::new(s.x, s.y));
            let dr = p - q;
            Local {
                g: SVector::<f64, 2>::new(dr.dot(&su), dr.dot(&sv)),
                hess: SMatrix::<f64, 2, 2>::new(
                    su.dot(&su) + dr.dot(&suu),
                    su.dot(&sv) + dr.dot(&suv),
                    su.dot(&sv) + dr.dot(&suv),
                    sv.dot(&sv) + dr.dot(&svv),
                ),
                metric: SMatrix::<f64, 2, 2>::new(su.dot(&su), su.dot(&sv), su.dot(&sv), sv.dot(&sv)),
                b: SVector::zeros(),
                dist: dr.norm(),
            }
        };
        let taylor = |s: &Vec3, d: &SVector<f64, 2>| Vec3::new(s.x + d[0], s.y + d[1], 0.0);
        let out = track_loop(&cfg, SVector::<f64, 2>::new(0.4, 0.3), &lo, &hi, &mut eval, &local, &taylor);
        // the nearest point of the patch: angle a1 on the inner equator
        let c = Vec3::new((rr - r) * a1.cos(), (rr - r) * a1.sin(), 0.0);
        let exact = (c - q).norm();
        assert!(out.converged, "{out:?}");
        assert_eq!(out.x[0], 1.0, "{out:?}");
        assert!((out.loc.dist - exact).abs() <= 1e-9, "{out:?} {exact}");
        assert!(out.iterations <= 24, "{} iterations", out.iterations);
    }
}

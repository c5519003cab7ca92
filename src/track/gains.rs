//! Gain bounds: the discrete stability window (PG-2005 §VI, PG-GUAS remark 4)
//! and the motion lower bound of PG-GUAS Theorem 1.
//!
//! Discretising `Ψ̇ = −KΨ` with step `h` gives `Ψ_{n+1} = R(−hK) Ψ_n` with the
//! integrator's stability polynomial `R`: Euler `1+z`, RK2 `1+z+z²/2`, RK4
//! `1+z+z²/2+z³/6+z⁴/24`. The iteration is stable while `|R(−hK)| < 1`.

use super::config::Integrator;

/// Stability polynomial `R(z)` of an integrator (for real `z`).
pub fn stability_polynomial(integrator: Integrator, z: f64) -> f64 {
    match integrator {
        Integrator::Euler => 1.0 + z,
        Integrator::Rk2 => 1.0 + z + z * z / 2.0,
        Integrator::Rk4 => 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0,
    }
}

/// Upper end of the stable interval of `hK` for an integrator: 2 for Euler and
/// RK2, ≈ 2.785293563 for RK4 (root of `R(−x) = 1`, found by bisection).
pub fn max_stable_hk(integrator: Integrator) -> f64 {
    // |R(-x)| < 1 on (0, x*) and R(-x*) = ±1; bisection on |R(-x)| - 1.
    let f = |x: f64| stability_polynomial(integrator, -x).abs() - 1.0;
    let (mut lo, mut hi) = (1e-6, 4.0);
    // find hi such that f(hi) >= 0 and f(lo) < 0
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The open gain interval `(0, K_max)` in which the discretised controller
/// `Ψ̇ = −KΨ` is stable for step `h` (s) and the given integrator.
pub fn stable_gain_window(h: f64, integrator: Integrator) -> (f64, f64) {
    (0.0, max_stable_hk(integrator) / h)
}

/// Gain lower bounds of PG-GUAS Theorem 1 for a point moving relative to the
/// patch with speed bound `B = |ω × Q|`: the returned `(K, k_u, k_v)` satisfy
/// `K ≥ Bζ|ΔR| / (α(Ψᵘ²+Ψᵛ²))`, `k_u ≥ Bζ|ΔR| / (G Ψᵛ²)`, `k_v ≥ Bζ|ΔR| / (E Ψᵘ²)`,
/// where `α` is the largest eigenvalue of the first fundamental form
/// `[[E, F], [F, G]]` and `ζ = |ΔR/|ΔR| − N*|`. Infinite where a Ψ is zero.
pub fn motion_gain_lower_bound(
    speed_bound: f64,
    zeta: f64,
    delta_r_norm: f64,
    psi: (f64, f64),
    first_form: (f64, f64, f64),
) -> (f64, f64, f64) {
    let (e, f, g) = first_form;
    let alpha = 0.5 * (e + g) + (0.25 * (e - g) * (e - g) + f * f).sqrt();
    let num = speed_bound * zeta * delta_r_norm;
    let div = |d: f64| if d > 0.0 { num / d } else { f64::INFINITY };
    (
        div(alpha * (psi.0 * psi.0 + psi.1 * psi.1)),
        div(g * psi.1 * psi.1),
        div(e * psi.0 * psi.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_match_the_known_stability_limits() {
        assert!((max_stable_hk(Integrator::Euler) - 2.0).abs() < 1e-9);
        assert!((max_stable_hk(Integrator::Rk2) - 2.0).abs() < 1e-9);
        assert!((max_stable_hk(Integrator::Rk4) - 2.785293563).abs() < 1e-6);
        let (lo, hi) = stable_gain_window(1e-3, Integrator::Rk2);
        assert_eq!(lo, 0.0);
        assert!((hi - 2000.0).abs() < 1e-6);
    }

    #[test]
    fn lower_bound_vanishes_without_motion_and_grows_with_speed() {
        let b0 = motion_gain_lower_bound(0.0, 0.1, 2.0, (0.3, 0.4), (1.0, 0.0, 1.0));
        assert_eq!(b0, (0.0, 0.0, 0.0));
        let b1 = motion_gain_lower_bound(5.0, 0.1, 2.0, (0.3, 0.4), (1.0, 0.0, 1.0));
        assert!((b1.0 - 5.0 * 0.1 * 2.0 / 0.25).abs() < 1e-12);
        assert!(b1.1 > 0.0 && b1.2 > 0.0);
    }
}

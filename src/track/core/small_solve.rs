//! Small dense linear solves on the stack for the controller ([`super`]):
//! the square-root-free Cholesky factorisation [`Chol`] of the reduced
//! Hessian and metric (its pivots are the hybrid law's positive-definiteness
//! test), and Gaussian elimination with partial pivoting for the Newton laws.

use nalgebra::{SMatrix, SVector};

/// Cholesky factorisation of a small symmetric positive-definite matrix in
/// its square-root-free form `m = L D Lᵀ` (`L` unit lower triangular), on
/// the stack, reused for several right-hand sides. The pivots `D` are the
/// squares of the Cholesky diagonal, so the positive-definiteness tests are
/// the same; storing `1/D` makes the factor cost `N` divisions and each solve
/// none.
#[derive(Debug, Clone, Copy)]
pub struct Chol<const N: usize> {
    l: [[f64; N]; N],
    inv_d: [f64; N],
}

impl<const N: usize> Chol<N> {
    /// Factors `m`; `None` unless every pivot `d_j` satisfies
    /// `d_j > 1e-14·m_jj` and `d_j ≥ margin·floor[j]` (the hybrid law's
    /// "safely positive definite" test uses `floor` = the metric diagonal).
    ///
    /// Each pivot is measured against its own diagonal entry, not the
    /// matrix's largest: `d_j / m_jj` is how far row `j` stands from the
    /// span of the rows before it (for a metric, the squared sine of the
    /// angle between `f_v` and `f_u`), which does not depend on how the
    /// parameters are scaled. Against the largest entry, a regular
    /// parametrisation whose derivatives differ in length by 10⁷ (a planar
    /// fan 10⁻⁶ from its apex: |f_u| 3.6e4, |f_v| 2.2e-3, |f_u × f_v| 80)
    /// counted as singular, and the preconditioned law fell back to the raw
    /// gradient, which does not move the short parameter
    /// (iges_3dipsos320's fan caps).
    #[inline(always)]
    pub fn new(m: &SMatrix<f64, N, N>, floor: Option<(&SMatrix<f64, N, N>, f64)>) -> Option<Self> {
        let mut l = [[0.0f64; N]; N];
        // ld[i][k] = L[i][k]·d_k
        let mut ld = [[0.0f64; N]; N];
        let mut inv_d = [0.0f64; N];
        let scale = (0..N).fold(0.0f64, |a, i| a.max(m[(i, i)].abs()));
        if !(scale > 0.0 && scale.is_finite()) {
            return None;
        }
        for j in 0..N {
            let mut d = m[(j, j)];
            for k in 0..j {
                d -= l[j][k] * ld[j][k];
            }
            if !(d > 1e-14 * m[(j, j)] && d > f64::MIN_POSITIVE * scale) {
                return None;
            }
            if let Some((g, margin)) = floor {
                if !(d >= margin * g[(j, j)]) {
                    return None;
                }
            }
            let id = 1.0 / d;
            inv_d[j] = id;
            for i in j + 1..N {
                let mut s = m[(i, j)];
                for k in 0..j {
                    s -= l[i][k] * ld[j][k];
                }
                ld[i][j] = s;
                l[i][j] = s * id;
            }
        }
        Some(Self { l, inv_d })
    }

    /// Solves `L D Lᵀ x = r`; `None` if the result is not finite.
    #[inline(always)]
    pub fn solve(&self, r: &SVector<f64, N>) -> Option<SVector<f64, N>> {
        let l = &self.l;
        let mut y = [0.0f64; N];
        for i in 0..N {
            let mut s = r[i];
            for k in 0..i {
                s -= l[i][k] * y[k];
            }
            y[i] = s;
        }
        let mut x = SVector::<f64, N>::zeros();
        for i in (0..N).rev() {
            let mut s = y[i] * self.inv_d[i];
            for k in i + 1..N {
                s -= l[k][i] * x[k];
            }
            x[i] = s;
        }
        // a plain loop (a range `all` was compiled out of line: ~60
        // instructions per solve in the patch–patch tick)
        let mut finite = true;
        for i in 0..N {
            finite &= x[i].is_finite();
        }
        finite.then_some(x)
    }
}

/// Solves `m x = r` for a symmetric positive-definite `m` (Cholesky, in
/// place on the stack); `None` when `m` is not (numerically) positive definite.
#[inline]
pub fn solve_spd<const N: usize>(m: &SMatrix<f64, N, N>, r: &SVector<f64, N>) -> Option<SVector<f64, N>> {
    Chol::new(m, None)?.solve(r)
}

/// Solves a general `m x = r` (Gaussian elimination with partial pivoting on
/// the stack); `None` when a pivot is below `1e-13` of the matrix scale.
#[inline]
pub fn solve_general<const N: usize>(m: &SMatrix<f64, N, N>, r: &SVector<f64, N>) -> Option<SVector<f64, N>> {
    let scale = m.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    if !(scale > 0.0 && scale.is_finite()) {
        return None;
    }
    let mut a = [[0.0f64; N]; N];
    let mut b = [0.0f64; N];
    for i in 0..N {
        for j in 0..N {
            a[i][j] = m[(i, j)];
        }
        b[i] = r[i];
    }
    for c in 0..N {
        let mut p = c;
        for i in c + 1..N {
            if a[i][c].abs() > a[p][c].abs() {
                p = i;
            }
        }
        if !(a[p][c].abs() > 1e-13 * scale) {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for i in c + 1..N {
            let f = a[i][c] / a[c][c];
            for j in c..N {
                a[i][j] -= f * a[c][j];
            }
            b[i] -= f * b[c];
        }
    }
    let mut x = SVector::<f64, N>::zeros();
    for i in (0..N).rev() {
        let mut s = b[i];
        for j in i + 1..N {
            s -= a[i][j] * x[j];
        }
        x[i] = s / a[i][i];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix2, Vector2, Vector3};

    /// The metric of a planar fan 1.24e-6 from its apex (iges_3dipsos320's
    /// caps): `f_u` 3.6e4 mm long, `f_v` 2.2e-3 mm, at 60°. Regular (the
    /// normal |f_u × f_v| is 69 mm²), so the preconditioned step is the
    /// Gauss–Newton step and reaches an in-plane target in one solve; the
    /// pivot test against the largest diagonal entry called it singular.
    #[test]
    fn a_regular_metric_with_derivatives_of_very_different_lengths_factors() {
        let su = Vector3::new(3.6e4, 0.0, 0.0);
        let sv = Vector3::new(2.2e-3 * 0.5, 2.2e-3 * 0.75f64.sqrt(), 0.0);
        let m = Matrix2::new(su.dot(&su), su.dot(&sv), sv.dot(&su), sv.dot(&sv));
        // the step to a point reached by (du, dv) = (1e-9, 0.3)
        let target = su * 1e-9 + sv * 0.3;
        let r = Vector2::new(su.dot(&target), sv.dot(&target));
        let x = solve_spd(&m, &r).expect("a regular metric factors");
        assert!((x[0] - 1e-9).abs() <= 1e-15 && (x[1] - 0.3).abs() <= 1e-9, "{x:?}");
    }

    /// Derivatives parallel to within 1e-9 rad (a cusp, a collapsed side)
    /// still count as singular, whatever their lengths.
    #[test]
    fn a_metric_of_nearly_parallel_derivatives_does_not_factor() {
        for (a, b) in [(1.0, 1.0), (3.6e4, 2.2e-3)] {
            let su = Vector3::new(a, 0.0, 0.0);
            let sv = Vector3::new(b, b * 1e-9, 0.0);
            let m = Matrix2::new(su.dot(&su), su.dot(&sv), sv.dot(&su), sv.dot(&sv));
            assert!(Chol::new(&m, None).is_none(), "lengths {a} {b}");
        }
    }
}

//! Polynomial B-spline surfaces fitted to a surface known only by
//! evaluation: the offsets of surfaces whose offset has no rational form
//! (general B-spline and ruled B-spline bases; see
//! [`super::nurbs::offset_surface`] for the exact cases).
//!
//! The parameter rectangle is cut into a tensor grid of cells (the basis's
//! own knots first, where the offset loses smoothness with its basis). Each
//! cell is the degree-[`DEGREE`] Bézier patch interpolating the surface at the
//! tensor product of the Chebyshev–Lobatto nodes of its sides; neighbouring
//! cells share their boundary poles (one pole row serves both, so the
//! surface is C0 with no gap). The assembled surface is then checked against
//! the true surface at a `(2n)²` grid of points inside every cell, at the
//! same parameters; the u- and v-intervals of every cell that misses the
//! tolerance are halved and the whole grid is fitted again, up to
//! [`MAX_INTERVALS`] intervals per direction. The parameterisation is the
//! surface's own (identity parameter maps), so the face's trims apply as they
//! are.

use super::fit::{bernstein, node};
use crate::geom::{NurbsSurface, Vec3};

/// Degree of the fitted patches in both directions.
pub const DEGREE: usize = 7;

/// Most intervals per direction before the fit gives up.
pub const MAX_INTERVALS: usize = 64;

/// A fitted surface and its measured deviation.
#[derive(Debug, Clone)]
pub struct SurfaceFit {
    /// Polynomial B-spline of degree [`DEGREE`] in both directions, knots of
    /// multiplicity [`DEGREE`] at the cell boundaries, over the fitted range.
    pub surface: NurbsSurface,
    /// Largest distance to the true surface found at the check points.
    pub max_error: f64,
    /// Cells in u and in v.
    pub cells: (usize, usize),
}

/// Inverse of the Bernstein–Vandermonde matrix `A[i][k] = B_k^n(node_i)`:
/// the Bézier coefficients of the interpolant are `A⁻¹ · values`.
fn interpolation_inverse(n: usize) -> Option<nalgebra::DMatrix<f64>> {
    let a = nalgebra::DMatrix::from_fn(n + 1, n + 1, |i, k| bernstein(n, node(n, i))[k]);
    a.try_inverse()
}

/// Parameters of the `n + 1` nodes of `[a, b]` (ends exact).
fn nodes_of(n: usize, a: f64, b: f64) -> Vec<f64> {
    (0..=n)
        .map(|k| match k {
            0 => a,
            _ if k == n => b,
            _ => a + (b - a) * node(n, k),
        })
        .collect()
}

/// Sorted distinct break values: the range ends plus the interior breaks
/// strictly inside the range.
fn initial_breaks(range: (f64, f64), inner: &[f64]) -> Vec<f64> {
    let (a, b) = range;
    let span = b - a;
    let mut out = vec![a];
    let mut inner: Vec<f64> = inner
        .iter()
        .copied()
        .filter(|t| t.is_finite() && *t > a + 1e-9 * span && *t < b - 1e-9 * span)
        .collect();
    inner.sort_by(f64::total_cmp);
    inner.dedup_by(|x, y| (*x - *y).abs() <= 1e-9 * span);
    out.extend(inner);
    out.push(b);
    out
}

/// Fits `f` (the true surface: `None` where it is undefined) over `range`
/// within `tol`, starting from the cell grid cut at `breaks_u` / `breaks_v`
/// (values outside the range are ignored). Errors name what failed: an
/// undefined point, or the tolerance not reached within [`MAX_INTERVALS`]
/// intervals per direction.
pub fn fit_surface(
    f: &dyn Fn(f64, f64) -> Option<Vec3>,
    range: ((f64, f64), (f64, f64)),
    breaks_u: &[f64],
    breaks_v: &[f64],
    tol: f64,
) -> Result<SurfaceFit, String> {
    let ((u0, u1), (v0, v1)) = range;
    if !(u0.is_finite() && u1.is_finite() && v0.is_finite() && v1.is_finite() && u1 > u0 && v1 > v0) {
        return Err(format!("empty or unbounded range {range:?}"));
    }
    if !(tol > 0.0) {
        return Err(format!("tolerance {tol} is not positive"));
    }
    let n = DEGREE;
    let inv = interpolation_inverse(n).ok_or("singular interpolation matrix")?;
    let mut us = initial_breaks((u0, u1), breaks_u);
    let mut vs = initial_breaks((v0, v1), breaks_v);
    loop {
        let surface = assemble(f, &inv, &us, &vs)?;
        let (max_error, bad_u, bad_v) = check(f, &surface, &us, &vs, tol)?;
        if bad_u.is_empty() && bad_v.is_empty() {
            return Ok(SurfaceFit {
                surface,
                max_error,
                cells: (us.len() - 1, vs.len() - 1),
            });
        }
        if us.len() - 1 + bad_u.len() > MAX_INTERVALS || vs.len() - 1 + bad_v.len() > MAX_INTERVALS {
            return Err(format!(
                "no fit within {tol:.1e} with {MAX_INTERVALS} intervals per direction (error {max_error:.1e})"
            ));
        }
        us = halved(&us, &bad_u);
        vs = halved(&vs, &bad_v);
    }
}

/// `breaks` with the intervals listed in `bad` (sorted indices) halved.
fn halved(breaks: &[f64], bad: &[usize]) -> Vec<f64> {
    let mut out = Vec::with_capacity(breaks.len() + bad.len());
    for (i, w) in breaks.windows(2).enumerate() {
        out.push(w[0]);
        if bad.binary_search(&i).is_ok() {
            out.push(0.5 * (w[0] + w[1]));
        }
    }
    out.extend(breaks.last());
    out
}

/// The interpolating patches of every cell, assembled into one B-spline.
fn assemble(
    f: &dyn Fn(f64, f64) -> Option<Vec3>,
    inv: &nalgebra::DMatrix<f64>,
    us: &[f64],
    vs: &[f64],
) -> Result<NurbsSurface, String> {
    let n = DEGREE;
    let (cu, cv) = (us.len() - 1, vs.len() - 1);
    let (nu, nv) = (cu * n + 1, cv * n + 1);
    let mut poles = vec![[0.0; 3]; nu * nv];
    for (i, wu) in us.windows(2).enumerate() {
        let su = nodes_of(n, wu[0], wu[1]);
        for (j, wv) in vs.windows(2).enumerate() {
            let sv = nodes_of(n, wv[0], wv[1]);
            for c in 0..3 {
                let mut q = nalgebra::DMatrix::zeros(n + 1, n + 1);
                for (a, &u) in su.iter().enumerate() {
                    for (b, &v) in sv.iter().enumerate() {
                        let p = f(u, v).ok_or_else(|| format!("undefined at ({u}, {v})"))?;
                        q[(a, b)] = p[c];
                    }
                }
                let ctrl = inv * q * inv.transpose();
                for a in 0..=n {
                    for b in 0..=n {
                        poles[(i * n + a) * nv + j * n + b][c] = ctrl[(a, b)];
                    }
                }
            }
        }
    }
    let knots = |br: &[f64]| -> Vec<f64> {
        let mut k = vec![br[0]; n + 1];
        for &t in &br[1..br.len() - 1] {
            k.extend(std::iter::repeat(t).take(n));
        }
        k.extend(std::iter::repeat(br[br.len() - 1]).take(n + 1));
        k
    };
    NurbsSurface::try_new(n, n, knots(us), knots(vs), nu, nv, &poles, None).map_err(|e| e.to_string())
}

/// Largest error over every cell's check grid, and the u- and v-interval
/// indices of the cells that miss `tol`. A missing cell is split in the
/// direction its error comes from: on a node line of one direction the
/// interpolant is exact in that direction, so the error at the other
/// direction's check points along it is that direction's alone.
fn check(
    f: &dyn Fn(f64, f64) -> Option<Vec3>,
    s: &NurbsSurface,
    us: &[f64],
    vs: &[f64],
    tol: f64,
) -> Result<(f64, Vec<usize>, Vec<usize>), String> {
    let n = DEGREE;
    let m = 2 * n;
    let err = |u: f64, v: f64| -> Result<f64, String> {
        let p = f(u, v).ok_or_else(|| format!("undefined at ({u}, {v})"))?;
        let e = (s.eval(u, v) - p).norm();
        if e.is_finite() {
            Ok(e)
        } else {
            Err(format!("non-finite fit at ({u}, {v})"))
        }
    };
    let checks = |a: f64, b: f64| -> Vec<f64> { (0..m).map(|k| a + (b - a) * (k as f64 + 0.5) / m as f64).collect() };
    let (mut worst, mut bad_u, mut bad_v) = (0.0f64, Vec::new(), Vec::new());
    for (i, wu) in us.windows(2).enumerate() {
        let (cu, nu) = (checks(wu[0], wu[1]), nodes_of(n, wu[0], wu[1]));
        for (j, wv) in vs.windows(2).enumerate() {
            let (cv, nv) = (checks(wv[0], wv[1]), nodes_of(n, wv[0], wv[1]));
            let mut cell = 0.0f64;
            for &u in &cu {
                for &v in &cv {
                    cell = cell.max(err(u, v)?);
                }
            }
            worst = worst.max(cell);
            if cell <= tol {
                continue;
            }
            let (mut e_u, mut e_v) = (0.0f64, 0.0f64);
            for &v in &nv[1..n] {
                for &u in &cu {
                    e_u = e_u.max(err(u, v)?);
                }
            }
            for &u in &nu[1..n] {
                for &v in &cv {
                    e_v = e_v.max(err(u, v)?);
                }
            }
            let (split_u, split_v) = (e_u > 0.25 * tol, e_v > 0.25 * tol);
            if split_u || !split_v {
                bad_u.push(i);
            }
            if split_v || !split_u {
                bad_v.push(j);
            }
        }
    }
    bad_u.sort_unstable();
    bad_u.dedup();
    bad_v.sort_unstable();
    bad_v.dedup();
    Ok((worst, bad_u, bad_v))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A polynomial surface of degree ≤ 7 is reproduced exactly by one cell.
    #[test]
    fn a_polynomial_within_the_degree_is_reproduced_by_one_cell() {
        let f = |u: f64, v: f64| Some(Vec3::new(u * u * v, u.powi(7) - v.powi(3), 2.0 * u * v.powi(5) + 1.0));
        let r = fit_surface(&f, ((-1.0, 2.0), (0.5, 1.5)), &[], &[], 1e-12).unwrap();
        assert_eq!(r.cells, (1, 1));
        assert!(r.max_error <= 1e-12, "{}", r.max_error);
        for (u, v) in [(-1.0, 0.5), (2.0, 1.5), (0.3, 0.77), (1.9, 0.51)] {
            let e = (r.surface.eval(u, v) - f(u, v).unwrap()).norm();
            assert!(e <= 1e-12, "({u},{v}): {e}");
        }
    }

    /// A non-polynomial surface (a sphere patch) is refined until within the
    /// tolerance, and the result stays within it between check points too.
    #[test]
    fn a_sphere_patch_is_refined_to_the_tolerance() {
        let f = |u: f64, v: f64| Some(Vec3::new(v.cos() * u.cos(), v.cos() * u.sin(), v.sin()) * 3.0);
        let tol = 1e-10;
        let r = fit_surface(&f, ((0.0, 3.0), (-1.2, 1.2)), &[1.0], &[], tol).unwrap();
        assert!(r.cells.0 >= 2, "{:?}", r.cells);
        assert!(r.max_error <= tol);
        let mut worst = 0.0f64;
        for a in 0..=97 {
            for b in 0..=89 {
                let (u, v) = (3.0 * a as f64 / 97.0, -1.2 + 2.4 * b as f64 / 89.0);
                worst = worst.max((r.surface.eval(u, v) - f(u, v).unwrap()).norm());
            }
        }
        assert!(worst <= 2.0 * tol, "{worst}");
    }

    /// A cell is split only in the direction its error comes from.
    #[test]
    fn cells_are_split_in_the_direction_of_the_error() {
        let f = |u: f64, v: f64| Some(Vec3::new(u, v * v, (4.0 * u).sin() + v));
        let r = fit_surface(&f, ((0.0, 3.0), (0.0, 5.0)), &[], &[], 1e-11).unwrap();
        assert!(r.cells.0 > 1 && r.cells.1 == 1, "{:?}", r.cells);
        let g = |u: f64, v: f64| Some(Vec3::new(u, v, (3.0 * v).cos() * u));
        let r = fit_surface(&g, ((0.0, 3.0), (0.0, 5.0)), &[], &[], 1e-11).unwrap();
        assert!(r.cells.0 == 1 && r.cells.1 > 1, "{:?}", r.cells);
    }

    #[test]
    fn undefined_points_and_bad_ranges_are_errors() {
        let f = |u: f64, _: f64| (u < 0.5).then(|| Vec3::new(u, 0.0, 0.0));
        assert!(fit_surface(&f, ((0.0, 1.0), (0.0, 1.0)), &[], &[], 1e-9)
            .unwrap_err()
            .contains("undefined"));
        let g = |u: f64, v: f64| Some(Vec3::new(u, v, 0.0));
        assert!(fit_surface(&g, ((1.0, 1.0), (0.0, 1.0)), &[], &[], 1e-9).is_err());
        assert!(fit_surface(&g, ((0.0, f64::INFINITY), (0.0, 1.0)), &[], &[], 1e-9).is_err());
        // a kink (|u|) cannot be fitted by polynomials across it without a break
        let k = |u: f64, v: f64| Some(Vec3::new(u, v, (u - 0.3).abs().sqrt()));
        assert!(fit_surface(&k, ((0.0, 1.0), (0.0, 1.0)), &[], &[], 1e-12)
            .unwrap_err()
            .contains("no fit"));
    }
}

//! Oriented boxes of the far phase's cells: a tight lower bound on the
//! distance from a point to everything in a cell.
//!
//! A cell's axis-aligned box of control points bounds a tilted or curved
//! sub-patch loosely: over a nearly flat cell seen from above, the box of a
//! tilted cell reaches up to the query long before the surface does, so a
//! non-convex piece's cells near a tracked witness all keep box bounds
//! below the answer and the far phase solves them again and again (on a
//! dense freeform blade, hundreds of cells per update). The oriented box
//! ([`OrientedBox`]) has its normal axis along the cell's corner normal and
//! its first tangent along the corner chords, and holds every control
//! point (the rational patch lies in their convex hull: positive weights),
//! so its thickness is the cell's sag and `dist(q, box)` is within the sag
//! of the true distance. Built once per cell with the scene's geometry
//! ([`OrientedBox::of_patch`], [`OrientedBox::of_curve`]).
//!
//! The bound is made safe against rounding by growing the half-extents by
//! a relative margin ([`MARGIN`]) of the box's size and position.

use super::boxes::max_of;
use crate::geom::Vec3;

/// Relative growth of the half-extents (of the box's centre magnitude and size) against rounding.
pub const MARGIN: f64 = 1e-12;

/// A box with orthonormal axes holding a cell's control points (body-local).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrientedBox {
    /// Centre.
    pub center: Vec3,
    /// Orthonormal axes (rows of the rotation into the box frame).
    pub axes: [Vec3; 3],
    /// Half-extents along the axes (grown by [`MARGIN`]).
    pub half: Vec3,
}

impl OrientedBox {
    /// The box with axes `axes` (orthonormal) holding `points`; `None` when
    /// a point is not finite or there are none.
    pub fn holding(points: &[Vec3], axes: [Vec3; 3]) -> Option<Self> {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for p in points {
            for k in 0..3 {
                let x = axes[k].dot(p);
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
            }
        }
        if !(lo.iter().chain(hi.iter()).all(|x| x.is_finite())) {
            return None;
        }
        let c = Vec3::new(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]));
        let center = axes[0] * c[0] + axes[1] * c[1] + axes[2] * c[2];
        let size = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f64, f64::max);
        let scale = center.amax().max(c.amax()) + size;
        let margin = MARGIN * scale;
        let half = Vec3::new(
            0.5 * (hi[0] - lo[0]) + margin,
            0.5 * (hi[1] - lo[1]) + margin,
            0.5 * (hi[2] - lo[2]) + margin,
        );
        Some(Self { center, axes, half })
    }

    /// The box of a Bézier patch's homogeneous control net (`du + 1` rows
    /// of `dv + 1` poles `[wx, wy, wz, w]`), with its normal axis along the
    /// corner chords' cross product and its first tangent along the `u`
    /// chords. Falls back to the world axes where the chords are degenerate.
    pub fn of_patch(du: usize, dv: usize, poles: &[[f64; 4]]) -> Option<Self> {
        let pts: Vec<Vec3> = poles
            .iter()
            .map(|h| Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]))
            .collect();
        if pts.len() != (du + 1) * (dv + 1) {
            return None;
        }
        let at = |i: usize, j: usize| pts[i * (dv + 1) + j];
        let a = (at(du, 0) - at(0, 0)) + (at(du, dv) - at(0, dv));
        let b = (at(0, dv) - at(0, 0)) + (at(du, dv) - at(du, 0));
        Self::holding(&pts, frame(a, b))
    }

    /// The boxes of a Bézier patch's four quarters (halved in `u` and `v`
    /// by de Casteljau), each as [`of_patch`](Self::of_patch).
    pub fn of_quarters(du: usize, dv: usize, poles: &[[f64; 4]]) -> Option<[Self; 4]> {
        use crate::geom::bernstein::{split_u, split_v};
        if poles.len() != (du + 1) * (dv + 1) {
            return None;
        }
        let (a, b) = split_u(du, dv, poles, 0.5);
        let (a0, a1) = split_v(du, dv, &a, 0.5);
        let (b0, b1) = split_v(du, dv, &b, 0.5);
        Some([
            Self::of_patch(du, dv, &a0)?,
            Self::of_patch(du, dv, &a1)?,
            Self::of_patch(du, dv, &b0)?,
            Self::of_patch(du, dv, &b1)?,
        ])
    }

    /// The box of a curve span's homogeneous control points, with its first
    /// axis along the chord.
    pub fn of_curve(poles: &[[f64; 4]]) -> Option<Self> {
        let pts: Vec<Vec3> = poles
            .iter()
            .map(|h| Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]))
            .collect();
        let (first, last) = (*pts.first()?, *pts.last()?);
        let a = last - first;
        // any second direction not along the chord
        let k = a.iamin();
        let mut e = Vec3::zeros();
        e[k] = 1.0;
        Self::holding(&pts, frame(a, e))
    }

    /// The axis-aligned box `[lo, hi]` as an oriented box (world axes).
    pub fn aabb(lo: &Vec3, hi: &Vec3) -> Self {
        Self::holding(&[*lo, *hi], [Vec3::x(), Vec3::y(), Vec3::z()]).unwrap_or(Self {
            center: (lo + hi) * 0.5,
            axes: [Vec3::x(), Vec3::y(), Vec3::z()],
            half: Vec3::repeat(f64::INFINITY),
        })
    }

    /// Squared distance from `q` to the box (0 inside): a lower bound on
    /// the squared distance to anything the box holds.
    #[inline]
    pub fn dist2(&self, q: &Vec3) -> f64 {
        let r = q - self.center;
        let mut s = 0.0;
        for k in 0..3 {
            let d = max_of(self.axes[k].dot(&r).abs() - self.half[k], 0.0);
            s += d * d;
        }
        s
    }
}

/// An orthonormal frame `[t1, t2, n]` with `t1` along `a` and `n` along
/// `a × b`; the world axes when `a` and `b` do not span a plane.
fn frame(a: Vec3, b: Vec3) -> [Vec3; 3] {
    let n = a.cross(&b);
    let (an, nn) = (a.norm(), n.norm());
    if !(an > 0.0 && nn > 1e-12 * an * b.norm() && an.is_finite() && nn.is_finite()) {
        return [Vec3::x(), Vec3::y(), Vec3::z()];
    }
    let t1 = a / an;
    let n = n / nn;
    let t2 = n.cross(&t1);
    [t1, t2, n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilted_flat_patch_gets_a_thin_box() {
        // a bilinear patch in the plane x + y + z = 0 (tilted against every world axis)
        let p = |u: f64, v: f64| {
            let (a, b) = (Vec3::new(1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, -2.0));
            a * u + b * v
        };
        let poles: Vec<[f64; 4]> = [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]
            .iter()
            .map(|&(u, v)| {
                let x = p(u, v);
                [2.0 * x.x, 2.0 * x.y, 2.0 * x.z, 2.0]
            })
            .collect();
        let b = OrientedBox::of_patch(1, 1, &poles).unwrap();
        assert!(b.half[2] < 1e-9, "thickness {}", b.half[2]);
        // a point 0.5 above the plane's centre: the bound is 0.5 (the axis-aligned box gives 0)
        let n = Vec3::new(1.0, 1.0, 1.0).normalize();
        let q = p(0.5, 0.5) + n * 0.5;
        assert!((b.dist2(&q).sqrt() - 0.5).abs() < 1e-9);
        // every control point is inside
        for h in &poles {
            let x = Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
            assert_eq!(b.dist2(&x), 0.0);
        }
    }

    #[test]
    fn quarters_hold_the_patch_and_bound_tighter() {
        // a biquadratic cap z = 1 − x² − y² over [−1, 1]² (polynomial Bézier, unit weights)
        let ctrl = [-1.0, 0.0, 1.0];
        let mut poles = Vec::new();
        for (i, &x) in ctrl.iter().enumerate() {
            for (j, &y) in ctrl.iter().enumerate() {
                // (2u − 1)² = B0 − B1 + B2: control heights 1 − cx − cy
                let cx = if i == 1 { -1.0 } else { 1.0 };
                let cy = if j == 1 { -1.0 } else { 1.0 };
                poles.push([x, y, 1.0 - cx - cy, 1.0]);
            }
        }
        let whole = OrientedBox::of_patch(2, 2, &poles).unwrap();
        let quarters = OrientedBox::of_quarters(2, 2, &poles).unwrap();
        let f = |u: f64, v: f64| {
            let (x, y) = (2.0 * u - 1.0, 2.0 * v - 1.0);
            Vec3::new(x, y, 1.0 - x * x - y * y)
        };
        for i in 0..=20 {
            for j in 0..=20 {
                let p = f(i as f64 / 20.0, j as f64 / 20.0);
                assert_eq!(whole.dist2(&p), 0.0);
                assert!(quarters.iter().any(|b| b.dist2(&p) == 0.0), "{p:?} in no quarter");
            }
        }
        // above the apex the quarters' bound is the tighter one, and still a lower bound
        let q = Vec3::new(0.0, 0.0, 3.0);
        let qb = quarters.iter().map(|b| b.dist2(&q)).fold(f64::INFINITY, f64::min).sqrt();
        assert!(qb > whole.dist2(&q).sqrt() && qb <= 2.0 + 1e-12, "quarters {qb}");
    }

    #[test]
    fn curve_box_is_a_lower_bound() {
        let poles = [[0.0, 0.0, 0.0, 1.0], [1.0, 2.0, 0.0, 1.0], [3.0, 3.0, 1.0, 1.0]];
        let b = OrientedBox::of_curve(&poles).unwrap();
        // sample the quadratic Bézier: the bound never exceeds the distance
        let q = Vec3::new(-2.0, 5.0, 1.5);
        for i in 0..=50 {
            let t = i as f64 / 50.0;
            let (a0, a1, a2) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t), t * t);
            let x = Vec3::new(
                a1 * poles[1][0] + a2 * poles[2][0] + a0 * poles[0][0],
                a1 * poles[1][1] + a2 * poles[2][1],
                a2 * poles[2][2],
            );
            assert!(b.dist2(&q) <= (q - x).norm_squared() + 1e-12);
            assert_eq!(b.dist2(&x), 0.0);
        }
    }

    #[test]
    fn degenerate_and_bad_input() {
        // all points equal: world axes, a point box
        let b = OrientedBox::of_curve(&[[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]).unwrap();
        assert!((b.dist2(&Vec3::new(1.0, 1.0, 3.0)) - 4.0).abs() < 1e-9);
        assert!(OrientedBox::of_curve(&[[f64::NAN, 0.0, 0.0, 1.0]]).is_none());
        assert!(OrientedBox::of_curve(&[]).is_none());
        assert!(OrientedBox::of_patch(1, 1, &[[0.0, 0.0, 0.0, 1.0]]).is_none());
    }
}

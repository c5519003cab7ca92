//! Affine maps: IGES 124 transformation matrices, their chains, the unit
//! scale, and 2-D maps from IGES parameter spaces to the Model's.

use crate::geom::Vec3;
use nalgebra::{Matrix2, Matrix3, Vector2};

/// `x ↦ m x + t` in 3-D.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine {
    /// Linear part.
    pub m: Matrix3<f64>,
    /// Translation.
    pub t: Vec3,
}

impl Affine {
    /// The identity.
    pub fn identity() -> Self {
        Self {
            m: Matrix3::identity(),
            t: Vec3::zeros(),
        }
    }
    /// Uniform scale about the origin.
    pub fn scale(s: f64) -> Self {
        Self {
            m: Matrix3::identity() * s,
            t: Vec3::zeros(),
        }
    }
    /// `self ∘ other` (apply `other` first).
    pub fn then_inner(&self, inner: &Affine) -> Affine {
        Affine {
            m: self.m * inner.m,
            t: self.m * inner.t + self.t,
        }
    }
    /// Image of a point.
    #[inline]
    pub fn point(&self, p: &Vec3) -> Vec3 {
        self.m * p + self.t
    }
    /// Image of a vector.
    #[inline]
    pub fn vector(&self, v: &Vec3) -> Vec3 {
        self.m * v
    }
    /// `Some(s)` when the map is a similarity `s·R` (R orthogonal, possibly a reflection).
    pub fn similarity(&self) -> Option<f64> {
        let mtm = self.m.transpose() * self.m;
        let s2 = mtm.trace() / 3.0;
        if !(s2 > 0.0 && s2.is_finite()) {
            return None;
        }
        let dev = (mtm - Matrix3::identity() * s2).abs().max();
        (dev <= 1e-6 * s2).then(|| s2.sqrt())
    }
    /// True when the linear part reverses orientation.
    pub fn is_reflection(&self) -> bool {
        self.m.determinant() < 0.0
    }
    /// True when every entry is finite.
    pub fn is_finite(&self) -> bool {
        self.m.iter().chain(self.t.iter()).all(|x| x.is_finite())
    }
}

/// `(u, v) ↦ m (u, v) + t`: from an IGES surface's parameter space to the Model surface's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Map2 {
    /// Linear part.
    pub m: Matrix2<f64>,
    /// Offset.
    pub t: Vector2<f64>,
}

impl Map2 {
    /// The identity.
    pub fn identity() -> Self {
        Self {
            m: Matrix2::identity(),
            t: Vector2::zeros(),
        }
    }
    /// Scale u and v separately.
    pub fn scale(su: f64, sv: f64) -> Self {
        Self {
            m: Matrix2::new(su, 0.0, 0.0, sv),
            t: Vector2::zeros(),
        }
    }
    /// Swap u and v.
    pub fn swap() -> Self {
        Self {
            m: Matrix2::new(0.0, 1.0, 1.0, 0.0),
            t: Vector2::zeros(),
        }
    }
    /// True when the map mirrors the parameter plane (negative
    /// determinant): the surface normal `S_u × S_v` changes sign.
    pub fn mirrors(&self) -> bool {
        self.m.determinant() < 0.0
    }
    /// True for the identity.
    pub fn is_identity(&self) -> bool {
        *self == Self::identity()
    }
    /// The image of the parameter point `(p.x, p.y)`, as `(u, v, 0)`.
    pub fn point(&self, p: &Vec3) -> Vec3 {
        let q = self.m * Vector2::new(p.x, p.y) + self.t;
        Vec3::new(q.x, q.y, 0.0)
    }
    /// The image of the parameter vector `(p.x, p.y)` (linear part only), as `(du, dv, 0)`.
    pub fn vector(&self, p: &Vec3) -> Vec3 {
        let q = self.m * Vector2::new(p.x, p.y);
        Vec3::new(q.x, q.y, 0.0)
    }
    /// `Some(k)` when the map is `k` times an isometry of the plane (its
    /// columns of equal length `k` and orthogonal, within 1e-12 relative).
    pub fn similarity(&self) -> Option<f64> {
        let (c0, c1) = (self.m.column(0).norm(), self.m.column(1).norm());
        let dot = self.m.column(0).dot(&self.m.column(1));
        ((c0 - c1).abs() <= 1e-12 * c0 && dot.abs() <= 1e-12 * c0 * c1).then_some(c0)
    }
    /// The same map as a 3-D affine map acting on `(u, v, 0)`.
    pub fn to_affine(self) -> Affine {
        let m = Matrix3::new(
            self.m[(0, 0)],
            self.m[(0, 1)],
            0.0,
            self.m[(1, 0)],
            self.m[(1, 1)],
            0.0,
            0.0,
            0.0,
            1.0,
        );
        Affine {
            m,
            t: Vec3::new(self.t.x, self.t.y, 0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composition_order_and_similarity() {
        let a = Affine {
            m: Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0),
            t: Vec3::new(1.0, 0.0, 0.0),
        };
        let s = Affine::scale(2.0);
        let c = s.then_inner(&a);
        let p = c.point(&Vec3::new(1.0, 0.0, 0.0));
        assert_eq!(p, Vec3::new(2.0, 2.0, 0.0));
        assert!((c.similarity().unwrap() - 2.0).abs() < 1e-12);
        let shear = Affine {
            m: Matrix3::new(1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
            t: Vec3::zeros(),
        };
        assert!(shear.similarity().is_none());
    }
}

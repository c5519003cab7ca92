//! Rigid poses from the scene's body placements (3×4 `[R | t]`),
//! re-orthonormalised.

use crate::geom::Pose;
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};

/// Rigid pose from a 3×4 row-major `[R | t]`, re-orthonormalised (files
/// store rotations to ~1e-13).
pub fn pose_from_placement(m: &[f64; 12]) -> Pose {
    // Gram–Schmidt on the columns: `Rotation3::from_matrix` iterates from
    // the identity and stalls on half turns (trace −1), leaving them unrotated
    let c0 = Vector3::new(m[0], m[4], m[8]);
    let c1 = Vector3::new(m[1], m[5], m[9]);
    let x = c0.try_normalize(1e-300).unwrap_or_else(Vector3::x);
    let y = (c1 - x * x.dot(&c1))
        .try_normalize(1e-300)
        .unwrap_or_else(|| x.cross(&Vector3::z()).try_normalize(1e-300).unwrap_or_else(Vector3::y));
    let z = x.cross(&y);
    let rot = Rotation3::from_matrix_unchecked(Matrix3::from_columns(&[x, y, z]));
    Pose::from_parts(
        Vector3::new(m[3], m[7], m[11]),
        UnitQuaternion::from_rotation_matrix(&rot),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;

    #[test]
    fn placement_half_turn_is_kept() {
        // a 180° rotation (x → −z, y → −y, z → −x) with a translation: the
        // autocad2000_as1 nuts and bolts, left unrotated by an iterative fit
        let m = [0.0, 0.0, -1.0, 132.5, 0.0, -1.0, 0.0, 62.0, -1.0, 0.0, 0.0, -1.5];
        let pose = pose_from_placement(&m);
        let p = Vec3::new(1.0, 2.0, 3.0);
        let got = pose.transform_point(&p);
        let want = Vec3::new(-3.0 + 132.5, -2.0 + 62.0, -1.0 - 1.5);
        assert!((got - want).norm() < 1e-12, "{got:?} vs {want:?}");
        // and a slightly non-orthonormal general rotation stays close to it
        let r = Rotation3::from_euler_angles(0.3, -1.2, 2.9);
        let a = r.matrix();
        let e = 1e-13;
        let m = [
            a[(0, 0)] + e,
            a[(0, 1)],
            a[(0, 2)],
            1.0,
            a[(1, 0)],
            a[(1, 1)] - e,
            a[(1, 2)],
            2.0,
            a[(2, 0)],
            a[(2, 1)],
            a[(2, 2)] + e,
            3.0,
        ];
        let pose = pose_from_placement(&m);
        let got = pose.transform_point(&p);
        let want = r * p + Vec3::new(1.0, 2.0, 3.0);
        assert!((got - want).norm() < 1e-11, "{got:?} vs {want:?}");
    }
}

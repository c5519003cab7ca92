//! Reference geometry shared by the trackers' tests, the benchmarks and the demo.

use super::NurbsSurface;

/// Control points of PG-GUAS Table I, in the printed order (all weights 1).
const TABLE1_POINTS: [[f64; 3]; 25] = [
    [0.0, 0.0, 0.0],
    [3.0, 0.0, 2.0],
    [5.0, 0.0, 3.0],
    [8.0, 0.0, 3.0],
    [10.0, 0.0, 0.0],
    [1.0, 3.0, 3.0],
    [3.0, 3.0, 5.0],
    [5.0, 3.0, 6.0],
    [8.0, 3.0, 5.0],
    [9.0, 3.0, 3.0],
    [2.0, 5.0, 5.0],
    [3.0, 5.0, 7.0],
    [5.0, 5.0, 8.0],
    [8.0, 5.0, 7.0],
    [8.0, 5.0, 5.0],
    [1.0, 8.0, 3.0],
    [3.0, 8.0, 5.0],
    [5.0, 8.0, 6.0],
    [8.0, 8.0, 5.0],
    [9.0, 8.0, 3.0],
    [0.0, 10.0, 0.0],
    [3.0, 10.0, 2.0],
    [5.0, 10.0, 3.0],
    [8.0, 10.0, 2.0],
    [10.0, 10.0, 0.0],
];

/// The convex test patch of PG-GUAS Table I (used in its Figs. 5–7).
///
/// The paper prints "order [3 3]", 5×5 control points and knots
/// `[0 0 0 1 1 1]`; these are inconsistent (one clamped span with 5 poles per
/// direction needs degree 4). Like `fixtures/table1_patch.step`
/// and the oracle README ("Interpretation of the Table 1 patch"), this is the
/// **degree 4 × 4 polynomial Bézier patch** on `[0,1]²` (knots
/// `[0 0 0 0 0 1 1 1 1 1]`) whose pole `(i, j)` is printed point `5i + j`,
/// `i` the u index. So u runs along +y, v along +x, `S(0,1) = (10,0,0)`,
/// `S(1,0) = (0,10,0)`, `S(½,½) ≈ (5.25, 5.25, 5.516)` and `f_u × f_v` points
/// to −z. The patch is slightly non-convex along the u = 0 edge and part of
/// the v = 1 edge (Gaussian curvature down to −0.004).
pub fn table1_patch() -> NurbsSurface {
    let cw = TABLE1_POINTS.iter().map(|p| [p[0], p[1], p[2], 1.0]).collect();
    match NurbsSurface::bezier(4, 4, cw) {
        Ok(s) => s,
        // The constant data above is valid; this arm is unreachable.
        Err(e) => unreachable!("Table I patch is valid: {e}"),
    }
}

/// A rational biquadratic NURBS ellipsoid with semi-axes `(a, b, c)` as one
/// closed patch (9 × 5 poles): `u` goes around the z axis starting on the
/// `seam_x`·x side (`seam_x = ±1`, so the seam faces that side), `v` from the
/// south to the north pole. The PG-2002 ellipsoids are `(3, 2, 1.5)` and
/// `(2, 1, 1)`. Tracking stays away from the seam and poles when the other
/// body is on the opposite side.
pub fn ellipsoid(a: f64, b: f64, c: f64, seam_x: f64) -> NurbsSurface {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    // full unit circle, 9 poles (x, y, w), starting at (-1, 0)
    let circle: [[f64; 3]; 9] = [
        [-1., 0., 1.],
        [-1., -1., s],
        [0., -1., 1.],
        [1., -1., s],
        [1., 0., 1.],
        [1., 1., s],
        [0., 1., 1.],
        [-1., 1., s],
        [-1., 0., 1.],
    ];
    // half meridian (radius, z, w), 5 poles
    let prof: [[f64; 3]; 5] = [[0., -1., 1.], [1., -1., s], [1., 0., 1.], [1., 1., s], [0., 1., 1.]];
    let mut cw = Vec::with_capacity(45);
    for ci in circle.iter() {
        for pj in prof.iter() {
            let w = ci[2] * pj[2];
            let p = [-seam_x * a * ci[0] * pj[0], -seam_x * b * ci[1] * pj[0], c * pj[1]];
            cw.push([p[0] * w, p[1] * w, p[2] * w, w]);
        }
    }
    let ku = vec![0., 0., 0., 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1., 1., 1.];
    let kv = vec![0., 0., 0., 0.5, 0.5, 1., 1., 1.];
    match NurbsSurface::try_from_homogeneous(2, 2, ku, kv, 9, 5, cw) {
        Ok(s) => s,
        // constant, valid data: positive weights, consistent knots
        Err(e) => unreachable!("ellipsoid NURBS is valid: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;

    #[test]
    fn table1_corners_centre_and_orientation() {
        let s = table1_patch();
        assert!(!s.rational && s.is_bezier() && s.degree_u == 4 && s.degree_v == 4);
        assert_eq!(s.eval(0.0, 1.0), Vec3::new(10.0, 0.0, 0.0));
        assert_eq!(s.eval(1.0, 0.0), Vec3::new(0.0, 10.0, 0.0));
        let c = s.eval_derivs(0.5, 0.5);
        assert!((c.p - Vec3::new(5.25, 5.25, 5.516)).norm() < 1e-3, "{}", c.p);
        assert!(c.normal_raw().z < 0.0);
    }

    /// Reads the B_SPLINE_SURFACE_WITH_KNOTS of the OCCT-written fixture and
    /// compares degrees, pole order and coordinates with [`table1_patch`].
    #[test]
    fn table1_matches_the_step_fixture() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/table1_patch.step");
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("skipping: {} not found", path.display());
            return;
        };
        let points: std::collections::HashMap<&str, [f64; 3]> = text
            .lines()
            .filter_map(|l| {
                let (id, rest) = l.split_once(" = CARTESIAN_POINT('',(")?;
                let nums: Vec<f64> = rest
                    .split(')')
                    .next()?
                    .split(',')
                    .filter_map(|x| x.trim().parse().ok())
                    .collect();
                (nums.len() == 3).then(|| (id.trim(), [nums[0], nums[1], nums[2]]))
            })
            .collect();
        let start = text
            .find("B_SPLINE_SURFACE_WITH_KNOTS('',4,4,(")
            .expect("degree-4 surface in the fixture");
        let body = &text[start..];
        let list = &body[..body.find(")),").expect("end of pole list")];
        let ids: Vec<&str> = list
            .split(|c: char| c == '(' || c == ')' || c == ',' || c.is_whitespace())
            .filter(|t| t.starts_with('#'))
            .collect();
        assert_eq!(ids.len(), 25);
        let s = table1_patch();
        for (k, id) in ids.iter().enumerate() {
            let p = points[id];
            assert_eq!(s.pole(k / 5, k % 5), Vec3::new(p[0], p[1], p[2]), "pole {k} ({id})");
        }
        assert!(
            body.contains("(5,5),(5,5),(0.,1.),(0.,1.)"),
            "knots [0 x5, 1 x5] in both directions"
        );
        // the oracle README's centre value
        let c = s.eval(0.5, 0.5);
        assert!((c - Vec3::new(5.25, 5.25, 5.516)).norm() < 1e-3);
    }
}

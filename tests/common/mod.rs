//! Shared test helpers.
#![allow(dead_code)]

use extrack::geom::NurbsSurface;

/// PG-GUAS Table I patch as a degree-4 Bézier (see geom fixtures note: the
/// printed order [3 3] with knots [0 0 0 1 1 1] is inconsistent with 5×5 poles).
pub fn table1() -> NurbsSurface {
    let pts: [[f64; 3]; 25] = [
        [0., 0., 0.],
        [3., 0., 2.],
        [5., 0., 3.],
        [8., 0., 3.],
        [10., 0., 0.],
        [1., 3., 3.],
        [3., 3., 5.],
        [5., 3., 6.],
        [8., 3., 5.],
        [9., 3., 3.],
        [2., 5., 5.],
        [3., 5., 7.],
        [5., 5., 8.],
        [8., 5., 7.],
        [8., 5., 5.],
        [1., 8., 3.],
        [3., 8., 5.],
        [5., 8., 6.],
        [8., 8., 5.],
        [9., 8., 3.],
        [0., 10., 0.],
        [3., 10., 2.],
        [5., 10., 3.],
        [8., 10., 2.],
        [10., 10., 0.],
    ];
    let k = vec![0., 0., 0., 0., 0., 1., 1., 1., 1., 1.];
    NurbsSurface::try_new(4, 4, k.clone(), k, 5, 5, &pts, None).expect("table1")
}

/// A rational biquadratic NURBS ellipsoid with semi-axes `(a, b, c)`, one
/// patch (u around the z axis starting at `seam_x`·x, so the seam faces that
/// side, `seam_x = ±1`; v from the south to the north pole).
pub fn ellipsoid(a: f64, b: f64, c: f64, seam_x: f64) -> NurbsSurface {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    // full circle, 9 poles, starting at (-1, 0)
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
    // half meridian (x = radius, z), 5 poles
    let prof: [[f64; 3]; 5] = [[0., -1., 1.], [1., -1., s], [1., 0., 1.], [1., 1., s], [0., 1., 1.]];
    let mut pts = Vec::new();
    let mut w = Vec::new();
    for ci in circle.iter() {
        for pj in prof.iter() {
            pts.push([-seam_x * a * ci[0] * pj[0], -seam_x * b * ci[1] * pj[0], c * pj[1]]);
            w.push(ci[2] * pj[2]);
        }
    }
    let ku = vec![0., 0., 0., 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1., 1., 1.];
    let kv = vec![0., 0., 0., 0.5, 0.5, 1., 1., 1.];
    NurbsSurface::try_new(2, 2, ku, kv, 9, 5, &pts, Some(&w)).expect("ellipsoid")
}

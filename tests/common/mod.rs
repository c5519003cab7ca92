//! Shared test helpers.
#![allow(dead_code)]

use extrack::geom::NurbsSurface;

/// PG-GUAS Table I patch as a degree-4 Bézier (see geom fixtures note: the
/// printed order [3 3] with knots [0 0 0 1 1 1] is inconsistent with 5×5 poles).
pub fn table1() -> NurbsSurface {
    let pts: [[f64; 3]; 25] = [
        [0., 0., 0.], [3., 0., 2.], [5., 0., 3.], [8., 0., 3.], [10., 0., 0.],
        [1., 3., 3.], [3., 3., 5.], [5., 3., 6.], [8., 3., 5.], [9., 3., 3.],
        [2., 5., 5.], [3., 5., 7.], [5., 5., 8.], [8., 5., 7.], [8., 5., 5.],
        [1., 8., 3.], [3., 8., 5.], [5., 8., 6.], [8., 8., 5.], [9., 8., 3.],
        [0., 10., 0.], [3., 10., 2.], [5., 10., 3.], [8., 10., 2.], [10., 10., 0.],
    ];
    let k = vec![0., 0., 0., 0., 0., 1., 1., 1., 1., 1.];
    NurbsSurface::try_new(4, 4, k.clone(), k, 5, 5, &pts, None).expect("table1")
}

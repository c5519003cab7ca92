//! Shared test helpers: the embedded reference models.
#![allow(dead_code)]

use extrack::geom::NurbsSurface;

/// PG-GUAS Table I patch (see `extrack::geom::fixtures::table1_patch`).
pub fn table1() -> NurbsSurface {
    extrack::geom::fixtures::table1_patch()
}

/// NURBS ellipsoid (see `extrack::geom::fixtures::ellipsoid`).
pub fn ellipsoid(a: f64, b: f64, c: f64, seam_x: f64) -> NurbsSurface {
    extrack::geom::fixtures::ellipsoid(a, b, c, seam_x)
}

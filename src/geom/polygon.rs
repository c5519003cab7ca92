//! Planar polygons: containment of a parameter point in closed polygons.

/// Even-odd containment of `(s, t)` in closed polygons.
pub fn polygons_contain(polys: &[Vec<[f64; 2]>], s: f64, t: f64) -> bool {
    let mut inside = false;
    for poly in polys {
        let n = poly.len();
        for i in 0..n {
            let a = poly[i];
            let b = poly[(i + 1) % n];
            if (a[1] > t) != (b[1] > t) && s < a[0] + (t - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
                inside = !inside;
            }
        }
    }
    inside
}

//! Exact NURBS of a Model 3-D curve over a parameter interval (lines,
//! circles and ellipses as rational arcs, B-splines restricted by knot
//! insertion): the profiles of surfaces of revolution and extrusion, the
//! trim curves and the edges.

use crate::geom::primitives::{self, ParamMap};
use crate::geom::NurbsCurve;
use crate::import::model::Curve;

/// Exact NURBS of a 3-D curve on `[t0, t1]` (line, circle, B-spline).
pub fn curve_nurbs(c: &Curve, t: (f64, f64)) -> Result<(NurbsCurve, ParamMap), String> {
    match c {
        Curve::Line { origin, dir } => primitives::line_segment(*origin, *dir, t)
            .map(|m| (m.curve, m.map))
            .map_err(|e| e.to_string()),
        Curve::Circle { frame, radius } => primitives::circle_arc(frame.origin, frame.x, frame.y, *radius, t)
            .map(|m| (m.curve, m.map))
            .map_err(|e| e.to_string()),
        Curve::Ellipse { frame, semi_x, semi_y } => {
            // the affine image of the unit circle arc: same parameter, poles scaled in the frame
            let m = primitives::circle_arc(frame.origin, frame.x, frame.y, 1.0, t).map_err(|e| e.to_string())?;
            if !(*semi_x > 0.0 && *semi_y > 0.0 && semi_x.is_finite() && semi_y.is_finite()) {
                return Err(format!("ellipse semi-axes {semi_x}, {semi_y}"));
            }
            let cw = m
                .curve
                .cw
                .iter()
                .map(|h| {
                    let w = h[3];
                    let d = crate::geom::Vec3::new(h[0] / w, h[1] / w, h[2] / w) - frame.origin;
                    let p = frame.origin + frame.x * (semi_x * d.dot(&frame.x)) + frame.y * (semi_y * d.dot(&frame.y));
                    [p.x * w, p.y * w, p.z * w, w]
                })
                .collect();
            let c = NurbsCurve::try_from_homogeneous(m.curve.degree, m.curve.knots.clone(), cw)
                .map_err(|e| e.to_string())?;
            Ok((c, m.map))
        }
        Curve::BSpline(b) => Ok((restrict_curve(b, t), ParamMap::Identity)),
        other => Err(format!("{} curve", other.type_name())),
    }
}

/// The part of `b` over `t` (same parameters) by knot insertion at the ends
/// that cut the domain; `b` itself when `t` does not cut it.
fn restrict_curve(b: &NurbsCurve, t: (f64, f64)) -> NurbsCurve {
    let (d0, d1) = b.domain();
    let (a, e) = (t.0.max(d0), t.1.min(d1));
    if a.partial_cmp(&e) != Some(std::cmp::Ordering::Less) || (a <= d0 && e >= d1) {
        return b.clone();
    }
    let mut c = b.clone();
    for x in [a, e] {
        if x > d0 && x < d1 {
            let have = c.knots.iter().filter(|&&k| k == x).count();
            for _ in have..c.degree {
                match c.insert_knot(x) {
                    Ok(n) => c = n,
                    Err(_) => return b.clone(),
                }
            }
        }
    }
    let p = c.degree;
    // poles i0..=i1 with knots[i0+1..=i0+p] = a and knots[i1+1..=i1+p] = e
    let i0 = c.knots.iter().position(|&k| k == a).unwrap_or(0).saturating_sub(1);
    let i1 = c
        .knots
        .iter()
        .position(|&k| k == e)
        .unwrap_or(c.knots.len() - 1)
        .saturating_sub(1);
    if i1 < i0 + p || i1 + p + 1 >= c.knots.len() || i1 >= c.cw.len() {
        return b.clone();
    }
    let mut knots = c.knots[i0..=i1 + p + 1].to_vec();
    knots[0] = knots[1];
    let n = knots.len();
    knots[n - 1] = knots[n - 2];
    NurbsCurve::try_from_homogeneous(p, knots, c.cw[i0..=i1].to_vec()).unwrap_or_else(|_| b.clone())
}

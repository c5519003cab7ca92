//! Foot points on a curve: the closest point of a NURBS curve to a point, by
//! sampling and a clamped Newton polish of the foot-point equation
//! `(c(t) − q)·c'(t) = 0`. Used offline (feature linking) and by references.

use super::{CurvePoint, NurbsCurve, Vec3};

/// One Newton step of the foot-point problem `(c(t) − q)·c'(t) = 0` from
/// `t` (where `c` is the curve's point and derivatives), clamped to the
/// domain; where the second derivative of the squared distance is not
/// positive, a short gradient step instead.
pub fn curve_newton(c: &CurvePoint, q: &Vec3, t: f64, (t0, t1): (f64, f64)) -> f64 {
    let dr = c.p - q;
    let g = dr.dot(&c.d1);
    let h = c.d1.dot(&c.d1) + dr.dot(&c.d2);
    let step = if h > 0.0 {
        -g / h
    } else {
        -g / c.d1.dot(&c.d1).max(1e-300) * 0.1
    };
    (t + step).clamp(t0, t1)
}

/// Closest point of a curve to `q`: `(t, point, distance)` by `n` samples and
/// a clamped Newton polish of the best few.
pub fn closest_on_curve(curve: &NurbsCurve, q: &Vec3, n: usize) -> (f64, Vec3, f64) {
    let (t0, t1) = curve.domain();
    let n = n.max(2);
    let mut samples: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let t = t0 + (t1 - t0) * i as f64 / (n - 1) as f64;
            ((curve.eval(t) - q).norm(), t)
        })
        .collect();
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best = (samples[0].1, curve.eval(samples[0].1), samples[0].0);
    for &(_, t_start) in samples.iter().take(8) {
        let mut t = t_start;
        for _ in 0..100 {
            let c = curve.eval_derivs(t);
            let tn = curve_newton(&c, q, t, (t0, t1));
            if (tn - t).abs() < 1e-16 * (1.0 + t.abs()) {
                t = tn;
                break;
            }
            t = tn;
        }
        let p = curve.eval(t);
        let d = (p - q).norm();
        if d < best.2 {
            best = (t, p, d);
        }
    }
    best
}

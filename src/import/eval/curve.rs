//! Evaluation of the Model's [`Curve`]s and [`CurveSegment`]s: point, first
//! and second derivative in the parameterisation documented on each
//! variant, and sampling of a segment in its traversal order.
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use crate::geom::{CurvePoint, Vec3};
use crate::import::model::{Curve, CurveSegment};

/// The unit radial direction `e(u) = x cos u + y sin u` of `f`'s xy plane and
/// its derivative `e'(u)` (circles, cylinders, cones, spheres, tori).
pub(super) fn ring(f: &crate::geom::Frame, u: f64) -> (Vec3, Vec3) {
    let (s, c) = u.sin_cos();
    (f.x * c + f.y * s, f.y * c - f.x * s)
}

impl Curve {
    /// Point at `t`.
    pub fn eval(&self, t: f64) -> Vec3 {
        self.eval_derivs(t).p
    }

    /// Point, first and second derivative at `t`.
    pub fn eval_derivs(&self, t: f64) -> CurvePoint {
        match self {
            Curve::Line { origin, dir } => CurvePoint {
                p: origin + dir * t,
                d1: *dir,
                d2: Vec3::zeros(),
            },
            Curve::Circle { frame, radius } => {
                let (e, e1) = ring(frame, t);
                CurvePoint {
                    p: frame.origin + e * *radius,
                    d1: e1 * *radius,
                    d2: -e * *radius,
                }
            }
            Curve::Ellipse { frame, semi_x, semi_y } => {
                let (s, c) = t.sin_cos();
                CurvePoint {
                    p: frame.at(semi_x * c, semi_y * s, 0.0),
                    d1: frame.x * (-semi_x * s) + frame.y * (semi_y * c),
                    d2: frame.x * (-semi_x * c) + frame.y * (-semi_y * s),
                }
            }
            Curve::Parabola { frame, focal } => CurvePoint {
                p: frame.at(t * t / (4.0 * focal), t, 0.0),
                d1: frame.x * (t / (2.0 * focal)) + frame.y,
                d2: frame.x * (1.0 / (2.0 * focal)),
            },
            Curve::Hyperbola { frame, semi_x, semi_y } => {
                let (ch, sh) = (t.cosh(), t.sinh());
                CurvePoint {
                    p: frame.at(semi_x * ch, semi_y * sh, 0.0),
                    d1: frame.x * (semi_x * sh) + frame.y * (semi_y * ch),
                    d2: frame.x * (semi_x * ch) + frame.y * (semi_y * sh),
                }
            }
            Curve::BSpline(b) => b.eval_derivs(t),
            Curve::Polyline(pts) => {
                if pts.len() < 2 {
                    return CurvePoint {
                        p: pts.first().copied().unwrap_or_default(),
                        ..Default::default()
                    };
                }
                let n = pts.len() - 1;
                let k = (t.floor().max(0.0) as usize).min(n - 1);
                let s = t - k as f64;
                let d = pts[k + 1] - pts[k];
                CurvePoint {
                    p: pts[k] + d * s,
                    d1: d,
                    d2: Vec3::zeros(),
                }
            }
            Curve::Composite(segs) => {
                if segs.is_empty() {
                    return CurvePoint::default();
                }
                let n = segs.len();
                let k = (t.floor().max(0.0) as usize).min(n - 1);
                let s = (t - k as f64).clamp(0.0, 1.0);
                segs[k].eval_unit(s)
            }
        }
    }

    /// Point and first derivative at `t` (as [`eval_derivs`](Self::eval_derivs)).
    pub fn eval_d1(&self, t: f64) -> CurvePoint {
        self.eval_derivs(t)
    }
}

impl CurveSegment {
    /// Point and derivatives at the normalised position `s ∈ [0, 1]` along the
    /// segment in its traversal direction (derivatives w.r.t. `s`).
    pub fn eval_unit(&self, s: f64) -> CurvePoint {
        let len = self.t1 - self.t0;
        let (t, k) = if self.forward {
            (self.t0 + s * len, len)
        } else {
            (self.t1 - s * len, -len)
        };
        let c = self.curve.eval_derivs(t);
        CurvePoint {
            p: c.p,
            d1: c.d1 * k,
            d2: c.d2 * (k * k),
        }
    }

    /// The point at fraction `s ∈ [0, 1]` of the segment, in traversal order.
    pub fn point_at(&self, s: f64) -> Vec3 {
        self.eval_unit(s).p
    }

    /// `n + 1` points from start to end (composites sample each piece).
    pub fn sample(&self, n: usize) -> Vec<Vec3> {
        if let Curve::Composite(parts) = &self.curve {
            let mut out = Vec::new();
            let ordered: Vec<&CurveSegment> = if self.forward {
                parts.iter().collect()
            } else {
                parts.iter().rev().collect()
            };
            for p in ordered {
                let mut q = p.sample(n.max(8));
                if !self.forward {
                    q.reverse();
                }
                out.extend(q);
            }
            return out;
        }
        let n = n.max(1);
        (0..=n).map(|i| self.point_at(i as f64 / n as f64)).collect()
    }
}

//! Distances from a 3-D point to a traced [`Region`]: its projection onto
//! the face's surface (Newton from a hint, the global projection as the
//! fallback) and its distance to the face's 3-D boundary curves.

use super::Region;
use crate::geom::Vec3;
use crate::import::eval::{newton_surface, project_surface};
use crate::verify::sampled_curves::{closest_on_curve, SampledCurves, Scratch};

impl Region<'_> {
    /// The parameter box Newton may use around `(u, v)`.
    fn newton_box(&self, u: f64, v: f64) -> ((f64, f64), (f64, f64)) {
        let s = self.surface();
        let span = |k: usize| self.period[k].unwrap_or(1e300) * 0.25;
        let ((u0, u1), (v0, v1)) = s.domain().unwrap_or(((-1e300, 1e300), (-1e300, 1e300)));
        let (su, sv) = if self.swap {
            (span(1), span(0))
        } else {
            (span(0), span(1))
        };
        (
            ((u - su).max(u0).min(u), (u + su).min(u1).max(u)),
            ((v - sv).max(v0).min(v), (v + sv).min(v1).max(v)),
        )
    }

    /// Projection of `p` onto the surface from the hint `hint` (in `(a, b)`):
    /// Newton, and the global projection when Newton stays farther than
    /// `good`. Returns `(ab, distance)` with `ab` unwrapped next to the hint.
    pub fn project_near(&self, p: &Vec3, hint: Option<[f64; 2]>, good: f64) -> ([f64; 2], f64) {
        let s = self.surface();
        let (mut ab, d) = match hint.filter(|_| s.analytic_params(p).is_none()) {
            Some(h) => {
                let (u, v) = self.to_uv(h);
                let r = newton_surface(s, p, u, v, self.newton_box(u, v));
                if r.distance <= good {
                    (self.to_ab(r.u, r.v), r.distance)
                } else {
                    let g = self.project(p);
                    if g.1 < r.distance {
                        g
                    } else {
                        (self.to_ab(r.u, r.v), r.distance)
                    }
                }
            }
            None => self.project(p),
        };
        // unwrap next to the hint; a pole (a undefined) takes the hint's value
        for k in 0..2 {
            if !ab[k].is_finite() {
                ab[k] = hint.map_or(0.0, |h| h[k]);
            }
            if let (Some(per), Some(h)) = (self.period[k], hint) {
                ab[k] += ((h[k] - ab[k]) / per).round() * per;
            }
        }
        (ab, d)
    }

    /// Global projection: `(ab, distance)` (a at a pole is NaN).
    pub fn project(&self, p: &Vec3) -> ([f64; 2], f64) {
        let s = self.surface();
        if let Some((u, v)) = s.analytic_params(p) {
            let q = s.eval(if u.is_nan() { 0.0 } else { u }, v);
            return (self.to_ab(u, v), (q - p).norm());
        }
        let bounds = s.domain().unwrap_or_else(|| {
            let (a, b) = (self.bbox[0], self.bbox[1]);
            let ((u0, v0), (u1, v1)) = (self.to_uv(a), self.to_uv(b));
            let (du, dv) = ((u1 - u0).abs() * 0.1 + 1e-9, (v1 - v0).abs() * 0.1 + 1e-9);
            ((u0.min(u1) - du, u0.max(u1) + du), (v0.min(v1) - dv, v0.max(v1) + dv))
        });
        let r = project_surface(s, p, bounds, 12);
        (self.to_ab(r.u, r.v), r.distance)
    }

    /// The face's 3-D boundary as [`SampledCurves`]: the traced nodes of
    /// every curve but the seams (built on the first call).
    fn sampled_boundary(&self) -> &SampledCurves {
        self.boundary.get_or_init(|| {
            let samples = self
                .loops
                .iter()
                .flat_map(|l| l.nodes.iter())
                .filter(|n| !n.seam && n.seg < self.segments.len())
                .map(|n| (n.p, n.seg, n.x))
                .collect();
            SampledCurves::new(samples)
        })
    }

    /// Distance from `p` to the face's 3-D boundary (seams excepted): the
    /// nearest traced node, refined on the exact curves wherever it exceeds
    /// `good` ([`SampledCurves::distance`]).
    pub fn boundary_distance(&self, p: &Vec3, good: f64, scratch: &mut Scratch) -> f64 {
        self.sampled_boundary().distance(p, good, scratch, |si, x0| {
            let (seg, param) = &self.segments[si];
            let eval = |x: f64| -> (Vec3, Vec3) {
                let c = seg.eval_unit(x);
                if *param {
                    let d = self.face.surface.eval_derivs(c.p.x, c.p.y);
                    (d.p, d.su * c.d1.x + d.sv * c.d1.y)
                } else {
                    (c.p, c.d1)
                }
            };
            closest_on_curve(eval, p, x0)
        })
    }
}

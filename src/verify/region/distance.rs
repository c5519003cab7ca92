//! Distances from a 3-D point to a traced [`Region`]: its projection onto
//! the face's surface (Newton from a hint, the global projection as the
//! fallback) and its distance to the face's 3-D boundary curves.

use super::Region;
use crate::geom::Vec3;
use crate::import::eval::{newton_surface, project_surface};
use crate::verify::budget;
use crate::verify::sampled_curves::{closest_on_curve, SampledCurves, Scratch};

/// Scan points of [`closest_on_curve_scanned`]: the first scan's, and the
/// most it doubles to.
const SCAN_FIRST: usize = 32;
const SCAN_MOST: usize = 4096;

/// Distance from `p` to the curve `eval` over the unit interval (`eval(x)`:
/// point and derivative): Gauss–Newton from `x0`
/// ([`closest_on_curve`]), and where that stays beyond `good`, from the
/// nearest of a scan of the whole curve.
///
/// The traced nodes of a boundary curve need not be dense in 3-D: a line
/// of the parameter plane along a thread's flank winds round the axis, a
/// turn every few nodes (build123d_m6_screw), and a polyline's out-and-back
/// spike folds back at one vertex (nist_144_example2). Gauss–Newton from
/// the nearest node then ends at a local minimum half a turn away, or at
/// the fold, and a point on the boundary measured 0.6 mm off it. The scan
/// doubles until its chords are at most half the distance found (or
/// [`SCAN_MOST`] points): the curve's nearest point then lies within a
/// quarter of that distance of a scan point, from which Gauss–Newton
/// converges. Every distance returned is to a point of the curve: an
/// upper bound that a point truly off the boundary cannot pass under.
pub(crate) fn closest_on_curve_scanned(eval: impl Fn(f64) -> (Vec3, Vec3), p: &Vec3, x0: f64, good: f64) -> f64 {
    let mut best = closest_on_curve(&eval, p, x0);
    if !(best > good) {
        return best;
    }
    let mut k = SCAN_FIRST;
    loop {
        if !budget::charge((k / SCAN_FIRST) as u64) {
            return best;
        }
        let (mut near, mut at, mut chord) = (f64::INFINITY, 0.0, 0.0f64);
        let mut prev: Option<Vec3> = None;
        for i in 0..=k {
            let x = i as f64 / k as f64;
            let q = eval(x).0;
            let d = (q - p).norm();
            if d < near {
                (near, at) = (d, x);
            }
            if let Some(r) = prev {
                chord = chord.max((q - r).norm());
            }
            prev = Some(q);
        }
        best = best.min(near);
        if !(best > good) {
            return best;
        }
        if chord <= 0.5 * best || k >= SCAN_MOST {
            return best.min(closest_on_curve(&eval, p, at));
        }
        k *= 2;
    }
}

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
    /// `good` ([`SampledCurves::distance`]; each curve searched whole where
    /// Gauss–Newton from its nearest node stays beyond `good`:
    /// [`closest_on_curve_scanned`]).
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
            closest_on_curve_scanned(eval, p, x0, good)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::TAU;

    /// A helix of radius 3 and pitch 0.5 round `z`, nine turns over the
    /// unit interval (a thread flank's boundary line, as in
    /// build123d_m6_screw).
    fn helix(x: f64) -> (Vec3, Vec3) {
        let (turns, r, pitch) = (9.0, 3.0, 0.5);
        let t = TAU * turns * x;
        let w = TAU * turns;
        (
            Vec3::new(r * t.cos(), r * t.sin(), pitch * turns * x),
            Vec3::new(-r * t.sin() * w, r * t.cos() * w, pitch * turns),
        )
    }

    #[test]
    fn a_point_on_a_helix_half_a_turn_from_the_start_is_on_it() {
        // the point of the helix at x = 0.5 + 1/18 (half a turn on from the
        // start's angle, a turn's fraction 1/9 per 1/9 of x): Gauss–Newton
        // from x0 = 0.5 stops at a local minimum far off; the scan finds it
        let (p, _) = helix(0.5 + 1.0 / 18.0);
        let d = closest_on_curve_scanned(helix, &p, 0.5, 1e-6);
        assert!(d < 1e-9, "{d}");
        // a circle's antipode: Gauss–Newton from x0 does not move (its step
        // is 0) and measures the diameter; the scan finds the point
        let circle = |x: f64| {
            let t = TAU * x;
            (
                Vec3::new(t.cos(), t.sin(), 0.0),
                Vec3::new(-t.sin(), t.cos(), 0.0) * TAU,
            )
        };
        let p = Vec3::new(-1.0, 0.0, 0.0);
        let newton = closest_on_curve(circle, &p, 0.0);
        assert!(newton > 1.0, "Gauss–Newton alone stays off: {newton}");
        let d = closest_on_curve_scanned(circle, &p, 0.0, 1e-6);
        assert!(d < 1e-9, "{d}");
    }

    #[test]
    fn a_point_off_the_helix_keeps_its_distance() {
        // 0.2 mm radially outside the helix (less than half the pitch, so
        // no other turn is nearer): the scan finds 0.2, not less
        let (q, _) = helix(0.3 + 1.0 / 18.0);
        let p = q + Vec3::new(q.x, q.y, 0.0).normalize() * 0.2;
        let d = closest_on_curve_scanned(helix, &p, 0.3, 1e-6);
        assert!((d - 0.2).abs() < 1e-9, "{d}");
    }

    /// The unit-parameter polyline `0 → (1, 0, 0) → (1.12, 0, 0) → (1, 0, 0)
    /// → (1, 1, 0)`: a 0.12 mm out-and-back spike at the second vertex
    /// (nist_144_example2's holes, vertices 22-23-24).
    fn spiked(x: f64) -> (Vec3, Vec3) {
        let v = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.12, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
        ];
        let t = (x * 4.0).clamp(0.0, 4.0);
        let i = (t.floor() as usize).min(3);
        let s = t - i as f64;
        (v[i] + (v[i + 1] - v[i]) * s, (v[i + 1] - v[i]) * 4.0)
    }

    #[test]
    fn a_point_on_an_out_and_back_spike_is_on_the_boundary() {
        // from the far end of the polyline (x = 1): the spike's points are
        // boundary all the same
        for along in [0.01, 0.06, 0.11] {
            let p = Vec3::new(1.0 + along, 0.0, 0.0);
            let d = closest_on_curve_scanned(spiked, &p, 1.0, 1e-9);
            assert!(d < 1e-12, "{along}: {d}");
        }
        // a point beyond the tip is off it by its distance
        let p = Vec3::new(1.2, 0.0, 0.0);
        let d = closest_on_curve_scanned(spiked, &p, 1.0, 1e-9);
        assert!((d - 0.08).abs() < 1e-12, "{d}");
    }
}

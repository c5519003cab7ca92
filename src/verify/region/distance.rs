//! Distances from a 3-D point to a traced [`Region`]: its projection onto
//! the face's surface (Newton from a hint, the global projection as the
//! fallback) and its distance to the face's 3-D boundary curves.

use super::Region;
use crate::geom::Vec3;
use crate::import::eval::{newton_surface, project_surface};
use crate::import::model::Surface;
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
    /// The projection of a loop's first point, which has no traced point
    /// before it to start from: the global projection when it lands within
    /// `good` of the surface, else, on a B-spline surface, the nearest of
    /// the local projections from every knot span whose poles' box lies
    /// nearer to `p` than the best distance found so far (a span's patch lies
    /// in its poles' convex hull, so a span left out holds no nearer point).
    /// The global projection's fixed grid of seeds lands on whichever sheet
    /// its nearest seed lies on: one turn off on a helical surface whose
    /// turns are closer together than its seeds. Returns `(ab, distance)`.
    pub(super) fn project_start(&self, p: &Vec3, good: f64) -> ([f64; 2], f64) {
        let (ab, d) = self.project_near(p, None, good);
        if d <= good {
            return (ab, d);
        }
        let mut s = self.surface();
        while let Surface::Trimmed { basis, .. } = s {
            s = basis;
        }
        let Surface::BSpline(b) = s else {
            return (ab, d);
        };
        let ((du0, du1), (dv0, dv1)) = self.surface().domain().unwrap_or(b.domain());
        // the spans (pole index of their last pole, parameter range) inside the domain
        let spans = |knots: &[f64], n: usize, deg: usize, lo: f64, hi: f64| -> Vec<(usize, f64, f64)> {
            (deg..n)
                .filter(|&k| knots[k + 1] > knots[k] && knots[k + 1] > lo && knots[k] < hi)
                .map(|k| (k, knots[k].max(lo), knots[k + 1].min(hi)))
                .collect()
        };
        let su = spans(&b.knots_u, b.n_u, b.degree_u, du0, du1);
        let sv = spans(&b.knots_v, b.n_v, b.degree_v, dv0, dv1);
        let mut near: Vec<(f64, usize, usize)> = Vec::new();
        for (iu, &(ku, _, _)) in su.iter().enumerate() {
            for (iv, &(kv, _, _)) in sv.iter().enumerate() {
                let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
                for i in ku - b.degree_u..=ku {
                    for c in &b.cw[i * b.n_v + kv - b.degree_v..=i * b.n_v + kv] {
                        for k in 0..3 {
                            let x = c[k] / c[3];
                            lo[k] = lo[k].min(x);
                            hi[k] = hi[k].max(x);
                        }
                    }
                }
                let q = [p.x, p.y, p.z];
                let gap = (0..3)
                    .map(|k| (lo[k] - q[k]).max(q[k] - hi[k]).max(0.0).powi(2))
                    .sum::<f64>()
                    .sqrt();
                if gap < d {
                    near.push((gap, iu, iv));
                }
            }
        }
        near.sort_by(|x, y| x.0.total_cmp(&y.0));
        let (mut best_ab, mut best) = (ab, d);
        for (gap, iu, iv) in near {
            if gap >= best {
                break;
            }
            let ((_, u0, u1), (_, v0, v1)) = (su[iu], sv[iv]);
            let r = newton_surface(
                self.surface(),
                p,
                0.5 * (u0 + u1),
                0.5 * (v0 + v1),
                ((u0, u1), (v0, v1)),
            );
            if r.distance < best {
                best = r.distance;
                best_ab = self.to_ab(r.u, r.v);
            }
        }
        (best_ab, best)
    }

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
            let feet = unbounded_search_box(s, p);
            let (a, b) = (self.bbox[0], self.bbox[1]);
            let ((u0, v0), (u1, v1)) = (self.to_uv(a), self.to_uv(b));
            if !(u0.is_finite() && u1.is_finite() && v0.is_finite() && v1.is_finite()) {
                // no node traced yet (the first point of the first loop)
                return feet;
            }
            let (du, dv) = ((u1 - u0).abs() * 0.1 + 1e-9, (v1 - v0).abs() * 0.1 + 1e-9);
            let (mut bu, mut bv) = ((u0.min(u1) - du, u0.max(u1) + du), (v0.min(v1) - dv, v0.max(v1) + dv));
            // a direction without a natural range also spans the feet of `p`:
            // the loops traced so far may all lie on one line of it (a hole's
            // first point below an outer loop at one height of an extrusion,
            // microstation_k1 #828)
            let hull = |x: (f64, f64), y: (f64, f64)| (x.0.min(y.0), x.1.max(y.1));
            let (nu, nv) = s.natural_bounds();
            if nu.is_none() {
                bu = hull(bu, feet.0);
            }
            if nv.is_none() {
                bv = hull(bv, feet.1);
            }
            (bu, bv)
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

/// The `(u, v)` box of the global projection of `p` onto a surface whose
/// natural domain is unbounded in a direction (a linear extrusion along
/// `v`; [`Surface::domain`] is `None`), before any node of the face is
/// traced: the natural range where the surface has one; along an unbounded
/// direction, the range of its first-order feet `(p − S)·S_w / |S_w|²`
/// (exact on a ruling) from the points `S` of a grid of the bounded
/// direction at 0, widened by the largest 3-D step between grid points over
/// `|S_w|` (how far the foot of a parameter between two grid points can
/// stray), or round the least-squares foot from `S(0, 0)` when neither
/// direction is bounded. Without it the projection of a loop's first
/// point had no box at all (an empty loops' box): it stayed at `(0, 0)`
/// and the trace wandered from there (a B-spline extrusion whose profile
/// does not start at 0, catia5_ventilator #6861).
fn unbounded_search_box(s: &Surface, p: &Vec3) -> ((f64, f64), (f64, f64)) {
    const N: usize = 24;
    let (nu, nv) = s.natural_bounds();
    let at = |u: f64, v: f64| {
        let d = s.eval_derivs(u, v);
        (d.p, d.su, d.sv)
    };
    // the feet along direction `k` (0: u) of the grid over the other range
    let ruled = |other: (f64, f64), k: usize| -> Option<(f64, f64)> {
        let (mut lo, mut hi, mut step, mut prev) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64, None::<Vec3>);
        let mut speed = f64::INFINITY;
        for i in 0..=N {
            let t = other.0 + (other.1 - other.0) * i as f64 / N as f64;
            let (q, su, sv) = if k == 0 { at(0.0, t) } else { at(t, 0.0) };
            let sw = if k == 0 { su } else { sv };
            let w = (p - q).dot(&sw) / sw.norm_squared();
            lo = lo.min(w);
            hi = hi.max(w);
            speed = speed.min(sw.norm());
            if let Some(r) = prev {
                step = step.max((q - r).norm());
            }
            prev = Some(q);
        }
        let pad = 0.1 * (hi - lo) + step / speed + 1e-9 * (1.0 + lo.abs().max(hi.abs()));
        (lo.is_finite() && hi.is_finite() && pad.is_finite()).then_some((lo - pad, hi + pad))
    };
    let fallback = ((-1.0, 1.0), (-1.0, 1.0));
    match (nu, nv) {
        (Some(u), Some(v)) => (u, v),
        (Some(u), None) => ruled(u, 1).map_or(fallback, |v| (u, v)),
        (None, Some(v)) => ruled(v, 0).map_or(fallback, |u| (u, v)),
        (None, None) => {
            // least squares S_u x + S_v y = p − S(0, 0)
            let (q, su, sv) = at(0.0, 0.0);
            let r = p - q;
            let (g11, g12, g22) = (su.dot(&su), su.dot(&sv), sv.dot(&sv));
            let (r1, r2) = (su.dot(&r), sv.dot(&r));
            let det = g11 * g22 - g12 * g12;
            if !(det > 1e-300) {
                return fallback;
            }
            let (x, y) = ((r1 * g22 - r2 * g12) / det, (r2 * g11 - r1 * g12) / det);
            let (px, py) = (0.1 * x.abs() + 1e-9, 0.1 * y.abs() + 1e-9);
            if !(x.is_finite() && y.is_finite()) {
                return fallback;
            }
            ((x - px, x + px), (y - py, y + py))
        }
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

#[cfg(test)]
mod start_tests {
    //! The projection of a loop's first point ([`Region::project_start`]):
    //! no traced point before it to start from.
    use super::super::tests::{edge, face_model, on_edge};
    use super::super::Region;
    use crate::geom::{NurbsCurve, Vec3};
    use crate::import::model::{Curve, Model, Surface};

    /// A face on the extrusion of a cubic B-spline profile whose parameter
    /// range `[20, 40]` does not hold 0, along a tilted direction, bounded
    /// by four 3-D edges and no p-curves (as catia5_ventilator #6861): the
    /// profile's copies at `v = 5` and `v = 8` over `u ∈ [24, 36]` and the
    /// two rulings between them.
    fn extrusion_face() -> Model {
        let pts = [[0.0, 0.0, 0.0], [3.0, 4.0, 0.5], [7.0, 5.0, -0.5], [10.0, 3.0, 0.0]];
        let knots = vec![20.0, 20.0, 20.0, 20.0, 40.0, 40.0, 40.0, 40.0];
        let d = Vec3::new(0.2, 0.1, 1.0).normalize();
        let moved = |v: f64| {
            let p: Vec<[f64; 3]> = pts
                .iter()
                .map(|q| [q[0] + v * d.x, q[1] + v * d.y, q[2] + v * d.z])
                .collect();
            Curve::BSpline(NurbsCurve::try_new(3, knots.clone(), &p, None).expect("curve"))
        };
        let surface = Surface::Extrusion {
            profile: Box::new(moved(0.0)),
            direction: d,
        };
        let corner = |u: f64, v: f64| surface.eval(u, v);
        let ruling = |u: f64, from: f64, to: f64| Curve::Line {
            origin: corner(u, from),
            dir: d * (to - from),
        };
        let edges = vec![
            edge(moved(5.0), 24.0, 36.0),
            edge(ruling(36.0, 5.0, 8.0), 0.0, 1.0),
            edge(moved(8.0), 24.0, 36.0),
            edge(ruling(24.0, 8.0, 5.0), 0.0, 1.0),
        ];
        let outer = vec![on_edge(0, true), on_edge(1, true), on_edge(2, false), on_edge(3, true)];
        face_model(surface, Some(outer), Vec::new(), edges)
    }

    #[test]
    fn first_point_on_an_extrusion_whose_profile_range_misses_zero() {
        let m = extrusion_face();
        let face = &m.faces[0];
        let r = Region::new(&m, face).expect("region");
        // every traced node lies where its parameters put it
        for n in r.loops.iter().flat_map(|l| &l.nodes) {
            let (u, v) = r.to_uv(n.ab);
            let off = (face.surface.eval(u, v) - n.p).norm();
            assert!(off < 1e-9, "node {:?} is {off:.3e} mm from its point", n.ab);
            assert!((24.0 - 1e-9..=36.0 + 1e-9).contains(&u) && (5.0 - 1e-9..=8.0 + 1e-9).contains(&v));
        }
        assert!(r.uncertainty < 1e-9, "uncertainty {:.3e}", r.uncertainty);
        // the exact area: 3 · ∫ |S_u × S_v| du over [24, 36] (composite Simpson, 4000 steps)
        let n = 4000;
        let h = 12.0 / n as f64;
        let jac = |u: f64| {
            let e = face.surface.eval_derivs(u, 6.0);
            e.su.cross(&e.sv).norm()
        };
        let simpson: f64 = (0..=n)
            .map(|i| {
                let w = if i == 0 || i == n {
                    1.0
                } else if i % 2 == 1 {
                    4.0
                } else {
                    2.0
                };
                w * jac(24.0 + h * i as f64)
            })
            .sum::<f64>()
            * h
            / 3.0;
        let exact = 3.0 * simpson;
        let (a, e) = r.area();
        assert!((a - exact).abs() < 1e-9 * exact, "area {a} ± {e} vs {exact}");
        // a point of the face is inside it, a point of the surface beside it is not
        assert!(r.contains(r.to_ab(30.0, 6.5)) && !r.contains(r.to_ab(30.0, 9.0)) && !r.contains(r.to_ab(38.0, 6.5)));
    }

    /// A helical ruled strip: a rational B-spline surface, linear in `u`
    /// (across the strip, from radius 1 at `z` to radius 1.5 at `z + 0.3`,
    /// a thread's flank) and quadratic in `v` (one exact quarter circle of
    /// the plan per unit of `v`, rising by `pitch / 4`), over `quarters`
    /// quarter turns; not periodic.
    fn helical_strip(pitch: f64, quarters: usize) -> crate::geom::NurbsSurface {
        let n_v = 2 * quarters + 1;
        let (mut points, mut weights) = (Vec::new(), Vec::new());
        for (r, dz) in [(1.0f64, 0.0), (1.5, 0.3)] {
            for j in 0..n_v {
                let half = j as f64 / 2.0;
                let ang = half * std::f64::consts::FRAC_PI_2;
                let (rr, w) = if j % 2 == 0 {
                    (r, 1.0)
                } else {
                    (r * std::f64::consts::SQRT_2, std::f64::consts::FRAC_1_SQRT_2)
                };
                points.push([rr * ang.cos(), rr * ang.sin(), pitch * half / 4.0 + dz]);
                weights.push(w);
            }
        }
        let mut knots_v = vec![0.0; 3];
        for k in 1..quarters {
            knots_v.extend([k as f64; 2]);
        }
        knots_v.extend([quarters as f64; 3]);
        crate::geom::NurbsSurface::try_new(1, 2, vec![0.0, 0.0, 1.0, 1.0], knots_v, 2, n_v, &points, Some(&weights))
            .expect("helical strip")
    }

    #[test]
    fn a_helical_strip_traced_on_3d_edges_starts_on_its_own_turn() {
        // the strip between v = 1.3 and v = 28.7 (6.85 turns of pitch 0.5)
        // bounded by 3-D edges only: a radial line, the outer helix, a
        // radial line back, the inner helix backwards. The loop's first node
        // (no hint) lies nearer to a point of the next turn's grid of seeds
        // than of its own: projected from those seeds it lands one turn off
        // (0.43 mm from the surface), the loop's first curve runs across a
        // turn and the area is off
        let (pitch, quarters, b0, b1) = (0.5, 30, 1.3, 28.7);
        let s = helical_strip(pitch, quarters);
        let row = |i: usize| {
            let cw = (0..s.n_v).map(|j| s.cw[i * s.n_v + j]).collect();
            Curve::BSpline(crate::geom::NurbsCurve::try_from_homogeneous(2, s.knots_v.clone(), cw).expect("row"))
        };
        let line = |a: Vec3, b: Vec3| Curve::Line { origin: a, dir: b - a };
        let at = |u: f64, v: f64| s.eval(u, v);
        let edges = vec![
            edge(line(at(0.0, b0), at(1.0, b0)), 0.0, 1.0),
            edge(row(1), b0, b1),
            edge(line(at(1.0, b1), at(0.0, b1)), 0.0, 1.0),
            edge(row(0), b0, b1),
        ];
        let m = face_model(
            Surface::BSpline(s.clone()),
            Some(vec![
                on_edge(0, true),
                on_edge(1, true),
                on_edge(2, true),
                on_edge(3, false),
            ]),
            Vec::new(),
            edges,
        );
        let r = Region::new(&m, &m.faces[0]).expect("region");
        let first = r.loops[0].nodes[0].ab;
        assert!(
            (first[0] - 0.0).abs() < 1e-9 && (first[1] - b0).abs() < 1e-9,
            "the start (0, {b0}) traced at {first:?}"
        );
        assert!(
            r.uncertainty < 1e-9,
            "no traced point off the surface: {}",
            r.uncertainty
        );
        // the exact area: ∫∫ |S_u × S_v| over [0, 1] × [b0, b1], Gauss on
        // each knot span (the integrand is smooth inside one)
        let g8 = crate::verify::piece::G8;
        let mut cuts = vec![b0];
        cuts.extend((2..29).map(|k| k as f64));
        cuts.push(b1);
        let mut want = 0.0;
        for w in cuts.windows(2) {
            for &(y, wy) in &g8 {
                for &(x, wx) in &g8 {
                    let v = w[0] + (w[1] - w[0]) * y;
                    let d = s.eval_derivs(x, v);
                    want += wx * wy * (w[1] - w[0]) * d.su.cross(&d.sv).norm();
                }
            }
        }
        // (the traced helices' quadrature: 2e-7 relative, within its own estimate)
        let (a, e) = r.area();
        assert!(
            (a - want).abs() < 1e-6 * want && (a - want).abs() <= e,
            "{a} vs {want} ± {e}"
        );
    }
}

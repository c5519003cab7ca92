//! Point–patch tracker (PG-GUAS, PG-2002/2004/2005, NJC-1999 baseline).
//!
//! Tracks the witness parameters `x = (u, v)` of the point of a patch `f`
//! closest to a moving query point `Q`, with `ΔR = f − Q`,
//! `Ψ = (ΔR·f_u, ΔR·f_v)`, `M = [[f_u·f_u + ΔR·f_uu, f_u·f_v + ΔR·f_uv],
//! [·, f_v·f_v + ΔR·f_vv]]` and, for `Q` moving with velocity `Q̇` relative to
//! the patch's body, `b = (−Q̇·f_u, −Q̇·f_v)`.
//!
//! One [`PointPatchTracker::update`] per servo tick: the witness is first
//! predicted with the motion feed-forward of the previous tick (`ẋ = −M⁻¹b`,
//! or the eq. 3 motion terms), then corrected by controller iterations at the
//! current `Q` until the normalised projection error is below `tol` or a
//! Newton step is shorter than `step_tol` (then the answer is the second-order
//! Taylor expansion at that step, so a converged tick costs one evaluation).

use super::config::{ControlLaw, Mode, TrackError, TrackerConfig};
use super::core::{clamp_box, feed_forward_rate, track_loop, Local};
use super::motion::{BodyState, PointState};
use crate::geom::simd::Avx2Fma;
use crate::geom::{NurbsSurface, SurfacePoint, Vec3};
use nalgebra::{Matrix2, Vector2};

/// The answer of one point–patch update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatchWitness {
    /// Witness parameters `(u, v)`.
    pub uv: [f64; 2],
    /// Witness point, world coordinates.
    pub point: Vec3,
    /// Unit normal `f_u × f_v` at the witness (world; not yet oriented outward).
    pub normal: Vec3,
    /// `|f − Q|`, mm.
    pub distance: f64,
    /// Controller mode at the end of the update.
    pub mode: Mode,
    /// Controller iterations in this update.
    pub iterations: u32,
    /// Surface evaluations in this update.
    pub evaluations: u32,
    /// True when the tolerance was met.
    pub converged: bool,
    /// True when plain Newton left the parameter domain (failure).
    pub left_domain: bool,
}

/// Local data of the point–patch problem (body coordinates).
#[inline]
pub fn point_patch_local(sp: &SurfacePoint, q: &Vec3, q_dot: &Vec3) -> Local<2> {
    let dr = sp.p - q;
    let e = sp.su.dot(&sp.su);
    let f = sp.su.dot(&sp.sv);
    let g = sp.sv.dot(&sp.sv);
    Local {
        g: Vector2::new(dr.dot(&sp.su), dr.dot(&sp.sv)),
        hess: Matrix2::new(
            e + dr.dot(&sp.suu),
            f + dr.dot(&sp.suv),
            f + dr.dot(&sp.suv),
            g + dr.dot(&sp.svv),
        ),
        metric: Matrix2::new(e, f, f, g),
        b: Vector2::new(-q_dot.dot(&sp.su), -q_dot.dot(&sp.sv)),
        dist: dr.norm(),
    }
}

/// How far below zero the distance's curvature on the free parameters must
/// be, relative to the first fundamental form, for [`saddle`] to call the
/// witness no minimum (round-off leaves a degenerate minimum's curvature at
/// about `1e-16`; a saddle of wing128's root side had `−2.2e-2`).
pub const SADDLE_CURVATURE: f64 = 1e-6;

/// Whether the point–patch witness with local data `loc` and saturated
/// components `active` is a stationary point that is no minimum: the
/// Hessian `M` of `½|ΔR|²` restricted to the free parameters has a
/// direction `δ` with `δᵀMδ < −SADDLE_CURVATURE·δᵀIδ` (`I` the metric), so
/// the distance decreases along it to second order. The controller's
/// first-order convergence test (normalised projection error below `tol`)
/// accepts such a point when the gradient vanishes there exactly, e.g. by
/// symmetry: on a side of a piece that meets a symmetry plane at a right
/// angle, the witness of a query in that plane stays on the side as the
/// query passes the side's focal point, where the side's points turn from
/// minima to maxima across it and two minima split off into the piece
/// (a pitchfork; iges_autocad_wing128). Four products and a 2×2 test.
#[inline]
pub fn saddle(loc: &Local<2>, active: &[bool; 2]) -> bool {
    let h = &loc.hess;
    let g = &loc.metric;
    // M + ε·I on the free components, tested for positive definiteness
    let a = |i: usize, j: usize| h[(i, j)] + SADDLE_CURVATURE * g[(i, j)];
    match active {
        [false, false] => {
            let (a11, a12, a22) = (a(0, 0), a(0, 1), a(1, 1));
            !(a11 > 0.0 && a22 > 0.0 && a11 * a22 - a12 * a12 > 0.0)
        }
        [false, true] => !(a(0, 0) > 0.0),
        [true, false] => !(a(1, 1) > 0.0),
        [true, true] => false,
    }
}

/// Second-order Taylor expansion of a surface point by a parameter step.
#[inline(always)]
pub fn taylor(sp: &SurfacePoint, d: &Vector2<f64>) -> SurfacePoint {
    let (du, dv) = (d[0], d[1]);
    SurfacePoint {
        p: sp.p + sp.su * du + sp.sv * dv + (sp.suu * (du * du) + sp.suv * (2.0 * du * dv) + sp.svv * (dv * dv)) * 0.5,
        su: sp.su + sp.suu * du + sp.suv * dv,
        sv: sp.sv + sp.suv * du + sp.svv * dv,
        suu: sp.suu,
        suv: sp.suv,
        svv: sp.svv,
    }
}

/// Mode of the 5-mode automaton from the active set.
#[inline]
pub fn mode_of(x: &Vector2<f64>, active: &[bool; 2], lo: &Vector2<f64>) -> Mode {
    match (active[0], active[1]) {
        (false, false) => Mode::Interior,
        (true, true) => Mode::Corner,
        (true, false) => {
            if x[0] <= lo[0] {
                Mode::U0
            } else {
                Mode::U1
            }
        }
        (false, true) => {
            if x[1] <= lo[1] {
                Mode::V0
            } else {
                Mode::V1
            }
        }
    }
}

/// Tracks the closest point of one patch to a moving point. Holds only the
/// witness state; the patch and motion are passed per update (no allocation).
#[derive(Debug, Clone, PartialEq)]
pub struct PointPatchTracker {
    /// Settings.
    pub cfg: TrackerConfig,
    x: Vector2<f64>,
    x_dot_ff: Vector2<f64>,
    has_history: bool,
}

impl PointPatchTracker {
    /// A tracker with its witness at the parameters `uv`.
    pub fn new(cfg: TrackerConfig, uv: [f64; 2]) -> Result<Self, TrackError> {
        cfg.validate()?;
        if !uv.iter().all(|x| x.is_finite()) {
            return Err(TrackError::NonFinite("initial parameters"));
        }
        Ok(Self {
            cfg,
            x: Vector2::new(uv[0], uv[1]),
            x_dot_ff: Vector2::zeros(),
            has_history: false,
        })
    }

    /// Current witness parameters.
    pub fn uv(&self) -> [f64; 2] {
        [self.x[0], self.x[1]]
    }

    /// Moves the witness to `uv` and forgets the motion history.
    pub fn reset(&mut self, uv: [f64; 2]) {
        self.x = Vector2::new(uv[0], uv[1]);
        self.x_dot_ff = Vector2::zeros();
        self.has_history = false;
    }

    /// One servo tick: `dt` is the time since the previous update (used to
    /// apply the feed-forward prediction), `point` the query, `body` the
    /// patch's body pose and twist.
    pub fn update(
        &mut self,
        patch: &NurbsSurface,
        point: &PointState,
        body: &BodyState,
        dt: f64,
    ) -> Result<PatchWitness, TrackError> {
        let iso = &body.pose.iso;
        let c = &iso.rotation.coords;
        let t = iso.translation.vector;
        let (q, v, w, bv) = (&point.q, &point.q_dot, &body.twist.omega, &body.twist.v);
        // one finiteness test of the query and the twist (a sum of finite
        // values is finite; a NaN or an infinity poisons it); the detailed
        // checks below name the culprit only when it fails
        let motion_sum = q.x + q.y + q.z + v.x + v.y + v.z + w.x + w.y + w.z + bv.x + bv.y + bv.z;
        // identity pose (a body at rest at the origin, compared exactly: a
        // signed zero takes the general path): body and world coordinates
        // coincide, the frame changes are the identity and the pose is
        // trivially finite and rigid
        let identity =
            (c[0].to_bits() | c[1].to_bits() | c[2].to_bits() | t.x.to_bits() | t.y.to_bits() | t.z.to_bits()) == 0
                && c[3] == 1.0;
        if !(identity && motion_sum.is_finite() && (0.0..f64::INFINITY).contains(&dt)) {
            return self.update_general(patch, point, body, dt);
        }
        let rel = point.q_dot - body.twist.velocity_at(&point.q);
        if let Some(isa) = Avx2Fma::detect() {
            // the solve compiled with AVX2 + FMA (no multiply-adds are
            // contracted: the same results)
            return isa.run(|| self.solve_impl(patch, &point.q, &rel, dt));
        }
        self.solve(patch, &point.q, &rel, dt)
    }

    /// [`update`](Self::update) with every input check and any pose.
    #[inline(never)]
    fn update_general(
        &mut self,
        patch: &NurbsSurface,
        point: &PointState,
        body: &BodyState,
        dt: f64,
    ) -> Result<PatchWitness, TrackError> {
        point.validate()?;
        body.validate()?;
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(TrackError::NonFinite("dt"));
        }
        let iso = &body.pose.iso;
        let t = iso.translation.vector;
        // one rotation matrix serves the four frame changes of the tick
        let r = iso.rotation.to_rotation_matrix();
        let rel = point.q_dot - body.twist.velocity_at(&point.q);
        let q = r.inverse_transform_vector(&(point.q - t));
        let q_dot = r.inverse_transform_vector(&rel);
        let w = self.solve(patch, &q, &q_dot, dt)?;
        Ok(PatchWitness {
            point: r * w.point + t,
            normal: r * w.normal,
            ..w
        })
    }

    /// The tick in body coordinates (`q`, `q_dot` relative to the patch).
    #[inline]
    pub fn solve(&mut self, patch: &NurbsSurface, q: &Vec3, q_dot: &Vec3, dt: f64) -> Result<PatchWitness, TrackError> {
        self.solve_impl(patch, q, q_dot, dt)
    }

    /// The body of [`solve`](Self::solve).
    #[inline(always)]
    fn solve_impl(
        &mut self,
        patch: &NurbsSurface,
        q: &Vec3,
        q_dot: &Vec3,
        dt: f64,
    ) -> Result<PatchWitness, TrackError> {
        let ((u0, u1), (v0, v1)) = patch.domain();
        let lo = Vector2::new(u0, v0);
        let hi = Vector2::new(u1, v1);
        let cfg = &self.cfg;
        if cfg.law == ControlLaw::Hybrid && cfg.feed_forward && self.has_history {
            let x = clamp_box(&(clamp_box(&self.x, &lo, &hi) + self.x_dot_ff * dt), &lo, &hi);
            if let Some(w) = self.coherent_tick(patch, q, q_dot, x, &lo, &hi) {
                return Ok(w);
            }
        }
        self.solve_loop(patch, q, q_dot, dt, &lo, &hi)
    }

    /// The general controller loop of [`solve`](Self::solve) (out of line:
    /// the coherent tick stays small).
    #[inline(never)]
    fn solve_loop(
        &mut self,
        patch: &NurbsSurface,
        q: &Vec3,
        q_dot: &Vec3,
        dt: f64,
        lo: &Vector2<f64>,
        hi: &Vector2<f64>,
    ) -> Result<PatchWitness, TrackError> {
        let (lo, hi) = (*lo, *hi);
        let cfg = self.cfg;
        let mut x = clamp_box(&self.x, &lo, &hi);
        if cfg.feed_forward && self.has_history {
            x = clamp_box(&(x + self.x_dot_ff * dt), &lo, &hi);
        }
        let out = track_loop(
            &cfg,
            x,
            &lo,
            &hi,
            &mut |x: &Vector2<f64>| patch.eval_derivs(x[0], x[1]),
            &|sp: &SurfacePoint| point_patch_local(sp, q, q_dot),
            &taylor,
        );
        let (x, sp, loc) = (out.x, out.state, out.loc);
        self.x_dot_ff = out
            .feed_forward
            .unwrap_or_else(|| feed_forward_rate(&cfg, &loc, &x, &lo, &hi));
        self.x = x;
        self.has_history = true;
        let n = sp.su.cross(&sp.sv);
        let nn = n.norm();
        let normal = if nn > 1e-300 && nn.is_finite() {
            n / nn
        } else if loc.dist > 0.0 {
            (sp.p - q) / loc.dist
        } else {
            Vec3::z()
        };
        let out = PatchWitness {
            uv: [x[0], x[1]],
            point: sp.p,
            normal,
            distance: (sp.p - q).norm(),
            mode: mode_of(&x, &out.active, &lo),
            iterations: out.iterations,
            evaluations: out.evaluations,
            // a stationary point that is no minimum has not converged
            converged: out.converged && !saddle(&loc, &out.active),
            left_domain: out.left_domain,
        };
        if !(out.point.iter().all(|c| c.is_finite())
            && out.distance.is_finite()
            && out.normal.iter().all(|c| c.is_finite()))
        {
            return Err(TrackError::Degenerate);
        }
        Ok(out)
    }

    /// The coherent hybrid tick in scalar 2×2 arithmetic (the common case of
    /// a servo loop): one evaluation at the predicted witness, the
    /// safely-positive-definite test and the Newton step from one Cholesky
    /// factor, acceptance when the step is shorter than `step_tol`, the
    /// answer by second-order Taylor expansion and the next feed-forward from
    /// the same factor. Returns `None` (nothing changed) whenever any
    /// condition fails; the general loop then handles the tick. Same results
    /// as [`track_loop`] on this path.
    #[inline(always)]
    fn coherent_tick(
        &mut self,
        patch: &NurbsSurface,
        q: &Vec3,
        q_dot: &Vec3,
        x: Vector2<f64>,
        lo: &Vector2<f64>,
        hi: &Vector2<f64>,
    ) -> Option<PatchWitness> {
        let cfg = &self.cfg;
        if !(x[0] > lo[0] && x[0] < hi[0] && x[1] > lo[1] && x[1] < hi[1]) {
            return None;
        }
        let sp = patch.eval_derivs(x[0], x[1]);
        let dr = sp.p - q;
        let (e, f, g) = (sp.su.dot(&sp.su), sp.su.dot(&sp.sv), sp.sv.dot(&sp.sv));
        let (h11, h12, h22) = (e + dr.dot(&sp.suu), f + dr.dot(&sp.suv), g + dr.dot(&sp.svv));
        // the hybrid law's positive-definiteness floor, as a Cholesky factor
        // would test it (pivots h11 and det/h11 ≥ margin × metric diagonal),
        // written with the determinant: one division for the test, the
        // Newton step and the next feed-forward
        let scale = h11.abs().max(h22.abs());
        let det = h11 * h22 - h12 * h12;
        if !(h11 > 1e-14 * scale
            && h11 >= cfg.pd_margin * e
            && det > 1e-14 * scale * h11
            && det >= cfg.pd_margin * g * h11)
        {
            return None;
        }
        let idet = 1.0 / det;
        let solve = |r0: f64, r1: f64| Vector2::new((h22 * r0 - h12 * r1) * idet, (h11 * r1 - h12 * r0) * idet);
        let d = solve(-dr.dot(&sp.su), -dr.dot(&sp.sv));
        let len2 = e * d[0] * d[0] + 2.0 * f * d[0] * d[1] + g * d[1] * d[1];
        let xn = x + d;
        if !(len2 <= cfg.step_tol * cfg.step_tol
            && xn[0] >= lo[0]
            && xn[0] <= hi[0]
            && xn[1] >= lo[1]
            && xn[1] <= hi[1])
        {
            return None;
        }
        // second-order Taylor expansion of f, f_u, f_v by the step
        let (du, dv) = (d[0], d[1]);
        let p =
            sp.p + sp.su * du + sp.sv * dv + (sp.suu * (du * du) + sp.suv * (2.0 * du * dv) + sp.svv * (dv * dv)) * 0.5;
        let su = sp.su + sp.suu * du + sp.suv * dv;
        let sv = sp.sv + sp.suv * du + sp.svv * dv;
        let ff = solve(q_dot.dot(&su), q_dot.dot(&sv));
        let n = su.cross(&sv);
        let nn = n.norm();
        let dist = (p - q).norm();
        if !(nn > 1e-300 && nn.is_finite() && dist.is_finite() && ff[0].is_finite() && ff[1].is_finite()) {
            return None;
        }
        self.x = xn;
        self.x_dot_ff = ff;
        Some(PatchWitness {
            uv: [xn[0], xn[1]],
            point: p,
            normal: n / nn,
            distance: dist,
            mode: Mode::Interior,
            iterations: 1,
            evaluations: 1,
            converged: true,
            left_domain: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(h: [f64; 3]) -> Local<2> {
        Local {
            g: Vector2::zeros(),
            hess: Matrix2::new(h[0], h[1], h[1], h[2]),
            metric: Matrix2::new(9.0, 0.0, 0.0, 4.0),
            b: Vector2::zeros(),
            dist: 1.0,
        }
    }

    #[test]
    fn a_stationary_point_is_a_saddle_only_with_negative_curvature_on_free_parameters() {
        // a minimum, and a degenerate one whose curvature is round-off
        assert!(!saddle(&local([9.0, 0.0, 4.0]), &[false, false]));
        assert!(!saddle(&local([-1e-15, 0.0, 4.0]), &[false, false]));
        // negative along u, and along a diagonal only (positive diagonal)
        assert!(saddle(&local([-0.02, 0.0, 4.0]), &[false, false]));
        assert!(saddle(&local([1.0, 3.0, 1.0]), &[false, false]));
        // u saturated on a side: only v's curvature counts
        assert!(!saddle(&local([-0.02, 0.0, 4.0]), &[true, false]));
        assert!(saddle(&local([-0.02, 0.0, 4.0]), &[false, true]));
        assert!(!saddle(&local([-1.0, 0.0, -1.0]), &[true, true]));
        // a non-finite Hessian proves no minimum
        assert!(saddle(&local([f64::NAN, 0.0, 4.0]), &[false, false]));
    }
}

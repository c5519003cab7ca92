//! Patch–patch tracker (PG-2002/2004, PG-GUAS remark 5): the witness pair
//! `x = (u, v, r, s)` of two patches `f` (body A) and `h` (body B) in rigid
//! motion, with `ΔR = f − h`, `Ψ = (ΔR·f_u, ΔR·f_v, ΔR·h_r, ΔR·h_s)`.
//!
//! The controller works with the gradient of `½|ΔR|²`,
//! `g = (Ψᵘ, Ψᵛ, −Ψʳ, −Ψˢ) = S Ψ`, whose Jacobian is `S M` with `M` the 4×4
//! matrix printed in PG-2004 (rows 3–4: `[f_u·h_r, f_v·h_r, −h_r·h_r + ΔR·h_rr,
//! −h_s·h_r + ΔR·h_rs]`, …). So the feedback-linearised law `ẋ = M⁻¹(−KΨ − b)`
//! is `ẋ = (SM)⁻¹(−K g − S b)` and the globally convergent law descends
//! `½|ΔR|²` (`u̇ = −KΨᵘ`, `ṙ = +KΨʳ`). The motion term `b = ∂Ψ/∂t` at fixed
//! parameters comes from both twists: `∂f/∂t = v_A + ω_A × f`,
//! `∂f_u/∂t = ω_A × f_u`, and likewise for `h` with body B (PG-2002).

use super::config::{ControlLaw, Mode, TrackError, TrackerConfig};
use super::core::{clamp_box, feed_forward_rate, track_loop, Chol, Local};
use super::motion::BodyState;
use super::point_patch::{mode_of, taylor};
use crate::geom::{NurbsSurface, SurfacePoint, Vec3};
use nalgebra::{Matrix3, Matrix4, Vector2, Vector4};

/// The answer of one patch–patch update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairWitness {
    /// Witness parameters `(u, v)` on patch A.
    pub uv: [f64; 2],
    /// Witness parameters `(r, s)` on patch B.
    pub rs: [f64; 2],
    /// Witness point on A, world.
    pub point_a: Vec3,
    /// Witness point on B, world.
    pub point_b: Vec3,
    /// Unit vector from `point_a` to `point_b` (A's unit normal when touching).
    pub normal: Vec3,
    /// `|f − h|`, mm.
    pub distance: f64,
    /// Controller mode on A.
    pub mode_a: Mode,
    /// Controller mode on B.
    pub mode_b: Mode,
    /// Controller iterations.
    pub iterations: u32,
    /// Evaluations of the pair.
    pub evaluations: u32,
    /// Tolerance met.
    pub converged: bool,
}

/// Both surface points in world coordinates.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairState {
    pub(crate) a: SurfacePoint,
    pub(crate) b: SurfacePoint,
}

/// A body pose as a rotation matrix and translation (one quaternion-to-matrix
/// conversion per tick serves every frame change of the tick).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) r: Matrix3<f64>,
    pub(crate) t: Vec3,
}

impl Frame {
    fn of(body: &BodyState) -> Self {
        Self {
            r: body.pose.iso.rotation.to_rotation_matrix().into_inner(),
            t: body.pose.iso.translation.vector,
        }
    }
}

#[inline(always)]
pub(crate) fn to_world(sp: &SurfacePoint, f: &Frame) -> SurfacePoint {
    let r = &f.r;
    SurfacePoint {
        p: r * sp.p + f.t,
        su: r * sp.su,
        sv: r * sp.sv,
        suu: r * sp.suu,
        suv: r * sp.suv,
        svv: r * sp.svv,
    }
}

/// The motion term `b = ∂Ψ/∂t` (see the module docs) at fixed parameters.
#[inline(always)]
fn pair_b(f: &SurfacePoint, h: &SurfacePoint, a: &BodyState, b: &BodyState) -> Vector4<f64> {
    let dr = f.p - h.p;
    let drdot = a.twist.velocity_at(&f.p) - b.twist.velocity_at(&h.p);
    let (wa, wb) = (a.twist.omega, b.twist.omega);
    // dr·(ω × x) = x·(dr × ω)
    let (ca, cb) = (dr.cross(&wa), dr.cross(&wb));
    Vector4::new(
        (drdot + ca).dot(&f.su),
        (drdot + ca).dot(&f.sv),
        -(drdot + cb).dot(&h.su),
        -(drdot + cb).dot(&h.sv),
    )
}

/// Local data of the patch–patch problem (world coordinates).
#[inline(always)]
pub(crate) fn pair_local(st: &PairState, a: &BodyState, b: &BodyState) -> Local<4> {
    let (f, h) = (&st.a, &st.b);
    let dr = f.p - h.p;
    let (fu, fv, hr, hs) = (f.su, f.sv, h.su, h.sv);
    let e_f = fu.dot(&fu);
    let f_f = fu.dot(&fv);
    let g_f = fv.dot(&fv);
    let e_h = hr.dot(&hr);
    let f_h = hr.dot(&hs);
    let g_h = hs.dot(&hs);
    let hess = Matrix4::new(
        e_f + dr.dot(&f.suu),
        f_f + dr.dot(&f.suv),
        -fu.dot(&hr),
        -fu.dot(&hs),
        f_f + dr.dot(&f.suv),
        g_f + dr.dot(&f.svv),
        -fv.dot(&hr),
        -fv.dot(&hs),
        -fu.dot(&hr),
        -fv.dot(&hr),
        e_h - dr.dot(&h.suu),
        f_h - dr.dot(&h.suv),
        -fu.dot(&hs),
        -fv.dot(&hs),
        f_h - dr.dot(&h.suv),
        g_h - dr.dot(&h.svv),
    );
    let metric = Matrix4::new(
        e_f, f_f, 0.0, 0.0, f_f, g_f, 0.0, 0.0, 0.0, 0.0, e_h, f_h, 0.0, 0.0, f_h, g_h,
    );
    let bvec = pair_b(f, h, a, b);
    Local {
        g: Vector4::new(dr.dot(&fu), dr.dot(&fv), -dr.dot(&hr), -dr.dot(&hs)),
        hess,
        metric,
        b: bvec,
        dist: dr.norm(),
    }
}

/// Locks parameter `i` (the unused second parameter of a curve): identity
/// rows in the Jacobian and metric, no gradient, no motion term.
#[inline]
pub(crate) fn lock(l: &mut Local<4>, i: usize) {
    for j in 0..4 {
        l.hess[(i, j)] = 0.0;
        l.hess[(j, i)] = 0.0;
        l.metric[(i, j)] = 0.0;
        l.metric[(j, i)] = 0.0;
    }
    l.hess[(i, i)] = 1.0;
    l.metric[(i, i)] = 1.0;
    l.g[i] = 0.0;
    l.b[i] = 0.0;
}

/// One accepted coherent step of the patch–patch problem (the servo-loop
/// case of the hybrid law).
pub(crate) struct CoherentStep {
    /// Parameters after the step.
    pub x: Vector4<f64>,
    /// Geometry at `x`, by second-order Taylor expansion from the evaluation.
    pub state: PairState,
    /// Local data at the evaluated parameters (before the step).
    pub loc: Local<4>,
    /// The next feed-forward rate −M⁻¹b from the step's Cholesky factor.
    pub feed_forward: Vector4<f64>,
}

/// The coherent hybrid step from an evaluated state `st` at `x` (strictly
/// inside the box `lo..hi`): one Cholesky factor of the Hessian (the hybrid
/// safely-positive-definite test) serves the Newton step and the next
/// feed-forward; the step is accepted when its metric length is at most
/// `step_tol` and it stays in the box (the Newton exit of
/// [`track_loop`](super::core::track_loop)). `None` when a condition fails:
/// the caller runs the general loop. Parameters flagged in `locked` (the
/// unused second parameter of a curve side, see [`lock`]) stay where they
/// are and take no part in the box tests. Parameters flagged in `bound`
/// sit on a bound of the box and stay there when the gradient still pushes
/// them out of it (they are the active set of the general loop, which would
/// take the same Newton step on the free parameters); `None` otherwise.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn coherent_step(
    cfg: &TrackerConfig,
    st: &PairState,
    a: &BodyState,
    b: &BodyState,
    x: &Vector4<f64>,
    lo: &Vector4<f64>,
    hi: &Vector4<f64>,
    locked: [bool; 4],
    bound: [bool; 4],
) -> Option<CoherentStep> {
    // plain loops (an `all` over a range was left out of line: ~100 instructions a tick)
    let mut inside = true;
    for i in 0..4 {
        inside &= locked[i] || bound[i] || (x[i] > lo[i] && x[i] < hi[i]);
    }
    if !inside {
        return None;
    }
    let mut loc = pair_local(st, a, b);
    for i in 0..4 {
        if bound[i] {
            // the active-set test of the general loop
            let out = (x[i] <= lo[i] && loc.g[i] > 0.0) || (x[i] >= hi[i] && loc.g[i] < 0.0);
            if !out {
                return None;
            }
        }
    }
    for i in 0..4 {
        if locked[i] || bound[i] {
            lock(&mut loc, i);
        }
    }
    let chol = Chol::new(&loc.hess, Some((&loc.metric, cfg.pd_margin)))?;
    let d = chol.solve(&(-loc.g))?;
    // metric length² of the step (the metric is block diagonal)
    let m = &loc.metric;
    let len2 = m[(0, 0)] * d[0] * d[0]
        + 2.0 * m[(0, 1)] * d[0] * d[1]
        + m[(1, 1)] * d[1] * d[1]
        + m[(2, 2)] * d[2] * d[2]
        + 2.0 * m[(2, 3)] * d[2] * d[3]
        + m[(3, 3)] * d[3] * d[3];
    let xn = x + d;
    let mut kept = true;
    for i in 0..4 {
        kept &= locked[i] || bound[i] || (xn[i] >= lo[i] && xn[i] <= hi[i]);
    }
    if !(len2 <= cfg.step_tol * cfg.step_tol && kept) {
        return None;
    }
    let state = PairState {
        a: taylor(&st.a, &Vector2::new(d[0], d[1])),
        b: taylor(&st.b, &Vector2::new(d[2], d[3])),
    };
    let mut feed_forward = chol.solve(&(-pair_b(&state.a, &state.b, a, b)))?;
    for i in 0..4 {
        if bound[i] {
            // (its row of the factor is the identity: the others are unaffected)
            feed_forward[i] = 0.0;
        }
    }
    Some(CoherentStep {
        x: xn,
        state,
        loc,
        feed_forward,
    })
}

/// True when both states are finite and both rotations unit quaternions to
/// 1e-9 (what [`BodyState::validate`] checks, in one finiteness test: a sum
/// of finite values is finite, a NaN or an infinity poisons it).
#[inline(always)]
fn states_ok(a: &BodyState, b: &BodyState) -> bool {
    let sum = |s: &BodyState| {
        let (t, q) = (&s.pose.iso.translation.vector, &s.pose.iso.rotation.coords);
        let (w, v) = (&s.twist.omega, &s.twist.v);
        (t.x + t.y + t.z) + (q.x + q.y + q.z + q.w) + (w.x + w.y + w.z) + (v.x + v.y + v.z)
    };
    let rigid = |s: &BodyState| (s.pose.iso.rotation.coords.norm() - 1.0).abs() <= 1e-9;
    (sum(a) + sum(b)).is_finite() && rigid(a) && rigid(b)
}

/// Tracks the closest pair of points between two patches in rigid motion.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchPairTracker {
    /// Settings.
    pub cfg: TrackerConfig,
    x: Vector4<f64>,
    x_dot_ff: Vector4<f64>,
    has_history: bool,
}

impl PatchPairTracker {
    /// A tracker with witnesses at `uv` on A and `rs` on B.
    pub fn new(cfg: TrackerConfig, uv: [f64; 2], rs: [f64; 2]) -> Result<Self, TrackError> {
        cfg.validate()?;
        if !uv.iter().chain(rs.iter()).all(|x| x.is_finite()) {
            return Err(TrackError::NonFinite("initial parameters"));
        }
        Ok(Self {
            cfg,
            x: Vector4::new(uv[0], uv[1], rs[0], rs[1]),
            x_dot_ff: Vector4::zeros(),
            has_history: false,
        })
    }

    /// Current witness parameters `(u, v, r, s)`.
    pub fn params(&self) -> [f64; 4] {
        [self.x[0], self.x[1], self.x[2], self.x[3]]
    }

    /// Moves the witnesses and forgets the motion history.
    pub fn reset(&mut self, uv: [f64; 2], rs: [f64; 2]) {
        self.x = Vector4::new(uv[0], uv[1], rs[0], rs[1]);
        self.x_dot_ff = Vector4::zeros();
        self.has_history = false;
    }

    /// One tick: patch A on body A, patch B on body B; `dt` since the last update.
    pub fn update(
        &mut self,
        patch_a: &NurbsSurface,
        body_a: &BodyState,
        patch_b: &NurbsSurface,
        body_b: &BodyState,
        dt: f64,
    ) -> Result<PairWitness, TrackError> {
        // the tick compiled with AVX2 + FMA when the CPU has both
        crate::geom::simd::with_avx2_fma(|| self.update_impl(patch_a, body_a, patch_b, body_b, dt))
    }

    /// The body of [`update`](Self::update).
    #[inline(always)]
    fn update_impl(
        &mut self,
        patch_a: &NurbsSurface,
        body_a: &BodyState,
        patch_b: &NurbsSurface,
        body_b: &BodyState,
        dt: f64,
    ) -> Result<PairWitness, TrackError> {
        if !(states_ok(body_a, body_b) && (0.0..f64::INFINITY).contains(&dt)) {
            // the detailed checks name the culprit
            body_a.validate()?;
            body_b.validate()?;
            if !(dt.is_finite() && dt >= 0.0) {
                return Err(TrackError::NonFinite("dt"));
            }
        }
        let ((u0, u1), (v0, v1)) = patch_a.domain();
        let ((r0, r1), (s0, s1)) = patch_b.domain();
        let lo = Vector4::new(u0, v0, r0, s0);
        let hi = Vector4::new(u1, v1, r1, s1);
        let cfg = self.cfg;
        let (fa, fb) = (Frame::of(body_a), Frame::of(body_b));
        let mut x = clamp_box(&self.x, &lo, &hi);
        if cfg.feed_forward && self.has_history {
            x = clamp_box(&(x + self.x_dot_ff * dt), &lo, &hi);
            if cfg.law == ControlLaw::Hybrid {
                if let Some(w) = self.coherent_tick(patch_a, body_a, &fa, patch_b, body_b, &fb, x, &lo, &hi) {
                    return Ok(w);
                }
            }
        }
        let out = track_loop(
            &cfg,
            x,
            &lo,
            &hi,
            &mut |x: &Vector4<f64>| PairState {
                a: to_world(&patch_a.eval_derivs(x[0], x[1]), &fa),
                b: to_world(&patch_b.eval_derivs(x[2], x[3]), &fb),
            },
            &|st: &PairState| pair_local(st, body_a, body_b),
            &|st: &PairState, d: &Vector4<f64>| PairState {
                a: taylor(&st.a, &Vector2::new(d[0], d[1])),
                b: taylor(&st.b, &Vector2::new(d[2], d[3])),
            },
        );
        let x = out.x;
        self.x_dot_ff = out
            .feed_forward
            .unwrap_or_else(|| feed_forward_rate(&cfg, &out.loc, &x, &lo, &hi));
        self.x = x;
        self.has_history = true;
        let (pa, pb) = (out.state.a.p, out.state.b.p);
        let d = pb - pa;
        let dist = d.norm();
        let normal = if dist > 1e-12 {
            d / dist
        } else {
            let n = out.state.a.su.cross(&out.state.a.sv);
            let nn = n.norm();
            if nn > 0.0 {
                n / nn
            } else {
                Vec3::z()
            }
        };
        let aa = [out.active[0], out.active[1]];
        let ab = [out.active[2], out.active[3]];
        let res = PairWitness {
            uv: [x[0], x[1]],
            rs: [x[2], x[3]],
            point_a: pa,
            point_b: pb,
            normal,
            distance: dist,
            mode_a: mode_of(&Vector2::new(x[0], x[1]), &aa, &Vector2::new(u0, v0)),
            mode_b: mode_of(&Vector2::new(x[2], x[3]), &ab, &Vector2::new(r0, s0)),
            iterations: out.iterations,
            evaluations: out.evaluations,
            converged: out.converged,
        };
        if !(pa.iter().chain(pb.iter()).chain(normal.iter()).all(|c| c.is_finite()) && dist.is_finite()) {
            return Err(TrackError::Degenerate);
        }
        Ok(res)
    }

    /// The coherent hybrid tick (the servo-loop case): one evaluation of each
    /// patch at the predicted witnesses, one Cholesky factor of the Hessian
    /// (the hybrid safely-positive-definite test) serving the Newton step and
    /// the next feed-forward, acceptance when the step is shorter than
    /// `step_tol`, the answer by second-order Taylor expansion. `None` (nothing
    /// changed) whenever a condition fails; the general loop then runs.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn coherent_tick(
        &mut self,
        patch_a: &NurbsSurface,
        body_a: &BodyState,
        frame_a: &Frame,
        patch_b: &NurbsSurface,
        body_b: &BodyState,
        frame_b: &Frame,
        x: Vector4<f64>,
        lo: &Vector4<f64>,
        hi: &Vector4<f64>,
    ) -> Option<PairWitness> {
        let st = PairState {
            a: to_world(&patch_a.eval_derivs(x[0], x[1]), frame_a),
            b: to_world(&patch_b.eval_derivs(x[2], x[3]), frame_b),
        };
        let CoherentStep {
            x: xn,
            state: st,
            feed_forward: ff,
            ..
        } = coherent_step(&self.cfg, &st, body_a, body_b, &x, lo, hi, [false; 4], [false; 4])?;
        let (pa, pb) = (st.a.p, st.b.p);
        let dv = pb - pa;
        let dist = dv.norm();
        if !(dist > 1e-12 && dist.is_finite()) {
            return None;
        }
        self.x = xn;
        self.x_dot_ff = ff;
        Some(PairWitness {
            uv: [xn[0], xn[1]],
            rs: [xn[2], xn[3]],
            point_a: pa,
            point_b: pb,
            normal: dv / dist,
            distance: dist,
            mode_a: Mode::Interior,
            mode_b: Mode::Interior,
            iterations: 1,
            evaluations: 1,
            converged: true,
        })
    }
}

//! The 1-D analogues (PG-2004 planar bodies; B-rep edges): point–curve
//! (`x = t`) and curve–curve (`x = (t, s)`) trackers with end-point
//! saturation, on the same shared controller as the patches.
//!
//! Point–curve: `ΔR = c(t) − Q`, `Ψ = ΔR·c'`, `M = c'·c' + ΔR·c''`,
//! `b = −Q̇·c'`. Curve–curve: `ΔR = c₁(t) − c₂(s)`, `g = (ΔR·c₁', −ΔR·c₂')`,
//! Jacobian `[[c₁'·c₁' + ΔR·c₁'', −c₁'·c₂'], [−c₁'·c₂', c₂'·c₂' − ΔR·c₂'']]`.

use super::config::{Mode, TrackError, TrackerConfig};
use super::core::{clamp_box, feed_forward_rate, track_loop, Local};
use super::motion::{BodyState, PointState};
use crate::geom::{CurveEval, CurvePoint, NurbsCurve, Vec3};
use nalgebra::{Matrix1, Matrix2, Vector1, Vector2};

/// Answer of a point–curve update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveWitness {
    /// Witness parameter.
    pub t: f64,
    /// Witness point, world.
    pub point: Vec3,
    /// Unit tangent at the witness, world.
    pub tangent: Vec3,
    /// Distance, mm.
    pub distance: f64,
    /// `Interior`, `U0` (at the start) or `U1` (at the end).
    pub mode: Mode,
    /// Controller iterations.
    pub iterations: u32,
    /// Curve evaluations.
    pub evaluations: u32,
    /// Tolerance met.
    pub converged: bool,
}

/// Answer of a curve–curve update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePairWitness {
    /// Witness parameter on curve 1.
    pub t: f64,
    /// Witness parameter on curve 2.
    pub s: f64,
    /// Witness on curve 1, world.
    pub point_a: Vec3,
    /// Witness on curve 2, world.
    pub point_b: Vec3,
    /// Distance, mm.
    pub distance: f64,
    /// Controller iterations.
    pub iterations: u32,
    /// Tolerance met.
    pub converged: bool,
}

fn world(c: &CurvePoint, b: &BodyState) -> CurvePoint {
    let r = &b.pose.iso.rotation;
    CurvePoint {
        p: b.pose.transform_point(&c.p),
        d1: r * c.d1,
        d2: r * c.d2,
    }
}

/// Local data of the point–curve problem: `ΔR = c(t) − Q`, `Ψ = ΔR·c'`,
/// `M = c'·c' + ΔR·c''`, `b = −Q̇·c'`.
#[inline]
pub fn point_curve_local(c: &CurvePoint, q: &Vec3, q_dot: &Vec3) -> Local<1> {
    let dr = c.p - q;
    let e = c.d1.dot(&c.d1);
    Local {
        g: Vector1::new(dr.dot(&c.d1)),
        hess: Matrix1::new(e + dr.dot(&c.d2)),
        metric: Matrix1::new(e),
        b: Vector1::new(-q_dot.dot(&c.d1)),
        dist: dr.norm(),
    }
}

fn curve_taylor(c: &CurvePoint, dt: f64) -> CurvePoint {
    CurvePoint {
        p: c.p + c.d1 * dt + c.d2 * (0.5 * dt * dt),
        d1: c.d1 + c.d2 * dt,
        d2: c.d2,
    }
}

fn end_mode(active: bool, x: f64, lo: f64) -> Mode {
    if !active {
        Mode::Interior
    } else if x <= lo {
        Mode::U0
    } else {
        Mode::U1
    }
}

/// Tracks the closest point of a curve to a moving point.
#[derive(Debug, Clone, PartialEq)]
pub struct PointCurveTracker {
    /// Settings.
    pub cfg: TrackerConfig,
    x: f64,
    x_dot_ff: f64,
    has_history: bool,
}

impl PointCurveTracker {
    /// A tracker with its witness at parameter `t`.
    pub fn new(cfg: TrackerConfig, t: f64) -> Result<Self, TrackError> {
        cfg.validate()?;
        if !t.is_finite() {
            return Err(TrackError::NonFinite("initial parameter"));
        }
        Ok(Self {
            cfg,
            x: t,
            x_dot_ff: 0.0,
            has_history: false,
        })
    }

    /// Current witness parameter.
    pub fn t(&self) -> f64 {
        self.x
    }

    /// Moves the witness and forgets the history.
    pub fn reset(&mut self, t: f64) {
        self.x = t;
        self.x_dot_ff = 0.0;
        self.has_history = false;
    }

    /// One tick (`curve` fixed to `body`).
    pub fn update<C: CurveEval + ?Sized>(
        &mut self,
        curve: &C,
        point: &PointState,
        body: &BodyState,
        dt: f64,
    ) -> Result<CurveWitness, TrackError> {
        point.validate()?;
        body.validate()?;
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(TrackError::NonFinite("dt"));
        }
        let (q, qd) = point.in_body(body);
        let (t0, t1) = curve.domain();
        let (lo, hi) = (Vector1::new(t0), Vector1::new(t1));
        let cfg = self.cfg;
        let mut x = clamp_box(&Vector1::new(self.x), &lo, &hi);
        if cfg.feed_forward && self.has_history {
            x = clamp_box(&(x + Vector1::new(self.x_dot_ff * dt)), &lo, &hi);
        }
        let local = |c: &CurvePoint| point_curve_local(c, &q, &qd);
        let out = track_loop(
            &cfg,
            x,
            &lo,
            &hi,
            &mut |x: &Vector1<f64>| curve.eval_derivs(x[0]),
            &local,
            &|c: &CurvePoint, d: &Vector1<f64>| curve_taylor(c, d[0]),
        );
        self.x_dot_ff = out
            .feed_forward
            .unwrap_or_else(|| feed_forward_rate(&cfg, &out.loc, &out.x, &lo, &hi))[0];
        self.x = out.x[0];
        self.has_history = true;
        let c = world(&out.state, body);
        let tl = c.d1.norm();
        let res = CurveWitness {
            t: out.x[0],
            point: c.p,
            tangent: if tl > 0.0 { c.d1 / tl } else { Vec3::x() },
            distance: (c.p - point.q).norm(),
            mode: end_mode(out.active[0], out.x[0], t0),
            iterations: out.iterations,
            evaluations: out.evaluations,
            converged: out.converged,
        };
        if !(res.point.iter().all(|v| v.is_finite()) && res.distance.is_finite()) {
            return Err(TrackError::Degenerate);
        }
        Ok(res)
    }
}

/// Tracks the closest pair between two curves in rigid motion.
#[derive(Debug, Clone, PartialEq)]
pub struct CurvePairTracker {
    /// Settings.
    pub cfg: TrackerConfig,
    x: Vector2<f64>,
    x_dot_ff: Vector2<f64>,
    has_history: bool,
}

impl CurvePairTracker {
    /// A tracker with witnesses at `t` on curve 1 and `s` on curve 2.
    pub fn new(cfg: TrackerConfig, t: f64, s: f64) -> Result<Self, TrackError> {
        cfg.validate()?;
        if !(t.is_finite() && s.is_finite()) {
            return Err(TrackError::NonFinite("initial parameters"));
        }
        Ok(Self {
            cfg,
            x: Vector2::new(t, s),
            x_dot_ff: Vector2::zeros(),
            has_history: false,
        })
    }

    /// Current witness parameters `(t, s)`.
    pub fn params(&self) -> (f64, f64) {
        (self.x[0], self.x[1])
    }

    /// One tick: curve 1 on body A, curve 2 on body B.
    pub fn update(
        &mut self,
        c1: &NurbsCurve,
        a: &BodyState,
        c2: &NurbsCurve,
        b: &BodyState,
        dt: f64,
    ) -> Result<CurvePairWitness, TrackError> {
        a.validate()?;
        b.validate()?;
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(TrackError::NonFinite("dt"));
        }
        let ((t0, t1), (s0, s1)) = (c1.domain(), c2.domain());
        let (lo, hi) = (Vector2::new(t0, s0), Vector2::new(t1, s1));
        let cfg = self.cfg;
        let mut x = clamp_box(&self.x, &lo, &hi);
        if cfg.feed_forward && self.has_history {
            x = clamp_box(&(x + self.x_dot_ff * dt), &lo, &hi);
        }
        let local = |st: &(CurvePoint, CurvePoint)| {
            let (f, h) = st;
            let dr = f.p - h.p;
            let fdot = a.twist.velocity_at(&f.p) - b.twist.velocity_at(&h.p);
            Local {
                g: Vector2::new(dr.dot(&f.d1), -dr.dot(&h.d1)),
                hess: Matrix2::new(
                    f.d1.dot(&f.d1) + dr.dot(&f.d2),
                    -f.d1.dot(&h.d1),
                    -f.d1.dot(&h.d1),
                    h.d1.dot(&h.d1) - dr.dot(&h.d2),
                ),
                metric: Matrix2::new(f.d1.dot(&f.d1), 0.0, 0.0, h.d1.dot(&h.d1)),
                b: Vector2::new(
                    fdot.dot(&f.d1) + dr.dot(&a.twist.omega.cross(&f.d1)),
                    -(fdot.dot(&h.d1) + dr.dot(&b.twist.omega.cross(&h.d1))),
                ),
                dist: dr.norm(),
            }
        };
        let out = track_loop(
            &cfg,
            x,
            &lo,
            &hi,
            &mut |x: &Vector2<f64>| (world(&c1.eval_derivs(x[0]), a), world(&c2.eval_derivs(x[1]), b)),
            &local,
            &|st: &(CurvePoint, CurvePoint), d: &Vector2<f64>| (curve_taylor(&st.0, d[0]), curve_taylor(&st.1, d[1])),
        );
        self.x_dot_ff = out
            .feed_forward
            .unwrap_or_else(|| feed_forward_rate(&cfg, &out.loc, &out.x, &lo, &hi));
        self.x = out.x;
        self.has_history = true;
        let (pa, pb) = (out.state.0.p, out.state.1.p);
        let res = CurvePairWitness {
            t: out.x[0],
            s: out.x[1],
            point_a: pa,
            point_b: pb,
            distance: (pa - pb).norm(),
            iterations: out.iterations,
            converged: out.converged,
        };
        if !(res.distance.is_finite()) {
            return Err(TrackError::Degenerate);
        }
        Ok(res)
    }
}

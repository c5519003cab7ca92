//! Tracker configuration: control law, integrator, gain, step and tolerances.

use thiserror::Error;

/// The low-level control law that moves the witness parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ControlLaw {
    /// PG-GUAS eq. (1): `ẋ = −K Ψ` with boundary saturation (optionally
    /// preconditioned by the inverse first fundamental form, see
    /// [`TrackerConfig::precondition`]). Globally convergent on a nice patch.
    GloballyConvergent,
    /// PG-GUAS eq. (3): the globally convergent law preconditioned by `I⁻¹`
    /// with the motion terms `b_u, b_v, b_1, b_2` that cancel motion when it
    /// disturbs and keep it when it helps.
    Enhanced,
    /// PG-2002/2004/2005: `ẋ = M⁻¹(−KΨ − b)` (feedback linearisation with
    /// motion feed-forward). Falls back to the globally convergent law where
    /// `M` is singular (documented fallback, never NaN).
    FeedbackLinearized,
    /// Feedback-linearised where `M` is safely positive definite, globally
    /// convergent elsewhere: global and fast. The default.
    #[default]
    Hybrid,
    /// Newton iteration on `Ψ = 0` (NJC-1999 / Johnson–Cohen), no boundary
    /// handling: leaving the parameter domain is a failure.
    Newton,
    /// Newton iteration with the parameters clamped (saturated) at the
    /// boundaries (PG-GUAS Fig. 6 C–D).
    NewtonSaturated,
}

/// Explicit integrators for the controller ODE `ẋ = φ(x)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Integrator {
    /// Explicit Euler (stable for `0 < hK < 2`).
    #[default]
    Euler,
    /// Heun's second-order Runge–Kutta (stable for `0 < hK < 2`).
    Rk2,
    /// Classical fourth-order Runge–Kutta (stable for `0 < hK < ≈2.785`).
    Rk4,
}

/// Low-level controller mode (the 5-mode automaton of PG-GUAS Fig. 4, plus
/// the corner case where both parameters are saturated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Witness inside the patch: unconstrained law.
    #[default]
    Interior,
    /// Saturated on the boundary `u = 0` (or `t = 0` for curves).
    U0,
    /// Saturated on `u = 1`.
    U1,
    /// Saturated on `v = 0`.
    V0,
    /// Saturated on `v = 1`.
    V1,
    /// More than one parameter saturated (a patch corner): the witness stays.
    Corner,
}

/// Tracker settings. `gain_k · h` is what matters for discrete stability
/// (see [`crate::track::gains::stable_gain_window`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrackerConfig {
    /// Control law.
    pub law: ControlLaw,
    /// Integrator of the controller ODE.
    pub integrator: Integrator,
    /// Gain `K`, 1/s.
    pub gain_k: f64,
    /// Controller integration step `h`, s (one controller iteration).
    pub h: f64,
    /// Convergence: normalised projection error (sine of the angle between
    /// `ΔR` and the normal) below which the witness is converged.
    pub tol: f64,
    /// Convergence: a Newton-like step shorter than this (mm) is accepted as
    /// converged (the remaining error is then ≈ curvature × step²).
    pub step_tol: f64,
    /// Maximum controller iterations per update.
    pub max_iters: u32,
    /// Precondition the globally convergent law by the inverse first
    /// fundamental form (scale-free gains). Eq. (3) always does.
    pub precondition: bool,
    /// Feed the motion of the query forward (the `b` term and prediction of
    /// the witness to the next update).
    pub feed_forward: bool,
    /// Hybrid switch: `M` is "safely positive definite" when
    /// `M − margin · I` is positive definite (`I` = first fundamental form).
    pub pd_margin: f64,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        Self {
            law: ControlLaw::Hybrid,
            integrator: Integrator::Euler,
            gain_k: 1000.0,
            h: 1e-3,
            tol: 1e-12,
            step_tol: 1e-5,
            max_iters: 64,
            precondition: true,
            feed_forward: true,
            pd_margin: 0.05,
        }
    }
}

/// Errors of the trackers (bad input; the trackers never return NaN).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TrackError {
    /// A query point, pose, twist or time step is NaN or infinite.
    #[error("non-finite input: {0}")]
    NonFinite(&'static str),
    /// A configuration value is out of range.
    #[error("invalid tracker configuration: {0}")]
    Config(&'static str),
    /// The patch or curve is degenerate where the witness sits (zero-length
    /// tangent or a non-positive rational weight sum).
    #[error("degenerate geometry at the witness (zero-length tangent)")]
    Degenerate,
    /// A pose is not rigid (non-unit rotation).
    #[error("pose is not rigid")]
    NotRigid,
}

impl TrackerConfig {
    /// Checks ranges (positive gain and step, positive tolerances, ≥ 1 iteration).
    pub fn validate(&self) -> Result<(), TrackError> {
        let pos = |x: f64| x.is_finite() && x > 0.0;
        if !pos(self.gain_k) {
            return Err(TrackError::Config("gain_k must be finite and > 0"));
        }
        if !pos(self.h) {
            return Err(TrackError::Config("h must be finite and > 0"));
        }
        if !pos(self.tol) || !pos(self.step_tol) {
            return Err(TrackError::Config("tolerances must be finite and > 0"));
        }
        if self.max_iters == 0 {
            return Err(TrackError::Config("max_iters must be >= 1"));
        }
        if !(self.pd_margin.is_finite() && self.pd_margin >= 0.0) {
            return Err(TrackError::Config("pd_margin must be finite and >= 0"));
        }
        Ok(())
    }
}

//! The box-constrained controller shared by every tracker (point–patch,
//! point–curve, curve–curve, patch–patch): one implementation of the control
//! laws, boundary saturation and integrators for `N` witness parameters.
//!
//! Each tracker supplies, at witness parameters `x ∈ [lo, hi]ᴺ`, a [`Local`]:
//! the gradient `g` of `½|ΔR|²` (for point–patch `g = Ψ`; for two surfaces
//! `g = (Ψᵘ, Ψᵛ, −Ψʳ, −Ψˢ)`, `docs/architecture.md` "Conventions"), its Jacobian `H`
//! (`= S·M` with `M` the matrix of PG-2002/2004, `S = diag(±1)`), the metric
//! (block-diagonal first fundamental forms) and the motion term `b = ∂g/∂t`.
//!
//! Laws (`docs/architecture.md`, "Runtime algorithms"):
//! - globally convergent (PG-GUAS eq. 1): `ẋ = −K g` (or `−K I⁻¹ g`), with
//!   saturated components where the witness sits on a boundary and the law
//!   pushes out (the 5-mode automaton);
//! - feedback-linearised (PG-2002): `ẋ = H⁻¹(−K g − b)`;
//! - hybrid: feedback-linearised where `H − margin·I` is positive definite;
//! - Newton: `x ← x − H⁻¹ g` (clamped or not).
//!
//! Saturation is the KKT active set: component `i` is frozen when `x_i = lo_i`
//! and `g_i > 0`, or `x_i = hi_i` and `g_i < 0`; the reduced system is solved
//! on the free components.

use super::config::{ControlLaw, Integrator, TrackerConfig};
use super::patch_pair::PairState;
use crate::geom::{CurvePoint, SurfacePoint, Vec3};
use nalgebra::{SMatrix, SVector};

mod saddle_free;
mod small_solve;
use saddle_free::saddle_free_step;
pub use saddle_free::SADDLE_FREE_AFTER;
pub use small_solve::{solve_general, solve_spd, Chol};

/// Local first- and second-order data of the distance function at a witness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Local<const N: usize> {
    /// Gradient of `½|ΔR|²` with respect to the witness parameters.
    pub g: SVector<f64, N>,
    /// Jacobian of `g` (symmetric: the Hessian of `½|ΔR|²`).
    pub hess: SMatrix<f64, N, N>,
    /// Metric: block-diagonal first fundamental forms (positive definite on
    /// regular geometry).
    pub metric: SMatrix<f64, N, N>,
    /// Motion term `∂g/∂t` at fixed parameters (zero when nothing moves).
    pub b: SVector<f64, N>,
    /// `|ΔR|`, mm.
    pub dist: f64,
}

/// Result of one controller step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepOut<const N: usize> {
    /// New parameters (inside the bounds unless the law is plain Newton).
    pub x: SVector<f64, N>,
    /// The integrator's step target before saturation at the bounds (equal
    /// to `x` for the Newton laws): a backtracking line search halves this
    /// step, whose direction descends, not the saturated one, whose
    /// direction need not (a preconditioned step cut at a bound can turn
    /// uphill in the free parameters).
    pub raw: SVector<f64, N>,
    /// Components saturated at the start of the step.
    pub active: [bool; N],
    /// True when the feedback-linearised / Newton branch was used.
    pub newton_like: bool,
    /// Extra evaluations the integrator made (RK stages).
    pub extra_evals: u32,
    /// False when an intermediate evaluation failed (degenerate geometry).
    pub ok: bool,
}

/// KKT active set at `x`.
#[inline]
pub fn active_set<const N: usize>(
    x: &SVector<f64, N>,
    g: &SVector<f64, N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
) -> [bool; N] {
    let mut a = [false; N];
    for i in 0..N {
        a[i] = (x[i] <= lo[i] && g[i] > 0.0) || (x[i] >= hi[i] && g[i] < 0.0);
    }
    a
}

/// Restricts a system to the free components (active rows/columns replaced by
/// the identity, right-hand side zeroed), so its solution has `ẋ_i = 0` on
/// the active set.
#[inline]
fn reduce<const N: usize>(
    m: &SMatrix<f64, N, N>,
    r: &SVector<f64, N>,
    active: &[bool; N],
) -> (SMatrix<f64, N, N>, SVector<f64, N>) {
    let mut m = *m;
    let mut r = *r;
    for i in 0..N {
        if active[i] {
            for j in 0..N {
                m[(i, j)] = 0.0;
                m[(j, i)] = 0.0;
            }
            m[(i, i)] = 1.0;
            r[i] = 0.0;
        }
    }
    (m, r)
}

/// True when the reduced Hessian is "safely positive definite": its Cholesky
/// pivots `d_j` (squared diagonal of `L`) are at least `margin` times the
/// metric's diagonal `I_jj`, i.e. `M` dominates a fraction of the first
/// fundamental form along each parameter.
#[inline]
pub fn safely_pd<const N: usize>(loc: &Local<N>, active: &[bool; N], margin: f64) -> bool {
    let (m, _) = reduce(&loc.hess, &SVector::zeros(), active);
    Chol::new(&m, Some((&reduce(&loc.metric, &SVector::zeros(), active).0, margin))).is_some()
}

/// The globally convergent field (eq. 1, optionally `I⁻¹`-preconditioned as in
/// eq. 3) on the free components.
#[inline]
fn gc_field<const N: usize>(
    cfg: &TrackerConfig,
    loc: &Local<N>,
    active: &[bool; N],
    precondition: bool,
) -> SVector<f64, N> {
    let r = -loc.g * cfg.gain_k;
    if precondition {
        let (m, r) = reduce(&loc.metric, &r, active);
        if let Some(x) = solve_spd(&m, &r) {
            return x;
        }
    }
    let mut x = r;
    for i in 0..N {
        if active[i] {
            x[i] = 0.0;
        }
    }
    x
}

/// Motion terms of the enhanced controller (PG-GUAS eq. 3) in gradient
/// coordinates: the component `−b_i` is kept where motion disturbs
/// (`g_i b_i > 0`: it would grow `|g_i|`) and dropped where it helps.
#[inline]
pub fn enhanced_motion<const N: usize>(loc: &Local<N>) -> SVector<f64, N> {
    let mut m = SVector::zeros();
    for i in 0..N {
        let gb = loc.g[i] * loc.b[i];
        if gb > 0.0 {
            m[i] = -loc.b[i];
        } else if gb == 0.0 {
            m[i] = -0.5 * loc.b[i];
        }
    }
    m
}

/// The control field `ẋ = φ(x)` at frozen time (motion enters through the
/// prediction, see [`feed_forward_rate`]). Returns `(ẋ, active, newton_like)`.
#[inline]
pub fn field<const N: usize>(
    cfg: &TrackerConfig,
    loc: &Local<N>,
    x: &SVector<f64, N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
) -> (SVector<f64, N>, [bool; N], bool) {
    field_with_margin(cfg, loc, x, lo, hi, cfg.pd_margin)
}

/// [`field`] with the hybrid law's positive-definiteness margin `margin`
/// in place of `cfg.pd_margin` ([`FOCAL_AFTER`]).
#[inline]
fn field_with_margin<const N: usize>(
    cfg: &TrackerConfig,
    loc: &Local<N>,
    x: &SVector<f64, N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
    margin: f64,
) -> (SVector<f64, N>, [bool; N], bool) {
    let active = active_set(x, &loc.g, lo, hi);
    let r = -loc.g * cfg.gain_k;
    match cfg.law {
        ControlLaw::GloballyConvergent => (gc_field(cfg, loc, &active, cfg.precondition), active, false),
        ControlLaw::Enhanced => (gc_field(cfg, loc, &active, true), active, false),
        ControlLaw::FeedbackLinearized | ControlLaw::Newton | ControlLaw::NewtonSaturated => {
            let (m, rr) = reduce(&loc.hess, &r, &active);
            match solve_general(&m, &rr) {
                Some(v) => (v, active, true),
                None => (gc_field(cfg, loc, &active, true), active, false),
            }
        }
        ControlLaw::Hybrid => {
            let (m, rr) = reduce(&loc.hess, &r, &active);
            if let Some(v) = Chol::new(&m, Some((&reduce(&loc.metric, &SVector::zeros(), &active).0, margin)))
                .and_then(|c| c.solve(&rr))
            {
                return (v, active, true);
            }
            (gc_field(cfg, loc, &active, true), active, false)
        }
    }
}

/// Witness parameter rate that feeds the motion forward: `−H⁻¹ b` for the
/// feedback-linearised and hybrid laws (where `H` is invertible / safely PD),
/// `I⁻¹ b̃` (eq. 3 motion terms) for the enhanced law, zero otherwise.
pub fn feed_forward_rate<const N: usize>(
    cfg: &TrackerConfig,
    loc: &Local<N>,
    x: &SVector<f64, N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
) -> SVector<f64, N> {
    if !cfg.feed_forward {
        return SVector::zeros();
    }
    let active = active_set(x, &loc.g, lo, hi);
    let enhanced = || {
        let (m, r) = reduce(&loc.metric, &enhanced_motion(loc), &active);
        solve_spd(&m, &r).unwrap_or_else(SVector::zeros)
    };
    match cfg.law {
        ControlLaw::FeedbackLinearized => {
            let (m, r) = reduce(&loc.hess, &(-loc.b), &active);
            solve_general(&m, &r).unwrap_or_else(enhanced)
        }
        ControlLaw::Hybrid => {
            let (m, r) = reduce(&loc.hess, &(-loc.b), &active);
            Chol::new(
                &m,
                Some((&reduce(&loc.metric, &SVector::zeros(), &active).0, cfg.pd_margin)),
            )
            .and_then(|c| c.solve(&r))
            .unwrap_or_else(enhanced)
        }
        ControlLaw::Enhanced => enhanced(),
        _ => SVector::zeros(),
    }
}

/// Clamps into the box.
#[inline]
pub fn clamp_box<const N: usize>(x: &SVector<f64, N>, lo: &SVector<f64, N>, hi: &SVector<f64, N>) -> SVector<f64, N> {
    let mut y = *x;
    for i in 0..N {
        y[i] = y[i].clamp(lo[i], hi[i]);
    }
    y
}

/// One controller step from `x` (where `loc` was evaluated). `eval` evaluates
/// further stages for RK2/RK4. Newton laws take the full Newton step
/// regardless of integrator and gain.
pub fn controller_step<const N: usize, E>(
    cfg: &TrackerConfig,
    x: &SVector<f64, N>,
    loc: &Local<N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
    eval: &mut E,
) -> StepOut<N>
where
    E: FnMut(&SVector<f64, N>) -> Option<Local<N>>,
{
    controller_step_with_margin(cfg, x, loc, lo, hi, eval, cfg.pd_margin)
}

/// [`controller_step`] with the hybrid law's margin `margin` in place of
/// `cfg.pd_margin` ([`FOCAL_AFTER`]).
#[inline]
fn controller_step_with_margin<const N: usize, E>(
    cfg: &TrackerConfig,
    x: &SVector<f64, N>,
    loc: &Local<N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
    eval: &mut E,
    margin: f64,
) -> StepOut<N>
where
    E: FnMut(&SVector<f64, N>) -> Option<Local<N>>,
{
    match cfg.law {
        ControlLaw::Newton => {
            let step = solve_general(&loc.hess, &(-loc.g));
            return match step {
                Some(d) => StepOut {
                    x: x + d,
                    raw: x + d,
                    active: [false; N],
                    newton_like: true,
                    extra_evals: 0,
                    ok: true,
                },
                None => StepOut {
                    x: *x,
                    raw: *x,
                    active: [false; N],
                    newton_like: true,
                    extra_evals: 0,
                    ok: false,
                },
            };
        }
        ControlLaw::NewtonSaturated => {
            let active = active_set(x, &loc.g, lo, hi);
            let (m, r) = reduce(&loc.hess, &(-loc.g), &active);
            return match solve_general(&m, &r).map(|d| clamp_box(&(x + d), lo, hi)) {
                Some(xn) => StepOut {
                    x: xn,
                    raw: xn,
                    active,
                    newton_like: true,
                    extra_evals: 0,
                    ok: true,
                },
                None => StepOut {
                    x: *x,
                    raw: *x,
                    active,
                    newton_like: true,
                    extra_evals: 0,
                    ok: false,
                },
            };
        }
        _ => {}
    }
    let h = cfg.h;
    let (k1, active, newton_like) = field_with_margin(cfg, loc, x, lo, hi, margin);
    let mut stage = |xs: SVector<f64, N>| -> Option<SVector<f64, N>> {
        let xs = clamp_box(&xs, lo, hi);
        let l = eval(&xs)?;
        Some(field_with_margin(cfg, &l, &xs, lo, hi, margin).0)
    };
    let (xn, extra, ok) = match cfg.integrator {
        Integrator::Euler => (x + k1 * h, 0, true),
        Integrator::Rk2 => match stage(x + k1 * h) {
            Some(k2) => (x + (k1 + k2) * (0.5 * h), 1, true),
            None => (*x, 1, false),
        },
        Integrator::Rk4 => {
            let k2 = stage(x + k1 * (0.5 * h));
            let k3 = k2.and_then(|k2| stage(x + k2 * (0.5 * h)));
            let k4 = k3.and_then(|k3| stage(x + k3 * h));
            match (k2, k3, k4) {
                (Some(k2), Some(k3), Some(k4)) => (x + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0), 3, true),
                _ => (*x, 3, false),
            }
        }
    };
    StepOut {
        x: clamp_box(&xn, lo, hi),
        raw: xn,
        active,
        newton_like,
        extra_evals: extra,
        ok,
    }
}

/// Normalised projection error on the free components: `max |g_i| /
/// (|∂P/∂x_i| · max(|ΔR|, floor))` — the sine of the angle between `ΔR` and
/// the normal when the witness is off the solution.
#[inline]
pub fn normalized_error<const N: usize>(loc: &Local<N>, active: &[bool; N], dist_floor: f64) -> f64 {
    let d = loc.dist.max(dist_floor);
    let mut e = 0.0f64;
    for i in 0..N {
        if !active[i] {
            let len = loc.metric[(i, i)].sqrt().max(1e-300);
            e = e.max(loc.g[i].abs() / (len * d));
        }
    }
    e
}

/// Length in mm of a parameter step measured with the metric: `sqrt(δᵀ G δ)`.
#[inline]
pub fn step_length<const N: usize>(loc: &Local<N>, d: &SVector<f64, N>) -> f64 {
    (d.transpose() * loc.metric * d)[(0, 0)].max(0.0).sqrt()
}

/// Distance below which `|ΔR|` is treated as contact in the normalised error.
pub const DIST_FLOOR: f64 = 1e-9;

/// Units of round-off, in `ε·(|S| + |Q|)`, by which two computed distances
/// `|S(x) − Q|` of a [`track_loop`] may differ while the true ones are
/// equal ([`dist_round_off`]). A point `S(x)` of a rational B-spline of
/// degree `p ≤ 3` per direction, evaluated by its basis sums (de Boor),
/// carries an error of about `(p + 2) ε |S|` per coordinate (`p + 1`
/// products summed, then the division by the weight), so up to `5 ε |S|`;
/// the difference `S − Q` adds `ε (|S| + |Q|)` and the norm `ε d`. Two
/// evaluations at nearby parameters do not share their errors, so their
/// distances differ by up to twice `6 ε (|S| + |Q|)`: 12, rounded up to 16
/// (a world-frame point is one rotation and translation further, a few ε
/// more). The error carried by `Q` itself (its transform into the body
/// frame) is common to both distances and cancels.
pub const ROUND_OFF_UNITS: f64 = 16.0;

/// Round-off of the difference of two computed distances `|S − Q|` about
/// `dist`, mm, where the coordinates involved have magnitude `scale`
/// (`|S| + |Q|`, [`Coordinates::coordinate_scale`]): [`ROUND_OFF_UNITS`]
/// `· ε · (scale + dist)`. A fixed allowance fails at large coordinates:
/// at 1.9e4 mm (iges_3dipsos320's fan caps) one ulp of a coordinate is
/// 3.6e-12 mm, and a short step whose distance rose by it was halved 30
/// times; a relative one (of the distance) fails at small distances.
#[inline]
pub fn dist_round_off(scale: f64, dist: f64) -> f64 {
    ROUND_OFF_UNITS * f64::EPSILON * (scale + dist)
}

/// A [`track_loop`] state that knows the magnitude of the coordinates its
/// distance is computed from, for [`dist_round_off`].
pub trait Coordinates {
    /// `|S| + |Q|` (mm) for the distance `dist = |S − Q|` of this state: for
    /// a point state `S` with the query `Q` not stored, `2|S| + dist`
    /// (`|Q| ≤ |S| + dist`); for a pair of points, the sum of their norms.
    fn coordinate_scale(&self, dist: f64) -> f64;
}

impl Coordinates for SurfacePoint {
    #[inline]
    fn coordinate_scale(&self, dist: f64) -> f64 {
        2.0 * self.p.norm() + dist
    }
}

impl Coordinates for CurvePoint {
    #[inline]
    fn coordinate_scale(&self, dist: f64) -> f64 {
        2.0 * self.p.norm() + dist
    }
}

impl Coordinates for Vec3 {
    #[inline]
    fn coordinate_scale(&self, dist: f64) -> f64 {
        2.0 * self.norm() + dist
    }
}

impl Coordinates for (CurvePoint, CurvePoint) {
    #[inline]
    fn coordinate_scale(&self, _dist: f64) -> f64 {
        self.0.p.norm() + self.1.p.norm()
    }
}

impl Coordinates for PairState {
    #[inline]
    fn coordinate_scale(&self, _dist: f64) -> f64 {
        self.a.p.norm() + self.b.p.norm()
    }
}

/// Step halvings allowed when a globally convergent step would increase the distance.
pub const MAX_BACKTRACK: u32 = 30;

/// Iterations over which [`track_loop`] measures its progress: when the
/// distance moved by at most [`STALL_TOL`] (relative) over this many
/// iterations, the loop stops unconverged instead of crawling to
/// `max_iters` (a curve whose points lie within micrometres of each other,
/// e.g. a trim curve along a patch side collapsed to a pole, where the
/// parameter moves and the points do not).
pub const STALL_WINDOW: u32 = 32;

/// See [`STALL_WINDOW`].
pub const STALL_TOL: f64 = 1e-12;

/// Iterations after which an unconverged [`track_loop`] running the hybrid
/// law takes the feedback-linearised (Newton) step wherever `M` is positive
/// definite at all, not only where it is *safely* positive definite (its
/// `pd_margin` dropped to 0 for the rest of the loop; the other laws keep
/// theirs: the feedback-linearised and Newton laws already take the Newton
/// step wherever `M` is regular, the globally convergent laws are chosen
/// for their own sake).
///
/// Near the focal set of a piece — a query `δ` from a sphere's centre, a
/// cylinder's axis, a torus's centre circle, every point of the piece
/// within `δ` of the answer — the distance is nearly flat: on a sphere of
/// radius `ρ`, `M = I − ΔR·II ≈ (δ/ρ)·I` at the nearest point, positive
/// definite but below any margin once `δ/ρ` is small. The globally
/// convergent law `ẋ = −K I⁻¹Ψ` then contracts by `1 − hK·δ/ρ` per
/// iteration and stops at the iteration cap unconverged (a query 1e-3 of
/// the radius from a sphere's centre answered 1.5e-5 mm too far, issue 25),
/// while the Newton step `−M⁻¹Ψ` (the feedback-linearised law with `hK = 1`)
/// uses the true curvature term and converges quadratically. The margin is
/// the hybrid law's guard far from the solution, where `M` is positive
/// definite but the quadratic model is poor; after this many iterations
/// the globally convergent law has had the iterations a converged solve
/// takes (1–8: `far::CHECK_AT`), and the Newton step is taken under the
/// same safeguards as before — the active set (boundary saturation on the
/// free components) and the line search that never lets the distance rise
/// ([`track_loop`]) — so the loop still descends, and where `M` is not
/// positive definite (a saddle, a concave side) the globally convergent law
/// goes on as before.
pub const FOCAL_AFTER: u32 = 8;

/// Iterations after which an unconverged [`track_loop`] running the hybrid
/// law doubles a globally convergent step that lowered the distance for as
/// long as the doubled step lowers it further (at most [`MAX_EXPAND`]
/// doublings, clamped to the box): the step of the globally convergent law
/// is the Gauss–Newton step `−I⁻¹Ψ` (times `hK`), the foot of the query on
/// the tangent plane, which near the focal set of a piece is a small
/// fraction of the way to the minimum.
///
/// Where `M` is positive definite the Newton step of [`FOCAL_AFTER`] goes
/// the whole way; where it is not — the query beyond a centre of curvature
/// along some direction, so that the distance is concave along it and the
/// cell's minimum lies on its side — the Gauss–Newton steps *grow* by only
/// `dκ ≈ 1 + δ/ρ` per iteration: the cells of harmonyware_torus along its
/// inner equator, seen from a point near the torus's axis, ran to the
/// 64-iteration cap and again from their centres (1,156 controller
/// iterations in one update), and those of rhino2006_sphere seen from
/// beyond its centre the same way. A doubled step is taken only when it
/// lowers the distance, so the loop still descends, and the steps before
/// this many iterations are exactly as before (a converged solve takes
/// 1–8).
pub const EXPAND_AFTER: u32 = FOCAL_AFTER;

/// Most doublings of one step ([`EXPAND_AFTER`]).
pub const MAX_EXPAND: u32 = 40;

/// What one tracker update computed (see [`track_loop`]).
#[derive(Debug, Clone, Copy)]
pub struct LoopOut<const N: usize, S> {
    /// Final parameters.
    pub x: SVector<f64, N>,
    /// Geometry at the final parameters (evaluated, or Taylor-extrapolated
    /// after an accepted Newton step).
    pub state: S,
    /// Local data at the final parameters.
    pub loc: Local<N>,
    /// Saturated components at the end.
    pub active: [bool; N],
    /// Controller iterations.
    pub iterations: u32,
    /// Geometry evaluations.
    pub evaluations: u32,
    /// Tolerance met.
    pub converged: bool,
    /// Plain Newton left the parameter box (failure).
    pub left_domain: bool,
    /// The feed-forward rate when it could be computed from the accepted
    /// Newton step's factorisation (else `None`: use [`feed_forward_rate`]).
    pub feed_forward: Option<SVector<f64, N>>,
}

/// Full Newton step on the free components, when the law allows accepting one
/// (hybrid where safely positive definite; feedback-linearised and Newton laws
/// where non-singular), with the Cholesky factor when one was made.
#[inline]
pub fn newton_step<const N: usize>(
    cfg: &TrackerConfig,
    loc: &Local<N>,
    active: &[bool; N],
) -> Option<(SVector<f64, N>, Option<Chol<N>>)> {
    newton_step_with_margin(cfg, loc, active, cfg.pd_margin)
}

/// [`newton_step`] with the hybrid law's margin `margin` in place of
/// `cfg.pd_margin` ([`FOCAL_AFTER`]).
#[inline]
fn newton_step_with_margin<const N: usize>(
    cfg: &TrackerConfig,
    loc: &Local<N>,
    active: &[bool; N],
    margin: f64,
) -> Option<(SVector<f64, N>, Option<Chol<N>>)> {
    let (m, r) = reduce(&loc.hess, &(-loc.g), active);
    match cfg.law {
        ControlLaw::Hybrid => {
            let c = Chol::new(&m, Some((&reduce(&loc.metric, &SVector::zeros(), active).0, margin)))?;
            Some((c.solve(&r)?, Some(c)))
        }
        ControlLaw::FeedbackLinearized | ControlLaw::NewtonSaturated | ControlLaw::Newton => {
            Some((solve_general(&m, &r)?, None))
        }
        _ => None,
    }
}

#[inline]
fn inside_box<const N: usize>(x: &SVector<f64, N>, lo: &SVector<f64, N>, hi: &SVector<f64, N>) -> bool {
    (0..N).all(|i| x[i] >= lo[i] && x[i] <= hi[i])
}

/// The correction loop of one update, shared by every tracker: evaluate,
/// stop when the normalised projection error is below `tol`, accept a full
/// Newton step shorter than `step_tol` (reporting the second-order Taylor
/// expansion, so a converged tick costs one evaluation), otherwise take a
/// controller step (law + saturation + integrator) and repeat, at most
/// `max_iters` times. Allocation-free.
#[inline]
pub fn track_loop<const N: usize, S: Copy + Coordinates, E, L, X>(
    cfg: &TrackerConfig,
    x0: SVector<f64, N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
    eval: &mut E,
    local: &L,
    extrapolate: &X,
) -> LoopOut<N, S>
where
    E: FnMut(&SVector<f64, N>) -> S,
    L: Fn(&S) -> Local<N>,
    X: Fn(&S, &SVector<f64, N>) -> S,
{
    track_loop_until(cfg, x0, lo, hi, eval, local, extrapolate, u32::MAX, &mut |_: &Local<N>| false)
}

/// [`track_loop`] that asks `give_up` once, with the local data of the
/// iterate, when `check_at` iterations have not converged, and stops there
/// unconverged when it answers `true` (a far-phase cell solve that need not
/// find its minimum: `far::cell_floor`). Until then, and when it answers
/// `false`, the iterates are exactly [`track_loop`]'s.
#[allow(clippy::too_many_arguments)]
pub fn track_loop_until<const N: usize, S: Copy + Coordinates, E, L, X, G>(
    cfg: &TrackerConfig,
    x0: SVector<f64, N>,
    lo: &SVector<f64, N>,
    hi: &SVector<f64, N>,
    eval: &mut E,
    local: &L,
    extrapolate: &X,
    check_at: u32,
    give_up: &mut G,
) -> LoopOut<N, S>
where
    E: FnMut(&SVector<f64, N>) -> S,
    L: Fn(&S) -> Local<N>,
    X: Fn(&S, &SVector<f64, N>) -> S,
    G: FnMut(&Local<N>) -> bool,
{
    let plain_newton = cfg.law == ControlLaw::Newton;
    let mut x = x0;
    let mut evals = 0u32;
    let mut iters = 0u32;
    let mut state = eval(&x);
    evals += 1;
    let mut loc = local(&state);
    let mut active = active_set(&x, &loc.g, lo, hi);
    let mut converged = false;
    let mut left_domain = false;
    let mut feed_forward = None;
    // the distance at the start of the current stall window
    let mut window_dist = loc.dist;
    // the hybrid law's margin, dropped after `FOCAL_AFTER` iterations
    let mut margin = cfg.pd_margin;
    loop {
        if iters == FOCAL_AFTER && cfg.law == ControlLaw::Hybrid {
            margin = 0.0;
        }
        if normalized_error(&loc, &active, DIST_FLOOR) <= cfg.tol {
            converged = true;
            break;
        }
        if iters >= cfg.max_iters {
            break;
        }
        if iters == check_at && give_up(&loc) {
            break;
        }
        if iters > 0 && iters % STALL_WINDOW == 0 {
            // stalled: the objective stopped moving (the iterate moves
            // nothing that counts); unconverged, as at the cap
            // (not in contact, where the distance stays about zero while the
            // witnesses still move)
            if loc.dist > DIST_FLOOR && (window_dist - loc.dist).abs() <= STALL_TOL * (1.0 + window_dist.abs()) {
                break;
            }
            window_dist = loc.dist;
        }
        if let Some((d, chol)) = newton_step_with_margin(cfg, &loc, &active, margin) {
            let xn = x + d;
            if inside_box(&xn, lo, hi) && step_length(&loc, &d) <= cfg.step_tol {
                iters += 1;
                state = extrapolate(&state, &d);
                x = xn;
                loc = local(&state);
                active = active_set(&x, &loc.g, lo, hi);
                converged = true;
                // the hybrid feed-forward −M⁻¹b reuses this factor (M moved by
                // O(step)); not a factor made without the margin (the caller's
                // `feed_forward_rate` decides with it)
                if cfg.feed_forward && margin == cfg.pd_margin && !active.iter().any(|&a| a) {
                    feed_forward = chol.and_then(|c| c.solve(&(-loc.b)));
                }
                break;
            }
        }
        let mut stage = |xs: &SVector<f64, N>| {
            evals += 1;
            Some(local(&eval(xs)))
        };
        let step = controller_step_with_margin(cfg, &x, &loc, lo, hi, &mut stage, margin);
        iters += 1;
        if !step.ok {
            break;
        }
        if plain_newton && !inside_box(&step.x, lo, hi) {
            left_domain = true;
            x = clamp_box(&step.x, lo, hi);
            state = eval(&x);
            evals += 1;
            loc = local(&state);
        } else if step.newton_like && cfg.law != ControlLaw::Hybrid {
            x = step.x;
            state = eval(&x);
            evals += 1;
            loc = local(&state);
        } else {
            // (the hybrid law's Newton steps too: a Newton step where the
            // Hessian is positive definite descends only while it is short;
            // taken whole far from the minimum it can overshoot, and with the
            // box clamping the iterates then cycle uphill without end — two
            // arcs of tiled_convex ran 400 iterations on a 3-cycle 1.1 mm above
            // their minimum — so it is accepted only when it does not
            // increase the distance, and halved otherwise)
            // Globally convergent branch: the discrete step must not increase
            // V = |ΔR| − E (the common Lyapunov function); halve it until it
            // does not (a large hK far from the answer can overshoot).
            let d0 = loc.dist;
            let x_prev = x;
            // past `FOCAL_AFTER`, where `M` is not positive definite, the
            // saddle-free Newton step ([`SADDLE_FREE_AFTER`])
            let free = (!step.newton_like && iters > SADDLE_FREE_AFTER && cfg.law == ControlLaw::Hybrid)
                .then(|| saddle_free_step(&loc, &step.active))
                .flatten();
            let (mut d, raw) = match free {
                Some(s) => (clamp_box(&(x + s), lo, hi) - x, s),
                None => (step.x - x, step.raw - x),
            };
            let mut tries = 0;
            // the whole step lowered the distance (not a halving, not a
            // step taken at equal distance)
            let lowered: bool;
            loop {
                let xn = clamp_box(&(x + d), lo, hi);
                let st = eval(&xn);
                evals += 1;
                let ln = local(&st);
                // equal distance is accepted only for short steps (round-off
                // near the answer), not for a step that merely swaps two
                // witnesses (e.g. coincident patches). "Equal" is to within
                // the round-off of the computed distance, which is that of
                // the coordinates, not a fraction of the distance: with a
                // relative 1e-14 alone, a short step onto a bound at a
                // grazing distance (5.7e-3 mm, read 1e-14 mm higher) was
                // refused, halved 30 times and taken anyway, iteration after
                // iteration until the stall window (acis_ujoint, issue 27);
                // the round-off scales with the coordinates (1.9e4 mm on
                // iges_3dipsos320's fan caps: one ulp is 3.6e-12 mm)
                let short = step_length(&loc, &d) <= 1e-6 * (d0 + 1.0);
                let accept = ln.dist < d0
                    || (short && ln.dist <= d0 + dist_round_off(state.coordinate_scale(d0), d0))
                    || (step.newton_like && ln.dist <= DIST_FLOOR);
                if accept || tries >= MAX_BACKTRACK {
                    lowered = tries == 0 && ln.dist < d0;
                    x = xn;
                    state = st;
                    loc = ln;
                    break;
                }
                // halve the unsaturated step: for short enough steps its
                // saturation is exact and its direction descends
                d = if tries == 0 { raw * 0.5 } else { d * 0.5 };
                tries += 1;
            }
            // past `FOCAL_AFTER` a globally convergent step that lowered the
            // distance is doubled while it goes on lowering it
            // ([`EXPAND_AFTER`])
            if lowered && !step.newton_like && iters > EXPAND_AFTER && cfg.law == ControlLaw::Hybrid {
                let dir = x - x_prev;
                let mut t = 2.0;
                for _ in 0..MAX_EXPAND {
                    let xt = clamp_box(&(x_prev + dir * t), lo, hi);
                    if xt == x {
                        break;
                    }
                    let st = eval(&xt);
                    evals += 1;
                    let lt = local(&st);
                    if !(lt.dist < loc.dist) {
                        break;
                    }
                    x = xt;
                    state = st;
                    loc = lt;
                    t *= 2.0;
                }
            }
        }
        active = active_set(&x, &loc.g, lo, hi);
        if left_domain {
            break;
        }
    }
    LoopOut {
        x,
        state,
        loc,
        active,
        iterations: iters,
        evaluations: evals,
        converged: converged && !left_domain,
        left_domain,
        feed_forward,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector1;

    /// The correction loop on a line `P(t) = o + (t, 0, 0)` at `o = (x0, 0, 0)`,
    /// the query `h` above `P(−δ)`, so the minimum on `[0, 1]` is the bound
    /// `t = 0`; the distance is read `noise` mm high left of the start
    /// `t₀ = 1e-10` (more than the true decrease to the bound, `≈ 2e-16`
    /// mm), as the round-off of coordinates of magnitude `x0` does.
    fn onto_bound(x0: f64, noise: f64) -> LoopOut<1, Vec3> {
        let (h, delta, t0) = (5e-3, 1e-8, 1e-10);
        let o = Vec3::new(x0, 0.0, 0.0);
        let q = o + Vec3::new(-delta, 0.0, h);
        let cfg = TrackerConfig {
            feed_forward: false,
            ..TrackerConfig::default()
        };
        let (lo, hi) = (Vector1::new(0.0), Vector1::new(1.0));
        let mut eval = |x: &Vector1<f64>| o + Vec3::new(x[0], 0.0, 0.0);
        let local = |p: &Vec3| {
            let dr = p - q;
            let high = if p.x < o.x + t0 { noise } else { 0.0 };
            Local {
                g: Vector1::new(dr.x),
                hess: SMatrix::<f64, 1, 1>::new(1.0),
                metric: SMatrix::<f64, 1, 1>::new(1.0),
                b: Vector1::zeros(),
                dist: dr.norm() + high,
            }
        };
        let out = track_loop(&cfg, Vector1::new(t0), &lo, &hi, &mut eval, &local, &|p: &Vec3, d: &Vector1<f64>| {
            p + Vec3::new(d[0], 0.0, 0.0)
        });
        let exact = (h * h + delta * delta).sqrt();
        assert!(out.converged, "{out:?}");
        assert_eq!(out.x[0], 0.0, "{out:?}");
        assert!(out.active[0], "{out:?}");
        assert!((out.loc.dist - exact).abs() <= noise + 1e-13, "{out:?}");
        out
    }

    /// A concave crawl: the arc `P(t) = R (cos t, sin t, 0)`, `t ∈ [0, 1]`,
    /// seen from `q = (−δ, 0, 0)`, just beyond its centre: the distance
    /// falls towards `t = 1` but `M = −Rδ cos t < 0` (no Newton step), and
    /// the globally convergent step `δ sin t / R` is a ten-thousandth of the
    /// way. The loop reaches the bound and converges there within twice
    /// [`EXPAND_AFTER`] iterations (the doubling past it).
    #[test]
    fn a_concave_crawl_beside_a_centre_of_curvature_reaches_its_bound() {
        let (r, delta) = (10.0, 1e-3);
        let q = Vec3::new(-delta, 0.0, 0.0);
        let cfg = TrackerConfig {
            feed_forward: false,
            pd_margin: 1e-3,
            max_iters: 64,
            ..TrackerConfig::default()
        };
        let (lo, hi) = (Vector1::new(0.0), Vector1::new(1.0));
        let mut eval = |x: &Vector1<f64>| Vec3::new(r * x[0].cos(), r * x[0].sin(), x[0]);
        let local = |p: &Vec3| {
            let t = p.z;
            let pt = Vec3::new(-r * t.sin(), r * t.cos(), 0.0);
            let dr = Vec3::new(p.x, p.y, 0.0) - q;
            Local {
                g: Vector1::new(dr.dot(&pt)),
                hess: SMatrix::<f64, 1, 1>::new(pt.dot(&pt) - dr.dot(&Vec3::new(p.x, p.y, 0.0))),
                metric: SMatrix::<f64, 1, 1>::new(pt.dot(&pt)),
                b: Vector1::zeros(),
                dist: dr.norm(),
            }
        };
        let taylor = |p: &Vec3, d: &Vector1<f64>| {
            let t = p.z + d[0];
            Vec3::new(r * t.cos(), r * t.sin(), t)
        };
        let out = track_loop(&cfg, Vector1::new(0.1), &lo, &hi, &mut eval, &local, &taylor);
        let exact = (r * r + delta * delta + 2.0 * r * delta * 1f64.cos()).sqrt();
        assert!(out.converged, "{out:?}");
        assert_eq!(out.x[0], 1.0, "{out:?}");
        assert!((out.loc.dist - exact).abs() <= 1e-12, "{out:?}");
        assert!(out.iterations <= 2 * EXPAND_AFTER, "{} iterations", out.iterations);
    }

    /// Coordinates of a few hundred mm, the distance read `5e-14` mm high
    /// (acis_ujoint's grazing path, issue 27): the short step onto the bound
    /// is accepted at once, not halved 30 times.
    #[test]
    fn short_step_onto_a_bound_within_round_off_is_taken_without_halving() {
        let out = onto_bound(300.0, 5e-14);
        // one evaluation at the start, one at the bound
        assert!(out.evaluations <= 2, "{} evaluations", out.evaluations);
    }

    /// The same at coordinates of 1e4 mm (iges_3dipsos320's fan caps lie
    /// at 1.9e4 mm), the distance read 4 ulps of a coordinate (7.3e-12 mm)
    /// high: more than a fixed 1e-12 mm allowance, within the scaled one
    /// (`16 ε · 2e4` = 7.1e-11 mm).
    #[test]
    fn round_off_allowance_scales_with_the_coordinates() {
        // one ulp of a coordinate in [8192, 16384) is 2⁻³⁹ mm
        let noise = 4.0 * 2f64.powi(-39);
        assert!(noise > 1e-12 && noise < dist_round_off(2e4, 5e-3));
        let out = onto_bound(1e4, noise);
        assert!(out.evaluations <= 2, "{} evaluations", out.evaluations);
        // the allowance is not so loose that a rise far above round-off is taken
        assert!(dist_round_off(2e4, 5e-3) < 1e-10);
    }
}

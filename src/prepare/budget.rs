//! **Work budget of a face.** Preparing a face runs open-ended searches
//! (Newton projections of trim curves, recursive fitting, convexity
//! subdivision, splitting into nice pieces, per-span trim classification),
//! each bounded on sane input but able to multiply on hostile input (a
//! vertex moved to 1e308 makes a trim line whose projection never fits).
//! So every face is prepared under a budget of *work units* derived from its
//! size and complexity ([`face_budget`]); the loops charge it ([`charge`])
//! and, once it is spent, stop refining (a chord, a mixed leaf). A face
//! that spent its budget is left out with a warning naming it
//! ([`run`] reports the overrun): never a stall, never a silent wrong piece.
//!
//! Units: one unit is about one subdivision node or one fitting try
//! (≈ 1 µs); a Newton projection costs what it evaluated
//! ([`projection_units`]: evaluations × the surface's evaluation weight,
//! so a projection that does not converge, or one onto a high-degree
//! surface, costs accordingly), and every piece of a projected trim curve
//! costs [`TRIM_PIECE_UNITS`] (its output is bounded, not only its work). A budget is deterministic (the same file gives the same scene);
//! an optional wall-clock deadline for the whole preparation
//! ([`super::PrepareOptions::time_limit`]) makes every face's budget run
//! out once it passes, and the preparation is then refused.
//!
//! The budget is a thread-local of the thread that prepares the face (the
//! per-face work runs on that thread; a rayon worker that steals another
//! face while waiting saves and restores the budget around it).

use crate::import::model::{Curve, Face, Model, Surface};
use std::cell::Cell;
use std::time::Instant;

/// Units every face gets, whatever its size (the most a face of the
/// project's corpora spends is about 52,000: 5× below).
pub const BASE_UNITS: u64 = 250_000;
/// Units per coedge of the face's loops (each trim curve may be projected).
pub const UNITS_PER_COEDGE: u64 = 10_000;
/// Units per control point of the face's surface (spans to classify).
pub const UNITS_PER_POLE: u64 = 200;
/// Largest budget of one face.
pub const MAX_UNITS: u64 = 4_000_000;
/// Wall-clock seconds one face may take whatever its units (a unit is
/// about 1–5 µs on sane geometry; on a degenerate surface one projection
/// can cost far more): the safety net behind the units, far above what any
/// valid face takes even on a loaded machine (the corpora's slowest face,
/// a 26,000-unit blade, takes 3 s under load), so that it never decides a
/// valid file's scene.
pub const FACE_SECONDS: f64 = 20.0;
/// How many units are charged between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

#[derive(Clone, Copy)]
struct State {
    /// A budget is active on this thread.
    active: bool,
    /// Units left.
    left: u64,
    /// Units spent since the clock was last read.
    since_clock: u64,
    /// The budget ran out.
    exceeded: bool,
    /// The face's wall-clock deadline (its own, or the preparation's when earlier).
    deadline: Option<Instant>,
    /// What was charged so far.
    tally: Tally,
}

/// What a face's work was charged for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Units spent.
    pub units: u64,
    /// Newton projections onto the surface ([`charge_projection`]).
    pub projections: u64,
    /// Surface evaluations they made.
    pub evaluations: u64,
    /// Pieces of projected trim curves ([`charge_trim_piece`]).
    pub trim_pieces: u64,
}

const IDLE: State = State {
    active: false,
    left: 0,
    since_clock: 0,
    exceeded: false,
    deadline: None,
    tally: Tally {
        units: 0,
        projections: 0,
        evaluations: 0,
        trim_pieces: 0,
    },
};

thread_local! {
    static STATE: Cell<State> = const { Cell::new(IDLE) };
}

/// Why a face's work was cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overrun {
    /// The face's own budget of `units` was spent.
    Units(u64),
    /// The face took longer than [`FACE_SECONDS`].
    Clock,
    /// The preparation's deadline passed.
    Deadline,
}

/// Runs `f` under a budget of `units`, [`FACE_SECONDS`] and the optional
/// `deadline` of the whole preparation; returns its result, whether the
/// budget ran out and what it was charged.
pub fn run<R>(units: u64, deadline: Option<Instant>, f: impl FnOnce() -> R) -> (R, Option<Overrun>, Tally) {
    let now = Instant::now();
    let own = now.checked_add(std::time::Duration::from_secs_f64(FACE_SECONDS));
    let effective = match (own, deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let saved = STATE.with(|s| {
        s.replace(State {
            active: true,
            left: units,
            since_clock: 0,
            exceeded: deadline.is_some_and(|d| now >= d),
            deadline: effective,
            tally: Tally::default(),
        })
    });
    let r = f();
    let end = STATE.with(|s| s.replace(saved));
    let over = end.exceeded.then(|| {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            Overrun::Deadline
        } else if end.left > 0 && own.is_some_and(|d| now >= d) {
            Overrun::Clock
        } else {
            Overrun::Units(units)
        }
    });
    let tally = Tally {
        units: units - end.left,
        ..end.tally
    };
    (r, over, tally)
}

/// Charges `units` of work; `false` once the budget is spent (then every
/// later charge fails too). Always `true` outside [`run`].
pub fn charge(units: u64) -> bool {
    STATE.with(|s| {
        let mut st = s.get();
        if !st.active {
            return true;
        }
        if st.exceeded {
            return false;
        }
        if st.left < units {
            st.left = 0;
            st.exceeded = true;
        } else {
            st.left -= units;
            st.since_clock += units;
            if st.since_clock >= CLOCK_EVERY {
                st.since_clock = 0;
                if st.deadline.is_some_and(|d| Instant::now() >= d) {
                    st.exceeded = true;
                }
            }
        }
        s.set(st);
        !st.exceeded
    })
}

/// True once the current budget is spent (never outside [`run`]).
pub fn exceeded() -> bool {
    STATE.with(|s| {
        let st = s.get();
        st.active && st.exceeded
    })
}

/// Units of one Newton projection onto `s` that made `evaluations`
/// evaluations of the surface: `evaluations × weight /`
/// [`EVALUATIONS_PER_PROJECTION`] rounded up, at least 1, where the weight
/// of one evaluation is 1 on an analytic surface and `(p+1)(q+1)/2` on a
/// B-spline surface of degrees `p`, `q` (the poles one evaluation combines),
/// at least [`FREEFORM_WEIGHT`] (8, a bicubic's: below that the call's
/// overhead, not the poles, costs), [`FREEFORM_WEIGHT`] on a swept surface
/// and twice the basis's on an offset one. So a projection of the usual length costs what
/// a projection cost before it was counted (1 unit on an analytic surface, 8
/// on a bicubic), one onto a high-degree surface costs more in proportion,
/// and one that runs all its Newton steps (up to ~520 evaluations, a curve
/// far off the surface) about four times a usual one.
///
/// (The usual projection makes ~132 evaluations; pricing it at half a
/// projection's former price keeps the corpora's busiest face at 29 % of
/// its budget.)
pub fn projection_units(s: &Surface, evaluations: u32) -> u64 {
    (u64::from(evaluations) * evaluation_weight(s))
        .div_ceil(EVALUATIONS_PER_PROJECTION)
        .max(1)
}

/// Evaluations of a usual projection: the mean over the faces of the
/// corpora is 132 (`EXTRACK_BUDGET_TRACE=calibrate`, docs/hostile_input.md).
pub const EVALUATIONS_PER_PROJECTION: u64 = 256;

/// Charges one Newton projection onto `s` that made `evaluations`
/// evaluations ([`projection_units`]); `false` once the budget is spent.
pub fn charge_projection(s: &Surface, evaluations: u32) -> bool {
    tally(|t| {
        t.projections += 1;
        t.evaluations += u64::from(evaluations);
    });
    charge(projection_units(s, evaluations))
}

/// Charges one piece of a projected trim curve ([`TRIM_PIECE_UNITS`]).
pub fn charge_trim_piece() -> bool {
    tally(|t| t.trim_pieces += 1);
    charge(TRIM_PIECE_UNITS)
}

fn tally(f: impl FnOnce(&mut Tally)) {
    STATE.with(|s| {
        let mut st = s.get();
        if st.active {
            f(&mut st.tally);
            s.set(st);
        }
    });
}

/// Weight of one evaluation of `s` (see [`projection_units`]).
pub fn evaluation_weight(s: &Surface) -> u64 {
    match s {
        Surface::Plane { .. }
        | Surface::Cylinder { .. }
        | Surface::Cone { .. }
        | Surface::Sphere { .. }
        | Surface::Torus { .. } => 1,
        Surface::BSpline(n) => ((n.degree_u as u64 + 1) * (n.degree_v as u64 + 1) / 2).max(FREEFORM_WEIGHT),
        Surface::Trimmed { basis, .. } => evaluation_weight(basis),
        Surface::Offset { basis, .. } => 2 * evaluation_weight(basis).max(FREEFORM_WEIGHT / 2),
        _ => FREEFORM_WEIGHT,
    }
}

/// Weight of one evaluation of a swept (revolution, extrusion) surface, and
/// the least of a B-spline surface's.
pub const FREEFORM_WEIGHT: u64 = 8;

/// Units of one piece of a projected trim curve (each fitted or straight
/// piece, and each halving of an interval): a face whose trims would need
/// tens of thousands of pieces (an edge far off its face's surface,
/// projected) spends its budget instead of making a scene that is slow to
/// check and to track. The faces of the corpora make at most ~550 pieces
/// (17,600 units).
pub const TRIM_PIECE_UNITS: u64 = 32;

/// Control points (or a small constant for analytic geometry) of a curve.
fn curve_size(c: &Curve) -> u64 {
    match c {
        Curve::BSpline(n) => n.cw.len() as u64,
        Curve::Polyline(p) => p.len() as u64,
        Curve::Composite(s) => s.iter().map(|s| curve_size(&s.curve)).sum(),
        _ => 4,
    }
}

/// Control points (or a small constant for analytic geometry) of a surface.
fn surface_size(s: &Surface) -> u64 {
    match s {
        Surface::BSpline(n) => n.cw.len() as u64,
        Surface::Revolution { profile, .. } | Surface::Extrusion { profile, .. } => 9 * curve_size(profile),
        Surface::Offset { basis, .. } | Surface::Trimmed { basis, .. } => surface_size(basis),
        _ => 16,
    }
}

/// The budget of `face`: [`BASE_UNITS`], plus [`UNITS_PER_COEDGE`] per
/// coedge and [`UNITS_PER_POLE`] per surface control point (B-spline
/// edge curves count their poles as coedges of 16 poles, a polyline each
/// chord as a coedge), at most
/// [`MAX_UNITS`].
pub fn face_budget(model: &Model, face: &Face) -> u64 {
    let mut coedges = 0u64;
    for l in face.outer.iter().chain(&face.inner) {
        for c in &l.coedges {
            let curve = c
                .edge
                .and_then(|e| model.edges.get(e))
                .map(|e| &e.curve)
                .or(c.curve.as_ref().map(|s| &s.curve));
            // a polyline's chords are projected one by one (trim/polyline.rs)
            let n = match curve {
                Some(Curve::Polyline(p)) => p.len().saturating_sub(1) as u64,
                Some(k) => curve_size(k) / 16,
                None => 0,
            };
            coedges = coedges.saturating_add(1 + n);
        }
    }
    BASE_UNITS
        .saturating_add(UNITS_PER_COEDGE.saturating_mul(coedges))
        .saturating_add(UNITS_PER_POLE.saturating_mul(surface_size(&face.surface)))
        .min(MAX_UNITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_run_out_and_stay_out() {
        let ((), over, spent) = run(10, None, || {
            assert!(charge(4));
            assert!(charge(6));
            assert!(!exceeded());
            assert!(!charge(1));
            assert!(exceeded());
            assert!(!charge(0));
        });
        assert_eq!(over, Some(Overrun::Units(10)));
        assert_eq!(spent.units, 10);
    }

    #[test]
    fn outside_a_budget_everything_is_allowed_and_nesting_restores() {
        assert!(charge(u64::MAX));
        let ((), outer, spent) = run(100, None, || {
            assert!(charge(50));
            let ((), inner, _) = run(1, None, || {
                assert!(!charge(2));
            });
            assert_eq!(inner, Some(Overrun::Units(1)));
            // the outer budget is back, with its 50 units left
            assert!(charge(50));
        });
        assert_eq!(outer, None);
        assert_eq!(spent.units, 100);
        assert!(!exceeded());
    }

    #[test]
    fn projections_are_priced_by_evaluations_and_degree() {
        use crate::import::model::Surface;
        let plane = Surface::Plane {
            frame: crate::geom::Frame::world(),
        };
        // a usual projection on a plane: 1 unit; one that ran all its 40
        // Newton steps of up to 13 evaluations: 3
        assert_eq!(projection_units(&plane, 132), 1);
        assert_eq!(projection_units(&plane, 520), 3);
        assert_eq!(projection_units(&plane, 0), 1);
    }

    #[test]
    fn a_passed_deadline_exhausts_at_once() {
        let past = Instant::now();
        let (ok, over, _) = run(u64::MAX, Some(past), || charge(1));
        assert!(!ok);
        assert_eq!(over, Some(Overrun::Deadline));
    }
}

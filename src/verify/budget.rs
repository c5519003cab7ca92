//! **Work budget of the self-check of one face.** The check of a face is
//! bounded on sane input, but its cost is the product of what the
//! preparation made (pieces, trim arcs, samples) and what the face is
//! (the Model's boundary nodes, the surface's evaluation cost): on hostile
//! input, a face whose pieces lie far off it, each edge point gathers every
//! boundary sample of every piece and each piece sample walks the whole
//! boundary. So every face is checked under a budget of *work units*
//! derived from its size and complexity ([`face_budget`]); the driver
//! ([`super::verify`]) charges each step ([`charge`]) and stops once the
//! budget is spent. A face over its budget is reported
//! [`NOT_CHECKED`](super::NOT_CHECKED) with the units it had: its answers
//! are unverified, as on a failing face — never silently passed.
//!
//! The idea is the preparation's (`prepare::budget`: units of about a
//! microsecond, counted, not timed, so the same scene always gives the same
//! report), but nothing is shared with how the pieces were built: this
//! module prices the check's own steps.
//!
//! Units (about 1 µs each, measured over the corpora, see
//! docs/hostile_input.md): the trim arcs of a piece made ready for the check
//! ([`arc_units`]: their dense samples and polylines, charged before they
//! are built, so a piece with a runaway trim is refused before it takes
//! memory); one
//! containment sample ([`sample_units`]: a Newton projection onto the
//! face's surface priced by [`evaluation_weight`], and the point-in-face
//! and boundary walks over the face's traced nodes); one edge point of the
//! boundary test (1, plus [`GATHER_PER_UNIT`] gathered piece samples and
//! [`REFINE_UNITS`] per refined curve, charged where they are gathered).
//!
//! The budget is a thread-local of the thread checking the face (a face is
//! checked on one thread, and the check spawns no parallel work).

use crate::import::model::{Curve, Edge, Face, Surface};
use crate::scene::data::{Piece, TrimCurve};
use std::cell::Cell;

/// Units every face gets, whatever its size (the corpora's busiest
/// small face, `iges_nist_144_example2.igs` #135, spends 480,000).
pub const BASE_UNITS: u64 = 1_500_000;
/// Units per coedge of the face's loops (its traced boundary nodes).
pub const UNITS_PER_COEDGE: u64 = 10_000;
/// Units per control point of the face's surface.
pub const UNITS_PER_POLE: u64 = 200;
/// Units per piece of the face in the scene (its samples and quadrature;
/// the number of pieces is bounded by the preparation's own budget).
pub const UNITS_PER_PIECE: u64 = 2_000;
/// Largest budget of one face (the corpora's largest face,
/// `iges_bladex_blade_upper.iges` #1, spends 3.1 M units).
pub const MAX_UNITS: u64 = 16_000_000;
/// Largest charge for a face's trims ([`arc_units`]): above it the face is
/// not checked at all, so the samples the check would build stay within
/// about 300 MB (~1.2 kB per linear arc with its index; the corpora's faces
/// charge at most 25,000).
pub const MAX_ARC_UNITS: u64 = 2_000_000;

/// Piece boundary samples gathered by one edge point that cost a unit.
pub const GATHER_PER_UNIT: u64 = 16;
/// Units of one Gauss–Newton refinement on a piece's boundary curve (up to
/// 12 steps, each a piece evaluation with derivatives).
pub const REFINE_UNITS: u64 = 4;

#[derive(Clone, Copy)]
struct State {
    active: bool,
    left: u64,
    exceeded: bool,
}

const IDLE: State = State {
    active: false,
    left: 0,
    exceeded: false,
};

thread_local! {
    static STATE: Cell<State> = const { Cell::new(IDLE) };
    /// The budget of the current run (for [`spent_so_far`]).
    static BUDGET: Cell<u64> = const { Cell::new(0) };
}

/// What a face's check spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spent {
    /// The face's budget, units.
    pub budget: u64,
    /// Units charged (at most the budget).
    pub units: u64,
    /// The budget ran out: the check stopped.
    pub exceeded: bool,
}

/// Runs `f` under a budget of `units` on this thread; returns its result
/// and what it spent. Nested runs restore the outer budget.
pub fn run<R>(units: u64, f: impl FnOnce() -> R) -> (R, Spent) {
    let saved_budget = BUDGET.with(|b| b.replace(units));
    let saved = STATE.with(|s| {
        s.replace(State {
            active: true,
            left: units,
            exceeded: false,
        })
    });
    let r = f();
    let end = STATE.with(|s| s.replace(saved));
    BUDGET.with(|b| b.set(saved_budget));
    (
        r,
        Spent {
            budget: units,
            units: units - end.left,
            exceeded: end.exceeded,
        },
    )
}

/// Charges `units`; `false` once the budget is spent (and for every later
/// charge). Always `true` outside [`run`].
pub fn charge(units: u64) -> bool {
    STATE.with(|s| {
        let mut st = s.get();
        if !st.active {
            return true;
        }
        if !st.exceeded {
            if st.left < units {
                st.left = 0;
                st.exceeded = true;
            } else {
                st.left -= units;
            }
            s.set(st);
        }
        !st.exceeded
    })
}

/// Units charged so far in the current [`run`] (0 outside one).
pub fn spent_so_far() -> u64 {
    STATE.with(|s| {
        let st = s.get();
        if st.active {
            BUDGET.with(|b| b.get()) - st.left
        } else {
            0
        }
    })
}

/// True once the current budget is spent (never outside [`run`]).
pub fn exceeded() -> bool {
    STATE.with(|s| {
        let st = s.get();
        st.active && st.exceeded
    })
}

/// Weight of one evaluation of `s` relative to an analytic surface's: the
/// poles one evaluation combines, `(p+1)(q+1)/2` on a B-spline surface of
/// degrees `p`, `q`, at least 8; 8 on swept surfaces, twice the basis's on
/// offsets.
pub fn evaluation_weight(s: &Surface) -> u64 {
    match s {
        Surface::Plane { .. }
        | Surface::Cylinder { .. }
        | Surface::Cone { .. }
        | Surface::Sphere { .. }
        | Surface::Torus { .. } => 1,
        Surface::BSpline(n) => ((n.degree_u as u64 + 1) * (n.degree_v as u64 + 1) / 2).max(8),
        Surface::Trimmed { basis, .. } => evaluation_weight(basis),
        Surface::Offset { basis, .. } => 2 * evaluation_weight(basis).max(4),
        _ => 8,
    }
}

/// Units of one containment sample on a face of surface weight `weight`
/// ([`evaluation_weight`]) whose traced boundary has `nodes` nodes: 16 for
/// the Newton projection and the point-in-face test (which looks only at
/// the runs of nodes a ray crosses), the surface's weight, and one unit per
/// 256 nodes. Measured (`EXTRACK_BUDGET_TRACE=1`, the thread's CPU time of
/// the busiest faces of the corpora): 15–45 µs per sample for faces of 400
/// to 8,700 nodes.
pub fn sample_units(weight: u64, nodes: usize) -> u64 {
    16 + weight + nodes as u64 / 256
}

/// Units of making the trims of `piece` ready for the check, charged
/// before they are built: [`ARC_UNITS`] per polyline segment and per
/// degree of a Bézier trim curve (at least one), for its `8d + 1` boundary
/// samples and `8d` polyline points (with their index about 1.2 kB per
/// degree); 1 for an untrimmed piece. So the memory the check takes for a
/// face's trims is at most about [`MAX_ARC_UNITS`] × 1,200 / [`ARC_UNITS`]
/// bytes.
pub fn arc_units(piece: &Piece) -> u64 {
    if piece.fully_inside {
        return 1;
    }
    let mut u = 1u64;
    for l in &piece.trim_loops {
        for c in &l.curves {
            let degrees = match c {
                TrimCurve::Polyline(v) => v.len().saturating_sub(1) as u64,
                TrimCurve::Bezier(h) => h.len().saturating_sub(1).max(1) as u64,
            };
            u = u.saturating_add(ARC_UNITS.saturating_mul(degrees));
        }
    }
    u
}

/// Units per degree of a piece's trim arc ([`arc_units`]).
pub const ARC_UNITS: u64 = 8;

/// Control points (or a small constant for analytic geometry) of a curve.
fn curve_size(c: &Curve) -> u64 {
    match c {
        Curve::BSpline(n) => n.cw.len() as u64,
        Curve::Polyline(p) => p.len() as u64,
        Curve::Composite(s) => s.iter().map(|s| curve_size(&s.curve)).fold(0, u64::saturating_add),
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

/// The budget of the check of `face` (its edges in `edges`, the Model's)
/// with `pieces` pieces in the scene:
/// [`BASE_UNITS`], plus [`UNITS_PER_COEDGE`] per coedge (B-spline edge
/// curves count their poles as coedges of 16 poles), [`UNITS_PER_POLE`]
/// per surface control point and [`UNITS_PER_PIECE`] per piece, times the
/// surface's [`evaluation_weight`] over 8 (at least 1: a projection onto a
/// high-degree surface costs more), at most [`MAX_UNITS`].
pub fn face_budget(edges: &[Edge], face: &Face, pieces: usize) -> u64 {
    let mut coedges = 0u64;
    for l in face.outer.iter().chain(&face.inner) {
        for c in &l.coedges {
            let poles = c.edge.and_then(|e| edges.get(e)).map_or(4, |e| curve_size(&e.curve));
            coedges = coedges.saturating_add(1 + poles / 16);
        }
    }
    let scale = (evaluation_weight(&face.surface) / 8).max(1);
    BASE_UNITS
        .saturating_add(UNITS_PER_COEDGE.saturating_mul(coedges))
        .saturating_add(UNITS_PER_POLE.saturating_mul(surface_size(&face.surface)))
        .saturating_add(UNITS_PER_PIECE.saturating_mul(pieces as u64))
        .saturating_mul(scale)
        .min(MAX_UNITS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::data::TrimLoop;

    #[test]
    fn charges_run_out_and_stay_out() {
        let ((), spent) = run(10, || {
            assert!(charge(4));
            assert!(charge(6));
            assert!(!exceeded());
            assert!(!charge(1));
            assert!(exceeded());
            assert!(!charge(0));
        });
        assert_eq!(
            spent,
            Spent {
                budget: 10,
                units: 10,
                exceeded: true
            }
        );
    }

    #[test]
    fn outside_a_budget_everything_is_allowed_and_nesting_restores() {
        assert!(charge(u64::MAX));
        assert!(!exceeded());
        let ((), outer) = run(100, || {
            assert!(charge(40));
            assert_eq!(spent_so_far(), 40);
            let ((), inner) = run(1, || assert!(!charge(2)));
            assert!(inner.exceeded);
            // the outer budget is back with its 60 units
            assert!(!exceeded());
            assert_eq!(spent_so_far(), 40);
            assert!(charge(60));
        });
        assert_eq!(outer.units, 100);
        assert!(!outer.exceeded);
        assert!(!exceeded());
    }

    #[test]
    fn arcs_are_priced_by_count_and_degree() {
        let mut p = crate::verify::piece::tests::flat_piece(vec![TrimLoop {
            outer: true,
            curves: vec![
                TrimCurve::Polyline(vec![[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]),
                TrimCurve::Bezier(vec![[0.9, 0.9, 1.0], [0.5, 1.0, 1.0], [0.1, 0.1, 1.0]]),
            ],
        }]);
        // 1 + two segments + a quadratic
        assert_eq!(arc_units(&p), 1 + 2 * ARC_UNITS + 2 * ARC_UNITS);
        p.fully_inside = true;
        assert_eq!(arc_units(&p), 1);
        // a runaway polyline of 100,000 points costs in proportion
        let long: Vec<[f64; 2]> = (0..100_000).map(|i| [i as f64 * 1e-5, 0.5]).collect();
        let q = crate::verify::piece::tests::flat_piece(vec![TrimLoop {
            outer: true,
            curves: vec![TrimCurve::Polyline(long)],
        }]);
        assert_eq!(arc_units(&q), 1 + ARC_UNITS * 99_999);
    }

    #[test]
    fn samples_cost_more_on_freeform_surfaces_and_long_boundaries() {
        assert_eq!(sample_units(1, 0), 17);
        assert_eq!(sample_units(8, 0), 24);
        assert_eq!(sample_units(1, 2560), 27);
        let plane = Surface::Plane {
            frame: crate::geom::Frame::world(),
        };
        assert_eq!(evaluation_weight(&plane), 1);
    }

    #[test]
    fn the_budget_grows_with_the_face_and_is_capped() {
        let face = Face {
            surface: Surface::Plane {
                frame: crate::geom::Frame::world(),
            },
            same_sense: true,
            outer: None,
            inner: Vec::new(),
            source: 7,
        };
        assert_eq!(face_budget(&[], &face, 0), BASE_UNITS + 16 * UNITS_PER_POLE);
        assert_eq!(
            face_budget(&[], &face, 10),
            BASE_UNITS + 16 * UNITS_PER_POLE + 10 * UNITS_PER_PIECE
        );
        assert_eq!(face_budget(&[], &face, usize::MAX), MAX_UNITS);
    }
}

//! **Edge curves whose ends miss their vertices.** An EDGE_CURVE is bounded
//! by its two vertices: its curve is used between the parameters where the
//! vertices project onto it ([`curve_param_of`](crate::import::eval::curve_param_of)).
//! Some exporters write curves that do not pass through their vertices at
//! all (wave2 `step_fpx2013_hdr_connector.stp`: LINE #22 of edge #23 runs
//! parallel to the chord of its vertices, 0.56 – 3.0 mm beside it), so
//! the edge's ends are not where the adjacent edges start and the face's
//! loop does not close.
//!
//! The rule, as Open CASCADE's STEP reader has it (its faces on that file
//! are the quadrilaterals of their vertices): the vertices are the edge's
//! ends. Where an end of the curve lies farther than the file's tolerance
//! from its vertex,
//!
//! * a **line** becomes the line through the two vertices (a straight edge
//!   is its chord, and that is exact);
//! * **any other curve** is kept (it has no exact repair) between the
//!   vertices' projections;
//!
//! and either way the reader warns, naming the edge, its curve and the gap
//! ([`EndsCheck`], collected by the builder and reported by
//! [`read_step`](super::read_step)). Never silent.

use crate::geom::Vec3;
use crate::import::model::Curve;
use crate::import::sanity::MAX_COORDINATE_MM;

/// The gap tolerance when the file's context gives no uncertainty, mm
/// (Open CASCADE's default read precision, 1e-4).
pub const DEFAULT_GAP_TOLERANCE: f64 = 1e-4;

/// The smallest gap tolerance, mm (Open CASCADE's `Precision::Confusion`):
/// files that declare an uncertainty of 1e-13 mm would otherwise report
/// their coordinates' rounding (abc_onshape_0_13: 4e-14 mm).
pub const MIN_GAP_TOLERANCE: f64 = 1e-7;

/// How an edge's curve meets its vertices.
#[derive(Debug, Clone, PartialEq)]
pub enum EndsCheck {
    /// Both ends within the tolerance of their vertices (or not measurable).
    Meets,
    /// A line missing a vertex: the line through the vertices (unit
    /// direction, from the start vertex) over `[t0, t1]`, and the larger gap
    /// of the line it replaces, mm.
    Chord {
        /// The line through the vertices.
        curve: Curve,
        /// Parameter at the start vertex (0).
        t0: f64,
        /// Parameter at the end vertex (the vertices' distance).
        t1: f64,
        /// The replaced line's larger gap, mm.
        gap: f64,
    },
    /// Any other curve (or a line whose vertices coincide) missing a vertex:
    /// kept; the larger gap, mm.
    Misses {
        /// The larger gap, mm.
        gap: f64,
    },
}

/// Checks the ends of `curve` over `[t0, t1]` against the start vertex
/// `p0` (at `t0`) and the end vertex `p1` (at `t1`) within `tol` mm.
pub fn check_ends(curve: &Curve, t0: f64, t1: f64, p0: Vec3, p1: Vec3, tol: f64) -> EndsCheck {
    let gap = (curve.eval(t0) - p0).norm().max((curve.eval(t1) - p1).norm());
    if !(gap > tol) {
        // within the tolerance, or not measurable (NaN: the sanity pass
        // refuses non-finite geometry)
        return EndsCheck::Meets;
    }
    let chord = p1 - p0;
    let len = chord.norm();
    match curve {
        // a line that is itself out of bounds is left for the sanity pass
        // to refuse (never repaired into an acceptable one)
        Curve::Line { origin, dir }
            if len > tol
                && len.is_finite()
                && gap.is_finite()
                && origin.iter().chain(dir.iter()).all(|c| c.abs() <= MAX_COORDINATE_MM) =>
        {
            EndsCheck::Chord {
                curve: Curve::Line {
                    origin: p0,
                    dir: chord / len,
                },
                t0: 0.0,
                t1: len,
                gap,
            }
        }
        _ => EndsCheck::Misses { gap },
    }
}

/// One edge whose curve misses its vertices, for the reader's warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct EndsNote {
    /// The EDGE_CURVE (`#N`).
    pub edge: u64,
    /// Its curve (`#N`) and entity type.
    pub curve: (u64, String),
    /// The larger gap, mm.
    pub gap: f64,
    /// The tolerance it exceeds, mm.
    pub tol: f64,
    /// Replaced by the line through the vertices (else kept).
    pub replaced: bool,
}

/// Edges named one by one in the warnings before a summary line.
const SHOWN: usize = 20;

/// The warnings of `notes`: one line per edge (the first [`SHOWN`]), then
/// one line counting the rest and their largest gap.
pub fn warnings(notes: &[EndsNote]) -> Vec<String> {
    let mut out: Vec<String> = notes
        .iter()
        .take(SHOWN)
        .map(|n| {
            format!(
                "#{}: its {} #{} misses the edge's vertices by up to {:.3e} mm (tolerance {:.1e} mm): {}",
                n.edge,
                n.curve.1,
                n.curve.0,
                n.gap,
                n.tol,
                if n.replaced {
                    "replaced by the line through the vertices"
                } else {
                    "kept between the vertices' projections (the edge's ends stay off its vertices)"
                }
            )
        })
        .collect();
    if notes.len() > SHOWN {
        let rest = &notes[SHOWN..];
        let replaced = rest.iter().filter(|n| n.replaced).count();
        let worst = rest.iter().map(|n| n.gap).fold(0.0, f64::max);
        out.push(format!(
            "{} more edges whose curves miss their vertices (up to {worst:.3e} mm; {replaced} lines replaced by the lines through their vertices)",
            rest.len()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Frame;

    /// Edge #23 of `step_fpx2013_hdr_connector.stp`: its line runs parallel
    /// to the chord of its vertices, 0.56 mm beside it at both ends.
    fn fpx_edge() -> (Curve, Vec3, Vec3) {
        let d = Vec3::new(0.4472, 0.7746, -0.4472).normalize();
        let line = Curve::Line {
            origin: Vec3::new(-3.556, 8.19, 1.016),
            dir: d,
        };
        (line, Vec3::new(-4.13, 8.08, 1.59), Vec3::new(-3.9568, 8.38, 1.4168))
    }

    /// A line missing both vertices becomes their chord: it starts at the
    /// start vertex, ends at the end vertex (1e-12 mm), unit speed; the gap
    /// reported is the old line's (0.559 mm, as Open CASCADE's vertex
    /// tolerance there).
    #[test]
    fn a_line_that_misses_its_vertices_becomes_their_chord() {
        let (line, p0, p1) = fpx_edge();
        let t0 = crate::import::eval::curve_param_of(&line, &p0);
        let t1 = crate::import::eval::curve_param_of(&line, &p1);
        match check_ends(&line, t0, t1, p0, p1, 1e-5) {
            EndsCheck::Chord { curve, t0, t1, gap } => {
                assert!((curve.eval(t0) - p0).norm() <= 1e-12);
                assert!((curve.eval(t1) - p1).norm() <= 1e-12);
                assert!((t1 - t0 - (p1 - p0).norm()).abs() <= 1e-12);
                assert!((gap - 0.559).abs() < 1e-3, "gap {gap}");
            }
            other => panic!("expected a chord, got {other:?}"),
        }
    }

    /// Within the tolerance nothing changes; a circle missing its vertex is
    /// kept and reported; a line whose vertices coincide has no chord.
    #[test]
    fn curves_within_tolerance_meet_and_other_curves_are_only_reported() {
        let line = Curve::Line {
            origin: Vec3::zeros(),
            dir: Vec3::x(),
        };
        let (p0, p1) = (Vec3::new(0.0, 5e-6, 0.0), Vec3::new(2.0, -5e-6, 0.0));
        assert_eq!(check_ends(&line, 0.0, 2.0, p0, p1, 1e-5), EndsCheck::Meets);
        let circle = Curve::Circle {
            frame: Frame::from_axis_ref(Vec3::zeros(), Vec3::z(), Some(Vec3::x())).unwrap(),
            radius: 1.0,
        };
        let far = Vec3::new(0.0, 1.01, 0.0);
        match check_ends(&circle, 0.0, std::f64::consts::FRAC_PI_2, Vec3::x(), far, 1e-5) {
            EndsCheck::Misses { gap } => assert!((gap - 0.01).abs() < 1e-9, "gap {gap}"),
            other => panic!("expected a miss, got {other:?}"),
        }
        let q = Vec3::new(1.0, 1.0, 0.0);
        assert!(matches!(
            check_ends(&line, 0.0, 1.0, q, q, 1e-5),
            EndsCheck::Misses { .. }
        ));
    }

    /// Twenty edges are named one by one, the rest counted with their
    /// largest gap.
    #[test]
    fn warnings_name_the_first_edges_then_count_the_rest() {
        let notes: Vec<EndsNote> = (0..23)
            .map(|k| EndsNote {
                edge: 100 + k,
                curve: (200 + k, "LINE".into()),
                gap: 0.1 * (k + 1) as f64,
                tol: 1e-5,
                replaced: k % 2 == 0,
            })
            .collect();
        let w = warnings(&notes);
        assert_eq!(w.len(), SHOWN + 1);
        assert!(w[0].starts_with("#100: its LINE #200 misses"), "{}", w[0]);
        assert!(w[0].ends_with("replaced by the line through the vertices"));
        assert!(w[1].contains("kept between"));
        assert!(w[SHOWN].starts_with("3 more edges"), "{}", w[SHOWN]);
        assert!(w[SHOWN].contains("2.300e0 mm"), "{}", w[SHOWN]);
        assert!(w[SHOWN].contains("2 lines replaced"), "{}", w[SHOWN]);
    }
}

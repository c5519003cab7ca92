//! Errors raised when building or evaluating geometry.

use thiserror::Error;

/// Why a curve or surface could not be built or evaluated.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GeomError {
    /// Degree outside `1..=MAX_DEGREE`.
    #[error("degree {0} is out of the supported range 1..={max}", max = crate::geom::MAX_DEGREE)]
    Degree(usize),
    /// Knot vector length does not match `control points + degree + 1`.
    #[error("knot vector has {got} knots, expected {expected} (control points + degree + 1)")]
    KnotCount {
        /// knots given
        got: usize,
        /// knots required
        expected: usize,
    },
    /// Knots decrease somewhere, or the parameter domain is empty.
    #[error("knot vector is not non-decreasing or has an empty domain")]
    KnotOrder,
    /// A knot, coordinate or weight is NaN or infinite.
    #[error("non-finite value in {0}")]
    NonFinite(&'static str),
    /// A weight is zero or negative (rational geometry needs positive weights).
    #[error("weight {0} is not positive")]
    Weight(f64),
    /// Control-point array size does not match the stated counts.
    #[error("control net has {got} points, expected {expected}")]
    PointCount {
        /// points given
        got: usize,
        /// points required
        expected: usize,
    },
    /// An evaluation parameter is NaN or infinite.
    #[error("non-finite parameter")]
    Parameter,
    /// A primitive (arc, cylinder, …) was asked for with an invalid size,
    /// range or axis; the message says which.
    #[error("invalid primitive: {0}")]
    Primitive(&'static str),
    /// A knot was to be inserted outside the domain or beyond multiplicity `degree`.
    #[error("cannot insert knot {0}: outside the domain or already of full multiplicity")]
    KnotInsertion(f64),
}

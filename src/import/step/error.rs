//! Errors of the STEP reader: every one names the line and, when known, the
//! instance `#N` it was found in.

use std::fmt;
use thiserror::Error;

/// Where in the file an error was found: 1-based line and the instance id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// 1-based line number.
    pub line: usize,
    /// Instance number `#N`, when the error is inside (or about) an instance.
    pub id: Option<u64>,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.id {
            Some(id) => write!(f, "line {}, #{}", self.line, id),
            None => write!(f, "line {}", self.line),
        }
    }
}

/// Why a STEP file could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StepError {
    /// The file does not start with `ISO-10303-21;`.
    #[error("not an ISO 10303-21 file (missing `ISO-10303-21;` at the start)")]
    NotStep,
    /// A token that does not fit the exchange-structure grammar.
    #[error("{at}: syntax error: expected {expected}, found {found}")]
    Syntax {
        /// Position.
        at: At,
        /// What the grammar wanted.
        expected: &'static str,
        /// What was there (a short excerpt).
        found: String,
    },
    /// The file ends inside a string, comment, instance or section.
    #[error("{at}: unterminated {what} (file truncated?)")]
    Unterminated {
        /// Where the unterminated construct started.
        at: At,
        /// `"string"`, `"comment"`, `"instance"`, `"DATA section"`, ...
        what: &'static str,
    },
    /// A string with a malformed `\X\`, `\X2\`, `\X4\` or `\S\` escape, or a
    /// character outside the allowed range.
    #[error("{at}: invalid string encoding: {msg}")]
    Encoding {
        /// Position.
        at: At,
        /// Details.
        msg: String,
    },
    /// Lists nested deeper than the reader allows.
    #[error("{at}: parameter lists nested deeper than {limit} levels")]
    Nesting {
        /// Position.
        at: At,
        /// The limit.
        limit: usize,
    },
    /// The same instance id defined twice.
    #[error("{at}: duplicate instance id (first defined on line {first_line})")]
    Duplicate {
        /// The second definition.
        at: At,
        /// Line of the first definition.
        first_line: usize,
    },
    /// A reference to an instance that is not defined.
    #[error("{at}: reference to undefined instance #{target}")]
    Dangling {
        /// The referencing instance.
        at: At,
        /// The missing id.
        target: u64,
    },
    /// A reference to an instance of another type than the schema requires
    /// there (an EDGE_CURVE where an ORIENTED_EDGE must be, a LINE where a
    /// CARTESIAN_POINT must be).
    #[error("{at}: {entity} refers to #{target} ({found}) where {expected} is required")]
    WrongType {
        /// The referring instance.
        at: At,
        /// Its entity type.
        entity: String,
        /// The referenced instance.
        target: u64,
        /// The referenced instance's entity type.
        found: String,
        /// What the schema requires.
        expected: &'static str,
    },
    /// Instances referring to each other in a cycle where a tree is required.
    #[error("{at}: cyclic reference ({what})")]
    Cycle {
        /// An instance on the cycle.
        at: At,
        /// What was being resolved.
        what: String,
    },
    /// An entity with the wrong number or type of parameters.
    #[error("{at}: {entity}: {msg}")]
    Param {
        /// The instance.
        at: At,
        /// Entity type name.
        entity: String,
        /// What is wrong.
        msg: String,
    },
    /// A count (poles, knots, degree, list length) that cannot be right.
    #[error("{at}: {entity}: absurd {what} {count}")]
    Count {
        /// The instance.
        at: At,
        /// Entity type name.
        entity: String,
        /// What was counted.
        what: &'static str,
        /// The value.
        count: i64,
    },
    /// Geometry that cannot be built (zero direction, bad knots, bad weights).
    #[error("{at}: {entity}: invalid geometry: {msg}")]
    Geometry {
        /// The instance.
        at: At,
        /// Entity type name.
        entity: String,
        /// Details.
        msg: String,
    },
    /// The file holds no face at all: no solid, shell, face or bounded
    /// surface was found in any shape representation (the import would
    /// otherwise be an empty scene).
    #[error("no face found: {detail}")]
    NoGeometry {
        /// What was looked at, and what was skipped.
        detail: String,
    },
    /// A file larger than the reader's 4 GiB offset range.
    #[error("file too large ({0} bytes; the STEP reader handles up to 4 GiB)")]
    TooLarge(usize),
}

impl StepError {
    /// The position of the error, when it has one.
    pub fn at(&self) -> Option<At> {
        match self {
            StepError::NotStep | StepError::TooLarge(_) | StepError::NoGeometry { .. } => None,
            StepError::Syntax { at, .. }
            | StepError::Unterminated { at, .. }
            | StepError::Encoding { at, .. }
            | StepError::Nesting { at, .. }
            | StepError::Duplicate { at, .. }
            | StepError::Dangling { at, .. }
            | StepError::WrongType { at, .. }
            | StepError::Cycle { at, .. }
            | StepError::Param { at, .. }
            | StepError::Count { at, .. }
            | StepError::Geometry { at, .. } => Some(*at),
        }
    }
}

//! Typed access to instance parameters with errors that name the line, the
//! instance and the parameter.

use super::arena::{Exchange, Param, Record};
use super::error::{At, StepError};

/// Arguments of one record of one instance, with typed getters.
#[derive(Clone, Copy)]
pub struct Args<'e, 'a> {
    /// The file.
    pub ex: &'e Exchange<'a>,
    /// Instance index.
    pub idx: usize,
    /// Entity (record) name.
    pub entity: &'a [u8],
    /// The parameters.
    pub args: &'e [Param],
}

/// Position of instance `idx`.
pub fn at_of(ex: &Exchange<'_>, idx: usize) -> At {
    match ex.instances.get(idx) {
        Some(i) => At {
            line: ex.line_of(i.offset),
            id: Some(i.id),
        },
        None => At { line: 0, id: None },
    }
}

impl<'e, 'a> Args<'e, 'a> {
    /// The record's arguments.
    pub fn new(ex: &'e Exchange<'a>, idx: usize, rec: &Record) -> Self {
        Self {
            ex,
            idx,
            entity: ex.name(rec),
            args: ex.args(rec),
        }
    }
    /// Position.
    pub fn at(&self) -> At {
        at_of(self.ex, self.idx)
    }
    /// A parameter error.
    pub fn err(&self, msg: impl Into<String>) -> StepError {
        StepError::Param {
            at: self.at(),
            entity: crate::import::escape::escape_bytes(self.entity),
            msg: msg.into(),
        }
    }
    /// A geometry error.
    pub fn geom_err(&self, msg: impl Into<String>) -> StepError {
        StepError::Geometry {
            at: self.at(),
            entity: crate::import::escape::escape_bytes(self.entity),
            msg: msg.into(),
        }
    }
    /// A count error.
    pub fn count_err(&self, what: &'static str, count: i64) -> StepError {
        StepError::Count {
            at: self.at(),
            entity: crate::import::escape::escape_bytes(self.entity),
            what,
            count,
        }
    }
    /// Requires at least `n` parameters.
    pub fn need(&self, n: usize) -> Result<(), StepError> {
        if self.args.len() < n {
            Err(self.err(format!("expected {n} parameters, found {}", self.args.len())))
        } else {
            Ok(())
        }
    }
    /// Parameter `k` (error when missing).
    pub fn get(&self, k: usize) -> Result<Param, StepError> {
        self.args
            .get(k)
            .copied()
            .ok_or_else(|| self.err(format!("parameter {} missing (found {})", k + 1, self.args.len())))
    }
    fn wrong(&self, k: usize, expected: &str, p: &Param) -> StepError {
        self.err(format!("parameter {}: expected {expected}, found {}", k + 1, p.kind()))
    }
    /// Unwraps typed parameters `NAME(x)`.
    fn untyped(&self, mut p: Param) -> Param {
        for _ in 0..8 {
            match p {
                Param::Typed { value, .. } => p = self.ex.params.get(value as usize).copied().unwrap_or(Param::Null),
                _ => break,
            }
        }
        p
    }
    /// A real (integers and typed measures accepted).
    pub fn real(&self, k: usize) -> Result<f64, StepError> {
        let p = self.get(k)?;
        real_of(self.untyped(p)).ok_or_else(|| self.wrong(k, "a real", &p))
    }
    /// An integer.
    pub fn int(&self, k: usize) -> Result<i64, StepError> {
        let p = self.get(k)?;
        match self.untyped(p) {
            Param::Int(i) => Ok(i),
            Param::Real(r) if r.fract() == 0.0 && r.abs() < 1e15 => Ok(r as i64),
            _ => Err(self.wrong(k, "an integer", &p)),
        }
    }
    /// A reference: the instance index of the target.
    pub fn reference(&self, k: usize) -> Result<usize, StepError> {
        let p = self.get(k)?;
        match p {
            Param::Ref(id) => self.ex.index.get(id).ok_or_else(|| StepError::Dangling {
                at: self.at(),
                target: id,
            }),
            _ => Err(self.wrong(k, "a reference", &p)),
        }
    }
    /// The entity type of instance `idx` (its records' names, space
    /// separated for a complex instance), escaped for a message.
    pub fn type_of(&self, idx: usize) -> String {
        let ex = self.ex;
        let names: Vec<&[u8]> = ex
            .instances
            .get(idx)
            .map(|i| ex.records_of(i).iter().map(|r| ex.name(r)).collect())
            .unwrap_or_default();
        crate::import::escape::escape_bytes(&names.join(&b' '))
    }
    /// True when instance `idx` has a record named one of `types`.
    pub fn is_a(&self, idx: usize, types: &[&[u8]]) -> bool {
        let ex = self.ex;
        ex.instances.get(idx).is_some_and(|i| {
            ex.records_of(i)
                .iter()
                .any(|r| types.iter().any(|t| ex.name(r).eq_ignore_ascii_case(t)))
        })
    }
    /// The error for a reference from this instance to `target` of the wrong type.
    pub fn wrong_type(&self, target: usize, expected: &'static str) -> StepError {
        StepError::WrongType {
            at: self.at(),
            entity: crate::import::escape::escape_bytes(self.entity),
            target: self.ex.instances.get(target).map_or(0, |i| i.id),
            found: self.type_of(target),
            expected,
        }
    }
    /// The one type check of a followed reference: instance `t`, referred
    /// to from this instance where the schema requires `ty`, is of `ty`'s
    /// class; a type the reader reads anyway ([`Ty::tolerated`]) is a
    /// warning naming both instances (kept in the file's
    /// [`super::arena::Exchange::type_notes`]); any other type is a
    /// [`StepError::WrongType`] naming both instances.
    pub fn check(&self, t: usize, ty: Ty) -> Result<usize, StepError> {
        if self.is_a(t, ty.names) {
            return Ok(t);
        }
        let w = self.wrong_type(t, ty.phrase);
        if !ty.tolerated.is_empty() && self.is_a(t, ty.tolerated) {
            self.ex.type_notes.borrow_mut().push(format!("{w}; {}", ty.reading));
            return Ok(t);
        }
        Err(w)
    }
    /// Parameter `k`, a reference to an instance of `ty` ([`Self::check`]).
    pub fn reference_to(&self, k: usize, ty: Ty) -> Result<usize, StepError> {
        self.check(self.reference(k)?, ty)
    }
    /// [`Self::opt_reference`] checked like [`Self::reference_to`].
    pub fn opt_reference_to(&self, k: usize, ty: Ty) -> Result<Option<usize>, StepError> {
        self.opt_reference(k)?.map(|t| self.check(t, ty)).transpose()
    }
    /// [`Self::refs`] with every element checked like [`Self::reference_to`].
    pub fn refs_to(&self, k: usize, ty: Ty) -> Result<Vec<usize>, StepError> {
        let v = self.refs(k)?;
        for &t in &v {
            self.check(t, ty)?;
        }
        Ok(v)
    }
    /// An optional reference (`$` → None).
    pub fn opt_reference(&self, k: usize) -> Result<Option<usize>, StepError> {
        match self.args.get(k) {
            None | Some(Param::Null) | Some(Param::Derived) => Ok(None),
            Some(_) => self.reference(k).map(Some),
        }
    }
    /// A list.
    pub fn list(&self, k: usize) -> Result<&'e [Param], StepError> {
        let p = self.get(k)?;
        self.ex.list(&p).ok_or_else(|| self.wrong(k, "a list", &p))
    }
    /// A list of references (instance indices).
    pub fn refs(&self, k: usize) -> Result<Vec<usize>, StepError> {
        let l = self.list(k)?;
        l.iter()
            .map(|p| match *p {
                Param::Ref(id) => self.ex.index.get(id).ok_or_else(|| StepError::Dangling {
                    at: self.at(),
                    target: id,
                }),
                _ => Err(self.wrong(k, "a list of references", p)),
            })
            .collect()
    }
    /// A list of reals.
    pub fn reals(&self, k: usize) -> Result<Vec<f64>, StepError> {
        let l = self.list(k)?;
        l.iter()
            .map(|p| real_of(self.untyped(*p)).ok_or_else(|| self.wrong(k, "a list of reals", p)))
            .collect()
    }
    /// A list of up to three reals without allocating: the first three
    /// (missing ones 0) and the list's length (checked by the caller).
    pub fn reals3(&self, k: usize) -> Result<([f64; 3], usize), StepError> {
        let l = self.list(k)?;
        let mut out = [0.0; 3];
        for (slot, p) in out.iter_mut().zip(l) {
            *slot = real_of(self.untyped(*p)).ok_or_else(|| self.wrong(k, "a list of reals", p))?;
        }
        if let Some(p) = l.iter().skip(3).find(|p| real_of(self.untyped(**p)).is_none()) {
            return Err(self.wrong(k, "a list of reals", p));
        }
        Ok((out, l.len()))
    }
    /// A list of integers.
    pub fn ints(&self, k: usize) -> Result<Vec<i64>, StepError> {
        let l = self.list(k)?;
        l.iter()
            .map(|p| match self.untyped(*p) {
                Param::Int(i) => Ok(i),
                _ => Err(self.wrong(k, "a list of integers", p)),
            })
            .collect()
    }
    /// An enumeration name (`.T.` → `T`).
    pub fn enumeration(&self, k: usize) -> Result<&'a [u8], StepError> {
        let p = self.get(k)?;
        match p {
            Param::Enum(s) => Ok(s.of(self.ex.src)),
            _ => Err(self.wrong(k, "an enumeration", &p)),
        }
    }
    /// A BOOLEAN / LOGICAL (`.T.` true; `.F.` false; `.U.` → `default`).
    pub fn boolean(&self, k: usize, default: bool) -> Result<bool, StepError> {
        match self.enumeration(k)? {
            b"T" | b"TRUE" => Ok(true),
            b"F" | b"FALSE" => Ok(false),
            b"U" | b"UNKNOWN" => Ok(default),
            other => Err(self.err(format!(
                "parameter {}: expected .T. or .F., found .{}.",
                k + 1,
                crate::import::escape::escape_bytes(other)
            ))),
        }
    }
    /// A string (decoded leniently, see [`super::strings::decode_lenient`]);
    /// `$` gives an empty string.
    pub fn string(&self, k: usize) -> Result<String, StepError> {
        let p = self.get(k)?;
        match p {
            // never fails: unknown escapes are kept literally (the parser
            // has already warned about them)
            Param::Str(s) => Ok(super::strings::decode_lenient(s.of(self.ex.src)).text),
            Param::Null | Param::Derived => Ok(String::new()),
            _ => Err(self.wrong(k, "a string", &p)),
        }
    }
}

/// A type class a reference must lead to (the schema's type of the
/// parameter, AP203/AP214/AP242): the entity names of the class and its
/// subtypes (a complex instance fits when one of its records is named so),
/// the phrase naming it in a message, and the types the reader reads there
/// anyway with a warning. Every reference the reader follows is checked
/// against one of the classes of [`TYPE_CLASSES`] by [`Args::check`].
#[derive(Debug, Clone, Copy)]
pub struct Ty {
    /// Short name of the class (`curve`, `surface`, ...).
    pub class: &'static str,
    /// Entity names of the class.
    pub names: &'static [&'static [u8]],
    /// The class in a message ("a CARTESIAN_POINT").
    pub phrase: &'static str,
    /// Types of another class read anyway, with a warning.
    pub tolerated: &'static [&'static [u8]],
    /// How a tolerated type is read (the warning's tail).
    pub reading: &'static str,
}

const fn ty(class: &'static str, names: &'static [&'static [u8]], phrase: &'static str) -> Ty {
    Ty {
        class,
        names,
        phrase,
        tolerated: &[],
        reading: "",
    }
}

/// The schema's curve entities (and the records of their complex instances).
const CURVE_NAMES: &[&[u8]] = &[
    b"LINE",
    b"CIRCLE",
    b"ELLIPSE",
    b"PARABOLA",
    b"HYPERBOLA",
    b"POLYLINE",
    b"B_SPLINE_CURVE",
    b"B_SPLINE_CURVE_WITH_KNOTS",
    b"BEZIER_CURVE",
    b"UNIFORM_CURVE",
    b"QUASI_UNIFORM_CURVE",
    b"RATIONAL_B_SPLINE_CURVE",
    b"TRIMMED_CURVE",
    b"COMPOSITE_CURVE",
    b"COMPOSITE_CURVE_ON_SURFACE",
    b"BOUNDED_CURVE",
    b"SURFACE_CURVE",
    b"SEAM_CURVE",
    b"INTERSECTION_CURVE",
    b"BOUNDED_SURFACE_CURVE",
    b"PCURVE",
    b"BOUNDED_PCURVE",
    b"OFFSET_CURVE_3D",
    b"OFFSET_CURVE_2D",
    b"CURVE_REPLICA",
];

/// The schema's surface entities (and the records of their complex instances).
const SURFACE_NAMES: &[&[u8]] = &[
    b"PLANE",
    b"CYLINDRICAL_SURFACE",
    b"CONICAL_SURFACE",
    b"SPHERICAL_SURFACE",
    b"TOROIDAL_SURFACE",
    b"DEGENERATE_TOROIDAL_SURFACE",
    b"B_SPLINE_SURFACE",
    b"B_SPLINE_SURFACE_WITH_KNOTS",
    b"BEZIER_SURFACE",
    b"UNIFORM_SURFACE",
    b"QUASI_UNIFORM_SURFACE",
    b"RATIONAL_B_SPLINE_SURFACE",
    b"BOUNDED_SURFACE",
    b"SURFACE_OF_REVOLUTION",
    b"SURFACE_OF_LINEAR_EXTRUSION",
    b"OFFSET_SURFACE",
    b"RECTANGULAR_TRIMMED_SURFACE",
    b"CURVE_BOUNDED_SURFACE",
    b"SURFACE_REPLICA",
];

/// CARTESIAN_POINT.
pub const POINT: Ty = ty("point", &[b"CARTESIAN_POINT"], "a CARTESIAN_POINT");
/// DIRECTION.
pub const DIRECTION: Ty = ty("direction", &[b"DIRECTION"], "a DIRECTION");
/// VECTOR (a DIRECTION is read as a unit vector, with a warning).
pub const VECTOR: Ty = Ty {
    tolerated: &[b"DIRECTION"],
    reading: "read as a VECTOR of magnitude 1",
    ..ty("vector", &[b"VECTOR"], "a VECTOR")
};
/// A placement.
pub const PLACEMENT: Ty = ty(
    "placement",
    &[b"AXIS2_PLACEMENT_3D", b"AXIS2_PLACEMENT_2D", b"AXIS1_PLACEMENT"],
    "an AXIS2_PLACEMENT_3D, AXIS2_PLACEMENT_2D or AXIS1_PLACEMENT",
);
/// A curve.
pub const CURVE: Ty = ty("curve", CURVE_NAMES, "a curve");
/// A surface.
pub const SURFACE: Ty = ty("surface", SURFACE_NAMES, "a surface");
/// The `pcurve_or_surface` SELECT of a SURFACE_CURVE's associated geometry:
/// a PCURVE, or a surface (allowed, unused by the reader: a warning says so).
pub const PCURVE_OR_SURFACE: Ty = Ty {
    tolerated: SURFACE_NAMES,
    reading: "a surface is allowed there but carries no p-curve: ignored",
    ..ty("pcurve_or_surface", &[b"PCURVE"], "a PCURVE or a surface")
};
/// The DEFINITIONAL_REPRESENTATION of a PCURVE.
pub const DEFINITIONAL_REPRESENTATION: Ty = ty(
    "definitional_representation",
    &[b"DEFINITIONAL_REPRESENTATION"],
    "a DEFINITIONAL_REPRESENTATION",
);
/// A segment of a COMPOSITE_CURVE.
pub const COMPOSITE_SEGMENT: Ty = ty(
    "composite_curve_segment",
    &[b"COMPOSITE_CURVE_SEGMENT", b"REPARAMETRISED_COMPOSITE_CURVE_SEGMENT"],
    "a COMPOSITE_CURVE_SEGMENT",
);
/// VERTEX_POINT.
pub const VERTEX: Ty = ty("vertex", &[b"VERTEX_POINT"], "a VERTEX_POINT");
/// An edge used by an ORIENTED_EDGE (an ORIENTED_EDGE is an edge).
pub const EDGE: Ty = ty("edge", &[b"EDGE_CURVE", b"ORIENTED_EDGE"], "an EDGE_CURVE");
/// An element of an EDGE_LOOP (an EDGE_CURVE is read along its own sense, with a warning).
pub const ORIENTED_EDGE: Ty = Ty {
    tolerated: &[b"EDGE_CURVE"],
    reading: "read as an ORIENTED_EDGE along the edge's own sense",
    ..ty("oriented_edge", &[b"ORIENTED_EDGE"], "an ORIENTED_EDGE")
};
/// A loop of a face bound.
pub const LOOP: Ty = ty(
    "loop",
    &[b"EDGE_LOOP", b"VERTEX_LOOP", b"POLY_LOOP"],
    "an EDGE_LOOP, VERTEX_LOOP or POLY_LOOP",
);
/// A bound of a face.
pub const BOUND: Ty = ty(
    "bound",
    &[b"FACE_BOUND", b"FACE_OUTER_BOUND"],
    "a FACE_BOUND or FACE_OUTER_BOUND",
);
/// A face of a shell.
pub const FACE: Ty = ty(
    "face",
    &[b"ADVANCED_FACE", b"FACE_SURFACE", b"ORIENTED_FACE"],
    "an ADVANCED_FACE, FACE_SURFACE or ORIENTED_FACE",
);
/// A shell of a solid or of a shell-based surface model.
pub const SHELL: Ty = ty(
    "shell",
    &[
        b"CLOSED_SHELL",
        b"OPEN_SHELL",
        b"ORIENTED_CLOSED_SHELL",
        b"ORIENTED_OPEN_SHELL",
        b"CONNECTED_FACE_SET",
    ],
    "a CLOSED_SHELL or OPEN_SHELL",
);

/// Every type class the reader checks a followed reference against.
pub const TYPE_CLASSES: &[Ty] = &[
    POINT,
    DIRECTION,
    VECTOR,
    PLACEMENT,
    CURVE,
    SURFACE,
    PCURVE_OR_SURFACE,
    DEFINITIONAL_REPRESENTATION,
    COMPOSITE_SEGMENT,
    VERTEX,
    EDGE,
    ORIENTED_EDGE,
    LOOP,
    BOUND,
    FACE,
    SHELL,
];

/// A real from a plain parameter.
pub fn real_of(p: Param) -> Option<f64> {
    match p {
        Param::Real(r) => Some(r),
        Param::Int(i) => Some(i as f64),
        _ => None,
    }
}

/// An entity or enumeration name in upper case, borrowed when it already is
/// (the usual case: no allocation per entity read).
pub fn upper(n: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if n.iter().any(u8::is_ascii_lowercase) {
        std::borrow::Cow::Owned(n.to_ascii_uppercase())
    } else {
        std::borrow::Cow::Borrowed(n)
    }
}

#[cfg(test)]
mod class_tests {
    use super::*;

    #[test]
    fn the_classes_are_disjoint_where_the_schema_says_so() {
        // curves, surfaces, points, directions, placements and topology share no name
        let disjoint = [
            POINT, DIRECTION, VECTOR, PLACEMENT, CURVE, SURFACE, VERTEX, LOOP, BOUND, FACE, SHELL,
        ];
        for (i, a) in disjoint.iter().enumerate() {
            for b in &disjoint[i + 1..] {
                for n in a.names {
                    assert!(!b.names.contains(n), "{} in {} and {}", String::from_utf8_lossy(n), a.class, b.class);
                }
            }
        }
        // tolerated types are never of the class itself
        for t in TYPE_CLASSES {
            for n in t.tolerated {
                assert!(!t.names.contains(n), "{}", t.class);
            }
            assert_eq!(t.tolerated.is_empty(), t.reading.is_empty(), "{}", t.class);
        }
    }
}

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
    /// A reference to an instance of one of `ty.0` (the schema's type of
    /// the parameter); another type is a [`StepError::WrongType`] naming
    /// both instances.
    pub fn reference_to(&self, k: usize, ty: Ty) -> Result<usize, StepError> {
        let t = self.reference(k)?;
        if self.is_a(t, ty.0) {
            Ok(t)
        } else {
            Err(self.wrong_type(t, ty.1))
        }
    }
    /// [`Self::opt_reference`] checked like [`Self::reference_to`].
    pub fn opt_reference_to(&self, k: usize, ty: Ty) -> Result<Option<usize>, StepError> {
        match self.opt_reference(k)? {
            Some(t) if !self.is_a(t, ty.0) => Err(self.wrong_type(t, ty.1)),
            r => Ok(r),
        }
    }
    /// [`Self::refs`] with every element checked like [`Self::reference_to`].
    pub fn refs_to(&self, k: usize, ty: Ty) -> Result<Vec<usize>, StepError> {
        let v = self.refs(k)?;
        match v.iter().find(|&&t| !self.is_a(t, ty.0)) {
            Some(&t) => Err(self.wrong_type(t, ty.1)),
            None => Ok(v),
        }
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

/// A type a reference must lead to: accepted entity names, and the phrase
/// naming them in a message.
pub type Ty = (&'static [&'static [u8]], &'static str);

/// CARTESIAN_POINT.
pub const POINT: Ty = (&[b"CARTESIAN_POINT"], "a CARTESIAN_POINT");
/// DIRECTION.
pub const DIRECTION: Ty = (&[b"DIRECTION"], "a DIRECTION");
/// VECTOR (or a DIRECTION, read with magnitude 1).
pub const VECTOR: Ty = (&[b"VECTOR", b"DIRECTION"], "a VECTOR");
/// A placement.
pub const PLACEMENT: Ty = (
    &[b"AXIS2_PLACEMENT_3D", b"AXIS2_PLACEMENT_2D", b"AXIS1_PLACEMENT"],
    "an AXIS2_PLACEMENT_3D, AXIS2_PLACEMENT_2D or AXIS1_PLACEMENT",
);
/// VERTEX_POINT.
pub const VERTEX: Ty = (&[b"VERTEX_POINT"], "a VERTEX_POINT");
/// An edge used by an ORIENTED_EDGE.
pub const EDGE: Ty = (&[b"EDGE_CURVE", b"ORIENTED_EDGE"], "an EDGE_CURVE");
/// A loop of a face bound.
pub const LOOP: Ty = (
    &[b"EDGE_LOOP", b"VERTEX_LOOP", b"POLY_LOOP"],
    "an EDGE_LOOP, VERTEX_LOOP or POLY_LOOP",
);
/// A bound of a face.
pub const BOUND: Ty = (&[b"FACE_BOUND", b"FACE_OUTER_BOUND"], "a FACE_BOUND or FACE_OUTER_BOUND");
/// A face of a shell.
pub const FACE: Ty = (
    &[b"ADVANCED_FACE", b"FACE_SURFACE", b"ORIENTED_FACE"],
    "an ADVANCED_FACE or FACE_SURFACE",
);

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

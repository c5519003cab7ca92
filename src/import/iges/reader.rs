//! The reader state shared by the entity converters: directory lookup with
//! pointer validation, parameter extraction, transformation chains, cycle and
//! depth guards, and the counted warnings.

use super::directory::DirEntry;
use super::error::IgesError;
use super::global::Global;
use super::params::{Origin, Params};
use super::records::Records;
use super::transform::Affine;
use crate::geom::Vec3;
use nalgebra::Matrix3;
use std::collections::{BTreeMap, HashMap};

/// Deepest entity nesting followed (composite of composite of …, subfigures).
pub const MAX_DEPTH: usize = 64;

/// Reader state.
pub struct Reader<'a> {
    /// Records by section.
    pub recs: Records<'a>,
    /// Global section.
    pub global: Global,
    /// Directory entries, index `(de - 1) / 2`.
    pub dir: Vec<DirEntry>,
    /// Millimetres per model unit.
    pub mm: f64,
    /// Skipped entities: `(entity type, reason)` → (count, first DE).
    pub skipped: BTreeMap<(i64, String), (usize, usize)>,
    /// Other warnings (one line each).
    pub notes: Vec<String>,
    stack: Vec<usize>,
    col65: (usize, usize),
    backptr: (usize, usize),
    chains: HashMap<usize, Affine>,
    /// The DE of the root solid / shell being read in its own coordinates:
    /// its 124 is part of the body placement, not of the geometry.
    pub detached: Option<usize>,
    /// Shells of root solids / shells read in their own coordinates, by DE:
    /// further instances (408s of one 308) share them.
    pub local_bodies: HashMap<usize, Vec<crate::import::model::Shell>>,
    /// Dropped face entities by reason → their DEs (one warning per reason).
    pub dropped_notes: BTreeMap<String, Vec<usize>>,
    /// The first error that dropped a face (the import's error when no face
    /// at all could be read).
    pub first_face_error: Option<IgesError>,
}

impl<'a> Reader<'a> {
    /// A reader over split records, the Global section and the directory.
    pub fn new(recs: Records<'a>, global: Global, dir: Vec<DirEntry>, mm: f64) -> Self {
        Self {
            recs,
            global,
            dir,
            mm,
            skipped: BTreeMap::new(),
            notes: Vec::new(),
            stack: Vec::new(),
            col65: (0, 0),
            backptr: (0, 0),
            chains: HashMap::new(),
            detached: None,
            local_bodies: HashMap::new(),
            dropped_notes: BTreeMap::new(),
            first_face_error: None,
        }
    }

    /// An error about entity `e`.
    pub fn err(&self, e: &DirEntry, msg: impl Into<String>) -> IgesError {
        IgesError::Entity {
            line: e.line,
            de: e.de,
            entity: e.entity,
            msg: msg.into(),
        }
    }

    /// The entry a pointer in `from`'s data refers to.
    pub fn entry(&self, ptr: i64, from: &DirEntry) -> Result<DirEntry, IgesError> {
        let n = self.dir.len();
        if ptr <= 0 || ptr % 2 == 0 || (ptr as u64 - 1) / 2 >= n as u64 {
            return Err(self.err(
                from,
                format!(
                    "pointer {ptr} is not a directory entry (odd numbers 1..={} in this file)",
                    2 * n - 1
                ),
            ));
        }
        Ok(self.dir[(ptr as usize - 1) / 2].clone())
    }

    /// The entry a pointer in `from`'s data refers to, which must be of
    /// type `entity`; else an error on `from`: "`role` pointer `ptr` should
    /// be a `entity` `noun`, is entity … at DE …".
    pub fn entry_of(&self, ptr: i64, from: &DirEntry, entity: i64, role: &str, noun: &str) -> Result<DirEntry, IgesError> {
        let e = self.entry(ptr, from)?;
        if e.entity != entity {
            return Err(self.err(
                from,
                format!("{role} pointer {ptr} should be a {entity} {noun}, is entity {} at DE {}", e.entity, e.de),
            ));
        }
        Ok(e)
    }

    /// Records that entity `e` was skipped (counted per type and reason).
    pub fn skip(&mut self, e: &DirEntry, why: &str) {
        let k = self.skipped.entry((e.entity, why.to_string())).or_insert((0, e.de));
        k.0 += 1;
    }

    /// Runs `f` with `e` on the conversion stack (cycle and depth guard).
    pub fn nested<T>(
        &mut self,
        e: &DirEntry,
        f: impl FnOnce(&mut Self) -> Result<T, IgesError>,
    ) -> Result<T, IgesError> {
        if self.stack.contains(&e.de) {
            return Err(self.err(
                e,
                format!(
                    "cyclic reference: DE {} refers back to itself through {:?}",
                    e.de, self.stack
                ),
            ));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.err(e, format!("entities nested deeper than {MAX_DEPTH} levels")));
        }
        self.stack.push(e.de);
        let r = f(self);
        self.stack.pop();
        r
    }

    /// The parameter data of `e`, checked to start with `e`'s entity type.
    pub fn params(&mut self, e: &DirEntry) -> Result<Params, IgesError> {
        let n = self.recs.parameter.len();
        let first = e.param_ptr;
        let count = e.param_count.max(1);
        if first <= 0 || first as u64 > n as u64 {
            return Err(self.err(
                e,
                format!("parameter data pointer {first} outside the Parameter section (records 1..={n})"),
            ));
        }
        let first = first as usize;
        let last = first as u64 + count as u64 - 1;
        if last > n as u64 {
            return Err(self.err(
                e,
                format!(
                    "parameter data records {first}..={last} run past the end of the Parameter section ({n} records): truncated file"
                ),
            ));
        }
        let last = last as usize;
        let mut text = Vec::with_capacity((last - first + 1) * 65);
        let mut starts = Vec::with_capacity(last - first + 1);
        for r in &self.recs.parameter[first - 1..last] {
            let d = r.data;
            let field = d.get(65..72).unwrap_or(&[]);
            // the digits of columns 66-72, blanks anywhere ignored
            let mut parsed = None;
            for &c in field {
                match c {
                    b' ' => {}
                    b'0'..=b'9' => parsed = Some(parsed.unwrap_or(0usize) * 10 + (c - b'0') as usize),
                    _ => {
                        parsed = None;
                        break;
                    }
                }
            }
            let back_ok = match parsed {
                Some(v) => v == e.de,
                None => {
                    let back = crate::import::escape::escape_bytes(field).trim().to_string();
                    return Err(IgesError::Parameter {
                        line: r.line,
                        de: e.de,
                        entity: e.entity,
                        index: 0,
                        msg: format!("columns 66-72 must hold the DE pointer, found {back:?}: ambiguous column layout"),
                    });
                }
            };
            if !back_ok {
                self.backptr.0 += 1;
                if self.backptr.1 == 0 {
                    self.backptr.1 = r.line;
                }
            }
            starts.push((text.len(), r.line));
            let width = if d.len() > 64 && d[64] != b' ' {
                self.col65.0 += 1;
                if self.col65.1 == 0 {
                    self.col65.1 = r.line;
                }
                65
            } else {
                64
            };
            text.extend_from_slice(&d[..width.min(d.len())]);
        }
        let mut p = Params::new(
            text,
            starts,
            self.global.pd,
            self.global.rd,
            Origin::Entity {
                de: e.de,
                entity: e.entity,
            },
        );
        let t = p.int()?;
        if t != e.entity {
            return Err(p.err(format!(
                "parameter data starts with entity type {t}, directory says {}",
                e.entity
            )));
        }
        Ok(p)
    }

    /// The transform of entity `e` (its 124 chain), in model units.
    pub fn own_transform(&mut self, e: &DirEntry) -> Result<Affine, IgesError> {
        if e.transform == 0 || self.detached == Some(e.de) {
            return Ok(Affine::identity());
        }
        let mut total = Affine::identity();
        let mut ptr = e.transform;
        let mut seen: Vec<i64> = Vec::new();
        let mut from = e.clone();
        while ptr != 0 {
            if seen.contains(&ptr) {
                return Err(self.err(e, format!("cyclic transformation-matrix chain through DE {ptr}")));
            }
            if seen.len() > MAX_DEPTH {
                return Err(self.err(e, "transformation-matrix chain longer than 64"));
            }
            seen.push(ptr);
            let t = self.entry(ptr.abs(), &from)?;
            if t.entity != 124 {
                return Err(self.err(
                    e,
                    format!("transformation pointer {ptr} refers to entity {}, not 124", t.entity),
                ));
            }
            let m = match self.chains.get(&t.de) {
                Some(m) => *m,
                None => {
                    let m = self.matrix(&t)?;
                    self.chains.insert(t.de, m);
                    m
                }
            };
            // the 124's own pointer applies after it: T = T_next ∘ T_this
            total = m.then_inner(&total);
            ptr = t.transform;
            from = t;
        }
        Ok(total)
    }

    fn matrix(&mut self, t: &DirEntry) -> Result<Affine, IgesError> {
        let mut p = self.params(t)?;
        let mut v = [0.0; 12];
        for x in v.iter_mut() {
            *x = p.real()?;
        }
        let a = Affine {
            m: Matrix3::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]),
            t: Vec3::new(v[3], v[7], v[11]),
        };
        if a.m.determinant().abs() < 1e-12 {
            return Err(self.err(t, "singular transformation matrix"));
        }
        Ok(a)
    }

    /// The map from an entity's definition space to model space in mm, given
    /// the accumulated map of its parent (`parent` already includes the unit scale).
    pub fn placed(&mut self, e: &DirEntry, parent: &Affine) -> Result<Affine, IgesError> {
        Ok(parent.then_inner(&self.own_transform(e)?))
    }

    /// Final warnings: reading notes, then skipped entities by type.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = self.recs.warnings.clone();
        w.extend(self.global.warnings.iter().cloned());
        if self.col65.0 > 0 {
            w.push(format!(
                "parameter data runs into column 65 on {} records (first at line {}): read as data (fixed format puts it in columns 1-64)",
                self.col65.0, self.col65.1
            ));
        }
        if self.backptr.0 > 0 {
            w.push(format!(
                "{} parameter records have a DE back-pointer that differs from their entry (first at line {}): the directory's pointer is used",
                self.backptr.0, self.backptr.1
            ));
        }
        w.extend(self.notes.iter().cloned());
        w.extend(self.dropped_warnings());
        for ((t, why), (n, de)) in &self.skipped {
            w.push(format!("skipped {n} entities of type {t} ({why}), first DE {de}"));
        }
        w
    }
}

/// What a pointer must lead to (IGES entity classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A curve entity (100–130, 142).
    Curve,
    /// A surface entity (108, 114–128, 140–144, 190–198).
    Surface,
}

/// Curve entity types (supported or not).
const CURVES: &[i64] = &[100, 102, 104, 106, 110, 112, 126, 130, 142];
/// Surface entity types (supported or not).
const SURFACES: &[i64] = &[108, 114, 118, 120, 122, 128, 140, 143, 144, 190, 192, 194, 196, 198];
/// Topology entity types.
const TOPOLOGY: &[i64] = &[186, 502, 504, 508, 510, 514];

/// The class of entity type `t` when it is known to be of another kind than
/// `want` (a surface where a curve must be, a vertex list, a point...):
/// then a pointer to it is a wrong-type reference. `None` for the wanted
/// class and for types of no known class (reported by the converters).
pub fn other_class(t: i64, want: Class) -> Option<&'static str> {
    let class = if CURVES.contains(&t) {
        Some((Class::Curve, "a curve"))
    } else if SURFACES.contains(&t) {
        Some((Class::Surface, "a surface"))
    } else if TOPOLOGY.contains(&t) {
        return Some("a B-rep topology entity");
    } else {
        match t {
            116 => return Some("a point"),
            123 => return Some("a direction"),
            124 => return Some("a transformation matrix"),
            _ => None,
        }
    };
    class.and_then(|(c, name)| (c != want).then_some(name))
}

#[cfg(test)]
mod class_tests {
    use super::*;

    #[test]
    fn pointers_to_other_kinds_are_wrong_types() {
        assert_eq!(other_class(110, Class::Curve), None);
        assert_eq!(other_class(128, Class::Surface), None);
        assert_eq!(other_class(128, Class::Curve), Some("a surface"));
        assert_eq!(other_class(110, Class::Surface), Some("a curve"));
        assert_eq!(other_class(116, Class::Curve), Some("a point"));
        assert_eq!(other_class(502, Class::Surface), Some("a B-rep topology entity"));
        // unknown types are left to the converters (an unsupported-entity error)
        assert_eq!(other_class(999, Class::Curve), None);
    }
}

//! The state shared by the entity mappers: the parsed file, per-instance caches
//! (so shared edges, vertices, faces and geometry are built once), the
//! visited flags that drive the "skipped entity" warnings, cycle guards and
//! the current unit factors.

use super::access::{at_of, Args};
use super::arena::{Exchange, Record};
use super::error::StepError;
use crate::import::model::{Curve, Model, Surface};
use std::collections::HashMap;

/// Deepest chain of geometry references followed (offset of offset of ...).
pub const MAX_CHAIN: usize = 64;

const NONE: u32 = u32::MAX;

/// Builder state.
pub struct Builder<'e, 'a> {
    /// The parsed file.
    pub ex: &'e Exchange<'a>,
    /// The Model being filled.
    pub model: Model,
    /// Instances read (per instance index).
    pub visited: Vec<bool>,
    /// Instances being resolved right now (cycle guard).
    pub busy: Vec<bool>,
    /// Current depth of nested geometry resolution.
    pub depth: usize,
    /// Millimetres per file length unit in the current representation context.
    pub scale: f64,
    /// Radians per file angle unit in the current context.
    pub angle: f64,
    /// Length uncertainty of the current context, mm (when it gives one).
    pub uncertainty: Option<f64>,
    /// Scale of the two parameter axes while building a p-curve.
    pub uv_scale: Option<(f64, f64)>,
    /// Instance index → Model vertex index.
    pub vertex_map: Vec<u32>,
    /// Instance index → Model edge index.
    pub edge_map: Vec<u32>,
    /// Instance index → Model face index.
    pub face_map: Vec<u32>,
    /// Curve cache (instance index, scale bits).
    pub curves: HashMap<(usize, u64), Curve>,
    /// Surface cache (shared surfaces not held by a face).
    pub surfaces: HashMap<(usize, u64), Surface>,
    /// Surfaces held by a Model face: key → face index.
    pub surface_faces: HashMap<(usize, u64), usize>,
    /// Units of each representation context read so far.
    pub context_cache: HashMap<usize, super::units::ContextUnits>,
    /// EDGE_CURVE instance → its Edge runs against the STEP edge direction.
    pub edge_flips: HashMap<usize, bool>,
    /// Solid / shell / face items already placed as a body.
    pub placed_items: std::collections::HashSet<usize>,
    /// PCURVEs (`#N`) whose own range between their edge's vertices was not
    /// found (the 3-D range was kept).
    pub pcurve_range_misses: Vec<u64>,
    /// EDGE_CURVEs whose curve misses their vertices beyond the tolerance
    /// ([`super::edge_ends`]).
    pub edge_ends: Vec<super::edge_ends::EndsNote>,
    /// The first error that dropped a face (returned when no face at all
    /// could be read, so that a broken one-face file still says why).
    pub first_face_error: Option<StepError>,
}

impl<'e, 'a> Builder<'e, 'a> {
    /// A builder over a parsed file.
    pub fn new(ex: &'e Exchange<'a>, model: Model) -> Self {
        let n = ex.instances.len();
        Self {
            ex,
            model,
            visited: vec![false; n],
            busy: vec![false; n],
            depth: 0,
            scale: 1.0,
            angle: 1.0,
            uncertainty: None,
            uv_scale: None,
            vertex_map: vec![NONE; n],
            edge_map: vec![NONE; n],
            face_map: vec![NONE; n],
            curves: HashMap::new(),
            surfaces: HashMap::new(),
            surface_faces: HashMap::new(),
            context_cache: HashMap::new(),
            edge_flips: HashMap::new(),
            placed_items: std::collections::HashSet::new(),
            pcurve_range_misses: Vec::new(),
            edge_ends: Vec::new(),
            first_face_error: None,
        }
    }

    /// The records of instance `idx` (marks it visited).
    pub fn records(&mut self, idx: usize) -> &'e [Record] {
        let ex = self.ex;
        if let Some(v) = self.visited.get_mut(idx) {
            *v = true;
        }
        ex.instances.get(idx).map_or(&[], |i| ex.records_of(i))
    }

    /// Entity name of a simple instance (or the first record of a complex one).
    pub fn type_name(&self, idx: usize) -> &'a [u8] {
        let ex = self.ex;
        ex.instances
            .get(idx)
            .and_then(|i| ex.records_of(i).first())
            .map_or(&b""[..], |r| ex.name(r))
    }

    /// True when instance `idx` has a record named `name`.
    pub fn has(&self, idx: usize, name: &[u8]) -> bool {
        let ex = self.ex;
        ex.instances
            .get(idx)
            .is_some_and(|i| ex.records_of(i).iter().any(|r| ex.name(r).eq_ignore_ascii_case(name)))
    }

    /// The arguments of the record `name` of instance `idx`, if it has one (marks visited).
    pub fn part(&mut self, idx: usize, name: &[u8]) -> Option<Args<'e, 'a>> {
        let ex = self.ex;
        let recs = self.records(idx);
        recs.iter()
            .find(|r| ex.name(r).eq_ignore_ascii_case(name))
            .map(|r| Args::new(ex, idx, r))
    }

    /// Arguments of the single record of a simple instance (marks visited).
    pub fn simple(&mut self, idx: usize) -> Args<'e, 'a> {
        let ex = self.ex;
        let recs = self.records(idx);
        match recs.first() {
            Some(r) => Args::new(ex, idx, r),
            None => Args {
                ex,
                idx,
                entity: b"",
                args: &[],
            },
        }
    }

    /// Marks `idx` busy; error if it already is (a reference cycle) or the
    /// chain is too deep.
    pub fn enter(&mut self, idx: usize, what: &str) -> Result<(), StepError> {
        if self.busy.get(idx).copied().unwrap_or(false) || self.depth >= MAX_CHAIN {
            return Err(StepError::Cycle {
                at: at_of(self.ex, idx),
                what: what.to_string(),
            });
        }
        if let Some(b) = self.busy.get_mut(idx) {
            *b = true;
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves `idx`.
    pub fn leave(&mut self, idx: usize) {
        if let Some(b) = self.busy.get_mut(idx) {
            *b = false;
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// Cache key of geometry built under the current unit factors.
    pub fn key(&self, idx: usize) -> (usize, u64) {
        let mut h = self.scale.to_bits() ^ self.angle.to_bits().rotate_left(17);
        if let Some((a, b)) = self.uv_scale {
            h ^= a.to_bits().rotate_left(31) ^ b.to_bits().rotate_left(47) ^ 1;
        }
        (idx, h)
    }

    /// Looked-up mapped index.
    pub fn mapped(map: &[u32], idx: usize) -> Option<usize> {
        map.get(idx).copied().filter(|&v| v != NONE).map(|v| v as usize)
    }

    /// Records a mapping.
    pub fn set_mapped(map: &mut [u32], idx: usize, v: usize) {
        if let Some(s) = map.get_mut(idx) {
            *s = v as u32;
        }
    }

    /// One warning line per entity type never read, with its count.
    pub fn skipped_warnings(&self) -> Vec<String> {
        let ex = self.ex;
        // keyed by the name bytes (keywords are ASCII: byte order is the
        // string order); no allocation for simple instances
        let mut counts: std::collections::BTreeMap<std::borrow::Cow<'a, [u8]>, usize> =
            std::collections::BTreeMap::new();
        for (k, inst) in ex.instances.iter().enumerate() {
            if self.visited.get(k).copied().unwrap_or(true) {
                continue;
            }
            let recs = ex.records_of(inst);
            let name = if recs.len() == 1 {
                std::borrow::Cow::Borrowed(ex.name(&recs[0]))
            } else {
                let names: Vec<&[u8]> = recs.iter().map(|r| ex.name(r)).collect();
                let mut n = b"(".to_vec();
                n.extend_from_slice(&names.join(&b' '));
                n.push(b')');
                std::borrow::Cow::Owned(n)
            };
            *counts.entry(name).or_insert(0) += 1;
        }
        counts
            .into_iter()
            .map(|(name, n)| {
                format!(
                    "skipped {n} {} instance{} (not used by any placed shape)",
                    crate::import::escape::escape_bytes(&name),
                    if n == 1 { "" } else { "s" }
                )
            })
            .collect()
    }
}

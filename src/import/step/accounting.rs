//! Face accounting of the STEP reader (issue 25, self-check "accounting"):
//! every face-like entity of the file (ADVANCED_FACE, FACE_SURFACE,
//! ORIENTED_FACE, the faces of shells and surface models, the bare surfaces
//! of a geometric set) either becomes a Model face or is recorded in
//! [`Model::dropped`](crate::import::model::Model::dropped) with a warning
//! naming its `#N` and why. A face that cannot be read drops that face, not
//! the file; only when no face at all could be read is the first such error
//! the import's error.

use super::access::upper;
use super::builder::Builder;
use super::error::StepError;
use crate::import::model::{DroppedFace, Face};

/// Warnings listing unreached faces name at most this many ids (the
/// self-check's records name every one).
const LISTED: usize = 20;

impl Builder<'_, '_> {
    /// The Model face of face entity `idx`, or `None` when it cannot be read
    /// (then it is recorded as dropped, from a closed shell when `closed`).
    pub fn face_or_drop(&mut self, idx: usize, closed: bool) -> Option<usize> {
        match self.face(idx) {
            Ok(f) => Some(f),
            Err(e) => {
                let id = self.ex.instances.get(idx).map_or(0, |i| i.id);
                let kind = crate::import::escape::escape_bytes(self.type_name(idx));
                let why = format!(
                    "face #{id} ({kind}) dropped{}: {e}",
                    if closed { " from a closed shell" } else { "" }
                );
                self.drop_face(idx, closed, why, Some(e));
                None
            }
        }
    }

    /// Records face-like entity `idx` as dropped with warning `why` (once per
    /// body being built: records get their body in [`Self::assign_dropped`]).
    pub fn drop_face(&mut self, idx: usize, closed: bool, why: String, err: Option<StepError>) {
        let source = self.ex.instances.get(idx).map_or(0, |i| i.id);
        if self.first_face_error.is_none() {
            self.first_face_error = err;
        }
        if let Some(d) = self
            .model
            .dropped
            .iter_mut()
            .find(|d| d.source == source && d.body.is_none())
        {
            d.closed_shell |= closed;
            return;
        }
        self.model.warnings.push(why.clone());
        self.model.dropped.push(DroppedFace {
            source,
            body: None,
            closed_shell: closed,
            reason: why,
        });
    }

    /// Gives the dropped records from index `from` on (those recorded while
    /// building one body) that body, Model body index `body`.
    pub fn assign_dropped(&mut self, from: usize, body: usize) {
        for d in self.model.dropped.iter_mut().skip(from) {
            if d.body.is_none() {
                d.body = Some(body);
            }
        }
    }

    /// ORIENTED_FACE(name, *, face_element, orientation): the face element,
    /// with its sense reversed when `orientation` is `.F.` (in place on its
    /// first use, else as a copy of the Model face named by the
    /// ORIENTED_FACE).
    pub fn oriented_face(&mut self, idx: usize) -> Result<usize, StepError> {
        let a = self.simple(idx);
        let inner = a.reference(2)?;
        let orientation = a.boolean(3, true)?;
        if upper(self.type_name(inner)).as_ref() == b"ORIENTED_FACE" {
            return Err(a.err("an ORIENTED_FACE of an ORIENTED_FACE"));
        }
        let fresh = Self::mapped(&self.face_map, inner).is_none();
        self.enter(idx, "oriented face")?;
        let r = self.face(inner);
        self.leave(idx);
        let f = r?;
        let out = if orientation {
            f
        } else if fresh {
            // only this use so far: reverse in place, and map the element to
            // the reversed face (a later direct use shares it reversed, as the
            // file's shells then use the same face twice anyway)
            if let Some(face) = self.model.faces.get_mut(f) {
                face.same_sense = !face.same_sense;
            }
            f
        } else {
            let mut copy: Face = self.model.faces[f].clone();
            copy.same_sense = !copy.same_sense;
            copy.source = self.ex.instances.get(idx).map_or(copy.source, |i| i.id);
            let g = self.model.faces.len();
            for lp in copy.outer.iter().chain(copy.inner.iter()) {
                for c in &lp.coedges {
                    if let Some(e) = c.edge.and_then(|e| self.model.edges.get_mut(e)) {
                        if !e.faces.contains(&g) {
                            e.faces.push(g);
                        }
                    }
                }
            }
            self.model.faces.push(copy);
            g
        };
        Self::set_mapped(&mut self.face_map, idx, out);
        Ok(out)
    }

    /// Records every face entity of the file that no placed representation
    /// reached (no Model face, not dropped yet), with one warning listing
    /// their ids.
    pub fn account_unreached_faces(&mut self) {
        let ex = self.ex;
        let mut ids = Vec::new();
        for k in 0..ex.instances.len() {
            let is_face =
                self.has(k, b"ADVANCED_FACE") || self.has(k, b"FACE_SURFACE") || self.has(k, b"ORIENTED_FACE");
            if !is_face || Self::mapped(&self.face_map, k).is_some() {
                continue;
            }
            let source = ex.instances[k].id;
            if self.model.dropped.iter().any(|d| d.source == source) {
                continue;
            }
            ids.push(source);
        }
        if ids.is_empty() {
            return;
        }
        const WHY: &str = "not in any solid, shell or surface model placed by the product structure or a representation";
        let shown: Vec<String> = ids.iter().take(LISTED).map(|i| format!("#{i}")).collect();
        self.model.warnings.push(format!(
            "{} face{} dropped ({WHY}): {}{}",
            ids.len(),
            if ids.len() == 1 { "" } else { "s" },
            shown.join(", "),
            if ids.len() > LISTED {
                format!(" and {} more", ids.len() - LISTED)
            } else {
                String::new()
            }
        ));
        for source in ids {
            self.model.dropped.push(DroppedFace {
                source,
                body: None,
                closed_shell: false,
                reason: WHY.into(),
            });
        }
    }
}

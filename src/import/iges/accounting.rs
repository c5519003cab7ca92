//! Face accounting of the IGES reader (issue 25, self-check "accounting"):
//! every face entity of the file (144 trimmed surface, 143 bounded surface,
//! 510 face of a 514 shell, and a root untrimmed surface that the reader
//! reads as a face on its natural domain) either becomes a Model face or is
//! recorded in [`Model::dropped`] with a warning naming its DE number and
//! why. A face that cannot be read drops that face, not the file; only when
//! no face at all could be read is the first such error the import's error.

use super::directory::DirEntry;
use super::error::IgesError;
use super::reader::Reader;
use crate::import::model::{DroppedFace, Model};
use std::collections::HashSet;

/// Warnings name at most this many DEs per reason (the self-check's records
/// name every one).
const LISTED: usize = 20;

/// Why a face entity that no root reaches is dropped.
pub const UNREACHED: &str = "face entity reached from no root entity (no solid, shell, subfigure instance or independent face uses it)";

impl Reader<'_> {
    /// Records face entity `de` as dropped (from a closed shell when
    /// `closed`) because of `why`; `err` is kept when it is the first.
    pub fn drop_face(&mut self, m: &mut Model, de: usize, closed: bool, why: String, err: Option<IgesError>) {
        if self.first_face_error.is_none() {
            self.first_face_error = err;
        }
        if let Some(d) = m.dropped.iter_mut().find(|d| d.source == de as u64 && d.body.is_none()) {
            d.closed_shell |= closed;
            return;
        }
        self.dropped_notes.entry(why.clone()).or_default().push(de);
        m.dropped.push(DroppedFace {
            source: de as u64,
            body: None,
            closed_shell: closed,
            reason: why,
        });
    }

    /// `f` for face entity `e`, or `None` (the face recorded as dropped,
    /// with the error as its reason) when it fails.
    pub fn face_or_drop<T>(
        &mut self,
        e: &DirEntry,
        closed: bool,
        m: &mut Model,
        f: impl FnOnce(&mut Self, &mut Model) -> Result<T, IgesError>,
    ) -> Option<T> {
        match f(self, m) {
            Ok(x) => Some(x),
            Err(err) => {
                let why = format!(
                    "entity {}{} could not be read: {err}",
                    e.entity,
                    if closed { " of a closed shell" } else { "" }
                );
                self.drop_face(m, e.de, closed, why, Some(err));
                None
            }
        }
    }

    /// Gives the dropped records from index `from` on that have no body yet
    /// the Model body `body`.
    pub fn assign_dropped(m: &mut Model, from: usize, body: usize) {
        for d in m.dropped.iter_mut().skip(from) {
            if d.body.is_none() {
                d.body = Some(body);
            }
        }
    }

    /// Records every 144 / 143 / 510 entity that did not become a Model face
    /// and was not dropped yet (no root reaches it).
    pub fn account_unreached_faces(&mut self, m: &mut Model) {
        let done: HashSet<u64> = m
            .faces
            .iter()
            .map(|f| f.source)
            .chain(m.dropped.iter().map(|d| d.source))
            .collect();
        let missing: Vec<usize> = self
            .dir
            .iter()
            .filter(|e| matches!(e.entity, 143 | 144 | 510) && !done.contains(&(e.de as u64)))
            .map(|e| e.de)
            .collect();
        for de in missing {
            self.drop_face(m, de, false, UNREACHED.into(), None);
        }
    }

    /// One warning per reason, naming the DEs of the faces dropped for it.
    pub fn dropped_warnings(&self) -> Vec<String> {
        self.dropped_notes
            .iter()
            .map(|(why, des)| {
                let shown: Vec<String> = des.iter().take(LISTED).map(|d| format!("DE {d}")).collect();
                let more = if des.len() > LISTED {
                    format!(" and {} more", des.len() - LISTED)
                } else {
                    String::new()
                };
                format!(
                    "{} face{} dropped ({why}): {}{more}",
                    des.len(),
                    if des.len() == 1 { "" } else { "s" },
                    shown.join(", ")
                )
            })
            .collect()
    }
}

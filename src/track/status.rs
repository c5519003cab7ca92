//! The verification status of an answer ([`AnswerStatus`]): whether the
//! piece a closest point lies on belongs to a face whose self-check
//! (`notes/SELFCHECK.md`, the scene's optional `face_checks` /
//! `body_checks` sections of format 2.2) passed, and whether the solve
//! that produced the answer converged.
//!
//! The table is built once per body when the [`TrackScene`](super::TrackScene)
//! is built ([`BodyStatus`]); an update looks its answer's piece up in it
//! (one indexed load, no allocation) and adds the answer's own
//! [`UNCONVERGED`](AnswerStatus::UNCONVERGED) bit.

use crate::scene::data::{FaceCheck, SceneData, NONE};
use crate::scene::records::BODY_SHELL_INCOMPLETE;
use std::collections::HashMap;

/// Bitset describing how far an answer can be trusted.
///
/// - [`CHECKED`](Self::CHECKED): the scene carries a self-check. Without it
///   (scenes written before format 2.2, or prepared without a check) the
///   self-check's status is *unknown*: the bit is 0 and so are
///   `UNVERIFIED_FACE` and `SHELL_INCOMPLETE`.
/// - [`UNVERIFIED_FACE`](Self::UNVERIFIED_FACE): the answer's piece belongs
///   to a face whose check failed or was not run (or that has no check
///   record); at an edge, either adjacent face.
/// - [`SHELL_INCOMPLETE`](Self::SHELL_INCOMPLETE): the body (a closed shell)
///   lost a face: its signed distance (inside / outside) is unreliable.
/// - [`UNCONVERGED`](Self::UNCONVERGED): the solve that produced the answer
///   (the cold query's cell solve, the tracker's update, a body pair's
///   solve) stopped at its iteration cap, or stalled, before meeting its
///   tolerance. Set with or without a self-check.
///
/// An answer is *verified* ([`is_verified`](Self::is_verified)) when it is
/// checked and none of the other bits is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AnswerStatus(pub u32);

impl AnswerStatus {
    /// The scene carries a self-check (else the status is unknown).
    pub const CHECKED: u32 = 1;
    /// The answer's face failed its check or was not checked.
    pub const UNVERIFIED_FACE: u32 = 2;
    /// The body lost a face: signed distance unreliable.
    pub const SHELL_INCOMPLETE: u32 = 4;
    /// The solve that produced this answer hit its iteration cap (or
    /// stalled) before meeting its tolerance: the witness is an iterate, not
    /// a minimum, and the distance may be too large by up to the distance
    /// from the witness to the nearest point of the far-phase cell holding
    /// it (the sub-patch or edge span: at most that cell's size; the true
    /// distance is at least the cell's box bound). Also set when the far
    /// phase left a cell open that may hold a nearer point: its solve
    /// stopped the same way, and its lower bound is below the answer
    /// (`Candidate::open`). The point is still a point of the body.
    pub const UNCONVERGED: u32 = 8;
    /// The bits with their names, in bit order.
    pub const NAMES: [(u32, &'static str); 4] = [
        (Self::CHECKED, "checked"),
        (Self::UNVERIFIED_FACE, "unverified_face"),
        (Self::SHELL_INCOMPLETE, "shell_incomplete"),
        (Self::UNCONVERGED, "unconverged"),
    ];
    /// No check: status unknown.
    pub const UNKNOWN: AnswerStatus = AnswerStatus(0);
    /// Checked and verified.
    pub const VERIFIED: AnswerStatus = AnswerStatus(Self::CHECKED);

    /// The raw bits.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }
    /// True when every bit of `bit` is set.
    #[inline]
    pub fn has(self, bit: u32) -> bool {
        self.0 & bit == bit
    }
    /// True when the scene was checked.
    #[inline]
    pub fn is_checked(self) -> bool {
        self.has(Self::CHECKED)
    }
    /// Checked, neither the face nor the body failed, and the solve converged.
    #[inline]
    pub fn is_verified(self) -> bool {
        self.0 == Self::CHECKED
    }
    /// `self` with [`UNCONVERGED`](Self::UNCONVERGED) set unless `converged`
    /// (branch-free: one shift and one or).
    #[inline]
    pub fn converged(self, converged: bool) -> AnswerStatus {
        AnswerStatus(self.0 | (u32::from(!converged) * Self::UNCONVERGED))
    }
    /// The status of an answer made of two witnesses (a body pair): the
    /// union of their bits, [`CHECKED`](Self::CHECKED) only when both are
    /// checked (a failure known on one side is kept either way).
    #[inline]
    pub fn both(a: AnswerStatus, b: AnswerStatus) -> AnswerStatus {
        let checked = a.0 & b.0 & Self::CHECKED;
        AnswerStatus(((a.0 | b.0) & !Self::CHECKED) | checked)
    }
    /// The names of the set bits (`checked`, `unverified_face`,
    /// `shell_incomplete`, `unconverged`).
    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES
            .iter()
            .filter(|(b, _)| self.0 & b != 0)
            .map(|(_, n)| *n)
            .collect()
    }
}

impl core::ops::BitOr for AnswerStatus {
    type Output = AnswerStatus;
    #[inline]
    fn bitor(self, rhs: AnswerStatus) -> AnswerStatus {
        AnswerStatus(self.0 | rhs.0)
    }
}

impl core::ops::BitOrAssign for AnswerStatus {
    #[inline]
    fn bitor_assign(&mut self, rhs: AnswerStatus) {
        self.0 |= rhs.0;
    }
}

/// The status table of one body: per piece (body-local index) the status of
/// an answer on it, and the body's own bits.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BodyStatus {
    /// Absolute index of the body's first piece.
    pub first_piece: u32,
    /// Per body-local piece: [`AnswerStatus::CHECKED`], plus
    /// [`AnswerStatus::UNVERIFIED_FACE`] when its face is not verified, plus
    /// the body's bits. Empty when the scene has no self-check.
    pub pieces: Vec<AnswerStatus>,
    /// [`AnswerStatus::CHECKED`] and [`AnswerStatus::SHELL_INCOMPLETE`] of
    /// the body ([`AnswerStatus::UNKNOWN`] without a self-check); also the
    /// status of an answer with no adjacent piece, with `UNVERIFIED_FACE`.
    pub body: AnswerStatus,
}

impl BodyStatus {
    /// The tables of every body of `scene` (all unknown when it has no self-check).
    pub fn of_scene(scene: &SceneData) -> Vec<BodyStatus> {
        let checked = !scene.face_checks.is_empty() || !scene.body_checks.is_empty();
        // (body, face) → failure bits; a face checked twice counts as failed if either failed
        let mut faces: HashMap<(u32, u64), u32> = HashMap::new();
        for c in &scene.face_checks {
            let FaceCheck {
                body,
                source_face,
                failed,
                ..
            } = *c;
            if body != NONE {
                *faces.entry((body, source_face)).or_insert(0) |= failed;
            }
        }
        scene
            .bodies
            .iter()
            .enumerate()
            .map(|(b, body)| {
                if !checked {
                    return BodyStatus {
                        first_piece: body.pieces.first,
                        pieces: Vec::new(),
                        body: AnswerStatus::UNKNOWN,
                    };
                }
                let b = b as u32;
                let shell = scene
                    .body_checks
                    .iter()
                    .any(|c| c.body == b && c.failed & BODY_SHELL_INCOMPLETE != 0);
                let mut own = AnswerStatus::VERIFIED;
                if shell {
                    own.0 |= AnswerStatus::SHELL_INCOMPLETE;
                }
                let range = body.pieces.first as usize..(body.pieces.first as usize + body.pieces.count as usize);
                let pieces = scene.pieces.get(range).unwrap_or(&[]);
                BodyStatus {
                    first_piece: body.pieces.first,
                    pieces: pieces
                        .iter()
                        .map(|p| match faces.get(&(b, p.source_face)) {
                            Some(0) => own,
                            _ => own | AnswerStatus(AnswerStatus::UNVERIFIED_FACE),
                        })
                        .collect(),
                    body: own,
                }
            })
            .collect()
    }

    /// The status of an answer on absolute piece `piece` ([`NONE`]: no
    /// adjacent piece, unverified when checked).
    #[inline]
    pub fn piece(&self, piece: u32) -> AnswerStatus {
        self.local(piece.wrapping_sub(self.first_piece))
    }

    /// The status of an answer on body-local piece `k` (out of range: as
    /// [`piece`](Self::piece) with [`NONE`]).
    #[inline]
    pub fn local(&self, k: u32) -> AnswerStatus {
        if self.body == AnswerStatus::UNKNOWN {
            return AnswerStatus::UNKNOWN;
        }
        match self.pieces.get(k as usize) {
            Some(s) => *s,
            None => self.body | AnswerStatus(AnswerStatus::UNVERIFIED_FACE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_names() {
        assert!(!AnswerStatus::UNKNOWN.is_checked());
        assert!(!AnswerStatus::UNKNOWN.is_verified());
        assert!(AnswerStatus::VERIFIED.is_verified());
        let s = AnswerStatus::VERIFIED | AnswerStatus(AnswerStatus::UNVERIFIED_FACE);
        assert!(s.is_checked() && !s.is_verified());
        assert_eq!(s.names(), ["checked", "unverified_face"]);
        assert!(AnswerStatus::UNKNOWN.names().is_empty());
        let v = AnswerStatus::VERIFIED;
        assert_eq!(AnswerStatus::both(v, v), v);
        assert_eq!(AnswerStatus::both(v, AnswerStatus::UNKNOWN), AnswerStatus::UNKNOWN);
        assert_eq!(
            AnswerStatus::both(s, AnswerStatus::UNKNOWN).0,
            AnswerStatus::UNVERIFIED_FACE
        );
        assert_eq!(AnswerStatus::both(s, v), s);
    }

    #[test]
    fn the_unconverged_bit_is_independent_of_the_self_check() {
        let u = AnswerStatus::UNKNOWN.converged(false);
        assert_eq!(u.bits(), AnswerStatus::UNCONVERGED);
        assert_eq!(u.names(), ["unconverged"]);
        assert!(!u.is_checked() && !u.is_verified());
        assert_eq!(AnswerStatus::UNKNOWN.converged(true), AnswerStatus::UNKNOWN);
        let v = AnswerStatus::VERIFIED.converged(false);
        assert!(v.is_checked() && !v.is_verified());
        assert_eq!(v.names(), ["checked", "unconverged"]);
        assert_eq!(AnswerStatus::VERIFIED.converged(true), AnswerStatus::VERIFIED);
        // a body pair: either side unconverged makes the pair's answer unconverged
        assert_eq!(AnswerStatus::both(v, AnswerStatus::VERIFIED), v);
        assert_eq!(AnswerStatus::both(u, AnswerStatus::VERIFIED), u);
    }

    #[test]
    fn unknown_table_answers_unknown() {
        let t = BodyStatus::default();
        assert_eq!(t.piece(0), AnswerStatus::UNKNOWN);
        assert_eq!(t.piece(NONE), AnswerStatus::UNKNOWN);
    }
}

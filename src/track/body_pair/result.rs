//! The answer of one body–body update in world coordinates
//! ([`BodyPairResult`]): the witnesses, the contact normal, the features.

use super::candidate::{candidates, PairCandidate};
use super::BodyPairTracker;
use crate::geom::{Pose, Vec3};
use crate::scene::data::FeatureRef;
use crate::track::body::BodyGeom;
use crate::track::config::Mode;
use crate::track::orient::{feature_of, orient};
use crate::track::point_body::status_of;
use crate::track::status::AnswerStatus;
use nalgebra::Matrix3;

/// The answer of one body–body update (world coordinates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyPairResult {
    /// `|point_b − point_a|`, mm: the separation, or the penetration depth
    /// when [`penetrating`](Self::penetrating).
    pub distance: f64,
    /// `distance` when apart, `−distance` when penetrating.
    pub signed_distance: f64,
    /// The bodies interpenetrate (both must be solids).
    pub penetrating: bool,
    /// Witness on body A, world.
    pub point_a: Vec3,
    /// Witness on body B, world.
    pub point_b: Vec3,
    /// Unit contact normal, world: the direction in which B must move to
    /// increase the separation (A's outward normal at a face contact):
    /// `(point_b − point_a)/distance` when apart, the opposite when penetrating.
    pub normal: Vec3,
    /// Active feature on A (absolute scene indices; an edge witness at an end is its vertex).
    pub feature_a: FeatureRef,
    /// Active feature on B.
    pub feature_b: FeatureRef,
    /// Source face entity id of A's piece (edges: an adjacent piece's; 0 if none).
    pub face_a: u64,
    /// Source face entity id of B's piece.
    pub face_b: u64,
    /// Absolute piece index on A ([`NONE`](crate::scene::data::NONE) when no piece is adjacent).
    pub piece_a: u32,
    /// Absolute piece index on B.
    pub piece_b: u32,
    /// Witness parameters on A: piece `(u, v)` in `[0,1]²`, edge `(t, 0)`, vertex `(0, 0)`.
    pub params_a: [f64; 2],
    /// Witness parameters on B.
    pub params_b: [f64; 2],
    /// Controller mode on A's feature.
    pub mode_a: Mode,
    /// Controller mode on B's feature.
    pub mode_b: Mode,
    /// Controller iterations in this update (tracking, switches, far phase).
    pub iterations: u32,
    /// Feature-pair switches in this update.
    pub switches: u32,
    /// Far-phase cell pairs solved in this update.
    pub cells_solved: u32,
    /// How far the answer can be trusted: both witnesses' statuses
    /// ([`AnswerStatus::both`]: the self-check of their faces and bodies;
    /// not [`CHECKED`](AnswerStatus::CHECKED) unless both scenes carry one).
    pub status: AnswerStatus,
}

impl BodyPairTracker {
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn result(
        &self,
        a: &BodyGeom,
        b: &BodyGeom,
        pose_a: &Pose,
        c: &PairCandidate,
        penetrating: bool,
        iterations: u32,
        switches: u32,
        cells_solved: u32,
    ) -> BodyPairResult {
        let rt = self.last.map_or(Matrix3::identity(), |(r, _)| r.transpose());
        let tb = self.last.map_or(Vec3::zeros(), |(_, t)| t);
        let (ca, cb) = candidates(c, &rt, &tb);
        let (feature_a, face_a, piece_a, params_a) = feature_of(a, &ca);
        let (feature_b, face_b, piece_b, params_b) = feature_of(b, &cb);
        let dr = c.pb - c.pa;
        let normal = if c.d > 1e-12 * self.scale {
            if penetrating {
                -dr / c.d
            } else {
                dr / c.d
            }
        } else {
            // touching: A's outward normal at its witness (pseudo-normal on
            // a border)
            let oa = orient(a, &ca, &c.pb);
            if oa.normal.norm() > 0.0 {
                oa.normal / oa.normal.norm()
            } else {
                Vec3::z()
            }
        };
        BodyPairResult {
            distance: c.d,
            signed_distance: if penetrating { -c.d } else { c.d },
            penetrating,
            point_a: pose_a.transform_point(&c.pa),
            point_b: pose_a.transform_point(&c.pb),
            normal: pose_a.transform_vector(&normal),
            feature_a,
            feature_b,
            face_a,
            face_b,
            piece_a,
            piece_b,
            params_a,
            params_b,
            mode_a: c.mode_a,
            mode_b: c.mode_b,
            iterations,
            switches,
            cells_solved,
            status: AnswerStatus::both(status_of(a, &ca), status_of(b, &cb)),
        }
    }
}

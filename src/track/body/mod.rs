//! Runtime geometry of prepared scene bodies ([`TrackScene`]).
//!
//! Built once from a loaded scene (`.exs`): every piece becomes an evaluable
//! rational Bézier patch on `[0,1]²` with its trim polygons and a fixed grid
//! of *cells* (sub-patches with control-hull boxes, the far phase's leaves);
//! every edge an exact NURBS curve whose cells are its Bézier spans; every
//! vertex its point and normal-cone axis. The scene's per-body BVH is copied
//! with the edges attached to the leaf of an adjacent piece (boxes grown to
//! contain them), so one traversal bounds pieces and edges alike.
//!
//! A cell's box holds the control points of its sub-patch (or span), which
//! contain the rational patch (positive weights): `dist(Q, box)` is a lower
//! bound on the distance to anything in the cell.
//!
//! One concept per file:
//! - [`geom`]: the runtime forms of pieces, edges, vertices, cells, BVH nodes
//!   and bodies;
//! - [`normals`]: outward normals and pseudo-normals (the Voronoi data);
//! - [`trim_loops`]: exact trim loops and the containment test
//!   ([`edges_contain`], [`BodyGeom::piece_keeps`]);
//! - [`pieces`]: pieces and their grid of cells, classified against the trims;
//! - [`sixteenths`]: the trim classes of a trimmed cell's 4 × 4 parts
//!   ([`BodyGeom::cell_keeps`]);
//! - [`trim_curves`]: trim curves tracked as items of their own;
//! - [`edges`]: edges (cells of Bézier spans, pseudo-normal samples) and vertices;
//! - [`bvh`]: the runtime BVH over pieces, edges and trim curves;
//! - [`wide`]: the BVH with every second level collapsed (the point–body far phase's walk);
//! - [`clip`]: Liang–Barsky clipping in the parameter plane;
//! - [`boxes`]: the box distance bound;
//! - [`oriented`]: the cells' oriented boxes (the tight distance bound);
//! - [`tangent_cones`]: the cells' tangent cones (cells that hold no minimum);
//! - [`placement`]: rigid poses from scene placements;
//! - [`build`]: a body assembled from the scene.

mod boxes;
mod build;
mod bvh;
mod clip;
mod cusps;
mod edges;
mod geom;
mod normals;
mod oriented;
mod pieces;
mod placement;
mod sixteenths;
mod tangent_cones;
mod trim_curves;
mod trim_loops;
mod wide;

pub use boxes::box_dist2;
pub(crate) use boxes::{max_of, min_of};
pub use oriented::OrientedBox;
pub use tangent_cones::{CellCones, Cone};
pub use cusps::Cusp;
pub use geom::{BodyGeom, Cell, CellTrim, EdgeGeom, Item, Node, NodeKind, PieceGeom, TrimGeom, TrimPath, VertexGeom};
pub(crate) use pieces::sub_patch;
pub use placement::pose_from_placement;
pub use sixteenths::{Sixteenths, SubTrim, SIXTEENTHS_SIDE};
pub use trim_curves::{trim_domain, trim_point, trim_samples, TrimSamples, TRIM_SAMPLES};
pub use wide::{WideBvh, WideKind, WideNode, NO_NODE as NO_WIDE_NODE};
pub use trim_loops::{edges_contain, trim_edges, TrimBands, TrimEdge, TRIM_EDGE_POINTS};

use crate::scene::data::SceneData;
use crate::scene::{SceneError, SceneView};
use build::build_body;
use thiserror::Error;

use super::config::TrackError;

/// Errors of the body-level runtime (scene content, ids, bad input).
#[derive(Debug, Error)]
pub enum BodyError {
    /// The body index is not in the scene.
    #[error("unknown body {body} (the scene has {count} bodies)")]
    UnknownBody {
        /// Requested body.
        body: u32,
        /// Bodies in the scene.
        count: usize,
    },
    /// The body has no surface pieces to track.
    #[error("body {0} has no surface pieces")]
    EmptyBody(u32),
    /// A piece or edge of the scene cannot be evaluated.
    #[error("scene {what} {index}: {reason}")]
    BadGeometry {
        /// `piece` or `edge`.
        what: &'static str,
        /// Absolute index in the scene.
        index: u32,
        /// Why.
        reason: String,
    },
    /// The scene file failed to load or validate.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// Bad input to a tracker (non-finite numbers, non-rigid pose, config).
    #[error(transparent)]
    Track(#[from] TrackError),
}

/// The runtime geometry of a whole scene: immutable, shareable between
/// threads; trackers borrow it per update.
#[derive(Debug, Clone)]
pub struct TrackScene {
    /// Bodies in scene order.
    pub bodies: Vec<BodyGeom>,
}

impl TrackScene {
    /// Builds the runtime geometry from a validated scene view.
    pub fn new(view: &SceneView) -> Result<Self, BodyError> {
        Self::from_data(&view.to_data())
    }

    /// Builds the runtime geometry from an owned scene, with each body's
    /// answer-status table ([`BodyGeom::status`]) from the scene's self-check.
    pub fn from_data(scene: &SceneData) -> Result<Self, BodyError> {
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for (b, status) in scene
            .bodies
            .iter()
            .zip(crate::track::status::BodyStatus::of_scene(scene))
        {
            let mut body = build_body(scene, b)?;
            body.status = status;
            bodies.push(body);
        }
        Ok(Self { bodies })
    }

    /// The body `b`, or an error naming the valid range.
    pub fn body(&self, b: u32) -> Result<&BodyGeom, BodyError> {
        self.bodies.get(b as usize).ok_or(BodyError::UnknownBody {
            body: b,
            count: self.bodies.len(),
        })
    }
}

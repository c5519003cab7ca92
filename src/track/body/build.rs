//! A body's runtime geometry assembled from the scene: pieces, trim
//! curves, edges and vertices with their cells, then the BVH; scene indices
//! made local to the body.

use super::bvh::build_nodes;
use super::cusps::resolve_cusps;
use super::edges::{build_edges, build_vertices};
use super::geom::BodyGeom;
use super::pieces::build_pieces;
use super::tangent_cones::CellCones;
use super::placement::pose_from_placement;
use super::trim_curves::{build_trims, trim_samples};
use super::wide::WideBvh;
use super::BodyError;
use crate::geom::Vec3;
use crate::scene::data::{Body, FeatureRef, SceneData, Span, NONE};

pub(super) fn v3(a: [f64; 3]) -> Vec3 {
    Vec3::new(a[0], a[1], a[2])
}

/// The scene indices of a span.
pub(super) fn span_range(s: &Span) -> std::ops::Range<usize> {
    s.first as usize..(s.first + s.count) as usize
}

/// Scene index `i` made local to span `s` ([`NONE`] when it is none or outside).
pub(super) fn local_index(i: u32, s: &Span) -> u32 {
    if i == NONE {
        NONE
    } else {
        i.checked_sub(s.first).filter(|&k| k < s.count).unwrap_or(NONE)
    }
}

pub(super) fn local_feature(f: FeatureRef, b: &Body) -> Option<FeatureRef> {
    let sub = |i: u32, s: &Span| i.checked_sub(s.first).filter(|&k| k < s.count);
    match f {
        FeatureRef::Piece(i) => sub(i, &b.pieces).map(FeatureRef::Piece),
        FeatureRef::Edge(i) => sub(i, &b.edges).map(FeatureRef::Edge),
        FeatureRef::Vertex(i) => sub(i, &b.vertices).map(FeatureRef::Vertex),
    }
}

/// The runtime geometry of body `b` of `scene`.
pub(super) fn build_body(scene: &SceneData, b: &Body) -> Result<BodyGeom, BodyError> {
    let mut cells = Vec::new();
    let mut cell_boxes = Vec::new();
    let mut cell_quarters = Vec::new();
    let mut cell_cones = Vec::new();
    let pieces = build_pieces(scene, b, &mut cells, &mut cell_boxes, &mut cell_quarters, &mut cell_cones)?;
    let trims = build_trims(scene, b, &mut cells, &mut cell_boxes);
    // cells other than piece cells (after them): no quarters (their bound is
    // the whole box's); no tangent cones for trim curves (one cell each),
    // an edge's spans have theirs (`CellCones::of_span`)
    cell_cones.resize(cell_boxes.len(), CellCones::NONE);
    let edges = build_edges(scene, b, &mut cells, &mut cell_boxes, &mut cell_cones)?;
    cell_cones.resize(cell_boxes.len(), CellCones::NONE);
    let vertices = build_vertices(scene, b);
    let (nodes, leaf_items, root) = build_nodes(scene, b, &pieces, &edges, &trims, &cells);
    let wide = WideBvh::build(&nodes, root);
    let mut geom = BodyGeom {
        name: b.name.clone(),
        kind: b.kind,
        placement: pose_from_placement(&b.placement),
        lo: v3(b.bbox.min),
        hi: v3(b.bbox.max),
        pieces,
        edges,
        vertices,
        trims,
        cells,
        cell_boxes,
        cell_quarters,
        cell_cones,
        nodes,
        leaf_items,
        root,
        wide,
        status: Default::default(),
    };
    // each trim curve's start samples, on the surface (needs the pieces)
    for k in 0..geom.trims.len() {
        geom.trims[k].samples = trim_samples(&geom, k as u32);
    }
    if geom.kind == crate::scene::data::BodyKind::Solid {
        resolve_cusps(&mut geom);
    }
    Ok(geom)
}

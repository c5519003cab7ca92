//! Per-item data of a body for the pair far phase: the box of each item
//! (piece, edge, trim curve: the union of its cells), its classes
//! ([`super::classes`]), its control-point hull ([`super::hulls`]), and the
//! affine pieces beside each straight edge.

use super::classes::{affine_item, flat_of, straight_dir, unimodal_item, Flat};
use super::hulls::control_hulls;
use crate::geom::Vec3;
use crate::scene::data::{FeatureRef, NONE};
use crate::track::body::{BodyGeom, Item};

/// Boxes of every item of a body (union of its cells), indexed pieces,
/// then edges, then trim curves.
#[derive(Debug, Clone)]
pub(super) struct ItemBoxes {
    pub(super) lo: Vec<Vec3>,
    pub(super) hi: Vec<Vec3>,
    /// Per item: whether a converged local minimum against another such item,
    /// seen from outside, is the pair's minimum ([`unimodal_item`]).
    pub(super) unimodal: Vec<bool>,
    /// Per item: whether it is an affine image of its parameter box (a
    /// planar parallelogram patch, a straight edge): between two such items
    /// the squared distance is convex, so any converged minimum is the
    /// pair's, facing or not ([`affine_item`]).
    pub(super) affine: Vec<bool>,
    /// Per item: a trim curve linked to a B-rep edge of the body. The edge is
    /// the exact curve (a projected trim is only within 1e-8 of the trim's
    /// size of it), so the far phase takes the edge and skips the trim.
    pub(super) redundant: Vec<bool>,
    /// Per item: the range of `hull` holding its control points (a trim
    /// curve uses its piece's, which contain it); empty when a weight is
    /// not positive (no convex-hull property, no hull bound).
    hull_range: Vec<(u32, u32)>,
    /// Control points of the pieces and edges (body-local, Euclidean): each
    /// item lies in their convex hull.
    hull: Vec<Vec3>,
    /// Per piece: its parallelogram when the piece is affine ([`affine_item`]).
    pub(super) flat: Vec<Option<Flat>>,
    /// Per edge: when the edge is straight, its unit direction and up to
    /// [`EDGE_FACES`] affine pieces that may have a side along it (the
    /// pieces the edge separates and those whose adjacency names it).
    pub(super) edge_faces: Vec<Option<(Vec3, [u32; EDGE_FACES])>>,
    edges0: u32,
    trims0: u32,
}

/// Affine pieces remembered per straight edge ([`ItemBoxes::edge_faces`]).
pub(super) const EDGE_FACES: usize = 4;

impl ItemBoxes {
    pub(super) fn new(body: &BodyGeom) -> Self {
        let n = body.pieces.len() + body.edges.len() + body.trims.len();
        let mut lo = vec![Vec3::repeat(f64::INFINITY); n];
        let mut hi = vec![Vec3::repeat(f64::NEG_INFINITY); n];
        let (edges0, trims0) = (body.pieces.len() as u32, (body.pieces.len() + body.edges.len()) as u32);
        let index = |it: Item| match it {
            Item::Piece(k) => k,
            Item::Edge(k) => edges0 + k,
            Item::Trim(k) => trims0 + k,
        };
        for c in &body.cells {
            let i = index(c.item) as usize;
            lo[i] = lo[i].inf(&c.lo);
            hi[i] = hi[i].sup(&c.hi);
        }
        let pieces = (0..body.pieces.len() as u32).map(Item::Piece);
        let edges = (0..body.edges.len() as u32).map(Item::Edge);
        let trims = (0..body.trims.len() as u32).map(Item::Trim);
        let all: Vec<Item> = pieces.chain(edges).chain(trims).collect();
        let unimodal = all.iter().map(|&it| unimodal_item(body, it)).collect();
        let affine: Vec<bool> = all.iter().map(|&it| affine_item(body, it)).collect();
        let (hull_range, hull) = control_hulls(body);
        // pieces come first in `all`: `affine[k]` is piece k's flag
        let flat: Vec<Option<Flat>> = (0..body.pieces.len() as u32)
            .map(|k| if affine[k as usize] { flat_of(body, k) } else { None })
            .collect();
        let edge_faces = (0..body.edges.len() as u32)
            .map(|e| {
                let dir = straight_dir(body, e)?;
                let mut faces = [NONE; EDGE_FACES];
                let mut n = 0;
                let named = body.pieces.iter().enumerate().filter_map(|(k, p)| {
                    p.adjacency
                        .iter()
                        .any(|&(_, f)| f == FeatureRef::Edge(e))
                        .then_some(k as u32)
                });
                for k in body.edges[e as usize].pieces.into_iter().chain(named) {
                    if flat.get(k as usize).is_some_and(Option::is_some) && n < EDGE_FACES && !faces[..n].contains(&k) {
                        faces[n] = k;
                        n += 1;
                    }
                }
                Some((dir, faces))
            })
            .collect();
        let mut boxes = Self {
            lo,
            hi,
            unimodal,
            affine,
            redundant: Vec::new(),
            hull_range,
            hull,
            flat,
            edge_faces,
            edges0,
            trims0,
        };
        boxes.redundant = all
            .iter()
            .map(|&it| matches!(it, Item::Trim(t) if (body.trims[t as usize].edge as usize) < body.edges.len()))
            .collect();
        boxes
    }

    /// The control points whose convex hull holds item `i`.
    #[inline]
    pub(super) fn hull_of(&self, i: u32) -> &[Vec3] {
        let (s, e) = self.hull_range[i as usize];
        &self.hull[s as usize..e as usize]
    }

    #[inline]
    pub(super) fn index(&self, it: Item) -> usize {
        (match it {
            Item::Piece(k) => k,
            Item::Edge(k) => self.edges0 + k,
            Item::Trim(k) => self.trims0 + k,
        }) as usize
    }

    #[inline]
    pub(super) fn item(&self, i: u32) -> Item {
        if i < self.edges0 {
            Item::Piece(i)
        } else if i < self.trims0 {
            Item::Edge(i - self.edges0)
        } else {
            Item::Trim(i - self.trims0)
        }
    }
}

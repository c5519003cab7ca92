//! Dominated item pairs: the items lying on one piece's patch (the piece,
//! its trim curves, the B-rep edges along it); any pair of them from two
//! pieces is at least the pieces' minimum apart, so while the tracker holds
//! that minimum the far phase need not solve them.

use super::items::ItemBoxes;
use crate::scene::data::FeatureRef;
use crate::track::body::{BodyGeom, Item};

/// The items (indices of [`ItemBoxes`]) that lie on one piece's patch: the
/// piece, its trim curves and the B-rep edges along it. Any pair of such
/// items of two pieces has a distance at least the pieces' minimum (each is
/// a subset of its patch), so while the tracker holds that minimum the far
/// phase need not solve them (they tie with it along parallel faces).
#[derive(Debug, Clone, Copy)]
pub(super) struct Dominated {
    n: usize,
    items: [u32; DOMINATED_MAX],
}

/// At most this many items are remembered per piece (the rest are solved as usual).
pub(super) const DOMINATED_MAX: usize = 16;

impl Dominated {
    #[inline]
    pub(super) fn has(&self, i: u32) -> bool {
        self.items[..self.n].contains(&i)
    }

    /// The items on piece `k`'s patch. An adjacent edge counts when its
    /// points at five parameters lie on the patch within 1e-9 of the body's
    /// size (an edge may run on past the piece, onto a neighbour).
    pub(super) fn of(body: &BodyGeom, boxes: &ItemBoxes, k: u32, scale: f64) -> Self {
        let mut d = Dominated {
            n: 0,
            items: [0; DOMINATED_MAX],
        };
        let add = |d: &mut Dominated, i: usize| {
            if d.n < DOMINATED_MAX && !d.has(i as u32) {
                d.items[d.n] = i as u32;
                d.n += 1;
            }
        };
        add(&mut d, boxes.index(Item::Piece(k)));
        for (t, tr) in body.trims.iter().enumerate() {
            if tr.piece == k {
                add(&mut d, boxes.index(Item::Trim(t as u32)));
            }
        }
        let piece = &body.pieces[k as usize];
        for &(_, f) in &piece.adjacency {
            let FeatureRef::Edge(e) = f else { continue };
            let Some(edge) = body.edges.get(e as usize) else {
                continue;
            };
            let (t0, t1) = edge.curve.domain();
            let on = [0.0, 0.25, 0.5, 0.75, 1.0].iter().all(|&f| {
                let q = edge.curve.eval(t0 + f * (t1 - t0));
                crate::track::patch_foot::closest_on_patch(&piece.surface, &q, 5, 2).distance <= 1e-9 * scale
            });
            if on {
                add(&mut d, boxes.index(Item::Edge(e)));
            }
        }
        d
    }
}

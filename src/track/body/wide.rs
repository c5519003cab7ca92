//! The 4-wide BVH of a body: its binary BVH ([`BodyGeom::nodes`]) with
//! every second level collapsed into its parent, built once with the body.
//!
//! A wide node is a binary interior node `N` whose two *halves* are its
//! children `L`, `R`; each half holds the half's two children (its two
//! *slots*), or the half itself when it is a leaf. The point–body far phase
//! (`track::far`) walks these nodes instead of the binary ones: one visit
//! looks at up to four grandchildren, so a path from the root to a leaf
//! takes half as many visits. It keeps the binary order — halves nearest
//! box first (the boxes of `L` and `R` are kept for that), then within a
//! half the nearer slot first — and solves the same cells: a subtree the
//! binary walk passed over at `L` (its key or box not below the answer) is
//! passed over here by the bound of each of `L`'s children, which is never
//! below `L`'s (a child's box lies in its parent's, and a key is a bound
//! decayed by the path only).
//!
//! The binary nodes stay as they are (the body-pair far phase walks them).

use super::geom::{Node, NodeKind};
use crate::geom::Vec3;

/// No node (the root of a body without nodes, the root's parent).
pub const NO_NODE: u32 = u32::MAX;

/// What a wide node holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WideKind {
    /// Slots of two halves (see [`WideNode`]).
    Interior,
    /// Items `[first, end)` of [`BodyGeom::leaf_items`](super::BodyGeom::leaf_items)
    /// (a binary leaf).
    Leaf(u32, u32),
}

/// A node of the 4-wide BVH.
#[derive(Debug, Clone)]
pub struct WideNode {
    /// Slots `2h`, `2h + 1` belong to half `h`: wide node indices; when half
    /// `h` is a leaf it is in slot `2h` and slot `2h + 1` is *empty*, the
    /// index one past the last node ([`WideBvh::empty`]: the far phase keeps
    /// the key `+∞` there, so an empty slot is never visited).
    pub slots: [u32; 4],
    /// The slots' boxes, lower corners.
    pub slot_lo: [Vec3; 4],
    /// The slots' boxes, upper corners.
    pub slot_hi: [Vec3; 4],
    /// The halves' boxes (the binary children's), lower corners: which half
    /// is visited first.
    pub half_lo: [Vec3; 2],
    /// The halves' boxes, upper corners.
    pub half_hi: [Vec3; 2],
    /// Interior or leaf.
    pub kind: WideKind,
}

/// The 4-wide BVH of a body ([`BodyGeom::wide`](super::BodyGeom::wide)).
#[derive(Debug, Clone, Default)]
pub struct WideBvh {
    /// Nodes, children after their parent.
    pub nodes: Vec<WideNode>,
    /// The root (the binary root's node), [`NO_NODE`] for a body without nodes.
    pub root: u32,
}

impl WideBvh {
    /// Collapses the binary BVH `nodes` under `root` (every node reachable
    /// once, as [`build_nodes`](super::bvh) makes them).
    pub fn build(nodes: &[Node], root: u32) -> Self {
        let mut wide = WideBvh {
            nodes: Vec::with_capacity(nodes.len()),
            root: NO_NODE,
        };
        if (root as usize) < nodes.len() {
            wide.root = wide.collapse(nodes, root);
        }
        let empty = wide.empty();
        for node in &mut wide.nodes {
            for s in &mut node.slots {
                if *s == NO_NODE {
                    *s = empty;
                }
            }
        }
        wide
    }

    /// The index of an empty slot: one past the last node.
    pub fn empty(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// The wide node of binary node `n`.
    fn collapse(&mut self, nodes: &[Node], n: u32) -> u32 {
        let none = Vec3::repeat(f64::NAN);
        let me = self.nodes.len() as u32;
        self.nodes.push(WideNode {
            slots: [NO_NODE; 4],
            slot_lo: [none; 4],
            slot_hi: [none; 4],
            half_lo: [none; 2],
            half_hi: [none; 2],
            kind: WideKind::Interior,
        });
        let NodeKind::Interior(l, r) = nodes[n as usize].kind else {
            if let NodeKind::Leaf(f, e) = nodes[n as usize].kind {
                self.nodes[me as usize].kind = WideKind::Leaf(f, e);
            }
            return me;
        };
        for (h, half) in [l, r].into_iter().enumerate() {
            let hn = &nodes[half as usize];
            self.nodes[me as usize].half_lo[h] = hn.lo;
            self.nodes[me as usize].half_hi[h] = hn.hi;
            let (kids, count) = match hn.kind {
                NodeKind::Interior(a, b) => ([a, b], 2),
                NodeKind::Leaf(..) => ([half, half], 1),
            };
            for (i, &k) in kids[..count].iter().enumerate() {
                let w = self.collapse(nodes, k);
                let node = &mut self.nodes[me as usize];
                node.slots[2 * h + i] = w;
                node.slot_lo[2 * h + i] = nodes[k as usize].lo;
                node.slot_hi[2 * h + i] = nodes[k as usize].hi;
            }
        }
        me
    }

    /// The parent of each wide node ([`NO_NODE`] for the root).
    pub fn parents(&self) -> Vec<u32> {
        let mut parent = vec![NO_NODE; self.nodes.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            for &s in &node.slots {
                if let Some(p) = parent.get_mut(s as usize) {
                    *p = n as u32;
                }
            }
        }
        parent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(lo: f64, hi: f64, kind: NodeKind) -> Node {
        Node {
            lo: Vec3::repeat(lo),
            hi: Vec3::repeat(hi),
            kind,
        }
    }

    #[test]
    fn a_wide_node_holds_its_grandchildren_and_a_leaf_half_in_its_first_slot() {
        // 0: (1: (3: leaf 0..1, 4: (5: leaf 1..2, 6: leaf 2..3)), 2: leaf 3..4)
        let nodes = vec![
            node(0.0, 8.0, NodeKind::Interior(1, 2)),
            node(0.0, 6.0, NodeKind::Interior(3, 4)),
            node(7.0, 8.0, NodeKind::Leaf(3, 4)),
            node(0.0, 1.0, NodeKind::Leaf(0, 1)),
            node(2.0, 6.0, NodeKind::Interior(5, 6)),
            node(2.0, 3.0, NodeKind::Leaf(1, 2)),
            node(4.0, 6.0, NodeKind::Leaf(2, 3)),
        ];
        let w = WideBvh::build(&nodes, 0);
        let root = &w.nodes[w.root as usize];
        assert_eq!(root.kind, WideKind::Interior);
        assert_eq!(root.half_lo, [Vec3::repeat(0.0), Vec3::repeat(7.0)]);
        assert_eq!(root.slots[3], w.empty());
        // half 0: leaf 0..1 and the interior node 4; half 1: the leaf 3..4 alone
        let kinds: Vec<_> = root.slots[..3].iter().map(|&s| w.nodes[s as usize].kind).collect();
        assert_eq!(kinds, [WideKind::Leaf(0, 1), WideKind::Interior, WideKind::Leaf(3, 4)]);
        assert_eq!(root.slot_lo[1], Vec3::repeat(2.0));
        assert_eq!(root.slot_hi[2], Vec3::repeat(8.0));
        // node 4 collapses with leaf halves 5 and 6
        let four = &w.nodes[root.slots[1] as usize];
        assert_eq!(four.slots[1], w.empty());
        assert_eq!(four.slots[3], w.empty());
        assert_eq!(w.nodes[four.slots[2] as usize].kind, WideKind::Leaf(2, 3));
        // every leaf once, every parent right
        assert_eq!(w.nodes.len(), 6);
        let parents = w.parents();
        assert_eq!(parents[w.root as usize], NO_NODE);
        assert_eq!(parents[root.slots[1] as usize], w.root);
        assert_eq!(parents[four.slots[2] as usize], root.slots[1]);
    }
}

//! The runtime BVH of a body: the scene's BVH copied, with every edge and
//! trim curve attached to the leaf of an adjacent piece, leaves split into
//! binary subtrees of at most two items, and the boxes refitted bottom-up
//! from the cells (NJC-1999 §3.1, PG-2004 §II).

use super::geom::{Cell, EdgeGeom, Item, Node, NodeKind, PieceGeom, TrimGeom};
use crate::geom::Vec3;
use crate::scene::data::{Body, BvhKind, SceneData, NONE};

/// Copies the scene BVH, attaches every edge to the leaf of one of its
/// pieces and recomputes the boxes bottom-up from the cells, so every box
/// contains its cells exactly. Pieces missing from every leaf (or a body
/// without a BVH) get a leaf of their own under a new root: nothing is
/// ever skipped. Returns the nodes, the leaf items and the root.
pub(super) fn build_nodes(
    scene: &SceneData,
    b: &Body,
    pieces: &[PieceGeom],
    edges: &[EdgeGeom],
    trims: &[TrimGeom],
    cells: &[Cell],
) -> (Vec<Node>, Vec<Item>, u32) {
    pub(super) struct Copy<'a> {
        scene: &'a SceneData,
        first: u32,
        count: u32,
        nodes: Vec<Node>,
        leaves: Vec<Vec<Item>>,
        piece_leaf: Vec<u32>,
    }
    impl Copy<'_> {
        fn push(&mut self, kind: NodeKind, items: Vec<Item>) -> u32 {
            self.nodes.push(Node {
                lo: Vec3::zeros(),
                hi: Vec3::zeros(),
                kind,
            });
            self.leaves.push(items);
            (self.nodes.len() - 1) as u32
        }
        fn leaf(&mut self, ps: &[u32]) -> u32 {
            let me = self.nodes.len() as u32;
            let mut items = Vec::new();
            for &p in ps {
                if let Some(k) = p.checked_sub(self.first).filter(|&k| k < self.count) {
                    if self.piece_leaf[k as usize] == NONE {
                        self.piece_leaf[k as usize] = me;
                        items.push(Item::Piece(k));
                    }
                }
            }
            self.push(NodeKind::Leaf(0, 0), items)
        }
        fn copy(&mut self, sn: u32, depth: u32) -> u32 {
            match self.scene.bvh_nodes.get(sn as usize).map(|n| &n.kind) {
                Some(BvhKind::Interior(l, r)) if depth < 200 => {
                    let (l, r) = (*l, *r);
                    let me = self.push(NodeKind::Interior(NONE, NONE), Vec::new());
                    let a = self.copy(l, depth + 1);
                    let c = self.copy(r, depth + 1);
                    self.nodes[me as usize].kind = NodeKind::Interior(a, c);
                    me
                }
                Some(BvhKind::Leaf(ps)) => {
                    let ps = ps.clone();
                    self.leaf(&ps)
                }
                // too deep or dangling: its pieces end up in the leaf of missing pieces
                _ => self.push(NodeKind::Leaf(0, 0), Vec::new()),
            }
        }
    }
    let mut cp = Copy {
        scene,
        first: b.pieces.first,
        count: b.pieces.count,
        nodes: Vec::new(),
        leaves: Vec::new(),
        piece_leaf: vec![NONE; pieces.len()],
    };
    let mut root = if b.bvh_root != NONE && b.bvh.count > 0 {
        cp.copy(b.bvh_root, 0)
    } else {
        NONE
    };
    let missing: Vec<u32> = (0..pieces.len() as u32)
        .filter(|&k| cp.piece_leaf[k as usize] == NONE)
        .map(|k| k + b.pieces.first)
        .collect();
    if root == NONE || !missing.is_empty() {
        let leaf = cp.leaf(&missing);
        root = if root == NONE {
            leaf
        } else {
            cp.push(NodeKind::Interior(root, leaf), Vec::new())
        };
    }
    let Copy {
        mut nodes,
        mut leaves,
        piece_leaf,
        ..
    } = cp;
    for (k, e) in edges.iter().enumerate() {
        let host = e
            .pieces
            .iter()
            .find(|&&p| p != NONE)
            .map_or(root, |&p| piece_leaf[p as usize]);
        let mut leaf = if host == NONE { root } else { host };
        while let NodeKind::Interior(l, _) = nodes[leaf as usize].kind {
            leaf = l;
        }
        leaves[leaf as usize].push(Item::Edge(k as u32));
    }
    for (k, t) in trims.iter().enumerate() {
        let mut leaf = piece_leaf[t.piece as usize];
        if leaf == NONE {
            leaf = root;
        }
        while let NodeKind::Interior(l, _) = nodes[leaf as usize].kind {
            leaf = l;
        }
        leaves[leaf as usize].push(Item::Trim(k as u32));
    }
    let cell_box = |r: &std::ops::Range<u32>| {
        let mut lo = Vec3::repeat(f64::INFINITY);
        let mut hi = Vec3::repeat(f64::NEG_INFINITY);
        for c in &cells[r.start as usize..r.end as usize] {
            lo = lo.inf(&c.lo);
            hi = hi.sup(&c.hi);
        }
        (lo, hi)
    };
    let item_box = |it: &Item| match *it {
        Item::Piece(k) => cell_box(&pieces[k as usize].cells),
        Item::Edge(k) => cell_box(&edges[k as usize].cells),
        Item::Trim(k) => cell_box(&(trims[k as usize].cell..trims[k as usize].cell + 1)),
    };
    // Leaves of the scene's BVH hold whole pieces plus their edges and trim
    // curves, dozens of items at times; split each into a binary subtree of
    // at most LEAF_ITEMS items (median of the item boxes' centres along the
    // widest axis), so far-phase bounds stay tight and item pairs are reached
    // through boxes rather than enumerated leaf by leaf.
    pub(super) const LEAF_ITEMS: usize = 2;
    pub(super) fn split_leaf(nodes: &mut Vec<Node>, out: &mut Vec<Item>, mut its: Vec<(Item, Vec3)>, into: u32) {
        if its.len() <= LEAF_ITEMS {
            let first = out.len() as u32;
            out.extend(its.iter().map(|(it, _)| *it));
            nodes[into as usize].kind = NodeKind::Leaf(first, out.len() as u32);
            return;
        }
        let (lo, hi) = its.iter().fold(
            (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)),
            |(lo, hi), (_, c)| (lo.inf(c), hi.sup(c)),
        );
        let axis = (hi - lo).imax();
        its.sort_by(|x, y| x.1[axis].total_cmp(&y.1[axis]));
        let right = its.split_off(its.len() / 2);
        let node = |nodes: &mut Vec<Node>| {
            nodes.push(Node {
                lo: Vec3::zeros(),
                hi: Vec3::zeros(),
                kind: NodeKind::Leaf(0, 0),
            });
            (nodes.len() - 1) as u32
        };
        let (l, r) = (node(nodes), node(nodes));
        nodes[into as usize].kind = NodeKind::Interior(l, r);
        split_leaf(nodes, out, its, l);
        split_leaf(nodes, out, right, r);
    }
    let mut items = Vec::new();
    for (i, l) in leaves.iter().enumerate() {
        if matches!(nodes[i].kind, NodeKind::Leaf(..)) {
            let its = l
                .iter()
                .map(|it| {
                    let (lo, hi) = item_box(it);
                    // an item without cells (an empty box) sorts by the origin
                    let c = if lo.x <= hi.x { (lo + hi) * 0.5 } else { Vec3::zeros() };
                    (*it, c)
                })
                .collect();
            split_leaf(&mut nodes, &mut items, its, i as u32);
        }
    }
    pub(super) fn fit(
        nodes: &mut [Node],
        i: u32,
        items: &[Item],
        item_box: &dyn Fn(&Item) -> (Vec3, Vec3),
    ) -> (Vec3, Vec3) {
        let (lo, hi) = match nodes[i as usize].kind {
            NodeKind::Interior(l, r) => {
                let (a0, a1) = fit(nodes, l, items, item_box);
                let (c0, c1) = fit(nodes, r, items, item_box);
                (a0.inf(&c0), a1.sup(&c1))
            }
            NodeKind::Leaf(f, e) => items[f as usize..e as usize].iter().map(item_box).fold(
                (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY)),
                |(lo, hi), (a, c)| (lo.inf(&a), hi.sup(&c)),
            ),
        };
        nodes[i as usize].lo = lo;
        nodes[i as usize].hi = hi;
        (lo, hi)
    }
    fit(&mut nodes, root, &items, &item_box);
    (nodes, items, root)
}

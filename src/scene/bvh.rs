//! A BVH per body over piece bounding boxes: top-down median split of the
//! box centres along the longest axis, up to [`LEAF_SIZE`] pieces per leaf,
//! nodes in pre-order (children after their parent, as the format requires).

use crate::scene::data::{Aabb, BvhKind, BvhNode};

/// Most pieces in one leaf.
pub const LEAF_SIZE: usize = 4;

/// Union of boxes.
pub fn union(a: &Aabb, b: &Aabb) -> Aabb {
    Aabb {
        min: std::array::from_fn(|k| a.min[k].min(b.min[k])),
        max: std::array::from_fn(|k| a.max[k].max(b.max[k])),
    }
}

/// Builds the nodes for pieces `items` (absolute piece indices with their
/// boxes), appending to `nodes`; returns the root's absolute index.
pub fn build(items: &mut [(u32, Aabb)], nodes: &mut Vec<BvhNode>) -> Option<u32> {
    if items.is_empty() {
        return None;
    }
    Some(rec(items, nodes))
}

fn rec(items: &mut [(u32, Aabb)], nodes: &mut Vec<BvhNode>) -> u32 {
    let bbox = items.iter().skip(1).fold(items[0].1, |acc, (_, b)| union(&acc, b));
    let me = nodes.len() as u32;
    if items.len() <= LEAF_SIZE {
        nodes.push(BvhNode {
            bbox,
            kind: BvhKind::Leaf(items.iter().map(|x| x.0).collect()),
        });
        return me;
    }
    nodes.push(BvhNode {
        bbox,
        kind: BvhKind::Leaf(Vec::new()),
    });
    let ext: [f64; 3] = std::array::from_fn(|k| bbox.max[k] - bbox.min[k]);
    let axis = if ext[0] >= ext[1] && ext[0] >= ext[2] {
        0
    } else if ext[1] >= ext[2] {
        1
    } else {
        2
    };
    // a total order (IEEE total_cmp): the packed reader rebuilds BVHs from
    // unvalidated boxes, where a NaN must not break the sort
    items.sort_by(|a, b| {
        let ca = a.1.min[axis] + a.1.max[axis];
        let cb = b.1.min[axis] + b.1.max[axis];
        ca.total_cmp(&cb).then(a.0.cmp(&b.0))
    });
    let mid = items.len() / 2;
    let (l, r) = items.split_at_mut(mid);
    let a = rec(l, nodes);
    let b = rec(r, nodes);
    nodes[me as usize].kind = BvhKind::Interior(a, b);
    me
}

/// Euclidean bounding box of homogeneous poles (contains the rational patch).
pub fn hull_box(cw: &[[f64; 4]]) -> Aabb {
    let mut b = Aabb {
        min: [f64::INFINITY; 3],
        max: [f64::NEG_INFINITY; 3],
    };
    for h in cw {
        for k in 0..3 {
            let x = h[k] / h[3];
            b.min[k] = b.min[k].min(x);
            b.max[k] = b.max[k].max(x);
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_after_parents_and_all_leaves() {
        let mut items: Vec<(u32, Aabb)> = (0..23)
            .map(|i| {
                let x = (i * 7 % 23) as f64;
                (
                    i,
                    Aabb {
                        min: [x, 0.0, 0.0],
                        max: [x + 1.0, 1.0, 1.0],
                    },
                )
            })
            .collect();
        let mut nodes = Vec::new();
        let root = build(&mut items, &mut nodes).unwrap();
        assert_eq!(root, 0);
        let mut seen = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            match &n.kind {
                BvhKind::Interior(a, b) => assert!(*a as usize > i && *b as usize > i),
                BvhKind::Leaf(v) => seen.extend(v.iter().copied()),
            }
        }
        seen.sort();
        assert_eq!(seen, (0..23).collect::<Vec<_>>());
    }

    #[test]
    fn nan_and_infinite_boxes_build_without_panicking() {
        // the packed reader rebuilds BVHs from boxes it has not validated yet
        let odd = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, 1.0];
        let mut items: Vec<(u32, Aabb)> = (0..40u32)
            .map(|i| {
                let x = odd[(i as usize * 5) % odd.len()];
                let y = odd[(i as usize * 3 + 1) % odd.len()];
                (
                    i,
                    Aabb {
                        min: [x, y, 0.0],
                        max: [y, x, f64::NAN],
                    },
                )
            })
            .collect();
        let mut nodes = Vec::new();
        build(&mut items, &mut nodes).unwrap();
        let leaves: usize = nodes
            .iter()
            .map(|n| match &n.kind {
                BvhKind::Leaf(v) => v.len(),
                BvhKind::Interior(..) => 0,
            })
            .sum();
        assert_eq!(leaves, 40);
    }
}

//! A lower bound for the *kept* part of a trimmed cell: the cell's parameter
//! rectangle cut adaptively into leaves along its trim curves, leaves wholly
//! trimmed away dropped, each kept or crossed leaf bounded by the control
//! hull of its sub-patch, and the gap to the other side taken leaf by leaf,
//! each along its own best direction.
//!
//! Why (issue 26): a cell pair whose unconstrained minimum lies in the
//! trimmed-away part of a trimmed cell, below the best distance, can never be
//! ruled out by a bound of the whole cell (the whole cell *does* come that
//! close), and was solved again on every update. Its kept part may not.
//!
//! **Soundness.** Let `K` be the kept part of the cell's rectangle `Q` and
//! `S(K)` its image on the patch. The leaves are the rectangles of a
//! quad-tree subdivision of `Q`; a rectangle is dropped only when no trim
//! edge can meet it ([`edge_misses`]: the edge lies in the convex hull of its
//! control points (positive weights), so in their box and in the fat line
//! about their chord; a rectangle outside either misses it) and its centre is
//! not kept. Such a rectangle meets no trim loop, so it lies wholly on one
//! side of the loops: wholly trimmed away. Hence `K ⊆ ∪ leaves`. A leaf's
//! image lies in the convex hull `H_L` of its sub-patch's control points
//! (de Casteljau restriction; positive weights), and the other side's cell in
//! the hull `H_O` of its points. For any unit `n`, and `x ∈ H_L`, `y ∈ H_O`,
//! `|y − x| ≥ n·(y − x) ≥ min n·H_O − max n·H_L`, so
//! `dist(S(K), other) ≥ min_L max_n (min n·H_O − max n·H_L)` — any
//! directions per leaf (the bound is the minimum over leaves, each maximised
//! over its own directions). [`kept_gap`] returns it, or `−∞` once a leaf
//! falls below the caller's floor (the minimum is then below it too). The
//! trimmed-away points of a crossed leaf are inside its hull, which only
//! lowers the bound; leaves along the trim are cut finer so that these
//! excursions shrink.

use super::hulls::{curve_piece_poles, euclidean_poles, sub_net};
use crate::geom::{Hpoint, Vec3};
use crate::track::body::{edges_contain, BodyGeom, CellTrim, Item, TrimEdge, TrimPath};
use nalgebra::Matrix3;

/// Depth of the quad-tree below a cell for leaves crossed by a trim curve
/// (`2^d` per side).
pub const CROSSED_DEPTH: u32 = 4;

/// Depth of the quad-tree below a cell for leaves wholly kept.
pub const KEPT_DEPTH: u32 = 2;

/// Leaves of an edge or trim cell (equal parameter intervals).
pub const CURVE_LEAVES: usize = 8;

/// One leaf: its range of control points and their centroid.
#[derive(Debug, Clone, Copy)]
pub struct Leaf {
    pts: (u32, u32),
    centre: Vec3,
    /// The largest distance of its points from `centre`.
    radius: f64,
}

/// The leaves of the trimmed cells of one body, made on first use.
#[derive(Debug, Clone)]
pub struct KeptLeaves {
    /// Per cell: its range of `leaves` (`u32::MAX`: not made yet; empty:
    /// no kept bound, e.g. an untrimmed cell or a weight not positive).
    range: Vec<(u32, u32)>,
    leaves: Vec<Leaf>,
    pts: Vec<Vec3>,
    net: Vec<Hpoint>,
    /// The other side's points mapped into this side's frame (scratch).
    other: Vec<Vec3>,
    /// Per leaf of a [`pair_gap`] partner: its least extent along each direction (scratch).
    lows: Vec<[f64; 4]>,
}

/// Whether trim edge `e` cannot meet the parameter rectangle `q`: `q` lies
/// outside the box of its control points, or wholly on one side of the fat
/// line about their chord (the slab between the control points' least and
/// greatest signed distances to the chord's line holds their convex hull,
/// hence the edge; `q` is the hull of its corners).
pub fn edge_misses(e: &TrimEdge, q: &[f64; 4]) -> bool {
    let b = &e.hull;
    if b[0] > q[1] || b[1] < q[0] || b[2] > q[3] || b[3] < q[2] {
        return true;
    }
    let n = usize::from(e.n);
    let pt = |k: usize| [e.h[k][0] / e.h[k][2], e.h[k][1] / e.h[k][2]];
    let (p0, p1) = (pt(0), pt(n - 1));
    let m = [p0[1] - p1[1], p1[0] - p0[0]];
    let len = m[0].hypot(m[1]);
    if !(len > 0.0) {
        return false;
    }
    let dist = |x: [f64; 2]| (m[0] * (x[0] - p0[0]) + m[1] * (x[1] - p0[1])) / len;
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for k in 0..n {
        let d = dist(pt(k));
        lo = lo.min(d);
        hi = hi.max(d);
    }
    // a margin for the rounding of the signed distances
    let eps = 1e-12 * (1.0 + len);
    let corners = [[q[0], q[2]], [q[1], q[2]], [q[0], q[3]], [q[1], q[3]]].map(dist);
    corners.iter().all(|&c| c > hi + eps) || corners.iter().all(|&c| c < lo - eps)
}

impl KeptLeaves {
    /// No leaves made yet for `body`'s cells.
    pub fn new(body: &BodyGeom) -> Self {
        Self {
            range: vec![(u32::MAX, 0); body.cells.len()],
            leaves: Vec::new(),
            pts: Vec::new(),
            net: Vec::new(),
            other: Vec::new(),
            lows: Vec::new(),
        }
    }

    /// The leaves of cell `c` (made now when new): empty unless the cell is
    /// a piece cell crossed by a trim loop with positive weights.
    pub fn of(&mut self, body: &BodyGeom, c: u32) -> (u32, u32) {
        let r = self.range[c as usize];
        if r.0 != u32::MAX {
            return r;
        }
        let (s, sp) = (self.leaves.len(), self.pts.len());
        let cell = &body.cells[c as usize];
        let ok = match cell.item {
            Item::Piece(k) => match cell.trim {
                CellTrim::Partial => self.split(body, k, cell.rect, 0),
                CellTrim::Inside => self.split_kept(body, k, cell.rect, 0),
            },
            Item::Edge(e) => self.curve_leaves(body, None, e, cell.rect),
            Item::Trim(t) => self.curve_leaves(body, Some(t), 0, cell.rect),
        };
        if !ok {
            self.leaves.truncate(s);
            self.pts.truncate(sp);
        }
        let r = (s as u32, self.leaves.len() as u32);
        self.range[c as usize] = r;
        r
    }

    /// Adds the leaves of rectangle `q` of piece `k` at `depth`; false when
    /// a sub-patch has a weight that is not positive.
    fn split(&mut self, body: &BodyGeom, k: u32, q: [f64; 4], depth: u32) -> bool {
        let piece = &body.pieces[k as usize];
        let crossed = !piece.trim_edges.iter().all(|e| edge_misses(e, &q));
        if !crossed && !edges_contain(&piece.trim_edges, 0.5 * (q[0] + q[1]), 0.5 * (q[2] + q[3])) {
            // no loop meets `q` and its centre is cut away: all of it is
            return true;
        }
        if !crossed {
            return self.split_kept(body, k, q, depth);
        }
        if depth < CROSSED_DEPTH {
            return quadrants(&q)
                .into_iter()
            .all(|h| self.split(body, k, h, depth + 1));
        }
        self.leaf(body, k, &q)
    }

    /// Adds the leaves of rectangle `q`, wholly kept, of piece `k`: the
    /// quad-tree down to [`KEPT_DEPTH`].
    fn split_kept(&mut self, body: &BodyGeom, k: u32, q: [f64; 4], depth: u32) -> bool {
        if depth < KEPT_DEPTH {
            return quadrants(&q)
                .into_iter()
            .all(|h| self.split_kept(body, k, h, depth + 1));
        }
        self.leaf(body, k, &q)
    }

    /// Adds the leaves of an edge cell (`trim` none: edge `e`) or a trim
    /// cell (trim curve `trim`) on the parameter interval `rect[0..2]`, cut
    /// into [`CURVE_LEAVES`] equal parts: an edge part's poles
    /// ([`curve_piece_poles`]); for a trim part, the piece's sub-patch over
    /// the parameter box of the part's control points (the part lies in that
    /// box, its image in the sub-patch's hull).
    fn curve_leaves(&mut self, body: &BodyGeom, trim: Option<u32>, e: u32, rect: [f64; 4]) -> bool {
        let (t0, t1) = (rect[0], rect[1]);
        if !(t0 <= t1) {
            return false;
        }
        let mut uv = std::mem::take(&mut self.other);
        let mut ok = true;
        for i in 0..CURVE_LEAVES {
            let a = t0 + (t1 - t0) * i as f64 / CURVE_LEAVES as f64;
            let b = if i + 1 == CURVE_LEAVES {
                t1
            } else {
                t0 + (t1 - t0) * (i + 1) as f64 / CURVE_LEAVES as f64
            };
            match trim {
                None => {
                    let s = self.pts.len();
                    if !curve_piece_poles(&body.edges[e as usize].curve, a, b, &mut self.pts) {
                        ok = false;
                        break;
                    }
                    self.push_leaf(s);
                }
                Some(t) => {
                    let tr = &body.trims[t as usize];
                    uv.clear();
                    match &tr.path {
                        TrimPath::Segment(p, q) => {
                            let at = |s: f64| Vec3::new(p[0] + (q[0] - p[0]) * s, p[1] + (q[1] - p[1]) * s, 0.0);
                            uv.push(at(a));
                            uv.push(at(b));
                        }
                        TrimPath::Curve(c) => {
                            if !curve_piece_poles(c, a, b, &mut uv) {
                                ok = false;
                                break;
                            }
                        }
                    }
                    let q = uv.iter().fold(
                        [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY],
                        |q, p| [q[0].min(p.x), q[1].max(p.x), q[2].min(p.y), q[3].max(p.y)],
                    );
                    let q = [q[0].max(0.0), q[1].min(1.0), q[2].max(0.0), q[3].min(1.0)];
                    if !(q.iter().all(|x| x.is_finite()) && q[0] <= q[1] && q[2] <= q[3] && self.leaf(body, tr.piece, &q)) {
                        ok = false;
                        break;
                    }
                }
            }
        }
        self.other = uv;
        ok
    }

    /// Closes the leaf whose points start at `s`.
    fn push_leaf(&mut self, s: usize) {
        let n = (self.pts.len() - s) as f64;
        let centre = self.pts[s..].iter().fold(Vec3::zeros(), |a, p| a + p) / n.max(1.0);
        // rounded up so that the ball holds every point
        let radius = self.pts[s..].iter().fold(0.0f64, |m, p| m.max((p - centre).norm())) * (1.0 + 1e-12);
        self.leaves.push(Leaf {
            pts: (s as u32, self.pts.len() as u32),
            centre,
            radius,
        });
    }

    /// Adds the leaf `q` of piece `k`: its sub-patch's control points.
    fn leaf(&mut self, body: &BodyGeom, k: u32, q: &[f64; 4]) -> bool {
        let sf = &body.pieces[k as usize].surface;
        sub_net(&sf.cw, sf.degree_u, sf.degree_v, q, &mut self.net);
        let s = self.pts.len();
        match euclidean_poles(&self.net) {
            Some(p) => self.pts.extend(p),
            None => return false,
        }
        self.push_leaf(s);
        true
    }

    /// Leaves in range `r` (from [`KeptLeaves::of`]).
    pub fn count(r: (u32, u32)) -> usize {
        (r.1 - r.0) as usize
    }

    /// A lower bound of the distance between the kept part of the cell whose
    /// leaves are `r` (this side's frame) and any set in the convex hull of
    /// `other` (the other side's frame, mapped into this one by
    /// `x ↦ rot x + t`): the least over the leaves of the largest gap along
    /// the unit directions `dirs` (this side's frame) and, with `witness`
    /// (a point of the other side, this frame), along the direction from
    /// the leaf's centroid to it. `−∞` when a leaf's gap is below `floor`
    /// (the bound is then below it too), or with no leaves or no points.
    /// Sound for any directions (module doc).
    #[allow(clippy::too_many_arguments)]
    pub fn kept_gap(
        &mut self,
        r: (u32, u32),
        other: &[Vec3],
        rot: &Matrix3<f64>,
        t: &Vec3,
        dirs: &[Vec3],
        witness: Option<Vec3>,
        floor: f64,
    ) -> f64 {
        if r.0 >= r.1 || other.is_empty() || dirs.len() > 4 {
            return f64::NEG_INFINITY;
        }
        self.other.clear();
        self.other.extend(other.iter().map(|p| rot * p + t));
        let min_other = |o: &[Vec3], n: &Vec3| o.iter().fold(f64::INFINITY, |m, p| m.min(n.dot(p)));
        let mut lows = [0.0; 4];
        for (l, n) in lows.iter_mut().zip(dirs) {
            *l = min_other(&self.other, n);
        }
        let mut bound = f64::INFINITY;
        for leaf in &self.leaves[r.0 as usize..r.1 as usize] {
            // the ball about the leaf's centroid holding its points first
            // (`max n·L ≤ n·c + ρ`: one dot product per direction)
            let mut g = f64::NEG_INFINITY;
            for (l, n) in lows.iter().zip(dirs) {
                g = g.max(l - n.dot(&leaf.centre) - leaf.radius);
            }
            if g >= floor {
                bound = bound.min(g);
                continue;
            }
            let pts = &self.pts[leaf.pts.0 as usize..leaf.pts.1 as usize];
            let max_leaf = |n: &Vec3| pts.iter().fold(f64::NEG_INFINITY, |m, p| m.max(n.dot(p)));
            for (l, n) in lows.iter().zip(dirs) {
                g = g.max(l - max_leaf(n));
            }
            if g < floor {
                if let Some(w) = witness {
                    let d = w - leaf.centre;
                    let len = d.norm();
                    if len > 0.0 && len.is_finite() {
                        let n = d / len;
                        g = g.max(min_other(&self.other, &n) - max_leaf(&n));
                    }
                }
            }
            if !(g >= floor) {
                return f64::NEG_INFINITY;
            }
            bound = bound.min(g);
        }
        bound
    }
}

/// The leaf-pair form of [`KeptLeaves::kept_gap`]: a lower bound of the
/// distance between the parts of two cells covered by leaves `ra` of `a`
/// (A's frame) and leaves `rb` of `b` (B's frame, mapped by `x ↦ rot x + t`),
/// the least over leaf pairs of the largest gap along `dirs` and, when those
/// fall short, along the direction between the two leaves' centroids. Sound
/// as [`KeptLeaves::kept_gap`] (each pair of leaves is a pair of convex
/// hulls). `−∞` once a pair falls below `floor`, or without leaves.
#[allow(clippy::too_many_arguments)]
pub fn pair_gap(
    a: &KeptLeaves,
    ra: (u32, u32),
    b: &mut KeptLeaves,
    rb: (u32, u32),
    rot: &Matrix3<f64>,
    t: &Vec3,
    dirs: &[Vec3],
    floor: f64,
) -> f64 {
    if ra.0 >= ra.1 || rb.0 >= rb.1 || dirs.len() > 4 {
        return f64::NEG_INFINITY;
    }
    let lb = &b.leaves[rb.0 as usize..rb.1 as usize];
    let base = lb[0].pts.0 as usize;
    b.other.clear();
    b.other.extend(b.pts[base..lb[lb.len() - 1].pts.1 as usize].iter().map(|p| rot * p + t));
    b.lows.clear();
    for l in lb {
        let pts = &b.other[l.pts.0 as usize - base..l.pts.1 as usize - base];
        let mut low = [f64::INFINITY; 4];
        for (x, n) in low.iter_mut().zip(dirs) {
            *x = pts.iter().fold(f64::INFINITY, |m, p| m.min(n.dot(p)));
        }
        b.lows.push(low);
    }
    let mut bound = f64::INFINITY;
    for la in &a.leaves[ra.0 as usize..ra.1 as usize] {
        let pa = &a.pts[la.pts.0 as usize..la.pts.1 as usize];
        let max_a = |n: &Vec3| pa.iter().fold(f64::NEG_INFINITY, |m, p| m.max(n.dot(p)));
        let mut high = [f64::NEG_INFINITY; 4];
        for (x, n) in high.iter_mut().zip(dirs) {
            *x = max_a(n);
        }
        for (l, low) in lb.iter().zip(&b.lows) {
            let mut g = f64::NEG_INFINITY;
            for k in 0..dirs.len() {
                g = g.max(low[k] - high[k]);
            }
            if g < floor {
                let d = rot * l.centre + t - la.centre;
                let len = d.norm();
                if len > 0.0 && len.is_finite() {
                    let n = d / len;
                    let pts = &b.other[l.pts.0 as usize - base..l.pts.1 as usize - base];
                    let low = pts.iter().fold(f64::INFINITY, |m, p| m.min(n.dot(p)));
                    g = g.max(low - max_a(&n));
                }
            }
            if !(g >= floor) {
                return f64::NEG_INFINITY;
            }
            bound = bound.min(g);
        }
    }
    bound
}

/// The four quarters of the parameter rectangle `q` (`[u0, u1, v0, v1]`).
fn quadrants(q: &[f64; 4]) -> [[f64; 4]; 4] {
    let (um, vm) = (0.5 * (q[0] + q[1]), 0.5 * (q[2] + q[3]));
    [
        [q[0], um, q[2], vm],
        [um, q[1], q[2], vm],
        [q[0], um, vm, q[3]],
        [um, q[1], vm, q[3]],
    ]
}


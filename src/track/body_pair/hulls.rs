//! Control-point hulls: a rational Bézier piece or curve with positive
//! weights lies in the convex hull of its control points (DESIGN, far
//! phase), per item and per cell (quarters of a piece cell, the piece of an
//! edge curve, the sub-patch under a trim curve), for the far phase's
//! hull bounds ([`super::relative::Rel::hull_bound`]).

use crate::geom::Vec3;
use crate::geom::{Hpoint, NurbsCurve};
use crate::track::body::{BodyGeom, CellTrim, Item, Sixteenths, SubTrim, TrimPath, SIXTEENTHS_SIDE};

/// Euclidean control points of homogeneous poles, `None` when a weight is
/// not positive (the curve or patch then need not lie in their hull).
pub(super) fn euclidean_poles(cw: &[crate::geom::Hpoint]) -> Option<impl Iterator<Item = Vec3> + '_> {
    cw.iter()
        .all(|p| p[3] > 0.0 && p.iter().all(|c| c.is_finite()))
        .then(|| cw.iter().map(|p| Vec3::new(p[0] / p[3], p[1] / p[3], p[2] / p[3])))
}

/// The control-point hulls of a body's items, indexed like [`ItemBoxes`](super::items::ItemBoxes):
/// a piece's patch and an edge's curve lie in the convex hull of their
/// control points (positive weights); a trim curve lies on its piece's
/// patch, so its piece's points serve.
pub(super) fn control_hulls(body: &BodyGeom) -> (Vec<(u32, u32)>, Vec<Vec3>) {
    let mut hull = Vec::new();
    let mut range = Vec::with_capacity(body.pieces.len() + body.edges.len() + body.trims.len());
    let add = |hull: &mut Vec<Vec3>, cw: &[crate::geom::Hpoint]| {
        let s = hull.len() as u32;
        if let Some(pts) = euclidean_poles(cw) {
            hull.extend(pts);
        }
        (s, hull.len() as u32)
    };
    for p in &body.pieces {
        range.push(add(&mut hull, &p.surface.cw));
    }
    for e in &body.edges {
        range.push(add(&mut hull, &e.curve.cw));
    }
    for t in &body.trims {
        range.push(range.get(t.piece as usize).copied().unwrap_or((0, 0)));
    }
    (range, hull)
}

/// Control points bounding each cell (made on first use): for a piece cell,
/// those of the four quarters of its sub-patch (the cell lies in the union
/// of their convex hulls: positive weights; a quarter's net lies about four
/// times closer to the surface than the cell's), and for a cell crossed by a
/// trim loop those of the sixteenths not wholly trimmed away (its kept part
/// lies in them; [`Sixteenths`], [`SubTrim::Away`]); for an edge cell, those of the
/// [`CURVE_PARTS`] parts of its piece of the curve ([`curve_parts_poles`];
/// else [`curve_piece_poles`]); for a trim cell, those of its piece's
/// sub-patches over the parameter boxes of the trim curve's [`CURVE_PARTS`]
/// parts' control points (each part lies in its box, so its image on the
/// piece lies in that sub-patch). None when a weight is not positive (the
/// caller then uses the item's hull).
#[derive(Debug, Clone)]
pub(super) struct CellHulls {
    /// Per cell: its range of `pts` (`u32::MAX`: not made yet).
    range: Vec<(u32, u32)>,
    /// Per cell (once made): the diagonal of its points' box, a bound on
    /// how far apart any two points of the cell are (`∞` without points).
    spread: Vec<f64>,
    pts: Vec<Vec3>,
    /// Scratch poles of [`sub_net`] (reused: no allocation once grown).
    net: Vec<Hpoint>,
}

impl CellHulls {
    pub(super) fn new(body: &BodyGeom) -> Self {
        Self {
            range: vec![(u32::MAX, 0); body.cells.len()],
            spread: vec![f64::INFINITY; body.cells.len()],
            pts: Vec::new(),
            net: Vec::new(),
        }
    }

    /// Cell `c`'s control points (made now when new).
    pub(super) fn of(&mut self, body: &BodyGeom, c: u32) -> (u32, u32) {
        let r = self.range[c as usize];
        if r.0 != u32::MAX {
            return r;
        }
        let s = self.pts.len();
        let cell = &body.cells[c as usize];
        let ok = match cell.item {
            Item::Piece(k) => {
                let piece = &body.pieces[k as usize];
                let sf = &piece.surface;
                let r = cell.rect;
                // a cell crossed by a trim loop: a 4 × 4 grid whose parts
                // lying wholly outside the kept region are left out (the
                // unconstrained minimum of such a cell's pairs is often
                // trimmed away, below every bound of the whole cell);
                // otherwise the four quarters
                let n = if cell.trim == CellTrim::Partial { SIXTEENTHS_SIDE } else { 2 };
                let mut all = true;
                for i in 0..n {
                    for j in 0..n {
                        let q = if n == SIXTEENTHS_SIDE {
                            if cell.sixteenths.class(i, j) == SubTrim::Away {
                                continue;
                            }
                            Sixteenths::rect(&r, i, j)
                        } else {
                            [
                                r[0] + (r[1] - r[0]) * i as f64 / n as f64,
                                r[0] + (r[1] - r[0]) * (i + 1) as f64 / n as f64,
                                r[2] + (r[3] - r[2]) * j as f64 / n as f64,
                                r[2] + (r[3] - r[2]) * (j + 1) as f64 / n as f64,
                            ]
                        };
                        sub_net(&sf.cw, sf.degree_u, sf.degree_v, &q, &mut self.net);
                        if euclidean_poles(&self.net).map(|p| self.pts.extend(p)).is_none() {
                            all = false;
                        }
                    }
                }
                all && self.pts.len() > s
            }
            Item::Edge(k) => {
                let c = &body.edges[k as usize].curve;
                curve_parts_poles(c, cell.rect[0], cell.rect[1], CURVE_PARTS, &mut self.pts)
                    || curve_piece_poles(c, cell.rect[0], cell.rect[1], &mut self.pts)
            }
            Item::Trim(t) => {
                // the sub-patches over the parameter boxes of the trim
                // curve's parts: the image of each part lies in its own
                let trim = &body.trims[t as usize];
                let sf = &body.pieces[trim.piece as usize].surface;
                let mut all = true;
                for k in 0..CURVE_PARTS {
                    let (s0, s1) = (k as f64 / CURVE_PARTS as f64, (k + 1) as f64 / CURVE_PARTS as f64);
                    match trim_part_uv_box(&trim.path, s0, s1) {
                        Some(q) => {
                            sub_net(&sf.cw, sf.degree_u, sf.degree_v, &q, &mut self.net);
                            all &= euclidean_poles(&self.net).map(|p| self.pts.extend(p)).is_some();
                        }
                        None => all = false,
                    }
                }
                all
            }
        };
        if !ok {
            self.pts.truncate(s);
        }
        let r = (s as u32, self.pts.len() as u32);
        self.range[c as usize] = r;
        self.spread[c as usize] = box_diagonal(&self.pts[s..]);
        r
    }

    /// How far apart two points of cell `c` can be (the diagonal of its
    /// control points' box; `∞` when the cell has no hull or it is not made
    /// yet): a curve cell below the far phase's point tolerance is a point
    /// (a trim curve along a collapsed side of its patch, at a pole).
    pub(super) fn spread(&self, c: u32) -> f64 {
        self.spread[c as usize]
    }

    pub(super) fn get(&self, r: (u32, u32)) -> &[Vec3] {
        &self.pts[r.0 as usize..r.1 as usize]
    }

    /// Whether the point of cell `c` at parameters `x` (curves: `x[0]`)
    /// lies in the hull the far phase bounds the cell by (its own, or its
    /// item's when it has none): always, but for a cell crossed by a trim
    /// loop, whose hull leaves out the sixteenths cut away — there when the
    /// sixteenth holding `x` is not one of them ([`Sixteenths::at`]; `false`
    /// when that is not known).
    #[inline]
    pub(super) fn covers(body: &BodyGeom, c: u32, x: [f64; 2]) -> bool {
        let cell = &body.cells[c as usize];
        match cell.item {
            Item::Piece(_) if cell.trim == CellTrim::Partial => {
                matches!(cell.sixteenths.at(&cell.rect, x[0], x[1]), Some(SubTrim::Kept | SubTrim::Crossed))
            }
            _ => true,
        }
    }
}

/// The parts a curve cell's hull is made of (edge cells: parts of the
/// curve; trim cells: sub-patches over the parts of the trim curve). With
/// the whole cell's net, the hull bounds of the cell pairs re-solved on
/// every update were loose: at the first 200 orbit updates, about half the
/// cell solves (8,091 of 16,939 on nist_pmi1 × fusee, 16,967 of 28,997 on
/// pump × pump) were of pairs with a curve cell, ending above the best
/// distance by 3 % (median) with a hull gap along their own witness direction
/// 8 % below their distance: a part's net lies about `CURVE_PARTS²` times
/// closer to its curve than the whole cell's (de Casteljau).
pub(super) const CURVE_PARTS: usize = 4;

/// The highest curve degree [`part_poles`] handles (its scratch is on the stack).
const MAX_PART_DEGREE: usize = 15;

/// Appends to `out` the poles of about `m` equal parts (in parameter) of
/// curve `c` on `[t0, t1]`: each knot span meeting `[t0, t1]` is cut to it in
/// `⌈m / spans met⌉` parts, each given by its Bézier poles ([`part_poles`]).
/// The curve's points on `[t0, t1]` lie in the union of the parts' hulls.
/// False (nothing appended) when a weight is not positive, the degree is
/// above [`MAX_PART_DEGREE`], or the interval is empty or outside the domain.
/// No allocation but `out`'s growth.
pub(super) fn curve_parts_poles(c: &NurbsCurve, t0: f64, t1: f64, m: usize, out: &mut Vec<Vec3>) -> bool {
    let (p, n) = (c.degree, c.cw.len());
    if n <= p || c.knots.len() != n + p + 1 || !(t0 < t1) || m == 0 || p > MAX_PART_DEGREE {
        return false;
    }
    let u = &c.knots;
    // the non-empty spans `[u_i, u_{i+1})` meeting `[t0, t1]`
    let spans = || (p..n).filter(move |&i| u[i] < u[i + 1] && t0.max(u[i]) < t1.min(u[i + 1]));
    let per = m.div_ceil(spans().count().max(1));
    let s = out.len();
    let mut q = [[0.0; 4]; MAX_PART_DEGREE + 1];
    for i in spans() {
        let (lo, hi) = (t0.max(u[i]), t1.min(u[i + 1]));
        for k in 0..per {
            let a = lo + (hi - lo) * k as f64 / per as f64;
            let b = if k + 1 == per { hi } else { lo + (hi - lo) * (k + 1) as f64 / per as f64 };
            part_poles(c, i, a, b, &mut q[..=p]);
            match euclidean_poles(&q[..=p]) {
                Some(pts) => out.extend(pts),
                None => {
                    out.truncate(s);
                    return false;
                }
            }
        }
    }
    if out.len() == s {
        return false;
    }
    true
}

/// The Bézier poles (homogeneous) of curve `c` on `[a, b]`, a sub-interval
/// of its knot span `i` (`u_i ≤ a < b ≤ u_{i+1}`), into `q` (`degree + 1`
/// poles): pole `k` is the blossom `f(a^(p−k), b^k)`, by de Boor's algorithm
/// with parameter `a` at the first `p − k` levels and `b` at the others
/// (NURBS Book §5; every step a convex combination, so positive weights
/// stay positive and the part lies in their hull).
fn part_poles(c: &NurbsCurve, i: usize, a: f64, b: f64, q: &mut [Hpoint]) {
    let p = c.degree;
    let u = &c.knots;
    let mut d = [[0.0; 4]; MAX_PART_DEGREE + 1];
    for (k, out) in q.iter_mut().enumerate().take(p + 1) {
        d[..=p].copy_from_slice(&c.cw[i - p..=i]);
        for r in 1..=p {
            let t = if r <= p - k { a } else { b };
            for j in (r..=p).rev() {
                // pole index i − p + j, knots u[i−p+j] and u[i+1+j−r]
                let (k0, k1) = (u[i - p + j], u[i + 1 + j - r]);
                let al = if k1 > k0 { ((t - k0) / (k1 - k0)).clamp(0.0, 1.0) } else { 0.0 };
                for x in 0..4 {
                    d[j][x] = (1.0 - al) * d[j - 1][x] + al * d[j][x];
                }
            }
        }
        *out = d[p];
    }
}

/// The parameter box (within `[0, 1]²`) of the control points of the part
/// `[s0, s1] ⊆ [0, 1]` (fractions of its Bézier parameter) of a trim path:
/// with positive weights the part lies in it. `None` otherwise.
fn trim_part_uv_box(path: &TrimPath, s0: f64, s1: f64) -> Option<[f64; 4]> {
    match path {
        TrimPath::Segment(a, b) => {
            let at = |s: f64| [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
            trim_uv_box(&TrimPath::Segment(at(s0), at(s1)))
        }
        TrimPath::Curve(c) => {
            let p = c.degree;
            if c.cw.len() != p + 1 || c.knots.len() != 2 * p + 2 || p > MAX_PART_DEGREE {
                // not a single Bézier span: the whole path's box
                return trim_uv_box(path);
            }
            let (lo, hi) = c.domain();
            if !(hi > lo) {
                return trim_uv_box(path);
            }
            let mut q = [[0.0; 4]; MAX_PART_DEGREE + 1];
            part_poles(c, p, lo + (hi - lo) * s0, lo + (hi - lo) * s1, &mut q[..=p]);
            uv_box(&q[..=p])
        }
    }
}

/// The diagonal of the box of `pts` (`∞` when empty).
fn box_diagonal(pts: &[Vec3]) -> f64 {
    let Some(first) = pts.first() else {
        return f64::INFINITY;
    };
    let (lo, hi) = pts.iter().fold((*first, *first), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
    (hi - lo).norm()
}

/// The homogeneous poles of a Bézier patch (`cw[i (q + 1) + j]`, degrees
/// `p` in u and `q` in v) restricted to the rectangle `r ⊆ [0, 1]²`, into
/// `net` (reused): de Casteljau in place, each u column cut at `r[1]`
/// (keeping the left part) then at `r[0] / r[1]` (keeping the right part),
/// then each v row likewise. The same sub-patch as
/// [`sub_patch`](crate::track::body::sub_patch) (up to rounding), without
/// its allocations: the cell hulls of a cold query are made here.
pub(super) fn sub_net(cw: &[Hpoint], p: usize, q: usize, r: &[f64; 4], net: &mut Vec<Hpoint>) {
    net.clear();
    net.extend_from_slice(cw);
    if cw.len() != (p + 1) * (q + 1) {
        return;
    }
    // cuts the `n + 1` poles at `net[first + k·stride]` to `[a, b] ⊆ [0, 1]`
    let cut = |net: &mut [Hpoint], first: usize, stride: usize, n: usize, a: f64, b: f64| {
        let at = |k: usize| first + k * stride;
        let lerp = |x: Hpoint, y: Hpoint, s: f64| -> Hpoint {
            [
                (1.0 - s) * x[0] + s * y[0],
                (1.0 - s) * x[1] + s * y[1],
                (1.0 - s) * x[2] + s * y[2],
                (1.0 - s) * x[3] + s * y[3],
            ]
        };
        if b < 1.0 {
            // the left part of a split at `b`: poles b_0^0 … b_0^n
            for lev in 1..=n {
                for k in (lev..=n).rev() {
                    net[at(k)] = lerp(net[at(k - 1)], net[at(k)], b);
                }
            }
        }
        if a > 0.0 && b > 0.0 {
            // the right part of a split at `a / b`: poles b_0^n … b_n^0
            let s = (a / b).min(1.0);
            for lev in 1..=n {
                for k in 0..=n - lev {
                    net[at(k)] = lerp(net[at(k)], net[at(k + 1)], s);
                }
            }
        }
    };
    for j in 0..=q {
        cut(net, j, q + 1, p, r[0], r[1]);
    }
    for i in 0..=p {
        cut(net, i * (q + 1), 1, q, r[2], r[3]);
    }
    debug_assert!(
        crate::track::body::sub_patch(cw, p, q, r)
            .iter()
            .zip(net.iter())
            .all(|(a, b)| (0..4).all(|k| (a[k] - b[k]).abs() <= 1e-9 * (1.0 + a[k].abs()))),
        "sub_net differs from sub_patch on {r:?}"
    );
}

/// Appends to `out` Euclidean points whose convex hull holds the curve's
/// points on `[t0, t1]`; false (nothing appended) when a weight is not
/// positive or the knots are malformed. The one-part case of
/// [`curve_parts_poles`]: each knot span met is cut to `[t0, t1]` and given
/// by its Bézier poles ([`part_poles`], blossoms; no allocation). Where that
/// does not apply (an empty interval `t0 = t1`, a degree above
/// [`MAX_PART_DEGREE`]), the poles whose basis functions do not vanish on
/// `[t0, t1]` (local convex hull property: on span `[k_i, k_{i+1})` the
/// curve is a convex combination of poles `i − p … i`).
pub(super) fn curve_piece_poles(c: &NurbsCurve, t0: f64, t1: f64, out: &mut Vec<Vec3>) -> bool {
    let (p, n) = (c.degree, c.cw.len());
    if n == 0 || c.knots.len() != n + p + 1 || !(t0 <= t1) || c.cw.iter().any(|h| !(h[3] > 0.0)) {
        return false;
    }
    if curve_parts_poles(c, t0, t1, 1, out) {
        return true;
    }
    let (a, b) = c.domain();
    let i0 = crate::geom::find_span(n, p, t0.max(a), &c.knots);
    let i1 = crate::geom::find_span(n, p, t1.min(b), &c.knots);
    if i0 < p || i1 >= n || i0 > i1 {
        return false;
    }
    match euclidean_poles(&c.cw[i0 - p..=i1]) {
        Some(pts) => {
            out.extend(pts);
            true
        }
        None => false,
    }
}

/// The parameter box (within `[0, 1]²`) of a trim path's control points:
/// with positive weights the path lies in it. `None` otherwise.
fn trim_uv_box(path: &TrimPath) -> Option<[f64; 4]> {
    match path {
        TrimPath::Segment(a, b) => uv_box(&[[a[0], a[1], 0.0, 1.0], [b[0], b[1], 0.0, 1.0]]),
        TrimPath::Curve(c) => uv_box(&c.cw),
    }
}

/// The box (within `[0, 1]²`) of homogeneous plane poles `cw`; `None` when
/// a weight is not positive or the box is empty.
fn uv_box(cw: &[Hpoint]) -> Option<[f64; 4]> {
    let mut q = [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
    for h in cw {
        if !(h[3] > 0.0) {
            return None;
        }
        let (u, v) = (h[0] / h[3], h[1] / h[3]);
        q = [q[0].min(u), q[1].max(u), q[2].min(v), q[3].max(v)];
    }
    let q = [q[0].max(0.0), q[1].min(1.0), q[2].max(0.0), q[3].min(1.0)];
    (q.iter().all(|x| x.is_finite()) && q[0] <= q[1] && q[2] <= q[3]).then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rational quadratic quarter circle of radius 1 about the z axis.
    fn quarter_arc() -> NurbsCurve {
        NurbsCurve::try_new(
            2,
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            &[[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
            Some(&[1.0, std::f64::consts::FRAC_1_SQRT_2, 1.0]),
        )
        .unwrap()
    }

    /// The support of a point set along `d` (the largest `d · p`).
    fn support(pts: &[Vec3], d: &Vec3) -> f64 {
        pts.iter().fold(f64::NEG_INFINITY, |m, p| m.max(d.dot(p)))
    }

    /// A non-rational cubic B-spline of two spans (an inner knot at 0.5).
    fn two_span_cubic() -> NurbsCurve {
        NurbsCurve::try_new(
            3,
            vec![0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 1.0],
            &[[0.0, 0.0, 0.0], [1.0, 2.0, 0.5], [2.0, -1.0, 0.0], [3.0, 1.0, 1.0], [4.0, 0.0, 0.0]],
            None,
        )
        .unwrap()
    }

    /// [`sub_net`] gives the poles of [`sub_patch`](crate::track::body::sub_patch) (to rounding).
    #[test]
    fn sub_net_is_the_sub_patch() {
        let (p, q) = (3, 2);
        let cw: Vec<Hpoint> = (0..(p + 1) * (q + 1))
            .map(|k| {
                let w = 1.0 + 0.3 * ((k * 7 % 5) as f64);
                let x = [(k % 3) as f64, (k / 3) as f64 * 0.7, ((k * k) % 4) as f64 - 1.0];
                [w * x[0], w * x[1], w * x[2], w]
            })
            .collect();
        let mut net = Vec::new();
        for r in [[0.0, 1.0, 0.0, 1.0], [0.25, 0.5, 0.0, 0.75], [0.1, 0.9, 0.6, 1.0], [0.5, 0.5, 0.2, 0.3]] {
            sub_net(&cw, p, q, &r, &mut net);
            let want = crate::track::body::sub_patch(&cw, p, q, &r);
            assert_eq!(net.len(), want.len());
            for (a, b) in net.iter().zip(&want) {
                for k in 0..4 {
                    assert!((a[k] - b[k]).abs() <= 1e-13 * (1.0 + b[k].abs()), "{r:?}: {a:?} vs {b:?}");
                }
            }
        }
    }

    /// The points of a curve on `[t0, t1]` lie in the hull of the poles
    /// given for it: checked as a bound along directions (the hull's
    /// support), for a rational Bézier arc and a two-span B-spline.
    #[test]
    fn curve_piece_poles_hold_the_curve_piece() {
        let (arc, spline) = (quarter_arc(), two_span_cubic());
        let dirs = [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(-1.0, 0.3, 0.0),
            Vec3::new(0.2, -1.0, 0.5),
            Vec3::new(0.0, 0.7, -0.7),
        ];
        for c in [&arc, &spline] {
            for &(t0, t1) in &[(0.0, 1.0), (0.1, 0.3), (0.45, 0.55), (0.5, 0.9), (0.7, 0.7)] {
                let mut pts = Vec::new();
                assert!(curve_piece_poles(c, t0, t1, &mut pts));
                for d in &dirs {
                    let top = support(&pts, d);
                    for k in 0..=50 {
                        let t = t0 + (t1 - t0) * f64::from(k) / 50.0;
                        assert!(d.dot(&c.eval(t)) <= top + 1e-12, "t {t} on [{t0}, {t1}]");
                    }
                }
            }
        }
        // the cut Bézier piece is tighter than the whole net
        let mut piece = Vec::new();
        assert!(curve_piece_poles(&arc, 0.0, 0.1, &mut piece));
        let top = piece.iter().fold(f64::NEG_INFINITY, |m, p| m.max(p.y));
        assert!(top < 0.2, "{top}");
    }

    /// The parts' poles of [`curve_parts_poles`] hold the curve's points on
    /// `[t0, t1]` (along directions: the hull's support), on a rational
    /// Bézier arc and a two-span B-spline (split into its Bézier spans), and
    /// their support lies closer to the curve than the whole piece's net.
    /// On one Bézier span, [`curve_piece_poles`] (blossoms of the span cut
    /// to `[t0, t1]`) gives the poles of the sub-curve that two de Casteljau
    /// splits give (its form before session 29), within `1e-12` relative.
    #[test]
    fn curve_piece_poles_on_one_span_are_the_split_sub_curve() {
        // the reference: split at `s1`, keep the left part, split it at `s0 / s1`, keep the right
        fn split(cw: &[Hpoint], s: f64) -> (Vec<Hpoint>, Vec<Hpoint>) {
            let n = cw.len();
            let mut w = cw.to_vec();
            let mut left = vec![w[0]];
            let mut right = vec![[0.0; 4]; n];
            right[n - 1] = w[n - 1];
            for k in 1..n {
                for i in 0..n - k {
                    for j in 0..4 {
                        w[i][j] = (1.0 - s) * w[i][j] + s * w[i + 1][j];
                    }
                }
                left.push(w[0]);
                right[n - 1 - k] = w[n - 1 - k];
            }
            (left, right)
        }
        let arc = quarter_arc();
        let cubic = NurbsCurve::try_new(
            3,
            vec![2.0, 2.0, 2.0, 2.0, 5.0, 5.0, 5.0, 5.0],
            &[[0.0, 0.0, 0.0], [10.0, 20.0, 5.0], [20.0, -10.0, 0.0], [30.0, 10.0, 10.0]],
            Some(&[1.0, 0.5, 2.0, 1.0]),
        )
        .unwrap();
        for c in [&arc, &cubic] {
            let (a, b) = c.domain();
            for &(f0, f1) in &[(0.0, 1.0), (0.1, 0.3), (0.45, 0.55), (0.0, 0.2), (0.8, 1.0)] {
                let (t0, t1) = (a + (b - a) * f0, a + (b - a) * f1);
                let mut pts = Vec::new();
                assert!(curve_piece_poles(c, t0, t1, &mut pts));
                let (s0, s1) = ((t0 - a) / (b - a), (t1 - a) / (b - a));
                let sub = split(&split(&c.cw, s1).0, (s0 / s1).min(1.0)).1;
                let want: Vec<Vec3> = euclidean_poles(&sub).unwrap().collect();
                assert_eq!(pts.len(), want.len());
                for (p, q) in pts.iter().zip(&want) {
                    assert!((p - q).norm() <= 1e-12 * q.norm().max(1.0), "[{t0}, {t1}]: {p} vs {q}");
                }
            }
        }
    }

    #[test]
    fn curve_parts_poles_hold_the_curve_and_are_tighter() {
        let (arc, spline) = (quarter_arc(), two_span_cubic());
        let dirs = [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(-1.0, 0.3, 0.0),
            Vec3::new(0.2, -1.0, 0.5),
            Vec3::new(0.0, 0.7, -0.7),
            Vec3::new(0.6, 0.6, 0.0),
        ];
        for c in [&arc, &spline] {
            for &(t0, t1) in &[(0.0, 1.0), (0.1, 0.3), (0.45, 0.55), (0.5, 0.9), (0.3, 0.8)] {
                let (mut parts, mut whole) = (Vec::new(), Vec::new());
                assert!(curve_parts_poles(c, t0, t1, CURVE_PARTS, &mut parts));
                assert!(curve_piece_poles(c, t0, t1, &mut whole));
                for d in &dirs {
                    let top = support(&parts, d);
                    let top_whole = support(&whole, d);
                    let mut on = f64::NEG_INFINITY;
                    for k in 0..=200 {
                        let t = t0 + (t1 - t0) * f64::from(k) / 200.0;
                        let x = d.dot(&c.eval(t));
                        assert!(x <= top + 1e-12, "t {t} on [{t0}, {t1}]: {x} above {top}");
                        on = on.max(x);
                    }
                    assert!(top <= top_whole + 1e-12, "parts {top} looser than the piece {top_whole}");
                    // the parts' support is within a sixteenth-ish of the
                    // whole net's excess over the curve (de Casteljau, 4 parts)
                    assert!(top - on <= 0.3 * (top_whole - on) + 1e-12, "{top} {top_whole} {on}");
                }
            }
            // empty or inverted intervals give nothing
            let mut none = Vec::new();
            assert!(!curve_parts_poles(c, 0.4, 0.4, CURVE_PARTS, &mut none));
            assert!(!curve_parts_poles(c, 0.6, 0.4, CURVE_PARTS, &mut none));
            assert!(none.is_empty());
        }
    }

    /// The parameter boxes of a trim path's parts hold the path's points of
    /// each part, for a segment and a rational quadratic arc, and are no
    /// larger than the whole path's box.
    #[test]
    fn trim_part_boxes_hold_their_parts() {
        let arc = NurbsCurve::try_new(
            2,
            vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            &[[0.9, 0.5, 0.0], [0.9, 0.9, 0.0], [0.5, 0.9, 0.0]],
            Some(&[1.0, std::f64::consts::FRAC_1_SQRT_2, 1.0]),
        )
        .unwrap();
        let paths = [TrimPath::Segment([0.1, 0.2], [0.7, 0.4]), TrimPath::Curve(arc.clone())];
        for path in &paths {
            let whole = trim_uv_box(path).unwrap();
            for k in 0..CURVE_PARTS {
                let (s0, s1) = (k as f64 / CURVE_PARTS as f64, (k + 1) as f64 / CURVE_PARTS as f64);
                let q = trim_part_uv_box(path, s0, s1).unwrap();
                assert!(q[0] >= whole[0] - 1e-15 && q[1] <= whole[1] + 1e-15);
                assert!(q[2] >= whole[2] - 1e-15 && q[3] <= whole[3] + 1e-15);
                for j in 0..=40 {
                    let s = s0 + (s1 - s0) * f64::from(j) / 40.0;
                    let uv = match path {
                        TrimPath::Segment(a, b) => [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s],
                        TrimPath::Curve(c) => {
                            let p = c.eval(s);
                            [p.x, p.y]
                        }
                    };
                    let e = 1e-12;
                    assert!(
                        uv[0] >= q[0] - e && uv[0] <= q[1] + e && uv[1] >= q[2] - e && uv[1] <= q[3] + e,
                        "part {k}: {uv:?} outside {q:?}"
                    );
                }
            }
        }
    }
}

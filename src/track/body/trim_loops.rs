//! Exact trim loops of a piece as `y`-monotone rational Bézier edges and
//! the even-odd containment test on them ([`edges_contain`]), which tells
//! points a hair inside or outside a curved trim apart; the flattened trim
//! polygons kept beside them.

use super::geom::{BodyGeom, CellTrim};
use crate::geom::bez2;
use crate::scene::data::TrimCurve;

/// Most control points of a [`TrimEdge`] (higher degrees are flattened).
pub const TRIM_EDGE_POINTS: usize = 16;

/// A `y`-monotone piece of a trim loop: a rational Bézier curve with
/// homogeneous points `[w·u, w·v, w]` (a straight segment has two), and the
/// box of its control points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrimEdge {
    /// Control points (the first `n`).
    pub h: [[f64; 3]; TRIM_EDGE_POINTS],
    /// Number of control points (≥ 2).
    pub n: u8,
    /// `[u_min, u_max, v_min, v_max]` of the control points.
    pub hull: [f64; 4],
}

impl TrimEdge {
    pub(super) fn new(h: &[[f64; 3]]) -> Option<Self> {
        if h.len() < 2 || h.len() > TRIM_EDGE_POINTS || !h.iter().all(|p| p[2] > 0.0 && p.iter().all(|x| x.is_finite()))
        {
            return None;
        }
        let mut a = [[0.0; 3]; TRIM_EDGE_POINTS];
        a[..h.len()].copy_from_slice(h);
        Some(Self {
            h: a,
            n: h.len() as u8,
            hull: bez2::hull(h),
        })
    }

    /// The control points.
    pub fn points(&self) -> &[[f64; 3]] {
        &self.h[..self.n as usize]
    }
}

/// The exact trim loops of a piece as `y`-monotone edges (loops closed, gaps
/// between consecutive curves bridged by straight segments).
pub fn trim_edges(p: &crate::scene::data::Piece) -> Vec<TrimEdge> {
    let mut out = Vec::new();
    let line = |a: [f64; 2], b: [f64; 2]| [[a[0], a[1], 1.0], [b[0], b[1], 1.0]];
    for l in &p.trim_loops {
        let mut first: Option<[f64; 2]> = None;
        let mut pen: Option<[f64; 2]> = None;
        let push_line = |out: &mut Vec<TrimEdge>, a: [f64; 2], b: [f64; 2]| {
            if a != b {
                out.extend(TrimEdge::new(&line(a, b)));
            }
        };
        for c in &l.curves {
            match c {
                TrimCurve::Polyline(v) => {
                    for &q in v {
                        if let Some(a) = pen {
                            push_line(&mut out, a, q);
                        }
                        first.get_or_insert(q);
                        pen = Some(q);
                    }
                }
                TrimCurve::Bezier(h) => {
                    if h.len() < 2 {
                        continue;
                    }
                    let (s, e) = (bez2::eval(h, 0.0), bez2::eval(h, 1.0));
                    if let Some(a) = pen {
                        push_line(&mut out, a, s);
                    }
                    first.get_or_insert(s);
                    if h.len() <= TRIM_EDGE_POINTS {
                        for m in bez2::monotone_in_y(h) {
                            out.extend(TrimEdge::new(&m));
                        }
                    } else {
                        let n = 256;
                        for k in 0..n {
                            push_line(
                                &mut out,
                                bez2::eval(h, k as f64 / n as f64),
                                bez2::eval(h, (k + 1) as f64 / n as f64),
                            );
                        }
                    }
                    pen = Some(e);
                }
            }
        }
        if let (Some(a), Some(b)) = (pen, first) {
            push_line(&mut out, a, b);
        }
    }
    out
}

/// Even-odd containment of `(s, t)` in the exact trim loops given as
/// `y`-monotone edges: the ray towards `+u` is intersected with each curve
/// exactly (bisection to the last bit of its parameter), so points a hair
/// inside or outside a curved trim are told apart. Does not allocate.
pub fn edges_contain(edges: &[TrimEdge], s: f64, t: f64) -> bool {
    let mut inside = false;
    for e in edges {
        if t < e.hull[2] || t > e.hull[3] || s >= e.hull[1] {
            continue;
        }
        if bez2::ray_crosses(e.points(), e.hull[0], e.hull[1], s, t) {
            inside = !inside;
        }
    }
    inside
}

/// A piece's trim edges by bands of `v`: each band lists the edges whose
/// `v`-range meets it, so the even-odd test at `(s, t)` looks only at the
/// edges of `t`'s band (the others cannot cross the ray at height `t`).
/// Built once with the body; a query does not allocate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrimBands {
    /// `v` of the first band's lower side.
    v0: f64,
    /// Bands per unit of `v`.
    scale: f64,
    /// `edges[start[b]..start[b + 1]]` are band `b`'s edges.
    start: Vec<u32>,
    /// Edge indices, band after band.
    edges: Vec<u32>,
}

/// Fewest edges for which [`TrimBands`] has more than one band.
const BAND_EDGES: usize = 8;

impl TrimBands {
    /// The bands of `edges`: about one band per four edges, at most 64.
    pub fn new(edges: &[TrimEdge]) -> Self {
        let (lo, hi) = edges
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), e| (lo.min(e.hull[2]), hi.max(e.hull[3])));
        let n = if edges.len() < BAND_EDGES || !(hi > lo) { 1 } else { (edges.len() / 4).min(64) };
        let scale = if hi > lo { n as f64 / (hi - lo) } else { 0.0 };
        let band = |v: f64| (((v - lo) * scale) as usize).min(n - 1);
        let mut count = vec![0u32; n + 1];
        for e in edges {
            for b in band(e.hull[2])..=band(e.hull[3]) {
                count[b + 1] += 1;
            }
        }
        for b in 0..n {
            count[b + 1] += count[b];
        }
        let mut at = count.clone();
        let mut list = vec![0u32; count[n] as usize];
        for (k, e) in edges.iter().enumerate() {
            for b in band(e.hull[2])..=band(e.hull[3]) {
                list[at[b] as usize] = k as u32;
                at[b] += 1;
            }
        }
        Self {
            v0: lo,
            scale,
            start: count,
            edges: list,
        }
    }

    /// [`edges_contain`] of `edges` (those the bands were built from) at `(s, t)`.
    pub fn contain(&self, edges: &[TrimEdge], s: f64, t: f64) -> bool {
        let n = self.start.len().saturating_sub(1);
        // `(t − v0)·scale` is monotone in `t` under rounding, as it was for
        // each edge's `v`-range when the bands were made: every edge whose
        // range holds `t` is listed in `t`'s band (NaN falls in band 0)
        if n == 0 || !(t >= self.v0) {
            return edges_contain(edges, s, t);
        }
        let b = (((t - self.v0) * self.scale) as usize).min(n - 1);
        let mut inside = false;
        for &k in &self.edges[self.start[b] as usize..self.start[b + 1] as usize] {
            let e = &edges[k as usize];
            if t < e.hull[2] || t > e.hull[3] || s >= e.hull[1] {
                continue;
            }
            if bez2::ray_crosses(e.points(), e.hull[0], e.hull[1], s, t) {
                inside = !inside;
            }
        }
        inside
    }
}

/// Flattens a piece's trim loops into closed polygons in `[0,1]²`.
pub(super) fn trim_polygons(p: &crate::scene::data::Piece) -> Vec<Vec<[f64; 2]>> {
    let mut out = Vec::with_capacity(p.trim_loops.len());
    for l in &p.trim_loops {
        let mut poly: Vec<[f64; 2]> = Vec::new();
        for c in &l.curves {
            match c {
                TrimCurve::Polyline(v) => poly.extend_from_slice(v),
                TrimCurve::Bezier(h) => {
                    let n = 48;
                    for k in 0..=n {
                        poly.push(bezier2(h, k as f64 / n as f64));
                    }
                }
            }
        }
        if poly.len() >= 3 {
            out.push(poly);
        }
    }
    out
}

/// Rational Bézier curve point in the plane by de Casteljau on homogeneous points.
pub(super) fn bezier2(h: &[[f64; 3]], t: f64) -> [f64; 2] {
    let mut w: [[f64; 3]; 32] = [[0.0; 3]; 32];
    let n = h.len().min(32);
    w[..n].copy_from_slice(&h[..n]);
    for r in 1..n {
        for i in 0..n - r {
            for k in 0..3 {
                w[i][k] = (1.0 - t) * w[i][k] + t * w[i + 1][k];
            }
        }
    }
    let z = if w[0][2] != 0.0 { w[0][2] } else { 1.0 };
    [w[0][0] / z, w[0][1] / z]
}

impl BodyGeom {
    /// Whether piece `k` keeps the parameters `(u, v)` (its trims).
    pub fn piece_keeps(&self, k: u32, u: f64, v: f64) -> bool {
        let p = &self.pieces[k as usize];
        // a witness on a side of the piece is tested a hair inside it (the
        // clipped loops run along the sides)
        let nudge = |x: f64| x + (0.5 - x) * 1e-9;
        if p.trims.is_empty() {
            return true;
        }
        let (u, v) = (nudge(u), nudge(v));
        // a point of a cell that no trim curve's hull touches is kept (the
        // cell's centre is, and no loop crosses the cell): no curve to cross
        let inside_cell = self
            .cells
            .get(p.cells.start as usize..p.cells.end as usize)
            .unwrap_or(&[])
            .iter()
            .any(|c| c.trim == CellTrim::Inside && u >= c.rect[0] && u <= c.rect[1] && v >= c.rect[2] && v <= c.rect[3]);
        inside_cell || p.trim_bands.contain(&p.trim_edges, u, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::polygon::polygons_contain;
    use crate::scene::data::ConvexityClass;

    /// A piece whose outer trim loop is the circle of radius `r` around `c`
    /// (four rational quarter arcs).
    fn circle_piece(c: [f64; 2], r: f64) -> crate::scene::data::Piece {
        use crate::scene::data::{Piece, TrimLoop};
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let quarter = |k: usize| -> TrimCurve {
            let rot = |x: f64, y: f64| match k {
                0 => (x, y),
                1 => (-y, x),
                2 => (-x, -y),
                _ => (y, -x),
            };
            TrimCurve::Bezier(
                [(1.0, 0.0, 1.0), (1.0, 1.0, w), (0.0, 1.0, 1.0)]
                    .iter()
                    .map(|&(x, y, wt)| {
                        let (x, y) = rot(x, y);
                        [(c[0] + r * x) * wt, (c[1] + r * y) * wt, wt]
                    })
                    .collect(),
            )
        };
        Piece {
            body: 0,
            source_face: 1,
            degree_u: 1,
            degree_v: 1,
            poles: vec![
                [0.0, 0.0, 0.0, 1.0],
                [0.0, 1.0, 0.0, 1.0],
                [1.0, 0.0, 0.0, 1.0],
                [1.0, 1.0, 0.0, 1.0],
            ],
            class: ConvexityClass::Planar,
            reversed: false,
            trimmed: true,
            fully_inside: false,
            domain: [0.0, 1.0, 0.0, 1.0],
            cone: Default::default(),
            bbox: Default::default(),
            trim_loops: vec![TrimLoop {
                outer: true,
                curves: (0..4).map(quarter).collect(),
            }],
            adjacency: Vec::new(),
            origin: None,
        }
    }

    #[test]
    fn exact_containment_near_a_circle() {
        let (c, r) = ([0.5, 0.45], 0.3);
        let p = circle_piece(c, r);
        let edges = trim_edges(&p);
        let polys = trim_polygons(&p);
        let mut polygon_wrong = 0;
        for k in 0..997 {
            let a = k as f64 * 0.0063;
            for (d, want) in [(-1e-9, true), (1e-9, false)] {
                let (s, t) = (c[0] + (r + d) * a.cos(), c[1] + (r + d) * a.sin());
                assert_eq!(edges_contain(&edges, s, t), want, "angle {a} offset {d}");
                if polygons_contain(&polys, s, t) != want {
                    polygon_wrong += 1;
                }
            }
        }
        // the flattened polygon gets the inner points between its vertices wrong
        assert!(polygon_wrong > 100, "{polygon_wrong}");
    }

    proptest::proptest! {
        #[test]
        fn exact_containment_matches_a_dense_polygon(
            cx in 0.3f64..0.7, cy in 0.3f64..0.7, r in 0.05f64..0.3,
            pts in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0), 64),
        ) {
            let p = circle_piece([cx, cy], r);
            let edges = trim_edges(&p);
            let n = 4096;
            let dense: Vec<Vec<[f64; 2]>> = vec![(0..n)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / n as f64;
                    [cx + r * a.cos(), cy + r * a.sin()]
                })
                .collect()];
            for (s, t) in pts {
                let d = ((s - cx).hypot(t - cy) - r).abs();
                if d > 1e-4 {
                    proptest::prop_assert_eq!(edges_contain(&edges, s, t), polygons_contain(&dense, s, t));
                }
            }
        }
    }

    /// A star polygon of `n` straight edges plus the four arcs of a circle
    /// hole: many edges, so the bands split them.
    fn star_and_hole(n: usize, jag: f64) -> Vec<TrimEdge> {
        let mut edges = trim_edges(&circle_piece([0.52, 0.47], 0.11));
        let star: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                let r = 0.4 + if k % 2 == 0 { jag } else { -jag };
                [0.5 + r * a.cos(), 0.5 + r * a.sin()]
            })
            .collect();
        for k in 0..n {
            let (a, b) = (star[k], star[(k + 1) % n]);
            edges.extend(TrimEdge::new(&[[a[0], a[1], 1.0], [b[0], b[1], 1.0]]));
        }
        edges
    }

    proptest::proptest! {
        #[test]
        fn trim_bands_answer_as_the_scan_of_every_edge(
            n in 3usize..200, jag in 0.0f64..0.09,
            pts in proptest::collection::vec((-0.1f64..1.1, -0.1f64..1.1), 64),
        ) {
            let edges = star_and_hole(n, jag);
            let bands = TrimBands::new(&edges);
            for (s, t) in pts {
                proptest::prop_assert_eq!(bands.contain(&edges, s, t), edges_contain(&edges, s, t), "({}, {})", s, t);
            }
            // on the edges' own ends and band sides too
            for e in &edges {
                for v in [e.hull[2], e.hull[3]] {
                    for s in [e.hull[0], 0.5 * (e.hull[0] + e.hull[1]), e.hull[1]] {
                        proptest::prop_assert_eq!(bands.contain(&edges, s, v), edges_contain(&edges, s, v));
                    }
                }
            }
        }
    }

    #[test]
    fn trim_bands_split_many_edges() {
        let edges = star_and_hole(120, 0.05);
        let bands = TrimBands::new(&edges);
        assert_eq!(bands.start.len() - 1, edges.len() / 4);
        // each band lists a small part of the edges
        let widest = bands.start.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0) as usize;
        assert!(widest * 4 < edges.len(), "widest band {widest} of {}", edges.len());
        assert!(TrimBands::new(&[]).contain(&[], 0.5, 0.5) == edges_contain(&[], 0.5, 0.5));
    }
}

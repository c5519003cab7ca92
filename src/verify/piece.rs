//! The scene side of the self-check: a piece's rational Bézier patch and the
//! part of `[0,1]²` its trim keeps, read from the scene records only (this
//! check's own evaluation of the trim curves, exact: Bézier trims are
//! evaluated as the rational curves they are, never as polygons).
//!
//! * [`Patch::area`]: the kept part's area by Green's theorem on the exact
//!   trim curves (`∮ F dt`, `F(s, t) = ∫₀ˢ |P_s × P_t| dσ`), the loops
//!   combined by their even-odd nesting, with an estimate of the quadrature
//!   error (two Gauss orders);
//! * [`Patch::samples`]: points of the kept part (an interior grid and points
//!   along the trim curves);
//! * [`Patch::boundary_distance`]: the distance from a 3-D point to the kept
//!   part's boundary (an upper bound from dense samples, refined on the exact
//!   curve by Gauss–Newton only where the bound exceeds the tolerance).

use super::sampled_curves::closest_on_curve;
#[cfg(test)]
use super::sampled_curves::SampledCurves;
use crate::geom::Vec3;
use crate::scene::data::{Piece, TrimCurve};

/// Largest degree handled.
pub const MAX_DEGREE: usize = 15;

/// [`Patch::area`] halves its quadrature intervals while its error estimate
/// exceeds this fraction of the area.
const AREA_REL_ERR: f64 = 1e-9;

/// Most halvings of [`Patch::area`]'s quadrature intervals (at most
/// `4^AREA_HALVINGS` times the work of the base rules).
const AREA_HALVINGS: u32 = 3;

/// Gauss–Legendre nodes and weights on `[0, 1]`, 5 points.
pub(crate) const G5: [(f64, f64); 5] = [
    (0.046_910_077_030_668, 0.118_463_442_528_095),
    (0.230_765_344_947_158, 0.239_314_335_249_683),
    (0.5, 0.284_444_444_444_444),
    (0.769_234_655_052_842, 0.239_314_335_249_683),
    (0.953_089_922_969_332, 0.118_463_442_528_095),
];

/// Gauss–Legendre nodes and weights on `[0, 1]`, 8 points.
pub(crate) const G8: [(f64, f64); 8] = [
    (0.019_855_071_751_232, 0.050_614_268_145_188),
    (0.101_666_761_293_187, 0.111_190_517_226_687),
    (0.237_233_795_041_835_5, 0.156_853_322_938_944),
    (0.408_282_678_752_175, 0.181_341_891_689_181),
    (0.591_717_321_247_825, 0.181_341_891_689_181),
    (0.762_766_204_958_164_5, 0.156_853_322_938_944),
    (0.898_333_238_706_813, 0.111_190_517_226_687),
    (0.980_144_928_248_768, 0.050_614_268_145_188),
];

/// Bernstein values (and derivatives when `db` is given) of degree `n` at `x`.
fn bernstein(n: usize, x: f64, b: &mut [f64; MAX_DEGREE + 1], db: Option<&mut [f64; MAX_DEGREE + 1]>) {
    let basis = |m: usize, out: &mut [f64; MAX_DEGREE + 1]| {
        out[0] = 1.0;
        for j in 1..=m {
            let mut saved = 0.0;
            for k in 0..j {
                let t = out[k];
                out[k] = saved + (1.0 - x) * t;
                saved = x * t;
            }
            out[j] = saved;
        }
    };
    if let Some(db) = db {
        if n == 0 {
            db[0] = 0.0;
        } else {
            let mut lower = [0.0; MAX_DEGREE + 1];
            basis(n - 1, &mut lower);
            for i in 0..=n {
                let a = if i > 0 { lower[i - 1] } else { 0.0 };
                let c = if i < n { lower[i] } else { 0.0 };
                db[i] = n as f64 * (a - c);
            }
        }
    }
    basis(n, b);
}

/// One exact trim curve in the piece's `(s, t)`: homogeneous Bézier points
/// (a polyline segment is a degree-1 curve).
#[derive(Debug, Clone)]
pub struct TrimArc {
    h: Vec<[f64; 3]>,
}

impl TrimArc {
    /// `(s, t)` and its derivative at `x ∈ [0, 1]`.
    pub fn eval(&self, x: f64) -> ([f64; 2], [f64; 2]) {
        let n = self.h.len() - 1;
        let (mut b, mut db) = ([0.0; MAX_DEGREE + 1], [0.0; MAX_DEGREE + 1]);
        bernstein(n, x, &mut b, Some(&mut db));
        let (mut a, mut d) = ([0.0; 3], [0.0; 3]);
        for (k, hp) in self.h.iter().enumerate() {
            for j in 0..3 {
                a[j] += b[k] * hp[j];
                d[j] += db[k] * hp[j];
            }
        }
        let st = [a[0] / a[2], a[1] / a[2]];
        let dst = [(d[0] - st[0] * d[2]) / a[2], (d[1] - st[1] * d[2]) / a[2]];
        (st, dst)
    }

    /// Degree.
    pub fn degree(&self) -> usize {
        self.h.len() - 1
    }
}

/// A piece ready for evaluation.
pub struct Patch<'s> {
    /// The piece.
    pub piece: &'s Piece,
    du: usize,
    dv: usize,
    /// Trim loops as exact curves (empty: the whole square is kept).
    pub loops: Vec<Vec<TrimArc>>,
    /// The loops as dense closed polylines in `(s, t)` (to pick samples).
    poly: Vec<Vec<[f64; 2]>>,
    /// Boundary samples: 3-D point, curve (loop, arc; `usize::MAX` loop for
    /// a side of the square) and parameter, in order along each curve.
    bd: Vec<(Vec3, usize, usize, f64)>,
}

/// Samples per arc for the polylines and boundary samples (times the degree).
const PER_DEGREE: usize = 8;

impl<'s> Patch<'s> {
    /// `None` when the degrees are out of range or the poles do not match.
    pub fn new(piece: &'s Piece) -> Option<Self> {
        let (du, dv) = (piece.degree_u as usize, piece.degree_v as usize);
        if du > MAX_DEGREE || dv > MAX_DEGREE || piece.poles.len() != (du + 1) * (dv + 1) {
            return None;
        }
        let mut loops = Vec::new();
        if !piece.fully_inside {
            for l in &piece.trim_loops {
                let mut arcs = Vec::new();
                for c in &l.curves {
                    match c {
                        TrimCurve::Polyline(v) => {
                            for w in v.windows(2) {
                                arcs.push(TrimArc {
                                    h: vec![[w[0][0], w[0][1], 1.0], [w[1][0], w[1][1], 1.0]],
                                });
                            }
                        }
                        TrimCurve::Bezier(h) => {
                            if h.is_empty() || h.len() > MAX_DEGREE + 1 || h.iter().any(|p| !(p[2] > 0.0)) {
                                return None;
                            }
                            if h.len() >= 2 {
                                arcs.push(TrimArc { h: h.clone() });
                            }
                        }
                    }
                }
                if !arcs.is_empty() {
                    loops.push(arcs);
                }
            }
        }
        let poly = loops
            .iter()
            .map(|l: &Vec<TrimArc>| {
                let mut pts = Vec::new();
                for a in l {
                    let m = PER_DEGREE * a.degree().max(1);
                    for i in 0..m {
                        pts.push(a.eval(i as f64 / m as f64).0);
                    }
                }
                pts
            })
            .collect();
        let mut p = Patch {
            piece,
            du,
            dv,
            loops,
            poly,
            bd: Vec::new(),
        };
        p.bd = p.boundary_samples();
        Some(p)
    }

    /// Whether the whole square is kept.
    pub fn untrimmed(&self) -> bool {
        self.loops.is_empty()
    }

    /// Point and first derivatives at `(s, t)`.
    pub fn eval(&self, s: f64, t: f64) -> (Vec3, Vec3, Vec3) {
        let (mut bu, mut dbu, mut bv, mut dbv) = (
            [0.0; MAX_DEGREE + 1],
            [0.0; MAX_DEGREE + 1],
            [0.0; MAX_DEGREE + 1],
            [0.0; MAX_DEGREE + 1],
        );
        bernstein(self.du, s, &mut bu, Some(&mut dbu));
        bernstein(self.dv, t, &mut bv, Some(&mut dbv));
        let (mut a, mut a_s, mut a_t) = ([0.0; 4], [0.0; 4], [0.0; 4]);
        for i in 0..=self.du {
            let row = &self.piece.poles[i * (self.dv + 1)..(i + 1) * (self.dv + 1)];
            let (mut r, mut rt) = ([0.0; 4], [0.0; 4]);
            for (j, h) in row.iter().enumerate() {
                for k in 0..4 {
                    r[k] += bv[j] * h[k];
                    rt[k] += dbv[j] * h[k];
                }
            }
            for k in 0..4 {
                a[k] += bu[i] * r[k];
                a_s[k] += dbu[i] * r[k];
                a_t[k] += bu[i] * rt[k];
            }
        }
        let p = Vec3::new(a[0], a[1], a[2]) / a[3];
        let ps = (Vec3::new(a_s[0], a_s[1], a_s[2]) - p * a_s[3]) / a[3];
        let pt = (Vec3::new(a_t[0], a_t[1], a_t[2]) - p * a_t[3]) / a[3];
        (p, ps, pt)
    }

    /// Point only.
    pub fn point(&self, s: f64, t: f64) -> Vec3 {
        self.eval(s, t).0
    }

    /// Even-odd test of `(s, t)` against the dense trim polylines.
    pub fn keeps(&self, s: f64, t: f64) -> bool {
        if self.untrimmed() {
            return true;
        }
        let mut inside = false;
        for l in &self.poly {
            let n = l.len();
            for i in 0..n {
                let (a, b) = (l[i], l[(i + 1) % n]);
                if (a[1] > t) != (b[1] > t) && s < a[0] + (t - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// `F(s, t) = ∫₀ˢ |P_s × P_t|(σ, t) dσ` with the Gauss rule `g` on `k`
    /// equal sub-intervals.
    fn f(&self, s: f64, t: f64, g: &[(f64, f64)], k: usize) -> f64 {
        let h = s / k as f64;
        let mut sum = 0.0;
        for i in 0..k {
            for &(x, w) in g {
                let (_, ps, pt) = self.eval(h * (i as f64 + x), t);
                sum += w * ps.cross(&pt).norm();
            }
        }
        sum * h
    }

    /// The kept part's area, mm², and an estimate of its quadrature error
    /// (the difference of a 5-point and an 8-point Gauss rule). The rules
    /// are composed over halved intervals while that estimate exceeds
    /// [`AREA_REL_ERR`] of the area (high-degree pieces: a 12 × 12 torus's
    /// pieces were 3 % over their exact area with the rules over halves),
    /// at most [`AREA_HALVINGS`] times.
    pub fn area(&self) -> (f64, f64) {
        let mut k = 1;
        loop {
            let (a, e) = self.area_composite(k);
            if e <= AREA_REL_ERR * a.abs() || k >= 1 << AREA_HALVINGS {
                return (a, e);
            }
            k *= 2;
        }
    }

    /// [`area`](Self::area) with each rule composed over `k` times its
    /// base number of intervals.
    fn area_composite(&self, k: usize) -> (f64, f64) {
        if self.untrimmed() {
            let tensor = |g: &[(f64, f64)], k: usize| {
                let h = 1.0 / k as f64;
                let mut sum = 0.0;
                for i in 0..k {
                    for j in 0..k {
                        for &(x, wx) in g {
                            for &(y, wy) in g {
                                let (_, ps, pt) = self.eval((i as f64 + x) * h, (j as f64 + y) * h);
                                sum += wx * wy * h * h * ps.cross(&pt).norm();
                            }
                        }
                    }
                }
                sum
            };
            let (a8, a5) = (tensor(&G8, 2 * k), tensor(&G5, 2 * k));
            return (a8, (a8 - a5).abs());
        }
        // per loop ∮ F dt, signed by the loop's direction
        let integral = |l: &[TrimArc], g: &[(f64, f64)]| {
            let mut sum = 0.0;
            for a in l {
                let n = k * (1 + a.degree() / 3);
                let h = 1.0 / n as f64;
                for i in 0..n {
                    for &(x, w) in g {
                        let (st, d) = a.eval((i as f64 + x) * h);
                        if d[1] != 0.0 {
                            sum += w * h * d[1] * self.f(st[0].clamp(0.0, 1.0), st[1].clamp(0.0, 1.0), g, k);
                        }
                    }
                }
            }
            sum
        };
        let mut a8 = 0.0;
        let mut a5 = 0.0;
        for (i, l) in self.loops.iter().enumerate() {
            // nesting depth of the loop among the others (even-odd), at its
            // point farthest from the square's sides (a loop clipped by a
            // side runs along it, and so may the loop around it: a point
            // there is on both and their even-odd test undecided)
            let q = self.poly[i]
                .iter()
                .copied()
                .max_by(|a, b| side_distance(*a).total_cmp(&side_distance(*b)))
                .unwrap_or([0.5, 0.5]);
            // (a loop all along the sides is the square itself: outermost)
            let depth = if side_distance(q) <= 1e-12 {
                0
            } else {
                self.poly
                    .iter()
                    .enumerate()
                    .filter(|&(j, pl)| j != i && inside_polyline(pl, q))
                    .count()
            };
            let sign = if depth % 2 == 0 { 1.0 } else { -1.0 };
            a8 += sign * integral(l, &G8).abs();
            a5 += sign * integral(l, &G5).abs();
        }
        (a8, (a8 - a5).abs())
    }

    /// Sample points of the kept part: an `n × n` grid of cell centres kept by
    /// the trim (and not within 1e-3 of it), plus `per_arc` points along each
    /// trim curve that bounds kept points (see `bounds_kept`; the four corners
    /// of an untrimmed piece).
    pub fn samples(&self, n: usize, per_arc: usize) -> Vec<([f64; 2], Vec3)> {
        let mut out = Vec::new();
        for i in 0..n {
            let t = (i as f64 + 0.5) / n as f64;
            for j in 0..n {
                let s = (j as f64 + 0.5) / n as f64;
                if self.untrimmed() || (self.keeps(s, t) && self.poly_distance(s, t) > 1e-3) {
                    out.push(([s, t], self.point(s, t)));
                }
            }
        }
        if self.untrimmed() {
            for (s, t) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                out.push(([s, t], self.point(s, t)));
            }
        } else {
            for l in &self.loops {
                for a in l {
                    for i in 0..per_arc {
                        let (st, d) = a.eval((i as f64 + 0.5) / per_arc as f64);
                        let (s, t) = (st[0].clamp(0.0, 1.0), st[1].clamp(0.0, 1.0));
                        if self.bounds_kept([s, t], d) {
                            out.push(([s, t], self.point(s, t)));
                        }
                    }
                }
            }
        }
        out
    }

    /// True when the trim curve through `st` (direction `d`) bounds kept
    /// points: the trim keeps a point of the square beside it, on either
    /// side, at 1e-7, 1e-5 or 1e-3 (the dense polylines the trim is kept by
    /// may lie off the exact curve by less than that). A clipped loop runs
    /// along the piece's sides, and where it closes part of a hole cut by
    /// a side (a hole of the face across the line where the pieces are cut)
    /// that run bounds no kept point: it is not part of the piece.
    fn bounds_kept(&self, st: [f64; 2], d: [f64; 2]) -> bool {
        let len = d[0].hypot(d[1]);
        if !(len > 0.0) {
            return true;
        }
        let n = [-d[1] / len, d[0] / len];
        [1e-7, 1e-5, 1e-3].iter().any(|&h| {
            [h, -h].iter().any(|&o| {
                let (s, t) = (st[0] + o * n[0], st[1] + o * n[1]);
                (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) && self.keeps(s, t)
            })
        })
    }

    /// Distance in `(s, t)` from a point to the dense trim polylines.
    fn poly_distance(&self, s: f64, t: f64) -> f64 {
        let mut best = f64::INFINITY;
        for l in &self.poly {
            let n = l.len();
            for i in 0..n {
                let (a, b) = (l[i], l[(i + 1) % n]);
                let d = [b[0] - a[0], b[1] - a[1]];
                let l2 = d[0] * d[0] + d[1] * d[1];
                let x = if l2 > 0.0 {
                    (((s - a[0]) * d[0] + (t - a[1]) * d[1]) / l2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                best = best.min((a[0] + x * d[0] - s).hypot(a[1] + x * d[1] - t));
            }
        }
        best
    }

    /// The boundary curve `c` (a trim arc, or side `k` of the square for
    /// `loop == usize::MAX`) at `x`: `(s, t)` and derivative.
    fn curve(&self, lp: usize, arc: usize, x: f64) -> ([f64; 2], [f64; 2]) {
        if lp == usize::MAX {
            match arc {
                0 => ([x, 0.0], [1.0, 0.0]),
                1 => ([1.0, x], [0.0, 1.0]),
                2 => ([x, 1.0], [1.0, 0.0]),
                _ => ([0.0, x], [0.0, 1.0]),
            }
        } else {
            self.loops[lp][arc].eval(x)
        }
    }

    fn boundary_samples(&self) -> Vec<(Vec3, usize, usize, f64)> {
        let mut out = Vec::new();
        let mut push = |lp: usize, arc: usize, m: usize| {
            for i in 0..=m {
                let x = i as f64 / m as f64;
                let (st, _) = self.curve(lp, arc, x);
                out.push((self.point(st[0].clamp(0.0, 1.0), st[1].clamp(0.0, 1.0)), lp, arc, x));
            }
        };
        if self.untrimmed() {
            for k in 0..4 {
                push(usize::MAX, k, PER_DEGREE * self.du.max(self.dv).max(1));
            }
        } else {
            for (i, l) in self.loops.iter().enumerate() {
                for (j, a) in l.iter().enumerate() {
                    push(i, j, PER_DEGREE * a.degree().max(1));
                }
            }
        }
        out
    }

    /// The boundary samples: 3-D point, curve (loop, arc) and parameter
    /// (the start points of [`Self::refine`]), in order along each curve.
    pub fn boundary_points(&self) -> &[(Vec3, usize, usize, f64)] {
        &self.bd
    }

    /// The boundary samples as [`SampledCurves`] of this piece alone, and
    /// the curve `(loop, arc)` of each curve id (tests).
    #[cfg(test)]
    fn sampled_boundary(&self) -> (SampledCurves, Vec<(usize, usize)>) {
        let mut ids: Vec<(usize, usize)> = Vec::new();
        let mut samples = Vec::with_capacity(self.bd.len());
        for &(q, lp, arc, x) in &self.bd {
            if ids.last() != Some(&(lp, arc)) {
                ids.push((lp, arc));
            }
            samples.push((q, ids.len() - 1, x));
        }
        (SampledCurves::new(samples), ids)
    }

    /// Bounds `(upper, lower)` of the distance from `p` to the boundary of
    /// the kept part: the nearest boundary sample and that distance less
    /// the samples' reach (tests).
    #[cfg(test)]
    pub fn distance_bounds(&self, p: &Vec3) -> (f64, f64) {
        let (curves, _) = self.sampled_boundary();
        let (_, ub, lb) = curves.distance_by_scan(p, f64::INFINITY, |_, _| f64::INFINITY);
        (ub, lb)
    }

    /// Distance from `p` to the boundary of the kept part, refined on the
    /// exact curves wherever it exceeds `good` (the reference of
    /// [`super::boundary::BoundaryIndex`] in tests: a scan of this piece's
    /// samples).
    #[cfg(test)]
    pub fn boundary_distance(&self, p: &Vec3, good: f64) -> f64 {
        let (curves, ids) = self.sampled_boundary();
        curves
            .distance_by_scan(p, good, |c, x| self.refine(ids[c].0, ids[c].1, x, p))
            .0
    }

    /// The distance from `p` to boundary curve `(lp, arc)` near its
    /// parameter `x0` ([`closest_on_curve`]).
    pub fn refine(&self, lp: usize, arc: usize, x0: f64, p: &Vec3) -> f64 {
        let eval = |x: f64| {
            let (st, dst) = self.curve(lp, arc, x);
            let (q, ps, pt) = self.eval(st[0].clamp(0.0, 1.0), st[1].clamp(0.0, 1.0));
            (q, ps * dst[0] + pt * dst[1])
        };
        closest_on_curve(eval, p, x0)
    }
}

/// Distance of `(s, t)` from the nearest side of the unit square.
fn side_distance(q: [f64; 2]) -> f64 {
    q[0].min(1.0 - q[0]).min(q[1]).min(1.0 - q[1])
}

/// Even-odd test of `q` against the closed polyline `pl`.
fn inside_polyline(pl: &[[f64; 2]], q: [f64; 2]) -> bool {
    let mut inside = false;
    let n = pl.len();
    for i in 0..n {
        let (a, b) = (pl[i], pl[(i + 1) % n]);
        if (a[1] > q[1]) != (b[1] > q[1]) && q[0] < a[0] + (q[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::scene::data::{Piece, TrimLoop};

    /// The square [0,2]×[0,3] of the plane z = 0 (bilinear), trimmed by `trim`.
    pub(in crate::verify) fn flat_piece(trim: Vec<TrimLoop>) -> Piece {
        // the square [0,2]×[0,3] of the plane z = 0, bilinear
        Piece {
            body: 0,
            source_face: 1,
            degree_u: 1,
            degree_v: 1,
            poles: vec![
                [0.0, 0.0, 0.0, 1.0],
                [0.0, 3.0, 0.0, 1.0],
                [2.0, 0.0, 0.0, 1.0],
                [2.0, 3.0, 0.0, 1.0],
            ],
            class: Default::default(),
            reversed: false,
            trimmed: !trim.is_empty(),
            fully_inside: false,
            domain: [0.0, 2.0, 0.0, 3.0],
            cone: Default::default(),
            bbox: Default::default(),
            trim_loops: trim,
            adjacency: Vec::new(),
            origin: None,
        }
    }

    /// The unit square's sides as the outer loop, and `hole` as the inner
    /// one, on [`flat_piece`].
    pub(in crate::verify) fn holed_piece(hole: Vec<TrimCurve>) -> Piece {
        let square = TrimCurve::Polyline(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]]);
        flat_piece(vec![
            TrimLoop {
                outer: true,
                curves: vec![square],
            },
            TrimLoop {
                outer: false,
                curves: hole,
            },
        ])
    }

    /// The triangular hole of the boundary-distance tests: its corner lies
    /// 0.05 mm from the middle of two samples of the side `t = 0`.
    pub(in crate::verify) fn triangle_hole() -> TrimCurve {
        TrimCurve::Polyline(vec![
            [0.0625, 0.05 / 3.0],
            [0.3, 0.3],
            [0.05, 0.3],
            [0.0625, 0.05 / 3.0],
        ])
    }

    #[test]
    fn bernstein_partition_of_unity() {
        let (mut b, mut db) = ([0.0; 16], [0.0; 16]);
        bernstein(3, 0.3, &mut b, Some(&mut db));
        assert!((b.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        assert!(db.iter().sum::<f64>().abs() < 1e-12);
    }

    #[test]
    fn a_high_degree_piece_s_area_is_refined_until_its_rules_agree() {
        // a wall of height 3 over a degree-12 zigzag curve c(u) in the plane
        // z = 0: its area is 3 × the curve's length, whose speed the base
        // rules (8 and 5 points on two halves) do not resolve
        let c: Vec<[f64; 2]> = (0..13)
            .map(|i| [i as f64, if i % 2 == 0 { 0.0 } else { 4.0 }])
            .collect();
        let mut piece = flat_piece(Vec::new());
        piece.degree_u = 12;
        piece.poles = c
            .iter()
            .flat_map(|p| [[p[0], p[1], 0.0, 1.0], [p[0], p[1], 3.0, 1.0]])
            .collect();
        // the exact length: composite Simpson on 200,000 intervals of the
        // hodograph's de Casteljau evaluation
        let speed = |u: f64| {
            let mut d: Vec<[f64; 2]> = c
                .windows(2)
                .map(|w| [12.0 * (w[1][0] - w[0][0]), 12.0 * (w[1][1] - w[0][1])])
                .collect();
            while d.len() > 1 {
                d = d
                    .windows(2)
                    .map(|w| [w[0][0] + u * (w[1][0] - w[0][0]), w[0][1] + u * (w[1][1] - w[0][1])])
                    .collect();
            }
            d[0][0].hypot(d[0][1])
        };
        let n = 200_000;
        let h = 1.0 / n as f64;
        let simpson: f64 = (0..n)
            .map(|i| {
                let a = i as f64 * h;
                h / 6.0 * (speed(a) + 4.0 * speed(a + 0.5 * h) + speed(a + h))
            })
            .sum();
        let exact = 3.0 * simpson;
        let p = Patch::new(&piece).unwrap();
        let (base, base_err) = p.area_composite(1);
        assert!(
            (base - exact).abs() > 1e-6 * exact && base_err > 1e-6 * exact,
            "{base} {base_err} {exact}"
        );
        let (a, e) = p.area();
        assert!(
            (a - exact).abs() < 1e-9 * exact && e < 1e-9 * exact,
            "{a} ± {e} vs {exact}"
        );
    }

    #[test]
    fn untrimmed_area_and_boundary() {
        let piece = flat_piece(Vec::new());
        let p = Patch::new(&piece).unwrap();
        let (a, e) = p.area();
        assert!((a - 6.0).abs() < 1e-12 && e < 1e-12, "{a} {e}");
        // a point 0.5 above the middle of the side s = 1 (x = 2)
        let d = p.boundary_distance(&Vec3::new(2.0, 1.3, 0.5), 0.0);
        assert!((d - 0.5).abs() < 1e-12, "{d}");
    }

    #[test]
    fn boundary_distance_refines_a_sparsely_sampled_curve() {
        // the outer loop: the square's sides as four segments (samples 0.25 mm
        // apart along x); a triangular hole whose corner lies 0.05 mm from
        // the point q = (0.125, 0, 0), which is on the side t = 0 half-way
        // between two of its samples (0.125 mm from both): the side's exact
        // curve must win over the hole's nearer sample
        let piece = holed_piece(vec![triangle_hole()]);
        let p = Patch::new(&piece).unwrap();
        let q = Vec3::new(0.125, 0.0, 0.0);
        let (ub, lb) = p.distance_bounds(&q);
        assert!((ub - 0.05).abs() < 1e-12 && lb == 0.0, "{ub} {lb}");
        let d = p.boundary_distance(&q, 1e-9);
        assert!(d < 1e-12, "{d}");
        // a point 0.01 mm above the plane there: exactly 0.01 from the side
        let d = p.boundary_distance(&Vec3::new(0.125, 0.0, 0.01), 1e-9);
        assert!((d - 0.01).abs() < 1e-12, "{d}");
    }

    #[test]
    fn no_samples_on_a_clipped_run_that_bounds_no_kept_point() {
        // a hole cut by the side s = 1 (where the face's pieces are cut): the
        // piece's inner loop is the half hole, closed by a run along the side
        // from t = 0.7 to t = 0.3 that bounds the hole on both sides of it
        let half_hole = TrimCurve::Polyline(vec![[1.0, 0.3], [0.6, 0.3], [0.6, 0.7], [1.0, 0.7]]);
        let run = TrimCurve::Polyline(vec![[1.0, 0.7], [1.0, 0.3]]);
        let piece = holed_piece(vec![half_hole, run]);
        let p = Patch::new(&piece).unwrap();
        let samples = p.samples(4, 2);
        let on_run = samples
            .iter()
            .filter(|(st, _)| st[0] == 1.0 && st[1] > 0.3 && st[1] < 0.7)
            .count();
        assert_eq!(on_run, 0, "{samples:?}");
        // the half hole's own sides bound kept points: sampled
        let on_hole = samples
            .iter()
            .filter(|(st, _)| (st[0] - 0.6).abs() < 1e-12 && st[1] > 0.3 && st[1] < 0.7)
            .count();
        assert!(on_hole >= 1, "{samples:?}");
    }

    #[test]
    fn a_hole_cut_by_a_side_is_nested_by_its_inner_points() {
        // the hole [0.4, 0.6] × [0.6, 1] is cut by the side t = 1, and its
        // loop starts on that side, where the square's loop runs too: the
        // even-odd test there is undecided, at the loop's inner points not
        let hole = TrimCurve::Polyline(vec![[0.4, 1.0], [0.4, 0.6], [0.6, 0.6], [0.6, 1.0], [0.4, 1.0]]);
        let piece = holed_piece(vec![hole]);
        let p = Patch::new(&piece).unwrap();
        let (a, e) = p.area();
        // the map scales areas by 6
        let want = 6.0 * (1.0 - 0.2 * 0.4);
        assert!((a - want).abs() < 1e-12, "{a} vs {want} ± {e}");
    }

    #[test]
    fn exact_circle_trim_area() {
        // a hole: the rational quarter arcs of the circle of radius 0.25 about (0.5, 0.5)
        let r = 0.25;
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let c = [0.5, 0.5];
        let quarter = |k: usize| {
            let pts = [
                [r, 0.0],
                [r, r],
                [0.0, r],
                [-r, r],
                [-r, 0.0],
                [-r, -r],
                [0.0, -r],
                [r, -r],
                [r, 0.0],
            ];
            let p = |i: usize, w: f64| [(c[0] + pts[i][0]) * w, (c[1] + pts[i][1]) * w, w];
            TrimCurve::Bezier(vec![p(2 * k, 1.0), p(2 * k + 1, w), p(2 * k + 2, 1.0)])
        };
        let square = TrimCurve::Polyline(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]]);
        let piece = flat_piece(vec![
            TrimLoop {
                outer: true,
                curves: vec![square],
            },
            TrimLoop {
                outer: false,
                curves: (0..4).map(quarter).collect(),
            },
        ]);
        let p = Patch::new(&piece).unwrap();
        let (a, e) = p.area();
        // the map scales areas by 6
        let want = 6.0 * (1.0 - std::f64::consts::PI * r * r);
        assert!((a - want).abs() < 1e-10, "{a} vs {want} (err {e})");
        assert!(!p.keeps(0.5, 0.5) && p.keeps(0.1, 0.1));
        // a 3-D point on the hole's exact circle (x = 2(0.5 + 0.25 cos 30°), y = 3(0.5 + 0.25 sin 30°))
        let (cs, sn) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let q = Vec3::new(2.0 * (0.5 + r * cs), 3.0 * (0.5 + r * sn), 0.0);
        assert!(p.boundary_distance(&q, 0.0) < 1e-12);
    }
}

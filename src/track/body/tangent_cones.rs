//! Tangent cones of the far phase's piece cells: a test that a cell holds
//! no minimum of the body, so a cold query need not solve it.
//!
//! The distance from `q` to a piece `S(u, v)` has the parameter gradient
//! `g_u = (S − q)·S_u`, `g_v = (S − q)·S_v`. Over a cell, `S − q` points from
//! `q` into the cell's bounding ball (a cone of half-angle `asin(r / |c − q|)`
//! about `c − q`), and `S_u` lies in the cone of the cell's control-net
//! differences (a polynomial patch: `S_u = m Σ B (P_{i+1,j} − P_ij)`; a
//! rational one with positive weights: a non-negative combination of
//! `P_kl − P_ij`, `k > i`, since `b_k' b_i − b_k b_i' ≥ 0` for `k > i`). When
//! the two cones are strictly on one side of a right angle, `g_u` has one
//! strict sign over the closed cell ([`CellCones::monotone`]): the distance
//! grows along `u` everywhere on the cell (or shrinks), and the cell's
//! minimum lies on its side `u = u0` (or `u1`).
//!
//! **Why such a cell can be skipped** (SM-1988's tangent-cone argument,
//! applied to the distance): let `p*` be the body's nearest point and
//! suppose it lies in the closed cell, with `g_u > 0` there and the cell's
//! side `u = u0` inside the piece (`u0 > 0`). Moving from `p*` in `−u`
//! lowers the distance at first order; the move stays on the cell or
//! enters the cell beside it on the same piece (the side is inside the
//! piece), so it stays on the face unless `p*` lies on a trim curve — and
//! trim curves and edges are items of their own, whose cells the search
//! solves. So `p*` is not in this cell, and skipping it changes no answer.
//! The side must be inside the piece: across a piece's side a crease, a
//! collapsed side (a pole) or a B-rep edge could hold a minimum that is no
//! stationary point. A cone with a zero difference (a collapsed side, where
//! `S_u` vanishes and `g_u = 0`) is not used.
//!
//! **Seams** (issue 27, session 32). A piece side shared with a neighbouring
//! piece of the same face (a *seam*: the pieces are the Bézier patches of
//! one surface, adjacent in the face's parameters, `Adjacency` across the
//! side) does not stop the argument when the neighbour's derivative across
//! it keeps the sign: if `p*` lies on the cell's side `u = 1`, a seam to the
//! piece whose side `u = 0` continues it, moving from `p*` along that
//! piece's `u` stays on the face and changes the distance at the rate
//! `(p* − q)·S_u` of the *neighbour's* `S_u` there. So a cell touching a
//! seam keeps a second cone per direction ([`CellCones::across`]) holding
//! both its own differences and the neighbour's differences across the seam
//! over the cell's side (the two rows of poles there: `S_u` on the side
//! `u = 0` is a non-negative combination of `P_1j − P_0l`, all `j, l`, for
//! positive weights; `P_1j − P_0j` for a polynomial patch). When that wider
//! cone decides the sign, it holds on the cell and at every seam point of
//! its side (they lie in the cell's ball), so the cell may be skipped
//! towards the seam as towards a side inside the piece. No continuity of
//! the surface across the seam is assumed: a kink there (a knot of full
//! multiplicity) only widens the cone. On the dense freeform faces of
//! issue 27 (a blade in 6,484 pieces) a cell beside a piece's side was
//! kept only because the side was a seam.
//!
//! **Edge spans** are cells too ([`CellCones::of_span`]): the distance along
//! an edge `C(t)` changes at the rate `(C − q)·C'`, and `C'` over a Bézier
//! span lies in the cone of its polygon's differences (pairs `P_k − P_i`,
//! `k > i`, for a rational span). A span on which it is strictly monotone
//! towards an *interior* breakpoint of the edge, where the next span's
//! first difference keeps the sign, holds no minimum of the body (moving
//! along the edge lowers the distance); towards the edge's end (a vertex)
//! it is kept. An edge span has no side inside its item otherwise (its
//! `rect` has no `v` range).

use super::oriented::OrientedBox;
use crate::geom::{Hpoint, Vec3};

/// Relative allowance for rounding in the cones' angles.
const MARGIN: f64 = 1e-9;

/// A cone of directions: every direction `t` it holds has `t·axis ≥ cos`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cone {
    /// Unit axis (zero for no cone: the test is not made).
    pub axis: Vec3,
    /// Cosine of the half-angle (`> 0`).
    pub cos: f64,
    /// Sine of the half-angle.
    pub sin: f64,
}

impl Cone {
    /// No cone (the differences span a half-space or more, or one is zero).
    pub const NONE: Cone = Cone {
        axis: Vec3::new(0.0, 0.0, 0.0),
        cos: 0.0,
        sin: 1.0,
    };

    /// The cone about the normalised sum of `dirs`' unit vectors holding
    /// them all; [`NONE`](Self::NONE) when one is zero (relative to `scale`),
    /// not finite, or the half-angle is not below a right angle.
    pub fn holding(dirs: &[Vec3], scale: f64) -> Cone {
        let mut sum = Vec3::zeros();
        for d in dirs {
            let n = d.norm();
            if !(n > 1e-12 * scale && n.is_finite()) {
                return Cone::NONE;
            }
            sum += d / n;
        }
        let sn = sum.norm();
        if !(sn > 0.0 && sn.is_finite()) {
            return Cone::NONE;
        }
        let axis = sum / sn;
        let cos = dirs
            .iter()
            .map(|d| axis.dot(d) / d.norm())
            .fold(f64::INFINITY, f64::min)
            - MARGIN;
        if !(cos > MARGIN) {
            return Cone::NONE;
        }
        let cos = cos.min(1.0);
        Cone {
            axis,
            cos,
            sin: (1.0 - cos * cos).max(0.0).sqrt() + MARGIN,
        }
    }
}

/// A piece cell's bounding ball and the cones of its `S_u` and `S_v`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellCones {
    /// Centre of a ball holding the cell.
    pub centre: Vec3,
    /// Its radius.
    pub radius: f64,
    /// Cones of `S_u` and of `S_v`.
    pub tangent: [Cone; 2],
    /// Per direction, the cone of `S_u` (`S_v`) over the cell and across
    /// the seams its sides in that direction lie on ([`Cone::NONE`] when
    /// none of them is a seam); see the module doc.
    pub across: [Cone; 2],
    /// The cell's sides (`u = u0`, `u = u1`, `v = v0`, `v = v1`) that lie
    /// on a piece's seam covered by [`across`](Self::across).
    pub seam: [bool; 4],
}

impl CellCones {
    /// Cones that never answer (cells of edges and trim curves).
    pub const NONE: CellCones = CellCones {
        centre: Vec3::new(0.0, 0.0, 0.0),
        radius: f64::INFINITY,
        tangent: [Cone::NONE; 2],
        across: [Cone::NONE; 2],
        seam: [false; 4],
    };

    /// The cones of a cell whose sub-patch has degrees `(du, dv)` and the
    /// homogeneous control net `poles` (`du + 1` rows of `dv + 1`),
    /// polynomial (`rational` false: every weight equal) or rational
    /// (positive weights), inside the oriented box `bx`.
    pub fn of_patch(du: usize, dv: usize, poles: &[Hpoint], rational: bool, bx: &OrientedBox) -> CellCones {
        Self::of_patch_seams(du, dv, poles, rational, bx, &[])
    }

    /// [`of_patch`](Self::of_patch) for a cell whose sides `seams[i].0`
    /// (`0`–`3`: `u = u0`, `u = u1`, `v = v0`, `v = v1`) lie on seams, with
    /// the neighbour's derivative directions across each
    /// ([`seam_differences`]) over the cell's side: the cones
    /// [`across`](Self::across) (see the module doc).
    pub fn of_patch_seams(
        du: usize,
        dv: usize,
        poles: &[Hpoint],
        rational: bool,
        bx: &OrientedBox,
        seams: &[(usize, Vec<Vec3>)],
    ) -> CellCones {
        if poles.len() != (du + 1) * (dv + 1) || poles.iter().any(|h| !(h[3] > 0.0)) {
            return CellCones::NONE;
        }
        let pts = cartesian(poles);
        let scale = pts.iter().map(|p| p.amax()).fold(0.0f64, f64::max) + bx.half.amax();
        let degree = [du, dv];
        let tangent = [0, 1].map(|d| {
            if degree[d] == 0 {
                Cone::NONE
            } else {
                Cone::holding(&differences(du, dv, &pts, d, rational), scale)
            }
        });
        let mut across = [Cone::NONE; 2];
        let mut seam = [false; 4];
        for d in 0..2 {
            let mine: Vec<&(usize, Vec<Vec3>)> = seams.iter().filter(|(s, _)| s / 2 == d).collect();
            if mine.is_empty() || tangent[d].cos <= 0.0 {
                continue;
            }
            let mut dirs = differences(du, dv, &pts, d, rational);
            for (_, extra) in &mine {
                dirs.extend_from_slice(extra);
            }
            across[d] = Cone::holding(&dirs, scale);
            if across[d].cos > 0.0 {
                for (s, _) in &mine {
                    seam[*s] = true;
                }
            }
        }
        CellCones {
            centre: bx.center,
            radius: bx.half.norm() * (1.0 + MARGIN),
            tangent,
            across,
            seam,
        }
    }

    /// The cones of span `j` of an edge held as the homogeneous Bézier
    /// polygons `spans` (in order along the edge, one degree), rational or
    /// not, inside the oriented box `bx`: the cone of `C'` over the span,
    /// and across each interior breakpoint where the next span starts at
    /// the span's end, the cone also holding the neighbour's first (last)
    /// difference there (see the module doc).
    pub fn of_span(spans: &[Vec<Hpoint>], j: usize, rational: bool, bx: &OrientedBox) -> CellCones {
        let Some(own) = spans.get(j) else {
            return CellCones::NONE;
        };
        let p = own.len().wrapping_sub(1);
        if own.is_empty() || p == 0 || spans.iter().flatten().any(|h| !(h[3] > 0.0)) {
            return CellCones::NONE;
        }
        let pts = cartesian(own);
        let scale = pts.iter().map(|p| p.amax()).fold(0.0f64, f64::max) + bx.half.amax();
        let mut dirs = differences(p, 0, &pts, 0, rational);
        let tangent = Cone::holding(&dirs, scale);
        // the neighbours continuing the span at its ends: (side, their difference there)
        let meets = |a: &Vec3, b: &Vec3| (a - b).amax() <= 1e-12 * scale;
        let mut ends = [false; 2];
        if j > 0 {
            let prev = cartesian(&spans[j - 1]);
            if prev.len() == p + 1 && meets(&prev[p], &pts[0]) {
                dirs.push(prev[p] - prev[p - 1]);
                ends[0] = true;
            }
        }
        if let Some(next) = spans.get(j + 1).map(|n| cartesian(n)) {
            if next.len() == p + 1 && meets(&next[0], &pts[p]) {
                dirs.push(next[1] - next[0]);
                ends[1] = true;
            }
        }
        let across = if tangent.cos > 0.0 && (ends[0] || ends[1]) {
            Cone::holding(&dirs, scale)
        } else {
            Cone::NONE
        };
        let ok = across.cos > 0.0;
        CellCones {
            centre: bx.center,
            radius: bx.half.norm() * (1.0 + MARGIN),
            tangent: [tangent, Cone::NONE],
            across: [across, Cone::NONE],
            seam: [ok && ends[0], ok && ends[1], false, false],
        }
    }

    /// How the distance from `q` changes along each parameter over the
    /// whole closed cell: `[u, v]`, each `Some(up)` when it is strictly
    /// monotone along that parameter, with `up` when it *falls* as the
    /// parameter grows (the cell's minimum then lies on its upper side in
    /// it), `None` when the cones do not decide.
    #[inline]
    pub fn monotone(&self, q: &Vec3) -> [Option<bool>; 2] {
        let mut out = [None; 2];
        let Some(s) = self.sight(q) else {
            return out;
        };
        for (o, t) in out.iter_mut().zip(&self.tangent) {
            *o = s.sign(t);
        }
        out
    }

    /// The cone of `S − q` over the cell (`None` when `q` is in its ball).
    #[inline]
    fn sight(&self, q: &Vec3) -> Option<Sight> {
        let e = self.centre - q;
        let l = e.norm();
        if !(l > self.radius) {
            return None;
        }
        // half-angle γ with sin γ = r / l
        let sg = self.radius / l;
        Some(Sight {
            e,
            l,
            sg,
            cg: (1.0 - sg * sg).sqrt(),
        })
    }

    /// Whether a cell with parameter rectangle `rect` (`[u0, u1, v0, v1]`
    /// in its piece's `[0,1]²`) holds no minimum of the body for `q`: the
    /// distance is strictly monotone over it along `u` or `v`
    /// ([`monotone`](Self::monotone)) towards a side inside the piece, or
    /// towards a seam across which the neighbour's derivative keeps the
    /// sign ([`across`](Self::across); see the module doc).
    #[inline]
    pub fn excludes(&self, rect: &[f64; 4], q: &Vec3) -> bool {
        let Some(s) = self.sight(q) else {
            return false;
        };
        (0..2).any(|k| match s.sign(&self.tangent[k]) {
            Some(up) => {
                // falls towards the upper side (`up`) or the lower one
                let side = 2 * k + usize::from(up);
                // (an edge span's rect has no `v` range and no side inside
                // its item: only its interior breakpoints, as seams)
                let inside = rect[2] < rect[3] && if up { rect[side] < 1.0 } else { rect[side] > 0.0 };
                inside || (self.seam[side] && s.sign(&self.across[k]) == Some(up))
            }
            None => false,
        })
    }
}

/// The cone of `S − q` over a cell seen from `q`: `e = centre − q`, `l = |e|`,
/// and the sine and cosine of its half-angle.
struct Sight {
    e: Vec3,
    l: f64,
    sg: f64,
    cg: f64,
}

impl Sight {
    /// The sign of `(S − q)·t` for every `S − q` in this cone and `t` in the
    /// cone `t`: `Some(true)` when negative (the distance falls along `t`),
    /// `None` when the cones do not decide.
    #[inline]
    fn sign(&self, t: &Cone) -> Option<bool> {
        if t.cos <= 0.0 {
            return None;
        }
        // γ + β below a right angle, and |cos θ| > sin(γ + β)
        if self.cg * t.cos - self.sg * t.sin <= MARGIN {
            return None;
        }
        let c = self.e.dot(&t.axis) / self.l;
        let s = self.sg * t.cos + self.cg * t.sin + MARGIN;
        (c.abs() > s).then_some(c < 0.0)
    }
}

/// Cartesian points of homogeneous poles.
fn cartesian(poles: &[Hpoint]) -> Vec<Vec3> {
    poles
        .iter()
        .map(|h| Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]))
        .collect()
}

/// Control-net differences along `u` (`d = 0`) or `v` (`d = 1`) of a net of
/// Cartesian points `pts` (`du + 1` rows of `dv + 1`): `S_u` (`S_v`) over
/// the patch is a non-negative combination of them (see the module doc).
fn differences(du: usize, dv: usize, pts: &[Vec3], d: usize, rational: bool) -> Vec<Vec3> {
    let at = |i: usize, j: usize| pts[i * (dv + 1) + j];
    let (n, m) = if d == 0 { (du, dv) } else { (dv, du) };
    let p = |a: usize, b: usize| if d == 0 { at(a, b) } else { at(b, a) };
    let mut out = Vec::new();
    for a in 0..n {
        for b in 0..=m {
            if rational {
                for a2 in a + 1..=n {
                    for b2 in 0..=m {
                        out.push(p(a2, b2) - p(a, b));
                    }
                }
            } else {
                out.push(p(a + 1, b) - p(a, b));
            }
        }
    }
    out
}

/// The directions `S_u` (sides `0`, `1`: `u = 0`, `u = 1`) or `S_v` (sides
/// `2`, `3`) of a patch on its side `side` are non-negative combinations of:
/// the differences between the side's row of poles and the next row in
/// (from the inner row to the side's row at an upper side, from the side's
/// row to the inner row at a lower one, so each points along the parameter);
/// all pairs of the two rows for a rational net (positive weights: `S_u` at
/// `u = 0` is `Σ B_j B_l w_1j w_0l (P_1j − P_0l)` over `W²`), the pairs of
/// one column for a polynomial one. Empty for a degree-0 direction.
pub fn seam_differences(du: usize, dv: usize, poles: &[Hpoint], side: usize, rational: bool) -> Vec<Vec3> {
    let pts = cartesian(poles);
    let at = |i: usize, j: usize| pts[i * (dv + 1) + j];
    let (n, m) = if side < 2 { (du, dv) } else { (dv, du) };
    if n == 0 || pts.len() != (du + 1) * (dv + 1) {
        return Vec::new();
    }
    // row `a` of the net along the side's direction, entry `b`
    let p = |a: usize, b: usize| if side < 2 { at(a, b) } else { at(b, a) };
    // the side's row and the next one in, ordered along the parameter
    let (lo, hi) = if side % 2 == 0 { (0, 1) } else { (n - 1, n) };
    let mut out = Vec::new();
    for b in 0..=m {
        if rational {
            for b2 in 0..=m {
                out.push(p(hi, b) - p(lo, b2));
            }
        } else {
            out.push(p(hi, b) - p(lo, b));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bicubic polynomial patch `(x, y, h(x, y))` over `[x0, x0 + w] × [y0, y0 + w]`.
    fn graph(x0: f64, y0: f64, w: f64, h: impl Fn(f64, f64) -> f64) -> Vec<Hpoint> {
        // the control net of a graph whose height is sampled at the Greville
        // points is not exact for a general h; use bilinear h (exact in any degree)
        let mut poles = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                let (x, y) = (x0 + w * i as f64 / 3.0, y0 + w * j as f64 / 3.0);
                poles.push([x, y, h(x, y), 1.0]);
            }
        }
        poles
    }

    fn eval(poles: &[Hpoint], u: f64, v: f64) -> (Vec3, Vec3, Vec3) {
        let b = |t: f64| [(1.0 - t).powi(3), 3.0 * t * (1.0 - t).powi(2), 3.0 * t * t * (1.0 - t), t.powi(3)];
        let db = |t: f64| {
            [
                -3.0 * (1.0 - t).powi(2),
                3.0 * (1.0 - t).powi(2) - 6.0 * t * (1.0 - t),
                6.0 * t * (1.0 - t) - 3.0 * t * t,
                3.0 * t * t,
            ]
        };
        let (bu, bv, dbu, dbv) = (b(u), b(v), db(u), db(v));
        let (mut s, mut su, mut sv) = (Vec3::zeros(), Vec3::zeros(), Vec3::zeros());
        for i in 0..4 {
            for j in 0..4 {
                let h = poles[i * 4 + j];
                let p = Vec3::new(h[0], h[1], h[2]);
                s += p * (bu[i] * bv[j]);
                su += p * (dbu[i] * bv[j]);
                sv += p * (bu[i] * dbv[j]);
            }
        }
        (s, su, sv)
    }

    #[test]
    fn monotone_cells_have_a_one_signed_gradient() {
        // a tilted plane cut into 1 × 1 cells, queries above and beside it
        let h = |x: f64, y: f64| 0.3 * x - 0.2 * y + 0.05 * x * y;
        let poles = graph(2.0, -1.0, 1.0, h);
        let (du, dv) = (3, 3);
        let bx = OrientedBox::of_patch(du, dv, &poles).unwrap();
        let cones = CellCones::of_patch(du, dv, &poles, false, &bx);
        let mut decided = 0;
        for q in [
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::new(10.0, -0.5, 1.0),
            Vec3::new(2.5, -0.5, 20.0),
            Vec3::new(-3.0, 4.0, -2.0),
            Vec3::new(2.5, 5.0, 0.5),
        ] {
            let m = cones.monotone(&q);
            let Some((k, up)) = (0..2).find_map(|k| m[k].map(|up| (k, up))) else {
                continue;
            };
            decided += 1;
            for a in 0..=10 {
                for b in 0..=10 {
                    let (s, su, sv) = eval(&poles, a as f64 / 10.0, b as f64 / 10.0);
                    let g = (s - q).dot(if k == 0 { &su } else { &sv });
                    assert!(if up { g < 0.0 } else { g > 0.0 }, "q {q:?} k {k} g {g}");
                }
            }
        }
        assert!(decided >= 3, "decided {decided}");
        // straight above the cell's middle: no direction is monotone
        let (mid, _, _) = eval(&poles, 0.5, 0.5);
        let (_, su, sv) = eval(&poles, 0.5, 0.5);
        assert_eq!(cones.monotone(&(mid + su.cross(&sv).normalize() * 3.0)), [None, None]);
    }

    #[test]
    fn only_sides_inside_the_piece_exclude() {
        let poles = graph(0.0, 0.0, 1.0, |x, _| 0.1 * x);
        let bx = OrientedBox::of_patch(3, 3, &poles).unwrap();
        let cones = CellCones::of_patch(3, 3, &poles, false, &bx);
        // far out along +x: the distance falls as u grows (the minimum on u = u1)
        let q = Vec3::new(30.0, 0.5, 3.0);
        assert_eq!(cones.monotone(&q)[0], Some(true));
        assert!(cones.excludes(&[0.25, 0.5, 0.0, 0.25], &q));
        // the upper side is the piece's side u = 1: a crease or an edge could hold the minimum
        assert!(!cones.excludes(&[0.75, 1.0, 0.0, 0.25], &q));
    }

    /// A bicubic net with rows along `u` from the points `row(i, j)`.
    fn net(row: impl Fn(usize, usize) -> [f64; 3]) -> Vec<Hpoint> {
        let mut poles = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                let p = row(i, j);
                poles.push([p[0], p[1], p[2], 1.0]);
            }
        }
        poles
    }

    #[test]
    fn a_seam_excludes_only_where_the_neighbour_keeps_the_sign() {
        // the cell: a gently sloped patch over [0, 1] × [0, 1] (its whole
        // piece, so every side is a piece side); across u = 1 either a
        // smooth continuation or a steep crease rising in z
        let a = net(|i, j| [i as f64 / 3.0, j as f64 / 3.0, 0.1 * i as f64 / 3.0]);
        let smooth = net(|i, j| [1.0 + i as f64 / 3.0, j as f64 / 3.0, 0.1 + 0.1 * i as f64 / 3.0]);
        let crease = net(|i, j| [1.0 + 0.3 * i as f64 / 3.0, j as f64 / 3.0, 0.1 + 2.0 * i as f64 / 3.0]);
        let bx = OrientedBox::of_patch(3, 3, &a).unwrap();
        let rect = [0.0, 1.0, 0.0, 1.0];
        let plain = CellCones::of_patch(3, 3, &a, false, &bx);
        let (mut by_seam, mut refused) = (0, 0);
        for (b, is_smooth) in [(&smooth, true), (&crease, false)] {
            let seam = seam_differences(3, 3, b, 0, false);
            let cones = CellCones::of_patch_seams(3, 3, &a, false, &bx, &[(1, seam)]);
            assert!(cones.seam[1] && !cones.seam[0]);
            for k in 0..400 {
                let q = Vec3::new(
                    -6.0 + 0.75 * (k % 20) as f64,
                    0.5,
                    -6.0 + 0.6 * (k / 20) as f64,
                );
                // the plain rule never excludes a cell that is its whole piece
                assert!(!plain.excludes(&rect, &q));
                let falls_to_seam = cones.monotone(&q)[0] == Some(true);
                if !cones.excludes(&rect, &q) {
                    refused += usize::from(falls_to_seam && !is_smooth);
                    continue;
                }
                by_seam += 1;
                // brute force: the distance falls along u over the cell and
                // along the neighbour's u at every seam point
                for t in 0..=10 {
                    let t = t as f64 / 10.0;
                    for s in 0..=10 {
                        let (p, su, _) = eval(&a, s as f64 / 10.0, t);
                        assert!((p - q).dot(&su) < 0.0, "q {q:?}");
                    }
                    let (p, su, _) = eval(b, 0.0, t);
                    assert!((p - q).dot(&su) < 0.0, "q {q:?} smooth {is_smooth}");
                }
            }
        }
        assert!(by_seam >= 20, "excluded across the seam {by_seam}");
        // the crease turns the neighbour's derivative against some of them
        assert!(refused >= 5, "refused at the crease {refused}");
        // a fold (the neighbour running back along −x) spans more than a
        // half-space with the cell's differences: no seam cone
        let fold = net(|i, j| [1.0 - 0.5 * i as f64 / 3.0, j as f64 / 3.0, 0.1 + 0.5 * i as f64 / 3.0]);
        let folded = CellCones::of_patch_seams(3, 3, &a, false, &bx, &[(1, seam_differences(3, 3, &fold, 0, false))]);
        assert!(!folded.seam[1]);
    }

    #[test]
    fn an_edge_span_is_excluded_only_towards_an_interior_breakpoint() {
        // two cubic spans: a gentle arc from (0,0,0) to (2,0,0) through (1,0,0.2)
        let spans = vec![
            vec![[0.0, 0.0, 0.0, 1.0], [0.3, 0.0, 0.1, 1.0], [0.7, 0.0, 0.2, 1.0], [1.0, 0.0, 0.2, 1.0]],
            vec![[1.0, 0.0, 0.2, 1.0], [1.3, 0.0, 0.2, 1.0], [1.7, 0.0, 0.1, 1.0], [2.0, 0.0, 0.0, 1.0]],
        ];
        let pts = |j: usize| spans[j].iter().map(|h| Vec3::new(h[0], h[1], h[2])).collect::<Vec<_>>();
        let bx = OrientedBox::of_curve(&spans[0]).unwrap();
        let cones = CellCones::of_span(&spans, 0, false, &bx);
        assert!(cones.seam[1] && !cones.seam[0]);
        // the edge's parameter over [0, 2]: span 0 is [0, 1] (no v range)
        let rect = [0.0, 1.0, 0.0, 0.0];
        // far out beyond the breakpoint: the distance falls along span 0 and
        // on into span 1 (the edge's minimum is on span 1)
        let q = Vec3::new(1.8, 0.5, 1.0);
        assert_eq!(cones.monotone(&q)[0], Some(true));
        assert!(cones.excludes(&rect, &q));
        // far out before the start: falls towards t = 0, the edge's end (a vertex)
        let q0 = Vec3::new(-5.0, 0.2, 0.0);
        assert_eq!(cones.monotone(&q0)[0], Some(false));
        assert!(!cones.excludes(&rect, &q0));
        // brute force over a grid of queries: an excluded span's distance
        // falls along it, and along the next span's start
        let bez = |p: &[Vec3], t: f64| {
            let s = 1.0 - t;
            let c = p[0] * (s * s * s) + p[1] * (3.0 * s * s * t) + p[2] * (3.0 * s * t * t) + p[3] * (t * t * t);
            let d = (p[1] - p[0]) * (3.0 * s * s) + (p[2] - p[1]) * (6.0 * s * t) + (p[3] - p[2]) * (3.0 * t * t);
            (c, d)
        };
        let mut excluded = 0;
        for k in 0..400 {
            let q = Vec3::new(-3.0 + 0.4 * (k % 20) as f64, 0.3, -3.0 + 0.4 * (k / 20) as f64);
            if !cones.excludes(&rect, &q) {
                continue;
            }
            excluded += 1;
            for t in 0..=20 {
                let (c, d) = bez(&pts(0), t as f64 / 20.0);
                assert!((c - q).dot(&d) < 0.0, "q {q:?}");
            }
            let (c, d) = bez(&pts(1), 0.0);
            assert!((c - q).dot(&d) < 0.0, "q {q:?}");
        }
        assert!(excluded >= 10, "excluded {excluded}");
        // a span whose next span does not start at its end is no seam
        let mut gap = spans.clone();
        gap[1][0][2] = 0.5;
        assert!(!CellCones::of_span(&gap, 0, false, &bx).seam[1]);
    }

    #[test]
    fn collapsed_sides_and_bad_nets_give_no_cone() {
        // the side v = 0 collapsed to one point: S_u vanishes there
        let mut poles = graph(0.0, 0.0, 1.0, |_, _| 0.0);
        for i in 0..4 {
            poles[i * 4] = [0.0, 0.0, 0.0, 1.0];
        }
        let bx = OrientedBox::of_patch(3, 3, &poles).unwrap();
        let cones = CellCones::of_patch(3, 3, &poles, false, &bx);
        assert_eq!(cones.tangent[0], Cone::NONE);
        assert!(cones.tangent[1].cos > 0.0);
        let bad = CellCones::of_patch(3, 3, &poles[..4], false, &bx);
        assert_eq!(bad, CellCones::NONE);
        assert_eq!(CellCones::NONE.monotone(&Vec3::new(1.0, 2.0, 3.0)), [None, None]);
    }

    #[test]
    fn rational_cones_hold_the_derivative() {
        // a quarter circle in u (weights 1, 1/√2, 1) extruded in v
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let mut poles = Vec::new();
        for (p, wt) in [([1.0, 0.0], 1.0), ([1.0, 1.0], w), ([0.0, 1.0], 1.0)] {
            for z in [0.0, 1.0] {
                poles.push([p[0] * wt, p[1] * wt, z * wt, wt]);
            }
        }
        let bx = OrientedBox::of_patch(2, 1, &poles).unwrap();
        let cones = CellCones::of_patch(2, 1, &poles, true, &bx);
        let t = cones.tangent[0];
        assert!(t.cos > 0.0);
        for a in 0..=20 {
            let ang = std::f64::consts::FRAC_PI_2 * a as f64 / 20.0;
            let su = Vec3::new(-ang.sin(), ang.cos(), 0.0);
            assert!(su.dot(&t.axis) >= t.cos - 1e-12, "angle {ang}");
        }
    }
}

//! Convexity classification of rational Bézier patches w.r.t. the outward
//! normal, decided from Bernstein coefficients.
//!
//! With the homogeneous patch `P = (w·x, w·y, w·z, w)` (degree `(p, q)`), the
//! 4×4 determinants
//!
//! ```text
//! L̃ = det[P_ss, P_s, P_t, P],  M̃ = det[P_st, P_s, P_t, P],  Ñ = det[P_tt, P_s, P_t, P]
//! ```
//!
//! equal `w⁴·|f_s × f_t|` times the second fundamental form coefficients
//! `L, M, N` w.r.t. the unit normal `(f_s × f_t)/|f_s × f_t|` (subtract
//! multiples of the last column to see it). They are polynomials, computed
//! exactly (up to floating-point rounding) in Bernstein form by products;
//! `K̃ = L̃Ñ − M̃²` has the sign of the Gaussian curvature. With `σ = ±1` the
//! orientation of the outward normal, a patch is
//!
//! - **planar** when every coefficient of `L̃, M̃, Ñ` is below the tolerance;
//! - **convex** when `K̃ ≥ 0`, `σL̃ ≤ 0`, `σÑ ≤ 0` (second fundamental form
//!   negative semidefinite w.r.t. the outward normal) on all coefficients;
//! - **concave** when `K̃ ≥ 0`, `σL̃ ≥ 0`, `σÑ ≥ 0`;
//! - **saddle** when `K̃ ≤ 0` on all coefficients (and not `K̃ ≡ 0`);
//! - otherwise undecided: the patch is halved (alternating directions) and
//!   the halves classified, down to [`ConvexityOptions::max_depth`] levels
//!   (minimum piece size `2^(−max_depth/2)` of a Bézier span per direction),
//!   below which it is **mixed**. The halves are then joined again where
//!   that loses nothing the runtime needs (the classes are pointwise
//!   conditions, and only convex pieces must be nice): halves of one class
//!   become one piece of that class; a part with no convex or planar leaf
//!   becomes one piece of their common class, else mixed; a part at least
//!   [`ConvexityOptions::merge_depth`] halvings deep that is not of one
//!   class becomes one **mixed** piece (small convex bits of a freeform
//!   span get no pieces of their own).
//!
//! "≤ 0" means "≤ tol", with `tol = rel_tol × (Hadamard bound of the
//! determinant)` — the patch is translated to its first pole first, so the
//! bound is independent of the position.
//! This absorbs the rounding of the coefficient arithmetic (a few ulps of the
//! bound); curvature below it counts as zero. `K̃`'s tolerance is the
//! error a product of numerators within those tolerances can have
//! (`tol·(|L̃| + |Ñ| + 2|M̃|)`, see `Forms::decide`); the square of the bound
//! used before session 12 let thin patches with a clearly negative `K̃`
//! pass as convex or concave.

use crate::geom::bernstein::{coordinate_polys, split_u, split_v, Poly};
use crate::geom::Hpoint;
use crate::scene::data::ConvexityClass;

/// Tuning of the classification.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConvexityOptions {
    /// Relative tolerance of the sign tests.
    pub rel_tol: f64,
    /// Maximum number of halvings of one Bézier span.
    pub max_depth: u32,
    /// Halvings below which a part of a span that is not all convex (or
    /// all planar) is kept as one piece: its convex leaves smaller than
    /// that part are stored inside a mixed piece instead of on their own.
    pub merge_depth: u32,
}

impl Default for ConvexityOptions {
    fn default() -> Self {
        Self {
            rel_tol: 1e-10,
            max_depth: 8,
            merge_depth: 2,
        }
    }
}

/// A classified sub-patch of a Bézier span.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassifiedPatch {
    /// `[s0, s1, t0, t1]` inside the span's `[0,1]²`.
    pub rect: [f64; 4],
    /// Homogeneous poles of the sub-patch on its own `[0,1]²`.
    pub cw: Vec<Hpoint>,
    /// Class.
    pub class: ConvexityClass,
}

type Vec4P = [Poly; 4];

/// The six 2×2 minors `x_i y_j − x_j y_i` (`i < j`) of two polynomial 4-vectors.
fn minors(x: &Vec4P, y: &Vec4P) -> [Poly; 6] {
    let m = |i: usize, j: usize| x[i].mul(&y[j]).add_scaled(&x[j].mul(&y[i]), -1.0);
    [m(0, 1), m(0, 2), m(0, 3), m(1, 2), m(1, 3), m(2, 3)]
}

/// Row pairs of [`minors`] and the complementary pair's index.
const PAIRS: [((usize, usize), usize); 6] = [
    ((0, 1), 5),
    ((0, 2), 4),
    ((0, 3), 3),
    ((1, 2), 2),
    ((1, 3), 1),
    ((2, 3), 0),
];

/// `det[a, b, c, d]` (columns) by Laplace expansion along the first two
/// columns, with the minors of `(c, d)` given (shared by the three forms).
fn det4_minors(a: &Vec4P, b: &Vec4P, cd: &[Poly; 6]) -> Poly {
    let ab = minors(a, b);
    let mut acc: Option<Poly> = None;
    for (k, &((i, j), comp)) in PAIRS.iter().enumerate() {
        let sign = if (i + j + 1) % 2 == 0 { 1.0 } else { -1.0 };
        let t = ab[k].mul(&cd[comp]);
        acc = Some(match acc {
            None => {
                let mut t = t;
                t.c.iter_mut().for_each(|x| *x *= sign);
                t
            }
            Some(s) => s.add_scaled(&t, sign),
        });
    }
    acc.unwrap_or_else(|| Poly::zero(0, 0))
}

#[cfg(test)]
fn det4(a: &Vec4P, b: &Vec4P, c: &Vec4P, d: &Vec4P) -> Poly {
    // Laplace expansion over the permutations of the rows (reference for the tests)
    let mut acc: Option<Poly> = None;
    let perms = permutations4();
    for (perm, sign) in perms {
        let t = a[perm[0]].mul(&b[perm[1]]).mul(&c[perm[2]]).mul(&d[perm[3]]);
        acc = Some(match acc {
            None => {
                let mut t = t;
                t.c.iter_mut().for_each(|x| *x *= sign);
                t
            }
            Some(s) => s.add_scaled(&t, sign),
        });
    }
    acc.unwrap_or_else(|| Poly::zero(0, 0))
}

#[cfg(test)]
fn permutations4() -> Vec<([usize; 4], f64)> {
    let mut out = Vec::with_capacity(24);
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let p = [a, b, c, d];
                    if a == b || a == c || a == d || b == c || b == d || c == d {
                        continue;
                    }
                    let mut inv = 0;
                    for i in 0..4 {
                        for j in i + 1..4 {
                            if p[i] > p[j] {
                                inv += 1;
                            }
                        }
                    }
                    out.push((p, if inv % 2 == 0 { 1.0 } else { -1.0 }));
                }
            }
        }
    }
    out
}

fn max_norm(v: &Vec4P) -> f64 {
    let n = v[0].c.len();
    (0..n)
        .map(|k| (0..4).map(|i| v[i].c.get(k).map_or(0.0, |x| x * x)).sum::<f64>().sqrt())
        .fold(0.0, f64::max)
}

/// Homogeneous poles translated so the first pole is at the origin.
pub fn centred(cw: &[Hpoint]) -> Vec<Hpoint> {
    let Some(f) = cw.first() else {
        return Vec::new();
    };
    let c = [f[0] / f[3], f[1] / f[3], f[2] / f[3]];
    cw.iter()
        .map(|h| [h[0] - h[3] * c[0], h[1] - h[3] * c[1], h[2] - h[3] * c[2], h[3]])
        .collect()
}

/// The second-fundamental-form numerators `(L̃, M̃, Ñ, K̃)` and the tolerance
/// bound of `L̃, M̃, Ñ`.
pub fn form_numerators(p: usize, q: usize, cw: &[Hpoint]) -> (Poly, Poly, Poly, Poly, f64) {
    let cw = centred(cw);
    let pp = coordinate_polys(p, q, &cw);
    let ps: Vec4P = std::array::from_fn(|k| pp[k].ds());
    let pt: Vec4P = std::array::from_fn(|k| pp[k].dt());
    let pss: Vec4P = std::array::from_fn(|k| ps[k].ds());
    let pst: Vec4P = std::array::from_fn(|k| ps[k].dt());
    let ptt: Vec4P = std::array::from_fn(|k| pt[k].dt());
    let cd = minors(&pt, &pp);
    let l = det4_minors(&pss, &ps, &cd);
    let m = det4_minors(&pst, &ps, &cd);
    let n = det4_minors(&ptt, &ps, &cd);
    let k = l.mul(&n).add_scaled(&m.mul(&m), -1.0);
    let second = max_norm(&pss).max(max_norm(&pst)).max(max_norm(&ptt));
    let bound = second * max_norm(&ps) * max_norm(&pt) * max_norm(&pp);
    (l, m, n, k, bound)
}

/// The Hadamard-type bound of `L̃, M̃, Ñ` of a patch (see
/// [`form_numerators`]), from its poles alone (no products).
fn hadamard_bound(p: usize, q: usize, cw: &[Hpoint]) -> f64 {
    let cw = centred(cw);
    let pp = coordinate_polys(p, q, &cw);
    let ps: Vec4P = std::array::from_fn(|k| pp[k].ds());
    let pt: Vec4P = std::array::from_fn(|k| pp[k].dt());
    let pss: Vec4P = std::array::from_fn(|k| ps[k].ds());
    let pst: Vec4P = std::array::from_fn(|k| ps[k].dt());
    let ptt: Vec4P = std::array::from_fn(|k| pt[k].dt());
    let second = max_norm(&pss).max(max_norm(&pst)).max(max_norm(&ptt));
    second * max_norm(&ps) * max_norm(&pt) * max_norm(&pp)
}

/// The form numerators of a patch, as restrictions of its Bézier span's.
///
/// On a sub-rectangle with sides `a, b` of the span the numerators of the
/// sub-patch (in its own parameters) are `a³b·L̃, a²b²·M̃, ab³·Ñ, a⁴b⁴·K̃`
/// of the restricted span ones. The sign tests of a sub-patch therefore use
/// the restricted polynomials with its own tolerances divided by those
/// factors: the same decisions as recomputing the numerators from the
/// sub-patch's poles, without the products.
struct Forms {
    l: Poly,
    m: Poly,
    n: Poly,
    k: Poly,
}

impl Forms {
    fn of(p: usize, q: usize, cw: &[Hpoint]) -> Self {
        let (l, m, n, k, _) = form_numerators(p, q, cw);
        Self { l, m, n, k }
    }

    /// The forms of the `[0,a]` and `[a,1]` halves in s (`in_t`: in t).
    fn split(&self, a: f64, in_t: bool) -> (Self, Self) {
        let sp = |x: &Poly| if in_t { x.split_t(a) } else { x.split_s(a) };
        let (l0, l1) = sp(&self.l);
        let (m0, m1) = sp(&self.m);
        let (n0, n1) = sp(&self.n);
        let (k0, k1) = sp(&self.k);
        (
            Self {
                l: l0,
                m: m0,
                n: n0,
                k: k0,
            },
            Self {
                l: l1,
                m: m1,
                n: n1,
                k: k1,
            },
        )
    }

    /// The class from the coefficient signs; `bound` is the sub-patch's own
    /// [`hadamard_bound`], `(a, b)` its sides in the span.
    fn decide(&self, sigma: f64, rel_tol: f64, bound: f64, a: f64, b: f64) -> Option<ConvexityClass> {
        let tol = rel_tol * bound;
        let (tol_l, tol_m, tol_n) = (tol / (a * a * a * b), tol / (a * a * b * b), tol / (a * b * b * b));
        let (l_max, m_max, n_max) = (self.l.max_abs(), self.m.max_abs(), self.n.max_abs());
        if l_max <= tol_l && m_max <= tol_m && n_max <= tol_n {
            return Some(ConvexityClass::Planar);
        }
        // `K̃ = L̃Ñ − M̃²` from numerators each within its tolerance: the
        // product's error is at most `tol_l |Ñ| + tol_n |L̃| + 2 tol_m |M̃|`
        // (plus the tolerances' own products). Scaling by the actual sizes
        // of the forms, not by the square of their bound, keeps a thin or
        // badly parameterised patch (bound ≫ |L̃|, |Ñ|) from passing a
        // clearly negative or positive Gaussian curvature as zero.
        let tol_k = tol_l * n_max + tol_n * l_max + 2.0 * tol_m * m_max + tol_l * tol_n + tol_m * tol_m;
        let (llo, lhi) = self.l.bounds();
        let (nlo, nhi) = self.n.bounds();
        let (klo, khi) = self.k.bounds();
        let (sl_lo, sl_hi) = if sigma > 0.0 { (llo, lhi) } else { (-lhi, -llo) };
        let (sn_lo, sn_hi) = if sigma > 0.0 { (nlo, nhi) } else { (-nhi, -nlo) };
        if klo >= -tol_k {
            if sl_hi <= tol_l && sn_hi <= tol_n {
                return Some(ConvexityClass::Convex);
            }
            if sl_lo >= -tol_l && sn_lo >= -tol_n {
                return Some(ConvexityClass::Concave);
            }
        }
        if khi <= tol_k && klo < -tol_k {
            return Some(ConvexityClass::Saddle);
        }
        None
    }
}

/// Class of one patch, `None` when the coefficient bounds do not decide it.
/// `sigma` = +1 when the outward normal is `f_s × f_t`, −1 when reversed.
pub fn classify_once(p: usize, q: usize, cw: &[Hpoint], sigma: f64, opts: &ConvexityOptions) -> Option<ConvexityClass> {
    Forms::of(p, q, cw).decide(sigma, opts.rel_tol, hadamard_bound(p, q, cw), 1.0, 1.0)
}

/// Classifies a Bézier patch, subdividing undecided parts.
///
/// The form numerators are computed once for the patch; halves get theirs
/// by de Casteljau subdivision of the numerators, tested against their own
/// tolerances (see `Forms`).
pub fn classify(p: usize, q: usize, cw: &[Hpoint], sigma: f64, opts: &ConvexityOptions) -> Vec<ClassifiedPatch> {
    let mut out = Vec::new();
    let forms = Forms::of(p, q, cw);
    rec(p, q, cw.to_vec(), forms, [0.0, 1.0, 0.0, 1.0], 0, sigma, opts, &mut out);
    merge_siblings(out)
}

#[allow(clippy::too_many_arguments)]
fn rec(
    p: usize,
    q: usize,
    cw: Vec<Hpoint>,
    forms: Forms,
    rect: [f64; 4],
    depth: u32,
    sigma: f64,
    opts: &ConvexityOptions,
    out: &mut Vec<ClassifiedPatch>,
) {
    let bound = hadamard_bound(p, q, &cw);
    let (a, b) = (rect[1] - rect[0], rect[3] - rect[2]);
    if let Some(class) = forms.decide(sigma, opts.rel_tol, bound, a, b) {
        out.push(ClassifiedPatch { rect, cw, class });
        return;
    }
    if depth >= opts.max_depth || !super::budget::charge(1) {
        out.push(ClassifiedPatch {
            rect,
            cw,
            class: ConvexityClass::Mixed,
        });
        return;
    }
    let [s0, s1, t0, t1] = rect;
    let start = out.len();
    if depth % 2 == 0 {
        let (a, b) = split_u(p, q, &cw, 0.5);
        let (fa, fb) = forms.split(0.5, false);
        let sm = 0.5 * (s0 + s1);
        rec(p, q, a, fa, [s0, sm, t0, t1], depth + 1, sigma, opts, out);
        rec(p, q, b, fb, [sm, s1, t0, t1], depth + 1, sigma, opts, out);
    } else {
        let (a, b) = split_v(p, q, &cw, 0.5);
        let (fa, fb) = forms.split(0.5, true);
        let tm = 0.5 * (t0 + t1);
        rec(p, q, a, fa, [s0, s1, t0, tm], depth + 1, sigma, opts, out);
        rec(p, q, b, fb, [s0, s1, tm, t1], depth + 1, sigma, opts, out);
    }
    // Only convex (and planar) pieces must be nice, and the classes are
    // pointwise conditions: halves of one class are kept whole as one piece
    // of that class; a part with no convex or planar leaf as one piece of
    // their common class or mixed; below `merge_depth` halvings any part
    // that is not of one class as one mixed piece.
    if let Some(class) = merged_class(&out[start..], depth >= opts.merge_depth) {
        out.truncate(start);
        out.push(ClassifiedPatch { rect, cw, class });
    }
}

/// The class of the union of `leaves` as one piece: their common class;
/// mixed when they differ and none is convex or planar, or when `deep`;
/// `None` otherwise (the leaves keep their own pieces).
fn merged_class(leaves: &[ClassifiedPatch], deep: bool) -> Option<ConvexityClass> {
    let first = leaves.first()?.class;
    if leaves.iter().all(|l| l.class == first) {
        return Some(first);
    }
    let nice = leaves
        .iter()
        .any(|l| matches!(l.class, ConvexityClass::Convex | ConvexityClass::Planar));
    (deep || !nice).then_some(ConvexityClass::Mixed)
}

/// Keeps the pieces as they are; only sorts them by rectangle for a
/// deterministic order.
fn merge_siblings(mut v: Vec<ClassifiedPatch>) -> Vec<ClassifiedPatch> {
    v.sort_by(|a, b| a.rect.partial_cmp(&b.rect).unwrap_or(std::cmp::Ordering::Equal));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::primitives;
    use crate::geom::Vec3;

    fn patches(m: &crate::geom::MappedSurface) -> Vec<crate::geom::BezierPatch> {
        m.surface.bezier_patches()
    }

    #[test]
    fn minor_expansion_equals_permutation_expansion() {
        let poly = |seed: usize, p: usize, q: usize| Poly {
            p,
            q,
            c: (0..(p + 1) * (q + 1))
                .map(|k| ((seed * 31 + k * 17) % 23) as f64 / 7.0 - 1.5)
                .collect(),
        };
        let v = |s: usize, p: usize, q: usize| -> Vec4P { std::array::from_fn(|k| poly(s * 4 + k, p, q)) };
        let (a, b, c, d) = (v(1, 1, 2), v(2, 2, 1), v(3, 2, 2), v(4, 3, 1));
        let want = det4(&a, &b, &c, &d);
        let got = det4_minors(&a, &b, &minors(&c, &d));
        assert_eq!((want.p, want.q), (got.p, got.q));
        for (x, y) in want.c.iter().zip(&got.c) {
            assert!((x - y).abs() <= 1e-9 * (1.0 + x.abs()), "{x} vs {y}");
        }
    }

    /// `f(s,t) = (εs, Wt, As² + Bst + Ct²)`: Gaussian curvature of the sign
    /// of `4AC − B²` everywhere. With `B² − 4AC` small and `W` large the
    /// square of the Hadamard bound (the tolerance of `K̃` before session
    /// 12) exceeded `|K̃|` and the hyperbolic patch passed as convex or
    /// concave; the product tolerance keeps it a saddle.
    #[test]
    fn thin_nearly_parabolic_saddle_is_not_convex() {
        let (eps, w, a, b, c) = (1.0, 600.0, 1.0, 2.00001, 1.0);
        let lin = [0.0, 0.5, 1.0];
        let sq = [0.0, 0.0, 1.0];
        let mut cw = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                let z = a * sq[i] + b * lin[i] * lin[j] + c * sq[j];
                cw.push([eps * lin[i] - 2000.0, w * lin[j] + 200.0, z + 135.0, 1.0]);
            }
        }
        let (l, m, n, k, bound) = form_numerators(2, 2, &cw);
        let o = ConvexityOptions::default();
        // the old tolerance would have called K̃ zero
        assert!(
            k.max_abs() < o.rel_tol * bound * bound,
            "{} vs {}",
            k.max_abs(),
            o.rel_tol * bound * bound
        );
        assert!(k.bounds().1 < 0.0, "K̃ coefficients {:?}", k.bounds());
        assert!(l.bounds().0 >= 0.0 && n.bounds().0 >= 0.0 && m.max_abs() > 0.0);
        for sigma in [1.0, -1.0] {
            assert_eq!(classify_once(2, 2, &cw, sigma, &o), Some(ConvexityClass::Saddle));
            for piece in classify(2, 2, &cw, sigma, &o) {
                assert_eq!(piece.class, ConvexityClass::Saddle);
            }
        }
    }

    #[test]
    fn sphere_is_convex_outside_concave_inside() {
        let ax = crate::geom::Frame::world();
        let m = primitives::sphere(&ax, 2.0, (0.0, 6.0), (-1.2, 1.3)).unwrap();
        let o = ConvexityOptions::default();
        for b in patches(&m) {
            let p = &b.patch;
            for c in classify(p.degree_u, p.degree_v, &p.cw, 1.0, &o) {
                assert_eq!(c.class, ConvexityClass::Convex);
            }
            for c in classify(p.degree_u, p.degree_v, &p.cw, -1.0, &o) {
                assert_eq!(c.class, ConvexityClass::Concave);
            }
        }
    }

    #[test]
    fn a_span_across_a_parabolic_line_keeps_few_pieces_that_tile_it() {
        // torus, v over the top circle (v = π/2): convex outside, saddle inside
        let ax = crate::geom::Frame::world();
        let m = primitives::torus(&ax, 5.0, 1.0, (0.0, 1.0), (0.0, 3.0)).unwrap();
        let o = ConvexityOptions::default();
        let mut classes = Vec::new();
        for b in patches(&m) {
            let p = &b.patch;
            let c = classify(p.degree_u, p.degree_v, &p.cw, 1.0, &o);
            let area: f64 = c
                .iter()
                .map(|c| (c.rect[1] - c.rect[0]) * (c.rect[3] - c.rect[2]))
                .sum();
            assert!((area - 1.0).abs() <= 1e-12, "area {area}");
            // at most the 2^merge_depth parts of depth merge_depth
            assert!(c.len() <= 1 << o.merge_depth, "{} pieces", c.len());
            classes.extend(c.iter().map(|c| c.class));
        }
        assert!(classes.contains(&ConvexityClass::Convex), "{classes:?}");
        assert!(classes.iter().any(|&c| c != ConvexityClass::Convex), "{classes:?}");
    }

    #[test]
    fn plane_cylinder_torus() {
        let ax = crate::geom::Frame {
            origin: Vec3::new(100.0, -50.0, 20.0),
            ..crate::geom::Frame::world()
        };
        let o = ConvexityOptions::default();
        let pl = primitives::plane_patch(&ax, (0.0, 3.0), (1.0, 2.0)).unwrap();
        for b in patches(&pl) {
            let c = classify(1, 1, &b.patch.cw, 1.0, &o);
            assert!(c.iter().all(|c| c.class == ConvexityClass::Planar));
        }
        let cy = primitives::cylinder(&ax, 3.0, (0.0, 6.2), (0.0, 5.0)).unwrap();
        for b in patches(&cy) {
            let p = &b.patch;
            let c = classify(p.degree_u, p.degree_v, &p.cw, 1.0, &o);
            assert!(c.iter().all(|c| c.class == ConvexityClass::Convex), "{c:?}");
        }
        // torus: outer half convex, inner half saddle
        let to = primitives::torus(&ax, 5.0, 1.0, (0.0, 1.0), (-1.0, 1.0)).unwrap();
        for b in patches(&to) {
            let p = &b.patch;
            for c in classify(p.degree_u, p.degree_v, &p.cw, 1.0, &o) {
                assert_eq!(c.class, ConvexityClass::Convex);
            }
        }
        let to = primitives::torus(&ax, 5.0, 1.0, (0.0, 1.0), (2.0, 4.0)).unwrap();
        for b in patches(&to) {
            let p = &b.patch;
            for c in classify(p.degree_u, p.degree_v, &p.cw, 1.0, &o) {
                assert_eq!(c.class, ConvexityClass::Saddle);
            }
        }
    }
}

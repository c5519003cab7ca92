//! **Crease crossings of a projected trim.** Where a 3-D curve crosses a
//! crease of its surface (a C0 parameter line,
//! [`surface_creases`](crate::import::eval::surface_creases)), its
//! projection is continuous but its face-parameter velocity jumps: across
//! a crease of an IGES 122 whose directrix's Bézier spans run at speeds
//! 20 times apart (iges_catia4_x28_tabcyl), `du/ds` jumps 20-fold. A
//! polynomial piece across the crossing cannot follow the kink, so
//! [`projected_chain`](super::projection::projected_chain) ends its pieces
//! at each crossing [`crease_crossings`] finds: the curve parameter solved
//! on the 3-D curve (bisection of the projection's side of the crease),
//! the face parameters on the crease line itself.
//!
//! Only crossings count: a sample step whose ends lie on both sides of a
//! crease line, each end clear of it and of a pole, and whose projection
//! passes the line continuously (the two sides' last projections one point
//! in space). A chain that touches a crease line, runs along it (a trim on
//! a knot line: its samples sit on the line up to rounding) or jumps across
//! it (a projection switching sheets) is left to the fit.

use super::dist;
use crate::import::model::Face;
use crate::prepare::fit::Eval;

/// Bisections of a crossing's sample step (the bracket of the curve
/// parameter shrinks to 2⁻⁶⁰ of the step: below the parameter's rounding).
const CROSSING_BISECTIONS: u32 = 60;

/// A sample end is clear of a crease line when at least this far from it,
/// relative to the larger of 1 and the line's value: well above the
/// rounding of parameters on the line (a trim running along it).
const CLEAR: f64 = 1e-9;

/// A point of a trim: curve parameter and face parameters.
pub(super) type Sample = (f64, [f64; 2]);

/// One crossing of a crease line by a projected curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Crossing {
    /// The curve parameter (unit, as the samples').
    pub s: f64,
    /// The face parameters, the crossed one exactly the crease's value.
    pub uv: [f64; 2],
    /// The crossed parameter (0: `u`, 1: `v`).
    pub k: usize,
}

impl Crossing {
    /// The face parameters just on the side of the crease where `other`
    /// lies (where a one-sided derivative is read): off the line by
    /// [`CLEAR`] of its scale.
    pub fn beside(&self, other: [f64; 2]) -> [f64; 2] {
        let c = self.uv[self.k];
        let mut p = self.uv;
        p[self.k] = c + CLEAR * c.abs().max(1.0) * (other[self.k] - c).signum();
        p
    }
}

/// The values of `creases` (one period's, repeated by `period`) strictly
/// between `a` and `b`, each clear of both ([`CLEAR`]), in the order met
/// from `a` to `b`.
fn crossed(creases: &[f64], period: Option<f64>, a: f64, b: f64) -> Vec<f64> {
    let (lo, hi) = (a.min(b), a.max(b));
    let clear = |c: f64| {
        let e = CLEAR * c.abs().max(1.0);
        c - lo > e && hi - c > e
    };
    let mut out: Vec<f64> = Vec::new();
    for &c in creases {
        match period.filter(|t| *t > 0.0) {
            Some(t) => {
                let mut x = c + ((lo - c) / t).floor() * t;
                while x < hi {
                    if clear(x) {
                        out.push(x);
                    }
                    x += t;
                }
            }
            None if clear(c) => out.push(c),
            None => {}
        }
    }
    out.sort_by(f64::total_cmp);
    if b < a {
        out.reverse();
    }
    out
}

/// Whether the surface is regular at `uv` (neither derivative vanishes
/// against the other: not on a pole or a collapsed side).
fn regular(face: &Face, uv: [f64; 2]) -> bool {
    let e = face.surface.eval_derivs(uv[0], uv[1]);
    let (x, y) = (e.su.norm(), e.sv.norm());
    x > 1e-9 * y && y > 1e-9 * x
}

/// The crossings of the surface's crease lines (`creases[k]`: the values of
/// parameter `k`'s, one period's) by the curve between the samples `a` and
/// `b` (see the module doc), in curve order. `position(s, seed)`: the
/// curve's point at `s` projected from `seed` (unwrapped near it by
/// `periods`); `on_tol`: the largest gap in space between the two sides'
/// last projections of a continuous crossing.
pub(super) fn crease_crossings(
    face: &Face,
    position: Eval,
    periods: (Option<f64>, Option<f64>),
    creases: &[Vec<f64>; 2],
    a: Sample,
    b: Sample,
    on_tol: f64,
) -> Vec<Crossing> {
    let period = [periods.0, periods.1];
    let mut out: Vec<Crossing> = Vec::new();
    let mut lines: Vec<(usize, f64)> = Vec::new();
    for k in 0..2 {
        lines.extend(crossed(&creases[k], period[k], a.1[k], b.1[k]).into_iter().map(|c| (k, c)));
    }
    if lines.is_empty() || !(b.0 > a.0) || !regular(face, a.1) || !regular(face, b.1) {
        return out;
    }
    let near = |x: f64, g: f64, t: Option<f64>| t.map_or(x, |t| x - ((x - g) / t).round() * t);
    // the curve's point at `s` projected from the linear guess between the
    // bracket's ends, unwrapped near the guess
    let project = |s: f64, lo: Sample, hi: Sample| -> Option<[f64; 2]> {
        let f = (s - lo.0) / (hi.0 - lo.0);
        let g = [lo.1[0] + f * (hi.1[0] - lo.1[0]), lo.1[1] + f * (hi.1[1] - lo.1[1])];
        let (p, _) = position(s, g)?;
        let p = [near(p[0], g[0], periods.0), near(p[1], g[1], periods.1)];
        p.iter().all(|x| x.is_finite()).then_some(p)
    };
    for (k, c) in lines {
        let side = |p: [f64; 2]| (p[k] - c).signum();
        let (mut lo, mut hi) = (a, b);
        let start = side(a.1);
        let mut solved = true;
        for _ in 0..CROSSING_BISECTIONS {
            let m = 0.5 * (lo.0 + hi.0);
            if !(m > lo.0 && m < hi.0) {
                break;
            }
            let Some(p) = project(m, lo, hi) else {
                solved = false;
                break;
            };
            if side(p) == start {
                lo = (m, p);
            } else {
                hi = (m, p);
            }
        }
        // continuous across: both sides' last projections one point in space
        let (p, q) = (face.surface.eval(lo.1[0], lo.1[1]), face.surface.eval(hi.1[0], hi.1[1]));
        if !(solved && (p - q).norm() <= on_tol && side(lo.1) == start && side(hi.1) == -start) {
            continue;
        }
        // on the line: the crossed parameter the crease's, the other
        // interpolated at the bracket's middle
        let s = 0.5 * (lo.0 + hi.0);
        let mut uv = [0.5 * (lo.1[0] + hi.1[0]), 0.5 * (lo.1[1] + hi.1[1])];
        uv[k] = c;
        if s > a.0 && s < b.0 && dist(uv, lo.1) <= dist(a.1, b.1) {
            out.push(Crossing { s, uv, k });
        }
    }
    out.sort_by(|x, y| x.s.total_cmp(&y.s));
    // two lines crossed at one point (a corner of the crease grid): one end
    out.dedup_by(|x, y| x.s == y.s);
    out
}

#[cfg(test)]
mod tests {
    use super::super::projection::projected_chain;
    use crate::geom::bez2::{self, H2};
    use crate::geom::{NurbsCurve, Vec3};
    use crate::import::model::{Curve, CurveSegment, Face, Surface};

    /// A tabulated cylinder (IGES 122) along `z` whose directrix is the
    /// parabola `y = x²` as two quadratic Bézier spans meeting at `x = 1`
    /// with a C0 knot (multiplicity 2 = degree): `x = u` on the first span,
    /// `x = 1 + 2(u − 1)` on the second. Smooth in space (the spans' end
    /// tangents are parallel), its `u` speed halves across the crease `u = 1`.
    fn parabola_cylinder() -> Face {
        let pts = [[0.0, 0.0, 0.0], [0.5, 0.0, 0.0], [1.0, 1.0, 0.0], [2.0, 3.0, 0.0], [3.0, 9.0, 0.0]];
        let knots = vec![0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 2.0];
        let directrix = NurbsCurve::try_new(2, knots, &pts, None).expect("directrix");
        Face {
            surface: Surface::Extrusion {
                profile: Box::new(Curve::BSpline(directrix)),
                direction: Vec3::z(),
            },
            same_sense: true,
            outer: None,
            inner: Vec::new(),
            source: 1,
        }
    }

    /// `x` on the directrix at `u`, and back.
    fn x_of(u: f64) -> f64 {
        if u <= 1.0 {
            u
        } else {
            1.0 + 2.0 * (u - 1.0)
        }
    }
    fn u_of(x: f64) -> f64 {
        if x <= 1.0 {
            x
        } else {
            1.0 + 0.5 * (x - 1.0)
        }
    }

    /// The quadratic `(x, x², 0.3 + 0.5x)`, `x` from 0.2 to 2.5: on the
    /// surface, across the crease at `x = 1` (its parameters `u = u_of(x)`,
    /// `v = 0.3 + 0.5x`, kinked there).
    fn crossing_edge() -> CurveSegment {
        let (a, b) = (0.2, 2.5);
        let pts = [[a, a * a, 0.3 + 0.5 * a], [0.5 * (a + b), a * b, 0.3 + 0.25 * (a + b)], [b, b * b, 0.3 + 0.5 * b]];
        let c = NurbsCurve::try_new(2, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0], &pts, None).expect("edge");
        CurveSegment {
            curve: Curve::BSpline(c),
            t0: 0.0,
            t1: 1.0,
            forward: true,
        }
    }

    /// Largest distance in space between the chain's image and the edge:
    /// at 200 points a piece, `|v − (0.3 + 0.5·x(u))|` (the edge's point at
    /// the same `u` lies straight above or below along `z`).
    fn deviation(chain: &[Vec<H2>]) -> f64 {
        chain
            .iter()
            .flat_map(|h| (0..=200).map(move |i| bez2::eval(h, i as f64 / 200.0)))
            .map(|p| (p[1] - (0.3 + 0.5 * x_of(p[0]))).abs())
            .fold(0.0, f64::max)
    }

    /// The edge's samples (face parameters at `s = k/n`).
    fn samples(seg: &CurveSegment, n: usize) -> Vec<(f64, f64)> {
        (0..=n)
            .map(|k| {
                let p = seg.eval_unit(k as f64 / n as f64).p;
                (u_of(p.x), p.z)
            })
            .collect()
    }

    #[test]
    fn a_projected_trim_crossing_a_crease_of_a_tabulated_cylinder_ends_its_pieces_there() {
        let (face, seg) = (parabola_cylinder(), crossing_edge());
        // the edge's box diagonal (2.3, 6.21, 1.15)
        let size = 6.72;
        for n in [8, 16, 33] {
            let mut crossings = 0;
            let chain = projected_chain(&face, &seg, &samples(&seg, n), (None, None), 2e-8, 1e-6 * size, &mut crossings);
            let d = deviation(&chain);
            assert!(d <= 1e-6 * size, "{n} samples: the chain lies {d:.3e} mm off the edge");
            // a piece ends on the crease, at the edge's point there
            let ends: Vec<[f64; 2]> = chain.iter().map(|h| bez2::eval(h, 1.0)).collect();
            assert!(
                ends.iter().any(|e| e[0] == 1.0 && (e[1] - 0.8).abs() <= 1e-12),
                "{n} samples: no piece ends at (1, 0.8): {ends:?}"
            );
            assert_eq!(crossings, 1, "{n} samples");
        }
    }

    #[test]
    fn a_trim_running_along_a_crease_line_has_no_crossing() {
        // the generator over the crease, (1, 1, z), its samples' u a
        // rounding error either side of 1
        let face = parabola_cylinder();
        let c = NurbsCurve::try_new(1, vec![0.0, 0.0, 1.0, 1.0], &[[1.0, 1.0, 0.0], [1.0, 1.0, 2.0]], None).expect("line");
        let seg = CurveSegment {
            curve: Curve::BSpline(c),
            t0: 0.0,
            t1: 1.0,
            forward: true,
        };
        let n = 8;
        let uv: Vec<(f64, f64)> =
            (0..=n).map(|k| (1.0 + if k % 2 == 0 { 1e-14 } else { -1e-14 }, 2.0 * k as f64 / n as f64)).collect();
        let mut crossings = 0;
        let chain = projected_chain(&face, &seg, &uv, (None, None), 2e-8, 1e-6 * 2.0, &mut crossings);
        assert_eq!(crossings, 0);
        let off = chain
            .iter()
            .flat_map(|h| (0..=50).map(move |i| bez2::eval(h, i as f64 / 50.0)))
            .map(|p| (p[0] - 1.0).abs())
            .fold(0.0, f64::max);
        assert!(off <= 1e-12, "the chain leaves the crease line by {off:e}");
    }

    #[test]
    fn crossed_lists_the_lines_between_the_ends_in_the_order_met() {
        let creases = [1.0, 2.0, 3.0];
        assert_eq!(super::crossed(&creases, None, 0.5, 2.5), vec![1.0, 2.0]);
        assert_eq!(super::crossed(&creases, None, 2.5, 0.5), vec![2.0, 1.0]);
        // an end on a line (up to rounding) is no crossing of it
        assert_eq!(super::crossed(&creases, None, 1.0 + 1e-13, 2.5), vec![2.0]);
        // a periodic direction: every copy
        assert_eq!(super::crossed(&[0.5], Some(2.0), 0.0, 5.0), vec![0.5, 2.5, 4.5]);
    }
}

//! **Projected trim curves.** A coedge without a usable p-curve (and, on a
//! plane, without an exact image of its 3-D curve) gets its 3-D curve
//! projected onto the face ([`projected_chain`]): polynomial Bézier pieces
//! in face parameters fitted to the Newton projections of the curve's
//! points ([`crate::prepare::fit`]), refined near poles of the surface.

use super::crease_crossing::crease_crossings;
use super::{dist, line};
use crate::geom::bez2::H2;
use crate::import::model::{CurveSegment, Face};

/// Halvings of a projected trim interval whose end tangents are far longer
/// than its chord (a curve passing near a pole, see [`projected_chain`]):
/// 2⁻¹⁶ of a coarse step.
const POLE_HALVINGS: u32 = 16;

/// `(u, v)` (least squares on the tangent plane); `None` where the surface
/// is degenerate.
fn param_velocity(face: &Face, uv: [f64; 2], d: &crate::geom::Vec3) -> Option<[f64; 2]> {
    let e = face.surface.eval_derivs(uv[0], uv[1]);
    let (a, b, c) = (e.su.dot(&e.su), e.su.dot(&e.sv), e.sv.dot(&e.sv));
    let det = a * c - b * b;
    if !(det > 1e-12 * a * c) {
        return None;
    }
    let (g0, g1) = (e.su.dot(d), e.sv.dot(d));
    let r = [(g0 * c - g1 * b) / det, (g1 * a - g0 * b) / det];
    r.iter().all(|x| x.is_finite()).then_some(r)
}

/// A point of a trim: curve parameter and face parameters.
type Sample = (f64, [f64; 2]);

/// Most bisections of a sample step in [`pole_passage`] (the bisection
/// ends sooner, where the projections stop reaching the curve's points
/// next to the pole, see [`REACH`]).
const PASSAGE_BISECTIONS: u32 = 48;

/// A projection in [`pole_passage`] reaches the curve's point when within
/// this fraction of the link tolerance `on_tol` (1e-6 of the face's size):
/// the bisection stops that close to the pole.
const REACH: f64 = 1e-3;

/// Where [`pole_passage`] reads the free parameter of a passage's end: this
/// fraction of the way from the end back to its sample.
const ETA: f64 = 1e-3;

/// Where the curve passes through a pole of the surface between the
/// samples `a` and `b` (curve parameter, unwrapped face parameters): the
/// ends `(s, uv)` of the pole line it crosses, just before and just after
/// the pole. Along a curve on the surface the projection jumps only at a
/// pole (a meridian through a sphere's pole: `u` jumps by π there, sw2017
/// russian_part's quarter spheres), so the step is bisected towards its
/// jump; it is a passage when the jump does not shrink, one derivative
/// vanishes there (the pole line runs along its parameter) and both ends
/// are the same point in space (within `on_tol`). The ends share the other
/// parameter, so the line between them is exact: one point in space.
/// `None` for a step the projection follows continuously (also one that
/// passes near a pole, which [`projected_chain`] halves).
#[allow(clippy::too_many_arguments)]
fn pole_passage(
    face: &Face,
    seg: &CurveSegment,
    position: crate::prepare::fit::Eval,
    periods: (Option<f64>, Option<f64>),
    a: (f64, [f64; 2]),
    b: (f64, [f64; 2]),
    on_tol: f64,
) -> Option<(Sample, Sample)> {
    let near = |x: f64, g: f64, t: Option<f64>| t.map_or(x, |t| x - ((x - g) / t).round() * t);
    let jump = dist(a.1, b.1);
    // a step no longer than its ends' velocities carry it is no passage (an
    // end on the pole itself has no velocity: the other end's counts)
    let speed = |(s, uv): (f64, [f64; 2])| {
        let e = face.surface.eval_derivs(uv[0], uv[1]);
        let (x, y) = (e.su.norm(), e.sv.norm());
        if !(x > 1e-9 * y && y > 1e-9 * x) {
            return None;
        }
        let d = param_velocity(face, uv, &seg.eval_unit(s).d1)?;
        Some(d[0].hypot(d[1]))
    };
    let fastest = match (speed(a), speed(b)) {
        (Some(x), Some(y)) => x.max(y),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => return None,
    };
    if !(jump > 8.0 * (b.0 - a.0) * fastest) {
        return None;
    }
    // the curve's point at `m` projected from `seed`, with the parameters
    // on the seed's side of a period, when the projection reaches the point
    // (Newton from one side of a pole does not reach the other side)
    let reach = |m: f64, seed: [f64; 2]| -> Option<[f64; 2]> {
        let (p, _) = position(m, seed)?;
        let p = [near(p[0], seed[0], periods.0), near(p[1], seed[1], periods.1)];
        let e = face.surface.eval_derivs(p[0], p[1]);
        // not onto the pole itself (where Newton from one side stops)
        let off_pole = e.su.norm() > 1e-12 * e.sv.norm() && e.sv.norm() > 1e-12 * e.su.norm();
        (off_pole && (e.p - seg.eval_unit(m).p).norm() <= REACH * on_tol).then_some(p)
    };
    let (mut lo, mut hi) = (a, b);
    for _ in 0..PASSAGE_BISECTIONS {
        let m = 0.5 * (lo.0 + hi.0);
        if !(m > lo.0 && m < hi.0) {
            break;
        }
        // continuous from `lo` up to `m`: the jump lies beyond, else before
        if let Some(p) = reach(m, lo.1) {
            lo = (m, p);
        } else if let Some(p) = reach(m, hi.1) {
            hi = (m, p);
        } else {
            // neither side reaches `m`: it is the pole itself (a step
            // symmetric about it) or as close to it as the projections go.
            // Each side moves half way towards `m`; stop when neither can.
            let (ml, mh) = (0.5 * (lo.0 + m), 0.5 * (m + hi.0));
            let (l, h) = (
                (ml > lo.0).then(|| reach(ml, lo.1)).flatten(),
                (mh < hi.0).then(|| reach(mh, hi.1)).flatten(),
            );
            if l.is_none() && h.is_none() {
                break;
            }
            if let Some(p) = l {
                lo = (ml, p);
            }
            if let Some(p) = h {
                hi = (mh, p);
            }
        }
    }
    if !(dist(lo.1, hi.1) > 0.25 * jump) {
        return None;
    }
    let (el, eh) = (face.surface.eval_derivs(lo.1[0], lo.1[1]), face.surface.eval_derivs(hi.1[0], hi.1[1]));
    let degenerate = |x: f64, y: f64| x <= 1e-3 * y;
    // The free parameter of each end (the one along the pole line) as the
    // curve leaves the pole: projected where the curve lies `ETA` of the
    // sample step away from the end. Right next to the pole the projection's
    // free parameter turns with the curve's miss of the exact pole (a
    // meridian 1.7e-14 mm off the pole of sw2017_russian_part's 0.25 mm
    // quarter spheres: 0.034 rad at the bisection's end), and the fitted trim
    // from that end to the next sample cut across the face's corner.
    // Projected from the sample (Newton from the end itself, where the
    // free parameter is degenerate, stops at once: the point is that close).
    let leaving = |(s, uv): (f64, [f64; 2]), (w, seed): (f64, [f64; 2]), k: usize| -> f64 {
        let t = s + ETA * (w - s);
        position(t, seed)
            .map(|(p, _)| [near(p[0], uv[0], periods.0), near(p[1], uv[1], periods.1)][k])
            .filter(|x| x.is_finite())
            .unwrap_or(uv[k])
    };
    let (before, after) = if degenerate(el.su.norm(), el.sv.norm()) && degenerate(eh.su.norm(), eh.sv.norm()) {
        // the pole line runs along u at one v
        let v = 0.5 * (lo.1[1] + hi.1[1]);
        ([leaving(lo, a, 0), v], [leaving(hi, b, 0), v])
    } else if degenerate(el.sv.norm(), el.su.norm()) && degenerate(eh.sv.norm(), eh.su.norm()) {
        let u = 0.5 * (lo.1[0] + hi.1[0]);
        ([u, leaving(lo, a, 1)], [u, leaving(hi, b, 1)])
    } else {
        return None;
    };
    let (p, q) = (face.surface.eval(before[0], before[1]), face.surface.eval(after[0], after[1]));
    ((p - q).norm() <= on_tol).then_some(((lo.0, before), (hi.0, after)))
}

/// A coedge without a usable p-curve: its 3-D curve projected onto the face
/// as polynomial Bézier pieces of degree 2..=9 in face parameters
/// ([`crate::prepare::fit`]) between the samples (each at its own curve
/// fraction, [`crate::import::eval::fractions_of_samples`]; end points on the samples;
/// interior points projected by Newton, seeded by the cubic Hermite piece
/// of the end tangents), within `tol` of the projection at `2n + 1` points
/// of a degree-`n` piece, halving at most 6 times, straight where the
/// deepest piece still misses. A step whose end tangents are much longer
/// than its chord (near a pole of the surface) is first halved at projected
/// midpoints, at most [`POLE_HALVINGS`] times, and straight only where that
/// does not make the tangents fit (on the pole itself). Above the deepest level a piece does not mix
/// parameters where the 3-D curve lies within `on_tol` of the surface with
/// ones where it does not (so that `features::link_trims`, which links a
/// trim curve to an edge when its samples lie within a tolerance of the
/// same order, sees the same parts as with short pieces). Where the curve
/// crosses a crease of the surface (a C0 parameter line) the pieces end
/// on the crease (`crease_crossing.rs`); `crossings` counts those ends.
pub(super) fn projected_chain(
    face: &Face,
    seg: &CurveSegment,
    samples: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    tol: f64,
    on_tol: f64,
    crossings: &mut usize,
) -> Vec<Vec<H2>> {
    let n = samples.len().saturating_sub(1);
    let mut out: Vec<crate::prepare::fit::SpanPiece> = Vec::with_capacity(n);
    if n == 0 {
        return Vec::new();
    }
    let (nu, nv) = face.surface.natural_bounds();
    let nat = (nu.unwrap_or((-1e12, 1e12)), nv.unwrap_or((-1e12, 1e12)));
    // the curve's point at `s` projected onto the face (seeded), and the 3-D
    // point; the projection is charged what it evaluated
    let locate = |s: f64, seed: [f64; 2]| -> ([f64; 2], crate::geom::Vec3) {
        let c = seg.eval_unit(s);
        if crate::prepare::budget::exceeded() {
            return ([f64::NAN; 2], c.p);
        }
        let b = |x: f64, per: Option<f64>, nat: (f64, f64)| per.map_or(nat, |t| (x - t, x + t));
        let bounds = (b(seed[0], periods.0, nat.0), b(seed[1], periods.1, nat.1));
        let (p, evaluations) =
            crate::import::eval::newton_surface_counted(&face.surface, &c.p, seed[0], seed[1], bounds);
        if !crate::prepare::budget::charge_projection(&face.surface, evaluations) {
            return ([f64::NAN; 2], c.p);
        }
        ([p.u, p.v], c.p)
    };
    // the projection and whether the curve lies on the surface there
    // (within `on_tol`: the class of super::fit, so that a piece lies on it
    // or off it as a whole)
    let position = |s: f64, seed: [f64; 2]| -> Option<([f64; 2], bool)> {
        let (uv, p) = locate(s, seed);
        let on = (face.surface.eval(uv[0], uv[1]) - p).norm() <= on_tol;
        uv.iter().all(|x| x.is_finite()).then_some((uv, on))
    };
    // the face-parameter velocity at `s` where the projection is `uv`
    let velocity = |s: f64, uv: [f64; 2]| param_velocity(face, uv, &seg.eval_unit(s).d1);
    /// One interval `a`..`b` (curve parameter, face parameters, velocity)
    /// as fitted pieces. `depth`: halvings so far of a coarse step whose end
    /// tangents were far longer than its chord.
    #[allow(clippy::too_many_arguments)]
    fn piece(
        position: crate::prepare::fit::Eval,
        velocity: &dyn Fn(f64, [f64; 2]) -> Option<[f64; 2]>,
        periods: (Option<f64>, Option<f64>),
        a: (f64, [f64; 2], [f64; 2]),
        b: (f64, [f64; 2], [f64; 2]),
        tol: f64,
        depth: u32,
        out: &mut Vec<crate::prepare::fit::SpanPiece>,
    ) {
        if !crate::prepare::budget::charge_trim_piece() {
            out.push((a.0, b.0, line(a.1, b.1)));
            return;
        }
        let k = (b.0 - a.0) / 3.0;
        // the cubic Hermite piece: the seeds of the projections
        let c: Vec<H2> = vec![
            [a.1[0], a.1[1], 1.0],
            [a.1[0] + k * a.2[0], a.1[1] + k * a.2[1], 1.0],
            [b.1[0] - k * b.2[0], b.1[1] - k * b.2[1], 1.0],
            [b.1[0], b.1[1], 1.0],
        ];
        // tangents far longer than the chord: the curve passes near a pole
        // (on a sphere the angle sweeps across within a short stretch of
        // the curve: alibre_s1 #1920, 0.0025 rad from the pole) or through
        // a pole or a cusp. Halve (projecting the midpoint) until the
        // tangents fit the chord; straight only at the deepest level or
        // where the midpoint has no velocity (on the pole itself).
        let chord = dist(a.1, b.1);
        let wild = k * (a.2[0].hypot(a.2[1]) + b.2[0].hypot(b.2[1])) > 4.0 * chord + tol;
        if wild {
            let m = 0.5 * (a.0 + b.0);
            let guess = [0.5 * (a.1[0] + b.1[0]), 0.5 * (a.1[1] + b.1[1])];
            let mid = (depth < POLE_HALVINGS)
                .then(|| position(m, guess))
                .flatten()
                .map(|(p, _)| {
                    // the projection may land a period away from its guess
                    let near = |x: f64, g: f64, t: Option<f64>| t.map_or(x, |t| x - ((x - g) / t).round() * t);
                    [near(p[0], guess[0], periods.0), near(p[1], guess[1], periods.1)]
                });
            match mid {
                Some(pm) => match velocity(m, pm) {
                    Some(dm) => {
                        piece(position, velocity, periods, a, (m, pm, dm), tol, depth + 1, out);
                        piece(position, velocity, periods, (m, pm, dm), b, tol, depth + 1, out);
                    }
                    None => {
                        out.push((a.0, m, line(a.1, pm)));
                        out.push((m, b.0, line(pm, b.1)));
                    }
                },
                None => out.push((a.0, b.0, line(a.1, b.1))),
            }
            return;
        }
        let params = crate::prepare::fit::FitParams {
            tol,
            max_depth: 6,
            min_degree: 2,
            max_degree: crate::prepare::fit::MAX_DEGREE,
        };
        out.extend(crate::prepare::fit::fit_spans(
            position,
            a.0,
            b.0,
            a.1,
            b.1,
            Some(&c),
            params,
            crate::prepare::fit::Fallback::Nearer,
        ));
    }
    // the crease lines a step may cross (see `crease_crossing`)
    let creases = [
        crate::import::eval::surface_creases(&face.surface, 0),
        crate::import::eval::surface_creases(&face.surface, 1),
    ];
    // coarse steps between samples (ends on samples: their unwrapping), refined where needed
    // (and every breakpoint of the curve: a composite's joint is a corner
    // no fitted piece may span)
    let step = (n / 8).max(1);
    let mut idx: Vec<usize> = (0..n).step_by(step).collect();
    idx.push(n);
    idx.extend(crate::import::eval::break_samples(seg, samples.len()));
    idx.sort_unstable();
    idx.dedup();
    // the samples' curve parameters (fractions of the segment) as
    // FaceTrim took them: uneven where breakpoints split the range unevenly
    let fr = crate::import::eval::fractions_of_samples(seg, samples.len());
    let at = |i: usize| -> Option<(f64, [f64; 2], [f64; 2])> {
        let s = fr[i];
        let (u, v) = samples[i];
        param_velocity(face, [u, v], &seg.eval_unit(s).d1).map(|d| (s, [u, v], d))
    };
    // the face parameters of sample `k` with its curve parameter
    let sample = |k: usize| (fr[k], [samples[k].0, samples[k].1]);
    for w in idx.windows(2) {
        let (i, j) = (w[0], w[1]);
        match (at(i), at(j)) {
            (Some(a), Some(b)) => {
                // through each pole the curve passes: fitted up to the pole,
                // the pole line, fitted on from the pole
                let mut start = a;
                for k in i..j {
                    let Some((lo, hi)) = pole_passage(face, seg, &position, periods, sample(k), sample(k + 1), on_tol)
                    else {
                        // through each crease line the curve crosses: fitted
                        // up to the crossing and on from it, each side with
                        // its own side's velocity
                        let (p, q) = (sample(k), sample(k + 1));
                        for x in crease_crossings(face, &position, periods, &creases, p, q, on_tol) {
                            let (Some(before), Some(after)) =
                                (velocity(x.s, x.beside(start.1)), velocity(x.s, x.beside(q.1)))
                            else {
                                continue;
                            };
                            if x.s > start.0 && x.s < b.0 {
                                *crossings += 1;
                                piece(&position, &velocity, periods, start, (x.s, x.uv, before), tol, 0, &mut out);
                                start = (x.s, x.uv, after);
                            }
                        }
                        continue;
                    };
                    // the velocity at an end on the pole (where the surface
                    // is degenerate): the secant to a point 1e-3 of the way
                    // towards `other`, projected from that end's side
                    let with_velocity = |(s, uv): (f64, [f64; 2]), other: (f64, [f64; 2])| {
                        let t = s + 1e-3 * (other.0 - s);
                        let near = |x: f64, g: f64, p: Option<f64>| p.map_or(x, |p| x - ((x - g) / p).round() * p);
                        let d = position(t, uv)
                            .map(|(q, _)| {
                                let q = [near(q[0], uv[0], periods.0), near(q[1], uv[1], periods.1)];
                                [(q[0] - uv[0]) / (t - s), (q[1] - uv[1]) / (t - s)]
                            })
                            .unwrap_or([(other.1[0] - uv[0]) / (other.0 - s), (other.1[1] - uv[1]) / (other.0 - s)]);
                        (s, uv, d)
                    };
                    let lo = with_velocity(lo, (start.0, start.1));
                    // (a sample on the pole starts the pole line itself)
                    if lo.0 > start.0 {
                        piece(&position, &velocity, periods, start, lo, tol, 0, &mut out);
                    }
                    out.push((lo.0, hi.0, line(lo.1, hi.1)));
                    start = with_velocity(hi, (b.0, b.1));
                }
                piece(&position, &velocity, periods, start, b, tol, 0, &mut out)
            }
            _ => {
                for k in i..j {
                    let (p, q) = (samples[k], samples[k + 1]);
                    if p != q {
                        out.push((fr[k], fr[k + 1], line([p.0, p.1], [q.0, q.1])));
                    }
                }
            }
        }
    }
    // the coarse steps are fitted one by one: join what one piece can carry
    crate::prepare::fit::merge(&position, &mut out, tol);
    out.into_iter().map(|(_, _, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Frame, Vec3};
    use crate::import::model::{Curve, Surface};
    use std::f64::consts::{FRAC_PI_2, PI, TAU};

    /// The face of the whole `surface` (entity #1).
    fn untrimmed(surface: Surface) -> Face {
        Face {
            surface,
            same_sense: true,
            outer: None,
            inner: Vec::new(),
            source: 1,
        }
    }

    /// The sphere of radius 2 about the origin (poles at `v = ±π/2`, `u`
    /// about `+z` from `+x`) and the half great circle from `+x` over the
    /// point at angle `tilt` from the north pole (towards `+y`) to `−x`.
    fn sphere_and_half_circle(tilt: f64) -> (Face, CurveSegment) {
        let face = untrimmed(Surface::Sphere {
            frame: Frame::world(),
            radius: 2.0,
        });
        let y = Vec3::new(0.0, tilt.sin(), tilt.cos());
        let seg = CurveSegment {
            curve: Curve::Circle {
                frame: Frame {
                    origin: Vec3::zeros(),
                    x: Vec3::x(),
                    y,
                    z: Vec3::x().cross(&y),
                },
                radius: 2.0,
            },
            t0: 0.0,
            t1: PI,
            forward: true,
        };
        (face, seg)
    }

    /// [`pole_passage`] on the step from unit parameter `s0` to `s1` of the
    /// curve, projected as `projected_chain` projects (Newton from a seed).
    fn passage(face: &Face, seg: &CurveSegment, s0: f64, s1: f64) -> Option<(Sample, Sample)> {
        let on_tol = 4e-6;
        let position = |s: f64, seed: [f64; 2]| -> Option<([f64; 2], bool)> {
            let p = seg.eval_unit(s).p;
            let bounds = ((seed[0] - TAU, seed[0] + TAU), (-FRAC_PI_2, FRAC_PI_2));
            let r = crate::import::eval::newton_surface(&face.surface, &p, seed[0], seed[1], bounds);
            let uv = [r.u, r.v];
            let on = (face.surface.eval(uv[0], uv[1]) - p).norm() <= on_tol;
            uv.iter().all(|x| x.is_finite()).then_some((uv, on))
        };
        let at = |s: f64| {
            let p = seg.eval_unit(s).p;
            let (u, v) = face.surface.analytic_params(&p).expect("a sphere's parameters");
            (s, [u, v])
        };
        pole_passage(face, seg, &position, (Some(TAU), None), at(s0), at(s1), on_tol)
    }

    /// A composite on a cylinder of radius 2 (two plane sections, ellipse
    /// arcs whose face-parameter images are `v = cos u` curves, joined by a
    /// generatrix) used from inside its first segment (composite range
    /// 0.95..3): that segment's 16 samples lie on 1/21 of the range, the
    /// others' 47 on 10/21 each, so sample `k` is not at fraction `k/n`.
    /// The chain through the samples follows the curve within 1e-6 of its
    /// size (the Newton projections of its points at the samples' own
    /// fractions, no piece across a joint); with `k/n` for the fractions it
    /// lay 2.4e-2 mm off, and with the true fractions but pieces across the
    /// joints (the corners at the generatrix) 8.1e-4 mm.
    #[test]
    fn a_composite_used_from_inside_a_segment_projects_at_its_samples_fractions() {
        let face = untrimmed(Surface::Cylinder {
            frame: Frame::world(),
            radius: 2.0,
        });
        let ellipse = |z: f64| Curve::Ellipse {
            frame: Frame::from_axis_ref(Vec3::new(0.0, 0.0, z), Vec3::new(-1.0, 0.0, 2.0), Some(Vec3::new(2.0, 0.0, 1.0)))
                .unwrap(),
            semi_x: 5f64.sqrt(),
            semi_y: 2.0,
        };
        let part = |curve: Curve, t0: f64, t1: f64| CurveSegment {
            curve,
            t0,
            t1,
            forward: true,
        };
        let corner = ellipse(0.0).eval(1.5);
        let parts = vec![
            part(ellipse(0.0), 0.0, 1.5),
            part(
                Curve::Line {
                    origin: corner,
                    dir: Vec3::z(),
                },
                0.0,
                1.0,
            ),
            part(ellipse(1.0), 1.5, 3.0),
        ];
        let seg = CurveSegment {
            curve: Curve::Composite(parts.clone()),
            t0: 0.95,
            t1: 3.0,
            forward: true,
        };
        // the samples as FaceTrim takes them, in the cylinder's parameters
        let fr = crate::import::eval::sample_fractions(&seg);
        let uv: Vec<(f64, f64)> = fr
            .iter()
            .map(|&s| face.surface.analytic_params(&seg.eval_unit(s).p).expect("on the cylinder"))
            .collect();
        let n = fr.len() - 1;
        let uneven = (0..=n).map(|k| (fr[k] - k as f64 / n as f64).abs()).fold(0.0, f64::max);
        assert!(uneven > 0.05, "the samples are evenly spread ({uneven})");
        let chain = projected_chain(&face, &seg, &uv, (Some(TAU), None), 1e-9, 1e-5, &mut 0);
        assert!(!chain.is_empty());
        // every chain point on the curve (its image on the cylinder)
        let used = crate::prepare::nurbs::composite_parts(&parts, (seg.t0, seg.t1)).unwrap();
        let size = 5.0;
        let mut worst = 0.0f64;
        for h in &chain {
            for i in 0..=32 {
                let g = crate::geom::bez2::eval(h, i as f64 / 32.0);
                let p = face.surface.eval(g[0], g[1]);
                let d = used
                    .iter()
                    .map(|(s, _)| {
                        let t = crate::import::eval::curve_param_in_range(&s.curve, s.t0, s.t1, &p);
                        (s.curve.eval(t) - p).norm()
                    })
                    .fold(f64::INFINITY, f64::min);
                worst = worst.max(d);
            }
        }
        assert!(worst <= 1e-6 * size, "the chain lies {worst:e} off the curve");
    }

    #[test]
    fn a_meridian_passes_the_pole_along_the_pole_line() {
        // u jumps from 0 to π at the pole (s = 1/2): the passage ends just
        // before and just after it, at the pole's latitude, one point in 3-D
        let (face, seg) = sphere_and_half_circle(0.0);
        let ((s_lo, lo), (s_hi, hi)) = passage(&face, &seg, 0.43, 0.55).expect("a passage through the pole");
        assert!(s_lo < s_hi && (s_lo - 0.5).abs() < 1e-6 && (s_hi - 0.5).abs() < 1e-6, "{s_lo} {s_hi}");
        assert!(lo[0].abs() < 1e-9 && (hi[0] - PI).abs() < 1e-9, "u {} → {}", lo[0], hi[0]);
        assert_eq!(lo[1], hi[1], "the pole line keeps v");
        assert!((lo[1] - FRAC_PI_2).abs() < 1e-5, "v {}", lo[1]);
        let (p, q) = (face.surface.eval(lo[0], lo[1]), face.surface.eval(hi[0], hi[1]));
        assert!((p - q).norm() <= 4e-6 && (p - Vec3::new(0.0, 0.0, 2.0)).norm() <= 4e-6, "{p:?} {q:?}");
    }

    #[test]
    fn a_step_symmetric_about_the_pole_finds_its_passage() {
        // the first midpoint (s = 1/2) is the pole itself: neither side's
        // projection reaches it, so each side moves half way towards it
        let (face, seg) = sphere_and_half_circle(0.0);
        let ((s_lo, lo), (s_hi, hi)) = passage(&face, &seg, 0.45, 0.55).expect("a passage through the pole");
        assert!(s_lo < 0.5 && s_hi > 0.5 && s_hi - s_lo < 1e-6, "{s_lo} {s_hi}");
        assert!(lo[0].abs() < 1e-9 && (hi[0] - PI).abs() < 1e-9, "u {} → {}", lo[0], hi[0]);
        let (p, q) = (face.surface.eval(lo[0], lo[1]), face.surface.eval(hi[0], hi[1]));
        assert!((p - q).norm() <= 4e-6, "{p:?} {q:?}");
    }

    #[test]
    fn a_meridian_a_rounding_error_off_the_pole_leaves_it_along_its_own_u() {
        // tilted 1e-13 rad (2e-13 mm on radius 2; sw2017_russian_part's
        // meridians miss the pole by 1.7e-14 mm on 0.25 mm): right next to
        // the pole the projection's u turns by up to π, but the pole line's
        // ends keep the meridian's u (0 before the pole, π after it), within
        // 1e-6 rad, so that the fit on from the pole follows the meridian
        let (face, seg) = sphere_and_half_circle(1e-13);
        let ((_, lo), (_, hi)) = passage(&face, &seg, 0.43, 0.55).expect("a passage by the pole");
        assert!(lo[0].abs() < 1e-6 && (hi[0] - PI).abs() < 1e-6, "u {} → {}", lo[0], hi[0]);
        assert_eq!(lo[1], hi[1], "the pole line keeps v");
        assert!((lo[1] - FRAC_PI_2).abs() < 1e-5, "v {}", lo[1]);
    }

    #[test]
    fn no_passage_away_from_the_pole_or_past_it() {
        // a step of the meridian that stays off the pole
        let (face, seg) = sphere_and_half_circle(0.0);
        assert!(passage(&face, &seg, 0.1, 0.2).is_none());
        assert!(passage(&face, &seg, 0.6, 0.7).is_none());
        // a great circle passing 1e-3 rad from the pole: u sweeps by π
        // within the step, but continuously (no pole line)
        let (face, seg) = sphere_and_half_circle(1e-3);
        assert!(passage(&face, &seg, 0.43, 0.55).is_none());
    }
}

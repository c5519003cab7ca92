//! The parameter range of a face: the box of its trim loops (widened to the
//! exact trim curves' extremes), snapped to the surface's natural bounds,
//! the right one of two intervals in a periodic direction, and a full
//! period for a face of a closed surface bounded by holes only.

use crate::import::eval::{all_holes, FaceTrim};
use crate::import::model::{Face, Model, Surface};

/// The parameter range of a face: the box of its trim loops (sampled and
/// projected by [`FaceTrim`]) intersected with the surface's natural box, or
/// the natural box when the face has no loops.
pub fn face_range(model: &Model, face: &Face) -> ((f64, f64), (f64, f64)) {
    face_range_of(face, &FaceTrim::new(model, face))
}

/// [`face_range`] from the face's already sampled trims.
pub fn face_range_of(face: &Face, trim: &FaceTrim) -> ((f64, f64), (f64, f64)) {
    face_range_within(face, trim, None)
}

/// [`face_range_of`] with the extent of the exact trim curves
/// (`(lo, hi)`, see [`trim::ExactLoops::extent`](crate::prepare::trim::ExactLoops::extent)):
/// a curve's extreme between two samples (the top of a circle sampled at 57
/// points lies 3.5e-4 of its radius beyond the highest sample) would
/// otherwise fall outside the face range and its cap be cut off
/// (ideas11_cylinder_msbo #31: 2.4e-5 of the circle's area). Each side
/// widens by at most 1 % of the samples' extent, and only in a direction
/// that is not periodic.
pub fn face_range_within(
    face: &Face,
    trim: &FaceTrim,
    exact: Option<((f64, f64), (f64, f64))>,
) -> ((f64, f64), (f64, f64)) {
    let (nu, nv) = face.surface.natural_bounds();
    let (mut lo, mut hi) = loop_extent(trim);
    if let Some((elo, ehi)) = exact {
        let widen = |lo: f64, hi: f64, elo: f64, ehi: f64| -> (f64, f64) {
            let m = 0.01 * (hi - lo);
            if !(m.is_finite() && elo.is_finite() && ehi.is_finite()) {
                return (lo, hi);
            }
            (lo.min(elo).max(lo - m), hi.max(ehi).min(hi + m))
        };
        // never widen across a parameter where the surface degenerates (a
        // cone's apex: the widened strip would be a flap of the other nappe)
        let widen_in = |k: usize, lo: f64, hi: f64, elo: f64, ehi: f64| -> (f64, f64) {
            let (a, b) = widen(lo, hi, elo, ehi);
            (
                stop_at_degeneracy(&face.surface, k, lo, a),
                stop_at_degeneracy(&face.surface, k, hi, b),
            )
        };
        // not in a periodic direction: near a pole the exact curves'
        // angle is arbitrary (proe2001_k1 #1712, a sphere's meridian circle)
        let (pu, pv) = face.surface.periods();
        let u = if pu.is_some() {
            (lo.0, hi.0)
        } else {
            widen_in(0, lo.0, hi.0, elo.0, ehi.0)
        };
        let v = if pv.is_some() {
            (lo.1, hi.1)
        } else {
            widen_in(1, lo.1, hi.1, elo.1, ehi.1)
        };
        (lo, hi) = ((u.0, v.0), (u.1, v.1));
    }
    let (pu, pv) = face.surface.periods();
    let pick = |nat: Option<(f64, f64)>, period: Option<f64>, lo: f64, hi: f64, winds: bool| -> (f64, f64) {
        if !(lo.is_finite() && hi.is_finite() && hi > lo) {
            return nat.unwrap_or((f64::NAN, f64::NAN));
        }
        match (nat, period) {
            // a periodic direction keeps the unwrapped loop range: one period
            // when a loop winds round it, the full extent of loops that do
            // not wind (a helical strip may span more than one period)
            (_, Some(p)) => {
                if hi - lo > p && !winds {
                    (lo, hi)
                } else if hi - lo >= p * 0.95 {
                    (lo, lo + p)
                } else {
                    (lo, hi)
                }
            }
            // snap to a natural bound the sampled loop nearly reaches
            (Some((a, b)), None) => {
                let snap = 0.02 * (b - a);
                let lo = if lo - a < snap { a } else { lo.max(a) };
                let hi = if b - hi < snap { b } else { hi.min(b) };
                (lo, hi)
            }
            (None, None) => (lo, hi),
        }
    };
    // A face of a closed surface bounded by holes only (no outer loop: a
    // sphere or torus minus some caps) covers the whole surface: a full
    // period in each periodic direction, with the seam in the widest gap
    // between the loops so that no hole crosses it, and the natural range in
    // the other direction.
    if let Some(r) = holes_only_range(face, trim) {
        return r;
    }
    // (only where the period is an angle that the exact conversion sweeps
    // past one turn: analytic surfaces and revolutions)
    let angular = matches!(
        face.surface,
        Surface::Cylinder { .. }
            | Surface::Cone { .. }
            | Surface::Sphere { .. }
            | Surface::Torus { .. }
            | Surface::Revolution { .. }
    );
    let winds = |k: usize| !angular || trim.loops.iter().any(|l| trim.winds_in(l, k));
    let mut r = (pick(nu, pu, lo.0, hi.0, winds(0)), pick(nv, pv, lo.1, hi.1, winds(1)));
    // A periodic direction whose loops do not span a period has two
    // candidate intervals between the loops' extremes: `[lo, hi]` and its
    // complement `[hi, lo + p]` (a torus band between two circles may run
    // through v = 0). Keep the one the trims contain.
    let votes = |r: &((f64, f64), (f64, f64))| -> usize {
        let mut n = 0;
        for i in 0..5 {
            for j in 0..5 {
                let u = r.0 .0 + (r.0 .1 - r.0 .0) * (0.1 + 0.2 * i as f64);
                let v = r.1 .0 + (r.1 .1 - r.1 .0) * (0.1 + 0.2 * j as f64);
                n += usize::from(trim.contains(u, v));
            }
        }
        n
    };
    if let Some(p) = pu {
        let (a, b) = r.0;
        if b - a < p * 0.95 && b > a {
            let other = ((b, a + p), r.1);
            if votes(&other) > votes(&r) {
                r = other;
            }
        }
    }
    // A loop winding around a periodic direction (a tilted circle on a
    // sphere round u; the rim of a B-spline cap closed in v) can bound a cap
    // that reaches a natural bound of the other direction (the pole): extend
    // to that bound when the trims keep the strip between.
    for k in 0..2 {
        let (p, q, nq) = if k == 0 { (pu, pv, nv) } else { (pv, pu, nu) };
        let (Some(p), None, Some((na, nb))) = (p, q, nq) else {
            continue;
        };
        // (x, y): x the periodic direction, y the other
        let ((x0, x1), (y0, y1)) = if k == 0 { r } else { (r.1, r.0) };
        if !(x1 - x0 >= p * 0.95 && y1 > y0) {
            continue;
        }
        let strip = |a: f64, b: f64| -> bool {
            let mut n = 0;
            for i in 0..5 {
                for j in 0..3 {
                    let x = x0 + (x1 - x0) * (0.1 + 0.2 * i as f64);
                    let y = a + (b - a) * (0.25 + 0.25 * j as f64);
                    let (u, v) = if k == 0 { (x, y) } else { (y, x) };
                    n += usize::from(trim.contains(u, v));
                }
            }
            n >= 12
        };
        let (mut a, mut b) = (y0, y1);
        if y0 > na + 1e-9 * (nb - na) && strip(na, y0) {
            a = na;
        }
        if y1 < nb - 1e-9 * (nb - na) && strip(y1, nb) {
            b = nb;
        }
        if k == 0 {
            r.1 = (a, b);
        } else {
            r.0 = (a, b);
        }
    }
    if let Some(p) = pv {
        let (a, b) = r.1;
        if b - a < p * 0.95 && b > a {
            let other = (r.0, (b, a + p));
            if votes(&other) > votes(&r) {
                r = other;
            }
        }
    }
    r
}

/// Where moving parameter `k` (0 = u, 1 = v) of `surface` from `from` (on
/// the face's loops) to `to` first meets a parameter at which the surface
/// degenerates: a cone's apex, the axis crossing of a revolution's profile
/// (and those of an offset's basis); `to` when there is none on the way.
/// Spheres' poles are natural bounds already, and tori's directions are
/// periodic (never widened).
fn stop_at_degeneracy(surface: &Surface, k: usize, from: f64, to: f64) -> f64 {
    if !(from.is_finite() && to.is_finite()) || from == to {
        return to;
    }
    let between = |x: f64| (x - from) * (to - from) >= 0.0 && (x - from).abs() <= (to - from).abs();
    match surface {
        Surface::Cone { radius, semi_angle, .. } if k == 1 => {
            let apex = -radius / semi_angle.sin();
            if apex.is_finite() && between(apex) {
                apex
            } else {
                to
            }
        }
        Surface::Revolution {
            profile,
            axis_origin,
            axis_dir,
        } if k == 1 => {
            // the profile's offset from the axis; it crosses the axis where
            // its component along the offset at `from` changes sign
            let off = |t: f64| {
                let d = profile.eval_derivs(t).p - axis_origin;
                d - axis_dir * d.dot(axis_dir)
            };
            let r0 = off(from);
            let s = |t: f64| off(t).dot(&r0);
            if !(r0.norm() > 0.0) {
                return from;
            }
            let n = 16;
            let mut prev = from;
            for i in 1..=n {
                let t = from + (to - from) * i as f64 / n as f64;
                if s(t) <= 0.0 {
                    let (mut a, mut b) = (prev, t);
                    for _ in 0..60 {
                        let m = 0.5 * (a + b);
                        if s(m) > 0.0 {
                            a = m;
                        } else {
                            b = m;
                        }
                    }
                    return b;
                }
                prev = t;
            }
            to
        }
        Surface::Offset { basis, .. } => stop_at_degeneracy(basis, k, from, to),
        _ => to,
    }
}

/// The samples' extent `(lo, hi)` over all loops, per direction (infinite
/// when there are none).
fn loop_extent(trim: &FaceTrim) -> ((f64, f64), (f64, f64)) {
    let mut lo = (f64::INFINITY, f64::INFINITY);
    let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for l in &trim.loops {
        for &(u, v) in l {
            lo = (lo.0.min(u), lo.1.min(v));
            hi = (hi.0.max(u), hi.1.max(v));
        }
    }
    (lo, hi)
}

/// True when every loop of the face is a hole: the face is the whole
/// (closed) surface minus them (see [`holes_only_range`]).
pub fn holes_only(face: &Face, trim: &FaceTrim) -> bool {
    holes_only_range(face, trim).is_some()
}

/// The face range of a face of a closed surface (sphere, torus, closed
/// B-spline) whose loops are all holes: a full period in each periodic
/// direction (seam between the holes, [`seam_window`]) and the natural range
/// otherwise. Holes are told by orientation: a loop running clockwise about
/// the outward normal ([`all_holes`]). `None` when some loop is not a hole,
/// the surface is not closed or no window holds the loops.
fn holes_only_range(face: &Face, trim: &FaceTrim) -> Option<((f64, f64), (f64, f64))> {
    if !all_holes(face, trim) {
        return None;
    }
    let (nu, nv) = face.surface.natural_bounds();
    let (pu, pv) = face.surface.periods();
    let (lo, hi) = loop_extent(trim);
    let u = match pu {
        Some(p) => seam_window(trim, 0, p, lo.0, hi.0)?,
        None => nu?,
    };
    let v = match pv {
        Some(p) => seam_window(trim, 1, p, lo.1, hi.1)?,
        None => nv?,
    };
    (pu.is_some() || pv.is_some()).then_some((u, v))
}

/// One period `[c, c + p]` of direction `k` (0 = u, 1 = v) whose ends `c`,
/// `c + p` lie in the middle of the widest gap between the loops' extents
/// taken modulo `p`, so that no loop touches the seam: every loop lies in the
/// window up to a whole number of periods, which the trimming applies
/// ([`trim_piece`](crate::prepare::trim::trim_piece) tries the shifts of each
/// loop). The loops' samples are unwrapped loop by loop, so together they may
/// span a period or more (a hole across the seam unwrapped past it,
/// abc_onshape #179), and the widest gap may lie between them (sixteen equal
/// holes round a cone, nist_144 DE135): neither is a reason to give up the
/// full period. `c` is the end nearest below `lo` (the samples' extent
/// `lo..hi`). `None` when a loop spans a period or no gap is left.
fn seam_window(trim: &FaceTrim, k: usize, p: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    if !(lo.is_finite() && hi.is_finite() && p > 0.0) {
        return None;
    }
    let coord = |q: &(f64, f64)| if k == 0 { q.0 } else { q.1 };
    // the loops' extents as arcs of the circle of length p, those that run
    // past p split in two, so that every arc lies in [0, p]
    let mut arcs: Vec<(f64, f64)> = Vec::new();
    for l in trim.loops.iter().filter(|l| !l.is_empty()) {
        let a = l.iter().map(coord).fold(f64::INFINITY, f64::min);
        let b = l.iter().map(coord).fold(f64::NEG_INFINITY, f64::max);
        if !(b - a < p) {
            return None;
        }
        let s = a.rem_euclid(p);
        if s + (b - a) > p {
            arcs.push((s, p));
            arcs.push((0.0, s + (b - a) - p));
        } else {
            arcs.push((s, s + (b - a)));
        }
    }
    arcs.sort_by(|x, y| x.0.total_cmp(&y.0));
    // merge overlapping arcs, then the widest gap (the one across p included)
    let mut merged: Vec<(f64, f64)> = Vec::new();
    for (a, b) in arcs {
        match merged.last_mut() {
            Some(m) if a <= m.1 => m.1 = m.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let (first, last) = (*merged.first()?, *merged.last()?);
    let mut best = (first.0 + p - last.1, 0.5 * (last.1 + first.0 + p));
    for w in merged.windows(2) {
        let g = w[1].0 - w[0].1;
        if g > best.0 {
            best = (g, 0.5 * (w[0].1 + w[1].0));
        }
    }
    // a loop reaching round the whole period up to rounding (a seam line at
    // u = 0 and one at 6.283185307, an IGES cylinder bounded across its
    // seam) leaves no gap: it is a band, not a hole
    if !(best.0 > 1e-6 * p) {
        return None;
    }
    // the window [c, c + p] with c ≡ the gap's middle (mod p) and c ≤ lo
    let c = best.1 - ((best.1 - lo) / p).ceil() * p;
    Some((c, c + p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::eval::without_rim;
    use crate::geom::{Frame, NurbsSurface, Vec3};
    use crate::import::model::{Coedge, Curve, Loop, SourceId};
    use std::f64::consts::TAU;

    /// A face on `surface` whose (sampled) loops are `loops`; the Model
    /// loop is a placeholder so that the face has an outer loop.
    fn face_and_trim(surface: Surface, loops: Vec<Vec<(f64, f64)>>) -> (Face, FaceTrim) {
        let coedge = Coedge {
            edge: None,
            forward: true,
            pcurve: None,
            curve: None,
            pcurve_preferred: false,
            source: SourceId::default(),
        };
        let face = Face {
            surface,
            same_sense: true,
            outer: Some(Loop {
                coedges: vec![coedge],
                source: SourceId::default(),
            }),
            inner: Vec::new(),
            source: SourceId::default(),
        };
        let trim = FaceTrim {
            loops,
            periods: face.surface.periods(),
            same_sense: true,
            bounds: ((-1e3, 1e3), (-1e3, 1e3)),
            cone_apex: None,
            coedge_spans: Vec::new(),
            healed: false,
            fine: Vec::new(),
            holes_only: false,
        };
        let holes_only = all_holes(&face, &trim);
        (face, FaceTrim { holes_only, ..trim })
    }

    #[test]
    fn a_cap_winding_round_v_reaches_its_pole() {
        // u ∈ [0, 8] from a rim (u = 0) to a pole (u = 8); v ∈ [0, 4] closed
        let square = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)];
        let mut cw = Vec::new();
        for i in 0..2 {
            for &(x, y) in &square {
                let r = if i == 0 { 2.0 } else { 0.0 };
                cw.push([x * r, y * r, 8.0 * i as f64, 1.0]);
            }
        }
        let s = NurbsSurface::try_from_homogeneous(
            1,
            1,
            vec![0.0, 0.0, 8.0, 8.0],
            vec![0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 4.0],
            2,
            5,
            cw,
        )
        .unwrap();
        let surface = Surface::BSpline(s);
        assert_eq!(surface.periods(), (None, Some(4.0)));
        // the rim near u = 1, running −v: the face (on its left) is u > 1
        let rim: Vec<(f64, f64)> = (0..=16)
            .map(|k| (1.0 + 0.01 * (k as f64).sin(), 4.0 - 4.0 * k as f64 / 16.0))
            .collect();
        let (face, trim) = face_and_trim(surface, vec![rim]);
        assert!(trim.contains(5.0, 1.0) && !trim.contains(0.5, 1.0));
        let ((u0, u1), (v0, v1)) = face_range_of(&face, &trim);
        assert!(u0 > 0.98 && u0 < 1.0 && u1 == 8.0, "u {u0}..{u1}");
        assert!((v1 - v0 - 4.0).abs() < 1e-9, "v {v0}..{v1}");
    }

    #[test]
    fn a_cone_range_stops_at_the_apex() {
        let frame = Frame::from_axis_ref(Vec3::zeros(), Vec3::z(), Some(Vec3::x())).unwrap();
        let (radius, semi_angle) = (0.765, 70f64.to_radians());
        let apex = -radius / semi_angle.sin();
        // a half cone from v = 0 down to the apex
        let lp = vec![(0.0, apex), (3.0, apex), (3.0, 0.0), (0.0, 0.0)];
        let (face, trim) = face_and_trim(
            Surface::Cone {
                frame,
                radius,
                semi_angle,
            },
            vec![lp],
        );
        // exact extremes a little past the samples on both sides
        let exact = Some(((0.0, apex - 0.05), (3.0, 0.005)));
        let (_, (v0, v1)) = face_range_within(&face, &trim, exact);
        assert_eq!(v0, apex);
        assert!((v1 - 0.005).abs() < 1e-12);
        // a revolution whose line profile meets the axis stops there as well
        let rev = Surface::Revolution {
            profile: Box::new(Curve::Line {
                origin: Vec3::new(1.0, 0.0, 0.0),
                dir: Vec3::new(-1.0, 0.0, 1.0),
            }),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        };
        assert!((stop_at_degeneracy(&rev, 1, 0.5, 1.2) - 1.0).abs() < 1e-12);
        assert_eq!(stop_at_degeneracy(&rev, 1, 0.5, 0.9), 0.9);
    }

    #[test]
    fn a_helical_strip_keeps_more_than_one_turn() {
        let frame = Frame::from_axis_ref(Vec3::zeros(), Vec3::z(), Some(Vec3::x())).unwrap();
        // a strip of height 0.2 rising 1 per turn, over 1.1 turns
        let turns = 1.1 * TAU;
        let mut lp: Vec<(f64, f64)> = (0..=32)
            .map(|k| (turns * k as f64 / 32.0, k as f64 / 32.0 * 1.1))
            .collect();
        lp.extend(
            (0..=32)
                .rev()
                .map(|k| (turns * k as f64 / 32.0, k as f64 / 32.0 * 1.1 + 0.2)),
        );
        let (face, trim) = face_and_trim(Surface::Cylinder { frame, radius: 1.0 }, vec![lp]);
        let ((u0, u1), _) = face_range_of(&face, &trim);
        assert!(u0.abs() < 1e-12 && (u1 - turns).abs() < 1e-12, "u {u0}..{u1}");
    }

    /// Round holes of radius `r` on a sphere, centred at `(u, v)` in its
    /// parameters, each sampled from `u - r` on (unwrapped along the loop,
    /// as [`FaceTrim`] does), in a face with no outer loop.
    fn sphere_with_holes(centres: &[(f64, f64)], r: f64) -> (Face, FaceTrim) {
        let frame = Frame::from_axis_ref(Vec3::zeros(), Vec3::z(), Some(Vec3::x())).unwrap();
        let loops = centres
            .iter()
            .map(|&(cu, cv)| {
                (0..=32)
                    .map(|k| {
                        let t = std::f64::consts::PI + TAU * k as f64 / 32.0;
                        (cu + r * t.cos(), cv - r * t.sin())
                    })
                    .collect()
            })
            .collect();
        let (mut face, trim) = face_and_trim(Surface::Sphere { frame, radius: 5.0 }, loops);
        face.outer = None;
        (face, trim)
    }

    #[test]
    fn holes_all_round_a_closed_surface_keep_the_full_period() {
        // sixteen equal holes round the equator: every gap between them is
        // as wide as the others (nist_144 DE135 has this on a cone)
        let centres: Vec<(f64, f64)> = (0..16).map(|k| (0.2 + TAU * k as f64 / 16.0, 0.0)).collect();
        let (face, trim) = sphere_with_holes(&centres, 0.1);
        let ((u0, u1), (v0, v1)) = face_range_of(&face, &trim);
        assert!((u1 - u0 - TAU).abs() < 1e-12, "u {u0}..{u1}");
        assert!((v0 + 0.5 * std::f64::consts::PI).abs() < 1e-12 && (v1 - 0.5 * std::f64::consts::PI).abs() < 1e-12);
        // the seam lies in a gap: no hole centre is within a radius of it
        for &(cu, _) in &centres {
            let off = (cu - u0).rem_euclid(TAU);
            assert!(off > 0.1 && off < TAU - 0.1, "hole at {cu} on the seam {u0}");
        }
    }

    #[test]
    fn a_clockwise_outer_loop_on_a_cylinder_keeps_what_it_encloses() {
        // iges_catia5_cylinder #23: an IGES 120 cylinder (radius 50 round x,
        // x ∈ [0, 100]) whose outer loop runs clockwise round u ∈ [0, π]:
        // the face is that half (Open CASCADE's centroid has z = +31.8),
        // not the rest of the surface
        let surface = Surface::Trimmed {
            basis: Box::new(Surface::Revolution {
                profile: Box::new(Curve::Line {
                    origin: Vec3::new(0.0, 50.0, 0.0),
                    dir: Vec3::new(100.0, 0.0, 0.0),
                }),
                axis_origin: Vec3::new(50.0, 0.0, 0.0),
                axis_dir: Vec3::x(),
            }),
            u: (0.0, TAU),
            v: (0.0, 1.0),
        };
        let pi = std::f64::consts::PI;
        let lp = vec![(0.0, 1.0), (pi, 1.0), (pi, 0.0), (0.0, 0.0)];
        let (face, trim) = face_and_trim(surface, vec![lp]);
        assert!(!without_rim(&face.surface));
        assert!(!holes_only(&face, &trim));
        let ((u0, u1), (v0, v1)) = face_range_of(&face, &trim);
        assert!(u0.abs() < 1e-12 && (u1 - pi).abs() < 1e-12, "u {u0}..{u1}");
        assert!(v0 == 0.0 && v1 == 1.0, "v {v0}..{v1}");
        // a sphere has no rim: there the same loop is a hole
        let frame = Frame::from_axis_ref(Vec3::zeros(), Vec3::z(), Some(Vec3::x())).unwrap();
        let sphere = Surface::Sphere { frame, radius: 5.0 };
        assert!(without_rim(&sphere));
        let (face, trim) = face_and_trim(sphere, vec![vec![(0.0, 0.5), (1.0, 0.5), (1.0, 0.0), (0.0, 0.0)]]);
        assert!(holes_only(&face, &trim));
    }

    #[test]
    fn a_hole_unwrapped_past_the_seam_keeps_the_full_period() {
        // one hole across u = 0 whose samples run from 2π − 0.2 to 2π + 0.2,
        // another at u = 2 (abc_onshape #179): together more than a period
        let (face, trim) = sphere_with_holes(&[(2.0, 0.3), (TAU, -0.2)], 0.2);
        let ((u0, u1), (v0, v1)) = face_range_of(&face, &trim);
        assert!((u1 - u0 - TAU).abs() < 1e-12, "u {u0}..{u1}");
        assert!((v1 - v0 - std::f64::consts::PI).abs() < 1e-12, "v {v0}..{v1}");
        for c in [2.0, TAU] {
            let off = (c - u0).rem_euclid(TAU);
            assert!(off > 0.2 && off < TAU - 0.2, "hole at {c} on the seam {u0}");
        }
    }
}

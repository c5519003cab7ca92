//! Exact NURBS conversion of the Model's surfaces over a face's parameter
//! range, keeping the map between the face (Open CASCADE) parameters and the
//! NURBS parameters (angular directions are rational quadratic arcs whose
//! parameter is not the angle, see [`crate::geom::primitives`]).

use super::surface_fit;
use crate::geom::primitives::{self, MappedSurface, ParamMap};
use crate::geom::Frame;
use crate::geom::{NurbsCurve, Vec3};
use crate::import::eval::FaceTrim;
use crate::import::model::{Curve, Face, Model, Surface};
use thiserror::Error;

/// Why a surface or curve has no exact NURBS form here.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NurbsError {
    /// The surface kind (or this offset of it) is not representable.
    #[error("face #{face}: {what} has no exact NURBS conversion")]
    Unsupported {
        /// Source id of the face.
        face: u64,
        /// What was met.
        what: String,
    },
    /// The primitive construction failed (degenerate radius, empty range, …).
    #[error("face #{face}: {source}")]
    Geom {
        /// Source id of the face.
        face: u64,
        /// The geometry error.
        source: crate::geom::GeomError,
    },
    /// The face's parameter range is empty or unbounded.
    #[error("face #{face}: parameter range {range:?} is empty or unbounded")]
    Range {
        /// Source id of the face.
        face: u64,
        /// `((u0,u1),(v0,v1))`.
        range: ((f64, f64), (f64, f64)),
    },
}

/// A face's surface as one NURBS surface over the face's parameter range.
#[derive(Debug, Clone)]
pub struct FaceNurbs {
    /// The NURBS with its parameter maps (face parameter → NURBS parameter).
    pub mapped: MappedSurface,
    /// Face parameter range covered, `((u0,u1),(v0,v1))`.
    pub range: ((f64, f64), (f64, f64)),
    /// Set when the NURBS is not exact (a fitted offset): what was done and
    /// the measured deviation, for the scene's warnings.
    pub note: Option<String>,
}

impl FaceNurbs {
    /// NURBS parameters of face parameters `(u, v)`.
    pub fn to_nurbs(&self, u: f64, v: f64) -> (f64, f64) {
        self.mapped.to_param(u, v)
    }
    /// Face parameters of NURBS parameters `(s, t)`.
    pub fn to_face(&self, s: f64, t: f64) -> (f64, f64) {
        self.mapped.to_analytic(s, t)
    }
}

/// Exact NURBS of a 3-D curve on `[t0, t1]` (line, circle, B-spline).
pub fn curve_nurbs(c: &Curve, t: (f64, f64)) -> Result<(NurbsCurve, ParamMap), String> {
    match c {
        Curve::Line { origin, dir } => primitives::line_segment(*origin, *dir, t)
            .map(|m| (m.curve, m.map))
            .map_err(|e| e.to_string()),
        Curve::Circle { frame, radius } => primitives::circle_arc(frame.origin, frame.x, frame.y, *radius, t)
            .map(|m| (m.curve, m.map))
            .map_err(|e| e.to_string()),
        Curve::Ellipse { frame, semi_x, semi_y } => {
            // the affine image of the unit circle arc: same parameter, poles scaled in the frame
            let m = primitives::circle_arc(frame.origin, frame.x, frame.y, 1.0, t).map_err(|e| e.to_string())?;
            if !(*semi_x > 0.0 && *semi_y > 0.0 && semi_x.is_finite() && semi_y.is_finite()) {
                return Err(format!("ellipse semi-axes {semi_x}, {semi_y}"));
            }
            let cw = m
                .curve
                .cw
                .iter()
                .map(|h| {
                    let w = h[3];
                    let d = crate::geom::Vec3::new(h[0] / w, h[1] / w, h[2] / w) - frame.origin;
                    let p = frame.origin + frame.x * (semi_x * d.dot(&frame.x)) + frame.y * (semi_y * d.dot(&frame.y));
                    [p.x * w, p.y * w, p.z * w, w]
                })
                .collect();
            let c = NurbsCurve::try_from_homogeneous(m.curve.degree, m.curve.knots.clone(), cw)
                .map_err(|e| e.to_string())?;
            Ok((c, m.map))
        }
        Curve::BSpline(b) => Ok((restrict_curve(b, t), ParamMap::Identity)),
        other => Err(format!("{} curve", other.type_name())),
    }
}

/// The part of `b` over `t` (same parameters) by knot insertion at the ends
/// that cut the domain; `b` itself when `t` does not cut it.
fn restrict_curve(b: &NurbsCurve, t: (f64, f64)) -> NurbsCurve {
    let (d0, d1) = b.domain();
    let (a, e) = (t.0.max(d0), t.1.min(d1));
    if a.partial_cmp(&e) != Some(std::cmp::Ordering::Less) || (a <= d0 && e >= d1) {
        return b.clone();
    }
    let mut c = b.clone();
    for x in [a, e] {
        if x > d0 && x < d1 {
            let have = c.knots.iter().filter(|&&k| k == x).count();
            for _ in have..c.degree {
                match c.insert_knot(x) {
                    Ok(n) => c = n,
                    Err(_) => return b.clone(),
                }
            }
        }
    }
    let p = c.degree;
    // poles i0..=i1 with knots[i0+1..=i0+p] = a and knots[i1+1..=i1+p] = e
    let i0 = c.knots.iter().position(|&k| k == a).unwrap_or(0).saturating_sub(1);
    let i1 = c
        .knots
        .iter()
        .position(|&k| k == e)
        .unwrap_or(c.knots.len() - 1)
        .saturating_sub(1);
    if i1 < i0 + p || i1 + p + 1 >= c.knots.len() || i1 >= c.cw.len() {
        return b.clone();
    }
    let mut knots = c.knots[i0..=i1 + p + 1].to_vec();
    knots[0] = knots[1];
    let n = knots.len();
    knots[n - 1] = knots[n - 2];
    NurbsCurve::try_from_homogeneous(p, knots, c.cw[i0..=i1].to_vec()).unwrap_or_else(|_| b.clone())
}

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
/// (`(lo, hi)`, see [`trim::ExactLoops::extent`](super::trim::ExactLoops::extent)):
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
        // not in a periodic direction: near a pole the exact curves'
        // angle is arbitrary (proe2001_k1 #1712, a sphere's meridian circle)
        let (pu, pv) = face.surface.periods();
        let u = if pu.is_some() {
            (lo.0, hi.0)
        } else {
            widen(lo.0, hi.0, elo.0, ehi.0)
        };
        let v = if pv.is_some() {
            (lo.1, hi.1)
        } else {
            widen(lo.1, hi.1, elo.1, ehi.1)
        };
        (lo, hi) = ((u.0, v.0), (u.1, v.1));
    }
    let (pu, pv) = face.surface.periods();
    let pick = |nat: Option<(f64, f64)>, period: Option<f64>, lo: f64, hi: f64| -> (f64, f64) {
        if !(lo.is_finite() && hi.is_finite() && hi > lo) {
            return nat.unwrap_or((f64::NAN, f64::NAN));
        }
        match (nat, period) {
            // a periodic direction keeps the unwrapped loop range (at most one period)
            (_, Some(p)) => {
                if hi - lo >= p * 0.95 {
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
    let mut r = (pick(nu, pu, lo.0, hi.0), pick(nv, pv, lo.1, hi.1));
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
    // A loop winding around a periodic u (e.g. a tilted circle on a sphere)
    // can bound a cap that reaches a natural bound of v (the pole): extend
    // v to that bound when the trims keep the strip between.
    if let (Some(p), None, Some((na, nb))) = (pu, pv, nv) {
        let ((u0, u1), (v0, v1)) = r;
        if u1 - u0 >= p * 0.95 && v1 > v0 {
            let strip = |a: f64, b: f64| -> bool {
                let mut n = 0;
                for i in 0..5 {
                    for j in 0..3 {
                        let u = u0 + (u1 - u0) * (0.1 + 0.2 * i as f64);
                        let v = a + (b - a) * (0.25 + 0.25 * j as f64);
                        n += usize::from(trim.contains(u, v));
                    }
                }
                n >= 12
            };
            if v0 > na + 1e-9 * (nb - na) && strip(na, v0) {
                r.1 .0 = na;
            }
            if v1 < nb - 1e-9 * (nb - na) && strip(v1, nb) {
                r.1 .1 = nb;
            }
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
/// the outward normal (signed area in `(u, v)` times the face sense < 0).
/// The importers may leave the outer loop empty, or (STEP files with only
/// FACE_BOUNDs, e.g. alibre_s1's sphere #1920) take a hole as the outer loop.
/// `None` when some loop is not a hole, the surface is not closed or no
/// window holds the loops.
fn holes_only_range(face: &Face, trim: &FaceTrim) -> Option<((f64, f64), (f64, f64))> {
    let sigma = if trim.same_sense { 1.0 } else { -1.0 };
    let is_hole = |l: &Vec<(f64, f64)>| {
        let n = l.len();
        let twice_area: f64 = (0..n)
            .map(|k| {
                let (a, b) = (l[k], l[(k + 1) % n]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        twice_area * sigma < 0.0
    };
    let no_outer = !face.outer.as_ref().is_some_and(|l| !l.coedges.is_empty());
    if trim.loops.is_empty() || !(no_outer || trim.loops.iter().all(is_hole)) {
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

/// One period `[c, c + p]` of direction `k` (0 = u, 1 = v) containing every
/// loop sample (`lo..hi`, the samples' extent) with its ends `c`, `c + p` in
/// the middle of the widest gap between the loops' extents taken modulo `p`
/// (so no loop touches the seam). `None` when the samples span a period or
/// more, or no window holds them all.
fn seam_window(trim: &FaceTrim, k: usize, p: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    if !(lo.is_finite() && hi.is_finite() && hi - lo < p) {
        return None;
    }
    let coord = |q: &(f64, f64)| if k == 0 { q.0 } else { q.1 };
    // the loops' extents as arcs of the circle of length p
    let mut arcs: Vec<(f64, f64)> = trim
        .loops
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let a = l.iter().map(coord).fold(f64::INFINITY, f64::min);
            let b = l.iter().map(coord).fold(f64::NEG_INFINITY, f64::max);
            let s = a.rem_euclid(p);
            (s, s + (b - a))
        })
        .collect();
    arcs.sort_by(|x, y| x.0.total_cmp(&y.0));
    // merge overlapping arcs, then the widest gap (wrapping past p)
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
    if !(best.0 > 0.0) {
        return None;
    }
    // the window [c, c + p] with c ≡ the gap's middle (mod p) and c ≤ lo
    let c = best.1 - ((best.1 - lo) / p).ceil() * p;
    (c + p >= hi).then_some((c, c + p))
}

/// The offset `basis + d·n` (`n` the unit normal `f_u × f_v`, see
/// [`Surface::Offset`]) as a surface of the same kind family and the same
/// parameterisation over `range`, when that offset is exactly representable:
/// offsets of planes, cylinders, cones, spheres, tori, surfaces of
/// revolution of a line or circle lying in a plane through the axis,
/// extrusions of a line or of a circle along its normal, offsets of these and
/// restricted (trimmed) ones. The parallel surfaces of these are again such
/// surfaces (the normal is constant along a ruling or meridian circle).
/// Other bases (general B-splines, ruled B-spline surfaces, extrusions of
/// free curves, …) have offsets that are not rational: the error names what
/// was met so that the caller can report it. The normal must keep its side
/// over `range` (no apex, axis crossing or spindle part inside it).
pub fn offset_surface(basis: &Surface, d: f64, range: ((f64, f64), (f64, f64))) -> Result<Surface, String> {
    if !d.is_finite() {
        return Err("offset by a non-finite distance".into());
    }
    let (_, (v0, v1)) = range;
    let unsupported = |why: &str| Err(format!("offset of a {}{why}", basis.type_name()));
    match basis {
        Surface::Plane { frame } => Ok(Surface::Plane {
            frame: Frame {
                origin: frame.origin + frame.z * d,
                ..*frame
            },
        }),
        // f_u × f_v points away from the axis / centre for these
        Surface::Cylinder { frame, radius } => {
            let r = radius + d;
            if !(r > 0.0) {
                return unsupported(" through its axis");
            }
            Ok(Surface::Cylinder {
                frame: *frame,
                radius: r,
            })
        }
        Surface::Sphere { frame, radius } => {
            let r = radius + d;
            if !(r > 0.0) {
                return unsupported(" through its centre");
            }
            Ok(Surface::Sphere {
                frame: *frame,
                radius: r,
            })
        }
        Surface::Torus { frame, major, minor } => {
            // ρ = R + r cos v must stay positive (outside a spindle torus' inner part)
            let (cmin, _) = cos_bounds(v0, v1);
            let r = minor + d;
            if !(major + minor * cmin > 0.0) {
                return unsupported(" over its spindle part");
            }
            if !(r > 0.0) {
                return unsupported(" through its core circle");
            }
            Ok(Surface::Torus {
                frame: *frame,
                major: *major,
                minor: r,
            })
        }
        Surface::Cone {
            frame,
            radius,
            semi_angle,
        } => {
            // f_u × f_v = ρ (cos a·e − sin a·z), ρ = r + v sin a: the offset
            // moves the cone by d' (cos a·e − sin a·z) with d' = ±d by the sign of ρ
            let (sa, ca) = semi_angle.sin_cos();
            let (ra, rb) = (radius + v0 * sa, radius + v1 * sa);
            let tol = 1e-12 * (radius.abs() + (v0.abs() + v1.abs()) * sa.abs()).max(1e-300);
            let dd = if ra >= -tol && rb >= -tol {
                d
            } else if ra <= tol && rb <= tol {
                -d
            } else {
                return unsupported(" across its apex");
            };
            let origin = frame.origin - frame.z * (dd * sa);
            let r = radius + dd * ca;
            if r >= 0.0 {
                Ok(Surface::Cone {
                    frame: Frame { origin, ..*frame },
                    radius: r,
                    semi_angle: *semi_angle,
                })
            } else {
                // same surface, radius negative at v = 0: the revolved generatrix
                Ok(Surface::Revolution {
                    profile: Box::new(Curve::Line {
                        origin: origin + frame.x * r,
                        dir: frame.x * sa + frame.z * ca,
                    }),
                    axis_origin: origin,
                    axis_dir: frame.z,
                })
            }
        }
        Surface::Revolution {
            profile,
            axis_origin,
            axis_dir,
        } => {
            let a = *axis_origin;
            let dn = axis_dir.norm();
            if !(dn > 0.0 && dn.is_finite()) {
                return unsupported(" about a degenerate axis");
            }
            let ax = *axis_dir / dn;
            // the meridian plane's normal m (f_u × f_v = ρ·m × c' with ρ the
            // distance from the axis, signed against m × axis)
            let pts = [v0, 0.5 * (v0 + v1), v1].map(|t| profile.eval(t));
            let far =
                pts.iter()
                    .map(|p| ax.cross(&(p - a)))
                    .fold(Vec3::zeros(), |b, w| if w.norm() > b.norm() { w } else { b });
            let scale = 1.0 + pts.iter().map(|p| (p - a).norm()).fold(0.0, f64::max);
            if !(far.norm() > 1e-12 * scale) {
                return unsupported(" lying on its axis");
            }
            let m = far / far.norm();
            let e = m.cross(&ax);
            let tol = 1e-9 * scale;
            match profile.as_ref() {
                Curve::Line { origin, dir } => {
                    let l = dir.norm();
                    if !(l > 0.0) || (origin - a).dot(&m).abs() > tol || dir.dot(&m).abs() > 1e-9 * l {
                        return unsupported(" of a line skew to its axis");
                    }
                    if (pts[0] - a).dot(&e) < -tol || (pts[2] - a).dot(&e) < -tol {
                        return unsupported(" of a line crossing its axis");
                    }
                    let n = m.cross(dir) / l;
                    Ok(Surface::Revolution {
                        profile: Box::new(Curve::Line {
                            origin: origin + n * d,
                            dir: *dir,
                        }),
                        axis_origin: a,
                        axis_dir: *axis_dir,
                    })
                }
                Curve::Circle { frame, radius } => {
                    let zc = frame.z;
                    if zc.cross(&m).norm() > 1e-9 || (frame.origin - a).dot(&m).abs() > tol {
                        return unsupported(" of a circle off a plane through its axis");
                    }
                    // ρ(t) = (c − a)·e + r (cos t x·e + sin t y·e) ≥ 0 over the range
                    let (xe, ye) = (frame.x.dot(&e), frame.y.dot(&e));
                    let amp = radius * xe.hypot(ye);
                    let phase = ye.atan2(xe);
                    let (cmin, _) = cos_bounds(v0 - phase, v1 - phase);
                    if (frame.origin - a).dot(&e) + amp * cmin < -tol {
                        return unsupported(" of a circle crossing its axis");
                    }
                    // m × c' = −r (m·z) ρ̂: the circle shrinks by d (m·z)
                    let r = radius - d * m.dot(&zc).signum();
                    if !(r > 0.0) {
                        return unsupported(" of a circle through its centre");
                    }
                    Ok(Surface::Revolution {
                        profile: Box::new(Curve::Circle {
                            frame: *frame,
                            radius: r,
                        }),
                        axis_origin: a,
                        axis_dir: *axis_dir,
                    })
                }
                other => Err(format!("offset of a revolution of a {}", other.type_name())),
            }
        }
        Surface::Extrusion { profile, direction } => match profile.as_ref() {
            // f_u × f_v = c' × dir
            Curve::Line { origin, dir } => {
                let n = dir.cross(direction);
                if !(n.norm() > 0.0) {
                    return unsupported(" of a line along its direction");
                }
                Ok(Surface::Extrusion {
                    profile: Box::new(Curve::Line {
                        origin: origin + n / n.norm() * d,
                        dir: *dir,
                    }),
                    direction: *direction,
                })
            }
            Curve::Circle { frame, radius } => {
                let k = direction.dot(&frame.z);
                if frame.z.cross(direction).norm() > 1e-9 * direction.norm() || k == 0.0 {
                    return unsupported(" of a circle not along its normal");
                }
                let r = radius + d * k.signum();
                if !(r > 0.0) {
                    return unsupported(" of a circle through its axis");
                }
                Ok(Surface::Extrusion {
                    profile: Box::new(Curve::Circle {
                        frame: *frame,
                        radius: r,
                    }),
                    direction: *direction,
                })
            }
            other => Err(format!("offset of an extrusion of a {}", other.type_name())),
        },
        Surface::Offset { basis, distance } => {
            let inner = offset_surface(basis, *distance, range)?;
            offset_surface(&inner, d, range)
        }
        Surface::Trimmed { basis, u, v } => Ok(Surface::Trimmed {
            basis: Box::new(offset_surface(basis, d, range)?),
            u: *u,
            v: *v,
        }),
        Surface::BSpline(_) => unsupported(""),
    }
}

/// Least and greatest `cos t` over `[a, b]`.
fn cos_bounds(a: f64, b: f64) -> (f64, f64) {
    if !(a.is_finite() && b.is_finite()) || b - a >= std::f64::consts::TAU {
        return (-1.0, 1.0);
    }
    let (mut lo, mut hi) = (a.cos().min(b.cos()), a.cos().max(b.cos()));
    let pi = std::f64::consts::PI;
    // multiples of π inside (a, b): cos = ±1 there
    let mut k = (a / pi).ceil();
    while k * pi < b {
        if (k as i64).rem_euclid(2) == 0 {
            hi = 1.0;
        } else {
            lo = -1.0;
        }
        k += 1.0;
    }
    (lo, hi)
}

/// NURBS of `face`'s surface over `range` (face parameters): [`surface_nurbs`]
/// (exact) for every kind and for offsets with a rational form; an offset
/// without one (of a general or ruled B-spline, …) is fitted instead by
/// [`offset_fit`], and the note says so (for the scene's warnings).
pub fn surface_nurbs_noted(
    s: &Surface,
    face: u64,
    range: ((f64, f64), (f64, f64)),
) -> Result<(MappedSurface, Option<String>), NurbsError> {
    if let Surface::Trimmed { basis, u: tu, v: tv } = s {
        if let Surface::Offset { .. } = **basis {
            let ((u0, u1), (v0, v1)) = range;
            let r = ((u0.max(tu.0), u1.min(tu.1)), (v0.max(tv.0), v1.min(tv.1)));
            return surface_nurbs_noted(basis, face, r);
        }
    }
    if let Surface::Offset { basis, distance } = s {
        if let Err(what) = offset_surface(basis, *distance, range) {
            let fit = offset_fit(basis, *distance, range).map_err(|why| NurbsError::Unsupported {
                face,
                what: format!("{what} (fitting it failed: {why})"),
            })?;
            let note = format!(
                "prepare: face #{face}: {what} has no rational form; fitted by {}x{} polynomial Bezier patches of degree {} within {:.1e} of the exact offset",
                fit.cells.0,
                fit.cells.1,
                surface_fit::DEGREE,
                fit.max_error
            );
            let m = MappedSurface {
                surface: fit.surface,
                u_map: ParamMap::Identity,
                v_map: ParamMap::Identity,
            };
            return Ok((m, Some(note)));
        }
    }
    surface_nurbs(s, face, range).map(|m| (m, None))
}

/// Relative tolerance of [`offset_fit`]: the fitted offset is within this
/// times the size of the fitted part (its box diagonal, at least 1 mm) of
/// the exact offset at every check point.
pub const OFFSET_FIT_TOL: f64 = 1e-9;

/// Interior knot values of `s` along u and v (where a surface, and with it
/// its offset, may lose smoothness).
fn knot_breaks(s: &Surface) -> (Vec<f64>, Vec<f64>) {
    let inner =
        |k: &[f64], p: usize| -> Vec<f64> { k.get(p + 1..k.len().saturating_sub(p + 1)).unwrap_or(&[]).to_vec() };
    let curve = |c: &Curve| -> Vec<f64> {
        match c {
            Curve::BSpline(b) => inner(&b.knots, b.degree),
            _ => Vec::new(),
        }
    };
    match s {
        Surface::BSpline(b) => (inner(&b.knots_u, b.degree_u), inner(&b.knots_v, b.degree_v)),
        Surface::Extrusion { profile, .. } => (curve(profile), Vec::new()),
        Surface::Revolution { profile, .. } => (Vec::new(), curve(profile)),
        Surface::Offset { basis, .. } | Surface::Trimmed { basis, .. } => knot_breaks(basis),
        _ => (Vec::new(), Vec::new()),
    }
}

/// The offset `basis + d·n` over `range` fitted by [`surface_fit`] within
/// [`OFFSET_FIT_TOL`] × its size, cut first at the basis's knots; an error
/// where the normal degenerates or the fit does not converge.
pub fn offset_fit(basis: &Surface, d: f64, range: ((f64, f64), (f64, f64))) -> Result<surface_fit::SurfaceFit, String> {
    if !d.is_finite() {
        return Err("offset by a non-finite distance".into());
    }
    let f = |u: f64, v: f64| -> Option<Vec3> {
        let e = basis.eval_derivs(u, v);
        let nr = e.su.cross(&e.sv);
        let len = nr.norm();
        (len > 1e-12 * e.su.norm() * e.sv.norm() && len.is_finite()).then(|| e.p + nr * (d / len))
    };
    let ((u0, u1), (v0, v1)) = range;
    let (mut lo, mut hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    for a in 0..=8 {
        for b in 0..=8 {
            let p = f(u0 + (u1 - u0) * a as f64 / 8.0, v0 + (v1 - v0) * b as f64 / 8.0)
                .ok_or("the basis's normal degenerates")?;
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
    }
    let size = (hi - lo).norm().max(1.0);
    let (bu, bv) = knot_breaks(basis);
    surface_fit::fit_surface(&f, range, &bu, &bv, OFFSET_FIT_TOL * size)
}

/// Exact NURBS of `face`'s surface over `range` (face parameters).
pub fn surface_nurbs(s: &Surface, face: u64, range: ((f64, f64), (f64, f64))) -> Result<MappedSurface, NurbsError> {
    let (u, v) = range;
    if !(u.0.is_finite() && u.1.is_finite() && v.0.is_finite() && v.1.is_finite() && u.1 > u.0 && v.1 > v.0) {
        return Err(NurbsError::Range { face, range });
    }
    let g = |e| NurbsError::Geom { face, source: e };
    match s {
        Surface::Plane { frame } => primitives::plane_patch(frame, u, v).map_err(g),
        Surface::Cylinder { frame, radius } => primitives::cylinder(frame, *radius, u, v).map_err(g),
        Surface::Cone {
            frame,
            radius,
            semi_angle,
        } => primitives::cone(frame, *radius, *semi_angle, u, v).map_err(g),
        Surface::Sphere { frame, radius } => primitives::sphere(frame, *radius, u, v).map_err(g),
        Surface::Torus { frame, major, minor } => primitives::torus(frame, *major, *minor, u, v).map_err(g),
        Surface::Revolution {
            profile,
            axis_origin,
            axis_dir,
        } => {
            let (c, map) = curve_nurbs(profile, v).map_err(|what| NurbsError::Unsupported {
                face,
                what: format!("revolution of a {what}"),
            })?;
            let mut m = primitives::revolve(&c, *axis_origin, *axis_dir, u).map_err(g)?;
            m.v_map = map;
            Ok(m)
        }
        Surface::Extrusion { profile, direction } => {
            let (c, map) = curve_nurbs(profile, u).map_err(|what| NurbsError::Unsupported {
                face,
                what: format!("extrusion of a {what}"),
            })?;
            let mut m = primitives::extrude(&c, *direction, v).map_err(g)?;
            m.u_map = map;
            Ok(m)
        }
        Surface::Offset { basis, distance } => {
            let exact =
                offset_surface(basis, *distance, range).map_err(|what| NurbsError::Unsupported { face, what })?;
            surface_nurbs(&exact, face, range)
        }
        Surface::BSpline(b) => {
            // a closed direction whose trims were unwrapped outside the knot
            // domain (a loop over [-2π, 0] on a [0, 2π] surface) or across
            // its ends: the surface repeated along that direction
            let (pu, pv) = s.periods();
            let b = &unrolled(b, pu, u, true).map_err(g)?;
            let b = &unrolled(b, pv, v, false).map_err(g)?;
            let ((bu0, bu1), (bv0, bv1)) = b.domain();
            let mut m = MappedSurface {
                surface: b.clone(),
                u_map: ParamMap::Identity,
                v_map: ParamMap::Identity,
            };
            // restrict to the face range by knot insertion where it cuts the domain
            let cut = |m: &mut MappedSurface, t: f64, in_u: bool| -> Result<(), NurbsError> {
                let (p, k) = if in_u {
                    (m.surface.degree_u, &m.surface.knots_u)
                } else {
                    (m.surface.degree_v, &m.surface.knots_v)
                };
                let have = k.iter().filter(|&&x| x == t).count();
                for _ in have..p {
                    m.surface = if in_u {
                        m.surface.insert_knot_u(t)
                    } else {
                        m.surface.insert_knot_v(t)
                    }
                    .map_err(g)?;
                }
                Ok(())
            };
            let (u0, u1) = (u.0.max(bu0), u.1.min(bu1));
            let (v0, v1) = (v.0.max(bv0), v.1.min(bv1));
            if !(u1 > u0 && v1 > v0) {
                return Err(NurbsError::Range { face, range });
            }
            for (t, in_u) in [(u0, true), (u1, true), (v0, false), (v1, false)] {
                let (a, b) = if in_u { (bu0, bu1) } else { (bv0, bv1) };
                if t > a && t < b {
                    cut(&mut m, t, in_u)?;
                }
            }
            m.surface = restrict(&m.surface, (u0, u1), (v0, v1));
            Ok(m)
        }
        Surface::Trimmed { basis, u: tu, v: tv } => {
            let r = ((u.0.max(tu.0), u.1.min(tu.1)), (v.0.max(tv.0), v.1.min(tv.1)));
            surface_nurbs(basis, face, r)
        }
    }
}

/// `b` repeated along a closed direction (`period` from
/// [`Surface::periods`]) so that its knot domain covers `range`: the knot
/// vector is shifted by whole periods and, when `range` crosses the domain's
/// end, copies are joined at the seam (C0 there; each copy's first pole row
/// is the previous copy's last, which a closed, clamped surface shares).
/// Returns `b` unchanged when its domain already covers `range`, when the
/// direction is open, or when the knot vector is not clamped.
fn unrolled(
    b: &crate::geom::NurbsSurface,
    period: Option<f64>,
    range: (f64, f64),
    in_u: bool,
) -> Result<crate::geom::NurbsSurface, crate::geom::GeomError> {
    let ((bu0, bu1), (bv0, bv1)) = b.domain();
    let (a, e) = if in_u { (bu0, bu1) } else { (bv0, bv1) };
    let slack = 1e-9 * (e - a);
    let Some(p) = period.filter(|p| *p > 0.0) else {
        return Ok(b.clone());
    };
    if !(range.0.is_finite() && range.1.is_finite()) || (range.0 >= a - slack && range.1 <= e + slack) {
        return Ok(b.clone());
    }
    let first = ((range.0 - a) / p + 1e-9).floor();
    let last = ((range.1 - a) / p - 1e-9).ceil();
    let copies = (last - first) as usize;
    if !(1..=3).contains(&copies) {
        return Ok(b.clone());
    }
    let (d, knots, n) = if in_u {
        (b.degree_u, &b.knots_u, b.n_u)
    } else {
        (b.degree_v, &b.knots_v, b.n_v)
    };
    let clamped = knots[..=d].iter().all(|&k| k == a) && knots[knots.len() - d - 1..].iter().all(|&k| k == e);
    if !clamped {
        return Ok(b.clone());
    }
    let shift = first * p;
    let interior = &knots[d + 1..knots.len() - d - 1];
    let mut ks = vec![a + shift; d + 1];
    for c in 0..copies {
        let off = shift + c as f64 * p;
        ks.extend(interior.iter().map(|k| k + off));
        let end = a + shift + (c + 1) as f64 * p;
        ks.extend(std::iter::repeat(end).take(if c + 1 == copies { d + 1 } else { d }));
    }
    // pole rows along the direction: copy 0 whole, later copies without their first row
    let rows: Vec<usize> = (0..copies).flat_map(|c| usize::from(c > 0)..n).collect();
    let pole = |row: usize, j: usize| {
        if in_u {
            b.cw[row * b.n_v + j]
        } else {
            b.cw[j * b.n_v + row]
        }
    };
    if in_u {
        let cw = rows.iter().flat_map(|&r| (0..b.n_v).map(move |j| pole(r, j))).collect();
        crate::geom::NurbsSurface::try_from_homogeneous(
            b.degree_u,
            b.degree_v,
            ks,
            b.knots_v.clone(),
            rows.len(),
            b.n_v,
            cw,
        )
    } else {
        let cw = (0..b.n_u).flat_map(|i| rows.iter().map(move |&r| pole(r, i))).collect();
        crate::geom::NurbsSurface::try_from_homogeneous(
            b.degree_u,
            b.degree_v,
            b.knots_u.clone(),
            ks,
            b.n_u,
            rows.len(),
            cw,
        )
    }
}

/// Keeps the spans of `s` inside `u × v` (both must be knots of full multiplicity
/// `degree` or domain ends).
fn restrict(s: &crate::geom::NurbsSurface, u: (f64, f64), v: (f64, f64)) -> crate::geom::NurbsSurface {
    // poles i..=j with knots[i+1..=i+p] = a and knots[j+1..=j+p] = b
    let sel = |knots: &[f64], a: f64, b: f64| -> (usize, usize) {
        let m = knots.iter().position(|&k| k == a).unwrap_or(0);
        let r = knots.iter().position(|&k| k == b).unwrap_or(knots.len() - 1);
        (m.saturating_sub(1), r.saturating_sub(1))
    };
    let (iu0, iu1) = sel(&s.knots_u, u.0, u.1);
    let (iv0, iv1) = sel(&s.knots_v, v.0, v.1);
    let n_u = (iu1 + 1).saturating_sub(iu0);
    let n_v = (iv1 + 1).saturating_sub(iv0);
    if iu1 < iu0
        || iv1 < iv0
        || n_u < s.degree_u + 1
        || n_v < s.degree_v + 1
        || iu1 + s.degree_u + 1 >= s.knots_u.len()
        || iv1 + s.degree_v + 1 >= s.knots_v.len()
    {
        return s.clone();
    }
    let mut cw = Vec::with_capacity(n_u * n_v);
    for i in iu0..=iu1 {
        cw.extend_from_slice(&s.cw[i * s.n_v + iv0..=i * s.n_v + iv1]);
    }
    let mut ku: Vec<f64> = s.knots_u[iu0..=iu1 + s.degree_u + 1].to_vec();
    let mut kv: Vec<f64> = s.knots_v[iv0..=iv1 + s.degree_v + 1].to_vec();
    ku[0] = ku[1];
    let lu = ku.len();
    ku[lu - 1] = ku[lu - 2];
    kv[0] = kv[1];
    let lv = kv.len();
    kv[lv - 1] = kv[lv - 2];
    crate::geom::NurbsSurface {
        knots_u: ku,
        knots_v: kv,
        n_u,
        n_v,
        cw,
        ..s.clone()
    }
}

/// Exact NURBS of one face over its parameter range.
pub fn face_nurbs(model: &Model, face: &Face) -> Result<FaceNurbs, NurbsError> {
    face_nurbs_of(face, &FaceTrim::new(model, face))
}

/// [`face_nurbs`] from the face's already sampled trims.
pub fn face_nurbs_of(face: &Face, trim: &FaceTrim) -> Result<FaceNurbs, NurbsError> {
    face_nurbs_within(face, trim, None)
}

/// [`face_nurbs_of`] over [`face_range_within`] (the exact trims' extent).
pub fn face_nurbs_within(
    face: &Face,
    trim: &FaceTrim,
    exact: Option<((f64, f64), (f64, f64))>,
) -> Result<FaceNurbs, NurbsError> {
    let range = face_range_within(face, trim, exact);
    let (mapped, note) = surface_nurbs_noted(&face.surface, face.source, range)?;
    Ok(FaceNurbs { mapped, range, note })
}

/// Unit outward normal of `face` at face parameters `(u, v)` (zero where degenerate).
pub fn outward_normal(face: &Face, u: f64, v: f64) -> Vec3 {
    let d = face.surface.eval_derivs(u, v);
    let n = d.su.cross(&d.sv);
    let l = n.norm();
    if !(l > 0.0) {
        return Vec3::zeros();
    }
    let n = n / l;
    if face.same_sense {
        n
    } else {
        -n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Vec3;
    use std::f64::consts::{FRAC_PI_2, PI, TAU};

    fn frame() -> Frame {
        Frame::from_axis_ref(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.2, 1.0), Some(Vec3::x())).unwrap()
    }

    fn check(s: &Surface, range: ((f64, f64), (f64, f64))) {
        let m = surface_nurbs(s, 1, range).unwrap();
        let ((u0, u1), (v0, v1)) = range;
        for i in 0..=7 {
            for j in 0..=7 {
                let u = u0 + (u1 - u0) * i as f64 / 7.0;
                let v = v0 + (v1 - v0) * j as f64 / 7.0;
                let (a, b) = m.to_param(u, v);
                let p = m.surface.eval(a, b);
                let q = s.eval(u, v);
                let scale = 1.0 + q.norm();
                assert!((p - q).norm() <= 1e-9 * scale, "{s:?} at ({u},{v}): {p:?} vs {q:?}");
            }
        }
    }

    #[test]
    fn closed_bspline_over_a_shifted_or_straddling_range() {
        // a torus as one B-spline closed in both directions (period = its
        // knot domain's length), traversed over ranges outside the domain
        // (trims unwrapped to [-p, 0]) and across its ends
        let torus = Surface::Torus {
            frame: frame(),
            major: 5.0,
            minor: 1.5,
        };
        let b = surface_nurbs(&torus, 1, ((0.0, TAU), (0.0, TAU))).unwrap().surface;
        let s = Surface::BSpline(b.clone());
        let ((a0, a1), (c0, c1)) = b.domain();
        let (pu, pv) = (a1 - a0, c1 - c0);
        assert_eq!(s.periods(), (Some(pu), Some(pv)));
        let wrap = |t: f64, a: f64, p: f64| a + (t - a).rem_euclid(p);
        for range in [
            ((a0 - pu, a0), (c0, c1)),
            ((a0 + 0.25 * pu, a0 + 1.5 * pu), (c0 - 0.3 * pv, c0 + 0.4 * pv)),
            ((a0 - 0.5 * pu, a0 + 0.5 * pu), (c1, c1 + 0.5 * pv)),
        ] {
            let m = surface_nurbs(&s, 1, range).unwrap();
            let ((u0, u1), (v0, v1)) = range;
            for i in 0..=9 {
                for j in 0..=9 {
                    let u = u0 + (u1 - u0) * i as f64 / 9.0;
                    let v = v0 + (v1 - v0) * j as f64 / 9.0;
                    let (x, y) = m.to_param(u, v);
                    let p = m.surface.eval(x, y);
                    let q = b.eval(wrap(u, a0, pu), wrap(v, c0, pv));
                    assert!(
                        (p - q).norm() <= 1e-9 * (1.0 + q.norm()),
                        "{range:?} at ({u},{v}): {p:?} vs {q:?}"
                    );
                    // the face's own surface wraps too (edge normals, p-curve projection)
                    let r = s.eval(u, v);
                    assert!(
                        (r - q).norm() <= 1e-9 * (1.0 + q.norm()),
                        "Surface::eval at ({u},{v}): {r:?} vs {q:?}"
                    );
                }
            }
        }
        // an open direction outside its domain stays an error
        let open = Surface::BSpline(surface_nurbs(&torus, 1, ((0.0, 2.0), (0.0, 2.0))).unwrap().surface);
        assert!(matches!(
            surface_nurbs(&open, 7, ((-3.0, -2.5), (0.0, 1.0))),
            Err(NurbsError::Range { face: 7, .. })
        ));
    }

    #[test]
    fn analytic_surfaces_match_eval() {
        let f = frame();
        check(&Surface::Plane { frame: f }, ((-1.0, 2.0), (0.5, 3.0)));
        check(&Surface::Cylinder { frame: f, radius: 2.5 }, ((0.3, 5.0), (-1.0, 4.0)));
        check(&Surface::Cylinder { frame: f, radius: 2.5 }, ((0.0, TAU), (0.0, 1.0)));
        check(
            &Surface::Cone {
                frame: f,
                radius: 2.0,
                semi_angle: 0.4,
            },
            ((0.0, 4.0), (-1.0, 2.0)),
        );
        check(
            &Surface::Sphere { frame: f, radius: 3.0 },
            ((0.0, TAU), (-FRAC_PI_2, FRAC_PI_2)),
        );
        check(
            &Surface::Torus {
                frame: f,
                major: 5.0,
                minor: 1.5,
            },
            ((0.5, TAU), (-PI, PI)),
        );
        check(
            &Surface::Offset {
                basis: Box::new(Surface::Sphere { frame: f, radius: 3.0 }),
                distance: 0.5,
            },
            ((0.0, 3.0), (-1.0, 1.0)),
        );
        let prof = Curve::Circle {
            frame: Frame::from_axis_ref(Vec3::new(4.0, 0.0, 0.0), Vec3::y(), Some(Vec3::x())).unwrap(),
            radius: 1.0,
        };
        check(
            &Surface::Revolution {
                profile: Box::new(prof.clone()),
                axis_origin: Vec3::zeros(),
                axis_dir: Vec3::z(),
            },
            ((0.0, 4.0), (0.5, 5.0)),
        );
        check(
            &Surface::Extrusion {
                profile: Box::new(prof),
                direction: Vec3::new(0.0, 0.0, 1.0),
            },
            ((0.2, 3.0), (-1.0, 2.0)),
        );
    }

    #[test]
    fn bspline_restricted() {
        let p = crate::geom::table1_patch();
        let s = Surface::BSpline(p.clone());
        let ((a, b), (c, d)) = p.domain();
        let r = ((a + 0.3 * (b - a), a + 0.8 * (b - a)), (c + 0.1 * (d - c), d));
        check(&s, r);
        let m = surface_nurbs(&s, 1, r).unwrap();
        assert_eq!(m.surface.domain(), r);
    }

    #[test]
    fn exact_offsets_match_definition() {
        // every representable offset kind, both signs, against `basis + d·n`
        // (the Model's own evaluation of `Surface::Offset`) at 8 × 8 points, 1e-9 relative
        let f = frame();
        let off = |basis: Surface, distance: f64| Surface::Offset {
            basis: Box::new(basis),
            distance,
        };
        let cone = |radius: f64, semi_angle: f64| Surface::Cone {
            frame: f,
            radius,
            semi_angle,
        };
        for d in [0.7, -0.4] {
            check(&off(Surface::Plane { frame: f }, d), ((-1.0, 2.0), (0.5, 3.0)));
            check(
                &off(Surface::Cylinder { frame: f, radius: 2.5 }, d),
                ((0.3, 5.0), (-1.0, 4.0)),
            );
            check(
                &off(Surface::Sphere { frame: f, radius: 3.0 }, d),
                ((0.0, TAU), (-1.2, 1.5)),
            );
            let torus = Surface::Torus {
                frame: f,
                major: 5.0,
                minor: 1.5,
            };
            check(&off(torus, d), ((0.5, TAU), (-PI, PI)));
            // widening and narrowing cones, a range below the apex (ρ < 0)
            check(&off(cone(2.0, 0.4), d), ((0.0, 4.0), (-1.0, 2.0)));
            check(&off(cone(2.0, -0.6), d), ((1.0, 3.0), (-2.0, 2.5)));
            check(&off(cone(1.0, 0.5), d), ((0.0, 2.0), (-9.0, -3.0)));
            // the offset's radius at v = 0 turns negative (revolved generatrix)
            check(&off(cone(0.1, 0.5), -3.0 * d.abs()), ((0.0, 2.0), (2.0, 6.0)));
            // revolution of a line and of a circle in a plane through a tilted axis
            let ax = Vec3::new(0.2, -0.1, 1.0).normalize();
            let a = Vec3::new(1.0, 2.0, -1.0);
            let side = ax.cross(&Vec3::x()).normalize().cross(&ax);
            let line = Curve::Line {
                origin: a + side * 3.0,
                dir: side * 0.5 + ax,
            };
            let rev = |profile: Curve| Surface::Revolution {
                profile: Box::new(profile),
                axis_origin: a,
                axis_dir: ax,
            };
            check(&off(rev(line), d), ((0.2, 5.0), (-2.0, 3.0)));
            for normal in [ax.cross(&side), side.cross(&ax)] {
                let circle = Curve::Circle {
                    frame: Frame::from_axis_ref(a + side * 4.0 + ax, normal, Some(side)).unwrap(),
                    radius: 1.0,
                };
                check(&off(rev(circle), d), ((0.0, 4.0), (0.5, 5.0)));
            }
            // extrusions of a line (a plane) and of a circle along its normal, both ways
            let ext = |profile: Curve, direction: Vec3| Surface::Extrusion {
                profile: Box::new(profile),
                direction,
            };
            let line = Curve::Line {
                origin: Vec3::new(1.0, 0.0, 2.0),
                dir: Vec3::new(0.0, 2.0, 1.0),
            };
            check(
                &off(ext(line, Vec3::new(1.0, 0.0, 0.3).normalize()), d),
                ((-1.0, 2.0), (0.0, 3.0)),
            );
            for sign in [1.0, -1.0] {
                let circle = Curve::Circle { frame: f, radius: 2.0 };
                check(&off(ext(circle, f.z * sign), d), ((0.2, 3.0), (-1.0, 2.0)));
            }
            // an offset of an offset, and of a restricted surface
            check(&off(off(cone(2.0, 0.4), 0.3), d), ((0.0, 4.0), (-1.0, 2.0)));
            let trimmed = Surface::Trimmed {
                basis: Box::new(Surface::Cylinder { frame: f, radius: 2.5 }),
                u: (0.0, 3.0),
                v: (-5.0, 5.0),
            };
            check(&off(trimmed, d), ((0.5, 2.5), (-1.0, 4.0)));
        }
    }

    #[test]
    fn unrepresentable_offsets_are_reported() {
        let f = frame();
        let off = |basis: Surface| Surface::Offset {
            basis: Box::new(basis),
            distance: 1.0,
        };
        let range = ((0.0, 1.0), (-1.0, 1.0));
        let cases = [
            // a free-form basis: the offset is not rational
            (
                off(Surface::BSpline(crate::geom::table1_patch())),
                "offset of a BSplineSurface",
            ),
            // a cone whose range holds its apex: the normal flips there
            (
                off(Surface::Cone {
                    frame: f,
                    radius: 0.0,
                    semi_angle: 0.3,
                }),
                "apex",
            ),
            // a hyperboloid (line skew to the axis)
            (
                off(Surface::Revolution {
                    profile: Box::new(Curve::Line {
                        origin: Vec3::new(2.0, 0.0, 0.0),
                        dir: Vec3::new(0.0, 1.0, 1.0),
                    }),
                    axis_origin: Vec3::zeros(),
                    axis_dir: Vec3::z(),
                }),
                "skew",
            ),
            // an elliptic cylinder
            (
                off(Surface::Extrusion {
                    profile: Box::new(Curve::Ellipse {
                        frame: f,
                        semi_x: 2.0,
                        semi_y: 1.0,
                    }),
                    direction: f.z,
                }),
                "extrusion of a Ellipse",
            ),
            // a cylinder offset through its axis
            (
                Surface::Offset {
                    basis: Box::new(Surface::Cylinder { frame: f, radius: 1.0 }),
                    distance: -1.5,
                },
                "axis",
            ),
        ];
        for (s, what) in &cases {
            let e = surface_nurbs(s, 42, range).unwrap_err();
            assert!(matches!(e, NurbsError::Unsupported { face: 42, .. }), "{e}");
            assert!(e.to_string().contains("#42") && e.to_string().contains(what), "{e}");
        }
    }

    /// Offsets with no rational form are fitted within `OFFSET_FIT_TOL` of
    /// their size and noted; an offset whose normal degenerates in the range
    /// (the cone's apex) stays an error.
    #[test]
    fn non_rational_offsets_are_fitted_and_noted() {
        let f = frame();
        let off = |basis: Surface, distance: f64| Surface::Offset {
            basis: Box::new(basis),
            distance,
        };
        let range = ((0.0, 1.0), (-1.0, 1.0));
        let hyperboloid = Surface::Revolution {
            profile: Box::new(Curve::Line {
                origin: Vec3::new(2.0, 0.0, 0.0),
                dir: Vec3::new(0.0, 1.0, 1.0),
            }),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        };
        let elliptic = Surface::Extrusion {
            profile: Box::new(Curve::Ellipse {
                frame: f,
                semi_x: 2.0,
                semi_y: 1.0,
            }),
            direction: f.z,
        };
        let cases = [
            (
                off(Surface::BSpline(crate::geom::table1_patch()), 0.2),
                ((0.0, 1.0), (0.0, 1.0)),
            ),
            (
                off(Surface::BSpline(crate::geom::table1_patch()), -0.1),
                ((0.1, 0.9), (0.2, 0.7)),
            ),
            (off(hyperboloid, 0.5), range),
            (off(elliptic, -0.3), ((0.0, TAU), (-1.0, 2.0))),
        ];
        for (s, r) in &cases {
            let (m, note) = surface_nurbs_noted(s, 7, *r).unwrap();
            let note = note.expect("a fitted offset is noted");
            assert!(note.contains("#7") && note.contains("fitted"), "{note}");
            let ((u0, u1), (v0, v1)) = *r;
            let mut size = 0.0f64;
            let mut worst = 0.0f64;
            for i in 0..=40 {
                for j in 0..=40 {
                    let (u, v) = (u0 + (u1 - u0) * i as f64 / 40.0, v0 + (v1 - v0) * j as f64 / 40.0);
                    let q = s.eval(u, v);
                    let (a, b) = m.to_param(u, v);
                    worst = worst.max((m.surface.eval(a, b) - q).norm());
                    size = size.max((q - s.eval(u0, v0)).norm());
                }
            }
            // between the fit's own check points: a few times its tolerance
            assert!(worst <= 4.0 * OFFSET_FIT_TOL * size.max(1.0), "{s:?}: {worst}");
        }
        // exact offsets carry no note
        let cyl = off(Surface::Cylinder { frame: f, radius: 2.0 }, 0.5);
        assert!(surface_nurbs_noted(&cyl, 7, range).unwrap().1.is_none());
        let apex = off(
            Surface::Cone {
                frame: f,
                radius: 0.0,
                semi_angle: 0.3,
            },
            1.0,
        );
        let e = surface_nurbs_noted(&apex, 7, range).unwrap_err();
        assert!(
            e.to_string().contains("apex") && e.to_string().contains("fitting it failed"),
            "{e}"
        );
    }
}

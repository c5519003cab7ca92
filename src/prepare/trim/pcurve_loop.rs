//! **P-curves against 3-D edges.** A p-curve follows the coedge's samples
//! when every sample lies within `1e-3` × the samples' parameter diagonal
//! of it; one that does not is replaced by the projection of its 3-D edge
//! (or accepted by its image in space where the file prefers it). That
//! per-coedge choice mixes the two descriptions in one loop when they
//! disagree. So when some p-curve of a loop misses its samples, every
//! coedge of the loop has a p-curve of exact form whose image on the
//! surface lies within `1e-3` × the face's size of its 3-D edge, the
//! p-curves join end to end, and some image lies farther from its edge
//! than the file's tolerance (the model's linear tolerance, at least the
//! link tolerance `1e-6` × the face's size), the whole loop is bounded by
//! its p-curves, as Open CASCADE bounds a face (dtmb5415_bow #1: the
//! p-curve of one coedge leaves its 3-D edge by up to 0.65 mm near one end; the
//! file's resolution is 1.4e-2 mm). The 3-D edges stay the edge features
//! (trim curves link to them within the file's tolerance, see `features`);
//! the face range holds the p-curves' extremes ([`ExactLoops::extent`](super::ExactLoops::extent)).

use super::exact_loops::{coedge_segment, pcurve_chain};
use super::{chain_at, dist, shifted};
use crate::geom::bez2::{self, H2};
use crate::import::model::{CurveSegment, Face, Model};

/// [`fit_chain`](super::exact_loops::fit_chain)'s fallback for a p-curve the file prefers (IGES 142 with
/// flag 1) when the coedge's samples do not follow it in parameter space: the
/// samples are projections of the 3-D curve and can land on another sheet
/// of a surface that folds back on itself (ansa9_occ131_2 #1: the p-curve
/// is the side `u = 1`, its samples wander to `u ≈ 0.995`). Accepts the
/// p-curve when its points on the surface lie within `tol3` of the 3-D
/// curve `seg` (ansa9's 3-D curves run on past the p-curve's ends by up to
/// 1.1e-3 of the face's size, so the converse is not asked). Orientation by
/// the end points in space, whole-period shift by the first sample.
pub(super) fn fit_chain_3d(
    c: Vec<Vec<H2>>,
    s: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    face: &Face,
    seg: &CurveSegment,
    tol3: f64,
) -> Option<Vec<Vec<H2>>> {
    use crate::geom::Vec3;
    if !(tol3 > 0.0) {
        return None;
    }
    let c = orient_3d(c, s, periods, face, seg)?;
    let on = |p: [f64; 2]| face.surface.eval(p[0], p[1]);
    let image: Vec<Vec3> = c
        .iter()
        .flat_map(|h| (0..=32).map(move |i| bez2::eval(h, i as f64 / 32.0)))
        .map(on)
        .collect();
    let curve: Vec<Vec3> = (0..=128).map(|i| seg.eval_unit(i as f64 / 128.0).p).collect();
    let near = |p: &Vec3| curve.windows(2).any(|w| segment_foot(p, &w[0], &w[1]).0 <= tol3);
    image.iter().step_by(4).all(near).then_some(c)
}

/// Distance from `p` to the segment `a b` and the parameter `t ∈ [0, 1]` of
/// its foot.
fn segment_foot(p: &crate::geom::Vec3, a: &crate::geom::Vec3, b: &crate::geom::Vec3) -> (f64, f64) {
    let d = b - a;
    let l2 = d.dot(&d);
    let t = if l2 > 0.0 {
        ((p - a).dot(&d) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p - (a + d * t)).norm(), t)
}

/// The p-curve chain `c` oriented by its end points in space against the
/// 3-D curve `seg` (its image's ends nearer the curve's ends) and shifted by
/// whole periods to the coedge's first sample `s[0]`.
fn orient_3d(
    c: Vec<Vec<H2>>,
    s: &[(f64, f64)],
    periods: (Option<f64>, Option<f64>),
    face: &Face,
    seg: &CurveSegment,
) -> Option<Vec<Vec<H2>>> {
    let f = *s.first()?;
    if c.is_empty() {
        return None;
    }
    let on = |p: [f64; 2]| face.surface.eval(p[0], p[1]);
    let (c0, c1) = (seg.eval_unit(0.0).p, seg.eval_unit(1.0).p);
    let ends = |c: &[Vec<H2>]| (on(chain_at(c, 0.0)) - c0).norm() + (on(chain_at(c, 1.0)) - c1).norm();
    let r: Vec<Vec<H2>> = c.iter().rev().map(|h| bez2::reversed(h)).collect();
    let c = if ends(&r) < ends(&c) { r } else { c };
    let p0 = chain_at(&c, 0.0);
    let d = |x: f64, t: Option<f64>| t.map_or(0.0, |t| (x / t).round() * t);
    let (du, dv) = (d(f.0 - p0[0], periods.0), d(f.1 - p0[1], periods.1));
    Some(c.iter().map(|h| shifted(h, du, dv)).collect())
}

/// Points per Bézier span of a p-curve at which [`deviation_3d`] measures.
const DEVIATION_POINTS: usize = 32;

/// The largest distance from the p-curve chain's image on the surface to
/// the 3-D curve `seg` ([`DEVIATION_POINTS`] points per span; each point's
/// foot on the curve seeded from a 256-chord polyline and refined by
/// Gauss–Newton steps, so the chords' sagitta does not count). `NaN` where
/// the surface or the curve cannot be evaluated.
fn deviation_3d(c: &[Vec<H2>], face: &Face, seg: &CurveSegment) -> f64 {
    const N: usize = 256;
    let poly: Vec<crate::geom::Vec3> = (0..=N).map(|i| seg.eval_unit(i as f64 / N as f64).p).collect();
    let mut worst = 0.0f64;
    for h in c {
        for i in 0..=DEVIATION_POINTS {
            let uv = bez2::eval(h, i as f64 / DEVIATION_POINTS as f64);
            let p = face.surface.eval(uv[0], uv[1]);
            // nearest chord, then the foot on the curve
            let mut best = (f64::INFINITY, 0.0);
            for (k, w) in poly.windows(2).enumerate() {
                let (e, t) = segment_foot(&p, &w[0], &w[1]);
                if e < best.0 {
                    best = (e, (k as f64 + t) / N as f64);
                }
            }
            let mut s = best.1;
            let mut e = (seg.eval_unit(s).p - p).norm();
            for _ in 0..8 {
                let q = seg.eval_unit(s);
                let l2 = q.d1.dot(&q.d1);
                if !(l2 > 0.0) {
                    break;
                }
                let sn = (s + (p - q.p).dot(&q.d1) / l2).clamp(0.0, 1.0);
                let en = (seg.eval_unit(sn).p - p).norm();
                if !(en < e) {
                    break;
                }
                (s, e) = (sn, en);
            }
            worst = worst.max(e);
        }
    }
    worst
}

/// One coedge of a loop for [`pcurve_loop`]: its p-curve fitted to its
/// samples (when it follows them), the coedge, and its samples.
pub(super) type LoopPart<'a> = (
    Option<Vec<Vec<H2>>>,
    Option<&'a crate::import::model::Coedge>,
    &'a [(f64, f64)],
);

/// A loop bounded by its p-curves as a whole ([`exact_loops`](fn@super::exact_loops)): the chains
/// of every coedge (`uv`: the ones that follow their samples in parameter
/// space), or `None` when some coedge has no p-curve of exact form, a
/// p-curve's image leaves its 3-D curve by more than `accept`, the chains do
/// not join end to end in parameter space within `join` (except at a pole,
/// where the p-curves may meet anywhere along it), or no p-curve leaves its
/// 3-D curve by more than `agree` (then the p-curves and the 3-D edges
/// agree within the file's tolerance and the per-coedge choice stands).
/// With the chains, the largest distance of a p-curve's image from its 3-D
/// curve ([`deviation_3d`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn pcurve_loop(
    model: &Model,
    face: &Face,
    spans: &[LoopPart],
    periods: (Option<f64>, Option<f64>),
    accept: f64,
    agree: f64,
    join: f64,
    pole: &dyn Fn((f64, f64)) -> bool,
) -> Option<(Vec<Vec<Vec<H2>>>, f64)> {
    let mut out = Vec::with_capacity(spans.len());
    let mut worst = 0.0f64;
    for (uv, coedge, samples) in spans {
        let ce = (*coedge)?;
        let seg = coedge_segment(model, ce)?;
        let c = match uv {
            Some(c) => c.clone(),
            None => orient_3d(pcurve_chain(ce.pcurve.as_ref()?)?, samples, periods, face, &seg)?,
        };
        let d = deviation_3d(&c, face, &seg);
        if !(d <= accept) {
            return None;
        }
        worst = worst.max(d);
        out.push(c);
    }
    if !(worst > agree) || out.is_empty() {
        return None;
    }
    // the closing join may be a whole period away (a loop around a period)
    let wrap = |x: f64, t: Option<f64>| t.map_or(x, |t| x - (x / t).round() * t);
    for k in 0..out.len() {
        let a = chain_at(&out[k], 1.0);
        let mut b = chain_at(&out[(k + 1) % out.len()], 0.0);
        if k + 1 == out.len() {
            b = [a[0] + wrap(b[0] - a[0], periods.0), a[1] + wrap(b[1] - a[1], periods.1)];
        }
        if !(dist(a, b) <= join || (pole((a[0], a[1])) && pole((b[0], b[1])))) {
            return None;
        }
    }
    Some((out, worst))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::eval::FaceTrim;
    use crate::import::model::Curve;
    use crate::prepare::trim::{exact_loops, ExactLoops};

    /// Adds one edge per 3-D curve (on face 0, sources 2, 3, …) and returns
    /// the forward coedges of a loop with the given p-curves (sources 10, 11, …).
    fn edges_with_pcurves<const N: usize>(
        m: &mut Model,
        curves: [Curve; N],
        pcurves: [Curve; N],
    ) -> Vec<crate::import::model::Coedge> {
        use crate::import::model::{Coedge, Edge};
        let mut coedges = Vec::new();
        for (k, (c, pc)) in curves.into_iter().zip(pcurves).enumerate() {
            let edge = m.edges.len();
            m.edges.push(Edge {
                curve: c,
                t0: 0.0,
                t1: 1.0,
                start: None,
                end: None,
                faces: vec![0],
                source: k as u64 + 2,
            });
            coedges.push(Coedge {
                edge: Some(edge),
                forward: true,
                pcurve: Some(CurveSegment {
                    curve: pc,
                    t0: 0.0,
                    t1: 1.0,
                    forward: true,
                }),
                curve: None,
                pcurve_preferred: false,
                source: k as u64 + 10,
            });
        }
        coedges
    }

    /// A strip `x = 100 u`, `y = v` (`u, v ∈ [0, 1]`) bounded by the square's
    /// sides as p-curves; the 3-D edge of the side `v = 0` bows into the
    /// face by `dy` mm at its middle (a quadratic Bézier), the other three
    /// edges are the sides. `tol`: the file's tolerance.
    fn bowed_strip(dy: f64, tol: Option<f64>) -> Model {
        bowed_strip_wide(dy, tol, 1.0)
    }

    /// [`bowed_strip`] `width` mm wide: `y = width · v`.
    fn bowed_strip_wide(dy: f64, tol: Option<f64>, width: f64) -> Model {
        use crate::geom::{NurbsCurve, NurbsSurface, Vec3};
        use crate::import::model::{Loop, SourceFormat, Surface};
        let mut m = Model::new(SourceFormat::Iges, "strip");
        m.tolerance = tol;
        let cw = vec![
            [0.0, 0.0, 0.0, 1.0],
            [0.0, width, 0.0, 1.0],
            [100.0, 0.0, 0.0, 1.0],
            [100.0, width, 0.0, 1.0],
        ];
        let surface = Surface::BSpline(NurbsSurface::bezier(1, 1, cw).unwrap());
        let bow = NurbsCurve::bezier(vec![
            [0.0, 0.0, 0.0, 1.0],
            [50.0, 2.0 * dy, 0.0, 1.0],
            [100.0, 0.0, 0.0, 1.0],
        ])
        .unwrap();
        let line = |o: [f64; 2], d: [f64; 2]| Curve::Line {
            origin: Vec3::new(o[0], o[1], 0.0),
            dir: Vec3::new(d[0], d[1], 0.0),
        };
        let curves = [
            Curve::BSpline(bow),
            line([100.0, 0.0], [0.0, width]),
            line([100.0, width], [-100.0, 0.0]),
            line([0.0, width], [0.0, -width]),
        ];
        let pcurves = [
            line([0.0, 0.0], [1.0, 0.0]),
            line([1.0, 0.0], [0.0, 1.0]),
            line([1.0, 1.0], [-1.0, 0.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        let coedges = edges_with_pcurves(&mut m, curves, pcurves);
        m.faces.push(Face {
            surface,
            same_sense: true,
            outer: Some(Loop { coedges, source: 20 }),
            inner: Vec::new(),
            source: 1,
        });
        m
    }

    /// The curved triangle `(0,0)`, `(1,0)`, `(0,1)` on the strip of
    /// [`bowed_strip`] (p-curves: two sides and a quadratic arc through
    /// `(0.55, 0.55)` as the third), one open-shell body; the 3-D edge of the
    /// side `v = 0` bows into the face by `dy0` mm, the arc's edge (source 3)
    /// leaves the arc's image by `dy1` mm at its middle. `tol`: the file's
    /// tolerance.
    fn bowed_triangle(dy0: f64, dy1: f64, tol: f64) -> Model {
        use crate::geom::{NurbsCurve, Pose, Vec3};
        use crate::import::model::{Body, BodyKind, Loop, Shell};
        let mut m = bowed_strip(0.0, Some(tol));
        let quad = |a: [f64; 2], mid: [f64; 2], b: [f64; 2]| {
            Curve::BSpline(
                NurbsCurve::bezier(vec![
                    [a[0], a[1], 0.0, 1.0],
                    [mid[0], mid[1], 0.0, 1.0],
                    [b[0], b[1], 0.0, 1.0],
                ])
                .unwrap(),
            )
        };
        let line = |o: [f64; 2], d: [f64; 2]| Curve::Line {
            origin: Vec3::new(o[0], o[1], 0.0),
            dir: Vec3::new(d[0], d[1], 0.0),
        };
        let curves = [
            quad([0.0, 0.0], [50.0, 2.0 * dy0], [100.0, 0.0]),
            quad([100.0, 0.0], [60.0, 0.6 + 2.0 * dy1], [0.0, 1.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        let pcurves = [
            line([0.0, 0.0], [1.0, 0.0]),
            quad([1.0, 0.0], [0.6, 0.6], [0.0, 1.0]),
            line([0.0, 1.0], [0.0, -1.0]),
        ];
        m.edges.clear();
        let coedges = edges_with_pcurves(&mut m, curves, pcurves);
        m.faces[0].outer = Some(Loop { coedges, source: 20 });
        m.bodies.push(Body {
            name: "triangle".into(),
            kind: BodyKind::OpenShell,
            placement: Pose::identity(),
            shells: vec![Shell {
                faces: vec![0],
                closed: false,
                void: false,
                source: 21,
            }],
            source: 22,
        });
        m
    }

    #[test]
    fn a_p_curve_bounded_face_links_trim_curves_to_edges_within_the_file_tolerance() {
        use crate::scene::data::{Boundary, FeatureRef};
        // the side v = 0 (0.05 mm off its p-curve) makes the loop p-curve
        // bounded; the hypotenuse's edge is 5e-3 mm off its p-curve: beyond
        // the link tolerance 1e-6 × the piece's size (~1e-4 mm), within a
        // file tolerance of 1e-2 mm, not of 1e-3 mm
        for (tol, linked) in [(1e-2, true), (1e-3, false)] {
            let m = bowed_triangle(0.05, 5e-3, tol);
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert_eq!(ex.by_pcurves.len(), 1, "{tol}");
            let scene = crate::prepare::prepare(&m, &crate::prepare::PrepareOptions::default()).unwrap();
            let hyp = scene
                .edges
                .iter()
                .position(|e| e.source_id == 3)
                .expect("the hypotenuse's edge") as u32;
            let trimmed: Vec<_> = scene.pieces.iter().filter(|p| !p.trim_loops.is_empty()).collect();
            assert!(!trimmed.is_empty());
            let found = trimmed.iter().any(|p| {
                p.adjacency
                    .iter()
                    .any(|a| matches!(a.boundary, Boundary::Trim { .. }) && a.feature == FeatureRef::Edge(hyp))
            });
            assert_eq!(found, linked, "file tolerance {tol}");
        }
    }

    /// The largest distance of a point of the exact loop from the square's
    /// sides (0 when the loop is the p-curves).
    fn off_sides(ex: &ExactLoops) -> f64 {
        ex.flat[0]
            .iter()
            .map(|&(u, v)| u.abs().min((1.0 - u).abs()).min(v.abs()).min((1.0 - v).abs()))
            .fold(0.0, f64::max)
    }

    #[test]
    fn p_curves_bound_the_loop_where_they_and_the_edges_disagree_beyond_the_file_tolerance() {
        // the bow (0.05 mm, 0.05 in v) misses the p-curve's samples test
        // (1e-3 × the parameter diagonal ≈ 1.4e-3) and lies within 1e-3 of
        // the face's size (0.1 mm): the whole loop by its p-curves
        for tol in [None, Some(1e-3)] {
            let m = bowed_strip(0.05, tol);
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert_eq!(ex.by_pcurves.len(), 1, "{tol:?}");
            let (li, d) = ex.by_pcurves[0];
            assert_eq!(li, 0);
            assert!((d - 0.05).abs() <= 1e-6, "deviation {d}");
            assert_eq!(ex.projected, 0);
            assert!(off_sides(&ex) <= 1e-12, "{}", off_sides(&ex));
            let ((u0, v0), (u1, v1)) = ex.extent().unwrap();
            assert!(u0.abs() <= 1e-12 && (u1 - 1.0).abs() <= 1e-12 && v0.abs() <= 1e-12 && (v1 - 1.0).abs() <= 1e-12);
        }
    }

    #[test]
    fn a_preferred_p_curve_bounds_its_coedge_up_to_one_percent_of_the_face() {
        // a strip 100 × 10 mm; the file prefers the side v = 0's p-curve
        // (IGES 142 PREF = 1). Its edge bowing 0.5 mm off it (5e-3 of the
        // face's size, beyond the loop test's 1e-3) no longer makes the side
        // the projected edge; a bow of 5 mm (5 %) does: that p-curve is
        // taken for another curve
        for (dy, by_pcurve) in [(0.5, true), (5.0, false)] {
            let mut m = bowed_strip_wide(dy, None, 10.0);
            m.faces[0].outer.as_mut().unwrap().coedges[0].pcurve_preferred = true;
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert!(ex.by_pcurves.is_empty(), "{dy}");
            if by_pcurve {
                assert_eq!(ex.projected, 0, "{dy}");
                assert_eq!(ex.paths[0][0], crate::prepare::trim::TrimPath::PCurveInSpace);
                assert!(off_sides(&ex) <= 1e-12, "{dy}: {}", off_sides(&ex));
            } else {
                assert_eq!(ex.projected, 1, "{dy}");
                assert_eq!(ex.paths[0][0], crate::prepare::trim::TrimPath::Projected);
                // the bow in the strip's parameters (v = y / 10)
                assert!((off_sides(&ex) - 0.1 * dy).abs() <= 1e-3 * dy, "{dy}: {}", off_sides(&ex));
            }
        }
    }

    #[test]
    fn edges_within_the_file_tolerance_or_far_off_keep_the_projected_edge() {
        // within the file's tolerance (5e-3 ≤ 1e-2): they agree, the side
        // v = 0 is the projected edge; 0.5 mm beyond 1e-3 of the size: the
        // p-curve is not trusted
        for (dy, tol) in [(5e-3, Some(1e-2)), (0.5, None)] {
            let m = bowed_strip(dy, tol);
            let face = &m.faces[0];
            let ex = exact_loops(&m, face, &FaceTrim::new(&m, face));
            assert!(ex.by_pcurves.is_empty(), "{dy}");
            assert_eq!(ex.projected, 1, "{dy}");
            assert!((off_sides(&ex) - dy).abs() <= 1e-3 * dy, "{dy}: {}", off_sides(&ex));
        }
    }
}

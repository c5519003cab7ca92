//! A prepared scene ([`SceneData`]) as a B-rep [`Model`] for the writers: every
//! piece becomes a face of its own — its rational Bézier patch as a B-spline
//! surface on `[0, 1]²` (the piece parameters), `same_sense = !reversed`, and
//! its trim loops as loops of p-curves (polylines, rational Bézier curves) in
//! those parameters. Bodies keep their names and placements; with
//! [`SceneExportOptions::by_class`] each body is split into one body per
//! convexity class (`"name [convex]"`, …), so a CAD system shows the
//! decomposition.
//!
//! Trim loops have no shared edges; each trim curve gets its 3-D image on the
//! patch ([`compose_trim`]: exact rational B-spline of degree
//! `deg γ · (p + q)` up to [`MAX_DEGREE`], else a C¹ cubic fitted within
//! 1e-9 mm with a warning), so STEP (which needs a 3-D curve per edge) gets
//! trimmed faces; IGES writes both curves (faces mode 142).

use crate::geom::{NurbsCurve, NurbsSurface, Pose, Vec3, MAX_DEGREE};
use crate::import::model::{Body, BodyKind, Coedge, Curve, CurveSegment, Face, Loop, Model, Shell, SourceFormat};
use crate::scene::{ConvexityClass, SceneData, TrimCurve};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion};

/// Options of [`scene_to_model`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SceneExportOptions {
    /// One body per (scene body, convexity class) instead of one per scene body.
    pub by_class: bool,
}

fn pose_of(p: &[f64; 12]) -> Pose {
    let m = Matrix3::new(p[0], p[1], p[2], p[4], p[5], p[6], p[8], p[9], p[10]);
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(m));
    Pose::from_parts(Vec3::new(p[3], p[7], p[11]), q)
}

/// Converts a scene; `warnings` receives one line per piece that could not be converted.
pub fn scene_to_model(data: &SceneData, opts: &SceneExportOptions, warnings: &mut Vec<String>) -> Model {
    let mut m = Model::new(
        match data.meta.source_format.name() {
            "iges" => SourceFormat::Iges,
            _ => SourceFormat::Step,
        },
        data.meta.source_name.clone(),
    );
    m.producer = data.meta.producer.clone();
    let (mut n_fitted, mut max_dev) = (0usize, 0.0f64);
    for (bi, body) in data.bodies.iter().enumerate() {
        let classes: Vec<Option<ConvexityClass>> = if opts.by_class {
            ConvexityClass::ALL.iter().map(|c| Some(*c)).collect()
        } else {
            vec![None]
        };
        for class in classes {
            let mut faces = Vec::new();
            for (pi, p) in data.pieces.iter().enumerate() {
                if p.body as usize != bi || class.is_some_and(|c| c != p.class) {
                    continue;
                }
                let surf = match NurbsSurface::bezier(p.degree_u as usize, p.degree_v as usize, p.poles.clone()) {
                    Ok(s) => s,
                    Err(e) => {
                        warnings.push(format!("piece {pi}: invalid patch ({e}), not exported"));
                        continue;
                    }
                };
                let mut loops: Vec<(bool, Loop)> = Vec::new();
                for l in &p.trim_loops {
                    let mut coedges = Vec::new();
                    for c in &l.curves {
                        let seg = match c {
                            TrimCurve::Polyline(v) => CurveSegment {
                                curve: Curve::Polyline(v.iter().map(|q| Vec3::new(q[0], q[1], 0.0)).collect()),
                                t0: 0.0,
                                t1: v.len().saturating_sub(1) as f64,
                                forward: true,
                            },
                            TrimCurve::Bezier(v) => {
                                let cw = v.iter().map(|q| [q[0], q[1], 0.0, q[2]]).collect();
                                match NurbsCurve::bezier(cw) {
                                    Ok(n) => CurveSegment {
                                        curve: Curve::BSpline(n),
                                        t0: 0.0,
                                        t1: 1.0,
                                        forward: true,
                                    },
                                    Err(e) => {
                                        warnings.push(format!("piece {pi}: invalid trim curve ({e}), left out"));
                                        continue;
                                    }
                                }
                            }
                        };
                        let curve = match trim_curve_3d(&p.poles, p.degree_u as usize, p.degree_v as usize, c) {
                            Ok((c3, fitted)) => {
                                if let Some(dev) = fitted {
                                    n_fitted += 1;
                                    max_dev = max_dev.max(dev);
                                }
                                c3
                            }
                            Err(why) => {
                                warnings.push(format!("piece {pi}: trim curve without a 3-D curve ({why})"));
                                None
                            }
                        };
                        coedges.push(Coedge {
                            edge: None,
                            forward: true,
                            pcurve: Some(seg),
                            curve,
                            pcurve_preferred: false,
                            source: 0,
                        });
                    }
                    loops.push((l.outer, Loop { coedges, source: 0 }));
                }
                let outer_pos = loops.iter().position(|(o, _)| *o);
                let outer = outer_pos.map(|k| loops.remove(k).1);
                let f = m.faces.len();
                m.faces.push(Face {
                    surface: crate::import::model::Surface::BSpline(surf),
                    same_sense: !p.reversed,
                    outer,
                    inner: loops.into_iter().map(|(_, l)| l).collect(),
                    source: p.source_face,
                });
                faces.push(f);
            }
            if faces.is_empty() && class.is_some() {
                continue;
            }
            let name = match class {
                Some(c) => format!("{} [{}]", body.name, c.name()),
                None => body.name.clone(),
            };
            m.bodies.push(Body {
                name,
                kind: BodyKind::Faces,
                placement: pose_of(&body.placement),
                shells: vec![Shell {
                    faces,
                    closed: false,
                    void: false,
                    source: 0,
                }],
                source: body.source_id,
            });
        }
    }
    if n_fitted > 0 {
        warnings.push(format!(
            "{n_fitted} trim curves: the exact 3-D curve on the patch has degree above {MAX_DEGREE}; written as a fitted C1 cubic B-spline (max deviation {max_dev:.1e} mm, tolerance {FIT_TOL:e} mm)"
        ));
    }
    m
}

/// Largest deviation of a fitted 3-D trim curve from the exact one, mm.
const FIT_TOL: f64 = 1e-9;

/// The 3-D curve of a piece's trim curve on the piece's patch, on the
/// p-curve's parameter range: exact (rational B-spline of degree
/// `deg γ · (p + q)`) when that degree is at most [`MAX_DEGREE`], else a cubic
/// fitted within [`FIT_TOL`] (the deviation is returned). `Ok(None)` for a
/// trim curve whose 3-D image is a point (a patch side collapsed to a pole).
#[allow(clippy::type_complexity)]
fn trim_curve_3d(
    poles: &[[f64; 4]],
    p: usize,
    q: usize,
    c: &TrimCurve,
) -> Result<(Option<CurveSegment>, Option<f64>), String> {
    if poles.len() != (p + 1) * (q + 1) {
        return Err("pole count".into());
    }
    let (curve, t1, fitted) = match c {
        TrimCurve::Bezier(v) => {
            if v.len() < 2 {
                return Err("fewer than 2 points".into());
            }
            let cw = compose_trim(poles, p, q, v);
            if cw.len() - 1 <= MAX_DEGREE {
                let n = NurbsCurve::bezier(cw).map_err(|e| e.to_string())?;
                (n, 1.0, None)
            } else {
                let (n, dev) = fit_cubic(&cw, 0.0, 1.0, FIT_TOL).ok_or("no cubic fit within 1e-9 mm")?;
                (n, 1.0, Some(dev))
            }
        }
        TrimCurve::Polyline(v) => {
            if v.len() < 2 {
                return Err("fewer than 2 points".into());
            }
            let n = p + q;
            if n > MAX_DEGREE {
                return Err(format!("patch degree {p} + {q} above {MAX_DEGREE}"));
            }
            // one Bézier span of degree p + q per polyline segment, joined C0
            let mut cw: Vec<[f64; 4]> = Vec::new();
            let mut knots = vec![0.0; n + 1];
            for (k, w) in v.windows(2).enumerate() {
                let seg = compose_trim(poles, p, q, &[[w[0][0], w[0][1], 1.0], [w[1][0], w[1][1], 1.0]]);
                let skip = usize::from(k > 0);
                cw.extend(seg.into_iter().skip(skip));
                if k + 2 < v.len() {
                    knots.extend(std::iter::repeat((k + 1) as f64).take(n));
                }
            }
            let t1 = (v.len() - 1) as f64;
            knots.extend(std::iter::repeat(t1).take(n + 1));
            let c = NurbsCurve::try_from_homogeneous(n, knots, cw).map_err(|e| e.to_string())?;
            (c, t1, None)
        }
    };
    let p0 = curve.pole(0);
    let degenerate = (0..curve.cw.len()).all(|k| (curve.pole(k) - p0).norm() <= 1e-12 * (1.0 + p0.norm()));
    if degenerate {
        return Ok((None, None));
    }
    Ok((
        Some(CurveSegment {
            curve: Curve::BSpline(curve),
            t0: 0.0,
            t1,
            forward: true,
        }),
        fitted,
    ))
}

/// Product of two polynomials in Bernstein form on `[0, 1]` (degrees
/// `a.len() − 1` and `b.len() − 1`).
fn bern_mul(a: &[f64], b: &[f64]) -> Vec<f64> {
    let (m, n) = (a.len() - 1, b.len() - 1);
    let mut c = vec![0.0; m + n + 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            c[i + j] += binom(m, i) * binom(n, j) / binom(m + n, i + j) * x * y;
        }
    }
    c
}

fn binom(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The exact 3-D curve `S(γ(t))` of a trim curve γ (rational Bézier in the
/// patch parameters, homogeneous `[w·u, w·v, w]`) on the rational Bézier
/// patch `S` (degrees `p`, `q`, homogeneous poles, u index outer): a rational
/// Bézier curve of degree `deg γ · (p + q)`, homogeneous poles.
///
/// With `u = U/W`, `v = V/W`: `B_i^p(u) B_j^q(v) = C(p,i) C(q,j) U^i (W−U)^{p−i}
/// V^j (W−V)^{q−j} / W^{p+q}`, and the common factor `W^{p+q}` drops out of
/// the homogeneous point.
pub(crate) fn compose_trim(poles: &[[f64; 4]], p: usize, q: usize, gamma: &[[f64; 3]]) -> Vec<[f64; 4]> {
    let u: Vec<f64> = gamma.iter().map(|g| g[0]).collect();
    let v: Vec<f64> = gamma.iter().map(|g| g[1]).collect();
    let wu: Vec<f64> = gamma.iter().map(|g| g[2] - g[0]).collect();
    let wv: Vec<f64> = gamma.iter().map(|g| g[2] - g[1]).collect();
    let powers = |x: &[f64], n: usize| {
        let mut out = vec![vec![1.0]];
        for k in 1..=n {
            let next = bern_mul(&out[k - 1], x);
            out.push(next);
        }
        out
    };
    let (up, wup, vp, wvp) = (powers(&u, p), powers(&wu, p), powers(&v, q), powers(&wv, q));
    let a: Vec<Vec<f64>> = (0..=p).map(|i| bern_mul(&up[i], &wup[p - i])).collect();
    let b: Vec<Vec<f64>> = (0..=q).map(|j| bern_mul(&vp[j], &wvp[q - j])).collect();
    let deg = (gamma.len() - 1) * (p + q);
    let mut out = vec![[0.0; 4]; deg + 1];
    for (i, ai) in a.iter().enumerate() {
        for (j, bj) in b.iter().enumerate() {
            let Some(pw) = poles.get(i * (q + 1) + j) else { continue };
            let c = binom(p, i) * binom(q, j);
            for (k, x) in bern_mul(ai, bj).iter().enumerate() {
                for (o, pc) in out[k].iter_mut().zip(pw) {
                    *o += c * x * pc;
                }
            }
        }
    }
    out
}

/// Point and first derivative of a rational Bézier curve (homogeneous poles) at `t`.
fn bezier_d1(cw: &[[f64; 4]], t: f64) -> (Vec3, Vec3) {
    let n = cw.len() - 1;
    let mut pts: Vec<[f64; 4]> = cw.to_vec();
    let mut last = [[0.0; 4]; 2];
    for level in (1..=n).rev() {
        if level == 1 {
            last = [pts[0], pts[1]];
        }
        for k in 0..level {
            for c in 0..4 {
                pts[k][c] = (1.0 - t) * pts[k][c] + t * pts[k + 1][c];
            }
        }
    }
    let h = pts[0];
    let dh: Vec<f64> = (0..4).map(|c| n as f64 * (last[1][c] - last[0][c])).collect();
    let p = Vec3::new(h[0] / h[3], h[1] / h[3], h[2] / h[3]);
    let d = (Vec3::new(dh[0], dh[1], dh[2]) - p * dh[3]) / h[3];
    (p, d)
}

/// A C¹ cubic B-spline within `tol` of the rational Bézier `cw` on `[0, 1]`
/// (piecewise cubic Hermite interpolation of point and tangent, halving the
/// intervals until the deviation at 7 interior samples per span is below
/// `tol`), reparameterised onto `[t0, t1]`, with the largest deviation seen;
/// `None` when 2¹² spans do not reach it.
fn fit_cubic(cw: &[[f64; 4]], t0: f64, t1: f64, tol: f64) -> Option<(NurbsCurve, f64)> {
    let mut breaks: Vec<f64> = vec![0.0, 1.0];
    let mut worst = f64::INFINITY;
    for _ in 0..13 {
        worst = 0.0f64;
        let mut next = vec![0.0];
        for w in breaks.windows(2) {
            let (a, b) = (w[0], w[1]);
            let ((pa, da), (pb, db)) = (bezier_d1(cw, a), bezier_d1(cw, b));
            let h = b - a;
            let ctrl = [pa, pa + da * (h / 3.0), pb - db * (h / 3.0), pb];
            let mut err = 0.0f64;
            for k in 1..8 {
                let s = k as f64 / 8.0;
                let (exact, _) = bezier_d1(cw, a + s * h);
                let r = 1.0 - s;
                let c = ctrl[0] * (r * r * r)
                    + ctrl[1] * (3.0 * r * r * s)
                    + ctrl[2] * (3.0 * r * s * s)
                    + ctrl[3] * (s * s * s);
                err = err.max((c - exact).norm());
            }
            worst = worst.max(err);
            if err > tol {
                next.push(0.5 * (a + b));
            }
            next.push(b);
        }
        if next.len() == breaks.len() {
            break;
        }
        if next.len() > 4097 {
            return None;
        }
        breaks = next;
    }
    if !(worst <= tol) {
        return None;
    }
    // cubic Bézier spans sharing their end poles (interior knots of
    // multiplicity 3; tangents match, so the curve is C¹ in fact)
    let mut knots = vec![t0; 4];
    let mut pts: Vec<[f64; 3]> = Vec::new();
    for (k, w) in breaks.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let ((pa, da), (pb, db)) = (bezier_d1(cw, a), bezier_d1(cw, b));
        let h = b - a;
        if k == 0 {
            pts.push([pa.x, pa.y, pa.z]);
        }
        let c1 = pa + da * (h / 3.0);
        let c2 = pb - db * (h / 3.0);
        pts.extend([[c1.x, c1.y, c1.z], [c2.x, c2.y, c2.z], [pb.x, pb.y, pb.z]]);
        if k + 2 < breaks.len() {
            let kb = t0 + b * (t1 - t0);
            knots.extend([kb, kb, kb]);
        }
    }
    knots.extend([t1; 4]);
    NurbsCurve::try_new(3, knots, &pts, None).ok().map(|c| (c, worst))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patch() -> (Vec<[f64; 4]>, usize, usize) {
        // a rational biquadratic / cubic patch with uneven weights
        let (p, q) = (2, 3);
        let mut poles = Vec::new();
        for i in 0..=p {
            for j in 0..=q {
                let w = 1.0 + 0.3 * ((i * 7 + j * 3) % 4) as f64;
                let x = [i as f64, j as f64, ((i + 2 * j) % 3) as f64 * 0.7 - 0.4];
                poles.push([x[0] * w, x[1] * w, x[2] * w, w]);
            }
        }
        (poles, p, q)
    }

    #[test]
    fn composed_trim_curve_lies_on_the_patch() {
        let (poles, p, q) = patch();
        let s = NurbsSurface::bezier(p, q, poles.clone()).unwrap();
        let gamma = [
            [0.1 * 1.2, 0.2 * 1.2, 1.2],
            [0.7 * 0.8, 0.1 * 0.8, 0.8],
            [0.9, 0.8, 1.0],
        ];
        let (seg, fitted) = trim_curve_3d(&poles, p, q, &TrimCurve::Bezier(gamma.to_vec())).unwrap();
        assert!(fitted.is_none());
        let Some(CurveSegment {
            curve: Curve::BSpline(c),
            ..
        }) = seg
        else {
            panic!("no curve")
        };
        assert_eq!(c.degree, 2 * (p + q));
        let g = NurbsCurve::bezier(gamma.iter().map(|g| [g[0], g[1], 0.0, g[2]]).collect()).unwrap();
        for k in 0..=20 {
            let t = k as f64 / 20.0;
            let uv = g.eval(t);
            let d = (c.eval(t) - s.eval(uv.x, uv.y)).norm();
            assert!(d < 1e-12, "t {t}: {d}");
        }
    }

    #[test]
    fn polyline_trim_becomes_a_c0_bspline_on_the_patch() {
        let (poles, p, q) = patch();
        let s = NurbsSurface::bezier(p, q, poles.clone()).unwrap();
        let pts = vec![[0.0, 0.0], [1.0, 0.2], [0.6, 1.0], [0.0, 0.0]];
        let (seg, _) = trim_curve_3d(&poles, p, q, &TrimCurve::Polyline(pts.clone())).unwrap();
        let seg = seg.unwrap();
        assert_eq!(seg.t1, 3.0);
        let Curve::BSpline(c) = &seg.curve else { panic!() };
        for k in 0..=30 {
            let t = k as f64 / 10.0;
            let i = (t.floor() as usize).min(2);
            let f = t - i as f64;
            let (a, b) = (pts[i], pts[i + 1]);
            let (u, v) = (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]));
            let d = (c.eval(t) - s.eval(u, v)).norm();
            assert!(d < 1e-12, "t {t}: {d}");
        }
    }

    #[test]
    fn high_degree_trim_is_fitted_within_tolerance() {
        let (poles, p, q) = patch();
        let gamma: Vec<[f64; 3]> = (0..=3)
            .map(|k| {
                let t = k as f64 / 3.0;
                [0.1 + 0.8 * t, 0.5 + 0.4 * (t * 3.0).sin() * 0.5, 1.0]
            })
            .collect();
        // degree 3 · (2 + 3) = 15: exact; the fit is checked on the same curve
        let cw = compose_trim(&poles, p, q, &gamma);
        let (c, dev) = fit_cubic(&cw, 0.0, 1.0, FIT_TOL).unwrap();
        assert!(dev <= FIT_TOL);
        for k in 0..=97 {
            let t = k as f64 / 97.0;
            let (exact, _) = bezier_d1(&cw, t);
            assert!((c.eval(t) - exact).norm() < 2.0 * FIT_TOL, "t {t}");
        }
    }
}

//! A B-spline surface over a face's parameter range: repeated along a
//! closed direction whose trims were unwrapped outside its knot domain or
//! across its ends, then restricted to the range by knot insertion.

use super::NurbsError;
use crate::geom::primitives::{MappedSurface, ParamMap};
use crate::import::model::Surface;

/// The B-spline surface `b` (the face's surface `s`, for its periods) over
/// `range` (face parameters, finite and non-empty): [`unrolled`] along a
/// closed direction, then restricted by knot insertion where the range
/// cuts the knot domain ([`restrict`]).
pub(super) fn bspline_nurbs(
    s: &Surface,
    b: &crate::geom::NurbsSurface,
    face: u64,
    range: ((f64, f64), (f64, f64)),
) -> Result<MappedSurface, NurbsError> {
    let (u, v) = range;
    let g = |e| NurbsError::Geom { face, source: e };
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

#[cfg(test)]
mod tests {
    use super::super::surface_nurbs;
    use super::super::test_support::{check, frame};
    use super::*;
    use std::f64::consts::TAU;

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
    fn bspline_restricted() {
        let p = crate::geom::fixtures::table1_patch();
        let s = Surface::BSpline(p.clone());
        let ((a, b), (c, d)) = p.domain();
        let r = ((a + 0.3 * (b - a), a + 0.8 * (b - a)), (c + 0.1 * (d - c), d));
        check(&s, r);
        let m = surface_nurbs(&s, 1, r).unwrap();
        assert_eq!(m.surface.domain(), r);
    }
}

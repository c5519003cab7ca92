//! **Stored loops, mapped.** The clipped loops' face parameters are mapped
//! to the piece's `[0,1]²` ([`PieceMap`]): exactly (affine map of the
//! homogeneous control points) when the face's NURBS parameters are its
//! own; for angular directions of analytic surfaces (a rational arc
//! parameter, not the angle) a segment along a parameter line stays exact
//! (a line), any other becomes polynomial Bézier pieces of degree ≤ 9
//! fitted to the true curve ([`crate::prepare::fit`]: error at most `1e-11`
//! at `2n + 1` points of a degree-`n` piece, at most 14 halvings; degree
//! and halving chosen for the fewest scene bytes). Consecutive curves are
//! then made to meet end to end ([`stitch`]).

use super::clipping::Part;
use crate::geom::bez2::{self, H2};
use crate::geom::primitives::ParamMap;
use crate::prepare::nurbs::FaceNurbs;
use crate::scene::data::TrimCurve;

/// Face parameters → the piece's `[0,1]²`.
pub(super) struct PieceMap<'a> {
    f: &'a FaceNurbs,
    nrect: [f64; 4],
}

impl<'a> PieceMap<'a> {
    pub(super) fn new(f: &'a FaceNurbs, nrect: [f64; 4]) -> Self {
        Self { f, nrect }
    }

    fn identity(&self) -> bool {
        self.f.mapped.u_map == ParamMap::Identity && self.f.mapped.v_map == ParamMap::Identity
    }

    /// Unclamped map of one coordinate and its derivative.
    fn coord(&self, k: usize, x: f64) -> (f64, f64) {
        let ((ru0, ru1), (rv0, rv1)) = self.f.range;
        let (m, lo, hi, n0, n1) = if k == 0 {
            (&self.f.mapped.u_map, ru0, ru1, self.nrect[0], self.nrect[1])
        } else {
            (&self.f.mapped.v_map, rv0, rv1, self.nrect[2], self.nrect[3])
        };
        let x = x.clamp(lo, hi);
        let s = m.to_param(x);
        let dsdx = match m {
            ParamMap::Identity => 1.0,
            ParamMap::Arc(a) => {
                let d = a.param_to_angle_derivs(s)[1];
                if d != 0.0 {
                    1.0 / d
                } else {
                    0.0
                }
            }
        };
        ((s - n0) / (n1 - n0), dsdx / (n1 - n0))
    }

    fn point(&self, p: [f64; 2]) -> [f64; 2] {
        [
            self.coord(0, p[0]).0.clamp(0.0, 1.0),
            self.coord(1, p[1]).0.clamp(0.0, 1.0),
        ]
    }

    /// One clipped Bézier part in piece parameters.
    fn bezier(&self, h: &[H2], out: &mut Vec<TrimCurve>) {
        let pts: Vec<[f64; 2]> = bez2::points(h).collect();
        if pts.len() < 2 {
            return;
        }
        let flat = |k: usize| {
            let e = 1e-13 * (1.0 + pts[0][k].abs());
            pts.iter().all(|p| (p[k] - pts[0][k]).abs() <= e)
        };
        let (a, b) = (bez2::eval(h, 0.0), bez2::eval(h, 1.0));
        if h.len() == 2 || flat(0) || flat(1) {
            // a straight segment (or along a parameter line): a line in any map
            out.push(TrimCurve::Polyline(vec![self.point(a), self.point(b)]));
            return;
        }
        if self.identity() {
            let n = self.nrect;
            let (su, sv) = (1.0 / (n[1] - n[0]), 1.0 / (n[3] - n[2]));
            out.push(TrimCurve::Bezier(
                h.iter()
                    .map(|p| [(p[0] - n[0] * p[2]) * su, (p[1] - n[2] * p[2]) * sv, p[2]])
                    .collect(),
            ));
            return;
        }
        self.hermite(h, 0.0, 1.0, out);
    }

    /// The mapped curve `g(h(t))` on `[a, b]` as polynomial Bézier pieces
    /// ([`crate::prepare::fit`]): the error at `2n + 1` points of a degree-`n` piece
    /// is at most `1e-11`, halving at most 14 times.
    fn hermite(&self, h: &[H2], a: f64, b: f64, out: &mut Vec<TrimCurve>) {
        let g = |t: f64| -> [f64; 2] {
            let p = bez2::eval(h, t);
            [self.coord(0, p[0]).0, self.coord(1, p[1]).0]
        };
        let eval = |t: f64, _: [f64; 2]| Some((g(t), true));
        let params = crate::prepare::fit::FitParams {
            tol: 1e-11,
            max_depth: 14,
            min_degree: 1,
            max_degree: crate::prepare::fit::MAX_DEGREE,
        };
        for c in crate::prepare::fit::fit(
            &eval,
            a,
            b,
            g(a),
            g(b),
            None,
            params,
            crate::prepare::fit::Fallback::Best,
        ) {
            out.push(TrimCurve::Bezier(c));
        }
    }

    /// The parts as consecutive trim curves (`closed`: the last meets the first).
    pub(super) fn curves(&self, parts: &[Part], closed: bool) -> Vec<TrimCurve> {
        let mut cs: Vec<TrimCurve> = Vec::new();
        let mut any_bez = false;
        for p in parts {
            match p {
                Part::Bez(h) => {
                    any_bez = true;
                    self.bezier(h, &mut cs);
                }
                Part::Side(run) => {
                    let v: Vec<[f64; 2]> = run.iter().map(|&q| self.point(q)).collect();
                    cs.push(TrimCurve::Polyline(v));
                }
            }
        }
        if !any_bez {
            // only runs along the sides: a loop around the piece or nothing
            let pts: Vec<[f64; 2]> = cs
                .iter()
                .flat_map(|c| match c {
                    TrimCurve::Polyline(v) => v.clone(),
                    TrimCurve::Bezier(_) => Vec::new(),
                })
                .collect();
            let mut d = pts.clone();
            d.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
            d.dedup();
            if d.len() < 3 {
                return Vec::new();
            }
        }
        stitch(cs, closed)
    }
}

fn first_pt(c: &TrimCurve) -> Option<[f64; 2]> {
    match c {
        TrimCurve::Polyline(v) => v.first().copied(),
        TrimCurve::Bezier(h) => h.first().map(|p| [p[0] / p[2], p[1] / p[2]]),
    }
}

fn last_pt(c: &TrimCurve) -> Option<[f64; 2]> {
    match c {
        TrimCurve::Polyline(v) => v.last().copied(),
        TrimCurve::Bezier(h) => h.last().map(|p| [p[0] / p[2], p[1] / p[2]]),
    }
}

/// Makes consecutive curves meet (polylines take the neighbour's end point,
/// gaps between two Béziers get a line), merges neighbouring polylines and
/// drops polylines of fewer than two distinct points.
pub(super) fn stitch(cs: Vec<TrimCurve>, closed: bool) -> Vec<TrimCurve> {
    let mut out: Vec<TrimCurve> = Vec::with_capacity(cs.len());
    for c in cs {
        let prev_end = out.last().and_then(last_pt);
        match c {
            TrimCurve::Polyline(mut v) => {
                if let Some(e) = prev_end {
                    if v.first() != Some(&e) {
                        v.insert(0, e);
                    }
                }
                if let Some(TrimCurve::Polyline(p)) = out.last_mut() {
                    p.extend(v.into_iter().skip(1));
                } else {
                    out.push(TrimCurve::Polyline(v));
                }
            }
            TrimCurve::Bezier(h) => {
                let s = first_pt(&TrimCurve::Bezier(h.clone()));
                if let (Some(e), Some(s)) = (prev_end, s) {
                    if e != s {
                        match out.last_mut() {
                            Some(TrimCurve::Polyline(p)) => p.push(s),
                            _ => out.push(TrimCurve::Polyline(vec![e, s])),
                        }
                    }
                }
                out.push(TrimCurve::Bezier(h));
            }
        }
    }
    if closed && !out.is_empty() {
        let (e, s) = (out.last().and_then(last_pt), out.first().and_then(first_pt));
        if let (Some(e), Some(s)) = (e, s) {
            if e != s {
                match out.last_mut() {
                    Some(TrimCurve::Polyline(p)) => p.push(s),
                    _ => out.push(TrimCurve::Polyline(vec![e, s])),
                }
            }
        }
    }
    for c in &mut out {
        if let TrimCurve::Polyline(v) = c {
            v.dedup();
        }
    }
    out.retain(|c| !matches!(c, TrimCurve::Polyline(v) if v.len() < 2));
    out
}

//! Distances from a 3-D point to a traced [`Region`]: its projection onto
//! the face's surface (Newton from a hint, the global projection as the
//! fallback) and its distance to the face's 3-D boundary curves.

use super::Region;
use crate::geom::Vec3;
use crate::import::eval::{newton_surface, project_surface};

impl Region<'_> {
    /// The parameter box Newton may use around `(u, v)`.
    fn newton_box(&self, u: f64, v: f64) -> ((f64, f64), (f64, f64)) {
        let s = self.surface();
        let span = |k: usize| self.period[k].unwrap_or(1e300) * 0.25;
        let ((u0, u1), (v0, v1)) = s.domain().unwrap_or(((-1e300, 1e300), (-1e300, 1e300)));
        let (su, sv) = if self.swap {
            (span(1), span(0))
        } else {
            (span(0), span(1))
        };
        (
            ((u - su).max(u0).min(u), (u + su).min(u1).max(u)),
            ((v - sv).max(v0).min(v), (v + sv).min(v1).max(v)),
        )
    }

    /// Projection of `p` onto the surface from the hint `hint` (in `(a, b)`):
    /// Newton, and the global projection when Newton stays farther than
    /// `good`. Returns `(ab, distance)` with `ab` unwrapped next to the hint.
    pub fn project_near(&self, p: &Vec3, hint: Option<[f64; 2]>, good: f64) -> ([f64; 2], f64) {
        let s = self.surface();
        let (mut ab, d) = match hint.filter(|_| s.analytic_params(p).is_none()) {
            Some(h) => {
                let (u, v) = self.to_uv(h);
                let r = newton_surface(s, p, u, v, self.newton_box(u, v));
                if r.distance <= good {
                    (self.to_ab(r.u, r.v), r.distance)
                } else {
                    let g = self.project(p);
                    if g.1 < r.distance {
                        g
                    } else {
                        (self.to_ab(r.u, r.v), r.distance)
                    }
                }
            }
            None => self.project(p),
        };
        // unwrap next to the hint; a pole (a undefined) takes the hint's value
        for k in 0..2 {
            if !ab[k].is_finite() {
                ab[k] = hint.map_or(0.0, |h| h[k]);
            }
            if let (Some(per), Some(h)) = (self.period[k], hint) {
                ab[k] += ((h[k] - ab[k]) / per).round() * per;
            }
        }
        (ab, d)
    }

    /// Global projection: `(ab, distance)` (a at a pole is NaN).
    pub fn project(&self, p: &Vec3) -> ([f64; 2], f64) {
        let s = self.surface();
        if let Some((u, v)) = s.analytic_params(p) {
            let q = s.eval(if u.is_nan() { 0.0 } else { u }, v);
            return (self.to_ab(u, v), (q - p).norm());
        }
        let bounds = s.domain().unwrap_or_else(|| {
            let (a, b) = (self.bbox[0], self.bbox[1]);
            let ((u0, v0), (u1, v1)) = (self.to_uv(a), self.to_uv(b));
            let (du, dv) = ((u1 - u0).abs() * 0.1 + 1e-9, (v1 - v0).abs() * 0.1 + 1e-9);
            ((u0.min(u1) - du, u0.max(u1) + du), (v0.min(v1) - dv, v0.max(v1) + dv))
        });
        let r = project_surface(s, p, bounds, 12);
        (self.to_ab(r.u, r.v), r.distance)
    }

    /// Distance from `p` to the face's 3-D boundary: the nearest traced
    /// node (an upper bound), refined on the exact curves when that exceeds
    /// `good`: every curve whose nodes, less their reach (the longest chord
    /// between consecutive nodes: the curve between them), come nearer than
    /// the best distance so far, nearest first (Gauss–Newton from the
    /// curve's nearest node).
    pub fn boundary_distance(&self, p: &Vec3, good: f64) -> f64 {
        // per traced curve: (lower bound, nearest node's distance, its x)
        let mut curves: Vec<(f64, f64, usize, f64)> = Vec::new();
        let mut out = f64::INFINITY;
        for l in &self.loops {
            let mut i = 0;
            while i < l.nodes.len() {
                let si = l.nodes[i].seg;
                let mut j = i;
                let (mut dmin, mut x0, mut chord) = (f64::INFINITY, 0.0, 0.0f64);
                while j < l.nodes.len() && l.nodes[j].seg == si {
                    let n = &l.nodes[j];
                    let d = (n.p - p).norm();
                    if d < dmin {
                        dmin = d;
                        x0 = n.x;
                    }
                    if j > i {
                        chord = chord.max((n.p - l.nodes[j - 1].p).norm());
                    }
                    j += 1;
                }
                if !l.nodes[i].seam {
                    out = out.min(dmin);
                    curves.push((dmin - chord, dmin, si, x0));
                }
                i = j;
            }
        }
        if !(out > good) {
            return out;
        }
        curves.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(lb, _, si, x0) in &curves {
            if lb >= out || out <= good {
                break;
            }
            if si == usize::MAX || si >= self.segments.len() {
                continue;
            }
            let (seg, param) = &self.segments[si];
            let eval = |x: f64| -> (Vec3, Vec3) {
                let c = seg.eval_unit(x);
                if *param {
                    let d = self.face.surface.eval_derivs(c.p.x, c.p.y);
                    (d.p, d.su * c.d1.x + d.sv * c.d1.y)
                } else {
                    (c.p, c.d1)
                }
            };
            let mut x = x0;
            for _ in 0..12 {
                let (q, c1) = eval(x);
                out = out.min((q - p).norm());
                let l2 = c1.norm_squared();
                if !(l2 > 0.0) {
                    break;
                }
                let nx = (x + (p - q).dot(&c1) / l2).clamp(0.0, 1.0);
                if (nx - x).abs() < 1e-14 {
                    break;
                }
                x = nx;
            }
            out = out.min((eval(x).0 - p).norm());
        }
        out
    }
}

//! Outward normals of pieces and the pseudo-normals of edges (the Voronoi
//! data of PG-2005 §IV: the sum of the adjacent faces' outward normals,
//! sampled along each edge).

use super::geom::BodyGeom;
use crate::geom::{CurveEval, Vec3};

impl BodyGeom {
    /// Outward unit normal of piece `k` at `(u, v)`; at a degenerate point
    /// (a pole) the normal of a point slightly inside the patch.
    pub fn piece_normal(&self, k: u32, uv: [f64; 2]) -> Vec3 {
        let p = &self.pieces[k as usize];
        let mut uv = uv;
        for _ in 0..4 {
            let d = p.surface.eval_d1(uv[0], uv[1]);
            let n = d.su.cross(&d.sv);
            let l = n.norm();
            if l > 1e-14 * (d.su.norm() * d.sv.norm()).max(1e-300) && l.is_finite() {
                return if p.reversed { -n / l } else { n / l };
            }
            uv = [uv[0] + (0.5 - uv[0]) * 1e-4, uv[1] + (0.5 - uv[1]) * 1e-4];
        }
        Vec3::zeros()
    }

    /// Outward unit normal of piece `k` from the raw `f_u × f_v` at `uv` (as
    /// a solve already has it); [`piece_normal`](Self::piece_normal) where it is degenerate.
    pub fn outward_from(&self, k: u32, raw: &Vec3, uv: [f64; 2]) -> Vec3 {
        let l = raw.norm();
        if l > 1e-300 && l.is_finite() {
            if self.pieces[k as usize].reversed {
                -raw / l
            } else {
                raw / l
            }
        } else {
            self.piece_normal(k, uv)
        }
    }

    /// The pseudo-normal of edge `k` at parameter `t` (sum of the two adjacent
    /// outward normals, interpolated between the Voronoi samples).
    pub fn edge_pseudo_normal(&self, k: u32, t: f64) -> Vec3 {
        let e = &self.edges[k as usize];
        let s = &e.pseudo_normals;
        match s.len() {
            0 => Vec3::zeros(),
            1 => s[0].2,
            _ => {
                let i = s.partition_point(|x| x.0 < t).clamp(1, s.len() - 1);
                let (a, b) = (&s[i - 1], &s[i]);
                let w = if b.0 > a.0 {
                    ((t - a.0) / (b.0 - a.0)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                a.2 * (1.0 - w) + b.2 * w
            }
        }
    }

    /// The pseudo-normal of edge `k` at its Voronoi sample nearest to `p`.
    pub fn edge_pseudo_normal_near(&self, k: u32, p: &Vec3) -> Vec3 {
        self.edges[k as usize]
            .pseudo_normals
            .iter()
            .min_by(|a, b| (a.1 - p).norm_squared().total_cmp(&(b.1 - p).norm_squared()))
            .map_or(Vec3::zeros(), |s| s.2)
    }

    /// Squared distance from `p` to the polyline through the Voronoi sample
    /// points of edge `k` (`None` without samples). Edges with constant
    /// normals keep only their two end samples, so the polyline (not the
    /// sample points alone) stands for the edge.
    pub fn edge_samples_dist2(&self, k: u32, p: &Vec3) -> Option<f64> {
        let s = &self.edges[k as usize].pseudo_normals;
        let first = s.first()?;
        let mut best = (first.1 - p).norm_squared();
        for w in s.windows(2) {
            let (a, b) = (w[0].1, w[1].1);
            let ab = b - a;
            let l2 = ab.norm_squared();
            let x = if l2 > 0.0 {
                ((p - a).dot(&ab) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            best = best.min((a + ab * x - p).norm_squared());
        }
        Some(best)
    }
    /// The foot of `p` on edge `k` when `p` lies within `tol` of it:
    /// `(t, distance)`, else `None`. Allocation-free: the edge lies in the
    /// union of its cells' control-point boxes, so a point farther than
    /// `tol` from all of them is not on it, and the parameter range of the
    /// cells that pass holds the foot; Newton on the edge's Bézier spans
    /// starts from the nearest Voronoi sample in that range (the range's
    /// middle when none lies there).
    ///
    /// The stop: Newton on `r·c′ = 0` converges quadratically near a simple
    /// root, `|e₊| ≤ K e²` with `e ≈ |Δt|`; once a step is at most
    /// `1e-12 (1 + |t|)` the iterate after it is within `K·1e-24 (1 + |t|)²`
    /// of the root — below one ulp of `t` for any `K (1 + |t|) < 1e8` — so
    /// anything read at `t` (the pseudo-normal interpolated in `t`, an end
    /// test at `1e-12` from an end, the distance against `tol`) is the
    /// root's to rounding.
    pub fn edge_foot(&self, k: u32, p: &Vec3, tol: f64) -> Option<(f64, f64)> {
        let g = &self.edges[k as usize];
        if super::boxes::box_dist2(&g.bounds.0, &g.bounds.1, p) > tol * tol {
            return None;
        }
        let cells = self.cells.get(g.cells.start as usize..g.cells.end as usize)?;
        let mut range: Option<(f64, f64)> = None;
        for c in cells {
            if super::boxes::box_dist2(&c.lo, &c.hi, p) <= tol * tol {
                range = Some(range.map_or((c.rect[0], c.rect[1]), |(a, b)| (a.min(c.rect[0]), b.max(c.rect[1]))));
            }
        }
        let (ra, rb) = range?;
        if g.pseudo_normals.is_empty() {
            return None;
        }
        let curve = &g.spans;
        let (t0, t1) = curve.domain();
        // the nearest sample on those spans (the first of equals), each
        // distance computed once
        let s = &g.pseudo_normals;
        let (i0, i1) = (s.partition_point(|x| x.0 < ra), s.partition_point(|x| x.0 <= rb));
        let mut nearest: Option<(f64, f64)> = None;
        for s in &s[i0..i1] {
            let d = (s.1 - p).norm_squared();
            if nearest.map_or(true, |(best, _)| d.total_cmp(&best) == std::cmp::Ordering::Less) {
                nearest = Some((d, s.0));
            }
        }
        let mut t = nearest.map_or(0.5 * (ra + rb), |n| n.1);
        for _ in 0..30 {
            let c = curve.eval_derivs(t);
            let r = c.p - p;
            let h = c.d1.dot(&c.d1) + r.dot(&c.d2);
            let h = if h > 0.0 { h } else { c.d1.dot(&c.d1).max(1e-300) };
            let tn = (t - r.dot(&c.d1) / h).clamp(t0, t1);
            let done = (tn - t).abs() <= 1e-12 * (1.0 + t.abs());
            t = tn;
            if done {
                break;
            }
        }
        let d = (curve.eval(t) - p).norm();
        (d <= tol).then_some((t, d))
    }
}

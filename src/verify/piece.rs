//! The scene side: a piece's rational Bézier patch, the part of `[0,1]²` its
//! trim keeps (even-odd on the trim curves sampled into polylines: this
//! check's own containment test), its area, its samples and its boundary.

use super::region::G5;
use crate::geom::Vec3;
use crate::scene::data::{Piece, TrimCurve};

/// Largest degree handled.
pub const MAX_DEGREE: usize = 15;

/// Bernstein values and derivatives of degree `n` at `x`.
fn bernstein(n: usize, x: f64, b: &mut [f64; MAX_DEGREE + 1], db: &mut [f64; MAX_DEGREE + 1]) {
    let mut lower = [0.0; MAX_DEGREE + 1];
    // degree n−1 basis for the derivative
    let basis = |m: usize, out: &mut [f64; MAX_DEGREE + 1]| {
        out.iter_mut().for_each(|v| *v = 0.0);
        out[0] = 1.0;
        for j in 1..=m {
            let mut saved = 0.0;
            for k in 0..j {
                let t = out[k];
                out[k] = saved + (1.0 - x) * t;
                saved = x * t;
            }
            out[j] = saved;
        }
    };
    basis(n, b);
    db.iter_mut().for_each(|v| *v = 0.0);
    if n > 0 {
        basis(n - 1, &mut lower);
        for i in 0..=n {
            let a = if i > 0 { lower[i - 1] } else { 0.0 };
            let c = if i < n { lower[i] } else { 0.0 };
            db[i] = n as f64 * (a - c);
        }
    }
}

/// A piece ready for evaluation.
pub struct Patch<'s> {
    /// The piece.
    pub piece: &'s Piece,
    du: usize,
    dv: usize,
    /// Trim loops as closed polylines in `(s, t)`.
    pub loops: Vec<Vec<[f64; 2]>>,
}

impl<'s> Patch<'s> {
    /// `None` when the degrees are out of range or the poles do not match.
    pub fn new(piece: &'s Piece) -> Option<Self> {
        let (du, dv) = (piece.degree_u as usize, piece.degree_v as usize);
        if du > MAX_DEGREE || dv > MAX_DEGREE || piece.poles.len() != (du + 1) * (dv + 1) {
            return None;
        }
        let mut loops = Vec::new();
        if !piece.fully_inside {
            for l in &piece.trim_loops {
                let mut pts: Vec<[f64; 2]> = Vec::new();
                for c in &l.curves {
                    match c {
                        TrimCurve::Polyline(v) => pts.extend(v.iter().copied()),
                        TrimCurve::Bezier(h) => {
                            let n = h.len().saturating_sub(1);
                            if n > MAX_DEGREE {
                                return None;
                            }
                            let m = 4 * n.max(1);
                            for i in 0..=m {
                                let x = i as f64 / m as f64;
                                let (mut b, mut db) = ([0.0; MAX_DEGREE + 1], [0.0; MAX_DEGREE + 1]);
                                bernstein(n, x, &mut b, &mut db);
                                let mut q = [0.0; 3];
                                for (k, hp) in h.iter().enumerate() {
                                    for j in 0..3 {
                                        q[j] += b[k] * hp[j];
                                    }
                                }
                                pts.push([q[0] / q[2], q[1] / q[2]]);
                            }
                        }
                    }
                }
                if pts.len() >= 3 {
                    loops.push(pts);
                }
            }
        }
        Some(Patch { piece, du, dv, loops })
    }

    /// Whether the whole square is kept.
    pub fn untrimmed(&self) -> bool {
        self.loops.is_empty()
    }

    /// Point and first derivatives at `(s, t)`.
    pub fn eval(&self, s: f64, t: f64) -> (Vec3, Vec3, Vec3) {
        let (mut bu, mut dbu, mut bv, mut dbv) = ([0.0; 16], [0.0; 16], [0.0; 16], [0.0; 16]);
        bernstein(self.du, s, &mut bu, &mut dbu);
        bernstein(self.dv, t, &mut bv, &mut dbv);
        let (mut a, mut a_s, mut a_t) = ([0.0; 4], [0.0; 4], [0.0; 4]);
        for i in 0..=self.du {
            for j in 0..=self.dv {
                let h = &self.piece.poles[i * (self.dv + 1) + j];
                let (w0, w1, w2) = (bu[i] * bv[j], dbu[i] * bv[j], bu[i] * dbv[j]);
                for k in 0..4 {
                    a[k] += w0 * h[k];
                    a_s[k] += w1 * h[k];
                    a_t[k] += w2 * h[k];
                }
            }
        }
        let p = Vec3::new(a[0], a[1], a[2]) / a[3];
        let ps = (Vec3::new(a_s[0], a_s[1], a_s[2]) - p * a_s[3]) / a[3];
        let pt = (Vec3::new(a_t[0], a_t[1], a_t[2]) - p * a_t[3]) / a[3];
        (p, ps, pt)
    }

    /// Crossings of the line `t = const` with the trim polylines, sorted.
    fn crossings(&self, t: f64) -> Vec<f64> {
        let mut xs = Vec::new();
        for l in &self.loops {
            let n = l.len();
            for i in 0..n {
                let (a, b) = (l[i], l[(i + 1) % n]);
                if (a[1] <= t && t < b[1]) || (b[1] <= t && t < a[1]) {
                    xs.push(a[0] + (t - a[1]) / (b[1] - a[1]) * (b[0] - a[0]));
                }
            }
        }
        xs.sort_by(f64::total_cmp);
        xs
    }

    /// Kept intervals of the row `t` in `s` (clipped to `[0, 1]`).
    pub fn row(&self, t: f64) -> Vec<(f64, f64)> {
        if self.untrimmed() {
            return vec![(0.0, 1.0)];
        }
        let xs = self.crossings(t);
        xs.chunks(2)
            .filter(|c| c.len() == 2)
            .map(|c| (c[0].clamp(0.0, 1.0), c[1].clamp(0.0, 1.0)))
            .filter(|(a, b)| b > a)
            .collect()
    }

    /// Even-odd containment of `(s, t)` in the kept part.
    pub fn keeps(&self, s: f64, t: f64) -> bool {
        self.row(t).iter().any(|&(a, b)| a <= s && s <= b)
    }

    /// Area of the kept part, mm² (rows of Gauss points in `t`, Gauss in `s`
    /// over each kept interval).
    pub fn area(&self) -> f64 {
        let bands = if self.untrimmed() { 2 } else { 16 };
        let mut sum = 0.0;
        for k in 0..bands {
            for &(x, wt) in &G5 {
                let t = (k as f64 + x) / bands as f64;
                for (a, b) in self.row(t) {
                    let sub = if self.untrimmed() { 2 } else { 1 + ((b - a) * 8.0) as usize };
                    let h = (b - a) / sub as f64;
                    for i in 0..sub {
                        for &(y, ws) in &G5 {
                            let (_, ps, pt) = self.eval(a + (i as f64 + y) * h, t);
                            sum += wt / bands as f64 * ws * h * ps.cross(&pt).norm();
                        }
                    }
                }
            }
        }
        sum
    }

    /// Sample points of the kept part: a grid inside plus points along the trim.
    pub fn samples(&self, n: usize) -> Vec<Vec3> {
        let mut out = Vec::new();
        for i in 0..=n {
            let t = (i as f64 + 0.5) / (n + 1) as f64;
            let row = self.row(t);
            for j in 0..=n {
                let s = (j as f64 + 0.5) / (n + 1) as f64;
                if row.iter().any(|&(a, b)| a <= s && s <= b) {
                    out.push(self.eval(s, t).0);
                }
            }
        }
        // corners of an untrimmed piece, the trim curves of a trimmed one
        if self.untrimmed() {
            for (s, t) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                out.push(self.eval(s, t).0);
            }
        } else {
            for l in &self.loops {
                let step = (l.len() / 24).max(1);
                for q in l.iter().step_by(step) {
                    out.push(self.eval(q[0].clamp(0.0, 1.0), q[1].clamp(0.0, 1.0)).0);
                }
            }
        }
        out
    }

    /// The boundary of the kept part as polylines in `(s, t)`: trim curves,
    /// and the sides of the square where the kept part reaches them.
    pub fn boundary(&self) -> Vec<Vec<[f64; 2]>> {
        let mut out = Vec::new();
        let n = 32;
        let eps = 1e-6;
        let sides: [(fn(f64) -> (f64, f64), (f64, f64)); 4] = [
            (|x| (x, 0.0), (0.0, eps)),
            (|x| (x, 1.0), (0.0, -eps)),
            (|x| (0.0, x), (eps, 0.0)),
            (|x| (1.0, x), (-eps, 0.0)),
        ];
        for (f, (ds, dt)) in sides {
            let mut cur: Vec<[f64; 2]> = Vec::new();
            for i in 0..=n {
                let (s, t) = f(i as f64 / n as f64);
                let inside = self.untrimmed() || self.keeps((s + ds).clamp(0.0, 1.0), (t + dt).clamp(0.0, 1.0));
                if inside {
                    cur.push([s, t]);
                } else if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            if !cur.is_empty() {
                out.push(cur);
            }
        }
        for l in &self.loops {
            let mut pl: Vec<[f64; 2]> = l.iter().map(|q| [q[0].clamp(0.0, 1.0), q[1].clamp(0.0, 1.0)]).collect();
            pl.push(pl[0]);
            out.push(pl);
        }
        out
    }

    /// Distance from `p` to the boundary polylines `bd` (in `(s, t)`, with
    /// their 3-D points `pts`), refined on the patch near the nearest chord.
    pub fn boundary_distance(&self, bd: &[Vec<[f64; 2]>], pts: &[Vec<Vec3>], p: &Vec3) -> f64 {
        let mut best = (f64::INFINITY, 0usize, 0usize);
        for (k, pl) in pts.iter().enumerate() {
            for i in 0..pl.len().saturating_sub(1) {
                let d = seg_dist(p, &pl[i], &pl[i + 1]);
                if d < best.0 {
                    best = (d, k, i);
                }
            }
        }
        if !best.0.is_finite() {
            return best.0;
        }
        let (_, k, i) = best;
        let pl = &bd[k];
        let mut exact = best.0;
        for j in i.saturating_sub(1)..(i + 2).min(pl.len() - 1) {
            let (a, b) = (pl[j], pl[j + 1]);
            let f = |x: f64| {
                let (q, _, _) = self.eval(a[0] + (b[0] - a[0]) * x, a[1] + (b[1] - a[1]) * x);
                (q - p).norm()
            };
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            for _ in 0..40 {
                let m1 = lo + (hi - lo) * 0.382;
                let m2 = lo + (hi - lo) * 0.618;
                if f(m1) < f(m2) {
                    hi = m2;
                } else {
                    lo = m1;
                }
            }
            exact = exact.min(f(0.5 * (lo + hi))).min(f(0.0)).min(f(1.0));
        }
        exact
    }
}

/// Distance from `p` to the segment `[a, b]`.
pub fn seg_dist(p: &Vec3, a: &Vec3, b: &Vec3) -> f64 {
    let d = b - a;
    let l2 = d.norm_squared();
    let t = if l2 > 0.0 { ((p - a).dot(&d) / l2).clamp(0.0, 1.0) } else { 0.0 };
    (a + d * t - p).norm()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bernstein_partition_of_unity() {
        let (mut b, mut db) = ([0.0; 16], [0.0; 16]);
        bernstein(3, 0.3, &mut b, &mut db);
        assert!((b.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        assert!(db.iter().sum::<f64>().abs() < 1e-12);
    }
}

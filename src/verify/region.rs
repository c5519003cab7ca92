//! The Model face as the check sees it: its loops traced from the Model's own
//! 3-D edges (p-curves only where a coedge has no 3-D curve), an independent
//! point-in-face test and the face's trimmed area by Green's theorem.
//!
//! Nothing here calls the preparation's trim code, nor the importer's
//! [`FaceTrim`](crate::import::eval::FaceTrim): only the Model's surface and
//! curve evaluation and its point projection (`crate::import::eval`).
//!
//! Coordinates: the face is handled in `(a, b)`, which is `(u, v)`, or
//! `(v, u)` when only `v` is periodic, so that `a` is always the periodic
//! direction when there is one. The area is `∮ F db` with
//! `F(a, b) = ∫_{a0}^{a} J(s, b) ds` (`J = |S_u × S_v|`), plus the part of the
//! seam `a = a0 + P` that lies inside the face. Poles (sphere, cone apex,
//! collapsed B-spline sides) lie along the periodic direction, where `db = 0`,
//! so whether the file writes a degenerate edge there does not matter.

use crate::geom::Vec3;
use crate::import::eval::project_surface;
use crate::import::model::{Curve, CurveSegment, Face, Model, Surface};

/// 3-point Gauss–Legendre nodes and weights on `[0, 1]`.
const G3: [(f64, f64); 3] = [
    (0.112_701_665_379_258_3, 5.0 / 18.0),
    (0.5, 8.0 / 18.0),
    (0.887_298_334_620_741_7, 5.0 / 18.0),
];

/// 5-point Gauss–Legendre nodes and weights on `[0, 1]`.
pub(crate) const G5: [(f64, f64); 5] = [
    (0.046_910_077_030_668, 0.118_463_442_528_095),
    (0.230_765_344_947_158, 0.239_314_335_249_683),
    (0.5, 0.284_444_444_444_444),
    (0.769_234_655_052_842, 0.239_314_335_249_683),
    (0.953_089_922_969_332, 0.118_463_442_528_095),
];

/// One traced point of a loop.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// `(a, b)`, unwrapped continuously along the loop.
    pub ab: [f64; 2],
    /// 3-D point (body-local).
    pub p: Vec3,
    /// `d(a, b)/dt` times the Gauss weight × interval length (0 for plain samples).
    pub dab_w: [f64; 2],
    /// On a seam edge (used twice by the face): not a boundary in 3-D.
    pub seam: bool,
}

/// A traced loop: Gauss nodes (for the area) and the 3-D source segments.
#[derive(Debug, Clone, Default)]
pub struct TracedLoop {
    /// Nodes in loop order (Gauss nodes and interval ends).
    pub nodes: Vec<Node>,
}

/// A Model face prepared for the checks.
pub struct Region<'m> {
    /// The face.
    pub face: &'m Face,
    /// `(a, b) = (v, u)`.
    pub swap: bool,
    /// Periods of `a` and `b`.
    pub period: [Option<f64>; 2],
    /// The face lies on the left of its loops in `(a, b)`.
    pub left: bool,
    /// Traced loops.
    pub loops: Vec<TracedLoop>,
    /// The 3-D boundary segments (curve + range) for exact distances.
    pub segments: Vec<CurveSegment>,
    /// Box of the loops in `(a, b)` (unwrapped).
    pub bbox: [[f64; 2]; 2],
    /// Sum of the 3-D lengths of the loops, mm.
    pub perimeter: f64,
    /// The seam value `a0` (F = 0 there).
    pub a0: f64,
}

fn seg_of(model: &Model, c: &crate::import::model::Coedge) -> Option<(CurveSegment, bool)> {
    if let Some(e) = c.edge.and_then(|e| model.edges.get(e)) {
        if e.t1.is_finite() && e.t0.is_finite() {
            return Some((
                CurveSegment {
                    curve: e.curve.clone(),
                    t0: e.t0.min(e.t1),
                    t1: e.t0.max(e.t1),
                    forward: c.forward == (e.t0 <= e.t1),
                },
                false,
            ));
        }
    }
    if let Some(s) = &c.curve {
        return Some((s.clone(), false));
    }
    c.pcurve
        .as_ref()
        .filter(|p| p.t0.is_finite() && p.t1.is_finite() && p.t1 > p.t0)
        .map(|p| (p.clone(), true))
}

fn intervals(curve: &Curve) -> usize {
    match curve {
        Curve::Line { .. } => 4,
        Curve::Polyline(p) => (p.len() * 2).clamp(4, 256),
        Curve::BSpline(b) => (b.cw.len() * 2).clamp(8, 128),
        Curve::Composite(s) => (s.len() * 8).clamp(8, 256),
        _ => 24,
    }
}

impl<'m> Region<'m> {
    /// Maps `(u, v)` to `(a, b)`.
    pub fn to_ab(&self, u: f64, v: f64) -> [f64; 2] {
        if self.swap {
            [v, u]
        } else {
            [u, v]
        }
    }
    /// Maps `(a, b)` to `(u, v)`.
    pub fn to_uv(&self, ab: [f64; 2]) -> (f64, f64) {
        if self.swap {
            (ab[1], ab[0])
        } else {
            (ab[0], ab[1])
        }
    }

    fn surface(&self) -> &Surface {
        &self.face.surface
    }

    /// `(S_a, S_b)` at `ab`.
    fn derivs(&self, ab: [f64; 2]) -> (Vec3, Vec3, Vec3) {
        let (u, v) = self.to_uv(ab);
        let d = self.surface().eval_derivs(u, v);
        if self.swap {
            (d.p, d.sv, d.su)
        } else {
            (d.p, d.su, d.sv)
        }
    }

    /// Parameters of the point of the surface nearest `p`, near `hint` (unwrapped).
    fn invert(&self, p: &Vec3, hint: Option<[f64; 2]>) -> [f64; 2] {
        let s = self.surface();
        let ab = if let Some(h) = hint.filter(|_| s.analytic_params(p).is_none()) {
            let (u, v) = self.to_uv(h);
            let span = |k: usize| self.period[k].unwrap_or(1.0) * 0.25;
            let ((u0, u1), (v0, v1)) = s.domain().unwrap_or(((-1e300, 1e300), (-1e300, 1e300)));
            let (su, sv) = if self.swap { (span(1), span(0)) } else { (span(0), span(1)) };
            let b = (
                ((u - su).max(u0).min(u), (u + su).min(u1).max(u)),
                ((v - sv).max(v0).min(v), (v + sv).min(v1).max(v)),
            );
            let r = crate::import::eval::newton_surface(s, p, u, v, b);
            let tol = 1e-7 * (1.0 + p.norm());
            if r.distance <= tol {
                self.to_ab(r.u, r.v)
            } else {
                let g = self.project(p);
                if g.1 < r.distance {
                    g.0
                } else {
                    self.to_ab(r.u, r.v)
                }
            }
        } else {
            self.project(p).0
        };
        let mut ab = ab;
        // unwrap next to the hint; a pole (u undefined) takes the hint's value
        for k in 0..2 {
            if !ab[k].is_finite() {
                ab[k] = hint.map_or(0.0, |h| h[k]);
            }
            if let (Some(per), Some(h)) = (self.period[k], hint) {
                ab[k] += ((h[k] - ab[k]) / per).round() * per;
            }
        }
        ab
    }

    /// Global projection: `(ab, distance)` (a at a pole is NaN → 0).
    pub fn project(&self, p: &Vec3) -> ([f64; 2], f64) {
        let s = self.surface();
        if let Some((u, v)) = s.analytic_params(p) {
            let u = if u.is_nan() { f64::NAN } else { u };
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

    /// Traces face `face` of `model`. `None` when the face has no usable
    /// boundary and no bounded natural domain.
    pub fn new(model: &'m Model, face: &'m Face) -> Option<Self> {
        let (pu, pv) = face.surface.periods();
        let swap = pu.is_none() && pv.is_some();
        let period = if swap { [pv, pu] } else { [pu, pv] };
        let mut r = Region {
            face,
            swap,
            period,
            left: face.same_sense != swap,
            loops: Vec::new(),
            segments: Vec::new(),
            bbox: [[f64::INFINITY; 2], [f64::NEG_INFINITY; 2]],
            perimeter: 0.0,
            a0: 0.0,
        };
        let loops: Vec<&crate::import::model::Loop> = face.outer.iter().chain(face.inner.iter()).collect();
        let mut uses: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
        for l in &loops {
            for c in &l.coedges {
                if let Some(e) = c.edge {
                    *uses.entry(e).or_insert(0) += 1;
                }
            }
        }
        for l in &loops {
            let mut tl = TracedLoop::default();
            let mut prev: Option<[f64; 2]> = None;
            for c in &l.coedges {
                let Some((seg, param)) = seg_of(model, c) else { continue };
                let seam = c.edge.is_some_and(|e| uses.get(&e).copied().unwrap_or(0) >= 2);
                let n = intervals(&seg.curve);
                // interval ends plus Gauss nodes
                for i in 0..n {
                    let mut pts = vec![(i as f64 / n as f64, 0.0)];
                    pts.extend(G3.iter().map(|&(x, w)| ((i as f64 + x) / n as f64, w / n as f64)));
                    for (s, w) in pts {
                        let c = seg.eval_unit(s);
                        let (ab, p, d) = if param {
                            let ab = r.to_ab(c.p.x, c.p.y);
                            let (u, v) = (c.p.x, c.p.y);
                            let p = face.surface.eval(u, v);
                            let mut ab = ab;
                            if let Some(h) = prev {
                                for k in 0..2 {
                                    if let Some(per) = period[k] {
                                        ab[k] += ((h[k] - ab[k]) / per).round() * per;
                                    }
                                }
                            }
                            (ab, p, r.to_ab(c.d1.x, c.d1.y))
                        } else {
                            let ab = r.invert(&c.p, prev);
                            // (a', b') from S_a a' + S_b b' = C' (least squares)
                            let (_, sa, sb) = r.derivs(ab);
                            let (g11, g12, g22) = (sa.dot(&sa), sa.dot(&sb), sb.dot(&sb));
                            let (r1, r2) = (sa.dot(&c.d1), sb.dot(&c.d1));
                            let det = g11 * g22 - g12 * g12;
                            let d = if det > 1e-300 {
                                [(r1 * g22 - r2 * g12) / det, (r2 * g11 - r1 * g12) / det]
                            } else {
                                [0.0, 0.0]
                            };
                            (ab, c.p, d)
                        };
                        if w > 0.0 {
                            r.perimeter += c.d1.norm() * w;
                        }
                        prev = Some(ab);
                        tl.nodes.push(Node {
                            ab,
                            p,
                            dab_w: [d[0] * w, d[1] * w],
                            seam,
                        });
                    }
                }
                if param {
                    // the 3-D image of a p-curve for distances: keep nodes only
                } else {
                    r.segments.push(seg);
                }
            }
            // a loop of seam edges only (a closed face's seam) bounds nothing
            if tl.nodes.len() >= 3 && !tl.nodes.iter().all(|n| n.seam) {
                // poles: a node whose a is meaningless (|S_a| ≈ 0) takes its neighbours' a
                for n in &tl.nodes {
                    for k in 0..2 {
                        r.bbox[0][k] = r.bbox[0][k].min(n.ab[k]);
                        r.bbox[1][k] = r.bbox[1][k].max(n.ab[k]);
                    }
                }
                r.loops.push(tl);
            }
        }
        if r.loops.is_empty() && r.period[0].is_some() {
            // a closed surface with no boundary: the whole domain, covered by
            // the seam strip of `area` (and `contains` is true everywhere)
            let ((u0, u1), (v0, v1)) = face.surface.domain()?;
            let (a, b) = (r.to_ab(u0, v0), r.to_ab(u1, v1));
            r.bbox = [a, b];
            r.a0 = a[0];
            return Some(r);
        }
        if r.loops.is_empty() {
            // natural domain: a rectangle in parameter space
            let ((u0, u1), (v0, v1)) = face.surface.domain()?;
            let c = [[u0, v0], [u1, v0], [u1, v1], [u0, v1], [u0, v0]];
            let mut tl = TracedLoop::default();
            for w in c.windows(2) {
                let (a, b) = (r.to_ab(w[0][0], w[0][1]), r.to_ab(w[1][0], w[1][1]));
                let n = 16;
                for i in 0..n {
                    for (s, wt) in std::iter::once((i as f64 / n as f64, 0.0))
                        .chain(G3.iter().map(|&(x, wt)| ((i as f64 + x) / n as f64, wt / n as f64)))
                    {
                        let ab = [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s];
                        let (u, v) = r.to_uv(ab);
                        let d = if wt > 0.0 {
                            let (_, sa, sb) = r.derivs(ab);
                            r.perimeter += ((sa * (b[0] - a[0])) + (sb * (b[1] - a[1]))).norm() * wt;
                            [(b[0] - a[0]) * wt, (b[1] - a[1]) * wt]
                        } else {
                            [0.0; 2]
                        };
                        tl.nodes.push(Node {
                            ab,
                            p: face.surface.eval(u, v),
                            dab_w: d,
                            seam: false,
                        });
                    }
                }
            }
            // the rectangle runs counter-clockwise in (u, v)
            r.left = !swap;
            for n in &tl.nodes {
                for k in 0..2 {
                    r.bbox[0][k] = r.bbox[0][k].min(n.ab[k]);
                    r.bbox[1][k] = r.bbox[1][k].max(n.ab[k]);
                }
            }
            r.loops.push(tl);
        }
        // the seam: just below the loops when they do not wind round the
        // period (then no loop crosses it), else the natural lower bound of a
        let winds = r.period[0].is_some_and(|p| r.bbox[1][0] - r.bbox[0][0] > 0.999 * p);
        r.a0 = match (r.period[0], face.surface.natural_bounds()) {
            (_, (Some(nu), Some(nv))) => {
                if swap {
                    nv.0
                } else {
                    nu.0
                }
            }
            (_, (Some(nu), None)) if !swap => nu.0,
            (_, (None, Some(nv))) if swap => nv.0,
            _ => r.bbox[0][0],
        };
        if let (Some(p), false) = (r.period[0], winds) {
            r.a0 = r.bbox[0][0] - 1e-6 * p;
        }
        Some(r)
    }

    /// Point-in-face test at `(a, b)`: the nearest crossing of the four axis
    /// rays through the point with a loop decides, by the side of the loop
    /// the point is on (the face lies on the loops' left when
    /// [`Region::left`]). Periodic directions are searched within one period.
    /// With no crossing at all, the point is inside exactly when no loop is
    /// an outer loop (a closed surface minus holes) or the face has no loops.
    pub fn contains(&self, ab: [f64; 2]) -> bool {
        let (_, sa, sb) = self.derivs(ab);
        let (ma, mb) = (sa.norm().max(1e-12), sb.norm().max(1e-12));
        let mut best = (f64::INFINITY, false);
        let red = |x: f64, per: Option<f64>| match per {
            Some(p) => x - (x / p).round() * p,
            None => x,
        };
        for l in &self.loops {
            let n = l.nodes.len();
            for i in 0..n {
                let p = l.nodes[i].ab;
                let q = l.nodes[(i + 1) % n].ab;
                let d = [q[0] - p[0], q[1] - p[1]];
                if (d[0] == 0.0 && d[1] == 0.0) || (l.nodes[i].seam && l.nodes[(i + 1) % n].seam) {
                    continue;
                }
                // horizontal line b = ab[1]: shifts of the segment in b
                for (axis, m_along) in [(1usize, ma), (0usize, mb)] {
                    let o = 1 - axis; // coordinate along the ray
                    let (pl, ql) = (p[axis], q[axis]);
                    let lo = pl.min(ql);
                    let hi = pl.max(ql);
                    let per = self.period[axis];
                    let ks: Vec<f64> = match per {
                        Some(pp) if pp > 0.0 => {
                            let k0 = ((lo - ab[axis]) / pp).ceil() as i64;
                            let k1 = ((hi - ab[axis]) / pp).floor() as i64;
                            if k1 - k0 > 4 {
                                continue;
                            }
                            (k0..=k1).map(|k| ab[axis] + k as f64 * pp).collect()
                        }
                        _ => vec![ab[axis]],
                    };
                    for x in ks {
                        // half-open rule
                        if !((pl <= x && x < ql) || (ql <= x && x < pl)) {
                            continue;
                        }
                        let t = (x - pl) / (ql - pl);
                        let c = p[o] + t * (q[o] - p[o]);
                        let dd = red(c - ab[o], self.period[o]);
                        let dist = dd.abs() * m_along;
                        if dist < best.0 {
                            // r = point − crossing along o
                            let mut r = [0.0; 2];
                            r[o] = -dd;
                            let cross = d[0] * r[1] - d[1] * r[0];
                            best = (dist, (cross > 0.0) == self.left);
                        }
                    }
                }
            }
        }
        if best.0.is_finite() {
            return best.1;
        }
        // no crossing: holes only?
        self.loops.iter().all(|l| {
            let n = l.nodes.len();
            let mut s = 0.0;
            for i in 0..n {
                let p = l.nodes[i].ab;
                let q = l.nodes[(i + 1) % n].ab;
                s += p[0] * q[1] - q[0] * p[1];
            }
            (s > 0.0) != self.left
        })
    }

    /// `F(a, b) = ∫_{a0}^{a} J(s, b) ds`, with `a` taken modulo the period.
    fn f(&self, a: f64, b: f64) -> f64 {
        let a = match self.period[0] {
            Some(p) => self.a0 + (a - self.a0).rem_euclid(p),
            None => a,
        };
        let j = |s: f64| {
            let (_, sa, sb) = self.derivs([s, b]);
            sa.cross(&sb).norm()
        };
        match self.surface() {
            Surface::Plane { .. } => a - self.a0,
            Surface::Cylinder { .. }
            | Surface::Cone { .. }
            | Surface::Sphere { .. }
            | Surface::Torus { .. }
            | Surface::Revolution { .. }
                if !self.swap =>
            {
                (a - self.a0) * j(self.a0)
            }
            _ => {
                let len = a - self.a0;
                let full = self.period[0].unwrap_or((self.bbox[1][0] - self.bbox[0][0]).max(1e-300));
                let k = ((len.abs() / full * 16.0).ceil() as usize).clamp(1, 32);
                let h = len / k as f64;
                let mut s = 0.0;
                for i in 0..k {
                    for &(x, w) in &G5 {
                        s += w * j(self.a0 + (i as f64 + x) * h);
                    }
                }
                s * h
            }
        }
    }

    /// The face's trimmed area, mm², from the Model's boundary.
    pub fn area(&self) -> f64 {
        let mut sum = 0.0;
        let mut seam_b: Vec<f64> = Vec::new();
        for l in &self.loops {
            let n = l.nodes.len();
            for (i, nd) in l.nodes.iter().enumerate() {
                if nd.seam {
                    continue;
                }
                if nd.dab_w[1] != 0.0 {
                    sum += self.f(nd.ab[0], nd.ab[1]) * nd.dab_w[1];
                }
                // seam crossings (a = a0 mod P) between consecutive nodes
                if let Some(p) = self.period[0] {
                    let q = l.nodes[(i + 1) % n].ab;
                    let (k0, k1) = (
                        ((nd.ab[0] - self.a0) / p).floor(),
                        ((q[0] - self.a0) / p).floor(),
                    );
                    if k0 != k1 {
                        // the jump of F across the seam, integrated over the
                        // Gauss nodes on either side, is handled by the seam
                        // strip below; correct the nodes' share exactly:
                        let x = self.a0 + k0.max(k1) * p;
                        let t = (x - nd.ab[0]) / (q[0] - nd.ab[0]);
                        seam_b.push(nd.ab[1] + t * (q[1] - nd.ab[1]));
                    }
                }
            }
        }
        if !self.left {
            sum = -sum;
        }
        if let Some(p) = self.period[0] {
            // the seam line a = a0 + P: inside intervals along b
            let (blo, bhi) = match self.period[1] {
                Some(pb) => (self.bbox[0][1], self.bbox[0][1] + pb),
                None => {
                    let nb = self.face.surface.natural_bounds();
                    let nb = if self.swap { nb.0 } else { nb.1 };
                    match nb {
                        Some((lo, hi)) => (lo, hi),
                        None => (self.bbox[0][1], self.bbox[1][1]),
                    }
                }
            };
            let mut cuts: Vec<f64> = seam_b
                .into_iter()
                .map(|b| match self.period[1] {
                    Some(pb) => blo + (b - blo).rem_euclid(pb),
                    None => b,
                })
                .filter(|b| *b > blo && *b < bhi)
                .collect();
            cuts.push(blo);
            cuts.push(bhi);
            cuts.sort_by(f64::total_cmp);
            cuts.dedup();
            for w in cuts.windows(2) {
                let (b0, b1) = (w[0], w[1]);
                if b1 - b0 <= 0.0 {
                    continue;
                }
                if !self.contains([self.a0, 0.5 * (b0 + b1)]) {
                    continue;
                }
                let k = 8;
                let h = (b1 - b0) / k as f64;
                let mut s = 0.0;
                for i in 0..k {
                    for &(x, wt) in &G5 {
                        s += wt * self.f(self.a0 + p * (1.0 - 1e-15), b0 + (i as f64 + x) * h);
                    }
                }
                sum += s * h;
            }
        }
        sum
    }

    /// Distance from `p` to the face's 3-D boundary (exact on the curves near
    /// the nearest traced node).
    pub fn boundary_distance(&self, p: &Vec3) -> f64 {
        let mut best = f64::INFINITY;
        for l in &self.loops {
            for n in &l.nodes {
                best = best.min((n.p - p).norm());
            }
        }
        // refine on the 3-D curves that come close
        let mut exact = f64::INFINITY;
        for s in &self.segments {
            let a = s.eval_unit(0.0).p;
            let b = s.eval_unit(1.0).p;
            let m = s.eval_unit(0.5).p;
            let reach = (a - m).norm() + (b - m).norm();
            if (m - p).norm() - reach > best {
                continue;
            }
            exact = exact.min(crate::import::eval::distance_to_curve_range(&s.curve, s.t0, s.t1, p));
        }
        best.min(exact)
    }
}

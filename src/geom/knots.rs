//! Knot algebra on flat arrays (offline stage): Boehm knot insertion (The NURBS
//! Book A5.1 with r = 1), reparametrisation to `[0,1]`, and Bézier extraction
//! (every knot raised to multiplicity `degree`, Piegl & Tiller §5.4).
//!
//! Knot insertion is exact up to rounding: the new homogeneous poles are convex
//! combinations of the old ones, so the curve or surface does not change.

use super::basis::find_span;
use super::surface::SpanTable;
use super::{GeomError, Hpoint, NurbsCurve, NurbsSurface};

/// Inserts `t` once into a 1-D B-spline of degree `p` (homogeneous poles
/// `cw`, knots `knots`): returns the new knots and poles.
fn insert_1d(p: usize, knots: &[f64], cw: &[Hpoint], t: f64) -> (Vec<f64>, Vec<Hpoint>) {
    let n = cw.len();
    let k = find_span(n, p, t, knots);
    let mut nk = Vec::with_capacity(knots.len() + 1);
    nk.extend_from_slice(&knots[..=k]);
    nk.push(t);
    nk.extend_from_slice(&knots[k + 1..]);
    let mut q = Vec::with_capacity(n + 1);
    for i in 0..=n {
        if i + p <= k {
            q.push(cw[i]);
        } else if i > k {
            q.push(cw[i - 1]);
        } else {
            // k−p+1 ≤ i ≤ k: knots[i] ≤ knots[k] ≤ t < or = knots[k+1] ≤ knots[i+p],
            // and knots[i+p] > knots[i] because span k is non-empty.
            let a = (t - knots[i]) / (knots[i + p] - knots[i]);
            let (pi, pm) = (cw[i], cw[i - 1]);
            q.push([
                a * pi[0] + (1.0 - a) * pm[0],
                a * pi[1] + (1.0 - a) * pm[1],
                a * pi[2] + (1.0 - a) * pm[2],
                a * pi[3] + (1.0 - a) * pm[3],
            ]);
        }
    }
    (nk, q)
}

fn multiplicity(knots: &[f64], t: f64) -> usize {
    knots.iter().filter(|&&k| k == t).count()
}

fn check_insert(p: usize, knots: &[f64], n: usize, t: f64) -> Result<(), GeomError> {
    if !t.is_finite() || t < knots[p] || t > knots[n] || multiplicity(knots, t) >= p {
        return Err(GeomError::KnotInsertion(t));
    }
    Ok(())
}

/// Distinct knot values in the domain `[knots[p], knots[n]]`.
fn breakpoints(p: usize, n: usize, knots: &[f64]) -> Vec<f64> {
    let mut b: Vec<f64> = knots[p..=n].to_vec();
    b.dedup();
    b
}

/// One knot insertion of a refinement ([`refine_plan`]): the span `s` it
/// falls in (the new pole goes to slot `s`) and the blend factors of the
/// poles `s − p + 1 ..= s`. They depend on the knots only, so one plan serves
/// every row of a surface net.
struct Insertion {
    s: usize,
    a: [f64; super::MAX_DEGREE],
}

/// The insertions that raise every domain breakpoint of a 1-D B-spline of
/// degree `p` (`1 ≤ p ≤ MAX_DEGREE`, `n` poles) to multiplicity ≥ `p`, in
/// order, and the refined knots.
fn refine_plan(p: usize, knots: &[f64], n: usize) -> (Vec<f64>, Vec<Insertion>) {
    let mut k = knots.to_vec();
    let mut plan = Vec::new();
    let mut len = n;
    for b in breakpoints(p, n, knots) {
        let m = multiplicity(&k, b);
        for _ in m..p {
            let s = find_span(len, p, b, &k);
            // poles s−p+1 ..= s from the old net (s ≥ p − 1 ≥ 0 since b is in the domain)
            let lo = s + 1 - p;
            let mut a = [0.0; super::MAX_DEGREE];
            for (slot, i) in a.iter_mut().zip(lo..=s) {
                *slot = (b - k[i]) / (k[i + p] - k[i]);
            }
            plan.push(Insertion { s, a });
            k.insert(s + 1, b);
            len += 1;
        }
    }
    (k, plan)
}

/// Applies a [`refine_plan`] to one row of poles, in place: each insertion
/// recomputes the `p` affected poles from the old ones (the same arithmetic
/// as [`insert_1d`]) and shifts the rest, one memory move per inserted knot.
fn apply_plan(p: usize, plan: &[Insertion], c: &mut Vec<Hpoint>) {
    let mut fresh = [[0.0; 4]; super::MAX_DEGREE];
    for ins in plan {
        let s = ins.s;
        let lo = s + 1 - p;
        for ((slot, i), &a) in fresh.iter_mut().zip(lo..=s).zip(&ins.a) {
            let (pi, pm) = (c[i], c[i - 1]);
            *slot = [
                a * pi[0] + (1.0 - a) * pm[0],
                a * pi[1] + (1.0 - a) * pm[1],
                a * pi[2] + (1.0 - a) * pm[2],
                a * pi[3] + (1.0 - a) * pm[3],
            ];
        }
        // new pole i > s is old pole i − 1: shift the tail by one
        c.insert(s, [0.0; 4]);
        c[lo..=s].copy_from_slice(&fresh[..p]);
    }
}

/// [`refine_1d`] one allocating [`insert_1d`] at a time (any degree).
fn refine_by_insertion(p: usize, knots: &[f64], cw: &[Hpoint]) -> (Vec<f64>, Vec<Hpoint>) {
    let mut k = knots.to_vec();
    let mut c = cw.to_vec();
    for b in breakpoints(p, cw.len(), knots) {
        while multiplicity(&k, b) < p {
            let (nk, nc) = insert_1d(p, &k, &c, b);
            k = nk;
            c = nc;
        }
    }
    (k, c)
}

/// Raises every domain breakpoint to multiplicity ≥ `p` (1-D).
fn refine_1d(p: usize, knots: &[f64], cw: &[Hpoint]) -> (Vec<f64>, Vec<Hpoint>) {
    if p == 0 || p > super::MAX_DEGREE {
        // not a valid degree (never taken for checked curves)
        return refine_by_insertion(p, knots, cw);
    }
    let (k, plan) = refine_plan(p, knots, cw.len());
    let mut c = Vec::with_capacity(cw.len() + plan.len());
    c.extend_from_slice(cw);
    apply_plan(p, &plan, &mut c);
    (k, c)
}

/// Bézier pole ranges after [`refine_1d`]: for each non-empty span, its
/// parameter interval and the index of its first pole.
fn bezier_spans(p: usize, n: usize, knots: &[f64]) -> Vec<((f64, f64), usize)> {
    (p..n)
        .filter(|&k| knots[k] < knots[k + 1])
        .map(|k| ((knots[k], knots[k + 1]), k - p))
        .collect()
}

fn bezier_knots(p: usize) -> Vec<f64> {
    let mut k = vec![0.0; p + 1];
    k.extend(std::iter::repeat(1.0).take(p + 1));
    k
}

fn affine_knots(knots: &[f64], a: f64, b: f64) -> Vec<f64> {
    let s = 1.0 / (b - a);
    knots
        .iter()
        .map(|&k| {
            if k == a {
                0.0
            } else if k == b {
                1.0
            } else {
                (k - a) * s
            }
        })
        .collect()
}

impl NurbsCurve {
    /// The curve with knot `t` inserted once (same geometry). Errors when `t`
    /// is outside the domain or already of multiplicity `degree`.
    pub fn insert_knot(&self, t: f64) -> Result<NurbsCurve, GeomError> {
        check_insert(self.degree, &self.knots, self.cw.len(), t)?;
        let (k, c) = insert_1d(self.degree, &self.knots, &self.cw, t);
        NurbsCurve::try_from_homogeneous(self.degree, k, c)
    }

    /// The same curve with its domain mapped affinely onto `[0, 1]`
    /// (derivatives scale by the old domain length).
    pub fn normalized(&self) -> NurbsCurve {
        let (a, b) = self.domain();
        NurbsCurve {
            knots: affine_knots(&self.knots, a, b),
            ..self.clone()
        }
    }

    /// Bézier decomposition: one rational Bézier curve on `[0,1]` per
    /// non-empty knot span, with the span's original parameter interval.
    pub fn bezier_spans(&self) -> Vec<BezierCurveSpan> {
        let p = self.degree;
        let (k, c) = refine_1d(p, &self.knots, &self.cw);
        bezier_spans(p, c.len(), &k)
            .into_iter()
            .map(|(range, first)| BezierCurveSpan {
                range,
                curve: NurbsCurve {
                    degree: p,
                    knots: bezier_knots(p),
                    rational: self.rational,
                    cw: c[first..=first + p].to_vec(),
                },
            })
            .collect()
    }
}

/// One Bézier span of a curve (see [`NurbsCurve::bezier_spans`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BezierCurveSpan {
    /// Parameter interval of the span in the original curve.
    pub range: (f64, f64),
    /// The span as a Bézier curve on `[0,1]`: `curve(s) = original(range.0 + s·(range.1 − range.0))`.
    pub curve: NurbsCurve,
}

/// One Bézier patch of a surface (see [`NurbsSurface::bezier_patches`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BezierPatch {
    /// u interval in the original surface.
    pub u: (f64, f64),
    /// v interval in the original surface.
    pub v: (f64, f64),
    /// Knot-span indices `(iu, iv)` counting non-empty spans from 0.
    pub index: (usize, usize),
    /// The patch on `[0,1]²`: `patch(s,t) = original(u.0 + s·Δu, v.0 + t·Δv)`.
    pub patch: NurbsSurface,
}

impl NurbsSurface {
    fn column(&self, j: usize) -> Vec<Hpoint> {
        (0..self.n_u).map(|i| self.cw[i * self.n_v + j]).collect()
    }

    /// Applies a 1-D refinement to every u-column, returning the new u knots and net.
    fn map_u(&self, f: impl Fn(&[f64], &[Hpoint]) -> (Vec<f64>, Vec<Hpoint>)) -> NurbsSurface {
        let cols: Vec<(Vec<f64>, Vec<Hpoint>)> = (0..self.n_v).map(|j| f(&self.knots_u, &self.column(j))).collect();
        let knots_u = cols[0].0.clone();
        let n_u = cols[0].1.len();
        let mut cw = vec![[0.0; 4]; n_u * self.n_v];
        for (j, (_, col)) in cols.iter().enumerate() {
            for (i, c) in col.iter().enumerate() {
                cw[i * self.n_v + j] = *c;
            }
        }
        NurbsSurface {
            degree_u: self.degree_u,
            degree_v: self.degree_v,
            knots_u,
            knots_v: self.knots_v.clone(),
            n_u,
            n_v: self.n_v,
            cw,
            rational: self.rational,
            table: SpanTable::default(),
        }
    }

    /// Applies a 1-D refinement to every v-row.
    fn map_v(&self, f: impl Fn(&[f64], &[Hpoint]) -> (Vec<f64>, Vec<Hpoint>)) -> NurbsSurface {
        let rows: Vec<(Vec<f64>, Vec<Hpoint>)> = (0..self.n_u)
            .map(|i| f(&self.knots_v, &self.cw[i * self.n_v..(i + 1) * self.n_v]))
            .collect();
        let knots_v = rows[0].0.clone();
        let n_v = rows[0].1.len();
        let mut cw = Vec::with_capacity(n_v * self.n_u);
        for (_, r) in &rows {
            cw.extend_from_slice(r);
        }
        NurbsSurface {
            degree_u: self.degree_u,
            degree_v: self.degree_v,
            knots_u: self.knots_u.clone(),
            knots_v,
            n_u: self.n_u,
            n_v,
            cw,
            rational: self.rational,
            table: SpanTable::default(),
        }
    }

    /// The surface with `t` inserted once into the u knots (same geometry).
    pub fn insert_knot_u(&self, t: f64) -> Result<NurbsSurface, GeomError> {
        check_insert(self.degree_u, &self.knots_u, self.n_u, t)?;
        let p = self.degree_u;
        Ok(self.map_u(|k, c| insert_1d(p, k, c, t)).with_table())
    }

    /// The surface with `t` inserted once into the v knots (same geometry).
    pub fn insert_knot_v(&self, t: f64) -> Result<NurbsSurface, GeomError> {
        check_insert(self.degree_v, &self.knots_v, self.n_v, t)?;
        let p = self.degree_v;
        Ok(self.map_v(|k, c| insert_1d(p, k, c, t)).with_table())
    }

    /// The same surface with its domain mapped affinely onto `[0,1]²`
    /// (first derivatives scale by the old domain lengths).
    pub fn normalized(&self) -> NurbsSurface {
        let ((u0, u1), (v0, v1)) = self.domain();
        NurbsSurface {
            knots_u: affine_knots(&self.knots_u, u0, u1),
            knots_v: affine_knots(&self.knots_v, v0, v1),
            ..self.clone()
        }
        .with_table()
    }

    /// Bézier decomposition: one rational Bézier patch on `[0,1]²` per pair of
    /// non-empty knot spans, u-major order.
    pub fn bezier_patches(&self) -> Vec<BezierPatch> {
        let (pu, pv) = (self.degree_u, self.degree_v);
        let (r, su, sv) = self.refined();
        let mut out = Vec::with_capacity(su.len() * sv.len());
        for (iu, &(u, fu)) in su.iter().enumerate() {
            for (iv, &(v, fv)) in sv.iter().enumerate() {
                let mut cw = Vec::with_capacity((pu + 1) * (pv + 1));
                for i in fu..=fu + pu {
                    cw.extend_from_slice(&r.cw[i * r.n_v + fv..=i * r.n_v + fv + pv]);
                }
                let rational = cw.iter().any(|c| c[3] != 1.0);
                out.push(BezierPatch {
                    u,
                    v,
                    index: (iu, iv),
                    patch: NurbsSurface {
                        degree_u: pu,
                        degree_v: pv,
                        knots_u: bezier_knots(pu),
                        knots_v: bezier_knots(pv),
                        n_u: pu + 1,
                        n_v: pv + 1,
                        cw,
                        rational,
                        table: SpanTable::default(),
                    }
                    .with_table(),
                });
            }
        }
        out
    }

    /// The net with every breakpoint raised to full multiplicity (degrees in
    /// `1..=MAX_DEGREE`): each direction's insertions are planned once from
    /// its knots and applied to every column, then every row (the same
    /// arithmetic as refining each row on its own).
    fn refined_net(&self) -> NurbsSurface {
        let (pu, pv) = (self.degree_u, self.degree_v);
        let (knots_u, plan_u) = refine_plan(pu, &self.knots_u, self.n_u);
        let (knots_v, plan_v) = refine_plan(pv, &self.knots_v, self.n_v);
        let (n_u, n_v) = (self.n_u + plan_u.len(), self.n_v + plan_v.len());
        let mut net_u = vec![[0.0; 4]; n_u * self.n_v];
        let mut line = Vec::with_capacity(n_u.max(n_v));
        for j in 0..self.n_v {
            line.clear();
            line.extend((0..self.n_u).map(|i| self.cw[i * self.n_v + j]));
            apply_plan(pu, &plan_u, &mut line);
            for (i, c) in line.iter().enumerate() {
                net_u[i * self.n_v + j] = *c;
            }
        }
        let mut cw = Vec::with_capacity(n_u * n_v);
        for row in net_u.chunks_exact(self.n_v.max(1)) {
            line.clear();
            line.extend_from_slice(row);
            apply_plan(pv, &plan_v, &mut line);
            cw.extend_from_slice(&line);
        }
        NurbsSurface {
            degree_u: pu,
            degree_v: pv,
            knots_u,
            knots_v,
            n_u,
            n_v,
            cw,
            rational: self.rational,
            table: SpanTable::default(),
        }
    }

    /// The net with every breakpoint raised to full multiplicity and the
    /// Bézier spans of both directions.
    #[allow(clippy::type_complexity)]
    fn refined(&self) -> (NurbsSurface, Vec<((f64, f64), usize)>, Vec<((f64, f64), usize)>) {
        let (pu, pv) = (self.degree_u, self.degree_v);
        let r = if (1..=super::MAX_DEGREE).contains(&pu) && (1..=super::MAX_DEGREE).contains(&pv) {
            self.refined_net()
        } else {
            self.map_u(|k, c| refine_1d(pu, k, c)).map_v(|k, c| refine_1d(pv, k, c))
        };
        let su = bezier_spans(pu, r.n_u, &r.knots_u);
        let sv = bezier_spans(pv, r.n_v, &r.knots_v);
        (r, su, sv)
    }

    /// The homogeneous poles of every patch of [`NurbsSurface::bezier_patches`]
    /// (same order, `(degree_u + 1)(degree_v + 1)` each, row-major) with the
    /// span counts in u and v, without building the patches.
    pub(crate) fn bezier_blocks(&self) -> (usize, usize, Vec<Hpoint>) {
        let (pu, pv) = (self.degree_u, self.degree_v);
        let (r, su, sv) = self.refined();
        let mut out = Vec::with_capacity(su.len() * sv.len() * (pu + 1) * (pv + 1));
        for &(_, fu) in &su {
            for &(_, fv) in &sv {
                for i in fu..=fu + pu {
                    out.extend_from_slice(&r.cw[i * r.n_v + fv..=i * r.n_v + fv + pv]);
                }
            }
        }
        (su.len(), sv.len(), out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_surface() -> NurbsSurface {
        let (nu, nv) = (6, 5);
        let pts: Vec<[f64; 3]> = (0..nu * nv)
            .map(|k| {
                let (i, j) = ((k / nv) as f64, (k % nv) as f64);
                [i, j, (0.7 * i).sin() + 0.3 * j * j - 0.1 * i * j]
            })
            .collect();
        let w: Vec<f64> = (0..nu * nv).map(|k| 0.6 + 0.1 * (k % 7) as f64).collect();
        NurbsSurface::try_new(
            3,
            2,
            vec![0.0, 0.0, 0.0, 0.0, 0.4, 0.4, 2.0, 2.0, 2.0, 2.0],
            vec![-1.0, -1.0, -1.0, 0.5, 1.5, 3.0, 3.0, 3.0],
            nu,
            nv,
            &pts,
            Some(&w),
        )
        .unwrap()
    }

    #[test]
    fn planned_refinement_equals_row_by_row_bit_for_bit() {
        let s = sample_surface();
        let (pu, pv) = (s.degree_u, s.degree_v);
        let want = s
            .map_u(|k, c| refine_by_insertion(pu, k, c))
            .map_v(|k, c| refine_by_insertion(pv, k, c));
        let got = s.refined_net();
        assert_eq!((got.n_u, got.n_v), (want.n_u, want.n_v));
        assert_eq!(got.knots_u, want.knots_u);
        assert_eq!(got.knots_v, want.knots_v);
        let bits = |n: &NurbsSurface| n.cw.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want));
    }

    #[test]
    fn curve_insertion_matches_truck_and_keeps_geometry() {
        let c = NurbsCurve::try_new(
            3,
            vec![0.0, 0.0, 0.0, 0.0, 0.3, 0.3, 0.8, 1.0, 1.0, 1.0, 1.0],
            &[
                [0.0, 0.0, 0.0],
                [1.0, 2.0, 0.0],
                [2.0, -1.0, 1.0],
                [3.0, 0.5, 2.0],
                [4.0, 1.0, 0.0],
                [5.0, 0.0, 1.0],
                [6.0, 2.0, 2.0],
            ],
            Some(&[1.0, 0.5, 2.0, 1.0, 0.7, 1.2, 1.0]),
        )
        .unwrap();
        for &t in &[0.1, 0.3, 0.8, 0.95, 0.0001, 0.9999] {
            let ours = c.insert_knot(t).unwrap();
            let mut theirs = c.to_truck();
            theirs.add_knot(t);
            let back = NurbsCurve::try_from(&theirs).unwrap();
            assert_eq!(ours.knots, back.knots, "t={t}");
            for (a, b) in ours.cw.iter().zip(&back.cw) {
                for q in 0..4 {
                    assert!((a[q] - b[q]).abs() < 1e-14, "t={t}: {a:?} vs {b:?}");
                }
            }
            for i in 0..=40 {
                let s = i as f64 / 40.0;
                assert!((ours.eval(s) - c.eval(s)).norm() < 1e-13);
            }
        }
        assert!(c.insert_knot(1.5).is_err());
        assert!(c.insert_knot(f64::NAN).is_err());
        // 0.3 has multiplicity 2: two more insertions allowed, the third is refused.
        let c2 = c.insert_knot(0.3).unwrap();
        assert!(c2.insert_knot(0.3).is_err());
    }

    #[test]
    fn curve_bezier_spans_reproduce_the_curve() {
        let c = NurbsCurve::try_new(
            2,
            vec![0.0, 0.0, 0.0, 0.25, 0.5, 0.5, 1.0, 1.0, 1.0],
            &[
                [0.0, 0.0, 0.0],
                [1.0, 2.0, 0.0],
                [2.0, -1.0, 1.0],
                [3.0, 0.5, 2.0],
                [4.0, 1.0, 0.0],
                [5.0, 0.0, 1.0],
            ],
            Some(&[1.0, 0.5, 2.0, 1.0, 0.7, 1.2]),
        )
        .unwrap();
        let spans = c.bezier_spans();
        assert_eq!(spans.len(), 3);
        for sp in &spans {
            for i in 0..=10 {
                let s = i as f64 / 10.0;
                let t = sp.range.0 + s * (sp.range.1 - sp.range.0);
                assert!((sp.curve.eval(s) - c.eval(t)).norm() < 1e-13);
            }
        }
    }

    #[test]
    fn surface_patches_and_normalisation_reproduce_the_surface() {
        let s = sample_surface();
        let patches = s.bezier_patches();
        assert_eq!(patches.len(), 2 * 3);
        for bp in &patches {
            assert!(bp.patch.is_bezier());
            let (du, dv) = (bp.u.1 - bp.u.0, bp.v.1 - bp.v.0);
            for i in 0..=6 {
                for j in 0..=6 {
                    let (a, b) = (i as f64 / 6.0, j as f64 / 6.0);
                    let p = bp.patch.eval_derivs(a, b);
                    let q = s.eval_derivs(bp.u.0 + a * du, bp.v.0 + b * dv);
                    assert!((p.p - q.p).norm() < 1e-12);
                    assert!((p.su - q.su * du).norm() < 1e-10 * (1.0 + q.su.norm()));
                    assert!((p.sv - q.sv * dv).norm() < 1e-10 * (1.0 + q.sv.norm()));
                }
            }
        }
        let n = s.normalized();
        assert_eq!(n.domain(), ((0.0, 1.0), (0.0, 1.0)));
        let p = n.eval_derivs(0.3, 0.6);
        let q = s.eval_derivs(0.6, 1.4);
        assert!((p.p - q.p).norm() < 1e-12 && (p.sv - q.sv * 4.0).norm() < 1e-10);
        // insertion in both directions keeps the geometry
        let r = s.insert_knot_u(1.1).unwrap().insert_knot_v(0.0).unwrap();
        assert!((r.eval(1.3, 0.2) - s.eval(1.3, 0.2)).norm() < 1e-13);
        // and agrees with truck's insertion (truck: rows are u)
        let mut t = s.to_truck();
        t.add_uknot(1.1);
        let tb = NurbsSurface::try_from(&t).unwrap();
        let ru = s.insert_knot_u(1.1).unwrap();
        assert_eq!(ru.knots_u, tb.knots_u);
        for (a, b) in ru.cw.iter().zip(&tb.cw) {
            assert!((0..4).all(|q| (a[q] - b[q]).abs() < 1e-13));
        }
    }
}

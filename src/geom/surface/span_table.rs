//! The span table: the per-span Bézier form of a [`NurbsSurface`] (the
//! breakpoints of each direction and the Bézier poles of every span pair)
//! that the fast evaluator reads, and the choice, when it is built, of the
//! specialised kernel that evaluates it.

use super::{NurbsSurface, SurfacePoint};
use crate::geom::simd::{Avx2Fma, TableKernel, TableSurface};
use crate::geom::Hpoint;

/// Breakpoints of one direction: the distinct knots of the domain and the
/// reciprocal width of each span.
///
/// Up to five spans (the common case) also live in fixed arrays: the inner
/// breakpoints padded with `+∞` (`pad`), the span starts `lo` and widths
/// `iv`, so the span is a count of four comparisons that indexes them
/// without bounds checks.
#[derive(Debug, Clone, Default)]
struct Breaks {
    brk: Vec<f64>,
    inv: Vec<f64>,
    few: bool,
    t0: f64,
    t1: f64,
    pad: [f64; 4],
    lo: [f64; 5],
    iv: [f64; 5],
}

impl Breaks {
    fn of(knots: &[f64], n: usize, p: usize) -> Self {
        let mut brk: Vec<f64> = knots[p..=n].to_vec();
        brk.dedup();
        let inv: Vec<f64> = brk.windows(2).map(|w| 1.0 / (w[1] - w[0])).collect();
        let mut pad = [f64::INFINITY; 4];
        let mut lo = [0.0; 5];
        let mut iv = [0.0; 5];
        let few = inv.len() <= 5;
        if few {
            for (k, &x) in brk[1..brk.len() - 1].iter().enumerate() {
                pad[k] = x;
            }
            lo[..inv.len()].copy_from_slice(&brk[..inv.len()]);
            iv[..inv.len()].copy_from_slice(&inv);
        }
        Self {
            t0: brk[0],
            t1: brk[brk.len() - 1],
            brk,
            inv,
            few,
            pad,
            lo,
            iv,
        }
    }

    /// Span `k` holding `t` (clamped to the domain; the last span is closed on
    /// the right), the local Bézier parameter in it and the span's
    /// reciprocal width. A NaN parameter gives span 0 and a NaN local
    /// parameter.
    #[inline(always)]
    fn locate(&self, t: f64) -> (usize, f64, f64) {
        if self.few {
            // clamp without `f64::clamp`'s bound check; NaN stays NaN
            let t = if t < self.t0 {
                self.t0
            } else if t > self.t1 {
                self.t1
            } else {
                t
            };
            let c = &self.pad;
            let k = usize::from(c[0] <= t) + usize::from(c[1] <= t) + usize::from(c[2] <= t) + usize::from(c[3] <= t);
            let inv = self.iv[k];
            return (k, (t - self.lo[k]) * inv, inv);
        }
        let b = &self.brk[..];
        let last = b.len() - 1;
        let t = t.clamp(b[0], b[last]);
        let inner = &b[1..last];
        let k = if inner.len() <= 32 {
            // branch-free count of the inner breakpoints ≤ t
            inner.iter().map(|&x| usize::from(x <= t)).sum()
        } else {
            inner.partition_point(|&x| x <= t)
        };
        let inv = self.inv[k];
        (k, (t - b[k]) * inv, inv)
    }
}

/// Largest table, in homogeneous poles (2 MiB); larger multi-span surfaces
/// are evaluated by the general B-spline path.
const MAX_TABLE_POLES: usize = 1 << 16;

/// Per-span Bézier form of a [`NurbsSurface`] (derived data, built by the
/// constructors): for each direction the breakpoints and reciprocal span
/// widths, and for a multi-span surface the Bézier poles of every span pair
/// (obtained by knot insertion, so the geometry is the same to rounding),
/// `(p_u+1)(p_v+1)` homogeneous poles per pair, pairs u-major. A single
/// Bézier span reads the surface's own poles. Evaluation on the table needs
/// no knot-span search beyond a count of breakpoints and no division: the
/// basis is Bernstein's, scaled by the span's reciprocal width.
///
/// Built for the degree pairs with specialised evaluators and up to
/// `2^16` table poles; otherwise empty (the general path is used). Two
/// tables compare equal always (they are derived from the compared fields).
#[derive(Clone, Default)]
pub struct SpanTable {
    /// Identity of the data the table was built from (see `NurbsSurface::key`).
    pub(super) key: [usize; 6],
    u: Breaks,
    v: Breaks,
    blocks: Vec<Hpoint>,
    built: bool,
    /// The specialised evaluator for this surface's degrees and rationality,
    /// chosen at build time (AVX2 + FMA when the CPU has both).
    pub(super) kernel: Option<TableKernel<NurbsSurface>>,
}

/// Picks the table evaluator for a degree pair (`None` when there is no
/// specialisation), with AVX2 + FMA when the running CPU has both.
pub(super) fn pick_kernel(pu: usize, pv: usize, rational: bool) -> Option<TableKernel<NurbsSurface>> {
    let isa = Avx2Fma::detect();
    match (pu, pv, rational) {
        (1, 1, false) => Some(TableKernel::new::<2, 2, false>(isa)),
        (2, 2, false) => Some(TableKernel::new::<3, 3, false>(isa)),
        (3, 3, false) => Some(TableKernel::new::<4, 4, false>(isa)),
        (4, 4, false) => Some(TableKernel::new::<5, 5, false>(isa)),
        (5, 5, false) => Some(TableKernel::new::<6, 6, false>(isa)),
        (1, 1, true) => Some(TableKernel::new::<2, 2, true>(isa)),
        (2, 2, true) => Some(TableKernel::new::<3, 3, true>(isa)),
        (3, 3, true) => Some(TableKernel::new::<4, 4, true>(isa)),
        (4, 4, true) => Some(TableKernel::new::<5, 5, true>(isa)),
        (5, 5, true) => Some(TableKernel::new::<6, 6, true>(isa)),
        (2, 1, true) => Some(TableKernel::new::<3, 2, true>(isa)),
        (1, 2, true) => Some(TableKernel::new::<2, 3, true>(isa)),
        (3, 1, false) => Some(TableKernel::new::<4, 2, false>(isa)),
        (1, 3, false) => Some(TableKernel::new::<2, 4, false>(isa)),
        (3, 2, false) => Some(TableKernel::new::<4, 3, false>(isa)),
        (2, 3, false) => Some(TableKernel::new::<3, 4, false>(isa)),
        _ => None,
    }
}

impl PartialEq for SpanTable {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for SpanTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpanTable")
            .field("built", &self.built)
            .field("spans", &(self.u.inv.len(), self.v.inv.len()))
            .field("blocks", &self.blocks.len())
            .finish()
    }
}

impl SpanTable {
    /// The table of `s` (empty when `s` has no specialised kernel or is too large).
    pub(super) fn build(s: &NurbsSurface) -> Self {
        let Some(kernel) = pick_kernel(s.degree_u, s.degree_v, s.rational) else {
            return Self::default();
        };
        let u = Breaks::of(&s.knots_u, s.n_u, s.degree_u);
        let v = Breaks::of(&s.knots_v, s.n_v, s.degree_v);
        let (su, sv) = (u.inv.len(), v.inv.len());
        let per = (s.degree_u + 1) * (s.degree_v + 1);
        let blocks = if s.is_bezier() {
            Vec::new()
        } else {
            if su * sv * per > MAX_TABLE_POLES {
                return Self::default();
            }
            // the poles of `bezier_patches()`, without building the patches
            let (nu, nv, blocks) = s.bezier_blocks();
            if nu * nv != su * sv || blocks.len() != su * sv * per {
                return Self::default();
            }
            blocks
        };
        if !(u.inv.iter().chain(&v.inv).all(|x| x.is_finite() && *x > 0.0)
            && blocks.iter().flatten().all(|x| x.is_finite()))
        {
            return Self::default();
        }
        Self {
            key: s.key(),
            u,
            v,
            blocks,
            built: true,
            kernel: Some(kernel),
        }
    }

    /// True when this table was built from `s`'s current arrays.
    #[inline(always)]
    pub(super) fn matches(&self, s: &NurbsSurface) -> bool {
        // branch-free word comparison (an array `==` calls memcmp)
        let (a, b) = (&self.key, s.key());
        let diff = (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) | (a[5] ^ b[5]);
        self.built & (diff == 0)
    }

    /// True when the table holds data (the fast evaluator is used while it
    /// matches its surface).
    pub fn is_built(&self) -> bool {
        self.built
    }
}

impl TableSurface for NurbsSurface {
    /// The portable table evaluator: the specialised evaluator on the table.
    #[inline(always)]
    fn eval_table_portable<const OU: usize, const OV: usize, const R: bool>(&self, u: f64, v: f64) -> SurfacePoint {
        self.eval_fixed::<OU, OV, R>(u, v, true, None)
    }

    /// The span table's Bézier poles of the span holding `(u, v)` (contiguous,
    /// `OU × OV`, u-major; a single span reads the surface's own poles), the
    /// local parameters in it and its reciprocal widths. The table must
    /// match the surface.
    #[inline(always)]
    fn span_block<const OU: usize, const OV: usize>(&self, u: f64, v: f64) -> (&[Hpoint], f64, f64, f64, f64) {
        let t = &self.table;
        let (ku, su, scu) = t.u.locate(u);
        let (kv, sv, scv) = t.v.locate(v);
        let blk = if t.blocks.is_empty() {
            &self.cw[..OU * OV]
        } else {
            let b = (ku * t.v.inv.len() + kv) * (OU * OV);
            &t.blocks[b..b + OU * OV]
        };
        (blk, su, sv, scu, scv)
    }
}

//! **Chords that leave the curve's image.** [`FaceTrim`](super::FaceTrim)
//! joins the parameters of consecutive loop samples by straight chords. Where
//! the surface's parameterisation is singular (a sphere's pole, a cone's
//! apex, a revolution's profile on its axis) a curve passing near that side
//! turns by up to half a period in `u` within a short arc: its image in
//! `(u, v)` is nowhere near the chord between the samples on either side
//! (alibre_s1 #1922: a circle 0.0025 rad from both poles, sampled every
//! 0.065 rad, whose chord across the pole cut 0.03 rad into the face).
//!
//! A chord is split at the curve's midpoint when the surface point at the
//! chord's middle lies farther from the curve's midpoint than 2 % of the
//! chord's 3-D length (an ordinary chord of a smooth curve sampled as
//! [`sample_fractions`](super::sample_fractions) does sags by less than 1 %);
//! its halves are then split until that distance is within `1e-4` of the
//! first chord's length (beyond the curve's own distance from the surface),
//! at most [`MAX_DEPTH`] times. The refined polygon is for classification
//! only; the samples themselves (which the exact trims are built from) stay.
//!
//! This is offline code (import checks, tests, preparation), not the runtime
//! tracker path.

use super::projection::{newton_surface, project_surface};
use crate::geom::Vec3;
use crate::import::model::{CurveSegment, Surface};

/// Largest number of halvings of one chord.
pub const MAX_DEPTH: usize = 16;

/// One loop sample as the refinement needs it.
#[derive(Clone, Copy)]
struct Sample {
    /// Fraction of the curve segment.
    s: f64,
    /// Parameters on the surface (unwrapped along the loop).
    uv: (f64, f64),
    /// The curve's point.
    p: Vec3,
    /// Distance of `p` from the surface point at `uv`.
    gap: f64,
}

/// What the refinement knows about a surface.
pub(super) struct Chords<'a> {
    /// The face's surface.
    pub surface: &'a Surface,
    /// Its periods.
    pub periods: (Option<f64>, Option<f64>),
    /// Its natural parameter box (or a wide one), for Newton.
    pub bounds: ((f64, f64), (f64, f64)),
}

impl Chords<'_> {
    /// The chord from `uv[i]` to `uv[i + 1]` of a run of consecutive samples
    /// of one curve segment `seg` (`fractions[i]` the sample's fraction of
    /// it, `pts[i]` its 3-D point), with the points added inside each chord
    /// that leaves the curve's image. Returns `None` when no chord was split.
    pub fn refine(
        &self,
        seg: &CurveSegment,
        fractions: &[f64],
        pts: &[Vec3],
        uv: &[(f64, f64)],
    ) -> Option<Vec<(f64, f64)>> {
        let n = fractions.len().min(pts.len()).min(uv.len());
        let mut out: Vec<(f64, f64)> = Vec::new();
        let mut split = false;
        for i in 0..n {
            out.push(uv[i]);
            if i + 1 == n {
                break;
            }
            let a = self.sample(fractions[i], uv[i], pts[i]);
            let b = self.sample(fractions[i + 1], uv[i + 1], pts[i + 1]);
            let before = out.len();
            self.split(seg, a, b, None, MAX_DEPTH, &mut out);
            split |= out.len() > before;
        }
        split.then_some(out)
    }

    fn sample(&self, s: f64, uv: (f64, f64), p: Vec3) -> Sample {
        let gap = (self.surface.eval(uv.0, uv.1) - p).norm();
        Sample { s, uv, p, gap }
    }

    /// Pushes the points inside chord `a`–`b` (not its ends), in order.
    /// `tol`: `None` while the chord is an ordinary one, then the distance a
    /// split chord's halves must come within.
    fn split(&self, seg: &CurveSegment, a: Sample, b: Sample, tol: Option<f64>, depth: usize, out: &mut Vec<(f64, f64)>) {
        if depth == 0 || !(a.uv.0.is_finite() && a.uv.1.is_finite() && b.uv.0.is_finite() && b.uv.1.is_finite()) {
            return;
        }
        let sm = 0.5 * (a.s + b.s);
        let cm = seg.eval_unit(sm).p;
        let mid = (0.5 * (a.uv.0 + b.uv.0), 0.5 * (a.uv.1 + b.uv.1));
        let dev = (self.surface.eval(mid.0, mid.1) - cm).norm();
        let chord = (a.p - b.p).norm();
        let gap = a.gap.max(b.gap);
        let floor = 2.0 * gap + 1e-12 * (1.0 + cm.norm());
        let tol = match tol {
            Some(t) => t,
            None if dev > 0.02 * chord + floor => 1e-4 * chord,
            None => return,
        };
        if dev <= tol + floor {
            return;
        }
        let Some(m) = self.at(cm, sm, mid, &[a.uv, b.uv]) else {
            return;
        };
        self.split(seg, a, m, Some(tol), depth - 1, out);
        out.push(m.uv);
        self.split(seg, m, b, Some(tol), depth - 1, out);
    }

    /// The sample of curve point `p` (fraction `s`): its parameters on the
    /// surface (closed form where there is one, else Newton from `near` and
    /// then from `starts`), unwrapped to the period nearest `near`.
    fn at(&self, p: Vec3, s: f64, near: (f64, f64), starts: &[(f64, f64)]) -> Option<Sample> {
        let (mut u, mut v) = match self.surface.analytic_params(&p) {
            Some(uv) => uv,
            None => {
                let mut best = newton_surface(self.surface, &p, near.0, near.1, self.bounds);
                for &(su, sv) in starts {
                    let r = newton_surface(self.surface, &p, su, sv, self.bounds);
                    if r.distance < best.distance {
                        best = r;
                    }
                }
                if !best.distance.is_finite() {
                    best = project_surface(self.surface, &p, self.bounds, 24);
                }
                (best.u, best.v)
            }
        };
        if u.is_nan() {
            // on a pole: any u
            u = near.0;
        }
        if let Some(t) = self.periods.0 {
            u += ((near.0 - u) / t).round() * t;
        }
        if let Some(t) = self.periods.1 {
            v += ((near.1 - v) / t).round() * t;
        }
        (u.is_finite() && v.is_finite()).then(|| self.sample(s, (u, v), p))
    }
}

//! **Distance to sampled exact curves**: the one search the self-check makes
//! for both of its boundary distances, from a 3-D point to
//!
//! * the boundary of a face's pieces (the boundary test: the trim curves and
//!   sides of every piece, [`super::boundary`]), and
//! * the Model face's own 3-D boundary (a containment sample whose
//!   projection falls outside the face, [`super::region`]).
//!
//! Each curve is known by dense samples along it (the 3-D point and the
//! curve's unit parameter); a curve's *reach* is the longest chord between
//! two of its consecutive samples, so that no point of the curve lies
//! farther than its reach from its nearest sample (half a chord, and as much
//! again for the bulge of the curve between two samples).
//!
//! The nearest sample is an upper bound of the distance; a curve's nearest
//! sample less its reach is a lower bound of its distance, and a sample's
//! distance less its *local reach* (the longer chord to its neighbours) a
//! lower bound of the distance to the curve on either side of it. When the
//! upper bound exceeds the tolerance, the curve of the nearest sample is
//! refined on the exact curve first (Gauss–Newton from that sample,
//! [`closest_on_curve`]); then from every sample whose lower bound comes
//! nearer than the best distance found, nearest lower bound first (not only
//! from each curve's nearest sample: where a curve's speed varies much, the
//! steps from its nearest sample end in a local minimum of the distance). The samples sit
//! in one [`PointTree`]: a point gathers only the samples within the upper
//! bound plus the largest reach (every curve with a lower bound under the
//! best distance has one there), instead of scanning every sample, which
//! cost more than preparing the scene on faces with many pieces or long
//! boundaries.

use super::budget;
use super::nearest::PointTree;
use crate::geom::Vec3;

/// Samples of a set of curves, indexed.
pub struct SampledCurves {
    /// Per sample: its curve and the curve's unit parameter there.
    at: Vec<(usize, f64)>,
    pts: Vec<Vec3>,
    tree: PointTree,
    /// Per sample: the longer of the chords to its neighbours on its curve,
    /// mm (its *local reach*: the points of the curve between it and its
    /// neighbours lie within it of the sample).
    local: Vec<f64>,
    /// The largest reach, mm.
    max_reach: f64,
}

/// Reusable buffers of [`SampledCurves::distance`].
#[derive(Default)]
pub struct Scratch {
    near: Vec<usize>,
    /// Per gathered sample: (lower bound, sample).
    candidates: Vec<(f64, usize)>,
}

impl SampledCurves {
    /// Indexes `samples`: `(point, curve id, unit parameter)`, the samples
    /// of one curve consecutive and in order along it (curve ids are small
    /// integers: the caller's index of its curves).
    pub fn new(samples: Vec<(Vec3, usize, f64)>) -> Self {
        let mut local = vec![0.0f64; samples.len()];
        for (i, w) in samples.windows(2).enumerate() {
            if w[0].1 == w[1].1 {
                let c = (w[1].0 - w[0].0).norm();
                local[i] = local[i].max(c);
                local[i + 1] = local[i + 1].max(c);
            }
        }
        let max_reach = local.iter().copied().fold(0.0, f64::max);
        let pts: Vec<Vec3> = samples.iter().map(|s| s.0).collect();
        SampledCurves {
            tree: PointTree::new(&pts),
            at: samples.iter().map(|s| (s.1, s.2)).collect(),
            pts,
            local,
            max_reach,
        }
    }

    /// The distance from `p` to the curves, exact to the refinement
    /// (`refine(curve, x0)`: the distance from `p` to the exact curve, from
    /// its parameter `x0`) wherever it exceeds `tol`; infinite without
    /// samples. Charges the face's [`budget`] for the samples gathered and
    /// the curves refined, and stops refining once it is spent.
    pub fn distance(
        &self,
        p: &Vec3,
        tol: f64,
        scratch: &mut Scratch,
        mut refine: impl FnMut(usize, f64) -> f64,
    ) -> f64 {
        let Some((first, d2)) = self.tree.nearest(p) else {
            return f64::INFINITY;
        };
        let mut best = d2.sqrt();
        if !(best > tol) {
            return best;
        }
        // most points lie nearest to the curve of their nearest sample
        let (c0, x0) = self.at[first];
        best = best.min(refine(c0, x0));
        if !(best > tol) {
            return best;
        }
        scratch.near.clear();
        self.tree.within(p, best + self.max_reach, &mut scratch.near);
        budget::charge(scratch.near.len() as u64 / budget::GATHER_PER_UNIT);
        // every gathered sample with its lower bound (its distance less its
        // local reach), not only each curve's nearest: on a curve whose
        // speed varies much (a trim arc whose image runs most of its length
        // in a few hundredths of its parameter) the refinement from the
        // nearest sample ends in a local minimum of the distance, and the
        // foot lies beside another sample of the same curve
        scratch.candidates.clear();
        for &i in &scratch.near {
            if i != first {
                scratch.candidates.push(((self.pts[i] - p).norm() - self.local[i], i));
            }
        }
        scratch.candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(lb, i) in &scratch.candidates {
            if lb >= best || best <= tol || !budget::charge(budget::REFINE_UNITS) {
                break;
            }
            let (c, x) = self.at[i];
            best = best.min(refine(c, x));
        }
        best
    }

    /// The reference of [`Self::distance`] (tests): the same bounds and
    /// refinement over every curve by a scan of every sample; and the
    /// bounds `(upper, lower)` themselves.
    #[cfg(test)]
    pub fn distance_by_scan(&self, p: &Vec3, tol: f64, mut refine: impl FnMut(usize, f64) -> f64) -> (f64, f64, f64) {
        // per curve: its reach (the longest chord between its samples)
        let n_curves = self.at.iter().map(|a| a.0 + 1).max().unwrap_or(0);
        let mut reach = vec![0.0f64; n_curves];
        for (i, &(c, _)) in self.at.iter().enumerate() {
            reach[c] = reach[c].max(self.local[i]);
        }
        let mut nearest: Vec<(f64, usize)> = vec![(f64::INFINITY, 0); n_curves];
        for (i, q) in self.pts.iter().enumerate() {
            let d = (q - p).norm();
            let c = self.at[i].0;
            if d < nearest[c].0 {
                nearest[c] = (d, i);
            }
        }
        let (ub, c0) = nearest
            .iter()
            .enumerate()
            .map(|(c, n)| (n.0, c))
            .fold((f64::INFINITY, usize::MAX), |a, b| if b.0 < a.0 { b } else { a });
        let curves: Vec<(f64, usize)> = nearest
            .iter()
            .enumerate()
            .filter(|n| n.1 .0.is_finite())
            .map(|(c, n)| (n.0 - reach[c], n.1))
            .collect();
        let lb = curves.iter().map(|c| c.0).fold(f64::INFINITY, f64::min).max(0.0);
        let mut best = ub;
        if !(best > tol) || c0 == usize::MAX {
            return (best, ub, lb);
        }
        // (the nearest sample's curve first, then every other sample by its
        // lower bound, as `distance`)
        let first = nearest[c0].1;
        best = best.min(refine(c0, self.at[first].1));
        let mut each: Vec<(f64, usize)> = (0..self.pts.len())
            .filter(|&i| i != first)
            .map(|i| ((self.pts[i] - p).norm() - self.local[i], i))
            .collect();
        each.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(l, i) in &each {
            if l >= best || best <= tol {
                break;
            }
            best = best.min(refine(self.at[i].0, self.at[i].1));
        }
        (best, ub, lb)
    }
}

/// How far [`closest_on_curve`] steps off a sample of zero speed, in the
/// curve's normalised parameter.
const ZERO_SPEED_STEP: f64 = 1e-3;

/// The distance from `p` to a curve (`eval(x)`: point and derivative at
/// the unit parameter `x ∈ [0, 1]`) near `x0`: Gauss–Newton steps from
/// `x0` (at most 12), the nearest point met. On a closed curve (its ends
/// meet, a full circle) a step past an end goes on from the other end: the
/// nearest point may lie just before the end the steps started from
/// (clamping there stalled at the end, a false distance of up to the
/// curve's size).
pub fn closest_on_curve(eval: impl Fn(f64) -> (Vec3, Vec3), p: &Vec3, x0: f64) -> f64 {
    let mut out = f64::INFINITY;
    let mut x = x0.clamp(0.0, 1.0);
    let mut closed: Option<bool> = None;
    for _ in 0..12 {
        let (q, c1) = eval(x);
        out = out.min((q - p).norm());
        let l2 = c1.norm_squared();
        if !(l2 > 0.0) {
            // a sample of zero speed (equal poles: a collapsed corner, a
            // side with f_v = 0) says nothing of the direction to go: step
            // off it towards the nearer neighbour, if one is nearer
            let d0 = (q - p).norm();
            let off = [x + ZERO_SPEED_STEP, x - ZERO_SPEED_STEP]
                .into_iter()
                .filter(|t| (0.0..=1.0).contains(t))
                .map(|t| (t, (eval(t).0 - p).norm()))
                .filter(|&(_, d)| d < d0)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match off {
                Some((t, _)) => {
                    x = t;
                    continue;
                }
                None => return out,
            }
        }
        let step = x + (p - q).dot(&c1) / l2;
        let nx = if (0.0..=1.0).contains(&step) {
            step
        } else if *closed.get_or_insert_with(|| {
            let (a, b) = (eval(0.0).0, eval(1.0).0);
            (a - b).norm() <= 1e-12 * (1.0 + a.norm())
        }) {
            step.rem_euclid(1.0)
        } else {
            step.clamp(0.0, 1.0)
        };
        if (nx - x).abs() < 1e-14 {
            break;
        }
        x = nx;
    }
    out.min((eval(x).0 - p).norm())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quadratic whose first two poles are equal (zero speed at `x = 0`,
    /// as at a collapsed corner of a surface side): started there, the
    /// search steps off the corner and finds the distance of a dense scan
    /// (within 1e-9), not the distance to the corner.
    #[test]
    fn a_zero_speed_start_steps_off_the_corner() {
        let (a, b) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, 2.0, 0.0));
        let eval = |x: f64| {
            // poles a, a, b
            let q = a * ((1.0 - x) * (1.0 - x) + 2.0 * x * (1.0 - x)) + b * (x * x);
            (q, (b - a) * (2.0 * x))
        };
        let p = Vec3::new(2.0, 1.5, 0.3);
        let scan = (0..=200_000)
            .map(|i| (eval(i as f64 / 200_000.0).0 - p).norm())
            .fold(f64::INFINITY, f64::min);
        let d = closest_on_curve(eval, &p, 0.0);
        assert!((d - scan).abs() <= 1e-9, "{d} vs {scan}");
        assert!(d < (a - p).norm() - 0.5);
    }

    /// Circles of radius 1 about three centres, sampled 16 times each, and
    /// a straight segment sampled at its ends only: the tree's answer
    /// equals the scan's; it is never below the exact distance (it is the
    /// distance to a point of a curve), and equals it within 0.4 of the
    /// curves (Gauss–Newton converges where the distance is below the
    /// radius of curvature, 1 here).
    #[test]
    fn indexed_distance_equals_the_scan_and_the_exact_curves() {
        let centres = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(2.5, 0.0, 0.0),
            Vec3::new(0.0, 3.0, 1.0),
        ];
        let circle = |c: usize, x: f64| {
            let a = std::f64::consts::TAU * x;
            (
                centres[c] + Vec3::new(a.cos(), a.sin(), 0.0),
                Vec3::new(-a.sin(), a.cos(), 0.0) * std::f64::consts::TAU,
            )
        };
        let (s0, s1) = (Vec3::new(-2.0, -2.0, 0.5), Vec3::new(4.0, -2.0, 0.5));
        let segment = |x: f64| (s0 + (s1 - s0) * x, s1 - s0);
        let eval = |c: usize, x: f64| if c < 3 { circle(c, x) } else { segment(x) };
        let mut samples = Vec::new();
        for c in 0..3 {
            for i in 0..=16 {
                let x = i as f64 / 16.0;
                samples.push((circle(c, x).0, c, x));
            }
        }
        samples.push((s0, 3, 0.0));
        samples.push((s1, 3, 1.0));
        let curves = SampledCurves::new(samples);
        let mut scratch = Scratch::default();
        let mut near = 0;
        for k in 0..300 {
            let t = k as f64 / 300.0;
            let p = Vec3::new(6.0 * t - 2.0, 1.5 + 2.5 * (7.0 * t).sin(), 0.4 * (5.0 * t).cos());
            let refine = |c: usize, x: f64| closest_on_curve(|y| eval(c, y), &p, x);
            let fast = curves.distance(&p, 1e-12, &mut scratch, refine);
            let (scan, _, _) = curves.distance_by_scan(&p, 1e-12, refine);
            assert!((fast - scan).abs() <= 1e-12, "point {k}: {fast} vs {scan}");
            // the exact distance: to the circles in closed form, to the segment
            let mut exact = f64::INFINITY;
            for c in centres {
                let d = p - c;
                let r = d.x.hypot(d.y);
                exact = exact.min((r - 1.0).hypot(d.z));
            }
            let x = ((p - s0).dot(&(s1 - s0)) / (s1 - s0).norm_squared()).clamp(0.0, 1.0);
            exact = exact.min((s0 + (s1 - s0) * x - p).norm());
            assert!(fast >= exact - 1e-12, "point {k}: {fast} below exact {exact}");
            if exact < 0.4 {
                near += 1;
                assert!((fast - exact).abs() <= 1e-9, "point {k}: {fast} vs exact {exact}");
            }
        }
        assert!(near >= 20, "{near} points near the curves");
    }

    /// A unit circle whose parameter starts at angle 0: from the sample at
    /// `x = 0`, the point nearest a point at angle −10° lies just before the
    /// end `x = 1`; the steps go on past the end (clamped at 0 they stalled
    /// at a distance of 0.17).
    #[test]
    fn a_closed_curve_is_followed_past_its_end() {
        let circle = |x: f64| {
            let a = std::f64::consts::TAU * x;
            (
                Vec3::new(a.cos(), a.sin(), 0.0),
                Vec3::new(-a.sin(), a.cos(), 0.0) * std::f64::consts::TAU,
            )
        };
        let a = (-10f64).to_radians();
        let p = Vec3::new(1.1 * a.cos(), 1.1 * a.sin(), 0.0);
        let d = closest_on_curve(circle, &p, 0.0);
        assert!((d - 0.1).abs() < 1e-12, "{d}");
        // an open arc (the same circle's first half) stays clamped at its end
        let half = |x: f64| circle(0.5 * x);
        let d = closest_on_curve(half, &p, 0.0);
        assert!((d - (p - Vec3::new(1.0, 0.0, 0.0)).norm()).abs() < 1e-12, "{d}");
    }

    /// One curve sampled at 25 even parameters whose first 24th runs 10 mm
    /// out along y = 0, its next 24th 0.3 mm up, and the rest slowly back
    /// along y = 0.3 (as a trim arc whose image runs most of its length in a
    /// few hundredths of its parameter, iges_ansa9_occ131_2 #53): a point on
    /// the fast part lies nearest a sample of the slow part, and the steps
    /// from there end at its local minimum 0.3 mm away. The samples at the
    /// fast part's ends (5 mm away, local reach 10 mm) may bound a nearer
    /// point: refined from there, the distance is 0.
    #[test]
    fn a_fast_stretch_between_two_samples_is_refined_from_its_ends() {
        let (l, h, a) = (10.0, 0.3, 1.0 / 24.0);
        let eval = |x: f64| {
            if x <= a {
                (Vec3::new(l * x / a, 0.0, 0.0), Vec3::new(l / a, 0.0, 0.0))
            } else if x <= 2.0 * a {
                (Vec3::new(l, h * (x - a) / a, 0.0), Vec3::new(0.0, h / a, 0.0))
            } else {
                let t = (x - 2.0 * a) / (1.0 - 2.0 * a);
                (
                    Vec3::new(l * (1.0 - t), h, 0.0),
                    Vec3::new(-l / (1.0 - 2.0 * a), 0.0, 0.0),
                )
            }
        };
        let samples: Vec<(Vec3, usize, f64)> = (0..=24)
            .map(|i| {
                let x = i as f64 / 24.0;
                (eval(x).0, 0, x)
            })
            .collect();
        let curves = SampledCurves::new(samples);
        let p = Vec3::new(0.5 * l + 0.1, 0.0, 0.0);
        // from the nearest sample (on the slow part) alone: 0.3
        let nearest_x = (0..=24)
            .map(|i| i as f64 / 24.0)
            .min_by(|x, y| (eval(*x).0 - p).norm().total_cmp(&(eval(*y).0 - p).norm()))
            .unwrap();
        assert!(nearest_x > 2.0 * a);
        let from_nearest = closest_on_curve(eval, &p, nearest_x);
        assert!((from_nearest - h).abs() < 1e-12, "{from_nearest}");
        let refine = |_: usize, x: f64| closest_on_curve(eval, &p, x);
        let fast = curves.distance(&p, 1e-9, &mut Scratch::default(), refine);
        assert!(fast < 1e-12, "{fast}");
        let (scan, _, _) = curves.distance_by_scan(&p, 1e-9, refine);
        assert!(scan < 1e-12, "{scan}");
        // a point 0.01 off the fast part: 0.01
        let q = Vec3::new(0.3 * l, -0.01, 0.0);
        let d = curves.distance(&q, 1e-9, &mut Scratch::default(), |_, x| closest_on_curve(eval, &q, x));
        assert!((d - 0.01).abs() < 1e-12, "{d}");
    }

    #[test]
    fn no_samples_no_distance() {
        let curves = SampledCurves::new(Vec::new());
        let d = curves.distance(&Vec3::zeros(), 0.0, &mut Scratch::default(), |_, _| 0.0);
        assert_eq!(d, f64::INFINITY);
    }
}

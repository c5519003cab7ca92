//! **Stored loops, clipped.** Each loop is clipped exactly to the piece's
//! face-parameter rectangle ([`clip_chain`]): Bézier segments are split
//! (de Casteljau) at the parameters where they cross the sides (Bernstein
//! roots to ~1e-15), the parts inside are kept; a part outside is replaced
//! by its nearest-point projection onto the rectangle (a path along the
//! sides, with the corners it passes), which leaves the winding number of
//! every interior point unchanged. The runs along the sides keep only the
//! points where they turn off a side ([`simplify_run`]).

use super::{line, shifted};
use crate::geom::bez2::{self, H2};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Part {
    /// A part inside the rectangle.
    Bez(Vec<H2>),
    /// Points on the rectangle's sides (straight runs between them).
    Side(Vec<[f64; 2]>),
}

/// Side bits of a point on the border of `r` (1: x0, 2: x1, 4: y0, 8: y1),
/// snapping coordinates within `1e-12` of the size onto the side.
fn side_bits(p: &mut [f64; 2], r: &[f64; 4]) -> u8 {
    let ex = 1e-12 * (r[1] - r[0]).abs().max(1e-300);
    let ey = 1e-12 * (r[3] - r[2]).abs().max(1e-300);
    let mut m = 0;
    for (bit, k, c, e) in [(1u8, 0, r[0], ex), (2, 0, r[1], ex), (4, 1, r[2], ey), (8, 1, r[3], ey)] {
        if (p[k] - c).abs() <= e {
            p[k] = c;
            m |= bit;
        }
    }
    m
}

fn clamp_to(p: [f64; 2], r: &[f64; 4]) -> [f64; 2] {
    [p[0].clamp(r[0], r[1]), p[1].clamp(r[2], r[3])]
}

/// The corner between two points on adjacent sides, `None` when they share a side.
/// `Err(())` when they lie on opposite sides only (or off the border).
#[allow(clippy::result_unit_err)]
fn corner_between(a: u8, b: u8, r: &[f64; 4]) -> Result<Option<[f64; 2]>, ()> {
    if a & b != 0 {
        return Ok(None);
    }
    let x = |m: u8| {
        if m & 1 != 0 {
            Some(r[0])
        } else if m & 2 != 0 {
            Some(r[1])
        } else {
            None
        }
    };
    let y = |m: u8| {
        if m & 4 != 0 {
            Some(r[2])
        } else if m & 8 != 0 {
            Some(r[3])
        } else {
            None
        }
    };
    if let (Some(cx), Some(cy)) = (x(a), y(b)) {
        return Ok(Some([cx, cy]));
    }
    if let (Some(cx), Some(cy)) = (x(b), y(a)) {
        return Ok(Some([cx, cy]));
    }
    Err(())
}

/// Appends the projection onto `r` of the part `[a, b]` of `h` (outside `r`) to `run`.
fn add_outside(h: &[H2], off: [f64; 2], a: f64, b: f64, r: &[f64; 4], run: &mut Vec<[f64; 2]>, depth: u32) {
    let n = if depth == 0 { 8 } else { 2 };
    let mut prev_t = a;
    let at = |t: f64| {
        let p = bez2::eval(h, t);
        [p[0] + off[0], p[1] + off[1]]
    };
    for k in 1..=n {
        let t = a + (b - a) * k as f64 / n as f64;
        let mut q = clamp_to(at(t), r);
        let qb = side_bits(&mut q, r);
        let Some(&last) = run.last() else {
            run.push(q);
            prev_t = t;
            continue;
        };
        let mut lp = last;
        let lb = side_bits(&mut lp, r);
        match corner_between(lb, qb, r) {
            Ok(None) => run.push(q),
            Ok(Some(c)) => {
                run.push(c);
                run.push(q);
            }
            // (each halving charged to the face's work budget: a wild curve
            // could otherwise halve 2^40 times)
            Err(()) if depth < 40 && t - prev_t > 1e-15 && crate::prepare::budget::charge(1) => {
                add_outside(h, off, prev_t, t, r, run, depth + 1);
            }
            Err(()) => {
                // opposite sides at the finest step: through the corners nearer the curve
                let m = at(0.5 * (prev_t + t));
                let cx = if (m[0] - r[0]).abs() < (m[0] - r[1]).abs() {
                    r[0]
                } else {
                    r[1]
                };
                let cy = if (m[1] - r[2]).abs() < (m[1] - r[3]).abs() {
                    r[2]
                } else {
                    r[3]
                };
                if lb & 3 != 0 {
                    run.push([lp[0], cy]);
                    run.push([q[0], cy]);
                } else {
                    run.push([cx, lp[1]]);
                    run.push([cx, q[1]]);
                }
                run.push(q);
            }
        }
        prev_t = t;
    }
}

/// Clips one segment `h` shifted by `off` to the closed rectangle `r`, appending to `parts`.
fn clip_one(h: &[H2], off: [f64; 2], r: &[f64; 4], parts: &mut Vec<Part>) {
    let (Some(first), Some(last)) = (h.first(), h.last()) else {
        return;
    };
    let rr = [r[0] - off[0], r[1] - off[0], r[2] - off[1], r[3] - off[1]];
    let hb = bez2::hull(h);
    let side_run = |parts: &mut Vec<Part>, p: [f64; 2]| {
        let mut q = clamp_to([p[0] + off[0], p[1] + off[1]], r);
        side_bits(&mut q, r);
        if !matches!(parts.last(), Some(Part::Side(_))) {
            parts.push(Part::Side(vec![q]));
        }
        q
    };
    // wholly beyond one side: its projection runs along that side only
    if hb[1] <= rr[0] || hb[0] >= rr[1] || hb[3] <= rr[2] || hb[2] >= rr[3] {
        side_run(parts, [first[0] / first[2], first[1] / first[2]]);
        let e = side_run(parts, [last[0] / last[2], last[1] / last[2]]);
        if let Some(Part::Side(run)) = parts.last_mut() {
            run.push(e);
        }
        return;
    }
    for (a, b, inside) in bez2::clip_intervals(h, &rr) {
        if inside {
            let s = if a == 0.0 && b == 1.0 {
                h.to_vec()
            } else {
                bez2::sub(h, a, b)
            };
            parts.push(Part::Bez(shifted(&s, off[0], off[1])));
        } else {
            side_run(parts, bez2::eval(h, a));
            if let Some(Part::Side(run)) = parts.last_mut() {
                add_outside(h, off, a, b, r, run, 0);
            }
        }
    }
}

/// Clips the chain (its copies shifted by `offsets`, joined by lines where
/// they do not meet) to the closed rectangle `r` (see the module doc).
pub(super) fn clip_chain(chain: &[Vec<H2>], offsets: &[[f64; 2]], r: &[f64; 4], closed: bool) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let end = |h: &[H2], off: [f64; 2], last: bool| -> Option<[f64; 2]> {
        let p = if last { h.last()? } else { h.first()? };
        Some([p[0] / p[2] + off[0], p[1] / p[2] + off[1]])
    };
    let mut prev: Option<[f64; 2]> = None;
    let mut start: Option<[f64; 2]> = None;
    for &off in offsets {
        for h in chain {
            let s = end(h, off, false);
            if let (Some(a), Some(b)) = (prev, s) {
                if a != b {
                    clip_one(&line(a, b), [0.0, 0.0], r, &mut parts);
                }
            }
            start = start.or(s);
            clip_one(h, off, r, &mut parts);
            prev = end(h, off, true);
        }
    }
    if closed {
        if let (Some(a), Some(b)) = (prev, start) {
            if a != b {
                clip_one(&line(a, b), [0.0, 0.0], r, &mut parts);
            }
        }
    }
    if closed && parts.len() > 1 {
        if let (Some(Part::Side(_)), Some(Part::Side(_))) = (parts.first(), parts.last()) {
            if let (Some(Part::Side(last)), Some(Part::Side(first))) = (parts.pop(), parts.first_mut()) {
                let mut v = last;
                v.extend_from_slice(first);
                *first = v;
            }
        }
    }
    for p in &mut parts {
        if let Part::Side(run) = p {
            simplify_run(run, r);
        }
    }
    parts
}

/// Drops repeated points and every inner point of a run that lies on one side
/// together with its neighbours (the kept one before it and the next one):
/// a run along a side is a straight segment of it, and a stretch that goes
/// along a side and back again encloses no area and adds an even number of
/// crossings to any ray, so only where it ends matters. (Curves running just
/// outside a side are clamped onto it point by point; before session 12 the
/// reversals of those points by rounding were kept: 5,040 of the 14,168 trim
/// points of proe2001_k1 were such jitter.)
fn simplify_run(run: &mut Vec<[f64; 2]>, r: &[f64; 4]) {
    run.dedup();
    if run.len() < 3 {
        return;
    }
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(run.len());
    for i in 0..run.len() {
        if i > 0 && i + 1 < run.len() {
            let (mut a, mut p, mut b) = (run[i - 1], run[i], run[i + 1]);
            if let Some(&o) = out.last() {
                a = o;
            }
            if side_bits(&mut a, r) & side_bits(&mut p, r) & side_bits(&mut b, r) != 0 {
                continue;
            }
        }
        out.push(run[i]);
    }
    *run = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_runs_keep_only_where_they_turn_off_a_side() {
        let r = [0.0, 2.0, 0.0, 1.0];
        // along the right side with rounding jitter and a trip up and back,
        // then round the corner and along the top
        let mut run = vec![
            [2.0, 0.1875],
            [2.0, 0.187_499_999_999_999_97],
            [2.0, 0.1875],
            [2.0, 0.187_500_000_000_000_03],
            [2.0, 0.9],
            [2.0, 0.5],
            [2.0, 1.0],
            [1.5, 1.0],
            [0.5, 1.0],
            [1.0, 1.0],
        ];
        simplify_run(&mut run, &r);
        assert_eq!(run, vec![[2.0, 0.1875], [2.0, 1.0], [1.0, 1.0]]);
        // a point off the sides is always kept, and so are both ends
        let mut run = vec![[2.0, 0.2], [2.0, 0.3], [1.0, 0.5], [2.0, 0.7], [2.0, 0.6]];
        simplify_run(&mut run, &r);
        assert_eq!(run, vec![[2.0, 0.2], [2.0, 0.3], [1.0, 0.5], [2.0, 0.7], [2.0, 0.6]]);
    }

    #[test]
    fn clipped_circle_keeps_the_arc_and_runs_along_the_sides() {
        // unit circle (four quarters) around (0.5, 0.5) radius 0.4, rectangle [0, 0.5]²
        let w = std::f64::consts::FRAC_1_SQRT_2;
        let (c, r) = ([0.5, 0.5], 0.4);
        let q = |k: usize| -> Vec<H2> {
            let rot = |x: f64, y: f64| match k {
                0 => (x, y),
                1 => (-y, x),
                2 => (-x, -y),
                _ => (y, -x),
            };
            let p = [(1.0, 0.0, 1.0), (1.0, 1.0, w), (0.0, 1.0, 1.0)];
            p.iter()
                .map(|&(x, y, wt)| {
                    let (x, y) = rot(x, y);
                    [(c[0] + r * x) * wt, (c[1] + r * y) * wt, wt]
                })
                .collect()
        };
        let segs: Vec<Vec<H2>> = (0..4).map(q).collect();
        let rect = [0.0, 0.5, 0.0, 0.5];
        let parts = clip_chain(&segs, &[[0.0, 0.0]], &rect, true);
        // one arc inside (the third quarter), one run along the sides
        let bez: Vec<&Vec<H2>> = parts
            .iter()
            .filter_map(|p| match p {
                Part::Bez(h) => Some(h),
                _ => None,
            })
            .collect();
        assert_eq!(bez.len(), 1, "{parts:?}");
        for i in 0..=10 {
            let p = bez2::eval(bez[0], i as f64 / 10.0);
            assert!(((p[0] - 0.5).hypot(p[1] - 0.5) - 0.4).abs() < 1e-15);
            assert!(bez2::in_rect(p, &[-1e-15, 0.5 + 1e-15, -1e-15, 0.5 + 1e-15]), "{p:?}");
        }
        let runs: Vec<&Vec<[f64; 2]>> = parts
            .iter()
            .filter_map(|p| match p {
                Part::Side(v) => Some(v),
                _ => None,
            })
            .collect();
        assert_eq!(runs.len(), 1, "{parts:?}");
        // the run goes from (0.5, 0.1) through the corner (0.5, 0.5) to (0.1, 0.5)
        let run = runs[0];
        assert!(run.contains(&[0.5, 0.5]), "{run:?}");
        for p in run {
            assert!(p[0] == 0.5 || p[1] == 0.5, "{run:?}");
        }
    }

    #[test]
    fn a_loop_around_the_rectangle_becomes_its_border() {
        // a square loop well outside a small rectangle winds once around it
        let sq = [[-1.0, -1.0], [2.0, -1.0], [2.0, 2.0], [-1.0, 2.0], [-1.0, -1.0]];
        let segs: Vec<Vec<H2>> = sq.windows(2).map(|w| line(w[0], w[1])).collect();
        let parts = clip_chain(&segs, &[[0.0, 0.0]], &[0.0, 1.0, 0.0, 1.0], true);
        assert_eq!(parts.len(), 1);
        let Part::Side(run) = &parts[0] else {
            panic!("{parts:?}")
        };
        let poly = vec![run.clone()];
        assert!(crate::geom::polygon::polygons_contain(&poly, 0.5, 0.5), "{run:?}");
        for c in [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]] {
            assert!(run.contains(&c), "{run:?}");
        }
    }
}

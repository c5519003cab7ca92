//! Liang–Barsky clipping of parameter-plane segments against rectangles
//! (a cell's rectangle, the unit square of a piece).

pub(super) fn segment_hits_rect(a: [f64; 2], b: [f64; 2], r: &[f64; 4]) -> bool {
    clip_segment(a, b, r).is_some_and(|(t0, t1)| t0 <= t1)
}

/// Liang–Barsky: the parameter interval `[t0, t1]` of the segment `a + t (b − a)`,
/// `t ∈ [0,1]`, inside the closed rectangle `r` (`None` when it misses).
pub(super) fn clip_segment(a: [f64; 2], b: [f64; 2], r: &[f64; 4]) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = [b[0] - a[0], b[1] - a[1]];
    for (p, q) in [
        (-d[0], a[0] - r[0]),
        (d[0], r[1] - a[0]),
        (-d[1], a[1] - r[2]),
        (d[1], r[3] - a[1]),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

/// The part of the segment `a b` inside `[0,1]²` (`None` when it misses or is a point).
pub(super) fn clip_unit(a: [f64; 2], b: [f64; 2]) -> Option<([f64; 2], [f64; 2])> {
    let (t0, t1) = clip_segment(a, b, &[0.0, 1.0, 0.0, 1.0])?;
    if t1 - t0 <= 1e-15 {
        return None;
    }
    let at = |t: f64| [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    Some((at(t0), at(t1)))
}

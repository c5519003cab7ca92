//! The point–body latency paths of `benches/point_body.rs` and
//! `dev/src/bin/latency_probe.rs` (issue 27): besides the Lissajous path
//! (`lissajous.rs`), a random-segment path between Open CASCADE's oracle
//! points and a grazing path along the body's edges. All paths are in world
//! coordinates at 1 kHz with the velocity fed forward, and deterministic
//! (a fixed-seed generator).
#![allow(dead_code)]

use extrack::geom::Vec3;
use extrack::track::{BodyGeom, PointState, TrackScene};
use std::path::Path;

/// Servo period of the paths (1 kHz).
pub const H: f64 = 1e-3;

/// Top speed of the random-segment path: 1 m/s = 1 mm per 1 ms update.
pub const MAX_STEP_MM: f64 = 1.0;

/// Updates per segment of the random-segment path when the segment is short enough.
pub const SEGMENT_STEPS: usize = 200;

/// A small deterministic generator (SplitMix64).
pub struct Rng(u64);

impl Rng {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Open CASCADE's query points of a fixture (`oracle/NAME.closest.json` next
/// to the file's folder), world mm; empty when the file has no oracle.
pub fn oracle_points(file: &Path) -> Vec<Vec3> {
    let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let Some(dir) = file.parent().and_then(|d| d.parent()) else {
        return Vec::new();
    };
    let Ok(text) = std::fs::read_to_string(dir.join("oracle").join(format!("{name}.closest.json"))) else {
        return Vec::new();
    };
    let Ok(js) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let v3 = |v: &serde_json::Value| -> Option<Vec3> {
        let a = v.as_array()?;
        Some(Vec3::new(
            a.first()?.as_f64()?,
            a.get(1)?.as_f64()?,
            a.get(2)?.as_f64()?,
        ))
    };
    js["points"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| v3(&p["q"])).collect())
        .unwrap_or_default()
}

/// Straight motion from `a` to `b` in `n` updates (the end excluded), velocity fed forward.
fn segment(out: &mut Vec<PointState>, a: Vec3, b: Vec3, n: usize) {
    let v = (b - a) / (n as f64 * H);
    for i in 0..n {
        out.push(PointState {
            q: a + (b - a) * (i as f64 / n as f64),
            q_dot: v,
        });
    }
}

/// A point moving between random oracle points (random points near the
/// part when the file has no oracle): each segment takes 200 updates, more
/// where it is longer than 200 mm, so the speed stays at most 1 m/s. At
/// most `steps` updates.
pub fn random_segments(scene: &TrackScene, body: u32, oracle: &[Vec3], steps: usize, seed: u64) -> Vec<PointState> {
    let b = &scene.bodies[body as usize];
    let mut rng = Rng::new(seed);
    let fallback: Vec<Vec3>;
    let pts: &[Vec3] = if oracle.len() >= 2 {
        oracle
    } else {
        // points in the body's box grown by 20 %
        let (lo, hi) = (b.lo - (b.hi - b.lo) * 0.2, b.hi + (b.hi - b.lo) * 0.2);
        let mut u = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        fallback = (0..64)
            .map(|_| {
                b.placement.transform_point(&Vec3::new(
                    lo.x + u() * (hi.x - lo.x),
                    lo.y + u() * (hi.y - lo.y),
                    lo.z + u() * (hi.z - lo.z),
                ))
            })
            .collect();
        &fallback
    };
    let mut out = Vec::with_capacity(steps + SEGMENT_STEPS);
    let mut a = pts[rng.below(pts.len())];
    while out.len() < steps {
        let b = pts[rng.below(pts.len())];
        let len = (b - a).norm();
        if len == 0.0 {
            continue;
        }
        let n = SEGMENT_STEPS.max((len / MAX_STEP_MM).ceil() as usize);
        segment(&mut out, a, b, n);
        a = b;
    }
    out.truncate(steps);
    out
}

/// A path that grazes the body's edges and passes through its thin
/// features and narrow gaps: along a spread of edges (every `k`-th so that
/// the path visits up to 40), the point follows the edge at an offset
/// `ε·sin(φ)` along the edge's pseudo-normal (`ε` = 10⁻⁴ of the box
/// diagonal, `φ` advancing by 0.3 rad per update: it crosses the surface
/// beside the edge again and again), at most 1 mm per update; between two
/// edges it moves straight (through whatever walls and gaps lie between),
/// at most 1 mm per update. At most `steps` updates; bodies without edges
/// get the box diagonal swept back and forth.
pub fn grazing(scene: &TrackScene, body: u32, steps: usize) -> Vec<PointState> {
    let b: &BodyGeom = &scene.bodies[body as usize];
    let diag = (b.hi - b.lo).norm().max(1e-9);
    let eps = 1e-4 * diag;
    let world = |p: Vec3| b.placement.transform_point(&p);
    let mut out: Vec<PointState> = Vec::with_capacity(steps + 64);
    let edges: Vec<usize> = (0..b.edges.len()).collect();
    if edges.is_empty() {
        while out.len() < steps {
            segment(&mut out, world(b.lo), world(b.hi), 997);
            segment(&mut out, world(b.hi), world(b.lo), 997);
        }
        out.truncate(steps);
        return out;
    }
    let stride = edges.len().div_ceil(40).max(1);
    let per_edge = (steps / edges.len().div_ceil(stride)).max(50);
    let mut phase = 0.0f64;
    let mut last: Option<Vec3> = None;
    'outer: loop {
        for &e in edges.iter().step_by(stride) {
            let g = &b.edges[e];
            let (t0, t1) = g.curve.domain();
            let len = (0..16)
                .map(|i| {
                    let a = g.curve.eval(t0 + (t1 - t0) * i as f64 / 16.0);
                    let c = g.curve.eval(t0 + (t1 - t0) * (i + 1) as f64 / 16.0);
                    (c - a).norm()
                })
                .sum::<f64>();
            // updates along the edge: the edge's length at ≤ 1 mm per update, within this edge's share
            let n = ((len / MAX_STEP_MM).ceil() as usize).clamp(20, per_edge);
            let at = |i: usize, phase: f64| -> Vec3 {
                let t = t0 + (t1 - t0) * (i as f64 / n as f64);
                let nrm = b.edge_pseudo_normal(e as u32, t);
                let nrm = nrm.try_normalize(0.0).unwrap_or_else(Vec3::z);
                world(g.curve.eval(t) + nrm * (eps * phase.sin()))
            };
            let start = at(0, phase);
            if let Some(p) = last {
                let gap = (start - p).norm();
                let m = ((gap / MAX_STEP_MM).ceil() as usize).clamp(1, 2000);
                segment(&mut out, p, start, m);
            }
            let mut prev = start;
            for i in 0..n {
                phase += 0.3;
                let next = at(i + 1, phase);
                out.push(PointState {
                    q: prev,
                    q_dot: (next - prev) / H,
                });
                prev = next;
            }
            last = Some(prev);
            if out.len() >= steps {
                break 'outer;
            }
        }
    }
    out.truncate(steps);
    out
}

/// The body a file's paths track: the one with the most pieces.
pub fn main_body(scene: &TrackScene) -> u32 {
    (0..scene.bodies.len())
        .max_by_key(|&i| scene.bodies[i].pieces.len())
        .unwrap_or(0) as u32
}

/// The `p`-th percentile of sorted values (nearest rank).
pub fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let k = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[k.clamp(1, sorted.len()) - 1]
}

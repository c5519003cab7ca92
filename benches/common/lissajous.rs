//! The point–body benchmark's path (shared by `benches/point_body.rs` and
//! `dev/src/bin/point_probe.rs`).
use extrack::geom::Vec3;
use extrack::track::{PointState, TrackScene};

/// Servo period of the path (1 kHz).
const H: f64 = 1e-3;

/// A smooth closed path around and through the body's box: ±60 % of the half
/// box on each axis, one lap per `n` steps of 1 ms (step ≈ 0.05 % of the diagonal).
#[allow(dead_code)]
pub fn lissajous(scene: &TrackScene, n: usize) -> Vec<PointState> {
    lissajous_of(scene, 0, n)
}

/// [`lissajous`] around body `body`'s box.
#[allow(dead_code)]
pub fn lissajous_of(scene: &TrackScene, body: u32, n: usize) -> Vec<PointState> {
    let b = &scene.bodies[body as usize];
    let c = b.placement.transform_point(&((b.lo + b.hi) * 0.5));
    let r = (b.hi - b.lo) * 0.5;
    let w = std::f64::consts::TAU / (n as f64 * H);
    (0..n)
        .map(|k| {
            let t = k as f64 * H;
            let q = c + Vec3::new(
                1.2 * r.x * (w * t).cos(),
                1.2 * r.y * (2.0 * w * t).sin(),
                1.2 * r.z * (3.0 * w * t + 0.4).sin(),
            );
            let v = Vec3::new(
                -1.2 * r.x * w * (w * t).sin(),
                2.4 * r.y * w * (2.0 * w * t).cos(),
                3.6 * r.z * w * (3.0 * w * t + 0.4).cos(),
            );
            PointState { q, q_dot: v }
        })
        .collect()
}

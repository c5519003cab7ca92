//! A point tracker following a path around a body: each update starts from
//! the previous answer (coherence), so it costs microseconds. Prints the
//! answer and the time of every few updates.
//!
//! `cargo run --release --example track_path -- [FILE]`
//! (default `fixtures/ellipsoid.step`).

use extrack::geom::Vec3;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{BodyState, PointBodyTracker, PointState, TrackScene, TrackerConfig};
use std::f64::consts::TAU;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ellipsoid.step").into());
    let model = extrack::import::import_file(&file)?;
    let scene = TrackScene::from_data(&prepare(&model, &PrepareOptions::default())?)?;

    // A circle around body 0's box centre, 1 ms per step (one lap per second).
    let body = &scene.bodies[0];
    let centre = body.placement.transform_point(&((body.lo + body.hi) * 0.5));
    let radius = 0.75 * (body.hi - body.lo).norm();
    let dt = 1e-3;
    let steps = 1000;
    let at = |k: usize| {
        let a = TAU * k as f64 / steps as f64;
        let (s, c) = a.sin_cos();
        let omega = TAU / (steps as f64 * dt);
        PointState {
            q: centre + Vec3::new(radius * c, radius * s, 0.3 * radius * s),
            q_dot: Vec3::new(-radius * s, radius * c, 0.3 * radius * c) * omega,
        }
    };

    let still = BodyState::default(); // the body stays where the scene put it
    let mut tracker = PointBodyTracker::new(&scene, 0, TrackerConfig::default())?;
    let mut total = 0.0;
    for k in 0..=steps {
        let t0 = Instant::now();
        // the first update is a cold start; dt is the time since the previous one
        let r = tracker.update(&scene, &at(k), &still, if k == 0 { 0.0 } else { dt })?;
        let us = t0.elapsed().as_secs_f64() * 1e6;
        if k > 0 {
            total += us;
        }
        if k % 100 == 0 {
            println!(
                "step {k:4}: distance {:.6} mm, point ({:.3}, {:.3}, {:.3}), face #{}, {:?}, {us:.2} µs",
                r.distance, r.point.x, r.point.y, r.point.z, r.face, r.mode
            );
        }
    }
    println!("mean coherent update: {:.2} µs", total / steps as f64);
    Ok(())
}

//! Two bodies and a pair tracker: body B slides through body A and out
//! again; every few updates print the distance (or penetration depth), the
//! witness points and the contact normal.
//!
//! `cargo run --release --example body_pair -- [FILE_A FILE_B]`
//! (default `fixtures/ellipsoid.step` twice).

use extrack::geom::{Pose, Twist, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{BodyPairTracker, BodyState, TrackScene, TrackerConfig};

fn load(file: &str) -> Result<TrackScene, Box<dyn std::error::Error>> {
    let model = extrack::import::import_file(file)?;
    Ok(TrackScene::from_data(&prepare(&model, &PrepareOptions::default())?)?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let default = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ellipsoid.step");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file_a, file_b) = match args.as_slice() {
        [a, b, ..] => (a.as_str(), b.as_str()),
        _ => (default, default),
    };
    let (scene_a, scene_b) = (load(file_a)?, load(file_b)?);

    // B starts one box diagonal to the side of A and moves along x through A.
    let (a, b) = (&scene_a.bodies[0], &scene_b.bodies[0]);
    let span = (a.hi - a.lo).norm() + (b.hi - b.lo).norm();
    let dt = 1e-3;
    let steps = 2000;
    let speed = 2.0 * span / (steps as f64 * dt); // mm/s: from -span to +span
    let still = BodyState::default();

    let mut tracker = BodyPairTracker::new(&scene_a, 0, &scene_b, 0, TrackerConfig::default())?;
    for k in 0..=steps {
        // B's origin moves along (1, 0.2, 0) while B turns about z at 1 rad/s
        let t = dt * k as f64;
        let origin = Vec3::new(1.0, 0.2, 0.0) * (-span + speed * t);
        let spin = Vec3::new(0.0, 0.0, 1.0);
        let moving = BodyState {
            pose: Pose::from_translation_axis_angle(origin, spin * t),
            twist: Twist::about_point(spin, origin, Vec3::new(1.0, 0.2, 0.0) * speed),
        };
        let r = tracker.update(&scene_a, &still, &scene_b, &moving, if k == 0 { 0.0 } else { dt })?;
        if k % 200 == 0 {
            let what = if r.penetrating { "penetration" } else { "distance" };
            println!(
                "t = {t:.3} s: {what} {:.6} mm, A ({:.3}, {:.3}, {:.3}), B ({:.3}, {:.3}, {:.3}), normal ({:.3}, {:.3}, {:.3})",
                r.distance, r.point_a.x, r.point_a.y, r.point_a.z, r.point_b.x, r.point_b.y, r.point_b.z, r.normal.x, r.normal.y, r.normal.z
            );
        }
    }
    Ok(())
}

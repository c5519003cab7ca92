//! Two bodies and a pair tracker: body B moves towards body A, presses into
//! it and withdraws; every few updates print the distance (or penetration
//! depth), the witness points and the contact normal.
//!
//! `cargo run --release --example body_pair -- [FILE_A FILE_B]`
//! (default `fixtures/ellipsoid.step` twice).

use extrack::geom::{Pose, Twist, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{body_distance, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use std::f64::consts::PI;

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

    // B approaches A along x, presses 1 mm into it and withdraws. Where B
    // touches A is found with a cold query, B placed to the side of A.
    let (a, b) = (&scene_a.bodies[0], &scene_b.bodies[0]);
    let span = (a.hi - a.lo).norm() + (b.hi - b.lo).norm();
    let beside = Pose::from_translation_axis_angle(Vec3::new(span, 0.0, 0.0), Vec3::zeros());
    let touch = span - body_distance(&scene_a, 0, &Pose::identity(), &scene_b, 0, &beside)?.distance;
    let (dt, steps) = (1e-3, 2000);
    let still = BodyState::default();
    // x(t) = touch + 2.5 + 3.5 cos(πt): from 6 mm apart to 1 mm deep and back in 2 s
    let x = |t: f64| touch + 2.5 + 3.5 * (PI * t).cos();
    let vx = |t: f64| -3.5 * PI * (PI * t).sin();

    let mut tracker = BodyPairTracker::new(&scene_a, 0, &scene_b, 0, TrackerConfig::default())?;
    for k in 0..=steps {
        let t = dt * k as f64;
        let moving = BodyState {
            pose: Pose::from_translation_axis_angle(Vec3::new(x(t), 0.0, 0.0), Vec3::zeros()),
            twist: Twist {
                omega: Vec3::zeros(),
                v: Vec3::new(vx(t), 0.0, 0.0),
            },
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

//! Import a STEP (or IGES) file, prepare it and ask for the closest point of
//! a few query points: distance, signed distance, closest point, normal and
//! source face.
//!
//! `cargo run --release --example query_step -- [FILE]`
//! (default `fixtures/holed_plate.step`).

use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{closest_point, Target, TrackScene};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/holed_plate.step").into());

    // Offline: import the CAD file and prepare the runtime scene.
    let model = extrack::import::import_file(&file)?;
    let scene = TrackScene::from_data(&prepare(&model, &PrepareOptions::default())?)?;
    println!("{file}: {} bodies", scene.bodies.len());

    // Query points around the first body's box (body-local = world here).
    let body = &scene.bodies[0];
    let (lo, hi) = (
        body.placement.transform_point(&body.lo),
        body.placement.transform_point(&body.hi),
    );
    let centre = (lo + hi) * 0.5;
    let queries = [
        centre,
        centre + Vec3::new(0.0, 0.0, hi.z - lo.z),
        hi + Vec3::new(1.0, 1.0, 1.0),
        lo + (hi - lo) * 0.25,
    ];

    let target = Target::All { pose: Pose::identity() };
    for q in queries {
        let r = closest_point(&scene, &target, q)?;
        let signed = r
            .signed_distance
            .map_or("n/a (not a solid)".to_owned(), |s| format!("{s:.6}"));
        println!(
            "q = ({:.3}, {:.3}, {:.3}): body {}, distance {:.6} mm, signed {signed}, \
             point ({:.4}, {:.4}, {:.4}), normal ({:.4}, {:.4}, {:.4}), face #{}",
            q.x,
            q.y,
            q.z,
            r.body,
            r.distance,
            r.point.x,
            r.point.y,
            r.point.z,
            r.normal.x,
            r.normal.y,
            r.normal.z,
            r.face
        );
    }
    Ok(())
}

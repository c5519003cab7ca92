//! Development probe of tracked ≠ cold along the band test's path
//! (`tests/track/point_body_band.rs`): the points of an oracle file in
//! greedy nearest-neighbour order, one coherent tracker per body, and at
//! every point the tracked distance against the cold query's.
//! `cargo run --release -p extrack-dev --bin held_probe -- MODEL POINTS`
//! where `POINTS` is a `*.closest.json` or a decompressed `*.boundary.csv`.
//! Prints every point where the two differ (1e-9 relative) with its index
//! in the file, the path step and both answers.
use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{closest_points, BodyState, PointBodyTracker, PointState, Target, TrackScene, TrackerConfig};

fn points(file: &str) -> Result<Vec<Vec3>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(file)?;
    if file.ends_with(".json") {
        let js: serde_json::Value = serde_json::from_str(&text)?;
        let pts = js["points"].as_array().ok_or("no points")?;
        return pts
            .iter()
            .map(|p| {
                let c = |k: usize| p["q"][k].as_f64().ok_or("bad q");
                Ok(Vec3::new(c(0)?, c(1)?, c(2)?))
            })
            .collect();
    }
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("kind"))
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            Ok(Vec3::new(c[1].parse()?, c[2].parse()?, c[3].parse()?))
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().collect();
    let (model, pfile) = match (a.get(1), a.get(2)) {
        (Some(m), Some(p)) => (m, p),
        _ => return Err("usage: held_probe MODEL POINTS".into()),
    };
    let m = extrack::import::import_file(std::path::Path::new(model))?;
    let scene = TrackScene::from_data(&prepare(&m, &PrepareOptions::default())?)?;
    let pts = points(pfile)?;
    // greedy nearest-neighbour path from the first point (as tests/common/points.rs)
    let mut left: Vec<(usize, Vec3)> = pts.iter().copied().enumerate().collect();
    let mut path = vec![left.swap_remove(0)];
    while !left.is_empty() {
        let last = path[path.len() - 1].1;
        let k = (0..left.len())
            .min_by(|&i, &j| (left[i].1 - last).norm().total_cmp(&(left[j].1 - last).norm()))
            .ok_or("empty")?;
        path.push(left.swap_remove(k));
    }
    let mut trackers: Vec<PointBodyTracker> = (0..scene.bodies.len() as u32)
        .map(|b| PointBodyTracker::new(&scene, b, TrackerConfig::default()))
        .collect::<Result<_, _>>()?;
    let still = BodyState::default();
    let (mut differ, mut cells) = (0usize, 0u64);
    for (step, &(i, q)) in path.iter().enumerate() {
        let mut tracked = f64::INFINITY;
        let mut what = String::new();
        for t in &mut trackers {
            let r = t.update(&scene, &PointState::at(q), &still, 1e-3)?;
            cells += u64::from(r.cells_solved);
            if r.distance < tracked {
                tracked = r.distance;
                what = format!(
                    "face {} piece {} {:?} {:?} x {:?}",
                    r.face, r.piece, r.feature, r.mode, r.params
                );
            }
        }
        let cold = closest_points(&scene, &Target::All { pose: Pose::identity() }, &[q]);
        let c = cold[0].as_ref().map_err(|e| e.to_string())?;
        if (tracked - c.distance).abs() > 1e-9 * tracked.max(1.0) {
            differ += 1;
            println!(
                "point {i} (step {step}): tracked {tracked:.12} [{what}] cold {:.12} [face {} piece {} {:?} {:?} x {:?}] diff {:.3e}",
                c.distance,
                c.face,
                c.piece,
                c.feature,
                c.mode,
                c.params,
                tracked - c.distance
            );
        }
    }
    println!("{differ} of {} points differ; cells solved {cells}", path.len());
    Ok(())
}

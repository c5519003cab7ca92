//! Development harness: cold-start point queries against every oracle file.
//! `cargo run --release -p extrack-dev --bin oracle_check [-- NAME_FILTER]`
use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{closest_point, Target, TrackScene};
use std::path::Path;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures");
    let mut names: Vec<_> = std::fs::read_dir(root.join("oracle"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".closest.json"))
        .collect();
    names.sort();
    for n in names {
        if !n.contains(&filter) {
            continue;
        }
        let js: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(root.join("oracle").join(&n)).unwrap()).unwrap();
        let file = js["file"].as_str().unwrap();
        let path = [root.join("generated").join(file), root.join("corpus").join(file)]
            .into_iter()
            .find(|p| p.exists());
        let Some(path) = path else {
            println!("{n}: no file");
            continue;
        };
        let t0 = std::time::Instant::now();
        let model = match extrack::import::import_file(&path) {
            Ok(m) => m,
            Err(e) => {
                println!("{file}: import {e}");
                continue;
            }
        };
        let scene = match prepare(&model, &PrepareOptions::default()) {
            Ok(s) => s,
            Err(e) => {
                println!("{file}: prepare {e}");
                continue;
            }
        };
        let ts = TrackScene::from_data(&scene).unwrap();
        let tprep = t0.elapsed().as_secs_f64();
        let pts = js["points"].as_array().unwrap();
        let (mut bad_d, mut bad_s, mut bad_p, mut nn) = (0, 0, 0, 0);
        // Open CASCADE's largest edge/vertex tolerance of the file (its inspect oracle)
        let max_tol = std::fs::read_to_string(root.join("oracle").join(n.replace(".closest.", ".inspect.")))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["max_tolerance"].as_f64())
            .unwrap_or(0.0);
        let mut worst_abs: f64 = 0.0;
        let mut worst: f64 = 0.0;
        let t1 = std::time::Instant::now();
        let mut cells = 0u64;
        for (i, p) in pts.iter().enumerate() {
            let q = p["q"].as_array().unwrap();
            let q = Vec3::new(q[0].as_f64().unwrap(), q[1].as_f64().unwrap(), q[2].as_f64().unwrap());
            let d = p["dist"].as_f64().unwrap();
            let r = match closest_point(&ts, &Target::All { pose: Pose::identity() }, q) {
                Ok(r) => r,
                Err(e) => {
                    println!("  {i}: error {e}");
                    bad_d += 1;
                    continue;
                }
            };
            cells += r.cells_solved as u64;
            nn += 1;
            let tol = 1e-6 * d.max(1.0);
            let err = (r.distance - d).abs();
            worst = worst.max(err / d.max(1.0));
            worst_abs = worst_abs.max(err);
            if err > tol {
                bad_d += 1;
                if bad_d <= 3 {
                    println!(
                        "  {i} {}: dist {} vs {} (err {:.2e}) feature {:?} kind {} params {:?} mode {:?} pt {:?} oc {}",
                        p["kind"],
                        r.distance,
                        d,
                        err,
                        r.feature,
                        p["support"],
                        r.params,
                        r.mode,
                        r.point.as_slice(),
                        p["closest"]
                    );
                }
            }
            if let (Some(sd), Some(os)) = (r.signed_distance, p["sdist"].as_f64()) {
                if (sd - os).abs() > tol && err <= tol {
                    bad_s += 1;
                    if bad_s <= 3 {
                        println!(
                            "  {i}: sign {sd} vs {os} feature {:?} support {}",
                            r.feature, p["support"]
                        );
                    }
                }
            }
            if p["nsol"].as_u64() == Some(1) {
                if let Some(c) = p["closest"].as_array() {
                    let c = Vec3::new(c[0].as_f64().unwrap(), c[1].as_f64().unwrap(), c[2].as_f64().unwrap());
                    if (c - r.point).norm() > 1e-5 && err <= tol {
                        bad_p += 1;
                        if bad_p <= 3 {
                            println!(
                                "  {i}: point {:?} vs {:?} ({:.2e} apart) face {} vs oracle face {} support {}",
                                r.point.as_slice(),
                                c.as_slice(),
                                (c - r.point).norm(),
                                r.face,
                                p["face"],
                                p["support"]
                            );
                        }
                    }
                }
            }
        }
        let tq = t1.elapsed().as_secs_f64() / nn.max(1) as f64;
        println!("{file}: {} pts, dist bad {bad_d}, sign bad {bad_s}, point bad {bad_p}, worst rel {worst:.1e}, worst abs {worst_abs:.1e} (occt tol {max_tol:.1e}), prep {tprep:.2}s, query {:.1}us, cells/q {:.1}", pts.len(), tq*1e6, cells as f64 / nn.max(1) as f64);
    }
}

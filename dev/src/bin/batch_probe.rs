//! Development probe of batch point queries (issue 27): the work per point
//! of cold queries one by one ([`closest_point`]) against the batch
//! ([`closest_points`]: Hilbert order, each query under the previous
//! witness's distance), in instructions (callgrind) and in CPU time.
//!
//! `cargo run --release -p extrack-dev --bin batch_probe -- prep NAME FILE`
//! imports and prepares FILE and writes `/tmp/extrack_batch/NAME.exs`
//! (`BATCH_PROBE_DIR` when set). Then
//! `batch_probe run NAME SET MODE` answers the point set SET on the scene's
//! largest body: `paths` (the bench's batch points: every point of its three
//! paths, 3,000 updates each), `grid` (a 24³ grid over the body's box grown
//! by 20 %), `random` (12,000 uniform points in the box grown by 50 %);
//! MODE `cold` (one `closest_point` per point, in input order, this
//! thread), `batch` (`closest_points`) or `none` (set-up only). Instructions
//! per point: `valgrind --tool=callgrind` of a mode minus that of `none`
//! over the points (callgrind's collection toggle is per thread and would
//! miss the rayon workers), with `BATCH_PROBE_NOCHECK=1`. Natively the probe
//! prints the CPU time of all the process's threads over the measured part
//! (`/proc/self/task/*/schedstat`), points per CPU second, and in `batch`
//! mode checks every answer against a cold query (distance and point to
//! 1e-12 relative, feature, sign, normal).

#[path = "../../../benches/common/lissajous.rs"]
mod lissajous_path;
#[path = "../../../benches/common/point_paths.rs"]
mod point_paths;

use extrack::geom::{Pose, Vec3};
use extrack::track::{closest_point, closest_points, Target, TrackScene};
use point_paths::{grazing, main_body, oracle_points, random_segments};
use std::path::{Path, PathBuf};

fn cache(name: &str) -> PathBuf {
    let dir = std::env::var_os("BATCH_PROBE_DIR").map_or_else(|| PathBuf::from("/tmp/extrack_batch"), PathBuf::from);
    dir.join(format!("{name}.exs"))
}

fn load(name: &str) -> Result<TrackScene, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(cache(name))?;
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes())?;
    Ok(TrackScene::new(&view)?)
}

/// CPU time of all the process's threads, seconds.
fn cpu_seconds() -> f64 {
    let mut ns = 0u64;
    if let Ok(dir) = std::fs::read_dir("/proc/self/task") {
        for t in dir.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("schedstat")) {
                ns += s.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or(0);
            }
        }
    }
    ns as f64 * 1e-9
}

/// A small deterministic generator (xorshift64*).
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
}

fn points(scene: &TrackScene, name: &str, set: &str) -> Result<Vec<Vec3>, Box<dyn std::error::Error>> {
    let body = main_body(scene);
    let b = &scene.bodies[body as usize];
    let (c, h) = (0.5 * (b.lo + b.hi), 0.5 * (b.hi - b.lo));
    let world = |p: Vec3| b.placement.transform_point(&p);
    Ok(match set {
        "paths" => {
            let src = std::fs::read_to_string(cache(name).with_extension("src"))?;
            let steps = 3000;
            let paths = [
                lissajous_path::lissajous_of(scene, body, steps),
                random_segments(scene, body, &oracle_points(Path::new(&src)), steps, 27),
                grazing(scene, body, steps),
            ];
            paths.iter().flat_map(|p| p.iter().map(|s| s.q)).collect()
        }
        "grid" => {
            let n = 24;
            let mut v = Vec::with_capacity(n * n * n);
            for i in 0..n {
                for j in 0..n {
                    for k in 0..n {
                        let t = |a: usize| -1.2 + 2.4 * (a as f64 + 0.5) / n as f64;
                        v.push(world(c + Vec3::new(t(i) * h.x, t(j) * h.y, t(k) * h.z)));
                    }
                }
            }
            v
        }
        "random" => {
            let mut s = 0x9E37_79B9_7F4A_7C15u64;
            (0..12_000)
                .map(|_| {
                    let mut t = || -1.5 + 3.0 * uniform(&mut s);
                    world(c + Vec3::new(t() * h.x, t() * h.y, t() * h.z))
                })
                .collect()
        }
        _ => return Err(format!("unknown point set {set}").into()),
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let usage = "batch_probe prep NAME FILE | run NAME paths|grid|random cold|batch";
    match a.first().map(String::as_str) {
        Some("prep") if a.len() == 3 => {
            let m = extrack::import::import_file(&a[2])?;
            let s = extrack::prepare::prepare(&m, &Default::default())?;
            if let Some(dir) = cache(&a[1]).parent() {
                std::fs::create_dir_all(dir)?;
            }
            s.write_to_path(cache(&a[1]))?;
            std::fs::write(cache(&a[1]).with_extension("src"), &a[2])?;
            Ok(())
        }
        Some("run") if a.len() == 4 => {
            let scene = load(&a[1])?;
            let qs = points(&scene, &a[1], &a[2])?;
            let target = Target::Body {
                index: main_body(&scene),
                pose: Pose::identity(),
            };
            let t0 = cpu_seconds();
            let answers = match a[3].as_str() {
                "cold" => qs
                    .iter()
                    .map(|q| closest_point(&scene, &target, *q))
                    .collect::<Vec<_>>(),
                "batch" => closest_points(&scene, &target, &qs),
                "none" => Vec::new(),
                m => return Err(format!("unknown mode {m}").into()),
            };
            let cpu = cpu_seconds() - t0;
            let cells = answers.iter().flatten().map(|r| u64::from(r.cells_solved)).sum::<u64>();
            println!(
                "{} {} {}: {} points, cells solved per point {:.2}, CPU {:.3} s, {:.0} points per CPU second",
                a[1],
                a[2],
                a[3],
                qs.len(),
                cells as f64 / qs.len().max(1) as f64,
                cpu,
                qs.len() as f64 / cpu.max(1e-9)
            );
            if a[3] == "batch" && std::env::var_os("BATCH_PROBE_NOCHECK").is_none() {
                let (mut bad, mut worst) = (0usize, 0.0f64);
                for (q, r) in qs.iter().zip(&answers) {
                    let c = closest_point(&scene, &target, *q);
                    let same = match (r, &c) {
                        (Ok(r), Ok(c)) => {
                            let scale = 1.0 + c.distance.abs() + c.point.norm();
                            let e = ((r.distance - c.distance).abs()).max((r.point - c.point).norm()) / scale;
                            worst = worst.max(e);
                            e <= 1e-12
                                && r.feature == c.feature
                                && r.signed_distance == c.signed_distance
                                && (r.normal - c.normal).norm() <= 1e-12
                        }
                        (Err(_), Err(_)) => true,
                        _ => false,
                    };
                    bad += usize::from(!same);
                }
                println!("  batch vs cold: {bad} differing answers, worst relative difference {worst:.1e}");
            }
            Ok(())
        }
        _ => Err(usage.into()),
    }
}

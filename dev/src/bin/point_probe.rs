//! Development probe of the point–body tracker along the benchmark's
//! Lissajous path (`benches/point_body.rs`): per-lap time, cells solved,
//! feature switches and far-phase searches, for finding where the time goes.
//! `cargo run --release -p extrack-dev --bin point_probe -- FILE [STEPS]`
//!
//! `PROBE_LAPS=k` runs the lap k times (instruction counts per coherent
//! update = difference of a 2-lap and a 1-lap run, with
//! `valgrind --tool=callgrind --toggle-collect='*PointBodyTracker*update_impl*'`).
#[path = "../../../benches/common/lissajous.rs"]
mod lissajous_path;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{BodyState, PointBodyTracker, TrackScene, TrackerConfig};
use lissajous_path::lissajous;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().collect();
    let file = a.get(1).ok_or("usage: point_probe FILE [STEPS]")?;
    let n: usize = a.get(2).map_or(Ok(10_000), |s| s.parse())?;
    let laps: usize = std::env::var("PROBE_LAPS").map_or(Ok(1), |s| s.parse())?;
    let m = extrack::import::import_file(std::path::Path::new(file))?;
    let scene = TrackScene::from_data(&prepare(&m, &PrepareOptions::default())?)?;
    let path = lissajous(&scene, n);
    let still = BodyState::default();
    let mut t = PointBodyTracker::new(&scene, 0, TrackerConfig::default())?;
    t.update(&scene, &path[0], &still, 0.0)?;
    for lap in 0..laps {
        let (mut cells, mut iters, mut switches) = (0u64, 0u64, 0u64);
        let mut times = Vec::with_capacity(n);
        for st in &path[1..] {
            let t0 = Instant::now();
            let r = t.update(&scene, st, &still, 1e-3)?;
            times.push(t0.elapsed().as_nanos() as f64);
            cells += u64::from(r.cells_solved);
            iters += u64::from(r.iterations);
            switches += u64::from(r.switches);
        }
        times.sort_by(f64::total_cmp);
        let k = times.len() as f64;
        println!(
            "lap {lap}: median {:.3} µs, p99 {:.3} µs, p99.9 {:.3} µs, max {:.1} µs; per update: cells solved {:.2}, iterations {:.2}, switches {:.3}",
            times[times.len() / 2] / 1e3,
            times[(times.len() * 99) / 100] / 1e3,
            times[(times.len() * 999) / 1000] / 1e3,
            times[times.len() - 1] / 1e3,
            cells as f64 / k,
            iters as f64 / k,
            switches as f64 / k
        );
    }
    Ok(())
}

//! Runs N coherent tracker ticks, for instruction counting and quick timing:
//! point–patch along the helix over the Table I patch, or (`pair`) patch–patch
//! on the two moving NURBS ellipsoids; the path is precomputed, as in
//! `benches/track.rs`.
//!
//! `valgrind --tool=callgrind ./target/release/tick 20000 [pair]`
//! counts instructions; the program also prints the minimum and median time
//! per tick over batches of 1,000 ticks.
use extrack::geom::fixtures::{ellipsoid, table1_patch};
use extrack::track::scenarios::{ellipsoid_states, helix};
use extrack::track::{BodyState, PatchPairTracker, PointPatchTracker, PointState, TrackError, TrackerConfig};
use std::time::Instant;

const PATH: usize = 4000;
const H: f64 = 1e-3;

fn report(mut times: Vec<f64>) {
    times.sort_by(f64::total_cmp);
    if let (Some(min), Some(med)) = (times.first(), times.get(times.len() / 2)) {
        println!("time per tick: min {min:.1} ns, median {med:.1} ns");
    }
}

fn main() -> Result<(), TrackError> {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let pair = std::env::args().nth(2).is_some_and(|a| a == "pair");
    let cfg = TrackerConfig::default();
    let mut times = Vec::new();
    let mut acc = 0.0;
    let mut evals = 0u64;
    if pair {
        let (ea, eb) = (ellipsoid(3.0, 2.0, 1.5, -1.0), ellipsoid(2.0, 1.0, 1.0, 1.0));
        let states: Vec<(BodyState, BodyState)> = (0..PATH).map(|k| ellipsoid_states(k as f64 * H)).collect();
        let mut t = PatchPairTracker::new(cfg, [0.4, 0.4], [0.6, 0.6])?;
        t.update(&ea, &states[0].0, &eb, &states[0].1, 0.0)?;
        let mut k = 0;
        while k < n {
            let t0 = Instant::now();
            for _ in 0..1000 {
                k += 1;
                let (a, b) = &states[k % PATH];
                let r = t.update(&ea, a, &eb, b, if k % PATH == 0 { 0.0 } else { H })?;
                acc += r.distance;
                evals += u64::from(r.evaluations);
            }
            times.push(t0.elapsed().as_nanos() as f64 / 1000.0);
        }
    } else {
        let patch = table1_patch();
        let still = BodyState::default();
        let path: Vec<PointState> = (0..PATH).map(|k| helix(k as f64 * H)).collect();
        let mut t = PointPatchTracker::new(cfg, [0.5, 0.5])?;
        t.update(&patch, &path[0], &still, 0.0)?;
        let mut k = 0;
        while k < n {
            let t0 = Instant::now();
            for _ in 0..1000 {
                k += 1;
                let r = t.update(&patch, &path[k % PATH], &still, if k % PATH == 0 { 0.0 } else { H })?;
                acc += r.distance;
                evals += u64::from(r.evaluations);
            }
            times.push(t0.elapsed().as_nanos() as f64 / 1000.0);
        }
    }
    println!(
        "sum of distances {acc}, evaluations per tick {}",
        evals as f64 / n as f64
    );
    report(times);
    Ok(())
}

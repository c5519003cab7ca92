//! Runs N point–patch ticks along the helix over the Table I patch, for
//! instruction counting: `valgrind --tool=callgrind ./target/release/examples/tick 20000`.
use extrack::geom::fixtures::table1_patch;
use extrack::track::scenarios::helix;
use extrack::track::{BodyState, PointPatchTracker, TrackerConfig};

fn main() -> Result<(), extrack::track::TrackError> {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let patch = table1_patch();
    let still = BodyState::default();
    let mut t = PointPatchTracker::new(TrackerConfig::default(), [0.5, 0.5])?;
    let mut acc = 0.0;
    let mut evals = 0u64;
    for k in 0..n {
        let r = t.update(&patch, &helix(k as f64 * 1e-3), &still, if k == 0 { 0.0 } else { 1e-3 })?;
        acc += r.distance;
        evals += u64::from(r.evaluations);
    }
    println!(
        "sum of distances {acc}, evaluations per tick {}",
        evals as f64 / n as f64
    );
    Ok(())
}

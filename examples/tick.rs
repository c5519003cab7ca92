//! Runs N point–patch ticks along the helix over the Table I patch (for
//! instruction counting with `valgrind --tool=callgrind`).
use extrack::geom::fixtures::table1_patch;
use extrack::geom::Vec3;
use extrack::track::{BodyState, PointPatchTracker, PointState, TrackerConfig};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let patch = table1_patch();
    let still = BodyState::default();
    let mut t = PointPatchTracker::new(TrackerConfig::default(), [0.5, 0.5]).unwrap();
    let w = std::f64::consts::PI;
    let mut acc = 0.0;
    let mut evals = 0u64;
    for k in 0..n {
        let time = k as f64 * 1e-3;
        let p = PointState {
            q: Vec3::new(
                5.0 + 2.0 * (w * time).cos(),
                5.0 + 2.0 * (w * time).sin(),
                9.0 + 0.5 * time,
            ),
            q_dot: Vec3::new(-2.0 * w * (w * time).sin(), 2.0 * w * (w * time).cos(), 0.5),
        };
        let r = t.update(&patch, &p, &still, if k == 0 { 0.0 } else { 1e-3 }).unwrap();
        acc += r.distance;
        evals += u64::from(r.evaluations);
    }
    println!("{acc} {}", evals as f64 / n as f64);
}

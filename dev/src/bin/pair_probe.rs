//! Development probe of the body–body tracker along an orbit: per-update
//! active pair, modes, cell pairs solved and front size.
//! `cargo run --release -p extrack-dev --bin pair_probe -- FILE_A BODY_A FILE_B BODY_B [STEPS] [GAP]`
//! (the orbit of `benches/body_pair.rs`, with twists).
#[path = "../../../benches/common/orbit.rs"]
mod orbit_path;
use extrack::geom::Pose;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use orbit_path::orbit;
use std::time::Instant;

fn load(p: &str) -> TrackScene {
    let m = extrack::import::import_file(std::path::Path::new(p)).unwrap();
    let s = prepare(&m, &PrepareOptions::default()).unwrap();
    TrackScene::from_data(&s).unwrap()
}

/// One update, kept out of line so that callgrind can count a stretch of
/// the lap (`PROBE_RANGE`).
#[inline(never)]
fn measured(
    t: &mut BodyPairTracker,
    sa: &TrackScene,
    still: &BodyState,
    sb: &TrackScene,
    st: &BodyState,
) -> extrack::track::BodyPairResult {
    t.update(sa, still, sb, st, 1e-3).unwrap()
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (sa, ia, sb, ib) = (load(&a[1]), a[2].parse().unwrap(), load(&a[3]), a[4].parse().unwrap());
    let n: usize = a.get(5).map_or(2000, |s| s.parse().unwrap());
    let gap: f64 = a.get(6).map_or(0.5, |s| s.parse().unwrap());
    let (ba, bb) = (&sa.bodies[ia as usize], &sb.bodies[ib as usize]);
    let path = orbit(&sa, ia, &sb, ib, n, gap);
    let mut t = BodyPairTracker::new(&sa, ia, &sb, ib, TrackerConfig::default()).unwrap();
    println!(
        "pieces {} / {}, cells {} / {}, convex {}",
        ba.pieces.len(),
        bb.pieces.len(),
        ba.cells.len(),
        bb.cells.len(),
        t.convex()
    );
    let still = BodyState::default();
    let (mut times, mut cells, mut fronts) = (Vec::new(), 0u64, 0u64);
    // per update: cell pairs solved (distribution in the summary)
    let mut solved: Vec<u32> = Vec::new();
    // PROBE_LAPS=k runs the orbit k times (instruction counts per update:
    // the difference of two lap counts, without the cold start)
    let laps: usize = std::env::var("PROBE_LAPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    // PROBE_CHECK=k compares every k-th update with a cold query (largest
    // difference in the summary)
    let check: usize = std::env::var("PROBE_CHECK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut worst = (0.0f64, 0usize);
    // PROBE_RANGE=a,b sends updates a..b through `measured` (callgrind:
    // --toggle-collect='*measured*' counts only that stretch of the lap)
    let range: (usize, usize) = std::env::var("PROBE_RANGE")
        .ok()
        .and_then(|s| {
            let (a, b) = s.split_once(',')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .unwrap_or((0, 0));
    for (k, st) in path.iter().cycle().take(laps * path.len()).enumerate() {
        let t0 = Instant::now();
        let r = if (range.0..range.1).contains(&k) {
            measured(&mut t, &sa, &still, &sb, st)
        } else {
            t.update(&sa, &still, &sb, st, 1e-3).unwrap()
        };
        let dt = t0.elapsed().as_secs_f64() * 1e6;
        if check > 0 && k % check == 0 {
            let cold = extrack::track::body_distance(&sa, ia, &Pose::identity(), &sb, ib, &st.pose).unwrap();
            // penetration is a local answer (tracked continuously, where a
            // cold query seeds from the deepest points): separated states only
            let e = if cold.penetrating || r.penetrating {
                0.0
            } else {
                (cold.distance - r.distance).abs()
            };
            if e > worst.0 {
                worst = (e, k);
            }
            if e > 1e-9 {
                let brute =
                    extrack::track::brute::body_pair_distance(&sa, ia, &Pose::identity(), &sb, ib, &st.pose, 40, 12)
                        .unwrap()
                        .0;
                println!(
                    "mismatch at {k}: coherent {:.9} {:?}/{:?} cold {:.9} {:?}/{:?} brute {:.9}",
                    r.distance, r.feature_a, r.feature_b, cold.distance, cold.feature_a, cold.feature_b, brute
                );
                if std::env::var_os("PROBE_DEBUG").is_some() {
                    println!("  active {:?}\n  result {:?}", t.active(), r);
                }
            }
        }
        if k > 0 {
            times.push(dt);
            cells += r.cells_solved as u64;
            solved.push(r.cells_solved);
            fronts += t.front_len() as u64;
        }
        if std::env::var_os("PROBE_QUIET").is_none() && k < n && k % (n / 40).max(1) == 0 {
            let cold = extrack::track::body_distance(&sa, ia, &Pose::identity(), &sb, ib, &st.pose).unwrap();
            print!("cold {:.6} {:?}/{:?} ", cold.distance, cold.feature_a, cold.feature_b);
            println!(
                "{k:5} d {:.6} conv/facing {:?} {:?}/{:?} modes {:?}/{:?} it {} sw {} cells {} front {} {:.1} µs",
                r.distance,
                t.active()
                    .map(|c| (c.converged, c.na, c.nb, c.x, c.nb.dot(&(c.pb - c.pa))))
                    .unwrap(),
                r.feature_a,
                r.feature_b,
                r.mode_a,
                r.mode_b,
                r.iterations,
                r.switches,
                r.cells_solved,
                t.front_len(),
                dt
            );
        }
    }
    if check > 0 {
        println!(
            "largest |coherent − cold| (both separated) {:.3e} at update {}",
            worst.0, worst.1
        );
    }
    solved.sort_unstable();
    if !solved.is_empty() {
        let q = |f: f64| solved[((solved.len() - 1) as f64 * f) as usize];
        let zero = solved.iter().filter(|&&c| c == 0).count();
        println!(
            "cell pairs solved per update: none {:.1} %, median {}, p75 {}, p90 {}, p99 {}",
            100.0 * zero as f64 / solved.len() as f64,
            q(0.5),
            q(0.75),
            q(0.9),
            q(0.99)
        );
    }
    times.sort_by(f64::total_cmp);
    let m = times.len().max(1);
    println!(
        "summary: median {:.2} µs, p90 {:.2} µs, mean cells solved {:.2}, mean front {:.0}",
        times[m / 2],
        times[m * 9 / 10],
        cells as f64 / m as f64,
        fronts as f64 / m as f64
    );
}

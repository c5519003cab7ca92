//! Development probe of the body–body tracker along an orbit: per-update
//! active pair, modes, cell pairs solved and front size.
//! `cargo run --release --example pair_probe -- FILE_A BODY_A FILE_B BODY_B [STEPS] [GAP]`
use extrack::geom::{Pose, Twist, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use nalgebra::UnitQuaternion;
use std::time::Instant;

fn load(p: &str) -> TrackScene {
    let m = extrack::import::import_file(std::path::Path::new(p)).unwrap();
    let s = prepare(&m, &PrepareOptions::default()).unwrap();
    TrackScene::from_data(&s).unwrap()
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (sa, ia, sb, ib) = (load(&a[1]), a[2].parse().unwrap(), load(&a[3]), a[4].parse().unwrap());
    let n: usize = a.get(5).map_or(2000, |s| s.parse().unwrap());
    let gap: f64 = a.get(6).map_or(0.5, |s| s.parse().unwrap());
    let (ba, bb) = (&sa.bodies[ia as usize], &sb.bodies[ib as usize]);
    let ca = ba.placement.transform_point(&((ba.lo + ba.hi) * 0.5));
    let ra = 0.5 * (ba.hi - ba.lo).norm();
    let rb = 0.5 * (bb.hi - bb.lo).norm();
    let radius = 0.8 * (ra + rb) + gap;
    let axis = Vec3::new(0.3, -0.5, 1.0).normalize();
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
    for k in 0..n {
        let w = k as f64 / n as f64 * std::f64::consts::TAU;
        let c = ca + Vec3::new(radius * w.cos(), radius * w.sin(), 0.2 * ra * (2.0 * w).sin());
        let rot = UnitQuaternion::from_scaled_axis(axis * (1.5 * w));
        let placed = bb.placement.transform_point(&((bb.lo + bb.hi) * 0.5));
        let st = BodyState {
            pose: Pose::from_parts(c - rot * placed, rot),
            twist: Twist::zero(),
        };
        let t0 = Instant::now();
        let r = t.update(&sa, &still, &sb, &st, 1e-3).unwrap();
        let dt = t0.elapsed().as_secs_f64() * 1e6;
        if k > 0 {
            times.push(dt);
            cells += r.cells_solved as u64;
            fronts += t.front_len() as u64;
        }
        if std::env::var_os("PROBE_QUIET").is_none() && k % (n / 40).max(1) == 0 {
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

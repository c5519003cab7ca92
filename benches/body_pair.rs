//! Body–body runtime benchmarks: coherent updates along a 1 kHz-like orbit
//! (B circles A while spinning; median and 99.9th percentile over the
//! whole path, printed) and cold queries, for two NURBS ellipsoids (convex),
//! `tiled_convex` against itself, the two parts of `assembly`, and two
//! corpus parts; each imported and prepared at set-up.
//!
//! Run: `cargo bench --bench body_pair` (`EXTRACK_BENCH_QUICK=1`: 10,000
//! steps instead of 100,000). Open CASCADE's `BRepExtrema_DistShapeShape`
//! between the assembly's parts takes about 2.4 ms per step
//! (../shared/oracle, see README).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use extrack::geom::Pose;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{body_distance, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use std::path::Path;
use std::time::Instant;

#[path = "common/orbit.rs"]
mod orbit_path;
use orbit_path::{orbit, H};

fn load(rel: &str) -> Option<TrackScene> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if !p.exists() {
        eprintln!("skipping {rel}: not found");
        return None;
    }
    let m = extrack::import::import_file(&p).ok()?;
    let s = prepare(&m, &PrepareOptions::default()).ok()?;
    TrackScene::from_data(&s).ok()
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    let k = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[k.clamp(1, sorted.len()) - 1]
}

fn bench(c: &mut Criterion) {
    let steps = if std::env::var_os("EXTRACK_BENCH_QUICK").is_some() {
        10_000
    } else {
        100_000
    };
    // (name, scene A, body A, scene B, body B, orbit gap in mm)
    let cases: [(&str, &str, u32, &str, u32, f64); 4] = [
        (
            "ellipsoids",
            "fixtures/ellipsoid.step",
            0,
            "fixtures/ellipsoid.step",
            0,
            0.5,
        ),
        (
            "tiled_convex",
            "fixtures/tiled_convex.step",
            0,
            "fixtures/tiled_convex.step",
            0,
            0.5,
        ),
        (
            "assembly",
            "fixtures/assembly.step",
            0,
            "fixtures/assembly.step",
            1,
            2.0,
        ),
        (
            "corpus_as1",
            "../shared/fixtures/corpus/step_autocad2000_as1.stp",
            0,
            "../shared/fixtures/corpus/step_autocad2000_as1.stp",
            1,
            2.0,
        ),
    ];
    let still = BodyState::default();
    for (name, fa, ia, fb, ib, gap) in cases {
        let (Some(sa), Some(sb)) = (load(fa), load(fb)) else {
            continue;
        };
        if sa.bodies.len() <= ia as usize || sb.bodies.len() <= ib as usize {
            eprintln!("skipping {name}: missing body");
            continue;
        }
        let path = orbit(&sa, ia, &sb, ib, steps, gap);
        let mut t = BodyPairTracker::new(&sa, ia, &sb, ib, TrackerConfig::default()).unwrap();
        t.update(&sa, &still, &sb, &path[0], 0.0).unwrap();
        let mut times = Vec::with_capacity(steps);
        let (mut cells, mut pen) = (0u64, 0u64);
        for st in &path[1..] {
            let t0 = Instant::now();
            let r = t.update(&sa, &still, &sb, st, H).unwrap();
            times.push(t0.elapsed().as_nanos() as f64);
            cells += r.cells_solved as u64;
            pen += r.penetrating as u64;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name}: coherent pair update over {} steps: median {:.3} µs, p99 {:.3} µs, p99.9 {:.3} µs, cell pairs solved/update {:.2}, penetrating {pen}, convex {}",
            times.len(),
            pct(&times, 50.0) / 1e3,
            pct(&times, 99.0) / 1e3,
            pct(&times, 99.9) / 1e3,
            cells as f64 / times.len() as f64,
            t.convex()
        );
        let mut g = c.benchmark_group(format!("body_pair/{name}"));
        let mut k = 0usize;
        g.bench_function("coherent_update", |b| {
            b.iter(|| {
                k = (k + 1) % path.len();
                let dt = if k == 0 { 0.0 } else { H };
                black_box(t.update(&sa, &still, &sb, &path[k], dt).unwrap())
            })
        });
        let mut j = 0usize;
        g.bench_function("cold_query", |b| {
            b.iter(|| {
                j = (j + 7919) % path.len();
                black_box(body_distance(&sa, ia, &Pose::identity(), &sb, ib, &path[j].pose).unwrap())
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);

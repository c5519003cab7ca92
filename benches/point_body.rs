//! Point–body runtime benchmarks: coherent updates along a 1 kHz-like path
//! (median and 99.9th percentile over 100,000 steps, printed), cold-start
//! queries and haptic ticks, on `rounded_box`, `sculpted` and the largest
//! corpus part that has an oracle (`step_sw2015_box_sides_asm.step`, 417
//! faces), each imported and prepared at set-up.
//!
//! Run: `cargo bench --bench point_body` (set `EXTRACK_BENCH_QUICK=1` to use
//! 10,000 steps). Open CASCADE's `BRepExtrema_DistShapeShape` point query
//! on the same files (../shared/oracle/README.md, measured with
//! occt_timing.py): rounded_box 226 µs, sculpted 693 µs per query.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use extrack::geom::Pose;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{
    closest_point, BodyState, CouplerConfig, HapticCoupler, PointBodyTracker, Target, TrackScene, TrackerConfig,
};
use lissajous_path::lissajous;
use std::path::Path;
use std::time::Instant;

#[path = "common/lissajous.rs"]
mod lissajous_path;

const H: f64 = 1e-3;

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
    let cases = [
        ("rounded_box", "fixtures/rounded_box.step"),
        ("sculpted", "fixtures/sculpted.step"),
        (
            "sw2015_box_sides_asm",
            "../shared/fixtures/corpus/step_sw2015_box_sides_asm.step",
        ),
    ];
    let still = BodyState::default();
    for (name, rel) in cases {
        let Some(scene) = load(rel) else { continue };
        let path = lissajous(&scene, steps);
        // per-update distribution over the whole path (one tracker, coherent)
        let mut t = PointBodyTracker::new(&scene, 0, TrackerConfig::default()).unwrap();
        t.update(&scene, &path[0], &still, 0.0).unwrap();
        let mut times = Vec::with_capacity(steps);
        let mut cells = 0u64;
        for st in &path[1..] {
            let t0 = Instant::now();
            let r = t.update(&scene, st, &still, H).unwrap();
            times.push(t0.elapsed().as_nanos() as f64);
            cells += r.cells_solved as u64;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name}: coherent update over {} steps: median {:.3} µs, p99 {:.3} µs, p99.9 {:.3} µs, max {:.1} µs, cells solved/update {:.2}",
            times.len(),
            pct(&times, 50.0) / 1e3,
            pct(&times, 99.0) / 1e3,
            pct(&times, 99.9) / 1e3,
            times.last().copied().unwrap_or(0.0) / 1e3,
            cells as f64 / times.len() as f64
        );
        let mut g = c.benchmark_group(format!("point_body/{name}"));
        let mut k = 0usize;
        g.bench_function("coherent_update", |b| {
            b.iter(|| {
                k = (k + 1) % path.len();
                let dt = if k == 0 { 0.0 } else { H };
                black_box(t.update(&scene, &path[k], &still, dt).unwrap())
            })
        });
        let mut j = 0usize;
        g.bench_function("cold_query", |b| {
            b.iter(|| {
                j = (j + 7919) % path.len();
                let target = Target::Body {
                    index: 0,
                    pose: Pose::identity(),
                };
                black_box(closest_point(&scene, &target, path[j].q).unwrap())
            })
        });
        let mut coupler = HapticCoupler::new(&scene, 0, CouplerConfig::default()).unwrap();
        let mut m = 0usize;
        g.bench_function("haptic_tick", |b| {
            b.iter(|| {
                m = (m + 1) % path.len();
                black_box(coupler.tick(&scene, path[m].q, Some(path[m].q_dot), &still, H).unwrap())
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

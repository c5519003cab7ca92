//! Point–body runtime benchmarks.
//!
//! First a per-file table over every file of `../shared/fixtures/corpus` and
//! `wave2` (skipped when absent, or with `POINT_BODY_TABLE=0`): per file the
//! coherent update's median, p99, p99.9 and max along three paths (the
//! Lissajous path below; a random-segment path between Open CASCADE's
//! oracle points at up to 1 m/s; a grazing path along edges and through thin
//! features and gaps — `common/point_paths.rs`), the cold query's median and
//! max, and batch points per second (`closest_points` on all cores). The
//! table is printed and written to `target/criterion/point_body_files.json`
//! (`tools/bench_table.py` puts it in the README). 10,000 updates per path,
//! 1,000 cold queries and 20,000 batch points per file; quick mode 1,000,
//! 100 and 2,000.
//!
//! Then criterion: coherent updates along a 1 kHz-like path (median and
//! 99.9th percentile over 100,000 steps, printed), cold-start queries and
//! haptic ticks, on `rounded_box`, `sculpted` and the largest corpus part
//! that has an oracle (`step_sw2015_box_sides_asm.step`, 417 faces), each
//! imported and prepared at set-up.
//!
//! Run: `cargo bench --bench point_body` (set `EXTRACK_BENCH_QUICK=1` to use
//! 10,000 steps and the quick table; `-- nomatch` prints the table only). Open CASCADE's `BRepExtrema_DistShapeShape` point query
//! on the same files (../shared/oracle/README.md, measured with
//! occt_timing.py): rounded_box 226 µs, sculpted 693 µs per query.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use extrack::geom::Pose;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{
    closest_point, BodyState, CouplerConfig, HapticCoupler, PointBodyTracker, Target, TrackScene, TrackerConfig,
};
use lissajous_path::lissajous;
use point_paths::pct;
use std::path::Path;
use std::time::Instant;

#[path = "common/latency.rs"]
mod latency;
#[path = "common/lissajous.rs"]
mod lissajous_path;
#[path = "common/point_paths.rs"]
mod point_paths;

const H: f64 = point_paths::H;

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

/// The per-file table over the corpus and wave2 (see the module doc).
fn corpus_table(quick: bool) {
    if std::env::var("POINT_BODY_TABLE").is_ok_and(|v| v == "0") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = latency::corpus_files(root);
    if files.is_empty() {
        eprintln!("skipping the per-file table: ../shared/fixtures not found");
        return;
    }
    let (steps, cold, batch) = if quick {
        (1_000, 100, 2_000)
    } else {
        (10_000, 1_000, 20_000)
    };
    println!(
        "point–body per file ({steps} updates per path, {cold} cold queries, {batch} batch points; load {}):",
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
    println!("{}", latency::table_header());
    let mut rows = Vec::new();
    for f in &files {
        let scene = match latency::load_scene(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: skipped ({e})", f.display());
                continue;
            }
        };
        let s = latency::measure(f, &scene, steps, cold, batch);
        println!("{}", latency::table_row(&s));
        rows.push(s);
    }
    let json: Vec<serde_json::Value> = rows
        .iter()
        .map(|s| {
            let paths: serde_json::Map<String, serde_json::Value> = latency::PATHS
                .iter()
                .zip(&s.paths)
                .map(|(name, p)| {
                    (
                        name.to_string(),
                        serde_json::json!({
                            "median_us": pct(&p.times, 50.0),
                            "p99_us": pct(&p.times, 99.0),
                            "p999_us": pct(&p.times, 99.9),
                            "max_us": p.times.last().copied().unwrap_or(f64::NAN),
                            "cells_mean": p.cells_mean,
                            "cells_max": p.cells_max,
                            "coherent_cold_mismatches": p.mismatches,
                        }),
                    )
                })
                .collect();
            serde_json::json!({
                "file": s.name,
                "pieces": s.pieces,
                "paths": paths,
                "cold_median_us": pct(&s.cold, 50.0),
                "cold_max_us": s.cold.last().copied().unwrap_or(f64::NAN),
                "batch_points_per_s": s.batch_pps,
            })
        })
        .collect();
    let out = root.join("target/criterion");
    let doc = serde_json::json!({
        "steps": steps,
        "cold": cold,
        "batch": batch,
        "load": std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim(),
        "files": json,
    });
    if std::fs::create_dir_all(&out).is_ok() {
        let _ = std::fs::write(
            out.join("point_body_files.json"),
            serde_json::to_string_pretty(&doc).unwrap_or_default(),
        );
    }
}

fn bench(c: &mut Criterion) {
    let quick = std::env::var_os("EXTRACK_BENCH_QUICK").is_some();
    corpus_table(quick);
    let steps = if quick { 10_000 } else { 100_000 };
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

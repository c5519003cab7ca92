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
//!
//! Then the corpus pairs of issue 26 (parts of ../shared/fixtures, 100–300
//! faces) under the built-in motions of `extrack track --bodies`
//! (`builtin:orbit`, `builtin:approach` into penetration and back,
//! `builtin:haptic`; 2,001 updates at 1 kHz each): coherent update median,
//! p99, p99.9 and max, the cold query (median of 21 `body_distance` calls
//! along the motion), the far phase's mean work per update, and Open
//! CASCADE's fresh `BRepExtrema_DistShapeShape` for the same pair
//! (`tools/oracle/occt_pair_timing.py --files A B`, measured once on the
//! shared development machine and stored in [`OCCT_US`]) as a ratio to the
//! cold query. `EXTRACK_BENCH_PAIRS=name,...` runs only those pairs
//! (`none`: none).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use extrack::geom::Pose;
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::scenarios;
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

/// The corpus pairs of issue 26: (name, part A, part B) under ../shared/fixtures.
const PAIRS: [(&str, &str, &str); 7] = [
    (
        "nist_pmi1 x fusee",
        "corpus/step_nist_pmi1_ap203.stp",
        "corpus/step_rhino_fusee.stp",
    ),
    (
        "pump_carter x pump_carter",
        "corpus/step_proe2004_pump_carter.stp",
        "corpus/step_proe2004_pump_carter.stp",
    ),
    (
        "fusee x fusee",
        "corpus/step_rhino_fusee.stp",
        "corpus/step_rhino_fusee.stp",
    ),
    (
        "sw2013_featuretype x pump_carter",
        "corpus/step_sw2013_featuretype.step",
        "corpus/step_proe2004_pump_carter.stp",
    ),
    (
        "sw2010_impeller x catia5_ventilator",
        "corpus/iges_sw2010_impeller.igs",
        "corpus/step_catia5_ventilator.stp",
    ),
    (
        "acis_ujoint x euclid_r103 (wave2)",
        "wave2/corpus/step_acis_ujoint.stp",
        "wave2/corpus/step_euclid_advexchanger_r103.stp",
    ),
    (
        "euclid_r103 x euclid_r103 (wave2)",
        "wave2/corpus/step_euclid_advexchanger_r103.stp",
        "wave2/corpus/step_euclid_advexchanger_r103.stp",
    ),
];

/// Open CASCADE's fresh `BRepExtrema_DistShapeShape` between the first solids
/// of a pair, µs per query (`tools/oracle/occt_pair_timing.py --files A B
/// --steps 3 --repeats 1`, median, 2026-11-27 on the shared 2-core machine
/// at load ≈ 10, so several times its unloaded cost); `NaN`: not measured.
const OCCT_US: [(&str, f64); 3] = [
    ("pump_carter x pump_carter", 18_260_886.0),
    ("sw2013_featuretype x pump_carter", 11_564_609.0),
    ("acis_ujoint x euclid_r103 (wave2)", 35_366_680.0),
];

/// Runs the corpus pairs under the three built-in motions (see the module doc).
fn corpus_pairs() {
    let only = std::env::var("EXTRACK_BENCH_PAIRS").ok();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    for (name, fa, fb) in PAIRS {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|n| name.starts_with(n.trim())))
        {
            continue;
        }
        let (pa, pb) = (shared.join(fa), shared.join(fb));
        let (Some(sa), Some(sb)) = (load(pa.to_str().unwrap_or("")), load(pb.to_str().unwrap_or(""))) else {
            eprintln!("skipping {name}: parts not found");
            continue;
        };
        let occt = OCCT_US.iter().find(|(n, _)| *n == name).map_or(f64::NAN, |(_, t)| *t);
        for motion in ["orbit", "approach", "haptic"] {
            let path = match motion {
                "orbit" => {
                    let mut p = scenarios::body_orbit(&sa.bodies[0], &sb.bodies[0], 2000, H);
                    p.push(p[0]);
                    p
                }
                "approach" => scenarios::body_approach(&sa, 0, &sb, 0, 2000, H).unwrap(),
                _ => scenarios::body_haptic(&sa, 0, &sb, 0, 2000, H, 26).unwrap(),
            };
            let still = BodyState::default();
            let mut t = BodyPairTracker::new(&sa, 0, &sb, 0, TrackerConfig::default()).unwrap();
            t.update(&sa, &still, &sb, &path[0], 0.0).unwrap();
            let (mut times, mut solves, mut pen) = (Vec::with_capacity(path.len()), 0u64, 0u64);
            for st in &path[1..] {
                let t0 = Instant::now();
                let r = t.update(&sa, &still, &sb, st, H).unwrap();
                times.push(t0.elapsed().as_nanos() as f64);
                let c = t.far_counts();
                solves += u64::from(c.item_solves + c.cell_solves);
                pen += r.penetrating as u64;
            }
            times.sort_by(f64::total_cmp);
            let mut cold: Vec<f64> = (0..21)
                .map(|k| {
                    let st = &path[k * (path.len() - 1) / 20];
                    let t0 = Instant::now();
                    black_box(body_distance(&sa, 0, &Pose::identity(), &sb, 0, &st.pose).unwrap());
                    t0.elapsed().as_nanos() as f64
                })
                .collect();
            cold.sort_by(f64::total_cmp);
            let cold_us = pct(&cold, 50.0) / 1e3;
            println!(
                "{name} {motion}: median {:.1} µs, p99 {:.1} µs, p99.9 {:.1} µs, max {:.1} µs, cold {:.1} µs, solves/update {:.1}, penetrating {pen}; Open CASCADE {:.0} µs = {:.0}x cold",
                pct(&times, 50.0) / 1e3,
                pct(&times, 99.0) / 1e3,
                pct(&times, 99.9) / 1e3,
                times.last().copied().unwrap_or(f64::NAN) / 1e3,
                cold_us,
                solves as f64 / times.len() as f64,
                occt,
                occt / cold_us,
            );
        }
    }
}

fn all(c: &mut Criterion) {
    bench(c);
    corpus_pairs();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(3));
    targets = all
}
criterion_main!(benches);

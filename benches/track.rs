//! Tracker benchmarks: one point–patch tick (hybrid, feed-forward, degree-4
//! Table I patch, helix path at 1 kHz), one patch–patch tick (two moving NURBS
//! ellipsoids), and — in the same run — truck-geometry's warm-started
//! nearest-parameter search on the same path, reported as a ratio.
//!
//! Run: `cargo bench --bench track`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use extrack::geom::fixtures::{ellipsoid, table1_patch};
use extrack::track::scenarios::{ellipsoid_states, helix};
use extrack::track::{BodyState, PatchPairTracker, PointPatchTracker, PointState, TrackerConfig};
use std::time::Instant;
use truck_geometry::prelude::{Point3, SearchNearestParameter, D2};

const H: f64 = 1e-3;
const PATH: usize = 4000;

fn bench(c: &mut Criterion) {
    let patch = table1_patch();
    let path: Vec<PointState> = (0..PATH).map(|k| helix(k as f64 * H)).collect();
    let still = BodyState::default();
    // defaults: hybrid law, feed-forward, Newton steps under 1e-5 mm accepted
    // (witness error ≈ 1e-12 mm on this path, see tests/track/track_motion.rs)
    let cfg = TrackerConfig::default();

    let mut g = c.benchmark_group("point_patch");
    let mut t = PointPatchTracker::new(cfg, [0.5, 0.5]).unwrap();
    t.update(&patch, &path[0], &still, 0.0).unwrap();
    let mut k = 0usize;
    g.bench_function("hybrid_ff_tick_table1", |b| {
        b.iter(|| {
            k = (k + 1) % PATH;
            let dt = if k == 0 { 0.0 } else { H };
            black_box(t.update(&patch, &path[k], &still, dt).unwrap())
        })
    });
    let tp = patch.to_truck();
    let mut hint = (0.5, 0.5);
    let mut k2 = 0usize;
    g.bench_function("truck_search_nearest_warm_table1", |b| {
        b.iter(|| {
            k2 = (k2 + 1) % PATH;
            let q = path[k2].q;
            let r = SearchNearestParameter::<D2>::search_nearest_parameter(
                &tp,
                Point3::new(q.x, q.y, q.z),
                Some(hint),
                100,
            );
            if let Some(p) = r {
                hint = p;
            }
            black_box(r)
        })
    });
    g.finish();

    // Same-run ratio over the whole path (median of 5 passes each).
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for _ in 0..5 {
        let mut t = PointPatchTracker::new(cfg, [0.5, 0.5]).unwrap();
        t.update(&patch, &path[0], &still, 0.0).unwrap();
        let t0 = Instant::now();
        for p in &path[1..] {
            black_box(t.update(&patch, p, &still, H).unwrap());
        }
        ours.push(t0.elapsed().as_secs_f64() / (PATH - 1) as f64);
        let mut hint = (0.5, 0.5);
        let t0 = Instant::now();
        for p in &path[1..] {
            if let Some(h) = SearchNearestParameter::<D2>::search_nearest_parameter(
                &tp,
                Point3::new(p.q.x, p.q.y, p.q.z),
                Some(hint),
                100,
            ) {
                hint = h;
            }
        }
        theirs.push(t0.elapsed().as_secs_f64() / (PATH - 1) as f64);
    }
    ours.sort_by(f64::total_cmp);
    theirs.sort_by(f64::total_cmp);
    println!(
        "point-patch tick: extrack {:.1} ns, truck-geometry warm search {:.1} ns, ratio {:.0}x",
        ours[2] * 1e9,
        theirs[2] * 1e9,
        theirs[2] / ours[2]
    );

    let (ea, eb) = (ellipsoid(3.0, 2.0, 1.5, -1.0), ellipsoid(2.0, 1.0, 1.0, 1.0));
    let states: Vec<(BodyState, BodyState)> = (0..PATH).map(|k| ellipsoid_states(k as f64 * H)).collect();
    let mut pt = PatchPairTracker::new(cfg, [0.4, 0.4], [0.6, 0.6]).unwrap();
    pt.update(&ea, &states[0].0, &eb, &states[0].1, 0.0).unwrap();
    let mut k3 = 0usize;
    c.bench_function("patch_patch/hybrid_ff_tick_ellipsoids", |b| {
        b.iter(|| {
            k3 = (k3 + 1) % PATH;
            let dt = if k3 == 0 { 0.0 } else { H };
            let (a, bb) = &states[k3];
            black_box(pt.update(&ea, a, &eb, bb, dt).unwrap())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Cost of the C ABI: one haptic-coupler tick and one point-tracker update
//! through the `extern "C"` entry points (`ext_coupler_tick`,
//! `ext_point_tracker_update`, called through a function pointer so nothing
//! is inlined across the boundary, as from a C host) against the same call on
//! the Rust API, on the same 1 kHz path over the rounded box fixture; and one
//! body-pair update (`ext_pair_tracker_update_pose` against
//! `BodyPairTracker::update`) on the built-in orbit of two NURBS ellipsoids
//! (`extrack track --bodies … --motion builtin:orbit`).
//!
//! Criterion medians per side (separate objects), then a paired estimate of
//! the FFI overhead on the **same object**: the Rust side runs the very
//! tracker (or coupler) behind the C handle (`rust_parts`), and before each
//! side's batch the object's state is restored from a snapshot, so both sides
//! run the same batch of the path from the same state on the same memory; the
//! side that goes first alternates, and the median of the per-round
//! differences is printed. (Two separate objects differ in heap layout, which
//! shifted their times by −2 to +70 ns between processes — more than the
//! boundary costs; on one object that effect is gone.)
//! Target: overhead ≤ 20 ns per call.
//!
//! Run: `cargo bench --bench capi -- --warm-up-time 1 --measurement-time 3`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use extrack::capi::ext_status;
use extrack::capi::{ext_closest_point, ext_point_tracker, ext_point_tracker_new, ext_point_tracker_update};
use extrack::capi::{ext_coupler, ext_coupler_new, ext_coupler_output, ext_coupler_tick};
use extrack::capi::{
    ext_pair_result, ext_pair_tracker, ext_pair_tracker_free, ext_pair_tracker_new, ext_pair_tracker_update_pose,
};
use extrack::capi::{ext_pose, ext_twist, ext_vec3};
use extrack::capi::{ext_scene, ext_scene_load_buffer};
use extrack::geom::{Pose, Vec3};
use extrack::track::{
    BodyPairTracker, BodyState, CouplerConfig, HapticCoupler, PointBodyTracker, PointState, TrackScene, TrackerConfig,
};
use std::time::Instant;

const H: f64 = 1e-3;
const PATH: usize = 10_000;

type TickFn = unsafe extern "C" fn(
    *mut ext_coupler,
    *const ext_vec3,
    *const ext_vec3,
    *const ext_pose,
    *const ext_twist,
    f64,
    *mut ext_coupler_output,
) -> ext_status;
type PairUpdateFn = unsafe extern "C" fn(
    *mut ext_pair_tracker,
    *const ext_pose,
    *const ext_pose,
    *const ext_twist,
    *const ext_twist,
    f64,
    *mut ext_pair_result,
) -> ext_status;
type UpdateFn = unsafe extern "C" fn(
    *mut ext_point_tracker,
    *const ext_vec3,
    *const ext_vec3,
    *const ext_pose,
    *const ext_twist,
    f64,
    *mut ext_closest_point,
) -> ext_status;

fn v(p: Vec3) -> ext_vec3 {
    ext_vec3 { x: p.x, y: p.y, z: p.z }
}

/// The servo host's path: slides over the top of the box and presses in four times.
fn press_path(lo: Vec3, hi: Vec3) -> Vec<PointState> {
    let (cx, cy, ex, top) = (0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y), 0.5 * (hi.x - lo.x), hi.z);
    (0..PATH)
        .map(|i| {
            let t = i as f64 * H;
            let pi = std::f64::consts::PI;
            let s = (pi * t / 2.5).sin();
            PointState {
                q: Vec3::new(cx + 0.5 * ex * (2.0 * pi * t / 10.0).sin(), cy, top + 4.0 - 7.0 * s * s),
                q_dot: Vec3::new(
                    0.5 * ex * (2.0 * pi / 10.0) * (2.0 * pi * t / 10.0).cos(),
                    0.0,
                    -7.0 * 2.0 * s * (pi * t / 2.5).cos() * pi / 2.5,
                ),
            }
        })
        .collect()
}

/// An orbit outside the body at 1.5× its half extents.
fn orbit_path(lo: Vec3, hi: Vec3) -> Vec<PointState> {
    let c = (lo + hi) * 0.5;
    let e = (hi - lo) * 0.5;
    let w = std::f64::consts::PI;
    (0..PATH)
        .map(|i| {
            let t = i as f64 * H;
            PointState {
                q: c + Vec3::new(
                    1.5 * e.x * (w * t).cos(),
                    1.5 * e.y * (w * t).sin(),
                    0.5 * e.z * (3.0 * w * t).sin(),
                ),
                q_dot: Vec3::new(
                    -1.5 * e.x * w * (w * t).sin(),
                    1.5 * e.y * w * (w * t).cos(),
                    1.5 * e.z * w * (3.0 * w * t).cos(),
                ),
            }
        })
        .collect()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn bench(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = extrack::import::import_file(root.join("fixtures/rounded_box.brep.igs")).unwrap();
    let bytes = extrack::prepare::prepare(&model, &Default::default()).unwrap().write();
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes()).unwrap();
    let ts = TrackScene::new(&view).unwrap();
    let bb = view.bodies()[0].bbox;
    let (lo, hi) = (Vec3::from(bb.min), Vec3::from(bb.max));
    let mut scene: *mut ext_scene = std::ptr::null_mut();
    assert_eq!(
        unsafe { ext_scene_load_buffer(bytes.as_ptr(), bytes.len(), &mut scene) },
        ext_status::EXT_OK
    );
    let still = BodyState::at(Pose::identity());
    let identity = ext_pose {
        position: ext_vec3 { x: 0.0, y: 0.0, z: 0.0 },
        orientation: extrack::capi::ext_quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };
    let tick: TickFn = black_box(ext_coupler_tick);
    let update: UpdateFn = black_box(ext_point_tracker_update);

    // ---- haptic coupler tick
    let press = press_path(lo, hi);
    let press_c: Vec<(ext_vec3, ext_vec3)> = press.iter().map(|p| (v(p.q), v(p.q_dot))).collect();
    let ccfg = CouplerConfig {
        stiffness: 0.5,
        damping: 0.002,
        ..CouplerConfig::default()
    };
    let mut rust_coupler = HapticCoupler::new(&ts, 0, ccfg).unwrap();
    let mut c_coupler: *mut ext_coupler = std::ptr::null_mut();
    let c_cfg = extrack::capi::ext_coupler_config {
        stiffness: ccfg.stiffness,
        damping: ccfg.damping,
        max_force: ccfg.max_force,
        tracker: extrack::capi::ext_tracker_config::from(&ccfg.tracker),
    };
    assert_eq!(
        unsafe { ext_coupler_new(scene, 0, &c_cfg, &mut c_coupler) },
        ext_status::EXT_OK
    );
    let mut out = std::mem::MaybeUninit::<ext_coupler_output>::uninit();

    let mut g = c.benchmark_group("coupler_tick");
    let mut k = 0usize;
    g.bench_function("rust", |b| {
        b.iter(|| {
            k = (k + 1) % PATH;
            let p = &press[k];
            black_box(rust_coupler.tick(&ts, p.q, Some(p.q_dot), &still, H).unwrap())
        })
    });
    let mut k = 0usize;
    g.bench_function("c_abi", |b| {
        b.iter(|| {
            k = (k + 1) % PATH;
            let (q, qd) = &press_c[k];
            let st = unsafe { tick(c_coupler, q, qd, &identity, std::ptr::null(), H, out.as_mut_ptr()) };
            black_box(&out);
            st
        })
    });
    g.finish();

    // ---- point tracker update
    let orbit = orbit_path(lo, hi);
    let orbit_c: Vec<(ext_vec3, ext_vec3)> = orbit.iter().map(|p| (v(p.q), v(p.q_dot))).collect();
    let mut rust_tracker = PointBodyTracker::new(&ts, 0, TrackerConfig::default()).unwrap();
    let mut c_tracker: *mut ext_point_tracker = std::ptr::null_mut();
    assert_eq!(
        unsafe { ext_point_tracker_new(scene, 0, std::ptr::null(), &mut c_tracker) },
        ext_status::EXT_OK
    );
    let mut cp = std::mem::MaybeUninit::<ext_closest_point>::uninit();
    let mut g = c.benchmark_group("point_tracker_update");
    let mut k = 0usize;
    g.bench_function("rust", |b| {
        b.iter(|| {
            k = (k + 1) % PATH;
            black_box(rust_tracker.update(&ts, &orbit[k], &still, H).unwrap())
        })
    });
    let mut k = 0usize;
    g.bench_function("c_abi", |b| {
        b.iter(|| {
            k = (k + 1) % PATH;
            let (q, qd) = &orbit_c[k];
            let st = unsafe { update(c_tracker, q, qd, &identity, std::ptr::null(), H, cp.as_mut_ptr()) };
            black_box(&cp);
            st
        })
    });
    g.finish();

    // ---- paired estimate on the same objects: the Rust side runs the very
    // tracker behind the C handle (`rust_parts`), both from the same state
    const BATCH: usize = 1000;
    const ROUNDS: usize = 101;
    let seg = |round: usize| (round * BATCH) % PATH..(round * BATCH) % PATH + BATCH;
    let (r_tick, c_tick_t, d_tick) = paired_same_object(
        ROUNDS,
        // SAFETY (all closures here): `c_coupler` is a live handle used by this
        // thread only; each reference made from it ends within its closure.
        || unsafe { &mut *c_coupler }.rust_parts().1.clone(),
        |s| *unsafe { &mut *c_coupler }.rust_parts().1 = s.clone(),
        |round| {
            let (ts, rc) = unsafe { &mut *c_coupler }.rust_parts();
            let t0 = Instant::now();
            for p in &press[seg(round)] {
                black_box(rc.tick(ts, p.q, Some(p.q_dot), &still, H).unwrap());
            }
            t0.elapsed().as_secs_f64() * 1e9 / BATCH as f64
        },
        |round| {
            let t0 = Instant::now();
            for (q, qd) in &press_c[seg(round)] {
                let st = unsafe { tick(c_coupler, q, qd, &identity, std::ptr::null(), H, out.as_mut_ptr()) };
                black_box((st, &out));
            }
            t0.elapsed().as_secs_f64() * 1e9 / BATCH as f64
        },
    );
    let (r_upd, c_upd, d_update) = paired_same_object(
        ROUNDS,
        // SAFETY (all closures here): as above, for `c_tracker`.
        || unsafe { &mut *c_tracker }.rust_parts().1.clone(),
        |s| *unsafe { &mut *c_tracker }.rust_parts().1 = s.clone(),
        |round| {
            let (ts, rt) = unsafe { &mut *c_tracker }.rust_parts();
            let t0 = Instant::now();
            for p in &orbit[seg(round)] {
                black_box(rt.update(ts, p, &still, H).unwrap());
            }
            t0.elapsed().as_secs_f64() * 1e9 / BATCH as f64
        },
        |round| {
            let t0 = Instant::now();
            for (q, qd) in &orbit_c[seg(round)] {
                let st = unsafe { update(c_tracker, q, qd, &identity, std::ptr::null(), H, cp.as_mut_ptr()) };
                black_box((st, &cp));
            }
            t0.elapsed().as_secs_f64() * 1e9 / BATCH as f64
        },
    );
    println!(
        "paired batches on the same objects ({} rounds × {BATCH}): coupler tick rust {r_tick:.1} ns, C ABI {c_tick_t:.1} ns, \
         overhead {d_tick:+.1} ns; tracker update rust {r_upd:.1} ns, C ABI {c_upd:.1} ns, overhead {d_update:+.1} ns \
         (target ≤ 20 ns)",
        ROUNDS - 1,
    );
    unsafe {
        extrack::capi::ext_coupler_free(c_coupler);
        extrack::capi::ext_point_tracker_free(c_tracker);
        extrack::capi::ext_scene_free(scene);
    }
}

/// The body-pair update through the C ABI against the Rust API: two NURBS
/// ellipsoids (one scene, the same body twice), B on the built-in orbit
/// around A, twists by finite differences; alternating paired batches as
/// above, plus criterion medians per side.
fn bench_pair(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = extrack::import::import_file(root.join("fixtures/ellipsoid.step")).unwrap();
    let bytes = extrack::prepare::prepare(&model, &Default::default()).unwrap().write();
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes()).unwrap();
    let ts = TrackScene::new(&view).unwrap();
    let states = extrack::track::scenarios::body_orbit(&ts.bodies[0], &ts.bodies[0], 2000, H);
    let states_c: Vec<(ext_pose, ext_twist)> = states
        .iter()
        .map(|s| {
            let o = s.pose.iso.translation.vector;
            (
                ext_pose::from(&s.pose),
                ext_twist {
                    angular: v(s.twist.omega),
                    linear: v(s.twist.velocity_at(&o)),
                },
            )
        })
        .collect();
    let n = states.len();
    let still = BodyState::at(Pose::identity());
    let mut scene: *mut ext_scene = std::ptr::null_mut();
    assert_eq!(
        unsafe { ext_scene_load_buffer(bytes.as_ptr(), bytes.len(), &mut scene) },
        ext_status::EXT_OK
    );
    let update: PairUpdateFn = black_box(ext_pair_tracker_update_pose);
    let new_c = || {
        let mut t: *mut ext_pair_tracker = std::ptr::null_mut();
        assert_eq!(
            unsafe { ext_pair_tracker_new(scene, 0, scene, 0, std::ptr::null(), &mut t) },
            ext_status::EXT_OK
        );
        t
    };
    let new_rust = || BodyPairTracker::new(&ts, 0, &ts, 0, Default::default()).unwrap();
    let mut out = std::mem::MaybeUninit::<ext_pair_result>::uninit();

    let mut g = c.benchmark_group("pair_tracker_update");
    let mut rust = new_rust();
    let mut k = 0usize;
    g.bench_function("rust", |b| {
        b.iter(|| {
            k = (k + 1) % n;
            black_box(rust.update(&ts, &still, &ts, &states[k], H).unwrap())
        })
    });
    let ct = new_c();
    let mut k = 0usize;
    g.bench_function("c_abi", |b| {
        b.iter(|| {
            k = (k + 1) % n;
            let (p, t) = &states_c[k];
            let st = unsafe { update(ct, std::ptr::null(), p, std::ptr::null(), t, H, out.as_mut_ptr()) };
            black_box(&out);
            st
        })
    });
    g.finish();

    // paired batches on the same object, over the same path segment (one lap = n samples)
    const BATCH: usize = 500;
    const ROUNDS: usize = 101;
    // contiguous along the closed lap, so every update is coherent
    let seg = |round: usize| (round * BATCH..(round + 1) * BATCH).map(move |i| i % n);
    let (r_t, c_t, d) = paired_same_object(
        ROUNDS,
        // SAFETY (all closures here): `ct` is a live handle used by this thread
        // only; each reference made from it ends within its closure.
        || unsafe { &mut *ct }.rust_parts().2.clone(),
        |s| *unsafe { &mut *ct }.rust_parts().2 = s.clone(),
        |round| {
            let (ta, tb, rt) = unsafe { &mut *ct }.rust_parts();
            let t0 = Instant::now();
            for i in seg(round) {
                black_box(rt.update(ta, &still, tb, &states[i], H).unwrap());
            }
            t0.elapsed().as_secs_f64() * 1e9 / BATCH as f64
        },
        |round| {
            let t0 = Instant::now();
            for i in seg(round) {
                let (p, t) = &states_c[i];
                let st = unsafe { update(ct, std::ptr::null(), p, std::ptr::null(), t, H, out.as_mut_ptr()) };
                assert_eq!(st, ext_status::EXT_OK);
                black_box(&out);
            }
            t0.elapsed().as_secs_f64() * 1e9 / BATCH as f64
        },
    );
    println!(
        "paired batches on the same object ({} rounds × {BATCH}): pair tracker update rust {r_t:.1} ns, C ABI {c_t:.1} ns, \
         overhead {d:+.1} ns (target ≤ 20 ns)",
        ROUNDS - 1,
    );
    unsafe {
        ext_pair_tracker_free(ct);
        extrack::capi::ext_scene_free(scene);
    }
}

/// Paired estimate of the boundary's own cost on one object: before each
/// side's batch the object's state is restored from a snapshot taken at the
/// start of the round, so both sides run the same batch of the path from the
/// same state on the same memory (the object behind the C handle); the side
/// that goes first alternates. Round 0 (cold start) is dropped. Returns the
/// medians of the Rust time, the C time and their per-round difference, in ns
/// per call.
fn paired_same_object<S>(
    rounds: usize,
    mut snapshot: impl FnMut() -> S,
    mut restore: impl FnMut(&S),
    mut rust: impl FnMut(usize) -> f64,
    mut c: impl FnMut(usize) -> f64,
) -> (f64, f64, f64) {
    let (mut r, mut cs, mut d) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let s = snapshot();
        let (a, b) = if round % 2 == 0 {
            restore(&s);
            let a = rust(round);
            restore(&s);
            (a, c(round))
        } else {
            restore(&s);
            let b = c(round);
            restore(&s);
            (rust(round), b)
        };
        if round > 0 {
            r.push(a);
            cs.push(b);
            d.push(b - a);
        }
    }
    (median(r), median(cs), median(d))
}

criterion_group!(benches, bench, bench_pair);
criterion_main!(benches);

//! The evaluators never allocate: a counting global allocator wraps the
//! system one, and evaluation of surfaces and curves of every supported degree
//! (rational and polynomial, Bézier and multi-span) must leave the count at 0.
//!
//! Its own test binary (not grouped into a stage crate): the `#[global_allocator]`
//! applies to every test of the binary it is linked into.

use extrack::geom::{table1_patch, NurbsCurve, NurbsSurface, MAX_DEGREE};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

struct Counting;

thread_local! {
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to the system allocator unchanged; the counter is
// a thread-local `Cell` (const-initialised, so touching it never allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        COUNT.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = COUNT.with(|c| c.get());
    f();
    COUNT.with(|c| c.get()) - before
}

fn knots(p: usize, interior: &[f64]) -> Vec<f64> {
    let mut k = vec![0.0; p + 1];
    k.extend_from_slice(interior);
    k.extend(std::iter::repeat(1.0).take(p + 1));
    k
}

#[test]
fn evaluation_never_allocates() {
    let mut surfaces = vec![table1_patch()];
    let mut curves = Vec::new();
    for p in 1..=MAX_DEGREE {
        for interior in [&[][..], &[0.3, 0.3, 0.7][..]] {
            let k = knots(p, interior);
            let n = k.len() - p - 1;
            let pts: Vec<[f64; 3]> = (0..n * n)
                .map(|i| [i as f64, (i % n) as f64, (i as f64).sin()])
                .collect();
            let w: Vec<f64> = (0..n * n).map(|i| 1.0 + 0.1 * (i % 3) as f64).collect();
            for weights in [None, Some(&w[..])] {
                surfaces.push(NurbsSurface::try_new(p, p, k.clone(), k.clone(), n, n, &pts, weights).unwrap());
                curves.push(NurbsCurve::try_new(p, k.clone(), &pts[..n], weights.map(|w| &w[..n])).unwrap());
            }
        }
    }
    let n = allocations_during(|| {
        let mut acc = 0.0;
        for s in &surfaces {
            for i in 0..=8 {
                for j in 0..=8 {
                    let (u, v) = (i as f64 / 8.0, j as f64 / 8.0 - 0.1);
                    let e = s.eval_derivs(black_box(u), black_box(v));
                    acc += e.p.x + e.su.y + e.svv.z;
                    acc += s.eval_d1(u, v).sv.x + s.eval(u, v).z;
                    acc += s.try_eval_derivs(u, v).map_or(0.0, |e| e.suv.x);
                }
            }
        }
        for c in &curves {
            for i in 0..=16 {
                let e = c.eval_derivs(black_box(i as f64 / 15.0));
                acc += e.p.x + e.d1.y + e.d2.z + c.eval(0.5).x;
            }
        }
        black_box(acc);
    });
    assert_eq!(n, 0, "evaluation allocated {n} times");
    // the counter works: building a surface allocates
    assert!(allocations_during(|| drop(black_box(table1_patch()))) > 0);
}

#[test]
fn point_body_updates_and_haptic_ticks_never_allocate() {
    use extrack::geom::Vec3;
    use extrack::track::{BodyState, CouplerConfig, HapticCoupler, PointBodyTracker, PointState, TrackScene};
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rounded_box.step");
    let m = extrack::import::import_file(&p).unwrap();
    let s = extrack::prepare::prepare(&m, &extrack::prepare::PrepareOptions::default()).unwrap();
    let scene = TrackScene::from_data(&s).unwrap();
    let mut t = PointBodyTracker::new(&scene, 0, Default::default()).unwrap();
    let mut c = HapticCoupler::new(&scene, 0, CouplerConfig::default()).unwrap();
    let still = BodyState::default();
    let path: Vec<Vec3> = (0..2000)
        .map(|k| {
            let a = k as f64 * 0.01;
            Vec3::new(25.0 * a.cos(), 18.0 * a.sin(), 12.0 * (0.3 * a).sin())
        })
        .collect();
    // the first update is a cold start (sizes nothing either, but is not the claim)
    t.update(&scene, &PointState::at(path[0]), &still, 0.0).unwrap();
    c.tick(&scene, path[0], None, &still, 0.0).unwrap();
    let n = allocations_during(|| {
        for q in &path[1..] {
            black_box(t.update(&scene, &PointState::at(*q), &still, 1e-3).unwrap());
            black_box(c.tick(&scene, *q * 0.7, None, &still, 1e-3).unwrap());
        }
    });
    assert_eq!(n, 0, "coherent point-body updates and haptic ticks allocated {n} times");
}

#[test]
fn body_pair_updates_never_allocate_once_the_front_is_sized() {
    use extrack::geom::{Pose, Vec3};
    use extrack::track::{BodyPairTracker, BodyState, TrackScene};
    use nalgebra::UnitQuaternion;
    let load = |name: &str| {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name);
        let m = extrack::import::import_file(&p).unwrap();
        let s = extrack::prepare::prepare(&m, &extrack::prepare::PrepareOptions::default()).unwrap();
        TrackScene::from_data(&s).unwrap()
    };
    let a = load("tiled_convex.step");
    let b = load("ellipsoid.step");
    let mut t = BodyPairTracker::new(&a, 0, &b, 0, Default::default()).unwrap();
    let still = BodyState::default();
    let path: Vec<BodyState> = (0..1000)
        .map(|k| {
            let s = k as f64 / 1000.0 * std::f64::consts::TAU;
            BodyState::at(Pose::from_parts(
                Vec3::new(9.0 * s.cos(), 8.0 * s.sin(), 0.5 * s.sin()),
                UnitQuaternion::from_scaled_axis(Vec3::new(0.2, 0.1, 1.0) * s),
            ))
        })
        .collect();
    // the first lap sizes the far phase's front (its buffers grow to their
    // working size) and makes the per-cell data it meets (cell hulls, kept
    // leaves: made on a cell's first use); a second lap over the same poses
    // makes those of cells first met there (the front, hence the search's
    // path, differs from the first lap's); the third must not allocate
    t.update(&a, &still, &b, &path[0], 0.0).unwrap();
    for st in &path[1..] {
        black_box(t.update(&a, &still, &b, st, 1e-3).unwrap());
    }
    for st in &path {
        black_box(t.update(&a, &still, &b, st, 1e-3).unwrap());
    }
    let n = allocations_during(|| {
        for st in &path {
            black_box(t.update(&a, &still, &b, st, 1e-3).unwrap());
        }
    });
    assert_eq!(n, 0, "coherent body-pair updates allocated {n} times");
}

#[test]
fn non_convex_body_pair_updates_never_allocate_once_the_front_is_sized() {
    use extrack::geom::{Pose, Vec3};
    use extrack::track::{BodyPairTracker, BodyState};
    use nalgebra::UnitQuaternion;
    // the assembly's box with a hole (not convex) and sphere (a convex
    // solid): the far phase runs on every update, with its tied entries
    // (kept out of the front) and B's convexity sampled once
    let s = assembly_scene();
    let mut t = BodyPairTracker::new(&s, 0, &s, 1, Default::default()).unwrap();
    let still = BodyState::default();
    let path: Vec<BodyState> = (0..1000)
        .map(|k| {
            let a = k as f64 / 1000.0 * std::f64::consts::TAU;
            BodyState::at(Pose::from_parts(
                Vec3::new(3.0 * a.cos(), 3.0 * a.sin() - 1.0, 0.5 * a.sin()),
                UnitQuaternion::from_scaled_axis(Vec3::new(0.2, 0.1, 1.0) * a),
            ))
        })
        .collect();
    t.update(&s, &still, &s, &path[0], 0.0).unwrap();
    let (mut solved, mut penetrating) = (0, 0);
    for st in &path[1..] {
        let r = t.update(&s, &still, &s, st, 1e-3).unwrap();
        solved += r.cells_solved;
        penetrating += usize::from(r.penetrating);
    }
    assert!(
        solved > 0 && penetrating == 0,
        "far phase exercised: {solved} solves, {penetrating} penetrating"
    );
    let n = allocations_during(|| {
        for st in &path {
            black_box(t.update(&s, &still, &s, st, 1e-3).unwrap());
        }
    });
    assert_eq!(n, 0, "coherent body-pair updates allocated {n} times");
}

#[test]
fn penetrating_body_pair_updates_never_allocate_once_sized() {
    use extrack::geom::{Pose, Vec3};
    use extrack::track::{BodyPairTracker, BodyState};
    use nalgebra::UnitQuaternion;
    // the assembly's knob pushed down through its plate and back: the
    // penetration probe's seed bounds are sized at the first penetrating
    // update of the first lap; the second lap must not allocate
    let s = assembly_scene();
    let mut t = BodyPairTracker::new(&s, 0, &s, 1, Default::default()).unwrap();
    let still = BodyState::default();
    let path: Vec<BodyState> = (0..400)
        .map(|k| {
            let a = k as f64 / 400.0 * std::f64::consts::TAU;
            BodyState::at(Pose::from_parts(
                Vec3::new(0.3 * a.sin(), 0.2 * a.cos(), -6.0 * (1.0 - a.cos())),
                UnitQuaternion::from_scaled_axis(Vec3::new(0.0, 0.0, 0.3) * a.sin()),
            ))
        })
        .collect();
    t.update(&s, &still, &s, &path[0], 0.0).unwrap();
    let mut penetrating = 0;
    for st in &path[1..] {
        penetrating += usize::from(t.update(&s, &still, &s, st, 1e-3).unwrap().penetrating);
    }
    assert!(
        penetrating > 20,
        "the path penetrates: {penetrating} of {} updates",
        path.len()
    );
    let n = allocations_during(|| {
        for st in &path {
            black_box(t.update(&s, &still, &s, st, 1e-3).unwrap());
        }
    });
    assert_eq!(n, 0, "penetrating body-pair updates allocated {n} times");
}

/// The prepared scene of `fixtures/assembly.step`: a plate with a hole
/// (body 0, not convex) and a knob (body 1, a convex solid).
fn assembly_scene() -> extrack::track::TrackScene {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join("assembly.step");
    let m = extrack::import::import_file(&p).unwrap();
    let s = extrack::prepare::prepare(&m, &extrack::prepare::PrepareOptions::default()).unwrap();
    extrack::track::TrackScene::from_data(&s).unwrap()
}

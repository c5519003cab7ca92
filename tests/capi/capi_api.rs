//! The C ABI called from Rust: batch queries equal the Rust API's, all or
//! nothing on bad input; tracker settings round-trip and are validated;
//! NULL and non-finite inputs give a status and leave outputs untouched;
//! trackers outlive their scene handle.

use extrack::capi::*;
use extrack::capi::{ext_last_error_message, ext_status};
use extrack::capi::{ext_pose, ext_quat, ext_vec3};
use extrack::capi::{ext_scene, ext_scene_free, ext_scene_load_buffer};
use extrack::capi::{ext_scene_closest_point, ext_scene_closest_points, EXT_ALL_BODIES};
use extrack::geom::{Pose, Vec3};
use extrack::track::{closest_point, closest_points, PointBodyTracker, PointState, Target, TrackScene, TrackerConfig};
use std::ptr::{null, null_mut};

struct Fixture {
    bytes: Vec<u8>,
    ts: TrackScene,
}

fn fixture(model: &str) -> Fixture {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let m = extrack::import::import_file(root.join("fixtures").join(model)).unwrap();
    let bytes = extrack::prepare::prepare(&m, &Default::default()).unwrap().write();
    let a = extrack::scene::AlignedBytes::from_slice(&bytes);
    let ts = TrackScene::new(&extrack::scene::SceneView::from_bytes(a.as_bytes()).unwrap()).unwrap();
    Fixture { bytes, ts }
}

fn load(f: &Fixture) -> *mut ext_scene {
    let mut s = null_mut();
    assert_eq!(
        unsafe { ext_scene_load_buffer(f.bytes.as_ptr(), f.bytes.len(), &mut s) },
        ext_status::EXT_OK
    );
    s
}

fn message() -> String {
    let mut buf = vec![0 as std::ffi::c_char; 512];
    unsafe { ext_last_error_message(buf.as_mut_ptr(), buf.len()) };
    unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

fn v(x: f64, y: f64, z: f64) -> ext_vec3 {
    ext_vec3 { x, y, z }
}

fn zeroed_result() -> ext_closest_point {
    // SAFETY: a plain-data struct of numbers and u32 enums; all-zero is valid.
    unsafe { std::mem::zeroed() }
}

/// A query's answer without its work counters (`iterations`, `switches`,
/// `cells_solved`: a batch query's search is pruned by its neighbour's answer,
/// so it does less work for the same answer).
fn answer(mut r: ext_closest_point) -> ext_closest_point {
    r.iterations = 0;
    r.switches = 0;
    r.cells_solved = 0;
    r
}

#[test]
fn batch_queries_equal_single_queries_on_a_corpus_part() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/corpus");
    let file = root.join("step_proe2004_pump_carter.stp");
    if !file.is_file() {
        println!("SKIP: {} not found", file.display());
        return;
    }
    let m = extrack::import::import_file(&file).unwrap();
    let bytes = extrack::prepare::prepare(&m, &Default::default()).unwrap().write();
    let mut scene = null_mut();
    assert_eq!(
        unsafe { ext_scene_load_buffer(bytes.as_ptr(), bytes.len(), &mut scene) },
        ext_status::EXT_OK
    );
    // a 16³ grid over the part's box grown by 20 %, in input order
    let (lo, hi) = (Vec3::repeat(f64::INFINITY), Vec3::repeat(f64::NEG_INFINITY));
    let ts = {
        let a = extrack::scene::AlignedBytes::from_slice(&bytes);
        TrackScene::new(&extrack::scene::SceneView::from_bytes(a.as_bytes()).unwrap()).unwrap()
    };
    let (lo, hi) = ts.bodies.iter().fold((lo, hi), |(l, h), b| {
        let (a, c) = (b.placement.transform_point(&b.lo), b.placement.transform_point(&b.hi));
        (l.inf(&a).inf(&c), h.sup(&a).sup(&c))
    });
    let (c, h) = (0.5 * (lo + hi), 0.6 * (hi - lo));
    let n = 16;
    let cpts: Vec<ext_vec3> = (0..n * n * n)
        .map(|i| {
            let t = |k: usize| -1.0 + 2.0 * (k as f64 + 0.5) / n as f64;
            let p = c + Vec3::new(t(i % n) * h.x, t((i / n) % n) * h.y, t(i / (n * n)) * h.z);
            v(p.x, p.y, p.z)
        })
        .collect();
    for body in [0, EXT_ALL_BODIES] {
        let mut out = vec![zeroed_result(); cpts.len()];
        let st = unsafe { ext_scene_closest_points(scene, body, null(), cpts.as_ptr(), cpts.len(), out.as_mut_ptr()) };
        assert_eq!(st, ext_status::EXT_OK, "{}", message());
        for (i, (o, p)) in out.iter().zip(&cpts).enumerate() {
            let mut one = zeroed_result();
            assert_eq!(
                unsafe { ext_scene_closest_point(scene, body, null(), p, &mut one) },
                ext_status::EXT_OK
            );
            assert_eq!(answer(one), answer(*o), "point {i} of body {body}");
        }
    }
    unsafe { ext_scene_free(scene) };
}

#[test]
fn batch_queries_equal_the_rust_api_and_are_all_or_nothing() {
    let f = fixture("assembly.step");
    let scene = load(&f);
    let pts: Vec<Vec3> = (0..64)
        .map(|i| {
            let t = i as f64 * 0.37;
            Vec3::new(12.0 * t.cos(), 9.0 * (1.3 * t).sin(), 6.0 * (0.7 * t).cos())
        })
        .collect();
    let cpts: Vec<ext_vec3> = pts.iter().map(|p| v(p.x, p.y, p.z)).collect();
    let pose = ext_pose::from(&Pose::from_translation_axis_angle(
        Vec3::new(1.0, -2.0, 0.5),
        Vec3::new(0.0, 0.0, 0.4),
    ));
    let rpose = pose_of(&pose);
    for body in [0, 1, EXT_ALL_BODIES] {
        let mut out = vec![zeroed_result(); pts.len()];
        let st = unsafe { ext_scene_closest_points(scene, body, &pose, cpts.as_ptr(), cpts.len(), out.as_mut_ptr()) };
        assert_eq!(st, ext_status::EXT_OK, "{}", message());
        let target = if body == EXT_ALL_BODIES {
            Target::All { pose: rpose }
        } else {
            Target::Body {
                index: body,
                pose: rpose,
            }
        };
        let want = closest_points(&f.ts, &target, &pts);
        for ((o, w), p) in out.iter().zip(&want).zip(&cpts) {
            let w = w.as_ref().unwrap();
            assert_eq!(o.distance, w.distance);
            assert_eq!(o.signed_distance, w.signed_distance.unwrap());
            assert_eq!(o.has_sign, 1);
            assert_eq!(o.body, w.body);
            assert_eq!((o.point.x, o.point.y, o.point.z), (w.point.x, w.point.y, w.point.z));
            assert_eq!(o.face_id, w.face);
            // the single query agrees
            let mut one = zeroed_result();
            assert_eq!(
                unsafe { ext_scene_closest_point(scene, body, &pose, p, &mut one) },
                ext_status::EXT_OK
            );
            assert_eq!(answer(one), answer(*o));
        }
    }
    // one bad point: nothing written, the message names it
    let mut bad = cpts.clone();
    bad[17].y = f64::NAN;
    let mut out = vec![zeroed_result(); pts.len()];
    let st = unsafe { ext_scene_closest_points(scene, 0, null(), bad.as_ptr(), bad.len(), out.as_mut_ptr()) };
    assert_eq!(st, ext_status::EXT_INVALID_ARGUMENT);
    assert!(message().contains("points[17]"), "{}", message());
    assert!(out.iter().all(|o| *o == zeroed_result()));
    // unknown body, NULL arrays, empty batch
    let st = unsafe { ext_scene_closest_points(scene, 7, null(), cpts.as_ptr(), cpts.len(), out.as_mut_ptr()) };
    assert_eq!(st, ext_status::EXT_NO_SUCH_BODY);
    let st = unsafe { ext_scene_closest_points(scene, 0, null(), null(), 3, out.as_mut_ptr()) };
    assert_eq!(st, ext_status::EXT_NULL_POINTER);
    let st = unsafe { ext_scene_closest_points(scene, 0, null(), null(), 0, out.as_mut_ptr()) };
    assert_eq!(st, ext_status::EXT_OK);
    let st = unsafe { ext_scene_closest_point(null(), 0, null(), &cpts[0], &mut out[0]) };
    assert_eq!(st, ext_status::EXT_NULL_POINTER);
    unsafe { ext_scene_free(scene) };
}

fn pose_of(p: &ext_pose) -> Pose {
    let q = nalgebra::UnitQuaternion::new_normalize(nalgebra::Quaternion::new(
        p.orientation.w,
        p.orientation.x,
        p.orientation.y,
        p.orientation.z,
    ));
    Pose::from_parts(Vec3::new(p.position.x, p.position.y, p.position.z), q)
}

#[test]
fn tracker_settings_round_trip_and_are_validated() {
    let f = fixture("rounded_box.brep.igs");
    let scene = load(&f);
    let mut t: *mut ext_point_tracker = null_mut();
    let mut cfg = unsafe { std::mem::zeroed::<ext_tracker_config>() };
    assert_eq!(unsafe { ext_tracker_config_default(&mut cfg) }, ext_status::EXT_OK);
    assert_eq!(cfg.law, ext_control_law::EXT_LAW_HYBRID as u32);
    assert_eq!(cfg.gain_k, TrackerConfig::default().gain_k);
    assert_eq!(
        unsafe { ext_point_tracker_new(scene, 0, &cfg, &mut t) },
        ext_status::EXT_OK
    );
    // the tracker outlives the scene handle
    unsafe { ext_scene_free(scene) };

    assert_eq!(
        unsafe { ext_point_tracker_set_gains(t, 500.0, 2e-3) },
        ext_status::EXT_OK
    );
    assert_eq!(
        unsafe {
            ext_point_tracker_set_integrator(
                t,
                ext_control_law::EXT_LAW_NEWTON_SATURATED as u32,
                ext_integrator::EXT_INTEGRATOR_RK4 as u32,
            )
        },
        ext_status::EXT_OK
    );
    assert_eq!(
        unsafe { ext_point_tracker_set_tolerance(t, 1e-10, 1e-6, 12) },
        ext_status::EXT_OK
    );
    let mut got = cfg;
    assert_eq!(unsafe { ext_point_tracker_config(t, &mut got) }, ext_status::EXT_OK);
    assert_eq!(
        (got.gain_k, got.h, got.tol, got.step_tol, got.max_iters),
        (500.0, 2e-3, 1e-10, 1e-6, 12)
    );
    assert_eq!(got.law, ext_control_law::EXT_LAW_NEWTON_SATURATED as u32);
    assert_eq!(got.integrator, ext_integrator::EXT_INTEGRATOR_RK4 as u32);

    // invalid settings are rejected and change nothing
    assert_eq!(
        unsafe { ext_point_tracker_set_gains(t, -1.0, 1e-3) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { ext_point_tracker_set_gains(t, f64::NAN, 1e-3) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    assert_eq!(
        unsafe { ext_point_tracker_set_integrator(t, 99, 0) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    assert!(message().contains("unknown control law 99"), "{}", message());
    assert_eq!(
        unsafe { ext_point_tracker_set_tolerance(t, 1e-10, 1e-6, 0) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    let mut bad = cfg;
    bad.integrator = 7;
    assert_eq!(
        unsafe { ext_point_tracker_set_config(t, &bad) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    let mut again = cfg;
    assert_eq!(unsafe { ext_point_tracker_config(t, &mut again) }, ext_status::EXT_OK);
    assert_eq!(again, got);
    assert_eq!(unsafe { ext_point_tracker_set_config(t, &cfg) }, ext_status::EXT_OK);
    assert_eq!(
        unsafe { ext_point_tracker_set_config(t, null()) },
        ext_status::EXT_NULL_POINTER
    );
    unsafe { ext_point_tracker_free(t) };
    unsafe { ext_point_tracker_free(null_mut()) };
}

#[test]
fn tracker_updates_equal_the_rust_tracker_and_reject_bad_input() {
    let f = fixture("rounded_box.brep.igs");
    let scene = load(&f);
    let mut t: *mut ext_point_tracker = null_mut();
    assert_eq!(
        unsafe { ext_point_tracker_new(scene, 0, null(), &mut t) },
        ext_status::EXT_OK
    );
    let mut rust = PointBodyTracker::new(&f.ts, 0, TrackerConfig::default()).unwrap();
    // a moving body: rotation about z, its origin moving along x
    let w = 0.5;
    for k in 0..400 {
        let time = k as f64 * 1e-3;
        let q = Vec3::new(30.0 * (2.0 * time).cos(), 25.0 * (2.0 * time).sin(), 4.0);
        let q_dot = Vec3::new(-60.0 * (2.0 * time).sin(), 50.0 * (2.0 * time).cos(), 0.0);
        let pose = Pose::from_translation_axis_angle(Vec3::new(time, 0.0, 0.0), Vec3::new(0.0, 0.0, w * time));
        let twist = extrack::geom::Twist::about_point(Vec3::new(0.0, 0.0, w), pose.iso.translation.vector, Vec3::x());
        let body = extrack::track::BodyState { pose, twist };
        let dt = if k == 0 { 0.0 } else { 1e-3 };
        let r = rust.update(&f.ts, &PointState { q, q_dot }, &body, dt).unwrap();
        let cpose = ext_pose::from(&pose);
        let ctwist = extrack::capi::ext_twist {
            angular: v(0.0, 0.0, w),
            linear: v(1.0, 0.0, 0.0),
        };
        let mut out = zeroed_result();
        let st = unsafe {
            ext_point_tracker_update(
                t,
                &v(q.x, q.y, q.z),
                &v(q_dot.x, q_dot.y, q_dot.z),
                &cpose,
                &ctwist,
                dt,
                &mut out,
            )
        };
        assert_eq!(st, ext_status::EXT_OK, "{}", message());
        assert!(
            (out.distance - r.distance).abs() < 1e-9,
            "tick {k}: {} vs {}",
            out.distance,
            r.distance
        );
        assert_eq!(out.feature_index, r.feature.codes().1);
        // and the cold-start answer
        let cold = closest_point(&f.ts, &Target::Body { index: 0, pose }, q).unwrap();
        assert!((out.distance - cold.distance).abs() < 1e-6 * (1.0 + cold.distance));
    }
    let sentinel = {
        let mut s = zeroed_result();
        s.distance = 42.0;
        s
    };
    let mut out = sentinel;
    let nan = v(f64::NAN, 0.0, 0.0);
    let inf = v(0.0, f64::INFINITY, 0.0);
    let good = v(30.0, 0.0, 0.0);
    for (point, vel, dt, status) in [
        (&nan as *const _, null(), 1e-3, ext_status::EXT_INVALID_ARGUMENT),
        (&good, &inf as *const _, 1e-3, ext_status::EXT_INVALID_ARGUMENT),
        (&good, null(), -1e-3, ext_status::EXT_INVALID_ARGUMENT),
        (&good, null(), f64::NAN, ext_status::EXT_INVALID_ARGUMENT),
        (null(), null(), 1e-3, ext_status::EXT_NULL_POINTER),
    ] {
        let st = unsafe { ext_point_tracker_update(t, point, vel, null(), null(), dt, &mut out) };
        assert_eq!(st, status, "{}", message());
        assert_eq!(out, sentinel);
    }
    let not_unit = ext_pose {
        position: v(0.0, 0.0, 0.0),
        orientation: ext_quat {
            w: 2.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };
    let st = unsafe { ext_point_tracker_update(t, &good, null(), &not_unit, null(), 1e-3, &mut out) };
    assert_eq!(st, ext_status::EXT_INVALID_ARGUMENT);
    assert!(message().contains("unit quaternion"), "{}", message());
    let mut nan_pos = not_unit;
    nan_pos.orientation.w = 1.0;
    nan_pos.position.z = f64::NAN;
    let st = unsafe { ext_point_tracker_update(t, &good, null(), &nan_pos, null(), 1e-3, &mut out) };
    assert_eq!(st, ext_status::EXT_INVALID_ARGUMENT);
    assert_eq!(out, sentinel);
    // the tracker still works after rejected input, and after a reset
    assert_eq!(unsafe { ext_point_tracker_reset(t) }, ext_status::EXT_OK);
    let st = unsafe { ext_point_tracker_update(t, &good, null(), null(), null(), 1e-3, &mut out) };
    assert_eq!(st, ext_status::EXT_OK);
    assert!(out.distance.is_finite() && out.has_sign == 1);
    assert_eq!(
        unsafe { ext_point_tracker_reset(null_mut()) },
        ext_status::EXT_NULL_POINTER
    );
    let mut t2: *mut ext_point_tracker = null_mut();
    assert_eq!(
        unsafe { ext_point_tracker_new(scene, 9, null(), &mut t2) },
        ext_status::EXT_NO_SUCH_BODY
    );
    assert!(t2.is_null());
    unsafe { ext_point_tracker_free(t) };
    unsafe { ext_scene_free(scene) };
}

#[test]
fn coupler_settings_and_contact() {
    use extrack::capi::*;
    let f = fixture("rounded_box.brep.igs");
    let scene = load(&f);
    let mut cfg = unsafe { std::mem::zeroed::<ext_coupler_config>() };
    assert_eq!(unsafe { ext_coupler_config_default(&mut cfg) }, ext_status::EXT_OK);
    assert!(cfg.max_force.is_infinite() && cfg.stiffness > 0.0);
    let mut bad = cfg;
    bad.stiffness = -1.0;
    let mut c: *mut ext_coupler = null_mut();
    assert_eq!(
        unsafe { ext_coupler_new(scene, 0, &bad, &mut c) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    assert!(c.is_null());
    cfg.stiffness = 2.0;
    cfg.damping = 0.0;
    cfg.max_force = 3.0;
    assert_eq!(unsafe { ext_coupler_new(scene, 0, &cfg, &mut c) }, ext_status::EXT_OK);
    unsafe { ext_scene_free(scene) };
    let top = f.ts.bodies[0].hi.z;
    let mut out = unsafe { std::mem::zeroed::<ext_coupler_output>() };
    // above the top face: no contact, zero force
    assert_eq!(
        unsafe { ext_coupler_tick(c, &v(0.0, 0.0, top + 1.0), null(), null(), null(), 1e-3, &mut out) },
        ext_status::EXT_OK
    );
    assert_eq!((out.contact, out.force), (0, v(0.0, 0.0, 0.0)));
    // 1 mm in: k · depth = 2 N upward
    for k in 1..=10 {
        let z = top + 1.0 - 0.2 * k as f64;
        assert_eq!(
            unsafe { ext_coupler_tick(c, &v(0.0, 0.0, z), null(), null(), null(), 1e-3, &mut out) },
            ext_status::EXT_OK
        );
    }
    assert_eq!(out.contact, 1);
    assert!((out.depth - 1.0).abs() < 1e-9, "{out:?}");
    assert!((out.force.z - 2.0).abs() < 1e-6 && out.normal.z > 0.999, "{out:?}");
    // the force limit holds
    assert_eq!(unsafe { ext_coupler_set_gains(c, 10.0, 0.0) }, ext_status::EXT_OK);
    assert_eq!(
        unsafe { ext_coupler_tick(c, &v(0.0, 0.0, top - 1.0), null(), null(), null(), 1e-3, &mut out) },
        ext_status::EXT_OK
    );
    assert!((out.force.z - 3.0).abs() < 1e-9, "{out:?}");
    assert_eq!(
        unsafe { ext_coupler_set_gains(c, f64::INFINITY, 0.0) },
        ext_status::EXT_INVALID_ARGUMENT
    );
    assert_eq!(unsafe { ext_coupler_reset(c) }, ext_status::EXT_OK);
    assert_eq!(
        unsafe { ext_coupler_tick(null_mut(), &v(0.0, 0.0, 0.0), null(), null(), null(), 1e-3, &mut out) },
        ext_status::EXT_NULL_POINTER
    );
    unsafe { ext_coupler_free(c) };
}

/// A pose quaternion off unit norm by 2e-7 (within the 1e-6 tolerance, beyond
/// the tracker's 1e-9) through `ext_point_tracker_update`: renormalised and
/// the update made once, bit-identical to a Rust tracker fed the quaternion
/// divided by its norm; one off by 4e-10 is used as given.
#[test]
fn tracker_update_renormalises_near_unit_quaternions_once() {
    let f = fixture("rounded_box.brep.igs");
    let scene = load(&f);
    for (scale, renormalise) in [(1.0 + 2e-7, true), (1.0 - 4e-10, false)] {
        let mut t: *mut ext_point_tracker = null_mut();
        assert_eq!(
            unsafe { ext_point_tracker_new(scene, 0, null(), &mut t) },
            ext_status::EXT_OK
        );
        let mut rust = PointBodyTracker::new(&f.ts, 0, TrackerConfig::default()).unwrap();
        for k in 0..200 {
            let time = k as f64 * 1e-3;
            let q = Vec3::new(30.0 * (2.0 * time).cos(), 25.0 * (2.0 * time).sin(), 4.0);
            let pose = Pose::from_translation_axis_angle(Vec3::new(time, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.5 * time));
            let mut cp = ext_pose::from(&pose);
            let o = &mut cp.orientation;
            (o.w, o.x, o.y, o.z) = (o.w * scale, o.x * scale, o.y * scale, o.z * scale);
            let n = if renormalise {
                (o.w * o.w + o.x * o.x + o.y * o.y + o.z * o.z).sqrt()
            } else {
                1.0
            };
            let seen = Pose::from_parts(
                pose.iso.translation.vector,
                nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(o.w / n, o.x / n, o.y / n, o.z / n)),
            );
            let dt = if k == 0 { 0.0 } else { 1e-3 };
            let r = rust
                .update(&f.ts, &PointState::at(q), &extrack::track::BodyState::at(seen), dt)
                .unwrap();
            let mut out = zeroed_result();
            let st = unsafe { ext_point_tracker_update(t, &v(q.x, q.y, q.z), null(), &cp, null(), dt, &mut out) };
            assert_eq!(st, ext_status::EXT_OK, "{}", message());
            assert_eq!(out.distance, r.distance, "scale {scale}, tick {k}");
            assert_eq!(out.point, ext_vec3::from(r.point), "scale {scale}, tick {k}");
            assert_eq!(
                (out.feature_index, out.iterations, out.switches),
                (r.feature.codes().1, r.iterations, r.switches),
                "scale {scale}, tick {k}"
            );
        }
        unsafe { ext_point_tracker_free(t) };
    }
    unsafe { ext_scene_free(scene) };
}

#[test]
fn packed_scenes_load_from_buffers_and_files_and_answer_the_same() {
    use extrack::capi::ext_scene_load_file;
    let f = fixture("assembly.step");
    let packed = extrack::scene::packed::pack(&f.bytes, extrack::scene::packed::DEFAULT_LEVEL).unwrap();
    assert!(packed.len() < f.bytes.len());
    let plain = load(&f);
    let mut from_buffer = null_mut();
    assert_eq!(
        unsafe { ext_scene_load_buffer(packed.as_ptr(), packed.len(), &mut from_buffer) },
        ext_status::EXT_OK
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("assembly.exs");
    std::fs::write(&path, &packed).unwrap();
    let cpath = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    let mut from_file = null_mut();
    assert_eq!(
        unsafe { ext_scene_load_file(cpath.as_ptr(), &mut from_file) },
        ext_status::EXT_OK
    );
    for i in 0..16 {
        let t = i as f64 * 0.61;
        let q = v(10.0 * t.cos(), 8.0 * t.sin(), 5.0 * (0.5 * t).cos());
        let mut a = zeroed_result();
        let mut b = zeroed_result();
        let mut c = zeroed_result();
        for (s, o) in [(plain, &mut a), (from_buffer, &mut b), (from_file, &mut c)] {
            assert_eq!(
                unsafe { ext_scene_closest_point(s, 0, null(), &q, o) },
                ext_status::EXT_OK
            );
        }
        assert_eq!(a, b);
        assert_eq!(a, c);
    }
    // a corrupted packed buffer is a status and a message, not a crash
    let mut bad = packed.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x40;
    let mut s = null_mut();
    assert_eq!(
        unsafe { ext_scene_load_buffer(bad.as_ptr(), bad.len(), &mut s) },
        ext_status::EXT_INVALID_SCENE
    );
    assert!(
        message().contains("packed scene: payload checksum mismatch"),
        "{}",
        message()
    );
    assert!(s.is_null());
    for s in [plain, from_buffer, from_file] {
        unsafe { ext_scene_free(s) };
    }
}

#[test]
fn answers_carry_the_self_check_flags() {
    let mut data = crate::checks::prepared("rounded_box.step");
    let pts = crate::checks::probe_points(&data);
    let cpts: Vec<ext_vec3> = pts.iter().map(|p| v(p.x, p.y, p.z)).collect();
    // a scene without a self-check: flags 0 (status unknown)
    let plain = Fixture {
        bytes: data.write(),
        ts: TrackScene::from_data(&data).unwrap(),
    };
    let scene = load(&plain);
    let mut out = vec![zeroed_result(); pts.len()];
    let st = unsafe {
        ext_scene_closest_points(
            scene,
            EXT_ALL_BODIES,
            null(),
            cpts.as_ptr(),
            cpts.len(),
            out.as_mut_ptr(),
        )
    };
    assert_eq!(st, ext_status::EXT_OK, "{}", message());
    assert!(out.iter().all(|o| o.flags == 0));
    unsafe { ext_scene_free(scene) };
    // mark the face of the first piece answer failed
    let failed = out
        .iter()
        .find(|o| o.feature_kind == ext_feature_kind::EXT_FEATURE_PIECE)
        .unwrap()
        .face_id;
    crate::checks::mark_failed(&mut data, failed);
    let checked = Fixture {
        bytes: data.write(),
        ts: TrackScene::from_data(&data).unwrap(),
    };
    let scene = load(&checked);
    let st = unsafe {
        ext_scene_closest_points(
            scene,
            EXT_ALL_BODIES,
            null(),
            cpts.as_ptr(),
            cpts.len(),
            out.as_mut_ptr(),
        )
    };
    assert_eq!(st, ext_status::EXT_OK, "{}", message());
    let want = closest_points(&checked.ts, &Target::All { pose: Pose::identity() }, &pts);
    let (mut unverified, mut verified) = (0, 0);
    for (o, w) in out.iter().zip(&want) {
        let w = w.as_ref().unwrap();
        assert_eq!(o.flags, w.status.bits());
        assert_ne!(o.flags & EXT_ANSWER_CHECKED, 0);
        if o.feature_kind == ext_feature_kind::EXT_FEATURE_PIECE {
            if o.face_id == failed {
                assert_eq!(o.flags, EXT_ANSWER_CHECKED | EXT_ANSWER_UNVERIFIED);
                unverified += 1;
            } else {
                assert_eq!(o.flags, EXT_ANSWER_CHECKED);
                verified += 1;
            }
        }
    }
    assert!(unverified >= 1 && verified >= 1, "{unverified} {verified}");
    assert_eq!(EXT_ANSWER_SHELL_INCOMPLETE, 4);
    unsafe { ext_scene_free(scene) };
}

/// Settings no solve can meet (tolerances of 1e-300, one iteration per
/// tracker update): the updates' solves stop at their caps, and their
/// answers say so (`EXT_ANSWER_UNCONVERGED`, the Rust tracker's
/// `AnswerStatus::UNCONVERGED`); with the default settings no answer
/// carries the flag. The flags equal the Rust tracker's. (A solve that
/// lands on an exactly zero gradient — a Newton step onto a plane — has
/// converged at any tolerance: an answer without the flag is the exact one.)
#[test]
fn answers_of_capped_solves_carry_the_unconverged_flag() {
    assert_eq!(EXT_ANSWER_UNCONVERGED, 8);
    let f = fixture("rounded_box.brep.igs");
    let scene = load(&f);
    let capped = TrackerConfig {
        tol: 1e-300,
        step_tol: 1e-300,
        max_iters: 1,
        ..TrackerConfig::default()
    };
    for (cfg, unconverged) in [(TrackerConfig::default(), false), (capped, true)] {
        let mut t: *mut ext_point_tracker = null_mut();
        assert_eq!(
            unsafe { ext_point_tracker_new(scene, 0, null(), &mut t) },
            ext_status::EXT_OK
        );
        assert_eq!(
            unsafe { ext_point_tracker_set_tolerance(t, cfg.tol, cfg.step_tol, cfg.max_iters) },
            ext_status::EXT_OK,
            "{}",
            message()
        );
        let mut rust = PointBodyTracker::new(&f.ts, 0, cfg).unwrap();
        let mut flagged = 0;
        for k in 0..40 {
            let time = k as f64 * 1e-2;
            let q = Vec3::new(30.0 * (2.0 * time).cos(), 25.0 * (2.0 * time).sin(), 4.0);
            let dt = if k == 0 { 0.0 } else { 1e-2 };
            let r = rust
                .update(&f.ts, &PointState::at(q), &extrack::track::BodyState::default(), dt)
                .unwrap();
            let mut out = zeroed_result();
            let st = unsafe { ext_point_tracker_update(t, &v(q.x, q.y, q.z), null(), null(), null(), dt, &mut out) };
            assert_eq!(st, ext_status::EXT_OK, "{}", message());
            assert_eq!(out.flags, r.status.bits(), "tick {k}");
            let flag = out.flags & EXT_ANSWER_UNCONVERGED != 0;
            flagged += usize::from(flag);
            assert!(unconverged || !flag, "tick {k}: flags {}", out.flags);
            // an unconverged answer is still a point of the body, never nearer than the body
            let cold = closest_point(
                &f.ts,
                &Target::Body {
                    index: 0,
                    pose: Pose::identity(),
                },
                q,
            )
            .unwrap();
            assert_eq!(cold.status.bits() & EXT_ANSWER_UNCONVERGED, 0);
            assert!(
                out.distance >= cold.distance - 1e-9,
                "tick {k}: {} < {}",
                out.distance,
                cold.distance
            );
            if !flag {
                assert!(
                    (out.distance - cold.distance).abs() <= 1e-9,
                    "tick {k}: {} {}",
                    out.distance,
                    cold.distance
                );
            }
        }
        if unconverged {
            assert!(flagged >= 20, "{flagged} of 40");
        }
        unsafe { ext_point_tracker_free(t) };
    }
    unsafe { ext_scene_free(scene) };
}

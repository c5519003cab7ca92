//! The body–body functions of the C ABI called from Rust: the pair tracker
//! and the cold query equal the Rust API's answers (matrix and quaternion
//! poses alike); NULL, NaN, non-rigid poses, unknown bodies and bad settings
//! give a status and leave outputs untouched; trackers outlive their scene
//! handles.

use extrack::capi::*;
use extrack::capi::{ext_feature_kind, ext_tracker_config, ext_tracker_config_default};
use extrack::capi::{ext_last_error_message, ext_status};
use extrack::capi::{ext_pose, ext_pose_to_matrix, ext_quat, ext_twist, ext_vec3};
use extrack::capi::{ext_scene, ext_scene_free, ext_scene_load_buffer};
use extrack::geom::{Pose, Twist, Vec3};
use extrack::scene::data::FeatureRef;
use extrack::track::{body_distance, BodyPairResult, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
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

fn sentinel() -> ext_pair_result {
    // SAFETY: a plain-data struct of numbers and u32 enums; all-zero is valid.
    let mut s: ext_pair_result = unsafe { std::mem::zeroed() };
    s.distance = 42.0;
    s
}

/// The C result equals the Rust result field by field.
fn assert_same(c: &ext_pair_result, r: &BodyPairResult, what: &str) {
    let kind = |f: FeatureRef| match f {
        FeatureRef::Piece(i) => (ext_feature_kind::EXT_FEATURE_PIECE, i),
        FeatureRef::Edge(i) => (ext_feature_kind::EXT_FEATURE_EDGE, i),
        FeatureRef::Vertex(i) => (ext_feature_kind::EXT_FEATURE_VERTEX, i),
    };
    assert_eq!(c.distance, r.distance, "{what}");
    assert_eq!(c.signed_distance, r.signed_distance, "{what}");
    assert_eq!(c.penetrating, r.penetrating as u32, "{what}");
    assert_eq!(c.point_a, ext_vec3::from(r.point_a), "{what}");
    assert_eq!(c.point_b, ext_vec3::from(r.point_b), "{what}");
    assert_eq!(c.normal, ext_vec3::from(r.normal), "{what}");
    assert_eq!((c.feature_kind_a, c.feature_index_a), kind(r.feature_a), "{what}");
    assert_eq!((c.feature_kind_b, c.feature_index_b), kind(r.feature_b), "{what}");
    assert_eq!((c.face_id_a, c.face_id_b), (r.face_a, r.face_b), "{what}");
    assert_eq!((c.piece_a, c.piece_b), (r.piece_a, r.piece_b), "{what}");
    assert_eq!((c.params_a, c.params_b), (r.params_a, r.params_b), "{what}");
    assert_eq!(
        (c.iterations, c.switches, c.cells_solved),
        (r.iterations, r.switches, r.cells_solved),
        "{what}"
    );
}

/// B's pose (relative to its placement) and world twist at time `t`: it
/// slides over A and turns about the vertical through its box centre.
fn motion(t: f64, centre: Vec3) -> (Pose, Twist) {
    let th = 0.2 * (3.0 * t).sin();
    let dth = 0.6 * (3.0 * t).cos();
    let s = Vec3::new(3.0 * (4.0 * t).sin(), 1.5 * t, 0.5 + 0.5 * (5.0 * t).sin());
    let ds = Vec3::new(12.0 * (4.0 * t).cos(), 1.5, 2.5 * (5.0 * t).cos());
    let rot = nalgebra::UnitQuaternion::from_scaled_axis(Vec3::new(0.0, 0.0, th));
    let pose = Pose::from_parts(centre + s - rot * centre, rot);
    let omega = Vec3::new(0.0, 0.0, dth);
    // the point at `centre + s` moves with `ds`
    (pose, Twist::about_point(omega, centre + s, ds))
}

fn matrix(p: &Pose) -> [f64; 16] {
    let mut m = [0.0; 16];
    assert_eq!(
        unsafe { ext_pose_to_matrix(&ext_pose::from(p), 0, m.as_mut_ptr()) },
        ext_status::EXT_OK
    );
    m
}

/// The C twist of a Rust twist: `linear` is the velocity of the pose origin.
fn c_twist(t: &Twist, p: &Pose) -> ext_twist {
    ext_twist {
        angular: t.omega.into(),
        linear: t.velocity_at(&p.iso.translation.vector).into(),
    }
}

#[test]
fn pair_tracker_and_cold_query_equal_the_rust_api() {
    let f = fixture("assembly.step");
    let scene = load(&f);
    let b = &f.ts.bodies[1];
    let centre = b.placement.transform_point(&((b.lo + b.hi) * 0.5));
    let mut tm: *mut ext_pair_tracker = null_mut();
    let mut tq: *mut ext_pair_tracker = null_mut();
    assert_eq!(
        unsafe { ext_pair_tracker_new(scene, 0, scene, 1, null(), &mut tm) },
        ext_status::EXT_OK,
        "{}",
        message()
    );
    let mut cfg = unsafe { std::mem::zeroed::<ext_tracker_config>() };
    assert_eq!(unsafe { ext_tracker_config_default(&mut cfg) }, ext_status::EXT_OK);
    assert_eq!(
        unsafe { ext_pair_tracker_new(scene, 0, scene, 1, &cfg, &mut tq) },
        ext_status::EXT_OK
    );
    // the trackers keep the scene data alive
    unsafe { ext_scene_free(scene) };
    let mut rust = BodyPairTracker::new(&f.ts, 0, &f.ts, 1, TrackerConfig::default()).unwrap();
    let mut rust_q = BodyPairTracker::new(&f.ts, 0, &f.ts, 1, TrackerConfig::default()).unwrap();
    for k in 0..300 {
        let t = k as f64 * 1e-3;
        let dt = if k == 0 { 0.0 } else { 1e-3 };
        let (pose, twist) = motion(t, centre);
        // matrix variant against a Rust tracker fed the same (matrix-converted) pose
        let m = matrix(&pose);
        let ct = c_twist(&twist, &pose);
        let mut out = sentinel();
        let st = unsafe { ext_pair_tracker_update(tm, null(), m.as_ptr(), null(), &ct, dt, &mut out) };
        assert_eq!(st, ext_status::EXT_OK, "{}", message());
        let mut cp = ext_pose::from(&pose);
        assert_eq!(
            unsafe { extrack::capi::ext_pose_from_matrix(m.as_ptr(), 0, &mut cp) },
            ext_status::EXT_OK
        );
        let pose_m = Pose::from_parts(
            cp.position.into_vec(),
            nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(
                cp.orientation.w,
                cp.orientation.x,
                cp.orientation.y,
                cp.orientation.z,
            )),
        );
        let tw_m = Twist::about_point(twist.omega, pose_m.iso.translation.vector, ct.linear.into_vec());
        let r = rust
            .update(
                &f.ts,
                &BodyState::default(),
                &f.ts,
                &BodyState {
                    pose: pose_m,
                    twist: tw_m,
                },
                dt,
            )
            .unwrap();
        assert!(
            (out.distance - r.distance).abs() <= 1e-12,
            "tick {k}: {} vs {}",
            out.distance,
            r.distance
        );
        assert_eq!(out.feature_index_a, r.feature_a.codes().1, "tick {k}");
        // quaternion variant: bit-identical to the Rust tracker
        let cp = ext_pose::from(&pose);
        let mut outq = sentinel();
        let st = unsafe { ext_pair_tracker_update_pose(tq, null(), &cp, null(), &ct, dt, &mut outq) };
        assert_eq!(st, ext_status::EXT_OK, "{}", message());
        let pose_q = Pose::from_parts(pose.iso.translation.vector, pose.iso.rotation);
        let tw_q = Twist::about_point(twist.omega, pose_q.iso.translation.vector, ct.linear.into_vec());
        let rq = rust_q
            .update(
                &f.ts,
                &BodyState::default(),
                &f.ts,
                &BodyState {
                    pose: pose_q,
                    twist: tw_q,
                },
                dt,
            )
            .unwrap();
        assert_same(&outq, &rq, &format!("tick {k}"));
        // apart, so the tracked answer is the global minimum: the cold query agrees
        if k % 50 == 0 {
            let want = body_distance(&f.ts, 0, &Pose::identity(), &f.ts, 1, &pose).unwrap();
            assert!(!want.penetrating);
            assert!((out.distance - want.distance).abs() <= 1e-6, "tick {k}");
            let scene = load(&f);
            let mut cold = sentinel();
            let st = unsafe { ext_pair_distance(scene, 0, null(), scene, 1, &cp, &mut cold) };
            assert_eq!(st, ext_status::EXT_OK, "{}", message());
            assert_same(&cold, &want, &format!("cold {k}"));
            unsafe { ext_scene_free(scene) };
        }
    }
    // reset: the next update is a cold start, equal to the cold query
    assert_eq!(unsafe { ext_pair_tracker_reset(tq) }, ext_status::EXT_OK);
    let pose = Pose::from_translation_axis_angle(Vec3::new(1.0, -2.0, 3.0), Vec3::new(0.0, 0.0, 0.3));
    let mut out = sentinel();
    let cp = ext_pose::from(&pose);
    assert_eq!(
        unsafe { ext_pair_tracker_update_pose(tq, null(), &cp, null(), null(), 0.0, &mut out) },
        ext_status::EXT_OK
    );
    let pose_q = Pose::from_parts(pose.iso.translation.vector, pose.iso.rotation);
    assert_same(
        &out,
        &body_distance(&f.ts, 0, &Pose::identity(), &f.ts, 1, &pose_q).unwrap(),
        "after reset",
    );
    unsafe { ext_pair_tracker_free(tm) };
    unsafe { ext_pair_tracker_free(tq) };
    unsafe { ext_pair_tracker_free(null_mut()) };
}

/// Small helper on the C vector (the crate's conversion is crate-private).
trait IntoVec {
    fn into_vec(self) -> Vec3;
}
impl IntoVec for ext_vec3 {
    fn into_vec(self) -> Vec3 {
        Vec3::new(self.x, self.y, self.z)
    }
}

#[test]
fn assembly_blocks_are_2_5_apart_and_two_scenes_work() {
    let f = fixture("assembly.step");
    let g = fixture("rounded_box.step");
    let (sa, sg) = (load(&f), load(&g));
    let mut out = sentinel();
    assert_eq!(
        unsafe { ext_pair_distance(sa, 0, null(), sa, 1, null(), &mut out) },
        ext_status::EXT_OK
    );
    assert!((out.distance - 2.5).abs() <= 1e-6, "{out:?}");
    assert_eq!(out.penetrating, 0);
    // a body of another scene, moved far away along x
    let far = ext_pose {
        position: v(500.0, 0.0, 0.0),
        orientation: ext_quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };
    assert_eq!(
        unsafe { ext_pair_distance(sa, 0, null(), sg, 0, &far, &mut out) },
        ext_status::EXT_OK
    );
    let want = body_distance(
        &f.ts,
        0,
        &Pose::identity(),
        &g.ts,
        0,
        &Pose::from_parts(Vec3::new(500.0, 0.0, 0.0), nalgebra::UnitQuaternion::identity()),
    )
    .unwrap();
    assert_same(&out, &want, "two scenes");
    assert!(out.distance > 300.0);
    let mut t: *mut ext_pair_tracker = null_mut();
    assert_eq!(
        unsafe { ext_pair_tracker_new(sa, 1, sg, 0, null(), &mut t) },
        ext_status::EXT_OK
    );
    unsafe { ext_scene_free(sa) };
    unsafe { ext_scene_free(sg) };
    assert_eq!(
        unsafe { ext_pair_tracker_update_pose(t, null(), &far, null(), null(), 0.0, &mut out) },
        ext_status::EXT_OK
    );
    let want = body_distance(
        &f.ts,
        1,
        &Pose::identity(),
        &g.ts,
        0,
        &Pose::from_parts(Vec3::new(500.0, 0.0, 0.0), nalgebra::UnitQuaternion::identity()),
    )
    .unwrap();
    assert_same(&out, &want, "tracker over two scenes");
    unsafe { ext_pair_tracker_free(t) };
}

#[test]
fn bad_input_gives_a_status_and_writes_nothing() {
    let f = fixture("assembly.step");
    let scene = load(&f);
    let mut t: *mut ext_pair_tracker = null_mut();
    assert_eq!(
        unsafe { ext_pair_tracker_new(scene, 0, scene, 1, null(), &mut t) },
        ext_status::EXT_OK
    );
    let id: [f64; 16] = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let mut scaled = id;
    scaled[5] = 2.0;
    let mut sheared = id;
    sheared[1] = 0.3;
    let mut mirror = id;
    mirror[0] = -1.0;
    let mut nan_m = id;
    nan_m[7] = f64::NAN;
    let mut bad_row = id;
    bad_row[12] = 1.0;
    let nan_twist = ext_twist {
        angular: v(0.0, f64::NAN, 0.0),
        linear: v(0.0, 0.0, 0.0),
    };
    let inf_twist = ext_twist {
        angular: v(0.0, 0.0, 0.0),
        linear: v(f64::INFINITY, 0.0, 0.0),
    };
    let mut out = sentinel();
    let invalid = ext_status::EXT_INVALID_ARGUMENT;
    for (pa, pb, ta, tb, dt, status, needle) in [
        (
            null(),
            scaled.as_ptr(),
            null(),
            null(),
            1e-3,
            invalid,
            "`pose_b` rotation block is not a rotation",
        ),
        (
            sheared.as_ptr(),
            null(),
            null(),
            null(),
            1e-3,
            invalid,
            "`pose_a` rotation block",
        ),
        (null(), mirror.as_ptr(), null(), null(), 1e-3, invalid, "det"),
        (
            nan_m.as_ptr(),
            null(),
            null(),
            null(),
            1e-3,
            invalid,
            "`pose_a` has a non-finite entry",
        ),
        (null(), bad_row.as_ptr(), null(), null(), 1e-3, invalid, "last row"),
        (null(), null(), &nan_twist as *const _, null(), 1e-3, invalid, "twist"),
        (null(), null(), null(), &inf_twist as *const _, 1e-3, invalid, "twist"),
        (null(), null(), null(), null(), -1e-3, invalid, "dt"),
        (null(), null(), null(), null(), f64::NAN, invalid, "dt"),
        (null(), null(), null(), null(), f64::INFINITY, invalid, "dt"),
    ] {
        let st = unsafe { ext_pair_tracker_update(t, pa, pb, ta, tb, dt, &mut out) };
        assert_eq!(st, status, "{needle}: {}", message());
        assert!(message().contains(needle), "{needle}: {}", message());
        assert_eq!(out, sentinel());
    }
    // position + quaternion: a non-unit quaternion, a NaN position
    let mut not_unit = ext_pose::from(&Pose::identity());
    not_unit.orientation.w = 2.0;
    let st = unsafe { ext_pair_tracker_update_pose(t, null(), &not_unit, null(), null(), 1e-3, &mut out) };
    assert_eq!(st, invalid);
    assert!(
        message().contains("`pose_b` orientation is not a unit quaternion"),
        "{}",
        message()
    );
    let mut nan_pos = ext_pose::from(&Pose::identity());
    nan_pos.position.x = f64::NAN;
    let st = unsafe { ext_pair_tracker_update_pose(t, &nan_pos, null(), null(), null(), 1e-3, &mut out) };
    assert_eq!(st, invalid, "{}", message());
    assert_eq!(out, sentinel());
    // NULL handles and outputs
    let st = unsafe { ext_pair_tracker_update(t, null(), null(), null(), null(), 1e-3, null_mut()) };
    assert_eq!(st, ext_status::EXT_NULL_POINTER);
    assert!(message().contains("`out`"), "{}", message());
    let st = unsafe { ext_pair_tracker_update(null_mut(), null(), null(), null(), null(), 1e-3, &mut out) };
    assert_eq!(st, ext_status::EXT_NULL_POINTER);
    let st = unsafe { ext_pair_tracker_update_pose(null_mut(), null(), null(), null(), null(), 1e-3, &mut out) };
    assert_eq!(st, ext_status::EXT_NULL_POINTER);
    assert_eq!(
        unsafe { ext_pair_tracker_reset(null_mut()) },
        ext_status::EXT_NULL_POINTER
    );
    assert_eq!(out, sentinel());
    // unknown bodies and NULL scenes
    let mut t2: *mut ext_pair_tracker = null_mut();
    for (a, b) in [(5, 1), (0, 5)] {
        let st = unsafe { ext_pair_tracker_new(scene, a, scene, b, null(), &mut t2) };
        assert_eq!(st, ext_status::EXT_NO_SUCH_BODY);
        assert!(message().contains("unknown body 5"), "{}", message());
        assert!(t2.is_null());
        let st = unsafe { ext_pair_distance(scene, a, null(), scene, b, null(), &mut out) };
        assert_eq!(st, ext_status::EXT_NO_SUCH_BODY);
    }
    assert_eq!(
        unsafe { ext_pair_tracker_new(null(), 0, scene, 1, null(), &mut t2) },
        ext_status::EXT_NULL_POINTER
    );
    assert_eq!(
        unsafe { ext_pair_tracker_new(scene, 0, scene, 1, null(), null_mut()) },
        ext_status::EXT_NULL_POINTER
    );
    assert_eq!(
        unsafe { ext_pair_distance(scene, 0, null(), null(), 1, null(), &mut out) },
        ext_status::EXT_NULL_POINTER
    );
    assert_eq!(
        unsafe { ext_pair_distance(scene, 0, null(), scene, 1, null(), null_mut()) },
        ext_status::EXT_NULL_POINTER
    );
    let st = unsafe { ext_pair_distance(scene, 0, &not_unit, scene, 1, null(), &mut out) };
    assert_eq!(st, invalid);
    assert!(message().contains("`pose_a`"), "{}", message());
    let st = unsafe { ext_pair_distance(scene, 0, null(), scene, 1, &nan_pos, &mut out) };
    assert_eq!(st, invalid);
    assert!(message().contains("`pose_b`"), "{}", message());
    assert_eq!(out, sentinel());
    // settings: validated, round-trip, NULL rejected
    let mut cfg = unsafe { std::mem::zeroed::<ext_tracker_config>() };
    assert_eq!(unsafe { ext_tracker_config_default(&mut cfg) }, ext_status::EXT_OK);
    let mut bad = cfg;
    bad.gain_k = f64::NAN;
    assert_eq!(unsafe { ext_pair_tracker_set_config(t, &bad) }, invalid);
    assert_eq!(
        unsafe { ext_pair_tracker_new(scene, 0, scene, 1, &bad, &mut t2) },
        invalid
    );
    assert!(t2.is_null());
    bad = cfg;
    bad.law = 42;
    assert_eq!(unsafe { ext_pair_tracker_set_config(t, &bad) }, invalid);
    assert_eq!(
        unsafe { ext_pair_tracker_set_config(t, null()) },
        ext_status::EXT_NULL_POINTER
    );
    let mut changed = cfg;
    changed.gain_k = 400.0;
    changed.max_iters = 7;
    assert_eq!(unsafe { ext_pair_tracker_set_config(t, &changed) }, ext_status::EXT_OK);
    let mut got = cfg;
    assert_eq!(unsafe { ext_pair_tracker_config(t, &mut got) }, ext_status::EXT_OK);
    assert_eq!(got, changed);
    assert_eq!(
        unsafe { ext_pair_tracker_config(t, null_mut()) },
        ext_status::EXT_NULL_POINTER
    );
    // the tracker still works after all that
    let st = unsafe { ext_pair_tracker_update(t, null(), id.as_ptr(), null(), null(), 0.0, &mut out) };
    assert_eq!(st, ext_status::EXT_OK, "{}", message());
    assert!((out.distance - 2.5).abs() <= 1e-6, "{out:?}");
    unsafe { ext_pair_tracker_free(t) };
    unsafe { ext_scene_free(scene) };
}

#[test]
fn identical_and_penetrating_poses_never_give_nan() {
    let f = fixture("assembly.step");
    let scene = load(&f);
    let mut out = sentinel();
    // a body against itself at the same pose, and the blocks pushed into each other
    let down = ext_pose {
        position: v(0.0, 0.0, -3.5),
        orientation: ext_quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };
    for (a, b, pose_b) in [(0, 0, null()), (1, 1, null()), (0, 1, &down as *const _)] {
        let st = unsafe { ext_pair_distance(scene, a, null(), scene, b, pose_b, &mut out) };
        assert_eq!(st, ext_status::EXT_OK, "{}", message());
        assert!(
            out.distance.is_finite() && out.signed_distance.is_finite(),
            "{a} {b}: {out:?}"
        );
        assert!(out.normal.x.is_finite() && out.point_a.x.is_finite() && out.point_b.z.is_finite());
    }
    assert_eq!(out.penetrating, 1, "1 mm overlap: {out:?}");
    unsafe { ext_scene_free(scene) };
}

/// Quaternions near unit norm through `ext_pair_tracker_update_pose`: off by
/// more than 1e-9 (but within 1e-6) they are renormalised and the update is
/// made once with them (the tracker rejected the raw state untouched); off by
/// less they are used as given; beyond 1e-6 they are rejected. Each C tracker
/// equals, bit for bit, a Rust tracker fed the states the C side documents.
#[test]
fn near_unit_quaternions_are_renormalised_once() {
    let f = fixture("assembly.step");
    let scene = load(&f);
    let b = &f.ts.bodies[1];
    let centre = b.placement.transform_point(&((b.lo + b.hi) * 0.5));
    let new = || {
        let mut t: *mut ext_pair_tracker = null_mut();
        assert_eq!(
            unsafe { ext_pair_tracker_new(scene, 0, scene, 1, null(), &mut t) },
            ext_status::EXT_OK
        );
        t
    };
    let (renorm, raw) = (new(), new());
    let mut rust_renorm = BodyPairTracker::new(&f.ts, 0, &f.ts, 1, TrackerConfig::default()).unwrap();
    let mut rust_raw = BodyPairTracker::new(&f.ts, 0, &f.ts, 1, TrackerConfig::default()).unwrap();
    let scaled = |p: &ext_pose, s: f64| {
        let mut p = *p;
        let q = &mut p.orientation;
        (q.w, q.x, q.y, q.z) = (q.w * s, q.x * s, q.y * s, q.z * s);
        p
    };
    // the Rust state of a C pose and twist, its quaternion divided by its
    // norm (`renormalise`) or taken as given
    let state = |p: &ext_pose, tw: Option<&ext_twist>, renormalise: bool| {
        let q = &p.orientation;
        let n = if renormalise {
            (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).sqrt()
        } else {
            1.0
        };
        let pose = Pose::from_parts(
            p.position.into_vec(),
            nalgebra::UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(q.w / n, q.x / n, q.y / n, q.z / n)),
        );
        let twist = tw.map_or(Twist::zero(), |t| {
            Twist::about_point(t.angular.into_vec(), p.position.into_vec(), t.linear.into_vec())
        });
        BodyState { pose, twist }
    };
    for k in 0..120 {
        let t = k as f64 * 1e-3;
        let dt = if k == 0 { 0.0 } else { 1e-3 };
        let (pose, twist) = motion(t, centre);
        let cp = ext_pose::from(&pose);
        let ct = c_twist(&twist, &pose);
        // both poses off unit norm by 2e-7 and 3e-7: renormalised
        let (pa, pb) = (
            scaled(&ext_pose::from(&Pose::identity()), 1.0 - 3e-7),
            scaled(&cp, 1.0 + 2e-7),
        );
        let mut out = sentinel();
        let st = unsafe { ext_pair_tracker_update_pose(renorm, &pa, &pb, null(), &ct, dt, &mut out) };
        assert_eq!(st, ext_status::EXT_OK, "tick {k}: {}", message());
        let r = rust_renorm
            .update(&f.ts, &state(&pa, None, true), &f.ts, &state(&pb, Some(&ct), true), dt)
            .unwrap();
        assert_same(&out, &r, &format!("renormalised, tick {k}"));
        // off by 4e-10: used as given
        let pb = scaled(&cp, 1.0 + 4e-10);
        let mut out = sentinel();
        let st = unsafe { ext_pair_tracker_update_pose(raw, null(), &pb, null(), &ct, dt, &mut out) };
        assert_eq!(st, ext_status::EXT_OK, "tick {k}: {}", message());
        let r = rust_raw
            .update(&f.ts, &BodyState::default(), &f.ts, &state(&pb, Some(&ct), false), dt)
            .unwrap();
        assert_same(&out, &r, &format!("as given, tick {k}"));
    }
    // beyond the tolerance: rejected, nothing written
    let mut out = sentinel();
    let cp = ext_pose::from(&motion(0.12, centre).0);
    let st = unsafe {
        ext_pair_tracker_update_pose(renorm, null(), &scaled(&cp, 1.0 + 1e-5), null(), null(), 1e-3, &mut out)
    };
    assert_eq!(st, ext_status::EXT_INVALID_ARGUMENT);
    assert!(
        message().contains("`pose_b` orientation is not a unit quaternion"),
        "{}",
        message()
    );
    assert_eq!(out, sentinel());
    for t in [renorm, raw] {
        unsafe { ext_pair_tracker_free(t) };
    }
    unsafe { ext_scene_free(scene) };
}

//! Runs N point-tracker updates over the rounded box fixture through the Rust
//! API or through the C ABI, for counting the instructions the boundary adds
//! (load-independent, unlike timings on a shared machine):
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/capi_tick rust 20000
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/capi_tick c 20000
//! ```
//! The difference of the two totals divided by N is the cost of one call
//! through the ABI (both runs make the same cold start and setup).
//!
//! `pair-rust` / `pair-c` do the same for body-pair updates: two NURBS
//! ellipsoids, B on the built-in orbit (`scenarios::body_orbit`, one lap of
//! 2,000 steps), through `BodyPairTracker::update` or
//! `ext_pair_tracker_update_pose`.
use extrack::capi::ext_status;
use extrack::capi::ext_vec3;
use extrack::capi::{
    ext_closest_point, ext_point_tracker, ext_point_tracker_free, ext_point_tracker_new, ext_point_tracker_update,
};
use extrack::capi::{ext_scene, ext_scene_free, ext_scene_load_buffer};
use extrack::geom::{Pose, Vec3};
use extrack::track::{BodyState, PointBodyTracker, PointState, TrackScene, TrackerConfig};
use std::hint::black_box;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let side = args.next().unwrap_or_else(|| "rust".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let model = extrack::import::import_file(root.join("fixtures/rounded_box.brep.igs"))?;
    let bytes = extrack::prepare::prepare(&model, &Default::default())?.write();
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes())?;
    let ts = TrackScene::new(&view)?;
    let mut scene: *mut ext_scene = std::ptr::null_mut();
    // SAFETY: valid buffer and out pointer.
    if unsafe { ext_scene_load_buffer(bytes.as_ptr(), bytes.len(), &mut scene) } != ext_status::EXT_OK {
        return Err("ext_scene_load_buffer failed".into());
    }
    let path = |k: usize| {
        let t = k as f64 * 1e-3;
        let w = std::f64::consts::PI;
        PointState {
            q: Vec3::new(30.0 * (w * t).cos(), 22.5 * (w * t).sin(), 5.0 * (3.0 * w * t).sin()),
            q_dot: Vec3::new(
                -30.0 * w * (w * t).sin(),
                22.5 * w * (w * t).cos(),
                15.0 * w * (3.0 * w * t).cos(),
            ),
        }
    };
    if side.starts_with("pair") {
        return pair(&side, n);
    }
    let mut acc = 0.0;
    if side == "c" {
        let update: unsafe extern "C" fn(_, _, _, _, _, _, _) -> ext_status = black_box(ext_point_tracker_update);
        let mut t: *mut ext_point_tracker = std::ptr::null_mut();
        // SAFETY: live scene, NULL config, valid out pointer.
        unsafe { ext_point_tracker_new(scene, 0, std::ptr::null(), &mut t) };
        let mut out = std::mem::MaybeUninit::<ext_closest_point>::uninit();
        for k in 0..n {
            let p = path(k);
            let (q, v) = (ext_vec3::from(p.q), ext_vec3::from(p.q_dot));
            // SAFETY: live tracker, valid pointers.
            let st = unsafe {
                update(
                    t,
                    &q,
                    &v,
                    std::ptr::null(),
                    std::ptr::null(),
                    if k == 0 { 0.0 } else { 1e-3 },
                    out.as_mut_ptr(),
                )
            };
            if st != ext_status::EXT_OK {
                return Err("update failed".into());
            }
            // SAFETY: written on EXT_OK.
            acc += unsafe { out.assume_init_ref() }.distance;
        }
        // SAFETY: live handles, freed once.
        unsafe { ext_point_tracker_free(t) };
    } else {
        let still = BodyState::at(Pose::identity());
        let mut t = PointBodyTracker::new(&ts, 0, TrackerConfig::default())?;
        for k in 0..n {
            acc += t
                .update(&ts, &path(k), &still, if k == 0 { 0.0 } else { 1e-3 })?
                .distance;
        }
    }
    // SAFETY: live handle, freed once.
    unsafe { ext_scene_free(scene) };
    println!("{side}: sum of distances {acc}");
    Ok(())
}

/// The body-pair side of the comparison (`pair-rust` or `pair-c`).
fn pair(side: &str, n: usize) -> Result<(), Box<dyn std::error::Error>> {
    use extrack::capi::{ext_pair_result, ext_pair_tracker, ext_pair_tracker_free, ext_pair_tracker_new};
    use extrack::capi::{ext_pose, ext_twist};
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let model = extrack::import::import_file(root.join("fixtures/ellipsoid.step"))?;
    let bytes = extrack::prepare::prepare(&model, &Default::default())?.write();
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes())?;
    let ts = TrackScene::new(&view)?;
    let states = extrack::track::scenarios::body_orbit(&ts.bodies[0], &ts.bodies[0], 2000, 1e-3);
    let dt = |k: usize| if k == 0 { 0.0 } else { 1e-3 };
    let mut acc = 0.0;
    if side == "pair-c" {
        let mut scene: *mut ext_scene = std::ptr::null_mut();
        // SAFETY: valid buffer and out pointer.
        if unsafe { ext_scene_load_buffer(bytes.as_ptr(), bytes.len(), &mut scene) } != ext_status::EXT_OK {
            return Err("ext_scene_load_buffer failed".into());
        }
        let c_states: Vec<(ext_pose, ext_twist)> = states
            .iter()
            .map(|s| {
                let o = s.pose.iso.translation.vector;
                let twist = ext_twist {
                    angular: s.twist.omega.into(),
                    linear: s.twist.velocity_at(&o).into(),
                };
                (ext_pose::from(&s.pose), twist)
            })
            .collect();
        let update: unsafe extern "C" fn(_, _, _, _, _, _, _) -> ext_status =
            black_box(extrack::capi::ext_pair_tracker_update_pose);
        let mut t: *mut ext_pair_tracker = std::ptr::null_mut();
        // SAFETY: live scene (twice), NULL config, valid out pointer.
        if unsafe { ext_pair_tracker_new(scene, 0, scene, 0, std::ptr::null(), &mut t) } != ext_status::EXT_OK {
            return Err("ext_pair_tracker_new failed".into());
        }
        let mut out = std::mem::MaybeUninit::<ext_pair_result>::uninit();
        for k in 0..n {
            let (p, tw) = &c_states[k % c_states.len()];
            // SAFETY: live tracker, valid pointers (NULL pose / twist of A: at rest at its placement).
            let st = unsafe { update(t, std::ptr::null(), p, std::ptr::null(), tw, dt(k), out.as_mut_ptr()) };
            if st != ext_status::EXT_OK {
                return Err("pair update failed".into());
            }
            // SAFETY: written on EXT_OK.
            acc += unsafe { out.assume_init_ref() }.distance;
        }
        // SAFETY: live handles, freed once.
        unsafe {
            ext_pair_tracker_free(t);
            ext_scene_free(scene);
        }
    } else {
        let still = BodyState::at(Pose::identity());
        let mut t = extrack::track::BodyPairTracker::new(&ts, 0, &ts, 0, TrackerConfig::default())?;
        for k in 0..n {
            acc += t.update(&ts, &still, &ts, &states[k % states.len()], dt(k))?.distance;
        }
    }
    println!("{side}: sum of distances {acc}");
    Ok(())
}

//! Haptic coupler: a god-object proxy on the body surface and a spring–damper
//! between device and proxy (`crate::track::HapticCoupler`, `docs/architecture.md`
//! "Haptic coupling", PG-2004 Figs. 1–2, NJC-1999).

use super::error::{ext_status, guard};
use super::scene::{body_failure, ext_scene, scene_ref, SceneInner};
use super::tracker::{ext_closest_point, ext_tracker_config, with_object, Poisonable};
use super::types::{body_state, checked_dt, ext_pose, ext_twist, ext_vec3, input, output};
use crate::track::{CouplerConfig, HapticCoupler};
use std::sync::Arc;

/// Settings of a haptic coupler; start from `ext_coupler_config_default`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_coupler_config {
    /// Spring stiffness, N/mm (finite, >= 0).
    pub stiffness: f64,
    /// Damping, N·s/mm (finite, >= 0).
    pub damping: f64,
    /// Largest force magnitude, N (> 0; `INFINITY` for no limit).
    pub max_force: f64,
    /// Settings of the underlying point–body tracker.
    pub tracker: ext_tracker_config,
}

/// One servo tick's output (world coordinates).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(non_camel_case_types)]
pub struct ext_coupler_output {
    /// Force to apply to the device, N: zero without contact; never pulls the
    /// device into the surface.
    pub force: ext_vec3,
    /// Proxy position: on the surface in contact, the device position otherwise.
    pub proxy: ext_vec3,
    /// Outward surface normal at the proxy (zero without contact).
    pub normal: ext_vec3,
    /// Penetration depth, mm (>= 0; 0 without contact).
    pub depth: f64,
    /// 1 in contact (device inside the body behind the proxy), 0 otherwise.
    pub contact: u32,
    /// Reserved, 0.
    pub reserved: u32,
    /// The tracker's answer this tick (closest point of the body to the device).
    pub witness: ext_closest_point,
}

/// A haptic coupler (opaque). Belongs to one thread at a time (normally the
/// servo thread). Free with `ext_coupler_free`.
#[allow(non_camel_case_types)]
pub struct ext_coupler {
    scene: Arc<SceneInner>,
    coupler: HapticCoupler,
    poisoned: bool,
}

impl ext_coupler {
    /// The Rust scene and coupler behind this handle (Rust only, not part of
    /// the C API), for measuring the boundary's own cost on the same object
    /// (`benches/capi.rs`).
    #[doc(hidden)]
    pub fn rust_parts(&mut self) -> (&crate::track::TrackScene, &mut HapticCoupler) {
        (&self.scene.track, &mut self.coupler)
    }
}

impl Poisonable for ext_coupler {
    const NAME: &'static str = "coupler";
    fn poisoned(&self) -> bool {
        self.poisoned
    }
    fn poison(&mut self) {
        self.poisoned = true;
    }
}

/// Writes the default coupler settings to `out` (stiffness 1 N/mm, damping
/// 0.001 N·s/mm, no force limit, default tracker).
///
/// Ownership: `out` belongs to the caller; written only on success.
///
/// Thread safety: reentrant.
///
/// # Safety
/// `out` must point to a writable `ext_coupler_config`.
#[no_mangle]
pub unsafe extern "C" fn ext_coupler_config_default(out: *mut ext_coupler_config) -> ext_status {
    guard(|| {
        let out = output(out, "out")?;
        let d = CouplerConfig::default();
        let c = ext_coupler_config {
            stiffness: d.stiffness,
            damping: d.damping,
            max_force: d.max_force,
            tracker: ext_tracker_config::from(&d.tracker),
        };
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(c) };
        Ok(())
    })
}

/// Creates a haptic coupler over body `body` of `scene`. `config` may be NULL
/// for the defaults.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_NO_SUCH_BODY`, `EXT_TRACKING` (no
/// pieces), `EXT_INVALID_ARGUMENT` (configuration out of range).
///
/// Ownership: the coupler keeps a reference to the scene's data (the scene
/// handle may be freed first). The caller owns the new coupler and frees it
/// with `ext_coupler_free`.
///
/// Thread safety: the scene may be shared; the new coupler belongs to one
/// thread at a time.
///
/// # Safety
/// `scene` must be a live scene handle; `config` NULL or a readable
/// `ext_coupler_config`; `out` a writable `ext_coupler*`.
#[no_mangle]
pub unsafe extern "C" fn ext_coupler_new(
    scene: *const ext_scene,
    body: u32,
    config: *const ext_coupler_config,
    out: *mut *mut ext_coupler,
) -> ext_status {
    guard(|| {
        // SAFETY: see `# Safety`.
        let scene = unsafe { scene_ref(scene) }?;
        // SAFETY: NULL or readable by contract.
        let cfg = match unsafe { config.as_ref() } {
            Some(c) => CouplerConfig {
                stiffness: c.stiffness,
                damping: c.damping,
                max_force: c.max_force,
                tracker: c.tracker.checked()?,
            },
            None => CouplerConfig::default(),
        };
        cfg.validate().map_err(body_failure)?;
        let out = output(out, "out")?;
        let coupler = HapticCoupler::new(&scene.inner.track, body, cfg).map_err(body_failure)?;
        let handle = Box::new(ext_coupler {
            scene: Arc::clone(&scene.inner),
            coupler,
            poisoned: false,
        });
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(Box::into_raw(handle)) };
        Ok(())
    })
}

/// Sets the spring stiffness (N/mm) and damping (N·s/mm), both finite and
/// >= 0, keeping the contact state.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_INVALID_ARGUMENT`, `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same coupler.
///
/// # Safety
/// `coupler` must be a live coupler.
#[no_mangle]
pub unsafe extern "C" fn ext_coupler_set_gains(coupler: *mut ext_coupler, stiffness: f64, damping: f64) -> ext_status {
    with_object(coupler, |c| {
        let cfg = CouplerConfig {
            stiffness,
            damping,
            ..c.coupler.cfg
        };
        cfg.validate().map_err(body_failure)?;
        c.coupler.cfg = cfg;
        Ok(())
    })
}

/// One servo tick: the force for the device at `device` (world, mm).
///
/// Inputs: `device_velocity` (mm/s; NULL = estimated from the previous
/// position); `pose` of the body relative to its scene placement (NULL =
/// identity); `twist` of the body (NULL = at rest); `dt`, seconds since the
/// previous tick (finite, > 0).
///
/// Errors: `EXT_NULL_POINTER` (`coupler`, `device` or `out`),
/// `EXT_INVALID_ARGUMENT` (non-finite numbers, non-unit quaternion, `dt <=
/// 0`), `EXT_TRACKING`, `EXT_PANIC` (poisoned). On error nothing is written:
/// a servo loop should command zero force for that tick.
///
/// Ownership: every pointer is borrowed for the call; `out` is written only on
/// success. No allocation once tracking is coherent.
///
/// Thread safety: not concurrently with any other call on the same coupler;
/// couplers and trackers of the same scene may run on other threads at once.
///
/// # Safety
/// `coupler` must be a live coupler; `device` a readable `ext_vec3`; the
/// nullable pointers NULL or readable; `out` a writable `ext_coupler_output`.
#[no_mangle]
pub unsafe extern "C" fn ext_coupler_tick(
    coupler: *mut ext_coupler,
    device: *const ext_vec3,
    device_velocity: *const ext_vec3,
    pose: *const ext_pose,
    twist: *const ext_twist,
    dt: f64,
    out: *mut ext_coupler_output,
) -> ext_status {
    with_object(coupler, |c| {
        // SAFETY: readable or NULL by contract (all four).
        let (device, device_velocity, pose, twist) = unsafe {
            (
                input(device, "device")?,
                device_velocity.as_ref(),
                pose.as_ref(),
                twist.as_ref(),
            )
        };
        let out = output(out, "out")?;
        // finiteness of the device state, pose and twist is checked by the tracker
        let x = device.vec();
        let v = device_velocity.map(ext_vec3::vec);
        let state = body_state(pose, twist)?;
        let dt = checked_dt(dt)?;
        let o = c.coupler.tick(&c.scene.track, x, v, &state, dt).map_err(body_failure)?;
        let result = ext_coupler_output {
            force: o.force.into(),
            proxy: o.proxy.into(),
            normal: o.normal.into(),
            depth: o.depth,
            contact: o.contact as u32,
            reserved: 0,
            witness: ext_closest_point::from(&o.witness),
        };
        // SAFETY: non-NULL, writable by contract.
        unsafe { out.write(result) };
        Ok(())
    })
}

/// Forgets the contact state and the tracking history.
///
/// Errors: `EXT_NULL_POINTER`, `EXT_PANIC` (poisoned).
///
/// Thread safety: not concurrently with any other call on the same coupler.
///
/// # Safety
/// `coupler` must be a live coupler.
#[no_mangle]
pub unsafe extern "C" fn ext_coupler_reset(coupler: *mut ext_coupler) -> ext_status {
    with_object(coupler, |c| c.coupler.reset(&c.scene.track).map_err(body_failure))
}

/// Frees a coupler (and its reference to the scene data). NULL is ignored.
///
/// Ownership: takes ownership of `coupler`; the pointer must not be used again.
///
/// Thread safety: not concurrently with any other call on the same coupler.
///
/// # Safety
/// `coupler` must be NULL or a live coupler from `ext_coupler_new`.
#[no_mangle]
pub unsafe extern "C" fn ext_coupler_free(coupler: *mut ext_coupler) {
    if coupler.is_null() {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: made by `Box::into_raw` in `ext_coupler_new`.
        drop(unsafe { Box::from_raw(coupler) });
    });
}

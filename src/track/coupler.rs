//! Haptic coupling (PG-2004 Figs. 1–2, NJC-1999): a proxy (god-object) that
//! stays on the body's surface while the device is inside, and a virtual
//! coupler (spring + damper) between device and proxy.
//!
//! Outside the body the proxy is the device itself and the force is zero;
//! the point–body tracker runs globally (far phase on). When the device
//! enters, the proxy is the contact point and then *follows the surface
//! locally*: each tick it is the closest surface point to the device on the
//! active feature and its Voronoi neighbours (the far phase is off), so
//! pushing through a thin wall never pops the proxy to the far side
//! ("chopping through", NJC-1999 Fig. 2). Contact ends when the device is
//! back on the outer side of the proxy's surface. The force
//! `F = k (proxy − device) + b (v_proxy − v_device)` is clamped so that it
//! never pulls the device into the surface.

use super::body::{BodyError, TrackScene};
use super::config::TrackerConfig;
use super::motion::{BodyState, PointState};
use super::point_body::{PointBodyResult, PointBodyTracker};
use crate::geom::Vec3;

/// Settings of the virtual coupler.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CouplerConfig {
    /// Spring stiffness, N/mm.
    pub stiffness: f64,
    /// Damping, N·s/mm.
    pub damping: f64,
    /// Largest force magnitude, N (`f64::INFINITY` for none).
    pub max_force: f64,
    /// Settings of the underlying point–body tracker.
    pub tracker: TrackerConfig,
}

impl Default for CouplerConfig {
    fn default() -> Self {
        Self {
            stiffness: 1.0,
            damping: 0.001,
            max_force: f64::INFINITY,
            tracker: TrackerConfig::default(),
        }
    }
}

impl CouplerConfig {
    /// Checks ranges (finite non-negative gains, positive force limit).
    pub fn validate(&self) -> Result<(), BodyError> {
        let ok = |x: f64| x.is_finite() && x >= 0.0;
        if !(ok(self.stiffness) && ok(self.damping) && self.max_force > 0.0 && !self.max_force.is_nan()) {
            return Err(super::config::TrackError::Config(
                "coupler stiffness and damping must be finite and >= 0, max_force > 0",
            )
            .into());
        }
        self.tracker.validate()?;
        Ok(())
    }
}

/// One servo tick's output (world coordinates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CouplerOutput {
    /// Force on the device, N.
    pub force: Vec3,
    /// Proxy position (on the surface in contact, the device otherwise).
    pub proxy: Vec3,
    /// In contact (device inside the body behind the proxy).
    pub contact: bool,
    /// Penetration depth (≥ 0; 0 without contact), mm.
    pub depth: f64,
    /// Outward surface normal at the proxy (zero without contact).
    pub normal: Vec3,
    /// The tracker's answer this tick.
    pub witness: PointBodyResult,
}

/// A god-object proxy with a spring–damper coupler over one scene body.
#[derive(Debug, Clone)]
pub struct HapticCoupler {
    /// Settings.
    pub cfg: CouplerConfig,
    tracker: PointBodyTracker,
    contact: bool,
    last_proxy: Option<Vec3>,
    last_device: Option<Vec3>,
}

impl HapticCoupler {
    /// A coupler for body `body` of `scene`.
    pub fn new(scene: &TrackScene, body: u32, cfg: CouplerConfig) -> Result<Self, BodyError> {
        cfg.validate()?;
        Ok(Self {
            cfg,
            tracker: PointBodyTracker::new(scene, body, cfg.tracker)?,
            contact: false,
            last_proxy: None,
            last_device: None,
        })
    }

    /// Forgets the contact and the tracker history.
    pub fn reset(&mut self, scene: &TrackScene) -> Result<(), BodyError> {
        self.contact = false;
        self.last_proxy = None;
        self.last_device = None;
        self.tracker.reset(scene)
    }

    /// One servo tick: device position (and velocity, estimated from the last
    /// position when `None`), the body's pose and twist, and `dt` since the
    /// previous tick.
    pub fn tick(
        &mut self,
        scene: &TrackScene,
        device: Vec3,
        device_velocity: Option<Vec3>,
        body: &BodyState,
        dt: f64,
    ) -> Result<CouplerOutput, BodyError> {
        let v_dev = match (device_velocity, self.last_device) {
            (Some(v), _) => v,
            (None, Some(last)) if dt > 0.0 => (device - last) / dt,
            _ => Vec3::zeros(),
        };
        let point = PointState {
            q: device,
            q_dot: v_dev,
        };
        let w = if self.contact {
            self.tracker.update_local(scene, &point, body, dt)?
        } else {
            self.tracker.update(scene, &point, body, dt)?
        };
        self.last_device = Some(device);
        // inside: behind the proxy's surface (sign of the witness)
        let inside = w
            .signed_distance
            .map_or_else(|| (device - w.point).dot(&w.normal) < 0.0, |s| s < 0.0);
        self.contact = inside;
        if !inside {
            self.last_proxy = Some(device);
            return Ok(CouplerOutput {
                force: Vec3::zeros(),
                proxy: device,
                contact: false,
                depth: 0.0,
                normal: Vec3::zeros(),
                witness: w,
            });
        }
        let proxy = w.point;
        let v_proxy = match self.last_proxy {
            Some(p) if dt > 0.0 => (proxy - p) / dt,
            _ => Vec3::zeros(),
        };
        self.last_proxy = Some(proxy);
        let mut f = (proxy - device) * self.cfg.stiffness + (v_proxy - v_dev) * self.cfg.damping;
        let n = w.normal;
        let fn_ = f.dot(&n);
        if fn_ < 0.0 {
            f -= n * fn_; // never pull into the surface
        }
        let m = f.norm();
        if m > self.cfg.max_force {
            f *= self.cfg.max_force / m;
        }
        Ok(CouplerOutput {
            force: f,
            proxy,
            contact: true,
            depth: w.distance,
            normal: n,
            witness: w,
        })
    }
}

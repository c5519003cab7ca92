//! The body–body orbit shared by `benches/body_pair.rs` and
//! `dev/src/bin/pair_probe.rs`: B circles A while spinning, with the twists
//! of that motion (1 ms steps).
use extrack::geom::{Pose, Twist, Vec3};
use extrack::track::{BodyState, TrackScene};
use nalgebra::UnitQuaternion;

/// The orbit's time step (s).
pub const H: f64 = 1e-3;

/// B's poses (composed with its placement) for an orbit around A: B's box
/// centre circles A's box centre at `gap` beyond the sum of their box
/// radii in the xy-plane with a vertical wobble, spinning about a tilted axis; one
/// lap per `n` steps of 1 ms.
pub fn orbit(a: &TrackScene, ia: u32, b: &TrackScene, ib: u32, n: usize, gap: f64) -> Vec<BodyState> {
    let (ba, bb) = (&a.bodies[ia as usize], &b.bodies[ib as usize]);
    let ca = ba.placement.transform_point(&((ba.lo + ba.hi) * 0.5));
    let cb_local = (bb.lo + bb.hi) * 0.5;
    let ra = 0.5 * (ba.hi - ba.lo).norm();
    let rb = 0.5 * (bb.hi - bb.lo).norm();
    let radius = 0.8 * (ra + rb) + gap;
    let w = std::f64::consts::TAU / (n as f64 * H);
    let axis = Vec3::new(0.3, -0.5, 1.0).normalize();
    (0..n)
        .map(|k| {
            let t = k as f64 * H;
            let c = ca
                + Vec3::new(
                    radius * (w * t).cos(),
                    radius * (w * t).sin(),
                    0.2 * ra * (2.0 * w * t).sin(),
                );
            let rot = UnitQuaternion::from_scaled_axis(axis * (1.5 * w * t));
            // place B's box centre (after its placement) at c
            let placed = bb.placement.transform_point(&cb_local);
            let pose = Pose::from_parts(c - rot * placed, rot);
            let v = Vec3::new(
                -radius * w * (w * t).sin(),
                radius * w * (w * t).cos(),
                0.4 * ra * w * (2.0 * w * t).cos(),
            );
            BodyState {
                pose,
                twist: Twist::about_point(axis * 1.5 * w, c, v),
            }
        })
        .collect()
}

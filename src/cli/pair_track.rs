//! `extrack track SCENE --bodies I J --motion MOTION --out TRACE.csv [--plot TRACE.svg]`:
//! a body–body tracker driven along a motion of both bodies (a CSV file of
//! poses, or a built-in motion), one trace row per update. The motion file
//! and the built-in motions are documented in `formats/motion.md`.

use super::distance::{check_body, feature_text, parse_bodies};
use super::track::percentile;
use crate::geom::{Pose, Twist, Vec3};
use crate::track::{BodyPairResult, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use nalgebra::{Quaternion, UnitQuaternion};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `track` runs in body-pair mode.
pub struct PairTrackArgs {
    /// Scene of body A (and of B unless `scene_b`).
    pub scene: PathBuf,
    /// `--bodies I J`.
    pub bodies: Vec<String>,
    /// `--scene-b`.
    pub scene_b: Option<PathBuf>,
    /// `--motion`: a CSV file or `builtin:NAME`.
    pub motion: String,
    /// `--out`.
    pub out: PathBuf,
    /// `--plot`.
    pub plot: Option<PathBuf>,
}

/// One sample of a body-pair motion: time and the poses of A and B
/// (composed with the scene placements).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairSample {
    /// Time, s.
    pub t: f64,
    /// Pose of A.
    pub pose_a: Pose,
    /// Pose of B.
    pub pose_b: Pose,
}

/// Largest accepted deviation of a motion quaternion's norm from 1 (it is then renormalised).
const QUAT_TOL: f64 = 1e-6;

/// Reads a pose from seven numbers `x, y, z, qw, qx, qy, qz`.
fn pose_of(n: &[f64]) -> Result<Pose, String> {
    let q = Quaternion::new(n[3], n[4], n[5], n[6]);
    let norm = q.norm();
    if (norm - 1.0).abs().is_nan() || (norm - 1.0).abs() > QUAT_TOL {
        return Err(format!(
            "quaternion ({}, {}, {}, {}) has norm {norm}, expected 1",
            n[3], n[4], n[5], n[6]
        ));
    }
    Ok(Pose::from_parts(
        Vec3::new(n[0], n[1], n[2]),
        UnitQuaternion::new_normalize(q),
    ))
}

/// Reads a body-pair motion CSV: rows `t, ax, ay, az, aqw, aqx, aqy, aqz,
/// bx, by, bz, bqw, bqx, bqy, bqz` (a header line and `#` comments allowed).
pub fn read_motion(path: &Path) -> Result<Vec<PairSample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows: Vec<PairSample> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let nums: Result<Vec<f64>, _> = line.split(',').map(|c| c.trim().parse::<f64>()).collect();
        let n = match nums {
            Ok(n) if n.len() == 15 && n.iter().all(|x| x.is_finite()) => n,
            Err(_) if rows.is_empty() && i == 0 => continue, // header
            _ => {
                return Err(format!(
                    "{}:{}: expected 15 finite numbers t,ax,ay,az,aqw,aqx,aqy,aqz,bx,by,bz,bqw,bqx,bqy,bqz",
                    path.display(),
                    i + 1
                ))
            }
        };
        let at =
            |what: &str, r: Result<Pose, String>| r.map_err(|e| format!("{}:{}: {what}: {e}", path.display(), i + 1));
        let pose_a = at("pose of A", pose_of(&n[1..8]))?;
        let pose_b = at("pose of B", pose_of(&n[8..15]))?;
        if let Some(prev) = rows.last() {
            if n[0] < prev.t {
                return Err(format!(
                    "{}:{}: time must not decrease ({} after {})",
                    path.display(),
                    i + 1,
                    n[0],
                    prev.t
                ));
            }
        }
        rows.push(PairSample {
            t: n[0],
            pose_a,
            pose_b,
        });
    }
    if rows.is_empty() {
        return Err(format!("{}: no rows", path.display()));
    }
    Ok(rows)
}

/// The world twist of a body moving from `p0` to `p1` in `dt` (backward
/// finite difference): the rotation `R1 R0ᵀ` as an angular velocity, the
/// pose origin's displacement as its velocity.
pub fn twist_between(p0: &Pose, p1: &Pose, dt: f64) -> Twist {
    if dt.is_nan() || dt <= 0.0 {
        return Twist::zero();
    }
    let dq = p1.iso.rotation * p0.iso.rotation.inverse();
    let omega = dq.scaled_axis() / dt;
    let c0 = p0.iso.translation.vector;
    let c1 = p1.iso.translation.vector;
    Twist::about_point(omega, c1, (c1 - c0) / dt)
}

/// Samples of the built-in motions: 2 s at 1 kHz.
const BUILTIN_SECONDS: f64 = 2.0;
/// Sampling step of the built-in motions, s.
const BUILTIN_DT: f64 = 1e-3;

/// Seed of `builtin:haptic` (formats/motion.md).
pub const HAPTIC_SEED: u64 = 26;

/// A built-in motion by name (`orbit`, `approach`, `haptic`); see `formats/motion.md`.
pub fn builtin_motion(
    name: &str,
    scene_a: &TrackScene,
    a: u32,
    scene_b: &TrackScene,
    b: u32,
) -> Result<Vec<PairSample>, String> {
    let body_a = scene_a.body(a).map_err(|e| e.to_string())?;
    let body_b = scene_b.body(b).map_err(|e| e.to_string())?;
    let steps = (BUILTIN_SECONDS / BUILTIN_DT).round() as usize;
    let times = (0..=steps).map(|k| k as f64 * BUILTIN_DT);
    match name {
        "orbit" => {
            let states = crate::track::scenarios::body_orbit(body_a, body_b, steps, BUILTIN_DT);
            // the lap closes: the last sample repeats the first
            Ok(times
                .zip(states.iter().cycle())
                .map(|(t, s)| PairSample {
                    t,
                    pose_a: Pose::identity(),
                    pose_b: s.pose,
                })
                .collect())
        }
        "approach" | "haptic" => {
            let states = if name == "approach" {
                crate::track::scenarios::body_approach(scene_a, a, scene_b, b, steps, BUILTIN_DT)
            } else {
                crate::track::scenarios::body_haptic(scene_a, a, scene_b, b, steps, BUILTIN_DT, HAPTIC_SEED)
            }
            .map_err(|e| e.to_string())?;
            Ok(times
                .zip(states)
                .map(|(t, s)| PairSample {
                    t,
                    pose_a: Pose::identity(),
                    pose_b: s.pose,
                })
                .collect())
        }
        _ => Err(format!(
            "unknown built-in motion `builtin:{name}` (known: builtin:orbit, builtin:approach, builtin:haptic)"
        )),
    }
}

/// Runs `track` in body-pair mode.
pub fn run(args: PairTrackArgs) -> Result<(), String> {
    let (a, b) = parse_bodies(&args.bodies)?;
    let scene_a = super::query::load_scene(&args.scene)?;
    check_body(&scene_a, a, &args.scene)?;
    let scene_b = match &args.scene_b {
        Some(p) => Some(super::query::load_scene(p)?),
        None => None,
    };
    let (sb, sb_path) = match (&scene_b, &args.scene_b) {
        (Some(s), Some(p)) => (s, p.as_path()),
        _ => (&scene_a, args.scene.as_path()),
    };
    check_body(sb, b, sb_path)?;
    let (samples, label) = match args.motion.strip_prefix("builtin:") {
        Some(name) => (builtin_motion(name, &scene_a, a, sb, b)?, args.motion.clone()),
        None => {
            let p = Path::new(&args.motion);
            (read_motion(p)?, p.display().to_string())
        }
    };
    let mut tracker = BodyPairTracker::new(&scene_a, a, sb, b, TrackerConfig::default()).map_err(|e| e.to_string())?;
    let mut out = String::from(
        "t,distance,signed_distance,penetrating,pax,pay,paz,pbx,pby,pbz,nx,ny,nz,feature_a,feature_b,u,v,r,s,iterations,switches,cells_solved,update_ns\n",
    );
    let mut times = Vec::with_capacity(samples.len());
    let mut trace = Vec::with_capacity(samples.len());
    let mut switch_events = 0u64;
    let mut prev: Option<&PairSample> = None;
    for (i, s) in samples.iter().enumerate() {
        let dt = prev.map_or(0.0, |p| s.t - p.t);
        let (ta, tb) = match prev {
            Some(p) => (
                twist_between(&p.pose_a, &s.pose_a, dt),
                twist_between(&p.pose_b, &s.pose_b, dt),
            ),
            None => (Twist::zero(), Twist::zero()),
        };
        prev = Some(s);
        let state_a = BodyState {
            pose: s.pose_a,
            twist: ta,
        };
        let state_b = BodyState {
            pose: s.pose_b,
            twist: tb,
        };
        let start = Instant::now();
        let r = tracker
            .update(&scene_a, &state_a, sb, &state_b, dt)
            .map_err(|e| format!("{label}: sample {}: {e}", i + 1))?;
        let ns = start.elapsed().as_nanos() as f64;
        times.push(ns);
        switch_events += r.switches as u64;
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{ns}",
            s.t,
            r.distance,
            r.signed_distance,
            r.penetrating as u8,
            r.point_a.x,
            r.point_a.y,
            r.point_a.z,
            r.point_b.x,
            r.point_b.y,
            r.point_b.z,
            r.normal.x,
            r.normal.y,
            r.normal.z,
            feature_text(r.feature_a),
            feature_text(r.feature_b),
            r.params_a[0],
            r.params_a[1],
            r.params_b[0],
            r.params_b[1],
            r.iterations,
            r.switches,
            r.cells_solved,
        );
        trace.push((s.t, r));
    }
    std::fs::write(&args.out, out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    if let Some(p) = &args.plot {
        plot_trace(p, &trace)?;
    }
    // the first update is a cold start: the coherent statistics leave it out
    let cold = times[0];
    let mut coherent: Vec<f64> = times[1..].to_vec();
    coherent.sort_by(f64::total_cmp);
    let penetrating = trace.iter().filter(|(_, r)| r.penetrating).count();
    let (dmin, dmax) = trace
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, r)| {
            (lo.min(r.signed_distance), hi.max(r.signed_distance))
        });
    let summary = format!(
        "{} updates, {} feature switches, {} penetrating; signed distance {:.6} .. {:.6} mm; cold start {:.1} µs; coherent update median {:.2} µs, p99.9 {:.2} µs, max {:.2} µs\n",
        samples.len(),
        switch_events,
        penetrating,
        dmin,
        dmax,
        cold / 1e3,
        percentile(&coherent, 50.0) / 1e3,
        percentile(&coherent, 99.9) / 1e3,
        coherent.last().copied().unwrap_or(f64::NAN) / 1e3,
    );
    super::write_stdout(&summary)
}

/// The signed distance and both witnesses' parameters over time: `(u, v)` of
/// A's witness and `(r, s)` of B's (PG-2004 Fig. 13, PG-2005 Fig. 20 style).
fn plot_trace(path: &Path, trace: &[(f64, BodyPairResult)]) -> Result<(), String> {
    use plotters::prelude::*;
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 900)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let panels = root.split_evenly((3, 1));
    let t0 = trace.first().map_or(0.0, |x| x.0);
    let t1 = trace.last().map_or(1.0, |x| x.0).max(t0 + 1e-9);
    let (dmin, dmax) = trace.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, r)| {
        (a.min(r.signed_distance), b.max(r.signed_distance))
    });
    let pad = ((dmax - dmin) * 0.05).max(1e-6);
    let mut c = ChartBuilder::on(&panels[0])
        .caption("signed distance (mm)", ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(t0..t1, (dmin - pad)..(dmax + pad))
        .map_err(|e| err(&e))?;
    c.configure_mesh().x_desc("t (s)").draw().map_err(|e| err(&e))?;
    c.draw_series(LineSeries::new(
        trace.iter().map(|(t, r)| (*t, r.signed_distance)),
        &BLUE,
    ))
    .map_err(|e| err(&e))?;
    type Side = (
        &'static str,
        fn(&BodyPairResult) -> [f64; 2],
        fn(&BodyPairResult) -> u32,
    );
    let sides: [Side; 2] = [
        (
            "body A witness parameters u (red), v (green); feature index / 100 grey",
            |r| r.params_a,
            |r| feature_index(r.feature_a),
        ),
        (
            "body B witness parameters r (red), s (green); feature index / 100 grey",
            |r| r.params_b,
            |r| feature_index(r.feature_b),
        ),
    ];
    for (panel, (caption, params, feature)) in panels[1..].iter().zip(sides) {
        let mut c = ChartBuilder::on(panel)
            .caption(caption, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(t0..t1, -0.05f64..1.05f64)
            .map_err(|e| err(&e))?;
        c.configure_mesh().x_desc("t (s)").draw().map_err(|e| err(&e))?;
        for (k, colour) in [(0usize, &RED), (1, &GREEN)] {
            c.draw_series(PointSeries::of_element(
                trace.iter().map(|(t, r)| (*t, params(r)[k].clamp(-0.05, 1.05))),
                1,
                colour,
                &|c, s, st| EmptyElement::at(c) + Circle::new((0, 0), s, st.filled()),
            ))
            .map_err(|e| err(&e))?;
        }
        c.draw_series(LineSeries::new(
            trace.iter().map(|(t, r)| (*t, (feature(r) % 100) as f64 / 100.0)),
            BLACK.mix(0.4),
        ))
        .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

fn feature_index(f: crate::scene::data::FeatureRef) -> u32 {
    match f {
        crate::scene::data::FeatureRef::Piece(i)
        | crate::scene::data::FeatureRef::Edge(i)
        | crate::scene::data::FeatureRef::Vertex(i) => i,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_difference_twist_reproduces_the_motion() {
        let p0 = Pose::from_translation_axis_angle(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.1, -0.2, 0.3));
        let omega = Vec3::new(0.5, 0.25, -1.0);
        let v = Vec3::new(3.0, -1.0, 2.0);
        let dt = 1e-3;
        // p1 = exp(dt ω) about p0's origin, then translated by v dt
        let rot = UnitQuaternion::from_scaled_axis(omega * dt);
        let p1 = Pose::from_parts(p0.iso.translation.vector + v * dt, rot * p0.iso.rotation);
        let tw = twist_between(&p0, &p1, dt);
        assert!((tw.omega - omega).norm() < 1e-9, "{}", tw.omega);
        // the pose origin moves with v
        let vo = tw.velocity_at(&p1.iso.translation.vector);
        assert!((vo - v).norm() < 1e-9, "{vo}");
        assert_eq!(twist_between(&p0, &p1, 0.0), Twist::zero());
    }

    #[test]
    fn motion_rows_are_validated() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.csv");
        std::fs::write(
            &p,
            "t,ax,ay,az,aqw,aqx,aqy,aqz,bx,by,bz,bqw,bqx,bqy,bqz\n0,0,0,0,1,0,0,0,10,0,0,1,0,0,0\n0.001,0,0,0,1,0,0,0,9,0,0,0,1,0,0\n",
        )
        .unwrap();
        let m = read_motion(&p).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[1].pose_b.transform_point(&Vec3::new(0.0, 1.0, 0.0)),
            Vec3::new(9.0, -1.0, 0.0)
        );
        for (text, needle) in [
            ("0,0,0,0,1,0,0,0,10,0,0,1,0,0\n", ":1: expected 15 finite numbers"),
            ("0,0,0,0,2,0,0,0,10,0,0,1,0,0,0\n", ":1: pose of A: quaternion"),
            (
                "0,0,0,0,1,0,0,0,10,0,0,1,0,0,0\n0,0,0,0,1,0,0,0,10,0,0,1,0,nan,0\n",
                ":2: expected 15",
            ),
            (
                "1,0,0,0,1,0,0,0,10,0,0,1,0,0,0\n0.5,0,0,0,1,0,0,0,10,0,0,1,0,0,0\n",
                "time must not decrease",
            ),
            ("# nothing\n", "no rows"),
        ] {
            std::fs::write(&p, text).unwrap();
            let e = read_motion(&p).unwrap_err();
            assert!(e.contains(needle), "{e}");
        }
    }
}

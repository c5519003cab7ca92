//! Bad input to the trackers: clear errors, never a panic or NaN.

use extrack::geom::{NurbsSurface, Pose, Vec3};
use extrack::track::{
    BodyState, ControlLaw, PatchPairTracker, PointPatchTracker, PointState, TrackError, TrackerConfig,
};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};

fn plane() -> NurbsSurface {
    let k = vec![0., 0., 1., 1.];
    NurbsSurface::try_new(
        1,
        1,
        k.clone(),
        k,
        2,
        2,
        &[[0., 0., 0.], [0., 1., 0.], [1., 0., 0.], [1., 1., 0.]],
        None,
    )
    .unwrap()
}

#[test]
fn non_finite_queries_poses_and_steps_are_errors() {
    let p = plane();
    let mut t = PointPatchTracker::new(TrackerConfig::default(), [0.5, 0.5]).unwrap();
    let body = BodyState::default();
    let nan = PointState::at(Vec3::new(f64::NAN, 0.0, 1.0));
    assert!(matches!(t.update(&p, &nan, &body, 1e-3), Err(TrackError::NonFinite(_))));
    let ok = PointState::at(Vec3::new(0.3, 0.3, 1.0));
    assert!(matches!(
        t.update(&p, &ok, &body, f64::INFINITY),
        Err(TrackError::NonFinite(_))
    ));
    let mut bad = BodyState::default();
    bad.pose.iso.translation.vector.x = f64::NAN;
    assert!(t.update(&p, &ok, &bad, 1e-3).is_err());
    // a non-unit quaternion is not a rigid pose
    let q = UnitQuaternion::new_unchecked(Quaternion::new(2.0, 0.0, 0.0, 0.0));
    let non_rigid = BodyState::at(Pose {
        iso: Isometry3::from_parts(Translation3::identity(), q),
    });
    assert_eq!(t.update(&p, &ok, &non_rigid, 1e-3), Err(TrackError::NotRigid));
    // and the tracker still works afterwards
    let w = t.update(&p, &ok, &body, 1e-3).unwrap();
    assert!((w.distance - 1.0).abs() < 1e-12);
}

#[test]
fn bad_configurations_are_rejected() {
    for cfg in [
        TrackerConfig {
            gain_k: 0.0,
            ..TrackerConfig::default()
        },
        TrackerConfig {
            h: f64::NAN,
            ..TrackerConfig::default()
        },
        TrackerConfig {
            max_iters: 0,
            ..TrackerConfig::default()
        },
        TrackerConfig {
            tol: -1.0,
            ..TrackerConfig::default()
        },
    ] {
        assert!(matches!(
            PointPatchTracker::new(cfg, [0.5, 0.5]),
            Err(TrackError::Config(_))
        ));
    }
    assert!(PointPatchTracker::new(TrackerConfig::default(), [f64::NAN, 0.5]).is_err());
}

#[test]
fn singular_m_falls_back_without_nan() {
    // Q at the centre of curvature of a cylinder-like patch makes M singular.
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let k = vec![0., 0., 0., 1., 1., 1.];
    let kv = vec![0., 0., 1., 1.];
    let pts = [
        [1., 0., 0.],
        [1., 0., 1.],
        [1., 1., 0.],
        [1., 1., 1.],
        [0., 1., 0.],
        [0., 1., 1.],
    ];
    let w = [1.0, 1.0, s, s, 1.0, 1.0];
    let cyl = NurbsSurface::try_new(2, 1, k, kv, 3, 2, &pts, Some(&w)).unwrap();
    for law in [
        ControlLaw::FeedbackLinearized,
        ControlLaw::Hybrid,
        ControlLaw::Newton,
        ControlLaw::GloballyConvergent,
    ] {
        let cfg = TrackerConfig {
            law,
            ..TrackerConfig::default()
        };
        let mut t = PointPatchTracker::new(cfg, [0.5, 0.5]).unwrap();
        let r = t
            .update(
                &cyl,
                &PointState::at(Vec3::new(0.0, 0.0, 0.5)),
                &BodyState::default(),
                0.0,
            )
            .unwrap();
        assert!(
            r.distance.is_finite() && (r.distance - 1.0).abs() < 1e-9,
            "{law:?}: {r:?}"
        );
        assert!(r.point.iter().chain(r.normal.iter()).all(|c| c.is_finite()));
    }
}

#[test]
fn touching_and_identical_patches_never_give_nan() {
    let p = plane();
    let mut t = PatchPairTracker::new(TrackerConfig::default(), [0.2, 0.3], [0.7, 0.6]).unwrap();
    let body = BodyState::default();
    let w = t.update(&p, &body, &p, &body, 0.0).unwrap();
    assert!(w.distance.abs() < 1e-9);
    assert!(w.normal.iter().all(|c| c.is_finite()));
}

/// The ticks' fast input checks (one finiteness sum over query and twists,
/// see `PointPatchTracker::update`, `PatchPairTracker::update`) report the
/// same errors as the detailed checks, naming the culprit.
#[test]
fn fast_input_checks_name_the_culprit() {
    let p = plane();
    let ok = PointState::at(Vec3::new(0.3, 0.3, 1.0));
    let body = BodyState::default();
    let mut t = PointPatchTracker::new(TrackerConfig::default(), [0.5, 0.5]).unwrap();
    let moving = PointState {
        q: ok.q,
        q_dot: Vec3::new(0.0, f64::INFINITY, 0.0),
    };
    assert_eq!(
        t.update(&p, &moving, &body, 1e-3),
        Err(TrackError::NonFinite("query point"))
    );
    let mut spinning = BodyState::default();
    spinning.twist.omega.z = f64::NAN;
    assert_eq!(t.update(&p, &ok, &spinning, 1e-3), Err(TrackError::NonFinite("twist")));
    for dt in [f64::NAN, -1e-3, f64::INFINITY] {
        assert_eq!(t.update(&p, &ok, &body, dt), Err(TrackError::NonFinite("dt")));
    }
    // warm tracker (coherent path), then the same errors
    for _ in 0..3 {
        t.update(&p, &ok, &body, 1e-3).unwrap();
    }
    assert_eq!(t.update(&p, &ok, &spinning, 1e-3), Err(TrackError::NonFinite("twist")));
    assert_eq!(t.update(&p, &ok, &body, -0.5), Err(TrackError::NonFinite("dt")));
    let w = t.update(&p, &ok, &body, 1e-3).unwrap();
    assert!((w.distance - 1.0).abs() < 1e-12);

    // patch–patch: the plane against itself lifted by 2 mm
    let mut lifted = BodyState::default();
    lifted.pose.iso.translation.vector.z = 2.0;
    let mut pt = PatchPairTracker::new(TrackerConfig::default(), [0.5, 0.5], [0.5, 0.5]).unwrap();
    assert_eq!(
        pt.update(&p, &body, &p, &spinning, 1e-3),
        Err(TrackError::NonFinite("twist"))
    );
    let mut bad = lifted;
    bad.pose.iso.translation.vector.x = f64::NAN;
    assert_eq!(pt.update(&p, &body, &p, &bad, 1e-3), Err(TrackError::NonFinite("pose")));
    let q = UnitQuaternion::new_unchecked(Quaternion::new(2.0, 0.0, 0.0, 0.0));
    let non_rigid = BodyState::at(Pose {
        iso: Isometry3::from_parts(Translation3::identity(), q),
    });
    assert_eq!(pt.update(&p, &non_rigid, &p, &lifted, 1e-3), Err(TrackError::NotRigid));
    for dt in [f64::NAN, -1e-3, f64::INFINITY] {
        assert_eq!(pt.update(&p, &body, &p, &lifted, dt), Err(TrackError::NonFinite("dt")));
    }
    for _ in 0..5 {
        pt.update(&p, &body, &p, &lifted, 1e-3).unwrap();
    }
    let w = pt.update(&p, &body, &p, &lifted, 1e-3).unwrap();
    assert!((w.distance - 2.0).abs() < 1e-9, "{}", w.distance);
}

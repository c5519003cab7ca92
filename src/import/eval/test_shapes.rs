//! Test shapes shared by the evaluation tests: a skew frame and one surface
//! of every kind with a closed-form parameterisation (plane, cylinder, cone,
//! sphere, torus, revolution, extrusion, offset) on it.

use crate::geom::{Frame, Vec3};
use crate::import::model::{Curve, Surface};

/// A frame with a skew axis away from the origin.
pub(super) fn frame() -> Frame {
    Frame::from_axis_ref(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.2, 1.0), Some(Vec3::x())).unwrap()
}

/// One surface of each analytic kind (and revolution, extrusion, offset).
pub(super) fn surfaces() -> Vec<Surface> {
    let f = frame();
    let circle = Curve::Circle {
        frame: Frame::from_axis_ref(Vec3::new(5.0, 0.0, 0.0), Vec3::y(), Some(Vec3::x())).unwrap(),
        radius: 1.5,
    };
    vec![
        Surface::Plane { frame: f },
        Surface::Cylinder { frame: f, radius: 2.0 },
        Surface::Cone {
            frame: f,
            radius: 2.0,
            semi_angle: 0.4,
        },
        Surface::Sphere { frame: f, radius: 3.0 },
        Surface::Torus {
            frame: f,
            major: 5.0,
            minor: 1.5,
        },
        Surface::Revolution {
            profile: Box::new(circle.clone()),
            axis_origin: Vec3::zeros(),
            axis_dir: Vec3::z(),
        },
        Surface::Extrusion {
            profile: Box::new(circle),
            direction: Vec3::new(0.0, 0.6, 0.8),
        },
        Surface::Offset {
            basis: Box::new(Surface::Sphere { frame: f, radius: 3.0 }),
            distance: 0.5,
        },
    ]
}

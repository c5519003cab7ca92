//! # extrack
//!
//! Exact, real-time extremal-distance tracking on NURBS CAD models: closest
//! points, signed distance (penetration depth) and contact normal between a
//! moving point or body and a CAD body, computed directly on the parametric
//! surfaces with the feedback-stabilised trackers of the papers PG-2002,
//! PG-2004, PG-2005, PG-GUAS and NJC-1999 (see `docs/architecture.md`).
//!
//! Cargo features: `toolchain` (default) adds the offline stages
//! [`import`](crate#import), [`prepare`](crate#prepare) and
//! [`export`](crate#export) and the `extrack` command line. Without it
//! (`--no-default-features`) the crate is the runtime for hosts: [`geom`],
//! [`scene`], [`track`] and [`capi`], which load scenes the toolchain wrote.
//! The `reference` feature (for the tests, benches and dev/ probes only; not
//! a supported API) makes the stages' internal modules public and adds the
//! verification code (`geom::fixtures`, `track::brute`, `track::scenarios`,
//! `export::compare`).
//!
//! ## The public API, by stage
//!
//! The pipeline is `import` → `prepare` → [`scene`] → [`track`]; [`capi`] is
//! the C ABI over them. Each stage exports its entry points and the types in
//! their signatures at the stage level.
//!
//! ### `geom`
//!
//! [`geom::NurbsSurface`], [`geom::NurbsCurve`] (exact evaluation with
//! derivatives: [`geom::SurfacePoint`], [`geom::CurvePoint`]), rigid motion
//! ([`geom::Pose`], [`geom::Twist`], [`geom::Frame`]), [`geom::Vec3`],
//! [`geom::GeomError`].
//!
//! ```
//! use extrack::geom::{Pose, Twist, Vec3};
//! let pose = Pose::from_translation_axis_angle(Vec3::new(1.0, 0.0, 0.0), Vec3::zeros());
//! assert_eq!(pose.transform_point(&Vec3::new(0.0, 2.0, 0.0)), Vec3::new(1.0, 2.0, 0.0));
//! assert_eq!(Twist::zero().velocity_at(&Vec3::x()), Vec3::zeros());
//! ```
//!
//! ### `import`
//!
//! `import::import_file`, `import::import_bytes`, `import::read_step`,
//! `import::read_iges`, `import::sniff` into an `import::Model` (bodies,
//! shells, faces, loops, edges with their exact surfaces and curves);
//! `import::ImportError`, `import::InspectReport`.
//!
//! ```no_run
//! # #[cfg(feature = "toolchain")] {
//! let model = extrack::import::import_file("fixtures/holed_plate.step").unwrap();
//! println!("{} bodies", model.bodies.len());
//! # }
//! ```
//!
//! ### `prepare`
//!
//! `prepare::prepare` / `prepare::prepare_with_stats` turn a model into a
//! [`scene::SceneData`] of convex rational Bézier pieces;
//! `prepare::PrepareOptions`, `prepare::PrepareStats`,
//! `prepare::PrepareError`.
//!
//! ```no_run
//! # #[cfg(feature = "toolchain")] {
//! use extrack::prepare::{prepare, PrepareOptions};
//! let model = extrack::import::import_file("fixtures/ellipsoid.step").unwrap();
//! let scene = prepare(&model, &PrepareOptions::default()).unwrap();
//! std::fs::write("ellipsoid.exs", scene.write()).unwrap();
//! # }
//! ```
//!
//! ### `scene`
//!
//! The `.exs` scene format: [`scene::SceneData`] (owned, written by
//! [`SceneData::write`](scene::SceneData::write)), [`scene::SceneView`]
//! (zero-copy validated reader) over [`scene::SceneFile`] /
//! [`scene::AlignedBytes`], the packed container ([`scene::packed::pack`],
//! [`scene::packed::unpack`]), the file records ([`scene::records`]),
//! [`scene::dump()`], [`scene::SceneError`].
//!
//! ```
//! use extrack::scene::{packed, SceneData, SceneView};
//! let packed = packed::pack(&SceneData::default().write(), packed::DEFAULT_LEVEL).unwrap();
//! let bytes = packed::unpack(&packed).unwrap();
//! let view = SceneView::from_bytes(bytes.as_bytes()).unwrap();
//! assert_eq!(view.pieces().len(), 0);
//! ```
//!
//! ### `track`
//!
//! [`track::TrackScene`] (the runtime scene) and the queries on it: cold
//! [`track::closest_point`] / [`track::body_distance`], the trackers
//! [`track::PointBodyTracker`], [`track::BodyPairTracker`],
//! [`track::PointPatchTracker`], [`track::PatchPairTracker`], the curve
//! trackers, the [`track::HapticCoupler`]; their configuration
//! ([`track::TrackerConfig`], [`track::ControlLaw`], [`track::Integrator`],
//! gain bounds in [`track::gains`]) and motion states ([`track::PointState`],
//! [`track::BodyState`]).
//!
//! ```no_run
//! use extrack::geom::{Pose, Vec3};
//! use extrack::scene::SceneFile;
//! use extrack::track::{closest_point, Target, TrackScene};
//! let file = SceneFile::open("ellipsoid.exs").unwrap();
//! let scene = TrackScene::new(&file.view()).unwrap();
//! let r = closest_point(&scene, &Target::All { pose: Pose::identity() }, Vec3::new(0.0, 0.0, 10.0)).unwrap();
//! println!("distance {} at {:?}", r.distance, r.point);
//! ```
//!
//! ### `export`
//!
//! `export::write_model` (or `export::write_step`, `export::write_iges`
//! with their options) writes a model back to STEP or IGES;
//! `export::write_scene` writes a scene's pieces; `export::Format`,
//! `export::Written`, `export::ExportError`.
//!
//! ```no_run
//! # #[cfg(feature = "toolchain")] {
//! use extrack::export::{write_model, Format};
//! let model = extrack::import::import_file("fixtures/holed_plate.step").unwrap();
//! std::fs::write("plate.igs", write_model(&model, Format::Iges).unwrap().bytes).unwrap();
//! # }
//! ```
//!
//! ### `capi`
//!
//! The C ABI (`include/extrack.h`): `ext_*` functions and `#[repr(C)]`
//! types, all at [`capi`]'s top level.
//!
//! ```
//! assert_eq!(extrack::capi::ext_abi_version(), extrack::capi::EXT_ABI_VERSION);
//! ```

#![warn(missing_docs)]
// Numeric kernels index several arrays in lock-step, as the equations do.
#![allow(clippy::needless_range_loop)]
// `!(x > tol)` deliberately treats NaN as failing the test.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

#[cfg(feature = "toolchain")]
pub mod batch;

/// Declares a stage's internal module: `pub` with the `reference` feature
/// (for the integration tests, benches and dev/ probes), `pub(crate)`
/// otherwise. `internal! { mod a; mod b; }`; attributes (`#[cfg(..)]`, docs)
/// before a `mod` are kept.
macro_rules! internal {
    ($($(#[$attr:meta])* mod $name:ident;)*) => {
        $(
            $(#[$attr])*
            #[cfg(feature = "reference")]
            pub mod $name;
            $(#[$attr])*
            #[cfg(not(feature = "reference"))]
            // What only the tests use is unused here.
            #[allow(dead_code, unused_imports)]
            pub(crate) mod $name;
        )*
    };
}

pub mod capi;
#[cfg(feature = "toolchain")]
mod cli;
#[cfg(feature = "toolchain")]
pub mod export;
pub mod geom;
#[cfg(feature = "toolchain")]
pub mod import;
#[cfg(feature = "toolchain")]
pub mod prepare;
pub mod scene;
pub mod track;
#[cfg(feature = "toolchain")]
pub mod verify;

// The Python extension module `extrack._extrack` (built by maturin).
#[cfg(feature = "python")]
mod python;

/// The `extrack` command line (`src/main.rs` calls it); not library API.
#[cfg(feature = "toolchain")]
#[doc(hidden)]
pub fn __cli_main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

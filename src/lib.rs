//! # extrack
//!
//! Exact, real-time extremal-distance tracking on NURBS CAD models: closest
//! points, signed distance (penetration depth) and contact normal between a
//! moving point or body and a CAD body, computed directly on the parametric
//! surfaces with the feedback-stabilised trackers of the papers in
//! `../shared/seeds/` (PG-2002, PG-2004, PG-2005, PG-GUAS, NJC-1999).
//!
//! Modules follow the pipeline: `import` → `prepare` → [`scene`] → [`track`];
//! [`capi`] is the C ABI over them (`include/extrack.h`).
//!
//! Cargo features: `toolchain` (default) adds the offline modules `import`,
//! `prepare` and `export` and the `extrack` command line. Without it
//! (`--no-default-features`) the crate is the runtime for hosts: [`geom`],
//! [`scene`], [`track`] and [`capi`], which load scenes the toolchain wrote.

#![warn(missing_docs)]
// Numeric kernels index several arrays in lock-step, as the equations do.
#![allow(clippy::needless_range_loop)]
// `!(x > tol)` deliberately treats NaN as failing the test.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

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

/// The `extrack` command line (`src/main.rs` calls it); not library API.
#[cfg(feature = "toolchain")]
#[doc(hidden)]
pub fn __cli_main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

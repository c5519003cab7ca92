//! The C ABI: `extern "C"` shims over the Rust API, declared in
//! `include/extrack.h` (generated from this module by a pinned cbindgen, see
//! `cbindgen.toml`; `tests/capi_header.rs` fails when the header is stale).
//!
//! Conventions of every entry point (as in rustls-ffi and wasmtime's C API):
//! - prefix `ext_`; opaque handles made by `ext_*_new` / `ext_scene_*` and
//!   released by `ext_*_free`;
//! - arguments ordered object, inputs, outputs;
//! - every fallible function returns an [`ext_status`] and
//!   writes its outputs only on success; the message of a failure is copied
//!   into a caller buffer by `ext_last_error_message` (thread-local);
//! - NULL pointers and non-finite numbers are rejected with a status;
//! - a `catch_unwind` panic boundary on every entry point (a panic out of an
//!   `extern "C"` function would abort the host);
//! - threading: a scene is immutable and may be shared by any number of
//!   threads; a tracker (point or pair) or coupler belongs to one thread at a time.
//!
//! Only this module (and the scene view's memory map) contains `unsafe`.

mod batch;
mod coupler;
mod error;
mod pair;
mod scene;
mod tracker;
mod types;
mod version;

pub use batch::*;
pub use coupler::*;
pub use error::*;
pub use pair::*;
pub use scene::*;
pub use tracker::*;
pub use types::*;
pub use version::*;

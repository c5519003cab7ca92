//! The C ABI: called from Rust (point and pair functions), the checked-in header, and the C hosts.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/capi/`
//! (insta snapshots in `tests/capi/snapshots/`, proptest regressions next to their source).

#[path = "capi/capi_api.rs"]
mod capi_api;
#[path = "capi/capi_header.rs"]
mod capi_header;
#[path = "capi/capi_header_macros.rs"]
mod capi_header_macros;
#[path = "capi/capi_host.rs"]
mod capi_host;
#[path = "capi/capi_pair.rs"]
mod capi_pair;
#[path = "common/checks.rs"]
mod checks;
#[path = "capi/cpp_host.rs"]
mod cpp_host;
#[path = "capi/host_build.rs"]
mod host_build;

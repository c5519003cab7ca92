//! Library and ABI version: macros in the header and run-time queries.
//!
//! The macros are literals (cbindgen copies them into `extrack.h`); a unit test
//! checks they equal Cargo.toml's version, and `tests/capi_header.rs` checks
//! the header's copy.

use std::ffi::c_char;

/// Major version of the library this header belongs to.
pub const EXT_VERSION_MAJOR: u32 = 0;
/// Minor version of the library this header belongs to.
pub const EXT_VERSION_MINOR: u32 = 1;
/// Patch version of the library this header belongs to.
pub const EXT_VERSION_PATCH: u32 = 0;
/// The library version `"MAJOR.MINOR.PATCH"` with its NUL, returned by
/// `ext_version` (the header's `EXT_VERSION` string macro is built from the
/// three numbers above by the preprocessor, see `cbindgen.toml`).
const VERSION_C: &std::ffi::CStr = c"0.1.0";
/// Version of the C ABI described by this header. It changes whenever a
/// function signature, a struct layout or an enum value changes; a host
/// compares it with `ext_abi_version()` at start-up.
pub const EXT_ABI_VERSION: u32 = 2;

/// The library version as a static NUL-terminated string `"MAJOR.MINOR.PATCH"`
/// (equal to the `EXT_VERSION` macro of the header the library was built with).
///
/// Ownership: static storage; never free it.
///
/// Thread safety: callable from any thread.
#[no_mangle]
pub extern "C" fn ext_version() -> *const c_char {
    VERSION_C.as_ptr()
}

/// The library version as one number, `MAJOR * 10000 + MINOR * 100 + PATCH`.
///
/// Thread safety: callable from any thread.
#[no_mangle]
pub extern "C" fn ext_version_number() -> u32 {
    EXT_VERSION_MAJOR * 10_000 + EXT_VERSION_MINOR * 100 + EXT_VERSION_PATCH
}

/// The C ABI version of the library (compare with `EXT_ABI_VERSION` of the
/// header the host was compiled with; they must be equal).
///
/// Thread safety: callable from any thread.
#[no_mangle]
pub extern "C" fn ext_abi_version() -> u32 {
    EXT_ABI_VERSION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_macros_equal_cargo_version() {
        assert_eq!(EXT_VERSION_MAJOR.to_string(), env!("CARGO_PKG_VERSION_MAJOR"));
        assert_eq!(EXT_VERSION_MINOR.to_string(), env!("CARGO_PKG_VERSION_MINOR"));
        assert_eq!(EXT_VERSION_PATCH.to_string(), env!("CARGO_PKG_VERSION_PATCH"));
        assert_eq!(VERSION_C.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
        let s = unsafe { std::ffi::CStr::from_ptr(ext_version()) };
        assert_eq!(s.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
        let major: u32 = env!("CARGO_PKG_VERSION_MAJOR").parse().unwrap();
        let minor: u32 = env!("CARGO_PKG_VERSION_MINOR").parse().unwrap();
        let patch: u32 = env!("CARGO_PKG_VERSION_PATCH").parse().unwrap();
        assert_eq!(ext_version_number(), major * 10_000 + minor * 100 + patch);
        assert_eq!(ext_abi_version(), EXT_ABI_VERSION);
    }
}

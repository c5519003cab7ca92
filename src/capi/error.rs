//! Status codes, the thread-local error message and the panic boundary.
//!
//! Every fallible entry point returns an [`ext_status`]. On failure it writes
//! none of its outputs and stores a one-line message in a thread-local slot,
//! which the caller copies out with [`ext_last_error_message`] into a buffer it
//! owns. Every entry point runs its body inside [`guard`], a `catch_unwind`
//! boundary: a Rust panic becomes [`ext_status::EXT_PANIC`], never an abort of
//! the host process.

use std::cell::RefCell;
use std::ffi::c_char;
use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Result code of every fallible `ext_` function. `EXT_OK` (0) is success;
/// on any other code the function wrote none of its outputs and
/// `ext_last_error_message` holds the reason.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ext_status {
    /// Success.
    EXT_OK = 0,
    /// A required pointer argument was NULL.
    EXT_NULL_POINTER = 1,
    /// An argument is out of range: a non-finite number, a non-positive time
    /// step, a non-rigid pose, an unknown enum value, a bad configuration.
    EXT_INVALID_ARGUMENT = 2,
    /// A file could not be read (missing, unreadable, not mappable).
    EXT_IO = 3,
    /// The bytes are not a valid extrack scene (.exs): bad magic, version,
    /// checksum, layout or record.
    EXT_INVALID_SCENE = 4,
    /// The STEP or IGES importer rejected the file.
    EXT_IMPORT = 5,
    /// The offline stage could not prepare the imported model.
    EXT_PREPARE = 6,
    /// A body index is not in the scene (see `ext_scene_body_count`).
    EXT_NO_SUCH_BODY = 7,
    /// The tracker or query could not answer (degenerate geometry at the
    /// witness, a body without pieces); the object stays usable.
    EXT_TRACKING = 8,
    /// A caller-supplied buffer is too small; nothing was written.
    EXT_BUFFER_TOO_SMALL = 9,
    /// A string argument is not valid UTF-8 where UTF-8 is required.
    EXT_INVALID_STRING = 10,
    /// An internal error (a Rust panic) was caught at the boundary. A tracker
    /// or coupler the call worked on is poisoned: every later call on it
    /// returns `EXT_PANIC`; free it and create a new one. A scene is immutable
    /// and stays valid.
    EXT_PANIC = 11,
}

/// A failure on its way to the boundary: the status and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub status: ext_status,
    pub message: String,
}

impl Failure {
    /// A failure with `status` and `message`.
    pub fn new(status: ext_status, message: impl Display) -> Self {
        Self {
            status,
            message: message.to_string(),
        }
    }
    /// `EXT_NULL_POINTER` naming the argument.
    pub fn null(arg: &str) -> Self {
        Self::new(ext_status::EXT_NULL_POINTER, format_args!("argument `{arg}` is NULL"))
    }
    /// `EXT_INVALID_ARGUMENT`.
    pub fn invalid(message: impl Display) -> Self {
        Self::new(ext_status::EXT_INVALID_ARGUMENT, message)
    }
}

/// Result type of the shims.
pub(crate) type CResult<T = ()> = Result<T, Failure>;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Stores `message` as this thread's last error.
pub(crate) fn set_last_error(message: &str) {
    LAST_ERROR.with(|m| {
        if let Ok(mut m) = m.try_borrow_mut() {
            m.clear();
            m.push_str(message);
        }
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "unknown panic payload"
    }
}

/// Runs `body` behind the panic boundary: `Ok` → `EXT_OK`; `Err` → its status
/// with the message stored; a panic → `EXT_PANIC` with the panic message stored.
#[inline]
pub(crate) fn guard(body: impl FnOnce() -> CResult) -> ext_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => ext_status::EXT_OK,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(payload) => {
            set_last_error(&format!(
                "internal error (panic caught at the C boundary): {}",
                panic_message(&*payload)
            ));
            ext_status::EXT_PANIC
        }
    }
}

/// Copies the message of the most recent failed `ext_` call **on the calling
/// thread** into `buf` as a NUL-terminated UTF-8 string, truncated to
/// `len - 1` bytes (at a character boundary) when longer. Returns the full
/// length of the message in bytes, without the NUL (like `snprintf`): a return
/// value `>= len` means the message was truncated. Returns 0 (and writes an
/// empty string when `len > 0`) when no call on this thread has failed yet.
/// A successful call does not clear the message.
///
/// Ownership: `buf` is owned by the caller and written only during the call;
/// `buf` may be NULL when `len` is 0 (length query).
///
/// Thread safety: the message is thread-local; any thread may call this at
/// any time.
///
/// # Safety
/// `buf` must be NULL or point to at least `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn ext_last_error_message(buf: *mut c_char, len: usize) -> usize {
    catch_unwind(|| {
        LAST_ERROR.with(|m| {
            let m = match m.try_borrow() {
                Ok(m) => m,
                Err(_) => return 0,
            };
            if !buf.is_null() && len > 0 {
                let mut n = m.len().min(len - 1);
                while !m.is_char_boundary(n) {
                    n -= 1;
                }
                // SAFETY: the caller guarantees `len` writable bytes at `buf`;
                // `n + 1 <= len`, and the source is a live Rust string.
                unsafe {
                    std::ptr::copy_nonoverlapping(m.as_ptr(), buf.cast::<u8>(), n);
                    *buf.add(n) = 0;
                }
            }
            m.len()
        })
    })
    .unwrap_or(0)
}

/// A static, NUL-terminated, English name of `status` (e.g. `"EXT_IO"`), or
/// `"EXT_UNKNOWN_STATUS"` for a value that is not a status.
///
/// Ownership: the returned string is static; never free it.
///
/// Thread safety: callable from any thread.
#[no_mangle]
pub extern "C" fn ext_status_name(status: u32) -> *const c_char {
    let s: &'static std::ffi::CStr = match status {
        0 => c"EXT_OK",
        1 => c"EXT_NULL_POINTER",
        2 => c"EXT_INVALID_ARGUMENT",
        3 => c"EXT_IO",
        4 => c"EXT_INVALID_SCENE",
        5 => c"EXT_IMPORT",
        6 => c"EXT_PREPARE",
        7 => c"EXT_NO_SUCH_BODY",
        8 => c"EXT_TRACKING",
        9 => c"EXT_BUFFER_TOO_SMALL",
        10 => c"EXT_INVALID_STRING",
        11 => c"EXT_PANIC",
        _ => c"EXT_UNKNOWN_STATUS",
    };
    s.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message() -> String {
        let mut buf = [0 as c_char; 256];
        // SAFETY: buf has 256 bytes.
        let n = unsafe { ext_last_error_message(buf.as_mut_ptr(), buf.len()) };
        let s = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(n, s.len());
        s
    }

    #[test]
    fn failure_sets_status_and_message() {
        let st = guard(|| Err(Failure::invalid("dt must be > 0")));
        assert_eq!(st, ext_status::EXT_INVALID_ARGUMENT);
        assert_eq!(message(), "dt must be > 0");
        // success keeps the previous message
        assert_eq!(guard(|| Ok(())), ext_status::EXT_OK);
        assert_eq!(message(), "dt must be > 0");
    }

    #[test]
    fn panic_is_caught_and_reported() {
        let st = guard(|| panic!("boom {}", 42));
        assert_eq!(st, ext_status::EXT_PANIC);
        let m = message();
        assert!(m.contains("boom 42"), "{m}");
    }

    #[test]
    fn truncation_at_char_boundary_and_length_query() {
        set_last_error("héllo wörld");
        let full = "héllo wörld".len();
        // length query
        assert_eq!(unsafe { ext_last_error_message(std::ptr::null_mut(), 0) }, full);
        let mut buf = [0x55 as c_char; 3];
        // "hé" is 3 bytes; with len 3 only 2 fit → "h" (é would be cut)
        let n = unsafe { ext_last_error_message(buf.as_mut_ptr(), buf.len()) };
        assert_eq!(n, full);
        let s = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
        assert_eq!(s, "h");
    }

    #[test]
    fn messages_are_per_thread() {
        set_last_error("main thread");
        std::thread::spawn(|| {
            assert_eq!(unsafe { ext_last_error_message(std::ptr::null_mut(), 0) }, 0);
            set_last_error("other");
        })
        .join()
        .unwrap();
        assert_eq!(message(), "main thread");
    }

    #[test]
    fn status_names_match_codes() {
        for (code, name) in [
            (ext_status::EXT_OK, "EXT_OK"),
            (ext_status::EXT_NULL_POINTER, "EXT_NULL_POINTER"),
            (ext_status::EXT_INVALID_ARGUMENT, "EXT_INVALID_ARGUMENT"),
            (ext_status::EXT_IO, "EXT_IO"),
            (ext_status::EXT_INVALID_SCENE, "EXT_INVALID_SCENE"),
            (ext_status::EXT_IMPORT, "EXT_IMPORT"),
            (ext_status::EXT_PREPARE, "EXT_PREPARE"),
            (ext_status::EXT_NO_SUCH_BODY, "EXT_NO_SUCH_BODY"),
            (ext_status::EXT_TRACKING, "EXT_TRACKING"),
            (ext_status::EXT_BUFFER_TOO_SMALL, "EXT_BUFFER_TOO_SMALL"),
            (ext_status::EXT_INVALID_STRING, "EXT_INVALID_STRING"),
            (ext_status::EXT_PANIC, "EXT_PANIC"),
        ] {
            let s = unsafe { std::ffi::CStr::from_ptr(ext_status_name(code as u32)) };
            assert_eq!(s.to_str().unwrap(), name);
        }
        let s = unsafe { std::ffi::CStr::from_ptr(ext_status_name(99)) };
        assert_eq!(s.to_str().unwrap(), "EXT_UNKNOWN_STATUS");
    }
}

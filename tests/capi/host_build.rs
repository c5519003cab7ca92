//! Building and running the C and C++ hosts of the C ABI tests: finding a
//! compiler and valgrind, compiling a host against `include/` and the
//! `cdylib` cargo built for this test binary, running it, and running it under
//! valgrind memcheck. Shared by `capi_host.rs` (C) and `cpp_host.rs` (C++).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The crate's root directory.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding the `libextrack` cargo built alongside this test
/// (`target/<profile>/deps`).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_path_buf();
    let so = dir.join(format!(
        "{}extrack{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(so.exists(), "{} not built (crate-type cdylib)", so.display());
    dir
}

/// A working compiler: `$<var>` or `default` (`cc`, `g++`); `None` with a
/// skip message when there is none.
pub fn compiler(var: &str, default: &str) -> Option<String> {
    let exe = std::env::var(var).unwrap_or_else(|_| default.into());
    if tool_runs(&exe) {
        Some(exe)
    } else {
        println!("SKIP: no compiler ${var} ({exe}); host tests skipped");
        None
    }
}

/// Whether valgrind is installed (a skip message when it is not).
pub fn has_valgrind() -> bool {
    let ok = tool_runs("valgrind");
    if !ok {
        println!("SKIP: valgrind not installed; memory checks of the hosts skipped");
    }
    ok
}

fn tool_runs(exe: &str) -> bool {
    Command::new(exe)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Compiles `source` (relative to the root) with `compiler` in language
/// standard `std` (`c11`, `c++17`), warnings as errors, with `include/` and
/// `extra_includes` on the include path, into `dir/<name>`, linked to the
/// cdylib with an rpath.
pub fn compile(compiler: &str, std: &str, source: &str, extra_includes: &[&str], dir: &Path, name: &str) -> PathBuf {
    let exe = dir.join(name);
    let lib = lib_dir();
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(["-O2", "-g", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(root().join("include"));
    for inc in extra_includes {
        cmd.arg("-I").arg(root().join(inc));
    }
    let out = cmd
        .arg(root().join(source))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .args(["-lextrack", "-lpthread", "-lm"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "compiling {source} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Runs `cmd`, fails unless it exits 0, and returns its stdout and stderr.
pub fn run(cmd: &mut Command) -> (String, String) {
    // cargo puts `target/<profile>` before `deps` in LD_LIBRARY_PATH, which
    // would override the hosts' rpath with a stale `libextrack.so` that an
    // earlier `cargo build` left there
    let Output { status, stdout, stderr } = cmd.env_remove("LD_LIBRARY_PATH").output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    );
    assert!(
        status.success(),
        "{cmd:?} failed ({status}):\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// Runs `exe args…` under valgrind memcheck; fails on any invalid access or
/// definite / indirect leak. Returns the program's stdout and valgrind's
/// stderr.
pub fn valgrind(exe: &Path, args: &[&Path]) -> (String, String) {
    let mut cmd = Command::new("valgrind");
    cmd.args([
        "--error-exitcode=99",
        "--leak-check=full",
        "--show-leak-kinds=definite,indirect",
        "--errors-for-leak-kinds=definite,indirect",
        "--track-origins=yes",
    ])
    .arg(exe)
    .args(args);
    let (stdout, stderr) = run(&mut cmd);
    assert!(stderr.contains("ERROR SUMMARY: 0 errors"), "valgrind:\n{stderr}");
    assert!(
        stderr.contains("definitely lost: 0 bytes") || stderr.contains("All heap blocks were freed"),
        "valgrind:\n{stderr}"
    );
    (stdout, stderr)
}

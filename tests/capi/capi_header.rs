//! The checked-in C header `include/extrack.h` is what the pinned cbindgen
//! generates from `src/capi/` today, and its version macros equal Cargo.toml's.
//!
//! The staleness test needs cbindgen 0.29.4 (`cargo install cbindgen --version
//! 0.29.4 --locked`; `.ci/run` installs it). Without it the test prints a skip
//! message, unless `EXTRACK_REQUIRE_CBINDGEN=1` (set by `.ci/run`) makes that a
//! failure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cbindgen version `cbindgen.toml` and `.ci/run` pin.
const CBINDGEN_VERSION: &str = "0.29.4";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn header() -> String {
    std::fs::read_to_string(root().join("include/extrack.h")).expect("include/extrack.h is checked in")
}

/// The pinned cbindgen: `$CBINDGEN`, then `~/.cargo/bin/cbindgen`, then `PATH`.
fn cbindgen() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(p) = std::env::var_os("CBINDGEN") {
        candidates.push(PathBuf::from(p));
    }
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        candidates.push(Path::new(&home).join("bin/cbindgen"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        candidates.push(Path::new(&home).join(".cargo/bin/cbindgen"));
    }
    candidates.push(PathBuf::from("cbindgen"));
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .map(|o| {
                o.status.success()
                    && String::from_utf8_lossy(&o.stdout).trim() == format!("cbindgen {CBINDGEN_VERSION}")
            })
            .unwrap_or(false)
    })
}

#[test]
fn checked_in_header_is_not_stale() {
    let Some(bin) = cbindgen() else {
        let msg = format!(
            "cbindgen {CBINDGEN_VERSION} not found (cargo install cbindgen --version {CBINDGEN_VERSION} --locked)"
        );
        if std::env::var_os("EXTRACK_REQUIRE_CBINDGEN").is_some_and(|v| v == "1") {
            panic!("{msg}, and EXTRACK_REQUIRE_CBINDGEN=1");
        }
        println!("SKIP: {msg}; header staleness not checked");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("extrack.h");
    let out = Command::new(&bin)
        .current_dir(root())
        .args(["--config", "cbindgen.toml", "--quiet", "--output"])
        .arg(&fresh)
        .arg("src/capi/mod.rs")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cbindgen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh = std::fs::read_to_string(&fresh).unwrap();
    let checked_in = header();
    if fresh != checked_in {
        let first = fresh
            .lines()
            .zip(checked_in.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| fresh.lines().count().min(checked_in.lines().count()));
        panic!(
            "include/extrack.h is stale (first difference at line {}): regenerate with\n  \
             cbindgen --config cbindgen.toml --output include/extrack.h src/capi/mod.rs",
            first + 1
        );
    }
}

fn define(h: &str, name: &str) -> Option<String> {
    h.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("#define ")?;
        let (n, v) = rest.split_once(char::is_whitespace)?;
        (n == name).then(|| v.trim().to_owned())
    })
}

#[test]
fn header_version_macros_equal_cargo_version() {
    let h = header();
    assert_eq!(
        define(&h, "EXT_VERSION_MAJOR").as_deref(),
        Some(env!("CARGO_PKG_VERSION_MAJOR"))
    );
    assert_eq!(
        define(&h, "EXT_VERSION_MINOR").as_deref(),
        Some(env!("CARGO_PKG_VERSION_MINOR"))
    );
    assert_eq!(
        define(&h, "EXT_VERSION_PATCH").as_deref(),
        Some(env!("CARGO_PKG_VERSION_PATCH"))
    );
    let abi: u32 = define(&h, "EXT_ABI_VERSION").unwrap().parse().unwrap();
    assert_eq!(abi, extrack::capi::ext_abi_version());
    // the library agrees at run time
    let v = unsafe { std::ffi::CStr::from_ptr(extrack::capi::ext_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn every_exported_function_is_declared_and_documented() {
    let h = header();
    // every `#[no_mangle]` function of src/capi appears in the header, preceded by a doc comment
    let mut names = Vec::new();
    for entry in std::fs::read_dir(root().join("src/capi")).unwrap() {
        let src = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut lines = src.lines();
        while let Some(l) = lines.next() {
            if l.trim() == "#[no_mangle]" {
                let sig = lines.next().unwrap_or("");
                let name = sig.split("fn ").nth(1).and_then(|s| s.split('(').next()).unwrap_or("");
                names.push(name.to_owned());
            }
        }
    }
    assert!(names.len() >= 10, "{names:?}");
    for n in &names {
        let pat = format!("{n}(");
        let lines: Vec<&str> = h.lines().collect();
        let decl = lines
            .iter()
            .position(|l| {
                let t = l.trim_start();
                !(t.starts_with("/*") || t.starts_with('*') || t.starts_with("//"))
                    && l.match_indices(&pat)
                        .any(|(i, _)| matches!(l.as_bytes().get(i.wrapping_sub(1)), Some(b' ' | b'*')))
            })
            .unwrap_or_else(|| panic!("{n} is not declared in the header"));
        let doc_end = lines[..decl].join("\n");
        let doc_end = doc_end.trim_end();
        assert!(doc_end.ends_with("*/"), "{n} has no doc comment in the header");
        let doc_start = doc_end.rfind("/**").unwrap();
        let doc = &doc_end[doc_start..];
        assert!(doc.contains("Thread safety"), "{n}: doc states no thread safety");
    }
}

/// The header compiles on its own as strict C99 and as C++11 (`extern "C"`),
/// when a C / C++ compiler is installed.
#[test]
fn header_compiles_as_c99_and_cpp() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("use.c");
    std::fs::write(
        &src,
        "#include \"extrack.h\"\nint main(void) { ext_vec3 v = {0, 0, 0}; (void)v; \
         return ext_abi_version() == EXT_ABI_VERSION ? 0 : 1; }\n",
    )
    .unwrap();
    let include = root().join("include");
    for (compiler, std) in [("cc", "-std=c99"), ("c++", "-std=c++11")] {
        let ok = Command::new(compiler)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if !ok {
            println!("SKIP: {compiler} not installed; header not compiled as {std}");
            continue;
        }
        let mut cmd = Command::new(compiler);
        if compiler == "c++" {
            cmd.args(["-x", "c++"]);
        }
        let out = cmd
            .args([std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I"])
            .arg(&include)
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{compiler} {std}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

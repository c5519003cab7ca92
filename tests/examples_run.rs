//! The examples for users run: each Rust example of `examples/` once (built
//! with `cargo build --release --examples`, then run from
//! `target/release/examples/`), and the C example `examples/c/haptic_loop.c`
//! compiled with the system C compiler against the `cdylib` cargo built for
//! this test, on a scene prepared here.
//!
//! Without a C compiler (`$CC` or `cc`) the C example prints a skip message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>`: the parent of the `deps` directory holding this test.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

fn check(cmd: &mut Command) -> String {
    // cargo puts `target/<profile>` first in LD_LIBRARY_PATH (see tests/capi_host.rs)
    let Output { status, stdout, stderr } = cmd.env_remove("LD_LIBRARY_PATH").output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&stdout), String::from_utf8_lossy(&stderr));
    assert!(status.success(), "{cmd:?} failed ({status}):\n{stdout}\n{stderr}");
    stdout.into_owned()
}

#[test]
fn rust_examples_run() {
    // the same profile as this test, into the same target directory
    let release = profile_dir().file_name().is_some_and(|n| n == "release");
    let mut build = Command::new(env!("CARGO"));
    build
        .current_dir(root())
        .args(["build", "--examples", "--quiet"])
        .args(release.then_some("--release"));
    if std::env::var_os("CARGO_TARGET_DIR").is_none() {
        build.env("CARGO_TARGET_DIR", profile_dir().parent().unwrap());
    }
    check(&mut build);
    let examples = profile_dir().join("examples");
    for (name, expect) in [
        ("query_step", "distance"),
        ("track_path", "mean coherent update"),
        ("body_pair", "penetration"),
    ] {
        let out = check(&mut Command::new(examples.join(name)));
        assert!(out.contains(expect), "{name}: no `{expect}` in\n{out}");
        assert!(!out.contains("NaN"), "{name}:\n{out}");
    }
}

fn cc() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let ok = Command::new(&cc)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        println!("SKIP: no C compiler ({cc}); examples/c/haptic_loop.c not run");
    }
    ok.then_some(cc)
}

/// Writes the prepared scene of `fixtures/<model>` into `dir`.
fn scene_file(model: &str, dir: &Path) -> PathBuf {
    let m = extrack::import::import_file(root().join("fixtures").join(model)).unwrap();
    let data = extrack::prepare::prepare(&m, &extrack::prepare::PrepareOptions::default()).unwrap();
    let path = dir.join(format!("{model}.exs"));
    std::fs::write(&path, data.write()).unwrap();
    path
}

#[test]
fn c_haptic_loop_runs() {
    let Some(cc) = cc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let lib = profile_dir().join("deps");
    let exe = dir.path().join("haptic_loop");
    check(
        Command::new(&cc)
            .args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(root().join("include"))
            .arg(root().join("examples/c/haptic_loop.c"))
            .arg("-o")
            .arg(&exe)
            .arg("-L")
            .arg(&lib)
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .args(["-lextrack", "-lm"]),
    );
    let scene = scene_file("holed_plate.step", dir.path());
    let out = check(Command::new(&exe).arg(&scene).arg("2000"));
    assert!(out.contains("ticks 2000"), "{out}");
    let max_force: f64 = out
        .split("max force ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no max force in\n{out}"));
    assert!(max_force > 0.0 && max_force < 10.0, "{out}");
}

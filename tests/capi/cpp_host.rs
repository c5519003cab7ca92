//! The C++ host of `examples/cpp/`, compiled with g++ -std=c++17 against the
//! header-only wrapper `include/extrack.hpp` and the `cdylib` cargo built for
//! this test, run and its output checked against the Rust API; and the same
//! program under valgrind (the RAII handles leak nothing).
//!
//! Without a C++ compiler (`$CXX` or `g++`) or valgrind the tests print a
//! skip message; `.ci/run` installs both.

use super::host_build::{compiler, has_valgrind, root, run, valgrind};
use std::path::{Path, PathBuf};
use std::process::Command;

fn compile(cxx: &str, dir: &Path) -> PathBuf {
    super::host_build::compile(cxx, "c++17", "examples/cpp/host.cpp", &[], dir, "host")
}

fn value<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

fn line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix}… in\n{out}"))
}

#[test]
fn cpp_host_runs_and_reports_errors_as_exceptions() {
    let Some(cxx) = compiler("CXX", "g++") else { return };
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cxx, dir.path());
    let model = root().join("fixtures/assembly.step");
    let prepared = extrack::batch::prepare_file(&model, &extrack::batch::FileOptions::default()).unwrap();
    let scene = dir.path().join("assembly.exs");
    std::fs::write(&scene, &prepared.bytes).unwrap();
    let (out, _) = run(Command::new(&exe).arg(&model).arg(&scene));

    assert_eq!(line(&out, "version="), format!("version={}", env!("CARGO_PKG_VERSION")));
    let counts = line(&out, "import.bodies=");
    assert_eq!(value(counts, "import.bodies"), prepared.bodies.to_string());
    assert_eq!(value(counts, "load.bodies"), prepared.bodies.to_string());
    assert_eq!(out.lines().filter(|l| l.starts_with("body ")).count(), prepared.bodies);

    // the cold query equals the Rust API's
    let cold = line(&out, "cold ");
    let x: Vec<f64> = value(cold, "x").split(',').map(|v| v.parse().unwrap()).collect();
    let bytes = extrack::scene::AlignedBytes::from_slice(&prepared.bytes);
    let file = extrack::scene::SceneFile::from_file_bytes(bytes.as_bytes()).unwrap();
    let track = extrack::track::TrackScene::new(&file.view()).unwrap();
    let target = extrack::track::Target::Body {
        index: 0,
        pose: extrack::geom::Pose::identity(),
    };
    let r = extrack::track::closest_point(&track, &target, extrack::geom::Vec3::new(x[0], x[1], x[2])).unwrap();
    let d: f64 = value(cold, "d").parse().unwrap();
    assert!((d - r.distance).abs() <= 1e-12 * (1.0 + d), "{d} vs {}", r.distance);
    assert_eq!(value(cold, "face"), r.face.to_string());

    // batch and tracked answers agree with the cold queries
    let batch = line(&out, "batch ");
    assert_eq!(value(batch, "n"), "64");
    assert!(value(batch, "max_diff").parse::<f64>().unwrap() <= 1e-9, "{batch}");
    let track_line = line(&out, "track ");
    assert!(
        value(track_line, "max_diff_cold").parse::<f64>().unwrap() < 1e-6,
        "{track_line}"
    );
    assert!(value(track_line, "min_d").parse::<f64>().unwrap() > 0.0, "{track_line}");
    let pair = line(&out, "pair ");
    let (pd, td): (f64, f64) = (
        value(pair, "d").parse().unwrap(),
        value(pair, "tracked_d").parse().unwrap(),
    );
    assert_eq!(value(pair, "pen"), "0", "{pair}");
    assert!(pd > 0.0 && (pd - td).abs() < 1e-6, "{pair}");

    // every failure is an extrack::Error with the library's message
    for (status, message) in [
        ("EXT_IO", "cannot read /nonexistent/scene.exs"),
        ("EXT_IO", "cannot read /nonexistent/model.step"),
        ("EXT_NO_SUCH_BODY", ""),
        ("EXT_INVALID_ARGUMENT", "`point` has a non-finite component"),
        ("EXT_INVALID_ARGUMENT", "dt = -1"),
        ("EXT_INVALID_ARGUMENT", "`matrix` last row is not 0 0 0 1"),
        ("EXT_INVALID_SCENE", ""),
    ] {
        let want = format!("expected {status}: {message}");
        assert!(out.lines().any(|l| l.starts_with(&want)), "{want:?} missing:\n{out}");
    }
    assert!(!out.contains("UNEXPECTED"), "{out}");
    assert!(
        out.contains("runtime_error: cannot read /nonexistent/scene.exs"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("done"), "{out}");
}

#[test]
fn cpp_host_under_valgrind() {
    let Some(cxx) = compiler("CXX", "g++") else { return };
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cxx, dir.path());
    let model = root().join("fixtures/ellipsoid.step");
    let prepared = extrack::batch::prepare_file(&model, &extrack::batch::FileOptions::default()).unwrap();
    let scene = dir.path().join("ellipsoid.exs");
    std::fs::write(&scene, &prepared.bytes).unwrap();
    let (out, _) = valgrind(&exe, &[&model, &scene]);
    assert_eq!(out.lines().last(), Some("done"), "{out}");
}

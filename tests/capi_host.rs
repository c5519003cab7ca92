//! The C hosts of `tools/c-host/`, compiled with the system C compiler against
//! `include/extrack.h` and the `cdylib` cargo built for this test, run and
//! their output checked; and the same programs under valgrind (no leak, no
//! invalid access).
//!
//! Without a C compiler (`$CC` or `cc`) or valgrind the tests print a skip
//! message; `.ci/run` installs both.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory holding the `libextrack` cargo built alongside this test
/// (`target/<profile>/deps`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_path_buf();
    let so = dir.join(format!("{}extrack{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    assert!(so.exists(), "{} not built (crate-type cdylib)", so.display());
    dir
}

fn cc() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let ok = Command::new(&cc).arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if ok {
        Some(cc)
    } else {
        println!("SKIP: no C compiler ({cc}); C host tests skipped");
        None
    }
}

fn has_valgrind() -> bool {
    let ok = Command::new("valgrind")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        println!("SKIP: valgrind not installed; memory checks of the C hosts skipped");
    }
    ok
}

/// Compiles `tools/c-host/<name>.c` into `dir/<name>`, linked to the cdylib.
fn compile(cc: &str, name: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(name);
    let lib = lib_dir();
    let out = Command::new(cc)
        .args(["-std=c11", "-O2", "-g", "-Wall", "-Wextra", "-Werror", "-pedantic"])
        .arg("-I")
        .arg(root().join("include"))
        .arg("-I")
        .arg(root().join("tools/c-host"))
        .arg(root().join(format!("tools/c-host/{name}.c")))
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
        "compiling {name}.c failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(cmd: &mut Command) -> (String, String) {
    let Output { status, stdout, stderr } = cmd.output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&stdout).into_owned(), String::from_utf8_lossy(&stderr).into_owned());
    assert!(status.success(), "{cmd:?} failed ({status}):\nstdout:\n{stdout}\nstderr:\n{stderr}");
    (stdout, stderr)
}

/// Runs under valgrind memcheck; fails on any invalid access or definite /
/// indirect leak.
fn valgrind(exe: &Path, args: &[&Path]) -> String {
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
    let (_, stderr) = run(&mut cmd);
    assert!(stderr.contains("ERROR SUMMARY: 0 errors"), "valgrind:\n{stderr}");
    assert!(
        stderr.contains("definitely lost: 0 bytes") || stderr.contains("All heap blocks were freed"),
        "valgrind:\n{stderr}"
    );
    stderr
}

/// Writes the prepared scene of `fixtures/<model>` into `dir` and returns its path.
fn scene_file(model: &str, dir: &Path) -> PathBuf {
    let m = extrack::import::import_file(root().join("fixtures").join(model)).unwrap();
    let data = extrack::prepare::prepare(&m, &extrack::prepare::PrepareOptions::default()).unwrap();
    let path = dir.join(format!("{model}.exs"));
    std::fs::write(&path, data.write()).unwrap();
    path
}

fn value<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key}= in\n{out}"))
}

#[test]
fn scene_query_host_lists_bodies_and_reports_errors() {
    let Some(cc) = cc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "scene_query", dir.path());
    let scene = scene_file("assembly.step", dir.path());
    let model = root().join("fixtures/assembly.step");
    let (out, _) = run(Command::new(&exe).arg(&scene).arg(&model));
    assert!(out.contains(&format!("version={} header={} abi=1", env!("CARGO_PKG_VERSION"), env!("CARGO_PKG_VERSION"))), "{out}");

    // the C view of the bodies equals the Rust view
    let bytes = extrack::scene::AlignedBytes::from_slice(&std::fs::read(&scene).unwrap());
    let view = extrack::scene::SceneView::from_bytes(bytes.as_bytes()).unwrap();
    for label in ["file", "buffer", "import"] {
        assert_eq!(value(&out, &format!("{label}.bodies")), view.bodies().len().to_string());
        for (i, b) in view.bodies().iter().enumerate() {
            let line = out
                .lines()
                .find(|l| l.starts_with(&format!("{label}.body{i} ")))
                .unwrap_or_else(|| panic!("{label}.body{i} missing:\n{out}"));
            assert!(line.contains(&format!("name={} kind=", view.str(b.name))), "{line}");
            assert!(line.contains(&format!(" pieces={} ", b.pieces.count)), "{line}");
            let bbox = line.split("bbox=").nth(1).unwrap();
            let got: Vec<f64> = bbox.split(',').map(|x| x.parse().unwrap()).collect();
            let want: Vec<f64> = b.bbox.min.iter().chain(b.bbox.max.iter()).copied().collect();
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() <= 1e-8 * (1.0 + w.abs()), "{label} body {i}: {got:?} vs {want:?}");
            }
        }
    }
    for status in [
        "EXT_INVALID_SCENE",
        "EXT_IO",
        "EXT_NULL_POINTER",
        "EXT_IMPORT",
        "EXT_INVALID_ARGUMENT",
        "EXT_NO_SUCH_BODY",
        "EXT_BUFFER_TOO_SMALL",
    ] {
        assert!(out.contains(&format!("expected {status}: ")), "{status} not exercised:\n{out}");
    }
    // messages are the library's one-line reasons
    assert!(out.contains("expected EXT_IO: cannot read /nonexistent/scene.exs"), "{out}");
    assert!(out.contains("expected EXT_NULL_POINTER: argument `path` is NULL"), "{out}");
    assert!(out.lines().last() == Some("done"), "{out}");
}

#[test]
fn scene_query_host_under_valgrind() {
    let Some(cc) = cc() else { return };
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "scene_query", dir.path());
    let scene = scene_file("assembly.step", dir.path());
    let model = root().join("fixtures/assembly.step");
    valgrind(&exe, &[&scene, &model]);
    // the check is not vacuous: a scene the host forgets to free is reported
    let out = Command::new("valgrind")
        .args(["--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect"])
        .arg(&exe)
        .args([scene.as_os_str(), model.as_os_str(), "--leak".as_ref()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(99), "{stderr}");
    assert!(stderr.contains("definitely lost") && !stderr.contains("definitely lost: 0 bytes"), "{stderr}");
}

/// `pkg-config --cflags --libs extrack` from the rendered `tools/extrack.pc.in`
/// builds a host against an installed prefix, dynamically and statically.
#[test]
fn pkg_config_file_links_a_host_shared_and_static() {
    let Some(cc) = cc() else { return };
    let pc_ok = Command::new("pkg-config").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if !pc_ok {
        println!("SKIP: pkg-config not installed; pkg-config test skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scene = scene_file("ellipsoid.brep.igs", dir.path());
    let model = root().join("fixtures/ellipsoid.brep.igs");
    let template = std::fs::read_to_string(root().join("tools/extrack.pc.in")).unwrap();
    for (kind, lib) in [("shared", "libextrack.so"), ("static", "libextrack.a")] {
        // an install prefix holding only one kind of library, as tools/install-capi.sh lays it out
        let prefix = dir.path().join(kind);
        std::fs::create_dir_all(prefix.join("include")).unwrap();
        std::fs::create_dir_all(prefix.join("lib/pkgconfig")).unwrap();
        std::fs::copy(root().join("include/extrack.h"), prefix.join("include/extrack.h")).unwrap();
        std::fs::copy(lib_dir().join(lib), prefix.join("lib").join(lib)).unwrap();
        let pc = template
            .replace("@PREFIX@", prefix.to_str().unwrap())
            .replace("@VERSION@", env!("CARGO_PKG_VERSION"));
        std::fs::write(prefix.join("lib/pkgconfig/extrack.pc"), pc).unwrap();
        let mut pkg = Command::new("pkg-config");
        pkg.env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig")).args(["--cflags", "--libs"]);
        if kind == "static" {
            pkg.arg("--static");
        }
        let (flags, _) = run(pkg.arg("extrack"));
        let (version, _) = run(Command::new("pkg-config")
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .args(["--modversion", "extrack"]));
        assert_eq!(version.trim(), env!("CARGO_PKG_VERSION"));
        let exe = dir.path().join(format!("scene_query_{kind}"));
        let mut cmd = Command::new(&cc);
        cmd.arg("-I")
            .arg(root().join("tools/c-host"))
            .arg(root().join("tools/c-host/scene_query.c"))
            .arg("-o")
            .arg(&exe)
            .args(flags.split_whitespace());
        if kind == "shared" {
            cmd.arg(format!("-Wl,-rpath,{}", prefix.join("lib").display()));
        }
        run(&mut cmd);
        let (out, _) = run(Command::new(&exe).arg(&scene).arg(&model));
        assert_eq!(out.lines().last(), Some("done"), "{out}");
        assert_eq!(value(&out, "file.bodies"), "1");
    }
}

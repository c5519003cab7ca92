//! The C hosts of `tools/c-host/`, compiled with the system C compiler against
//! `include/extrack.h` and the `cdylib` cargo built for this test, run and
//! their output checked; and the same programs under valgrind (no leak, no
//! invalid access).
//!
//! Without a C compiler (`$CC` or `cc`) or valgrind the tests print a skip
//! message; `.ci/run` installs both.

use super::host_build::{compiler, has_valgrind, lib_dir, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cc() -> Option<String> {
    compiler("CC", "cc")
}

/// Compiles `tools/c-host/<name>.c` into `dir/<name>`, linked to the cdylib.
fn compile(cc: &str, name: &str, dir: &Path) -> PathBuf {
    super::host_build::compile(
        cc,
        "c11",
        &format!("tools/c-host/{name}.c"),
        &["tools/c-host"],
        dir,
        name,
    )
}

fn valgrind(exe: &Path, args: &[&Path]) -> String {
    super::host_build::valgrind(exe, args).1
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
    assert!(
        out.contains(&format!(
            "version={} header={} abi={}",
            env!("CARGO_PKG_VERSION"),
            env!("CARGO_PKG_VERSION"),
            extrack::capi::EXT_ABI_VERSION
        )),
        "{out}"
    );

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
                assert!(
                    (g - w).abs() <= 1e-8 * (1.0 + w.abs()),
                    "{label} body {i}: {got:?} vs {want:?}"
                );
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
        assert!(
            out.contains(&format!("expected {status}: ")),
            "{status} not exercised:\n{out}"
        );
    }
    // messages are the library's one-line reasons
    assert!(
        out.contains("expected EXT_IO: cannot read /nonexistent/scene.exs"),
        "{out}"
    );
    assert!(
        out.contains("expected EXT_NULL_POINTER: argument `path` is NULL"),
        "{out}"
    );
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
        .env_remove("LD_LIBRARY_PATH") // as in `run`: no stale library from target/<profile>
        .args([
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
        ])
        .arg(&exe)
        .args([scene.as_os_str(), model.as_os_str(), "--leak".as_ref()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(99), "{stderr}");
    assert!(
        stderr.contains("definitely lost") && !stderr.contains("definitely lost: 0 bytes"),
        "{stderr}"
    );
}

/// `pkg-config --cflags --libs extrack` from the rendered `tools/extrack.pc.in`
/// builds a host against an installed prefix, dynamically and statically.
#[test]
fn pkg_config_file_links_a_host_shared_and_static() {
    let Some(cc) = cc() else { return };
    let pc_ok = Command::new("pkg-config")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
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
        pkg.env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .args(["--cflags", "--libs"]);
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

/// Parses `key=a,b,c` of a sample line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

fn vec3(s: &str) -> extrack::geom::Vec3 {
    let v: Vec<f64> = s.split(',').map(|x| x.parse().unwrap()).collect();
    extrack::geom::Vec3::new(v[0], v[1], v[2])
}

/// The runtime geometry of a scene file, as the Rust API builds it.
fn track_scene(path: &Path) -> extrack::track::TrackScene {
    let bytes = extrack::scene::AlignedBytes::from_slice(&std::fs::read(path).unwrap());
    let view = extrack::scene::SceneView::from_bytes(bytes.as_bytes()).unwrap();
    extrack::track::TrackScene::new(&view).unwrap()
}

/// Checks every printed sample of a C host against a cold-start query of the
/// Rust API at the same point: distance and signed distance to 1e-6 mm, the
/// closest point on the same spot, the normal pointing outward.
fn check_samples_against_rust(out: &str, ts: &extrack::track::TrackScene, body: u32) -> usize {
    use extrack::track::{closest_point, Target};
    let mut n = 0;
    for line in out.lines().filter(|l| l.starts_with("sample ")) {
        let q = vec3(field(line, "q"));
        let d: f64 = field(line, "d").parse().unwrap();
        let sd: f64 = field(line, "sd").parse().unwrap();
        let p = vec3(field(line, "p"));
        let normal = vec3(field(line, "n"));
        let r = closest_point(
            ts,
            &Target::Body {
                index: body,
                pose: extrack::geom::Pose::identity(),
            },
            q,
        )
        .unwrap();
        let tol = 1e-6 * (1.0 + r.distance);
        assert!((d - r.distance).abs() <= tol, "{line}\nRust distance {}", r.distance);
        assert!(
            (sd - r.signed_distance.unwrap()).abs() <= tol,
            "{line}\nRust signed {:?}",
            r.signed_distance
        );
        // the C answer is consistent in itself: |q - p| = d, normal unit and outward
        assert!(((q - p).norm() - d).abs() <= 1e-9 * (1.0 + d), "{line}");
        assert!((normal.norm() - 1.0).abs() < 1e-9, "{line}");
        if d > 1e-6 {
            let along = normal.dot(&(q - p)) / d;
            let expect = sd.signum();
            assert!(
                (along - expect).abs() < 1e-6,
                "{line}: (q-p)·n/d = {along}, expected {expect}"
            );
        }
        n += 1;
    }
    n
}

#[test]
fn two_trackers_on_two_threads_agree_with_the_rust_api() {
    let Some(cc) = cc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "threads", dir.path());
    let scene = scene_file("rounded_box.brep.igs", dir.path());
    let (out, _) = run(Command::new(&exe).arg(&scene));
    let ts = track_scene(&scene);
    let n = check_samples_against_rust(&out, &ts, 0);
    assert_eq!(n, 2 * 80, "{out}");
    // thread 1 goes through the solid: both signs occur
    let signs: Vec<f64> = out
        .lines()
        .filter(|l| l.starts_with("sample thread=1 "))
        .map(|l| field(l, "sd").parse().unwrap())
        .collect();
    assert!(
        signs.iter().any(|&s| s < 0.0) && signs.iter().any(|&s| s > 0.0),
        "{signs:?}"
    );
    for t in 0..2 {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("thread={t} updates=2000")))
            .unwrap();
        println!("{line}");
    }
}

#[test]
fn two_threads_host_under_valgrind() {
    let Some(cc) = cc() else { return };
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "threads", dir.path());
    let scene = scene_file("rounded_box.brep.igs", dir.path());
    valgrind(&exe, &[&scene]);
}

/// The 1 kHz servo host: forces zero outside and pointing outward inside,
/// the proxy on the surface, distances equal to the Rust API's; the scene
/// loaded from an `.exs` and imported from the IGES file give the same ticks.
#[test]
fn servo_loop_host_forces_and_distances() {
    use extrack::track::{closest_point, Target};
    let Some(cc) = cc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "servo", dir.path());
    let scene = scene_file("rounded_box.brep.igs", dir.path());
    let (out, _) = run(Command::new(&exe).arg(&scene));
    let ts = track_scene(&scene);
    let target = Target::Body {
        index: 0,
        pose: extrack::geom::Pose::identity(),
    };
    let ticks: Vec<&str> = out.lines().filter(|l| l.starts_with("tick ")).collect();
    assert_eq!(ticks.len(), 1000, "{out}");
    let (mut inside, mut outside) = (0, 0);
    for line in &ticks {
        let device = vec3(field(line, "device"));
        let force = vec3(field(line, "force"));
        let proxy = vec3(field(line, "proxy"));
        let contact = field(line, "contact") == "1";
        let depth: f64 = field(line, "depth").parse().unwrap();
        let d: f64 = field(line, "d").parse().unwrap();
        let r = closest_point(&ts, &target, device).unwrap();
        let sd = r.signed_distance.unwrap();
        let tol = 1e-6 * (1.0 + r.distance);
        assert!((d - r.distance).abs() <= tol, "{line}\nRust distance {}", r.distance);
        if contact {
            inside += 1;
            assert!(sd < 0.0, "{line}: contact outside the body (Rust sd {sd})");
            assert!(
                force.dot(&r.normal) > 0.0,
                "{line}: force not outward (normal {})",
                r.normal
            );
            assert!((depth + sd).abs() <= tol, "{line}: depth vs Rust {sd}");
            assert!(
                (proxy - r.point).norm() <= 1e-6,
                "{line}: proxy vs Rust point {}",
                r.point
            );
        } else {
            outside += 1;
            assert_eq!(force, extrack::geom::Vec3::zeros(), "{line}");
            assert_eq!(proxy, device, "{line}");
            assert!(sd >= -1e-9, "{line}: no contact but Rust sd {sd}");
        }
    }
    assert!(inside > 100 && outside > 100, "inside {inside}, outside {outside}");
    let stats = out.lines().find(|l| l.starts_with("stats ")).unwrap();
    assert_eq!(field(stats, "entries"), "4", "{stats}");
    println!("{stats}");
    assert_eq!(out.lines().last(), Some("done"));

    // importing the IGES file straight from C gives the same servo run
    let (out2, _) = run(Command::new(&exe).arg(root().join("fixtures/rounded_box.brep.igs")));
    let ticks2: Vec<&str> = out2.lines().filter(|l| l.starts_with("tick ")).collect();
    assert_eq!(ticks, ticks2);
}

#[test]
fn servo_loop_host_under_valgrind() {
    let Some(cc) = cc() else { return };
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "servo", dir.path());
    let scene = scene_file("rounded_box.brep.igs", dir.path());
    valgrind(&exe, &[&scene]);
}

/// Parses the 16 comma-separated numbers of a row-major matrix into a pose.
fn matrix_pose(s: &str) -> extrack::geom::Pose {
    let m: Vec<f64> = s.split(',').map(|x| x.parse().unwrap()).collect();
    assert_eq!(m.len(), 16);
    let mut p = extrack::capi::ext_pose {
        position: extrack::capi::ext_vec3::default(),
        orientation: extrack::capi::ext_quat {
            w: 1.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
    };
    // the C host's conversion: the library's own
    let st = unsafe { extrack::capi::ext_pose_from_matrix(m.as_ptr(), 0, &mut p) };
    assert_eq!(st, extrack::capi::ext_status::EXT_OK);
    let q = nalgebra::UnitQuaternion::new_normalize(nalgebra::Quaternion::new(
        p.orientation.w,
        p.orientation.x,
        p.orientation.y,
        p.orientation.z,
    ));
    extrack::geom::Pose::from_parts(extrack::geom::Vec3::new(p.position.x, p.position.y, p.position.z), q)
}

/// The body–body host: the C tracker's distances along 400 poses equal a
/// Rust tracker replaying the same poses and twists, and the cold queries
/// equal `body_distance`; the matrix and quaternion updates agree; every
/// error path gives its status.
#[test]
fn pair_host_tracks_two_bodies_like_the_rust_api() {
    use extrack::geom::{Pose, Twist};
    use extrack::track::{body_distance, BodyPairTracker, BodyState, TrackerConfig};
    let Some(cc) = cc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "pair", dir.path());
    let scene = scene_file("assembly.step", dir.path());
    let (out, _) = run(Command::new(&exe).arg(&scene));
    let ts = track_scene(&scene);
    let mut rust = BodyPairTracker::new(&ts, 0, &ts, 1, TrackerConfig::default()).unwrap();
    let steps: Vec<&str> = out.lines().filter(|l| l.starts_with("step ")).collect();
    assert_eq!(steps.len(), 400, "{out}");
    let mut poses = Vec::new();
    for (k, line) in steps.iter().enumerate() {
        let pose = matrix_pose(field(line, "m"));
        let twist = Twist::about_point(
            vec3(field(line, "w")),
            pose.iso.translation.vector,
            vec3(field(line, "v")),
        );
        let dt = if k == 0 { 0.0 } else { 1e-3 };
        let r = rust
            .update(&ts, &BodyState::default(), &ts, &BodyState { pose, twist }, dt)
            .unwrap();
        let d: f64 = field(line, "d").parse().unwrap();
        assert!((d - r.distance).abs() <= 1e-9, "{line}\nRust {}", r.distance);
        assert!(
            (vec3(field(line, "pa")) - r.point_a).norm() <= 1e-9,
            "{line}\nRust {}",
            r.point_a
        );
        assert!(
            (vec3(field(line, "pb")) - r.point_b).norm() <= 1e-9,
            "{line}\nRust {}",
            r.point_b
        );
        assert_eq!(field(line, "pen"), "0", "{line}");
        // the C answer is consistent: |pb - pa| = d, the normal from A to B
        let n = vec3(field(line, "n"));
        let (pa, pb) = (vec3(field(line, "pa")), vec3(field(line, "pb")));
        assert!(((pb - pa).norm() - d).abs() <= 1e-9 * (1.0 + d), "{line}");
        assert!((n - (pb - pa) / d).norm() <= 1e-6, "{line}");
        poses.push(pose);
    }
    let colds: Vec<&str> = out.lines().filter(|l| l.starts_with("cold ")).collect();
    assert_eq!(colds.len(), 10, "{out}");
    for line in colds {
        let i: usize = field(line, "i").parse().unwrap();
        let want = body_distance(&ts, 0, &Pose::identity(), &ts, 1, &poses[i]).unwrap();
        let d: f64 = field(line, "d").parse().unwrap();
        assert!((d - want.distance).abs() <= 1e-9, "{line}\nRust {}", want.distance);
        // apart, so the tracked distance is the global minimum too
        let tracked: f64 = field(steps[i], "d").parse().unwrap();
        assert!((tracked - d).abs() <= 1e-6, "step {i}: tracked {tracked}, cold {d}");
    }
    let summary = out.lines().find(|l| l.starts_with("pair updates=400")).unwrap();
    let diff: f64 = field(summary, "max_variant_diff").parse().unwrap();
    assert!(diff <= 1e-9, "{summary}");
    println!("{summary}");
    let reset = out.lines().find(|l| l.starts_with("reset ")).unwrap();
    assert_eq!(field(reset, "d"), field(reset, "cold"), "{reset}");
    for status in ["EXT_NULL_POINTER", "EXT_INVALID_ARGUMENT", "EXT_NO_SUCH_BODY"] {
        assert!(
            out.contains(&format!("expected {status}: ")),
            "{status} not exercised:\n{out}"
        );
    }
    assert!(out.contains("rotation block is not a rotation"), "{out}");
    assert_eq!(out.lines().last(), Some("done"));
}

#[test]
fn pair_host_under_valgrind() {
    let Some(cc) = cc() else { return };
    if !has_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(&cc, "pair", dir.path());
    let scene = scene_file("assembly.step", dir.path());
    valgrind(&exe, &[&scene]);
}

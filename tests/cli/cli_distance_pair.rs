//! `extrack distance` and `extrack track --bodies I J --motion …`: the
//! assembly's two blocks are 2.5 mm apart (Open CASCADE's answer), text and
//! JSON outputs are snapshot-tested, traces of a CSV motion and of both
//! built-in motions agree with the library, bad input is one line.

use extrack::geom::{Pose, Vec3};
use extrack::track::{body_distance, TrackScene};
use std::process::Command;

fn extrack(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_extrack")).args(args).output().unwrap()
}

fn fixture(name: &str) -> String {
    format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn ok(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The one stderr line of a failed run.
fn one_line_error(out: &std::process::Output) -> String {
    assert!(!out.status.success(), "expected a failure");
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err
}

fn assembly() -> TrackScene {
    let m = extrack::import::import_file(fixture("assembly.step")).unwrap();
    let data = extrack::prepare::prepare(&m, &Default::default()).unwrap();
    TrackScene::from_data(&data).unwrap()
}

/// Rounds every number of a JSON value to 9 significant digits (snapshot
/// stability against last-bit changes of the solver).
fn rounded(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => n
            .as_f64()
            .filter(|_| !n.is_u64() && !n.is_i64())
            .map(|x| {
                // absolute rounding to 1e-9 mm: round-off noise near zero
                // (which differs between evaluation kernels) is not snapshotted
                let r: f64 = format!("{x:.9}").parse().unwrap();
                serde_json::json!(if r == 0.0 { 0.0 } else { r })
            })
            .unwrap_or_else(|| v.clone()),
        Value::Array(a) => Value::Array(a.iter().map(rounded).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), rounded(x))).collect()),
        x => x.clone(),
    }
}

#[test]
fn distance_of_the_assembly_blocks_is_open_cascades() {
    let text = ok(&extrack(&["distance", &fixture("assembly.step"), "--bodies", "0", "1"]));
    insta::assert_snapshot!("distance_assembly_text", text);
    assert!(text.contains("distance         2.500000000 mm"), "{text}");

    let json = ok(&extrack(&[
        "distance",
        &fixture("assembly.step"),
        "--bodies",
        "0",
        "1",
        "--json",
    ]));
    // the five keys first, in its order
    let keys: Vec<&str> = json
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"').and_then(|r| r.split('"').next()))
        .collect();
    assert_eq!(
        keys[..5],
        ["distance", "penetrating", "point_a", "point_b", "normal"],
        "{json}"
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let d = v["distance"].as_f64().unwrap();
    // Open CASCADE's BRepExtrema_DistShapeShape (fixtures/oracle/assembly.closest.json "pairs")
    let oracle: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("oracle/assembly.closest.json")).unwrap()).unwrap();
    let want = oracle["pairs"][0]["dist"].as_f64().unwrap();
    assert!((d - want).abs() <= 1e-6, "distance {d}, Open CASCADE {want}");
    assert!((d - 2.5).abs() <= 1e-6);
    assert_eq!(v["penetrating"], false);
    let p = |k: &str| {
        let a: Vec<f64> = v[k].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        Vec3::new(a[0], a[1], a[2])
    };
    let (pa, pb, n) = (p("point_a"), p("point_b"), p("normal"));
    assert!(((pb - pa).norm() - d).abs() <= 1e-9);
    assert!((n - (pb - pa) / d).norm() <= 1e-9, "normal {n}");
    // both witnesses lie in the gap's faces (z = 0 on A, z = 2.5 on B, as Open CASCADE's)
    assert!(pa.z.abs() <= 1e-6 && (pb.z - 2.5).abs() <= 1e-6, "{pa} {pb}");
    insta::assert_json_snapshot!("distance_assembly_json", rounded(&v));

    // the same answer with B taken from a second scene (here: the same file again)
    let json2 = ok(&extrack(&[
        "distance",
        &fixture("assembly.step"),
        "--bodies",
        "0",
        "1",
        "--scene-b",
        &fixture("assembly.step"),
        "--json",
    ]));
    assert_eq!(json2, json);
}

#[test]
fn distance_of_a_body_to_itself_is_zero_and_bad_input_is_one_line() {
    let text = ok(&extrack(&["distance", &fixture("assembly.step"), "--bodies", "1", "1"]));
    assert!(text.starts_with("bodies 1 and 1: touching\n"), "{text}");
    let v: serde_json::Value = serde_json::from_slice(
        &extrack(&["distance", &fixture("assembly.step"), "--bodies", "0", "0", "--json"]).stdout,
    )
    .unwrap();
    assert_eq!(v["distance"], 0.0);
    assert_eq!(v["penetrating"], false);
    assert_eq!(v["point_a"], v["point_b"]);

    // a body from another scene: the rounded box against the assembly's first block
    let v: serde_json::Value = serde_json::from_str(&ok(&extrack(&[
        "distance",
        &fixture("assembly.step"),
        "--bodies",
        "0",
        "0",
        "--scene-b",
        &fixture("rounded_box.step"),
        "--json",
    ])))
    .unwrap();
    assert!(v["distance"].as_f64().unwrap().is_finite());

    for (args, needle) in [
        (vec!["--bodies", "0", "x"], "`x` is not a body index"),
        (vec!["--bodies", "-1", "0"], "`-1` is not a body index"),
        (vec!["--bodies", "0", "7"], "unknown body 7"),
        (vec!["--bodies", "0", "3", "--scene-b", "ROUNDED"], "unknown body 3"),
    ] {
        let mut all = vec!["distance".to_string(), fixture("assembly.step")];
        all.extend(args.iter().map(|a| {
            if *a == "ROUNDED" {
                fixture("rounded_box.step")
            } else {
                a.to_string()
            }
        }));
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let err = one_line_error(&extrack(&refs));
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let err = one_line_error(&extrack(&["distance", "/nonexistent.exs", "--bodies", "0", "1"]));
    assert!(err.contains("/nonexistent.exs"), "{err}");
}

/// Parses a pair trace: header and rows.
fn read_trace(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows: Vec<Vec<String>> = lines.map(|l| l.split(',').map(String::from).collect()).collect();
    assert!(rows.iter().all(|r| r.len() == header.len()));
    (header, rows)
}

fn num(row: &[String], header: &[String], key: &str) -> f64 {
    let i = header.iter().position(|h| h == key).unwrap();
    row[i].parse().unwrap()
}

fn feature_ok(s: &str) -> bool {
    let mut parts = s.split(':');
    matches!(parts.next(), Some("piece" | "edge" | "vertex")) && parts.next().is_some_and(|n| n.parse::<u32>().is_ok())
}

#[test]
fn pair_track_along_a_csv_motion_agrees_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let motion = dir.path().join("motion.csv");
    // A turns slowly about z; B slides over it and lifts (the blocks stay apart)
    let mut csv = String::from("t,ax,ay,az,aqw,aqx,aqy,aqz,bx,by,bz,bqw,bqx,bqy,bqz\n");
    let mut poses = Vec::new();
    for k in 0..300 {
        let t = k as f64 * 1e-3;
        let half = 0.05 * (6.0 * t).sin() * 0.5;
        let pa = Pose::from_parts(
            Vec3::zeros(),
            nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(half.cos(), 0.0, 0.0, half.sin())),
        );
        let pb = Pose::from_parts(
            Vec3::new(4.0 * (8.0 * t).sin(), 2.0 * t, 1.0 + (5.0 * t).sin()),
            nalgebra::UnitQuaternion::identity(),
        );
        let qa = pa.iso.rotation.quaternion();
        let tb = pb.iso.translation.vector;
        csv += &format!(
            "{t},0,0,0,{},{},{},{},{},{},{},1,0,0,0\n",
            qa.w, qa.i, qa.j, qa.k, tb.x, tb.y, tb.z
        );
        poses.push((pa, pb));
    }
    std::fs::write(&motion, csv).unwrap();
    let trace = dir.path().join("trace.csv");
    let plot = dir.path().join("trace.svg");
    let summary = ok(&extrack(&[
        "track",
        &fixture("assembly.step"),
        "--bodies",
        "0",
        "1",
        "--motion",
        motion.to_str().unwrap(),
        "--out",
        trace.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]));
    assert!(
        summary.starts_with("300 updates,") && summary.contains("coherent update median") && summary.contains("p99.9"),
        "{summary}"
    );
    let (header, rows) = read_trace(&trace);
    assert_eq!(
        header.join(","),
        "t,distance,signed_distance,penetrating,pax,pay,paz,pbx,pby,pbz,nx,ny,nz,feature_a,feature_b,u,v,r,s,iterations,switches,cells_solved,update_ns"
    );
    assert_eq!(rows.len(), 300);
    let scene = assembly();
    for (k, row) in rows.iter().enumerate() {
        assert!(feature_ok(&row[13]) && feature_ok(&row[14]), "{row:?}");
        assert_eq!(row[3], "0");
        if k % 30 == 0 {
            let (pa, pb) = &poses[k];
            let want = body_distance(&scene, 0, pa, &scene, 1, pb).unwrap();
            let d = num(row, &header, "distance");
            assert!(
                (d - want.distance).abs() <= 1e-6,
                "row {k}: {d} vs cold {}",
                want.distance
            );
        }
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("<svg") && svg.contains("body B witness parameters"));
}

#[test]
fn builtin_orbit_stays_apart_and_approach_penetrates_continuously() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("orbit.csv");
    let plot = dir.path().join("orbit.svg");
    let summary = ok(&extrack(&[
        "track",
        &fixture("assembly.step"),
        "--bodies",
        "0",
        "1",
        "--motion",
        "builtin:orbit",
        "--out",
        trace.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]));
    assert!(
        summary.starts_with("2001 updates,") && summary.contains(" 0 penetrating"),
        "{summary}"
    );
    let (header, rows) = read_trace(&trace);
    assert_eq!(rows.len(), 2001);
    assert!(rows.iter().all(|r| num(r, &header, "distance") > 0.0 && r[3] == "0"));
    // B turns: its active feature changes along the orbit
    let mut features: Vec<&str> = rows.iter().map(|r| r[14].as_str()).collect();
    features.dedup();
    assert!(features.len() > 1, "{features:?}");
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));

    let trace = dir.path().join("approach.csv");
    let summary = ok(&extrack(&[
        "track",
        &fixture("assembly.step"),
        "--bodies",
        "0",
        "1",
        "--motion",
        "builtin:approach",
        "--out",
        trace.to_str().unwrap(),
    ]));
    assert!(summary.starts_with("2001 updates,"), "{summary}");
    let (header, rows) = read_trace(&trace);
    let sd: Vec<f64> = rows.iter().map(|r| num(r, &header, "signed_distance")).collect();
    assert!(sd.iter().all(|x| x.is_finite()));
    assert!(sd[0] > 0.0 && sd[2000] > 0.0, "starts and ends apart");
    let pen = rows.iter().filter(|r| r[3] == "1").count();
    assert!(pen > 0 && sd.iter().any(|&x| x < 0.0), "never penetrates");
    // continuous through the contact: no step larger than a few times B's
    // largest displacement per sample
    let max_step = sd.windows(2).map(|w| (w[1] - w[0]).abs()).fold(0.0, f64::max);
    let speed_bound = sd.iter().cloned().fold(f64::NEG_INFINITY, f64::max) * std::f64::consts::PI / 2.0 * 1e-3 * 3.0;
    assert!(max_step <= speed_bound.max(1e-3), "jump {max_step} > {speed_bound}");
}

#[test]
fn pair_track_rejects_bad_input_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.csv");
    let motion = dir.path().join("m.csv");
    std::fs::write(
        &motion,
        "0,0,0,0,1,0,0,0,0,0,5,1,0,0,0\n0.001,0,0,0,1,0,0,0,0,0,5,1,0\n",
    )
    .unwrap();
    let scene = fixture("assembly.step");
    let run = |extra: &[&str]| {
        let mut a = vec!["track", scene.as_str(), "--out", trace.to_str().unwrap()];
        a.extend_from_slice(extra);
        extrack(&a)
    };
    let m = motion.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["--bodies", "0", "1", "--motion", m],
            "m.csv:2: expected 15 finite numbers",
        ),
        (
            vec!["--bodies", "0", "1", "--motion", "builtin:spiral"],
            "unknown built-in motion",
        ),
        (
            vec!["--bodies", "0", "9", "--motion", "builtin:orbit"],
            "unknown body 9",
        ),
        (
            vec!["--bodies", "a", "1", "--motion", "builtin:orbit"],
            "`a` is not a body index",
        ),
    ] {
        let err = one_line_error(&run(&args));
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // --bodies needs --motion, and --path excludes it (clap's usage errors)
    assert!(!run(&["--bodies", "0", "1"]).status.success());
    assert!(!run(&["--path", m, "--bodies", "0", "1", "--motion", "builtin:orbit"])
        .status
        .success());
}

/// `extrack distance` marks its answer as `extrack query` marks its own: the
/// assembly's blocks with every face passing the scene's self-check give
/// `verified: true`, `status: ["checked"]` and no mark in the text; with
/// the face of A's witness marked failed, the text's first line ends in
/// `UNVERIFIED (unverified_face)` and the JSON has `verified: false`,
/// `status: ["checked", "unverified_face"]` (text and JSON snapshotted).
#[test]
fn distance_marks_an_unverified_answer_in_text_and_json() {
    let data = crate::common::checks::prepared("assembly.step");
    let ts = TrackScene::from_data(&data).unwrap();
    let r = body_distance(&ts, 0, &Pose::identity(), &ts, 1, &Pose::identity()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // (no face has the id `u64::MAX`: every face passes)
    for (name, failed) in [("checked", u64::MAX), ("unverified", r.face_a)] {
        let mut d = data.clone();
        crate::common::checks::mark_failed(&mut d, failed);
        let scene = dir.path().join(format!("{name}.exs"));
        d.write_to_path(&scene).unwrap();
        let s = scene.to_str().unwrap();
        let text = ok(&extrack(&["distance", s, "--bodies", "0", "1"]));
        let v: serde_json::Value =
            serde_json::from_str(&ok(&extrack(&["distance", s, "--bodies", "0", "1", "--json"]))).unwrap();
        let first = text.lines().next().unwrap();
        if failed == u64::MAX {
            assert_eq!(first, "bodies 0 and 1: apart", "{text}");
            assert_eq!(v["verified"], true, "{v}");
            assert_eq!(v["status"], serde_json::json!(["checked"]));
        } else {
            assert_eq!(first, "bodies 0 and 1: apart  UNVERIFIED (unverified_face)", "{text}");
            assert_eq!(v["verified"], false, "{v}");
            assert_eq!(v["status"], serde_json::json!(["checked", "unverified_face"]));
        }
        assert_eq!(v["face_a"], r.face_a);
        insta::assert_snapshot!(format!("distance_{name}_text"), text);
        insta::assert_json_snapshot!(format!("distance_{name}_json"), rounded(&v));
    }
}

//! `extrack query` and `extrack track` on the rounded box: outputs agree with
//! the library, the text output is snapshot-tested, bad input is one line.

use std::process::Command;

fn extrack(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_extrack")).args(args).output().unwrap()
}

fn fixture(name: &str) -> String {
    format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn query_prints_text_and_json_for_both_point_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("box.exs");
    let out = extrack(&["import", &fixture("rounded_box.step"), "-o", scene.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let plain = dir.path().join("plain.json");
    std::fs::write(&plain, r#"{"points": [[0, 0, 15], [0, 0, 0], [25, 20, 12]]}"#).unwrap();
    let out = extrack(&["query", scene.to_str().unwrap(), "--points", plain.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    insta::assert_snapshot!("query_rounded_box_text", String::from_utf8(out.stdout).unwrap());

    let oracle = format!(
        "{}/fixtures/oracle/rounded_box.closest.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = extrack(&["query", scene.to_str().unwrap(), "--points", &oracle, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let js: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let oracle: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&oracle).unwrap()).unwrap();
    let results = js["results"].as_array().unwrap();
    let points = oracle["points"].as_array().unwrap();
    assert_eq!(results.len(), points.len());
    for (r, p) in results.iter().zip(points) {
        assert_eq!(r["q"], p["q"], "input order kept");
        let d = p["dist"].as_f64().unwrap();
        assert!((r["distance"].as_f64().unwrap() - d).abs() <= 1e-6 * d.max(1.0));
        assert!((r["signed_distance"].as_f64().unwrap() - p["sdist"].as_f64().unwrap()).abs() <= 1e-6 * d.max(1.0));
        assert!(r["feature"]["kind"].is_string() && r["face"].is_u64() && r["normal"].as_array().unwrap().len() == 3);
    }
    // a STEP file is imported and prepared on the fly
    let out = extrack(&[
        "query",
        &fixture("rounded_box.step"),
        "--points",
        plain.to_str().unwrap(),
        "--body",
        "0",
    ]);
    assert!(out.status.success());
}

#[test]
fn query_rejects_bad_input_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    for (text, needle) in [
        (r#"{"points": [[0, 0]]}"#, "point 0"),
        (r#"{"points": [[0, 0, "x"]]}"#, "point 0"),
        (r#"{"pts": []}"#, "points"),
        ("not json", "not JSON"),
    ] {
        std::fs::write(&bad, text).unwrap();
        let out = extrack(&["query", &fixture("rounded_box.step"), "--points", bad.to_str().unwrap()]);
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    std::fs::write(&bad, r#"{"points": [[0, 0, 1]]}"#).unwrap();
    let out = extrack(&[
        "query",
        &fixture("rounded_box.step"),
        "--points",
        bad.to_str().unwrap(),
        "--body",
        "9",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("unknown body 9"));
}

#[test]
fn track_writes_a_trace_a_summary_and_a_plot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("path.csv");
    let mut csv = String::from("t,x,y,z\n");
    for k in 0..500 {
        let t = k as f64 * 1e-3;
        let a = t * 8.0;
        csv += &format!("{t},{},{},{}\n", 24.0 * a.cos(), 18.0 * a.sin(), 12.0 * (a * 0.5).sin());
    }
    std::fs::write(&path, csv).unwrap();
    let trace = dir.path().join("trace.csv");
    let plot = dir.path().join("trace.svg");
    let out = extrack(&[
        "track",
        &fixture("rounded_box.step"),
        "--path",
        path.to_str().unwrap(),
        "--out",
        trace.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(
        summary.starts_with("500 updates,") && summary.contains("p99.9"),
        "{summary}"
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..5], ["t", "x", "y", "z", "distance"]);
    let rows: Vec<Vec<String>> = lines.map(|l| l.split(',').map(String::from).collect()).collect();
    assert_eq!(rows.len(), 500);
    assert!(rows
        .iter()
        .all(|r| r.len() == header.len() && r[4].parse::<f64>().unwrap().is_finite()));
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));
    // a decreasing time is rejected with the line number
    std::fs::write(&path, "0,1,2,3\n0.001,1,2,3\n0.0005,1,2,3\n").unwrap();
    let out = extrack(&[
        "track",
        &fixture("rounded_box.step"),
        "--path",
        path.to_str().unwrap(),
        "--out",
        trace.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("time must not decrease"));
}

#[test]
fn query_json_and_text_mark_unverified_answers() {
    let mut data = crate::common::checks::prepared("rounded_box.step");
    let pts = crate::common::checks::probe_points(&data);
    let ts = extrack::track::TrackScene::from_data(&data).unwrap();
    let target = extrack::track::Target::All {
        pose: extrack::geom::Pose::identity(),
    };
    let before: Vec<_> = pts
        .iter()
        .map(|q| extrack::track::closest_point(&ts, &target, *q).unwrap())
        .collect();
    let failed = before
        .iter()
        .find(|r| matches!(r.feature, extrack::scene::data::FeatureRef::Piece(_)))
        .unwrap()
        .face;
    crate::common::checks::mark_failed(&mut data, failed);
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("checked.exs");
    data.write_to_path(&scene).unwrap();
    let points = dir.path().join("pts.json");
    let list: Vec<[f64; 3]> = pts.iter().map(|p| [p.x, p.y, p.z]).collect();
    std::fs::write(&points, serde_json::json!({ "points": list }).to_string()).unwrap();

    let out = extrack(&[
        "query",
        scene.to_str().unwrap(),
        "--points",
        points.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let js: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = js["results"].as_array().unwrap();
    let mut seen = (0, 0);
    for r in results {
        if r["feature"]["kind"] != "piece" {
            continue;
        }
        if r["face"] == failed {
            assert_eq!(r["verified"], false, "{r}");
            assert_eq!(r["status"], serde_json::json!(["checked", "unverified_face"]));
            seen.0 += 1;
        } else {
            assert_eq!(r["verified"], true, "{r}");
            assert_eq!(r["status"], serde_json::json!(["checked"]));
            seen.1 += 1;
        }
    }
    assert!(seen.0 >= 1 && seen.1 >= 1, "{seen:?}");
    // the text output marks exactly the unverified answers
    let out = extrack(&["query", scene.to_str().unwrap(), "--points", points.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    for (line, r) in text.lines().zip(results) {
        assert_eq!(
            line.contains("UNVERIFIED (unverified_face)"),
            r["verified"] == false,
            "{line}"
        );
    }
    // inspect reports the failing face, dump its record
    let out = extrack(&["inspect", scene.to_str().unwrap(), "--json"]);
    let js: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(js["checks"]["failed_faces"][0]["face"], failed);
    let out = extrack(&["inspect", scene.to_str().unwrap()]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains(&format!("face #{failed} body 0: coverage")));
    let out = extrack(&["dump", scene.to_str().unwrap()]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains(&format!("face #{failed} body 0 failed coverage")));
    // an unchecked scene: verified false, no status bits
    let plain = dir.path().join("plain.exs");
    let mut unchecked = data.clone();
    unchecked.face_checks.clear();
    unchecked.body_checks.clear();
    unchecked.write_to_path(&plain).unwrap();
    let out = extrack(&[
        "query",
        plain.to_str().unwrap(),
        "--points",
        points.to_str().unwrap(),
        "--json",
    ]);
    let js: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(js["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["verified"] == false && r["status"] == serde_json::json!([])));
}

/// Settings no solve can meet (`--tol 1e-300 --step-tol 1e-300`, and one
/// iteration per tracker update): the answers of `query` (text and JSON)
/// and the rows of `track`'s trace carry the status bit `unconverged` (8);
/// with the default settings none does, and the text output is unchanged.
/// (A solve that lands on an exactly zero gradient — a Newton step onto a
/// plane — has converged at any tolerance: a row without the bit has the
/// default run's distance.)
#[test]
fn query_and_track_mark_answers_of_capped_solves_unconverged() {
    let dir = tempfile::tempdir().unwrap();
    let points = dir.path().join("pts.json");
    // near the rounded edges and corners (no point whose answer a solve
    // starts on: its gradient is exactly zero, converged at any tolerance)
    std::fs::write(
        &points,
        r#"{"points": [[25, 20, 12], [-23.1, 17.4, 11.2], [14.2, -22.7, -10.9]]}"#,
    )
    .unwrap();
    let capped = ["--tol", "1e-300", "--step-tol", "1e-300"];
    let query = |extra: &[&str], json: bool| {
        let mut args = vec!["query", "--points", points.to_str().unwrap()];
        let scene = fixture("rounded_box.step");
        args.insert(1, &scene);
        args.extend_from_slice(extra);
        if json {
            args.push("--json");
        }
        let out = extrack(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for (extra, want) in [(&[][..], false), (&capped[..], true)] {
        let js: serde_json::Value = serde_json::from_str(&query(extra, true)).unwrap();
        let results = js["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        for r in results {
            let names = r["status"].as_array().unwrap();
            assert_eq!(names.contains(&serde_json::json!("unconverged")), want, "{r}");
            if want {
                assert_eq!(r["verified"], false, "{r}");
            }
        }
        let text = query(extra, false);
        assert_eq!(text.lines().count(), 3);
        for line in text.lines() {
            assert_eq!(line.contains("UNVERIFIED (unconverged)"), want, "{line}");
        }
    }
    // bad settings are one line
    let out = extrack(&[
        "query",
        &fixture("rounded_box.step"),
        "--points",
        points.to_str().unwrap(),
        "--max-iters",
        "0",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("max_iters"));

    let path = dir.path().join("path.csv");
    let mut csv = String::from("t,x,y,z\n");
    for k in 0..50 {
        let t = k as f64 * 1e-2;
        csv += &format!("{t},{},{},12\n", 24.0 * (2.0 * t).cos(), 18.0 * (2.0 * t).sin());
    }
    std::fs::write(&path, csv).unwrap();
    let trace = dir.path().join("trace.csv");
    let mut exact = Vec::new();
    for (extra, want) in [
        (&[][..], false),
        (
            &["--tol", "1e-300", "--step-tol", "1e-300", "--max-iters", "1"][..],
            true,
        ),
    ] {
        let mut args = vec![
            "track".to_string(),
            fixture("rounded_box.step"),
            "--path".into(),
            path.to_str().unwrap().into(),
            "--out".into(),
            trace.to_str().unwrap().into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = extrack(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&trace).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = header.iter().position(|h| *h == "status").unwrap();
        let mut rows = 0;
        let mut flagged = 0;
        for l in lines {
            let cells: Vec<&str> = l.split(',').collect();
            let bits: u32 = cells[col].parse().unwrap();
            let d: f64 = cells[4].parse().unwrap();
            let flag = bits & 8 != 0;
            assert!(want || !flag, "{l}");
            if !want {
                exact.push(d);
            } else if !flag {
                assert!((d - exact[rows]).abs() <= 1e-9, "{l}: default run {}", exact[rows]);
            } else {
                assert!(d >= exact[rows] - 1e-9, "{l}: default run {}", exact[rows]);
            }
            flagged += usize::from(flag);
            rows += 1;
        }
        assert_eq!(rows, 50);
        if want {
            assert!(flagged >= 25, "{flagged} of 50 rows unconverged");
        }
    }
}

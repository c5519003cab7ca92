//! `extrack batch`: one scene per input, byte-identical to `extrack import`;
//! up-to-date scenes skipped; failures reported in the JSON-lines report
//! without stopping the batch.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn extrack(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_extrack")).args(args).output().unwrap()
}

fn report(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn by_file<'a>(rows: &'a [serde_json::Value], file: &Path) -> &'a serde_json::Value {
    let f = file.display().to_string();
    rows.iter()
        .find(|r| r["file"] == f.as_str())
        .unwrap_or_else(|| panic!("{f} not in {rows:?}"))
}

#[test]
fn batch_prepares_skips_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let names = ["ellipsoid.step", "torus.brep.igs", "holed_plate.step"];
    for n in names {
        std::fs::copy(root().join("fixtures").join(n), input.join(n)).unwrap();
    }
    let broken = input.join("broken.igs");
    std::fs::write(&broken, "not an IGES file\n").unwrap();
    let missing = input.join("missing.step");
    let dup_dir = dir.path().join("dup");
    std::fs::create_dir(&dup_dir).unwrap();
    let dup = dup_dir.join("ellipsoid.step");
    std::fs::copy(root().join("fixtures/ellipsoid.step"), &dup).unwrap();
    let out = dir.path().join("out");

    let mut args: Vec<std::ffi::OsString> = vec!["batch".into()];
    args.extend(names.iter().map(|n| input.join(n).into_os_string()));
    args.extend([
        broken.clone().into_os_string(),
        missing.clone().into_os_string(),
        dup.clone().into_os_string(),
    ]);
    args.extend(["-o".into(), out.clone().into_os_string(), "--jobs".into(), "2".into()]);
    let argv: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let o = extrack(&argv);
    // failures make the exit code 1, after the whole batch
    assert!(!o.status.success());
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("6 files: 3 prepared, 0 up to date, 3 failed"),
        "{stdout}"
    );

    let rows = report(&out.join("report.jsonl"));
    assert_eq!(rows.len(), 6);
    for n in names {
        let r = by_file(&rows, &input.join(n));
        assert!(r["error"].is_null(), "{r}");
        assert_eq!(r["up_to_date"], false);
        for k in ["bodies", "faces", "pieces", "seconds", "output_bytes"] {
            assert!(r[k].as_f64().unwrap() >= 0.0, "{k}: {r}");
        }
        assert!(r["warnings"].is_array());
        // the self-check of the scene (the repository fixtures pass it)
        assert_eq!(r["self_check"]["passed"], true, "{r}");
        assert_eq!(r["self_check"]["failed_faces"], serde_json::json!([]), "{r}");
        // byte-identical to `extrack import`
        let single = dir.path().join(format!("{n}.single.exs"));
        let oi = extrack(&[
            "import".as_ref(),
            input.join(n).as_os_str(),
            "-o".as_ref(),
            single.as_os_str(),
        ]);
        assert!(oi.status.success());
        let scene = out.join(format!("{n}.exs"));
        assert_eq!(r["output"], scene.display().to_string().as_str());
        assert_eq!(std::fs::read(&scene).unwrap(), std::fs::read(&single).unwrap(), "{n}");
    }
    assert!(by_file(&rows, &broken)["error"].as_str().unwrap().len() > 3);
    assert!(by_file(&rows, &broken)["bodies"].is_null());
    assert!(by_file(&rows, &missing)["error"]
        .as_str()
        .unwrap()
        .contains("missing.step"));
    assert!(by_file(&rows, &dup)["error"].as_str().unwrap().contains("already used"));

    // second run: everything up to date, the report says so
    let (in0, in1) = (input.join(names[0]), input.join(names[1]));
    let argv2: Vec<&std::ffi::OsStr> = [
        "batch".as_ref(),
        in0.as_os_str(),
        in1.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]
    .to_vec();
    let o = extrack(&argv2);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 files: 0 prepared, 2 up to date, 0 failed"));
    let rows2 = report(&out.join("report.jsonl"));
    assert!(rows2.iter().all(|r| r["up_to_date"] == true && r["error"].is_null()));
    assert_eq!(
        by_file(&rows2, &input.join(names[0]))["pieces"],
        by_file(&rows, &input.join(names[0]))["pieces"]
    );

    // a changed input is prepared again
    std::fs::copy(root().join("fixtures/rounded_box.step"), input.join(names[0])).unwrap();
    let o = extrack(&argv2);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 files: 1 prepared, 1 up to date, 0 failed"));
    // other options: prepared again; --report elsewhere
    let other = dir.path().join("r.jsonl");
    let mut argv3 = argv2.clone();
    argv3.extend([
        "--max-cone-deg".as_ref(),
        "70".as_ref(),
        "--report".as_ref(),
        other.as_os_str(),
    ]);
    let o = extrack(&argv3);
    assert!(o.status.success());
    assert!(report(&other).iter().all(|r| r["up_to_date"] == false));
}

//! `extrack dump`: prints a valid scene, rejects foreign and corrupted files with one line.

use crate::common::scene_fixture as fixture;

use extrack::scene::{dump, AlignedBytes, SceneView};
use std::process::Command;

fn run(path: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_extrack"))
        .arg("dump")
        .arg(path)
        .output()
        .unwrap()
}

#[test]
fn dump_prints_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.exs");
    let data = fixture::small_scene();
    data.write_to_path(&path).unwrap();
    let out = run(&path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = AlignedBytes::from_slice(&data.write());
    let expected = dump(&SceneView::from_bytes(bytes.as_bytes()).unwrap());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn dump_rejects_bad_files_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut corrupted = fixture::small_scene().write();
    corrupted[2000] ^= 0x10;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "part.step",
            b"ISO-10303-21;\nHEADER;\nENDSEC;\n".to_vec(),
            "not an extrack scene",
        ),
        ("corrupt.exs", corrupted, "checksum mismatch"),
        ("short.exs", fixture::small_scene().write()[..100].to_vec(), "too short"),
        (
            "cut.exs",
            fixture::small_scene().write()[..1000].to_vec(),
            "length mismatch",
        ),
        ("empty.exs", vec![], "too short"),
    ];
    for (name, bytes, needle) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = run(&path);
        assert!(!out.status.success(), "{name} accepted");
        assert!(out.stdout.is_empty(), "{name}: printed output");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.starts_with("extrack: error: ") && err.contains(name) && err.contains(needle),
            "{name}: {err}"
        );
    }
    let out = run(&dir.path().join("missing.exs"));
    assert!(!out.status.success());
    assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
}

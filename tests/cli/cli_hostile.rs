//! `extrack import` on hostile input: one escaped line on stderr (no raw
//! NUL or invalid byte), and `--time-limit` refusing a file with a clear
//! message.

use std::path::PathBuf;
use std::process::Command;

fn hostile(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hostile")
        .join(name)
}

fn import(file: &PathBuf, extra: &[&str]) -> std::process::Output {
    let out = std::env::temp_dir().join(format!("extrack_cli_hostile_{}.exs", std::process::id()));
    Command::new(env!("CARGO_BIN_EXE_extrack"))
        .arg("import")
        .arg(file)
        .arg("-o")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_nul_byte_of_the_input_comes_out_escaped() {
    let out = import(&hostile("cube_nul_in_entity_name.stp"), &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert!(err.contains("\\x00POINT\\xFF"), "{err}");
    assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn a_time_limit_refuses_a_slow_file_with_a_clear_message() {
    // the slowest regression input of the campaign: seconds of bounded work
    let out = import(&hostile("ug_as1_poles_swapped.stp"), &["--time-limit", "0.05"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("time limit of 0.05 s") && err.contains("refused"), "{err}");
    let bad = import(&hostile("ug_as1_poles_swapped.stp"), &["--time-limit=-1"]);
    let bad = String::from_utf8_lossy(&bad.stderr);
    assert!(bad.contains("not a positive number"), "{bad}");
}

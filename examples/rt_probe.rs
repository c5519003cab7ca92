//! Probe: round trips over files given on the command line, printing comparison reports.
use extrack::export::compare::{compare_models, CompareOptions};
use extrack::export::{write_model, Format};
use extrack::import::import_bytes;

fn main() {
    let to = match std::env::args().nth(1).as_deref() {
        Some("iges") => Format::Iges,
        _ => Format::Step,
    };
    for path in std::env::args().skip(2) {
        let bytes = std::fs::read(&path).unwrap();
        let name = std::path::Path::new(&path).file_name().unwrap().to_string_lossy().to_string();
        let m1 = match import_bytes(&bytes, &name) {
            Ok(m) => m,
            Err(e) => {
                println!("{name}: import error {e}");
                continue;
            }
        };
        let w1 = match write_model(&m1, to) {
            Ok(w) => w,
            Err(e) => {
                println!("{name}: write error {e}");
                continue;
            }
        };
        let m2 = match import_bytes(&w1.bytes, &name) {
            Ok(m) => m,
            Err(e) => {
                std::fs::write("/tmp/rt_fail.out", &w1.bytes).unwrap();
                println!("{name}: re-import error {e}");
                continue;
            }
        };
        let w2 = write_model(&m2, to).unwrap();
        if w1.bytes != w2.bytes {
            std::fs::write(format!("/tmp/rt_{name}.1"), &w1.bytes).unwrap();
            std::fs::write(format!("/tmp/rt_{name}.2"), &w2.bytes).unwrap();
        }
        let c = compare_models(&m1, &m2, &CompareOptions::default());
        println!(
            "{name}: faces {} warnings {} identical_second={} {}",
            m1.faces.len(),
            w1.warnings.len(),
            w1.bytes == w2.bytes,
            c.report(6)
        );
        for w in w1.warnings.iter().take(3) {
            println!("   warn: {w}");
        }
    }
}

/// Writes both STEP outputs of one file for diffing.
#[allow(dead_code)]
fn dump_pair() {}

//! Development harness for the self-check's known-failure list (issue 25):
//! runs import → prepare → `verify` on the corpus and wave2 files up to
//! 1.1 MB (all sizes with `ALL_SIZES=1`) and prints one line per failing
//! face: file, face, failed checks (as `verify_known.tsv` names them), and
//! the measures (tolerance, worst boundary and containment distances,
//! Model and piece areas).
//! `cargo run --release -p extrack-dev --bin vknown -- [NAME_FILTER]`
use extrack::prepare::{prepare, PrepareOptions};
use extrack::verify::{verify, BOUNDARY, CONTAINMENT, COVERAGE, DROPPED, FAILURE_BITS};
use std::path::Path;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures");
    let all = std::env::var_os("ALL_SIZES").is_some();
    let mut files = Vec::new();
    for dir in [root.join("corpus"), root.join("wave2/corpus")] {
        for e in std::fs::read_dir(dir).expect("fixtures").flatten() {
            let p = e.path();
            let ext = p
                .extension()
                .and_then(|x| x.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            let size = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(u64::MAX);
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if ["step", "stp", "igs", "iges"].contains(&ext.as_str())
                && (all || size <= 1_100_000)
                && name.contains(&filter)
            {
                files.push(p);
            }
        }
    }
    files.sort();
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let model = match extrack::import::import_file(&p) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let scene = match prepare(&model, &PrepareOptions::default()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let r = verify(&model, &scene);
        for (f, c) in r.faces.iter().zip(&r.context) {
            if f.failed & FAILURE_BITS == 0 {
                continue;
            }
            let mut what = Vec::new();
            for (bit, n) in [
                (DROPPED, "dropped"),
                (COVERAGE, "coverage"),
                (CONTAINMENT, "containment"),
                (BOUNDARY, "boundary"),
            ] {
                if f.failed & bit != 0 {
                    what.push(n);
                }
            }
            println!(
                "{name}\t{}\t{}\ttol {:.2e} b {:.3e} c {:.3e} model {:.6} pieces {:.6} atol {:.2e}",
                f.source_face,
                what.join(","),
                c.tolerance,
                f.worst_boundary,
                f.worst_containment,
                f.model_area,
                f.piece_area,
                c.area_tolerance
            );
        }
        eprintln!("{name}: {} faces, {} failed", r.summary.faces, r.summary.failed);
    }
}

//! The self-check's cost (issue 25): for every file of the corpus and of
//! wave2 (`../shared/fixtures`), one import, prepare and `verify` on one
//! thread, each timed by the process's CPU time (a loaded machine disturbs
//! it far less than the wall clock), and verify's share of import +
//! prepare. Prints a markdown table (docs/benchmarks.md, "Self-check cost")
//! and, at the end, the files above `VERIFY_COST_LIMIT` percent (default
//! 25). `VERIFY_COST_FILTER=substring` restricts the files; files above
//! `VERIFY_COST_MAX_MB` (default: no limit) are skipped. Skips when the
//! fixtures are absent.

use extrack::verify::cost::{measure, process_cpu_seconds};
use std::path::{Path, PathBuf};

fn files(root: &Path) -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    for (set, dir) in [("corpus", root.join("corpus")), ("wave2", root.join("wave2/corpus"))] {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let ext = p
                .extension()
                .and_then(|x| x.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if ["step", "stp", "igs", "iges"].contains(&ext.as_str()) {
                v.push((set.to_string(), p));
            }
        }
    }
    v.sort();
    v
}

fn main() {
    // one thread: CPU time is the work, with no idle pool threads spinning
    std::env::set_var("RAYON_NUM_THREADS", "1");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    if !root.join("corpus").is_dir() {
        println!("skipping: ../shared/fixtures is absent");
        return;
    }
    if process_cpu_seconds().is_none() {
        println!("note: no per-process CPU time on this platform; wall-clock seconds below");
    }
    let filter = std::env::var("VERIFY_COST_FILTER").unwrap_or_default();
    let limit: f64 = std::env::var("VERIFY_COST_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25.0);
    let max_bytes = std::env::var("VERIFY_COST_MAX_MB")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(u64::MAX, |mb| (mb * 1e6) as u64);
    println!(
        "| set | file | faces | pieces | import CPU s | prepare CPU s | verify CPU s | verify / (import + prepare) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let (mut sum_ip, mut sum_v) = (0.0, 0.0);
    let mut over = Vec::new();
    for (set, path) in files(&root) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if !name.contains(&filter) || std::fs::metadata(&path).map_or(0, |m| m.len()) > max_bytes {
            continue;
        }
        let m = match measure(&path) {
            Ok(m) => m,
            Err(e) => {
                println!("| {set} | {name} | failed: {e} | | | | | |");
                continue;
            }
        };
        let c = &m.cost;
        let secs = |s: &extrack::verify::cost::StageTime| s.cpu.unwrap_or(s.wall);
        let (i, p, v) = (secs(&c.import), secs(&c.prepare), secs(&c.verify));
        sum_ip += i + p;
        sum_v += v;
        let pct = 100.0 * c.ratio();
        if pct > limit {
            over.push(format!("{name} ({pct:.1} %)"));
        }
        println!(
            "| {set} | {name} | {} | {} | {i:.3} | {p:.3} | {v:.3} | {pct:.1} % |",
            m.report.summary.faces,
            m.scene.pieces.len()
        );
    }
    println!(
        "\nall files: verify {sum_v:.2} s over import + prepare {sum_ip:.2} s = {:.1} %",
        100.0 * sum_v / sum_ip.max(1e-12)
    );
    if over.is_empty() {
        println!("every file at or below {limit} %");
    } else {
        println!("above {limit} %: {}", over.join(", "));
    }
}

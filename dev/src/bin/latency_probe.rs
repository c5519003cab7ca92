//! Development probe of point–body latency over the corpus and wave2
//! (issue 27): per file and path the update-time distribution together with
//! the work counters that explain it (far-phase cells solved, controller
//! iterations, switches; those of the slowest update), the cold query's
//! times and cells, batch throughput, and coherent = cold checks.
//! `cargo run --release -p extrack-dev --bin latency_probe -- [STEPS] [FILTER...]`
//! (default 3,000 steps per path; FILTER keeps files whose name contains it).
#[path = "../../../benches/common/latency.rs"]
mod latency;
#[path = "../../../benches/common/lissajous.rs"]
mod lissajous_path;
#[path = "../../../benches/common/point_paths.rs"]
mod point_paths;

use point_paths::pct;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().collect();
    let steps: usize = a.get(1).map_or(Ok(3000), |s| s.parse())?;
    let filters: Vec<&String> = a.iter().skip(2).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = latency::corpus_files(&root);
    println!("{}", latency::table_header());
    let mut rows = Vec::new();
    for f in files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if !filters.is_empty() && !filters.iter().any(|x| name.contains(x.as_str())) {
            continue;
        }
        let t0 = std::time::Instant::now();
        let scene = match latency::load_scene(&f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{name}: skipped ({e})");
                continue;
            }
        };
        let load = t0.elapsed().as_secs_f64();
        let s = latency::measure(&f, &scene, steps, 200, 2000);
        println!("{}", latency::table_row(&s));
        for (p, st) in latency::PATHS.iter().zip(&s.paths) {
            eprintln!(
                "  {name} {p}: cells/update mean {:.2} max {}, iters mean {:.1} (far {:.1}) max {}, switches max {}, slowest update {:.0} µs had cells {} iters {}; coherent=cold {}/{} mismatches, worst {:.1e} mm",
                st.cells_mean, st.cells_max, st.iters_mean, st.far_iters_mean, st.iters_max, st.switches_max,
                st.times.last().copied().unwrap_or(0.0), st.slowest.0, st.slowest.1, st.mismatches, st.checked, st.worst_diff
            );
        }
        eprintln!(
            "  {name} cold: median {:.1} µs max {:.0} µs, cells mean {:.1} max {}; body cells {} (load {load:.1} s)",
            pct(&s.cold, 50.0),
            s.cold.last().copied().unwrap_or(0.0),
            s.cold_cells_mean,
            s.cold_cells_max,
            s.cells
        );
        rows.push(s);
    }
    Ok(())
}

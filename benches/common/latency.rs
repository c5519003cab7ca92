//! Per-file point–body latency measurement (issue 27), shared by
//! `benches/point_body.rs` (the printed per-file table) and
//! `dev/src/bin/latency_probe.rs` (the same figures with the work counters):
//! the coherent update along three paths (`lissajous.rs`, `point_paths.rs`),
//! the cold query at points along them, batch throughput, and the check that
//! every 20th coherent answer equals the cold query's.
#![allow(dead_code)]

use super::lissajous_path::lissajous_of;
use super::point_paths::{grazing, main_body, oracle_points, pct, random_segments, H};
use extrack::geom::{Pose, Vec3};
use extrack::prepare::{prepare, PrepareOptions};
use extrack::track::{
    closest_point, closest_points, BodyState, PointBodyTracker, PointState, Target, TrackScene, TrackerConfig,
};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The three paths of a file.
pub const PATHS: [&str; 3] = ["lissajous", "segments", "grazing"];

/// The coherent updates of one path.
#[derive(Debug, Clone, Default)]
pub struct PathStats {
    /// Sorted update times, µs.
    pub times: Vec<f64>,
    /// Far-phase cells solved: mean and max per update.
    pub cells_mean: f64,
    /// Max cells solved in one update.
    pub cells_max: u32,
    /// Controller iterations: mean and max per update.
    pub iters_mean: f64,
    /// Max iterations in one update.
    pub iters_max: u32,
    /// Of the iterations, the far phase's: mean per update.
    pub far_iters_mean: f64,
    /// Max feature switches in one update.
    pub switches_max: u32,
    /// Cells solved and iterations of the slowest update.
    pub slowest: (u32, u32),
    /// Every 20th update checked against a cold query: checks and mismatches (distance beyond 1e-9 relative).
    pub checked: usize,
    /// Mismatches.
    pub mismatches: usize,
    /// Largest |coherent − cold| distance difference, mm.
    pub worst_diff: f64,
}

/// One file's figures.
#[derive(Debug, Clone, Default)]
pub struct FileStats {
    /// File name.
    pub name: String,
    /// Pieces and cells of the tracked body.
    pub pieces: usize,
    /// Far-phase cells of the tracked body.
    pub cells: usize,
    /// Per path, in [`PATHS`] order.
    pub paths: Vec<PathStats>,
    /// Sorted cold-query times, µs.
    pub cold: Vec<f64>,
    /// Cells solved per cold query: mean and max.
    pub cold_cells_mean: f64,
    /// Max cells solved by one cold query.
    pub cold_cells_max: u32,
    /// Batch (`closest_points`, rayon) points per second.
    pub batch_pps: f64,
}

/// Corpus and wave2 files (sorted), from `../shared/fixtures`; empty when absent.
pub fn corpus_files(root: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in ["../shared/fixtures/corpus", "../shared/fixtures/wave2/corpus"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            let mut f: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let ext = p
                        .extension()
                        .and_then(|x| x.to_str())
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    matches!(ext.as_str(), "igs" | "iges" | "stp" | "step")
                })
                .collect();
            f.sort();
            v.extend(f);
        }
    }
    v
}

/// Imports and prepares a file.
pub fn load_scene(path: &Path) -> Result<TrackScene, String> {
    let m = extrack::import::import_file(path).map_err(|e| e.to_string())?;
    let s = prepare(&m, &PrepareOptions::default()).map_err(|e| e.to_string())?;
    TrackScene::from_data(&s).map_err(|e| e.to_string())
}

fn run_path(scene: &TrackScene, body: u32, path: &[PointState]) -> PathStats {
    let still = BodyState::default();
    let target = Target::Body {
        index: body,
        pose: Pose::identity(),
    };
    let mut t = PointBodyTracker::new(scene, body, TrackerConfig::default()).expect("tracker");
    let mut st = PathStats::default();
    if path.is_empty() {
        return st;
    }
    t.update(scene, &path[0], &still, 0.0).expect("first update");
    let mut times = Vec::with_capacity(path.len());
    let (mut cells, mut iters, mut far_iters) = (0u64, 0u64, 0u64);
    let mut slowest = 0.0;
    for (i, p) in path[1..].iter().enumerate() {
        let t0 = Instant::now();
        let r = t.update(scene, p, &still, H);
        let dt = t0.elapsed().as_nanos() as f64 / 1e3;
        let Ok(r) = r else { continue };
        times.push(dt);
        cells += u64::from(r.cells_solved);
        iters += u64::from(r.iterations);
        far_iters += u64::from(t.far_state().iterations);
        st.cells_max = st.cells_max.max(r.cells_solved);
        st.iters_max = st.iters_max.max(r.iterations);
        st.switches_max = st.switches_max.max(r.switches);
        if dt > slowest {
            slowest = dt;
            st.slowest = (r.cells_solved, r.iterations);
        }
        if i % 20 == 19 {
            if let Ok(c) = closest_point(scene, &target, p.q) {
                st.checked += 1;
                let diff = (c.distance - r.distance).abs();
                st.worst_diff = st.worst_diff.max(diff);
                if diff > 1e-9 * (1.0 + c.distance) {
                    st.mismatches += 1;
                }
            }
        }
    }
    let k = times.len().max(1) as f64;
    st.cells_mean = cells as f64 / k;
    st.iters_mean = iters as f64 / k;
    st.far_iters_mean = far_iters as f64 / k;
    times.sort_by(f64::total_cmp);
    st.times = times;
    st
}

/// Measures one file: `steps` updates per path, `cold` cold queries, `batch` batch points.
pub fn measure(path: &Path, scene: &TrackScene, steps: usize, cold: usize, batch: usize) -> FileStats {
    let body = main_body(scene);
    let b = &scene.bodies[body as usize];
    let oracle = oracle_points(path);
    let paths = [
        lissajous_of(scene, body, steps),
        random_segments(scene, body, &oracle, steps, 27),
        grazing(scene, body, steps),
    ];
    let mut fs = FileStats {
        name: path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string(),
        pieces: b.pieces.len(),
        cells: b.cells.len(),
        ..Default::default()
    };
    for p in &paths {
        fs.paths.push(run_path(scene, body, p));
    }
    // cold queries at points spread over all three paths
    let all: Vec<Vec3> = paths.iter().flat_map(|p| p.iter().map(|s| s.q)).collect();
    let target = Target::Body {
        index: body,
        pose: Pose::identity(),
    };
    let pick = |n: usize| -> Vec<Vec3> {
        let stride = (all.len() / n.max(1)).max(1);
        all.iter().step_by(stride).take(n).copied().collect()
    };
    let mut times = Vec::with_capacity(cold);
    let mut cells = 0u64;
    let qs = pick(cold);
    for q in &qs {
        let t0 = Instant::now();
        let r = closest_point(scene, &target, *q);
        times.push(t0.elapsed().as_nanos() as f64 / 1e3);
        if let Ok(r) = r {
            cells += u64::from(r.cells_solved);
            fs.cold_cells_max = fs.cold_cells_max.max(r.cells_solved);
        }
    }
    fs.cold_cells_mean = cells as f64 / qs.len().max(1) as f64;
    times.sort_by(f64::total_cmp);
    fs.cold = times;
    let qs = pick(batch);
    let t0 = Instant::now();
    let n = closest_points(scene, &target, &qs).len();
    fs.batch_pps = n as f64 / t0.elapsed().as_secs_f64();
    fs
}

/// The markdown header of the per-file table.
pub fn table_header() -> String {
    let mut s = String::from("| file | pieces |");
    let mut sep = String::from("|---|---|");
    for p in PATHS {
        s += &format!(" {p} median / p99 / p99.9 / max µs |");
        sep += "---|";
    }
    s += " cold median / max µs | batch points/s |\n";
    sep += "---|---|";
    s + &sep
}

/// One markdown row of the per-file table.
pub fn table_row(f: &FileStats) -> String {
    let mut s = format!("| {} | {} |", f.name, f.pieces);
    for p in &f.paths {
        s += &format!(
            " {:.2} / {:.1} / {:.1} / {:.0} |",
            pct(&p.times, 50.0),
            pct(&p.times, 99.0),
            pct(&p.times, 99.9),
            p.times.last().copied().unwrap_or(f64::NAN)
        );
    }
    s += &format!(
        " {:.1} / {:.0} | {:.0} |",
        pct(&f.cold, 50.0),
        f.cold.last().copied().unwrap_or(f64::NAN),
        f.batch_pps
    );
    s
}

//! Development probe of point–body work per update in **instructions**
//! (issue 27), for a shared machine without hardware counters: run it under
//! callgrind and it brackets every coherent update with callgrind client
//! requests (zero the counters before, dump after), so each dump holds one
//! update; `sum` reads the dumps' `totals:` lines.
//!
//! `cargo run --release -p extrack-dev --bin instr_probe -- prep NAME FILE`
//! imports and prepares FILE natively and writes `/tmp/extrack_instr/NAME.exs`;
//! `valgrind --tool=callgrind --collect-atstart=no --combine-dumps=yes
//!  --callgrind-out-file=OUT target/release/instr_probe run NAME PATH STEPS`
//! then loads the scene (no import under valgrind) and runs PATH
//! (`lissajous`, `segments`, `grazing`; STEPS updates) on the scene's
//! largest body, printing the cells solved per update (with
//! `INSTR_PROBE_PROFILE=1`: one profile of all updates for
//! `callgrind_annotate`, no per-update dumps). Natively, `run`
//! prints only the counts. `sum OUT` prints median / p99 / max / mean
//! instructions per update from a combined dump file.
//! `cold NAME N STEPS` brackets N cold queries ([`closest_point`]) at points
//! spread over the three paths of STEPS updates each (the bench's cold
//! column), one dump per query, and prints cells solved per query.
#[path = "../../../benches/common/lissajous.rs"]
mod lissajous_path;
#[path = "../../../benches/common/point_paths.rs"]
mod point_paths;

use extrack::geom::{Pose, Vec3};
use extrack::track::{closest_point, BodyState, PointBodyTracker, Target, TrackScene, TrackerConfig};
use point_paths::{grazing, main_body, oracle_points, random_segments, H};
use std::path::{Path, PathBuf};

/// Callgrind's client request base `('C' << 24) | ('T' << 16)`.
const CG_BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
/// `CALLGRIND_DUMP_STATS`.
const CG_DUMP: u64 = CG_BASE;
/// `CALLGRIND_ZERO_STATS`.
const CG_ZERO: u64 = CG_BASE + 1;
/// `CALLGRIND_TOGGLE_COLLECT` (run with `--collect-atstart=no`).
const CG_TOGGLE: u64 = CG_BASE + 2;

/// A valgrind client request (the x86_64 magic sequence of valgrind.h); a
/// no-op returning 0 outside valgrind.
#[inline(always)]
fn client_request(req: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let args: [u64; 6] = [req, 0, 0, 0, 0, 0];
        let mut res: u64 = 0;
        // SAFETY: the sequence rotates rdi by 128 bits (unchanged) and
        // exchanges rbx with itself; valgrind intercepts it, natively it does nothing.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51",
                "xchg rbx, rbx",
                inout("rdx") res,
                in("rax") args.as_ptr(),
                out("rdi") _,
                options(nostack)
            );
        }
        res
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = req;
        0
    }
}

fn cache(name: &str) -> PathBuf {
    Path::new("/tmp/extrack_instr").join(format!("{name}.exs"))
}

fn load(name: &str) -> Result<TrackScene, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(cache(name))?;
    let aligned = extrack::scene::AlignedBytes::from_slice(&bytes);
    let view = extrack::scene::SceneView::from_bytes(aligned.as_bytes())?;
    Ok(TrackScene::new(&view)?)
}

fn summarize(out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(out)?;
    let mut v: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("totals:"))
        .filter_map(|s| s.split_whitespace().next()?.parse().ok())
        .collect();
    if v.is_empty() {
        return Err("no totals in the dump".into());
    }
    v.sort_unstable();
    let p = |x: f64| v[((v.len() as f64 * x) as usize).min(v.len() - 1)];
    let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
    println!(
        "updates {} | instructions per update: median {} p99 {} p99.9 {} max {} mean {:.0}",
        v.len(),
        p(0.5),
        p(0.99),
        p(0.999),
        v[v.len() - 1],
        mean
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let usage = "instr_probe prep NAME FILE | run NAME PATH STEPS | cold NAME N STEPS | sum OUT";
    match a.first().map(String::as_str) {
        Some("prep") if a.len() == 3 => {
            let m = extrack::import::import_file(&a[2])?;
            let s = extrack::prepare::prepare(&m, &Default::default())?;
            std::fs::create_dir_all("/tmp/extrack_instr")?;
            s.write_to_path(cache(&a[1]))?;
            std::fs::write(cache(&a[1]).with_extension("src"), &a[2])?;
            Ok(())
        }
        Some("run") if a.len() == 4 => {
            let scene = load(&a[1])?;
            let steps: usize = a[3].parse()?;
            let body = main_body(&scene);
            let src = std::fs::read_to_string(cache(&a[1]).with_extension("src"))?;
            let path = match a[2].as_str() {
                "lissajous" => lissajous_path::lissajous_of(&scene, body, steps),
                "segments" => random_segments(&scene, body, &oracle_points(Path::new(&src)), steps, 27),
                "grazing" => grazing(&scene, body, steps),
                p => return Err(format!("unknown path {p}").into()),
            };
            let still = BodyState::default();
            let mut t = PointBodyTracker::new(&scene, body, TrackerConfig::default())?;
            t.update(&scene, &path[0], &still, 0.0)?;
            let (mut cells, mut n) = (0u64, 0u64);
            // INSTR_PROBE_PROFILE: one profile of all updates (no per-update dumps)
            let per_update = std::env::var_os("INSTR_PROBE_PROFILE").is_none();
            for p in &path[1..] {
                if per_update {
                    client_request(CG_ZERO);
                }
                client_request(CG_TOGGLE);
                let r = t.update(&scene, p, &still, H);
                client_request(CG_TOGGLE);
                if per_update {
                    client_request(CG_DUMP);
                }
                if let Ok(r) = r {
                    cells += u64::from(r.cells_solved);
                    n += 1;
                }
            }
            println!(
                "{} {}: {n} updates, cells solved per update {:.2}",
                a[1],
                a[2],
                cells as f64 / n.max(1) as f64
            );
            Ok(())
        }
        Some("cold") if a.len() == 4 => {
            let scene = load(&a[1])?;
            let n: usize = a[2].parse()?;
            let steps: usize = a[3].parse()?;
            let body = main_body(&scene);
            let src = std::fs::read_to_string(cache(&a[1]).with_extension("src"))?;
            let paths = [
                lissajous_path::lissajous_of(&scene, body, steps),
                random_segments(&scene, body, &oracle_points(Path::new(&src)), steps, 27),
                grazing(&scene, body, steps),
            ];
            let all: Vec<Vec3> = paths.iter().flat_map(|p| p.iter().map(|s| s.q)).collect();
            let stride = (all.len() / n.max(1)).max(1);
            let target = Target::Body {
                index: body,
                pose: Pose::identity(),
            };
            let mut cells: Vec<u32> = Vec::with_capacity(n);
            let per_query = std::env::var_os("INSTR_PROBE_PROFILE").is_none();
            for q in all.iter().step_by(stride).take(n) {
                if per_query {
                    client_request(CG_ZERO);
                }
                client_request(CG_TOGGLE);
                let r = closest_point(&scene, &target, *q);
                client_request(CG_TOGGLE);
                if per_query {
                    client_request(CG_DUMP);
                }
                if let Ok(r) = r {
                    cells.push(r.cells_solved);
                }
            }
            cells.sort_unstable();
            let m = cells.len().max(1);
            println!(
                "{} cold: {} queries, cells solved median {} p99 {} max {} mean {:.1}",
                a[1],
                cells.len(),
                cells.get(m / 2).copied().unwrap_or(0),
                cells.get((m * 99 / 100).min(m - 1)).copied().unwrap_or(0),
                cells.last().copied().unwrap_or(0),
                cells.iter().map(|&c| f64::from(c)).sum::<f64>() / m as f64
            );
            Ok(())
        }
        Some("sum") if a.len() == 2 => summarize(Path::new(&a[1])),
        _ => Err(usage.into()),
    }
}

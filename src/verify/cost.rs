//! The cost of the self-check against the work it checks: import, prepare
//! and verify of one file, each timed by the wall clock and by the CPU time
//! of the process (all its threads), which a loaded machine disturbs far
//! less than the wall clock. `extrack verify --time` prints it, and the
//! `verify_cost` bench prints it as a table over the corpus
//! (docs/benchmarks.md, "Self-check cost").

use super::{verify, VerifyReport};
use crate::import::model::Model;
use crate::prepare::{prepare, PrepareOptions};
use crate::scene::data::SceneData;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// The time of one stage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct StageTime {
    /// Wall-clock seconds.
    pub wall: f64,
    /// CPU seconds of the process's threads (`None` where the platform does
    /// not tell: then only the wall clock is known).
    pub cpu: Option<f64>,
}

/// The times of import, prepare and verify of one file.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Cost {
    /// Reading the file into a Model.
    pub import: StageTime,
    /// Preparing the scene.
    pub prepare: StageTime,
    /// The self-check.
    pub verify: StageTime,
}

impl Cost {
    /// Verify's time over import + prepare: by CPU time when known, else by
    /// the wall clock.
    pub fn ratio(&self) -> f64 {
        let pick = |s: &StageTime| s.cpu.unwrap_or(s.wall);
        pick(&self.verify) / (pick(&self.import) + pick(&self.prepare)).max(1e-12)
    }

    /// One line: the stages' wall and CPU seconds and the ratio.
    pub fn to_line(&self) -> String {
        let cpu = |s: &StageTime| s.cpu.map_or("-".to_string(), |c| format!("{c:.3}"));
        format!(
            "time: import {:.3} s, prepare {:.3} s, verify {:.3} s; CPU: import {} s, prepare {} s, verify {} s; verify / (import + prepare) = {:.1} %",
            self.import.wall,
            self.prepare.wall,
            self.verify.wall,
            cpu(&self.import),
            cpu(&self.prepare),
            cpu(&self.verify),
            100.0 * self.ratio()
        )
    }
}

/// CPU seconds used so far by all threads of this process (Linux:
/// `/proc/self/task/*/schedstat`; `None` elsewhere). Threads that have
/// exited are not counted (the stages run on the calling thread and the
/// rayon pool, whose threads live as long as the process).
pub fn process_cpu_seconds() -> Option<f64> {
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    let mut ns: u64 = 0;
    let mut any = false;
    for t in tasks.flatten() {
        let Ok(s) = std::fs::read_to_string(t.path().join("schedstat")) else {
            continue;
        };
        if let Some(v) = s.split_whitespace().next().and_then(|x| x.parse::<u64>().ok()) {
            ns += v;
            any = true;
        }
    }
    any.then_some(ns as f64 * 1e-9)
}

/// Times `f` by the wall clock and the process's CPU time.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, StageTime) {
    let (c0, t0) = (process_cpu_seconds(), Instant::now());
    let out = f();
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (c0, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some((b - a).max(0.0)),
        _ => None,
    };
    (out, StageTime { wall, cpu })
}

/// What [`measure`] produced.
pub struct Measured {
    /// The Model.
    pub model: Model,
    /// The prepared scene.
    pub scene: SceneData,
    /// The self-check's report.
    pub report: VerifyReport,
    /// The stages' times.
    pub cost: Cost,
}

/// Imports, prepares (default options) and verifies `path`, timing each stage.
pub fn measure(path: &Path) -> Result<Measured, String> {
    let (model, import) = timed(|| crate::import::import_file(path));
    let model = model.map_err(|e| e.to_string())?;
    let (scene, prepare_t) = timed(|| prepare(&model, &PrepareOptions::default()));
    let scene = scene.map_err(|e| e.to_string())?;
    let (report, verify_t) = timed(|| verify(&model, &scene));
    Ok(Measured {
        model,
        scene,
        report,
        cost: Cost {
            import,
            prepare: prepare_t,
            verify: verify_t,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_grows_with_work() {
        let Some(a) = process_cpu_seconds() else {
            return; // not Linux: nothing to measure
        };
        let (x, t) = timed(|| (0..20_000_000u64).fold(0u64, |s, i| s.wrapping_add(std::hint::black_box(i) * i)));
        assert!(x > 0);
        let b = process_cpu_seconds().expect("still readable");
        assert!(b >= a, "{a} → {b}");
        let cpu = t.cpu.expect("measured");
        // the loop takes some CPU time; the process's CPU time over its wall
        // time also counts the test harness's other threads (one per core),
        // so it is at most the wall time on every core
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        assert!(cpu > 0.0 && cpu <= cores * t.wall + 0.5, "{t:?}");
    }

    #[test]
    fn ratio_prefers_cpu_time() {
        let s = |wall, cpu| StageTime { wall, cpu };
        let c = Cost {
            import: s(1.0, Some(0.5)),
            prepare: s(3.0, Some(1.5)),
            verify: s(8.0, Some(0.5)),
        };
        assert!((c.ratio() - 0.25).abs() < 1e-12);
        let w = Cost {
            import: s(1.0, None),
            prepare: s(3.0, None),
            verify: s(1.0, None),
        };
        assert!((w.ratio() - 0.25).abs() < 1e-12);
        assert!(c.to_line().contains("= 25.0 %"), "{}", c.to_line());
    }
}

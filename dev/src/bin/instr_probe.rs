//! Development probe of point–body work per update in **instructions**
//! (issue 27), for a shared machine without hardware counters: run it under
//! callgrind and it brackets every coherent update with callgrind client
//! requests (zero the counters before, dump after), so each dump holds one
//! update; `sum` reads the dumps' `totals:` lines.
//!
//! `cargo run --release -p extrack-dev --bin instr_probe -- prep NAME FILE`
//! imports and prepares FILE natively and writes `/tmp/extrack_instr/NAME.exs`
//! (the directory `INSTR_PROBE_DIR` when set);
//! `valgrind --tool=callgrind --collect-atstart=no --combine-dumps=yes
//!  --callgrind-out-file=OUT target/release/instr_probe run NAME PATH STEPS`
//! then loads the scene (no import under valgrind) and runs PATH
//! (`lissajous`, `segments`, `grazing`, `jumps`: every 50th point of a
//! 50 times longer Lissajous path; STEPS updates) on the scene's
//! largest body, printing the cells solved per update (with
//! `INSTR_PROBE_PROFILE=1`: one profile of all updates for
//! `callgrind_annotate`, no per-update dumps). Natively, `run`
//! prints only the counts. `sum OUT` prints median / p99 / max / mean
//! instructions per update from a combined dump file.
//! `cold NAME N STEPS` brackets N cold queries ([`closest_point`]) at points
//! spread over the three paths of STEPS updates each (the bench's cold
//! column), one dump per query, and prints cells solved per query.
//! `why NAME PATH STEPS [JUMP]` runs natively and prints why the far phase
//! solved its cells (`far::FarWhy`, per update), the body's cell sizes and
//! the path's step lengths (`bf`: the tracker's first update and jumps
//! best first, `far::FarState::best_first`).
//! `first NAME N STEPS [bf]` brackets the first update of N fresh trackers at
//! the cold mode's points (`bf`: best first).
//! `coldcells NAME N STEPS` (natively) counts, at the cold mode's points, the
//! piece cells whose tight bound is below the answer, those the tangent
//! cones exclude (`CellCones::excludes`) and those an exact Bernstein sign
//! test of the parameter gradient would (`INSTR_PROBE_NO_BERN=1`: not
//! computed), and checks every excluded cell against the answer.
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

/// The scene cache directory: `INSTR_PROBE_DIR`, else `/tmp/extrack_instr`.
fn cache_dir() -> PathBuf {
    std::env::var_os("INSTR_PROBE_DIR").map_or_else(|| PathBuf::from("/tmp/extrack_instr"), PathBuf::from)
}

fn cache(name: &str) -> PathBuf {
    cache_dir().join(format!("{name}.exs"))
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

fn path_of(
    scene: &TrackScene,
    name: &str,
    path: &str,
    steps: usize,
) -> Result<Vec<extrack::track::PointState>, Box<dyn std::error::Error>> {
    let body = main_body(scene);
    let src = std::fs::read_to_string(cache(name).with_extension("src"))?;
    Ok(match path {
        "lissajous" => lissajous_path::lissajous_of(scene, body, steps),
        "segments" => random_segments(scene, body, &oracle_points(Path::new(&src)), steps, 27),
        "grazing" => grazing(scene, body, steps),
        // every 50th point of a 50 times longer Lissajous path: a jump per update
        "jumps" => lissajous_path::lissajous_of(scene, body, steps * 50)
            .into_iter()
            .step_by(50)
            .collect(),
        p => return Err(format!("unknown path {p}").into()),
    })
}

/// Median of a sorted-in-place sample.
fn median(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// `why NAME PATH STEPS [JUMP]`: the far phase's reasons per update.
fn why(a: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    use extrack::track::body::{CellTrim, Item};
    let scene = load(&a[1])?;
    let steps: usize = a[3].parse()?;
    let body = main_body(&scene);
    let path = path_of(&scene, &a[1], &a[2], steps)?;
    let geom = scene.body(body)?;
    let piece_cells: Vec<_> = geom.cells.iter().filter(|c| matches!(c.item, Item::Piece(_))).collect();
    let partial = piece_cells.iter().filter(|c| c.trim == CellTrim::Partial).count();
    let mut diag: Vec<f64> = piece_cells.iter().map(|c| (c.hi - c.lo).norm()).collect();
    let mut step: Vec<f64> = path.windows(2).map(|w| (w[1].q - w[0].q).norm()).collect();
    println!(
        "{}: {} pieces, {} cells ({} piece cells, {} partial), median piece-cell box diagonal {:.4}, median step {:.4}",
        a[1],
        geom.pieces.len(),
        geom.cells.len(),
        piece_cells.len(),
        partial,
        median(&mut diag),
        median(&mut step)
    );
    let still = BodyState::default();
    let mut t = PointBodyTracker::new(&scene, body, TrackerConfig::default())?;
    t.far_state_mut().best_first = a.get(4).map(String::as_str) == Some("bf");
    t.far_state_mut().count_why = true;
    t.update(&scene, &path[0], &still, 0.0)?;
    let mut sum = [0u64; 9];
    let mut cells: Vec<f64> = Vec::with_capacity(path.len());
    let mut dist: Vec<f64> = Vec::with_capacity(path.len());
    for p in &path[1..] {
        let r = t.update(&scene, p, &still, H)?;
        let w = t.far_state().why;
        for (s, v) in sum.iter_mut().zip([
            r.cells_solved,
            w.fresh,
            w.unimodal,
            w.class,
            w.side,
            w.curve,
            w.trimmed,
            w.gap,
            t.far_state().iterations,
        ]) {
            *s += u64::from(v);
        }
        cells.push(f64::from(r.cells_solved));
        dist.push(r.distance.abs());
    }
    let n = cells.len().max(1) as f64;
    let per = |k: usize| sum[k] as f64 / n;
    cells.sort_unstable_by(f64::total_cmp);
    println!(
        "{} {}: {} updates, cells solved per update mean {:.2} median {} p99 {} max {} | median |distance| {:.4}",
        a[1],
        a[2],
        cells.len(),
        per(0),
        cells[cells.len() / 2],
        cells[(cells.len() * 99 / 100).min(cells.len() - 1)],
        cells[cells.len() - 1],
        median(&mut dist)
    );
    println!(
        "  per update: fresh {:.2} unimodal {:.2} not unimodal: class {:.2} side {:.2} curve {:.2} | trimmed out {:.2} | min > 1.01 answer {:.2} | controller iterations {:.2} ({:.2} per cell)",
        per(1),
        per(2),
        per(3),
        per(4),
        per(5),
        per(6),
        per(7),
        per(8),
        per(8) / per(0).max(1e-300)
    );
    Ok(())
}

/// `first NAME N STEPS [bf]`: the first update of a fresh tracker at N
/// points spread over the three paths, one dump per update.
fn first(a: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let scene = load(&a[1])?;
    let n: usize = a[2].parse()?;
    let steps: usize = a[3].parse()?;
    let body = main_body(&scene);
    let mut all = Vec::new();
    for p in ["lissajous", "segments", "grazing"] {
        all.extend(path_of(&scene, &a[1], p, steps)?);
    }
    let stride = (all.len() / n.max(1)).max(1);
    let still = BodyState::default();
    let mut cells: Vec<u32> = Vec::with_capacity(n);
    for p in all.iter().step_by(stride).take(n) {
        let mut t = PointBodyTracker::new(&scene, body, TrackerConfig::default())?;
        t.far_state_mut().best_first = a.get(4).map(String::as_str) == Some("bf");
        client_request(CG_ZERO);
        client_request(CG_TOGGLE);
        let r = t.update(&scene, p, &still, 0.0);
        client_request(CG_TOGGLE);
        client_request(CG_DUMP);
        cells.push(r?.cells_solved);
    }
    cells.sort_unstable();
    let m = cells.len().max(1);
    println!(
        "{} first update: {} trackers, cells solved median {} max {} mean {:.1}",
        a[1],
        cells.len(),
        cells.get(m / 2).copied().unwrap_or(0),
        cells.last().copied().unwrap_or(0),
        cells.iter().map(|&c| f64::from(c)).sum::<f64>() / m as f64
    );
    Ok(())
}

/// `bounds NAME PATH STEPS EVERY`: at every EVERY-th update, each piece
/// cell whose tight bound (axis-aligned box, oriented box, quarters) is
/// below the answer is solved from its centre; prints how far its minimum
/// lies above the answer and above its bound.
fn bounds(a: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    use extrack::track::body::{box_dist2, Item};
    use extrack::track::far::{cell_config, solve_piece};
    let scene = load(&a[1])?;
    let steps: usize = a[3].parse()?;
    let every: usize = a[4].parse()?;
    let body = main_body(&scene);
    let path = path_of(&scene, &a[1], &a[2], steps)?;
    let geom = scene.body(body)?;
    let pose = extrack::track::point_body::body_pose(geom, &Pose::identity());
    let cfg = cell_config(&TrackerConfig::default());
    let still = BodyState::default();
    let mut t = PointBodyTracker::new(&scene, body, TrackerConfig::default())?;
    // [below answer][above answer by <0.1%, <1%, <5%, more]; [min − bound: <0.01 D, <0.05 D, more]
    let (mut n, mut above, mut loose, mut samples) = (0u64, [0u64; 4], [0u64; 3], 0u64);
    let mut lt_step = 0u64;
    for (i, p) in path.iter().enumerate() {
        let r = t.update(&scene, p, &still, H)?;
        if i % every != every - 1 {
            continue;
        }
        samples += 1;
        let q = pose.inverse_transform_point(&p.q);
        let d = r.distance.abs();
        let step = if i > 0 { (p.q - path[i - 1].q).norm() } else { 0.0 };
        for (c, cell) in geom.cells.iter().enumerate() {
            let Item::Piece(k) = cell.item else { continue };
            let aabb = box_dist2(&cell.lo, &cell.hi, &q).sqrt();
            let obb = geom.cell_boxes.get(c).map_or(0.0, |b| b.dist2(&q).sqrt());
            let qb = geom.cell_quarters.get(c).map_or(0.0, |qs| {
                qs.iter().map(|b| b.dist2(&q)).fold(f64::INFINITY, f64::min).sqrt()
            });
            let tight = aabb.max(obb).max(qb);
            if tight >= d {
                continue;
            }
            n += 1;
            let r = &cell.rect;
            let centre = [0.5 * (r[0] + r[1]), 0.5 * (r[2] + r[3])];
            let m = solve_piece(geom, &cfg, k, r, centre, &q).0;
            let rel = (m - d) / d;
            above[if rel < 1e-3 {
                0
            } else if rel < 1e-2 {
                1
            } else if rel < 5e-2 {
                2
            } else {
                3
            }] += 1;
            let gap = (m - tight) / d;
            loose[if gap < 1e-2 {
                0
            } else if gap < 5e-2 {
                1
            } else {
                2
            }] += 1;
            if gap >= 1e-2 && std::env::var_os("INSTR_PROBE_LOOSE").is_some() {
                let ob = geom.cell_boxes.get(c);
                println!(
                    "  loose cell {c} piece {k} {:?}: min {m:.4} answer {d:.4} aabb {aabb:.4} obb {obb:.4} quarters {qb:.4} | box half-extents {:?} aabb diagonal {:.4}",
                    geom.pieces[k as usize].class,
                    ob.map(|b| b.half),
                    (cell.hi - cell.lo).norm()
                );
            }
            lt_step += u64::from(m - d < step);
        }
    }
    let s = samples.max(1) as f64;
    println!(
        "{} {}: {samples} samples, cells with tight bound < answer per update {:.1}; their minimum above the answer by <0.1% {:.1}, <1% {:.1}, <5% {:.1}, more {:.1}; within one step {:.1}",
        a[1], a[2], n as f64 / s, above[0] as f64 / s, above[1] as f64 / s, above[2] as f64 / s, above[3] as f64 / s, lt_step as f64 / s
    );
    println!(
        "  minimum − tight bound (of the answer): <1% {:.1}, <5% {:.1}, more {:.1}",
        loose[0] as f64 / s,
        loose[1] as f64 / s,
        loose[2] as f64 / s
    );
    Ok(())
}

/// The parameter gradient's sign test by Bernstein coefficients (exact
/// polynomial bounds, the tightest test of its kind): whether `g_u` or
/// `g_v` of piece `k` over `rect` is strictly one-signed towards a side
/// inside the piece.
fn bernstein_excludes(geom: &extrack::track::body::BodyGeom, k: u32, rect: &[f64; 4], q: &Vec3) -> bool {
    use extrack::geom::bernstein::{coordinate_polys, restrict_poles};
    let s = &geom.pieces[k as usize].surface;
    let (du, dv) = (s.degree_u, s.degree_v);
    let sub = restrict_poles(du, dv, &s.cw, *rect);
    let [x, y, z, w] = coordinate_polys(du, dv, &sub);
    let a = [x.add_scaled(&w, -q.x), y.add_scaled(&w, -q.y), z.add_scaled(&w, -q.z)];
    (0..2).any(|d| {
        let der = |p: &extrack::geom::bernstein::Poly| if d == 0 { p.ds() } else { p.dt() };
        let mut dot = a[0].mul(&der(&a[0]));
        for ac in &a[1..] {
            dot = dot.add_scaled(&ac.mul(&der(ac)), 1.0);
        }
        let g = if s.rational {
            let mut sq = a[0].mul(&a[0]);
            for ac in &a[1..] {
                sq = sq.add_scaled(&ac.mul(ac), 1.0);
            }
            w.mul(&dot).add_scaled(&der(&w).mul(&sq), -1.0)
        } else {
            dot
        };
        let (lo, hi) = g.bounds();
        (lo > 0.0 && rect[2 * d] > 0.0) || (hi < 0.0 && rect[2 * d + 1] < 1.0)
    })
}

/// `coldcells NAME N STEPS`: at the cold mode's N points, the piece cells
/// whose tight bound (boxes, quarters) is below the answer, how many of them
/// the tangent cones exclude (`CellCones::excludes`) and how many the exact
/// Bernstein sign test would; each excluded cell is solved from its centre
/// and must hold no kept point nearer than the answer (a violation is printed).
fn coldcells(a: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    use extrack::track::body::{box_dist2, Item};
    use extrack::track::far::{cell_config, solve_piece};
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
    let geom = scene.body(body)?;
    let pose = extrack::track::point_body::body_pose(geom, &Pose::identity());
    let cfg = cell_config(&TrackerConfig::default());
    let target = Target::Body {
        index: body,
        pose: Pose::identity(),
    };
    let bern = std::env::var_os("INSTR_PROBE_NO_BERN").is_none();
    // must, cones, bernstein, solved, violations, near (min within 1 % of the answer) among must
    let (mut must, mut cones, mut bst, mut solved, mut bad, mut near, mut near_kept) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut queries, mut blocked) = (0u64, 0u64);
    for qw in all.iter().step_by(stride).take(n) {
        let r = closest_point(&scene, &target, *qw)?;
        queries += 1;
        solved += u64::from(r.cells_solved);
        let q = pose.inverse_transform_point(qw);
        let d = r.distance.abs();
        for (c, cell) in geom.cells.iter().enumerate() {
            let Item::Piece(k) = cell.item else { continue };
            let aabb = box_dist2(&cell.lo, &cell.hi, &q).sqrt();
            let obb = geom.cell_boxes.get(c).map_or(0.0, |b| b.dist2(&q).sqrt());
            let qb = geom.cell_quarters.get(c).map_or(0.0, |qs| {
                qs.iter().map(|b| b.dist2(&q)).fold(f64::INFINITY, f64::min).sqrt()
            });
            if aabb.max(obb).max(qb) >= d {
                continue;
            }
            must += 1;
            let ex = geom.cell_cones[c].excludes(&cell.rect, &q);
            cones += u64::from(ex);
            blocked += u64::from(!ex && geom.cell_cones[c].monotone(&q).iter().any(Option::is_some));
            if bern && bernstein_excludes(geom, k, &cell.rect, &q) {
                bst += 1;
            }
            let rc = &cell.rect;
            let centre = [0.5 * (rc[0] + rc[1]), 0.5 * (rc[2] + rc[3])];
            let (m, _, x, ..) = solve_piece(geom, &cfg, k, rc, centre, &q);
            let is_near = m <= d * 1.01;
            near += u64::from(is_near);
            if !ex {
                near_kept += u64::from(is_near);
                continue;
            }
            if m < d - 1e-9 * (1.0 + d) && geom.piece_keeps(k, x[0], x[1]) {
                bad += 1;
                println!("  VIOLATION cell {c} piece {k} rect {rc:?}: min {m:.12} at {x:?} < answer {d:.12} (q {q:?})");
            }
        }
    }
    let s = queries.max(1) as f64;
    println!(
        "{} coldcells: {queries} queries; per query: cells solved {:.1}, tight bound < answer {:.1} (min within 1 % {:.1}), excluded by cones {:.1} (left within 1 % {:.1}; monotone towards a piece side only {:.1}), by Bernstein signs {:.1}; violations {bad}",
        a[1],
        solved as f64 / s,
        must as f64 / s,
        near as f64 / s,
        cones as f64 / s,
        near_kept as f64 / s,
        blocked as f64 / s,
        bst as f64 / s
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let usage = "instr_probe prep NAME FILE | run NAME PATH STEPS | cold NAME N STEPS | first NAME N STEPS [bf] | why NAME PATH STEPS [bf] | bounds NAME PATH STEPS EVERY | coldcells NAME N STEPS | sum OUT";
    match a.first().map(String::as_str) {
        Some("prep") if a.len() == 3 => {
            let m = extrack::import::import_file(&a[2])?;
            let s = extrack::prepare::prepare(&m, &Default::default())?;
            std::fs::create_dir_all(cache_dir())?;
            s.write_to_path(cache(&a[1]))?;
            std::fs::write(cache(&a[1]).with_extension("src"), &a[2])?;
            Ok(())
        }
        Some("run") if a.len() == 4 => {
            let scene = load(&a[1])?;
            let steps: usize = a[3].parse()?;
            let body = main_body(&scene);
            let path = path_of(&scene, &a[1], &a[2], steps)?;
            let still = BodyState::default();
            let mut t = PointBodyTracker::new(&scene, body, TrackerConfig::default())?;
            t.update(&scene, &path[0], &still, 0.0)?;
            let (mut cells, mut n, mut iters, mut max_iters, mut dsum) = (0u64, 0u64, 0u64, 0u32, 0.0f64);
            // INSTR_PROBE_PROFILE: one profile of all updates (no per-update dumps)
            let per_update = std::env::var_os("INSTR_PROBE_PROFILE").is_none();
            // INSTR_PROBE_ONLY=i,j,…: one profile of those updates only (the
            // indices of `sum`'s dumps), each one's answer printed
            let only: Option<Vec<usize>> = std::env::var("INSTR_PROBE_ONLY")
                .ok()
                .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect());
            for (i, p) in path[1..].iter().enumerate() {
                let measured = only.as_ref().map_or(true, |o| o.contains(&i));
                if per_update && only.is_none() {
                    client_request(CG_ZERO);
                }
                if measured {
                    client_request(CG_TOGGLE);
                }
                let r = t.update(&scene, p, &still, H);
                if measured {
                    client_request(CG_TOGGLE);
                }
                if per_update && only.is_none() {
                    client_request(CG_DUMP);
                }
                if let (Some(_), true, Ok(r)) = (&only, measured, &r) {
                    println!(
                        "update {i}: q {:?} d {:.6} {:?} piece {} mode {:?} cells {} switches {} iterations {}",
                        p.q, r.distance, r.feature, r.piece, r.mode, r.cells_solved, r.switches, r.iterations
                    );
                }
                if let Ok(r) = r {
                    cells += u64::from(r.cells_solved);
                    iters += u64::from(r.iterations);
                    max_iters = max_iters.max(r.iterations);
                    dsum += r.distance;
                    n += 1;
                }
            }
            // the iterations (load-independent work) and the sum of the
            // answers' distances (a change of any answer shows in it)
            println!(
                "{} {}: {n} updates, cells solved per update {:.2}, iterations per update {:.2} (max {max_iters}), sum of distances {dsum:.12e}",
                a[1],
                a[2],
                cells as f64 / n.max(1) as f64,
                iters as f64 / n.max(1) as f64
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
        Some("why") if a.len() == 4 || a.len() == 5 => why(&a),
        Some("first") if a.len() == 4 || a.len() == 5 => first(&a),
        Some("bounds") if a.len() == 5 => bounds(&a),
        Some("coldcells") if a.len() == 4 => coldcells(&a),
        Some("sum") if a.len() == 2 => summarize(Path::new(&a[1])),
        _ => Err(usage.into()),
    }
}

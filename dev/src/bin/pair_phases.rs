//! Where the time of a body–body update goes, by counts: runs a built-in
//! motion (`orbit`, `approach`, `haptic`, as `extrack track --bodies`) over
//! two prepared scenes and prints, over the coherent updates, the update time
//! (median, p99, p99.9, max), the cold start, and the far phase's work
//! counters (`FarCounts`: entries popped, node / item / cell pairs bounded,
//! item and cell solves, penetration tests, entries put back by their own
//! decayed bound) as mean and max per update.
//! `PHASES_CHECK=k` compares every k-th update with a cold query;
//! `PHASES_STOP=n` stops after `n` updates; `PHASES_COLD=1` resets the
//! tracker (a new one) before every update (each update is then the cold query at its
//! pose: the reference of "max ≤ cold"); `PHASES_TRACE=1` prints each
//! update's counters (and the penetration probe's work by phase,
//! `BodyPairTracker::penetration_work`). Each update runs in `measured`
//! (kept out of line), so that
//! `valgrind --tool=callgrind --toggle-collect='pair_phases::measured' --dump-after='pair_phases::measured'`
//! writes one profile per update (instructions per update: median, max).
//! Also prints why solved cell pairs were not ruled out (`FarCounts::solve_gap`,
//! `solve_result`, `improved_by`, `solve_kind`, `drop`).
//! `cargo run --release -p extrack-dev --bin pair_phases -- A.exs B.exs MOTION [BODY_A BODY_B]`
use extrack::geom::Pose;
use extrack::scene::SceneFile;
use extrack::track::{body_distance, scenarios, BodyPairTracker, BodyState, TrackScene, TrackerConfig};
use std::time::Instant;

fn load(p: &str) -> TrackScene {
    let f = SceneFile::open(std::path::Path::new(p)).unwrap();
    TrackScene::new(&f.view()).unwrap()
}

/// One update, kept out of line so that callgrind can count it alone.
#[inline(never)]
fn measured(
    t: &mut BodyPairTracker,
    sa: &TrackScene,
    still: &BodyState,
    sb: &TrackScene,
    st: &BodyState,
    dt: f64,
) -> extrack::track::BodyPairResult {
    t.update(sa, still, sb, st, dt).unwrap()
}

fn pct(s: &[f64], p: f64) -> f64 {
    let k = ((p / 100.0) * s.len() as f64).ceil() as usize;
    s[k.clamp(1, s.len()) - 1]
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (sa, sb) = (load(&a[1]), load(&a[2]));
    let motion = a[3].as_str();
    let ia: u32 = a.get(4).map_or(0, |s| s.parse().unwrap());
    let ib: u32 = a.get(5).map_or(0, |s| s.parse().unwrap());
    let (steps, dt) = (2000usize, 1e-3);
    let path: Vec<BodyState> = match motion {
        "orbit" => {
            let mut p = scenarios::body_orbit(&sa.bodies[ia as usize], &sb.bodies[ib as usize], steps, dt);
            p.push(p[0]);
            p
        }
        "approach" => scenarios::body_approach(&sa, ia, &sb, ib, steps, dt).unwrap(),
        "haptic" => scenarios::body_haptic(&sa, ia, &sb, ib, steps, dt, 26).unwrap(),
        m => panic!("unknown motion {m}"),
    };
    let check: usize = std::env::var("PHASES_CHECK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let stop: usize = std::env::var("PHASES_STOP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let cold_each = std::env::var("PHASES_COLD").is_ok_and(|s| s == "1");
    let trace = std::env::var("PHASES_TRACE").is_ok_and(|s| s == "1");
    let (mut gap, mut res, mut kind) = ([0u64; 5], [0u64; 5], [0u64; 3]);
    let (mut imp, mut drops) = ([0u64; 5], [0u64; 6]);
    let mut t = BodyPairTracker::new(&sa, ia, &sb, ib, TrackerConfig::default()).unwrap();
    let still = BodyState::default();
    let mut times = Vec::new();
    let mut cold = 0.0;
    // per counter: sum and max over the coherent updates
    let names = [
        "popped",
        "nodes",
        "items",
        "item_solves",
        "cells",
        "cell_solves",
        "idle",
        "probes",
        "iters",
        "restarts",
        "decayed",
    ];
    let mut sum = [0u64; 11];
    let mut max = [0u32; 11];
    let mut all: Vec<[u32; 11]> = Vec::new();
    let (mut worst, mut pen, mut mism) = (0.0f64, 0usize, 0usize);
    for (k, st) in path.iter().enumerate().take(stop) {
        if cold_each {
            t = BodyPairTracker::new(&sa, ia, &sb, ib, TrackerConfig::default()).unwrap();
        }
        let t0 = Instant::now();
        let r = measured(&mut t, &sa, &still, &sb, st, if k == 0 { 0.0 } else { dt });
        let us = t0.elapsed().as_secs_f64() * 1e6;
        let c = t.far_counts();
        if k > 0 {
            for i in 0..5 {
                gap[i] += u64::from(c.solve_gap[i]);
                res[i] += u64::from(c.solve_result[i]);
            }
            drops[c.drop as usize] += 1;
            for (x, &y) in imp.iter_mut().zip(&c.improved_by) {
                *x += u64::from(y);
            }
            for (x, &y) in kind.iter_mut().zip(&c.solve_kind) {
                *x += u64::from(y);
            }
        }
        let v = [
            c.popped,
            c.nodes,
            c.items,
            c.item_solves,
            c.cells,
            c.cell_solves,
            c.idle_solves,
            c.probes,
            r.iterations,
            c.restarts,
            c.decayed,
        ];
        if trace {
            println!(
                "  update {k}: d {:.9} {:?} penetration [centres, rings/grid, ascent, law, skipped] {:?}",
                r.signed_distance,
                names.iter().zip(v).collect::<Vec<_>>(),
                t.penetration_work()
            );
        }
        if k == 0 {
            cold = us;
            println!("cold counters: {:?}", names.iter().zip(v).collect::<Vec<_>>());
        } else {
            times.push(us);
            all.push(v);
            for i in 0..11 {
                sum[i] += v[i] as u64;
                max[i] = max[i].max(v[i]);
            }
        }
        pen += r.penetrating as usize;
        if check > 0 && k % check == 0 {
            let q = body_distance(&sa, ia, &Pose::identity(), &sb, ib, &st.pose).unwrap();
            let e = (q.signed_distance - r.signed_distance).abs() / (1.0 + q.distance.abs());
            if e > 1e-9 || q.penetrating != r.penetrating {
                mism += 1;
                if mism <= 5 {
                    println!(
                        "  mismatch at {k}: tracked {:.9} pen {} cold {:.9} pen {}",
                        r.signed_distance, r.penetrating, q.signed_distance, q.penetrating
                    );
                }
            }
            worst = worst.max(e);
        }
    }
    let n = times.len() as f64;
    let mut s = times.clone();
    s.sort_by(f64::total_cmp);
    println!(
        "{motion}: median {:.1} µs, p99 {:.1}, p99.9 {:.1}, max {:.1}, cold {:.1}; penetrating {pen}",
        pct(&s, 50.0),
        pct(&s, 99.0),
        pct(&s, 99.9),
        s[s.len() - 1],
        cold
    );
    let line: Vec<String> = (0..11)
        .map(|i| format!("{} {:.1}/{}", names[i], sum[i] as f64 / n, max[i]))
        .collect();
    println!("  per update mean/max: {}", line.join(", "));
    let med: Vec<String> = (0..11)
        .map(|i| {
            let mut c: Vec<u32> = all.iter().map(|v| v[i]).collect();
            c.sort_unstable();
            format!("{} {}/{}", names[i], c[c.len() / 2], c[c.len() * 99 / 100])
        })
        .collect();
    println!("  per update median/p99: {}", med.join(", "));
    println!(
        "  cell solves by (best - bound)/best [<1e-9, <1e-6, <1e-3, <1e-1, more]: {gap:?}; \
         by (answer - best)/best [improved, <1e-9, <1e-6, <1e-3, more]: {res:?}; by items [piece-piece, piece-curve, curve-curve]: {kind:?}"
    );
    println!(
        "  improving cell solves by improvement/best [<1e-9, <1e-6, <1e-3, <1e-1, more]: {imp:?}; \
         updates by the search's drop from the tracked distance [none, <1e-9, <1e-6, <1e-3, <1e-1, more]: {drops:?}"
    );
    if check > 0 {
        println!("  checked every {check}: {mism} mismatches, largest relative {worst:.2e}");
    }
}

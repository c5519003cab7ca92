//! Quick per-surface timing of `eval_derivs` (min and median ns per call over
//! short batches) for instruction counting and A/B comparisons:
//! `cargo run --release -p extrack-dev --bin evalbench [N [CASE]]`.
use extrack::geom::fixtures::{ellipsoid, table1_patch};
use extrack::geom::NurbsSurface;
use std::hint::black_box;
use std::time::Instant;

fn bicubic() -> NurbsSurface {
    let k = vec![0.0, 0.0, 0.0, 0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.0, 1.0, 1.0];
    let n = 8;
    let pts: Vec<[f64; 3]> = (0..n * n)
        .map(|i| {
            let (a, b) = ((i / n) as f64, (i % n) as f64);
            [a, b, (0.7 * a).sin() * (0.5 * b).cos()]
        })
        .collect();
    NurbsSurface::try_new(3, 3, k.clone(), k, n, n, &pts, None).expect("valid bicubic")
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let ps: Vec<(f64, f64)> = (0..64)
        .map(|i| ((i as f64 * 0.618_034) % 1.0, (i as f64 * 0.381_966 + 0.1) % 1.0))
        .collect();
    let e = ellipsoid(3.0, 2.0, 1.5, -1.0);
    let ((u0, u1), (v0, v1)) = e.domain();
    let pe: Vec<(f64, f64)> = ps
        .iter()
        .map(|&(u, v)| (u0 + u * (u1 - u0), v0 + v * (v1 - v0)))
        .collect();
    let cases = [
        ("bicubic", bicubic(), &ps),
        ("table1", table1_patch(), &ps),
        ("ellipsoid", e, &pe),
    ];
    let only = std::env::args().nth(2);
    for (name, s, ps) in cases.iter() {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        if n > 0 {
            let mut acc = 0.0;
            for i in 0..n {
                let (u, v) = ps[i & 63];
                let r = s.eval_derivs(black_box(u), black_box(v));
                acc += r.p.x + r.svv.z;
            }
            println!("{name}: {acc}");
            continue;
        }
        let mut times: Vec<f64> = (0..301)
            .map(|_| {
                let t0 = Instant::now();
                let mut acc = 0.0;
                for i in 0..2000 {
                    let (u, v) = ps[i & 63];
                    let r = s.eval_derivs(black_box(u), black_box(v));
                    acc += r.p.x + r.su.y + r.sv.z + r.suu.x + r.suv.y + r.svv.z;
                }
                black_box(acc);
                t0.elapsed().as_nanos() as f64 / 2000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!("{name:<10} min {:6.1} ns  median {:6.1} ns", times[0], times[150]);
    }
}

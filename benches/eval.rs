//! Evaluation cost: point + 5 partial derivatives (`eval_derivs`) against
//! truck-geometry 0.5's `subs + uder + vder + uuder + uvder + vvder` on the
//! same surfaces, in the same run (issue 2, item 7; targets ≤ 45 ns bicubic,
//! ≤ 70 ns degree 4).
//!
//! Two criterion shapes per surface: `extrack` black-boxes the whole 144-byte
//! `SurfacePoint` (the result is moved out of the kernel's slot into the
//! black box's memory every call), `extrack_consumed` reads all 18 outputs and
//! black-boxes their sum, which is what a tracker does with an evaluation
//! (it reads every component once, it never stores the struct). Both include
//! the indirect call through the span table's kernel pointer and the table
//! check, as every real caller does; `extrack_consumed` is the per-call cost
//! of a real consumer; the difference between the two is the harness's
//! handling of the struct (measured, not assumed: see README "Benchmarks").
//!
//! Run: `cargo bench --bench eval -- --warm-up-time 1 --measurement-time 3`.
//! After criterion's groups, a batch timing prints per surface the median and
//! minimum time per call of `eval_derivs`, of `eval_derivs_portable` (no
//! AVX2/FMA) and of truck, and the truck/extrack ratio of the medians.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use extrack::geom::{table1_patch, NurbsSurface};
use std::hint::black_box;
use std::time::Instant;
use truck_geometry::prelude as tg;
use truck_geometry::prelude::ParametricSurface;

/// Bicubic, non-rational, 8×8 poles, 5 spans per direction (uniform interior knots).
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

/// Degree-4 rational Bézier: the Table I poles with weights in [0.6, 1.4].
fn rational4() -> NurbsSurface {
    let t = table1_patch();
    let cw =
        t.cw.iter()
            .enumerate()
            .map(|(k, c)| {
                let w = 1.0 + 0.4 * ((k as f64) * 1.7).sin();
                [c[0] * w, c[1] * w, c[2] * w, w]
            })
            .collect();
    NurbsSurface::bezier(4, 4, cw).expect("valid rational patch")
}

/// Degree-4 rational, 3×3 spans (the rational patch after inserting 1/3, 2/3).
fn rational4_multi() -> NurbsSurface {
    let s = rational4();
    let s = s.insert_knot_u(1.0 / 3.0).and_then(|s| s.insert_knot_u(2.0 / 3.0));
    let s = s.and_then(|s| s.insert_knot_v(0.4)).and_then(|s| s.insert_knot_v(0.75));
    s.expect("valid insertions")
}

/// Parameters the benchmarks cycle through (avoid a constant input).
fn params() -> Vec<(f64, f64)> {
    (0..64)
        .map(|i| ((i as f64 * 0.618_034) % 1.0, (i as f64 * 0.381_966 + 0.1) % 1.0))
        .collect()
}

fn truck_all6<S: ParametricSurface<Point = tg::Point3, Vector = tg::Vector3>>(s: &S, u: f64, v: f64) -> f64 {
    let p = s.subs(u, v);
    let a = s.uder(u, v);
    let b = s.vder(u, v);
    let c = s.uuder(u, v);
    let d = s.uvder(u, v);
    let e = s.vvder(u, v);
    p.x + a.y + b.z + c.x + d.y + e.z
}

fn truck_poly(s: &NurbsSurface) -> tg::BSplineSurface<tg::Point3> {
    let rows = (0..s.n_u)
        .map(|i| {
            (0..s.n_v)
                .map(|j| {
                    let p = s.pole(i, j);
                    tg::Point3::new(p.x, p.y, p.z)
                })
                .collect()
        })
        .collect();
    tg::BSplineSurface::new(
        (
            tg::KnotVec::from(s.knots_u.clone()),
            tg::KnotVec::from(s.knots_v.clone()),
        ),
        rows,
    )
}

enum Truck {
    Poly(tg::BSplineSurface<tg::Point3>),
    Rat(tg::NurbsSurface<tg::Vector4>),
}

impl Truck {
    fn of(s: &NurbsSurface) -> Self {
        if s.rational {
            Truck::Rat(s.to_truck())
        } else {
            Truck::Poly(truck_poly(s))
        }
    }
    fn all6(&self, u: f64, v: f64) -> f64 {
        match self {
            Truck::Poly(s) => truck_all6(s, u, v),
            Truck::Rat(s) => truck_all6(s, u, v),
        }
    }
}

fn cases() -> Vec<(&'static str, NurbsSurface)> {
    vec![
        ("bicubic_5x5_spans", bicubic()),
        ("table1_deg4_bezier", table1_patch()),
        ("deg4_rational_bezier", rational4()),
        ("deg4_rational_3x3_spans", rational4_multi()),
    ]
}

/// Reads every output of an evaluation, as a tracker does.
#[inline(always)]
fn consume(e: &extrack::geom::SurfacePoint) -> f64 {
    (e.p + e.su + e.sv + e.suu + e.suv + e.svv).sum()
}

fn bench_eval(c: &mut Criterion) {
    let ps = params();
    let mut g = c.benchmark_group("eval_point_and_5_derivatives");
    for (name, s) in cases() {
        let mut k = 0usize;
        g.bench_function(BenchmarkId::new("extrack", name), |b| {
            b.iter(|| {
                k = (k + 1) & 63;
                let (u, v) = ps[k];
                black_box(s.eval_derivs(black_box(u), black_box(v)))
            })
        });
        let mut k = 0usize;
        g.bench_function(BenchmarkId::new("extrack_consumed", name), |b| {
            b.iter(|| {
                k = (k + 1) & 63;
                let (u, v) = ps[k];
                let e = s.eval_derivs(black_box(u), black_box(v));
                black_box(consume(&e))
            })
        });
        let t = Truck::of(&s);
        let mut k = 0usize;
        g.bench_function(BenchmarkId::new("truck", name), |b| {
            b.iter(|| {
                k = (k + 1) & 63;
                let (u, v) = ps[k];
                black_box(t.all6(black_box(u), black_box(v)))
            })
        });
    }
    g.finish();
    ratio_table(&ps);
}

/// Time per call in ns over 201 short batches: `(median, min)`. Batches are
/// short (well inside a scheduler time slice), so on a loaded machine the
/// minimum approximates the unloaded cost while the median shows the load.
fn batch_ns(mut f: impl FnMut(usize) -> f64, per_batch: usize) -> (f64, f64) {
    let mut acc = 0.0;
    let mut times: Vec<f64> = (0..201)
        .map(|_| {
            let t0 = Instant::now();
            for i in 0..per_batch {
                acc += f(i & 63);
            }
            t0.elapsed().as_nanos() as f64 / per_batch as f64
        })
        .collect();
    black_box(acc);
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[0])
}

fn ratio_table(ps: &[(f64, f64)]) {
    println!(
        "\n{:<26} {:>14} {:>14} {:>14} {:>14} {:>8}",
        "surface", "extrack med", "extrack min", "truck med", "truck min", "ratio"
    );
    for (name, s) in cases() {
        let t = Truck::of(&s);
        let ours = batch_ns(
            |k| {
                let e = s.eval_derivs(black_box(ps[k].0), black_box(ps[k].1));
                e.p.x + e.su.y + e.sv.z + e.suu.x + e.suv.y + e.svv.z
            },
            2000,
        );
        let portable = batch_ns(
            |k| {
                let e = s.eval_derivs_portable(black_box(ps[k].0), black_box(ps[k].1));
                e.p.x + e.su.y + e.sv.z + e.suu.x + e.suv.y + e.svv.z
            },
            2000,
        );
        let theirs = batch_ns(|k| t.all6(black_box(ps[k].0), black_box(ps[k].1)), 100);
        println!(
            "{name:<26} {:>11.1} ns {:>11.1} ns {:>11.1} ns {:>11.1} ns {:>7.1}x   (portable path: med {:.1} ns, min {:.1} ns)",
            ours.0,
            ours.1,
            theirs.0,
            theirs.1,
            theirs.0 / ours.0,
            portable.0,
            portable.1
        );
    }
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);

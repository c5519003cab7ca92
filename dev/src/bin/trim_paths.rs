//! Development harness: per face, how each coedge's trim chain was built
//! (`extrack::prepare::trim::TrimPath`), with the surface, 3-D curve and
//! p-curve kinds.
//! `cargo run --release -p extrack-dev --bin trim_paths -- FILE [FACE_ID...]`
//! (`CHAIN_DUMP=1`: also each loop's chain of Bézier pieces)
use extrack::import::eval::FaceTrim;
use extrack::prepare::trim;

fn kind(s: String) -> String {
    s.split([' ', '{', '(']).next().unwrap_or("").to_string()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: trim_paths FILE [FACE_ID...]");
        std::process::exit(2);
    }
    let model = match extrack::import::import_file(&args[1]) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let ids: Vec<u64> = args[2..].iter().filter_map(|a| a.parse().ok()).collect();
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for v in &model.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v.point[k]);
            hi[k] = hi[k].max(v.point[k]);
        }
    }
    let diag = (0..3).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    println!(
        "tolerance {:?} diag {diag:.4} (1e-6 diag {:.2e})",
        model.tolerance,
        1e-6 * diag
    );
    for face in model.faces.iter().filter(|f| ids.is_empty() || ids.contains(&f.source)) {
        let t = FaceTrim::new(&model, face);
        let ex = trim::exact_loops(&model, face, &t);
        let floops: Vec<_> = face.outer.iter().chain(face.inner.iter()).collect();
        println!(
            "face #{} {} by_pcurves {:?}",
            face.source,
            kind(format!("{:?}", face.surface)),
            ex.by_pcurves
        );
        // `CHAIN_DUMP=1`: each loop's chain, one Bézier piece a line
        // (homogeneous control points in face parameters)
        if std::env::var_os("CHAIN_DUMP").is_some() {
            for (li, l) in t.loops.iter().enumerate() {
                println!("  loop {li} samples: first {:?} last {:?}", l.first(), l.last());
            }
            for (li, chain) in ex.chains.iter().enumerate() {
                for (k, h) in chain.iter().enumerate() {
                    println!("  chain {li} piece {k}: {h:?}");
                }
            }
        }
        let (mut worst_fit, mut worst_off) = (0.0f64, 0.0f64);
        for (li, spans) in t.coedge_spans.iter().enumerate() {
            let paths = ex.paths.get(li).cloned().unwrap_or_default();
            for (k, sp) in spans.iter().enumerate() {
                let c = floops.get(sp.face_loop).and_then(|fl| fl.coedges.get(sp.coedge));
                let pc = c
                    .and_then(|c| c.pcurve.as_ref())
                    .map(|p| kind(format!("{:?}", p.curve)));
                let e = c
                    .and_then(|c| c.edge)
                    .and_then(|e| model.edges.get(e))
                    .map(|e| (e.source, kind(format!("{:?}", e.curve))));
                // the 3-D curve's distance from the surface at the samples
                let l = &t.loops[li];
                let samples = l.get(sp.samples.clone()).unwrap_or(&[]);
                let n = samples.len().saturating_sub(1).max(1);
                let seg = c.and_then(|c| {
                    c.edge
                        .and_then(|e| model.edges.get(e))
                        .map(|e| extrack::import::model::CurveSegment {
                            curve: e.curve.clone(),
                            t0: e.t0,
                            t1: e.t1,
                            forward: c.forward,
                        })
                });
                let off = seg.as_ref().map_or(f64::NAN, |seg| {
                    samples
                        .iter()
                        .enumerate()
                        .map(|(i, &(u, v))| {
                            let (nu, nv) = face.surface.natural_bounds();
                            let b = (nu.unwrap_or((-1e12, 1e12)), nv.unwrap_or((-1e12, 1e12)));
                            let q = seg.eval_unit(i as f64 / n as f64).p;
                            extrack::import::eval::newton_surface(&face.surface, &q, u, v, b).distance
                        })
                        .fold(0.0, f64::max)
                });
                // the fit: each curve point's projection against the loop's
                // chain (dense polyline in face parameters), measured in 3-D
                let spans_of = ex.chains.get(li).cloned().unwrap_or_default();
                let chain_pts: Vec<([f64; 2], usize, f64)> = spans_of
                    .iter()
                    .enumerate()
                    .flat_map(|(k, h)| {
                        (0..=256).map(move |i| (extrack::geom::bez2::eval(h, i as f64 / 256.0), k, i as f64 / 256.0))
                    })
                    .collect();
                let fit = seg.as_ref().map_or(f64::NAN, |seg| {
                    let (nu, nv) = face.surface.natural_bounds();
                    let nb = (nu.unwrap_or((-1e12, 1e12)), nv.unwrap_or((-1e12, 1e12)));
                    let b = (
                        t.periods.0.map_or(nb.0, |_| (-1e12, 1e12)),
                        t.periods.1.map_or(nb.1, |_| (-1e12, 1e12)),
                    );
                    let m = 4 * n;
                    let mut worst = 0.0f64;
                    if std::env::var_os("SAMPLE_ERR").is_some() {
                        let mut se = (0.0f64, 0usize);
                        for (i, &(u, v)) in samples.iter().enumerate() {
                            let q = seg.eval_unit(i as f64 / n as f64).p;
                            let pr = extrack::import::eval::newton_surface(&face.surface, &q, u, v, b);
                            let e = (face.surface.eval(u, v) - pr.point).norm();
                            if e > se.0 {
                                se = (e, i);
                            }
                        }
                        println!("    sample err {:.3e} at sample {} of {}", se.0, se.1, samples.len());
                    }
                    for i in 0..=m {
                        let s = i as f64 / m as f64;
                        let seed = samples[(i / 4).min(samples.len() - 1)];
                        let q = seg.eval_unit(s).p;
                        let pr = extrack::import::eval::newton_surface(&face.surface, &q, seed.0, seed.1, b);
                        let wrap = |x: f64, y: f64, per: Option<f64>| per.map_or(x, |t| x - ((x - y) / t).round() * t);
                        // nearest chain polyline point in parameters, then its surface distance
                        let mut best = (f64::INFINITY, [0.0; 2]);
                        let mut at = (0usize, 0.0f64);
                        for w in chain_pts.windows(2) {
                            let (w0, w1) = (w[0], w[1]);
                            let w = [w0.0, w1.0];
                            let p = [wrap(pr.u, w[0][0], t.periods.0), wrap(pr.v, w[0][1], t.periods.1)];
                            let d = [w[1][0] - w[0][0], w[1][1] - w[0][1]];
                            let l2 = d[0] * d[0] + d[1] * d[1];
                            let x = if l2 > 0.0 {
                                (((p[0] - w[0][0]) * d[0] + (p[1] - w[0][1]) * d[1]) / l2).clamp(0.0, 1.0)
                            } else {
                                0.0
                            };
                            let f = [w[0][0] + x * d[0], w[0][1] + x * d[1]];
                            let e = (f[0] - p[0]).hypot(f[1] - p[1]);
                            if e < best.0 {
                                best = (e, f);
                                at = (w0.1, w0.2);
                            }
                        }
                        // refine on the span: 3-D distance, ternary search
                        let h = &spans_of[at.0];
                        let d3 = |t: f64| {
                            let g = extrack::geom::bez2::eval(h, t.clamp(0.0, 1.0));
                            (face.surface.eval(g[0], g[1]) - pr.point).norm()
                        };
                        let (mut lo, mut hi) = ((at.1 - 2.0 / 256.0).max(0.0), (at.1 + 2.0 / 256.0).min(1.0));
                        for _ in 0..100 {
                            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
                            if d3(m1) < d3(m2) {
                                hi = m2;
                            } else {
                                lo = m1;
                            }
                        }
                        let e0 = (face.surface.eval(best.1[0], best.1[1]) - pr.point).norm();
                        let e = e0.min(d3(0.5 * (lo + hi)));
                        if e > worst && std::env::var_os("SAMPLE_ERR").is_some() && e > 1e-6 {
                            println!(
                                "    s {s:.5} foot ({:.9}, {:.9}) chain ({:.9}, {:.9}) err {e:.3e}",
                                pr.u, pr.v, best.1[0], best.1[1]
                            );
                        }
                        worst = worst.max(e);
                    }
                    worst
                });
                worst_fit = worst_fit.max(fit);
                worst_off = worst_off.max(off);
                println!(
                    "  fit {fit:.3e}, loop {li} coedge {}: {:?} edge {:?} pcurve {:?} pref {:?} off-surface {off:.3e} ({} samples)",
                    sp.coedge,
                    paths.get(k),
                    e,
                    pc,
                    c.map(|c| c.pcurve_preferred),
                    samples.len()
                );
            }
        }
        println!(
            "face #{} worst fit {worst_fit:.3e} worst off-surface {worst_off:.3e}",
            face.source
        );
    }
}

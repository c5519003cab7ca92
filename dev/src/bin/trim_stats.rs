//! Development harness: per file, how the prepared trims came out (exact
//! Bézier vs polyline curves) and the prepare warnings about trims.
//! `cargo run --release -p extrack-dev --bin trim_stats -- FILE...`
//!
//! `--fit` (first argument): no preparation; per file the fitted coedges'
//! worst deviation from their 3-D edges ([`trim::fitted_deviations`]) over
//! the model's size (diagonal of the union of the faces' boxes), and the
//! worst coedges (`TRIM_FIT_WORST=N`, default 5).
use extrack::import::eval::FaceTrim;
use extrack::prepare::trim;
use extrack::prepare::{prepare_with_stats, PrepareOptions};
use extrack::scene::data::TrimCurve;

/// One file's fitted coedges: the model's size and per coedge (face id,
/// deviation).
fn fit(path: &str) {
    let t0 = std::time::Instant::now();
    let model = match extrack::import::import_file(std::path::Path::new(path)) {
        Ok(m) => m,
        Err(e) => {
            println!("{path}: import {e}");
            return;
        }
    };
    let worst_n: usize = std::env::var("TRIM_FIT_WORST")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let mut lo = extrack::geom::Vec3::repeat(f64::INFINITY);
    let mut hi = extrack::geom::Vec3::repeat(f64::NEG_INFINITY);
    let mut devs = Vec::new();
    // crease crossings of the projected coedges: (faces, crossings)
    let mut creased = (0usize, 0usize);
    for face in &model.faces {
        let t = FaceTrim::new(&model, face);
        if let Some((a, b)) = trim::face_box(face, &t) {
            lo = lo.inf(&a);
            hi = hi.sup(&b);
        }
        let ex = trim::exact_loops(&model, face, &t);
        if ex.crease_crossings > 0 {
            creased.0 += 1;
            creased.1 += ex.crease_crossings;
        }
        for d in trim::fitted_deviations(&model, face, &t, &ex) {
            devs.push((face.source, d));
        }
    }
    let size = (hi - lo).norm();
    devs.sort_by(|a, b| b.1.deviation.total_cmp(&a.1.deviation));
    let worst = devs.first().map_or(0.0, |d| d.1.deviation);
    let over = devs.iter().filter(|d| d.1.deviation > 1e-6 * size).count();
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().to_string());
    println!(
        "FIT {name} size {size:.4} fitted {} over {over} worst {worst:.3e} ratio {:.3e} crease crossings {} on {} faces ({:.1} s)",
        devs.len(),
        worst / size,
        creased.1,
        creased.0,
        t0.elapsed().as_secs_f64()
    );
    for (f, d) in devs.iter().take(worst_n).filter(|d| d.1.deviation > 0.0) {
        // the 3-D curve's kind
        let kind = model
            .faces
            .iter()
            .find(|x| x.source == *f)
            .and_then(|x| x.outer.iter().chain(x.inner.iter()).nth(d.face_loop))
            .and_then(|l| l.coedges.get(d.coedge))
            .map(|c| match c.edge.and_then(|e| model.edges.get(e)) {
                Some(e) => format!("{:?}", e.curve),
                None => format!("{:?}", c.curve.as_ref().map(|s| &s.curve)),
            })
            .map(|k| k.split([' ', '{', '(']).take(2).collect::<Vec<_>>().join(" "))
            .unwrap_or_default();
        println!(
            "  face #{f} loop {} coedge {} edge {:?} [{kind}] {:?}: {:.3e} mm ({:.2e} of size) at {:.4}, off-surface {:.2e}, {} pieces",
            d.loop_index,
            d.coedge,
            d.edge,
            d.path,
            d.deviation,
            d.deviation / size,
            d.at,
            d.off_surface,
            d.pieces
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--fit") {
        for path in &args[1..] {
            fit(path);
        }
        return;
    }
    for path in args {
        let model = match extrack::import::import_file(std::path::Path::new(&path)) {
            Ok(m) => m,
            Err(e) => {
                println!("{path}: import {e}");
                continue;
            }
        };
        let (scene, stats) = match prepare_with_stats(&model, &PrepareOptions::default()) {
            Ok(s) => s,
            Err(e) => {
                println!("{path}: prepare {e}");
                continue;
            }
        };
        let (mut bez, mut poly, mut pts) = (0, 0, 0);
        for p in &scene.pieces {
            for l in &p.trim_loops {
                for c in &l.curves {
                    match c {
                        TrimCurve::Bezier(_) => bez += 1,
                        TrimCurve::Polyline(v) => {
                            poly += 1;
                            pts += v.len();
                        }
                    }
                }
            }
        }
        println!(
            "{path}: {} pieces, {bez} Bézier trim curves, {poly} polylines ({pts} points)",
            scene.pieces.len()
        );
        for w in stats
            .warnings
            .iter()
            .filter(|w| w.contains("trim") || w.contains("p-curve"))
        {
            println!("  {w}");
        }
    }
}

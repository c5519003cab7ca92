//! Development harness: per file, how the prepared trims came out (exact
//! Bézier vs polyline curves) and the prepare warnings about trims.
//! `cargo run --release -p extrack-dev --bin trim_stats -- FILE...`
use extrack::prepare::{prepare_with_stats, PrepareOptions};
use extrack::scene::data::TrimCurve;

fn main() {
    for path in std::env::args().skip(1) {
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

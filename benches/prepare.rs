//! Prepare time per generated STEP fixture, and scene size vs source size
//! (printed once per fixture). Skips when ../shared/fixtures is absent.

use criterion::{criterion_group, criterion_main, Criterion};
use extrack::prepare::{prepare, PrepareOptions};
use std::path::Path;

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/generated");
    if !dir.is_dir() {
        println!("skipping: ../shared/fixtures is absent");
        return;
    }
    let mut group = c.benchmark_group("prepare");
    group.sample_size(10);
    for name in [
        "table1_patch",
        "tiled_convex",
        "holed_plate",
        "rounded_box",
        "torus",
        "assembly",
    ] {
        let path = dir.join(format!("{name}.step"));
        let Ok(model) = extrack::import::import_file(&path) else {
            println!("{name}: import failed, skipped");
            continue;
        };
        let Ok(scene) = prepare(&model, &PrepareOptions::default()) else {
            println!("{name}: prepare failed, skipped");
            continue;
        };
        let src = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        println!(
            "{name}: source {src} bytes, scene {} bytes, {} pieces",
            scene.write().len(),
            scene.pieces.len()
        );
        group.bench_function(name, |b| {
            b.iter(|| prepare(std::hint::black_box(&model), &PrepareOptions::default()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

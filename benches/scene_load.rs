//! Load + validate time of a scene (`SceneView::from_bytes`) for scenes of
//! 100, 1 000 and 10 000 bicubic pieces (with trims, seams, vertices and a
//! BVH; see `tests/common/scene_fixture.rs`), plain (`SceneView::from_bytes`)
//! and packed (`SceneFile::from_file_bytes`: unpack + validate). Target: < 1 ms
//! per 100 pieces.
//! Throughput is reported in pieces per second; the `per_100_pieces` line
//! printed before the runs gives the time per 100 pieces directly.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use extrack::scene::packed::{pack, DEFAULT_LEVEL};
use extrack::scene::{AlignedBytes, SceneFile, SceneView};
use std::time::Instant;

#[path = "../tests/common/scene_fixture.rs"]
mod fixture;

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("scene_load");
    for n in [100usize, 1_000, 10_000] {
        let bytes = AlignedBytes::from_slice(&fixture::grid_scene(n).write());
        let b = bytes.as_bytes();
        // a quick direct measurement for the README line
        let reps = (200_000 / n).max(5);
        let t = Instant::now();
        for _ in 0..reps {
            black_box(SceneView::from_bytes(black_box(b)).is_ok());
        }
        let per = t.elapsed().as_secs_f64() / reps as f64;
        println!(
            "scene_load/{n}: {} bytes, {:.1} µs per load, {:.1} µs per 100 pieces",
            b.len(),
            per * 1e6,
            per * 1e6 * 100.0 / n as f64
        );
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &b, |bench, b| {
            bench.iter(|| SceneView::from_bytes(black_box(b)).map(|v| v.pieces().len()))
        });
    }
    group.finish();
    // the packed container `extrack import` writes: unpack into an aligned
    // buffer, then validate (SceneFile::from_file_bytes, what SceneFile::open
    // does after reading the file)
    let mut group = c.benchmark_group("scene_load_packed");
    for n in [100usize, 1_000, 10_000] {
        let plain = fixture::grid_scene(n).write();
        let packed = pack(&plain, DEFAULT_LEVEL).expect("pack");
        let reps = (50_000 / n).max(5);
        let t = Instant::now();
        for _ in 0..reps {
            black_box(SceneFile::from_file_bytes(black_box(&packed)).is_ok());
        }
        let per = t.elapsed().as_secs_f64() / reps as f64;
        println!(
            "scene_load_packed/{n}: {} bytes packed ({} plain), {:.1} µs per unpack + load, {:.1} µs per 100 pieces",
            packed.len(),
            plain.len(),
            per * 1e6,
            per * 1e6 * 100.0 / n as f64
        );
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &packed, |bench, p| {
            bench.iter(|| SceneFile::from_file_bytes(black_box(p)).map(|f| f.view().pieces().len()))
        });
    }
    group.finish();
}

/// Unpack + validate of real packed scenes (corpus files prepared once
/// here; skipped when ../shared/fixtures is absent), printed per 100 pieces.
fn corpus(_: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/corpus");
    if !dir.is_dir() {
        println!("scene_load_corpus: skipped (../shared/fixtures is absent)");
        return;
    }
    for name in [
        "iges_bladex_blade_upper.iges",
        "iges_sw2010_impeller.igs",
        "step_catia5_ventilator.stp",
        "step_sw2015_box_sides_asm.step",
    ] {
        let Ok(model) = extrack::import::import_file(dir.join(name)) else {
            continue;
        };
        let Ok(scene) = extrack::prepare::prepare(&model, &Default::default()) else {
            continue;
        };
        let plain = scene.write();
        let packed = pack(&plain, DEFAULT_LEVEL).expect("pack");
        let pieces = scene.pieces.len();
        let reps = 20;
        let t = Instant::now();
        for _ in 0..reps {
            black_box(SceneFile::from_file_bytes(black_box(&packed)).is_ok());
        }
        let per = t.elapsed().as_secs_f64() / reps as f64;
        let plain_bytes = AlignedBytes::from_slice(&plain);
        let t = Instant::now();
        for _ in 0..reps {
            black_box(SceneView::from_bytes(black_box(plain_bytes.as_bytes())).is_ok());
        }
        let per_plain = t.elapsed().as_secs_f64() / reps as f64;
        println!(
            "scene_load_corpus/{name}: {pieces} pieces, packed {} bytes (plain {}): unpack + validate {:.2} ms ({:.3} ms per 100 pieces), plain validate {:.2} ms ({:.3} ms per 100 pieces)",
            packed.len(),
            plain.len(),
            per * 1e3,
            per * 1e5 / pieces as f64,
            per_plain * 1e3,
            per_plain * 1e5 / pieces as f64
        );
    }
}

criterion_group!(benches, load, corpus);
criterion_main!(benches);

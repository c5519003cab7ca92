//! Prepare time per generated STEP fixture and for three corpus parts
//! (criterion), the self-check's time on the same scenes (group `verify`,
//! the cost `extrack import` adds), and scene size vs source size (printed
//! once per file).
//!
//! With `PREPARE_CORPUS_TABLE=1` it first prints, for every corpus STEP /
//! IGES file, one timed import + prepare: faces, pieces, prepare wall time,
//! source bytes, scene bytes and their ratio (the table in README). Skips
//! when ../shared/fixtures is absent.

use criterion::{criterion_group, criterion_main, Criterion};
use extrack::prepare::{prepare, PrepareOptions};
use std::path::Path;
use std::time::Instant;

fn corpus_table(dir: &Path) {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    names.retain(|p: &std::path::PathBuf| {
        p.extension()
            .is_some_and(|e| ["step", "stp", "igs", "iges"].iter().any(|x| e.eq_ignore_ascii_case(x)))
    });
    names.sort();
    println!(
        "| file | faces | pieces | prepare s | source bytes | plain scene bytes | packed scene bytes | packed/source |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Ok(model) = extrack::import::import_file(&path) else {
            println!("| {name} | import failed | | | | | | |");
            continue;
        };
        let t = Instant::now();
        let Ok(scene) = prepare(&model, &PrepareOptions::default()) else {
            println!("| {name} | prepare failed | | | | | | |");
            continue;
        };
        let dt = t.elapsed().as_secs_f64();
        let faces: usize = model.bodies.iter().map(|b| b.face_indices().count()).sum();
        let src = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let plain = scene.write();
        let packed = extrack::scene::packed::pack(&plain, extrack::scene::packed::DEFAULT_LEVEL)
            .map(|p| p.len())
            .unwrap_or(0);
        println!(
            "| {name} | {faces} | {} | {dt:.3} | {src} | {} | {packed} | {:.2} |",
            scene.pieces.len(),
            plain.len(),
            packed as f64 / src.max(1) as f64
        );
    }
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    let dir = root.join("generated");
    if !dir.is_dir() {
        println!("skipping: ../shared/fixtures is absent");
        return;
    }
    if std::env::var_os("PREPARE_CORPUS_TABLE").is_some() {
        corpus_table(&root.join("corpus"));
    }
    let mut group = c.benchmark_group("prepare");
    group.sample_size(10);
    let files = [
        "generated/table1_patch.step",
        "generated/tiled_convex.step",
        "generated/holed_plate.step",
        "generated/rounded_box.step",
        "generated/torus.step",
        "generated/assembly.step",
        "corpus/step_proe2004_pump_carter.stp",
        "corpus/step_sw2015_box_sides_asm.step",
        "corpus/step_euclid_turbine.stp",
    ];
    for file in files {
        let path = root.join(file);
        let name = path
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Ok(model) = extrack::import::import_file(&path) else {
            println!("{name}: import failed, skipped");
            continue;
        };
        let Ok(scene) = prepare(&model, &PrepareOptions::default()) else {
            println!("{name}: prepare failed, skipped");
            continue;
        };
        let src = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let faces: usize = model.bodies.iter().map(|b| b.face_indices().count()).sum();
        println!(
            "{name}: {faces} faces, source {src} bytes, scene {} bytes, {} pieces",
            scene.write().len(),
            scene.pieces.len()
        );
        group.bench_function(name, |b| {
            b.iter(|| prepare(std::hint::black_box(&model), &PrepareOptions::default()))
        });
    }
    group.finish();
    // the self-check of the same scenes (extrack import runs it by default)
    let mut group = c.benchmark_group("verify");
    group.sample_size(10);
    for file in files {
        let path = root.join(file);
        let name = path
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Ok(model) = extrack::import::import_file(&path) else {
            continue;
        };
        let Ok(scene) = prepare(&model, &PrepareOptions::default()) else {
            continue;
        };
        group.bench_function(name, |b| {
            b.iter(|| extrack::verify::verify(std::hint::black_box(&model), std::hint::black_box(&scene)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

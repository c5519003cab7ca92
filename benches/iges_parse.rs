//! Parse + build throughput of the IGES reader on the largest corpus files
//! (`../shared/fixtures/corpus`, files over 100 KB), in MB/s. Compare with
//! Open CASCADE's `read_ms` / `read_total_ms` in the oracle inspect files.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use extrack::import::iges::read_iges;
use std::path::PathBuf;

fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/corpus");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        println!("SKIP: {} not found", dir.display());
        return Vec::new();
    };
    let mut v: Vec<(String, Vec<u8>)> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "igs" || x == "iges"))
        .filter_map(|p| {
            let b = std::fs::read(&p).ok()?;
            let name = p.file_name()?.to_string_lossy().into_owned();
            (b.len() > 100_000).then_some((name, b))
        })
        .collect();
    v.sort_by_key(|(_, b)| std::cmp::Reverse(b.len()));
    v
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("iges_parse");
    for (name, bytes) in corpus_files() {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &bytes, |b, bytes| {
            b.iter(|| read_iges(std::hint::black_box(bytes), "bench.igs").map(|m| m.faces.len()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

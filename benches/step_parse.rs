//! Parse + build throughput of the STEP importer on the largest corpus files,
//! with the ratio to Open CASCADE's `read_ms` (ReadFile) and `read_total_ms`
//! (ReadFile + TransferRoots) from `../shared/fixtures/oracle/*.inspect.json`.
//!
//! `cargo bench --bench step_parse -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use extrack::import::step::read_step;
use std::path::Path;
use std::time::Instant;

/// (file name, bytes, OCCT (read_ms, read_total_ms)).
type CorpusFile = (String, Vec<u8>, Option<(f64, f64)>);

fn corpus() -> Vec<CorpusFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures");
    let Ok(rd) = std::fs::read_dir(root.join("corpus")) else {
        eprintln!("skipping: ../shared/fixtures/corpus is absent");
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in rd.flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let l = name.to_ascii_lowercase();
        if !(l.ends_with(".stp") || l.ends_with(".step")) {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        if bytes.len() < 100_000 {
            continue;
        }
        let oracle = std::fs::read_to_string(root.join("oracle").join(format!("{name}.inspect.json")))
            .ok()
            .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
            .and_then(|v| Some((v["read_ms"].as_f64()?, v["read_total_ms"].as_f64()?)));
        out.push((name, bytes, oracle));
    }
    out.sort_by_key(|(_, b, _)| std::cmp::Reverse(b.len()));
    out
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    // ratio table: median of 15 warm runs per file
    println!(
        "{:<40} {:>9} {:>9} {:>8} {:>9} {:>8} {:>8}",
        "file", "KB", "ours ms", "MB/s", "occt read", "x read", "x total"
    );
    for (name, bytes, oracle) in &files {
        let mut t = Vec::new();
        for _ in 0..15 {
            let s = Instant::now();
            let m = read_step(bytes, name).expect("corpus file imports");
            criterion::black_box(m);
            t.push(s.elapsed().as_secs_f64() * 1e3);
        }
        t.sort_by(f64::total_cmp);
        let ms = t[t.len() / 2];
        let mbs = bytes.len() as f64 / 1e6 / (ms / 1e3);
        match oracle {
            Some((r, tot)) => println!(
                "{name:<40} {:>9.0} {ms:>9.2} {mbs:>8.1} {r:>9.1} {:>8.1} {:>8.1}",
                bytes.len() as f64 / 1e3,
                r / ms,
                tot / ms
            ),
            None => println!("{name:<40} {:>9.0} {ms:>9.2} {mbs:>8.1}", bytes.len() as f64 / 1e3),
        }
    }
    let mut g = c.benchmark_group("step_parse_build");
    for (name, bytes, _) in files.iter().take(4) {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, bytes| {
            b.iter(|| read_step(bytes, name).expect("imports"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Repeats the STEP import of the given files (for profilers):
//! `cargo run --release --example step_profile -- N FILE...` prints the
//! median parse time and parse + build time of each file over N runs.

use extrack::import::step::{parser, read_step};
use std::time::Instant;

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20).max(1);
    for path in args {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let (mut tp, mut tt) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let s = Instant::now();
            let ex = parser::parse(&bytes);
            tp.push(s.elapsed().as_secs_f64() * 1e3);
            drop(ex);
            let s = Instant::now();
            let m = read_step(&bytes, &path);
            tt.push(s.elapsed().as_secs_f64() * 1e3);
            if let Err(e) = m {
                eprintln!("{path}: {e}");
                break;
            }
        }
        println!("{path}: parse {:.2} ms, parse+build {:.2} ms", median(tp), median(tt));
    }
}

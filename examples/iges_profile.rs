//! Repeats the IGES import of the given files (for profilers):
//! `cargo run --release --example iges_profile -- N FILE...` prints the
//! median record-split time and the median full import (parse + build)
//! time of each file over N runs.

use extrack::import::iges::{read_iges, records};
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
        let (mut ts, mut tt) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let s = Instant::now();
            let r = records::split(&bytes);
            ts.push(s.elapsed().as_secs_f64() * 1e3);
            drop(r);
            let s = Instant::now();
            let m = read_iges(&bytes, &path);
            tt.push(s.elapsed().as_secs_f64() * 1e3);
            if let Err(e) = m {
                eprintln!("{path}: {e}");
                break;
            }
        }
        println!("{path}: split {:.2} ms, import {:.2} ms", median(ts), median(tt));
    }
}

//! Repeats the import of the given STEP or IGES files (for profilers):
//! `cargo run --release -p extrack-dev --bin import_profile -- N FILE...` prints, for
//! each file over N runs, the median time of the first stage (STEP: the
//! parse into instances; IGES: the split into records) and of the whole
//! import (parse + build). The format is taken from the file extension.

use extrack::import::iges::{read_iges, records};
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
        let lower = path.to_ascii_lowercase();
        let iges = lower.ends_with(".igs") || lower.ends_with(".iges");
        let (mut t1, mut tt) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let s = Instant::now();
            if iges {
                drop(records::split(&bytes));
            } else {
                drop(parser::parse(&bytes));
            }
            t1.push(s.elapsed().as_secs_f64() * 1e3);
            let s = Instant::now();
            let m = if iges {
                read_iges(&bytes, &path).map(drop).map_err(|e| e.to_string())
            } else {
                read_step(&bytes, &path).map(drop).map_err(|e| e.to_string())
            };
            tt.push(s.elapsed().as_secs_f64() * 1e3);
            if let Err(e) = m {
                eprintln!("{path}: {e}");
                break;
            }
        }
        let first = if iges { "split" } else { "parse" };
        println!("{path}: {first} {:.2} ms, import {:.2} ms", median(t1), median(tt));
    }
}

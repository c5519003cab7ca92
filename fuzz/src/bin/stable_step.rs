//! Stable-toolchain fuzzing harness for the STEP reader (no cargo-fuzz
//! needed): mutates seed files in-process for a given time, catches panics,
//! and writes any crashing input to `fuzz/artifacts/step/`.
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin stable_step -- SECONDS SEED_FILES...`

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// xorshift64* PRNG (deterministic per run seed).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&[u8]] = &[
    b"(", b")", b",", b";", b"#", b"#1", b"#99999999", b"$", b"*", b"'", b"''", b"\\X2\\", b"\\X0\\", b"\\X\\", b"\\S\\",
    b"/*", b"*/", b".T.", b".F.", b"1.E300", b"-0.", b"1e-320", b"ENDSEC;", b"DATA;", b"END-ISO-10303-21;",
    b"B_SPLINE_SURFACE_WITH_KNOTS", b"ADVANCED_FACE", b"LENGTH_MEASURE(", b"((((((((((", b"))))))))))", b"999999999999",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let n = 1 + rng.below(8);
    for _ in 0..n {
        let len = input.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.next() as u8;
            }
            1 if len > 0 => {
                let i = rng.below(len);
                let k = 1 + rng.below(64.min(len - i));
                input.drain(i..i + k);
            }
            2 => {
                let i = rng.below(len + 1);
                let t = TOKENS[rng.below(TOKENS.len())];
                input.splice(i..i, t.iter().copied());
            }
            3 if len > 0 => {
                // duplicate a chunk
                let i = rng.below(len);
                let k = 1 + rng.below(256.min(len - i));
                let chunk: Vec<u8> = input[i..i + k].to_vec();
                let j = rng.below(input.len() + 1);
                input.splice(j..j, chunk);
            }
            4 if len > 0 => input.truncate(rng.below(len)),
            5 if len > 0 => {
                // change a digit
                let i = rng.below(len);
                if input[i].is_ascii_digit() {
                    input[i] = b'0' + rng.below(10) as u8;
                }
            }
            6 if !seeds.is_empty() => {
                // splice from another seed
                let s = &seeds[rng.below(seeds.len())];
                if !s.is_empty() {
                    let i = rng.below(s.len());
                    let k = 1 + rng.below(512.min(s.len() - i));
                    let j = rng.below(input.len() + 1);
                    input.splice(j..j, s[i..i + k].iter().copied());
                }
            }
            7 if len > 1 => {
                // swap a reference number
                if let Some(p) = (0..16).map(|_| rng.below(len)).find(|&p| input[p] == b'#') {
                    let digits = (rng.next() % 5000).to_string();
                    let end = (p + 1..input.len()).find(|&q| !input[q].is_ascii_digit()).unwrap_or(input.len());
                    input.splice(p + 1..end, digits.bytes());
                }
            }
            _ => {
                let i = rng.below(len + 1);
                input.insert(i, rng.next() as u8);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seeds: Vec<Vec<u8>> = args[2.min(args.len())..].iter().filter_map(|p| std::fs::read(p).ok()).collect();
    if seeds.is_empty() {
        eprintln!("usage: stable_step SECONDS SEED_FILES...");
        std::process::exit(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64);
    let start = Instant::now();
    let deadline = Duration::from_secs(secs);
    let (mut runs, mut ok, mut crashes) = (0u64, 0u64, 0u64);
    std::fs::create_dir_all("fuzz/artifacts/step").ok();
    while start.elapsed() < deadline {
        let mut input = seeds[rng.below(seeds.len())].clone();
        // smaller inputs run faster: often cut the seed down first
        if input.len() > 20_000 && rng.below(2) == 0 {
            let cut = 2000 + rng.below(input.len() - 2000);
            input.truncate(cut);
        }
        mutate(&mut rng, &mut input, &seeds);
        runs += 1;
        let r = catch_unwind(AssertUnwindSafe(|| extrack::import::step::read_step(&input, "fuzz.step")));
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => {}
            Err(_) => {
                crashes += 1;
                let path = format!("fuzz/artifacts/step/crash-{runs}.step");
                std::fs::write(&path, &input).ok();
                eprintln!("PANIC on input saved to {path}");
            }
        }
        if runs % 20_000 == 0 {
            eprintln!("{:>6.0}s {runs} runs, {ok} imported, {crashes} panics", start.elapsed().as_secs_f64());
        }
    }
    println!(
        "stable_step: {runs} runs in {:.0} s, {ok} inputs imported, {crashes} panics",
        start.elapsed().as_secs_f64()
    );
    if crashes > 0 {
        std::process::exit(1);
    }
}

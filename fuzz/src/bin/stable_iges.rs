//! Stable-toolchain fuzzing harness for the IGES reader (no cargo-fuzz
//! needed), the counterpart of `stable_step`: mutates seed files in-process
//! for a given time (byte edits, IGES tokens, column-aware edits of the
//! 80-column records: section letters, directory fields, pointers, counts),
//! runs `read_iges` and the inspect report on what is accepted, catches
//! panics, and writes any crashing input to `fuzz/artifacts/iges/`.
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin stable_iges -- SECONDS SEED_FILES...`

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
    b",",
    b";",
    b"1H,",
    b"1H;",
    b"0H",
    b"99999H",
    b"H",
    b"D",
    b"P",
    b"S",
    b"G",
    b"T",
    b"d",
    b"p",
    b"\r\n",
    b"\r",
    b"-0.",
    b"1.E300",
    b"1.D-320",
    b"NaN",
    b"-1",
    b"0",
    b"999999999",
    b"1000000000000",
    b"124",
    b"308",
    b"408",
    b"102",
    b"126",
    b"128",
    b"141",
    b"142",
    b"143",
    b"144",
    b"186",
    b"502",
    b"504",
    b"508",
    b"510",
    b"514",
    b"       1",
    b"      -1",
    b"99999999",
    b"        ",
    b"\n",
    b"00000000",
    b"00010000",
];

/// Start of the 80-column record (line) holding byte `i`, and its length.
fn record_at(input: &[u8], i: usize) -> (usize, usize) {
    let start = input[..i].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let end = input[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |p| i + p);
    (start, end - start)
}

/// Overwrites an 8-column field of a fixed-format record with a number.
fn set_field(input: &mut [u8], at: usize, value: i64) {
    let s = format!("{value:>8}");
    let b = s.as_bytes();
    let b = &b[b.len().saturating_sub(8)..];
    for (k, &c) in b.iter().enumerate() {
        if let Some(x) = input.get_mut(at + k) {
            *x = c;
        }
    }
}

fn interesting(rng: &mut Rng) -> i64 {
    const V: &[i64] = &[
        0,
        1,
        2,
        3,
        -1,
        -7,
        7,
        8,
        9,
        99,
        124,
        1_000,
        65_535,
        999_999,
        99_999_999,
        -99_999_999,
    ];
    if rng.below(2) == 0 {
        V[rng.below(V.len())]
    } else {
        (rng.next() % 4000) as i64 * if rng.below(2) == 0 { 2 } else { 1 } + 1
    }
}

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let n = 1 + rng.below(8);
    for _ in 0..n {
        let len = input.len();
        match rng.below(12) {
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
                // duplicate a chunk (often whole records)
                let i = rng.below(len);
                let k = 1 + rng.below(400.min(len - i));
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
                    let k = 1 + rng.below(800.min(s.len() - i));
                    let j = rng.below(input.len() + 1);
                    input.splice(j..j, s[i..i + k].iter().copied());
                }
            }
            7 if len > 0 => {
                // a directory-entry field (9 fields of 8 columns) gets an odd value
                let (start, rl) = record_at(input, rng.below(len));
                if rl >= 73 && input[start + 72] == b'D' {
                    let f = rng.below(9);
                    let v = interesting(rng);
                    set_field(input, start + 8 * f, v);
                }
            }
            8 if len > 0 => {
                // a parameter-data number: replace the digits around a position
                let i = rng.below(len);
                let (start, rl) = record_at(input, i);
                if rl >= 73 && input[start + 72] == b'P' && i < start + 64 {
                    let a = (start..=i)
                        .rev()
                        .find(|&p| !input[p].is_ascii_digit())
                        .map_or(start, |p| p + 1);
                    let b = (i..start + 64)
                        .find(|&p| !input[p].is_ascii_digit())
                        .unwrap_or(start + 64);
                    if a < b {
                        let v = interesting(rng).unsigned_abs().to_string();
                        input.splice(a..b, v.bytes());
                    }
                }
            }
            9 if len > 0 => {
                // section letter or sequence number of a record
                let (start, rl) = record_at(input, rng.below(len));
                if rl >= 80 {
                    if rng.below(2) == 0 {
                        input[start + 72] = b"SGDPTsgdpt X"[rng.below(12)];
                    } else {
                        let (letter, v) = (input[start + 72], interesting(rng));
                        set_field(input, start + 72, v);
                        input[start + 72] = letter;
                    }
                }
            }
            10 if len > 0 => {
                // drop or duplicate one whole record
                let (start, rl) = record_at(input, rng.below(len));
                let end = (start + rl + 1).min(input.len());
                if rng.below(2) == 0 {
                    input.drain(start..end);
                } else {
                    let rec: Vec<u8> = input[start..end].to_vec();
                    input.splice(start..start, rec);
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
    let seeds: Vec<Vec<u8>> = args[2.min(args.len())..]
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    if seeds.is_empty() {
        eprintln!("usage: stable_iges SECONDS SEED_FILES...");
        std::process::exit(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ std::process::id() as u64);
    let start = Instant::now();
    let deadline = Duration::from_secs(secs);
    let (mut runs, mut ok, mut crashes) = (0u64, 0u64, 0u64);
    std::fs::create_dir_all("fuzz/artifacts/iges").ok();
    while start.elapsed() < deadline {
        let mut input = seeds[rng.below(seeds.len())].clone();
        // smaller inputs run faster: often cut the seed down first
        if input.len() > 20_000 && rng.below(2) == 0 {
            let cut = 2000 + rng.below(input.len() - 2000);
            input.truncate(cut);
        }
        mutate(&mut rng, &mut input, &seeds);
        runs += 1;
        let r = catch_unwind(AssertUnwindSafe(|| {
            extrack::import::iges::read_iges(&input, "fuzz.igs").map(|m| extrack::import::InspectReport::of(&m))
        }));
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => {}
            Err(_) => {
                crashes += 1;
                let path = format!("fuzz/artifacts/iges/crash-{runs}.igs");
                std::fs::write(&path, &input).ok();
                eprintln!("PANIC on input saved to {path}");
            }
        }
        if runs % 20_000 == 0 {
            eprintln!(
                "{:>6.0}s {runs} runs, {ok} imported, {crashes} panics",
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "stable_iges: {runs} runs in {:.0} s, {ok} inputs imported, {crashes} panics",
        start.elapsed().as_secs_f64()
    );
    if crashes > 0 {
        std::process::exit(1);
    }
}

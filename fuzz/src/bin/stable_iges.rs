//! Stable-toolchain fuzzing harness for the IGES reader (no cargo-fuzz
//! needed), the counterpart of `stable_step`: mutates seed files in-process
//! for a given time (byte edits, IGES tokens, column-aware edits of the
//! 80-column records: section letters, directory fields, pointers, counts),
//! runs `read_iges` and the inspect report on what is accepted, catches
//! panics, and writes any crashing input to `fuzz/artifacts/iges/`.
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin stable_iges -- SECONDS SEED_FILES...`

use extrack_fuzz::{run, Mutator, Rng};

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
        (rng.bits() % 4000) as i64 * if rng.below(2) == 0 { 2 } else { 1 } + 1
    }
}

const MUTATOR: Mutator = Mutator {
    tokens: TOKENS,
    max_dup: 400,
    max_splice: 800,
    kinds: 12,
};

/// The column-aware IGES edits (kinds 7–10); false when none applies.
fn special(kind: usize, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let len = input.len();
    match kind {
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
        _ => return false,
    }
    true
}

fn main() {
    run(
        "iges",
        "igs",
        |rng, input, seeds| MUTATOR.mutate(rng, input, seeds, special),
        |input| {
            extrack::import::iges::read_iges(input, "fuzz.igs")
                .map(|m| extrack::import::InspectReport::of(&m))
                .is_ok()
        },
    );
}

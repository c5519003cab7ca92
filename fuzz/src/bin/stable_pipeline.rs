//! Stable-toolchain fuzzing harness for the whole pipeline (import, sanity
//! pass, bounded preparation, one closest-point query): mutates STEP and
//! IGES seed files in-process for a given time with the STEP and IGES
//! reference edits, catches panics and writes crashing inputs to
//! `fuzz/artifacts/pipeline/`. The per-process campaign with time and
//! memory limits is `tools/mutate.py`.
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin stable_pipeline -- SECONDS SEED_FILES...`

use extrack_fuzz::{run, Mutator, Rng};

const TOKENS: &[&[u8]] = &[
    b"#",
    b"#1",
    b"#99999999",
    b"1.E308",
    b"1.E20",
    b"-1.E20",
    b"1.D20",
    b"NaN",
    b"999999999",
    b"(((((((((",
    b"\0",
    b"\xff",
    b",",
    b";",
    b"(",
    b")",
];

const MUTATOR: Mutator = Mutator {
    tokens: TOKENS,
    max_dup: 256,
    max_splice: 512,
    kinds: 9,
};

/// Kinds 7 and 8: a reference (STEP `#N`) moved to another instance, or a
/// number replaced by an absurd one.
fn special(kind: usize, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let len = input.len();
    if len <= 1 {
        return false;
    }
    let Some(p) = (0..32).map(|_| rng.below(len)).find(|&p| {
        if kind == 7 {
            input[p] == b'#'
        } else {
            input[p].is_ascii_digit()
        }
    }) else {
        return false;
    };
    let start = if kind == 7 { p + 1 } else { p };
    let end = (start..len).find(|&q| !input[q].is_ascii_digit()).unwrap_or(len);
    let with: Vec<u8> = if kind == 7 {
        (1 + rng.below(3000)).to_string().into_bytes()
    } else {
        let absurd: [&[u8]; 4] = [b"1E308", b"1E20", b"-1E20", b"999999999"];
        absurd[rng.below(4)].to_vec()
    };
    input.splice(start..end, with);
    true
}

fn main() {
    run(
        "pipeline",
        "bin",
        |rng, input, seeds| MUTATOR.mutate(rng, input, seeds, special),
        |data| {
            extrack_fuzz::pipeline(data);
            true
        },
    );
}

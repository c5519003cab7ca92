//! Stable-toolchain fuzzing harness for the STEP reader (no cargo-fuzz
//! needed): mutates seed files in-process for a given time, catches panics,
//! and writes any crashing input to `fuzz/artifacts/step/`.
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin stable_step -- SECONDS SEED_FILES...`

use extrack_fuzz::{run, Mutator, Rng};

const TOKENS: &[&[u8]] = &[
    b"(",
    b")",
    b",",
    b";",
    b"#",
    b"#1",
    b"#99999999",
    b"$",
    b"*",
    b"'",
    b"''",
    b"\\X2\\",
    b"\\X0\\",
    b"\\X\\",
    b"\\S\\",
    b"/*",
    b"*/",
    b".T.",
    b".F.",
    b"1.E300",
    b"-0.",
    b"1e-320",
    b"ENDSEC;",
    b"DATA;",
    b"END-ISO-10303-21;",
    b"B_SPLINE_SURFACE_WITH_KNOTS",
    b"ADVANCED_FACE",
    b"LENGTH_MEASURE(",
    b"((((((((((",
    b"))))))))))",
    b"999999999999",
];

const MUTATOR: Mutator = Mutator {
    tokens: TOKENS,
    max_dup: 256,
    max_splice: 512,
    kinds: 9,
};

/// The STEP edit (kind 7): swap a reference number.
fn special(kind: usize, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let len = input.len();
    if kind != 7 || len <= 1 {
        return false;
    }
    // swap a reference number
    if let Some(p) = (0..16).map(|_| rng.below(len)).find(|&p| input[p] == b'#') {
        let digits = (rng.bits() % 5000).to_string();
        let end = (p + 1..input.len())
            .find(|&q| !input[q].is_ascii_digit())
            .unwrap_or(input.len());
        input.splice(p + 1..end, digits.bytes());
    }
    true
}

fn main() {
    run(
        "step",
        "step",
        |rng, input, seeds| MUTATOR.mutate(rng, input, seeds, special),
        |input| extrack::import::step::read_step(input, "fuzz.step").is_ok(),
    );
}

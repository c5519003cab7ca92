//! Stable-toolchain fuzzing harness for the scene reader (plain and packed
//! `.exs`): mutates seed scenes in-process for a given time — generic byte
//! edits of the plain bytes, then usually re-sealed checksums (so that the
//! structural checks behind the CRCs are reached), sometimes packed again,
//! mutated after packing, or packed around a changed residual image (codec
//! 2) — and runs `SceneFile::from_file_bytes`, the dump,
//! `TrackScene::new` and a cold closest-point query on what is accepted,
//! catching panics and writing any crashing input to `fuzz/artifacts/scene/`.
//!
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin stable_scene -- SECONDS SEED.exs...`

use extrack::scene::checksum::reseal;
use extrack::scene::{derived, packed};
use extrack_fuzz::{run, Mutator, Rng};

const TOKENS: &[&[u8]] = &[
    &[0xff, 0xff, 0xff, 0xff],
    &[0xfe, 0xff, 0xff, 0xff],
    &[0, 0, 0, 0x80],
    &[0, 0, 0, 0],
    &[1, 0, 0, 0],
    &[0, 0, 0, 0, 0, 0, 0xf8, 0x7f],
    &[0, 0, 0, 0, 0, 0, 0xf0, 0x7f],
    &[0, 0, 0, 0, 0, 0, 0xf0, 0x3f],
    &[0, 0, 0, 0, 0, 0, 0xf0, 0xbf],
    b"EXTRACK\0",
    b"EXTRACKZ",
];

const MUTATOR: Mutator = Mutator {
    tokens: TOKENS,
    max_dup: 256,
    max_splice: 512,
    kinds: 9,
};

/// Scene-aware edits (kinds 7–8): overwrite an aligned u32 or f64 of the
/// data area with a boundary value.
fn special(kind: usize, rng: &mut Rng, input: &mut Vec<u8>) -> bool {
    let len = input.len();
    if len < 48 {
        return false;
    }
    let at = 40 + rng.below((len - 40) / 4) * 4;
    match kind {
        7 if at + 4 <= len => {
            let v = [0u32, 1, 2, 7, u32::MAX, u32::MAX - 1, 0x8000_0000, rng.bits() as u32][rng.below(8)];
            input[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        8 if at % 8 == 0 && at + 8 <= len => {
            let v = [f64::NAN, f64::INFINITY, -1.0, 0.0, 1e300, -1e-300][rng.below(6)];
            input[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        _ => return false,
    }
    true
}

fn main() {
    run(
        "scene",
        "exs",
        |rng, input, seeds| {
            // mutate the plain bytes of a packed seed
            if packed::is_packed(input) {
                if let Ok(plain) = packed::unpack(input) {
                    *input = plain.as_bytes().to_vec();
                }
            }
            MUTATOR.mutate(rng, input, seeds, special);
            match rng.below(8) {
                0 => {}
                1 => {
                    if let Ok(p) = packed::pack(input, 1) {
                        *input = p;
                    }
                }
                2 => {
                    let _ = reseal(input);
                    if let Ok(mut p) = packed::pack(input, 1) {
                        let i = rng.below(p.len());
                        p[i] ^= 1 << rng.below(8);
                        *input = p;
                    }
                }
                3 => {
                    let _ = reseal(input);
                    if let Ok(p) = packed::pack(input, 1) {
                        *input = p;
                    }
                }
                4 => {
                    // a valid container around a changed residual image (codec 2)
                    let _ = reseal(input);
                    let mut r = derived::encode(input);
                    if !r.is_empty() {
                        let i = rng.below(r.len());
                        r[i] ^= 1 << rng.below(8);
                    }
                    if let Ok(p) = packed::pack_raw(&r, packed::CODEC_ZSTD_DERIVED, 1) {
                        *input = p;
                    }
                }
                _ => {
                    let _ = reseal(input);
                }
            }
        },
        extrack_fuzz::exercise_scene,
    );
}

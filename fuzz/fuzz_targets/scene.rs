//! Fuzz target: loading a scene file (plain or packed) must never panic,
//! whatever the bytes; whatever is accepted must dump, build the runtime
//! geometry and answer a closest-point query without panicking.
//! Run: `cargo +nightly fuzz run scene --features libfuzzer fuzz/corpus/scene` (seeds: `.exs`
//! files written by `extrack import`, packed or `--plain`).
//!
//! A first byte with the low bit set re-seals the checksums of the plain
//! bytes that follow (`scene::checksum::reseal`), so that mutations reach the
//! structural checks behind the CRCs instead of stopping at them.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 {
        let _ = extrack::scene::checksum::reseal(&mut bytes);
    }
    extrack_fuzz::exercise_scene(&bytes);
});

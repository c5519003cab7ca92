//! cargo-fuzz target: the whole pipeline (import, sanity pass, bounded
//! preparation, a closest-point query on the scene) must never panic, and
//! every error must quote the input escaped (no control character).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    extrack_fuzz::pipeline(data);
});

//! cargo-fuzz target: the STEP reader must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = extrack::import::step::read_step(data, "fuzz.step");
});

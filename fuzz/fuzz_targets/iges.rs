//! Fuzz target: the IGES reader must never panic, whatever the bytes.
//! Run: `cargo +nightly fuzz run iges --features libfuzzer fuzz/corpus/iges` (see formats/iges.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = extrack::import::iges::read_iges(data, "fuzz.igs") {
        // the report must also build on whatever was accepted
        let _ = extrack::import::InspectReport::of(&model);
    }
});

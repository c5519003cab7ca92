//! Export: format round trips, glTF, and Open CASCADE reading the STEP/IGES exports.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/export/`
//! (insta snapshots in `tests/export/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "export/export_occt.rs"]
mod export_occt;
#[path = "export/gltf_export.rs"]
mod gltf_export;
#[path = "export/roundtrip.rs"]
mod roundtrip;

//! Scene format (.exs): round trips, golden dump, corruption, hostile scenes and the packed container.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/scene/`
//! (insta snapshots in `tests/scene/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "scene/scene_checks.rs"]
mod scene_checks;
#[path = "scene/scene_format.rs"]
mod scene_format;
#[path = "scene/scene_hostile_proptest.rs"]
mod scene_hostile_proptest;
#[path = "scene/scene_packed.rs"]
mod scene_packed;
#[path = "scene/scene_proptest.rs"]
mod scene_proptest;

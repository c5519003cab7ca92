//! The `extrack` command line end to end: convert/export, distance, dump, inspect, query, track and verify.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/cli/`
//! (insta snapshots in `tests/cli/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "cli/cli_batch.rs"]
mod cli_batch;
#[path = "cli/cli_convert.rs"]
mod cli_convert;
#[path = "cli/cli_distance_pair.rs"]
mod cli_distance_pair;
#[path = "cli/cli_dump.rs"]
mod cli_dump;
#[path = "cli/cli_hostile.rs"]
mod cli_hostile;
#[path = "cli/cli_inspect_scene.rs"]
mod cli_inspect_scene;
#[path = "cli/cli_query_track.rs"]
mod cli_query_track;
#[path = "cli/cli_verify.rs"]
mod cli_verify;

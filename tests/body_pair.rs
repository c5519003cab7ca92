//! Body–body runtime: the seeds' two-body scenarios against brute force and Open CASCADE's pair
//! distances.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/body_pair/`
//! (insta snapshots in `tests/body_pair/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "body_pair/body_pair.rs"]
mod body_pair;
#[path = "body_pair/body_pair_coherent.rs"]
mod body_pair_coherent;
#[path = "body_pair/body_pair_kept.rs"]
mod body_pair_kept;
#[path = "body_pair/body_pair_oracle.rs"]
mod body_pair_oracle;
#[path = "body_pair/body_pair_penetration.rs"]
mod body_pair_penetration;
#[path = "body_pair/body_pair_scenarios.rs"]
mod body_pair_scenarios;

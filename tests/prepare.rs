//! Offline stage (`extrack::prepare`): every fixture prepares into a valid scene with nice pieces
//! covering each face, the prepared dump snapshot, oracle-triage regressions and p-curve sheets, and
//! the self-check of prepared scenes (`verify_check`).
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/prepare/`
//! (insta snapshots in `tests/prepare/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "prepare/class_fixtures.rs"]
mod class_fixtures;
#[path = "prepare/composite_edges.rs"]
mod composite_edges;
#[path = "prepare/prepare_fixtures.rs"]
mod prepare_fixtures;
#[path = "prepare/prepare_snapshot.rs"]
mod prepare_snapshot;
#[path = "prepare/prepare_triage.rs"]
mod prepare_triage;
#[path = "prepare/trim_fit_corpus.rs"]
mod trim_fit_corpus;
#[path = "prepare/trim_pcurve_sheet.rs"]
mod trim_pcurve_sheet;
#[path = "prepare/verify_accounting.rs"]
mod verify_accounting;
#[path = "prepare/verify_budget.rs"]
mod verify_budget;
#[path = "prepare/verify_check.rs"]
mod verify_check;
#[path = "prepare/verify_corpus.rs"]
mod verify_corpus;

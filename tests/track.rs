//! Runtime trackers: point–patch / point–curve / curve–curve experiments and bad input, and the
//! point–body runtime against Open CASCADE and brute force (generated fixtures and corpus).
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/track/`
//! (insta snapshots in `tests/track/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "track/batch_queries.rs"]
mod batch_queries;
#[path = "track/cell_sixteenths.rs"]
mod cell_sixteenths;
#[path = "track/cold_cones.rs"]
mod cold_cones;
#[path = "track/cusp_edges.rs"]
mod cusp_edges;
#[path = "track/focal_set.rs"]
mod focal_set;
#[path = "track/open_cells.rs"]
mod open_cells;
#[path = "track/point_body.rs"]
mod point_body;
#[path = "track/point_body_band.rs"]
mod point_body_band;
#[path = "track/point_body_corpus.rs"]
mod point_body_corpus;
#[path = "track/track_bad_input.rs"]
mod track_bad_input;
#[path = "track/track_curves.rs"]
mod track_curves;
#[path = "track/track_motion.rs"]
mod track_motion;
#[path = "track/track_sliver.rs"]
mod track_sliver;
#[path = "track/track_table1.rs"]
mod track_table1;
#[path = "track/unconverged.rs"]
mod unconverged;

//! Geometry stage (`extrack::geom`): the NURBS evaluators against truck-geometry and closed forms.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/geom/`
//! (insta snapshots in `tests/geom/snapshots/`, proptest regressions next to their source).

#[path = "geom/geom_eval.rs"]
mod geom_eval;

//! Import stage (IGES/STEP → Model): inspect snapshots, malformed input, Open CASCADE oracles,
//! void shells, the STEP number scanner, and the body–body oracle files' well-formedness.
//!
//! One test binary for the stage; each module is one former `tests/<name>.rs`, kept in `tests/import/`
//! (insta snapshots in `tests/import/snapshots/`, proptest regressions next to their source).

mod common;

#[path = "import/accounting.rs"]
mod accounting;
#[path = "import/hostile.rs"]
mod hostile;
#[path = "import/iges_inspect.rs"]
mod iges_inspect;
#[path = "import/iges_malformed.rs"]
mod iges_malformed;
#[path = "import/iges_oracle.rs"]
mod iges_oracle;
#[path = "import/iges_voids.rs"]
mod iges_voids;
#[path = "import/oracle_pairs_format.rs"]
mod oracle_pairs_format;
#[path = "import/step_closest.rs"]
mod step_closest;
#[path = "import/step_corpus.rs"]
mod step_corpus;
#[path = "import/step_inspect.rs"]
mod step_inspect;
#[path = "import/step_malformed.rs"]
mod step_malformed;
#[path = "import/step_numbers.rs"]
mod step_numbers;
#[path = "import/step_text.rs"]
mod step_text;
#[path = "import/step_voids.rs"]
mod step_voids;
#[path = "import/type_classes.rs"]
mod type_classes;

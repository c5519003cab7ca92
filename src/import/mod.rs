//! Importers (IGES, STEP) into the B-rep [`model::Model`].

pub mod model;

pub use model::Model;

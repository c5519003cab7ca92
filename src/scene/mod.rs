//! The `.exs` scene format: the seam between the offline stage and the
//! runtime trackers (DESIGN.md "Pipeline"). Specified byte by byte in
//! `formats/scene.md`.
//!
//! - [`SceneData`] (`data.rs`): the owned model the offline stage fills;
//! - [`records`]: the plain-data `#[repr(C)]` records as they lie in the file;
//! - [`SceneData::write`] (`writer.rs`): deterministic serialisation;
//! - [`SceneView`] (`view/`): zero-copy reader validating once, then
//!   infallible accessors returning record slices in place; [`SceneFile`] and
//!   [`AlignedBytes`] own the 8-aligned buffer it borrows;
//! - [`derived`]: the fields a packed scene (codec 2) derives instead of storing;
//! - [`packed`]: the Zstandard-compressed container `extrack import` writes
//!   by default, unpacked into an aligned buffer before viewing;
//! - [`checksum`]: CRC-32 of the header and of every section;
//! - [`dump()`]: deterministic text dump;
//! - [`gltf`]: glTF 2.0 tessellation of the pieces coloured by class;
//! - [`SceneError`]: why a buffer is not a valid scene.
//!
//! ```
//! use extrack::scene::{AlignedBytes, SceneData, SceneView};
//! let bytes = AlignedBytes::from_slice(&SceneData::default().write());
//! let view = SceneView::from_bytes(bytes.as_bytes()).unwrap();
//! assert_eq!(view.pieces().len(), 0);
//! ```

pub mod bvh;
pub mod checksum;
pub mod data;
pub mod derived;
mod dump;
mod error;
#[cfg(feature = "toolchain")]
pub mod gltf;
pub mod packed;
pub mod records;
pub mod summary;
mod view;
mod writer;

pub use data::*;
pub use dump::dump;
pub use error::SceneError;
pub use view::{AlignedBytes, SceneFile, SceneView};
pub use writer::{assemble, RawSection};

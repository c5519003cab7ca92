//! The `.exs` scene format: the seam between the offline stage and the
//! runtime trackers (`docs/architecture.md`, "Pipeline"). Specified byte by byte in
//! `formats/scene.md`.
//!
//! - [`SceneData`] (`data.rs`): the owned model the offline stage fills;
//! - [`records`]: the plain-data `#[repr(C)]` records as they lie in the file;
//! - [`SceneData::write`] (`writer.rs`): deterministic serialisation;
//! - [`SceneView`] (`view/`): zero-copy reader validating once, then
//!   infallible accessors returning record slices in place; [`SceneFile`] and
//!   [`AlignedBytes`] own the 8-aligned buffer it borrows;
//! - `derived`: the fields a packed scene (codec 2) derives instead of storing;
//! - [`packed`]: the Zstandard-compressed container `extrack import` writes
//!   by default, unpacked into an aligned buffer before viewing;
//! - `checksum`: CRC-32 of the header and of every section;
//! - [`dump()`]: deterministic text dump;
//! - `gltf`: glTF 2.0 tessellation of the pieces coloured by class;
//! - [`SceneError`]: why a buffer is not a valid scene.
//!
//! ```
//! use extrack::scene::{AlignedBytes, SceneData, SceneView};
//! let bytes = AlignedBytes::from_slice(&SceneData::default().write());
//! let view = SceneView::from_bytes(bytes.as_bytes()).unwrap();
//! assert_eq!(view.pieces().len(), 0);
//! ```

internal! {
    mod bvh;
    mod checksum;
    mod data;
    mod derived;
    #[cfg(feature = "toolchain")]
    mod gltf;
    mod summary;
}
mod dump;
mod error;
pub mod packed;
pub mod records;
mod view;
mod writer;

pub use data::*;
pub use dump::dump;
pub use error::SceneError;
#[cfg(feature = "toolchain")]
pub use gltf::to_gltf;
pub use summary::{SceneSummary, SectionSummary, ToleranceSummary};
pub use view::{AlignedBytes, SceneFile, SceneView};
pub use writer::{assemble, RawSection};

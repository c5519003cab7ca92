//! Errors of reading and validating a scene. Every variant's message is one
//! readable line naming the section, record and field concerned.

use std::path::PathBuf;

/// Why a byte buffer or file is not a valid scene.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read or mapped.
    #[error("cannot read {path}: {source}")]
    Io {
        /// File path.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// The buffer does not start at an 8-byte aligned address.
    #[error("scene buffer is not 8-byte aligned (address % 8 = {rem}); load it with AlignedBytes or SceneFile::open")]
    Misaligned {
        /// Address modulo 8.
        rem: usize,
    },
    /// Shorter than a header plus its section table.
    #[error("truncated or not an extrack scene: {len} bytes is too short (need at least {need})")]
    TooShort {
        /// Buffer length.
        len: usize,
        /// Required length.
        need: usize,
    },
    /// Wrong magic bytes.
    #[error("not an extrack scene (bad magic {found:02x?}, expected \"EXTRACK\\0\")")]
    BadMagic {
        /// The first 8 bytes.
        found: [u8; 8],
    },
    /// Wrong endianness marker.
    #[error("bad endianness marker {found:#010x} (expected 0x01020304 little-endian)")]
    BadEndianness {
        /// Marker as read.
        found: u32,
    },
    /// A major version this reader does not implement.
    #[error("unsupported scene format version {major}.{minor} (this reader implements major version {supported})")]
    UnsupportedVersion {
        /// Major version in the file.
        major: u16,
        /// Minor version in the file.
        minor: u16,
        /// Supported major version.
        supported: u16,
    },
    /// A reserved field or flag bit is not zero.
    #[error("{what}: reserved bits set ({value:#x})")]
    Reserved {
        /// Which field.
        what: String,
        /// Its value.
        value: u64,
    },
    /// Header's total length differs from the buffer's.
    #[error("length mismatch: header says {header} bytes, buffer has {actual} (truncated or padded file)")]
    LengthMismatch {
        /// Length in the header.
        header: u64,
        /// Actual length.
        actual: usize,
    },
    /// Header + section table checksum mismatch.
    #[error("header checksum mismatch (stored {stored:#010x}, computed {computed:#010x})")]
    HeaderChecksum {
        /// Stored CRC.
        stored: u32,
        /// Computed CRC.
        computed: u32,
    },
    /// A section's bytes do not match its checksum.
    #[error("section {section}: checksum mismatch (stored {stored:#010x}, computed {computed:#010x})")]
    SectionChecksum {
        /// Section name or id.
        section: String,
        /// Stored CRC.
        stored: u32,
        /// Computed CRC.
        computed: u32,
    },
    /// A section's placement in the file is invalid.
    #[error("section {section}: {reason} (offset {offset}, length {length})")]
    SectionLayout {
        /// Section name or id.
        section: String,
        /// What is wrong.
        reason: &'static str,
        /// Offset.
        offset: u64,
        /// Length.
        length: u64,
    },
    /// A section's record size or count does not match.
    #[error("section {section}: record size {record_size} × count {record_count} does not fit length {length} (expected record size {expected})")]
    RecordShape {
        /// Section name.
        section: String,
        /// Record size in the table.
        record_size: u32,
        /// Record count in the table.
        record_count: u32,
        /// Section length.
        length: u64,
        /// Record size this version defines.
        expected: usize,
    },
    /// A required section with an id this reader does not know.
    #[error("unknown required section id {id} (written by a newer major version?)")]
    UnknownRequiredSection {
        /// Section id.
        id: u32,
    },
    /// A section id listed twice.
    #[error("section {section} appears twice")]
    DuplicateSection {
        /// Section name.
        section: String,
    },
    /// A section this version requires is absent.
    #[error("required section {section} is missing")]
    MissingSection {
        /// Section name.
        section: &'static str,
    },
    /// A byte between sections is not zero.
    #[error("non-zero padding byte at offset {offset}")]
    Padding {
        /// Offset of the byte.
        offset: usize,
    },
    /// A `(first, count)` range reaches outside its target section.
    #[error("{what} {index}: range {first}+{count} out of bounds of {target} (len {len})")]
    Range {
        /// Record kind and field, e.g. `piece poles`.
        what: &'static str,
        /// Record index.
        index: usize,
        /// Range start.
        first: u32,
        /// Range count.
        count: u32,
        /// Target section name.
        target: &'static str,
        /// Target length.
        len: usize,
    },
    /// An index points outside its target.
    #[error("{what} {index}: index {value} out of range of {target} (len {len})")]
    Index {
        /// Record kind and field.
        what: &'static str,
        /// Record index.
        index: usize,
        /// Index value.
        value: u32,
        /// Target section name.
        target: &'static str,
        /// Target length.
        len: usize,
    },
    /// A float that must be finite is not.
    #[error("{what} {index}: non-finite value")]
    NonFinite {
        /// Record kind and field.
        what: &'static str,
        /// Record index.
        index: usize,
    },
    /// A record violates a rule of the format.
    #[error("{what} {index}: {reason}")]
    Invalid {
        /// Record kind.
        what: &'static str,
        /// Record index.
        index: usize,
        /// The rule broken.
        reason: String,
    },
    /// A packed scene's container is invalid (see `formats/scene.md`,
    /// "Packed container").
    #[error("packed scene: {reason}")]
    Packed {
        /// What is wrong.
        reason: String,
    },
}

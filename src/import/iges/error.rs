//! Errors of the IGES reader. Every message names the file line (1-based,
//! counted over the whole file) and, where one is involved, the directory-entry
//! sequence number (`DE n`, the odd D-section sequence number of the entity).

use thiserror::Error;

/// Why an IGES file could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum IgesError {
    /// The file holds no IGES records at all.
    #[error("line 1: empty file, no IGES records")]
    Empty,
    /// A record (line) is malformed: too short, unknown section letter, bad sequence number.
    #[error("line {line}: {msg}")]
    Record {
        /// File line.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// A section is missing, out of order or truncated.
    #[error("line {line}: {msg}")]
    Section {
        /// File line where the problem was noticed.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// The Global section cannot be read.
    #[error("line {line}: global parameter {index}: {msg}")]
    Global {
        /// File line of the global record holding the parameter.
        line: usize,
        /// 1-based global parameter index.
        index: usize,
        /// What is wrong.
        msg: String,
    },
    /// A directory entry is malformed.
    #[error("line {line}, DE {de}: {msg}")]
    Directory {
        /// File line.
        line: usize,
        /// Directory-entry sequence number.
        de: usize,
        /// What is wrong.
        msg: String,
    },
    /// The parameter data of an entity is malformed.
    #[error("line {line}, DE {de} (entity {entity}): parameter {index}: {msg}")]
    Parameter {
        /// File line of the parameter record.
        line: usize,
        /// Directory-entry sequence number of the entity.
        de: usize,
        /// Entity type number.
        entity: i64,
        /// 1-based parameter index (0 = the entity type field / whole record).
        index: usize,
        /// What is wrong.
        msg: String,
    },
    /// An entity's content is invalid (bad pointer target, cycle, bad geometry).
    #[error("line {line}, DE {de} (entity {entity}): {msg}")]
    Entity {
        /// File line of the entity's first directory record.
        line: usize,
        /// Directory-entry sequence number.
        de: usize,
        /// Entity type number.
        entity: i64,
        /// What is wrong.
        msg: String,
    },
}

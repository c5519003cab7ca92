//! The HEADER section: FILE_NAME's originating system and preprocessor
//! version become the Model's `producer`; FILE_SCHEMA is reported.

use super::access::Args;
use super::arena::{Exchange, Param};
use super::error::StepError;

/// What the header says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header {
    /// FILE_NAME.originating_system (or the preprocessor version when blank).
    pub producer: String,
    /// FILE_SCHEMA schema names.
    pub schemas: Vec<String>,
}

/// Reads the header entities.
pub fn read_header(ex: &Exchange<'_>) -> Result<Header, StepError> {
    let mut h = Header::default();
    for inst in &ex.header {
        let Some(rec) = ex.records_of(inst).first() else {
            continue;
        };
        let mut a = Args::new(ex, usize::MAX, rec);
        a.idx = usize::MAX;
        let name = super::access::upper(a.entity);
        let string_at = |k: usize| -> Result<String, StepError> {
            Ok(match a.args.get(k) {
                Some(Param::Str(s)) => super::strings::decode_lenient(s.of(ex.src)).text,
                _ => String::new(),
            })
        };
        match &*name {
            b"FILE_NAME" => {
                // name, time_stamp, author, organization, preprocessor_version, originating_system, authorization
                let pre = string_at(4)?;
                let orig = string_at(5)?;
                let orig = orig.trim();
                let pre = pre.trim();
                h.producer = match (orig.is_empty() || orig.eq_ignore_ascii_case("unknown"), pre.is_empty()) {
                    (false, true) => orig.to_string(),
                    (false, false) if orig != pre => format!("{orig} / {pre}"),
                    (false, false) => orig.to_string(),
                    (true, _) => pre.to_string(),
                };
            }
            b"FILE_SCHEMA" => {
                if let Some(l) = a.args.first().and_then(|p| ex.list(p)) {
                    for p in l {
                        if let Param::Str(s) = p {
                            h.schemas.push(String::from_utf8_lossy(s.of(ex.src)).into_owned());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(h)
}

//! The bundle: runlens' public file format (`runlens-bundle`, version 1), its loader and validator.
//!
//! Only the types in this module are `Serialize`; everything else in runlens derives from them.
//! Field-by-field documentation lives in `docs/bundle-format.md`; the JSON Schema in
//! `public/schema/bundle-v1.schema.json` is generated from these types (see `tests/schema.rs`).

mod borrowed;
mod bytesize;
mod criteria;
mod decode;
mod error;
mod load;
mod nonfinite;
mod presized;
mod save;
mod skipped;
pub mod split;
pub mod split_load;
pub mod stream_cut;
mod timeline;
mod timeline_json;
pub mod timeline_sum;
mod types;
mod validate;
mod warnings;
pub(crate) mod words;

pub use borrowed::BundleRef;
pub use bytesize::{parse_human_size, ByteSize};
pub use criteria::{Criteria, FailWhen};
pub use error::{LoadError, LoadErrorKind};
pub use load::{load_bundle, load_bundle_str, Loaded};
pub use save::to_json;
pub use timeline::{interval_for, CauseTimeline, Timeline, TransactionTimeline, INTERVALS_S, MAX_BUCKETS};
pub use timeline_json::TransactionTimelineJson;
pub use types::*;
pub use warnings::Warning;

/// The value of the top-level `format` field of every bundle.
pub const FORMAT_NAME: &str = "runlens-bundle";
/// The bundle format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

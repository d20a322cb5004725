//! What the importers share, in one place: errors by cause (`causes`), text decoding (`text`), the fast CSV splitter
//! (`csv_fast`), exact per-label statistics (`samples`), resources from series (`series`), the
//! label cache, timestamps (`civil`), names of files and runs (`names`), files of JSON documents
//! (`json_docs`), one file read in byte ranges (`parallel`), the worker's warm-up inputs
//! (`warmup`), the snapshot tests' dump (`dump`) and the unit tests' helpers (`test_support`).

pub mod causes;
pub mod civil;
pub mod csv_fast;
pub mod digits;
pub mod dump;
pub mod json_docs;
pub mod label_cache;
pub mod names;
pub mod parallel;
pub mod samples;
pub mod series;
#[cfg(test)]
pub(crate) mod test_support;
pub mod text;
pub mod warmup;
